/* office_toy: Bender & Schmitt's office toy (their §4), the swinging balls of Newton's cradle.
   Five steel balls of radius 5 cm hang on strings 1 m long (distance joints with a lower length
   of 0: ropes) from pivots 10 cm apart, so that they just touch; restitution 1, no friction. The
   two on the left are pulled back 0.4 rad and released. The collision loop passes their
   momentum through the row at each impact: the two on the right swing out at the speed the
   left two came in with, and back, for as long as the program runs. Summary: the speeds before
   and after the first impact, and the energy over the run.

   usage: office_toy [--record file] [--every n] [--snapshot file.png] [--steps n] */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/example.h"

#include <math.h>

#define BALLS 5

int main(int argc, char **argv) {
    const double dt = 1.0 / 60, length = 1, radius = 0.05, pulled = 0.4, g = 9.81;
    const double v_in = sqrt(2 * g * length * (1 - cos(pulled)));
    example_options o;
    rg_world_def wd = rg_world_default_def();
    rg_world *world;
    rg_body_id ids[BALLS];
    recorder *r;
    double before[BALLS], after[BALLS], energy0 = 0, energy = 0;
    int i, step, steps, impact = 0;
    if (!example_parse(argc, argv, &o)) return 2;
    wd.gravity = rg_v3(0, (rg_real)-g, 0);
    world = rg_world_create(&wd, NULL);
    for (i = 0; i < BALLS; ++i) {
        rg_body_def bd = rg_body_default_def();
        rg_shape_def sd = rg_shape_default_def();
        rg_joint_def jd = rg_joint_default_def();
        double pivot = 0.1 * (i - 2), angle = i < 2 ? -pulled : 0;
        bd.position = rg_v3((rg_real)(pivot + length * sin(angle)), (rg_real)(-length * cos(angle)), 0);
        ids[i] = rg_body_create(world, &bd, NULL);
        sd.density = 7800;
        sd.restitution = 1;
        sd.static_friction = sd.dynamic_friction = 0;
        rg_body_add_sphere(world, ids[i], &sd, rg_v3(0, 0, 0), (rg_real)radius, NULL);
        jd.type = RG_JOINT_DISTANCE;
        jd.body_a = ids[i];
        jd.anchor_a = bd.position;
        jd.anchor_b = rg_v3((rg_real)pivot, 0, 0);
        jd.lower = 0;
        rg_joint_create(world, &jd, NULL);
    }
    steps = o.steps > 0 ? o.steps : 300;
    r = example_record_open(&o, world, ids, BALLS, dt);
    record_frame(r, world, 0);
    for (i = 0; i < BALLS; ++i) before[i] = after[i] = 0;
    for (step = 1; step <= steps; ++step) {
        rg_world_step(world, (rg_real)dt);
        if (step % o.every == 0) record_frame(r, world, step * dt);
        energy = 0;
        for (i = 0; i < BALLS; ++i) {
            rg_vec3 c = rg_body_position(world, ids[i]);
            energy += rg_body_kinetic_energy(world, ids[i]) + rg_body_mass(world, ids[i]) * g * ((double)c.y + length);
        }
        if (step == 1) energy0 = energy;
        /* the first impact: the step after which the last ball moves */
        if (!impact && rg_body_linear_velocity(world, ids[BALLS - 1]).x > 0.5 * v_in) {
            impact = step;
            for (i = 0; i < BALLS; ++i) after[i] = rg_body_linear_velocity(world, ids[i]).x;
        }
        if (!impact)
            for (i = 0; i < BALLS; ++i) before[i] = rg_body_linear_velocity(world, ids[i]).x;
    }
    example_record_close(&o, r);
    printf("two balls pulled back %.1f rad reach the row at %.4f m/s (sqrt(2 g L (1 - cos a)))\n", pulled, v_in);
    if (impact) {
        printf("first impact at %.3f s\n ball   before (m/s)   after (m/s)\n", impact * dt);
        for (i = 0; i < BALLS; ++i) printf("%5d %14.4f %13.4f\n", i, before[i], after[i]);
    } else {
        printf("no impact in %d steps\n", steps);
    }
    printf("energy %.5f J at the first step, %.5f J after %.1f s (%+.2f%%; the potential is taken at the\n"
           "step's end, which swings by about h w / 2 of the swing's energy)\n",
           energy0, energy, steps * dt, 100 * (energy / energy0 - 1));
    example_snapshot(&o, world, ids, BALLS, "office_toy: five balls on strings", NULL, NULL);
    rg_world_destroy(world);
    return 0;
}
