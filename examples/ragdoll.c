/* ragdoll: six ragdolls dropped apart onto the ground. Each is examples/scenes.h's ragdoll: 11
   parts and 67 kg (pelvis and torso boxes, a sphere head, capsules for the arms and legs), joined
   by ball joints with cone limits at the spine, neck, shoulders and hips and by hinges with angle
   limits at the elbows and knees (a is the child, b its parent; collide_connected 0). They fall
   from 1 to 2.5 m in different poses (standing, lying face down, on a side, head first, tilted),
   2.5 m apart, so that each lands alone, and tumble to rest.

   Summary: each second, the largest joint gap (the distance between a joint's anchor points on
   its two bodies, which the joint keeps together), the largest excess over a limit (a hinge's
   angle outside its range, a cone's angle beyond its half angle), and the fastest part; at the
   end, how many parts are slower than 1 cm/s.

   The largest gap comes as one lands on its feet (2 cm), whose spine then leans up to 0.27 rad
   past its cone for a moment as it slumps; within a second every gap is under 2 mm, and after
   5 s every part is slower than 2 cm/s (tests/test_joint_solver.c checks these poses; a head, a
   sphere on a ball joint free to twist, may roll on at millimetres a second).

   usage: ragdoll [--record file] [--every n] [--snapshot file.png] [--steps n] */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/example.h"
#include "examples/scenes.h"

#include <math.h>

#define RAGDOLLS 6

/* The angle (rad) between two vectors. */
static double angle_between(rg_vec3 a, rg_vec3 b) {
    rg_vec3 c = rg_v3_cross(a, b);
    return atan2(sqrt((double)rg_v3_dot(c, c)), (double)rg_v3_dot(a, b));
}

int main(int argc, char **argv) {
    const double dt = 1.0 / 60;
    example_options o;
    scene s;
    scene_world sw;
    rg_world_def wd = rg_world_default_def();
    rg_vec3 local_axis[10 * RAGDOLLS];
    double worst_gap = 0, worst_excess = 0;
    int i, k, step, steps, resting = 0, parts;
    recorder *r;
    if (!example_parse(argc, argv, &o)) return 2;
    /* the ground (a box whose top face is y = 0) and the ragdolls (scenes.h) */
    scene_build(&s, "ragdolls-apart");
    if (!scene_create_world(&s, &wd, &sw)) return 1;
    parts = s.count - 1;
    /* each cone's axis in body a's frame, to follow it as a turns (rg_joint_axis gives b's) */
    for (k = 0; k < s.joint_count; ++k) {
        rg_quat qa = rg_body_orientation(sw.world, sw.ids[s.joints[k].a]);
        local_axis[k] = rg_quat_rotate_inverse(qa, rg_v3((rg_real)s.joints[k].axis[0], (rg_real)s.joints[k].axis[1],
                                                          (rg_real)s.joints[k].axis[2]));
    }
    steps = o.steps > 0 ? o.steps : 300;
    r = example_record_open(&o, sw.world, sw.ids + 1, parts, dt);
    record_frame(r, sw.world, 0);
    printf("ragdoll: %d ragdolls of 11 parts and 10 joints dropped apart onto the ground\n", RAGDOLLS);
    printf("   t (s)   largest gap (mm)   largest limit excess (rad)   fastest part (m/s)\n");
    for (step = 1; step <= steps; ++step) {
        double gap = 0, excess = 0, fastest = 0;
        rg_world_step(sw.world, (rg_real)dt);
        if (step % o.every == 0) record_frame(r, sw.world, step * dt);
        for (k = 0; k < s.joint_count; ++k) {
            rg_joint_id j = sw.joints[k];
            rg_vec3 d = rg_v3_sub(rg_joint_anchor_a(sw.world, j), rg_joint_anchor_b(sw.world, j));
            rg_real lower, upper;
            gap = fmax(gap, sqrt((double)rg_v3_dot(d, d)));
            if (!rg_joint_limits(sw.world, j, &lower, &upper)) continue;
            if (rg_joint_get_type(sw.world, j) == RG_JOINT_HINGE) {
                double angle = rg_joint_position(sw.world, j);
                excess = fmax(excess, fmax(angle - upper, lower - angle));
            } else {
                rg_vec3 axis_a = rg_quat_rotate(rg_body_orientation(sw.world, sw.ids[s.joints[k].a]), local_axis[k]);
                excess = fmax(excess, angle_between(axis_a, rg_joint_axis(sw.world, j)) - upper);
            }
        }
        for (i = 1; i < s.count; ++i) {
            rg_vec3 v = rg_body_linear_velocity(sw.world, sw.ids[i]);
            fastest = fmax(fastest, sqrt((double)rg_v3_dot(v, v)));
        }
        worst_gap = fmax(worst_gap, gap);
        worst_excess = fmax(worst_excess, excess);
        if (step % 60 == 0) printf("%8.2f %18.4f %28.4f %20.3f\n", step * dt, gap * 1000, fmax(excess, 0), fastest);
    }
    example_record_close(&o, r);
    for (i = 1; i < s.count; ++i) {
        rg_vec3 v = rg_body_linear_velocity(sw.world, sw.ids[i]);
        if (sqrt((double)rg_v3_dot(v, v)) < 0.01) ++resting;
    }
    printf("over %.1f s: largest joint gap %.4f mm, largest limit excess %.4f rad; %d of %d parts at rest (< 1 cm/s)\n",
           steps * dt, worst_gap * 1000, fmax(worst_excess, 0), resting, parts);
    example_snapshot(&o, sw.world, sw.ids + 1, parts, "ragdoll: six ragdolls dropped apart", NULL, NULL);
    scene_destroy_world(&sw);
    scene_free(&s);
    return 0;
}
