/* `make bench`: sleeping's cost and saving. Each scene of docs/scenes.md named (pyramid, rain,
   large-pyramid by default) runs twice for --steps steps (default 600, 10 s at 60 Hz): with
   sleeping off, as the peers run it, and on. Printed: ms per step (median) with sleeping off;
   with it on, the median of the steps while bodies were awake (the settling) and of those with
   every body asleep (next to the same steps with sleeping off), the step at which the last one
   slept, and the ratio of the asleep step to the step with sleeping off (the target is at most
   0.1). The two runs' first steps, before
   anything sleeps, are the same computation (sleeping changes no step in which every body is
   awake), so the settle median is the awake step's cost with the sleep bookkeeping. Timings are
   printed, never asserted.

   Usage: bench_sleep [scene ...] [--steps N] */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/clock.h"

#define RIGID_IMPLEMENTATION
#include "rigid.h"
#include "../examples/scenes.h"

typedef struct sleep_run {
    double awake_ms, asleep_ms;   /* medians of the steps with bodies awake, with none */
    int awake_steps, asleep_steps, last_asleep;
    int final_awake;              /* bodies awake after the last step */
    double *times;                /* every step's, in order */
} sleep_run;

/* The scene stepped `steps` times with sleeping on or off: each step's time, sorted into the
   steps ending with bodies awake and those ending with all asleep (once asleep for good). */
static int run_scene(const scene *s, int enable_sleep, int steps, sleep_run *out) {
    rg_world_def wd = rg_world_default_def();
    scene_world sw;
    double *awake = (double *)malloc(sizeof(double) * (size_t)steps), *asleep = (double *)malloc(sizeof(double) * (size_t)steps);
    int step, ok;
    memset(out, 0, sizeof *out);
    out->last_asleep = -1;
    out->times = (double *)malloc(sizeof(double) * (size_t)steps);
    wd.contact_iterations = s->iterations;
    wd.enable_sleep = enable_sleep;
    ok = awake && asleep && out->times && scene_create_world(s, &wd, &sw);
    for (step = 0; ok && step < steps; ++step) {
        double t0 = now_seconds(), t;
        rg_world_step(sw.world, (rg_real)s->dt);
        t = now_seconds() - t0;
        out->times[step] = t;
        if (rg_world_get_stats(sw.world).awake_body_count > 0) {
            awake[out->awake_steps++] = t;
            out->last_asleep = -1;
        } else {
            if (out->last_asleep < 0) out->last_asleep = step + 1;
            asleep[out->asleep_steps++] = t;
        }
    }
    if (ok) out->final_awake = rg_world_get_stats(sw.world).awake_body_count;
    out->awake_ms = median(awake, out->awake_steps) * 1e3;
    out->asleep_ms = median(asleep, out->asleep_steps) * 1e3;
    if (ok) scene_destroy_world(&sw);
    free(awake);
    free(asleep);
    return ok;
}

int main(int argc, char **argv) {
    const char *defaults[3] = {"pyramid", "rain", "large-pyramid"};
    const char *names[16];
    int i, count = 0, steps = 600;
    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) steps = atoi(argv[++i]);
        else if (count < 16) names[count++] = argv[i];
    }
    if (count == 0)
        for (i = 0; i < 3; ++i) names[count++] = defaults[i];
    if (steps < 1) steps = 1;
    printf("sleeping, %d steps a scene: ms/step (median) off | on while settling, once all asleep | ratio asleep/off\n",
           steps);
    for (i = 0; i < count; ++i) {
        scene s;
        sleep_run off, on;
        if (!scene_build(&s, names[i])) {
            printf("%-14s unknown scene\n", names[i]);
            continue;
        }
        if (!run_scene(&s, 0, steps, &off) || !run_scene(&s, 1, steps, &on)) {
            printf("%-14s failed to build\n", names[i]);
            free(off.times);
            free(on.times);
            scene_free(&s);
            continue;
        }
        /* the same steps with sleeping off, for the settling's cost */
        printf("%-14s %5d bodies  off %8.3f | settle %8.3f (%d steps; off %.3f)  asleep ", names[i], s.count - 1,
               off.awake_ms, on.awake_ms, on.awake_steps, median(off.times, on.awake_steps) * 1e3);
        if (on.asleep_steps > 0)
            printf("%8.4f (from step %d, %.1f s) | %.4f\n", on.asleep_ms, on.last_asleep, on.last_asleep * s.dt,
                   on.asleep_ms / off.awake_ms);
        else
            printf("   never in %d steps (%d awake at the end)\n", steps, on.final_awake);
        free(off.times);
        free(on.times);
        scene_free(&s);
    }
    return 0;
}
