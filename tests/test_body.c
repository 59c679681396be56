/* Bodies and free motion: mass properties, ids, forces and impulses, projectile motion against
   the integrator's discrete solution, torque-free rotation against conservation laws, bad input. */
#include "test.h"

#include <string.h>

static rg_world *create_world(rg_vec3 gravity) {
    rg_world_def def = rg_world_default_def();
    def.gravity = gravity;
    return rg_world_create(&def, NULL);
}

static void test_projectile_matches_discrete_solution(void) {
    /* symplectic Euler: v_n = v0 + n h g, x_n = x0 + n h v0 + h^2 g n(n+1)/2 */
    rg_world *w = create_world(rg_v3(0, -9.81f, 0));
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_def def = rg_body_default_def();
    rg_body_id id;
    double h = 1.0 / 60, n = 90;
    int i;
    def.hull = cube;
    def.position = rg_v3(1, 2, 3);
    def.linear_velocity = rg_v3(3, 5, -1);
    id = rg_body_create(w, &def, NULL);
    ENSURE(rg_body_is_valid(w, id));
    for (i = 0; i < (int)n; ++i) ENSURE(rg_world_step(w, (rg_real)h) == RG_OK);
    ENSURE_NEAR(rg_body_linear_velocity(w, id).y, 5 - n * h * 9.81, 1e-4);
    ENSURE_NEAR(rg_body_position(w, id).x, 1 + n * h * 3, 1e-4);
    ENSURE_NEAR(rg_body_position(w, id).y, 2 + n * h * 5 - h * h * 9.81 * n * (n + 1) / 2, 2e-4);
    ENSURE_NEAR(rg_body_position(w, id).z, 3 - n * h, 1e-4);
    /* and the continuous parabola within the integrator's first-order error h g t / 2 */
    ENSURE_NEAR(rg_body_position(w, id).y, 2 + 5 * 1.5 - 0.5 * 9.81 * 1.5 * 1.5, 9.81 * h * 1.5 / 2 + 1e-3);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
}

/* Asymmetric box 1 x 2 x 3 spinning at (1, 2, 3) rad/s, no gravity, 20 s at dt = 1/60: the
   norm of the angular momentum and the kinetic energy stay within 1% (issue 2, item 5). */
static void test_free_asymmetric_box_conserves_momentum_and_energy(void) {
    rg_world *w = create_world(rg_v3(0, 0, 0));
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 1, 1.5f), NULL);
    rg_body_def def = rg_body_default_def();
    rg_body_id id;
    rg_vec3 l0, l;
    double e0, e, worst_l = 0, worst_e = 0, worst_direction = 0;
    int i;
    def.hull = box;
    def.angular_velocity = rg_v3(1, 2, 3);
    def.orientation = rg_quat_from_axis_angle(rg_v3(1, 1, 0), 0.3f);
    id = rg_body_create(w, &def, NULL);
    l0 = rg_body_angular_momentum(w, id);
    e0 = rg_body_kinetic_energy(w, id);
    for (i = 0; i < 1200; ++i) {
        double dl, de, dd;
        rg_world_step(w, 1.0f / 60);
        l = rg_body_angular_momentum(w, id);
        e = rg_body_kinetic_energy(w, id);
        dl = fabs(rg_v3_length(l) / rg_v3_length(l0) - 1);
        de = fabs(e / e0 - 1);
        dd = rg_v3_length(rg_v3_sub(l, l0)) / rg_v3_length(l0);
        if (dl > worst_l) worst_l = dl;
        if (de > worst_e) worst_e = de;
        if (dd > worst_direction) worst_direction = dd;
    }
    rg_test_note("over 20 s: |L| within %.2e, energy within %.2e, L vector within %.2e (relative)",
                 worst_l, worst_e, worst_direction);
    ENSURE_NEAR(worst_l, 0, 0.01);
    ENSURE_NEAR(worst_e, 0, 0.01);
    ENSURE(rg_v3_is_finite(rg_body_angular_velocity(w, id)));
    rg_world_destroy(w);
    rg_hull_destroy(box);
}

static void test_mass_properties_of_bodies(void) {
    rg_world *w = create_world(rg_v3(0, 0, 0));
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 1, 1.5f), NULL);
    rg_body_def def = rg_body_default_def();
    rg_body_id by_density, by_mass, fixed;
    rg_mat3 inertia, inverse, product;
    int r, c;
    def.hull = box;
    def.density = 10;
    def.orientation = rg_quat_from_axis_angle(rg_v3(0.3f, -1, 0.5f), 1.1f);
    by_density = rg_body_create(w, &def, NULL);
    ENSURE_REL(rg_body_mass(w, by_density), 60, 1e-5);
    def.mass = 3; /* overrides the density, inertia scaled to match */
    by_mass = rg_body_create(w, &def, NULL);
    ENSURE_REL(rg_body_mass(w, by_mass), 3, 1e-6);
    inertia = rg_body_inertia(w, by_mass);
    ENSURE_REL(inertia.m[0][0] + inertia.m[1][1] + inertia.m[2][2], 3.0 * (13 + 10 + 5) / 12, 1e-5);
    /* world inverse inertia R I^-1 R^T is the inverse of the world inertia R I R^T */
    inverse = rg_body_inverse_inertia(w, by_mass);
    product = rg_mat3_mul(inertia, inverse);
    for (r = 0; r < 3; ++r)
        for (c = 0; c < 3; ++c) ENSURE_NEAR(product.m[r][c], r == c, 1e-5);
    /* and it stays current as the body turns */
    rg_body_set_angular_velocity(w, by_mass, rg_v3(2, -1, 0.5f));
    rg_world_step(w, 1.0f / 60);
    product = rg_mat3_mul(rg_body_inertia(w, by_mass), rg_body_inverse_inertia(w, by_mass));
    for (r = 0; r < 3; ++r)
        for (c = 0; c < 3; ++c) ENSURE_NEAR(product.m[r][c], r == c, 1e-5);
    def.type = RG_BODY_STATIC;
    fixed = rg_body_create(w, &def, NULL);
    ENSURE(rg_body_mass(w, fixed) == 0 && rg_body_inverse_inertia(w, fixed).m[0][0] == 0);
    rg_world_destroy(w);
    rg_hull_destroy(box);
}

static void test_position_is_hull_origin_and_com_is_centroid(void) {
    /* a hull whose centroid is off its origin: position reads back as set, the centre of mass
       sits at position + R centroid, and a free spin turns about the centre of mass */
    static const int faces[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    static const int sizes[4] = {3, 3, 3, 3};
    rg_vec3 corners[4];
    rg_world *w = create_world(rg_v3(0, 0, 0));
    rg_hull *tet;
    rg_body_def def = rg_body_default_def();
    rg_body_id id;
    rg_vec3 com0;
    int i;
    corners[0] = rg_v3(0, 0, 0); corners[1] = rg_v3(2, 0, 0); corners[2] = rg_v3(0, 2, 0); corners[3] = rg_v3(0, 0, 2);
    tet = rg_hull_create_polyhedron(corners, 4, sizes, 4, faces, NULL);
    def.hull = tet;
    def.position = rg_v3(1, 1, 1);
    def.orientation = rg_quat_from_axis_angle(rg_v3(0, 1, 0), 1.0f);
    def.angular_velocity = rg_v3(0, 3, 0);
    id = rg_body_create(w, &def, NULL);
    ENSURE_V3_NEAR(rg_body_position(w, id), def.position, 1e-6);
    com0 = rg_body_center_of_mass(w, id);
    ENSURE_V3_NEAR(com0, rg_v3_add(def.position, rg_quat_rotate(def.orientation, rg_v3(0.5f, 0.5f, 0.5f))), 1e-5);
    for (i = 0; i < 60; ++i) rg_world_step(w, 1.0f / 60);
    ENSURE_V3_NEAR(rg_body_center_of_mass(w, id), com0, 1e-5);
    ENSURE(rg_v3_length(rg_v3_sub(rg_body_position(w, id), def.position)) > 0.1);
    rg_world_destroy(w);
    rg_hull_destroy(tet);
}

static void test_impulses_and_forces(void) {
    rg_world *w = create_world(rg_v3(0, 0, 0));
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 1, 1.5f), NULL);
    rg_body_def def = rg_body_default_def();
    rg_body_id id;
    rg_vec3 point, impulse = rg_v3(1, 2, -3), expected_w;
    double m;
    def.hull = box;
    def.position = rg_v3(0, 5, 0);
    def.orientation = rg_quat_from_axis_angle(rg_v3(1, 0, 1), 0.4f);
    id = rg_body_create(w, &def, NULL);
    m = rg_body_mass(w, id);
    point = rg_v3_add(rg_body_center_of_mass(w, id), rg_v3(0.2f, 0.5f, 0.1f));
    ENSURE(rg_body_apply_impulse(w, id, impulse, point) == RG_OK);
    /* dv = J / m, dw = I^-1 (r x J) */
    ENSURE_V3_NEAR(rg_body_linear_velocity(w, id), rg_v3_scale(impulse, (rg_real)(1 / m)), 1e-6);
    expected_w = rg_mat3_mul_v3(rg_body_inverse_inertia(w, id), rg_v3_cross(rg_v3(0.2f, 0.5f, 0.1f), impulse));
    ENSURE_V3_NEAR(rg_body_angular_velocity(w, id), expected_w, 1e-6);
    /* a force through the centre of mass for one step: dv = F h / m, then it is cleared */
    rg_body_set_linear_velocity(w, id, rg_v3(0, 0, 0));
    rg_body_set_angular_velocity(w, id, rg_v3(0, 0, 0));
    ENSURE(rg_body_apply_force(w, id, rg_v3(600, 0, 0), rg_body_center_of_mass(w, id)) == RG_OK);
    rg_world_step(w, 0.1f);
    ENSURE_NEAR(rg_body_linear_velocity(w, id).x, 600 * 0.1 / m, 1e-5);
    ENSURE_V3_NEAR(rg_body_angular_velocity(w, id), rg_v3(0, 0, 0), 1e-7);
    rg_world_step(w, 0.1f);
    ENSURE_NEAR(rg_body_linear_velocity(w, id).x, 600 * 0.1 / m, 1e-5);
    /* a torque: dw = I^-1 tau h */
    ENSURE(rg_body_apply_torque(w, id, rg_v3(0, 0, 10)) == RG_OK);
    expected_w = rg_v3_scale(rg_mat3_mul_v3(rg_body_inverse_inertia(w, id), rg_v3(0, 0, 10)), 0.01f);
    rg_world_step(w, 0.01f);
    ENSURE_V3_NEAR(rg_body_angular_velocity(w, id), expected_w, 1e-3 * rg_v3_length(expected_w));
    rg_world_destroy(w);
    rg_hull_destroy(box);
}

static void test_static_and_kinematic_motion(void) {
    rg_world *w = create_world(rg_v3(0, -9.81f, 0));
    rg_hull *box = rg_hull_create_box(rg_v3(1, 1, 1), NULL);
    rg_body_def def = rg_body_default_def();
    rg_body_id fixed, moving;
    int i;
    def.hull = box;
    def.type = RG_BODY_STATIC;
    def.linear_velocity = rg_v3(1, 0, 0); /* ignored: static bodies do not move */
    fixed = rg_body_create(w, &def, NULL);
    def.type = RG_BODY_KINEMATIC;
    def.position = rg_v3(0, 3, 0);
    def.angular_velocity = rg_v3(0, 1, 0);
    moving = rg_body_create(w, &def, NULL);
    rg_body_apply_impulse(w, moving, rg_v3(100, 0, 0), rg_v3(0, 3, 0)); /* no effect on kinematic */
    for (i = 0; i < 60; ++i) rg_world_step(w, 1.0f / 60);
    ENSURE_V3_NEAR(rg_body_position(w, fixed), rg_v3(0, 0, 0), 0);
    ENSURE_V3_NEAR(rg_body_position(w, moving), rg_v3(1, 3, 0), 1e-5); /* no gravity on kinematic */
    ENSURE_NEAR(2 * acos(fabs(rg_body_orientation(w, moving).w)), 1, 1e-4);
    ENSURE(rg_body_mass(w, moving) == 0);
    rg_world_destroy(w);
    rg_hull_destroy(box);
}

static void test_generation_ids_never_alias(void) {
    rg_world *w = create_world(rg_v3(0, 0, 0));
    rg_hull *box = rg_hull_create_box(rg_v3(1, 1, 1), NULL);
    rg_body_def def = rg_body_default_def();
    rg_body_id first, second, null_id = {0, 0};
    int marker = 7;
    def.hull = box;
    def.user_data = &marker;
    first = rg_body_create(w, &def, NULL);
    ENSURE(first.generation != 0 && rg_body_user_data(w, first) == &marker);
    ENSURE(rg_body_destroy(w, first) == RG_OK);
    ENSURE(!rg_body_is_valid(w, first));
    ENSURE(rg_body_destroy(w, first) == RG_ERR_STALE_ID);
    second = rg_body_create(w, &def, NULL);
    ENSURE(second.index == first.index); /* the slot is reused... */
    ENSURE(second.generation != first.generation); /* ...under a new generation */
    ENSURE(!rg_body_is_valid(w, first) && rg_body_is_valid(w, second));
    ENSURE(rg_body_user_data(w, first) == NULL);
    ENSURE(rg_body_set_linear_velocity(w, first, rg_v3(1, 0, 0)) == RG_ERR_STALE_ID);
    ENSURE(rg_body_linear_velocity(w, second).x == 0);
    ENSURE(!rg_body_is_valid(w, null_id) && rg_body_set_transform(w, null_id, rg_v3(0, 0, 0), rg_quat_identity()) == RG_ERR_STALE_ID);
    ENSURE(rg_world_get_stats(w).body_count == 1);
    rg_world_destroy(w);
    rg_hull_destroy(box);
}

/* Everything a getter can see of a body, to show that refused calls change nothing. */
typedef struct body_snapshot {
    rg_vec3 position, com, v, w;
    rg_quat q;
    rg_real mass;
    void *user;
} body_snapshot;

static body_snapshot snapshot(const rg_world *w, rg_body_id id) {
    body_snapshot s;
    memset(&s, 0, sizeof s);
    s.position = rg_body_position(w, id);
    s.com = rg_body_center_of_mass(w, id);
    s.v = rg_body_linear_velocity(w, id);
    s.w = rg_body_angular_velocity(w, id);
    s.q = rg_body_orientation(w, id);
    s.mass = rg_body_mass(w, id);
    s.user = rg_body_user_data(w, id);
    return s;
}

static int same_vec3(rg_vec3 a, rg_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

static int same_snapshot(const body_snapshot *a, const body_snapshot *b) {
    return same_vec3(a->position, b->position) && same_vec3(a->com, b->com) && same_vec3(a->v, b->v) &&
           same_vec3(a->w, b->w) && a->q.x == b->q.x && a->q.y == b->q.y && a->q.z == b->q.z &&
           a->q.w == b->q.w && a->mass == b->mass && a->user == b->user;
}

static void test_bad_input_is_refused_and_changes_nothing(void) {
    rg_world *w = create_world(rg_v3(0, -9.81f, 0));
    rg_hull *box = rg_hull_create_box(rg_v3(1, 1, 1), NULL);
    rg_body_def def = rg_body_default_def(), bad;
    rg_body_id id, stale, null_id = {0, 0}, out_of_range = {1000, 1};
    rg_result result;
    rg_real nan = (rg_real)NAN, inf = (rg_real)INFINITY;
    rg_world_def wdef = rg_world_default_def();
    body_snapshot before;
    def.hull = box;
    def.linear_velocity = rg_v3(1, 2, 3);
    id = rg_body_create(w, &def, NULL);
    stale = rg_body_create(w, &def, NULL);
    rg_body_destroy(w, stale);
    before = snapshot(w, id);

    /* body defs */
    bad = def; bad.position.x = nan;
    result = RG_OK; ENSURE(rg_body_create(w, &bad, &result).generation == 0 && result == RG_ERR_INVALID_ARGUMENT);
    bad = def; bad.position.y = inf;
    result = RG_OK; ENSURE(rg_body_create(w, &bad, &result).generation == 0 && result == RG_ERR_INVALID_ARGUMENT);
    bad = def; bad.density = -1;
    result = RG_OK; ENSURE(rg_body_create(w, &bad, &result).generation == 0 && result == RG_ERR_INVALID_ARGUMENT);
    bad = def; bad.mass = -1;
    result = RG_OK; ENSURE(rg_body_create(w, &bad, &result).generation == 0 && result == RG_ERR_INVALID_ARGUMENT);
    bad = def; bad.restitution = 1.5f;
    result = RG_OK; ENSURE(rg_body_create(w, &bad, &result).generation == 0 && result == RG_ERR_INVALID_ARGUMENT);
    bad = def; bad.static_friction = -0.1f;
    result = RG_OK; ENSURE(rg_body_create(w, &bad, &result).generation == 0 && result == RG_ERR_INVALID_ARGUMENT);
    bad = def; bad.orientation.w = 0; bad.orientation.x = 0;
    result = RG_OK; ENSURE(rg_body_create(w, &bad, &result).generation == 0 && result == RG_ERR_INVALID_ARGUMENT);
    bad = def; bad.angular_velocity.z = nan;
    result = RG_OK; ENSURE(rg_body_create(w, &bad, &result).generation == 0 && result == RG_ERR_INVALID_ARGUMENT);
    result = RG_OK; ENSURE(rg_body_create(w, NULL, &result).generation == 0 && result == RG_ERR_INVALID_ARGUMENT);
    result = RG_OK; ENSURE(rg_body_create(NULL, &def, &result).generation == 0 && result == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_world_get_stats(w).body_count == 1);

    /* setters: NaN and infinities refused, stale and null ids refused */
    ENSURE(rg_body_set_transform(w, id, rg_v3(nan, 0, 0), rg_quat_identity()) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_transform(w, id, rg_v3(0, 0, 0), rg_quat_from_axis_angle(rg_v3(1, 0, 0), inf)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_linear_velocity(w, id, rg_v3(0, inf, 0)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_angular_velocity(w, id, rg_v3(0, 0, nan)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_apply_impulse(w, id, rg_v3(nan, 0, 0), rg_v3(0, 0, 0)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_apply_force(w, id, rg_v3(1, 0, 0), rg_v3(0, inf, 0)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_apply_torque(w, id, rg_v3(nan, 0, 0)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_linear_velocity(w, stale, rg_v3(0, 1, 0)) == RG_ERR_STALE_ID);
    ENSURE(rg_body_set_linear_velocity(w, null_id, rg_v3(0, 1, 0)) == RG_ERR_STALE_ID);
    ENSURE(rg_body_set_linear_velocity(w, out_of_range, rg_v3(0, 1, 0)) == RG_ERR_STALE_ID);
    ENSURE(rg_body_apply_impulse(w, stale, rg_v3(1, 0, 0), rg_v3(0, 0, 0)) == RG_ERR_STALE_ID);
    ENSURE(rg_body_destroy(w, null_id) == RG_ERR_STALE_ID);
    ENSURE(rg_body_set_linear_velocity(NULL, id, rg_v3(0, 1, 0)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_destroy(NULL, id) == RG_ERR_INVALID_ARGUMENT);

    /* steps: dt <= 0, NaN, infinite */
    ENSURE(rg_world_step(w, 0) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_world_step(w, -0.01f) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_world_step(w, nan) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_world_step(w, inf) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_world_step(NULL, 0.01f) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_world_set_gravity(w, rg_v3(0, nan, 0)) == RG_ERR_INVALID_ARGUMENT);
    {
        body_snapshot after = snapshot(w, id);
        ENSURE(same_snapshot(&before, &after));
    }
    /* getters on bad ids and a NULL world return zero */
    ENSURE(rg_body_position(w, stale).x == 0 && rg_body_orientation(w, stale).w == 0);
    ENSURE(rg_body_mass(NULL, id) == 0 && rg_body_orientation(NULL, id).w == 0);
    {
        rg_vec3 lo = rg_v3(1, 1, 1), hi = rg_v3(1, 1, 1);
        rg_body_aabb(w, stale, &lo, &hi);
        ENSURE(lo.x == 0 && hi.z == 0);
    }
    /* world defs */
    wdef.gravity.x = nan;
    result = RG_OK; ENSURE(rg_world_create(&wdef, &result) == NULL && result == RG_ERR_INVALID_ARGUMENT);
    wdef = rg_world_default_def(); wdef.contact_tolerance = -1;
    result = RG_OK; ENSURE(rg_world_create(&wdef, &result) == NULL && result == RG_ERR_INVALID_ARGUMENT);
    result = RG_OK; ENSURE(rg_world_create(NULL, &result) == NULL && result == RG_ERR_INVALID_ARGUMENT);
    memset(&wdef, 0, sizeof wdef); /* a def that did not come from rg_world_default_def */
    result = RG_OK; ENSURE(rg_world_create(&wdef, &result) == NULL && result == RG_ERR_INVALID_ARGUMENT);
    rg_world_destroy(NULL);
    /* the world still steps */
    ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
    ENSURE(rg_body_linear_velocity(w, id).y < before.v.y);
    rg_world_destroy(w);
    rg_hull_destroy(box);
}

/* ---- regression tests: failures found and fixed, each told in the test's comment ---- */

/* A free asymmetric box (half extents 0.5, 0.3, 0.2 m, 150 kg) spun fast keeps its kinetic energy
   and |L| over 20 steps of 1/60 s, as the implicit midpoint rule does when solved. Its Newton
   iterations used to be run once per step from w1 = w0 and diverged beyond about 8 radians a
   step: at 693 rad/s (11.6 rad a step) the energy grew 1900 times (1200 in double) and |L|
   50 times; a fuzzed kinematic slab at 1e15 m/s made a cube's spin overflow. Spins like these
   come from fast impacts on small bodies, or from slower spins with long steps (up to 1 s).
   Checked at 297 rad/s (5 rad a step), 693 and 6930 rad/s, within 1e-4. */
static void test_fast_spin_keeps_its_energy(void) {
    static const double spins[3] = {297, 693, 6930};
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 0.3f, 0.2f), NULL);
    int k, i;
    ENSURE(box != NULL);
    for (k = 0; k < 3; ++k) {
        rg_world_def wd = rg_world_default_def();
        rg_world *w;
        rg_body_def bd = rg_body_default_def();
        rg_body_id id;
        rg_vec3 axis = rg_v3_normalize(rg_v3(0.3f, 0.5f, -0.8f));
        double e0, l0, e, l;
        wd.gravity = rg_v3(0, 0, 0);
        w = rg_world_create(&wd, NULL);
        bd.hull = box;
        bd.orientation = rg_quat_from_axis_angle(rg_v3(0.3f, 1, 0.2f), 0.7f);
        bd.angular_velocity = rg_v3_scale(axis, (rg_real)spins[k]);
        id = rg_body_create(w, &bd, NULL);
        e0 = rg_body_kinetic_energy(w, id);
        l0 = rg_v3_length(rg_body_angular_momentum(w, id));
        for (i = 0; i < 20; ++i) ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
        e = rg_body_kinetic_energy(w, id);
        l = rg_v3_length(rg_body_angular_momentum(w, id));
        rg_test_note("|w| %.0f rad/s (%.1f rad a step): after 20 steps energy x %.6g, |L| x %.6g", spins[k], spins[k] / 60,
                     e / e0, l / l0);
        ENSURE_NEAR(e / e0, 1, 1e-4);
        ENSURE_NEAR(l / l0, 1, 1e-4);
        rg_world_destroy(w);
    }
    rg_hull_destroy(box);
}

/* fuzz_world (seed 201): a slab of 1e7 kg (100 x 1 x 100 m) inside a kinematic one spinning at
   1e15 rad/s was knocked to a spin of 3e14 rad/s. Twice its kinetic energy, w^T I w, is then
   about 1e39, beyond float; the gyroscopic step's guard compared the energies before and after
   as inf <= inf and let a spin of 8e19 rad/s through, and the next move made the slab's position
   NaN. Here the spinner (two of the spins and turns that showed it) is removed after the knock,
   so that in the next step the slab moves freely, and the gyroscopic term never adds energy: the
   energy w . L (in double, from the float w and L) after that step may be at most that before
   it, to 1e-4. Before the fix it grew 4e5 and 3e10 times. */
static void test_slab_knocked_to_a_huge_spin_keeps_its_energy(void) {
    static const double steps[2] = {1.0 / 60, 0.6953125}, turns[2] = {1.1, 0.53};
    static const float spins[2][3] = {{0, 2e14f, 0}, {3e14f, -1e14f, 2e14f}};
    rg_hull *slab = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL);
    int k, i;
    ENSURE(slab != NULL);
    for (k = 0; k < 2; ++k) {
        rg_world_def wd = rg_world_default_def();
        rg_world *w = rg_world_create(&wd, NULL);
        rg_body_def bd = rg_body_default_def();
        rg_body_id spinner, id;
        rg_vec3 omega, momentum;
        double e0, e1;
        bd.hull = slab;
        bd.position = rg_v3(6.8125f, 6.8125f, 6.8125f);
        bd.orientation = rg_quat_from_axis_angle(rg_v3(-1, -1, -1), (rg_real)turns[k]);
        bd.type = RG_BODY_KINEMATIC;
        bd.angular_velocity = rg_v3(spins[k][0], spins[k][1], spins[k][2]);
        spinner = rg_body_create(w, &bd, NULL);
        bd.type = RG_BODY_DYNAMIC;
        bd.linear_velocity = rg_v3(6.8125f, 6.8125f, 6.8125f);
        bd.angular_velocity = rg_v3(6.8125f, 7.875f, 6.8125f);
        id = rg_body_create(w, &bd, NULL);
        ENSURE(rg_body_is_valid(w, spinner) && rg_body_is_valid(w, id));
        ENSURE(rg_world_step(w, (rg_real)steps[k]) == RG_OK);
        ENSURE(rg_body_destroy(w, spinner) == RG_OK);
        omega = rg_body_angular_velocity(w, id);
        momentum = rg_body_angular_momentum(w, id);
        e0 = (double)omega.x * momentum.x + (double)omega.y * momentum.y + (double)omega.z * momentum.z;
        ENSURE(rg_world_step(w, (rg_real)steps[k]) == RG_OK);
        omega = rg_body_angular_velocity(w, id);
        momentum = rg_body_angular_momentum(w, id);
        e1 = (double)omega.x * momentum.x + (double)omega.y * momentum.y + (double)omega.z * momentum.z;
        rg_test_note("step %.4f s: knocked to |w| %.3g rad/s, 2 E %.4g -> %.4g in the free step", steps[k],
                     rg_v3_length(omega), e0, e1);
        ENSURE(e1 <= e0 * (1 + 1e-4));
        for (i = 0; i < 3; ++i) {
            ENSURE(rg_world_step(w, (rg_real)steps[k]) == RG_OK);
            ENSURE(rg_v3_is_finite(rg_body_angular_velocity(w, id)) && rg_v3_is_finite(rg_body_position(w, id)));
        }
        rg_world_destroy(w);
    }
    rg_hull_destroy(slab);
}

void rg_tests_body(void) {
    RUN_TEST(test_projectile_matches_discrete_solution);
    RUN_TEST(test_free_asymmetric_box_conserves_momentum_and_energy);
    RUN_TEST(test_mass_properties_of_bodies);
    RUN_TEST(test_position_is_hull_origin_and_com_is_centroid);
    RUN_TEST(test_impulses_and_forces);
    RUN_TEST(test_static_and_kinematic_motion);
    RUN_TEST(test_generation_ids_never_alias);
    RUN_TEST(test_bad_input_is_refused_and_changes_nothing);
    RUN_TEST(test_fast_spin_keeps_its_energy);
    RUN_TEST(test_slab_knocked_to_a_huge_spin_keeps_its_energy);
}
