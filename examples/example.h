/* example.h: what the examples share. Options (--record file, --snapshot file.png, --steps n), a
   CPU-time clock, and a runner for the scenes of scenes.h that records, times, and keeps the
   start and end poses for the example's own summary. Include rigid.h (with the implementation)
   first. Header-only, static. */
#ifndef RIGID_EXAMPLE_H
#define RIGID_EXAMPLE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "examples/record.h"
#include "examples/scenes.h"
#include "examples/snapshot.h"

#if defined(__GNUC__) || defined(__clang__)
#define EXAMPLE__STATIC static __attribute__((unused))
#else
#define EXAMPLE__STATIC static
#endif

typedef struct example_options {
    const char *record;     /* --record file: the motion, for tools/replay */
    const char *snapshot;   /* --snapshot file.png: a picture of the last step */
    int steps;              /* --steps n: 0 keeps the example's own count */
    int every;              /* --every n: record every n-th step (default 1) */
} example_options;

/* Parses the common options; prints usage and returns 0 on anything else. */
EXAMPLE__STATIC int example_parse(int argc, char **argv, example_options *o) {
    int i;
    memset(o, 0, sizeof *o);
    o->every = 1;
    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--record") == 0 && i + 1 < argc) o->record = argv[++i];
        else if (strcmp(argv[i], "--snapshot") == 0 && i + 1 < argc) o->snapshot = argv[++i];
        else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) o->steps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--every") == 0 && i + 1 < argc) o->every = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--record file] [--every n] [--snapshot file.png] [--steps n]\n", argv[0]);
            return 0;
        }
    }
    if (o->every < 1) o->every = 1;
    return 1;
}

/* CPU seconds (the examples are single-threaded). */
EXAMPLE__STATIC double example_seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* Whether two ids name the same body (index and generation). */
EXAMPLE__STATIC int example_same_body(rg_body_id a, rg_body_id b) { return a.index == b.index && a.generation == b.generation; }

/* Opens the recording the options ask for (NULL when none, or on failure, which is reported). */
EXAMPLE__STATIC recorder *example_record_open(const example_options *o, const rg_world *w, const rg_body_id *ids,
                                              int count, double dt) {
    recorder *r;
    if (!o->record) return NULL;
    r = record_open(o->record, w, ids, count, dt * o->every);
    if (!r) fprintf(stderr, "could not write %s\n", o->record);
    return r;
}

EXAMPLE__STATIC void example_record_close(const example_options *o, recorder *r) {
    if (!r) return;
    if (record_close(r)) printf("recording: %s (tools/replay turns it into a web page)\n", o->record);
    else fprintf(stderr, "writing %s failed\n", o->record);
}

/* The snapshot the options ask for, drawn with the given snapshot options (NULL: defaults). */
EXAMPLE__STATIC void example_snapshot_with(const example_options *o, const rg_world *w, const rg_body_id *ids, int count,
                                           const snapshot_options *options) {
    snapshot_options so = options ? *options : snapshot_default_options();
    if (!o->snapshot) return;
    if (snapshot_world(o->snapshot, w, ids, count, &so)) printf("snapshot: %s\n", o->snapshot);
    else fprintf(stderr, "could not write %s\n", o->snapshot);
}

/* The snapshot the options ask for; eye and target NULL: a camera that frames every body. */
EXAMPLE__STATIC void example_snapshot(const example_options *o, const rg_world *w, const rg_body_id *ids, int count,
                                      const char *caption, const double *eye, const double *target) {
    snapshot_options so = snapshot_default_options();
    so.caption = caption;
    if (eye && target) {
        so.auto_camera = 0;
        memcpy(so.eye, eye, sizeof so.eye);
        memcpy(so.target, target, sizeof so.target);
    }
    example_snapshot_with(o, w, ids, count, &so);
}

/* A scene of scenes.h run to the end, with what the examples print about it. */
typedef struct example_run {
    scene s;
    scene_world world;
    int steps;
    double seconds;             /* CPU time of the steps */
    double contacts_per_step;   /* mean of rg_world_get_stats().contact_count */
    double *start, *end;        /* 3 per box: centres at the start and after the last step */
    int moved;                  /* dynamic boxes more than 0.5 m from their start */
    int top;                    /* index of the box that started highest */
} example_run;

/* Builds the named scene in rigid.h and steps it (the scene's count, or o->steps), recording and
   taking the snapshot as the options ask. The world stays alive in run->world for the caller's
   summary; example_run_free releases it. Returns 0 on failure. */
EXAMPLE__STATIC int example_run_scene(const char *name, const example_options *o, example_run *run) {
    rg_world_def def = rg_world_default_def();
    recorder *r;
    double contacts = 0, start;
    int i, step;
    memset(run, 0, sizeof *run);
    if (!scene_build(&run->s, name)) return 0;
    if (!scene_create_world(&run->s, &def, &run->world)) {
        fprintf(stderr, "could not build the scene '%s'\n", name);
        return 0;
    }
    run->steps = o->steps > 0 ? o->steps : run->s.steps;
    run->start = (double *)malloc(sizeof(double) * 3 * (size_t)run->s.count);
    run->end = (double *)malloc(sizeof(double) * 3 * (size_t)run->s.count);
    if (!run->start || !run->end) return 0;
    for (i = 0; i < run->s.count; ++i) {
        memcpy(&run->start[3 * i], run->s.boxes[i].position, sizeof(double) * 3);
        if (!run->s.boxes[i].is_static && (run->top == 0 || run->s.boxes[i].position[1] > run->s.boxes[run->top].position[1]))
            run->top = i;
    }
    r = example_record_open(o, run->world.world, run->world.ids, run->s.count, run->s.dt);
    record_frame(r, run->world.world, 0);
    start = example_seconds();
    for (step = 1; step <= run->steps; ++step) {
        rg_world_step(run->world.world, (rg_real)run->s.dt);
        contacts += rg_world_get_stats(run->world.world).contact_count;
        if (step % o->every == 0) record_frame(r, run->world.world, step * run->s.dt);
    }
    run->seconds = example_seconds() - start;
    example_record_close(o, r);
    run->contacts_per_step = run->steps ? contacts / run->steps : 0;
    for (i = 0; i < run->s.count; ++i) {
        rg_vec3 p = rg_body_position(run->world.world, run->world.ids[i]);
        double d2;
        run->end[3 * i] = p.x;
        run->end[3 * i + 1] = p.y;
        run->end[3 * i + 2] = p.z;
        d2 = (p.x - run->start[3 * i]) * (p.x - run->start[3 * i]) + (p.y - run->start[3 * i + 1]) * (p.y - run->start[3 * i + 1]) +
             (p.z - run->start[3 * i + 2]) * (p.z - run->start[3 * i + 2]);
        if (!run->s.boxes[i].is_static && !(d2 <= 0.25)) run->moved++; /* NaN counts as moved */
    }
    return 1;
}

/* "pyramid: 210 cubes at t = 10.0 s", for the snapshot (a static buffer). */
EXAMPLE__STATIC const char *example_caption(const example_run *run) {
    static char caption[96];
    snprintf(caption, sizeof caption, "%s: %d cubes at t = %.1f s", run->s.name, scene_dynamic_count(&run->s),
             run->steps * run->s.dt);
    return caption;
}

/* Snapshot options for a fixed camera at eye looking at target, captioned with the run, without
   contact markers (a pile's thousands of them would hide the cubes). */
EXAMPLE__STATIC snapshot_options example_fixed_camera(const example_run *run, double ex, double ey, double ez,
                                                      double tx, double ty, double tz) {
    snapshot_options so = snapshot_default_options();
    so.caption = example_caption(run);
    so.auto_camera = 0;
    so.eye[0] = ex; so.eye[1] = ey; so.eye[2] = ez;
    so.target[0] = tx; so.target[1] = ty; so.target[2] = tz;
    so.draw_contacts = 0;
    return so;
}

/* The lines every scene example prints first. */
EXAMPLE__STATIC void example_print_run(const example_run *run) {
    int dynamic = scene_dynamic_count(&run->s);
    printf("%s: %d cubes, %d steps of %.4g s (%.2f s simulated) in %.2f s CPU, %.3f ms/step, %.1f contacts/step\n",
           run->s.name, dynamic, run->steps, run->s.dt, run->steps * run->s.dt, run->seconds,
           run->steps ? run->seconds / run->steps * 1e3 : 0.0, run->contacts_per_step);
    printf("  %d of %d cubes ended more than 0.5 m from where they started\n", run->moved, dynamic);
}

EXAMPLE__STATIC void example_run_free(example_run *run) {
    scene_destroy_world(&run->world);
    scene_free(&run->s);
    free(run->start);
    free(run->end);
    memset(run, 0, sizeof *run);
}

#endif
