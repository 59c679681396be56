/* door: a door on a motorised hinge in a static frame. The frame is one static body of three
   boxes (two jambs and a lintel around a 0.9 m x 2 m opening); the door, a 0.896 m x 1.99 m x
   4 cm box of 600 kg/m^3 (43 kg), hangs on one hinge joint to the frame about the vertical edge
   of the opening (x = 0, mid-plane of the door), with angle limits [0, 1.5] rad (0 closed) and a
   motor of at most 60 N m. The pivot is in the door's mid-plane, so as the door opens its back
   corner on the hinge side swings 2 cm into the jamb: collide_connected 0 keeps the two from
   making contacts. The motor opens the door at 1 rad/s to the upper limit, holds it there
   until 3 s, then runs at -1 rad/s and closes it against the lower limit. The same door is run
   a second time with collide_connected 1: its corner then grinds on the jamb.

   Summary: the hinge angle every half second, how far the door went past each limit (rigid.h's
   tests hold a hinge's limits to 0.02 rad), the hinge's gap, and the contacts between door and
   frame (rg_world_contacts): none with collide_connected 0.

   usage: door [--record file] [--every n] [--snapshot file.png] [--steps n] */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/example.h"

#include <math.h>

/* The last step's contacts between bodies a and b (up to 256 looked at), speculative ones (a
   gap within the world's contact_margin) included; *pushed: whether one of them applied an
   impulse. */
static int contacts_between(const rg_world *w, rg_body_id a, rg_body_id b, int *pushed) {
    static rg_contact contacts[256];
    int n = rg_world_contacts(w, contacts, 256), i, count = 0;
    *pushed = 0;
    for (i = 0; i < n && i < 256; ++i)
        if ((example_same_body(contacts[i].a, a) && example_same_body(contacts[i].b, b)) || (example_same_body(contacts[i].a, b) && example_same_body(contacts[i].b, a))) {
            ++count;
            if (contacts[i].normal_impulse > 0) *pushed = 1;
        }
    return count;
}

typedef struct door_run {
    double angle[32];        /* every half second from 0.5 s */
    int samples;
    double lowest, highest;  /* the angle's range over the run */
    double held_low, held_high; /* the angle's range while the motor presses it on the upper limit (2 to 3 s) */
    double gap;              /* the hinge's largest gap between its anchors on door and frame */
    int contact_steps, push_steps, contacts;
} door_run;

static const double dt = 1.0 / 60, lower = 0, upper = 1.5, speed = 1, torque = 60, reverse_time = 3;

/* Builds the frame and the door, steps them, and fills *run; records as o asks (o NULL: no
   recording). hulls: the jamb, the lintel and the door, which must outlive the world. Returns the
   world (ids[0] the frame, ids[1] the door) for the caller to destroy. */
static rg_world *run_door(int collide_connected, int steps, const example_options *o, rg_hull *const *hulls, rg_body_id *ids,
                          door_run *run) {
    rg_world_def wd = rg_world_default_def();
    rg_world *world = rg_world_create(&wd, NULL);
    rg_hull *jamb = hulls[0], *lintel = hulls[1], *panel = hulls[2];
    rg_body_def bd;
    rg_shape_def sd = rg_shape_default_def();
    rg_joint_def jd = rg_joint_default_def();
    rg_joint_id hinge;
    recorder *r = NULL;
    int step;
    memset(run, 0, sizeof *run);
    run->lowest = run->held_low = 1e9;
    run->highest = run->held_high = -1e9;

    bd = rg_body_default_def();
    bd.type = RG_BODY_STATIC;
    ids[0] = rg_body_create(world, &bd, NULL);
    rg_body_add_hull(world, ids[0], &sd, jamb, rg_v3(-0.05f, 1.05f, 0), rg_quat_identity(), NULL);  /* hinge side */
    rg_body_add_hull(world, ids[0], &sd, jamb, rg_v3(0.95f, 1.05f, 0), rg_quat_identity(), NULL);   /* latch side */
    rg_body_add_hull(world, ids[0], &sd, lintel, rg_v3(0.45f, 2.05f, 0), rg_quat_identity(), NULL);

    /* 2 mm clear of each jamb, 5 mm of the lintel */
    bd = rg_body_default_def();
    bd.hull = panel;
    bd.density = 600;
    bd.position = rg_v3(0.45f, 1.0f, 0);
    ids[1] = rg_body_create(world, &bd, NULL);

    jd.type = RG_JOINT_HINGE;
    jd.body_a = ids[1];
    jd.body_b = ids[0];
    jd.anchor_a = rg_v3(0, 1.0f, 0);
    jd.axis = rg_v3(0, 1, 0); /* a positive angle turns the door's free edge from +x towards -z */
    jd.enable_limit = 1;
    jd.lower = (rg_real)lower;
    jd.upper = (rg_real)upper;
    jd.enable_motor = 1;
    jd.motor_speed = (rg_real)speed;
    jd.max_motor_force = (rg_real)torque;
    jd.collide_connected = collide_connected;
    hinge = rg_joint_create(world, &jd, NULL);

    if (o) {
        r = example_record_open(o, world, ids, 2, dt);
        record_frame(r, world, 0);
    }
    for (step = 1; step <= steps; ++step) {
        double t = step * dt, angle;
        rg_vec3 d;
        int n, pushed;
        if (step == (int)(reverse_time / dt + 0.5)) rg_joint_set_motor(world, hinge, 1, (rg_real)-speed, (rg_real)torque);
        rg_world_step(world, (rg_real)dt);
        if (o && step % o->every == 0) record_frame(r, world, t);
        angle = rg_joint_position(world, hinge);
        d = rg_v3_sub(rg_joint_anchor_a(world, hinge), rg_joint_anchor_b(world, hinge));
        run->gap = fmax(run->gap, sqrt((double)d.x * d.x + (double)d.y * d.y + (double)d.z * d.z));
        run->lowest = fmin(run->lowest, angle);
        run->highest = fmax(run->highest, angle);
        if (t >= 2 && t < reverse_time) {
            run->held_low = fmin(run->held_low, angle);
            run->held_high = fmax(run->held_high, angle);
        }
        if (step % 30 == 0 && run->samples < 32) run->angle[run->samples++] = angle;
        n = contacts_between(world, ids[0], ids[1], &pushed);
        run->contacts += n;
        if (n) run->contact_steps++;
        if (pushed) run->push_steps++;
    }
    if (o) example_record_close(o, r);
    return world;
}

int main(int argc, char **argv) {
    example_options o;
    rg_body_id ids[2];
    rg_world *world;
    door_run run, banging;
    rg_hull *hulls[3];
    int i, steps;
    if (!example_parse(argc, argv, &o)) return 2;
    steps = o.steps > 0 ? o.steps : 360;
    hulls[0] = rg_hull_create_box(rg_v3(0.05f, 1.05f, 0.075f), NULL);   /* a jamb */
    hulls[1] = rg_hull_create_box(rg_v3(0.55f, 0.05f, 0.075f), NULL);   /* the lintel */
    hulls[2] = rg_hull_create_box(rg_v3(0.448f, 0.995f, 0.02f), NULL);  /* the door */

    /* the door that touches its frame first, without recording */
    world = run_door(1, steps, NULL, hulls, ids, &banging);
    rg_world_destroy(world);
    world = run_door(0, steps, &o, hulls, ids, &run);

    printf("door: %.1f kg on a hinge to a static frame, limits [%.1f, %.1f] rad, motor %.0f rad/s up to %.0f N m, "
           "reversed at %.0f s\n",
           rg_body_mass(world, ids[1]), lower, upper, speed, torque, reverse_time);
    printf("   t (s)  angle (rad)\n");
    for (i = 0; i < run.samples; ++i) printf("%8.1f %12.4f\n", (i + 1) * 0.5, run.angle[i]);
    printf("angle range over %.1f s: [%.6f, %.6f] rad: %.6f rad past the lower limit, %.6f past the upper\n", steps * dt,
           run.lowest, run.highest, fmax(0, lower - run.lowest), fmax(0, run.highest - upper));
    if (run.held_low <= run.held_high)
        printf("pressed on the upper limit by the motor (2 to 3 s): angle in [%.4f, %.4f]\n", run.held_low, run.held_high);
    printf("hinge gap at most %.4f mm\n", run.gap * 1000);
    printf("collide_connected 0: %d contacts between door and frame in %d steps (speculative ones included)\n", run.contacts,
           steps);
    printf("collide_connected 1, the same door: contacts with the frame in %d of the steps, pushing in %d; its corner\n"
           "  grinds on the jamb: hinge gap up to %.3f mm, widest angle %.4f rad\n",
           banging.contact_steps, banging.push_steps, banging.gap * 1000, banging.highest);
    example_snapshot(&o, world, ids, 2, "door: a motorised hinge with limits", NULL, NULL);
    rg_world_destroy(world);
    for (i = 0; i < 3; ++i) rg_hull_destroy(hulls[i]);
    return 0;
}
