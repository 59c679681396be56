/* clock.h: the benchmarks' clock, wall-clock seconds from CLOCK_MONOTONIC (POSIX clock_gettime:
   build with _POSIX_C_SOURCE 199309L or later, as the Makefile's bench rules do), and the median
   of their timings. Header-only, static. tools/peers/peers.h has its own clock (process CPU time
   and wall time side by side). */
#ifndef RIGID_CLOCK_H
#define RIGID_CLOCK_H

#include <stdlib.h>
#include <time.h>

static inline double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int clock__compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of n timings (the upper one of an even count), sorting them in place; 0 for none. */
static inline double median(double *values, int n) {
    qsort(values, (size_t)n, sizeof *values, clock__compare);
    return n ? values[n / 2] : 0;
}

#endif
