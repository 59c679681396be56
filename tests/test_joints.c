/* Joints without their solver: the def and its refusals (each leaves the world as it was), ids
   and their staleness after rg_joint_destroy and after a joined body's destruction, the bodies'
   joint lists, anchors and axes carried in the bodies' frames, collide_connected both ways
   (contacts and events), rg_joint_position against the analytic angle, translation and length
   of bodies placed by rg_body_set_transform (a hinge over several turns), limits and motors set
   at run time and refused on types without them, and the debug draw of joints. */
#include "test.h"

#include <string.h>

#define JOINT_PI 3.14159265358979323846

static rg_vec3 v3(double x, double y, double z) { return rg_v3((rg_real)x, (rg_real)y, (rg_real)z); }

/* Lengths of order one computed in rg_real through a few rotations. */
#ifdef RIGID_DOUBLE
#define JOINT_EPS 1e-12
#else
#define JOINT_EPS 2e-5
#endif

static rg_world *joint_world(double gravity) {
    rg_world_def wd = rg_world_default_def();
    wd.gravity = v3(0, -gravity, 0);
    return rg_world_create(&wd, NULL);
}

static rg_body_id joint_box(rg_world *w, const rg_hull *hull, rg_body_type type, rg_vec3 position, rg_quat orientation) {
    rg_body_def bd = rg_body_default_def();
    bd.type = type;
    bd.hull = hull;
    bd.position = position;
    bd.orientation = orientation;
    return rg_body_create(w, &bd, NULL);
}

static int same_body(rg_body_id a, rg_body_id b) { return a.index == b.index && a.generation == b.generation; }
static int same_joint(rg_joint_id a, rg_joint_id b) { return a.index == b.index && a.generation == b.generation; }

/* The world's bodies and joints, to see that a refusal changed nothing. */
typedef struct joint_census { int bodies, joints; } joint_census;
static joint_census joint_count(const rg_world *w) {
    joint_census c;
    c.bodies = rg_world_get_stats(w).body_count;
    c.joints = rg_world_joints(w, NULL, 0);
    return c;
}

/* rg_joint_create is refused with `expected`, returns a null id, and leaves the world as it was. */
static int joint_refused(rg_world *w, const rg_joint_def *def, rg_result expected) {
    joint_census before = joint_count(w), after;
    rg_result r = RG_OK;
    rg_joint_id id = rg_joint_create(w, def, &r);
    after = joint_count(w);
    if (r != expected || id.generation != 0 || rg_joint_is_valid(w, id)) {
        rg_test_note("refusal: result %d (expected %d), id generation %u", (int)r, (int)expected, id.generation);
        return 0;
    }
    return before.bodies == after.bodies && before.joints == after.joints;
}

/* The pose of a body turned by q about the world point `pivot` from (position, orientation). */
static void joint_turn_about(rg_vec3 pivot, rg_quat q, rg_vec3 position, rg_quat orientation, rg_vec3 *new_position,
                             rg_quat *new_orientation) {
    *new_position = rg_v3_add(pivot, rg_quat_rotate(q, rg_v3_sub(position, pivot)));
    *new_orientation = rg_quat_mul(q, orientation);
}

static void test_joint_default_def(void) {
    rg_joint_def d = rg_joint_default_def();
    ENSURE(d.type == RG_JOINT_BALL);
    ENSURE(d.body_a.generation == 0 && d.body_b.generation == 0);
    ENSURE(d.axis.x == 0 && d.axis.y == 0 && d.axis.z == 1);
    ENSURE(d.enable_limit == 0 && d.enable_motor == 0 && d.collide_connected == 0);
    ENSURE(d.lower == -1 && d.upper == -1);
    ENSURE(d.motor_speed == 0 && d.max_motor_force == 0 && d.user_data == NULL);
}

/* Every refusal of API.md's list, each with the world untouched; then the accepted boundaries. */
static void test_joint_create_refusals(void) {
    rg_world *w = joint_world(9.81);
    rg_hull *cube = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL);
    rg_body_id a = joint_box(w, cube, RG_BODY_DYNAMIC, v3(0, 2, 0), rg_quat_identity());
    rg_body_id b = joint_box(w, cube, RG_BODY_DYNAMIC, v3(2, 2, 0), rg_quat_identity());
    rg_body_id ground = joint_box(w, cube, RG_BODY_STATIC, v3(0, -1, 0), rg_quat_identity());
    rg_body_id mover = joint_box(w, cube, RG_BODY_KINEMATIC, v3(5, 0, 0), rg_quat_identity());
    rg_body_id gone = joint_box(w, cube, RG_BODY_DYNAMIC, v3(9, 0, 0), rg_quat_identity());
    rg_body_id null_body = {0, 0};
    rg_joint_def d, base = rg_joint_default_def();
    rg_joint_id kept;
    rg_result r;
    rg_real nan = (rg_real)NAN, inf = (rg_real)INFINITY;
    int t;
    ENSURE(rg_body_destroy(w, gone) == RG_OK);
    base.body_a = a;
    base.body_b = b;
    base.anchor_a = v3(1, 2, 0);
    base.anchor_b = v3(2, 2, 0);
    /* a joint that lives through the refusals, to see that none touches it */
    kept = rg_joint_create(w, &base, &r);
    ENSURE(r == RG_OK && rg_joint_is_valid(w, kept));

    /* NULL world and def, a def not from the default function, an unknown type */
    ENSURE(rg_joint_create(NULL, &base, &r).generation == 0 && r == RG_ERR_INVALID_ARGUMENT);
    ENSURE(joint_refused(w, NULL, RG_ERR_INVALID_ARGUMENT));
    memset(&d, 0, sizeof d);
    d.type = RG_JOINT_BALL;
    d.body_a = a;
    d.body_b = b;
    d.axis = v3(0, 0, 1);
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d = base;
    d.type = (rg_joint_type)7;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));

    /* NaN, infinite or absurd anchors and axis, for every type */
    for (t = RG_JOINT_BALL; t <= RG_JOINT_DISTANCE; ++t) {
        d = base;
        d.type = (rg_joint_type)t;
        d.anchor_a.y = nan;
        ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
        d = base;
        d.type = (rg_joint_type)t;
        d.anchor_b.z = inf;
        ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
        d = base;
        d.type = (rg_joint_type)t;
        d.anchor_a.x = (rg_real)1e16;
        ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
        d = base;
        d.type = (rg_joint_type)t;
        d.axis.x = nan;
        ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
        d = base;
        d.type = (rg_joint_type)t;
        d.axis.z = -inf;
        ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    }
    /* a zero axis where the type reads it */
    d = base;
    d.axis = v3(0, 0, 0);
    d.type = RG_JOINT_HINGE;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d.type = RG_JOINT_SLIDER;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d.type = RG_JOINT_BALL;
    d.enable_limit = 1;
    d.upper = (rg_real)0.5;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));

    /* bodies: both null, a null, the same body twice, no dynamic body, destroyed bodies */
    d = base;
    d.body_a = null_body;
    d.body_b = null_body;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d.body_b = b;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d = base;
    d.body_b = a;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d.body_a = ground;
    d.body_b = mover;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d.body_b = null_body;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d.body_a = mover;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d = base;
    d.body_a = gone;
    ENSURE(joint_refused(w, &d, RG_ERR_STALE_ID));
    d = base;
    d.body_b = gone;
    ENSURE(joint_refused(w, &d, RG_ERR_STALE_ID));
    d.body_b.generation += 2;   /* a generation never handed out */
    ENSURE(joint_refused(w, &d, RG_ERR_STALE_ID));

    /* limits: lower > upper with enable_limit, a ball's negative cone, a distance joint's lengths
       (always in force, negatives the length at creation: here 1) */
    d = base;
    d.enable_limit = 1;
    d.lower = 1;
    d.upper = (rg_real)0.5;
    d.type = RG_JOINT_HINGE;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d.type = RG_JOINT_SLIDER;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d.type = RG_JOINT_BALL;
    d.lower = 0;
    d.upper = (rg_real)-0.1;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d.type = RG_JOINT_DISTANCE;
    d.enable_limit = 0;
    d.lower = 2;
    d.upper = (rg_real)1.5;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d.lower = -1;
    d.upper = (rg_real)0.5;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d.lower = (rg_real)1.5;
    d.upper = -1;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d = base;
    d.type = RG_JOINT_HINGE;
    d.enable_limit = 1;
    d.lower = nan;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d.lower = -1;
    d.upper = inf;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));

    /* motors: a negative force (on or off), NaN speed; limits and motors on types without them */
    d = base;
    d.type = RG_JOINT_HINGE;
    d.max_motor_force = (rg_real)-1;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d.enable_motor = 1;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d.max_motor_force = 10;
    d.motor_speed = nan;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d = base;
    d.type = RG_JOINT_FIXED;
    d.enable_limit = 1;
    d.lower = 0;
    d.upper = 1;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d = base;
    d.enable_motor = 1;
    d.max_motor_force = 10;
    d.type = RG_JOINT_BALL;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d.type = RG_JOINT_FIXED;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));
    d.type = RG_JOINT_DISTANCE;
    ENSURE(joint_refused(w, &d, RG_ERR_INVALID_ARGUMENT));

    /* the survivor is untouched */
    ENSURE(rg_joint_is_valid(w, kept) && rg_world_joints(w, NULL, 0) == 1);
    ENSURE(same_body(rg_joint_body_a(w, kept), a) && same_body(rg_joint_body_b(w, kept), b));

    /* the boundaries are accepted: lower = upper, a zero cone, a zero force, a zero axis where it
       is not read, a static or kinematic partner, the world */
    d = base;
    d.type = RG_JOINT_HINGE;
    d.enable_limit = 1;
    d.lower = d.upper = (rg_real)0.25;
    d.enable_motor = 1;
    d.max_motor_force = 0;
    ENSURE(rg_joint_create(w, &d, &r).generation != 0 && r == RG_OK);
    d = base;
    d.type = RG_JOINT_BALL;
    d.enable_limit = 1;
    d.upper = 0;
    ENSURE(rg_joint_create(w, &d, &r).generation != 0 && r == RG_OK);
    d = base;
    d.axis = v3(0, 0, 0);
    for (t = 0; t < 3; ++t) {
        rg_joint_type types[3] = {RG_JOINT_BALL, RG_JOINT_FIXED, RG_JOINT_DISTANCE};
        d.type = types[t];
        ENSURE(rg_joint_create(w, &d, &r).generation != 0 && r == RG_OK);
    }
    d = base;
    d.body_b = ground;
    ENSURE(rg_joint_create(w, &d, &r).generation != 0 && r == RG_OK);
    d.body_b = mover;
    ENSURE(rg_joint_create(w, &d, &r).generation != 0 && r == RG_OK);
    d.body_a = mover;
    d.body_b = a;
    ENSURE(rg_joint_create(w, &d, &r).generation != 0 && r == RG_OK);
    d.body_a = a;
    d.body_b = null_body;
    ENSURE(rg_joint_create(w, &d, &r).generation != 0 && r == RG_OK);
    ENSURE(rg_world_joints(w, NULL, 0) == 10);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
}

/* rg_joint_set_limits and rg_joint_set_motor: refused on types without them and for bad values,
   nothing changed then; accepted values read back. */
static void test_joint_set_limits_and_motor(void) {
    rg_world *w = joint_world(0);
    rg_hull *cube = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL);
    rg_body_id a = joint_box(w, cube, RG_BODY_DYNAMIC, v3(0, 0, 0), rg_quat_identity());
    rg_body_id b = joint_box(w, cube, RG_BODY_DYNAMIC, v3(3, 0, 0), rg_quat_identity());
    rg_joint_def d = rg_joint_default_def();
    rg_joint_id joints[5], ball_no_axis, stale = {0, 0};
    rg_real lower, upper, speed, force;
    int t;
    d.body_a = a;
    d.body_b = b;
    d.anchor_a = v3(0.5, 0, 0);
    d.anchor_b = v3(2.5, 0, 0);   /* distance joints: 2 long */
    d.axis = v3(0, 1, 0);
    for (t = RG_JOINT_BALL; t <= RG_JOINT_DISTANCE; ++t) {
        d.type = (rg_joint_type)t;
        joints[t] = rg_joint_create(w, &d, NULL);
        ENSURE(rg_joint_is_valid(w, joints[t]) && rg_joint_get_type(w, joints[t]) == d.type);
    }
    d.type = RG_JOINT_BALL;
    d.axis = v3(0, 0, 0);
    ball_no_axis = rg_joint_create(w, &d, NULL);
    ENSURE(rg_joint_is_valid(w, ball_no_axis));

    /* NULL world, stale ids */
    ENSURE(rg_joint_set_limits(NULL, joints[RG_JOINT_HINGE], 1, 0, 1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_set_motor(NULL, joints[RG_JOINT_HINGE], 1, 0, 1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_set_limits(w, stale, 1, 0, 1) == RG_ERR_STALE_ID);
    ENSURE(rg_joint_set_motor(w, stale, 1, 0, 1) == RG_ERR_STALE_ID);
    ENSURE(rg_joint_set_user_data(w, stale, NULL) == RG_ERR_STALE_ID);

    /* types without them */
    ENSURE(rg_joint_set_limits(w, joints[RG_JOINT_FIXED], 1, 0, 1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_set_limits(w, joints[RG_JOINT_FIXED], 0, 0, 1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_set_motor(w, joints[RG_JOINT_BALL], 1, 1, 1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_set_motor(w, joints[RG_JOINT_FIXED], 1, 1, 1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_set_motor(w, joints[RG_JOINT_DISTANCE], 0, 1, 1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_set_limits(w, ball_no_axis, 1, 0, 1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_limits(w, ball_no_axis, NULL, NULL) == 0);

    /* a hinge: good limits read back; bad ones change nothing */
    ENSURE(rg_joint_set_limits(w, joints[RG_JOINT_HINGE], 1, (rg_real)-0.5, (rg_real)1.25) == RG_OK);
    ENSURE(rg_joint_set_limits(w, joints[RG_JOINT_HINGE], 1, 2, 1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_set_limits(w, joints[RG_JOINT_HINGE], 0, (rg_real)NAN, 1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_set_limits(w, joints[RG_JOINT_HINGE], 1, 0, (rg_real)1e16) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_limits(w, joints[RG_JOINT_HINGE], &lower, &upper) == 1);
    ENSURE(lower == (rg_real)-0.5 && upper == (rg_real)1.25);
    ENSURE(rg_joint_set_limits(w, joints[RG_JOINT_HINGE], 0, 2, 1) == RG_OK);   /* off: not checked */
    ENSURE(rg_joint_limits(w, joints[RG_JOINT_HINGE], &lower, &upper) == 0 && lower == 2 && upper == 1);
    /* a slider, a ball's cone */
    ENSURE(rg_joint_set_limits(w, joints[RG_JOINT_SLIDER], 1, (rg_real)0.3, (rg_real)0.2) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_set_limits(w, joints[RG_JOINT_SLIDER], 1, (rg_real)-0.3, (rg_real)0.2) == RG_OK);
    ENSURE(rg_joint_set_limits(w, joints[RG_JOINT_BALL], 1, 5, (rg_real)-0.01) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_set_limits(w, joints[RG_JOINT_BALL], 1, 5, (rg_real)0.7) == RG_OK);
    ENSURE(rg_joint_limits(w, joints[RG_JOINT_BALL], NULL, &upper) == 1 && upper == (rg_real)0.7);
    /* a distance joint: created at length 2 with both lengths -1, so both 2, always in force */
    ENSURE(rg_joint_limits(w, joints[RG_JOINT_DISTANCE], &lower, &upper) == 1);
    ENSURE_NEAR(lower, 2, JOINT_EPS);
    ENSURE_NEAR(upper, 2, JOINT_EPS);
    ENSURE(rg_joint_set_limits(w, joints[RG_JOINT_DISTANCE], 0, 3, -1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_set_limits(w, joints[RG_JOINT_DISTANCE], 0, (rg_real)2.5, (rg_real)1.5) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_set_limits(w, joints[RG_JOINT_DISTANCE], 0, -1, 3) == RG_OK);
    ENSURE(rg_joint_limits(w, joints[RG_JOINT_DISTANCE], &lower, &upper) == 1);
    ENSURE_NEAR(lower, 2, JOINT_EPS);
    ENSURE(upper == 3);

    /* motors */
    ENSURE(rg_joint_set_motor(w, joints[RG_JOINT_HINGE], 1, 2, -1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_set_motor(w, joints[RG_JOINT_HINGE], 0, 2, -1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_set_motor(w, joints[RG_JOINT_HINGE], 1, (rg_real)INFINITY, 1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_motor(w, joints[RG_JOINT_HINGE], &speed, &force) == 0 && speed == 0 && force == 0);
    ENSURE(rg_joint_set_motor(w, joints[RG_JOINT_HINGE], 1, (rg_real)-3.5, 40) == RG_OK);
    ENSURE(rg_joint_motor(w, joints[RG_JOINT_HINGE], &speed, &force) == 1 && speed == (rg_real)-3.5 && force == 40);
    ENSURE(rg_joint_set_motor(w, joints[RG_JOINT_SLIDER], 1, (rg_real)0.5, 0) == RG_OK);
    ENSURE(rg_joint_motor(w, joints[RG_JOINT_SLIDER], &speed, &force) == 1 && speed == (rg_real)0.5 && force == 0);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
}

/* Ids: destroyed joints are stale (getters zero, setters and destroy RG_ERR_STALE_ID), a reused
   slot gets a new generation; a body's destruction takes its joints as a and as b, and only
   those; the bodies' lists in ascending index. */
static void test_joint_stale_ids(void) {
    rg_world *w = joint_world(9.81);
    rg_hull *cube = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL);
    rg_body_id body[4], fresh;
    rg_joint_id j[6], again, listed[8];
    rg_joint_def d = rg_joint_default_def();
    rg_real lower = 1, upper = 1;
    int i, n;
    for (i = 0; i < 4; ++i) body[i] = joint_box(w, cube, RG_BODY_DYNAMIC, v3(2 * i, 5, 0), rg_quat_identity());
    /* a chain 0-1-2-3, 1 to the world, 0-2 */
    d.type = RG_JOINT_DISTANCE;
    for (i = 0; i < 3; ++i) {
        d.body_a = body[i];
        d.body_b = body[i + 1];
        d.anchor_a = v3(2 * i + 0.5, 5, 0);
        d.anchor_b = v3(2 * i + 1.5, 5, 0);
        j[i] = rg_joint_create(w, &d, NULL);
    }
    d.type = RG_JOINT_BALL;
    d.body_a = body[1];
    d.body_b.index = 0;
    d.body_b.generation = 0;
    d.anchor_a = v3(2, 6, 0);
    j[3] = rg_joint_create(w, &d, NULL);
    d.body_a = body[0];
    d.body_b = body[2];
    j[4] = rg_joint_create(w, &d, NULL);
    for (i = 0; i < 5; ++i) ENSURE(rg_joint_is_valid(w, j[i]) && j[i].index == (uint32_t)i);
    ENSURE(rg_world_joints(w, NULL, 0) == 5);
    n = rg_body_joints(w, body[1], listed, 8);
    ENSURE(n == 3 && same_joint(listed[0], j[0]) && same_joint(listed[1], j[1]) && same_joint(listed[2], j[3]));

    /* destroy one: stale everywhere */
    ENSURE(rg_joint_destroy(w, j[1]) == RG_OK);
    ENSURE(!rg_joint_is_valid(w, j[1]));
    ENSURE(rg_joint_destroy(w, j[1]) == RG_ERR_STALE_ID);
    ENSURE(rg_joint_destroy(NULL, j[0]) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_joint_set_limits(w, j[1], 0, -1, -1) == RG_ERR_STALE_ID);
    ENSURE(rg_joint_position(w, j[1]) == 0);
    ENSURE(rg_joint_body_a(w, j[1]).generation == 0 && rg_joint_body_b(w, j[1]).generation == 0);
    ENSURE(rg_joint_anchor_a(w, j[1]).x == 0 && rg_joint_reaction_force(w, j[1]).y == 0);
    ENSURE(rg_joint_reaction_torque(w, j[1]).z == 0 && rg_joint_axis(w, j[1]).z == 0);
    ENSURE(rg_joint_limits(w, j[1], &lower, &upper) == 0 && lower == 0 && upper == 0);
    ENSURE(rg_body_joints(w, body[1], listed, 8) == 2 && rg_body_joints(w, body[2], listed, 8) == 2);
    ENSURE(same_joint(listed[0], j[2]) && same_joint(listed[1], j[4]));
    /* its slot is reused with a new generation; the old id stays stale */
    d.type = RG_JOINT_FIXED;
    d.body_a = body[3];
    d.body_b = body[1];
    again = rg_joint_create(w, &d, NULL);
    ENSURE(again.index == j[1].index && again.generation != j[1].generation);
    ENSURE(rg_joint_is_valid(w, again) && !rg_joint_is_valid(w, j[1]));
    n = rg_body_joints(w, body[1], listed, 8);   /* ascending index: 0, 1 (again), 3 */
    ENSURE(n == 3 && same_joint(listed[0], j[0]) && same_joint(listed[1], again) && same_joint(listed[2], j[3]));
    ENSURE(rg_body_joints(w, body[1], listed, 1) == 3 && same_joint(listed[0], j[0]));   /* counts beyond capacity */

    /* destroying body 1 takes j0 (as b), again (as b) and j3 (as a, to the world) */
    ENSURE(rg_body_destroy(w, body[1]) == RG_OK);
    ENSURE(!rg_joint_is_valid(w, j[0]) && !rg_joint_is_valid(w, again) && !rg_joint_is_valid(w, j[3]));
    ENSURE(rg_joint_is_valid(w, j[2]) && rg_joint_is_valid(w, j[4]));
    ENSURE(rg_world_joints(w, listed, 8) == 2 && same_joint(listed[0], j[2]) && same_joint(listed[1], j[4]));
    ENSURE(rg_body_joints(w, body[0], listed, 8) == 1 && same_joint(listed[0], j[4]));
    ENSURE(rg_body_joints(w, body[3], listed, 8) == 1 && same_joint(listed[0], j[2]));
    ENSURE(rg_body_joints(w, body[1], listed, 8) == 0);
    /* a new body in the freed slot has no joints; steps run with the lists as they are */
    fresh = joint_box(w, cube, RG_BODY_DYNAMIC, v3(2, 5, 0), rg_quat_identity());
    ENSURE(fresh.index == body[1].index && rg_body_joints(w, fresh, NULL, 0) == 0);
    for (i = 0; i < 10; ++i) ENSURE(rg_world_step(w, (rg_real)(1.0 / 60)) == RG_OK);
    ENSURE(rg_body_destroy(w, body[2]) == RG_OK);
    ENSURE(rg_world_joints(w, NULL, 0) == 0 && rg_body_joints(w, body[0], NULL, 0) == 0);
    ENSURE(rg_body_joints(w, body[3], NULL, 0) == 0);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
}

/* Getters: bodies, type, user data, collide_connected; the anchors and the axis carried by the
   bodies' frames as they move (computed here from the poses at creation), unchanged by a shape
   that moves the centre of mass. */
static void test_joint_anchors_follow_bodies(void) {
    rg_world *w = joint_world(0);
    rg_hull *cube = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL);
    rg_quat qa = rg_quat_from_axis_angle(v3(1, 2, 3), (rg_real)0.7), qb = rg_quat_from_axis_angle(v3(-2, 1, 0.5), (rg_real)1.9);
    rg_vec3 pa = v3(1, 2, 3), pb = v3(-1, 0.5, 2), anchor = v3(0.2, 1.1, 2.4), anchor_b = v3(-0.6, 0.9, 1.7);
    rg_vec3 axis = rg_v3_normalize(v3(0.3, -0.4, 0.8));
    rg_body_id a = joint_box(w, cube, RG_BODY_DYNAMIC, pa, qa), b = joint_box(w, cube, RG_BODY_KINEMATIC, pb, qb);
    rg_joint_def d = rg_joint_default_def();
    rg_joint_id hinge, rope, to_world;
    rg_quat qa2 = rg_quat_from_axis_angle(v3(0, 1, 1), (rg_real)-2.2), qb2 = rg_quat_from_axis_angle(v3(1, 0, 0), (rg_real)0.4);
    rg_vec3 pa2 = v3(4, -1, 0.5), pb2 = v3(0, 3, -2);
    rg_vec3 local_a = rg_quat_rotate_inverse(qa, rg_v3_sub(anchor, pa));
    rg_vec3 local_b = rg_quat_rotate_inverse(qb, rg_v3_sub(anchor, pb));
    rg_vec3 local_rope_b = rg_quat_rotate_inverse(qb, rg_v3_sub(anchor_b, pb));
    rg_vec3 local_axis_b = rg_quat_rotate_inverse(qb, axis);
    rg_shape_def sd = rg_shape_default_def();
    int marker = 7;
    d.type = RG_JOINT_HINGE;
    d.body_a = a;
    d.body_b = b;
    d.anchor_a = anchor;
    d.anchor_b = anchor_b;   /* not read by a hinge */
    d.axis = rg_v3_scale(axis, 3);   /* need not be unit */
    d.collide_connected = 1;
    d.user_data = &marker;
    hinge = rg_joint_create(w, &d, NULL);
    d.type = RG_JOINT_DISTANCE;
    d.collide_connected = 0;
    d.user_data = NULL;
    rope = rg_joint_create(w, &d, NULL);
    d.type = RG_JOINT_SLIDER;
    d.body_b.index = 0;
    d.body_b.generation = 0;
    to_world = rg_joint_create(w, &d, NULL);
    ENSURE(rg_joint_is_valid(w, hinge) && rg_joint_is_valid(w, rope) && rg_joint_is_valid(w, to_world));
    ENSURE(rg_joint_get_type(w, hinge) == RG_JOINT_HINGE && rg_joint_get_type(w, rope) == RG_JOINT_DISTANCE);
    ENSURE(same_body(rg_joint_body_a(w, hinge), a) && same_body(rg_joint_body_b(w, hinge), b));
    ENSURE(rg_joint_body_b(w, to_world).generation == 0 && rg_joint_body_b(w, to_world).index == 0);
    ENSURE(rg_joint_user_data(w, hinge) == &marker && rg_joint_user_data(w, rope) == NULL);
    ENSURE(rg_joint_set_user_data(w, rope, &marker) == RG_OK && rg_joint_user_data(w, rope) == &marker);
    ENSURE(rg_joint_collide_connected(w, hinge) == 1 && rg_joint_collide_connected(w, rope) == 0);
    /* at creation */
    ENSURE_V3_NEAR(rg_joint_anchor_a(w, hinge), anchor, JOINT_EPS);
    ENSURE_V3_NEAR(rg_joint_anchor_b(w, hinge), anchor, JOINT_EPS);
    ENSURE_V3_NEAR(rg_joint_anchor_b(w, rope), anchor_b, JOINT_EPS);
    ENSURE_V3_NEAR(rg_joint_axis(w, hinge), axis, JOINT_EPS);
    /* moved: each anchor with its body, the world's where it was */
    ENSURE(rg_body_set_transform(w, a, pa2, qa2) == RG_OK && rg_body_set_transform(w, b, pb2, qb2) == RG_OK);
    ENSURE_V3_NEAR(rg_joint_anchor_a(w, hinge), rg_v3_add(pa2, rg_quat_rotate(qa2, local_a)), JOINT_EPS);
    ENSURE_V3_NEAR(rg_joint_anchor_b(w, hinge), rg_v3_add(pb2, rg_quat_rotate(qb2, local_b)), JOINT_EPS);
    ENSURE_V3_NEAR(rg_joint_anchor_b(w, rope), rg_v3_add(pb2, rg_quat_rotate(qb2, local_rope_b)), JOINT_EPS);
    ENSURE_V3_NEAR(rg_joint_axis(w, hinge), rg_quat_rotate(qb2, local_axis_b), JOINT_EPS);
    ENSURE_V3_NEAR(rg_joint_anchor_a(w, to_world), rg_v3_add(pa2, rg_quat_rotate(qa2, local_a)), JOINT_EPS);
    ENSURE_V3_NEAR(rg_joint_anchor_b(w, to_world), anchor, JOINT_EPS);
    ENSURE_V3_NEAR(rg_joint_axis(w, to_world), axis, JOINT_EPS);
    /* a shape far off-centre moves a's centre of mass, not its anchor */
    ENSURE(rg_body_add_sphere(w, a, &sd, v3(3, 0, 0), 1, NULL).generation != 0);
    ENSURE(rg_body_center_of_mass(w, a).x != rg_v3_add(pa2, rg_quat_rotate(qa2, v3(0, 0, 0))).x);
    ENSURE_V3_NEAR(rg_joint_anchor_a(w, hinge), rg_v3_add(pa2, rg_quat_rotate(qa2, local_a)), JOINT_EPS);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
}

/* Contacts and contact events of the pair (x, y) in the last step. */
static int joint_pair_contacts(const rg_world *w, rg_body_id x, rg_body_id y) {
    rg_contact c[64];
    int i, n = rg_world_contacts(w, c, 64), count = 0;
    for (i = 0; i < n && i < 64; ++i)
        if ((same_body(c[i].a, x) && same_body(c[i].b, y)) || (same_body(c[i].a, y) && same_body(c[i].b, x))) ++count;
    return count;
}
static int joint_pair_events(const rg_world *w, rg_body_id x, rg_body_id y, int *ends) {
    rg_contact_events e = rg_world_contact_events(w);
    int i, begins = 0;
    *ends = 0;
    for (i = 0; i < e.begin_count; ++i)
        if ((same_body(e.begin[i].body_a, x) && same_body(e.begin[i].body_b, y)) ||
            (same_body(e.begin[i].body_a, y) && same_body(e.begin[i].body_b, x)))
            ++begins;
    for (i = 0; i < e.end_count; ++i)
        if ((same_body(e.end[i].body_a, x) && same_body(e.end[i].body_b, y)) ||
            (same_body(e.end[i].body_a, y) && same_body(e.end[i].body_b, x)))
            ++*ends;
    return begins;
}

/* A box resting 0.5 mm into a static slab, a second box on it (no gravity: nothing moves): a
   joint with collide_connected 0 between box and slab keeps their contacts away from its
   creation, leaves the other pair's alone, and when destroyed their contacts come back at the
   next step; with collide_connected 1 the pair keeps its contacts. Events likewise, and a pair
   already touching ends at the first step after the joint. */
static void test_joint_collide_connected(void) {
    rg_hull *cube = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL), *slab = rg_hull_create_box(v3(3, 0.5, 3), NULL);
    int connected, ends;
    for (connected = 0; connected <= 1; ++connected) {
        rg_world *w = joint_world(0);
        rg_body_id ground = joint_box(w, slab, RG_BODY_STATIC, v3(0, -0.5, 0), rg_quat_identity());
        rg_body_id box = joint_box(w, cube, RG_BODY_DYNAMIC, v3(0, 0.4995, 0), rg_quat_identity());
        rg_body_id top = joint_box(w, cube, RG_BODY_DYNAMIC, v3(0.1, 1.499, 0), rg_quat_identity());
        rg_joint_def d = rg_joint_default_def();
        rg_joint_id j;
        d.body_a = box;
        d.body_b = ground;
        d.anchor_a = v3(0, 0, 0);
        d.collide_connected = connected;
        j = rg_joint_create(w, &d, NULL);
        ENSURE(rg_joint_is_valid(w, j));
        ENSURE(rg_world_step(w, (rg_real)(1.0 / 60)) == RG_OK);
        ENSURE(joint_pair_contacts(w, box, top) >= 4 && joint_pair_events(w, box, top, &ends) == 1);
        if (connected) {
            ENSURE(joint_pair_contacts(w, box, ground) >= 4);
            ENSURE(joint_pair_events(w, box, ground, &ends) == 1 && ends == 0);
        } else {
            ENSURE(joint_pair_contacts(w, box, ground) == 0);
            ENSURE(joint_pair_events(w, box, ground, &ends) == 0 && ends == 0);
            ENSURE(rg_world_get_stats(w).contact_count == joint_pair_contacts(w, box, top));
        }
        ENSURE(rg_world_step(w, (rg_real)(1.0 / 60)) == RG_OK);
        ENSURE((joint_pair_contacts(w, box, ground) > 0) == connected);
        /* destroyed: contacts and a begin at the next step (or, connected, no change) */
        ENSURE(rg_joint_destroy(w, j) == RG_OK);
        ENSURE(rg_world_step(w, (rg_real)(1.0 / 60)) == RG_OK);
        ENSURE(joint_pair_contacts(w, box, ground) >= 4);
        ENSURE(joint_pair_events(w, box, ground, &ends) == !connected && ends == 0);
        /* a new joint on the touching pair: with 0 the pair ends at the next step, at once */
        j = rg_joint_create(w, &d, NULL);
        ENSURE(rg_world_step(w, (rg_real)(1.0 / 60)) == RG_OK);
        ENSURE((joint_pair_contacts(w, box, ground) > 0) == connected);
        ENSURE(joint_pair_events(w, box, ground, &ends) == 0 && ends == !connected);
        ENSURE(joint_pair_contacts(w, box, top) >= 4);
        rg_world_destroy(w);
    }
    rg_hull_destroy(cube);
    rg_hull_destroy(slab);
}

/* A hinge's angle, right-handed about its axis, continuous over several turns both ways, with b
   the world and with b a body turned too; bodies turned about the anchor by rg_body_set_transform
   (so that the joint stays satisfied), a step after each turn of less than half a turn. */
static void test_joint_hinge_position_counts_turns(void) {
    rg_hull *cube = rg_hull_create_box(v3(0.5, 0.25, 0.4), NULL);
    rg_vec3 axis = rg_v3_normalize(v3(1, 2, -0.5)), anchor = v3(0.3, 1.2, -0.4);
    rg_quat qa = rg_quat_from_axis_angle(v3(0.2, -1, 0.4), (rg_real)1.1), qb = rg_quat_from_axis_angle(v3(1, 1, 0), (rg_real)0.6);
    rg_vec3 pa = v3(0.5, 1.0, -0.2), pb = v3(-0.4, 1.5, 0.1);
    int with_body;
    for (with_body = 0; with_body <= 1; ++with_body) {
        rg_world *w = joint_world(0);
        rg_body_id a = joint_box(w, cube, RG_BODY_DYNAMIC, pa, qa);
        rg_body_id b = joint_box(w, cube, RG_BODY_DYNAMIC, with_body ? pb : v3(50, 50, 50), qb);
        rg_joint_def d = rg_joint_default_def();
        rg_joint_id j;
        double angle = 0, worst = 0;
        int k;
        d.type = RG_JOINT_HINGE;
        d.body_a = a;
        if (with_body) d.body_b = b;
        d.anchor_a = anchor;
        d.axis = axis;
        j = rg_joint_create(w, &d, NULL);
        ENSURE(rg_joint_is_valid(w, j));
        ENSURE_NEAR(rg_joint_position(w, j), 0, JOINT_EPS);
        /* up by 0.9 rad a step to 4 turns and beyond, then down to -3 turns */
        for (k = 1; k <= 70; ++k) {
            rg_vec3 p, q_axis;
            rg_quat q, turn_b, turn_a;
            angle = k <= 30 ? 0.9 * k : 0.9 * 30 - 1.1 * (k - 30);
            /* b turns about the anchor by its own rotation (a twist of the whole pair), a by the
               same and then by the angle about the axis carried by b */
            turn_b = with_body ? rg_quat_from_axis_angle(v3(0.3, 0.2, 1), (rg_real)(0.05 * k)) : rg_quat_identity();
            q_axis = rg_quat_rotate(turn_b, axis);
            turn_a = rg_quat_mul(rg_quat_from_axis_angle(q_axis, (rg_real)angle), turn_b);
            if (with_body) {
                joint_turn_about(anchor, turn_b, pb, qb, &p, &q);
                ENSURE(rg_body_set_transform(w, b, p, q) == RG_OK);
            }
            joint_turn_about(anchor, turn_a, pa, qa, &p, &q);
            ENSURE(rg_body_set_transform(w, a, p, q) == RG_OK);
            ENSURE(rg_world_step(w, (rg_real)(1.0 / 60)) == RG_OK);
            if (fabs(rg_joint_position(w, j) - angle) > worst) worst = fabs(rg_joint_position(w, j) - angle);
            ENSURE_NEAR(rg_joint_position(w, j), angle, JOINT_EPS * (1 + fabs(angle)));
        }
        ENSURE(angle < -2 * 2 * JOINT_PI);   /* the run went below -2 turns after passing 3 turns */
        rg_test_note("%s: largest angle error %.3g rad over turns from 0 to %.2f and back to %.2f",
                     with_body ? "body b" : "world", worst, 0.9 * 30 / (2 * JOINT_PI), angle / (2 * JOINT_PI));
        /* between steps the angle is unwrapped from the last step's: a turn of 1.5 pi without a
           step reads as -0.5 pi from there (the header: less than half a turn between steps) */
        {
            rg_vec3 p;
            rg_quat q, turn_b = with_body ? rg_quat_from_axis_angle(v3(0.3, 0.2, 1), (rg_real)(0.05 * 70)) : rg_quat_identity();
            rg_quat turn_a = rg_quat_mul(rg_quat_from_axis_angle(rg_quat_rotate(turn_b, axis), (rg_real)(angle + 1.5 * JOINT_PI)), turn_b);
            joint_turn_about(anchor, turn_a, pa, qa, &p, &q);
            ENSURE(rg_body_set_transform(w, a, p, q) == RG_OK);
            ENSURE_NEAR(rg_joint_position(w, j), angle - 0.5 * JOINT_PI, JOINT_EPS * (1 + fabs(angle)));
        }
        rg_world_destroy(w);
    }
    rg_hull_destroy(cube);
}

/* A slider's translation: a's anchor from b's along the axis carried by b, whatever a moves
   across it; b turned about its anchor turns the axis. */
static void test_joint_slider_position(void) {
    rg_world *w = joint_world(0);
    rg_hull *cube = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL);
    rg_vec3 axis = rg_v3_normalize(v3(2, -1, 1)), across = rg_v3_normalize(rg_v3_cross(axis, v3(0, 1, 0)));
    rg_vec3 anchor = v3(1, 1, 1), pa = v3(1.5, 1, 1), pb = v3(0, 1, 1);
    rg_quat qa = rg_quat_from_axis_angle(v3(1, 1, 1), (rg_real)0.3);
    rg_body_id a = joint_box(w, cube, RG_BODY_DYNAMIC, pa, qa);
    rg_body_id b = joint_box(w, cube, RG_BODY_STATIC, pb, rg_quat_identity());
    rg_joint_def d = rg_joint_default_def();
    rg_joint_id j;
    rg_vec3 p, shift;
    rg_quat q, turn = rg_quat_from_axis_angle(v3(0, 1, 0.5), (rg_real)0.8);
    double expected;
    d.type = RG_JOINT_SLIDER;
    d.body_a = a;
    d.body_b = b;
    d.anchor_a = anchor;
    d.axis = axis;
    j = rg_joint_create(w, &d, NULL);
    ENSURE_NEAR(rg_joint_position(w, j), 0, JOINT_EPS);
    shift = rg_v3_add(rg_v3_scale(axis, (rg_real)-1.75), rg_v3_scale(across, (rg_real)0.6));
    ENSURE(rg_body_set_transform(w, a, rg_v3_add(pa, shift), qa) == RG_OK);
    ENSURE_NEAR(rg_joint_position(w, j), -1.75, JOINT_EPS);
    /* the step pulls a back onto the axis (0.6 m across), not along it (1 um: the solver's) */
    ENSURE(rg_world_step(w, (rg_real)(1.0 / 60)) == RG_OK);
    rg_test_note("after the step: %.3g m along the axis from -1.75", rg_joint_position(w, j) + 1.75);
    ENSURE_NEAR(rg_joint_position(w, j), -1.75, 1e-6);
    /* b turned about the anchor: the axis turns with it, a stays */
    shift = rg_v3_sub(rg_joint_anchor_a(w, j), anchor);
    joint_turn_about(anchor, turn, pb, rg_quat_identity(), &p, &q);
    ENSURE(rg_body_set_transform(w, b, p, q) == RG_OK);
    expected = (double)rg_v3_dot(shift, rg_quat_rotate(turn, axis));
    ENSURE(fabs(expected + 1.75) > 0.1);
    ENSURE_NEAR(rg_joint_position(w, j), expected, JOINT_EPS);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
}

/* A distance joint's length between its anchors, each carried by its body (b the world here);
   ball and fixed joints read 0 wherever their bodies go. */
static void test_joint_distance_ball_fixed_position(void) {
    rg_world *w = joint_world(0);
    rg_hull *cube = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL);
    rg_vec3 pa = v3(0, 3, 0), anchor_a = v3(0.5, 3.5, 0), anchor_b = v3(0.5, 6.5, 4);
    rg_quat turn = rg_quat_from_axis_angle(v3(1, 0, 1), (rg_real)2.0);
    rg_body_id a = joint_box(w, cube, RG_BODY_DYNAMIC, pa, rg_quat_identity());
    rg_joint_def d = rg_joint_default_def();
    rg_joint_id rope, ball, weld;
    rg_vec3 moved = v3(1, -2, 0.5), end_a;
    rg_real lower, upper;
    d.type = RG_JOINT_DISTANCE;
    d.body_a = a;
    d.anchor_a = anchor_a;
    d.anchor_b = anchor_b;
    d.lower = (rg_real)4.5;   /* a rope: 4.5 to 5 (its length at creation, -1) */
    rope = rg_joint_create(w, &d, NULL);
    ENSURE(rg_joint_limits(w, rope, &lower, &upper) == 1 && lower == (rg_real)4.5);
    ENSURE_NEAR(upper, 5, JOINT_EPS);
    ENSURE_NEAR(rg_joint_position(w, rope), 5, JOINT_EPS);
    d.type = RG_JOINT_BALL;
    d.lower = -1;
    ball = rg_joint_create(w, &d, NULL);
    d.type = RG_JOINT_FIXED;
    weld = rg_joint_create(w, &d, NULL);
    ENSURE(rg_body_set_transform(w, a, moved, turn) == RG_OK);
    end_a = rg_v3_add(moved, rg_quat_rotate(turn, rg_v3_sub(anchor_a, pa)));
    ENSURE_NEAR(rg_joint_position(w, rope), rg_v3_length(rg_v3_sub(end_a, anchor_b)), JOINT_EPS);
    ENSURE(fabs(rg_joint_position(w, rope) - 5) > 0.5);
    ENSURE(rg_world_step(w, (rg_real)(1.0 / 60)) == RG_OK); /* the joints move a now: the anchor where it went */
    end_a = rg_v3_add(rg_body_position(w, a), rg_quat_rotate(rg_body_orientation(w, a), rg_v3_sub(anchor_a, pa)));
    ENSURE_NEAR(rg_joint_position(w, rope), rg_v3_length(rg_v3_sub(end_a, anchor_b)), JOINT_EPS);
    ENSURE(rg_joint_position(w, ball) == 0 && rg_joint_position(w, weld) == 0);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
}

/* The debug draw of joints: two points and the lines a's centre -> anchor a -> anchor b -> b's
   centre (no last line for the world), in RG_DEBUG_COLOR_JOINT; nothing with draw_joints 0. */
typedef struct joint_sink {
    int lines, points, other;
    rg_vec3 line_a[8], line_b[8], point[8];
} joint_sink;
static void joint_sink_line(rg_vec3 a, rg_vec3 b, uint32_t rgb, void *context) {
    joint_sink *s = (joint_sink *)context;
    if (rgb != RG_DEBUG_COLOR_JOINT) { ++s->other; return; }
    if (s->lines < 8) { s->line_a[s->lines] = a; s->line_b[s->lines] = b; }
    ++s->lines;
}
static void joint_sink_point(rg_vec3 p, rg_real size, uint32_t rgb, void *context) {
    joint_sink *s = (joint_sink *)context;
    (void)size;
    if (rgb != RG_DEBUG_COLOR_JOINT) { ++s->other; return; }
    if (s->points < 8) s->point[s->points] = p;
    ++s->points;
}

static void test_joint_draw(void) {
    rg_world *w = joint_world(0);
    rg_hull *cube = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL);
    rg_body_id a = joint_box(w, cube, RG_BODY_DYNAMIC, v3(0, 2, 0), rg_quat_identity());
    rg_body_id b = joint_box(w, cube, RG_BODY_DYNAMIC, v3(3, 2, 0), rg_quat_identity());
    rg_joint_def d = rg_joint_default_def();
    rg_debug_draw draw = rg_debug_draw_default();
    joint_sink sink;
    d.type = RG_JOINT_DISTANCE;
    d.body_a = a;
    d.body_b = b;
    d.anchor_a = v3(0.5, 2, 0);
    d.anchor_b = v3(2.5, 2, 0);
    ENSURE(rg_joint_is_valid(w, rg_joint_create(w, &d, NULL)));
    d.type = RG_JOINT_BALL;
    d.body_a = b;
    d.body_b.index = 0;
    d.body_b.generation = 0;
    d.anchor_a = v3(3, 3, 0);
    ENSURE(rg_joint_is_valid(w, rg_joint_create(w, &d, NULL)));
    memset(&sink, 0, sizeof sink);
    draw.line = joint_sink_line;
    draw.point = joint_sink_point;
    draw.context = &sink;
    rg_world_draw(w, &draw);
    ENSURE(sink.lines == 5 && sink.points == 4 && sink.other == 0);
    ENSURE_V3_NEAR(sink.line_a[0], v3(0, 2, 0), JOINT_EPS);
    ENSURE_V3_NEAR(sink.line_b[0], v3(0.5, 2, 0), JOINT_EPS);
    ENSURE_V3_NEAR(sink.line_a[1], v3(0.5, 2, 0), JOINT_EPS);
    ENSURE_V3_NEAR(sink.line_b[1], v3(2.5, 2, 0), JOINT_EPS);
    ENSURE_V3_NEAR(sink.line_a[2], v3(2.5, 2, 0), JOINT_EPS);
    ENSURE_V3_NEAR(sink.line_b[2], v3(3, 2, 0), JOINT_EPS);
    ENSURE_V3_NEAR(sink.line_a[3], v3(3, 2, 0), JOINT_EPS);
    ENSURE_V3_NEAR(sink.line_b[3], v3(3, 3, 0), JOINT_EPS);
    ENSURE_V3_NEAR(sink.line_a[4], v3(3, 3, 0), JOINT_EPS);
    ENSURE_V3_NEAR(sink.line_b[4], v3(3, 3, 0), JOINT_EPS);
    ENSURE_V3_NEAR(sink.point[0], v3(0.5, 2, 0), JOINT_EPS);
    ENSURE_V3_NEAR(sink.point[1], v3(2.5, 2, 0), JOINT_EPS);
    ENSURE_V3_NEAR(sink.point[3], v3(3, 3, 0), JOINT_EPS);
    memset(&sink, 0, sizeof sink);
    draw.draw_joints = 0;
    rg_world_draw(w, &draw);
    ENSURE(sink.lines == 0 && sink.points == 0);
    /* a destroyed body's joints are drawn no more */
    ENSURE(rg_body_destroy(w, b) == RG_OK);
    draw.draw_joints = 1;
    rg_world_draw(w, &draw);
    ENSURE(sink.lines == 0 && sink.points == 0);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
}

void rg_tests_joints(void) {
    RUN_TEST(test_joint_default_def);
    RUN_TEST(test_joint_create_refusals);
    RUN_TEST(test_joint_set_limits_and_motor);
    RUN_TEST(test_joint_stale_ids);
    RUN_TEST(test_joint_anchors_follow_bodies);
    RUN_TEST(test_joint_collide_connected);
    RUN_TEST(test_joint_hinge_position_counts_turns);
    RUN_TEST(test_joint_slider_position);
    RUN_TEST(test_joint_distance_ball_fixed_position);
    RUN_TEST(test_joint_draw);
}
