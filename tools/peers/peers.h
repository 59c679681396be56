/* The interface between the benchmark driver (tools/bench.c) and the engines it compares.

   Every engine builds a scene of examples/scenes.h (described once, as data), steps it, and
   hands back the final poses; tools/bench.c turns the measurements into medians, ratios and the
   stability outcome, the same way for every engine. The driver steps the engines' worlds in
   alternating blocks of a few steps, so that a load that comes and goes on a shared machine
   slows all of them alike. The peer code (bullet_scenes.cpp, ode_scenes.c) is ours, written
   against the public APIs of Bullet 3.24 and ODE 0.16 with the settings of
   ../shared/scenes.md. C99 and C++. */
#ifndef RIGID_PEERS_H
#define RIGID_PEERS_H

#include <time.h>

#include "examples/scenes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each engine: create builds the scene (NULL and *error set on failure); step takes one step
   of s->dt and returns its wall time in milliseconds, timing the engine's own step call(s)
   only, and writes the contact points the step used; finish writes the centre and linear
   velocity of every box (3 doubles each, static boxes too) and frees the world. */
void *bullet_create(const scene *s, const char **error);
double bullet_step(void *world, const scene *s, int *contacts);
void bullet_finish(void *world, const scene *s, double *position, double *velocity);

void *ode_create(const scene *s, const char **error);
double ode_step(void *world, const scene *s, int *contacts);
void ode_finish(void *world, const scene *s, double *position, double *velocity);

#ifdef __cplusplus
}
#endif

/* Monotonic wall clock in seconds (POSIX clock_gettime). */
static inline double peers_now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
