/* `make bench`: the cost of a snapshot (rg_world_snapshot_save, rg_world_snapshot_load) of a
   scene of examples/scenes.h next to the cost of a step. The scene is stepped --steps steps
   (default 240: `rain-10k`'s cubes have landed), then: ms per step (median of 20), the snapshot's
   size, ms per save and per load into the same world (medians of 10: a rollback, whose arrays
   already have their capacity), ms of a load into a new world (its arrays allocated), and
   whether the steps after a load give the same state as the steps after the save. Timings are
   printed, never asserted.

   Usage: bench_snapshot [scene ...] [--steps N]   (default scene: rain-10k) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/clock.h"

#define RIGID_IMPLEMENTATION
#include "rigid.h"
#include "examples/scenes.h"
#include "tests/programs/state_hash.h"

/* Every body's pose and velocities. */
static uint64_t world_hash(const rg_world *w, const scene_world *sw, int count) {
    hash64 h = HASH64_INIT;
    int i;
    for (i = 0; i < count; ++i) {
        hash_vec3(&h, rg_body_position(w, sw->ids[i]));
        hash_quat(&h, rg_body_orientation(w, sw->ids[i]));
        hash_vec3(&h, rg_body_linear_velocity(w, sw->ids[i]));
        hash_vec3(&h, rg_body_angular_velocity(w, sw->ids[i]));
    }
    return h.h;
}

static void bench_scene(const char *name, int warmup) {
    enum { STEPS = 20, COPIES = 10, AFTER = 10 };
    scene s;
    scene_world sw;
    rg_world_def wd = rg_world_default_def();
    rg_world *fresh;
    double step_ms[STEPS], save_ms[COPIES], load_ms[COPIES], start, fresh_ms;
    uint64_t after_save, after_load, after_fresh;
    size_t size;
    void *buffer;
    int i, k;
    if (!scene_build(&s, name) || s.count <= 0) {
        printf("%s: no such scene\n", name);
        return;
    }
    if (!scene_create_world(&s, &wd, &sw)) {
        printf("%s: the world could not be made\n", name);
        scene_free(&s);
        return;
    }
    for (i = 0; i < warmup; ++i) rg_world_step(sw.world, (rg_real)s.dt);
    for (i = 0; i < STEPS; ++i) {
        start = now_seconds();
        rg_world_step(sw.world, (rg_real)s.dt);
        step_ms[i] = 1e3 * (now_seconds() - start);
    }
    size = rg_world_snapshot_size(sw.world);
    buffer = malloc(size);
    if (!buffer) {
        scene_destroy_world(&sw);
        scene_free(&s);
        return;
    }
    for (k = 0; k < COPIES; ++k) {
        start = now_seconds();
        rg_world_snapshot_save(sw.world, buffer, size);
        save_ms[k] = 1e3 * (now_seconds() - start);
    }
    for (i = 0; i < AFTER; ++i) rg_world_step(sw.world, (rg_real)s.dt);
    after_save = world_hash(sw.world, &sw, s.count);
    for (k = 0; k < COPIES; ++k) {
        start = now_seconds();
        rg_world_snapshot_load(sw.world, buffer, size);
        load_ms[k] = 1e3 * (now_seconds() - start);
    }
    for (i = 0; i < AFTER; ++i) rg_world_step(sw.world, (rg_real)s.dt);
    after_load = world_hash(sw.world, &sw, s.count);
    fresh = rg_world_create(&wd, NULL);
    start = now_seconds();
    rg_world_snapshot_load(fresh, buffer, size);
    fresh_ms = 1e3 * (now_seconds() - start);
    for (i = 0; i < AFTER; ++i) rg_world_step(fresh, (rg_real)s.dt);
    after_fresh = world_hash(fresh, &sw, s.count);
    printf("%-14s %6d bodies, after %d steps: %8.2f ms/step; snapshot %.2f MB (%lu bytes, %.0f per body):"
           " save %.2f ms, load %.2f ms (same world), %.2f ms (new world); same state %d steps after: %s\n",
           name, rg_world_get_stats(sw.world).body_count, warmup, median(step_ms, STEPS), (double)size / 1e6,
           (unsigned long)size, (double)size / s.count, median(save_ms, COPIES), median(load_ms, COPIES),
           fresh_ms, AFTER, after_save == after_load && after_save == after_fresh ? "yes" : "NO");
    fflush(stdout);
    rg_world_destroy(fresh);
    free(buffer);
    scene_destroy_world(&sw);
    scene_free(&s);
}

int main(int argc, char **argv) {
    int i, warmup = 240, named = 0;
    for (i = 1; i < argc; ++i)
        if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) warmup = atoi(argv[++i]);
    printf("rigid.h %s snapshot bench (%s precision)\n", RIGID_VERSION_STRING, sizeof(rg_real) == 8 ? "double" : "single");
    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--steps") == 0) { ++i; continue; }
        bench_scene(argv[i], warmup);
        ++named;
    }
    if (!named) bench_scene("rain-10k", warmup);
    return 0;
}
