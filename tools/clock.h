/* clock.h: the benchmarks' clock, wall-clock seconds from CLOCK_MONOTONIC (POSIX clock_gettime:
   build with _POSIX_C_SOURCE 199309L or later, as the Makefile's bench rules do). Header-only,
   static. tools/peers/peers.h has its own clock (process CPU time and wall time side by side). */
#ifndef RIGID_CLOCK_H
#define RIGID_CLOCK_H

#include <time.h>

static inline double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
