/* `make bench`: the scenes of docs/scenes.md in rigid.h. For each scene: ms per step (the
   median of whole steps) split by phase (broad, narrow, collision, contact, shock, integration),
   the iterations the solver used, contacts per step, and the outcome (cubes that ended more
   than 0.5 m from their start, how far the top cube moved; for `balls` the spheres inside the
   walls and at rest, for `mesh-rain` the cubes that fell through the mesh and the lowest centre,
   as tools/bench.c counts them for the peers). Timings are printed, never asserted.

   Usage: bench_scenes [scene ...] [--steps N] [--warm 0|1] [--contact-iterations N]
                       [--shock-iterations N] [--collision-iterations N] [--tolerance T] [--seed S]
                       [--workers N]
   Without scene names it runs stack, pyramid, rain, funnel, large-pyramid, balls and mesh-rain;
   funnel-bender and rain-10k run when named. A custom allocator counts allocations in the last half of the run:
   a steady-state step should make none. --workers N (2 to 64) steps a second world of each scene
   with the threads of tools/tasks.h's pool of N workers, in turns of 10 steps with the first (one
   worker), and prints both times, their ratio and whether the two ended in the same state. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/clock.h"

static long allocations;
static void *counting_malloc(size_t size) { ++allocations; return malloc(size); }
static void *counting_realloc(void *p, size_t size) { ++allocations; return realloc(p, size); }

#define RIGID_PROFILE_CLOCK() now_seconds()
#define RIGID_MALLOC(size, ctx) ((void)(ctx), counting_malloc(size))
#define RIGID_REALLOC(ptr, size, ctx) ((void)(ctx), counting_realloc((ptr), (size)))
#define RIGID_FREE(ptr, ctx) ((void)(ctx), free(ptr))
#define RIGID_IMPLEMENTATION
#include "rigid.h"
#include "../examples/scenes.h"
#include "tools/tasks.h"

#include <math.h>

typedef struct options {
    int steps, warm, contact_iterations, shock_iterations, collision_iterations;
    int workers;                  /* > 1: a pool of this many workers, side by side with one */
    double tolerance;
    long seed;                    /* the world's random_seed (Guendelman's order mixing), -1 for the default */
} options;

/* One world of a scene being stepped, with its timings and the solver's figures. */
typedef struct scene_run {
    scene_world sw;
    tasks_pool pool;
    int workers;                  /* 1: no pool */
    double *step_times, phase[6], seconds;
    double collision_iterations, contact_iterations, shock_iterations, contacts, pairs;
} scene_run;

static int run_start(scene_run *r, const scene *s, const options *o, int workers, int steps) {
    rg_world_def wd = rg_world_default_def();
    memset(r, 0, sizeof *r);
    r->workers = workers;
    wd.enable_sleep = 0; /* the scenes' settings: sleeping off (tools/bench_sleep.c times it on) */
    if (o->warm >= 0) wd.warm_starting = o->warm;
    if (o->contact_iterations >= 0) wd.contact_iterations = o->contact_iterations;
    if (o->shock_iterations >= 0) wd.shock_iterations = o->shock_iterations;
    if (o->collision_iterations >= 0) wd.collision_iterations = o->collision_iterations;
    if (o->tolerance > 0) wd.contact_tolerance = (rg_real)o->tolerance;
    if (o->seed >= 0) wd.random_seed = (uint32_t)o->seed;
    if (workers > 1) {
        if (!tasks_start(&r->pool, workers)) return 0;
        tasks_lend(&r->pool, &wd);
    }
    r->step_times = (double *)malloc(sizeof(double) * (size_t)steps);
    return r->step_times && scene_create_world(s, &wd, &r->sw);
}

static void run_steps(scene_run *r, const scene *s, int from, int to) {
    int step;
    for (step = from; step < to; ++step) {
        double t0 = now_seconds();
        rg_world_stats st;
        rg_world_step(r->sw.world, (rg_real)s->dt);
        r->step_times[step] = now_seconds() - t0;
        r->seconds += r->step_times[step];
        st = rg_world_get_stats(r->sw.world);
        r->phase[0] += st.seconds_broadphase;
        r->phase[1] += st.seconds_narrowphase;
        r->phase[2] += st.seconds_collision;
        r->phase[3] += st.seconds_contact;
        r->phase[4] += st.seconds_shock;
        r->phase[5] += st.seconds_integration;
        r->collision_iterations += st.collision_iterations;
        r->contact_iterations += st.contact_iterations;
        r->shock_iterations += st.shock_iterations;
        r->contacts += st.contact_count;
        r->pairs += st.pair_count;
    }
}

static void run_end(scene_run *r) {
    free(r->step_times);
    scene_destroy_world(&r->sw);
    if (r->workers > 1) tasks_stop(&r->pool);
}

static void print_times(const scene_run *r, int steps) {
    double *sorted = (double *)malloc(sizeof(double) * (size_t)steps);
    memcpy(sorted, r->step_times, sizeof(double) * (size_t)steps);
    printf("   %d worker%s: %8.3f ms/step (median; mean %.3f)  phases ms/step: broad %.3f  narrow %.3f  collision %.3f"
           "  contact %.3f  shock %.3f  integration %.3f\n",
           r->workers, r->workers > 1 ? "s" : " ", median(sorted, steps) * 1e3, r->seconds / steps * 1e3,
           r->phase[0] / steps * 1e3, r->phase[1] / steps * 1e3, r->phase[2] / steps * 1e3, r->phase[3] / steps * 1e3,
           r->phase[4] / steps * 1e3, r->phase[5] / steps * 1e3);
    free(sorted);
}

/* Do the two worlds' bodies hold the same bits (position, orientation, velocities)? */
static int same_state(const scene_run *a, const scene_run *b, int count) {
    int i;
    for (i = 0; i < count; ++i) {
        rg_vec3 p[6];
        rg_quat q[2];
        p[0] = rg_body_position(a->sw.world, a->sw.ids[i]);
        p[1] = rg_body_position(b->sw.world, b->sw.ids[i]);
        p[2] = rg_body_linear_velocity(a->sw.world, a->sw.ids[i]);
        p[3] = rg_body_linear_velocity(b->sw.world, b->sw.ids[i]);
        p[4] = rg_body_angular_velocity(a->sw.world, a->sw.ids[i]);
        p[5] = rg_body_angular_velocity(b->sw.world, b->sw.ids[i]);
        q[0] = rg_body_orientation(a->sw.world, a->sw.ids[i]);
        q[1] = rg_body_orientation(b->sw.world, b->sw.ids[i]);
        if (memcmp(&p[0].x, &p[1].x, 3 * sizeof(rg_real)) != 0 || memcmp(&p[2].x, &p[3].x, 3 * sizeof(rg_real)) != 0 ||
            memcmp(&p[4].x, &p[5].x, 3 * sizeof(rg_real)) != 0 || memcmp(&q[0], &q[1], sizeof q[0]) != 0)
            return 0;
    }
    return 1;
}

/* A scene's run; with --workers N (N > 1) a second world of the scene with a pool of N workers,
   stepped in turns of 10 steps with the first so that both see the same load on the machine.
   The outcome is the first world's. */
static void run_scene(const char *name, const options *o) {
    scene s;
    scene_run runs[2], *r = &runs[0];
    double top_start[3] = {0, 0, 0}, start_time;
    double max_depth = 0, top_drift, lowest = 0, highest = 0;
    rg_vec3 *start;
    int i, step, steps, fallen = 0, top = 0, dynamic = 0, finite = 1, sunk = 0, inside = 0, at_rest = 0, measured = 0;
    int run_count = o->workers > 1 ? 2 : 1, ok;
    long steady_allocations = 0;
    if (!scene_build(&s, name)) {
        printf("unknown scene %s\n", name);
        return;
    }
    steps = o->steps > 0 ? o->steps : s.steps;
    ok = run_start(&runs[0], &s, o, 1, steps);
    if (run_count == 2) ok = run_start(&runs[1], &s, o, o->workers, steps) && ok;
    if (!ok) {
        printf("%s: could not build\n", name);
        for (i = 0; i < run_count; ++i) run_end(&runs[i]);
        scene_free(&s);
        return;
    }
    start = (rg_vec3 *)malloc(sizeof(rg_vec3) * (size_t)s.count);
    for (i = 0; i < s.count; ++i) {
        start[i] = rg_body_position(r->sw.world, r->sw.ids[i]);
        if (!s.boxes[i].is_static) {
            if (s.boxes[i].position[1] > s.boxes[top].position[1] || s.boxes[top].is_static) top = i;
        }
    }
    dynamic = scene_dynamic_count(&s);
    top_start[0] = start[top].x; top_start[1] = start[top].y; top_start[2] = start[top].z;
    start_time = now_seconds();
    for (step = 0; step < steps; step += 10) {
        int to = step + 10 < steps ? step + 10 : steps;
        if (step <= steps / 2 && steps / 2 < to) {
            /* the allocations of the last half: the steps up to the half first */
            for (i = 0; i < run_count; ++i) run_steps(&runs[i], &s, step, steps / 2);
            allocations = 0;
            for (i = 0; i < run_count; ++i) run_steps(&runs[i], &s, steps / 2, to);
            continue;
        }
        for (i = 0; i < run_count; ++i) run_steps(&runs[i], &s, step, to);
    }
    steady_allocations = allocations;
    for (i = 0; i < s.count; ++i) {
        rg_vec3 x = rg_body_position(r->sw.world, r->sw.ids[i]);
        double dx, dy, dz;
        if (s.boxes[i].is_static) continue;
        if (!rg_v3_is_finite(x)) finite = 0;
        dx = x.x - start[i].x; dy = x.y - start[i].y; dz = x.z - start[i].z;
        if (dx * dx + dy * dy + dz * dz > 0.25) ++fallen;
        /* as tools/bench.c: inside rain's walls (inner faces at |x|, |z| = 6), at rest below
           0.1 m/s, sunk below the ground's top (y = 0) */
        if (x.y < 0) ++sunk;
        if (fabs(x.x) < 6 && fabs(x.z) < 6 && x.y > 0) {
            ++inside;
            if (rg_v3_length(rg_body_linear_velocity(r->sw.world, r->sw.ids[i])) < (rg_real)0.1) ++at_rest;
        }
        if (measured == 0 || x.y < lowest) lowest = x.y;
        if (measured == 0 || x.y > highest) highest = x.y;
        ++measured;
    }
    {
        int count = rg_world_contacts(r->sw.world, NULL, 0);
        rg_contact *c = (rg_contact *)malloc(sizeof(rg_contact) * (size_t)(count + 1));
        rg_world_contacts(r->sw.world, c, count);
        for (i = 0; i < count; ++i) if (c[i].depth > max_depth) max_depth = c[i].depth;
        free(c);
    }
    {
        rg_vec3 x = rg_body_position(r->sw.world, r->sw.ids[top]);
        double dx = x.x - top_start[0], dy = x.y - top_start[1], dz = x.z - top_start[2];
        top_drift = sqrt(dx * dx + dy * dy + dz * dz);
    }
    printf("%-14s %5d bodies %5d steps  %8.3f ms/step (median; mean %.3f)  total %.1f s\n", name, dynamic, steps,
           median(r->step_times, steps) * 1e3, r->seconds / steps * 1e3, now_seconds() - start_time);
    printf("   phases ms/step: broad %.3f  narrow %.3f  collision %.3f  contact %.3f  shock %.3f  integration %.3f\n",
           r->phase[0] / steps * 1e3, r->phase[1] / steps * 1e3, r->phase[2] / steps * 1e3, r->phase[3] / steps * 1e3,
           r->phase[4] / steps * 1e3, r->phase[5] / steps * 1e3);
    printf("   per step: %.0f pairs, %.0f contacts, iterations: collision %.2f  contact %.2f  shock %.2f\n",
           r->pairs / steps, r->contacts / steps, r->collision_iterations / steps, r->contact_iterations / steps,
           r->shock_iterations / steps);
    printf("   outcome: %d of %d cubes > 0.5 m from start, top cube moved %.4f m (y %+.4f), deepest contact %.2f mm%s;"
           " allocations in the last %d steps: %ld\n",
           fallen, dynamic, top_drift, rg_body_position(r->sw.world, r->sw.ids[top]).y - top_start[1], max_depth * 1e3,
           finite ? "" : ", NaN!", steps - steps / 2, steady_allocations);
    if (strcmp(s.name, "balls") == 0)
        printf("   balls: %d of %d spheres in the walls, %d of them at rest (< 0.1 m/s), %d sunk, highest centre y %.3f\n",
               inside, dynamic, at_rest, sunk, highest);
    if (s.mesh_triangle_count > 0)
        printf("   mesh (%d triangles): %d of %d cubes below its surface (fell through), lowest centre y %.3f\n",
               s.mesh_triangle_count, sunk, dynamic, lowest);
    if (run_count == 2) {
        /* medians of the same steps, stepped in turns */
        double one, many;
        print_times(&runs[0], steps);
        print_times(&runs[1], steps);
        one = median(runs[0].step_times, steps);
        many = median(runs[1].step_times, steps);
        long ranges = 0;
        for (i = 0; i < o->workers; ++i) ranges += runs[1].pool.ranges[i];
        printf("   %d workers: %.2f times as fast as 1 (medians), %.2f (totals); same state as 1 worker: %s;"
               " %lu tasks in %ld ranges, %.0f%% of them run by the stepping thread\n",
               o->workers, many > 0 ? one / many : 0, runs[1].seconds > 0 ? runs[0].seconds / runs[1].seconds : 0,
               same_state(&runs[0], &runs[1], s.count) ? "yes" : "NO", runs[1].pool.enqueued, ranges,
               ranges > 0 ? 100.0 * (double)runs[1].pool.ranges[0] / (double)ranges : 0);
    }
    fflush(stdout);
    free(start);
    for (i = 0; i < run_count; ++i) run_end(&runs[i]);
    scene_free(&s);
}

int main(int argc, char **argv) {
    options o;
    const char *names[16];
    int count = 0, i;
    o.steps = 0; o.warm = -1; o.contact_iterations = -1; o.shock_iterations = -1; o.collision_iterations = -1;
    o.tolerance = 0;
    o.seed = -1;
    o.workers = 1;
    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) o.steps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--warm") == 0 && i + 1 < argc) o.warm = atoi(argv[++i]);
        else if (strcmp(argv[i], "--contact-iterations") == 0 && i + 1 < argc) o.contact_iterations = atoi(argv[++i]);
        else if (strcmp(argv[i], "--shock-iterations") == 0 && i + 1 < argc) o.shock_iterations = atoi(argv[++i]);
        else if (strcmp(argv[i], "--collision-iterations") == 0 && i + 1 < argc) o.collision_iterations = atoi(argv[++i]);
        else if (strcmp(argv[i], "--tolerance") == 0 && i + 1 < argc) o.tolerance = atof(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) o.seed = atol(argv[++i]);
        else if (strcmp(argv[i], "--workers") == 0 && i + 1 < argc) o.workers = atoi(argv[++i]);
        else if (count < 16) names[count++] = argv[i];
    }
    printf("rigid.h %s scenes bench (%s precision)\n", RIGID_VERSION_STRING, sizeof(rg_real) == 8 ? "double" : "single");
    if (count == 0) {
        static const char *defaults[] = {"stack", "pyramid", "rain", "funnel", "large-pyramid", "balls", "mesh-rain"};
        for (i = 0; i < 7; ++i) run_scene(defaults[i], &o);
    } else {
        for (i = 0; i < count; ++i) run_scene(names[i], &o);
    }
    return 0;
}
