/* Hull structure and mass properties (Mirtich 1996) against analytic values and independent
   computations: a tetrahedral decomposition and Monte Carlo integration. */
#include "test.h"

#include <stdlib.h>

/* Inertia about the origin from the second moments C = integral of x x^T: I = tr(C) 1 - C */
static void inertia_from_second_moments(const double c[3][3], double inertia[3][3]) {
    double trace = c[0][0] + c[1][1] + c[2][2];
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) inertia[i][j] = (i == j ? trace : 0) - c[i][j];
}

/* Independent reference: split the hull into tetrahedra (centroid, triangle fan of each face)
   and add their exact moments. For a tetrahedron with corners p0..p3 and volume V,
   integral of x x^T = V/20 (sum p_i p_i^T + (sum p_i)(sum p_i)^T). */
static void reference_mass_properties(const rg_hull *hull, double *volume, double centroid[3],
                                      double inertia[3][3]) {
    double apex[3] = {0, 0, 0}, moments[3][3] = {{0}}, first[3] = {0, 0, 0}, total = 0;
    int f, i, j, k, n = rg_hull_vertex_count(hull), indices[64];
    for (i = 0; i < n; ++i) {
        rg_vec3 v = rg_hull_vertex(hull, i);
        apex[0] += v.x / n; apex[1] += v.y / n; apex[2] += v.z / n;
    }
    for (f = 0; f < rg_hull_face_count(hull); ++f) {
        int count = rg_hull_face_vertices(hull, f, indices, 64);
        for (k = 1; k + 1 < count; ++k) {
            rg_vec3 corner[3];
            double p[4][3], sum[3], e1[3], e2[3], e3[3], v;
            corner[0] = rg_hull_vertex(hull, indices[0]);
            corner[1] = rg_hull_vertex(hull, indices[k]);
            corner[2] = rg_hull_vertex(hull, indices[k + 1]);
            for (i = 0; i < 3; ++i) {
                p[i][0] = corner[i].x; p[i][1] = corner[i].y; p[i][2] = corner[i].z;
            }
            for (j = 0; j < 3; ++j) {
                p[3][j] = apex[j];
                e1[j] = p[0][j] - apex[j]; e2[j] = p[1][j] - apex[j]; e3[j] = p[2][j] - apex[j];
            }
            v = (e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) - e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) +
                 e1[2] * (e2[0] * e3[1] - e2[1] * e3[0])) / 6;
            for (j = 0; j < 3; ++j) sum[j] = p[0][j] + p[1][j] + p[2][j] + p[3][j];
            total += v;
            for (j = 0; j < 3; ++j) first[j] += v * sum[j] / 4;
            for (i = 0; i < 3; ++i)
                for (j = 0; j < 3; ++j) {
                    double s = sum[i] * sum[j];
                    int q;
                    for (q = 0; q < 4; ++q) s += p[q][i] * p[q][j];
                    moments[i][j] += v / 20 * s;
                }
        }
    }
    *volume = total;
    for (j = 0; j < 3; ++j) centroid[j] = first[j] / total;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) moments[i][j] -= total * centroid[i] * centroid[j];
    inertia_from_second_moments((const double(*)[3])moments, inertia);
}

static void test_box_mass_properties(void) {
    rg_result result = RG_ERR_DEGENERATE;
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 1, 1.5f), &result);
    rg_mat3 inertia;
    double mass;
    ENSURE(box && result == RG_OK);
    ENSURE(rg_hull_vertex_count(box) == 8 && rg_hull_edge_count(box) == 12 && rg_hull_face_count(box) == 6);
    ENSURE_NEAR(rg_hull_volume(box), 6, 6 * RG_TEST_EPS);
    ENSURE_V3_NEAR(rg_hull_centroid(box), rg_v3(0, 0, 0), RG_TEST_EPS);
    /* solid box with sides a, b, c: I_xx = m (b^2 + c^2) / 12 */
    inertia = rg_hull_inertia(box, 2);
    mass = 12;
    ENSURE_REL(inertia.m[0][0], mass * (4 + 9) / 12, 10 * RG_TEST_EPS);
    ENSURE_REL(inertia.m[1][1], mass * (1 + 9) / 12, 10 * RG_TEST_EPS);
    ENSURE_REL(inertia.m[2][2], mass * (1 + 4) / 12, 10 * RG_TEST_EPS);
    ENSURE_NEAR(inertia.m[0][1], 0, 10 * RG_TEST_EPS);
    ENSURE_NEAR(inertia.m[1][2], 0, 10 * RG_TEST_EPS);
    ENSURE_NEAR(inertia.m[0][2], 0, 10 * RG_TEST_EPS);
    {
        /* every face normal points away from the centre, every edge has two distinct faces
           whose traversals of it are opposite */
        int f, e;
        for (f = 0; f < 6; ++f) {
            int indices[4];
            rg_vec3 n = rg_hull_face_normal(box, f);
            ENSURE(rg_hull_face_vertices(box, f, indices, 4) == 4);
            ENSURE(rg_v3_dot(n, rg_hull_vertex(box, indices[0])) > 0);
            ENSURE_NEAR(rg_v3_length(n), 1, 4 * RG_TEST_EPS);
        }
        for (e = 0; e < 12; ++e) {
            int v[2], faces[2];
            ENSURE(rg_hull_edge(box, e, v, faces));
            ENSURE(faces[0] != faces[1] && v[0] != v[1]);
        }
    }
    rg_hull_destroy(box);
}

static void test_tetrahedron_mass_properties(void) {
    /* right tetrahedron with legs a, b, c: V = abc/6, centroid at a quarter of each leg */
    static const int faces[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    static const int sizes[4] = {3, 3, 3, 3};
    rg_vec3 corners[4];
    rg_result result;
    rg_hull *tet;
    rg_mat3 inertia;
    double a = 1, b = 2, c = 3, volume, centroid[3], reference[3][3], p[4][3], mom[3][3];
    int i, j, k;
    corners[0] = rg_v3(0, 0, 0);
    corners[1] = rg_v3((rg_real)a, 0, 0);
    corners[2] = rg_v3(0, (rg_real)b, 0);
    corners[3] = rg_v3(0, 0, (rg_real)c);
    tet = rg_hull_create_polyhedron(corners, 4, sizes, 4, faces, &result);
    ENSURE(tet && result == RG_OK);
    ENSURE(rg_hull_edge_count(tet) == 6 && rg_hull_face_count(tet) == 4);
    ENSURE_REL(rg_hull_volume(tet), a * b * c / 6, 10 * RG_TEST_EPS);
    ENSURE_V3_NEAR(rg_hull_centroid(tet), rg_v3((rg_real)(a / 4), (rg_real)(b / 4), (rg_real)(c / 4)),
                   10 * RG_TEST_EPS);
    /* analytic second moments of the tetrahedron (formula of the reference above), moved to
       the centroid */
    for (i = 0; i < 4; ++i) {
        p[i][0] = corners[i].x; p[i][1] = corners[i].y; p[i][2] = corners[i].z;
    }
    volume = a * b * c / 6;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            double si = 0, sj = 0, s = 0;
            for (k = 0; k < 4; ++k) { si += p[k][i]; sj += p[k][j]; s += p[k][i] * p[k][j]; }
            mom[i][j] = volume / 20 * (s + si * sj) - volume * (si / 4) * (sj / 4);
        }
    inertia_from_second_moments((const double(*)[3])mom, reference);
    inertia = rg_hull_inertia(tet, 1);
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) ENSURE_NEAR(inertia.m[i][j], reference[i][j], 20 * RG_TEST_EPS);
    /* known closed form: I_xx about the centroid = (3/80) m (b^2 + c^2) for this tetrahedron */
    ENSURE_REL(inertia.m[0][0], 3.0 / 80 * volume * (b * b + c * c), 20 * RG_TEST_EPS);
    /* and I_xy = (1/80) m a b */
    ENSURE_REL(inertia.m[0][1], 1.0 / 80 * volume * a * b, 20 * RG_TEST_EPS);
    (void)centroid;
    rg_hull_destroy(tet);
}

/* A skewed frustum: a 3 x 2 base and a smaller top shifted sideways; no symmetry, non-zero
   products of inertia. Side faces are planar because each joins two parallel edges. */
static rg_hull *create_skewed_frustum(rg_result *result) {
    static const int faces[24] = {
        0, 1, 2, 3,   /* bottom, seen from below */
        4, 7, 6, 5,   /* top */
        0, 4, 5, 1,   /* z- side */
        1, 5, 6, 2,   /* x+ side */
        2, 6, 7, 3,   /* z+ side */
        3, 7, 4, 0    /* x- side */
    };
    static const int sizes[6] = {4, 4, 4, 4, 4, 4};
    rg_vec3 v[8];
    v[0] = rg_v3(-1.5f, 0, -1); v[1] = rg_v3(1.5f, 0, -1); v[2] = rg_v3(1.5f, 0, 1); v[3] = rg_v3(-1.5f, 0, 1);
    v[4] = rg_v3(-0.2f, 1.2f, -0.6f); v[5] = rg_v3(0.8f, 1.2f, -0.6f);
    v[6] = rg_v3(0.8f, 1.2f, 0.2f); v[7] = rg_v3(-0.2f, 1.2f, 0.2f);
    return rg_hull_create_polyhedron(v, 8, sizes, 6, faces, result);
}

static void test_irregular_hull_against_tetrahedra_and_monte_carlo(void) {
    rg_result result;
    rg_hull *hull = create_skewed_frustum(&result);
    double volume, centroid[3], reference[3][3], mc_volume, mc_first[3] = {0, 0, 0}, mc_second[3][3] = {{0}};
    rg_vec3 lo = rg_v3(-1.5f, 0, -1), hi = rg_v3(1.5f, 1.2f, 1);
    rg_mat3 inertia;
    int i, j, inside = 0, samples = 400000;
    ENSURE(hull && result == RG_OK);
    ENSURE(rg_hull_vertex_count(hull) - rg_hull_edge_count(hull) + rg_hull_face_count(hull) == 2);
    reference_mass_properties(hull, &volume, centroid, reference);
    inertia = rg_hull_inertia(hull, 1);
    ENSURE_REL(rg_hull_volume(hull), volume, 1e-5);
    ENSURE_NEAR(rg_hull_centroid(hull).x, centroid[0], 1e-5);
    ENSURE_NEAR(rg_hull_centroid(hull).y, centroid[1], 1e-5);
    ENSURE_NEAR(rg_hull_centroid(hull).z, centroid[2], 1e-5);
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) ENSURE_NEAR(inertia.m[i][j], reference[i][j], 1e-5 * reference[0][0]);
    ENSURE(fabs(inertia.m[0][1]) > 1e-3 || fabs(inertia.m[1][2]) > 1e-3); /* really asymmetric */
    /* Monte Carlo: points uniform in the bounding box, inside when behind every face plane.
       400 000 samples give about 0.3% standard error on these integrals; tolerance 2%. */
    rg_test_seed(7);
    for (i = 0; i < samples; ++i) {
        rg_vec3 p;
        double x[3];
        int f, in = 1, k;
        p.x = (rg_real)rg_test_uniform(lo.x, hi.x); /* one per statement: argument order is unspecified */
        p.y = (rg_real)rg_test_uniform(lo.y, hi.y);
        p.z = (rg_real)rg_test_uniform(lo.z, hi.z);
        for (f = 0; f < rg_hull_face_count(hull) && in; ++f) {
            int idx[4];
            rg_hull_face_vertices(hull, f, idx, 4);
            if (rg_v3_dot(rg_hull_face_normal(hull, f), rg_v3_sub(p, rg_hull_vertex(hull, idx[0]))) > 0) in = 0;
        }
        if (!in) continue;
        ++inside;
        x[0] = p.x; x[1] = p.y; x[2] = p.z;
        for (j = 0; j < 3; ++j) mc_first[j] += x[j];
        for (j = 0; j < 3; ++j)
            for (k = 0; k < 3; ++k) mc_second[j][k] += x[j] * x[k];
    }
    mc_volume = (double)inside / samples * (hi.x - lo.x) * (hi.y - lo.y) * (hi.z - lo.z);
    {
        double mc_centroid[3], mc_inertia[3][3];
        for (j = 0; j < 3; ++j) mc_centroid[j] = mc_first[j] / inside;
        for (i = 0; i < 3; ++i)
            for (j = 0; j < 3; ++j)
                mc_second[i][j] = mc_volume * (mc_second[i][j] / inside - mc_centroid[i] * mc_centroid[j]);
        inertia_from_second_moments((const double(*)[3])mc_second, mc_inertia);
        ENSURE_REL(rg_hull_volume(hull), mc_volume, 0.02);
        ENSURE_NEAR(rg_hull_centroid(hull).x, mc_centroid[0], 0.02);
        ENSURE_NEAR(rg_hull_centroid(hull).y, mc_centroid[1], 0.02);
        ENSURE_NEAR(rg_hull_centroid(hull).z, mc_centroid[2], 0.02);
        for (i = 0; i < 3; ++i)
            for (j = 0; j < 3; ++j) ENSURE_NEAR(inertia.m[i][j], mc_inertia[i][j], 0.02 * inertia.m[i][i]);
        rg_test_note("volume %.5f (Monte Carlo %.5f), Ixx %.5f (Monte Carlo %.5f)",
                     rg_hull_volume(hull), mc_volume, inertia.m[0][0], mc_inertia[0][0]);
    }
    rg_hull_destroy(hull);
}

/* fuzz_hull's box with five corners collapsed to its centre: a float hull thinner than its
   faces' bend (the convexity tolerance, 1000 epsilon of the extent, lets a face be that far
   from plane). Mirtich's integrals over the bent quads gave it 5.86e-5, twice the 2.93e-5 its
   triangulated faces enclose; the volume must be that of the surface the corners span. In
   double the bend is beyond the tolerance and the hull is refused. */
static void test_thin_hull_with_bent_faces_has_its_surface_volume(void) {
    static const int faces[24] = {1, 3, 7, 5, 0, 4, 6, 2, 2, 6, 7, 3, 0, 1, 5, 4, 4, 5, 7, 6, 0, 2, 3, 1};
    static const int sizes[6] = {4, 4, 4, 4, 4, 4};
    rg_vec3 v[8];
    rg_result result;
    rg_hull *hull;
    double volume, centroid[3], inertia[3][3];
    v[0] = rg_v3(-1.00000048f, -1.00000048f, -1.00000048f);
    v[1] = rg_v3(2.6920722e-32f, -2.6920722e-32f, -2.6920722e-32f);
    v[2] = rg_v3(-1.00000024f, 1.00000024f, -1.00000024f);
    v[3] = rg_v3(1e-30f, 1e-30f, -1e-30f);
    v[4] = rg_v3(-1e-30f, -1e-30f, 1e-30f);
    v[5] = rg_v3(1e-30f, -1e-30f, 1e-30f);
    v[6] = rg_v3(-4.39213763e-05f, 4.39213763e-05f, 4.39213763e-05f);
    v[7] = rg_v3(0, 0, 0);
    hull = rg_hull_create_polyhedron(v, 8, sizes, 6, faces, &result);
    if (!hull) {
        ENSURE(result == RG_ERR_DEGENERATE);
        rg_test_note("refused as degenerate");
        return;
    }
    reference_mass_properties(hull, &volume, centroid, inertia);
    rg_test_note("volume %.6g, its faces' tetrahedra %.6g", rg_hull_volume(hull), volume);
    ENSURE_REL(rg_hull_volume(hull), volume, 1e-3);
    rg_hull_destroy(hull);
}

/* fuzz_hull: a box with seven corners within 1e-16 of the origin and one 3.9e-3 away, a needle
   whose true volume (about 6e-36) lies far below the rounding of its cones' triple products:
   the volume came out at 1.8e-25 and the centroid at x = 2.7e-5, outside the hull's box
   (x <= 3.5e-17). A volume within rounding is none: the hull is refused as degenerate; if one
   is built, its centroid must lie in its bounding box. */
static void test_needle_hull_with_volume_below_rounding(void) {
    static const int faces[24] = {1, 3, 7, 5, 0, 4, 6, 2, 2, 6, 7, 3, 0, 1, 5, 4, 4, 5, 7, 6, 0, 2, 3, 1};
    static const int sizes[6] = {4, 4, 4, 4, 4, 4};
    rg_vec3 v[8], lo, hi, c;
    rg_result result;
    rg_hull *hull;
    int i;
    v[0] = rg_v3(-2.0575532e-27f, -2.0575532e-27f, -2.0575532e-27f);
    v[1] = rg_v3(8.8436882e-18f, -8.8436882e-18f, -8.8436882e-18f);
    v[2] = rg_v3(-8.46421743e-18f, 8.46421743e-18f, -8.46421743e-18f);
    v[3] = rg_v3(3.53754741e-17f, 3.53754741e-17f, -3.53754741e-17f);
    v[4] = rg_v3(-0.00224512909f, -0.00224512909f, 0.00224512909f);
    v[5] = rg_v3(9.24242896e-18f, -9.24242896e-18f, 9.24242896e-18f);
    v[6] = rg_v3(-1.04157813e-17f, 1.04157813e-17f, 1.04157813e-17f);
    v[7] = rg_v3(2.7430315e-17f, 2.7430315e-17f, 2.7430315e-17f);
    hull = rg_hull_create_polyhedron(v, 8, sizes, 6, faces, &result);
    if (!hull) {
        ENSURE(result == RG_ERR_DEGENERATE);
        rg_test_note("refused as degenerate");
        return;
    }
    lo = hi = v[0];
    for (i = 1; i < 8; ++i) {
        lo = rg_v3_min(lo, v[i]);
        hi = rg_v3_max(hi, v[i]);
    }
    c = rg_hull_centroid(hull);
    rg_test_note("built: volume %.3g, centroid (%.3g, %.3g, %.3g)", rg_hull_volume(hull), c.x, c.y, c.z);
    ENSURE(c.x >= lo.x && c.x <= hi.x && c.y >= lo.y && c.y <= hi.y && c.z >= lo.z && c.z <= hi.z);
    rg_hull_destroy(hull);
}

static void test_mass_properties_follow_translation_and_rotation(void) {
    /* the same box moved and turned: volume and principal moments unchanged, centroid moved */
    static const int faces[24] = {1, 3, 7, 5, 0, 4, 6, 2, 2, 6, 7, 3, 0, 1, 5, 4, 4, 5, 7, 6, 0, 2, 3, 1};
    static const int sizes[6] = {4, 4, 4, 4, 4, 4};
    rg_quat q = rg_quat_from_axis_angle(rg_v3(1, 2, 3), 0.7f);
    rg_vec3 shift = rg_v3(5, -2, 1), corners[8];
    rg_mat3 inertia, expected, rotation = rg_mat3_from_quat(q);
    rg_hull *hull;
    int i, j;
    for (i = 0; i < 8; ++i)
        corners[i] = rg_v3_add(shift, rg_quat_rotate(q, rg_v3((i & 1) ? 0.5f : -0.5f, (i & 2) ? 1.0f : -1.0f,
                                                              (i & 4) ? 1.5f : -1.5f)));
    hull = rg_hull_create_polyhedron(corners, 8, sizes, 6, faces, NULL);
    ENSURE(hull != NULL);
    ENSURE_REL(rg_hull_volume(hull), 6, 1e-5);
    ENSURE_V3_NEAR(rg_hull_centroid(hull), shift, 1e-5);
    inertia = rg_hull_inertia(hull, 1);
    expected = rg_mat3_mul(rg_mat3_mul(rotation, rg_mat3_diagonal(rg_v3(6.5f, 5, 2.5f))), rg_mat3_transpose(rotation));
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) ENSURE_NEAR(inertia.m[i][j], expected.m[i][j], 1e-4);
    rg_hull_destroy(hull);
}

static void test_bad_hull_input(void) {
    static const int open_faces[9] = {0, 2, 1, 0, 1, 3, 0, 3, 2};  /* a tetrahedron missing a face */
    static const int open_sizes[3] = {3, 3, 3};
    static const int tet_faces[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    static const int tet_sizes[4] = {3, 3, 3, 3};
    static const int inverted[12] = {0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2};
    rg_vec3 corners[4], flat[4];
    rg_result result = RG_OK;
    corners[0] = rg_v3(0, 0, 0); corners[1] = rg_v3(1, 0, 0); corners[2] = rg_v3(0, 1, 0); corners[3] = rg_v3(0, 0, 1);
    flat[0] = rg_v3(0, 0, 0); flat[1] = rg_v3(1, 0, 0); flat[2] = rg_v3(0, 1, 0); flat[3] = rg_v3(1, 1, 0);
    ENSURE(rg_hull_create_box(rg_v3(-1, 1, 1), &result) == NULL && result == RG_ERR_INVALID_ARGUMENT);
    result = RG_OK;
    ENSURE(rg_hull_create_box(rg_v3(0, 1, 1), &result) == NULL && result == RG_ERR_INVALID_ARGUMENT);
    result = RG_OK;
    ENSURE(rg_hull_create_box(rg_v3((rg_real)NAN, 1, 1), &result) == NULL && result == RG_ERR_INVALID_ARGUMENT);
    result = RG_OK;
    ENSURE(rg_hull_create_box(rg_v3((rg_real)INFINITY, 1, 1), &result) == NULL && result == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_hull_create_box(rg_v3(-1, 1, 1), NULL) == NULL); /* NULL result is fine */
    result = RG_OK;
    ENSURE(rg_hull_create_polyhedron(NULL, 4, tet_sizes, 4, tet_faces, &result) == NULL && result == RG_ERR_INVALID_ARGUMENT);
    result = RG_OK;
    ENSURE(rg_hull_create_polyhedron(corners, 4, open_sizes, 3, open_faces, &result) == NULL && result != RG_OK);
    result = RG_OK;
    ENSURE(rg_hull_create_polyhedron(flat, 4, tet_sizes, 4, tet_faces, &result) == NULL && result == RG_ERR_DEGENERATE);
    result = RG_OK;
    ENSURE(rg_hull_create_polyhedron(corners, 4, tet_sizes, 4, inverted, &result) == NULL && result == RG_ERR_DEGENERATE);
    corners[3].z = (rg_real)NAN;
    result = RG_OK;
    ENSURE(rg_hull_create_polyhedron(corners, 4, tet_sizes, 4, tet_faces, &result) == NULL && result == RG_ERR_INVALID_ARGUMENT);
    /* getters on NULL return zero */
    ENSURE(rg_hull_vertex_count(NULL) == 0 && rg_hull_face_count(NULL) == 0 && rg_hull_edge_count(NULL) == 0);
    ENSURE(rg_hull_volume(NULL) == 0 && rg_hull_inertia(NULL, 1).m[0][0] == 0);
    rg_hull_destroy(NULL);
}

void rg_tests_hull(void) {
    RUN_TEST(test_box_mass_properties);
    RUN_TEST(test_tetrahedron_mass_properties);
    RUN_TEST(test_irregular_hull_against_tetrahedra_and_monte_carlo);
    RUN_TEST(test_thin_hull_with_bent_faces_has_its_surface_volume);
    RUN_TEST(test_needle_hull_with_volume_below_rounding);
    RUN_TEST(test_mass_properties_follow_translation_and_rotation);
    RUN_TEST(test_bad_hull_input);
}
