/* rigid.h - v0.3.0 - 3D rigid-body physics in one header - MIT license (see end of file)

   rigid.h simulates rigid bodies that fall, collide, roll, slide, bounce and stack: bodies made
   of spheres, capsules and convex hulls (several per body), on static triangle meshes.
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

   TABLE OF CONTENTS
      Declarations (search for the title): Types, Math, Convex hulls, Narrow phase without a
      world, Casts without a world, World and bodies, Body controls, Shapes, Triangle meshes,
      Queries, Events, Joints, Inspection, Snapshots, Debug draw. The implementation, one
      grep-able marker a stage, in the order of the step; the private names of a stage carry its
      prefix:
         marker         prefix             what
         >>types        rg__<module>_...   internal data of every module
         >>math         rg__v3_ rg__quat_ rg__mat3_ (scalars: rg__<name>_real)
                                           vector, quaternion and matrix helpers
         >>hull         rg__hull_          hulls from boxes and faces, Mirtich mass properties
         >>quickhull    rg__qh_            rg_hull_create: the convex hull of a point cloud
         >>collide      rg__collide_       separating axes, witnesses, clipped contact manifolds;
                                           spheres, capsules, a mesh's triangles
         >>cast         rg__cast_          rays and moving spheres against shapes, triangles, meshes
         >>mesh         rg__mesh_          triangle meshes: welding, active edges, the hierarchy
         >>task         rg__task_          the program's threads: a stage's items in ranges
         >>broadphase   rg__broadphase_    incremental sort-and-sweep over the bodies' boxes
         >>narrowphase  rg__narrowphase_   a manifold per shape pair, kept or collided again
         >>event        rg__event_         contact and sensor events: manifolds carried to the
                                           step's end, sensor overlaps
         >>solver       rg__solver_        the solver's data, tuning and its method in brief
         >>integrate    rg__integrate_     free motion: velocities, gyroscopic term, positions
         >>impulse      rg__impulse_       pushes, effective masses, a face's resultant, friction
         >>prepare      rg__prepare_       solver bodies, contact points, graph, levels, order
         >>collision    rg__collision_     collisions with the velocities of the step's start
         >>predict      rg__predict_       where contact points will be after the step
         >>island       rg__island_        islands of touching bodies, for the energy limits
         >>warm         rg__warm_          last step's impulses carried over, limited per island
         >>contact      rg__contact_       resting contacts: sweeps of manifold visits
         >>shock        rg__shock_         shock propagation, level by level
         >>separate     rg__separate_      the first-order pass: positions apart
         >>step         rg__step_          the contact stage's driver, what a step reports
         >>world        rg__world_         world def, creation, rg_world_step, stats
         >>body         rg__body_          bodies by id: creation, state, forces, impulses;
                                           controls (type, mass, damping, gravity scale, locks)
         >>shape        rg__shape_         shapes on bodies: mass properties, filters, by id
         >>joint        rg__joint_         joints by id: anchors in the bodies' frames, the bodies'
                                           joint lists, the pairs they keep apart, positions
         >>query        rg__query_         ray casts, sphere casts, overlaps: a tree over the
                                           shapes' boxes
         >>snapshot     rg__snapshot_      the world's state in a buffer and back: the world
                                           struct, its state arrays, its hash maps rebuilt
         >>draw         rg__draw_          debug draw: shapes as triangles, joints, contacts,
                                           impulses, boxes
      The long modules are cut further, by sub-markers >>module.unit that keep the module's
      prefix: >>quickhull.geometry, .build, .polygons; >>collide.frames, .axes, .manifold,
      .search, .round, .triangle; >>mesh.input, .edges, .hierarchy, .create, .query;
      >>broadphase.pairs, .boxes, .sort, .sweep; >>event.sort, .contact, .sensor, .world;
      >>body.controls; >>query.tree, .filter, .overlap, .cast.

   ARCHITECTURE
      One rg_world_step(world, dt) (Guendelman et al. §5: collide, advance velocities, contact,
      advance positions):
      1. >>broadphase updates each body's box (the union of its shapes') in the sort-and-sweep
         lists (Baraff §7.2) and keeps the set of pairs whose boxes overlap.
      2. >>narrowphase expands each pair into the pairs of its bodies' shapes that the filters
         let through (a mesh with each triangle its bounding volumes find near the other shape)
         and gives each a contact manifold: kept from last step when the pair has hardly moved
         relative to itself, otherwise collided again by >>collide; points within
         contact_margin of touching are speculative (negative depth). >>event notes each
         manifold's approach speed with the velocities of the step's start. Bodies that a joint
         keeps apart (collide_connected 0, >>joint) give no shape pairs.
      3. >>prepare builds the solver's bodies and points, the contact graph's levels from the
         ground up and a seeded shuffle; >>collision resolves the collisions with the
         velocities of the step's start, with restitution (Bender & Schmitt §3.1), a face's or
         an edge's colliding points together (Ermolin & Kazakov §3).
      4. >>integrate advances the velocities by gravity (times each body's gravity scale) and
         forces, then damping and axis locks.
      5. The contact stage (>>step): >>warm applies last step's impulses; >>contact sweeps the
         resting contacts with the velocities predicted by >>predict (Bender & Schmitt §3.2);
         >>shock propagates shock level by level (Guendelman §8.2), a level's body solved
         together with what rests on it alone where their weight tips it (welded composites,
         so that a level feels the moment of what it carries), limited per >>island so that it
         adds no energy; >>separate moves penetrating bodies apart without changing their
         velocities (Guendelman §11); the impulses are kept for the next warm start and for
         rg_world_contacts. The contact stage computes each face patch's effective radius
         (its twist friction's lever) from its starting loads (>>impulse), and solves a
         sticking face's normal and friction resultants together.
      6. >>integrate advances the positions and orientations.
      7. >>query gives the moving bodies' shapes their boxes at the new poses and refits the
         queries' tree above them (rebuilt by binned SAH when worn), so that queries between
         steps see current poses; >>event carries the manifolds to the end poses for contact
         begin and end (per shape pair, begin within contact_tolerance, end beyond 2) and
         collides sensors with their candidates at margin 0.

   COMPILE-TIME OPTIONS (define before including)
      RIGID_IMPLEMENTATION            compile the implementation in this file
      RIGID_DOUBLE                    rg_real is double (default float); same in every file.
                                      A mismatch between files fails at link time.
      RIGID_STATIC                    every function gets internal linkage
      RIGID_MALLOC(size, ctx)         allocator overrides: all three or none. ctx is
      RIGID_REALLOC(ptr, size, ctx)   rg_world_def.allocator_context for world memory, NULL for
      RIGID_FREE(ptr, ctx)            hulls and for stb_ds containers (stb_ds passes no context)
      RIGID_ASSERT(x)                 assertion override (default assert); checks internal
                                      invariants (indices, ids, levels), off with NDEBUG
      RIGID_NO_STB_DS_IMPLEMENTATION  the program compiles stb_ds's implementation elsewhere;
                                      stb_ds then allocates with that program's STBDS_REALLOC
      RIGID_PROFILE_CLOCK()           an expression giving seconds as a double (e.g. from
                                      clock_gettime); rg_world_step then times its phases into
                                      rg_world_stats.seconds_*. Off by default.
      RIGID_NO_SIMD                   the contact sweeps' lanes use plain C even where SSE2
                                      is offered (same results, bit for bit)

   THREADS
      rigid.h starts no threads: the program lends its own, as in Box2D v3. With
      rg_world_def.worker_count > 1 (at most 64) and both callbacks set, each parallel stage of
      rg_world_step calls enqueue_task(task, item_count, min_range, task_context,
      user_task_context), which is to have task(start, end, worker, task_context) called on
      ranges [start, end) covering [0, item_count), each at least min_range long but the last,
      worker in [0, worker_count) and different for ranges that run at the same time (the
      calling thread may be one of them). enqueue_task may run them all inline and return NULL;
      otherwise finish_task(handle, user_task_context) is called once for the handle it returned
      and returns when all of them are done. The step enqueues one task at a time and finishes
      it before the next; tasks enqueue nothing and allocate nothing. In parallel: the broad
      phase's boxes of moving bodies, the narrow phase's shape pairs (reused or collided), the
      approach speeds and end-of-step depths of the contact events, the integration of
      velocities and positions, the queries' leaf boxes, and the solver's work per manifold
      (its setup, its start of the contact stage, the report); the rest (the solver's sweeps
      and levels, the sweep-and-prune, the sets and lists) runs on the calling thread. Each item writes only its own results,
      which are gathered afterwards in item order, so that results are bit-identical for every
      worker count and however the ranges are split. tools/tasks.h is a small pthread pool that
      fits the callbacks.

   TUNING
      Internal constants, each overridable by defining it before the implementation (results
      then differ from the tested defaults). Fractions are of rg_world_def.contact_tolerance
      unless said otherwise.
         RG__HULL_VOLUME_LEFT          1e-14  a hull whose volume is below this part of the sum
                                              of its terms' magnitudes is degenerate (>>hull)
         RG__MESH_ACTIVE_COSINE        0.9962 cos 5 degrees: mesh edges whose triangles' normals
                                              are closer are flat, inactive (>>mesh)
         RG__SAP_REBUILD_EXCHANGES     2      the sweep rebuilds after this many n log2 n
         RG__SAP_TESTS_PER_EXCHANGE    4      exchanges, box tests counted this many to one
         RG__SAP_FATTENING             0.005  a moving body's box is fattened by this part of its
                                              hull's radius (>>broadphase)
         RG__REUSE_FRACTION            0.25   a pair that moved less than this relative to itself
                                              keeps its manifold (>>narrowphase)
         RG__ON_BODY_REACH             2      hull radii from a body's centre of mass within
                                              which a manifold's points must lie
         RG__CONTACT_SWEEPS_EXIT       0.05   contact sweeps stop below this error
         RG__CONTACT_STALL_AFTER       2      from this sweep on, contact sweeps stop when one
         RG__CONTACT_STALL             0.7    ends above this part of the best error so far
         RG__CONTACT_STALL_ABOVE       0.1    and above this part of the tolerance
         RG__ALTERNATE                 1      every other contact sweep runs down the levels
         RG__CONTACT_EXIT_FRACTION     0.01   the first-order pass stops below this error
         RG__SEPARATION_SWEEPS         3      first-order sweeps per contact iteration
         RG__SHOCK_EXIT_FRACTION       1e-3   a shock level stops below this error
         RG__SHOCK_INNER               5      sweeps of a level per shock iteration
         RG__SHOCK_STALL               0.95   a level stops when a sweep leaves more than this
         RG__SHOCK_STALL_AFTER         2      part of the error before it, from its third sweep
         RG__SHOCK_STALL_BELOW         0.1    on, with the error below this part of the tolerance
         RG__SLOP_FRACTION             0.1    penetration the velocity may remove; the rest is
                                              the first-order pass's
         RG__PUSHOUT_RATE              60     1/s: the fastest the velocity removes penetration
         RG__COLLISION_RELATIVE_TOLERANCE 1e-3  collision loop: error per approach speed
         RG__COLLISION_THRESHOLD_FRACTION 0.1   collision loop: error per resting speed
         RG__GRAPH_VERTICAL            0.1    |n . up| above which a pair rests one on the other
         RG__STILL_FRACTION            0.1    slower sliding (per step) counts as none
         RG__WARM_ALIGNMENT            0.995  cosine of the largest turn of a normal that still
                                              carries a warm start
         RG__WARM_MAX_RATIO            4      a step this many times longer starts cold
         RG__WARM_REACH                2      hull radii from b within which carried points
                                              must lie for the warm start to be taken
         RG__LINEAR_TURN               0.003  radians a step below which an arm turns linearly
         RG__GYROSCOPIC_TURN           0.5    radians: the gyroscopic step is split into parts
         RG__GYROSCOPIC_PARTS          64     of at most this turn, at most this many
         RG__TURN_LARGEST              1e12   radians: larger turns are taken modulo 2 pi
         RG__LINE_PATCH                1e-4   a face patch whose points' moments have a
                                              determinant below this part of trace^2 is a line
         RG__VISIT_AHEAD               4      contact visits prefetched ahead
         RG__LANE_WINDOW               32     manifolds ahead a lane group's members are looked
                                              for among (rg__prepare_lane_groups)
         RG__EVENT_END_TOLERANCES      2      a touching pair ends when no point is within this
                                              many tolerances (it begins within one) (>>event)
         RG__EVENT_MISSED_STEPS        8      steps a touching pair still near may go without a
                                              manifold (>>event)
         RG__QUERY_REBUILD_GROWTH      1.5    the queries' tree is rebuilt when its SAH cost has
                                              grown this much since the last rebuild (>>query)

   CONVENTIONS
      Right-handed, y up by the default gravity. Quaternions are (x, y, z, w) with w the scalar,
      Hamilton product, rg_quat_mul(a, b) applies b then a. rg_mat3.m[row][column]. Contact
      normals point from body B towards body A. Units are yours; defaults assume metres,
      kilograms, seconds.

   DETERMINISM
      The same sequence of calls gives bit-identical results: run after run, after destroying
      and creating the world again in one process, and between builds by gcc -O2, clang -O2,
      g++ and tcc on one x86-64 machine (`make test` compares state hashes of three scenes
      across them, float and double), with any worker count (THREADS). Nothing depends on
      pointer values, hash order, time or threads.
      Compile with -ffp-contract=off (gcc contracts a*b+c into FMA otherwise, and ignores
      #pragma STDC FP_CONTRACT). Not guaranteed: between float and double builds, between
      machines or C libraries (sinf, cosf may round differently), with -ffast-math, or when the
      calls come in another order (creation order is part of the input). A snapshot
      (rg_world_snapshot_save) loaded into any world of the same build gives the bits the saved
      world gave: rollback is exact (>>snapshot).

   BAD INPUT
      Every function that can fail returns or writes an rg_result; NULL, NaN, infinities,
      degenerate hulls and meshes, radii <= 0, a mesh on a dynamic body, negative damping,
      unknown body types or lock bits, stale ids and dt <= 0 are refused and leave the world
      unchanged; queries with bad input (NULL, NaN, capacity < 0, zero-length rays) find
      nothing, and the events of a NULL world are empty. So are
      absurd values, whatever the units: magnitudes beyond 1e15 (RG__MAX_MAGNITUDE), a dt above
      1 s, velocities (or forces that would give velocities within a 1 s step) whose kinetic
      energy exceeds 1e30 (RG__MAX_ENERGY), hulls, shapes and bodies whose mass properties
      overflow rg_real. Within these limits a free body's state stays finite. Math functions never
      crash: NaN in gives NaN out, except that normalising a zero, NaN or infinite vector or
      quaternion gives zero or the identity, and inverting a singular or non-finite matrix
      gives zero.

   NUMERIC ROBUSTNESS
      The invariants the code keeps for every accepted input, float included, each enforced in
      one place (the function named):
      - Lengths, normalisation and inverses never overflow or underflow on the way: a sum of
        squares or a determinant out of range is rescaled by the largest component first
        (rg__squares_in_range, rg__determinant_in_range).
      - A hull's volume is that of its faces as fans of triangles; a volume within
        RG__HULL_VOLUME_LEFT of the size of its terms is rounding, and the hull is degenerate
        (rg__hull_compute_mass_properties). Mass, inertia and their inverses are finite and
        positive, or the hull, body or shape is refused (rg__hull_mass_properties_are_finite,
        rg__shape_mass_is_usable); a shape is added or destroyed only if the body's sum stays
        so and its velocities valid (rg__shape_update_body_mass).
      - Every input point lies within three tolerances of the hull rg_hull_create returns
        (rg__qh_reject_cut_off_points).
      - No product of two squared segment lengths overflows or underflows: segments with a
        component beyond 2^20 or all below 2^-20 are scaled by it before their closest points,
        the lying-capsule test and a point's region of a triangle (rg__collide_round_scale).
      - Round cores closer than the rounding of their ends' coordinates meet: their normal is
        perpendicular to them, never the direction of that rounding (rg__collide_round_round).
      - A core's edge axis against a hull never claims more separation than the supports' gap
        along it (rg__collide_round_edge_confirmed).
      - GJK reports a round core apart from a hull only when no part of the core lies behind
        every face plane, within rounding; otherwise the separating axes answer
        (rg__collide_core_enters_hull).
      - A core lying in the side plane of a face's edge within rounding is in the face's prism:
        the clip does not cut it away (rg__collide_round_in_side_plane).
      - Capsules get two points along each other only where both, moved back by their depth,
        lie on A within (r_A + r_B)(1 - cos 3 degrees): skew cores get one
        (rg__collide_round_along).
      - An edge pair never claims more separation than the gap between the hulls' supports
        along its axis; a true pair rounded apart while its gap is not is kept at the gap
        (rg__collide_edge_separation_confirmed). The incident face holds a deepest vertex over
        the reference face: when the face around the chosen one clips away, the face holding
        every vertex tied with it is clipped (rg__collide_tied_face). Overlapping hulls always get a
        manifold: when rounding defeats every candidate, the best axis's deepest vertex or the
        edges' clamped closest points stand in, for overlaps beyond 16 epsilon of the pair's
        size; touching within it may give none (rg__collide_contact_manifold). A hull is
        collided only with finite vertices, position within RG__MAX_MAGNITUDE and a finite
        rotation (rg__collide_pose_is_collidable).
      - A mesh keeps a triangle only when its height exceeds 4 RG__EPSILON of its largest
        coordinate magnitude, so its normal (computed in double) is the triangle's and not its
        coordinates' rounding (rg__mesh_triangle_normal_of). A mesh's hierarchy is at most 60
        levels deep (median splits from depth 32 halve every node), so the query's fixed stack of
        64 always suffices (rg__mesh_build_node).
      - A body whose box is not finite is parked at the far corner, so the sweep's order stays
        total (rg__broadphase_compute_box).
      - Every point of a manifold lies within RG__ON_BODY_REACH hull radii of both bodies'
        centres of mass, or the pair has no contact for the step
        (rg__narrowphase_manifold_on_bodies); a warm start is taken only when last step's
        points, carried with b, lie within RG__WARM_REACH of it (rg__warm_carried_points), and
        an island whose warm-start sums are not finite starts cold (rg__warm_limit).
      - The gyroscopic term never adds kinetic energy, also where w.Iw overflows
        (rg__integrate_gyroscopic); a turn beyond RG__TURN_LARGEST radians is taken modulo a
        full turn (rg__integrate_turn_within_largest).
      - A contact point's turns per unit impulse are all finite or all zero
        (rg__impulse_keep_finite_turns); the sliding direction u/|u| is formed without
        squaring u (rg__impulse_friction); the rolling-friction matrix is scaled by its trace
        before it is inverted (rg__impulse_rolling).
      - A ray through the edge shared by two triangles of a mesh hits one of them: Woop's edge
        functions, recomputed in double when zero in float (rg__cast_ray_corners). Casts
        against balls and cylinders scale the geometry into range and the translation to a
        largest component of 1 before squaring (rg__cast_line_capsule).
      - Nothing divides a depth by the step: a point's drift comes from the step's offsets
        only, and the velocity removes at most h RG__PUSHOUT_RATE of the slop in a step
        (rg__predict_base); the first-order pass works on moves (rg__separate).
      - Shock propagation leaves each island's kinetic energy no higher than before it, plus
        the push-out slack (rg__shock_limit_energy).

   TCC
      tcc 0.9.27 on x86-64 miscompiles calls returning 12-byte structs; under tcc rg_vec3 is
      therefore aligned to 8 (16 bytes, members unchanged), and tcc-built objects cannot be
      linked with other compilers' (the symbols differ, like those of RIGID_DOUBLE).

   REVISION HISTORY
      0.4.1  (2026-11) the joints' API (rg_joint_*: ids, checks, collide_connected, positions,
             limits and motor settings, debug drawing); ball, distance, fixed and hinge joints
             (limits, motor) solved by impulses in the contact sweeps (predicted anchors and
             turns, eq. (8)) and level by level from what holds them, warm-started, their
             drift removed by a position pass (closed loops, a bridge, stand); slider joints
             and the ball's cone limit; the twist
             lever's edge integrals in closed form (a spinning slab stops within 2e-6 of the
             analytic time); patch masses inverted from K's upper triangle and the coupled
             solve from K_ff itself (half the instructions)
      0.4.0  (2026-11) threads lent by the program (rg_world_def.worker_count, enqueue_task,
             finish_task): the per-body, per-pair and per-manifold stages split across them, the
             same bits for any worker count; the solver's records stored in the order its sweeps
             visit them; a sticking face's coupled visit solved for four faces at once with SSE2
             (lane groups of faces sharing no moving body), the same bits as one by one; contact
             sweeps stop once stalled from their third sweep
      0.3.0  (2026-11) queries: ray casts (closest and all), sphere casts and overlaps on a tree
             over the shapes' boxes, with filters; casts without a world; contact begin/end
             events with approach speed, per shape pair with hysteresis; sensor events; body
             controls (set type, set mass, damping, gravity scale, axis locks honoured by the
             solver, rg_world_bodies); debug draw (rg_world_draw); a face's friction as one
             resultant on its limit surface (an ellipsoid whose twist lever is the mean distance
             from the centre of pressure under the affine pressure field over the contact
             polygon): a spinning cube stops in the time uniform pressure gives; shock
             propagation solves a body with what rests on it alone as one rigid composite where
             their weight tips it, so that stacks stand or tip as statics says; a face's or an
             edge's colliding points are solved together, so that symmetric impacts stay
             symmetric; a sticking face's normal and friction resultants are solved together
      0.2.0  (2026-11) shapes: spheres, capsules and placed hulls, several per body, with exact
             mass properties; static triangle meshes with a bounding-volume hierarchy and
             internal edges; collision filters; per-shape materials; dimensionless rolling
             and spinning friction; rg_collide_shapes, rg_collide_triangle
      0.1.0  (2026-11) convex hulls from boxes, faces or point clouds (quickhull) with Mirtich's
             mass properties; contact manifolds by separating axes with witnesses and feature
             ids; incremental sort-and-sweep; Bender & Schmitt's impulses with friction,
             Guendelman's sequencing and shock propagation, warm starting, speculative
             contacts, the first-order pass; bit-identical results across gcc, clang, tcc, g++
*/

#ifndef RIGID_H_INCLUDED
#define RIGID_H_INCLUDED

#define RIGID_VERSION_MAJOR 0
#define RIGID_VERSION_MINOR 4
#define RIGID_VERSION_PATCH 1
#define RIGID_VERSION_STRING "0.4.1"

#include <stddef.h>
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
   slot ends 4 bytes above an 8-byte boundary (tests/programs/tcc_struct_args.c). Aligning x to 8
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
typedef struct rg_shape_id { uint32_t index, generation; } rg_shape_id;  /* generation 0 = null */
typedef enum rg_shape_type { RG_SHAPE_HULL, RG_SHAPE_SPHERE, RG_SHAPE_CAPSULE, RG_SHAPE_MESH } rg_shape_type;
typedef struct rg_mesh rg_mesh;   /* opaque, immutable, shareable: a triangle mesh for static level geometry */

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

/* Convex hull of a point cloud (quickhull). The hull's vertices are input points, numbered in
   input order; coplanar faces are merged into convex polygons. Tolerances are relative to
   s = max|x| + max|y| + max|z| over the points: points within 8 FLT_EPSILON s (64 DBL_EPSILON s
   with RIGID_DOUBLE) of a hull vertex are welded into it, and points within that distance of a
   face plane may be left out. NULL and RG_ERR_INVALID_ARGUMENT for NULL points, count < 0, NaN,
   infinities or absurd coordinates (beyond 1e15); RG_ERR_DEGENERATE for count < 4 or points
   without volume (all equal, collinear or coplanar within the tolerance). */
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

/* Contact manifold of two posed hulls within margin; returns out->count. pos_* is the world
   position of the hull frame's origin (as rg_body_position), rot_* its orientation (need not
   be normalised). The normal is unit and points from B towards A; the points lie on the
   surface of B and point - depth*normal on A; at most 4 points, the deepest first.
   features[i] identifies the features that made point i (reference face, incident face,
   clipping edge, or two edges) and stays the same while those features touch.
   Method: separating axes over both hulls' face normals and the cross products of the edge
   pairs that form faces of the Minkowski difference (Gauss-map test); a face axis gives the
   incident face clipped against the reference face (up to 4 points), an edge axis the closest
   points of the two edges (1 point). Faces are preferred to edges, and faces of B to faces of
   A, when their separation is within 0.5% of the depth plus 0.1% of the smaller hull's radius
   of the best axis, so the reported depth can differ from the exact minimum overlap by that.
   A face within 2 degrees of the best axis, an edge pair's, is taken too when its clipped
   points reach that depth (within 0.5% and rounding): faces nearly parallel that overlap in
   part, such as a box lying across the edge of a plate, touch over an area, not at a point.
   Count 0 when separated by more than margin (or for NULL hulls, non-finite poses, positions
   beyond 1e15, NULL out).
   Hulls apart by less than margin get the points where the closest features face each other
   on both surfaces, with depth = -gap; rarely (corner to corner) there is no such point and
   the count is 0. A negative or NaN margin counts as 0. */
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

/* A convex shape without a world, for rg_collide_shapes and rg_collide_triangle: a hull posed
   like rg_collide_hulls', a sphere (center_a, radius) or a capsule (the segment center_a to
   center_b swept by radius), in world space. */
typedef struct rg_convex_shape {
    rg_shape_type type;           /* RG_SHAPE_HULL, RG_SHAPE_SPHERE or RG_SHAPE_CAPSULE */
    const rg_hull *hull;          /* hull */
    rg_vec3 position;             /* hull: the hull frame's origin */
    rg_quat orientation;          /* hull (need not be normalised) */
    rg_vec3 center_a, center_b;   /* sphere: center_a; capsule: the segment's ends */
    rg_real radius;               /* sphere and capsule, > 0 */
} rg_convex_shape;

/* Contact manifold of two convex shapes within margin, with rg_collide_hulls' conventions
   (normal from B towards A, points on B's surface, depth > 0 overlapping); returns out->count.
   Spheres and capsules take the closest points of their centres and segments; a capsule lying
   on a face or along a capsule gives two points. Count 0 for an invalid shape (NULL hull, a
   radius <= 0, non-finite values) or NULL out. */
RIGID_API int rg_collide_shapes(const rg_convex_shape *a, const rg_convex_shape *b, rg_real margin,
                                rg_manifold *out);
/* Contact manifold of a convex shape (A) and one one-sided triangle (B, corners counter-clockwise
   seen from its front; only the front collides): the normal points from the triangle towards A.
   Bit k of active_edges marks the edge from corner k to corner k + 1 as active; a contact on an
   inactive edge or on a corner between inactive edges takes the triangle's normal (a mesh marks
   the edges shared by triangles meeting flat or concave inactive: rg_mesh_create). Count 0 for
   an invalid shape, a degenerate triangle, a shape whose centre lies behind the triangle, or
   NULL out. */
RIGID_API int rg_collide_triangle(const rg_convex_shape *a, const rg_vec3 triangle[3], unsigned active_edges,
                                  rg_real margin, rg_manifold *out);

/* ---------------------------------------------------------------------------------------------
   Casts without a world
   A cast follows origin + t translation for t in [0, 1]. A ray reports where it first enters a
   shape; a sphere cast where a sphere of `radius` centred on the cast first touches the shape.
   Each returns 1 and fills *out (else 0 with *out zeroed): the fraction t, the point on the
   shape's surface (a sphere cast: the point of touch) and the shape's unit surface normal there,
   facing against the cast. A ray starting inside a shape does not hit it. A sphere starting
   overlapping or touching a shape hits at fraction 0, with the shape's surface point closest to
   its centre and the normal there (a centre inside a hull: the face it is least deep behind), as
   Box2D v3 reports initial overlap. Triangles and meshes are hit from their front only (corners
   counter-clockwise seen from it): a sphere touches them only with its centre in front of the
   plane. 0 for NULL, NaN, infinite or absurd (beyond 1e15) input, a zero translation, a
   radius <= 0, an invalid shape or a degenerate triangle.
   ------------------------------------------------------------------------------------------- */

typedef struct rg_cast_output {
    rg_vec3 point;                /* on the shape's surface, world */
    rg_vec3 normal;               /* unit, the shape's surface normal at point */
    rg_real fraction;             /* in [0, 1]: the ray or the sphere's centre is then at
                                     origin + fraction * translation */
} rg_cast_output;

RIGID_API int rg_ray_cast_convex(const rg_convex_shape *s, rg_vec3 origin, rg_vec3 translation, rg_cast_output *out);
RIGID_API int rg_sphere_cast_convex(const rg_convex_shape *s, rg_vec3 origin, rg_real radius, rg_vec3 translation,
                                    rg_cast_output *out);
RIGID_API int rg_ray_cast_triangle(const rg_vec3 triangle[3], rg_vec3 origin, rg_vec3 translation, rg_cast_output *out);
RIGID_API int rg_sphere_cast_triangle(const rg_vec3 triangle[3], rg_vec3 origin, rg_real radius, rg_vec3 translation,
                                      rg_cast_output *out);
/* A mesh placed at position, orientation (need not be normalised): its closest front-side hit,
   the kept triangle's index (as rg_mesh_triangle numbers them) in *triangle (may be NULL); equal
   fractions go to the lowest index. */
RIGID_API int rg_ray_cast_mesh(const rg_mesh *mesh, rg_vec3 position, rg_quat orientation, rg_vec3 origin,
                               rg_vec3 translation, rg_cast_output *out, int *triangle);
RIGID_API int rg_sphere_cast_mesh(const rg_mesh *mesh, rg_vec3 position, rg_quat orientation, rg_vec3 origin,
                                  rg_real radius, rg_vec3 translation, rg_cast_output *out, int *triangle);

/* ---------------------------------------------------------------------------------------------
   World and bodies
   ------------------------------------------------------------------------------------------- */

/* A stage's work over items [start, end), run by worker `worker` (THREADS in the doc block). */
typedef void rg_task_fn(int start, int end, int worker, void *task_context);

typedef struct rg_world_def {
    rg_vec3 gravity;              /* default (0, -9.81, 0) */
    int     collision_iterations; /* cap on the collision loop */
    int     contact_iterations;   /* cap on the resting-contact loop */
    int     shock_iterations;     /* shock propagation: each level swept until converged, at most 5 x this; 0 turns it off */
    rg_real contact_tolerance;    /* allowed penetration after a step, metres */
    void   *allocator_context;
    rg_real contact_margin;       /* speculative distance at which contacts are made, metres */
    uint32_t random_seed;         /* seeds the deterministic contact-order shuffle */
    int     warm_starting;        /* 1: contact impulses start from last step's where the same
                                     features touch; 0: from zero */
    /* threads the program lends (THREADS in the doc block): with worker_count > 1 and both
       callbacks set, the step's parallel stages go through them; both NULL (the default): every
       stage runs on the calling thread */
    int     worker_count;         /* in [1, 64], default 1 */
    void *(*enqueue_task)(rg_task_fn *task, int item_count, int min_range, void *task_context, void *user_context);
    void  (*finish_task)(void *handle, void *user_context);
    void   *user_task_context;    /* the callbacks' user_context */
    int     cookie;               /* set by rg_world_default_def; catches hand-zeroed defs */
} rg_world_def;

RIGID_API rg_world_def rg_world_default_def(void);
/* NULL and RG_ERR_INVALID_ARGUMENT for a def that did not come from rg_world_default_def, NaN,
   infinite or absurd (beyond 1e15) gravity, margin or tolerance, negative margin or tolerance,
   iteration counts outside [0, 1000000], worker_count outside [1, 64], or exactly one of
   enqueue_task and finish_task NULL. */
RIGID_API rg_world *rg_world_create(const rg_world_def *def, rg_result *result);
RIGID_API void      rg_world_destroy(rg_world *w);
/* One step of dt seconds. dt <= 0, above 1 s (clamp frame times), NaN or infinite:
   RG_ERR_INVALID_ARGUMENT, nothing moves. */
RIGID_API rg_result rg_world_step(rg_world *w, rg_real dt);
RIGID_API rg_result rg_world_set_gravity(rg_world *w, rg_vec3 gravity); /* components beyond 1e15: refused */
RIGID_API rg_vec3   rg_world_gravity(const rg_world *w);

typedef struct rg_body_def {
    rg_body_type   type;              /* default RG_BODY_DYNAMIC */
    const rg_hull *hull;              /* optional: the body's first shape, at the frame's origin */
    rg_vec3 position;                 /* world position of the body frame's origin */
    rg_quat orientation;              /* default identity */
    rg_vec3 linear_velocity;          /* of the centre of mass */
    rg_vec3 angular_velocity;         /* world frame, radians per second */
    rg_real density;                  /* default 1000 kg/m^3: the hull shape's */
    rg_real mass;                     /* > 0 fixes the body's mass: its shapes' densities scale to match */
    rg_real restitution;              /* default 0; the hull shape's: a pair uses the smaller of the two */
    rg_real static_friction;          /* default 0.6; the hull shape's: a pair uses the larger of the two */
    rg_real dynamic_friction;         /* default 0.5; the hull shape's: a pair uses the larger of the two */
    rg_real rolling_friction;         /* default 0; as rg_shape_def.rolling_friction */
    rg_real spinning_friction;        /* default 0; as rg_shape_def.spinning_friction */
    void   *user_data;
    rg_real linear_damping;           /* default 0, per second: v *= 1 / (1 + h c) each step */
    rg_real angular_damping;          /* default 0, per second: w *= 1 / (1 + h c) each step */
    rg_real gravity_scale;            /* default 1: the body falls with gravity times this */
    uint32_t locks;                   /* default 0; RG_LOCK_* flags: those velocity components stay
                                         zero (world axes; see "Body controls") */
} rg_body_def;

RIGID_API rg_body_def rg_body_default_def(void);
/* Null id and a result on failure: NULL world, NaN/infinite values, negative density or mass,
   restitution outside [0, 1], negative friction or damping, lock bits other than RG_LOCK_*, an
   all-zero orientation, absurd values (beyond 1e15 in absolute value), mass properties that
   overflow rg_real, or velocities whose kinetic energy exceeds 1e30. All RG_ERR_INVALID_ARGUMENT. */
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
   Body controls
   A body's type, mass, damping, gravity scale and axis locks can change while it lives; it keeps
   its id, and the change takes effect at the next step. Each setter returns
   RG_ERR_INVALID_ARGUMENT for a NULL world or bad values (NaN, infinities, beyond 1e15, negative
   mass or damping, an unknown type or lock bit) and RG_ERR_STALE_ID for a null or stale id;
   nothing changes on failure.
   Locks hold a dynamic body's velocity components along and about the world axes at zero: the
   solver gives the body no mass to move along a locked axis and no inertia to turn about one
   (its world inverse inertia, rg_body_inverse_inertia, is the inverse of the inertia restricted
   to the free axes, zero on the locked ones), so contacts and impulses never move it there. A
   character locked about x and z never tips over; locking z keeps a body in its plane.
   ------------------------------------------------------------------------------------------- */

enum { RG_LOCK_LINEAR_X = 1, RG_LOCK_LINEAR_Y = 2, RG_LOCK_LINEAR_Z = 4,
       RG_LOCK_ANGULAR_X = 8, RG_LOCK_ANGULAR_Y = 16, RG_LOCK_ANGULAR_Z = 32 };

/* Static: velocities zero, it stays where it is. Kinematic: moves by its velocities, pushes
   dynamic bodies without being pushed. Dynamic: the shapes' mass (or the fixed mass) again. A body
   with a mesh shape cannot become dynamic (RG_ERR_INVALID_ARGUMENT), nor one whose shapes give no
   usable mass. Contacts of the body start over; its velocities are kept except for static. */
RIGID_API rg_result rg_body_set_type(rg_world *w, rg_body_id id, rg_body_type type);
/* > 0 fixes the mass, the inertia scaled to match (the shapes' densities scaled together, as
   rg_body_def.mass); 0 returns to the shapes' densities. Static and kinematic bodies keep it for
   when they become dynamic. A body without a shape of mass stays 1 kg. */
RIGID_API rg_result rg_body_set_mass(rg_world *w, rg_body_id id, rg_real mass);
RIGID_API rg_result rg_body_set_damping(rg_world *w, rg_body_id id, rg_real linear, rg_real angular);
RIGID_API rg_result rg_body_set_gravity_scale(rg_world *w, rg_body_id id, rg_real scale);
/* The locked components of the body's velocities become zero at once. */
RIGID_API rg_result rg_body_set_locks(rg_world *w, rg_body_id id, uint32_t locks);
/* Getters: 0 for a NULL world or a stale id (gravity scale too). */
RIGID_API rg_real  rg_body_linear_damping(const rg_world *w, rg_body_id id);
RIGID_API rg_real  rg_body_angular_damping(const rg_world *w, rg_body_id id);
RIGID_API rg_real  rg_body_gravity_scale(const rg_world *w, rg_body_id id);
RIGID_API uint32_t rg_body_locks(const rg_world *w, rg_body_id id);
RIGID_API rg_real  rg_body_fixed_mass(const rg_world *w, rg_body_id id);  /* the mass set_mass fixed, 0 for none */
/* Every live body, in ascending index: writes at most `capacity` ids and returns the total (0 for
   a NULL world; out NULL or capacity <= 0 only counts). */
RIGID_API int      rg_world_bodies(const rg_world *w, rg_body_id *out, int capacity);

/* ---------------------------------------------------------------------------------------------
   Shapes
   A body holds one or more shapes placed in its frame (the frame whose origin is
   rg_body_position); rg_body_def.hull, when set, is its first shape. Its mass, centre of mass
   and inertia are the sum of its shapes' (each at its density), recomputed when a shape is added
   or destroyed, unless rg_body_def.mass fixes the mass. A dynamic body without a shape of mass
   moves as 1 kg with the inertia of a solid sphere of radius 0.5 m. Adding or destroying a
   shape keeps the motion of the body's points.
   Two shapes make contacts when their bodies may collide (at least one dynamic) and their
   filters allow it: the same non-zero group decides (positive: yes, negative: no); otherwise
   (a.category_bits & b.mask_bits) != 0 && (b.category_bits & a.mask_bits) != 0. Materials of a
   pair mix as bodies' do: restitution the smaller, frictions the larger.
   ------------------------------------------------------------------------------------------- */

typedef struct rg_shape_def {
    rg_real  density;             /* default 1000 kg/m^3 */
    rg_real  restitution;         /* default 0 */
    rg_real  static_friction;     /* default 0.6 */
    rg_real  dynamic_friction;    /* default 0.5 */
    rg_real  rolling_friction;    /* default 0; the pair's larger coefficient times its normal force
                                     times its rolling radius (the larger sphere or capsule radius;
                                     between hulls the smaller one's extent) resists rolling: a ball
                                     slows at 5/7 mu_r g */
    rg_real  spinning_friction;   /* default 0; the same about the normal, for spinning */
    uint32_t category_bits;       /* default 1: the categories this shape belongs to */
    uint32_t mask_bits;           /* default 0xFFFFFFFF: the categories it collides with */
    int32_t  group;               /* default 0; shapes of one positive group always collide, of one
                                     negative group never; 0 or different groups: the bits decide */
    int      is_sensor;           /* default 0: 1 = no mass, no contact response */
    void    *user_data;           /* default NULL */
    int      cookie;              /* set by rg_shape_default_def */
} rg_shape_def;
RIGID_API rg_shape_def rg_shape_default_def(void);

/* Null id and RG_ERR_INVALID_ARGUMENT for a NULL world or def, a def not from
   rg_shape_default_def, NaN, infinite or absurd (beyond 1e15) values, a radius <= 0, negative
   density or friction, restitution outside [0, 1], a mesh on a dynamic body; RG_ERR_STALE_ID for
   a stale body. Nothing changes on failure. */
RIGID_API rg_shape_id rg_body_add_sphere(rg_world *w, rg_body_id body, const rg_shape_def *def,
                                         rg_vec3 center, rg_real radius, rg_result *result);
RIGID_API rg_shape_id rg_body_add_capsule(rg_world *w, rg_body_id body, const rg_shape_def *def,
                                          rg_vec3 center_a, rg_vec3 center_b, rg_real radius,
                                          rg_result *result);
RIGID_API rg_shape_id rg_body_add_hull(rg_world *w, rg_body_id body, const rg_shape_def *def,
                                       const rg_hull *hull, rg_vec3 position, rg_quat orientation,
                                       rg_result *result);
/* Static or kinematic bodies only; the mesh must outlive the shape. */
RIGID_API rg_shape_id rg_body_add_mesh(rg_world *w, rg_body_id body, const rg_shape_def *def,
                                       const rg_mesh *mesh, rg_result *result);
RIGID_API rg_result     rg_shape_destroy(rg_world *w, rg_shape_id shape);
RIGID_API int           rg_shape_is_valid(const rg_world *w, rg_shape_id shape);
RIGID_API rg_shape_type rg_shape_get_type(const rg_world *w, rg_shape_id shape);
RIGID_API rg_body_id    rg_shape_body(const rg_world *w, rg_shape_id shape);
RIGID_API void         *rg_shape_user_data(const rg_world *w, rg_shape_id shape);
RIGID_API int           rg_shape_is_sensor(const rg_world *w, rg_shape_id shape);
RIGID_API rg_result     rg_shape_set_filter(rg_world *w, rg_shape_id shape, uint32_t category_bits,
                                            uint32_t mask_bits, int32_t group);
/* The shape's geometry in its body's frame; each returns 0 (and writes nothing) for a stale id or
   another type. */
RIGID_API int rg_shape_get_sphere(const rg_world *w, rg_shape_id shape, rg_vec3 *center, rg_real *radius);
RIGID_API int rg_shape_get_capsule(const rg_world *w, rg_shape_id shape, rg_vec3 *center_a, rg_vec3 *center_b,
                                   rg_real *radius);
RIGID_API const rg_hull *rg_shape_get_hull(const rg_world *w, rg_shape_id shape, rg_vec3 *position,
                                           rg_quat *orientation);
RIGID_API const rg_mesh *rg_shape_get_mesh(const rg_world *w, rg_shape_id shape);
RIGID_API void rg_shape_aabb(const rg_world *w, rg_shape_id shape, rg_vec3 *min, rg_vec3 *max); /* world, last step */
/* The body's shapes in the order they were added: writes at most capacity, returns the total. */
RIGID_API int  rg_body_shapes(const rg_world *w, rg_body_id body, rg_shape_id *out, int capacity);

/* ---------------------------------------------------------------------------------------------
   Triangle meshes
   Static level geometry: vertices and triangles (three indices each, counter-clockwise seen
   from the side that collides; the back side does not collide). Degenerate triangles are
   dropped. A bounding-volume hierarchy over the triangles lets a body test only the triangles
   near it; edges shared by two triangles that meet flat or concave are internal and never
   give a contact normal of their own, so bodies slide across seams without snagging.
   ------------------------------------------------------------------------------------------- */

/* NULL and RG_ERR_INVALID_ARGUMENT for NULL arrays, counts <= 0, an index out of range, NaN,
   infinite or absurd coordinates (beyond 1e15); RG_ERR_DEGENERATE when no triangle has an
   area. A triangle is dropped when two of its indices are equal or its height is within its
   coordinates' rounding (4 epsilon of its largest coordinate magnitude). Vertices at the same
   position count as one when edges are matched, so tiles that repeat their border vertices
   join. The kept triangles are numbered in the hierarchy's order, not the input's;
   rg_mesh_triangle gives each one's input vertex indices. */
RIGID_API rg_mesh *rg_mesh_create(const rg_vec3 *vertices, int vertex_count, const int *indices,
                                  int triangle_count, rg_result *result);
RIGID_API void     rg_mesh_destroy(rg_mesh *mesh);
RIGID_API int      rg_mesh_vertex_count(const rg_mesh *mesh);
RIGID_API int      rg_mesh_triangle_count(const rg_mesh *mesh);     /* kept triangles */
RIGID_API rg_vec3  rg_mesh_vertex(const rg_mesh *mesh, int i);
/* Kept triangle t's vertex indices, counter-clockwise from the front; 0 for a bad t. */
RIGID_API int      rg_mesh_triangle(const rg_mesh *mesh, int t, int indices[3]);
/* Bit k set: the edge from corner k to corner k + 1 of triangle t is active (a boundary, or
   convex by more than 5 degrees); 0 for a bad t. */
RIGID_API unsigned rg_mesh_active_edges(const rg_mesh *mesh, int t);
/* Kept triangle t's unit normal, towards its front; zero for a bad t. */
RIGID_API rg_vec3  rg_mesh_triangle_normal(const rg_mesh *mesh, int t);
/* Kept triangles whose boxes overlap the box [lo, hi] (mesh frame; touching counts), in
   ascending order: writes at most capacity, returns the total; 0 for bad input (NULL mesh, NaN,
   infinite or absurd bounds, capacity < 0, NULL out with capacity > 0). */
RIGID_API int      rg_mesh_query_box(const rg_mesh *mesh, rg_vec3 lo, rg_vec3 hi, int *out, int capacity);

/* ---------------------------------------------------------------------------------------------
   Queries
   ------------------------------------------------------------------------------------------- */

typedef struct rg_query_filter {  /* a plain struct (no cookie): a hand-filled one is taken as it is */
    uint32_t   category_bits;     /* default 1: the query's own categories */
    uint32_t   mask_bits;         /* default 0xFFFFFFFF; a shape is seen when (mask_bits & its category_bits)
                                     and (its mask_bits & category_bits) are both non-zero, as Box2D does */
    rg_body_id ignore_body;       /* default null: this body's shapes are not seen (the shooter) */
    int        include_sensors;   /* default 0 */
} rg_query_filter;
RIGID_API rg_query_filter rg_query_default_filter(void);

typedef struct rg_ray_hit {
    rg_body_id  body;
    rg_shape_id shape;
    rg_vec3     point;            /* world, on the shape's surface (a sphere cast: the point of first touch) */
    rg_vec3     normal;           /* unit surface normal at the point, facing against the ray */
    rg_real     fraction;         /* in [0, 1]; the ray (or the cast sphere's centre) is then at origin + fraction * translation */
} rg_ray_hit;

/* A NULL filter means rg_query_default_filter(). Queries see every shape at its current pose,
   bodies created or moved (rg_body_set_transform) since the last step included; they change
   nothing. A ray that starts inside a shape does not hit it; mesh triangles are hit from their
   front side only. Hits at equal fractions are ordered by shape index. Bad input (NULL world,
   NaN, infinite or absurd vectors beyond 1e15, a zero translation, radius <= 0, capacity < 0,
   NULL out with capacity > 0, min above max) finds nothing: 0, and a hit is zeroed. */
RIGID_API int rg_world_ray_cast(const rg_world *w, rg_vec3 origin, rg_vec3 translation,
                                const rg_query_filter *filter, rg_ray_hit *hit);       /* 1 and the closest hit, else 0 */
/* Every hit along the ray, by fraction: writes the `capacity` closest, returns the total. */
RIGID_API int rg_world_ray_cast_all(const rg_world *w, rg_vec3 origin, rg_vec3 translation,
                                    const rg_query_filter *filter, rg_ray_hit *hits, int capacity);
/* The first touch of a sphere moved from origin by translation; a sphere that starts touching a
   shape hits it at fraction 0, at the shape's point closest to its centre (as Box2D v3 reports
   initial overlap), a mesh only with its centre in front of the triangle. */
RIGID_API int rg_world_sphere_cast(const rg_world *w, rg_vec3 origin, rg_real radius, rg_vec3 translation,
                                   const rg_query_filter *filter, rg_ray_hit *hit);
/* The shapes whose own boxes at their current pose (no margin) overlap [min, max], touching
   included; writes the `capacity` of lowest index, ascending, and returns the total. */
RIGID_API int rg_world_overlap_aabb(const rg_world *w, rg_vec3 min, rg_vec3 max,
                                    const rg_query_filter *filter, rg_shape_id *out, int capacity);
/* The shapes that touch the sphere (distance <= radius; a mesh by any triangle, either side),
   as rg_world_overlap_aabb writes them. */
RIGID_API int rg_world_overlap_sphere(const rg_world *w, rg_vec3 center, rg_real radius,
                                      const rg_query_filter *filter, rg_shape_id *out, int capacity);

/* ---------------------------------------------------------------------------------------------
   Events
   What changed in the last step, read after rg_world_step (no callbacks during the step). The
   arrays belong to the world and stay valid until the next rg_world_step or until a body, shape
   or joint is created or destroyed. Both kinds are sorted by their pair's shape indices (shape_a,
   then shape_b; sensor, then visitor), so the same calls give the same events in the same order.
   Contacts: a pair of shapes touches when its deepest point at the end of the step overlaps or
   lies within contact_tolerance (a speculative contact farther apart does not count), and stops
   touching when every point lies more than 2 tolerances apart or the pair leaves the narrow
   phase: a resting or rolling body gives one begin and no end. Per pair of shapes: a convex
   shape rolling across the triangles of one mesh gives one begin for the (shape, mesh) pair.
   A pair that ends because a shape or body was destroyed is reported in the next step's end
   events. Sensors (rg_shape_def.is_sensor) see the non-sensor shapes of dynamic and kinematic
   bodies that their filters let through (not static bodies, not other sensors, not their own
   body), make no contacts and appear in no contact list or contact event; a sensor and a
   visitor overlap when their shapes touch or overlap at the end of the step. A mesh sensor is a
   surface: it sees shapes touching its triangles' fronts, not shapes inside a closed mesh.
   ------------------------------------------------------------------------------------------- */

typedef struct rg_contact_begin_event {
    rg_shape_id shape_a, shape_b;
    rg_body_id  body_a, body_b;
    rg_vec3     point, normal;    /* world, at the end of the step: the deepest point, on shape b's
                                     surface; normal unit, from b towards a */
    rg_real     approach_speed;   /* relative normal speed when they met, >= 0: at the start of
                                     the step in which they began touching, at their deepest point
                                     then, with what gravity and forces add until the gap there
                                     closes (for sounds and damage) */
} rg_contact_begin_event;
typedef struct rg_contact_end_event { rg_shape_id shape_a, shape_b; rg_body_id body_a, body_b; } rg_contact_end_event;
typedef struct rg_contact_events {
    const rg_contact_begin_event *begin; int begin_count;   /* pairs that started touching */
    const rg_contact_end_event   *end;   int end_count;     /* pairs that stopped touching, or whose shape was destroyed */
} rg_contact_events;
/* The last step's contact events; all zero for a NULL world or before the first step. */
RIGID_API rg_contact_events rg_world_contact_events(const rg_world *w);

typedef struct rg_sensor_event { rg_shape_id sensor, visitor; rg_body_id sensor_body, visitor_body; } rg_sensor_event;
typedef struct rg_sensor_events {
    const rg_sensor_event *begin; int begin_count;          /* shapes that started overlapping a sensor */
    const rg_sensor_event *end;   int end_count;            /* that stopped, or whose shape was destroyed */
} rg_sensor_events;
/* The last step's sensor events; all zero for a NULL world or before the first step. */
RIGID_API rg_sensor_events rg_world_sensor_events(const rg_world *w);

/* ---------------------------------------------------------------------------------------------
   Joints
   A joint holds body a to body b, or to the world when body_b is null. Ball (with its cone
   limit), distance, fixed, hinge and slider joints are solved, by impulses in the contact sweeps
   (and in the collision sweeps where an impact bounces) and then level by level from what holds
   them, their drift removed by moving the bodies (>>joint's "solving"); joints do not yet join
   the contacts' levels or first-order pass, and nets of joints (many loops) whose bodies strike
   each other are not stable yet. Its anchors and axis are given in world space at creation and
   kept in the bodies' frames (the world's for a null body_b): the joint holds the bodies as
   they were placed then. A joint's coordinate (rg_joint_position, limits, motor_speed) is the
   motion of body a relative to body b: the hinge angle right-handed about the axis carried by
   b, continuous (it counts whole turns, no wrap at pi: it is unwrapped at the end of every
   step, so a hinge must turn less than half a turn between two steps); the slider's
   translation of a's anchor from b's along the axis carried by b; the distance joint's length
   between its anchors. Ball and fixed joints have position 0. A ball joint's cone angle is the
   angle between the axis carried by a and the axis carried by b (equal at creation).
   Either body may be static or kinematic; at least one of them is dynamic at creation. A joint
   is destroyed with either of its bodies. With collide_connected 0 the two bodies' shapes make
   no contacts from the joint's creation (sensors still see them); when the joint is destroyed,
   their contacts come back at the next step.
   ------------------------------------------------------------------------------------------- */

typedef struct rg_joint_id { uint32_t index, generation; } rg_joint_id;  /* generation 0 = null */
typedef enum rg_joint_type {
    RG_JOINT_BALL,      /* a point of a and a point of b stay together (Ermolin & Kazakov's point-point) */
    RG_JOINT_HINGE,     /* ball + rotation only about the axis */
    RG_JOINT_SLIDER,    /* translation only along the axis, no rotation */
    RG_JOINT_FIXED,     /* no relative motion (weld) */
    RG_JOINT_DISTANCE   /* the distance between anchor_a and anchor_b within [lower, upper] (rope, rod) */
} rg_joint_type;

typedef struct rg_joint_def {
    rg_joint_type type;           /* default RG_JOINT_BALL */
    rg_body_id body_a, body_b;    /* body_b null: joined to the world */
    rg_vec3  anchor_a;            /* world point at creation where the joint holds (on a, for distance) */
    rg_vec3  anchor_b;            /* distance joints: the point on b, world, at creation */
    rg_vec3  axis;                /* world direction at creation: hinge and slider axis, ball's cone
                                     axis; default (0, 0, 1); need not be unit */
    int      enable_limit;        /* default 0 */
    rg_real  lower, upper;        /* hinge: angles (rad) from the pose at creation; slider: metres;
                                     ball: upper is the cone's half angle; distance: lengths, always
                                     in force (enable_limit is not used), a negative value meaning
                                     the length at creation (the default def sets both to -1) */
    int      enable_motor;        /* default 0; hinge and slider */
    rg_real  motor_speed;         /* rad/s or m/s */
    rg_real  max_motor_force;     /* N m or N, >= 0 */
    int      collide_connected;   /* default 0: the joined bodies' shapes make no contacts */
    void    *user_data;
    int      cookie;              /* set by rg_joint_default_def */
} rg_joint_def;
RIGID_API rg_joint_def rg_joint_default_def(void);

/* Null id and RG_ERR_INVALID_ARGUMENT, nothing created, for: a NULL world or def, a def not from
   rg_joint_default_def, an unknown type, NaN, infinite or absurd (beyond 1e15) anchors, axis,
   limits, motor speed or force; a zero axis where the type reads it (hinge, slider, ball with
   enable_limit); a null body_a (both bodies null included), the same body twice, no dynamic
   body; enable_limit with lower > upper (ball: upper < 0; distance, always: the lengths with
   negatives replaced by the length at creation); a negative max_motor_force; enable_limit on a
   fixed joint or enable_motor on a ball, fixed or distance joint. RG_ERR_STALE_ID for a
   destroyed body in the def. */
RIGID_API rg_joint_id rg_joint_create(rg_world *w, const rg_joint_def *def, rg_result *result);
/* Also done when a joined body is destroyed. RG_ERR_INVALID_ARGUMENT for a NULL world,
   RG_ERR_STALE_ID for a null or stale id. */
RIGID_API rg_result   rg_joint_destroy(rg_world *w, rg_joint_id id);
RIGID_API int         rg_joint_is_valid(const rg_world *w, rg_joint_id id);   /* 0 for null, destroyed or stale ids */

/* Getters: all-zero values for a NULL world or a null, destroyed or stale id. */
RIGID_API rg_joint_type rg_joint_get_type(const rg_world *w, rg_joint_id id);
RIGID_API rg_body_id  rg_joint_body_a(const rg_world *w, rg_joint_id id);
RIGID_API rg_body_id  rg_joint_body_b(const rg_world *w, rg_joint_id id);      /* null: the world */
RIGID_API rg_vec3     rg_joint_anchor_a(const rg_world *w, rg_joint_id id);    /* world, carried by a now */
RIGID_API rg_vec3     rg_joint_anchor_b(const rg_world *w, rg_joint_id id);    /* world, carried by b now */
RIGID_API rg_vec3     rg_joint_axis(const rg_world *w, rg_joint_id id);        /* unit, world, carried by b now; zero if none was given */
RIGID_API rg_vec3     rg_joint_reaction_force(const rg_world *w, rg_joint_id id);   /* on body a in the last step, N */
RIGID_API rg_vec3     rg_joint_reaction_torque(const rg_world *w, rg_joint_id id);  /* on body a about its anchor, N m */
RIGID_API rg_real     rg_joint_position(const rg_world *w, rg_joint_id id);        /* hinge angle, slider translation, distance length */
/* Writes the limits (distance: the lengths in force) to lower and upper (either may be NULL);
   returns enable_limit (1 for distance joints, 0 for fixed ones). */
RIGID_API int         rg_joint_limits(const rg_world *w, rg_joint_id id, rg_real *lower, rg_real *upper);
/* Writes the motor's speed and largest force (either may be NULL); returns enable_motor. */
RIGID_API int         rg_joint_motor(const rg_world *w, rg_joint_id id, rg_real *speed, rg_real *max_force);
RIGID_API int         rg_joint_collide_connected(const rg_world *w, rg_joint_id id);
RIGID_API void       *rg_joint_user_data(const rg_world *w, rg_joint_id id);
/* Setters: RG_ERR_INVALID_ARGUMENT for a NULL world, RG_ERR_STALE_ID for a null or stale id,
   RG_ERR_INVALID_ARGUMENT for values as rg_joint_create refuses them (NaN, infinities, beyond
   1e15, enable with lower > upper, ball: enable with upper < 0 or a joint made without an axis,
   distance: lower > upper once negatives are the length at creation, enable is not used; a
   negative max_force) and for limits on a fixed joint or a motor on a ball, fixed or distance
   joint; nothing changes on failure. They take effect at the next step. */
RIGID_API rg_result   rg_joint_set_limits(rg_world *w, rg_joint_id id, int enable, rg_real lower, rg_real upper);
RIGID_API rg_result   rg_joint_set_motor(rg_world *w, rg_joint_id id, int enable, rg_real speed, rg_real max_force);
RIGID_API rg_result   rg_joint_set_user_data(rg_world *w, rg_joint_id id, void *user_data);
/* The body's joints (as a or as b), in ascending index: writes at most capacity, returns the
   total (0 for a stale body; out NULL or capacity <= 0 only counts). */
RIGID_API int         rg_body_joints(const rg_world *w, rg_body_id body, rg_joint_id *out, int capacity);
/* Every live joint, in ascending index, as rg_world_bodies. */
RIGID_API int         rg_world_joints(const rg_world *w, rg_joint_id *out, int capacity);

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
    rg_shape_id shape_a, shape_b;
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
    int manifold_reuses;       /* touching pairs whose manifold was carried over: they had not
                                  moved relative to each other since it was computed */
    int broadphase_exchanges;  /* endpoint swaps of the last incremental sort */
    int broadphase_rebuilds;   /* full rebuilds of the sweep since the world was created */
    int shock_iterations;      /* sweeps of shock propagation in the last step, all levels */
    int contact_levels;        /* levels of the contact graph (bodies resting on bodies) */
    /* seconds spent in each phase of the last step; filled only when the implementation was
       compiled with RIGID_PROFILE_CLOCK defined, zero otherwise. seconds_contact covers the
       contact sweeps, seconds_shock shock propagation and the first-order separation after it */
    double seconds_broadphase, seconds_narrowphase, seconds_collision, seconds_contact,
           seconds_shock, seconds_integration;
    double seconds_query;      /* the queries' tree kept current at the step's end (refit, rebuild) */
} rg_world_stats;
RIGID_API rg_world_stats rg_world_get_stats(const rg_world *w);

/* The broad phase's candidate pairs of the last step: bodies whose rg_body_aabb boxes overlap
   (closed intervals, touching boxes count) and of which at least one is dynamic, in ascending
   order of (a.index, b.index) with a.index < b.index. Writes at most capacity pairs to a[i], b[i]
   (either array may be NULL) and returns the total; pairs with a body destroyed since the step
   are left out. 0 for a NULL world. */
RIGID_API int rg_world_pairs(const rg_world *w, rg_body_id *a, rg_body_id *b, int capacity);

/* ---------------------------------------------------------------------------------------------
   Snapshots
   The world's whole state in a buffer: bodies, shapes, joints, ids, free lists and generations,
   velocities, the broad phase's sweep and pairs, the narrow phase's manifolds and witnesses, the
   queries' tree, warm starts, the random state, the last step's stats, contacts and events,
   the physical settings (gravity, iterations, tolerances, seed). Loading it into a world makes
   that world exactly the saved one: the steps after a load give, bit for bit, what the steps
   after the save gave, new bodies, shapes and joints getting the same ids, whatever was created
   or destroyed in between (rollback). Any world of the same build and precision in the same
   process can take it, the one it came from or another; that world keeps its own allocator
   context, worker_count, task callbacks and user_task_context. Hulls, meshes and user data are
   saved as pointers: the hulls and meshes must still exist.
   ------------------------------------------------------------------------------------------- */

/* The bytes rg_world_snapshot_save needs now (it changes as the world does); 0 for NULL. */
RIGID_API size_t    rg_world_snapshot_size(const rg_world *w);
/* Writes the snapshot to buffer. NULL world or buffer, or size below rg_world_snapshot_size:
   RG_ERR_INVALID_ARGUMENT, nothing written. */
RIGID_API rg_result rg_world_snapshot_save(const rg_world *w, void *buffer, size_t size);
/* Makes w the saved world. Refused with RG_ERR_INVALID_ARGUMENT, w untouched: a NULL world or
   buffer, a size below the snapshot's (larger is fine), a snapshot of another format version,
   precision or build (struct layouts), or one whose checksum fails (any byte changed). */
RIGID_API rg_result rg_world_snapshot_load(rg_world *w, const void *buffer, size_t size);

/* ---------------------------------------------------------------------------------------------
   Debug draw
   rg_world_draw hands the world to the program's own renderer: every shape's surface as
   triangles, joints, contacts as points and lines, boxes as lines, through three callbacks. A
   NULL callback is skipped (no triangle callback: no shapes). Order: the shapes (bodies by
   index, each body's shapes in the order added), then the joints (by index), then each
   contact's point, normal and impulse in rg_world_contacts's order, then the boxes (bodies by
   index). The same world draws the same calls, bit for bit.
      Shapes  hulls: each face as a fan of triangles from its first vertex. Spheres and
              capsules: 24 segments around the axis and 6 rings per half sphere, vertices on the
              surface (an inscribed polyhedron: the area is 1.4% below the true one, the volume
              2.8%; a capsule's cylinder 0.3%). Meshes: their triangles, front counter-clockwise.
              Every triangle runs counter-clockwise seen from outside, in world space.
      Colours (0xRRGGBB) by body type: RG_DEBUG_COLOR_STATIC, _KINEMATIC, _DYNAMIC; a sensor
              shape half as bright as its body's colour.
      Contacts (draw_contacts): a point of size point_size at each contact point of the last
              step and a line normal_length long along its normal (from b towards a).
      Impulses (draw_impulses): a line from each contact point along the normal (the push on
              body a), normal_impulse times impulse_scale long: metres per N s of the impulse
              applied in the last step; 0.01 by default: 0.41 m for each of the four corners of a
              1 m cube of 1000 kg at rest, at 60 Hz. Contacts without impulse draw no line.
      Boxes (draw_aabbs): the 12 edges of each body's rg_body_aabb.
      Joints (draw_joints): a point of size point_size at each anchor (rg_joint_anchor_a, _b),
              and lines from body a's centre of mass to its anchor, from there to the anchor
              on b (a distance joint's rope or rod; for the others, how far the joint has
              drifted apart), and from there to body b's centre of mass (none for the world),
              in RG_DEBUG_COLOR_JOINT.
   ------------------------------------------------------------------------------------------- */

#define RG_DEBUG_COLOR_STATIC    0x8C8C8Cu  /* grey */
#define RG_DEBUG_COLOR_KINEMATIC 0x5A8CE6u  /* blue */
#define RG_DEBUG_COLOR_DYNAMIC   0xE6963Cu  /* orange */
#define RG_DEBUG_COLOR_CONTACT   0xF03232u  /* red: contact points */
#define RG_DEBUG_COLOR_NORMAL    0xF0E646u  /* yellow: contact normals */
#define RG_DEBUG_COLOR_IMPULSE   0x46E65Au  /* green: normal impulses */
#define RG_DEBUG_COLOR_AABB      0x46D2E6u  /* cyan: bodies' boxes */
#define RG_DEBUG_COLOR_JOINT     0xC864F0u  /* violet: joints' anchors and arms */

typedef struct rg_debug_draw {
    void (*triangle)(rg_vec3 a, rg_vec3 b, rg_vec3 c, uint32_t rgb, void *context); /* shape surfaces, counter-clockwise from outside */
    void (*line)(rg_vec3 a, rg_vec3 b, uint32_t rgb, void *context);                 /* joints, normals, impulses, boxes */
    void (*point)(rg_vec3 p, rg_real size, uint32_t rgb, void *context);             /* contact points, joint anchors */
    int draw_shapes, draw_joints, draw_contacts, draw_impulses, draw_aabbs;          /* default 1, 1, 0, 0, 0 */
    void *context;                /* handed to every callback; default NULL */
    rg_real point_size;           /* default 0.05: the size handed to point for a contact or an anchor */
    rg_real normal_length;        /* default 0.25: the length of a contact normal's line */
    rg_real impulse_scale;        /* default 0.01: line length per unit of normal impulse */
} rg_debug_draw;   /* a plain struct (no cookie) */
/* Callbacks NULL, every flag at its default, the sizes above. */
RIGID_API rg_debug_draw rg_debug_draw_default(void);
/* Draws the world as the flags ask; a NULL world or draw draws nothing. */
RIGID_API void rg_world_draw(const rg_world *w, const rg_debug_draw *draw);

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
#include <stddef.h>

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
#define rg__fmod fmod
#define rg__fabs fabs
#define rg__atan2 atan2
#else
#define RG__EPSILON FLT_EPSILON
#define RG__REAL_MIN FLT_MIN
#define RG__REAL_MAX FLT_MAX
#define rg__sqrt sqrtf
#define rg__sin sinf
#define rg__cos cosf
#define rg__fmod fmodf
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
    /* Hulls of rg_hull_create_box only (zero for the others): the half extents, and the edge
       along axis k whose corners' other coordinates have the signs of vertex index c (bit i set:
       +h on axis i, bit k clear) as box_edges[k][c]. Faces 2k and 2k + 1 are +axis k and -axis
       k. Box pairs take the 15-axis test in the full search (>>collide). */
    rg_vec3 box_half;
    signed char box_edges[3][8];
};

/* ---- quickhull (only while rg_hull_create runs) ---- */
typedef struct rg__qh_face {      /* a triangle of the hull under construction */
    int v[3];                     /* point indices, counter-clockwise seen from outside */
    int adj[3];                   /* adj[i]: the face across the edge v[i] -> v[i+1] */
    double normal[3];             /* outward unit normal; the plane passes through v[0] */
    double furthest_height;       /* height of `furthest` above the plane */
    int outside;                  /* first point of the outside set (linked by next), -1 none */
    int coplanar;                 /* first point of the coplanar set (linked by next), -1 none */
    int furthest;                 /* the outside point highest above the plane */
    int stamp;                    /* the step whose visibility search last reached the face */
    int visible;                  /* seen from that step's apex */
    int alive;                    /* 0: on the free list */
} rg__qh_face;

typedef struct rg__qh_dd { double hi, lo; } rg__qh_dd;  /* double-double: the value hi + lo */

typedef struct rg__qh_horizon_edge {
    int from, to;                 /* edge of a visible face, counter-clockwise in that face */
    int neighbor;                 /* the face across it, which stays */
} rg__qh_horizon_edge;

typedef struct rg__qh_group {     /* coplanar triangles being merged into one polygon face */
    double area[3];               /* sum of the triangles' area vectors (normal times area) */
    double moment[3];             /* sum of area times centroid */
    double weight;                /* sum of the areas */
    int *vertices;                /* stb_ds: the triangles' corners, repeats allowed */
} rg__qh_group;

typedef struct rg__quickhull {
    const rg_vec3 *points;
    int count;
    double tolerance;             /* outside-set threshold and flatness of merged faces */
    double rounding;              /* bound on the rounding of a computed height */
    int stamp;
    int *next;                    /* stb_ds, per point: the next point of its outside set */
    int *horizon_from;            /* stb_ds, per point: the horizon edge leaving it, -1 none */
    rg__qh_face *faces;           /* stb_ds; dead faces are reused through free_faces */
    int *free_faces, *pending, *search, *visible, *cone, *orphans;  /* stb_ds */
    rg__qh_horizon_edge *horizon, *loop;                            /* stb_ds */
} rg__quickhull;

typedef struct rg__qh_polygons {  /* the finished triangles grouped into polygon faces */
    int *triangles;               /* stb_ds: face slot of each live triangle, in slot order */
    int *triangle_of;             /* stb_ds, per face slot: its triangle, -1 for dead slots */
    int *group;                   /* stb_ds, per triangle: its polygon, named by a triangle */
    int *order;                   /* stb_ds: the polygons, in order of their first boundary edge */
    int *first_half;              /* stb_ds, per polygon: first boundary half-edge (3 t + k) */
    int *half_count;              /* stb_ds, per polygon: number of boundary half-edges */
    int *loop_first, *loop_count; /* stb_ds, per polygon: its boundary loop in `loop` */
    int *invalid;                 /* stb_ds, per polygon: the boundary is not one convex loop */
    int *loop;                    /* stb_ds: the boundary loops (point indices), one after another */
    int *corners;                 /* stb_ds, per point: how many live polygons pass through it */
} rg__qh_polygons;

/* ---- bodies ---- */
typedef struct rg__body {
    uint32_t generation;          /* odd: alive; even: free slot. 0 is never handed out */
    int next_free;                /* free list, -1 ends it */
    rg_body_type type;
    const rg_hull *hull;          /* rg_body_def.hull (also its first shape), or NULL */
    int first_shape;              /* the body's shapes, linked by rg__shape.next; -1 none */
    int shape_count;
    rg_vec3 local_com;            /* centre of mass in the body frame */
    rg_real radius;               /* the farthest point of its shapes from the centre of mass */
    rg_real fixed_mass;           /* > 0: rg_body_def.mass, which overrides the shapes' densities */
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
    /* controls (>>body: rg_body_set_damping, _gravity_scale, _locks) */
    rg_real linear_damping, angular_damping; /* per second: v *= 1 / (1 + h c) each step */
    rg_real gravity_scale;
    uint32_t locks;               /* RG_LOCK_* */
    int joint_list;               /* the body's joints (>>joint): the key 2 joint + side of the first,
                                     in ascending joint index, linked by rg__joint.link; -1 none */
    int joint_count;
} rg__body;

/* ---- shapes ---- */
typedef struct rg__shape {
    uint32_t generation;          /* odd: alive; even: free slot. 0 is never handed out */
    int next_free;                /* free list, -1 ends it */
    int body;                     /* the body's index */
    int next;                     /* the body's next shape (in the order added), -1 ends */
    rg_shape_type type;
    const rg_hull *hull;          /* hulls */
    int placed;                   /* hulls: not at the body frame's origin unturned */
    const rg_mesh *mesh;          /* meshes */
    rg_vec3 position;             /* hulls: the hull frame's origin in the body frame */
    rg_quat orientation;          /* hulls: the hull frame's orientation in the body frame */
    rg_vec3 p0, p1;               /* sphere: centre (p0 = p1); capsule: segment ends; body frame */
    rg_real radius;               /* spheres and capsules */
    rg_real density, restitution, static_friction, dynamic_friction, rolling_friction, spinning_friction;
    uint32_t category_bits, mask_bits;
    int32_t group;
    int is_sensor;
    void *user_data;
    rg_real volume;               /* 0 for meshes */
    rg_vec3 centroid;             /* body frame */
    rg_mat3 unit_inertia;         /* at density 1, about the centroid, body frame axes */
    rg_real extent;               /* the farthest point of the shape from its centroid */
    rg_vec3 aabb_min, aabb_max;   /* world box of the last step */
} rg__shape;

/* ---- joints ---- */
/* A joint's place in one of its bodies' lists (rg__body.joint_list): the keys (2 joint + side,
   side 0 in a's list, 1 in b's) of its neighbours there, -1 at the ends. */
typedef struct rg__joint_link { int prev, next; } rg__joint_link;

typedef struct rg__joint {
    uint32_t generation;          /* odd: alive; even: free slot. 0 is never handed out */
    int next_free;                /* free list, -1 ends it */
    rg_joint_type type;
    int a, b;                     /* body indices; b = -1: the world */
    rg__joint_link link[2];       /* in a's list and in b's */
    /* the def's geometry in each body's frame (the frame of its shapes, whose origin is
       rg_body_position, so that shapes added later move nothing), b's in the world's for the world */
    rg_vec3 local_anchor_a;       /* def.anchor_a on a */
    rg_vec3 local_anchor_b;       /* def.anchor_a on b (distance joints: def.anchor_b) */
    rg_vec3 local_axis_a, local_axis_b; /* def.axis made unit, carried by a and by b; zero if none */
    rg_quat reference;            /* a's orientation relative to b's at creation, conj(q_b) q_a */
    rg_real length;               /* the anchors' distance at creation (a distance joint's negative limits) */
    int enable_limit;             /* 1 for distance joints: their lengths are always in force */
    int enable_motor, collide_connected;
    rg_real lower, upper;         /* as set; distance joints: negatives already the length at creation */
    rg_real motor_speed, max_motor_force;
    void *user_data;
    rg_real angle;                /* hinge: the continuous angle at the end of the last step (rg__joint_step_end) */
    /* The solver's, zero until it runs: impulses on a accumulated by its loops (b takes the
       opposite), carried from step to step for warm starting, and the whole constraint's
       impulse of the last step divided by the step, which the getters report. */
    rg_vec3 linear_impulse;       /* the point rows (ball, with its cone's part; hinge, fixed); a slider's
                                     linear rows, along its axis too (warm-started across it) */
    rg_vec3 angular_impulse;      /* the angular rows (hinge across its axis; slider and fixed all three; the cone) */
    rg_vec3 collision_linear;     /* this step's impulses in the collision loop (rg__joint_collision_end), */
    rg_vec3 collision_angular;    /* ... linear and angular, part of its reaction */
    rg_real axial_impulse;        /* a distance joint's length row; hinge, slider: the upper limit's */
    rg_real limit_impulse;        /* the lower limit's (hinge, slider, the ball's cone, the rope's slack side) */
    rg_real motor_impulse;        /* hinge and slider */
    rg_vec3 reaction_force;       /* on a in the last step, N: rg_joint_reaction_force */
    rg_vec3 reaction_torque;      /* on a about its anchor in the last step, N m: rg_joint_reaction_torque */
} rg__joint;

/* A joint posed at its bodies' current poses (rg__joint_frame_of), for positions, drawing and the solver. */
typedef struct rg__joint_frame {
    rg_vec3 anchor_a, anchor_b;   /* world: the anchors carried by a and by b */
    rg_vec3 arm_a, arm_b;         /* from each body's centre of mass to its anchor (b's zero for the world) */
    rg_vec3 axis_a, axis_b;       /* the axis carried by a and by b, world, unit (zero if none) */
    rg_quat turn;                 /* a's rotation relative to b since creation, in b's frame:
                                     conj(q_b) q_a conj(reference), w >= 0 */
} rg__joint_frame;

/* What a body's shapes add up to (rg__shape_sum_mass). */
typedef struct rg__mass_properties {
    rg_real mass;                 /* 0 for static and kinematic bodies */
    rg_vec3 local_com;            /* body frame */
    rg_mat3 inertia;              /* about the centre of mass, body frame axes */
    rg_real radius;               /* the farthest point of the shapes from the centre of mass */
} rg__mass_properties;

/* ---- meshes ---- */
typedef struct rg__mesh_node {    /* a node of the mesh's bounding-volume hierarchy */
    rg_vec3 lo, hi;               /* box of its triangles */
    int first;                    /* leaf: its first triangle; inner: its first child (the second follows) */
    int count;                    /* leaf: number of triangles (> 0); inner: 0 */
} rg__mesh_node;

struct rg_mesh {
    int vertex_count, triangle_count, node_count;
    rg_vec3 *vertices;
    int *indices;                 /* three per kept triangle, in the hierarchy's leaf order */
    rg_vec3 *normals;             /* per triangle, unit, towards the front */
    unsigned char *active;        /* per triangle: rg__triangle.active */
    rg__mesh_node *nodes;         /* nodes[0] is the root */
    rg_vec3 lo, hi;               /* box of all the triangles */
};

/* A mesh under construction (only while rg_mesh_create runs). Kept triangles are numbered in
   input order until the hierarchy puts them in leaf order. */
typedef struct rg__mesh_builder {
    const rg_vec3 *vertices;      /* the input's */
    int *weld;                    /* stb_ds, per vertex: the lowest index at the same position */
    int *corners;                 /* stb_ds: three input vertex indices per kept triangle */
    double *normals;              /* stb_ds: three components per kept triangle, unit */
    unsigned char *active;        /* stb_ds, per kept triangle: rg__triangle.active */
    int *lower, *upper;           /* stb_ds, per half-edge 3 t + k: its welded corners, sorted */
    int *sorted, *scratch, *counts; /* stb_ds: sort output, sort scratch, counting-sort counters */
    rg_vec3 *lo, *hi, *center;    /* stb_ds, per kept triangle: its box and the box's centre */
    int *order;                   /* stb_ds: kept triangles in the hierarchy's leaf order */
    rg__mesh_node *nodes;         /* stb_ds: the hierarchy, nodes[0] the root */
} rg__mesh_builder;

/* ---- collide ---- */
typedef rg_witness rg__witness;

/* A convex shape posed for one collision (>>collide.round): a hull in its frame, a sphere (a
   point swept by a radius) or a capsule (a segment swept by a radius). */
typedef struct rg__convex {
    rg_shape_type type;           /* RG_SHAPE_HULL, RG_SHAPE_SPHERE or RG_SHAPE_CAPSULE */
    const rg_hull *hull;          /* hulls: the hull, posed by position and rotation */
    rg_vec3 position;             /* hulls: the hull frame's origin */
    rg_quat rotation;             /* hulls: unit */
    rg_vec3 p0, p1;               /* sphere: the centre (p0 = p1); capsule: the segment's ends */
    rg_real radius;               /* spheres and capsules, > 0; 0 for hulls */
} rg__convex;

/* One triangle of a mesh as a collision takes it (>>collide.triangle): one-sided, its front the
   side its corners run counter-clockwise. An edge is active when it is on the mesh's boundary or
   its two triangles meet convex by more than RG__MESH_ACTIVE_COSINE; only an active edge, or a
   corner with an active edge, gives a contact normal of its own. */
typedef struct rg__triangle {
    rg_vec3 v[3];                 /* corners, counter-clockwise seen from the front */
    rg_vec3 normal;               /* unit, towards the front */
    unsigned active;              /* bit k: edge k, from v[k] to v[(k + 1) % 3], is active */
} rg__triangle;
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

typedef struct rg__collide_scratch { /* stb_ds arrays reused for hulls too big for the stack */
    rg_vec3 *vectors;
    rg_real *reals;
    rg__clip_vertex *clip;
} rg__collide_scratch;

/* ---- casts ---- */
/* The first touch of a ray or a moving sphere (>>cast): the cast is then at origin + fraction *
   translation; point on the shape's surface, normal the shape's unit surface normal there. */
typedef struct rg__cast_hit { rg_real fraction; rg_vec3 point, normal; } rg__cast_hit;

/* ---- broad phase ---- */
typedef struct rg__body_pair { int a, b; } rg__body_pair;  /* body indices, a < b */

/* One end of a body's interval on one axis of the sweep:
   tag = 8 * body + 4 * static + 2 * dynamic + is_end. */
typedef struct rg__sap_endpoint {
    rg_real value;
    int tag;
#ifdef RIGID_DOUBLE
    int zero;                     /* 0: no padding, whose stale bytes >>snapshot would copy */
#endif
} rg__sap_endpoint;

typedef struct rg__sap_box { rg_real lo[3], hi[3]; } rg__sap_box;

/* A body's box in this update and before it (equal if it did not move), side by side: an
   exchange reads one or the other of a neighbour whose endpoint the pass has just refreshed.
   These are the sweep's boxes, fattened (rg__broadphase_compute_box); the pairs handed on are those
   whose tight boxes overlap too. */
typedef struct rg__sap_bounds { rg__sap_box now, before; } rg__sap_bounds;

/* What the sweep knows of one body slot, indexed like rg_world.bodies. */
typedef struct rg__sap_proxy {
    int mover;                    /* slot in rg__broadphase.movers; -1 for static bodies */
    unsigned char state;          /* RG__SAP_FREE, _PENDING, _IN_SWEEP or _REMOVED */
    unsigned char dynamic;        /* pairs need at least one dynamic body */
    unsigned char dirty;          /* static body moved by rg_body_set_transform */
} rg__sap_proxy;

/* key (a << 32) | b; value 1, 64 bits so that the entry has no padding (>>snapshot copies it) */
typedef struct rg__pair_entry { uint64_t key; uint64_t value; } rg__pair_entry;

typedef struct rg__broadphase {
    rg__body_pair *pairs;         /* stb_ds array: the pairs whose tight boxes overlap, ascending (a, b) */
    rg__body_pair *fat_pairs;     /* stb_ds array: the pairs whose sweep boxes overlap, ascending (a, b) */
    rg__pair_entry *pair_set;     /* stb_ds hash map: fat_pairs, by key */
    rg__sap_endpoint *axes[3];    /* stb_ds arrays: endpoints sorted by (value, begin before end) */
    rg__sap_bounds *bounds;       /* per body slot: the sweep's (fat) boxes */
    rg__sap_box *tight;           /* per body slot: the body's box, as rg_body_aabb reports it */
    rg__sap_proxy *proxies;       /* per body slot */
    int *movers;                  /* kinematic and dynamic bodies in the sweep */
    int *pending;                 /* bodies created since the last update, not yet in the sweep */
    int *dirty_statics;           /* static bodies moved since the last update */
    int *removed;                 /* destroyed bodies still in the arrays */
    uint64_t *touched;            /* keys inserted into or deleted from pair_set in this update */
    uint64_t *key_scratch;        /* scratch arrays of the sorts, merges and sweeps */
    uint64_t *radix_keys, *radix_scratch;
    rg__sap_endpoint *endpoint_scratch;
    rg__body_pair *pair_scratch;
    rg__sap_box *sweep_boxes;     /* rebuild: the boxes of each slab in sweep order */
    int *sweep_tags, *slab_start;
    rg__sap_endpoint *extents;
    int live_bodies;              /* bodies in the sweep */
    int64_t exchanges;            /* endpoint exchanges of this update */
    int64_t rebuild_work;         /* box tests of the last rebuild's sweep: part of its cost */
    int built;                    /* the arrays hold a sweep (0 before the first update) */
    int gave_up;                  /* the last update's pass exceeded its budget */
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
    int shape_a, shape_b;         /* shape indices, on a and on b */
    int triangle;                 /* the mesh's triangle, or -1 */
    int child;                    /* its shape pair's place in the body pair's cache */
    rg_vec3 normal;
    int count;
    int previous;                 /* this pair's manifold of the last step in rg__narrowphase.previous, or -1 */
    rg__contact_point points[RG_MANIFOLD_MAX];
} rg__pair_manifold;

/* A pair's manifold as it was computed, in the bodies' own frames, with the pose of a relative
   to b at that time: while the pair has not moved relative to itself since, the manifold is
   carried over with depths recomputed, instead of collided again. */
typedef struct rg__kept_manifold {
    int count;                    /* 0: nothing kept */
    int in_body_frames;           /* 0 until first reused: normal and points still in world space */
    rg_real margin;               /* the speculative margin it was computed with */
    rg_vec3 a_position;           /* a's centre of mass in b's hull frame */
    rg_quat a_orientation;        /* a's orientation relative to b's */
    rg_vec3 normal;               /* in b's frame */
    rg_vec3 on_a[RG_MANIFOLD_MAX], on_b[RG_MANIFOLD_MAX]; /* each point on a, in a's frame, and on b, in b's */
    rg_vec3 origin_a, origin_b;   /* the hull frames' poses it was computed at, for the move into */
    rg_quat rotation_a, rotation_b; /* the body frames */
    uint32_t features[RG_MANIFOLD_MAX];
} rg__kept_manifold;

/* A pair of shapes of a body pair, or a shape and a mesh's triangle. */
typedef struct rg__shape_pair_key {
    int place_a, place_b;         /* the shapes' places in their bodies' lists */
    int triangle;                 /* the mesh's triangle, or -1 */
} rg__shape_pair_key;

/* What the narrow phase keeps for a pair of shapes from one step to the next. */
typedef struct rg__shape_pair_cache {
    rg__shape_pair_key key;
    rg_witness witness;           /* Baraff §7.1: the last separating feature */
    rg__kept_manifold kept;
    int manifold_index;           /* this pair's manifold in rg__narrowphase.manifolds, or -1 */
} rg__shape_pair_cache;

/* What the narrow phase keeps for a pair of bodies from one step to the next: its shape pairs'
   caches, in the order they are visited (places in a's list, in b's, triangle). */
typedef struct rg__pair_cache {
    rg__shape_pair_cache first;   /* the first shape pair's, kept in place: most body pairs have one */
    rg__shape_pair_cache *more;   /* stb_ds: the others', allocated only for them */
    int child_count;
    uint32_t stamp;               /* the step that last saw the pair in the broad phase */
} rg__pair_cache;

typedef struct rg__pair_cache_entry {
    uint64_t key;                 /* (a << 32) | b */
    rg__pair_cache value;
} rg__pair_cache_entry;

/* What the narrow phase needs of a body in every one of its pairs, computed once per step. */
typedef struct rg__narrowphase_body {
    rg_vec3 origin;               /* the hull frame's world position (rg__narrowphase_hull_origin) */
    rg_quat rotation;             /* the orientation normalised, as the collision takes it */
    rg_real turn_reach;           /* |angular velocity| times the hull's radius (rg__narrowphase_pair_margin) */
    int collidable;               /* a hull, and a pose rg__collide_hulls_cached accepts */
} rg__narrowphase_body;

/* Where a pair's cache entry was (its index in the hash map's array), to spare the lookup. */
typedef struct rg__pair_entry_hint {
    uint64_t key;
    int entry;
    int zero;                     /* 0: no padding, whose stale bytes >>snapshot would copy */
} rg__pair_entry_hint;

/* A shape pair of the step, listed on the calling thread and collided by a worker
   (rg__narrowphase_run_job). */
enum { RG__NARROWPHASE_REUSED, RG__NARROWPHASE_HIT, RG__NARROWPHASE_MISSED };
typedef struct rg__narrowphase_job {
    int pair;                     /* in the broad phase's pairs */
    int entry;                    /* its body pair's cache entry (index in the hash map's array) */
    int child;                    /* the shape pair's place in the entry */
    int shape_a, shape_b;         /* shape indices */
    rg_real margin, taken;        /* the body pair's speculative margin, and as the collision takes it */
    int outcome;                  /* RG__NARROWPHASE_REUSED, _HIT (a witness held) or _MISSED */
} rg__narrowphase_job;

typedef struct rg__narrowphase {
    rg__pair_manifold *manifolds; /* stb_ds array: touching pairs of this step, in pair order */
    rg__pair_manifold *previous;  /* last step's manifolds (with the solver's impulses) */
    rg__pair_cache_entry *cache;  /* stb_ds hash map keyed by the pair */
    rg__pair_entry_hint *hints, *next_hints; /* stb_ds arrays: last and this step's pairs' entries */
    rg__narrowphase_body *bodies; /* stb_ds array, by body index: this step's poses */
    rg__shape_pair_key *keys;     /* stb_ds scratch: a pair's shape pairs of this step */
    rg__shape_pair_cache *children; /* stb_ds scratch: their caches, when they changed */
    int *triangles;               /* stb_ds scratch: a mesh query's triangles */
    rg__collide_scratch scratch;  /* stb_ds arrays for hulls too large for the stack (sensors) */
    rg__narrowphase_job *jobs;    /* stb_ds: the step's shape pairs, in visit order */
    rg__collide_scratch *worker_scratch; /* stb_ds: one per worker, for the shape pairs' collisions */
    uint32_t step;
} rg__narrowphase;

/* ---- events ---- */
/* A pair of shapes in one of the event sets: a contact pair (shape_a on the body of lower index)
   or a sensor and its visitor (shape_a the sensor). */
typedef struct rg__event_pair {
    uint64_t key;                 /* (shape_a.index << 32) | shape_b.index: the sets' order */
    rg_shape_id shape_a, shape_b;
    rg_body_id body_a, body_b;
    int missed;                   /* contacts: steps in a row the pair has had no manifold */
    int zero;                     /* 0: no padding, whose stale bytes >>snapshot would copy */
} rg__event_pair;

/* A contact pair at the end of a step, pooled over its manifolds (a mesh's triangles). */
typedef struct rg__event_touch {
    rg__event_pair pair;
    rg_real depth;                /* the deepest point carried to the end of the step */
    rg_vec3 point, normal;        /* there: on b's surface, from b towards a */
    rg_real start_depth;          /* the deepest point at the step's start, */
    rg_real approach_speed;       /* and the relative normal speed there then */
    int order;                    /* its first manifold's index: the tie-break of the sort */
} rg__event_touch;

/* A body's rigid move over a step: from the narrow phase's pose at the start to the pose now,
   x -> to + turn (x - from). */
typedef struct rg__event_move {
    rg_vec3 from, to;             /* the body frame's origin then and now */
    rg_mat3 turn;                 /* the rotation now times the inverse of then's */
    int still;                    /* the pose is bit for bit the same: points stay where they are */
} rg__event_move;

typedef struct rg__events {
    rg_real *approach;            /* stb_ds, per manifold of this step: the approach speed at its
                                     deepest point with the velocities of the step's start */
    rg__event_move *moves;        /* stb_ds scratch, by body index: the step's moves */
    rg__event_pair *touching;     /* stb_ds: contact pairs touching after the last step, by key */
    rg__event_pair *overlapping;  /* stb_ds: (sensor, visitor) pairs overlapping after it, by key */
    rg__event_pair *destroyed, *destroyed_sensed; /* stb_ds: pairs ended by a destruction since */
    rg__event_touch *touches, *touch_scratch;     /* stb_ds scratch: this step's contact pairs */
    rg__event_pair *pairs, *pair_scratch, *kept, *ended; /* stb_ds scratch */
    int *sensor_bodies, *kinematic;               /* stb_ds scratch: bodies by index */
    unsigned char *has_sensor;                    /* stb_ds scratch, by body index */
    rg_contact_begin_event *begins;               /* stb_ds: the last step's events */
    rg_contact_end_event *ends;
    rg_sensor_event *sensor_begins, *sensor_ends;
} rg__events;

/* ---- solver ---- */
/* A rotation by the rotation vector theta, ready for Rodrigues' formula (rg__integrate_turn_of). */
typedef struct rg__turn {
    rg_vec3 theta;                /* rotation vector */
    rg_real a, b;                 /* sin t / t and (1 - cos t) / t^2 */
    rg_real a_less_1;             /* sin t / t - 1, without the cancellation for small t */
} rg__turn;

/* A body as the solver sees it: working velocities, the inverse mass it has in the current
   pass (zero for static, kinematic and, during shock propagation, finished levels), and the
   offsets its position update gets besides v h (time of impact, first-order separation). */
typedef struct rg__solver_body {
    /* what every impulse touches first, together */
    rg_vec3 v, w;                 /* linear and angular velocity being solved */
    rg_real inv_mass;
    rg_vec3 dr, dx;               /* rotation vector and position offset added to the step */
    rg_real toi;                  /* time within the step of the body's latest collision */
    int locked;                   /* linear locks (RG_LOCK_LINEAR_*): no inverse mass along those world axes (rg__impulse_keep_locked) */
    rg_mat3 inv_inertia;          /* world frame; zero when the body does not move */
    rg_vec3 v0, w0;               /* at the start of the step: those that moved it in the last */
    rg_vec3 pv, pw;               /* the separation pass's moves: displacement and turn (pseudo-velocities times h) */
    int level;                    /* contact-graph level: 0 static/kinematic, 1.. dynamic */
    int supports;                 /* manifolds that hold it up: with a body of a lower level */
    int dynamic;
    int frozen;                   /* inverse mass and inertia zero: static, kinematic or a finished shock level */
    int offset_turns;             /* contact stage: dr is beyond RG__LINEAR_TURN, and offset_turn is its rotation */
    int pushed;                   /* first-order pass: the body has moved (pv, pw not zero) */
    rg__turn offset_turn;
    rg_mat3 offset_curvature;     /* contact stage: offset_turn's curvature (rg__integrate_curvature_of) */
    rg_mat3 curvature;            /* the curvature of the turn dr + w h at the sweep `curvature_sweep` */
    unsigned curvature_sweep;
} rg__solver_body;

/* One contact point of a manifold: its Jacobian pieces (so that a relative velocity is a few dot
   products and an impulse a few multiply-adds), and the impulses accumulated by the current loop. */
typedef struct rg__solver_point {
    /* what a patch's visit reads (rg__contact_visit_patch and its friction), first */
    rg_real pn;                   /* accumulated normal impulse of the current loop, >= 0 */
    rg_real pt1, pt2;             /* accumulated friction impulse of the current loop */
    rg_real normal_mass;          /* 1 / n^T K n, K = K_a + K_b (Bender eq. 1) */
    rg_real rest_rate;            /* contact stage: (floor_n - base_n) / h, the normal velocity that reaches floor_n */
    rg_real drift_1, drift_2;     /* contact stage: base_1 / h, base_2 / h, the tangential drift without velocity */
    rg_real patch_x, patch_z;     /* where the point lies in its manifold's patch (along t1, t2 from its centre) */
    rg_real patch_an, patch_bn;   /* and its arms' offsets along n from the centre's, on a and on b */
    int stick;                    /* Bender's static-friction mark */
    /* what a point's visit reads besides */
    rg_vec3 ran, rbn;             /* ra x n, rb x n */
    rg_vec3 wan, wbn;             /* I_a^-1 (ra x n), I_b^-1 (rb x n): turn per unit normal impulse */
    rg_vec3 ra1, rb1, wa1, wb1;   /* the same for the tangent t1 */
    rg_vec3 ra2, rb2, wa2, wb2;   /* and for t2 */
    rg_real i11, i12, i22;        /* the inverse of K restricted to the tangent plane (t1, t2) */
    /* the rest */
    rg_real base_n, base_1, base_2; /* contact stage: where a's point ends relative to b's (along
                                       n, t1, t2) with the step's offsets and no velocity */
    rg_real floor_n;              /* contact stage: the least separation the velocity must reach */
    rg_real gap;                  /* first-order pass: separation at the end of the step */
    rg_vec3 ra, rb;               /* from the centres of mass to the points on a and on b */
    rg_vec3 on_b;                 /* the point on b, world */
    rg_real depth;                /* at the start of the step, > 0 overlaps */
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
    int pair;                     /* its manifold in rg__narrowphase.manifolds */
    int previous;                 /* and that manifold's previous (the pair's of the last step, or -1) */
    int first, count;             /* its points in rg__solver.points */
    int level;                    /* contact-graph level of the pair: the larger of a's and b's */
    rg_vec3 n, t1, t2;            /* normal and tangent basis */
    rg_real restitution, static_friction, dynamic_friction, rolling_friction, spinning_friction;
    rg_real spin, roll1, roll2;   /* accumulated spinning and rolling impulses (Guendelman §9) */
    int round;                    /* bit 1: the points lie on a's round surface (sphere, capsule); bit 2: on b's */
    int deep;                     /* first-order pass: a point ends the step deeper than the slop */
    /* A patch: touching points that span a face, whose normal impulses are solved together as
       one resultant (force and two moments about the patch's centre) */
    int patch;
    rg_vec3 patch_ran, patch_rbn; /* the arms of the patch's centre on a and b crossed with n, */
    rg_vec3 patch_ra1, patch_rb1, patch_ra2, patch_rb2; /* t1 and t2 */
    rg_vec3 patch_wa[3], patch_wb[3]; /* a's and b's turn per unit of the resultant's three parts */
    rg_real patch_sxx, patch_sxz, patch_szz; /* inverse of the points' second moments about the centre */
    rg_real patch_r2;             /* the points' squared distances from the centre, summed */
    rg_real patch_radius;         /* contact stage: the twist's lever, the mean distance from the centre of
                                     pressure over the patch's area (rg__impulse_patch_radius) */
    rg_vec3 rate_fit;             /* contact stage: the points' rest_rate fitted by a patch motion (rg__contact_patch_fit) */
    int rate_fits;                /* ... within RG__CONTACT_EXIT_FRACTION of the tolerance at every point */
    rg_mat3 patch_mass;           /* inverse of K restricted to the resultant (Bender eq. 1 for a patch) */
    rg_vec3 patch_fa[3], patch_fb[3]; /* the same for friction's resultant (F1, F2, twist about n) */
    rg_mat3 patch_friction_mass;
    rg_mat3 patch_coupling_t, patch_shifted, patch_schur_inverse; /* the coupled solve's (rg__impulse_patch_coupling) */
    /* which bodies had infinite mass (1 a, 2 b: rg__impulse_frozen_pair) when the points' masses
       and the patch's were computed: they are computed again only when that changes */
    int points_frozen, patch_frozen;
    /* each body's share of the patch's two K (rg__impulse_resultant_mass), the upper triangles of
       the symmetric angular parts: when one body freezes, K is the other's share, no product needed */
    rg_real patch_share_a[6], patch_share_b[6], patch_friction_share_a[6], patch_friction_share_b[6];
} rg__solver_manifold;

/* The first-order pass's copy of a manifold that can have work, made once so that its sweeps
   read the copies in the order they visit them instead of the manifolds and points all over
   memory. */
typedef struct rg__separation_pair {
    int a, b;                     /* body indices */
    int first, count;             /* its points in rg__solver.separation_points */
    rg_vec3 n;
} rg__separation_pair;

typedef struct rg__separation_point {
    rg_vec3 ran, rbn, wan, wbn;   /* as in rg__solver_point, for the masses of the moving bodies */
    rg_real normal_mass;
    rg_real target;               /* the move along n that leaves the point at the slop: -gap - slop */
    rg_real pp;                   /* accumulated first-order (separation) impulse */
} rg__separation_point;

/* A body of the level being solved with everything welded to it, as one rigid body
   (rg__shock_composite_of): its inverse masses, centre of mass and velocities at the level's
   start, and the root body's own inverse masses, given back after the level. */
typedef struct rg__shock_composite {
    int body;
    rg_real inv_mass;
    rg_vec3 com, v, w;
    rg_vec3 arm_shift;            /* the root's centre of mass less the composite's */
    rg_mat3 inv_inertia;
    rg_real own_inv_mass;
    rg_mat3 own_inv_inertia;
} rg__shock_composite;

typedef struct rg__solver {
    rg__solver_body *bodies;      /* stb_ds, indexed like rg_world.bodies */
    struct rg__joint_row *joint_rows; /* stb_ds: the step's solved joints (rg__joint_solve_begin) */
    /* rg__joint_shock: each body's level in the joint graph, each joint's row (-1: none), the
       walk's queue of bodies, and the rows by level */
    int *joint_levels, *joint_row_of, *joint_queue, *joint_order;
    int *joint_parent, *joint_loop; /* rg__joint_levels: by body the row it was reached by, by row 1 on a loop */
    int *joint_shocked;           /* ... by row 1 in the shock pass, which visits joint_shock_count rows, 2 if
                                     it carries others' rows there */
    int joint_shock_count;
    rg_vec3 *joint_loads;         /* rg__joint_shock_loads: by row the impulses before the pass, by body the load carried */
    int *joint_group;             /* rg__joint_groups: by body the root of its group of joined moving bodies */
    rg_real *joint_energy;        /* by group B, C, slack, then the scale (rg__joint_warm_limit, rg__joint_limit_energy) */
    rg_vec3 *joint_offsets;       /* rg__joint_correct: each body's dx and dr, kept while the pass moves it */
    rg_vec3 *joint_start_rates;   /* rg__joint_collision_begin: by row the anchors' relative velocity and spin before */
    rg__solver_manifold *manifolds; /* stb_ds, in visit order (below) */
    rg__solver_point *points;     /* stb_ds */
    /* The manifolds and their points are stored in the order the sweeps visit them: sorted by
       level and shuffled within (rg__prepare_order), so that a sweep reads them in sequence
       and a level's data lies together (100-row pyramid: 25 MB in all, 260 KB a level):
       solver manifold i is the i-th visited */
    int *order;                   /* rg__prepare_order: the narrow phase's manifold visited i-th */
    int *level_start;             /* manifolds [level_start[l], level_start[l + 1]) are level l */
    /* Within a level the order is cut into lane groups (rg__prepare_lane_groups): runs of at most
       RG__LANES manifolds no two of which share a dynamic body, visited together by the lanes
       kernel (rg__contact_visit_group); by manifold: where its group begins and ends */
    int *group_begin, *group_end;
    int *group_items, *group_next; /* rg__prepare_lane_groups' copy of a level's order and its list of those not yet grouped */
    int *pair_level;              /* by narrow-phase manifold: its level (rg__prepare_levels) */
    int *pair_first;              /* ... and its first point's place in rg_world_contacts' report */
    int *wave;                    /* points of the current collision wave */
    /* contact graph (Guendelman §8.1): edges from the body below to the body on top */
    int *edge_from, *edge_to, *adjacency_start, *adjacency;
    int *scc_index, *scc_low, *scc_component, *scc_stack, *scc_call, *scc_next;
    int *component_level;
    int *island;                  /* union-find of bodies joined by contacts, then each body's root */
    rg_real *island_sums;         /* three sums per island root (rg__warm_limit, rg__shock_limit_energy) */
    rg_real *manifold_power;      /* two per manifold, added to its island's sums (rg__warm_manifold_power) */
    rg_vec3 *shock_start_v, *shock_start_w; /* each body's velocities as shock propagation began */
    rg_vec3 *stage_start_v, *stage_start_w; /* ... and as the contact stage began */
    /* shock propagation's composites (rg__shock_trees): each body's parent (the one dynamic body it
       rests on alone, or -1), the bodies resting so on body i (shock_children[shock_child_start[i]
       .. shock_child_start[i + 1])), a walk's stack, the composites of the level being solved,
       each body's composite there (-1 for none), and the points' own arms while it is solved */
    int *shock_parent, *shock_child_start, *shock_children, *shock_stack, *shock_root, *shock_patch, *shock_link;
    int *shock_moved;             /* the body moves with the composite it is welded to (rg__shock_composites_end) */
    int *shock_tips;              /* the body's members' weight is not held by its contacts below: its level solves the composite */
    rg_real *shock_mass;          /* rg__shock_trees: each body's welded mass (its own and all welded to it), */
    rg_vec3 *shock_first;         /* its first moment about the body's centre of mass, */
    rg_mat3 *shock_inertia;       /* and its inertia about the body's centre of mass (once it has a member) */
    struct rg__shock_composite *shock_composites;
    rg_vec3 *shock_arms;
    rg_contact *report;           /* stb_ds: the contacts of the last step for rg_world_contacts */
    uint64_t random_state;        /* Guendelman §6 order mixing, seeded by def.random_seed */
    int level_count;
    int ready;                    /* solver bodies hold this step's data (positions use offsets) */
    rg_real narrow;               /* the world's contact_tolerance: a patch narrower is a point */
    unsigned sweep;               /* counts the sweeps of all loops (never 0 in one), for rg__predict_body_curvature */
    /* first-order pass (rg__separate), by manifold: whether it can have work, and its copy
       (made when it can); each body's manifolds, body i's being
       body_pairs[body_pairs_start[i] .. body_pairs_start[i + 1]) */
    unsigned char *separation_active;
    rg__separation_pair *separation_pairs;
    rg__separation_point *separation_points;
    int *body_pairs_start, *body_pairs;
    /* collisions: by manifold, whether a point approached fast enough to collide at the step's
       start (rg__prepare_points), and how many manifolds did */
    unsigned char *approaching;
    int approaching_count;
} rg__solver;

/* ---- queries ---- */
/* A node of the queries' tree over the shapes' boxes (>>query): leaves are shapes (a mesh is one
   leaf, its triangles in its own hierarchy), inner nodes have two children. */
typedef struct rg__query_node {
    rg_vec3 lo, hi;               /* leaf: the shape's box at its current pose; inner: its children's union */
    int parent;                   /* -1 for the root */
    int child[2];                 /* inner nodes; -1 in leaves */
    int shape;                    /* leaves: the shape's index; inner nodes: -1 */
    int height;                   /* leaves 0; inner nodes 1 + the higher child's */
    int dirty;                    /* a leaf below moved in this step and awaits the refit */
} rg__query_node;

typedef struct rg__query {
    rg__query_node *nodes;        /* stb_ds; nodes[root] is the root when leaf_count > 0 */
    int *free_nodes;              /* stb_ds: slots of nodes to reuse */
    int *leaf;                    /* stb_ds, per shape slot: its leaf, -1 none */
    int *stack;                   /* stb_ds: the refit's walk */
    int *items;                   /* stb_ds: the rebuild's shapes, by item */
    rg__mesh_builder builder;     /* the rebuild's boxes, centres, order and hierarchy (>>mesh.hierarchy) */
    int root, leaf_count;
    double inner_area;            /* the sum of the inner nodes' half areas */
    double built_cost;            /* inner_area over the root's half area after the last rebuild */
    int rebuilds;                 /* since the world was created (for tools/bench_query.c) */
    int added;                    /* leaves inserted since the last rebuild */
} rg__query;

/* The hooks of the shared functions into >>query (below). */
static void rg__query_body_moved(rg_world *w, int body);
static void rg__query_remove_shape(rg_world *w, int shape);
static void rg__query_step(rg_world *w);
static void rg__query_destroy(rg_world *w);

/* The hooks of the shared functions into >>joint (below). */
static int rg__joint_blocks_pair(const rg_world *w, int a, int b);
static void rg__joint_release(rg_world *w, int index);
static void rg__joint_step_end(rg_world *w);
static int rg__joint_solve_begin(rg_world *w);
static int rg__joint_collision_begin(rg_world *w);
static rg_real rg__joint_collision_sweep(rg_world *w);
static void rg__joint_collision_end(rg_world *w);
static rg_real rg__joint_solve_sweep(rg_world *w, rg_real h);
static void rg__joint_solve_end(rg_world *w, rg_real h);
static int rg__joint_levels(rg_world *w);
static void rg__joint_shock(rg_world *w, rg_real h, int count, int mode);
static void rg__joint_correct(rg_world *w, rg_real h, int count);
static void rg__joint_limit_sweeps(rg_world *w, rg_real slack_speed);
static void rg__joint_shock_loads(rg_world *w, rg_real h, int count, rg_real slack_speed);

/* ---- world ---- */
struct rg_world {
    rg_world_def def;
    rg__body *bodies;             /* stb_ds array, indexed by rg_body_id.index */
    int free_list;
    int body_count;
    rg__shape *shapes;            /* stb_ds array, indexed by rg_shape_id.index */
    int shape_free_list;
    rg__joint *joints;            /* stb_ds array, indexed by rg_joint_id.index */
    int joint_free_list;
    int joint_count;
    rg__broadphase broadphase;
    rg__narrowphase narrowphase;
    rg__query query;
    rg__solver solver;
    rg__events events;
    rg_world_stats stats;
    rg_real step_dt;              /* dt of the step being taken (0 before the first) */
    rg_real previous_step_dt;     /* dt of the step before it (0 before the second): warm starts scale by the ratio */
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
/* rg_quat_mul, inlined where it runs per pair (the narrow phase) */
static inline rg_quat rg__quat_mul(rg_quat a, rg_quat b) {
    return rg__quat(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                    a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                    a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                    a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}
RIGID_API rg_quat rg_quat_mul(rg_quat a, rg_quat b) { return rg__quat_mul(a, b); }
/* rg_quat_rotate, inlined where it runs per contact point (the narrow phase) */
static inline rg_vec3 rg__quat_rotate(rg_quat q, rg_vec3 v) {
    /* v' = v + 2w (u x v) + 2 u x (u x v), u the vector part: two cross products */
    rg_vec3 u = rg_v3(q.x, q.y, q.z);
    rg_vec3 t = rg_v3_scale(rg_v3_cross(u, v), 2);
    return rg_v3_add(rg_v3_add(v, rg_v3_scale(t, q.w)), rg_v3_cross(u, t));
}
RIGID_API rg_vec3 rg_quat_rotate(rg_quat q, rg_vec3 v) { return rg__quat_rotate(q, v); }
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
/* Whether a determinant is in [RG__REAL_MIN / RG__EPSILON, RG__REAL_MAX], where the plain
   cofactor inverse and Cramer's rule are safe. The determinant of a matrix with entries near 1e13
   overflows a float and one with entries near 1e-13 underflows (the inertia of a 200 m or a 1 mm
   body), though the inverse exists. */
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
/* The plain cofactor inverse; when the determinant is outside the safe range the matrix is
   divided by its largest entry first, m^-1 = (m/s)^-1 / s. Valid input keeps the plain path and
   its exact results; a singular or non-finite matrix gives zero. */
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
/* rg_mat3_inverse of a symmetric matrix given by its upper triangle k = (k00, k01, k02, k11,
   k12, k22), filling `inv`. The plain path computes six of the nine cofactors, each with the
   same operations as rg_mat3_inverse's (whose other three equal them), so the numbers are
   rg_mat3_inverse's; a determinant out of range or an entry that is not finite takes
   rg_mat3_inverse itself. */
static inline void rg__mat3_symmetric_inverse(const rg_real *k, rg_mat3 *inv) {
    rg_real c00 = k[3] * k[5] - k[4] * k[4], c01 = k[4] * k[2] - k[1] * k[5], c02 = k[1] * k[4] - k[3] * k[2];
    rg_real c11 = k[5] * k[0] - k[2] * k[2], c12 = k[2] * k[1] - k[4] * k[0], c22 = k[0] * k[3] - k[1] * k[1];
    rg_real det = k[0] * c00 + k[1] * c01 + k[2] * c02, r;
    if (rg__determinant_in_range(det)) {
        r = 1 / det;
        c00 *= r, c01 *= r, c02 *= r, c11 *= r, c12 *= r, c22 *= r;
        if (rg__is_finite_real(c00 + c01 + c02 + c11 + c12 + c22)) {
            inv->m[0][0] = c00; inv->m[0][1] = inv->m[1][0] = c01; inv->m[0][2] = inv->m[2][0] = c02;
            inv->m[1][1] = c11; inv->m[1][2] = inv->m[2][1] = c12; inv->m[2][2] = c22;
            return;
        }
    }
    inv->m[0][0] = k[0]; inv->m[0][1] = inv->m[1][0] = k[1]; inv->m[0][2] = inv->m[2][0] = k[2];
    inv->m[1][1] = k[3]; inv->m[1][2] = inv->m[2][1] = k[4]; inv->m[2][2] = k[5];
    *inv = rg_mat3_inverse(*inv);
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

/* The parallel axis theorem: inertia + m ((d . d) E - d d^T), a mass m at offset d added. */
static rg_mat3 rg__mat3_add_point_mass(rg_mat3 inertia, rg_real m, rg_vec3 d) {
    inertia = rg_mat3_add(inertia, rg_mat3_scale(rg_mat3_identity(), m * rg_v3_dot(d, d)));
    return rg_mat3_add(inertia, rg_mat3_scale(rg_mat3_outer(d, d), -m));
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
static rg__projection_integrals rg__hull_projection_integrals_of_face(const double (*points)[3],
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
static void rg__hull_add_face_to_mass_integrals(rg__mass_integrals *t, const double (*points)[3],
                                           int count, const double n[3]) {
    int c, a, b;
    double w, k1, k2, k3, k4, na, nb, fa, fb, fc, faa, fbb, fcc, faaa, fbbb, fccc, faab, fbbc, fcca;
    rg__projection_integrals p;
    /* project onto the plane where the face's area is largest (gamma = c) */
    c = (fabs(n[0]) > fabs(n[1])) ? (fabs(n[0]) > fabs(n[2]) ? 0 : 2) : (fabs(n[1]) > fabs(n[2]) ? 1 : 2);
    a = (c + 1) % 3;
    b = (a + 1) % 3;
    p = rg__hull_projection_integrals_of_face(points, count, a, b);
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

/* Twice the area vector of the triangle a, b, c (outward for counter-clockwise corners): the
   cross product of the edges at the corner opposite the longest edge, in double. Its rounding
   is then epsilon times the product of the two shorter edges, not of the longest one: a needle's
   face keeps its far end within the convexity tolerance of its own plane. */
static void rg__hull_triangle_area_vector(const double a[3], const double b[3], const double c[3],
                                     double out[3]) {
    double edge[3][3], length2[3];  /* edge k runs from corner k to the next one */
    const double *u, *v;
    int k, best = 0;
    for (k = 0; k < 3; ++k) {
        edge[0][k] = b[k] - a[k];
        edge[1][k] = c[k] - b[k];
        edge[2][k] = a[k] - c[k];
    }
    for (k = 0; k < 3; ++k) {
        length2[k] = edge[k][0] * edge[k][0] + edge[k][1] * edge[k][1] + edge[k][2] * edge[k][2];
        if (length2[k] > length2[best]) best = k;
    }
    /* at the corner opposite edge `best` meet edges best + 1 (arriving) and best + 2 (leaving):
       (b - a) x (c - a) = edge[best + 1] x edge[best + 2] with a that corner (negation is
       exact, so this is the cross product of the two edges leaving it, to the last bit) */
    u = edge[(best + 1) % 3];
    v = edge[(best + 2) % 3];
    out[0] = u[1] * v[2] - u[2] * v[1];
    out[1] = u[2] * v[0] - u[0] * v[2];
    out[2] = u[0] * v[1] - u[1] * v[0];
}

/* A hull's volume at most this fraction of its triangles' cone sizes is rounding: none
   (rg__hull_compute_mass_properties). */
#ifndef RG__HULL_VOLUME_LEFT
#define RG__HULL_VOLUME_LEFT 1e-14
#endif

/* Volume, centroid and unit-density inertia about the centroid from the hull's faces. */
static int rg__hull_compute_mass_properties(rg_hull *hull) {
    rg__mass_integrals t;
    double origin[3] = {0, 0, 0}, (*points)[3] = NULL, centroid[3], ixx, iyy, izz, ixy, iyz, izx;
    double scale = 0; /* the sum over the triangles of |p0| |p1| |p2| / 6, the size of their cones' terms */
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
        /* Mirtich's face integrals hold for a plane polygon; a face is plane only to the
           convexity tolerance (1000 epsilon of the extent), which in a thin hull can be more
           than its thickness. So each face is taken as the fan of triangles from its first
           corner, each plane by construction: the volume is exactly that of the triangulated
           surface, whatever the faces' bend. */
        for (i = 1; i + 1 < face->count; ++i) {
            double triangle[3][3];
            rg__hull_triangle_area_vector(points[0], points[i], points[i + 1], n);
            length = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            if (!(length > 0)) continue;
            n[0] /= length; n[1] /= length; n[2] /= length;
            memcpy(triangle[0], points[0], sizeof triangle[0]);
            memcpy(triangle[1], points[i], sizeof triangle[1]);
            memcpy(triangle[2], points[i + 1], sizeof triangle[2]);
            rg__hull_add_face_to_mass_integrals(&t, (const double(*)[3])triangle, 3, n);
            scale += sqrt((points[0][0] * points[0][0] + points[0][1] * points[0][1] + points[0][2] * points[0][2]) *
                          (points[i][0] * points[i][0] + points[i][1] * points[i][1] + points[i][2] * points[i][2]) *
                          (points[i + 1][0] * points[i + 1][0] + points[i + 1][1] * points[i + 1][1] +
                           points[i + 1][2] * points[i + 1][2])) / 6;
        }
    }
    RIGID_FREE(points, NULL);
    /* The volume is the signed sum of the triangles' cones from the origin, each a triple product
       of corners of size |p0| |p1| |p2|, rounded to about a double epsilon of that. A volume
       within RG__HULL_VOLUME_LEFT of `scale` is rounding, not volume (its centroid can lie
       outside its bounding box), and the hull has none, so it is refused as degenerate. A hull
       with a volume the thickness test accepts stays far above it: the ratio is about its
       thickness over its extent, over the number of its faces' triangles. */
    if (!(fabs(t.volume) > RG__HULL_VOLUME_LEFT * scale)) t.volume = 0;
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

/* Twice the area vector of a polygon (what Newell's formula gives; outward for counter-clockwise
   corners), as the sum over the fan of triangles from its first corner: the area vector of a
   closed polygon is the same from any point, and the triangles keep each rounding small. */
static void rg__hull_polygon_area_vector(const rg_vec3 *vertices, const int *indices, int count,
                                    double n[3]) {
    double o[3], p[3], q[3], t[3];
    int i;
    n[0] = n[1] = n[2] = 0;
    o[0] = vertices[indices[0]].x; o[1] = vertices[indices[0]].y; o[2] = vertices[indices[0]].z;
    for (i = 1; i + 1 < count; ++i) {
        rg_vec3 a = vertices[indices[i]], b = vertices[indices[i + 1]];
        p[0] = a.x; p[1] = a.y; p[2] = a.z;
        q[0] = b.x; q[1] = b.y; q[2] = b.z;
        rg__hull_triangle_area_vector(o, p, q, t);
        n[0] += t[0]; n[1] += t[1]; n[2] += t[2];
    }
}

/* Outward unit normal of a polygon, counter-clockwise corners (zero without area); returns its
   area. */
static double rg__hull_polygon_normal(const rg_vec3 *vertices, const int *indices, int count,
                                 rg_vec3 *normal) {
    double n[3], length;
    rg__hull_polygon_area_vector(vertices, indices, count, n);
    length = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    *normal = rg_v3(0, 0, 0);
    if (length > 0)
        *normal = rg_v3((rg_real)(n[0] / length), (rg_real)(n[1] / length),
                        (rg_real)(n[2] / length));
    return length / 2;
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
    double area = 0;
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
    /* the rounding of dot(normal, x) - offset grows with the coordinates themselves, so a hull
       far from its frame's origin needs more than its extent's share */
    tolerance = rg__max_real(extent, rg_v3_length(rg_v3_max(rg_v3_neg(lo), hi))) * 1000 * RG__EPSILON;
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
        area += rg__hull_polygon_normal(vertices, hull->face_vertices + face->first, face->count,
                                   &face->normal);
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
    /* Without volume: Mirtich's volume V must be positive (clockwise faces give a negative one),
       and the mean thickness 2 V / A (A the surface area) above 1e-9 of the extent. 2 V / A lies
       between 0.19 and 1 times the least width w of a convex body: V <= w A / 2 (the projection
       along the thinnest direction covers at most half the surface), V >= r A / 3 (cones from
       the centre of the inscribed ball, radius r) and r >= w / (2 sqrt 3) (Steinhagen). So a
       slab and a needle are measured alike. (An overflowing float volume is refused below.) */
    if (!(hull->volume > 0) || !(2 * (double)hull->volume / area > 1e-9 * (double)extent)) {
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

/* The axis (0, 1, 2) of a box corner's index bit (1, 2, 4). */
static int rg__hull_box_axis_of_bit(int bit) { return bit == 1 ? 0 : bit == 2 ? 1 : 2; }

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
    rg_hull *hull;
    for (i = 0; i < 8; ++i)
        corners[i] = rg_v3((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z);
    hull = rg_hull_create_polyhedron(corners, 8, sizes, 6, faces, result);
    if (!hull) return NULL;
    hull->box_half = h;
    for (i = 0; i < hull->edge_count; ++i) {
        /* the corners of an edge differ in the bit of its axis only */
        int v0 = hull->edges[i].v[0], axis = rg__hull_box_axis_of_bit(v0 ^ hull->edges[i].v[1]);
        hull->box_edges[axis][v0 & ~(1 << axis)] = (signed char)i;
    }
    return hull;
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

/* =============================================================================================
   >>quickhull: rg_hull_create, the convex hull of a point cloud

   Barber, Dobkin & Huhdanpaa 1996, "The Quickhull algorithm for convex hulls" (ACM TOMS 22(4)),
   §3: start from a simplex of extreme points; every face keeps the outside set of the points
   above it (its conflict list); take a face's furthest outside point as the apex, delete the
   faces the apex sees, close the hole with a cone of new triangles from the horizon to the apex,
   and hand the deleted faces' outside points to the cone. Each point is tested against a face
   only while it is outside, so n points cost O(n log n) on typical clouds.

   Robustness (Barber et al. §4 on imprecision, and Qhull's handling of coplanar points). With
   s = max|x| + max|y| + max|z| over the cloud:
   - A face is visible from the apex when the apex lies strictly above its plane by an exact
     orientation test (rg__qh_orientation: double-double, and exact expansions when that is in
     doubt). Exact decisions keep the visible faces a disk and the new cone convex, however
     thin or flat the hull; with a threshold the cone folds next to faces the apex stands a
     tiny height above. The triangles are the exact hull of the points they use.
   - A point joins an outside set, and can become a vertex, only when it stands more than
     `tolerance` above a face (heights in double, from normals accurate to a few roundings,
     rg__qh_accurate_cross): 8 rounding units of the input, 8 FLT_EPSILON s for float and
     64 DBL_EPSILON s for double. So duplicates and near-duplicates (within the tolerance of a
     hull vertex) are welded into it, and interior points and points on faces are dropped.
   - A point within the tolerance of its best face is kept in that face's coplanar set: near a
     sharp edge of a flat hull it can be within the tolerance of every plane and still far
     outside. Coplanar points are partitioned again when their face goes, and checked once more
     at the end, which resumes the hull if one turns out outside.
   - The horizon must be one simple loop and the cone convex (rg__qh_cone_is_convex). If not,
     or a later check fails, the hull is rebuilt with an 8 and then 64 times larger tolerance;
     only then is the input called degenerate.
   Then adjacent triangles are merged into polygons while all corners of the union stay within
   `tolerance` of its plane (normal along the summed area vectors, through the area-weighted
   centroid), the most nearly parallel first; a merge must not cancel area (|A + B| >=
   max(|A|, |B|) / 2 for the area vectors). A polygon keeps only its corners, the points where
   at least three polygons meet: a point between two polygons lies on their common edge and is
   dropped from both, so every edge appears once in each direction. A group whose boundary is
   not one convex loop, or whose corners do not make a strictly convex polygon, goes back to
   its triangles; so does one with a dropped point more than twice the tolerance above some
   polygon's plane (merged at the tolerance, a needle's tip can lie between two polygons only,
   and dropping it would cut it off). The polygons go to rg_hull_create_polyhedron, the one
   place that builds hulls (planes, edges, mass properties, and the convexity and V - E + F = 2
   checks).
   ============================================================================================= */

enum { RG__QH_OK, RG__QH_DEGENERATE, RG__QH_RETRY };

/* ---- >>quickhull.geometry: points in double, exact orientation predicates -------------------- */

static void rg__qh_point_of(rg_vec3 v, double out[3]) {
    out[0] = (double)v.x;
    out[1] = (double)v.y;
    out[2] = (double)v.z;
}

static void rg__qh_point(const rg__quickhull *qh, int i, double out[3]) {
    rg__qh_point_of(qh->points[i], out);
}

static void rg__qh_sub(const double a[3], const double b[3], double out[3]) {
    out[0] = a[0] - b[0]; out[1] = a[1] - b[1]; out[2] = a[2] - b[2];
}

static void rg__qh_cross(const double a[3], const double b[3], double out[3]) {
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double rg__qh_dot(const double a[3], const double b[3]) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Signed height of point p above the plane of face f. */
static double rg__qh_height(const rg__quickhull *qh, const rg__qh_face *f, int p) {
    double a[3], q[3], d[3];
    rg__qh_point(qh, f->v[0], a);
    rg__qh_point(qh, p, q);
    rg__qh_sub(q, a, d);
    return rg__qh_dot(f->normal, d);
}

/* a + b = sum + error exactly (Knuth's TwoSum). */
static double rg__qh_two_sum(double a, double b, double *error) {
    double sum = a + b, b_part = sum - a, a_part = sum - b_part;
    *error = (a - a_part) + (b - b_part);
    return sum;
}

/* a b = product + error exactly (Dekker 1971, with Veltkamp's splitting into 26-bit halves). */
static double rg__qh_two_product(double a, double b, double *error) {
    const double split = 134217729.0; /* 2^27 + 1 */
    double product = a * b, t, a_high, a_low, b_high, b_low;
    t = split * a; a_high = t - (t - a); a_low = a - a_high;
    t = split * b; b_high = t - (t - b); b_low = b - b_high;
    *error = ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low;
    return product;
}

/* (b - a) x (c - a), accurate to a few roundings of the result however thin the triangle: the
   edges are kept exactly as two-term sums and their leading products exactly, so only terms
   of order epsilon^2 |b - a| |c - a| are lost. With plain double arithmetic the rounding of the
   edges alone tilts the normal of a triangle of height h and length L by epsilon L / h. */
static void rg__qh_accurate_cross(const double a[3], const double b[3], const double c[3],
                                  double out[3]) {
    double u[3], u_low[3], v[3], v_low[3];
    int i;
    for (i = 0; i < 3; ++i) {
        u[i] = rg__qh_two_sum(b[i], -a[i], &u_low[i]);
        v[i] = rg__qh_two_sum(c[i], -a[i], &v_low[i]);
    }
    for (i = 0; i < 3; ++i) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        double error1, error2, error3;
        double first = rg__qh_two_product(u[j], v[k], &error1);
        double second = rg__qh_two_product(u[k], v[j], &error2);
        double difference = rg__qh_two_sum(first, -second, &error3);
        double small = (error1 - error2) + error3 + (u[j] * v_low[k] + u_low[j] * v[k]) -
                       (u[k] * v_low[j] + u_low[k] * v[j]);
        out[i] = difference + small;
    }
}

/* Double-double arithmetic: a value as an unevaluated sum hi + lo with |lo| <= ulp(hi) / 2,
   about 106 bits (Dekker 1971). */
static rg__qh_dd rg__qh_dd_make(double hi, double lo) {
    rg__qh_dd r;
    r.hi = rg__qh_two_sum(hi, lo, &r.lo);
    return r;
}

static rg__qh_dd rg__qh_dd_difference(double a, double b) {  /* exact */
    rg__qh_dd r;
    r.hi = rg__qh_two_sum(a, -b, &r.lo);
    return r;
}

static rg__qh_dd rg__qh_dd_add(rg__qh_dd a, rg__qh_dd b) {
    double error, sum = rg__qh_two_sum(a.hi, b.hi, &error);
    return rg__qh_dd_make(sum, error + a.lo + b.lo);
}

static rg__qh_dd rg__qh_dd_mul(rg__qh_dd a, rg__qh_dd b) {
    double error, product = rg__qh_two_product(a.hi, b.hi, &error);
    return rg__qh_dd_make(product, error + a.hi * b.lo + a.lo * b.hi + a.lo * b.lo);
}

static rg__qh_dd rg__qh_dd_neg(rg__qh_dd a) {
    a.hi = -a.hi;
    a.lo = -a.lo;
    return a;
}

/* Exact arithmetic on expansions (Shewchuk 1997, "Adaptive precision floating-point arithmetic
   and fast robust geometric predicates", §2): a number is the exact sum of doubles
   e[0] + e[1] + ... that do not overlap, in increasing magnitude; zero components are dropped.
   Its sign is the sign of its largest component. */

/* h = e + b exactly (Shewchuk's Grow-Expansion, Theorem 10). Returns h's length (<= n + 1). */
static int rg__qh_grow_expansion(const double *e, int n, double b, double *h) {
    double q = b, error;
    int i, length = 0;
    for (i = 0; i < n; ++i) {
        q = rg__qh_two_sum(q, e[i], &error);
        if (error != 0) h[length++] = error;
    }
    if (q != 0 || length == 0) h[length++] = q;
    return length;
}

/* h = e + f exactly, by growing e with f's components (Shewchuk's Expansion-Sum, Theorem 12).
   h must have room for n + m components and may not alias e or f. */
static int rg__qh_expansion_sum(const double *e, int n, const double *f, int m, double *h) {
    double scratch[192];
    int i, length = n;
    memcpy(h, e, sizeof(double) * (size_t)n);
    for (i = 0; i < m; ++i) {
        length = rg__qh_grow_expansion(h, length, f[i], scratch);
        memcpy(h, scratch, sizeof(double) * (size_t)length);
    }
    return length;
}

/* h = e b exactly (Shewchuk's Scale-Expansion, Theorem 19). h has room for 2 n components. */
static int rg__qh_scale_expansion(const double *e, int n, double b, double *h) {
    double q, product, product_error, sum_error;
    int i, length = 0;
    q = rg__qh_two_product(e[0], b, &product_error);
    if (product_error != 0) h[length++] = product_error;
    for (i = 1; i < n; ++i) {
        product = rg__qh_two_product(e[i], b, &product_error);
        q = rg__qh_two_sum(q, product_error, &sum_error);
        if (sum_error != 0) h[length++] = sum_error;
        q = rg__qh_two_sum(product, q, &sum_error);
        if (sum_error != 0) h[length++] = sum_error;
    }
    if (q != 0 || length == 0) h[length++] = q;
    return length;
}

/* h = e f for a two-component f, exactly. */
static int rg__qh_multiply_expansion(const double *e, int n, const double f[2], double *h) {
    double low[64], high[64];
    int low_length = rg__qh_scale_expansion(e, n, f[0], low);
    int high_length = rg__qh_scale_expansion(e, n, f[1], high);
    return rg__qh_expansion_sum(low, low_length, high, high_length, h);
}

/* The exact sign of det[u, v, w] for vectors given as two-component expansions (x[i][0] the
   small part): -1, 0 or 1. */
static int rg__qh_exact_determinant_sign(const double u[3][2], const double v[3][2],
                                         const double w[3][2]) {
    double det[192], term[64], minor[16], first[8], second[8], sum[192];
    int i, k, det_length = 1;
    det[0] = 0;
    for (i = 0; i < 3; ++i) {
        int j = (i + 1) % 3, l = (i + 2) % 3, first_length, second_length, minor_length;
        int term_length;
        first_length = rg__qh_multiply_expansion(u[j], 2, v[l], first);
        second_length = rg__qh_multiply_expansion(u[l], 2, v[j], second);
        for (k = 0; k < second_length; ++k) second[k] = -second[k];
        minor_length = rg__qh_expansion_sum(first, first_length, second, second_length, minor);
        term_length = rg__qh_multiply_expansion(minor, minor_length, w[i], term);
        det_length = rg__qh_expansion_sum(det, det_length, term, term_length, sum);
        memcpy(det, sum, sizeof(double) * (size_t)det_length);
    }
    return det[det_length - 1] > 0 ? 1 : det[det_length - 1] < 0 ? -1 : 0;
}

/* det[b - a, c - a, d - a]: positive when d lies above the plane of the counter-clockwise
   triangle a, b, c, exactly 0 when the four are coplanar. Quickhull needs exact visibility
   decisions (Barber et al. §4): with a threshold, faces the apex stands above by less than it
   stay, and next to them the new cone folds. First in double-double, with the differences
   exact, whose rounding is below 1e-31 of the terms' size; only a result within 1e-29 of it is
   decided again in exact expansion arithmetic (Shewchuk's adaptive scheme). That happens for
   points coplanar up to rounding, e.g. points computed on the edges of a polyhedron. The value
   is returned when certain, else just its exact sign (+-DBL_MIN or 0). */
static double rg__qh_orientation(const rg__quickhull *qh, int a, int b, int c, int d) {
    rg__qh_dd u[3], v[3], w[3], det;
    double pa[3], pb[3], pc[3], pd[3], size = 0, value, eu[3][2], ev[3][2], ew[3][2];
    int i, sign;
    rg__qh_point(qh, a, pa);
    rg__qh_point(qh, b, pb);
    rg__qh_point(qh, c, pc);
    rg__qh_point(qh, d, pd);
    for (i = 0; i < 3; ++i) {
        u[i] = rg__qh_dd_difference(pb[i], pa[i]);
        v[i] = rg__qh_dd_difference(pc[i], pa[i]);
        w[i] = rg__qh_dd_difference(pd[i], pa[i]);
    }
    det = rg__qh_dd_make(0, 0);
    for (i = 0; i < 3; ++i) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        rg__qh_dd minor = rg__qh_dd_add(rg__qh_dd_mul(u[j], v[k]),
                                        rg__qh_dd_neg(rg__qh_dd_mul(u[k], v[j])));
        det = rg__qh_dd_add(det, rg__qh_dd_mul(w[i], minor));
        size += fabs(w[i].hi) * (fabs(u[j].hi * v[k].hi) + fabs(u[k].hi * v[j].hi));
    }
    value = det.hi + det.lo;
    if (fabs(value) > 1e-29 * size) return value;
    for (i = 0; i < 3; ++i) {
        eu[i][0] = u[i].lo; eu[i][1] = u[i].hi;
        ev[i][0] = v[i].lo; ev[i][1] = v[i].hi;
        ew[i][0] = w[i].lo; ew[i][1] = w[i].hi;
    }
    sign = rg__qh_exact_determinant_sign((const double(*)[2])eu, (const double(*)[2])ev,
                                         (const double(*)[2])ew);
    return sign * DBL_MIN;
}

/* ---- >>quickhull.build: faces, conflict lists, the initial simplex, horizons and cones ------- */

/* Outward unit normal of a triangle, counter-clockwise corners. 0 if it has no area. */
static int rg__qh_face_plane(const rg__quickhull *qh, rg__qh_face *f) {
    double p[3][3], n[3], length;
    int i;
    for (i = 0; i < 3; ++i) rg__qh_point(qh, f->v[i], p[i]);
    rg__qh_accurate_cross(p[0], p[1], p[2], n);
    length = sqrt(rg__qh_dot(n, n));
    if (!(length > 0)) return 0;
    for (i = 0; i < 3; ++i) f->normal[i] = n[i] / length;
    return 1;
}

static int rg__qh_new_face(rg__quickhull *qh, int a, int b, int c) {
    rg__qh_face face;
    int index;
    memset(&face, 0, sizeof face);
    face.v[0] = a; face.v[1] = b; face.v[2] = c;
    face.adj[0] = face.adj[1] = face.adj[2] = -1;
    face.outside = face.coplanar = face.furthest = -1;
    face.alive = 1;
    if (stbds_arrlen(qh->free_faces) > 0) {
        index = stbds_arrpop(qh->free_faces);
        qh->faces[index] = face;
    } else {
        index = (int)stbds_arrlen(qh->faces);
        stbds_arrput(qh->faces, face);
    }
    return index;
}

static void rg__qh_add_outside(rg__quickhull *qh, int f, int p, double height) {
    rg__qh_face *face = &qh->faces[f];
    qh->next[p] = face->outside;
    face->outside = p;
    if (face->furthest < 0 || height > face->furthest_height) {
        face->furthest = p;
        face->furthest_height = height;
    }
}

/* Partitions point p among the given faces: into the outside set of the first face it is more
   than the tolerance above. Otherwise, unless it is clearly below all of them (then it is inside
   the hull and dropped), into the coplanar set of the face it is highest above. A coplanar point
   is within the tolerance of that face's plane, but near a sharp edge of a flat hull it can still
   lie far outside the hull; Qhull (Barber et al. §4) keeps such points and partitions them
   again when their face is deleted, and rg__qh_recheck_coplanar checks them at the end. */
static void rg__qh_partition(rg__quickhull *qh, int p, const int *faces, int face_count) {
    int i, best = -1;
    double best_height = 0;
    for (i = 0; i < face_count; ++i) {
        double height = rg__qh_height(qh, &qh->faces[faces[i]], p);
        if (height > qh->tolerance) {
            rg__qh_add_outside(qh, faces[i], p, height);
            return;
        }
        if (best < 0 || height > best_height) {
            best = faces[i];
            best_height = height;
        }
    }
    if (best >= 0 && best_height > -qh->rounding) {
        qh->next[p] = qh->faces[best].coplanar;
        qh->faces[best].coplanar = p;
    }
}

/* The first of the points farthest from the line through a along `axis` (axis_length its
   length), or with axis_length 0 from the plane through a with unit normal `axis`; `fallback`
   when there are none. The distance goes to *distance (-1 for none). */
static int rg__qh_farthest_point(const rg__quickhull *qh, const double a[3], const double axis[3],
                                 double axis_length, int fallback, double *distance) {
    double p[3], d[3], c[3], best = -1;
    int i, index = fallback;
    for (i = 0; i < qh->count; ++i) {
        double x;
        rg__qh_point(qh, i, p);
        rg__qh_sub(p, a, d);
        if (axis_length > 0) {
            rg__qh_cross(axis, d, c);
            x = sqrt(rg__qh_dot(c, c)) / axis_length;
        } else {
            x = fabs(rg__qh_dot(axis, d));
        }
        if (x > best) { best = x; index = i; }
    }
    *distance = best;
    return index;
}

/* The initial tetrahedron: the two furthest apart of the six axis-extreme points, the point
   furthest from their line, the point furthest from the plane of those three. A cloud whose
   extent stays within the tolerance in some direction has no volume. */
static int rg__qh_initial_simplex(rg__quickhull *qh) {
    int extreme[6], corner[4], faces[4], i, j, k, n = qh->count;
    double a[3], b[3], p[3], ab[3], d[3], normal[3], best, length;
    static const int face_corners[4][3] = {{0, 1, 2}, {1, 0, 3}, {2, 1, 3}, {0, 2, 3}};
    for (k = 0; k < 6; ++k) extreme[k] = 0;
    for (i = 1; i < n; ++i) {
        rg_vec3 v = qh->points[i];
        if (v.x < qh->points[extreme[0]].x) extreme[0] = i;
        if (v.x > qh->points[extreme[1]].x) extreme[1] = i;
        if (v.y < qh->points[extreme[2]].y) extreme[2] = i;
        if (v.y > qh->points[extreme[3]].y) extreme[3] = i;
        if (v.z < qh->points[extreme[4]].z) extreme[4] = i;
        if (v.z > qh->points[extreme[5]].z) extreme[5] = i;
    }
    best = -1;
    corner[0] = corner[1] = 0;
    for (i = 0; i < 6; ++i)
        for (j = i + 1; j < 6; ++j) {
            double distance2;
            rg__qh_point(qh, extreme[i], a);
            rg__qh_point(qh, extreme[j], b);
            rg__qh_sub(b, a, d);
            distance2 = rg__qh_dot(d, d);
            if (distance2 > best) {
                best = distance2;
                corner[0] = extreme[i];
                corner[1] = extreme[j];
            }
        }
    if (!(sqrt(best) > qh->tolerance)) return RG__QH_DEGENERATE; /* all points welded into one */
    rg__qh_point(qh, corner[0], a);
    rg__qh_point(qh, corner[1], b);
    rg__qh_sub(b, a, ab);
    length = sqrt(rg__qh_dot(ab, ab));
    corner[2] = rg__qh_farthest_point(qh, a, ab, length, corner[0], &best);
    if (!(best > qh->tolerance)) return RG__QH_DEGENERATE;  /* collinear */
    rg__qh_point(qh, corner[2], p);
    rg__qh_sub(p, a, d);
    rg__qh_cross(ab, d, normal);
    length = sqrt(rg__qh_dot(normal, normal));
    for (k = 0; k < 3; ++k) normal[k] /= length;
    corner[3] = rg__qh_farthest_point(qh, a, normal, 0, corner[0], &best);
    if (!(best > qh->tolerance)) return RG__QH_DEGENERATE;  /* coplanar */
    rg__qh_point(qh, corner[3], p);
    rg__qh_sub(p, a, d);
    if (rg__qh_dot(normal, d) > 0) {  /* the apex must lie below the first face */
        k = corner[1]; corner[1] = corner[2]; corner[2] = k;
    }
    for (k = 0; k < 4; ++k) {
        faces[k] = rg__qh_new_face(qh, corner[face_corners[k][0]], corner[face_corners[k][1]],
                                   corner[face_corners[k][2]]);
        if (!rg__qh_face_plane(qh, &qh->faces[faces[k]])) return RG__QH_DEGENERATE;
    }
    /* each face's edge v[i] -> v[i+1] meets the face that has it the other way round */
    for (k = 0; k < 4; ++k)
        for (i = 0; i < 3; ++i) {
            rg__qh_face *f = &qh->faces[faces[k]];
            int from = f->v[i], to = f->v[(i + 1) % 3], g, e;
            for (g = 0; g < 4; ++g)
                for (e = 0; e < 3; ++e)
                    if (qh->faces[faces[g]].v[e] == to &&
                        qh->faces[faces[g]].v[(e + 1) % 3] == from)
                        f->adj[i] = faces[g];
        }
    for (i = 0; i < n; ++i)
        if (i != corner[0] && i != corner[1] && i != corner[2] && i != corner[3])
            rg__qh_partition(qh, i, faces, 4);
    for (k = 0; k < 4; ++k)
        if (qh->faces[faces[k]].outside >= 0) stbds_arrput(qh->pending, faces[k]);
    return RG__QH_OK;
}

/* The faces the apex sees, by a depth-first search from face f across edges, and the horizon:
   the edges between a visible face and one that stays. A face is visible when the apex lies
   strictly above its plane by the exact orientation test; faces the apex is coplanar with
   stay, and the new triangles next to them lie in their plane (merged later). With exact
   decisions the visible faces form a disk and the cone over its rim is convex. */
static void rg__qh_find_horizon(rg__quickhull *qh, int f, int apex) {
    int i;
    stbds_arrsetlen(qh->visible, 0);
    stbds_arrsetlen(qh->search, 0);
    stbds_arrsetlen(qh->horizon, 0);
    ++qh->stamp;
    qh->faces[f].stamp = qh->stamp;
    qh->faces[f].visible = 1;
    stbds_arrput(qh->search, f);
    while (stbds_arrlen(qh->search) > 0) {
        int g = stbds_arrpop(qh->search);
        stbds_arrput(qh->visible, g);
        for (i = 0; i < 3; ++i) {
            int h = qh->faces[g].adj[i];
            rg__qh_face *neighbor = &qh->faces[h];
            if (neighbor->stamp == qh->stamp) continue;
            neighbor->stamp = qh->stamp;
            neighbor->visible =
                rg__qh_orientation(qh, neighbor->v[0], neighbor->v[1], neighbor->v[2], apex) > 0;
            if (neighbor->visible) stbds_arrput(qh->search, h);
        }
    }
    for (f = 0; f < (int)stbds_arrlen(qh->visible); ++f) {
        const rg__qh_face *g = &qh->faces[qh->visible[f]];
        for (i = 0; i < 3; ++i)
            if (!qh->faces[g->adj[i]].visible) {
                rg__qh_horizon_edge edge;
                edge.from = g->v[i];
                edge.to = g->v[(i + 1) % 3];
                edge.neighbor = g->adj[i];
                stbds_arrput(qh->horizon, edge);
            }
    }
}

/* Orders the horizon edges into qh->loop, each starting where the previous one ends. Fails
   (0) unless they form one simple loop: each horizon point starts exactly one edge and the walk
   visits every edge. Leaves horizon_from set for the horizon's points. */
static int rg__qh_order_horizon(rg__quickhull *qh) {
    int n = (int)stbds_arrlen(qh->horizon), i, k, ok = n >= 3;
    stbds_arrsetlen(qh->loop, 0);
    for (i = 0; i < n && ok; ++i) {
        int *slot = &qh->horizon_from[qh->horizon[i].from];
        if (*slot >= 0) ok = 0;
        else *slot = i;
    }
    for (i = 0, k = 0; i < n && ok; ++i) {
        stbds_arrput(qh->loop, qh->horizon[k]);
        k = qh->horizon_from[qh->horizon[k].to];
        if (k < 0 || (k == 0) != (i == n - 1)) ok = 0;
    }
    return ok;
}

static void rg__qh_clear_horizon_marks(rg__quickhull *qh) {
    int i;
    for (i = 0; i < (int)stbds_arrlen(qh->horizon); ++i) qh->horizon_from[qh->horizon[i].from] = -1;
}

/* Whether consecutive triangles of the cone make convex edges: each horizon point at most the
   tolerance above the triangles over the horizon edges next to it. With exact visibility the
   cone over the horizon is convex; this guards that, and a failure rebuilds the hull with a
   thicker tolerance. */
static int rg__qh_cone_is_convex(const rg__quickhull *qh, int apex) {
    int n = (int)stbds_arrlen(qh->loop), k;
    for (k = 0; k < n; ++k) {
        rg__qh_face cone;
        cone.v[0] = qh->loop[k].from;
        cone.v[1] = qh->loop[k].to;
        cone.v[2] = apex;
        if (!rg__qh_face_plane(qh, &cone) ||
            rg__qh_height(qh, &cone, qh->loop[(k + 1) % n].to) > qh->tolerance ||
            rg__qh_height(qh, &cone, qh->loop[(k + n - 1) % n].from) > qh->tolerance)
            return 0;
    }
    return 1;
}

/* One quickhull step with the furthest outside point of face f as the apex. 0 on a
   topological or numerical failure. */
static int rg__qh_add_apex(rg__quickhull *qh, int f) {
    int apex = qh->faces[f].furthest, i, k, n;
    rg__qh_find_horizon(qh, f, apex);
    if (!rg__qh_order_horizon(qh) || !rg__qh_cone_is_convex(qh, apex)) {
        rg__qh_clear_horizon_marks(qh);
        return 0;
    }
    /* the visible faces go; their outside and coplanar points are orphans until the cone takes
       them, and so are their corners inside the horizon (those are inside the new hull; a
       safety net, so that no point is ever lost silently) */
    stbds_arrsetlen(qh->orphans, 0);
    for (i = 0; i < (int)stbds_arrlen(qh->visible); ++i) {
        int g = qh->visible[i], p;
        for (p = qh->faces[g].outside; p >= 0; p = qh->next[p])
            if (p != apex) stbds_arrput(qh->orphans, p);
        for (p = qh->faces[g].coplanar; p >= 0; p = qh->next[p]) stbds_arrput(qh->orphans, p);
        for (k = 0; k < 3; ++k) {
            int corner = qh->faces[g].v[k];
            if (qh->horizon_from[corner] != -1) continue;  /* on the horizon or taken */
            qh->horizon_from[corner] = -2;
            stbds_arrput(qh->orphans, corner);
        }
        qh->faces[g].alive = 0;
        stbds_arrput(qh->free_faces, g);
    }
    for (i = 0; i < (int)stbds_arrlen(qh->orphans); ++i)
        if (qh->horizon_from[qh->orphans[i]] == -2) qh->horizon_from[qh->orphans[i]] = -1;
    rg__qh_clear_horizon_marks(qh);
    n = (int)stbds_arrlen(qh->loop);
    stbds_arrsetlen(qh->cone, 0);
    for (k = 0; k < n; ++k) {
        rg__qh_horizon_edge edge = qh->loop[k];
        int t = rg__qh_new_face(qh, edge.from, edge.to, apex);
        rg__qh_face *neighbor = &qh->faces[edge.neighbor];
        stbds_arrput(qh->cone, t);
        qh->faces[t].adj[0] = edge.neighbor;
        if (!rg__qh_face_plane(qh, &qh->faces[t])) return 0;
        /* the face across the horizon edge now borders the new triangle */
        for (i = 0; i < 3; ++i)
            if (neighbor->v[i] == edge.to && neighbor->v[(i + 1) % 3] == edge.from) break;
        if (i == 3) return 0;
        neighbor->adj[i] = t;
    }
    for (k = 0; k < n; ++k) {
        qh->faces[qh->cone[k]].adj[1] = qh->cone[(k + 1) % n];
        qh->faces[qh->cone[k]].adj[2] = qh->cone[(k + n - 1) % n];
    }
    for (i = 0; i < (int)stbds_arrlen(qh->orphans); ++i)
        rg__qh_partition(qh, qh->orphans[i], qh->cone, n);
    for (k = 0; k < n; ++k)
        if (qh->faces[qh->cone[k]].outside >= 0) stbds_arrput(qh->pending, qh->cone[k]);
    return 1;
}

/* The coplanar points left on the finished hull: from its face, each climbs to the neighbour it
   is highest above while that height grows (Qhull's qh_findbest). A point that ends more than
   the tolerance above a face goes into that face's outside set. Returns how many did. */
static int rg__qh_recheck_coplanar(rg__quickhull *qh) {
    int f, moved = 0;
    for (f = 0; f < (int)stbds_arrlen(qh->faces); ++f) {
        int p, next, keep = -1;
        if (!qh->faces[f].alive) continue;
        for (p = qh->faces[f].coplanar; p >= 0; p = next) {
            int best = f, climbed = 1, i;
            double height = rg__qh_height(qh, &qh->faces[f], p);
            next = qh->next[p];
            while (climbed) {
                int from = best;
                climbed = 0;
                for (i = 0; i < 3; ++i) {
                    int g = qh->faces[from].adj[i];
                    double h = rg__qh_height(qh, &qh->faces[g], p);
                    if (h > height) { height = h; best = g; climbed = 1; }
                }
            }
            if (height > qh->tolerance) {
                if (qh->faces[best].outside < 0) stbds_arrput(qh->pending, best);
                rg__qh_add_outside(qh, best, p, height);
                ++moved;
            } else {
                qh->next[p] = keep;
                keep = p;
            }
        }
        qh->faces[f].coplanar = keep;
    }
    return moved;
}

/* The triangulated hull: quickhull until no face has outside points left, and no coplanar point
   turns out to be outside. */
static int rg__qh_build_triangles(rg__quickhull *qh) {
    int i, status, steps = 0;
    stbds_arrsetlen(qh->next, qh->count);
    stbds_arrsetlen(qh->horizon_from, qh->count);
    for (i = 0; i < qh->count; ++i) qh->next[i] = qh->horizon_from[i] = -1;
    status = rg__qh_initial_simplex(qh);
    if (status != RG__QH_OK) return status;
    do {
        while (stbds_arrlen(qh->pending) > 0) {
            int f = stbds_arrpop(qh->pending);
            if (!qh->faces[f].alive || qh->faces[f].outside < 0) continue;
            /* every step makes a vertex of an outside point; only orphaned corners (see
               rg__qh_add_apex) can come back, so this bound is generous */
            if (++steps > 2 * qh->count + 16 || !rg__qh_add_apex(qh, f)) return RG__QH_RETRY;
        }
    } while (rg__qh_recheck_coplanar(qh) > 0);
    return RG__QH_OK;
}

/* ---- >>quickhull.polygons: coplanar triangles merged into polygons, the hull emitted --------- */

static void rg__qh_free(rg__quickhull *qh) {
    stbds_arrfree(qh->next);
    stbds_arrfree(qh->horizon_from);
    stbds_arrfree(qh->faces);
    stbds_arrfree(qh->free_faces);
    stbds_arrfree(qh->pending);
    stbds_arrfree(qh->search);
    stbds_arrfree(qh->visible);
    stbds_arrfree(qh->cone);
    stbds_arrfree(qh->orphans);
    stbds_arrfree(qh->horizon);
    stbds_arrfree(qh->loop);
}

static int rg__qh_find(int *parent, int t) {
    while (parent[t] != t) {
        parent[t] = parent[parent[t]];
        t = parent[t];
    }
    return t;
}

/* Whether two groups of triangles together stay flat: every corner within the tolerance of the
   plane through their area-weighted centroid, normal to their summed area vectors. */
static int rg__qh_union_is_flat(const rg__quickhull *qh, const rg__qh_group *a,
                                const rg__qh_group *b) {
    double normal[3], centre[3], length, weight = a->weight + b->weight, p[3], d[3];
    int i, k;
    const rg__qh_group *both[2];
    for (k = 0; k < 3; ++k) {
        normal[k] = a->area[k] + b->area[k];
        centre[k] = (a->moment[k] + b->moment[k]) / weight;
    }
    length = sqrt(rg__qh_dot(normal, normal));
    /* a merge must not cancel area: faces turned away from each other (the two sides of a thin
       slab) are never one face, while a sliver of either orientation may join a large face */
    if (!(weight > 0) || !(length >= sqrt(rg__qh_dot(a->area, a->area)) / 2) ||
        !(length >= sqrt(rg__qh_dot(b->area, b->area)) / 2))
        return 0;
    for (k = 0; k < 3; ++k) normal[k] /= length;
    both[0] = a;
    both[1] = b;
    for (k = 0; k < 2; ++k)
        for (i = 0; i < (int)stbds_arrlen(both[k]->vertices); ++i) {
            rg__qh_point(qh, both[k]->vertices[i], p);
            rg__qh_sub(p, centre, d);
            if (fabs(rg__qh_dot(normal, d)) > qh->tolerance) return 0;
        }
    return 1;
}

/* 1 - cos of the angle between two groups' normals. */
static double rg__qh_normal_gap(const rg__qh_group *a, const rg__qh_group *b) {
    double la = sqrt(rg__qh_dot(a->area, a->area)), lb = sqrt(rg__qh_dot(b->area, b->area));
    if (!(la > 0) || !(lb > 0)) return 2;
    return 1 - rg__qh_dot(a->area, b->area) / (la * lb);
}

/* Greedy merging of adjacent triangles into flat groups: passes over the edges in triangle
   order, joining the two groups on either side whenever their union stays flat, until a pass
   joins nothing. The most nearly parallel groups go first (passes with a growing bound on the
   angle between the normals): on a thin slab the sides are nearly parallel to the big faces
   and flat with a piece of them within the tolerance, and must not take that piece before the
   face's own, exactly coplanar, triangles have come together. Writes each triangle's group into
   pg->group. */
static void rg__qh_merge_coplanar(const rg__quickhull *qh, rg__qh_polygons *pg) {
    static const double gap_bounds[8] = {0, 1e-14, 1e-12, 1e-10, 1e-8, 1e-6, 1e-4, 2};
    int m = (int)stbds_arrlen(pg->triangles), t, k, changed, bound;
    int *parent = NULL;
    rg__qh_group *groups = NULL;
    stbds_arrsetlen(parent, m);
    stbds_arrsetlen(groups, m);
    for (t = 0; t < m; ++t) {
        const rg__qh_face *f = &qh->faces[pg->triangles[t]];
        double p[3][3], e1[3], e2[3], area[3], weight;
        rg__qh_group *g = &groups[t];
        parent[t] = t;
        for (k = 0; k < 3; ++k) rg__qh_point(qh, f->v[k], p[k]);
        rg__qh_sub(p[1], p[0], e1);
        rg__qh_sub(p[2], p[0], e2);
        rg__qh_cross(e1, e2, area);
        weight = sqrt(rg__qh_dot(area, area)) / 2;
        g->vertices = NULL;
        g->weight = weight;
        for (k = 0; k < 3; ++k) {
            g->area[k] = f->normal[k] * weight;  /* the accurate normal, scaled by the area */
            g->moment[k] = weight * (p[0][k] + p[1][k] + p[2][k]) / 3;
            stbds_arrput(g->vertices, f->v[k]);
        }
    }
    for (bound = 0; bound < 8; ++bound) do {
        changed = 0;
        for (t = 0; t < m; ++t)
            for (k = 0; k < 3; ++k) {
                int u = pg->triangle_of[qh->faces[pg->triangles[t]].adj[k]], a, b, root, other, i;
                if (u < t) continue;  /* each edge once */
                a = rg__qh_find(parent, t);
                b = rg__qh_find(parent, u);
                if (a == b || rg__qh_normal_gap(&groups[a], &groups[b]) > gap_bounds[bound] ||
                    !rg__qh_union_is_flat(qh, &groups[a], &groups[b]))
                    continue;
                /* the group with more corners absorbs the other */
                root = stbds_arrlen(groups[a].vertices) >= stbds_arrlen(groups[b].vertices) ? a : b;
                other = root == a ? b : a;
                for (i = 0; i < 3; ++i) {
                    groups[root].area[i] += groups[other].area[i];
                    groups[root].moment[i] += groups[other].moment[i];
                }
                groups[root].weight += groups[other].weight;
                for (i = 0; i < (int)stbds_arrlen(groups[other].vertices); ++i)
                    stbds_arrput(groups[root].vertices, groups[other].vertices[i]);
                stbds_arrfree(groups[other].vertices);
                parent[other] = root;
                changed = 1;
            }
    } while (changed);
    for (t = 0; t < m; ++t) pg->group[t] = rg__qh_find(parent, t);
    for (t = 0; t < m; ++t) stbds_arrfree(groups[t].vertices);
    stbds_arrfree(groups);
    stbds_arrfree(parent);
}

/* Whether a boundary loop turns left (seen from outside along its Newell normal) at every
   point, or goes straight within the tolerance. */
static int rg__qh_loop_is_convex(const rg__quickhull *qh, const int *loop, int count) {
    double normal[3] = {0, 0, 0}, p[3], q[3], v[3], chord[3], d[3], c[3], length;
    int i;
    for (i = 0; i < count; ++i) {
        rg__qh_point(qh, loop[i], p);
        rg__qh_point(qh, loop[(i + 1) % count], q);
        normal[0] += (p[1] - q[1]) * (p[2] + q[2]);
        normal[1] += (p[2] - q[2]) * (p[0] + q[0]);
        normal[2] += (p[0] - q[0]) * (p[1] + q[1]);
    }
    length = sqrt(rg__qh_dot(normal, normal));
    if (!(length > 0)) return 0;
    for (i = 0; i < 3; ++i) normal[i] /= length;
    for (i = 0; i < count; ++i) {
        double chord_length;
        rg__qh_point(qh, loop[(i + count - 1) % count], p);
        rg__qh_point(qh, loop[i], v);
        rg__qh_point(qh, loop[(i + 1) % count], q);
        rg__qh_sub(q, p, chord);
        rg__qh_sub(v, p, d);
        rg__qh_cross(chord, d, c);
        chord_length = sqrt(rg__qh_dot(chord, chord));
        /* a convex corner lies to the right of the chord from its predecessor to its successor */
        if (!(chord_length > 0) || rg__qh_dot(c, normal) / chord_length > qh->tolerance) return 0;
    }
    return 1;
}

/* The boundary loop of every group: its half-edges whose twin lies in another group, chained
   from point to point. A group is invalid unless they form one simple loop (then the group is a
   disk) which is convex. Returns the number of invalid groups. */
static int rg__qh_trace_boundaries(const rg__quickhull *qh, rg__qh_polygons *pg) {
    struct { uint64_t key; int value; } *leaving = NULL;  /* (group, from) -> half-edge */
    int m = (int)stbds_arrlen(pg->triangles), t, k, i, invalid_count = 0;
    stbds_arrsetlen(pg->order, 0);
    stbds_arrsetlen(pg->loop, 0);
    for (t = 0; t < m; ++t) {
        pg->first_half[t] = -1;
        pg->half_count[t] = pg->loop_count[t] = pg->invalid[t] = 0;
        pg->loop_first[t] = -1;
    }
    for (t = 0; t < m; ++t)
        for (k = 0; k < 3; ++k) {
            const rg__qh_face *f = &qh->faces[pg->triangles[t]];
            int g = pg->group[t], u = pg->triangle_of[f->adj[k]];
            uint64_t key = ((uint64_t)(uint32_t)g << 32) | (uint32_t)f->v[k];
            if (pg->group[u] == g) continue;
            if (stbds_hmgeti(leaving, key) >= 0) pg->invalid[g] = 1;  /* pinched at a point */
            else stbds_hmput(leaving, key, 3 * t + k);
            if (pg->first_half[g] < 0) {
                pg->first_half[g] = 3 * t + k;
                stbds_arrput(pg->order, g);
            }
            ++pg->half_count[g];
        }
    for (i = 0; i < (int)stbds_arrlen(pg->order); ++i) {
        int g = pg->order[i], half = pg->first_half[g], steps = 0;
        pg->loop_first[g] = (int)stbds_arrlen(pg->loop);
        while (!pg->invalid[g]) {
            const rg__qh_face *f = &qh->faces[pg->triangles[half / 3]];
            uint64_t key = ((uint64_t)(uint32_t)g << 32) | (uint32_t)f->v[(half % 3 + 1) % 3];
            ptrdiff_t at = stbds_hmgeti(leaving, key);
            stbds_arrput(pg->loop, f->v[half % 3]);
            ++steps;
            if (at < 0 || steps > pg->half_count[g]) pg->invalid[g] = 1;
            else if ((half = leaving[at].value) == pg->first_half[g]) break;
        }
        if (steps != pg->half_count[g]) pg->invalid[g] = 1;
        pg->loop_count[g] = steps;
        if (!pg->invalid[g] && steps > 3 &&
            !rg__qh_loop_is_convex(qh, pg->loop + pg->loop_first[g], steps))
            pg->invalid[g] = 1;
        invalid_count += pg->invalid[g];
    }
    stbds_hmfree(leaving);
    return invalid_count;
}

/* Whether a polygon turns left at every corner, strictly, about its Newell normal. */
static int rg__qh_polygon_is_strictly_convex(const rg_vec3 *vertices, const int *indices,
                                             int count) {
    double normal[3] = {0, 0, 0}, o[3];
    int i, k;
    rg__qh_point_of(vertices[indices[0]], o);
    for (i = 0; i < count; ++i) {
        double p[3], q[3];
        rg__qh_point_of(vertices[indices[i]], p);
        rg__qh_point_of(vertices[indices[(i + 1) % count]], q);
        for (k = 0; k < 3; ++k) { p[k] -= o[k]; q[k] -= o[k]; }
        normal[0] += (p[1] - q[1]) * (p[2] + q[2]);
        normal[1] += (p[2] - q[2]) * (p[0] + q[0]);
        normal[2] += (p[0] - q[0]) * (p[1] + q[1]);
    }
    for (i = 0; i < count; ++i) {
        double a[3], b[3], c[3], u[3], v[3], turn[3];
        rg__qh_point_of(vertices[indices[(i + count - 1) % count]], a);
        rg__qh_point_of(vertices[indices[i]], b);
        rg__qh_point_of(vertices[indices[(i + 1) % count]], c);
        rg__qh_sub(b, a, u);
        rg__qh_sub(c, b, v);
        rg__qh_cross(u, v, turn);
        if (!(rg__qh_dot(turn, normal) > 0)) return 0;
    }
    return 1;
}

/* Whether the points dropped from the triangles stay inside the emitted hull: every vertex of a
   triangle that is not a corner at most twice the tolerance above every face plane of the hull
   (the merge lets a polygon's points stray the tolerance to either side of it). Then, by
   convexity, so does the whole triangulated hull, and every input point lies within three
   tolerances of the emitted one (validated in tests/test_quickhull.c). The emitted hull is the
   hull of its corners, so it can only be too small, never too large. A point between just two
   polygons lies on their common edge when the polygons are exactly planar, and it is dropped;
   merged at the tolerance, a point far out can be there too: the tip of a needle, one of whose
   sides merged into one polygon while the other faces the other way, would be cut off. The
   groups with such a point among their triangles are marked invalid (they go back to
   triangles, and the point becomes a corner); returns how many. `state` has room for a number
   per point. */
static int rg__qh_reject_cut_off_points(const rg__quickhull *qh, rg__qh_polygons *pg,
                                        const rg_hull *hull, int *state) {
    int m = (int)stbds_arrlen(pg->triangles), t, f, k, rejected = 0;
    double *planes = NULL;  /* per face: its normal, and its offset plus twice the tolerance */
    for (t = 0; t < m; ++t)
        for (k = 0; k < 3; ++k) state[qh->faces[pg->triangles[t]].v[k]] = 0;
    for (t = 0; t < m; ++t)
        for (k = 0; k < 3; ++k) {
            int v = qh->faces[pg->triangles[t]].v[k];
            if (pg->corners[v] >= 3) continue;
            if (state[v] == 0) {
                double p[3];
                if (!planes) {
                    stbds_arrsetlen(planes, 4 * hull->face_count);
                    for (f = 0; f < hull->face_count; ++f) {
                        rg__qh_point_of(hull->faces[f].normal, planes + 4 * f);
                        planes[4 * f + 3] = (double)hull->faces[f].offset + 2 * qh->tolerance;
                    }
                }
                rg__qh_point(qh, v, p);
                state[v] = 1;
                for (f = 0; f < hull->face_count; ++f)
                    if (rg__qh_dot(planes + 4 * f, p) > planes[4 * f + 3]) break;
                if (f < hull->face_count) state[v] = 2;
            }
            if (state[v] == 2 && !pg->invalid[pg->group[t]]) {
                pg->invalid[pg->group[t]] = 1;
                ++rejected;
            }
        }
    stbds_arrfree(planes);
    return rejected;
}

typedef struct rg__qh_face_ref { const int *indices; int count; } rg__qh_face_ref;

/* Faces in lexicographic order of their index sequences (each starts at its smallest index). */
static int rg__qh_compare_faces(const void *a, const void *b) {
    const rg__qh_face_ref *x = (const rg__qh_face_ref *)a, *y = (const rg__qh_face_ref *)b;
    int i;
    for (i = 0; i < x->count && i < y->count; ++i)
        if (x->indices[i] != y->indices[i]) return x->indices[i] < y->indices[i] ? -1 : 1;
    return x->count < y->count ? -1 : x->count > y->count;
}

/* The polygons' corners, renumbered in input order, and the polygons in canonical order, handed
   to rg_hull_create_polyhedron. A polygon left with fewer than three corners collapses into an
   edge between its neighbours and is dropped; that can turn more points into non-corners, so
   the count repeats until nothing changes. A group whose polygon is not strictly convex on its
   corners (possible when the tolerance is coarse next to the shape's details), or whose
   dropped points the built hull cuts off (rg__qh_reject_cut_off_points), is marked invalid
   and counted in *rejected, and no hull is returned. */
static rg_hull *rg__qh_emit_hull(const rg__quickhull *qh, rg__qh_polygons *pg, int *rejected,
                                 rg_result *result) {
    int *index = NULL, *alive = NULL, *sizes = NULL, *indices = NULL, *canonical = NULL;
    rg_vec3 *vertices = NULL;
    rg__qh_face_ref *refs = NULL;
    int i, j, g, changed, groups = (int)stbds_arrlen(pg->order), face_count;
    rg_hull *hull = NULL;
    stbds_arrsetlen(pg->corners, qh->count);
    stbds_arrsetlen(index, qh->count);
    stbds_arrsetlen(alive, groups);
    for (i = 0; i < qh->count; ++i) pg->corners[i] = 0;
    for (i = 0; i < groups; ++i) {
        g = pg->order[i];
        alive[i] = 1;
        for (j = 0; j < pg->loop_count[g]; ++j) ++pg->corners[pg->loop[pg->loop_first[g] + j]];
    }
    do {
        changed = 0;
        for (i = 0; i < groups; ++i) {
            int kept = 0;
            g = pg->order[i];
            if (!alive[i]) continue;
            for (j = 0; j < pg->loop_count[g]; ++j)
                kept += pg->corners[pg->loop[pg->loop_first[g] + j]] >= 3;
            if (kept >= 3) continue;
            alive[i] = 0;
            changed = 1;
            for (j = 0; j < pg->loop_count[g]; ++j) --pg->corners[pg->loop[pg->loop_first[g] + j]];
        }
    } while (changed);
    for (i = 0; i < qh->count; ++i) {
        index[i] = -1;
        if (pg->corners[i] >= 3) {
            index[i] = (int)stbds_arrlen(vertices);
            stbds_arrput(vertices, qh->points[i]);
        }
    }
    for (i = 0; i < groups; ++i) {
        int first = (int)stbds_arrlen(indices), smallest = 0, count;
        g = pg->order[i];
        if (!alive[i]) continue;
        for (j = 0; j < pg->loop_count[g]; ++j) {
            int v = index[pg->loop[pg->loop_first[g] + j]];
            if (v >= 0) stbds_arrput(indices, v);
        }
        count = (int)stbds_arrlen(indices) - first;
        if (!rg__qh_polygon_is_strictly_convex(vertices, indices + first, count)) {
            pg->invalid[g] = 1;
            ++*rejected;
        }
        stbds_arrput(sizes, count);
        for (j = 1; j < count; ++j)
            if (indices[first + j] < indices[first + smallest]) smallest = j;
        /* rotate the polygon to start at its smallest index */
        for (j = 0; j < count; ++j)
            stbds_arrput(canonical, indices[first + (smallest + j) % count]);
        for (j = 0; j < count; ++j) indices[first + j] = canonical[j];
        stbds_arrsetlen(canonical, 0);
    }
    face_count = (int)stbds_arrlen(sizes);
    for (i = 0, j = 0; i < face_count; j += sizes[i], ++i) {  /* `indices` no longer grows */
        rg__qh_face_ref ref;
        ref.indices = indices + j;
        ref.count = sizes[i];
        stbds_arrput(refs, ref);
    }
    if (face_count >= 4) /* (qsort's pointer must not be NULL, even for zero elements) */
        qsort(refs, (size_t)face_count, sizeof *refs, rg__qh_compare_faces);
    for (i = 0; i < face_count; ++i) {
        sizes[i] = refs[i].count;
        for (j = 0; j < refs[i].count; ++j) stbds_arrput(canonical, refs[i].indices[j]);
    }
    if (*rejected == 0)
        hull = rg_hull_create_polyhedron(vertices, (int)stbds_arrlen(vertices), sizes, face_count,
                                         canonical, result);
    /* (`index` is no longer needed: it holds the points' states) */
    if (hull && (*rejected = rg__qh_reject_cut_off_points(qh, pg, hull, index)) > 0) {
        rg_hull_destroy(hull);
        hull = NULL;
    }
    stbds_arrfree(index);
    stbds_arrfree(alive);
    stbds_arrfree(sizes);
    stbds_arrfree(indices);
    stbds_arrfree(canonical);
    stbds_arrfree(vertices);
    stbds_arrfree(refs);
    return hull;
}

/* Every live triangle's neighbours are alive and see it across the same edge, reversed. */
static int rg__qh_triangles_are_closed(const rg__quickhull *qh) {
    int f, i, j;
    for (f = 0; f < (int)stbds_arrlen(qh->faces); ++f) {
        const rg__qh_face *face = &qh->faces[f];
        if (!face->alive) continue;
        for (i = 0; i < 3; ++i) {
            const rg__qh_face *other;
            if (face->adj[i] < 0 || face->adj[i] >= (int)stbds_arrlen(qh->faces)) return 0;
            other = &qh->faces[face->adj[i]];
            if (!other->alive) return 0;
            for (j = 0; j < 3; ++j)
                if (other->v[j] == face->v[(i + 1) % 3] && other->v[(j + 1) % 3] == face->v[i])
                    break;
            if (j == 3 || other->adj[j] != f) return 0;
        }
    }
    return 1;
}

/* Groups marked invalid go back to their triangles. */
static void rg__qh_split_invalid_groups(rg__qh_polygons *pg) {
    int t, m = (int)stbds_arrlen(pg->triangles);
    for (t = 0; t < m; ++t)
        if (pg->invalid[pg->group[t]]) pg->group[t] = -1 - t;  /* marked: becomes a triangle */
    for (t = 0; t < m; ++t)
        if (pg->group[t] < 0) pg->group[t] = -1 - pg->group[t];
}

/* From the finished triangles to a hull: merge, trace the polygons, split the groups whose
   boundary is not one convex loop, whose polygon is not strictly convex, or whose dropped
   points would move the surface (see rg__qh_emit_hull) back into their triangles, and emit. */
static rg_hull *rg__qh_make_hull(const rg__quickhull *qh, rg_result *result) {
    rg__qh_polygons pg;
    rg_hull *hull = NULL;
    int f, m, round;
    memset(&pg, 0, sizeof pg);
    if (!rg__qh_triangles_are_closed(qh)) {
        rg__set_result(result, RG_ERR_DEGENERATE);
        return NULL;
    }
    stbds_arrsetlen(pg.triangle_of, stbds_arrlen(qh->faces));
    for (f = 0; f < (int)stbds_arrlen(qh->faces); ++f) {
        pg.triangle_of[f] = -1;
        if (qh->faces[f].alive) {
            pg.triangle_of[f] = (int)stbds_arrlen(pg.triangles);
            stbds_arrput(pg.triangles, f);
        }
    }
    m = (int)stbds_arrlen(pg.triangles);
    stbds_arrsetlen(pg.group, m);
    stbds_arrsetlen(pg.first_half, m);
    stbds_arrsetlen(pg.half_count, m);
    stbds_arrsetlen(pg.loop_first, m);
    stbds_arrsetlen(pg.loop_count, m);
    stbds_arrsetlen(pg.invalid, m);
    rg__qh_merge_coplanar(qh, &pg);
    rg__set_result(result, RG_ERR_DEGENERATE);
    for (round = 0; round < 16; ++round) {
        int rejected = 0;
        if (rg__qh_trace_boundaries(qh, &pg) > 0) {
            rg__qh_split_invalid_groups(&pg);
            if (rg__qh_trace_boundaries(qh, &pg) > 0) break;
        }
        hull = rg__qh_emit_hull(qh, &pg, &rejected, result);
        if (rejected == 0) break;  /* built, or refused for another reason */
        rg__qh_split_invalid_groups(&pg);
    }
    stbds_arrfree(pg.triangles);
    stbds_arrfree(pg.triangle_of);
    stbds_arrfree(pg.group);
    stbds_arrfree(pg.order);
    stbds_arrfree(pg.first_half);
    stbds_arrfree(pg.half_count);
    stbds_arrfree(pg.loop_first);
    stbds_arrfree(pg.loop_count);
    stbds_arrfree(pg.invalid);
    stbds_arrfree(pg.loop);
    stbds_arrfree(pg.corners);
    return hull;
}

RIGID_API rg_hull *rg_hull_create(const rg_vec3 *points, int count, rg_result *result) {
    double scale, extreme[3] = {0, 0, 0};
    int i, attempt;
    rg_result status = RG_ERR_DEGENERATE;
    if (!points || count < 0) {
        rg__set_result(result, RG_ERR_INVALID_ARGUMENT);
        return NULL;
    }
    /* every point is checked before the count: NaN, infinities and absurd magnitudes (beyond
       1e15, which rg_hull_create_polyhedron would refuse at the end) are bad input, as in
       rg__v3_is_sane; NaN fails every comparison, so one per coordinate tells all three */
    for (i = 0; i < count; ++i) {
        double x = fabs((double)points[i].x), y = fabs((double)points[i].y);
        double z = fabs((double)points[i].z), limit = (double)RG__MAX_MAGNITUDE;
        if (!(x <= limit && y <= limit && z <= limit)) {
            rg__set_result(result, RG_ERR_INVALID_ARGUMENT);
            return NULL;
        }
        if (x > extreme[0]) extreme[0] = x;
        if (y > extreme[1]) extreme[1] = y;
        if (z > extreme[2]) extreme[2] = z;
    }
    if (count < 4) {
        rg__set_result(result, RG_ERR_DEGENERATE);
        return NULL;
    }
    scale = extreme[0] + extreme[1] + extreme[2];
    for (attempt = 0; attempt < 3; ++attempt) {
        rg__quickhull qh;
        rg_hull *hull = NULL;
        int built;
        memset(&qh, 0, sizeof qh);
        qh.points = points;
        qh.count = count;
        /* heights in double are accurate to a few roundings; the outside sets take points 8
           rounding units of the input above a face; the retries take 8 and 64 times that */
        qh.rounding = 16 * DBL_EPSILON * scale;
        qh.tolerance = 8 * (double)RG__EPSILON > 64 * DBL_EPSILON ? 8 * (double)RG__EPSILON
                                                                  : 64 * DBL_EPSILON;
        qh.tolerance *= scale;
        if (attempt > 0) qh.tolerance *= attempt == 1 ? 8 : 64;
        built = rg__qh_build_triangles(&qh);
        if (built == RG__QH_OK) hull = rg__qh_make_hull(&qh, &status);
        rg__qh_free(&qh);
        if (hull) {
            rg__set_result(result, RG_OK);
            return hull;
        }
        if (built == RG__QH_DEGENERATE || status == RG_ERR_OUT_OF_MEMORY) break;
    }
    rg__set_result(result, status == RG_ERR_OUT_OF_MEMORY ? status : RG_ERR_DEGENERATE);
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

/* Axis preference, for stable manifolds from step to step: an axis whose separation is within
   RG__AXIS_RELATIVE of the depth plus RG__AXIS_ABSOLUTE of the smaller hull's radius of the
   best one counts as equally good, and faces are preferred to edges among those (see
   rg__collide_contact_manifold). Without it, a box resting flat flickers between near-equal face and
   edge axes. The reported depth may differ from the exact minimum overlap by that much. */
#define RG__AXIS_RELATIVE ((rg_real)0.005)
#define RG__AXIS_ABSOLUTE ((rg_real)0.001)

/* A face whose normal lies within about 2 degrees (cosine above this) of the best axis, an edge
   pair's, also qualifies when its clipped manifold reaches the same depth. Two nearly parallel
   faces that overlap only in part (a box resting across the rim of a slightly tilted plate)
   have their least overlap along the cross product of the two rim edges: the face axes count
   the parts that hang over, the edge axis only the crossing. The edge contact is then one
   point, about which the box turns into the plate (funnel: 5 mm in one step); the faces
   clipped against each other give the area that touches, and their deepest point is that
   crossing (its depth along the face normal is the edges' over the cosine). */
#define RG__ALIGNED_COSINE ((rg_real)0.9994)
#define RG__ALIGNED_ROUNDING ((rg_real)1e-5)    /* of the smaller hull's radius */

/* Manifolds of faces with more than this many corners clip in the caller's scratch array. */
#define RG__CLIP_STACK 32

/* ---- >>collide.frames: poses, supports, a pair's frame --------------------------------------- */

/* Hull A's frame seen from hull B's frame, x_b = R x_a + p: R = rot_b^-1 rot_a and
   p = rot_b^-1 (pos_a - pos_b). */
static rg__relative_pose rg__collide_relative_pose_of(rg_vec3 pos_a, rg_quat rot_a, rg_vec3 pos_b,
                                              rg_quat rot_b) {
    rg__relative_pose t;
    rg_quat relative = rg__quat_mul(rg_quat_conjugate(rot_b), rot_a);
    t.rotation = rg_mat3_from_quat(relative);
    t.inverse_rotation = rg_mat3_transpose(t.rotation);
    t.translation = rg__quat_rotate(rg_quat_conjugate(rot_b), rg_v3_sub(pos_a, pos_b));
    return t;
}

static inline rg_vec3 rg__collide_pose_apply(const rg__relative_pose *t, rg_vec3 v) {
    return rg_v3_add(rg_mat3_mul_v3(t->rotation, v), t->translation);
}

/* A's features in B's frame. The full search reads them from the tables of rg__pair_frame;
   the witness test and the manifold compute the few they need with the same functions, so
   both see bit-identical values. */
static inline rg_vec3 rg__collide_a_vertex_in_b(const rg_hull *a, const rg__relative_pose *t, int i) {
    return rg__collide_pose_apply(t, a->vertices[i]);
}
static inline rg_vec3 rg__collide_a_normal_in_b(const rg_hull *a, const rg__relative_pose *t, int f) {
    return rg_mat3_mul_v3(t->rotation, a->faces[f].normal);
}
/* the plane n.x = offset of A's face f moved by the pose: n.(R x + p) = offset_a + n.p */
static inline rg_real rg__collide_a_offset_in_b(const rg_hull *a, const rg__relative_pose *t, int f, rg_vec3 n) {
    return a->faces[f].offset + rg_v3_dot(n, t->translation);
}

/* The direction of edge e of a hull, second vertex minus first. */
static rg_vec3 rg__collide_edge_direction(const rg_hull *h, int e) {
    return rg_v3_sub(h->vertices[h->edges[e].v[1]], h->vertices[h->edges[e].v[0]]);
}

/* The vertex furthest along direction; the first index wins ties. */
static int rg__collide_support_index(const rg_vec3 *vertices, int count, rg_vec3 direction) {
    int i, best = 0;
    rg_real best_dot = rg_v3_dot(vertices[0], direction);
    for (i = 1; i < count; ++i) {
        rg_real d = rg_v3_dot(vertices[i], direction);
        if (d > best_dot) {
            best_dot = d;
            best = i;
        }
    }
    return best;
}

static inline int rg__collide_hull_is_box(const rg_hull *h) { return h->box_half.x > 0; }

/* The vertex of hull h furthest along direction, the first index winning ties, as
   rg__collide_support_index finds it. A box's corner i has +h on axis k when bit k of i is set, so the
   corner with the bits of the positive components makes each term of the dot product the larger
   of +-h_k d_k; rounded addition never decreases when a term grows, so no corner's computed dot
   product is larger. A zero component leaves its bit clear (the lower index of two equal
   corners), as the search does; where rounding hides a nonzero term the two corners' dot
   products are equal, so every separation computed from the corner is bit-identical, and the
   incident face around it (rg__collide_incident_face: the most anti-parallel one) is the same: the
   corners differ only along an axis nearly perpendicular to the direction. */
static inline int rg__collide_hull_support(const rg_hull *h, rg_vec3 direction) {
    if (rg__collide_hull_is_box(h)) return (direction.x > 0) | ((direction.y > 0) << 1) | ((direction.z > 0) << 2);
    return rg__collide_support_index(h->vertices, h->vertex_count, direction);
}

/* The pair seen from B: the pose, tables of A's vertices, face normals and face offsets in B's
   frame and of B's edge directions, and room for the edge query's side table (one real per
   face of B). Box pairs go without tables (NULL): the queries and the manifold compute the few
   features they need with the same functions (rg__collide_frame_vertex ...). */
typedef struct rg__pair_frame {
    const rg_hull *a, *b;
    rg__relative_pose t;
    rg_vec3 *vertices_a, *normals_a, *directions_b;
    rg_real *offsets_a, *side;
    rg_vec3 centroid_a;
} rg__pair_frame;

/* Small hulls keep their tables on the stack, bigger ones in the caller's scratch arrays. */
#define RG__STACK_VECTORS 192
#define RG__STACK_REALS 256

typedef struct rg__pair_storage {
    rg_vec3 vectors[RG__STACK_VECTORS];
    rg_real reals[RG__STACK_REALS];
} rg__pair_storage;

static void rg__collide_pair_frame_start(rg__pair_frame *frame, const rg_hull *a, const rg_hull *b,
                                 const rg__relative_pose *t) {
    memset(frame, 0, sizeof *frame);
    frame->a = a;
    frame->b = b;
    frame->t = *t;
}

/* The tables (pairs of general hulls). */
static void rg__collide_pair_frame_build(rg__pair_frame *frame, rg__pair_storage *storage, rg__collide_scratch *scratch) {
    const rg_hull *a = frame->a, *b = frame->b;
    const rg__relative_pose *t = &frame->t;
    int i, vector_count = a->vertex_count + a->face_count + b->edge_count;
    int real_count = a->face_count + b->face_count;
    rg_vec3 *vectors = storage->vectors;
    rg_real *reals = storage->reals;
    if (vector_count > RG__STACK_VECTORS) {
        stbds_arrsetlen(scratch->vectors, vector_count);
        vectors = scratch->vectors;
    }
    if (real_count > RG__STACK_REALS) {
        stbds_arrsetlen(scratch->reals, real_count);
        reals = scratch->reals;
    }
    frame->vertices_a = vectors;
    frame->normals_a = vectors + a->vertex_count;
    frame->offsets_a = reals;
    frame->centroid_a = rg__collide_pose_apply(t, a->centroid); /* the edge query's (box pairs have their own) */
    for (i = 0; i < a->vertex_count; ++i) frame->vertices_a[i] = rg__collide_a_vertex_in_b(a, t, i);
    for (i = 0; i < a->face_count; ++i) {
        frame->normals_a[i] = rg__collide_a_normal_in_b(a, t, i);
        frame->offsets_a[i] = rg__collide_a_offset_in_b(a, t, i, frame->normals_a[i]);
    }
    frame->directions_b = frame->normals_a + a->face_count;
    frame->side = reals + a->face_count;
    for (i = 0; i < b->edge_count; ++i) frame->directions_b[i] = rg__collide_edge_direction(b, i);
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

/* Separation of B from the plane n.x = offset of a face of A: B's vertex furthest behind it. */
static inline rg_real rg__collide_face_a_separation(const rg_hull *b, rg_vec3 n, rg_real offset, int *support) {
    int s = rg__collide_hull_support(b, rg_v3_neg(n));
    *support = s;
    return rg_v3_dot(n, b->vertices[s]) - offset;
}

/* Separation of A from the plane of B's face f: the direction turned into A's frame finds A's
   deepest vertex among A's own vertices, which is then brought over. */
static inline rg_real rg__collide_face_b_separation(const rg_hull *a, const rg_hull *b, const rg__relative_pose *t,
                                            int f, int *support) {
    rg_vec3 n = b->faces[f].normal;
    int s = rg__collide_hull_support(a, rg_mat3_mul_v3(t->inverse_rotation, rg_v3_neg(n)));
    *support = s;
    return rg_v3_dot(n, rg__collide_a_vertex_in_b(a, t, s)) - b->faces[f].offset;
}

/* A's features in B's frame from the tables or, without them (box pairs), computed by the same
   functions (bit-identical): vertex i of A (is_a) or B, the normal of face f of A or B, and the
   offset of A's face f whose normal is n. */
static inline rg_vec3 rg__collide_frame_vertex(const rg__pair_frame *frame, int is_a, int i) {
    if (!is_a) return frame->b->vertices[i];
    return frame->vertices_a ? frame->vertices_a[i] : rg__collide_a_vertex_in_b(frame->a, &frame->t, i);
}
static inline rg_vec3 rg__collide_frame_normal(const rg__pair_frame *frame, int is_a, int f) {
    if (!is_a) return frame->b->faces[f].normal;
    return frame->normals_a ? frame->normals_a[f] : rg__collide_a_normal_in_b(frame->a, &frame->t, f);
}
static inline rg_real rg__collide_frame_offset_a(const rg__pair_frame *frame, int f, rg_vec3 n) {
    return frame->offsets_a ? frame->offsets_a[f] : rg__collide_a_offset_in_b(frame->a, &frame->t, f, n);
}

/* Separation of B from A's face f. */
static rg_real rg__collide_frame_face_a_separation(const rg__pair_frame *frame, int f, int *support) {
    rg_vec3 n = rg__collide_frame_normal(frame, 1, f);
    return rg__collide_face_a_separation(frame->b, n, rg__collide_frame_offset_a(frame, f, n), support);
}

/* ---- >>collide.axes: face and edge queries, box pairs, witnesses (Baraff §7.1) --------------- */

/* The face of A (of B when faces_of_a is 0) with the largest separation; stops at the first
   one that separates by more than margin. */
static rg__face_query rg__collide_query_faces(const rg__pair_frame *frame, int faces_of_a, rg_real margin) {
    rg__face_query best;
    int f, count = faces_of_a ? frame->a->face_count : frame->b->face_count;
    best.face = -1;
    best.support = 0;
    best.separation = -FLT_MAX;
    for (f = 0; f < count; ++f) {
        int support;
        rg_real s = faces_of_a ? rg__collide_frame_face_a_separation(frame, f, &support)
                               : rg__collide_face_b_separation(frame->a, frame->b, &frame->t, f, &support);
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
} rg__edge_frame;

static rg__edge_frame rg__collide_edge_frame_make(rg_vec3 v0, rg_vec3 v1, rg_vec3 normal0, rg_vec3 normal1) {
    rg__edge_frame frame;
    frame.start = v0;
    frame.direction = rg_v3_sub(v1, v0);
    frame.length_squared = rg_v3_length_squared(frame.direction);
    frame.normal0 = normal0;
    frame.normal1 = normal1;
    return frame;
}

/* Edge e of A, from the tables (full search, manifold of general hulls) or computed on the spot
   (witness, box pairs). */
static rg__edge_frame rg__collide_edge_frame_of_a(const rg__pair_frame *tables, const rg_hull *a,
                                          const rg__relative_pose *t, int e) {
    const rg__hull_edge *edge = &a->edges[e];
    if (tables && tables->vertices_a)
        return rg__collide_edge_frame_make(tables->vertices_a[edge->v[0]], tables->vertices_a[edge->v[1]],
                                   tables->normals_a[edge->faces[0]], tables->normals_a[edge->faces[1]]);
    return rg__collide_edge_frame_make(rg__collide_a_vertex_in_b(a, t, edge->v[0]), rg__collide_a_vertex_in_b(a, t, edge->v[1]),
                               rg__collide_a_normal_in_b(a, t, edge->faces[0]), rg__collide_a_normal_in_b(a, t, edge->faces[1]));
}

/* Do the arcs a-b (A's edge: from normal0 to normal1) and c-d (B's edge negated: from -n0 to
   -n1) cross on the Gauss map? Then the edges span a face of the Minkowski difference A - B.
   c and d must lie on opposite sides of the great circle through a and b, a and b on opposite
   sides of the one through c and d, and the sign of c.(b x a) b.(d x c) rejects the circles'
   second crossing, at the antipode. The normal of an arc's great circle, n1 x n0, is parallel
   to its edge with the same sign for every edge (faces[0] runs v[0] -> v[1] counter-clockwise),
   so the edge directions stand in for b x a and d x c:
     cba = c.e_a = -n0_b.e_a,  dba = -n1_b.e_a,  adc = a.e_b = n0_a.e_b,  bdc = n1_a.e_b.
   Touching arcs (a zero product) do not count: their axis is a face normal. */
static int rg__collide_arcs_cross(rg_real cba, rg_real dba, rg_real adc, rg_real bdc) {
    return cba * dba < 0 && adc * bdc < 0 && cba * bdc > 0;
}

/* Separation of the edge of A in frame and the edge of B from start_b along direction_b, two
   edges spanning a Minkowski face, along their common normal (pointing away from A's centroid).
   The edges support the hulls along that normal, so the separation is the distance between
   their lines. Returns 0 for (nearly) parallel edges, whose axis is a face normal. */
static int rg__collide_edge_pair_separation(const rg__edge_frame *frame, rg_vec3 centroid_a, rg_vec3 start_b,
                                    rg_vec3 direction_b, rg_real *separation, rg_vec3 *normal) {
    rg_vec3 n = rg_v3_cross(frame->direction, direction_b);
    rg_real length = rg_v3_length(n);
    if (!(length > RG__PARALLEL_SINE * rg__sqrt(frame->length_squared * rg_v3_length_squared(direction_b))))
        return 0;
    n = rg_v3_scale(n, 1 / length);
    if (rg_v3_dot(n, rg_v3_sub(frame->start, centroid_a)) < 0) n = rg_v3_neg(n);
    *separation = rg_v3_dot(n, rg_v3_sub(start_b, frame->start));
    *normal = n;
    return 1;
}

/* The gap between the hulls' extents along a unit n of B's frame (from A towards B), from the
   vertices that support them: a separation every axis may claim. An edge pair's separation
   along its axis n is taken only when this confirms it: the edges support the hulls along n
   only as far as their Gauss-map test holds, and a hull small beside its distance from B's
   origin has its vertices in B's frame rounded by more than its own size; its edge directions
   then disagree with its face normals, and a pair that passed the test can face the wrong way
   (a separation as large as the overlap). */
static rg_real rg__collide_support_separation(const rg_hull *a, const rg_hull *b, const rg__relative_pose *t, rg_vec3 n) {
    int on_a = rg__collide_hull_support(a, rg_mat3_mul_v3(t->inverse_rotation, n)), on_b = rg__collide_hull_support(b, rg_v3_neg(n));
    return rg_v3_dot(n, rg_v3_sub(b->vertices[on_b], rg__collide_a_vertex_in_b(a, t, on_a)));
}

/* Does the gap between the hulls' supports along n confirm an edge pair's separation *s? The
   gap is the true separation along n; a pair that passed the Gauss-map test by rounding (see
   rg__collide_support_separation) can claim more, as much as the overlap. Invariant: an edge
   axis never reports more separation than the hulls' supports along it show. When *s says the
   hulls are apart, the gap must say so too (the full search and the witness alike); within the
   margin, the gap must reach *s but for `tolerance`. Otherwise overlapping hulls could look
   apart: no manifold, or one without a positive depth. A pair whose *s rounds above the margin
   while its gap, within `tolerance` of it, does not is still a true pair (edges that cross
   exactly: their lines' distance rounds to 2e-8, the supports' gap to 0). It is kept, with the
   gap (at most the margin) for *s: dropped, it would leave the axis of least overlap to a
   deeper one, and touching hulls a contact as deep. The witness (tolerance 0) never keeps it. */
static int rg__collide_edge_separation_confirmed(const rg_hull *a, const rg_hull *b, const rg__relative_pose *t, rg_vec3 n,
                                         rg_real *s, rg_real margin, rg_real tolerance) {
    rg_real gap = rg__collide_support_separation(a, b, t, n);
    if (!(*s > margin)) return gap >= *s - tolerance;
    if (gap > margin) return 1;
    if (!(gap >= *s - tolerance)) return 0;
    *s = gap;
    return 1;
}

/* The edge pair with the largest separation among those that span a Minkowski face; stops at
   the first that separates by more than margin (a pair whose separation
   rg__collide_edge_separation_confirmed does not confirm is passed over, one it lowers to the gap
   is taken at the gap; it is checked only for a pair that would be the best so far). edge_a is
   -1 when no pair qualifies. The check's tolerance is RG__AXIS_ABSOLUTE of the hulls' radii: far
   above the rounding by which a true pair's gap and separation differ, and no more than the
   axis preference lets a depth be off anyway. */
static rg__edge_query rg__collide_query_edges(const rg__pair_frame *frame, rg_real margin) {
    const rg_hull *a = frame->a, *b = frame->b;
    rg__edge_query best;
    rg_real tolerance = RG__AXIS_ABSOLUTE * (a->radius + b->radius);
    int i, j, f;
    best.edge_a = best.edge_b = -1;
    best.separation = -FLT_MAX;
    best.normal = rg_v3(0, 0, 0);
    for (i = 0; i < a->edge_count; ++i) {
        rg__edge_frame edge_a = rg__collide_edge_frame_of_a(frame, a, &frame->t, i);
        /* The first condition for all pairs at once: which faces of B lie on which side of the
           plane across A's edge. Only the few edges of B whose faces straddle it go on. */
        for (f = 0; f < b->face_count; ++f) frame->side[f] = rg_v3_dot(b->faces[f].normal, edge_a.direction);
        for (j = 0; j < b->edge_count; ++j) {
            const rg__hull_edge *edge = &b->edges[j];
            rg_real side0 = frame->side[edge->faces[0]], side1 = frame->side[edge->faces[1]], s;
            rg_vec3 direction_b, n;
            if (!(side0 * side1 < 0)) continue;
            direction_b = frame->directions_b[j];
            if (!rg__collide_arcs_cross(-side0, -side1, rg_v3_dot(edge_a.normal0, direction_b),
                                rg_v3_dot(edge_a.normal1, direction_b)))
                continue;
            if (!rg__collide_edge_pair_separation(&edge_a, frame->centroid_a, b->vertices[edge->v[0]], direction_b, &s, &n) ||
                !(s > best.separation) || !rg__collide_edge_separation_confirmed(a, b, &frame->t, n, &s, margin, tolerance) ||
                !(s > best.separation))
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

/* Two boxes seen from B, as the box edge query reads them. */
typedef struct rg__box_pair {
    rg_real axis_a[3][3];         /* axis_a[i][k]: component k of A's axis i in B's frame */
    rg_real half_a[3], half_b[3], p[3];
} rg__box_pair;

static rg__box_pair rg__collide_box_pair_make(const rg_hull *a, const rg_hull *b, const rg__relative_pose *t) {
    rg__box_pair pair;
    int i, k;
    for (i = 0; i < 3; ++i)
        for (k = 0; k < 3; ++k) pair.axis_a[i][k] = t->rotation.m[k][i];
    pair.half_a[0] = a->box_half.x; pair.half_a[1] = a->box_half.y; pair.half_a[2] = a->box_half.z;
    pair.half_b[0] = b->box_half.x; pair.half_b[1] = b->box_half.y; pair.half_b[2] = b->box_half.z;
    pair.p[0] = t->translation.x; pair.p[1] = t->translation.y; pair.p[2] = t->translation.z;
    return pair;
}

static inline rg_real rg__collide_dot3(const rg_real *u, const rg_real *v) { return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; }

/* Two boxes (Baraff §7.1's candidate planes for boxes: 3 + 3 face normals and the 9 cross
   products of their axes). Their Minkowski difference has the faces +-u for u = a_i x b_j
   (a_i, b_j: axis i of A, axis j of B), spanned by the edge of A along a_i that supports A
   along the face's normal n and the edge of B along b_j that supports B along -n. A box of half
   extents h reaches sum_k h_k |n.axis_k| from its centre along a unit n, so with A's centre p
   in B's frame (B's at the origin) the separation of that face is |n.p| minus both reaches, for
   the n of the two that points from A towards B (n.p <= 0); the other face's is smaller. This
   is the pair, separation and normal rg__collide_query_edges finds by looking at every edge pair
   (up to rounding), without A's vertices in B's frame. Returns 0 where the generic query has no
   pair: the axes (nearly) parallel (RG__PARALLEL_SINE), or n a face normal of either box (a
   zero component along another axis: the arcs on the Gauss map touch, rg__collide_arcs_cross). The
   edges themselves come from rg__collide_box_edge_pair_edges, only for the pairs the query may keep. */
static inline int rg__collide_box_edge_pair(const rg__box_pair *pair, int i, int j, rg__edge_query *query) {
    const rg_real *c = pair->axis_a[i], *p = pair->p;
    const rg_real *a0 = pair->axis_a[0], *a1 = pair->axis_a[1], *a2 = pair->axis_a[2];
    rg_real u0, u1, u2, along0, along1, along2, length_squared, scale, reach;
    int zero;
    /* u = a_i x b_j, b_j the unit vector of axis j (u_j = 0); scalars, not arrays indexed by
       i and j, so that the values stay in registers */
    if (j == 0) {
        u0 = 0; u1 = c[2]; u2 = -c[1];
    } else if (j == 1) {
        u0 = -c[2]; u1 = 0; u2 = c[0];
    } else {
        u0 = c[1]; u1 = -c[0]; u2 = 0;
    }
    length_squared = u0 * u0 + u1 * u1 + u2 * u2;
    if (!(length_squared > RG__PARALLEL_SINE * RG__PARALLEL_SINE)) return 0;
    /* n = u / |u|, turned to point from A (centre p) towards B (the origin) */
    scale = (u0 * p[0] + u1 * p[1] + u2 * p[2] > 0 ? -1 : 1) / rg__sqrt(length_squared);
    u0 *= scale;
    u1 *= scale;
    u2 *= scale;
    /* along a_i itself n is zero (not computed); u_j is zero, so b_j adds a zero term below */
    along0 = i == 0 ? 0 : u0 * a0[0] + u1 * a0[1] + u2 * a0[2];
    along1 = i == 1 ? 0 : u0 * a1[0] + u1 * a1[1] + u2 * a1[2];
    along2 = i == 2 ? 0 : u0 * a2[0] + u1 * a2[1] + u2 * a2[2];
    zero = (i != 0 && along0 == 0) | (i != 1 && along1 == 0) | (i != 2 && along2 == 0) |
           (j != 0 && u0 == 0) | (j != 1 && u1 == 0) | (j != 2 && u2 == 0);
    if (zero) return 0;
    /* the reaches summed in the order of the axes, A's before B's on each: the same rounding
       whichever axes drop out, since adding zero is exact */
    reach = pair->half_a[0] * rg__fabs(along0) + pair->half_b[0] * rg__fabs(u0);
    reach = reach + pair->half_a[1] * rg__fabs(along1);
    reach = reach + pair->half_b[1] * rg__fabs(u1);
    reach = reach + pair->half_a[2] * rg__fabs(along2);
    reach = reach + pair->half_b[2] * rg__fabs(u2);
    query->separation = -(u0 * p[0] + u1 * p[1] + u2 * p[2]) - reach;
    query->normal = rg_v3(u0, u1, u2);
    return 1;
}

/* The edges of the pair of axes i, j whose normal rg__collide_box_edge_pair found: A's edge along a_i
   at the corner furthest along the normal, B's along b_j at the corner furthest against it
   (the same dot products as there: the normal holds the same components). */
static void rg__collide_box_edge_pair_edges(const rg__box_pair *pair, const rg_hull *a, const rg_hull *b, int i, int j,
                                    rg__edge_query *query) {
    rg_real u[3];
    int k, corner_a = 0;
    u[0] = query->normal.x;
    u[1] = query->normal.y;
    u[2] = query->normal.z;
    for (k = 0; k < 3; ++k)
        if (k != i && rg__collide_dot3(u, pair->axis_a[k]) > 0) corner_a |= 1 << k;
    query->edge_a = a->box_edges[i][corner_a];
    query->edge_b = b->box_edges[j][rg__collide_hull_support(b, rg_v3_neg(query->normal))];
}

/* Does edge pair p come before q in rg__collide_query_edges' order (A's edge, then B's)? */
static int rg__collide_edge_pair_before(const rg__edge_query *p, const rg__edge_query *q) {
    return p->edge_a < q->edge_a || (p->edge_a == q->edge_a && p->edge_b < q->edge_b);
}

/* rg__collide_query_edges for two boxes, with its choice among the 9 pairs: the first pair (in its
   order) that separates by more than margin, else the largest separation, the first winning
   ties. */
static rg__edge_query rg__collide_query_box_edges(const rg__pair_frame *frame, rg_real margin) {
    rg__edge_query best, separating, pair;
    rg__box_pair boxes = rg__collide_box_pair_make(frame->a, frame->b, &frame->t);
    int i, j;
    best.edge_a = best.edge_b = separating.edge_a = separating.edge_b = -1;
    best.separation = separating.separation = -FLT_MAX;
    best.normal = separating.normal = rg_v3(0, 0, 0);
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            if (!rg__collide_box_edge_pair(&boxes, i, j, &pair)) continue;
            /* neither separating nor reaching the best: its edges cannot matter */
            if (!(pair.separation > margin) && pair.separation < best.separation) continue;
            rg__collide_box_edge_pair_edges(&boxes, frame->a, frame->b, i, j, &pair);
            if (pair.separation > margin && (separating.edge_a < 0 || rg__collide_edge_pair_before(&pair, &separating)))
                separating = pair;
            if (pair.separation > best.separation ||
                (pair.separation == best.separation && rg__collide_edge_pair_before(&pair, &best)))
                best = pair;
        }
    return separating.edge_a >= 0 ? separating : best;
}

/* The axis of a box's edge e: its corners differ in that bit only. */
static int rg__collide_box_edge_axis(const rg_hull *h, int e) {
    return rg__hull_box_axis_of_bit(h->edges[e].v[0] ^ h->edges[e].v[1]);
}

/* Baraff §7.1: does the cached feature still separate the hulls by more than margin? It is
   evaluated with the same functions and the same values as in the full search, so a witness
   that holds gives exactly the answer the full search would. A witness naming a feature the
   hulls do not have (an index out of range) does not hold. */
static int rg__collide_witness_separates(const rg_hull *a, const rg_hull *b, const rg__relative_pose *t,
                                 const rg__witness *witness, rg_real margin) {
    int support;
    switch (witness->kind) {
    case RG__AXIS_FACE_A: {
        rg_vec3 n;
        if (witness->feature_a < 0 || witness->feature_a >= a->face_count) return 0;
        n = rg__collide_a_normal_in_b(a, t, witness->feature_a);
        return rg__collide_face_a_separation(b, n, rg__collide_a_offset_in_b(a, t, witness->feature_a, n), &support) > margin;
    }
    case RG__AXIS_FACE_B:
        if (witness->feature_b < 0 || witness->feature_b >= b->face_count) return 0;
        return rg__collide_face_b_separation(a, b, t, witness->feature_b, &support) > margin;
    case RG__AXIS_EDGES: {
        const rg__hull_edge *edge;
        rg__edge_frame frame;
        rg_vec3 direction_b, n;
        rg_real side0, side1, s;
        if (witness->feature_a < 0 || witness->feature_a >= a->edge_count ||
            witness->feature_b < 0 || witness->feature_b >= b->edge_count)
            return 0;
        if (rg__collide_hull_is_box(a) && rg__collide_hull_is_box(b)) {
            /* the box query's own value for the edges' axes, as the full search would see it */
            rg__box_pair boxes = rg__collide_box_pair_make(a, b, t);
            rg__edge_query query;
            return rg__collide_box_edge_pair(&boxes, rg__collide_box_edge_axis(a, witness->feature_a),
                                     rg__collide_box_edge_axis(b, witness->feature_b), &query) &&
                   query.separation > margin;
        }
        edge = &b->edges[witness->feature_b];
        frame = rg__collide_edge_frame_of_a(NULL, a, t, witness->feature_a);
        side0 = rg_v3_dot(b->faces[edge->faces[0]].normal, frame.direction);
        side1 = rg_v3_dot(b->faces[edge->faces[1]].normal, frame.direction);
        direction_b = rg__collide_edge_direction(b, witness->feature_b);
        return side0 * side1 < 0 &&
               rg__collide_arcs_cross(-side0, -side1, rg_v3_dot(frame.normal0, direction_b),
                              rg_v3_dot(frame.normal1, direction_b)) &&
               rg__collide_edge_pair_separation(&frame, rg__collide_pose_apply(t, a->centroid), b->vertices[edge->v[0]],
                                        direction_b, &s, &n) &&
               s > margin && rg__collide_edge_separation_confirmed(a, b, t, n, &s, margin, 0);
    }
    default:
        return 0;
    }
}

/* Records the axis in the witness, if there is one. */
static void rg__collide_witness_set(rg__witness *witness, int kind, int feature_a, int feature_b) {
    if (!witness) return;
    witness->kind = kind;
    witness->feature_a = feature_a;
    witness->feature_b = feature_b;
}

/* ---- >>collide.manifold: feature ids, clipping, face and edge contacts ----------------------- */

/* Feature ids: a hash of the features that made a point, so that ids of big hulls still fit in
   32 bits. Two points of one manifold collide with probability about 2^-32; a collision only
   misplaces a warm start. */
static inline uint32_t rg__collide_hash_combine(uint32_t h, uint32_t value) {
    h ^= value + 0x9e3779b9u + (h << 6) + (h >> 2);
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

/* A point's id is rg__collide_hash_combine(prefix, code): the prefix hashes what the points of one
   manifold share (the axis kind and the two features), once per manifold. */
static uint32_t rg__collide_feature_prefix(int kind, int first, int second) {
    uint32_t h = rg__collide_hash_combine(0x2545f491u, (uint32_t)kind);
    h = rg__collide_hash_combine(h, (uint32_t)first);
    return rg__collide_hash_combine(h, (uint32_t)second);
}

/* Labels of the lines the clipped polygon's edges lie on, and the codes of its vertices: an
   incident vertex i has code i; a point made by clipping line l against side plane s has code
   0x80000000 | l << 12 | s. Lines are incident edges (label j) or the reference face's side
   planes (label 0x40000 | s). */
#define RG__CLIP_SIDE_LINE 0x40000u
static inline uint32_t rg__collide_clip_code(uint32_t line, int side) {
    return 0x80000000u | ((line & 0x7ffffu) << 12) | ((uint32_t)side & 0xfffu);
}

/* Sutherland-Hodgman: the part of polygon in[0..count) behind the plane n.x = offset. */
static int rg__collide_clip_polygon(const rg__clip_vertex *in, int count, rg_vec3 n, rg_real offset, int side,
                            rg__clip_vertex *out) {
    int i, out_count = 0;
    rg_real first, dp, dq;
    if (count <= 0) return 0;
    first = dq = rg_v3_dot(n, in[0].p) - offset;
    for (i = 0; i < count; ++i) {
        /* each vertex's distance once: q's is the next p's, and the last q is the first p */
        const rg__clip_vertex *p = &in[i], *q = i + 1 < count ? &in[i + 1] : &in[0];
        dp = dq;
        dq = i + 1 < count ? rg_v3_dot(n, q->p) - offset : first;
        if (dp <= 0) out[out_count++] = *p;
        if ((dp <= 0) != (dq <= 0)) {
            rg__clip_vertex *x = &out[out_count++];
            x->p = rg_v3_madd(p->p, rg_v3_sub(q->p, p->p), dp / (dp - dq));
            x->depth = 0;
            x->code = rg__collide_clip_code(p->line, side);
            /* leaving: the polygon follows the side plane to where it comes back in */
            x->line = dp <= 0 ? (RG__CLIP_SIDE_LINE | (uint32_t)side) : p->line;
        }
    }
    return out_count;
}

/* Signed area (times 2) of triangle p q r seen along n. */
static inline rg_real rg__collide_signed_area(rg_vec3 p, rg_vec3 q, rg_vec3 r, rg_vec3 n) {
    return rg_v3_dot(n, rg_v3_cross(rg_v3_sub(q, p), rg_v3_sub(r, p)));
}

/* At most four of the points: the deepest, the one furthest from it, the one making the
   largest triangle with those two, and the one adding the most area outside that triangle.
   Writes the chosen indices, deepest first; returns how many. */
static int rg__collide_reduce_contacts(const rg__clip_vertex *v, int count, rg_vec3 n, int chosen[4]) {
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
        area = rg__fabs(rg__collide_signed_area(v[chosen[0]].p, v[chosen[1]].p, v[i].p, n));
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
        if (rg__collide_signed_area(v[corner[0]].p, v[corner[1]].p, v[corner[2]].p, n) < 0) {
            corner[1] = chosen[2];
            corner[2] = chosen[1];
        }
        best = 0;
        for (i = 0; i < count; ++i) {
            for (k = 0; k < 3; ++k) {
                /* an end of the edge itself gives a zero area exactly (a zero or repeated
                   vector in the cross product), never above best */
                if (i == corner[k] || i == corner[(k + 1) % 3]) continue;
                area = -rg__collide_signed_area(v[corner[k]].p, v[corner[(k + 1) % 3]].p, v[i].p, n);
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

/* Keeps face f, whose normal's dot product with the direction is d, if it is more anti-parallel
   than the best so far (the lower index winning ties). */
static inline void rg__collide_incident_face_better(rg_real d, int f, rg_real *best_dot, int *best) {
    if (!(d < *best_dot || (d == *best_dot && f < *best))) return;
    *best_dot = d;
    *best = f;
}

/* Among the faces of hull A (is_a) or B that contain vertex `support`, the one whose normal in
   B's frame is most anti-parallel to direction. Restricting to faces around the deepest vertex
   keeps that vertex in the incident polygon: the most anti-parallel face of all may lie
   elsewhere. A box's corner lies on face 2k (+axis k) when bit k of its index is set, else on
   2k + 1; the order of the candidates does not change the choice. */
static int rg__collide_incident_face(const rg__pair_frame *frame, int is_a, int support, rg_vec3 direction) {
    const rg_hull *h = is_a ? frame->a : frame->b;
    int e, k, best = -1;
    rg_real best_dot = FLT_MAX;
    if (rg__collide_hull_is_box(h)) {
        for (k = 0; k < 3; ++k) {
            int f = 2 * k + !((support >> k) & 1);
            rg__collide_incident_face_better(rg_v3_dot(rg__collide_frame_normal(frame, is_a, f), direction), f, &best_dot, &best);
        }
        return best;
    }
    for (e = 0; e < h->edge_count; ++e) {
        const rg__hull_edge *edge = &h->edges[e];
        if (edge->v[0] != support && edge->v[1] != support) continue;
        for (k = 0; k < 2; ++k) {
            int f = edge->faces[k];
            rg__collide_incident_face_better(rg_v3_dot(rg__collide_frame_normal(frame, is_a, f), direction), f, &best_dot, &best);
        }
    }
    return best;
}

/* Writes chosen points of v into out, from B's frame to world space. */
static void rg__collide_manifold_from_points(const rg__clip_vertex *v, const int *chosen, int count,
                                     rg_vec3 normal, int kind, int first, int second,
                                     rg_vec3 pos_b, rg_quat rot_b, rg_manifold *out) {
    int i;
    uint32_t prefix = rg__collide_feature_prefix(kind, first, second);
    out->normal = rg_v3_normalize(rg__quat_rotate(rot_b, normal));
    out->count = count;
    for (i = 0; i < count; ++i) {
        const rg__clip_vertex *p = &v[chosen[i]];
        out->points[i] = rg_v3_add(pos_b, rg__quat_rotate(rot_b, p->p));
        out->depths[i] = p->depth;
        out->features[i] = rg__collide_hash_combine(prefix, p->code);
    }
}

/* The face of A (is_a) or B that holds every vertex tied for deepest along -n with `support`
   (within `band`), most anti-parallel to n; -1 if none holds them all. When the deepest feature
   is an edge or a face (parallel to the reference face within rounding), the Minkowski argument
   puts some point of that feature over the reference face, not necessarily `support`: a face
   around `support` alone may miss the reference face entirely (a wedge's edge lying across a
   bar 0.04 wide got its far corner, 0.011 beyond the bar). */
static int rg__collide_tied_face(const rg__pair_frame *frame, int is_a, int support, rg_vec3 n, rg_real band) {
    const rg_hull *h = is_a ? frame->a : frame->b;
    rg_real limit = rg_v3_dot(n, rg__collide_frame_vertex(frame, is_a, support)) + band, best_dot = FLT_MAX;
    int i, f, tied = 0, best = -1;
    for (i = 0; i < h->vertex_count; ++i) tied += rg_v3_dot(n, rg__collide_frame_vertex(frame, is_a, i)) <= limit;
    if (tied < 2) return -1;
    for (f = 0; f < h->face_count; ++f) {
        const rg__hull_face *face = &h->faces[f];
        int held = 0;
        for (i = 0; i < face->count; ++i)
            held += rg_v3_dot(n, rg__collide_frame_vertex(frame, is_a, h->face_vertices[face->first + i])) <= limit;
        if (held == tied) rg__collide_incident_face_better(rg_v3_dot(rg__collide_frame_normal(frame, is_a, f), n), f,
                                                           &best_dot, &best);
    }
    return best;
}

/* Two clipping buffers of `capacity` vertices each: on the stack (2 RG__CLIP_STACK) when they
   fit, else in the scratch array. */
static void rg__collide_clip_buffers(rg__clip_vertex *stack, rg__collide_scratch *scratch, int capacity,
                                     rg__clip_vertex **in, rg__clip_vertex **next) {
    rg__clip_vertex *buffer = stack;
    if (capacity > RG__CLIP_STACK) {
        stbds_arrsetlen(scratch->clip, 2 * capacity);
        buffer = scratch->clip;
    } else {
        capacity = RG__CLIP_STACK;
    }
    *in = buffer;
    *next = buffer + capacity;
}

/* The incident face inc_face clipped against the reference face's side planes (Sutherland-
   Hodgman): the points within margin below the reference plane (moved onto B's surface) are
   left in *in; returns their number. The two buffers hold `capacity` vertices each. */
static int rg__collide_clip_incident(const rg__pair_frame *frame, int ref_is_a, int ref_face, int inc_face, rg_vec3 n,
                                     rg_real offset, rg_real margin, rg__clip_vertex **in, rg__clip_vertex **next) {
    const rg_hull *ref = ref_is_a ? frame->a : frame->b, *inc = ref_is_a ? frame->b : frame->a;
    const rg__hull_face *rf = &ref->faces[ref_face], *incf = &inc->faces[inc_face];
    rg_vec3 first, v1;
    int i, count = incf->count, kept;
    for (i = 0; i < count; ++i) {
        (*in)[i].p = rg__collide_frame_vertex(frame, !ref_is_a, inc->face_vertices[incf->first + i]);
        (*in)[i].depth = 0;
        (*in)[i].code = (uint32_t)i;
        (*in)[i].line = (uint32_t)i;
    }
    first = v1 = rg__collide_frame_vertex(frame, ref_is_a, ref->face_vertices[rf->first]);
    for (i = 0; i < rf->count && count > 0; ++i) {
        rg_vec3 v0 = v1, side;
        rg__clip_vertex *swap;
        v1 = i + 1 < rf->count ? rg__collide_frame_vertex(frame, ref_is_a, ref->face_vertices[rf->first + i + 1]) : first;
        side = rg_v3_cross(rg_v3_sub(v1, v0), n); /* outward in the face's plane */
        count = rg__collide_clip_polygon(*in, count, side, rg_v3_dot(side, v0), i, *next);
        swap = *in; *in = *next; *next = swap;
    }
    /* depth below the reference plane; points kept within the margin, moved onto B's surface */
    for (i = 0, kept = 0; i < count; ++i) {
        rg__clip_vertex p = (*in)[i];
        p.depth = offset - rg_v3_dot(n, p.p);
        if (!(p.depth >= -margin)) continue;
        if (!ref_is_a) p.p = rg_v3_madd(p.p, n, p.depth);
        (*in)[kept++] = p;
    }
    return kept;
}

/* Face contact (reference face of A when ref_is_a, else of B): the incident polygon clipped
   against the reference face's side planes, points within margin kept, reduced to four.
   `support` is the incident hull's deepest vertex below the reference face; when its face
   clips away to nothing, the face holding every vertex tied with it is tried
   (rg__collide_tied_face). With allow_fallback, a polygon clipped away entirely leaves that
   vertex as the one point. */
static int rg__collide_face_contact(const rg__pair_frame *frame, int ref_is_a, int ref_face, int support,
                            rg_real margin, int allow_fallback, rg_vec3 pos_b, rg_quat rot_b,
                            rg__collide_scratch *scratch, rg_manifold *out) {
    const rg_hull *ref = ref_is_a ? frame->a : frame->b, *inc = ref_is_a ? frame->b : frame->a;
    const rg__hull_face *rf = &ref->faces[ref_face];
    rg__clip_vertex stack[2 * RG__CLIP_STACK], *in, *next;
    rg_vec3 n = rg__collide_frame_normal(frame, ref_is_a, ref_face);
    rg_real offset = ref_is_a ? rg__collide_frame_offset_a(frame, ref_face, n) : rf->offset;
    int inc_face = rg__collide_incident_face(frame, !ref_is_a, support, n);
    int count, kept, chosen[4];
    if (inc_face < 0) return 0;
    rg__collide_clip_buffers(stack, scratch, inc->faces[inc_face].count + rf->count + 1, &in, &next);
    kept = rg__collide_clip_incident(frame, ref_is_a, ref_face, inc_face, n, offset, margin, &in, &next);
    if (kept == 0) {
        rg_real band = 16 * RG__EPSILON * (frame->a->radius + frame->b->radius +
                                           rg__max_abs3(frame->t.translation.x, frame->t.translation.y,
                                                        frame->t.translation.z));
        int tied_face = rg__collide_tied_face(frame, !ref_is_a, support, n, band);
        if (tied_face >= 0 && tied_face != inc_face) {
            inc_face = tied_face;
            rg__collide_clip_buffers(stack, scratch, inc->faces[inc_face].count + rf->count + 1, &in, &next);
            kept = rg__collide_clip_incident(frame, ref_is_a, ref_face, inc_face, n, offset, margin, &in, &next);
        }
    }
    if (kept == 0 && allow_fallback) {
        /* rounding clipped away even the deepest vertex: keep that vertex alone */
        rg__clip_vertex p;
        p.p = rg__collide_frame_vertex(frame, !ref_is_a, support);
        p.depth = offset - rg_v3_dot(n, p.p);
        p.code = 0x40000000u | (uint32_t)support;
        p.line = 0;
        if (!ref_is_a) p.p = rg_v3_madd(p.p, n, p.depth);
        if (p.depth >= -margin) in[kept++] = p;
    }
    count = rg__collide_reduce_contacts(in, kept, n, chosen);
    rg__collide_manifold_from_points(in, chosen, count, ref_is_a ? rg_v3_neg(n) : n,
                             ref_is_a ? RG__AXIS_FACE_A : RG__AXIS_FACE_B, ref_face, inc_face,
                             pos_b, rot_b, out);
    return count;
}

/* Closest points of segments p + s u and q + t v, s and t in [0, 1], for non-parallel
   segments: the unconstrained minimum of |p + s u - q - t v|^2, then clamped. */
static void rg__collide_closest_points_of_segments(rg_vec3 p, rg_vec3 u, rg_vec3 q, rg_vec3 v, rg_real *s_out,
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

/* Edge contact: one point, the closest points of the two edges (Baraff's edge/edge contact).
   Without allow_clamped, nothing when they are not inside both edges. */
static int rg__collide_edge_contact(const rg__pair_frame *frame, const rg__edge_query *query, rg_real margin,
                            int allow_clamped, rg_vec3 pos_b, rg_quat rot_b, rg_manifold *out) {
    rg__edge_frame edge_a = rg__collide_edge_frame_of_a(frame, frame->a, &frame->t, query->edge_a);
    const rg__hull_edge *edge = &frame->b->edges[query->edge_b];
    rg_vec3 q = frame->b->vertices[edge->v[0]], v = rg_v3_sub(frame->b->vertices[edge->v[1]], q);
    rg_vec3 normal = rg_v3_neg(query->normal), on_a, on_b; /* from B towards A */
    rg_real s, u;
    rg__clip_vertex point;
    int chosen = 0;
    rg__collide_closest_points_of_segments(edge_a.start, edge_a.direction, q, v, &s, &u);
    /* closest points at an end of an edge are not the closest points of the edges' lines, so
       point - depth*normal would miss A */
    if (!allow_clamped && (s <= 0 || s >= 1 || u <= 0 || u >= 1)) return 0;
    on_a = rg_v3_madd(edge_a.start, edge_a.direction, s);
    on_b = rg_v3_madd(q, v, u);
    point.p = on_b;
    point.depth = rg_v3_dot(normal, rg_v3_sub(on_b, on_a));
    point.code = 0;
    point.line = 0;
    if (!(point.depth >= -margin)) return 0;
    rg__collide_manifold_from_points(&point, &chosen, 1, normal, RG__AXIS_EDGES, query->edge_a,
                             query->edge_b, pos_b, rot_b, out);
    return 1;
}

/* Does face f of A (is_a) or of B face the way of the edge pair's axis, within
   RG__ALIGNED_COSINE? The edge axis points from A towards B, A's faces outwards from A. */
static int rg__collide_face_along_edge_axis(const rg__pair_frame *frame, int is_a, int f, const rg__edge_query *edges) {
    rg_real cosine = rg_v3_dot(rg__collide_frame_normal(frame, is_a, f), edges->normal);
    return (is_a ? cosine : -cosine) >= RG__ALIGNED_COSINE;
}

/* The manifold of touching hulls from the three best axes. Preference, for manifolds that
   stay the same from step to step: a face of B, then a face of A, then the edge pair, each
   taken when its separation is within RG__AXIS_* of the best one and its manifold reaches as
   deep as the minimum overlap (within the same tolerance); a face within RG__ALIGNED_COSINE of
   a best edge axis also, if its deepest point is as deep as that axis says (to the relative
   tolerance and rounding). The best axis always qualifies in exact arithmetic: when the hulls
   overlap, the origin projects into the Minkowski face of the best axis, so its deepest
   feature survives the clipping and the edges' closest points lie inside both edges.
   Separated hulls (within the margin) only get points on both surfaces, so every point pair is
   a real gap of at most margin; none may qualify, then there is no manifold. */
static int rg__collide_contact_manifold(const rg__pair_frame *frame, const rg__face_query *face_a,
                                const rg__face_query *face_b, const rg__edge_query *edges, rg_real margin,
                                rg_vec3 pos_b, rg_quat rot_b, rg__collide_scratch *scratch,
                                rg_manifold *out) {
    rg_real best = rg__max_real(face_a->separation, face_b->separation), tolerance, aligned_tolerance;
    int candidate, overlapping, best_kind;
    if (edges->edge_a >= 0) best = rg__max_real(best, edges->separation);
    best_kind = face_b->separation == best ? RG__AXIS_FACE_B
              : face_a->separation == best ? RG__AXIS_FACE_A : RG__AXIS_EDGES;
    overlapping = best <= 0;
    tolerance = RG__AXIS_RELATIVE * rg__fabs(best) +
                RG__AXIS_ABSOLUTE * rg__min_real(frame->a->radius, frame->b->radius);
    /* a face taken only for being along the edge axis reaches the edges' depth over a cosine
       near 1: the relative part of the tolerance, and rounding */
    aligned_tolerance = RG__AXIS_RELATIVE * rg__fabs(best) +
                        RG__ALIGNED_ROUNDING * rg__min_real(frame->a->radius, frame->b->radius);
    for (candidate = RG__AXIS_FACE_B; candidate >= RG__AXIS_FACE_A; --candidate) {
        const rg__face_query *face = candidate == RG__AXIS_FACE_B ? face_b : face_a;
        int count, near_best = face->separation >= best - tolerance;
        int aligned = !near_best && best_kind == RG__AXIS_EDGES &&
                      rg__collide_face_along_edge_axis(frame, candidate == RG__AXIS_FACE_A, face->face, edges);
        if (!near_best && !aligned) continue;
        count = rg__collide_face_contact(frame, candidate == RG__AXIS_FACE_A, face->face, face->support, margin, 0,
                                 pos_b, rot_b, scratch, out);
        if (count > 0 && near_best && (!overlapping || out->depths[0] >= -best - tolerance)) return count;
        if (count > 0 && aligned && rg__fabs(out->depths[0] + best) <= aligned_tolerance) return count;
    }
    if (edges->edge_a >= 0 && edges->separation >= best - tolerance &&
        rg__collide_edge_contact(frame, edges, margin, 0, pos_b, rot_b, out))
        return out->count;
    memset(out, 0, sizeof *out);
    /* Invariant: the fallbacks stand in for an overlap that rounding hid, so only an overlap
       beyond rounding takes them. Hulls touching within it (best 0 at a corner of a face 0.008
       wide) took the deepest vertex of a tie along the face's plane, 0.29 beyond the face. */
    if (!overlapping || best >= -16 * RG__EPSILON * (frame->a->radius + frame->b->radius +
                                                     rg__max_abs3(frame->t.translation.x, frame->t.translation.y,
                                                                  frame->t.translation.z)))
        return 0;
    /* rounding defeated every candidate: the best axis with the fallbacks */
    if (best_kind == RG__AXIS_EDGES) return rg__collide_edge_contact(frame, edges, margin, 1, pos_b, rot_b, out);
    return rg__collide_face_contact(frame, best_kind == RG__AXIS_FACE_A,
                            best_kind == RG__AXIS_FACE_A ? face_a->face : face_b->face,
                            best_kind == RG__AXIS_FACE_A ? face_a->support : face_b->support, margin, 1,
                            pos_b, rot_b, scratch, out);
}

/* ---- >>collide.search: the full search and the entry points ---------------------------------- */

/* The full search (Baraff §7.1 "check all possible combinations of faces and edges", with the
   edge pairs pruned on the Gauss map), then the manifold; the witness (may be NULL) gets the
   axis of largest separation. Two boxes take the 15-axis test: their face queries compute the
   few values they need, the edge query is rg__collide_query_box_edges, and the manifold computes the
   features of A it uses (no tables). */
static int rg__collide_full_search(rg__pair_frame *frame, rg_real margin, rg__witness *witness,
                                   rg_vec3 pos_b, rg_quat rot_b, rg__pair_storage *storage,
                                   rg__collide_scratch *scratch, rg_manifold *out) {
    rg__face_query face_a, face_b;
    rg__edge_query edges;
    int boxes = rg__collide_hull_is_box(frame->a) && rg__collide_hull_is_box(frame->b);
    if (!boxes) rg__collide_pair_frame_build(frame, storage, scratch);
    face_a = rg__collide_query_faces(frame, 1, margin);
    if (face_a.separation > margin) {
        rg__collide_witness_set(witness, RG__AXIS_FACE_A, face_a.face, 0);
        return 0;
    }
    face_b = rg__collide_query_faces(frame, 0, margin);
    if (face_b.separation > margin) {
        rg__collide_witness_set(witness, RG__AXIS_FACE_B, 0, face_b.face);
        return 0;
    }
    edges = boxes ? rg__collide_query_box_edges(frame, margin) : rg__collide_query_edges(frame, margin);
    if (edges.edge_a >= 0 && edges.separation > margin) {
        rg__collide_witness_set(witness, RG__AXIS_EDGES, edges.edge_a, edges.edge_b);
        return 0;
    }
    /* touching: remember the axis closest to separating, for the next call */
    if (edges.edge_a >= 0 && edges.separation > face_a.separation && edges.separation > face_b.separation)
        rg__collide_witness_set(witness, RG__AXIS_EDGES, edges.edge_a, edges.edge_b);
    else if (face_a.separation > face_b.separation)
        rg__collide_witness_set(witness, RG__AXIS_FACE_A, face_a.face, 0);
    else
        rg__collide_witness_set(witness, RG__AXIS_FACE_B, 0, face_b.face);
    return rg__collide_contact_manifold(frame, &face_a, &face_b, &edges, margin, pos_b, rot_b, scratch, out);
}

/* Can a hull at this pose be collided? Positions beyond RG__MAX_MAGNITUDE are refused: their
   difference may overflow. */
static int rg__collide_pose_is_collidable(const rg_hull *h, rg_vec3 position, rg_quat rotation) {
    return h && h->vertex_count > 0 && rg__v3_is_sane(position) && rg_quat_is_finite(rotation);
}

/* The margin as the collision takes it (negative and NaN margins mean touching only); returns 0
   for an infinite one, which cannot be collided. */
static int rg__collide_margin(rg_real margin, rg_real *taken) {
    *taken = margin > 0 ? margin : 0;
    return rg__is_finite_real(*taken);
}

/* The narrow phase of one pair of collidable poses with unit quaternions, the margin taken by
   rg__collide_margin and out cleared: the witness (may be NULL) is tried first, then the full
   search. scratch (may be NULL) holds stb_ds arrays reused for hulls too big for the stack;
   without it they are made and freed here. */
static int rg__collide_unit_poses(const rg_hull *a, rg_vec3 pos_a, rg_quat rot_a, const rg_hull *b, rg_vec3 pos_b,
                                  rg_quat rot_b, rg_real margin, rg__witness *witness,
                                  rg__collide_scratch *scratch, rg_manifold *out) {
    rg__relative_pose t;
    rg__pair_frame frame;
    rg__pair_storage storage;
    rg__collide_scratch temporary;
    int count;
    t = rg__collide_relative_pose_of(pos_a, rot_a, pos_b, rot_b);
    if (witness && rg__collide_witness_separates(a, b, &t, witness, margin)) {
        witness->held = 1;
        return 0;
    }
    memset(&temporary, 0, sizeof temporary);
    if (!scratch) scratch = &temporary;
    rg__collide_pair_frame_start(&frame, a, b, &t);
    count = rg__collide_full_search(&frame, margin, witness, pos_b, rot_b, &storage, scratch, out);
    stbds_arrfree(temporary.vectors);
    stbds_arrfree(temporary.reals);
    stbds_arrfree(temporary.clip);
    return count;
}

/* The narrow phase of one pair, any poses and margin: the checks, then rg__collide_unit_poses. */
static int rg__collide_hulls_cached(const rg_hull *a, rg_vec3 pos_a, rg_quat rot_a, const rg_hull *b,
                                    rg_vec3 pos_b, rg_quat rot_b, rg_real margin,
                                    rg__witness *witness, rg__collide_scratch *scratch, rg_manifold *out) {
    if (!out) return 0;
    memset(out, 0, sizeof *out);
    if (witness) witness->held = 0;
    if (!rg__collide_pose_is_collidable(a, pos_a, rot_a) || !rg__collide_pose_is_collidable(b, pos_b, rot_b) ||
        !rg__collide_margin(margin, &margin))
        return 0;
    return rg__collide_unit_poses(a, pos_a, rg_quat_normalize(rot_a), b, pos_b, rg_quat_normalize(rot_b), margin,
                                  witness, scratch, out);
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

/* ---- >>collide.round: spheres and capsules with each other and with hulls -------------------- */

/* The parameter in [0, 1] of the point of segment a b closest to p (a point segment gives 0). */
static rg_real rg__collide_segment_closest(rg_vec3 a, rg_vec3 b, rg_vec3 p) {
    rg_vec3 d = rg_v3_sub(b, a);
    rg_real dd = rg_v3_dot(d, d), t;
    if (!(dd > 0)) return 0;
    t = rg_v3_dot(rg_v3_sub(p, a), d) / dd;
    return t < 0 ? 0 : (t > 1 ? 1 : t);
}

/* Invariant: no product of two squared lengths of segments (the normal equations below, the test
   of capsules lying along each other) overflows or underflows rg_real. Segments whose largest
   component is beyond 2^20 or below 2^-20 are divided by it first (in float, crossing capsules
   1e10 long made a e infinite and 1e-12 long subnormal, and both took the parallel branch;
   capsules 1e14 long at 60 degrees overflowed the lying test into two points); the parameters
   and the sine asked for do not depend on the scale. Within the range the divisor is 1 and the
   arithmetic unchanged. */
static rg_real rg__collide_round_scale(rg_real largest) {
    const rg_real high = (rg_real)1048576, low = 1 / (rg_real)1048576;
    return largest > high || (largest < low && largest > 0) ? largest : 1;
}

/* The closest points of segments p0 p1 and q0 q1 as parameters s and t in [0, 1] of
   p0 + s (p1 - p0) and q0 + t (q1 - q0): the unconstrained minimum of the squared distance
   (its 2 x 2 normal equations), clamped to the square, each parameter then the best for the
   other clamped again. Parallel segments (the equations singular) take s from p0's projection. */
static void rg__collide_segments_closest(rg_vec3 p0, rg_vec3 p1, rg_vec3 q0, rg_vec3 q1, rg_real *s, rg_real *t) {
    rg_vec3 d1 = rg_v3_sub(p1, p0), d2 = rg_v3_sub(q1, q0), r = rg_v3_sub(p0, q0);
    rg_real scale = rg__collide_round_scale(rg__max_real(rg__max_abs3(d1.x, d1.y, d1.z), rg__max_abs3(d2.x, d2.y, d2.z)));
    rg_real a, e, f, c, b, denominator;
    if (scale != 1) {
        d1 = rg_v3_scale(d1, 1 / scale);
        d2 = rg_v3_scale(d2, 1 / scale);
        r = rg_v3_scale(r, 1 / scale);
    }
    a = rg_v3_dot(d1, d1);
    e = rg_v3_dot(d2, d2);
    f = rg_v3_dot(d2, r);
    c = rg_v3_dot(d1, r);
    b = rg_v3_dot(d1, d2);
    denominator = a * e - b * b;
    if (!(a > 0) && !(e > 0)) {
        *s = *t = 0;
        return;
    }
    if (!(a > 0)) {
        *s = 0;
        *t = rg__collide_segment_closest(q0, q1, p0);
        return;
    }
    if (!(e > 0)) {
        *t = 0;
        *s = rg__collide_segment_closest(p0, p1, q0);
        return;
    }
    /* parallel within rounding: any s works; take the one nearest p0 that faces the other */
    *s = denominator > RG__EPSILON * a * e ? (b * f - c * e) / denominator : 0;
    *s = *s < 0 ? 0 : (*s > 1 ? 1 : *s);
    *t = (b * *s + f) / e;
    if (*t < 0) {
        *t = 0;
        *s = rg__collide_segment_closest(p0, p1, q0);
    } else if (*t > 1) {
        *t = 1;
        *s = rg__collide_segment_closest(p0, p1, q1);
    }
}

/* Round shapes are a core (a sphere's centre, a capsule's segment) swept by a radius, so their
   contacts come from the closest points of the cores: two round shapes overlap where their cores
   are closer than the sum of the radii, a round shape and a hull where its core is closer to the
   hull than its radius. The normal is the direction between the closest points, the depth the
   radii minus their distance (the Minkowski sum of a core and a ball is the shape). Cores that
   meet have no such direction: crossing capsule axes take the perpendicular of both, a core in a
   hull the separating axis of least overlap (the hull's faces, and for a segment the cross
   products of the segment with the hull's edges, Baraff §7.1).

   Feature ids: rg__collide_hash_combine(rg__collide_feature_prefix(kind, first, second), code),
   the parts of a round core named 0 (inside the segment), 1 (its first end, p0, and a sphere's
   centre) and 2 (its second end, p1):
      RG__ROUND_SEGMENTS  round with round: first and second the parts of A's and B's cores that
                          are closest, code 0. Capsules lying along each other: first = second = 3,
                          code the end bounding the overlap: 1, 2 B's p0, p1; 3, 4 A's p0, p1.
      RG__ROUND_FACE      the point lies on hull face `first` (second 0): code the capsule's part
                          (1, 2), or 0x100 | k where the segment leaves the face across its side k.
      RG__ROUND_EDGE      the hull's edge from vertex `first` to `second` (first < second),
      RG__ROUND_VERTEX    the hull's vertex `first` (second 0): code the round part (0, 1, 2).
      RG__ROUND_EDGE_AXIS a core inside the hull, pushed out across hull edge `first`: code 0.
   A pair of different types gives the same ids in either order (one routine, flipped). */
enum { RG__ROUND_SEGMENTS = 8, RG__ROUND_FACE, RG__ROUND_EDGE, RG__ROUND_VERTEX, RG__ROUND_EDGE_AXIS };

/* A capsule lies along a capsule or on a face (two points) when the sine of the angle between
   them is below this, about 3 degrees: within it a capsule at rest on a face or a capsule does
   not rock from end to end. The depths are then measured along the one normal, which moves the
   deepest point's depth by at most radius * (1 - cos 3 degrees), 0.14% of the radius. */
#define RG__ROUND_FLAT_SINE ((rg_real)0.05)
#define RG__ROUND_FLAT_COSINE ((rg_real)0.99875)
/* Two points only when the overlap of lying capsules is longer than this part of the smaller
   radius; shorter, they would be one point twice. */
#define RG__ROUND_OVERLAP ((rg_real)0.01)
/* A core closer to a hull than this part of the size of GJK's simplex (its points are hull
   vertices minus segment ends; the rounding of its closest point scales with them) counts as
   touching it: the direction between the closest points is then mostly rounding, and the
   separating axes give the normal. Above it GJK's normal is within about 1/4 radian (a face's
   normal, the axes' answer, can be 55 degrees off at a corner), and below it the axes' depth
   is off by less than 16 epsilon of the simplex's size. */
#define RG__ROUND_TOUCH ((rg_real)16 * RG__EPSILON)
/* GJK stops when the distance is within this part of its lower bound (van den Bergen 1999
   §4.3). On polytopes it ends after a few supports (at most 10 on hulls of 100 vertices);
   should it run through RG__GJK_ITERATIONS, the separating axes answer instead. */
#define RG__GJK_RELATIVE ((rg_real)64 * RG__EPSILON)
#define RG__GJK_ITERATIONS 64

/* Up to two contact points of a round shape, before they go into a manifold. */
typedef struct rg__round_points {
    rg_vec3 p[2];
    rg_real depth[2];
    uint32_t code[2];
    int count;
} rg__round_points;

static void rg__collide_round_add(rg__round_points *points, rg_vec3 p, rg_real depth, uint32_t code) {
    points->p[points->count] = p;
    points->depth[points->count] = depth;
    points->code[points->count] = code;
    ++points->count;
}

/* The points into out, deepest first: point i at origin + rotation p[i] (world), ids from the
   prefix of kind, first, second. */
static int rg__collide_round_manifold(const rg__round_points *points, rg_vec3 normal, rg_vec3 origin, rg_quat rotation,
                                      int kind, int first, int second, rg_manifold *out) {
    uint32_t prefix = rg__collide_feature_prefix(kind, first, second);
    int i, swap = points->count == 2 && points->depth[1] > points->depth[0];
    out->normal = rg_v3_normalize(rg__quat_rotate(rotation, normal));
    out->count = points->count;
    for (i = 0; i < points->count; ++i) {
        int k = swap ? 1 - i : i;
        out->points[i] = rg_v3_add(origin, rg__quat_rotate(rotation, points->p[k]));
        out->depths[i] = points->depth[k];
        out->features[i] = rg__collide_hash_combine(prefix, points->code[k]);
    }
    return out->count;
}

/* The manifold of the pair the other way round: the normal reversed, each point moved onto the
   other surface (point - depth normal); depths and ids unchanged. */
static int rg__collide_flip(rg_manifold *m) {
    int i;
    for (i = 0; i < m->count; ++i) m->points[i] = rg_v3_madd(m->points[i], m->normal, -m->depths[i]);
    m->normal = rg_v3_neg(m->normal);
    return m->count;
}

/* The part of a core at segment parameter t: 1 at p0 (or a point core), 2 at p1, 0 between. */
static uint32_t rg__collide_round_part(rg_real t, int is_segment) {
    if (!is_segment || t <= 0) return 1;
    return t >= 1 ? 2 : 0;
}

/* A unit vector perpendicular to d (non-zero), from the axis d is least along. */
static rg_vec3 rg__collide_round_perpendicular(rg_vec3 d) {
    rg_real x = rg__fabs(d.x), y = rg__fabs(d.y), z = rg__fabs(d.z);
    rg_vec3 axis = x <= y && x <= z ? rg_v3(1, 0, 0) : (y <= z ? rg_v3(0, 1, 0) : rg_v3(0, 0, 1));
    return rg_v3_normalize(rg_v3_cross(d, axis));
}

/* A normal for cores that meet: the perpendicular of both segments when they cross, of the one
   segment when they are parallel or one is a point, up for two points; turned towards A's
   middle. */
static rg_vec3 rg__collide_round_meeting_normal(const rg__convex *a, const rg__convex *b) {
    rg_vec3 da = rg_v3_sub(a->p1, a->p0), db = rg_v3_sub(b->p1, b->p0), c = rg_v3_cross(da, db), n;
    rg_real la = rg_v3_length(da), lb = rg_v3_length(db);
    rg_vec3 apart = rg_v3_scale(rg_v3_sub(rg_v3_add(a->p0, a->p1), rg_v3_add(b->p0, b->p1)), (rg_real)0.5);
    if (rg_v3_length(c) > RG__PARALLEL_SINE * la * lb) n = rg_v3_normalize(c);
    else if (la > 0 || lb > 0) n = rg__collide_round_perpendicular(la >= lb ? da : db);
    else n = rg_v3(0, 1, 0);
    return rg_v3_dot(n, apart) < 0 ? rg_v3_neg(n) : n;
}

/* Capsules lying along each other: the two ends of the stretch of B's segment that A's segment
   projects onto, each with its depth along normal, kept within margin. 0 when the segments are
   not within RG__ROUND_FLAT_SINE of parallel or overlap too little. */
static int rg__collide_round_along(const rg__convex *a, const rg__convex *b, rg_vec3 normal, rg_real margin,
                                   rg_manifold *out) {
    rg_vec3 da = rg_v3_sub(a->p1, a->p0), db = rg_v3_sub(b->p1, b->p0), ua, ub, c;
    rg_real aa = rg_v3_dot(da, da), bb = rg_v3_dot(db, db), ends[2], t[2];
    uint32_t code[2];
    rg__round_points points;
    int i, low;
    /* the sine test on directions in range (rg__collide_round_scale) */
    ua = rg_v3_scale(da, 1 / rg__collide_round_scale(rg__max_abs3(da.x, da.y, da.z)));
    ub = rg_v3_scale(db, 1 / rg__collide_round_scale(rg__max_abs3(db.x, db.y, db.z)));
    c = rg_v3_cross(ua, ub);
    if (!(aa > 0) || !(bb > 0) ||
        rg_v3_dot(c, c) > RG__ROUND_FLAT_SINE * RG__ROUND_FLAT_SINE * rg_v3_dot(ua, ua) * rg_v3_dot(ub, ub))
        return 0;
    ends[0] = rg_v3_dot(rg_v3_sub(a->p0, b->p0), db) / bb;
    ends[1] = rg_v3_dot(rg_v3_sub(a->p1, b->p0), db) / bb;
    low = ends[1] < ends[0];
    t[0] = ends[low] > 0 ? ends[low] : 0;
    code[0] = ends[low] > 0 ? 3u + (uint32_t)low : 1u;
    t[1] = ends[!low] < 1 ? ends[!low] : 1;
    code[1] = ends[!low] < 1 ? 3u + (uint32_t)!low : 2u;
    if (!((t[1] - t[0]) * rg__sqrt(bb) > RG__ROUND_OVERLAP * rg__min_real(a->radius, b->radius))) return 0;
    points.count = 0;
    for (i = 0; i < 2; ++i) {
        rg_vec3 q = rg_v3_madd(b->p0, db, t[i]);
        rg_vec3 p = rg_v3_madd(a->p0, da, rg__collide_segment_closest(a->p0, a->p1, q));
        rg_real depth = a->radius + b->radius - rg_v3_dot(rg_v3_sub(p, q), normal), off;
        /* Invariant: each point, moved back by its depth, lies on A within (r_A + r_B)
           (1 - cos 3 degrees) and rounding, what measuring along one normal costs capsules
           tilted within 3 degrees; else the cores are skew, touching near one point (parallel
           within 3 degrees but 0.02 apart across the normal: an end's point was 0.45 r_A inside A) */
        rg_vec3 on_a = rg_v3_madd(q, normal, b->radius - depth);
        off = rg_v3_length(rg_v3_sub(on_a, rg_v3_madd(a->p0, da, rg__collide_segment_closest(a->p0, a->p1, on_a))));
        if (rg__fabs(off - a->radius) > (1 - RG__ROUND_FLAT_COSINE) * (a->radius + b->radius) +
                                            16 * RG__EPSILON * rg__max_abs3(on_a.x, on_a.y, on_a.z))
            return 0;
        if (depth >= -margin) rg__collide_round_add(&points, rg_v3_madd(q, normal, b->radius), depth, code[i]);
    }
    if (points.count == 0) return 0;
    return rg__collide_round_manifold(&points, normal, rg_v3(0, 0, 0), rg_quat_identity(), RG__ROUND_SEGMENTS, 3, 3,
                                      out);
}

/* Sphere or capsule A with sphere or capsule B: the closest points of the cores, or the two ends
   of the overlap of capsules lying along each other. */
static int rg__collide_round_round(const rg__convex *a, const rg__convex *b, rg_real margin, rg_manifold *out) {
    rg_real s, t, distance, tiny;
    rg_vec3 p, q, d, n;
    rg__round_points points;
    rg__collide_segments_closest(a->p0, a->p1, b->p0, b->p1, &s, &t);
    p = rg_v3_madd(a->p0, rg_v3_sub(a->p1, a->p0), s);
    q = rg_v3_madd(b->p0, rg_v3_sub(b->p1, b->p0), t);
    d = rg_v3_sub(p, q);
    distance = rg_v3_length(d);
    if (!(distance <= a->radius + b->radius + margin)) return 0;
    /* Invariant: the direction between the closest points is taken only above the rounding of
       computing them, p0 + s (p1 - p0), which scales with the cores' ends, not with the points
       (a centre at the origin on the axis of a capsule from x = 0.1875 met the point
       0.1875 - 0.1875 = 1.5e-8 and took the axis as its normal) */
    tiny = rg__max_real(rg__max_abs3(a->p0.x, a->p0.y, a->p0.z), rg__max_abs3(a->p1.x, a->p1.y, a->p1.z)) +
           rg__max_real(rg__max_abs3(b->p0.x, b->p0.y, b->p0.z), rg__max_abs3(b->p1.x, b->p1.y, b->p1.z));
    tiny *= 16 * RG__EPSILON;
    n = distance > tiny ? rg_v3_normalize(d) : rg__collide_round_meeting_normal(a, b);
    if (a->type == RG_SHAPE_CAPSULE && b->type == RG_SHAPE_CAPSULE && rg__collide_round_along(a, b, n, margin, out))
        return out->count;
    points.count = 0;
    rg__collide_round_add(&points, rg_v3_madd(q, n, b->radius), a->radius + b->radius - rg_v3_dot(d, n), 0);
    return rg__collide_round_manifold(&points, n, rg_v3(0, 0, 0), rg_quat_identity(), RG__ROUND_SEGMENTS,
                                      (int)rg__collide_round_part(s, a->type == RG_SHAPE_CAPSULE),
                                      (int)rg__collide_round_part(t, b->type == RG_SHAPE_CAPSULE), out);
}

/* ---- GJK: the distance from a point or segment to a hull (Gilbert, Johnson & Keerthi 1988) ----

   The closest points of hull H and segment S are those of the Minkowski difference D = H - S
   closest to the origin. GJK keeps a simplex of up to four points of D (hull vertex minus
   segment end), finds its point v closest to the origin, and adds D's support point w in the
   direction -v, until v.v - v.w (the gap between |v| and the lower bound v.w / |v|) is below
   RG__GJK_RELATIVE of v.v, w repeats a vertex, or v stops shrinking. The closest point of a
   triangle follows the Voronoi regions of its vertices and edges (Ericson 2005 §5.1.5); a
   degenerate triangle or tetrahedron falls back on its edges or faces, so rounding never divides
   by a zero area. Everything is in the hull's frame. */

typedef struct rg__gjk_vertex {   /* a point of D: hull vertex `hull` minus segment end `end` */
    rg_vec3 w;
    int hull, end;
} rg__gjk_vertex;

typedef struct rg__gjk_simplex {
    rg__gjk_vertex v[4];
    rg_real weight[4];            /* barycentric weights of `closest` */
    rg_vec3 closest;              /* the simplex's point closest to the origin */
    int count;
} rg__gjk_simplex;

typedef struct rg__gjk_part {     /* a vertex, edge or face of the simplex and its closest point */
    int keep[3], count;
    rg_real weight[3];
    rg_vec3 point;
} rg__gjk_part;

typedef struct rg__gjk_result {
    rg_vec3 on_hull;              /* the hull's closest point, hull frame */
    rg_vec3 normal;               /* unit, from the hull's closest point towards the core's */
    rg_real distance;
    int hull_vertices[3], hull_count; /* the hull's distinct vertices in the final simplex */
    int ends;                     /* bit e: the segment's end e is in the final simplex */
} rg__gjk_result;

enum { RG__GJK_APART, RG__GJK_CLOSEST, RG__GJK_TOUCHING };

static void rg__collide_gjk_part_add(rg__gjk_part *part, const rg__gjk_vertex *v, int i, rg_real weight) {
    part->keep[part->count] = i;
    part->weight[part->count] = weight;
    part->point = part->count == 0 ? rg_v3_scale(v[i].w, weight) : rg_v3_madd(part->point, v[i].w, weight);
    ++part->count;
}

static rg__gjk_part rg__collide_gjk_part_empty(void) {
    rg__gjk_part part;
    memset(&part, 0, sizeof part);
    return part;
}

static rg__gjk_part rg__collide_gjk_on_vertex(const rg__gjk_vertex *v, int i) {
    rg__gjk_part part = rg__collide_gjk_part_empty();
    rg__collide_gjk_part_add(&part, v, i, 1);
    part.point = v[i].w;
    return part;
}

static rg__gjk_part rg__collide_gjk_on_segment(const rg__gjk_vertex *v, int i, int j) {
    rg_vec3 ab = rg_v3_sub(v[j].w, v[i].w);
    rg_real t = -rg_v3_dot(v[i].w, ab), length2 = rg_v3_dot(ab, ab);
    rg__gjk_part part;
    if (!(t > 0)) return rg__collide_gjk_on_vertex(v, i);
    if (!(t < length2)) return rg__collide_gjk_on_vertex(v, j);
    t /= length2;
    part = rg__collide_gjk_part_empty();
    rg__collide_gjk_part_add(&part, v, i, 1 - t);
    rg__collide_gjk_part_add(&part, v, j, t);
    return part;
}

/* The closest of two parts, the first on a tie. */
static rg__gjk_part rg__collide_gjk_closer(rg__gjk_part p, rg__gjk_part q) {
    return rg_v3_dot(q.point, q.point) < rg_v3_dot(p.point, p.point) ? q : p;
}

/* Ericson §5.1.5 with the query point at the origin: d1..d6 are the edges' dot products with the
   directions to the origin; va, vb, vc the barycentric areas. */
static rg__gjk_part rg__collide_gjk_on_triangle(const rg__gjk_vertex *v, int i, int j, int k) {
    rg_vec3 a = v[i].w, b = v[j].w, c = v[k].w, ab = rg_v3_sub(b, a), ac = rg_v3_sub(c, a);
    rg_real d1 = -rg_v3_dot(ab, a), d2 = -rg_v3_dot(ac, a), d3 = -rg_v3_dot(ab, b), d4 = -rg_v3_dot(ac, b);
    rg_real d5 = -rg_v3_dot(ab, c), d6 = -rg_v3_dot(ac, c), va, vb, vc, sum;
    rg__gjk_part part;
    if (d1 <= 0 && d2 <= 0) return rg__collide_gjk_on_vertex(v, i);
    if (d3 >= 0 && d4 <= d3) return rg__collide_gjk_on_vertex(v, j);
    if (d6 >= 0 && d5 <= d6) return rg__collide_gjk_on_vertex(v, k);
    vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return rg__collide_gjk_on_segment(v, i, j);
    vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return rg__collide_gjk_on_segment(v, i, k);
    va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return rg__collide_gjk_on_segment(v, j, k);
    sum = va + vb + vc;
    if (va < 0 || vb < 0 || vc < 0 || !(sum > 0)) /* rounding in a sliver: the best edge */
        return rg__collide_gjk_closer(rg__collide_gjk_closer(rg__collide_gjk_on_segment(v, i, j),
                                                             rg__collide_gjk_on_segment(v, i, k)),
                                      rg__collide_gjk_on_segment(v, j, k));
    part = rg__collide_gjk_part_empty();
    rg__collide_gjk_part_add(&part, v, i, va / sum);
    rg__collide_gjk_part_add(&part, v, j, vb / sum);
    rg__collide_gjk_part_add(&part, v, k, vc / sum);
    return part;
}

/* The closest point over the faces whose plane does not have the origin strictly on the side of
   the fourth vertex (Ericson §5.1.6); 0 when there is none: the origin is inside. A flat
   tetrahedron has every face in the running, and their union covers it. */
static int rg__collide_gjk_on_tetrahedron(const rg__gjk_vertex *v, rg__gjk_part *best) {
    static const int faces[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};
    int f, found = 0;
    for (f = 0; f < 4; ++f) {
        rg_vec3 a = v[faces[f][0]].w;
        rg_vec3 n = rg_v3_cross(rg_v3_sub(v[faces[f][1]].w, a), rg_v3_sub(v[faces[f][2]].w, a));
        rg_real origin = -rg_v3_dot(n, a), other = rg_v3_dot(n, rg_v3_sub(v[faces[f][3]].w, a));
        rg__gjk_part part;
        if ((origin > 0 && other > 0) || (origin < 0 && other < 0)) continue;
        part = rg__collide_gjk_on_triangle(v, faces[f][0], faces[f][1], faces[f][2]);
        *best = found ? rg__collide_gjk_closer(*best, part) : part;
        found = 1;
    }
    return found;
}

/* Cuts the simplex to its part closest to the origin; 0 when the origin is inside it. */
static int rg__collide_gjk_reduce(rg__gjk_simplex *s) {
    rg__gjk_vertex v[4];
    rg__gjk_part part;
    int i;
    for (i = 0; i < s->count; ++i) v[i] = s->v[i];
    if (s->count == 1) part = rg__collide_gjk_on_vertex(v, 0);
    else if (s->count == 2) part = rg__collide_gjk_on_segment(v, 0, 1);
    else if (s->count == 3) part = rg__collide_gjk_on_triangle(v, 0, 1, 2);
    else if (!rg__collide_gjk_on_tetrahedron(v, &part)) return 0;
    for (i = 0; i < part.count; ++i) {
        s->v[i] = v[part.keep[i]];
        s->weight[i] = part.weight[i];
    }
    s->count = part.count;
    s->closest = part.point;
    return 1;
}

/* D's support point along direction: sup_H(direction) - sup_S(-direction); a point core (e0 =
   e1) always gives end 0, and ties go to the lower index. */
static rg__gjk_vertex rg__collide_gjk_support(const rg_hull *h, rg_vec3 e0, rg_vec3 e1, rg_vec3 direction) {
    rg__gjk_vertex x;
    x.hull = rg__collide_hull_support(h, direction);
    x.end = rg_v3_dot(direction, e1) < rg_v3_dot(direction, e0);
    x.w = rg_v3_sub(h->vertices[x.hull], x.end ? e1 : e0);
    return x;
}

/* The size of the simplex's points, which the rounding of its closest point scales with. */
static rg_real rg__collide_gjk_size(const rg__gjk_simplex *s) {
    rg_real size = 0;
    int i;
    for (i = 0; i < s->count; ++i) size = rg__max_real(size, rg__max_abs3(s->v[i].w.x, s->v[i].w.y, s->v[i].w.z));
    return size;
}

/* Does segment e0 e1 (a point when e0 = e1) reach behind every face plane of h, within
   tolerance: does the core enter the hull or touch it? The part of the segment behind each plane
   (Cyrus-Beck) narrows the interval [0, 1]. GJK stalled by rounding can claim a core outside
   that is not: a sphere's centre 0.0044 inside a box 0.04 thick stopped 1.45e-6 from an inner
   triangle; a capsule's core lying in a face's plane across the face stopped 3.3e-6 away, its
   normal -x 90 degrees off, and another such core 1.3e-4 away. */
static int rg__collide_core_enters_hull(const rg_hull *h, rg_vec3 e0, rg_vec3 e1, rg_real tolerance) {
    rg_vec3 d = rg_v3_sub(e1, e0);
    rg_real lo = 0, hi = 1;
    int i;
    for (i = 0; i < h->face_count; ++i) {
        rg_real at0 = rg_v3_dot(h->faces[i].normal, e0) - h->faces[i].offset - tolerance;
        rg_real along = rg_v3_dot(h->faces[i].normal, d);
        if (along > 0) hi = rg__min_real(hi, -at0 / along);        /* behind the plane up to there */
        else if (along < 0) lo = rg__max_real(lo, -at0 / along);   /* from there on */
        else if (at0 > 0) return 0;
        if (!(lo <= hi)) return 0;
    }
    return 1;
}

/* The closest points of hull h and segment e0 e1 (hull frame). RG__GJK_APART as soon as the
   lower bound exceeds limit; RG__GJK_TOUCHING when the origin is inside a tetrahedron, the
   distance falls to RG__ROUND_TOUCH of the simplex's size, or the iterations run out without
   converging; otherwise RG__GJK_CLOSEST with *r filled. */
static int rg__collide_gjk(const rg_hull *h, rg_vec3 e0, rg_vec3 e1, rg_real limit, rg__gjk_result *r) {
    rg__gjk_simplex s, previous;
    rg_vec3 middle = rg_v3_scale(rg_v3_add(e0, e1), (rg_real)0.5), v, on_hull;
    int i, k, iteration;
    s.v[0] = rg__collide_gjk_support(h, e0, e1, rg_v3_sub(middle, h->centroid));
    s.weight[0] = 1;
    s.closest = s.v[0].w;
    s.count = 1;
    for (iteration = 0;; ++iteration) {
        rg_real vv, vw, touch = RG__ROUND_TOUCH * rg__collide_gjk_size(&s);
        rg__gjk_vertex w;
        v = s.closest;
        vv = rg_v3_dot(v, v);
        if (vv <= touch * touch || iteration == RG__GJK_ITERATIONS) return RG__GJK_TOUCHING;
        w = rg__collide_gjk_support(h, e0, e1, rg_v3_neg(v));
        vw = rg_v3_dot(v, w.w);
        if (vw > 0 && vw * vw > limit * limit * vv) return RG__GJK_APART; /* every point of D beyond limit */
        if (vv - vw <= RG__GJK_RELATIVE * vv) break;
        for (k = 0; k < s.count; ++k)
            if (s.v[k].hull == w.hull && s.v[k].end == w.end) break;
        if (k < s.count) break; /* w is in the simplex: v is D's closest point up to rounding */
        previous = s;
        s.v[s.count++] = w;
        if (!rg__collide_gjk_reduce(&s)) return RG__GJK_TOUCHING;
        if (!(rg_v3_dot(s.closest, s.closest) < vv)) { /* rounding: no progress */
            s = previous;
            v = s.closest;
            break;
        }
    }
    on_hull = rg_v3(0, 0, 0);
    r->hull_count = 0;
    r->ends = 0;
    for (i = 0; i < s.count; ++i) {
        on_hull = rg_v3_madd(on_hull, h->vertices[s.v[i].hull], s.weight[i]);
        r->ends |= 1 << s.v[i].end;
        for (k = 0; k < r->hull_count && r->hull_vertices[k] != s.v[i].hull; ++k) {}
        if (k == r->hull_count && k < 3) r->hull_vertices[r->hull_count++] = s.v[i].hull;
    }
    /* Invariant: CLOSEST means the core is outside the hull, whatever distance rounding stalled
       at (rg__collide_core_enters_hull, within the simplex's rounding) */
    if (rg__collide_core_enters_hull(h, e0, e1, RG__ROUND_TOUCH * rg__collide_gjk_size(&s))) return RG__GJK_TOUCHING;
    /* v = hull point - core point, from the differences of nearby points: more accurate than the
       difference of the two closest points, which carry the coordinates' rounding */
    r->on_hull = on_hull;
    r->distance = rg_v3_length(v);
    r->normal = rg_v3_scale(v, -1 / r->distance);
    return RG__GJK_CLOSEST;
}

/* ---- round shapes with hulls ---- */

/* Does segment e0 e1 lie in the side plane through a face's edge (side: its outward normal, the
   edge's length long; at0, at1: the ends' heights above it times that length) within the
   rounding of the coordinates, RG__ROUND_TOUCH of their size? Invariant: a core lying along a
   face's edge is in the face's prism. Rounding puts it on either side of the plane, and outside
   the clip cut it away whole (a capsule along the edge between two faces, 2.4e-40 out of both
   prisms, took its lower end 0.54 beyond the hull). Asked only of a plane that would cut. */
static int rg__collide_round_in_side_plane(const rg_hull *h, rg_vec3 side, rg_real at0, rg_real at1, rg_vec3 e0, rg_vec3 e1) {
    rg_real size = h->radius + rg__max_abs3(h->centroid.x, h->centroid.y, h->centroid.z) +
                   rg__max_real(rg__max_abs3(e0.x, e0.y, e0.z), rg__max_abs3(e1.x, e1.y, e1.z));
    rg_real tolerance = RG__ROUND_TOUCH * size * rg_v3_length(side);
    return rg__fabs(at0) <= tolerance && rg__fabs(at1) <= tolerance;
}

/* Face f's points of segment e0 e1 (a point when e0 = e1), hull frame: the segment clipped to the
   face's side planes (the planes through its edges perpendicular to it), each end projected
   onto the face with depth radius - height above it; both ends when `both`, else the lower one.
   Points deeper than -margin are kept; 0 when the segment misses the face's prism. */
static int rg__collide_round_face_points(const rg_hull *h, int f, rg_vec3 e0, rg_vec3 e1, rg_real radius,
                                         rg_real margin, int both, rg__round_points *points) {
    const rg__hull_face *face = &h->faces[f];
    rg_vec3 d = rg_v3_sub(e1, e0), n = face->normal;
    rg_vec3 first = h->vertices[h->face_vertices[face->first]], v1 = first, x[2];
    rg_real t[2], height[2];
    uint32_t code[2];
    int i, k;
    t[0] = 0;
    t[1] = 1;
    code[0] = 1;
    code[1] = 2;
    for (i = 0; i < face->count; ++i) {
        rg_vec3 v0 = v1, side;
        rg_real at0, along;
        int cuts;
        v1 = i + 1 < face->count ? h->vertices[h->face_vertices[face->first + i + 1]] : first;
        side = rg_v3_cross(rg_v3_sub(v1, v0), n); /* outward in the face's plane */
        at0 = rg_v3_dot(side, rg_v3_sub(e0, v0));
        along = rg_v3_dot(side, d);
        cuts = along > 0 ? -at0 / along < t[1] : along < 0 ? -at0 / along > t[0] : at0 > 0;
        if (!cuts || rg__collide_round_in_side_plane(h, side, at0, at0 + along, e0, e1)) continue;
        if (along > 0) { /* leaves the prism at t = -at0 / along */
            t[1] = -at0 / along;
            code[1] = 0x100u | (uint32_t)i;
        } else if (along < 0) { /* enters it there */
            t[0] = -at0 / along;
            code[0] = 0x100u | (uint32_t)i;
        } else {
            return 0;
        }
        if (t[0] > t[1]) return 0;
    }
    for (k = 0; k < 2; ++k) {
        x[k] = rg_v3_madd(e0, d, t[k]);
        height[k] = rg_v3_dot(n, x[k]) - face->offset;
    }
    for (k = 0; k < 2; ++k) {
        if (both ? (k == 1 && !(t[1] > t[0])) : k != (height[1] < height[0])) continue;
        if (radius - height[k] >= -margin)
            rg__collide_round_add(points, rg_v3_madd(x[k], n, -height[k]), radius - height[k], code[k]);
    }
    return points->count;
}

/* The separating axis of least overlap of a core touching or inside hull h (hull frame): the
   face normals, and for a segment the cross products with the hull's edges whose arcs on the
   Gauss map cross the segment's great circle (the edges that, with the segment, make faces of
   the Minkowski difference). A face wins within RG__AXIS_* of the best edge. */
typedef struct rg__round_axis {
    rg_vec3 normal;               /* from the hull towards the core */
    rg_real separation;
    int face, edge;               /* one of them -1 */
} rg__round_axis;

/* Invariant: an edge axis never claims more separation than the gap between the core's and the
   hull's supports along it. The Gauss-map test takes the edge as the hull's support; an edge
   shorter than the hull's rounding (0.03 long on a hull 15 000 wide, its faces' normals 2 degrees
   off it) can fail that, and claimed a core on a vertex 500 outside. Confirmed (as hull pairs'
   edges are, within RG__AXIS_ABSOLUTE of the radius) only for an edge that would be the best. */
static int rg__collide_round_edge_confirmed(const rg_hull *h, rg_vec3 u, rg_vec3 e0, rg_vec3 e1, rg_real s) {
    rg_real core = rg__min_real(rg_v3_dot(u, e0), rg_v3_dot(u, e1));
    return core - rg_v3_dot(u, h->vertices[rg__collide_hull_support(h, u)]) >= s - RG__AXIS_ABSOLUTE * h->radius;
}

static rg__round_axis rg__collide_round_axis(const rg_hull *h, rg_vec3 e0, rg_vec3 e1) {
    rg__round_axis best, edge;
    rg_vec3 d = rg_v3_sub(e1, e0);
    rg_real length = rg_v3_length(d);
    int i;
    best.edge = -1;
    best.face = 0;
    best.separation = -RG__REAL_MAX;
    for (i = 0; i < h->face_count; ++i) {
        rg_vec3 n = h->faces[i].normal;
        rg_real s = rg__min_real(rg_v3_dot(n, e0), rg_v3_dot(n, e1)) - h->faces[i].offset;
        if (s > best.separation) {
            best.separation = s;
            best.face = i;
        }
    }
    best.normal = h->faces[best.face].normal;
    edge.separation = -RG__REAL_MAX;
    edge.edge = -1;
    for (i = 0; length > 0 && i < h->edge_count; ++i) {
        const rg__hull_edge *e = &h->edges[i];
        rg_vec3 n0 = h->faces[e->faces[0]].normal, n1 = h->faces[e->faces[1]].normal;
        rg_vec3 direction = rg__collide_edge_direction(h, i), u = rg_v3_cross(d, direction);
        rg_real s0 = rg_v3_dot(n0, d), s1 = rg_v3_dot(n1, d), u_length = rg_v3_length(u), s;
        if (!((s0 < 0 && s1 > 0) || (s0 > 0 && s1 < 0))) continue;
        if (!(u_length > RG__PARALLEL_SINE * length * rg_v3_length(direction))) continue;
        u = rg_v3_scale(u, 1 / u_length);
        if (rg_v3_dot(u, rg_v3_add(n0, n1)) < 0) u = rg_v3_neg(u);
        s = rg__min_real(rg_v3_dot(u, e0), rg_v3_dot(u, e1)) - rg_v3_dot(u, h->vertices[e->v[0]]);
        if (s > edge.separation && rg__collide_round_edge_confirmed(h, u, e0, e1, s)) {
            edge.separation = s;
            edge.edge = i;
            edge.normal = u;
        }
    }
    if (edge.edge >= 0 &&
        best.separation < edge.separation - RG__AXIS_RELATIVE * rg__fabs(edge.separation) - RG__AXIS_ABSOLUTE * h->radius) {
        edge.face = -1;
        return edge;
    }
    return best;
}

/* The hull feature at GJK's closest point, as an id's kind, first and second (see the ids
   above): the face whose normal is nearest n when it is within RG__ROUND_FLAT_COSINE of n and
   passes through the point within rounding (its index in *face, else -1), or when the simplex
   holds three hull vertices; else the simplex's edge or vertex. */
static int rg__collide_round_feature(const rg_hull *h, const rg__gjk_result *r, rg_vec3 n, rg_real rounding,
                                     int *first, int *second, int *face) {
    int f, best = 0;
    rg_real best_cosine = rg_v3_dot(h->faces[0].normal, n);
    for (f = 1; f < h->face_count; ++f) {
        rg_real cosine = rg_v3_dot(h->faces[f].normal, n);
        if (cosine > best_cosine) {
            best = f;
            best_cosine = cosine;
        }
    }
    *face = best_cosine >= RG__ROUND_FLAT_COSINE &&
            h->faces[best].offset - rg_v3_dot(h->faces[best].normal, r->on_hull) <= rounding ? best : -1;
    *second = 0;
    if (*face >= 0 || r->hull_count >= 3) {
        *first = best;
        return RG__ROUND_FACE;
    }
    *first = r->hull_vertices[0];
    if (r->hull_count == 1) return RG__ROUND_VERTEX;
    *second = r->hull_vertices[1];
    if (*first > *second) {
        *second = *first;
        *first = r->hull_vertices[1];
    }
    return RG__ROUND_EDGE;
}

/* Is segment d within RG__ROUND_FLAT_SINE of parallel to the plane of unit normal n? */
static int rg__collide_round_lies_on(rg_vec3 d, rg_vec3 n) {
    rg_real along = rg_v3_dot(d, n), dd = rg_v3_dot(d, d);
    return dd > 0 && along * along <= RG__ROUND_FLAT_SINE * RG__ROUND_FLAT_SINE * dd;
}

/* The point of face f's boundary closest to segment e0 e1 (hull frame) in *on_face, the core's
   point closest to it in *on_core: over the face's sides, the closest points of the segment and
   the side (the first side winning ties); returns that side's index. Invariant: a face contact
   of a core outside the face's prism has its point on the face, and so on the hull. The core's
   lower end projected onto the plane can lie anywhere in it: a capsule whose end touched the
   face's corner, its core rounded 4e-32 outside the prism, got its other end's projection,
   0.12 off the hull. The depth, radius minus the core point's height, puts the point moved back
   by it on the core's surface when the core is over the boundary (within rounding of it). */
static int rg__collide_round_face_boundary(const rg_hull *h, int f, rg_vec3 e0, rg_vec3 e1, rg_vec3 *on_face,
                                           rg_vec3 *on_core) {
    const rg__hull_face *face = &h->faces[f];
    rg_vec3 d = rg_v3_sub(e1, e0);
    rg_real best = RG__REAL_MAX;
    int i, side = 0;
    *on_face = h->vertices[h->face_vertices[face->first]];
    *on_core = e0;
    for (i = 0; i < face->count; ++i) {
        rg_vec3 v0 = h->vertices[h->face_vertices[face->first + i]];
        rg_vec3 v1 = h->vertices[h->face_vertices[face->first + (i + 1 < face->count ? i + 1 : 0)]];
        rg_vec3 p, q;
        rg_real s, t, distance;
        rg__collide_segments_closest(e0, e1, v0, v1, &s, &t);
        p = rg_v3_madd(e0, d, s);
        q = rg_v3_madd(v0, rg_v3_sub(v1, v0), t);
        distance = rg_v3_length_squared(rg_v3_sub(p, q));
        if (i == 0 || distance < best) {
            best = distance;
            side = i;
            *on_face = q;
            *on_core = p;
        }
    }
    return side;
}

/* A core touching or inside the hull (hull frame): the axis of least overlap gives the normal; a
   face takes the core's points on it (both ends of a capsule lying on it), an edge the closest
   points of the segment and the edge. */
static int rg__collide_round_inside(const rg__convex *round, const rg_hull *h, rg_vec3 e0, rg_vec3 e1, rg_real margin,
                                    rg_vec3 origin, rg_quat rotation, rg_manifold *out) {
    rg__round_axis axis = rg__collide_round_axis(h, e0, e1);
    rg__round_points points;
    rg_vec3 d = rg_v3_sub(e1, e0);
    points.count = 0;
    if (!(round->radius - axis.separation >= -margin)) return 0;
    if (axis.face >= 0) {
        if (!rg__collide_round_face_points(h, axis.face, e0, e1, round->radius, margin,
                                           rg__collide_round_lies_on(d, axis.normal), &points)) {
            /* the core misses the face's prism (a face preferred to a slightly better edge, or a
               core that meets the prism only on its boundary, rounded outside): the face's
               boundary point closest to the core (rg__collide_round_face_boundary) */
            rg_vec3 on_face, on_core;
            int side = rg__collide_round_face_boundary(h, axis.face, e0, e1, &on_face, &on_core);
            rg_real height = rg_v3_dot(axis.normal, on_core) - h->faces[axis.face].offset;
            rg__collide_round_add(&points, on_face, round->radius - height, 0x100u | (uint32_t)side);
        }
        return rg__collide_round_manifold(&points, axis.normal, origin, rotation, RG__ROUND_FACE, axis.face, 0, out);
    } else {
        const rg__hull_edge *edge = &h->edges[axis.edge];
        rg_vec3 v0 = h->vertices[edge->v[0]], v1 = h->vertices[edge->v[1]];
        rg_real s, t;
        rg__collide_segments_closest(e0, e1, v0, v1, &s, &t);
        rg__collide_round_add(&points, rg_v3_madd(v0, rg_v3_sub(v1, v0), t), round->radius - axis.separation, 0);
        return rg__collide_round_manifold(&points, axis.normal, origin, rotation, RG__ROUND_EDGE_AXIS, axis.edge, 0,
                                          out);
    }
}

/* Sphere or capsule A with hull B: GJK's closest points of A's core and the hull, in the hull's
   frame. Closest to a face's inside, the core takes its lowest point over the face, with the
   face's normal; a capsule closest to a face and within RG__ROUND_FLAT_SINE of parallel to it
   takes two, the ends of its part over the face. A core touching or inside the hull goes to
   rg__collide_round_inside. */
static int rg__collide_round_hull(const rg__convex *round, const rg__convex *hull, rg_real margin, rg_manifold *out) {
    const rg_hull *h = hull->hull;
    rg_quat inverse = rg_quat_conjugate(hull->rotation);
    rg_vec3 e0 = rg__quat_rotate(inverse, rg_v3_sub(round->p0, hull->position)), e1 = e0, n;
    rg_real limit = round->radius + margin, rounding;
    rg__gjk_result r;
    rg__round_points points;
    int status, kind, first, second, face, lying;
    if (round->type == RG_SHAPE_CAPSULE) e1 = rg__quat_rotate(inverse, rg_v3_sub(round->p1, hull->position));
    status = rg__collide_gjk(h, e0, e1, limit, &r);
    if (status == RG__GJK_APART) return 0;
    if (status == RG__GJK_TOUCHING) return rg__collide_round_inside(round, h, e0, e1, margin, hull->position, hull->rotation, out);
    if (!(r.distance <= limit)) return 0;
    n = r.normal;
    /* the face test's tolerance: the rounding of the hull point's coordinates */
    rounding = RG__ROUND_TOUCH * (h->radius + rg__max_abs3(h->centroid.x, h->centroid.y, h->centroid.z));
    kind = rg__collide_round_feature(h, &r, n, rounding, &first, &second, &face);
    points.count = 0;
    lying = face >= 0 && rg__collide_round_lies_on(rg_v3_sub(e1, e0), h->faces[face].normal);
    /* on a face's inside (three of its vertices) or lying on it: the face's exact normal */
    if (face >= 0 && (lying || r.hull_count == 3) &&
        rg__collide_round_face_points(h, face, e0, e1, round->radius, margin, lying, &points))
        return rg__collide_round_manifold(&points, h->faces[face].normal, hull->position, hull->rotation,
                                          RG__ROUND_FACE, face, 0, out);
    rg__collide_round_add(&points, r.on_hull, round->radius - r.distance,
                          r.ends == 3 ? 0u : (uint32_t)r.ends);
    return rg__collide_round_manifold(&points, n, hull->position, hull->rotation, kind, first, second, out);
}

/* The narrow phase of two posed convex shapes (margin >= 0 and finite, poses sane, rotations
   unit; the caller checks): hull pairs go to rg__collide_unit_poses with the witness, a round
   shape and a hull to rg__collide_round_hull, two round shapes to rg__collide_round_round. Each
   pair of types has one routine; the other order is its manifold flipped (rg__collide_flip). A
   witness only serves hull pairs: held is 0 for the others. out is cleared first. */
static int rg__collide_convex(const rg__convex *a, const rg__convex *b, rg_real margin, rg__witness *witness,
                              rg__collide_scratch *scratch, rg_manifold *out) {
    int a_round = a->type == RG_SHAPE_SPHERE || a->type == RG_SHAPE_CAPSULE;
    int b_round = b->type == RG_SHAPE_SPHERE || b->type == RG_SHAPE_CAPSULE;
    memset(out, 0, sizeof *out);
    if (witness) witness->held = 0;
    if (a->type == RG_SHAPE_HULL && b->type == RG_SHAPE_HULL)
        return rg__collide_unit_poses(a->hull, a->position, a->rotation, b->hull, b->position, b->rotation, margin,
                                      witness, scratch, out);
    if (a_round && b->type == RG_SHAPE_HULL) return rg__collide_round_hull(a, b, margin, out);
    if (a->type == RG_SHAPE_HULL && b_round) {
        rg__collide_round_hull(b, a, margin, out);
        return rg__collide_flip(out);
    }
    if (!a_round || !b_round) return 0;
    if (a->type == RG_SHAPE_CAPSULE && b->type == RG_SHAPE_SPHERE) {
        rg__collide_round_round(b, a, margin, out);
        return rg__collide_flip(out);
    }
    return rg__collide_round_round(a, b, margin, out);
}

/* A public shape as the collision takes it, checked and posed: 0 for NULL, another type, a NULL
   or empty hull, a position beyond RG__MAX_MAGNITUDE, a non-finite orientation, a radius <= 0 or
   beyond RG__MAX_MAGNITUDE, or centres beyond RG__MAX_MAGNITUDE. */
static int rg__collide_convex_of(const rg_convex_shape *shape, rg__convex *c) {
    memset(c, 0, sizeof *c);
    if (!shape) return 0;
    c->type = shape->type;
    c->rotation = rg_quat_identity();
    if (shape->type == RG_SHAPE_HULL) {
        if (!rg__collide_pose_is_collidable(shape->hull, shape->position, shape->orientation)) return 0;
        c->hull = shape->hull;
        c->position = shape->position;
        c->rotation = rg_quat_normalize(shape->orientation);
        return 1;
    }
    if (shape->type != RG_SHAPE_SPHERE && shape->type != RG_SHAPE_CAPSULE) return 0;
    if (!(shape->radius > 0) || !rg__is_sane_real(shape->radius) || !rg__v3_is_sane(shape->center_a)) return 0;
    if (shape->type == RG_SHAPE_CAPSULE && !rg__v3_is_sane(shape->center_b)) return 0;
    c->p0 = shape->center_a;
    c->p1 = shape->type == RG_SHAPE_CAPSULE ? shape->center_b : shape->center_a;
    c->radius = shape->radius;
    return 1;
}

RIGID_API int rg_collide_shapes(const rg_convex_shape *a, const rg_convex_shape *b, rg_real margin,
                                rg_manifold *out) {
    rg__convex ca, cb;
    if (!out) return 0;
    memset(out, 0, sizeof *out);
    if (!a || !b || !rg__collide_convex_of(a, &ca) || !rg__collide_convex_of(b, &cb) ||
        !rg__collide_margin(margin, &margin))
        return 0;
    return rg__collide_convex(&ca, &cb, margin, NULL, NULL, out);
}

/* ---- >>collide.triangle: a convex shape against one triangle of a mesh ----------------------- */

/* A convex shape (A) against one one-sided triangle (B), in the conventions of rg_manifold: the
   normal points from the triangle towards A, points lie on the triangle's side (B), depth > 0
   overlaps.
   - Spheres and capsules: the closest points of the centre or segment and the triangle (a
     corner, an edge or the face: Ericson, Real-Time Collision Detection §5.1.5 for a point; a
     segment's closest pair is an end's, one with an edge, or a crossing of the face), normal
     along them; a capsule lying on the face (within RG__TRIANGLE_LYING_SINE of it) gives
     its segment clipped to the triangle's edge planes, two points along the face normal.
   - Hulls: separating axes (Baraff §7.1) over the triangle's normal both ways, the hull's face
     normals and the cross products of the triangle's edges with the hull's edges whose arcs
     cross on the Gauss map (the triangle as a flat polyhedron: edge k's arc is the half circle
     from its normal through the edge's outward direction to minus the normal), then the
     manifold as rg__collide_contact_manifold builds it: the triangle's face as reference (the
     hull's incident face clipped to the triangle), a hull face as reference (the triangle
     clipped to it) or the closest points of two edges, preferred in that order within
     RG__AXIS_RELATIVE and RG__AXIS_ABSOLUTE of the best axis. Everything in the hull's frame.
   One-sided: a shape whose centre (sphere centre, capsule segment's midpoint, hull centroid)
   lies behind the triangle's plane gets no contact, nor does one whose normal ends up in the
   back half-space (dot(n, normal) <= 0).
   Internal edges: a contact is "on" the triangle's feature
     spheres, capsules: the region of the closest point on the triangle (face, edge k, corner k);
     edge axis: the triangle's edge of the pair (its corner when the closest point is an end);
     hull face reference: where the deepest clipped point lies on the triangle: a corner of the
       triangle, a point of edge k (a clip of edge k by a side plane), or the face (a point made
       by two side planes);
     triangle face reference: the face.
   A contact on an inactive edge, or on a corner whose two edges are inactive, takes the face
   normal: round shapes their surface's lowest point along it at the closest point
   (rg__collide_round_lowest: centre - radius normal for a sphere), hulls the
   triangle-face manifold (the hull's incident face clipped to the triangle, or the hull's
   deepest vertex alone when nothing survives), each point's depth measured from the plane and
   the point on B the point on A projected onto it. So a box whose side face has just crossed a
   flat seam (its side face's axis winning against the next triangle, the deepest point on the
   seam) pushes along the face normal, not back across the seam.
   Feature ids: rg__collide_hash_combine(rg__collide_feature_prefix(kind, first, second), code),
   kind one of RG__TRIANGLE_*: FACE (first: the hull's incident face; code: its corner i, a clip
   code of a line and the triangle's side k (rg__collide_clip_code), or 0x40000000 | v for the
   hull's vertex v standing in alone), HULL_FACE (first: the hull's face; code: the triangle's
   corner k, a clip code of a line and the face's side i, or 0x40000000 | k), EDGES (first: the
   hull's edge, second: the triangle's edge k; code 0), ROUND (first: the triangle's feature, 0
   face, 1 + k edge k, 4 + k corner k, and 0 whenever the normal is the face's; code 0 for one
   point, for a capsule on the face the segment's end 0 or 1, or 2 + k where side k cuts it).
   The caller adds the triangle's index. */

/* A capsule lies on the face when the sine of its segment's angle with the plane and of its
   normal's with the face normal are below this (about 2.9 degrees). */
#define RG__TRIANGLE_LYING_SINE ((rg_real)0.05)
/* A triangle whose doubled area is below this part of its longest edge squared is degenerate:
   its normal would be rounding. */
#define RG__TRIANGLE_SLIVER (8 * RG__EPSILON)

enum { RG__TRIANGLE_FACE = 4, RG__TRIANGLE_HULL_FACE = 5, RG__TRIANGLE_EDGES = 6, RG__TRIANGLE_ROUND = 7 };
/* Features of the triangle: the face, RG__TRIANGLE_ON_EDGE + k edge k, RG__TRIANGLE_ON_CORNER + k
   corner k. */
enum { RG__TRIANGLE_ON_FACE = 0, RG__TRIANGLE_ON_EDGE = 1, RG__TRIANGLE_ON_CORNER = 4 };

/* The triangle of the public API: 0 for corners beyond RG__MAX_MAGNITUDE or a degenerate
   triangle (RG__TRIANGLE_SLIVER). Corners up to 1e15 keep the cross product below 1e31. */
static int rg__collide_triangle_of(const rg_vec3 v[3], unsigned active, rg__triangle *out) {
    rg_vec3 area;
    rg_real longest;
    int k;
    for (k = 0; k < 3; ++k)
        if (!rg__v3_is_sane(v[k])) return 0;
    area = rg_v3_cross(rg_v3_sub(v[1], v[0]), rg_v3_sub(v[2], v[0]));
    longest = rg__max_real(rg_v3_length(rg_v3_sub(v[1], v[0])),
                           rg__max_real(rg_v3_length(rg_v3_sub(v[2], v[1])), rg_v3_length(rg_v3_sub(v[0], v[2]))));
    if (!(rg_v3_length(area) > RG__TRIANGLE_SLIVER * longest * longest)) return 0;
    for (k = 0; k < 3; ++k) out->v[k] = v[k];
    out->normal = rg_v3_normalize(area);
    out->active = active & 7u;
    return 1;
}

/* Does a contact on the triangle's feature give a normal of its own? Not on an inactive edge,
   nor on a corner whose two edges (k - 1 and k) are inactive. */
static int rg__collide_triangle_feature_is_inactive(const rg__triangle *t, int feature) {
    if (feature >= RG__TRIANGLE_ON_CORNER) {
        int k = feature - RG__TRIANGLE_ON_CORNER;
        return !((t->active >> k) & 1u) && !((t->active >> ((k + 2) % 3)) & 1u);
    }
    return feature >= RG__TRIANGLE_ON_EDGE && !((t->active >> (feature - RG__TRIANGLE_ON_EDGE)) & 1u);
}

/* The point of triangle v (unit normal n) closest to p, and its feature (Ericson §5.1.5, with
   p first projected onto the plane: no term of the height squared in the region tests). */
static rg_vec3 rg__collide_triangle_closest(const rg_vec3 v[3], rg_vec3 n, rg_vec3 p, int *feature) {
    rg_vec3 ab = rg_v3_sub(v[1], v[0]), ac = rg_v3_sub(v[2], v[0]), ap, bp, cp, sab, sac;
    rg_real d1, d2, d3, d4, d5, d6, va, vb, vc, inverse;
    p = rg_v3_madd(p, n, -rg_v3_dot(n, rg_v3_sub(p, v[0])));
    ap = rg_v3_sub(p, v[0]);
    /* the areas below multiply two dot products: in range (rg__collide_round_scale); a triangle
       7e14 wide made them inf - inf, and every region test failed into the face */
    inverse = rg__max_real(rg__max_abs3(ab.x, ab.y, ab.z), rg__max_abs3(ac.x, ac.y, ac.z));
    inverse = 1 / rg__collide_round_scale(rg__max_real(inverse, rg__max_abs3(ap.x, ap.y, ap.z)));
    sab = rg_v3_scale(ab, inverse);
    sac = rg_v3_scale(ac, inverse);
    ap = rg_v3_scale(ap, inverse);
    d1 = rg_v3_dot(sab, ap);
    d2 = rg_v3_dot(sac, ap);
    if (d1 <= 0 && d2 <= 0) {
        *feature = RG__TRIANGLE_ON_CORNER + 0;
        return v[0];
    }
    bp = rg_v3_scale(rg_v3_sub(p, v[1]), inverse);
    d3 = rg_v3_dot(sab, bp);
    d4 = rg_v3_dot(sac, bp);
    if (d3 >= 0 && d4 <= d3) {
        *feature = RG__TRIANGLE_ON_CORNER + 1;
        return v[1];
    }
    vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        *feature = RG__TRIANGLE_ON_EDGE + 0;
        return rg_v3_madd(v[0], ab, d1 / (d1 - d3));
    }
    cp = rg_v3_scale(rg_v3_sub(p, v[2]), inverse);
    d5 = rg_v3_dot(sab, cp);
    d6 = rg_v3_dot(sac, cp);
    if (d6 >= 0 && d5 <= d6) {
        *feature = RG__TRIANGLE_ON_CORNER + 2;
        return v[2];
    }
    vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        *feature = RG__TRIANGLE_ON_EDGE + 2;
        return rg_v3_madd(v[0], ac, d2 / (d2 - d6));
    }
    va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
        *feature = RG__TRIANGLE_ON_EDGE + 1;
        return rg_v3_madd(v[1], rg_v3_sub(v[2], v[1]), (d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    *feature = RG__TRIANGLE_ON_FACE;
    return p;
}

/* The feature of the point at parameter w of edge k: the edge, or a corner at its ends. */
static int rg__collide_triangle_edge_feature(int k, rg_real w) {
    if (w <= 0) return RG__TRIANGLE_ON_CORNER + k;
    return w >= 1 ? RG__TRIANGLE_ON_CORNER + (k + 1) % 3 : RG__TRIANGLE_ON_EDGE + k;
}

/* Closest points of a sphere's centre or a capsule's segment and the triangle. */
typedef struct rg__triangle_closest {
    rg_vec3 on_shape, on_triangle;
    rg_real s;                    /* on_shape = p0 + s (p1 - p0) */
    rg_real distance_squared;
    int feature;                  /* of the triangle, RG__ON_* */
} rg__triangle_closest;

static void rg__collide_triangle_closest_keep(rg__triangle_closest *best, rg_real s, rg_vec3 on_shape,
                                              rg_vec3 on_triangle, int feature) {
    rg_real d = rg_v3_length_squared(rg_v3_sub(on_shape, on_triangle));
    if (!(d < best->distance_squared)) return;
    best->s = s;
    best->on_shape = on_shape;
    best->on_triangle = on_triangle;
    best->distance_squared = d;
    best->feature = feature;
}

/* The segment's closest pair is an end and its closest point on the triangle, the segment and an
   edge, or the point where it crosses the face (distance 0). Candidates in that fixed order, the
   first of equal distances kept. */
static rg__triangle_closest rg__collide_triangle_closest_to_round(const rg__convex *a, const rg__triangle *t) {
    rg__triangle_closest best;
    rg_vec3 u = rg_v3_sub(a->p1, a->p0), q;
    rg_real h0, h1, s, w;
    int k, feature;
    best.distance_squared = RG__REAL_MAX;
    best.feature = RG__TRIANGLE_ON_FACE;
    best.s = 0;
    best.on_shape = a->p0;
    best.on_triangle = rg__collide_triangle_closest(t->v, t->normal, a->p0, &best.feature);
    if (a->type == RG_SHAPE_SPHERE) return best;
    best.distance_squared = rg_v3_length_squared(rg_v3_sub(best.on_shape, best.on_triangle));
    q = rg__collide_triangle_closest(t->v, t->normal, a->p1, &feature);
    rg__collide_triangle_closest_keep(&best, 1, a->p1, q, feature);
    for (k = 0; k < 3; ++k) {
        rg_vec3 q0 = t->v[k], q1 = t->v[(k + 1) % 3];
        rg__collide_segments_closest(a->p0, a->p1, q0, q1, &s, &w);
        feature = rg__collide_triangle_edge_feature(k, w);
        rg__collide_triangle_closest_keep(&best, s, rg_v3_madd(a->p0, u, s), rg_v3_madd(q0, rg_v3_sub(q1, q0), w),
                                          feature);
    }
    h0 = rg_v3_dot(t->normal, rg_v3_sub(a->p0, t->v[0]));
    h1 = rg_v3_dot(t->normal, rg_v3_sub(a->p1, t->v[0]));
    if ((h0 > 0) != (h1 > 0)) {
        rg_vec3 x = rg_v3_madd(a->p0, u, h0 / (h0 - h1));
        q = rg__collide_triangle_closest(t->v, t->normal, x, &feature);
        if (feature == RG__TRIANGLE_ON_FACE)
            rg__collide_triangle_closest_keep(&best, h0 / (h0 - h1), x, q, feature);
    }
    return best;
}

/* The part of segment p0 p1 inside the triangle's prism (behind its three edge planes), as the
   parameters [*s0, *s1] with the codes of their ends (0 and 1 the segment's own, 2 + k a cut by
   edge k's plane); 0 when nothing is left. */
static int rg__collide_triangle_clip_segment(const rg__triangle *t, rg_vec3 p0, rg_vec3 p1, rg_real *s0,
                                             rg_real *s1, uint32_t *code0, uint32_t *code1) {
    int k;
    *s0 = 0;
    *s1 = 1;
    *code0 = 0;
    *code1 = 1;
    for (k = 0; k < 3; ++k) {
        rg_vec3 q = t->v[k], side = rg_v3_cross(rg_v3_sub(t->v[(k + 1) % 3], q), t->normal);
        rg_real f0 = rg_v3_dot(side, rg_v3_sub(p0, q)), f1 = rg_v3_dot(side, rg_v3_sub(p1, q)), cut;
        if (f0 > 0 && f1 > 0) return 0;
        if ((f0 > 0) == (f1 > 0)) continue;
        cut = f0 / (f0 - f1);
        if (f0 > 0 && cut > *s0) {
            *s0 = cut;
            *code0 = 2u + (uint32_t)k;
        } else if (f1 > 0 && cut < *s1) {
            *s1 = cut;
            *code1 = 2u + (uint32_t)k;
        }
    }
    return *s0 <= *s1;
}

/* The point of the round shape's surface lowest along the triangle's normal among those whose
   nearest point of the segment is p0 + s (p1 - p0): p - r normal for a sphere and at an end the
   segment rises from, else the lowest point of the cross-section across the segment (p - r m,
   m the normal's part across the segment, unit). A segment along the normal has no lowest
   point across it: its lower end's stands in. */
static rg_vec3 rg__collide_round_lowest(const rg__convex *a, const rg__triangle *t, rg_real s) {
    rg_vec3 u = rg_v3_sub(a->p1, a->p0), across;
    rg_real uu = rg_v3_length_squared(u), along = rg_v3_dot(t->normal, u), length;
    if (a->type == RG_SHAPE_SPHERE || !(uu > 0) || (s <= 0 && along >= 0) || (s >= 1 && along <= 0))
        return rg_v3_madd(rg_v3_madd(a->p0, u, s), t->normal, -a->radius);
    across = rg_v3_madd(t->normal, u, -along / uu);
    length = rg_v3_length(across);
    if (!(length > RG__EPSILON))
        return rg_v3_madd(along > 0 ? a->p0 : a->p1, t->normal, -a->radius);
    return rg_v3_madd(rg_v3_madd(a->p0, u, s), across, -a->radius / length);
}

/* A point of A measured along the triangle's normal: depth -(normal . (on_a - v0)), the point on
   B on_a projected onto the plane. */
static rg__clip_vertex rg__collide_triangle_plane_point(const rg__triangle *t, rg_vec3 on_a, uint32_t code) {
    rg__clip_vertex p;
    p.depth = -rg_v3_dot(t->normal, rg_v3_sub(on_a, t->v[0]));
    p.p = rg_v3_madd(on_a, t->normal, p.depth);
    p.code = code;
    p.line = 0;
    return p;
}

/* A capsule on or through the face: the ends of its segment inside the prism, measured along
   the normal, kept within the margin. Lying (2 points), each end is moved by -radius along the
   normal, so that the points stay over the triangle; at an angle b to the plane that point is
   r (1 - cos b) inside the capsule, at most 0.13% of r. Through the face only the deepest is
   kept, the capsule's lowest point there (rg__collide_round_lowest). */
static int rg__collide_capsule_on_face(const rg__convex *a, const rg__triangle *t, rg_real margin, int lying,
                                       rg__clip_vertex points[2]) {
    rg_vec3 u = rg_v3_sub(a->p1, a->p0), down = rg_v3_scale(t->normal, -a->radius);
    rg_real s[2];
    uint32_t code[2];
    int i, count = 0;
    if (!rg__collide_triangle_clip_segment(t, a->p0, a->p1, &s[0], &s[1], &code[0], &code[1])) return 0;
    for (i = 0; i < (s[1] > s[0] ? 2 : 1); ++i) {
        rg_vec3 on_a = lying ? rg_v3_add(rg_v3_madd(a->p0, u, s[i]), down) : rg__collide_round_lowest(a, t, s[i]);
        rg__clip_vertex p = rg__collide_triangle_plane_point(t, on_a, code[i]);
        if (p.depth >= -margin) points[count++] = p;
    }
    if (count == 2 && !lying) {
        if (points[1].depth > points[0].depth) points[0] = points[1];
        count = 1;
    }
    return count;
}

/* Sphere or capsule against the triangle (world space). */
static int rg__collide_round_triangle(const rg__convex *a, const rg__triangle *t, rg_real margin, rg_manifold *out) {
    rg__triangle_closest c = rg__collide_triangle_closest_to_round(a, t);
    rg_vec3 u = rg_v3_sub(a->p1, a->p0), n = t->normal;
    rg_real r = a->radius, d = rg_v3_length(rg_v3_sub(c.on_shape, c.on_triangle)), length = rg_v3_length(u);
    rg_real tiny, up;
    rg__clip_vertex points[2];
    int count = 0, chosen[4], face_normal, touching, lying;
    if (!(d <= r + margin)) return 0;
    /* closer than the rounding of the coordinates, the closest points give no direction */
    tiny = 64 * RG__EPSILON * (r + rg__max_abs3(c.on_triangle.x, c.on_triangle.y, c.on_triangle.z));
    touching = !(d > tiny);
    face_normal = touching || rg__collide_triangle_feature_is_inactive(t, c.feature);
    if (!face_normal) n = rg_v3_scale(rg_v3_sub(c.on_shape, c.on_triangle), 1 / d);
    up = rg_v3_dot(n, t->normal);
    if (!(up > 0)) return 0;
    lying = length > 0 && rg__fabs(rg_v3_dot(u, t->normal)) <= RG__TRIANGLE_LYING_SINE * length &&
            up * up >= 1 - RG__TRIANGLE_LYING_SINE * RG__TRIANGLE_LYING_SINE;
    if (lying || (length > 0 && touching)) {
        count = rg__collide_capsule_on_face(a, t, margin, lying, points);
        if (count > 0) face_normal = 1;
    }
    if (count == 0) {
        if (face_normal) {
            points[0] = rg__collide_triangle_plane_point(t, rg__collide_round_lowest(a, t, c.s), 0);
        } else {
            points[0].p = c.on_triangle;
            points[0].depth = r - d;
            points[0].code = 0;
            points[0].line = 0;
        }
        if (!(points[0].depth >= -margin)) return 0;
        count = 1;
    }
    if (face_normal) n = t->normal;
    count = rg__collide_reduce_contacts(points, count, n, chosen);
    rg__collide_manifold_from_points(points, chosen, count, n, RG__TRIANGLE_ROUND,
                                     face_normal ? RG__TRIANGLE_ON_FACE : c.feature, 0, rg_v3(0, 0, 0),
                                     rg_quat_identity(), out);
    if (face_normal) out->normal = t->normal;
    return count;
}

/* ---- hulls: the triangle in the hull's frame ---- */

/* The triangle seen from the hull's frame, x_hull = rotation^-1 (x - position). */
typedef struct rg__triangle_frame {
    const rg__triangle *t;        /* world space */
    const rg_hull *hull;
    rg_vec3 position;             /* the hull's pose, for the manifold's way back to world space */
    rg_quat rotation;
    rg_vec3 v[3], normal;         /* the triangle in the hull frame */
    rg_real offset;               /* its plane: dot(normal, x) = offset */
    rg_real size;                 /* its longest edge */
} rg__triangle_frame;

/* The triangle's lowest corner along n (the first of equals), and its height. */
static rg_real rg__collide_triangle_lowest(const rg_vec3 v[3], rg_vec3 n, int *corner) {
    rg_real low = rg_v3_dot(n, v[0]);
    int k;
    *corner = 0;
    for (k = 1; k < 3; ++k) {
        rg_real d = rg_v3_dot(n, v[k]);
        if (d < low) {
            low = d;
            *corner = k;
        }
    }
    return low;
}

/* The hull face with the largest separation of the triangle from its plane (support: the
   triangle's lowest corner); stops at the first that separates by more than margin. */
static rg__face_query rg__collide_triangle_query_hull_faces(const rg__triangle_frame *tf, rg_real margin) {
    const rg_hull *h = tf->hull;
    rg__face_query best;
    int f, corner;
    best.face = -1;
    best.support = 0;
    best.separation = -FLT_MAX;
    for (f = 0; f < h->face_count; ++f) {
        rg_real s = rg__collide_triangle_lowest(tf->v, h->faces[f].normal, &corner) - h->faces[f].offset;
        if (s > best.separation) {
            best.separation = s;
            best.face = f;
            best.support = corner;
            if (s > margin) break;
        }
    }
    return best;
}

/* The pair of a hull edge and a triangle edge with the largest separation among those that span
   a face of the Minkowski difference; stops at the first that separates by more than margin;
   edge_a (the hull's edge) is -1 when no pair qualifies. Edge k of the triangle, seen as a flat
   polyhedron, has on the Gauss map the half circle from its normal through its outward
   direction o_k to minus its normal, so -B's is the half circle through -o_k. The hull edge's
   arc (between its faces' normals n0, n1) crosses that circle's plane (the one perpendicular
   to e_k) where n0 and n1 lie on opposite sides of it, at the direction |n1.e_k| n0 +
   |n0.e_k| n1, which must point against o_k. The separation is taken from the supports along
   the axis: the exact gap along it, whatever rounding did to the test. */
static rg__edge_query rg__collide_triangle_query_edges(const rg__triangle_frame *tf, rg_real margin) {
    const rg_hull *h = tf->hull;
    rg__edge_query best;
    int j, k, corner;
    best.edge_a = best.edge_b = -1;
    best.separation = -FLT_MAX;
    best.normal = rg_v3(0, 0, 0);
    for (k = 0; k < 3; ++k) {
        rg_vec3 e = rg_v3_sub(tf->v[(k + 1) % 3], tf->v[k]), outward = rg_v3_cross(e, tf->normal);
        rg_real e_length = rg_v3_length(e);
        for (j = 0; j < h->edge_count; ++j) {
            const rg__hull_edge *edge = &h->edges[j];
            rg_vec3 n0 = h->faces[edge->faces[0]].normal, n1 = h->faces[edge->faces[1]].normal, arc, d, n;
            rg_real side0 = rg_v3_dot(n0, e), side1 = rg_v3_dot(n1, e), length, s;
            if (!(side0 * side1 < 0)) continue;
            arc = rg_v3_add(rg_v3_scale(n0, rg__fabs(side1)), rg_v3_scale(n1, rg__fabs(side0)));
            if (!(rg_v3_dot(arc, outward) < 0)) continue;
            d = rg__collide_edge_direction(h, j);
            n = rg_v3_cross(d, e);
            length = rg_v3_length(n);
            if (!(length > RG__PARALLEL_SINE * rg_v3_length(d) * e_length)) continue; /* no overflow of squares */
            n = rg_v3_scale(n, (rg_v3_dot(n, arc) < 0 ? -1 : 1) / length);
            s = rg__collide_triangle_lowest(tf->v, n, &corner) -
                rg_v3_dot(n, h->vertices[rg__collide_hull_support(h, n)]);
            if (!(s > best.separation)) continue;
            best.separation = s;
            best.edge_a = j;
            best.edge_b = k;
            best.normal = n;
            if (s > margin) return best;
        }
    }
    return best;
}

/* Clips polygon *in (count vertices) against the side planes of a reference polygon: corners
   ref[index[i]] (ref[i] without index), counter-clockwise about n; side i is the plane through
   corners i and i + 1. *in and *next are the two buffers, swapped as it goes. */
static int rg__collide_triangle_clip_sides(rg__clip_vertex **in, rg__clip_vertex **next, int count, const rg_vec3 *ref,
                                           const int *index, int ref_count, rg_vec3 n) {
    rg_vec3 first = ref[index ? index[0] : 0], v1 = first;
    int i;
    for (i = 0; i < ref_count && count > 0; ++i) {
        rg_vec3 v0 = v1, side;
        rg__clip_vertex *swap;
        v1 = i + 1 < ref_count ? ref[index ? index[i + 1] : i + 1] : first;
        side = rg_v3_cross(rg_v3_sub(v1, v0), n); /* outward in the reference's plane */
        count = rg__collide_clip_polygon(*in, count, side, rg_v3_dot(side, v0), i, *next);
        swap = *in;
        *in = *next;
        *next = swap;
    }
    return count;
}

/* Room for clipping a polygon of `count` corners against `sides` planes: the stack, or the
   scratch array when it may not fit. Returns the two buffers' size. */
static int rg__collide_triangle_clip_buffers(int count, int sides, rg__clip_vertex *stack, rg__collide_scratch *scratch,
                                             rg__clip_vertex **in, rg__clip_vertex **next) {
    int capacity = count + sides + 1;
    rg__clip_vertex *buffer = stack;
    if (capacity > RG__CLIP_STACK) {
        stbds_arrsetlen(scratch->clip, 2 * capacity);
        buffer = scratch->clip;
    } else {
        capacity = RG__CLIP_STACK;
    }
    *in = buffer;
    *next = buffer + capacity;
    return capacity;
}

/* The triangle's face as reference: the hull's incident face (the most anti-parallel one around
   `support`, its deepest vertex below the plane) clipped to the triangle's edge planes, depths
   from the plane, points moved onto it; with allow_fallback that vertex alone when nothing
   survives. The normal is the triangle's, exactly. */
static int rg__collide_triangle_face_contact(const rg__triangle_frame *tf, int support, rg_real margin,
                                             int allow_fallback, rg__collide_scratch *scratch, rg_manifold *out) {
    const rg_hull *h = tf->hull;
    rg__clip_vertex stack[2 * RG__CLIP_STACK], *in, *next;
    rg__pair_frame frame;
    const rg__hull_face *incident;
    int i, count, kept, chosen[4], face;
    memset(&frame, 0, sizeof frame);
    frame.a = frame.b = h;
    face = rg__collide_incident_face(&frame, 0, support, tf->normal);
    if (face < 0) return 0;
    incident = &h->faces[face];
    rg__collide_triangle_clip_buffers(incident->count, 3, stack, scratch, &in, &next);
    for (i = 0; i < incident->count; ++i) {
        in[i].p = h->vertices[h->face_vertices[incident->first + i]];
        in[i].depth = 0;
        in[i].code = (uint32_t)i;
        in[i].line = (uint32_t)i;
    }
    count = rg__collide_triangle_clip_sides(&in, &next, incident->count, tf->v, NULL, 3, tf->normal);
    for (i = 0, kept = 0; i < count; ++i) {
        rg__clip_vertex p = in[i];
        p.depth = tf->offset - rg_v3_dot(tf->normal, p.p);
        if (!(p.depth >= -margin)) continue;
        p.p = rg_v3_madd(p.p, tf->normal, p.depth);
        in[kept++] = p;
    }
    if (kept == 0 && allow_fallback) {
        rg__clip_vertex p;
        p.p = h->vertices[support];
        p.depth = tf->offset - rg_v3_dot(tf->normal, p.p);
        p.code = 0x40000000u | (uint32_t)support;
        p.line = 0;
        p.p = rg_v3_madd(p.p, tf->normal, p.depth);
        if (p.depth >= -margin) in[kept++] = p;
    }
    count = rg__collide_reduce_contacts(in, kept, tf->normal, chosen);
    rg__collide_manifold_from_points(in, chosen, count, tf->normal, RG__TRIANGLE_FACE, face, 0, tf->position,
                                     tf->rotation, out);
    out->normal = tf->t->normal;
    return count;
}

/* Where a clipped point of the triangle lies on it (the codes of rg__collide_clip_polygon, the
   triangle's corner k and edge k having code and line k; 0x40000000 | k a corner standing in). */
static int rg__collide_triangle_feature_of_code(uint32_t code) {
    uint32_t line;
    if (!(code & 0x80000000u)) return RG__TRIANGLE_ON_CORNER + (int)(code & 3u);
    line = (code >> 12) & 0x7ffffu;
    return line < 3 ? RG__TRIANGLE_ON_EDGE + (int)line : RG__TRIANGLE_ON_FACE;
}

/* A hull face as reference: the triangle clipped against its side planes, depths below it, the
   points on the triangle; with allow_fallback the triangle's lowest corner alone when nothing
   survives. *feature: where the deepest point lies on the triangle. */
static int rg__collide_triangle_hull_face_contact(const rg__triangle_frame *tf, int f, rg_real margin,
                                                  int allow_fallback, rg__collide_scratch *scratch,
                                                  rg_manifold *out, int *feature) {
    const rg_hull *h = tf->hull;
    const rg__hull_face *reference = &h->faces[f];
    rg__clip_vertex stack[2 * RG__CLIP_STACK], *in, *next;
    rg_vec3 n = reference->normal;
    int i, count, kept, chosen[4];
    rg__collide_triangle_clip_buffers(3, reference->count, stack, scratch, &in, &next);
    for (i = 0; i < 3; ++i) {
        in[i].p = tf->v[i];
        in[i].depth = 0;
        in[i].code = (uint32_t)i;
        in[i].line = (uint32_t)i;
    }
    count = rg__collide_triangle_clip_sides(&in, &next, 3, h->vertices, h->face_vertices + reference->first,
                                            reference->count, n);
    for (i = 0, kept = 0; i < count; ++i) {
        rg__clip_vertex p = in[i];
        p.depth = reference->offset - rg_v3_dot(n, p.p);
        if (p.depth >= -margin) in[kept++] = p;
    }
    if (kept == 0 && allow_fallback) {
        rg__clip_vertex p;
        int corner;
        p.depth = reference->offset - rg__collide_triangle_lowest(tf->v, n, &corner);
        p.p = tf->v[corner];
        p.code = 0x40000000u | (uint32_t)corner;
        p.line = 0;
        if (p.depth >= -margin) in[kept++] = p;
    }
    count = rg__collide_reduce_contacts(in, kept, n, chosen);
    if (count > 0) *feature = rg__collide_triangle_feature_of_code(in[chosen[0]].code);
    rg__collide_manifold_from_points(in, chosen, count, rg_v3_neg(n), RG__TRIANGLE_HULL_FACE, f, 0, tf->position,
                                     tf->rotation, out);
    return count;
}

/* Two edges: the closest points of the hull's edge and the triangle's, one point. Without
   allow_clamped, nothing when they are not inside both edges (see rg__collide_edge_contact).
   *feature: the triangle's edge, or its corner when the point is an end of it. */
static int rg__collide_triangle_edge_contact(const rg__triangle_frame *tf, const rg__edge_query *query,
                                             rg_real margin, int allow_clamped, rg_manifold *out, int *feature) {
    const rg__hull_edge *edge = &tf->hull->edges[query->edge_a];
    int k = query->edge_b, chosen = 0;
    rg_vec3 x0 = tf->hull->vertices[edge->v[0]], x1 = tf->hull->vertices[edge->v[1]];
    rg_vec3 t0 = tf->v[k], t1 = tf->v[(k + 1) % 3], normal = rg_v3_neg(query->normal), on_a;
    rg_real s, w;
    rg__clip_vertex point;
    rg__collide_segments_closest(x0, x1, t0, t1, &s, &w);
    if (!allow_clamped && (s <= 0 || s >= 1 || w <= 0 || w >= 1)) return 0;
    on_a = rg_v3_madd(x0, rg_v3_sub(x1, x0), s);
    point.p = rg_v3_madd(t0, rg_v3_sub(t1, t0), w);
    point.depth = rg_v3_dot(normal, rg_v3_sub(point.p, on_a));
    point.code = 0;
    point.line = 0;
    if (!(point.depth >= -margin)) return 0;
    *feature = rg__collide_triangle_edge_feature(k, w);
    rg__collide_manifold_from_points(&point, &chosen, 1, normal, RG__TRIANGLE_EDGES, query->edge_a, k, tf->position,
                                     tf->rotation, out);
    return 1;
}

/* A hull-face or edge manifold on the triangle's `feature`: on an inactive edge or corner, the
   triangle-face manifold instead (the face normal); a normal into the back half-space, none. */
static int rg__collide_triangle_hull_finish(const rg__triangle_frame *tf, int support, int feature, rg_real margin,
                                            rg__collide_scratch *scratch, rg_manifold *out) {
    if (rg__collide_triangle_feature_is_inactive(tf->t, feature)) {
        memset(out, 0, sizeof *out);
        return rg__collide_triangle_face_contact(tf, support, margin, 1, scratch, out);
    }
    if (!(rg_v3_dot(out->normal, tf->t->normal) > 0)) memset(out, 0, sizeof *out);
    return out->count;
}

enum { RG__TRIANGLE_AXIS_FACE, RG__TRIANGLE_AXIS_HULL_FACE, RG__TRIANGLE_AXIS_EDGES, RG__TRIANGLE_AXIS_BACK };

/* A hull against the triangle: the separating axes, then the manifold with the preferences of
   rg__collide_contact_manifold (the triangle's face, a hull face, the edges; a face within
   RG__ALIGNED_COSINE of a best edge axis when its points reach that depth), the best axis with
   the fallbacks when rounding defeats them all. The back of the triangle as best axis gives
   nothing. */
static int rg__collide_hull_triangle(const rg__convex *a, const rg__triangle *t, rg_real margin,
                                     rg__collide_scratch *scratch, rg_manifold *out) {
    const rg_hull *h = a->hull;
    rg__triangle_frame tf;
    rg__face_query hull_face;
    rg__edge_query edges;
    rg_quat inverse = rg_quat_conjugate(a->rotation);
    rg_real face, back, best, tolerance, aligned_tolerance, small;
    int k, support, count, near_best, aligned, overlapping, best_kind, feature = RG__TRIANGLE_ON_FACE;
    tf.t = t;
    tf.hull = h;
    tf.position = a->position;
    tf.rotation = a->rotation;
    for (k = 0; k < 3; ++k) tf.v[k] = rg__quat_rotate(inverse, rg_v3_sub(t->v[k], a->position));
    tf.normal = rg__quat_rotate(inverse, t->normal);
    /* the plane from world values: exact for a level floor however far its corners lie */
    tf.offset = rg_v3_dot(t->normal, rg_v3_sub(t->v[0], a->position));
    tf.size = 0;
    for (k = 0; k < 3; ++k) tf.size = rg__max_real(tf.size, rg_v3_length(rg_v3_sub(tf.v[(k + 1) % 3], tf.v[k])));
    /* the separating axes, each one stopping the search when it separates */
    support = rg__collide_hull_support(h, rg_v3_neg(tf.normal));
    face = rg_v3_dot(tf.normal, h->vertices[support]) - tf.offset;
    if (face > margin) return 0;
    back = tf.offset - rg_v3_dot(tf.normal, h->vertices[rg__collide_hull_support(h, tf.normal)]);
    if (back > margin) return 0;
    hull_face = rg__collide_triangle_query_hull_faces(&tf, margin);
    if (hull_face.separation > margin) return 0;
    edges = rg__collide_triangle_query_edges(&tf, margin);
    if (edges.edge_a >= 0 && edges.separation > margin) return 0;
    best = rg__max_real(rg__max_real(face, back), hull_face.separation);
    if (edges.edge_a >= 0) best = rg__max_real(best, edges.separation);
    best_kind = face == best ? RG__TRIANGLE_AXIS_FACE
              : hull_face.separation == best ? RG__TRIANGLE_AXIS_HULL_FACE
              : edges.edge_a >= 0 && edges.separation == best ? RG__TRIANGLE_AXIS_EDGES : RG__TRIANGLE_AXIS_BACK;
    overlapping = best <= 0;
    small = rg__min_real(h->radius, tf.size);
    tolerance = RG__AXIS_RELATIVE * rg__fabs(best) + RG__AXIS_ABSOLUTE * small;
    aligned_tolerance = RG__AXIS_RELATIVE * rg__fabs(best) + RG__ALIGNED_ROUNDING * small;
    /* the triangle's face first: stable manifolds on flat ground */
    near_best = face >= best - tolerance;
    aligned = !near_best && best_kind == RG__TRIANGLE_AXIS_EDGES &&
              -rg_v3_dot(tf.normal, edges.normal) >= RG__ALIGNED_COSINE;
    if (near_best || aligned) {
        count = rg__collide_triangle_face_contact(&tf, support, margin, 0, scratch, out);
        if (count > 0 && near_best && (!overlapping || out->depths[0] >= -best - tolerance)) return count;
        if (count > 0 && aligned && rg__fabs(out->depths[0] + best) <= aligned_tolerance) return count;
    }
    near_best = hull_face.separation >= best - tolerance;
    aligned = !near_best && best_kind == RG__TRIANGLE_AXIS_EDGES &&
              rg_v3_dot(h->faces[hull_face.face].normal, edges.normal) >= RG__ALIGNED_COSINE;
    if (near_best || aligned) {
        count = rg__collide_triangle_hull_face_contact(&tf, hull_face.face, margin, 0, scratch, out, &feature);
        if ((count > 0 && near_best && (!overlapping || out->depths[0] >= -best - tolerance)) ||
            (count > 0 && aligned && rg__fabs(out->depths[0] + best) <= aligned_tolerance))
            return rg__collide_triangle_hull_finish(&tf, support, feature, margin, scratch, out);
    }
    if (edges.edge_a >= 0 && edges.separation >= best - tolerance &&
        rg__collide_triangle_edge_contact(&tf, &edges, margin, 0, out, &feature))
        return rg__collide_triangle_hull_finish(&tf, support, feature, margin, scratch, out);
    memset(out, 0, sizeof *out);
    if (!overlapping) return 0;
    /* rounding defeated every candidate: the best axis with the fallbacks */
    switch (best_kind) {
    case RG__TRIANGLE_AXIS_FACE:
        return rg__collide_triangle_face_contact(&tf, support, margin, 1, scratch, out);
    case RG__TRIANGLE_AXIS_HULL_FACE:
        count = rg__collide_triangle_hull_face_contact(&tf, hull_face.face, margin, 1, scratch, out, &feature);
        break;
    case RG__TRIANGLE_AXIS_EDGES:
        count = rg__collide_triangle_edge_contact(&tf, &edges, margin, 1, out, &feature);
        break;
    default:
        return 0;
    }
    return count > 0 ? rg__collide_triangle_hull_finish(&tf, support, feature, margin, scratch, out) : 0;
}

/* A posed convex shape (A) against one triangle (B); margin >= 0 and finite, poses sane,
   rotations unit. scratch (may be NULL) holds stb_ds arrays reused for big hulls; without it
   they are made and freed here. Clears out, returns out->count. */
static int rg__collide_convex_triangle(const rg__convex *a, const rg__triangle *t, rg_real margin,
                                       rg__collide_scratch *scratch, rg_manifold *out) {
    rg__collide_scratch temporary;
    rg_vec3 centre;
    int count;
    memset(out, 0, sizeof *out);
    centre = a->type == RG_SHAPE_HULL ? rg_v3_add(a->position, rg__quat_rotate(a->rotation, a->hull->centroid))
                                      : rg_v3_scale(rg_v3_add(a->p0, a->p1), (rg_real)0.5);
    if (rg_v3_dot(t->normal, rg_v3_sub(centre, t->v[0])) < 0) return 0;
    if (a->type != RG_SHAPE_HULL) return rg__collide_round_triangle(a, t, margin, out);
    memset(&temporary, 0, sizeof temporary);
    count = rg__collide_hull_triangle(a, t, margin, scratch ? scratch : &temporary, out);
    stbds_arrfree(temporary.clip);
    if (count == 0) memset(out, 0, sizeof *out);
    return count;
}

RIGID_API int rg_collide_triangle(const rg_convex_shape *a, const rg_vec3 triangle[3], unsigned active_edges,
                                  rg_real margin, rg_manifold *out) {
    rg__convex convex;
    rg__triangle t;
    if (!out) return 0;
    memset(out, 0, sizeof *out);
    if (!triangle || !rg__collide_convex_of(a, &convex) || !rg__collide_triangle_of(triangle, active_edges, &t) ||
        !rg__collide_margin(margin, &margin))
        return 0;
    return rg__collide_convex_triangle(&convex, &t, margin, NULL, out);
}

/* =============================================================================================
   >>cast: rays and moving spheres against shapes, triangles and meshes

   A cast is the line x(t) = origin + t translation, t in [0, max_fraction]. A ray hits a shape
   where the line first enters it. A sphere of radius r touches a shape where its centre first
   enters the shape grown by r (its Minkowski sum with the ball), so a sphere cast is a ray cast
   against the grown shape:
   - spheres and capsules grow into spheres and capsules (the radii summed): the line against two
     balls and a cylinder in closed form (rg__cast_line_capsule);
   - a hull, for rays: the line clipped by the face planes (Cyrus-Beck), in the hull's frame;
   - a hull grown by r: its faces pushed out by r, its edges grown into capsules of radius r
     (which hold the vertices' balls). The line enters the union first where it first enters one
     of the pieces: a pushed-out face through its polygon, or an edge's capsule (a face's slab
     is entered through its sides only inside an edge's capsule, the hull only through a slab).
     Exact up to rounding, O(faces' corners + edges). Chosen over conservative advancement with
     GJK distances, which approaches a sphere grazing an edge or a face at a shallow angle in many
     small steps and is only as accurate as its stopping tolerance;
   - a triangle, for rays: Woop, Benthin & Wald 2013 (Watertight ray/triangle intersection, JCGT
     2(1)): edge functions of the corners sheared so that the ray runs along an axis; the edge
     shared by two triangles gives both the same function with opposite signs, so a ray through it
     hits one of them (no leak between the triangles of a mesh); front side only;
   - a triangle grown by r: the face pushed out to the front and the three edges' capsules;
   - a mesh: its hierarchy walked nearest box first, boxes grown by r and their rounding, boxes
     beyond the best hit so far skipped; equal fractions go to the lowest triangle.
   Rules: a ray starting inside a shape does not hit it (starting on its surface and entering:
   fraction 0). A sphere starting overlapping or touching a shape (its centre within r of it, in
   front of a triangle) hits at fraction 0 whatever its direction, with the shape's surface point
   closest to its centre and the normal there; a centre inside a hull takes the face of least
   penetration. Box2D v3 does both (it reports an initial overlap as fraction 0, with a zero
   normal): a hit at 0 tells a character controller it is stuck, and a cast starting just clear of
   a surface gets its true fraction. A sphere touches a triangle only with its centre on the front
   side of its plane, as rg__collide_convex_triangle collides only shapes whose centre is in
   front. A zero translation, non-finite or absurd input (beyond RG__MAX_MAGNITUDE), a radius <= 0
   or a negative or NaN max_fraction: no hit.
   ============================================================================================= */

/* The hierarchy is at most 60 levels deep (rg__mesh_build_node); the walk pushes at most two
   children for the one node it pops, so it never holds more than 62. */
#define RG__CAST_STACK 64

static rg_real rg__cast_component(rg_vec3 v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }

static rg_real rg__cast_max_abs(rg_vec3 v) { return rg__max_abs3(v.x, v.y, v.z); }

/* Is the cast well-formed: sane origin and translation, a non-zero translation, max_fraction
   finite and >= 0? */
static int rg__cast_input_is_valid(rg_vec3 origin, rg_vec3 translation, rg_real max_fraction) {
    return rg__v3_is_sane(origin) && rg__v3_is_sane(translation) && rg__cast_max_abs(translation) > 0 &&
           rg__is_finite_real(max_fraction) && max_fraction >= 0;
}

/* Where the line m + t d (m the origin relative to a ball's centre) lies within `radius` of the
   centre: [*t_in, *t_out], measured from the line's point closest to the centre (the roots of
   the quadratic would lose the difference of nearly equal squares); 0 when it misses. */
static int rg__cast_line_ball(rg_vec3 m, rg_vec3 d, rg_real radius, rg_real *t_in, rg_real *t_out) {
    rg_real dd = rg_v3_dot(d, d), closest, c, h;
    if (!(dd > 0)) return 0;
    closest = -rg_v3_dot(m, d) / dd;
    c = rg_v3_length(rg_v3_madd(m, d, closest));
    if (!(c <= radius)) return 0;
    h = rg__sqrt((radius - c) * (radius + c) / dd);
    *t_in = closest - h;
    *t_out = closest + h;
    return 1;
}

static void rg__cast_union(rg_real t_in, rg_real t_out, int *found, rg_real *lo, rg_real *hi) {
    *lo = *found ? rg__min_real(*lo, t_in) : t_in;
    *hi = *found ? rg__max_real(*hi, t_out) : t_out;
    *found = 1;
}

/* The line m + t d against the capsule of the segment from 0 to u swept by `radius` (m the
   origin relative to the segment's first end): [*t_in, *t_out] where the line is inside, the
   union of the end balls' and the finite cylinder's intervals (one interval: the capsule is
   convex); 0 when it misses. The geometry is scaled into range first (rg__collide_round_scale)
   and d to a largest component of 1, so that no square overflows or underflows; the parameters
   are scaled back. */
static int rg__cast_line_capsule(rg_vec3 m, rg_vec3 d, rg_vec3 u, rg_real radius, rg_real *t_in, rg_real *t_out) {
    rg_real largest = rg__max_real(rg__max_real(rg__cast_max_abs(m), rg__cast_max_abs(u)), radius);
    rg_real scale = rg__collide_round_scale(largest), step = rg__cast_max_abs(d), uu, mu, du, lo, hi, a, b, back;
    int found;
    if (!(step > 0)) return 0;
    m = rg_v3_scale(m, 1 / scale);
    u = rg_v3_scale(u, 1 / scale);
    radius /= scale;
    d = rg_v3_scale(d, 1 / step);
    back = scale / step; /* m + t d = scale (m' + t' d') with t = t' scale / step */
    found = rg__cast_line_ball(m, d, radius, t_in, t_out);
    uu = rg_v3_dot(u, u);
    if (uu > 0) {
        if (rg__cast_line_ball(rg_v3_sub(m, u), d, radius, &a, &b)) rg__cast_union(a, b, &found, t_in, t_out);
        mu = rg_v3_dot(m, u);
        du = rg_v3_dot(d, u);
        /* the cylinder: the parts across the axis, within the slab 0 <= axial <= 1 */
        if (rg__cast_line_ball(rg_v3_madd(m, u, -mu / uu), rg_v3_madd(d, u, -du / uu), radius, &lo, &hi) &&
            (du != 0 || (mu >= 0 && mu <= uu))) {
            if (du != 0) {
                a = -mu / du;
                b = (uu - mu) / du;
                lo = rg__max_real(lo, rg__min_real(a, b));
                hi = rg__min_real(hi, rg__max_real(a, b));
            }
            if (lo <= hi) rg__cast_union(lo, hi, &found, t_in, t_out);
        }
    }
    if (!found) return 0;
    *t_in *= back;
    *t_out *= back;
    return 1;
}

/* A unit vector for a normal that has no direction of its own (a centre on the core or on an
   edge): against the cast. */
static rg_vec3 rg__cast_against(rg_vec3 translation) {
    return rg_v3_normalize(rg_v3_neg(rg_v3_scale(translation, 1 / rg__cast_max_abs(translation))));
}

/* A sphere or capsule (core p0 p1, radius `shape_radius`) against a ray (radius 0) or a sphere
   cast: the line against the capsule of the summed radii. A ray hits where the line enters it at
   t >= 0; a sphere at max(t_in, 0) when the line is still inside at t >= 0. The normal points
   from the core's closest point to the cast's centre there. */
static int rg__cast_round(rg_vec3 p0, rg_vec3 p1, rg_real shape_radius, rg_real radius, rg_vec3 origin,
                          rg_vec3 translation, rg_real max_fraction, rg__cast_hit *hit) {
    rg_vec3 u = rg_v3_sub(p1, p0), x, q, n;
    rg_real t_in, t_out, t;
    if (!rg__cast_line_capsule(rg_v3_sub(origin, p0), translation, u, shape_radius + radius, &t_in, &t_out)) return 0;
    if (radius > 0 ? !(t_out >= 0) : !(t_in >= 0)) return 0;
    t = rg__max_real(t_in, 0);
    if (!(t <= max_fraction)) return 0;
    x = rg_v3_madd(origin, translation, t);
    q = rg_v3_madd(p0, u, rg__collide_segment_closest(p0, p1, x));
    n = rg_v3_normalize(rg_v3_sub(x, q));
    if (rg_v3_dot(n, n) == 0) n = rg__cast_against(translation);
    hit->fraction = t;
    hit->normal = n;
    hit->point = radius > 0 ? rg_v3_madd(q, n, shape_radius) : x;
    return 1;
}

/* A ray against a hull: the line clipped by every face plane (Cyrus-Beck) in the hull's frame;
   the last plane it enters through is the face hit. Entering after t = 0 means it started
   outside (or on the surface). */
static int rg__cast_ray_hull(const rg__convex *c, rg_vec3 origin, rg_vec3 translation, rg_real max_fraction,
                             rg__cast_hit *hit) {
    const rg_hull *h = c->hull;
    rg_quat inverse = rg_quat_conjugate(c->rotation);
    rg_vec3 o = rg__quat_rotate(inverse, rg_v3_sub(origin, c->position)), d = rg__quat_rotate(inverse, translation);
    rg_real lower = -RG__REAL_MAX, upper = max_fraction;
    int i, entered = -1;
    for (i = 0; i < h->face_count; ++i) {
        rg_real at0 = rg_v3_dot(h->faces[i].normal, o) - h->faces[i].offset;
        rg_real along = rg_v3_dot(h->faces[i].normal, d);
        if (along < 0) {
            if (-at0 / along > lower) {
                lower = -at0 / along;
                entered = i;
            }
        } else if (along > 0) {
            upper = rg__min_real(upper, -at0 / along);
        } else if (at0 > 0) {
            return 0;
        }
        if (lower > upper) return 0;
    }
    if (entered < 0 || !(lower >= 0)) return 0;
    hit->fraction = lower;
    hit->point = rg_v3_madd(origin, translation, lower);
    hit->normal = rg_v3_normalize(rg__quat_rotate(c->rotation, h->faces[entered].normal));
    return 1;
}

/* The best candidate of a sphere cast so far: the lowest fraction; at equal fractions the
   smaller key (at fraction 0, the distance from the centre to the piece's feature, so that an
   overlap takes the closest feature), else the first. */
typedef struct rg__cast_best {
    rg__cast_hit hit;
    rg_real key;
    int found;
} rg__cast_best;

static int rg__cast_better(const rg__cast_best *best, rg_real t, rg_real key, rg_real max_fraction) {
    if (!(t <= max_fraction)) return 0;
    return !best->found || t < best->hit.fraction || (t == best->hit.fraction && key < best->key);
}

static void rg__cast_keep(rg__cast_best *best, rg_real t, rg_real key, rg_vec3 point, rg_vec3 normal) {
    best->found = 1;
    best->hit.fraction = t;
    best->key = t == 0 ? key : 0;
    best->hit.point = point;
    best->hit.normal = normal;
}

/* A face piece of a grown polyhedron: the plane of unit normal n pushed out by r, the centre's
   height h above the unpushed plane. The fraction where the centre reaches the pushed plane
   going down (h > r), 0 when it starts between the planes (0 <= h <= r: overlapping if over the
   face), -1 for none. */
static rg_real rg__cast_face_fraction(rg_real h, rg_real along, rg_real r) {
    if (h > r) return along < 0 ? (h - r) / -along : -1;
    return h >= 0 ? 0 : -1;
}

/* An edge's capsule piece (edge v0 v1, radius r): offers the fraction max(t_in, 0) when the line
   is inside the capsule at some t >= 0, with the edge's closest point to the centre there.
   `front`, when not NULL, is the plane (normal, a point) the centre must be in front of. */
static void rg__cast_edge_piece(rg__cast_best *best, rg_vec3 v0, rg_vec3 v1, rg_vec3 o, rg_vec3 d, rg_real r,
                                rg_real max_fraction, const rg_vec3 *front) {
    rg_vec3 x, q, n, u = rg_v3_sub(v1, v0);
    rg_real t_in, t_out, t, distance;
    if (!rg__cast_line_capsule(rg_v3_sub(o, v0), d, u, r, &t_in, &t_out) || !(t_out >= 0)) return;
    t = rg__max_real(t_in, 0);
    x = rg_v3_madd(o, d, t);
    if (front && rg_v3_dot(front[0], rg_v3_sub(x, front[1])) < 0) return;
    q = rg_v3_madd(v0, u, rg__collide_segment_closest(v0, v1, x));
    distance = rg_v3_length(rg_v3_sub(x, q));
    if (!rg__cast_better(best, t, distance, max_fraction)) return;
    n = rg_v3_normalize(rg_v3_sub(x, q));
    if (rg_v3_dot(n, n) == 0) n = rg__cast_against(d);
    rg__cast_keep(best, t, distance, q, n);
}

/* Is x (on or near the face's plane) inside hull face f's polygon, its edges included? */
static int rg__cast_in_hull_face(const rg_hull *h, int f, rg_vec3 x) {
    const rg__hull_face *face = &h->faces[f];
    int i;
    for (i = 0; i < face->count; ++i) {
        rg_vec3 v0 = h->vertices[h->face_vertices[face->first + i]];
        rg_vec3 v1 = h->vertices[h->face_vertices[face->first + (i + 1) % face->count]];
        if (rg_v3_dot(rg_v3_cross(rg_v3_sub(v1, v0), face->normal), rg_v3_sub(x, v0)) > 0) return 0;
    }
    return 1;
}

/* A sphere cast against a hull, in the hull's frame: a centre inside the hull hits at once with
   the face it is least deep behind; otherwise the first of the pieces of the hull grown by r
   (see above). */
static int rg__cast_sphere_hull(const rg__convex *c, rg_vec3 origin, rg_real r, rg_vec3 translation,
                                rg_real max_fraction, rg__cast_hit *hit) {
    const rg_hull *h = c->hull;
    rg_quat inverse = rg_quat_conjugate(c->rotation);
    rg_vec3 o = rg__quat_rotate(inverse, rg_v3_sub(origin, c->position)), d = rg__quat_rotate(inverse, translation);
    rg__cast_best best;
    rg_real highest = -RG__REAL_MAX;
    int i, top = 0;
    memset(&best, 0, sizeof best);
    for (i = 0; i < h->face_count; ++i) {
        rg_real height = rg_v3_dot(h->faces[i].normal, o) - h->faces[i].offset;
        rg_real t = rg__cast_face_fraction(height, rg_v3_dot(h->faces[i].normal, d), r);
        if (height > highest) {
            highest = height;
            top = i;
        }
        if (t >= 0 && rg__cast_better(&best, t, height, max_fraction)) {
            rg_vec3 x = rg_v3_madd(o, d, t), n = h->faces[i].normal;
            if (rg__cast_in_hull_face(h, i, x))
                rg__cast_keep(&best, t, height, rg_v3_madd(x, n, h->faces[i].offset - rg_v3_dot(n, x)), n);
        }
    }
    if (highest <= 0) { /* the centre is inside */
        memset(&best, 0, sizeof best);
        rg__cast_keep(&best, 0, 0, rg_v3_madd(o, h->faces[top].normal, -highest), h->faces[top].normal);
    } else {
        for (i = 0; i < h->edge_count; ++i)
            rg__cast_edge_piece(&best, h->vertices[h->edges[i].v[0]], h->vertices[h->edges[i].v[1]], o, d, r,
                                max_fraction, NULL);
    }
    if (!best.found) return 0;
    hit->fraction = best.hit.fraction;
    hit->point = rg_v3_add(c->position, rg__quat_rotate(c->rotation, best.hit.point));
    hit->normal = rg_v3_normalize(rg__quat_rotate(c->rotation, best.hit.normal));
    return 1;
}

/* ---- triangles ---- */

/* Woop, Benthin & Wald 2013: the ray o + t d against triangle a b c, front side only (corners
   counter-clockwise seen from the front). With k the axis d is longest along, the corners
   relative to o are sheared so that d becomes that axis; the edge functions U, V, W are twice
   the signed areas the ray's point makes with each edge in the sheared plane. The shear keeps
   orientation (the two other axes swap when d's component is negative), so det = U + V + W is
   -(normal . d) times a positive factor: a front hit has U, V, W >= 0 and det > 0. A zero edge
   function is computed again in double, whose products of floats are exact: its sign is then
   the true one (float builds; double builds take it as it is). *t = T / det in [0, limit]. */
static int rg__cast_ray_corners(rg_vec3 a, rg_vec3 b, rg_vec3 c, rg_vec3 o, rg_vec3 d, rg_real limit, rg_real *t) {
    rg_real x = rg__fabs(d.x), y = rg__fabs(d.y), z = rg__fabs(d.z);
    int kz = x >= y ? (x >= z ? 0 : 2) : (y >= z ? 1 : 2), kx = (kz + 1) % 3, ky = (kz + 2) % 3, swap;
    rg_real sx, sy, sz, ax, ay, bx, by, cx, cy, u, v, w, det, big_t;
    rg_vec3 pa = rg_v3_sub(a, o), pb = rg_v3_sub(b, o), pc = rg_v3_sub(c, o);
    if (rg__cast_component(d, kz) < 0) {
        swap = kx;
        kx = ky;
        ky = swap;
    }
    sz = 1 / rg__cast_component(d, kz);
    sx = rg__cast_component(d, kx) * sz;
    sy = rg__cast_component(d, ky) * sz;
    ax = rg__cast_component(pa, kx) - sx * rg__cast_component(pa, kz);
    ay = rg__cast_component(pa, ky) - sy * rg__cast_component(pa, kz);
    bx = rg__cast_component(pb, kx) - sx * rg__cast_component(pb, kz);
    by = rg__cast_component(pb, ky) - sy * rg__cast_component(pb, kz);
    cx = rg__cast_component(pc, kx) - sx * rg__cast_component(pc, kz);
    cy = rg__cast_component(pc, ky) - sy * rg__cast_component(pc, kz);
    u = cx * by - cy * bx;
    v = ax * cy - ay * cx;
    w = bx * ay - by * ax;
#ifndef RIGID_DOUBLE
    if (u == 0 || v == 0 || w == 0) {
        u = (rg_real)((double)cx * (double)by - (double)cy * (double)bx);
        v = (rg_real)((double)ax * (double)cy - (double)ay * (double)cx);
        w = (rg_real)((double)bx * (double)ay - (double)by * (double)ax);
    }
#endif
    if (u < 0 || v < 0 || w < 0) return 0;
    det = u + v + w;
    if (!(det > 0)) return 0;
    big_t = u * (sz * rg__cast_component(pa, kz)) + v * (sz * rg__cast_component(pb, kz)) +
            w * (sz * rg__cast_component(pc, kz));
    if (!(big_t >= 0) || !(big_t <= limit * det)) return 0;
    *t = big_t / det;
    return *t <= limit;
}

static int rg__cast_ray_triangle(const rg__triangle *t, rg_vec3 origin, rg_vec3 translation, rg_real max_fraction,
                                 rg__cast_hit *hit) {
    rg_real fraction;
    if (!rg__cast_input_is_valid(origin, translation, max_fraction) ||
        !rg__cast_ray_corners(t->v[0], t->v[1], t->v[2], origin, translation, max_fraction, &fraction))
        return 0;
    hit->fraction = fraction;
    hit->point = rg_v3_madd(origin, translation, fraction);
    hit->normal = t->normal;
    return 1;
}

/* Is x (near the plane) inside the triangle's three edge planes, its edges included? */
static int rg__cast_in_triangle(const rg_vec3 v[3], rg_vec3 n, rg_vec3 x) {
    int k;
    for (k = 0; k < 3; ++k)
        if (rg_v3_dot(rg_v3_cross(rg_v3_sub(v[(k + 1) % 3], v[k]), n), rg_v3_sub(x, v[k])) > 0) return 0;
    return 1;
}

/* A sphere cast against triangle v (unit front normal n): the face pushed out by r to the front,
   the three edges' capsules with the centre in front of the plane. */
static int rg__cast_sphere_corners(const rg_vec3 v[3], rg_vec3 n, rg_vec3 o, rg_real r, rg_vec3 d,
                                   rg_real max_fraction, rg__cast_hit *hit) {
    rg__cast_best best;
    rg_vec3 front[2];
    rg_real height = rg_v3_dot(n, rg_v3_sub(o, v[0])), t = rg__cast_face_fraction(height, rg_v3_dot(n, d), r);
    int k;
    memset(&best, 0, sizeof best);
    if (t >= 0 && rg__cast_better(&best, t, height, max_fraction)) {
        rg_vec3 x = rg_v3_madd(o, d, t);
        if (rg__cast_in_triangle(v, n, x))
            rg__cast_keep(&best, t, height, rg_v3_madd(x, n, -rg_v3_dot(n, rg_v3_sub(x, v[0]))), n);
    }
    front[0] = n;
    front[1] = v[0];
    for (k = 0; k < 3; ++k) rg__cast_edge_piece(&best, v[k], v[(k + 1) % 3], o, d, r, max_fraction, front);
    if (best.found) *hit = best.hit;
    return best.found;
}

static int rg__cast_sphere_triangle(const rg__triangle *t, rg_vec3 origin, rg_real radius, rg_vec3 translation,
                                    rg_real max_fraction, rg__cast_hit *hit) {
    if (!rg__cast_input_is_valid(origin, translation, max_fraction) || !(radius > 0) || !rg__is_sane_real(radius))
        return 0;
    return rg__cast_sphere_corners(t->v, t->normal, origin, radius, translation, max_fraction, hit);
}

static int rg__cast_ray_convex(const rg__convex *c, rg_vec3 origin, rg_vec3 translation, rg_real max_fraction,
                               rg__cast_hit *hit) {
    if (!rg__cast_input_is_valid(origin, translation, max_fraction)) return 0;
    if (c->type == RG_SHAPE_HULL) return rg__cast_ray_hull(c, origin, translation, max_fraction, hit);
    if (c->type != RG_SHAPE_SPHERE && c->type != RG_SHAPE_CAPSULE) return 0;
    return rg__cast_round(c->p0, c->p1, c->radius, 0, origin, translation, max_fraction, hit);
}

static int rg__cast_sphere_convex(const rg__convex *c, rg_vec3 origin, rg_real radius, rg_vec3 translation,
                                  rg_real max_fraction, rg__cast_hit *hit) {
    if (!rg__cast_input_is_valid(origin, translation, max_fraction) || !(radius > 0) || !rg__is_sane_real(radius))
        return 0;
    if (c->type == RG_SHAPE_HULL) return rg__cast_sphere_hull(c, origin, radius, translation, max_fraction, hit);
    if (c->type != RG_SHAPE_SPHERE && c->type != RG_SHAPE_CAPSULE) return 0;
    return rg__cast_round(c->p0, c->p1, c->radius, radius, origin, translation, max_fraction, hit);
}

/* ---- meshes ---- */

/* The entry of the line o + t d into box [lo - grow, hi + grow] within [0, limit], into *entry; 0
   when it misses. */
static int rg__cast_box(rg_vec3 lo, rg_vec3 hi, rg_real grow, rg_vec3 o, rg_vec3 d, rg_real limit, rg_real *entry) {
    rg_real t0 = 0, t1 = limit;
    int k;
    for (k = 0; k < 3; ++k) {
        rg_real ok = rg__cast_component(o, k), dk = rg__cast_component(d, k);
        rg_real l = rg__cast_component(lo, k) - grow, h = rg__cast_component(hi, k) + grow, a, b;
        if (dk == 0) {
            if (ok < l || ok > h) return 0;
            continue;
        }
        a = (l - ok) / dk;
        b = (h - ok) / dk;
        t0 = rg__max_real(t0, rg__min_real(a, b));
        t1 = rg__min_real(t1, rg__max_real(a, b));
        if (t0 > t1) return 0;
    }
    *entry = t0;
    return 1;
}

/* A ray (radius 0) or sphere cast against a placed mesh: the cast moved into the mesh's frame,
   the hierarchy walked nearest child first with boxes grown by the radius and 16 epsilon of the
   coordinates (the boxes' and the triangles' tests round differently), a box entered beyond the
   best hit skipped. The triangle's index into *triangle. */
static int rg__cast_mesh(const rg_mesh *m, rg_vec3 position, rg_quat orientation, rg_vec3 origin, rg_real radius,
                         rg_vec3 translation, rg_real max_fraction, rg__cast_hit *hit, int *triangle) {
    int stack[RG__CAST_STACK], top = 0, best = -1, i;
    rg_real entries[RG__CAST_STACK], limit = max_fraction, grow;
    rg_quat rotation, inverse;
    rg_vec3 o, d;
    rg__cast_hit candidate, found;
    if (!m || m->node_count <= 0 || !rg__cast_input_is_valid(origin, translation, max_fraction) ||
        !rg__v3_is_sane(position) || !rg_quat_is_finite(orientation) || !(rg_quat_dot(orientation, orientation) > 0) ||
        !(radius >= 0) || !rg__is_sane_real(radius))
        return 0;
    memset(&found, 0, sizeof found);
    rotation = rg_quat_normalize(orientation);
    inverse = rg_quat_conjugate(rotation);
    o = rg__quat_rotate(inverse, rg_v3_sub(origin, position));
    d = rg__quat_rotate(inverse, translation);
    grow = radius + 16 * RG__EPSILON * (rg__max_real(rg__cast_max_abs(m->lo), rg__cast_max_abs(m->hi)) +
                                        rg__cast_max_abs(o) + rg__cast_max_abs(d) * max_fraction);
    if (!rg__cast_box(m->nodes[0].lo, m->nodes[0].hi, grow, o, d, limit, &entries[0])) return 0;
    stack[top++] = 0;
    while (top > 0) {
        const rg__mesh_node *node;
        --top;
        if (entries[top] > limit) continue;
        node = &m->nodes[stack[top]];
        if (node->count == 0) {
            rg_real near_entry, far_entry;
            int near_node = node->first, far_node = node->first + 1;
            int near_hit = rg__cast_box(m->nodes[near_node].lo, m->nodes[near_node].hi, grow, o, d, limit, &near_entry);
            int far_hit = rg__cast_box(m->nodes[far_node].lo, m->nodes[far_node].hi, grow, o, d, limit, &far_entry);
            if (near_hit && far_hit && far_entry < near_entry) { /* the nearer one popped first */
                rg_real e = near_entry;
                near_entry = far_entry;
                far_entry = e;
                near_node = node->first + 1;
                far_node = node->first;
            }
            RIGID_ASSERT(top + 2 <= RG__CAST_STACK);
            if (far_hit) {
                stack[top] = far_node;
                entries[top++] = far_entry;
            }
            if (near_hit) {
                stack[top] = near_node;
                entries[top++] = near_entry;
            }
            continue;
        }
        for (i = node->first; i < node->first + node->count; ++i) {
            const int *corner = m->indices + 3 * i;
            rg_vec3 v[3];
            int touched;
            v[0] = m->vertices[corner[0]];
            v[1] = m->vertices[corner[1]];
            v[2] = m->vertices[corner[2]];
            if (radius > 0) {
                touched = rg__cast_sphere_corners(v, m->normals[i], o, radius, d, limit, &candidate);
            } else {
                touched = rg__cast_ray_corners(v[0], v[1], v[2], o, d, limit, &candidate.fraction);
                candidate.normal = m->normals[i];
            }
            if (!touched || candidate.fraction > limit || (candidate.fraction == limit && best >= 0 && i > best))
                continue;
            found = candidate;
            limit = candidate.fraction;
            best = i;
        }
    }
    if (best < 0) return 0;
    hit->fraction = found.fraction;
    hit->normal = rg_v3_normalize(rg__quat_rotate(rotation, found.normal));
    hit->point = radius > 0 ? rg_v3_add(position, rg__quat_rotate(rotation, found.point))
                            : rg_v3_madd(origin, translation, found.fraction);
    if (triangle) *triangle = best;
    return 1;
}

static int rg__cast_ray_mesh(const rg_mesh *m, rg_vec3 position, rg_quat orientation, rg_vec3 origin,
                             rg_vec3 translation, rg_real max_fraction, rg__cast_hit *hit, int *triangle) {
    return rg__cast_mesh(m, position, orientation, origin, 0, translation, max_fraction, hit, triangle);
}

static int rg__cast_sphere_mesh(const rg_mesh *m, rg_vec3 position, rg_quat orientation, rg_vec3 origin,
                                rg_real radius, rg_vec3 translation, rg_real max_fraction, rg__cast_hit *hit,
                                int *triangle) {
    if (!(radius > 0)) return 0;
    return rg__cast_mesh(m, position, orientation, origin, radius, translation, max_fraction, hit, triangle);
}

/* ---- without a world ---- */

static int rg__cast_output(int touched, const rg__cast_hit *hit, rg_cast_output *out) {
    if (!touched) return 0;
    out->fraction = hit->fraction;
    out->point = hit->point;
    out->normal = hit->normal;
    return 1;
}

RIGID_API int rg_ray_cast_convex(const rg_convex_shape *s, rg_vec3 origin, rg_vec3 translation, rg_cast_output *out) {
    rg__convex c;
    rg__cast_hit hit;
    if (!out) return 0;
    memset(out, 0, sizeof *out);
    return rg__collide_convex_of(s, &c) &&
           rg__cast_output(rg__cast_ray_convex(&c, origin, translation, 1, &hit), &hit, out);
}

RIGID_API int rg_sphere_cast_convex(const rg_convex_shape *s, rg_vec3 origin, rg_real radius, rg_vec3 translation,
                                    rg_cast_output *out) {
    rg__convex c;
    rg__cast_hit hit;
    if (!out) return 0;
    memset(out, 0, sizeof *out);
    return rg__collide_convex_of(s, &c) &&
           rg__cast_output(rg__cast_sphere_convex(&c, origin, radius, translation, 1, &hit), &hit, out);
}

RIGID_API int rg_ray_cast_triangle(const rg_vec3 triangle[3], rg_vec3 origin, rg_vec3 translation,
                                   rg_cast_output *out) {
    rg__triangle t;
    rg__cast_hit hit;
    if (!out) return 0;
    memset(out, 0, sizeof *out);
    return triangle && rg__collide_triangle_of(triangle, 7u, &t) &&
           rg__cast_output(rg__cast_ray_triangle(&t, origin, translation, 1, &hit), &hit, out);
}

RIGID_API int rg_sphere_cast_triangle(const rg_vec3 triangle[3], rg_vec3 origin, rg_real radius, rg_vec3 translation,
                                      rg_cast_output *out) {
    rg__triangle t;
    rg__cast_hit hit;
    if (!out) return 0;
    memset(out, 0, sizeof *out);
    return triangle && rg__collide_triangle_of(triangle, 7u, &t) &&
           rg__cast_output(rg__cast_sphere_triangle(&t, origin, radius, translation, 1, &hit), &hit, out);
}

RIGID_API int rg_ray_cast_mesh(const rg_mesh *mesh, rg_vec3 position, rg_quat orientation, rg_vec3 origin,
                               rg_vec3 translation, rg_cast_output *out, int *triangle) {
    rg__cast_hit hit;
    if (!out) return 0;
    memset(out, 0, sizeof *out);
    return rg__cast_output(
        rg__cast_ray_mesh(mesh, position, orientation, origin, translation, 1, &hit, triangle), &hit, out);
}

RIGID_API int rg_sphere_cast_mesh(const rg_mesh *mesh, rg_vec3 position, rg_quat orientation, rg_vec3 origin,
                                  rg_real radius, rg_vec3 translation, rg_cast_output *out, int *triangle) {
    rg__cast_hit hit;
    if (!out) return 0;
    memset(out, 0, sizeof *out);
    return rg__cast_output(
        rg__cast_sphere_mesh(mesh, position, orientation, origin, radius, translation, 1, &hit, triangle), &hit, out);
}

/* =============================================================================================
   >>mesh: triangle meshes: creation, internal edges, the bounding-volume hierarchy

   rg_mesh_create checks the input, welds vertices at one position, drops the triangles without
   a reliable normal, matches each edge with the triangle across it and marks the edges that may
   give a contact normal of their own (active), then builds a bounding-volume hierarchy over the
   triangles' boxes. The kept triangles are stored in the hierarchy's leaf order, so a subtree's
   triangles are one contiguous range and a depth-first walk that visits the first child first
   meets them in ascending index order: queries need no sort.

   Internal edges: a body sliding across the seam of two triangles that meet flat would otherwise
   strike the edge of the next one and take its normal (a "ghost" contact). An edge is inactive
   when its two triangles meet flat (within RG__MESH_ACTIVE_COSINE) or concave: no convex shape
   can touch such an edge without also touching one of the faces, whose normal then serves.
   ============================================================================================= */

/* An edge whose triangles' normals differ by less than this cosine (5 degrees) is flat:
   inactive, like a concave one. */
#ifndef RG__MESH_ACTIVE_COSINE
#define RG__MESH_ACTIVE_COSINE 0.99619469809174553
#endif

enum {
    RG__MESH_LEAF_SIZE = 4,       /* triangles per leaf, at most */
    RG__MESH_BINS = 16,           /* binned SAH: candidate planes per axis, less one */
    RG__MESH_SAH_DEPTH = 32,      /* from this depth on, median splits: the depth stays below */
    RG__MESH_STACK = 64           /* 32 + log2(2^30 / 4) + 2, the query's stack */
};

/* ---- >>mesh.input: checks, welding, triangles kept ------------------------------------------- */

/* Stable bottom-up merge sort of items by less(context, a, b); scratch holds n items. */
typedef int (*rg__mesh_less)(const void *context, int a, int b);
static void rg__mesh_merge_sort(int *items, int *scratch, int n, rg__mesh_less less, const void *context) {
    int64_t width, i;
    int *from = items, *to = scratch, *swap;
    for (width = 1; width < n; width *= 2) {
        for (i = 0; i < n; i += 2 * width) {
            int64_t middle = i + width < n ? i + width : n, end = i + 2 * width < n ? i + 2 * width : n;
            int64_t a = i, b = middle, k = i;
            while (a < middle && b < end) to[k++] = less(context, from[b], from[a]) ? from[b++] : from[a++];
            while (a < middle) to[k++] = from[a++];
            while (b < end) to[k++] = from[b++];
        }
        swap = from; from = to; to = swap;
    }
    if (from != items) memcpy(items, from, sizeof(int) * (size_t)n);
}

static int rg__mesh_position_less(const void *context, int a, int b) {
    const rg_vec3 *v = (const rg_vec3 *)context;
    if (v[a].x != v[b].x) return v[a].x < v[b].x;
    if (v[a].y != v[b].y) return v[a].y < v[b].y;
    return v[a].z < v[b].z;
}

/* weld[i]: the lowest index of a vertex at vertex i's position (compared by value, so -0 and +0
   are one), from the vertices sorted by position, ties in index order. */
static void rg__mesh_weld(rg__mesh_builder *b, int vertex_count) {
    int i, first = 0;
    stbds_arrsetlen(b->weld, vertex_count);
    stbds_arrsetlen(b->sorted, vertex_count);
    stbds_arrsetlen(b->scratch, vertex_count);
    for (i = 0; i < vertex_count; ++i) b->sorted[i] = i;
    rg__mesh_merge_sort(b->sorted, b->scratch, vertex_count, rg__mesh_position_less, b->vertices);
    for (i = 0; i < vertex_count; ++i) {
        int v = b->sorted[i];
        if (rg__mesh_position_less(b->vertices, b->sorted[first], v)) first = i;
        b->weld[v] = b->sorted[first];
    }
}

/* The input checks of rg_mesh_create: RG_OK or RG_ERR_INVALID_ARGUMENT. */
static rg_result rg__mesh_check_input(const rg_vec3 *vertices, int vertex_count, const int *indices,
                                      int triangle_count) {
    int i;
    if (!vertices || !indices || vertex_count <= 0 || triangle_count <= 0) return RG_ERR_INVALID_ARGUMENT;
    if (triangle_count > (int)((~0u >> 1) / 3)) return RG_ERR_INVALID_ARGUMENT; /* 3 t + k fits an int */
    for (i = 0; i < vertex_count; ++i)
        if (!rg__v3_is_sane(vertices[i])) return RG_ERR_INVALID_ARGUMENT;
    for (i = 0; i < 3 * triangle_count; ++i)
        if (indices[i] < 0 || indices[i] >= vertex_count) return RG_ERR_INVALID_ARGUMENT;
    return RG_OK;
}

/* Triangle (a, b, c)'s unit normal in double (the differences and products of float corners are
   exact there), or 0 when it has none worth keeping: twice its area |n| is at most
   4 RG__EPSILON s times its longest edge, s its largest coordinate magnitude. Each coordinate
   is rounded to about RG__EPSILON s, so such a triangle's height is a few roundings: its normal
   would be theirs, not the triangle's. Equal corners give n = 0. */
static int rg__mesh_triangle_normal_of(rg_vec3 a, rg_vec3 b, rg_vec3 c, double normal[3]) {
    double pa[3], pb[3], pc[3], e1[3], e2[3], e3[3], n[3], longest, squared, limit;
    rg_real size = rg__max_real(rg__max_abs3(a.x, a.y, a.z), rg__max_real(rg__max_abs3(b.x, b.y, b.z),
                                                                       rg__max_abs3(c.x, c.y, c.z)));
    rg__qh_point_of(a, pa); rg__qh_point_of(b, pb); rg__qh_point_of(c, pc);
    rg__qh_sub(pb, pa, e1); rg__qh_sub(pc, pa, e2); rg__qh_sub(pc, pb, e3);
    rg__qh_cross(e1, e2, n);
    longest = rg__qh_dot(e1, e1) > rg__qh_dot(e2, e2) ? rg__qh_dot(e1, e1) : rg__qh_dot(e2, e2);
    if (rg__qh_dot(e3, e3) > longest) longest = rg__qh_dot(e3, e3);
    squared = rg__qh_dot(n, n);
    limit = 4 * (double)RG__EPSILON * size;
    if (!(squared > limit * limit * longest)) return 0;
    squared = sqrt(squared);
    normal[0] = n[0] / squared; normal[1] = n[1] / squared; normal[2] = n[2] / squared;
    return 1;
}

/* The kept triangles' corners and normals, in input order; returns how many. */
static int rg__mesh_keep_triangles(rg__mesh_builder *b, const int *indices, int triangle_count) {
    int t, k;
    stbds_arrsetcap(b->corners, 3 * (size_t)triangle_count);
    stbds_arrsetcap(b->normals, 3 * (size_t)triangle_count);
    for (t = 0; t < triangle_count; ++t) {
        const int *v = indices + 3 * t;
        double n[3];
        if (v[0] == v[1] || v[1] == v[2] || v[2] == v[0]) continue;
        if (!rg__mesh_triangle_normal_of(b->vertices[v[0]], b->vertices[v[1]], b->vertices[v[2]], n)) continue;
        for (k = 0; k < 3; ++k) {
            stbds_arrput(b->corners, v[k]);
            stbds_arrput(b->normals, n[k]);
        }
    }
    return (int)stbds_arrlen(b->corners) / 3;
}

/* ---- >>mesh.edges: neighbours across edges, active edges ------------------------------------- */

/* Stable counting sort of items by keys[item] in [0, key_count), into out. */
static void rg__mesh_counting_sort(const int *keys, const int *items, int *out, int n, int **counts,
                                   int key_count) {
    int i, sum = 0;
    stbds_arrsetlen(*counts, key_count);
    memset(*counts, 0, sizeof(int) * (size_t)key_count);
    for (i = 0; i < n; ++i) ++(*counts)[keys[items[i]]];
    for (i = 0; i < key_count; ++i) {
        int c = (*counts)[i];
        (*counts)[i] = sum;
        sum += c;
    }
    for (i = 0; i < n; ++i) out[(*counts)[keys[items[i]]]++] = items[i];
}

/* The half-edges 3 t + k (from corner k to k + 1 of kept triangle t) sorted by their welded
   corners (lower, upper), then by index: two stable counting sorts, by upper, then by lower. A
   run of equal (lower, upper) is one edge of the mesh. */
static void rg__mesh_sort_half_edges(rg__mesh_builder *b, int triangle_count, int vertex_count) {
    int h, n = 3 * triangle_count;
    stbds_arrsetlen(b->lower, n);
    stbds_arrsetlen(b->upper, n);
    stbds_arrsetlen(b->sorted, n);
    stbds_arrsetlen(b->scratch, n);
    for (h = 0; h < n; ++h) {
        int from = b->weld[b->corners[h]], to = b->weld[b->corners[h - h % 3 + (h % 3 + 1) % 3]];
        b->lower[h] = from < to ? from : to;
        b->upper[h] = from < to ? to : from;
        b->sorted[h] = h;
    }
    rg__mesh_counting_sort(b->upper, b->sorted, b->scratch, n, &b->counts, vertex_count);
    rg__mesh_counting_sort(b->lower, b->scratch, b->sorted, n, &b->counts, vertex_count);
}

/* Whether the edge that half-edge h of triangle t shares with triangle u (whose corner `far` is
   off the edge) is active: the normals differ by more than RG__MESH_ACTIVE_COSINE and u bends
   away below t's plane (convex). A far corner within rounding of the plane with the normals
   apart is a sheet folded back on itself, a knife edge: convex too. */
static int rg__mesh_edge_is_active(const rg__mesh_builder *b, int h, int u, int far) {
    const double *nt = b->normals + 3 * (h / 3), *nu = b->normals + 3 * u;
    double p[3], c[3], d[3];
    if (!(rg__qh_dot(nt, nu) < RG__MESH_ACTIVE_COSINE)) return 0;
    rg__qh_point_of(b->vertices[b->corners[h]], p);
    rg__qh_point_of(b->vertices[far], c);
    rg__qh_sub(c, p, d);
    return rg__qh_dot(nt, d) < 16 * DBL_EPSILON * sqrt(rg__qh_dot(d, d));
}

/* Each kept triangle's active edges. An edge is shared when exactly two half-edges run along it,
   in opposite directions (a consistently oriented surface); any other edge (alone, shared by
   three or more, or by two running the same way) is a boundary, active. A shared edge is judged
   once, from its first half-edge's triangle, so both sides agree. */
static void rg__mesh_find_active_edges(rg__mesh_builder *b, int triangle_count, int vertex_count) {
    int i, n = 3 * triangle_count;
    rg__mesh_sort_half_edges(b, triangle_count, vertex_count);
    stbds_arrsetlen(b->active, triangle_count);
    memset(b->active, 7, (size_t)triangle_count);
    for (i = 0; i < n;) {
        int h = b->sorted[i], g, run = 1;
        while (i + run < n && b->lower[b->sorted[i + run]] == b->lower[h] &&
               b->upper[b->sorted[i + run]] == b->upper[h]) ++run;
        g = b->sorted[i + 1 < n ? i + 1 : i];
        if (run == 2 && b->weld[b->corners[h]] != b->weld[b->corners[g]]) {  /* opposite directions */
            int far = b->corners[g - g % 3 + (g % 3 + 2) % 3];
            if (!rg__mesh_edge_is_active(b, h, g / 3, far)) {
                b->active[h / 3] &= (unsigned char)~(1u << (h % 3));
                b->active[g / 3] &= (unsigned char)~(1u << (g % 3));
            }
        }
        i += run;
    }
}

/* ---- >>mesh.hierarchy: the bounding-volume hierarchy, built top down ------------------------- */

static rg_real rg__mesh_component(rg_vec3 v, int axis) { return axis == 0 ? v.x : (axis == 1 ? v.y : v.z); }

/* Half the surface area of the box [lo, hi], in double: the SAH's probability weight. */
static double rg__mesh_half_area(rg_vec3 lo, rg_vec3 hi) {
    double dx = (double)hi.x - lo.x, dy = (double)hi.y - lo.y, dz = (double)hi.z - lo.z;
    return dx * dy + dy * dz + dz * dx;
}

/* The box of the triangles order[begin .. end) and the box of their boxes' centres. */
static void rg__mesh_range_boxes(const rg__mesh_builder *b, int begin, int end, rg_vec3 box[2],
                                 rg_vec3 centers[2]) {
    int i;
    box[0] = b->lo[b->order[begin]]; box[1] = b->hi[b->order[begin]];
    centers[0] = centers[1] = b->center[b->order[begin]];
    for (i = begin + 1; i < end; ++i) {
        int t = b->order[i];
        box[0] = rg_v3_min(box[0], b->lo[t]); box[1] = rg_v3_max(box[1], b->hi[t]);
        centers[0] = rg_v3_min(centers[0], b->center[t]); centers[1] = rg_v3_max(centers[1], b->center[t]);
    }
}

/* A centre's bin on an axis: RG__MESH_BINS equal slices of the centres' extent from lo. */
static int rg__mesh_bin_of(rg_real center, double lo, double scale) {
    int bin = (int)(((double)center - lo) * scale);
    return bin < 0 ? 0 : (bin >= RG__MESH_BINS ? RG__MESH_BINS - 1 : bin);
}

typedef struct rg__mesh_bin { rg_vec3 lo, hi; int count; } rg__mesh_bin;

/* Adds count triangles whose boxes' union is [lo, hi] to a bin. */
static inline void rg__mesh_bin_add(rg__mesh_bin *bin, const rg_vec3 *lo, const rg_vec3 *hi, int count) {
    bin->lo.x = lo->x < bin->lo.x ? lo->x : bin->lo.x;
    bin->lo.y = lo->y < bin->lo.y ? lo->y : bin->lo.y;
    bin->lo.z = lo->z < bin->lo.z ? lo->z : bin->lo.z;
    bin->hi.x = hi->x > bin->hi.x ? hi->x : bin->hi.x;
    bin->hi.y = hi->y > bin->hi.y ? hi->y : bin->hi.y;
    bin->hi.z = hi->z > bin->hi.z ? hi->z : bin->hi.z;
    bin->count += count;
}

/* The surface area heuristic (MacDonald & Booth 1990) over binned centres (Wald 2007): the plane
   between bins that minimises area(left) n(left) + area(right) n(right). Returns the cost and
   sets *plane (bins below it go left), or returns -1 when every centre falls in one bin. A plane
   just above an empty bin cuts as the one below it does, which wins the tie: it is skipped. */
static double rg__mesh_best_plane(const rg__mesh_bin *bins, int *plane) {
    rg__mesh_bin left[RG__MESH_BINS], right;
    double best = -1;
    int i;
    left[0] = bins[0];
    for (i = 1; i < RG__MESH_BINS; ++i) {  /* left[i]: bins 0 .. i */
        left[i] = left[i - 1];
        rg__mesh_bin_add(&left[i], &bins[i].lo, &bins[i].hi, bins[i].count);
    }
    right = bins[RG__MESH_BINS - 1];
    for (i = RG__MESH_BINS - 1; i > 0; --i) {  /* right: bins i .. last */
        double cost;
        if (i < RG__MESH_BINS - 1) rg__mesh_bin_add(&right, &bins[i].lo, &bins[i].hi, bins[i].count);
        if (!right.count || !bins[i - 1].count) continue;
        cost = rg__mesh_half_area(left[i - 1].lo, left[i - 1].hi) * left[i - 1].count +
               rg__mesh_half_area(right.lo, right.hi) * right.count;
        if (best < 0 || cost <= best) {  /* ties: the lowest plane */
            best = cost;
            *plane = i;
        }
    }
    return best;
}

/* Binned SAH over the three axes, binned in one pass (ties: the first axis); order[begin .. end)
   partitioned stably at the best plane. Returns the split's middle, or -1 when no axis
   separates the centres. */
static int rg__mesh_sah_split(rg__mesh_builder *b, int begin, int end, const rg_vec3 centers[2]) {
    rg__mesh_bin bins[3][RG__MESH_BINS];
    double best = -1, lo[3], scale[3];
    int axis, best_axis = 0, best_plane = 0, i, k, left = begin, right = 0;
    for (axis = 0; axis < 3; ++axis) {
        double extent;
        lo[axis] = rg__mesh_component(centers[0], axis);
        extent = rg__mesh_component(centers[1], axis) - lo[axis];
        scale[axis] = extent > 0 ? RG__MESH_BINS / extent : 0;
        for (k = 0; k < RG__MESH_BINS; ++k) {  /* empty: a box that any union replaces */
            bins[axis][k].lo = rg_v3(RG__REAL_MAX, RG__REAL_MAX, RG__REAL_MAX);
            bins[axis][k].hi = rg_v3(-RG__REAL_MAX, -RG__REAL_MAX, -RG__REAL_MAX);
            bins[axis][k].count = 0;
        }
    }
    for (i = begin; i < end; ++i) {
        int t = b->order[i];
        rg_vec3 c = b->center[t];
        const rg_vec3 *tlo = &b->lo[t], *thi = &b->hi[t];
        rg__mesh_bin_add(&bins[0][rg__mesh_bin_of(c.x, lo[0], scale[0])], tlo, thi, 1);
        rg__mesh_bin_add(&bins[1][rg__mesh_bin_of(c.y, lo[1], scale[1])], tlo, thi, 1);
        rg__mesh_bin_add(&bins[2][rg__mesh_bin_of(c.z, lo[2], scale[2])], tlo, thi, 1);
    }
    for (axis = 0; axis < 3; ++axis) {
        double cost;
        int plane = 0;
        if (scale[axis] == 0) continue;
        cost = rg__mesh_best_plane(bins[axis], &plane);
        if (cost >= 0 && (best < 0 || cost < best)) {
            best = cost;
            best_axis = axis;
            best_plane = plane;
        }
    }
    if (best < 0) return -1;
    for (i = begin; i < end; ++i) {
        int t = b->order[i];
        int bin = rg__mesh_bin_of(rg__mesh_component(b->center[t], best_axis), lo[best_axis], scale[best_axis]);
        if (bin < best_plane) b->order[left++] = t;
        else b->scratch[right++] = t;
    }
    memcpy(b->order + left, b->scratch, sizeof(int) * (size_t)right);
    return left;
}

typedef struct rg__mesh_axis_order { const rg_vec3 *center; int axis; } rg__mesh_axis_order;

static int rg__mesh_center_less(const void *context, int a, int b) {
    const rg__mesh_axis_order *o = (const rg__mesh_axis_order *)context;
    return rg__mesh_component(o->center[a], o->axis) < rg__mesh_component(o->center[b], o->axis);
}

/* The median split: order[begin .. end) sorted stably by centre along the centres' longest axis
   (ties: the first axis) and cut in half. Halving bounds the depth. */
static int rg__mesh_median_split(rg__mesh_builder *b, int begin, int end, const rg_vec3 centers[2]) {
    rg__mesh_axis_order o;
    rg_vec3 extent = rg_v3_sub(centers[1], centers[0]);
    o.center = b->center;
    o.axis = extent.y > extent.x ? 1 : 0;
    if (extent.z > rg__mesh_component(extent, o.axis)) o.axis = 2;
    rg__mesh_merge_sort(b->order + begin, b->scratch, end - begin, rg__mesh_center_less, &o);
    return begin + (end - begin) / 2;
}

/* Node `node` over order[begin .. end): a leaf of at most RG__MESH_LEAF_SIZE triangles, or split
   by SAH (median splits from RG__MESH_SAH_DEPTH on, or when the centres coincide) into two
   children, allocated side by side. Leaves are at most RG__MESH_SAH_DEPTH + log2(2^30 / 4) = 60
   deep: fewer than 2^30 triangles, halved from depth 32 on. */
static void rg__mesh_build_node(rg__mesh_builder *b, int node, int begin, int end, int depth) {
    rg_vec3 box[2], centers[2];
    rg__mesh_node child;
    int middle = -1, first;
    rg__mesh_range_boxes(b, begin, end, box, centers);
    b->nodes[node].lo = box[0];
    b->nodes[node].hi = box[1];
    if (end - begin <= RG__MESH_LEAF_SIZE) {
        b->nodes[node].first = begin;
        b->nodes[node].count = end - begin;
        return;
    }
    if (depth < RG__MESH_SAH_DEPTH) middle = rg__mesh_sah_split(b, begin, end, centers);
    if (middle < 0) middle = rg__mesh_median_split(b, begin, end, centers);
    memset(&child, 0, sizeof child);
    first = (int)stbds_arrlen(b->nodes);
    stbds_arrput(b->nodes, child);
    stbds_arrput(b->nodes, child);
    b->nodes[node].first = first;
    b->nodes[node].count = 0;
    rg__mesh_build_node(b, first, begin, middle, depth + 1);
    rg__mesh_build_node(b, first + 1, middle, end, depth + 1);
}

/* Every kept triangle's box and centre, then the hierarchy from the root. */
static void rg__mesh_build_hierarchy(rg__mesh_builder *b, int triangle_count) {
    rg__mesh_node root;
    int t;
    stbds_arrsetlen(b->lo, triangle_count);
    stbds_arrsetlen(b->hi, triangle_count);
    stbds_arrsetlen(b->center, triangle_count);
    stbds_arrsetlen(b->order, triangle_count);
    stbds_arrsetlen(b->scratch, triangle_count);
    for (t = 0; t < triangle_count; ++t) {
        rg_vec3 p0 = b->vertices[b->corners[3 * t]], p1 = b->vertices[b->corners[3 * t + 1]];
        rg_vec3 p2 = b->vertices[b->corners[3 * t + 2]];
        b->lo[t] = rg_v3_min(p0, rg_v3_min(p1, p2));
        b->hi[t] = rg_v3_max(p0, rg_v3_max(p1, p2));
        b->center[t] = rg_v3_scale(rg_v3_add(b->lo[t], b->hi[t]), (rg_real)0.5);
        b->order[t] = t;
    }
    memset(&root, 0, sizeof root);
    stbds_arrput(b->nodes, root);
    rg__mesh_build_node(b, 0, 0, triangle_count, 0);
}

/* ---- >>mesh.create: the mesh in one allocation, creation, accessors -------------------------- */

static void rg__mesh_builder_free(rg__mesh_builder *b) {
    stbds_arrfree(b->weld);
    stbds_arrfree(b->corners);
    stbds_arrfree(b->normals);
    stbds_arrfree(b->active);
    stbds_arrfree(b->lower);
    stbds_arrfree(b->upper);
    stbds_arrfree(b->sorted);
    stbds_arrfree(b->scratch);
    stbds_arrfree(b->counts);
    stbds_arrfree(b->lo);
    stbds_arrfree(b->hi);
    stbds_arrfree(b->center);
    stbds_arrfree(b->order);
    stbds_arrfree(b->nodes);
}

/* One allocation holds the mesh and its arrays, so rg_mesh_destroy is one free. */
static rg_mesh *rg__mesh_allocate(int vertex_count, int triangle_count, int node_count) {
    size_t header = (sizeof(rg_mesh) + 15) & ~(size_t)15;
    size_t vertices = ((size_t)vertex_count * sizeof(rg_vec3) + 15) & ~(size_t)15;
    size_t normals = ((size_t)triangle_count * sizeof(rg_vec3) + 15) & ~(size_t)15;
    size_t nodes = ((size_t)node_count * sizeof(rg__mesh_node) + 15) & ~(size_t)15;
    size_t indices = ((size_t)triangle_count * 3 * sizeof(int) + 15) & ~(size_t)15;
    char *block = (char *)RIGID_MALLOC(header + vertices + normals + nodes + indices + (size_t)triangle_count, NULL);
    rg_mesh *mesh = (rg_mesh *)block;
    if (!block) return NULL;
    memset(mesh, 0, sizeof *mesh);
    mesh->vertex_count = vertex_count;
    mesh->triangle_count = triangle_count;
    mesh->node_count = node_count;
    mesh->vertices = (rg_vec3 *)(block + header);
    mesh->normals = (rg_vec3 *)(block + header + vertices);
    mesh->nodes = (rg__mesh_node *)(block + header + vertices + normals);
    mesh->indices = (int *)(block + header + vertices + normals + nodes);
    mesh->active = (unsigned char *)(block + header + vertices + normals + nodes + indices);
    return mesh;
}

/* The finished mesh: the input's vertices, the kept triangles in the hierarchy's leaf order. */
static rg_mesh *rg__mesh_emit(const rg__mesh_builder *b, int vertex_count, int triangle_count) {
    int node_count = (int)stbds_arrlen(b->nodes), i, k;
    rg_mesh *mesh = rg__mesh_allocate(vertex_count, triangle_count, node_count);
    if (!mesh) return NULL;
    memcpy(mesh->vertices, b->vertices, sizeof(rg_vec3) * (size_t)vertex_count);
    memcpy(mesh->nodes, b->nodes, sizeof(rg__mesh_node) * (size_t)node_count);
    for (i = 0; i < triangle_count; ++i) {
        int t = b->order[i];
        const double *n = b->normals + 3 * t;
        for (k = 0; k < 3; ++k) mesh->indices[3 * i + k] = b->corners[3 * t + k];
        mesh->normals[i] = rg_v3((rg_real)n[0], (rg_real)n[1], (rg_real)n[2]);
        mesh->active[i] = b->active[t];
    }
    mesh->lo = mesh->nodes[0].lo;
    mesh->hi = mesh->nodes[0].hi;
    return mesh;
}

RIGID_API rg_mesh *rg_mesh_create(const rg_vec3 *vertices, int vertex_count, const int *indices,
                                  int triangle_count, rg_result *result) {
    rg__mesh_builder b;
    rg_mesh *mesh = NULL;
    rg_result status = rg__mesh_check_input(vertices, vertex_count, indices, triangle_count);
    int kept;
    if (status != RG_OK) {
        rg__set_result(result, status);
        return NULL;
    }
    memset(&b, 0, sizeof b);
    b.vertices = vertices;
    kept = rg__mesh_keep_triangles(&b, indices, triangle_count);
    status = RG_ERR_DEGENERATE;
    if (kept > 0) {
        rg__mesh_weld(&b, vertex_count);
        rg__mesh_find_active_edges(&b, kept, vertex_count);
        rg__mesh_build_hierarchy(&b, kept);
        mesh = rg__mesh_emit(&b, vertex_count, kept);
        status = mesh ? RG_OK : RG_ERR_OUT_OF_MEMORY;
    }
    rg__mesh_builder_free(&b);
    rg__set_result(result, status);
    return mesh;
}

RIGID_API void rg_mesh_destroy(rg_mesh *mesh) {
    if (mesh) RIGID_FREE(mesh, NULL);
}

RIGID_API int rg_mesh_vertex_count(const rg_mesh *mesh) { return mesh ? mesh->vertex_count : 0; }
RIGID_API int rg_mesh_triangle_count(const rg_mesh *mesh) { return mesh ? mesh->triangle_count : 0; }

RIGID_API rg_vec3 rg_mesh_vertex(const rg_mesh *mesh, int i) {
    if (!mesh || i < 0 || i >= mesh->vertex_count) return rg_v3(0, 0, 0);
    return mesh->vertices[i];
}

static int rg__mesh_has_triangle(const rg_mesh *mesh, int t) {
    return mesh && t >= 0 && t < mesh->triangle_count;
}

RIGID_API int rg_mesh_triangle(const rg_mesh *mesh, int t, int indices[3]) {
    if (!rg__mesh_has_triangle(mesh, t) || !indices) return 0;
    indices[0] = mesh->indices[3 * t];
    indices[1] = mesh->indices[3 * t + 1];
    indices[2] = mesh->indices[3 * t + 2];
    return 1;
}

RIGID_API unsigned rg_mesh_active_edges(const rg_mesh *mesh, int t) {
    return rg__mesh_has_triangle(mesh, t) ? mesh->active[t] : 0u;
}

RIGID_API rg_vec3 rg_mesh_triangle_normal(const rg_mesh *mesh, int t) {
    return rg__mesh_has_triangle(mesh, t) ? mesh->normals[t] : rg_v3(0, 0, 0);
}

/* Triangle t as a collision takes it (rg__triangle). */
static void rg__mesh_triangle_of(const rg_mesh *mesh, int t, rg__triangle *out) {
    int k;
    for (k = 0; k < 3; ++k) out->v[k] = mesh->vertices[mesh->indices[3 * t + k]];
    out->normal = mesh->normals[t];
    out->active = mesh->active[t];
}

/* ---- >>mesh.query: the triangles whose boxes overlap a box ----------------------------------- */

/* Closed boxes: touching overlaps. */
static int rg__mesh_boxes_overlap(rg_vec3 a_lo, rg_vec3 a_hi, rg_vec3 b_lo, rg_vec3 b_hi) {
    return a_lo.x <= b_hi.x && b_lo.x <= a_hi.x && a_lo.y <= b_hi.y && b_lo.y <= a_hi.y &&
           a_lo.z <= b_hi.z && b_lo.z <= a_hi.z;
}

static int rg__mesh_triangle_overlaps(const rg_mesh *mesh, int t, rg_vec3 lo, rg_vec3 hi) {
    const int *v = mesh->indices + 3 * t;
    rg_vec3 p0 = mesh->vertices[v[0]], p1 = mesh->vertices[v[1]], p2 = mesh->vertices[v[2]];
    return rg__mesh_boxes_overlap(rg_v3_min(p0, rg_v3_min(p1, p2)), rg_v3_max(p0, rg_v3_max(p1, p2)), lo, hi);
}

/* The triangles whose boxes overlap [lo, hi], depth first with the first child first: the
   triangles are stored in leaf order, so they come out ascending. Each hit is appended to *grow
   when grow is not NULL, otherwise written to out while fewer than capacity; returns the count.
   The stack holds at most one pending sibling a level, plus two. */
static int rg__mesh_collect(const rg_mesh *mesh, rg_vec3 lo, rg_vec3 hi, int **grow, int *out, int capacity) {
    int stack[RG__MESH_STACK], top = 0, count = 0, t;
    stack[top++] = 0;
    while (top > 0) {
        const rg__mesh_node *node = &mesh->nodes[stack[--top]];
        if (!rg__mesh_boxes_overlap(node->lo, node->hi, lo, hi)) continue;
        if (node->count == 0) {
            RIGID_ASSERT(top + 2 <= RG__MESH_STACK);
            stack[top++] = node->first + 1;
            stack[top++] = node->first;
            continue;
        }
        for (t = node->first; t < node->first + node->count; ++t) {
            if (!rg__mesh_triangle_overlaps(mesh, t, lo, hi)) continue;
            if (grow) stbds_arrput(*grow, t);
            else if (count < capacity) out[count] = t;
            ++count;
        }
    }
    return count;
}

/* Appends to the stb_ds array *out the triangles whose boxes overlap [lo, hi] (mesh frame), in
   ascending order. */
static void rg__mesh_query(const rg_mesh *mesh, rg_vec3 lo, rg_vec3 hi, int **out) {
    rg__mesh_collect(mesh, lo, hi, out, NULL, 0);
}

RIGID_API int rg_mesh_query_box(const rg_mesh *mesh, rg_vec3 lo, rg_vec3 hi, int *out, int capacity) {
    if (!mesh || !rg__v3_is_sane(lo) || !rg__v3_is_sane(hi) || capacity < 0 || (!out && capacity > 0)) return 0;
    return rg__mesh_collect(mesh, lo, hi, NULL, out, capacity);
}

/* =============================================================================================
   >>task: the program's threads: a stage's items split into ranges (THREADS in the doc block)
   =============================================================================================

   A parallel stage is a function over items [0, count) in which each item writes only its own
   results (what is gathered from them is gathered afterwards, on the calling thread, in item
   order), so that no split of the items into ranges changes a bit. Memory a range needs beyond
   that is indexed by its worker and is allocated before the stage, on the calling thread: a
   task never allocates (stb_ds and the allocator overrides are not thread-safe). */

#define RG__MAX_WORKERS 64 /* rg_world_def.worker_count's largest */

/* Items [0, count) through the program's enqueue_task and finish_task in ranges of at least
   min_range, when it lent more than one worker and there is more than one range to give;
   otherwise inline as one range on worker 0. */
static void rg__task_run(const rg_world *w, rg_task_fn *task, int count, int min_range, void *context) {
    const rg_world_def *def = &w->def;
    if (count <= 0) return;
    if (def->worker_count > 1 && def->enqueue_task && def->finish_task && count > min_range) {
        void *handle = def->enqueue_task(task, count, min_range, context, def->user_task_context);
        if (handle) def->finish_task(handle, def->user_task_context);
        return;
    }
    task(0, count, 0, context);
}

/* A stage's worker index checked against the world's worker count before it picks its memory. */
static int rg__task_worker(const rg_world *w, int worker) {
    (void)w;
    RIGID_ASSERT(worker >= 0 && worker < w->def.worker_count);
    return worker;
}

/* =============================================================================================
   >>broadphase: incremental sort-and-sweep (Baraff §7.2)

   Every body has a box. On each axis the 2n endpoints of the boxes' intervals lie in one array
   sorted by value, a begin before an end of the same value (closed intervals: boxes that touch
   overlap). The arrays are kept from step to step. Each step every endpoint takes its body's new
   value and the nearly sorted array is sorted again by insertion sort (§7.2.1), which exchanges
   exactly the endpoints whose order changed. An exchange of a begin with another body's end
   flips one of the six inequalities of that pair's box-overlap test, so the pair is looked at
   then and the persistent pair set updated (§7.2.2); no other pair can have changed. A step
   costs O(n + c) for c exchanges, plus O(p) to hand on the p pairs.

   Static bodies cost no box computation and no exchange while they stay put: their endpoints
   keep their values (the pass only compares each with its neighbour) until rg_body_set_transform
   moves one of them.

   A full sort and sweep (§7.2.1, O(n log n + k)) replaces the incremental pass on the first
   step, when so many bodies were added that sorting them in would cost more, and when the
   exchanges of the pass exceed what a rebuild costs (coherence lost, e.g. teleports); the work
   of the pass until then is dropped.
   ============================================================================================= */

enum { RG__SAP_FREE = 0, RG__SAP_PENDING, RG__SAP_IN_SWEEP, RG__SAP_REMOVED };
enum { RG__SAP_END = 1, RG__SAP_DYNAMIC = 2, RG__SAP_STATIC = 4 };

#define RG__SAP_INFINITY ((rg_real)HUGE_VAL)
#ifdef RIGID_DOUBLE
#define RG__SAP_FAR DBL_MAX
#else
#define RG__SAP_FAR FLT_MAX
#endif
/* The incremental pass gives up for a rebuild after about as many exchanges as the rebuild
   costs: RG__SAP_REBUILD_EXCHANGES n log2 n for the sorts, plus the box tests of the last
   rebuild's sweep (its k_axis, which in a crowded scene dwarfs n log n), of which
   RG__SAP_TESTS_PER_EXCHANGE take the time of one exchange. tools/bench_broadphase.c measures
   both. */
#ifndef RG__SAP_REBUILD_EXCHANGES
#define RG__SAP_REBUILD_EXCHANGES 2
#endif
#ifndef RG__SAP_TESTS_PER_EXCHANGE
#define RG__SAP_TESTS_PER_EXCHANGE 4
#endif
/* How much a moving body's sweep box is fattened, as a part of its hull's radius. */
#ifndef RG__SAP_FATTENING
#define RG__SAP_FATTENING ((rg_real)0.005)
#endif

#if (defined(__GNUC__) || defined(__clang__)) && !defined(__TINYC__)
#define RG__PREFETCH(address) __builtin_prefetch(address)
#else
#define RG__PREFETCH(address) ((void)(address))
#endif
#define RG__SAP_PREFETCH 16
/* The fewest movers a worker takes at once for their boxes (>>task). */
#define RG__BROADPHASE_BOXES_RANGE 256

/* ---- >>broadphase.pairs: pair keys, the pair set, endpoint order ----------------------------- */

/* Hash-map key of an unordered pair of body indices, the smaller in the high half, so that
   keys sort like pairs by (a, b). Shared by the broad and the narrow phase. */
static uint64_t rg__broadphase_pair_key(int a, int b) {
    uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
    return ((uint64_t)lo << 32) | hi;
}

static rg__body_pair rg__broadphase_pair_from_key(uint64_t key) {
    rg__body_pair pair;
    pair.a = (int)(key >> 32);
    pair.b = (int)(key & 0xffffffffu);
    return pair;
}

/* An endpoint's tag: 8 * body + 4 * static + 2 * dynamic + is_end (rg__sap_endpoint). */
static int rg__broadphase_tag(const rg__sap_proxy *p, int body, int is_end) {
    return 8 * body + (p->mover < 0 ? RG__SAP_STATIC : 0) + (p->dynamic ? RG__SAP_DYNAMIC : 0) + is_end;
}

/* Order of the endpoint arrays: by value, a begin before an end of the same value. */
static int rg__broadphase_less(const rg__sap_endpoint *a, const rg__sap_endpoint *b) {
    return a->value < b->value || (a->value == b->value && (a->tag & RG__SAP_END) < (b->tag & RG__SAP_END));
}

/* Closed boxes overlap; without early exits, whose branches the hardware cannot predict here. */
static int rg__broadphase_boxes_overlap(const rg__sap_box *p, const rg__sap_box *q) {
    return (p->lo[0] <= q->hi[0]) & (q->lo[0] <= p->hi[0]) & (p->lo[1] <= q->hi[1]) &
           (q->lo[1] <= p->hi[1]) & (p->lo[2] <= q->hi[2]) & (q->lo[2] <= p->hi[2]);
}

static void rg__broadphase_pair_set_insert(rg__broadphase *bp, int x, int y) {
    uint64_t key = rg__broadphase_pair_key(x, y);
    stbds_hmput(bp->pair_set, key, 1);
    stbds_arrput(bp->touched, key);
}

static void rg__broadphase_pair_set_delete(rg__broadphase *bp, int x, int y) {
    uint64_t key = rg__broadphase_pair_key(x, y);
    if (stbds_hmdel(bp->pair_set, key)) stbds_arrput(bp->touched, key);
}

/* begin(x) and end(y) have just been exchanged so that begin(x) comes first: on this axis the
   pair overlaps now, and it does in all if the new boxes overlap. */
static void rg__broadphase_pair_may_start(rg__broadphase *bp, int x, int y) {
    if (rg__broadphase_boxes_overlap(&bp->bounds[x].now, &bp->bounds[y].now)) rg__broadphase_pair_set_insert(bp, x, y);
}

/* end(x) and begin(y) have just been exchanged so that end(x) comes first: the pair does not
   overlap any more. It is in the set only if the old boxes overlapped (insertion sort exchanges
   two endpoints at most once, so it was not inserted in this update), which spares a hash lookup
   for most of these exchanges. */
static void rg__broadphase_pair_may_stop(rg__broadphase *bp, int x, int y) {
    if (rg__broadphase_boxes_overlap(&bp->bounds[x].before, &bp->bounds[y].before)) rg__broadphase_pair_set_delete(bp, x, y);
}

/* One axis of the incremental update: each endpoint takes its body's new value and is moved
   towards the beginning past every larger one, the insertion sort of §7.2.1; every exchange of
   a begin with an end of another body, one of them dynamic, is a possible change of overlap
   status (§7.2.2). Static endpoints keep their values unless a static body moved; endpoints of
   destroyed bodies are dropped on the way. Returns 0 as soon as the exchanges exceed budget. */
static int rg__broadphase_sort_axis(rg__broadphase *bp, int axis, int refresh_statics, int drop_removed,
                             int64_t budget) {
    rg__sap_endpoint *e = bp->axes[axis];
    const rg__sap_bounds *bounds = bp->bounds;
    int n = (int)stbds_arrlen(e), i, j, kept = 0;
    int64_t exchanges = bp->exchanges;
    for (i = 0; i < n; ++i) {
        rg__sap_endpoint x = e[i];
        int body = x.tag >> 3, is_end = x.tag & RG__SAP_END;
        /* the array is in space order, the boxes in body order: fetch ahead of the random reads */
        if (i + RG__SAP_PREFETCH < n) RG__PREFETCH(&bounds[e[i + RG__SAP_PREFETCH].tag >> 3]);
        if (drop_removed && bp->proxies[body].state != RG__SAP_IN_SWEEP) continue;
        if (refresh_statics || !(x.tag & RG__SAP_STATIC))
            x.value = is_end ? bounds[body].now.hi[axis] : bounds[body].now.lo[axis];
        for (j = kept; j > 0 && rg__broadphase_less(&x, &e[j - 1]); --j) {
            rg__sap_endpoint y = e[j - 1];
            int other = y.tag >> 3;
            if ((y.tag & RG__SAP_END) != is_end && ((x.tag | y.tag) & RG__SAP_DYNAMIC) && other != body) {
                if (is_end) rg__broadphase_pair_may_stop(bp, body, other);
                else rg__broadphase_pair_may_start(bp, body, other);
            }
            e[j] = y;
        }
        e[j] = x;
        exchanges += kept - j;
        ++kept;
        if (exchanges > budget) {
            bp->exchanges = exchanges;
            return 0;
        }
    }
    stbds_arrsetlen(bp->axes[axis], kept);
    bp->exchanges = exchanges;
    return 1;
}

/* Grows the per-slot arrays to cover slots body slots. */
static void rg__broadphase_reserve(rg__broadphase *bp, int slots) {
    while ((int)stbds_arrlen(bp->proxies) < slots) {
        rg__sap_proxy blank;
        rg__sap_bounds bounds;
        memset(&blank, 0, sizeof blank);
        memset(&bounds, 0, sizeof bounds);
        blank.mover = -1;
        stbds_arrput(bp->proxies, blank);
        stbds_arrput(bp->bounds, bounds);
        stbds_arrput(bp->tight, bounds.now);
    }
}

/* ---- >>broadphase.boxes: bodies' boxes, bodies added and removed ----------------------------- */

/* A shape's box about its body frame's origin, in world axes (the body turned by `rotation`).
   Hull vertices are turned by the rotation matrix, built once: cheaper than a quaternion
   rotation per vertex. */
static void rg__broadphase_shape_box(const rg__shape *shape, rg_mat3 rotation, rg_vec3 *lo, rg_vec3 *hi) {
    if (shape->type == RG_SHAPE_HULL) {
        const rg_vec3 *v = shape->hull->vertices;
        rg_mat3 turn = shape->placed ? rg_mat3_mul(rotation, rg_mat3_from_quat(shape->orientation)) : rotation;
        int i, count = shape->hull->vertex_count;
        *lo = *hi = rg_mat3_mul_v3(turn, v[0]);
        for (i = 1; i < count; ++i) {
            rg_vec3 p = rg_mat3_mul_v3(turn, v[i]);
            *lo = rg_v3_min(*lo, p);
            *hi = rg_v3_max(*hi, p);
        }
        if (shape->placed) {
            rg_vec3 offset = rg_mat3_mul_v3(rotation, shape->position);
            *lo = rg_v3_add(*lo, offset);
            *hi = rg_v3_add(*hi, offset);
        }
    } else if (shape->type == RG_SHAPE_MESH) {
        /* the box of the turned box: centre turned, half extents through |R| */
        rg_vec3 c = rg_mat3_mul_v3(rotation, rg_v3_scale(rg_v3_add(shape->mesh->lo, shape->mesh->hi), (rg_real)0.5));
        rg_vec3 e = rg_v3_scale(rg_v3_sub(shape->mesh->hi, shape->mesh->lo), (rg_real)0.5), half;
        half.x = rg__fabs(rotation.m[0][0]) * e.x + rg__fabs(rotation.m[0][1]) * e.y + rg__fabs(rotation.m[0][2]) * e.z;
        half.y = rg__fabs(rotation.m[1][0]) * e.x + rg__fabs(rotation.m[1][1]) * e.y + rg__fabs(rotation.m[1][2]) * e.z;
        half.z = rg__fabs(rotation.m[2][0]) * e.x + rg__fabs(rotation.m[2][1]) * e.y + rg__fabs(rotation.m[2][2]) * e.z;
        *lo = rg_v3_sub(c, half);
        *hi = rg_v3_add(c, half);
    } else {
        rg_vec3 a = rg_mat3_mul_v3(rotation, shape->p0), b = rg_mat3_mul_v3(rotation, shape->p1);
        rg_vec3 r = rg_v3(shape->radius, shape->radius, shape->radius);
        *lo = rg_v3_sub(rg_v3_min(a, b), r);
        *hi = rg_v3_add(rg_v3_max(a, b), r);
    }
}

/* A box about the frame's origin `origin`, fattened by the contact margin and by the step's
   motion so that it covers both x and x + v dt. */
static void rg__broadphase_grow_box(rg_vec3 origin, rg_vec3 lo, rg_vec3 hi, rg_real margin, rg_vec3 motion,
                                    rg_vec3 *out_lo, rg_vec3 *out_hi) {
    lo = rg_v3_add(origin, rg_v3_sub(lo, rg_v3(margin, margin, margin)));
    hi = rg_v3_add(origin, rg_v3_add(hi, rg_v3(margin, margin, margin)));
    *out_lo = rg_v3_min(lo, rg_v3_add(lo, motion));
    *out_hi = rg_v3_max(hi, rg_v3_add(hi, motion));
}

/* World boxes of a body's shapes and of the body (their union), fattened by the contact margin
   and the step's motion. A body without shapes is its centre of mass. */
static void rg__broadphase_body_box(rg_world *w, rg__body *body, rg_real margin, rg_real dt) {
    rg_vec3 lo, hi, motion, origin;
    rg_mat3 rotation;
    int index, first = 1;
    if (body->first_shape < 0) {
        body->aabb_min = body->aabb_max = body->com;
        return;
    }
    rotation = rg_mat3_from_quat(body->orientation);
    origin = rg_v3_sub(body->com, rg_mat3_mul_v3(rotation, body->local_com));
    motion = rg_v3_scale(body->linear_velocity, dt);
    lo = hi = origin;
    for (index = body->first_shape; index >= 0; index = w->shapes[index].next) {
        rg__shape *shape = &w->shapes[index];
        rg_vec3 shape_lo, shape_hi;
        rg__broadphase_shape_box(shape, rotation, &shape_lo, &shape_hi);
        lo = first ? shape_lo : rg_v3_min(lo, shape_lo);
        hi = first ? shape_hi : rg_v3_max(hi, shape_hi);
        first = 0;
        rg__broadphase_grow_box(origin, shape_lo, shape_hi, margin, motion, &shape->aabb_min, &shape->aabb_max);
    }
    rg__broadphase_grow_box(origin, lo, hi, margin, motion, &body->aabb_min, &body->aabb_max);
}

/* Whether the sweep box `fat` still serves the tight box: it holds it, with at most twice the
   fattening on any side (a box left wide by a fast step shrinks again). */
static int rg__broadphase_box_still_fits(const rg__sap_box *fat, const rg__sap_box *tight, rg_real fattening) {
    int axis;
    for (axis = 0; axis < 3; ++axis)
        if (!(fat->lo[axis] <= tight->lo[axis] && tight->lo[axis] - fat->lo[axis] <= 2 * fattening &&
              tight->hi[axis] <= fat->hi[axis] && fat->hi[axis] - tight->hi[axis] <= 2 * fattening))
            return 0;
    return 1;
}

/* The box of body index for this step, into body->aabb_min/max and the tight boxes. A body that
   left the range of rg_real (NaN or infinite box) is parked at the far corner, so that the sort
   order stays total. The sweep's box of a body that moves is the tight box grown by
   RG__SAP_FATTENING of the hull's radius, and (when `sticky`) it stays as long as it still fits
   the tight one (Bullet's and Box2D's fat boxes): resting bodies then keep their endpoints, where
   recomputed ones would reorder ties (pyramid: a row shares its bounds, and rounding noise
   reordered them every step, more exchanges than a rebuild). The fattening is small: boxes
   grown across the gaps of a crowd interleave with their neighbours' and every move costs more
   exchanges (drifting crowd of cubes 1.1 m apart: 0.05 of the radius costs 1.7 times the
   exchanges of 0.005). */
static void rg__broadphase_compute_box(rg_world *w, int index, rg_real dt, int sticky) {
    rg__body *body = &w->bodies[index];
    rg__sap_box *box = &w->broadphase.bounds[index].now, *tight = &w->broadphase.tight[index];
    rg_real fattening = body->type != RG_BODY_STATIC && body->first_shape >= 0 ? RG__SAP_FATTENING * body->radius : 0;
    int axis;
    rg__broadphase_body_box(w, body, w->def.contact_margin, dt);
    if (!rg_v3_is_finite(body->aabb_min) || !rg_v3_is_finite(body->aabb_max))
        body->aabb_min = body->aabb_max = rg_v3(RG__SAP_FAR, RG__SAP_FAR, RG__SAP_FAR);
    tight->lo[0] = body->aabb_min.x; tight->lo[1] = body->aabb_min.y; tight->lo[2] = body->aabb_min.z;
    tight->hi[0] = body->aabb_max.x; tight->hi[1] = body->aabb_max.y; tight->hi[2] = body->aabb_max.z;
    if (sticky && rg__broadphase_box_still_fits(box, tight, fattening)) return;
    for (axis = 0; axis < 3; ++axis) {
        box->lo[axis] = tight->lo[axis] - fattening;
        box->hi[axis] = tight->hi[axis] + fattening;
    }
}

/* A body whose box changes in this update keeps the old one for the exchanges that end a pair
   (the others' is their box: see rg__broadphase_settle_statics). */
static void rg__broadphase_update_box(rg_world *w, int index, rg_real dt) {
    rg__broadphase *bp = &w->broadphase;
    bp->bounds[index].before = bp->bounds[index].now;
    rg__broadphase_compute_box(w, index, dt, 1);
}

/* The movers' boxes, a task over movers (>>task): each writes its own body's and shapes'. */
typedef struct rg__broadphase_boxes_task {
    rg_world *w;
    rg_real dt;
} rg__broadphase_boxes_task;

static void rg__broadphase_update_movers(int start, int end, int worker, void *context) {
    const rg__broadphase_boxes_task *t = (const rg__broadphase_boxes_task *)context;
    int i;
    (void)worker;
    for (i = start; i < end; ++i) rg__broadphase_update_box(t->w, t->w->broadphase.movers[i], t->dt);
}

/* A new body joins at the end of the arrays with its old box empty (it overlapped nothing):
   the insertion sort then carries its endpoints to their places, O(n) exchanges, no rebuild. */
static void rg__broadphase_insert(rg_world *w, int index, rg_real dt) {
    rg__broadphase *bp = &w->broadphase;
    rg__sap_proxy *p = &bp->proxies[index];
    int axis, is_end;
    p->state = RG__SAP_IN_SWEEP;
    p->mover = -1;
    if (w->bodies[index].type != RG_BODY_STATIC) {
        p->mover = (int)stbds_arrlen(bp->movers);
        stbds_arrput(bp->movers, index);
    }
    for (axis = 0; axis < 3; ++axis) {
        bp->bounds[index].before.lo[axis] = RG__SAP_INFINITY;
        bp->bounds[index].before.hi[axis] = -RG__SAP_INFINITY;
    }
    rg__broadphase_compute_box(w, index, dt, 0);
    for (axis = 0; axis < 3; ++axis) {
        for (is_end = 0; is_end < 2; ++is_end) {
            rg__sap_endpoint e;
            memset(&e, 0, sizeof e);
            e.value = is_end ? bp->bounds[index].now.hi[axis] : bp->bounds[index].now.lo[axis];
            e.tag = rg__broadphase_tag(p, index, is_end);
            stbds_arrput(bp->axes[axis], e);
        }
    }
    ++bp->live_bodies;
}

/* Takes out of the pair list and set the pairs of bodies destroyed since the last update. */
static void rg__broadphase_drop_removed_pairs(rg__broadphase *bp) {
    int i, kept = 0, n = (int)stbds_arrlen(bp->fat_pairs);
    for (i = 0; i < n; ++i) {
        rg__body_pair pair = bp->fat_pairs[i];
        if (bp->proxies[pair.a].state == RG__SAP_REMOVED || bp->proxies[pair.b].state == RG__SAP_REMOVED) {
            uint64_t key = rg__broadphase_pair_key(pair.a, pair.b);
            (void)stbds_hmdel(bp->pair_set, key);
        } else {
            bp->fat_pairs[kept++] = pair;
        }
    }
    stbds_arrsetlen(bp->fat_pairs, kept);
}

static void rg__broadphase_release_removed(rg__broadphase *bp) {
    int i;
    for (i = 0; i < (int)stbds_arrlen(bp->removed); ++i)
        if (bp->proxies[bp->removed[i]].state == RG__SAP_REMOVED) bp->proxies[bp->removed[i]].state = RG__SAP_FREE;
    stbds_arrsetlen(bp->removed, 0);
}

/* Destroyed bodies normally leave the arrays during the next update's pass; a slot reused before
   that needs them out at once: O(n + p). */
static void rg__broadphase_flush_removed(rg__broadphase *bp) {
    int axis, i, kept, n;
    rg__broadphase_drop_removed_pairs(bp);
    for (axis = 0; axis < 3; ++axis) {
        rg__sap_endpoint *e = bp->axes[axis];
        n = (int)stbds_arrlen(e);
        for (i = kept = 0; i < n; ++i)
            if (bp->proxies[e[i].tag >> 3].state == RG__SAP_IN_SWEEP) e[kept++] = e[i];
        stbds_arrsetlen(bp->axes[axis], kept);
    }
    rg__broadphase_release_removed(bp);
}

/* Called by rg_body_create for a new body: it enters the sweep at the next update. */
static void rg__broadphase_add_body(rg_world *w, int index) {
    rg__broadphase *bp = &w->broadphase;
    rg__sap_proxy *p;
    rg__broadphase_reserve(bp, index + 1);
    if (bp->proxies[index].state == RG__SAP_REMOVED) rg__broadphase_flush_removed(bp);
    p = &bp->proxies[index];
    p->state = RG__SAP_PENDING;
    p->dynamic = (unsigned char)(w->bodies[index].type == RG_BODY_DYNAMIC);
    p->dirty = 0;
    p->mover = -1;
    stbds_arrput(bp->pending, index);
}

/* Called by rg_body_destroy before the slot is freed: O(1); the body's endpoints and pairs go
   at the next update (or when the slot is reused). */
static void rg__broadphase_remove_body(rg_world *w, int index) {
    rg__broadphase *bp = &w->broadphase;
    rg__sap_proxy *p;
    if (index < 0 || index >= (int)stbds_arrlen(bp->proxies)) return;
    p = &bp->proxies[index];
    if (p->state == RG__SAP_PENDING) p->state = RG__SAP_FREE; /* its entry in pending is skipped */
    if (p->state != RG__SAP_IN_SWEEP) return;
    if (p->mover >= 0) {
        int last = bp->movers[stbds_arrlen(bp->movers) - 1];
        bp->movers[p->mover] = last;
        bp->proxies[last].mover = p->mover;
        stbds_arrsetlen(bp->movers, stbds_arrlen(bp->movers) - 1);
        p->mover = -1;
    }
    p->dirty = 0;
    p->state = RG__SAP_REMOVED;
    --bp->live_bodies;
    stbds_arrput(bp->removed, index);
}

/* Called by rg_body_set_transform: a static body's box is recomputed at the next update only
   then (kinematic and dynamic boxes are recomputed every step anyway). */
static void rg__broadphase_body_moved(rg_world *w, int index) {
    rg__broadphase *bp = &w->broadphase;
    rg__sap_proxy *p;
    if (index < 0 || index >= (int)stbds_arrlen(bp->proxies)) return;
    p = &bp->proxies[index];
    if (p->state != RG__SAP_IN_SWEEP || p->mover >= 0 || p->dirty) return;
    p->dirty = 1;
    stbds_arrput(bp->dirty_statics, index);
}

/* ---- >>broadphase.sort: radix sorts, the pair list handed on --------------------------------- */

/* An unsigned integer in the order of v (IEEE 754: flip the negatives), -0 taken as +0 since
   the two compare equal. */
static uint64_t rg__broadphase_real_order(rg_real v) {
#ifdef RIGID_DOUBLE
    uint64_t bits;
    if (v == 0) v = 0;
    memcpy(&bits, &v, sizeof bits);
    return bits & 0x8000000000000000ull ? ~bits : bits | 0x8000000000000000ull;
#else
    uint32_t bits;
    if (v == 0) v = 0;
    memcpy(&bits, &v, sizeof bits);
    return bits & 0x80000000u ? ~bits : bits | 0x80000000u;
#endif
}

/* Stable LSD radix sort by 64-bit keys, one byte per pass, skipping the bytes on which all keys
   agree; no branch depends on the data, unlike a comparison sort of shuffled input. The items,
   if any, follow their keys. Results end in *keys and *items; the scratch arrays are buffers. */
static void rg__broadphase_radix_sort(uint64_t **keys, uint64_t **key_scratch, rg__sap_endpoint **items,
                           rg__sap_endpoint **item_scratch, int n) {
    int counts[8][256], digit, i, b;
    if (n < 2) return;
    memset(counts, 0, sizeof counts);
    for (i = 0; i < n; ++i)
        for (digit = 0; digit < 8; ++digit) ++counts[digit][((*keys)[i] >> (8 * digit)) & 255];
    stbds_arrsetlen(*key_scratch, n);
    if (items) stbds_arrsetlen(*item_scratch, n);
    for (digit = 0; digit < 8; ++digit) {
        int *offset = counts[digit], sum = 0, shift = 8 * digit;
        const uint64_t *k = *keys;
        uint64_t *k_out = *key_scratch, *t;
        if (offset[(k[0] >> shift) & 255] == n) continue;
        for (b = 0; b < 256; ++b) {
            int c = offset[b];
            offset[b] = sum;
            sum += c;
        }
        if (items) {
            const rg__sap_endpoint *e = *items;
            rg__sap_endpoint *e_out = *item_scratch, *u;
            for (i = 0; i < n; ++i) {
                int slot = offset[(k[i] >> shift) & 255]++;
                k_out[slot] = k[i];
                e_out[slot] = e[i];
            }
            u = *items; *items = *item_scratch; *item_scratch = u;
        } else {
            for (i = 0; i < n; ++i) k_out[offset[(k[i] >> shift) & 255]++] = k[i];
        }
        t = *keys; *keys = *key_scratch; *key_scratch = t;
    }
}

/* Endpoints by value; equal values keep their order, so the input lists begins before ends. */
static void rg__broadphase_sort_endpoints(rg__sap_endpoint **items, rg__sap_endpoint **scratch, uint64_t **keys,
                               uint64_t **key_scratch, int n) {
    int i;
    stbds_arrsetlen(*keys, n);
    for (i = 0; i < n; ++i) (*keys)[i] = rg__broadphase_real_order((*items)[i].value);
    rg__broadphase_radix_sort(keys, key_scratch, items, scratch, n);
}

/* Pair keys ascending: insertion sort for the few keys of a coherent step, radix otherwise. */
static void rg__broadphase_sort_keys(uint64_t **keys, uint64_t **scratch, int n) {
    uint64_t *k = *keys;
    int i, j;
    if (n > 64) {
        rg__broadphase_radix_sort(keys, scratch, NULL, NULL, n);
        return;
    }
    for (i = 1; i < n; ++i) {
        uint64_t key = k[i];
        for (j = i; j > 0 && k[j - 1] > key; --j) k[j] = k[j - 1];
        k[j] = key;
    }
}

/* The pair list handed on is in ascending (a, b) order, whatever the order of the exchanges.
   It changes little between steps: the keys touched in this update, sorted, are merged into last
   step's list; a touched key is kept if it is in the set now. O(p + t log t). */
static void rg__broadphase_publish_pairs(rg__broadphase *bp) {
    int touched = (int)stbds_arrlen(bp->touched), unique = 0, n = (int)stbds_arrlen(bp->fat_pairs);
    int i = 0, j = 0;
    if (touched == 0) return;
    rg__broadphase_sort_keys(&bp->touched, &bp->key_scratch, touched);
    for (j = 0; j < touched; ++j)
        if (unique == 0 || bp->touched[j] != bp->touched[unique - 1]) bp->touched[unique++] = bp->touched[j];
    stbds_arrsetlen(bp->pair_scratch, 0);
    j = 0;
    while (i < n || j < unique) {
        uint64_t old_key = i < n ? rg__broadphase_pair_key(bp->fat_pairs[i].a, bp->fat_pairs[i].b) : UINT64_MAX;
        uint64_t key = j < unique ? bp->touched[j] : UINT64_MAX;
        if (old_key < key) {
            stbds_arrput(bp->pair_scratch, bp->fat_pairs[i]);
            ++i;
            continue;
        }
        if (old_key == key) ++i;
        if (stbds_hmgeti(bp->pair_set, key) >= 0) stbds_arrput(bp->pair_scratch, rg__broadphase_pair_from_key(key));
        ++j;
    }
    {
        rg__body_pair *t = bp->fat_pairs;
        bp->fat_pairs = bp->pair_scratch;
        bp->pair_scratch = t;
    }
    stbds_arrsetlen(bp->touched, 0);
}

/* ---- >>broadphase.sweep: the rebuild's sweep and the incremental update (Baraff §7.2) -------- */

/* Number of pairs overlapping on one axis: at each begin of the sorted array, the intervals
   open there. O(n) once the axis is sorted. */
static int64_t rg__broadphase_axis_overlaps(const rg__sap_endpoint *e, int n) {
    int64_t overlaps = 0, open = 0;
    int i;
    for (i = 0; i < n; ++i) {
        if (e[i].tag & RG__SAP_END) {
            --open;
        } else {
            overlaps += open;
            ++open;
        }
    }
    return overlaps;
}

/* Slab of a coordinate on the slab axis, 0 .. slabs - 1. */
static int rg__broadphase_slab(rg_real v, double origin, double width, int slabs) {
    double d = ((double)v - origin) / width;
    if (!(d > 0)) return 0;
    if (d >= slabs - 1) return slabs - 1;
    return (int)d;
}

/* Sweep of the rebuild. A plain sweep along one axis tests every pair overlapping on that axis
   (k_axis), which in a volume filled with bodies grows as n^(5/3). So the space is first cut
   into slabs across a second axis, about two typical box sizes thick: each box is listed in the
   slabs it spans, keeping the sweep order (a counting sort of the sorted begins), and each slab
   is swept on its own. A pair overlapping on the slab axis shares the slab that holds the larger
   of its two lower ends, and is reported there only. */
static void rg__broadphase_sweep_slabs(rg__broadphase *bp, int sweep_axis, int slab_axis, int count) {
    const rg__sap_endpoint *e = bp->axes[sweep_axis], *t = bp->axes[slab_axis];
    int i, j, k, slabs, entries = 0, n = 2 * count;
    double origin = n ? (double)t[0].value : 0, width = 1, range = n ? (double)t[n - 1].value - origin : 0;
    /* the slab thickness: twice the median box extent on the slab axis */
    stbds_arrsetlen(bp->extents, count);
    for (i = j = 0; i < n; ++i) {
        if (e[i].tag & RG__SAP_END) continue;
        k = e[i].tag >> 3;
        bp->extents[j].value = bp->bounds[k].now.hi[slab_axis] - bp->bounds[k].now.lo[slab_axis];
        bp->extents[j++].tag = 0;
    }
    rg__broadphase_sort_endpoints(&bp->extents, &bp->endpoint_scratch, &bp->radix_keys, &bp->radix_scratch, count);
    if (count > 0) width = 2 * (double)bp->extents[count / 2].value;
    slabs = 1;
    if (width > 0 && range > width) slabs = range / width > 1024 ? 1024 : (int)(range / width);
    if (slabs > count / 8) slabs = count / 8 > 1 ? count / 8 : 1;
    /* fewer slabs while boxes spanning many would list more than 4 entries per body */
    for (;;) {
        entries = 0;
        width = range / slabs;
        for (i = 0; i < n; ++i) {
            if (e[i].tag & RG__SAP_END) continue;
            k = e[i].tag >> 3;
            entries += rg__broadphase_slab(bp->bounds[k].now.hi[slab_axis], origin, width, slabs) -
                       rg__broadphase_slab(bp->bounds[k].now.lo[slab_axis], origin, width, slabs) + 1;
        }
        if (slabs == 1 || entries <= 4 * count) break;
        slabs /= 2;
    }
    if (!(width > 0)) width = 1;
    stbds_arrsetlen(bp->slab_start, slabs + 1);
    memset(bp->slab_start, 0, sizeof(int) * (size_t)(slabs + 1));
    for (i = 0; i < n; ++i) {
        int first, last;
        if (e[i].tag & RG__SAP_END) continue;
        k = e[i].tag >> 3;
        first = rg__broadphase_slab(bp->bounds[k].now.lo[slab_axis], origin, width, slabs);
        last = rg__broadphase_slab(bp->bounds[k].now.hi[slab_axis], origin, width, slabs);
        for (j = first; j <= last; ++j) ++bp->slab_start[j + 1];
    }
    for (j = 0; j < slabs; ++j) bp->slab_start[j + 1] += bp->slab_start[j];
    stbds_arrsetlen(bp->sweep_tags, entries);
    stbds_arrsetlen(bp->sweep_boxes, entries);
    for (i = 0; i < n; ++i) { /* slab_start[j] runs ahead as slab j fills, ends at slab j + 1's start */
        int first, last;
        if (e[i].tag & RG__SAP_END) continue;
        k = e[i].tag >> 3;
        first = rg__broadphase_slab(bp->bounds[k].now.lo[slab_axis], origin, width, slabs);
        last = rg__broadphase_slab(bp->bounds[k].now.hi[slab_axis], origin, width, slabs);
        for (j = first; j <= last; ++j) {
            bp->sweep_tags[bp->slab_start[j]] = e[i].tag;
            bp->sweep_boxes[bp->slab_start[j]++] = bp->bounds[k].now;
        }
    }
    stbds_arrsetlen(bp->key_scratch, 0);
    bp->rebuild_work = entries;
    for (k = 0; k < slabs; ++k) {
        int begin = k ? bp->slab_start[k - 1] : 0, end = bp->slab_start[k];
        for (i = begin; i < end; ++i) {
            const rg__sap_box *p = &bp->sweep_boxes[i];
            int tag = bp->sweep_tags[i];
            /* sorted by lower end: the boxes overlapping p on the sweep axis follow it */
            for (j = i + 1; j < end && bp->sweep_boxes[j].lo[sweep_axis] <= p->hi[sweep_axis]; ++j) {
                const rg__sap_box *q = &bp->sweep_boxes[j];
                if (((tag | bp->sweep_tags[j]) & RG__SAP_DYNAMIC) && rg__broadphase_boxes_overlap(p, q) &&
                    rg__broadphase_slab(rg__max_real(p->lo[slab_axis], q->lo[slab_axis]), origin, width, slabs) == k)
                    stbds_arrput(bp->key_scratch, rg__broadphase_pair_key(tag >> 3, bp->sweep_tags[j] >> 3));
            }
            bp->rebuild_work += j - i - 1;
        }
    }
}

/* Sort and sweep from scratch (§7.2.1): every box recomputed, the three endpoint arrays sorted
   (O(n log n)), the pairs found by rg__broadphase_sweep_slabs along the axis where fewest boxes
   overlap, and listed in order. */
static void rg__broadphase_rebuild(rg_world *w, rg_real dt) {
    rg__broadphase *bp = &w->broadphase;
    int slots = (int)stbds_arrlen(w->bodies), i, j, axis, count = 0, pair_count, old_count;
    int order[3] = {0, 1, 2};
    int64_t overlaps[3];
    rg__sap_endpoint *e;
    rg__broadphase_reserve(bp, slots);
    stbds_arrsetlen(bp->movers, 0);
    stbds_arrsetlen(bp->pending, 0);
    stbds_arrsetlen(bp->dirty_statics, 0);
    stbds_arrsetlen(bp->removed, 0);
    rg__broadphase_publish_pairs(bp); /* after a pass given up: the list is the set again */
    for (i = 0; i < slots; ++i) {
        rg__sap_proxy *p = &bp->proxies[i];
        const rg__body *body = &w->bodies[i];
        if (!(body->generation & 1)) {
            p->state = RG__SAP_FREE;
            continue;
        }
        p->state = RG__SAP_IN_SWEEP;
        p->dynamic = (unsigned char)(body->type == RG_BODY_DYNAMIC);
        p->dirty = 0;
        p->mover = -1;
        if (body->type != RG_BODY_STATIC) {
            p->mover = (int)stbds_arrlen(bp->movers);
            stbds_arrput(bp->movers, i);
        }
        rg__broadphase_compute_box(w, i, dt, 0);
        bp->bounds[i].before = bp->bounds[i].now;
        ++count;
    }
    bp->live_bodies = count;
    for (axis = 0; axis < 3; ++axis) {
        stbds_arrsetlen(bp->axes[axis], 2 * count);
        e = bp->axes[axis];
        if (count > 0) memset(e, 0, sizeof *e * 2 * (size_t)count); /* padding included (>>snapshot) */
        for (i = j = 0; i < slots; ++i) { /* all begins, then all ends: the tie order */
            if (bp->proxies[i].state != RG__SAP_IN_SWEEP) continue;
            e[j].value = bp->bounds[i].now.lo[axis];
            e[j].tag = rg__broadphase_tag(&bp->proxies[i], i, 0);
            e[count + j].value = bp->bounds[i].now.hi[axis];
            e[count + j++].tag = rg__broadphase_tag(&bp->proxies[i], i, 1);
        }
        rg__broadphase_sort_endpoints(&bp->axes[axis], &bp->endpoint_scratch, &bp->radix_keys, &bp->radix_scratch, 2 * count);
        overlaps[axis] = rg__broadphase_axis_overlaps(bp->axes[axis], 2 * count);
    }
    /* axes by overlaps, fewest first: sweep along the first, slabs across the second */
    for (i = 0; i < 3; ++i)
        for (j = i + 1; j < 3; ++j)
            if (overlaps[order[j]] < overlaps[order[i]]) {
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
    rg__broadphase_sweep_slabs(bp, order[0], order[1], count);
    pair_count = (int)stbds_arrlen(bp->key_scratch);
    rg__broadphase_sort_keys(&bp->key_scratch, &bp->touched, pair_count);
    stbds_arrsetlen(bp->touched, 0);
    /* the set follows by the difference of the sorted lists (hash updates cost cache misses;
       a rebuild that finds mostly the same pairs makes few) */
    old_count = (int)stbds_arrlen(bp->fat_pairs);
    for (i = j = 0; i < old_count || j < pair_count;) {
        uint64_t old_key = i < old_count ? rg__broadphase_pair_key(bp->fat_pairs[i].a, bp->fat_pairs[i].b) : UINT64_MAX;
        uint64_t key = j < pair_count ? bp->key_scratch[j] : UINT64_MAX;
        if (old_key < key) {
            (void)stbds_hmdel(bp->pair_set, old_key);
            ++i;
        } else if (key < old_key) {
            stbds_hmput(bp->pair_set, key, 1);
            ++j;
        } else {
            ++i;
            ++j;
        }
    }
    stbds_arrsetlen(bp->fat_pairs, pair_count);
    for (i = 0; i < pair_count; ++i) bp->fat_pairs[i] = rg__broadphase_pair_from_key(bp->key_scratch[i]);
    bp->built = 1;
    ++w->stats.broadphase_rebuilds;
}

/* Exchanges worth one rebuild of n bodies. */
static int64_t rg__broadphase_exchange_budget(const rg__broadphase *bp, int n) {
    int64_t log2n = 1;
    while (((int64_t)1 << log2n) < n) ++log2n;
    return RG__SAP_REBUILD_EXCHANGES * (int64_t)n * log2n + bp->rebuild_work / RG__SAP_TESTS_PER_EXCHANGE + 64;
}

/* Static bodies that moved or arrived in this update: their old box becomes the new one, since
   they will not be recomputed (movers copy theirs at each update). */
static void rg__broadphase_settle_statics(rg__broadphase *bp) {
    int i;
    for (i = 0; i < (int)stbds_arrlen(bp->dirty_statics); ++i) {
        int index = bp->dirty_statics[i];
        bp->bounds[index].before = bp->bounds[index].now;
    }
    for (i = 0; i < (int)stbds_arrlen(bp->pending); ++i) {
        int index = bp->pending[i];
        if (bp->proxies[index].state == RG__SAP_IN_SWEEP && bp->proxies[index].mover < 0)
            bp->bounds[index].before = bp->bounds[index].now;
    }
    stbds_arrsetlen(bp->dirty_statics, 0);
    stbds_arrsetlen(bp->pending, 0);
}

/* The incremental update. Returns 0 when a rebuild must replace it: nothing built yet, too many
   new bodies (each costs about 3n exchanges, half of each array on each axis), or more
   exchanges than a rebuild would cost. Right after a pass that gave up, the next one gets a
   quarter of the budget: while coherence stays lost (teleports every step) little is wasted
   before the rebuild, and a coherent step needs far less anyway. */
static int rg__broadphase_update_incremental(rg_world *w, rg_real dt) {
    rg__broadphase *bp = &w->broadphase;
    int i, axis, pending = 0, refresh_statics = 0, drop_removed = (int)stbds_arrlen(bp->removed) > 0;
    int64_t budget;
    rg__broadphase_boxes_task task;
    if (!bp->built) return 0;
    for (i = 0; i < (int)stbds_arrlen(bp->pending); ++i)
        pending += bp->proxies[bp->pending[i]].state == RG__SAP_PENDING;
    budget = rg__broadphase_exchange_budget(bp, bp->live_bodies + pending);
    if (3 * (int64_t)pending * (bp->live_bodies + pending) > budget) return 0;
    if (bp->gave_up) budget /= 4;
    if (drop_removed) rg__broadphase_drop_removed_pairs(bp);
    task.w = w;
    task.dt = dt;
    rg__task_run(w, rg__broadphase_update_movers, (int)stbds_arrlen(bp->movers), RG__BROADPHASE_BOXES_RANGE, &task);
    for (i = 0; i < (int)stbds_arrlen(bp->dirty_statics); ++i) {
        int index = bp->dirty_statics[i];
        if (bp->proxies[index].state != RG__SAP_IN_SWEEP || !bp->proxies[index].dirty) continue;
        bp->proxies[index].dirty = 0;
        rg__broadphase_update_box(w, index, dt);
        refresh_statics = 1;
    }
    for (i = 0; i < (int)stbds_arrlen(bp->pending); ++i)
        if (bp->proxies[bp->pending[i]].state == RG__SAP_PENDING) rg__broadphase_insert(w, bp->pending[i], dt);
    for (axis = 0; axis < 3; ++axis) {
        if (!rg__broadphase_sort_axis(bp, axis, refresh_statics, drop_removed, budget)) {
            bp->gave_up = 1;
            return 0;
        }
    }
    bp->gave_up = 0;
    rg__broadphase_settle_statics(bp);
    rg__broadphase_release_removed(bp);
    return 1;
}

/* The pairs handed on: those of the sweep's boxes whose tight boxes overlap too. */
static void rg__broadphase_list_tight_pairs(rg__broadphase *bp) {
    int i, n = (int)stbds_arrlen(bp->fat_pairs), kept = 0;
    stbds_arrsetlen(bp->pairs, n);
    for (i = 0; i < n; ++i) {
        rg__body_pair pair = bp->fat_pairs[i];
        bp->pairs[kept] = pair;
        kept += rg__broadphase_boxes_overlap(&bp->tight[pair.a], &bp->tight[pair.b]);
    }
    stbds_arrsetlen(bp->pairs, kept);
}

/* The broad phase of a step: the incremental pass, or a rebuild when it gives up, then the
   pairs handed on to the narrow phase and the step's statistics. */
static void rg__broadphase_update(rg_world *w, rg_real dt) {
    rg__broadphase *bp = &w->broadphase;
    bp->exchanges = 0;
    stbds_arrsetlen(bp->touched, 0);
    if (rg__broadphase_update_incremental(w, dt)) rg__broadphase_publish_pairs(bp);
    else rg__broadphase_rebuild(w, dt);
    rg__broadphase_list_tight_pairs(bp);
    w->stats.pair_count = (int)stbds_arrlen(bp->pairs);
    w->stats.broadphase_exchanges = bp->exchanges > INT32_MAX ? INT32_MAX : (int)bp->exchanges;
}

static void rg__broadphase_destroy(rg_world *w) {
    rg__broadphase *bp = &w->broadphase;
    int axis;
    stbds_arrfree(bp->pairs);
    stbds_arrfree(bp->fat_pairs);
    stbds_arrfree(bp->tight);
    stbds_hmfree(bp->pair_set);
    for (axis = 0; axis < 3; ++axis) stbds_arrfree(bp->axes[axis]);
    stbds_arrfree(bp->bounds);
    stbds_arrfree(bp->proxies);
    stbds_arrfree(bp->movers);
    stbds_arrfree(bp->pending);
    stbds_arrfree(bp->dirty_statics);
    stbds_arrfree(bp->removed);
    stbds_arrfree(bp->touched);
    stbds_arrfree(bp->key_scratch);
    stbds_arrfree(bp->radix_keys);
    stbds_arrfree(bp->radix_scratch);
    stbds_arrfree(bp->endpoint_scratch);
    stbds_arrfree(bp->pair_scratch);
    stbds_arrfree(bp->sweep_boxes);
    stbds_arrfree(bp->sweep_tags);
    stbds_arrfree(bp->slab_start);
    stbds_arrfree(bp->extents);
}

RIGID_API int rg_world_pairs(const rg_world *w, rg_body_id *a, rg_body_id *b, int capacity) {
    int i, total = 0, n;
    if (!w) return 0;
    n = (int)stbds_arrlen(w->broadphase.pairs);
    for (i = 0; i < n; ++i) {
        rg__body_pair pair = w->broadphase.pairs[i];
        const rg__body *body_a = &w->bodies[pair.a], *body_b = &w->bodies[pair.b];
        if (!(body_a->generation & 1) || !(body_b->generation & 1)) continue; /* destroyed since */
        if (total < capacity) {
            if (a) { a[total].index = (uint32_t)pair.a; a[total].generation = body_a->generation; }
            if (b) { b[total].index = (uint32_t)pair.b; b[total].generation = body_b->generation; }
        }
        ++total;
    }
    return total;
}

/* =============================================================================================
   >>narrowphase: contact manifolds for the pairs of the broad phase
   =============================================================================================

   Each pair of the broad phase is collided with the witness it kept from the last step
   (Baraff §7.1), in pair order. A pair's cache entry lives in a hash map keyed by the pair as
   long as the broad phase reports the pair; it holds the witness and where the pair's manifold
   of the last step is, so that points whose feature id reappears inherit the impulses the
   solver accumulated in them (warm starting). It also keeps the pair's last computed manifold:
   a pair that has hardly moved relative to itself reuses it without a collision
   (rg__narrowphase_reuse_manifold). Nothing allocates once the pairs are stable. */

/* From >>shape (below): */
static int rg__shape_filters_pass(const rg__shape *a, const rg__shape *b);
static rg_shape_id rg__shape_id_of(const rg_world *w, int index);

/* Deletes a pair's cache entry, its shape pairs with it. */
static void rg__narrowphase_delete_entry(rg__narrowphase *np, uint64_t key) {
    ptrdiff_t at = stbds_hmgeti(np->cache, key);
    if (at < 0) return;
    stbds_arrfree(np->cache[at].value.more);
    (void)stbds_hmdel(np->cache, key);
}

static void rg__narrowphase_destroy(rg_world *w) {
    ptrdiff_t i;
    for (i = 0; i < stbds_hmlen(w->narrowphase.cache); ++i) stbds_arrfree(w->narrowphase.cache[i].value.more);
    stbds_arrfree(w->narrowphase.manifolds);
    stbds_arrfree(w->narrowphase.previous);
    stbds_hmfree(w->narrowphase.cache);
    stbds_arrfree(w->narrowphase.keys);
    stbds_arrfree(w->narrowphase.children);
    stbds_arrfree(w->narrowphase.triangles);
    stbds_arrfree(w->narrowphase.bodies);
    stbds_arrfree(w->narrowphase.hints);
    stbds_arrfree(w->narrowphase.next_hints);
    stbds_arrfree(w->narrowphase.scratch.vectors);
    stbds_arrfree(w->narrowphase.scratch.reals);
    stbds_arrfree(w->narrowphase.scratch.clip);
    for (i = 0; i < stbds_arrlen(w->narrowphase.worker_scratch); ++i) {
        stbds_arrfree(w->narrowphase.worker_scratch[i].vectors);
        stbds_arrfree(w->narrowphase.worker_scratch[i].reals);
        stbds_arrfree(w->narrowphase.worker_scratch[i].clip);
    }
    stbds_arrfree(w->narrowphase.worker_scratch);
    stbds_arrfree(w->narrowphase.jobs);
}

/* Shape pair i of a body pair's cache. */
static rg__shape_pair_cache *rg__narrowphase_child(rg__pair_cache *cache, int i) {
    return i == 0 ? &cache->first : &cache->more[i - 1];
}

/* Repoints the shape pairs' caches at their manifolds after the manifold array changed. */
static void rg__narrowphase_index_manifolds(rg_world *w) {
    int i, n = (int)stbds_arrlen(w->narrowphase.manifolds);
    for (i = 0; i < n; ++i) {
        const rg__pair_manifold *m = &w->narrowphase.manifolds[i];
        uint64_t key = rg__broadphase_pair_key(m->a, m->b);
        ptrdiff_t at = stbds_hmgeti(w->narrowphase.cache, key);
        if (at >= 0 && m->child < w->narrowphase.cache[at].value.child_count)
            rg__narrowphase_child(&w->narrowphase.cache[at].value, m->child)->manifold_index = i;
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
        if ((int)(key >> 32) == index || (int)(uint32_t)key == index) rg__narrowphase_delete_entry(np, key);
    }
    for (i = 0; i < n; ++i)
        if (np->manifolds[i].a != index && np->manifolds[i].b != index) np->manifolds[kept++] = np->manifolds[i];
    if (kept != n) {
        stbds_arrsetlen(np->manifolds, kept);
        rg__narrowphase_index_manifolds(w);
    }
}

/* The world position of a body frame's origin: the centre of mass less the rotated local centre. */
static rg_vec3 rg__narrowphase_body_origin(const rg__body *body) {
    return rg_v3_sub(body->com, rg__quat_rotate(body->orientation, body->local_com));
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

/* The pair's cache entry. The broad phase hands on its pairs in key order, so a cursor walking
   last step's pairs along with this step's finds where the entry was then; it is taken if it is
   still there (deletions move entries), else the hash map is asked. The entry found is the same
   either way. */
static rg__pair_cache *rg__narrowphase_cache_entry(rg__narrowphase *np, uint64_t key, int *cursor) {
    int n = (int)stbds_arrlen(np->hints);
    ptrdiff_t at = -1;
    rg__pair_entry_hint hint;
    while (*cursor < n && np->hints[*cursor].key < key) ++*cursor;
    if (*cursor < n && np->hints[*cursor].key == key) {
        int guess = np->hints[*cursor].entry;
        if (guess < stbds_hmlen(np->cache) && np->cache[guess].key == key) at = guess;
    }
    if (at < 0) at = stbds_hmgeti(np->cache, key);
    if (at < 0) {
        rg__pair_cache fresh;
        memset(&fresh, 0, sizeof fresh);
        stbds_hmput(np->cache, key, fresh);
        at = stbds_hmgeti(np->cache, key);
    }
    hint.key = key;
    hint.entry = (int)at;
    hint.zero = 0;
    stbds_arrput(np->next_hints, hint);
    return &np->cache[at].value;
}

/* Drops the entries of pairs the broad phase no longer reports. Walking down, a deletion moves
   the last entry, already visited, into the hole. */
static void rg__narrowphase_forget_stale_pairs(rg__narrowphase *np) {
    ptrdiff_t i;
    for (i = stbds_hmlen(np->cache) - 1; i >= 0; --i) {
        if (np->cache[i].value.stamp != np->step) rg__narrowphase_delete_entry(np, np->cache[i].key);
    }
}

/* The speculative margin of a pair: contact_margin plus how far the two hulls can close in this
   step (relative speed, turning of the farthest vertices, gravity), so that a fast body meets
   what it will hit before it is inside it; the solver acts on a gap only when it closes. */
static rg_real rg__narrowphase_pair_margin(const rg_world *w, const rg__body *a, const rg__narrowphase_body *pose_a,
                               const rg__body *b, const rg__narrowphase_body *pose_b, rg_real gravity_reach) {
    rg_real h = w->step_dt, speed;
    if (!(h > 0)) return w->def.contact_margin;
    speed = rg_v3_length(rg_v3_sub(a->linear_velocity, b->linear_velocity)) + pose_a->turn_reach + pose_b->turn_reach +
            gravity_reach;
    return w->def.contact_margin + speed * h;
}

/* Body i's part of its pairs' work, once per step (by slot: destroyed slots and bodies without
   shapes are not collidable). */
static void rg__narrowphase_pose_body(rg_world *w, int i) {
    const rg__body *body = &w->bodies[i];
    rg__narrowphase_body *pose = &w->narrowphase.bodies[i];
    memset(pose, 0, sizeof *pose);
    if (!(body->generation & 1) || body->first_shape < 0) return;
    pose->origin = rg__narrowphase_body_origin(body);
    pose->collidable = rg__v3_is_sane(pose->origin) && rg_quat_is_finite(body->orientation);
    if (pose->collidable) pose->rotation = rg_quat_normalize(body->orientation);
    pose->turn_reach = rg_v3_length(body->angular_velocity) * body->radius;
}

/* The fewest bodies a worker poses at once (>>task). */
#define RG__NARROWPHASE_POSE_RANGE 256

/* How far a pair may have moved relative to itself before its kept manifold is collided again:
   no point of a has moved by more than this in b's frame (the centre's move plus the turn times
   a's radius), so a kept point is off by at most this along the surface, and its depth is
   recomputed exactly for the rigid motion. */
#ifndef RG__REUSE_FRACTION
#define RG__REUSE_FRACTION ((rg_real)0.25) /* of contact_tolerance */
#endif

/* a's centre and orientation seen from b's hull frame. */
static void rg__narrowphase_pose_seen_from_b(rg_vec3 center_a, rg_quat qa, rg_vec3 origin_b, rg_quat qb, rg_vec3 *position,
                                 rg_quat *orientation) {
    *position = rg__quat_rotate(rg_quat_conjugate(qb), rg_v3_sub(center_a, origin_b));
    *orientation = rg__quat_mul(rg_quat_conjugate(qb), qa);
}

/* Most kept manifolds are never reused (the pair moves too far first): their points go into
   the body frames only when first reused (rg__narrowphase_kept_manifold_in_body_frames). */
static void rg__narrowphase_keep_manifold(rg__kept_manifold *kept, const rg_manifold *m, rg_real margin, const rg__body *a,
                              rg_vec3 origin_a, rg_quat qa, rg_vec3 origin_b, rg_quat qb) {
    int k;
    kept->count = m->count;
    kept->in_body_frames = 0;
    kept->margin = margin;
    rg__narrowphase_pose_seen_from_b(a->com, qa, origin_b, qb, &kept->a_position, &kept->a_orientation);
    kept->normal = m->normal;
    kept->origin_a = origin_a;
    kept->origin_b = origin_b;
    kept->rotation_a = qa;
    kept->rotation_b = qb;
    for (k = 0; k < m->count; ++k) {
        kept->on_b[k] = m->points[k];
        kept->on_a[k] = rg_v3_madd(m->points[k], m->normal, -m->depths[k]);
        kept->features[k] = m->features[k];
    }
}

/* The kept manifold's points into the body frames (on_a into a's, on_b and the normal into
   b's), once. */
static void rg__narrowphase_kept_manifold_in_body_frames(rg__kept_manifold *kept) {
    int k;
    if (kept->in_body_frames) return;
    kept->in_body_frames = 1;
    kept->normal = rg__quat_rotate(rg_quat_conjugate(kept->rotation_b), kept->normal);
    for (k = 0; k < kept->count; ++k) {
        kept->on_b[k] = rg__quat_rotate(rg_quat_conjugate(kept->rotation_b), rg_v3_sub(kept->on_b[k], kept->origin_b));
        kept->on_a[k] = rg__quat_rotate(rg_quat_conjugate(kept->rotation_a), rg_v3_sub(kept->on_a[k], kept->origin_a));
    }
}

/* The kept manifold in the current poses, if the pair has moved relative to itself by less than
   `reach` since it was computed and the margin has not grown by more than `reach` either (a
   larger one could take in points the kept manifold left out, about a margin away; growth up
   to `reach` is allowed since a move of up to `reach` already shifts the kept points' gaps that
   much). The margin follows the bodies' speeds, whose jitter at rest would otherwise recollide
   resting pairs for nothing (100-row pyramid: 38% of its pairs). Points beyond the current
   margin are dropped. Returns the count, or -1 when the pair must be collided again. */
static int rg__narrowphase_reuse_manifold(rg__kept_manifold *kept, rg_real reach, rg_real margin, const rg__body *a,
                              rg_vec3 origin_a, const rg__body *b, rg_vec3 origin_b, rg_manifold *out) {
    rg_vec3 position;
    rg_quat orientation, turn;
    rg_real moved, sine;
    int k, count = 0;
    if (kept->count == 0 || !(margin <= kept->margin + reach)) return -1;
    rg__narrowphase_pose_seen_from_b(a->com, a->orientation, origin_b, b->orientation, &position, &orientation);
    turn = rg__quat_mul(orientation, rg_quat_conjugate(kept->a_orientation));
    sine = rg__sqrt(turn.x * turn.x + turn.y * turn.y + turn.z * turn.z); /* sin of half the turn */
    moved = rg_v3_length(rg_v3_sub(position, kept->a_position)) + 2 * sine * a->radius;
    if (!(moved <= reach)) return -1;
    rg__narrowphase_kept_manifold_in_body_frames(kept);
    out->normal = rg__quat_rotate(b->orientation, kept->normal);
    for (k = 0; k < kept->count; ++k) {
        rg_vec3 on_b = rg_v3_add(origin_b, rg__quat_rotate(b->orientation, kept->on_b[k]));
        rg_vec3 on_a = rg_v3_add(origin_a, rg__quat_rotate(a->orientation, kept->on_a[k]));
        rg_real depth = rg_v3_dot(rg_v3_sub(on_b, on_a), out->normal);
        if (depth < -margin) continue;
        out->points[count] = on_b;
        out->depths[count] = depth;
        out->features[count++] = kept->features[k];
    }
    out->count = count;
    return count;
}

/* Hull radii from a body's centre of mass within which a point of a manifold is taken to lie on
   the body: a hull's points lie within one (a kept manifold's a little beyond, having moved
   with their pair); the rest is for rounding. */
#ifndef RG__ON_BODY_REACH
#define RG__ON_BODY_REACH ((rg_real)2)
#endif

/* Does `point` lie within `radii` hull radii of the body's centre of mass? NaN and overflow say
   no. */
static int rg__narrowphase_point_near_body(const rg__body *body, rg_vec3 point, rg_real radii) {
    rg_real reach = radii * body->radius;
    return rg_v3_length_squared(rg_v3_sub(point, body->com)) <= reach * reach;
}

/* Do the manifold's points lie on both bodies: each point on b, and the point on a the solver
   takes (the point on b less depth n)? Invariant: every point of a manifold lies within
   RG__ON_BODY_REACH hull radii of each body's centre of mass, otherwise the pair gets no
   contact this step. Only rounding makes them miss (hulls far apart in b's frame, within a
   huge speculative margin): rounding then hides where the hulls would meet, and such points
   would give the solver lever arms far longer than the bodies, overflowing to NaN velocities. */
static int rg__narrowphase_manifold_on_bodies(const rg_manifold *m, int count, const rg__body *a, const rg__body *b) {
    int k;
    for (k = 0; k < count; ++k) {
        rg_vec3 on_b = m->points[k];
        if (!rg__narrowphase_point_near_body(b, on_b, RG__ON_BODY_REACH) ||
            !rg__narrowphase_point_near_body(a, rg_v3_madd(on_b, m->normal, -m->depths[k]), RG__ON_BODY_REACH))
            return 0;
    }
    return 1;
}

/* A shape of a body posed as its body is this step (`pose`), for the collisions. A hull at the
   frame's origin unturned takes the body's pose bit for bit. */
static void rg__narrowphase_convex_of(const rg__shape *shape, const rg__narrowphase_body *pose, rg__convex *out) {
    out->type = shape->type;
    out->hull = shape->hull;
    out->radius = shape->radius;
    out->position = pose->origin;
    out->rotation = pose->rotation;
    out->p0 = out->p1 = pose->origin;
    if (shape->type == RG_SHAPE_HULL) {
        if (shape->placed) {
            out->position = rg_v3_add(pose->origin, rg__quat_rotate(pose->rotation, shape->position));
            out->rotation = rg_quat_normalize(rg__quat_mul(pose->rotation, shape->orientation));
        }
    } else if (shape->type != RG_SHAPE_MESH) {
        out->p0 = rg_v3_add(pose->origin, rg__quat_rotate(pose->rotation, shape->p0));
        out->p1 = rg_v3_add(pose->origin, rg__quat_rotate(pose->rotation, shape->p1));
    }
}

/* Triangle t of a mesh shape on a body posed by `pose`, in world space. */
static void rg__narrowphase_triangle_of(const rg__shape *mesh, const rg__narrowphase_body *pose, int t,
                                        rg__triangle *out) {
    int k;
    rg__mesh_triangle_of(mesh->mesh, t, out);
    for (k = 0; k < 3; ++k) out->v[k] = rg_v3_add(pose->origin, rg__quat_rotate(pose->rotation, out->v[k]));
    out->normal = rg__quat_rotate(pose->rotation, out->normal);
}

/* The triangles of a mesh shape (on a body posed by `mesh_pose`) near a convex shape (on a body
   posed by `pose`): those whose boxes overlap the convex shape's box grown by the margin, in the
   mesh's frame. Into np->triangles, ascending. */
static void rg__narrowphase_query_mesh(rg__narrowphase *np, const rg__shape *mesh, const rg__narrowphase_body *mesh_pose,
                                       const rg__shape *shape, const rg__narrowphase_body *pose, rg_real margin) {
    rg_mat3 rotation = rg_mat3_from_quat(pose->rotation), back = rg_mat3_transpose(rg_mat3_from_quat(mesh_pose->rotation));
    rg_vec3 lo, hi, c, e, half;
    rg__broadphase_shape_box(shape, rotation, &lo, &hi);
    e = rg_v3_add(rg_v3_scale(rg_v3_sub(hi, lo), (rg_real)0.5), rg_v3(margin, margin, margin));
    c = rg_v3_add(pose->origin, rg_v3_scale(rg_v3_add(lo, hi), (rg_real)0.5));
    c = rg_mat3_mul_v3(back, rg_v3_sub(c, mesh_pose->origin));
    half.x = rg__fabs(back.m[0][0]) * e.x + rg__fabs(back.m[0][1]) * e.y + rg__fabs(back.m[0][2]) * e.z;
    half.y = rg__fabs(back.m[1][0]) * e.x + rg__fabs(back.m[1][1]) * e.y + rg__fabs(back.m[1][2]) * e.z;
    half.z = rg__fabs(back.m[2][0]) * e.x + rg__fabs(back.m[2][1]) * e.y + rg__fabs(back.m[2][2]) * e.z;
    stbds_arrsetlen(np->triangles, 0);
    rg__mesh_query(mesh->mesh, rg_v3_sub(c, half), rg_v3_add(c, half), &np->triangles);
}

/* Appends a shape pair to np->keys. */
static void rg__narrowphase_add_child(rg__narrowphase *np, int place_a, int place_b, int triangle) {
    rg__shape_pair_key key;
    key.place_a = place_a;
    key.place_b = place_b;
    key.triangle = triangle;
    stbds_arrput(np->keys, key);
}

/* The shape pairs of body pair (a, b) for this step, into np->keys in visit order (places
   in a's list, in b's, triangle): each shape of a with each shape of b that the filters let
   through, sensors aside; a mesh with each of its triangles near the other shape. */
static void rg__narrowphase_list_children(rg_world *w, int a, int b, rg_real margin) {
    rg__narrowphase *np = &w->narrowphase;
    int ia, ib, place_a = 0;
    stbds_arrsetlen(np->keys, 0);
    for (ia = w->bodies[a].first_shape; ia >= 0; ia = w->shapes[ia].next, ++place_a) {
        const rg__shape *sa = &w->shapes[ia];
        int place_b = 0;
        if (sa->is_sensor) continue;
        for (ib = w->bodies[b].first_shape; ib >= 0; ib = w->shapes[ib].next, ++place_b) {
            const rg__shape *sb = &w->shapes[ib];
            int k, mesh_a = sa->type == RG_SHAPE_MESH, mesh_b = sb->type == RG_SHAPE_MESH;
            if (sb->is_sensor || (mesh_a && mesh_b) || !rg__shape_filters_pass(sa, sb)) continue;
            if (!mesh_a && !mesh_b) {
                rg__narrowphase_add_child(np, place_a, place_b, -1);
                continue;
            }
            if (mesh_a) rg__narrowphase_query_mesh(np, sa, &np->bodies[a], sb, &np->bodies[b], margin);
            else rg__narrowphase_query_mesh(np, sb, &np->bodies[b], sa, &np->bodies[a], margin);
            for (k = 0; k < (int)stbds_arrlen(np->triangles); ++k)
                rg__narrowphase_add_child(np, place_a, place_b, np->triangles[k]);
        }
    }
}

/* Orders shape pairs as they are visited. */
static int rg__narrowphase_child_compare(const rg__shape_pair_key *x, const rg__shape_pair_key *y) {
    if (x->place_a != y->place_a) return x->place_a < y->place_a ? -1 : 1;
    if (x->place_b != y->place_b) return x->place_b < y->place_b ? -1 : 1;
    if (x->triangle != y->triangle) return x->triangle < y->triangle ? -1 : 1;
    return 0;
}

/* This step's shape pairs (np->keys) take their caches from the pair's list of the last step,
   both in visit order, and become the pair's list. The same pairs as last step (the common
   case) keep the list as it is. */
static void rg__narrowphase_match_children(rg__narrowphase *np, rg__pair_cache *cache) {
    int i, j = 0, n = (int)stbds_arrlen(np->keys), old = cache->child_count, same = n == old;
    for (i = 0; i < n && same; ++i)
        same = rg__narrowphase_child_compare(&np->keys[i], &rg__narrowphase_child(cache, i)->key) == 0;
    if (same) return;
    stbds_arrsetlen(np->children, n);
    for (i = 0; i < n; ++i) {
        rg__shape_pair_cache *child = &np->children[i];
        while (j < old && rg__narrowphase_child_compare(&rg__narrowphase_child(cache, j)->key, &np->keys[i]) < 0) ++j;
        if (j < old && rg__narrowphase_child_compare(&rg__narrowphase_child(cache, j)->key, &np->keys[i]) == 0) {
            *child = *rg__narrowphase_child(cache, j++);
            continue;
        }
        memset(child, 0, sizeof *child);
        child->key = np->keys[i];
        child->manifold_index = -1;
    }
    cache->child_count = n;
    if (n > 0) cache->first = np->children[0];
    stbds_arrsetlen(cache->more, n > 1 ? n - 1 : 0);
    if (n > 1) memcpy(cache->more, np->children + 1, sizeof *np->children * (size_t)(n - 1));
}

/* The shapes at places place_a and place_b of bodies a and b. */
static const rg__shape *rg__narrowphase_shape_at(const rg_world *w, int body, int place) {
    int index = w->bodies[body].first_shape;
    while (place-- > 0) index = w->shapes[index].next;
    return &w->shapes[index];
}

/* Is last step's manifold `m` the one of this shape pair? */
static int rg__narrowphase_same_pair(const rg__pair_manifold *m, rg__body_pair pair, ptrdiff_t shape_a,
                                     ptrdiff_t shape_b, int triangle) {
    return m->a == pair.a && m->b == pair.b && m->shape_a == (int)shape_a && m->shape_b == (int)shape_b &&
           m->triangle == triangle;
}

/* A shape pair's manifold collided afresh (the witness first for hull pairs): a convex pair by
   rg__collide_convex; a convex shape and a mesh's triangle by rg__collide_convex_triangle in
   world space, turned so that the normal points from b's shape towards a's. */
static int rg__narrowphase_collide_child(const rg_world *w, int a, int b, const rg__shape *sa, const rg__shape *sb,
                                         rg__shape_pair_cache *child, rg_real margin, rg__collide_scratch *scratch,
                                         rg_manifold *out) {
    const rg__narrowphase *np = &w->narrowphase;
    const rg__narrowphase_body *pa = &np->bodies[a], *pb = &np->bodies[b];
    rg__convex ca, cb;
    rg__triangle triangle;
    memset(out, 0, sizeof *out);
    child->witness.held = 0;
    if (child->key.triangle < 0) {
        rg__narrowphase_convex_of(sa, pa, &ca);
        rg__narrowphase_convex_of(sb, pb, &cb);
        return rg__collide_convex(&ca, &cb, margin, &child->witness, scratch, out);
    }
    if (sb->type == RG_SHAPE_MESH) {
        rg__narrowphase_convex_of(sa, pa, &ca);
        rg__narrowphase_triangle_of(sb, pb, child->key.triangle, &triangle);
        return rg__collide_convex_triangle(&ca, &triangle, margin, scratch, out);
    }
    rg__narrowphase_convex_of(sb, pb, &cb);
    rg__narrowphase_triangle_of(sa, pa, child->key.triangle, &triangle);
    (void)rg__collide_convex_triangle(&cb, &triangle, margin, scratch, out);
    return rg__collide_flip(out);
}

/* The fewest shape pairs a worker takes at once (>>task). */
#define RG__NARROWPHASE_RANGE 32

/* Room in a worker's scratch for any collision of shapes sa and sb (the pair frame's tables of
   rg__collide_pair_frame_build, the clipping buffers of rg__collide_clip_buffers and
   rg__collide_triangle_clip_buffers), both hulls' counts summed whichever is A; round shapes and
   triangles need none. need[] holds the largest so far: vectors, reals, clip vertices. */
static void rg__narrowphase_scratch_need(const rg__shape *sa, const rg__shape *sb, int need[3]) {
    const rg_hull *a = sa->type == RG_SHAPE_HULL ? sa->hull : NULL, *b = sb->type == RG_SHAPE_HULL ? sb->hull : NULL;
    int vectors = 0, reals = 0, corners = 4;
    if (a) {
        vectors += a->vertex_count + a->face_count + a->edge_count;
        reals += a->face_count;
        corners += a->vertex_count;
    }
    if (b) {
        vectors += b->vertex_count + b->face_count + b->edge_count;
        reals += b->face_count;
        corners += b->vertex_count;
    }
    if (vectors > need[0]) need[0] = vectors;
    if (reals > need[1]) need[1] = reals;
    if (2 * corners > need[2]) need[2] = 2 * corners;
}

/* One scratch per worker, each with room for need[] (rg__narrowphase_scratch_need), made on the
   calling thread before the shape pairs are collided: a task must not allocate. */
static void rg__narrowphase_reserve_scratch(rg_world *w, const int need[3]) {
    rg__narrowphase *np = &w->narrowphase;
    int i, workers = w->def.worker_count, had = (int)stbds_arrlen(np->worker_scratch);
    if (had < workers) {
        stbds_arrsetlen(np->worker_scratch, workers);
        memset(np->worker_scratch + had, 0, sizeof *np->worker_scratch * (size_t)(workers - had));
    }
    for (i = 0; i < workers; ++i) {
        rg__collide_scratch *scratch = &np->worker_scratch[i];
        if ((int)stbds_arrcap(scratch->vectors) < need[0]) stbds_arrsetcap(scratch->vectors, need[0]);
        if ((int)stbds_arrcap(scratch->reals) < need[1]) stbds_arrsetcap(scratch->reals, need[1]);
        if ((int)stbds_arrcap(scratch->clip) < need[2]) stbds_arrsetcap(scratch->clip, need[2]);
    }
}

/* The step's shape pairs, each with its manifold's slot (np->manifolds[j] for job j): what
   rg__narrowphase_update lists on the calling thread and the workers then collide. */
static void rg__narrowphase_list_jobs(rg_world *w) {
    rg__narrowphase *np = &w->narrowphase;
    int i, pair_count = (int)stbds_arrlen(w->broadphase.pairs), cursor = 0, need[3] = {0, 0, 0};
    rg_real gravity_reach = rg_v3_length(w->def.gravity) * w->step_dt;
    stbds_arrsetlen(np->jobs, 0);
    for (i = 0; i < pair_count; ++i) {
        rg__body_pair pair = w->broadphase.pairs[i];
        const rg__body *body_a = &w->bodies[pair.a], *body_b = &w->bodies[pair.b];
        const rg__narrowphase_body *pose_a = &np->bodies[pair.a], *pose_b = &np->bodies[pair.b];
        rg__pair_cache *cache;
        rg_real margin, taken;
        int c, entry;
        if (body_a->first_shape < 0 || body_b->first_shape < 0) continue;
        if (rg__joint_blocks_pair(w, pair.a, pair.b)) continue; /* joined, collide_connected 0 */
        cache = rg__narrowphase_cache_entry(np, rg__broadphase_pair_key(pair.a, pair.b), &cursor);
        entry = np->next_hints[stbds_arrlen(np->next_hints) - 1].entry;
        cache->stamp = np->step;
        margin = rg__narrowphase_pair_margin(w, body_a, pose_a, body_b, pose_b, gravity_reach);
        if (!pose_a->collidable || !pose_b->collidable || !rg__collide_margin(margin, &taken)) {
            cache->child_count = 0;
            continue;
        }
        rg__narrowphase_list_children(w, pair.a, pair.b, taken);
        rg__narrowphase_match_children(np, cache);
        for (c = 0; c < cache->child_count; ++c) {
            const rg__shape_pair_key *key = &rg__narrowphase_child(cache, c)->key;
            const rg__shape *sa = rg__narrowphase_shape_at(w, pair.a, key->place_a);
            const rg__shape *sb = rg__narrowphase_shape_at(w, pair.b, key->place_b);
            rg__narrowphase_job *job = stbds_arraddnptr(np->jobs, 1);
            job->pair = i;
            job->entry = entry;
            job->child = c;
            job->shape_a = (int)(sa - w->shapes);
            job->shape_b = (int)(sb - w->shapes);
            job->margin = margin;
            job->taken = taken;
            rg__narrowphase_scratch_need(sa, sb, need);
        }
    }
    rg__narrowphase_reserve_scratch(w, need);
}

/* A shape pair's manifold into its slot (count 0: none): the kept one reused, or collided again
   (witness first); checked to lie on both bodies; its points take the impulses of last step's
   points with the same feature id. It writes only its slot, its job and its shape pair's cache. */
static void rg__narrowphase_run_job(rg_world *w, int j, rg_real reach, rg__collide_scratch *scratch) {
    rg__narrowphase *np = &w->narrowphase;
    rg__narrowphase_job *job = &np->jobs[j];
    rg__body_pair pair = w->broadphase.pairs[job->pair];
    const rg__body *body_a = &w->bodies[pair.a], *body_b = &w->bodies[pair.b];
    const rg__narrowphase_body *pose_a = &np->bodies[pair.a], *pose_b = &np->bodies[pair.b];
    rg__shape_pair_cache *child = rg__narrowphase_child(&np->cache[job->entry].value, job->child);
    const rg__shape *sa = &w->shapes[job->shape_a], *sb = &w->shapes[job->shape_b];
    const rg__pair_manifold *previous = NULL;
    rg__pair_manifold *m = &np->manifolds[j];
    rg_manifold result;
    int k, count = rg__narrowphase_reuse_manifold(&child->kept, reach, job->margin, body_a, pose_a->origin, body_b,
                                                  pose_b->origin, &result);
    if (count >= 0) {
        job->outcome = RG__NARROWPHASE_REUSED;
    } else {
        count = rg__narrowphase_collide_child(w, pair.a, pair.b, sa, sb, child, job->taken, scratch, &result);
        job->outcome = child->witness.held ? RG__NARROWPHASE_HIT : RG__NARROWPHASE_MISSED;
        rg__narrowphase_keep_manifold(&child->kept, &result, job->margin, body_a, pose_a->origin, body_a->orientation,
                                      pose_b->origin, body_b->orientation);
    }
    if (count > 0 && !rg__narrowphase_manifold_on_bodies(&result, count, body_a, body_b)) count = 0;
    if (child->manifold_index >= 0 && child->manifold_index < (int)stbds_arrlen(np->previous) &&
        rg__narrowphase_same_pair(&np->previous[child->manifold_index], pair, job->shape_a, job->shape_b,
                                  child->key.triangle))
        previous = &np->previous[child->manifold_index];
    child->manifold_index = -1; /* its new place is set once the manifolds are gathered */
    if (count == 0) {
        m->count = 0;
        return;
    }
    memset(m, 0, sizeof *m);
    m->a = pair.a;
    m->b = pair.b;
    m->shape_a = job->shape_a;
    m->shape_b = job->shape_b;
    m->triangle = child->key.triangle;
    m->child = job->child;
    m->normal = result.normal;
    m->count = count;
    for (k = 0; k < count; ++k) {
        m->points[k].point = result.points[k];
        m->points[k].depth = result.depths[k];
        m->points[k].feature = result.features[k];
    }
    rg__narrowphase_warm_start(m, previous);
    m->previous = previous ? (int)(previous - np->previous) : -1; /* for the solver */
}

typedef struct rg__narrowphase_jobs_task {
    rg_world *w;
    rg_real reach;
} rg__narrowphase_jobs_task;

static void rg__narrowphase_run_jobs(int start, int end, int worker, void *context) {
    const rg__narrowphase_jobs_task *t = (const rg__narrowphase_jobs_task *)context;
    rg__collide_scratch *scratch = &t->w->narrowphase.worker_scratch[rg__task_worker(t->w, worker)];
    rg__collide_scratch reserved = *scratch;
    int j;
    for (j = start; j < end; ++j) rg__narrowphase_run_job(t->w, j, t->reach, scratch);
    /* nothing grew: rg__narrowphase_reserve_scratch made room for every pair */
    RIGID_ASSERT(scratch->vectors == reserved.vectors && scratch->reals == reserved.reals &&
                 scratch->clip == reserved.clip);
    (void)reserved;
}

/* The bodies' poses, a task over body slots. */
static void rg__narrowphase_pose_range(int start, int end, int worker, void *context) {
    rg_world *w = (rg_world *)context;
    int i;
    (void)worker;
    for (i = start; i < end; ++i) rg__narrowphase_pose_body(w, i);
}

/* The narrow phase of a step: the shape pairs of each broad-phase pair listed in pair order
   (their caches found or made: the hash map changes only here), collided by the workers into
   one slot each, then the slots with points gathered in order into the step's manifolds (the
   shape pairs' caches pointed at them) and counted. */
static void rg__narrowphase_update(rg_world *w) {
    rg__narrowphase *np = &w->narrowphase;
    rg__narrowphase_jobs_task task;
    int j, job_count, kept = 0, hits = 0, misses = 0, reuses = 0, contacts = 0;
    {
        /* last step's manifolds, with the impulses the solver left in them, become `previous` */
        rg__pair_manifold *swap = np->previous;
        np->previous = np->manifolds;
        np->manifolds = swap;
        stbds_arrsetlen(np->manifolds, 0);
    }
    {
        rg__pair_entry_hint *swap = np->hints;
        np->hints = np->next_hints;
        np->next_hints = swap;
        stbds_arrsetlen(np->next_hints, 0);
    }
    ++np->step;
    stbds_arrsetlen(np->bodies, stbds_arrlen(w->bodies));
    rg__task_run(w, rg__narrowphase_pose_range, (int)stbds_arrlen(w->bodies), RG__NARROWPHASE_POSE_RANGE, w);
    rg__narrowphase_list_jobs(w);
    job_count = (int)stbds_arrlen(np->jobs);
    stbds_arrsetlen(np->manifolds, job_count);
    task.w = w;
    task.reach = RG__REUSE_FRACTION * w->def.contact_tolerance;
    rg__task_run(w, rg__narrowphase_run_jobs, job_count, RG__NARROWPHASE_RANGE, &task);
    for (j = 0; j < job_count; ++j) {
        const rg__narrowphase_job *job = &np->jobs[j];
        const rg__pair_manifold *m = &np->manifolds[j];
        reuses += job->outcome == RG__NARROWPHASE_REUSED;
        hits += job->outcome == RG__NARROWPHASE_HIT;
        misses += job->outcome == RG__NARROWPHASE_MISSED;
        if (m->count == 0) continue;
        contacts += m->count;
        if (kept != j) np->manifolds[kept] = *m;
        rg__narrowphase_child(&np->cache[job->entry].value, job->child)->manifold_index = kept++;
    }
    stbds_arrsetlen(np->manifolds, kept);
    rg__narrowphase_forget_stale_pairs(np);
    w->stats.witness_hits = hits;
    w->stats.witness_misses = misses;
    w->stats.manifold_reuses = reuses;
    w->stats.contact_count = contacts;
}

/* =============================================================================================
   >>event: contact and sensor events of a step
   =============================================================================================

   Contacts. Touching is decided per pair of shapes at the end of the step, from the narrow
   phase's manifolds of the step (computed at its start, speculative points included): each point
   is carried rigidly with its two bodies from their poses at the start to their poses at the
   end, and its depth measured again along the normal carried likewise. A round shape's point is
   its core's (the sphere's centre, the capsule segment's point) carried, then moved out by the
   radius along the carried normal: the contact of a rolling sphere stays at its bottom instead of
   turning up with the material, which would open a gap of (v h)^2 / 2r a step (1.1 mm at 2 m/s,
   h = 1/60, r = 0.5). The normal turns with the body whose surface defines it, b's unless only b
   is round (then a's); between two round shapes it is the line of the carried cores. Carrying
   costs no collision and is exact while a pair stays on the same features; the narrow phase's
   speculative margin holds every pair that can meet within the step.
   Hysteresis: a pair begins touching when its deepest carried point is deeper than
   -contact_tolerance, and ends when none is deeper than -RG__EVENT_END_TOLERANCES tolerances;
   the solver keeps a resting or rolling contact within a tolerance of zero, so it crosses
   neither. A mesh's triangles pool into one (shape, mesh) pair: its deepest point over all of
   them. A touching pair without a manifold ends at once when its bodies leave the broad phase's
   pairs, its shapes' boxes part, its filter, its bodies' types or a joint no longer let it collide;
   otherwise only after RG__EVENT_MISSED_STEPS steps in a row without one. Separating pairs
   pass through the speculative margin, which grows with their speed, and end there; a pair
   close by loses its manifold only where the collision finds no point (mesh-rain: a cube
   resting 1 mm from a wall's top edge, corner to edge, got none in 3 steps of 4 and flickered
   43 times in 5 s without this).
   approach_speed: the relative normal speed with which the pair meets in the step it begins
   touching, at its deepest point (rg__event_capture, between the narrow phase and the collision
   stage): the speed at the step's start, plus what gravity and forces add while the gap closes
   (a cube dropped 1 m at 60 Hz: 4.35 m/s against sqrt(2 g h) = 4.43, -1.8%; the speed at the step's
   start alone, 4.25, is 4.0% short, as it misses up to |g| h).
   Sensors. At the end of the step each sensor is collided at margin 0 with its candidates at
   their end poses (touching counts): the shapes of the other body of each broad-phase pair of
   the step (whose boxes cover the step's motion and the contact margin) and, since the broad
   phase pairs only bodies of which one is dynamic, those of kinematic bodies whose boxes overlap
   a static or kinematic sensor body's. Begin and end follow the change of overlap.
   Sets. The touching and overlapping pairs are arrays sorted by key (the two shape indices),
   merged each step with the step's pairs sorted the same way (a stable merge sort, ties in
   manifold order): O(n) besides the sort, which is skipped when the pairs come sorted, and the
   events come out sorted. A destroyed shape or body takes its pairs out of the sets at once
   (rg__event_forget); their end events wait for the next step. */

/* A contact pair ends when its deepest point lies farther apart than this many
   contact_tolerance (it begins within one). */
#ifndef RG__EVENT_END_TOLERANCES
#define RG__EVENT_END_TOLERANCES ((rg_real)2)
#endif
/* A touching pair still near (rg__event_still_near) survives this many steps without a manifold. */
#ifndef RG__EVENT_MISSED_STEPS
#define RG__EVENT_MISSED_STEPS 8
#endif

static int rg__event_is_round(const rg__shape *shape) {
    return shape->type == RG_SHAPE_SPHERE || shape->type == RG_SHAPE_CAPSULE;
}

static int rg__event_boxes_overlap(rg_vec3 lo_a, rg_vec3 hi_a, rg_vec3 lo_b, rg_vec3 hi_b) {
    return lo_a.x <= hi_b.x && lo_b.x <= hi_a.x && lo_a.y <= hi_b.y && lo_b.y <= hi_a.y && lo_a.z <= hi_b.z &&
           lo_b.z <= hi_a.z;
}

/* Shapes a and b (indices) as a pair of the sets. */
static rg__event_pair rg__event_pair_of(const rg_world *w, int a, int b) {
    rg__event_pair p;
    p.key = ((uint64_t)(uint32_t)a << 32) | (uint32_t)b;
    p.shape_a = rg__shape_id_of(w, a);
    p.shape_b = rg__shape_id_of(w, b);
    p.body_a.index = (uint32_t)w->shapes[a].body;
    p.body_a.generation = w->bodies[w->shapes[a].body].generation;
    p.body_b.index = (uint32_t)w->shapes[b].body;
    p.body_b.generation = w->bodies[w->shapes[b].body].generation;
    p.missed = 0;
    p.zero = 0;
    return p;
}

static int rg__event_same_pair(const rg__event_pair *p, const rg__event_pair *q) {
    return p->key == q->key && p->shape_a.generation == q->shape_a.generation &&
           p->shape_b.generation == q->shape_b.generation;
}

/* ---- >>event.sort: a stable merge sort, the sets' order ---------------------------------------- */

static int rg__event_pair_less(const void *x, const void *y) {
    const rg__event_pair *p = (const rg__event_pair *)x, *q = (const rg__event_pair *)y;
    if (p->key != q->key) return p->key < q->key;
    if (p->shape_a.generation != q->shape_a.generation) return p->shape_a.generation < q->shape_a.generation;
    return p->shape_b.generation < q->shape_b.generation;
}

static int rg__event_touch_less(const void *x, const void *y) {
    const rg__event_touch *p = (const rg__event_touch *)x, *q = (const rg__event_touch *)y;
    if (p->pair.key != q->pair.key) return p->pair.key < q->pair.key;
    return p->order < q->order;
}

/* Bottom-up merge sort of n items of `size` bytes; scratch holds n items. Stable: equal items
   keep their order, so the result depends on nothing but the input. */
static void rg__event_merge_sort(void *items, void *scratch, int n, size_t size, int (*less)(const void *, const void *)) {
    char *from = (char *)items, *to = (char *)scratch, *swap;
    int width, lo;
    for (width = 1; width < n; width = width > n / 2 ? n : 2 * width) {
        for (lo = 0; lo < n; lo += 2 * width) {
            int mid = n - lo > width ? lo + width : n, hi = n - mid > width ? mid + width : n, i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                if (less(from + (size_t)j * size, from + (size_t)i * size)) memcpy(to + (size_t)k++ * size, from + (size_t)j++ * size, size);
                else memcpy(to + (size_t)k++ * size, from + (size_t)i++ * size, size);
            }
            if (i < mid) memcpy(to + (size_t)k * size, from + (size_t)i * size, (size_t)(mid - i) * size);
            else if (j < hi) memcpy(to + (size_t)k * size, from + (size_t)j * size, (size_t)(hi - j) * size);
        }
        swap = from;
        from = to;
        to = swap;
    }
    if (from != (char *)items) memcpy(items, from, (size_t)n * size);
}

/* Sorts unless already sorted (the common case: pairs found in key order). */
static void rg__event_sort(void *items, void *scratch, int n, size_t size, int (*less)(const void *, const void *)) {
    int i;
    for (i = 1; i < n; ++i)
        if (less((char *)items + (size_t)i * size, (char *)items + (size_t)(i - 1) * size)) break;
    if (i < n) rg__event_merge_sort(items, scratch, n, size, less);
}

static void rg__event_sort_pairs(rg__event_pair **items, rg__event_pair **scratch) {
    int n = (int)stbds_arrlen(*items);
    stbds_arrsetlen(*scratch, n);
    rg__event_sort(*items, *scratch, n, sizeof **items, rg__event_pair_less);
}

/* ---- >>event.contact: manifolds carried to the step's end, the touching set ------------------- */

/* From >>integrate and >>body (below): */
static rg_vec3 rg__integrate_linear_acceleration(const rg_world *w, const rg__body *body);
static rg_vec3 rg__body_point_velocity(const rg__body *body, rg_vec3 p);

/* The deepest point of a manifold (the first of equals). */
static int rg__event_deepest(const rg__pair_manifold *m) {
    int k, best = 0;
    for (k = 1; k < m->count; ++k)
        if (m->points[k].depth > m->points[best].depth) best = k;
    return best;
}

/* Called by rg_world_step after the narrow phase, before any velocity changes: each manifold's
   approach speed at its deepest point, the relative normal speed with which the gap there
   closes. At the step's start it is u = -(v_a - v_b).n (the velocities of the point on a, on b's
   point less depth n, and of the point on b); a gap g > 0 closing under the relative normal
   acceleration a > 0 of gravity and forces is met at sqrt(u^2 + 2 a g), at most u + a h (the
   gap closes within the step or the pair does not begin touching in it). */
static rg_real rg__event_approach_speed(const rg_world *w, const rg__pair_manifold *m) {
    const rg__contact_point *c = &m->points[rg__event_deepest(m)];
    const rg__body *a = &w->bodies[m->a], *b = &w->bodies[m->b];
    rg_vec3 on_a = rg_v3_madd(c->point, m->normal, -c->depth);
    rg_vec3 v = rg_v3_sub(rg__body_point_velocity(a, on_a), rg__body_point_velocity(b, c->point));
    rg_real speed = -rg_v3_dot(v, m->normal), gap = -c->depth, h = w->step_dt;
    rg_real closing = -rg_v3_dot(rg_v3_sub(rg__integrate_linear_acceleration(w, a),
                                           rg__integrate_linear_acceleration(w, b)), m->normal);
    if (speed < 0) speed = 0;
    if (gap > 0 && closing > 0)
        speed = rg__min_real(rg__sqrt(speed * speed + 2 * closing * gap), speed + closing * h);
    return speed;
}

/* The fewest manifolds or bodies a worker takes at once (>>task). */
#define RG__EVENT_RANGE 256

static void rg__event_capture_range(int start, int end, int worker, void *context) {
    rg_world *w = (rg_world *)context;
    int i;
    (void)worker;
    for (i = start; i < end; ++i) w->events.approach[i] = rg__event_approach_speed(w, &w->narrowphase.manifolds[i]);
}

static void rg__event_capture(rg_world *w) {
    int n = (int)stbds_arrlen(w->narrowphase.manifolds);
    stbds_arrsetlen(w->events.approach, n);
    rg__task_run(w, rg__event_capture_range, n, RG__EVENT_RANGE, w);
}

/* A collidable body's move from the narrow phase's pose of this step to its pose now, into
   events.moves (the others' are left as they are: no manifold has them). */
static void rg__event_compute_move(rg_world *w, int i) {
    const rg__body *body = &w->bodies[i];
    const rg__narrowphase_body *start = &w->narrowphase.bodies[i];
    rg__event_move *out = &w->events.moves[i];
    rg_quat now, then = start->rotation;
    if (!start->collidable) return;
    now = rg_quat_normalize(body->orientation);
    out->from = start->origin;
    out->to = rg__narrowphase_body_origin(body);
    out->turn = rg_mat3_from_quat(rg__quat_mul(now, rg_quat_conjugate(then)));
    out->still = out->from.x == out->to.x && out->from.y == out->to.y && out->from.z == out->to.z &&
                 now.x == then.x && now.y == then.y && now.z == then.z && now.w == then.w;
}

static void rg__event_move_range(int start, int end, int worker, void *context) {
    rg_world *w = (rg_world *)context;
    int i;
    (void)worker;
    for (i = start; i < end; ++i) rg__event_compute_move(w, i);
}

static rg_vec3 rg__event_moved(const rg__event_move *move, rg_vec3 p) {
    return move->still ? p : rg_v3_add(move->to, rg_mat3_mul_v3(move->turn, rg_v3_sub(p, move->from)));
}

static rg_vec3 rg__event_turned(const rg__event_move *move, rg_vec3 v) {
    return move->still ? v : rg_mat3_mul_v3(move->turn, v);
}

/* A manifold carried to the end of the step (the section's comment): returns the deepest
   carried depth, with its point on b and the normal there. With r_a, r_b the round shapes'
   radii (0 for the others) and c_a, c_b the carried cores' points,
   depth = (c_b - c_a).n + r_a + r_b. */
static rg_real rg__event_carry(const rg_world *w, const rg__pair_manifold *m, rg_vec3 *point, rg_vec3 *normal) {
    const rg__shape *sa = &w->shapes[m->shape_a], *sb = &w->shapes[m->shape_b];
    int round_a = rg__event_is_round(sa), round_b = rg__event_is_round(sb), k;
    rg_real ra = round_a ? sa->radius : 0, rb = round_b ? sb->radius : 0, best = 0;
    const rg__event_move *move_a = &w->events.moves[m->a], *move_b = &w->events.moves[m->b];
    rg_vec3 n = round_b && !round_a ? rg__event_turned(move_a, m->normal) : rg__event_turned(move_b, m->normal);
    for (k = 0; k < m->count; ++k) {
        const rg__contact_point *c = &m->points[k];
        rg_vec3 core_b = rg__event_moved(move_b, rg_v3_madd(c->point, m->normal, -rb));
        rg_vec3 core_a = rg__event_moved(move_a, rg_v3_madd(c->point, m->normal, ra - c->depth));
        rg_vec3 nk = n, line = rg_v3_sub(core_a, core_b);
        rg_real depth;
        if (round_a && round_b && rg_v3_length_squared(line) > 0) nk = rg_v3_normalize(line);
        depth = rg_v3_dot(rg_v3_sub(core_b, core_a), nk) + ra + rb;
        if (k == 0 || depth > best) {
            best = depth;
            *point = rg_v3_madd(core_b, nk, rb);
            *normal = nk;
        }
    }
    return best;
}

/* t joins the pooled pair p of the same shapes: the deeper end point, the deeper start point's
   approach speed (p's on ties: it comes first). */
static void rg__event_pool(rg__event_touch *p, const rg__event_touch *t) {
    if (t->depth > p->depth) {
        p->depth = t->depth;
        p->point = t->point;
        p->normal = t->normal;
    }
    if (t->start_depth > p->start_depth) {
        p->start_depth = t->start_depth;
        p->approach_speed = t->approach_speed;
    }
}

/* Manifold i carried to the step's end as a touch of its pair of shapes, into events.touches[i]. */
static void rg__event_touch_of(rg_world *w, int i) {
    const rg__pair_manifold *m = &w->narrowphase.manifolds[i];
    rg__event_touch *t = &w->events.touches[i];
    t->pair = rg__event_pair_of(w, m->shape_a, m->shape_b);
    t->depth = rg__event_carry(w, m, &t->point, &t->normal);
    t->start_depth = m->points[rg__event_deepest(m)].depth;
    t->approach_speed = i < (int)stbds_arrlen(w->events.approach) ? w->events.approach[i] : 0;
    t->order = i;
}

static void rg__event_touch_range(int start, int end, int worker, void *context) {
    rg_world *w = (rg_world *)context;
    int i;
    (void)worker;
    for (i = start; i < end; ++i) rg__event_touch_of(w, i);
}

/* This step's contact pairs into events.touches, one per pair of shapes, sorted by key: each
   manifold's touch (a task over the bodies' moves, then one over the manifolds), pooled in
   manifold order. The manifolds of one pair of shapes are consecutive (the narrow phase visits
   a body pair's shape pairs in order), so most pooling happens on the way; a pool after the sort
   catches the rest. */
static void rg__event_gather_touches(rg_world *w) {
    rg__events *ev = &w->events;
    int i, kept, n = (int)stbds_arrlen(w->narrowphase.manifolds);
    int moves = (int)stbds_arrlen(w->bodies) < (int)stbds_arrlen(w->narrowphase.bodies)
                    ? (int)stbds_arrlen(w->bodies) : (int)stbds_arrlen(w->narrowphase.bodies);
    stbds_arrsetlen(ev->moves, stbds_arrlen(w->bodies));
    rg__task_run(w, rg__event_move_range, moves, RG__EVENT_RANGE, w);
    stbds_arrsetlen(ev->touches, n);
    rg__task_run(w, rg__event_touch_range, n, RG__EVENT_RANGE, w);
    for (i = 0, kept = 0; i < n; ++i) {
        if (kept > 0 && ev->touches[kept - 1].pair.key == ev->touches[i].pair.key) {
            rg__event_pool(&ev->touches[kept - 1], &ev->touches[i]);
            continue;
        }
        if (kept != i) ev->touches[kept] = ev->touches[i];
        ++kept;
    }
    stbds_arrsetlen(ev->touches, kept);
    n = kept;
    stbds_arrsetlen(ev->touch_scratch, n);
    rg__event_sort(ev->touches, ev->touch_scratch, n, sizeof *ev->touches, rg__event_touch_less);
    for (i = 1, kept = n > 0; i < n; ++i) {
        if (ev->touches[i].pair.key == ev->touches[kept - 1].pair.key) rg__event_pool(&ev->touches[kept - 1], &ev->touches[i]);
        else ev->touches[kept++] = ev->touches[i];
    }
    stbds_arrsetlen(ev->touches, kept);
}

static rg_contact_begin_event rg__event_begin_of(const rg__event_touch *t) {
    rg_contact_begin_event e;
    e.shape_a = t->pair.shape_a;
    e.shape_b = t->pair.shape_b;
    e.body_a = t->pair.body_a;
    e.body_b = t->pair.body_b;
    e.point = t->point;
    e.normal = t->normal;
    e.approach_speed = t->approach_speed;
    return e;
}

/* Ended pairs (events.pairs) and those ended by destructions since the last step, sorted, as
   end events. */
static void rg__event_publish_ends(rg__events *ev) {
    int i, n;
    for (i = 0; i < (int)stbds_arrlen(ev->destroyed); ++i) stbds_arrput(ev->pairs, ev->destroyed[i]);
    stbds_arrsetlen(ev->destroyed, 0);
    rg__event_sort_pairs(&ev->pairs, &ev->pair_scratch);
    n = (int)stbds_arrlen(ev->pairs);
    stbds_arrsetlen(ev->ends, n);
    for (i = 0; i < n; ++i) {
        ev->ends[i].shape_a = ev->pairs[i].shape_a;
        ev->ends[i].shape_b = ev->pairs[i].shape_b;
        ev->ends[i].body_a = ev->pairs[i].body_a;
        ev->ends[i].body_b = ev->pairs[i].body_b;
    }
}

/* Is a touching pair that has no manifold this step still near: its bodies among the broad
   phase's pairs of the step (a binary search: they are in ascending order), one of them
   dynamic, not kept apart by a joint, its shapes' boxes overlapping, its filter passing? */
static int rg__event_still_near(const rg_world *w, const rg__event_pair *p) {
    const rg__shape *sa = &w->shapes[p->shape_a.index], *sb = &w->shapes[p->shape_b.index];
    const rg__body_pair *pairs = w->broadphase.pairs;
    int a = sa->body, b = sb->body, lo = 0, hi = (int)stbds_arrlen(pairs);
    uint64_t key = rg__broadphase_pair_key(a, b);
    if (w->bodies[a].type != RG_BODY_DYNAMIC && w->bodies[b].type != RG_BODY_DYNAMIC) return 0;
    if (rg__joint_blocks_pair(w, a, b)) return 0;
    if (!rg__shape_filters_pass(sa, sb) || !rg__event_boxes_overlap(sa->aabb_min, sa->aabb_max, sb->aabb_min, sb->aabb_max))
        return 0;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (rg__broadphase_pair_key(pairs[mid].a, pairs[mid].b) < key) lo = mid + 1;
        else hi = mid;
    }
    return lo < (int)stbds_arrlen(pairs) && rg__broadphase_pair_key(pairs[lo].a, pairs[lo].b) == key;
}

/* The touching set merged with this step's pairs (both by key): begins, ends, the new set. */
static void rg__event_update_contacts(rg_world *w) {
    rg__events *ev = &w->events;
    rg_real begin_at = -w->def.contact_tolerance, end_at = -RG__EVENT_END_TOLERANCES * w->def.contact_tolerance;
    int i = 0, j = 0, old_count, now_count;
    rg__event_pair *swap;
    rg__event_gather_touches(w);
    old_count = (int)stbds_arrlen(ev->touching);
    now_count = (int)stbds_arrlen(ev->touches);
    /* Invariant: a step's lists hold the most they can (every pair touching before ends, the
       destroyed ones too; every pair touching now begins), reserved as the touching sets grow,
       so that the first end or begin of a settled scene does not allocate. */
    stbds_arrsetcap(ev->pairs, old_count + (int)stbds_arrlen(ev->destroyed));
    stbds_arrsetcap(ev->pair_scratch, old_count + (int)stbds_arrlen(ev->destroyed));
    stbds_arrsetcap(ev->ends, old_count + (int)stbds_arrlen(ev->destroyed));
    stbds_arrsetcap(ev->begins, now_count);
    stbds_arrsetlen(ev->kept, 0);
    stbds_arrsetlen(ev->pairs, 0);
    stbds_arrsetlen(ev->begins, 0);
    while (i < old_count || j < now_count) {
        const rg__event_pair *old = i < old_count ? &ev->touching[i] : NULL;
        const rg__event_touch *now = j < now_count ? &ev->touches[j] : NULL;
        if (old && (!now || old->key < now->pair.key || (old->key == now->pair.key && !rg__event_same_pair(old, &now->pair)))) {
            /* no manifold this step (or a stale pair of the same slots: it ends) */
            int stale = now && old->key == now->pair.key;
            if (!stale && old->missed < RG__EVENT_MISSED_STEPS && rg__event_still_near(w, old)) {
                rg__event_pair carried = *old;
                ++carried.missed;
                stbds_arrput(ev->kept, carried);
            } else {
                stbds_arrput(ev->pairs, *old);
            }
            ++i;
        } else if (old && old->key == now->pair.key) {
            rg__event_pair carried = *old;
            carried.missed = 0;
            if (now->depth > end_at) stbds_arrput(ev->kept, carried);
            else stbds_arrput(ev->pairs, *old);
            ++i;
            ++j;
        } else {
            if (now->depth > begin_at) {
                stbds_arrput(ev->kept, now->pair);
                stbds_arrput(ev->begins, rg__event_begin_of(now));
            }
            ++j;
        }
    }
    swap = ev->touching;
    ev->touching = ev->kept;
    ev->kept = swap;
    rg__event_publish_ends(ev);
}

/* ---- >>event.sensor: sensors' overlaps at the step's end, the overlapping set ----------------- */

/* A body's pose now as the collisions take it (rg__narrowphase_pose_body's rule); 0 when it
   cannot be collided. */
static int rg__event_pose_now(const rg__body *body, rg__narrowphase_body *pose) {
    memset(pose, 0, sizeof *pose);
    pose->origin = rg__narrowphase_body_origin(body);
    pose->collidable = rg__v3_is_sane(pose->origin) && rg_quat_is_finite(body->orientation);
    if (pose->collidable) pose->rotation = rg_quat_normalize(body->orientation);
    return pose->collidable;
}

/* Do two shapes posed now touch or overlap (the collisions at margin 0)? A mesh against a
   convex shape: any of its triangles near it, from the front; two meshes never. */
static int rg__event_shapes_overlap(rg_world *w, const rg__shape *s, const rg__narrowphase_body *s_pose,
                                    const rg__shape *v, const rg__narrowphase_body *v_pose) {
    rg__narrowphase *np = &w->narrowphase;
    const rg__shape *mesh = s->type == RG_SHAPE_MESH ? s : v, *convex = s->type == RG_SHAPE_MESH ? v : s;
    const rg__narrowphase_body *mesh_pose = mesh == s ? s_pose : v_pose, *convex_pose = mesh == s ? v_pose : s_pose;
    rg__convex a, b;
    rg__triangle triangle;
    rg_manifold m;
    int k;
    if (s->type != RG_SHAPE_MESH && v->type != RG_SHAPE_MESH) {
        rg__narrowphase_convex_of(s, s_pose, &a);
        rg__narrowphase_convex_of(v, v_pose, &b);
        return rg__collide_convex(&a, &b, 0, NULL, &np->scratch, &m) > 0;
    }
    if (convex->type == RG_SHAPE_MESH) return 0;
    rg__narrowphase_convex_of(convex, convex_pose, &a);
    rg__narrowphase_query_mesh(np, mesh, mesh_pose, convex, convex_pose, 0);
    for (k = 0; k < (int)stbds_arrlen(np->triangles); ++k) {
        rg__narrowphase_triangle_of(mesh, mesh_pose, np->triangles[k], &triangle);
        if (rg__collide_convex_triangle(&a, &triangle, 0, &np->scratch, &m) > 0) return 1;
    }
    return 0;
}

/* The sensors of body s against the shapes of body v that they see: the overlapping pairs into
   events.pairs. */
static void rg__event_sense(rg_world *w, int s, int v) {
    const rg__body *sensor_body = &w->bodies[s], *visitor_body = &w->bodies[v];
    rg__narrowphase_body s_pose, v_pose;
    int is, iv, posed = 0;
    if (s == v || visitor_body->type == RG_BODY_STATIC) return;
    for (is = sensor_body->first_shape; is >= 0; is = w->shapes[is].next) {
        const rg__shape *sensor = &w->shapes[is];
        if (!sensor->is_sensor) continue;
        for (iv = visitor_body->first_shape; iv >= 0; iv = w->shapes[iv].next) {
            const rg__shape *visitor = &w->shapes[iv];
            if (visitor->is_sensor || !rg__shape_filters_pass(sensor, visitor) ||
                !rg__event_boxes_overlap(sensor->aabb_min, sensor->aabb_max, visitor->aabb_min, visitor->aabb_max))
                continue;
            if (!posed) posed = rg__event_pose_now(sensor_body, &s_pose) && rg__event_pose_now(visitor_body, &v_pose) ? 1 : -1;
            if (posed < 0) return;
            if (rg__event_shapes_overlap(w, sensor, &s_pose, visitor, &v_pose))
                stbds_arrput(w->events.pairs, rg__event_pair_of(w, is, iv));
        }
    }
}

/* This step's overlapping (sensor, visitor) pairs into events.pairs, sorted by key. */
static void rg__event_gather_overlaps(rg_world *w) {
    rg__events *ev = &w->events;
    int i, j, body_count = (int)stbds_arrlen(w->bodies), shape_count = (int)stbds_arrlen(w->shapes);
    int pair_count = (int)stbds_arrlen(w->broadphase.pairs), fixed_sensors = 0;
    stbds_arrsetlen(ev->pairs, 0);
    stbds_arrsetlen(ev->sensor_bodies, 0);
    stbds_arrsetlen(ev->has_sensor, body_count);
    if (body_count > 0) memset(ev->has_sensor, 0, (size_t)body_count);
    for (i = 0; i < shape_count; ++i) {
        const rg__shape *shape = &w->shapes[i];
        if (!(shape->generation & 1) || !shape->is_sensor || ev->has_sensor[shape->body]) continue;
        ev->has_sensor[shape->body] = 1;
        stbds_arrput(ev->sensor_bodies, shape->body);
        fixed_sensors += w->bodies[shape->body].type != RG_BODY_DYNAMIC;
    }
    if (stbds_arrlen(ev->sensor_bodies) == 0) return;
    for (i = 0; i < pair_count; ++i) {
        rg__body_pair pair = w->broadphase.pairs[i];
        if (ev->has_sensor[pair.a]) rg__event_sense(w, pair.a, pair.b);
        if (ev->has_sensor[pair.b]) rg__event_sense(w, pair.b, pair.a);
    }
    if (fixed_sensors > 0) {
        /* static and kinematic sensor bodies with kinematic bodies: pairs the broad phase leaves out */
        stbds_arrsetlen(ev->kinematic, 0);
        for (i = 0; i < body_count; ++i)
            if ((w->bodies[i].generation & 1) && w->bodies[i].type == RG_BODY_KINEMATIC && w->bodies[i].first_shape >= 0)
                stbds_arrput(ev->kinematic, i);
        for (i = 0; i < (int)stbds_arrlen(ev->sensor_bodies); ++i) {
            const rg__body *s = &w->bodies[ev->sensor_bodies[i]];
            if (s->type == RG_BODY_DYNAMIC) continue;
            for (j = 0; j < (int)stbds_arrlen(ev->kinematic); ++j) {
                const rg__body *k = &w->bodies[ev->kinematic[j]];
                if (rg__event_boxes_overlap(s->aabb_min, s->aabb_max, k->aabb_min, k->aabb_max))
                    rg__event_sense(w, ev->sensor_bodies[i], ev->kinematic[j]);
            }
        }
    }
    rg__event_sort_pairs(&ev->pairs, &ev->pair_scratch);
}

static rg_sensor_event rg__event_sensor_event_of(const rg__event_pair *p) {
    rg_sensor_event e;
    e.sensor = p->shape_a;
    e.visitor = p->shape_b;
    e.sensor_body = p->body_a;
    e.visitor_body = p->body_b;
    return e;
}

/* The overlapping set merged with this step's overlaps (both by key): begins, ends (with those
   of destructions since the last step, sorted), the new set. */
static void rg__event_update_sensors(rg_world *w) {
    rg__events *ev = &w->events;
    int i = 0, j = 0, old_count, now_count;
    rg__event_pair *swap;
    rg__event_gather_overlaps(w);
    old_count = (int)stbds_arrlen(ev->overlapping);
    now_count = (int)stbds_arrlen(ev->pairs);
    stbds_arrsetlen(ev->kept, 0);
    stbds_arrsetlen(ev->ended, 0);
    stbds_arrsetlen(ev->sensor_begins, 0);
    while (i < old_count || j < now_count) {
        const rg__event_pair *old = i < old_count ? &ev->overlapping[i] : NULL;
        const rg__event_pair *now = j < now_count ? &ev->pairs[j] : NULL;
        if (old && (!now || rg__event_pair_less(old, now))) {
            stbds_arrput(ev->ended, *old);
            ++i;
        } else if (old && rg__event_same_pair(old, now)) {
            stbds_arrput(ev->kept, *old);
            ++i;
            ++j;
        } else {
            stbds_arrput(ev->kept, *now);
            stbds_arrput(ev->sensor_begins, rg__event_sensor_event_of(now));
            ++j;
        }
    }
    swap = ev->overlapping;
    ev->overlapping = ev->kept;
    ev->kept = swap;
    for (i = 0; i < (int)stbds_arrlen(ev->destroyed_sensed); ++i) stbds_arrput(ev->ended, ev->destroyed_sensed[i]);
    stbds_arrsetlen(ev->destroyed_sensed, 0);
    rg__event_sort_pairs(&ev->ended, &ev->pair_scratch);
    stbds_arrsetlen(ev->sensor_ends, stbds_arrlen(ev->ended));
    for (i = 0; i < (int)stbds_arrlen(ev->ended); ++i) ev->sensor_ends[i] = rg__event_sensor_event_of(&ev->ended[i]);
}

/* ---- >>event.world: the step's entry, destructions, the getters -------------------------------- */

/* Called by rg_world_step once the positions are final: this step's events. */
static void rg__event_update(rg_world *w) {
    rg__event_update_contacts(w);
    rg__event_update_sensors(w);
}

/* Moves the pairs of `set` that involve the body or the shape (-1: none) to `ended`. */
static void rg__event_forget_in(rg__event_pair **set, rg__event_pair **ended, int body, int shape) {
    int i, kept = 0, n = (int)stbds_arrlen(*set);
    for (i = 0; i < n; ++i) {
        const rg__event_pair *p = &(*set)[i];
        if ((shape >= 0 && ((int)p->shape_a.index == shape || (int)p->shape_b.index == shape)) ||
            (body >= 0 && ((int)p->body_a.index == body || (int)p->body_b.index == body)))
            stbds_arrput(*ended, *p);
        else
            (*set)[kept++] = *p;
    }
    if (*set) stbds_arrsetlen(*set, kept);
}

/* Called by rg_body_destroy (the body's index, shape -1) and rg_shape_destroy (body -1, the
   shape's index) before it goes: its pairs leave the sets, and end in the next step's events. */
static void rg__event_forget(rg_world *w, int body, int shape) {
    rg__event_forget_in(&w->events.touching, &w->events.destroyed, body, shape);
    rg__event_forget_in(&w->events.overlapping, &w->events.destroyed_sensed, body, shape);
}

static void rg__event_destroy(rg_world *w) {
    rg__events *ev = &w->events;
    stbds_arrfree(ev->approach);
    stbds_arrfree(ev->moves);
    stbds_arrfree(ev->touching);
    stbds_arrfree(ev->overlapping);
    stbds_arrfree(ev->destroyed);
    stbds_arrfree(ev->destroyed_sensed);
    stbds_arrfree(ev->touches);
    stbds_arrfree(ev->touch_scratch);
    stbds_arrfree(ev->pairs);
    stbds_arrfree(ev->pair_scratch);
    stbds_arrfree(ev->kept);
    stbds_arrfree(ev->ended);
    stbds_arrfree(ev->sensor_bodies);
    stbds_arrfree(ev->kinematic);
    stbds_arrfree(ev->has_sensor);
    stbds_arrfree(ev->begins);
    stbds_arrfree(ev->ends);
    stbds_arrfree(ev->sensor_begins);
    stbds_arrfree(ev->sensor_ends);
}

RIGID_API rg_contact_events rg_world_contact_events(const rg_world *w) {
    rg_contact_events e;
    memset(&e, 0, sizeof e);
    if (!w) return e;
    e.begin = w->events.begins;
    e.begin_count = (int)stbds_arrlen(w->events.begins);
    e.end = w->events.ends;
    e.end_count = (int)stbds_arrlen(w->events.ends);
    return e;
}

RIGID_API rg_sensor_events rg_world_sensor_events(const rg_world *w) {
    rg_sensor_events e;
    memset(&e, 0, sizeof e);
    if (!w) return e;
    e.begin = w->events.sensor_begins;
    e.begin_count = (int)stbds_arrlen(w->events.sensor_begins);
    e.end = w->events.sensor_ends;
    e.end_count = (int)stbds_arrlen(w->events.sensor_ends);
    return e;
}

/* =============================================================================================
   >>solver: the method in brief, its tuning and data (Bender & Schmitt 2006,
   Guendelman et al. 2003)
   =============================================================================================

   One step (Guendelman §5): collisions with the velocities of the step's start; velocities
   advanced by gravity and forces; resting contacts resolved by predicting where the contact
   points will be after the step; positions advanced. Both loops are Bender & Schmitt's: every
   contact point is a constraint satisfied by iterated impulses whose sum per point is clamped so
   that it never pulls (eqs. 2-3), with Coulomb friction in the same loop (eqs. 4-6). Contacts are
   visited level by level up the contact graph (Guendelman §8.1), in an order mixed by a seeded
   shuffle (§6), and shock propagation ends the contact stage (§8.2).

   What this adds to the papers, each measured necessary (see the scene tests):
   - Speculative contacts (points within the margin, depth < 0): a collision whose gap closes
     during the step happens at its time of impact toi; the bodies move with their old velocities
     until toi and with the new ones after, so their position update gets the offset -dv toi
     besides v h (bounces reach the right height, landings do not hover). A gap may close but
     never pulls.
   - Penetration: the velocities remove it only up to a slop (RG__SLOP_FRACTION of
     contact_tolerance); beyond it, a first-order pass after the velocities are final moves the
     positions apart without changing velocities (Guendelman §11), so pushing bodies apart never
     shoots them off, and what the iterations left undone is removed in the same step. It sweeps
     up to 3 times contact_iterations: a heap's chains of wedged bodies are long.
   - A manifold whose points span a face (a patch) has its normal impulses, and its static
     friction, solved as one resultant about the patch's centre: Bender's eq. (1) for the
     resultant is a 3x3 system, exact where point-by-point sweeps converge slowly on coplanar
     points (20-cube stack: 39 shock sweeps a step where point by point takes 144).
     Points that would pull or leave their cones fall back to point-by-point impulses.
   - Warm starting carries each manifold's resultant (not its points' impulses, which drift on a
     flat patch) to the next step and spreads it over the new points.
   - The contact sweeps alternate their direction through the levels.
   - Shock propagation gives a level the impulses that fit it to the frozen level below but not
     their reactions, which creates energy where that level moves; each island of touching
     bodies keeps only as much of its change as adds no kinetic energy (islands touching a
     kinematic body, an energy source, excepted). */

/* Internal tuning, relative to the world def's contact_tolerance and step. */
#ifndef RG__CONTACT_EXIT_FRACTION
#define RG__CONTACT_EXIT_FRACTION ((rg_real)0.01) /* the first-order pass stops when every error is below this part of the tolerance */
#endif
#ifndef RG__CONTACT_SWEEPS_EXIT
#define RG__CONTACT_SWEEPS_EXIT ((rg_real)0.05)   /* contact sweeps stop when every error is below this part of the tolerance */
#endif
#ifndef RG__SHOCK_EXIT_FRACTION
#define RG__SHOCK_EXIT_FRACTION ((rg_real)1e-3)   /* shock propagation converges a level further: its errors add up the stack */
#endif
#ifndef RG__SHOCK_INNER
#define RG__SHOCK_INNER 5                         /* sweeps of a level per shock iteration, while it has errors */
#endif
#ifndef RG__SHOCK_STALL
#define RG__SHOCK_STALL ((rg_real)0.95)           /* a level stops when a sweep leaves more than this part of the error before it */
#endif
#ifndef RG__SHOCK_STALL_AFTER
#define RG__SHOCK_STALL_AFTER 2                   /* ... from its third sweep on */
#endif
#ifndef RG__SHOCK_STALL_BELOW
#define RG__SHOCK_STALL_BELOW ((rg_real)0.1)      /* ... if that error is below this part of the tolerance */
#endif
#ifndef RG__SLOP_FRACTION
#define RG__SLOP_FRACTION ((rg_real)0.1)          /* penetration the velocity may remove; beyond it the first-order pass does */
#endif
#ifndef RG__PUSHOUT_RATE
#define RG__PUSHOUT_RATE ((rg_real)60)            /* 1/s: the fastest the velocity removes penetration within the slop */
#endif
#ifndef RG__COLLISION_RELATIVE_TOLERANCE
#define RG__COLLISION_RELATIVE_TOLERANCE ((rg_real)1e-3) /* collision loop: velocity error / approach speed */
#endif
#ifndef RG__COLLISION_THRESHOLD_FRACTION
#define RG__COLLISION_THRESHOLD_FRACTION ((rg_real)0.1) /* collision loop: velocity error / resting criterion */
#endif
#ifndef RG__SEPARATION_SWEEPS
#define RG__SEPARATION_SWEEPS 3                   /* sweeps of the first-order pass per contact iteration */
#endif
#ifndef RG__ALTERNATE
#define RG__ALTERNATE 1                           /* every other contact sweep runs down the levels */
#endif
#ifndef RG__CONTACT_STALL_AFTER
#define RG__CONTACT_STALL_AFTER 2                 /* contact sweeps stop once they stall, from the third on: */
#endif
#ifndef RG__CONTACT_STALL
#define RG__CONTACT_STALL ((rg_real)0.7)          /* a sweep whose error is above this part of the best so far */
#endif
#ifndef RG__CONTACT_STALL_ABOVE
#define RG__CONTACT_STALL_ABOVE ((rg_real)0.1)    /* and above this part of the tolerance */
#endif
#ifndef RG__GRAPH_VERTICAL
#define RG__GRAPH_VERTICAL ((rg_real)0.1)         /* |n . up| above which a pair rests one on the other */
#endif
#ifndef RG__STILL_FRACTION
#define RG__STILL_FRACTION ((rg_real)0.1)         /* sliding slower than this part of the tolerance per step is none */
#endif
#ifndef RG__WARM_ALIGNMENT
#define RG__WARM_ALIGNMENT ((rg_real)0.995)       /* cos of the largest turn of a normal that still carries a warm start */
#endif
#ifndef RG__WARM_MAX_RATIO
#define RG__WARM_MAX_RATIO ((rg_real)4)           /* a step this many times longer than the last starts its contacts cold */
#endif
#ifndef RG__WARM_REACH
#define RG__WARM_REACH ((rg_real)2)               /* hull radii from b's centre of mass beyond which a carried point is not on b */
#endif
#ifndef RG__LINEAR_TURN
#define RG__LINEAR_TURN ((rg_real)0.003)          /* radians per step below which an arm's turn is linear to 5e-6 of its length */
#endif

/* Frees the solver's arrays. */
static void rg__solver_destroy(rg_world *w) {
    rg__solver *s = &w->solver;
    stbds_arrfree(s->bodies);
    stbds_arrfree(s->manifolds);
    stbds_arrfree(s->points);
    stbds_arrfree(s->order);
    stbds_arrfree(s->level_start);
    stbds_arrfree(s->group_begin);
    stbds_arrfree(s->group_end);
    stbds_arrfree(s->group_items);
    stbds_arrfree(s->group_next);
    stbds_arrfree(s->pair_level);
    stbds_arrfree(s->pair_first);
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
    stbds_arrfree(s->island);
    stbds_arrfree(s->island_sums);
    stbds_arrfree(s->manifold_power);
    stbds_arrfree(s->shock_start_v);
    stbds_arrfree(s->shock_start_w);
    stbds_arrfree(s->stage_start_v);
    stbds_arrfree(s->stage_start_w);
    stbds_arrfree(s->shock_parent);
    stbds_arrfree(s->shock_child_start);
    stbds_arrfree(s->shock_children);
    stbds_arrfree(s->shock_stack);
    stbds_arrfree(s->shock_root);
    stbds_arrfree(s->shock_patch);
    stbds_arrfree(s->shock_link);
    stbds_arrfree(s->shock_moved);
    stbds_arrfree(s->shock_tips);
    stbds_arrfree(s->shock_mass);
    stbds_arrfree(s->shock_first);
    stbds_arrfree(s->shock_inertia);
    stbds_arrfree(s->shock_composites);
    stbds_arrfree(s->shock_arms);
    stbds_arrfree(s->report);
    stbds_arrfree(s->separation_active);
    stbds_arrfree(s->separation_pairs);
    stbds_arrfree(s->separation_points);
    stbds_arrfree(s->body_pairs_start);
    stbds_arrfree(s->body_pairs);
    stbds_arrfree(s->approaching);
    stbds_arrfree(s->joint_rows);
    stbds_arrfree(s->joint_levels);
    stbds_arrfree(s->joint_row_of);
    stbds_arrfree(s->joint_queue);
    stbds_arrfree(s->joint_order);
    stbds_arrfree(s->joint_parent);
    stbds_arrfree(s->joint_loop);
    stbds_arrfree(s->joint_shocked);
    stbds_arrfree(s->joint_loads);
    stbds_arrfree(s->joint_group);
    stbds_arrfree(s->joint_energy);
    stbds_arrfree(s->joint_offsets);
    stbds_arrfree(s->joint_start_rates);
}

/* =============================================================================================
   >>integrate: free motion: velocities and positions over a step (Guendelman §5 steps 3 and 5)
   ============================================================================================= */

/* Semi-implicit gyroscopic term (body frame) by the implicit midpoint rule: solve
   I (w1 - w0) + h wm x (I wm) = 0 with wm = (w0 + w1)/2 by Newton's method. The midpoint rule
   keeps every quadratic invariant of Euler's equations, |L|^2 and the kinetic energy, so a
   tumbling asymmetric body neither gains nor loses energy; explicit Euler would blow up and
   implicit Euler would damp. */
static rg_vec3 rg__integrate_gyroscopic_step(rg_mat3 inertia, rg_vec3 omega0, rg_real h) {
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
        rg_vec3 next = rg_v3_sub(omega1, rg_mat3_solve(jacobian, residual));
        /* converged to rounding: another iteration would compute the same step again */
        if (next.x == omega1.x && next.y == omega1.y && next.z == omega1.z) break;
        omega1 = next;
    }
    return omega1;
}

/* The gyroscopic step's parts: at most RG__GYROSCOPIC_TURN radians of turn each, at most
   RG__GYROSCOPIC_PARTS of them (rg__integrate_gyroscopic). */
#ifndef RG__GYROSCOPIC_TURN
#define RG__GYROSCOPIC_TURN ((rg_real)0.5)
#endif
#ifndef RG__GYROSCOPIC_PARTS
#define RG__GYROSCOPIC_PARTS 64
#endif
/* Is the inertia k times the identity (a cube, a sphere, a regular polyhedron)? Then w x (I w)
   = k w x w vanishes and the gyroscopic term leaves w as it is. */
static int rg__integrate_inertia_is_spherical(rg_mat3 inertia) {
    rg_real k = inertia.m[0][0];
    return inertia.m[1][1] == k && inertia.m[2][2] == k && inertia.m[0][1] == 0 && inertia.m[0][2] == 0 &&
           inertia.m[1][0] == 0 && inertia.m[1][2] == 0 && inertia.m[2][0] == 0 && inertia.m[2][1] == 0;
}

/* Twice the kinetic energy of a spin w, with w divided by `scale` first. */
static rg_real rg__integrate_spin_energy(rg_mat3 inertia, rg_vec3 omega, rg_real scale) {
    omega = rg_v3(omega.x / scale, omega.y / scale, omega.z / scale);
    return rg_v3_dot(omega, rg_mat3_mul_v3(inertia, omega));
}

/* The gyroscopic term over a step. The implicit midpoint rule on Euler's equations conserves
   the energy and |L| when solved, but Newton's iterations (rg__integrate_gyroscopic_step)
   converge from omega0 only while the body turns by less than about a radian in the step (box
   turning 11.5 rad a step: they diverge). So the step is split into parts of at most RG__GYROSCOPIC_TURN
   radians (up to RG__GYROSCOPIC_PARTS of them), and if an absurd spin still leaves the parts too
   long, the result is scaled back to the energy it started with. Invariant: the gyroscopic term
   never adds kinetic energy, also where w^T I w overflows rg_real (then the energies are
   compared with w divided by w0's largest component). */
static rg_vec3 rg__integrate_gyroscopic(rg_mat3 inertia, rg_vec3 omega0, rg_real h) {
    rg_real turn = rg_v3_length(omega0) * h, energy0, energy1;
    rg_vec3 omega1 = omega0;
    int parts = 1, i;
    if (!(turn <= RG__GYROSCOPIC_TURN)) {
        parts = turn < RG__GYROSCOPIC_TURN * RG__GYROSCOPIC_PARTS ? (int)(turn / RG__GYROSCOPIC_TURN) + 1
                                                                    : RG__GYROSCOPIC_PARTS;
    }
    for (i = 0; i < parts; ++i) omega1 = rg__integrate_gyroscopic_step(inertia, omega1, h / (rg_real)parts);
    if (parts == 1) return omega1;
    energy0 = rg__integrate_spin_energy(inertia, omega0, 1);
    energy1 = rg__integrate_spin_energy(inertia, omega1, 1);
    if (!rg__is_finite_real(energy0 + energy1)) {
        /* w^T I w overflowed, and inf <= inf would let any gain through: the energies are
           compared with w divided by w0's largest component */
        rg_real largest = rg__max_abs3(omega0.x, omega0.y, omega0.z);
        energy0 = rg__integrate_spin_energy(inertia, omega0, largest);
        energy1 = rg__integrate_spin_energy(inertia, omega1, largest);
    }
    if (!(energy1 <= energy0))
        omega1 = energy1 > 0 && rg__is_finite_real(energy1) && energy0 >= 0 ? rg_v3_scale(omega1, rg__sqrt(energy0 / energy1))
                                                                           : omega0;
    return omega1;
}

#define RG__LOCK_LINEAR (RG_LOCK_LINEAR_X | RG_LOCK_LINEAR_Y | RG_LOCK_LINEAR_Z)
#define RG__LOCK_ANGULAR (RG_LOCK_ANGULAR_X | RG_LOCK_ANGULAR_Y | RG_LOCK_ANGULAR_Z)

/* A body's world inertia R I R^T. */
static rg_mat3 rg__integrate_inertia_in_world(const rg__body *body) {
    return rg__mat3_rotate_tensor(rg_mat3_from_quat(body->orientation), body->inertia_local);
}

/* Angular locks: the body turns only about the free world axes F, so an angular impulse L turns
   it by w_F = (I_FF)^-1 L_F, the constraint taking L's locked part. Its world inverse inertia is
   therefore the inverse of the world inertia's free block, zero on the locked rows and columns
   (zeroing those of I^-1 instead is wrong wherever I couples free and locked axes). The locked
   diagonal keeps its entry and the off-diagonals go, so the inverse stays within the inertia's
   range; that part of the inverse is then cleared. */
static void rg__integrate_locked_inertia(rg__body *body) {
    rg_mat3 inertia = rg__integrate_inertia_in_world(body), inverse;
    int i, j;
    for (i = 0; i < 3; ++i) {
        if (!(body->locks & ((uint32_t)RG_LOCK_ANGULAR_X << i))) continue;
        for (j = 0; j < 3; ++j)
            if (j != i) inertia.m[i][j] = inertia.m[j][i] = 0;
    }
    inverse = rg_mat3_inverse(inertia);
    for (i = 0; i < 3; ++i) {
        if (!(body->locks & ((uint32_t)RG_LOCK_ANGULAR_X << i))) continue;
        for (j = 0; j < 3; ++j) inverse.m[i][j] = inverse.m[j][i] = 0;
    }
    body->inv_inertia_world = inverse;
}

/* The locks on velocities that gravity, forces and the gyroscopic term changed: the locked linear
   components zero (the mass is the same along every axis), and the spin the one about the free
   axes with the same angular momentum there, (I_FF)^-1 (I w)_F: the constraint's torque acts
   about the locked axes only. */
static void rg__integrate_lock_velocities(rg__body *body) {
    uint32_t locks = body->locks;
    if (locks & RG_LOCK_LINEAR_X) body->linear_velocity.x = 0;
    if (locks & RG_LOCK_LINEAR_Y) body->linear_velocity.y = 0;
    if (locks & RG_LOCK_LINEAR_Z) body->linear_velocity.z = 0;
    if (locks & RG__LOCK_ANGULAR) {
        rg_vec3 momentum = rg_mat3_mul_v3(rg__integrate_inertia_in_world(body), body->angular_velocity);
        body->angular_velocity = rg_mat3_mul_v3(body->inv_inertia_world, momentum);
    }
}

/* Damping, after gravity and forces (Box2D's implicit form): v *= 1 / (1 + h c), exactly
   v0 (1 + h c)^-n after n steps, v0 e^(-c t) as h goes to zero, and never a reversal however
   large h c. Then the locks. */
static void rg__integrate_controls(rg__body *body, rg_real h) {
    if (body->linear_damping > 0)
        body->linear_velocity = rg_v3_scale(body->linear_velocity, 1 / (1 + h * body->linear_damping));
    if (body->angular_damping > 0)
        body->angular_velocity = rg_v3_scale(body->angular_velocity, 1 / (1 + h * body->angular_damping));
    if (body->locks) rg__integrate_lock_velocities(body);
}

/* A body's linear acceleration over a step from gravity (times its gravity scale) and its force;
   zero unless dynamic. */
static rg_vec3 rg__integrate_linear_acceleration(const rg_world *w, const rg__body *body) {
    if (body->type != RG_BODY_DYNAMIC) return rg_v3(0, 0, 0);
    return rg_v3_madd(rg_v3_scale(w->def.gravity, body->gravity_scale), body->force, body->inv_mass);
}

/* Guendelman §5 step 3: velocities from gravity (times the body's scale), applied forces and
   torques, and the gyroscopic term of Euler's equations; then damping and locks. */
static void rg__integrate_velocity(const rg_world *w, rg__body *body, rg_real h) {
    rg_mat3 rotation;
    rg_vec3 omega_local;
    if (!(body->generation & 1) || body->type != RG_BODY_DYNAMIC) return;
    body->linear_velocity = rg_v3_madd(body->linear_velocity, rg__integrate_linear_acceleration(w, body), h);
    body->angular_velocity = rg_v3_madd(body->angular_velocity, rg_mat3_mul_v3(body->inv_inertia_world, body->torque), h);
    if (!rg__integrate_inertia_is_spherical(body->inertia_local)) {
        rotation = rg_mat3_from_quat(body->orientation);
        omega_local = rg_mat3_mul_v3(rg_mat3_transpose(rotation), body->angular_velocity);
        omega_local = rg__integrate_gyroscopic(body->inertia_local, omega_local, h);
        body->angular_velocity = rg_mat3_mul_v3(rotation, omega_local);
    }
    if (body->linear_damping > 0 || body->angular_damping > 0 || body->locks) rg__integrate_controls(body, h);
}

/* The fewest bodies a worker integrates at once (>>task). */
#define RG__INTEGRATE_RANGE 256

/* A task over body slots: each integrates its own body. */
typedef struct rg__integrate_task {
    rg_world *w;
    rg_real h;
} rg__integrate_task;

static void rg__integrate_velocity_range(int start, int end, int worker, void *context) {
    const rg__integrate_task *t = (const rg__integrate_task *)context;
    int i;
    (void)worker;
    for (i = start; i < end; ++i) rg__integrate_velocity(t->w, &t->w->bodies[i], t->h);
}

static void rg__integrate_velocities(rg_world *w, rg_real h) {
    rg__integrate_task task;
    task.w = w;
    task.h = h;
    rg__task_run(w, rg__integrate_velocity_range, (int)stbds_arrlen(w->bodies), RG__INTEGRATE_RANGE, &task);
}

/* A dynamic body's world inverse inertia R I^-1 R^T, for its orientation (restricted to the free
   axes when it has angular locks). */
static void rg__integrate_world_inertia(rg__body *body) {
    if (body->type != RG_BODY_DYNAMIC) return;
    if (body->locks & RG__LOCK_ANGULAR) {
        rg__integrate_locked_inertia(body);
        return;
    }
    /* R (k 1) R^T = k 1: a spherical inertia is the same in every frame */
    if (rg__integrate_inertia_is_spherical(body->inertia_local)) {
        body->inv_inertia_world = body->inv_inertia_local;
        return;
    }
    body->inv_inertia_world = rg__mat3_rotate_tensor(rg_mat3_from_quat(body->orientation),
                                                     body->inv_inertia_local);
}

/* Guendelman §5 step 5: x += v h, and the orientation turned by the exact rotation of w h. The
   solver's offsets of this step (time of impact, first-order separation) are added to both. */
static void rg__integrate_position(const rg_world *w, int i, rg_real h, int offsets) {
    rg__body *body = &w->bodies[i];
    rg_vec3 move, turn;
    if (!(body->generation & 1) || body->type == RG_BODY_STATIC) return;
    move = rg_v3_scale(body->linear_velocity, h);
    turn = rg_v3_scale(body->angular_velocity, h);
    if (offsets && body->type == RG_BODY_DYNAMIC) {
        move = rg_v3_add(move, w->solver.bodies[i].dx);
        turn = rg_v3_add(turn, w->solver.bodies[i].dr);
    }
    body->com = rg_v3_add(body->com, move);
    body->orientation = rg_quat_normalize(rg_quat_mul(rg_quat_from_rotation_vector(turn), body->orientation));
    rg__integrate_world_inertia(body);
}

static void rg__integrate_position_range(int start, int end, int worker, void *context) {
    const rg__integrate_task *t = (const rg__integrate_task *)context;
    int i, offsets = t->w->solver.ready && stbds_arrlen(t->w->solver.bodies) == stbds_arrlen(t->w->bodies);
    (void)worker;
    for (i = start; i < end; ++i) rg__integrate_position(t->w, i, t->h, offsets);
}

static void rg__integrate_positions(rg_world *w, rg_real h) {
    rg__integrate_task task;
    task.w = w;
    task.h = h;
    rg__task_run(w, rg__integrate_position_range, (int)stbds_arrlen(w->bodies), RG__INTEGRATE_RANGE, &task);
    w->solver.ready = 0;
}

/* Invariant: a turn's products in rg__integrate_turn_of stay finite. A rotation vector longer
   than RG__TURN_LARGEST radians, whose |theta|^2 could overflow rg_real, is taken modulo a full
   turn (the same rotation). The linear part theta x r that callers add with their own theta does
   not match at such turns; no step of physics turns 1e12 rad, but the result stays finite. */
#ifndef RG__TURN_LARGEST
#define RG__TURN_LARGEST ((rg_real)1e12)
#endif
static rg_vec3 rg__integrate_turn_within_largest(rg_vec3 theta) {
    rg_real angle = rg__v3_length_scaled(theta);
    if (!rg__is_finite_real(angle) || angle == 0) return rg_v3(0, 0, 0);
    return rg_v3_scale(theta, rg__fmod(angle, (rg_real)(2 * 3.14159265358979323846)) / angle);
}

/* R(theta) r - r for the rotation by the rotation vector theta, by Rodrigues' formula:
   (sin t / t) theta x r + ((1 - cos t) / t^2) theta x (theta x r), t = |theta|. Below t = 0.1 the
   two coefficients come from their Taylor series, exact to rounding there and free of the
   cancellation in 1 - cos t. This is Bender's eq. (7) integrated exactly over the step. */
static rg__turn rg__integrate_turn_of(rg_vec3 theta) {
    rg__turn turn;
    rg_real t = rg_v3_dot(theta, theta);
    if (!(t <= RG__TURN_LARGEST * RG__TURN_LARGEST)) {
        theta = rg__integrate_turn_within_largest(theta);
        t = rg_v3_dot(theta, theta);
    }
    turn.theta = theta;
    if (t < (rg_real)0.01) {
        turn.a_less_1 = -t / 6 * (1 - t / 20 * (1 - t / 42));
        turn.a = 1 + turn.a_less_1;
        turn.b = (rg_real)0.5 * (1 - t / 12 * (1 - t / 30 * (1 - t / 56)));
    } else {
        rg_real angle = rg__sqrt(t);
        turn.a = rg__sin(angle) / angle;
        turn.a_less_1 = turn.a - 1;
        turn.b = (1 - rg__cos(angle)) / t;
    }
    return turn;
}

/* R(theta) r - r for an arm r, with the turn's coefficients from rg__integrate_turn_of. */
static rg_vec3 rg__integrate_turn_apply(const rg__turn *turn, rg_vec3 r) {
    rg_vec3 c = rg_v3_cross(turn->theta, r);
    return rg_v3_add(rg_v3_scale(c, turn->a), rg_v3_scale(rg_v3_cross(turn->theta, c), turn->b));
}

/* R(theta) r - r for one arm r (rg__integrate_turn_of, then rg__integrate_turn_apply). */
static rg_vec3 rg__integrate_rotation_change(rg_vec3 theta, rg_vec3 r) {
    rg__turn turn = rg__integrate_turn_of(theta);
    return rg__integrate_turn_apply(&turn, r);
}

/* The part of an arm r's turn by theta that is not linear in theta: R(theta) r - r - theta x r.
   By Rodrigues' formula it is (a - 1) theta x r + b theta x (theta x r) = (a - 1) theta x r +
   b ((theta . r) theta - |theta|^2 r), linear in r: this matrix times r. */
static rg_mat3 rg__integrate_curvature_of(const rg__turn *turn) {
    rg_vec3 th = turn->theta, s = rg_v3_scale(th, turn->a_less_1), bt = rg_v3_scale(th, turn->b);
    rg_real diagonal = turn->b * rg_v3_dot(th, th);
    rg_mat3 c;
    c.m[0][0] = bt.x * th.x - diagonal;
    c.m[1][1] = bt.y * th.y - diagonal;
    c.m[2][2] = bt.z * th.z - diagonal;
    c.m[0][1] = bt.x * th.y - s.z; /* skew(s) + b theta theta^T */
    c.m[1][0] = bt.y * th.x + s.z;
    c.m[0][2] = bt.x * th.z + s.y;
    c.m[2][0] = bt.z * th.x - s.y;
    c.m[1][2] = bt.y * th.z - s.x;
    c.m[2][1] = bt.z * th.y + s.x;
    return c;
}

/* =============================================================================================
   >>impulse: impulses at a contact: pushes, effective masses, a face's resultant, friction (Bender §2)
   ============================================================================================= */

/* Bender §3: u_rel = u_a - u_b, the velocity of a's contact point relative to b's, here along a
   direction d, with the arms' cross products ra x d and rb x d. */
static inline rg_real rg__impulse_speed(const rg__solver_body *A, const rg__solver_body *B, rg_vec3 d,
                                       rg_vec3 rad, rg_vec3 rbd) {
    return (A->v.x - B->v.x) * d.x + (A->v.y - B->v.y) * d.y + (A->v.z - B->v.z) * d.z +
           rg_v3_dot(A->w, rad) - rg_v3_dot(B->w, rbd);
}

/* The effective masses of pairs with a linearly locked body take their own functions, kept out of
   the loops they branch off from. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__TINYC__)
#define RG__COLD __attribute__((noinline, cold))
#else
#define RG__COLD
#endif

/* A body's inverse mass along each world axis: zero along its locked ones. */
static rg_vec3 rg__impulse_axis_inverse_mass(const rg__solver_body *body) {
    return rg_v3(body->locked & RG_LOCK_LINEAR_X ? 0 : body->inv_mass, body->locked & RG_LOCK_LINEAR_Y ? 0 : body->inv_mass,
                 body->locked & RG_LOCK_LINEAR_Z ? 0 : body->inv_mass);
}

/* Linear locks in a push: the inverse mass is zero along a locked world axis, so the push's
   component there is zero. The body's velocity and offset components there are zero before
   every push (gathered so, and changed only by pushes and by scalings about velocities that have
   them zero), so dropping what the scalar inverse mass added gives exactly M^-1 d j with those
   zeros. Inline: a call on the hot path makes the compiler save registers around it (pyramid:
   locks cost 2.6% more instructions with the push calling out, 1.2% with this). */
static inline void rg__impulse_keep_locked(rg__solver_body *body) {
    int locked = body->locked;
    if (locked & RG_LOCK_LINEAR_X) body->v.x = body->dx.x = 0;
    if (locked & RG_LOCK_LINEAR_Y) body->v.y = body->dx.y = 0;
    if (locked & RG_LOCK_LINEAR_Z) body->v.z = body->dx.z = 0;
}

/* The impulse j d at a's point and -j d at b's, with wa = I_a^-1 (ra x d), wb = I_b^-1 (rb x d).
   A collision applies it at time toi of the step: the bodies moved with their old velocities
   until then, so their position updates lose dv * toi. Linear locks: rg__impulse_keep_locked. */
static inline void rg__impulse_push(rg__solver_body *A, rg__solver_body *B, rg_vec3 d, rg_vec3 wa, rg_vec3 wb,
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
    if (A->locked | B->locked) {
        rg__impulse_keep_locked(A);
        rg__impulse_keep_locked(B);
    }
}

/* A friction impulse j1 t1 + j2 t2 of a point, as one push of unit size along it. */
static inline void rg__impulse_push_tangent(rg__solver_body *A, rg__solver_body *B, const rg__solver_manifold *m,
                                           const rg__solver_point *p, rg_real j1, rg_real j2, rg_real toi) {
    rg_vec3 d = rg_v3_add(rg_v3_scale(m->t1, j1), rg_v3_scale(m->t2, j2));
    rg_vec3 wa = rg_v3_add(rg_v3_scale(p->wa1, j1), rg_v3_scale(p->wa2, j2));
    rg_vec3 wb = rg_v3_add(rg_v3_scale(p->wb1, j1), rg_v3_scale(p->wb2, j2));
    if (j1 != 0 || j2 != 0) rg__impulse_push(A, B, d, wa, wb, 1, toi);
}

/* A body's turn per unit angular impulse about `axis`, I^-1 axis: zero for a frozen body (no
   products needed). */
static rg_vec3 rg__impulse_body_turn(const rg__solver_body *body, rg_vec3 axis) {
    return body->frozen ? rg_v3(0, 0, 0) : rg_mat3_mul_v3(body->inv_inertia, axis);
}

/* An angular impulse L on a and -L on b (Guendelman §9's area impulse without a point part). */
static void rg__impulse_apply_angular(rg__solver_body *A, rg__solver_body *B, rg_vec3 L) {
    A->w = rg_v3_add(A->w, rg__impulse_body_turn(A, L));
    B->w = rg_v3_sub(B->w, rg__impulse_body_turn(B, L));
}

/* Which of a pair's bodies have infinite mass now: 1 for a, 2 for b. A solver body's inverse
   mass and inertia are the body's own or, frozen, zero (rg__prepare_gather_bodies,
   rg__prepare_body_freeze, rg__separate's unfreezing), so this says which masses the
   Jacobian pieces below were computed with. */
static int rg__impulse_frozen_pair(const rg__solver *s, const rg__solver_manifold *m) {
    return (s->bodies[m->a].frozen ? 1 : 0) | (s->bodies[m->b].frozen ? 2 : 0);
}

/* Invariant: a point's turns per unit impulse on one body are finite, or all three zero (then
   the point pushes that body without turning it). A feather's inverse inertia times a long arm
   can exceed rg_real, and inf times a zero impulse is NaN. One test of the nine components' sum
   serves (it is inf or NaN when one of them is): turns whose sum overflows though each is finite
   (above rg_real's largest / 9, per unit impulse) are rounding too and go the same way (stack:
   testing each component costs 3% of a step). */
static void rg__impulse_keep_finite_turns(rg_vec3 *tn, rg_vec3 *t1, rg_vec3 *t2) {
    rg_real sum = tn->x + tn->y + tn->z + t1->x + t1->y + t1->z + t2->x + t2->y + t2->z;
    if (rg__is_finite_real(sum)) return;
    *tn = *t1 = *t2 = rg_v3(0, 0, 0);
}

/* One body's turns per unit impulse along n, t1, t2 from its arms' cross products with them. */
static void rg__impulse_side_turns(const rg__solver_body *body, rg_vec3 rn, rg_vec3 r1, rg_vec3 r2, rg_vec3 *wn,
                                   rg_vec3 *w1, rg_vec3 *w2) {
    *wn = rg__impulse_body_turn(body, rn);
    *w1 = rg__impulse_body_turn(body, r1);
    *w2 = rg__impulse_body_turn(body, r2);
    rg__impulse_keep_finite_turns(wn, w1, w2);
}

/* A point's turns per unit impulse, I^-1 (r x d) for d = n, t1, t2: a's when `sides` has 1, b's
   when it has 2 (those of the other body stay as they are). */
static void rg__impulse_point_turns(const rg__solver *s, const rg__solver_manifold *m, rg__solver_point *p, int sides) {
    if (sides & 1) rg__impulse_side_turns(&s->bodies[m->a], p->ran, p->ra1, p->ra2, &p->wan, &p->wa1, &p->wa2);
    if (sides & 2) rg__impulse_side_turns(&s->bodies[m->b], p->rbn, p->rb1, p->rb2, &p->wbn, &p->wb1, &p->wb2);
}

/* The linear part of K along d and e, d^T (M_a^-1 + M_b^-1) e, with a locked body's inverse
   mass a diagonal matrix (zero on its locked axes), the others' a multiple of the identity. */
static rg_real rg__impulse_linear_mass(const rg__solver_body *A, const rg__solver_body *B, rg_vec3 d, rg_vec3 e) {
    rg_vec3 a = rg__impulse_axis_inverse_mass(A), b = rg__impulse_axis_inverse_mass(B);
    return d.x * e.x * (a.x + b.x) + d.y * e.y * (a.y + b.y) + d.z * e.z * (a.z + b.z);
}

/* rg__impulse_point_inverse_masses for a pair with a linearly locked body: the linear part of K
   along n, t1, t2 per axis (rg__impulse_linear_mass), t1 and t2 then coupled. */
RG__COLD static void rg__impulse_point_inverse_masses_locked(const rg__solver_body *A, const rg__solver_body *B,
                                                            const rg__solver_manifold *m, rg__solver_point *p) {
    rg_real knn = rg__impulse_linear_mass(A, B, m->n, m->n) + rg_v3_dot(p->ran, p->wan) + rg_v3_dot(p->rbn, p->wbn);
    rg_real k11 = rg__impulse_linear_mass(A, B, m->t1, m->t1) + rg_v3_dot(p->ra1, p->wa1) + rg_v3_dot(p->rb1, p->wb1);
    rg_real k12 = rg__impulse_linear_mass(A, B, m->t1, m->t2) + rg_v3_dot(p->ra1, p->wa2) + rg_v3_dot(p->rb1, p->wb2);
    rg_real k22 = rg__impulse_linear_mass(A, B, m->t2, m->t2) + rg_v3_dot(p->ra2, p->wa2) + rg_v3_dot(p->rb2, p->wb2);
    rg_real det = k11 * k22 - k12 * k12;
    p->normal_mass = knn > 0 ? 1 / knn : 0;
    if (det > 0) {
        p->i11 = k22 / det;
        p->i12 = -k12 / det;
        p->i22 = k11 / det;
    } else {
        p->i11 = p->i12 = p->i22 = 0;
    }
}

/* Bender eq. (1): K = K_a + K_b with K_x = 1/m I - r* J^-1 r*. From the arms' cross products and
   the turns per unit impulse (rg__impulse_point_turns) for the bodies' current inverse masses:
   n^T K n (as 1 / itself) and K on the tangent plane, inverted. */
static void rg__impulse_point_inverse_masses(const rg__solver *s, const rg__solver_manifold *m, rg__solver_point *p) {
    const rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    rg_real im = A->inv_mass + B->inv_mass, knn, k11, k12, k22;
    if (A->locked | B->locked) {
        rg__impulse_point_inverse_masses_locked(A, B, m, p);
        return;
    }
    /* a frozen body's turns are zero (rg__impulse_body_turn): its terms are left out */
    knn = k11 = k22 = im;
    k12 = 0;
    if (!A->frozen) {
        knn += rg_v3_dot(p->ran, p->wan);
        k11 += rg_v3_dot(p->ra1, p->wa1);
        k12 = rg_v3_dot(p->ra1, p->wa2);
        k22 += rg_v3_dot(p->ra2, p->wa2);
    }
    if (!B->frozen) {
        knn += rg_v3_dot(p->rbn, p->wbn);
        k11 += rg_v3_dot(p->rb1, p->wb1);
        k12 += rg_v3_dot(p->rb1, p->wb2);
        k22 += rg_v3_dot(p->rb2, p->wb2);
    }
    p->normal_mass = knn > 0 ? 1 / knn : 0;
    {
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

/* The masses of a manifold's points (turns and inverse masses, above) for the bodies' current
   inverse masses: again when shock propagation gives a body infinite mass, or the first-order
   pass takes it back. Only a body whose mass changed since the last time needs its turns again;
   the other's are the same numbers. */
static void rg__impulse_points_masses(const rg__solver *s, rg__solver_manifold *m) {
    int frozen = rg__impulse_frozen_pair(s, m), changed = frozen ^ m->points_frozen, k;
    if (!changed) return;
    for (k = 0; k < m->count; ++k) {
        rg__solver_point *p = &s->points[m->first + k];
        rg__impulse_point_turns(s, m, p, changed);
        rg__impulse_point_inverse_masses(s, m, p);
    }
    m->points_frozen = frozen;
}

/* The arms' cross products of a point (ra x d, rb x d for d = n, t1, t2), fixed for the step,
   and its masses for both bodies (the manifold's points_frozen is the caller's to set). */
static void rg__impulse_point_jacobians(const rg__solver *s, const rg__solver_manifold *m, rg__solver_point *p) {
    p->ran = rg_v3_cross(p->ra, m->n);
    p->rbn = rg_v3_cross(p->rb, m->n);
    p->ra1 = rg_v3_cross(p->ra, m->t1);
    p->rb1 = rg_v3_cross(p->rb, m->t1);
    p->ra2 = rg_v3_cross(p->ra, m->t2);
    p->rb2 = rg_v3_cross(p->rb, m->t2);
    rg__impulse_point_turns(s, m, p, 3);
    rg__impulse_point_inverse_masses(s, m, p);
}

/* A patch whose second moments' determinant is below RG__LINE_PATCH trace^2 is a line. */
#ifndef RG__LINE_PATCH
#define RG__LINE_PATCH ((rg_real)1e-4)
#endif
typedef struct rg__patch_moments {
    rg_real sxx, sxz, szz, trace, det;
} rg__patch_moments;

/* The second moments of points at (x, z) about their centre (the coordinates given centred),
   with their trace and determinant: a patch whose trace is below n narrow^2 is a point, one
   whose determinant is below RG__LINE_PATCH trace^2 a line. */
static rg__patch_moments rg__impulse_patch_moments_of(const rg_real *x, const rg_real *z, int n) {
    rg__patch_moments mo;
    int i;
    mo.sxx = mo.sxz = mo.szz = 0;
    for (i = 0; i < n; ++i) {
        mo.sxx += x[i] * x[i];
        mo.sxz += x[i] * z[i];
        mo.szz += z[i] * z[i];
    }
    mo.trace = mo.sxx + mo.szz;
    mo.det = mo.sxx * mo.szz - mo.sxz * mo.sxz;
    return mo;
}

/* A patch (see rg__solver_manifold): three or more points, every one touching, that span a face
   wider than `narrow` in both directions. Each point's normal impulse p_i acts on the bodies
   only through the resultant (N, Mx, Mz) = sum p_i (1, x_i, z_i), (x_i, z_i) the point's place
   in the patch about its centre, and the relative normal velocity at the point is affine in
   (x_i, z_i): u_i = u_c + s1 x_i + s2 z_i. So Bender's eq. (1), written for the resultant, is a
   3x3 system; its solution moves the patch at once, where point-by-point Gauss-Seidel converges
   slowly on four coplanar points (each corner's impulse tilts the face the others then correct;
   100-row pyramid: point by point, its levels do not converge in 100 sweeps). Fills the points'
   places, the inverse of their second moments and the cross products of the centre's arms; the
   mass is rg__impulse_patch_mass's. */
/* The arms of a patch's centre on a and b (the mean of its points'), crossed with n, t1, t2. */
static void rg__impulse_patch_arms(const rg__solver *s, rg__solver_manifold *m, rg_vec3 *centre_a, rg_vec3 *centre_b) {
    const rg__solver_point *points = &s->points[m->first];
    rg_vec3 ra = rg_v3(0, 0, 0), rb = rg_v3(0, 0, 0);
    int k;
    for (k = 0; k < m->count; ++k) {
        ra = rg_v3_add(ra, points[k].ra);
        rb = rg_v3_add(rb, points[k].rb);
    }
    ra = rg_v3_scale(ra, 1 / (rg_real)m->count);
    rb = rg_v3_scale(rb, 1 / (rg_real)m->count);
    m->patch_ran = rg_v3_cross(ra, m->n);
    m->patch_rbn = rg_v3_cross(rb, m->n);
    m->patch_ra1 = rg_v3_cross(ra, m->t1);
    m->patch_rb1 = rg_v3_cross(rb, m->t1);
    m->patch_ra2 = rg_v3_cross(ra, m->t2);
    m->patch_rb2 = rg_v3_cross(rb, m->t2);
    *centre_a = ra;
    *centre_b = rb;
}

static void rg__impulse_patch_shape(rg__solver *s, rg__solver_manifold *m, rg_real slop, rg_real narrow) {
    rg__solver_point *points = &s->points[m->first];
    rg_vec3 ra, rb;
    rg_real x[RG_MANIFOLD_MAX], z[RG_MANIFOLD_MAX], count = (rg_real)m->count;
    rg__patch_moments mo;
    int k;
    m->patch = 0;
    if (m->count < 3) return;
    for (k = 0; k < m->count; ++k)
        if (!(points[k].depth >= -slop)) return;
    rg__impulse_patch_arms(s, m, &ra, &rb);
    for (k = 0; k < m->count; ++k) {
        rg_vec3 r = rg_v3_sub(points[k].ra, ra);
        x[k] = points[k].patch_x = rg_v3_dot(r, m->t1);
        z[k] = points[k].patch_z = rg_v3_dot(r, m->t2);
        points[k].patch_an = rg_v3_dot(r, m->n);
        points[k].patch_bn = rg_v3_dot(rg_v3_sub(points[k].rb, rb), m->n);
    }
    mo = rg__impulse_patch_moments_of(x, z, m->count);
    if (!(mo.trace > count * narrow * narrow) || !(mo.det > RG__LINE_PATCH * mo.trace * mo.trace)) return;
    m->patch_sxx = mo.szz / mo.det;
    m->patch_sxz = -mo.sxz / mo.det;
    m->patch_szz = mo.sxx / mo.det;
    m->patch_r2 = mo.trace;
    m->patch_radius = 0;
    m->patch = 1;
}

/* A patch's normal resultant (N, Mx, Mz about its centre) spread affinely over its points, the
   least-norm split, into `load`; returns 0 if a point would pull (the face lifts at an edge). */
static inline int rg__impulse_patch_loads(const rg__solver *s, const rg__solver_manifold *m, rg_real N, rg_real Mx, rg_real Mz,
                                          rg_real *load) {
    const rg__solver_point *points = &s->points[m->first];
    rg_real bx = m->patch_sxx * Mx + m->patch_sxz * Mz, bz = m->patch_sxz * Mx + m->patch_szz * Mz;
    rg_real count = (rg_real)m->count;
    int j;
    for (j = 0; j < m->count; ++j) {
        load[j] = N / count + bx * points[j].patch_x + bz * points[j].patch_z;
        if (!(load[j] >= 0)) return 0;
    }
    return 1;
}

/* A sticking patch's normal and friction resultants solved together: the normal change alone
   is a = K_nn^-1 fit (the patch_mass times the normal fit), the friction's alone -K_ff^-1 d (d
   the drift of the centre and the twist rate); each turns the bodies and so moves the other's
   velocities (friction at the contact plane turns the body about its centre of mass). With C
   the normal rows' Jacobians times friction's turns per unit, the changes (dn, df) meet
   K_nn dn + C df = K_nn a and C^T dn + K_ff df = -d, solved by eliminating dn. Without this
   coupling, one normal visit and one friction visit in turn leave about 60% of a sticking
   patch's error each time (a cube on a frozen one). */
static void rg__impulse_patch_coupled(const rg__solver_manifold *m, rg_vec3 a, rg_vec3 d, rg_vec3 *dn, rg_vec3 *df) {
    *df = rg_mat3_mul_v3(m->patch_schur_inverse, rg_v3_sub(rg_v3_neg(d), rg_mat3_mul_v3(m->patch_coupling_t, a)));
    *dn = rg_v3_sub(a, rg_mat3_mul_v3(m->patch_shifted, *df));
}

/* (a b)_ij and (a b^T)_ij. */
static inline rg_real rg__impulse_product_entry(const rg_mat3 *a, const rg_mat3 *b, int i, int j) {
    return a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
}
static inline rg_real rg__impulse_rows_dot(const rg_mat3 *a, const rg_mat3 *b, int i, int j) {
    return a->m[i][0] * b->m[j][0] + a->m[i][1] * b->m[j][1] + a->m[i][2] * b->m[j][2];
}

/* Column j of the coupling C of rg__impulse_patch_coupled, into row j of C^T: the normal parts'
   Jacobians (as rg__impulse_patch_mass_of has them) times friction's turns per unit of part j.
   The normal parts but the first have the same axis (`cross`) on both bodies. */
static inline void rg__impulse_coupling_column(const rg__solver_manifold *m, const rg_vec3 *cross, int j, rg_mat3 *ct) {
    rg_vec3 both = rg_v3_add(m->patch_fa[j], m->patch_fb[j]);
    ct->m[j][0] = rg_v3_dot(m->patch_ran, m->patch_fa[j]) + rg_v3_dot(m->patch_rbn, m->patch_fb[j]);
    ct->m[j][1] = rg_v3_dot(cross[0], both);
    ct->m[j][2] = rg_v3_dot(cross[1], both);
}

/* The matrices of rg__impulse_patch_coupled for the patch's current masses: C^T, K_nn^-1 C and
   (K_ff - C^T K_nn^-1 C)^-1 (zero when singular: then the coupled solve changes nothing and
   fails its checks), from K_ff's upper triangle `friction_k` and the normal resultant's axes
   t1 x n and t2 x n (`cross`). The Schur complement is symmetric: its upper triangle is
   computed and inverted as such. */
static void rg__impulse_patch_coupling(const rg__solver *s, rg__solver_manifold *m, const rg_vec3 *cross,
                                       const rg_real *friction_k) {
    const rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    const rg_mat3 *kn = &m->patch_mass;
    rg_mat3 ct, *shifted = &m->patch_shifted;
    rg_real schur[6];
    int i;
    rg__impulse_coupling_column(m, cross, 0, &ct);
    rg__impulse_coupling_column(m, cross, 1, &ct);
    rg__impulse_coupling_column(m, cross, 2, &ct);
    ct.m[0][0] += rg__impulse_linear_mass(A, B, m->n, m->t1);
    ct.m[1][0] += rg__impulse_linear_mass(A, B, m->n, m->t2);
    m->patch_coupling_t = ct;
    /* K_nn^-1 C: K_nn^-1 is symmetric, so its row i dotted with C's column j */
    for (i = 0; i < 3; ++i) {
        shifted->m[i][0] = rg__impulse_rows_dot(kn, &ct, i, 0);
        shifted->m[i][1] = rg__impulse_rows_dot(kn, &ct, i, 1);
        shifted->m[i][2] = rg__impulse_rows_dot(kn, &ct, i, 2);
    }
    schur[0] = friction_k[0] - rg__impulse_product_entry(&ct, shifted, 0, 0);
    schur[1] = friction_k[1] - rg__impulse_product_entry(&ct, shifted, 0, 1);
    schur[2] = friction_k[2] - rg__impulse_product_entry(&ct, shifted, 0, 2);
    schur[3] = friction_k[3] - rg__impulse_product_entry(&ct, shifted, 1, 1);
    schur[4] = friction_k[4] - rg__impulse_product_entry(&ct, shifted, 1, 2);
    schur[5] = friction_k[5] - rg__impulse_product_entry(&ct, shifted, 2, 2);
    rg__mat3_symmetric_inverse(schur, &m->patch_schur_inverse);
}

/* One body's turns per unit of a resultant's three parts (I^-1 axis) and its share of the
   resultant's K, axis_r . I^-1 axis_c, as the upper triangle of that symmetric matrix (row by row);
   both zero for a frozen body. */
static void rg__impulse_resultant_share(const rg__solver_body *body, const rg_vec3 *axis, rg_vec3 *turn, rg_real *share) {
    if (body->frozen) {
        turn[0] = turn[1] = turn[2] = rg_v3(0, 0, 0);
        share[0] = share[1] = share[2] = share[3] = share[4] = share[5] = 0;
        return;
    }
    turn[0] = rg_mat3_mul_v3(body->inv_inertia, axis[0]);
    turn[1] = rg_mat3_mul_v3(body->inv_inertia, axis[1]);
    turn[2] = rg_mat3_mul_v3(body->inv_inertia, axis[2]);
    share[0] = rg_v3_dot(axis[0], turn[0]);
    share[1] = rg_v3_dot(axis[0], turn[1]);
    share[2] = rg_v3_dot(axis[0], turn[2]);
    share[3] = rg_v3_dot(axis[1], turn[1]);
    share[4] = rg_v3_dot(axis[1], turn[2]);
    share[5] = rg_v3_dot(axis[2], turn[2]);
}

/* The linear entries of a resultant's K (rg__impulse_resultant_mass, upper triangle k) for a
   pair with a linearly locked body: per axis along the linear directions, which it couples. */
RG__COLD static void rg__impulse_resultant_locked_mass(const rg__solver_body *A, const rg__solver_body *B,
                                                      const rg_vec3 *along, int linear, const rg_real *share_a,
                                                      const rg_real *share_b, rg_real *k) {
    k[0] = share_a[0] + share_b[0] + rg__impulse_linear_mass(A, B, along[0], along[0]);
    if (linear < 2) return;
    k[1] = share_a[1] + share_b[1] + rg__impulse_linear_mass(A, B, along[0], along[1]);
    k[3] = share_a[3] + share_b[3] + rg__impulse_linear_mass(A, B, along[1], along[1]);
}

/* K of a resultant with three parts, whose Jacobians are (linear_r, axis_a[r]) on a and their
   negatives, with axis_b[r], on b; the first `linear` parts have the orthonormal linear
   directions `along` (used when a body has linear locks), the others none. Fills a's turns per
   unit of each part and its share of K (rg__impulse_resultant_share) when `sides` has 1 and b's
   when it has 2 (the others are kept: their body's mass did not change), K's upper triangle `k`
   and K's inverse; returns 0 if K cannot be inverted. */
static inline int rg__impulse_resultant_mass(const rg__solver_body *A, const rg__solver_body *B, const rg_vec3 *axis_a,
                                     const rg_vec3 *axis_b, const rg_vec3 *along, int linear, int sides, rg_vec3 *wa,
                                     rg_vec3 *wb, rg_real *share_a, rg_real *share_b, rg_real *k, rg_mat3 *inverse) {
    rg_real im = A->inv_mass + B->inv_mass;
    if (sides & 1) rg__impulse_resultant_share(A, axis_a, wa, share_a);
    if (sides & 2) rg__impulse_resultant_share(B, axis_b, wb, share_b);
    k[0] = share_a[0] + share_b[0] + im;
    k[1] = share_a[1] + share_b[1];
    k[2] = share_a[2] + share_b[2];
    k[3] = share_a[3] + share_b[3] + (linear > 1 ? im : 0);
    k[4] = share_a[4] + share_b[4];
    k[5] = share_a[5] + share_b[5];
    if (A->locked | B->locked) rg__impulse_resultant_locked_mass(A, B, along, linear, share_a, share_b, k);
    rg__mat3_symmetric_inverse(k, inverse);
    return inverse->m[0][0] > 0 && inverse->m[1][1] > 0 && inverse->m[2][2] > 0;
}

/* K for the patch's resultants, inverted once, when the bodies' masses are set (again when
   shock propagation freezes one): the normal one, rows and columns (N, Mx, Mz) with Jacobians
   (n, r_c x n), (0, t1 x n) and (0, t2 x n) on a, and friction's, (F1, F2, T) with (t1, r_c x t1),
   (t2, r_c x t2) and (0, n); both negated on b, whose arms are its own. The turns are computed
   for the bodies in `sides` (1 a, 2 b: rg__impulse_resultant_mass), the others kept. */
static void rg__impulse_patch_mass_of(const rg__solver *s, rg__solver_manifold *m, int sides) {
    const rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    rg_vec3 axis_a[3], axis_b[3], along[2], cross[2];
    rg_real k[6];
    m->patch_frozen = rg__impulse_frozen_pair(s, m);
    if (!m->patch) return;
    cross[0] = rg_v3_cross(m->t1, m->n);
    cross[1] = rg_v3_cross(m->t2, m->n);
    axis_a[0] = m->patch_ran;
    axis_b[0] = m->patch_rbn;
    axis_a[1] = axis_b[1] = cross[0];
    axis_a[2] = axis_b[2] = cross[1];
    along[0] = m->n;
    m->patch = rg__impulse_resultant_mass(A, B, axis_a, axis_b, along, 1, sides, m->patch_wa, m->patch_wb,
                                         m->patch_share_a, m->patch_share_b, k, &m->patch_mass);
    if (!m->patch) return;
    axis_a[0] = m->patch_ra1;
    axis_a[1] = m->patch_ra2;
    axis_b[0] = m->patch_rb1;
    axis_b[1] = m->patch_rb2;
    axis_a[2] = axis_b[2] = m->n;
    along[0] = m->t1;
    along[1] = m->t2;
    m->patch = rg__impulse_resultant_mass(A, B, axis_a, axis_b, along, 2, sides, m->patch_fa, m->patch_fb,
                                         m->patch_friction_share_a, m->patch_friction_share_b, k,
                                         &m->patch_friction_mass);
    if (m->patch) rg__impulse_patch_coupling(s, m, cross, k);
}

/* The patch's masses for the bodies' current inverse masses, if they changed since the last
   time (a body frozen or taken back): only the changed body's turns are computed again. */
static void rg__impulse_patch_mass(const rg__solver *s, rg__solver_manifold *m) {
    int changed = rg__impulse_frozen_pair(s, m) ^ m->patch_frozen;
    if (changed) rg__impulse_patch_mass_of(s, m, changed);
}

/* A's turn for a resultant `change` of a patch, with turns[] per unit of each part. */
static rg_vec3 rg__impulse_resultant_turn(const rg_vec3 *turns, rg_vec3 change) {
    return rg_v3_add(rg_v3_scale(turns[0], change.x),
                     rg_v3_add(rg_v3_scale(turns[1], change.y), rg_v3_scale(turns[2], change.z)));
}

/* A resultant `change` of a patch on a and its opposite on b: the linear impulse `force` and
   the turns per unit of each part. A frozen body (infinite mass: shock propagation's finished
   levels) keeps its velocities, so it is not touched. */
static void rg__impulse_push_resultant(rg__solver_body *A, rg__solver_body *B, rg_vec3 force, rg_vec3 change,
                                      const rg_vec3 *turns_a, const rg_vec3 *turns_b) {
    if (!A->frozen) {
        A->v = rg_v3_madd(A->v, force, A->inv_mass);
        A->w = rg_v3_add(A->w, rg__impulse_resultant_turn(turns_a, change));
        if (A->locked) rg__impulse_keep_locked(A);
    }
    if (!B->frozen) {
        B->v = rg_v3_madd(B->v, force, -B->inv_mass);
        B->w = rg_v3_sub(B->w, rg__impulse_resultant_turn(turns_b, change));
        if (B->locked) rg__impulse_keep_locked(B);
    }
}

/* The Jacobian pieces of every point of a manifold and of its patch, for the bodies' current
   masses. */
static void rg__impulse_manifold_jacobians(const rg__solver *s, rg__solver_manifold *m) {
    rg__impulse_points_masses(s, m);
    rg__impulse_patch_mass(s, m);
}

/* For a sliding point: the change d = P - pt of its friction impulse changes the energy by
   d.u + d^T K d / 2 (K the tangential mass matrix, the inverse of (i11 i12; i12 i22)). Where
   that is positive the change is scaled to s d with s = -d.u / d^T K d (no change when d.u >= 0),
   the most energy removed along d; then kept in the cone of `limit`. */
static void rg__impulse_dissipative_friction(const rg__solver_point *p, rg_real u1, rg_real u2, rg_real limit,
                                            rg_real *P1, rg_real *P2) {
    rg_real d1 = *P1 - p->pt1, d2 = *P2 - p->pt2, det = p->i11 * p->i22 - p->i12 * p->i12;
    rg_real a = d1 * u1 + d2 * u2, b, scale, length2;
    if (!(det > 0)) return;
    b = (p->i22 * d1 * d1 - 2 * p->i12 * d1 * d2 + p->i11 * d2 * d2) / det; /* d^T K d */
    if (!(a + b / 2 > 0)) return;
    scale = a < 0 && b > 0 ? -a / b : 0;
    *P1 = p->pt1 + scale * d1;
    *P2 = p->pt2 + scale * d2;
    length2 = *P1 * *P1 + *P2 * *P2;
    if (length2 > limit * limit) {
        rg_real shrink = limit / rg__sqrt(length2);
        *P1 *= shrink;
        *P2 *= shrink;
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
   is set). Where the tangential mass is anisotropic (a corner far from the centre of mass), an
   impulse against the sliding direction can turn the sliding around instead of slowing it, and
   the next visit turns it back, each flip adding energy (cube landing on a corner: spins 4 times
   faster); so the change of a sliding point's impulse is shortened to what removes the most
   energy along it, never more (rg__impulse_dissipative_friction): friction only dissipates.
   Writes the impulse to apply to (d1, d2). */
static inline void rg__impulse_friction(rg__solver_point *p, rg_real mu_s, rg_real mu_d, rg_real e1, rg_real e2,
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
            /* Invariant: the sliding direction u / |u| and the impulse along it are finite
               where |u|^2, or the limit times u, overflows rg_real (inf / inf would give a NaN
               direction): then |u| is taken without overflow and u / |u| before the product. */
            if (!(speed <= RG__REAL_MAX)) speed = rg_v3_length(rg_v3(u1, u2, 0));
            if (speed > 0) {
                P1 = -limit * u1 / speed;
                P2 = -limit * u2 / speed;
                if (!rg__is_finite_real(P1) || !rg__is_finite_real(P2)) {
                    P1 = -limit * (u1 / speed);
                    P2 = -limit * (u2 / speed);
                }
                rg__impulse_dissipative_friction(p, u1, u2, limit, &P1, &P2);
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
static void rg__impulse_rolling(rg__solver *s, rg__solver_manifold *m) {
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
            rg__impulse_apply_angular(A, B, rg_v3_scale(m->n, next - m->spin));
            m->spin = next;
        }
    }
    if (m->rolling_friction > 0) {
        rg_vec3 wrel = rg_v3_sub(A->w, B->w);
        rg_vec3 kt1 = rg_mat3_mul_v3(k, m->t1), kt2 = rg_mat3_mul_v3(k, m->t2);
        rg_real k11 = rg_v3_dot(m->t1, kt1), k12 = rg_v3_dot(m->t1, kt2), k22 = rg_v3_dot(m->t2, kt2);
        /* the 2x2 inverse of k divided by its trace, so that the determinant stays finite
           where the square of a feather's inverse inertia would overflow rg_real */
        rg_real trace = k11 + k22, det;
        if (trace > 0) {
            k11 /= trace;
            k12 /= trace;
            k22 /= trace;
        }
        det = (k11 * k22 - k12 * k12) * trace;
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
            rg__impulse_apply_angular(A, B, rg_v3_add(rg_v3_scale(m->t1, J1 - m->roll1),
                                                     rg_v3_scale(m->t2, J2 - m->roll2)));
            m->roll1 = J1;
            m->roll2 = J2;
        }
    }
}

static int rg__impulse_has_friction(const rg__solver_manifold *m) {
    return m->static_friction > 0 || m->dynamic_friction > 0;
}

/* A friction resultant (F1, F2 and the twist T about the patch's centre) split over points at
   (x, z) about that centre that carry the normal impulses `normal`: in proportion to each
   point's normal share (so that the points' cones hold when the resultant fits the patch's),
   plus a twist about the centre of pressure p making up the rest: with s = r - p, sum share s = 0
   keeps the force, and the twist about the centre is p x F + tau sum share |s|^2. A load on a
   spot narrower than `narrow` cannot twist: then only the force is spread, and the twist it
   could not carry is returned (-1 when no point carries a load). */
static inline rg_real rg__impulse_spread_friction(const rg_real *normal, const rg_real *x, const rg_real *z, int n,
                                          rg_real F1, rg_real F2, rg_real T, rg_real narrow, rg_real *f1,
                                          rg_real *f2) {
    rg_real sum = 0, px = 0, pz = 0, r2 = 0, tau = 0, twist, share[RG_MANIFOLD_MAX];
    int i;
    for (i = 0; i < n; ++i) sum += normal[i];
    if (!(sum > 0)) return -1;
    for (i = 0; i < n; ++i) {
        share[i] = normal[i] / sum;
        px += share[i] * x[i];
        pz += share[i] * z[i];
    }
    for (i = 0; i < n; ++i) {
        rg_real sx = x[i] - px, sz = z[i] - pz;
        r2 += share[i] * (sx * sx + sz * sz);
    }
    twist = T - (px * F2 - pz * F1);
    if (r2 > narrow * narrow) tau = twist / r2;
    for (i = 0; i < n; ++i) {
        f1[i] = share[i] * (F1 - tau * (z[i] - pz));
        f2[i] = share[i] * (F2 + tau * (x[i] - px));
    }
    return r2 > narrow * narrow ? 0 : rg__fabs(twist);
}

/* A patch's friction limit: its limit surface (Goyal, Ruina & Papadopoulos 1991). A flat patch
   under the pressure p(r), sliding at u at its centre of pressure o and spinning at w about n,
   resists with the force F and the twist T about o that mu p gives each spot against its own
   sliding. Pure sliding gives |F| = mu N; pure spinning |T| = mu N e, with e the patch's
   effective radius, the mean distance from o under the pressure,
     e = (1 / N) integral p(r) |r - o| dA.
   The points' normal impulses as point loads would give sum p_i |r_i - o| / N: the corners of a
   square of half side h carry the twist at sqrt 2 h, uniform pressure over it at
   (sqrt 2 + ln(1 + sqrt 2)) / 3 h = 0.7652 h, so four corners stop a spinning cube in 54% of the
   time. Between the two ends the surface is taken as the ellipsoid, as engines with torsional
   friction do,
     |F|^2 + (T / e)^2 <= (mu N)^2,
   exact at both ends, whose point of maximal dissipation for the motion (u, w) is
     (F, T) = -mu N (u, e^2 w) / sqrt(|u|^2 + e^2 w^2).
   The area is the convex polygon of the patch's points (a clipped face lying flat), the pressure
   the affine field over it with the points' force and moments at the contact stage's start
   (rg__impulse_patch_radius). u, w and T are taken at the patch's centre, not at the centre of
   pressure of the loads being iterated: a spin about an off-centre o slides o, whose force tips
   the pressure further through friction's moment, a loop the sweeps amplify (cube of half side
   2 m, mu 0.8: drifted sideways and stopped spinning 17% early). */

/* Twice the signed area of the triangle of points a, b, c at (x, z): positive counter-clockwise. */
static inline rg_real rg__impulse_turn(const rg_real *x, const rg_real *z, int a, int b, int c) {
    return (x[b] - x[a]) * (z[c] - z[a]) - (z[b] - z[a]) * (x[c] - x[a]);
}

/* Whether n >= 3 points at (x, z) are already a convex polygon in their order (a clipped face's
   are): every turn strictly the same way round, and the edges' direction going round once. It
   turns by less than half a turn at each vertex, so n <= 4 vertices cannot go round twice, and
   beyond that its x changes sign twice a round. Returns 1 counter-clockwise, -1 clockwise, 0
   otherwise (collinear or repeated points among them). */
static int rg__impulse_patch_convex(const rg_real *x, const rg_real *z, int n) {
    rg_real ex = x[0] - x[n - 1], ez = z[0] - z[n - 1]; /* the edge into point 0 */
    int i, left = 0, right = 0, changes = 0;
    for (i = 0; i < n; ++i) {
        int j = i + 1 < n ? i + 1 : 0;
        rg_real fx = x[j] - x[i], fz = z[j] - z[i], turn = ex * fz - ez * fx;
        left += turn > 0;
        right += turn < 0;
        changes += (ex > 0) != (fx > 0);
        ex = fx;
        ez = fz;
    }
    return n > 4 && changes != 2 ? 0 : left == n ? 1 : right == n ? -1 : 0;
}

/* The convex polygon, counter-clockwise in (x, z), of n points at (x, z): the points themselves
   when they are one already, otherwise Andrew's monotone chain after a stable insertion sort by
   x, then z; its vertices to (px, pz), their number returned (below 3: no area). */
static int rg__impulse_patch_polygon(const rg_real *x, const rg_real *z, int n, rg_real *px, rg_real *pz) {
    int order[RG_MANIFOLD_MAX], hull[2 * RG_MANIFOLD_MAX], i, j, k = 0, lower;
    int convex = n >= 3 ? rg__impulse_patch_convex(x, z, n) : 0;
    if (convex > 0) {
        for (i = 0; i < n; ++i) {
            px[i] = x[i];
            pz[i] = z[i];
        }
        return n;
    }
    if (convex < 0) {
        for (i = 0; i < n; ++i) {
            px[i] = x[n - 1 - i];
            pz[i] = z[n - 1 - i];
        }
        return n;
    }
    for (i = 0; i < n; ++i) {
        for (j = i; j > 0 && (x[order[j - 1]] > x[i] || (x[order[j - 1]] == x[i] && z[order[j - 1]] > z[i])); --j)
            order[j] = order[j - 1];
        order[j] = i;
    }
    for (i = 0; i < n; ++i) { /* the lower chain, left to right */
        while (k >= 2 && !(rg__impulse_turn(x, z, hull[k - 2], hull[k - 1], order[i]) > 0)) --k;
        hull[k++] = order[i];
    }
    for (i = n - 2, lower = k + 1; i >= 0; --i) { /* the upper chain, back */
        while (k >= lower && !(rg__impulse_turn(x, z, hull[k - 2], hull[k - 1], order[i]) > 0)) --k;
        hull[k++] = order[i];
    }
    for (i = 0; i < k - 1; ++i) { /* the chain ends where it began */
        px[i] = x[hull[i]];
        pz[i] = z[hull[i]];
    }
    return k - 1;
}

/* ln x for x > 0 in plain arithmetic (the same bits from every compiler and libm): x = 2^k m with
   m in [1 / sqrt 2, sqrt 2], ln m = 2 atanh u, u = (m - 1) / (m + 1) within 0.1716, by its series
   to u^11 (error below 2e-11). */
static rg_real rg__impulse_log(rg_real x) {
    rg_real k = 0, u, u2;
    if (!(x > 0 && x <= RG__REAL_MAX)) return x > 0 ? x : 0;
    for (; x > 65536; k += 16) x *= (rg_real)(1.0 / 65536.0);
    for (; x > (rg_real)1.4142135623730951; k += 1) x *= (rg_real)0.5;
    for (; x < (rg_real)(1.0 / 65536.0); k -= 16) x *= 65536;
    for (; x < (rg_real)0.7071067811865476; k -= 1) x *= 2;
    u = (x - 1) / (x + 1);
    u2 = u * u;
    return k * (rg_real)0.6931471805599453 +
           2 * u * (1 + u2 * ((rg_real)(1.0 / 3) + u2 * ((rg_real)(1.0 / 5) + u2 * ((rg_real)(1.0 / 7) +
                    u2 * ((rg_real)(1.0 / 9) + u2 * (rg_real)(1.0 / 11))))));
}

/* Along the segment q(t) = a + t (b - a), t in [0, 1], with ra = |a| and rb = |b|: integral |q| dt
   to *i0 and integral (beta . q) |q| dt to *i1, in closed form. With d = b - a, L = |d|, s the
   signed distance along d from the foot f of the origin on the line and h = |f| (s = a.d / L at
   a, b.d / L at b), |q| = sqrt(s^2 + h^2) and dt = ds / L:
     integral |q| dt = [s r + h^2 ln(s + r)] / (2 L),  integral s |q| dt = [r^3] / (3 L),
   and beta . q = beta . f + s beta . d / L. ln(s + r) differs between the ends without
   cancelling: s + r = h^2 / (r - s) where s < 0. Its term is dropped when h^2 is below 1e-12 of
   ra^2 + rb^2 (the origin on the line: it weighs less than 1e-10 of the rest). */
static void rg__impulse_segment_integrals(rg_real ax, rg_real az, rg_real bx, rg_real bz, rg_real ra, rg_real rb,
                                          rg_real betax, rg_real betaz, rg_real *i0, rg_real *i1) {
    rg_real dx = bx - ax, dz = bz - az, dd = dx * dx + dz * dz, ad = ax * dx + az * dz, bd = bx * dx + bz * dz;
    rg_real cross = ax * bz - az * bx, inverse, h2, bdd, cube;
    *i0 = *i1 = 0;
    if (!(dd > 0)) return;
    inverse = 1 / dd;
    h2 = cross * cross * inverse;
    *i0 = (bd * rb - ad * ra) * inverse / 2;
    if (h2 > (rg_real)1e-12 * (ra * ra + rb * rb)) {
        rg_real over = 1 / rg__sqrt(dd), sa = ad * over, sb = bd * over, ratio;
        if (sa >= 0) ratio = (sb + rb) / (sa + ra);
        else if (sb <= 0) ratio = (ra - sa) / (rb - sb);
        else ratio = (sb + rb) * (ra - sa) / h2;
        *i0 += h2 * rg__impulse_log(ratio) * over / 2;
    }
    /* rb^3 - ra^3 with rb - ra = (b.b - a.a) / (ra + rb) = (a.d + b.d) / (ra + rb) */
    cube = (ad + bd) / (ra + rb) * (ra * ra + ra * rb + rb * rb);
    bdd = (betax * dx + betaz * dz) * inverse;
    *i1 = (betax * ax + betaz * az - ad * bdd) * *i0 + bdd * cube / 3;
}

/* A patch's effective radius e (above) for n points at (x, z) carrying the normal impulses
   `load`. The area is the points' convex polygon, A its area, g its centroid, J its second
   moments about g. The pressure is the affine field p(r) = N (1 / A + beta . (r - g)) whose force
   and moments are the points' (J beta = c - g, c the points' centre of pressure), uniform when
   nothing presses yet; where that field would pull at a corner (c outside the area's kernel: the
   load shifted towards an edge), beta shrinks until it does not, the nearest field that only
   presses. Then e = integral p |r - o| dA / N about its centre of pressure o = g + J beta, over the
   fan of triangles (o, v_i, v_i+1): with r = o + s q(t), q(t) = v_i - o + t (v_i+1 - v_i), and
   dA = s (q x q') ds dt, a triangle gives (v_i - o) x (v_i+1 - o) times
   (p(o) / 3 integral |q| dt + 1 / 4 integral (beta . q) |q| dt). Returns 0 for no area. */
static rg_real rg__impulse_patch_radius(const rg_real *x, const rg_real *z, const rg_real *load, int n) {
    rg_real px[RG_MANIFOLD_MAX], pz[RG_MANIFOLD_MAX], r[RG_MANIFOLD_MAX], area = 0, gx = 0, gz = 0;
    rg_real ixx = 0, ixz = 0, izz = 0, N = 0, mx = 0, mz = 0, bx = 0, bz = 0, det, alpha, ox, oz, po, e = 0;
    int count = rg__impulse_patch_polygon(x, z, n, px, pz), i;
    if (count < 3) return 0;
    for (i = 0; i < count; ++i) {
        int j = i + 1 < count ? i + 1 : 0;
        rg_real c = px[i] * pz[j] - px[j] * pz[i];
        area += c;
        gx += (px[i] + px[j]) * c;
        gz += (pz[i] + pz[j]) * c;
        ixx += (px[i] * px[i] + px[i] * px[j] + px[j] * px[j]) * c;
        izz += (pz[i] * pz[i] + pz[i] * pz[j] + pz[j] * pz[j]) * c;
        ixz += (px[i] * pz[j] + 2 * px[i] * pz[i] + 2 * px[j] * pz[j] + px[j] * pz[i]) * c;
    }
    area /= 2;
    if (!(area > 0)) return 0;
    gx /= 6 * area;
    gz /= 6 * area;
    ixx = ixx / 12 - area * gx * gx;
    izz = izz / 12 - area * gz * gz;
    ixz = ixz / 24 - area * gx * gz;
    det = ixx * izz - ixz * ixz;
    alpha = 1 / area;
    for (i = 0; i < n; ++i) {
        N += load[i];
        mx += load[i] * x[i];
        mz += load[i] * z[i];
    }
    if (N > 0 && det > 0) {
        rg_real cx = mx / N - gx, cz = mz / N - gz, pull = 0;
        bx = (izz * cx - ixz * cz) / det;
        bz = (ixx * cz - ixz * cx) / det;
        for (i = 0; i < count; ++i) pull = rg__max_real(pull, -(bx * (px[i] - gx) + bz * (pz[i] - gz)));
        if (pull > alpha) {
            bx *= alpha / pull;
            bz *= alpha / pull;
        }
    }
    ox = gx + ixx * bx + ixz * bz;
    oz = gz + ixz * bx + izz * bz;
    po = alpha + bx * (ox - gx) + bz * (oz - gz);
    for (i = 0; i < count; ++i) {
        px[i] -= ox;
        pz[i] -= oz;
        r[i] = rg__sqrt(px[i] * px[i] + pz[i] * pz[i]);
    }
    for (i = 0; i < count; ++i) {
        int j = i + 1 < count ? i + 1 : 0;
        rg_real i0, i1;
        rg__impulse_segment_integrals(px[i], pz[i], px[j], pz[j], r[i], r[j], bx, bz, &i0, &i1);
        e += (px[i] * pz[j] - pz[i] * px[j]) * (po * i0 / 3 + i1 / 4);
    }
    return e;
}

/* sqrt(|F|^2 + (T / e)^2) of a friction resultant P = (F1, F2, T) about the patch's centre: the
   limit surface (above) holds P when this is at most mu N; P scaled by s scales it by s. */
static inline rg_real rg__impulse_patch_friction_size(rg_vec3 P, rg_real e) {
    rg_real twist = P.z / e;
    return rg__sqrt(P.x * P.x + P.y * P.y + twist * twist);
}

/* P scaled onto the limit surface of `limit` = mu N if it lies beyond. */
static inline rg_vec3 rg__impulse_patch_friction_clamp(rg_vec3 P, rg_real e, rg_real limit) {
    rg_real size = rg__impulse_patch_friction_size(P, e);
    return size > limit ? rg_v3_scale(P, limit / size) : P;
}

/* Dynamic friction of a sliding patch (Bender eq. 4 for the resultant): the limit surface's
   resultant of maximal dissipation (above) for the motion u = (u1, u2, w) of the patch's centre.
   As for a point (rg__impulse_dissipative_friction), the change d from `old` is shortened to
   what removes the most energy along it, d . u + d^T K d / 2 with K the inverse of the friction
   resultant's `mass`: friction only dissipates. Returns 0 when the motion's size is not finite. */
static int rg__impulse_patch_sliding(const rg_mat3 *mass, rg_vec3 old, rg_vec3 u, rg_real e, rg_real limit,
                                     rg_vec3 *P) {
    rg_real sw = e * u.z, speed = rg__sqrt(u.x * u.x + u.y * u.y + sw * sw), a, b;
    rg_vec3 d;
    if (!(speed <= RG__REAL_MAX)) return 0;
    if (!(speed > 0)) {
        *P = old;
        return 1;
    }
    *P = rg_v3(-limit * (u.x / speed), -limit * (u.y / speed), -limit * e * (sw / speed));
    d = rg_v3_sub(*P, old);
    a = rg_v3_dot(d, u);
    b = rg_v3_dot(d, rg_mat3_mul_v3(rg_mat3_inverse(*mass), d));
    if (a + b / 2 > 0) {
        *P = rg_v3_madd(old, d, a < 0 && b > 0 ? -a / b : 0);
        *P = rg__impulse_patch_friction_clamp(*P, e, limit);
    }
    return 1;
}

/* =============================================================================================
   >>prepare: the solver's bodies, contact points, contact graph, levels and order, once a step
   ============================================================================================= */

/* The bodies' velocities into the solver's bodies. */
static void rg__prepare_gather_velocities(rg_world *w) {
    int i, n = (int)stbds_arrlen(w->bodies);
    for (i = 0; i < n; ++i) {
        w->solver.bodies[i].v = w->bodies[i].linear_velocity;
        w->solver.bodies[i].w = w->bodies[i].angular_velocity;
    }
}

/* The solver's velocities back to the live dynamic bodies. */
static void rg__prepare_scatter_velocities(rg_world *w) {
    int i, n = (int)stbds_arrlen(w->bodies);
    for (i = 0; i < n; ++i) {
        if (!(w->bodies[i].generation & 1) || w->bodies[i].type != RG_BODY_DYNAMIC) continue;
        w->bodies[i].linear_velocity = w->solver.bodies[i].v;
        w->bodies[i].angular_velocity = w->solver.bodies[i].w;
    }
}

/* Infinite mass for the solver: static and kinematic bodies always, finished levels during
   shock propagation (Guendelman §8.2: "their K matrix is set to zero"). */
static void rg__prepare_body_freeze(rg__solver_body *sb) {
    sb->inv_mass = 0;
    memset(&sb->inv_inertia, 0, sizeof sb->inv_inertia);
    sb->frozen = 1;
}

/* The solver's bodies, one per body slot: velocities of the step's start, and the inverse
   masses, zero (frozen) for static, kinematic and free slots. */
static void rg__prepare_gather_bodies(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, n = (int)stbds_arrlen(w->bodies);
    stbds_arrsetlen(s->bodies, n);
    if (n > 0) memset(s->bodies, 0, (size_t)n * sizeof *s->bodies);
    for (i = 0; i < n; ++i) {
        const rg__body *body = &w->bodies[i];
        rg__solver_body *sb = &s->bodies[i];
        sb->dynamic = (body->generation & 1) && body->type == RG_BODY_DYNAMIC;
        sb->v = sb->v0 = body->linear_velocity;
        sb->w = sb->w0 = body->angular_velocity;
        if (sb->dynamic) {
            sb->inv_mass = body->inv_mass;
            sb->inv_inertia = body->inv_inertia_world;
            sb->locked = (int)(body->locks & RG__LOCK_LINEAR);
            if (sb->locked) rg__impulse_keep_locked(sb); /* a shape added since may have moved the centre */
        } else {
            rg__prepare_body_freeze(sb);
        }
    }
}

/* A unit vector perpendicular to n, the same for the same n. */
static rg_vec3 rg__prepare_perpendicular(rg_vec3 n) {
    rg_vec3 t = rg__fabs(n.x) < (rg_real)0.57735 ? rg_v3(0, n.z, -n.y) : rg_v3(n.y, -n.x, 0);
    return rg_v3_normalize(t);
}

static int rg__prepare_is_round(const rg__shape *shape) {
    return shape->type == RG_SHAPE_SPHERE || shape->type == RG_SHAPE_CAPSULE;
}

/* The lever of a pair's rolling and spinning resistance, its rolling radius: the larger radius
   of its spheres and capsules; between hulls (or a hull and a mesh) the smaller hull's extent
   from its centroid, about the radius of a hull that rolls; a mesh has none. */
static rg_real rg__prepare_rolling_radius(const rg__shape *a, const rg__shape *b) {
    rg_real round = 0;
    if (rg__prepare_is_round(a)) round = a->radius;
    if (rg__prepare_is_round(b)) round = rg__max_real(round, b->radius);
    if (round > 0) return round;
    if (a->type == RG_SHAPE_HULL && b->type == RG_SHAPE_HULL) return rg__min_real(a->extent, b->extent);
    return a->type == RG_SHAPE_HULL ? a->extent : (b->type == RG_SHAPE_HULL ? b->extent : 0);
}

/* Guendelman §6-7: a pair's restitution is the smaller of its shapes', its frictions the larger.
   Rolling and spinning friction (§9) limit the angular impulse to the coefficient times the
   normal impulse times the pair's rolling radius: a dimensionless coefficient, so that a ball
   rolling on a plane slows at 5/7 mu_r g whatever its size. */
static void rg__prepare_mix_materials(rg__solver_manifold *m, const rg__shape *a, const rg__shape *b) {
    rg_real lever = rg__prepare_rolling_radius(a, b);
    m->restitution = rg__min_real(a->restitution, b->restitution);
    m->static_friction = rg__max_real(a->static_friction, b->static_friction);
    m->dynamic_friction = rg__max_real(a->dynamic_friction, b->dynamic_friction);
    m->rolling_friction = rg__max_real(a->rolling_friction, b->rolling_friction) * lever;
    m->spinning_friction = rg__max_real(a->spinning_friction, b->spinning_friction) * lever;
}

/* The solver's manifolds and points from the narrow phase's: frames, materials, arms, masses,
   patches, the static-friction marks, and which manifolds have a point approaching faster than
   the collisions' `threshold` (rg__collision_gather_wave's first test, made here while the
   points are at hand). */
/* Solver manifold i (the narrow phase's order[i], rg__prepare_order) and its points, whose
   places rg__prepare_points has set: frames, materials, arms, Jacobians, masses and the patch;
   approaching[i] if a point closes at `threshold` or faster. Writes only manifold i, its points
   and approaching[i]. */
static void rg__prepare_manifold(rg_world *w, int i, rg_real threshold) {
    rg__solver *s = &w->solver;
    rg__solver_manifold *m = &s->manifolds[i];
    const rg__pair_manifold *pm = &w->narrowphase.manifolds[m->pair];
    const rg__body *a = &w->bodies[pm->a], *b = &w->bodies[pm->b];
    rg_real still = RG__STILL_FRACTION * w->def.contact_tolerance / w->step_dt;
    int k;
    RIGID_ASSERT(pm->a >= 0 && pm->a < (int)stbds_arrlen(w->bodies) && pm->b >= 0 &&
                 pm->b < (int)stbds_arrlen(w->bodies) && pm->a != pm->b);
    RIGID_ASSERT((a->generation & 1) && (b->generation & 1)); /* both bodies live */
    m->a = pm->a;
    m->b = pm->b;
    m->previous = pm->previous;
    m->level = s->pair_level[m->pair];
    m->n = pm->normal;
    m->t1 = rg__prepare_perpendicular(m->n);
    m->t2 = rg_v3_cross(m->n, m->t1);
    rg__prepare_mix_materials(m, &w->shapes[pm->shape_a], &w->shapes[pm->shape_b]);
    m->round = rg__prepare_is_round(&w->shapes[pm->shape_a]) | 2 * rg__prepare_is_round(&w->shapes[pm->shape_b]);
    m->spin = m->roll1 = m->roll2 = 0;
    s->approaching[i] = 0;
    /* the manifold's points start zeroed, in one memset (a memset per point cost a quarter of
       this function's time) */
    if (m->count > 0) memset(&s->points[m->first], 0, sizeof *s->points * (size_t)m->count);
    for (k = 0; k < m->count; ++k) {
        rg__solver_point *p = &s->points[m->first + k];
        rg_vec3 on_b = pm->points[k].point;
        rg_real depth = pm->points[k].depth;
        rg_vec3 on_a = rg_v3_madd(on_b, m->n, -depth);
        rg_real u1, u2, un;
        p->depth = depth;
        p->on_b = on_b;
        p->ra = rg_v3_sub(on_a, a->com);
        p->rb = rg_v3_sub(on_b, b->com);
        p->wave = -1;
        rg__impulse_point_jacobians(s, m, p);
        /* Bender §3.1: static friction where the points do not slide relative to each other;
           the velocities are those of the step's start, before gravity */
        u1 = rg__impulse_speed(&s->bodies[m->a], &s->bodies[m->b], m->t1, p->ra1, p->rb1);
        u2 = rg__impulse_speed(&s->bodies[m->a], &s->bodies[m->b], m->t2, p->ra2, p->rb2);
        p->stuck_at_start = u1 * u1 + u2 * u2 <= still * still;
        un = rg__impulse_speed(&s->bodies[m->a], &s->bodies[m->b], m->n, p->ran, p->rbn);
        if (-un >= threshold && !(p->normal_mass <= 0)) s->approaching[i] = 1;
    }
    m->points_frozen = rg__impulse_frozen_pair(s, m);
    rg__impulse_patch_shape(s, m, RG__SLOP_FRACTION * w->def.contact_tolerance, w->def.contact_tolerance);
    rg__impulse_patch_mass_of(s, m, 3);
}

/* The fewest manifolds a worker takes at once in the solver's parallel stages (>>task). */
#define RG__SOLVER_RANGE 256

typedef struct rg__prepare_task {
    rg_world *w;
    rg_real threshold;
} rg__prepare_task;

static void rg__prepare_manifold_range(int start, int end, int worker, void *context) {
    const rg__prepare_task *t = (const rg__prepare_task *)context;
    int i;
    (void)worker;
    for (i = start; i < end; ++i) rg__prepare_manifold(t->w, i, t->threshold);
}

/* The solver's manifolds and points in visit order (rg__prepare_order): their places, then
   each one (rg__prepare_manifold, in parallel); `threshold` marks the approaching ones. */
static void rg__prepare_points(rg_world *w, rg_real threshold) {
    rg__solver *s = &w->solver;
    const rg__pair_manifold *source = w->narrowphase.manifolds;
    int i, count = (int)stbds_arrlen(source), total = 0;
    rg__prepare_task task;
    stbds_arrsetlen(s->manifolds, count);
    stbds_arrsetlen(s->approaching, count);
    stbds_arrsetlen(s->pair_first, count);
    for (i = 0; i < count; ++i) {
        s->pair_first[i] = total;
        total += source[i].count;
    }
    stbds_arrsetlen(s->points, total);
    total = 0;
    for (i = 0; i < count; ++i) {
        rg__solver_manifold *m = &s->manifolds[i];
        m->pair = s->order[i];
        m->first = total;
        m->count = source[m->pair].count;
        total += m->count;
    }
    task.w = w;
    task.threshold = threshold;
    rg__task_run(w, rg__prepare_manifold_range, count, RG__SOLVER_RANGE, &task);
    s->approaching_count = 0;
    for (i = 0; i < count; ++i) s->approaching_count += s->approaching[i];
}

/* xorshift64*: a fixed sequence from the world's seed (rg__prepare_order seeds it). */
static uint64_t rg__prepare_random(rg__solver *s) {
    s->random_state ^= s->random_state >> 12;
    s->random_state ^= s->random_state << 25;
    s->random_state ^= s->random_state >> 27;
    return s->random_state * 2685821657736338717ull;
}

/* Tarjan's strongly connected components of the contact graph, without recursion so that tall
   stacks cannot overflow the stack. Components come out sinks first (reverse topological
   order); returns their number. */
static int rg__prepare_components(rg__solver *s, int n) {
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
static void rg__prepare_levels(rg_world *w) {
    rg__solver *s = &w->solver;
    const rg__pair_manifold *source = w->narrowphase.manifolds;
    int n = (int)stbds_arrlen(s->bodies), count = (int)stbds_arrlen(source);
    int i, edges, components, max_level = 1;
    rg_vec3 up = rg_v3_neg(rg_v3_normalize(w->def.gravity));
    for (i = 0; i < n; ++i) s->bodies[i].level = s->bodies[i].dynamic ? 1 : 0;
    stbds_arrsetlen(s->edge_from, 0);
    stbds_arrsetlen(s->edge_to, 0);
    if (rg_v3_length_squared(up) > 0) {
        for (i = 0; i < count; ++i) {
            const rg__pair_manifold *m = &source[i];
            rg_real c = rg_v3_dot(m->normal, up);
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
        components = rg__prepare_components(s, n);
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
    for (i = 0; i < n; ++i) s->bodies[i].supports = 0;
    stbds_arrsetlen(s->pair_level, count);
    for (i = 0; i < count; ++i) {
        const rg__pair_manifold *m = &source[i];
        int la = s->bodies[m->a].level, lb = s->bodies[m->b].level, level = la > lb ? la : lb;
        if (level < 1) level = 1;
        if (level > max_level) max_level = level;
        if (la != lb) ++s->bodies[la > lb ? m->a : m->b].supports;
        s->pair_level[i] = level;
    }
    s->level_count = max_level + 1;
}

/* Lanes: the contact sweeps visit up to RG__LANES manifolds that share no dynamic body at once
   (rg__contact_visit_group); a group is looked for among the next RG__LANE_WINDOW manifolds of
   the shuffled order. */
#ifndef RG__LANES
#define RG__LANES 4
#endif
#ifndef RG__LANE_WINDOW
#define RG__LANE_WINDOW 32
#endif

/* Cuts each level's shuffled order into lane groups, greedily: a group opens with the first
   manifold not yet grouped and takes, in order, those among the next RG__LANE_WINDOW not yet
   grouped that share no dynamic body with its members, up to RG__LANES; the groups follow one
   another in the order they were made. Static and kinematic bodies may be shared: the sweeps
   never change their velocities. Visiting a group's manifolds in any order gives the same
   result, so a group can be solved as one. */
static void rg__prepare_lane_groups(rg_world *w) {
    rg__solver *s = &w->solver;
    const rg__pair_manifold *source = w->narrowphase.manifolds;
    int count = (int)stbds_arrlen(s->order), l, i;
    stbds_arrsetlen(s->group_begin, count);
    stbds_arrsetlen(s->group_end, count);
    stbds_arrsetlen(s->group_items, count);
    stbds_arrsetlen(s->group_next, count);
    for (l = 0; l < s->level_count; ++l) {
        int begin = s->level_start[l], n = s->level_start[l + 1] - begin, head = n > 0 ? 0 : -1, out = begin;
        int *items = s->group_items, *next = s->group_next;
        for (i = 0; i < n; ++i) {
            items[i] = s->order[begin + i];
            next[i] = i + 1 < n ? i + 1 : -1;
        }
        while (head >= 0) {
            int bodies[2 * RG__LANES], held = 0, taken = 0, seen = 0, previous = -1, at = head, start = out;
            while (at >= 0 && taken < RG__LANES && seen < RG__LANE_WINDOW) {
                const rg__pair_manifold *m = &source[items[at]];
                int a = s->bodies[m->a].dynamic ? m->a : -1, b = s->bodies[m->b].dynamic ? m->b : -1;
                int following = next[at], fits = 1, k;
                for (k = 0; k < held; ++k)
                    if (bodies[k] == a || bodies[k] == b) fits = 0;
                ++seen;
                if (fits) {
                    if (a >= 0) bodies[held++] = a;
                    if (b >= 0) bodies[held++] = b;
                    s->order[out++] = items[at];
                    ++taken;
                    if (previous < 0) head = following;
                    else next[previous] = following;
                } else {
                    previous = at;
                }
                at = following;
            }
            for (i = start; i < out; ++i) {
                s->group_begin[i] = start;
                s->group_end[i] = out;
            }
        }
    }
}

/* The order in which contacts are treated: level by level up from the ground (Guendelman
   §8.1), mixed within a level by a seeded shuffle (Guendelman §6) so that no contact is always
   first, then cut into lane groups (above). */
static void rg__prepare_order(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, l, count = (int)stbds_arrlen(s->pair_level), levels = s->level_count;
    stbds_arrsetlen(s->level_start, levels + 1);
    stbds_arrsetlen(s->order, count);
    for (l = 0; l <= levels; ++l) s->level_start[l] = 0;
    for (i = 0; i < count; ++i) {
        RIGID_ASSERT(s->pair_level[i] >= 1 && s->pair_level[i] < levels);
        ++s->level_start[s->pair_level[i] + 1];
    }
    for (l = 0; l < levels; ++l) s->level_start[l + 1] += s->level_start[l];
    RIGID_ASSERT(s->level_start[levels] == count);
    for (i = 0; i < count; ++i) s->order[s->level_start[s->pair_level[i]]++] = i;
    for (l = levels; l > 0; --l) s->level_start[l] = s->level_start[l - 1];
    s->level_start[0] = 0;
    if (s->random_state == 0) {
        /* splitmix64 of the seed, never zero */
        uint64_t z = (uint64_t)w->def.random_seed + 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        s->random_state = (z ^ (z >> 31)) | 1;
    }
    for (l = 0; l < levels; ++l) {
        int begin = s->level_start[l], end = s->level_start[l + 1];
        for (i = end - 1; i > begin; --i) {
            int j = begin + (int)(rg__prepare_random(s) % (uint64_t)(i - begin + 1));
            int t = s->order[i];
            s->order[i] = s->order[j];
            s->order[j] = t;
        }
    }
    rg__prepare_lane_groups(w);
}

/* The solver's state for a step, before the collisions: bodies, points with their masses,
   levels and order; `threshold` is the collisions' resting criterion (rg__collision_resolve). */
static void rg__prepare(rg_world *w, rg_real threshold) {
    w->solver.narrow = w->def.contact_tolerance;
    rg__prepare_gather_bodies(w);
    rg__prepare_levels(w);
    rg__prepare_order(w);
    rg__prepare_points(w, threshold);
    w->solver.ready = 1;
}

/* =============================================================================================
   >>collision: collisions with the velocities of the step's start (Bender §3.1, Guendelman §7)
   ============================================================================================= */

/* Friction at a colliding point, in the loop of its normal impulses (Bender eqs. 4-6). Returns the
   sliding velocity a marked (sticking) point still has, its error. */
static rg_real rg__collision_friction(rg__solver *s, const rg__solver_manifold *m, rg__solver_point *p) {
    rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    rg_real u1, u2, d1, d2;
    if (!rg__impulse_has_friction(m) || !(p->pn > 0 || p->pt1 != 0 || p->pt2 != 0)) return 0;
    u1 = rg__impulse_speed(A, B, m->t1, p->ra1, p->rb1);
    u2 = rg__impulse_speed(A, B, m->t2, p->ra2, p->rb2);
    rg__impulse_friction(p, m->static_friction, m->dynamic_friction, u1, u2, u1, u2, &d1, &d2);
    rg__impulse_push_tangent(A, B, m, p, d1, d2, p->toi);
    return p->stick ? rg__sqrt(u1 * u1 + u2 * u2) : 0;
}

/* One visit of a colliding point: the impulse of eq. (1) that takes the relative normal velocity
   to its target, the sum clamped so the contact never pulls (eqs. 2-3), then friction.
   Returns the velocity error the visit found. */
static rg_real rg__collision_visit(rg__solver *s, const rg__solver_manifold *m, rg__solver_point *p) {
    rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    rg_real error = p->target - rg__impulse_speed(A, B, m->n, p->ran, p->rbn), residual = 0;
    if ((error > 0 || p->pn > 0) && p->normal_mass > 0) {
        rg_real next = p->pn + error * p->normal_mass, dp;
        if (next < 0) next = 0;
        dp = next - p->pn;
        p->pn = next;
        residual = rg__fabs(dp) / p->normal_mass;
        rg__impulse_push(A, B, m->n, p->wan, p->wbn, dp, p->toi);
    }
    return rg__max_real(residual, rg__collision_friction(s, m, p));
}

/* The contact stage's least-squares fit of a patch's points' rates (>>contact, below). */
static int rg__contact_patch_fit(const rg__solver *s, const rg__solver_manifold *m, const rg__solver_point *points,
                                 const rg_real *rate, rg_real h, rg_vec3 *fit);

/* A colliding patch: a manifold all of whose points are in the wave and span a face
   (rg__impulse_patch_shape), so that their impulses act on the bodies only through two
   resultants about the patch's centre, the normal one (N, Mx, Mz) and friction's (F1, F2, T),
   and their relative velocities are affine across it: along n its motion (u_c, g1, g2), the
   centre's speed and the slopes along t1 and t2; along the face a slide of the centre and a
   spin about n. Bender's eq. (1) for a resultant is then a 3x3 system (m->patch_mass,
   m->patch_friction_mass), Ermolin & Kazakov's A p = b (§3.2, eq. 6) for the face's points at
   once. Point by point, the corners are resolved one after the other and the loop stops at its
   tolerance with an error that depends on their order (a cube hitting a wall face-on at
   100 m/s left at 1.7 cm/s, spinning at 0.04 rad/s). What a visit reads of the patch: */
typedef struct rg__collision_patch {
    rg_real x[RG_MANIFOLD_MAX], z[RG_MANIFOLD_MAX]; /* the points' places about the centre */
    rg_real error[RG_MANIFOLD_MAX];   /* each point's normal error: its target less its normal velocity */
    rg_real pn[RG_MANIFOLD_MAX];      /* the points' normal impulses */
    rg_real N, Mx, Mz;                /* their resultant */
    rg_vec3 old;                      /* the friction resultant (F1, F2, T) of the points' impulses */
    rg_vec3 motion;                   /* the slide (u1, u2) of the centre and the spin, least squares */
    rg_real found;                    /* the largest normal error of a point that presses or should */
    rg_real slide;                    /* the largest squared sliding speed of a point */
    int pressing;                     /* a point's error asks for more push */
    int marked;                       /* every point is marked (sticks) */
} rg__collision_patch;

/* The patch's state (above) at the bodies' current velocities. */
static void rg__collision_patch_of(const rg__solver *s, const rg__solver_manifold *m, rg__collision_patch *c) {
    const rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    const rg__solver_point *points = &s->points[m->first];
    rg_real E1 = 0, E2 = 0, Et = 0;
    int j;
    c->N = c->Mx = c->Mz = c->found = c->slide = 0;
    c->old = rg_v3(0, 0, 0);
    c->pressing = 0;
    c->marked = 1;
    for (j = 0; j < m->count; ++j) {
        const rg__solver_point *p = &points[j];
        rg_real u1 = rg__impulse_speed(A, B, m->t1, p->ra1, p->rb1), u2 = rg__impulse_speed(A, B, m->t2, p->ra2, p->rb2);
        rg_real x = c->x[j] = p->patch_x, z = c->z[j] = p->patch_z;
        rg_real error = c->error[j] = p->target - rg__impulse_speed(A, B, m->n, p->ran, p->rbn);
        c->pn[j] = p->pn;
        if (error > 0) c->pressing = 1;
        if (error > 0 || p->pn > 0) c->found = rg__max_real(c->found, rg__fabs(error));
        c->slide = rg__max_real(c->slide, u1 * u1 + u2 * u2);
        c->N += p->pn;
        c->Mx += p->pn * x;
        c->Mz += p->pn * z;
        E1 += u1;
        E2 += u2;
        Et += x * u2 - z * u1;
        c->old = rg_v3_add(c->old, rg_v3(p->pt1, p->pt2, x * p->pt2 - z * p->pt1));
        c->marked &= p->stick;
    }
    c->motion = rg_v3(E1 / (rg_real)m->count, E2 / (rg_real)m->count, Et / m->patch_r2);
}

/* The points' new impulses, normal (`load`, unless NULL) and friction (f1, f2, unless NULL),
   each point's change pushed with its own time of impact (rg__impulse_push). */
static void rg__collision_patch_push(rg__solver *s, const rg__solver_manifold *m, const rg_real *load, const rg_real *f1,
                                     const rg_real *f2) {
    rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    int j;
    for (j = 0; j < m->count; ++j) {
        rg__solver_point *p = &s->points[m->first + j];
        if (load) {
            rg_real dp = load[j] - p->pn;
            p->pn = load[j];
            rg__impulse_push(A, B, m->n, p->wan, p->wbn, dp, p->toi);
        }
        if (f1) {
            rg_real d1 = f1[j] - p->pt1, d2 = f2[j] - p->pt2;
            p->pt1 = f1[j];
            p->pt2 = f2[j];
            rg__impulse_push_tangent(A, B, m, p, d1, d2, p->toi);
        }
    }
}

/* Friction's part of a patch's visit, after its normal part (c taken after it): one resultant
   held by the patch's limit surface, as in the contact stage (rg__contact_visit_patch_friction,
   whose rules this follows without the drift). The resultant that stops the slide and the spin
   is -m->patch_friction_mass times their motion. A patch whose points are all marked keeps it
   within mu_s's surface (eq. 6); otherwise it sticks if mu_d's holds it (eq. 5) and else slides
   (eq. 4: rg__impulse_patch_sliding). Spread over the points by their normal impulses
   (rg__impulse_spread_friction). Returns 0, changing nothing, when no point carries a load or
   the load is too narrow to twist; else 1, and whether it sticks to *stick. */
static int rg__collision_visit_patch_friction(rg__solver *s, const rg__solver_manifold *m, const rg__collision_patch *c,
                                              int *stick) {
    rg_real f1[RG_MANIFOLD_MAX], f2[RG_MANIFOLD_MAX], N = c->N, e = m->patch_radius;
    rg_vec3 P;
    if (!(N > 0) || !(e > 0)) return 0;
    P = rg_v3_sub(c->old, rg_mat3_mul_v3(m->patch_friction_mass, c->motion));
    *stick = 1;
    if (c->marked) {
        P = rg__impulse_patch_friction_clamp(P, e, m->static_friction * N);
    } else if (!(rg__impulse_patch_friction_size(P, e) <= m->dynamic_friction * N)) {
        *stick = 0;
        if (!rg__impulse_patch_sliding(&m->patch_friction_mass, c->old, c->motion, e, m->dynamic_friction * N, &P))
            return 0;
    }
    if (rg__impulse_spread_friction(c->pn, c->x, c->z, m->count, P.x, P.y, P.z, s->narrow, f1, f2) != 0) return 0;
    rg__collision_patch_push(s, m, NULL, f1, f2);
    return 1;
}

/* A patch that sticks, both resultants solved together: Bender's eq. (1) for all six parts, so
   that the normal errors reach their targets and the points stop sliding at once. The two 3x3
   systems solved in turn (rg__collision_visit_face) converge slowly: friction at the face tips
   the body, the normals tip it back (cube hitting a wall at 100 m/s with 30 m/s along it, mu
   0.5: each sweep left 0.6 of the error, and the loop stopped at its tolerance with the cube
   spinning at 0.07 rad/s). With K = [Knn C; C^T Kff], C the coupling of the normal parts with
   friction's, and `a` = Knn^-1 fit for the normal motion wanted, the friction change comes from
   the Schur complement Kff - C^T Knn^-1 C and the normal change after it. Taken when every point
   still presses and the friction resultant lies within the limit surface (mu_s's for a patch
   whose points are all marked, mu_d's otherwise: eqs. 5-6); returns 0, changing nothing,
   otherwise. */
static int rg__collision_visit_patch_stuck(rg__solver *s, const rg__solver_manifold *m, const rg__collision_patch *c,
                                           rg_vec3 a) {
    rg_real load[RG_MANIFOLD_MAX], f1[RG_MANIFOLD_MAX], f2[RG_MANIFOLD_MAX], e = m->patch_radius;
    rg_vec3 dn, df, P;
    if (!(e > 0)) return 0;
    rg__impulse_patch_coupled(m, a, c->motion, &dn, &df);
    if (!rg__impulse_patch_loads(s, m, c->N + dn.x, c->Mx + dn.y, c->Mz + dn.z, load)) return 0;
    P = rg_v3_add(c->old, df);
    if (!(rg__impulse_patch_friction_size(P, e) <= (c->marked ? m->static_friction : m->dynamic_friction) * (c->N + dn.x)))
        return 0;
    if (rg__impulse_spread_friction(load, c->x, c->z, m->count, P.x, P.y, P.z, s->narrow, f1, f2) != 0) return 0;
    rg__collision_patch_push(s, m, load, f1, f2);
    return 1;
}

/* One visit of a colliding patch. Its normal part: the resultant change that gives the patch the
   motion fitting its points' errors (rg__contact_patch_fit), m->patch_mass times that fit, spread
   over the points. If the fit misses a point (targets not affine) or a point would pull (the
   face lifts at an edge), returns 0, changing nothing: the points are then visited one by one,
   whose clamps (eqs. 2-3) decide which keep touching. With friction, both resultants together if
   the patch sticks (rg__collision_visit_patch_stuck); else the normal change and then friction's
   at the velocities it leaves (on its own resultant, or point by point when the load cannot
   twist). The largest error found (normal, and the sliding speed of a patch that sticks) goes to
   *residual. */
static int rg__collision_visit_face(rg__solver *s, const rg__solver_manifold *m, rg_real h, rg_real *residual) {
    rg__collision_patch c;
    rg_real load[RG_MANIFOLD_MAX];
    rg_vec3 fit, change;
    int stick = 0, j;
    rg__collision_patch_of(s, m, &c);
    if (!c.pressing && !(c.N > 0)) return 1;
    if (!rg__contact_patch_fit(s, m, &s->points[m->first], c.error, h, &fit)) return 0;
    change = rg_mat3_mul_v3(m->patch_mass, fit);
    if (!rg__impulse_patch_loads(s, m, c.N + change.x, c.Mx + change.y, c.Mz + change.z, load)) return 0;
    *residual = rg__max_real(*residual, c.found);
    if (rg__impulse_has_friction(m) && rg__collision_visit_patch_stuck(s, m, &c, change)) {
        stick = 1;
    } else {
        rg__collision_patch_push(s, m, load, NULL, NULL);
        if (rg__impulse_has_friction(m)) {
            rg__collision_patch_of(s, m, &c);
            if (!rg__collision_visit_patch_friction(s, m, &c, &stick))
                for (j = 0; j < m->count; ++j)
                    *residual = rg__max_real(*residual, rg__collision_friction(s, m, &s->points[m->first + j]));
        }
    }
    if (stick) {
        for (j = 0; j < m->count; ++j) s->points[m->first + j].stick = 1;
        *residual = rg__max_real(*residual, rg__sqrt(c.slide));
    }
    return 1;
}

/* Two colliding points of a manifold (an edge on a face, a capsule lying on a face) solved
   together: Ermolin & Kazakov's A p = b (eq. 6) for two points, with a_ij = n^T K_ij n, K_ij
   Bender's K for the velocity at one point from an impulse at the other (eq. 1 has K_ii), here
   from the points' arms' cross products and turns. Point by point, an edge hitting a wall
   square-on at 10 m/s left turning at 7 mrad/s. Returns 0, changing nothing, when the two are
   nearly one point (the system is singular) or one would pull: they are then visited one by one,
   whose clamps (eqs. 2-3) decide. Else the largest normal error found to *residual. */
static int rg__collision_visit_edge(rg__solver *s, const rg__solver_manifold *m, rg_real *residual) {
    rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    rg__solver_point *p = &s->points[m->first], *q = p + 1;
    rg_real ep = p->target - rg__impulse_speed(A, B, m->n, p->ran, p->rbn);
    rg_real eq = q->target - rg__impulse_speed(A, B, m->n, q->ran, q->rbn);
    rg_real kpp, kqq, kpq, det, next_p, next_q, found = 0;
    if (!(ep > 0 || eq > 0 || p->pn > 0 || q->pn > 0)) return 1;
    if (!(p->normal_mass > 0) || !(q->normal_mass > 0)) return 0;
    kpp = 1 / p->normal_mass;
    kqq = 1 / q->normal_mass;
    kpq = rg__impulse_linear_mass(A, B, m->n, m->n) + rg_v3_dot(p->ran, q->wan) + rg_v3_dot(p->rbn, q->wbn);
    det = kpp * kqq - kpq * kpq;
    if (!(det > RG__LINE_PATCH * (kpp + kqq) * (kpp + kqq))) return 0;
    next_p = p->pn + (kqq * ep - kpq * eq) / det;
    next_q = q->pn + (kpp * eq - kpq * ep) / det;
    if (!(next_p >= 0) || !(next_q >= 0)) return 0;
    if (ep > 0 || p->pn > 0) found = rg__fabs(ep);
    if (eq > 0 || q->pn > 0) found = rg__max_real(found, rg__fabs(eq));
    rg__impulse_push(A, B, m->n, p->wan, p->wbn, next_p - p->pn, p->toi);
    rg__impulse_push(A, B, m->n, q->wan, q->wbn, next_q - q->pn, q->toi);
    p->pn = next_p;
    q->pn = next_q;
    *residual = rg__max_real(*residual, found);
    return 1;
}

/* Whether rg__prepare_points found every point of m touching: its patch (if any) is then the
   contact stage's, else one made for a wave (rg__collision_wave_patches). */
static int rg__collision_touching(const rg__solver *s, const rg__solver_manifold *m, rg_real slop) {
    int k;
    for (k = 0; k < m->count; ++k)
        if (!(s->points[m->first + k].depth >= -slop)) return 0;
    return 1;
}

/* The number of wave entries from wave[i] on that belong to wave[i]'s manifold (a manifold's
   points are gathered together, in order). */
static int rg__collision_run(const rg__solver *s, int i, int count) {
    int run = 1;
    while (i + 2 * run < count && s->wave[i + 2 * run] == s->wave[i]) ++run;
    return run;
}

/* A manifold all of whose points collide in the wave (`ending` 0) is visited as a patch when
   they span a face: rg__prepare_points made the patch if they touch; otherwise it is made here
   with any gap (they all close theirs within the step), and taken back when the wave ends
   (`ending` 1), so that the contact stage sees the patches it would have without collisions.
   Friction's lever is that of uniform pressure: the wave's loads start from zero. */
static void rg__collision_wave_patches(rg_world *w, int ending) {
    rg__solver *s = &w->solver;
    rg_real slop = RG__SLOP_FRACTION * w->def.contact_tolerance;
    int i, k, run, count = (int)stbds_arrlen(s->wave);
    for (i = 0; i < count; i += 2 * run) {
        rg__solver_manifold *m = &s->manifolds[s->wave[i]];
        rg_real x[RG_MANIFOLD_MAX], z[RG_MANIFOLD_MAX], load[RG_MANIFOLD_MAX];
        run = rg__collision_run(s, i, count);
        if (ending) {
            if (m->patch && !rg__collision_touching(s, m, slop)) m->patch = 0;
            continue;
        }
        if (run != m->count || m->count < 3) continue;
        if (!m->patch) {
            rg__impulse_patch_shape(s, m, RG__REAL_MAX, s->narrow);
            if (m->patch) rg__impulse_patch_mass_of(s, m, 3);
        }
        if (!m->patch || !rg__impulse_has_friction(m)) continue;
        for (k = 0; k < m->count; ++k) {
            x[k] = s->points[m->first + k].patch_x;
            z[k] = s->points[m->first + k].patch_z;
            load[k] = 0;
        }
        m->patch_radius = rg__impulse_patch_radius(x, z, load, m->count);
    }
}

/* One sweep over the wave's `count` entries: a patch whose points are all in it as one
   (rg__collision_visit_face), every other point by itself. Returns the largest error found. */
static rg_real rg__collision_sweep(rg__solver *s, int count, rg_real h) {
    rg_real residual = 0;
    int i, j, run;
    for (i = 0; i < count; i += 2 * run) {
        const rg__solver_manifold *m = &s->manifolds[s->wave[i]];
        run = rg__collision_run(s, i, count);
        if (m->patch && run == m->count && rg__collision_visit_face(s, m, h, &residual)) continue;
        if (m->count == 2 && run == 2 && rg__collision_visit_edge(s, m, &residual)) {
            residual = rg__max_real(residual, rg__collision_friction(s, m, &s->points[m->first]));
            residual = rg__max_real(residual, rg__collision_friction(s, m, &s->points[m->first + 1]));
            continue;
        }
        for (j = 0; j < run; ++j)
            residual = rg__max_real(residual, rg__collision_visit(s, m, &s->points[s->wave[i + 2 * j + 1]]));
    }
    return residual;
}

/* When, within the step, a gap closes at approach speed s under the closing acceleration a
   (gravity along the normal). The velocity update adds g h before positions move by v h, so a
   falling body's positions run half a step ahead of its velocities: from the step's start the
   gap closes as (s + a h/2) t + a t^2 / 2. Returns h when it does not close in the step. */
static rg_real rg__collision_time_of_impact(rg_real gap, rg_real s, rg_real a, rg_real h) {
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
   -dv toi of rg__impulse_push the body then leaves the surface at the moment of impact with e
   times the speed it arrived with. The wave lists manifold and point. Returns the fastest
   approach. The first wave, with the velocities of the step's start, looks only at the
   manifolds rg__prepare_points found approaching that fast. */
static rg_real rg__collision_gather_wave(rg_world *w, rg_real h, rg_real threshold, int wave) {
    rg__solver *s = &w->solver;
    int i, j, count = (int)stbds_arrlen(s->manifolds);
    rg_real fastest = 0;
    stbds_arrsetlen(s->wave, 0);
    if (wave == 0 && s->approaching_count == 0) return 0;
    for (i = 0; i < count; ++i) {
        rg__solver_manifold *m;
        rg__solver_body *A, *B;
        rg_real gravity_n;
        if (wave == 0 && !s->approaching[i]) continue;
        m = &s->manifolds[i];
        A = &s->bodies[m->a];
        B = &s->bodies[m->b];
        gravity_n = rg_v3_dot(w->def.gravity, m->n) * (rg_real)(A->dynamic - B->dynamic);
        for (j = 0; j < m->count; ++j) {
            rg__solver_point *p = &s->points[m->first + j];
            rg_real un = rg__impulse_speed(A, B, m->n, p->ran, p->rbn);
            rg_real gap = -p->depth, toi;
            if (!(-un >= threshold) || p->normal_mass <= 0) continue;
            if (gap > 0 && !(gap < -(un + gravity_n * h) * h)) continue;
            toi = rg__collision_time_of_impact(gap, -un, -gravity_n, h);
            toi = rg__max_real(toi, rg__max_real(A->toi, B->toi));
            p->toi = rg__min_real(toi, h);
            p->target = -m->restitution * un -
                        (1 + m->restitution) * gravity_n * (h * (rg_real)0.5 + p->toi);
            p->pn = p->pt1 = p->pt2 = 0;
            p->stick = p->stuck_at_start;
            p->wave = wave;
            if (-un > fastest) fastest = -un;
            stbds_arrput(s->wave, i);
            stbds_arrput(s->wave, m->first + j);
        }
    }
    return fastest;
}

/* Bender §3.1 with Guendelman's sequencing. The points colliding at the start form the first
   wave and are resolved together (the same targets in every sweep, so simultaneous impacts are
   symmetric, as Ermolin & Kazakov require); a face whose points all collide in a wave is solved
   as one (rg__collision_visit_face), so that its points' order cannot make a symmetric impact
   asymmetric. Points that start approaching because of a wave's impulses form the next wave
   with their own targets; the earlier points, which reached theirs, are left alone unless they
   approach again. Momentum so travels along a row of touching bodies one impact after the
   other, as in Bender's office toy. The loop ends when no point collides or after
   collision_iterations sweeps. */
/* Whether a point of the wave (s->wave, count entries) bounces (restitution above 0): only then
   do the joints join the collision loop (rg__joint_collision_visit). Without a bounce the
   contact sweeps, which solve the joints with the contacts, reach the same velocities (a ball
   striking a door on a hinge with restitution 0: within 0.2% of the analytic ones), and a
   resting pile of ragdolls, whose small collisions never bounce, settled no worse. */
static int rg__collision_wave_bounces(const rg__solver *s, int count) {
    int i;
    for (i = 0; i < count; i += 2)
        if (s->manifolds[s->wave[i]].restitution > 0) return 1;
    return 0;
}

static void rg__collision_resolve(rg_world *w, rg_real h) {
    rg__solver *s = &w->solver;
    rg_real floor_speed = (rg_real)0.01 * w->def.contact_tolerance / h;
    rg_real threshold = rg__sqrt(2 * rg_v3_length(w->def.gravity) * w->def.contact_tolerance);
    int sweeps = 0, wave = 0, cap = w->def.collision_iterations, joints = 0;
    if (threshold < floor_speed) threshold = floor_speed;
    rg__prepare(w, threshold);
    while (sweeps < cap) {
        rg_real fastest = rg__collision_gather_wave(w, h, threshold, wave);
        rg_real tolerance = rg__max_real(rg__max_real(floor_speed, RG__COLLISION_RELATIVE_TOLERANCE * fastest),
                                         RG__COLLISION_THRESHOLD_FRACTION * threshold);
        int i, count = (int)stbds_arrlen(s->wave);
        if (count == 0) break;
        if (joints == 0 && rg__collision_wave_bounces(s, count)) joints = rg__joint_collision_begin(w);
        rg__collision_wave_patches(w, 0);
        while (sweeps < cap) {
            rg_real residual = rg__collision_sweep(s, count, h);
            ++sweeps;
            /* the joints in the same loop (Bender & Schmitt §4: "the iterative processes can be
               easily combined"), so that an impact meets a joined body's mass as the joint
               lends it */
            if (joints > 0) residual = rg__max_real(residual, rg__joint_collision_sweep(w));
            if (residual <= tolerance) break;
        }
        rg__collision_wave_patches(w, 1);
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
    if (joints > 0) rg__joint_collision_end(w);
    rg__prepare_scatter_velocities(w);
}

/* =============================================================================================
   >>predict: where contact points will be after the step: offsets, arms' turns
   ============================================================================================= */

/* The rotation of each body's offset dr, once for the contact stage and the first-order pass's
   prediction (dr changes only in the collisions before and in that pass's moves after). */
static void rg__predict_offset_turns(rg__solver *s) {
    int i, n = (int)stbds_arrlen(s->bodies);
    for (i = 0; i < n; ++i) {
        rg__solver_body *sb = &s->bodies[i];
        sb->offset_turns = rg_v3_length_squared(sb->dr) > RG__LINEAR_TURN * RG__LINEAR_TURN;
        if (sb->offset_turns) {
            sb->offset_turn = rg__integrate_turn_of(sb->dr);
            sb->offset_curvature = rg__integrate_curvature_of(&sb->offset_turn);
        }
    }
}

/* R(dr) r - r: the move of an arm by the body's offset turn. */
static rg_vec3 rg__predict_offset_rotation(const rg__solver_body *body, rg_vec3 r) {
    if (body->offset_turns) return rg__integrate_turn_apply(&body->offset_turn, r);
    if (body->dr.x == 0 && body->dr.y == 0 && body->dr.z == 0) return rg_v3(0, 0, 0);
    return rg__integrate_rotation_change(body->dr, r);
}

/* Where a's contact point ends relative to b's with the step's offsets only (no velocity):
   -depth n at the start, plus the offsets' motion d of the two points. The start has no
   tangential part: the tangential drifts come from the offsets' motion d only, never from the
   rounding of -depth n projected on t1 and t2, which the drifts divide by h and which would
   overflow for the shortest steps. */
static void rg__predict_base(rg__solver *s, const rg__solver_manifold *m, rg__solver_point *p, rg_real slop,
                                    rg_real h) {
    const rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    rg_vec3 d = rg_v3_sub(rg_v3_add(A->dx, rg__predict_offset_rotation(A, p->ra)),
                          rg_v3_add(B->dx, rg__predict_offset_rotation(B, p->rb)));
    rg_real share = rg__min_real(1, h * RG__PUSHOUT_RATE);
    p->base_n = rg_v3_dot(d, m->n) - p->depth;
    p->base_1 = rg_v3_dot(d, m->t1);
    p->base_2 = rg_v3_dot(d, m->t2);
    /* the velocity removes penetration up to the slop; what the first-order pass left beyond it
       stays for the next step's pass, never pushed out by a velocity the bodies would keep. A
       step shorter than 1 / RG__PUSHOUT_RATE removes only its share h RG__PUSHOUT_RATE of it:
       removing a penetration d in a step h takes a velocity d / h, so the push-out velocity
       (rest_rate) stays below slop * RG__PUSHOUT_RATE however short the step */
    p->floor_n = p->base_n < 0 ? p->base_n + rg__min_real(-p->base_n, slop) * share : 0;
    p->rest_rate = (p->floor_n - p->base_n) / h;
    p->drift_1 = p->base_1 / h;
    p->drift_2 = p->base_2 / h;
}

/* Does the pair turn so little in this step that the arms' turn is linear in w h to within
   5e-6 of their length? Then the prediction is base + h u (exact to that) and costs a few dot
   products; otherwise the arms and the normal are turned exactly. */
static inline int rg__predict_turns(const rg__solver *s, const rg__solver_manifold *m, rg_real h) {
    const rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    rg_real limit = RG__LINEAR_TURN * RG__LINEAR_TURN;
    return rg_v3_length_squared(rg_v3_madd(A->dr, A->w, h)) > limit ||
           rg_v3_length_squared(rg_v3_madd(B->dr, B->w, h)) > limit;
}

/* Row `row` of m dotted with v: m v's component, without copying m. */
static rg_real rg__predict_row_dot(const rg_mat3 *m, int row, rg_vec3 v) {
    return m->m[row][0] * v.x + m->m[row][1] * v.y + m->m[row][2] * v.z;
}

/* Starts a sweep: bodies' curvatures from before are stale. */
static void rg__predict_start_sweep(rg__solver *s) {
    if (++s->sweep == 0) s->sweep = 1;
}

/* The curvature of a body's arms over the step, theta = dr + w h, less that of the offset dr
   alone (already in the base). The velocities of the body's first visit in a sweep give it for
   the whole sweep: the curvature is of second order in w h, so the impulses of a sweep change
   it by second order only, and a body's four or so manifolds share one Rodrigues' rotation. */
static const rg_mat3 *rg__predict_body_curvature(const rg__solver *s, rg__solver_body *body, rg_real h) {
    if (body->curvature_sweep != s->sweep) {
        rg__turn turn = rg__integrate_turn_of(rg_v3_madd(body->dr, body->w, h));
        body->curvature = rg__integrate_curvature_of(&turn);
        if (body->offset_turns) body->curvature = rg_mat3_add(body->curvature, rg_mat3_scale(body->offset_curvature, -1));
        body->curvature_sweep = s->sweep;
    }
    return &body->curvature;
}

/* Bender §3.2, exactly: where a's point ends relative to b's, the centres moved by v h and the
   arms turned by the exact rotation of w h (eq. 7 integrated exactly), differs from the linear
   prediction base + h u by the arms' curvature, of a's arm less b's; returned along the normal
   (*bn) and the tangents (*b1, *b2). The normal keeps its direction: eq. (7) would turn it with
   the body whose face it is, which the narrow phase does not say, and turning it with the other
   one (or half with each) predicts penetration that is not there for pairs that slide fast
   while turning, and free collisions gain energy.
   A point on a sphere's or capsule's round surface is no material point: as the body rolls, the
   touching point stays where the surface is nearest the other, at the radius from the core, so
   it moves with the core and its arm takes no curvature (turned, a rolling ball's bottom would
   rise by r (1 - cos w h) and the ball sink that much into the ground each step). */
static void rg__predict_turn_correction(const rg__solver_manifold *m, const rg_mat3 *ca, const rg_mat3 *cb,
                                       const rg__solver_point *p, rg_real *bn, rg_real *b1, rg_real *b2) {
    rg_vec3 ra = m->round & 1 ? rg_v3(0, 0, 0) : p->ra, rb = m->round & 2 ? rg_v3(0, 0, 0) : p->rb;
    rg_vec3 d = rg_v3(rg__predict_row_dot(ca, 0, ra) - rg__predict_row_dot(cb, 0, rb),
                      rg__predict_row_dot(ca, 1, ra) - rg__predict_row_dot(cb, 1, rb),
                      rg__predict_row_dot(ca, 2, ra) - rg__predict_row_dot(cb, 2, rb));
    *bn = rg_v3_dot(d, m->n);
    *b1 = rg_v3_dot(d, m->t1);
    *b2 = rg_v3_dot(d, m->t2);
}

/* =============================================================================================
   >>island: islands of touching bodies, for the energy limits of warm start and shock propagation
   ============================================================================================= */

/* The root of i's island in the union-find forest `parent`, halving the path on the way. */
static int rg__island_root(int *parent, int i) {
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

/* a's and b's sets in `parent` made one, the smaller root the root. */
static void rg__island_join(int *parent, int a, int b) {
    int ra = rg__island_root(parent, a), rb = rg__island_root(parent, b);
    if (ra < rb) parent[rb] = ra;
    else if (rb < ra) parent[ra] = rb;
}

/* The islands of the contact graph: bodies joined by manifolds between two dynamic bodies
   (union-find with path halving, the smaller index the root). Fills s->island with each body's
   root. */
static void rg__island_build(rg__solver *s) {
    int i, n = (int)stbds_arrlen(s->bodies), count = (int)stbds_arrlen(s->manifolds);
    stbds_arrsetlen(s->island, n);
    for (i = 0; i < n; ++i) s->island[i] = i;
    for (i = 0; i < count; ++i) {
        const rg__solver_manifold *m = &s->manifolds[i];
        if (s->bodies[m->a].dynamic && s->bodies[m->b].dynamic) rg__island_join(s->island, m->a, m->b);
    }
    for (i = 0; i < n; ++i) s->island[i] = rg__island_root(s->island, i);
}

/* A manifold's island: that of its dynamic body (a manifold has at least one). */
static int rg__island_of_manifold(const rg__solver *s, const rg__solver_manifold *m) {
    return s->island[s->bodies[m->a].dynamic ? m->a : m->b];
}

/* Body i's terms of the kinetic energy KE(v0 + s dv) = KE(v0) + s B + s^2 C of the change of
   its velocities since they were v0, w0 (rg__shock_limit_energy), added to sums[0] (B) and
   sums[1] (C), and its slack at slack_speed to sums[2]. */
static void rg__island_add_energy_terms(const rg_world *w, int i, rg_vec3 v0, rg_vec3 w0, rg_real slack_speed, rg_real *sums) {
    const rg__body *body = &w->bodies[i];
    const rg__solver_body *sb = &w->solver.bodies[i];
    rg_vec3 dv = rg_v3_sub(sb->v, v0), dw, Idw;
    dw = rg_quat_rotate_inverse(body->orientation, rg_v3_sub(sb->w, w0));
    w0 = rg_quat_rotate_inverse(body->orientation, w0);
    Idw = rg_mat3_mul_v3(body->inertia_local, dw);
    sums[0] += body->mass * rg_v3_dot(v0, dv) + rg_v3_dot(w0, Idw);
    sums[1] += (body->mass * rg_v3_dot(dv, dv) + rg_v3_dot(dw, Idw)) / 2;
    sums[2] += body->mass * slack_speed * slack_speed / 2;
}

/* A dynamic body keeps the part `scale` of the change of its velocities since they were v0, w0:
   v0 + scale (v - v0). */
static void rg__island_body_keep_change(rg__solver_body *sb, rg_vec3 v0, rg_vec3 w0, rg_real scale) {
    if (!sb->dynamic || scale == 1) return;
    sb->v = rg_v3_madd(v0, rg_v3_sub(sb->v, v0), scale);
    sb->w = rg_v3_madd(w0, rg_v3_sub(sb->w, w0), scale);
}

/* The points' impulses to match: each point of an island with scale s (island_sums[3 root])
   keeps carry + s (p - carry) of them. At the warm start the carried impulses are still zero
   (rg__prepare_points clears the points), so the warm start's are scaled by s; after shock
   propagation the carry is the contact sweeps', and only shock's part is scaled. */
static void rg__island_keep_impulses(rg__solver *s) {
    int i, k, count = (int)stbds_arrlen(s->manifolds);
    for (i = 0; i < count; ++i) {
        const rg__solver_manifold *m = &s->manifolds[i];
        rg_real scale = s->island_sums[3 * rg__island_of_manifold(s, m)];
        if (scale == 1) continue;
        for (k = 0; k < m->count; ++k) {
            rg__solver_point *p = &s->points[m->first + k];
            p->pn = p->carry_n + scale * (p->pn - p->carry_n);
            p->pt1 = p->carry_t1 + scale * (p->pt1 - p->carry_t1);
            p->pt2 = p->carry_t2 + scale * (p->pt2 - p->carry_t2);
        }
    }
}

/* =============================================================================================
   >>warm: warm start: last step's impulses carried to this step, limited per island
   ============================================================================================= */

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

/* Impulses are forces times the step: a step of another length carries last step's in
   proportion. After a step more than RG__WARM_MAX_RATIO times shorter than this one, what it
   applied says little about this step's forces (a tiny step's impulses are mostly rounding)
   and the contacts start cold. */
static rg_real rg__warm_ratio(const rg_world *w) {
    rg_real ratio;
    if (!(w->previous_step_dt > 0)) return 1;
    ratio = w->step_dt / w->previous_step_dt;
    return ratio <= RG__WARM_MAX_RATIO ? ratio : 0;
}

/* Where last step's points are now. They lay on b's surface; b has moved since by about v h and
   turned by w h (the velocities it started this step with), and the points with it. Every
   carried point lies within RG__WARM_REACH hull radii of b's centre of mass, or this returns 0
   and the manifold starts cold: such a point is no point of b (b was moved by
   rg_body_set_transform, or carried by huge velocities), last step's load is not this
   contact's, and its lever arms would blow the spread load up. A point of b lies within one
   radius; the carry's linear turn and the first-order pass's offsets (not in the carry) move it
   out a little (cubes pushed out of half their width: 1.66 radii). */
static int rg__warm_carried_points(const rg__pair_manifold *previous, const rg__solver_body *B,
                                     const rg__body *body_b, rg_real h, rg_vec3 *now) {
    rg_vec3 turn = rg_v3_scale(B->w0, h), move = rg_v3_scale(B->v0, h);
    int j;
    for (j = 0; j < previous->count; ++j) {
        const rg__contact_point *q = &previous->points[j];
        now[j] = rg_v3_add(rg_v3_add(q->point, move), rg_v3_cross(turn, rg_v3_sub(q->point, body_b->com)));
        if (!rg__narrowphase_point_near_body(body_b, now[j], RG__WARM_REACH)) return 0;
    }
    return 1;
}

/* The resultant of last step's impulses about this step's patch centre c, in this step's frame,
   from where its points are now (rg__warm_carried_points). The impulses scale by step_ratio
   (above). */
static rg__patch_load rg__warm_previous_load(const rg__pair_manifold *previous, const rg__solver_manifold *m,
                                               const rg_vec3 *now, rg_vec3 c, rg_real step_ratio) {
    rg__patch_load load;
    int j;
    memset(&load, 0, sizeof load);
    for (j = 0; j < previous->count; ++j) {
        const rg__contact_point *q = &previous->points[j];
        rg_vec3 r = rg_v3_sub(now[j], c);
        rg_real x = rg_v3_dot(r, m->t1), z = rg_v3_dot(r, m->t2);
        rg_real f1 = step_ratio * rg_v3_dot(q->friction_impulse, m->t1);
        rg_real f2 = step_ratio * rg_v3_dot(q->friction_impulse, m->t2), N = step_ratio * q->normal_impulse;
        load.N += N;
        load.Mx += N * x;
        load.Mz += N * z;
        load.F1 += f1;
        load.F2 += f2;
        load.T += x * f2 - z * f1;
    }
    return load;
}

/* Spreads a resultant about c, the centre of where[], over the points where[] of the manifold's
   points that[] (see above); friction kept in the cone of mu_s. */
static void rg__warm_spread_load(const rg__solver_manifold *m, rg__solver_point *points, const int *that, int n,
                                   const rg_vec3 *where, rg_vec3 c, rg__patch_load load, rg_real narrow) {
    rg_real x[RG_MANIFOLD_MAX], z[RG_MANIFOLD_MAX], mx = 0, mz = 0;
    rg_real normal[RG_MANIFOLD_MAX], f1[RG_MANIFOLD_MAX], f2[RG_MANIFOLD_MAX];
    rg_real beta = 0, gamma = 0, twist = 0;
    rg__patch_moments mo;
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
    }
    mo = rg__impulse_patch_moments_of(x, z, n);
    /* a patch narrower than `narrow` is a point: it carries force, no moments */
    if (mo.trace > (rg_real)n * narrow * narrow) {
        twist = load.T / mo.trace;
        if (mo.det > RG__LINE_PATCH * mo.trace * mo.trace) {
            beta = (mo.szz * load.Mx - mo.sxz * load.Mz) / mo.det;
            gamma = (mo.sxx * load.Mz - mo.sxz * load.Mx) / mo.det;
        } else {
            /* the points lie on a line: only the moment about its perpendicular is carried */
            rg_real e1 = mo.sxx >= mo.szz ? mo.sxx : mo.sxz, e2 = mo.sxx >= mo.szz ? mo.sxz : mo.szz;
            rg_real length = rg__sqrt(e1 * e1 + e2 * e2);
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
    for (i = 0; i < n; ++i) normal[i] = points[that[i]].pn = rg__max_real(load.N / (rg_real)n + beta * x[i] + gamma * z[i], 0);
    if (load.N > 0 && rg__impulse_spread_friction(normal, x, z, n, load.F1, load.F2, load.T, narrow, f1, f2) >= 0) {
        for (i = 0; i < n; ++i) {
            points[that[i]].pt1 = f1[i];
            points[that[i]].pt2 = f2[i];
        }
        return;
    }
    for (i = 0; i < n; ++i) {
        points[that[i]].pt1 = load.F1 / (rg_real)n - twist * z[i];
        points[that[i]].pt2 = load.F2 / (rg_real)n + twist * x[i];
    }
}

/* p . u: a point's impulses times the relative velocities along them, for the bodies' current
   velocities. */
static rg_real rg__warm_point_power(const rg__solver *s, const rg__solver_manifold *m, const rg__solver_point *p) {
    const rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    return p->pn * rg__impulse_speed(A, B, m->n, p->ran, p->rbn) + p->pt1 * rg__impulse_speed(A, B, m->t1, p->ra1, p->rb1) +
           p->pt2 * rg__impulse_speed(A, B, m->t2, p->ra2, p->rb2);
}

/* A manifold's p . u0, for the velocities before the warm start, and p . t (see below), into
   power[0] and power[1], once its points have their warm-start impulses; rg__warm_island_powers
   adds them to the islands' sums. */
static void rg__warm_manifold_power(const rg__solver *s, const rg__solver_manifold *m, rg_real h, rg_real *power) {
    int k;
    power[0] = power[1] = 0;
    for (k = 0; k < m->count; ++k) {
        const rg__solver_point *p = &s->points[m->first + k];
        power[0] += rg__warm_point_power(s, m, p);
        power[1] += (p->pn * (p->floor_n - p->base_n) - p->pt1 * p->base_1 - p->pt2 * p->base_2) / h;
    }
}

/* Each island's sums[0] and sums[1] (see below): its manifolds' powers added in their order. */
static void rg__warm_island_powers(rg__solver *s) {
    int i, count = (int)stbds_arrlen(s->manifolds), n = (int)stbds_arrlen(s->bodies);
    stbds_arrsetlen(s->island_sums, 3 * n);
    for (i = 0; i < 3 * n; ++i) s->island_sums[i] = 0;
    for (i = 0; i < count; ++i) {
        rg_real *sums = &s->island_sums[3 * rg__island_of_manifold(s, &s->manifolds[i])];
        sums[0] += s->manifold_power[2 * i];
        sums[1] += s->manifold_power[2 * i + 1];
    }
}

/* Adds p.(u1 - u0) = p^T A p to each island's sums[2]: twice the kinetic energy of the velocity
   change the warm start made, which only dynamic bodies have (dw^T I dw in the body's frame). */
static void rg__warm_island_curvature(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, n = (int)stbds_arrlen(s->bodies);
    for (i = 0; i < n; ++i) {
        const rg__solver_body *sb = &s->bodies[i];
        const rg__body *body = &w->bodies[i];
        rg_vec3 dv, dw;
        if (!sb->dynamic) continue;
        dv = rg_v3_sub(sb->v, body->linear_velocity);
        dw = rg_quat_rotate_inverse(body->orientation, rg_v3_sub(sb->w, body->angular_velocity));
        s->island_sums[3 * s->island[i] + 2] +=
            body->mass * rg_v3_dot(dv, dv) + rg_v3_dot(dw, rg_mat3_mul_v3(body->inertia_local, dw));
    }
}

/* The warm start is only the sweeps' first iterate. Without friction a contact sweep is
   projected Gauss-Seidel (Bender eqs. 2-3 and 8) on f(p) = KE(v(p)) - p . t, t the relative
   velocities that bring the points to their floors, and every visit lowers f; last step's
   impulses are a good first iterate while loads change slowly. After an impact they are not:
   the sweeps that absorbed it carry impulses tens of times the resting loads, and re-applied to
   bodies that no longer press together they push them apart with energy the capped sweeps and
   shock propagation do not take back (soak: a plank flung up by a landing kept 4.3 J). Sweeps
   that start from a p with f(p) <= f(0) end no higher than from a cold start; so an island whose
   warm start p would raise f above a cold start's takes it only as far as it lowers f: with u0
   and u1 the points' velocities before and after all of it, f(s p) = s p.(u0 - t) +
   s^2 p.(u1 - u0) / 2 is positive at s = 1 exactly when -p.(u0 - t) < p.(u1 - u0) / 2, and then
   least at s = -p.(u0 - t) / p.(u1 - u0), below 1/2 (0 if it only raises f). A warm start that
   lowers f is kept whole, though a resting pile's lies a little past its minimum (pyramid: cut
   to the minimum, its top drifts twice as far). Scaling the impulses keeps them in their cones
   and the velocities' change is linear in them, so the scaled start is exact. sums[3 r] holds
   p.u0, sums[3 r + 1] p.t and sums[3 r + 2] p.(u1 - u0) of the island with root r.
   rg__warm_scale gives that part from the slope p.(u0 - t) and the curvature p.(u1 - u0) (an
   island whose sums are not finite, overflowed, starts cold instead of taking all of it); the
   joints' warm start takes it too (rg__joint_warm_limit). */
static rg_real rg__warm_scale(rg_real slope, rg_real curvature) {
    if (!rg__is_finite_real(slope + curvature)) return 0;
    return slope + curvature / 2 > 0 ? (slope < 0 ? -slope / curvature : 0) : 1;
}

static void rg__warm_limit(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, n = (int)stbds_arrlen(s->bodies);
    rg__warm_island_curvature(w);
    for (i = 0; i < n; ++i) { /* from here on sums[0] is the island's scale */
        rg_real *sums = &s->island_sums[3 * i];
        sums[0] = rg__warm_scale(sums[0] - sums[1], sums[2]);
    }
    for (i = 0; i < n; ++i)
        rg__island_body_keep_change(&s->bodies[i], w->bodies[i].linear_velocity, w->bodies[i].angular_velocity,
                                    s->island_sums[3 * s->island[i]]);
    rg__island_keep_impulses(s);
}

/* Applies the points' warm-start impulses, each island's limited as above (its sums[0] and
   sums[1] added up by rg__contact_start). */
static void rg__warm_apply(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, k, count = (int)stbds_arrlen(s->manifolds);
    for (i = 0; i < count; ++i) {
        const rg__solver_manifold *m = &s->manifolds[i];
        for (k = 0; k < m->count; ++k) {
            const rg__solver_point *p = &s->points[m->first + k];
            rg__impulse_push(&s->bodies[m->a], &s->bodies[m->b], m->n, p->wan, p->wbn, p->pn, 0);
            rg__impulse_push_tangent(&s->bodies[m->a], &s->bodies[m->b], m, p, p->pt1, p->pt2, 0);
        }
    }
    rg__warm_limit(w);
}

/* =============================================================================================
   >>contact: resting contacts: sweeps of manifold visits (Bender §3.2, Guendelman §8.1)
   ============================================================================================= */

/* The relative velocity of a patch's points (a's less b's) as the patch's motion. With
   v = v_a - v_b, w = w_a - w_b and the arms of the patch's centre, the point at (x, z) in the
   patch, whose arms lie alpha and beta along n from the centre's, moves
     along n:  un - x (w . t2) + z (w . t1),
     along t1: u1 - z (w . n) + alpha (w_a . t2) - beta (w_b . t2),
     along t2: u2 + x (w . n) - alpha (w_a . t1) + beta (w_b . t1),
   since a point on a is its point on b less depth n, so the two arms' offsets from the centre
   differ along n only (and t1 x n = -t2, t2 x n = t1, n x t1 = t2). This is Bender's u_rel of
   every point exactly, for a few dot products per patch instead of three per point. */
typedef struct rg__patch_motion {
    rg_real un, u1, u2;           /* the centre's relative velocity along n, t1 and t2 */
    rg_real a1, a2, b1, b2;       /* w_a . t1, w_a . t2, w_b . t1, w_b . t2 */
    rg_real spin;                 /* w . n */
} rg__patch_motion;

/* The patch motion of the pair's current velocities (above); the tangential parts (u1, u2,
   spin) only when `tangential` is set. */
static inline rg__patch_motion rg__contact_patch_motion_of(const rg__solver_body *A, const rg__solver_body *B,
                                                   const rg__solver_manifold *m, int tangential) {
    rg__patch_motion u;
    rg_vec3 v = rg_v3_sub(A->v, B->v);
    u.un = rg_v3_dot(v, m->n) + rg_v3_dot(A->w, m->patch_ran) - rg_v3_dot(B->w, m->patch_rbn);
    u.a1 = rg_v3_dot(A->w, m->t1);
    u.a2 = rg_v3_dot(A->w, m->t2);
    u.b1 = rg_v3_dot(B->w, m->t1);
    u.b2 = rg_v3_dot(B->w, m->t2);
    u.u1 = u.u2 = u.spin = 0;
    if (tangential) {
        u.u1 = rg_v3_dot(v, m->t1) + rg_v3_dot(A->w, m->patch_ra1) - rg_v3_dot(B->w, m->patch_rb1);
        u.u2 = rg_v3_dot(v, m->t2) + rg_v3_dot(A->w, m->patch_ra2) - rg_v3_dot(B->w, m->patch_rb2);
        u.spin = rg_v3_dot(rg_v3_sub(A->w, B->w), m->n);
    }
    return u;
}

/* The patch motion (e_c + g1 x + g2 z, as (e_c, g1, g2)) that fits velocities `rate` of the
   patch's points best (least squares); returns whether it meets every point within
   RG__CONTACT_EXIT_FRACTION of the tolerance, as a velocity over the step h. */
static int rg__contact_patch_fit(const rg__solver *s, const rg__solver_manifold *m, const rg__solver_point *points,
                         const rg_real *rate, rg_real h, rg_vec3 *fit) {
    rg_real e = 0, ex = 0, ez = 0, misfit = RG__CONTACT_EXIT_FRACTION * s->narrow / h;
    int j;
    for (j = 0; j < m->count; ++j) {
        e += rate[j];
        ex += rate[j] * points[j].patch_x;
        ez += rate[j] * points[j].patch_z;
    }
    *fit = rg_v3(e / (rg_real)m->count, m->patch_sxx * ex + m->patch_sxz * ez, m->patch_sxz * ex + m->patch_szz * ez);
    for (j = 0; j < m->count; ++j)
        if (!(rg__fabs(rate[j] - (fit->x + fit->y * points[j].patch_x + fit->z * points[j].patch_z)) <= misfit)) return 0;
    return 1;
}

/* A patch's fit of its points' rest_rate, for the contact stage (the rates stay the same
   through it; only the arms' curvature of a turning pair adds to them, rg__contact_visit_patch). */
static void rg__contact_rate_fit(const rg__solver *s, rg__solver_manifold *m, rg_real h) {
    const rg__solver_point *points = &s->points[m->first];
    rg_real rate[RG_MANIFOLD_MAX];
    int j;
    if (!m->patch) return;
    for (j = 0; j < m->count; ++j) rate[j] = points[j].rest_rate;
    m->rate_fits = rg__contact_patch_fit(s, m, points, rate, h, &m->rate_fit);
}

/* The normal part of a visit to a patch (rg__impulse_patch_shape): the points' errors, the
   velocities by which each misses its least separation, are fitted by the patch's motion
   (least squares: e_c + g1 x + g2 z), and the resultant that gives the patch that motion solves
   Bender's eq. (8) for all its points at once. An error is the point's rate (rest_rate, less
   the arms' curvature over h for a turning pair) less its velocity, and the velocities are the
   patch's motion exactly (rg__contact_patch_motion_of): so the fit is the rates' fit less that motion,
   and it misses the points as the rates' fit does. The new resultant is spread affinely over
   the points (the least-norm split). If the fit misses a point by more than
   RG__CONTACT_EXIT_FRACTION of the tolerance, or a point would then pull (the patch is lifting
   at an edge), the visit falls back to point-by-point impulses, whose clamps (eqs. 2-3) decide
   which points keep touching.
   Returns 0 for that fall-back. */
/* A patch's normal state at the current velocities: the fit of its points' errors less the
   patch's motion (below), the resultant of its points' impulses, and whether a point asks for
   more push. */
typedef struct rg__patch_normal {
    rg_vec3 fit;
    rg_real N, Mx, Mz;
    int pressing;
} rg__patch_normal;

/* The normal state (above); returns 0 when the errors are not affine over the patch (the fit
   misses a point by more than RG__CONTACT_EXIT_FRACTION of the tolerance). */
static inline int rg__contact_patch_normal_of(const rg__solver *s, const rg__solver_manifold *m, const rg_real *cn, rg_real h,
                                              rg__patch_normal *out) {
    const rg__solver_point *points = &s->points[m->first];
    rg__patch_motion u = rg__contact_patch_motion_of(&s->bodies[m->a], &s->bodies[m->b], m, 0);
    rg_vec3 fit = m->rate_fit;
    int j;
    if (cn) {
        rg_real rate[RG_MANIFOLD_MAX];
        for (j = 0; j < m->count; ++j) rate[j] = points[j].rest_rate - cn[j] / h;
        if (!rg__contact_patch_fit(s, m, points, rate, h, &fit)) return 0;
    } else if (!m->rate_fits) {
        return 0;
    }
    /* less the motion: its slopes across the patch are -(w . t2) and w . t1 */
    fit = rg_v3(fit.x - u.un, fit.y - (u.b2 - u.a2), fit.z - (u.a1 - u.b1));
    out->fit = fit;
    out->N = out->Mx = out->Mz = 0;
    out->pressing = 0;
    for (j = 0; j < m->count; ++j) {
        const rg__solver_point *p = &points[j];
        if (fit.x + fit.y * p->patch_x + fit.z * p->patch_z > 0) out->pressing = 1;
        out->N += p->pn;
        out->Mx += p->pn * p->patch_x;
        out->Mz += p->pn * p->patch_z;
    }
    return 1;
}

/* The points' new normal impulses `load`; each point's change, over its normal mass, an error. */
static inline void rg__contact_patch_set_loads(rg__solver *s, const rg__solver_manifold *m, const rg_real *load, rg_real h,
                                               rg_real *worst) {
    int j;
    for (j = 0; j < m->count; ++j) {
        rg__solver_point *p = &s->points[m->first + j];
        if (p->normal_mass > 0) *worst = rg__max_real(*worst, rg__fabs(load[j] - p->pn) / p->normal_mass * h);
        p->pn = load[j];
    }
}

static inline int rg__contact_visit_patch(rg__solver *s, rg__solver_manifold *m, const rg_real *cn, rg_real h, rg_real *worst,
                                          const rg__patch_normal *known) {
    rg_real load[RG_MANIFOLD_MAX];
    rg__patch_normal c;
    rg_vec3 change;
    if (known) c = *known;
    else if (!rg__contact_patch_normal_of(s, m, cn, h, &c)) return 0;
    if (!c.pressing && !(c.N > 0)) return 1;
    change = rg_mat3_mul_v3(m->patch_mass, c.fit);
    if (!rg__impulse_patch_loads(s, m, c.N + change.x, c.Mx + change.y, c.Mz + change.z, load)) return 0;
    rg__contact_patch_set_loads(s, m, load, h, worst);
    rg__impulse_push_resultant(&s->bodies[m->a], &s->bodies[m->b], rg_v3_scale(m->n, change.x), change, m->patch_wa,
                               m->patch_wb);
    return 1;
}

/* Friction on a patch, as one resultant (F1, F2 and the twist T about its centre) held by its
   limit surface (rg__impulse_patch_radius). The tangential drift of its points (Bender's d_t,
   here as velocities, e = (base_t + curvature) / h + u_t) is affine in the point's place, a drift
   of the centre plus a twist about n; the resultant that removes both solves a 3x3 system like
   the normals'. A patch whose points are all marked keeps it within mu_s's surface (eq. 6,
   scaled onto it when beyond); otherwise it sticks only if mu_d's surface holds it or the
   resultant that stops its motion (eq. 5), and else slides (eq. 4: rg__impulse_patch_sliding).
   The resultant is spread over the points by their normal impulses (rg__impulse_spread_friction);
   a load on a spot too narrow to twist falls back to point-by-point friction. Returns 0 for that. */
/* A patch's tangential state at the current velocities: its points' places and normal impulses,
   the least-squares drift of its centre and its twist rate (Bender's d_t as velocities, the
   points' e = (base_t + curvature) / h + u_t), the friction resultant of its points' impulses,
   its load, whether every point is marked, the largest squared drift of a point, and the
   patch's own sliding motion. */
typedef struct rg__patch_drift {
    rg_real x[RG_MANIFOLD_MAX], z[RG_MANIFOLD_MAX], normal[RG_MANIFOLD_MAX];
    rg_vec3 drift, old, motion;
    rg_real N, largest;
    int marked;
} rg__patch_drift;

static inline void rg__contact_patch_drift_of(const rg__solver *s, const rg__solver_manifold *m, const rg_real *c1,
                                              const rg_real *c2, rg_real h, rg__patch_drift *out) {
    const rg__solver_point *points = &s->points[m->first];
    rg_real count = (rg_real)m->count, E1 = 0, E2 = 0, Et = 0;
    rg__patch_motion u = rg__contact_patch_motion_of(&s->bodies[m->a], &s->bodies[m->b], m, 1);
    int j;
    out->old = rg_v3(0, 0, 0);
    out->N = out->largest = 0;
    out->marked = 1;
    for (j = 0; j < m->count; ++j) {
        const rg__solver_point *p = &points[j];
        rg_real e1 = p->drift_1 + u.u1 - p->patch_z * u.spin + p->patch_an * u.a2 - p->patch_bn * u.b2;
        rg_real e2 = p->drift_2 + u.u2 + p->patch_x * u.spin - p->patch_an * u.a1 + p->patch_bn * u.b1;
        rg_real x = out->x[j] = p->patch_x, z = out->z[j] = p->patch_z;
        if (c1) {
            e1 += c1[j] / h;
            e2 += c2[j] / h;
        }
        out->normal[j] = p->pn;
        E1 += e1;
        E2 += e2;
        Et += x * e2 - z * e1;
        out->old = rg_v3_add(out->old, rg_v3(p->pt1, p->pt2, x * p->pt2 - z * p->pt1));
        out->N += p->pn;
        out->marked &= p->stick;
        out->largest = rg__max_real(out->largest, e1 * e1 + e2 * e2);
    }
    out->drift = rg_v3(E1 / count, E2 / count, Et / m->patch_r2);
    out->motion = rg_v3(u.u1, u.u2, u.spin);
}

/* The points' new friction impulses (f1, f2), their mark, and the resultant's change pushed. */
static inline void rg__contact_patch_set_friction(rg__solver *s, const rg__solver_manifold *m, const rg_real *f1, const rg_real *f2,
                                                  int stick, rg_vec3 change) {
    rg_vec3 force = rg_v3_add(rg_v3_scale(m->t1, change.x), rg_v3_scale(m->t2, change.y));
    int j;
    for (j = 0; j < m->count; ++j) {
        rg__solver_point *p = &s->points[m->first + j];
        p->pt1 = f1[j];
        p->pt2 = f2[j];
        p->stick |= stick;
    }
    rg__impulse_push_resultant(&s->bodies[m->a], &s->bodies[m->b], force, change, m->patch_fa, m->patch_fb);
}

static inline int rg__contact_visit_patch_friction(rg__solver *s, rg__solver_manifold *m, const rg_real *c1, const rg_real *c2,
                                                   rg_real h, rg_real *worst) {
    rg_real f1[RG_MANIFOLD_MAX], f2[RG_MANIFOLD_MAX], e = m->patch_radius;
    rg__patch_drift c;
    rg_vec3 P;
    int stick = 1;
    rg__contact_patch_drift_of(s, m, c1, c2, h, &c);
    if (!(c.N > 0) || !(e > 0)) return 0;
    P = rg_v3_sub(c.old, rg_mat3_mul_v3(m->patch_friction_mass, c.drift));
    if (c.marked) {
        P = rg__impulse_patch_friction_clamp(P, e, m->static_friction * c.N);
    } else if (!(rg__impulse_patch_friction_size(P, e) <= m->dynamic_friction * c.N)) {
        P = rg_v3_sub(c.old, rg_mat3_mul_v3(m->patch_friction_mass, c.motion));
        if (!(rg__impulse_patch_friction_size(P, e) <= m->dynamic_friction * c.N)) {
            stick = 0;
            if (!rg__impulse_patch_sliding(&m->patch_friction_mass, c.old, c.motion, e, m->dynamic_friction * c.N, &P))
                return 0;
        }
    }
    if (rg__impulse_spread_friction(c.normal, c.x, c.z, m->count, P.x, P.y, P.z, s->narrow, f1, f2) != 0) return 0;
    if (stick) *worst = rg__max_real(*worst, rg__sqrt(c.largest) * h);
    rg__contact_patch_set_friction(s, m, f1, f2, stick, rg_v3_sub(P, c.old));
    return 1;
}

/* A patch whose points all stick and carry a load: its normal and friction resultants solved
   together (rg__impulse_patch_coupled), so that one visit meets both where the two in turn
   converge slowly; `normal` is its normal state. Returns 0, changing nothing, when a point does
   not stick, a point would pull or the friction would leave the static surface: then the visits
   in turn decide. */
static inline int rg__contact_visit_patch_stuck(rg__solver *s, rg__solver_manifold *m, const rg_real *c1, const rg_real *c2,
                                                rg_real h, rg_real *worst, const rg__patch_normal *normal) {
    rg_real load[RG_MANIFOLD_MAX], f1[RG_MANIFOLD_MAX], f2[RG_MANIFOLD_MAX], e = m->patch_radius;
    rg__patch_drift c;
    rg_vec3 dn, df, P;
    int j;
    for (j = 0; j < m->count; ++j)
        if (!s->points[m->first + j].stick) return 0;
    rg__contact_patch_drift_of(s, m, c1, c2, h, &c);
    if (!c.marked || !(c.N > 0) || !(e > 0)) return 0;
    rg__impulse_patch_coupled(m, rg_mat3_mul_v3(m->patch_mass, normal->fit), c.drift, &dn, &df);
    if (!rg__impulse_patch_loads(s, m, normal->N + dn.x, normal->Mx + dn.y, normal->Mz + dn.z, load)) return 0;
    P = rg_v3_add(c.old, df);
    if (!(rg__impulse_patch_friction_size(P, e) <= m->static_friction * (normal->N + dn.x))) return 0;
    if (rg__impulse_spread_friction(load, c.x, c.z, m->count, P.x, P.y, P.z, s->narrow, f1, f2) != 0) return 0;
    rg__contact_patch_set_loads(s, m, load, h, worst);
    rg__impulse_push_resultant(&s->bodies[m->a], &s->bodies[m->b], rg_v3_scale(m->n, dn.x), dn, m->patch_wa, m->patch_wb);
    *worst = rg__max_real(*worst, rg__sqrt(c.largest) * h);
    rg__contact_patch_set_friction(s, m, f1, f2, 1, df);
    return 1;
}

/* One visit of a manifold of resting contacts. Bender §3.2: predict where each point pair
   will be after the step with the current velocities; the impulse of eq. (8) removes the
   predicted penetration (the first-order pass took what lay beyond the slop), its sum clamped
   as in eqs. (2)-(3), so a gap may close but never pulls; a patch takes it for all its points
   at once (rg__contact_visit_patch). Normal parts of all points first, then friction: static
   friction removes the predicted tangential drift d_t, dynamic friction acts on the sliding
   velocity; doing the normals first keeps friction from fighting the turning
   the first normal impulses cause before the others balance it. Then rolling and spinning
   friction. Returns the largest error found, as a length. */
static rg_real rg__contact_visit_manifold(rg__solver *s, rg__solver_manifold *m, rg_real h) {
    rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
    rg_real curvature_n[RG_MANIFOLD_MAX], curvature_1[RG_MANIFOLD_MAX], curvature_2[RG_MANIFOLD_MAX], worst = 0;
    rg_real *cn = NULL, *c1 = NULL, *c2 = NULL; /* the arms' curvature, for a pair that turns */
    int j, affine = 0; /* the patch's visit met its points (else they are visited one by one) */
    if (rg__predict_turns(s, m, h)) {
        const rg_mat3 *ca = rg__predict_body_curvature(s, A, h), *cb = rg__predict_body_curvature(s, B, h);
        cn = curvature_n;
        c1 = curvature_1;
        c2 = curvature_2;
        for (j = 0; j < m->count; ++j) rg__predict_turn_correction(m, ca, cb, &s->points[m->first + j], &cn[j], &c1[j], &c2[j]);
    }
    if (m->patch) {
        rg__patch_normal normal;
        affine = rg__contact_patch_normal_of(s, m, cn, h, &normal);
        if (affine && rg__impulse_has_friction(m) && rg__contact_visit_patch_stuck(s, m, c1, c2, h, &worst, &normal)) {
            rg__impulse_rolling(s, m);
            return worst;
        }
        if (affine) affine = rg__contact_visit_patch(s, m, cn, h, &worst, &normal);
    }
    if (!affine) {
        for (j = 0; j < m->count; ++j) {
            rg__solver_point *p = &s->points[m->first + j];
            /* the velocity by which the point misses its least separation */
            rg_real error = p->rest_rate - rg__impulse_speed(A, B, m->n, p->ran, p->rbn);
            if (cn) error -= cn[j] / h;
            if ((error > 0 || p->pn > 0) && p->normal_mass > 0) {
                rg_real next = p->pn + error * p->normal_mass, dp; /* eq. (8) */
                if (next < 0) next = 0;
                dp = next - p->pn;
                p->pn = next;
                worst = rg__max_real(worst, rg__fabs(dp) / p->normal_mass * h);
                rg__impulse_push(A, B, m->n, p->wan, p->wbn, dp, 0);
            }
        }
    }
    if (rg__impulse_has_friction(m) && !(m->patch && rg__contact_visit_patch_friction(s, m, c1, c2, h, &worst)))
        for (j = 0; j < m->count; ++j) {
            rg__solver_point *p = &s->points[m->first + j];
            rg_real u1, u2, e1, e2, d1, d2;
            if (!(p->pn > 0) && p->pt1 == 0 && p->pt2 == 0) continue;
            u1 = rg__impulse_speed(A, B, m->t1, p->ra1, p->rb1);
            u2 = rg__impulse_speed(A, B, m->t2, p->ra2, p->rb2);
            e1 = p->drift_1 + u1; /* the predicted drift d_t, as a velocity */
            e2 = p->drift_2 + u2;
            if (c1) {
                e1 += c1[j] / h;
                e2 += c2[j] / h;
            }
            rg__impulse_friction(p, m->static_friction, m->dynamic_friction, e1, e2, u1, u2, &d1, &d2);
            if (p->stick) worst = rg__max_real(worst, rg__sqrt(e1 * e1 + e2 * e2) * h);
            rg__impulse_push_tangent(A, B, m, p, d1, d2, 0);
        }
    rg__impulse_rolling(s, m);
    return worst;
}

/* ---- lanes: RG__LANES reals solved by the same operations at once ----
   With SSE2 a lane vector is four floats in a register; elsewhere (RIGID_DOUBLE, compilers
   without SSE2 such as tcc, or RIGID_NO_SIMD) an array of reals, each operation a loop over it.
   Both do in every lane exactly the IEEE operation the scalar code does (add, subtract,
   multiply, divide, square root; no fused multiply-add, nothing reassociated), so a lane's
   result is bit for bit the scalar one on every build. A mask holds each lane's truth. */
#if RG__LANES != 4
#error "rigid.h: the lanes kernel is written for RG__LANES 4"
#endif
#if defined(__SSE2__) && !defined(RIGID_DOUBLE) && !defined(RIGID_NO_SIMD)
#include <emmintrin.h>
typedef __m128 rg__lane;
typedef __m128 rg__lane_mask;
static inline rg__lane rg__lane_set(rg_real a, rg_real b, rg_real c, rg_real d) { return _mm_setr_ps(a, b, c, d); }
static inline rg__lane rg__lane_all(rg_real a) { return _mm_set1_ps(a); }
static inline void rg__lane_get(rg__lane a, rg_real *out) { _mm_storeu_ps(out, a); }
static inline rg__lane rg__lane_add(rg__lane a, rg__lane b) { return _mm_add_ps(a, b); }
static inline rg__lane rg__lane_sub(rg__lane a, rg__lane b) { return _mm_sub_ps(a, b); }
static inline rg__lane rg__lane_mul(rg__lane a, rg__lane b) { return _mm_mul_ps(a, b); }
static inline rg__lane rg__lane_div(rg__lane a, rg__lane b) { return _mm_div_ps(a, b); }
static inline rg__lane rg__lane_sqrt(rg__lane a) { return _mm_sqrt_ps(a); }
static inline rg__lane rg__lane_neg(rg__lane a) { return _mm_xor_ps(a, _mm_set1_ps(-0.0f)); }
static inline rg__lane rg__lane_abs(rg__lane a) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), a); }
static inline rg__lane_mask rg__lane_gt(rg__lane a, rg__lane b) { return _mm_cmpgt_ps(a, b); }
static inline rg__lane_mask rg__lane_ge(rg__lane a, rg__lane b) { return _mm_cmpge_ps(a, b); }
static inline rg__lane_mask rg__lane_le(rg__lane a, rg__lane b) { return _mm_cmple_ps(a, b); }
static inline rg__lane_mask rg__lane_eq(rg__lane a, rg__lane b) { return _mm_cmpeq_ps(a, b); }
static inline rg__lane_mask rg__lane_and(rg__lane_mask a, rg__lane_mask b) { return _mm_and_ps(a, b); }
static inline rg__lane_mask rg__lane_or(rg__lane_mask a, rg__lane_mask b) { return _mm_or_ps(a, b); }
static inline int rg__lane_bits(rg__lane_mask a) { return _mm_movemask_ps(a); }
static inline rg__lane rg__lane_select(rg__lane_mask mask, rg__lane a, rg__lane b) {
    return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}
/* The reals at `offsets` (count of them, consecutive here: rg__lane_offsets) in each of the
   records, as lanes: four at a time, one unaligned load per record and a 4x4 transpose. Reads up
   to three reals past the last, which the records hold (rg__lane_offsets). */
static inline void rg__lane_gather(const void *const *records, const size_t *offsets, int count, rg__lane *out) {
    const float *r0 = (const float *)((const char *)records[0] + offsets[0]);
    const float *r1 = (const float *)((const char *)records[1] + offsets[0]);
    const float *r2 = (const float *)((const char *)records[2] + offsets[0]);
    const float *r3 = (const float *)((const char *)records[3] + offsets[0]);
    int i;
    for (i = 0; i < count; i += 4) {
        __m128 a = _mm_loadu_ps(r0 + i), b = _mm_loadu_ps(r1 + i), c = _mm_loadu_ps(r2 + i), d = _mm_loadu_ps(r3 + i);
        __m128 ab_lo = _mm_unpacklo_ps(a, b), ab_hi = _mm_unpackhi_ps(a, b);
        __m128 cd_lo = _mm_unpacklo_ps(c, d), cd_hi = _mm_unpackhi_ps(c, d);
        out[i] = _mm_movelh_ps(ab_lo, cd_lo);
        out[i + 1] = _mm_movehl_ps(cd_lo, ab_lo);
        out[i + 2] = _mm_movelh_ps(ab_hi, cd_hi);
        out[i + 3] = _mm_movehl_ps(cd_hi, ab_hi);
    }
}
#define RG__LANE_CONSECUTIVE 1
#define RG__LANE_SIMD 1
#else
typedef struct rg__lane {
    rg_real v[RG__LANES];
} rg__lane;
typedef struct rg__lane_mask {
    int v[RG__LANES];
} rg__lane_mask;
static inline rg__lane rg__lane_set(rg_real a, rg_real b, rg_real c, rg_real d) {
    rg__lane r;
    r.v[0] = a;
    r.v[1] = b;
    r.v[2] = c;
    r.v[3] = d;
    return r;
}
static inline rg__lane rg__lane_all(rg_real a) { return rg__lane_set(a, a, a, a); }
static inline void rg__lane_get(rg__lane a, rg_real *out) {
    int k;
    for (k = 0; k < RG__LANES; ++k) out[k] = a.v[k];
}
#define RG__LANE_MAP(type, expression)                      \
    type r;                                                 \
    int k;                                                  \
    for (k = 0; k < RG__LANES; ++k) r.v[k] = (expression);  \
    return r
static inline rg__lane rg__lane_add(rg__lane a, rg__lane b) { RG__LANE_MAP(rg__lane, a.v[k] + b.v[k]); }
static inline rg__lane rg__lane_sub(rg__lane a, rg__lane b) { RG__LANE_MAP(rg__lane, a.v[k] - b.v[k]); }
static inline rg__lane rg__lane_mul(rg__lane a, rg__lane b) { RG__LANE_MAP(rg__lane, a.v[k] * b.v[k]); }
static inline rg__lane rg__lane_div(rg__lane a, rg__lane b) { RG__LANE_MAP(rg__lane, a.v[k] / b.v[k]); }
static inline rg__lane rg__lane_sqrt(rg__lane a) { RG__LANE_MAP(rg__lane, rg__sqrt(a.v[k])); }
static inline rg__lane rg__lane_neg(rg__lane a) { RG__LANE_MAP(rg__lane, -a.v[k]); }
static inline rg__lane rg__lane_abs(rg__lane a) { RG__LANE_MAP(rg__lane, rg__fabs(a.v[k])); }
static inline rg__lane_mask rg__lane_gt(rg__lane a, rg__lane b) { RG__LANE_MAP(rg__lane_mask, a.v[k] > b.v[k]); }
static inline rg__lane_mask rg__lane_ge(rg__lane a, rg__lane b) { RG__LANE_MAP(rg__lane_mask, a.v[k] >= b.v[k]); }
static inline rg__lane_mask rg__lane_le(rg__lane a, rg__lane b) { RG__LANE_MAP(rg__lane_mask, a.v[k] <= b.v[k]); }
static inline rg__lane_mask rg__lane_eq(rg__lane a, rg__lane b) { RG__LANE_MAP(rg__lane_mask, a.v[k] == b.v[k]); }
static inline rg__lane_mask rg__lane_and(rg__lane_mask a, rg__lane_mask b) { RG__LANE_MAP(rg__lane_mask, a.v[k] & b.v[k]); }
static inline rg__lane_mask rg__lane_or(rg__lane_mask a, rg__lane_mask b) { RG__LANE_MAP(rg__lane_mask, a.v[k] | b.v[k]); }
static inline int rg__lane_bits(rg__lane_mask a) {
    int k, bits = 0;
    for (k = 0; k < RG__LANES; ++k) bits |= (a.v[k] ? 1 : 0) << k;
    return bits;
}
static inline rg__lane rg__lane_select(rg__lane_mask mask, rg__lane a, rg__lane b) {
    RG__LANE_MAP(rg__lane, mask.v[k] ? a.v[k] : b.v[k]);
}
#undef RG__LANE_MAP
/* The reals at `offsets` (count of them) in each of the records, as lanes. */
static inline void rg__lane_gather(const void *const *records, const size_t *offsets, int count, rg__lane *out) {
    int i, k;
    for (i = 0; i < count; ++i)
        for (k = 0; k < RG__LANES; ++k) out[i].v[k] = *(const rg_real *)((const char *)records[k] + offsets[i]);
}
#define RG__LANE_CONSECUTIVE 0
#define RG__LANE_SIMD 0
#endif

/* Whether the sweeps call the lanes kernel (rg__contact_lanes_stuck): with SSE2, where it pays.
   The plain path gives the same bits as the scalar visits, more slowly (pyramid in double: the
   sweeps take 54% more instructions with it), so other builds visit a group's manifolds one by
   one, unless RIGID_NO_SIMD asks for the plain kernel (which checks that its bits are the
   same). */
#ifndef RG__LANES_KERNEL
#if RG__LANE_SIMD || defined(RIGID_NO_SIMD)
#define RG__LANES_KERNEL 1
#else
#define RG__LANES_KERNEL 0
#endif
#endif

/* rg__max_real in every lane: a > b ? a : b */
static inline rg__lane rg__lane_max(rg__lane a, rg__lane b) { return rg__lane_select(rg__lane_gt(a, b), a, b); }

/* rg_vec3 and rg_mat3 in lanes, with >>math's operations in >>math's order. */
typedef struct rg__lane3 {
    rg__lane x, y, z;
} rg__lane3;

typedef struct rg__lane33 {
    rg__lane3 row[3];
} rg__lane33;

static inline rg__lane3 rg__lane3_add(rg__lane3 a, rg__lane3 b) {
    rg__lane3 r;
    r.x = rg__lane_add(a.x, b.x);
    r.y = rg__lane_add(a.y, b.y);
    r.z = rg__lane_add(a.z, b.z);
    return r;
}

static inline rg__lane3 rg__lane3_sub(rg__lane3 a, rg__lane3 b) {
    rg__lane3 r;
    r.x = rg__lane_sub(a.x, b.x);
    r.y = rg__lane_sub(a.y, b.y);
    r.z = rg__lane_sub(a.z, b.z);
    return r;
}

static inline rg__lane3 rg__lane3_scale(rg__lane3 a, rg__lane s) {
    rg__lane3 r;
    r.x = rg__lane_mul(a.x, s);
    r.y = rg__lane_mul(a.y, s);
    r.z = rg__lane_mul(a.z, s);
    return r;
}

static inline rg__lane rg__lane3_dot(rg__lane3 a, rg__lane3 b) {
    return rg__lane_add(rg__lane_add(rg__lane_mul(a.x, b.x), rg__lane_mul(a.y, b.y)), rg__lane_mul(a.z, b.z));
}

static inline rg__lane3 rg__lane33_mul(const rg__lane33 *m, rg__lane3 v) {
    rg__lane3 r;
    r.x = rg__lane3_dot(m->row[0], v);
    r.y = rg__lane3_dot(m->row[1], v);
    r.z = rg__lane3_dot(m->row[2], v);
    return r;
}


/* The fields the kernel reads, as blocks of consecutive reals in the records (rg__lane_gather):
   a manifold's frame and friction, its patch's arms and turns, the patch's moments and rate fit,
   its masses and friction's turns, the coupled solve's matrices; a point's impulses and places;
   a body's velocities and inverse mass. */
#define RG__LANE_OFF3(type, f) offsetof(type, f.x), offsetof(type, f.y), offsetof(type, f.z)
#define RG__LANE_OFF33(type, f)                                                                          \
    offsetof(type, f.m[0][0]), offsetof(type, f.m[0][1]), offsetof(type, f.m[0][2]), offsetof(type, f.m[1][0]), \
        offsetof(type, f.m[1][1]), offsetof(type, f.m[1][2]), offsetof(type, f.m[2][0]), offsetof(type, f.m[2][1]), \
        offsetof(type, f.m[2][2])
static const size_t rg__lane_frame[12] = {RG__LANE_OFF3(rg__solver_manifold, n), RG__LANE_OFF3(rg__solver_manifold, t1),
                                          RG__LANE_OFF3(rg__solver_manifold, t2), offsetof(rg__solver_manifold, restitution),
                                          offsetof(rg__solver_manifold, static_friction),
                                          offsetof(rg__solver_manifold, dynamic_friction)};
static const size_t rg__lane_arms[36] = {
    RG__LANE_OFF3(rg__solver_manifold, patch_ran),   RG__LANE_OFF3(rg__solver_manifold, patch_rbn),
    RG__LANE_OFF3(rg__solver_manifold, patch_ra1),   RG__LANE_OFF3(rg__solver_manifold, patch_rb1),
    RG__LANE_OFF3(rg__solver_manifold, patch_ra2),   RG__LANE_OFF3(rg__solver_manifold, patch_rb2),
    RG__LANE_OFF3(rg__solver_manifold, patch_wa[0]), RG__LANE_OFF3(rg__solver_manifold, patch_wa[1]),
    RG__LANE_OFF3(rg__solver_manifold, patch_wa[2]), RG__LANE_OFF3(rg__solver_manifold, patch_wb[0]),
    RG__LANE_OFF3(rg__solver_manifold, patch_wb[1]), RG__LANE_OFF3(rg__solver_manifold, patch_wb[2])};
static const size_t rg__lane_moments[8] = {offsetof(rg__solver_manifold, patch_sxx), offsetof(rg__solver_manifold, patch_sxz),
                                           offsetof(rg__solver_manifold, patch_szz), offsetof(rg__solver_manifold, patch_r2),
                                           offsetof(rg__solver_manifold, patch_radius),
                                           RG__LANE_OFF3(rg__solver_manifold, rate_fit)};
static const size_t rg__lane_masses[27] = {
    RG__LANE_OFF33(rg__solver_manifold, patch_mass), RG__LANE_OFF3(rg__solver_manifold, patch_fa[0]),
    RG__LANE_OFF3(rg__solver_manifold, patch_fa[1]), RG__LANE_OFF3(rg__solver_manifold, patch_fa[2]),
    RG__LANE_OFF3(rg__solver_manifold, patch_fb[0]), RG__LANE_OFF3(rg__solver_manifold, patch_fb[1]),
    RG__LANE_OFF3(rg__solver_manifold, patch_fb[2])};
static const size_t rg__lane_coupled[27] = {RG__LANE_OFF33(rg__solver_manifold, patch_coupling_t),
                                            RG__LANE_OFF33(rg__solver_manifold, patch_shifted),
                                            RG__LANE_OFF33(rg__solver_manifold, patch_schur_inverse)};
static const size_t rg__lane_point[11] = {
    offsetof(rg__solver_point, pn),      offsetof(rg__solver_point, pt1),         offsetof(rg__solver_point, pt2),
    offsetof(rg__solver_point, normal_mass), offsetof(rg__solver_point, rest_rate), offsetof(rg__solver_point, drift_1),
    offsetof(rg__solver_point, drift_2), offsetof(rg__solver_point, patch_x),     offsetof(rg__solver_point, patch_z),
    offsetof(rg__solver_point, patch_an), offsetof(rg__solver_point, patch_bn)};
static const size_t rg__lane_body[7] = {RG__LANE_OFF3(rg__solver_body, v), RG__LANE_OFF3(rg__solver_body, w),
                                        offsetof(rg__solver_body, inv_mass)};
#undef RG__LANE_OFF3
#undef RG__LANE_OFF33
#if RG__LANE_CONSECUTIVE
/* The SSE2 gather loads the blocks whole, four reals at a time: each block must lie consecutive
   in its record, with the record holding the reals up to the next multiple of four. */
#define RG__LANE_BLOCK(type, first, last, count)                                                  \
    (offsetof(type, last) - offsetof(type, first) == ((count)-1) * sizeof(rg_real) &&            \
     offsetof(type, first) + ((count) + 3) / 4 * 4 * sizeof(rg_real) <= sizeof(type))
typedef char rg__lane_layout_holds[RG__LANE_BLOCK(rg__solver_manifold, n, dynamic_friction, 12) &&
                                           RG__LANE_BLOCK(rg__solver_manifold, patch_ran, patch_wb[2].z, 36) &&
                                           RG__LANE_BLOCK(rg__solver_manifold, patch_sxx, rate_fit.z, 8) &&
                                           RG__LANE_BLOCK(rg__solver_manifold, patch_mass, patch_fb[2].z, 27) &&
                                           RG__LANE_BLOCK(rg__solver_manifold, patch_coupling_t, patch_schur_inverse.m[2][2], 27) &&
                                           RG__LANE_BLOCK(rg__solver_point, pn, patch_bn, 11) &&
                                           RG__LANE_BLOCK(rg__solver_body, v, inv_mass, 7)
                                       ? 1
                                       : -1];
#undef RG__LANE_BLOCK
#endif

static inline rg__lane3 rg__lane3_at(const rg__lane *a) {
    rg__lane3 r;
    r.x = a[0];
    r.y = a[1];
    r.z = a[2];
    return r;
}

/* rg__impulse_resultant_turn: turns[0] change.x + (turns[1] change.y + turns[2] change.z), the
   three turns as nine lanes. */
static inline rg__lane3 rg__lane3_turn(const rg__lane *turns, rg__lane3 change) {
    return rg__lane3_add(rg__lane3_scale(rg__lane3_at(turns), change.x),
                         rg__lane3_add(rg__lane3_scale(rg__lane3_at(turns + 3), change.y), rg__lane3_scale(rg__lane3_at(turns + 6), change.z)));
}

static inline rg__lane33 rg__lane33_at(const rg__lane *a) {
    rg__lane33 r;
    r.row[0] = rg__lane3_at(a);
    r.row[1] = rg__lane3_at(a + 3);
    r.row[2] = rg__lane3_at(a + 6);
    return r;
}

/* The points of a patch the lanes kernel takes (a face on a face clipped to a quadrilateral). */
#define RG__LANE_POINTS 4

/* Whether a visit of m would take the coupled path of a sticking patch (rg__contact_visit_manifold:
   a patch whose rates are affine, with friction, every point marked, a pair that does not turn)
   and the kernel below can do it: four points, no rolling or spinning friction (rg__impulse_rolling
   then does nothing), no linear locks. The kernel checks the rest. */
static int rg__contact_lane_fits(const rg__solver *s, const rg__solver_manifold *m, rg_real h) {
    const rg__solver_point *p = &s->points[m->first];
    if (!m->patch || m->count != RG__LANE_POINTS || !m->rate_fits || !rg__impulse_has_friction(m)) return 0;
    if (m->rolling_friction > 0 || m->spinning_friction > 0 || !(m->patch_radius > 0)) return 0;
    if (s->bodies[m->a].locked || s->bodies[m->b].locked) return 0;
    if (!p[0].stick || !p[1].stick || !p[2].stick || !p[3].stick) return 0;
    return !rg__predict_turns(s, m, h);
}

/* The visits of four sticking patches at once (rg__contact_lane_fits: ms[k] for the lanes set in
   `lanes`, the others hold a copy of one of those and are not written): per lane the operations
   of rg__contact_patch_normal_of, rg__contact_patch_drift_of and rg__contact_visit_patch_stuck,
   in their order. A lane whose checks fail there (no load, a point pulling, friction beyond the
   static surface, a load too narrow to twist) changes nothing. The patches share no body that
   moves, so solving them together is visiting them one after another. Returns the lanes done,
   each one's error (the visit's return value) in worst[k]. */
static int rg__contact_lanes_stuck(rg__solver *s, rg__solver_manifold *const *ms, int lanes, rg_real h, rg_real *worst) {
    const void *A[RG__LANES], *B[RG__LANES], *points[RG__LANE_POINTS][RG__LANES];
    rg__lane frame[12], arms[36], moments[8], masses[28], coupled[28], point[RG__LANE_POINTS][12], body_a[8], body_b[8];
    rg__lane3 Av, Aw, Bv, Bw, v, n, t1, t2, fit, drift, old, a, df, dn, P, force;
    rg__lane33 mat;
    rg__lane un, a1, a2, b1, b2, u1, u2, spin, N, Mx, Mz, E1, E2, Et, largest, e, bx, bz, Nn, size, twist, sum, px, pz, r2, tau;
    rg__lane zero = rg__lane_all(0), count = rg__lane_all((rg_real)RG__LANE_POINTS), lh = rg__lane_all(h), error, inv_a, inv_b;
    rg__lane load[RG__LANE_POINTS], share[RG__LANE_POINTS], f1[RG__LANE_POINTS], f2[RG__LANE_POINTS];
    rg__lane_mask ok, wide;
    rg_real out[12][RG__LANES];
    int j, k, done;
    for (k = 0; k < RG__LANES; ++k) {
        A[k] = &s->bodies[ms[k]->a];
        B[k] = &s->bodies[ms[k]->b];
        for (j = 0; j < RG__LANE_POINTS; ++j) points[j][k] = &s->points[ms[k]->first + j];
    }
    rg__lane_gather(A, rg__lane_body, 7, body_a);
    rg__lane_gather(B, rg__lane_body, 7, body_b);
    rg__lane_gather((const void *const *)ms, rg__lane_frame, 12, frame);
    rg__lane_gather((const void *const *)ms, rg__lane_arms, 36, arms);
    rg__lane_gather((const void *const *)ms, rg__lane_moments, 8, moments);
    for (j = 0; j < RG__LANE_POINTS; ++j) rg__lane_gather(points[j], rg__lane_point, 11, point[j]);
    Av = rg__lane3_at(body_a);
    Aw = rg__lane3_at(body_a + 3);
    Bv = rg__lane3_at(body_b);
    Bw = rg__lane3_at(body_b + 3);
    n = rg__lane3_at(frame);
    t1 = rg__lane3_at(frame + 3);
    t2 = rg__lane3_at(frame + 6);
    /* rg__contact_patch_motion_of */
    v = rg__lane3_sub(Av, Bv);
    un = rg__lane_sub(rg__lane_add(rg__lane3_dot(v, n), rg__lane3_dot(Aw, rg__lane3_at(arms))), rg__lane3_dot(Bw, rg__lane3_at(arms + 3)));
    a1 = rg__lane3_dot(Aw, t1);
    a2 = rg__lane3_dot(Aw, t2);
    b1 = rg__lane3_dot(Bw, t1);
    b2 = rg__lane3_dot(Bw, t2);
    u1 = rg__lane_sub(rg__lane_add(rg__lane3_dot(v, t1), rg__lane3_dot(Aw, rg__lane3_at(arms + 6))), rg__lane3_dot(Bw, rg__lane3_at(arms + 9)));
    u2 = rg__lane_sub(rg__lane_add(rg__lane3_dot(v, t2), rg__lane3_dot(Aw, rg__lane3_at(arms + 12))),
                      rg__lane3_dot(Bw, rg__lane3_at(arms + 15)));
    spin = rg__lane3_dot(rg__lane3_sub(Aw, Bw), n);
    /* rg__contact_patch_normal_of */
    fit.x = rg__lane_sub(moments[5], un);
    fit.y = rg__lane_sub(moments[6], rg__lane_sub(b2, a2));
    fit.z = rg__lane_sub(moments[7], rg__lane_sub(a1, b1));
    N = Mx = Mz = E1 = E2 = Et = largest = zero;
    old.x = old.y = old.z = zero;
    for (j = 0; j < RG__LANE_POINTS; ++j) {
        /* and rg__contact_patch_drift_of; point[j]: pn, pt1, pt2, normal_mass, rest_rate, drift_1, drift_2, x, z, an, bn */
        const rg__lane *q = point[j];
        rg__lane e1, e2;
        N = rg__lane_add(N, q[0]);
        Mx = rg__lane_add(Mx, rg__lane_mul(q[0], q[7]));
        Mz = rg__lane_add(Mz, rg__lane_mul(q[0], q[8]));
        e1 = rg__lane_sub(rg__lane_add(rg__lane_sub(rg__lane_add(q[5], u1), rg__lane_mul(q[8], spin)), rg__lane_mul(q[9], a2)),
                          rg__lane_mul(q[10], b2));
        e2 = rg__lane_add(rg__lane_sub(rg__lane_add(rg__lane_add(q[6], u2), rg__lane_mul(q[7], spin)), rg__lane_mul(q[9], a1)),
                          rg__lane_mul(q[10], b1));
        E1 = rg__lane_add(E1, e1);
        E2 = rg__lane_add(E2, e2);
        Et = rg__lane_add(Et, rg__lane_sub(rg__lane_mul(q[7], e2), rg__lane_mul(q[8], e1)));
        old.x = rg__lane_add(old.x, q[1]);
        old.y = rg__lane_add(old.y, q[2]);
        old.z = rg__lane_add(old.z, rg__lane_sub(rg__lane_mul(q[7], q[2]), rg__lane_mul(q[8], q[1])));
        largest = rg__lane_max(largest, rg__lane_add(rg__lane_mul(e1, e1), rg__lane_mul(e2, e2)));
    }
    drift.x = rg__lane_neg(rg__lane_div(E1, count));
    drift.y = rg__lane_neg(rg__lane_div(E2, count));
    drift.z = rg__lane_neg(rg__lane_div(Et, moments[3]));
    ok = rg__lane_gt(N, zero);
    /* rg__impulse_patch_coupled */
    rg__lane_gather((const void *const *)ms, rg__lane_masses, 27, masses);
    rg__lane_gather((const void *const *)ms, rg__lane_coupled, 27, coupled);
    mat = rg__lane33_at(masses);
    a = rg__lane33_mul(&mat, fit);
    mat = rg__lane33_at(coupled);
    v = rg__lane3_sub(drift, rg__lane33_mul(&mat, a));
    mat = rg__lane33_at(coupled + 18);
    df = rg__lane33_mul(&mat, v);
    mat = rg__lane33_at(coupled + 9);
    dn = rg__lane3_sub(a, rg__lane33_mul(&mat, df));
    /* rg__impulse_patch_loads */
    Nn = rg__lane_add(N, dn.x);
    Mx = rg__lane_add(Mx, dn.y);
    Mz = rg__lane_add(Mz, dn.z);
    bx = rg__lane_add(rg__lane_mul(moments[0], Mx), rg__lane_mul(moments[1], Mz));
    bz = rg__lane_add(rg__lane_mul(moments[1], Mx), rg__lane_mul(moments[2], Mz));
    for (j = 0; j < RG__LANE_POINTS; ++j) {
        load[j] = rg__lane_add(rg__lane_add(rg__lane_div(Nn, count), rg__lane_mul(bx, point[j][7])), rg__lane_mul(bz, point[j][8]));
        ok = rg__lane_and(ok, rg__lane_ge(load[j], zero));
    }
    /* the static surface (rg__impulse_patch_friction_size) */
    P = rg__lane3_add(old, df);
    e = moments[4];
    twist = rg__lane_div(P.z, e);
    size = rg__lane_sqrt(rg__lane_add(rg__lane_add(rg__lane_mul(P.x, P.x), rg__lane_mul(P.y, P.y)), rg__lane_mul(twist, twist)));
    ok = rg__lane_and(ok, rg__lane_le(size, rg__lane_mul(frame[10], Nn)));
    /* rg__impulse_spread_friction */
    sum = zero;
    for (j = 0; j < RG__LANE_POINTS; ++j) sum = rg__lane_add(sum, load[j]);
    ok = rg__lane_and(ok, rg__lane_gt(sum, zero));
    px = pz = r2 = zero;
    for (j = 0; j < RG__LANE_POINTS; ++j) {
        share[j] = rg__lane_div(load[j], sum);
        px = rg__lane_add(px, rg__lane_mul(share[j], point[j][7]));
        pz = rg__lane_add(pz, rg__lane_mul(share[j], point[j][8]));
    }
    for (j = 0; j < RG__LANE_POINTS; ++j) {
        rg__lane sx = rg__lane_sub(point[j][7], px), sz = rg__lane_sub(point[j][8], pz);
        r2 = rg__lane_add(r2, rg__lane_mul(share[j], rg__lane_add(rg__lane_mul(sx, sx), rg__lane_mul(sz, sz))));
    }
    twist = rg__lane_sub(P.z, rg__lane_sub(rg__lane_mul(px, P.y), rg__lane_mul(pz, P.x)));
    wide = rg__lane_gt(r2, rg__lane_all(s->narrow * s->narrow));
    tau = rg__lane_select(wide, rg__lane_div(twist, r2), zero);
    for (j = 0; j < RG__LANE_POINTS; ++j) {
        f1[j] = rg__lane_mul(share[j], rg__lane_sub(P.x, rg__lane_mul(tau, rg__lane_sub(point[j][8], pz))));
        f2[j] = rg__lane_mul(share[j], rg__lane_add(P.y, rg__lane_mul(tau, rg__lane_sub(point[j][7], px))));
    }
    ok = rg__lane_and(ok, rg__lane_or(wide, rg__lane_eq(rg__lane_abs(twist), zero)));
    done = rg__lane_bits(ok) & lanes;
    if (!done) return 0;
    /* rg__contact_patch_set_loads */
    error = zero;
    for (j = 0; j < RG__LANE_POINTS; ++j) {
        rg__lane mass = point[j][3];
        rg__lane change = rg__lane_mul(rg__lane_div(rg__lane_abs(rg__lane_sub(load[j], point[j][0])), mass), lh);
        error = rg__lane_select(rg__lane_gt(mass, zero), rg__lane_max(error, change), error);
    }
    /* rg__impulse_push_resultant of the normal change, then of friction's */
    inv_a = body_a[6];
    inv_b = rg__lane_neg(body_b[6]);
    force = rg__lane3_scale(n, dn.x);
    Av = rg__lane3_add(Av, rg__lane3_scale(force, inv_a));
    Aw = rg__lane3_add(Aw, rg__lane3_turn(arms + 18, dn));
    Bv = rg__lane3_add(Bv, rg__lane3_scale(force, inv_b));
    Bw = rg__lane3_sub(Bw, rg__lane3_turn(arms + 27, dn));
    error = rg__lane_max(error, rg__lane_mul(rg__lane_sqrt(largest), lh));
    force = rg__lane3_add(rg__lane3_scale(t1, df.x), rg__lane3_scale(t2, df.y));
    Av = rg__lane3_add(Av, rg__lane3_scale(force, inv_a));
    Aw = rg__lane3_add(Aw, rg__lane3_turn(masses + 9, df));
    Bv = rg__lane3_add(Bv, rg__lane3_scale(force, inv_b));
    Bw = rg__lane3_sub(Bw, rg__lane3_turn(masses + 18, df));
    /* the lanes done written back; a frozen body keeps its velocities (rg__impulse_push_resultant) */
    rg__lane_get(Av.x, out[0]);
    rg__lane_get(Av.y, out[1]);
    rg__lane_get(Av.z, out[2]);
    rg__lane_get(Aw.x, out[3]);
    rg__lane_get(Aw.y, out[4]);
    rg__lane_get(Aw.z, out[5]);
    rg__lane_get(Bv.x, out[6]);
    rg__lane_get(Bv.y, out[7]);
    rg__lane_get(Bv.z, out[8]);
    rg__lane_get(Bw.x, out[9]);
    rg__lane_get(Bw.y, out[10]);
    rg__lane_get(Bw.z, out[11]);
    rg__lane_get(error, worst);
    for (k = 0; k < RG__LANES; ++k) {
        rg__solver_body *a_k = &s->bodies[ms[k]->a], *b_k = &s->bodies[ms[k]->b];
        if (!(done >> k & 1)) continue;
        if (!a_k->frozen) {
            a_k->v = rg_v3(out[0][k], out[1][k], out[2][k]);
            a_k->w = rg_v3(out[3][k], out[4][k], out[5][k]);
        }
        if (!b_k->frozen) {
            b_k->v = rg_v3(out[6][k], out[7][k], out[8][k]);
            b_k->w = rg_v3(out[9][k], out[10][k], out[11][k]);
        }
    }
    for (j = 0; j < RG__LANE_POINTS; ++j) {
        rg__lane_get(load[j], out[0]);
        rg__lane_get(f1[j], out[1]);
        rg__lane_get(f2[j], out[2]);
        for (k = 0; k < RG__LANES; ++k) {
            rg__solver_point *q = &s->points[ms[k]->first + j];
            if (!(done >> k & 1)) continue;
            q->pn = out[0][k];
            q->pt1 = out[1][k];
            q->pt2 = out[2][k];
        }
    }
    return done;
}

/* Sweeps read the manifolds and their points in sequence (rg__prepare_points stores them in
   visit order), but a visit's bodies lie anywhere among the bodies (a 100-row pyramid's solver
   data is 25 MB): the data of the visit RG__VISIT_AHEAD places ahead is fetched while this one
   computes, its manifold's header twice as far ahead, since reading where its bodies lie needs
   it. A lane group is visited at once, so the distance is about a group. */
#ifndef RG__VISIT_AHEAD
#define RG__VISIT_AHEAD 4
#endif

/* The bytes from `from` to `to` (past the end), one cache line at a time. */
static void rg__contact_prefetch_range(const char *from, const char *to) {
    for (; from < to; from += 64) RG__PREFETCH(from);
    RG__PREFETCH(to - 1);
}

/* A visit reads a manifold's header up to the K shares (patch_share_a). */
static void rg__contact_prefetch_header(const rg__solver *s, int i) {
    const char *m = (const char *)&s->manifolds[i];
    rg__contact_prefetch_range(m, m + offsetof(rg__solver_manifold, patch_share_a));
}

/* A visit's points and bodies: a patch's points only up to ran (the rest serves the points'
   own visits), all of a point's otherwise, and the bodies up to their velocities at the start
   (v0). */
static void rg__contact_prefetch_visit(const rg__solver *s, int i) {
    const rg__solver_manifold *m = &s->manifolds[i];
    const char *a = (const char *)&s->bodies[m->a], *b = (const char *)&s->bodies[m->b];
    int k;
    for (k = 0; k < m->count; ++k) {
        const char *p = (const char *)&s->points[m->first + k];
        rg__contact_prefetch_range(p, p + (m->patch ? offsetof(rg__solver_point, ran) : sizeof(rg__solver_point)));
    }
    rg__contact_prefetch_range(a, a + offsetof(rg__solver_body, v0));
    rg__contact_prefetch_range(b, b + offsetof(rg__solver_body, v0));
}

#ifdef RG__LANES_VERIFY
/* Development check: the kernel's lanes against the scalar visits from the same state, bit for bit
   (velocities, impulses, errors); aborts on a difference. */
static int rg__contact_lanes_verify(rg__solver *s, rg__solver_manifold *const *ms, int lanes, rg_real h, rg_real *worst) {
    rg__solver_body before[2 * RG__LANES], after[2 * RG__LANES];
    rg__solver_point points_before[RG__LANES][RG__LANE_POINTS], points_after[RG__LANES][RG__LANE_POINTS];
    int k, j, done;
    for (k = 0; k < RG__LANES; ++k) {
        before[2 * k] = s->bodies[ms[k]->a];
        before[2 * k + 1] = s->bodies[ms[k]->b];
        for (j = 0; j < RG__LANE_POINTS; ++j) points_before[k][j] = s->points[ms[k]->first + j];
    }
    done = rg__contact_lanes_stuck(s, ms, lanes, h, worst);
    for (k = 0; k < RG__LANES; ++k) {
        after[2 * k] = s->bodies[ms[k]->a];
        after[2 * k + 1] = s->bodies[ms[k]->b];
        for (j = 0; j < RG__LANE_POINTS; ++j) points_after[k][j] = s->points[ms[k]->first + j];
    }
    for (k = RG__LANES - 1; k >= 0; --k) {
        s->bodies[ms[k]->a] = before[2 * k];
        s->bodies[ms[k]->b] = before[2 * k + 1];
        for (j = 0; j < RG__LANE_POINTS; ++j) s->points[ms[k]->first + j] = points_before[k][j];
    }
    for (k = 0; k < RG__LANES; ++k) {
        rg_real error;
        const rg__solver_body *a = &s->bodies[ms[k]->a], *b = &s->bodies[ms[k]->b];
        int same = 1;
        if (!(done >> k & 1)) continue;
        error = rg__contact_visit_manifold(s, ms[k], h);
        same &= memcmp(&error, &worst[k], sizeof error) == 0;
        same &= memcmp(&a->v, &after[2 * k].v, sizeof a->v) == 0 && memcmp(&a->w, &after[2 * k].w, sizeof a->w) == 0;
        same &= memcmp(&b->v, &after[2 * k + 1].v, sizeof b->v) == 0 && memcmp(&b->w, &after[2 * k + 1].w, sizeof b->w) == 0;
        for (j = 0; j < RG__LANE_POINTS; ++j) {
            const rg__solver_point *p = &s->points[ms[k]->first + j], *q = &points_after[k][j];
            same &= memcmp(&p->pn, &q->pn, sizeof p->pn) == 0 && memcmp(&p->pt1, &q->pt1, sizeof p->pt1) == 0 &&
                    memcmp(&p->pt2, &q->pt2, sizeof p->pt2) == 0 && p->stick == q->stick;
        }
        if (!same) {
            fprintf(stderr, "rigid.h lanes: lane %d differs from the scalar visit\n", k);
            abort();
        }
    }
    return done;
}
#endif

/* Visits the lane group manifolds [begin, end) (rg__prepare_lane_groups) with the data of the visits
   ahead on its way; `step` is +1 or -1, the sweep's direction, and manifold `stop` the first
   not to touch. Its sticking patches are solved together (rg__contact_lanes_stuck, in builds
   that use it: RG__LANES_KERNEL) when two or more can be, the others one by one; the errors
   join *worst in the sweep's order. */
static void rg__contact_visit_group(rg__solver *s, int begin, int end, int step, int stop, rg_real h, rg_real *worst) {
    rg__solver_manifold *ms[RG__LANES], *lane_ms[RG__LANES];
    rg_real errors[RG__LANES];
    int n = end - begin, k, lanes = 0, fits = 0, done = 0, first = -1;
    for (k = 0; k < n; ++k) {
        int i = begin + k, near = i + step * RG__VISIT_AHEAD, far = i + 2 * step * RG__VISIT_AHEAD;
        if (step > 0 ? far < stop : far > stop) rg__contact_prefetch_header(s, far);
        if (step > 0 ? near < stop : near > stop) rg__contact_prefetch_visit(s, near);
    }
    for (k = 0; k < n; ++k) {
        ms[k] = &s->manifolds[begin + k];
        if (RG__LANES_KERNEL && rg__contact_lane_fits(s, ms[k], h)) {
            lanes |= 1 << k;
            ++fits;
            if (first < 0) first = k;
        }
    }
    if (fits >= 2) {
        for (k = 0; k < RG__LANES; ++k) lane_ms[k] = lanes >> k & 1 ? ms[k] : ms[first];
#ifdef RG__LANES_VERIFY
        done = rg__contact_lanes_verify(s, lane_ms, lanes, h, errors);
#else
        done = rg__contact_lanes_stuck(s, lane_ms, lanes, h, errors);
#endif
    }
    for (k = step > 0 ? 0 : n - 1; k >= 0 && k < n; k += step) {
        if (!(done >> k & 1)) errors[k] = rg__contact_visit_manifold(s, ms[k], h);
        *worst = rg__max_real(*worst, errors[k]);
    }
}

/* One sweep over the manifolds [begin, end), up the levels or (downwards) back down, a
   lane group at a time; returns the largest error found. */
static rg_real rg__contact_sweep(rg__solver *s, int begin, int end, rg_real h, int downwards) {
    rg_real worst = 0;
    int i;
    rg__predict_start_sweep(s);
    if (downwards) {
        for (i = end; i > begin; i = s->group_begin[i - 1]) {
            RIGID_ASSERT(s->group_begin[i - 1] >= begin);
            rg__contact_visit_group(s, s->group_begin[i - 1], i, -1, begin - 1, h, &worst);
        }
    } else {
        for (i = begin; i < end; i = s->group_end[i]) {
            RIGID_ASSERT(s->group_end[i] <= end);
            rg__contact_visit_group(s, i, s->group_end[i], 1, end, h, &worst);
        }
    }
    return worst;
}

/* A patch's effective radius for the contact stage (rg__impulse_patch_radius), under the loads
   it starts with: last step's, warm started, or uniform pressure. */
static void rg__contact_patch_radius(const rg__solver *s, rg__solver_manifold *m) {
    const rg__solver_point *points = &s->points[m->first];
    rg_real x[RG_MANIFOLD_MAX], z[RG_MANIFOLD_MAX], load[RG_MANIFOLD_MAX];
    int j;
    if (!m->patch || !rg__impulse_has_friction(m)) return; /* the lever serves only friction */
    for (j = 0; j < m->count; ++j) {
        x[j] = points[j].patch_x;
        z[j] = points[j].patch_z;
        load[j] = points[j].pn;
    }
    m->patch_radius = rg__impulse_patch_radius(x, z, load, m->count);
}

/* Manifold i at the start of the contact stage: each point's prediction base and mark, and (if
   warm_starting) last step's contact impulses spread as above (applied before the first sweep,
   each island's as far as it lowers the sweeps' objective, by rg__contact_start) and their
   power. Writes only manifold i, its points and its power; returns whether it is warm. */
static int rg__contact_start_manifold(rg_world *w, int i) {
    rg__solver *s = &w->solver;
    rg_real slop = RG__SLOP_FRACTION * w->def.contact_tolerance;
    rg__solver_manifold *m = &s->manifolds[i];
    rg__solver_point *points = &s->points[m->first];
    const rg__pair_manifold *previous;
    rg_vec3 where[RG_MANIFOLD_MAX], now[RG_MANIFOLD_MAX], c = rg_v3(0, 0, 0);
    int that[RG_MANIFOLD_MAX], touching = 0, k, warm = 0;
    m->spin = m->roll1 = m->roll2 = 0;
    for (k = 0; k < m->count; ++k) {
        rg__solver_point *p = &points[k];
        rg__predict_base(s, m, p, slop, w->step_dt);
        p->pn = p->pt1 = p->pt2 = 0;
        p->stick = p->stuck_at_start;
        /* only points that touch take a load: speculative ones, with a gap, start from zero */
        if (p->depth >= -slop) {
            where[touching] = p->on_b;
            that[touching++] = k;
            c = rg_v3_add(c, p->on_b);
        }
    }
    rg__contact_rate_fit(s, m, w->step_dt);
    if (!w->def.warm_starting) return 0;
    previous = touching > 0 && m->previous >= 0 && m->previous < (int)stbds_arrlen(w->narrowphase.previous)
                   ? &w->narrowphase.previous[m->previous]
                   : NULL;
    /* the same contact: a face turned away (another face, an edge) is a different load, and so
       is one whose points b did not carry here */
    if (previous && rg_v3_dot(previous->normal, m->n) > RG__WARM_ALIGNMENT &&
        rg__warm_carried_points(previous, &s->bodies[m->b], &w->bodies[m->b], w->step_dt, now)) {
        c = rg_v3_scale(c, 1 / (rg_real)touching);
        rg__warm_spread_load(m, points, that, touching, where, c,
                             rg__warm_previous_load(previous, m, now, c, rg__warm_ratio(w)), w->def.contact_tolerance);
        warm = 1;
    }
    rg__warm_manifold_power(s, m, w->step_dt, &s->manifold_power[2 * i]);
    return warm;
}

/* Manifolds [start, end) at the start of the contact stage; whether any is warm, by worker. */
typedef struct rg__contact_start_task {
    rg_world *w;
    int warm[RG__MAX_WORKERS];
} rg__contact_start_task;

static void rg__contact_start_range(int start, int end, int worker, void *context) {
    rg__contact_start_task *t = (rg__contact_start_task *)context;
    int i;
    for (i = start; i < end; ++i) t->warm[rg__task_worker(t->w, worker)] |= rg__contact_start_manifold(t->w, i);
}

static void rg__contact_patch_radius_range(int start, int end, int worker, void *context) {
    const rg__solver *s = &((rg_world *)context)->solver;
    int i;
    (void)worker;
    for (i = start; i < end; ++i) rg__contact_patch_radius(s, &s->manifolds[i]);
}

/* The start of the contact stage: each manifold's (above, in parallel), then the islands' sums
   and the warm start applied, and the patches' radii under the loads they start with. */
static void rg__contact_start(rg_world *w) {
    rg__solver *s = &w->solver;
    rg__contact_start_task task;
    int i, count = (int)stbds_arrlen(s->manifolds), warm = 0;
    /* the islands serve the warm start's limit and shock propagation's (rg__shock_limit_energy) */
    rg__island_build(s);
    stbds_arrsetlen(s->manifold_power, 2 * count);
    task.w = w;
    memset(task.warm, 0, sizeof task.warm);
    rg__task_run(w, rg__contact_start_range, count, RG__SOLVER_RANGE, &task);
    for (i = 0; i < w->def.worker_count; ++i) warm |= task.warm[i];
    if (w->def.warm_starting) rg__warm_island_powers(s);
    if (warm) rg__warm_apply(w);
    rg__task_run(w, rg__contact_patch_radius_range, count, RG__SOLVER_RANGE, w);
}

/* =============================================================================================
   >>shock: shock propagation: levels frozen from the ground up (Guendelman §8.2)
   ============================================================================================= */

/* Shock propagation freezes the levels below the one it solves, so a level feels what rests on
   it only through the impulses the contact sweeps gave it, and the frozen level takes whatever
   moment the level above needs (Guendelman §8.2 on the see-saw: without contact propagation it
   "does not feel the weight"): a column leaning 10 cm over its base's edge stood for ever. What
   rests on a body so that it can only move with it (alone on it, its centre of mass over the
   contact) is solved with that body in its level as one rigid composite: masses, centre of mass
   and inertia summed (parallel axes), momentum and angular momentum summed, in which the
   sweeps' impulses between its members cancel. The composite's change of motion goes to every
   member as a rigid motion, and the next levels fit the members to it as before. The leaning
   column so tips as a single box of its shape does; a body whose weight falls outside its
   support is left to tip on its own at its level, and a body on several supports joins none
   (its load splits between them, no one carries it). */

/* Whether the contact of manifold m, seen along gravity, holds a weight at `com`: the point
   lies inside the polygon of its points, which must span an area. e1 and e2 span the plane
   across gravity (rg__shock_trees makes them once a step). */
static int rg__shock_contact_holds(const rg__solver *s, const rg__solver_manifold *m, rg_vec3 com, rg_vec3 e1, rg_vec3 e2) {
    rg_real x[RG_MANIFOLD_MAX], z[RG_MANIFOLD_MAX], px[RG_MANIFOLD_MAX], pz[RG_MANIFOLD_MAX];
    int k, n;
    if (m->count < 3) return 0;
    for (k = 0; k < m->count; ++k) {
        rg_vec3 d = rg_v3_sub(s->points[m->first + k].on_b, com);
        x[k] = rg_v3_dot(d, e1);
        z[k] = rg_v3_dot(d, e2);
    }
    n = rg__impulse_patch_polygon(x, z, m->count, px, pz);
    if (n < 3) return 0;
    for (k = 0; k < n; ++k) { /* counter-clockwise: the point (the origin here) left of every edge */
        int next = k + 1 < n ? k + 1 : 0;
        if (!((px[next] - px[k]) * -pz[k] - (pz[next] - pz[k]) * -px[k] > 0)) return 0;
    }
    return 1;
}

/* Whether body b moved with body `below` as the contact stage began: no point of it (within its
   radius of its centre of mass) faster than `resting` relative to the motion of `below`. A body
   landing, bouncing, sliding or tipping off is not welded. */
static int rg__shock_rests_on(const rg_world *w, int b, int below, rg_real resting) {
    const rg__solver *s = &w->solver;
    rg_vec3 d = rg_v3_sub(w->bodies[b].com, w->bodies[below].com);
    rg_vec3 dv = rg_v3_sub(s->stage_start_v[b], rg_v3_add(s->stage_start_v[below], rg_v3_cross(s->stage_start_w[below], d)));
    rg_vec3 dw = rg_v3_sub(s->stage_start_w[b], s->stage_start_w[below]);
    return rg_v3_length(dv) + rg_v3_length(dw) * w->bodies[b].radius <= resting;
}

/* The centre of mass of body b and all welded to it (rg__shock_trees). */
static rg_vec3 rg__shock_welded_com(const rg_world *w, int b) {
    const rg__solver *s = &w->solver;
    return rg_v3_add(w->bodies[b].com, rg_v3_scale(s->shock_first[b], 1 / s->shock_mass[b]));
}

/* Body b's welded inertia about its centre of mass: its own until a member joins it. */
static rg_mat3 rg__shock_welded_inertia(const rg_world *w, int b) {
    const rg__solver *s = &w->solver;
    return s->shock_mass[b] > w->bodies[b].mass ? s->shock_inertia[b] : rg__integrate_inertia_in_world(&w->bodies[b]);
}

/* Body b, with all welded to it, joins `lower`'s welded sums: its mass, first moment and inertia
   (moved to lower's centre of mass by the parallel axis theorem, through its own centre of
   mass, so that every offset is a local one). */
static void rg__shock_weld(rg_world *w, int b, int lower) {
    rg__solver *s = &w->solver;
    rg_real mass = s->shock_mass[b];
    rg_vec3 shift = rg_v3_scale(s->shock_first[b], 1 / mass);
    rg_vec3 d = rg_v3_sub(rg_v3_add(w->bodies[b].com, shift), w->bodies[lower].com);
    rg_mat3 own = rg__mat3_add_point_mass(rg__shock_welded_inertia(w, b), -mass, shift);
    s->shock_inertia[lower] = rg__mat3_add_point_mass(rg_mat3_add(rg__shock_welded_inertia(w, lower), own), mass, d);
    s->shock_mass[lower] += mass;
    s->shock_first[lower] = rg_v3_madd(s->shock_first[lower], d, mass);
}

/* Each body's parent (the body it is welded to, or -1) and the children lists (a counting
   sort). A body may weld to the one manifold that holds it up when the body below is dynamic,
   neither is locked, it rests on that body (rg__shock_rests_on), and that contact holds the
   weight of the body and everything welded to it: so the bodies are taken from the top level
   down, each one's welded mass and first moment added to its parent's. */
static void rg__shock_trees(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, n = (int)stbds_arrlen(s->bodies), count = (int)stbds_arrlen(s->manifolds), *start, *link;
    rg_vec3 up = rg_v3_neg(rg_v3_normalize(w->def.gravity)), e1 = rg__prepare_perpendicular(up), e2 = rg_v3_cross(up, e1);
    /* the slowest relative motion that matters: the velocity's push-out within the slop */
    rg_real resting = RG__SLOP_FRACTION * w->def.contact_tolerance * RG__PUSHOUT_RATE;
    stbds_arrsetlen(s->shock_parent, n);
    stbds_arrsetlen(s->shock_root, n);
    stbds_arrsetlen(s->shock_child_start, n + 1);
    stbds_arrsetlen(s->shock_link, n);
    stbds_arrsetlen(s->shock_moved, n);
    /* at most one composite a body: reserved here, so that a step whose first composite comes
       late in a scene's life does not allocate */
    stbds_arrsetcap(s->shock_composites, n);
    stbds_arrsetlen(s->shock_mass, n);
    stbds_arrsetlen(s->shock_first, n);
    stbds_arrsetlen(s->shock_inertia, n);
    link = s->shock_link;
    for (i = 0; i < n; ++i) {
        s->shock_parent[i] = -1;
        s->shock_root[i] = -1;
        s->shock_moved[i] = 0;
        link[i] = -1;
        s->shock_mass[i] = w->bodies[i].mass;
        s->shock_first[i] = rg_v3(0, 0, 0);
    }
    for (i = 0; i < count; ++i) {
        const rg__solver_manifold *m = &s->manifolds[i];
        int la = s->bodies[m->a].level, lb = s->bodies[m->b].level, upper, lower;
        if (la == lb) continue;
        upper = la > lb ? m->a : m->b;
        lower = la > lb ? m->b : m->a;
        if (s->bodies[upper].supports == 1 && s->bodies[lower].dynamic && !s->bodies[lower].locked &&
            !s->bodies[upper].locked)
            link[upper] = i;
    }
    /* the bodies by level, top down: a counting sort into shock_stack, its buckets in shock_children */
    stbds_arrsetlen(s->shock_stack, n);
    {
        int levels = s->level_count, l, at, *bucket;
        stbds_arrsetlen(s->shock_children, levels + 1);
        bucket = s->shock_children;
        for (l = 0; l <= levels; ++l) bucket[l] = 0;
        for (i = 0; i < n; ++i) ++bucket[levels - s->bodies[i].level];
        for (l = 0; l < levels; ++l) bucket[l + 1] += bucket[l];
        for (i = 0; i < n; ++i) s->shock_stack[bucket[levels - 1 - s->bodies[i].level]++] = i;
        for (at = 0; at < n; ++at) {
            int b = s->shock_stack[at], lower;
            const rg__solver_manifold *m;
            if (link[b] < 0) continue;
            m = &s->manifolds[link[b]];
            lower = s->bodies[m->a].level < s->bodies[m->b].level ? m->a : m->b;
            if (!rg__shock_rests_on(w, b, lower, resting) ||
                !rg__shock_contact_holds(s, m, rg__shock_welded_com(w, b), e1, e2))
                continue;
            s->shock_parent[b] = lower;
            rg__shock_weld(w, b, lower);
        }
    }
    start = s->shock_child_start;
    for (i = 0; i <= n; ++i) start[i] = 0;
    for (i = 0; i < n; ++i)
        if (s->shock_parent[i] >= 0) ++start[s->shock_parent[i] + 1];
    for (i = 0; i < n; ++i) start[i + 1] += start[i];
    stbds_arrsetlen(s->shock_children, start[n]);
    for (i = 0; i < n; ++i)
        if (s->shock_parent[i] >= 0) s->shock_children[start[s->shock_parent[i]]++] = i;
    for (i = n; i > 0; --i) start[i] = start[i - 1];
    start[0] = 0;
    /* a body with members tips when none of its contacts below holds their common weight; only
       then does its level need the composite (one that is held stands, as the levels give it) */
    stbds_arrsetlen(s->shock_tips, n);
    for (i = 0; i < n; ++i) s->shock_tips[i] = s->shock_mass[i] > w->bodies[i].mass ? 1 : 0;
    for (i = 0; i < count; ++i) {
        const rg__solver_manifold *m = &s->manifolds[i];
        int la = s->bodies[m->a].level, lb = s->bodies[m->b].level, upper = la > lb ? m->a : m->b;
        if (la != lb && s->shock_tips[upper] && rg__shock_contact_holds(s, m, rg__shock_welded_com(w, upper), e1, e2))
            s->shock_tips[upper] = 0;
    }
}

/* Visits `root` and every body resting on it alone, directly or through others, calling
   visit(context, body) for each. */
static void rg__shock_walk(rg__solver *s, int root, void (*visit)(void *, int), void *context) {
    stbds_arrsetlen(s->shock_stack, 0);
    stbds_arrput(s->shock_stack, root);
    while (stbds_arrlen(s->shock_stack) > 0) {
        int i = s->shock_stack[stbds_arrlen(s->shock_stack) - 1], e;
        stbds_arrsetlen(s->shock_stack, stbds_arrlen(s->shock_stack) - 1);
        visit(context, i);
        for (e = s->shock_child_start[i]; e < s->shock_child_start[i + 1]; ++e) stbds_arrput(s->shock_stack, s->shock_children[e]);
    }
}

/* A tree root's composite momentum and angular momentum about its centre of mass `com`, summed
   over its members. */
typedef struct rg__shock_sums {
    const rg_world *w;
    rg_vec3 com, momentum, angular;
} rg__shock_sums;

static void rg__shock_add_member(void *context, int i) {
    rg__shock_sums *sums = (rg__shock_sums *)context;
    const rg__body *body = &sums->w->bodies[i];
    const rg__solver_body *sb = &sums->w->solver.bodies[i];
    rg_vec3 p = rg_v3_scale(sb->v, body->mass);
    rg_mat3 inertia = rg__integrate_inertia_in_world(body);
    sums->momentum = rg_v3_add(sums->momentum, p);
    sums->angular = rg_v3_add(sums->angular, rg_v3_add(rg_mat3_mul_v3(inertia, sb->w), rg_v3_cross(rg_v3_sub(body->com, sums->com), p)));
}

/* The composite of `root` and all welded to it: mass, centre of mass and inertia from
   rg__shock_trees' sums, velocities from the members' momenta. A root that is itself welded
   and was moved by its parent's composite (rg__shock_composites_end) moves as one rigid body
   with its members since, so its own motion is theirs and no walk is needed. */
static rg__shock_composite rg__shock_composite_of(rg_world *w, int root) {
    rg__solver *s = &w->solver;
    const rg__solver_body *sb = &s->bodies[root];
    rg__shock_composite c;
    rg_vec3 shift = rg_v3_scale(s->shock_first[root], 1 / s->shock_mass[root]);
    c.body = root;
    c.com = rg_v3_add(w->bodies[root].com, shift);
    c.arm_shift = rg_v3_neg(shift);
    c.inv_mass = 1 / s->shock_mass[root];
    c.inv_inertia = rg_mat3_inverse(rg__mat3_add_point_mass(rg__shock_welded_inertia(w, root), -s->shock_mass[root], shift));
    if (s->shock_moved[root]) {
        c.v = rg_v3_add(sb->v, rg_v3_cross(sb->w, shift));
        c.w = sb->w;
    } else {
        rg__shock_sums sums;
        sums.w = w;
        sums.com = c.com;
        sums.momentum = sums.angular = rg_v3(0, 0, 0);
        rg__shock_walk(s, root, rg__shock_add_member, &sums);
        c.v = rg_v3_scale(sums.momentum, c.inv_mass);
        c.w = rg_mat3_mul_v3(c.inv_inertia, sums.angular);
    }
    c.own_inv_mass = sb->inv_mass;
    c.own_inv_inertia = sb->inv_inertia;
    return c;
}

/* A manifold of the level that touches a composite's root: its arms on that side move to the
   composite's centre of mass (or back, `own` set, to the points' own arms kept in shock_arms,
   and the patch flag kept in shock_patch), and its points' and patch's masses follow. */
static void rg__shock_manifold_arms(rg__solver *s, int manifold, int own) {
    rg__solver_manifold *m = &s->manifolds[manifold];
    int roots[2], k, j;
    roots[0] = s->shock_root[m->a];
    roots[1] = s->shock_root[m->b];
    if (!own) s->shock_patch[manifold] = m->patch;
    for (k = 0; k < m->count; ++k) {
        rg__solver_point *p = &s->points[m->first + k];
        rg_vec3 *kept = &s->shock_arms[2 * (m->first + k)];
        for (j = 0; j < 2; ++j) {
            rg_vec3 *arm = j == 0 ? &p->ra : &p->rb;
            if (roots[j] < 0) continue;
            if (own) {
                *arm = kept[j];
            } else {
                kept[j] = *arm;
                *arm = rg_v3_add(*arm, s->shock_composites[roots[j]].arm_shift);
            }
        }
        rg__impulse_point_jacobians(s, m, p);
    }
    m->points_frozen = rg__impulse_frozen_pair(s, m);
    m->patch = s->shock_patch[manifold];
    if (m->patch) {
        rg_vec3 ca, cb;
        rg__impulse_patch_arms(s, m, &ca, &cb);
        rg__impulse_patch_mass_of(s, m, 3);
    }
}

/* The level's composites, before its sweeps: each body of the level with bodies resting on it
   alone becomes its composite (velocities, inverse masses), and the level's manifolds that
   touch one take their arms from its centre of mass. */
static void rg__shock_composites_begin(rg_world *w, int begin, int end) {
    rg__solver *s = &w->solver;
    int i, j, level = s->manifolds[begin].level;
    stbds_arrsetlen(s->shock_composites, 0);
    for (i = begin; i < end; ++i) {
        const rg__solver_manifold *m = &s->manifolds[i];
        int bodies[2];
        bodies[0] = m->a;
        bodies[1] = m->b;
        for (j = 0; j < 2; ++j) {
            int b = bodies[j];
            rg__solver_body *sb = &s->bodies[b];
            rg__shock_composite c;
            if (sb->level != level || s->shock_root[b] >= 0 || !s->shock_tips[b]) continue;
            c = rg__shock_composite_of(w, b);
            s->shock_root[b] = (int)stbds_arrlen(s->shock_composites);
            stbds_arrput(s->shock_composites, c);
            sb->v = c.v;
            sb->w = c.w;
            sb->inv_mass = c.inv_mass;
            sb->inv_inertia = c.inv_inertia;
        }
    }
    if (stbds_arrlen(s->shock_composites) == 0) return;
    for (i = begin; i < end; ++i) {
        const rg__solver_manifold *m = &s->manifolds[i];
        if (s->shock_root[m->a] >= 0 || s->shock_root[m->b] >= 0) rg__shock_manifold_arms(s, i, 0);
    }
}

/* A member of a composite, after its level, moves with it: the composite's motion (linear at
   its centre of mass `com`, angular) as a rigid motion. The sweeps' impulses between members, which the
   composite sums to nothing, so leave no trace, nor does a creep slower than the welds allow
   (rg__shock_rests_on). */
typedef struct rg__shock_motion {
    rg_world *w;
    rg_vec3 com, linear, angular;
} rg__shock_motion;

static void rg__shock_move_member(void *context, int i) {
    rg__shock_motion *motion = (rg__shock_motion *)context;
    rg__solver_body *sb = &motion->w->solver.bodies[i];
    motion->w->solver.shock_moved[i] = 1;
    sb->v = rg_v3_add(motion->linear, rg_v3_cross(motion->angular, rg_v3_sub(motion->w->bodies[i].com, motion->com)));
    sb->w = motion->angular;
}

/* After the level's sweeps: each root gets back its own inverse masses, and it and all welded to
   it the composite's motion; the manifolds get their own arms back. */
static void rg__shock_composites_end(rg_world *w, int begin, int end) {
    rg__solver *s = &w->solver;
    int i, count = (int)stbds_arrlen(s->shock_composites);
    if (count == 0) return;
    for (i = 0; i < count; ++i) {
        const rg__shock_composite *c = &s->shock_composites[i];
        rg__solver_body *sb = &s->bodies[c->body];
        rg__shock_motion motion;
        motion.w = w;
        motion.com = c->com;
        motion.linear = sb->v;
        motion.angular = sb->w;
        sb->inv_mass = c->own_inv_mass;
        sb->inv_inertia = c->own_inv_inertia;
        rg__shock_walk(s, c->body, rg__shock_move_member, &motion);
    }
    for (i = begin; i < end; ++i) {
        const rg__solver_manifold *m = &s->manifolds[i];
        if (s->shock_root[m->a] >= 0 || s->shock_root[m->b] >= 0) rg__shock_manifold_arms(s, i, 1);
    }
    for (i = 0; i < count; ++i) s->shock_root[s->shock_composites[i].body] = -1;
}

/* Guendelman §8.2: after the contact sweeps, one pass up the levels; each level is swept with
   everything below it at infinite mass until it converges (at most shock_iterations times
   RG__SHOCK_INNER sweeps), then joins it. A level's errors add to those of every level above:
   a level left moving up lifts all above it, so it is swept whole until converged (100-row
   pyramid: its levels need about 10 sweeps, and with 8 some of its cubes fall). A level also
   ends once a sweep from the (RG__SHOCK_STALL_AFTER + 1)-th on leaves an error below
   RG__SHOCK_STALL_BELOW of the tolerance but above RG__SHOCK_STALL of the sweep before: it has
   stalled on an error too small to matter. Some levels run to the cap (funnel: a cube pressed
   sideways between two finished levels gains the same normal impulse every sweep, which no
   sweep resolves). Returns the number of sweeps. */
static int rg__shock_propagate(rg_world *w, rg_real h, rg_real tolerance) {
    rg__solver *s = &w->solver;
    int level, i, sweeps = 0;
    rg__shock_trees(w);
    stbds_arrsetlen(s->shock_arms, 2 * stbds_arrlen(s->points));
    stbds_arrsetlen(s->shock_patch, stbds_arrlen(s->manifolds));
    for (level = 1; level < s->level_count; ++level) {
        int begin = s->level_start[level], end = s->level_start[level + 1], sweep;
        rg_real previous = 0;
        RIGID_ASSERT(begin <= end);
        if (begin == end) continue;
        for (i = begin; i < end; ++i) {
            const rg__solver_manifold *m = &s->manifolds[i];
            if (s->bodies[m->a].level < level) rg__prepare_body_freeze(&s->bodies[m->a]);
            if (s->bodies[m->b].level < level) rg__prepare_body_freeze(&s->bodies[m->b]);
        }
        for (i = begin; i < end; ++i) rg__impulse_manifold_jacobians(s, &s->manifolds[i]);
        rg__shock_composites_begin(w, begin, end);
        for (sweep = 0; sweep < w->def.shock_iterations * RG__SHOCK_INNER; ++sweep) {
            rg_real worst;
            ++sweeps;
            worst = rg__contact_sweep(s, begin, end, h, 0);
            if (worst <= tolerance ||
                (sweep >= RG__SHOCK_STALL_AFTER && worst > RG__SHOCK_STALL * previous && worst <= RG__SHOCK_STALL_BELOW * w->def.contact_tolerance))
                break;
            previous = worst;
        }
        rg__shock_composites_end(w, begin, end);
    }
    return sweeps;
}

/* The solver bodies' velocities, kept in the stb_ds arrays *v and *w. */
static void rg__shock_keep_velocities(rg__solver *s, rg_vec3 **v, rg_vec3 **w) {
    int i, n = (int)stbds_arrlen(s->bodies);
    stbds_arrsetlen(*v, n);
    stbds_arrsetlen(*w, n);
    for (i = 0; i < n; ++i) {
        (*v)[i] = s->bodies[i].v;
        (*w)[i] = s->bodies[i].w;
    }
}

/* The velocities as the contact stage begins, by which shock propagation's welds tell bodies
   that rest on another (rg__shock_rests_on). */
static void rg__shock_keep_stage_start(rg__solver *s) { rg__shock_keep_velocities(s, &s->stage_start_v, &s->stage_start_w); }

/* The velocities before shock propagation, from which rg__shock_limit_energy measures its
   change. */
static void rg__shock_keep_start(rg__solver *s) { rg__shock_keep_velocities(s, &s->shock_start_v, &s->shock_start_w); }

/* The part s in [0, 1] of shock propagation's change an island keeps (rg__shock_limit_energy),
   from its B, C and slack (negative for an island that is not limited). */
static rg_real rg__shock_energy_scale(rg_real B, rg_real C, rg_real slack) {
    rg_real root, scale;
    if (slack < 0 || !(B + C > slack)) return 1;
    root = rg__sqrt(B * B + 4 * C * slack);
    /* the positive root of C s^2 + B s - slack, in the form without cancellation */
    scale = B < 0 ? (root - B) / (2 * C) : 2 * slack / (B + root);
    return scale < 1 ? (scale > 0 ? scale : 0) : 1;
}

/* Shock propagation gives a level's bodies the impulses that fit them to the frozen level
   below, but not the reactions: where a frozen body moves, what its neighbours above gain is
   not taken from it (see-saw: a 10 kg cube tipping the plank lifts the 1 kg cube on its other
   end, 4 J gained in 20 steps). Guendelman §8.2 accepts the artifact; an engine should not
   create energy. So after shock propagation each island keeps only as much of the velocity
   change dv it made as leaves its kinetic energy no higher than before it, plus what pushing out
   of the slop may take (bodies at slack_speed, RG__SLOP_FRACTION * tolerance * RG__PUSHOUT_RATE):
   with v0 the velocities before, KE(v0 + s dv) = KE(v0) + s B + s^2 C, B = sum m v0.dv + w0.I dw,
   C = sum (m |dv|^2 + dw.I dw) / 2, and s is the root of s B + s^2 C = slack when s = 1 would
   exceed it. Islands touching a kinematic body are left alone: it is an energy source, whose
   push shock propagation carries up. A resting pile is never limited (large-pyramid: no island
   in 200 steps). */
static void rg__shock_limit_energy(rg_world *w, rg_real slack_speed) {
    rg__solver *s = &w->solver;
    int i, n = (int)stbds_arrlen(s->bodies), count = (int)stbds_arrlen(s->manifolds), limited = 0;
    stbds_arrsetlen(s->island_sums, 3 * n);
    for (i = 0; i < 3 * n; ++i) s->island_sums[i] = 0;
    for (i = 0; i < count; ++i) {
        const rg__solver_manifold *m = &s->manifolds[i];
        if (w->bodies[m->a].type == RG_BODY_KINEMATIC || w->bodies[m->b].type == RG_BODY_KINEMATIC)
            s->island_sums[3 * rg__island_of_manifold(s, m) + 2] = -1;
    }
    for (i = 0; i < n; ++i) {
        rg_real *sums = &s->island_sums[3 * s->island[i]];
        if (!s->bodies[i].dynamic || sums[2] < 0) continue;
        rg__island_add_energy_terms(w, i, s->shock_start_v[i], s->shock_start_w[i], slack_speed, sums);
    }
    for (i = 0; i < n; ++i) {
        rg_real *sums = &s->island_sums[3 * i];
        /* from here on sums[0] is the island's scale */
        sums[0] = rg__shock_energy_scale(sums[0], sums[1], sums[2]);
        if (sums[0] < 1) limited = 1;
    }
    if (!limited) return;
    for (i = 0; i < n; ++i)
        rg__island_body_keep_change(&s->bodies[i], s->shock_start_v[i], s->shock_start_w[i],
                                    s->island_sums[3 * s->island[i]]);
    /* the report says what was applied: the sweeps' impulses and the kept part of shock's */
    rg__island_keep_impulses(s);
}

/* =============================================================================================
   >>separate: the first-order pass: positions apart, velocities untouched (Guendelman §11)
   ============================================================================================= */

/* Linear locks in the first-order pass, as in rg__impulse_keep_locked: no move along a locked axis. */
static inline void rg__separate_keep_locked(rg__solver_body *body) {
    int locked = body->locked;
    if (locked & RG_LOCK_LINEAR_X) body->pv.x = 0;
    if (locked & RG_LOCK_LINEAR_Y) body->pv.y = 0;
    if (locked & RG_LOCK_LINEAR_Z) body->pv.z = 0;
}

/* The first-order pass's bookkeeping: where each manifold's points go among the copies, and
   each dynamic body's list of its manifolds (a counting sort on the bodies). */
static void rg__separate_places(rg__solver *s) {
    int i, n = (int)stbds_arrlen(s->bodies), count = (int)stbds_arrlen(s->manifolds), total = 0;
    int *start;
    stbds_arrsetlen(s->separation_active, count);
    stbds_arrsetlen(s->separation_pairs, count);
    for (i = 0; i < count; ++i) {
        s->separation_pairs[i].first = total;
        s->separation_pairs[i].count = s->manifolds[i].count;
        total += s->manifolds[i].count;
        s->separation_active[i] = 0;
    }
    stbds_arrsetlen(s->separation_points, total);
    stbds_arrsetlen(s->body_pairs_start, n + 1);
    start = s->body_pairs_start;
    for (i = 0; i <= n; ++i) start[i] = 0;
    for (i = 0; i < count; ++i) {
        const rg__solver_manifold *m = &s->manifolds[i];
        if (s->bodies[m->a].dynamic) ++start[m->a + 1];
        if (s->bodies[m->b].dynamic) ++start[m->b + 1];
    }
    for (i = 0; i < n; ++i) start[i + 1] += start[i];
    stbds_arrsetlen(s->body_pairs, start[n]);
    /* start[x] runs through body x's list, ending where x + 1's begins */
    for (i = 0; i < count; ++i) {
        const rg__solver_manifold *m = &s->manifolds[i];
        if (s->bodies[m->a].dynamic) s->body_pairs[start[m->a]++] = i;
        if (s->bodies[m->b].dynamic) s->body_pairs[start[m->b]++] = i;
    }
    for (i = n; i > 0; --i) start[i] = start[i - 1];
    start[0] = 0;
}

/* Manifold i can have work from now on: its copy, with its points' masses for the moving
   bodies. */
static void rg__separate_activate(rg__solver *s, int i, rg_real slop) {
    rg__solver_manifold *m = &s->manifolds[i];
    rg__separation_pair *pair = &s->separation_pairs[i];
    int j;
    s->separation_active[i] = 1;
    rg__impulse_points_masses(s, m);
    pair->a = m->a;
    pair->b = m->b;
    pair->n = m->n;
    for (j = 0; j < m->count; ++j) {
        const rg__solver_point *p = &s->points[m->first + j];
        rg__separation_point *q = &s->separation_points[pair->first + j];
        q->ran = p->ran;
        q->rbn = p->rbn;
        q->wan = p->wan;
        q->wbn = p->wbn;
        q->normal_mass = p->normal_mass;
        q->target = -p->gap - slop;
        q->pp = 0;
    }
}

/* A body starts moving in the first-order pass: its manifolds can have work from now on. */
static void rg__separate_body_pushed(rg__solver *s, int body, rg_real slop) {
    int e;
    s->bodies[body].pushed = 1;
    for (e = s->body_pairs_start[body]; e < s->body_pairs_start[body + 1]; ++e)
        if (!s->separation_active[s->body_pairs[e]]) rg__separate_activate(s, s->body_pairs[e], slop);
}

/* The first-order pass runs after the velocities are final, on where the contact points will
   be after the step: the penetration the step starts with, what the collisions' time-of-impact
   offsets add (an offset assumes the body was free until then) and what the iterations left of
   the velocities' share. Whatever lies beyond the slop is removed by impulses on pseudo-
   velocities that move the positions in this step only: pushing bodies apart must not leave
   them with the velocity that did it. Every contact takes part, the others allowing approach up
   to the slop, so that a body pushed out of one neighbour is not pushed into another. The pass
   works on the moves themselves (pseudo-velocity times h, impulses times h), never on a depth
   divided by h, which overflows for the shortest steps. */
static void rg__separate(rg_world *w, rg_real h) {
    rg__solver *s = &w->solver;
    rg_real slop = RG__SLOP_FRACTION * w->def.contact_tolerance;
    int i, j, sweep, count = (int)stbds_arrlen(s->manifolds), any = 0, n = (int)stbds_arrlen(s->bodies);
    rg__predict_start_sweep(s);
    for (i = 0; i < count; ++i) {
        rg__solver_manifold *m = &s->manifolds[i];
        rg__solver_body *A = &s->bodies[m->a], *B = &s->bodies[m->b];
        int turning = rg__predict_turns(s, m, h);
        const rg_mat3 *ca = NULL, *cb = NULL;
        if (turning) {
            ca = rg__predict_body_curvature(s, A, h);
            cb = rg__predict_body_curvature(s, B, h);
        }
        m->deep = 0;
        for (j = 0; j < m->count; ++j) {
            rg__solver_point *p = &s->points[m->first + j];
            rg_real cn = 0, c1, c2;
            if (turning) rg__predict_turn_correction(m, ca, cb, p, &cn, &c1, &c2);
            p->gap = p->base_n + h * rg__impulse_speed(A, B, m->n, p->ran, p->rbn) + cn;
            if (-p->gap > slop) any = m->deep = 1;
        }
    }
    if (!any) return;
    /* shock propagation left finished levels at infinite mass: the pass moves every body */
    for (i = 0; i < n; ++i) {
        rg__solver_body *sb = &s->bodies[i];
        if (!sb->dynamic) continue;
        sb->inv_mass = w->bodies[i].inv_mass;
        sb->inv_inertia = w->bodies[i].inv_inertia_world;
        sb->frozen = 0;
    }
    /* a pair that is not too deep and whose bodies have not moved has nothing to do: none of its
       points has an impulse yet, and none needs one. The sweeps visit the others, in order. */
    rg__separate_places(s);
    for (i = 0; i < count; ++i)
        if (s->manifolds[i].deep) rg__separate_activate(s, i, slop);
    /* Gauss-Seidel carries a push one contact further per sweep, and columns of cubes pressed
       against a plate are longer chains than contact_iterations, hence RG__SEPARATION_SWEEPS
       times as many (funnel: 30 sweeps keep resting contacts under 2 mm). The sweeps stop once
       converged; a wedged heap never is, and runs to the cap. */
    for (sweep = 0; sweep < RG__SEPARATION_SWEEPS * w->def.contact_iterations; ++sweep) {
        rg_real worst = 0;
        for (i = 0; i < count; ++i) {
            const rg__separation_pair *pair = &s->separation_pairs[i];
            rg__solver_body *A, *B;
            if (!s->separation_active[i]) continue;
            A = &s->bodies[pair->a];
            B = &s->bodies[pair->b];
            for (j = 0; j < pair->count; ++j) {
                rg__separation_point *p = &s->separation_points[pair->first + j];
                rg_real un, next, dp;
                if (p->normal_mass <= 0) continue;
                un = rg_v3_dot(rg_v3_sub(A->pv, B->pv), pair->n) + rg_v3_dot(A->pw, p->ran) - rg_v3_dot(B->pw, p->rbn);
                if (un >= p->target && p->pp == 0) continue;
                next = p->pp + (p->target - un) * p->normal_mass;
                if (next < 0) next = 0;
                dp = next - p->pp;
                p->pp = next;
                worst = rg__max_real(worst, rg__fabs(dp) / p->normal_mass);
                A->pv = rg_v3_madd(A->pv, pair->n, dp * A->inv_mass);
                A->pw = rg_v3_madd(A->pw, p->wan, dp);
                B->pv = rg_v3_madd(B->pv, pair->n, -dp * B->inv_mass);
                B->pw = rg_v3_madd(B->pw, p->wbn, -dp);
                if (A->locked | B->locked) {
                    rg__separate_keep_locked(A);
                    rg__separate_keep_locked(B);
                }
                if (A->dynamic && !A->pushed) rg__separate_body_pushed(s, pair->a, slop);
                if (B->dynamic && !B->pushed) rg__separate_body_pushed(s, pair->b, slop);
            }
        }
        if (worst <= RG__CONTACT_EXIT_FRACTION * w->def.contact_tolerance) break;
    }
    for (i = 0; i < n; ++i) {
        rg__solver_body *sb = &s->bodies[i];
        sb->dx = rg_v3_add(sb->dx, sb->pv);
        sb->dr = rg_v3_add(sb->dr, sb->pw);
    }
}

/* =============================================================================================
   >>step: the contact stage's driver, and what a step carries on and reports
   ============================================================================================= */

/* What the narrow phase carries to the next step (the contact sweeps' impulses, for warm
   starting) and what rg_world_contacts reports (everything applied in the step). */
static void rg__step_store_range(int start, int end, int worker, void *context) {
    rg_world *w = (rg_world *)context;
    rg__solver *s = &w->solver;
    int i, k;
    (void)worker;
    for (i = start; i < end; ++i) {
        const rg__solver_manifold *m = &s->manifolds[i];
        rg__pair_manifold *pm = &w->narrowphase.manifolds[m->pair];
        uint32_t generation_a = w->bodies[m->a].generation, generation_b = w->bodies[m->b].generation;
        /* one report per point, in the narrow phase's order of the manifolds */
        rg_contact *c = &s->report[s->pair_first[m->pair]];
        for (k = 0; k < m->count; ++k, ++c) {
            const rg__solver_point *p = &s->points[m->first + k];
            rg_vec3 friction = rg_v3_add(rg_v3_scale(m->t1, p->pt1), rg_v3_scale(m->t2, p->pt2));
            pm->points[k].normal_impulse = p->carry_n;
            pm->points[k].friction_impulse = rg_v3_add(rg_v3_scale(m->t1, p->carry_t1), rg_v3_scale(m->t2, p->carry_t2));
            c->a.index = (uint32_t)m->a;
            c->a.generation = generation_a;
            c->b.index = (uint32_t)m->b;
            c->b.generation = generation_b;
            c->point = pm->points[k].point;
            c->normal = m->n;
            c->depth = p->depth;
            c->normal_impulse = p->total_n + p->pn;
            c->friction_impulse = rg_v3_add(p->total_t, friction);
            c->shape_a = rg__shape_id_of(w, pm->shape_a);
            c->shape_b = rg__shape_id_of(w, pm->shape_b);
        }
    }
}

static void rg__step_store_impulses(rg_world *w) {
    rg__solver *s = &w->solver;
    stbds_arrsetlen(s->report, stbds_arrlen(s->points));
    rg__task_run(w, rg__step_store_range, (int)stbds_arrlen(s->manifolds), RG__SOLVER_RANGE, w);
}

/* Bender §3.2 and Guendelman §8: the contact stage, after the velocity update. */
static void rg__step_resolve_contacts(rg_world *w, rg_real h) {
    rg__solver *s = &w->solver;
    rg_real tolerance = w->def.contact_tolerance, best = 0;
    int i, sweeps = 0, count = (int)stbds_arrlen(s->manifolds), total = (int)stbds_arrlen(s->points), joints, shocked = 0;
    RG__PROFILE_BEGIN(contact);
    rg__prepare_gather_velocities(w);
    rg__shock_keep_stage_start(s);
    rg__predict_offset_turns(s);
    rg__contact_start(w);
    joints = rg__joint_solve_begin(w);
    /* Guendelman §8.1 sweeps up from the ground; every other sweep here goes back down, so that
       the weight of what lies on top reaches the bottom as fast as support reaches the top.
       The sweeps end once every error is below RG__CONTACT_SWEEPS_EXIT of the tolerance (0.05 mm
       by default), or early once they no longer shrink a large error (RG__CONTACT_STALL*): in a
       tall structure Gauss-Seidel over all levels reaches a plateau after a few sweeps, and the
       sweeps beyond it only shift loads and friction around, which warm starting then carries
       on (100-row pyramid: with all 10 sweeps about 200 of its 5050 cubes fall in 200 steps;
       stopping from the third sweep instead of the fifth takes 5.5 to 7% fewer instructions in
       `pyramid`, `large-pyramid`, `rain` and `funnel`, which stand and settle as before).
       Shock propagation does the rest level by level. */
    while (sweeps < w->def.contact_iterations && (count > 0 || joints > 0)) {
        rg_real joint_error = joints > 0 ? rg__joint_solve_sweep(w, h) : 0, error = 0;
        ++sweeps;
        if (count > 0) error = rg__contact_sweep(s, 0, count, h, RG__ALTERNATE && !(sweeps & 1));
        if (rg__max_real(error, joint_error) <= RG__CONTACT_SWEEPS_EXIT * tolerance) break;
        /* the stall is the contacts' alone: a loop of joints converges steadily but slowly (a
           bridge of 30 planks: 10% a sweep), and its sweeps are all it has */
        if (sweeps > RG__CONTACT_STALL_AFTER && error > RG__CONTACT_STALL * best &&
            error > RG__CONTACT_STALL_ABOVE * tolerance && joint_error <= RG__CONTACT_SWEEPS_EXIT * tolerance)
            break;
        if (sweeps == 1 || error < best) best = error;
    }
    w->stats.contact_iterations = sweeps;
    if (joints > 0) {
        rg__joint_limit_sweeps(w, RG__SLOP_FRACTION * tolerance * RG__PUSHOUT_RATE);
        shocked = s->joint_shock_count;
        rg__joint_shock_loads(w, h, shocked, RG__SLOP_FRACTION * tolerance * RG__PUSHOUT_RATE);
        rg__joint_solve_end(w, h);
    }
    /* what is carried to the next step: the sweeps' impulses, not shock propagation's, which
       act on one body of a pair only (the other has infinite mass then) */
    for (i = 0; i < total; ++i) {
        rg__solver_point *p = &s->points[i];
        p->carry_n = p->pn;
        p->carry_t1 = p->pt1;
        p->carry_t2 = p->pt2;
    }
    RG__PROFILE_END(contact);
    {
        RG__PROFILE_BEGIN(shock);
        w->stats.shock_iterations = 0;
        if (w->def.shock_iterations > 0 && count > 0) {
            rg__shock_keep_start(s);
            w->stats.shock_iterations = rg__shock_propagate(w, h, RG__SHOCK_EXIT_FRACTION * tolerance);
            rg__shock_limit_energy(w, RG__SLOP_FRACTION * tolerance * RG__PUSHOUT_RATE);
        }
        w->stats.contact_levels = count > 0 ? s->level_count - 1 : 0;
        rg__prepare_scatter_velocities(w);
        if (count > 0) rg__separate(w, h);
        if (joints > 0) rg__joint_correct(w, h, shocked);
        rg__step_store_impulses(w);
        RG__PROFILE_END(shock);
    }
}

/* rg_world_contacts: the last step's report, without the contacts of bodies destroyed since;
   copies at most `capacity` into out and returns how many there are. */
static int rg__step_contacts(const rg_world *w, rg_contact *out, int capacity) {
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
    def.worker_count = 1;
    def.enqueue_task = NULL;
    def.finish_task = NULL;
    def.user_task_context = NULL;
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

static int rg__world_iterations_are_valid(int n) { return n >= 0 && n <= RG__MAX_ITERATIONS; }

static int rg__world_def_is_valid(const rg_world_def *def) {
    return def && def->cookie == RG__WORLD_COOKIE && rg__v3_is_sane(def->gravity) &&
           rg__world_iterations_are_valid(def->collision_iterations) &&
           rg__world_iterations_are_valid(def->contact_iterations) &&
           rg__world_iterations_are_valid(def->shock_iterations) && rg__is_sane_real(def->contact_tolerance) &&
           def->contact_tolerance >= 0 && rg__is_sane_real(def->contact_margin) && def->contact_margin >= 0 &&
           def->worker_count >= 1 && def->worker_count <= RG__MAX_WORKERS &&
           (def->enqueue_task == NULL) == (def->finish_task == NULL);
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
    w->shape_free_list = -1;
    w->joint_free_list = -1;
    rg__set_result(result, RG_OK);
    return w;
}

RIGID_API void rg_world_destroy(rg_world *w) {
    if (!w) return;
    rg__solver_destroy(w);
    rg__query_destroy(w);
    rg__narrowphase_destroy(w);
    rg__event_destroy(w);
    rg__broadphase_destroy(w);
    stbds_arrfree(w->bodies);
    stbds_arrfree(w->shapes);
    stbds_arrfree(w->joints);
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
    w->previous_step_dt = w->step_dt;
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
    rg__event_capture(w); /* approach speeds, with the velocities of the step's start */
    {
        RG__PROFILE_BEGIN(collision);
        rg__collision_resolve(w, dt);
        RG__PROFILE_END(collision);
    }
    {
        RG__PROFILE_BEGIN(integration);
        rg__integrate_velocities(w, dt);
        RG__PROFILE_END(integration);
    }
    rg__step_resolve_contacts(w, dt); /* times itself: contact and shock */
    {
        RG__PROFILE_BEGIN(integration);
        rg__integrate_positions(w, dt);
        RG__PROFILE_ADD(integration);
    }
    {
        RG__PROFILE_BEGIN(query);
        rg__query_step(w);
        RG__PROFILE_END(query);
    }
    rg__event_update(w);
    n = (int)stbds_arrlen(w->bodies);
    for (i = 0; i < n; ++i) {
        w->bodies[i].force = rg_v3(0, 0, 0);
        w->bodies[i].torque = rg_v3(0, 0, 0);
    }
    rg__joint_step_end(w); /* hinge angles unwrapped at the final poses */
    return RG_OK;
}

RIGID_API int rg_world_contacts(const rg_world *w, rg_contact *out, int capacity) {
    if (!w) return 0;
    if (!out || capacity < 0) capacity = 0;   /* count only */
    return rg__step_contacts(w, out, capacity);
}

RIGID_API rg_world_stats rg_world_get_stats(const rg_world *w) {
    rg_world_stats stats;
    memset(&stats, 0, sizeof stats);
    if (!w) return stats;
    stats = w->stats;
    stats.body_count = w->body_count;
    return stats;
}

/* =============================================================================================
   >>body: bodies: creation, state, forces and impulses, by id
   ============================================================================================= */

RIGID_API rg_body_def rg_body_default_def(void) {
    rg_body_def def;
    memset(&def, 0, sizeof def);
    def.type = RG_BODY_DYNAMIC;
    def.orientation = rg_quat_identity();
    def.density = 1000;
    def.restitution = 0;
    def.static_friction = (rg_real)0.6;
    def.dynamic_friction = (rg_real)0.5;
    def.gravity_scale = 1;
    return def;
}

static int rg__body_quat_is_usable(rg_quat q) {
    return rg_quat_is_finite(q) && (q.x != 0 || q.y != 0 || q.z != 0 || q.w != 0);
}
static int rg__body_coefficient_is_valid(rg_real c) { return rg__is_sane_real(c) && c >= 0; }
/* Damping non-negative, a gravity scale of either sign, all within 1e15; only RG_LOCK_* bits. */
static int rg__body_controls_are_valid(rg_real linear_damping, rg_real angular_damping, rg_real gravity_scale,
                                       uint32_t locks) {
    return rg__body_coefficient_is_valid(linear_damping) && rg__body_coefficient_is_valid(angular_damping) &&
           rg__is_sane_real(gravity_scale) && !(locks & ~(uint32_t)(RG__LOCK_LINEAR | RG__LOCK_ANGULAR));
}

/* Everything in a body def that can be checked without its mass properties. */
static int rg__body_def_is_valid(const rg_body_def *def) {
    if (!def) return 0;
    if (def->type != RG_BODY_STATIC && def->type != RG_BODY_KINEMATIC && def->type != RG_BODY_DYNAMIC)
        return 0;
    if (!rg__v3_is_sane(def->position) || !rg__body_quat_is_usable(def->orientation) ||
        !rg__v3_is_sane(def->linear_velocity) || !rg__v3_is_sane(def->angular_velocity))
        return 0;
    if (!rg__body_coefficient_is_valid(def->density) || !rg__body_coefficient_is_valid(def->mass)) return 0;
    if (def->type == RG_BODY_DYNAMIC && def->hull && !(def->density > 0) && !(def->mass > 0)) return 0;
    if (!rg__is_finite_real(def->restitution) || def->restitution < 0 || def->restitution > 1) return 0;
    if (!rg__body_controls_are_valid(def->linear_damping, def->angular_damping, def->gravity_scale, def->locks)) return 0;
    return rg__body_coefficient_is_valid(def->static_friction) && rg__body_coefficient_is_valid(def->dynamic_friction) &&
           rg__body_coefficient_is_valid(def->rolling_friction) && rg__body_coefficient_is_valid(def->spinning_friction);
}

/* The body an id names, or NULL for a stale id or one never handed out. */
static rg__body *rg__world_body(const rg_world *w, rg_body_id id) {
    rg__body *body;
    if (!w || id.generation == 0 || id.index >= (uint32_t)stbds_arrlen(w->bodies)) return NULL;
    body = &w->bodies[id.index];
    /* an even generation is a free slot's: such an id was never handed out */
    return body->generation == id.generation && (id.generation & 1) ? body : NULL;
}

/* Velocities a body may be given: sane components and, for a dynamic body, a kinetic energy
   below RG__MAX_ENERGY. An overflow inside the check fails it too. */
static int rg__body_velocities_are_valid(const rg__body *body, rg_vec3 v, rg_vec3 omega) {
    rg_vec3 omega_local;
    if (!rg__v3_is_sane(v) || !rg__v3_is_sane(omega)) return 0;
    if (body->type != RG_BODY_DYNAMIC) return 1;
    omega_local = rg_quat_rotate_inverse(body->orientation, omega);
    return body->mass * rg_v3_dot(v, v) <= 2 * RG__MAX_ENERGY &&
           rg_v3_dot(omega_local, rg_mat3_mul_v3(body->inertia_local, omega_local)) <= 2 * RG__MAX_ENERGY;
}

/* Locks: a dynamic body's locked velocity components are zero (rg_body_set_locks, and the
   velocities a user sets; the solver and the integration keep them so). */
static void rg__body_clear_locked(rg__body *body) {
    uint32_t locks = body->locks;
    if (!locks || body->type != RG_BODY_DYNAMIC) return;
    if (locks & RG_LOCK_LINEAR_X) body->linear_velocity.x = 0;
    if (locks & RG_LOCK_LINEAR_Y) body->linear_velocity.y = 0;
    if (locks & RG_LOCK_LINEAR_Z) body->linear_velocity.z = 0;
    if (locks & RG_LOCK_ANGULAR_X) body->angular_velocity.x = 0;
    if (locks & RG_LOCK_ANGULAR_Y) body->angular_velocity.y = 0;
    if (locks & RG_LOCK_ANGULAR_Z) body->angular_velocity.z = 0;
}

/* From >>shape, which follows: */
static void rg__shape_from_def(const rg_shape_def *def, rg__shape *shape);
static void rg__shape_measure(rg__shape *shape);
static void rg__shape_sum_mass(const rg_world *w, const rg__body *body, const rg__shape *skip, const rg__shape *extra,
                               rg__mass_properties *out);
static int rg__shape_mass_is_usable(const rg__mass_properties *mp, int dynamic, rg_mat3 *inverse);
static void rg__shape_apply_mass(rg__body *body, const rg__mass_properties *mp, rg_mat3 inverse);
static rg_shape_id rg__shape_insert(rg_world *w, int body_index, const rg__shape *candidate, rg_result *result);
static void rg__shape_release(rg_world *w, int index);

/* The first shape of a body def with a hull: the hull at the frame's origin, with the def's
   material and density (any positive density when the def's mass fixes the mass). */
static void rg__body_first_shape(const rg_body_def *def, rg__shape *shape) {
    rg_shape_def sd = rg_shape_default_def();
    sd.density = def->mass > 0 && !(def->density > 0) ? 1 : def->density;
    sd.restitution = def->restitution;
    sd.static_friction = def->static_friction;
    sd.dynamic_friction = def->dynamic_friction;
    sd.rolling_friction = def->rolling_friction;
    sd.spinning_friction = def->spinning_friction;
    rg__shape_from_def(&sd, shape);
    shape->type = RG_SHAPE_HULL;
    shape->hull = def->hull;
    rg__shape_measure(shape);
}

/* The body a def describes, built aside so that a refused def changes nothing in the world;
   `first` receives its first shape when the def has a hull. */
static int rg__body_from_def(const rg_world *w, const rg_body_def *def, rg__body *body, rg__shape *first) {
    rg__mass_properties mp;
    rg_mat3 inverse;
    memset(body, 0, sizeof *body);
    body->next_free = -1;
    body->first_shape = -1;
    body->joint_list = -1;
    body->type = def->type;
    body->hull = def->hull;
    body->fixed_mass = def->mass > 0 ? def->mass : 0;
    body->linear_damping = def->linear_damping;
    body->angular_damping = def->angular_damping;
    body->gravity_scale = def->gravity_scale;
    body->locks = def->locks;
    body->orientation = rg_quat_normalize(def->orientation);
    body->com = def->position;
    if (def->hull) rg__body_first_shape(def, first);
    rg__shape_sum_mass(w, body, NULL, def->hull ? first : NULL, &mp);
    if (!rg__shape_mass_is_usable(&mp, def->type == RG_BODY_DYNAMIC, &inverse)) return 0;
    rg__shape_apply_mass(body, &mp, inverse);
    if (!rg__body_velocities_are_valid(body, def->linear_velocity, def->angular_velocity)) return 0;
    if (def->type != RG_BODY_STATIC) {
        body->linear_velocity = def->linear_velocity;
        body->angular_velocity = def->angular_velocity;
        rg__body_clear_locked(body);
    }
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
    rg__shape first;
    uint32_t generation;
    int index;
    if (!w || !rg__body_def_is_valid(def) || !rg__body_from_def(w, def, &candidate, &first)) {
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
    RIGID_ASSERT(index >= 0 && index < (int)stbds_arrlen(w->bodies) && !(w->bodies[index].generation & 1));
    generation = w->bodies[index].generation + 1; /* free slots are even, so this is odd */
    w->bodies[index] = candidate;
    w->bodies[index].generation = generation;
    if (def->hull) (void)rg__shape_insert(w, index, &first, NULL);
    rg__broadphase_add_body(w, index);
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
    rg__event_forget(w, (int)id.index, -1);
    rg__narrowphase_remove_body(w, (int)id.index);
    rg__broadphase_remove_body(w, (int)id.index);
    while (body->joint_list >= 0) rg__joint_release(w, body->joint_list >> 1);
    while (body->first_shape >= 0) rg__shape_release(w, body->first_shape);
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
static rg_vec3 rg__body_local_com(const rg__body *body) { return body->local_com; }
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
/* The velocity of a body's material point p. */
static rg_vec3 rg__body_point_velocity(const rg__body *body, rg_vec3 p) {
    return rg_v3_add(body->linear_velocity, rg_v3_cross(body->angular_velocity, rg_v3_sub(p, body->com)));
}

RIGID_API rg_vec3 rg_body_velocity_at_point(const rg_world *w, rg_body_id id, rg_vec3 world_point) {
    rg__body *body = rg__world_body(w, id);
    if (!body || !rg_v3_is_finite(world_point)) return rg_v3(0, 0, 0);
    return rg__body_point_velocity(body, world_point);
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
    rg_result r = rg__body_for_update(w, id, rg__v3_is_sane(position) && rg__body_quat_is_usable(orientation), &body);
    if (r != RG_OK) return r;
    body->orientation = rg_quat_normalize(orientation);
    body->com = rg_v3_add(position, rg_quat_rotate(body->orientation, rg__body_local_com(body)));
    rg__integrate_world_inertia(body);
    rg__broadphase_body_moved(w, (int)id.index);
    rg__query_body_moved(w, (int)id.index);
    return RG_OK;
}
RIGID_API rg_result rg_body_set_linear_velocity(rg_world *w, rg_body_id id, rg_vec3 v) {
    rg__body *body;
    rg_result r = rg__body_for_update(w, id, rg__v3_is_sane(v), &body);
    if (r != RG_OK) return r;
    if (!rg__body_velocities_are_valid(body, v, body->angular_velocity)) return RG_ERR_INVALID_ARGUMENT;
    if (body->type != RG_BODY_STATIC) body->linear_velocity = v;
    rg__body_clear_locked(body);
    return RG_OK;
}
RIGID_API rg_result rg_body_set_angular_velocity(rg_world *w, rg_body_id id, rg_vec3 omega) {
    rg__body *body;
    rg_result r = rg__body_for_update(w, id, rg__v3_is_sane(omega), &body);
    if (r != RG_OK) return r;
    if (!rg__body_velocities_are_valid(body, body->linear_velocity, omega)) return RG_ERR_INVALID_ARGUMENT;
    if (body->type != RG_BODY_STATIC) body->angular_velocity = omega;
    rg__body_clear_locked(body);
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
    if (!rg__body_velocities_are_valid(body, v, omega)) return RG_ERR_INVALID_ARGUMENT;
    body->linear_velocity = v;
    body->angular_velocity = omega;
    rg__body_clear_locked(body);
    return RG_OK;
}
/* Accumulated force and torque are accepted when a step of RG__MAX_TIME_STEP under them alone
   leaves the body's velocities valid. */
static rg_result rg__body_accumulate(rg__body *body, rg_vec3 force, rg_vec3 torque) {
    rg_vec3 f = rg_v3_add(body->force, force), t = rg_v3_add(body->torque, torque);
    rg_vec3 v = rg_v3_madd(body->linear_velocity, f, body->inv_mass * RG__MAX_TIME_STEP);
    rg_vec3 omega = rg_v3_madd(body->angular_velocity, rg_mat3_mul_v3(body->inv_inertia_world, t), RG__MAX_TIME_STEP);
    if (!rg__v3_is_sane(f) || !rg__v3_is_sane(t) || !rg__body_velocities_are_valid(body, v, omega))
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

/* ---- >>body.controls: type, mass, damping, gravity scale, locks, the live bodies ------------- */

/* From >>shape, which follows: */
static int rg__shape_update_body_mass(rg_world *w, rg__body *body, const rg__shape *skip, const rg__shape *extra);

static int rg__body_type_is_valid(rg_body_type type) {
    return type == RG_BODY_STATIC || type == RG_BODY_KINEMATIC || type == RG_BODY_DYNAMIC;
}

static int rg__body_has_mesh(const rg_world *w, const rg__body *body) {
    int index;
    for (index = body->first_shape; index >= 0; index = w->shapes[index].next)
        if (w->shapes[index].type == RG_SHAPE_MESH) return 1;
    return 0;
}

/* The body in its new type, built aside: a static body stops, a static or kinematic one keeps
   no forces and no inverse inertia (rg__integrate_world_inertia keeps only a dynamic body's), and
   the mass properties are summed again for the type; 0 when they or the velocities would be
   unusable. */
static int rg__body_retyped(rg_world *w, const rg__body *body, rg_body_type type, rg__body *out) {
    *out = *body;
    out->type = type;
    if (type == RG_BODY_STATIC) out->linear_velocity = out->angular_velocity = rg_v3(0, 0, 0);
    if (type != RG_BODY_DYNAMIC) {
        out->force = out->torque = rg_v3(0, 0, 0);
        memset(&out->inv_inertia_world, 0, sizeof out->inv_inertia_world);
    }
    if (!rg__shape_update_body_mass(w, out, NULL, NULL)) return 0;
    rg__body_clear_locked(out);
    return 1;
}

/* The body keeps its slot and id; the broad phase takes it out and back in with the new type
   (a static body's endpoints are tagged so and it is no mover: rg__broadphase_tag), and its
   pairs' caches and manifolds go, as when a shape is added. */
RIGID_API rg_result rg_body_set_type(rg_world *w, rg_body_id id, rg_body_type type) {
    rg__body *body, retyped;
    rg_result r = rg__body_for_update(w, id, rg__body_type_is_valid(type), &body);
    if (r != RG_OK) return r;
    if (body->type == type) return RG_OK;
    if (type == RG_BODY_DYNAMIC && rg__body_has_mesh(w, body)) return RG_ERR_INVALID_ARGUMENT;
    if (!rg__body_retyped(w, body, type, &retyped)) return RG_ERR_INVALID_ARGUMENT;
    *body = retyped;
    rg__narrowphase_remove_body(w, (int)id.index);
    rg__broadphase_remove_body(w, (int)id.index);
    rg__broadphase_add_body(w, (int)id.index);
    return RG_OK;
}

RIGID_API rg_result rg_body_set_mass(rg_world *w, rg_body_id id, rg_real mass) {
    rg__body *body, trial;
    rg_result r = rg__body_for_update(w, id, rg__body_coefficient_is_valid(mass), &body);
    if (r != RG_OK) return r;
    trial = *body;
    trial.fixed_mass = mass;
    if (!rg__shape_update_body_mass(w, &trial, NULL, NULL)) return RG_ERR_INVALID_ARGUMENT;
    *body = trial;
    return RG_OK;
}

RIGID_API rg_result rg_body_set_damping(rg_world *w, rg_body_id id, rg_real linear, rg_real angular) {
    rg__body *body;
    rg_result r = rg__body_for_update(w, id, rg__body_controls_are_valid(linear, angular, 1, 0), &body);
    if (r != RG_OK) return r;
    body->linear_damping = linear;
    body->angular_damping = angular;
    return RG_OK;
}

RIGID_API rg_result rg_body_set_gravity_scale(rg_world *w, rg_body_id id, rg_real scale) {
    rg__body *body;
    rg_result r = rg__body_for_update(w, id, rg__body_controls_are_valid(0, 0, scale, 0), &body);
    if (r != RG_OK) return r;
    body->gravity_scale = scale;
    return RG_OK;
}

/* The world inverse inertia follows the angular locks at once (rg__integrate_world_inertia). */
RIGID_API rg_result rg_body_set_locks(rg_world *w, rg_body_id id, uint32_t locks) {
    rg__body *body;
    rg_result r = rg__body_for_update(w, id, rg__body_controls_are_valid(0, 0, 1, locks), &body);
    if (r != RG_OK) return r;
    body->locks = locks;
    rg__integrate_world_inertia(body);
    rg__body_clear_locked(body);
    return RG_OK;
}

RIGID_API rg_real rg_body_linear_damping(const rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    return body ? body->linear_damping : 0;
}
RIGID_API rg_real rg_body_angular_damping(const rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    return body ? body->angular_damping : 0;
}
RIGID_API rg_real rg_body_gravity_scale(const rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    return body ? body->gravity_scale : 0;
}
RIGID_API uint32_t rg_body_locks(const rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    return body ? body->locks : 0;
}
RIGID_API rg_real rg_body_fixed_mass(const rg_world *w, rg_body_id id) {
    rg__body *body = rg__world_body(w, id);
    return body ? body->fixed_mass : 0;
}

RIGID_API int rg_world_bodies(const rg_world *w, rg_body_id *out, int capacity) {
    int i, n, total = 0;
    if (!w) return 0;
    if (!out || capacity < 0) capacity = 0;
    n = (int)stbds_arrlen(w->bodies);
    for (i = 0; i < n; ++i) {
        if (!(w->bodies[i].generation & 1)) continue;
        if (total < capacity) {
            out[total].index = (uint32_t)i;
            out[total].generation = w->bodies[i].generation;
        }
        ++total;
    }
    return total;
}

/* =============================================================================================
   >>shape: shapes on bodies: defs, mass properties, filters, by id
   =============================================================================================

   A body's shapes are linked in the order they were added (rg__body.first_shape, rg__shape.next)
   and each is measured once, when added: volume, centroid and inertia at density 1 in the
   body frame, and its extent. The body's mass properties are their sum (rg__shape_sum_mass). */

#define RG__SHAPE_COOKIE 0x52475331
#define RG__PI ((rg_real)3.14159265358979323846)

RIGID_API rg_shape_def rg_shape_default_def(void) {
    rg_shape_def def;
    memset(&def, 0, sizeof def);
    def.density = 1000;
    def.static_friction = (rg_real)0.6;
    def.dynamic_friction = (rg_real)0.5;
    def.category_bits = 1;
    def.mask_bits = 0xFFFFFFFFu;
    def.cookie = RG__SHAPE_COOKIE;
    return def;
}

static int rg__shape_def_is_valid(const rg_shape_def *def) {
    return def && def->cookie == RG__SHAPE_COOKIE && rg__body_coefficient_is_valid(def->density) &&
           rg__is_finite_real(def->restitution) && def->restitution >= 0 && def->restitution <= 1 &&
           rg__body_coefficient_is_valid(def->static_friction) && rg__body_coefficient_is_valid(def->dynamic_friction) &&
           rg__body_coefficient_is_valid(def->rolling_friction) && rg__body_coefficient_is_valid(def->spinning_friction);
}

/* The shape a def describes, geometry still to be set. */
static void rg__shape_from_def(const rg_shape_def *def, rg__shape *shape) {
    memset(shape, 0, sizeof *shape);
    shape->next_free = shape->next = -1;
    shape->orientation = rg_quat_identity();
    shape->density = def->density;
    shape->restitution = def->restitution;
    shape->static_friction = def->static_friction;
    shape->dynamic_friction = def->dynamic_friction;
    shape->rolling_friction = def->rolling_friction;
    shape->spinning_friction = def->spinning_friction;
    shape->category_bits = def->category_bits;
    shape->mask_bits = def->mask_bits;
    shape->group = def->group;
    shape->is_sensor = def->is_sensor != 0;
    shape->user_data = def->user_data;
}

/* A solid sphere's volume and inertia at density 1: 4/3 pi r^3 and 2/5 V r^2 about any axis. */
static void rg__shape_measure_sphere(rg__shape *shape) {
    rg_real r = shape->radius, volume = (rg_real)4 / 3 * RG__PI * r * r * r;
    shape->volume = volume;
    shape->centroid = shape->p0;
    shape->unit_inertia = rg_mat3_diagonal(rg_v3(1, 1, 1));
    shape->unit_inertia = rg_mat3_scale(shape->unit_inertia, (rg_real)0.4 * volume * r * r);
    shape->extent = r;
}

/* A capsule: a cylinder of length L and two hemispherical caps (together a sphere of mass m_s).
   About its axis: m_c r^2 / 2 + 2/5 m_s r^2. Across it, about the centre: the cylinder's
   m_c (L^2 / 12 + r^2 / 4), and each cap's own 83/320 (m_s / 2) r^2 moved by the parallel-axis
   theorem to its centroid, 3/8 r beyond the cylinder's end: together
   m_s (2/5 r^2 + L^2 / 4 + 3/8 L r). */
static void rg__shape_measure_capsule(rg__shape *shape) {
    rg_vec3 axis = rg_v3_sub(shape->p1, shape->p0);
    rg_real r = shape->radius, length = rg_v3_length(axis), r2 = r * r;
    rg_real cylinder = RG__PI * r2 * length, caps = (rg_real)4 / 3 * RG__PI * r2 * r;
    rg_real along = cylinder * r2 / 2 + (rg_real)0.4 * caps * r2;
    rg_real across = cylinder * (length * length / 12 + r2 / 4) +
                     caps * ((rg_real)0.4 * r2 + length * length / 4 + (rg_real)0.375 * length * r);
    rg_vec3 u = length > 0 ? rg_v3_scale(axis, 1 / length) : rg_v3(0, 1, 0);
    shape->volume = cylinder + caps;
    shape->centroid = rg_v3_scale(rg_v3_add(shape->p0, shape->p1), (rg_real)0.5);
    /* across E + (along - across) u u^T */
    shape->unit_inertia = rg_mat3_add(rg_mat3_scale(rg_mat3_identity(), across),
                                      rg_mat3_scale(rg_mat3_outer(u, u), along - across));
    shape->extent = length / 2 + r;
}

/* A hull placed at (position, orientation) in the body frame. At the frame's origin unturned,
   its own centroid and inertia, bit for bit. */
static void rg__shape_measure_hull(rg__shape *shape) {
    const rg_hull *h = shape->hull;
    shape->placed = shape->position.x != 0 || shape->position.y != 0 || shape->position.z != 0 ||
                    shape->orientation.x != 0 || shape->orientation.y != 0 || shape->orientation.z != 0;
    shape->volume = h->volume;
    shape->extent = h->radius;
    if (!shape->placed) {
        shape->centroid = h->centroid;
        shape->unit_inertia = h->unit_inertia;
        return;
    }
    shape->centroid = rg_v3_add(shape->position, rg__quat_rotate(shape->orientation, h->centroid));
    shape->unit_inertia = rg__mat3_rotate_tensor(rg_mat3_from_quat(shape->orientation), h->unit_inertia);
}

/* A mesh has no volume; its extent reaches the corners of its box from the box's centre. */
static void rg__shape_measure_mesh(rg__shape *shape) {
    const rg_mesh *m = shape->mesh;
    shape->volume = 0;
    shape->centroid = rg_v3_scale(rg_v3_add(m->lo, m->hi), (rg_real)0.5);
    memset(&shape->unit_inertia, 0, sizeof shape->unit_inertia);
    shape->extent = rg_v3_length(rg_v3_sub(m->hi, shape->centroid));
}

static void rg__shape_measure(rg__shape *shape) {
    switch (shape->type) {
    case RG_SHAPE_SPHERE: rg__shape_measure_sphere(shape); break;
    case RG_SHAPE_CAPSULE: rg__shape_measure_capsule(shape); break;
    case RG_SHAPE_HULL: rg__shape_measure_hull(shape); break;
    case RG_SHAPE_MESH: rg__shape_measure_mesh(shape); break;
    }
}

/* Does the shape give its body mass? */
static int rg__shape_has_mass(const rg__shape *shape) {
    return !shape->is_sensor && shape->type != RG_SHAPE_MESH && shape->density > 0 && shape->volume > 0;
}

/* The shapes a body's sum takes: its list, less `skip` (a shape being destroyed), plus `extra`
   (a shape being added), in list order. Returns how many, at most `capacity` written. */
typedef struct rg__shape_walk {
    const rg_world *w;
    const rg__body *body;
    const rg__shape *skip, *extra;
    int next;                     /* next index in the list, -1 at its end */
    int extra_done;
} rg__shape_walk;

static void rg__shape_walk_start(rg__shape_walk *walk, const rg_world *w, const rg__body *body,
                                 const rg__shape *skip, const rg__shape *extra) {
    walk->w = w;
    walk->body = body;
    walk->skip = skip;
    walk->extra = extra;
    walk->next = body->first_shape;
    walk->extra_done = extra == NULL;
}

static const rg__shape *rg__shape_walk_next(rg__shape_walk *walk) {
    while (walk->next >= 0) {
        const rg__shape *shape = &walk->w->shapes[walk->next];
        walk->next = shape->next;
        if (shape != walk->skip) return shape;
    }
    if (!walk->extra_done) {
        walk->extra_done = 1;
        return walk->extra;
    }
    return NULL;
}

/* The sum of a body's shapes (Mirtich's and the closed forms above, moved by the parallel-axis
   theorem: I = sum (rho_i I_i + m_i (|d_i|^2 E - d_i d_i^T)), d_i from the body's centre of mass
   to the shape's centroid). A fixed mass scales the densities' sum. A dynamic body without a
   shape of mass is 1 kg with a solid sphere's inertia of radius 0.5 m at the frame's origin.
   One shape of mass gives its own values, bit for bit (the product and quotient would round).
   Static and kinematic bodies: mass zero, their centre the shapes' volume centroid. */
static void rg__shape_sum_mass(const rg_world *w, const rg__body *body, const rg__shape *skip, const rg__shape *extra,
                               rg__mass_properties *out) {
    rg__shape_walk walk;
    const rg__shape *shape, *only = NULL;
    rg_real total = 0;
    rg_vec3 moment = rg_v3(0, 0, 0);
    int massive = 0, dynamic = body->type == RG_BODY_DYNAMIC;
    memset(out, 0, sizeof *out);
    rg__shape_walk_start(&walk, w, body, skip, extra);
    while ((shape = rg__shape_walk_next(&walk)) != NULL) {
        rg_real weight = dynamic ? shape->density * shape->volume : shape->volume;
        if (!rg__shape_has_mass(shape) && !(!dynamic && shape->volume > 0 && !shape->is_sensor)) continue;
        ++massive;
        only = shape;
        total += weight;
        moment = rg_v3_madd(moment, shape->centroid, weight);
    }
    if (massive == 1) {
        rg_real density = body->fixed_mass > 0 ? body->fixed_mass / only->volume : only->density;
        out->local_com = only->centroid;
        if (dynamic) {
            out->mass = density * only->volume;
            out->inertia = rg_mat3_scale(only->unit_inertia, density);
        }
    } else if (massive > 1) {
        rg_real scale = dynamic && body->fixed_mass > 0 ? body->fixed_mass / total : 1;
        out->local_com = rg_v3_scale(moment, 1 / total);
        if (dynamic) {
            out->mass = total * scale;
            rg__shape_walk_start(&walk, w, body, skip, extra);
            while ((shape = rg__shape_walk_next(&walk)) != NULL) {
                rg_real m;
                rg_vec3 d;
                if (!rg__shape_has_mass(shape)) continue;
                m = shape->density * shape->volume * scale;
                d = rg_v3_sub(shape->centroid, out->local_com);
                out->inertia = rg_mat3_add(out->inertia, rg_mat3_scale(shape->unit_inertia, shape->density * scale));
                out->inertia = rg__mat3_add_point_mass(out->inertia, m, d);
            }
        }
    } else if (dynamic) {
        out->mass = 1;
        out->inertia = rg_mat3_scale(rg_mat3_identity(), (rg_real)0.1); /* 2/5 m r^2, r = 0.5 */
    }
    rg__shape_walk_start(&walk, w, body, skip, extra);
    while ((shape = rg__shape_walk_next(&walk)) != NULL) {
        rg_real reach = rg_v3_length(rg_v3_sub(shape->centroid, out->local_com)) + shape->extent;
        if (reach > out->radius) out->radius = reach;
    }
}

/* Are these mass properties usable by the solver: mass, the inertia's diagonal and their inverses
   finite and positive (a dynamic body), all finite (any body)? An extreme density on a large
   shape overflows. */
static int rg__shape_mass_is_usable(const rg__mass_properties *mp, int dynamic, rg_mat3 *inverse) {
    int i;
    memset(inverse, 0, sizeof *inverse);
    if (!rg__v3_is_sane(mp->local_com) || !rg__is_finite_real(mp->radius)) return 0;
    if (!dynamic) return 1;
    *inverse = rg_mat3_inverse(mp->inertia);
    if (!(mp->mass > 0) || !rg__is_finite_real(mp->mass) || !rg__is_finite_real(1 / mp->mass)) return 0;
    for (i = 0; i < 3; ++i)
        if (!(mp->inertia.m[i][i] > 0) || !rg__is_finite_real(mp->inertia.m[i][i]) || !(inverse->m[i][i] > 0))
            return 0;
    return rg__mat3_is_finite(mp->inertia) && rg__mat3_is_finite(*inverse);
}

/* The body takes new mass properties. Its frame stays where it is, so the centre of mass moves
   with the local centre; the motion of the body's points is kept: the centre's velocity changes
   by w x (its shift). */
static void rg__shape_apply_mass(rg__body *body, const rg__mass_properties *mp, rg_mat3 inverse) {
    rg_vec3 shift = rg__quat_rotate(body->orientation, rg_v3_sub(mp->local_com, body->local_com));
    body->com = rg_v3_add(body->com, shift);
    body->local_com = mp->local_com;
    if (body->type != RG_BODY_STATIC)
        body->linear_velocity = rg_v3_add(body->linear_velocity, rg_v3_cross(body->angular_velocity, shift));
    body->mass = mp->mass;
    body->inv_mass = mp->mass > 0 ? 1 / mp->mass : 0;
    body->inertia_local = mp->inertia;
    body->inv_inertia_local = inverse;
    body->radius = mp->radius;
    rg__integrate_world_inertia(body);
}

/* Would the body's mass properties stay usable with `extra` added or `skip` taken away, and its
   velocities valid? Then they are applied. */
static int rg__shape_update_body_mass(rg_world *w, rg__body *body, const rg__shape *skip, const rg__shape *extra) {
    rg__mass_properties mp;
    rg_mat3 inverse;
    rg__body trial;
    rg__shape_sum_mass(w, body, skip, extra, &mp);
    if (!rg__shape_mass_is_usable(&mp, body->type == RG_BODY_DYNAMIC, &inverse)) return 0;
    trial = *body;
    rg__shape_apply_mass(&trial, &mp, inverse);
    if (!rg__body_velocities_are_valid(&trial, trial.linear_velocity, trial.angular_velocity)) return 0;
    *body = trial;
    return 1;
}

/* The shape an id names, or NULL for a stale id or one never handed out. */
static rg__shape *rg__world_shape(const rg_world *w, rg_shape_id id) {
    rg__shape *shape;
    if (!w || id.generation == 0 || id.index >= (uint32_t)stbds_arrlen(w->shapes)) return NULL;
    shape = &w->shapes[id.index];
    return shape->generation == id.generation && (id.generation & 1) ? shape : NULL;
}

static rg_shape_id rg__shape_id_of(const rg_world *w, int index) {
    rg_shape_id id;
    id.index = (uint32_t)index;
    id.generation = w->shapes[index].generation;
    return id;
}

/* A slot for a new shape (from the free list or appended), or -1 when out of memory. */
static int rg__shape_allocate(rg_world *w) {
    int index;
    if (w->shape_free_list >= 0) {
        index = w->shape_free_list;
        w->shape_free_list = w->shapes[index].next_free;
        return index;
    }
    {
        rg__shape blank;
        memset(&blank, 0, sizeof blank);
        index = (int)stbds_arrlen(w->shapes);
        stbds_arrput(w->shapes, blank);
        return (int)stbds_arrlen(w->shapes) == index + 1 ? index : -1;
    }
}

/* Links a measured shape into the world and at the end of its body's list; the body's mass
   must already include it. */
static rg_shape_id rg__shape_insert(rg_world *w, int body_index, const rg__shape *candidate, rg_result *result) {
    rg_shape_id id = {0, 0};
    rg__body *body;
    int index = rg__shape_allocate(w), *link;
    uint32_t generation;
    if (index < 0) {
        rg__set_result(result, RG_ERR_OUT_OF_MEMORY);
        return id;
    }
    RIGID_ASSERT(!(w->shapes[index].generation & 1));
    generation = w->shapes[index].generation + 1; /* free slots are even, so this is odd */
    w->shapes[index] = *candidate;
    w->shapes[index].generation = generation;
    w->shapes[index].body = body_index;
    w->shapes[index].next = -1;
    body = &w->bodies[body_index];
    link = &body->first_shape;
    while (*link >= 0) link = &w->shapes[*link].next;
    *link = index;
    ++body->shape_count;
    rg__query_body_moved(w, body_index);
    rg__set_result(result, RG_OK);
    return rg__shape_id_of(w, index);
}

/* The end of every rg_body_add_*: the shape is measured, the body's mass updated (refused if
   it would be unusable), the shape linked, and the body's box and pairs start over. */
static rg_shape_id rg__shape_add(rg_world *w, rg_body_id body_id, rg__shape *candidate, rg_result *result) {
    rg_shape_id id = {0, 0};
    rg__body *body = rg__world_body(w, body_id);
    if (!body) {
        rg__set_result(result, RG_ERR_STALE_ID);
        return id;
    }
    rg__shape_measure(candidate);
    if (!rg__shape_update_body_mass(w, body, NULL, candidate)) {
        rg__set_result(result, RG_ERR_INVALID_ARGUMENT);
        return id;
    }
    id = rg__shape_insert(w, (int)body_id.index, candidate, result);
    rg__narrowphase_remove_body(w, (int)body_id.index);
    rg__broadphase_body_moved(w, (int)body_id.index);
    return id;
}

/* The checks every rg_body_add_* starts with; on failure the result says why. */
static int rg__shape_arguments_ok(rg_world *w, rg_body_id body, const rg_shape_def *def, int geometry_ok,
                                  rg_result *result) {
    if (!w || !rg__shape_def_is_valid(def) || !geometry_ok) {
        rg__set_result(result, RG_ERR_INVALID_ARGUMENT);
        return 0;
    }
    if (!rg__world_body(w, body)) {
        rg__set_result(result, RG_ERR_STALE_ID);
        return 0;
    }
    return 1;
}

static int rg__shape_radius_is_valid(rg_real radius) { return rg__is_sane_real(radius) && radius > 0; }

RIGID_API rg_shape_id rg_body_add_sphere(rg_world *w, rg_body_id body, const rg_shape_def *def, rg_vec3 center,
                                         rg_real radius, rg_result *result) {
    rg_shape_id none = {0, 0};
    rg__shape candidate;
    if (!rg__shape_arguments_ok(w, body, def, rg__v3_is_sane(center) && rg__shape_radius_is_valid(radius), result))
        return none;
    rg__shape_from_def(def, &candidate);
    candidate.type = RG_SHAPE_SPHERE;
    candidate.p0 = candidate.p1 = center;
    candidate.radius = radius;
    return rg__shape_add(w, body, &candidate, result);
}

RIGID_API rg_shape_id rg_body_add_capsule(rg_world *w, rg_body_id body, const rg_shape_def *def, rg_vec3 center_a,
                                          rg_vec3 center_b, rg_real radius, rg_result *result) {
    rg_shape_id none = {0, 0};
    rg__shape candidate;
    int ok = rg__v3_is_sane(center_a) && rg__v3_is_sane(center_b) && rg__shape_radius_is_valid(radius) &&
             rg__is_sane_real(rg_v3_length(rg_v3_sub(center_b, center_a)));
    if (!rg__shape_arguments_ok(w, body, def, ok, result)) return none;
    rg__shape_from_def(def, &candidate);
    candidate.type = RG_SHAPE_CAPSULE;
    candidate.p0 = center_a;
    candidate.p1 = center_b;
    candidate.radius = radius;
    return rg__shape_add(w, body, &candidate, result);
}

RIGID_API rg_shape_id rg_body_add_hull(rg_world *w, rg_body_id body, const rg_shape_def *def, const rg_hull *hull,
                                       rg_vec3 position, rg_quat orientation, rg_result *result) {
    rg_shape_id none = {0, 0};
    rg__shape candidate;
    int ok = hull && hull->vertex_count > 0 && rg__v3_is_sane(position) && rg__body_quat_is_usable(orientation);
    if (!rg__shape_arguments_ok(w, body, def, ok, result)) return none;
    rg__shape_from_def(def, &candidate);
    candidate.type = RG_SHAPE_HULL;
    candidate.hull = hull;
    candidate.position = position;
    candidate.orientation = rg_quat_normalize(orientation);
    return rg__shape_add(w, body, &candidate, result);
}

RIGID_API rg_shape_id rg_body_add_mesh(rg_world *w, rg_body_id body, const rg_shape_def *def, const rg_mesh *mesh,
                                       rg_result *result) {
    rg_shape_id none = {0, 0};
    rg__shape candidate;
    rg__body *owner;
    if (!rg__shape_arguments_ok(w, body, def, mesh && mesh->triangle_count > 0, result)) return none;
    owner = rg__world_body(w, body);
    if (owner->type == RG_BODY_DYNAMIC) {
        rg__set_result(result, RG_ERR_INVALID_ARGUMENT);
        return none;
    }
    rg__shape_from_def(def, &candidate);
    candidate.type = RG_SHAPE_MESH;
    candidate.mesh = mesh;
    return rg__shape_add(w, body, &candidate, result);
}

/* Unlinks shape `index` from its body's list and frees its slot (a slot whose generation would
   wrap is retired, so that an old id never aliases a new shape). */
static void rg__shape_release(rg_world *w, int index) {
    rg__shape *shape = &w->shapes[index];
    rg__body *body = &w->bodies[shape->body];
    int *link = &body->first_shape;
    rg__query_remove_shape(w, index);
    while (*link != index) link = &w->shapes[*link].next;
    *link = shape->next;
    --body->shape_count;
    if (shape->generation + 1 == 0) {
        shape->generation = 0xfffffffeu;
    } else {
        shape->generation += 1;
        shape->next_free = w->shape_free_list;
        w->shape_free_list = index;
    }
}

RIGID_API rg_result rg_shape_destroy(rg_world *w, rg_shape_id id) {
    rg__shape *shape = rg__world_shape(w, id);
    rg__body *body;
    if (!w) return RG_ERR_INVALID_ARGUMENT;
    if (!shape) return RG_ERR_STALE_ID;
    body = &w->bodies[shape->body];
    /* fewer shapes never overflow: the sum of the others was usable before */
    if (!rg__shape_update_body_mass(w, body, shape, NULL)) return RG_ERR_INVALID_ARGUMENT;
    if (body->hull == shape->hull && shape->type == RG_SHAPE_HULL && (int)id.index == body->first_shape)
        body->hull = NULL;
    rg__event_forget(w, -1, (int)id.index);
    rg__narrowphase_remove_body(w, shape->body);
    rg__broadphase_body_moved(w, shape->body);
    rg__shape_release(w, (int)id.index);
    return RG_OK;
}

RIGID_API int rg_shape_is_valid(const rg_world *w, rg_shape_id id) { return rg__world_shape(w, id) != NULL; }

RIGID_API rg_shape_type rg_shape_get_type(const rg_world *w, rg_shape_id id) {
    rg__shape *shape = rg__world_shape(w, id);
    return shape ? shape->type : RG_SHAPE_HULL;
}
RIGID_API rg_body_id rg_shape_body(const rg_world *w, rg_shape_id id) {
    rg__shape *shape = rg__world_shape(w, id);
    rg_body_id body = {0, 0};
    if (!shape) return body;
    body.index = (uint32_t)shape->body;
    body.generation = w->bodies[shape->body].generation;
    return body;
}
RIGID_API void *rg_shape_user_data(const rg_world *w, rg_shape_id id) {
    rg__shape *shape = rg__world_shape(w, id);
    return shape ? shape->user_data : NULL;
}
RIGID_API int rg_shape_is_sensor(const rg_world *w, rg_shape_id id) {
    rg__shape *shape = rg__world_shape(w, id);
    return shape ? shape->is_sensor : 0;
}
RIGID_API rg_result rg_shape_set_filter(rg_world *w, rg_shape_id id, uint32_t category_bits, uint32_t mask_bits,
                                        int32_t group) {
    rg__shape *shape = rg__world_shape(w, id);
    if (!w) return RG_ERR_INVALID_ARGUMENT;
    if (!shape) return RG_ERR_STALE_ID;
    shape->category_bits = category_bits;
    shape->mask_bits = mask_bits;
    shape->group = group;
    return RG_OK;
}
RIGID_API int rg_shape_get_sphere(const rg_world *w, rg_shape_id id, rg_vec3 *center, rg_real *radius) {
    rg__shape *shape = rg__world_shape(w, id);
    if (!shape || shape->type != RG_SHAPE_SPHERE) return 0;
    if (center) *center = shape->p0;
    if (radius) *radius = shape->radius;
    return 1;
}
RIGID_API int rg_shape_get_capsule(const rg_world *w, rg_shape_id id, rg_vec3 *center_a, rg_vec3 *center_b,
                                   rg_real *radius) {
    rg__shape *shape = rg__world_shape(w, id);
    if (!shape || shape->type != RG_SHAPE_CAPSULE) return 0;
    if (center_a) *center_a = shape->p0;
    if (center_b) *center_b = shape->p1;
    if (radius) *radius = shape->radius;
    return 1;
}
RIGID_API const rg_hull *rg_shape_get_hull(const rg_world *w, rg_shape_id id, rg_vec3 *position, rg_quat *orientation) {
    rg__shape *shape = rg__world_shape(w, id);
    if (!shape || shape->type != RG_SHAPE_HULL) return NULL;
    if (position) *position = shape->position;
    if (orientation) *orientation = shape->orientation;
    return shape->hull;
}
RIGID_API const rg_mesh *rg_shape_get_mesh(const rg_world *w, rg_shape_id id) {
    rg__shape *shape = rg__world_shape(w, id);
    return shape && shape->type == RG_SHAPE_MESH ? shape->mesh : NULL;
}
RIGID_API void rg_shape_aabb(const rg_world *w, rg_shape_id id, rg_vec3 *min, rg_vec3 *max) {
    rg__shape *shape = rg__world_shape(w, id);
    if (min) *min = shape ? shape->aabb_min : rg_v3(0, 0, 0);
    if (max) *max = shape ? shape->aabb_max : rg_v3(0, 0, 0);
}
RIGID_API int rg_body_shapes(const rg_world *w, rg_body_id body_id, rg_shape_id *out, int capacity) {
    rg__body *body = rg__world_body(w, body_id);
    int index, total = 0;
    if (!body) return 0;
    for (index = body->first_shape; index >= 0; index = w->shapes[index].next, ++total)
        if (out && total < capacity) out[total] = rg__shape_id_of(w, index);
    return total;
}

/* The filtering rule: the same non-zero group decides (positive: always, negative: never);
   otherwise each shape's category must be in the other's mask. */
static int rg__shape_filters_pass(const rg__shape *a, const rg__shape *b) {
    if (a->group != 0 && a->group == b->group) return a->group > 0;
    return (a->category_bits & b->mask_bits) != 0 && (b->category_bits & a->mask_bits) != 0;
}

/* =============================================================================================
   >>joint: joints by id: anchors in the bodies' frames, the bodies' joint lists, the pairs they
   keep apart, positions
   =============================================================================================

   A joint's def is read once: its world anchors and axis are carried into each body's frame
   (the frame of its shapes; the world's for a null body_b), with a's orientation relative to
   b's as the reference of the angular rows, so that the joint holds the bodies as they were
   placed at creation. Each body lists its joints in ascending joint index, doubly linked
   through rg__joint.link by keys 2 joint + side (side 0: the joint's body a, 1: its body b):
   a body's destruction takes its joints with it, and the narrow phase asks of a pair whose
   bodies both have joints whether one of those keeps them apart (rg__joint_blocks_pair) by
   walking the shorter list. A hinge's angle is the twist about b's axis of a's turn relative to
   b since creation, made continuous by unwrapping it at the end of every step from the angle of
   the step before (rg__joint_step_end). */

#define RG__JOINT_COOKIE 0x52474A31

RIGID_API rg_joint_def rg_joint_default_def(void) {
    rg_joint_def def;
    memset(&def, 0, sizeof def);
    def.type = RG_JOINT_BALL;
    def.axis = rg_v3(0, 0, 1);
    def.lower = def.upper = -1;
    def.cookie = RG__JOINT_COOKIE;
    return def;
}

static int rg__joint_type_is_valid(rg_joint_type type) {
    return type == RG_JOINT_BALL || type == RG_JOINT_HINGE || type == RG_JOINT_SLIDER || type == RG_JOINT_FIXED ||
           type == RG_JOINT_DISTANCE;
}
static int rg__joint_has_limits(rg_joint_type type) { return type != RG_JOINT_FIXED; }
static int rg__joint_has_motor(rg_joint_type type) { return type == RG_JOINT_HINGE || type == RG_JOINT_SLIDER; }
/* Hinges and sliders read the axis, ball joints for their cone limit. */
static int rg__joint_reads_axis(rg_joint_type type, int enable_limit) {
    return type == RG_JOINT_HINGE || type == RG_JOINT_SLIDER || (type == RG_JOINT_BALL && enable_limit);
}
static int rg__joint_motor_is_valid(rg_real speed, rg_real max_force) {
    return rg__is_sane_real(speed) && rg__is_sane_real(max_force) && max_force >= 0;
}

/* Limits as the type takes them, into *out_lower, *out_upper; 0 when refused. A distance joint's
   lengths are always in force, a negative one meaning `length` (the length at creation); a
   ball joint reads upper only, its cone's half angle. */
static int rg__joint_limits_resolve(rg_joint_type type, int enable, rg_real lower, rg_real upper, rg_real length,
                                    rg_real *out_lower, rg_real *out_upper) {
    if (!rg__is_sane_real(lower) || !rg__is_sane_real(upper)) return 0;
    if (type == RG_JOINT_DISTANCE) {
        if (lower < 0) lower = length;
        if (upper < 0) upper = length;
        if (lower > upper) return 0;
    } else if (enable && (type == RG_JOINT_BALL ? upper < 0 : lower > upper)) {
        return 0;
    }
    *out_lower = lower;
    *out_upper = upper;
    return 1;
}

/* Everything in a def that can be checked without the world. */
static int rg__joint_def_is_valid(const rg_joint_def *def) {
    rg_real lower, upper;
    if (!def || def->cookie != RG__JOINT_COOKIE || !rg__joint_type_is_valid(def->type)) return 0;
    if (!rg__v3_is_sane(def->anchor_a) || !rg__v3_is_sane(def->anchor_b) || !rg__v3_is_sane(def->axis)) return 0;
    if (rg__joint_reads_axis(def->type, def->enable_limit) && rg_v3_length_squared(rg_v3_normalize(def->axis)) == 0)
        return 0;
    if ((def->enable_limit && !rg__joint_has_limits(def->type)) || (def->enable_motor && !rg__joint_has_motor(def->type)))
        return 0;
    return rg__joint_motor_is_valid(def->motor_speed, def->max_motor_force) &&
           rg__joint_limits_resolve(def->type, def->enable_limit, def->lower, def->upper,
                                    rg_v3_length(rg_v3_sub(def->anchor_b, def->anchor_a)), &lower, &upper);
}

/* The def's bodies: RG_ERR_INVALID_ARGUMENT for a null body_a, the same body twice or no
   dynamic body; RG_ERR_STALE_ID for a destroyed one. */
static rg_result rg__joint_bodies_check(const rg_world *w, const rg_joint_def *def) {
    const rg__body *a, *b = NULL;
    if (def->body_a.generation == 0) return RG_ERR_INVALID_ARGUMENT;
    a = rg__world_body(w, def->body_a);
    if (def->body_b.generation != 0 && !(b = rg__world_body(w, def->body_b))) return RG_ERR_STALE_ID;
    if (!a) return RG_ERR_STALE_ID;
    if (a == b) return RG_ERR_INVALID_ARGUMENT;
    if (a->type != RG_BODY_DYNAMIC && (!b || b->type != RG_BODY_DYNAMIC)) return RG_ERR_INVALID_ARGUMENT;
    return RG_OK;
}

/* A world point in a body's frame: origin = com - R local_com (rg_body_position). */
static rg_vec3 rg__joint_to_body(const rg__body *body, rg_vec3 p) {
    return rg_v3_add(rg_quat_rotate_inverse(body->orientation, rg_v3_sub(p, body->com)), body->local_com);
}

/* The joint a checked def describes, built aside. */
static void rg__joint_from_def(const rg_world *w, const rg_joint_def *def, rg__joint *j) {
    const rg__body *a = &w->bodies[def->body_a.index];
    const rg__body *b = def->body_b.generation != 0 ? &w->bodies[def->body_b.index] : NULL;
    rg_vec3 axis = rg_v3_normalize(def->axis);
    rg_vec3 anchor_b = def->type == RG_JOINT_DISTANCE ? def->anchor_b : def->anchor_a;
    rg_quat qb = b ? b->orientation : rg_quat_identity();
    memset(j, 0, sizeof *j);
    j->next_free = -1;
    j->type = def->type;
    j->a = (int)def->body_a.index;
    j->b = b ? (int)def->body_b.index : -1;
    j->link[0].prev = j->link[0].next = j->link[1].prev = j->link[1].next = -1;
    j->local_anchor_a = rg__joint_to_body(a, def->anchor_a);
    j->local_anchor_b = b ? rg__joint_to_body(b, anchor_b) : anchor_b;
    j->local_axis_a = rg_quat_rotate_inverse(a->orientation, axis);
    j->local_axis_b = rg_quat_rotate_inverse(qb, axis);
    j->reference = rg_quat_normalize(rg__quat_mul(rg_quat_conjugate(qb), a->orientation));
    j->length = rg_v3_length(rg_v3_sub(anchor_b, def->anchor_a));
    j->enable_limit = def->type == RG_JOINT_DISTANCE || def->enable_limit != 0;
    (void)rg__joint_limits_resolve(def->type, j->enable_limit, def->lower, def->upper, j->length, &j->lower, &j->upper);
    j->enable_motor = def->enable_motor != 0;
    j->motor_speed = def->motor_speed;
    j->max_motor_force = def->max_motor_force;
    j->collide_connected = def->collide_connected != 0;
    j->user_data = def->user_data;
}

static rg__joint_link *rg__joint_link_at(rg_world *w, int key) { return &w->joints[key >> 1].link[key & 1]; }

/* Links key (2 joint + side) into the body's list, in ascending joint index. */
static void rg__joint_link_in(rg_world *w, int body_index, int key) {
    rg__body *body = &w->bodies[body_index];
    rg__joint_link *link = rg__joint_link_at(w, key);
    int prev = -1, next = body->joint_list;
    while (next >= 0 && (next >> 1) < (key >> 1)) {
        prev = next;
        next = rg__joint_link_at(w, next)->next;
    }
    link->prev = prev;
    link->next = next;
    if (prev >= 0) rg__joint_link_at(w, prev)->next = key;
    else body->joint_list = key;
    if (next >= 0) rg__joint_link_at(w, next)->prev = key;
    ++body->joint_count;
}

static void rg__joint_link_out(rg_world *w, int body_index, int key) {
    rg__body *body = &w->bodies[body_index];
    rg__joint_link *link = rg__joint_link_at(w, key);
    if (link->prev >= 0) rg__joint_link_at(w, link->prev)->next = link->next;
    else body->joint_list = link->next;
    if (link->next >= 0) rg__joint_link_at(w, link->next)->prev = link->prev;
    link->prev = link->next = -1;
    --body->joint_count;
}

/* A slot for a new joint (from the free list or appended), or -1 when out of memory. */
static int rg__joint_allocate(rg_world *w) {
    int index;
    if (w->joint_free_list >= 0) {
        index = w->joint_free_list;
        w->joint_free_list = w->joints[index].next_free;
        return index;
    }
    {
        rg__joint blank;
        memset(&blank, 0, sizeof blank);
        index = (int)stbds_arrlen(w->joints);
        stbds_arrput(w->joints, blank);
        return (int)stbds_arrlen(w->joints) == index + 1 ? index : -1;
    }
}

static rg_joint_id rg__joint_id_of(const rg_world *w, int index) {
    rg_joint_id id;
    id.index = (uint32_t)index;
    id.generation = w->joints[index].generation;
    return id;
}

RIGID_API rg_joint_id rg_joint_create(rg_world *w, const rg_joint_def *def, rg_result *result) {
    rg_joint_id id = {0, 0};
    rg__joint candidate;
    rg_result r;
    uint32_t generation;
    int index;
    if (!w || !rg__joint_def_is_valid(def)) {
        rg__set_result(result, RG_ERR_INVALID_ARGUMENT);
        return id;
    }
    r = rg__joint_bodies_check(w, def);
    if (r != RG_OK) {
        rg__set_result(result, r);
        return id;
    }
    rg__joint_from_def(w, def, &candidate);
    index = rg__joint_allocate(w);
    if (index < 0) {
        rg__set_result(result, RG_ERR_OUT_OF_MEMORY);
        return id;
    }
    RIGID_ASSERT(!(w->joints[index].generation & 1));
    generation = w->joints[index].generation + 1; /* free slots are even, so this is odd */
    w->joints[index] = candidate;
    w->joints[index].generation = generation;
    rg__joint_link_in(w, candidate.a, 2 * index);
    if (candidate.b >= 0) rg__joint_link_in(w, candidate.b, 2 * index + 1);
    ++w->joint_count;
    rg__set_result(result, RG_OK);
    return rg__joint_id_of(w, index);
}

/* Unlinks joint `index` from its bodies' lists and frees its slot (a slot whose generation
   would wrap is retired, so that an old id never aliases a new joint). */
static void rg__joint_release(rg_world *w, int index) {
    rg__joint *j = &w->joints[index];
    rg__joint_link_out(w, j->a, 2 * index);
    if (j->b >= 0) rg__joint_link_out(w, j->b, 2 * index + 1);
    --w->joint_count;
    if (j->generation + 1 == 0) {
        j->generation = 0xfffffffeu;
    } else {
        j->generation += 1;
        j->next_free = w->joint_free_list;
        w->joint_free_list = index;
    }
}

/* The joint an id names, or NULL for a stale id or one never handed out. */
static rg__joint *rg__world_joint(const rg_world *w, rg_joint_id id) {
    rg__joint *j;
    if (!w || id.generation == 0 || id.index >= (uint32_t)stbds_arrlen(w->joints)) return NULL;
    j = &w->joints[id.index];
    return j->generation == id.generation && (id.generation & 1) ? j : NULL;
}

RIGID_API rg_result rg_joint_destroy(rg_world *w, rg_joint_id id) {
    if (!w) return RG_ERR_INVALID_ARGUMENT;
    if (!rg__world_joint(w, id)) return RG_ERR_STALE_ID;
    rg__joint_release(w, (int)id.index);
    return RG_OK;
}

RIGID_API int rg_joint_is_valid(const rg_world *w, rg_joint_id id) { return rg__world_joint(w, id) != NULL; }

/* Are bodies a and b joined by a joint with collide_connected 0? Bodies without joints (most)
   cost two loads; otherwise the shorter list is walked. */
static int rg__joint_blocks_pair(const rg_world *w, int a, int b) {
    int key;
    if (w->bodies[a].joint_count == 0 || w->bodies[b].joint_count == 0) return 0;
    if (w->bodies[b].joint_count < w->bodies[a].joint_count) {
        int swap = a;
        a = b;
        b = swap;
    }
    for (key = w->bodies[a].joint_list; key >= 0; key = w->joints[key >> 1].link[key & 1].next) {
        const rg__joint *j = &w->joints[key >> 1];
        if ((key & 1 ? j->a : j->b) == b && !j->collide_connected) return 1;
    }
    return 0;
}

/* a's turn relative to b's since the joint was made, in b's frame: conj(q_b) q_a conj(reference),
   w >= 0. */
static rg_quat rg__joint_turn_of(const rg__joint *j, rg_quat q_a, rg_quat q_b) {
    rg_quat turn = rg__quat_mul(rg__quat_mul(rg_quat_conjugate(q_b), q_a), rg_quat_conjugate(j->reference));
    return turn.w < 0 ? rg__quat(-turn.x, -turn.y, -turn.z, -turn.w) : turn;
}

/* The twist of a turn (rg__joint_turn_of) about b's axis (swing-twist decomposition), in
   [-pi, pi] as turn.w >= 0: a hinge's angle before unwrapping. */
static rg_real rg__joint_twist(const rg__joint *j, rg_quat turn) {
    return 2 * rg__atan2(rg_v3_dot(rg_v3(turn.x, turn.y, turn.z), j->local_axis_b), turn.w);
}

/* The joint with its bodies' centres of mass at com_a, com_b and their orientations (unit)
   q_a, q_b (b's ignored for the world): the solver's predicted poses, or the current ones. */
static void rg__joint_frame_at(const rg_world *w, const rg__joint *j, rg_vec3 com_a, rg_quat q_a, rg_vec3 com_b,
                               rg_quat q_b, rg__joint_frame *f) {
    f->arm_a = rg__quat_rotate(q_a, rg_v3_sub(j->local_anchor_a, w->bodies[j->a].local_com));
    f->anchor_a = rg_v3_add(com_a, f->arm_a);
    f->axis_a = rg__quat_rotate(q_a, j->local_axis_a);
    if (j->b >= 0) {
        f->arm_b = rg__quat_rotate(q_b, rg_v3_sub(j->local_anchor_b, w->bodies[j->b].local_com));
        f->anchor_b = rg_v3_add(com_b, f->arm_b);
    } else {
        q_b = rg_quat_identity();
        f->arm_b = rg_v3(0, 0, 0);
        f->anchor_b = j->local_anchor_b;
    }
    f->axis_b = rg__quat_rotate(q_b, j->local_axis_b);
    f->turn = rg__joint_turn_of(j, q_a, q_b);
}

/* The joint at its bodies' current poses. */
static void rg__joint_frame_of(const rg_world *w, const rg__joint *j, rg__joint_frame *f) {
    const rg__body *a = &w->bodies[j->a], *b = j->b >= 0 ? &w->bodies[j->b] : a;
    rg__joint_frame_at(w, j, a->com, a->orientation, b->com, b->orientation, f);
}

/* The angle that differs from `principal` by whole turns and lies within half a turn of
   `previous`: principal plus previous - principal rounded to whole turns (fmod is exact). */
static rg_real rg__joint_unwrap(rg_real previous, rg_real principal) {
    rg_real turn = 2 * RG__PI, offset = previous - principal, part = rg__fmod(offset, turn), whole = offset - part;
    if (part > RG__PI) whole += turn;
    else if (part < -RG__PI) whole -= turn;
    return principal + whole;
}

/* rg_joint_position: the hinge's angle unwrapped from the last step's, the slider's
   translation along b's axis, the distance joint's length; 0 for the others. */
static rg_real rg__joint_position_of(const rg_world *w, const rg__joint *j) {
    rg__joint_frame f;
    rg__joint_frame_of(w, j, &f);
    switch (j->type) {
    case RG_JOINT_HINGE: return rg__joint_unwrap(j->angle, rg__joint_twist(j, f.turn));
    case RG_JOINT_SLIDER: return rg_v3_dot(rg_v3_sub(f.anchor_a, f.anchor_b), f.axis_b);
    case RG_JOINT_DISTANCE: return rg_v3_length(rg_v3_sub(f.anchor_a, f.anchor_b));
    default: return 0;
    }
}

/* The end of rg_world_step: each hinge's angle at the final poses, within half a turn of the
   last step's, so that it counts whole turns. */
static void rg__joint_step_end(rg_world *w) {
    int i, n = (int)stbds_arrlen(w->joints);
    for (i = 0; i < n; ++i) {
        rg__joint *j = &w->joints[i];
        if ((j->generation & 1) && j->type == RG_JOINT_HINGE) j->angle = rg__joint_position_of(w, j);
    }
}

/* ---- solving: joints as the contacts' predicted penetration (Bender §3.2, eq. (8)) ----
   The contact sweeps visit the step's joints before the contacts. A visit predicts where the
   two anchors will be at the end of the step with the bodies' current velocities (the arms
   turned exactly by the step's rotation, as rg__integrate_position turns the bodies) and applies
   the impulse that removes that separation through the anchors' mass matrix K (Bender's eq. (1)
   for the anchor point): Ermolin & Kazakov's point-point constraint made exact in positions
   (their eqs. (9)-(10)), its three rows solved together as one 3x3 block, which one visit meets
   up to the arms' turn (solved one by one, rows along x, y, z couple through the arms and take
   several visits). A distance joint has one row along the anchors' line, its impulse
   accumulated and clamped like a contact's (eqs. (2)-(3)): a rope only pulls at its upper
   length and only pushes at its lower one; a rod (lower = upper) does both. A fixed joint adds
   its bodies' relative turn, predicted the same way; a hinge its axes' turn across the axis, its
   limits on the predicted angle and a motor. A slider has the fixed joint's turn, its anchors'
   separation across its axis (a 2x2 block, at b's point under a's anchor) and, along the axis,
   limits on the predicted translation and a motor. A ball joint's cone is one angular row about
   the perpendicular of its two axes, clamped so that it only pulls them together, solved with
   the point rows as one block. */

typedef struct rg__joint_row {
    int joint, a, b;              /* b = -1: the world */
    rg_vec3 arm_a, arm_b;         /* from the centres of mass to the anchors at the step's start */
    rg_vec3 com_a, com_b;         /* the centres of mass at the step's start (b's: the world anchor) */
    rg_mat3 mass;                 /* ball: K^-1 */
    rg_vec3 impulse;              /* on a in this step's sweeps */
    /* what the visits meet: in the sweeps the state at the step's start, drift included, so that
       the velocities carry none of its correction; in the position pass (rg__joint_correct) the
       joint's own definition (zero; the limits) */
    rg_vec3 keep;                 /* the anchors' separation, a's less b's */
    rg_vec3 keep_turn;            /* fixed: the relative turn's rotation vector; hinge: the axes' cross product */
    rg_real at_upper, at_lower;   /* distance: the lengths; hinge: the angles; widened to the start's */
    rg_real upper, lower;         /* distance: the accumulated impulses along the line at the upper and
                                     the lower length (a rod's only in upper); hinge, slider: at the
                                     limits; ball: lower, the cone's */
    rg_quat rotation_a, rotation_b; /* the orientations at the step's start (b's identity for the world) */
    rg_vec3 angular;              /* the angular impulse on a in this step's sweeps, all rows */
    rg_vec3 across;               /* hinge: its part across the axis (warm-started); ball: the cone's */
    rg_real motor;                /* hinge, slider: the motor's accumulated impulse, within max_motor_force h */
} rg__joint_row;

/* The anchors' separation at the step's start, a's less b's. */
static rg_vec3 rg__joint_start_separation(const rg__joint_row *row) {
    return rg_v3_sub(rg_v3_add(row->com_a, row->arm_a), rg_v3_add(row->com_b, row->arm_b));
}

/* Where a body's arm ends at the end of the step, with its velocities and offsets now, the arm
   turned exactly as rg__integrate_position turns the body. (To first order, arm + theta x arm,
   the sweeps' constraint would be the anchors' relative velocity, linear, but a pendulum on a
   ball joint released at 1 rad then lost 22% of its energy in 5 s; exactly: 0.1%.) */
static rg_vec3 rg__joint_predict(const rg__solver_body *body, rg_vec3 com, rg_vec3 arm, rg_real h) {
    rg_vec3 move = rg_v3_madd(body->dx, body->v, h), theta = rg_v3_madd(body->dr, body->w, h);
    return rg_v3_add(rg_v3_add(com, move), rg_v3_add(arm, rg__integrate_rotation_change(theta, arm)));
}

/* A row's anchors at the end of the step (rg__joint_predict): a's in *pa, b's in *pb (the world
   anchor for the world). */
static void rg__joint_predict_anchors(const rg__solver *s, const rg__joint_row *row, rg_real h, rg_vec3 *pa, rg_vec3 *pb) {
    *pa = rg__joint_predict(&s->bodies[row->a], row->com_a, row->arm_a, h);
    *pb = row->b >= 0 ? rg__joint_predict(&s->bodies[row->b], row->com_b, row->arm_b, h) : row->com_b;
}

/* A row's bodies' orientations at the end of the step, each turned by its dr + w h, and a's
   turn relative to b's then (rg__joint_turn_of). */
static rg_quat rg__joint_predict_turn(const rg__solver *s, const rg__joint_row *row, const rg__joint *j, rg_real h,
                                      rg_quat *qa, rg_quat *qb) {
    const rg__solver_body *A = &s->bodies[row->a], *B = row->b >= 0 ? &s->bodies[row->b] : NULL;
    *qa = rg_quat_mul(rg_quat_from_rotation_vector(rg_v3_madd(A->dr, A->w, h)), row->rotation_a);
    *qb = B ? rg_quat_mul(rg_quat_from_rotation_vector(rg_v3_madd(B->dr, B->w, h)), row->rotation_b) : row->rotation_b;
    return rg__joint_turn_of(j, *qa, *qb);
}

/* A relative turn (rg__joint_turn_of) as a rotation vector in the world, to first order: twice
   its vector part, turned by b's orientation q_b. */
static rg_vec3 rg__joint_turn_vector(rg_quat turn, rg_quat q_b) {
    return rg_quat_rotate(q_b, rg_v3(2 * turn.x, 2 * turn.y, 2 * turn.z));
}

/* One body's part of an anchor point's K (Bender eq. (1)): 1/m 1 - [r] I^-1 [r]; none for NULL. */
static rg_mat3 rg__joint_body_point_mass(const rg__solver_body *body, rg_vec3 r) {
    rg_mat3 skew = rg_mat3_skew(r);
    if (!body) return rg_mat3_scale(rg_mat3_identity(), 0);
    return rg_mat3_add(rg_mat3_scale(rg_mat3_identity(), body->inv_mass),
                       rg_mat3_mul(rg_mat3_transpose(skew), rg_mat3_mul(body->inv_inertia, skew)));
}

/* K of an anchor point: a's part and b's (either NULL: held, infinite mass). */
static rg_mat3 rg__joint_point_mass(const rg__solver_body *A, const rg__solver_body *B, rg_vec3 ra, rg_vec3 rb) {
    return rg_mat3_add(rg__joint_body_point_mass(A, ra), rg__joint_body_point_mass(B, rb));
}

/* n^T K n along a line through the anchors: one body's part (none for NULL). */
static rg_real rg__joint_body_line_mass(const rg__solver_body *body, rg_vec3 r, rg_vec3 n) {
    rg_vec3 t = rg_v3_cross(r, n);
    return body ? body->inv_mass + rg_v3_dot(t, rg_mat3_mul_v3(body->inv_inertia, t)) : 0;
}

/* An impulse P on a at its arm and -P on b at its arm (NULL: the world, or held). */
static void rg__joint_push(rg__solver_body *A, rg__solver_body *B, rg_vec3 ra, rg_vec3 rb, rg_vec3 P) {
    if (A && !A->frozen) {
        A->v = rg_v3_madd(A->v, P, A->inv_mass);
        A->w = rg_v3_add(A->w, rg_mat3_mul_v3(A->inv_inertia, rg_v3_cross(ra, P)));
        if (A->locked) rg__impulse_keep_locked(A);
    }
    if (B && !B->frozen) {
        B->v = rg_v3_madd(B->v, P, -B->inv_mass);
        B->w = rg_v3_sub(B->w, rg_mat3_mul_v3(B->inv_inertia, rg_v3_cross(rb, P)));
        if (B->locked) rg__impulse_keep_locked(B);
    }
}

/* A distance joint's relative velocity along its line at the step's start taken out where its
   length is held (a rod; a rope at its upper or lower length): the velocity half of the
   constraint, before the sweeps meet its position (RATTLE's projection of the velocity onto the
   constraint's tangent). */
static void rg__joint_project_distance(rg_world *w, rg__joint_row *row) {
    rg__solver *s = &w->solver;
    const rg__joint *j = &w->joints[row->joint];
    rg__solver_body *A = &s->bodies[row->a], *B = row->b >= 0 ? &s->bodies[row->b] : NULL;
    rg_vec3 d = rg__joint_start_separation(row), n, u;
    rg_real length = rg_v3_length(d), k, un, slack = RG__SLOP_FRACTION * w->def.contact_tolerance;
    if (!(length > 0)) return;
    n = rg_v3_scale(d, 1 / length);
    u = rg_v3_add(A->v, rg_v3_cross(A->w, row->arm_a));
    if (B) u = rg_v3_sub(u, rg_v3_add(B->v, rg_v3_cross(B->w, row->arm_b)));
    un = rg_v3_dot(u, n);
    if (j->lower != j->upper && !(length >= j->upper - slack && un > 0) && !(length <= j->lower + slack && un < 0)) return;
    k = rg__joint_body_line_mass(A, row->arm_a, n) + rg__joint_body_line_mass(B, row->arm_b, n);
    if (!(k > 0)) return;
    rg__joint_push(A, B, row->arm_a, row->arm_b, rg_v3_scale(n, -un / k));
    row->impulse = rg_v3_madd(row->impulse, n, -un / k);
}

/* An accumulated impulse `total` moved by `wanted` and kept within [low, high] (eqs. (2)-(3));
   returns the change. */
static rg_real rg__joint_clamped_change(rg_real *total, rg_real wanted, rg_real low, rg_real high) {
    rg_real next = rg__min_real(rg__max_real(*total + wanted, low), high), change = next - *total;
    *total = next;
    return change;
}

/* A distance joint's accumulated impulse `total` along n changed (rg__joint_clamped_change: low
   0 pushes only, high 0 pulls only) and pushed on A and B (NULL: held); returns the change. */
static rg_real rg__joint_line_impulse(rg__joint_row *row, rg__solver_body *A, rg__solver_body *B, rg_vec3 n, rg_real *total,
                                      rg_real wanted, rg_real low, rg_real high) {
    rg_real change = rg__joint_clamped_change(total, wanted, low, high);
    rg__joint_push(A, B, row->arm_a, row->arm_b, rg_v3_scale(n, change));
    row->impulse = rg_v3_madd(row->impulse, n, change);
    return change;
}

/* A slider's arm on b: from b's centre of mass to a's anchor at the step's start, the point of b
   under a's anchor. The rate of a's translation relative to b's line is a's anchor's velocity
   less that of b's point there (b's axis turns with b), and the slider's linear impulses act on
   b there, so that they move the pair's angular momentum not at all. */
static rg_vec3 rg__joint_slider_arm_b(const rg__joint_row *row) {
    return rg_v3_sub(rg_v3_add(row->com_a, row->arm_a), row->com_b);
}

/* A slider's accumulated impulse `total` along its axis changed (rg__joint_clamped_change) and
   pushed on A at a's anchor and on B at its point there (NULL: held); returns the change. */
static rg_real rg__joint_slide_impulse(rg__joint_row *row, rg__solver_body *A, rg__solver_body *B, rg_vec3 axis, rg_real *total,
                                       rg_real wanted, rg_real low, rg_real high) {
    rg_real change = rg__joint_clamped_change(total, wanted, low, high);
    rg__joint_push(A, B, row->arm_a, rg__joint_slider_arm_b(row), rg_v3_scale(axis, change));
    row->impulse = rg_v3_madd(row->impulse, axis, change);
    return change;
}

/* An angular impulse L on a and -L on b (NULL: the world, or held). */
static void rg__joint_push_turn(rg__solver_body *A, rg__solver_body *B, rg_vec3 L) {
    if (A && !A->frozen) A->w = rg_v3_add(A->w, rg_mat3_mul_v3(A->inv_inertia, L));
    if (B && !B->frozen) B->w = rg_v3_sub(B->w, rg_mat3_mul_v3(B->inv_inertia, L));
}

/* The sweeps' impulses of the last step applied again first (warm starting, as the contacts'),
   scaled by the steps' ratio: a chain's load, which each step's few sweeps spread only partly,
   builds up over the steps (a 20-link chain hanging at rest: the top joint's reaction 2.0 N of
   its 21.4 N without). A distance joint's along its line now, each within its sign. */
static void rg__joint_warm_start(rg_world *w, rg__joint_row *row) {
    rg__solver *s = &w->solver;
    const rg__joint *j = &w->joints[row->joint];
    rg__solver_body *A = &s->bodies[row->a], *B = row->b >= 0 ? &s->bodies[row->b] : NULL;
    rg_real ratio = rg__warm_ratio(w);
    rg_vec3 linear = rg_quat_rotate(row->rotation_a, j->linear_impulse), angular = rg_quat_rotate(row->rotation_a, j->angular_impulse);
    if (j->type == RG_JOINT_SLIDER) {
        /* across the axis at b's point under a's anchor; along it each of the limits and the
           motor within its sign */
        rg_vec3 axis = rg_quat_rotate(row->rotation_b, j->local_axis_b), P = rg_v3_scale(linear, ratio);
        P = rg_v3_madd(P, axis, -rg_v3_dot(axis, P));
        rg__joint_push(A, B, row->arm_a, rg__joint_slider_arm_b(row), P);
        row->impulse = P;
        row->angular = rg_v3_scale(angular, ratio);
        rg__joint_push_turn(A, B, row->angular);
        if (j->enable_limit) {
            rg__joint_slide_impulse(row, A, B, axis, &row->upper, ratio * j->axial_impulse, -RG__REAL_MAX, 0);
            rg__joint_slide_impulse(row, A, B, axis, &row->lower, ratio * j->limit_impulse, 0, RG__REAL_MAX);
        }
        if (j->enable_motor)
            rg__joint_slide_impulse(row, A, B, axis, &row->motor, ratio * j->motor_impulse, -RG__REAL_MAX, RG__REAL_MAX);
    } else if (j->type != RG_JOINT_DISTANCE) {
        rg_vec3 P = rg_v3_scale(linear, ratio);
        rg__joint_push(A, B, row->arm_a, row->arm_b, P);
        row->impulse = P;
        if (j->type == RG_JOINT_FIXED || j->type == RG_JOINT_HINGE || (j->type == RG_JOINT_BALL && j->enable_limit)) {
            row->angular = row->across = rg_v3_scale(angular, ratio);
            rg__joint_push_turn(A, B, row->angular);
        }
    } else {
        rg_vec3 n = rg__joint_start_separation(row);
        rg_real length = rg_v3_length(n);
        if (!(length > 0)) return;
        n = rg_v3_scale(n, 1 / length);
        rg__joint_line_impulse(row, A, B, n, &row->upper, ratio * j->axial_impulse, -RG__REAL_MAX,
                               j->lower == j->upper ? RG__REAL_MAX : 0);
        rg__joint_line_impulse(row, A, B, n, &row->lower, ratio * j->limit_impulse, 0, RG__REAL_MAX);
    }
}

/* What the sweeps keep of a row (rg__joint_row's keep): its state at the step's start, the
   solver's offsets of the step (time of impact) included. The sweeps then meet the joint's
   velocity constraint only (the anchors move together), and the drift is removed by moving the
   bodies in the position pass (rg__joint_correct), as the contacts' first-order pass does for
   penetration: a correction made by velocity stays in the motion, and in a closed loop, whose
   sweeps converge slowly, warm starting carried it on until it grew (ten planks on ball joints
   held at both ends: gaps of metres within 2 s). Limits are widened to the start's value, so that
   the sweeps let nothing go further out. */
static void rg__joint_keep_start(rg_world *w, rg__joint_row *row) {
    rg__solver *s = &w->solver;
    const rg__joint *j = &w->joints[row->joint];
    rg_vec3 pa, pb;
    rg_quat qa, qb, turn = rg__joint_predict_turn(s, row, j, 0, &qa, &qb);
    rg_real at = 0;
    rg__joint_predict_anchors(s, row, 0, &pa, &pb);
    row->keep = rg_v3_sub(pa, pb);
    row->keep_turn = rg_v3(0, 0, 0);
    if (j->type == RG_JOINT_FIXED) row->keep_turn = rg__joint_turn_vector(turn, qb);
    if (j->type == RG_JOINT_HINGE) {
        row->keep_turn = rg_v3_cross(rg_quat_rotate(qa, j->local_axis_a), rg_quat_rotate(qb, j->local_axis_b));
        at = rg__joint_unwrap(j->angle, rg__joint_twist(j, turn));
    }
    if (j->type == RG_JOINT_SLIDER) { /* the separation across the axis is kept, not the translation along it */
        rg_vec3 axis = rg_quat_rotate(qb, j->local_axis_b);
        row->keep_turn = rg__joint_turn_vector(turn, qb);
        at = rg_v3_dot(axis, row->keep);
        row->keep = rg_v3_madd(row->keep, axis, -at);
    }
    if (j->type == RG_JOINT_BALL)
        at = rg__atan2(rg_v3_length(rg_v3_cross(rg_quat_rotate(qa, j->local_axis_a), rg_quat_rotate(qb, j->local_axis_b))),
                       rg_v3_dot(rg_quat_rotate(qa, j->local_axis_a), rg_quat_rotate(qb, j->local_axis_b)));
    if (j->type == RG_JOINT_DISTANCE) at = rg_v3_length(row->keep);
    row->at_upper = rg__max_real(j->upper, at);
    row->at_lower = rg__min_real(j->lower, at);
    if (j->type == RG_JOINT_DISTANCE && j->lower == j->upper) row->at_upper = row->at_lower = at;
}

/* The groups of moving bodies that joints join (union-find, as rg__island_build; held bodies,
   frozen for the step, join nothing): in s->joint_group each body's root (a body in no row is
   its own). The energy limits of the joints' warm start and shock pass are per group. */
static void rg__joint_groups(rg__solver *s) {
    int i, n = (int)stbds_arrlen(s->joint_rows), bodies = (int)stbds_arrlen(s->bodies);
    stbds_arrsetlen(s->joint_group, bodies);
    for (i = 0; i < bodies; ++i) s->joint_group[i] = i;
    for (i = 0; i < n; ++i) {
        const rg__joint_row *row = &s->joint_rows[i];
        if (row->b >= 0 && !s->bodies[row->a].frozen && !s->bodies[row->b].frozen) rg__island_join(s->joint_group, row->a, row->b);
    }
    for (i = 0; i < bodies; ++i) s->joint_group[i] = rg__island_root(s->joint_group, i);
}

/* Each group's B, C and slack (rg__island_add_energy_terms) of the velocity change since
   rg__shock_keep_start, in s->joint_energy by group root. */
static void rg__joint_energy_terms(rg_world *w, rg_real slack_speed) {
    rg__solver *s = &w->solver;
    int i, bodies = (int)stbds_arrlen(s->bodies);
    stbds_arrsetlen(s->joint_energy, 3 * bodies);
    for (i = 0; i < 3 * bodies; ++i) s->joint_energy[i] = 0;
    for (i = 0; i < bodies; ++i)
        if (s->bodies[i].dynamic && !s->bodies[i].frozen)
            rg__island_add_energy_terms(w, i, s->shock_start_v[i], s->shock_start_w[i], slack_speed,
                                        &s->joint_energy[3 * s->joint_group[i]]);
}

/* Each moving body keeps its group's scale (s->joint_energy[3 root]) of its change since
   rg__shock_keep_start. */
static void rg__joint_keep_change(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, bodies = (int)stbds_arrlen(s->bodies);
    for (i = 0; i < bodies; ++i)
        if (!s->bodies[i].frozen)
            rg__island_body_keep_change(&s->bodies[i], s->shock_start_v[i], s->shock_start_w[i],
                                        s->joint_energy[3 * s->joint_group[i]]);
}

/* A row's group: that of its moving body (a row has one). */
static int rg__joint_group_of(const rg__solver *s, const rg__joint_row *row) {
    return s->joint_group[!s->bodies[row->a].frozen || row->b < 0 ? row->a : row->b];
}

/* Each row's impulses scaled by its group's scale (s->joint_energy[3 root]). */
static void rg__joint_scale_rows(rg__solver *s) {
    int i, n = (int)stbds_arrlen(s->joint_rows);
    for (i = 0; i < n; ++i) {
        rg__joint_row *row = &s->joint_rows[i];
        rg_real scale = s->joint_energy[3 * rg__joint_group_of(s, row)];
        if (scale == 1) continue;
        row->impulse = rg_v3_scale(row->impulse, scale);
        row->angular = rg_v3_scale(row->angular, scale);
        row->across = rg_v3_scale(row->across, scale);
        row->upper *= scale;
        row->lower *= scale;
        row->motor *= scale;
    }
}

/* The motors' power p . t (the motor impulses times their target speeds) taken off each group's
   B in s->joint_energy: the energy the motors may add. */
static void rg__joint_motor_power(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, n = (int)stbds_arrlen(s->joint_rows);
    for (i = 0; i < n; ++i) {
        const rg__joint_row *row = &s->joint_rows[i];
        const rg__joint *j = &w->joints[row->joint];
        if (j->enable_motor) s->joint_energy[3 * rg__joint_group_of(s, row)] -= row->motor * j->motor_speed;
    }
}

/* The joints' warm start limited as the contacts' (rg__warm_limit): a sweep of the joints is
   projected Gauss-Seidel on f(p) = KE(v(p)) - p . t, t the rows' target velocities (none but
   the motors': the sweeps keep the anchors' start separation, rg__joint_keep_start), and last
   step's impulses are only a first iterate. Re-applied where the bodies no longer move as they
   did (a ragdoll landing on its side, its forearm pressed between the ground and its torso: the
   elbow's carried impulse spun the forearm at 200 rad/s, then 400 and 740, and the ragdoll came
   apart), they would raise f above a cold start's; so each group keeps its warm start only as
   far as it lowers f: f(s p) - f(0) = s (B - p . t) + s^2 C, with B and C the kinetic energy's
   terms (rg__island_add_energy_terms), whole when that is negative at s = 1, else at its least,
   s = -(B - p . t) / (2 C), or not at all. The rows of closed loops are warm started whole,
   after: their impulses hold the loop's inner forces (a bridge's tension), which cancel on each
   body only in last step's geometry, so that the limit took their mismatch for energy and cut
   the tension the loop's slowly converging sweeps build up (a bridge of 20 planks: gaps of
   22 mm at rest for 0.7 mm). */
static void rg__joint_warm_limit(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, bodies = (int)stbds_arrlen(s->bodies);
    rg__joint_energy_terms(w, 0);
    rg__joint_motor_power(w);
    for (i = 0; i < bodies; ++i) { /* from here on sums[0] is the group's scale */
        rg_real *sums = &s->joint_energy[3 * i];
        sums[0] = rg__warm_scale(sums[0], 2 * sums[1]);
    }
    rg__joint_keep_change(w);
    rg__joint_scale_rows(s);
}

/* After the sweeps: each group keeps only as much of the stage's velocity change (warm start and
   sweeps, from rg__shock_keep_start in rg__joint_solve_begin) as adds no kinetic energy beyond
   the motors' work, plus slack (rg__shock_energy_scale), and its rows' impulses in the same part.
   Joints without motors do no work: the exact solve projects the velocities onto them in the
   mass metric, which never adds kinetic energy; the sweeps' does where loop rows' warm start,
   carried whole, no longer fits the bodies' motion (joint-grid, the net whipping at its free
   edge: the warm start added 2.3 kJ, then 5.9, 18.7, 142 kJ in four steps, the sweeps took off
   a tenth of it, and the spheres spun up to 10^4 rad/s). */
static void rg__joint_limit_sweeps(rg_world *w, rg_real slack_speed) {
    rg__solver *s = &w->solver;
    int i, bodies = (int)stbds_arrlen(s->bodies), limited = 0;
    rg__joint_energy_terms(w, slack_speed);
    rg__joint_motor_power(w);
    for (i = 0; i < bodies; ++i) {
        rg_real *sums = &s->joint_energy[3 * i];
        sums[0] = rg__shock_energy_scale(sums[0], sums[1], sums[2]);
        if (sums[0] < 1) limited = 1;
    }
    if (!limited) return;
    rg__joint_keep_change(w);
    rg__joint_scale_rows(s);
}

/* The step's rows: each valid joint with a body that moves, posed at the bodies' poses now (arms,
   centres of mass, orientations, the point rows' K^-1); returns how many. */
static int rg__joint_rows_build(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, n = (int)stbds_arrlen(w->joints);
    stbds_arrsetlen(s->joint_rows, 0);
    for (i = 0; i < n; ++i) {
        rg__joint *j = &w->joints[i];
        const rg__solver_body *A, *B;
        rg__joint_frame f;
        rg__joint_row row;
        if (!(j->generation & 1)) continue;
        j->reaction_force = j->reaction_torque = rg_v3(0, 0, 0);
        A = &s->bodies[j->a];
        B = j->b >= 0 ? &s->bodies[j->b] : NULL;
        if (A->frozen && (!B || B->frozen)) continue;
        rg__joint_frame_of(w, j, &f);
        memset(&row, 0, sizeof row);
        row.joint = i;
        row.a = j->a;
        row.b = j->b;
        row.arm_a = f.arm_a;
        row.arm_b = f.arm_b;
        row.com_a = rg_v3_sub(f.anchor_a, f.arm_a);
        row.com_b = rg_v3_sub(f.anchor_b, f.arm_b);
        row.rotation_a = w->bodies[j->a].orientation;
        row.rotation_b = j->b >= 0 ? w->bodies[j->b].orientation : rg_quat_identity();
        if (j->type != RG_JOINT_DISTANCE) {
            row.mass = rg_mat3_inverse(rg__joint_point_mass(A, B, f.arm_a, f.arm_b));
            if (!rg__mat3_is_finite(row.mass)) continue;
        }
        stbds_arrput(s->joint_rows, row);
    }
    return (int)stbds_arrlen(s->joint_rows);
}

/* The contact stage's start for the joints: the rows, the joint graph's levels and groups, what
   the sweeps keep, the warm start (limited), the distance joints' projection; returns how many
   rows. */
static int rg__joint_solve_begin(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, n = rg__joint_rows_build(w);
    if (n == 0) return 0; /* no walk over the bodies without joints */
    s->joint_shock_count = rg__joint_levels(w);
    rg__joint_groups(s);
    rg__shock_keep_start(s); /* what rg__joint_warm_limit and rg__joint_limit_sweeps measure from */
    for (i = 0; i < n; ++i) {
        rg__joint_row *row = &s->joint_rows[i];
        rg__joint_keep_start(w, row);
        /* the shock pass's rows start cold: it meets them, and carried over, the sweeps' share
           of their impulses, which nothing held to the load, drifted from step to step until the
           chain shook apart (20 links hanging at rest, a 0.1 kg ball glancing off the top link:
           the links' speeds grew 1.7 times a step after it left, gaps of 1.7 m; cold: 0.011 mm,
           and 0.033 mm under a 10 kg ball). Their reactions are the shock pass's loads
           (rg__joint_shock_loads). */
        if (w->def.warm_starting && !s->joint_shocked[i] && !s->joint_loop[i]) rg__joint_warm_start(w, row);
    }
    if (w->def.warm_starting) {
        rg__joint_warm_limit(w);
        for (i = 0; i < n; ++i)
            if (s->joint_loop[i]) rg__joint_warm_start(w, &s->joint_rows[i]);
    }
    for (i = 0; i < n; ++i)
        if (w->joints[s->joint_rows[i].joint].type == RG_JOINT_DISTANCE) rg__joint_project_distance(w, &s->joint_rows[i]);
    return n;
}

/* A visit's `hold`: 1 or 2 keeps a or b (shock propagation's body nearer the root) at infinite
   mass; RG__JOINT_POSITIONS marks the position pass (no motor). */
#define RG__JOINT_HOLDS 3
#define RG__JOINT_POSITIONS 4

/* A ball joint's visit: the predicted separation of its anchors removed; returns it, a length.
   `turned` 1: through the arms as the step will have turned them with the velocities now, and K
   of those: the Jacobian of the predicted anchors to first order, and symmetric, so that the
   sweeps converge where links turn fast (a chain of 20 links spun at 5 rad/s as one rod: gaps
   of 99 cm through the start's arms, whose K is off by the step's turn; 0.005 mm through these;
   5 links at 20 rad/s: 194 mm and 0.001 mm). 0: through the start's arms, as the rows solved
   with the point rows as one block need (the cone: rg__joint_visit_cone; turned there too, a
   bob stopped by its cone, whose spin jumps within a visit, blew up), and a cold row that
   carries no other in the shock pass (a pendulum's: turned, its first visit, the whole impulse
   at once, spun the bob, and the swing lost 12% of its energy in 37 steps). */
static rg_real rg__joint_visit_ball(rg__solver *s, rg__joint_row *row, rg_real h, int hold, int turned) {
    rg__solver_body *A = &s->bodies[row->a], *B = row->b >= 0 ? &s->bodies[row->b] : NULL;
    rg_vec3 pa, pb, e, P, arm_a = row->arm_a, arm_b = row->arm_b;
    rg_mat3 mass = row->mass;
    rg__joint_predict_anchors(s, row, h, &pa, &pb);
    e = rg_v3_sub(rg_v3_sub(pa, pb), row->keep);
    if (turned) {
        arm_a = rg_v3_sub(pa, rg_v3_add(row->com_a, rg_v3_madd(A->dx, A->v, h)));
        if (B) arm_b = rg_v3_sub(pb, rg_v3_add(row->com_b, rg_v3_madd(B->dx, B->v, h)));
    }
    if (hold & 1) A = NULL;
    if (hold & 2) B = NULL;
    if (turned || (hold & RG__JOINT_HOLDS)) mass = rg_mat3_inverse(rg__joint_point_mass(A, B, arm_a, arm_b));
    if (!rg__mat3_is_finite(mass)) return 0;
    P = rg_mat3_mul_v3(mass, rg_v3_scale(e, -1 / h));
    rg__joint_push(A, B, arm_a, arm_b, P);
    row->impulse = rg_v3_add(row->impulse, P);
    return rg_v3_length(e);
}

/* A distance joint's visit: the predicted length kept within [lower, upper]; returns by how
   much it lay outside, a length. `hold` as for the ball joint's. */
static rg_real rg__joint_visit_distance(rg_world *w, rg__joint_row *row, rg_real h, int hold) {
    rg__solver *s = &w->solver;
    const rg__joint *j = &w->joints[row->joint];
    rg__solver_body *A = &s->bodies[row->a], *B = row->b >= 0 ? &s->bodies[row->b] : NULL;
    rg_vec3 pa, pb, d, n;
    rg_real length, k;
    rg__joint_predict_anchors(s, row, h, &pa, &pb);
    d = rg_v3_sub(pa, pb);
    length = rg_v3_length(d);
    /* the impulse along the line at the step's start, whose velocity rg__joint_project_distance
       took out: SHAKE's position step, which with that projection keeps a swing's energy (a
       pendulum on a 1 m rod released at 1 rad: period within 2e-4 of the analytic one; along the
       predicted line it lost a third of its amplitude in 5 s, along the line halfway 0.8% of its
       period) */
    n = rg__joint_start_separation(row);
    if (!(length > 0) || !(rg_v3_length_squared(n) > 0)) return 0;
    n = rg_v3_normalize(n);
    if (hold & 1) A = NULL;
    if (hold & 2) B = NULL;
    k = rg__joint_body_line_mass(A, row->arm_a, n) + rg__joint_body_line_mass(B, row->arm_b, n);
    if (!(k > 0)) return 0;
    if (j->lower == j->upper) {
        rg__joint_line_impulse(row, A, B, n, &row->upper, -(length - row->at_upper) / (h * k), -RG__REAL_MAX, RG__REAL_MAX);
        return rg__fabs(length - row->at_upper);
    }
    rg__joint_line_impulse(row, A, B, n, &row->upper, -(length - row->at_upper) / (h * k), -RG__REAL_MAX, 0);
    rg__joint_line_impulse(row, A, B, n, &row->lower, -(length - row->at_lower) / (h * k), 0, RG__REAL_MAX);
    return rg__max_real(rg__max_real(length - row->at_upper, row->at_lower - length), 0);
}

/* K of the bodies' turns: I_a^-1 + I_b^-1 of those that move (NULL: held). */
static rg_mat3 rg__joint_turn_mass(const rg__solver_body *A, const rg__solver_body *B) {
    rg_mat3 k = rg_mat3_scale(rg_mat3_identity(), 0);
    if (A && !A->frozen) k = rg_mat3_add(k, A->inv_inertia);
    if (B && !B->frozen) k = rg_mat3_add(k, B->inv_inertia);
    return k;
}

/* The angular half of a fixed joint's visit: a's orientation relative to b's predicted at the
   end of the step against the reference, and the angular impulse L that removes the turn
   between them through K = I_a^-1 + I_b^-1; returns the angle (rad). `hold` as for the ball
   joint's. */
static rg_real rg__joint_visit_weld(rg__solver *s, rg__joint_row *row, const rg__joint *j, rg_real h, int hold) {
    rg__solver_body *A = &s->bodies[row->a], *B = row->b >= 0 ? &s->bodies[row->b] : NULL;
    rg_quat qa, qb, turn = rg__joint_predict_turn(s, row, j, h, &qa, &qb);
    rg_vec3 error, L;
    rg_mat3 k;
    error = rg_v3_sub(rg__joint_turn_vector(turn, qb), row->keep_turn);
    if (hold & 1) A = NULL;
    if (hold & 2) B = NULL;
    k = rg_mat3_inverse(rg__joint_turn_mass(A, B));
    if (!rg__mat3_is_finite(k)) return 0;
    L = rg_mat3_mul_v3(k, rg_v3_scale(error, -1 / h));
    rg__joint_push_turn(A, B, L);
    row->angular = rg_v3_add(row->angular, L);
    return rg_v3_length(error);
}

/* K's 2x2 block across an axis (t1, t2 perpendicular to it and to each other) solved for
   (e1, e2): in *out the vector t1 x1 + t2 x2 with K_2x2 (x1, x2) = (e1, e2), shared by the
   hinge's angular rows and the slider's linear ones; 0 when the block is singular. */
static int rg__joint_across_solve(rg_mat3 k, rg_vec3 t1, rg_vec3 t2, rg_real e1, rg_real e2, rg_vec3 *out) {
    rg_real k11 = rg_v3_dot(t1, rg_mat3_mul_v3(k, t1)), k12 = rg_v3_dot(t1, rg_mat3_mul_v3(k, t2));
    rg_real k22 = rg_v3_dot(t2, rg_mat3_mul_v3(k, t2)), det = k11 * k22 - k12 * k12;
    if (!(det > 0)) return 0;
    *out = rg_v3_add(rg_v3_scale(t1, (k22 * e1 - k12 * e2) / det), rg_v3_scale(t2, (k11 * e2 - k12 * e1) / det));
    return 1;
}

/* An accumulated angular impulse `total` about `axis` changed (rg__joint_clamped_change) and
   pushed on A and B (NULL: held); returns the change. */
static rg_real rg__joint_axial_impulse(rg__joint_row *row, rg__solver_body *A, rg__solver_body *B, rg_vec3 axis, rg_real *total,
                                       rg_real wanted, rg_real low, rg_real high) {
    rg_real change = rg__joint_clamped_change(total, wanted, low, high);
    rg__joint_push_turn(A, B, rg_v3_scale(axis, change));
    row->angular = rg_v3_madd(row->angular, axis, change);
    return change;
}

/* The angular half of a hinge's visit: a's axis brought onto b's, both predicted at the end of
   the step, by an angular impulse across b's axis (two rows solved together); then the limits
   on the predicted angle (one-sided, clamped as a contact's, eqs. (2)-(3)) and, in the sweeps,
   the motor: the relative turn rate about the axis driven to motor_speed by an impulse of at most
   max_motor_force h. Returns the axes' angle and the limits' excess (rad). */
static rg_real rg__joint_visit_hinge(rg_world *w, rg__joint_row *row, rg_real h, int hold) {
    rg__solver *s = &w->solver;
    const rg__joint *j = &w->joints[row->joint];
    rg__solver_body *A = &s->bodies[row->a], *B = row->b >= 0 ? &s->bodies[row->b] : NULL;
    rg_quat qa, qb, turn = rg__joint_predict_turn(s, row, j, h, &qa, &qb);
    rg_vec3 axis_a = rg_quat_rotate(qa, j->local_axis_a), axis = rg_quat_rotate(qb, j->local_axis_b);
    rg_vec3 theta = rg_v3_sub(rg_v3_cross(axis_a, axis), row->keep_turn), t1 = rg__prepare_perpendicular(axis), t2 = rg_v3_cross(axis, t1), L;
    rg_real error = rg_v3_length(theta), ka;
    rg_mat3 k;
    if (hold & 1) A = NULL;
    if (hold & 2) B = NULL;
    k = rg__joint_turn_mass(A, B);
    ka = rg_v3_dot(axis, rg_mat3_mul_v3(k, axis));
    if (!(ka > 0) || !rg__joint_across_solve(k, t1, t2, rg_v3_dot(t1, theta) / h, rg_v3_dot(t2, theta) / h, &L)) return 0;
    rg__joint_push_turn(A, B, L);
    row->angular = rg_v3_add(row->angular, L);
    row->across = rg_v3_add(row->across, L);
    if (j->enable_limit) {
        rg_real angle = rg__joint_unwrap(j->angle, rg__joint_twist(j, turn));
        rg__joint_axial_impulse(row, A, B, axis, &row->upper, -(angle - row->at_upper) / (h * ka), -RG__REAL_MAX, 0);
        rg__joint_axial_impulse(row, A, B, axis, &row->lower, -(angle - row->at_lower) / (h * ka), 0, RG__REAL_MAX);
        error = rg__max_real(error, rg__max_real(angle - row->at_upper, row->at_lower - angle));
    }
    if (j->enable_motor && !hold) { /* not in the shock pass, nor in the position pass */
        rg_real limit = j->max_motor_force * h, u = rg_v3_dot(axis, A->w);
        if (B) u -= rg_v3_dot(axis, B->w);
        rg__joint_axial_impulse(row, A, B, axis, &row->motor, (j->motor_speed - u) / ka, -limit, limit);
    }
    return error;
}

/* The linear half of a slider's visit: a's anchor kept on b's line (through b's anchor along b's
   axis), both predicted at the end of the step, by an impulse across the axis (two rows solved
   together: the 2x2 block of K, taken at b's point under a's anchor, on two perpendiculars of
   the axis); then the limits on the predicted translation along the axis (one-sided, clamped
   as a contact's, eqs. (2)-(3)) and, in the sweeps, the motor: the relative velocity along the
   axis driven to motor_speed by an impulse of at most max_motor_force h. Returns the distance
   off the line and the limits' excess (m). `hold` as for the ball joint's. */
static rg_real rg__joint_visit_slider(rg_world *w, rg__joint_row *row, rg_real h, int hold) {
    rg__solver *s = &w->solver;
    const rg__joint *j = &w->joints[row->joint];
    rg__solver_body *A = &s->bodies[row->a], *B = row->b >= 0 ? &s->bodies[row->b] : NULL;
    rg_vec3 pa, pb, rb = rg__joint_slider_arm_b(row), d, axis, t1, t2, P;
    rg_quat qa, qb;
    rg_real ka, e1, e2, x, error;
    rg_mat3 k;
    rg__joint_predict_anchors(s, row, h, &pa, &pb);
    d = rg_v3_sub(pa, pb);
    (void)rg__joint_predict_turn(s, row, j, h, &qa, &qb);
    axis = rg_quat_rotate(qb, j->local_axis_b);
    t1 = rg__prepare_perpendicular(axis);
    t2 = rg_v3_cross(axis, t1);
    if (hold & 1) A = NULL;
    if (hold & 2) B = NULL;
    k = rg__joint_point_mass(A, B, row->arm_a, rb);
    ka = rg_v3_dot(axis, rg_mat3_mul_v3(k, axis));
    if (!(ka > 0)) return 0;
    e1 = rg_v3_dot(t1, rg_v3_sub(d, row->keep));
    e2 = rg_v3_dot(t2, rg_v3_sub(d, row->keep));
    error = rg__sqrt(e1 * e1 + e2 * e2);
    if (!rg__joint_across_solve(k, t1, t2, e1 / h, e2 / h, &P)) return 0;
    P = rg_v3_neg(P);
    rg__joint_push(A, B, row->arm_a, rb, P);
    row->impulse = rg_v3_add(row->impulse, P);
    if (j->enable_limit) {
        x = rg_v3_dot(axis, d);
        rg__joint_slide_impulse(row, A, B, axis, &row->upper, -(x - row->at_upper) / (h * ka), -RG__REAL_MAX, 0);
        rg__joint_slide_impulse(row, A, B, axis, &row->lower, -(x - row->at_lower) / (h * ka), 0, RG__REAL_MAX);
        error = rg__max_real(error, rg__max_real(x - row->at_upper, row->at_lower - x));
    }
    if (j->enable_motor && !hold) {
        rg_real limit = j->max_motor_force * h, u = rg_v3_dot(axis, rg_v3_add(A->v, rg_v3_cross(A->w, row->arm_a)));
        if (B) u -= rg_v3_dot(axis, rg_v3_add(B->v, rg_v3_cross(B->w, rb)));
        rg__joint_slide_impulse(row, A, B, axis, &row->motor, (j->motor_speed - u) / ka, -limit, limit);
    }
    return error;
}

/* A cone's angular impulse L on a (-L on b) with the anchors' impulse -K^-1 c that keeps their
   relative velocity (c = (I_a^-1 L) x r_a + (I_b^-1 L) x r_b, its change by L; NULL: held),
   added to the row's impulses (row->across: the cone's angular impulse alone). */
static void rg__joint_cone_push(rg__joint_row *row, rg__solver_body *A, rg__solver_body *B, rg_mat3 mass, rg_vec3 L) {
    rg_vec3 c = rg_v3(0, 0, 0), P;
    if (A && !A->frozen) c = rg_v3_cross(rg_mat3_mul_v3(A->inv_inertia, L), row->arm_a);
    if (B && !B->frozen) c = rg_v3_add(c, rg_v3_cross(rg_mat3_mul_v3(B->inv_inertia, L), row->arm_b));
    P = rg_v3_scale(rg_mat3_mul_v3(mass, c), -1);
    rg__joint_push_turn(A, B, L);
    rg__joint_push(A, B, row->arm_a, row->arm_b, P);
    row->angular = rg_v3_add(row->angular, L);
    row->across = rg_v3_add(row->across, L);
    row->impulse = rg_v3_add(row->impulse, P);
}

/* A ball joint's cone: the angle between a's axis and b's, both predicted at the end of the
   step, kept at most `upper` by an angular impulse lambda n about their common perpendicular
   n = a x b (which turns a's axis towards b's), clamped like a contact's (eqs. (2)-(3)): the
   cone's whole angular impulse is made lambda n with lambda >= 0 (what it held along another
   direction, warm-started or from an earlier visit, is taken back), so that it only ever pulls
   the axes together. It is solved with the point rows as one block: with them met by the ball's
   visit just before, the angular impulse comes with the anchors' impulse that keeps their
   relative velocity (rg__joint_cone_push), through the cone's mass left by the point rows,
   n^T (I_a^-1 + I_b^-1) n - c^T K^-1 c (Schur's complement, c for L = n). An angular row alone
   turns a body about its centre of mass and the point rows then undo most of it: a sphere of
   radius 0.05 m on a 1 m rod, 400 times heavier to turn about the pivot than about its centre,
   left the cone and blew up. Returns the excess (rad). `hold` as for the ball joint's. */
static rg_real rg__joint_visit_cone(rg_world *w, rg__joint_row *row, rg_real h, int hold) {
    rg__solver *s = &w->solver;
    const rg__joint *j = &w->joints[row->joint];
    rg__solver_body *A = &s->bodies[row->a], *B = row->b >= 0 ? &s->bodies[row->b] : NULL;
    rg_quat qa, qb;
    rg_vec3 axis_a, axis_b, n, c = rg_v3(0, 0, 0);
    rg_real sine, angle, kn, lambda;
    rg_mat3 mass = row->mass;
    (void)rg__joint_predict_turn(s, row, j, h, &qa, &qb);
    axis_a = rg_quat_rotate(qa, j->local_axis_a);
    axis_b = rg_quat_rotate(qb, j->local_axis_b);
    n = rg_v3_cross(axis_a, axis_b);
    sine = rg_v3_length(n);
    angle = rg__atan2(sine, rg_v3_dot(axis_a, axis_b));
    n = sine > 0 ? rg_v3_scale(n, 1 / sine) : rg__prepare_perpendicular(axis_b); /* parallel: any perpendicular */
    if (hold & 1) A = NULL;
    if (hold & 2) B = NULL;
    if (hold & RG__JOINT_HOLDS) mass = rg_mat3_inverse(rg__joint_point_mass(A, B, row->arm_a, row->arm_b));
    if (!rg__mat3_is_finite(mass)) return 0;
    if (A && !A->frozen) c = rg_v3_cross(rg_mat3_mul_v3(A->inv_inertia, n), row->arm_a);
    if (B && !B->frozen) c = rg_v3_add(c, rg_v3_cross(rg_mat3_mul_v3(B->inv_inertia, n), row->arm_b));
    kn = rg_v3_dot(n, rg_mat3_mul_v3(rg__joint_turn_mass(A, B), n)) - rg_v3_dot(c, rg_mat3_mul_v3(mass, c));
    if (!(kn > 0)) return 0;
    lambda = rg_v3_dot(row->across, n);
    rg__joint_clamped_change(&lambda, (angle - row->at_upper) / (h * kn), 0, RG__REAL_MAX);
    rg__joint_cone_push(row, A, B, mass, rg_v3_sub(rg_v3_scale(n, lambda), row->across));
    row->lower = lambda;
    return rg__max_real(angle - row->at_upper, 0);
}

/* ---- the joints in the collision loop ----
   The collisions (>>collision) resolve impacts with the velocities of the step's start,
   restitution included. A joint takes part there by passing the impacts on: what the collisions
   would change of its anchors' relative velocity (and of a hinge's relative spin across its
   axis, a fixed or slider joint's whole relative spin, a slider's relative velocity across its
   axis, a rod's along its line, a taut rope's outwards, a limit's or a cone's outwards) is held
   at its value before them by impulses accumulated from the start of the collision loop, in the
   same sweeps as the colliding points; the joint's own constraint (its predicted position, the
   motor) is left to the contact sweeps. (Brought to zero instead, the relative velocities the
   contact sweeps had chosen on the predicted poses were undone at every step with a collision:
   a ragdoll landing on its feet crept at 2.4 cm/s for 10 s, its gaps at rest 0.07 mm.) Without
   the joints an impact met a joined body as if free: a ball bouncing (e = 1) off a door on a
   hinge, struck 0.3 m from the hinge, rebounded 22% slower than the analytic rebound off the
   door's effective mass I / d^2. */

/* A row's bodies' relative spin (a's less b's). */
static rg_vec3 rg__joint_relative_spin(const rg__solver_body *A, const rg__solver_body *B) {
    return B ? rg_v3_sub(A->w, B->w) : A->w;
}

/* A row's relative velocity at its anchors (a's less b's), with the start's arms. */
static rg_vec3 rg__joint_anchor_velocity(const rg__solver_body *A, const rg__solver_body *B, rg_vec3 ra, rg_vec3 rb) {
    rg_vec3 u = rg_v3_add(A->v, rg_v3_cross(A->w, ra));
    return B ? rg_v3_sub(u, rg_v3_add(B->v, rg_v3_cross(B->w, rb))) : u;
}

static int rg__joint_collision_begin(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, n = rg__joint_rows_build(w);
    stbds_arrsetlen(s->joint_start_rates, 2 * n);
    for (i = 0; i < n; ++i) {
        const rg__joint_row *row = &s->joint_rows[i];
        const rg__solver_body *A = &s->bodies[row->a], *B = row->b >= 0 ? &s->bodies[row->b] : NULL;
        rg_vec3 rb = w->joints[row->joint].type == RG_JOINT_SLIDER ? rg__joint_slider_arm_b(row) : row->arm_b;
        s->joint_start_rates[2 * i] = rg__joint_anchor_velocity(A, B, row->arm_a, rb);
        s->joint_start_rates[2 * i + 1] = rg__joint_relative_spin(A, B);
    }
    return n;
}

/* One visit of a row in the collision loop (above); returns its largest relative speed left
   before the visit (m/s, or rad/s times the arm for the turns). */
static rg_real rg__joint_collision_visit(rg_world *w, rg__joint_row *row) {
    rg__solver *s = &w->solver;
    const rg__joint *j = &w->joints[row->joint];
    rg__solver_body *A = &s->bodies[row->a], *B = row->b >= 0 ? &s->bodies[row->b] : NULL;
    const rg_vec3 *start = &s->joint_start_rates[2 * (row - s->joint_rows)];
    rg_vec3 axis = rg_quat_rotate(row->rotation_b, j->local_axis_b), u, L;
    rg_vec3 turn = rg_v3_sub(rg__joint_relative_spin(A, B), start[1]); /* the relative spin the collisions added */
    rg_real worst = 0, arm = rg_v3_length(row->arm_a) + rg_v3_length(row->arm_b);
    rg_real slop = RG__SLOP_FRACTION * w->def.contact_tolerance / (arm > 0 ? arm : 1); /* rad */
    if (j->type == RG_JOINT_DISTANCE) {
        rg_vec3 n = rg__joint_start_separation(row);
        rg_real length = rg_v3_length(n), k, un, target;
        int rod = j->lower == j->upper;
        if (!(length > 0)) return 0;
        n = rg_v3_scale(n, 1 / length);
        if (!rod && length < j->upper - RG__SLOP_FRACTION * w->def.contact_tolerance) return 0; /* slack */
        k = rg__joint_body_line_mass(A, row->arm_a, n) + rg__joint_body_line_mass(B, row->arm_b, n);
        un = rg_v3_dot(n, rg__joint_anchor_velocity(A, B, row->arm_a, row->arm_b));
        target = rg_v3_dot(n, start[0]);
        if (!rod && target < 0) target = 0; /* a taut rope: no faster apart than before, nor apart */
        if (!(k > 0)) return 0;
        rg__joint_line_impulse(row, A, B, n, &row->upper, -(un - target) / k, -RG__REAL_MAX, rod ? RG__REAL_MAX : 0);
        return rod || un > target ? rg__fabs(un - target) : 0;
    }
    if (j->type == RG_JOINT_FIXED || j->type == RG_JOINT_SLIDER) {
        rg_mat3 k = rg_mat3_inverse(rg__joint_turn_mass(A, B));
        if (rg__mat3_is_finite(k)) {
            L = rg_mat3_mul_v3(k, rg_v3_scale(turn, -1));
            rg__joint_push_turn(A, B, L);
            row->angular = rg_v3_add(row->angular, L);
            worst = rg_v3_length(turn) * arm;
        }
    } else if (j->type == RG_JOINT_HINGE) {
        rg_vec3 t1 = rg__prepare_perpendicular(axis), t2 = rg_v3_cross(axis, t1);
        rg_mat3 k = rg__joint_turn_mass(A, B);
        rg_real ka = rg_v3_dot(axis, rg_mat3_mul_v3(k, axis)), rate0 = rg_v3_dot(axis, start[1]);
        if (rg__joint_across_solve(k, t1, t2, -rg_v3_dot(t1, turn), -rg_v3_dot(t2, turn), &L)) {
            rg__joint_push_turn(A, B, L);
            row->angular = rg_v3_add(row->angular, L);
            worst = rg__max_real(rg__fabs(rg_v3_dot(t1, turn)), rg__fabs(rg_v3_dot(t2, turn))) * arm;
        }
        /* at a limit, no faster out than before (one-sided, as the contact sweeps' limit rows) */
        if (j->enable_limit && ka > 0) {
            rg_real rate = rg_v3_dot(axis, rg__joint_relative_spin(A, B));
            if (j->angle >= j->upper - slop)
                rg__joint_axial_impulse(row, A, B, axis, &row->upper, -(rate - rg__max_real(rate0, 0)) / ka, -RG__REAL_MAX, 0);
            rate = rg_v3_dot(axis, rg__joint_relative_spin(A, B)); /* after the upper limit's push */
            if (j->angle <= j->lower + slop)
                rg__joint_axial_impulse(row, A, B, axis, &row->lower, -(rate - rg__min_real(rate0, 0)) / ka, 0, RG__REAL_MAX);
        }
    }
    if (j->type == RG_JOINT_SLIDER) {
        rg_vec3 rb = rg__joint_slider_arm_b(row), t1 = rg__prepare_perpendicular(axis), t2 = rg_v3_cross(axis, t1), P;
        u = rg_v3_sub(rg__joint_anchor_velocity(A, B, row->arm_a, rb), start[0]);
        if (rg__joint_across_solve(rg__joint_point_mass(A, B, row->arm_a, rb), t1, t2, -rg_v3_dot(t1, u), -rg_v3_dot(t2, u), &P)) {
            rg__joint_push(A, B, row->arm_a, rb, P);
            row->impulse = rg_v3_add(row->impulse, P);
            worst = rg__max_real(worst, rg__max_real(rg__fabs(rg_v3_dot(t1, u)), rg__fabs(rg_v3_dot(t2, u))));
        }
        return worst;
    }
    u = rg_v3_sub(rg__joint_anchor_velocity(A, B, row->arm_a, row->arm_b), start[0]);
    L = rg_mat3_mul_v3(row->mass, rg_v3_scale(u, -1));
    rg__joint_push(A, B, row->arm_a, row->arm_b, L);
    row->impulse = rg_v3_add(row->impulse, L);
    worst = rg__max_real(worst, rg_v3_length(u));
    if (j->type == RG_JOINT_BALL && j->enable_limit) { /* a cone at its limit opens no faster than before */
        rg_vec3 axis_a = rg_quat_rotate(row->rotation_a, j->local_axis_a), n = rg_v3_cross(axis_a, axis), c = rg_v3(0, 0, 0);
        rg_real sine = rg_v3_length(n), kn, lambda = row->lower, rate, target;
        if (!(sine > 0) || rg__atan2(sine, rg_v3_dot(axis_a, axis)) < j->upper - slop) return worst;
        n = rg_v3_scale(n, 1 / sine);
        if (!A->frozen) c = rg_v3_cross(rg_mat3_mul_v3(A->inv_inertia, n), row->arm_a);
        if (B && !B->frozen) c = rg_v3_add(c, rg_v3_cross(rg_mat3_mul_v3(B->inv_inertia, n), row->arm_b));
        kn = rg_v3_dot(n, rg_mat3_mul_v3(rg__joint_turn_mass(A, B), n)) - rg_v3_dot(c, rg_mat3_mul_v3(row->mass, c));
        rate = rg_v3_dot(n, rg__joint_relative_spin(A, B)); /* the axes closing */
        target = rg__min_real(rg_v3_dot(n, start[1]), 0);
        if (!(kn > 0)) return worst;
        rg__joint_clamped_change(&lambda, (target - rate) / kn, 0, RG__REAL_MAX);
        rg__joint_cone_push(row, A, B, row->mass, rg_v3_scale(n, lambda - row->lower));
        row->lower = lambda;
        worst = rg__max_real(worst, rate < target ? (target - rate) * arm : 0);
    }
    return worst;
}

/* A sweep of the rows in the collision loop; returns the largest relative speed left. */
static rg_real rg__joint_collision_sweep(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, n = (int)stbds_arrlen(s->joint_rows);
    rg_real worst = 0;
    for (i = 0; i < n; ++i) worst = rg__max_real(worst, rg__joint_collision_visit(w, &s->joint_rows[i]));
    return worst;
}

/* The collision loop's impulses kept for the joints' reactions (rg__joint_solve_end). */
static void rg__joint_collision_end(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, n = (int)stbds_arrlen(s->joint_rows);
    for (i = 0; i < n; ++i) {
        const rg__joint_row *row = &s->joint_rows[i];
        rg__joint *j = &w->joints[row->joint];
        j->collision_linear = row->impulse;
        j->collision_angular = row->angular;
    }
}

/* A joint's visit by its type; returns its error. The turn and the anchors of a fixed joint, a
   hinge or a slider are met in turn RG__JOINT_WELD_PASSES times: the anchors' impulse turns the
   bodies through their arms (a cantilever of two welded 1 m beams sagged 6 mm in its first steps
   with one pass). A ball joint's cone comes after its point rows, solved with them as one block. */
#ifndef RG__JOINT_WELD_PASSES
#define RG__JOINT_WELD_PASSES 4
#endif
static rg_real rg__joint_visit(rg_world *w, rg__joint_row *row, rg_real h, int hold) {
    const rg__joint *j = &w->joints[row->joint];
    rg_real error = 0;
    int pass;
    if (j->type == RG_JOINT_DISTANCE) return rg__joint_visit_distance(w, row, h, hold);
    if (j->type == RG_JOINT_BALL) {
        error = rg__joint_visit_ball(&w->solver, row, h, hold, !j->enable_limit && w->solver.joint_shocked[row - w->solver.joint_rows] != 1);
        return j->enable_limit ? rg__max_real(error, rg__joint_visit_cone(w, row, h, hold)) : error;
    }
    for (pass = 0; pass < RG__JOINT_WELD_PASSES; ++pass) {
        rg_real turn = j->type != RG_JOINT_HINGE ? rg__joint_visit_weld(&w->solver, row, j, h, hold)
                                                 : rg__joint_visit_hinge(w, row, h, hold);
        rg_real gap = j->type == RG_JOINT_SLIDER ? rg__joint_visit_slider(w, row, h, hold)
                                                 : rg__joint_visit_ball(&w->solver, row, h, hold, 1);
        if (pass == 0) error = rg__max_real(turn, gap);
    }
    return error;
}

/* One sweep over the step's joints, in joint order; returns the largest error found. */
static rg_real rg__joint_solve_sweep(rg_world *w, rg_real h) {
    rg__solver *s = &w->solver;
    rg_real worst = 0;
    int i, n = (int)stbds_arrlen(s->joint_rows);
    for (i = 0; i < n; ++i) {
        rg__joint_row *row = &s->joint_rows[i];
        worst = rg__max_real(worst, rg__joint_visit(w, row, h, 0));
    }
    return worst;
}

/* Shock propagation through the joints (Guendelman §8.2 on the joint graph): after the sweeps,
   which spread the loads, the joints are met once more level by level from what holds them
   still (the world, static and kinematic bodies), each with its body nearer the root at
   infinite mass, so that a chain's gaps do not add up along it (a 20-link chain hanging at rest
   with the sweeps alone: 2 cm). A body's level is its fewest joints from a body held still;
   joints between bodies of one level move both, and groups not held by anything are left to the
   sweeps. The sweeps' impulses are the reaction; these act on one body only.
   Joints on a closed loop (the root counting as one body) are left to the sweeps too: a loop's
   body has no one parent, and meeting one joint with the other end held breaks the next (a
   bridge of 20 planks on ball joints held at both ends, with them in the pass: gaps of metres
   within 10 s; without: under 1 mm). rg__joint_levels finds the levels and the loops, once a
   step: a walk breadth first from what holds them gives each body the joint it was reached
   by; every other joint closes a loop, whose joints are those on the two paths from its ends
   up to where they meet. */
#ifndef RG__JOINT_SHOCK_SWEEPS
#define RG__JOINT_SHOCK_SWEEPS 2
#endif

/* The body at a row's other end from `body`, -1 for the root (the world or a body held still). */
static int rg__joint_row_other(const rg__solver *s, const rg__joint_row *row, int body) {
    int other = row->a == body ? row->b : row->a;
    return other >= 0 && s->joint_levels[other] > 0 ? other : -1;
}

/* The joints of the loop that `row` closes marked, up both ends' paths until they meet. */
static void rg__joint_mark_loop(rg__solver *s, int row) {
    const rg__joint_row *r = &s->joint_rows[row];
    int u = r->a >= 0 && s->joint_levels[r->a] > 0 ? r->a : -1;
    int v = r->b >= 0 && s->joint_levels[r->b] > 0 ? r->b : -1;
    s->joint_loop[row] = 1;
    while (u != v) {
        int lu = u < 0 ? 0 : s->joint_levels[u], lv = v < 0 ? 0 : s->joint_levels[v];
        if (lu >= lv) {
            s->joint_loop[s->joint_parent[u]] = 1;
            u = rg__joint_row_other(s, &s->joint_rows[s->joint_parent[u]], u);
        } else {
            s->joint_loop[s->joint_parent[v]] = 1;
            v = rg__joint_row_other(s, &s->joint_rows[s->joint_parent[v]], v);
        }
    }
}

/* The levels of the joint graph, its loops, and the rows of the shock pass in s->joint_order
   by level; returns how many. */
static int rg__joint_levels(rg_world *w) {
    rg__solver *s = &w->solver;
    int i, n = (int)stbds_arrlen(s->joint_rows), bodies = (int)stbds_arrlen(s->bodies), top = 0, head = 0, tail = 0;
    int *level, *queue, *start;
    const int none = 0x7FFFFFFF; /* not held */
    stbds_arrsetlen(s->joint_levels, bodies);
    stbds_arrsetlen(s->joint_queue, bodies);
    stbds_arrsetlen(s->joint_parent, bodies);
    stbds_arrsetlen(s->joint_loop, n);
    stbds_arrsetlen(s->joint_shocked, n);
    stbds_arrsetlen(s->joint_row_of, stbds_arrlen(w->joints));
    level = s->joint_levels;
    queue = s->joint_queue;
    for (i = 0; i < (int)stbds_arrlen(w->joints); ++i) s->joint_row_of[i] = -1;
    for (i = 0; i < n; ++i) {
        s->joint_row_of[s->joint_rows[i].joint] = i;
        s->joint_loop[i] = s->joint_shocked[i] = 0;
    }
    /* a walk breadth first along the bodies' joint lists from what holds them: the held bodies
       first (level 0), then those joined to the world (level 1), so that levels come off the
       queue in order */
    for (i = 0; i < bodies; ++i) {
        level[i] = s->bodies[i].frozen ? 0 : none;
        s->joint_parent[i] = -1;
        if (level[i] == 0 && w->bodies[i].joint_count > 0) queue[tail++] = i;
    }
    for (i = 0; i < n; ++i) {
        const rg__joint_row *row = &s->joint_rows[i];
        if (row->b < 0 && level[row->a] == none) {
            level[row->a] = 1;
            s->joint_parent[row->a] = i;
            queue[tail++] = row->a;
        }
    }
    while (head < tail) {
        int body = queue[head++], key;
        for (key = w->bodies[body].joint_list; key >= 0; key = w->joints[key >> 1].link[key & 1].next) {
            const rg__joint *j = &w->joints[key >> 1];
            int other = key & 1 ? j->a : j->b, row = s->joint_row_of[key >> 1];
            if (row < 0 || other < 0 || level[other] != none) continue;
            level[other] = level[body] + 1;
            s->joint_parent[other] = row;
            queue[tail++] = other;
        }
    }
    /* the loops: a held row that reached neither of its bodies closes one */
    for (i = 0; i < n; ++i) {
        const rg__joint_row *row = &s->joint_rows[i];
        int la = level[row->a], lb = row->b >= 0 ? level[row->b] : 0;
        if (la == none || lb == none || s->joint_parent[row->a] == i || (row->b >= 0 && s->joint_parent[row->b] == i)) continue;
        if (la == 0 && lb == 0) continue; /* between two held bodies: no loop through the pass */
        rg__joint_mark_loop(s, i);
    }
    /* the rows held by something and on no loop, by level (a counting sort, stable in joint
       order) */
    for (i = 0; i < n; ++i) {
        const rg__joint_row *row = &s->joint_rows[i];
        int la = level[row->a], lb = row->b >= 0 ? level[row->b] : 0;
        if (la != none && lb != none && (la > lb ? la : lb) > top) top = (la > lb ? la : lb);
    }
    stbds_arrsetlen(s->joint_order, n + top + 2);
    start = &s->joint_order[n];
    for (i = 0; i <= top + 1; ++i) start[i] = 0;
    for (i = 0; i < n; ++i) {
        const rg__joint_row *row = &s->joint_rows[i];
        int la = level[row->a], lb = row->b >= 0 ? level[row->b] : 0;
        if (la != none && lb != none && !s->joint_loop[i]) ++start[(la > lb ? la : lb) + 1];
    }
    for (i = 0; i <= top; ++i) start[i + 1] += start[i];
    for (i = 0; i < n; ++i) {
        const rg__joint_row *row = &s->joint_rows[i];
        int la = level[row->a], lb = row->b >= 0 ? level[row->b] : 0;
        if (la != none && lb != none && !s->joint_loop[i]) {
            s->joint_order[start[(la > lb ? la : lb)]++] = i;
            s->joint_shocked[i] = 1;
        }
    }
    /* the rows that carry others' loads: those by which a shocked row's parent was reached */
    for (i = 0; i < start[top]; ++i) {
        const rg__joint_row *row = &s->joint_rows[s->joint_order[i]];
        int la = level[row->a], lb = row->b >= 0 ? level[row->b] : 0, parent = la > lb ? row->b : row->a;
        if (parent >= 0 && level[parent] > 0 && s->joint_parent[parent] >= 0) s->joint_shocked[s->joint_parent[parent]] = 2;
    }
    return start[top]; /* start[l] now ends level l */
}

/* The shock pass over the `count` rows of s->joint_order (rg__joint_levels); `mode` is
   RG__JOINT_POSITIONS in the position pass. */
static void rg__joint_shock(rg_world *w, rg_real h, int count, int mode) {
    rg__solver *s = &w->solver;
    int i, sweep;
    for (sweep = 0; sweep < RG__JOINT_SHOCK_SWEEPS; ++sweep)
        for (i = 0; i < count; ++i) {
            rg__joint_row *row = &s->joint_rows[s->joint_order[i]];
            int la = s->joint_levels[row->a], lb = row->b >= 0 ? s->joint_levels[row->b] : 0;
            rg__joint_visit(w, row, h, (la < lb ? 1 : lb < la ? 2 : 0) | mode);
        }
}

/* The shock pass's rows push the child alone, its parent held, which is exact for what hangs at
   rest but creates momentum where the sweeps left the parent moving wrongly (a chain of 20 links
   released from 0.5 rad: 56% more energy within 0.7 s, and the links then whip into each other).
   So each tree of joints keeps only as much of the pass's velocity change as leaves its kinetic
   energy no higher than before the pass, plus slack (rg__shock_limit_energy's rule for the
   contacts' shock propagation), and its rows' impulses in the same part. An exact solve would
   project onto the joints in the bodies' mass metric, which never adds kinetic energy. */
static void rg__joint_limit_energy(rg_world *w, int count, rg_real slack_speed) {
    rg__solver *s = &w->solver;
    int i, bodies = (int)stbds_arrlen(s->bodies), limited = 0;
    const rg_vec3 *before = s->joint_loads;
    rg__joint_energy_terms(w, slack_speed);
    for (i = 0; i < bodies; ++i) {
        rg_real *sums = &s->joint_energy[3 * i];
        sums[0] = rg__shock_energy_scale(sums[0], sums[1], sums[2]);
        if (sums[0] < 1) limited = 1;
    }
    if (!limited) return;
    rg__joint_keep_change(w);
    for (i = 0; i < count; ++i) {
        rg__joint_row *row = &s->joint_rows[s->joint_order[i]];
        rg_real scale = s->joint_energy[3 * rg__joint_group_of(s, row)];
        row->impulse = rg_v3_madd(before[2 * i], rg_v3_sub(row->impulse, before[2 * i]), scale);
        row->angular = rg_v3_madd(before[2 * i + 1], rg_v3_sub(row->angular, before[2 * i + 1]), scale);
    }
}

/* The shock pass (rg__joint_shock) and each of its rows' reaction. A row's visits there push
   its child (the body farther from the root) alone, the parent held: what the child's own
   children take from it is never taken from the parent, so the parent's joint carries that load
   too. Level by level from the leaves, each row's load on its child (its pass's impulse plus the
   loads of the child's own rows, force and moment about the origin) is handed on to its parent,
   and its reaction is the sweeps' impulse plus that load (a 20-link chain hanging at rest: the
   top joint 21.37 N for 21.37 N of links). */
static void rg__joint_shock_loads(rg_world *w, rg_real h, int count, rg_real slack_speed) {
    rg__solver *s = &w->solver;
    int i, n = (int)stbds_arrlen(s->joint_rows), bodies = (int)stbds_arrlen(s->bodies);
    rg_vec3 *before, *carry;
    stbds_arrsetlen(s->joint_loads, 2 * n + 2 * bodies);
    before = s->joint_loads;
    carry = &s->joint_loads[2 * n];
    for (i = 0; i < count; ++i) {
        const rg__joint_row *row = &s->joint_rows[s->joint_order[i]];
        before[2 * i] = row->impulse;
        before[2 * i + 1] = row->angular;
    }
    for (i = 0; i < 2 * bodies; ++i) carry[i] = rg_v3(0, 0, 0);
    rg__shock_keep_start(s);
    rg__joint_shock(w, h, count, 0);
    rg__joint_limit_energy(w, count, slack_speed);
    for (i = count - 1; i >= 0; --i) {
        rg__joint_row *row = &s->joint_rows[s->joint_order[i]];
        int la = s->joint_levels[row->a], lb = row->b >= 0 ? s->joint_levels[row->b] : 0;
        int child = la > lb ? row->a : row->b, parent = la > lb ? row->b : row->a;
        rg_real sign = child == row->a ? 1 : -1; /* the row's impulses are on a */
        rg_vec3 x = rg_v3_add(row->com_a, row->arm_a);
        rg_vec3 force = rg_v3_scale(rg_v3_sub(row->impulse, before[2 * i]), sign);
        rg_vec3 moment = rg_v3_add(rg_v3_cross(x, force), rg_v3_scale(rg_v3_sub(row->angular, before[2 * i + 1]), sign));
        force = rg_v3_add(force, carry[2 * child]);
        moment = rg_v3_add(moment, carry[2 * child + 1]);
        if (parent >= 0 && s->joint_levels[parent] > 0) {
            carry[2 * parent] = rg_v3_add(carry[2 * parent], force);
            carry[2 * parent + 1] = rg_v3_add(carry[2 * parent + 1], moment);
        }
        row->impulse = rg_v3_madd(before[2 * i], force, sign);
        row->angular = rg_v3_madd(before[2 * i + 1], rg_v3_sub(moment, rg_v3_cross(x, force)), sign);
    }
}

/* After the sweeps: each joint's reaction, its impulse on a over the step. Ball joints without a
   cone and distance joints act at a's anchor: no torque about it. */
static void rg__joint_solve_end(rg_world *w, rg_real h) {
    rg__solver *s = &w->solver;
    int i, n = (int)stbds_arrlen(s->joint_rows);
    for (i = 0; i < n; ++i) {
        const rg__joint_row *row = &s->joint_rows[i];
        rg__joint *j = &w->joints[row->joint];
        j->reaction_force = rg_v3_scale(rg_v3_add(row->impulse, j->collision_linear), 1 / h);
        j->reaction_torque = rg_v3_scale(rg_v3_add(row->angular, j->collision_angular), 1 / h);
        j->collision_linear = j->collision_angular = rg_v3(0, 0, 0);
        /* kept in a's frame, so that they turn with it to the next step (rg__joint_warm_start) */
        j->linear_impulse = rg_quat_rotate_inverse(row->rotation_a, row->impulse);
        j->angular_impulse = rg_quat_rotate_inverse(row->rotation_a, j->type == RG_JOINT_HINGE ? row->across : row->angular);
        j->motor_impulse = row->motor;
        j->axial_impulse = row->upper;
        j->limit_impulse = row->lower;
    }
}

/* The position pass (Ermolin & Kazakov's point-point constraint met in positions): after the
   velocities are final, the joints' drift is removed by moving the bodies, through the solver's
   offsets (dx, dr: added to the step's motion, not to the velocities), as the contacts'
   first-order pass does. The rows are first carried to where the step will leave their bodies
   (centres, arms, orientations and masses at the predicted end), so that each visit is a step
   of nonlinear Gauss-Seidel on the end poses (with the start's arms, a 20 kg crate landing on a
   bridge of planks turned them far enough that the corrections grew); then the sweeps' own
   visits, with the joint's definition as target (keep cleared, limits unwidened), their
   impulses applied to a scratch velocity whose motion over the step becomes the offset: sweeps
   over all rows, then once level by level from what holds them (rg__joint_shock), so that a
   chain's gaps do not add up. */
#ifndef RG__JOINT_CORRECT_SWEEPS
#define RG__JOINT_CORRECT_SWEEPS 4
#endif
static void rg__joint_correct(rg_world *w, rg_real h, int count) {
    rg__solver *s = &w->solver;
    int i, sweep, n = (int)stbds_arrlen(s->joint_rows), bodies = (int)stbds_arrlen(s->bodies);
    rg_vec3 *offsets;
    stbds_arrsetlen(s->joint_offsets, 2 * bodies);
    offsets = s->joint_offsets;
    for (i = 0; i < n; ++i) {
        rg__joint_row *row = &s->joint_rows[i];
        const rg__joint *j = &w->joints[row->joint];
        rg__solver_body *A = &s->bodies[row->a], *B = row->b >= 0 ? &s->bodies[row->b] : NULL;
        rg_vec3 pa = rg__joint_predict(A, row->com_a, row->arm_a, h);
        rg__joint_predict_turn(s, row, j, h, &row->rotation_a, &row->rotation_b);
        row->com_a = rg_v3_add(row->com_a, rg_v3_madd(A->dx, A->v, h));
        row->arm_a = rg_v3_sub(pa, row->com_a);
        if (B) {
            rg_vec3 pb = rg__joint_predict(B, row->com_b, row->arm_b, h);
            row->com_b = rg_v3_add(row->com_b, rg_v3_madd(B->dx, B->v, h));
            row->arm_b = rg_v3_sub(pb, row->com_b);
        }
        row->keep = row->keep_turn = rg_v3(0, 0, 0);
        row->at_upper = j->upper;
        row->at_lower = j->lower;
        row->upper = row->lower = 0;
        row->across = rg_v3(0, 0, 0);
    }
    for (i = 0; i < bodies; ++i) {
        rg__solver_body *sb = &s->bodies[i];
        offsets[2 * i] = sb->dx;
        offsets[2 * i + 1] = sb->dr;
        sb->pv = sb->v;
        sb->pw = sb->w;
        sb->dx = sb->dr = sb->v = sb->w = rg_v3(0, 0, 0);
        if (!sb->dynamic) continue;
        sb->inv_mass = w->bodies[i].inv_mass; /* shock propagation's frozen levels move again */
        sb->inv_inertia = w->bodies[i].inv_inertia_world;
        sb->frozen = 0;
    }
    for (i = 0; i < n; ++i) {
        rg__joint_row *row = &s->joint_rows[i];
        row->mass = rg_mat3_inverse(rg__joint_point_mass(&s->bodies[row->a], row->b >= 0 ? &s->bodies[row->b] : NULL,
                                                          row->arm_a, row->arm_b));
    }
    for (sweep = 0; sweep < RG__JOINT_CORRECT_SWEEPS; ++sweep) {
        rg_real worst = 0;
        for (i = 0; i < n; ++i) worst = rg__max_real(worst, rg__joint_visit(w, &s->joint_rows[i], h, RG__JOINT_POSITIONS));
        if (worst <= RG__CONTACT_EXIT_FRACTION * w->def.contact_tolerance) break;
    }
    rg__joint_shock(w, h, count, RG__JOINT_POSITIONS);
    for (i = 0; i < bodies; ++i) {
        rg__solver_body *sb = &s->bodies[i];
        sb->dx = rg_v3_madd(offsets[2 * i], sb->v, h);
        sb->dr = rg_v3_madd(offsets[2 * i + 1], sb->w, h);
        sb->v = sb->pv;
        sb->w = sb->pw;
        sb->pv = sb->pw = rg_v3(0, 0, 0);
    }
}

RIGID_API rg_joint_type rg_joint_get_type(const rg_world *w, rg_joint_id id) {
    rg__joint *j = rg__world_joint(w, id);
    return j ? j->type : RG_JOINT_BALL;
}
static rg_body_id rg__joint_body_id(const rg_world *w, int index) {
    rg_body_id id = {0, 0};
    if (index < 0) return id;
    id.index = (uint32_t)index;
    id.generation = w->bodies[index].generation;
    return id;
}
RIGID_API rg_body_id rg_joint_body_a(const rg_world *w, rg_joint_id id) {
    rg__joint *j = rg__world_joint(w, id);
    return rg__joint_body_id(w, j ? j->a : -1);
}
RIGID_API rg_body_id rg_joint_body_b(const rg_world *w, rg_joint_id id) {
    rg__joint *j = rg__world_joint(w, id);
    return rg__joint_body_id(w, j ? j->b : -1);
}
/* The joint an id names at its bodies' current poses; all zero for a stale id. */
static rg__joint_frame rg__joint_frame_by_id(const rg_world *w, rg_joint_id id) {
    const rg__joint *j = rg__world_joint(w, id);
    rg__joint_frame f;
    if (j) rg__joint_frame_of(w, j, &f);
    else memset(&f, 0, sizeof f);
    return f;
}
RIGID_API rg_vec3 rg_joint_anchor_a(const rg_world *w, rg_joint_id id) { return rg__joint_frame_by_id(w, id).anchor_a; }
RIGID_API rg_vec3 rg_joint_anchor_b(const rg_world *w, rg_joint_id id) { return rg__joint_frame_by_id(w, id).anchor_b; }
RIGID_API rg_vec3 rg_joint_axis(const rg_world *w, rg_joint_id id) { return rg__joint_frame_by_id(w, id).axis_b; }
RIGID_API rg_vec3 rg_joint_reaction_force(const rg_world *w, rg_joint_id id) {
    rg__joint *j = rg__world_joint(w, id);
    return j ? j->reaction_force : rg_v3(0, 0, 0);
}
RIGID_API rg_vec3 rg_joint_reaction_torque(const rg_world *w, rg_joint_id id) {
    rg__joint *j = rg__world_joint(w, id);
    return j ? j->reaction_torque : rg_v3(0, 0, 0);
}
RIGID_API rg_real rg_joint_position(const rg_world *w, rg_joint_id id) {
    rg__joint *j = rg__world_joint(w, id);
    return j ? rg__joint_position_of(w, j) : 0;
}
RIGID_API int rg_joint_limits(const rg_world *w, rg_joint_id id, rg_real *lower, rg_real *upper) {
    rg__joint *j = rg__world_joint(w, id);
    if (lower) *lower = j ? j->lower : 0;
    if (upper) *upper = j ? j->upper : 0;
    return j ? j->enable_limit : 0;
}
RIGID_API int rg_joint_motor(const rg_world *w, rg_joint_id id, rg_real *speed, rg_real *max_force) {
    rg__joint *j = rg__world_joint(w, id);
    if (speed) *speed = j ? j->motor_speed : 0;
    if (max_force) *max_force = j ? j->max_motor_force : 0;
    return j ? j->enable_motor : 0;
}
RIGID_API int rg_joint_collide_connected(const rg_world *w, rg_joint_id id) {
    rg__joint *j = rg__world_joint(w, id);
    return j ? j->collide_connected : 0;
}
RIGID_API void *rg_joint_user_data(const rg_world *w, rg_joint_id id) {
    rg__joint *j = rg__world_joint(w, id);
    return j ? j->user_data : NULL;
}

/* The setters share one check: world, then id. */
static rg_result rg__joint_for_update(rg_world *w, rg_joint_id id, rg__joint **out) {
    *out = NULL;
    if (!w) return RG_ERR_INVALID_ARGUMENT;
    *out = rg__world_joint(w, id);
    return *out ? RG_OK : RG_ERR_STALE_ID;
}

/* New limits restart the limit's accumulated impulse. */
RIGID_API rg_result rg_joint_set_limits(rg_world *w, rg_joint_id id, int enable, rg_real lower, rg_real upper) {
    rg__joint *j;
    rg_real lo, hi;
    rg_result r = rg__joint_for_update(w, id, &j);
    if (r != RG_OK) return r;
    if (!rg__joint_has_limits(j->type)) return RG_ERR_INVALID_ARGUMENT;
    enable = j->type == RG_JOINT_DISTANCE || enable != 0;
    if (j->type == RG_JOINT_BALL && enable && rg_v3_length_squared(j->local_axis_a) == 0) return RG_ERR_INVALID_ARGUMENT;
    if (!rg__joint_limits_resolve(j->type, enable, lower, upper, j->length, &lo, &hi)) return RG_ERR_INVALID_ARGUMENT;
    j->enable_limit = enable;
    j->lower = lo;
    j->upper = hi;
    j->limit_impulse = 0;
    return RG_OK;
}

/* A motor turned off drops its accumulated impulse. */
RIGID_API rg_result rg_joint_set_motor(rg_world *w, rg_joint_id id, int enable, rg_real speed, rg_real max_force) {
    rg__joint *j;
    rg_result r = rg__joint_for_update(w, id, &j);
    if (r != RG_OK) return r;
    if (!rg__joint_has_motor(j->type) || !rg__joint_motor_is_valid(speed, max_force)) return RG_ERR_INVALID_ARGUMENT;
    j->enable_motor = enable != 0;
    j->motor_speed = speed;
    j->max_motor_force = max_force;
    if (!j->enable_motor) j->motor_impulse = 0;
    return RG_OK;
}

RIGID_API rg_result rg_joint_set_user_data(rg_world *w, rg_joint_id id, void *user_data) {
    rg__joint *j;
    rg_result r = rg__joint_for_update(w, id, &j);
    if (r != RG_OK) return r;
    j->user_data = user_data;
    return RG_OK;
}

RIGID_API int rg_body_joints(const rg_world *w, rg_body_id body_id, rg_joint_id *out, int capacity) {
    rg__body *body = rg__world_body(w, body_id);
    int key, total = 0;
    if (!body) return 0;
    if (!out || capacity < 0) capacity = 0;
    for (key = body->joint_list; key >= 0; key = w->joints[key >> 1].link[key & 1].next, ++total)
        if (total < capacity) out[total] = rg__joint_id_of(w, key >> 1);
    return total;
}

RIGID_API int rg_world_joints(const rg_world *w, rg_joint_id *out, int capacity) {
    int i, n, total = 0;
    if (!w) return 0;
    if (!out || capacity < 0) capacity = 0;
    n = (int)stbds_arrlen(w->joints);
    for (i = 0; i < n; ++i) {
        if (!(w->joints[i].generation & 1)) continue;
        if (total < capacity) out[total] = rg__joint_id_of(w, i);
        ++total;
    }
    return total;
}

/* =============================================================================================
   >>query: ray casts, sphere casts and overlaps on a tree over the shapes' boxes
   =============================================================================================
   Candidates come from a bounding-volume tree whose leaves are the shapes' boxes at their current
   pose (tight: no margin, no motion; a mesh is one leaf, its triangles in its own hierarchy). It
   is kept current eagerly, so that a query (const) needs nothing done first: a shape added,
   destroyed or moved by rg_body_set_transform takes or leaves its place at once (inserted as
   Box2D's dynamic tree does, next to the node whose pairing costs the least added area, and kept
   balanced by its rotations: 20 000 spheres created along a line make a tree 15 high), and at
   the end of rg_world_step the moving bodies' leaves take their new boxes and the inner nodes
   above them are refitted bottom up. Refitting keeps the tree's shape while its bodies move
   apart; when the inner nodes' summed area relative to the root's (the surface area heuristic's
   cost) has grown by RG__QUERY_REBUILD_GROWTH since the last rebuild, or the height passes
   RG__QUERY_MAX_HEIGHT, or the leaves added since have become half of it, the tree is built
   again top down by binned SAH: the builder of >>mesh.hierarchy, over the shapes' boxes (at
   10 000 bodies a rebuilt tree casts rays 2 to 5 times faster than one made by insertions).
   Queries walk it depth first, the nearer child first;
   hits at equal fractions go to the lower shape index, so that no answer depends on the tree. */

#ifndef RG__QUERY_REBUILD_GROWTH
#define RG__QUERY_REBUILD_GROWTH 1.5
#endif

enum {
    RG__QUERY_MAX_HEIGHT = 96,    /* an insertion beyond it rebuilds: a built tree is at most
                                     RG__MESH_SAH_DEPTH + log2(2^31 / 4) + 2 = 63 high */
    RG__QUERY_STACK = RG__QUERY_MAX_HEIGHT + 2, /* a walk holds one pending child a level, plus two */
    RG__QUERY_REBUILD_ADDED = 64  /* leaves added since the last rebuild that, once they are half the
                                     tree, rebuild it: a world built body by body is rebuilt as it
                                     doubles, O(log n) amortised a body */
};

/* ---- >>query.tree: leaves in and out, the step's refit, the rebuild --------------------------- */

/* The pose a query takes a body at, as the narrow phase does; 0 for a pose out of range (its
   shapes are never reported). */
static int rg__query_pose(const rg__body *body, rg__narrowphase_body *pose) {
    memset(pose, 0, sizeof *pose);
    pose->origin = rg__narrowphase_body_origin(body);
    if (!rg__v3_is_sane(pose->origin) || !rg_quat_is_finite(body->orientation)) return 0;
    pose->rotation = rg_quat_normalize(body->orientation);
    return 1;
}

/* A body's frame as the broad phase takes it: its rotation matrix and its origin. */
static void rg__query_frame(const rg__body *body, rg_mat3 *rotation, rg_vec3 *origin) {
    *rotation = rg_mat3_from_quat(body->orientation);
    *origin = rg_v3_sub(body->com, rg_mat3_mul_v3(*rotation, body->local_com));
}

/* A shape's world box on a body in that frame; the point at the origin when the box is out of
   range (a pose gone to NaN or beyond 1e15). */
static void rg__query_box_in_frame(const rg__shape *shape, rg_mat3 rotation, rg_vec3 origin, rg_vec3 *lo,
                                   rg_vec3 *hi) {
    rg__broadphase_shape_box(shape, rotation, lo, hi);
    *lo = rg_v3_add(origin, *lo);
    *hi = rg_v3_add(origin, *hi);
    if (!rg__v3_is_sane(*lo) || !rg__v3_is_sane(*hi)) *lo = *hi = rg_v3(0, 0, 0);
}

/* Shape index's world box at its body's current pose. */
static void rg__query_shape_box(const rg_world *w, int index, rg_vec3 *lo, rg_vec3 *hi) {
    rg_mat3 rotation;
    rg_vec3 origin;
    rg__query_frame(&w->bodies[w->shapes[index].body], &rotation, &origin);
    rg__query_box_in_frame(&w->shapes[index], rotation, origin, lo, hi);
}

/* A node slot (reused or appended), blank: no parent, no children, a zero box. */
static int rg__query_allocate(rg__query *q) {
    rg__query_node blank;
    int node;
    memset(&blank, 0, sizeof blank);
    blank.parent = blank.child[0] = blank.child[1] = blank.shape = -1;
    if (stbds_arrlen(q->free_nodes) > 0) {
        node = stbds_arrpop(q->free_nodes);
        q->nodes[node] = blank;
        return node;
    }
    stbds_arrput(q->nodes, blank);
    return (int)stbds_arrlen(q->nodes) - 1;
}

/* Inner node's box and height from its children; the sum of inner areas follows. */
static void rg__query_fit(rg__query *q, int node) {
    rg__query_node *n = &q->nodes[node];
    const rg__query_node *a = &q->nodes[n->child[0]], *b = &q->nodes[n->child[1]];
    q->inner_area -= rg__mesh_half_area(n->lo, n->hi);
    n->lo = rg_v3_min(a->lo, b->lo);
    n->hi = rg_v3_max(a->hi, b->hi);
    n->height = 1 + (a->height > b->height ? a->height : b->height);
    q->inner_area += rg__mesh_half_area(n->lo, n->hi);
}

/* Box2D's b2DynamicTree::Balance (an AVL rotation): when one child of inner node a is more than
   a level higher than the other, that child `up` takes a's place, keeps its own higher child and
   gives a its lower one. Keeps the height logarithmic whatever the order of insertion (bodies
   created along a line made a chain). Returns the node now in a's place. */
static int rg__query_balance(rg__query *q, int a) {
    rg__query_node *n = q->nodes;
    int k, up, high, low, above;
    if (n[a].shape >= 0) return a;
    if (n[n[a].child[1]].height - n[n[a].child[0]].height > 1) k = 1;
    else if (n[n[a].child[0]].height - n[n[a].child[1]].height > 1) k = 0;
    else return a;
    up = n[a].child[k];
    high = n[n[up].child[0]].height > n[n[up].child[1]].height ? n[up].child[0] : n[up].child[1];
    low = high == n[up].child[0] ? n[up].child[1] : n[up].child[0];
    above = n[a].parent;
    n[up].parent = above;
    if (above < 0) q->root = up;
    else n[above].child[n[above].child[1] == a] = up;
    n[a].child[k] = low;
    n[low].parent = a;
    n[a].parent = up;
    n[up].child[0] = a;
    n[up].child[1] = high;
    rg__query_fit(q, a);
    rg__query_fit(q, up);
    return up;
}

/* Boxes and heights refitted from node up to the root, rebalanced on the way. */
static void rg__query_fit_up(rg__query *q, int node) {
    for (; node >= 0; node = q->nodes[node].parent) {
        rg__query_fit(q, node);
        node = rg__query_balance(q, node);
    }
}

/* The sibling of a new leaf [lo, hi]: down from the root while pushing the leaf into a child
   costs less than pairing it with the node here (Box2D's b2InsertLeaf: the new parent's area,
   plus what the ancestors grow). Equal costs go to the lower child, so that leaves at one point
   stay balanced. */
static int rg__query_sibling(const rg__query *q, rg_vec3 lo, rg_vec3 hi) {
    int node = q->root;
    while (q->nodes[node].shape < 0) {
        const rg__query_node *n = &q->nodes[node], *c[2];
        double area = rg__mesh_half_area(n->lo, n->hi);
        double joined = rg__mesh_half_area(rg_v3_min(n->lo, lo), rg_v3_max(n->hi, hi));
        double cost = 2 * joined, inherited = 2 * (joined - area), child_cost[2];
        int k;
        for (k = 0; k < 2; ++k) {
            double grown;
            c[k] = &q->nodes[n->child[k]];
            grown = rg__mesh_half_area(rg_v3_min(c[k]->lo, lo), rg_v3_max(c[k]->hi, hi));
            child_cost[k] = (c[k]->shape >= 0 ? grown : grown - rg__mesh_half_area(c[k]->lo, c[k]->hi)) + inherited;
        }
        if (cost < child_cost[0] && cost < child_cost[1]) break;
        node = n->child[child_cost[1] < child_cost[0] ||
                        (child_cost[1] == child_cost[0] && c[1]->height < c[0]->height)];
    }
    return node;
}

/* Links leaf (its box set) into the tree. */
static void rg__query_attach(rg__query *q, int leaf) {
    int sibling, parent, above;
    if (++q->leaf_count == 1) {
        q->root = leaf;
        q->nodes[leaf].parent = -1;
        return;
    }
    sibling = rg__query_sibling(q, q->nodes[leaf].lo, q->nodes[leaf].hi);
    parent = rg__query_allocate(q);
    above = q->nodes[sibling].parent;
    q->nodes[parent].parent = above;
    q->nodes[parent].child[0] = sibling;
    q->nodes[parent].child[1] = leaf;
    q->nodes[sibling].parent = parent;
    q->nodes[leaf].parent = parent;
    if (above < 0) q->root = parent;
    else q->nodes[above].child[q->nodes[above].child[1] == sibling] = parent;
    rg__query_fit_up(q, parent);
}

/* Unlinks leaf from the tree (the leaf's slot stays); its sibling takes its parent's place. */
static void rg__query_detach(rg__query *q, int leaf) {
    int parent = q->nodes[leaf].parent, sibling, above;
    if (--q->leaf_count == 0) return;   /* it was the root */
    sibling = q->nodes[parent].child[q->nodes[parent].child[0] == leaf];
    above = q->nodes[parent].parent;
    q->inner_area -= rg__mesh_half_area(q->nodes[parent].lo, q->nodes[parent].hi);
    stbds_arrput(q->free_nodes, parent);
    q->nodes[sibling].parent = above;
    if (above < 0) {
        q->root = sibling;
        return;
    }
    q->nodes[above].child[q->nodes[above].child[1] == parent] = sibling;
    rg__query_fit_up(q, above);
}

static void rg__query_rebuild(rg_world *w);

/* Called when a shape is added to a body (rg_body_create's first one too) and by
   rg_body_set_transform: each shape of the body takes its box at the body's pose and its place
   in the tree (a new leaf, or the old one taken out and put back where it now fits best). */
static void rg__query_body_moved(rg_world *w, int body) {
    rg__query *q = &w->query;
    int index;
    while (stbds_arrlen(q->leaf) < stbds_arrlen(w->shapes)) stbds_arrput(q->leaf, -1);
    for (index = w->bodies[body].first_shape; index >= 0; index = w->shapes[index].next) {
        int leaf = q->leaf[index];
        if (leaf < 0) {
            leaf = rg__query_allocate(q);
            q->nodes[leaf].shape = index;
            q->leaf[index] = leaf;
            ++q->added;
        } else {
            rg__query_detach(q, leaf);
        }
        rg__query_shape_box(w, index, &q->nodes[leaf].lo, &q->nodes[leaf].hi);
        rg__query_attach(q, leaf);
    }
    if (q->leaf_count > 0 && (q->nodes[q->root].height > RG__QUERY_MAX_HEIGHT ||
                              (q->added >= RG__QUERY_REBUILD_ADDED && 2 * q->added >= q->leaf_count)))
        rg__query_rebuild(w);
}

/* Called by rg__shape_release before the shape's slot is freed. */
static void rg__query_remove_shape(rg_world *w, int shape) {
    rg__query *q = &w->query;
    int leaf = shape < (int)stbds_arrlen(q->leaf) ? q->leaf[shape] : -1;
    if (leaf < 0) return;
    rg__query_detach(q, leaf);
    stbds_arrput(q->free_nodes, leaf);
    q->leaf[shape] = -1;
}

/* Inner nodes marked dirty get their boxes from their children, children first (a walk of the
   dirty nodes only, each pushed twice: ~node to fit it once its children are done). */
static void rg__query_refit(rg__query *q) {
    if (!q->nodes[q->root].dirty) return;
    stbds_arrsetlen(q->stack, 0);
    stbds_arrput(q->stack, q->root);
    while (stbds_arrlen(q->stack) > 0) {
        int entry = stbds_arrpop(q->stack), node = entry < 0 ? ~entry : entry, k;
        if (entry < 0 || q->nodes[node].shape >= 0) {
            if (entry < 0) rg__query_fit(q, node);
            q->nodes[node].dirty = 0;
            continue;
        }
        stbds_arrput(q->stack, ~node);
        for (k = 0; k < 2; ++k)
            if (q->nodes[q->nodes[node].child[k]].dirty) stbds_arrput(q->stack, q->nodes[node].child[k]);
    }
}

/* Whether the tree has worn enough to be built again (see the section's head). */
static int rg__query_worn(const rg__query *q) {
    const rg__query_node *root = &q->nodes[q->root];
    double area = rg__mesh_half_area(root->lo, root->hi);
    if (q->leaf_count < 2) return 0;
    if (root->height > RG__QUERY_MAX_HEIGHT) return 1;
    return area > 0 && q->inner_area > RG__QUERY_REBUILD_GROWTH * q->built_cost * area;
}

static int rg__query_same_box(rg_vec3 lo, rg_vec3 hi, const rg__query_node *n) {
    return lo.x == n->lo.x && lo.y == n->lo.y && lo.z == n->lo.z && hi.x == n->hi.x && hi.y == n->hi.y &&
           hi.z == n->hi.z;
}

/* The fewest movers a worker boxes at once (>>task). */
#define RG__QUERY_BOXES_RANGE 256

/* The leaves of a moving body's shapes take their boxes at its new pose; a leaf whose box
   changed is marked dirty (its own node only: a task over movers, each writing its shapes'
   leaves). */
static void rg__query_box_mover(rg_world *w, int body) {
    rg__query *q = &w->query;
    rg_mat3 rotation;
    rg_vec3 origin;
    int index;
    rg__query_frame(&w->bodies[body], &rotation, &origin);
    for (index = w->bodies[body].first_shape; index >= 0; index = w->shapes[index].next) {
        rg__query_node *leaf;
        rg_vec3 lo, hi;
        RIGID_ASSERT(q->leaf[index] >= 0);
        leaf = &q->nodes[q->leaf[index]];
        rg__query_box_in_frame(&w->shapes[index], rotation, origin, &lo, &hi);
        if (rg__query_same_box(lo, hi, leaf)) continue;   /* at rest: nothing to refit */
        leaf->lo = lo;
        leaf->hi = hi;
        leaf->dirty = 1;
    }
}

static void rg__query_box_range(int start, int end, int worker, void *context) {
    rg_world *w = (rg_world *)context;
    int i;
    (void)worker;
    for (i = start; i < end; ++i) rg__query_box_mover(w, w->broadphase.movers[i]);
}

/* The end of rg_world_step: the kinematic and dynamic bodies' leaves take their boxes at the
   new poses, and the ancestors of those that changed are marked (the same marks in any order);
   the marked nodes are refitted; a worn tree is built again. */
static void rg__query_step(rg_world *w) {
    rg__query *q = &w->query;
    const int *movers = w->broadphase.movers;
    int i, n = (int)stbds_arrlen(movers), index, node;
    if (q->leaf_count == 0) return;
    rg__task_run(w, rg__query_box_range, n, RG__QUERY_BOXES_RANGE, w);
    for (i = 0; i < n; ++i)
        for (index = w->bodies[movers[i]].first_shape; index >= 0; index = w->shapes[index].next) {
            node = q->leaf[index];
            if (!q->nodes[node].dirty) continue;
            for (node = q->nodes[node].parent; node >= 0 && !q->nodes[node].dirty; node = q->nodes[node].parent)
                q->nodes[node].dirty = 1;
        }
    rg__query_refit(q);
    if (rg__query_worn(q)) rg__query_rebuild(w);
}

/* The tree's nodes for the builder's items order[first .. first + count): one leaf, or halves
   under a new inner node. */
static int rg__query_adopt_items(rg__query *q, int first, int count, int parent) {
    const rg__mesh_builder *b = &q->builder;
    int node = rg__query_allocate(q), half = count / 2;
    q->nodes[node].parent = parent;
    if (count == 1) {
        int item = b->order[first];
        q->nodes[node].lo = b->lo[item];
        q->nodes[node].hi = b->hi[item];
        q->nodes[node].shape = q->items[item];
        q->leaf[q->items[item]] = node;
        return node;
    }
    q->nodes[node].child[0] = rg__query_adopt_items(q, first, half, node);
    q->nodes[node].child[1] = rg__query_adopt_items(q, first + half, count - half, node);
    rg__query_fit(q, node);
    return node;
}

/* The tree's nodes for the builder's node `built` and below. */
static int rg__query_adopt(rg__query *q, int built, int parent) {
    rg__mesh_node m = q->builder.nodes[built];
    int node;
    if (m.count > 0) return rg__query_adopt_items(q, m.first, m.count, parent);
    node = rg__query_allocate(q);
    q->nodes[node].parent = parent;
    q->nodes[node].child[0] = rg__query_adopt(q, m.first, node);
    q->nodes[node].child[1] = rg__query_adopt(q, m.first + 1, node);
    rg__query_fit(q, node);
    return node;
}

/* The tree built again over the leaves' boxes, in shape order, by >>mesh.hierarchy's binned SAH;
   its cost becomes the measure of wear. */
static void rg__query_rebuild(rg_world *w) {
    rg__query *q = &w->query;
    rg__mesh_builder *b = &q->builder;
    rg__mesh_node root;
    int i, count, n = (int)stbds_arrlen(q->leaf);
    stbds_arrsetlen(q->items, 0);
    for (i = 0; i < n; ++i)
        if (q->leaf[i] >= 0) stbds_arrput(q->items, i);
    count = (int)stbds_arrlen(q->items);
    stbds_arrsetlen(b->lo, count);
    stbds_arrsetlen(b->hi, count);
    stbds_arrsetlen(b->center, count);
    stbds_arrsetlen(b->order, count);
    stbds_arrsetlen(b->scratch, count);
    for (i = 0; i < count; ++i) {
        const rg__query_node *leaf = &q->nodes[q->leaf[q->items[i]]];
        b->lo[i] = leaf->lo;
        b->hi[i] = leaf->hi;
        b->center[i] = rg_v3_scale(rg_v3_add(leaf->lo, leaf->hi), (rg_real)0.5);
        b->order[i] = i;
    }
    memset(&root, 0, sizeof root);
    stbds_arrsetlen(b->nodes, 0);
    stbds_arrput(b->nodes, root);
    rg__mesh_build_node(b, 0, 0, count, 0);
    stbds_arrsetlen(q->nodes, 0);
    stbds_arrsetlen(q->free_nodes, 0);
    q->inner_area = 0;
    q->root = rg__query_adopt(q, 0, -1);
    {
        double area = rg__mesh_half_area(q->nodes[q->root].lo, q->nodes[q->root].hi);
        q->built_cost = area > 0 ? q->inner_area / area : 0;
    }
    ++q->rebuilds;
    q->added = 0;
}

static void rg__query_destroy(rg_world *w) {
    rg__query *q = &w->query;
    stbds_arrfree(q->nodes);
    stbds_arrfree(q->free_nodes);
    stbds_arrfree(q->leaf);
    stbds_arrfree(q->stack);
    stbds_arrfree(q->items);
    rg__mesh_builder_free(&q->builder);
}

/* ---- >>query.filter: what a query sees, the answers kept in order --------------------------- */

RIGID_API rg_query_filter rg_query_default_filter(void) {
    rg_query_filter f;
    memset(&f, 0, sizeof f);
    f.category_bits = 1;
    f.mask_bits = 0xFFFFFFFFu;
    return f;
}

/* Box2D's rule: each side's category in the other's mask; sensors only when asked for; not the
   ignored body's shapes (a stale id ignores nothing). */
static int rg__query_sees(const rg_world *w, const rg_query_filter *f, int index) {
    const rg__shape *s = &w->shapes[index];
    if (!(f->mask_bits & s->category_bits) || !(s->mask_bits & f->category_bits)) return 0;
    if (s->is_sensor && !f->include_sensors) return 0;
    return !(f->ignore_body.generation != 0 && (int)f->ignore_body.index == s->body &&
             w->bodies[s->body].generation == f->ignore_body.generation);
}

typedef int (*rg__query_less)(const void *a, const void *b);

static void rg__query_swap(char *a, char *b, size_t size) {
    char t[sizeof(rg_ray_hit)];
    RIGID_ASSERT(size <= sizeof t);
    memcpy(t, a, size);
    memcpy(a, b, size);
    memcpy(b, t, size);
}

/* Max-heap of count items of size bytes: item i sinks below larger children. */
static void rg__query_sift_down(char *heap, int count, int i, size_t size, rg__query_less less) {
    for (;;) {
        int largest = i, k;
        for (k = 2 * i + 1; k <= 2 * i + 2 && k < count; ++k)
            if (less(heap + size * (size_t)largest, heap + size * (size_t)k)) largest = k;
        if (largest == i) return;
        rg__query_swap(heap + size * (size_t)i, heap + size * (size_t)largest, size);
        i = largest;
    }
}

/* The `capacity` least items seen so far, a max-heap in heap[0 .. *kept): item joins it while
   there is room, or replaces the largest when it is less. */
static void rg__query_keep(void *heap, int *kept, int capacity, const void *item, size_t size, rg__query_less less) {
    char *h = (char *)heap;
    int i = *kept;
    if (i < capacity) {
        memcpy(h + size * (size_t)i, item, size);
        ++*kept;
        for (; i > 0 && less(h + size * (size_t)((i - 1) / 2), h + size * (size_t)i); i = (i - 1) / 2)
            rg__query_swap(h + size * (size_t)((i - 1) / 2), h + size * (size_t)i, size);
    } else if (capacity > 0 && less(item, h)) {
        memcpy(h, item, size);
        rg__query_sift_down(h, capacity, 0, size, less);
    }
}

/* The heap sorted ascending (heapsort). */
static void rg__query_sort(void *heap, int count, size_t size, rg__query_less less) {
    char *h = (char *)heap;
    for (; count > 1; --count) {
        rg__query_swap(h, h + size * (size_t)(count - 1), size);
        rg__query_sift_down(h, count - 1, 0, size, less);
    }
}

static int rg__query_id_less(const void *a, const void *b) {
    return ((const rg_shape_id *)a)->index < ((const rg_shape_id *)b)->index;
}

static int rg__query_hit_less(const void *a, const void *b) {
    const rg_ray_hit *x = (const rg_ray_hit *)a, *y = (const rg_ray_hit *)b;
    return x->fraction < y->fraction || (x->fraction == y->fraction && x->shape.index < y->shape.index);
}

/* ---- >>query.overlap: shapes by box and by sphere -------------------------------------------- */

/* What an overlap query collects: the shapes seen, the `capacity` of lowest index kept. */
typedef struct rg__query_overlap {
    const rg_world *w;
    rg_query_filter filter;
    rg_vec3 lo, hi;               /* the query's box */
    rg_vec3 center;               /* overlap_sphere: the sphere */
    rg_real radius;               /* 0 for overlap_aabb */
    rg_shape_id *out;
    int capacity, kept, total;
} rg__query_overlap;

/* Whether the sphere touches mesh shape index (any triangle within the radius, either side). */
static int rg__query_sphere_touches_mesh(const rg__query_overlap *o, int index, const rg__narrowphase_body *pose) {
    const rg__shape *shape = &o->w->shapes[index];
    rg_vec3 c = rg__quat_rotate(rg_quat_conjugate(pose->rotation), rg_v3_sub(o->center, pose->origin));
    rg_vec3 r = rg_v3(o->radius, o->radius, o->radius);
    int near[64], *found = near, count, i, feature, touches = 0;
    count = rg__mesh_collect(shape->mesh, rg_v3_sub(c, r), rg_v3_add(c, r), NULL, near, 64);
    if (count > 64) {
        found = (int *)RIGID_MALLOC(sizeof(int) * (size_t)count, o->w->def.allocator_context);
        if (!found) return 0;
        rg__mesh_collect(shape->mesh, rg_v3_sub(c, r), rg_v3_add(c, r), NULL, found, count);
    }
    for (i = 0; i < count && !touches; ++i) {
        rg__triangle t;
        rg__narrowphase_triangle_of(shape, pose, found[i], &t);
        touches = rg_v3_length_squared(rg_v3_sub(o->center, rg__collide_triangle_closest(t.v, t.normal, o->center,
                                                                                          &feature))) <=
                  o->radius * o->radius;
    }
    if (found != near) RIGID_FREE(found, o->w->def.allocator_context);
    return touches;
}

/* Whether the sphere touches shape index: a manifold at margin 0 (depth >= 0), or a mesh's
   triangle within the radius. */
static int rg__query_sphere_touches(const rg__query_overlap *o, int index, const rg__narrowphase_body *pose) {
    const rg__shape *shape = &o->w->shapes[index];
    rg__convex sphere, other;
    rg_manifold m;
    if (shape->type == RG_SHAPE_MESH) return rg__query_sphere_touches_mesh(o, index, pose);
    memset(&sphere, 0, sizeof sphere);
    sphere.type = RG_SHAPE_SPHERE;
    sphere.p0 = sphere.p1 = o->center;
    sphere.radius = o->radius;
    rg__narrowphase_convex_of(shape, pose, &other);
    return rg__collide_convex(&sphere, &other, 0, NULL, NULL, &m) > 0;
}

/* A leaf whose box overlaps the query's: counted and kept when the filter lets it through and,
   for a sphere, when it touches. */
static void rg__query_overlap_leaf(rg__query_overlap *o, int index) {
    rg__narrowphase_body pose;
    rg_shape_id id;
    if (!rg__query_sees(o->w, &o->filter, index) || !rg__query_pose(&o->w->bodies[o->w->shapes[index].body], &pose))
        return;
    if (o->radius > 0 && !rg__query_sphere_touches(o, index, &pose)) return;
    id = rg__shape_id_of(o->w, index);
    ++o->total;
    rg__query_keep(o->out, &o->kept, o->capacity, &id, sizeof id, rg__query_id_less);
}

/* The leaves whose boxes overlap [lo, hi] (closed: touching counts), depth first. */
static int rg__query_overlap_walk(rg__query_overlap *o) {
    const rg__query *q = &o->w->query;
    int stack[RG__QUERY_STACK], top = 0;
    if (q->leaf_count > 0) stack[top++] = q->root;
    while (top > 0) {
        const rg__query_node *n = &q->nodes[stack[--top]];
        if (!rg__mesh_boxes_overlap(n->lo, n->hi, o->lo, o->hi)) continue;
        if (n->shape >= 0) {
            rg__query_overlap_leaf(o, n->shape);
            continue;
        }
        RIGID_ASSERT(top + 2 <= RG__QUERY_STACK);
        stack[top++] = n->child[1];
        stack[top++] = n->child[0];
    }
    rg__query_sort(o->out, o->kept, sizeof(rg_shape_id), rg__query_id_less);
    return o->total;
}

static int rg__query_overlap_start(rg__query_overlap *o, const rg_world *w, const rg_query_filter *filter,
                                   rg_shape_id *out, int capacity) {
    memset(o, 0, sizeof *o);
    o->w = w;
    o->filter = filter ? *filter : rg_query_default_filter();
    o->out = out;
    o->capacity = capacity;
    return w && capacity >= 0 && (out || capacity == 0);
}

RIGID_API int rg_world_overlap_aabb(const rg_world *w, rg_vec3 min, rg_vec3 max, const rg_query_filter *filter,
                                    rg_shape_id *out, int capacity) {
    rg__query_overlap o;
    if (!rg__query_overlap_start(&o, w, filter, out, capacity) || !rg__v3_is_sane(min) || !rg__v3_is_sane(max) ||
        !(min.x <= max.x && min.y <= max.y && min.z <= max.z))
        return 0;
    o.lo = min;
    o.hi = max;
    return rg__query_overlap_walk(&o);
}

RIGID_API int rg_world_overlap_sphere(const rg_world *w, rg_vec3 center, rg_real radius,
                                      const rg_query_filter *filter, rg_shape_id *out, int capacity) {
    rg__query_overlap o;
    if (!rg__query_overlap_start(&o, w, filter, out, capacity) || !rg__v3_is_sane(center) ||
        !rg__is_sane_real(radius) || !(radius > 0))
        return 0;
    o.center = center;
    o.radius = radius;
    o.lo = rg_v3_sub(center, rg_v3(radius, radius, radius));
    o.hi = rg_v3_add(center, rg_v3(radius, radius, radius));
    return rg__query_overlap_walk(&o);
}


/* ---- >>query.cast: rays and moving spheres --------------------------------------------------- */

/* A ray (radius 0) or sphere cast through the tree. */
typedef struct rg__query_cast {
    const rg_world *w;
    rg_query_filter filter;
    rg_vec3 origin, translation;
    rg_real radius;
    rg_real limit;                /* hits beyond it are not wanted: the best so far, or 1 for all */
    int all;                      /* every hit, or the closest */
    rg_ray_hit best;              /* the closest: the best so far */
    rg_ray_hit *hits;             /* every hit: the `capacity` closest, a max-heap while walking */
    int capacity, kept, total;
} rg__query_cast;

/* The cast against shape index at its body's current pose (>>cast), within the limit. */
static int rg__query_cast_shape(const rg__query_cast *c, int index, rg__cast_hit *hit) {
    const rg__shape *shape = &c->w->shapes[index];
    rg__narrowphase_body pose;
    rg__convex convex;
    if (!rg__query_pose(&c->w->bodies[shape->body], &pose)) return 0;
    if (shape->type == RG_SHAPE_MESH)
        return c->radius > 0 ? rg__cast_sphere_mesh(shape->mesh, pose.origin, pose.rotation, c->origin, c->radius,
                                                    c->translation, c->limit, hit, NULL)
                             : rg__cast_ray_mesh(shape->mesh, pose.origin, pose.rotation, c->origin, c->translation,
                                                 c->limit, hit, NULL);
    rg__narrowphase_convex_of(shape, &pose, &convex);
    return c->radius > 0 ? rg__cast_sphere_convex(&convex, c->origin, c->radius, c->translation, c->limit, hit)
                         : rg__cast_ray_convex(&convex, c->origin, c->translation, c->limit, hit);
}

/* A leaf the cast reaches: its hit kept (every hit) or taken when closer (equal: lower index). */
static void rg__query_cast_leaf(rg__query_cast *c, int index) {
    const rg__shape *shape = &c->w->shapes[index];
    rg__cast_hit hit;
    rg_ray_hit h;
    if (!rg__query_sees(c->w, &c->filter, index) || !rg__query_cast_shape(c, index, &hit)) return;
    h.body.index = (uint32_t)shape->body;
    h.body.generation = c->w->bodies[shape->body].generation;
    h.shape = rg__shape_id_of(c->w, index);
    h.point = hit.point;
    h.normal = hit.normal;
    h.fraction = hit.fraction;
    if (c->all) {
        ++c->total;
        rg__query_keep(c->hits, &c->kept, c->capacity, &h, sizeof h, rg__query_hit_less);
    } else if (c->total == 0 || rg__query_hit_less(&h, &c->best)) {
        c->best = h;
        c->limit = h.fraction;
        c->total = 1;
    }
}

/* The tree walked nearest box first (boxes grown by the radius and 16 epsilon of the coordinates,
   as >>cast's mesh walk: the boxes' and the shapes' tests round differently); a box entered
   beyond the limit is skipped. */
static void rg__query_cast_walk(rg__query_cast *c) {
    const rg__query *q = &c->w->query;
    int stack[RG__QUERY_STACK], top = 0;
    rg_real entries[RG__QUERY_STACK], grow;
    rg_vec3 o = c->origin, d = c->translation;
    if (q->leaf_count == 0) return;
    grow = c->radius + 16 * RG__EPSILON * (rg__max_real(rg__cast_max_abs(q->nodes[q->root].lo),
                                                        rg__cast_max_abs(q->nodes[q->root].hi)) +
                                           rg__cast_max_abs(o) + rg__cast_max_abs(d));
    if (!rg__cast_box(q->nodes[q->root].lo, q->nodes[q->root].hi, grow, o, d, c->limit, &entries[0])) return;
    stack[top++] = q->root;
    while (top > 0) {
        const rg__query_node *n;
        rg_real entry[2];
        int hit[2], first;
        --top;
        if (entries[top] > c->limit) continue;
        n = &q->nodes[stack[top]];
        if (n->shape >= 0) {
            rg__query_cast_leaf(c, n->shape);
            continue;
        }
        hit[0] = rg__cast_box(q->nodes[n->child[0]].lo, q->nodes[n->child[0]].hi, grow, o, d, c->limit, &entry[0]);
        hit[1] = rg__cast_box(q->nodes[n->child[1]].lo, q->nodes[n->child[1]].hi, grow, o, d, c->limit, &entry[1]);
        first = hit[0] && hit[1] && entry[1] < entry[0];   /* the nearer child is pushed last */
        RIGID_ASSERT(top + 2 <= RG__QUERY_STACK);
        if (hit[!first]) {
            stack[top] = n->child[!first];
            entries[top++] = entry[!first];
        }
        if (hit[first]) {
            stack[top] = n->child[first];
            entries[top++] = entry[first];
        }
    }
}

static int rg__query_cast_start(rg__query_cast *c, const rg_world *w, rg_vec3 origin, rg_real radius,
                                rg_vec3 translation, const rg_query_filter *filter) {
    memset(c, 0, sizeof *c);
    c->w = w;
    c->filter = filter ? *filter : rg_query_default_filter();
    c->origin = origin;
    c->translation = translation;
    c->radius = radius;
    c->limit = 1;
    return w && rg__v3_is_sane(origin) && rg__v3_is_sane(translation) && rg__cast_max_abs(translation) > 0 &&
           rg__is_sane_real(radius) && radius >= 0;
}

RIGID_API int rg_world_ray_cast(const rg_world *w, rg_vec3 origin, rg_vec3 translation, const rg_query_filter *filter,
                                rg_ray_hit *hit) {
    rg__query_cast c;
    if (hit) memset(hit, 0, sizeof *hit);
    if (!rg__query_cast_start(&c, w, origin, 0, translation, filter)) return 0;
    rg__query_cast_walk(&c);
    if (c.total && hit) *hit = c.best;
    return c.total;
}

RIGID_API int rg_world_ray_cast_all(const rg_world *w, rg_vec3 origin, rg_vec3 translation,
                                    const rg_query_filter *filter, rg_ray_hit *hits, int capacity) {
    rg__query_cast c;
    if (!rg__query_cast_start(&c, w, origin, 0, translation, filter) || capacity < 0 || (!hits && capacity > 0))
        return 0;
    c.all = 1;
    c.hits = hits;
    c.capacity = capacity;
    rg__query_cast_walk(&c);
    rg__query_sort(hits, c.kept, sizeof(rg_ray_hit), rg__query_hit_less);
    return c.total;
}

RIGID_API int rg_world_sphere_cast(const rg_world *w, rg_vec3 origin, rg_real radius, rg_vec3 translation,
                                   const rg_query_filter *filter, rg_ray_hit *hit) {
    rg__query_cast c;
    if (hit) memset(hit, 0, sizeof *hit);
    if (!rg__query_cast_start(&c, w, origin, radius, translation, filter) || !(radius > 0)) return 0;
    rg__query_cast_walk(&c);
    if (c.total && hit) *hit = c.best;
    return c.total;
}

/* =============================================================================================
   >>snapshot: the world's whole state in a buffer, and back (rollback)
   =============================================================================================

   A snapshot is the world struct as it is (every scalar: counts, free lists, the def's physical
   settings, stats, step_dt, the random state, the broad phase's cost model, the narrow phase's
   stamp...) followed by the contents of the stb_ds arrays the next step or a getter reads: whole
   arrays of structs copied as they are, so that a field added to a struct comes along. The
   arrays a step writes before it reads them (sort scratch, the solver's per-step records, the
   narrow phase's jobs and this step's poses) are not saved: the loading world keeps its own,
   which its step accepts as it accepted them before. Pointers in the saved image are replaced
   by the loading world's own arrays, which take the saved lengths and contents; the two hash
   maps are rebuilt by inserting their entries in array order, which gives the same array order
   and so the same entry indices (the narrow phase's hints keep such indices). Hulls, meshes and
   user data are saved as the pointers they are.

   The loading world keeps its allocator context, worker count, task callbacks and their
   context; everything else, gravity and iterations included, comes from the snapshot.

   Layout: a header (magic, format version, sizeof(rg_real), the build's fingerprint: a hash of
   sizeof(rg_world) and of the table below with the sizes of its elements, the total size, a
   checksum), the world image, then per array of the table its length and its elements; the
   narrow phase's cache adds each entry's shape pairs beyond its first. The checksum is a 64-bit
   multiply-xor chain (FNV-1a over 8-byte words, four lanes) over everything but itself: each
   step is a bijection of the lane's state, so any one changed word changes it. */

#define RG__SNAPSHOT_MAGIC 0x31504e5347444752ull  /* "RGDGSNP1" read little-endian */
#define RG__SNAPSHOT_VERSION 1u

enum {
    RG__SNAPSHOT_ARRAY,   /* an stb_ds array of state: saved */
    RG__SNAPSHOT_PAIRS,   /* the broad phase's pair set (stb_ds hash map of rg__pair_entry) */
    RG__SNAPSHOT_CACHE,   /* the narrow phase's pair caches (hash map of rg__pair_cache_entry, deep) */
    RG__SNAPSHOT_KEEP,    /* bytes the loading world keeps: scratch arrays, allocator, threads */
    RG__SNAPSHOT_VALUE    /* bytes within a KEEP region that come from the snapshot all the same */
};

typedef struct rg__snapshot_field {
    size_t offset;        /* in rg_world */
    size_t size;          /* arrays and maps: an element's; KEEP and VALUE: the region's */
    int kind;
} rg__snapshot_field;

#define RG__SNAPSHOT_OF(field, kind) { offsetof(rg_world, field), sizeof *((rg_world *)0)->field, kind }
#define RG__SNAPSHOT_REGION(field, kind) { offsetof(rg_world, field), sizeof ((rg_world *)0)->field, kind }

/* Every stb_ds pointer of rg_world is here, as state (ARRAY, PAIRS, CACHE) or inside a KEEP
   region: a pointer left out would be taken from the saved world. A new array is one line. */
static const rg__snapshot_field rg__snapshot_fields[] = {
    RG__SNAPSHOT_OF(bodies, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(shapes, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(joints, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_REGION(def.allocator_context, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(def.worker_count, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(def.enqueue_task, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(def.finish_task, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(def.user_task_context, RG__SNAPSHOT_KEEP),
    /* broad phase: the sweep's lists, boxes and pairs; its sorts' scratch */
    RG__SNAPSHOT_OF(broadphase.pairs, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(broadphase.fat_pairs, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(broadphase.pair_set, RG__SNAPSHOT_PAIRS),
    RG__SNAPSHOT_OF(broadphase.axes[0], RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(broadphase.axes[1], RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(broadphase.axes[2], RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(broadphase.bounds, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(broadphase.tight, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(broadphase.proxies, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(broadphase.movers, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(broadphase.pending, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(broadphase.dirty_statics, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(broadphase.removed, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(broadphase.touched, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_REGION(broadphase.key_scratch, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(broadphase.radix_keys, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(broadphase.radix_scratch, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(broadphase.endpoint_scratch, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(broadphase.pair_scratch, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(broadphase.sweep_boxes, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(broadphase.sweep_tags, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(broadphase.slab_start, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(broadphase.extents, RG__SNAPSHOT_KEEP),
    /* narrow phase: the last step's manifolds (warm starts), the pairs' caches and their
       entries' places (next_hints: the last step's, read by the next); the rest is the step's */
    RG__SNAPSHOT_OF(narrowphase.manifolds, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(narrowphase.cache, RG__SNAPSHOT_CACHE),
    RG__SNAPSHOT_OF(narrowphase.next_hints, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_REGION(narrowphase.previous, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(narrowphase.hints, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(narrowphase.bodies, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(narrowphase.keys, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(narrowphase.children, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(narrowphase.triangles, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(narrowphase.scratch, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(narrowphase.jobs, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(narrowphase.worker_scratch, RG__SNAPSHOT_KEEP),
    /* queries: the tree; the refit's stack and the rebuild's arrays are scratch */
    RG__SNAPSHOT_OF(query.nodes, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(query.free_nodes, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(query.leaf, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_REGION(query.stack, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(query.items, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(query.builder, RG__SNAPSHOT_KEEP),
    /* solver: rebuilt by every step (rg__prepare) but for the random state, the sweep counter
       and the last step's contacts */
    RG__SNAPSHOT_REGION(solver, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(solver.random_state, RG__SNAPSHOT_VALUE),
    RG__SNAPSHOT_REGION(solver.sweep, RG__SNAPSHOT_VALUE),
    RG__SNAPSHOT_OF(solver.report, RG__SNAPSHOT_ARRAY),
    /* events: the sets carried from step to step and the last step's events */
    RG__SNAPSHOT_OF(events.touching, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(events.overlapping, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(events.destroyed, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(events.destroyed_sensed, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(events.begins, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(events.ends, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(events.sensor_begins, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_OF(events.sensor_ends, RG__SNAPSHOT_ARRAY),
    RG__SNAPSHOT_REGION(events.approach, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(events.moves, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(events.touches, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(events.touch_scratch, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(events.pairs, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(events.pair_scratch, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(events.kept, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(events.ended, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(events.sensor_bodies, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(events.kinematic, RG__SNAPSHOT_KEEP),
    RG__SNAPSHOT_REGION(events.has_sensor, RG__SNAPSHOT_KEEP)
};
#define RG__SNAPSHOT_FIELD_COUNT ((int)(sizeof rg__snapshot_fields / sizeof rg__snapshot_fields[0]))

typedef struct rg__snapshot_header {
    uint64_t magic;
    uint32_t version;
    uint32_t real_size;           /* sizeof(rg_real) */
    uint64_t fingerprint;         /* rg__snapshot_fingerprint */
    uint64_t size;                /* the whole snapshot, header included */
    uint64_t checksum;            /* rg__snapshot_checksum of everything else */
} rg__snapshot_header;

/* A write or read position in a snapshot; `out` NULL only counts. */
typedef struct rg__snapshot_stream {
    unsigned char *out;
    const unsigned char *in;
    size_t at, size;
    int ok;                       /* reading: every length so far fitted in `size` */
} rg__snapshot_stream;

static uint64_t rg__snapshot_mix(uint64_t h, uint64_t word) { return (h ^ word) * 1099511628211ull; }

/* The build's layout: a snapshot loads only where every saved struct has the same size and
   every field the same place. */
static uint64_t rg__snapshot_fingerprint(void) {
    uint64_t h = 14695981039346656037ull;
    int i;
    h = rg__snapshot_mix(h, sizeof(rg_world));
    h = rg__snapshot_mix(h, sizeof(rg_real));
    h = rg__snapshot_mix(h, sizeof(rg__shape_pair_cache));
    for (i = 0; i < RG__SNAPSHOT_FIELD_COUNT; ++i) {
        h = rg__snapshot_mix(h, rg__snapshot_fields[i].offset);
        h = rg__snapshot_mix(h, rg__snapshot_fields[i].size);
        h = rg__snapshot_mix(h, (uint64_t)rg__snapshot_fields[i].kind);
    }
    return h;
}

/* Four FNV-1a lanes over 8-byte words (read with memcpy: the buffer may be unaligned), the
   tail byte by byte, the lanes chained at the end. */
static uint64_t rg__snapshot_checksum_of(uint64_t h, const unsigned char *p, size_t n) {
    uint64_t lane[4];
    size_t i = 0;
    int k;
    for (k = 0; k < 4; ++k) lane[k] = rg__snapshot_mix(h, (uint64_t)k);
    for (; i + 32 <= n; i += 32) {
        for (k = 0; k < 4; ++k) {
            uint64_t word;
            memcpy(&word, p + i + 8 * (size_t)k, 8);
            lane[k] = rg__snapshot_mix(lane[k], word);
        }
    }
    for (; i < n; ++i) lane[0] = rg__snapshot_mix(lane[0], p[i]);
    for (k = 0; k < 4; ++k) h = rg__snapshot_mix(h, lane[k]);
    return rg__snapshot_mix(h, (uint64_t)n);
}

/* The header's fields before the checksum, then everything after the header. */
static uint64_t rg__snapshot_checksum(const unsigned char *buffer, size_t size) {
    uint64_t h = rg__snapshot_checksum_of(14695981039346656037ull, buffer, offsetof(rg__snapshot_header, checksum));
    return rg__snapshot_checksum_of(h, buffer + sizeof(rg__snapshot_header), size - sizeof(rg__snapshot_header));
}

static void rg__snapshot_put(rg__snapshot_stream *s, const void *data, size_t n) {
    if (s->out && n > 0) memcpy(s->out + s->at, data, n);
    s->at += n;
}

static void rg__snapshot_put_length(rg__snapshot_stream *s, size_t n) {
    uint64_t length = (uint64_t)n;
    rg__snapshot_put(s, &length, sizeof length);
}

/* An stb_ds array (or a hash map's entries) of field i: its length, then its elements. */
static void *rg__snapshot_array_of(const rg_world *w, int i) {
    void *a;
    memcpy(&a, (const char *)w + rg__snapshot_fields[i].offset, sizeof a);
    return a;
}

static size_t rg__snapshot_length_of(const rg_world *w, int i) {
    void *a = rg__snapshot_array_of(w, i);
    /* a hash map's first slot (index -1) is its default value, not an entry */
    if (rg__snapshot_fields[i].kind == RG__SNAPSHOT_PAIRS || rg__snapshot_fields[i].kind == RG__SNAPSHOT_CACHE)
        return a ? stbds_header((char *)a - rg__snapshot_fields[i].size)->length - 1 : 0;
    return a ? stbds_header(a)->length : 0;
}

/* The world into a stream: the image, then the arrays of the table in its order. */
static void rg__snapshot_write(const rg_world *w, rg__snapshot_stream *s) {
    int i;
    rg__snapshot_put(s, w, sizeof *w);
    for (i = 0; i < RG__SNAPSHOT_FIELD_COUNT; ++i) {
        const rg__snapshot_field *f = &rg__snapshot_fields[i];
        size_t n;
        if (f->kind == RG__SNAPSHOT_KEEP || f->kind == RG__SNAPSHOT_VALUE) continue;
        n = rg__snapshot_length_of(w, i);
        rg__snapshot_put_length(s, n);
        rg__snapshot_put(s, rg__snapshot_array_of(w, i), n * f->size);
        if (f->kind == RG__SNAPSHOT_CACHE) {
            const rg__pair_cache_entry *cache = (const rg__pair_cache_entry *)rg__snapshot_array_of(w, i);
            size_t k;
            for (k = 0; k < n; ++k) {
                size_t more = (size_t)stbds_arrlen(cache[k].value.more);
                rg__snapshot_put_length(s, more);
                rg__snapshot_put(s, cache[k].value.more, more * sizeof *cache[k].value.more);
            }
        }
    }
}

/* Reading: a length whose elements fit in what is left, or ok = 0. */
static size_t rg__snapshot_take_length(rg__snapshot_stream *s, size_t element) {
    uint64_t length;
    if (!s->ok || s->size - s->at < sizeof length) { s->ok = 0; return 0; }
    memcpy(&length, s->in + s->at, sizeof length);
    s->at += sizeof length;
    if (length > (uint64_t)(s->size - s->at) / element || length > (uint64_t)INT32_MAX) { s->ok = 0; return 0; }
    return (size_t)length;
}

static const unsigned char *rg__snapshot_take(rg__snapshot_stream *s, size_t n) {
    const unsigned char *p = s->in + s->at;
    s->at += n;   /* callers checked n against what is left (rg__snapshot_take_length) */
    return p;
}

/* Whether a buffer is a snapshot this build can load: header, checksum, and lengths that add up
   to exactly its size. Reads only. */
static int rg__snapshot_is_valid(const void *buffer, size_t size) {
    rg__snapshot_header header;
    rg__snapshot_stream s;
    int i;
    if (!buffer || size < sizeof header + sizeof(rg_world)) return 0;
    memcpy(&header, buffer, sizeof header);
    if (header.magic != RG__SNAPSHOT_MAGIC || header.version != RG__SNAPSHOT_VERSION ||
        header.real_size != sizeof(rg_real) || header.fingerprint != rg__snapshot_fingerprint() ||
        header.size > (uint64_t)size || header.size < sizeof header + sizeof(rg_world))
        return 0;
    if (rg__snapshot_checksum((const unsigned char *)buffer, (size_t)header.size) != header.checksum) return 0;
    memset(&s, 0, sizeof s);
    s.in = (const unsigned char *)buffer;
    s.size = (size_t)header.size;
    s.at = sizeof header + sizeof(rg_world);
    s.ok = 1;
    for (i = 0; i < RG__SNAPSHOT_FIELD_COUNT && s.ok; ++i) {
        const rg__snapshot_field *f = &rg__snapshot_fields[i];
        size_t n, k;
        const unsigned char *entries;
        if (f->kind == RG__SNAPSHOT_KEEP || f->kind == RG__SNAPSHOT_VALUE) continue;
        n = rg__snapshot_take_length(&s, f->size);
        entries = rg__snapshot_take(&s, n * f->size);
        (void)entries;
        if (f->kind == RG__SNAPSHOT_CACHE)
            for (k = 0; k < n && s.ok; ++k) {
                size_t more = rg__snapshot_take_length(&s, sizeof(rg__shape_pair_cache));
                (void)rg__snapshot_take(&s, more * sizeof(rg__shape_pair_cache));
            }
    }
    return s.ok && s.at == s.size;
}

/* Field i's array of the world, its stb_ds pointer set to `a`. */
static void rg__snapshot_set_array(rg_world *w, int i, void *a) {
    memcpy((char *)w + rg__snapshot_fields[i].offset, &a, sizeof a);
}

/* An stb_ds array of n elements of `size` bytes from p, in the array a (grown if need be). */
static void *rg__snapshot_fill_array(void *a, size_t size, size_t n, const unsigned char *p) {
    stbds_array_header *header;
    if (n == 0 && !a) return NULL;
    if (!a || stbds_header(a)->capacity < n) a = stbds_arrgrowf(a, size, 0, n);
    header = (stbds_array_header *)a - 1;
    header->length = n;
    if (n > 0) memcpy(a, p, n * size);
    return a;
}

/* The broad phase's pair set, inserted again in the saved order. */
static rg__pair_entry *rg__snapshot_fill_pairs(rg__pair_entry *set, size_t n, const unsigned char *p) {
    size_t k;
    stbds_hmfree(set);
    for (k = 0; k < n; ++k) {
        rg__pair_entry e;
        memcpy(&e, p + k * sizeof e, sizeof e);
        stbds_hmput(set, e.key, e.value);
    }
    return set;
}

/* The narrow phase's caches, inserted again in the saved order, each with copies of its shape
   pairs beyond the first. */
static rg__pair_cache_entry *rg__snapshot_fill_cache(rg__pair_cache_entry *cache, size_t n, rg__snapshot_stream *s) {
    const unsigned char *entries = rg__snapshot_take(s, n * sizeof *cache);
    ptrdiff_t i;
    size_t k;
    for (i = 0; i < stbds_hmlen(cache); ++i) stbds_arrfree(cache[i].value.more);
    stbds_hmfree(cache);
    for (k = 0; k < n; ++k) {
        rg__pair_cache_entry e;
        size_t more = rg__snapshot_take_length(s, sizeof *e.value.more);
        memcpy(&e, entries + k * sizeof e, sizeof e);
        e.value.more = (rg__shape_pair_cache *)rg__snapshot_fill_array(NULL, sizeof *e.value.more, more,
                                                                        rg__snapshot_take(s, more * sizeof *e.value.more));
        stbds_hmput(cache, e.key, e.value);
    }
    return cache;
}

/* Makes w the saved world, from a buffer rg__snapshot_is_valid accepted. */
static void rg__snapshot_read(rg_world *w, const unsigned char *buffer) {
    const unsigned char *image = buffer + sizeof(rg__snapshot_header);
    rg__snapshot_header header;
    rg__snapshot_stream s;
    rg_world old = *w;
    int i;
    memcpy(&header, buffer, sizeof header);
    memcpy(w, image, sizeof *w);
    for (i = 0; i < RG__SNAPSHOT_FIELD_COUNT; ++i) {
        const rg__snapshot_field *f = &rg__snapshot_fields[i];
        if (f->kind == RG__SNAPSHOT_KEEP) memcpy((char *)w + f->offset, (const char *)&old + f->offset, f->size);
        else if (f->kind != RG__SNAPSHOT_VALUE) rg__snapshot_set_array(w, i, rg__snapshot_array_of(&old, i));
    }
    for (i = 0; i < RG__SNAPSHOT_FIELD_COUNT; ++i) {
        const rg__snapshot_field *f = &rg__snapshot_fields[i];
        if (f->kind == RG__SNAPSHOT_VALUE) memcpy((char *)w + f->offset, image + f->offset, f->size);
    }
    memset(&s, 0, sizeof s);
    s.in = buffer;
    s.size = (size_t)header.size;
    s.at = sizeof header + sizeof *w;
    s.ok = 1;
    for (i = 0; i < RG__SNAPSHOT_FIELD_COUNT; ++i) {
        const rg__snapshot_field *f = &rg__snapshot_fields[i];
        size_t n;
        void *a;
        if (f->kind == RG__SNAPSHOT_KEEP || f->kind == RG__SNAPSHOT_VALUE) continue;
        n = rg__snapshot_take_length(&s, f->size);
        a = rg__snapshot_array_of(w, i);
        if (f->kind == RG__SNAPSHOT_ARRAY)
            a = rg__snapshot_fill_array(a, f->size, n, rg__snapshot_take(&s, n * f->size));
        else if (f->kind == RG__SNAPSHOT_PAIRS)
            a = rg__snapshot_fill_pairs((rg__pair_entry *)a, n, rg__snapshot_take(&s, n * f->size));
        else
            a = rg__snapshot_fill_cache((rg__pair_cache_entry *)a, n, &s);
        rg__snapshot_set_array(w, i, a);
    }
    RIGID_ASSERT(s.ok && s.at == s.size);
}

RIGID_API size_t rg_world_snapshot_size(const rg_world *w) {
    rg__snapshot_stream s;
    if (!w) return 0;
    memset(&s, 0, sizeof s);
    s.at = sizeof(rg__snapshot_header);
    rg__snapshot_write(w, &s);
    return s.at;
}

RIGID_API rg_result rg_world_snapshot_save(const rg_world *w, void *buffer, size_t size) {
    rg__snapshot_header header;
    rg__snapshot_stream s;
    size_t needed = rg_world_snapshot_size(w);
    if (!w || !buffer || size < needed) return RG_ERR_INVALID_ARGUMENT;
    memset(&s, 0, sizeof s);
    s.out = (unsigned char *)buffer;
    s.at = sizeof header;
    rg__snapshot_write(w, &s);
    memset(&header, 0, sizeof header);
    header.magic = RG__SNAPSHOT_MAGIC;
    header.version = RG__SNAPSHOT_VERSION;
    header.real_size = (uint32_t)sizeof(rg_real);
    header.fingerprint = rg__snapshot_fingerprint();
    header.size = (uint64_t)needed;
    memcpy(buffer, &header, sizeof header);
    header.checksum = rg__snapshot_checksum((const unsigned char *)buffer, needed);
    memcpy(buffer, &header, sizeof header);
    return RG_OK;
}

RIGID_API rg_result rg_world_snapshot_load(rg_world *w, const void *buffer, size_t size) {
    if (!w || !rg__snapshot_is_valid(buffer, size)) return RG_ERR_INVALID_ARGUMENT;
    rg__snapshot_read(w, (const unsigned char *)buffer);
    return RG_OK;
}

/* =============================================================================================
   >>draw: debug draw: shapes as triangles, contacts, impulses and boxes through callbacks
   =============================================================================================

   Everything is drawn in world space from the bodies' current poses: a shape's point x in its
   body's frame is at origin + R x, origin = com - R local_com (as rg_body_position). Spheres and
   capsules are polyhedra inscribed in them (every vertex on the surface, so a drawn ball never
   pokes through what it rests on), N = RG__DRAW_SEGMENTS around the axis and N / 4 rings from a
   pole to the equator. The shortfall shrinks as 1 / N^2: the sphere's area is 1.42% short at
   N = 24 (0.80% at 32), its volume 2.8% (1.6%); a capsule's cylinder 1 - (N / pi) sin(pi / N),
   0.29%. The contract asks for 2%. */

#define RG__DRAW_SEGMENTS 24                       /* around the axis; a multiple of 4 */
#define RG__DRAW_RINGS (RG__DRAW_SEGMENTS / 4)     /* from a pole to the equator */

/* The world frame of a body's shapes: its origin and rotation. */
typedef struct rg__draw_frame {
    rg_vec3 origin;
    rg_quat rotation;
} rg__draw_frame;

static rg_vec3 rg__draw_place(const rg__draw_frame *f, rg_vec3 p) {
    return rg_v3_add(f->origin, rg__quat_rotate(f->rotation, p));
}

static uint32_t rg__draw_body_color(const rg__body *body) {
    if (body->type == RG_BODY_STATIC) return RG_DEBUG_COLOR_STATIC;
    return body->type == RG_BODY_KINEMATIC ? RG_DEBUG_COLOR_KINEMATIC : RG_DEBUG_COLOR_DYNAMIC;
}

/* A sensor is its body's colour at half brightness, channel by channel. */
static uint32_t rg__draw_shape_color(const rg__body *body, const rg__shape *shape) {
    uint32_t rgb = rg__draw_body_color(body);
    return shape->is_sensor ? (rgb >> 1) & 0x7F7F7Fu : rgb;
}

/* Each face of the hull as a fan from its first vertex: the face is a convex polygon
   counter-clockwise from outside, so every triangle of the fan is too. */
static void rg__draw_hull(const rg_debug_draw *d, const rg_hull *h, const rg__draw_frame *f, uint32_t rgb) {
    int face, k;
    for (face = 0; face < h->face_count; ++face) {
        const int *v = h->face_vertices + h->faces[face].first;
        rg_vec3 first = rg__draw_place(f, h->vertices[v[0]]), previous = rg__draw_place(f, h->vertices[v[1]]);
        for (k = 2; k < h->faces[face].count; ++k) {
            rg_vec3 next = rg__draw_place(f, h->vertices[v[k]]);
            d->triangle(first, previous, next, rgb, d->context);
            previous = next;
        }
    }
}

static void rg__draw_mesh(const rg_debug_draw *d, const rg_mesh *mesh, const rg__draw_frame *f, uint32_t rgb) {
    int t;
    for (t = 0; t < mesh->triangle_count; ++t) {
        const int *v = mesh->indices + 3 * t;
        d->triangle(rg__draw_place(f, mesh->vertices[v[0]]), rg__draw_place(f, mesh->vertices[v[1]]),
                    rg__draw_place(f, mesh->vertices[v[2]]), rgb, d->context);
    }
}

/* A sphere or capsule in its body's frame: the segment p0 -> p1 (a point for a sphere), its unit
   axis and two unit vectors across it with u x v = axis. */
typedef struct rg__draw_round {
    rg_vec3 p0, p1, axis, u, v;
    rg_real radius;
    int rings;                    /* 2 RG__DRAW_RINGS + 1 for a sphere, + 2 for a capsule */
    rg_real cos_around[RG__DRAW_SEGMENTS], sin_around[RG__DRAW_SEGMENTS];
    rg_real cos_up[RG__DRAW_RINGS + 1], sin_up[RG__DRAW_RINGS + 1];
} rg__draw_round;

/* The frame across the axis: u from the coordinate axis least along it, v = axis x u. */
static void rg__draw_round_frame(rg__draw_round *r, const rg__shape *shape) {
    rg_vec3 seed = rg_v3(0, 0, 0), along = rg_v3_sub(shape->p1, shape->p0);
    int k;
    r->p0 = shape->p0;
    r->p1 = shape->p1;
    r->radius = shape->radius;
    r->axis = rg_v3_normalize(along);
    r->rings = 2 * RG__DRAW_RINGS + 2;
    if (shape->type == RG_SHAPE_SPHERE || (r->axis.x == 0 && r->axis.y == 0 && r->axis.z == 0)) {
        r->p1 = r->p0;
        r->axis = rg_v3(0, 1, 0);  /* the body's y axis: the grid turns with the body */
        r->rings = 2 * RG__DRAW_RINGS + 1;
    }
    k = rg__fabs(r->axis.x) <= rg__fabs(r->axis.y) && rg__fabs(r->axis.x) <= rg__fabs(r->axis.z) ? 0
        : rg__fabs(r->axis.y) <= rg__fabs(r->axis.z) ? 1 : 2;
    if (k == 0) seed.x = 1;
    else if (k == 1) seed.y = 1;
    else seed.z = 1;
    r->u = rg_v3_normalize(rg_v3_cross(r->axis, seed));
    r->v = rg_v3_cross(r->axis, r->u);
    for (k = 0; k < RG__DRAW_SEGMENTS; ++k) {
        rg_real phi = 2 * RG__PI * (rg_real)k / RG__DRAW_SEGMENTS;
        r->cos_around[k] = rg__cos(phi);
        r->sin_around[k] = rg__sin(phi);
    }
    for (k = 0; k <= RG__DRAW_RINGS; ++k) {
        rg_real theta = (RG__PI / 2) * (rg_real)k / RG__DRAW_RINGS;
        r->cos_up[k] = k == RG__DRAW_RINGS ? 0 : rg__cos(theta);
        r->sin_up[k] = k == 0 ? 0 : rg__sin(theta);
    }
}

/* Ring j's points in the world: rings 0 .. RG__DRAW_RINGS go from p0's pole (-axis) to its
   equator, the rest from p1's equator (a capsule's repeats the equator, making the cylinder) to
   its pole. Returns 1 for a pole (a single point). */
static int rg__draw_ring(const rg__draw_round *r, const rg__draw_frame *f, int j, rg_vec3 *out) {
    rg_vec3 center = r->p0;
    rg_real along, across;
    int i, k = j;
    if (j <= RG__DRAW_RINGS) {
        along = -r->cos_up[k];
        across = r->sin_up[k];
    } else {
        k = j - (r->rings - 1 - RG__DRAW_RINGS);   /* 0 at p1's equator .. RG__DRAW_RINGS at its pole */
        center = r->p1;
        along = r->sin_up[k];
        across = r->cos_up[k];
    }
    for (i = 0; i < RG__DRAW_SEGMENTS; ++i) {
        rg_vec3 out_dir = rg_v3_add(rg_v3_scale(r->u, r->cos_around[i]), rg_v3_scale(r->v, r->sin_around[i]));
        rg_vec3 direction = rg_v3_add(rg_v3_scale(r->axis, along), rg_v3_scale(out_dir, across));
        out[i] = rg__draw_place(f, rg_v3_add(center, rg_v3_scale(direction, r->radius)));
    }
    return across == 0;
}

/* Bands between consecutive rings, two triangles a quadrilateral (one at a pole). Seen from
   outside, i runs counter-clockwise about the axis (u x v = axis) and j up it, so
   (j, i) (j, i+1) (j+1, i+1) is counter-clockwise. */
static void rg__draw_round_shape(const rg_debug_draw *d, const rg__shape *shape, const rg__draw_frame *f, uint32_t rgb) {
    rg__draw_round r;
    rg_vec3 ring_a[RG__DRAW_SEGMENTS], ring_b[RG__DRAW_SEGMENTS], *low = ring_a, *high = ring_b, *swap;
    int j, i, low_pole, high_pole;
    rg__draw_round_frame(&r, shape);
    low_pole = rg__draw_ring(&r, f, 0, low);
    for (j = 0; j + 1 < r.rings; ++j) {
        high_pole = rg__draw_ring(&r, f, j + 1, high);
        for (i = 0; i < RG__DRAW_SEGMENTS; ++i) {
            int next = (i + 1) % RG__DRAW_SEGMENTS;
            if (!low_pole) d->triangle(low[i], low[next], high[next], rgb, d->context);
            if (!high_pole) d->triangle(low[i], high[next], high[i], rgb, d->context);
        }
        swap = low;
        low = high;
        high = swap;
        low_pole = high_pole;
    }
}

static void rg__draw_shapes(const rg_world *w, const rg_debug_draw *d) {
    int b, s, count = (int)stbds_arrlen(w->bodies);
    for (b = 0; b < count; ++b) {
        const rg__body *body = &w->bodies[b];
        rg__draw_frame frame;
        if (!(body->generation & 1)) continue;
        frame.rotation = body->orientation;
        frame.origin = rg_v3_sub(body->com, rg__quat_rotate(body->orientation, body->local_com));
        for (s = body->first_shape; s >= 0; s = w->shapes[s].next) {
            const rg__shape *shape = &w->shapes[s];
            uint32_t rgb = rg__draw_shape_color(body, shape);
            if (shape->type == RG_SHAPE_HULL) {
                rg__draw_frame placed = frame;
                if (shape->placed) {
                    placed.origin = rg__draw_place(&frame, shape->position);
                    placed.rotation = rg__quat_mul(frame.rotation, shape->orientation);
                }
                rg__draw_hull(d, shape->hull, &placed, rgb);
            } else if (shape->type == RG_SHAPE_MESH) {
                rg__draw_mesh(d, shape->mesh, &frame, rgb);
            } else {
                rg__draw_round_shape(d, shape, &frame, rgb);
            }
        }
    }
}

/* Each joint at its bodies' current poses: its anchors as points, and the lines from a's centre
   of mass to its anchor, on to b's anchor and to b's centre of mass (not for the world). */
static void rg__draw_joints(const rg_world *w, const rg_debug_draw *d) {
    int i, n = (int)stbds_arrlen(w->joints);
    for (i = 0; i < n; ++i) {
        const rg__joint *j = &w->joints[i];
        rg__joint_frame f;
        if (!(j->generation & 1)) continue;
        rg__joint_frame_of(w, j, &f);
        if (d->point) {
            d->point(f.anchor_a, d->point_size, RG_DEBUG_COLOR_JOINT, d->context);
            d->point(f.anchor_b, d->point_size, RG_DEBUG_COLOR_JOINT, d->context);
        }
        if (!d->line) continue;
        d->line(w->bodies[j->a].com, f.anchor_a, RG_DEBUG_COLOR_JOINT, d->context);
        d->line(f.anchor_a, f.anchor_b, RG_DEBUG_COLOR_JOINT, d->context);
        if (j->b >= 0) d->line(f.anchor_b, w->bodies[j->b].com, RG_DEBUG_COLOR_JOINT, d->context);
    }
}

/* The last step's contacts (those rg_world_contacts reports): a point and its normal, and the
   normal impulse applied on a as a line along the normal. */
static void rg__draw_contacts(const rg_world *w, const rg_debug_draw *d) {
    int i, n = (int)stbds_arrlen(w->solver.report);
    for (i = 0; i < n; ++i) {
        const rg_contact *c = &w->solver.report[i];
        if (!rg_body_is_valid(w, c->a) || !rg_body_is_valid(w, c->b)) continue;
        if (d->draw_contacts) {
            if (d->point) d->point(c->point, d->point_size, RG_DEBUG_COLOR_CONTACT, d->context);
            if (d->line)
                d->line(c->point, rg_v3_madd(c->point, c->normal, d->normal_length), RG_DEBUG_COLOR_NORMAL, d->context);
        }
        if (d->draw_impulses && d->line && c->normal_impulse > 0)
            d->line(c->point, rg_v3_madd(c->point, c->normal, c->normal_impulse * d->impulse_scale),
                    RG_DEBUG_COLOR_IMPULSE, d->context);
    }
}

/* The 12 edges of each body's box: from each corner, along each axis whose bit it lacks. */
static void rg__draw_aabbs(const rg_world *w, const rg_debug_draw *d) {
    int b, k, axis, count = (int)stbds_arrlen(w->bodies);
    for (b = 0; b < count; ++b) {
        const rg__body *body = &w->bodies[b];
        rg_vec3 corner[8];
        if (!(body->generation & 1)) continue;
        for (k = 0; k < 8; ++k)
            corner[k] = rg_v3(k & 1 ? body->aabb_max.x : body->aabb_min.x, k & 2 ? body->aabb_max.y : body->aabb_min.y,
                              k & 4 ? body->aabb_max.z : body->aabb_min.z);
        for (k = 0; k < 8; ++k)
            for (axis = 1; axis < 8; axis <<= 1)
                if (!(k & axis)) d->line(corner[k], corner[k | axis], RG_DEBUG_COLOR_AABB, d->context);
    }
}

RIGID_API rg_debug_draw rg_debug_draw_default(void) {
    rg_debug_draw d;
    memset(&d, 0, sizeof d);
    d.draw_shapes = 1;
    d.draw_joints = 1;
    d.point_size = (rg_real)0.05;
    d.normal_length = (rg_real)0.25;
    d.impulse_scale = (rg_real)0.01;
    return d;
}

RIGID_API void rg_world_draw(const rg_world *w, const rg_debug_draw *draw) {
    if (!w || !draw) return;
    if (draw->draw_shapes && draw->triangle) rg__draw_shapes(w, draw);
    if (draw->draw_joints) rg__draw_joints(w, draw);
    if (draw->draw_contacts || draw->draw_impulses) rg__draw_contacts(w, draw);
    if (draw->draw_aabbs && draw->line) rg__draw_aabbs(w, draw);
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
