/* cradle: Newton's cradle of cubes, in free space (no gravity, no friction): a row of five
   cubes exactly touching, struck end-on by a sixth at 2 m/s with restitution 1. A perfectly
   elastic chain passes the striker's momentum and energy down the row: the striker and the row
   stop and the last cube leaves at 2 m/s (Guendelman et al. 2003 and Bender & Schmitt 2006
   discuss this propagation; Ermolin & Kazakov's simultaneous resolution keeps it symmetric).

   usage: cradle [--record file] [--every n] [--snapshot file.png] [--steps n] */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/example.h"

#define CUBES 6

int main(int argc, char **argv) {
    const double v0 = 2, dt = 1.0 / 60;
    example_options o;
    rg_world_def wd = rg_world_default_def();
    rg_world *world;
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_id ids[CUBES];
    recorder *r;
    double momentum0 = 0, energy0 = 0, momentum1 = 0, energy1 = 0;
    int i, step, steps;
    if (!example_parse(argc, argv, &o)) return 2;
    wd.gravity = rg_v3(0, 0, 0);
    world = rg_world_create(&wd, NULL);
    for (i = 0; i < CUBES; ++i) {
        rg_body_def bd = rg_body_default_def();
        bd.hull = cube;
        bd.mass = 1;
        bd.restitution = 1;
        bd.static_friction = bd.dynamic_friction = 0;
        /* cube 0 is the striker, 2 m before the row; cubes 1..5 touch at x = 0..4 */
        bd.position = rg_v3(i == 0 ? -3.0f : (rg_real)(i - 1), 0, 0);
        if (i == 0) bd.linear_velocity = rg_v3((rg_real)v0, 0, 0);
        ids[i] = rg_body_create(world, &bd, NULL);
    }
    for (i = 0; i < CUBES; ++i) {
        momentum0 += rg_body_mass(world, ids[i]) * rg_body_linear_velocity(world, ids[i]).x;
        energy0 += rg_body_kinetic_energy(world, ids[i]);
    }
    steps = o.steps > 0 ? o.steps : 180;
    r = example_record_open(&o, world, ids, CUBES, dt);
    record_frame(r, world, 0);
    for (step = 1; step <= steps; ++step) {
        rg_world_step(world, (rg_real)dt);
        if (step % o.every == 0) record_frame(r, world, step * dt);
    }
    example_record_close(&o, r);
    printf("after %.1f s (expected: every cube at rest but the last, which leaves at %.1f m/s)\n", steps * dt, v0);
    printf(" cube   velocity x (m/s)   expected\n");
    for (i = 0; i < CUBES; ++i) {
        rg_vec3 v = rg_body_linear_velocity(world, ids[i]);
        momentum1 += rg_body_mass(world, ids[i]) * v.x;
        energy1 += rg_body_kinetic_energy(world, ids[i]);
        printf("%5d %14.4f %12.1f%s\n", i, v.x, i == CUBES - 1 ? v0 : 0.0, i == 0 ? "   (the striker)" : "");
    }
    printf("momentum %.4f -> %.4f kg m/s, kinetic energy %.4f -> %.4f J\n", momentum0, momentum1, energy0, energy1);
    example_snapshot(&o, world, ids, CUBES, "cradle: a row of cubes struck end-on", NULL, NULL);
    rg_world_destroy(world);
    rg_hull_destroy(cube);
    return 0;
}
