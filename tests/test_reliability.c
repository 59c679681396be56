/* Reliability: every public function with bad input (NULL, NaN, infinities, absurd magnitudes,
   negative or zero sizes, stale ids), the result code it gives, and the world intact and still
   stepping afterwards; math at the edges of the floating-point range; the validation limits
   (1e15 magnitudes, kinetic energy 1e30, dt <= 1 s) tested from the inside too: input the
   setters accept at their limit keeps the state finite over steps of the longest dt.

   A world that refused a call must be bit-for-bit the world it was: each bad call goes to one
   of two twin worlds, both then step, and their state hashes must be equal (this also catches a
   refused force that was accumulated anyway and would only show in the next step). */
#include "test.h"

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

typedef struct state_hash { uint64_t h; } state_hash;
static void hash_real(state_hash *s, rg_real x) {
    const unsigned char *p = (const unsigned char *)&x;
    size_t i;
    for (i = 0; i < sizeof x; ++i) { s->h ^= p[i]; s->h *= 1099511628211ull; }
}
static void hash_v3(state_hash *s, rg_vec3 v) { hash_real(s, v.x); hash_real(s, v.y); hash_real(s, v.z); }
static void hash_body(state_hash *s, const rg_world *w, rg_body_id id) {
    rg_quat q = rg_body_orientation(w, id);
    rg_mat3 inertia = rg_body_inertia(w, id);
    rg_vec3 lo, hi;
    int i;
    hash_real(s, (rg_real)rg_body_is_valid(w, id));
    hash_real(s, (rg_real)rg_body_get_type(w, id));
    hash_v3(s, rg_body_position(w, id));
    hash_v3(s, rg_body_center_of_mass(w, id));
    hash_real(s, q.x); hash_real(s, q.y); hash_real(s, q.z); hash_real(s, q.w);
    hash_v3(s, rg_body_linear_velocity(w, id));
    hash_v3(s, rg_body_angular_velocity(w, id));
    hash_real(s, rg_body_mass(w, id));
    for (i = 0; i < 3; ++i) hash_v3(s, rg_v3(inertia.m[i][0], inertia.m[i][1], inertia.m[i][2]));
    rg_body_aabb(w, id, &lo, &hi);
    hash_v3(s, lo);
    hash_v3(s, hi);
    hash_real(s, rg_body_user_data(w, id) != NULL ? 1 : 0);
}

/* ---- a small world: ground, dynamic boxes, a kinematic paddle ---- */

/* The ground of these tests: a static box whose top face is y = 0. */
static rg_body_id add_ground(rg_world *w, const rg_hull *ground) {
    rg_body_def bd = rg_body_default_def();
    bd.type = RG_BODY_STATIC;
    bd.hull = ground;
    bd.position = rg_v3(0, -0.5f, 0);
    return rg_body_create(w, &bd, NULL);
}

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
    state_hash s = {14695981039346656037ull};
    rg_world_stats stats = rg_world_get_stats(t->w);
    rg_vec3 g = rg_world_gravity(t->w);
    int i;
    for (i = 0; i < TWIN_BODIES; ++i) hash_body(&s, t->w, t->ids[i]);
    hash_body(&s, t->w, t->stale);
    hash_v3(&s, g);
    hash_real(&s, (rg_real)stats.body_count);
    hash_real(&s, (rg_real)stats.pair_count);
    hash_real(&s, (rg_real)rg_world_contacts(t->w, NULL, 0));
    return s.h;
}

/* A body's pose and velocities are all finite. */
static int body_is_finite(const rg_world *w, rg_body_id id) {
    return rg_v3_is_finite(rg_body_position(w, id)) && rg_quat_is_finite(rg_body_orientation(w, id)) &&
           rg_v3_is_finite(rg_body_linear_velocity(w, id)) && rg_v3_is_finite(rg_body_angular_velocity(w, id));
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

/* Four points within 8 units and one 108 000 units away (issue 4: in float rg_hull_create gave
   the tetrahedron of the four near points, volume 17.5, leaving the far point 12 400 outside;
   in double it refused the cloud as RG_ERR_DEGENERATE). A needle, but with volume: its hull has
   all 5 points as vertices, and every point lies behind every face plane within 1 (the
   tolerance is 8 FLT_EPSILON x 108 013 = 0.1 in float). */
static void test_quickhull_keeps_a_far_point(void) {
    rg_vec3 p[5];
    rg_result r = RG_OK;
    rg_hull *h;
    int f, i;
    double outside = -1e300;
    p[0] = rg_v3(6.5f, 6.5f, 6.5f); p[1] = rg_v3(1.0625f, 1.0625f, -1.5625f); p[2] = rg_v3(1.0625f, 3, 0.25f);
    p[3] = rg_v3(-0.0625f, -0.0625f, 108000); p[4] = rg_v3(-1.5625f, 0, 6);
    h = rg_hull_create(p, 5, &r);
    ENSURE(h != NULL && r == RG_OK);
    for (f = 0; f < rg_hull_face_count(h); ++f) {
        rg_vec3 n = rg_hull_face_normal(h, f);
        int first;
        rg_hull_face_vertices(h, f, &first, 1);
        for (i = 0; i < 5; ++i) {
            double height = rg_v3_dot(n, rg_v3_sub(p[i], rg_hull_vertex(h, first)));
            if (height > outside) outside = height;
        }
    }
    rg_test_note("%s, %d vertices, %d faces, volume %g, points at most %.3g above a face plane", rg_result_string(r),
                 rg_hull_vertex_count(h), rg_hull_face_count(h), (double)rg_hull_volume(h), outside);
    ENSURE(outside <= 1 && rg_hull_vertex_count(h) == 5);
    rg_hull_destroy(h);
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

/* Positions beyond the 1e15 magnitude limit: no contact, no crash. Two unit boxes at x = +FLT_MAX
   and -FLT_MAX (finite input whose difference overflows) used to make a reference face index
   of -1 in rg__collide_face_contact, which read faces[-1] and asked stb_ds for gigabytes. At the limit
   the result is a count in range with finite points. */
static void test_collide_far_apart_does_not_crash(void) {
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_manifold m;
    int count;
    ENSURE(box != NULL);
    count = rg_collide_hulls(box, rg_v3(FLT_MAX, 0, 0), rg_quat_identity(), box, rg_v3(-FLT_MAX, 0, 0),
                             rg_quat_identity(), 1, &m);
    ENSURE(count == 0 && m.count == 0);
    count = rg_collide_hulls(box, rg_v3(FLT_MAX, 0, 0), rg_quat_identity(), box, rg_v3(FLT_MAX, 0, 0),
                             rg_quat_identity(), 1, &m);
    ENSURE(count == 0 && m.count == 0);
    count = rg_collide_hulls(box, rg_v3(0, 2e15f, 0), rg_quat_identity(), box, rg_v3(0, 2e15f, 0),
                             rg_quat_identity(), 1, &m);
    ENSURE(count == 0 && m.count == 0);   /* overlapping, but beyond the limit */
    count = rg_collide_hulls(box, rg_v3(1e15f, 0, 0), rg_quat_identity(), box, rg_v3(-1e15f, 0, 0),
                             rg_quat_identity(), 1, &m);
    ENSURE(count == 0 && m.count == 0);   /* at the limit, apart */
    count = rg_collide_hulls(box, rg_v3(0, 0, -1e15f), rg_quat_identity(), box, rg_v3(0, 0, -1e15f),
                             rg_quat_identity(), 1, &m);
    ENSURE(count >= 0 && count <= RG_MANIFOLD_MAX && count == m.count);
    while (count-- > 0) ENSURE(rg_v3_is_finite(m.points[count]) && rg_v3_is_finite(rg_v3(m.depths[count], 0, 0)));
    rg_hull_destroy(box);
}

/* A box of half extents `half` whose top face is pushed sideways by shear * half.y (a
   parallelepiped), as a polyhedron. */
static rg_hull *sheared_box(rg_vec3 half, rg_vec3 shear) {
    static const int faces[24] = {1, 3, 7, 5, 0, 4, 6, 2, 2, 6, 7, 3, 0, 1, 5, 4, 4, 5, 7, 6, 0, 2, 3, 1};
    static const int sizes[6] = {4, 4, 4, 4, 4, 4};
    rg_vec3 corners[8];
    int i;
    for (i = 0; i < 8; ++i) {
        corners[i] = rg_v3((i & 1) ? half.x : -half.x, (i & 2) ? half.y : -half.y, (i & 4) ? half.z : -half.z);
        if (i & 2) corners[i] = rg_v3_add(corners[i], rg_v3_scale(shear, half.y));
    }
    return rg_hull_create_polyhedron(corners, 8, sizes, 6, faces, NULL);
}

/* A hull 1e4 times smaller than the rounding of its vertices in the other hull's frame (a
   0.2 mm parallelepiped 3.6 km from the centre of a 10 km box, all in float): its edge
   directions there are rounding noise, and an edge pair that passed the Gauss-map test used to
   claim a separation as large as the overlap (31 of these 200 poses had no contact; found by
   fuzz_collide). Every pose is deep inside: a contact with a positive depth each time. */
static void test_collide_tiny_hull_inside_far_off_box(void) {
    rg_hull *big = rg_hull_create_box(rg_v3(5000, 5000, 5000), NULL);
    rg_hull *tiny = sheared_box(rg_v3(1e-4f, 2e-4f, 1.5e-4f), rg_v3(0.5f, 0, -0.3f));
    int k, misses = 0;
    ENSURE(big != NULL && tiny != NULL);
    for (k = 0; k < 200; ++k) {
        rg_manifold m;
        rg_vec3 at = rg_v3(3000.0f + 7.0f * (float)k, -2000.0f + 3.0f * (float)k, 1000.0f);
        rg_quat turn = rg_quat_from_axis_angle(rg_v3(1, 2, 3), 0.1f * (float)k);
        int count = rg_collide_hulls(tiny, at, turn, big, rg_v3(0, 0, 0),
                                     rg_quat_from_axis_angle(rg_v3(0, 1, 1), 0.3f), 0.01f, &m);
        misses += !(count > 0 && m.depths[0] > 0);
    }
    ENSURE(misses == 0);
    rg_hull_destroy(tiny);
    rg_hull_destroy(big);
}

/* The same with a wide margin: a 0.8 mm parallelepiped inside a sheared box of 2 km, 300 m
   from its centre, with margins of 500 m and 1 km. An edge pair that passed the Gauss-map test
   by rounding claimed a separation within the margin (0 < s <= margin) that the supports did not
   confirm, so the hulls looked apart: no contact, or one whose every depth was negative (6 of
   these 200 poses at 1 km). CI's fuzz_collide reported overlapping hulls without a positive
   depth (its input was not kept); a random search of such pairs then found a 0.4 mm hull with
   a margin of 577 m. Every pose puts the tiny hull at least 239 m inside the big one's faces:
   each must give a positive depth. */
static void test_collide_tiny_hull_inside_with_a_wide_margin(void) {
    rg_hull *big = sheared_box(rg_v3(1000, 500, 500), rg_v3(0.02f, 0, -0.3f));
    rg_hull *tiny = sheared_box(rg_v3(4e-4f, 2e-5f, 4.6e-5f), rg_v3(0.3f, 0, -0.06f));
    rg_real margins[2] = {500, 1000};
    int k, j, misses = 0;
    ENSURE(big != NULL && tiny != NULL);
    for (j = 0; j < 2; ++j)
        for (k = 0; k < 200; ++k) {
            rg_manifold m;
            rg_vec3 at = rg_v3(-300.0f + 3.0f * (float)k, 200.0f - 2.0f * (float)k, 100.0f);
            rg_quat turn = rg_quat_from_axis_angle(rg_v3(1, 2, 3), 0.1f * (float)k);
            int i, deep = 0, count = rg_collide_hulls(tiny, at, turn, big, rg_v3(0, 0, 0),
                                                      rg_quat_from_axis_angle(rg_v3(0, 1, 1), 0.3f), margins[j], &m);
            for (i = 0; i < count; ++i) deep |= m.depths[i] > 0;
            misses += !deep;
        }
    ENSURE(misses == 0);
    rg_hull_destroy(tiny);
    rg_hull_destroy(big);
}

/* Hulls of every size from 0.1 mm to 40 km, boxes and sheared boxes, anywhere within 10 km,
   in pairs, half of them a hull of 100 m to 10 km with one a million times smaller inside: whenever the spheres inscribed about their centroids overlap (less a rounding
   allowance of 1e-3 of their sizes), rg_collide_hulls must find a contact. A sufficient test of
   overlap that shares nothing with the separating-axis search; the edge query's support check
   (see the test above) was the missing part for the smaller hull of a very uneven pair. Each
   pair is collided in one order or the other (A's vertices go to B's frame). */
static double inscribed_radius(const rg_hull *h, rg_vec3 centre) {
    double radius = 1e300;
    int f;
    for (f = 0; f < rg_hull_face_count(h); ++f) {
        int first;
        double d;
        rg_hull_face_vertices(h, f, &first, 1);
        d = rg_v3_dot(rg_hull_face_normal(h, f), rg_v3_sub(rg_hull_vertex(h, first), centre));
        if (d < radius) radius = d;
    }
    return radius;
}

static double circumscribed_radius(const rg_hull *h, rg_vec3 centre) {
    double radius = 0;
    int v;
    for (v = 0; v < rg_hull_vertex_count(h); ++v) {
        double d = rg_v3_length(rg_v3_sub(rg_hull_vertex(h, v), centre));
        if (d > radius) radius = d;
    }
    return radius;
}

/* A box, or half the time a sheared one, of half extents scale times 0.05 to 2. */
static rg_hull *random_scaled_box(double scale) {
    rg_vec3 half = rg_v3((rg_real)(scale * rg_test_uniform(0.05, 2)), (rg_real)(scale * rg_test_uniform(0.05, 2)),
                         (rg_real)(scale * rg_test_uniform(0.05, 2)));
    rg_vec3 shear = rg_v3((rg_real)rg_test_uniform(-2, 2), 0, (rg_real)rg_test_uniform(-2, 2));
    return rg_test_random() < 0.5 ? rg_hull_create_box(half, NULL) : sheared_box(half, shear);
}

static void test_collide_uneven_sizes_overlap(void) {
    int k, tried = 0, misses = 0;
    rg_test_seed(77);
    for (k = 0; k < 200000 && tried < 20000; ++k) {
        /* half the pairs uneven: a hull of 100 m to 10 km with one a million times smaller
           or less somewhere inside it */
        int uneven = rg_test_random() < 0.5;
        double log_a = uneven ? rg_test_uniform(2, 4) : rg_test_uniform(-4, 4);
        double log_b = uneven ? rg_test_uniform(-4, log_a - 6) : rg_test_uniform(-4, 4);
        rg_hull *a = random_scaled_box(pow(10, log_a)), *b = random_scaled_box(pow(10, log_b));
        double reach = pow(10, rg_test_uniform(-4, 4)), distance, slack, d[3];
        rg_vec3 pa, pb, ca, cb;
        rg_quat qa = rg_test_rotation(), qb = rg_test_random() < 0.3 ? qa : rg_test_rotation();
        rg_manifold m;
        ENSURE(a != NULL && b != NULL);
        pa = rg_v3((rg_real)(reach * rg_test_uniform(-1, 1)), (rg_real)(reach * rg_test_uniform(-1, 1)),
                   (rg_real)(reach * rg_test_uniform(-1, 1)));
        pb = rg_v3((rg_real)(reach * rg_test_uniform(-1, 1)), (rg_real)(reach * rg_test_uniform(-1, 1)),
                   (rg_real)(reach * rg_test_uniform(-1, 1)));
        if (uneven) {
            double inside = inscribed_radius(a, rg_hull_centroid(a)) * rg_test_uniform(0, 0.9) / sqrt(3.0);
            pb = rg_v3_add(pa, rg_v3((rg_real)(inside * rg_test_uniform(-1, 1)), (rg_real)(inside * rg_test_uniform(-1, 1)),
                                     (rg_real)(inside * rg_test_uniform(-1, 1))));
        }
        ca = rg_quat_rotate(rg_quat_normalize(qa), rg_hull_centroid(a));
        cb = rg_quat_rotate(rg_quat_normalize(qb), rg_hull_centroid(b));
        /* in double: the positions' float difference would round at 1e4 m */
        d[0] = ((double)pa.x - (double)pb.x) + ((double)ca.x - (double)cb.x);
        d[1] = ((double)pa.y - (double)pb.y) + ((double)ca.y - (double)cb.y);
        d[2] = ((double)pa.z - (double)pb.z) + ((double)ca.z - (double)cb.z);
        distance = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        slack = 1e-3 * (circumscribed_radius(a, rg_hull_centroid(a)) + circumscribed_radius(b, rg_hull_centroid(b))) + 1e-4;
        if (distance < inscribed_radius(a, rg_hull_centroid(a)) + inscribed_radius(b, rg_hull_centroid(b)) - slack) {
            rg_real margin = (rg_real)(rg_test_random() < 0.5 ? 0 : 0.01);
            int count = rg_test_random() < 0.5 ? rg_collide_hulls(a, pa, qa, b, pb, qb, margin, &m)
                                               : rg_collide_hulls(b, pb, qb, a, pa, qa, margin, &m);
            ++tried;
            if (count == 0) ++misses;
        }
        rg_hull_destroy(a);
        rg_hull_destroy(b);
    }
    rg_test_note("%d overlapping pairs of sizes 1e-4 to 4e4, half uneven, %d without a contact", tried, misses);
    ENSURE(tried >= 1000);
    ENSURE(misses == 0);
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
    CREATE_REFUSED(bad.hull = NULL);
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

/* A step much shorter than usual must not turn a resting contact's tiny penetration d into a
   separating velocity d / dt (before the fix: a resting cube left at 9 m/s after a step of
   1e-8 s without warm starting, and warm starts from a 1/60 s step over-pushed a 1e-8 s step).
   A cube settles for 1 s; one short step may change its velocity by at most g dt + 1 mm/s, and
   after three more 1/60 s steps it still rests within 1 mm of its place, slower than 1 mm/s.
   Short steps of 1e-4, 1e-8 and 1e-20 s and a subnormal one, with and without warm starting. */
static void test_tiny_step_does_not_launch_resting_bodies(void) {
    /* the last is subnormal: its inverse overflows (contact errors multiplied by 1 / dt instead
       of divided by dt turned the resting cube NaN; fuzz_world found it) */
#ifdef RIGID_DOUBLE
    static const double short_steps[4] = {1e-4, 1e-8, 1e-20, 1e-310};
#else
    static const double short_steps[4] = {1e-4, 1e-8, 1e-20, 1.5e-39};
#endif
    rg_hull *ground = rg_hull_create_box(rg_v3(10, 0.5f, 10), NULL), *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    double worst_change = 0, worst_after = 0;
    int k, warm;
    ENSURE(ground && cube);
    for (warm = 0; warm < 2; ++warm)
        for (k = 0; k < 4; ++k) {
            rg_world_def wd = rg_world_default_def();
            rg_world *w;
            rg_body_def bd = rg_body_default_def();
            rg_body_id id;
            rg_vec3 before;
            double change, after;
            int i, has_contacts;
            wd.warm_starting = warm;
            w = rg_world_create(&wd, NULL);
            ENSURE(w != NULL);
            if (!w) break;
            add_ground(w, ground);
            bd.hull = cube;
            bd.position = rg_v3(0, 0.5f, 0);
            id = rg_body_create(w, &bd, NULL);
            for (i = 0; i < 60; ++i) rg_world_step(w, 1.0f / 60);
            has_contacts = rg_world_contacts(w, NULL, 0) > 0;
            before = rg_body_linear_velocity(w, id);
            ENSURE(rg_world_step(w, (rg_real)short_steps[k]) == RG_OK);
            change = rg_v3_length(rg_v3_sub(rg_body_linear_velocity(w, id), before));
            ENSURE_NEAR(change, 0, 9.81 * short_steps[k] + 1e-3);
            for (i = 0; i < 3; ++i) rg_world_step(w, 1.0f / 60);
            after = rg_v3_length(rg_body_linear_velocity(w, id));
            ENSURE(has_contacts);
            ENSURE_NEAR(rg_body_position(w, id).y, 0.5, 1e-3);
            ENSURE_NEAR(after, 0, 1e-3);
            if (change > worst_change) worst_change = change;
            if (after > worst_after) worst_after = after;
            rg_world_destroy(w);
        }
    rg_test_note("largest velocity change in a short step %.3g m/s, speed 3 steps later %.3g m/s", worst_change, worst_after);
    rg_hull_destroy(ground);
    rg_hull_destroy(cube);
}

/* The shortest steps with a deep penetration. The first-order separation pass used to work
   with pseudo-velocities, (penetration beyond the slop) / dt, and impulses of that times the
   normal mass, which overflowed below dt ~ depth * normal mass / the largest rg_real: a cube of
   1000 kg 0.5 m deep in the ground became NaN after a step of 1e-37 s (fuzz_world found it
   with 1.5e-39 s). Now each of these steps, subnormal ones included, pushes the cube out to
   rest on the ground within 1 mm, slower than 1 mm/s. */
static void test_shortest_step_keeps_a_penetrating_body_finite(void) {
#ifdef RIGID_DOUBLE
    static const rg_real steps[3] = {1e-300, 1e-307, 1e-310};
#else
    static const rg_real steps[3] = {1e-30f, 1e-37f, 1.5e-39f};
#endif
    rg_hull *ground = rg_hull_create_box(rg_v3(10, 0.5f, 10), NULL), *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    double worst_height = 0, worst_speed = 0;
    int k;
    ENSURE(ground && cube);
    for (k = 0; k < 3; ++k) {
        rg_world_def wd = rg_world_default_def();
        rg_world *w = rg_world_create(&wd, NULL);
        rg_body_def bd = rg_body_default_def();
        rg_body_id id;
        double height, speed;
        add_ground(w, ground);
        bd.hull = cube;
        bd.position = rg_v3(0, 0, 0);   /* half of it in the ground */
        id = rg_body_create(w, &bd, NULL);
        ENSURE(rg_world_step(w, steps[k]) == RG_OK);
        ENSURE(body_is_finite(w, id));
        height = fabs((double)rg_body_position(w, id).y - 0.5);
        speed = rg_v3_length(rg_body_linear_velocity(w, id));
        if (height > worst_height) worst_height = height;
        if (speed > worst_speed) worst_speed = speed;
        rg_world_destroy(w);
    }
    rg_test_note("steps of %g, %g and %g s: pushed out to within %.2g m of resting, speed at most %.2g m/s",
                 (double)steps[0], (double)steps[1], (double)steps[2], worst_height, worst_speed);
    ENSURE(worst_height < 1e-3);
    ENSURE(worst_speed < 1e-3);
    rg_hull_destroy(ground);
    rg_hull_destroy(cube);
}

/* Bodies of the fuzz reproductions below, made with every field their scripts set. */
static rg_quat quat_of(rg_real x, rg_real y, rg_real z, rg_real w) {
    rg_quat q;
    q.x = x; q.y = y; q.z = z; q.w = w;
    return q;
}

static rg_body_id make_body(rg_world *w, rg_body_type type, const rg_hull *hull, rg_vec3 position, rg_quat orientation,
                            rg_vec3 v, rg_vec3 omega, rg_real density, rg_real mass) {
    rg_body_def bd = rg_body_default_def();
    bd.type = type;
    bd.hull = hull;
    bd.position = position;
    bd.orientation = orientation;
    bd.linear_velocity = v;
    bd.angular_velocity = omega;
    bd.density = density;
    bd.mass = mass;
    return rg_body_create(w, &bd, NULL);
}

/* fuzz_world: slabs lying inside each other, turned so that the contact normal is no axis, in a
   step of 1.12e-44 s (float; 1e-320 s in double). The tangential drift of a point before any
   velocity is its offsets' motion over h; projecting the start's -depth n on the tangents gave
   its rounding instead (1e-8 of a depth of 5 m in float), and over h that was 5e36 m/s: the
   friction impulses overflowed and two slabs came out NaN. Every body must stay finite. */
static void test_shortest_step_with_bodies_inside_each_other_stays_finite(void) {
#ifdef RIGID_DOUBLE
    static const rg_real steps[3] = {1e-300, 1e-310, 1e-320};
#else
    static const rg_real steps[3] = {1e-38f, 1e-42f, 1.12104e-44f};
#endif
    rg_hull *slab = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL);
    rg_quat q = rg_quat_from_axis_angle(rg_v3(1, 1, 1), 1.8125f);
    int k, i, finite = 1;
    ENSURE(slab);
    for (k = 0; k < 3; ++k) {
        rg_world_def wd = rg_world_default_def();
        rg_world *w = rg_world_create(&wd, NULL);
        rg_body_id ids[3];
        for (i = 0; i < 3; ++i)
            ids[i] = make_body(w, RG_BODY_DYNAMIC, slab, rg_v3(-1.8125f + 0.1f * (rg_real)(i == 0), -1.8125f, -1.8125f), q,
                               rg_v3(-1.8125f, -1.8125f, -1.8125f), rg_v3(-1.8125f, -1.8125f, -1.8125f), 1000, 0);
        ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
        ENSURE(rg_world_step(w, steps[k]) == RG_OK);
        for (i = 0; i < 3; ++i)
            finite &= body_is_finite(w, ids[i]);
        rg_world_destroy(w);
    }
    rg_test_note("steps of %g, %g and %g s after one of 1/60 s: %s", (double)steps[0], (double)steps[1],
                 (double)steps[2], finite ? "every body finite" : "a body not finite");
    ENSURE(finite);
    rg_hull_destroy(slab);
}

/* fuzz_world: a plank of density 1e-30 (8e-31 kg, inverse inertia about 1e30) spinning at 1e15
   rad/s inside a 1000 kg plank with rolling friction. The rolling impulse's 2x2 inverse squared
   the inverse inertia in its determinant, which overflowed float, and both planks' angular
   velocities became NaN. Every body must stay finite. */
static void test_feather_with_rolling_friction_stays_finite(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_hull *plank = rg_hull_create_box(rg_v3(2, 0.1f, 0.5f), NULL);
    rg_body_def bd = rg_body_default_def();
    rg_body_id feather, heavy;
    int step, finite = 1;
    ENSURE(w && plank);
    bd.hull = plank;
    bd.density = 1e-30f;
    feather = rg_body_create(w, &bd, NULL);
    ENSURE(rg_body_set_angular_velocity(w, feather, rg_v3(1e15f, 1e15f, 1e15f)) == RG_OK);
    bd = rg_body_default_def();
    bd.hull = plank;
    bd.rolling_friction = 7.3125f;
    bd.linear_velocity = rg_v3(1.4375f, 1.4375f, 7.3125f);
    bd.angular_velocity = rg_v3(7.3125f, 7.3125f, 7.3125f);
    heavy = rg_body_create(w, &bd, NULL);
    ENSURE(rg_world_set_gravity(w, rg_v3(1.4375f, 1.4375f, 1.4375f)) == RG_OK);
    for (step = 0; step < 3; ++step) {
        int k;
        ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
        for (k = 0; k < 2; ++k) {
            rg_body_id id = k ? heavy : feather;
            finite &= body_is_finite(w, id);
        }
    }
    rg_test_note("3 steps: %s; the heavy plank's angular velocity (%.3g, %.3g, %.3g)", finite ? "both finite" : "a body not finite",
                 (double)rg_body_angular_velocity(w, heavy).x, (double)rg_body_angular_velocity(w, heavy).y,
                 (double)rg_body_angular_velocity(w, heavy).z);
    ENSURE(finite);
    rg_world_destroy(w);
    rg_hull_destroy(plank);
}

/* fuzz_world (seed 23): gravity of 1e15 m/s^2 carries a pile 1e13 m away in a few steps, where
   float's rounding gives a contact on a plank of density 1e-30 an arm of 9e10 m; its inverse
   inertia (1e30) times that arm overflowed the point's turns, and inf times a zero warm-start
   impulse made the plank's angular velocity NaN. The script's bodies, rounded to the digits of
   its trace, still did (also before this session's changes). Every body must stay finite. */
static void test_feather_far_out_under_huge_gravity_stays_finite(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL), *plank = rg_hull_create_box(rg_v3(2, 0.1f, 0.5f), NULL);
    rg_hull *ground = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL);
    rg_real t = 1e-30f;
    rg_vec3 tiny = rg_v3(t, t, t), zero = rg_v3(0, 0, 0), torque = rg_v3(1.4375f, 1.4375f, 1.4375f);
    rg_body_id ids[10];
    int i, step, bad = 0;
    ENSURE(w && cube && plank && ground);
    ids[0] = make_body(w, RG_BODY_STATIC, ground, rg_v3(0, -0.5f, 0), rg_quat_identity(), zero, zero, 1000, 0);
    ids[1] = make_body(w, RG_BODY_DYNAMIC, cube, rg_v3(0, 0.5f, 5.625f), rg_quat_identity(), rg_v3(0, 0.375f, 0), zero, 1000, 0);
    ids[2] = make_body(w, RG_BODY_DYNAMIC, plank, rg_v3(1.46937e-39f, t, t), quat_of(t, t, t, 0), tiny, tiny, 1e-30f, 0);
    ids[3] = make_body(w, RG_BODY_DYNAMIC, plank, tiny, quat_of(t, t, t, t), tiny, tiny, 1000, 1.4375f);
    ids[4] = make_body(w, RG_BODY_DYNAMIC, cube, rg_v3(0.0625f, 1.5f, 0), quat_of(0, 0.0312449f, 0, 0.999512f), zero,
                       rg_v3(0, 0, 0.0625f), 1000, 0);
    ids[5] = make_body(w, RG_BODY_DYNAMIC, cube, rg_v3(0.125f, 2.5f, 0), quat_of(0, 0.061977f, 0.00774712f, 0.998048f), zero,
                       rg_v3(0, 0, 0.125f), 1000, 0);
    ids[6] = make_body(w, RG_BODY_DYNAMIC, cube, rg_v3(-0.0625f, -0.0625f, -0.0625f),
                       quat_of(0.0180393f, 0.0180393f, 0.0180393f, 0.999512f), rg_v3(-0.0625f, -0.0625f, -0.0625f),
                       rg_v3(-0.0625f, -0.0625f, -0.0625f), 1000, 0);
    ids[7] = make_body(w, RG_BODY_STATIC, cube, rg_v3(0, 1, 0), quat_of(-0.178474f, -0.171335f, 0, 0.968912f), zero, zero, 1000, 0);
    ids[8] = make_body(w, RG_BODY_STATIC, cube, rg_v3(3.3125f, 3.3125f, 3.3125f),
                       quat_of(-0.575244f, 0.575244f, 0.575244f, -0.0853497f), zero, zero, 1000, 0);
    ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
    rg_body_set_angular_velocity(w, ids[8], rg_v3(1e15f, 1e15f, 1e15f)); /* static: ignored or refused */
    ENSURE(rg_world_set_gravity(w, rg_v3(1e15f, 1e15f, 1e15f)) == RG_OK);
    ENSURE(rg_body_apply_torque(w, ids[5], torque) == RG_OK);
    ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
    ids[9] = make_body(w, RG_BODY_STATIC, cube, rg_v3(-0.5f, 0, 0), rg_quat_identity(), zero, zero, 1000, 0);
    for (step = 0; step < 3; ++step) ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
    ENSURE(rg_body_apply_torque(w, ids[3], torque) == RG_OK);
    ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
    for (i = 1; i < 10; ++i)
        bad += !body_is_finite(w, ids[i]);
    rg_test_note("6 steps, the last 5 under gravity 1e15: %d of 9 bodies not finite; the feather at %.3g m",
                 bad, (double)rg_v3_length(rg_body_position(w, ids[2])));
    ENSURE(bad == 0);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
    rg_hull_destroy(plank);
    rg_hull_destroy(ground);
}

/* fuzz_world: a kinematic slab at 1e15 m/s knocks a pile of cubes and slabs about; one cube
   (#15 of the script) leaves at 6e12 m/s and 1.3e14 rad/s and is then placed back, by
   rg_body_set_transform, into a kinematic slab it had touched. The pair's warm start carried
   last step's contact points with the cube by 1e11 m and a linear turn of 2e12 rad: the load's
   moments had arms of 1e11 m, its friction impulses came out at 3e29 N s against normal ones of
   9e17, the cube went to 4e19 m/s and 2e27 rad/s and the first contact sweep made it and the
   slab's solver velocities NaN. The script's bodies and calls, to the digits of its trace (the
   refused calls left out: they change nothing), fail the same way in float (the double build's
   run differs, and passed before too). Every body must stay finite, and the cube may not come
   out of the slabs with more kinetic energy than it went in with: their surfaces move at
   850 m/s at most, nothing next to its 1e14. */
static void test_cube_placed_into_a_slab_after_a_huge_knock_stays_finite(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL), *tiny = rg_hull_create_box(rg_v3(0.001f, 0.002f, 0.003f), NULL);
    rg_hull *slab = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL);
    static const rg_real placed[8][4] = {{0.9375f, 0.9375f, 1e30f, 0.9375f}, {0.9375f, 0.9375f, 0.9375f, 1e30f},
                                         {0.9375f, 0.9375f, 0.9375f, 0.9375f}, {0.9375f, 0.9375f, 0.9375f, 0.9375f},
                                         {0.9375f, 0.9375f, 0.9375f, 0.9375f}, {0.9375f, 0.9375f, 0.9375f, 0.9375f},
                                         {0.9375f, 0.9375f, 0.9375f, 0.9375f}, {0.9375f, 0.5625f, 1.6495e-33f, FLT_MAX}};
    const rg_body_type S = RG_BODY_STATIC, K = RG_BODY_KINEMATIC, D = RG_BODY_DYNAMIC;
    rg_real a = 6.8125f, b = -1.8125f, c = -1.3125f, e = 0.9375f;
    rg_quat qy = quat_of(0, -0.261579f, 0, -0.965182f), qd = quat_of(-0.151022f, -0.151022f, -0.151022f, -0.965182f);
    rg_quat one = rg_quat_identity();
    rg_vec3 va = rg_v3(a, a, a), zero = rg_v3(0, 0, 0);
    rg_body_def bd = rg_body_default_def();
    rg_body_id ids[17];
    double energy_before;
    int i, bad = 0;
    ENSURE(w && cube && tiny && slab);
    ids[0] = make_body(w, S, slab, rg_v3(0, -0.5f, 0), one, zero, zero, 1000, 0);
    ids[1] = make_body(w, D, cube, rg_v3(0, 0.5f, 0), one, zero, zero, 1000, 0);
    ids[2] = make_body(w, D, cube, rg_v3(0, 0, 1), qy, va, va, 1000, 0);
    bd.type = K;
    bd.hull = slab;
    bd.position = rg_v3(1, 1, 1);
    bd.orientation = quat_of(1, 1, 1, 1);
    bd.linear_velocity = bd.angular_velocity = rg_v3(1, 1, 1);
    bd.rolling_friction = 1;
    ids[3] = rg_body_create(w, &bd, NULL);
    ids[4] = make_body(w, K, slab, rg_v3(a, a, 5.875f), one, va, va, 1000, 0);
    ids[5] = make_body(w, K, slab, va, one, rg_v3(0.0625f, 0, a), rg_v3(a, 6.625f, a), 1000, 0);
    ids[6] = make_body(w, K, slab, va, qd, va, va, 1000, 0);
    ids[7] = make_body(w, D, tiny, zero, qd, rg_v3(a, a, 6.3125f), rg_v3(a, 6.25f, a), 1000, 0);
    ids[8] = make_body(w, K, slab, rg_v3(c, c, c), quat_of(0.35227f, 0.35227f, 0.35227f, 0.792286f),
                       rg_v3(-0.0625f, -0.0625f, 1e15f), rg_v3(-7.9375f, c, c), 1000, 0);
    ids[9] = make_body(w, D, cube, rg_v3(0.6875f, 0.6875f, -0.0625f), quat_of(0.0180393f, 0.0180393f, 0.0180393f, 0.999512f),
                       rg_v3(0.6875f, 4.875f, 4.875f), rg_v3(4.875f, b, 0), 1000, 0);
    ENSURE(rg_world_step(w, 1.96577e-24f) == RG_OK);
    ids[10] = make_body(w, D, slab, rg_v3(b, b, b), quat_of(0.454488f, 0.454488f, 0.454488f, 0.616702f),
                        rg_v3(b, -0.8125f, b), rg_v3(b, b, b), 1000, 0);
    ids[11] = make_body(w, D, slab, rg_v3(b, b, b), quat_of(-0.164593f, 0.442697f, 0.442697f, -0.762199f),
                        rg_v3(4.875f, 4.875f, 4.875f), rg_v3(0, a, a), 1000, 0);
    ids[12] = make_body(w, K, slab, va, qd, va, va, 1000, 0);
    ids[13] = make_body(w, K, slab, rg_v3(a, a, 5.1875f), qy, va, va, 1000, 0);
    ids[14] = make_body(w, K, slab, va, one, rg_v3(0, a, c), rg_v3(c, c, c), 1000, 0);
    ids[15] = make_body(w, D, cube, rg_v3(0.6875f, 0.6875f, 0.6875f), quat_of(0.194579f, 0.194579f, 0.194579f, 0.941497f),
                        rg_v3(0.6875f, 0.6875f, 0.6875f), rg_v3(0.0625f, -0.5f, 2.67787e-32f), 1000, 0);
    ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
    ids[16] = make_body(w, K, slab, va, qd, zero, rg_v3(0, 0.5625f, 0.5625f), 1000, 0);
    ENSURE(rg_world_set_gravity(w, rg_v3(e, e, e)) == RG_OK);
    for (i = 0; i < 8; ++i)
        ENSURE(rg_body_set_transform(w, ids[15], rg_v3(e, e, e), quat_of(placed[i][0], placed[i][1], placed[i][2], placed[i][3])) == RG_OK);
    energy_before = (double)rg_body_kinetic_energy(w, ids[15]);
    ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
    for (i = 0; i < 17; ++i)
        bad += !body_is_finite(w, ids[i]);
    rg_test_note("3 steps: %d of 17 bodies not finite; the placed cube's kinetic energy %.3g J before the last step, %.3g J after",
                 bad, energy_before, (double)rg_body_kinetic_energy(w, ids[15]));
    ENSURE(bad == 0);
    ENSURE((double)rg_body_kinetic_energy(w, ids[15]) <= energy_before);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
    rg_hull_destroy(tiny);
    rg_hull_destroy(slab);
}

/* fuzz_world (22 inputs from seeds 47 to 163, one cause; this is seed 103's): a kinematic cube
   under a stack of five cubes turned about y is set moving at 1e15 m/s on each axis, and a sixth
   cube is placed inside the stack. In the second step after, a speculative contact of the stack slid at about
   5e21 m/s: the squares of that speed overflow float, and so does its friction limit (6e17 N s)
   times it; the sliding direction u / |u| came out inf / inf, NaN, and the frozen body's zero
   inverse mass times that impulse made its velocity NaN. The sliding direction is now taken
   without overflow. Every body must stay finite (it failed before in float: NaN at the second
   step). */
static void test_stack_on_a_cube_flung_at_1e15_stays_finite(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_vec3 zero = rg_v3(0, 0, 0);
    rg_body_id ids[7];
    int i, bad = 0;
    ENSURE(w && cube);
    ids[0] = make_body(w, RG_BODY_KINEMATIC, cube, rg_v3(0, -0.5f, 0), rg_quat_identity(), zero, zero, 1000, 0);
    for (i = 0; i < 5; ++i)
        ids[i + 1] = make_body(w, RG_BODY_DYNAMIC, cube, rg_v3(0.0625f * (rg_real)i, 0.5f + (rg_real)i, 0),
                               rg_quat_from_axis_angle(rg_v3(0, 1, 0), 0.0625f * (rg_real)i), zero,
                               rg_v3(0, 0, 0.0625f * (rg_real)i), 1000, 0);
    for (i = 0; i < 21; ++i) ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
    ENSURE(rg_body_set_linear_velocity(w, ids[0], rg_v3(1e15f, 1e15f, 1e15f)) == RG_OK);
    ids[6] = make_body(w, RG_BODY_DYNAMIC, cube, rg_v3(0, 0.5f, 0), rg_quat_from_axis_angle(rg_v3(0, 1, 1.8125f), 1.8125f),
                       zero, zero, 1000, 0);
    for (i = 0; i < 2; ++i) ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
    for (i = 0; i < 7; ++i) bad += !body_is_finite(w, ids[i]);
    rg_test_note("23 steps, the last 2 with the kinematic cube at 1e15 m/s: %d of 7 bodies not finite", bad);
    ENSURE(bad == 0);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
}

/* fuzz_world (seed 202): a kinematic slab spinning at 1e15 rad/s flung two cubes 1e13 m away at
   3e14 m/s; one was placed back at the origin. The two cubes, 1.5e13 m apart, closing at 5e14 m/s,
   were within their speculative margin, but in b's frame a's vertices lie 1e13 m out, where
   float rounds to 1e6 m: the clipping made b's whole face the contact, and its points moved by
   the gap along n landed 5e12 m off a. Arms that long gave infinite errors, and shock propagation
   NaN velocities. The script through the public API; every body must stay finite (it failed
   before in float). */
static void test_speculative_contact_across_1e13_m_stays_finite(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_hull *plank = rg_hull_create_box(rg_v3(2, 0.1f, 0.5f), NULL);
    rg_hull *slab = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL);
    rg_vec3 zero = rg_v3(0, 0, 0);
    rg_body_id ids[4];
    int i, bad = 0;
    ENSURE(w && cube && plank && slab);
    ids[0] = make_body(w, RG_BODY_DYNAMIC, plank, rg_v3(-0.0625f, -0.0625f, 0), rg_quat_identity(), zero, zero, 1000, 0);
    ids[1] = make_body(w, RG_BODY_KINEMATIC, slab, rg_v3(6.8125f, 6.8125f, -0.0625f),
                       quat_of(-0.0f, 0.166546702f, -0.201706558f, -0.965182185f), rg_v3(6.8125f, 6.8125f, 6.8125f),
                       rg_v3(6.8125f, 0, 0), 1000, 0);
    ids[2] = make_body(w, RG_BODY_DYNAMIC, cube, rg_v3(0, 0.5f, 0.25f), rg_quat_identity(), zero, zero, 1000, 0);
    ids[3] = make_body(w, RG_BODY_DYNAMIC, cube, rg_v3(0.0625f, 0.3125f, 0.3125f),
                       quat_of(0.089844346f, 0.089844346f, 0.089844346f, 0.987817764f), rg_v3(0.3125f, -2.0625f, -2.0625f),
                       rg_v3(-2.0625f, -2.0625f, -2.0625f), 1000, 0);
    ENSURE(rg_body_apply_force(w, ids[2], rg_v3(4.875f, 4.875f, 4.875f),
                               rg_v3_add(rg_body_center_of_mass(w, ids[2]), rg_v3(4.875f, 4.875f, 4.875f))) == RG_OK);
    ENSURE(rg_body_apply_impulse(w, ids[2], rg_v3(4.875f, 4.875f, -2.0625f),
                                 rg_v3_add(rg_body_center_of_mass(w, ids[2]), rg_v3(-2.0625f, -2.0625f, -2.0625f))) == RG_OK);
    ENSURE(rg_body_set_angular_velocity(w, ids[1], rg_v3(1e15f, 1e15f, -5.5625f)) == RG_OK);
    for (i = 0; i < 2; ++i) ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
    ENSURE(rg_body_set_transform(w, ids[3], zero, quat_of(0, 0, -5.5625f, -5.5625f)) == RG_OK);
    ENSURE(rg_world_step(w, 0.6953125f) == RG_OK);
    for (i = 0; i < 4; ++i) bad += !body_is_finite(w, ids[i]);
    rg_test_note("cubes flung to %.3g and %.3g m, the second placed back: %d of 4 bodies not finite",
                 rg_v3_length(rg_body_position(w, ids[2])), rg_v3_length(rg_body_position(w, ids[3])), bad);
    ENSURE(bad == 0);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
    rg_hull_destroy(plank);
    rg_hull_destroy(slab);
}

/* fuzz_world (seed 207): a box of 2 x 4 x 6 mm (48 mg) inside a pile of kinematic slabs, one of
   them spinning at 1e15 rad/s, was struck to 2e18 rad/s, and its collision's rotation offset
   (-dw toi) was a turn of 2e19 rad, whose square overflows float: the turn's sine and cosine of
   an infinite angle were NaN, and the first-order pass's pushes, through every body, NaN. Turns
   beyond 1e12 rad are now taken modulo a full turn. The script through the public API (calls
   the harness refused left out); every body must stay finite (it failed before in float). */
static void test_tiny_box_struck_by_a_spinning_slab_stays_finite(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_hull *hulls[4];
    rg_body_id ids[22];
    int i, bad = 0;
    hulls[0] = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    hulls[1] = NULL;
    hulls[2] = rg_hull_create_box(rg_v3(0.001f, 0.002f, 0.003f), NULL);
    hulls[3] = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL);
    ENSURE(w && hulls[0] && hulls[2] && hulls[3]);
    ids[0] = make_body(w, RG_BODY_STATIC, hulls[0], rg_v3(0, 0, 0), quat_of(0, 0, 0, 1), rg_v3(0, 0.5f, 0), rg_v3(0, 6.8125f, 6.8125f), 1000, 0);
    ids[1] = make_body(w, RG_BODY_KINEMATIC, hulls[3], rg_v3(2.8125f, 6.8125f, 6.8125f), quat_of(-0.151022449f, -0.151022449f, -0.151022449f, -0.965182185f), rg_v3(0.3125f, 0, 6.8125f), rg_v3(6.8125f, 7.1875f, 6.8125f), 1000, 0);
    ids[2] = make_body(w, RG_BODY_DYNAMIC, hulls[3], rg_v3(6.8125f, 2.5625f, 6.8125f), quat_of(-0.151022449f, -0.151022449f, -0.151022449f, -0.965182185f), rg_v3(6.8125f, 6.8125f, 6.8125f), rg_v3(6.8125f, 6.8125f, 6.8125f), 1000, 0);
    ids[3] = make_body(w, RG_BODY_KINEMATIC, hulls[3], rg_v3(6.8125f, 6.8125f, 0), quat_of(-0.186875492f, -0.00192655146f, -0.18302238f, -0.965182185f), rg_v3(6.8125f, 6.8125f, 6.8125f), rg_v3(6.8125f, 6.8125f, 0.3125f), 1000, 0);
    ENSURE(rg_body_set_angular_velocity(w, ids[1], rg_v3(9.99999987e+14f, 9.99999987e+14f, 1.00000048f)) == RG_OK);
    ids[4] = make_body(w, RG_BODY_KINEMATIC, hulls[3], rg_v3(6.8125f, 6.8125f, -6.875f), quat_of(-0.14335753f, -0.154712588f, -0.154712588f, -0.965182185f), rg_v3(6.8125f, 6.8125f, 6.8125f), rg_v3(6.8125f, 6.8125f, 6.8125f), 1000, 0);
    ids[5] = make_body(w, RG_BODY_STATIC, hulls[0], rg_v3(0, 0, 0), quat_of(0, 0, 0, 1), rg_v3(0, 0, 1), rg_v3(0, 0, -6.6875f), 1000, 0);
    ENSURE(rg_body_set_angular_velocity(w, ids[0], rg_v3(0, 0, 6.25f)) == RG_OK);
    ids[6] = make_body(w, RG_BODY_KINEMATIC, hulls[3], rg_v3(6.8125f, 6.8125f, 6.8125f), quat_of(-0.151022449f, -0.151022449f, -0.151022449f, -0.965182185f), rg_v3(6.8125f, 6.8125f, 6.8125f), rg_v3(6.8125f, 6.8125f, 6.8125f), 1000, 0);
    ENSURE(rg_world_step(w, 0.8515625f) == RG_OK);
    ids[7] = make_body(w, RG_BODY_KINEMATIC, hulls[3], rg_v3(6.8125f, 4.875f, 0), quat_of(0, -0.26157856f, 0, -0.965182185f), rg_v3(6.8125f, 6.8125f, 6.8125f), rg_v3(6.8125f, 6.8125f, 6.8125f), 1000, 0);
    ids[8] = make_body(w, RG_BODY_KINEMATIC, hulls[3], rg_v3(6.8125f, 6.8125f, 6.8125f), quat_of(0, -0.184963971f, -0.184963971f, -0.965182185f), rg_v3(6.8125f, 6.8125f, 0.3125f), rg_v3(0, 6.8125f, 6.8125f), 1000, 0);
    ids[9] = make_body(w, RG_BODY_KINEMATIC, hulls[3], rg_v3(6.8125f, 6.8125f, 6.8125f), quat_of(0.000663145329f, 0.0165786333f, 0, -0.999862373f), rg_v3(0, 6.25f, -4.0625f), rg_v3(-4.0625f, -4.0625f, -4.0625f), 1000, 0);
    ENSURE(rg_world_step(w, 0.5078125f) == RG_OK);
    ENSURE(rg_world_step(w, 0.5078125f) == RG_OK);
    ENSURE(rg_world_step(w, 0.5078125f) == RG_OK);
    ids[10] = make_body(w, RG_BODY_KINEMATIC, hulls[3], rg_v3(6.8125f, 6.8125f, 0), quat_of(-0.151022449f, -0.151022449f, -0.151022449f, -0.965182185f), rg_v3(6.8125f, 6.8125f, 6.8125f), rg_v3(6.8125f, 6.8125f, 6.8125f), 1000, 0);
    ids[11] = make_body(w, RG_BODY_STATIC, hulls[0], rg_v3(0, 6.8125f, -6.8125f), quat_of(0, -0.184963971f, -0.184963971f, -0.965182185f), rg_v3(6.8125f, 6.8125f, 6.8125f), rg_v3(6.8125f, 6.8125f, 6.8125f), 1000, 0);
    ids[12] = make_body(w, RG_BODY_KINEMATIC, hulls[3], rg_v3(6.8125f, 0, 0), quat_of(0, 0, -0.26157853f, -0.965182185f), rg_v3(6.8125f, 6.8125f, 6.8125f), rg_v3(6.8125f, 6.8125f, 6.8125f), 1000, 0);
    ids[13] = make_body(w, RG_BODY_KINEMATIC, hulls[3], rg_v3(6.8125f, 6.8125f, 6.8125f), quat_of(-0.151022449f, -0.151022449f, -0.151022449f, -0.965182185f), rg_v3(6.8125f, 6.8125f, 6.8125f), rg_v3(6.8125f, 6.8125f, 0), 1000, 0);
    ids[14] = make_body(w, RG_BODY_STATIC, hulls[0], rg_v3(0, 0, 6.8125f), quat_of(-0.151022449f, -0.151022449f, -0.151022449f, -0.965182185f), rg_v3(6.8125f, 6.8125f, 6.8125f), rg_v3(6.8125f, 6.8125f, 6.8125f), 1000, 0);
    ids[15] = make_body(w, RG_BODY_KINEMATIC, hulls[3], rg_v3(0, 0, 0.0625f), quat_of(0, -0.184963971f, -0.184963971f, -0.965182185f), rg_v3(6.8125f, 6.8125f, 6.8125f), rg_v3(6.8125f, 6.8125f, 6.8125f), 1000, 0);
    ids[16] = make_body(w, RG_BODY_KINEMATIC, hulls[3], rg_v3(6.8125f, 0, 6.8125f), quat_of(-0.151022449f, -0.151022449f, -0.151022449f, -0.965182185f), rg_v3(0.3125f, 0, 6.8125f), rg_v3(6.8125f, 1, 0), 1000, 0);
    ids[17] = make_body(w, RG_BODY_KINEMATIC, hulls[3], rg_v3(6.8125f, 0.25f, 6.25f), quat_of(0, 0.0165918916f, 0, -0.999862373f), rg_v3(-4.0625f, -4.0625f, -4.0625f), rg_v3(-4.0625f, -4.0625f, -4.0625f), 1000, 0);
    ENSURE(rg_world_step(w, 0.5078125f) == RG_OK);
    ENSURE(rg_world_step(w, 0.5078125f) == RG_OK);
    ENSURE(rg_world_step(w, 0.0166666675f) == RG_OK);
    ids[18] = make_body(w, RG_BODY_KINEMATIC, hulls[3], rg_v3(6.8125f, 0, 6.8125f), quat_of(-0.151022449f, -0.151022449f, -0.151022449f, -0.965182185f), rg_v3(6.8125f, 6.8125f, 6.8125f), rg_v3(6.8125f, 6.8125f, 6.8125f), 1000, 0);
    ENSURE(rg_body_set_angular_velocity(w, ids[0], rg_v3(1.00000048f, 1.0000006f, 3.71267442e-39f)) == RG_OK);
    ids[19] = make_body(w, RG_BODY_DYNAMIC, hulls[3], rg_v3(6.8125f, 6.8125f, 6.8125f), quat_of(-0.151022449f, -0.151022449f, -0.151022449f, -0.965182185f), rg_v3(6.8125f, 4.875f, 0), rg_v3(0, 0, 6.8125f), 1000, 0);
    ids[20] = make_body(w, RG_BODY_DYNAMIC, hulls[2], rg_v3(6.8125f, 6.8125f, 6.8125f), quat_of(-0.151022449f, -0.151022449f, -0.151022449f, -0.965182185f), rg_v3(6.8125f, 6.8125f, 6.8125f), rg_v3(6.8125f, 6.8125f, 6.8125f), 1000, 0);
    ids[21] = make_body(w, RG_BODY_KINEMATIC, hulls[3], rg_v3(6.8125f, 6.8125f, 6.8125f), quat_of(0.528308392f, 0.528308392f, 0, 0.664665759f), rg_v3(0, 0.6875f, 0), rg_v3(2.875f, -4.0625f, -4.0625f), 1000, 0);
    ENSURE(rg_world_step(w, 0.5078125f) == RG_OK);
    for (i = 0; i < 22; ++i) bad += !body_is_finite(w, ids[i]);
    rg_test_note("the box struck at %.3g rad/s: %d of 22 bodies not finite", rg_v3_length(rg_body_angular_velocity(w, ids[20])), bad);
    ENSURE(bad == 0);
    rg_world_destroy(w);
    rg_hull_destroy(hulls[0]);
    rg_hull_destroy(hulls[2]);
    rg_hull_destroy(hulls[3]);
}

/* A free asymmetric box (half extents 0.5, 0.3, 0.2 m, 150 kg) spun fast keeps its kinetic energy
   and |L| over 20 steps of 1/60 s, as the implicit midpoint rule does when solved. Its Newton
   iterations used to be run once per step from w1 = w0 and diverged beyond about 8 radians a
   step: at 693 rad/s (11.6 rad a step) the energy grew 1900 times (1200 in double) and |L|
   50 times; a fuzzed kinematic slab at 1e15 m/s made a cube's spin overflow. Spins like these
   come from fast impacts on small bodies, or from slower spins with long steps (up to 1 s).
   Checked at 297 rad/s (5 rad a step), 693 and 6930 rad/s, within 1e-4. */
static void test_fast_spin_keeps_its_energy(void) {
    static const double spins[3] = {297, 693, 6930};
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 0.3f, 0.2f), NULL);
    int k, i;
    ENSURE(box != NULL);
    for (k = 0; k < 3; ++k) {
        rg_world_def wd = rg_world_default_def();
        rg_world *w;
        rg_body_def bd = rg_body_default_def();
        rg_body_id id;
        rg_vec3 axis = rg_v3_normalize(rg_v3(0.3f, 0.5f, -0.8f));
        double e0, l0, e, l;
        wd.gravity = rg_v3(0, 0, 0);
        w = rg_world_create(&wd, NULL);
        bd.hull = box;
        bd.orientation = rg_quat_from_axis_angle(rg_v3(0.3f, 1, 0.2f), 0.7f);
        bd.angular_velocity = rg_v3_scale(axis, (rg_real)spins[k]);
        id = rg_body_create(w, &bd, NULL);
        e0 = rg_body_kinetic_energy(w, id);
        l0 = rg_v3_length(rg_body_angular_momentum(w, id));
        for (i = 0; i < 20; ++i) ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
        e = rg_body_kinetic_energy(w, id);
        l = rg_v3_length(rg_body_angular_momentum(w, id));
        rg_test_note("|w| %.0f rad/s (%.1f rad a step): after 20 steps energy x %.6g, |L| x %.6g", spins[k], spins[k] / 60,
                     e / e0, l / l0);
        ENSURE_NEAR(e / e0, 1, 1e-4);
        ENSURE_NEAR(l / l0, 1, 1e-4);
        rg_world_destroy(w);
    }
    rg_hull_destroy(box);
}

/* fuzz_world (seed 201): a slab of 1e7 kg (100 x 1 x 100 m) inside a kinematic one spinning at
   1e15 rad/s was knocked to a spin of 3e14 rad/s. Twice its kinetic energy, w^T I w, is then
   about 1e39, beyond float; the gyroscopic step's guard compared the energies before and after
   as inf <= inf and let a spin of 8e19 rad/s through, and the next move made the slab's position
   NaN. Here the spinner (two of the spins and turns that showed it) is removed after the knock,
   so that in the next step the slab moves freely, and the gyroscopic term never adds energy: the
   energy w . L (in double, from the float w and L) after that step may be at most that before
   it, to 1e-4. Before the fix it grew 4e5 and 3e10 times. */
static void test_slab_knocked_to_a_huge_spin_keeps_its_energy(void) {
    static const double steps[2] = {1.0 / 60, 0.6953125}, turns[2] = {1.1, 0.53};
    static const float spins[2][3] = {{0, 2e14f, 0}, {3e14f, -1e14f, 2e14f}};
    rg_hull *slab = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL);
    int k, i;
    ENSURE(slab != NULL);
    for (k = 0; k < 2; ++k) {
        rg_world_def wd = rg_world_default_def();
        rg_world *w = rg_world_create(&wd, NULL);
        rg_body_def bd = rg_body_default_def();
        rg_body_id spinner, id;
        rg_vec3 omega, momentum;
        double e0, e1;
        bd.hull = slab;
        bd.position = rg_v3(6.8125f, 6.8125f, 6.8125f);
        bd.orientation = rg_quat_from_axis_angle(rg_v3(-1, -1, -1), (rg_real)turns[k]);
        bd.type = RG_BODY_KINEMATIC;
        bd.angular_velocity = rg_v3(spins[k][0], spins[k][1], spins[k][2]);
        spinner = rg_body_create(w, &bd, NULL);
        bd.type = RG_BODY_DYNAMIC;
        bd.linear_velocity = rg_v3(6.8125f, 6.8125f, 6.8125f);
        bd.angular_velocity = rg_v3(6.8125f, 7.875f, 6.8125f);
        id = rg_body_create(w, &bd, NULL);
        ENSURE(rg_body_is_valid(w, spinner) && rg_body_is_valid(w, id));
        ENSURE(rg_world_step(w, (rg_real)steps[k]) == RG_OK);
        ENSURE(rg_body_destroy(w, spinner) == RG_OK);
        omega = rg_body_angular_velocity(w, id);
        momentum = rg_body_angular_momentum(w, id);
        e0 = (double)omega.x * momentum.x + (double)omega.y * momentum.y + (double)omega.z * momentum.z;
        ENSURE(rg_world_step(w, (rg_real)steps[k]) == RG_OK);
        omega = rg_body_angular_velocity(w, id);
        momentum = rg_body_angular_momentum(w, id);
        e1 = (double)omega.x * momentum.x + (double)omega.y * momentum.y + (double)omega.z * momentum.z;
        rg_test_note("step %.4f s: knocked to |w| %.3g rad/s, 2 E %.4g -> %.4g in the free step", steps[k],
                     rg_v3_length(omega), e0, e1);
        ENSURE(e1 <= e0 * (1 + 1e-4));
        for (i = 0; i < 3; ++i) {
            ENSURE(rg_world_step(w, (rg_real)steps[k]) == RG_OK);
            ENSURE(rg_v3_is_finite(rg_body_angular_velocity(w, id)) && rg_v3_is_finite(rg_body_position(w, id)));
        }
        rg_world_destroy(w);
    }
    rg_hull_destroy(slab);
}

/* A cube of 1 kg landing on a corner (lowest corner 2.53 cm above the ground, falling at
   6.6 m/s, spinning at 4 rad/s, restitution 0) may not gain mechanical energy (kinetic +
   m g y) in the step it lands; allowed: 0.05 J (a 5 mm lift). In the collision loop a sliding
   point's friction used to be set to mu_d pn against the current sliding direction; at a
   corner, far from the centre of mass, the tangential mass is strongly anisotropic, so that
   impulse turned the sliding around instead of slowing it, the next visit turned it back, and
   the cube went from 32.6 J to 38.4 J and left spinning at 15.5 rad/s (the soak measured such
   gains in 70 steps of 1 000 000). It then comes to rest on a face within 3 s. */
static double mechanical_energy(const rg_world *w, rg_body_id id) {
    return (double)rg_body_kinetic_energy(w, id) -
           (double)rg_body_mass(w, id) * (double)rg_world_gravity(w).y * (double)rg_body_center_of_mass(w, id).y;
}

static void test_collision_friction_creates_no_energy(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_hull *ground = rg_hull_create_box(rg_v3(10, 0.5f, 10), NULL), *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_def bd = rg_body_default_def();
    rg_body_id id;
    rg_real lowest = 0;
    double before, after, gain;
    int i;
    ENSURE(w && ground && cube);
    add_ground(w, ground);
    bd.hull = cube;
    bd.mass = 1;
    bd.orientation = rg_quat_from_axis_angle(rg_v3(0.4f, 0, 0.2f), 5.8f);
    bd.linear_velocity = rg_v3(0.3f, -6.6f, 1.9f);
    bd.angular_velocity = rg_v3(3.6f, -1.5f, 1);
    for (i = 0; i < rg_hull_vertex_count(cube); ++i) {
        rg_real y = rg_quat_rotate(bd.orientation, rg_hull_vertex(cube, i)).y;
        if (y < lowest) lowest = y;
    }
    bd.position = rg_v3(0, -lowest + 0.23f * 6.6f / 60, 0);   /* the corner 2.53 cm above the ground */
    id = rg_body_create(w, &bd, NULL);
    before = mechanical_energy(w, id);
    ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
    after = mechanical_energy(w, id);
    gain = after - before;
    ENSURE(rg_world_contacts(w, NULL, 0) > 0);   /* it landed in this step */
    rg_test_note("a cube landing on a corner: mechanical energy %.2f J before the step, %.2f J after (%+.2f J), spin %.1f rad/s",
                 before, after, gain, (double)rg_v3_length(rg_body_angular_velocity(w, id)));
    ENSURE(gain <= 0.05);
    for (i = 0; i < 180; ++i) ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
    ENSURE(rg_v3_is_finite(rg_body_position(w, id)) && rg_quat_is_finite(rg_body_orientation(w, id)));
    ENSURE_NEAR(rg_body_position(w, id).y, 0.5, 0.01);   /* at rest on a face after 3 s */
    ENSURE(rg_v3_length(rg_body_linear_velocity(w, id)) < 0.01);
    rg_world_destroy(w);
    rg_hull_destroy(ground);
    rg_hull_destroy(cube);
}

/* A see-saw hit hard: a plank (1.6 x 0.4 x 0.8 m) across a 0.5 m cube, a 0.5 m cube of 1 kg
   resting on one end, another of drop_mass dropped onto the other end at drop_speed, the others
   of 1 kg, restitution 0. After the drop nothing feeds the scene, so in no step may the
   mechanical energy of the four bodies (kinetic + m |g| y) grow by more than 0.05 J (a 5 mm lift
   of 1 kg, the soak's slack) over what the first-order pass may lift: m |g| times each body's
   deepest contact at the step's start. *worst is the largest growth over that allowance in
   `steps` steps (infinite if the scene could not be built or run), *gain that step's growth and
   *at the step. */
static void seesaw_hit(double drop_mass, double drop_speed, int steps, double *worst, double *gain, int *at) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_hull *ground = rg_hull_create_box(rg_v3(10, 0.5f, 10), NULL), *block = rg_hull_create_box(rg_v3(0.25f, 0.25f, 0.25f), NULL);
    rg_hull *plank = rg_hull_create_box(rg_v3(0.8f, 0.2f, 0.4f), NULL);
    rg_body_def bd = rg_body_default_def();
    rg_body_id ids[4];
    rg_contact contacts[64];
    const rg_hull *hulls[4];
    rg_vec3 places[4];
    double before = 0, g = 9.81;
    int i, step;
    *worst = HUGE_VAL;
    ENSURE(w && ground && block && plank);
    add_ground(w, ground);
    hulls[0] = hulls[2] = hulls[3] = block;
    hulls[1] = plank;
    places[0] = rg_v3(0, 0.25f, 0);      /* the fulcrum */
    places[1] = rg_v3(0, 0.7f, 0);
    places[2] = rg_v3(-0.6f, 1.15f, 0);  /* resting on the plank's left end */
    places[3] = rg_v3(0.6f, 1.4f, 0);    /* dropped onto its right end */
    bd.static_friction = bd.dynamic_friction = 0.5f;
    for (i = 0; i < 4; ++i) {
        bd.hull = hulls[i];
        bd.position = places[i];
        bd.mass = i == 3 ? (rg_real)drop_mass : 1;
        bd.linear_velocity = rg_v3(0, i == 3 ? (rg_real)-drop_speed : 0, 0);
        ids[i] = rg_body_create(w, &bd, NULL);
        ENSURE(rg_body_is_valid(w, ids[i]));
        before += mechanical_energy(w, ids[i]);
    }
    *worst = -HUGE_VAL;
    for (step = 1; step <= steps; ++step) {
        double after = 0, allowed = 0, depth[4] = {0, 0, 0, 0};
        int c, n;
        ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
        n = rg_world_contacts(w, contacts, 64);
        ENSURE(n <= 64);
        for (c = 0; c < n; ++c)
            for (i = 0; i < 4; ++i)
                if ((contacts[c].a.index == ids[i].index || contacts[c].b.index == ids[i].index) && contacts[c].depth > depth[i])
                    depth[i] = (double)contacts[c].depth;
        for (i = 0; i < 4; ++i) {
            after += mechanical_energy(w, ids[i]);
            allowed += (double)rg_body_mass(w, ids[i]) * g * depth[i];
        }
        if (after - before - allowed > *worst) {
            *worst = after - before - allowed;
            *gain = after - before;
            *at = step;
        }
        before = after;
    }
    for (i = 0; i < 4; ++i) ENSURE(rg_v3_is_finite(rg_body_position(w, ids[i])));
    rg_world_destroy(w);
    rg_hull_destroy(ground);
    rg_hull_destroy(block);
    rg_hull_destroy(plank);
}

/* The see-saw above hit by 1 kg at 20 m/s. The contact sweeps absorb part of the impact, so the
   impulses they carry to the next step as its warm start are tens of times the resting loads;
   re-applied to a plank that is then flying up, they pushed it apart with 23 J in the next
   step's warm start, and 10 sweeps and shock propagation left 0.89 J of it (the 1 000 000-step
   soak found the same at step 267 860: 4.3 J in a pile). An island whose warm start would raise
   the sweeps' objective above a cold start's now takes it only as far as it lowers it
   (rg__warm_limit). */
static void test_warm_start_after_impact_creates_no_energy(void) {
    double gain = 0, worst;
    int at = 0;
    seesaw_hit(1, 20, 60, &worst, &gain, &at);
    rg_test_note("a see-saw hit at 20 m/s: the largest gain of energy in a step over its allowance %+.4f J (step %d, gain %+.4f J)",
                 worst, at, gain);
    ENSURE(worst <= 0.05);
}

/* The see-saw above hit by 10 and 20 kg at 10 m/s: it tips over with the heavy cube, lifting the
   light one. Shock propagation froze the plank and fitted the light cube to its motion without
   slowing the plank, and the scene gained up to 0.64 J (10 kg) and 0.82 J (20 kg) a step for
   some 20 steps; each island now keeps only as much of shock propagation's change as adds no
   kinetic energy (rg__shock_limit_energy). */
static void test_shock_propagation_creates_no_energy(void) {
    static const double masses[] = {10, 20};
    int k;
    for (k = 0; k < 2; ++k) {
        double gain = 0, worst;
        int at = 0;
        seesaw_hit(masses[k], 10, 120, &worst, &gain, &at);
        rg_test_note("a see-saw hit by %.0f kg at 10 m/s: the largest gain of energy in a step over its allowance %+.4f J "
                     "(step %d, gain %+.4f J)",
                     masses[k], worst, at, gain);
        ENSURE(worst <= 0.05);
    }
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

void rg_tests_reliability(void) {
    RUN_TEST(test_result_strings);
    RUN_TEST(test_vector_length_and_direction_at_range_edges);
    RUN_TEST(test_quaternions_at_range_edges);
    RUN_TEST(test_matrices_at_range_edges);
    RUN_TEST(test_math_functions_take_nan);
    RUN_TEST(test_hull_create_bad_input);
    RUN_TEST(test_quickhull_keeps_a_far_point);
    RUN_TEST(test_polyhedron_and_box_bad_input);
    RUN_TEST(test_collide_hulls_bad_input);
    RUN_TEST(test_collide_far_apart_does_not_crash);
    RUN_TEST(test_collide_tiny_hull_inside_far_off_box);
    RUN_TEST(test_collide_tiny_hull_inside_with_a_wide_margin);
    RUN_TEST(test_collide_uneven_sizes_overlap);
    RUN_TEST(test_world_bad_input);
    RUN_TEST(test_bad_calls_leave_the_world_as_it_was);
    RUN_TEST(test_tiny_and_huge_bodies_turn);
    RUN_TEST(test_limits_keep_accepted_input_finite);
    RUN_TEST(test_tiny_step_does_not_launch_resting_bodies);
    RUN_TEST(test_collision_friction_creates_no_energy);
    RUN_TEST(test_warm_start_after_impact_creates_no_energy);
    RUN_TEST(test_shock_propagation_creates_no_energy);
    RUN_TEST(test_shortest_step_keeps_a_penetrating_body_finite);
    RUN_TEST(test_shortest_step_with_bodies_inside_each_other_stays_finite);
    RUN_TEST(test_feather_with_rolling_friction_stays_finite);
    RUN_TEST(test_feather_far_out_under_huge_gravity_stays_finite);
    RUN_TEST(test_cube_placed_into_a_slab_after_a_huge_knock_stays_finite);
    RUN_TEST(test_stack_on_a_cube_flung_at_1e15_stays_finite);
    RUN_TEST(test_speculative_contact_across_1e13_m_stays_finite);
    RUN_TEST(test_tiny_box_struck_by_a_spinning_slab_stays_finite);
    RUN_TEST(test_fast_spin_keeps_its_energy);
    RUN_TEST(test_slab_knocked_to_a_huge_spin_keeps_its_energy);
}
