/* `make bench`: the scenes of docs/scenes.md in rigid.h. For each scene: ms per step (the
   median of whole steps) split by phase (broad, narrow, collision, contact, shock, integration),
   the iterations the solver used, contacts per step, and the outcome (cubes that ended more
   than 0.5 m from their start, how far the top cube moved; for `balls` the spheres inside the
   walls and at rest, for `mesh-rain` the cubes that fell through the mesh and the lowest centre,
   as tools/bench.c counts them for the peers). Timings are printed, never asserted.

   Usage: bench_scenes [scene ...] [--steps N] [--warm 0|1] [--contact-iterations N]
                       [--shock-iterations N] [--collision-iterations N] [--tolerance T] [--seed S]
   Without scene names it runs stack, pyramid, rain, funnel, large-pyramid, balls and mesh-rain;
   funnel-bender and rain-10k run when named. A custom allocator counts allocations in the last half of the run:
   a steady-state step should make none. */
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

#include <math.h>

typedef struct options {
    int steps, warm, contact_iterations, shock_iterations, collision_iterations;
    double tolerance;
    long seed;                    /* the world's random_seed (Guendelman's order mixing), -1 for the default */
} options;

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *values, int n) {
    qsort(values, (size_t)n, sizeof *values, compare_doubles);
    return n ? values[n / 2] : 0;
}

static void run_scene(const char *name, const options *o) {
    scene s;
    scene_world sw;
    rg_world_def wd = rg_world_default_def();
    double *step_times, phase[6] = {0, 0, 0, 0, 0, 0}, top_start[3] = {0, 0, 0}, start_time;
    double collision_iterations = 0, contact_iterations = 0, shock_iterations = 0, contacts = 0, pairs = 0;
    double max_depth = 0, top_drift, lowest = 0, highest = 0;
    rg_vec3 *start;
    int i, step, steps, fallen = 0, top = 0, dynamic = 0, finite = 1, sunk = 0, inside = 0, at_rest = 0, measured = 0;
    long steady_allocations = 0;
    if (!scene_build(&s, name)) {
        printf("unknown scene %s\n", name);
        return;
    }
    if (o->warm >= 0) wd.warm_starting = o->warm;
    if (o->contact_iterations >= 0) wd.contact_iterations = o->contact_iterations;
    if (o->shock_iterations >= 0) wd.shock_iterations = o->shock_iterations;
    if (o->collision_iterations >= 0) wd.collision_iterations = o->collision_iterations;
    if (o->tolerance > 0) wd.contact_tolerance = (rg_real)o->tolerance;
    if (o->seed >= 0) wd.random_seed = (uint32_t)o->seed;
    if (!scene_create_world(&s, &wd, &sw)) {
        printf("%s: could not build\n", name);
        scene_destroy_world(&sw);
        scene_free(&s);
        return;
    }
    steps = o->steps > 0 ? o->steps : s.steps;
    start = (rg_vec3 *)malloc(sizeof(rg_vec3) * (size_t)s.count);
    step_times = (double *)malloc(sizeof(double) * (size_t)steps);
    for (i = 0; i < s.count; ++i) {
        start[i] = rg_body_position(sw.world, sw.ids[i]);
        if (!s.boxes[i].is_static) {
            if (s.boxes[i].position[1] > s.boxes[top].position[1] || s.boxes[top].is_static) top = i;
        }
    }
    dynamic = scene_dynamic_count(&s);
    top_start[0] = start[top].x; top_start[1] = start[top].y; top_start[2] = start[top].z;
    start_time = now_seconds();
    for (step = 0; step < steps; ++step) {
        double t0 = now_seconds();
        rg_world_stats st;
        if (step == steps / 2) allocations = 0;
        rg_world_step(sw.world, (rg_real)s.dt);
        step_times[step] = now_seconds() - t0;
        st = rg_world_get_stats(sw.world);
        phase[0] += st.seconds_broadphase;
        phase[1] += st.seconds_narrowphase;
        phase[2] += st.seconds_collision;
        phase[3] += st.seconds_contact;
        phase[4] += st.seconds_shock;
        phase[5] += st.seconds_integration;
        collision_iterations += st.collision_iterations;
        contact_iterations += st.contact_iterations;
        shock_iterations += st.shock_iterations;
        contacts += st.contact_count;
        pairs += st.pair_count;
    }
    steady_allocations = allocations;
    for (i = 0; i < s.count; ++i) {
        rg_vec3 x = rg_body_position(sw.world, sw.ids[i]);
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
            if (rg_v3_length(rg_body_linear_velocity(sw.world, sw.ids[i])) < (rg_real)0.1) ++at_rest;
        }
        if (measured == 0 || x.y < lowest) lowest = x.y;
        if (measured == 0 || x.y > highest) highest = x.y;
        ++measured;
    }
    {
        int count = rg_world_contacts(sw.world, NULL, 0);
        rg_contact *c = (rg_contact *)malloc(sizeof(rg_contact) * (size_t)(count + 1));
        rg_world_contacts(sw.world, c, count);
        for (i = 0; i < count; ++i) if (c[i].depth > max_depth) max_depth = c[i].depth;
        free(c);
    }
    {
        rg_vec3 x = rg_body_position(sw.world, sw.ids[top]);
        double dx = x.x - top_start[0], dy = x.y - top_start[1], dz = x.z - top_start[2];
        top_drift = sqrt(dx * dx + dy * dy + dz * dz);
    }
    printf("%-14s %5d bodies %5d steps  %8.3f ms/step (median; mean %.3f)  total %.1f s\n", name, dynamic, steps,
           median(step_times, steps) * 1e3, (now_seconds() - start_time) / steps * 1e3, now_seconds() - start_time);
    printf("   phases ms/step: broad %.3f  narrow %.3f  collision %.3f  contact %.3f  shock %.3f  integration %.3f\n",
           phase[0] / steps * 1e3, phase[1] / steps * 1e3, phase[2] / steps * 1e3, phase[3] / steps * 1e3,
           phase[4] / steps * 1e3, phase[5] / steps * 1e3);
    printf("   per step: %.0f pairs, %.0f contacts, iterations: collision %.2f  contact %.2f  shock %.2f\n",
           pairs / steps, contacts / steps, collision_iterations / steps, contact_iterations / steps,
           shock_iterations / steps);
    printf("   outcome: %d of %d cubes > 0.5 m from start, top cube moved %.4f m (y %+.4f), deepest contact %.2f mm%s;"
           " allocations in the last %d steps: %ld\n",
           fallen, dynamic, top_drift, rg_body_position(sw.world, sw.ids[top]).y - top_start[1], max_depth * 1e3,
           finite ? "" : ", NaN!", steps - steps / 2, steady_allocations);
    if (strcmp(s.name, "balls") == 0)
        printf("   balls: %d of %d spheres in the walls, %d of them at rest (< 0.1 m/s), %d sunk, highest centre y %.3f\n",
               inside, dynamic, at_rest, sunk, highest);
    if (s.mesh_triangle_count > 0)
        printf("   mesh (%d triangles): %d of %d cubes below its surface (fell through), lowest centre y %.3f\n",
               s.mesh_triangle_count, sunk, dynamic, lowest);
    fflush(stdout);
    free(start);
    free(step_times);
    scene_destroy_world(&sw);
    scene_free(&s);
}

int main(int argc, char **argv) {
    options o;
    const char *names[16];
    int count = 0, i;
    o.steps = 0; o.warm = -1; o.contact_iterations = -1; o.shock_iterations = -1; o.collision_iterations = -1;
    o.tolerance = 0;
    o.seed = -1;
    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) o.steps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--warm") == 0 && i + 1 < argc) o.warm = atoi(argv[++i]);
        else if (strcmp(argv[i], "--contact-iterations") == 0 && i + 1 < argc) o.contact_iterations = atoi(argv[++i]);
        else if (strcmp(argv[i], "--shock-iterations") == 0 && i + 1 < argc) o.shock_iterations = atoi(argv[++i]);
        else if (strcmp(argv[i], "--collision-iterations") == 0 && i + 1 < argc) o.collision_iterations = atoi(argv[++i]);
        else if (strcmp(argv[i], "--tolerance") == 0 && i + 1 < argc) o.tolerance = atof(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) o.seed = atol(argv[++i]);
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
