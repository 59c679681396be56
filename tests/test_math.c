/* Vector, quaternion and matrix identities. */
#include "test.h"

static rg_vec3 random_vec3(double scale) {
    rg_vec3 v; /* one draw per statement: argument evaluation order is unspecified */
    v.x = (rg_real)rg_test_uniform(-scale, scale);
    v.y = (rg_real)rg_test_uniform(-scale, scale);
    v.z = (rg_real)rg_test_uniform(-scale, scale);
    return v;
}

static rg_quat random_rotation(void) {
    return rg_quat_from_axis_angle(random_vec3(1), (rg_real)rg_test_uniform(-3.1, 3.1));
}

static void test_vector_identities(void) {
    int i;
    rg_test_seed(1);
    for (i = 0; i < 1000; ++i) {
        rg_vec3 a = random_vec3(2), b = random_vec3(2), c = rg_v3_cross(a, b);
        /* a x b is orthogonal to both; |a x b|^2 + (a.b)^2 = |a|^2 |b|^2 (Lagrange) */
        ENSURE_NEAR(rg_v3_dot(c, a), 0, 50 * RG_TEST_EPS);
        ENSURE_NEAR(rg_v3_dot(c, b), 0, 50 * RG_TEST_EPS);
        ENSURE_NEAR(rg_v3_length_squared(c) + rg_v3_dot(a, b) * rg_v3_dot(a, b),
                    rg_v3_length_squared(a) * rg_v3_length_squared(b), 200 * RG_TEST_EPS);
        ENSURE_NEAR(rg_v3_length(rg_v3_normalize(a)), 1, 4 * RG_TEST_EPS);
        ENSURE_V3_NEAR(rg_v3_sub(rg_v3_add(a, b), b), a, 8 * RG_TEST_EPS);
        ENSURE_V3_NEAR(rg_v3_madd(a, b, 2), rg_v3_add(a, rg_v3_scale(b, 2)), 8 * RG_TEST_EPS);
    }
    ENSURE_V3_NEAR(rg_v3_normalize(rg_v3(0, 0, 0)), rg_v3(0, 0, 0), 0);
    ENSURE_V3_NEAR(rg_v3_cross(rg_v3(1, 0, 0), rg_v3(0, 1, 0)), rg_v3(0, 0, 1), 0); /* right-handed */
}

static void test_quaternion_identities(void) {
    int i;
    rg_quat quarter = rg_quat_from_axis_angle(rg_v3(0, 0, 2), (rg_real)(3.14159265358979 / 2));
    /* a quarter turn about +z takes +x to +y */
    ENSURE_V3_NEAR(rg_quat_rotate(quarter, rg_v3(1, 0, 0)), rg_v3(0, 1, 0), 4 * RG_TEST_EPS);
    ENSURE_V3_NEAR(rg_quat_rotate(rg_quat_from_axis_angle(rg_v3(0, 0, 0), 1), rg_v3(1, 2, 3)),
                   rg_v3(1, 2, 3), 0);
    rg_test_seed(2);
    for (i = 0; i < 1000; ++i) {
        rg_quat a = random_rotation(), b = random_rotation();
        rg_quat minus_a = a;
        rg_vec3 v = random_vec3(3);
        rg_vec3 rotated = rg_quat_rotate(a, v);
        minus_a.x = -a.x; minus_a.y = -a.y; minus_a.z = -a.z; minus_a.w = -a.w;
        ENSURE_NEAR(sqrt(rg_quat_dot(a, a)), 1, 4 * RG_TEST_EPS);
        /* round trip, length kept, q and -q the same rotation */
        ENSURE_V3_NEAR(rg_quat_rotate_inverse(a, rotated), v, 40 * RG_TEST_EPS);
        ENSURE_V3_NEAR(rg_quat_rotate(rg_quat_conjugate(a), rotated), v, 40 * RG_TEST_EPS);
        ENSURE_NEAR(rg_v3_length(rotated), rg_v3_length(v), 40 * RG_TEST_EPS);
        ENSURE_V3_NEAR(rg_quat_rotate(minus_a, v), rotated, 40 * RG_TEST_EPS);
        /* rg_quat_mul(a, b) applies b, then a */
        ENSURE_V3_NEAR(rg_quat_rotate(rg_quat_mul(a, b), v), rg_quat_rotate(a, rg_quat_rotate(b, v)),
                       60 * RG_TEST_EPS);
        /* the matrix of a rotation does what the rotation does */
        ENSURE_V3_NEAR(rg_mat3_mul_v3(rg_mat3_from_quat(a), v), rotated, 40 * RG_TEST_EPS);
        /* normalisation of a scaled quaternion gives the same rotation back */
        {
            rg_quat scaled = a;
            scaled.x *= 3; scaled.y *= 3; scaled.z *= 3; scaled.w *= 3;
            ENSURE_NEAR(rg_quat_dot(rg_quat_normalize(scaled), a), 1, 8 * RG_TEST_EPS);
        }
    }
    {
        rg_quat zero = {0, 0, 0, 0};
        ENSURE_NEAR(rg_quat_normalize(zero).w, 1, 0);
    }
}

static void test_rotation_vector_is_exact(void) {
    /* turning by w*h in n substeps equals one turn by the whole rotation vector */
    rg_vec3 rotation = rg_v3((rg_real)0.3, (rg_real)-1.2, (rg_real)0.7);
    rg_quat whole = rg_quat_from_rotation_vector(rotation), pieces = rg_quat_identity();
    int i;
    for (i = 0; i < 10; ++i)
        pieces = rg_quat_mul(rg_quat_from_rotation_vector(rg_v3_scale(rotation, (rg_real)0.1)), pieces);
    ENSURE_NEAR(fabs(rg_quat_dot(whole, pieces)), 1, 20 * RG_TEST_EPS);
    ENSURE_NEAR(2 * acos(whole.w), rg_v3_length(rotation), 1e-5);
}

static void test_matrix_identities(void) {
    int i, r, c;
    rg_test_seed(3);
    for (i = 0; i < 500; ++i) {
        rg_mat3 m, inverse, product, rotation = rg_mat3_from_quat(random_rotation());
        rg_vec3 a = random_vec3(2), b = random_vec3(2), x = random_vec3(2);
        for (r = 0; r < 3; ++r)
            for (c = 0; c < 3; ++c) m.m[r][c] = (rg_real)rg_test_uniform(-1, 1);
        m = rg_mat3_add(m, rg_mat3_diagonal(rg_v3(3, 3, 3))); /* well conditioned */
        inverse = rg_mat3_inverse(m);
        product = rg_mat3_mul(m, inverse);
        for (r = 0; r < 3; ++r)
            for (c = 0; c < 3; ++c) ENSURE_NEAR(product.m[r][c], r == c, 50 * RG_TEST_EPS);
        ENSURE_V3_NEAR(rg_mat3_mul_v3(m, rg_mat3_solve(m, x)), x, 50 * RG_TEST_EPS);
        ENSURE_V3_NEAR(rg_mat3_mul_v3(rg_mat3_skew(a), b), rg_v3_cross(a, b), 20 * RG_TEST_EPS);
        ENSURE_V3_NEAR(rg_mat3_mul_v3(rg_mat3_outer(a, b), x), rg_v3_scale(a, rg_v3_dot(b, x)),
                       40 * RG_TEST_EPS);
        /* a rotation matrix is orthonormal with determinant +1 */
        product = rg_mat3_mul(rotation, rg_mat3_transpose(rotation));
        for (r = 0; r < 3; ++r)
            for (c = 0; c < 3; ++c) ENSURE_NEAR(product.m[r][c], r == c, 20 * RG_TEST_EPS);
        ENSURE_NEAR(rg_mat3_determinant(rotation), 1, 20 * RG_TEST_EPS);
        ENSURE_V3_NEAR(rg_mat3_mul_v3(rg_mat3_transpose(m), a),
                       rg_v3(rg_v3_dot(rg_v3(m.m[0][0], m.m[1][0], m.m[2][0]), a),
                             rg_v3_dot(rg_v3(m.m[0][1], m.m[1][1], m.m[2][1]), a),
                             rg_v3_dot(rg_v3(m.m[0][2], m.m[1][2], m.m[2][2]), a)), 20 * RG_TEST_EPS);
    }
    {
        rg_mat3 singular = rg_mat3_outer(rg_v3(1, 2, 3), rg_v3(4, 5, 6));
        rg_mat3 inverse = rg_mat3_inverse(singular);
        ENSURE(inverse.m[0][0] == 0 && inverse.m[2][2] == 0);
    }
}

void rg_tests_math(void) {
    RUN_TEST(test_vector_identities);
    RUN_TEST(test_quaternion_identities);
    RUN_TEST(test_rotation_vector_is_exact);
    RUN_TEST(test_matrix_identities);
}
