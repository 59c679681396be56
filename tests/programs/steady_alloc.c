/* Zero allocations in steady state: every allocation of rigid.h goes through the counting
   allocator (RIGID_MALLOC/REALLOC/FREE, stb_ds included), and once a scene is steady, its steps
   and what a game reads every frame (contacts, stats, body state) must make no call to it.

   Scenes (examples/scenes.h):
     stack, pyramid without gravity   cubes exactly touching, at rest: steady from the first step,
                                      with contacts once the narrow phase and solver are in.
                                      Always asserted.
     stack, pyramid with gravity      warmed up until every cube is slower than 0.05 m/s (at most
                                      10 s), then measured: the settled stack and pyramid.
                                      Asserted once settled; while nothing stops bodies falling
                                      (before the solver) they never settle, and that is reported.

   Also printed, not asserted: what replacing bodies in steady state costs. */
#include <stdio.h>
#include "counting_allocator.h"
#define RIGID_IMPLEMENTATION
#include "rigid.h"
#include "examples/scenes.h"

static int passed, failed;

static rg_real max_speed(const rg_world *w, const rg_body_id *ids, int count) {
    rg_real top = 0;
    int i;
    for (i = 0; i < count; ++i) {
        rg_real v = rg_v3_length(rg_body_linear_velocity(w, ids[i]));
        if (v > top) top = v;
    }
    return top;
}

static void check_scene(const char *name, int gravity) {
    scene s;
    scene_world sw;
    rg_world_def wd = rg_world_default_def();
    rg_contact contacts[64];
    counting_allocator_stats before;
    long long calls, bytes;
    rg_real checksum = 0, speed;
    int i, j, warmup = 0, measured = 240, settled;
    if (!gravity) wd.gravity = rg_v3(0, 0, 0);
    if (!scene_build(&s, name) || !scene_create_world(&s, &wd, &sw)) {
        ++failed;
        printf("FAIL %s: scene not built\n", name);
        return;
    }
    /* warm-up: at least one step without gravity, up to 10 s with it, until settled */
    do {
        for (i = 0; i < 60; ++i) rg_world_step(sw.world, (rg_real)s.dt);
        warmup += 60;
        speed = max_speed(sw.world, sw.ids, s.count);
    } while (gravity && !(speed < (rg_real)0.05) && warmup < 600);
    settled = speed < (rg_real)0.05;
    before = counting_allocator;
    for (i = 0; i < measured; ++i) {
        rg_world_stats stats;
        rg_world_step(sw.world, (rg_real)s.dt);
        /* what a game reads every frame */
        stats = rg_world_get_stats(sw.world);
        checksum += (rg_real)rg_world_contacts(sw.world, contacts, 64) + (rg_real)stats.pair_count;
        for (j = 0; j < s.count; ++j) checksum += rg_body_position(sw.world, sw.ids[j]).y;
    }
    calls = counting_allocator.calls - before.calls;
    bytes = counting_allocator.live_bytes - before.live_bytes;
    printf("  %s, %s: %d bodies (%d dynamic), %d steps after %d of warm-up: %lld allocator calls, "
           "%+lld live bytes (%lld live), fastest body %.3g m/s, %d contacts, %d pairs\n",
           name, gravity ? "gravity" : "no gravity", s.count, scene_dynamic_count(&s), measured, warmup,
           calls, bytes, counting_allocator.live_bytes, (double)max_speed(sw.world, sw.ids, s.count),
           rg_world_contacts(sw.world, NULL, 0), rg_world_get_stats(sw.world).pair_count);
    if (!settled) {
        printf("  %s, %s: not settled after %d steps (bodies still at %.3g m/s): not asserted\n",
               name, gravity ? "gravity" : "no gravity", warmup, (double)speed);
    } else if (calls == 0 && bytes == 0 && checksum == checksum) {
        ++passed;
    } else {
        ++failed;
        printf("FAIL %s: steady-state steps called the allocator %lld times (%lld mallocs, %lld reallocs, %lld frees)\n",
               name, calls, counting_allocator.allocations - before.allocations,
               counting_allocator.reallocations - before.reallocations, counting_allocator.frees - before.frees);
    }
    /* replacing bodies in steady state: reported only */
    before = counting_allocator;
    for (i = 0; i < 10; ++i) {
        rg_body_def bd = rg_body_default_def();
        int k = 1 + (i * 7) % (s.count - 1);
        bd.hull = rg_body_hull(sw.world, sw.ids[k]);
        bd.position = rg_body_position(sw.world, sw.ids[k]);
        bd.orientation = rg_body_orientation(sw.world, sw.ids[k]);
        bd.mass = 1;
        rg_body_destroy(sw.world, sw.ids[k]);
        sw.ids[k] = rg_body_create(sw.world, &bd, NULL);
        rg_world_step(sw.world, (rg_real)s.dt);
    }
    printf("  %s, %s: 10 bodies replaced, one per step: %lld allocator calls (not asserted)\n", name,
           gravity ? "gravity" : "no gravity", counting_allocator.calls - before.calls);
    scene_destroy_world(&sw);
    scene_free(&s);
    if (counting_allocator.live_bytes != 0) {
        ++failed;
        printf("FAIL %s: %lld bytes still live after the world and hulls were destroyed\n", name,
               counting_allocator.live_bytes);
    } else {
        ++passed;
    }
}

int main(void) {
    printf("steady-state allocations (%s)\n", sizeof(rg_real) == sizeof(double) ? "double" : "float");
    check_scene("stack", 0);
    check_scene("pyramid", 0);
    check_scene("stack", 1);
    check_scene("pyramid", 1);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
