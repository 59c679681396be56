/* rigid.h - v0.1.0 - 3D rigid-body physics in one header - MIT license (see end of file)

   rigid.h simulates convex rigid bodies that fall, collide, slide, bounce and stack.
   Method: iterative impulses with friction (Bender & Schmitt 2006), time sequencing and shock
   propagation (Guendelman, Bridson & Fedkiw 2003), sort-and-sweep broad phase and
   separating-plane witnesses (Baraff 1997), polyhedral mass properties (Mirtich 1996).

   USAGE
      In exactly one C or C++ file:
         #define RIGID_IMPLEMENTATION
         #include "rigid.h"
      Everywhere else just #include "rigid.h". Compile with -I/usr/include/stb (stb_ds.h from
      Debian's libstb-dev) and link with -lm.

   QUICK START
      rg_world_def wd = rg_world_default_def();
      rg_world *world = rg_world_create(&wd, NULL);
      rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
      rg_hull *slab = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL);
      rg_body_def bd = rg_body_default_def();
      bd.type = RG_BODY_STATIC; bd.hull = slab; bd.position = rg_v3(0, -0.5f, 0);
      rg_body_create(world, &bd, NULL);
      bd = rg_body_default_def();
      bd.hull = cube; bd.position = rg_v3(0, 4, 0);
      rg_body_id box = rg_body_create(world, &bd, NULL);
      for (int i = 0; i < 120; ++i) rg_world_step(world, 1.0f / 60);
      printf("height %f\n", rg_body_position(world, box).y);
      rg_world_destroy(world);              (destroy the world before its hulls)
      rg_hull_destroy(cube); rg_hull_destroy(slab);

   COMPILE-TIME OPTIONS (define before including)
      RIGID_IMPLEMENTATION            compile the implementation in this file
      RIGID_DOUBLE                    rg_real is double (default float); same in every file.
                                      A mismatch between files fails at link time.
      RIGID_STATIC                    every function gets internal linkage
      RIGID_MALLOC(size, ctx)         allocator overrides: all three or none. ctx is
      RIGID_REALLOC(ptr, size, ctx)   rg_world_def.allocator_context for world memory, NULL for
      RIGID_FREE(ptr, ctx)            hulls and for stb_ds containers (stb_ds passes no context)
      RIGID_ASSERT(x)                 assertion override (default assert)
      RIGID_NO_STB_DS_IMPLEMENTATION  the program compiles stb_ds's implementation elsewhere;
                                      stb_ds then allocates with that program's STBDS_REALLOC
      RIGID_PROFILE_CLOCK()           an expression giving seconds as a double (e.g. from
                                      clock_gettime); rg_world_step then times its phases into
                                      rg_world_stats.seconds_*. Off by default.

   DETERMINISM
      The same sequence of calls gives bit-identical results with the same binary. Nothing
      depends on pointer values, hash order or time. Compile with -ffp-contract=off (gcc
      contracts a*b+c into FMA otherwise, and ignores #pragma STDC FP_CONTRACT) so that builds
      with different compilers on one machine agree.

   CONVENTIONS
      Right-handed, y up by the default gravity. Quaternions are (x, y, z, w) with w the scalar,
      Hamilton product, rg_quat_mul(a, b) applies b then a. rg_mat3.m[row][column]. Contact
      normals point from body B towards body A. Units are yours; defaults assume metres,
      kilograms, seconds.

   BAD INPUT
      Every function that can fail returns or writes an rg_result; NULL, NaN, infinities,
      degenerate hulls, stale ids and dt <= 0 are refused and leave the world unchanged.

   REVISION HISTORY
      0.1.0  foundation: math, hulls and mass properties, bodies, free motion
*/

#ifndef RIGID_H_INCLUDED
#define RIGID_H_INCLUDED

#define RIGID_VERSION_MAJOR 0
#define RIGID_VERSION_MINOR 1
#define RIGID_VERSION_PATCH 0
#define RIGID_VERSION_STRING "0.1.0"

#include <stdint.h>

#ifdef RIGID_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define RIGID_API static __attribute__((unused))
#else
#define RIGID_API static
#endif
#else
#define RIGID_API extern
#endif

#ifdef RIGID_DOUBLE
typedef double rg_real;
/* A file built with RIGID_DOUBLE and one built without cannot link together: the functions
   that create things carry the precision in their symbol name. */
#define rg_world_create rg_world_create_f64
#define rg_hull_create_box rg_hull_create_box_f64
#define rg_body_create rg_body_create_f64
#else
typedef float rg_real;
#define rg_world_create rg_world_create_f32
#define rg_hull_create_box rg_hull_create_box_f32
#define rg_body_create rg_body_create_f32
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
   Types
   ------------------------------------------------------------------------------------------- */

typedef struct rg_vec3 { rg_real x, y, z; } rg_vec3;
typedef struct rg_quat { rg_real x, y, z, w; } rg_quat;  /* unit quaternion, w scalar */
typedef struct rg_mat3 { rg_real m[3][3]; } rg_mat3;     /* m[row][column] */
typedef struct rg_world rg_world;                         /* opaque */
typedef struct rg_hull rg_hull;                           /* opaque, immutable, shareable */
typedef struct rg_body_id { uint32_t index, generation; } rg_body_id; /* generation 0 = null */

typedef enum rg_body_type { RG_BODY_STATIC, RG_BODY_KINEMATIC, RG_BODY_DYNAMIC } rg_body_type;

typedef enum rg_result {
    RG_OK = 0,
    RG_ERR_INVALID_ARGUMENT,  /* NULL, NaN, infinity, out of range */
    RG_ERR_DEGENERATE,        /* a hull without volume, points all coplanar or collinear */
    RG_ERR_OUT_OF_MEMORY,
    RG_ERR_STALE_ID           /* null id, or the body was destroyed */
} rg_result;

/* A short English description of r, never NULL. */
RIGID_API const char *rg_result_string(rg_result r);

/* ---------------------------------------------------------------------------------------------
   Math
   ------------------------------------------------------------------------------------------- */

RIGID_API rg_vec3 rg_v3(rg_real x, rg_real y, rg_real z);
RIGID_API rg_vec3 rg_v3_add(rg_vec3 a, rg_vec3 b);
RIGID_API rg_vec3 rg_v3_sub(rg_vec3 a, rg_vec3 b);
RIGID_API rg_vec3 rg_v3_neg(rg_vec3 v);
RIGID_API rg_vec3 rg_v3_scale(rg_vec3 v, rg_real s);
RIGID_API rg_vec3 rg_v3_mul(rg_vec3 a, rg_vec3 b);          /* component by component */
RIGID_API rg_vec3 rg_v3_madd(rg_vec3 a, rg_vec3 b, rg_real s); /* a + b*s */
RIGID_API rg_real rg_v3_dot(rg_vec3 a, rg_vec3 b);
RIGID_API rg_vec3 rg_v3_cross(rg_vec3 a, rg_vec3 b);
RIGID_API rg_real rg_v3_length(rg_vec3 v);
RIGID_API rg_real rg_v3_length_squared(rg_vec3 v);
RIGID_API rg_vec3 rg_v3_normalize(rg_vec3 v);               /* zero vector stays zero */
RIGID_API rg_vec3 rg_v3_min(rg_vec3 a, rg_vec3 b);
RIGID_API rg_vec3 rg_v3_max(rg_vec3 a, rg_vec3 b);
RIGID_API int     rg_v3_is_finite(rg_vec3 v);

RIGID_API rg_quat rg_quat_identity(void);
RIGID_API rg_quat rg_quat_from_axis_angle(rg_vec3 axis, rg_real radians); /* axis need not be unit; zero axis gives identity */
RIGID_API rg_quat rg_quat_from_rotation_vector(rg_vec3 rotation);          /* exact rotation by |r| about r/|r| */
RIGID_API rg_quat rg_quat_mul(rg_quat a, rg_quat b);        /* apply b, then a */
RIGID_API rg_vec3 rg_quat_rotate(rg_quat q, rg_vec3 v);
RIGID_API rg_vec3 rg_quat_rotate_inverse(rg_quat q, rg_vec3 v);
RIGID_API rg_quat rg_quat_normalize(rg_quat q);             /* zero quaternion gives identity */
RIGID_API rg_quat rg_quat_conjugate(rg_quat q);
RIGID_API rg_real rg_quat_dot(rg_quat a, rg_quat b);
RIGID_API int     rg_quat_is_finite(rg_quat q);

RIGID_API rg_mat3 rg_mat3_identity(void);
RIGID_API rg_mat3 rg_mat3_diagonal(rg_vec3 d);
RIGID_API rg_mat3 rg_mat3_add(rg_mat3 a, rg_mat3 b);
RIGID_API rg_mat3 rg_mat3_scale(rg_mat3 a, rg_real s);
RIGID_API rg_mat3 rg_mat3_mul(rg_mat3 a, rg_mat3 b);
RIGID_API rg_vec3 rg_mat3_mul_v3(rg_mat3 m, rg_vec3 v);
RIGID_API rg_mat3 rg_mat3_transpose(rg_mat3 m);
RIGID_API rg_real rg_mat3_determinant(rg_mat3 m);
RIGID_API rg_mat3 rg_mat3_inverse(rg_mat3 m);               /* singular matrix gives the zero matrix */
RIGID_API rg_mat3 rg_mat3_skew(rg_vec3 v);                  /* skew(v)*u = v x u */
RIGID_API rg_mat3 rg_mat3_outer(rg_vec3 a, rg_vec3 b);      /* a b^T */
RIGID_API rg_mat3 rg_mat3_from_quat(rg_quat q);
RIGID_API rg_vec3 rg_mat3_solve(rg_mat3 m, rg_vec3 b);      /* x with m x = b, by Cramer's rule; zero if singular */

/* ---------------------------------------------------------------------------------------------
   Convex hulls
   A hull is immutable once built and may be shared by many bodies; it must outlive them.
   ------------------------------------------------------------------------------------------- */

/* Convex hull of a point cloud (quickhull). NULL and a result on NaN, infinities, count < 4 or
   points without volume. */
RIGID_API rg_hull *rg_hull_create(const rg_vec3 *points, int count, rg_result *result);
/* Box centred on the origin. Extents must be positive and finite. */
RIGID_API rg_hull *rg_hull_create_box(rg_vec3 half_extents, rg_result *result);
/* Convex polyhedron given by its faces: face f has face_sizes[f] vertex indices in
   face_indices (all faces one after another), counter-clockwise seen from outside. The result
   must be closed (every edge shared by exactly two faces), and V - E + F = 2. Convexity is
   checked: every vertex on or behind every face plane, within a tolerance. */
RIGID_API rg_hull *rg_hull_create_polyhedron(const rg_vec3 *vertices, int vertex_count,
                                             const int *face_sizes, int face_count,
                                             const int *face_indices, rg_result *result);
RIGID_API void     rg_hull_destroy(rg_hull *hull);
RIGID_API int      rg_hull_vertex_count(const rg_hull *h);
RIGID_API int      rg_hull_edge_count(const rg_hull *h);
RIGID_API int      rg_hull_face_count(const rg_hull *h);   /* coplanar triangles are one face */
RIGID_API rg_vec3  rg_hull_vertex(const rg_hull *h, int i);
/* Vertices of face f counter-clockwise from outside; writes at most capacity indices and
   returns the face's vertex count (0 for a bad face or hull). */
RIGID_API int      rg_hull_face_vertices(const rg_hull *h, int f, int *indices, int capacity);
RIGID_API rg_vec3  rg_hull_face_normal(const rg_hull *h, int f);   /* outward unit normal */
/* Edge e joins vertices v[0], v[1]; faces[0] runs v[0]->v[1] counter-clockwise, faces[1] the
   other way. Returns 0 for a bad edge. */
RIGID_API int      rg_hull_edge(const rg_hull *h, int e, int v[2], int faces[2]);
RIGID_API rg_real  rg_hull_volume(const rg_hull *h);
RIGID_API rg_vec3  rg_hull_centroid(const rg_hull *h);    /* centre of mass at uniform density */
RIGID_API rg_mat3  rg_hull_inertia(const rg_hull *h, rg_real density); /* about the centroid */

/* ---------------------------------------------------------------------------------------------
   Narrow phase without a world
   ------------------------------------------------------------------------------------------- */

#define RG_MANIFOLD_MAX 8
typedef struct rg_manifold {
    rg_vec3 normal;                    /* unit, points from hull B towards hull A */
    int     count;                     /* 0 = separated by more than the margin */
    rg_vec3 points[RG_MANIFOLD_MAX];   /* world space, on the surface of B */
    rg_real depths[RG_MANIFOLD_MAX];   /* > 0 overlaps, < 0 gap within the margin */
    uint32_t features[RG_MANIFOLD_MAX];/* stable while the same features touch */
} rg_manifold;

/* Contact manifold of two posed hulls within margin; returns out->count. pos_* is the world
   position of the hull frame's origin (as rg_body_position), rot_* its orientation. The normal
   is unit and points from B towards A; the points lie on the surface of B and point -
   depth*normal on A; at most 4 points, the deepest first. features[i] identifies the pair of
   features that made point i (reference face, incident face, clipping edge, or two edges) and
   stays the same while those features touch. Count 0 when separated by more than margin, or
   for NULL hulls, non-finite poses or a NULL out. */
RIGID_API int rg_collide_hulls(const rg_hull *a, rg_vec3 pos_a, rg_quat rot_a,
                               const rg_hull *b, rg_vec3 pos_b, rg_quat rot_b,
                               rg_real margin, rg_manifold *out);

/* The separating feature of a pair of hulls kept from one call to the next (Baraff 1997 §7.1):
   a face of A, a face of B, or an edge of each. Zero-initialise it and keep one per ordered
   pair of hulls. */
typedef struct rg_witness {
    int kind;                /* 0 none, 1 face of A, 2 face of B, 3 edge of A and edge of B */
    int feature_a, feature_b;/* face or edge indices */
    int held;                /* 1 when the last call was answered by the cached feature alone */
} rg_witness;

/* rg_collide_hulls with a witness: the cached feature is tried first and the full search runs
   only when it no longer separates the hulls by more than margin. Gives exactly the result of
   rg_collide_hulls; a NULL witness is allowed. */
RIGID_API int rg_collide_hulls_cached(const rg_hull *a, rg_vec3 pos_a, rg_quat rot_a,
                                      const rg_hull *b, rg_vec3 pos_b, rg_quat rot_b,
                                      rg_real margin, rg_witness *witness, rg_manifold *out);

/* ---------------------------------------------------------------------------------------------
   World and bodies
   ------------------------------------------------------------------------------------------- */

typedef struct rg_world_def {
    rg_vec3 gravity;              /* default (0, -9.81, 0) */
    int     collision_iterations; /* cap on the collision loop */
    int     contact_iterations;   /* cap on the resting-contact loop */
    int     shock_iterations;     /* sweeps of shock propagation; 0 turns it off */
    rg_real contact_tolerance;    /* allowed penetration after a step, metres */
    void   *allocator_context;
    rg_real contact_margin;       /* speculative distance at which contacts are made, metres */
    uint32_t random_seed;         /* seeds the deterministic contact-order shuffle */
    int     warm_starting;        /* 1: contact impulses start from last step's where the same
                                     features touch; 0: from zero */
    int     cookie;               /* set by rg_world_default_def; catches hand-zeroed defs */
} rg_world_def;

RIGID_API rg_world_def rg_world_default_def(void);
RIGID_API rg_world *rg_world_create(const rg_world_def *def, rg_result *result);
RIGID_API void      rg_world_destroy(rg_world *w);
/* One step of dt seconds. dt <= 0, NaN or infinite: RG_ERR_INVALID_ARGUMENT, nothing moves. */
RIGID_API rg_result rg_world_step(rg_world *w, rg_real dt);
RIGID_API rg_result rg_world_set_gravity(rg_world *w, rg_vec3 gravity);
RIGID_API rg_vec3   rg_world_gravity(const rg_world *w);

typedef struct rg_body_def {
    rg_body_type   type;              /* default RG_BODY_DYNAMIC */
    const rg_hull *hull;              /* required for dynamic bodies */
    rg_vec3 position;                 /* world position of the hull frame's origin */
    rg_quat orientation;              /* default identity */
    rg_vec3 linear_velocity;          /* of the centre of mass */
    rg_vec3 angular_velocity;         /* world frame, radians per second */
    rg_real density;                  /* default 1000 kg/m^3; used when mass <= 0 */
    rg_real mass;                     /* > 0 overrides density, inertia scaled to match */
    rg_real restitution;              /* default 0; a pair uses the smaller of the two */
    rg_real static_friction;          /* default 0.6; a pair uses the larger of the two */
    rg_real dynamic_friction;         /* default 0.5; a pair uses the larger of the two */
    rg_real rolling_friction;         /* default 0 */
    rg_real spinning_friction;        /* default 0 */
    void   *user_data;
} rg_body_def;

RIGID_API rg_body_def rg_body_default_def(void);
/* Null id and a result on failure: NULL world, NaN/infinite values, dynamic body without hull,
   negative density or mass, restitution outside [0, 1], negative friction. */
RIGID_API rg_body_id  rg_body_create(rg_world *w, const rg_body_def *def, rg_result *result);
RIGID_API rg_result   rg_body_destroy(rg_world *w, rg_body_id id);
RIGID_API int         rg_body_is_valid(const rg_world *w, rg_body_id id);

/* Getters: all-zero values for a NULL world or a null, destroyed or stale id. */
RIGID_API rg_body_type rg_body_get_type(const rg_world *w, rg_body_id id);
RIGID_API const rg_hull *rg_body_hull(const rg_world *w, rg_body_id id);
RIGID_API rg_vec3 rg_body_position(const rg_world *w, rg_body_id id);
RIGID_API rg_quat rg_body_orientation(const rg_world *w, rg_body_id id);
RIGID_API rg_vec3 rg_body_center_of_mass(const rg_world *w, rg_body_id id); /* world space */
RIGID_API rg_vec3 rg_body_linear_velocity(const rg_world *w, rg_body_id id);
RIGID_API rg_vec3 rg_body_angular_velocity(const rg_world *w, rg_body_id id);
RIGID_API rg_vec3 rg_body_velocity_at_point(const rg_world *w, rg_body_id id, rg_vec3 world_point);
RIGID_API rg_real rg_body_mass(const rg_world *w, rg_body_id id);  /* 0 for static and kinematic */
RIGID_API rg_mat3 rg_body_inertia(const rg_world *w, rg_body_id id); /* world frame, about the centre of mass; zero unless dynamic */
RIGID_API rg_mat3 rg_body_inverse_inertia(const rg_world *w, rg_body_id id); /* world frame R I^-1 R^T */
RIGID_API rg_vec3 rg_body_angular_momentum(const rg_world *w, rg_body_id id); /* about the centre of mass */
RIGID_API rg_real rg_body_kinetic_energy(const rg_world *w, rg_body_id id);
RIGID_API void    rg_body_aabb(const rg_world *w, rg_body_id id, rg_vec3 *min, rg_vec3 *max);
RIGID_API void   *rg_body_user_data(const rg_world *w, rg_body_id id);

/* Setters: RG_ERR_STALE_ID for a null or stale id, RG_ERR_INVALID_ARGUMENT for NULL or
   non-finite input; nothing changes on failure. */
RIGID_API rg_result rg_body_set_transform(rg_world *w, rg_body_id id, rg_vec3 position, rg_quat orientation);
RIGID_API rg_result rg_body_set_linear_velocity(rg_world *w, rg_body_id id, rg_vec3 v);
RIGID_API rg_result rg_body_set_angular_velocity(rg_world *w, rg_body_id id, rg_vec3 omega);
RIGID_API rg_result rg_body_set_user_data(rg_world *w, rg_body_id id, void *user_data);
/* Changes the velocity at once. No effect on static and kinematic bodies (returns RG_OK). */
RIGID_API rg_result rg_body_apply_impulse(rg_world *w, rg_body_id id, rg_vec3 impulse, rg_vec3 world_point);
/* Accumulates for the next step, then cleared. */
RIGID_API rg_result rg_body_apply_force(rg_world *w, rg_body_id id, rg_vec3 force, rg_vec3 world_point);
RIGID_API rg_result rg_body_apply_torque(rg_world *w, rg_body_id id, rg_vec3 torque);

/* ---------------------------------------------------------------------------------------------
   Inspection
   ------------------------------------------------------------------------------------------- */

typedef struct rg_contact {
    rg_body_id a, b;
    rg_vec3 point;            /* world space */
    rg_vec3 normal;           /* unit, from b towards a */
    rg_real depth;            /* penetration, > 0 overlaps */
    rg_real normal_impulse;   /* applied on a in the last step, >= 0 */
    rg_vec3 friction_impulse; /* applied on a in the last step */
} rg_contact;
/* Returns the total number of contacts, fills at most capacity of them. */
RIGID_API int rg_world_contacts(const rg_world *w, rg_contact *out, int capacity);

typedef struct rg_world_stats {
    int body_count;
    int pair_count;            /* overlapping rg_body_aabb boxes with at least one dynamic body */
    int contact_count;
    int collision_iterations;  /* used in the last step */
    int contact_iterations;    /* used in the last step */
    int witness_hits;          /* narrow-phase pairs whose cached separating feature held */
    int witness_misses;        /* pairs that needed the full separating-axis search */
    int broadphase_exchanges;  /* endpoint swaps of the last incremental sort */
    int broadphase_rebuilds;   /* full rebuilds of the sweep since the world was created */
    int shock_iterations;      /* sweeps of shock propagation in the last step, all levels */
    int contact_levels;        /* levels of the contact graph (bodies resting on bodies) */
    /* seconds spent in each phase of the last step; filled only when the implementation was
       compiled with RIGID_PROFILE_CLOCK defined, zero otherwise */
    double seconds_broadphase, seconds_narrowphase, seconds_collision, seconds_contact,
           seconds_shock, seconds_integration;
} rg_world_stats;
RIGID_API rg_world_stats rg_world_get_stats(const rg_world *w);

#ifdef __cplusplus
}
#endif

#endif /* RIGID_H_INCLUDED */

/* =============================================================================================
   IMPLEMENTATION
   ============================================================================================= */

#if defined(RIGID_IMPLEMENTATION) && !defined(RIGID_IMPLEMENTATION_ONCE)
#define RIGID_IMPLEMENTATION_ONCE

#include <math.h>
#include <string.h>
#include <stdlib.h>
#include <float.h>

#if defined(RIGID_MALLOC) || defined(RIGID_REALLOC) || defined(RIGID_FREE)
#if !defined(RIGID_MALLOC) || !defined(RIGID_REALLOC) || !defined(RIGID_FREE)
#error "rigid.h: define all of RIGID_MALLOC, RIGID_REALLOC and RIGID_FREE, or none"
#endif
#else
#define RIGID_MALLOC(size, ctx) ((void)(ctx), malloc(size))
#define RIGID_REALLOC(ptr, size, ctx) ((void)(ctx), realloc((ptr), (size)))
#define RIGID_FREE(ptr, ctx) ((void)(ctx), free(ptr))
#endif

#ifndef RIGID_ASSERT
#include <assert.h>
#define RIGID_ASSERT(x) assert(x)
#endif

/* stb_ds's macros trip -Wextra warnings (missing field initialisers, sign comparison) in its own
   implementation and in the code that uses them; silence those in the implementation only. */
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wmissing-field-initializers"
#pragma clang diagnostic ignored "-Wsign-compare"
#pragma clang diagnostic ignored "-Wtype-limits"
#elif defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wtype-limits"
#endif

/* stb_ds: growable arrays and hash maps. Only the stbds_-prefixed names are used here, so a
   program that defines STBDS_NO_SHORT_NAMES builds too. stb_ds allocates through rigid.h's
   allocator with a NULL context. gcc in strict C mode has no plain `typeof`, which stb_ds
   uses; map it to __typeof__ around the include only. */
#ifndef STBDS_REALLOC
#define STBDS_REALLOC(context, ptr, size) RIGID_REALLOC((ptr), (size), (context))
#define STBDS_FREE(context, ptr) RIGID_FREE((ptr), (context))
#endif
#if defined(__GNUC__) && !defined(__clang__) && !defined(__cplusplus) && !defined(typeof)
#define typeof __typeof__
#define RIGID__UNDEF_TYPEOF
#endif
#if !defined(RIGID_NO_STB_DS_IMPLEMENTATION) && !defined(STB_DS_IMPLEMENTATION)
#define STB_DS_IMPLEMENTATION
#define RIGID__UNDEF_STB_DS_IMPLEMENTATION
#endif
#include "stb_ds.h"
#ifdef RIGID__UNDEF_STB_DS_IMPLEMENTATION
#undef STB_DS_IMPLEMENTATION
#undef RIGID__UNDEF_STB_DS_IMPLEMENTATION
#endif


#ifdef RIGID_DOUBLE
#define RG__EPSILON DBL_EPSILON
#define rg__sqrt sqrt
#define rg__sin sin
#define rg__cos cos
#define rg__fabs fabs
#define rg__atan2 atan2
#else
#define RG__EPSILON FLT_EPSILON
#define rg__sqrt sqrtf
#define rg__sin sinf
#define rg__cos cosf
#define rg__fabs fabsf
#define rg__atan2 atan2f
#endif

#define RG__WORLD_COOKIE 0x52474431

/* Phase timing for rg_world_stats.seconds_*, only with a clock from the user. */
#ifdef RIGID_PROFILE_CLOCK
#define RG__PROFILE_BEGIN(phase) double rg__profile_##phase = (double)(RIGID_PROFILE_CLOCK())
#define RG__PROFILE_END(phase) \
    (w->stats.seconds_##phase = (double)(RIGID_PROFILE_CLOCK()) - rg__profile_##phase)
#define RG__PROFILE_ADD(phase) \
    (w->stats.seconds_##phase += (double)(RIGID_PROFILE_CLOCK()) - rg__profile_##phase)
#else
#define RG__PROFILE_BEGIN(phase) ((void)0)
#define RG__PROFILE_END(phase) ((void)0)
#define RG__PROFILE_ADD(phase) ((void)0)
#endif

static rg_real rg__min_real(rg_real a, rg_real b) { return a < b ? a : b; }
static rg_real rg__max_real(rg_real a, rg_real b) { return a > b ? a : b; }
static int rg__is_finite_real(rg_real x) { return x - x == 0; } /* false for NaN and infinities */

static void rg__set_result(rg_result *result, rg_result value) {
    if (result) *result = value;
}

/* =============================================================================================
   >>types: internal data of every module, in the order of the modules
   ============================================================================================= */

/* ---- hull ---- */
typedef struct rg__hull_face {
    int first, count;      /* range in rg_hull.face_vertices */
    rg_vec3 normal;        /* outward unit normal */
    rg_real offset;        /* plane: dot(normal, x) = offset */
} rg__hull_face;

typedef struct rg__hull_edge {
    int v[2];              /* vertex indices */
    int faces[2];          /* faces[0] traverses v[0]->v[1] counter-clockwise, faces[1] v[1]->v[0] */
} rg__hull_edge;

struct rg_hull {
    int vertex_count, edge_count, face_count;
    rg_vec3 *vertices;            /* hull frame */
    rg__hull_face *faces;
    int *face_vertices;
    rg__hull_edge *edges;
    rg_real volume;
    rg_vec3 centroid;
    rg_mat3 unit_inertia;         /* at density 1, about the centroid, hull frame axes */
    rg_vec3 local_min, local_max; /* bounding box in the hull frame */
    rg_real radius;               /* largest distance of a vertex from the centroid */
};

/* ---- bodies ---- */
typedef struct rg__body {
    uint32_t generation;          /* odd: alive; even: free slot. 0 is never handed out */
    int next_free;                /* free list, -1 ends it */
    rg_body_type type;
    const rg_hull *hull;
    rg_vec3 com;                  /* world centre of mass */
    rg_quat orientation;
    rg_vec3 linear_velocity;
    rg_vec3 angular_velocity;     /* world frame */
    rg_real mass, inv_mass;
    rg_mat3 inertia_local;        /* about the centre of mass, hull frame axes */
    rg_mat3 inv_inertia_local;
    rg_mat3 inv_inertia_world;    /* R I^-1 R^T, kept current with the orientation */
    rg_vec3 force, torque;        /* accumulated for the next step */
    rg_real restitution, static_friction, dynamic_friction, rolling_friction, spinning_friction;
    void *user_data;
    rg_vec3 aabb_min, aabb_max;   /* the box the broad phase used in the last step */
} rg__body;

/* ---- collide ---- */
typedef rg_witness rg__witness;
enum { RG__AXIS_NONE = 0, RG__AXIS_FACE_A = 1, RG__AXIS_FACE_B = 2, RG__AXIS_EDGES = 3 };

typedef struct rg__relative_pose { /* hull A's frame seen from hull B's frame: x_b = R x_a + p */
    rg_mat3 rotation, inverse_rotation;
    rg_vec3 translation;
} rg__relative_pose;

typedef struct rg__clip_vertex {   /* a vertex of the incident polygon while it is clipped */
    rg_vec3 p;                     /* hull B's frame */
    rg_real depth;
    uint32_t code;                 /* where it comes from: incident vertex, or line x side plane */
    uint32_t line;                 /* label of the line from this vertex to the next */
} rg__clip_vertex;

/* ---- broad phase ---- */
typedef struct rg__body_pair { int a, b; } rg__body_pair;  /* body indices, a < b */

typedef struct rg__broadphase {
    rg__body_pair *pairs;         /* stb_ds array: the overlapping pairs, ascending (a, b) */
} rg__broadphase;

/* ---- narrow phase ---- */
typedef struct rg__contact_point {
    rg_vec3 point;                /* world space, on the surface of body b */
    rg_real depth;                /* > 0 overlaps, < 0 gap within the margin */
    uint32_t feature;             /* the same while the same features touch */
    rg_real normal_impulse;       /* accumulated by the solver, carried over by feature id */
    rg_vec3 friction_impulse;
} rg__contact_point;

typedef struct rg__pair_manifold {
    int a, b;                     /* body indices; the normal points from b towards a */
    rg_vec3 normal;
    int count;
    int previous;                 /* this pair's manifold of the last step in rg__narrowphase.previous, or -1 */
    rg__contact_point points[RG_MANIFOLD_MAX];
} rg__pair_manifold;

/* What the narrow phase keeps for a pair of bodies from one step to the next. */
typedef struct rg__pair_cache {
    rg_witness witness;           /* Baraff §7.1: the last separating feature */
    int manifold_index;           /* this pair's manifold in rg__narrowphase.manifolds, or -1 */
    uint32_t stamp;               /* the step that last saw the pair in the broad phase */
} rg__pair_cache;

typedef struct rg__pair_cache_entry {
    uint64_t key;                 /* (a << 32) | b */
    rg__pair_cache value;
} rg__pair_cache_entry;

typedef struct rg__narrowphase {
    rg__pair_manifold *manifolds; /* stb_ds array: touching pairs of this step, in pair order */
    rg__pair_manifold *previous;  /* last step's manifolds (with the solver's impulses) */
    rg__pair_cache_entry *cache;  /* stb_ds hash map keyed by the pair */
    rg__clip_vertex *clip_scratch;        /* stb_ds array for faces too large for the stack */
    uint32_t step;
} rg__narrowphase;

/* ---- solver ---- */
/* A body as the solver sees it: working velocities, the inverse mass it has in the current
   pass (zero for static, kinematic and, during shock propagation, finished levels), and the
   offsets its position update gets besides v h (time of impact, first-order separation). */
typedef struct rg__solver_body {
    /* what every impulse touches first, together */
    rg_vec3 v, w;                 /* linear and angular velocity being solved */
    rg_real inv_mass;
    rg_vec3 dr, dx;               /* rotation vector and position offset added to the step */
    rg_real toi;                  /* time within the step of the body's latest collision */
    rg_mat3 inv_inertia;          /* world frame; zero when the body does not move */
    rg_vec3 v0, w0;               /* at the start of the step: those that moved it in the last */
    rg_vec3 pv, pw;               /* first-order (pseudo) velocities of the separation pass */
    int level;                    /* contact-graph level: 0 static/kinematic, 1.. dynamic */
    int dynamic;
} rg__solver_body;

/* One contact point of a manifold: its Jacobian pieces (so that a relative velocity is a few dot
   products and an impulse a few multiply-adds), and the impulses accumulated by the current loop. */
typedef struct rg__solver_point {
    /* what a sweep reads, first */
    rg_vec3 ran, rbn;             /* ra x n, rb x n */
    rg_vec3 wan, wbn;             /* I_a^-1 (ra x n), I_b^-1 (rb x n): turn per unit normal impulse */
    rg_vec3 ra1, rb1, wa1, wb1;   /* the same for the tangent t1 */
    rg_vec3 ra2, rb2, wa2, wb2;   /* and for t2 */
    rg_real base_n, base_1, base_2; /* contact stage: where a's point ends relative to b's (along
                                       n, t1, t2) with the step's offsets and no velocity */
    rg_real normal_mass;          /* 1 / n^T K n, K = K_a + K_b (Bender eq. 1) */
    rg_real i11, i12, i22;        /* the inverse of K restricted to the tangent plane (t1, t2) */
    rg_real pn;                   /* accumulated normal impulse of the current loop, >= 0 */
    rg_real pt1, pt2;             /* accumulated friction impulse of the current loop */
    int stick;                    /* Bender's static-friction mark */
    /* the rest */
    rg_vec3 ra, rb;               /* from the centres of mass to the points on a and on b */
    rg_real depth;                /* at the start of the step, > 0 overlaps */
    rg_real pp;                   /* accumulated first-order (separation) impulse */
    rg_real carry_n, carry_t1, carry_t2; /* the contact sweeps' impulses, carried to the next step */
    rg_real target;               /* collision: relative normal velocity to reach */
    rg_real toi;                  /* collision: time of impact within the step */
    rg_real total_n;              /* normal impulse of the whole step, for rg_world_contacts */
    rg_vec3 total_t;              /* friction impulse of the whole step */
    int stuck_at_start;           /* the mark each loop starts with: no sliding at the step's start */
    int wave;                     /* collision wave the point takes part in, -1 for none */
} rg__solver_point;

typedef struct rg__solver_manifold {
    int a, b;                     /* body indices; the normal points from b towards a */
    int first, count;             /* its points in rg__solver.points */
    int level;                    /* contact-graph level of the pair: the larger of a's and b's */
    int normal_body;              /* whose rotation turns the normal: 0 a, 1 b, 2 both halves */
    rg_vec3 n, t1, t2;            /* normal and tangent basis */
    rg_real restitution, static_friction, dynamic_friction, rolling_friction, spinning_friction;
    rg_real spin, roll1, roll2;   /* accumulated spinning and rolling impulses (Guendelman §9) */
} rg__solver_manifold;

typedef struct rg__solver {
    rg__solver_body *bodies;      /* stb_ds, indexed like rg_world.bodies */
    rg__solver_manifold *manifolds; /* stb_ds, in the narrow phase's order */
    rg__solver_point *points;     /* stb_ds */
    int *order;                   /* manifold indices, sorted by level and shuffled within */
    int *level_start;             /* order[level_start[l] .. level_start[l + 1]) is level l */
    int *wave;                    /* points of the current collision wave */
    /* contact graph (Guendelman §8.1): edges from the body below to the body on top */
    int *edge_from, *edge_to, *adjacency_start, *adjacency;
    int *scc_index, *scc_low, *scc_component, *scc_stack, *scc_call, *scc_next;
    int *component_level;
    rg_contact *report;           /* stb_ds: the contacts of the last step for rg_world_contacts */
    uint64_t random_state;        /* Guendelman §6 order mixing, seeded by def.random_seed */
    int level_count;
    int ready;                    /* solver bodies hold this step's data (positions use offsets) */
} rg__solver;

/* ---- world ---- */
struct rg_world {
    rg_world_def def;
    rg__body *bodies;             /* stb_ds array, indexed by rg_body_id.index */
    int free_list;
    int body_count;
    rg__broadphase broadphase;
    rg__narrowphase narrowphase;
    rg__solver solver;
    rg_world_stats stats;
    rg_real step_dt;              /* dt of the step being taken (0 before the first) */
};

/* =============================================================================================
   >>math
   ============================================================================================= */

RIGID_API const char *rg_result_string(rg_result r) {
    switch (r) {
    case RG_OK: return "ok";
    case RG_ERR_INVALID_ARGUMENT: return "invalid argument";
    case RG_ERR_DEGENERATE: return "degenerate geometry";
    case RG_ERR_OUT_OF_MEMORY: return "out of memory";
    case RG_ERR_STALE_ID: return "stale or null body id";
    }
    return "unknown result";
}

RIGID_API rg_vec3 rg_v3(rg_real x, rg_real y, rg_real z) {
    rg_vec3 v;
    v.x = x; v.y = y; v.z = z;
    return v;
}
RIGID_API rg_vec3 rg_v3_add(rg_vec3 a, rg_vec3 b) { return rg_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
RIGID_API rg_vec3 rg_v3_sub(rg_vec3 a, rg_vec3 b) { return rg_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
RIGID_API rg_vec3 rg_v3_neg(rg_vec3 v) { return rg_v3(-v.x, -v.y, -v.z); }
RIGID_API rg_vec3 rg_v3_scale(rg_vec3 v, rg_real s) { return rg_v3(v.x * s, v.y * s, v.z * s); }
RIGID_API rg_vec3 rg_v3_mul(rg_vec3 a, rg_vec3 b) { return rg_v3(a.x * b.x, a.y * b.y, a.z * b.z); }
RIGID_API rg_vec3 rg_v3_madd(rg_vec3 a, rg_vec3 b, rg_real s) {
    return rg_v3(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s);
}
RIGID_API rg_real rg_v3_dot(rg_vec3 a, rg_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
RIGID_API rg_vec3 rg_v3_cross(rg_vec3 a, rg_vec3 b) {
    return rg_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
RIGID_API rg_real rg_v3_length_squared(rg_vec3 v) { return rg_v3_dot(v, v); }
RIGID_API rg_real rg_v3_length(rg_vec3 v) { return rg__sqrt(rg_v3_dot(v, v)); }
RIGID_API rg_vec3 rg_v3_normalize(rg_vec3 v) {
    rg_real length = rg_v3_length(v);
    if (!(length > 0)) return rg_v3(0, 0, 0);
    return rg_v3_scale(v, 1 / length);
}
RIGID_API rg_vec3 rg_v3_min(rg_vec3 a, rg_vec3 b) {
    return rg_v3(rg__min_real(a.x, b.x), rg__min_real(a.y, b.y), rg__min_real(a.z, b.z));
}
RIGID_API rg_vec3 rg_v3_max(rg_vec3 a, rg_vec3 b) {
    return rg_v3(rg__max_real(a.x, b.x), rg__max_real(a.y, b.y), rg__max_real(a.z, b.z));
}
RIGID_API int rg_v3_is_finite(rg_vec3 v) {
    return rg__is_finite_real(v.x) && rg__is_finite_real(v.y) && rg__is_finite_real(v.z);
}

static rg_quat rg__quat(rg_real x, rg_real y, rg_real z, rg_real w) {
    rg_quat q;
    q.x = x; q.y = y; q.z = z; q.w = w;
    return q;
}
RIGID_API rg_quat rg_quat_identity(void) { return rg__quat(0, 0, 0, 1); }
RIGID_API rg_quat rg_quat_from_axis_angle(rg_vec3 axis, rg_real radians) {
    rg_vec3 unit = rg_v3_normalize(axis);
    rg_real half = radians * (rg_real)0.5, s = rg__sin(half);
    if (rg_v3_length_squared(unit) == 0) return rg_quat_identity();
    return rg__quat(unit.x * s, unit.y * s, unit.z * s, rg__cos(half));
}
RIGID_API rg_quat rg_quat_from_rotation_vector(rg_vec3 rotation) {
    return rg_quat_from_axis_angle(rotation, rg_v3_length(rotation));
}
RIGID_API rg_quat rg_quat_mul(rg_quat a, rg_quat b) {
    return rg__quat(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                    a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                    a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                    a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}
RIGID_API rg_vec3 rg_quat_rotate(rg_quat q, rg_vec3 v) {
    /* v' = v + 2w (u x v) + 2 u x (u x v), u the vector part: two cross products */
    rg_vec3 u = rg_v3(q.x, q.y, q.z);
    rg_vec3 t = rg_v3_scale(rg_v3_cross(u, v), 2);
    return rg_v3_add(rg_v3_add(v, rg_v3_scale(t, q.w)), rg_v3_cross(u, t));
}
RIGID_API rg_vec3 rg_quat_rotate_inverse(rg_quat q, rg_vec3 v) {
    return rg_quat_rotate(rg_quat_conjugate(q), v);
}
RIGID_API rg_real rg_quat_dot(rg_quat a, rg_quat b) {
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
RIGID_API rg_quat rg_quat_normalize(rg_quat q) {
    rg_real length = rg__sqrt(rg_quat_dot(q, q));
    if (!(length > 0)) return rg_quat_identity();
    return rg__quat(q.x / length, q.y / length, q.z / length, q.w / length);
}
RIGID_API rg_quat rg_quat_conjugate(rg_quat q) { return rg__quat(-q.x, -q.y, -q.z, q.w); }
RIGID_API int rg_quat_is_finite(rg_quat q) {
    return rg__is_finite_real(q.x) && rg__is_finite_real(q.y) && rg__is_finite_real(q.z) &&
           rg__is_finite_real(q.w);
}

RIGID_API rg_mat3 rg_mat3_identity(void) { return rg_mat3_diagonal(rg_v3(1, 1, 1)); }
RIGID_API rg_mat3 rg_mat3_diagonal(rg_vec3 d) {
    rg_mat3 m;
    memset(&m, 0, sizeof m);
    m.m[0][0] = d.x; m.m[1][1] = d.y; m.m[2][2] = d.z;
    return m;
}
RIGID_API rg_mat3 rg_mat3_add(rg_mat3 a, rg_mat3 b) {
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) a.m[i][j] += b.m[i][j];
    return a;
}
RIGID_API rg_mat3 rg_mat3_scale(rg_mat3 a, rg_real s) {
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) a.m[i][j] *= s;
    return a;
}
RIGID_API rg_mat3 rg_mat3_mul(rg_mat3 a, rg_mat3 b) {
    rg_mat3 r;
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j)
            r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
    return r;
}
RIGID_API rg_vec3 rg_mat3_mul_v3(rg_mat3 m, rg_vec3 v) {
    return rg_v3(m.m[0][0] * v.x + m.m[0][1] * v.y + m.m[0][2] * v.z,
                 m.m[1][0] * v.x + m.m[1][1] * v.y + m.m[1][2] * v.z,
                 m.m[2][0] * v.x + m.m[2][1] * v.y + m.m[2][2] * v.z);
}
RIGID_API rg_mat3 rg_mat3_transpose(rg_mat3 m) {
    rg_mat3 r;
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) r.m[i][j] = m.m[j][i];
    return r;
}
static rg_vec3 rg__mat3_column(rg_mat3 m, int j) { return rg_v3(m.m[0][j], m.m[1][j], m.m[2][j]); }
RIGID_API rg_real rg_mat3_determinant(rg_mat3 m) {
    return rg_v3_dot(rg__mat3_column(m, 0), rg_v3_cross(rg__mat3_column(m, 1), rg__mat3_column(m, 2)));
}
RIGID_API rg_mat3 rg_mat3_inverse(rg_mat3 m) {
    /* rows of the inverse are the cross products of the columns, over the determinant */
    rg_vec3 c0 = rg__mat3_column(m, 0), c1 = rg__mat3_column(m, 1), c2 = rg__mat3_column(m, 2);
    rg_vec3 r0 = rg_v3_cross(c1, c2), r1 = rg_v3_cross(c2, c0), r2 = rg_v3_cross(c0, c1);
    rg_real det = rg_v3_dot(c0, r0);
    rg_mat3 inv;
    memset(&inv, 0, sizeof inv);
    if (det == 0 || !rg__is_finite_real(det)) return inv;
    r0 = rg_v3_scale(r0, 1 / det); r1 = rg_v3_scale(r1, 1 / det); r2 = rg_v3_scale(r2, 1 / det);
    inv.m[0][0] = r0.x; inv.m[0][1] = r0.y; inv.m[0][2] = r0.z;
    inv.m[1][0] = r1.x; inv.m[1][1] = r1.y; inv.m[1][2] = r1.z;
    inv.m[2][0] = r2.x; inv.m[2][1] = r2.y; inv.m[2][2] = r2.z;
    return inv;
}
RIGID_API rg_vec3 rg_mat3_solve(rg_mat3 m, rg_vec3 b) {
    rg_vec3 c0 = rg__mat3_column(m, 0), c1 = rg__mat3_column(m, 1), c2 = rg__mat3_column(m, 2);
    rg_real det = rg_v3_dot(c0, rg_v3_cross(c1, c2));
    if (det == 0 || !rg__is_finite_real(det)) return rg_v3(0, 0, 0);
    return rg_v3(rg_v3_dot(b, rg_v3_cross(c1, c2)) / det, rg_v3_dot(c0, rg_v3_cross(b, c2)) / det,
                 rg_v3_dot(c0, rg_v3_cross(c1, b)) / det);
}
RIGID_API rg_mat3 rg_mat3_skew(rg_vec3 v) {
    rg_mat3 m;
    memset(&m, 0, sizeof m);
    m.m[0][1] = -v.z; m.m[0][2] = v.y;
    m.m[1][0] = v.z;  m.m[1][2] = -v.x;
    m.m[2][0] = -v.y; m.m[2][1] = v.x;
    return m;
}
RIGID_API rg_mat3 rg_mat3_outer(rg_vec3 a, rg_vec3 b) {
    rg_mat3 m;
    m.m[0][0] = a.x * b.x; m.m[0][1] = a.x * b.y; m.m[0][2] = a.x * b.z;
    m.m[1][0] = a.y * b.x; m.m[1][1] = a.y * b.y; m.m[1][2] = a.y * b.z;
    m.m[2][0] = a.z * b.x; m.m[2][1] = a.z * b.y; m.m[2][2] = a.z * b.z;
    return m;
}
RIGID_API rg_mat3 rg_mat3_from_quat(rg_quat q) {
    rg_real xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    rg_real xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    rg_real wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    rg_mat3 m;
    m.m[0][0] = 1 - 2 * (yy + zz); m.m[0][1] = 2 * (xy - wz);     m.m[0][2] = 2 * (xz + wy);
    m.m[1][0] = 2 * (xy + wz);     m.m[1][1] = 1 - 2 * (xx + zz); m.m[1][2] = 2 * (yz - wx);
    m.m[2][0] = 2 * (xz - wy);     m.m[2][1] = 2 * (yz + wx);     m.m[2][2] = 1 - 2 * (xx + yy);
    return m;
}

/* R M R^T: a tensor given in a body frame, expressed in the world frame */
static rg_mat3 rg__mat3_rotate_tensor(rg_mat3 rotation, rg_mat3 tensor) {
    return rg_mat3_mul(rg_mat3_mul(rotation, tensor), rg_mat3_transpose(rotation));
}

/* =============================================================================================
   >>hull
   ============================================================================================= */

RIGID_API void rg_hull_destroy(rg_hull *hull) {
    if (hull) RIGID_FREE(hull, NULL);
}

/* One allocation holds the hull and all its arrays, so destroying it is one free. */
static rg_hull *rg__hull_allocate(int vertex_count, int face_count, int face_index_count,
                                  int edge_count) {
    size_t header = (sizeof(rg_hull) + 15) & ~(size_t)15;
    size_t vertices = ((size_t)vertex_count * sizeof(rg_vec3) + 15) & ~(size_t)15;
    size_t faces = ((size_t)face_count * sizeof(rg__hull_face) + 15) & ~(size_t)15;
    size_t edges = ((size_t)edge_count * sizeof(rg__hull_edge) + 15) & ~(size_t)15;
    size_t indices = (size_t)face_index_count * sizeof(int);
    char *block = (char *)RIGID_MALLOC(header + vertices + faces + edges + indices, NULL);
    rg_hull *hull = (rg_hull *)block;
    if (!block) return NULL;
    memset(hull, 0, sizeof *hull);
    hull->vertex_count = vertex_count;
    hull->face_count = face_count;
    hull->edge_count = edge_count;
    hull->vertices = (rg_vec3 *)(block + header);
    hull->faces = (rg__hull_face *)(block + header + vertices);
    hull->edges = (rg__hull_edge *)(block + header + vertices + faces);
    hull->face_vertices = (int *)(block + header + vertices + faces + edges);
    return hull;
}

/* Mirtich 1996, "Fast and accurate computation of polyhedral mass properties": the volume
   integrals of 1, x, x^2 and xy over the polyhedron are reduced by the divergence theorem to
   integrals over the faces (§4), and those by Green's theorem to integrals over the edges of
   each face projected onto the coordinate plane where it is largest (§5). Evaluated in double
   about a point inside the hull to keep cancellation small. */
typedef struct rg__mass_integrals {
    double volume;       /* T0 */
    double first[3];     /* T1: integral of x, y, z */
    double second[3];    /* T2: integral of x^2, y^2, z^2 */
    double product[3];   /* TP: integral of xy, yz, zx */
} rg__mass_integrals;

typedef struct rg__projection_integrals {
    double p1, pa, pb, paa, pab, pbb, paaa, paab, pabb, pbbb;
} rg__projection_integrals;

/* Mirtich §5 eq. (24)-(33): integrals over the face's projection onto the (a, b) plane, by
   Green's theorem as sums over its edges. */
static rg__projection_integrals rg__projection_integrals_of_face(const double (*points)[3],
                                                                 int count, int a, int b) {
    rg__projection_integrals p;
    int i;
    memset(&p, 0, sizeof p);
    for (i = 0; i < count; ++i) {
        const double *v0 = points[i], *v1 = points[(i + 1) % count];
        double a0 = v0[a], b0 = v0[b], a1 = v1[a], b1 = v1[b];
        double da = a1 - a0, db = b1 - b0;
        double a0_2 = a0 * a0, a0_3 = a0_2 * a0, a0_4 = a0_3 * a0;
        double b0_2 = b0 * b0, b0_3 = b0_2 * b0, b0_4 = b0_3 * b0;
        double a1_2 = a1 * a1, a1_3 = a1_2 * a1;
        double b1_2 = b1 * b1, b1_3 = b1_2 * b1;
        double c1 = a1 + a0;
        double ca = a1 * c1 + a0_2, caa = a1 * ca + a0_3, caaa = a1 * caa + a0_4;
        double cb = b1 * (b1 + b0) + b0_2, cbb = b1 * cb + b0_3, cbbb = b1 * cbb + b0_4;
        double cab = 3 * a1_2 + 2 * a1 * a0 + a0_2, kab = a1_2 + 2 * a1 * a0 + 3 * a0_2;
        double caab = a0 * cab + 4 * a1_3, kaab = a1 * kab + 4 * a0_3;
        double cabb = 4 * b1_3 + 3 * b1_2 * b0 + 2 * b1 * b0_2 + b0_3;
        double kabb = b1_3 + 2 * b1_2 * b0 + 3 * b1 * b0_2 + 4 * b0_3;
        p.p1 += db * c1;
        p.pa += db * ca;
        p.paa += db * caa;
        p.paaa += db * caaa;
        p.pb += da * cb;
        p.pbb += da * cbb;
        p.pbbb += da * cbbb;
        p.pab += db * (b1 * cab + b0 * kab);
        p.paab += db * (b1 * caab + b0 * kaab);
        p.pabb += da * (a1 * cabb + a0 * kabb);
    }
    p.p1 /= 2; p.pa /= 6; p.paa /= 12; p.paaa /= 20;
    p.pb /= -6; p.pbb /= -12; p.pbbb /= -20;
    p.pab /= 24; p.paab /= 60; p.pabb /= -60;
    return p;
}

/* Mirtich §4-5: adds one planar face (counter-clockwise from outside, unit normal n, plane
   n.x + w = 0) to the volume integrals. */
static void rg__add_face_to_mass_integrals(rg__mass_integrals *t, const double (*points)[3],
                                           int count, const double n[3]) {
    int c, a, b;
    double w, k1, k2, k3, k4, na, nb, fa, fb, fc, faa, fbb, fcc, faaa, fbbb, fccc, faab, fbbc, fcca;
    rg__projection_integrals p;
    /* project onto the plane where the face's area is largest (gamma = c) */
    c = (fabs(n[0]) > fabs(n[1])) ? (fabs(n[0]) > fabs(n[2]) ? 0 : 2) : (fabs(n[1]) > fabs(n[2]) ? 1 : 2);
    a = (c + 1) % 3;
    b = (a + 1) % 3;
    p = rg__projection_integrals_of_face(points, count, a, b);
    w = -(n[0] * points[0][0] + n[1] * points[0][1] + n[2] * points[0][2]);
    na = n[a]; nb = n[b];
    k1 = 1 / n[c]; k2 = k1 * k1; k3 = k2 * k1; k4 = k3 * k1;
    /* Mirtich eq. (18)-(21): face integrals from the projection integrals */
    fa = k1 * p.pa;
    fb = k1 * p.pb;
    fc = -k2 * (na * p.pa + nb * p.pb + w * p.p1);
    faa = k1 * p.paa;
    fbb = k1 * p.pbb;
    fcc = k3 * (na * na * p.paa + 2 * na * nb * p.pab + nb * nb * p.pbb +
                w * (2 * (na * p.pa + nb * p.pb) + w * p.p1));
    faaa = k1 * p.paaa;
    fbbb = k1 * p.pbbb;
    fccc = -k4 * (na * na * na * p.paaa + 3 * na * na * nb * p.paab + 3 * na * nb * nb * p.pabb +
                  nb * nb * nb * p.pbbb +
                  3 * w * (na * na * p.paa + 2 * na * nb * p.pab + nb * nb * p.pbb) +
                  w * w * (3 * (na * p.pa + nb * p.pb) + w * p.p1));
    faab = k1 * p.paab;
    fbbc = -k2 * (na * p.pabb + nb * p.pbbb + w * p.pbb);
    fcca = k3 * (na * na * p.paaa + 2 * na * nb * p.paab + nb * nb * p.pabb +
                 w * (2 * (na * p.paa + nb * p.pab) + w * p.pa));
    /* Mirtich eq. (11)-(14), before the final divisions done by the caller */
    t->volume += n[0] * (a == 0 ? fa : (b == 0 ? fb : fc));
    t->first[a] += n[a] * faa;
    t->first[b] += n[b] * fbb;
    t->first[c] += n[c] * fcc;
    t->second[a] += n[a] * faaa;
    t->second[b] += n[b] * fbbb;
    t->second[c] += n[c] * fccc;
    t->product[a] += n[a] * faab;
    t->product[b] += n[b] * fbbc;
    t->product[c] += n[c] * fcca;
}

/* Volume, centroid and unit-density inertia about the centroid from the hull's faces. */
static void rg__hull_compute_mass_properties(rg_hull *hull) {
    rg__mass_integrals t;
    double origin[3] = {0, 0, 0}, (*points)[3] = NULL, centroid[3], ixx, iyy, izz, ixy, iyz, izx;
    int f, i, largest = 0;
    memset(&t, 0, sizeof t);
    for (i = 0; i < hull->vertex_count; ++i) {
        origin[0] += hull->vertices[i].x;
        origin[1] += hull->vertices[i].y;
        origin[2] += hull->vertices[i].z;
    }
    for (i = 0; i < 3; ++i) origin[i] /= hull->vertex_count;
    for (f = 0; f < hull->face_count; ++f)
        if (hull->faces[f].count > largest) largest = hull->faces[f].count;
    points = (double(*)[3])RIGID_MALLOC(sizeof(double[3]) * (size_t)largest, NULL);
    if (!points) return;
    for (f = 0; f < hull->face_count; ++f) {
        const rg__hull_face *face = &hull->faces[f];
        double n[3], length;
        for (i = 0; i < face->count; ++i) {
            rg_vec3 v = hull->vertices[hull->face_vertices[face->first + i]];
            points[i][0] = v.x - origin[0];
            points[i][1] = v.y - origin[1];
            points[i][2] = v.z - origin[2];
        }
        /* the normal again in double, by Newell's method, for the integrals' sake */
        n[0] = n[1] = n[2] = 0;
        for (i = 0; i < face->count; ++i) {
            const double *p = points[i], *q = points[(i + 1) % face->count];
            n[0] += (p[1] - q[1]) * (p[2] + q[2]);
            n[1] += (p[2] - q[2]) * (p[0] + q[0]);
            n[2] += (p[0] - q[0]) * (p[1] + q[1]);
        }
        length = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (!(length > 0)) continue;
        n[0] /= length; n[1] /= length; n[2] /= length;
        rg__add_face_to_mass_integrals(&t, (const double(*)[3])points, face->count, n);
    }
    RIGID_FREE(points, NULL);
    for (i = 0; i < 3; ++i) {
        t.first[i] /= 2;
        t.second[i] /= 3;
        t.product[i] /= 2;
    }
    hull->volume = (rg_real)t.volume;
    if (!(t.volume > 0)) return;
    for (i = 0; i < 3; ++i) centroid[i] = t.first[i] / t.volume;
    /* Mirtich §2: inertia about the integration origin, then moved to the centroid by the
       parallel axis theorem. */
    ixx = t.second[1] + t.second[2] - t.volume * (centroid[1] * centroid[1] + centroid[2] * centroid[2]);
    iyy = t.second[2] + t.second[0] - t.volume * (centroid[2] * centroid[2] + centroid[0] * centroid[0]);
    izz = t.second[0] + t.second[1] - t.volume * (centroid[0] * centroid[0] + centroid[1] * centroid[1]);
    ixy = -(t.product[0] - t.volume * centroid[0] * centroid[1]);
    iyz = -(t.product[1] - t.volume * centroid[1] * centroid[2]);
    izx = -(t.product[2] - t.volume * centroid[2] * centroid[0]);
    hull->centroid = rg_v3((rg_real)(centroid[0] + origin[0]), (rg_real)(centroid[1] + origin[1]),
                           (rg_real)(centroid[2] + origin[2]));
    hull->unit_inertia.m[0][0] = (rg_real)ixx;
    hull->unit_inertia.m[1][1] = (rg_real)iyy;
    hull->unit_inertia.m[2][2] = (rg_real)izz;
    hull->unit_inertia.m[0][1] = hull->unit_inertia.m[1][0] = (rg_real)ixy;
    hull->unit_inertia.m[1][2] = hull->unit_inertia.m[2][1] = (rg_real)iyz;
    hull->unit_inertia.m[2][0] = hull->unit_inertia.m[0][2] = (rg_real)izx;
}

/* Outward unit normal of a polygon by Newell's method, robust for nearly collinear corners. */
static rg_vec3 rg__polygon_normal(const rg_vec3 *vertices, const int *indices, int count) {
    rg_vec3 n = rg_v3(0, 0, 0);
    int i;
    for (i = 0; i < count; ++i) {
        rg_vec3 p = vertices[indices[i]], q = vertices[indices[(i + 1) % count]];
        n.x += (p.y - q.y) * (p.z + q.z);
        n.y += (p.z - q.z) * (p.x + q.x);
        n.z += (p.x - q.x) * (p.y + q.y);
    }
    return rg_v3_normalize(n);
}

/* The undirected edges of the faces, each with the face on either side. Fails (returns 0)
   unless every directed edge appears once and its reverse once: a closed 2-manifold. */
static int rg__hull_build_edges(rg_hull *hull) {
    struct { uint64_t key; int value; } *directed = NULL;
    int f, i, edge_count = 0, ok = 1;
    stbds_hmdefault(directed, -1);
    for (f = 0; f < hull->face_count && ok; ++f) {
        const rg__hull_face *face = &hull->faces[f];
        for (i = 0; i < face->count; ++i) {
            int from = hull->face_vertices[face->first + i];
            int to = hull->face_vertices[face->first + (i + 1) % face->count];
            uint64_t key = ((uint64_t)(uint32_t)from << 32) | (uint32_t)to;
            uint64_t reverse = ((uint64_t)(uint32_t)to << 32) | (uint32_t)from;
            int twin = (int)stbds_hmget(directed, reverse);
            if (from == to || stbds_hmgeti(directed, key) >= 0) { ok = 0; break; }
            if (twin >= 0) {
                /* second half of an edge already started by the face across it */
                if (hull->edges[twin].faces[1] >= 0) { ok = 0; break; }
                hull->edges[twin].faces[1] = f;
                stbds_hmput(directed, key, twin);
            } else {
                if (edge_count >= hull->edge_count) { ok = 0; break; }
                hull->edges[edge_count].v[0] = from;
                hull->edges[edge_count].v[1] = to;
                hull->edges[edge_count].faces[0] = f;
                hull->edges[edge_count].faces[1] = -1;
                stbds_hmput(directed, key, edge_count);
                ++edge_count;
            }
        }
    }
    for (i = 0; i < edge_count && ok; ++i)
        if (hull->edges[i].faces[1] < 0) ok = 0;
    stbds_hmfree(directed);
    if (ok && edge_count != hull->edge_count) ok = 0;
    return ok;
}

RIGID_API rg_hull *rg_hull_create_polyhedron(const rg_vec3 *vertices, int vertex_count,
                                             const int *face_sizes, int face_count,
                                             const int *face_indices, rg_result *result) {
    rg_hull *hull;
    int f, i, index_count = 0, half_edges;
    rg_vec3 lo, hi;
    rg_real extent, tolerance;
    if (!vertices || !face_sizes || !face_indices || vertex_count < 4 || face_count < 4) {
        rg__set_result(result, RG_ERR_INVALID_ARGUMENT);
        return NULL;
    }
    for (i = 0; i < vertex_count; ++i)
        if (!rg_v3_is_finite(vertices[i])) {
            rg__set_result(result, RG_ERR_INVALID_ARGUMENT);
            return NULL;
        }
    for (f = 0; f < face_count; ++f) {
        if (face_sizes[f] < 3 || face_sizes[f] > vertex_count) {
            rg__set_result(result, RG_ERR_INVALID_ARGUMENT);
            return NULL;
        }
        index_count += face_sizes[f];
    }
    for (i = 0; i < index_count; ++i)
        if (face_indices[i] < 0 || face_indices[i] >= vertex_count) {
            rg__set_result(result, RG_ERR_INVALID_ARGUMENT);
            return NULL;
        }
    half_edges = index_count;
    if (half_edges % 2 != 0 || vertex_count - half_edges / 2 + face_count != 2) {
        rg__set_result(result, RG_ERR_DEGENERATE); /* Euler's formula V - E + F = 2 fails */
        return NULL;
    }
    hull = rg__hull_allocate(vertex_count, face_count, index_count, half_edges / 2);
    if (!hull) {
        rg__set_result(result, RG_ERR_OUT_OF_MEMORY);
        return NULL;
    }
    memcpy(hull->vertices, vertices, sizeof(rg_vec3) * (size_t)vertex_count);
    memcpy(hull->face_vertices, face_indices, sizeof(int) * (size_t)index_count);
    lo = hi = vertices[0];
    for (i = 1; i < vertex_count; ++i) {
        lo = rg_v3_min(lo, vertices[i]);
        hi = rg_v3_max(hi, vertices[i]);
    }
    hull->local_min = lo;
    hull->local_max = hi;
    extent = rg_v3_length(rg_v3_sub(hi, lo));
    tolerance = extent * 1000 * RG__EPSILON;
    index_count = 0;
    for (f = 0; f < face_count; ++f) {
        rg__hull_face *face = &hull->faces[f];
        rg_vec3 centre = rg_v3(0, 0, 0);
        face->first = index_count;
        face->count = face_sizes[f];
        index_count += face_sizes[f];
        for (i = 0; i < face->count; ++i)
            centre = rg_v3_add(centre, vertices[hull->face_vertices[face->first + i]]);
        centre = rg_v3_scale(centre, 1 / (rg_real)face->count);
        face->normal = rg__polygon_normal(vertices, hull->face_vertices + face->first, face->count);
        face->offset = rg_v3_dot(face->normal, centre);
    }
    /* convex: every vertex on or behind every face plane, every face with an area */
    for (f = 0; f < face_count; ++f) {
        const rg__hull_face *face = &hull->faces[f];
        if (rg_v3_length_squared(face->normal) == 0) break;
        for (i = 0; i < vertex_count; ++i)
            if (rg_v3_dot(face->normal, vertices[i]) - face->offset > tolerance) break;
        if (i < vertex_count) break;
    }
    if (f < face_count || !(extent > 0) || !rg__hull_build_edges(hull)) {
        rg_hull_destroy(hull);
        rg__set_result(result, RG_ERR_DEGENERATE);
        return NULL;
    }
    rg__hull_compute_mass_properties(hull);
    if (!(hull->volume > extent * extent * extent * 1e-9)) {
        rg_hull_destroy(hull);
        rg__set_result(result, RG_ERR_DEGENERATE);
        return NULL;
    }
    for (i = 0; i < vertex_count; ++i)
        hull->radius = rg__max_real(hull->radius, rg_v3_length(rg_v3_sub(vertices[i], hull->centroid)));
    rg__set_result(result, RG_OK);
    return hull;
}

RIGID_API rg_hull *rg_hull_create_box(rg_vec3 half_extents, rg_result *result) {
    /* corner i has x = +h when bit 0 is set, y with bit 1, z with bit 2 */
    static const int faces[24] = {
        1, 3, 7, 5,   /* +x */
        0, 4, 6, 2,   /* -x */
        2, 6, 7, 3,   /* +y */
        0, 1, 5, 4,   /* -y */
        4, 5, 7, 6,   /* +z */
        0, 2, 3, 1    /* -z */
    };
    static const int sizes[6] = {4, 4, 4, 4, 4, 4};
    rg_vec3 corners[8];
    int i;
    rg_vec3 h = half_extents;
    if (!rg_v3_is_finite(h) || !(h.x > 0) || !(h.y > 0) || !(h.z > 0)) {
        rg__set_result(result, RG_ERR_INVALID_ARGUMENT);
        return NULL;
    }
    for (i = 0; i < 8; ++i)
        corners[i] = rg_v3((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z);
    return rg_hull_create_polyhedron(corners, 8, sizes, 6, faces, result);
}

RIGID_API int rg_hull_vertex_count(const rg_hull *h) { return h ? h->vertex_count : 0; }
RIGID_API int rg_hull_edge_count(const rg_hull *h) { return h ? h->edge_count : 0; }
RIGID_API int rg_hull_face_count(const rg_hull *h) { return h ? h->face_count : 0; }
RIGID_API rg_vec3 rg_hull_vertex(const rg_hull *h, int i) {
    if (!h || i < 0 || i >= h->vertex_count) return rg_v3(0, 0, 0);
    return h->vertices[i];
}
RIGID_API int rg_hull_face_vertices(const rg_hull *h, int f, int *indices, int capacity) {
    int i;
    if (!h || f < 0 || f >= h->face_count) return 0;
    for (i = 0; indices && i < h->faces[f].count && i < capacity; ++i)
        indices[i] = h->face_vertices[h->faces[f].first + i];
    return h->faces[f].count;
}
RIGID_API rg_vec3 rg_hull_face_normal(const rg_hull *h, int f) {
    if (!h || f < 0 || f >= h->face_count) return rg_v3(0, 0, 0);
    return h->faces[f].normal;
}
RIGID_API int rg_hull_edge(const rg_hull *h, int e, int v[2], int faces[2]) {
    if (!h || e < 0 || e >= h->edge_count) return 0;
    if (v) { v[0] = h->edges[e].v[0]; v[1] = h->edges[e].v[1]; }
    if (faces) { faces[0] = h->edges[e].faces[0]; faces[1] = h->edges[e].faces[1]; }
    return 1;
}
RIGID_API rg_real rg_hull_volume(const rg_hull *h) { return h ? h->volume : 0; }
RIGID_API rg_vec3 rg_hull_centroid(const rg_hull *h) { return h ? h->centroid : rg_v3(0, 0, 0); }
RIGID_API rg_mat3 rg_hull_inertia(const rg_hull *h, rg_real density) {
    rg_mat3 zero;
    memset(&zero, 0, sizeof zero);
    if (!h || !rg__is_finite_real(density)) return zero;
    return rg_mat3_scale(h->unit_inertia, density);
}

/* >>quickhull: rg_hull_create lives here (issue 4) */
RIGID_API rg_hull *rg_hull_create(const rg_vec3 *points, int count, rg_result *result) {
    (void)points; (void)count;
    rg__set_result(result, RG_ERR_DEGENERATE);
    return NULL;
}

/* =============================================================================================
   >>collide: separating axes, witnesses, contact manifolds
   =============================================================================================

   Two convex polyhedra are disjoint exactly when some plane separates them, and such a plane
   can always be found among the planes of the faces of either hull and the planes spanned by
   an edge of one hull and parallel to an edge of the other (Baraff 1997 §7.1). The candidate
   axes are therefore the face normals of A and B and the cross products of edge pairs; the
   separation along an axis is the gap between the two hulls' extents, and the hulls overlap
   when every axis has a negative separation. The largest separation is then minus the
   penetration depth, and its axis the contact normal.

   Edge pairs: only pairs whose cross product is the normal of a face of the Minkowski
   difference A - B can matter. On the Gauss map (the unit sphere of normals), an edge is the
   arc between the normals of its two faces; the two edges span a Minkowski face exactly when
   the arc of A's edge crosses the arc of B's edge negated (faces of -B have normals -n). For
   those pairs the edges are the supporting features along the axis, so the separation is the
   distance between the edges' lines, without a search over the vertices.

   Everything is computed in hull B's frame, then the manifold is turned into world space. */

/* Edges whose sine of the angle is below this are treated as parallel and skip the edge axis:
   the axis is then ill-conditioned (its direction error grows as epsilon / sine) and the
   Minkowski face it would span is a sliver whose separation differs from its neighbours' face
   axes by at most the edge length times the sine. sqrt(epsilon) balances the two errors. */
#ifdef RIGID_DOUBLE
#define RG__PARALLEL_SINE ((rg_real)1.5e-8)
#else
#define RG__PARALLEL_SINE ((rg_real)3.5e-4)
#endif

/* Axis preference, for stable manifolds from step to step: a face of A is taken as the
   reference instead of a face of B, and an edge pair instead of the best face, only when its
   separation is larger by more than RG__AXIS_RELATIVE of the depth plus RG__AXIS_ABSOLUTE of
   the smaller hull's radius. Without it, a box resting flat flickers between near-equal face
   and edge axes. The reported depth may exceed the exact minimum overlap by that much. */
#define RG__AXIS_RELATIVE ((rg_real)0.005)
#define RG__AXIS_ABSOLUTE ((rg_real)0.001)

/* Manifolds of faces with more than this many corners clip in the caller's scratch array. */
#define RG__CLIP_STACK 32

static rg__relative_pose rg__relative_pose_of(rg_vec3 pos_a, rg_quat rot_a, rg_vec3 pos_b,
                                              rg_quat rot_b) {
    rg__relative_pose t;
    rg_quat relative = rg_quat_mul(rg_quat_conjugate(rot_b), rot_a);
    t.rotation = rg_mat3_from_quat(relative);
    t.inverse_rotation = rg_mat3_transpose(t.rotation);
    t.translation = rg_quat_rotate_inverse(rot_b, rg_v3_sub(pos_a, pos_b));
    return t;
}

static rg_vec3 rg__pose_apply(const rg__relative_pose *t, rg_vec3 v) {
    return rg_v3_add(rg_mat3_mul_v3(t->rotation, v), t->translation);
}

/* Vertex i of a hull in B's frame. */
static rg_vec3 rg__vertex_in_b(const rg_hull *h, int is_a, const rg__relative_pose *t, int i) {
    return is_a ? rg__pose_apply(t, h->vertices[i]) : h->vertices[i];
}

/* The vertex furthest along direction (hull frame); the first index wins ties. */
static int rg__hull_support_index(const rg_hull *h, rg_vec3 direction) {
    int i, best = 0;
    rg_real best_dot = rg_v3_dot(h->vertices[0], direction);
    for (i = 1; i < h->vertex_count; ++i) {
        rg_real d = rg_v3_dot(h->vertices[i], direction);
        if (d > best_dot) {
            best_dot = d;
            best = i;
        }
    }
    return best;
}

typedef struct rg__face_query {
    int face, support;            /* the face, and the other hull's deepest vertex below it */
    rg_real separation;
} rg__face_query;

typedef struct rg__edge_query {
    int edge_a, edge_b;
    rg_real separation;
    rg_vec3 normal;               /* B's frame, pointing from A towards B */
} rg__edge_query;

/* Separation of B from the plane of A's face f: B's vertex furthest behind it. */
static rg_real rg__face_a_separation(const rg_hull *a, const rg_hull *b, const rg__relative_pose *t,
                                     int f, int *support) {
    rg_vec3 n = rg_mat3_mul_v3(t->rotation, a->faces[f].normal);
    rg_real offset = a->faces[f].offset + rg_v3_dot(n, t->translation);
    int s = rg__hull_support_index(b, rg_v3_neg(n));
    *support = s;
    return rg_v3_dot(n, b->vertices[s]) - offset;
}

/* Separation of A from the plane of B's face f. */
static rg_real rg__face_b_separation(const rg_hull *a, const rg_hull *b, const rg__relative_pose *t,
                                     int f, int *support) {
    rg_vec3 n = b->faces[f].normal;
    int s = rg__hull_support_index(a, rg_mat3_mul_v3(t->inverse_rotation, rg_v3_neg(n)));
    *support = s;
    return rg_v3_dot(n, rg__pose_apply(t, a->vertices[s])) - b->faces[f].offset;
}

/* The face of A (of B when faces_of_a is 0) with the largest separation; stops at the first
   one that separates by more than margin. */
static rg__face_query rg__query_faces(const rg_hull *a, const rg_hull *b, const rg__relative_pose *t,
                                      int faces_of_a, rg_real margin) {
    rg__face_query best;
    int f, count = faces_of_a ? a->face_count : b->face_count;
    best.face = -1;
    best.support = 0;
    best.separation = -FLT_MAX;
    for (f = 0; f < count; ++f) {
        int support;
        rg_real s = faces_of_a ? rg__face_a_separation(a, b, t, f, &support)
                               : rg__face_b_separation(a, b, t, f, &support);
        if (s > best.separation) {
            best.separation = s;
            best.face = f;
            best.support = support;
            if (s > margin) break;
        }
    }
    return best;
}

/* An edge of A in B's frame, with its arc on the Gauss map. */
typedef struct rg__edge_frame {
    rg_vec3 start, direction;     /* first vertex, and second minus first */
    rg_real length_squared;
    rg_vec3 normal0, normal1;     /* normals of the faces on either side: the arc's ends */
    rg_vec3 arc_normal;           /* normal1 x normal0, normal of the arc's great circle */
} rg__edge_frame;

static rg__edge_frame rg__edge_frame_of_a(const rg_hull *a, const rg__relative_pose *t, int e) {
    const rg__hull_edge *edge = &a->edges[e];
    rg__edge_frame frame;
    frame.start = rg__pose_apply(t, a->vertices[edge->v[0]]);
    frame.direction = rg_mat3_mul_v3(t->rotation, rg_v3_sub(a->vertices[edge->v[1]], a->vertices[edge->v[0]]));
    frame.length_squared = rg_v3_length_squared(frame.direction);
    frame.normal0 = rg_mat3_mul_v3(t->rotation, a->faces[edge->faces[0]].normal);
    frame.normal1 = rg_mat3_mul_v3(t->rotation, a->faces[edge->faces[1]].normal);
    frame.arc_normal = rg_v3_cross(frame.normal1, frame.normal0);
    return frame;
}

/* Do arcs a-b and c-d of the Gauss map cross? c and d lie on opposite sides of the great circle
   through a and b, a and b on opposite sides of the one through c and d, and the last product
   rejects the case where the great circles cross at the antipode of the arcs. bxa = b x a,
   dxc = d x c. Touching arcs (a zero product) do not count: their axis is a face normal. */
static int rg__arcs_cross(rg_vec3 a, rg_vec3 b, rg_vec3 bxa, rg_vec3 c, rg_vec3 d, rg_vec3 dxc) {
    rg_real cba = rg_v3_dot(c, bxa), dba = rg_v3_dot(d, bxa);
    rg_real adc = rg_v3_dot(a, dxc), bdc = rg_v3_dot(b, dxc);
    return cba * dba < 0 && adc * bdc < 0 && cba * bdc > 0;
}

/* When edge e of B and the edge of A in frame span a face of the Minkowski difference and are
   not parallel: returns 1 with the separation along their common normal (pointing away from A's
   centroid) and that normal. The edges then support the hulls along the normal, so the
   separation is the distance between their lines. */
static int rg__edge_pair_separation(const rg__edge_frame *frame, rg_vec3 centroid_a,
                                    const rg_hull *b, int e, rg_real *separation, rg_vec3 *normal) {
    const rg__hull_edge *edge = &b->edges[e];
    rg_vec3 c = rg_v3_neg(b->faces[edge->faces[0]].normal);
    rg_vec3 d = rg_v3_neg(b->faces[edge->faces[1]].normal);
    rg_vec3 start, direction, n;
    rg_real length;
    if (!rg__arcs_cross(frame->normal0, frame->normal1, frame->arc_normal, c, d, rg_v3_cross(d, c)))
        return 0;
    start = b->vertices[edge->v[0]];
    direction = rg_v3_sub(b->vertices[edge->v[1]], start);
    n = rg_v3_cross(frame->direction, direction);
    length = rg_v3_length(n);
    if (!(length > RG__PARALLEL_SINE * rg__sqrt(frame->length_squared * rg_v3_length_squared(direction))))
        return 0;
    n = rg_v3_scale(n, 1 / length);
    if (rg_v3_dot(n, rg_v3_sub(frame->start, centroid_a)) < 0) n = rg_v3_neg(n);
    *separation = rg_v3_dot(n, rg_v3_sub(start, frame->start));
    *normal = n;
    return 1;
}

/* The edge pair with the largest separation among those that span a Minkowski face; stops at
   the first that separates by more than margin. edge_a is -1 when no pair qualifies. */
static rg__edge_query rg__query_edges(const rg_hull *a, const rg_hull *b, const rg__relative_pose *t,
                                      rg_real margin) {
    rg__edge_query best;
    rg_vec3 centroid_a = rg__pose_apply(t, a->centroid);
    int i, j;
    best.edge_a = best.edge_b = -1;
    best.separation = -FLT_MAX;
    best.normal = rg_v3(0, 0, 0);
    for (i = 0; i < a->edge_count; ++i) {
        rg__edge_frame frame = rg__edge_frame_of_a(a, t, i);
        for (j = 0; j < b->edge_count; ++j) {
            rg_real s;
            rg_vec3 n;
            if (!rg__edge_pair_separation(&frame, centroid_a, b, j, &s, &n) || !(s > best.separation))
                continue;
            best.separation = s;
            best.edge_a = i;
            best.edge_b = j;
            best.normal = n;
            if (s > margin) return best;
        }
    }
    return best;
}

/* Baraff §7.1: does the cached feature still separate the hulls by more than margin? It is
   evaluated by the same functions as the full search, so a witness that holds gives exactly
   the answer the full search would. */
static int rg__witness_separates(const rg_hull *a, const rg_hull *b, const rg__relative_pose *t,
                                 const rg__witness *witness, rg_real margin) {
    int support;
    switch (witness->kind) {
    case RG__AXIS_FACE_A:
        if (witness->feature_a < 0 || witness->feature_a >= a->face_count) return 0;
        return rg__face_a_separation(a, b, t, witness->feature_a, &support) > margin;
    case RG__AXIS_FACE_B:
        if (witness->feature_b < 0 || witness->feature_b >= b->face_count) return 0;
        return rg__face_b_separation(a, b, t, witness->feature_b, &support) > margin;
    case RG__AXIS_EDGES: {
        rg__edge_frame frame;
        rg_real s;
        rg_vec3 n;
        if (witness->feature_a < 0 || witness->feature_a >= a->edge_count ||
            witness->feature_b < 0 || witness->feature_b >= b->edge_count)
            return 0;
        frame = rg__edge_frame_of_a(a, t, witness->feature_a);
        return rg__edge_pair_separation(&frame, rg__pose_apply(t, a->centroid), b, witness->feature_b,
                                        &s, &n) &&
               s > margin;
    }
    default:
        return 0;
    }
}

static void rg__witness_set(rg__witness *witness, int kind, int feature_a, int feature_b) {
    if (!witness) return;
    witness->kind = kind;
    witness->feature_a = feature_a;
    witness->feature_b = feature_b;
}

/* Feature ids: a hash of the features that made a point, so that ids of big hulls still fit in
   32 bits. Two points of one manifold collide with probability about 2^-32; a collision only
   misplaces a warm start. */
static uint32_t rg__hash_combine(uint32_t h, uint32_t value) {
    h ^= value + 0x9e3779b9u + (h << 6) + (h >> 2);
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

static uint32_t rg__feature_id(int kind, int first, int second, uint32_t code) {
    uint32_t h = rg__hash_combine(0x2545f491u, (uint32_t)kind);
    h = rg__hash_combine(h, (uint32_t)first);
    h = rg__hash_combine(h, (uint32_t)second);
    return rg__hash_combine(h, code);
}

/* Labels of the lines the clipped polygon's edges lie on, and the codes of its vertices: an
   incident vertex i has code i; a point made by clipping line l against side plane s has code
   0x80000000 | l << 12 | s. Lines are incident edges (label j) or the reference face's side
   planes (label 0x40000 | s). */
#define RG__CLIP_SIDE_LINE 0x40000u
static uint32_t rg__clip_code(uint32_t line, int side) {
    return 0x80000000u | ((line & 0x7ffffu) << 12) | ((uint32_t)side & 0xfffu);
}

/* Sutherland-Hodgman: the part of polygon in[0..count) behind the plane n.x = offset. */
static int rg__clip_polygon(const rg__clip_vertex *in, int count, rg_vec3 n, rg_real offset, int side,
                            rg__clip_vertex *out) {
    int i, out_count = 0;
    for (i = 0; i < count; ++i) {
        const rg__clip_vertex *p = &in[i], *q = &in[(i + 1) % count];
        rg_real dp = rg_v3_dot(n, p->p) - offset, dq = rg_v3_dot(n, q->p) - offset;
        if (dp <= 0) out[out_count++] = *p;
        if ((dp <= 0) != (dq <= 0)) {
            rg__clip_vertex *x = &out[out_count++];
            x->p = rg_v3_madd(p->p, rg_v3_sub(q->p, p->p), dp / (dp - dq));
            x->depth = 0;
            x->code = rg__clip_code(p->line, side);
            /* leaving: the polygon follows the side plane to where it comes back in */
            x->line = dp <= 0 ? (RG__CLIP_SIDE_LINE | (uint32_t)side) : p->line;
        }
    }
    return out_count;
}

/* Signed area (times 2) of triangle p q r seen along n. */
static rg_real rg__signed_area(rg_vec3 p, rg_vec3 q, rg_vec3 r, rg_vec3 n) {
    return rg_v3_dot(n, rg_v3_cross(rg_v3_sub(q, p), rg_v3_sub(r, p)));
}

/* At most four of the points: the deepest, the one furthest from it, the one making the
   largest triangle with those two, and the one adding the most area outside that triangle.
   Writes the chosen indices, deepest first; returns how many. */
static int rg__reduce_contacts(const rg__clip_vertex *v, int count, rg_vec3 n, int chosen[4]) {
    int i, k, result;
    rg_real best, area;
    if (count <= 0) return 0;
    chosen[0] = 0;
    for (i = 1; i < count; ++i)
        if (v[i].depth > v[chosen[0]].depth) chosen[0] = i;
    if (count <= 4) {
        /* keep them all, the deepest first and the rest in polygon order */
        for (i = 0, k = 1; i < count; ++i)
            if (i != chosen[0]) chosen[k++] = i;
        return count;
    }
    chosen[1] = -1;
    best = 0;
    for (i = 0; i < count; ++i) {
        rg_vec3 d = rg_v3_sub(v[i].p, v[chosen[0]].p);
        rg_real planar = rg_v3_length_squared(d) - rg_v3_dot(d, n) * rg_v3_dot(d, n);
        if (planar > best) {
            best = planar;
            chosen[1] = i;
        }
    }
    if (chosen[1] < 0) return 1;
    chosen[2] = -1;
    best = 0;
    for (i = 0; i < count; ++i) {
        area = rg__fabs(rg__signed_area(v[chosen[0]].p, v[chosen[1]].p, v[i].p, n));
        if (area > best) {
            best = area;
            chosen[2] = i;
        }
    }
    if (chosen[2] < 0) return 2;
    result = 3;
    {
        /* the triangle counter-clockwise about n, then the point furthest outside an edge */
        int corner[3];
        corner[0] = chosen[0];
        corner[1] = chosen[1];
        corner[2] = chosen[2];
        if (rg__signed_area(v[corner[0]].p, v[corner[1]].p, v[corner[2]].p, n) < 0) {
            corner[1] = chosen[2];
            corner[2] = chosen[1];
        }
        best = 0;
        for (i = 0; i < count; ++i) {
            for (k = 0; k < 3; ++k) {
                area = -rg__signed_area(v[corner[k]].p, v[corner[(k + 1) % 3]].p, v[i].p, n);
                if (area > best) {
                    best = area;
                    chosen[3] = i;
                    result = 4;
                }
            }
        }
    }
    return result;
}

/* Among the faces of hull h that contain vertex `support`, the one whose normal (hull frame) is
   most anti-parallel to direction. Restricting to faces around the deepest vertex keeps that
   vertex in the incident polygon: the most anti-parallel face of all may lie elsewhere. */
static int rg__incident_face(const rg_hull *h, int support, rg_vec3 direction) {
    int e, k, best = -1;
    rg_real best_dot = FLT_MAX;
    for (e = 0; e < h->edge_count; ++e) {
        const rg__hull_edge *edge = &h->edges[e];
        if (edge->v[0] != support && edge->v[1] != support) continue;
        for (k = 0; k < 2; ++k) {
            rg_real d = rg_v3_dot(h->faces[edge->faces[k]].normal, direction);
            if (d < best_dot || (d == best_dot && edge->faces[k] < best)) {
                best_dot = d;
                best = edge->faces[k];
            }
        }
    }
    return best;
}

/* Writes chosen points of v into out, from B's frame to world space. */
static void rg__manifold_from_points(const rg__clip_vertex *v, const int *chosen, int count,
                                     rg_vec3 normal, int kind, int first, int second,
                                     rg_vec3 pos_b, rg_quat rot_b, rg_manifold *out) {
    int i;
    out->normal = rg_v3_normalize(rg_quat_rotate(rot_b, normal));
    out->count = count;
    for (i = 0; i < count; ++i) {
        const rg__clip_vertex *p = &v[chosen[i]];
        out->points[i] = rg_v3_add(pos_b, rg_quat_rotate(rot_b, p->p));
        out->depths[i] = p->depth;
        out->features[i] = rg__feature_id(kind, first, second, p->code);
    }
}

/* Face contact (reference face of A when ref_is_a, else of B): the incident polygon clipped
   against the reference face's side planes (Sutherland-Hodgman), points within margin kept,
   reduced to four. `support` is the incident hull's deepest vertex below the reference face. */
static int rg__face_contact(const rg_hull *a, const rg_hull *b, const rg__relative_pose *t,
                            int ref_is_a, int ref_face, int support, rg_real margin,
                            rg_vec3 pos_b, rg_quat rot_b, rg__clip_vertex **scratch,
                            rg_manifold *out) {
    const rg_hull *ref = ref_is_a ? a : b, *inc = ref_is_a ? b : a;
    const rg__hull_face *rf = &ref->faces[ref_face];
    rg__clip_vertex stack[2 * RG__CLIP_STACK], *buffer = stack, *in, *next, *temporary = NULL;
    rg_vec3 n = ref_is_a ? rg_mat3_mul_v3(t->rotation, rf->normal) : rf->normal;
    rg_real offset = ref_is_a ? rf->offset + rg_v3_dot(n, t->translation) : rf->offset;
    rg_vec3 n_in_inc = ref_is_a ? n : rg_mat3_mul_v3(t->inverse_rotation, n);
    int inc_face = rg__incident_face(inc, support, n_in_inc);
    const rg__hull_face *incf;
    int i, count, kept, capacity, chosen[4];
    if (inc_face < 0) return 0;
    incf = &inc->faces[inc_face];
    capacity = incf->count + rf->count + 1;
    if (capacity > RG__CLIP_STACK) {
        rg__clip_vertex **store = scratch ? scratch : &temporary;
        stbds_arrsetlen(*store, 2 * capacity);
        buffer = *store;
    } else {
        capacity = RG__CLIP_STACK;
    }
    in = buffer;
    next = buffer + capacity;
    count = incf->count;
    for (i = 0; i < count; ++i) {
        in[i].p = rg__vertex_in_b(inc, !ref_is_a, t, inc->face_vertices[incf->first + i]);
        in[i].depth = 0;
        in[i].code = (uint32_t)i;
        in[i].line = (uint32_t)i;
    }
    for (i = 0; i < rf->count && count > 0; ++i) {
        rg_vec3 v0 = rg__vertex_in_b(ref, ref_is_a, t, ref->face_vertices[rf->first + i]);
        rg_vec3 v1 = rg__vertex_in_b(ref, ref_is_a, t, ref->face_vertices[rf->first + (i + 1) % rf->count]);
        rg_vec3 side = rg_v3_cross(rg_v3_sub(v1, v0), n); /* outward in the face's plane */
        rg__clip_vertex *swap;
        count = rg__clip_polygon(in, count, side, rg_v3_dot(side, v0), i, next);
        swap = in; in = next; next = swap;
    }
    /* depth below the reference plane; points kept within the margin, moved onto B's surface */
    for (i = 0, kept = 0; i < count; ++i) {
        rg__clip_vertex p = in[i];
        p.depth = offset - rg_v3_dot(n, p.p);
        if (!(p.depth >= -margin)) continue;
        if (!ref_is_a) p.p = rg_v3_madd(p.p, n, p.depth);
        in[kept++] = p;
    }
    if (kept == 0) {
        /* rounding clipped away even the deepest vertex: keep that vertex alone */
        rg__clip_vertex p;
        p.p = rg__vertex_in_b(inc, !ref_is_a, t, support);
        p.depth = offset - rg_v3_dot(n, p.p);
        p.code = 0x40000000u | (uint32_t)support;
        p.line = 0;
        if (!ref_is_a) p.p = rg_v3_madd(p.p, n, p.depth);
        if (p.depth >= -margin) in[kept++] = p;
    }
    count = rg__reduce_contacts(in, kept, n, chosen);
    rg__manifold_from_points(in, chosen, count, ref_is_a ? rg_v3_neg(n) : n,
                             ref_is_a ? RG__AXIS_FACE_A : RG__AXIS_FACE_B, ref_face, inc_face,
                             pos_b, rot_b, out);
    stbds_arrfree(temporary);
    return count;
}

/* Closest points of segments p + s u and q + t v, s and t in [0, 1], for non-parallel
   segments: the unconstrained minimum of |p + s u - q - t v|^2, then clamped. */
static void rg__closest_points_of_segments(rg_vec3 p, rg_vec3 u, rg_vec3 q, rg_vec3 v, rg_real *s_out,
                                           rg_real *t_out) {
    rg_vec3 r = rg_v3_sub(p, q);
    rg_real uu = rg_v3_dot(u, u), vv = rg_v3_dot(v, v), uv = rg_v3_dot(u, v);
    rg_real ur = rg_v3_dot(u, r), vr = rg_v3_dot(v, r);
    rg_real denominator = uu * vv - uv * uv, s = 0, t;
    if (denominator > 0) s = rg__min_real(1, rg__max_real(0, (uv * vr - ur * vv) / denominator));
    t = (uv * s + vr) / vv;
    if (t < 0) {
        t = 0;
        s = rg__min_real(1, rg__max_real(0, -ur / uu));
    } else if (t > 1) {
        t = 1;
        s = rg__min_real(1, rg__max_real(0, (uv - ur) / uu));
    }
    *s_out = s;
    *t_out = t;
}

/* Edge contact: one point, the closest points of the two edges (Baraff's edge/edge contact). */
static int rg__edge_contact(const rg_hull *a, const rg_hull *b, const rg__relative_pose *t,
                            const rg__edge_query *query, rg_real margin, rg_vec3 pos_b, rg_quat rot_b,
                            rg_manifold *out) {
    rg__edge_frame frame = rg__edge_frame_of_a(a, t, query->edge_a);
    const rg__hull_edge *edge = &b->edges[query->edge_b];
    rg_vec3 q = b->vertices[edge->v[0]], v = rg_v3_sub(b->vertices[edge->v[1]], q);
    rg_vec3 normal = rg_v3_neg(query->normal), on_a, on_b; /* from B towards A */
    rg_real s, u;
    rg__clip_vertex point;
    int chosen = 0;
    rg__closest_points_of_segments(frame.start, frame.direction, q, v, &s, &u);
    on_a = rg_v3_madd(frame.start, frame.direction, s);
    on_b = rg_v3_madd(q, v, u);
    point.p = on_b;
    point.depth = rg_v3_dot(normal, rg_v3_sub(on_b, on_a));
    point.code = 0;
    point.line = 0;
    if (!(point.depth >= -margin)) return 0;
    rg__manifold_from_points(&point, &chosen, 1, normal, RG__AXIS_EDGES, query->edge_a,
                             query->edge_b, pos_b, rot_b, out);
    return 1;
}

/* The narrow phase of one pair: the witness (may be NULL) is tried first, then the full
   search; the witness is updated with the axis of largest separation. scratch (may be NULL) is
   an stb_ds array reused for faces too big to clip on the stack. */
static int rg__collide_hulls_cached(const rg_hull *a, rg_vec3 pos_a, rg_quat rot_a, const rg_hull *b,
                                    rg_vec3 pos_b, rg_quat rot_b, rg_real margin,
                                    rg__witness *witness, rg__clip_vertex **scratch, rg_manifold *out) {
    rg__relative_pose t;
    rg__face_query face_a, face_b, face;
    rg__edge_query edges;
    rg_real scale, face_tolerance;
    int ref_is_a;
    if (!out) return 0;
    memset(out, 0, sizeof *out);
    if (witness) witness->held = 0;
    if (!a || !b || a->vertex_count <= 0 || b->vertex_count <= 0 || !rg_v3_is_finite(pos_a) ||
        !rg_v3_is_finite(pos_b) || !rg_quat_is_finite(rot_a) || !rg_quat_is_finite(rot_b))
        return 0;
    if (!(margin > 0)) margin = 0; /* negative and NaN margins mean touching only */
    if (!rg__is_finite_real(margin)) return 0;
    rot_a = rg_quat_normalize(rot_a);
    rot_b = rg_quat_normalize(rot_b);
    t = rg__relative_pose_of(pos_a, rot_a, pos_b, rot_b);

    if (witness && rg__witness_separates(a, b, &t, witness, margin)) {
        witness->held = 1;
        return 0;
    }
    face_a = rg__query_faces(a, b, &t, 1, margin);
    if (face_a.separation > margin) {
        rg__witness_set(witness, RG__AXIS_FACE_A, face_a.face, 0);
        return 0;
    }
    face_b = rg__query_faces(a, b, &t, 0, margin);
    if (face_b.separation > margin) {
        rg__witness_set(witness, RG__AXIS_FACE_B, 0, face_b.face);
        return 0;
    }
    edges = rg__query_edges(a, b, &t, margin);
    if (edges.edge_a >= 0 && edges.separation > margin) {
        rg__witness_set(witness, RG__AXIS_EDGES, edges.edge_a, edges.edge_b);
        return 0;
    }
    /* touching: remember the axis closest to separating, for the next call */
    if (edges.edge_a >= 0 && edges.separation > face_a.separation && edges.separation > face_b.separation)
        rg__witness_set(witness, RG__AXIS_EDGES, edges.edge_a, edges.edge_b);
    else if (face_a.separation > face_b.separation)
        rg__witness_set(witness, RG__AXIS_FACE_A, face_a.face, 0);
    else
        rg__witness_set(witness, RG__AXIS_FACE_B, 0, face_b.face);

    /* the axis: faces of B preferred over faces of A, faces over edges (RG__AXIS_*) */
    scale = RG__AXIS_ABSOLUTE * rg__min_real(a->radius, b->radius);
    face_tolerance = RG__AXIS_RELATIVE * rg__fabs(face_b.separation) + scale;
    ref_is_a = face_a.separation > face_b.separation + face_tolerance;
    face = ref_is_a ? face_a : face_b;
    if (edges.edge_a >= 0 &&
        edges.separation > face.separation + RG__AXIS_RELATIVE * rg__fabs(face.separation) + scale) {
        if (rg__edge_contact(a, b, &t, &edges, margin, pos_b, rot_b, out)) return out->count;
    }
    return rg__face_contact(a, b, &t, ref_is_a, face.face, face.support, margin, pos_b, rot_b, scratch,
                            out);
}

RIGID_API int rg_collide_hulls_cached(const rg_hull *a, rg_vec3 pos_a, rg_quat rot_a,
                                      const rg_hull *b, rg_vec3 pos_b, rg_quat rot_b,
                                      rg_real margin, rg_witness *witness, rg_manifold *out) {
    return rg__collide_hulls_cached(a, pos_a, rot_a, b, pos_b, rot_b, margin, witness, NULL, out);
}

RIGID_API int rg_collide_hulls(const rg_hull *a, rg_vec3 pos_a, rg_quat rot_a,
                               const rg_hull *b, rg_vec3 pos_b, rg_quat rot_b,
                               rg_real margin, rg_manifold *out) {
    return rg__collide_hulls_cached(a, pos_a, rot_a, b, pos_b, rot_b, margin, NULL, NULL, out);
}

/* =============================================================================================
   >>broadphase: incremental sort-and-sweep (Baraff §7.2)
   ============================================================================================= */

static void rg__broadphase_destroy(rg_world *w) { stbds_arrfree(w->broadphase.pairs); }
static void rg__broadphase_remove_body(rg_world *w, int index) { (void)w; (void)index; }

/* World box of a body's hull, fattened by the contact margin and by the step's motion so the
   box covers both x and x + v dt. */
static void rg__body_compute_aabb(rg__body *body, rg_real margin, rg_real dt) {
    rg_vec3 lo, hi, motion;
    int i;
    if (!body->hull) {
        body->aabb_min = body->aabb_max = body->com;
        return;
    }
    {
        rg_vec3 origin = rg_v3_sub(body->com, rg_quat_rotate(body->orientation, body->hull->centroid));
        lo = hi = rg_v3_add(origin, rg_quat_rotate(body->orientation, body->hull->vertices[0]));
        for (i = 1; i < body->hull->vertex_count; ++i) {
            rg_vec3 p = rg_v3_add(origin, rg_quat_rotate(body->orientation, body->hull->vertices[i]));
            lo = rg_v3_min(lo, p);
            hi = rg_v3_max(hi, p);
        }
    }
    lo = rg_v3_sub(lo, rg_v3(margin, margin, margin));
    hi = rg_v3_add(hi, rg_v3(margin, margin, margin));
    motion = rg_v3_scale(body->linear_velocity, dt);
    body->aabb_min = rg_v3_min(lo, rg_v3_add(lo, motion));
    body->aabb_max = rg_v3_max(hi, rg_v3_add(hi, motion));
}

/* Placeholder until the incremental sort-and-sweep lands: all pairs by brute force. */
static void rg__broadphase_update(rg_world *w, rg_real dt) {
    int i, j, n = (int)stbds_arrlen(w->bodies);
    stbds_arrsetlen(w->broadphase.pairs, 0);
    for (i = 0; i < n; ++i)
        if (w->bodies[i].generation & 1) rg__body_compute_aabb(&w->bodies[i], w->def.contact_margin, dt);
    for (i = 0; i < n; ++i) {
        const rg__body *a = &w->bodies[i];
        if (!(a->generation & 1)) continue;
        for (j = i + 1; j < n; ++j) {
            const rg__body *b = &w->bodies[j];
            rg__body_pair pair;
            if (!(b->generation & 1) || (a->type != RG_BODY_DYNAMIC && b->type != RG_BODY_DYNAMIC)) continue;
            if (a->aabb_max.x < b->aabb_min.x || b->aabb_max.x < a->aabb_min.x ||
                a->aabb_max.y < b->aabb_min.y || b->aabb_max.y < a->aabb_min.y ||
                a->aabb_max.z < b->aabb_min.z || b->aabb_max.z < a->aabb_min.z)
                continue;
            pair.a = i;
            pair.b = j;
            stbds_arrput(w->broadphase.pairs, pair);
        }
    }
    w->stats.pair_count = (int)stbds_arrlen(w->broadphase.pairs);
}

/* =============================================================================================
   >>narrowphase: contact manifolds for the pairs of the broad phase
   =============================================================================================

   Each pair of the broad phase is collided with the witness it kept from the last step
   (Baraff §7.1), in pair order. A pair's cache entry lives in a hash map keyed by the pair as
   long as the broad phase reports the pair; it holds the witness and where the pair's manifold
   of the last step is, so that points whose feature id reappears inherit the impulses the
   solver accumulated in them (warm starting). Nothing allocates once the pairs are stable. */

static uint64_t rg__pair_key(int a, int b) { return ((uint64_t)(uint32_t)a << 32) | (uint32_t)b; }

static void rg__narrowphase_destroy(rg_world *w) {
    stbds_arrfree(w->narrowphase.manifolds);
    stbds_arrfree(w->narrowphase.previous);
    stbds_hmfree(w->narrowphase.cache);
    stbds_arrfree(w->narrowphase.clip_scratch);
}

/* Repoints the cache entries at their manifolds after the manifold array changed. */
static void rg__narrowphase_index_manifolds(rg_world *w) {
    int i, n = (int)stbds_arrlen(w->narrowphase.manifolds);
    for (i = 0; i < n; ++i) {
        uint64_t key = rg__pair_key(w->narrowphase.manifolds[i].a, w->narrowphase.manifolds[i].b);
        ptrdiff_t at = stbds_hmgeti(w->narrowphase.cache, key);
        if (at >= 0) w->narrowphase.cache[at].value.manifold_index = i;
    }
}

/* A destroyed body takes its pairs' cache entries and manifolds with it, so that a body created
   later in the same slot starts without witness or warm start. */
static void rg__narrowphase_remove_body(rg_world *w, int index) {
    rg__narrowphase *np = &w->narrowphase;
    ptrdiff_t i;
    int kept = 0, n = (int)stbds_arrlen(np->manifolds);
    for (i = stbds_hmlen(np->cache) - 1; i >= 0; --i) {
        uint64_t key = np->cache[i].key;
        if ((int)(key >> 32) == index || (int)(uint32_t)key == index) (void)stbds_hmdel(np->cache, key);
    }
    for (i = 0; i < n; ++i)
        if (np->manifolds[i].a != index && np->manifolds[i].b != index) np->manifolds[kept++] = np->manifolds[i];
    if (kept != n) {
        stbds_arrsetlen(np->manifolds, kept);
        rg__narrowphase_index_manifolds(w);
    }
}

/* The world pose of a body's hull frame: the centre of mass less the rotated local centroid. */
static rg_vec3 rg__body_hull_origin(const rg__body *body) {
    return rg_v3_sub(body->com, rg_quat_rotate(body->orientation, body->hull->centroid));
}

/* Points of the new manifold whose feature id was in the pair's last manifold take its
   accumulated impulses. */
static void rg__narrowphase_warm_start(rg__pair_manifold *m, const rg__pair_manifold *previous) {
    int i, j;
    if (!previous) return;
    for (i = 0; i < m->count; ++i)
        for (j = 0; j < previous->count; ++j)
            if (previous->points[j].feature == m->points[i].feature) {
                m->points[i].normal_impulse = previous->points[j].normal_impulse;
                m->points[i].friction_impulse = previous->points[j].friction_impulse;
                break;
            }
}

static rg__pair_cache *rg__narrowphase_cache_entry(rg__narrowphase *np, uint64_t key) {
    ptrdiff_t at = stbds_hmgeti(np->cache, key);
    if (at < 0) {
        rg__pair_cache fresh;
        memset(&fresh, 0, sizeof fresh);
        fresh.manifold_index = -1;
        stbds_hmput(np->cache, key, fresh);
        at = stbds_hmgeti(np->cache, key);
    }
    return &np->cache[at].value;
}

/* Drops the entries of pairs the broad phase no longer reports. Walking down, a deletion moves
   the last entry, already visited, into the hole. */
static void rg__narrowphase_forget_stale_pairs(rg__narrowphase *np) {
    ptrdiff_t i;
    for (i = stbds_hmlen(np->cache) - 1; i >= 0; --i) {
        if (np->cache[i].value.stamp != np->step) {
            uint64_t key = np->cache[i].key;
            (void)stbds_hmdel(np->cache, key);
        }
    }
}

/* The speculative margin of a pair: contact_margin plus how far the two hulls can close in this
   step (relative speed, turning of the farthest vertices, gravity), so that a fast body meets
   what it will hit before it is inside it; the solver acts on a gap only when it closes. */
static rg_real rg__pair_margin(const rg_world *w, const rg__body *a, const rg__body *b) {
    rg_real h = w->step_dt, speed;
    if (!(h > 0)) return w->def.contact_margin;
    speed = rg_v3_length(rg_v3_sub(a->linear_velocity, b->linear_velocity)) +
            rg_v3_length(a->angular_velocity) * a->hull->radius + rg_v3_length(b->angular_velocity) * b->hull->radius +
            rg_v3_length(w->def.gravity) * h;
    return w->def.contact_margin + speed * h;
}

static void rg__narrowphase_update(rg_world *w) {
    rg__narrowphase *np = &w->narrowphase;
    int i, pair_count = (int)stbds_arrlen(w->broadphase.pairs);
    int hits = 0, misses = 0, contacts = 0;
    {
        /* last step's manifolds, with the impulses the solver left in them, become `previous` */
        rg__pair_manifold *swap = np->previous;
        np->previous = np->manifolds;
        np->manifolds = swap;
        stbds_arrsetlen(np->manifolds, 0);
    }
    ++np->step;
    for (i = 0; i < pair_count; ++i) {
        rg__body_pair pair = w->broadphase.pairs[i];
        const rg__body *body_a = &w->bodies[pair.a], *body_b = &w->bodies[pair.b];
        rg__pair_cache *cache;
        rg__pair_manifold m;
        rg_manifold result;
        const rg__pair_manifold *previous = NULL;
        int k, count;
        if (!body_a->hull || !body_b->hull) continue;
        cache = rg__narrowphase_cache_entry(np, rg__pair_key(pair.a, pair.b));
        cache->stamp = np->step;
        count = rg__collide_hulls_cached(body_a->hull, rg__body_hull_origin(body_a), body_a->orientation,
                                         body_b->hull, rg__body_hull_origin(body_b), body_b->orientation,
                                         rg__pair_margin(w, body_a, body_b), &cache->witness, &np->clip_scratch,
                                         &result);
        if (cache->witness.held) ++hits; else ++misses;
        if (cache->manifold_index >= 0 && cache->manifold_index < (int)stbds_arrlen(np->previous) &&
            np->previous[cache->manifold_index].a == pair.a && np->previous[cache->manifold_index].b == pair.b)
            previous = &np->previous[cache->manifold_index];
        cache->manifold_index = -1;
        if (count == 0) continue;
        memset(&m, 0, sizeof m);
        m.a = pair.a;
        m.b = pair.b;
        m.normal = result.normal;
        m.count = count;
        for (k = 0; k < count; ++k) {
            m.points[k].point = result.points[k];
            m.points[k].depth = result.depths[k];
            m.points[k].feature = result.features[k];
        }
        rg__narrowphase_warm_start(&m, previous);
        m.previous = previous ? (int)(previous - np->previous) : -1; /* (solver) */
        cache->manifold_index = (int)stbds_arrlen(np->manifolds);
        stbds_arrput(np->manifolds, m);
        contacts += count;
    }
    rg__narrowphase_forget_stale_pairs(np);
    w->stats.witness_hits = hits;
    w->stats.witness_misses = misses;
    w->stats.contact_count = contacts;
}

/* =============================================================================================
   >>solver: collisions, velocity update, contacts, shock propagation (Bender & Schmitt 2006,
   Guendelman et al. 2003)
   =============================================================================================

   One step (Guendelman §5): collisions with the velocities of the step's start; velocities
   advanced by gravity and forces; resting contacts resolved by predicting where the contact
   points will be after the step; positions advanced. Both loops are Bender & Schmitt's: every
   contact point is a constraint satisfied by iterated impulses whose sum per point is clamped so
   that it never pulls (eqs. 2-3), with Coulomb friction in the same loop (eqs. 4-6).

   Two additions keep the speculative contacts (points within the margin, depth < 0) exact:
   - a collision whose gap closes during the step happens at its time of impact toi; the body
     moves with its old velocity until toi and with the new one after, so its position update
     gets the offset -dv * toi besides v h (bounces reach the right height, landings do not hover);
   - penetration beyond contact_tolerance (from impacts the narrow phase saw late) is removed by
     a first-order impulse that moves positions without changing velocities (Guendelman §11), so
     pushing bodies apart never shoots them off. */

/* Internal tuning, relative to the world def's contact_tolerance and step. */
#ifndef RG__CONTACT_EXIT_FRACTION
#define RG__CONTACT_EXIT_FRACTION ((rg_real)0.01) /* contact sweeps stop when every error is below this part of the tolerance */
#endif
#ifndef RG__SHOCK_EXIT_FRACTION
#define RG__SHOCK_EXIT_FRACTION ((rg_real)1e-4)   /* shock propagation converges a level further: its errors add up the stack */
#endif
#ifndef RG__SHUFFLE
#define RG__SHUFFLE 1
#endif
#ifndef RG__CARRY_SHOCK
#define RG__CARRY_SHOCK 0
#endif
#ifndef RG__SHOCK_INNER
#define RG__SHOCK_INNER 4                         /* visits of a manifold per shock sweep, while it has errors */
#endif
#ifndef RG__SLOP_FRACTION
#define RG__SLOP_FRACTION ((rg_real)0.1)          /* penetration the velocity may remove; beyond it the first-order pass does */
#endif
#ifndef RG__COLLISION_RELATIVE_TOLERANCE
#define RG__COLLISION_RELATIVE_TOLERANCE ((rg_real)1e-3) /* collision loop: velocity error / approach speed */
#endif
#ifndef RG__GRAPH_VERTICAL
#define RG__GRAPH_VERTICAL ((rg_real)0.1)         /* |n . up| above which a pair rests one on the other */
#endif
#ifndef RG__STILL_FRACTION
#define RG__STILL_FRACTION ((rg_real)0.1)         /* sliding slower than this part of the tolerance per step is none */
#endif
#ifndef RG__WARM_ALIGNMENT
#define RG__WARM_ALIGNMENT ((rg_real)0.995)      /* cos of the largest turn of a normal that still carries a warm start */
#endif
#ifndef RG__LINEAR_TURN
#define RG__LINEAR_TURN ((rg_real)0.003)          /* radians per step below which an arm's turn is linear to 5e-6 of its length */
#endif

static void rg__solver_destroy(rg_world *w) {
    rg__solver *s = &w->solver;
    stbds_arrfree(s->bodies);
    stbds_arrfree(s->manifolds);
    stbds_arrfree(s->points);
    stbds_arrfree(s->order);
    stbds_arrfree(s->level_start);
    stbds_arrfree(s->wave);
    stbds_arrfree(s->edge_from);
    stbds_arrfree(s->edge_to);
    stbds_arrfree(s->adjacency_start);
    stbds_arrfree(s->adjacency);
    stbds_arrfree(s->scc_index);
    stbds_arrfree(s->scc_low);
    stbds_arrfree(s->scc_component);
    stbds_arrfree(s->scc_stack);
    stbds_arrfree(s->scc_call);
    stbds_arrfree(s->scc_next);
    stbds_arrfree(s->component_level);
    stbds_arrfree(s->report);
}

/* ---- integration (Guendelman §5 steps 3 and 5) ---- */

/* Semi-implicit gyroscopic term (body frame) by the implicit midpoint rule: solve
   I (w1 - w0) + h wm x (I wm) = 0 with wm = (w0 + w1)/2 by Newton's method. The midpoint rule
   keeps every quadratic invariant of Euler's equations, |L|^2 and the kinetic energy, so a
   tumbling asymmetric body neither gains nor loses energy; explicit Euler would blow up and
   implicit Euler would damp. */
static rg_vec3 rg__solve_gyroscopic(rg_mat3 inertia, rg_vec3 omega0, rg_real h) {
    rg_vec3 omega1 = omega0;
    int iteration;
    for (iteration = 0; iteration < 4; ++iteration) {
        rg_vec3 mid = rg_v3_scale(rg_v3_add(omega0, omega1), (rg_real)0.5);
        rg_vec3 momentum = rg_mat3_mul_v3(inertia, mid);
        rg_vec3 residual = rg_v3_add(rg_mat3_mul_v3(inertia, rg_v3_sub(omega1, omega0)),
                                     rg_v3_scale(rg_v3_cross(mid, momentum), h));
        /* d residual / d w1 = I + h/2 (skew(wm) I - skew(I wm)) */
        rg_mat3 jacobian = rg_mat3_add(
            inertia, rg_mat3_scale(rg_mat3_add(rg_mat3_mul(rg_mat3_skew(mid), inertia),
                                               rg_mat3_scale(rg_mat3_skew(momentum), -1)),
                                   h * (rg_real)0.5));
        omega1 = rg_v3_sub(omega1, rg_mat3_solve(jacobian, residual));
    }
    return omega1;
}

/* Guendelman §5 step 3: velocities from gravity, applied forces and torques, and the
   gyroscopic term of Euler's equations. */
static void rg__integrate_velocities(rg_world *w, rg_real h) {
    int i, n = (int)stbds_arrlen(w->bodies);
    for (i = 0; i < n; ++i) {
        rg__body *body = &w->bodies[i];
        rg_mat3 rotation;
        rg_vec3 omega_local;
        if (!(body->generation & 1) || body->type != RG_BODY_DYNAMIC) continue;
        body->linear_velocity = rg_v3_madd(body->linear_velocity,
                                           rg_v3_madd(w->def.gravity, body->force, body->inv_mass), h);
        body->angular_velocity = rg_v3_madd(body->angular_velocity,
                                            rg_mat3_mul_v3(body->inv_inertia_world, body->torque), h);
        rotation = rg_mat3_from_quat(body->orientation);
        omega_local = rg_mat3_mul_v3(rg_mat3_transpose(rotation), body->angular_velocity);
        omega_local = rg__solve_gyroscopic(body->inertia_local, omega_local, h);
        body->angular_velocity = rg_mat3_mul_v3(rotation, omega_local);
    }
}

static void rg__body_update_world_inertia(rg__body *body) {
    if (body->type != RG_BODY_DYNAMIC) return;
    body->inv_inertia_world = rg__mat3_rotate_tensor(rg_mat3_from_quat(body->orientation),
                                                     body->inv_inertia_local);
}

/* Guendelman §5 step 5: x += v h, and the orientation turned by the exact rotation of w h. The
   solver's offsets of this step (time of impact, first-order separation) are added to both. */
static void rg__integrate_positions(rg_world *w, rg_real h) {
    int i, n = (int)stbds_arrlen(w->bodies);
    int offsets = w->solver.ready && (int)stbds_arrlen(w->solver.bodies) == n;
    for (i = 0; i < n; ++i) {
        rg__body *body = &w->bodies[i];
        rg_vec3 move, turn;
        if (!(body->generation & 1) || body->type == RG_BODY_STATIC) continue;
        move = rg_v3_scale(body->linear_velocity, h);
        turn = rg_v3_scale(body->angular_velocity, h);
        if (offsets && body->type == RG_BODY_DYNAMIC) {
            move = rg_v3_add(move, w->solver.bodies[i].dx);
            turn = rg_v3_add(turn, w->solver.bodies[i].dr);
        }
        body->com = rg_v3_add(body->com, move);
        body->orientation = rg_quat_normalize(rg_quat_mul(rg_quat_from_rotation_vector(turn),
                                                          body->orientation));
        rg__body_update_world_inertia(body);
    }
    w->solver.ready = 0;
}

/* ---- small pieces of the impulse computations ---- */

/* R(theta) r - r for the rotation by the rotation vector theta, by Rodrigues' formula:
   (sin t / t) theta x r + ((1 - cos t) / t^2) theta x (theta x r), t = |theta|. Below t = 0.1 the
   two coefficients come from their Taylor series, exact to rounding there and free of the
   cancellation in 1 - cos t. This is Bender's eq. (7) integrated exactly over the step. */
static rg_vec3 rg__rotation_change(rg_vec3 theta, rg_vec3 r) {
    rg_real t = rg_v3_dot(theta, theta), a, b;
    rg_vec3 c = rg_v3_cross(theta, r);
    if (t < (rg_real)0.01) {
        a = 1 - t / 6 * (1 - t / 20 * (1 - t / 42));
        b = (rg_real)0.5 * (1 - t / 12 * (1 - t / 30 * (1 - t / 56)));
    } else {
        rg_real angle = rg__sqrt(t);
        a = rg__sin(angle) / angle;
        b = (1 - rg__cos(angle)) / t;
    }
    return rg_v3_add(rg_v3_scale(c, a), rg_v3_scale(rg_v3_cross(theta, c), b));
}

/* Bender §3: u_rel = u_a - u_b, the velocity of a's contact point relative to b's. */
static rg_vec3 rg__solver_relative_velocity(const rg__solver_body *A, const rg__solver_body *B,
                                            rg_vec3 ra, rg_vec3 rb) {
    return rg_v3_sub(rg_v3_add(A->v, rg_v3_cross(A->w, ra)), rg_v3_add(B->v, rg_v3_cross(B->w, rb)));
}

/* u_rel . d for a direction d with the arms' cross products ra x d and rb x d. */
static inline rg_real rg__solver_speed(const rg__solver_body *A, const rg__solver_body *B, rg_vec3 d,
                                       rg_vec3 rad, rg_vec3 rbd) {
    return (A->v.x - B->v.x) * d.x + (A->v.y - B->v.y) * d.y + (A->v.z - B->v.z) * d.z +
           rg_v3_dot(A->w, rad) - rg_v3_dot(B->w, rbd);
}

/* The impulse j d at a's point and -j d at b's, with wa = I_a^-1 (ra x d), wb = I_b^-1 (rb x d).
   A collision applies it at time toi of the step: the bodies moved with their old velocities
   until then, so their position updates lose dv * toi. */
static inline void rg__solver_push(rg__solver_body *A, rg__solver_body *B, rg_vec3 d, rg_vec3 wa, rg_vec3 wb,
                                   rg_real j, rg_real toi) {
    rg_real ja = j * A->inv_mass, jb = j * B->inv_mass;
    A->v = rg_v3_madd(A->v, d, ja);
    A->w = rg_v3_madd(A->w, wa, j);
    B->v = rg_v3_madd(B->v, d, -jb);
    B->w = rg_v3_madd(B->w, wb, -j);
    if (toi > 0) {
        A->dx = rg_v3_madd(A->dx, d, -ja * toi);
        A->dr = rg_v3_madd(A->dr, wa, -j * toi);
        B->dx = rg_v3_madd(B->dx, d, jb * toi);
        B->dr = rg_v3_madd(B->dr, wb, j * toi);
    }
}

/* A friction impulse j1 t1 + j2 t2 of a point, as one push of unit size along it. */
static inline void rg__solver_push_tangent(rg__solver_body *A, rg__solver_body *B, const rg__solver_manifold *m,
                                           const rg__solver_point *p, rg_real j1, rg_real j2, rg_real toi) {
    rg_vec3 d = rg_v3_add(rg_v3_scale(m->t1, j1), rg_v3_scale(m->t2, j2));
    rg_vec3 wa = rg_v3_add(rg_v3_scale(p->wa1, j1), rg_v3_scale(p->wa2, j2));
    rg_vec3 wb = rg_v3_add(rg_v3_scale(p->wb1, j1), rg_v3_scale(p->wb2, j2));
    if (j1 != 0 || j2 != 0) rg__solver_push(A, B, d, wa, wb, 1, toi);
}

/* An angular impulse L on a and -L on b (Guendelman §9's area impulse without a point part). */
static void rg__solver_apply_angular(rg__solver_body *A, rg__solver_body *B, rg_vec3 L) {
    A->w = rg_v3_add(A->w, rg_mat3_mul_v3(A->inv_inertia, L));
    B->w = rg_v3_sub(B->w, rg_mat3_mul_v3(B->inv_inertia, L));
}

/* Bender eq. (1): K = K_a + K_b with K_x = 1/m I - r* J^-1 r*. Fills the point's Jacobian pieces,
   n^T K n (as 1 / itself) and K on the tangent plane, from the bodies' current inverse masses:
   again when shock propagation gives a body infinite mass. */
static void rg__solver_point_jacobians(const rg__solver *s, const rg__solver_manifold *m, rg__solver_point *p) {
    const rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    rg_real im = A->inv_mass + B->inv_mass, knn;
    p->ran = rg_v3_cross(p->ra, m->n);
    p->rbn = rg_v3_cross(p->rb, m->n);
    p->ra1 = rg_v3_cross(p->ra, m->t1);
    p->rb1 = rg_v3_cross(p->rb, m->t1);
    p->ra2 = rg_v3_cross(p->ra, m->t2);
    p->rb2 = rg_v3_cross(p->rb, m->t2);
    p->wan = rg_mat3_mul_v3(A->inv_inertia, p->ran);
    p->wbn = rg_mat3_mul_v3(B->inv_inertia, p->rbn);
    p->wa1 = rg_mat3_mul_v3(A->inv_inertia, p->ra1);
    p->wb1 = rg_mat3_mul_v3(B->inv_inertia, p->rb1);
    p->wa2 = rg_mat3_mul_v3(A->inv_inertia, p->ra2);
    p->wb2 = rg_mat3_mul_v3(B->inv_inertia, p->rb2);
    knn = im + rg_v3_dot(p->ran, p->wan) + rg_v3_dot(p->rbn, p->wbn);
    p->normal_mass = knn > 0 ? 1 / knn : 0;
    {
        rg_real k11 = im + rg_v3_dot(p->ra1, p->wa1) + rg_v3_dot(p->rb1, p->wb1);
        rg_real k12 = rg_v3_dot(p->ra1, p->wa2) + rg_v3_dot(p->rb1, p->wb2);
        rg_real k22 = im + rg_v3_dot(p->ra2, p->wa2) + rg_v3_dot(p->rb2, p->wb2);
        rg_real det = k11 * k22 - k12 * k12;
        if (det > 0) {
            p->i11 = k22 / det;
            p->i12 = -k12 / det;
            p->i22 = k11 / det;
        } else {
            p->i11 = p->i12 = p->i22 = 0;
        }
    }
}

/* Coulomb friction of one point on accumulated impulses (Bender eqs. 4-6). (e1, e2) is the
   tangential error static friction removes, (u1, u2) the sliding velocity dynamic friction
   opposes, both in the basis (t1, t2) as velocities. A marked (sticking) point takes the impulse
   that removes its error, its sum kept in the cone of mu_s (eq. 6): within one loop the points
   of a face share the load only gradually, so a point that cannot hold alone saturates at the
   cone instead of losing the mark; the mark is decided again at the next step from whether the
   point slid. An unmarked point gets mu_d times its sum of normal impulses against the sliding
   direction t = u_t / |u_t| (eq. 4), unless the impulse that stops the sliding (eq. 5) is the
   smaller: then that one, friction only decelerating, and static friction takes over (the mark
   is set). Writes the impulse to apply to (d1, d2). */
static inline void rg__solver_friction(rg__solver_point *p, rg_real mu_s, rg_real mu_d, rg_real e1, rg_real e2,
                                       rg_real u1, rg_real u2, rg_real *d1, rg_real *d2) {
    rg_real P1, P2, limit, length2;
    if (p->stick) {
        P1 = p->pt1 - (p->i11 * e1 + p->i12 * e2);
        P2 = p->pt2 - (p->i12 * e1 + p->i22 * e2);
        limit = mu_s * p->pn;
        length2 = P1 * P1 + P2 * P2;
        if (length2 > limit * limit) {
            rg_real scale = limit / rg__sqrt(length2);
            P1 *= scale;
            P2 *= scale;
        }
    } else {
        P1 = p->pt1 - (p->i11 * u1 + p->i12 * u2);
        P2 = p->pt2 - (p->i12 * u1 + p->i22 * u2);
        limit = mu_d * p->pn;
        if (P1 * P1 + P2 * P2 <= limit * limit) {
            p->stick = 1;
        } else {
            rg_real speed = rg__sqrt(u1 * u1 + u2 * u2);
            if (speed > 0) {
                P1 = -limit * u1 / speed;
                P2 = -limit * u2 / speed;
            } else {
                P1 = P2 = 0;
            }
        }
    }
    *d1 = P1 - p->pt1;
    *d2 = P2 - p->pt2;
    p->pt1 = P1;
    p->pt2 = P2;
}

/* Guendelman §9: rolling and spinning friction of a pair as an angular impulse that reduces the
   relative angular velocity's tangential (rolling) and normal (spinning) parts, its sum limited
   to the coefficient (a length) times the pair's normal impulse, never reversing them. */
static void rg__solver_rolling(rg__solver *s, rg__solver_manifold *m) {
    rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    rg_mat3 k;
    rg_real pn = 0;
    int i;
    if (!(m->rolling_friction > 0) && !(m->spinning_friction > 0)) return;
    k = rg_mat3_add(A->inv_inertia, B->inv_inertia);
    for (i = 0; i < m->count; ++i) pn += s->points[m->first + i].pn;
    if (m->spinning_friction > 0) {
        rg_real knn = rg_v3_dot(m->n, rg_mat3_mul_v3(k, m->n));
        if (knn > 0) {
            rg_real limit = m->spinning_friction * pn;
            rg_real next = m->spin - rg_v3_dot(rg_v3_sub(A->w, B->w), m->n) / knn;
            if (next > limit) next = limit;
            if (next < -limit) next = -limit;
            rg__solver_apply_angular(A, B, rg_v3_scale(m->n, next - m->spin));
            m->spin = next;
        }
    }
    if (m->rolling_friction > 0) {
        rg_vec3 wrel = rg_v3_sub(A->w, B->w);
        rg_vec3 kt1 = rg_mat3_mul_v3(k, m->t1), kt2 = rg_mat3_mul_v3(k, m->t2);
        rg_real k11 = rg_v3_dot(m->t1, kt1), k12 = rg_v3_dot(m->t1, kt2), k22 = rg_v3_dot(m->t2, kt2);
        rg_real det = k11 * k22 - k12 * k12;
        if (det > 0) {
            rg_real w1 = rg_v3_dot(wrel, m->t1), w2 = rg_v3_dot(wrel, m->t2);
            rg_real J1 = m->roll1 - (k22 * w1 - k12 * w2) / det;
            rg_real J2 = m->roll2 - (k11 * w2 - k12 * w1) / det;
            rg_real limit = m->rolling_friction * pn, length2 = J1 * J1 + J2 * J2;
            if (length2 > limit * limit) {
                rg_real scale = limit / rg__sqrt(length2);
                J1 *= scale;
                J2 *= scale;
            }
            rg__solver_apply_angular(A, B, rg_v3_add(rg_v3_scale(m->t1, J1 - m->roll1),
                                                     rg_v3_scale(m->t2, J2 - m->roll2)));
            m->roll1 = J1;
            m->roll2 = J2;
        }
    }
}

static int rg__solver_has_friction(const rg__solver_manifold *m) {
    return m->static_friction > 0 || m->dynamic_friction > 0;
}

/* ---- step preparation: solver bodies, contact points, contact graph and order ---- */

static void rg__solver_gather_velocities(rg_world *w) {
    int i, n = (int)stbds_arrlen(w->bodies);
    for (i = 0; i < n; ++i) {
        w->solver.bodies[i].v = w->bodies[i].linear_velocity;
        w->solver.bodies[i].w = w->bodies[i].angular_velocity;
    }
}

static void rg__solver_scatter_velocities(rg_world *w) {
    int i, n = (int)stbds_arrlen(w->bodies);
    for (i = 0; i < n; ++i) {
        if (!(w->bodies[i].generation & 1) || w->bodies[i].type != RG_BODY_DYNAMIC) continue;
        w->bodies[i].linear_velocity = w->solver.bodies[i].v;
        w->bodies[i].angular_velocity = w->solver.bodies[i].w;
    }
}

/* Infinite mass for the solver: static and kinematic bodies always, finished levels during
   shock propagation (Guendelman §8.2: "their K matrix is set to zero"). */
static void rg__solver_body_freeze(rg__solver_body *sb) {
    sb->inv_mass = 0;
    memset(&sb->inv_inertia, 0, sizeof sb->inv_inertia);
}

static void rg__solver_gather_bodies(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, n = (int)stbds_arrlen(w->bodies);
    stbds_arrsetlen(s->bodies, n);
    for (i = 0; i < n; ++i) {
        const rg__body *body = &w->bodies[i];
        rg__solver_body *sb = &s->bodies[i];
        memset(sb, 0, sizeof *sb);
        sb->dynamic = (body->generation & 1) && body->type == RG_BODY_DYNAMIC;
        sb->v = sb->v0 = body->linear_velocity;
        sb->w = sb->w0 = body->angular_velocity;
        if (sb->dynamic) {
            sb->inv_mass = body->inv_mass;
            sb->inv_inertia = body->inv_inertia_world;
        } else {
            rg__solver_body_freeze(sb);
        }
    }
}

/* A unit vector perpendicular to n, the same for the same n. */
static rg_vec3 rg__perpendicular(rg_vec3 n) {
    rg_vec3 t = rg__fabs(n.x) < (rg_real)0.57735 ? rg_v3(0, n.z, -n.y) : rg_v3(n.y, -n.x, 0);
    return rg_v3_normalize(t);
}

static void rg__solver_build_points(rg_world *w) {
    rg__solver *s = &w->solver;
    const rg__pair_manifold *source = w->narrowphase.manifolds;
    rg_real still = RG__STILL_FRACTION * w->def.contact_tolerance / w->step_dt;
    int i, k, count = (int)stbds_arrlen(source), total = 0;
    stbds_arrsetlen(s->manifolds, count);
    for (i = 0; i < count; ++i) total += source[i].count;
    stbds_arrsetlen(s->points, total);
    total = 0;
    for (i = 0; i < count; ++i) {
        const rg__pair_manifold *pm = &source[i];
        const rg__body *a = &w->bodies[pm->a], *b = &w->bodies[pm->b];
        rg__solver_manifold *m = &s->manifolds[i];
        m->a = pm->a;
        m->b = pm->b;
        m->first = total;
        m->count = pm->count;
        m->level = 1;
        m->n = pm->normal;
        m->t1 = rg__perpendicular(m->n);
        m->t2 = rg_v3_cross(m->n, m->t1);
        /* Guendelman §6-7: restitution the smaller of the pair, friction the larger */
        m->restitution = rg__min_real(a->restitution, b->restitution);
        m->static_friction = rg__max_real(a->static_friction, b->static_friction);
        m->dynamic_friction = rg__max_real(a->dynamic_friction, b->dynamic_friction);
        m->rolling_friction = rg__max_real(a->rolling_friction, b->rolling_friction);
        m->spinning_friction = rg__max_real(a->spinning_friction, b->spinning_friction);
        m->spin = m->roll1 = m->roll2 = 0;
        /* the normal turns with the body whose surface it belongs to when only one can turn */
        m->normal_body = a->type != RG_BODY_DYNAMIC ? 0 : b->type != RG_BODY_DYNAMIC ? 1 : 2;
        for (k = 0; k < pm->count; ++k) {
            rg__solver_point *p = &s->points[total + k];
            rg_vec3 on_b = pm->points[k].point;
            rg_vec3 on_a = rg_v3_madd(on_b, m->n, -pm->points[k].depth);
            rg_real u1, u2;
            memset(p, 0, sizeof *p);
            p->depth = pm->points[k].depth;
            p->ra = rg_v3_sub(on_a, a->com);
            p->rb = rg_v3_sub(on_b, b->com);
            p->wave = -1;
            rg__solver_point_jacobians(s, m, p);
            /* Bender §3.1: static friction where the points do not slide relative to each other;
               the velocities are those of the step's start, before gravity */
            u1 = rg__solver_speed(&s->bodies[m->a], &s->bodies[m->b], m->t1, p->ra1, p->rb1);
            u2 = rg__solver_speed(&s->bodies[m->a], &s->bodies[m->b], m->t2, p->ra2, p->rb2);
            p->stuck_at_start = u1 * u1 + u2 * u2 <= still * still;
        }
        total += pm->count;
    }
}

static uint64_t rg__solver_random(rg__solver *s) {
    /* xorshift64*: a fixed sequence from the world's seed */
    s->random_state ^= s->random_state >> 12;
    s->random_state ^= s->random_state << 25;
    s->random_state ^= s->random_state >> 27;
    return s->random_state * 2685821657736338717ull;
}

/* Tarjan's strongly connected components of the contact graph, without recursion so that tall
   stacks cannot overflow the stack. Components come out sinks first (reverse topological
   order); returns their number. */
static int rg__solver_components(rg__solver *s, int n) {
    int v, counter = 0, components = 0, stack_top = 0;
    for (v = 0; v < n; ++v) {
        s->scc_index[v] = -1;
        s->scc_component[v] = -1;
    }
    for (v = 0; v < n; ++v) {
        int call_top = 0;
        if (s->scc_index[v] >= 0 || s->adjacency_start[v] == s->adjacency_start[v + 1]) continue;
        s->scc_call[call_top++] = v;
        s->scc_index[v] = s->scc_low[v] = counter++;
        s->scc_next[v] = s->adjacency_start[v];
        s->scc_stack[stack_top++] = v;
        s->scc_component[v] = -2; /* on the stack */
        while (call_top > 0) {
            int u = s->scc_call[call_top - 1];
            if (s->scc_next[u] < s->adjacency_start[u + 1]) {
                int x = s->adjacency[s->scc_next[u]++];
                if (s->scc_index[x] < 0) {
                    s->scc_index[x] = s->scc_low[x] = counter++;
                    s->scc_next[x] = s->adjacency_start[x];
                    s->scc_stack[stack_top++] = x;
                    s->scc_component[x] = -2;
                    s->scc_call[call_top++] = x;
                } else if (s->scc_component[x] == -2 && s->scc_index[x] < s->scc_low[u]) {
                    s->scc_low[u] = s->scc_index[x];
                }
            } else {
                --call_top;
                if (call_top > 0) {
                    int parent = s->scc_call[call_top - 1];
                    if (s->scc_low[u] < s->scc_low[parent]) s->scc_low[parent] = s->scc_low[u];
                }
                if (s->scc_low[u] == s->scc_index[u]) {
                    int x;
                    do {
                        x = s->scc_stack[--stack_top];
                        s->scc_component[x] = components;
                    } while (x != u);
                    ++components;
                }
            }
        }
    }
    return components;
}

/* Guendelman §8.1: the contact graph has an edge from a body to each body resting on it (the
   pair's normal points up from the lower one); strongly connected components are collapsed and
   the resulting levels count up from the static bodies (level 0): a component's level is one
   more than the highest level it rests on, so everything a body rests on is in a lower level. */
static void rg__solver_build_levels(rg_world *w) {
    rg__solver *s = &w->solver;
    int n = (int)stbds_arrlen(s->bodies), count = (int)stbds_arrlen(s->manifolds);
    int i, edges, components, max_level = 1;
    rg_vec3 up = rg_v3_neg(rg_v3_normalize(w->def.gravity));
    for (i = 0; i < n; ++i) s->bodies[i].level = s->bodies[i].dynamic ? 1 : 0;
    stbds_arrsetlen(s->edge_from, 0);
    stbds_arrsetlen(s->edge_to, 0);
    if (rg_v3_length_squared(up) > 0) {
        for (i = 0; i < count; ++i) {
            const rg__solver_manifold *m = &s->manifolds[i];
            rg_real c = rg_v3_dot(m->n, up);
            if (!s->bodies[m->a].dynamic || !s->bodies[m->b].dynamic) continue;
            if (c > RG__GRAPH_VERTICAL) { /* a rests on b */
                stbds_arrput(s->edge_from, m->b);
                stbds_arrput(s->edge_to, m->a);
            } else if (c < -RG__GRAPH_VERTICAL) {
                stbds_arrput(s->edge_from, m->a);
                stbds_arrput(s->edge_to, m->b);
            }
        }
    }
    edges = (int)stbds_arrlen(s->edge_from);
    if (edges > 0) {
        int c;
        /* adjacency lists by counting sort of the edges on their lower body */
        stbds_arrsetlen(s->adjacency_start, n + 1);
        stbds_arrsetlen(s->adjacency, edges);
        for (i = 0; i <= n; ++i) s->adjacency_start[i] = 0;
        for (i = 0; i < edges; ++i) ++s->adjacency_start[s->edge_from[i] + 1];
        for (i = 0; i < n; ++i) s->adjacency_start[i + 1] += s->adjacency_start[i];
        stbds_arrsetlen(s->scc_next, n + 1);
        for (i = 0; i < n; ++i) s->scc_next[i] = s->adjacency_start[i];
        for (i = 0; i < edges; ++i) s->adjacency[s->scc_next[s->edge_from[i]]++] = s->edge_to[i];
        stbds_arrsetlen(s->scc_index, n);
        stbds_arrsetlen(s->scc_low, n);
        stbds_arrsetlen(s->scc_component, n);
        stbds_arrsetlen(s->scc_stack, n);
        stbds_arrsetlen(s->scc_call, n);
        components = rg__solver_components(s, n);
        /* longest path from the bottom, components visited sources first (highest id first);
           the adjacency of every member body carries the component's level upwards */
        stbds_arrsetlen(s->component_level, components);
        for (c = 0; c < components; ++c) s->component_level[c] = 1;
        /* the members of each component, grouped by a counting sort into scc_stack; afterwards
           scc_next[c] is where component c ends */
        for (c = 0; c <= components; ++c) s->scc_next[c] = 0;
        for (i = 0; i < n; ++i)
            if (s->scc_component[i] >= 0) ++s->scc_next[s->scc_component[i] + 1];
        for (c = 0; c < components; ++c) s->scc_next[c + 1] += s->scc_next[c];
        for (i = 0; i < n; ++i)
            if (s->scc_component[i] >= 0) s->scc_stack[s->scc_next[s->scc_component[i]]++] = i;
        for (c = components - 1; c >= 0; --c) {
            int begin = c > 0 ? s->scc_next[c - 1] : 0, end = s->scc_next[c], j, e;
            for (j = begin; j < end; ++j) {
                int u = s->scc_stack[j];
                for (e = s->adjacency_start[u]; e < s->adjacency_start[u + 1]; ++e) {
                    int other = s->scc_component[s->adjacency[e]];
                    if (other != c && s->component_level[other] < s->component_level[c] + 1)
                        s->component_level[other] = s->component_level[c] + 1;
                }
            }
        }
        for (i = 0; i < n; ++i)
            if (s->scc_component[i] >= 0) s->bodies[i].level = s->component_level[s->scc_component[i]];
    }
    for (i = 0; i < count; ++i) {
        rg__solver_manifold *m = &s->manifolds[i];
        int la = s->bodies[m->a].level, lb = s->bodies[m->b].level;
        m->level = la > lb ? la : lb;
        if (m->level < 1) m->level = 1;
        if (m->level > max_level) max_level = m->level;
    }
    s->level_count = max_level + 1;
}

/* The order in which contacts are treated: level by level up from the ground (Guendelman
   §8.1), mixed within a level by a seeded shuffle (Guendelman §6) so that no contact is always
   first. */
static void rg__solver_build_order(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, l, count = (int)stbds_arrlen(s->manifolds), levels = s->level_count;
    stbds_arrsetlen(s->level_start, levels + 1);
    stbds_arrsetlen(s->order, count);
    for (l = 0; l <= levels; ++l) s->level_start[l] = 0;
    for (i = 0; i < count; ++i) ++s->level_start[s->manifolds[i].level + 1];
    for (l = 0; l < levels; ++l) s->level_start[l + 1] += s->level_start[l];
    for (i = 0; i < count; ++i) s->order[s->level_start[s->manifolds[i].level]++] = i;
    for (l = levels; l > 0; --l) s->level_start[l] = s->level_start[l - 1];
    s->level_start[0] = 0;
    if (s->random_state == 0) {
        /* splitmix64 of the seed, never zero */
        uint64_t z = (uint64_t)w->def.random_seed + 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        s->random_state = (z ^ (z >> 31)) | 1;
    }
    for (l = 0; l < levels && RG__SHUFFLE; ++l) {
        int begin = s->level_start[l], end = s->level_start[l + 1];
        for (i = end - 1; i > begin; --i) {
            int j = begin + (int)(rg__solver_random(s) % (uint64_t)(i - begin + 1));
            int t = s->order[i];
            s->order[i] = s->order[j];
            s->order[j] = t;
        }
    }
}

static void rg__solver_prepare(rg_world *w) {
    rg__solver_gather_bodies(w);
    rg__solver_build_points(w);
    rg__solver_build_levels(w);
    rg__solver_build_order(w);
    w->solver.ready = 1;
}

/* ---- collisions (Bender §3.1) ---- */

/* One visit of a colliding point: the impulse of eq. (1) that takes the relative normal velocity
   to its target, the sum clamped so the contact never pulls (eqs. 2-3), then friction.
   Returns the velocity error the visit found. */
static rg_real rg__collision_visit(rg__solver *s, const rg__solver_manifold *m, rg__solver_point *p) {
    rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    rg_real error = p->target - rg__solver_speed(A, B, m->n, p->ran, p->rbn), residual = 0;
    if ((error > 0 || p->pn > 0) && p->normal_mass > 0) {
        rg_real next = p->pn + error * p->normal_mass, dp;
        if (next < 0) next = 0;
        dp = next - p->pn;
        p->pn = next;
        residual = rg__fabs(dp) / p->normal_mass;
        rg__solver_push(A, B, m->n, p->wan, p->wbn, dp, p->toi);
    }
    if (rg__solver_has_friction(m) && (p->pn > 0 || p->pt1 != 0 || p->pt2 != 0)) {
        rg_real u1 = rg__solver_speed(A, B, m->t1, p->ra1, p->rb1);
        rg_real u2 = rg__solver_speed(A, B, m->t2, p->ra2, p->rb2), d1, d2;
        rg__solver_friction(p, m->static_friction, m->dynamic_friction, u1, u2, u1, u2, &d1, &d2);
        if (p->stick) residual = rg__max_real(residual, rg__sqrt(u1 * u1 + u2 * u2));
        rg__solver_push_tangent(A, B, m, p, d1, d2, p->toi);
    }
    return residual;
}

/* When, within the step, a gap closes at approach speed s under the closing acceleration a
   (gravity along the normal). The velocity update adds g h before positions move by v h, so a
   falling body's positions run half a step ahead of its velocities: from the step's start the
   gap closes as (s + a h/2) t + a t^2 / 2. Returns h when it does not close in the step. */
static rg_real rg__time_of_impact(rg_real gap, rg_real s, rg_real a, rg_real h) {
    rg_real b = s + a * h * (rg_real)0.5, disc = b * b + 2 * a * gap, t;
    if (!(gap > 0)) return 0;
    if (!(disc >= 0) || !(b + rg__sqrt(disc) > 0)) return h;
    t = 2 * gap / (b + rg__sqrt(disc));
    return t < h ? t : h;
}

/* Gathers the points that collide now into a new wave: approaching faster than the resting
   criterion -u_n >= sqrt(2 g eps_c) (Bender §3, after Mirtich), and touching or with a gap that
   closes within the step (Guendelman §6 tests the positions x + h (v + h g)). Each gets its time
   of impact and the target of Newton's law, -e times the approach speed at impact. With the
   gravity gained until then (s + a (h/2 + toi)) and the velocity update still to come, the
   target velocity before that update is e s + (1 + e) a (h/2 + toi); with the position offset
   -dv toi of rg__solver_push the body then leaves the surface at the moment of impact with e
   times the speed it arrived with. The wave lists manifold and point. Returns the fastest
   approach. */
static rg_real rg__collision_gather_wave(rg_world *w, rg_real h, rg_real threshold, int wave) {
    rg__solver *s = &w->solver;
    int i, j, count = (int)stbds_arrlen(s->manifolds);
    rg_real fastest = 0;
    stbds_arrsetlen(s->wave, 0);
    for (i = 0; i < count; ++i) {
        int mi = s->order[i];
        rg__solver_manifold *m = &s->manifolds[mi];
        rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
        rg_real gravity_n = rg_v3_dot(w->def.gravity, m->n) * (rg_real)(A->dynamic - B->dynamic);
        for (j = 0; j < m->count; ++j) {
            rg__solver_point *p = &s->points[m->first + j];
            rg_real un = rg__solver_speed(A, B, m->n, p->ran, p->rbn);
            rg_real gap = -p->depth, toi;
            if (!(-un >= threshold) || p->normal_mass <= 0) continue;
            if (gap > 0 && !(gap < -(un + gravity_n * h) * h)) continue;
            toi = rg__time_of_impact(gap, -un, -gravity_n, h);
            toi = rg__max_real(toi, rg__max_real(A->toi, B->toi));
            p->toi = rg__min_real(toi, h);
            p->target = -m->restitution * un -
                        (1 + m->restitution) * gravity_n * (h * (rg_real)0.5 + p->toi);
            p->pn = p->pt1 = p->pt2 = 0;
            p->stick = p->stuck_at_start;
            p->wave = wave;
            if (-un > fastest) fastest = -un;
            stbds_arrput(s->wave, mi);
            stbds_arrput(s->wave, m->first + j);
        }
    }
    return fastest;
}

/* Bender §3.1 with Guendelman's sequencing. The points colliding at the start form the first
   wave and are resolved together (the same targets in every sweep, so simultaneous impacts are
   symmetric, as Ermolin & Kazakov require). Points that start approaching because of a wave's
   impulses form the next wave with their own targets; the earlier points, which reached theirs,
   are left alone unless they approach again. Momentum so travels along a row of touching bodies
   one impact after the other, as in Bender's office toy. The loop ends when no point collides or
   after collision_iterations sweeps. */
static void rg__solver_resolve_collisions(rg_world *w, rg_real h) {
    rg__solver *s = &w->solver;
    rg_real floor_speed = (rg_real)0.01 * w->def.contact_tolerance / h;
    rg_real threshold = rg__sqrt(2 * rg_v3_length(w->def.gravity) * w->def.contact_tolerance);
    int sweeps = 0, wave = 0, cap = w->def.collision_iterations;
    rg__solver_prepare(w);
    if (threshold < floor_speed) threshold = floor_speed;
    while (sweeps < cap) {
        rg_real fastest = rg__collision_gather_wave(w, h, threshold, wave);
        rg_real tolerance = rg__max_real(floor_speed, RG__COLLISION_RELATIVE_TOLERANCE * fastest);
        int i, count = (int)stbds_arrlen(s->wave);
        if (count == 0) break;
        while (sweeps < cap) {
            rg_real residual = 0;
            ++sweeps;
            for (i = 0; i < count; i += 2)
                residual = rg__max_real(residual, rg__collision_visit(s, &s->manifolds[s->wave[i]],
                                                                      &s->points[s->wave[i + 1]]));
            if (residual <= tolerance) break;
        }
        /* the wave is over: its impulses go to the totals, its bodies remember when */
        for (i = 0; i < count; i += 2) {
            const rg__solver_manifold *m = &s->manifolds[s->wave[i]];
            rg__solver_point *p = &s->points[s->wave[i + 1]];
            p->total_n += p->pn;
            p->total_t = rg_v3_add(p->total_t, rg_v3_add(rg_v3_scale(m->t1, p->pt1), rg_v3_scale(m->t2, p->pt2)));
            if (p->pn > 0) {
                if (s->bodies[m->a].dynamic && s->bodies[m->a].toi < p->toi) s->bodies[m->a].toi = p->toi;
                if (s->bodies[m->b].dynamic && s->bodies[m->b].toi < p->toi) s->bodies[m->b].toi = p->toi;
            }
        }
        ++wave;
    }
    w->stats.collision_iterations = sweeps;
    rg__solver_scatter_velocities(w);
}

/* ---- first-order separation (Guendelman §11) ---- */

/* Penetration deeper than the slop is removed by impulses on pseudo-velocities that move the
   positions in this step only: pushing bodies apart must not leave them with the velocity that
   did it. */
static void rg__solver_separate(rg_world *w, rg_real h) {
    rg__solver *s = &w->solver;
    rg_real slop = RG__SLOP_FRACTION * w->def.contact_tolerance;
    int i, j, sweep, count = (int)stbds_arrlen(s->manifolds), total = (int)stbds_arrlen(s->points);
    int any = 0, n = (int)stbds_arrlen(s->bodies);
    for (i = 0; i < total && !any; ++i) any = s->points[i].depth > slop;
    if (!any) return;
    for (sweep = 0; sweep < w->def.contact_iterations; ++sweep) {
        rg_real worst = 0;
        for (i = 0; i < count; ++i) {
            rg__solver_manifold *m = &s->manifolds[s->order[i]];
            rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
            for (j = 0; j < m->count; ++j) {
                rg__solver_point *p = &s->points[m->first + j];
                rg_real un, next, dp;
                if (p->depth <= slop || p->normal_mass <= 0) continue;
                un = rg_v3_dot(rg_v3_sub(A->pv, B->pv), m->n) + rg_v3_dot(A->pw, p->ran) - rg_v3_dot(B->pw, p->rbn);
                next = p->pp + ((p->depth - slop) / h - un) * p->normal_mass;
                if (next < 0) next = 0;
                dp = next - p->pp;
                p->pp = next;
                worst = rg__max_real(worst, rg__fabs(dp) / p->normal_mass * h);
                A->pv = rg_v3_madd(A->pv, m->n, dp * A->inv_mass);
                A->pw = rg_v3_madd(A->pw, p->wan, dp);
                B->pv = rg_v3_madd(B->pv, m->n, -dp * B->inv_mass);
                B->pw = rg_v3_madd(B->pw, p->wbn, -dp);
            }
        }
        if (worst <= RG__CONTACT_EXIT_FRACTION * w->def.contact_tolerance) break;
    }
    for (i = 0; i < n; ++i) {
        rg__solver_body *sb = &s->bodies[i];
        sb->dx = rg_v3_madd(sb->dx, sb->pv, h);
        sb->dr = rg_v3_madd(sb->dr, sb->pw, h);
    }
}

/* ---- resting contacts (Bender §3.2) ---- */

/* Where a's contact point ends relative to b's with the step's offsets only (no velocity):
   -depth n at the start, plus the offsets' motion of the two points. */
static void rg__solver_contact_base(rg__solver *s, const rg__solver_manifold *m, rg__solver_point *p) {
    const rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    rg_vec3 d = rg_v3_scale(m->n, -p->depth);
    d = rg_v3_add(d, rg_v3_add(A->dx, rg__rotation_change(A->dr, p->ra)));
    d = rg_v3_sub(d, rg_v3_add(B->dx, rg__rotation_change(B->dr, p->rb)));
    p->base_n = rg_v3_dot(d, m->n);
    p->base_1 = rg_v3_dot(d, m->t1);
    p->base_2 = rg_v3_dot(d, m->t2);
}

/* Does the pair turn so little in this step that the arms' turn is linear in w h to within
   5e-6 of their length? Then the prediction is base + h u (exact to that) and costs a few dot
   products; otherwise the arms and the normal are turned exactly. */
static int rg__solver_turns(const rg__solver *s, const rg__solver_manifold *m, rg_real h) {
    const rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    rg_real limit = RG__LINEAR_TURN * RG__LINEAR_TURN;
    return rg_v3_length_squared(rg_v3_madd(A->dr, A->w, h)) > limit ||
           rg_v3_length_squared(rg_v3_madd(B->dr, B->w, h)) > limit;
}

/* Bender §3.2, exactly: a - b after the step with the current velocities, the centres moved by
   v h and the arms turned by the exact rotation of w h (with the offsets), and the normal turned
   with its body (eq. 7). Returns how far that is from the linear prediction base + h u, along
   the turned normal (*bn) and the tangents (*b1, *b2). */
static void rg__solver_turn_correction(const rg__solver *s, const rg__solver_manifold *m,
                                       const rg__solver_point *p, rg_real h, rg_real *bn, rg_real *b1,
                                       rg_real *b2) {
    const rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    rg_vec3 ta = rg_v3_madd(A->dr, A->w, h), tb = rg_v3_madd(B->dr, B->w, h), theta, normal, d, u, drift;
    rg_real sep;
    theta = m->normal_body == 0 ? ta : m->normal_body == 1 ? tb : rg_v3_scale(rg_v3_add(ta, tb), (rg_real)0.5);
    normal = rg_v3_add(m->n, rg__rotation_change(theta, m->n));
    d = rg_v3_add(rg_v3_scale(m->n, -p->depth),
                  rg_v3_sub(rg_v3_add(rg_v3_madd(A->dx, A->v, h), rg__rotation_change(ta, p->ra)),
                            rg_v3_add(rg_v3_madd(B->dx, B->v, h), rg__rotation_change(tb, p->rb))));
    sep = rg_v3_dot(d, normal);
    drift = rg_v3_madd(d, normal, -sep);
    u = rg__solver_relative_velocity(A, B, p->ra, p->rb);
    *bn = sep - (p->base_n + h * rg_v3_dot(u, m->n));
    *b1 = rg_v3_dot(drift, m->t1) - (p->base_1 + h * rg_v3_dot(u, m->t1));
    *b2 = rg_v3_dot(drift, m->t2) - (p->base_2 + h * rg_v3_dot(u, m->t2));
}

/* One visit of a manifold of resting contacts. Bender §3.2: predict where each point pair
   will be after the step with the current velocities; the impulse of eq. (8) removes the
   predicted penetration (the first-order pass took what lay beyond the slop), its sum clamped
   as in eqs. (2)-(3), so a gap may close but never pulls. Normal parts of all points first,
   then friction: static friction removes the predicted tangential drift d_t, dynamic friction
   acts on the sliding velocity; doing the normals first keeps friction from fighting the turning
   the first normal impulses cause before the others balance it. Then rolling and spinning
   friction. Returns the largest error found, as a length. */
static rg_real rg__contact_manifold(rg__solver *s, rg__solver_manifold *m, rg_real h) {
    rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    rg_real cn[RG_MANIFOLD_MAX], c1[RG_MANIFOLD_MAX], c2[RG_MANIFOLD_MAX], worst = 0;
    int j, turning = rg__solver_turns(s, m, h);
    for (j = 0; j < m->count; ++j) {
        rg__solver_point *p = &s->points[m->first + j];
        rg_real separation, error;
        cn[j] = c1[j] = c2[j] = 0;
        if (turning) rg__solver_turn_correction(s, m, p, h, &cn[j], &c1[j], &c2[j]);
        separation = p->base_n + h * rg__solver_speed(A, B, m->n, p->ran, p->rbn) + cn[j];
        error = -separation;
        if ((error > 0 || p->pn > 0) && p->normal_mass > 0) {
            rg_real next = p->pn + error / h * p->normal_mass, dp; /* eq. (8) */
            if (next < 0) next = 0;
            dp = next - p->pn;
            p->pn = next;
            worst = rg__max_real(worst, rg__fabs(dp) / p->normal_mass * h);
            rg__solver_push(A, B, m->n, p->wan, p->wbn, dp, 0);
        }
    }
    if (rg__solver_has_friction(m))
        for (j = 0; j < m->count; ++j) {
            rg__solver_point *p = &s->points[m->first + j];
            rg_real u1, u2, e1, e2, d1, d2;
            if (!(p->pn > 0) && p->pt1 == 0 && p->pt2 == 0) continue;
            u1 = rg__solver_speed(A, B, m->t1, p->ra1, p->rb1);
            u2 = rg__solver_speed(A, B, m->t2, p->ra2, p->rb2);
            e1 = (p->base_1 + c1[j]) / h + u1; /* the predicted drift d_t, as a velocity */
            e2 = (p->base_2 + c2[j]) / h + u2;
            rg__solver_friction(p, m->static_friction, m->dynamic_friction, e1, e2, u1, u2, &d1, &d2);
            if (p->stick) worst = rg__max_real(worst, rg__sqrt(e1 * e1 + e2 * e2) * h);
            rg__solver_push_tangent(A, B, m, p, d1, d2, 0);
        }
    rg__solver_rolling(s, m);
    return worst;
}

/* One sweep over the manifolds order[begin, end); returns the largest error found. */
static rg_real rg__contact_sweep(rg__solver *s, int begin, int end, rg_real h) {
    rg_real worst = 0;
    int i;
    for (i = begin; i < end; ++i) worst = rg__max_real(worst, rg__contact_manifold(s, &s->manifolds[s->order[i]], h));
    return worst;
}

/* Warm starting a manifold from last step's: its resultant, spread over this step's points. On a
   flat patch the split of a resultant among the points is free (no motion of rigid bodies
   depends on it): four corners can carry a load evenly or all on one corner. Gauss-Seidel drifts
   in that freedom, and warm starting point by point would accumulate the drift until a corner
   carries everything and the others nothing, leaving no friction there; and where faces lie
   exactly on each other the narrow phase's points (and their ids) change from step to step while
   the same load rests there. So what is carried is the resultant of last step's contact impulses
   about the patch's centre (normal force and its two moments, tangential force and twist), and
   it is spread the least-squares way: normal impulses affine in the point's position in the
   patch, friction uniform plus a pure twist. */
typedef struct rg__patch_load {
    rg_real N, Mx, Mz, F1, F2, T;
} rg__patch_load;

/* The resultant of last step's impulses about this step's patch centre c, in this step's frame.
   Last step's points lay on b's surface; b has moved since by about v h and turned by w h (the
   velocities it started this step with), and the points with it. */
static rg__patch_load rg__solver_previous_load(const rg__pair_manifold *previous, const rg__solver_manifold *m,
                                               const rg__solver_body *B, const rg__body *body_b, rg_vec3 c,
                                               rg_real h) {
    rg__patch_load load;
    rg_vec3 turn = rg_v3_scale(B->w0, h), move = rg_v3_scale(B->v0, h);
    int j;
    memset(&load, 0, sizeof load);
    for (j = 0; j < previous->count; ++j) {
        const rg__contact_point *q = &previous->points[j];
        rg_vec3 now = rg_v3_add(rg_v3_add(q->point, move), rg_v3_cross(turn, rg_v3_sub(q->point, body_b->com)));
        rg_vec3 r = rg_v3_sub(now, c);
        rg_real x = rg_v3_dot(r, m->t1), z = rg_v3_dot(r, m->t2);
        rg_real f1 = rg_v3_dot(q->friction_impulse, m->t1), f2 = rg_v3_dot(q->friction_impulse, m->t2);
        load.N += q->normal_impulse;
        load.Mx += q->normal_impulse * x;
        load.Mz += q->normal_impulse * z;
        load.F1 += f1;
        load.F2 += f2;
        load.T += x * f2 - z * f1;
    }
    return load;
}

/* Spreads a resultant about c, the centre of where[], over the points where[] of the manifold's
   points that[] (see above); friction kept in the cone of mu_s. */
static void rg__solver_spread_load(const rg__solver_manifold *m, rg__solver_point *points, const int *that, int n,
                                   const rg_vec3 *where, rg_vec3 c, rg__patch_load load, rg_real narrow) {
    rg_real x[RG_MANIFOLD_MAX], z[RG_MANIFOLD_MAX], sxx = 0, sxz = 0, szz = 0, mx = 0, mz = 0;
    rg_real beta = 0, gamma = 0, twist = 0, det, trace;
    int i;
    for (i = 0; i < n; ++i) {
        rg_vec3 r = rg_v3_sub(where[i], c);
        x[i] = rg_v3_dot(r, m->t1);
        z[i] = rg_v3_dot(r, m->t2);
        mx += x[i];
        mz += z[i];
    }
    /* centred exactly, so that the moments' shares sum to zero whatever the rounding of c */
    for (i = 0; i < n; ++i) {
        x[i] -= mx / (rg_real)n;
        z[i] -= mz / (rg_real)n;
        sxx += x[i] * x[i];
        sxz += x[i] * z[i];
        szz += z[i] * z[i];
    }
    trace = sxx + szz;
    det = sxx * szz - sxz * sxz;
    /* a patch narrower than `narrow` is a point: it carries force, no moments */
    if (trace > (rg_real)n * narrow * narrow) {
        twist = load.T / trace;
        if (det > (rg_real)1e-4 * trace * trace) {
            beta = (szz * load.Mx - sxz * load.Mz) / det;
            gamma = (sxx * load.Mz - sxz * load.Mx) / det;
        } else {
            /* the points lie on a line: only the moment about its perpendicular is carried */
            rg_real e1 = sxx >= szz ? sxx : sxz, e2 = sxx >= szz ? sxz : szz, length = rg__sqrt(e1 * e1 + e2 * e2);
            rg_real sss = 0, ms;
            if (length > 0) {
                e1 /= length;
                e2 /= length;
                for (i = 0; i < n; ++i) sss += (x[i] * e1 + z[i] * e2) * (x[i] * e1 + z[i] * e2);
                ms = load.Mx * e1 + load.Mz * e2;
                if (sss > (rg_real)n * narrow * narrow) {
                    beta = ms / sss * e1;
                    gamma = ms / sss * e2;
                }
            }
        }
    }
    {
        /* a centre of pressure outside this patch (points changed, the load moved) is pulled in
           until no point would pull: the force is kept, the moments shrink */
        rg_real share = load.N / (rg_real)n, scale = 1;
        for (i = 0; i < n; ++i) {
            rg_real moment = beta * x[i] + gamma * z[i];
            if (share + moment * scale < 0) scale = moment < 0 ? share / -moment : 0;
        }
        beta *= scale;
        gamma *= scale;
    }
    for (i = 0; i < n; ++i) {
        rg__solver_point *p = &points[that[i]];
        rg_real limit, length2;
        p->pn = rg__max_real(load.N / (rg_real)n + beta * x[i] + gamma * z[i], 0);
        p->pt1 = load.F1 / (rg_real)n - twist * z[i];
        p->pt2 = load.F2 / (rg_real)n + twist * x[i];
        limit = m->static_friction * p->pn;
        length2 = p->pt1 * p->pt1 + p->pt2 * p->pt2;
        if (length2 > limit * limit) {
            rg_real scale = limit / rg__sqrt(length2);
            p->pt1 *= scale;
            p->pt2 *= scale;
        }
    }
}

/* The start of the contact stage: each point's prediction base and mark, and (if
   warm_starting) last step's contact impulses, spread as above and applied before the first
   sweep. */
static void rg__solver_start_contacts(rg_world *w) {
    rg__solver *s = &w->solver;
    rg_real slop = RG__SLOP_FRACTION * w->def.contact_tolerance;
    int i, k, count = (int)stbds_arrlen(s->manifolds);
    for (i = 0; i < count; ++i) {
        const rg__pair_manifold *pm = &w->narrowphase.manifolds[i];
        rg__solver_manifold *m = &s->manifolds[i];
        rg__solver_point *points = &s->points[m->first];
        const rg__pair_manifold *previous;
        rg_vec3 where[RG_MANIFOLD_MAX], c = rg_v3(0, 0, 0);
        int that[RG_MANIFOLD_MAX], touching = 0;
        m->spin = m->roll1 = m->roll2 = 0;
        for (k = 0; k < m->count; ++k) {
            rg__solver_point *p = &points[k];
            rg__solver_contact_base(s, m, p);
            p->pn = p->pt1 = p->pt2 = 0;
            p->stick = p->stuck_at_start;
            /* only points that touch take a load: speculative ones, with a gap, start from zero */
            if (p->depth >= -slop) {
                where[touching] = pm->points[k].point;
                that[touching++] = k;
                c = rg_v3_add(c, pm->points[k].point);
            }
        }
        if (!w->def.warm_starting || touching == 0 || pm->previous < 0 ||
            pm->previous >= (int)stbds_arrlen(w->narrowphase.previous))
            continue;
        previous = &w->narrowphase.previous[pm->previous];
        /* the same contact: a face turned away (another face, an edge) is a different load */
        if (!(rg_v3_dot(previous->normal, m->n) > RG__WARM_ALIGNMENT)) continue;
        c = rg_v3_scale(c, 1 / (rg_real)touching);
        rg__solver_spread_load(m, points, that, touching, where, c,
                               rg__solver_previous_load(previous, m, &s->bodies[m->b], &w->bodies[m->b], c, w->step_dt),
                               w->def.contact_tolerance);
        for (k = 0; k < m->count; ++k) {
            rg__solver_point *p = &points[k];
            rg__solver_push(&s->bodies[m->a], &s->bodies[m->b], m->n, p->wan, p->wbn, p->pn, 0);
            rg__solver_push_tangent(&s->bodies[m->a], &s->bodies[m->b], m, p, p->pt1, p->pt2, 0);
        }
    }
}

/* Guendelman §8.2: after the contact sweeps, one pass up the levels; each level gets
   shock_iterations sweeps with everything below it at infinite mass, then joins it. A level's
   errors add to those of every level above, so each manifold is visited up to RG__SHOCK_INNER
   times per sweep while it still has errors. */
static int rg__solver_shock(rg_world *w, rg_real h, rg_real tolerance) {
    rg__solver *s = &w->solver;
    int level, i, j, sweeps = 0;
    for (level = 1; level < s->level_count; ++level) {
        int begin = s->level_start[level], end = s->level_start[level + 1], sweep;
        if (begin == end) continue;
        for (i = begin; i < end; ++i) {
            const rg__solver_manifold *m = &s->manifolds[s->order[i]];
            if (s->bodies[m->a].level < level) rg__solver_body_freeze(&s->bodies[m->a]);
            if (s->bodies[m->b].level < level) rg__solver_body_freeze(&s->bodies[m->b]);
        }
        for (i = begin; i < end; ++i) {
            const rg__solver_manifold *m = &s->manifolds[s->order[i]];
            for (j = 0; j < m->count; ++j) rg__solver_point_jacobians(s, m, &s->points[m->first + j]);
        }
        for (sweep = 0; sweep < w->def.shock_iterations; ++sweep) {
            rg_real worst = 0;
            ++sweeps;
            for (i = begin; i < end; ++i) {
                rg__solver_manifold *m = &s->manifolds[s->order[i]];
                int inner;
                for (inner = 0; inner < RG__SHOCK_INNER; ++inner) {
                    rg_real e = rg__contact_manifold(s, m, h);
                    if (inner == 0) worst = rg__max_real(worst, e);
                    if (e <= tolerance) break;
                }
            }
            if (worst <= tolerance) break;
        }
    }
    return sweeps;
}

/* What the narrow phase carries to the next step (the contact sweeps' impulses, for warm
   starting) and what rg_world_contacts reports (everything applied in the step). */
static void rg__solver_store_impulses(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, k, count = (int)stbds_arrlen(s->manifolds);
    stbds_arrsetlen(s->report, 0);
    for (i = 0; i < count; ++i) {
        rg__pair_manifold *pm = &w->narrowphase.manifolds[i];
        const rg__solver_manifold *m = &s->manifolds[i];
        for (k = 0; k < m->count; ++k) {
            const rg__solver_point *p = &s->points[m->first + k];
            rg_vec3 friction = rg_v3_add(rg_v3_scale(m->t1, p->pt1), rg_v3_scale(m->t2, p->pt2));
            rg_contact c;
            pm->points[k].normal_impulse = p->carry_n;
            pm->points[k].friction_impulse = rg_v3_add(rg_v3_scale(m->t1, p->carry_t1), rg_v3_scale(m->t2, p->carry_t2));
            c.a.index = (uint32_t)m->a;
            c.a.generation = w->bodies[m->a].generation;
            c.b.index = (uint32_t)m->b;
            c.b.generation = w->bodies[m->b].generation;
            c.point = pm->points[k].point;
            c.normal = m->n;
            c.depth = p->depth;
            c.normal_impulse = p->total_n + p->pn;
            c.friction_impulse = rg_v3_add(p->total_t, friction);
            stbds_arrput(s->report, c);
        }
    }
}

/* Bender §3.2 and Guendelman §8: the contact stage, after the velocity update. */
static void rg__solver_resolve_contacts(rg_world *w, rg_real h) {
    rg__solver *s = &w->solver;
    rg_real tolerance = w->def.contact_tolerance;
    int i, sweeps = 0, count = (int)stbds_arrlen(s->manifolds), total = (int)stbds_arrlen(s->points);
    RG__PROFILE_BEGIN(contact);
    rg__solver_gather_velocities(w);
    rg__solver_separate(w, h);
    rg__solver_start_contacts(w);
    while (sweeps < w->def.contact_iterations && count > 0) {
        ++sweeps;
        if (rg__contact_sweep(s, 0, count, h) <= RG__CONTACT_EXIT_FRACTION * tolerance) break;
    }
    w->stats.contact_iterations = sweeps;
    /* what is carried to the next step: the sweeps' impulses, not shock propagation's, which
       act on one body of a pair only (the other has infinite mass then) */
    if (!RG__CARRY_SHOCK) for (i = 0; i < total; ++i) {
        rg__solver_point *p = &s->points[i];
        p->carry_n = p->pn;
        p->carry_t1 = p->pt1;
        p->carry_t2 = p->pt2;
    }
    RG__PROFILE_END(contact);
    {
        RG__PROFILE_BEGIN(shock);
        w->stats.shock_iterations = w->def.shock_iterations > 0 && count > 0
                                        ? rg__solver_shock(w, h, RG__SHOCK_EXIT_FRACTION * tolerance)
                                        : 0;
        w->stats.contact_levels = count > 0 ? s->level_count - 1 : 0;
        if (RG__CARRY_SHOCK) for (i = 0; i < total; ++i) {
            rg__solver_point *p = &s->points[i];
            p->carry_n = p->pn;
            p->carry_t1 = p->pt1;
            p->carry_t2 = p->pt2;
        }
        rg__solver_scatter_velocities(w);
        rg__solver_store_impulses(w);
        RG__PROFILE_END(shock);
    }
}

static int rg__solver_contacts(const rg_world *w, rg_contact *out, int capacity) {
    int i, n = (int)stbds_arrlen(w->solver.report), total = 0;
    for (i = 0; i < n; ++i) {
        const rg_contact *c = &w->solver.report[i];
        /* a body destroyed since the step takes its contacts with it */
        if (!rg_body_is_valid(w, c->a) || !rg_body_is_valid(w, c->b)) continue;
        if (out && total < capacity) out[total] = *c;
        ++total;
    }
    return total;
}

/* =============================================================================================
   >>world
   ============================================================================================= */

RIGID_API rg_world_def rg_world_default_def(void) {
    rg_world_def def;
    memset(&def, 0, sizeof def);
    def.gravity = rg_v3(0, (rg_real)-9.81, 0);
    def.collision_iterations = 30;
    def.contact_iterations = 10;
    def.shock_iterations = 2;
    def.contact_tolerance = (rg_real)0.001;
    def.allocator_context = NULL;
    def.contact_margin = (rg_real)0.02;
    def.random_seed = 12345u;
    def.warm_starting = 1;
    def.cookie = RG__WORLD_COOKIE;
    return def;
}

static int rg__world_def_is_valid(const rg_world_def *def) {
    return def && def->cookie == RG__WORLD_COOKIE && rg_v3_is_finite(def->gravity) &&
           def->collision_iterations >= 0 && def->contact_iterations >= 0 &&
           def->shock_iterations >= 0 && rg__is_finite_real(def->contact_tolerance) &&
           def->contact_tolerance >= 0 && rg__is_finite_real(def->contact_margin) &&
           def->contact_margin >= 0;
}

RIGID_API rg_world *rg_world_create(const rg_world_def *def, rg_result *result) {
    rg_world *w;
    if (!rg__world_def_is_valid(def)) {
        rg__set_result(result, RG_ERR_INVALID_ARGUMENT);
        return NULL;
    }
    w = (rg_world *)RIGID_MALLOC(sizeof *w, def->allocator_context);
    if (!w) {
        rg__set_result(result, RG_ERR_OUT_OF_MEMORY);
        return NULL;
    }
    memset(w, 0, sizeof *w);
    w->def = *def;
    w->free_list = -1;
    rg__set_result(result, RG_OK);
    return w;
}

RIGID_API void rg_world_destroy(rg_world *w) {
    if (!w) return;
    rg__solver_destroy(w);
    rg__narrowphase_destroy(w);
    rg__broadphase_destroy(w);
    stbds_arrfree(w->bodies);
    RIGID_FREE(w, w->def.allocator_context);
}

RIGID_API rg_result rg_world_set_gravity(rg_world *w, rg_vec3 gravity) {
    if (!w || !rg_v3_is_finite(gravity)) return RG_ERR_INVALID_ARGUMENT;
    w->def.gravity = gravity;
    return RG_OK;
}
RIGID_API rg_vec3 rg_world_gravity(const rg_world *w) { return w ? w->def.gravity : rg_v3(0, 0, 0); }

RIGID_API rg_result rg_world_step(rg_world *w, rg_real dt) {
    int i, n;
    if (!w || !rg__is_finite_real(dt) || !(dt > 0)) return RG_ERR_INVALID_ARGUMENT;
    w->step_dt = dt;
    /* Guendelman §5: collide, advance velocities, contact, advance positions */
    {
        RG__PROFILE_BEGIN(broadphase);
        rg__broadphase_update(w, dt);
        RG__PROFILE_END(broadphase);
    }
    {
        RG__PROFILE_BEGIN(narrowphase);
        rg__narrowphase_update(w);
        RG__PROFILE_END(narrowphase);
    }
    {
        RG__PROFILE_BEGIN(collision);
        rg__solver_resolve_collisions(w, dt);
        RG__PROFILE_END(collision);
    }
    {
        RG__PROFILE_BEGIN(integration);
        rg__integrate_velocities(w, dt);
        RG__PROFILE_END(integration);
    }
    rg__solver_resolve_contacts(w, dt); /* times itself: contact and shock */
    {
        RG__PROFILE_BEGIN(integration);
        rg__integrate_positions(w, dt);
        RG__PROFILE_ADD(integration);
    }
    n = (int)stbds_arrlen(w->bodies);
    for (i = 0; i < n; ++i) {
        w->bodies[i].force = rg_v3(0, 0, 0);
        w->bodies[i].torque = rg_v3(0, 0, 0);
    }
    return RG_OK;
}

RIGID_API rg_body_def rg_body_default_def(void) {
    rg_body_def def;
    memset(&def, 0, sizeof def);
    def.type = RG_BODY_DYNAMIC;
    def.orientation = rg_quat_identity();
    def.density = 1000;
    def.restitution = 0;
    def.static_friction = (rg_real)0.6;
    def.dynamic_friction = (rg_real)0.5;
    return def;
}

static int rg__body_def_is_valid(const rg_body_def *def) {
    if (!def) return 0;
    if (def->type != RG_BODY_STATIC && def->type != RG_BODY_KINEMATIC && def->type != RG_BODY_DYNAMIC)
        return 0;
    if (def->type == RG_BODY_DYNAMIC && !def->hull) return 0;
    if (!rg_v3_is_finite(def->position) || !rg_quat_is_finite(def->orientation) ||
        !rg_v3_is_finite(def->linear_velocity) || !rg_v3_is_finite(def->angular_velocity))
        return 0;
    if (!(rg_quat_dot(def->orientation, def->orientation) > 0)) return 0;
    if (!rg__is_finite_real(def->density) || !rg__is_finite_real(def->mass) || def->density < 0 ||
        def->mass < 0)
        return 0;
    if (def->type == RG_BODY_DYNAMIC && !(def->density > 0) && !(def->mass > 0)) return 0;
    if (!rg__is_finite_real(def->restitution) || def->restitution < 0 || def->restitution > 1) return 0;
    if (!rg__is_finite_real(def->static_friction) || !rg__is_finite_real(def->dynamic_friction) ||
        !rg__is_finite_real(def->rolling_friction) || !rg__is_finite_real(def->spinning_friction))
        return 0;
    if (def->static_friction < 0 || def->dynamic_friction < 0 || def->rolling_friction < 0 ||
        def->spinning_friction < 0)
        return 0;
    return 1;
}

static rg__body *rg__world_body(const rg_world *w, rg_body_id id) {
    rg__body *body;
    if (!w || id.generation == 0 || id.index >= (uint32_t)stbds_arrlen(w->bodies)) return NULL;
    body = &w->bodies[id.index];
    return body->generation == id.generation ? body : NULL;
}

/* Mass properties of a body from its hull: density, or a given mass with the inertia scaled
   to match (the same shape at the density mass / volume). */
static void rg__body_set_mass_properties(rg__body *body, const rg_body_def *def) {
    rg_real density;
    memset(&body->inertia_local, 0, sizeof body->inertia_local);
    body->inv_inertia_local = body->inv_inertia_world = body->inertia_local;
    body->mass = body->inv_mass = 0;
    if (def->type != RG_BODY_DYNAMIC) return;
    density = def->mass > 0 ? def->mass / def->hull->volume : def->density;
    body->mass = density * def->hull->volume;
    body->inv_mass = 1 / body->mass;
    body->inertia_local = rg_hull_inertia(def->hull, density);
    body->inv_inertia_local = rg_mat3_inverse(body->inertia_local);
}

RIGID_API rg_body_id rg_body_create(rg_world *w, const rg_body_def *def, rg_result *result) {
    rg_body_id id = {0, 0};
    rg__body *body;
    rg_vec3 local_com;
    int index;
    if (!w || !rg__body_def_is_valid(def)) {
        rg__set_result(result, RG_ERR_INVALID_ARGUMENT);
        return id;
    }
    if (w->free_list >= 0) {
        index = w->free_list;
        w->free_list = w->bodies[index].next_free;
    } else {
        rg__body blank;
        memset(&blank, 0, sizeof blank);
        index = (int)stbds_arrlen(w->bodies);
        stbds_arrput(w->bodies, blank);
        if ((int)stbds_arrlen(w->bodies) != index + 1) {
            rg__set_result(result, RG_ERR_OUT_OF_MEMORY);
            return id;
        }
    }
    body = &w->bodies[index];
    {
        uint32_t generation = body->generation + 1; /* free slots are even, so this is odd */
        memset(body, 0, sizeof *body);
        body->generation = generation;
    }
    body->next_free = -1;
    body->type = def->type;
    body->hull = def->hull;
    body->orientation = rg_quat_normalize(def->orientation);
    local_com = def->hull ? def->hull->centroid : rg_v3(0, 0, 0);
    body->com = rg_v3_add(def->position, rg_quat_rotate(body->orientation, local_com));
    if (def->type != RG_BODY_STATIC) {
        body->linear_velocity = def->linear_velocity;
        body->angular_velocity = def->angular_velocity;
    }
    rg__body_set_mass_properties(body, def);
    rg__body_update_world_inertia(body);
    body->restitution = def->restitution;
    body->static_friction = def->static_friction;
    body->dynamic_friction = def->dynamic_friction;
    body->rolling_friction = def->rolling_friction;
    body->spinning_friction = def->spinning_friction;
    body->user_data = def->user_data;
    body->aabb_min = body->aabb_max = body->com;
    ++w->body_count;
    id.index = (uint32_t)index;
    id.generation = body->generation;
    rg__set_result(result, RG_OK);
    return id;
}

RIGID_API rg_result rg_body_destroy(rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    if (!w) return RG_ERR_INVALID_ARGUMENT;
    if (!body) return RG_ERR_STALE_ID;
    rg__narrowphase_remove_body(w, (int)id.index);
    rg__broadphase_remove_body(w, (int)id.index);
    /* the slot becomes even (free); when the generation would wrap, the slot is retired so
       that an old id can never alias a new body */
    if (body->generation + 1 == 0) {
        body->generation = 0xfffffffeu;
    } else {
        body->generation += 1;
        body->next_free = w->free_list;
        w->free_list = (int)id.index;
    }
    body->hull = NULL;
    --w->body_count;
    return RG_OK;
}

RIGID_API int rg_body_is_valid(const rg_world *w, rg_body_id id) { return rg__world_body(w, id) != NULL; }

RIGID_API rg_body_type rg_body_get_type(const rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    return body ? body->type : RG_BODY_STATIC;
}
RIGID_API const rg_hull *rg_body_hull(const rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    return body ? body->hull : NULL;
}
static rg_vec3 rg__body_local_com(const rg__body *body) {
    return body->hull ? body->hull->centroid : rg_v3(0, 0, 0);
}
RIGID_API rg_vec3 rg_body_position(const rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    if (!body) return rg_v3(0, 0, 0);
    return rg_v3_sub(body->com, rg_quat_rotate(body->orientation, rg__body_local_com(body)));
}
RIGID_API rg_quat rg_body_orientation(const rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    return body ? body->orientation : rg__quat(0, 0, 0, 0);
}
RIGID_API rg_vec3 rg_body_center_of_mass(const rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    return body ? body->com : rg_v3(0, 0, 0);
}
RIGID_API rg_vec3 rg_body_linear_velocity(const rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    return body ? body->linear_velocity : rg_v3(0, 0, 0);
}
RIGID_API rg_vec3 rg_body_angular_velocity(const rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    return body ? body->angular_velocity : rg_v3(0, 0, 0);
}
RIGID_API rg_vec3 rg_body_velocity_at_point(const rg_world *w, rg_body_id id, rg_vec3 world_point) {
    rg__body *body = rg__world_body(w, id);
    if (!body || !rg_v3_is_finite(world_point)) return rg_v3(0, 0, 0);
    return rg_v3_add(body->linear_velocity,
                     rg_v3_cross(body->angular_velocity, rg_v3_sub(world_point, body->com)));
}
RIGID_API rg_real rg_body_mass(const rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    return body ? body->mass : 0;
}
RIGID_API rg_mat3 rg_body_inertia(const rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    rg_mat3 zero;
    memset(&zero, 0, sizeof zero);
    if (!body) return zero;
    return rg__mat3_rotate_tensor(rg_mat3_from_quat(body->orientation), body->inertia_local);
}
RIGID_API rg_mat3 rg_body_inverse_inertia(const rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    rg_mat3 zero;
    memset(&zero, 0, sizeof zero);
    return body ? body->inv_inertia_world : zero;
}
RIGID_API rg_vec3 rg_body_angular_momentum(const rg_world *w, rg_body_id id) {
    return rg_mat3_mul_v3(rg_body_inertia(w, id), rg_body_angular_velocity(w, id));
}
RIGID_API rg_real rg_body_kinetic_energy(const rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    if (!body) return 0;
    return (rg_real)0.5 * (body->mass * rg_v3_length_squared(body->linear_velocity) +
                           rg_v3_dot(body->angular_velocity, rg_body_angular_momentum(w, id)));
}
RIGID_API void rg_body_aabb(const rg_world *w, rg_body_id id, rg_vec3 *min, rg_vec3 *max) {
    rg__body *body = rg__world_body(w, id);
    if (min) *min = body ? body->aabb_min : rg_v3(0, 0, 0);
    if (max) *max = body ? body->aabb_max : rg_v3(0, 0, 0);
}
RIGID_API void *rg_body_user_data(const rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    return body ? body->user_data : NULL;
}

/* The setters share one check: world, id, then finite arguments. */
static rg_result rg__body_for_update(rg_world *w, rg_body_id id, int arguments_ok, rg__body **out) {
    *out = NULL;
    if (!w) return RG_ERR_INVALID_ARGUMENT;
    *out = rg__world_body(w, id);
    if (!*out) return RG_ERR_STALE_ID;
    if (!arguments_ok) {
        *out = NULL;
        return RG_ERR_INVALID_ARGUMENT;
    }
    return RG_OK;
}

RIGID_API rg_result rg_body_set_transform(rg_world *w, rg_body_id id, rg_vec3 position, rg_quat orientation) {
    rg__body *body;
    rg_result r = rg__body_for_update(w, id, rg_v3_is_finite(position) && rg_quat_is_finite(orientation) &&
                                                 rg_quat_dot(orientation, orientation) > 0, &body);
    if (r != RG_OK) return r;
    body->orientation = rg_quat_normalize(orientation);
    body->com = rg_v3_add(position, rg_quat_rotate(body->orientation, rg__body_local_com(body)));
    rg__body_update_world_inertia(body);
    return RG_OK;
}
RIGID_API rg_result rg_body_set_linear_velocity(rg_world *w, rg_body_id id, rg_vec3 v) {
    rg__body *body;
    rg_result r = rg__body_for_update(w, id, rg_v3_is_finite(v), &body);
    if (r != RG_OK) return r;
    if (body->type != RG_BODY_STATIC) body->linear_velocity = v;
    return RG_OK;
}
RIGID_API rg_result rg_body_set_angular_velocity(rg_world *w, rg_body_id id, rg_vec3 omega) {
    rg__body *body;
    rg_result r = rg__body_for_update(w, id, rg_v3_is_finite(omega), &body);
    if (r != RG_OK) return r;
    if (body->type != RG_BODY_STATIC) body->angular_velocity = omega;
    return RG_OK;
}
RIGID_API rg_result rg_body_set_user_data(rg_world *w, rg_body_id id, void *user_data) {
    rg__body *body;
    rg_result r = rg__body_for_update(w, id, 1, &body);
    if (r != RG_OK) return r;
    body->user_data = user_data;
    return RG_OK;
}
RIGID_API rg_result rg_body_apply_impulse(rg_world *w, rg_body_id id, rg_vec3 impulse, rg_vec3 world_point) {
    rg__body *body;
    rg_result r = rg__body_for_update(w, id, rg_v3_is_finite(impulse) && rg_v3_is_finite(world_point), &body);
    if (r != RG_OK || body->type != RG_BODY_DYNAMIC) return r;
    body->linear_velocity = rg_v3_madd(body->linear_velocity, impulse, body->inv_mass);
    body->angular_velocity = rg_v3_add(body->angular_velocity,
        rg_mat3_mul_v3(body->inv_inertia_world, rg_v3_cross(rg_v3_sub(world_point, body->com), impulse)));
    return RG_OK;
}
RIGID_API rg_result rg_body_apply_force(rg_world *w, rg_body_id id, rg_vec3 force, rg_vec3 world_point) {
    rg__body *body;
    rg_result r = rg__body_for_update(w, id, rg_v3_is_finite(force) && rg_v3_is_finite(world_point), &body);
    if (r != RG_OK || body->type != RG_BODY_DYNAMIC) return r;
    body->force = rg_v3_add(body->force, force);
    body->torque = rg_v3_add(body->torque, rg_v3_cross(rg_v3_sub(world_point, body->com), force));
    return RG_OK;
}
RIGID_API rg_result rg_body_apply_torque(rg_world *w, rg_body_id id, rg_vec3 torque) {
    rg__body *body;
    rg_result r = rg__body_for_update(w, id, rg_v3_is_finite(torque), &body);
    if (r != RG_OK || body->type != RG_BODY_DYNAMIC) return r;
    body->torque = rg_v3_add(body->torque, torque);
    return RG_OK;
}

RIGID_API int rg_world_contacts(const rg_world *w, rg_contact *out, int capacity) {
    if (!w || capacity < 0) return 0;
    return rg__solver_contacts(w, out, capacity);
}

RIGID_API rg_world_stats rg_world_get_stats(const rg_world *w) {
    rg_world_stats stats;
    memset(&stats, 0, sizeof stats);
    if (!w) return stats;
    stats = w->stats;
    stats.body_count = w->body_count;
    return stats;
}

#if defined(__clang__)
#pragma clang diagnostic pop
#elif defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#ifdef RIGID__UNDEF_TYPEOF
#undef typeof
#undef RIGID__UNDEF_TYPEOF
#endif

#endif /* RIGID_IMPLEMENTATION */

/*
------------------------------------------------------------------------------------------------
MIT License

Copyright (c) 2026 the rigid.h authors

Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction,
including without limitation the rights to use, copy, modify, merge, publish, distribute,
sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM,
DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT
OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
------------------------------------------------------------------------------------------------
*/
