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

   DETERMINISM
      The same sequence of calls gives bit-identical results: run after run, after destroying
      and creating the world again in one process, and between builds by gcc -O2, clang -O2,
      g++ and tcc on one x86-64 machine (`make test` compares state hashes of three scenes
      across them, float and double). Nothing depends on pointer values, hash order or time.
      Compile with -ffp-contract=off (gcc contracts a*b+c into FMA otherwise, and ignores
      #pragma STDC FP_CONTRACT). Not guaranteed: between float and double builds, between
      machines or C libraries (sinf, cosf may round differently), with -ffast-math, or when the
      calls come in another order (creation order is part of the input).

   CONVENTIONS
      Right-handed, y up by the default gravity. Quaternions are (x, y, z, w) with w the scalar,
      Hamilton product, rg_quat_mul(a, b) applies b then a. rg_mat3.m[row][column]. Contact
      normals point from body B towards body A. Units are yours; defaults assume metres,
      kilograms, seconds.

   BAD INPUT
      Every function that can fail returns or writes an rg_result; NULL, NaN, infinities,
      degenerate hulls, stale ids and dt <= 0 are refused and leave the world unchanged. So are
      absurd values, whatever the units: magnitudes beyond 1e15, a dt above 1 s, velocities (or
      forces that would give velocities within a 1 s step) whose kinetic energy exceeds 1e30,
      hulls and bodies whose mass properties overflow rg_real. Within these limits a free
      body's state stays finite. Math functions never crash: NaN in gives NaN out, except that
      normalising a zero, NaN or infinite vector or quaternion gives zero or the identity, and
      inverting a singular or non-finite matrix gives zero.

   TCC
      tcc 0.9.27 on x86-64 miscompiles calls returning 12-byte structs; under tcc rg_vec3 is
      therefore aligned to 8 (16 bytes, members unchanged), and tcc-built objects cannot be
      linked with other compilers' (the symbols differ, like those of RIGID_DOUBLE).

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
#elif defined(__TINYC__) && defined(__x86_64__)
typedef float rg_real;
/* tcc's rg_vec3 is 16 bytes (see below), so its objects cannot link with another compiler's. */
#define rg_world_create rg_world_create_f32_tcc
#define rg_hull_create_box rg_hull_create_box_f32_tcc
#define rg_body_create rg_body_create_f32_tcc
#define RIGID__TCC_VEC3_WORKAROUND
#else
typedef float rg_real;
#define rg_world_create rg_world_create_f32
#define rg_hull_create_box rg_hull_create_box_f32
#define rg_body_create rg_body_create_f32
#endif

/* tcc 0.9.27 on x86-64 (Debian's) stores a 12-byte float struct returned in registers (x, y in
   xmm0; z in the low half of xmm1) into a caller temporary of 12 bytes with two 8-byte stores,
   so the upper half of xmm1 (whatever followed z in the callee's memory) overwrites the 4
   bytes above the temporary: a local variable or another temporary whenever the previous stack
   slot ends 4 bytes above an 8-byte boundary (tests/build/tcc_struct_args.c). Aligning x to 8
   makes the struct 16 bytes there, so both stores stay inside it. Members, their offsets and
   meanings are unchanged; only sizeof(rg_vec3) is 16 instead of 12 under tcc. */
#ifdef RIGID__TCC_VEC3_WORKAROUND
#define RIGID__VEC3_ALIGN _Alignas(8)
#else
#define RIGID__VEC3_ALIGN
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
   Types
   ------------------------------------------------------------------------------------------- */

typedef struct rg_vec3 { RIGID__VEC3_ALIGN rg_real x; rg_real y, z; } rg_vec3;
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
RIGID_API rg_real rg_v3_length(rg_vec3 v);                  /* exact for tiny and huge components too */
RIGID_API rg_real rg_v3_length_squared(rg_vec3 v);
RIGID_API rg_vec3 rg_v3_normalize(rg_vec3 v);               /* zero, NaN or infinite vector gives zero */
RIGID_API rg_vec3 rg_v3_min(rg_vec3 a, rg_vec3 b);
RIGID_API rg_vec3 rg_v3_max(rg_vec3 a, rg_vec3 b);
RIGID_API int     rg_v3_is_finite(rg_vec3 v);

RIGID_API rg_quat rg_quat_identity(void);
RIGID_API rg_quat rg_quat_from_axis_angle(rg_vec3 axis, rg_real radians); /* axis need not be unit; zero axis gives identity */
RIGID_API rg_quat rg_quat_from_rotation_vector(rg_vec3 rotation);          /* exact rotation by |r| about r/|r| */
RIGID_API rg_quat rg_quat_mul(rg_quat a, rg_quat b);        /* apply b, then a */
RIGID_API rg_vec3 rg_quat_rotate(rg_quat q, rg_vec3 v);
RIGID_API rg_vec3 rg_quat_rotate_inverse(rg_quat q, rg_vec3 v);
RIGID_API rg_quat rg_quat_normalize(rg_quat q);             /* zero, NaN or infinite quaternion gives identity */
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
RIGID_API rg_mat3 rg_mat3_inverse(rg_mat3 m);               /* singular or non-finite matrix gives the zero matrix */
RIGID_API rg_mat3 rg_mat3_skew(rg_vec3 v);                  /* skew(v)*u = v x u */
RIGID_API rg_mat3 rg_mat3_outer(rg_vec3 a, rg_vec3 b);      /* a b^T */
RIGID_API rg_mat3 rg_mat3_from_quat(rg_quat q);
RIGID_API rg_vec3 rg_mat3_solve(rg_mat3 m, rg_vec3 b);      /* x with m x = b, by Cramer's rule; zero if singular or not finite */

/* ---------------------------------------------------------------------------------------------
   Convex hulls
   A hull is immutable once built and may be shared by many bodies; it must outlive them.
   ------------------------------------------------------------------------------------------- */

/* Convex hull of a point cloud (quickhull). NULL and a result on NaN, infinities, count < 4 or
   points without volume. */
RIGID_API rg_hull *rg_hull_create(const rg_vec3 *points, int count, rg_result *result);
/* Box centred on the origin. Extents must be positive, finite and at most 1e15. */
RIGID_API rg_hull *rg_hull_create_box(rg_vec3 half_extents, rg_result *result);
/* Convex polyhedron given by its faces: face f has face_sizes[f] vertex indices in
   face_indices (all faces one after another), counter-clockwise seen from outside. The result
   must be closed (every edge shared by exactly two faces), and V - E + F = 2. Convexity is
   checked: every vertex on or behind every face plane, within a tolerance. NaN, infinite or
   absurd coordinates (beyond 1e15), or a hull so large that its inertia overflows rg_real:
   RG_ERR_INVALID_ARGUMENT. */
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
RIGID_API rg_mat3  rg_hull_inertia(const rg_hull *h, rg_real density); /* about the centroid; zero for a negative or non-finite density */

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

/* Contact manifold of two posed hulls within margin; returns out->count. */
RIGID_API int rg_collide_hulls(const rg_hull *a, rg_vec3 pos_a, rg_quat rot_a,
                               const rg_hull *b, rg_vec3 pos_b, rg_quat rot_b,
                               rg_real margin, rg_manifold *out);

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
    int     cookie;               /* set by rg_world_default_def; catches hand-zeroed defs */
} rg_world_def;

RIGID_API rg_world_def rg_world_default_def(void);
/* NULL and RG_ERR_INVALID_ARGUMENT for a def that did not come from rg_world_default_def, NaN,
   infinite or absurd (beyond 1e15) gravity, margin or tolerance, negative margin or tolerance,
   or iteration counts outside [0, 1000000]. */
RIGID_API rg_world *rg_world_create(const rg_world_def *def, rg_result *result);
RIGID_API void      rg_world_destroy(rg_world *w);
/* One step of dt seconds. dt <= 0, above 1 s (clamp frame times), NaN or infinite:
   RG_ERR_INVALID_ARGUMENT, nothing moves. */
RIGID_API rg_result rg_world_step(rg_world *w, rg_real dt);
RIGID_API rg_result rg_world_set_gravity(rg_world *w, rg_vec3 gravity); /* components beyond 1e15: refused */
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
   negative density or mass, restitution outside [0, 1], negative friction, an all-zero
   orientation, absurd values (beyond 1e15 in absolute value), mass properties that overflow
   rg_real, or velocities whose kinetic energy exceeds 1e30. All RG_ERR_INVALID_ARGUMENT. */
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

/* Setters: RG_ERR_INVALID_ARGUMENT for a NULL world, RG_ERR_STALE_ID for a null or stale id,
   RG_ERR_INVALID_ARGUMENT for non-finite or absurd input (beyond 1e15; an all-zero
   orientation; velocities, or forces that within a 1 s step would give velocities, whose kinetic
   energy exceeds 1e30); nothing changes on failure. */
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
/* Returns the total number of contacts, fills at most capacity of them. out NULL or capacity
   <= 0 only counts; a NULL world has none. */
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
#define RG__REAL_MIN DBL_MIN
#define RG__REAL_MAX DBL_MAX
#define rg__sqrt sqrt
#define rg__sin sin
#define rg__cos cos
#define rg__fabs fabs
#define rg__atan2 atan2
#else
#define RG__EPSILON FLT_EPSILON
#define RG__REAL_MIN FLT_MIN
#define RG__REAL_MAX FLT_MAX
#define rg__sqrt sqrtf
#define rg__sin sinf
#define rg__cos cosf
#define rg__fabs fabsf
#define rg__atan2 atan2f
#endif

#define RG__WORLD_COOKIE 0x52474431

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
    rg__contact_point points[RG_MANIFOLD_MAX];
} rg__pair_manifold;

typedef struct rg__narrowphase {
    rg__pair_manifold *manifolds; /* stb_ds array: touching pairs of this step, in pair order */
} rg__narrowphase;

/* ---- solver ---- */
typedef struct rg__solver {
    int unused;
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
};

/* =============================================================================================
   >>math
   ============================================================================================= */

/* Inputs larger than this in absolute value (coordinates, velocities, forces, gravity, masses,
   margins) are refused as RG_ERR_INVALID_ARGUMENT: in any units they are garbage, and their
   squares and products must stay far from overflow in float (FLT_MAX is 3.4e38). */
#define RG__MAX_MAGNITUDE ((rg_real)1e15)
static int rg__is_sane_real(rg_real x) {
    return rg__is_finite_real(x) && rg__fabs(x) <= RG__MAX_MAGNITUDE;
}
static int rg__v3_is_sane(rg_vec3 v) {
    return rg__is_sane_real(v.x) && rg__is_sane_real(v.y) && rg__is_sane_real(v.z);
}

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
/* A sum of squares in [RG__REAL_MIN / RG__EPSILON, RG__REAL_MAX] lost nothing to underflow or
   overflow that matters at this precision; outside it (zero, tiny or huge vectors, NaN,
   infinities) the slow paths below scale by the largest component first. */
static int rg__squares_in_range(rg_real sum_of_squares) {
    return sum_of_squares >= RG__REAL_MIN / RG__EPSILON && sum_of_squares <= RG__REAL_MAX;
}
static rg_real rg__max_abs3(rg_real a, rg_real b, rg_real c) {
    return rg__max_real(rg__fabs(a), rg__max_real(rg__fabs(b), rg__fabs(c)));
}
static rg_real rg__v3_length_scaled(rg_vec3 v) {
    rg_real largest;
    if (!rg_v3_is_finite(v)) return rg__fabs(v.x) + rg__fabs(v.y) + rg__fabs(v.z); /* NaN or inf */
    largest = rg__max_abs3(v.x, v.y, v.z);
    if (largest == 0) return 0;
    v = rg_v3(v.x / largest, v.y / largest, v.z / largest);
    return largest * rg__sqrt(rg_v3_dot(v, v));
}
RIGID_API rg_real rg_v3_length(rg_vec3 v) {
    rg_real squared = rg_v3_dot(v, v);
    if (rg__squares_in_range(squared)) return rg__sqrt(squared);
    return rg__v3_length_scaled(v);
}
RIGID_API rg_vec3 rg_v3_normalize(rg_vec3 v) {
    rg_real squared = rg_v3_dot(v, v), largest;
    if (rg__squares_in_range(squared)) return rg_v3_scale(v, 1 / rg__sqrt(squared));
    if (!rg_v3_is_finite(v)) return rg_v3(0, 0, 0);
    largest = rg__max_abs3(v.x, v.y, v.z);
    if (largest == 0) return rg_v3(0, 0, 0);
    v = rg_v3(v.x / largest, v.y / largest, v.z / largest);  /* largest component now +-1 */
    return rg_v3_scale(v, 1 / rg__sqrt(rg_v3_dot(v, v)));
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
    rg_real squared = rg_quat_dot(q, q), length, largest;
    if (rg__squares_in_range(squared)) {
        length = rg__sqrt(squared);
        return rg__quat(q.x / length, q.y / length, q.z / length, q.w / length);
    }
    if (!rg_quat_is_finite(q)) return rg_quat_identity();
    largest = rg__max_real(rg__max_abs3(q.x, q.y, q.z), rg__fabs(q.w));
    if (largest == 0) return rg_quat_identity();
    q = rg__quat(q.x / largest, q.y / largest, q.z / largest, q.w / largest);
    length = rg__sqrt(rg_quat_dot(q, q));
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
static int rg__mat3_is_finite(rg_mat3 m) {
    int i;
    for (i = 0; i < 3; ++i)
        if (!rg_v3_is_finite(rg_v3(m.m[i][0], m.m[i][1], m.m[i][2]))) return 0;
    return 1;
}
static rg_real rg__mat3_max_abs(rg_mat3 m) {
    rg_real largest = 0;
    int i;
    for (i = 0; i < 3; ++i) largest = rg__max_real(largest, rg__max_abs3(m.m[i][0], m.m[i][1], m.m[i][2]));
    return largest;
}
/* m / s, dividing rather than multiplying by 1/s, which overflows for a subnormal s */
static rg_mat3 rg__mat3_divide(rg_mat3 m, rg_real s) {
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) m.m[i][j] /= s;
    return m;
}
/* The determinant of a matrix with entries near 1e13 overflows a float and one with entries
   near 1e-13 underflows (the inertia of a 200 m or a 1 mm body), though the inverse exists:
   when the determinant is outside the safe range the matrix is divided by its largest entry
   first, m^-1 = (m/s)^-1 / s. Valid input keeps the plain path and its exact results. */
static int rg__determinant_in_range(rg_real det) {
    return rg__fabs(det) >= RG__REAL_MIN / RG__EPSILON && rg__fabs(det) <= RG__REAL_MAX;
}
/* rows of the inverse are the cross products of the columns, over the determinant */
static int rg__mat3_inverse_by_cofactors(rg_mat3 m, int plain_path, rg_mat3 *inv) {
    rg_vec3 c0 = rg__mat3_column(m, 0), c1 = rg__mat3_column(m, 1), c2 = rg__mat3_column(m, 2);
    rg_vec3 r0 = rg_v3_cross(c1, c2), r1 = rg_v3_cross(c2, c0), r2 = rg_v3_cross(c0, c1);
    rg_real det = rg_v3_dot(c0, r0);
    if (plain_path ? !rg__determinant_in_range(det) : (det == 0 || !rg__is_finite_real(det))) return 0;
    r0 = rg_v3_scale(r0, 1 / det); r1 = rg_v3_scale(r1, 1 / det); r2 = rg_v3_scale(r2, 1 / det);
    inv->m[0][0] = r0.x; inv->m[0][1] = r0.y; inv->m[0][2] = r0.z;
    inv->m[1][0] = r1.x; inv->m[1][1] = r1.y; inv->m[1][2] = r1.z;
    inv->m[2][0] = r2.x; inv->m[2][1] = r2.y; inv->m[2][2] = r2.z;
    return rg__mat3_is_finite(*inv);
}
RIGID_API rg_mat3 rg_mat3_inverse(rg_mat3 m) {
    rg_mat3 inv, zero;
    rg_real largest;
    memset(&zero, 0, sizeof zero);
    if (rg__mat3_inverse_by_cofactors(m, 1, &inv)) return inv;
    if (!rg__mat3_is_finite(m)) return zero;
    largest = rg__mat3_max_abs(m);
    if (largest == 0) return zero;
    if (!rg__mat3_inverse_by_cofactors(rg__mat3_divide(m, largest), 0, &inv)) return zero;
    inv = rg__mat3_divide(inv, largest);
    return rg__mat3_is_finite(inv) ? inv : zero;
}
/* Cramer's rule; 0 when the determinant is zero (or outside the safe range on the plain path) */
static int rg__mat3_solve_by_cramer(rg_mat3 m, rg_vec3 b, int plain_path, rg_vec3 *x) {
    rg_vec3 c0 = rg__mat3_column(m, 0), c1 = rg__mat3_column(m, 1), c2 = rg__mat3_column(m, 2);
    rg_real det = rg_v3_dot(c0, rg_v3_cross(c1, c2));
    if (plain_path ? !rg__determinant_in_range(det) : (det == 0 || !rg__is_finite_real(det))) return 0;
    *x = rg_v3(rg_v3_dot(b, rg_v3_cross(c1, c2)) / det, rg_v3_dot(c0, rg_v3_cross(b, c2)) / det,
               rg_v3_dot(c0, rg_v3_cross(c1, b)) / det);
    return rg_v3_is_finite(*x);
}
RIGID_API rg_vec3 rg_mat3_solve(rg_mat3 m, rg_vec3 b) {
    rg_vec3 x;
    rg_real largest;
    if (rg__mat3_solve_by_cramer(m, b, 1, &x)) return x;
    if (!rg__mat3_is_finite(m) || !rg_v3_is_finite(b)) return rg_v3(0, 0, 0);
    largest = rg__mat3_max_abs(m);
    if (largest == 0) return rg_v3(0, 0, 0);
    /* m x = b is (m/s) x = b/s */
    if (!rg__mat3_solve_by_cramer(rg__mat3_divide(m, largest), rg_v3(b.x / largest, b.y / largest, b.z / largest), 0, &x))
        return rg_v3(0, 0, 0);
    return x;
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
static int rg__hull_compute_mass_properties(rg_hull *hull) {
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
    if (!points) return 0;
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
    if (!(t.volume > 0)) return 1;
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
    return 1;
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

/* A hull whose volume, centroid or inertia at unit density overflow rg_real (a float hull
   beyond about 4e7 across: inertia grows with the fifth power of size) is refused. */
static int rg__hull_mass_properties_are_finite(const rg_hull *hull) {
    int i;
    if (!rg__is_finite_real(hull->volume) || !rg_v3_is_finite(hull->centroid) ||
        !rg__is_finite_real(hull->radius))
        return 0;
    for (i = 0; i < 3; ++i)
        if (!rg_v3_is_finite(rg__mat3_column(hull->unit_inertia, i)) || !(hull->unit_inertia.m[i][i] > 0)) return 0;
    return 1;
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
        if (!rg__v3_is_sane(vertices[i])) {
            rg__set_result(result, RG_ERR_INVALID_ARGUMENT);
            return NULL;
        }
    for (f = 0; f < face_count; ++f) {
        if (face_sizes[f] < 3 || face_sizes[f] > vertex_count || index_count > 0x3fffffff - face_sizes[f]) {
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
    if (!rg__hull_compute_mass_properties(hull)) {
        rg_hull_destroy(hull);
        rg__set_result(result, RG_ERR_OUT_OF_MEMORY);
        return NULL;
    }
    if (!(hull->volume > extent * extent * extent * 1e-9)) {
        rg_hull_destroy(hull);
        rg__set_result(result, RG_ERR_DEGENERATE);
        return NULL;
    }
    for (i = 0; i < vertex_count; ++i)
        hull->radius = rg__max_real(hull->radius, rg_v3_length(rg_v3_sub(vertices[i], hull->centroid)));
    if (!rg__hull_mass_properties_are_finite(hull)) {
        rg_hull_destroy(hull);
        rg__set_result(result, RG_ERR_INVALID_ARGUMENT); /* too large for rg_real */
        return NULL;
    }
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
    if (!rg__v3_is_sane(h) || !(h.x > 0) || !(h.y > 0) || !(h.z > 0)) {
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
    if (!h || !rg__is_finite_real(density) || density < 0) return zero;
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
   ============================================================================================= */

RIGID_API int rg_collide_hulls(const rg_hull *a, rg_vec3 pos_a, rg_quat rot_a,
                               const rg_hull *b, rg_vec3 pos_b, rg_quat rot_b,
                               rg_real margin, rg_manifold *out) {
    (void)a; (void)pos_a; (void)rot_a; (void)b; (void)pos_b; (void)rot_b; (void)margin;
    if (out) memset(out, 0, sizeof *out);
    return 0;
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
   ============================================================================================= */

static void rg__narrowphase_destroy(rg_world *w) { stbds_arrfree(w->narrowphase.manifolds); }
static void rg__narrowphase_remove_body(rg_world *w, int index) { (void)w; (void)index; }
static void rg__narrowphase_update(rg_world *w) { (void)w; }

/* =============================================================================================
   >>solver: collisions, velocity update, contacts, shock propagation (Bender & Schmitt 2006,
   Guendelman et al. 2003)
   ============================================================================================= */

static void rg__solver_destroy(rg_world *w) { (void)w; }

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

/* Guendelman §5 step 5: x += v h, and the orientation turned by the exact rotation of w h. */
static void rg__integrate_positions(rg_world *w, rg_real h) {
    int i, n = (int)stbds_arrlen(w->bodies);
    for (i = 0; i < n; ++i) {
        rg__body *body = &w->bodies[i];
        if (!(body->generation & 1) || body->type == RG_BODY_STATIC) continue;
        body->com = rg_v3_madd(body->com, body->linear_velocity, h);
        body->orientation = rg_quat_normalize(rg_quat_mul(
            rg_quat_from_rotation_vector(rg_v3_scale(body->angular_velocity, h)), body->orientation));
        rg__body_update_world_inertia(body);
    }
}

static void rg__solver_resolve_collisions(rg_world *w, rg_real h) { (void)w; (void)h; }
static void rg__solver_resolve_contacts(rg_world *w, rg_real h) { (void)w; (void)h; }

static int rg__solver_contacts(const rg_world *w, rg_contact *out, int capacity) {
    (void)w; (void)out; (void)capacity;
    return 0;
}

/* =============================================================================================
   >>world
   ============================================================================================= */

RIGID_API rg_world_def rg_world_default_def(void) {
    rg_world_def def;
    memset(&def, 0, sizeof def);
    def.gravity = rg_v3(0, (rg_real)-9.81, 0);
    def.collision_iterations = 10;
    def.contact_iterations = 10;
    def.shock_iterations = 2;
    def.contact_tolerance = (rg_real)0.001;
    def.allocator_context = NULL;
    def.contact_margin = (rg_real)0.02;
    def.random_seed = 12345u;
    def.cookie = RG__WORLD_COOKIE;
    return def;
}

/* Limits of the world's validation (RG__MAX_MAGNITUDE is in >>math). Refused: a step longer
   than RG__MAX_TIME_STEP (1 s: no contact can be resolved in a step that long; clamp frame
   times), more iterations than RG__MAX_ITERATIONS, velocities whose kinetic energy (in the
   units of the world, J for kg, m, s) exceeds RG__MAX_ENERGY, and forces and torques that would
   take a body there within one such step. All are garbage, and the energy bound keeps the
   products of a step (the gyroscopic term w x Iw, impulses times lever arms) far from overflow
   in float. */
#define RG__MAX_TIME_STEP ((rg_real)1)
#define RG__MAX_ITERATIONS 1000000
#define RG__MAX_ENERGY ((rg_real)1e30)

static int rg__iterations_are_valid(int n) { return n >= 0 && n <= RG__MAX_ITERATIONS; }

static int rg__world_def_is_valid(const rg_world_def *def) {
    return def && def->cookie == RG__WORLD_COOKIE && rg__v3_is_sane(def->gravity) &&
           rg__iterations_are_valid(def->collision_iterations) &&
           rg__iterations_are_valid(def->contact_iterations) &&
           rg__iterations_are_valid(def->shock_iterations) && rg__is_sane_real(def->contact_tolerance) &&
           def->contact_tolerance >= 0 && rg__is_sane_real(def->contact_margin) && def->contact_margin >= 0;
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
    if (!w || !rg__v3_is_sane(gravity)) return RG_ERR_INVALID_ARGUMENT;
    w->def.gravity = gravity;
    return RG_OK;
}
RIGID_API rg_vec3 rg_world_gravity(const rg_world *w) { return w ? w->def.gravity : rg_v3(0, 0, 0); }

RIGID_API rg_result rg_world_step(rg_world *w, rg_real dt) {
    int i, n;
    if (!w || !rg__is_finite_real(dt) || !(dt > 0) || dt > RG__MAX_TIME_STEP) return RG_ERR_INVALID_ARGUMENT;
    /* Guendelman §5: collide, advance velocities, contact, advance positions */
    rg__broadphase_update(w, dt);
    rg__narrowphase_update(w);
    rg__solver_resolve_collisions(w, dt);
    rg__integrate_velocities(w, dt);
    rg__solver_resolve_contacts(w, dt);
    rg__integrate_positions(w, dt);
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

static int rg__quat_is_usable(rg_quat q) {
    return rg_quat_is_finite(q) && (q.x != 0 || q.y != 0 || q.z != 0 || q.w != 0);
}
static int rg__coefficient_is_valid(rg_real c) { return rg__is_sane_real(c) && c >= 0; }

/* Everything in a body def that can be checked without its mass properties. */
static int rg__body_def_is_valid(const rg_body_def *def) {
    if (!def) return 0;
    if (def->type != RG_BODY_STATIC && def->type != RG_BODY_KINEMATIC && def->type != RG_BODY_DYNAMIC)
        return 0;
    if (def->type == RG_BODY_DYNAMIC && !def->hull) return 0;
    if (!rg__v3_is_sane(def->position) || !rg__quat_is_usable(def->orientation) ||
        !rg__v3_is_sane(def->linear_velocity) || !rg__v3_is_sane(def->angular_velocity))
        return 0;
    if (!rg__coefficient_is_valid(def->density) || !rg__coefficient_is_valid(def->mass)) return 0;
    if (def->type == RG_BODY_DYNAMIC && !(def->density > 0) && !(def->mass > 0)) return 0;
    if (!rg__is_finite_real(def->restitution) || def->restitution < 0 || def->restitution > 1) return 0;
    return rg__coefficient_is_valid(def->static_friction) && rg__coefficient_is_valid(def->dynamic_friction) &&
           rg__coefficient_is_valid(def->rolling_friction) && rg__coefficient_is_valid(def->spinning_friction);
}

static rg__body *rg__world_body(const rg_world *w, rg_body_id id) {
    rg__body *body;
    if (!w || id.generation == 0 || id.index >= (uint32_t)stbds_arrlen(w->bodies)) return NULL;
    body = &w->bodies[id.index];
    /* an even generation is a free slot's: such an id was never handed out */
    return body->generation == id.generation && (id.generation & 1) ? body : NULL;
}

/* Mass properties of a body from its hull: density, or a given mass with the inertia scaled
   to match (the same shape at the density mass / volume). 0 when they, or their inverses, are
   not finite and positive (a density of 1e15 on a large hull). */
static int rg__body_set_mass_properties(rg__body *body, const rg_body_def *def) {
    rg_real density;
    int i;
    memset(&body->inertia_local, 0, sizeof body->inertia_local);
    body->inv_inertia_local = body->inv_inertia_world = body->inertia_local;
    body->mass = body->inv_mass = 0;
    if (def->type != RG_BODY_DYNAMIC) return 1;
    density = def->mass > 0 ? def->mass / def->hull->volume : def->density;
    body->mass = density * def->hull->volume;
    body->inv_mass = 1 / body->mass;
    body->inertia_local = rg_hull_inertia(def->hull, density);
    body->inv_inertia_local = rg_mat3_inverse(body->inertia_local);
    if (!rg__is_sane_real(density) || !(body->mass > 0) || !rg__is_finite_real(body->mass) ||
        !rg__is_finite_real(body->inv_mass))
        return 0;
    for (i = 0; i < 3; ++i)
        if (!(body->inertia_local.m[i][i] > 0) || !rg__is_finite_real(body->inertia_local.m[i][i]) ||
            !(body->inv_inertia_local.m[i][i] > 0))
            return 0;
    return rg__mat3_is_finite(body->inertia_local) && rg__mat3_is_finite(body->inv_inertia_local);
}

/* Velocities a body may be given: sane components and, for a dynamic body, a kinetic energy
   below RG__MAX_ENERGY. An overflow inside the check fails it too. */
static int rg__velocities_are_valid(const rg__body *body, rg_vec3 v, rg_vec3 omega) {
    rg_vec3 omega_local;
    if (!rg__v3_is_sane(v) || !rg__v3_is_sane(omega)) return 0;
    if (body->type != RG_BODY_DYNAMIC) return 1;
    omega_local = rg_quat_rotate_inverse(body->orientation, omega);
    return body->mass * rg_v3_dot(v, v) <= 2 * RG__MAX_ENERGY &&
           rg_v3_dot(omega_local, rg_mat3_mul_v3(body->inertia_local, omega_local)) <= 2 * RG__MAX_ENERGY;
}

/* The body a def describes, built aside so that a refused def changes nothing in the world. */
static int rg__body_from_def(const rg_body_def *def, rg__body *body) {
    rg_vec3 local_com;
    memset(body, 0, sizeof *body);
    body->next_free = -1;
    body->type = def->type;
    body->hull = def->hull;
    body->orientation = rg_quat_normalize(def->orientation);
    local_com = def->hull ? def->hull->centroid : rg_v3(0, 0, 0);
    body->com = rg_v3_add(def->position, rg_quat_rotate(body->orientation, local_com));
    if (!rg__body_set_mass_properties(body, def)) return 0;
    if (!rg__velocities_are_valid(body, def->linear_velocity, def->angular_velocity)) return 0;
    if (def->type != RG_BODY_STATIC) {
        body->linear_velocity = def->linear_velocity;
        body->angular_velocity = def->angular_velocity;
    }
    rg__body_update_world_inertia(body);
    body->restitution = def->restitution;
    body->static_friction = def->static_friction;
    body->dynamic_friction = def->dynamic_friction;
    body->rolling_friction = def->rolling_friction;
    body->spinning_friction = def->spinning_friction;
    body->user_data = def->user_data;
    body->aabb_min = body->aabb_max = body->com;
    return 1;
}

RIGID_API rg_body_id rg_body_create(rg_world *w, const rg_body_def *def, rg_result *result) {
    rg_body_id id = {0, 0};
    rg__body candidate;
    uint32_t generation;
    int index;
    if (!w || !rg__body_def_is_valid(def) || !rg__body_from_def(def, &candidate)) {
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
    generation = w->bodies[index].generation + 1; /* free slots are even, so this is odd */
    w->bodies[index] = candidate;
    w->bodies[index].generation = generation;
    ++w->body_count;
    id.index = (uint32_t)index;
    id.generation = generation;
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
    rg_result r = rg__body_for_update(w, id, rg__v3_is_sane(position) && rg__quat_is_usable(orientation), &body);
    if (r != RG_OK) return r;
    body->orientation = rg_quat_normalize(orientation);
    body->com = rg_v3_add(position, rg_quat_rotate(body->orientation, rg__body_local_com(body)));
    rg__body_update_world_inertia(body);
    return RG_OK;
}
RIGID_API rg_result rg_body_set_linear_velocity(rg_world *w, rg_body_id id, rg_vec3 v) {
    rg__body *body;
    rg_result r = rg__body_for_update(w, id, rg__v3_is_sane(v), &body);
    if (r != RG_OK) return r;
    if (!rg__velocities_are_valid(body, v, body->angular_velocity)) return RG_ERR_INVALID_ARGUMENT;
    if (body->type != RG_BODY_STATIC) body->linear_velocity = v;
    return RG_OK;
}
RIGID_API rg_result rg_body_set_angular_velocity(rg_world *w, rg_body_id id, rg_vec3 omega) {
    rg__body *body;
    rg_result r = rg__body_for_update(w, id, rg__v3_is_sane(omega), &body);
    if (r != RG_OK) return r;
    if (!rg__velocities_are_valid(body, body->linear_velocity, omega)) return RG_ERR_INVALID_ARGUMENT;
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
    rg_vec3 v, omega;
    rg_result r = rg__body_for_update(w, id, rg__v3_is_sane(impulse) && rg__v3_is_sane(world_point), &body);
    if (r != RG_OK || body->type != RG_BODY_DYNAMIC) return r;
    v = rg_v3_madd(body->linear_velocity, impulse, body->inv_mass);
    omega = rg_v3_add(body->angular_velocity,
        rg_mat3_mul_v3(body->inv_inertia_world, rg_v3_cross(rg_v3_sub(world_point, body->com), impulse)));
    if (!rg__velocities_are_valid(body, v, omega)) return RG_ERR_INVALID_ARGUMENT;
    body->linear_velocity = v;
    body->angular_velocity = omega;
    return RG_OK;
}
/* Accumulated force and torque are accepted when a step of RG__MAX_TIME_STEP under them alone
   leaves the body's velocities valid. */
static rg_result rg__body_accumulate(rg__body *body, rg_vec3 force, rg_vec3 torque) {
    rg_vec3 f = rg_v3_add(body->force, force), t = rg_v3_add(body->torque, torque);
    rg_vec3 v = rg_v3_madd(body->linear_velocity, f, body->inv_mass * RG__MAX_TIME_STEP);
    rg_vec3 omega = rg_v3_madd(body->angular_velocity, rg_mat3_mul_v3(body->inv_inertia_world, t), RG__MAX_TIME_STEP);
    if (!rg__v3_is_sane(f) || !rg__v3_is_sane(t) || !rg__velocities_are_valid(body, v, omega))
        return RG_ERR_INVALID_ARGUMENT;
    body->force = f;
    body->torque = t;
    return RG_OK;
}
RIGID_API rg_result rg_body_apply_force(rg_world *w, rg_body_id id, rg_vec3 force, rg_vec3 world_point) {
    rg__body *body;
    rg_result r = rg__body_for_update(w, id, rg__v3_is_sane(force) && rg__v3_is_sane(world_point), &body);
    if (r != RG_OK || body->type != RG_BODY_DYNAMIC) return r;
    return rg__body_accumulate(body, force, rg_v3_cross(rg_v3_sub(world_point, body->com), force));
}
RIGID_API rg_result rg_body_apply_torque(rg_world *w, rg_body_id id, rg_vec3 torque) {
    rg__body *body;
    rg_result r = rg__body_for_update(w, id, rg__v3_is_sane(torque), &body);
    if (r != RG_OK || body->type != RG_BODY_DYNAMIC) return r;
    return rg__body_accumulate(body, rg_v3(0, 0, 0), torque);
}

RIGID_API int rg_world_contacts(const rg_world *w, rg_contact *out, int capacity) {
    if (!w) return 0;
    if (!out || capacity < 0) capacity = 0;   /* count only */
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
