/* Slider joints and the ball joint's cone limit held by the step, through the public API against
   closed forms: a box sliding down a tilted axis under gravity (semi-implicit Euler's
   x_n = a h^2 n (n + 1) / 2 with a = g . axis) while forces across the axis and torques act,
   its limits, its motor (reaching its speed; slipping with (F_max - m g sin) / m), the reaction
   of a box resting on its lower limit, two free bodies on a slider (momentum), and pendulums on
   a ball joint with a cone: held at the cone's edge, swinging freely inside it (period and
   energy), thrown at it from every side. dt = 1/60, gravity 9.81 m/s^2 down y. */
#include "test.h"
#include "analytic.h"

#include <string.h>

#define JSL_PI 3.14159265358979323846
#define JSL_G 9.81
#define JSL_H (1.0 / 60)
#define JSL_MM 0.001

static rg_vec3 jsl_v3(double x, double y, double z) { return rg_v3((rg_real)x, (rg_real)y, (rg_real)z); }
static double jsl_dot(rg_vec3 a, rg_vec3 b) { return (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z; }
static double jsl_length(rg_vec3 a) { return sqrt(jsl_dot(a, a)); }
static rg_vec3 jsl_sub(rg_vec3 a, rg_vec3 b) { return jsl_v3((double)a.x - b.x, (double)a.y - b.y, (double)a.z - b.z); }
static rg_vec3 jsl_scale(rg_vec3 a, double s) { return jsl_v3(a.x * s, a.y * s, a.z * s); }
static rg_vec3 jsl_cross(rg_vec3 a, rg_vec3 b) {
    return jsl_v3((double)a.y * b.z - (double)a.z * b.y, (double)a.z * b.x - (double)a.x * b.z, (double)a.x * b.y - (double)a.y * b.x);
}
static rg_vec3 jsl_unit(double x, double y, double z) {
    double l = sqrt(x * x + y * y + z * z);
    return jsl_v3(x / l, y / l, z / l);
}
/* The angle between two directions, atan2(|a x b|, a . b). */
static double jsl_angle(rg_vec3 a, rg_vec3 b) { return atan2(jsl_length(jsl_cross(a, b)), jsl_dot(a, b)); }
/* The angle of the rotation q relative to r: 2 atan2(|v|, |w|) of conj(r) q. */
static double jsl_turn(rg_quat q, rg_quat r) {
    double w = (double)r.w * q.w + (double)r.x * q.x + (double)r.y * q.y + (double)r.z * q.z;
    double x = (double)r.w * q.x - (double)r.x * q.w - (double)r.y * q.z + (double)r.z * q.y;
    double y = (double)r.w * q.y + (double)r.x * q.z - (double)r.y * q.w - (double)r.z * q.x;
    double z = (double)r.w * q.z - (double)r.x * q.y + (double)r.y * q.x - (double)r.z * q.w;
    return 2 * atan2(sqrt(x * x + y * y + z * z), fabs(w));
}

static rg_world *jsl_world(double gravity) {
    rg_world_def wd = rg_world_default_def();
    wd.gravity = jsl_v3(0, -gravity, 0);
    return rg_world_create(&wd, NULL);
}

static rg_body_id jsl_box(rg_world *w, const rg_hull *hull, rg_vec3 position, rg_quat orientation, double density) {
    rg_body_def bd = rg_body_default_def();
    bd.hull = hull;
    bd.position = position;
    bd.orientation = orientation;
    bd.density = (rg_real)density;
    return rg_body_create(w, &bd, NULL);
}

/* A slider holding a to b (null: the world) at the world point `anchor` along `axis`. */
static rg_joint_id jsl_slider(rg_world *w, rg_body_id a, rg_body_id b, rg_vec3 anchor, rg_vec3 axis) {
    rg_joint_def d = rg_joint_default_def();
    d.type = RG_JOINT_SLIDER;
    d.body_a = a;
    d.body_b = b;
    d.anchor_a = anchor;
    d.axis = axis;
    return rg_joint_create(w, &d, NULL);
}

/* a's anchor's distance from b's line (through b's anchor along the axis carried by b). */
static double jsl_off_line(const rg_world *w, rg_joint_id j) {
    rg_vec3 d = jsl_sub(rg_joint_anchor_a(w, j), rg_joint_anchor_b(w, j)), axis = rg_joint_axis(w, j);
    return jsl_length(jsl_sub(d, jsl_scale(axis, jsl_dot(d, axis))));
}

/* What a slider run measured: the largest distance off the line and turn from the start (of a
   relative to b), the range of the position, and the last position, velocity along the axis and
   reaction. */
typedef struct jsl_run {
    double off_line, turn, lowest, highest, position, speed;
    rg_vec3 force, torque, center, anchor;
} jsl_run;

/* A 1 kg box (0.2 m cube, density 125, turned 0.4 rad about (1, 2, 3)) at (0, 2, 0) on a slider
   to the world at (0.07, 2.05, -0.03), off its centre. Steps `steps` times with `force` applied
   at every step across the axis at the box's corner (turning about the axis of (1, 2, 0.5) at
   2 rad/s, so it pushes from every side) and the torque (force, -3 force / 5, 4 force / 5) N m. */
static void jsl_slide(rg_vec3 axis, int limit, double lower, double upper, int motor, double speed, double max_force,
                      double start_speed, double force, int steps, jsl_run *out) {
    rg_world *w = jsl_world(JSL_G);
    rg_hull *cube = rg_hull_create_box(jsl_v3(0.1, 0.1, 0.1), NULL);
    rg_quat q0 = rg_quat_from_axis_angle(jsl_unit(1, 2, 3), (rg_real)0.4);
    rg_body_id box = jsl_box(w, cube, jsl_v3(0, 2, 0), q0, 125);
    rg_joint_def d = rg_joint_default_def();
    rg_joint_id j;
    rg_vec3 p1 = jsl_unit(axis.y, -axis.x, 0), p2;
    jsl_run run;
    int n;
    memset(&run, 0, sizeof run);
    run.lowest = 1e9;
    run.highest = -1e9;
    *out = run;
    if (fabs(axis.x) + fabs(axis.y) == 0) p1 = jsl_v3(1, 0, 0);
    p2 = jsl_cross(axis, p1);
    d.type = RG_JOINT_SLIDER;
    d.body_a = box;
    d.anchor_a = jsl_v3(0.07, 2.05, -0.03);
    d.axis = axis;
    d.enable_limit = limit;
    d.lower = (rg_real)lower;
    d.upper = (rg_real)upper;
    d.enable_motor = motor;
    d.motor_speed = (rg_real)speed;
    d.max_motor_force = (rg_real)max_force;
    j = rg_joint_create(w, &d, NULL);
    ENSURE(rg_joint_is_valid(w, j));
    ENSURE_NEAR(rg_body_mass(w, box), 1, 1e-5);
    ENSURE(rg_body_set_linear_velocity(w, box, jsl_scale(axis, start_speed)) == RG_OK);
    for (n = 1; n <= steps; ++n) {
        double phase = 2 * n * JSL_H;
        rg_vec3 across = jsl_v3(force * (cos(phase) * p1.x + sin(phase) * p2.x), force * (cos(phase) * p1.y + sin(phase) * p2.y),
                                force * (cos(phase) * p1.z + sin(phase) * p2.z));
        rg_vec3 corner = rg_v3_add(rg_body_position(w, box), rg_quat_rotate(rg_body_orientation(w, box), jsl_v3(0.1, 0.1, 0.1)));
        double x;
        if (force != 0) {
            ENSURE(rg_body_apply_force(w, box, across, corner) == RG_OK);
            ENSURE(rg_body_apply_torque(w, box, jsl_v3(force, -0.6 * force, 0.8 * force)) == RG_OK);
        }
        ENSURE(rg_world_step(w, (rg_real)JSL_H) == RG_OK);
        x = rg_joint_position(w, j);
        run.off_line = fmax(run.off_line, jsl_off_line(w, j));
        run.turn = fmax(run.turn, jsl_turn(rg_body_orientation(w, box), q0));
        run.lowest = fmin(run.lowest, x);
        run.highest = fmax(run.highest, x);
        run.position = x;
    }
    run.speed = jsl_dot(rg_body_linear_velocity(w, box), axis);
    run.force = rg_joint_reaction_force(w, j);
    run.torque = rg_joint_reaction_torque(w, j);
    run.center = rg_body_center_of_mass(w, box);
    run.anchor = rg_joint_anchor_a(w, j);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
    *out = run;
}

/* Down a tilted axis (1, -1, 0.5) / 1.5 under gravity: a = g . axis = 9.81 / 1.5 = 6.54 m/s^2,
   so after n = 120 steps the velocity along the axis is a n h and the position a h^2 n (n + 1) / 2
   (semi-implicit Euler), each within 0.5%; while a 30 N force across the axis at the box's
   corner and a 30 N m torque act at every step, the anchor stays within 1 mm of the line and
   the box turns less than 1e-3 rad. */
static void test_joint_slider_tilted_gravity(void) {
    rg_vec3 axis = jsl_unit(1, -1, 0.5);
    double a = JSL_G * -axis.y, n = 120;
    jsl_run run;
    jsl_slide(axis, 0, 0, 0, 0, 0, 0, 0, 30, (int)n, &run);
    rg_test_note("after 2 s: speed %.5f m/s (a n h = %.5f), position %.5f m (%.5f); off the line %.3g mm, turned %.2e rad",
                 run.speed, a * n * JSL_H, run.position, a * JSL_H * JSL_H * n * (n + 1) / 2, run.off_line * 1000, run.turn);
    ENSURE_REL(run.speed, a * n * JSL_H, 0.005);
    ENSURE_REL(run.position, a * JSL_H * JSL_H * n * (n + 1) / 2, 0.005);
    ENSURE_NEAR(run.off_line, 0, JSL_MM);
    ENSURE_NEAR(run.turn, 0, 1e-3);
}

/* Limits [-0.3, 0.2] m on an axis tilted up, (1, 1, 0.5) / 1.5: thrown up the axis at 4 m/s
   (it would rise 1.22 m), the box stops at the upper limit, slides down to the lower one and
   rests there; over 3 s it stays within the limits by 1 mm, reaches both, and ends on the lower
   one within 1 mm, still on the line and unturned, with the forces and torques acting. */
static void test_joint_slider_limits(void) {
    jsl_run run;
    jsl_slide(jsl_unit(1, 1, 0.5), 1, -0.3, 0.2, 0, 0, 0, 4, 30, 180, &run);
    rg_test_note("position within [%.5f, %.5f] m, last %.5f m; off the line %.3g mm, turned %.2e rad", run.lowest, run.highest,
                 run.position, run.off_line * 1000, run.turn);
    ENSURE(run.lowest >= -0.3 - JSL_MM && run.highest <= 0.2 + JSL_MM);
    ENSURE(run.highest > 0.2 - JSL_MM && run.lowest < -0.3 + JSL_MM);
    ENSURE_NEAR(run.position, -0.3, JSL_MM);
    ENSURE_NEAR(run.off_line, 0, JSL_MM);
    ENSURE_NEAR(run.turn, 0, 1e-3);
}

/* The box resting on its lower limit (as above, no forces, 2 s): the whole constraint's reaction
   on it is its weight, (0, m g, 0) within 1% of m g, and its torque about the anchor balances
   the weight's, (c - anchor) x (0, m g, 0), within 1% of m g |c - anchor|. */
static void test_joint_slider_reaction_on_limit(void) {
    jsl_run run;
    rg_vec3 arm, torque;
    double scale;
    jsl_slide(jsl_unit(1, 1, 0.5), 1, -0.1, 0.2, 0, 0, 0, 0, 0, 120, &run);
    arm = jsl_sub(run.center, run.anchor);
    torque = jsl_cross(arm, jsl_v3(0, JSL_G, 0));
    scale = JSL_G * jsl_length(arm);
    rg_test_note("position %.5f m; reaction (%.5f, %.5f, %.5f) N, m g = %.5f; torque (%.5f, %.5f, %.5f) N m, expected "
                 "(%.5f, %.5f, %.5f)",
                 run.position, run.force.x, run.force.y, run.force.z, JSL_G, run.torque.x, run.torque.y, run.torque.z, torque.x,
                 torque.y, torque.z);
    ENSURE_NEAR(run.position, -0.1, JSL_MM);
    ENSURE_V3_NEAR(run.force, jsl_v3(0, JSL_G, 0), 0.01 * JSL_G);
    ENSURE_V3_NEAR(run.torque, torque, 0.01 * scale);
}

/* A motor on an axis 45 degrees up, (1, 1, 0) / sqrt 2 (the box's weight along it m g sin 45 =
   6.94 N): at 1 m/s with 100 N it reaches its speed within 1%, and at -0.5 m/s too; with 4 N
   it slips, accelerating at (F_max - m g sin 45) / m = -2.94 m/s^2: its speed after 1 s within
   1% of that times 1 s. With the forces across the axis and torques acting. */
static void test_joint_slider_motor(void) {
    rg_vec3 axis = jsl_unit(1, 1, 0);
    double slip = 4 - JSL_G * sqrt(0.5);
    jsl_run up, down, weak;
    jsl_slide(axis, 0, 0, 0, 1, 1, 100, 0, 30, 120, &up);
    jsl_slide(axis, 0, 0, 0, 1, -0.5, 100, 0, 30, 120, &down);
    jsl_slide(axis, 0, 0, 0, 1, 1, 4, 0, 30, 60, &weak);
    rg_test_note("speeds %.5f (1), %.5f (-0.5) m/s; weak motor %.5f m/s after 1 s (%.5f); off the line %.3g mm, turned %.2e rad",
                 up.speed, down.speed, weak.speed, slip, fmax(up.off_line, weak.off_line) * 1000, fmax(up.turn, weak.turn));
    ENSURE_REL(up.speed, 1, 0.01);
    ENSURE_REL(down.speed, -0.5, 0.01);
    ENSURE_REL(weak.speed, slip, 0.01);
    ENSURE(up.position > 1.5 && weak.position < -1);
    ENSURE_NEAR(fmax(up.off_line, weak.off_line), 0, JSL_MM);
    ENSURE_NEAR(fmax(up.turn, weak.turn), 0, 1e-3);
}

/* The total momentum p and angular momentum about the origin l of `count` bodies, in double. */
static void jsl_momenta(const rg_world *w, const rg_body_id *bodies, int count, double p[3], double l[3]) {
    int i;
    for (i = 0; i < count; ++i) {
        double m = rg_body_mass(w, bodies[i]);
        rg_vec3 c = rg_body_center_of_mass(w, bodies[i]), v = rg_body_linear_velocity(w, bodies[i]);
        rg_vec3 spin = rg_mat3_mul_v3(rg_body_inertia(w, bodies[i]), rg_body_angular_velocity(w, bodies[i]));
        rg_vec3 orbit = jsl_scale(jsl_cross(c, v), m);
        p[0] += m * v.x;
        p[1] += m * v.y;
        p[2] += m * v.z;
        l[0] += (double)orbit.x + spin.x;
        l[1] += (double)orbit.y + spin.y;
        l[2] += (double)orbit.z + spin.z;
    }
}

/* Two free boxes on a slider, no gravity: a (1 kg) and b (3 kg, density 375) thrown with
   velocities and turn rates the joint does not allow. Their total momentum, and so its part
   along the axis, stays what it was within 1e-4 of its size over 2 s (the joint's impulses are
   equal and opposite); their angular momentum about the origin within 1e-3 of its size (b is
   pushed at its point under a's anchor); after the first step they turn together (relative turn
   rate below 1e-3 rad/s) and a's anchor stays within 1 mm of b's line. */
static void test_joint_slider_two_bodies(void) {
    rg_world *w = jsl_world(0);
    rg_hull *cube = rg_hull_create_box(jsl_v3(0.1, 0.1, 0.1), NULL);
    rg_vec3 axis = jsl_unit(0.3, 1, -0.4);
    rg_body_id a = jsl_box(w, cube, jsl_v3(0, 0.5, 0), rg_quat_identity(), 125);
    rg_body_id b = jsl_box(w, cube, jsl_v3(0.2, -0.1, 0.1), rg_quat_from_axis_angle(jsl_unit(1, 0, 1), (rg_real)0.7), 375);
    rg_joint_id j = jsl_slider(w, a, b, jsl_v3(0.1, 0.2, 0.05), axis);
    rg_body_id bodies[2];
    double p0[3], l0[3], worst_p = 0, worst_l = 0, worst_line = 0, worst_rate = 0, size_p, size_l, along0 = 0, along = 0;
    int n, k;
    bodies[0] = a;
    bodies[1] = b;
    ENSURE(rg_joint_is_valid(w, j));
    ENSURE(rg_body_set_linear_velocity(w, a, jsl_v3(1, 2, -0.5)) == RG_OK);
    ENSURE(rg_body_set_angular_velocity(w, a, jsl_v3(0.5, -1, 2)) == RG_OK);
    ENSURE(rg_body_set_linear_velocity(w, b, jsl_v3(-0.3, 0.1, 0.4)) == RG_OK);
    ENSURE(rg_body_set_angular_velocity(w, b, jsl_v3(0, 0.3, -0.2)) == RG_OK);
    for (n = 0; n <= 120; ++n) {
        double p[3] = {0, 0, 0}, l[3] = {0, 0, 0}, dp = 0, dl = 0;
        rg_vec3 rate;
        if (n > 0) ENSURE(rg_world_step(w, (rg_real)JSL_H) == RG_OK);
        jsl_momenta(w, bodies, 2, p, l);
        if (n == 0) {
            for (k = 0; k < 3; ++k) p0[k] = p[k], l0[k] = l[k];
            along0 = p[0] * axis.x + p[1] * axis.y + p[2] * axis.z;
            continue;
        }
        for (k = 0; k < 3; ++k) dp += (p[k] - p0[k]) * (p[k] - p0[k]), dl += (l[k] - l0[k]) * (l[k] - l0[k]);
        worst_p = fmax(worst_p, sqrt(dp));
        worst_l = fmax(worst_l, sqrt(dl));
        worst_line = fmax(worst_line, jsl_off_line(w, j));
        rate = jsl_sub(rg_body_angular_velocity(w, a), rg_body_angular_velocity(w, b));
        worst_rate = fmax(worst_rate, jsl_length(rate));
        along = p[0] * axis.x + p[1] * axis.y + p[2] * axis.z;
    }
    size_p = sqrt(p0[0] * p0[0] + p0[1] * p0[1] + p0[2] * p0[2]);
    size_l = sqrt(l0[0] * l0[0] + l0[1] * l0[1] + l0[2] * l0[2]);
    rg_test_note("momentum %.5f kg m/s (along the first axis %.6f then %.6f), moved at most %.2e; angular momentum %.5f, moved at "
                 "most %.2e; off the line %.3g mm; relative turn rate %.2e rad/s; position %.4f m",
                 size_p, along0, along, worst_p, size_l, worst_l, worst_line * 1000, worst_rate, rg_joint_position(w, j));
    ENSURE_NEAR(worst_p, 0, 1e-4 * size_p);
    ENSURE_NEAR(along, along0, 1e-4 * size_p);
    ENSURE_NEAR(worst_l, 0, 1e-3 * size_l);
    ENSURE_NEAR(worst_line, 0, JSL_MM);
    ENSURE_NEAR(worst_rate, 0, 1e-3);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
}

/* ---- the ball joint's cone ---- */

/* A steel sphere (radius 0.05 m, density 7800) whose centre lies L = 1 m from the pivot
   (0, 2, 0) in the direction `rod`, on a ball joint there with a cone of half angle `cone` about
   `axis` (0: no limit). */
static rg_body_id jsl_bob(rg_world *w, rg_vec3 rod, rg_vec3 axis, double cone, rg_joint_id *joint) {
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    rg_joint_def d = rg_joint_default_def();
    rg_body_id id;
    bd.position = jsl_v3(rod.x, 2 + rod.y, rod.z);
    id = rg_body_create(w, &bd, NULL);
    sd.density = 7800;
    (void)rg_body_add_sphere(w, id, &sd, jsl_v3(0, 0, 0), (rg_real)0.05, NULL);
    d.type = RG_JOINT_BALL;
    d.body_a = id;
    d.anchor_a = jsl_v3(0, 2, 0);
    d.axis = axis;
    d.enable_limit = cone > 0;
    d.upper = (rg_real)cone;
    *joint = rg_joint_create(w, &d, NULL);
    return id;
}

/* The swing's energy: kinetic, and the potential at the middle of the step (the semi-implicit
   step's velocity belongs there), as the height above the lowest point of the circle through
   that position about the pivot (so that a length error does not count). */
static double jsl_energy(const rg_world *w, rg_body_id bob, rg_vec3 previous) {
    rg_vec3 c = rg_body_center_of_mass(w, bob), v = rg_body_linear_velocity(w, bob), omega = rg_body_angular_velocity(w, bob);
    rg_vec3 middle = jsl_v3(((double)previous.x + c.x) / 2, ((double)previous.y + c.y) / 2, ((double)previous.z + c.z) / 2);
    double m = rg_body_mass(w, bob);
    return 0.5 * m * jsl_dot(v, v) + 0.5 * jsl_dot(omega, rg_mat3_mul_v3(rg_body_inertia(w, bob), omega)) +
           m * JSL_G * ((double)middle.y - 2 + jsl_length(jsl_sub(middle, jsl_v3(0, 2, 0))));
}

/* Released at rest 1.2 rad from the vertical, with a cone of 0.5 rad about its rod's direction
   there: it swings freely (energy within 1% of its start while the cone angle stays below
   0.49 rad) until, 0.7 rad from the vertical, the cone stops it; over 3 s the cone angle (the
   rod's direction, carried by the sphere, from the axis carried by the world) never exceeds
   0.5 + 0.02 rad, the ball joint's gap stays under 1 mm, and the sphere ends at rest (below
   1 cm/s) on the cone's edge (0.5 within 0.02 rad), where the joint's reaction, cone included,
   holds its weight: the force (0, m g, 0) within 1% of m g, the torque about the pivot
   (c - pivot) x (0, m g, 0) within 1% of m g L sin 0.7. */
static void test_joint_cone_release(void) {
    rg_world *w = jsl_world(JSL_G);
    rg_vec3 rod = jsl_v3(sin(1.2), -cos(1.2), 0), previous;
    rg_joint_id joint;
    rg_body_id bob = jsl_bob(w, rod, rod, 0.5, &joint);
    double worst_angle = 0, worst_gap = 0, worst_energy = 0, energy0, angle = 0, speed, m;
    rg_vec3 force, torque, expected_torque;
    int n, free_steps = 0, inside = 1;
    ENSURE(rg_joint_is_valid(w, joint) && rg_body_mass(w, bob) > 0);
    previous = rg_body_center_of_mass(w, bob);
    energy0 = jsl_energy(w, bob, previous);
    for (n = 1; n <= 180; ++n) {
        rg_vec3 c;
        ENSURE(rg_world_step(w, (rg_real)JSL_H) == RG_OK);
        c = rg_body_center_of_mass(w, bob);
        angle = jsl_angle(jsl_sub(c, jsl_v3(0, 2, 0)), rod);
        worst_angle = fmax(worst_angle, angle);
        worst_gap = fmax(worst_gap, jsl_length(jsl_sub(rg_joint_anchor_a(w, joint), rg_joint_anchor_b(w, joint))));
        if (angle >= 0.49) inside = 0;
        if (inside) {
            worst_energy = fmax(worst_energy, fabs(jsl_energy(w, bob, previous) / energy0 - 1));
            ++free_steps;
        }
        previous = c;
    }
    speed = jsl_length(rg_body_linear_velocity(w, bob));
    m = rg_body_mass(w, bob);
    force = rg_joint_reaction_force(w, joint);
    torque = rg_joint_reaction_torque(w, joint);
    expected_torque = jsl_cross(jsl_sub(rg_body_center_of_mass(w, bob), jsl_v3(0, 2, 0)), jsl_v3(0, m * JSL_G, 0));
    rg_test_note("free for %d steps (energy within %.3f%%); cone angle at most %.5f rad, last %.5f rad, speed %.3g m/s; gap %.3g mm; "
                 "reaction (%.4f, %.4f, %.4f) N, m g = %.4f, torque (%.4f, %.4f, %.4f) N m, expected (%.4f, %.4f, %.4f)",
                 free_steps, worst_energy * 100, worst_angle, angle, speed, worst_gap * 1000, force.x, force.y, force.z, m * JSL_G,
                 torque.x, torque.y, torque.z, expected_torque.x, expected_torque.y, expected_torque.z);
    ENSURE_V3_NEAR(force, jsl_v3(0, m * JSL_G, 0), 0.01 * m * JSL_G);
    ENSURE_V3_NEAR(torque, expected_torque, 0.01 * m * JSL_G * sin(0.7));
    ENSURE(free_steps > 10);
    ENSURE_NEAR(worst_energy, 0, 0.01);
    ENSURE(worst_angle <= 0.5 + 0.02);
    ENSURE_NEAR(angle, 0.5, 0.02);
    ENSURE_NEAR(speed, 0, 0.01);
    ENSURE_NEAR(worst_gap, 0, JSL_MM);
    rg_world_destroy(w);
}

/* Inside its cone a pendulum swings freely: released at rest 0.2 rad from the vertical, with a
   cone of 0.5 rad about the vertical (the cone angle swings from 0 to 0.4 rad), over 12 s its
   period, from the zero crossings of its angle, is the physical pendulum's
   4 sqrt(I_pivot / (m g L)) K(sin 0.1) within 1% (I_pivot = 2/5 m r^2 + m L^2) and its energy
   stays within 1% of its start. */
static void test_joint_cone_free_swing(void) {
    rg_world *w = jsl_world(JSL_G);
    rg_vec3 rod = jsl_v3(sin(0.2), -cos(0.2), 0), previous;
    rg_joint_id joint;
    rg_body_id bob = jsl_bob(w, rod, jsl_v3(0, -1, 0), 0.5, &joint);
    double m = rg_body_mass(w, bob), pivot_inertia = 0.4 * m * 0.05 * 0.05 + m, energy0, worst_energy = 0, worst_angle = 0;
    double expected = rg_analytic_pendulum_period(pivot_inertia, m, JSL_G, 1, 0.2), before = 0.2, first = 0, last = 0, period;
    int n, crossings = 0;
    ENSURE(rg_joint_is_valid(w, joint) && rg_body_mass(w, bob) > 0);
    previous = rg_body_center_of_mass(w, bob);
    energy0 = jsl_energy(w, bob, previous);
    for (n = 1; n <= 720; ++n) {
        rg_vec3 c;
        double theta;
        ENSURE(rg_world_step(w, (rg_real)JSL_H) == RG_OK);
        c = rg_body_center_of_mass(w, bob);
        theta = atan2((double)c.x, 2 - (double)c.y);
        worst_angle = fmax(worst_angle, jsl_angle(jsl_sub(c, jsl_v3(0, 2, 0)), rod));
        if ((before > 0) != (theta > 0) && crossings < 11) {
            double t = (n - 1 + before / (before - theta)) * JSL_H;
            if (crossings == 0) first = t;
            last = t;
            ++crossings;
        }
        before = theta;
        worst_energy = fmax(worst_energy, fabs(jsl_energy(w, bob, previous) / energy0 - 1));
        previous = c;
    }
    period = (last - first) / 5;
    rg_test_note("period %.5f s (analytic %.5f, %+.3f%%, %d crossings); energy within %.3f%%; swing up to %.4f rad from the start",
                 period, expected, 100 * (period / expected - 1), crossings, worst_energy * 100, worst_angle);
    ENSURE(crossings == 11);
    ENSURE_REL(period, expected, 0.01);
    ENSURE_NEAR(worst_energy, 0, 0.01);
    ENSURE(worst_angle > 0.39);
    rg_world_destroy(w);
}

/* The cone holds from every side: hanging at rest with a cone of 0.5 rad about the vertical,
   thrown with the speed that would swing it to 1.2 rad, sqrt(2 g L (1 - cos 1.2)), in eight
   horizontal directions, each with 1 m/s sideways: over 2 s the cone angle never exceeds
   0.5 + 0.02 rad, it reaches the edge (above 0.48 rad), and the gap stays under 1 mm. */
static void test_joint_cone_every_side(void) {
    double push = sqrt(2 * JSL_G * (1 - cos(1.2))), worst_angle = 0, least_reach = 1e9, worst_gap = 0;
    int side, n;
    for (side = 0; side < 8; ++side) {
        rg_world *w = jsl_world(JSL_G);
        double phi = 2 * JSL_PI * side / 8 + 0.3, reach = 0;
        rg_vec3 rod = jsl_v3(0, -1, 0), v = jsl_v3(push * cos(phi) - sin(phi), 0, push * sin(phi) + cos(phi));
        rg_joint_id joint;
        rg_body_id bob = jsl_bob(w, rod, rod, 0.5, &joint);
        ENSURE(rg_joint_is_valid(w, joint) && rg_body_mass(w, bob) > 0);
        ENSURE(rg_body_set_linear_velocity(w, bob, v) == RG_OK);
        ENSURE(rg_body_set_angular_velocity(w, bob, jsl_cross(rod, v)) == RG_OK); /* v = omega x rod, |rod| = 1 */
        for (n = 1; n <= 120; ++n) {
            double angle;
            ENSURE(rg_world_step(w, (rg_real)JSL_H) == RG_OK);
            angle = jsl_angle(jsl_sub(rg_body_center_of_mass(w, bob), jsl_v3(0, 2, 0)), rod);
            worst_angle = fmax(worst_angle, angle);
            reach = fmax(reach, angle);
            worst_gap = fmax(worst_gap, jsl_length(jsl_sub(rg_joint_anchor_a(w, joint), rg_joint_anchor_b(w, joint))));
        }
        least_reach = fmin(least_reach, reach);
        rg_world_destroy(w);
    }
    rg_test_note("thrown at %.4f m/s: cone angle at most %.5f rad, every side reached %.5f rad; gap %.3g mm", push, worst_angle,
                 least_reach, worst_gap * 1000);
    ENSURE(worst_angle <= 0.5 + 0.02);
    ENSURE(least_reach > 0.48);
    ENSURE_NEAR(worst_gap, 0, JSL_MM);
}

/* Two free capsules (0.6 m, radius 0.05 m; 1 and 2 kg) end to end on a ball joint with a cone of
   0.4 rad about their common axis, no gravity, thrown so that they fold at 6 rad/s: over 2 s the
   cone angle (between their axes) never exceeds 0.4 + 0.02 rad and reaches 0.39, the gap stays
   under 1 mm, and their total momentum and angular momentum about the origin stay what they
   were within 1e-4 and 5e-3 of their sizes (the cone's impulses are internal; the step's
   rotation of free capsules alone moves the angular momentum by 5e-4 of its size, and the ball
   joint without the cone by 1.4e-3). */
static void test_joint_cone_two_bodies(void) {
    rg_world *w = jsl_world(0);
    rg_body_id bodies[2];
    rg_joint_def d = rg_joint_default_def();
    rg_joint_id j;
    double p0[3], l0[3], worst_p = 0, worst_l = 0, worst_angle = 0, worst_gap = 0, size_p, size_l;
    rg_quat q0[2];
    int i, k, n;
    for (i = 0; i < 2; ++i) {
        rg_body_def bd = rg_body_default_def();
        rg_shape_def sd = rg_shape_default_def();
        bd.position = jsl_v3(0.35 - 0.7 * i, 0, 0);
        bodies[i] = rg_body_create(w, &bd, NULL);
        sd.density = (rg_real)(1000 * (i + 1));
        ENSURE(rg_shape_is_valid(w, rg_body_add_capsule(w, bodies[i], &sd, jsl_v3(-0.25, 0, 0), jsl_v3(0.25, 0, 0), 0.05f, NULL)));
        q0[i] = rg_body_orientation(w, bodies[i]);
    }
    d.type = RG_JOINT_BALL;
    d.body_a = bodies[0];
    d.body_b = bodies[1];
    d.anchor_a = jsl_v3(0, 0, 0);
    d.axis = jsl_v3(1, 0, 0);
    d.enable_limit = 1;
    d.upper = (rg_real)0.4;
    j = rg_joint_create(w, &d, NULL);
    ENSURE(rg_joint_is_valid(w, j));
    ENSURE(rg_body_set_angular_velocity(w, bodies[0], jsl_v3(0.5, 1, 3)) == RG_OK);
    ENSURE(rg_body_set_linear_velocity(w, bodies[0], jsl_v3(0.2, -0.35, 1.05)) == RG_OK);
    ENSURE(rg_body_set_angular_velocity(w, bodies[1], jsl_v3(0, -2, -3)) == RG_OK);
    ENSURE(rg_body_set_linear_velocity(w, bodies[1], jsl_v3(0, 1.05, -0.7)) == RG_OK);
    for (n = 0; n <= 120; ++n) {
        double p[3] = {0, 0, 0}, l[3] = {0, 0, 0}, dp = 0, dl = 0;
        rg_vec3 axis_a, axis_b;
        if (n > 0) ENSURE(rg_world_step(w, (rg_real)JSL_H) == RG_OK);
        jsl_momenta(w, bodies, 2, p, l);
        if (n == 0) {
            for (k = 0; k < 3; ++k) p0[k] = p[k], l0[k] = l[k];
            continue;
        }
        for (k = 0; k < 3; ++k) dp += (p[k] - p0[k]) * (p[k] - p0[k]), dl += (l[k] - l0[k]) * (l[k] - l0[k]);
        worst_p = fmax(worst_p, sqrt(dp));
        worst_l = fmax(worst_l, sqrt(dl));
        axis_a = rg_quat_rotate(rg_body_orientation(w, bodies[0]), rg_quat_rotate_inverse(q0[0], jsl_v3(1, 0, 0)));
        axis_b = rg_quat_rotate(rg_body_orientation(w, bodies[1]), rg_quat_rotate_inverse(q0[1], jsl_v3(1, 0, 0)));
        worst_angle = fmax(worst_angle, jsl_angle(axis_a, axis_b));
        worst_gap = fmax(worst_gap, jsl_length(jsl_sub(rg_joint_anchor_a(w, j), rg_joint_anchor_b(w, j))));
    }
    size_p = sqrt(p0[0] * p0[0] + p0[1] * p0[1] + p0[2] * p0[2]);
    size_l = sqrt(l0[0] * l0[0] + l0[1] * l0[1] + l0[2] * l0[2]);
    rg_test_note("cone angle at most %.5f rad; gap %.3g mm; momentum %.4f moved %.2e, angular momentum %.4f moved %.2e", worst_angle,
                 worst_gap * 1000, size_p, worst_p, size_l, worst_l);
    ENSURE(worst_angle <= 0.4 + 0.02 && worst_angle > 0.39);
    ENSURE_NEAR(worst_gap, 0, JSL_MM);
    ENSURE_NEAR(worst_p, 0, 1e-4 * size_p);
    ENSURE_NEAR(worst_l, 0, 5e-3 * size_l);
    rg_world_destroy(w);
}

void rg_tests_joint_slider(void);
void rg_tests_joint_slider(void) {
    RUN_TEST(test_joint_slider_tilted_gravity);
    RUN_TEST(test_joint_slider_limits);
    RUN_TEST(test_joint_slider_reaction_on_limit);
    RUN_TEST(test_joint_slider_motor);
    RUN_TEST(test_joint_slider_two_bodies);
    RUN_TEST(test_joint_cone_release);
    RUN_TEST(test_joint_cone_free_swing);
    RUN_TEST(test_joint_cone_every_side);
    RUN_TEST(test_joint_cone_two_bodies);
}
