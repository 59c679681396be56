/* rope_bridge: ten planks joined edge to edge by hinges, hung between two static posts, and a
   crate dropped on them. Each plank is a 0.5 m x 5 cm x 1 m box of 500 kg/m^3 (12.5 kg); the
   hinges (axis z, across the bridge) sit at the middle of the planks' touching edges, the first
   and the last join the end planks to the posts' inner top edges, 4.6 m apart: the 5 m of
   planks sag. They start on a circular arc through the two posts and settle; at 1 s a 30 kg
   crate (a 0.5 m cube), held until then 1 m above the middle, falls onto them.

   Summary: each second, the largest joint gap (the distance between a hinge's anchor points on
   its two bodies, which the joint keeps together) and the lowest hinge; then the largest gap
   over the run, where the crate came to rest and how fast it still moves, and the planks'
   largest speed at the end.

   A bridge held at both ends is a closed loop of joints (post, planks, post, the world): its
   joints are met by the solver's sweeps and its drift removed by the position pass, without the
   shock pass that treats a hanging chain level by level (rigid.h's >>joint). Measured: gaps
   under 5 mm while the crate lands, under 0.5 mm once the bridge settles.

   usage: rope_bridge [--record file] [--every n] [--snapshot file.png] [--steps n] */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/example.h"

#include <math.h>

#define PLANKS 10

/* The half angle a that each of n chords of length chord subtends on a circle whose n chords
   in a row span the straight distance span (< n chord): sin(n a) / sin(a) = span / chord,
   solved by bisection on (0, pi / n). */
static double arc_half_angle(int n, double chord, double span) {
    double lo = 1e-9, hi = 3.14159265358979323846 / n;
    int i;
    for (i = 0; i < 100; ++i) {
        double mid = 0.5 * (lo + hi);
        if (sin(n * mid) / sin(mid) > span / chord) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

static double length(rg_vec3 v) { return sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z); }

int main(int argc, char **argv) {
    const double dt = 1.0 / 60, plank_length = 0.5, span = 4.6, drop_time = 1;
    const int drop_step = (int)(drop_time / dt + 0.5);
    example_options o;
    rg_world_def wd = rg_world_default_def();
    rg_world *world;
    rg_hull *post = rg_hull_create_box(rg_v3(0.15f, 1.5f, 0.6f), NULL);
    rg_hull *plank = rg_hull_create_box(rg_v3((rg_real)(plank_length / 2), 0.025f, 0.5f), NULL);
    rg_hull *crate_box = rg_hull_create_box(rg_v3(0.25f, 0.25f, 0.25f), NULL);
    rg_hull *ground = rg_hull_create_box(rg_v3(6, 0.5f, 3), NULL);
    rg_body_def bd;
    rg_body_id ids[PLANKS + 4], *planks = ids + 4, crate;
    rg_joint_id joints[PLANKS + 1];
    recorder *r;
    double a = arc_half_angle(PLANKS, plank_length, span), radius = plank_length / (2 * sin(a));
    double centre_y = radius * cos(PLANKS * a), worst = 0, worst_at = 0, second_gap = 0, lowest = 0;
    double fastest_plank = 0;
    rg_vec3 points[PLANKS + 1], v;
    int i, step, steps;
    if (!example_parse(argc, argv, &o)) return 2;
    world = rg_world_create(&wd, NULL);

    /* the posts, 3 m tall on the ground, their tops at y = 0 and their inner faces at x = -+span / 2 */
    bd = rg_body_default_def();
    bd.type = RG_BODY_STATIC;
    bd.hull = ground;
    bd.position = rg_v3(0, -3.5f, 0);
    ids[0] = rg_body_create(world, &bd, NULL);
    bd.hull = post;
    bd.position = rg_v3((rg_real)(-span / 2 - 0.15), -1.5f, 0);
    ids[1] = rg_body_create(world, &bd, NULL);
    bd.position = rg_v3((rg_real)(span / 2 + 0.15), -1.5f, 0);
    ids[2] = rg_body_create(world, &bd, NULL);

    /* the hinge points on the arc: point k at angle (2k - n) a from the bottom of the circle */
    for (i = 0; i <= PLANKS; ++i) {
        double phi = (2 * i - PLANKS) * a;
        points[i] = rg_v3((rg_real)(radius * sin(phi)), (rg_real)(centre_y - radius * cos(phi)), 0);
    }
    for (i = 0; i < PLANKS; ++i) {
        rg_vec3 d = rg_v3_sub(points[i + 1], points[i]);
        bd = rg_body_default_def();
        bd.hull = plank;
        bd.density = 500;
        bd.position = rg_v3_scale(rg_v3_add(points[i], points[i + 1]), 0.5f);
        bd.orientation = rg_quat_from_axis_angle(rg_v3(0, 0, 1), (rg_real)atan2((double)d.y, (double)d.x));
        planks[i] = rg_body_create(world, &bd, NULL);
    }
    /* hinge i joins plank i (or the right post) to plank i - 1 (or the left post) at point i */
    for (i = 0; i <= PLANKS; ++i) {
        rg_joint_def jd = rg_joint_default_def();
        jd.type = RG_JOINT_HINGE;
        jd.body_a = i < PLANKS ? planks[i] : ids[2];
        jd.body_b = i > 0 ? planks[i - 1] : ids[1];
        jd.anchor_a = points[i];
        jd.axis = rg_v3(0, 0, 1);
        joints[i] = rg_joint_create(world, &jd, NULL);
    }

    /* the crate floats (gravity scale 0) until drop_time */
    bd = rg_body_default_def();
    bd.hull = crate_box;
    bd.mass = 30;
    bd.gravity_scale = 0;
    bd.position = rg_v3(0, (rg_real)(points[PLANKS / 2].y + 1.25), 0);
    crate = ids[3] = rg_body_create(world, &bd, NULL);

    steps = o.steps > 0 ? o.steps : 300;
    r = example_record_open(&o, world, ids, PLANKS + 4, dt);
    record_frame(r, world, 0);
    printf("rope bridge: %d planks of %.1f kg on %d hinges between posts %.1f m apart, sag %.3f m at the start; "
           "a %.0f kg crate let fall at %.0f s\n",
           PLANKS, rg_body_mass(world, planks[0]), PLANKS + 1, span, -points[PLANKS / 2].y, rg_body_mass(world, crate),
           drop_time);
    printf("   t (s)   largest gap in the second (mm)   lowest hinge y at its end (m)\n");
    for (step = 1; step <= steps; ++step) {
        if (step == drop_step) rg_body_set_gravity_scale(world, crate, 1);
        rg_world_step(world, (rg_real)dt);
        if (step % o.every == 0) record_frame(r, world, step * dt);
        for (i = 0; i <= PLANKS; ++i) {
            double gap = length(rg_v3_sub(rg_joint_anchor_a(world, joints[i]), rg_joint_anchor_b(world, joints[i])));
            second_gap = fmax(second_gap, gap);
            if (!(gap <= worst)) { worst = gap; worst_at = step * dt; } /* NaN counts */
            if (i == 0 || rg_joint_anchor_a(world, joints[i]).y < lowest) lowest = rg_joint_anchor_a(world, joints[i]).y;
        }
        if (step % 60 == 0 || step == steps) {
            printf("%8.2f %32.3f %31.3f\n", step * dt, second_gap * 1000, lowest);
            second_gap = 0;
        }
    }
    example_record_close(&o, r);
    for (i = 0; i < PLANKS; ++i) fastest_plank = fmax(fastest_plank, length(rg_body_linear_velocity(world, planks[i])));
    v = rg_body_linear_velocity(world, crate);
    printf("largest joint gap: %.3f mm at %.2f s\n", worst * 1000, worst_at);
    printf("the crate's centre at the end: y = %.3f m (the posts' tops at 0, the ground's top at -3), moving at %.3f m/s\n",
           rg_body_position(world, crate).y, length(v));
    printf("the planks' largest speed at the end: %.3f m/s\n", fastest_plank);
    example_snapshot(&o, world, ids, PLANKS + 4, "rope_bridge: ten planks on hinges and a crate", NULL, NULL);
    rg_world_destroy(world);
    rg_hull_destroy(post);
    rg_hull_destroy(plank);
    rg_hull_destroy(crate_box);
    rg_hull_destroy(ground);
    return 0;
}
