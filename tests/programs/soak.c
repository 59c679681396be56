/* Soak: a long run of a mixed scene, the way a game runs one. `make soak` runs 1 000 000 steps;
   CI runs 20 000. Usage: soak [steps]

   The scene, on the ground slab of examples/scenes.h (top face y = 0, 100 m wide), all bodies
   of 1 kg:
     - a stack of 10 cubes and a pyramid of 21 cubes (base 6), rebuilt from scratch (destroyed
       and created again) every `rebuild` steps (a quarter of the run, at most 100 000);
     - rain: a cube, a plank or a convex hull of 24 random points (rg_hull_create) dropped
       every 15 steps from 8 to 12 m over one corner, turned and spinning; at most 40 live,
       the oldest removed;
     - a cube fired into the pyramid at 15 m/s every 3000 steps;
     - like a game, every body that falls below y = -20 is removed (rain, projectiles) or put
       back where it started (stack, pyramid); only bodies knocked off the slab fall, the
       count is printed.
   Checked every 100 steps:
     - every body's state is finite;
     - energy is bounded: no body faster than 100 m/s or spinning faster than 200 rad/s (a
       drop from 12 m to -20 m reaches 25 m/s), total kinetic energy below 2500 J per body;
     - the body count is what the script created minus what it destroyed.
   Checked after every step:
     - memory is flat after the warm-up (a fifth of the run, at most 100 000 steps), counted
       through the allocator hooks: the number of live blocks never exceeds the warm-up's peak
       by more than 10% (every allocation is reused or freed); the live bytes at most double
       (the growable arrays keep the capacity of their largest use, and a rare new high, e.g.
       the most manifolds at once, doubles one: 455 KB to 538 KB at step 422 500 of the
       1 000 000-step run) and stop growing: the peak of the last half of the run after the
       warm-up is within 10% of the first half's, unless the last half also set a new high of
       the work the arrays hold (the most pairs or contacts at once): a leak grows at the same
       work, a growable array only at a new high of it (the 20 000-step run of CI, 2026-11-26:
       595 524 bytes at most in the first half and 662 630 in the last, whose most pairs and
       contacts at once, 154 and 410, were new highs over the first half's 148 and 408);
     - energy is not created. A body's mechanical energy E = kinetic + m |g| y can only grow by
       a push from another dynamic body (the ground is static; friction, restitution 0 and
       integration only take energy away; the symplectic Euler free fall loses m g^2 dt^2 / 2
       a step), or by the solver's first-order pass lifting it out of a penetration (by at
       most the depth it starts the step with). So after each step, a body with no contact
       with another dynamic body may have gained at most its allowance, ENERGY_SLACK plus
       m |g| times its deepest contact's depth; the bodies with such contacts are pooled and
       their sum may have gained at most the sum of their allowances. Landings at 15 m/s
       (25 cm a step) leave bodies centimetres deep (a cube 7 cm, lifted 2.9 cm the next
       step), and the rain is dropped without looking, so a new body can start inside the one
       dropped before it (contacts up to a metre deep; the deepest is printed). The largest
       excess over the allowance is printed at the end. (This check found that
       dynamic friction at a corner could flip direction between visits of the collision loop
       and add energy, 70 steps of 1 000 000 gaining up to 16 J; fixed, see
       test_collision_friction_creates_no_energy in tests/test_solver.c. It then found the
       warm start re-applying the impulses with which the contact sweeps had absorbed an impact
       to bodies no longer pressing together: step 267 860, a 57-body pile +4.3 J; fixed, see
       test_warm_start_after_impact_creates_no_energy.)
   At the end, after the world and hulls are destroyed, nothing may be left allocated. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <time.h>
#include "counting_allocator.h"
#include "tools/random.h"
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#define ENERGY_SLACK 0.05   /* J per body and step: m g h for a lift of 5 mm at 1 kg */

enum { BODY_SLOTS = 4096, CONTACT_CAPACITY = 4096 };
enum { STACK = 10, PYRAMID_BASE = 6, PYRAMID = PYRAMID_BASE * (PYRAMID_BASE + 1) / 2, RAIN_MAX = 40 };

typedef struct soak {
    rg_world *w;
    rg_hull *ground, *cube, *plank, *cloud;
    rg_body_id stack[STACK], pyramid[PYRAMID], rain[RAIN_MAX];
    rg_vec3 stack_home[STACK], pyramid_home[PYRAMID];
    int rain_count;                 /* rain[] is oldest first */
    int expected_bodies;
    long long created, destroyed, respawned;
    rg_body_id ground_body;
    double energy[BODY_SLOTS];      /* E at the last step, by body slot (id.index) */
    double kinetic[BODY_SLOTS];     /* its kinetic part */
    unsigned char pooled[BODY_SLOTS];
    double depth[BODY_SLOTS];       /* deepest contact of the step, by body slot */
    rg_contact contacts[CONTACT_CAPACITY];
    unsigned long long random_state;
} soak;

static double soak_random(soak *s) {
    return random_lcg(&s->random_state);
}

/* kinetic plus potential energy (gravity along -y, zero at y = 0) */
static double mechanical_energy(const soak *s, rg_body_id id) {
    return (double)rg_body_kinetic_energy(s->w, id) -
           (double)rg_body_mass(s->w, id) * (double)rg_world_gravity(s->w).y * (double)rg_body_center_of_mass(s->w, id).y;
}

static rg_body_id soak_create(soak *s, const rg_hull *hull, rg_vec3 position, rg_quat orientation, rg_vec3 v, rg_vec3 omega) {
    rg_body_def bd = rg_body_default_def();
    rg_body_id id;
    rg_result r;
    bd.hull = hull;
    bd.position = position;
    bd.orientation = orientation;
    bd.linear_velocity = v;
    bd.angular_velocity = omega;
    bd.mass = 1;
    bd.static_friction = bd.dynamic_friction = 0.5f;
    id = rg_body_create(s->w, &bd, &r);
    if (r != RG_OK) {
        printf("FAIL body creation: %s\n", rg_result_string(r));
        exit(1);
    }
    if (id.index >= BODY_SLOTS) {
        printf("FAIL body slot %u beyond the soak's table\n", id.index);
        exit(1);
    }
    ++s->created;
    ++s->expected_bodies;
    s->energy[id.index] = mechanical_energy(s, id);
    s->kinetic[id.index] = (double)rg_body_kinetic_energy(s->w, id);
    return id;
}

static void soak_destroy(soak *s, rg_body_id id) {
    if (rg_body_destroy(s->w, id) != RG_OK) {
        printf("FAIL body destruction\n");
        exit(1);
    }
    ++s->destroyed;
    --s->expected_bodies;
}

static void build_structures(soak *s, int first_time) {
    int i, row, j, k = 0;
    rg_vec3 zero = rg_v3(0, 0, 0);
    for (i = 0; i < STACK; ++i) {
        if (!first_time) soak_destroy(s, s->stack[i]);
        s->stack_home[i] = rg_v3(-8, 0.5f + (rg_real)i, 0);
        s->stack[i] = soak_create(s, s->cube, s->stack_home[i], rg_quat_identity(), zero, zero);
    }
    for (row = 0; row < PYRAMID_BASE; ++row)
        for (j = 0; j < PYRAMID_BASE - row; ++j, ++k) {
            if (!first_time) soak_destroy(s, s->pyramid[k]);
            s->pyramid_home[k] = rg_v3((rg_real)j - (rg_real)(PYRAMID_BASE - row - 1) / 2, 0.5f + (rg_real)row, -8);
            s->pyramid[k] = soak_create(s, s->cube, s->pyramid_home[k], rg_quat_identity(), zero, zero);
        }
}

static void add_rain(soak *s, rg_body_id id) {
    if (s->rain_count == RAIN_MAX) {
        soak_destroy(s, s->rain[0]);
        memmove(s->rain, s->rain + 1, sizeof(rg_body_id) * (RAIN_MAX - 1));
        --s->rain_count;
    }
    s->rain[s->rain_count++] = id;
}

static void drop_rain(soak *s) {
    double x = 4 + 8 * soak_random(s), z = -4 + 8 * soak_random(s), y = 8 + 4 * soak_random(s);
    double ax = soak_random(s) - 0.5, ay = soak_random(s) - 0.5, az = soak_random(s) - 0.5;
    double angle = 3 * soak_random(s), spin = 2 * soak_random(s) - 1;
    int kind = (int)(3 * soak_random(s));
    const rg_hull *hull = kind == 0 ? s->cube : kind == 1 ? s->plank : (s->cloud ? s->cloud : s->cube);
    add_rain(s, soak_create(s, hull, rg_v3((rg_real)x, (rg_real)y, (rg_real)z),
                            rg_quat_from_axis_angle(rg_v3((rg_real)ax, (rg_real)ay, (rg_real)az), (rg_real)angle),
                            rg_v3(0, -1, 0), rg_v3((rg_real)spin, 0, (rg_real)-spin)));
}

static void fire_projectile(soak *s) {
    add_rain(s, soak_create(s, s->cube, rg_v3(-20, 2.5f, -8), rg_quat_identity(), rg_v3(15, 1, 0), rg_v3(0, 0, 0)));
}

/* bodies below y = -20: rain leaves, structures go home */
static void respawn_fallen(soak *s) {
    rg_vec3 zero = rg_v3(0, 0, 0);
    int i;
    for (i = 0; i < STACK; ++i)
        if (rg_body_position(s->w, s->stack[i]).y < -20) {
            soak_destroy(s, s->stack[i]);
            s->stack[i] = soak_create(s, s->cube, s->stack_home[i], rg_quat_identity(), zero, zero);
            ++s->respawned;
        }
    for (i = 0; i < PYRAMID; ++i)
        if (rg_body_position(s->w, s->pyramid[i]).y < -20) {
            soak_destroy(s, s->pyramid[i]);
            s->pyramid[i] = soak_create(s, s->cube, s->pyramid_home[i], rg_quat_identity(), zero, zero);
            ++s->respawned;
        }
    for (i = 0; i < s->rain_count;)
        if (rg_body_position(s->w, s->rain[i]).y < -20) {
            soak_destroy(s, s->rain[i]);
            memmove(s->rain + i, s->rain + i + 1, sizeof(rg_body_id) * (size_t)(s->rain_count - i - 1));
            --s->rain_count;
        } else {
            ++i;
        }
}

typedef struct body_check { int finite; double max_speed, max_spin, kinetic; } body_check;

static void check_body(const soak *s, rg_body_id id, body_check *c) {
    rg_vec3 v = rg_body_linear_velocity(s->w, id), omega = rg_body_angular_velocity(s->w, id);
    double speed = rg_v3_length(v), spin = rg_v3_length(omega);
    if (!rg_v3_is_finite(rg_body_position(s->w, id)) || !rg_quat_is_finite(rg_body_orientation(s->w, id)) ||
        !rg_v3_is_finite(v) || !rg_v3_is_finite(omega))
        c->finite = 0;
    if (speed > c->max_speed) c->max_speed = speed;
    if (spin > c->max_spin) c->max_spin = spin;
    c->kinetic += rg_body_kinetic_energy(s->w, id);
}

/* the energy check after a step: the largest gain of a body on its own and of the pool */
/* The energy check after a step. A body's allowance is ENERGY_SLACK plus m |g| times its deepest
   contact's depth at the step's start (rg_world_contacts: the first-order pass may lift it out
   of that much); excess is gain minus allowance, of the worst body alone and of the pool. */
typedef struct energy_check {
    double alone_gain, alone_allowed, alone_excess;   /* of the body alone with the largest excess */
    double pool_gain, pool_allowed, pool_kinetic_gain; /* the kinetic part tells a push from a lift */
    int pooled;
    double deepest;                                   /* the deepest contact of the step */
} energy_check;

static void energy_of_body(soak *s, rg_body_id id, energy_check *e) {
    double now = mechanical_energy(s, id), gain = now - s->energy[id.index];
    double kinetic = (double)rg_body_kinetic_energy(s->w, id);
    double allowed = ENERGY_SLACK + (double)rg_body_mass(s->w, id) * (double)rg_v3_length(rg_world_gravity(s->w)) *
                                        s->depth[id.index];
    if (s->pooled[id.index]) {
        e->pool_gain += gain;
        e->pool_kinetic_gain += kinetic - s->kinetic[id.index];
        e->pool_allowed += allowed;
        ++e->pooled;
    } else if (gain - allowed > e->alone_excess) {
        e->alone_gain = gain;
        e->alone_allowed = allowed;
        e->alone_excess = gain - allowed;
    }
    s->energy[id.index] = now;
    s->kinetic[id.index] = kinetic;
    s->pooled[id.index] = 0;
    s->depth[id.index] = 0;
}

static energy_check check_energy(soak *s) {
    energy_check e;
    int i, n = rg_world_contacts(s->w, s->contacts, CONTACT_CAPACITY);
    memset(&e, 0, sizeof e);
    e.alone_excess = -1e300;
    if (n > CONTACT_CAPACITY) {
        printf("FAIL more than %d contacts\n", CONTACT_CAPACITY);
        exit(1);
    }
    for (i = 0; i < n; ++i) {
        rg_contact *c = &s->contacts[i];
        int a_ground = c->a.index == s->ground_body.index && c->a.generation == s->ground_body.generation;
        int b_ground = c->b.index == s->ground_body.index && c->b.generation == s->ground_body.generation;
        double depth = c->depth > 0 ? (double)c->depth : 0;
        if (depth > e.deepest) e.deepest = depth;
        if (!a_ground && depth > s->depth[c->a.index]) s->depth[c->a.index] = depth;
        if (!b_ground && depth > s->depth[c->b.index]) s->depth[c->b.index] = depth;
        if (a_ground || b_ground) continue;
        s->pooled[c->a.index] = s->pooled[c->b.index] = 1;
    }
    for (i = 0; i < STACK; ++i) energy_of_body(s, s->stack[i], &e);
    for (i = 0; i < PYRAMID; ++i) energy_of_body(s, s->pyramid[i], &e);
    for (i = 0; i < s->rain_count; ++i) energy_of_body(s, s->rain[i], &e);
    return e;
}

static double now_seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }

int main(int argc, char **argv) {
    long long steps = argc > 1 ? atoll(argv[1]) : 1000000, step, warmup, rebuild;
    soak s;
    rg_world_def wd = rg_world_default_def();
    rg_body_def bd = rg_body_default_def();
    int passed = 0, failed = 0, i, finite = 1, count_ok = 1;
    long long warmup_peak = 0, later_peak = 0, allocator_calls_after_warmup = 0, calls_at_warmup = 0;
    long long middle, middle_peak = 0, last_half_peak = 0, warmup_blocks = 0, later_blocks = 0;
    int middle_pairs = 0, middle_contacts = 0, last_half_pairs = 0, last_half_contacts = 0;
    double worst_speed = 0, worst_spin = 0, worst_kinetic = 0, start = now_seconds();
    /* the largest excess of energy over the allowance in a step: of a body alone, and of the pool */
    double worst_alone_excess = -1e300, worst_alone_gain = 0, worst_pool_excess = -1e300, worst_pool_gain = 0;
    double deepest = 0;
    int worst_pooled = 0;
    long long energy_created_steps = 0, worst_alone_step = 0, worst_pool_step = 0, deepest_step = 0;
    if (steps < 100) steps = 100;
    warmup = steps / 5 < 100000 ? steps / 5 : 100000;
    rebuild = steps / 4 < 100000 ? steps / 4 : 100000;
    middle = (warmup + steps) / 2;
    memset(&s, 0, sizeof s);
    s.random_state = 2026;
    s.w = rg_world_create(&wd, NULL);
    s.ground = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL);
    s.cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    s.plank = rg_hull_create_box(rg_v3(0.8f, 0.2f, 0.4f), NULL);
    {
        /* a convex cloud for rg_hull_create; NULL until quickhull lands */
        rg_vec3 cloud[24];
        for (i = 0; i < 24; ++i) {
            /* one draw per statement: the evaluation order of a call's arguments is unspecified */
            double x = soak_random(&s) - 0.5, y = (soak_random(&s) - 0.5) * 0.8, z = (soak_random(&s) - 0.5) * 1.2;
            cloud[i] = rg_v3((rg_real)x, (rg_real)y, (rg_real)z);
        }
        s.cloud = rg_hull_create(cloud, 24, NULL);
    }
    if (!s.w || !s.ground || !s.cube || !s.plank) { printf("FAIL set-up\n0 passed, 1 failed\n"); return 1; }
    bd.type = RG_BODY_STATIC;
    bd.hull = s.ground;
    bd.position = rg_v3(0, -0.5f, 0);
    s.ground_body = rg_body_create(s.w, &bd, NULL);
    s.expected_bodies = 1;
    build_structures(&s, 1);
    printf("soak: %lld steps, warm-up %lld, structures rebuilt every %lld, %s hull for the rain\n", steps, warmup,
           rebuild, s.cloud ? "a quickhull" : "no quickhull");
    for (step = 1; step <= steps; ++step) {
        if (step % 15 == 0) drop_rain(&s);
        if (step % 3000 == 0) fire_projectile(&s);
        if (step % rebuild == 0) build_structures(&s, 0);
        if (rg_world_step(s.w, 1.0f / 60) != RG_OK) { printf("FAIL step %lld refused\n", step); return 1; }
        {
            energy_check e = check_energy(&s);
            double pool_excess = e.pool_gain - e.pool_allowed;
            if (e.alone_excess > 0 || pool_excess > 0) {
                if (energy_created_steps == 0)
                    printf("  step %lld: energy created: a body alone gained %.3g J (allowed %.3g J), %d bodies in contact "
                           "%.3g J (allowed %.3g J, kinetic part %.3g J)\n", step, e.alone_gain, e.alone_allowed, e.pooled,
                           e.pool_gain, e.pool_allowed, e.pool_kinetic_gain);
                ++energy_created_steps;
            }
            if (e.alone_excess > worst_alone_excess) {
                worst_alone_excess = e.alone_excess;
                worst_alone_gain = e.alone_gain;
                worst_alone_step = step;
            }
            if (e.pooled && pool_excess > worst_pool_excess) {
                worst_pool_excess = pool_excess;
                worst_pool_gain = e.pool_gain;
                worst_pooled = e.pooled;
                worst_pool_step = step;
            }
            if (e.deepest > deepest) {
                deepest = e.deepest;
                deepest_step = step;
            }
        }
        if (step % 100 == 0) {
            body_check c;
            memset(&c, 0, sizeof c);
            c.finite = 1;
            for (i = 0; i < STACK; ++i) check_body(&s, s.stack[i], &c);
            for (i = 0; i < PYRAMID; ++i) check_body(&s, s.pyramid[i], &c);
            for (i = 0; i < s.rain_count; ++i) check_body(&s, s.rain[i], &c);
            if (!c.finite && finite) printf("FAIL step %lld: a body is not finite\n", step);
            finite = finite && c.finite;
            if (c.max_speed > worst_speed) worst_speed = c.max_speed;
            if (c.max_spin > worst_spin) worst_spin = c.max_spin;
            if (c.kinetic > worst_kinetic) worst_kinetic = c.kinetic;
            respawn_fallen(&s);
            if (rg_world_get_stats(s.w).body_count != s.expected_bodies) count_ok = 0;
        }
        if (step <= warmup) {
            if (counting_allocator.live_bytes > warmup_peak) warmup_peak = counting_allocator.live_bytes;
            if (counting_allocator.live_blocks > warmup_blocks) warmup_blocks = counting_allocator.live_blocks;
            if (step == warmup) calls_at_warmup = counting_allocator.calls;
        } else {
            if (counting_allocator.live_bytes > later_peak) later_peak = counting_allocator.live_bytes;
            if (counting_allocator.live_blocks > later_blocks) later_blocks = counting_allocator.live_blocks;
            rg_world_stats work = rg_world_get_stats(s.w);
            if (step <= middle) {
                if (counting_allocator.live_bytes > middle_peak) middle_peak = counting_allocator.live_bytes;
                if (work.pair_count > middle_pairs) middle_pairs = work.pair_count;
                if (work.contact_count > middle_contacts) middle_contacts = work.contact_count;
            } else {
                if (counting_allocator.live_bytes > last_half_peak) last_half_peak = counting_allocator.live_bytes;
                if (work.pair_count > last_half_pairs) last_half_pairs = work.pair_count;
                if (work.contact_count > last_half_contacts) last_half_contacts = work.contact_count;
            }
        }
        if (step % 100000 == 0 || step == steps)
            printf("  step %8lld: %3d bodies, %7lld live bytes (warm-up peak %lld), fastest %.1f m/s, "
                   "kinetic %.0f J, %lld created, %lld respawned, %.3f ms/step\n",
                   step, rg_world_get_stats(s.w).body_count, counting_allocator.live_bytes, warmup_peak,
                   worst_speed, worst_kinetic, s.created, s.respawned, (now_seconds() - start) * 1e3 / (double)step);
        if (step % 100000 == 0) fflush(stdout);
    }
    allocator_calls_after_warmup = counting_allocator.calls - calls_at_warmup;
    rg_world_destroy(s.w);
    rg_hull_destroy(s.ground);
    rg_hull_destroy(s.cube);
    rg_hull_destroy(s.plank);
    rg_hull_destroy(s.cloud);
#define CHECK(cond, ...) do { if (cond) ++passed; else { ++failed; printf("FAIL " __VA_ARGS__); printf("\n"); } } while (0)
    CHECK(finite, "a body became NaN or infinite");
    CHECK(worst_speed < 100 && worst_spin < 200, "speed %.3g m/s or spin %.3g rad/s out of bounds", worst_speed, worst_spin);
    CHECK(worst_kinetic < 2500.0 * (1 + STACK + PYRAMID + RAIN_MAX), "kinetic energy %.3g J", worst_kinetic);
    CHECK(energy_created_steps == 0, "energy was created in %lld steps (see above)", energy_created_steps);
    CHECK(later_blocks <= warmup_blocks + warmup_blocks / 10, "allocated blocks grew after the warm-up: %lld, warm-up peak %lld",
          later_blocks, warmup_blocks);
    CHECK(later_peak <= 2 * warmup_peak, "memory more than doubled after the warm-up: peak %lld bytes, warm-up peak %lld",
          later_peak, warmup_peak);
    CHECK(last_half_peak <= middle_peak + middle_peak / 10 || last_half_pairs > middle_pairs ||
              last_half_contacts > middle_contacts,
          "memory still grows: peak %lld bytes in the last half after the warm-up, %lld in the first, at no new high of "
          "the work (pairs %d and %d, contacts %d and %d)", last_half_peak, middle_peak, last_half_pairs, middle_pairs,
          last_half_contacts, middle_contacts);
    CHECK(count_ok, "body count differs from the script's");
    CHECK(counting_allocator.live_bytes == 0 && counting_allocator.live_blocks == 0, "%lld bytes in %lld blocks left",
          counting_allocator.live_bytes, counting_allocator.live_blocks);
    printf("soak: %lld steps, %lld bodies created and destroyed, %lld respawned; fastest %.1f m/s, spin %.1f rad/s, "
           "kinetic at most %.0f J; live bytes: warm-up peak %lld, later peak %lld (first half %lld, last half %lld; most "
           "pairs %d and %d, contacts %d and %d at once), "
           "live blocks: warm-up peak %lld, later peak %lld; %.2f allocator calls per 1000 steps after warm-up; %.1f s\n"
           "soak: energy over the allowance in one step at most %.3g J for a body alone (step %lld, gain %.3g J), %.3g J "
           "for %d bodies in contact (step %lld, gain %.3g J); %lld steps created energy; deepest contact %.3g m "
           "(step %lld)\n",
           steps, s.created, s.respawned, worst_speed, worst_spin, worst_kinetic, warmup_peak, later_peak, middle_peak,
           last_half_peak, middle_pairs, last_half_pairs, middle_contacts, last_half_contacts, warmup_blocks, later_blocks, (double)allocator_calls_after_warmup * 1000 / (double)(steps - warmup), now_seconds() - start,
           worst_alone_excess, worst_alone_step, worst_alone_gain, worst_pool_excess, worst_pooled, worst_pool_step,
           worst_pool_gain, energy_created_steps, deepest, deepest_step);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
