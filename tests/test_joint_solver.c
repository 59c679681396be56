/* Joints held by the step (ball and distance), through the public API against closed forms:
   pendulums on a ball joint and on a rod, their period (amplitude-corrected, the complete
   elliptic integral by the arithmetic-geometric mean) and their length, the swing's energy, a
   rope that lets a body fly free until it is taut, a rod that pushes a body held above its pivot,
   and the reaction force of bodies hanging at rest (from the world, from a static body, a chain
   of two). dt = 1/60, gravity 9.81 m/s^2 down y. */
#include "test.h"
#include "analytic.h"
#include "../examples/scenes.h"

#include <string.h>

#define JS_PI 3.14159265358979323846
#define JS_G 9.81
#define JS_H (1.0 / 60)
#define JS_MM 0.001

static rg_vec3 js_v3(double x, double y, double z) { return rg_v3((rg_real)x, (rg_real)y, (rg_real)z); }

static double js_dot(rg_vec3 a, rg_vec3 b) { return (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z; }

static double js_distance(rg_vec3 a, rg_vec3 b) {
    double dx = (double)a.x - b.x, dy = (double)a.y - b.y, dz = (double)a.z - b.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static rg_world *js_world(void) {
    rg_world_def wd = rg_world_default_def();
    wd.gravity = js_v3(0, -JS_G, 0);
    return rg_world_create(&wd, NULL);
}

/* A dynamic body of one sphere centred on its frame's origin. */
static rg_body_id js_sphere(rg_world *w, rg_vec3 center, double radius, double density) {
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id id;
    bd.position = center;
    id = rg_body_create(w, &bd, NULL);
    sd.density = (rg_real)density;
    if (!rg_shape_is_valid(w, rg_body_add_sphere(w, id, &sd, js_v3(0, 0, 0), (rg_real)radius, NULL))) {
        rg_body_id none = {0, 0};
        return none;
    }
    return id;
}

static rg_body_id js_box(rg_world *w, const rg_hull *hull, rg_body_type type, rg_vec3 position, double density) {
    rg_body_def bd = rg_body_default_def();
    bd.type = type;
    bd.hull = hull;
    bd.position = position;
    bd.density = (rg_real)density;
    return rg_body_create(w, &bd, NULL);
}

/* A ball joint holding body a at the world point `anchor` to b (null: the world). */
static rg_joint_id js_ball(rg_world *w, rg_body_id a, rg_body_id b, rg_vec3 anchor) {
    rg_joint_def d = rg_joint_default_def();
    d.type = RG_JOINT_BALL;
    d.body_a = a;
    d.body_b = b;
    d.anchor_a = anchor;
    return rg_joint_create(w, &d, NULL);
}

/* A distance joint from a's point anchor_a to the world point anchor_b, lengths lower and upper
   (negative: the length at creation). */
static rg_joint_id js_distance_joint(rg_world *w, rg_body_id a, rg_vec3 anchor_a, rg_vec3 anchor_b, double lower,
                                     double upper) {
    rg_joint_def d = rg_joint_default_def();
    d.type = RG_JOINT_DISTANCE;
    d.body_a = a;
    d.anchor_a = anchor_a;
    d.anchor_b = anchor_b;
    d.lower = (rg_real)lower;
    d.upper = (rg_real)upper;
    return rg_joint_create(w, &d, NULL);
}

/* What a pendulum run measured. */
typedef struct js_swing {
    double period, expected_period;  /* measured from the angle's zero crossings; analytic */
    int crossings;
    double worst_gap;                /* ball: largest |anchor_a - anchor_b|; distance: largest | |anchor_a - anchor_b| - L | */
    double worst_length;             /* largest | |centre - pivot| - L | */
    double worst_energy;             /* largest |E / E0 - 1| over the first 5 s */
} js_swing;

#define JS_PERIODS 5
#define JS_MAX_CROSSINGS (2 * JS_PERIODS + 1)

/* A sphere of radius 0.05 m and density 7800 (steel) whose centre hangs L = 1 m below the pivot
   (0, 2, 0), released at rest from theta0 in the x-y plane: on a ball joint at the pivot (the
   sphere swings and turns, I_pivot = 2/5 m r^2 + m L^2) or on a rod from its centre (it swings
   without turning, I_pivot = m L^2). Steps `steps` times and measures:
   - the angle theta = atan2(x, -y) of the centre about the pivot; its zero crossings, each
     interpolated linearly between two steps, and the period as the time of 2 JS_PERIODS
     half-swings over JS_PERIODS;
   - the joint's gap and the centre's distance from the pivot at every step;
   - the energy: semi-implicit Euler moves a body by the step's velocity v_n from x_(n-1) to
     x_n, so v_n belongs to the step's middle; at the step's end the exact scheme's energy
     swings by +-h omega / 2 (2.6% here, measured on a model of the ideal solver) while with the
     potential at the middle position (x_(n-1) + x_n) / 2 it stays within 0.15%. The potential
     is m g times the height above the lowest point of the circle through that position about
     the pivot (y - y_pivot + |x - pivot|): the swing's energy, not changed by a length error
     (bounded apart). Kinetic: 1/2 m v.v + 1/2 w.(I w) from the body's getters. */
static int js_pendulum(rg_joint_type type, double theta0, int steps, js_swing *out) {
    const double length = 1, radius = 0.05, density = 7800;
    rg_world *w = js_world();
    rg_vec3 pivot = js_v3(0, 2, 0);
    rg_vec3 start = js_v3(length * sin(theta0), 2 - length * cos(theta0), 0), previous = start;
    rg_body_id ball = js_sphere(w, start, radius, density), world = {0, 0};
    rg_joint_id joint;
    double mass = rg_body_mass(w, ball), inertia = rg_body_inertia(w, ball).m[2][2], pivot_inertia;
    double crossing[JS_MAX_CROSSINGS], theta_before = theta0, energy0;
    int n, ok = 1;
    out->crossings = 0;
    out->period = 0;
    out->worst_gap = out->worst_length = out->worst_energy = 0;
    joint = type == RG_JOINT_BALL ? js_ball(w, ball, world, pivot)
                                  : js_distance_joint(w, ball, start, pivot, -1, -1);
    if (!rg_joint_is_valid(w, joint) || !(mass > 0)) {
        rg_test_note("setup failed: joint valid %d, mass %g", rg_joint_is_valid(w, joint), mass);
        rg_world_destroy(w);
        return 0;
    }
    /* the sphere's inertia from the API against 2/5 m r^2 */
    if (fabs(inertia - 0.4 * mass * radius * radius) > 1e-4 * inertia) {
        rg_test_note("sphere inertia %.9g, expected %.9g", inertia, 0.4 * mass * radius * radius);
        ok = 0;
    }
    pivot_inertia = (type == RG_JOINT_BALL ? inertia : 0) + mass * length * length;
    out->expected_period = rg_analytic_pendulum_period(pivot_inertia, mass, JS_G, length, theta0);
    energy0 = mass * JS_G * (start.y - pivot.y + js_distance(start, pivot));
    for (n = 1; n <= steps; ++n) {
        rg_vec3 c, v, omega, middle;
        double theta, gap, kinetic, potential;
        if (rg_world_step(w, (rg_real)JS_H) != RG_OK) { ok = 0; break; }
        c = rg_body_center_of_mass(w, ball);
        v = rg_body_linear_velocity(w, ball);
        omega = rg_body_angular_velocity(w, ball);
        gap = js_distance(rg_joint_anchor_a(w, joint), rg_joint_anchor_b(w, joint));
        if (type == RG_JOINT_DISTANCE) gap = fabs(gap - length);
        if (!(gap <= out->worst_gap)) out->worst_gap = gap;  /* NaN is kept */
        if (!(fabs(js_distance(c, pivot) - length) <= out->worst_length)) out->worst_length = fabs(js_distance(c, pivot) - length);
        theta = atan2((double)c.x - pivot.x, (double)pivot.y - c.y);
        if ((theta_before > 0) != (theta > 0) && out->crossings < JS_MAX_CROSSINGS)
            crossing[out->crossings++] = (n - 1 + theta_before / (theta_before - theta)) * JS_H;
        theta_before = theta;
        if (n * JS_H <= 5 + 1e-9) {
            middle = js_v3(((double)previous.x + c.x) / 2, ((double)previous.y + c.y) / 2, ((double)previous.z + c.z) / 2);
            kinetic = 0.5 * mass * js_dot(v, v) + 0.5 * js_dot(omega, rg_mat3_mul_v3(rg_body_inertia(w, ball), omega));
            potential = mass * JS_G * ((double)middle.y - pivot.y + js_distance(middle, pivot));
            if (!(fabs((kinetic + potential) / energy0 - 1) <= out->worst_energy))
                out->worst_energy = fabs((kinetic + potential) / energy0 - 1);
        }
        previous = c;
    }
    if (out->crossings == JS_MAX_CROSSINGS) out->period = (crossing[JS_MAX_CROSSINGS - 1] - crossing[0]) / JS_PERIODS;
    rg_world_destroy(w);
    return ok;
}

/* 12 s: 5 periods after the first quarter swing for amplitudes up to 1 rad (T <= 2.15 s). */
#define JS_PENDULUM_STEPS 720

/* Checks a pendulum's period within 1% of the analytic one and its gap and length within 1 mm
   at every step. */
static int js_check_swing(const char *what, double theta0, const js_swing *s) {
    rg_test_note("%s from %.1f rad: period %.5f s (analytic %.5f, error %.3f%%, %d crossings), worst gap %.3g mm, "
                 "length error %.3g mm, energy %.3f%%",
                 what, theta0, s->period, s->expected_period, 100 * (s->period / s->expected_period - 1), s->crossings,
                 s->worst_gap * 1000, s->worst_length * 1000, 100 * s->worst_energy);
    return s->crossings == JS_MAX_CROSSINGS && fabs(s->period / s->expected_period - 1) <= 0.01 &&
           s->worst_gap <= JS_MM && s->worst_length <= JS_MM;
}

/* The analytic period's amplitude correction against the series 1 + t^2/16 + 11 t^4/3072 at
   0.2 rad (next term 173 t^6 / 737280 = 1.5e-8), and the factor 2 K / pi = 1.0663342 at 1 rad (from K's power series in k^2). */
static void test_joint_solve_period_formula(void) {
    double t = 0.2, t0 = rg_analytic_pendulum_period(JS_G, 1, JS_G, 1, 0);
    ENSURE_NEAR(t0, 2 * JS_PI, 1e-12);
    ENSURE_NEAR(rg_analytic_pendulum_period(JS_G, 1, JS_G, 1, t) / t0, 1 + t * t / 16 + 11 * t * t * t * t / 3072, 1e-7);
    ENSURE_NEAR(rg_analytic_pendulum_period(JS_G, 1, JS_G, 1, 1.0) / t0, 1.0663342, 1e-6);
}

/* 1. A ball joint at the pivot 1 m above the sphere's centre, released from 0.2 and 1.0 rad:
   period within 1% of the physical pendulum's, amplitude-corrected; joint gap and the centre's
   distance from the pivot within 1 mm at every step. */
static void test_joint_solve_ball_pendulum(void) {
    js_swing s;
    ENSURE(js_pendulum(RG_JOINT_BALL, 0.2, JS_PENDULUM_STEPS, &s));
    ENSURE(js_check_swing("ball", 0.2, &s));
    ENSURE(js_pendulum(RG_JOINT_BALL, 1.0, JS_PENDULUM_STEPS, &s));
    ENSURE(js_check_swing("ball", 1.0, &s));
}

/* 2. The same on a rod (distance joint, lower = upper = the length at creation, 1 m) from the
   sphere's centre to the pivot: the sphere does not turn, I_pivot = m L^2. */
static void test_joint_solve_distance_pendulum(void) {
    js_swing s;
    ENSURE(js_pendulum(RG_JOINT_DISTANCE, 0.2, JS_PENDULUM_STEPS, &s));
    ENSURE(js_check_swing("rod", 0.2, &s));
    ENSURE(js_pendulum(RG_JOINT_DISTANCE, 1.0, JS_PENDULUM_STEPS, &s));
    ENSURE(js_check_swing("rod", 1.0, &s));
}

/* 6. The 0.2 rad ball pendulum's energy (kinetic and potential, js_pendulum) within 2% of its
   release value at every step of 5 s, its length within 1 mm. */
static void test_joint_solve_pendulum_energy(void) {
    js_swing s;
    ENSURE(js_pendulum(RG_JOINT_BALL, 0.2, 300, &s));
    rg_test_note("ball from 0.2 rad: energy within %.3f%% over 5 s, length error %.3g mm", 100 * s.worst_energy,
                 s.worst_length * 1000);
    ENSURE_NEAR(s.worst_energy, 0, 0.02);
    ENSURE_NEAR(s.worst_length, 0, JS_MM);
}

/* A 1 kg box (0.2 m cube, density 125) hanging at rest on a ball joint at its top face's centre
   (0, 1, 0), to the world or to a static box just above it (its bottom face at the anchor; the
   pair makes no contacts, collide_connected 0). 120 steps: the gap within 1 mm at every step,
   the box within 1 mm of where it started, and the reaction on it (body a) +m g up within 1%
   (sideways within 1% of m g). */
static void js_hang(int from_static_body) {
    rg_world *w = js_world();
    rg_hull *cube = rg_hull_create_box(js_v3(0.1, 0.1, 0.1), NULL);
    rg_vec3 anchor = js_v3(0, 1, 0), start = js_v3(0, 0.9, 0), force;
    rg_body_id box = js_box(w, cube, RG_BODY_DYNAMIC, start, 125), ceiling = {0, 0};
    rg_joint_id joint;
    double mass = rg_body_mass(w, box), worst_gap = 0;
    int n;
    ENSURE_NEAR(mass, 1, 1e-5);
    if (from_static_body) {
        ceiling = js_box(w, cube, RG_BODY_STATIC, js_v3(0, 1.1, 0), 125);
        ENSURE(rg_body_is_valid(w, ceiling));
    }
    joint = js_ball(w, box, ceiling, anchor);
    ENSURE(rg_joint_is_valid(w, joint));
    for (n = 0; n < 120; ++n) {
        double gap;
        ENSURE(rg_world_step(w, (rg_real)JS_H) == RG_OK);
        gap = js_distance(rg_joint_anchor_a(w, joint), rg_joint_anchor_b(w, joint));
        if (!(gap <= worst_gap)) worst_gap = gap;
    }
    force = rg_joint_reaction_force(w, joint);
    rg_test_note("reaction (%.5f, %.5f, %.5f) N, m g = %.5f N; worst gap %.3g mm, moved %.3g mm", force.x, force.y, force.z,
                 mass * JS_G, worst_gap * 1000, js_distance(rg_body_position(w, box), start) * 1000);
    ENSURE_NEAR(worst_gap, 0, JS_MM);
    ENSURE_NEAR(js_distance(rg_body_position(w, box), start), 0, JS_MM);
    ENSURE_REL(force.y, mass * JS_G, 0.01);
    ENSURE_NEAR(force.x, 0, 0.01 * mass * JS_G);
    ENSURE_NEAR(force.z, 0, 0.01 * mass * JS_G);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
}

/* 3. Hanging at rest from the world, then from a static body (js_hang). */
static void test_joint_solve_hanging_reaction_world(void) { js_hang(0); }
static void test_joint_solve_hanging_reaction_static_body(void) { js_hang(1); }

/* 4. A rope (distance joint, lower 0, upper 1.5 m, 1 m long at creation) from the world point
   (0, 2, 0) to a sphere's centre starting at (0.6, -0.8) from it, thrown sideways at 1 m/s.
   While the free flight would leave the rope slack at the end of a step, the sphere follows
   semi-implicit Euler's free flight x_n = x0 + n h v0, y_n = y0 - g h^2 n (n + 1) / 2 within
   1 mm (the rope neither pulls nor pushes); from then on it is caught: its distance from the
   pivot never exceeds 1.5 m + 1 mm, and after 3 s it still swings on the taut rope (distance
   above 1.5 m - 1 cm). */
static void test_joint_solve_rope(void) {
    const double upper = 1.5, vx = 1;
    rg_world *w = js_world();
    rg_vec3 pivot = js_v3(0, 2, 0), start = js_v3(0.6, 1.2, 0);
    rg_body_id ball = js_sphere(w, start, 0.05, 7800);
    rg_joint_id rope = js_distance_joint(w, ball, start, pivot, 0, upper);
    rg_real lower_in_force = -1, upper_in_force = -1;
    double worst_free = 0, worst_over = -1, last = 0;
    int n, taut_step = 0;
    ENSURE(rg_joint_is_valid(w, rope));
    ENSURE(rg_joint_limits(w, rope, &lower_in_force, &upper_in_force) == 1);
    ENSURE(lower_in_force == 0 && upper_in_force == (rg_real)upper);
    ENSURE(rg_body_set_linear_velocity(w, ball, js_v3(vx, 0, 0)) == RG_OK);
    for (n = 1; n <= 180; ++n) {
        rg_vec3 c, free_flight = js_v3(start.x + n * JS_H * vx, start.y - JS_G * JS_H * JS_H * n * (n + 1) / 2, 0);
        ENSURE(rg_world_step(w, (rg_real)JS_H) == RG_OK);
        c = rg_body_center_of_mass(w, ball);
        if (!taut_step && js_distance(free_flight, pivot) > upper - JS_MM) taut_step = n;
        if (!taut_step && !(js_distance(c, free_flight) <= worst_free)) worst_free = js_distance(c, free_flight);
        last = js_distance(c, pivot);
        if (!(last - upper <= worst_over)) worst_over = last - upper;
    }
    rg_test_note("free flight until step %d: followed within %.3g mm; distance at most upper %+.3g mm; after 3 s %.5f m",
                 taut_step, worst_free * 1000, worst_over * 1000, last);
    ENSURE(taut_step > 5);
    ENSURE_NEAR(worst_free, 0, JS_MM);
    ENSURE(worst_over <= JS_MM);
    ENSURE(last >= upper - 0.01);
    rg_world_destroy(w);
}

/* 5. A rod (distance joint at its length at creation, 1 m) holding a sphere above its pivot,
   tilted 0.05 rad: gravity first presses the sphere towards the pivot, so only a rod that pushes
   keeps the length; it falls over and swings through the bottom. Over 3 s: the length within
   1 mm at every step, the sphere passes below y_pivot - 0.99 m, and its largest speed is the
   energy's sqrt(2 g L (1 + cos 0.05)) within 2% (the ideal scheme: 0.1%). */
static void test_joint_solve_rod_pushes(void) {
    const double tilt = 0.05, length = 1;
    rg_world *w = js_world();
    rg_vec3 pivot = js_v3(0, 0, 0), start = js_v3(length * sin(tilt), length * cos(tilt), 0);
    rg_body_id ball = js_sphere(w, start, 0.05, 7800);
    rg_joint_id rod = js_distance_joint(w, ball, start, pivot, -1, -1);
    double worst_length = 0, lowest = 1, fastest = 0, expected = sqrt(2 * JS_G * length * (1 + cos(tilt)));
    int n;
    ENSURE(rg_joint_is_valid(w, rod));
    for (n = 1; n <= 180; ++n) {
        rg_vec3 c, v;
        ENSURE(rg_world_step(w, (rg_real)JS_H) == RG_OK);
        c = rg_body_center_of_mass(w, ball);
        v = rg_body_linear_velocity(w, ball);
        if (!(fabs(js_distance(c, pivot) - length) <= worst_length)) worst_length = fabs(js_distance(c, pivot) - length);
        if (c.y < lowest) lowest = c.y;
        if (sqrt(js_dot(v, v)) > fastest) fastest = sqrt(js_dot(v, v));
    }
    rg_test_note("length error at most %.3g mm; lowest %.4f m; fastest %.4f m/s (energy's %.4f, %+.2f%%)", worst_length * 1000,
                 lowest, fastest, expected, 100 * (fastest / expected - 1));
    ENSURE_NEAR(worst_length, 0, JS_MM);
    ENSURE(lowest < -0.99 * length);
    ENSURE_REL(fastest, expected, 0.02);
    rg_world_destroy(w);
}

/* 7. A chain of two boxes hanging at rest from the world point (0, 1, 0): the upper box
   (0.1 x 0.4 x 0.1 m, density 1000: 4 kg) on a ball joint at its top face's centre, the lower
   one (the same size, density 500: 2 kg) on a ball joint to the upper one where their faces meet.
   120 steps: both gaps within 1 mm at every step; the top joint's reaction on the upper box
   (m1 + m2) g up and the lower joint's on the lower box m2 g up, each within 1% (sideways within
   1% of it). */
static void test_joint_solve_chain_reaction(void) {
    rg_world *w = js_world();
    rg_hull *link = rg_hull_create_box(js_v3(0.05, 0.2, 0.05), NULL);
    rg_body_id upper = js_box(w, link, RG_BODY_DYNAMIC, js_v3(0, 0.8, 0), 1000);
    rg_body_id lower = js_box(w, link, RG_BODY_DYNAMIC, js_v3(0, 0.4, 0), 500), world = {0, 0};
    rg_joint_id top = js_ball(w, upper, world, js_v3(0, 1, 0)), middle = js_ball(w, lower, upper, js_v3(0, 0.6, 0));
    double m1 = rg_body_mass(w, upper), m2 = rg_body_mass(w, lower), worst_gap = 0;
    rg_vec3 top_force, middle_force;
    int n;
    ENSURE_NEAR(m1, 4, 4e-5);
    ENSURE_NEAR(m2, 2, 2e-5);
    ENSURE(rg_joint_is_valid(w, top) && rg_joint_is_valid(w, middle));
    for (n = 0; n < 120; ++n) {
        double gap_top, gap_middle;
        ENSURE(rg_world_step(w, (rg_real)JS_H) == RG_OK);
        gap_top = js_distance(rg_joint_anchor_a(w, top), rg_joint_anchor_b(w, top));
        gap_middle = js_distance(rg_joint_anchor_a(w, middle), rg_joint_anchor_b(w, middle));
        if (!(gap_top <= worst_gap)) worst_gap = gap_top;
        if (!(gap_middle <= worst_gap)) worst_gap = gap_middle;
    }
    top_force = rg_joint_reaction_force(w, top);
    middle_force = rg_joint_reaction_force(w, middle);
    rg_test_note("top reaction (%.4f, %.4f, %.4f) N, expected %.4f up; middle (%.4f, %.4f, %.4f) N, expected %.4f; "
                 "worst gap %.3g mm",
                 top_force.x, top_force.y, top_force.z, (m1 + m2) * JS_G, middle_force.x, middle_force.y, middle_force.z,
                 m2 * JS_G, worst_gap * 1000);
    ENSURE_NEAR(worst_gap, 0, JS_MM);
    ENSURE_REL(top_force.y, (m1 + m2) * JS_G, 0.01);
    ENSURE_NEAR(top_force.x, 0, 0.01 * (m1 + m2) * JS_G);
    ENSURE_NEAR(top_force.z, 0, 0.01 * (m1 + m2) * JS_G);
    ENSURE_REL(middle_force.y, m2 * JS_G, 0.01);
    ENSURE_NEAR(middle_force.x, 0, 0.01 * m2 * JS_G);
    ENSURE_NEAR(middle_force.z, 0, 0.01 * m2 * JS_G);
    rg_world_destroy(w);
    rg_hull_destroy(link);
}

/* Bender & Schmitt's office toy (seed 000 §4): five steel balls (radius 0.05 m) on strings 1 m
   long (ropes: distance joints with lower 0) from pivots 0.1 m apart, so that the balls hang
   just touching; restitution 1, no friction. The two left balls pulled back 0.4 rad and released
   reach the row at v_in = sqrt(2 g L (1 - cos 0.4)); after the impact the two right balls leave
   at v_in within 3% and the three others nearly stop (below 3% of v_in). The energy, kinetic
   plus the potential at the middle of each step (see the pendulum's energy above), stays within
   2% of its start over 5 s, and every string within 1 mm of its length. */
static void test_joint_solve_office_toy(void) {
    rg_world *w = js_world();
    rg_body_id balls[5];
    rg_vec3 previous[5];
    const double L = 1, r = 0.05, pulled = 0.4, v_in = sqrt(2 * JS_G * L * (1 - cos(pulled)));
    double energy0 = 0, worst_energy = 0, worst_string = 0, out[5] = {0, 0, 0, 0, 0};
    int i, step, hit = -1;
    for (i = 0; i < 5; ++i) {
        rg_joint_def d = rg_joint_default_def();
        double pivot = -0.2 + 0.1 * i, angle = i < 2 ? -pulled : 0;
        rg_vec3 c = js_v3(pivot + L * sin(angle), -L * cos(angle), 0);
        rg_body_def bd = rg_body_default_def();
        rg_shape_def sd = rg_shape_default_def();
        bd.position = c;
        balls[i] = rg_body_create(w, &bd, NULL);
        sd.density = 7800;
        sd.restitution = 1;
        sd.static_friction = sd.dynamic_friction = 0;
        ENSURE(rg_shape_is_valid(w, rg_body_add_sphere(w, balls[i], &sd, js_v3(0, 0, 0), (rg_real)r, NULL)));
        d.type = RG_JOINT_DISTANCE;
        d.body_a = balls[i];
        d.anchor_a = c;
        d.anchor_b = js_v3(pivot, 0, 0);
        d.lower = 0;
        ENSURE(rg_joint_is_valid(w, rg_joint_create(w, &d, NULL)));
        previous[i] = c;
    }
    for (step = 1; step <= 300; ++step) {
        double energy = 0;
        ENSURE(rg_world_step(w, (rg_real)JS_H) == RG_OK);
        for (i = 0; i < 5; ++i) {
            rg_vec3 c = rg_body_position(w, balls[i]), v = rg_body_linear_velocity(w, balls[i]);
            double m = rg_body_mass(w, balls[i]), pivot = -0.2 + 0.1 * i;
            double middle_y = ((double)previous[i].y + c.y) / 2;
            energy += 0.5 * m * js_dot(v, v) + m * JS_G * (middle_y + L);
            worst_string = fmax(worst_string, fabs(js_distance(c, js_v3(pivot, 0, 0)) - L));
            previous[i] = c;
        }
        if (step == 1) energy0 = energy;
        worst_energy = fmax(worst_energy, fabs(energy / energy0 - 1));
        /* the first step after which the right ball moves: the impact */
        if (hit < 0 && rg_body_linear_velocity(w, balls[4]).x > 0.5 * v_in) {
            hit = step;
            for (i = 0; i < 5; ++i) out[i] = rg_body_linear_velocity(w, balls[i]).x;
        }
    }
    rg_test_note("impact at step %d: v_in %.4f m/s; after: %.4f %.4f %.4f %.4f %.4f m/s; energy within %.2f%%, "
                 "strings within %.4f mm",
                 hit, v_in, out[0], out[1], out[2], out[3], out[4], worst_energy * 100, worst_string * 1000);
    ENSURE(hit > 0);
    ENSURE_REL(out[3], v_in, 0.03);
    ENSURE_REL(out[4], v_in, 0.03);
    for (i = 0; i < 3; ++i) ENSURE_NEAR(out[i], 0, 0.03 * v_in);
    ENSURE_NEAR(worst_energy, 0, 0.02);
    ENSURE_NEAR(worst_string, 0, JS_MM);
    rg_world_destroy(w);
}

/* A chain of 20 steel capsule links (0.1 m apart, 0.85 kg each) on ball joints, hung from the
   world point (0, top, 0) in a straight line `angle` rad from the vertical. */
#define JS_LINKS 20
static void js_chain(rg_world *w, double top, double angle, rg_body_id *links, rg_joint_id *joints) {
    const double spacing = 0.1, s = sin(angle), c = cos(angle);
    int i;
    for (i = 0; i < JS_LINKS; ++i) {
        rg_body_def bd = rg_body_default_def();
        rg_shape_def sd = rg_shape_default_def();
        rg_joint_def d = rg_joint_default_def();
        bd.position = js_v3(spacing * (i + 0.5) * s, top - spacing * (i + 0.5) * c, 0);
        bd.orientation = rg_quat_from_axis_angle(js_v3(0, 0, 1), (rg_real)angle);
        links[i] = rg_body_create(w, &bd, NULL);
        sd.density = 7800;
        ENSURE(rg_shape_is_valid(w, rg_body_add_capsule(w, links[i], &sd, js_v3(0, -0.03, 0), js_v3(0, 0.03, 0), 0.02f, NULL)));
        d.type = RG_JOINT_BALL;
        d.body_a = links[i];
        if (i > 0) d.body_b = links[i - 1];
        d.anchor_a = js_v3(spacing * i * s, top - spacing * i * c, 0);
        joints[i] = rg_joint_create(w, &d, NULL);
        ENSURE(rg_joint_is_valid(w, joints[i]));
    }
}

/* The largest joint gap of a chain, and its fastest link's speed. */
static double js_chain_gap(rg_world *w, const rg_body_id *links, const rg_joint_id *joints, double *fastest) {
    double gap = 0;
    int i;
    for (i = 0; i < JS_LINKS; ++i) {
        rg_vec3 v = rg_body_linear_velocity(w, links[i]);
        gap = fmax(gap, js_distance(rg_joint_anchor_a(w, joints[i]), rg_joint_anchor_b(w, joints[i])));
        *fastest = fmax(*fastest, sqrt(js_dot(v, v)));
    }
    return gap;
}

/* The chain hanging from the world at rest for 5 s: shock propagation through the joints keeps
   every gap under 1 mm (the sweeps alone let it stretch by 2 cm) and the bottom link where the
   rigid chain puts it within 1 mm. */
static void test_joint_solve_hanging_chain(void) {
    rg_world *w = js_world();
    rg_body_id links[JS_LINKS];
    rg_joint_id joints[JS_LINKS];
    double worst_gap = 0, worst_speed = 0;
    int step;
    js_chain(w, 0, 0, links, joints);
    for (step = 1; step <= 300; ++step) {
        ENSURE(rg_world_step(w, (rg_real)JS_H) == RG_OK);
        worst_gap = fmax(worst_gap, js_chain_gap(w, links, joints, &worst_speed));
    }
    rg_test_note("worst gap %.4f mm, fastest link %.4f mm/s, bottom link at y %.5f (rigid: %.5f), top reaction %.3f N of %.3f",
                 worst_gap * 1000, worst_speed * 1000, rg_body_position(w, links[19]).y, -0.1 * 19.5,
                 rg_joint_reaction_force(w, joints[0]).y, 20 * rg_body_mass(w, links[0]) * JS_G);
    ENSURE_NEAR(worst_gap, 0, JS_MM);
    ENSURE_NEAR(rg_body_position(w, links[19]).y, -0.1 * 19.5, JS_MM);
    ENSURE_NEAR(worst_speed, 0, JS_MM);
    rg_world_destroy(w);
}

/* The chain's energy: kinetic, and potential above y = 0. */
static double js_chain_energy(rg_world *w, const rg_body_id *links) {
    double e = 0;
    int i;
    for (i = 0; i < JS_LINKS; ++i) {
        rg_vec3 v = rg_body_linear_velocity(w, links[i]);
        double m = rg_body_mass(w, links[i]);
        e += m * (js_dot(v, v) / 2 + JS_G * rg_body_position(w, links[i]).y) +
             js_dot(rg_body_angular_velocity(w, links[i]), rg_body_angular_momentum(w, links[i])) / 2;
    }
    return e;
}

/* The chain released in a straight line at 0.5 rad from the vertical and left to swing for 5 s,
   its links striking each other as it folds (the shapes of links two apart collide): every gap
   under 1 mm, and the energy never more than 15% of the chain's weight times its length above
   its start (without the energy limit on the joints' shock pass, whose visits move a link
   without its parent, the chain gained up to 776 J on its 354 J, its links whipped into each
   other at 25 m/s and its gaps reached 16 cm). */
static void test_joint_solve_chain_released(void) {
    rg_world *w = js_world();
    rg_body_id links[JS_LINKS];
    rg_joint_id joints[JS_LINKS];
    double worst_gap = 0, fastest = 0, start, rise = 0, scale;
    int step;
    js_chain(w, 3, 0.5, links, joints);
    start = js_chain_energy(w, links);
    scale = JS_LINKS * rg_body_mass(w, links[0]) * JS_G * JS_LINKS * 0.1;
    for (step = 1; step <= 300; ++step) {
        ENSURE(rg_world_step(w, (rg_real)JS_H) == RG_OK);
        worst_gap = fmax(worst_gap, js_chain_gap(w, links, joints, &fastest));
        rise = fmax(rise, js_chain_energy(w, links) - start);
    }
    rg_test_note("worst gap %.4f mm; energy at most %.2f J above the start's %.2f J (%.1f%% of weight x length %.1f J); fastest link %.2f m/s",
                 worst_gap * 1000, rise, start, 100 * rise / scale, scale, fastest);
    ENSURE_NEAR(worst_gap, 0, JS_MM);
    ENSURE(rise < 0.15 * scale);
    rg_world_destroy(w);
}

/* The chain hanging at rest, struck by a 10 kg ball (radius 0.1 m) dropped from 1 m above its
   top, `offset` m beside it, sliding down along it and off: every gap under 1 cm while it
   strikes (the figure) and after, and no link faster than twice the ball's speed at
   the chain's bottom, sqrt(2 g 3.1 m) (what a light link knocked elastically by a heavy ball
   would get: no explosion). */
static void test_joint_solve_chain_struck(void) {
    static const double offsets[] = {0.02, 0.04, 0.05, 0.08, 0.12};
    double worst = 0, bound = 2 * sqrt(2 * JS_G * 3.1);
    int k;
    for (k = 0; k < (int)(sizeof offsets / sizeof offsets[0]); ++k) {
        rg_world *w = js_world();
        rg_body_id links[JS_LINKS];
        rg_joint_id joints[JS_LINKS];
        double gap = 0, fastest = 0;
        int step;
        js_chain(w, 3, 0, links, joints);
        for (step = 1; step <= 360; ++step) {
            if (step == 60) ENSURE(rg_body_is_valid(w, js_sphere(w, js_v3(offsets[k], 4, 0), 0.1, 10 / (4.0 / 3 * JS_PI * 0.001))));
            ENSURE(rg_world_step(w, (rg_real)JS_H) == RG_OK);
            gap = fmax(gap, js_chain_gap(w, links, joints, &fastest));
        }
        rg_test_note("ball %.2f m beside: worst gap %.4f mm, fastest link %.2f m/s (bound %.2f)", offsets[k], gap * 1000, fastest, bound);
        ENSURE_NEAR(gap, 0, 10 * JS_MM);
        ENSURE(fastest < bound);
        worst = fmax(worst, gap);
        rg_world_destroy(w);
    }
    rg_test_note("worst gap %.4f mm", worst * 1000);
}

/* Fixed joints: a cantilever of two 40 kg beams (1 m x 0.2 m x 0.2 m) welded end to end, the
   first welded to the world at x = 0, held horizontal for 5 s: the tip beam stays within 1 mm
   and 1e-3 rad of where it was made, and the root joint's reaction is the weight of both, 784.8 N
   up, and the torque about its anchor m g (0.5 + 1.5) m = 784.8 N m, each within 1%. */
static void test_joint_solve_welded_cantilever(void) {
    rg_world *w = js_world();
    rg_hull *beam = rg_hull_create_box(js_v3(0.5, 0.1, 0.1), NULL);
    rg_joint_def d = rg_joint_default_def();
    rg_body_id first = js_box(w, beam, RG_BODY_DYNAMIC, js_v3(0.5, 0, 0), 1000);
    rg_body_id tip = js_box(w, beam, RG_BODY_DYNAMIC, js_v3(1.5, 0, 0), 1000);
    rg_joint_id root;
    double worst_move = 0, worst_turn = 0, m = rg_body_mass(w, first), weight, moment;
    int step;
    d.type = RG_JOINT_FIXED;
    d.body_a = first;
    d.anchor_a = js_v3(0, 0, 0);
    root = rg_joint_create(w, &d, NULL);
    d.body_a = tip;
    d.body_b = first;
    d.anchor_a = js_v3(1, 0, 0);
    ENSURE(rg_joint_is_valid(w, root) && rg_joint_is_valid(w, rg_joint_create(w, &d, NULL)));
    for (step = 1; step <= 300; ++step) {
        rg_quat q;
        ENSURE(rg_world_step(w, (rg_real)JS_H) == RG_OK);
        q = rg_body_orientation(w, tip);
        worst_move = fmax(worst_move, js_distance(rg_body_position(w, tip), js_v3(1.5, 0, 0)));
        worst_turn = fmax(worst_turn, 2 * sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z));
    }
    weight = 2 * m * JS_G;
    moment = m * JS_G * (0.5 + 1.5);
    rg_test_note("tip moved %.4f mm, turned %.2e rad; root reaction %.3f N (weight %.3f), torque %.3f N m (%.3f)", worst_move * 1000,
                 worst_turn, rg_joint_reaction_force(w, root).y, weight, rg_joint_reaction_torque(w, root).z, moment);
    ENSURE_NEAR(worst_move, 0, JS_MM);
    ENSURE_NEAR(worst_turn, 0, 1e-3);
    ENSURE_REL(rg_joint_reaction_force(w, root).y, weight, 0.01);
    ENSURE_REL(rg_joint_reaction_torque(w, root).z, moment, 0.01);
    rg_world_destroy(w);
    rg_hull_destroy(beam);
}

/* Hinges: a 10 kg bar 1 m long (0.1 m square), hinged to the world at one end about z, held
   horizontal at the start under gravity -y. `mode` 0: set turning about x and y as well (3, 2,
   0 rad/s); 1: limits [-0.5, 0.5]; 2: no gravity, a motor at 2 rad/s and 100 N m; 3 and 4: a
   motor at 0 rad/s with 10 N m (less than the bar's 49 N m of weight about the hinge) and
   100 N m. Over 5 s: the largest turn rate across the axis, the anchors' largest gap, the
   angle's range and the last turn rate about the axis. */
typedef struct js_hinge_run {
    double across, gap, lowest, highest, spin;
} js_hinge_run;

static void js_hinge(int mode, js_hinge_run *out) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w;
    rg_hull *bar = rg_hull_create_box(js_v3(0.5, 0.05, 0.05), NULL);
    rg_body_id b;
    rg_joint_def d = rg_joint_default_def();
    rg_joint_id j;
    js_hinge_run run = {1e9, 1e9, 1e9, -1e9, 0};
    int step;
    *out = run;
    wd.gravity = js_v3(0, mode == 2 ? 0 : -JS_G, 0);
    w = rg_world_create(&wd, NULL);
    b = js_box(w, bar, RG_BODY_DYNAMIC, js_v3(0.5, 0, 0), 10 / (1.0 * 0.1 * 0.1));
    d.type = RG_JOINT_HINGE;
    d.body_a = b;
    d.anchor_a = js_v3(0, 0, 0);
    d.axis = js_v3(0, 0, 1);
    d.enable_limit = mode == 1;
    d.lower = (rg_real)-0.5;
    d.upper = (rg_real)0.5;
    d.enable_motor = mode >= 2;
    d.motor_speed = (rg_real)(mode == 2 ? 2 : 0);
    d.max_motor_force = (rg_real)(mode == 3 ? 10 : 100);
    j = rg_joint_create(w, &d, NULL);
    ENSURE(rg_joint_is_valid(w, j));
    run.across = run.gap = 0;
    if (mode == 0) ENSURE(rg_body_set_angular_velocity(w, b, js_v3(3, 2, 0)) == RG_OK);
    for (step = 1; step <= 300; ++step) {
        rg_vec3 omega;
        double angle;
        ENSURE(rg_world_step(w, (rg_real)JS_H) == RG_OK);
        omega = rg_body_angular_velocity(w, b);
        angle = rg_joint_position(w, j);
        run.across = fmax(run.across, sqrt((double)omega.x * omega.x + (double)omega.y * omega.y));
        run.gap = fmax(run.gap, js_distance(rg_joint_anchor_a(w, j), rg_joint_anchor_b(w, j)));
        run.lowest = fmin(run.lowest, angle);
        run.highest = fmax(run.highest, angle);
        run.spin = omega.z;
    }
    rg_test_note("mode %d: turn across the axis at most %.2e rad/s, gap %.4f mm, angle in [%.4f, %.4f], last spin %.4f rad/s", mode,
                 run.across, run.gap * 1000, run.lowest, run.highest, run.spin);
    rg_world_destroy(w);
    rg_hull_destroy(bar);
    *out = run;
}

/* Motion only about the axis: a turn across it set at the start is gone after the first step
   (below 1e-3 rad/s), the anchors stay together (1 mm), and the bar swings down (past -1.5 rad). */
static void test_joint_solve_hinge_axis(void) {
    js_hinge_run run;
    js_hinge(0, &run);
    ENSURE_NEAR(run.across, 0, 1e-3);
    ENSURE_NEAR(run.gap, 0, JS_MM);
    ENSURE(run.lowest < -1.5);
}

/* Limits [-0.5, 0.5]: never exceeded by more than 0.02 rad; the bar reaches the lower one. */
static void test_joint_solve_hinge_limits(void) {
    js_hinge_run run;
    js_hinge(1, &run);
    ENSURE(run.lowest >= -0.5 - 0.02 && run.highest <= 0.5 + 0.02);
    ENSURE(run.lowest < -0.45);
    ENSURE_NEAR(run.gap, 0, JS_MM);
}

/* The motor reaches its speed (2 rad/s within 1%); one weaker than the weight's moment slips
   (the bar swings past -1 rad), one stronger holds it (within 0.01 rad). */
static void test_joint_solve_hinge_motor(void) {
    js_hinge_run fast, weak, strong;
    js_hinge(2, &fast);
    js_hinge(3, &weak);
    js_hinge(4, &strong);
    ENSURE_REL(fast.spin, 2, 0.01);
    ENSURE(weak.lowest < -1);
    ENSURE(strong.lowest > -0.01 && strong.highest < 0.01);
}

/* A closed loop: a bridge of n planks (0.5 m x 0.05 m x 1 m, 500 kg/m^3) joined edge to edge by
   two ball joints 0.9 m apart (a hinge; on one joint each the deck would roll about its planks'
   long axes and tip the crate off) along a circular arc, its two ends held to the world,
   released at rest (not the hanging shape, so it swings for the whole run: nothing damps it),
   optionally with a 20 kg crate dropped on its middle after 1 s. Each joint's gap stays under
   1 cm while it swings (2 cm for 20 planks: the sweeps converge slowly around a long loop) and
   under 1 mm in the last second, and without the crate the energy
   (kinetic plus potential) never rises above the start's by more than 1% of the bridge's
   weight times its depth: the joints' position pass lifts what the sweeps let stretch, and
   must not pump the swing (before it, 10 planks gained metres of gaps within 2 s). */
typedef struct js_bridge_run { double worst_gap, landing_gap, rest_gap, energy_rise, energy_scale, crate_above; } js_bridge_run;

static void js_bridge(int n, int crate, js_bridge_run *out) {
    rg_world *w = js_world();
    rg_hull *plank = rg_hull_create_box(js_v3(0.25, 0.025, 0.5), NULL), *box = rg_hull_create_box(js_v3(0.2, 0.2, 0.2), NULL);
    rg_body_id planks[32], load = {0, 0};
    rg_joint_id joints[66];
    double x[33], y[33], sag = 0.6, energy0 = 0;
    int i, step;
    memset(out, 0, sizeof *out);
    x[0] = y[0] = 0;
    for (i = 0; i < n; ++i) {
        double a = -sag + 2 * sag * (i + 0.5) / n;
        x[i + 1] = x[i] + 0.5 * cos(a);
        y[i + 1] = y[i] + 0.5 * sin(a);
    }
    for (i = 0; i < n; ++i) {
        rg_body_def bd = rg_body_default_def();
        bd.hull = plank;
        bd.density = 500;
        bd.position = js_v3(0.5 * (x[i] + x[i + 1]), 0.5 * (y[i] + y[i + 1]), 0);
        bd.orientation = rg_quat_from_axis_angle(js_v3(0, 0, 1), (rg_real)atan2(y[i + 1] - y[i], x[i + 1] - x[i]));
        planks[i] = rg_body_create(w, &bd, NULL);
    }
    for (i = 0; i < 2 * (n + 1); ++i) {
        rg_body_id none = {0, 0};
        int k = i / 2;
        joints[i] = js_ball(w, planks[k < n ? k : n - 1], k > 0 && k < n ? planks[k - 1] : none, js_v3(x[k], y[k], i & 1 ? 0.45 : -0.45));
        ENSURE(rg_joint_is_valid(w, joints[i]));
    }
    for (i = 0; i < n; ++i) energy0 += rg_body_kinetic_energy(w, planks[i]) + rg_body_mass(w, planks[i]) * JS_G * rg_body_position(w, planks[i]).y;
    for (step = 1; step <= 600; ++step) {
        double gap = 0, energy = 0;
        if (crate && step == 60) load = js_box(w, box, RG_BODY_DYNAMIC, js_v3(x[n / 2], y[n / 2] + 0.6, 0), 20 / 0.064);
        ENSURE(rg_world_step(w, (rg_real)JS_H) == RG_OK);
        for (i = 0; i < 2 * (n + 1); ++i) gap = fmax(gap, js_distance(rg_joint_anchor_a(w, joints[i]), rg_joint_anchor_b(w, joints[i])));
        for (i = 0; i < n; ++i) energy += rg_body_kinetic_energy(w, planks[i]) + rg_body_mass(w, planks[i]) * JS_G * rg_body_position(w, planks[i]).y;
        if (step >= 60 && step < 120) out->landing_gap = fmax(out->landing_gap, gap);
        else out->worst_gap = fmax(out->worst_gap, gap);
        if (step > 540) out->rest_gap = fmax(out->rest_gap, gap);
        if (!crate) out->energy_rise = fmax(out->energy_rise, energy - energy0);
    }
    for (i = 0; i < n; ++i) out->energy_scale += rg_body_mass(w, planks[i]) * JS_G * -y[n / 2];
    if (crate) out->crate_above = rg_body_position(w, load).y - rg_joint_anchor_a(w, joints[n]).y;
    rg_hull_destroy(plank);
    rg_hull_destroy(box);
    rg_world_destroy(w);
}

static void test_joint_solve_closed_loop(void) {
    static const int counts[] = {2, 10, 20};
    int k;
    for (k = 0; k < 3; ++k) {
        js_bridge_run r;
        js_bridge(counts[k], 0, &r);
        rg_test_note("bridge of %d planks held at both ends: worst gap %.4f mm (last second %.4f), energy rise at most %.4f J (weight x depth %.1f J)",
                     counts[k], r.worst_gap * 1000, r.rest_gap * 1000, r.energy_rise, r.energy_scale);
        ENSURE_NEAR(r.worst_gap, 0, (counts[k] > 10 ? 20 : 10) * JS_MM);
        ENSURE_NEAR(r.rest_gap, 0, JS_MM);
        ENSURE(r.energy_rise < 0.01 * r.energy_scale);
    }
}

static void test_joint_solve_bridge_with_crate(void) {
    js_bridge_run r;
    js_bridge(10, 1, &r);
    rg_test_note("bridge of 10 planks, 20 kg crate (0.4 m) dropped 0.6 m: gap %.3f mm while it lands, %.4f mm otherwise, %.4f mm in the last second; crate's centre %.3f m above the middle joints",
                 r.landing_gap * 1000, r.worst_gap * 1000, r.rest_gap * 1000, r.crate_above);
    ENSURE_NEAR(r.landing_gap, 0, 10 * JS_MM);
    ENSURE_NEAR(r.worst_gap, 0, 10 * JS_MM);
    ENSURE_NEAR(r.rest_gap, 0, JS_MM);
    ENSURE(r.crate_above > 0.2 && r.crate_above < 0.3); /* resting on the deck at the bottom of the V */
}

/* examples/ragdoll's six ragdolls (scenes.h's: 11 parts, 67 kg, ball joints with cone limits and
   hinges with angle limits, collide_connected 0) dropped apart onto the ground from 1 to 2.5 m,
   standing, face down, on a side, head first and tilted, for 8 s: nothing faster at any time than
   twice the speed of the fall from the highest part's height, sqrt(2 g 3.3 m) (no explosion;
   the one on its side, its forearm pressed between the ground and its torso, had spun that
   forearm at 740 rad/s and come apart before the joints' warm start was limited); at the end
   settled, their kinetic energy under 1e-5 of the energy their fall released (a head, a sphere
   on a ball joint free to twist, may roll on at millimetres a second, as nothing resists
   rolling), every joint gap under 0.1 mm and every hinge within its limits to 0.01 rad; while
   they land, gaps under 3 cm (a ragdoll landing on its feet at
   4.4 m/s: 2 cm) and the hinges within 0.02 rad of their limits (the figure). */
static void test_joint_solve_ragdolls_land(void) {
    scene s;
    scene_world sw;
    rg_world_def wd = rg_world_default_def();
    double worst_gap = 0, worst_excess = 0, fastest = 0, end_gap = 0, end_excess = 0, end_speed = 0, height0 = 0, released, kinetic = 0;
    double bound = 2 * sqrt(2 * JS_G * 3.3);
    int i, k, step;
    ENSURE(scene_build(&s, "ragdolls-apart")); /* the ground and the six ragdolls */
    wd.enable_sleep = 0; /* the joints' slow closing of their gaps over 8 s is measured: asleep, a ragdoll keeps its gap */
    ENSURE(scene_create_world(&s, &wd, &sw));
    for (i = 1; i < s.count; ++i) height0 += rg_body_mass(sw.world, sw.ids[i]) * rg_body_position(sw.world, sw.ids[i]).y;
    for (step = 1; step <= 480; ++step) {
        double gap = 0, excess = 0, speed = 0;
        ENSURE(rg_world_step(sw.world, (rg_real)JS_H) == RG_OK);
        for (k = 0; k < s.joint_count; ++k) {
            rg_joint_id j = sw.joints[k];
            rg_real lower, upper;
            gap = fmax(gap, js_distance(rg_joint_anchor_a(sw.world, j), rg_joint_anchor_b(sw.world, j)));
            if (rg_joint_get_type(sw.world, j) == RG_JOINT_HINGE && rg_joint_limits(sw.world, j, &lower, &upper)) {
                double angle = rg_joint_position(sw.world, j);
                excess = fmax(excess, fmax(angle - upper, lower - angle));
            }
        }
        for (i = 1; i < s.count; ++i) {
            rg_vec3 v = rg_body_linear_velocity(sw.world, sw.ids[i]);
            speed = fmax(speed, sqrt(js_dot(v, v)));
        }
        worst_gap = fmax(worst_gap, gap);
        worst_excess = fmax(worst_excess, excess);
        fastest = fmax(fastest, speed);
        end_gap = gap;
        end_excess = excess;
        end_speed = speed;
    }
    released = height0;
    for (i = 1; i < s.count; ++i) {
        released -= rg_body_mass(sw.world, sw.ids[i]) * rg_body_position(sw.world, sw.ids[i]).y;
        kinetic += rg_body_kinetic_energy(sw.world, sw.ids[i]);
    }
    released *= JS_G;
    rg_test_note("while landing: worst gap %.3f mm, hinge limits exceeded by at most %.4f rad, fastest part %.2f m/s (bound %.2f); "
                 "at 8 s: gap %.4f mm, limits %.5f rad, fastest part %.4f m/s, kinetic energy %.3g J of %.1f J released",
                 worst_gap * 1000, worst_excess, fastest, bound, end_gap * 1000, end_excess, end_speed, kinetic, released);
    ENSURE(fastest < bound);
    ENSURE(kinetic < 1e-5 * released);
    ENSURE_NEAR(end_gap, 0, 0.1 * JS_MM);
    ENSURE(end_excess < 0.01);
    ENSURE_NEAR(worst_gap, 0, 30 * JS_MM);
    ENSURE(worst_excess < 0.02);
    scene_destroy_world(&sw);
    scene_free(&s);
}

/* joint-grid's net at 20 x 20 (400 spheres of 1 kg on 760 ball joints, the row at one edge on
   the world), its spheres kept from colliding with each other, falls from flat and swings about
   that row for 8 s. Joints without motors do no work: the energy (kinetic plus m g y) never
   rises above the start's by more than 0.5% of m g times the net's length, and every joint gap
   stays under 3 cm (the free edge whips at 15 m/s). (With the loop rows' warm start unlimited,
   the spheres spun up and the net blew up within 5 s: 10^10 J.) */
static void test_joint_solve_net_whips(void) {
    scene s;
    scene_world sw;
    rg_world_def wd = rg_world_default_def();
    double start = 0, rise = 0, worst_gap = 0, mass = 0, length;
    int i, k, step;
    ENSURE(scene_build(&s, "joint-net"));
    ENSURE(scene_create_world(&s, &wd, &sw));
    for (i = 1; i < s.count; ++i) {
        rg_shape_id shape;
        ENSURE(rg_body_shapes(sw.world, sw.ids[i], &shape, 1) == 1);
        ENSURE(rg_shape_set_filter(sw.world, shape, 1, 0xFFFFFFFFu, -1) == RG_OK);
        start += rg_body_mass(sw.world, sw.ids[i]) * JS_G * rg_body_position(sw.world, sw.ids[i]).y;
        mass += rg_body_mass(sw.world, sw.ids[i]);
    }
    length = 19 * 0.5;
    for (step = 1; step <= 480; ++step) {
        double energy = 0;
        ENSURE(rg_world_step(sw.world, (rg_real)JS_H) == RG_OK);
        for (i = 1; i < s.count; ++i)
            energy += rg_body_kinetic_energy(sw.world, sw.ids[i]) +
                      rg_body_mass(sw.world, sw.ids[i]) * JS_G * rg_body_position(sw.world, sw.ids[i]).y;
        for (k = 0; k < s.joint_count; ++k)
            worst_gap = fmax(worst_gap, js_distance(rg_joint_anchor_a(sw.world, sw.joints[k]), rg_joint_anchor_b(sw.world, sw.joints[k])));
        rise = fmax(rise, energy - start);
    }
    rg_test_note("energy rise at most %.1f J (m g L = %.0f J), worst gap %.2f mm", rise, mass * JS_G * length, worst_gap * 1000);
    ENSURE(rise < 0.005 * mass * JS_G * length);
    ENSURE_NEAR(worst_gap, 0, 30 * JS_MM);
    scene_destroy_world(&sw);
    scene_free(&s);
}

/* A 1 kg ball (radius 0.1 m, restitution e, no friction) at 2 m/s strikes face on a door on a
   hinge, a 10 kg plank 1 x 1 x 0.05 m hinged at one edge, d from the hinge; no gravity. The door
   meets the ball with its effective mass I / d^2 (I = M (L^2 + t^2 / 4) / 3 about the hinge, L = 1 m wide, t = 0.05 m thick):
   the ball leaves at v (e I / d^2 - m) / (m + I / d^2) and the door turns at
   (1 + e) m v d / (I + m d^2). Both within 0.5% for e = 1 and 0.5, struck at 0.3 and 1 m (the
   joints in the collision loop: without them an elastic ball left 22% slow). */
static void test_joint_solve_hinged_bounce(void) {
    static const double cases[4][2] = {{0.3, 1}, {1.0, 1}, {0.3, 0.5}, {1.0, 0.5}};
    rg_hull *plank = rg_hull_create_box(js_v3(0.5, 0.5, 0.025), NULL);
    int k;
    for (k = 0; k < 4; ++k) {
        double d = cases[k][0], e = cases[k][1], M = 10, m = 1, v = 2, I = M * (1.0 + 0.05 * 0.05 / 4) / 3;
        double ball_out = v * (e * I / (d * d) - m) / (m + I / (d * d)), spin = (1 + e) * m * v * d / (I + m * d * d);
        rg_world_def wd = rg_world_default_def();
        rg_body_def bd = rg_body_default_def();
        rg_shape_def sd = rg_shape_default_def();
        rg_joint_def jd = rg_joint_default_def();
        rg_world *w;
        rg_body_id door, ball;
        int step;
        wd.gravity = js_v3(0, 0, 0);
        w = rg_world_create(&wd, NULL);
        bd.hull = plank;
        bd.position = js_v3(0.5, 0, 0);
        bd.density = (rg_real)(M / 0.05);
        bd.restitution = (rg_real)e;
        bd.static_friction = bd.dynamic_friction = 0;
        door = rg_body_create(w, &bd, NULL);
        jd.type = RG_JOINT_HINGE;
        jd.body_a = door;
        jd.axis = js_v3(0, 1, 0);
        ENSURE(rg_joint_is_valid(w, rg_joint_create(w, &jd, NULL)));
        bd = rg_body_default_def();
        bd.position = js_v3(d, 0, 0.5);
        bd.linear_velocity = js_v3(0, 0, -v);
        ball = rg_body_create(w, &bd, NULL);
        sd.density = (rg_real)(m / (4.0 / 3 * JS_PI * 0.001));
        sd.restitution = (rg_real)e;
        sd.static_friction = sd.dynamic_friction = 0;
        ENSURE(rg_shape_is_valid(w, rg_body_add_sphere(w, ball, &sd, js_v3(0, 0, 0), 0.1f, NULL)));
        for (step = 0; step < 30; ++step) ENSURE(rg_world_step(w, (rg_real)JS_H) == RG_OK);
        rg_test_note("struck %.1f m from the hinge, e %.1f: ball leaves at %.5f m/s (analytic %.5f), door turns at %.5f rad/s (%.5f)",
                     d, e, rg_body_linear_velocity(w, ball).z, ball_out, fabs(rg_body_angular_velocity(w, door).y), spin);
        ENSURE_NEAR(rg_body_linear_velocity(w, ball).z, ball_out, 0.005 * v);
        ENSURE_NEAR(fabs(rg_body_angular_velocity(w, door).y), spin, 0.005 * spin);
        rg_world_destroy(w);
    }
    rg_hull_destroy(plank);
}

void rg_tests_joint_solver(void);
void rg_tests_joint_solver(void) {
    RUN_TEST(test_joint_solve_period_formula);
    RUN_TEST(test_joint_solve_ball_pendulum);
    RUN_TEST(test_joint_solve_distance_pendulum);
    RUN_TEST(test_joint_solve_hanging_reaction_world);
    RUN_TEST(test_joint_solve_hanging_reaction_static_body);
    RUN_TEST(test_joint_solve_rope);
    RUN_TEST(test_joint_solve_rod_pushes);
    RUN_TEST(test_joint_solve_pendulum_energy);
    RUN_TEST(test_joint_solve_chain_reaction);
    RUN_TEST(test_joint_solve_office_toy);
    RUN_TEST(test_joint_solve_hanging_chain);
    RUN_TEST(test_joint_solve_chain_released);
    RUN_TEST(test_joint_solve_chain_struck);
    RUN_TEST(test_joint_solve_welded_cantilever);
    RUN_TEST(test_joint_solve_hinge_axis);
    RUN_TEST(test_joint_solve_hinge_limits);
    RUN_TEST(test_joint_solve_hinge_motor);
    RUN_TEST(test_joint_solve_hinged_bounce);
    RUN_TEST(test_joint_solve_closed_loop);
    RUN_TEST(test_joint_solve_bridge_with_crate);
    RUN_TEST(test_joint_solve_ragdolls_land);
    RUN_TEST(test_joint_solve_net_whips);
}
