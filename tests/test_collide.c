/* Tests of the collide module: separating axes, witnesses and contact manifolds of convex hulls
   (rg_collide_hulls), and the world's narrow phase. */
#include "test.h"
#include "brute_force_hull.h"

#include <float.h>
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

/* ---- random hulls and an independent separation test ---------------------------------------- */

/* A random convex hull of 5 to max_points points in an ellipsoid of random size, or NULL. */
static rg_hull *random_hull(int max_points) {
    rg_vec3 p[64], size = rg_v3(rg_test_uniform(0.2, 1.5), rg_test_uniform(0.2, 1.5), rg_test_uniform(0.2, 1.5));
    int i, n = 5 + (int)(rg_test_random() * (max_points - 4));
    for (i = 0; i < n; ++i) {
        rg_vec3 u = rg_test_unit_vector();
        double r = 0.6 + 0.4 * rg_test_random();
        p[i] = rg_v3(u.x * size.x * r, u.y * size.y * r, u.z * size.z * r);
    }
    return brute_force_hull(p, n);
}

/* A hull posed in the world, in double, from the public getters only. */
typedef struct posed_hull {
    int vertex_count, face_count, edge_count;
    double v[64][3], n[128][3], offset[128], e[192][3];
} posed_hull;

static void rotate_d(rg_quat q, const double in[3], double out[3]) {
    /* v' = v + 2w (u x v) + 2 u x (u x v), in double */
    double u[3], t[3], c[3];
    u[0] = q.x; u[1] = q.y; u[2] = q.z;
    t[0] = 2 * (u[1] * in[2] - u[2] * in[1]);
    t[1] = 2 * (u[2] * in[0] - u[0] * in[2]);
    t[2] = 2 * (u[0] * in[1] - u[1] * in[0]);
    c[0] = u[1] * t[2] - u[2] * t[1];
    c[1] = u[2] * t[0] - u[0] * t[2];
    c[2] = u[0] * t[1] - u[1] * t[0];
    out[0] = in[0] + q.w * t[0] + c[0];
    out[1] = in[1] + q.w * t[1] + c[1];
    out[2] = in[2] + q.w * t[2] + c[2];
}

static void pose_hull(const rg_hull *h, rg_vec3 pos, rg_quat q, posed_hull *out) {
    int i, k, idx[64], ev[2];
    double len = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
    rg_quat qn;
    qn.x = (rg_real)(q.x / len); qn.y = (rg_real)(q.y / len); qn.z = (rg_real)(q.z / len); qn.w = (rg_real)(q.w / len);
    out->vertex_count = rg_hull_vertex_count(h);
    out->face_count = rg_hull_face_count(h);
    out->edge_count = rg_hull_edge_count(h);
    for (i = 0; i < out->vertex_count; ++i) {
        rg_vec3 v = rg_hull_vertex(h, i);
        double in[3];
        in[0] = v.x; in[1] = v.y; in[2] = v.z;
        rotate_d(qn, in, out->v[i]);
        out->v[i][0] += pos.x; out->v[i][1] += pos.y; out->v[i][2] += pos.z;
    }
    for (i = 0; i < out->face_count; ++i) {
        rg_vec3 nn = rg_hull_face_normal(h, i);
        double in[3];
        int count = rg_hull_face_vertices(h, i, idx, 64);
        in[0] = nn.x; in[1] = nn.y; in[2] = nn.z;
        rotate_d(qn, in, out->n[i]);
        out->offset[i] = 0;
        for (k = 0; k < count; ++k)
            out->offset[i] += (out->n[i][0] * out->v[idx[k]][0] + out->n[i][1] * out->v[idx[k]][1] +
                               out->n[i][2] * out->v[idx[k]][2]) / count;
    }
    for (i = 0; i < out->edge_count; ++i) {
        rg_hull_edge(h, i, ev, NULL);
        for (k = 0; k < 3; ++k) out->e[i][k] = out->v[ev[1]][k] - out->v[ev[0]][k];
    }
}

/* Separation of the two hulls along unit axis n, either way round: > 0 when n separates. */
static double axis_separation(const posed_hull *a, const posed_hull *b, const double n[3]) {
    double amin = 1e300, amax = -1e300, bmin = 1e300, bmax = -1e300, s1, s2;
    int i;
    for (i = 0; i < a->vertex_count; ++i) {
        double d = n[0] * a->v[i][0] + n[1] * a->v[i][1] + n[2] * a->v[i][2];
        if (d < amin) amin = d;
        if (d > amax) amax = d;
    }
    for (i = 0; i < b->vertex_count; ++i) {
        double d = n[0] * b->v[i][0] + n[1] * b->v[i][1] + n[2] * b->v[i][2];
        if (d < bmin) bmin = d;
        if (d > bmax) bmax = d;
    }
    s1 = bmin - amax;
    s2 = amin - bmax;
    return s1 > s2 ? s1 : s2;
}

/* The brute-force separating-axis test without pruning: every face normal of both hulls and
   (with_edges) every cross product of an edge of A with an edge of B (skipping parallel pairs,
   whose axes are face normals), each with the hulls' full vertex extents. The scan keeps the
   largest separation: > 0 separated, otherwise minus the minimum overlap over the axes; given
   a direction (`normal`), it also says whether an axis within `cosine` of it separates by at
   least `floor`. */
typedef struct axis_scan {
    double best;
    const double *normal;
    double cosine, floor;
    int near_normal;
} axis_scan;

static void scan_axis(axis_scan *scan, const posed_hull *a, const posed_hull *b, const double n[3]) {
    double s = axis_separation(a, b, n);
    if (s > scan->best) scan->best = s;
    if (scan->normal && s >= scan->floor &&
        fabs(n[0] * scan->normal[0] + n[1] * scan->normal[1] + n[2] * scan->normal[2]) >= scan->cosine)
        scan->near_normal = 1;
}

static void scan_axes(axis_scan *scan, const posed_hull *a, const posed_hull *b, int with_edges) {
    int i, j;
    for (i = 0; i < a->face_count; ++i) scan_axis(scan, a, b, a->n[i]);
    for (i = 0; i < b->face_count; ++i) scan_axis(scan, a, b, b->n[i]);
    for (i = 0; with_edges && i < a->edge_count; ++i)
        for (j = 0; j < b->edge_count; ++j) {
            const double *u = a->e[i], *v = b->e[j];
            double c[3], l, lu, lv;
            c[0] = u[1] * v[2] - u[2] * v[1];
            c[1] = u[2] * v[0] - u[0] * v[2];
            c[2] = u[0] * v[1] - u[1] * v[0];
            l = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
            lu = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
            lv = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            if (l <= 1e-9 * lu * lv) continue;
            c[0] /= l; c[1] /= l; c[2] /= l;
            scan_axis(scan, a, b, c);
        }
}

static double scan_separation(const posed_hull *a, const posed_hull *b, int with_edges) {
    axis_scan scan;
    scan.best = -1e300;
    scan.normal = NULL;
    scan_axes(&scan, a, b, with_edges);
    return scan.best;
}

static double brute_force_separation(const posed_hull *a, const posed_hull *b) { return scan_separation(a, b, 1); }

/* Is n within `cosine` of an axis whose separation is at least `floor`? */
static int near_an_axis_separating_by(const posed_hull *a, const posed_hull *b, rg_vec3 n, double floor, double cosine) {
    axis_scan scan;
    double d[3];
    d[0] = n.x; d[1] = n.y; d[2] = n.z;
    scan.best = -1e300;
    scan.normal = d;
    scan.floor = floor;
    scan.cosine = cosine;
    scan.near_normal = 0;
    scan_axes(&scan, a, b, 1);
    return scan.near_normal;
}

/* rg_collide_hulls' axis preference for a minimum overlap `overlap` between hulls whose smaller
   radius is `small`: 0.5% of the overlap plus 0.1% of that radius (its documented figures). */
static double preference_tolerance(double overlap, double small) { return 0.005 * overlap + 0.001 * small; }

/* Signed distance of point p from a posed hull: the largest of its face-plane distances (0 on
   the surface, negative inside). */
static double plane_distance(const posed_hull *h, rg_vec3 p) {
    double best = -1e300;
    int i;
    for (i = 0; i < h->face_count; ++i) {
        double d = h->n[i][0] * p.x + h->n[i][1] * p.y + h->n[i][2] * p.z - h->offset[i];
        if (d > best) best = d;
    }
    return best;
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

#if defined(__SANITIZE_ADDRESS__)
#define COLLIDE_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COLLIDE_SANITIZED 1
#endif
#endif

/* 100 000 random pairs (20 000 in the sanitizer builds, which run about 10x slower), a quarter
   each box-box, box-hull, hull-hull and quickhull-anything, random sizes (box half extents 0.1
   to 1.5; brute-force hulls of 5 to 10 points and quickhull hulls of 6 to 14 points in
   ellipsoids of semi-axes 0.2 to 1.5, or of 5- to 8-gon prisms) and orientations, placed from deep
   overlap to well apart, a quarter of them with a margin. Against the brute-force separation:
   the same decision (touching or not) outside a band of rounding width, the deepest point's
   depth equal to the minimum overlap over all candidate axes (allowing for the face preference,
   RG__AXIS_* in rigid.h: 0.5% of the depth plus 0.1% of the smaller radius), the hull extents
   along the reported normal overlapping by that depth, every point on B's surface and
   point - depth*normal on A's. */
static void test_collide_random_pairs_against_brute_force(void) {
#ifdef COLLIDE_SANITIZED
    const int pair_count = 20000;
#else
    const int pair_count = 100000;
#endif
    enum { BOXES = 24, HULLS = 48, QUICK = 32, SHAPES = BOXES + HULLS + QUICK };
    rg_hull *shapes[SHAPES];
    double radius[SHAPES];
    static posed_hull pa, pb;
    int i, k, wrong_decision = 0, speculative = 0, speculative_missed = 0, touching = 0, separated = 0, edge_like = 0, checked_points = 0;
    double worst_depth = 0, worst_axis = 0, worst_axis_below = 0, worst_beyond_extent = 0;
    double worst_surface_b = 0, worst_surface_a = 0;
    int preferred = 0, aligned_faces = 0;
    double tol = 50 * RG_TEST_EPS;
    rg_test_seed(4242);
    for (i = 0; i < BOXES; ++i) {
        rg_vec3 h = rg_v3(rg_test_uniform(0.1, 1.5), rg_test_uniform(0.1, 1.5), rg_test_uniform(0.1, 1.5));
        shapes[i] = rg_hull_create_box(h, NULL);
        ENSURE(shapes[i] != NULL);
    }
    for (i = BOXES; i < BOXES + HULLS; ++i)
        do shapes[i] = random_hull(10); while (!shapes[i]);
    for (i = BOXES + HULLS; i < SHAPES; ++i) {
        /* quickhull: even ones of 6 to 14 points in an ellipsoid (some inside), odd ones of two
           5- to 8-gons, a prism with polygon caps whose coplanar triangles it must merge */
        rg_vec3 p[16], size = rg_v3(rg_test_uniform(0.2, 1.5), rg_test_uniform(0.2, 1.5), rg_test_uniform(0.2, 1.5));
        int k, n;
        if (i % 2 == 0) {
            n = 6 + (int)(rg_test_random() * 9);
            for (k = 0; k < n; ++k) {
                rg_vec3 u = rg_test_unit_vector();
                double r = rg_test_uniform(0.3, 1);
                p[k] = rg_v3(u.x * size.x * r, u.y * size.y * r, u.z * size.z * r);
            }
        } else {
            int sides = 5 + (int)(rg_test_random() * 4);
            n = 2 * sides;
            for (k = 0; k < sides; ++k) {
                double angle = 2 * 3.14159265358979324 * k / sides;
                p[k] = rg_v3(size.x * cos(angle), -size.y, size.z * sin(angle));
                p[sides + k] = rg_v3(size.x * cos(angle), size.y, size.z * sin(angle));
            }
        }
        shapes[i] = rg_hull_create(p, n, NULL);
        ENSURE(shapes[i] != NULL);
        ENSURE(rg_hull_vertex_count(shapes[i]) <= 64 && rg_hull_face_count(shapes[i]) <= 128 &&
               rg_hull_edge_count(shapes[i]) <= 192);
    }
    for (i = 0; i < SHAPES; ++i) {
        double r = 0;
        int v;
        for (v = 0; v < rg_hull_vertex_count(shapes[i]); ++v) {
            double l = rg_v3_length(rg_v3_sub(rg_hull_vertex(shapes[i], v), rg_hull_centroid(shapes[i])));
            if (l > r) r = l;
        }
        radius[i] = r;
    }
    for (i = 0; i < pair_count; ++i) {
        /* box-box, box-hull, hull-hull, quickhull-anything */
        int kind = i % 4, box_a = (int)(rg_test_random() * BOXES), box_b = (int)(rg_test_random() * BOXES);
        int hull_a = BOXES + (int)(rg_test_random() * HULLS), hull_b = BOXES + (int)(rg_test_random() * HULLS);
        int quick = BOXES + HULLS + (int)(rg_test_random() * QUICK), any = (int)(rg_test_random() * SHAPES);
        int ia = kind == 0 || kind == 1 ? box_a : kind == 2 ? hull_a : quick;
        int ib = kind == 0 ? box_b : kind == 3 ? any : hull_b;
        const rg_hull *a = shapes[ia], *b = shapes[ib];
        double ra = radius[ia], rb = radius[ib];
        rg_quat qa = rg_test_rotation(), qb = rg_test_rotation();
        rg_vec3 pos_b = rg_v3(rg_test_uniform(-1, 1), rg_test_uniform(-1, 1), rg_test_uniform(-1, 1));
        rg_vec3 dir = rg_test_unit_vector();
        double distance = (ra + rb) * rg_test_uniform(0.1, 0.9);
        rg_vec3 pos_a = rg_v3_madd(pos_b, dir, distance);
        double small = ra < rb ? ra : rb, margin = (i % 4 == 3) ? rg_test_uniform(0, 0.1) * small : 0;
        double sep, band = tol * (ra + rb + 2), deepest = -1e300;
        rg_manifold m;
        int count;
        pose_hull(a, pos_a, qa, &pa);
        pose_hull(b, pos_b, qb, &pb);
        sep = brute_force_separation(&pa, &pb);
        count = rg_collide_hulls(a, pos_a, qa, b, pos_b, qb, margin, &m);
        if (fabs(sep - margin) <= band || fabs(sep) <= band) continue; /* too close to call in rg_real */
        if (sep > 0 && sep <= margin && count == 0) {
            /* a gap within the margin whose closest features give no point on both surfaces */
            ++speculative_missed;
            continue;
        }
        if (sep > 0 && sep <= margin) ++speculative;
        if ((sep > margin) != (count == 0)) {
            if (wrong_decision < 5)
                rg_test_note("pair %d: separation %.9g, margin %.9g, count %d", i, sep, margin, count);
            ++wrong_decision;
            continue;
        }
        if (count == 0) {
            ++separated;
            continue;
        }
        ++touching;
        ENSURE(count <= 4);
        ENSURE_NEAR(rg_v3_length(m.normal), 1, 10 * RG_TEST_EPS);
        for (k = 0; k < count; ++k) {
            rg_vec3 on_a = rg_v3_madd(m.points[k], m.normal, -m.depths[k]);
            double db = fabs(plane_distance(&pb, m.points[k])), da = fabs(plane_distance(&pa, on_a));
            if (db > worst_surface_b) worst_surface_b = db;
            if (da > worst_surface_a) worst_surface_a = da;
            if (m.depths[k] > deepest) deepest = m.depths[k];
            ENSURE(k == 0 || m.depths[k] <= m.depths[0]);
            ++checked_points;
        }
        if (count == 1) ++edge_like;
        {
            /* extents along the reported normal (B to A): B's top minus A's bottom, the most any
               point pair along it can overlap */
            double n[3], bmax = -1e300, amin = 1e300, overlap;
            int v;
            n[0] = m.normal.x; n[1] = m.normal.y; n[2] = m.normal.z;
            for (v = 0; v < pb.vertex_count; ++v) {
                double d = n[0] * pb.v[v][0] + n[1] * pb.v[v][1] + n[2] * pb.v[v][2];
                if (d > bmax) bmax = d;
            }
            for (v = 0; v < pa.vertex_count; ++v) {
                double d = n[0] * pa.v[v][0] + n[1] * pa.v[v][1] + n[2] * pa.v[v][2];
                if (d < amin) amin = d;
            }
            overlap = bmax - amin;
            if (deepest - overlap > worst_beyond_extent) worst_beyond_extent = deepest - overlap;
            if (sep < 0) {
                /* the minimum overlap is -sep; the face preference may use an axis whose
                   overlap is larger by up to `preference`, and a manifold whose deepest point
                   is within that of -sep */
                double preference = preference_tolerance(-sep, small), e;
                e = fabs(deepest + sep) / preference;
                if (e > worst_depth) worst_depth = e;
                e = (overlap + sep) / preference;
                /* a face nearly along a least-overlap axis (an edge pair's) may be taken when it
                   reaches as deep: its extents can overlap more, in parts that do not touch */
                if (e > 1 && near_an_axis_separating_by(&pa, &pb, m.normal, sep - preference, 0.9993))
                    ++aligned_faces;
                else if (e > worst_axis)
                    worst_axis = e;
                if (-(overlap + sep) > worst_axis_below) worst_axis_below = -(overlap + sep);
                if (fabs(deepest + sep) > 10 * tol) ++preferred;
            }
        }
    }
    rg_test_note("%d pairs: %d touching (%d with one point), %d separated, %d wrong decisions",
                 pair_count, touching, edge_like, separated, wrong_decision);
    rg_test_note("gaps within the margin: %d with points, %d without", speculative, speculative_missed);
    rg_test_note("overlapping: deepest point vs minimum overlap within %.3f of the preference "
                 "tolerance (%d pairs differ by more than rounding); overlap along the normal "
                 "within %.3f of it above (%d faces nearly along a least-overlap axis beyond it), %.3g below; "
                 "deepest beyond the extents %.3g",
                 worst_depth, preferred, worst_axis, aligned_faces, worst_axis_below, worst_beyond_extent);
    rg_test_note("points off B's surface %.3g, point - depth*normal off A's %.3g", worst_surface_b,
                 worst_surface_a);
    ENSURE(wrong_decision == 0);
    ENSURE(worst_depth <= 1.01); /* 1% for the radius rounded in rg_real */
    ENSURE(worst_axis <= 1.01);
    ENSURE(worst_axis_below <= 20 * tol);
    ENSURE(worst_beyond_extent <= 20 * tol);
    ENSURE(worst_surface_b <= 20 * tol);
    ENSURE(worst_surface_a <= 20 * tol);
    for (i = 0; i < SHAPES; ++i) rg_hull_destroy(shapes[i]);
}

/* A cube lying across the long edge of a plate (half extents 3.5 x 0.25 x 8, the funnel's),
   its face tilted 0.06 to 0.9 degrees from the plate's, pressed 0.05 to 2 mm in (brute-force
   minimum overlap), either hull as A. When the tilt lowers the part that hangs over the edge,
   the least overlap is along the cross product of the two crossing edges, and the face axes
   overlap by far more (the overhang below the plate's plane): that edge pair gave a one-point
   manifold, about which a cube turned into the plate (5 mm in a step, in the funnel). The faces
   clipped against each other give the area that touches: at least 3 points within the world's
   default margin, the normal the plate's within 2 degrees, the deepest point the minimum
   overlap within the preference tolerance of rg_collide_hulls. */
static void test_collide_nearly_parallel_faces_across_an_edge(void) {
    rg_hull *plate = rg_hull_create_box(rg_v3(3.5f, 0.25f, 8), NULL), *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_vec3 plate_position = rg_v3(0, 0, 0), up = rg_v3(0, 1, 0);
    rg_quat plate_rotation = rg_quat_identity();
    static posed_hull pp, pc;
    int i, edge_best = 0, fewer_points = 0, normal_off = 0;
    double worst_depth = 0, preference = preference_tolerance(2e-3, sqrt(0.75));
    ENSURE(plate && cube);
    rg_test_seed(2611);
    pose_hull(plate, plate_position, plate_rotation, &pp);
    for (i = 0; i < 2000; ++i) {
        rg_quat turn = rg_quat_from_axis_angle(up, (rg_real)rg_test_uniform(0, 1.5707963));
        double heading = rg_test_uniform(0, 6.2831853), tilt_angle = rg_test_uniform(1e-3, 1.5e-2);
        rg_quat tilt = rg_quat_from_axis_angle(rg_v3((rg_real)cos(heading), 0, (rg_real)sin(heading)), (rg_real)tilt_angle);
        rg_quat rotation = rg_quat_normalize(rg_quat_mul(tilt, turn));
        double target = rg_test_uniform(5e-5, 2e-3), sep;
        rg_vec3 position = rg_v3((rg_real)(3.5 + rg_test_uniform(-0.3, 0.3)), 0.75f, (rg_real)rg_test_uniform(-5, 5));
        rg_manifold m;
        int k, as_a;
        /* lower the cube until the brute-force overlap is the target (the axis may change) */
        for (k = 0; k < 3; ++k) {
            pose_hull(cube, position, rotation, &pc);
            sep = brute_force_separation(&pc, &pp);
            position.y = (rg_real)(position.y + (-target - sep));
        }
        pose_hull(cube, position, rotation, &pc);
        sep = brute_force_separation(&pc, &pp);
        /* only the edge-best cases: the face axes overlap beyond the preference tolerance */
        if (!(sep < 0) || scan_separation(&pc, &pp, 0) >= sep - preference_tolerance(-sep, sqrt(0.75))) continue;
        ++edge_best;
        for (as_a = 0; as_a < 2; ++as_a) {
            rg_real cosine;
            if (as_a)
                rg_collide_hulls(plate, plate_position, plate_rotation, cube, position, rotation, 0.02f, &m);
            else
                rg_collide_hulls(cube, position, rotation, plate, plate_position, plate_rotation, 0.02f, &m);
            if (m.count < 3) ++fewer_points;
            cosine = rg_v3_dot(m.normal, up);
            if ((as_a ? -cosine : cosine) < 0.9994f) ++normal_off;
            if (m.count > 0 && fabs(m.depths[0] + sep) > worst_depth) worst_depth = fabs(m.depths[0] + sep);
        }
    }
    rg_test_note("%d of 2000 poses with an edge pair as the least overlap: %d manifolds with fewer than 3 points, %d "
                 "normals more than 2 degrees off the plate's; deepest point vs minimum overlap %.4f mm (tolerance "
                 "%.3f mm)",
                 edge_best, fewer_points, normal_off, worst_depth * 1e3, preference * 1e3);
    ENSURE(edge_best >= 200);
    ENSURE(fewer_points == 0);
    ENSURE(normal_off == 0);
    ENSURE(worst_depth <= preference);
    rg_hull_destroy(plate);
    rg_hull_destroy(cube);
}

static int manifolds_equal(const rg_manifold *x, const rg_manifold *y) {
    int i;
    if (x->count != y->count || x->normal.x != y->normal.x || x->normal.y != y->normal.y ||
        x->normal.z != y->normal.z)
        return 0;
    for (i = 0; i < x->count; ++i)
        if (x->points[i].x != y->points[i].x || x->points[i].y != y->points[i].y ||
            x->points[i].z != y->points[i].z || x->depths[i] != y->depths[i] ||
            x->features[i] != y->features[i])
            return 0;
    return 1;
}

/* A small random rotation of at most `angle` radians. */
static rg_quat small_rotation(double angle) {
    rg_vec3 axis = rg_test_unit_vector();
    double a = rg_test_uniform(-angle, angle);
    return rg_quat_from_axis_angle(axis, a);
}

/* Baraff §7.1 coherence: 64 pairs (boxes and hulls) each walk 400 steps of small random motions
   (at most 0.02 rad and 0.5% of the pair's size per step) in and out of contact, half with a
   margin. With the witness the result must equal the full search bit for bit at every step,
   and the witness must actually answer most separated steps. */
static void test_collide_witness_equals_full_search(void) {
    enum { PAIRS = 64, STEPS = 400 };
    rg_hull *shapes[8];
    int p, step, i, mismatches = 0, hits = 0, separated = 0, touching = 0, calls = 0;
    rg_test_seed(777);
    for (i = 0; i < 4; ++i)
        shapes[i] = rg_hull_create_box(rg_v3(rg_test_uniform(0.2, 1), rg_test_uniform(0.2, 1), rg_test_uniform(0.2, 1)), NULL);
    for (i = 4; i < 8; ++i)
        do shapes[i] = random_hull(10); while (!shapes[i]);
    for (p = 0; p < PAIRS; ++p) {
        const rg_hull *a = shapes[p % 8], *b = shapes[(p / 8 + p) % 8];
        rg_vec3 dir = rg_test_unit_vector(), pos_b = rg_v3(rg_test_uniform(-2, 2), 0, rg_test_uniform(-2, 2));
        rg_quat qa = rg_test_rotation(), qb = rg_test_rotation();
        double size = 0, distance, margin;
        rg_witness witness;
        for (i = 0; i < rg_hull_vertex_count(a); ++i) size += rg_v3_length(rg_hull_vertex(a, i)) / rg_hull_vertex_count(a);
        for (i = 0; i < rg_hull_vertex_count(b); ++i) size += rg_v3_length(rg_hull_vertex(b, i)) / rg_hull_vertex_count(b);
        distance = size * rg_test_uniform(0.5, 1.0);
        margin = (p % 2) ? 0.02 * size : 0;
        memset(&witness, 0, sizeof witness);
        for (step = 0; step < STEPS; ++step) {
            rg_manifold cached, full;
            rg_vec3 pos_a;
            int n1, n2;
            dir = rg_v3_normalize(rg_quat_rotate(small_rotation(0.02), dir));
            distance += size * rg_test_uniform(-0.005, 0.005);
            if (distance < 0.4 * size) distance = 0.4 * size;
            if (distance > 1.1 * size) distance = 1.1 * size;
            qa = rg_quat_normalize(rg_quat_mul(small_rotation(0.02), qa));
            qb = rg_quat_normalize(rg_quat_mul(small_rotation(0.02), qb));
            pos_a = rg_v3_madd(pos_b, dir, distance);
            n1 = rg_collide_hulls_cached(a, pos_a, qa, b, pos_b, qb, margin, &witness, &cached);
            n2 = rg_collide_hulls(a, pos_a, qa, b, pos_b, qb, margin, &full);
            ++calls;
            if (n1 != n2 || !manifolds_equal(&cached, &full)) ++mismatches;
            if (n2 == 0) ++separated; else ++touching;
            if (witness.held) {
                ++hits;
                if (n2 != 0) ++mismatches; /* a witness only ever answers "separated" */
            }
        }
    }
    rg_test_note("%d calls (%d separated, %d touching): %d answered by the witness (%.1f%% of the "
                 "separated ones), %d mismatches", calls, separated, touching, hits,
                 100.0 * hits / (separated > 0 ? separated : 1), mismatches);
    ENSURE(mismatches == 0);
    ENSURE(separated > calls / 5 && touching > calls / 5);
    ENSURE(hits > separated / 2);
    for (i = 0; i < 8; ++i) rg_hull_destroy(shapes[i]);
}

/* ---- boxes: the 15-axis test against the generic search ---------------------------------- */

/* The box of rg_hull_create_box built by rg_hull_create_polyhedron from the same corners and
   faces: the same hull, which the narrow phase treats as a generic polyhedron. */
static rg_hull *generic_box(rg_vec3 h) {
    static const int faces[24] = {1, 3, 7, 5, 0, 4, 6, 2, 2, 6, 7, 3, 0, 1, 5, 4, 4, 5, 7, 6, 0, 2, 3, 1};
    static const int sizes[6] = {4, 4, 4, 4, 4, 4};
    rg_vec3 corners[8];
    int i;
    for (i = 0; i < 8; ++i)
        corners[i] = rg_v3((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z);
    return rg_hull_create_polyhedron(corners, 8, sizes, 6, faces, NULL);
}

/* Do two hulls have the same vertices, faces and edges (bit for bit)? */
static int same_hull(const rg_hull *x, const rg_hull *y) {
    int i, k, fx[8], fy[8], vx[2], vy[2], ex[2], ey[2];
    if (rg_hull_vertex_count(x) != rg_hull_vertex_count(y) || rg_hull_face_count(x) != rg_hull_face_count(y) ||
        rg_hull_edge_count(x) != rg_hull_edge_count(y))
        return 0;
    for (i = 0; i < rg_hull_vertex_count(x); ++i)
        if (rg_v3_length(rg_v3_sub(rg_hull_vertex(x, i), rg_hull_vertex(y, i))) != 0) return 0;
    for (i = 0; i < rg_hull_face_count(x); ++i) {
        int n = rg_hull_face_vertices(x, i, fx, 8);
        if (n != rg_hull_face_vertices(y, i, fy, 8)) return 0;
        for (k = 0; k < n; ++k)
            if (fx[k] != fy[k]) return 0;
        if (rg_v3_length(rg_v3_sub(rg_hull_face_normal(x, i), rg_hull_face_normal(y, i))) != 0) return 0;
    }
    for (i = 0; i < rg_hull_edge_count(x); ++i) {
        rg_hull_edge(x, i, vx, ex);
        rg_hull_edge(y, i, vy, ey);
        if (vx[0] != vy[0] || vx[1] != vy[1] || ex[0] != ey[0] || ex[1] != ey[1]) return 0;
    }
    return 1;
}

/* An orientation of one of the kinds the box query must get right: random; exactly
   axis-aligned (a half turn about a coordinate axis, or none); a quarter turn about one; or a
   quarter turn followed by a turn of 1e-7 to 1e-2 rad (nearly parallel edges). */
static rg_quat box_test_orientation(int kind) {
    static const double half = 0.70710678118654752440;
    int axis = (int)(rg_test_random() * 4);
    rg_quat q = rg_quat_identity(), tilt;
    double angle;
    if (kind == 0) return rg_test_rotation();
    if (axis < 3) {
        double s = kind == 1 ? 1 : half, c = kind == 1 ? 0 : half;
        q.x = axis == 0 ? (rg_real)s : 0;
        q.y = axis == 1 ? (rg_real)s : 0;
        q.z = axis == 2 ? (rg_real)s : 0;
        q.w = (rg_real)c;
    }
    if (kind < 3) return q;
    angle = pow(10, rg_test_uniform(-7, -2));
    tilt = rg_quat_from_axis_angle(rg_test_unit_vector(), (rg_real)angle);
    return rg_quat_mul(tilt, q);
}

/* A posed box in double: centre, axes (columns), half extents. */
typedef struct posed_box { double c[3], axis[3][3], h[3]; } posed_box;

static void pose_box(rg_vec3 h, rg_vec3 pos, rg_quat q, posed_box *out) {
    int k;
    double len = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
    rg_quat qn;
    qn.x = (rg_real)(q.x / len); qn.y = (rg_real)(q.y / len); qn.z = (rg_real)(q.z / len); qn.w = (rg_real)(q.w / len);
    out->c[0] = pos.x; out->c[1] = pos.y; out->c[2] = pos.z;
    out->h[0] = h.x; out->h[1] = h.y; out->h[2] = h.z;
    for (k = 0; k < 3; ++k) {
        double e[3] = {0, 0, 0};
        e[k] = 1;
        rotate_d(qn, e, out->axis[k]);
    }
}

static double dot3(const double *u, const double *v) { return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; }

/* The box's reach from its centre along unit n. */
static double box_reach(const posed_box *b, const double n[3]) {
    return b->h[0] * fabs(dot3(n, b->axis[0])) + b->h[1] * fabs(dot3(n, b->axis[1])) +
           b->h[2] * fabs(dot3(n, b->axis[2]));
}

/* The sine below which rg__collide_query_edges and the box query treat two edges as parallel
   (RG__PARALLEL_SINE in rigid.h): their cross product is no candidate axis. */
#ifdef RIGID_DOUBLE
#define BOX_PARALLEL_SINE 1.5e-8
#else
#define BOX_PARALLEL_SINE 3.5e-4
#endif

/* The 15 candidate axes of two boxes, less the cross products of axes parallel within
   BOX_PARALLEL_SINE; returns how many. *borderline (may be NULL) is set when a sine lies
   within 0.1% of that limit, where rounding decides whether the axis counts. */
static int box_axes(const posed_box *a, const posed_box *b, double axes[15][3], int *borderline) {
    int i, j, k, n = 0;
    for (i = 0; i < 3; ++i) {
        for (k = 0; k < 3; ++k) axes[n][k] = a->axis[i][k];
        ++n;
        for (k = 0; k < 3; ++k) axes[n][k] = b->axis[i][k];
        ++n;
    }
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            const double *u = a->axis[i], *v = b->axis[j];
            double c[3], l;
            c[0] = u[1] * v[2] - u[2] * v[1];
            c[1] = u[2] * v[0] - u[0] * v[2];
            c[2] = u[0] * v[1] - u[1] * v[0];
            l = sqrt(dot3(c, c));
            if (borderline && fabs(l - BOX_PARALLEL_SINE) <= 1e-3 * BOX_PARALLEL_SINE) *borderline = 1;
            if (l <= BOX_PARALLEL_SINE) continue;
            for (k = 0; k < 3; ++k) axes[n][k] = c[k] / l;
            ++n;
        }
    return n;
}

/* Within this sine of a face axis, an edge axis is the face axis itself in exact arithmetic,
   where both queries reject it (the arcs touch), but rounding may let it in. */
#ifdef RIGID_DOUBLE
#define BOX_FACE_SINE 1e-11
#else
#define BOX_FACE_SINE 1e-5
#endif

/* Separations of two posed boxes along their 6 face axes (face[]) and the usable ones of the 9
   cross products (edge[], with |d.axis| for d between the centres in along[], and on_face[] set
   for those within BOX_FACE_SINE of a face axis); returns how many edge axes. The largest
   separation of all goes to *best. */
static int box_separations(const posed_box *a, const posed_box *b, double face[6], double edge[9],
                           double along[9], int on_face[9], double *best, int *borderline) {
    double axes[15][3], d[3];
    int i, j, n = box_axes(a, b, axes, borderline);
    for (i = 0; i < 3; ++i) d[i] = a->c[i] - b->c[i];
    *best = -1e300;
    for (i = 0; i < n; ++i) {
        double t = fabs(dot3(d, axes[i])), s = t - box_reach(a, axes[i]) - box_reach(b, axes[i]);
        if (i < 6) face[i] = s;
        else {
            edge[i - 6] = s;
            along[i - 6] = t;
            on_face[i - 6] = 0;
            for (j = 0; j < 6; ++j) {
                const double *u = axes[i], *v = axes[j];
                double c[3];
                c[0] = u[1] * v[2] - u[2] * v[1];
                c[1] = u[2] * v[0] - u[0] * v[2];
                c[2] = u[0] * v[1] - u[1] * v[0];
                if (sqrt(dot3(c, c)) <= BOX_FACE_SINE) on_face[i - 6] = 1;
            }
        }
        if (s > *best) *best = s;
    }
    return n - 6;
}

/* Can rounding of the edge axes' separations (the only values the box query computes otherwise
   than the generic one: its face queries are bit-identical) change the result? When an edge
   axis lies within delta of the margin, of the best axis, of the manifold's preference threshold
   best - tolerance or of another edge axis near the top, or is the best with another axis
   within delta of it or of that threshold, or when the centres lie within delta of the plane
   through the best edge axis (its two Minkowski faces tie). An edge axis on a face axis has the
   face's separation within rounding, and the manifold prefers the face: it only counts near
   the margin or the threshold. *degenerate is set when one reaches the threshold: rounding
   may then make it the witness. */
static int box_edges_near_tie(const double face[6], const double edge[9], const double along[9],
                              const int on_face[9], int edges, double best, double margin, double tolerance,
                              double delta, int *degenerate) {
    double threshold = best - tolerance;
    int i, j, edge_is_best = 0;
    for (i = 0; i < edges; ++i) {
        if (on_face[i]) {
            if (edge[i] >= threshold - delta) *degenerate = 1;
            if (fabs(edge[i] - margin) <= delta || fabs(edge[i] - threshold) <= delta) return 1;
            continue;
        }
        if (fabs(edge[i] - margin) <= delta || (edge[i] != best && fabs(edge[i] - best) <= delta) ||
            fabs(edge[i] - threshold) <= delta)
            return 1;
        if (edge[i] == best) edge_is_best = 1;
        for (j = 0; j < edges; ++j)
            if (j != i && !on_face[j] && fabs(edge[i] - edge[j]) <= delta && edge[i] >= threshold - delta) return 1;
        if (edge[i] >= threshold - delta && along[i] <= delta) return 1;
    }
    if (edge_is_best)
        for (i = 0; i < 6; ++i)
            if (fabs(face[i] - best) <= delta || fabs(face[i] - threshold) <= delta) return 1;
    return 0;
}

/* How far from b's centre along unit dir a's centre must be for the boxes to be separated by
   sigma: the separation along axis L grows as t |dir.L| - reach, so it is the least t at which
   some axis reaches sigma. */
static double box_offset_for_separation(const posed_box *a, const posed_box *b, const double dir[3], double sigma) {
    double axes[15][3], best = 1e300;
    int i, n = box_axes(a, b, axes, NULL);
    for (i = 0; i < n; ++i) {
        double along = fabs(dot3(dir, axes[i])), r = box_reach(a, axes[i]) + box_reach(b, axes[i]);
        if (along > 1e-12 && (sigma + r) / along < best) best = (sigma + r) / along;
    }
    return best < 0 ? 0 : best;
}

/* Do two manifolds agree within tol (normal) and tol_length (points, depths), point by point? */
static int manifolds_agree(const rg_manifold *x, const rg_manifold *y, double tol, double tol_length,
                           double *worst_normal, double *worst_point) {
    int i;
    double dn;
    if (x->count != y->count) return 0;
    if (x->count == 0) return 1;
    dn = rg_v3_length(rg_v3_sub(x->normal, y->normal));
    if (dn > *worst_normal) *worst_normal = dn;
    if (dn > tol) return 0;
    for (i = 0; i < x->count; ++i) {
        double dp = rg_v3_length(rg_v3_sub(x->points[i], y->points[i]));
        double dd = fabs((double)(x->depths[i] - y->depths[i]));
        if (dp > *worst_point) *worst_point = dp;
        if (dd > *worst_point) *worst_point = dd;
        if (dp > tol_length || dd > tol_length) return 0;
    }
    return 1;
}

/* Two boxes of rg_hull_create_box take the 15-axis test; the same boxes built as polyhedra take
   the generic search. Random pairs (half extents from 0.05 to 1, thin plates 0.005 thick, equal
   boxes; orientations random, exactly axis-aligned, quarter turns and nearly parallel; offsets
   from the deepest overlap to 1.5 margins apart) must agree on touching and on the manifold
   (count, normal within 1e-5, points and depths within 1e-5 of the boxes' size), except where
   rounding may decide (box_edges_near_tie, from an independent double computation of the 15
   axes, or an edge pair's sine within 0.1% of the parallel limit); those are counted, and at
   most 1% may differ. The witness each leaves must name the same axis as well, but for those. */
static void test_collide_box_queries_match_generic(void) {
#if defined(COLLIDE_SANITIZED) || defined(__TINYC__) || defined(__cplusplus)
    const int pair_count = 20000;
#else
    const int pair_count = 100000;
#endif
    enum { SHAPES = 24 };
#ifdef RIGID_DOUBLE
    const double delta = 1e-9;
#else
    const double delta = 1e-4;
#endif
    rg_hull *fast[SHAPES], *generic[SHAPES];
    rg_vec3 half[SHAPES];
    int i, k, touching = 0, separated = 0, edge_manifolds = 0, ties = 0, tie_mismatches = 0;
    int mismatches = 0, witness_mismatches = 0, degenerate_witnesses = 0, degenerate_pairs = 0;
    int kinds[4] = {0, 0, 0, 0};
    double worst_normal = 0, worst_point = 0;
    rg_test_seed(1515);
    for (i = 0; i < SHAPES; ++i) {
        int kind = i % 4;
        rg_vec3 h = rg_v3(rg_test_uniform(0.05, 1), rg_test_uniform(0.05, 1), rg_test_uniform(0.05, 1));
        if (kind == 1) { /* a thin plate */
            if (i % 3 == 0) h.x = 0.005f; else if (i % 3 == 1) h.y = 0.005f; else h.z = 0.005f;
        }
        if (kind == 2) h = rg_v3(0.5f, 0.5f, 0.5f); /* the benchmark cube, several times over */
        half[i] = h;
        fast[i] = rg_hull_create_box(h, NULL);
        generic[i] = generic_box(h);
        ENSURE(fast[i] && generic[i] && same_hull(fast[i], generic[i]));
    }
    for (i = 0; i < pair_count; ++i) {
        int ia = (int)(rg_test_random() * SHAPES), ib = (int)(rg_test_random() * SHAPES);
        int kind_a = (int)(rg_test_random() * 4), kind_b = (int)(rg_test_random() * 4);
        rg_quat qb = box_test_orientation(kind_b), qa;
        rg_vec3 pos_b = rg_test_random() < 0.5 ? rg_v3(0, 0, 0)
                      : rg_v3(rg_test_uniform(-3, 3), rg_test_uniform(-3, 3), rg_test_uniform(-3, 3));
        rg_vec3 pos_a, dir;
        posed_box pa, pb;
        double face[6], edge[9], along[9], d[3], size, margin, sigma, lo, best, tolerance, radius_a, radius_b, u;
        int edges, near_tie, borderline, degenerate, nf, ng, on_face[9];
        rg_manifold mf, mg;
        rg_witness wf, wg;
        if (ib == ia + 1 && rg_test_random() < 0.5) ib = ia; /* more equal pairs */
        /* A relative to B: nearly parallel and axis-aligned kinds are relative turns */
        qa = kind_a == 0 ? rg_test_rotation() : rg_quat_mul(qb, box_test_orientation(kind_a));
        dir = rg_test_random() < 0.2 ? rg_quat_rotate(qb, rg_v3(0, 1, 0)) : rg_test_unit_vector();
        size = rg_v3_length(half[ia]) + rg_v3_length(half[ib]);
        margin = (i % 2) ? 0.02 * size : 0;
        pose_box(half[ia], rg_v3(0, 0, 0), qa, &pa);
        pose_box(half[ib], rg_v3(0, 0, 0), qb, &pb);
        box_separations(&pa, &pb, face, edge, along, on_face, &lo, NULL); /* concentric: the deepest overlap */
        u = rg_test_random();
        if (u < 0.4) sigma = lo * rg_test_random();                                /* overlapping */
        else if (u < 0.7) sigma = margin + 0.1 * size * (rg_test_random() - 0.5); /* about the margin */
        else sigma = margin + 0.02 * size * rg_test_random();                     /* just beyond it */
        d[0] = dir.x; d[1] = dir.y; d[2] = dir.z;
        pos_a = rg_v3_madd(pos_b, dir, (rg_real)box_offset_for_separation(&pa, &pb, d, sigma));
        pose_box(half[ia], pos_a, qa, &pa);
        pose_box(half[ib], pos_b, qb, &pb);
        borderline = 0;
        edges = box_separations(&pa, &pb, face, edge, along, on_face, &best, &borderline);
        radius_a = rg_v3_length(half[ia]);
        radius_b = rg_v3_length(half[ib]);
        tolerance = 0.005 * fabs(best) + 0.001 * (radius_a < radius_b ? radius_a : radius_b);
        degenerate = 0;
        near_tie = box_edges_near_tie(face, edge, along, on_face, edges, best, margin, tolerance, delta * size,
                                      &degenerate) || borderline;
        degenerate_pairs += degenerate;
        memset(&wf, 0, sizeof wf);
        memset(&wg, 0, sizeof wg);
        nf = rg_collide_hulls_cached(fast[ia], pos_a, qa, fast[ib], pos_b, qb, (rg_real)margin, &wf, &mf);
        ng = rg_collide_hulls_cached(generic[ia], pos_a, qa, generic[ib], pos_b, qb, (rg_real)margin, &wg, &mg);
        if (ng > 0) ++touching; else ++separated;
        if (ng == 1 && wg.kind == 3) ++edge_manifolds;
        ++kinds[wg.kind & 3];
        ties += near_tie;
        if ((nf > 0) != (ng > 0) || !manifolds_agree(&mf, &mg, 1e-5, 1e-5 * size, &worst_normal, &worst_point)) {
            if (near_tie) ++tie_mismatches; else ++mismatches;
        } else if (!near_tie && (wf.kind != wg.kind || wf.feature_a != wg.feature_a || wf.feature_b != wg.feature_b)) {
            if (degenerate) ++degenerate_witnesses; else ++witness_mismatches;
        }
    }
    rg_test_note("%d box pairs: %d touching (%d with one edge/edge point), %d separated; best axis "
                 "face of A %d, face of B %d, edges %d", pair_count, touching, edge_manifolds, separated,
                 kinds[1], kinds[2], kinds[3]);
    rg_test_note("near ties (within %.0e of the size): %d pairs, %d of them with different results; "
                 "%d other mismatches; worst normal difference %.2e, point or depth %.2e m",
                 delta, ties, tie_mismatches, mismatches, worst_normal, worst_point);
    rg_test_note("witnesses: %d differ outside the ties, %d pairs with an edge axis on a face axis that "
                 "reaches the manifold's threshold, %d of them with different witnesses",
                 witness_mismatches, degenerate_pairs, degenerate_witnesses);
    ENSURE(mismatches == 0);
    ENSURE(witness_mismatches == 0);
    ENSURE(tie_mismatches <= pair_count / 100);
    ENSURE(touching > pair_count / 4 && separated > pair_count / 10 && edge_manifolds > pair_count / 100);
    for (k = 0; k < SHAPES; ++k) {
        rg_hull_destroy(fast[k]);
        rg_hull_destroy(generic[k]);
    }
}

/* Feature ids: a cube resting on a slab, nudged by small random slides and tilts that keep the
   same faces touching, keeps the same four ids; an edge crossing an edge keeps its one id; the
   ids of one manifold are distinct; a corner that moves from overhanging the slab's edge onto
   the slab changes id (clipped point to incident vertex). */
static void test_collide_feature_ids_are_stable(void) {
    rg_hull *slab = rg_hull_create_box(rg_v3(2, 0.5, 2), NULL);
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5, 0.5, 0.5), NULL);
    rg_quat id = rg_quat_identity();
    rg_manifold first, m;
    int i, k, j, changed = 0;
    rg_test_seed(99);
    ENSURE(rg_collide_hulls(cube, rg_v3(0.3, 0.99, -0.2), id, slab, rg_v3(0, 0, 0), id, 0.02, &first) == 4);
    for (i = 0; i < 4; ++i)
        for (j = 0; j < i; ++j) ENSURE(first.features[i] != first.features[j]);
    for (i = 0; i < 200; ++i) {
        rg_vec3 pos = rg_v3(0.3 + rg_test_uniform(-0.1, 0.1), 0.99 + rg_test_uniform(-0.005, 0.005),
                            -0.2 + rg_test_uniform(-0.1, 0.1));
        rg_quat tilt = small_rotation(0.01);
        ENSURE(rg_collide_hulls(cube, pos, tilt, slab, rg_v3(0, 0, 0), id, 0.02, &m) == 4);
        for (k = 0; k < 4; ++k) {
            for (j = 0; j < 4; ++j)
                if (m.features[k] == first.features[j]) break;
            if (j == 4) ++changed;
        }
    }
    ENSURE(changed == 0);
    {
        /* edge across edge, the crossing point sliding along both edges */
        rg_quat qb = rg_quat_from_axis_angle(rg_v3(0, 0, 1), 3.14159265358979324 / 4);
        rg_quat qa = rg_quat_from_axis_angle(rg_v3(1, 0, 0), 3.14159265358979324 / 4);
        rg_real h = (rg_real)0.7071067811865476;
        ENSURE(rg_collide_hulls(cube, rg_v3(0, 2 * h - 0.01, 0), qa, cube, rg_v3(0, 0, 0), qb, 0, &first) == 1);
        for (i = 0; i < 50; ++i) {
            rg_vec3 pos = rg_v3(rg_test_uniform(-0.3, 0.3), 2 * h - rg_test_uniform(0.001, 0.02), rg_test_uniform(-0.3, 0.3));
            ENSURE(rg_collide_hulls(cube, pos, qa, cube, rg_v3(0, 0, 0), qb, 0, &m) == 1);
            ENSURE(m.features[0] == first.features[0]);
        }
    }
    {
        /* overhanging the slab's +x edge at x = 2: two points are clipped; slid back fully
           onto the slab they become the cube's own corners, with other ids */
        rg_manifold over, on;
        int same = 0;
        ENSURE(rg_collide_hulls(cube, rg_v3(1.8, 0.99, 0), id, slab, rg_v3(0, 0, 0), id, 0, &over) == 4);
        ENSURE(rg_collide_hulls(cube, rg_v3(1.4, 0.99, 0), id, slab, rg_v3(0, 0, 0), id, 0, &on) == 4);
        for (k = 0; k < 4; ++k)
            for (j = 0; j < 4; ++j)
                if (over.features[k] == on.features[j]) ++same;
        ENSURE(same == 2);
    }
    rg_test_note("200 nudges of a resting cube and 50 of an edge/edge contact kept their ids");
    rg_hull_destroy(slab);
    rg_hull_destroy(cube);
}

/* Hulls larger than the narrow phase's stack tables (a 48-gon prism: 96 vertices, 50 faces,
   144 edges; caps of 48 corners) take the scratch arrays: a prism resting on another, turned
   and offset, gives four points of the lens where the caps overlap, all inside both caps, at
   the depth of the overlap; the same pair in a world gives the same count. */
static void test_collide_large_faces_use_scratch(void) {
    rg_hull *prism = test_prism_hull(48, 1.0, 0.5);
    rg_quat turn = rg_quat_from_axis_angle(rg_v3(0, 1, 0), 0.3), id = rg_quat_identity();
    rg_vec3 pa = rg_v3(0.6, 0.49, 0.2);
    rg_manifold m;
    int i, n, swap;
    ENSURE(prism != NULL);
    ENSURE(rg_hull_vertex_count(prism) == 96 && rg_hull_edge_count(prism) == 144);
    for (swap = 0; swap < 2; ++swap) {
        /* either way round: the reduction keeps 4 of the lens's many corners (which four may
           differ, all corners being equally deep), on the upper cap of the lower prism */
        double sign = swap ? -1 : 1, shift = swap ? 0.01 : 0;
        n = swap ? rg_collide_hulls(prism, rg_v3(0, 0, 0), id, prism, pa, turn, 0.02, &m)
                 : rg_collide_hulls(prism, pa, turn, prism, rg_v3(0, 0, 0), id, 0.02, &m);
        ENSURE(n == 4);
        ENSURE_V3_NEAR(m.normal, rg_v3(0, sign, 0), 10 * RG_TEST_EPS);
        for (i = 0; i < n; ++i) {
            double dx = m.points[i].x - pa.x, dz = m.points[i].z - pa.z;
            ENSURE_NEAR(m.depths[i], 0.01, 100 * RG_TEST_EPS);
            ENSURE_NEAR(m.points[i].y, 0.5 - shift, 100 * RG_TEST_EPS);
            /* inside both caps (circumradius 1) */
            ENSURE(sqrt((double)m.points[i].x * m.points[i].x + (double)m.points[i].z * m.points[i].z) <= 1 + 1e-4);
            ENSURE(sqrt(dx * dx + dz * dz) <= 1 + 1e-4);
        }
    }
    {
        rg_world_def wd = rg_world_default_def();
        rg_world *w;
        rg_body_def bd = rg_body_default_def();
        wd.gravity = rg_v3(0, 0, 0);
        w = rg_world_create(&wd, NULL);
        bd.type = RG_BODY_STATIC;
        bd.hull = prism;
        rg_body_create(w, &bd, NULL);
        bd = rg_body_default_def();
        bd.hull = prism;
        bd.position = rg_v3(0.6, 0.5, 0.2);
        bd.orientation = turn;
        rg_body_create(w, &bd, NULL);
        for (i = 0; i < 3; ++i) ENSURE(rg_world_step(w, 1.0 / 60) == RG_OK);
        ENSURE(rg_world_get_stats(w).contact_count == 4);
        rg_world_destroy(w);
    }
    rg_test_note("48-gon caps: 4 lens corners at depth %.6f (0.01) either way round and in a world",
                 (double)m.depths[0]);
    rg_hull_destroy(prism);
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
    /* the two touching pairs have not moved: their manifolds are carried over; the separated
       pair's witness holds */
    ENSURE(stats.manifold_reuses == 2 && stats.witness_hits == 1 && stats.witness_misses == 0);
    rg_test_note("step 2: %d pairs, %d contacts, manifolds reused %d, witness hits %d, misses %d", stats.pair_count,
                 stats.contact_count, stats.manifold_reuses, stats.witness_hits, stats.witness_misses);
    ENSURE(rg_body_destroy(w, flat) == RG_OK);
    ENSURE(rg_world_step(w, 1.0 / 60) == RG_OK);
    stats = rg_world_get_stats(w);
    ENSURE(stats.pair_count == 1 && stats.contact_count == 4);
    (void)turned;
    rg_world_destroy(w);
    rg_hull_destroy(ground);
    rg_hull_destroy(cube);
}

/* Manifolds carried over between steps (pairs that have not moved relative to themselves by
   more than a quarter of contact_tolerance) against a fresh rg_collide_hulls at the poses the
   step started from: for every touching pair of every step, the deepest depth agrees within
   0.01 mm (depths are recomputed exactly for the rigid motion; the allowed motion is 0.25 mm),
   and the normals within 1e-3. The scene has a resting stack of three, a cube sliding slowly
   without friction (its manifold is recomputed every few steps), one turning slowly in place,
   and one starting 0.2 mm deep in the ground (pushed out by less than 0.25 mm a step, so its
   manifold is carried over while its depth changes). */
static void test_collide_world_reuses_manifolds(void) {
    enum { BODIES = 7, STEPS = 120 };
    rg_world_def wd = rg_world_default_def();
    rg_world *w;
    rg_hull *ground = rg_hull_create_box(rg_v3(50, 0.5, 50), NULL);
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5, 0.5, 0.5), NULL);
    rg_body_def bd = rg_body_default_def();
    rg_body_id ids[BODIES];
    rg_contact contacts[64];
    double worst_depth = 0, worst_normal = 0;
    long reused = 0, collided = 0, compared = 0;
    int i, step;
    wd.enable_sleep = 0; /* the reuse of resting and creeping pairs' manifolds is measured: asleep, they are not collided */
    w = rg_world_create(&wd, NULL);
    ENSURE(w && ground && cube);
    bd.type = RG_BODY_STATIC;
    bd.hull = ground;
    bd.position = rg_v3(0, -0.5, 0);
    bd.static_friction = bd.dynamic_friction = 0;
    ids[0] = rg_body_create(w, &bd, NULL);
    bd.type = RG_BODY_DYNAMIC;
    bd.hull = cube;
    for (i = 0; i < 3; ++i) {
        bd.position = rg_v3(0, 0.5 + i, 0);
        ids[1 + i] = rg_body_create(w, &bd, NULL);
    }
    bd.position = rg_v3(5, 0.5, 0);
    bd.linear_velocity = rg_v3(0.01, 0, 0);
    ids[4] = rg_body_create(w, &bd, NULL);
    bd.position = rg_v3(-5, 0.5, 0);
    bd.linear_velocity = rg_v3(0, 0, 0);
    bd.angular_velocity = rg_v3(0, 0.05, 0);
    ids[5] = rg_body_create(w, &bd, NULL);
    bd.position = rg_v3(0, 0.5 - 0.0002, 5);
    bd.angular_velocity = rg_v3(0, 0, 0);
    ids[6] = rg_body_create(w, &bd, NULL);
    for (step = 0; step < STEPS; ++step) {
        rg_vec3 position[BODIES];
        rg_quat orientation[BODIES];
        rg_world_stats stats;
        int count;
        for (i = 0; i < BODIES; ++i) {
            position[i] = rg_body_position(w, ids[i]);
            orientation[i] = rg_body_orientation(w, ids[i]);
        }
        ENSURE(rg_world_step(w, 1.0 / 60) == RG_OK);
        stats = rg_world_get_stats(w);
        reused += stats.manifold_reuses;
        collided += stats.witness_hits + stats.witness_misses;
        count = rg_world_contacts(w, contacts, 64);
        ENSURE(count <= 64);
        for (i = 0; i < count && i < 64; ++i) {
            int a = -1, b = -1, j, k, first = 1;
            double deepest = -1e30, fresh_deepest = -1e30;
            rg_manifold fresh;
            for (j = 0; j < i; ++j)
                if (contacts[j].a.index == contacts[i].a.index && contacts[j].b.index == contacts[i].b.index) first = 0;
            if (!first) continue;
            for (j = 0; j < BODIES; ++j) {
                if (ids[j].index == contacts[i].a.index) a = j;
                if (ids[j].index == contacts[i].b.index) b = j;
            }
            ENSURE(a >= 0 && b >= 0);
            if (a < 0 || b < 0) break;
            for (j = i; j < count; ++j)
                if (contacts[j].a.index == contacts[i].a.index && contacts[j].b.index == contacts[i].b.index &&
                    contacts[j].depth > deepest)
                    deepest = contacts[j].depth;
            if (deepest < 0) continue; /* speculative only: the margins differ */
            ENSURE(rg_collide_hulls(rg_body_hull(w, ids[a]), position[a], orientation[a], rg_body_hull(w, ids[b]),
                                    position[b], orientation[b], wd.contact_margin, &fresh) > 0);
            for (k = 0; k < fresh.count; ++k)
                if (fresh.depths[k] > fresh_deepest) fresh_deepest = fresh.depths[k];
            ++compared;
            if (fabs(deepest - fresh_deepest) > worst_depth) worst_depth = fabs(deepest - fresh_deepest);
            if (1 - rg_v3_dot(fresh.normal, contacts[i].normal) > worst_normal)
                worst_normal = 1 - rg_v3_dot(fresh.normal, contacts[i].normal);
        }
    }
    rg_test_note("%ld pair-steps compared, %ld manifolds reused, %ld collided; worst depth difference %.3g mm "
                 "(allowed 0.01 mm), worst 1 - cos between normals %.2g", compared, reused, collided, worst_depth * 1e3,
                 worst_normal);
    ENSURE(compared > 4 * STEPS);
    ENSURE(reused > 2 * STEPS);
    ENSURE(collided > 20);
    ENSURE(worst_depth <= 1e-5);
    ENSURE(worst_normal <= 1e-3);
    rg_world_destroy(w);
    rg_hull_destroy(ground);
    rg_hull_destroy(cube);
}

/* ---- regression tests: failures found and fixed, each told in the test's comment ---- */

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

void rg_tests_collide(void) {
    RUN_TEST(test_collide_box_face_offset);
    RUN_TEST(test_collide_box_turned_45);
    RUN_TEST(test_collide_box_edge_edge);
    RUN_TEST(test_collide_box_corner_on_face);
    RUN_TEST(test_collide_box_separated);
    RUN_TEST(test_collide_random_pairs_against_brute_force);
    RUN_TEST(test_collide_nearly_parallel_faces_across_an_edge);
    RUN_TEST(test_collide_witness_equals_full_search);
    RUN_TEST(test_collide_box_queries_match_generic);
    RUN_TEST(test_collide_feature_ids_are_stable);
    RUN_TEST(test_collide_large_faces_use_scratch);
    RUN_TEST(test_collide_world_narrowphase);
    RUN_TEST(test_collide_world_reuses_manifolds);
    RUN_TEST(test_collide_far_apart_does_not_crash);
    RUN_TEST(test_collide_tiny_hull_inside_far_off_box);
    RUN_TEST(test_collide_tiny_hull_inside_with_a_wide_margin);
    RUN_TEST(test_collide_uneven_sizes_overlap);
}

