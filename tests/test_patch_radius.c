/* The twist friction's lever (rg__impulse_patch_radius in closed form): a flat box spinning on
   the ground stops when its patch's uniform pressure says. Analytic answers; default world,
   dt = 1/60. */
#include "test.h"

#include <math.h>
#include <string.h>

#define PR_DT (1.0 / 60)
#define PR_G 9.81

/* The mean distance from the centre of a rectangle of half sides a and b: with d = |(a, b)|,
   integral |r| dA over the quarter [0, a] x [0, b] is (2 a b d + a^3 ln((b + d) / a) +
   b^3 ln((a + d) / b)) / 6 (in polar coordinates over its two triangles), over a b. */
static double pr_rectangle_radius(double a, double b) {
    double d = sqrt(a * a + b * b);
    return (2 * a * b * d + a * a * a * log((b + d) / a) + b * b * b * log((a + d) / b)) / (6 * a * b);
}

/* A box of half extents (a, h, b) lying flat on the ground, turned by `yaw` about y, spinning
   at w0 about y, friction mu: returns when it stopped (the last step's rate carried to zero), -1
   if it did not within 2000 steps or drifted more than 1% of a from where it started. */
static double pr_spin_stop_time(double a, double h, double b, double yaw, double mu, double w0) {
    rg_world_def wd = rg_world_default_def();
    rg_body_def bd = rg_body_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_hull *ground = rg_hull_create_box(rg_v3(100, 0.5f, 100), NULL);
    rg_hull *box = rg_hull_create_box(rg_v3((rg_real)a, (rg_real)h, (rg_real)b), NULL);
    rg_body_id body;
    double spin[2000], stopped = -1;
    int n = 0;
    if (!w || !ground || !box) goto done;
    bd.type = RG_BODY_STATIC;
    bd.hull = ground;
    bd.position = rg_v3(0, -0.5f, 0);
    bd.static_friction = bd.dynamic_friction = (rg_real)mu;
    if (rg_body_create(w, &bd, NULL).generation == 0) goto done;
    bd = rg_body_default_def();
    bd.hull = box;
    bd.position = rg_v3(0, (rg_real)h, 0);
    bd.orientation = rg_quat_from_axis_angle(rg_v3(0, 1, 0), (rg_real)yaw);
    bd.angular_velocity = rg_v3(0, (rg_real)w0, 0);
    bd.static_friction = bd.dynamic_friction = (rg_real)mu;
    body = rg_body_create(w, &bd, NULL);
    if (body.generation == 0) goto done;
    do {
        if (rg_world_step(w, (rg_real)PR_DT) != RG_OK) goto done;
        spin[n++] = rg_body_angular_velocity(w, body).y;
    } while (n < 2000 && spin[n - 1] > 1e-3 * w0);
    if (n >= 3 && spin[n - 1] <= 1e-3 * w0) {
        rg_vec3 p = rg_body_position(w, body);
        double rate = (spin[n - 3] - spin[n - 2]) / PR_DT;
        if (rate > 0 && sqrt((double)p.x * p.x + (double)p.z * p.z) < 0.01 * a) stopped = (n - 1) * PR_DT + spin[n - 2] / rate;
    }
done:
    rg_world_destroy(w);
    rg_hull_destroy(ground);
    rg_hull_destroy(box);
    return stopped;
}

/* Slabs from square to 10:1, turned about y or not: under uniform pressure m g / (4 a b) the
   twist is mu m g e (e the rectangle's mean radius above) and the inertia m (a^2 + b^2) / 3, so
   the spin stops at t = w0 (a^2 + b^2) / (3 mu g e). The points alone (the corners, at d) would
   stop it at t e / d: 0.50 to 0.54 of it. The lever is held to 2e-5 (four-point Gauss-Legendre
   on each side of the foot of the centre on an edge missed by 1.3e-4 on the 10:1 slab). */
static void test_patch_radius_spinning_slab_stops_as_its_rectangle(void) {
    static const double aspects[4] = {1, 2.5, 4, 10}, yaws[2] = {0, 0.7};
    double worst = 0;
    int k, y;
    for (k = 0; k < 4; ++k)
        for (y = 0; y < 2; ++y) {
            double a = 0.3, b = a * aspects[k], h = 0.1, mu = 0.4 + 0.1 * k, w0 = 3 + 2 * y;
            double e = pr_rectangle_radius(a, b), expected = w0 * (a * a + b * b) / (3 * mu * PR_G * e);
            double stopped = pr_spin_stop_time(a, h, b, yaws[y], mu, w0);
            rg_test_note("%4.1f:1 slab turned %.1f rad, mu %.1f, w0 %.0f rad/s: stops at %.5f s, analytic %.5f s (%+.4f%%; "
                         "corners alone %.5f s)", aspects[k], yaws[y], mu, w0, stopped, expected, 100 * (stopped / expected - 1),
                         expected * e / sqrt(a * a + b * b));
            ENSURE(stopped > 0);
            if (fabs(stopped / expected - 1) > fabs(worst)) worst = stopped / expected - 1;
            ENSURE_REL(stopped, expected, 2e-5);
        }
    rg_test_note("largest difference %+.4f%%", 100 * worst);
}

void rg_tests_patch_radius(void) { RUN_TEST(test_patch_radius_spinning_slab_stops_as_its_rectangle); }
