/* The main demo (`make run`): Bender & Schmitt's funnel, 1000 cubes poured through a square
   funnel (the `funnel` scene of docs/scenes.md), 10 s at 60 steps per second. Shows a
   progress bar (on a terminal; a line every 10 % when stdout is a log), then prints steps per
   second, contacts per step and the time of each phase of rg_world_step, and writes an HTML
   replay (open it in any browser: drag to orbit, space to pause, arrows to step) and a PNG
   snapshot. The recording holds the poses only; --contacts adds every contact (8000 a step,
   20 times the size: 2000 a frame are drawn).

   Times are CPU time of the process (CLOCK_PROCESS_CPUTIME_ID), which does not run on while
   other programs hold the core. The phases come from rg_world_stats.seconds_*, which rigid.h
   fills because this file defines RIGID_PROFILE_CLOCK before the implementation.

   usage: demo [--out dir] [--steps n] [--contacts]   (files go to dir, default the current directory) */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime, isatty, fileno */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double cpu_seconds(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return (double)clock() / CLOCKS_PER_SEC;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define RIGID_PROFILE_CLOCK() cpu_seconds()
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/record.h"
#include "examples/scenes.h"
#include "examples/snapshot.h"
#include "tools/replay.h"

/* The progress display. On a terminal, one bar redrawn in place with \r; otherwise (a CI log, a
   pipe) one line at every tenth of the run, so that a log holds 10 lines rather than hundreds of
   carriage returns. */
typedef struct progress {
    int terminal, steps, next_tenth;
} progress;

static void progress_start(progress *p, int steps) {
    p->terminal = isatty(fileno(stdout));
    p->steps = steps;
    p->next_tenth = 1;
}

static void progress_update(progress *p, int step, double seconds, int contacts) {
    const int width = 40;
    int percent = p->steps ? (int)(100.0 * step / p->steps) : 100;
    double rate = seconds > 0 ? step / seconds : 0.0;
    if (p->terminal) {
        char bar[64];
        int filled = p->steps ? step * width / p->steps : width, i;
        if (step % 6 != 0 && step != p->steps) return;
        for (i = 0; i < width; ++i) bar[i] = i < filled ? '#' : '.';
        bar[width] = 0;
        printf("\r  [%s] %3d%%  step %4d/%d  %6.0f steps/s  %5d contacts ", bar, percent, step, p->steps, rate,
               contacts);
        if (step == p->steps) printf("\n");
    } else {
        /* step reaches the next tenth when step / steps >= next_tenth / 10 */
        if ((double)step * 10 < (double)p->next_tenth * p->steps) return;
        while (p->next_tenth <= 10 && (double)step * 10 >= (double)p->next_tenth * p->steps) ++p->next_tenth;
        printf("  %3d%%  step %4d/%d  %6.0f steps/s  %5d contacts\n", percent, step, p->steps, rate, contacts);
    }
    fflush(stdout);
}

/* The phases of rg_world_step as rg_world_stats reports them, summed over the run. */
enum { PHASE_COUNT = 6 };
static const char *const phase_names[PHASE_COUNT] = {"broad phase", "narrow phase", "collisions",
                                                     "contacts",    "shock",        "integration"};

static void add_phases(double *sum, const rg_world_stats *st) {
    sum[0] += st->seconds_broadphase;
    sum[1] += st->seconds_narrowphase;
    sum[2] += st->seconds_collision;
    sum[3] += st->seconds_contact;
    sum[4] += st->seconds_shock;
    sum[5] += st->seconds_integration;
}

/* ms per step and share of the time spent in rg_world_step; "other" is what lies outside the
   timed phases (the step's own bookkeeping and the clock calls). */
static void print_phases(const double *sum, double step_seconds, int steps) {
    double timed = 0;
    int i;
    if (steps <= 0 || !(step_seconds > 0)) return;
    printf("time per step by phase (CPU):\n");
    for (i = 0; i < PHASE_COUNT; ++i) {
        timed += sum[i];
        printf("  %-13s %8.3f ms  %5.1f %%\n", phase_names[i], sum[i] / steps * 1e3, 100 * sum[i] / step_seconds);
    }
    printf("  %-13s %8.3f ms  %5.1f %%\n", "other", (step_seconds - timed) / steps * 1e3,
           100 * (step_seconds - timed) / step_seconds);
    printf("  %-13s %8.3f ms  100.0 %%\n", "rg_world_step", step_seconds / steps * 1e3);
}

int main(int argc, char **argv) {
    const char *out_dir = ".";
    char recording_path[1024], html_path[1024], png_path[1024];
    scene s;
    scene_world sw;
    rg_world_def def = rg_world_default_def();
    recorder *r;
    progress bar;
    double seconds = 0, contacts = 0, phases[PHASE_COUNT] = {0, 0, 0, 0, 0, 0};
    int i, step, steps = 0, through = 0, above = 0, sunk = 0, contacts_too = 0;

    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out_dir = argv[++i];
        else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) steps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--contacts") == 0) contacts_too = 1;
        else {
            fprintf(stderr, "usage: %s [--out dir] [--steps n] [--contacts]\n", argv[0]);
            return 2;
        }
    }
    snprintf(recording_path, sizeof recording_path, "%s/funnel.rgrec", out_dir);
    snprintf(html_path, sizeof html_path, "%s/funnel.html", out_dir);
    snprintf(png_path, sizeof png_path, "%s/funnel.png", out_dir);

    if (!scene_build(&s, "funnel") || !scene_create_world(&s, &def, &sw)) {
        fprintf(stderr, "could not build the funnel scene\n");
        return 1;
    }
    if (steps <= 0) steps = s.steps;
    printf("rigid.h %s: %d cubes poured through a funnel, %d steps of 1/60 s\n", RIGID_VERSION_STRING,
           scene_dynamic_count(&s), steps);

    /* every second step is recorded: a 30 frames per second replay */
    r = record_open(recording_path, sw.world, sw.ids, s.count, 2 * s.dt);
    if (!r) fprintf(stderr, "could not write %s; running without a replay\n", recording_path);
    record_set_contacts(r, contacts_too);
    record_frame(r, sw.world, 0);
    progress_start(&bar, steps);
    for (step = 1; step <= steps; ++step) {
        rg_world_stats st;
        double t0 = cpu_seconds();
        rg_world_step(sw.world, (rg_real)s.dt);
        seconds += cpu_seconds() - t0;
        st = rg_world_get_stats(sw.world);
        add_phases(phases, &st);
        contacts += st.contact_count;
        if (step % 2 == 0) record_frame(r, sw.world, step * s.dt);
        progress_update(&bar, step, seconds, st.contact_count);
    }
    if (r && !record_close(r)) fprintf(stderr, "writing %s failed\n", recording_path);

    for (i = 0; i < s.count; ++i) {
        rg_vec3 p = rg_body_position(sw.world, sw.ids[i]);
        if (s.boxes[i].is_static) continue;
        if (p.y > 6) ++above;
        else if (p.y >= 0) ++through;
        else ++sunk;
    }
    printf("%d steps in %.2f s CPU: %.0f steps per second (%.2f ms per step), %.0f contacts per step\n", steps, seconds,
           seconds > 0 ? steps / seconds : 0.0, steps ? seconds / steps * 1e3 : 0.0, steps ? contacts / steps : 0.0);
    print_phases(phases, seconds, steps);
    printf("cubes: %d through the opening, %d still in the funnel, %d below the ground\n", through, above, sunk);

    {
        snapshot_options so = snapshot_default_options();
        char caption[96];
        snprintf(caption, sizeof caption, "funnel: %d cubes at t = %.1f s", scene_dynamic_count(&s), steps * s.dt);
        so.caption = caption;
        /* the camera of examples/funnel.c (the README's picture); no contact markers */
        so.auto_camera = 0;
        so.eye[0] = 24; so.eye[1] = 14; so.eye[2] = 40;
        so.target[0] = 0; so.target[1] = 6; so.target[2] = 0;
        so.fov_degrees = 42;
        so.draw_contacts = 0;
        if (snapshot_world(png_path, sw.world, sw.ids, s.count, &so)) printf("picture: %s\n", png_path);
        else fprintf(stderr, "could not write %s\n", png_path);
    }
    if (r) {
        recording rec;
        const char *error;
        replay_options ro = replay_default_options();
        ro.title = "rigid.h: 1000 cubes through a funnel";
        ro.max_contacts = 2000;
        if (record_read(recording_path, &rec, &error) && replay_write_html(&rec, html_path, &ro, &error))
            printf("replay:  %s (open it in a browser; the recording is %s)\n", html_path, recording_path);
        else
            fprintf(stderr, "could not write the replay: %s\n", error ? error : "?");
        record_free(&rec);
    }
    scene_destroy_world(&sw);
    scene_free(&s);
    return 0;
}
