/* Impacts of a face: a unit cube hitting a wall (or the ground) flat. Every point of the face
   collides at once, and the symmetric answer is exact: restitution 0 leaves the cube still on
   the wall, neither rebounding nor sliding nor turning. Resolved point by point, the face's
   corners take their impulses one after the other and the collision loop stops at its tolerance
   (a part of the approach speed) with an error that depends on their order: the cube left the
   wall at 1.7 cm/s and spinning at 0.04 rad/s after a 100 m/s impact. Default world, dt = 1/60,
   restitution 0 on both bodies, friction 0.5. */
#include "test.h"

#include <math.h>

#define DT (1.0 / 60)

/* What a cube does after an impact, the largest over the steps after it: speed away from the
   surface (against the approach), speed along it, angular speed; `ran` when the scene was made
   and stepped. */
typedef struct impact_after {
    double rebound, sideways, spin;
    int ran;
} impact_after;

static double impact_length(rg_vec3 v) { return sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z); }

static double impact_dot(rg_vec3 a, rg_vec3 b) { return (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z; }

/* Records the cube's motion once its speed along the normal n (towards the surface) has fallen
   below half of v0: the impact has happened. */
static void impact_record(const rg_world *w, rg_body_id cube, rg_vec3 n, double v0, impact_after *after) {
    rg_vec3 v = rg_body_linear_velocity(w, cube);
    double vn = impact_dot(v, n), side2;
    if (vn > v0 / 2) return;
    side2 = impact_dot(v, v) - vn * vn;
    after->rebound = fmax(after->rebound, -vn);
    after->sideways = fmax(after->sideways, sqrt(fmax(side2, 0)));
    after->spin = fmax(after->spin, impact_length(rg_body_angular_velocity(w, cube)));
}

/* A unit cube flying at v0 along q's x axis (plus `tangential` along its y axis), without
   gravity, into a static wall of half extents (0.5, 20, 20) 10 m ahead, both turned by q, the
   cube further by `turn` (identity: face on). 240 steps; the speed along the wall is part of the
   sideways speed after the impact. */
static void impact_wall(double v0, double tangential, rg_quat q, rg_quat turn, impact_after *after) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w;
    rg_hull *wall = rg_hull_create_box(rg_v3(0.5f, 20, 20), NULL), *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_vec3 ex = rg_quat_rotate(q, rg_v3(1, 0, 0)), ey = rg_quat_rotate(q, rg_v3(0, 1, 0));
    rg_body_def bd;
    rg_body_id id;
    int i;
    after->rebound = after->sideways = after->spin = 0;
    after->ran = 0;
    wd.gravity = rg_v3(0, 0, 0);
    w = rg_world_create(&wd, NULL);
    ENSURE(w && wall && cube);
    bd = rg_body_default_def();
    bd.type = RG_BODY_STATIC;
    bd.hull = wall;
    bd.position = rg_v3_scale(ex, 10.5f);
    bd.orientation = q;
    bd.restitution = 0;
    bd.static_friction = bd.dynamic_friction = 0.5f;
    ENSURE(rg_body_create(w, &bd, NULL).generation != 0);
    bd = rg_body_default_def();
    bd.hull = cube;
    bd.orientation = rg_quat_mul(q, turn);
    bd.restitution = 0;
    bd.static_friction = bd.dynamic_friction = 0.5f;
    bd.linear_velocity = rg_v3_add(rg_v3_scale(ex, (rg_real)v0), rg_v3_scale(ey, (rg_real)tangential));
    id = rg_body_create(w, &bd, NULL);
    ENSURE(id.generation != 0);
    for (i = 0; i < 240; ++i) {
        rg_world_step(w, (rg_real)DT);
        impact_record(w, id, ex, v0, after);
    }
    rg_world_destroy(w);
    rg_hull_destroy(wall);
    rg_hull_destroy(cube);
    after->ran = 1;
}

/* The bound: 1 cm/s and 0.01 rad/s from 100 m/s up; below, a part 1e-4 of the approach
   speed (point by point leaves 1.8 mm/s and 3.5 mrad/s at 10 m/s). */
static double impact_bound(double v0) { return 0.01 * fmin(1, v0 / 100); }

static void impact_check_wall(double v0, double tangential, rg_quat q, rg_quat turn) {
    impact_after after;
    double bound = impact_bound(v0);
    impact_wall(v0, tangential, q, turn, &after);
    ENSURE(after.ran);
    rg_test_note("at %g m/s (%g along the wall): rebound %.3g m/s, sideways %.3g m/s, spin %.3g rad/s (bound %g)", v0,
                 tangential, after.rebound, after.sideways, after.spin, bound);
    ENSURE(after.rebound < bound);
    ENSURE(after.sideways < bound);
    ENSURE(after.spin < bound);
}

static void test_impact_face_on_10(void) { impact_check_wall(10, 0, rg_quat_identity(), rg_quat_identity()); }

static void test_impact_face_on_100(void) { impact_check_wall(100, 0, rg_quat_identity(), rg_quat_identity()); }

static void test_impact_face_on_300(void) { impact_check_wall(300, 0, rg_quat_identity(), rg_quat_identity()); }

/* The same impact with wall, cube and flight turned by 0.7 rad about (1, 2, 3): no axis of the
   world lines up, and the answer is the same. */
static void test_impact_face_on_rotated_wall(void) {
    rg_quat q = rg_quat_from_axis_angle(rg_v3(1, 2, 3), 0.7f);
    impact_check_wall(100, 0, q, rg_quat_identity());
    impact_check_wall(300, 0, q, rg_quat_identity());
}

/* The cube turned 45 degrees about the wall's z axis hits it with an edge square-on: its two
   points take their impulses together, and the cube stops as symmetric as it came (point by
   point: rebound 3.0 mm/s, 5.1 mm/s along the edge and 7.1 mrad/s at 10 m/s). */
static void test_impact_edge_on_10(void) {
    impact_check_wall(10, 0, rg_quat_identity(), rg_quat_from_axis_angle(rg_v3(0, 0, 1), 0.78539816f));
}

/* The turned wall hit at 100 m/s with 30 m/s along it: friction 0.5 can stop the slide (it needs
   30 m/s of the 50 the normal impulse allows), and the face's normal impulses can hold the
   moment of friction about the centre of mass (its centre of pressure 0.15 m off the face's
   centre, inside it). So the cube stops dead on the wall: no rebound, slide or spin. */
static void test_impact_oblique_sticks(void) {
    impact_check_wall(100, 30, rg_quat_from_axis_angle(rg_v3(1, 2, 3), 0.7f), rg_quat_identity());
}

/* A unit cube dropped flat from `height` onto a static ground (gravity on), moving at vx along
   x; after landing: the largest upward speed, sideways speed (along z, and along x too when it
   was not sliding) and spin, over 300 steps. */
static void impact_drop(double height, double vx, impact_after *after) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_hull *ground = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL), *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_def bd;
    rg_body_id id;
    int i, landed = 0;
    after->rebound = after->sideways = after->spin = 0;
    after->ran = 0;
    ENSURE(w && ground && cube);
    bd = rg_body_default_def();
    bd.type = RG_BODY_STATIC;
    bd.hull = ground;
    bd.position = rg_v3(0, -0.5f, 0);
    bd.restitution = 0;
    bd.static_friction = bd.dynamic_friction = 0.5f;
    ENSURE(rg_body_create(w, &bd, NULL).generation != 0);
    bd = rg_body_default_def();
    bd.hull = cube;
    bd.position = rg_v3(0, (rg_real)(0.5 + height), 0);
    bd.restitution = 0;
    bd.static_friction = bd.dynamic_friction = 0.5f;
    bd.linear_velocity = rg_v3((rg_real)vx, 0, 0);
    id = rg_body_create(w, &bd, NULL);
    ENSURE(id.generation != 0);
    for (i = 0; i < 300; ++i) {
        rg_vec3 v, om;
        rg_world_step(w, (rg_real)DT);
        v = rg_body_linear_velocity(w, id);
        om = rg_body_angular_velocity(w, id);
        if (rg_body_position(w, id).y < 0.51f) landed = 1;
        if (!landed) continue;
        after->rebound = fmax(after->rebound, v.y);
        after->sideways = fmax(after->sideways, vx != 0 ? fabs(v.z) : sqrt((double)v.x * v.x + (double)v.z * v.z));
        after->spin = fmax(after->spin, impact_length(om));
    }
    ENSURE(landed);
    rg_world_destroy(w);
    rg_hull_destroy(ground);
    rg_hull_destroy(cube);
    after->ran = 1;
}

/* Dropped flat from 1 m and from 5 m with restitution 0, the cube lands and stays: no sideways
   drift and no spin, below 1 mm/s at its corners (spin times the half side 0.5 m). Point by
   point the corners' order gave 2.9 mm/s sideways and 4.3 mrad/s from 1 m. */
static void test_impact_cube_dropped_flat(void) {
    double heights[2] = {1, 5};
    int k;
    for (k = 0; k < 2; ++k) {
        impact_after after;
        impact_drop(heights[k], 0, &after);
        ENSURE(after.ran);
        rg_test_note("from %g m: sideways %.3g m/s, spin %.3g rad/s", heights[k], after.sideways, after.spin);
        ENSURE(after.sideways < 0.001);
        ENSURE(after.spin * 0.5 < 0.001);
    }
}

/* Dropped flat from 1 m while moving at 3 m/s along x: it lands sliding and slides straight,
   friction acting on the face as a whole: no drift across (along z), no spin, below 1 mm/s at
   its corners. Point by point: 8.5 cm/s across, 0.21 rad/s. */
static void test_impact_cube_lands_sliding(void) {
    impact_after after;
    impact_drop(1, 3, &after);
    ENSURE(after.ran);
    rg_test_note("sideways %.3g m/s, spin %.3g rad/s", after.sideways, after.spin);
    ENSURE(after.sideways < 0.001);
    ENSURE(after.spin * 0.5 < 0.001);
}

void rg_tests_impact(void) {
    RUN_TEST(test_impact_face_on_10);
    RUN_TEST(test_impact_face_on_100);
    RUN_TEST(test_impact_face_on_300);
    RUN_TEST(test_impact_face_on_rotated_wall);
    RUN_TEST(test_impact_edge_on_10);
    RUN_TEST(test_impact_oblique_sticks);
    RUN_TEST(test_impact_cube_dropped_flat);
    RUN_TEST(test_impact_cube_lands_sliding);
}
