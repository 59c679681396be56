/* `make bench`: timings, never asserted. Each section prints its own figures. */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include <stdio.h>

#include "tools/clock.h"

static void bench_free_motion(int count) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w;
    wd.enable_sleep = 0; /* free motion timed as it is, whatever the speeds */
    w = rg_world_create(&wd, NULL);
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 1, 1.5f), NULL);
    rg_body_def bd = rg_body_default_def();
    double start, elapsed;
    int i, steps = 100;
    bd.hull = box;
    for (i = 0; i < count; ++i) {
        bd.position = rg_v3((rg_real)(i % 100) * 4, (rg_real)(i / 100) * 4, 0);
        bd.angular_velocity = rg_v3(1, 2, 3);
        rg_body_create(w, &bd, NULL);
    }
    start = now_seconds();
    for (i = 0; i < steps; ++i) rg_world_step(w, 1.0f / 60);
    elapsed = now_seconds() - start;
    printf("free motion, %6d tumbling boxes: %8.3f ms/step (%.1f ns/body)\n", count,
           elapsed / steps * 1e3, elapsed / steps / count * 1e9);
    rg_world_destroy(w);
    rg_hull_destroy(box);
}

int main(void) {
    printf("rigid.h %s bench\n", RIGID_VERSION_STRING);
    bench_free_motion(1000);
    bench_free_motion(10000);
    return 0;
}
