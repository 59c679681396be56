/* Test harness for rigid.h: one binary, suites of tests, a name filter, checks that print the
   measured value. The last line of a run is "N passed, N failed". */
#ifndef RG_TEST_H
#define RG_TEST_H

#include <math.h>
#include <stdio.h>
#include "rigid.h"

#ifdef __cplusplus
extern "C" {
#endif

int  rg_test_begin(const char *name);   /* 1 when the test passes the filter and should run */
void rg_test_end(void);
void rg_test_fail(const char *file, int line, const char *message, double value, double expected,
                  double tolerance);
void rg_test_note(const char *format, ...); /* a measured figure, printed with the test's name */
double rg_test_random(void);                /* uniform in [0, 1), deterministic sequence */
void   rg_test_seed(unsigned long long seed);
double rg_test_uniform(double lo, double hi);
rg_vec3 rg_test_unit_vector(void);        /* uniform on the sphere */
rg_quat rg_test_rotation(void);           /* a uniform axis, an angle uniform in [0, 2 pi) */

/* Shared by the bad-input and solver tests */
rg_body_id add_ground(rg_world *w, const rg_hull *ground); /* a static box whose top face is y = 0 */
int body_is_finite(const rg_world *w, rg_body_id id);      /* pose and velocities all finite */

/* Shared by the collision tests */
rg_convex_shape test_sphere_shape(rg_vec3 center, double radius);
rg_convex_shape test_capsule_shape(rg_vec3 a, rg_vec3 b, double radius);
rg_convex_shape test_hull_shape(const rg_hull *h, rg_vec3 position, rg_quat orientation);
rg_hull *test_prism_hull(int n, double r, double height); /* regular n-gon (n <= 64) of circumradius r, y from 0 to height */

#ifdef __cplusplus
}
#endif

#define RUN_TEST(fn) do { if (rg_test_begin(#fn)) { fn(); rg_test_end(); } } while (0)

#define ENSURE(cond) do { if (!(cond)) { \
    rg_test_fail(__FILE__, __LINE__, "ENSURE(" #cond ")", 0, 0, -1); return; } } while (0)

/* |x - expected| <= tolerance, printing the measured value on failure */
#define ENSURE_NEAR(x, expected, tolerance) do { \
    double rg_x_ = (double)(x), rg_e_ = (double)(expected), rg_t_ = (double)(tolerance); \
    if (!(fabs(rg_x_ - rg_e_) <= rg_t_)) { \
        rg_test_fail(__FILE__, __LINE__, #x, rg_x_, rg_e_, rg_t_); return; } } while (0)

/* |x - expected| <= tolerance * |expected| */
#define ENSURE_REL(x, expected, tolerance) \
    ENSURE_NEAR(x, expected, fabs((double)(expected)) * (double)(tolerance))

#define ENSURE_V3_NEAR(a, b, tolerance) do { rg_vec3 rg_a_ = (a), rg_b_ = (b); \
    ENSURE_NEAR(rg_a_.x, rg_b_.x, tolerance); ENSURE_NEAR(rg_a_.y, rg_b_.y, tolerance); \
    ENSURE_NEAR(rg_a_.z, rg_b_.z, tolerance); } while (0)

/* Tolerance for values of order one computed in rg_real arithmetic */
#ifdef RIGID_DOUBLE
#define RG_TEST_EPS 1e-12
#else
#define RG_TEST_EPS 2e-6
#endif

#endif
