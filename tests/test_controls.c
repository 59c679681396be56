/* Body controls: damping against its exact discrete solution and its continuous limit, gravity
   scale against free fall, angular and linear locks under contacts (against the same scene
   unlocked), type changes that keep the id, set_mass against momentum, the live bodies against a
   brute-force list, bad input. */
#include "test.h"

#include <string.h>

static rg_world *controls_world(rg_vec3 gravity) {
    rg_world_def def = rg_world_default_def();
    def.gravity = gravity;
    return rg_world_create(&def, NULL);
}

static rg_body_id controls_box(rg_world *w, const rg_hull *hull, rg_vec3 position, rg_quat orientation,
                               uint32_t locks) {
    rg_body_def bd = rg_body_default_def();
    bd.hull = hull;
    bd.position = position;
    bd.orientation = orientation;
    bd.locks = locks;
    return rg_body_create(w, &bd, NULL);
}

/* v_n = v0 (1 + h c)^-n exactly per step (rounding only), and v0 e^(-c t) as h -> 0: with
   n = t / h, n log(1 + h c) = c t - c^2 h t / 2 + O(h^2), so the relative error is c^2 h t / 2 to
   first order, shrinking tenfold with h. A cube's inertia is spherical: no gyroscopic term. */
static void test_controls_damping_matches_discrete_and_continuous(void) {
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    double c_lin = 2, c_ang = 1.5, t = 1, v0 = 3, w0 = 2, relative_error[2] = {0, 0};
    int run;
    for (run = 0; run < 2; ++run) {
        rg_world *w = controls_world(rg_v3(0, 0, 0));
        double h = run == 0 ? 1.0 / 60 : 1.0 / 600;
        int n = (int)(t / h + 0.5), i;
        rg_body_id id = controls_box(w, cube, rg_v3(0, 0, 0), rg_quat_identity(), 0);
        rg_vec3 v, omega;
        ENSURE(rg_body_set_linear_velocity(w, id, rg_v3((rg_real)v0, 0, 0)) == RG_OK);
        ENSURE(rg_body_set_angular_velocity(w, id, rg_v3(0, (rg_real)w0, 0)) == RG_OK);
        ENSURE(rg_body_set_damping(w, id, (rg_real)c_lin, (rg_real)c_ang) == RG_OK);
        ENSURE(rg_body_linear_damping(w, id) == (rg_real)c_lin && rg_body_angular_damping(w, id) == (rg_real)c_ang);
        for (i = 0; i < n; ++i) ENSURE(rg_world_step(w, (rg_real)h) == RG_OK);
        v = rg_body_linear_velocity(w, id);
        omega = rg_body_angular_velocity(w, id);
        /* discrete: exact to the rounding of n steps */
        ENSURE_REL(v.x, v0 * pow(1 + (double)(rg_real)h * c_lin, -n), 4 * n * RG_TEST_EPS);
        ENSURE_REL(omega.y, w0 * pow(1 + (double)(rg_real)h * c_ang, -n), 4 * n * RG_TEST_EPS);
        ENSURE(v.y == 0 && v.z == 0 && omega.x == 0 && omega.z == 0);
        /* continuous: the first-order error c^2 h t / 2, within 10% (the next term) */
        relative_error[run] = v.x / (v0 * exp(-c_lin * t)) - 1;
        ENSURE_REL(relative_error[run], c_lin * c_lin * h * t / 2, 0.1);
        ENSURE_REL(omega.y / (w0 * exp(-c_ang * t)) - 1, c_ang * c_ang * h * t / 2, 0.1);
        rg_world_destroy(w);
    }
    rg_test_note("v(1 s) against v0 e^-ct: relative error %.3g at h = 1/60, %.3g at h = 1/600 (ratio %.2f)",
                 relative_error[0], relative_error[1], relative_error[0] / relative_error[1]);
    ENSURE_NEAR(relative_error[0] / relative_error[1], 10, 1);
    rg_hull_destroy(cube);
}

/* Symplectic Euler under gravity s g: v_n = v0 + n h s g, y_n = y0 + h^2 s g n (n + 1) / 2. Scale 0
   floats at its velocity, 0.5 falls at half the rate, -1 rises; the default 1 falls as before. */
static void test_controls_gravity_scale_free_fall(void) {
    rg_world *w = controls_world(rg_v3(0, -9.81f, 0));
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    double scales[4] = {0, 0.5, 1, -1}, h = 1.0 / 60;
    rg_body_id ids[4];
    int i, k, n = 60;
    for (k = 0; k < 4; ++k) {
        ids[k] = controls_box(w, cube, rg_v3((rg_real)(3 * k), 10, 0), rg_quat_identity(), 0);
        if (k != 2) ENSURE(rg_body_set_gravity_scale(w, ids[k], (rg_real)scales[k]) == RG_OK);
        ENSURE(rg_body_gravity_scale(w, ids[k]) == (rg_real)scales[k]);
    }
    ENSURE(rg_body_set_linear_velocity(w, ids[0], rg_v3(0, 1, 0)) == RG_OK);
    for (i = 0; i < n; ++i) ENSURE(rg_world_step(w, (rg_real)h) == RG_OK);
    ENSURE(rg_body_linear_velocity(w, ids[0]).y == 1);
    ENSURE_NEAR(rg_body_position(w, ids[0]).y, 10 + n * h, 1e-4);
    for (k = 1; k < 4; ++k) {
        double g = -9.81 * scales[k];
        ENSURE_NEAR(rg_body_linear_velocity(w, ids[k]).y, n * h * g, 1e-4);
        ENSURE_NEAR(rg_body_position(w, ids[k]).y, 10 + h * h * g * n * (n + 1) / 2, 2e-4);
    }
    rg_world_destroy(w);
    rg_hull_destroy(cube);
}

/* The largest |w.x|, |w.z| of a body over `steps` steps, with its lowest height. */
static double controls_run_tilting(rg_world *w, rg_body_id id, int steps, double *lowest) {
    double worst = 0;
    int i;
    *lowest = 1e30;
    for (i = 0; i < steps; ++i) {
        rg_vec3 omega;
        rg_world_step(w, 1.0f / 60);
        omega = rg_body_angular_velocity(w, id);
        if (fabs(omega.x) > worst) worst = fabs(omega.x);
        if (fabs(omega.z) > worst) worst = fabs(omega.z);
        if (rg_body_position(w, id).y < *lowest) *lowest = rg_body_position(w, id).y;
    }
    return worst;
}

/* A cube tilted 30 degrees about z dropped onto its edge, then pushed sideways at its top: free,
   it falls over onto a face; locked about x and z it lands on the edge and stays on it (its
   lowest corner 0.5 (cos 30 + sin 30) below its centre), slides when pushed, and never turns
   about the locked axes. The solver honours the lock: the contacts' impulses have no lever. */
static void test_controls_angular_locks_keep_box_upright(void) {
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_hull *slab = rg_hull_create_box(rg_v3(20, 0.5f, 20), NULL);
    rg_quat tilt = rg_quat_from_axis_angle(rg_v3(0, 0, 1), 0.5235988f);
    double corner = 0.5 * (cos(0.5235988) + sin(0.5235988)), worst[2], lowest[2], slid = 0;
    int locked;
    for (locked = 0; locked < 2; ++locked) {
        rg_world *w = controls_world(rg_v3(0, -9.81f, 0));
        rg_body_id id;
        rg_vec3 start, pushed_from;
        rg_quat q;
        add_ground(w, slab);
        id = controls_box(w, cube, rg_v3(0, 1.5f, 0), tilt, locked ? RG_LOCK_ANGULAR_X | RG_LOCK_ANGULAR_Z : 0);
        worst[locked] = controls_run_tilting(w, id, 120, &lowest[locked]);
        start = rg_body_position(w, id);
        q = rg_body_orientation(w, id);
        if (locked) {
            double after_push, lowest_pushed;
            ENSURE(worst[1] <= 1e-6);
            ENSURE_NEAR(start.y, corner, 2e-3);                       /* resting on the edge */
            ENSURE(fabs(q.x) <= 1e-6 && fabs(q.y) <= 1e-6);          /* still the 30 degree tilt */
            ENSURE_NEAR(q.z, tilt.z, 1e-6);
            pushed_from = rg_v3_add(start, rg_v3(0, 0.5f, 0.2f));     /* above the centre, off to the side */
            ENSURE(rg_body_apply_impulse(w, id, rg_v3(3 * rg_body_mass(w, id), 0, 0), pushed_from) == RG_OK);
            ENSURE(fabs(rg_body_angular_velocity(w, id).x) <= 1e-6 && fabs(rg_body_angular_velocity(w, id).z) <= 1e-6);
            after_push = controls_run_tilting(w, id, 120, &lowest_pushed);
            slid = rg_body_position(w, id).x - start.x;
            rg_test_note("locked: |w.x|, |w.z| at most %.3g while falling, %.3g while sliding %.3f m; rests at %.5f (edge %.5f)",
                         worst[1], after_push, slid, start.y, corner);
            ENSURE(after_push <= 1e-6);
            ENSURE(slid > 0.2);                                       /* it slides */
            ENSURE_NEAR(rg_body_position(w, id).y, corner, 2e-3);     /* still on its edge */
        } else {
            /* the control: free, it tips over onto a face */
            rg_test_note("free: |w.x|, |w.z| up to %.3g, rests at %.4f", worst[0], start.y);
            ENSURE(worst[0] > 0.5);
            ENSURE_NEAR(start.y, 0.5, 2e-3);
        }
        rg_world_destroy(w);
    }
    rg_hull_destroy(cube);
    rg_hull_destroy(slab);
}

/* A box locked along z dropped onto a slope (40 degrees, friction 0.2 static, 0.15 dynamic) that
   falls away along x and z: its centre's z never changes (collisions, contacts, the separation
   pass all move it along x and y only) while it lands and slides down the line of the slope at
   z = const. The same box unlocked slides off along z as well. On that line, direction d, the
   slope's normal force N and the lock's force along z together hold the part of gravity across
   d: N n_x = -(g - (g.d) d)_x. So the box slides at a = g.d - mu_d N along d. */
static void test_controls_linear_lock_z_on_tilted_slope(void) {
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_hull *slab = rg_hull_create_box(rg_v3(20, 0.5f, 20), NULL);
    rg_quat slope = rg_quat_from_axis_angle(rg_v3_normalize(rg_v3(1, 0, -1)), 0.7f);
    double drift[2] = {0, 0}, moved[2] = {0, 0}, theta = 0.7, mu = 0.15, g = 9.81;
    double nx = sin(theta) / sqrt(2.0), ny = cos(theta), length = sqrt(nx * nx + ny * ny);
    double dx = ny / length, dy = -nx / length, along = -g * dy, N = -(0 - along * dx) / nx;
    double expected = (along - mu * N) * dx, measured = 0;
    int locked, i;
    for (locked = 0; locked < 2; ++locked) {
        rg_world *w = controls_world(rg_v3(0, -9.81f, 0));
        rg_body_def bd = rg_body_default_def();
        rg_body_id id;
        rg_vec3 start;
        bd.type = RG_BODY_STATIC;
        bd.hull = slab;
        bd.orientation = slope;
        bd.position = rg_v3(0, -0.5f, 0);
        bd.static_friction = 0.2f;
        bd.dynamic_friction = (rg_real)mu;
        rg_body_create(w, &bd, NULL);
        bd.type = RG_BODY_DYNAMIC;
        bd.hull = cube;
        bd.position = rg_v3(0, 2, 0);
        bd.locks = locked ? RG_LOCK_LINEAR_Z : 0;
        id = rg_body_create(w, &bd, NULL);
        ENSURE(rg_body_locks(w, id) == (locked ? (uint32_t)RG_LOCK_LINEAR_Z : 0u));
        start = rg_body_center_of_mass(w, id);
        for (i = 0; i < 150; ++i) {
            rg_vec3 c;
            rg_world_step(w, 1.0f / 60);
            c = rg_body_center_of_mass(w, id);
            if (fabs(c.z - start.z) > drift[locked]) drift[locked] = fabs(c.z - start.z);
            ENSURE(body_is_finite(w, id));
            if (locked && i == 89) measured = -rg_body_linear_velocity(w, id).x;
            if (locked && i == 149) measured = (measured + rg_body_linear_velocity(w, id).x) / (60.0 / 60);
        }
        moved[locked] = rg_body_center_of_mass(w, id).x - start.x;
        if (locked) ENSURE(rg_body_linear_velocity(w, id).z == 0);
        ENSURE(rg_world_contacts(w, NULL, 0) > 0);   /* it is on the slope, not through it */
        rg_world_destroy(w);
    }
    rg_test_note("z drift: locked %.3g, free %.3g; slid along x: locked %.2f, free %.2f m; locked a_x %.4f, expected %.4f",
                 drift[1], drift[0], moved[1], moved[0], measured, expected);
    ENSURE_REL(measured, expected, 1e-3);
    ENSURE(drift[1] <= 1e-6);
    ENSURE(drift[0] > 0.5);
    ENSURE(moved[1] > 0.5);
    rg_hull_destroy(cube);
    rg_hull_destroy(slab);
}

/* A box at 2 m/s along x hits a resting box locked along x (no gravity, no restitution): the
   locked box has infinite mass along x, so the hitter stops as on a wall and the locked box stays.
   Unlocked, momentum is shared: both go on at 1 m/s. The contact's effective mass takes the
   per-axis inverse mass. */
static void test_controls_linear_lock_is_a_wall_along_its_axis(void) {
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    int locked, i;
    for (locked = 0; locked < 2; ++locked) {
        rg_world *w = controls_world(rg_v3(0, 0, 0));
        rg_body_id hitter = controls_box(w, cube, rg_v3(-2, 0, 0), rg_quat_identity(), 0);
        rg_body_id target = controls_box(w, cube, rg_v3(0, 0, 0), rg_quat_identity(), locked ? RG_LOCK_LINEAR_X : 0);
        rg_body_set_linear_velocity(w, hitter, rg_v3(2, 0, 0));
        for (i = 0; i < 90; ++i) rg_world_step(w, 1.0f / 60);
        rg_test_note("%s: hitter %.4f m/s, target %.4f m/s at x %.4f", locked ? "locked" : "free",
                     rg_body_linear_velocity(w, hitter).x, rg_body_linear_velocity(w, target).x,
                     rg_body_position(w, target).x);
        if (locked) {
            ENSURE_NEAR(rg_body_linear_velocity(w, hitter).x, 0, 1e-3);
            ENSURE(rg_body_position(w, target).x == 0 && rg_body_linear_velocity(w, target).x == 0);
            ENSURE(rg_body_position(w, hitter).x > -1.01 && rg_body_position(w, hitter).x < -0.99);
        } else {
            ENSURE_NEAR(rg_body_linear_velocity(w, hitter).x, 1, 1e-3);
            ENSURE_NEAR(rg_body_linear_velocity(w, target).x, 1, 1e-3);
        }
        rg_world_destroy(w);
    }
    rg_hull_destroy(cube);
}

/* An angular lock leaves the angular momentum about the free axes to the impulse: for a tilted
   1 x 2 x 3 box locked about y, an off-centre impulse J at r turns it by dw with dw.y = 0 and
   (I dw).x, (I dw).z = (r x J).x, (r x J).z, I the full world inertia (the constraint's reaction
   acts about y only). Zeroing the locked row of I^-1 instead would miss this by the coupling. */
static void test_controls_angular_lock_keeps_free_momentum(void) {
    rg_world *w = controls_world(rg_v3(0, 0, 0));
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 1, 1.5f), NULL);
    rg_quat q = rg_quat_from_axis_angle(rg_v3_normalize(rg_v3(1, 2, 3)), 0.7f);
    rg_body_id id = controls_box(w, box, rg_v3(0, 0, 0), q, RG_LOCK_ANGULAR_Y);
    rg_vec3 r = rg_v3(0.3f, 0.8f, -0.4f), J = rg_v3(1, -2, 0.5f), L = rg_v3_cross(r, J), dw, Ldw;
    rg_mat3 inertia = rg_body_inertia(w, id), inverse = rg_body_inverse_inertia(w, id);
    double scale = rg_v3_length(L);
    ENSURE(rg_body_apply_impulse(w, id, J, rg_v3_add(rg_body_center_of_mass(w, id), r)) == RG_OK);
    dw = rg_body_angular_velocity(w, id);
    Ldw = rg_mat3_mul_v3(inertia, dw);
    ENSURE(dw.y == 0);
    ENSURE(inverse.m[1][0] == 0 && inverse.m[1][1] == 0 && inverse.m[1][2] == 0 && inverse.m[0][1] == 0);
    ENSURE_NEAR(Ldw.x / scale, L.x / scale, 1e3 * RG_TEST_EPS);
    ENSURE_NEAR(Ldw.z / scale, L.z / scale, 1e3 * RG_TEST_EPS);
    /* and the linear part is J / m as ever */
    ENSURE_V3_NEAR(rg_body_linear_velocity(w, id), rg_v3_scale(J, 1 / rg_body_mass(w, id)),
                   1e2 * RG_TEST_EPS * rg_v3_length(J) / rg_body_mass(w, id));
    /* unlocking gives the full inverse inertia back */
    ENSURE(rg_body_set_locks(w, id, 0) == RG_OK);
    inverse = rg_mat3_mul(rg_body_inverse_inertia(w, id), inertia);
    ENSURE_NEAR(inverse.m[1][1], 1, 1e2 * RG_TEST_EPS);
    ENSURE_NEAR(inverse.m[0][1], 0, 1e2 * RG_TEST_EPS);
    rg_world_destroy(w);
    rg_hull_destroy(box);
}

/* Dynamic -> static -> dynamic keeps the id: static, the box stops where it is and another box
   lands on it; dynamic again, it falls at g with its mass back. */
static void test_controls_set_type_round_trip(void) {
    rg_world *w = controls_world(rg_v3(0, -9.81f, 0));
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_id id = controls_box(w, cube, rg_v3(0, 10, 0), rg_quat_identity(), 0), top;
    rg_body_id all[4];
    rg_real mass = rg_body_mass(w, id);
    rg_vec3 held;
    int i;
    for (i = 0; i < 30; ++i) rg_world_step(w, 1.0f / 60);
    ENSURE(rg_body_linear_velocity(w, id).y < -4);
    ENSURE(rg_body_set_type(w, id, RG_BODY_STATIC) == RG_OK);
    ENSURE(rg_body_is_valid(w, id) && rg_body_get_type(w, id) == RG_BODY_STATIC);
    ENSURE(rg_body_mass(w, id) == 0 && rg_body_linear_velocity(w, id).y == 0);
    ENSURE(rg_body_inverse_inertia(w, id).m[0][0] == 0);
    held = rg_body_position(w, id);
    top = controls_box(w, cube, rg_v3_add(held, rg_v3(0, 2, 0)), rg_quat_identity(), 0);
    for (i = 0; i < 90; ++i) rg_world_step(w, 1.0f / 60);
    ENSURE(rg_body_position(w, id).x == held.x && rg_body_position(w, id).y == held.y);
    ENSURE_NEAR(rg_body_position(w, top).y, held.y + 1, 3e-3);   /* resting on it */
    ENSURE(rg_world_bodies(w, all, 4) == 2 && all[0].index == id.index && all[0].generation == id.generation);
    ENSURE(rg_body_set_type(w, id, RG_BODY_DYNAMIC) == RG_OK);
    ENSURE(rg_body_mass(w, id) == mass);
    ENSURE(rg_body_set_type(w, top, RG_BODY_STATIC) == RG_OK);   /* the top stays up there */
    for (i = 0; i < 30; ++i) rg_world_step(w, 1.0f / 60);
    ENSURE_NEAR(rg_body_linear_velocity(w, id).y, -9.81 * 30 / 60, 1e-3);
    ENSURE(rg_body_position(w, id).y < held.y - 1);
    ENSURE_NEAR(rg_body_position(w, top).y, held.y + 1, 3e-3);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
}

/* A kinematic body moves by its velocity, x = x0 + v t, through a dynamic box in its way, which
   it pushes without being slowed; set back to dynamic it keeps that velocity. A body with a mesh
   shape cannot become dynamic. */
static void test_controls_kinematic_moves_through_others(void) {
    rg_world *w = controls_world(rg_v3(0, 0, 0));
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_id mover = controls_box(w, cube, rg_v3(-3, 0, 0), rg_quat_identity(), 0);
    rg_body_id box = controls_box(w, cube, rg_v3(0, 0, 0), rg_quat_identity(), 0);
    rg_vec3 tri[4] = {{0, 0, 0}, {1, 0, 0}, {0, 0, -1}, {1, 0, -1}};
    int indices[6] = {0, 1, 2, 1, 3, 2}, i;
    rg_mesh *mesh = rg_mesh_create(tri, 4, indices, 2, NULL);
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id ground;
    ENSURE(rg_body_set_type(w, mover, RG_BODY_KINEMATIC) == RG_OK);
    ENSURE(rg_body_mass(w, mover) == 0);
    ENSURE(rg_body_set_linear_velocity(w, mover, rg_v3(2, 0, 0)) == RG_OK);
    for (i = 0; i < 120; ++i) rg_world_step(w, 1.0f / 60);
    ENSURE(rg_body_linear_velocity(w, mover).x == 2);
    ENSURE_NEAR(rg_body_position(w, mover).x, -3 + 2 * 2.0, 1e-4);
    ENSURE(rg_body_position(w, box).x > rg_body_position(w, mover).x + 0.99);   /* pushed ahead */
    ENSURE_NEAR(rg_body_linear_velocity(w, box).x, 2, 1e-2);
    ENSURE(rg_body_set_type(w, mover, RG_BODY_DYNAMIC) == RG_OK);
    ENSURE(rg_body_linear_velocity(w, mover).x == 2 && rg_body_mass(w, mover) > 0);
    /* a mesh body stays static */
    bd.type = RG_BODY_STATIC;
    ground = rg_body_create(w, &bd, NULL);
    ENSURE(mesh && rg_shape_is_valid(w, rg_body_add_mesh(w, ground, &sd, mesh, NULL)));
    ENSURE(rg_body_set_type(w, ground, RG_BODY_DYNAMIC) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_get_type(w, ground) == RG_BODY_STATIC);
    ENSURE(rg_body_set_type(w, ground, RG_BODY_KINEMATIC) == RG_OK);
    ENSURE(rg_body_set_type(w, ground, RG_BODY_DYNAMIC) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
    rg_world_destroy(w);
    rg_mesh_destroy(mesh);
    rg_hull_destroy(cube);
}

/* Momentum: one impulse J at the centre changes v by J / m, so doubling the mass halves it; the
   inertia scales with the mass, so the turn from an off-centre impulse halves too. Mass 0 returns
   to the density's. The fixed mass acts in the step as well: a force F for one step gives F h / m. */
static void test_controls_set_mass_scales_response(void) {
    rg_world *w = controls_world(rg_v3(0, 0, 0));
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 1, 1.5f), NULL);
    rg_body_id id = controls_box(w, box, rg_v3(0, 0, 0), rg_quat_from_axis_angle(rg_v3(0, 1, 0), 0.4f), 0);
    rg_vec3 J = rg_v3(0, 0, 6000), r = rg_v3(0.5f, 0.2f, 0), dv1, dw1, dv2, dw2;
    rg_real m0 = rg_body_mass(w, id);
    ENSURE_REL(m0, 6000, 1e-6);
    ENSURE(rg_body_apply_impulse(w, id, J, rg_body_center_of_mass(w, id)) == RG_OK);
    dv1 = rg_body_linear_velocity(w, id);
    ENSURE(rg_body_apply_impulse(w, id, rg_v3_scale(J, -1), rg_body_center_of_mass(w, id)) == RG_OK);
    ENSURE(rg_body_apply_impulse(w, id, J, rg_v3_add(rg_body_center_of_mass(w, id), r)) == RG_OK);
    dw1 = rg_body_angular_velocity(w, id);
    ENSURE(rg_body_set_angular_velocity(w, id, rg_v3(0, 0, 0)) == RG_OK);
    ENSURE(rg_body_set_linear_velocity(w, id, rg_v3(0, 0, 0)) == RG_OK);
    ENSURE(rg_body_set_mass(w, id, 2 * m0) == RG_OK);
    ENSURE(rg_body_fixed_mass(w, id) == 2 * m0);
    ENSURE_REL(rg_body_mass(w, id), 2 * m0, 1e-6);
    ENSURE(rg_body_apply_impulse(w, id, J, rg_body_center_of_mass(w, id)) == RG_OK);
    dv2 = rg_body_linear_velocity(w, id);
    ENSURE(rg_body_apply_impulse(w, id, rg_v3_scale(J, -1), rg_body_center_of_mass(w, id)) == RG_OK);
    ENSURE(rg_body_apply_impulse(w, id, J, rg_v3_add(rg_body_center_of_mass(w, id), r)) == RG_OK);
    dw2 = rg_body_angular_velocity(w, id);
    ENSURE_REL(dv1.z, J.z / m0, 1e-5);
    ENSURE_REL(dv2.z, J.z / (2 * m0), 1e-5);
    ENSURE(rg_v3_length(dw1) > 0.1);
    ENSURE_V3_NEAR(dw2, rg_v3_scale(dw1, 0.5f), 1e-5 * rg_v3_length(dw1));
    /* one step with a force: dv = F h / m */
    ENSURE(rg_body_set_angular_velocity(w, id, rg_v3(0, 0, 0)) == RG_OK);
    ENSURE(rg_body_set_linear_velocity(w, id, rg_v3(0, 0, 0)) == RG_OK);
    ENSURE(rg_body_apply_force(w, id, rg_v3(1200, 0, 0), rg_body_center_of_mass(w, id)) == RG_OK);
    ENSURE(rg_world_step(w, 0.1f) == RG_OK);
    ENSURE_REL(rg_body_linear_velocity(w, id).x, 1200 * 0.1 / (2 * m0), 1e-5);
    /* back to the density */
    ENSURE(rg_body_set_mass(w, id, 0) == RG_OK);
    ENSURE_REL(rg_body_mass(w, id), m0, 1e-6);
    ENSURE(rg_body_fixed_mass(w, id) == 0);
    rg_world_destroy(w);
    rg_hull_destroy(box);
}

/* rg_world_bodies against the list the test keeps, through rounds of creations and random
   destructions (slots reused, generations moving on), with short capacities. */
static void test_controls_world_bodies_match_brute_force(void) {
    rg_world *w = controls_world(rg_v3(0, -9.81f, 0));
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_id live[200], out[200], few[5];
    int count = 0, round, i, j, total;
    rg_test_seed(24);
    for (round = 0; round < 20; ++round) {
        int create = 1 + (int)(rg_test_random() * 10), destroy = (int)(rg_test_random() * (count + 1) * 0.6);
        for (i = 0; i < create && count < 200; ++i)
            live[count++] = controls_box(w, cube, rg_v3((rg_real)(2 * i), (rg_real)round, 0), rg_quat_identity(), 0);
        for (i = 0; i < destroy && count > 0; ++i) {
            int k = (int)(rg_test_random() * count);
            ENSURE(rg_body_destroy(w, live[k]) == RG_OK);
            live[k] = live[--count];
        }
        if (round % 5 == 4) rg_world_step(w, 1.0f / 60);
        /* brute force: the kept ids by ascending index */
        for (i = 1; i < count; ++i)
            for (j = i; j > 0 && live[j - 1].index > live[j].index; --j) {
                rg_body_id t = live[j];
                live[j] = live[j - 1];
                live[j - 1] = t;
            }
        total = rg_world_bodies(w, out, 200);
        ENSURE(total == count && total == rg_world_get_stats(w).body_count);
        for (i = 0; i < count; ++i)
            ENSURE(out[i].index == live[i].index && out[i].generation == live[i].generation);
        ENSURE(rg_world_bodies(w, few, 5) == count);
        for (i = 0; i < 5 && i < count; ++i) ENSURE(few[i].index == live[i].index);
        ENSURE(rg_world_bodies(w, NULL, 10) == count && rg_world_bodies(w, out, -1) == count);
    }
    ENSURE(rg_world_bodies(NULL, out, 200) == 0);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
}

/* Every setter refuses NULL worlds, stale ids and bad values, and changes nothing then; a def with
   bad control fields is refused. */
static void test_controls_bad_input(void) {
    rg_world *w = controls_world(rg_v3(0, -9.81f, 0));
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_id id = controls_box(w, cube, rg_v3(0, 0, 0), rg_quat_identity(), RG_LOCK_ANGULAR_Y);
    rg_body_id gone = controls_box(w, cube, rg_v3(5, 0, 0), rg_quat_identity(), 0), none = {0, 0};
    rg_real nan = (rg_real)NAN, inf = (rg_real)INFINITY;
    rg_real mass = rg_body_mass(w, id);
    rg_body_def bd = rg_body_default_def();
    rg_result r;
    ENSURE(rg_body_destroy(w, gone) == RG_OK);
    ENSURE(rg_body_set_damping(w, id, 0.5f, 0.25f) == RG_OK);
    ENSURE(rg_body_set_gravity_scale(w, id, 0.5f) == RG_OK);
    /* NULL world and stale ids */
    ENSURE(rg_body_set_type(NULL, id, RG_BODY_STATIC) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_mass(NULL, id, 1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_damping(NULL, id, 1, 1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_gravity_scale(NULL, id, 1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_locks(NULL, id, 0) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_type(w, gone, RG_BODY_STATIC) == RG_ERR_STALE_ID);
    ENSURE(rg_body_set_mass(w, gone, 1) == RG_ERR_STALE_ID);
    ENSURE(rg_body_set_damping(w, none, 1, 1) == RG_ERR_STALE_ID);
    ENSURE(rg_body_set_gravity_scale(w, gone, 1) == RG_ERR_STALE_ID);
    ENSURE(rg_body_set_locks(w, gone, 0) == RG_ERR_STALE_ID);
    ENSURE(rg_body_linear_damping(w, gone) == 0 && rg_body_gravity_scale(NULL, id) == 0 && rg_body_locks(w, gone) == 0);
    /* bad values */
    ENSURE(rg_body_set_type(w, id, (rg_body_type)7) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_type(w, id, (rg_body_type)-1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_mass(w, id, -1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_mass(w, id, nan) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_mass(w, id, inf) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_mass(w, id, 1e16f) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_damping(w, id, -1, 0) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_damping(w, id, 0, -0.1f) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_damping(w, id, nan, 0) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_damping(w, id, 0, inf) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_gravity_scale(w, id, nan) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_gravity_scale(w, id, -inf) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_gravity_scale(w, id, 1e16f) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_locks(w, id, 64) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_locks(w, id, 0x80000001u) == RG_ERR_INVALID_ARGUMENT);
    /* nothing changed */
    ENSURE(rg_body_get_type(w, id) == RG_BODY_DYNAMIC && rg_body_mass(w, id) == mass && rg_body_fixed_mass(w, id) == 0);
    ENSURE(rg_body_linear_damping(w, id) == 0.5f && rg_body_angular_damping(w, id) == 0.25f);
    ENSURE(rg_body_gravity_scale(w, id) == 0.5f && rg_body_locks(w, id) == RG_LOCK_ANGULAR_Y);
    /* gravity scale may be negative, damping zero; all six locks at once */
    ENSURE(rg_body_set_gravity_scale(w, id, -2) == RG_OK && rg_body_set_damping(w, id, 0, 0) == RG_OK);
    ENSURE(rg_body_set_locks(w, id, 63) == RG_OK && rg_world_step(w, 1.0f / 60) == RG_OK);
    ENSURE(rg_body_linear_velocity(w, id).y == 0 && rg_body_position(w, id).y == 0);
    /* defs */
    bd.hull = cube;
    bd.linear_damping = -1;
    ENSURE(!rg_body_is_valid(w, rg_body_create(w, &bd, &r)) && r == RG_ERR_INVALID_ARGUMENT);
    bd.linear_damping = 0;
    bd.angular_damping = nan;
    ENSURE(!rg_body_is_valid(w, rg_body_create(w, &bd, &r)) && r == RG_ERR_INVALID_ARGUMENT);
    bd.angular_damping = 0;
    bd.gravity_scale = inf;
    ENSURE(!rg_body_is_valid(w, rg_body_create(w, &bd, &r)) && r == RG_ERR_INVALID_ARGUMENT);
    bd.gravity_scale = 1;
    bd.locks = 128;
    ENSURE(!rg_body_is_valid(w, rg_body_create(w, &bd, &r)) && r == RG_ERR_INVALID_ARGUMENT);
    bd.locks = RG_LOCK_LINEAR_X;
    bd.linear_velocity = rg_v3(3, 1, 0);
    id = rg_body_create(w, &bd, &r);
    ENSURE(r == RG_OK && rg_body_linear_velocity(w, id).x == 0 && rg_body_linear_velocity(w, id).y == 1);
    ENSURE(rg_body_gravity_scale(w, id) == 1 && rg_body_locks(w, id) == RG_LOCK_LINEAR_X);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
}

void rg_tests_controls(void) {
    RUN_TEST(test_controls_damping_matches_discrete_and_continuous);
    RUN_TEST(test_controls_gravity_scale_free_fall);
    RUN_TEST(test_controls_angular_locks_keep_box_upright);
    RUN_TEST(test_controls_linear_lock_z_on_tilted_slope);
    RUN_TEST(test_controls_linear_lock_is_a_wall_along_its_axis);
    RUN_TEST(test_controls_angular_lock_keeps_free_momentum);
    RUN_TEST(test_controls_set_type_round_trip);
    RUN_TEST(test_controls_kinematic_moves_through_others);
    RUN_TEST(test_controls_set_mass_scales_response);
    RUN_TEST(test_controls_world_bodies_match_brute_force);
    RUN_TEST(test_controls_bad_input);
}
