/* incline: cubes sliding down three inclines with Coulomb friction, against the
   analytic stopping distance. A cube sent down a plane tilted by theta at speed v0 decelerates
   at a = g (mu cos(theta) - sin(theta)) while it slides (dynamic friction mu > tan(theta)), so it
   stops after d = v0^2 / (2 a) (Guendelman, Bridson & Fedkiw 2003 use the same inclined-plane
   test for their friction). Three planes side by side, tilted 10, 20 and 25 degrees, mu = 0.5
   (static and dynamic), v0 = 2 m/s, 9 s.

   usage: incline [--record file] [--every n] [--snapshot file.png] [--steps n] */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/example.h"

#define INCLINES 3

int main(int argc, char **argv) {
    static const double degrees[INCLINES] = {10, 20, 25};
    const double pi = 3.14159265358979323846, g = 9.81, mu = 0.5, v0 = 2, dt = 1.0 / 60;
    example_options o;
    rg_world_def wd = rg_world_default_def();
    rg_world *world;
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_hull *plane = rg_hull_create_box(rg_v3(12, 0.5f, 2), NULL);
    rg_body_id ids[2 * INCLINES], cubes[INCLINES];
    rg_vec3 start[INCLINES], down[INCLINES];
    double stopped_at[INCLINES];
    recorder *r;
    int i, step, steps;
    if (!example_parse(argc, argv, &o)) return 2;
    world = rg_world_create(&wd, NULL);
    for (i = 0; i < INCLINES; ++i) {
        double theta = degrees[i] * pi / 180;
        /* turning about z by -theta takes the plane's +x to (cos, -sin, 0): downhill along +x */
        rg_quat tilt = rg_quat_from_axis_angle(rg_v3(0, 0, 1), (rg_real)-theta);
        rg_vec3 centre = rg_v3(0, 8, (rg_real)(6.0 * (i - 1)));
        rg_body_def bd = rg_body_default_def();
        bd.type = RG_BODY_STATIC;
        bd.hull = plane;
        bd.position = centre;
        bd.orientation = tilt;
        bd.static_friction = bd.dynamic_friction = (rg_real)mu;
        ids[2 * i] = rg_body_create(world, &bd, NULL);

        /* the cube sits on the plane's top face, 10 m up the slope, moving downhill */
        down[i] = rg_quat_rotate(tilt, rg_v3(1, 0, 0));
        start[i] = rg_v3_add(centre, rg_quat_rotate(tilt, rg_v3(-10, 1, 0)));
        bd = rg_body_default_def();
        bd.hull = cube;
        bd.mass = 1;
        bd.position = start[i];
        bd.orientation = tilt;
        bd.linear_velocity = rg_v3_scale(down[i], (rg_real)v0);
        bd.static_friction = bd.dynamic_friction = (rg_real)mu;
        cubes[i] = ids[2 * i + 1] = rg_body_create(world, &bd, NULL);
        stopped_at[i] = -1;
    }
    steps = o.steps > 0 ? o.steps : 540;
    r = example_record_open(&o, world, ids, 2 * INCLINES, dt);
    record_frame(r, world, 0);
    for (step = 1; step <= steps; ++step) {
        rg_world_step(world, (rg_real)dt);
        if (step % o.every == 0) record_frame(r, world, step * dt);
        for (i = 0; i < INCLINES; ++i)
            if (stopped_at[i] < 0 && rg_v3_length(rg_body_linear_velocity(world, cubes[i])) < 1e-3) /* 1 mm/s */
                stopped_at[i] = step * dt;
    }
    example_record_close(&o, r);

    printf("a cube sent down at %.1f m/s, mu = %.2f; stopping distance d = v0^2 / (2 g (mu cos - sin))\n", v0, mu);
    printf("   angle   analytic d   simulated d   error    analytic t   stopped at\n");
    for (i = 0; i < INCLINES; ++i) {
        double theta = degrees[i] * pi / 180, a = g * (mu * cos(theta) - sin(theta));
        double d = v0 * v0 / (2 * a);
        double travelled = rg_v3_dot(rg_v3_sub(rg_body_position(world, cubes[i]), start[i]), down[i]);
        char when[32];
        if (stopped_at[i] >= 0) snprintf(when, sizeof when, "%.2f s", stopped_at[i]);
        else snprintf(when, sizeof when, "moving at %.4f m/s", rg_v3_length(rg_body_linear_velocity(world, cubes[i])));
        printf("%5.0f deg%9.3f m  %10.3f m  %+6.1f%%  %9.2f s   %s\n", degrees[i], d, travelled,
               100 * (travelled - d) / d, v0 / a, when);
    }
    example_snapshot(&o, world, ids, 2 * INCLINES, "incline: cubes sliding to a stop", NULL, NULL);
    rg_world_destroy(world);
    rg_hull_destroy(cube);
    rg_hull_destroy(plane);
    return 0;
}
