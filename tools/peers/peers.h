/* The interface between the benchmark driver (tools/bench.c) and the engines it compares.

   Every engine builds a scene of examples/scenes.h (described once, as data), steps it, and
   hands back the final poses; tools/bench.c turns the measurements into medians, ratios and the
   stability outcome, the same way for every engine. The driver steps the engines' worlds in
   alternating blocks of a few steps, so that a load that comes and goes on a shared machine
   slows all of them alike. The peer code (bullet_scenes.cpp, ode_scenes.c, box3d_scenes.c) is
   ours, written against the public APIs of Bullet 3.24, ODE 0.16 and Box3D 0.1 with the settings
   of docs/scenes.md. C99 and C++. */
#ifndef RIGID_PEERS_H
#define RIGID_PEERS_H

#include <time.h>

#include "examples/scenes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one step cost: the process's CPU time (all threads; it does not advance while other
   programs have the core, so it is the figure to trust on a shared machine) and the wall time,
   both in milliseconds, around the engine's own step call(s) only. */
typedef struct step_time { double cpu_ms, wall_ms; } step_time;

/* Each engine: create builds the scene, its joints included (NULL and *error set on failure,
   also for a scene the engine cannot build); step takes one step of s->dt, and writes the
   contact points the step used; finish writes the centre and linear velocity of every box (3
   doubles each, static boxes too) and its orientation (a unit quaternion x, y, z, w: 4 doubles
   each) and frees the world. */
void *bullet_create(const scene *s, const char **error);
step_time bullet_step(void *world, const scene *s, int *contacts);
void bullet_finish(void *world, const scene *s, double *position, double *velocity, double *rotation);

void *ode_create(const scene *s, const char **error);
step_time ode_step(void *world, const scene *s, int *contacts);
void ode_finish(void *world, const scene *s, double *position, double *velocity, double *rotation);

/* Box3D: only in `make bench-box3d`'s build (BENCH_BOX3D), against a checkout outside the
   repository */
void *box3d_create(const scene *s, const char **error);
step_time box3d_step(void *world, const scene *s, int *contacts);
void box3d_finish(void *world, const scene *s, double *position, double *velocity, double *rotation);
const char *box3d_description(void); /* version and settings, for the table's heading */

#ifdef __cplusplus
}
#endif

/* A point in time on both clocks (POSIX clock_gettime). */
typedef struct peers_clock { struct timespec cpu, wall; } peers_clock;

static inline peers_clock peers_clock_now(void) {
    peers_clock c;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c.cpu);
    clock_gettime(CLOCK_MONOTONIC, &c.wall);
    return c;
}

static inline double peers__ms(struct timespec a, struct timespec b) {
    return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) * 1e-6;
}

/* The time from start until now. */
static inline step_time peers_elapsed(peers_clock start) {
    peers_clock end = peers_clock_now();
    step_time t;
    t.cpu_ms = peers__ms(start.cpu, end.cpu);
    t.wall_ms = peers__ms(start.wall, end.wall);
    return t;
}

#endif
