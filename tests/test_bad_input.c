/* The bad-input contract: every public function with bad input (NULL, NaN, infinities, absurd
   magnitudes, negative or zero sizes, degenerate shapes, stale ids, dt <= 0), the result code it
   gives, and the world intact and still stepping afterwards; math at the edges of the
   floating-point range; the validation limits (1e15 magnitudes, kinetic energy 1e30, dt <= 1 s)
   tested from the inside too: input the setters accept at their limit keeps the state finite over
   steps of the longest dt. Regression tests (failures found and fixed) are in their module's
   file: test_collide.c, test_solver.c and the others.

   A world that refused a call must be bit-for-bit the world it was: each bad call goes to one
   of two twin worlds, both then step, and their state hashes must be equal (this also catches a
   refused force that was accumulated anyway and would only show in the next step). */
#include "test.h"
#include "tests/programs/state_hash.h"   /* FNV-1a over the bits of a state */

#include <string.h>
#include <stdint.h>
#include <float.h>

#ifdef RIGID_DOUBLE
#define HUGE_REAL 1e200    /* its square overflows rg_real */
#define TINY_REAL 1e-200   /* its square underflows to zero */
#define MAT_BIG 1e110      /* the determinant of diag(MAT_BIG) overflows */
#define MAT_SMALL 1e-110
#else
#define HUGE_REAL 1e30f
#define TINY_REAL 1e-30f
#define MAT_BIG 1e15f
#define MAT_SMALL 1e-15f
#endif

static rg_real nan_real(void) { return (rg_real)NAN; }
static rg_real inf_real(void) { return (rg_real)INFINITY; }
static int is_nan(rg_real x) { return x != x; }
static int v3_has_nan(rg_vec3 v) { return is_nan(v.x) || is_nan(v.y) || is_nan(v.z); }
static int v3_is_zero(rg_vec3 v) { return v.x == 0 && v.y == 0 && v.z == 0; }
static int quat_is_identity(rg_quat q) { return q.x == 0 && q.y == 0 && q.z == 0 && q.w == 1; }
static int quat_is_zero(rg_quat q) { return q.x == 0 && q.y == 0 && q.z == 0 && q.w == 0; }
static int mat3_is_zero(rg_mat3 m) {
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j)
            if (m.m[i][j] != 0) return 0;
    return 1;
}
/* largest |a b - I| entry */
static double identity_error(rg_mat3 a, rg_mat3 b) {
    rg_mat3 p = rg_mat3_mul(a, b);
    double worst = 0;
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            double e = fabs((double)p.m[i][j] - (i == j));
            if (!(e <= worst)) worst = e;   /* NaN counts as the worst */
        }
    return worst;
}

/* ---- state hashes: FNV-1a over the bits of everything a getter shows ---- */

static void hash_body(hash64 *s, const rg_world *w, rg_body_id id) {
    rg_quat q = rg_body_orientation(w, id);
    rg_mat3 inertia = rg_body_inertia(w, id);
    rg_vec3 lo, hi;
    int i;
    hash_real(s, (rg_real)rg_body_is_valid(w, id));
    hash_real(s, (rg_real)rg_body_get_type(w, id));
    hash_vec3(s, rg_body_position(w, id));
    hash_vec3(s, rg_body_center_of_mass(w, id));
    hash_quat(s, q);
    hash_vec3(s, rg_body_linear_velocity(w, id));
    hash_vec3(s, rg_body_angular_velocity(w, id));
    hash_real(s, rg_body_mass(w, id));
    for (i = 0; i < 3; ++i) hash_vec3(s, rg_v3(inertia.m[i][0], inertia.m[i][1], inertia.m[i][2]));
    rg_body_aabb(w, id, &lo, &hi);
    hash_vec3(s, lo);
    hash_vec3(s, hi);
    hash_real(s, rg_body_user_data(w, id) != NULL ? 1 : 0);
}

/* ---- a small world: ground, dynamic boxes, a kinematic paddle ---- */

enum { TWIN_BODIES = 5 };
typedef struct twin {
    rg_world *w;
    rg_body_id ids[TWIN_BODIES];
    rg_body_id stale;
} twin;

static int twin_create(twin *t, const rg_hull *ground, const rg_hull *box) {
    rg_world_def wd = rg_world_default_def();
    rg_body_def bd = rg_body_default_def();
    int i;
    memset(t, 0, sizeof *t);
    t->w = rg_world_create(&wd, NULL);
    if (!t->w) return 0;
    t->ids[0] = add_ground(t->w, ground);
    for (i = 1; i < 4; ++i) {
        bd = rg_body_default_def();
        bd.hull = box;
        bd.position = rg_v3((rg_real)i, (rg_real)(1 + i), 0);
        bd.linear_velocity = rg_v3(0.5f, 0, (rg_real)-i);
        bd.angular_velocity = rg_v3(1, (rg_real)i, 3);
        t->ids[i] = rg_body_create(t->w, &bd, NULL);
    }
    bd = rg_body_default_def();
    bd.type = RG_BODY_KINEMATIC;
    bd.hull = box;
    bd.position = rg_v3(-3, 1, 0);
    bd.linear_velocity = rg_v3(1, 0, 0);
    t->ids[4] = rg_body_create(t->w, &bd, NULL);
    bd = rg_body_default_def();
    bd.hull = box;
    t->stale = rg_body_create(t->w, &bd, NULL);
    rg_body_destroy(t->w, t->stale);
    for (i = 0; i < TWIN_BODIES; ++i)
        if (!rg_body_is_valid(t->w, t->ids[i])) return 0;
    return 1;
}

static uint64_t twin_hash(const twin *t) {
    hash64 s = HASH64_INIT;
    rg_world_stats stats = rg_world_get_stats(t->w);
    rg_vec3 g = rg_world_gravity(t->w);
    int i;
    for (i = 0; i < TWIN_BODIES; ++i) hash_body(&s, t->w, t->ids[i]);
    hash_body(&s, t->w, t->stale);
    hash_vec3(&s, g);
    hash_real(&s, (rg_real)stats.body_count);
    hash_real(&s, (rg_real)stats.pair_count);
    hash_real(&s, (rg_real)rg_world_contacts(t->w, NULL, 0));
    return s.h;
}

static int twin_is_finite(const twin *t) {
    int i;
    for (i = 0; i < TWIN_BODIES; ++i)
        if (!body_is_finite(t->w, t->ids[i])) return 0;
    return 1;
}

/* ============================================================================================ */

static void test_result_strings(void) {
    rg_result codes[5] = {RG_OK, RG_ERR_INVALID_ARGUMENT, RG_ERR_DEGENERATE, RG_ERR_OUT_OF_MEMORY, RG_ERR_STALE_ID};
    int i, j;
    for (i = 0; i < 5; ++i) {
        ENSURE(rg_result_string(codes[i]) != NULL && strlen(rg_result_string(codes[i])) > 0);
        for (j = 0; j < i; ++j) ENSURE(strcmp(rg_result_string(codes[i]), rg_result_string(codes[j])) != 0);
    }
    /* a value that is no code */
    ENSURE(rg_result_string((rg_result)12345) != NULL && strlen(rg_result_string((rg_result)12345)) > 0);
    ENSURE(rg_result_string((rg_result)-1) != NULL);
}

/* Vectors whose squares overflow or underflow: lengths and directions stay right. */
static void test_vector_length_and_direction_at_range_edges(void) {
    rg_real big = (rg_real)HUGE_REAL, tiny = (rg_real)TINY_REAL;
    rg_vec3 u;
    ENSURE_REL(rg_v3_length(rg_v3(3 * big, 4 * big, 0)), 5 * (double)big, 4 * RG_TEST_EPS);
    ENSURE_REL(rg_v3_length(rg_v3(0, -3 * tiny, 4 * tiny)), 5 * (double)tiny, 4 * RG_TEST_EPS);
    u = rg_v3_normalize(rg_v3(big, 0, -big));
    ENSURE_V3_NEAR(u, rg_v3((rg_real)0.70710678118654752, 0, (rg_real)-0.70710678118654752), 4 * RG_TEST_EPS);
    u = rg_v3_normalize(rg_v3(tiny, 2 * tiny, 2 * tiny));
    ENSURE_V3_NEAR(u, rg_v3((rg_real)(1.0 / 3), (rg_real)(2.0 / 3), (rg_real)(2.0 / 3)), 4 * RG_TEST_EPS);
    /* the smallest subnormal still has a direction */
    u = rg_v3_normalize(rg_v3(0, 0, -tiny * tiny));
    ENSURE(u.z == -1 || rg_v3_length_squared(u) == 0);
    /* degenerate: zero, NaN and infinite vectors normalise to zero */
    ENSURE(v3_is_zero(rg_v3_normalize(rg_v3(0, 0, 0))));
    ENSURE(v3_is_zero(rg_v3_normalize(rg_v3(nan_real(), 1, 0))));
    ENSURE(v3_is_zero(rg_v3_normalize(rg_v3(inf_real(), 1, 0))));
    ENSURE(rg_v3_length(rg_v3(0, -inf_real(), 1)) == inf_real());
    ENSURE(is_nan(rg_v3_length(rg_v3(nan_real(), inf_real(), 1))));
    ENSURE(rg_v3_length(rg_v3(0, 0, 0)) == 0);
    /* plain vectors keep the plain formula's bits */
    ENSURE(rg_v3_length(rg_v3(1, 2, 2)) == 3);
}

static void test_quaternions_at_range_edges(void) {
    rg_real big = (rg_real)HUGE_REAL, tiny = (rg_real)TINY_REAL;
    rg_quat q;
    q = rg_quat_normalize(rg_quat_from_axis_angle(rg_v3(1, 0, 0), 1));
    q.x *= big; q.y *= big; q.z *= big; q.w *= big;
    q = rg_quat_normalize(q);
    ENSURE_NEAR(rg_quat_dot(q, q), 1, 4 * RG_TEST_EPS);
    ENSURE_NEAR(q.x, sin(0.5), 4 * RG_TEST_EPS);
    q.x = tiny; q.y = 0; q.z = 0; q.w = tiny;
    q = rg_quat_normalize(q);
    ENSURE_NEAR(q.x, sqrt(0.5), 4 * RG_TEST_EPS);
    ENSURE_NEAR(q.w, sqrt(0.5), 4 * RG_TEST_EPS);
    q.x = nan_real(); q.y = 0; q.z = 0; q.w = 1;
    ENSURE(quat_is_identity(rg_quat_normalize(q)));
    q.x = inf_real();
    ENSURE(quat_is_identity(rg_quat_normalize(q)));
    q.x = 0;
    q.w = 0;
    ENSURE(quat_is_identity(rg_quat_normalize(q)));
    /* axis-angle with a degenerate axis is the identity; a huge angle is still a rotation */
    ENSURE(quat_is_identity(rg_quat_from_axis_angle(rg_v3(nan_real(), 0, 0), 1)));
    ENSURE(quat_is_identity(rg_quat_from_axis_angle(rg_v3(inf_real(), 0, 0), 1)));
    ENSURE(quat_is_identity(rg_quat_from_rotation_vector(rg_v3(0, 0, 0))));
    q = rg_quat_from_rotation_vector(rg_v3(big, 0, 0));
    ENSURE(rg_quat_is_finite(q));
    ENSURE_NEAR(rg_quat_dot(q, q), 1, 4 * RG_TEST_EPS);
    q = rg_quat_from_rotation_vector(rg_v3(tiny, 0, 0));
    ENSURE(rg_quat_is_finite(q) && q.w == 1);
}

/* Inverting the inertia of a 0.1 mm cube or a 1 km cube: determinants under- and overflow in
   float, the inverse does not. */
static void test_matrices_at_range_edges(void) {
    rg_real big = (rg_real)MAT_BIG, small = (rg_real)MAT_SMALL;
    rg_mat3 rotation = rg_mat3_from_quat(rg_quat_from_axis_angle(rg_v3(1, 2, 3), 0.7f));
    rg_mat3 m, singular, inverse;
    rg_vec3 x;
    int i;
    for (i = 0; i < 2; ++i) {
        rg_real s = i == 0 ? big : small;
        m = rg_mat3_mul(rg_mat3_mul(rotation, rg_mat3_diagonal(rg_v3(s, 2 * s, 3 * s))), rg_mat3_transpose(rotation));
        inverse = rg_mat3_inverse(m);
        ENSURE(!mat3_is_zero(inverse));
        ENSURE_NEAR(identity_error(m, inverse), 0, 50 * RG_TEST_EPS);
        x = rg_mat3_solve(m, rg_mat3_mul_v3(m, rg_v3(1, -2, 3)));
        ENSURE_V3_NEAR(x, rg_v3(1, -2, 3), 50 * RG_TEST_EPS);
        rg_test_note("scale %g: |m m^-1 - I| = %.2g", (double)s, identity_error(m, inverse));
    }
    /* singular, NaN and infinite matrices: zero */
    singular = rg_mat3_outer(rg_v3(1, 2, 3), rg_v3(4, 5, 6));
    ENSURE(mat3_is_zero(rg_mat3_inverse(singular)));
    ENSURE(v3_is_zero(rg_mat3_solve(singular, rg_v3(1, 1, 1))));
    memset(&m, 0, sizeof m);
    ENSURE(mat3_is_zero(rg_mat3_inverse(m)));
    m = rg_mat3_identity();
    m.m[1][2] = nan_real();
    ENSURE(mat3_is_zero(rg_mat3_inverse(m)) && v3_is_zero(rg_mat3_solve(m, rg_v3(1, 1, 1))));
    m.m[1][2] = inf_real();
    ENSURE(mat3_is_zero(rg_mat3_inverse(m)) && v3_is_zero(rg_mat3_solve(m, rg_v3(1, 1, 1))));
    ENSURE(v3_is_zero(rg_mat3_solve(rg_mat3_identity(), rg_v3(nan_real(), 0, 0))));
}

/* Every other math function takes NaN and infinities without crashing, and NaN comes out. */
static void test_math_functions_take_nan(void) {
    rg_real nan = nan_real(), inf = inf_real();
    rg_vec3 n = rg_v3(nan, 1, 2), f = rg_v3(1, inf, -inf), one = rg_v3(1, 1, 1);
    rg_quat qn = rg_quat_identity(), qf = rg_quat_identity();
    rg_mat3 mn = rg_mat3_identity();
    qn.y = nan;
    qf.z = inf;
    mn.m[2][0] = nan;
    ENSURE(v3_has_nan(rg_v3_add(n, one)) && v3_has_nan(rg_v3_sub(one, n)) && v3_has_nan(rg_v3_neg(n)));
    ENSURE(v3_has_nan(rg_v3_scale(one, nan)) && v3_has_nan(rg_v3_mul(n, one)) && v3_has_nan(rg_v3_madd(one, n, 2)));
    ENSURE(is_nan(rg_v3_dot(n, one)) && v3_has_nan(rg_v3_cross(n, one)) && is_nan(rg_v3_length_squared(n)));
    ENSURE(v3_has_nan(rg_v3_add(f, rg_v3_neg(f))));          /* inf - inf */
    (void)rg_v3_min(n, one);                                 /* NaN ordering is unspecified: no crash */
    (void)rg_v3_max(n, f);
    ENSURE(!rg_v3_is_finite(n) && !rg_v3_is_finite(f) && rg_v3_is_finite(one));
    ENSURE(!rg_quat_is_finite(qn) && !rg_quat_is_finite(qf) && rg_quat_is_finite(rg_quat_identity()));
    ENSURE(!rg_quat_is_finite(rg_quat_mul(qn, rg_quat_identity())));
    ENSURE(v3_has_nan(rg_quat_rotate(qn, one)) && v3_has_nan(rg_quat_rotate_inverse(rg_quat_identity(), n)));
    ENSURE(is_nan(rg_quat_conjugate(qn).y) && is_nan(rg_quat_dot(qn, qn)));
    ENSURE(!rg_quat_is_finite(rg_quat_from_axis_angle(one, nan)));
    ENSURE(!rg_quat_is_finite(rg_quat_from_axis_angle(one, inf)));
    ENSURE(is_nan(rg_mat3_diagonal(n).m[0][0]) && is_nan(rg_mat3_add(mn, rg_mat3_identity()).m[2][0]));
    ENSURE(is_nan(rg_mat3_scale(rg_mat3_identity(), nan).m[1][1]) && is_nan(rg_mat3_mul(mn, mn).m[2][0]));
    ENSURE(v3_has_nan(rg_mat3_mul_v3(mn, one)) && is_nan(rg_mat3_transpose(mn).m[0][2]));
    ENSURE(is_nan(rg_mat3_determinant(mn)) && is_nan(rg_mat3_skew(n).m[2][1]));
    ENSURE(is_nan(rg_mat3_outer(n, one).m[0][0]) && is_nan(rg_mat3_from_quat(qn).m[0][0]));
}

/* rg_hull_create (quickhull, issue 4). Today's stub refuses everything, so only "NULL and a
   failure code" is checked until it builds a cube; then the exact codes are checked too. */
static void test_hull_create_bad_input(void) {
    rg_vec3 cube[8], bad[8], line[8], plane[8], same[8];
    rg_result r;
    rg_hull *h;
    int i, quickhull_works, exact = 0;
    for (i = 0; i < 8; ++i) {
        cube[i] = rg_v3((i & 1) ? 1.0f : -1.0f, (i & 2) ? 1.0f : -1.0f, (i & 4) ? 1.0f : -1.0f);
        line[i] = rg_v3((rg_real)i, 2 * (rg_real)i, -(rg_real)i);
        plane[i] = rg_v3((rg_real)(i % 3), (rg_real)(i / 3), 0);
        same[i] = rg_v3(1, 2, 3);
    }
    h = rg_hull_create(cube, 8, &r);
    quickhull_works = h != NULL && r == RG_OK;
    rg_hull_destroy(h);
#define HULL_REFUSED(points, count, code) do { \
        r = RG_OK; \
        h = rg_hull_create(points, count, &r); \
        if (h) rg_hull_destroy(h); \
        ENSURE(h == NULL && r != RG_OK); \
        if (quickhull_works) { ++exact; ENSURE(r == (code) || (code) == RG_OK); } \
    } while (0)
    HULL_REFUSED(NULL, 8, RG_ERR_INVALID_ARGUMENT);
    HULL_REFUSED(cube, -1, RG_ERR_INVALID_ARGUMENT);
    HULL_REFUSED(cube, 0, RG_OK);    /* INVALID_ARGUMENT or DEGENERATE: the contract leaves it open */
    HULL_REFUSED(cube, 3, RG_OK);
    memcpy(bad, cube, sizeof bad); bad[5].y = nan_real();
    HULL_REFUSED(bad, 8, RG_ERR_INVALID_ARGUMENT);
    memcpy(bad, cube, sizeof bad); bad[0].z = -inf_real();
    HULL_REFUSED(bad, 8, RG_ERR_INVALID_ARGUMENT);
    /* points beyond 1e15 are absurd input (issue 4: they used to be passed on, refused by
       rg_hull_create_polyhedron, retried and reported as degenerate) */
    memcpy(bad, cube, sizeof bad); bad[7].x = 1e30f;
    HULL_REFUSED(bad, 8, RG_ERR_INVALID_ARGUMENT);
    memcpy(bad, cube, sizeof bad); bad[2].z = -2e15f;
    HULL_REFUSED(bad, 8, RG_ERR_INVALID_ARGUMENT);
    memcpy(bad, cube, sizeof bad); bad[1].y = 2e15f;
    HULL_REFUSED(bad, 3, RG_ERR_INVALID_ARGUMENT);   /* checked before the count */
    HULL_REFUSED(line, 8, RG_ERR_DEGENERATE);
    HULL_REFUSED(plane, 8, RG_ERR_DEGENERATE);
    HULL_REFUSED(same, 8, RG_ERR_DEGENERATE);
#undef HULL_REFUSED
    ENSURE(rg_hull_create(NULL, 8, NULL) == NULL);   /* NULL result pointer */
    rg_test_note(quickhull_works ? "quickhull builds hulls: %d exact result codes checked"
                                 : "rg_hull_create builds nothing yet (%d exact codes checked)", exact);
}

static void test_polyhedron_and_box_bad_input(void) {
    static const int tet_faces[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    static const int tet_sizes[4] = {3, 3, 3, 3};
    static const int out_of_range[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 4};
    static const int negative[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, -1};
    static const int repeated[12] = {0, 2, 1, 0, 1, 3, 0, 3, 3, 1, 2, 3};
    static const int twice[12] = {0, 2, 1, 0, 2, 1, 0, 3, 2, 1, 2, 3};
    static const int small_sizes[4] = {3, 3, 2, 4};
    rg_vec3 tet[4], big[4];
    rg_result r;
    rg_hull *h;
    int i, indices[8] = {-7, -7, -7, -7, -7, -7, -7, -7}, v[2] = {-7, -7}, faces[2] = {-7, -7};
    tet[0] = rg_v3(0, 0, 0); tet[1] = rg_v3(1, 0, 0); tet[2] = rg_v3(0, 1, 0); tet[3] = rg_v3(0, 0, 1);
#define POLY_REFUSED(call, code) do { r = RG_OK; h = call; if (h) rg_hull_destroy(h); \
        ENSURE(h == NULL && r == (code)); } while (0)
    POLY_REFUSED(rg_hull_create_polyhedron(tet, 4, NULL, 4, tet_faces, &r), RG_ERR_INVALID_ARGUMENT);
    POLY_REFUSED(rg_hull_create_polyhedron(tet, 4, tet_sizes, 4, NULL, &r), RG_ERR_INVALID_ARGUMENT);
    POLY_REFUSED(rg_hull_create_polyhedron(tet, -4, tet_sizes, 4, tet_faces, &r), RG_ERR_INVALID_ARGUMENT);
    POLY_REFUSED(rg_hull_create_polyhedron(tet, 4, tet_sizes, -1, tet_faces, &r), RG_ERR_INVALID_ARGUMENT);
    POLY_REFUSED(rg_hull_create_polyhedron(tet, 4, tet_sizes, 4, out_of_range, &r), RG_ERR_INVALID_ARGUMENT);
    POLY_REFUSED(rg_hull_create_polyhedron(tet, 4, tet_sizes, 4, negative, &r), RG_ERR_INVALID_ARGUMENT);
    POLY_REFUSED(rg_hull_create_polyhedron(tet, 4, small_sizes, 4, tet_faces, &r), RG_ERR_INVALID_ARGUMENT);
    POLY_REFUSED(rg_hull_create_polyhedron(tet, 4, tet_sizes, 4, repeated, &r), RG_ERR_DEGENERATE);
    POLY_REFUSED(rg_hull_create_polyhedron(tet, 4, tet_sizes, 4, twice, &r), RG_ERR_DEGENERATE);
    for (i = 0; i < 4; ++i) big[i] = rg_v3_scale(tet[i], 2e15f);  /* beyond 1e15 */
    POLY_REFUSED(rg_hull_create_polyhedron(big, 4, tet_sizes, 4, tet_faces, &r), RG_ERR_INVALID_ARGUMENT);
    POLY_REFUSED(rg_hull_create_box(rg_v3(1, 2e15f, 1), &r), RG_ERR_INVALID_ARGUMENT);
    POLY_REFUSED(rg_hull_create_box(rg_v3(1, 1, -inf_real()), &r), RG_ERR_INVALID_ARGUMENT);
#ifndef RIGID_DOUBLE
    /* a float box 2e12 across: volume 8e36 is a float, its inertia is not */
    POLY_REFUSED(rg_hull_create_box(rg_v3(1e12f, 1e12f, 1e12f), &r), RG_ERR_INVALID_ARGUMENT);
#else
    h = rg_hull_create_box(rg_v3(1e12, 1e12, 1e12), &r);
    ENSURE(h != NULL && r == RG_OK && rg_mat3_determinant(rg_hull_inertia(h, 1)) > 0);
    rg_hull_destroy(h);
#endif
#undef POLY_REFUSED
    /* getters with bad indices, capacities and densities */
    h = rg_hull_create_box(rg_v3(1, 2, 3), &r);
    ENSURE(h != NULL);
    ENSURE(v3_is_zero(rg_hull_vertex(h, -1)) && v3_is_zero(rg_hull_vertex(h, 8)) && v3_is_zero(rg_hull_vertex(NULL, 0)));
    ENSURE(rg_hull_face_vertices(h, -1, indices, 8) == 0 && rg_hull_face_vertices(h, 6, indices, 8) == 0);
    ENSURE(rg_hull_face_vertices(h, 0, NULL, 8) == 4 && rg_hull_face_vertices(NULL, 0, indices, 8) == 0);
    ENSURE(rg_hull_face_vertices(h, 0, indices, -3) == 4 && indices[0] == -7);
    ENSURE(rg_hull_face_vertices(h, 0, indices, 2) == 4 && indices[1] >= 0 && indices[2] == -7);
    ENSURE(v3_is_zero(rg_hull_face_normal(h, -1)) && v3_is_zero(rg_hull_face_normal(h, 6)) && v3_is_zero(rg_hull_face_normal(NULL, 0)));
    ENSURE(rg_hull_edge(h, -1, v, faces) == 0 && rg_hull_edge(h, 12, v, faces) == 0 && v[0] == -7 && faces[0] == -7);
    ENSURE(rg_hull_edge(h, 0, NULL, NULL) == 1 && rg_hull_edge(NULL, 0, v, faces) == 0);
    ENSURE(mat3_is_zero(rg_hull_inertia(h, nan_real())) && mat3_is_zero(rg_hull_inertia(h, -1)));
    ENSURE(mat3_is_zero(rg_hull_inertia(h, inf_real())) && !mat3_is_zero(rg_hull_inertia(h, 1)));
    ENSURE(v3_is_zero(rg_hull_centroid(NULL)) && rg_hull_volume(NULL) == 0);
    ENSURE(rg_hull_vertex_count(NULL) == 0 && rg_hull_edge_count(NULL) == 0 && rg_hull_face_count(NULL) == 0);
    rg_hull_destroy(h);
    rg_hull_destroy(NULL);
}

/* rg_collide_hulls and rg_collide_hulls_cached (issue 5): NULL hulls, NULL out and non-finite
   poses give 0 and an empty manifold; an infinite margin too, and a NaN or negative margin means
   touching only (margin 0, as >>collide documents); odd but finite input (zero or unnormalised
   quaternions) gives a manifold that makes sense. */
static void test_collide_hulls_bad_input(void) {
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_vec3 p0 = rg_v3(0, 0, 0), p1 = rg_v3(0, 0.9f, 0), pn = rg_v3(0, nan_real(), 0), pi = rg_v3(inf_real(), 0, 0);
    rg_quat q = rg_quat_identity(), qn = rg_quat_identity(), qi = rg_quat_identity(), zero = rg_quat_identity(), twice;
    rg_manifold m;
    int i, k;
    qn.x = nan_real();
    qi.w = inf_real();
    zero.w = 0;
    twice = rg_quat_from_axis_angle(rg_v3(0, 1, 0), 0.3f);
    twice.x *= 2; twice.y *= 2; twice.z *= 2; twice.w *= 2;
    ENSURE(box != NULL);
#define COLLIDE_EMPTY(call) do { memset(&m, 0x5a, sizeof m); ENSURE((call) == 0); ENSURE(m.count == 0); } while (0)
    COLLIDE_EMPTY(rg_collide_hulls(NULL, p0, q, box, p1, q, 0.02f, &m));
    COLLIDE_EMPTY(rg_collide_hulls(box, p0, q, NULL, p1, q, 0.02f, &m));
    COLLIDE_EMPTY(rg_collide_hulls(box, pn, q, box, p1, q, 0.02f, &m));
    COLLIDE_EMPTY(rg_collide_hulls(box, p0, q, box, pi, q, 0.02f, &m));
    COLLIDE_EMPTY(rg_collide_hulls(box, p0, qn, box, p1, q, 0.02f, &m));
    COLLIDE_EMPTY(rg_collide_hulls(box, p0, q, box, p1, qi, 0.02f, &m));
    COLLIDE_EMPTY(rg_collide_hulls(box, p0, q, box, p1, q, inf_real(), &m));
    COLLIDE_EMPTY(rg_collide_hulls(box, p0, q, box, rg_v3(1e15f, 0, 0), q, 0.02f, &m));
    ENSURE(rg_collide_hulls(box, p0, q, box, p1, q, 0.02f, NULL) == 0);
    ENSURE(rg_collide_hulls(NULL, p0, q, NULL, p1, q, 0.02f, NULL) == 0);
    {
        rg_witness witness;
        memset(&witness, 0, sizeof witness);
        COLLIDE_EMPTY(rg_collide_hulls_cached(NULL, p0, q, box, p1, q, 0.02f, &witness, &m));
        COLLIDE_EMPTY(rg_collide_hulls_cached(box, pn, q, box, p1, q, 0.02f, &witness, &m));
        COLLIDE_EMPTY(rg_collide_hulls_cached(box, p0, q, box, p1, qi, 0.02f, &witness, &m));
        ENSURE(rg_collide_hulls_cached(box, p0, q, box, p1, q, 0.02f, &witness, NULL) == 0);
        ENSURE(rg_collide_hulls_cached(box, p0, q, box, p1, q, 0.02f, NULL, &m) == m.count);
        memset(&witness, 0x5a, sizeof witness);   /* a garbage witness must not be trusted blindly */
        ENSURE(rg_collide_hulls_cached(box, p0, q, box, p1, q, 0.02f, &witness, &m) == m.count);
    }
    {
        /* NaN and negative margins: as margin 0 */
        rg_manifold zero_margin;
        int touching = rg_collide_hulls(box, p0, q, box, p1, q, 0, &zero_margin);
        ENSURE(rg_collide_hulls(box, p0, q, box, p1, q, nan_real(), &m) == touching);
        ENSURE(rg_collide_hulls(box, p0, q, box, p1, q, -1, &m) == touching);
    }
    /* odd but finite: whatever comes out is a proper manifold */
    for (k = 0; k < 3; ++k) {
        rg_quat ra = k == 0 ? zero : k == 1 ? twice : q;
        rg_real margin = k == 2 ? -0.5f : 0.02f;
        int count;
        memset(&m, 0x5a, sizeof m);
        count = rg_collide_hulls(box, p0, ra, box, p1, q, margin, &m);
        ENSURE(count == m.count && count >= 0 && count <= RG_MANIFOLD_MAX);
        if (count > 0) ENSURE_NEAR(rg_v3_length(m.normal), 1, 1e-4);
        for (i = 0; i < count; ++i) ENSURE(rg_v3_is_finite(m.points[i]) && m.depths[i] == m.depths[i]);
    }
#undef COLLIDE_EMPTY
    rg_hull_destroy(box);
}

/* rg_world_create and the world-level calls. */
static void test_world_bad_input(void) {
    rg_world_def def;
    rg_result r;
    rg_world *w;
    rg_contact contacts[4];
    rg_world_stats stats;
#define WORLD_REFUSED(change) do { def = rg_world_default_def(); change; r = RG_OK; \
        w = rg_world_create(&def, &r); if (w) rg_world_destroy(w); \
        ENSURE(w == NULL && r == RG_ERR_INVALID_ARGUMENT); } while (0)
    WORLD_REFUSED(def.gravity.y = nan_real());
    WORLD_REFUSED(def.gravity.x = inf_real());
    WORLD_REFUSED(def.gravity.z = -2e15f);
    WORLD_REFUSED(def.collision_iterations = -1);
    WORLD_REFUSED(def.contact_iterations = -5);
    WORLD_REFUSED(def.shock_iterations = -1);
    WORLD_REFUSED(def.contact_iterations = 1000001);
    WORLD_REFUSED(def.contact_tolerance = -0.001f);
    WORLD_REFUSED(def.contact_tolerance = nan_real());
    WORLD_REFUSED(def.contact_margin = -0.02f);
    WORLD_REFUSED(def.contact_margin = inf_real());
    WORLD_REFUSED(def.contact_margin = 2e15f);
    WORLD_REFUSED(def.cookie = 0);
    WORLD_REFUSED(memset(&def, 0, sizeof def));
#undef WORLD_REFUSED
    r = RG_OK;
    ENSURE(rg_world_create(NULL, &r) == NULL && r == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_world_create(NULL, NULL) == NULL);
    /* the limits themselves are accepted */
    def = rg_world_default_def();
    def.contact_iterations = 1000000;
    def.shock_iterations = 0;
    def.contact_margin = 0;
    def.gravity = rg_v3(0, -1e15f, 0);
    w = rg_world_create(&def, &r);
    ENSURE(w != NULL && r == RG_OK);
    rg_world_destroy(w);
    /* NULL worlds */
    rg_world_destroy(NULL);
    ENSURE(rg_world_step(NULL, 0.01f) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_world_set_gravity(NULL, rg_v3(0, 1, 0)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(v3_is_zero(rg_world_gravity(NULL)));
    ENSURE(rg_world_contacts(NULL, contacts, 4) == 0 && rg_world_contacts(NULL, NULL, -1) == 0);
    stats = rg_world_get_stats(NULL);
    ENSURE(stats.body_count == 0 && stats.pair_count == 0 && stats.contact_count == 0);
}

/* Every body and world call with bad input on one of two twin worlds: the result code, and
   the two worlds still equal after both step. */
static void test_bad_calls_leave_the_world_as_it_was(void) {
    rg_hull *ground = rg_hull_create_box(rg_v3(20, 0.5f, 20), NULL);
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 0.25f, 0.75f), NULL);
    rg_hull *vast = rg_hull_create_box(rg_v3(1e5f, 1e5f, 1e5f), NULL);
    twin a, b;
    rg_world *w;
    rg_body_id dyn, stat, kin, stale, null_id = {0, 0}, out_of_range = {100000, 1}, even = {0, 2};
    rg_body_def bd, bad;
    rg_result r;
    rg_vec3 lo, hi, ok = rg_v3(1, 2, 3);
    rg_real nan = nan_real(), inf = inf_real(), absurd = 2e15f;
    rg_quat zero_q = rg_quat_identity(), nan_q = rg_quat_identity();
    rg_contact contacts[4];
    int i, step, refused = 0;
    zero_q.w = 0;
    nan_q.z = nan;
    ENSURE(ground && box && vast && twin_create(&a, ground, box) && twin_create(&b, ground, box));
    ENSURE(twin_hash(&a) == twin_hash(&b));
    w = a.w;
    stat = a.ids[0]; dyn = a.ids[1]; kin = a.ids[4]; stale = a.stale;
    even.index = stale.index; even.generation = stale.generation + 1;  /* the freed slot's own generation */

    /* body defs */
    bd = rg_body_default_def();
    bd.hull = box;
#define CREATE_REFUSED(change) do { bad = bd; change; r = RG_OK; \
        ENSURE(rg_body_create(w, &bad, &r).generation == 0 && r == RG_ERR_INVALID_ARGUMENT); ++refused; } while (0)
    CREATE_REFUSED(bad.type = (rg_body_type)7);
    CREATE_REFUSED(bad.type = (rg_body_type)-1);
    CREATE_REFUSED(bad.position.z = nan);
    CREATE_REFUSED(bad.position.x = -inf);
    CREATE_REFUSED(bad.position.y = absurd);
    CREATE_REFUSED(bad.orientation = zero_q);
    CREATE_REFUSED(bad.orientation = nan_q);
    CREATE_REFUSED(bad.orientation.w = inf);
    CREATE_REFUSED(bad.linear_velocity.x = nan);
    CREATE_REFUSED(bad.linear_velocity.x = absurd);
    CREATE_REFUSED(bad.angular_velocity.y = -inf);
    CREATE_REFUSED(bad.linear_velocity.x = 1e14f);           /* 375 kg at 1e14 m/s: 2e30 J */
    CREATE_REFUSED(bad.angular_velocity.z = 5e14f);          /* I_z 39 kg m^2: 5e30 J */
    CREATE_REFUSED(bad.density = -1);
    CREATE_REFUSED(bad.density = nan);
    CREATE_REFUSED(bad.density = 0; bad.mass = 0);
    CREATE_REFUSED(bad.density = absurd);
    CREATE_REFUSED(bad.mass = -2);
    CREATE_REFUSED(bad.mass = inf);
    CREATE_REFUSED(bad.restitution = -0.01f);
    CREATE_REFUSED(bad.restitution = 1.01f);
    CREATE_REFUSED(bad.restitution = nan);
    CREATE_REFUSED(bad.static_friction = -1);
    CREATE_REFUSED(bad.dynamic_friction = inf);
    CREATE_REFUSED(bad.rolling_friction = nan);
    CREATE_REFUSED(bad.spinning_friction = -0.5f);
    CREATE_REFUSED(bad.type = RG_BODY_KINEMATIC; bad.linear_velocity.y = nan);
    CREATE_REFUSED(bad.type = RG_BODY_STATIC; bad.position.x = inf);
#ifndef RIGID_DOUBLE
    CREATE_REFUSED(bad.hull = vast; bad.density = 1e15f);     /* 8e30 kg, 200 km across: inertia overflows */
#endif
#undef CREATE_REFUSED
    r = RG_OK;
    ENSURE(rg_body_create(w, NULL, &r).generation == 0 && r == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_create(NULL, &bd, &r).generation == 0 && r == RG_ERR_INVALID_ARGUMENT);

    /* destroy and ids */
    ENSURE(rg_body_destroy(NULL, dyn) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_destroy(w, null_id) == RG_ERR_STALE_ID && rg_body_destroy(w, stale) == RG_ERR_STALE_ID);
    ENSURE(rg_body_destroy(w, out_of_range) == RG_ERR_STALE_ID && rg_body_destroy(w, even) == RG_ERR_STALE_ID);
    ENSURE(!rg_body_is_valid(NULL, dyn) && !rg_body_is_valid(w, null_id) && !rg_body_is_valid(w, stale));
    ENSURE(!rg_body_is_valid(w, out_of_range) && !rg_body_is_valid(w, even) && rg_body_is_valid(w, dyn));

    /* getters on NULL worlds and bad ids: zero */
    for (i = 0; i < 5; ++i) {
        const rg_world *gw = i == 0 ? NULL : w;
        rg_body_id id = i == 0 ? dyn : i == 1 ? null_id : i == 2 ? stale : i == 3 ? out_of_range : even;
        lo = hi = ok;
        rg_body_aabb(gw, id, &lo, &hi);
        ENSURE(v3_is_zero(lo) && v3_is_zero(hi));
        rg_body_aabb(gw, id, NULL, NULL);
        ENSURE(rg_body_get_type(gw, id) == RG_BODY_STATIC && rg_body_hull(gw, id) == NULL);
        ENSURE(v3_is_zero(rg_body_position(gw, id)) && quat_is_zero(rg_body_orientation(gw, id)));
        ENSURE(v3_is_zero(rg_body_center_of_mass(gw, id)) && v3_is_zero(rg_body_linear_velocity(gw, id)));
        ENSURE(v3_is_zero(rg_body_angular_velocity(gw, id)) && v3_is_zero(rg_body_velocity_at_point(gw, id, ok)));
        ENSURE(rg_body_mass(gw, id) == 0 && mat3_is_zero(rg_body_inertia(gw, id)) && mat3_is_zero(rg_body_inverse_inertia(gw, id)));
        ENSURE(v3_is_zero(rg_body_angular_momentum(gw, id)) && rg_body_kinetic_energy(gw, id) == 0);
        ENSURE(rg_body_user_data(gw, id) == NULL);
    }
    ENSURE(v3_is_zero(rg_body_velocity_at_point(w, dyn, rg_v3(nan, 0, 0))));

    /* setters: NULL world, bad ids, non-finite and absurd values */
    ENSURE(rg_body_set_transform(NULL, dyn, ok, rg_quat_identity()) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_transform(w, stale, ok, rg_quat_identity()) == RG_ERR_STALE_ID);
    ENSURE(rg_body_set_transform(w, even, ok, rg_quat_identity()) == RG_ERR_STALE_ID);
    ENSURE(rg_body_set_transform(w, dyn, rg_v3(0, nan, 0), rg_quat_identity()) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_transform(w, dyn, rg_v3(absurd, 0, 0), rg_quat_identity()) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_transform(w, dyn, ok, zero_q) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_transform(w, stat, ok, nan_q) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_linear_velocity(NULL, dyn, ok) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_linear_velocity(w, out_of_range, ok) == RG_ERR_STALE_ID);
    ENSURE(rg_body_set_linear_velocity(w, dyn, rg_v3(inf, 0, 0)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_linear_velocity(w, dyn, rg_v3(0, 0, 1e14f)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_linear_velocity(w, kin, rg_v3(0, 0, absurd)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_angular_velocity(NULL, dyn, ok) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_angular_velocity(w, null_id, ok) == RG_ERR_STALE_ID);
    ENSURE(rg_body_set_angular_velocity(w, dyn, rg_v3(0, nan, 0)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_angular_velocity(w, dyn, rg_v3(1e15f, 0, 0)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_user_data(NULL, dyn, &a) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_set_user_data(w, stale, &a) == RG_ERR_STALE_ID);
    ENSURE(rg_body_apply_impulse(NULL, dyn, ok, ok) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_apply_impulse(w, stale, ok, ok) == RG_ERR_STALE_ID);
    ENSURE(rg_body_apply_impulse(w, dyn, rg_v3(nan, 0, 0), ok) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_apply_impulse(w, dyn, ok, rg_v3(0, -inf, 0)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_apply_impulse(w, dyn, rg_v3(absurd, 0, 0), ok) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_apply_impulse(w, dyn, rg_v3(0, 1e12f, 0), rg_v3(1e12f, 0, 0)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_apply_force(NULL, dyn, ok, ok) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_apply_force(w, even, ok, ok) == RG_ERR_STALE_ID);
    ENSURE(rg_body_apply_force(w, dyn, rg_v3(0, inf, 0), ok) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_apply_force(w, dyn, ok, rg_v3(nan, 0, 0)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_apply_force(w, dyn, rg_v3(absurd, 0, 0), ok) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_apply_torque(NULL, dyn, ok) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_apply_torque(w, null_id, ok) == RG_ERR_STALE_ID);
    ENSURE(rg_body_apply_torque(w, dyn, rg_v3(0, 0, -inf)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_body_apply_torque(w, dyn, rg_v3(0, 0, absurd)) == RG_ERR_INVALID_ARGUMENT);
    /* impulses and forces accumulate until the velocities they give would exceed the energy
       limit; the one that crosses it is refused whole (the control twin gets the accepted ones) */
    {
        int impulses, forces;
        for (impulses = 0; impulses < 1000 && rg_body_apply_impulse(w, a.ids[3], rg_v3(0, 0, 1e15f), ok) == RG_OK; ++impulses)
            ENSURE(rg_body_apply_impulse(b.w, b.ids[3], rg_v3(0, 0, 1e15f), ok) == RG_OK);
        for (forces = 0; forces < 1000 && rg_body_apply_force(w, a.ids[2], rg_v3(0, 1e13f, 0), ok) == RG_OK; ++forces)
            ENSURE(rg_body_apply_force(b.w, b.ids[2], rg_v3(0, 1e13f, 0), ok) == RG_OK);
        ENSURE(impulses > 0 && impulses < 1000 && forces > 0 && forces < 1000);
        rg_test_note("on a 375 kg box: %d impulses of 1e15 N s, %d forces of 1e13 N accepted, then refused", impulses, forces);
    }

    /* world calls */
    ENSURE(rg_world_step(w, 0) == RG_ERR_INVALID_ARGUMENT && rg_world_step(w, -1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_world_step(w, nan) == RG_ERR_INVALID_ARGUMENT && rg_world_step(w, inf) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_world_step(w, 1.5f) == RG_ERR_INVALID_ARGUMENT && rg_world_step(w, -inf) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_world_set_gravity(w, rg_v3(nan, 0, 0)) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_world_set_gravity(w, rg_v3(0, absurd, 0)) == RG_ERR_INVALID_ARGUMENT);
    for (i = 0; i < 4; ++i) contacts[i].depth = -7;
    ENSURE(rg_world_contacts(w, NULL, 4) >= 0 && rg_world_contacts(w, contacts, -5) >= 0);
    ENSURE(rg_world_contacts(w, contacts, -5) == rg_world_contacts(w, NULL, 0));
    ENSURE(contacts[0].depth == -7);
    ENSURE(rg_world_get_stats(w).body_count == TWIN_BODIES);

    /* the two worlds are still one: equal now, and after stepping side by side */
    ENSURE(twin_hash(&a) == twin_hash(&b));
    for (step = 0; step < 30; ++step) {
        ENSURE(rg_world_step(a.w, 1.0f / 60) == RG_OK && rg_world_step(b.w, 1.0f / 60) == RG_OK);
        ENSURE(twin_hash(&a) == twin_hash(&b));
    }
    ENSURE(twin_is_finite(&a) && rg_world_step(a.w, 1) == RG_OK && twin_is_finite(&a));
    rg_test_note("%d refused body defs, %d bodies intact after 30 steps", refused, rg_world_get_stats(a.w).body_count);
    rg_world_destroy(a.w);
    rg_world_destroy(b.w);
    rg_hull_destroy(ground);
    rg_hull_destroy(box);
    rg_hull_destroy(vast);
}

/* A 0.1 mm cube and a 1 km cube: the inverse inertia exists (its determinant under- or
   overflows a float) and an angular impulse L turns them at I^-1 L, I = m (a^2 + b^2) / 12. */
static void test_tiny_and_huge_bodies_turn(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w;
    rg_real sides[2] = {1e-4f, 1e3f};
    int k;
    wd.gravity = rg_v3(0, 0, 0);
    w = rg_world_create(&wd, NULL);
    ENSURE(w != NULL);
    for (k = 0; k < 2; ++k) {
        rg_real a = sides[k];
        rg_hull *cube = rg_hull_create_box(rg_v3(a / 2, a / 2, a / 2), NULL);
        rg_body_def bd = rg_body_default_def();
        rg_body_id id;
        double mass = 1000.0 * a * a * a, inertia = mass * 2.0 * a * a / 12, torque_impulse = inertia * 0.5;
        rg_vec3 omega;
        ENSURE(cube != NULL);
        bd.hull = cube;
        id = rg_body_create(w, &bd, NULL);
        ENSURE(rg_body_is_valid(w, id));
        ENSURE_REL(rg_body_mass(w, id), mass, 1e-5);
        ENSURE_NEAR(identity_error(rg_body_inertia(w, id), rg_body_inverse_inertia(w, id)), 0, 1e-4);
        /* a couple: equal and opposite impulses a apart along x, pushing along y, turn it about z */
        ENSURE(rg_body_apply_impulse(w, id, rg_v3(0, (rg_real)(torque_impulse / a), 0), rg_v3(a / 2, 0, 0)) == RG_OK);
        ENSURE(rg_body_apply_impulse(w, id, rg_v3(0, (rg_real)(-torque_impulse / a), 0), rg_v3(-a / 2, 0, 0)) == RG_OK);
        omega = rg_body_angular_velocity(w, id);
        ENSURE_REL(omega.z, 0.5, 1e-4);
        ENSURE_NEAR(omega.x, 0, 1e-4);
        ENSURE(rg_world_step(w, 0.1f) == RG_OK);
        ENSURE_NEAR(2 * acos(fabs(rg_body_orientation(w, id).w)), 0.05, 1e-4);
        rg_test_note("cube %g m: m %.3g kg, I %.3g kg m^2, turns at %.6f rad/s (0.5)", (double)a, mass, inertia, (double)omega.z);
        rg_body_destroy(w, id);
        rg_hull_destroy(cube);
    }
    rg_world_destroy(w);
}

/* The largest velocities, impulses and forces the setters accept (found by bisection on their
   result codes) on a tiny, a plain and a big asymmetric box, then 20 steps of the longest dt
   under the largest gravity: the state stays finite. This is what the energy and magnitude
   limits are for. */
static rg_real largest_accepted(rg_world *w, rg_body_id id, int what, rg_vec3 direction, rg_vec3 point) {
    double lo = 0, hi = 1e16;
    int i;
    for (i = 0; i < 80; ++i) {
        double mid = i < 40 ? sqrt((lo > 0 ? lo : 1e-30) * hi) : (lo + hi) / 2;
        rg_vec3 value = rg_v3_scale(direction, (rg_real)mid);
        rg_vec3 v0 = rg_body_linear_velocity(w, id), w0 = rg_body_angular_velocity(w, id);
        rg_result r;
        if (what == 0) r = rg_body_set_linear_velocity(w, id, value);
        else if (what == 1) r = rg_body_set_angular_velocity(w, id, value);
        else r = rg_body_apply_impulse(w, id, value, point);
        /* put it back */
        rg_body_set_linear_velocity(w, id, v0);
        rg_body_set_angular_velocity(w, id, w0);
        if (r == RG_OK) lo = mid; else hi = mid;
    }
    return (rg_real)lo;
}

static void test_limits_keep_accepted_input_finite(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w;
    rg_real sizes[3] = {1e-3f, 1, 1e3f};
    rg_hull *hulls[3];
    rg_body_id ids[3];
    rg_vec3 axis = rg_v3_normalize(rg_v3(0.3f, 1, 0.2f));
    int k, step, finite = 1;
    wd.gravity = rg_v3(0, -1e15f, 0);
    w = rg_world_create(&wd, NULL);
    ENSURE(w != NULL);
    for (k = 0; k < 3; ++k) {
        rg_body_def bd = rg_body_default_def();
        rg_real s = sizes[k], v, omega, j;
        hulls[k] = rg_hull_create_box(rg_v3(s, 2 * s, 3 * s), NULL);
        ENSURE(hulls[k] != NULL);
        bd.hull = hulls[k];
        bd.position = rg_v3((rg_real)(k * 1e4), 0, 0);
        ids[k] = rg_body_create(w, &bd, NULL);
        v = largest_accepted(w, ids[k], 0, axis, rg_v3(0, 0, 0));
        omega = largest_accepted(w, ids[k], 1, axis, rg_v3(0, 0, 0));
        j = largest_accepted(w, ids[k], 2, axis, rg_v3_add(rg_body_center_of_mass(w, ids[k]), rg_v3(s, 0, 0)));
        ENSURE(v > 0 && omega > 0 && j > 0);
        ENSURE(rg_body_set_linear_velocity(w, ids[k], rg_v3_scale(axis, v)) == RG_OK);
        ENSURE(rg_body_set_angular_velocity(w, ids[k], rg_v3_scale(axis, omega * (rg_real)0.999)) == RG_OK);
        rg_test_note("box %g m: accepted up to |v| %.3g m/s, |w| %.3g rad/s, impulse %.3g N s",
                     (double)s, (double)v, (double)omega, (double)j);
    }
    for (step = 0; step < 20 && finite; ++step) {
        ENSURE(rg_world_step(w, 1) == RG_OK);
        for (k = 0; k < 3; ++k)
            finite = finite && body_is_finite(w, ids[k]);
    }
    ENSURE(finite);
    rg_world_destroy(w);
    for (k = 0; k < 3; ++k) rg_hull_destroy(hulls[k]);
}

void rg_tests_bad_input(void) {
    RUN_TEST(test_result_strings);
    RUN_TEST(test_vector_length_and_direction_at_range_edges);
    RUN_TEST(test_quaternions_at_range_edges);
    RUN_TEST(test_matrices_at_range_edges);
    RUN_TEST(test_math_functions_take_nan);
    RUN_TEST(test_hull_create_bad_input);
    RUN_TEST(test_polyhedron_and_box_bad_input);
    RUN_TEST(test_collide_hulls_bad_input);
    RUN_TEST(test_world_bad_input);
    RUN_TEST(test_bad_calls_leave_the_world_as_it_was);
    RUN_TEST(test_tiny_and_huge_bodies_turn);
    RUN_TEST(test_limits_keep_accepted_input_finite);
}
