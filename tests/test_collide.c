/* Tests of the collide module: separating axes, witnesses and contact manifolds of convex hulls
   (rg_collide_hulls), and the world's narrow phase. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#ifdef RIGID_DOUBLE
#define COLLIDE_TOL 1e-9
#else
#define COLLIDE_TOL 2e-5
#endif

static rg_quat quat_between(rg_vec3 from, rg_vec3 to) {
    rg_vec3 u = rg_v3_normalize(from), v = rg_v3_normalize(to);
    rg_vec3 axis = rg_v3_cross(u, v);
    rg_real c = rg_v3_dot(u, v);
    return rg_quat_from_axis_angle(axis, (rg_real)atan2((double)rg_v3_length(axis), (double)c));
}

/* index of the manifold point within tol of p, or -1 */
static int find_point(const rg_manifold *m, rg_vec3 p, double tol) {
    int i;
    for (i = 0; i < m->count; ++i)
        if (rg_v3_length(rg_v3_sub(m->points[i], p)) <= tol) return i;
    return -1;
}

/* Collides (a, b) and (b, a): the swapped manifold must have the opposite normal, the same
   depths, and its points where the first one's points are moved onto A (point - depth n). */
static int swapped_agrees(const rg_hull *a, rg_vec3 pa, rg_quat qa, const rg_hull *b, rg_vec3 pb,
                          rg_quat qb, rg_real margin, double tol) {
    rg_manifold m, s;
    int i;
    rg_collide_hulls(a, pa, qa, b, pb, qb, margin, &m);
    rg_collide_hulls(b, pb, qb, a, pa, qa, margin, &s);
    if (m.count != s.count) return 0;
    if (m.count == 0) return 1;
    if (rg_v3_length(rg_v3_add(m.normal, s.normal)) > tol) return 0;
    for (i = 0; i < m.count; ++i) {
        int j = find_point(&s, rg_v3_madd(m.points[i], m.normal, -m.depths[i]), tol);
        if (j < 0 || fabs((double)(s.depths[j] - m.depths[i])) > tol) return 0;
    }
    return 1;
}

/* A cube resting on a wider slab with an offset: the manifold is the overlap of the two faces. */
static void test_collide_box_face_offset(void) {
    rg_hull *slab = rg_hull_create_box(rg_v3(1, 0.5, 1), NULL);
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5, 0.5, 0.5), NULL);
    rg_vec3 pa = rg_v3(0.7, 0.9, 0.3), pb = rg_v3(0, 0, 0);
    rg_quat q = rg_quat_identity();
    rg_manifold m;
    /* footprint: x in [0.2, 1] (slab ends at 1), z in [-0.2, 0.8]; depth 0.1 */
    rg_vec3 corners[4];
    int i, n = rg_collide_hulls(cube, pa, q, slab, pb, q, 0, &m);
    corners[0] = rg_v3(0.2, 0.5, -0.2);
    corners[1] = rg_v3(1, 0.5, -0.2);
    corners[2] = rg_v3(1, 0.5, 0.8);
    corners[3] = rg_v3(0.2, 0.5, 0.8);
    ENSURE(n == 4 && m.count == 4);
    ENSURE_V3_NEAR(m.normal, rg_v3(0, 1, 0), COLLIDE_TOL);
    for (i = 0; i < 4; ++i) {
        int j = find_point(&m, corners[i], 10 * COLLIDE_TOL);
        ENSURE(j >= 0);
        ENSURE_NEAR(m.depths[j], 0.1, 10 * COLLIDE_TOL);
    }
    for (i = 0; i < 4; ++i) {
        int j;
        for (j = 0; j < i; ++j) ENSURE(m.features[i] != m.features[j]);
    }
    ENSURE(swapped_agrees(cube, pa, q, slab, pb, q, 0, 10 * COLLIDE_TOL));
    rg_test_note("footprint 0.8 x 1.0 found, depth %.6f", (double)m.depths[0]);
    rg_hull_destroy(slab);
    rg_hull_destroy(cube);
}

/* A cube turned 45 degrees about the vertical, on a larger cube: its face, a diamond, lies
   inside the lower face, so the manifold is the diamond's corners. A cube of the same size gives
   a regular octagon, reduced to the four points of largest area. */
static void test_collide_box_turned_45(void) {
    rg_hull *big = rg_hull_create_box(rg_v3(1, 1, 1), NULL);
    rg_hull *small = rg_hull_create_box(rg_v3(0.5, 0.5, 0.5), NULL);
    rg_quat turn = rg_quat_from_axis_angle(rg_v3(0, 1, 0), 3.14159265358979324 / 4);
    rg_quat q = rg_quat_identity();
    rg_real d = (rg_real)0.7071067811865476;
    rg_manifold m;
    int i, n;
    double area, octagon;
    n = rg_collide_hulls(small, rg_v3(0, 1.45, 0), turn, big, rg_v3(0, 0, 0), q, 0, &m);
    ENSURE(n == 4);
    ENSURE_V3_NEAR(m.normal, rg_v3(0, 1, 0), COLLIDE_TOL);
    ENSURE(find_point(&m, rg_v3(d, 1, 0), 10 * COLLIDE_TOL) >= 0);
    ENSURE(find_point(&m, rg_v3(-d, 1, 0), 10 * COLLIDE_TOL) >= 0);
    ENSURE(find_point(&m, rg_v3(0, 1, d), 10 * COLLIDE_TOL) >= 0);
    ENSURE(find_point(&m, rg_v3(0, 1, -d), 10 * COLLIDE_TOL) >= 0);
    for (i = 0; i < 4; ++i) ENSURE_NEAR(m.depths[i], 0.05, 10 * COLLIDE_TOL);
    ENSURE(swapped_agrees(small, rg_v3(0, 1.45, 0), turn, big, rg_v3(0, 0, 0), q, 0, 10 * COLLIDE_TOL));

    /* equal cubes: octagon with corners at (1, sqrt2 - 1) and its symmetric images */
    n = rg_collide_hulls(big, rg_v3(0, 1.95, 0), turn, big, rg_v3(0, 0, 0), q, 0, &m);
    ENSURE(n == 4);
    for (i = 0; i < 4; ++i) {
        double x = fabs((double)m.points[i].x), z = fabs((double)m.points[i].z);
        ENSURE_NEAR(m.points[i].y, 1, 10 * COLLIDE_TOL);
        ENSURE_NEAR(m.depths[i], 0.05, 10 * COLLIDE_TOL);
        /* on the octagon's boundary corners: max(x, z) = 1 and x + z = sqrt 2 */
        ENSURE_NEAR(x > z ? x : z, 1, 10 * COLLIDE_TOL);
        ENSURE_NEAR(x + z, sqrt(2.0), 10 * COLLIDE_TOL);
    }
    /* area of the kept quadrilateral (its points sorted by angle) against the octagon's */
    {
        double angle[4], px[4], pz[4];
        int order[4] = {0, 1, 2, 3}, j;
        for (i = 0; i < 4; ++i) {
            px[i] = m.points[i].x;
            pz[i] = m.points[i].z;
            angle[i] = atan2(pz[i], px[i]);
        }
        for (i = 0; i < 4; ++i)
            for (j = i + 1; j < 4; ++j)
                if (angle[order[j]] < angle[order[i]]) { int t = order[i]; order[i] = order[j]; order[j] = t; }
        area = 0;
        for (i = 0; i < 4; ++i) {
            int p = order[i], r = order[(i + 1) % 4];
            area += 0.5 * (px[p] * pz[r] - px[r] * pz[p]);
        }
        octagon = 4 - 2 * (2 - sqrt(2.0)) * (2 - sqrt(2.0));
        /* the largest quadrilateral in a regular octagon has 1/sqrt2 of its area */
        ENSURE_NEAR(area, octagon / sqrt(2.0), 1e-3);
        rg_test_note("octagon reduced to 4 points covering %.4f of its area (best 0.7071)", area / octagon);
    }
    rg_hull_destroy(big);
    rg_hull_destroy(small);
}

/* Two cubes turned so that a top edge of B (along z) crosses a bottom edge of A (along x): one
   contact, normal along z x x = y, at the crossing. */
static void test_collide_box_edge_edge(void) {
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5, 0.5, 0.5), NULL);
    rg_quat qb = rg_quat_from_axis_angle(rg_v3(0, 0, 1), 3.14159265358979324 / 4);
    rg_quat qa = rg_quat_from_axis_angle(rg_v3(1, 0, 0), 3.14159265358979324 / 4);
    rg_real h = (rg_real)0.7071067811865476;
    rg_vec3 pa = rg_v3(0.1, 2 * h - 0.02, -0.15), pb = rg_v3(0, 0, 0);
    rg_manifold m;
    int n = rg_collide_hulls(cube, pa, qa, cube, pb, qb, 0, &m);
    ENSURE(n == 1);
    ENSURE_V3_NEAR(m.normal, rg_v3(0, 1, 0), COLLIDE_TOL);
    ENSURE_V3_NEAR(m.points[0], rg_v3(0, h, -0.15), 10 * COLLIDE_TOL);
    ENSURE_NEAR(m.depths[0], 0.02, 10 * COLLIDE_TOL);
    ENSURE(swapped_agrees(cube, pa, qa, cube, pb, qb, 0, 10 * COLLIDE_TOL));
    rg_test_note("edge/edge depth %.6f at (%.4f, %.4f, %.4f)", (double)m.depths[0], (double)m.points[0].x,
                 (double)m.points[0].y, (double)m.points[0].z);
    rg_hull_destroy(cube);
}

/* A cube standing on a corner (its diagonal vertical) on a slab: one contact under the corner. */
static void test_collide_box_corner_on_face(void) {
    rg_hull *slab = rg_hull_create_box(rg_v3(2, 0.5, 2), NULL);
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5, 0.5, 0.5), NULL);
    rg_quat q = quat_between(rg_v3(-1, -1, -1), rg_v3(0, -1, 0)), id = rg_quat_identity();
    rg_vec3 pa = rg_v3(0.3, 0.5 + (rg_real)(0.5 * sqrt(3.0)) - 0.03, -0.4);
    rg_manifold m;
    int n = rg_collide_hulls(cube, pa, q, slab, rg_v3(0, 0, 0), id, 0, &m);
    ENSURE(n == 1);
    ENSURE_V3_NEAR(m.normal, rg_v3(0, 1, 0), COLLIDE_TOL);
    ENSURE_V3_NEAR(m.points[0], rg_v3(0.3, 0.5, -0.4), 10 * COLLIDE_TOL);
    ENSURE_NEAR(m.depths[0], 0.03, 10 * COLLIDE_TOL);
    ENSURE(swapped_agrees(cube, pa, q, slab, rg_v3(0, 0, 0), id, 0, 10 * COLLIDE_TOL));
    rg_hull_destroy(slab);
    rg_hull_destroy(cube);
}

/* Separated boxes: nothing beyond the margin, negative depths (the gap) within it. */
static void test_collide_box_separated(void) {
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5, 0.5, 0.5), NULL);
    rg_quat q = rg_quat_identity();
    rg_manifold m;
    int i;
    ENSURE(rg_collide_hulls(cube, rg_v3(0.2, 1.1, 0), q, cube, rg_v3(0, 0, 0), q, 0.05, &m) == 0);
    ENSURE(m.count == 0);
    ENSURE(rg_collide_hulls(cube, rg_v3(0.2, 1.01, 0), q, cube, rg_v3(0, 0, 0), q, 0, &m) == 0);
    /* edge/edge separated by 0.1 along y */
    {
        rg_quat qb = rg_quat_from_axis_angle(rg_v3(0, 0, 1), 3.14159265358979324 / 4);
        rg_quat qa = rg_quat_from_axis_angle(rg_v3(1, 0, 0), 3.14159265358979324 / 4);
        rg_real h = (rg_real)0.7071067811865476;
        ENSURE(rg_collide_hulls(cube, rg_v3(0, 2 * h + 0.1, 0), qa, cube, rg_v3(0, 0, 0), qb, 0.09, &m) == 0);
        ENSURE(rg_collide_hulls(cube, rg_v3(0, 2 * h + 0.1, 0), qa, cube, rg_v3(0, 0, 0), qb, 0.11, &m) == 1);
        ENSURE_NEAR(m.depths[0], -0.1, 10 * COLLIDE_TOL);
        ENSURE_V3_NEAR(m.normal, rg_v3(0, 1, 0), COLLIDE_TOL);
    }
    /* within the margin: the face manifold with depth -gap */
    ENSURE(rg_collide_hulls(cube, rg_v3(0.2, 1.01, 0), q, cube, rg_v3(0, 0, 0), q, 0.02, &m) == 4);
    for (i = 0; i < 4; ++i) ENSURE_NEAR(m.depths[i], -0.01, 10 * COLLIDE_TOL);
    ENSURE(find_point(&m, rg_v3(-0.3, 0.5, 0.5), 10 * COLLIDE_TOL) >= 0);
    ENSURE(find_point(&m, rg_v3(0.5, 0.5, -0.5), 10 * COLLIDE_TOL) >= 0);
    ENSURE(swapped_agrees(cube, rg_v3(0.2, 1.01, 0), q, cube, rg_v3(0, 0, 0), q, 0.02, 10 * COLLIDE_TOL));
    /* bad input */
    ENSURE(rg_collide_hulls(NULL, rg_v3(0, 0, 0), q, cube, rg_v3(0, 0, 0), q, 0, &m) == 0);
    ENSURE(rg_collide_hulls(cube, rg_v3(0, 0, 0), q, cube, rg_v3(0, 0, 0), q, 0, NULL) == 0);
    ENSURE(rg_collide_hulls(cube, rg_v3((rg_real)NAN, 0, 0), q, cube, rg_v3(0, 0, 0), q, 0, &m) == 0);
    rg_hull_destroy(cube);
}

/* The world's narrow phase: a cube flat on the ground, a cube turned 45 degrees on it, and the
   two cubes apart by 0.03 (more than the 0.02 margin) although their boxes overlap: that pair
   is separated by a witness after the first step. */
static void test_collide_world_narrowphase(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w;
    rg_hull *ground = rg_hull_create_box(rg_v3(50, 0.5, 50), NULL);
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5, 0.5, 0.5), NULL);
    rg_body_def bd = rg_body_default_def();
    rg_body_id turned, flat;
    rg_world_stats stats;
    wd.gravity = rg_v3(0, 0, 0);
    wd.contact_margin = 0.02;
    w = rg_world_create(&wd, NULL);
    bd.type = RG_BODY_STATIC;
    bd.hull = ground;
    bd.position = rg_v3(0, -0.5, 0);
    rg_body_create(w, &bd, NULL);
    bd = rg_body_default_def();
    bd.hull = cube;
    bd.position = rg_v3(5, 0.5, 5);
    bd.orientation = rg_quat_from_axis_angle(rg_v3(0, 1, 0), 3.14159265358979324 / 4);
    turned = rg_body_create(w, &bd, NULL);
    bd.orientation = rg_quat_identity();
    bd.position = rg_v3(5 + sqrt(0.5) + 0.5 + 0.03, 0.5, 5);
    flat = rg_body_create(w, &bd, NULL);
    ENSURE(rg_world_step(w, 1.0 / 60) == RG_OK);
    stats = rg_world_get_stats(w);
    ENSURE(stats.pair_count == 3);
    ENSURE(stats.contact_count == 8);
    ENSURE(stats.witness_hits == 0 && stats.witness_misses == 3);
    ENSURE(rg_world_step(w, 1.0 / 60) == RG_OK);
    stats = rg_world_get_stats(w);
    ENSURE(stats.contact_count == 8);
    ENSURE(stats.witness_hits == 1 && stats.witness_misses == 2);
    rg_test_note("step 2: %d pairs, %d contacts, witness hits %d, misses %d", stats.pair_count,
                 stats.contact_count, stats.witness_hits, stats.witness_misses);
    ENSURE(rg_body_destroy(w, flat) == RG_OK);
    ENSURE(rg_world_step(w, 1.0 / 60) == RG_OK);
    stats = rg_world_get_stats(w);
    ENSURE(stats.pair_count == 1 && stats.contact_count == 4);
    (void)turned;
    rg_world_destroy(w);
    rg_hull_destroy(ground);
    rg_hull_destroy(cube);
}

void rg_tests_collide(void) {
    RUN_TEST(test_collide_box_face_offset);
    RUN_TEST(test_collide_box_turned_45);
    RUN_TEST(test_collide_box_edge_edge);
    RUN_TEST(test_collide_box_corner_on_face);
    RUN_TEST(test_collide_box_separated);
    RUN_TEST(test_collide_world_narrowphase);
}
