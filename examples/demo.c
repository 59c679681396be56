/* The main demo (`make run`): Bender & Schmitt's funnel, 1000 cubes poured through a square
   funnel (the `funnel` scene of ../shared/scenes.md), 10 s at 60 steps per second. Shows a
   progress bar, then prints steps per second and contacts per step, and writes an HTML replay
   (open it in any browser: drag to orbit, space to pause, arrows to step) and a PNG snapshot.

   usage: demo [--out dir] [--steps n]     (files go to dir, default the current directory) */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "examples/record.h"
#include "examples/scenes.h"
#include "examples/snapshot.h"
#include "tools/replay.h"

static double cpu_seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }

static void progress(int step, int steps, double seconds, int contacts) {
    const int width = 40;
    int filled = steps ? step * width / steps : width, i;
    char bar[64];
    for (i = 0; i < width; ++i) bar[i] = i < filled ? '#' : '.';
    bar[width] = 0;
    printf("\r  [%s] %3d%%  step %4d/%d  %6.0f steps/s  %5d contacts ", bar, steps ? 100 * step / steps : 100, step,
           steps, seconds > 0 ? step / seconds : 0.0, contacts);
    fflush(stdout);
}

int main(int argc, char **argv) {
    const char *out_dir = ".";
    char recording_path[1024], html_path[1024], png_path[1024];
    scene s;
    scene_world sw;
    rg_world_def def = rg_world_default_def();
    recorder *r;
    double start, seconds, contacts = 0;
    int i, step, steps = 0, through = 0, above = 0, sunk = 0;

    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out_dir = argv[++i];
        else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) steps = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--out dir] [--steps n]\n", argv[0]);
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
    record_frame(r, sw.world, 0);
    start = cpu_seconds();
    for (step = 1; step <= steps; ++step) {
        int n;
        rg_world_step(sw.world, (rg_real)s.dt);
        n = rg_world_get_stats(sw.world).contact_count;
        contacts += n;
        if (step % 2 == 0) record_frame(r, sw.world, step * s.dt);
        if (step % 6 == 0 || step == steps) progress(step, steps, cpu_seconds() - start, n);
    }
    seconds = cpu_seconds() - start;
    printf("\n");
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
    /* TODO(solver stats): the per-phase split (broad phase, narrow phase, collisions, contacts,
       shock propagation) is printed here once rg_world_stats carries per-phase times. */
    printf("cubes: %d through the opening, %d still in the funnel, %d below the ground\n", through, above, sunk);

    {
        snapshot_options so = snapshot_default_options();
        char caption[96];
        snprintf(caption, sizeof caption, "funnel: %d cubes at t = %.1f s", scene_dynamic_count(&s), steps * s.dt);
        so.caption = caption;
        /* the funnel and the heap below it, rather than every cube that bounced away */
        so.auto_camera = 0;
        so.eye[0] = 26; so.eye[1] = 26; so.eye[2] = 42;
        so.target[0] = 0; so.target[1] = 4; so.target[2] = 0;
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
