/* Determinism: a state hash (FNV-1a, 64 bits, over the bits of every body's position,
   orientation, linear and angular velocity) after a scene has run. Each scene runs twice in this
   process, the world destroyed and built again in between, and the two hashes must be equal.
   The program prints one "hash <scene> <precision> <value>" line per scene; `make test` builds
   it with several compilers and tests/programs/determinism_compare.sh checks that every build of
   one precision prints the same hashes.

   Usage: determinism [long | once]
     long: the full `rain` scene and 600 steps, for `make determinism`
     once: each scene once (tcc's unoptimised build in `make test`; the others check the reruns)

   Scenes (examples/scenes.h):
     pyramid   the 210-cube pyramid
     rain      the rain scene: 4 walls and turned cubes (the first 100 cubes; all 1000 in long)
     churn     cubes dropped in a heap while bodies are destroyed and created every 10 steps, so
               the free list, id generations and every module's add/remove paths are in the hash
     churn-sleep  churn with sleeping on, three times as long, bodies replaced every 90 steps:
               the heap falls asleep and the destructions and drops wake it
   The first three run with sleeping off (rg_world_def.enable_sleep 0), as the benchmarks do. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#define RIGID_IMPLEMENTATION
#include "rigid.h"
#include "examples/scenes.h"
#include "tests/programs/state_hash.h"
#include "tools/random.h"   /* random_lcg: the churn scene's own generator, not the test harness's */

static void hash_body(hash64 *s, const rg_world *w, rg_body_id id) {
    hash_bytes(s, &id.index, sizeof id.index);
    hash_bytes(s, &id.generation, sizeof id.generation);
    hash_vec3(s, rg_body_position(w, id));
    hash_quat(s, rg_body_orientation(w, id));
    hash_vec3(s, rg_body_linear_velocity(w, id));
    hash_vec3(s, rg_body_angular_velocity(w, id));
}

static int finite_world(const rg_world *w, const rg_body_id *ids, int count) {
    int i;
    for (i = 0; i < count; ++i)
        if (!rg_v3_is_finite(rg_body_position(w, ids[i])) || !rg_quat_is_finite(rg_body_orientation(w, ids[i])) ||
            !rg_v3_is_finite(rg_body_linear_velocity(w, ids[i])) || !rg_v3_is_finite(rg_body_angular_velocity(w, ids[i])))
            return 0;
    return 1;
}

/* a scene of examples/scenes.h, keeping its first `keep` boxes (all if keep <= 0) */
static uint64_t run_scene(const char *name, int keep, int steps, int sleep, int *ok) {
    scene s;
    scene_world sw;
    rg_world_def wd = rg_world_default_def();
    hash64 hash = HASH64_INIT;
    int i;
    *ok = 0;
    wd.enable_sleep = sleep;
    if (!scene_build(&s, name)) return 0;
    if (keep > 0 && keep < s.count) s.count = keep;
    if (scene_create_world(&s, &wd, &sw)) {
        for (i = 0; i < steps; ++i) rg_world_step(sw.world, (rg_real)s.dt);
        for (i = 0; i < s.count; ++i) hash_body(&hash, sw.world, sw.ids[i]);
        *ok = finite_world(sw.world, sw.ids, s.count) &&
              rg_world_get_stats(sw.world).body_count == s.count && scene_dynamic_count(&s) > 0;
    }
    scene_destroy_world(&sw);
    scene_free(&s);
    return hash.h;
}

static rg_body_id churn_drop(rg_world *w, const rg_hull *hull, unsigned long long *state) {
    rg_body_def bd = rg_body_default_def();
    double x = random_lcg(state) * 4 - 2, z = random_lcg(state) * 4 - 2, y = 3 + random_lcg(state) * 6;
    double ax = random_lcg(state) - 0.5, ay = random_lcg(state) - 0.5, az = random_lcg(state) - 0.5;
    double angle = random_lcg(state) * 3;
    /* one draw per initialiser, each a full expression: two draws as arguments of one call
       would run in an unspecified order (gcc and clang differ) */
    double down = random_lcg(state) * 2, spin_x = random_lcg(state) - 0.5, spin_z = random_lcg(state) - 0.5;
    bd.hull = hull;
    bd.position = rg_v3((rg_real)x, (rg_real)y, (rg_real)z);
    bd.orientation = rg_quat_from_axis_angle(rg_v3((rg_real)ax, (rg_real)ay, (rg_real)az), (rg_real)angle);
    bd.linear_velocity = rg_v3(0, (rg_real)-down, 0);
    bd.angular_velocity = rg_v3((rg_real)spin_x, 0, (rg_real)spin_z);
    bd.mass = 1;
    return rg_body_create(w, &bd, NULL);
}

static uint64_t run_churn(int steps, int sleep, int *ok) {
    enum { LIVE = 60 };
    rg_world_def wd = rg_world_default_def();
    rg_world *w;
    wd.enable_sleep = sleep;
    w = rg_world_create(&wd, NULL);
    rg_hull *ground = rg_hull_create_box(rg_v3(10, 0.5f, 10), NULL);
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_hull *plank = rg_hull_create_box(rg_v3(1.0f, 0.2f, 0.4f), NULL);
    rg_body_id ids[LIVE];
    rg_body_def bd = rg_body_default_def();
    hash64 hash = HASH64_INIT;
    unsigned long long state = 7;
    int i, step, period = sleep ? 90 : 10; /* with sleeping: time for the heap to fall asleep between */
    *ok = 0;
    if (!w || !ground || !cube || !plank) goto done;
    bd.type = RG_BODY_STATIC;
    bd.hull = ground;
    bd.position = rg_v3(0, -0.5f, 0);
    rg_body_create(w, &bd, NULL);
    for (i = 0; i < LIVE; ++i) ids[i] = churn_drop(w, (i % 3) ? cube : plank, &state);
    for (step = 0; step < steps; ++step) {
        if (step % period == period - 1) {
            /* five bodies go, five new ones come, in the slots the old ones freed */
            for (i = 0; i < 5; ++i) {
                int k = (int)(random_lcg(&state) * LIVE);
                rg_body_destroy(w, ids[k]);
                ids[k] = churn_drop(w, (k % 3) ? cube : plank, &state);
            }
        }
        rg_world_step(w, (rg_real)(1.0 / 60));
    }
    for (i = 0; i < LIVE; ++i) hash_body(&hash, w, ids[i]);
    *ok = finite_world(w, ids, LIVE) && rg_world_get_stats(w).body_count == LIVE + 1;
done:
    rg_world_destroy(w);
    rg_hull_destroy(ground);
    rg_hull_destroy(cube);
    rg_hull_destroy(plank);
    return hash.h;
}

int main(int argc, char **argv) {
    int is_long = argc > 1 && strcmp(argv[1], "long") == 0, runs = argc > 1 && strcmp(argv[1], "once") == 0 ? 1 : 2;
    int steps = is_long ? 600 : 120, passed = 0, failed = 0, run;
    const char *precision = sizeof(rg_real) == sizeof(double) ? "double" : "float";
    const char *names[4] = {"pyramid", "rain", "churn", "churn-sleep"};
    int scene;
    for (scene = 0; scene < 4; ++scene) {
        uint64_t hashes[2];
        int ok[2];
        for (run = 0; run < runs; ++run) {
            if (scene == 0) hashes[run] = run_scene("pyramid", 0, steps, 0, &ok[run]);
            else if (scene == 1) hashes[run] = run_scene("rain", is_long ? 0 : 5 + 100, steps, 0, &ok[run]);
            else if (scene == 2) hashes[run] = run_churn(steps, 0, &ok[run]);
            else hashes[run] = run_churn(3 * steps, 1, &ok[run]); /* long enough for heaps to sleep */
        }
        if (runs == 1) {
            hashes[1] = hashes[0];
            ok[1] = ok[0];
        }
        printf("hash %s %s %016llx\n", names[scene], precision, (unsigned long long)hashes[0]);
        if (hashes[0] == hashes[1] && ok[0] && ok[1]) {
            ++passed;
        } else {
            ++failed;
            printf("FAIL %s: second run %016llx, finite %d %d\n", names[scene],
                   (unsigned long long)hashes[1], ok[0], ok[1]);
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
