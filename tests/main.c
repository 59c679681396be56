/* The test runner: compiles the implementation and runs every suite. Usage: rigid_tests [filter]
   runs the tests whose name contains filter. */
#define RIGID_IMPLEMENTATION
#include "rigid.h"
#include "test.h"
#include "tools/random.h"

#include <stdarg.h>
#include <string.h>

static int tests_passed, tests_failed, current_failed;
static const char *filter, *current_name;
static unsigned long long random_state = 0x9e3779b97f4a7c15ull;

int rg_test_begin(const char *name) {
    if (filter && !strstr(name, filter)) return 0;
    current_name = name;
    current_failed = 0;
    return 1;
}

void rg_test_end(void) {
    if (current_failed) ++tests_failed; else ++tests_passed;
    printf("%s %s\n", current_failed ? "FAIL" : "ok  ", current_name);
    fflush(stdout);
}

void rg_test_fail(const char *file, int line, const char *message, double value, double expected,
                  double tolerance) {
    current_failed = 1;
    if (tolerance < 0)
        printf("  %s:%d: %s failed\n", file, line, message);
    else
        printf("  %s:%d: %s = %.9g, expected %.9g within %.3g\n", file, line, message, value,
               expected, tolerance);
}

void rg_test_note(const char *format, ...) {
    va_list args;
    printf("  %s: ", current_name);
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    printf("\n");
}

void rg_test_seed(unsigned long long seed) { random_state = seed * 2654435761ull + 1; }

/* xorshift64*: a fixed sequence, the same on every compiler */
double rg_test_random(void) { return random_xorshift(&random_state); }

double rg_test_uniform(double lo, double hi) { return lo + (hi - lo) * rg_test_random(); }

rg_vec3 rg_test_unit_vector(void) {
    for (;;) {
        double x = rg_test_uniform(-1, 1), y = rg_test_uniform(-1, 1), z = rg_test_uniform(-1, 1);
        double l = sqrt(x * x + y * y + z * z);
        if (l > 0.1 && l <= 1) return rg_v3((rg_real)(x / l), (rg_real)(y / l), (rg_real)(z / l));
    }
}

rg_quat rg_test_rotation(void) {
    rg_vec3 axis = rg_test_unit_vector();
    double angle = rg_test_uniform(0, 2 * 3.14159265358979324);
    return rg_quat_from_axis_angle(axis, (rg_real)angle);
}

rg_body_id add_ground(rg_world *w, const rg_hull *ground) {
    rg_body_def bd = rg_body_default_def();
    bd.type = RG_BODY_STATIC;
    bd.hull = ground;
    bd.position = rg_v3(0, -0.5f, 0);
    return rg_body_create(w, &bd, NULL);
}

int body_is_finite(const rg_world *w, rg_body_id id) {
    return rg_v3_is_finite(rg_body_position(w, id)) && rg_quat_is_finite(rg_body_orientation(w, id)) &&
           rg_v3_is_finite(rg_body_linear_velocity(w, id)) && rg_v3_is_finite(rg_body_angular_velocity(w, id));
}

rg_convex_shape test_sphere_shape(rg_vec3 center, double radius) {
    rg_convex_shape s;
    memset(&s, 0, sizeof s);
    s.type = RG_SHAPE_SPHERE;
    s.center_a = s.center_b = center;
    s.radius = (rg_real)radius;
    s.orientation = rg_quat_identity();
    return s;
}

rg_convex_shape test_capsule_shape(rg_vec3 a, rg_vec3 b, double radius) {
    rg_convex_shape s = test_sphere_shape(a, radius);
    s.type = RG_SHAPE_CAPSULE;
    s.center_b = b;
    return s;
}

rg_convex_shape test_hull_shape(const rg_hull *h, rg_vec3 position, rg_quat orientation) {
    rg_convex_shape s;
    memset(&s, 0, sizeof s);
    s.type = RG_SHAPE_HULL;
    s.hull = h;
    s.position = position;
    s.orientation = orientation;
    return s;
}

rg_hull *test_prism_hull(int n, double r, double height) {
    rg_vec3 v[128];
    int sizes[66], faces[4 * 64 + 2 * 64], i, k = 0;
    if (n > 64) return NULL;
    for (i = 0; i < n; ++i) {
        double angle = 2 * 3.14159265358979324 * i / n;
        v[i] = rg_v3((rg_real)(r * cos(angle)), 0, (rg_real)(r * sin(angle)));
        v[n + i] = rg_v3((rg_real)(r * cos(angle)), (rg_real)height, (rg_real)(r * sin(angle)));
    }
    /* bottom (counter-clockwise seen from below: increasing angle), top, then the sides */
    sizes[0] = n;
    for (i = 0; i < n; ++i) faces[k++] = i;
    sizes[1] = n;
    for (i = 0; i < n; ++i) faces[k++] = 2 * n - 1 - i;
    for (i = 0; i < n; ++i) {
        sizes[2 + i] = 4;
        faces[k++] = i;
        faces[k++] = n + i;
        faces[k++] = n + (i + 1) % n;
        faces[k++] = (i + 1) % n;
    }
    return rg_hull_create_polyhedron(v, 2 * n, sizes, n + 2, faces, NULL);
}

void rg_tests_math(void);
void rg_tests_hull(void);
void rg_tests_body(void);
void rg_tests_api(void);
void rg_tests_quickhull(void);
void rg_tests_collide(void);
void rg_tests_broadphase(void);
void rg_tests_solver(void);
void rg_tests_bad_input(void);
void rg_tests_shapes(void);
void rg_tests_shapes_collide(void);
void rg_tests_mesh(void);
void rg_tests_triangle(void);
void rg_tests_draw(void);
void rg_tests_cast(void);
void rg_tests_controls(void);
void rg_tests_events(void);
void rg_tests_query(void);
void rg_tests_fidelity(void);
void rg_tests_patch_radius(void);
void rg_tests_impact(void);
void rg_tests_threads(void);
void rg_tests_joints(void);
void rg_tests_joint_solver(void);
void rg_tests_joint_slider(void);
void rg_tests_sleep(void);
void rg_tests_snapshot(void);

int main(int argc, char **argv) {
    filter = argc > 1 ? argv[1] : NULL;
#ifdef RIGID_DOUBLE
    printf("rigid.h %s tests, double precision\n", RIGID_VERSION_STRING);
#else
    printf("rigid.h %s tests, single precision\n", RIGID_VERSION_STRING);
#endif
    rg_tests_math();
    rg_tests_hull();
    rg_tests_body();
    rg_tests_api();
    rg_tests_quickhull();
    rg_tests_collide();
    rg_tests_broadphase();
    rg_tests_solver();
    rg_tests_bad_input();
    rg_tests_shapes();
    rg_tests_shapes_collide();
    rg_tests_mesh();
    rg_tests_triangle();
    rg_tests_draw();
    rg_tests_cast();
    rg_tests_controls();
    rg_tests_events();
    rg_tests_query();
    rg_tests_fidelity();
    rg_tests_patch_radius();
    rg_tests_impact();
    rg_tests_threads();
    rg_tests_joints();
    rg_tests_joint_solver();
    rg_tests_joint_slider();
    rg_tests_sleep();
    rg_tests_snapshot();
    printf("%d passed, %d failed\n", tests_passed, tests_failed);
    return tests_failed != 0;
}
