/* Sleeping: a poured pile falls asleep; a sleeping world gives the narrow phase and the solver
   nothing (their counters) and keeps every pose and contact bit for bit; each cause wakes the
   touched island and only it; a pendulum and a body on a moving platform never sleep; a body
   created asleep does not fall, then falls as the discrete free fall once woken; a scene that
   never rests gives the same bits with sleeping on and off; a body sleeps only after 0.5 s below
   its threshold (the speeds recorded before); bad input; a snapshot rolls sleeping islands back. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define SLEEP_DT (1.0f / 60)
#define SLEEP_G 9.81

static rg_world *sleep_world(int enable_sleep) {
    rg_world_def def = rg_world_default_def();
    def.enable_sleep = enable_sleep;
    return rg_world_create(&def, NULL);
}

static rg_body_id sleep_box(rg_world *w, const rg_hull *hull, rg_vec3 position) {
    rg_body_def bd = rg_body_default_def();
    bd.hull = hull;
    bd.position = position;
    return rg_body_create(w, &bd, NULL);
}

/* |v| + |w| r, r the cube's half diagonal (its extent from the centre of mass), as the sleep
   threshold measures a body's fastest point */
static double sleep_speed(const rg_world *w, rg_body_id id, double r) {
    rg_vec3 v = rg_body_linear_velocity(w, id), omega = rg_body_angular_velocity(w, id);
    return sqrt((double)rg_v3_dot(v, v)) + sqrt((double)rg_v3_dot(omega, omega)) * r;
}

/* Steps (at least once) until every body sleeps, at most 10 s; 1 if they do. */
static int sleep_settle(rg_world *w) {
    int step;
    for (step = 0; step < 600; ++step) {
        rg_world_step(w, SLEEP_DT);
        if (rg_world_get_stats(w).awake_body_count == 0) return 1;
    }
    return 0;
}

static int sleep_awake_count(const rg_world *w, const rg_body_id *ids, int n) {
    int i, awake = 0;
    for (i = 0; i < n; ++i) awake += rg_body_is_awake(w, ids[i]);
    return awake;
}

/* 100 cubes poured from a 5 x 5 column grid, 4 layers, jittered, onto the ground. */
enum { PILE = 100 };
static void sleep_pour(rg_world *w, const rg_hull *cube, rg_body_id *ids) {
    int i;
    rg_test_seed(28);
    for (i = 0; i < PILE; ++i) {
        double x = (i % 5) * 1.3 - 2.6 + rg_test_uniform(-0.2, 0.2), z = (i / 5 % 5) * 1.3 - 2.6 + rg_test_uniform(-0.2, 0.2);
        double y = 1 + (i / 25) * 1.6 + rg_test_uniform(0, 0.3);
        rg_body_def bd = rg_body_default_def();
        bd.hull = cube;
        bd.position = rg_v3((rg_real)x, (rg_real)y, (rg_real)z);
        bd.orientation = rg_test_rotation();
        ids[i] = rg_body_create(w, &bd, NULL);
    }
}

/* The pile lands (the last step at which a cube is faster than 1 m/s) and is asleep, every cube
   and awake_body_count 0, within 10 s of that; no cube sank into the ground or left the area. */
static void test_sleep_pile_falls_asleep(void) {
    rg_world *w = sleep_world(1);
    rg_hull *ground = rg_hull_create_box(rg_v3(20, 0.5f, 20), NULL), *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_id ids[PILE];
    int i, step, landed = 0, asleep = -1;
    ENSURE(w && ground && cube);
    add_ground(w, ground);
    sleep_pour(w, cube, ids);
    for (step = 1; step <= 60 * 40 && asleep < 0; ++step) {
        rg_world_step(w, SLEEP_DT);
        for (i = 0; i < PILE; ++i)
            if (sleep_speed(w, ids[i], 0.866) > 1) landed = step;
        if (rg_world_get_stats(w).awake_body_count == 0) asleep = step;
    }
    rg_test_note("landed at %.2f s, all %d asleep at %.2f s (%.2f s after landing)", landed / 60.0, PILE, asleep / 60.0,
                 (asleep - landed) / 60.0);
    ENSURE(asleep > 0);
    ENSURE(asleep - landed <= 600);
    ENSURE(sleep_awake_count(w, ids, PILE) == 0);
    for (i = 0; i < PILE; ++i) {
        rg_vec3 p = rg_body_position(w, ids[i]);
        ENSURE(p.y > 0.4 && fabs(p.x) < 20 && fabs(p.z) < 20);
        ENSURE(rg_v3_length(rg_body_linear_velocity(w, ids[i])) == 0 && rg_v3_length(rg_body_angular_velocity(w, ids[i])) == 0);
    }
    rg_world_destroy(w);
    rg_hull_destroy(ground);
    rg_hull_destroy(cube);
}

/* Once asleep, a step collides no shape pair, gives the solver no body and no manifold, and keeps
   aside the manifolds of the step that sent the pile's last island to sleep, all of them (those
   its solver had and those kept aside already); the poses, the
   contacts rg_world_contacts reports and the contact count stay bit for bit over 2 s. */
static void test_sleep_sleeping_world_visits_nothing(void) {
    rg_world *w = sleep_world(1);
    rg_hull *ground = rg_hull_create_box(rg_v3(20, 0.5f, 20), NULL), *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_id ids[PILE];
    static rg_contact before[2048], after[2048];
    rg_vec3 positions[PILE];
    rg_world_stats stats;
    int i, step, manifolds = -1, count;
    ENSURE(w && ground && cube);
    add_ground(w, ground);
    sleep_pour(w, cube, ids);
    for (step = 0; step < 60 * 40; ++step) {
        rg_world_step(w, SLEEP_DT);
        stats = rg_world_get_stats(w);
        /* the manifolds of the step whose end sent the last island to sleep, solved or kept aside */
        manifolds = stats.solver_manifold_count + stats.sleeping_manifold_count;
        if (stats.awake_body_count == 0) break;
    }
    ENSURE(rg_world_get_stats(w).awake_body_count == 0 && manifolds > 0);
    rg_world_step(w, SLEEP_DT); /* its manifolds go aside, and the report with them */
    ENSURE(rg_world_get_stats(w).sleeping_manifold_count == manifolds);
    count = rg_world_contacts(w, before, 2048);
    ENSURE(count > 0 && count <= 2048);
    for (i = 0; i < PILE; ++i) positions[i] = rg_body_position(w, ids[i]);
    for (step = 0; step < 120; ++step) {
        rg_world_step(w, SLEEP_DT);
        stats = rg_world_get_stats(w);
        ENSURE(stats.narrowphase_pair_count == 0 && stats.witness_hits == 0 && stats.witness_misses == 0 &&
               stats.manifold_reuses == 0);
        ENSURE(stats.solver_body_count == 0 && stats.solver_manifold_count == 0 && stats.awake_body_count == 0);
        ENSURE(stats.sleeping_manifold_count == manifolds);
        ENSURE(stats.contact_count == count);
    }
    rg_test_note("asleep: %d manifolds kept aside, %d contacts reported; pairs collided 0, solver bodies 0", manifolds,
                 count);
    for (i = 0; i < PILE; ++i) {
        rg_vec3 p = rg_body_position(w, ids[i]);
        ENSURE(p.x == positions[i].x && p.y == positions[i].y && p.z == positions[i].z);
    }
    ENSURE(rg_world_contacts(w, after, 2048) == count);
    for (i = 0; i < count; ++i) {
        ENSURE(rg_v3_length(rg_v3_sub(before[i].point, after[i].point)) == 0);
        ENSURE(before[i].normal_impulse == after[i].normal_impulse && before[i].depth == after[i].depth);
    }
    rg_world_destroy(w);
    rg_hull_destroy(ground);
    rg_hull_destroy(cube);
}

/* Two stacks of three cubes 10 m apart (two islands), stepped until both sleep. */
typedef struct sleep_piles {
    rg_world *w;
    rg_hull *ground, *cube;
    rg_body_id ground_id, a[3], b[3];
} sleep_piles;

static int sleep_piles_create(sleep_piles *p) {
    int i;
    memset(p, 0, sizeof *p);
    p->w = sleep_world(1);
    p->ground = rg_hull_create_box(rg_v3(20, 0.5f, 20), NULL);
    p->cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    if (!p->w || !p->ground || !p->cube) return 0;
    p->ground_id = add_ground(p->w, p->ground);
    for (i = 0; i < 3; ++i) {
        p->a[i] = sleep_box(p->w, p->cube, rg_v3(-5, 0.5f + (rg_real)i, 0));
        p->b[i] = sleep_box(p->w, p->cube, rg_v3(5, 0.5f + (rg_real)i, 0));
    }
    return sleep_settle(p->w) && sleep_awake_count(p->w, p->a, 3) == 0 &&
           sleep_awake_count(p->w, p->b, 3) == 0;
}

static void sleep_piles_destroy(sleep_piles *p) {
    rg_world_destroy(p->w);
    rg_hull_destroy(p->ground);
    rg_hull_destroy(p->cube);
}

enum {
    WAKE_VELOCITY, WAKE_SPIN, WAKE_FORCE, WAKE_TORQUE, WAKE_IMPULSE, WAKE_TRANSFORM, WAKE_MASS, WAKE_TYPE,
    WAKE_LOCKS, WAKE_DAMPING, WAKE_GRAVITY_SCALE, WAKE_SET_AWAKE, WAKE_JOINT_CREATE, WAKE_JOINT_DESTROY,
    WAKE_BODY_DESTROY, WAKE_SHAPE_ADD, WAKE_SHAPE_DESTROY, WAKE_FILTER, WAKE_TOUCH, WAKE_CAUSES
};
static const char *const sleep_cause_names[WAKE_CAUSES] = {
    "set_linear_velocity", "set_angular_velocity", "apply_force", "apply_torque", "apply_impulse", "set_transform",
    "set_mass", "set_type", "set_locks", "set_damping", "set_gravity_scale", "set_awake", "joint created",
    "joint destroyed", "body destroyed", "shape added", "shape destroyed", "shape filter", "a cube dropped on it"};

/* Each cause given to the top cube of pile a (or, for a destroyed body, a's top cube goes and the
   two below are checked) wakes all of pile a at once and leaves pile b asleep; after the next
   step pile b is still asleep. The joint destroyed is one made while both piles slept, after
   both slept again. */
static void test_sleep_each_cause_wakes_its_island_only(void) {
    int cause;
    for (cause = 0; cause < WAKE_CAUSES; ++cause) {
        sleep_piles p;
        rg_body_id top;
        rg_result r = RG_OK;
        int checked = 3;
        ENSURE(sleep_piles_create(&p));
        top = p.a[2];
        switch (cause) {
        case WAKE_VELOCITY: r = rg_body_set_linear_velocity(p.w, top, rg_v3(0, 0, 0)); break;
        case WAKE_SPIN: r = rg_body_set_angular_velocity(p.w, top, rg_v3(0, 0, 0)); break;
        case WAKE_FORCE: r = rg_body_apply_force(p.w, top, rg_v3(1, 0, 0), rg_body_center_of_mass(p.w, top)); break;
        case WAKE_TORQUE: r = rg_body_apply_torque(p.w, top, rg_v3(0, 1, 0)); break;
        case WAKE_IMPULSE: r = rg_body_apply_impulse(p.w, top, rg_v3(1, 0, 0), rg_body_center_of_mass(p.w, top)); break;
        case WAKE_TRANSFORM: r = rg_body_set_transform(p.w, top, rg_body_position(p.w, top), rg_body_orientation(p.w, top)); break;
        case WAKE_MASS: r = rg_body_set_mass(p.w, top, 2000); break;
        case WAKE_TYPE:
            r = rg_body_set_type(p.w, top, RG_BODY_KINEMATIC);
            if (r == RG_OK) r = rg_body_set_type(p.w, top, RG_BODY_DYNAMIC);
            break;
        case WAKE_LOCKS: r = rg_body_set_locks(p.w, top, RG_LOCK_ANGULAR_X); break;
        case WAKE_DAMPING: r = rg_body_set_damping(p.w, top, 0.1f, 0.1f); break;
        case WAKE_GRAVITY_SCALE: r = rg_body_set_gravity_scale(p.w, top, 1); break;
        case WAKE_SET_AWAKE: r = rg_body_set_awake(p.w, top, 1); break;
        case WAKE_JOINT_CREATE:
        case WAKE_JOINT_DESTROY: {
            rg_joint_def d = rg_joint_default_def();
            rg_joint_id j;
            d.body_a = top;
            d.anchor_a = rg_v3(-5, 3, 0);
            j = rg_joint_create(p.w, &d, &r);
            if (cause == WAKE_JOINT_DESTROY) {
                ENSURE(r == RG_OK && rg_body_is_awake(p.w, top) && !rg_body_is_awake(p.w, p.b[0]));
                ENSURE(sleep_settle(p.w));
                r = rg_joint_destroy(p.w, j);
            }
            break;
        }
        case WAKE_BODY_DESTROY: r = rg_body_destroy(p.w, top); checked = 2; break;
        case WAKE_SHAPE_ADD: {
            rg_shape_def sd = rg_shape_default_def();
            r = rg_shape_is_valid(p.w, rg_body_add_sphere(p.w, top, &sd, rg_v3(0, 0, 0), 0.1f, NULL)) ? RG_OK : RG_ERR_INVALID_ARGUMENT;
            break;
        }
        case WAKE_SHAPE_DESTROY: {
            rg_shape_id shapes[4];
            rg_shape_def sd = rg_shape_default_def();
            rg_body_add_sphere(p.w, top, &sd, rg_v3(0, 0, 0), 0.1f, NULL);
            ENSURE(sleep_settle(p.w) && rg_body_shapes(p.w, top, shapes, 4) == 2);
            r = rg_shape_destroy(p.w, shapes[1]);
            break;
        }
        case WAKE_FILTER: {
            rg_shape_id shape;
            ENSURE(rg_body_shapes(p.w, top, &shape, 1) == 1);
            r = rg_shape_set_filter(p.w, shape, 1, 0xFFFFFFFFu, 0);
            break;
        }
        case WAKE_TOUCH: {
            int step;
            rg_body_id dropped = sleep_box(p.w, p.cube, rg_v3(-5, 4, 0));
            ENSURE(rg_body_is_awake(p.w, dropped) && !rg_body_is_awake(p.w, top));
            /* a's top face is at 3: the cube meets it after about sqrt(2 x 0.5 / g) = 0.32 s */
            for (step = 0; step < 60 && !rg_body_is_awake(p.w, top); ++step) rg_world_step(p.w, SLEEP_DT);
            rg_test_note("the dropped cube woke pile a after %d steps, %.3f m above it", step,
                         rg_body_position(p.w, dropped).y - 3.5);
            ENSURE(step > 15);
            break;
        }
        }
        ENSURE(r == RG_OK);
        if (cause == WAKE_BODY_DESTROY) ENSURE(sleep_awake_count(p.w, p.a, 2) == 2);
        else ENSURE(sleep_awake_count(p.w, p.a, 3) == 3);
        ENSURE(sleep_awake_count(p.w, p.b, 3) == 0);
        rg_world_step(p.w, SLEEP_DT);
        ENSURE(sleep_awake_count(p.w, p.b, 3) == 0);
        ENSURE(rg_world_get_stats(p.w).awake_body_count >= checked);
        sleep_piles_destroy(&p);
    }
    rg_test_note("%d causes each woke pile a and left pile b asleep: %s, ..., %s", WAKE_CAUSES, sleep_cause_names[0],
                 sleep_cause_names[WAKE_CAUSES - 1]);
}

/* Gravity changed wakes every island; moving the ground (static) wakes what rests on it; a pile
   woken by rg_body_set_awake(.., 1) and left alone sleeps again; rg_body_set_awake(.., 0) sends
   an awake pile to sleep at once, velocities zero, and only it. */
static void test_sleep_gravity_ground_and_set_awake(void) {
    sleep_piles p;
    ENSURE(sleep_piles_create(&p));
    ENSURE(rg_world_set_gravity(p.w, rg_v3(0, -9.81f, 0)) == RG_OK);
    ENSURE(sleep_awake_count(p.w, p.a, 3) == 3 && sleep_awake_count(p.w, p.b, 3) == 3);
    ENSURE(sleep_settle(p.w));
    ENSURE(rg_body_set_transform(p.w, p.ground_id, rg_v3(0, -0.5f, 0), rg_quat_identity()) == RG_OK);
    ENSURE(sleep_awake_count(p.w, p.a, 3) == 3 && sleep_awake_count(p.w, p.b, 3) == 3);
    ENSURE(!rg_body_is_awake(p.w, p.ground_id));
    ENSURE(rg_body_set_awake(p.w, p.a[1], 0) == RG_OK);
    ENSURE(sleep_awake_count(p.w, p.a, 3) == 0 && sleep_awake_count(p.w, p.b, 3) == 3);
    rg_world_step(p.w, SLEEP_DT);
    ENSURE(sleep_awake_count(p.w, p.a, 3) == 0 && rg_world_get_stats(p.w).awake_body_count == 3);
    ENSURE(sleep_settle(p.w));
    sleep_piles_destroy(&p);
}

/* A ball on a 1 m ball joint from the world, let go 0.5 rad from the vertical, swings for 20 s
   and is awake at the end of every step (its speed falls below the threshold only for a few
   steps at each end of the swing, never for 0.5 s). */
static void test_sleep_pendulum_never_sleeps(void) {
    rg_world *w = sleep_world(1);
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    rg_joint_def d = rg_joint_default_def();
    rg_body_id ball;
    double highest = -1e9;
    int step, asleep_steps = 0;
    ENSURE(w);
    bd.position = rg_v3((rg_real)sin(0.5), (rg_real)-cos(0.5), 0);
    ball = rg_body_create(w, &bd, NULL);
    ENSURE(rg_shape_is_valid(w, rg_body_add_sphere(w, ball, &sd, rg_v3(0, 0, 0), 0.1f, NULL)));
    d.body_a = ball;
    d.anchor_a = rg_v3(0, 0, 0);
    ENSURE(rg_joint_is_valid(w, rg_joint_create(w, &d, NULL)));
    for (step = 0; step < 60 * 20; ++step) {
        rg_world_step(w, SLEEP_DT);
        asleep_steps += !rg_body_is_awake(w, ball);
        if (step > 60 * 19) highest = fmax(highest, rg_body_position(w, ball).y);
    }
    rg_test_note("20 s of swinging: %d steps asleep; highest point in the last second y = %.3f m (start %.3f)",
                 asleep_steps, highest, -cos(0.5));
    ENSURE(asleep_steps == 0);
    ENSURE(rg_world_get_stats(w).awake_body_count == 1);
    rg_world_destroy(w);
}

/* A cube on a kinematic platform moving at 0.5 m/s is awake at the end of every step for 5 s
   (it rides along within 1 mm, at rest on the platform but not in the world);
   the platform stopped, both fall asleep, the platform an island of its own. */
static void test_sleep_kinematic_platform(void) {
    rg_world *w = sleep_world(1);
    rg_hull *slab = rg_hull_create_box(rg_v3(20, 0.25f, 2), NULL), *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_def bd = rg_body_default_def();
    rg_body_id platform, rider;
    int step, asleep_steps = 0;
    ENSURE(w && slab && cube);
    bd.type = RG_BODY_KINEMATIC;
    bd.hull = slab;
    bd.linear_velocity = rg_v3(0.5f, 0, 0);
    platform = rg_body_create(w, &bd, NULL);
    bd.type = RG_BODY_DYNAMIC;
    bd.hull = cube;
    bd.position = rg_v3(0, 0.75f, 0);
    rider = rg_body_create(w, &bd, NULL); /* moving with it from the start */
    for (step = 0; step < 300; ++step) {
        rg_world_step(w, SLEEP_DT);
        asleep_steps += !rg_body_is_awake(w, rider) + !rg_body_is_awake(w, platform);
    }
    rg_test_note("5 s on the moving platform: rider at x = %.3f m (platform moved %.3f), %d steps asleep",
                 rg_body_position(w, rider).x, rg_body_position(w, platform).x, asleep_steps);
    ENSURE(asleep_steps == 0);
    ENSURE_NEAR(rg_body_position(w, rider).x, rg_body_position(w, platform).x, 0.001);
    ENSURE(rg_body_set_linear_velocity(w, platform, rg_v3(0, 0, 0)) == RG_OK);
    ENSURE(sleep_settle(w));
    ENSURE(!rg_body_is_awake(w, rider) && !rg_body_is_awake(w, platform));
    /* moving it again wakes the platform, and its rider at the next step */
    ENSURE(rg_body_set_linear_velocity(w, platform, rg_v3(0.5f, 0, 0)) == RG_OK);
    ENSURE(rg_body_is_awake(w, platform) && !rg_body_is_awake(w, rider));
    rg_world_step(w, SLEEP_DT);
    ENSURE(rg_body_is_awake(w, rider));
    rg_world_destroy(w);
    rg_hull_destroy(slab);
    rg_hull_destroy(cube);
}

/* A cube created with is_awake 0 stays at its place, velocities zero (those of its def dropped),
   for 1 s of gravity; woken, it falls as the discrete free fall y0 - g h^2 n (n + 1) / 2. A world
   with sleeping off ignores is_awake 0. */
static void test_sleep_created_asleep_does_not_fall(void) {
    rg_world *w = sleep_world(1), *off = sleep_world(0);
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_def bd = rg_body_default_def();
    rg_body_id id, other;
    rg_vec3 start;
    int step, n = 30;
    ENSURE(w && off && cube);
    bd.hull = cube;
    bd.position = rg_v3(1, 5, 2);
    bd.linear_velocity = rg_v3(0, 3, 0);
    bd.is_awake = 0;
    id = rg_body_create(w, &bd, NULL);
    other = rg_body_create(off, &bd, NULL);
    ENSURE(rg_body_is_valid(w, id) && !rg_body_is_awake(w, id) && rg_body_is_awake(off, other));
    ENSURE(rg_v3_length(rg_body_linear_velocity(w, id)) == 0);
    start = rg_body_position(w, id);
    for (step = 0; step < 60; ++step) rg_world_step(w, SLEEP_DT);
    ENSURE(rg_body_position(w, id).x == start.x && rg_body_position(w, id).y == start.y && rg_body_position(w, id).z == start.z);
    ENSURE(!rg_body_is_awake(w, id) && rg_world_get_stats(w).awake_body_count == 0);
    ENSURE(rg_body_set_awake(w, id, 1) == RG_OK && rg_body_is_awake(w, id));
    for (step = 0; step < n; ++step) rg_world_step(w, SLEEP_DT);
    ENSURE_NEAR(rg_body_position(w, id).y, 5 - SLEEP_G * (double)SLEEP_DT * SLEEP_DT * n * (n + 1) / 2, 1e-4);
    rg_world_step(off, SLEEP_DT);
    ENSURE(rg_body_position(off, other).y > 5); /* its def's 3 m/s upwards */
    rg_test_note("asleep 1 s at y = %.3f; woken, %.5f m after %d steps (discrete free fall %.5f)", start.y,
                 rg_body_position(w, id).y, n, 5 - SLEEP_G * (double)SLEEP_DT * SLEEP_DT * n * (n + 1) / 2);
    rg_world_destroy(w);
    rg_world_destroy(off);
    rg_hull_destroy(cube);
}

/* Cubes sliding on frictionless ground at 2 to 4 m/s, catching up with one another, and a cube
   tumbling in the air above: nothing ever rests, and 300 steps give the same bits with sleeping
   on and off (positions, orientations, velocities), nobody asleep. */
static void run_never_rests(int enable_sleep, rg_vec3 *out, int *awake) {
    enum { SLIDERS = 8 };
    rg_world *w = sleep_world(enable_sleep);
    rg_hull *ground = rg_hull_create_box(rg_v3(200, 0.5f, 20), NULL), *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_def bd = rg_body_default_def();
    rg_body_id ids[SLIDERS + 1];
    int i, step;
    *awake = -1;
    if (!w || !ground || !cube) return;
    bd.type = RG_BODY_STATIC;
    bd.hull = ground;
    bd.position = rg_v3(0, -0.5f, 0);
    bd.static_friction = bd.dynamic_friction = 0;
    rg_body_create(w, &bd, NULL);
    for (i = 0; i < SLIDERS; ++i) {
        bd = rg_body_default_def();
        bd.hull = cube;
        bd.static_friction = bd.dynamic_friction = 0;
        bd.position = rg_v3(-100 + 3 * (rg_real)i, 0.5f, 0);
        bd.linear_velocity = rg_v3(4 - 0.25f * (rg_real)i, 0, 0);
        ids[i] = rg_body_create(w, &bd, NULL);
    }
    bd = rg_body_default_def();
    bd.hull = cube;
    bd.position = rg_v3(0, 10, 10);
    bd.linear_velocity = rg_v3(0, 40, 0);
    bd.angular_velocity = rg_v3(1, 2, 3);
    ids[SLIDERS] = rg_body_create(w, &bd, NULL);
    for (step = 0; step < 300; ++step) rg_world_step(w, SLEEP_DT);
    for (i = 0; i <= SLIDERS; ++i) {
        rg_quat q = rg_body_orientation(w, ids[i]);
        out[4 * i] = rg_body_position(w, ids[i]);
        out[4 * i + 1] = rg_v3(q.x, q.y, q.z);
        out[4 * i + 2] = rg_body_linear_velocity(w, ids[i]);
        out[4 * i + 3] = rg_body_angular_velocity(w, ids[i]);
    }
    *awake = rg_world_get_stats(w).awake_body_count;
    rg_world_destroy(w);
    rg_hull_destroy(ground);
    rg_hull_destroy(cube);
}

static void test_sleep_same_bits_when_nothing_rests(void) {
    rg_vec3 on[36], off[36];
    int awake_on, awake_off;
    memset(on, 0, sizeof on);
    memset(off, 0, sizeof off);
    run_never_rests(1, on, &awake_on);
    run_never_rests(0, off, &awake_off);
    rg_test_note("after 5 s: %d and %d bodies awake; first slider at x = %.4f m, moving %.4f m/s", awake_on, awake_off,
                 on[0].x, on[2].x);
    ENSURE(awake_on == 9 && awake_off == 9);
    ENSURE(memcmp(on, off, sizeof on) == 0);
}

/* Every cube of a 3-high stack and of a cube alone was slower than its threshold (0.05 m/s, its
   fastest point |v| + |w| r) at the end of each of the 29 steps before the step that sent it to
   sleep (the 30th, 0.5 s, ends with its velocities zeroed), and the stack's cubes slept in the
   same step. A cube given a threshold of 0.5 m/s sleeps no later. */
static void test_sleep_only_after_half_a_second_below_threshold(void) {
    enum { N = 4, HISTORY = 29 };
    rg_world *w = sleep_world(1);
    rg_hull *ground = rg_hull_create_box(rg_v3(20, 0.5f, 20), NULL), *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_id ids[N];
    double speeds[N][HISTORY];
    int slept[N], awake_steps[N], i, k, step;
    ENSURE(w && ground && cube);
    add_ground(w, ground);
    for (i = 0; i < 3; ++i) ids[i] = sleep_box(w, cube, rg_v3(0, 0.6f + 1.05f * (rg_real)i, 0));
    ids[3] = sleep_box(w, cube, rg_v3(4, 1.5f, 0));
    ENSURE(rg_body_apply_impulse(w, ids[3], rg_v3(0, 0, 300), rg_v3(4, 1.9f, 0)) == RG_OK);
    for (i = 0; i < N; ++i) slept[i] = awake_steps[i] = 0;
    for (step = 1; step <= 600; ++step) {
        rg_world_step(w, SLEEP_DT);
        for (i = 0; i < N; ++i) {
            if (slept[i]) continue;
            if (!rg_body_is_awake(w, ids[i])) {
                slept[i] = step;
                ENSURE(awake_steps[i] >= HISTORY);
                for (k = 0; k < HISTORY; ++k) ENSURE(speeds[i][k] <= 0.05);
                continue;
            }
            speeds[i][awake_steps[i] % HISTORY] = sleep_speed(w, ids[i], 0.8660254);
            ++awake_steps[i];
        }
    }
    rg_test_note("stack slept at steps %d %d %d, the lone cube at %d (all 29 speeds before below 0.05 m/s)", slept[0],
                 slept[1], slept[2], slept[3]);
    for (i = 0; i < N; ++i) ENSURE(slept[i] > 30);
    ENSURE(slept[0] == slept[1] && slept[1] == slept[2]);
    rg_world_destroy(w);
    rg_hull_destroy(ground);
    rg_hull_destroy(cube);
}

/* A body kept from sleeping (enable_sleep 0) keeps its island awake: a cube resting on one never
   sleeps; a cube apart sleeps. A world with sleeping off: nobody sleeps, set_awake(.., 0) is
   ignored. */
static void test_sleep_disabled(void) {
    rg_world *w = sleep_world(1), *off = sleep_world(0);
    rg_hull *ground = rg_hull_create_box(rg_v3(20, 0.5f, 20), NULL), *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_def bd = rg_body_default_def();
    rg_body_id base, top, apart, lone;
    int step;
    ENSURE(w && off && ground && cube);
    add_ground(w, ground);
    add_ground(off, ground);
    bd.hull = cube;
    bd.position = rg_v3(0, 0.5f, 0);
    bd.enable_sleep = 0;
    base = rg_body_create(w, &bd, NULL);
    top = sleep_box(w, cube, rg_v3(0, 1.5f, 0));
    apart = sleep_box(w, cube, rg_v3(5, 0.5f, 0));
    lone = sleep_box(off, cube, rg_v3(0, 0.5f, 0));
    for (step = 0; step < 180; ++step) {
        rg_world_step(w, SLEEP_DT);
        rg_world_step(off, SLEEP_DT);
    }
    ENSURE(rg_body_is_awake(w, base) && rg_body_is_awake(w, top) && !rg_body_is_awake(w, apart));
    ENSURE(rg_world_get_stats(w).awake_body_count == 2);
    ENSURE(rg_body_is_awake(off, lone) && rg_world_get_stats(off).awake_body_count == 1);
    ENSURE(rg_body_set_awake(off, lone, 0) == RG_OK && rg_body_is_awake(off, lone));
    rg_world_destroy(w);
    rg_world_destroy(off);
    rg_hull_destroy(ground);
    rg_hull_destroy(cube);
}

/* NULL world, stale and null ids, a static body, bad thresholds in the def: clear results, and
   the world unchanged. */
static void test_sleep_bad_input(void) {
    rg_world *w = sleep_world(1);
    rg_hull *ground = rg_hull_create_box(rg_v3(20, 0.5f, 20), NULL), *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_def bd = rg_body_default_def();
    rg_body_id ground_id, id, gone, none = {0, 0};
    rg_result r;
    volatile double zero = 0;
    ENSURE(w && ground && cube);
    ENSURE(bd.sleep_threshold == (rg_real)0.05 && bd.enable_sleep == 1 && bd.is_awake == 1);
    ENSURE(rg_world_default_def().enable_sleep == 1);
    ground_id = add_ground(w, ground);
    id = sleep_box(w, cube, rg_v3(0, 0.5f, 0));
    gone = sleep_box(w, cube, rg_v3(5, 0.5f, 0));
    ENSURE(rg_body_destroy(w, gone) == RG_OK);
    ENSURE(rg_body_is_awake(NULL, id) == 0 && rg_body_set_awake(NULL, id, 1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_is_awake(w, gone) == 0 && rg_body_set_awake(w, gone, 0) == RG_ERR_STALE_ID);
    ENSURE(rg_body_is_awake(w, none) == 0 && rg_body_set_awake(w, none, 1) == RG_ERR_STALE_ID);
    ENSURE(rg_body_is_awake(w, ground_id) == 0 && rg_body_set_awake(w, ground_id, 0) == RG_OK);
    ENSURE(rg_body_set_awake(w, ground_id, 1) == RG_OK && rg_body_is_awake(w, ground_id) == 0);
    ENSURE(rg_body_is_awake(w, id) == 1);
    bd.hull = cube;
    bd.sleep_threshold = (rg_real)(zero / zero);
    ENSURE(!rg_body_is_valid(w, rg_body_create(w, &bd, &r)) && r == RG_ERR_INVALID_ARGUMENT);
    bd.sleep_threshold = -0.01f;
    ENSURE(!rg_body_is_valid(w, rg_body_create(w, &bd, &r)) && r == RG_ERR_INVALID_ARGUMENT);
    bd.sleep_threshold = (rg_real)(1 / zero);
    ENSURE(!rg_body_is_valid(w, rg_body_create(w, &bd, &r)) && r == RG_ERR_INVALID_ARGUMENT);
    bd.sleep_threshold = 0;
    ENSURE(rg_body_is_valid(w, rg_body_create(w, &bd, &r)) && r == RG_OK);
    ENSURE(rg_world_get_stats(w).body_count == 3);
    rg_world_destroy(w);
    rg_hull_destroy(ground);
    rg_hull_destroy(cube);
}

/* Rollback with sleeping islands: pile a asleep and pile b woken by a dropped cube, saved
   while a sleeps and the cube falls; the 90 steps after a load (the cube lands, b sleeps again,
   a is hit by an impulse given after the load as before) give the same bits as the 90 steps
   after the save, asleep flags included. */
static void sleep_state(const sleep_piles *p, rg_body_id extra, double *out) {
    int i, k = 0;
    for (i = 0; i < 7; ++i) {
        rg_body_id id = i < 3 ? p->a[i] : i < 6 ? p->b[i - 3] : extra;
        rg_vec3 x = rg_body_position(p->w, id), v = rg_body_linear_velocity(p->w, id);
        rg_quat q = rg_body_orientation(p->w, id);
        out[k++] = x.x; out[k++] = x.y; out[k++] = x.z; out[k++] = v.x; out[k++] = v.y; out[k++] = v.z;
        out[k++] = q.x; out[k++] = q.y; out[k++] = q.z; out[k++] = q.w;
        out[k++] = rg_body_is_awake(p->w, id);
    }
}

static void test_sleep_snapshot_rollback(void) {
    sleep_piles p;
    rg_body_id dropped;
    double first[77], second[77];
    size_t size;
    void *buffer;
    int step, run;
    ENSURE(sleep_piles_create(&p));
    dropped = sleep_box(p.w, p.cube, rg_v3(5, 4.5f, 0));
    for (step = 0; step < 10; ++step) rg_world_step(p.w, SLEEP_DT);
    ENSURE(sleep_awake_count(p.w, p.a, 3) == 0 && rg_body_is_awake(p.w, dropped));
    size = rg_world_snapshot_size(p.w);
    buffer = malloc(size);
    ENSURE(buffer && rg_world_snapshot_save(p.w, buffer, size) == RG_OK);
    for (run = 0; run < 2; ++run) {
        if (run == 1) ENSURE(rg_world_snapshot_load(p.w, buffer, size) == RG_OK);
        for (step = 0; step < 90; ++step) {
            if (step == 45) ENSURE(rg_body_apply_impulse(p.w, p.a[2], rg_v3(0, 0, 50), rg_body_center_of_mass(p.w, p.a[2])) == RG_OK);
            rg_world_step(p.w, SLEEP_DT);
        }
        sleep_state(&p, dropped, run == 0 ? first : second);
    }
    rg_test_note("after the load: pile a %d awake, pile b %d awake, the cube %s; the same bits as after the save",
                 sleep_awake_count(p.w, p.a, 3), sleep_awake_count(p.w, p.b, 3), rg_body_is_awake(p.w, dropped) ? "awake" : "asleep");
    ENSURE(memcmp(first, second, sizeof first) == 0);
    free(buffer);
    sleep_piles_destroy(&p);
}

void rg_tests_sleep(void) {
    RUN_TEST(test_sleep_pile_falls_asleep);
    RUN_TEST(test_sleep_sleeping_world_visits_nothing);
    RUN_TEST(test_sleep_each_cause_wakes_its_island_only);
    RUN_TEST(test_sleep_gravity_ground_and_set_awake);
    RUN_TEST(test_sleep_pendulum_never_sleeps);
    RUN_TEST(test_sleep_kinematic_platform);
    RUN_TEST(test_sleep_created_asleep_does_not_fall);
    RUN_TEST(test_sleep_same_bits_when_nothing_rests);
    RUN_TEST(test_sleep_only_after_half_a_second_below_threshold);
    RUN_TEST(test_sleep_disabled);
    RUN_TEST(test_sleep_bad_input);
    RUN_TEST(test_sleep_snapshot_rollback);
}
