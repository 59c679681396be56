/* chain: a chain of 20 steel links hanging on ball joints from a point of the world, swung, and
   a 10 kg ball dropped onto it. Each link is a capsule 0.1 m from joint to joint (radius 2 cm,
   0.85 kg); the top joint holds the first link to the world at (0, 3, 0), the others join each
   link to the one above at their touching ends (collide_connected 0: neighbours make no
   contacts). The chain hangs at rest for 1 s; then it is swung: each link is given the velocity
   of the straight chain turning at 1 rad/s about the pivot (2 m/s at the bottom). At 2.5 s the
   ball (radius 0.1 m), held until then 1 m above the pivot and 8 cm to the side, is let fall:
   it lands on the top link, whose upper end stays at the pivot whatever the swing, knocks the
   chain aside and falls on to the floor. Summary: the largest joint gap (the distance between
   the two bodies' anchor points, which a joint keeps together) at rest, while swinging, while
   the ball touches the chain and after it; the fastest link.

   The links whip into each other after the ball (the fastest at about 7 m/s); the gaps stay
   under 0.05 mm throughout.

   usage: chain [--record file] [--every n] [--snapshot file.png] [--steps n] */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/example.h"

#include <math.h>

#define LINKS 20

/* Whether the ball touched a link in the last step (the world's contacts, up to 256 of them). */
static int ball_on_chain(const rg_world *w, rg_body_id ball, const rg_body_id *links) {
    static rg_contact contacts[256];
    int n = rg_world_contacts(w, contacts, 256), i, k;
    for (i = 0; i < n && i < 256; ++i)
        for (k = 0; k < LINKS; ++k)
            if ((example_same_body(contacts[i].a, ball) && example_same_body(contacts[i].b, links[k])) ||
                (example_same_body(contacts[i].b, ball) && example_same_body(contacts[i].a, links[k])))
                return 1;
    return 0;
}

static double distance(rg_vec3 a, rg_vec3 b) {
    double dx = (double)a.x - b.x, dy = (double)a.y - b.y, dz = (double)a.z - b.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

int main(int argc, char **argv) {
    const double dt = 1.0 / 60, pitch = 0.1, top = 3, swing_time = 1, swing_rate = 1, drop_time = 2.5;
    const int swing_step = (int)(swing_time / dt + 0.5), drop_step = (int)(drop_time / dt + 0.5);
    example_options o;
    rg_world_def wd = rg_world_default_def();
    rg_world *world;
    rg_hull *floor_box = rg_hull_create_box(rg_v3(2, 0.5f, 2), NULL);
    rg_body_def bd;
    rg_shape_def sd;
    rg_body_id ids[LINKS + 2], *links = ids + 2, ball;
    rg_joint_id joints[LINKS];
    recorder *r;
    /* the largest joint gap in each phase: at rest, swinging (until the falling ball first
       touches the chain), the ball on the chain, after it */
    double gap[4] = {0, 0, 0, 0}, fastest = 0, fastest_at = 0, landing = 0;
    int i, step, steps, first_touch = 0, last_touch = 0;
    if (!example_parse(argc, argv, &o)) return 2;
    world = rg_world_create(&wd, NULL);

    bd = rg_body_default_def();
    bd.type = RG_BODY_STATIC;
    bd.hull = floor_box;
    bd.position = rg_v3(0, -0.5f, 0);
    ids[0] = rg_body_create(world, &bd, NULL);

    for (i = 0; i < LINKS; ++i) {
        rg_joint_def jd = rg_joint_default_def();
        bd = rg_body_default_def();
        sd = rg_shape_default_def();
        bd.position = rg_v3(0, (rg_real)(top - pitch * (i + 0.5)), 0);
        links[i] = rg_body_create(world, &bd, NULL);
        sd.density = 7800;
        /* the capsule's ends reach its joints: a 0.06 m segment and 0.02 m of radius each side */
        rg_body_add_capsule(world, links[i], &sd, rg_v3(0, -0.03f, 0), rg_v3(0, 0.03f, 0), 0.02f, NULL);
        jd.type = RG_JOINT_BALL;
        jd.body_a = links[i];
        if (i > 0) jd.body_b = links[i - 1]; /* the first link's body_b stays null: the world */
        jd.anchor_a = rg_v3(0, (rg_real)(top - pitch * i), 0);
        joints[i] = rg_joint_create(world, &jd, NULL);
    }

    /* the ball floats (gravity scale 0) until drop_time */
    bd = rg_body_default_def();
    sd = rg_shape_default_def();
    bd.position = rg_v3(0.08f, (rg_real)(top + 1), 0);
    bd.mass = 10;
    bd.gravity_scale = 0;
    ball = ids[1] = rg_body_create(world, &bd, NULL);
    rg_body_add_sphere(world, ball, &sd, rg_v3(0, 0, 0), 0.1f, NULL);

    steps = o.steps > 0 ? o.steps : 300;
    r = example_record_open(&o, world, ids, LINKS + 2, dt);
    record_frame(r, world, 0);
    for (step = 1; step <= steps; ++step) {
        int touch, phase;
        if (step == swing_step)
            for (i = 0; i < LINKS; ++i) {
                /* v = w x (p - pivot) with w = swing_rate about z */
                rg_vec3 p = rg_body_position(world, links[i]);
                rg_body_set_linear_velocity(world, links[i], rg_v3((rg_real)(-swing_rate * (p.y - top)), (rg_real)(swing_rate * p.x), 0));
                rg_body_set_angular_velocity(world, links[i], rg_v3(0, 0, (rg_real)swing_rate));
            }
        if (step == drop_step) rg_body_set_gravity_scale(world, ball, 1);
        rg_world_step(world, (rg_real)dt);
        if (step % o.every == 0) record_frame(r, world, step * dt);
        touch = step >= drop_step && ball_on_chain(world, ball, links);
        if (touch) {
            if (!first_touch) {
                first_touch = step;
                landing = rg_body_linear_velocity(world, ball).y; /* after the step: the impact began in it */
            }
            last_touch = step;
        }
        phase = touch ? 2 : first_touch ? 3 : step >= swing_step ? 1 : 0;
        for (i = 0; i < LINKS; ++i) {
            rg_vec3 v = rg_body_linear_velocity(world, links[i]);
            double speed = sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
            gap[phase] = fmax(gap[phase], distance(rg_joint_anchor_a(world, joints[i]), rg_joint_anchor_b(world, joints[i])));
            if (!(speed <= fastest)) { fastest = speed; fastest_at = step * dt; } /* NaN counts */
        }
    }
    example_record_close(&o, r);
    printf("chain: %d links of %.3f kg (%.1f m) on ball joints from the world at y = %.0f m, swung at %.0f s, "
           "a %.0f kg ball let fall at %.1f s\n",
           LINKS, rg_body_mass(world, links[0]), LINKS * pitch, top, swing_time, rg_body_mass(world, ball), drop_time);
    printf("largest joint gap at rest (0 to %.0f s):  %12.4f mm\n", swing_time, gap[0] * 1000);
    printf("largest joint gap while swinging:       %12.4f mm\n", gap[1] * 1000);
    if (first_touch) {
        printf("largest joint gap with the ball on it:  %12.4f mm (touching at %.2f s first, %.2f s last; the ball's\n"
               "  vertical speed %.2f m/s after its first step of contact)\n",
               gap[2] * 1000, first_touch * dt, last_touch * dt, landing);
        printf("largest joint gap after the ball left:  %12.4f mm\n", gap[3] * 1000);
    } else {
        printf("the ball did not touch the chain in %.2f s\n", steps * dt);
    }
    printf("fastest link: %.3f m/s at %.2f s (swung: 2 m/s at the bottom)\n", fastest, fastest_at);
    example_snapshot(&o, world, ids, LINKS + 2, "chain: 20 links on ball joints and a 10 kg ball", NULL, NULL);
    rg_world_destroy(world);
    rg_hull_destroy(floor_box);
    return 0;
}
