/* Closed forms the tests compare the simulation with, shared by the test files that need them. */
#ifndef RG_TEST_ANALYTIC_H
#define RG_TEST_ANALYTIC_H

#include <math.h>

/* K(k) = pi / (2 AGM(1, sqrt(1 - k^2))), the complete elliptic integral of the first kind. */
static double rg_analytic_elliptic_k(double k) {
    double a = 1, b = sqrt(1 - k * k);
    int i;
    for (i = 0; i < 40 && fabs(a - b) > 1e-15 * a; ++i) {
        double m = (a + b) / 2;
        b = sqrt(a * b);
        a = m;
    }
    return 3.14159265358979323846 / (2 * a);
}

/* The period of a physical pendulum, I theta'' = -m g L sin(theta), released at rest from theta0:
   T = 4 sqrt(I_pivot / (m g L)) K(sin(theta0 / 2)), 2 pi sqrt(I_pivot / (m g L)) for small swings. */
static double rg_analytic_pendulum_period(double pivot_inertia, double mass, double g, double length, double theta0) {
    return 4 * sqrt(pivot_inertia / (mass * g * length)) * rg_analytic_elliptic_k(sin(theta0 / 2));
}

#endif
