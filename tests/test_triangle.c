/* Tests of rg_collide_triangle: a sphere, capsule or hull against one one-sided triangle, with
   internal edges (no snagging on a mesh's flat seams), against analytic answers and brute-force
   distances and separating axes computed here in double. */
#include "test.h"
#include "brute_force_hull.h"

#include <float.h>
#include <string.h>
#include <stdlib.h>

#ifdef RIGID_DOUBLE
#define TRI_TOL 1e-9
#else
#define TRI_TOL 2e-5
#endif

/* rg_v3 from doubles: the literals of the tests are the same numbers in float and double builds. */
static rg_vec3 v3(double x, double y, double z) { return rg_v3((rg_real)x, (rg_real)y, (rg_real)z); }

/* A point uniform in [-s, s]^3, its coordinates drawn in order (x, y, z). */
static rg_vec3 random_point(double s) {
    double x = rg_test_uniform(-s, s), y = rg_test_uniform(-s, s), z = rg_test_uniform(-s, s);
    return v3(x, y, z);
}

static void set_triangle(rg_vec3 t[3], rg_vec3 a, rg_vec3 b, rg_vec3 c) {
    t[0] = a;
    t[1] = b;
    t[2] = c;
}

/* ---- double-precision geometry, independent of rigid.h ------------------------------------ */

typedef struct dvec { double x, y, z; } dvec;
static dvec dv(rg_vec3 v) { dvec r; r.x = v.x; r.y = v.y; r.z = v.z; return r; }
static dvec dmake(double x, double y, double z) { dvec r; r.x = x; r.y = y; r.z = z; return r; }
static dvec dsub(dvec a, dvec b) { return dmake(a.x - b.x, a.y - b.y, a.z - b.z); }
static dvec dadd(dvec a, dvec b) { return dmake(a.x + b.x, a.y + b.y, a.z + b.z); }
static dvec dscale(dvec a, double s) { return dmake(a.x * s, a.y * s, a.z * s); }
static double ddot(dvec a, dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static dvec dcross(dvec a, dvec b) {
    return dmake(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static double dlen(dvec a) { return sqrt(ddot(a, a)); }
static dvec dunit(dvec a) { return dscale(a, 1 / dlen(a)); }
static rg_vec3 rv(dvec v) { return v3(v.x, v.y, v.z); }

/* FNV-1a over a manifold's values (not its padding), for comparing builds. */
static unsigned long long hash_manifold(unsigned long long h, const rg_manifold *m) {
    rg_real values[3 + 4 * RG_MANIFOLD_MAX];
    const unsigned char *bytes;
    size_t i, n = 0;
    int k;
    values[n++] = m->normal.x; values[n++] = m->normal.y; values[n++] = m->normal.z;
    for (k = 0; k < m->count; ++k) {
        values[n++] = m->points[k].x; values[n++] = m->points[k].y; values[n++] = m->points[k].z;
        values[n++] = m->depths[k];
    }
    bytes = (const unsigned char *)values;
    for (i = 0; i < n * sizeof(rg_real); ++i) h = (h ^ bytes[i]) * 1099511628211ull;
    for (k = 0; k < m->count; ++k) h = (h ^ m->features[k]) * 1099511628211ull;
    return (h ^ (unsigned)m->count) * 1099511628211ull;
}

static dvec tri_normal(const rg_vec3 t[3]) { return dunit(dcross(dsub(dv(t[1]), dv(t[0])), dsub(dv(t[2]), dv(t[0])))); }

/* Distance from p to segment a b. */
static double segment_distance(dvec p, dvec a, dvec b) {
    dvec d = dsub(b, a);
    double s = ddot(dsub(p, a), d) / ddot(d, d);
    s = s < 0 ? 0 : s > 1 ? 1 : s;
    return dlen(dsub(p, dadd(a, dscale(d, s))));
}

static double distance_to_segment(rg_vec3 p, dvec a, dvec b) { return segment_distance(dv(p), a, b); }

/* Distance from p to the triangle: the plane's when p projects inside (each edge's plane through
   the normal has it on the inner side), else the nearest of the three edges (corners included). */
static double triangle_distance(const rg_vec3 t[3], dvec p) {
    dvec n = tri_normal(t);
    double best = 1e300;
    int k, inside = 1;
    for (k = 0; k < 3; ++k) {
        dvec a = dv(t[k]), b = dv(t[(k + 1) % 3]);
        double d = segment_distance(p, a, b);
        if (d < best) best = d;
        if (ddot(dcross(dsub(b, a), n), dsub(p, a)) > 0) inside = 0;
    }
    if (inside) {
        double h = fabs(ddot(n, dsub(p, dv(t[0]))));
        if (h < best) best = h;
    }
    return best;
}

/* Distance from segment a b to the triangle: the point-to-triangle distance is convex along the
   segment, so a golden-section search finds its minimum. */
static double segment_triangle_distance(const rg_vec3 t[3], dvec a, dvec b) {
    double lo = 0, hi = 1, g = 0.5 * (sqrt(5.0) - 1);
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = triangle_distance(t, dadd(a, dscale(dsub(b, a), x1)));
    double f2 = triangle_distance(t, dadd(a, dscale(dsub(b, a), x2)));
    int i;
    for (i = 0; i < 60; ++i) { /* the bracket shrinks to 0.618^60 = 3e-13 of the segment */
        if (f1 < f2) {
            hi = x2; x2 = x1; f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = triangle_distance(t, dadd(a, dscale(dsub(b, a), x1)));
        } else {
            lo = x1; x1 = x2; f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = triangle_distance(t, dadd(a, dscale(dsub(b, a), x2)));
        }
    }
    f1 = triangle_distance(t, a);
    f2 = triangle_distance(t, b);
    {
        double m = triangle_distance(t, dadd(a, dscale(dsub(b, a), 0.5 * (lo + hi))));
        if (f1 < m) m = f1;
        if (f2 < m) m = f2;
        return m;
    }
}

/* Angle between two unit normals, in radians. */
static double normal_angle(rg_vec3 a, dvec b) {
    double c = ddot(dv(a), b) / dlen(dv(a)) / dlen(b);
    return acos(c > 1 ? 1 : c < -1 ? -1 : c);
}

/* ---- spheres ------------------------------------------------------------------------------- */

/* The triangle (0,0,0), (2,0,0), (0,0,-2), normal +y; edge 0 runs along x at z = 0 (outward +z),
   edge 1 from (2,0,0) to (0,0,-2) (outward (1,0,-1)/sqrt 2), edge 2 along z at x = 0 (outward
   -x). A sphere in each region touches the closest point with depth r - distance, normal along
   centre minus closest point, point - depth n on the sphere. */
static void test_triangle_sphere_regions(void) {
    rg_vec3 t[3], o = v3((1 / sqrt(2.0)), 0, (-1 / sqrt(2.0)));
    struct { rg_vec3 centre, closest; const char *what; } cases[6];
    rg_manifold m;
    int i;
    set_triangle(t, v3(0, 0, 0), v3(2, 0, 0), v3(0, 0, -2));
    cases[0].centre = v3(0.5, 0.4, -0.5); cases[0].closest = v3(0.5, 0, -0.5); cases[0].what = "face";
    cases[1].centre = v3(1, 0.3, 0.4); cases[1].closest = v3(1, 0, 0); cases[1].what = "edge 0";
    cases[2].centre = rg_v3_add(v3(1, 0.3, -1), rg_v3_scale(o, (rg_real)0.4)); cases[2].closest = v3(1, 0, -1);
    cases[2].what = "edge 1";
    cases[3].centre = v3(-0.4, 0.3, -1.2); cases[3].closest = v3(0, 0, -1.2); cases[3].what = "edge 2";
    cases[4].centre = v3(2.3, 0.4, 0.1); cases[4].closest = v3(2, 0, 0); cases[4].what = "corner 1";
    cases[5].centre = v3(-0.2, 0.4, -2.3); cases[5].closest = v3(0, 0, -2); cases[5].what = "corner 2";
    for (i = 0; i < 6; ++i) {
        rg_vec3 c = cases[i].centre, q = cases[i].closest;
        double d = rg_v3_length(rg_v3_sub(c, q)), r = d + 0.05;
        rg_convex_shape s = test_sphere_shape(c, r);
        rg_vec3 n = rg_v3_scale(rg_v3_sub(c, q), (rg_real)(1 / d));
        ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 1);
        ENSURE_V3_NEAR(m.normal, n, 10 * TRI_TOL);
        ENSURE_NEAR(m.depths[0], 0.05, 10 * TRI_TOL);
        ENSURE_V3_NEAR(m.points[0], q, 10 * TRI_TOL);
        ENSURE_NEAR(rg_v3_length(rg_v3_sub(rg_v3_madd(m.points[0], m.normal, -m.depths[0]), c)), r, 10 * TRI_TOL);
        /* apart by 0.02: a gap within a margin of 0.03, nothing with 0.01 */
        s.radius = (rg_real)(d - 0.02);
        ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.03, &m) == 1);
        ENSURE_NEAR(m.depths[0], -0.02, 10 * TRI_TOL);
        ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 0);
    }
    rg_test_note("face, 3 edges, 2 corners: normal, depth 0.05 and point exact; a 0.02 gap within margin only");
}

/* One-sided: a sphere whose centre is behind the plane gets nothing however deep; one level
   with the plane beside an edge (its normal in the plane) gets nothing either. */
static void test_triangle_sphere_back_side(void) {
    rg_vec3 t[3];
    rg_convex_shape s = test_sphere_shape(v3(0.5, -0.01, -0.5), 0.5);
    rg_manifold m;
    set_triangle(t, v3(0, 0, 0), v3(2, 0, 0), v3(0, 0, -2));
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.1, &m) == 0);
    s.center_a = v3(0.5, 0.01, -0.5);
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.1, &m) == 1);
    ENSURE_NEAR(m.depths[0], 0.49, 10 * TRI_TOL);
    s.center_a = v3(1, 0, 0.3);
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.1, &m) == 0);
}

/* ---- capsules ------------------------------------------------------------------------------- */

/* A capsule lying on the face gives its segment's two ends over the face, depth r - height;
   hanging over edge 1 (x - z = 2), the segment clipped there; tilted 2 degrees still two points
   at each end's depth; tilted 10 degrees or standing, one; through the face (segment crossing
   the plane), one point at the lower end's depth, with the face normal. */
static void test_triangle_capsule_lying_gives_two_points(void) {
    rg_vec3 t[3], up = v3(0, 1, 0);
    rg_convex_shape s = test_capsule_shape(v3(0.3, 0.4, -0.3), v3(1.2, 0.4, -0.3), 0.5);
    rg_manifold m;
    int i;
    double tilt;
    set_triangle(t, v3(0, 0, 0), v3(2, 0, 0), v3(0, 0, -2));
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 2);
    ENSURE_V3_NEAR(m.normal, up, TRI_TOL);
    for (i = 0; i < 2; ++i) {
        ENSURE_NEAR(m.depths[i], 0.1, 10 * TRI_TOL);
        ENSURE_NEAR(m.points[i].y, 0, 10 * TRI_TOL);
        ENSURE_NEAR(m.points[i].z, -0.3, 10 * TRI_TOL);
    }
    ENSURE_NEAR(fabs((double)m.points[0].x - m.points[1].x), 0.9, 10 * TRI_TOL);
    /* over edge 1: clipped at x = 1.5 */
    s.center_a = v3(0.5, 0.4, -0.5);
    s.center_b = v3(2.5, 0.4, -0.5);
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 2);
    ENSURE_NEAR(m.points[0].x > m.points[1].x ? m.points[0].x : m.points[1].x, 1.5, 10 * TRI_TOL);
    ENSURE_NEAR(m.points[0].x + m.points[1].x, 2.0, 10 * TRI_TOL);
    /* tilted: 2 degrees two points (depths 0.1 +- 0.45 sin 2deg), 10 degrees one */
    for (tilt = 2; tilt <= 10; tilt += 8) {
        double h = 0.45 * sin(tilt * 3.14159265358979324 / 180);
        s.center_a = v3(0.3, (0.4 - h), -0.3);
        s.center_b = v3(1.2, (0.4 + h), -0.3);
        ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.2, &m) == (tilt < 5 ? 2 : 1));
        ENSURE_V3_NEAR(m.normal, up, TRI_TOL);
        ENSURE_NEAR(m.depths[0], 0.1 + h, 10 * TRI_TOL);
        if (m.count == 2) ENSURE_NEAR(m.depths[1], 0.1 - h, 10 * TRI_TOL);
    }
    /* standing on the face */
    s.center_a = v3(0.5, 0.4, -0.5);
    s.center_b = v3(0.5, 1.4, -0.5);
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 1);
    ENSURE_NEAR(m.depths[0], 0.1, 10 * TRI_TOL);
    ENSURE_V3_NEAR(m.points[0], v3(0.5, 0, -0.5), 10 * TRI_TOL);
    /* through the face, the lower end 0.2 below it: depth 0.7 at that end, face normal */
    s.center_a = v3(0.6, -0.2, -0.5);
    s.center_b = v3(0.4, 1.4, -0.5);
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 1);
    ENSURE_V3_NEAR(m.normal, up, TRI_TOL);
    ENSURE_NEAR(m.depths[0], 0.7, 10 * TRI_TOL);
    ENSURE_V3_NEAR(m.points[0], v3(0.6, 0, -0.5), 10 * TRI_TOL);
    /* across edge 0 from beside: one point on the edge, normal from it to the segment */
    s.center_a = v3(-0.5, 0.3, 0.4);
    s.center_b = v3(2.5, 0.3, 0.4);
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 1);
    ENSURE_V3_NEAR(m.normal, v3(0, 0.6, 0.8), 10 * TRI_TOL);
    ENSURE_NEAR(m.depths[0], 0, 10 * TRI_TOL);
    ENSURE_NEAR(m.points[0].z, 0, 10 * TRI_TOL);
    /* behind: the segment's midpoint under the plane */
    s.center_a = v3(0.3, -0.05, -0.3);
    s.center_b = v3(1.2, -0.05, -0.3);
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 0);
}

/* ---- hulls ---------------------------------------------------------------------------------- */

/* Which of the corners is within tol of p (projected onto y = 0), or -1. */
static int find_corner(const rg_vec3 *corners, int count, rg_vec3 p, double tol) {
    int i;
    for (i = 0; i < count; ++i)
        if (fabs((double)corners[i].x - p.x) <= tol && fabs((double)corners[i].z - p.z) <= tol) return i;
    return -1;
}

/* A unit cube turned about y, resting 0.01 deep on a triangle much bigger than it: the four
   corners of its bottom face, each once, at depth 0.01, on the plane, normal +y; the same cube
   0.02 above the plane within a margin of 0.03: the four corners at depth -0.02; on a level
   triangle 2e6 wide the same depth 0.01. */
static void test_triangle_box_resting_gives_four_corners(void) {
    rg_hull *box = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL);
    rg_quat q = rg_quat_from_axis_angle(v3(0, 1, 0), (rg_real)0.4);
    rg_vec3 t[3], centre = v3(0.3, 0.49, -0.2), corners[4];
    rg_convex_shape s;
    rg_manifold m;
    int i, k, seen[4];
    ENSURE(box != NULL);
    set_triangle(t, v3(-10, 0, 10), v3(10, 0, 10), v3(0, 0, -10));
    for (k = 0; k < 4; ++k)
        corners[k] = rg_v3_add(centre, rg_quat_rotate(q, v3(k & 1 ? 0.5 : -0.5, -0.5, k & 2 ? 0.5 : -0.5)));
    for (i = 0; i < 2; ++i) {
        double depth = i ? -0.02 : 0.01;
        s = test_hull_shape(box, v3(centre.x, (0.5 - depth), centre.z), q);
        ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.03, &m) == 4);
        ENSURE_V3_NEAR(m.normal, v3(0, 1, 0), TRI_TOL);
        for (k = 0; k < 4; ++k) seen[k] = 0;
        for (k = 0; k < 4; ++k) {
            int c = find_corner(corners, 4, m.points[k], 10 * TRI_TOL);
            ENSURE(c >= 0 && !seen[c]);
            seen[c] = 1;
            ENSURE_NEAR(m.depths[k], depth, 10 * TRI_TOL);
            ENSURE_NEAR(m.points[k].y, 0, 10 * TRI_TOL);
        }
    }
    s.position.y = (rg_real)0.5 + (rg_real)0.04;
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.03, &m) == 0);
    /* a level triangle 2e6 wide: its plane comes from world values, not from far corners turned
       into the cube's frame (each off by 1e6 epsilon, 0.06 in float) */
    set_triangle(t, v3(-1e6, 0, 1e6), v3(1e6, 0, 1e6), v3(0, 0, -1e6));
    s.position.y = (rg_real)0.49;
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.03, &m) == 4);
    for (k = 0; k < 4; ++k) ENSURE_NEAR(m.depths[k], 0.01, 10 * TRI_TOL);
    /* and turned about (1, 2, 3), its lowest corner 0.01 deep */
    s.orientation = rg_quat_from_axis_angle(v3(1, 2, 3), 0.7);
    {
        double lowest = 0;
        for (k = 0; k < 8; ++k) {
            rg_vec3 c = rg_quat_rotate(s.orientation, v3(k & 1 ? 0.5 : -0.5, k & 2 ? 0.5 : -0.5, k & 4 ? 0.5 : -0.5));
            if (c.y < lowest) lowest = c.y;
        }
        s.position.y = (rg_real)(-lowest - 0.01);
    }
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.03, &m) >= 1);
    ENSURE_NEAR(m.depths[0], 0.01, 10 * TRI_TOL);
    rg_test_note("4 corners at depth 0.01 and -0.02 (margin 0.03), also on a triangle 2e6 wide; 0.04 above: none");
    rg_hull_destroy(box);
}

/* Sizes far from 1: 300 unit cubes turned at random across the edge of a triangle 20 wide, and
   the same scaled by 1e6 (and 1e-3): the same count, normal and depths to 1e-4 of the scale. */
static void test_triangle_scaled(void) {
    double scales[2] = {1e6, 1e-3};
    int i, k, j, touching = 0;
    for (j = 0; j < 2; ++j) {
        double sc = scales[j];
        rg_hull *small = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL);
        rg_hull *big = rg_hull_create_box(v3(0.5 * sc, 0.5 * sc, 0.5 * sc), NULL);
        rg_vec3 t[3], big_t[3];
        ENSURE(small != NULL && big != NULL);
        set_triangle(t, v3(-10, 0, 0), v3(10, 0, 0), v3(0, 0, -10));
        set_triangle(big_t, v3(-10 * sc, 0, 0), v3(10 * sc, 0, 0), v3(0, 0, -10 * sc));
        rg_test_seed(14);
        for (i = 0; i < 300; ++i) {
            rg_quat q = rg_test_rotation();
            rg_vec3 p = random_point(0.6);
            rg_convex_shape a = test_hull_shape(small, p, q), b = test_hull_shape(big, rg_v3_scale(p, (rg_real)sc), q);
            rg_manifold m, n;
            int count = rg_collide_triangle(&a, t, 7, (rg_real)0.05, &m);
            ENSURE(rg_collide_triangle(&b, big_t, 7, (rg_real)(0.05 * sc), &n) == count);
            touching += count > 0;
            if (count == 0) continue;
            ENSURE_V3_NEAR(n.normal, m.normal, 1e-4);
            for (k = 0; k < count; ++k) ENSURE_NEAR(n.depths[k] / sc, m.depths[k], 1e-4);
        }
        rg_hull_destroy(small);
        rg_hull_destroy(big);
    }
    rg_test_note("%d of 600 touching, the same at 1e6 and 1e-3 times the size", touching);
}

/* One-sided hulls: a box whose centre is behind the plane gets nothing, though it overlaps the
   triangle by nearly half its size; the same box just in front of it gets its contact. */
static void test_triangle_box_back_side_gives_nothing(void) {
    rg_hull *box = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL);
    rg_vec3 t[3];
    rg_convex_shape s;
    rg_manifold m;
    ENSURE(box != NULL);
    set_triangle(t, v3(-10, 0, 10), v3(10, 0, 10), v3(0, 0, -10));
    s = test_hull_shape(box, v3(0, -0.01, 0), rg_quat_from_axis_angle(v3(1, 2, 3), (rg_real)0.5));
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.03, &m) == 0);
    s.position.y = (rg_real)0.01;
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.03, &m) > 0);
    ENSURE(m.normal.y > (rg_real)0.99);
    rg_hull_destroy(box);
}

/* A convex ridge (two faces 14 degrees each side of horizontal) with its edge active: a sphere
   and a box sitting on the ridge touch each triangle on the ridge with the vertical normal,
   which neither face has. */
static void test_triangle_convex_ridge_keeps_edge_normal(void) {
    rg_hull *box = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL);
    rg_vec3 left[3], right[3], up = v3(0, 1, 0);
    rg_convex_shape sphere = test_sphere_shape(v3(0, 0.4, 0.3), 0.5), cube;
    rg_manifold m;
    int side, i;
    ENSURE(box != NULL);
    cube = test_hull_shape(box, v3(0, 0.49, 0.3), rg_quat_identity());
    set_triangle(left, v3(-2, -0.5, 2), v3(0, 0, 2), v3(0, 0, -2));
    set_triangle(right, v3(0, 0, 2), v3(2, -0.5, 2), v3(0, 0, -2));
    for (side = 0; side < 2; ++side) {
        const rg_vec3 *t = side ? right : left;
        ENSURE(normal_angle(up, tri_normal(t)) > 0.2);
        ENSURE(rg_collide_triangle(&sphere, t, 7, (rg_real)0.01, &m) == 1);
        ENSURE_V3_NEAR(m.normal, up, 10 * TRI_TOL);
        ENSURE_NEAR(m.depths[0], 0.1, 10 * TRI_TOL);
        ENSURE(rg_collide_triangle(&cube, t, 7, (rg_real)0.01, &m) > 0);
        ENSURE_V3_NEAR(m.normal, up, 10 * TRI_TOL);
        for (i = 0; i < m.count; ++i) {
            ENSURE_NEAR(m.depths[i], 0.01, 10 * TRI_TOL);
            ENSURE_NEAR(m.points[i].x, 0, 10 * TRI_TOL);
        }
    }
    rg_hull_destroy(box);
}

/* ---- internal edges ------------------------------------------------------------------------- */

/* The square [-2, 2] x [-2, 2] (y = 0) as two triangles sharing the diagonal from (-2, 2) to
   (2, -2): in `first` it is edge 2, in `second` edge 0. */
static void seam_square(rg_vec3 first[3], rg_vec3 second[3]) {
    rg_vec3 p0 = v3(-2, 0, 2), p1 = v3(2, 0, 2), p2 = v3(2, 0, -2), p3 = v3(-2, 0, -2);
    set_triangle(first, p0, p1, p2);
    set_triangle(second, p0, p2, p3);
}

/* The largest angle from +y of the contacts' normals of both triangles, with `active` (bits for
   the first triangle; the second's are the same edges renumbered); counts the contacts seen. */
static double seam_worst_angle(const rg_convex_shape *s, int all_active, int *contacts, double *depth_spread,
                               double depth) {
    rg_vec3 first[3], second[3];
    unsigned active_first = all_active ? 7u : 3u, active_second = all_active ? 7u : 6u;
    rg_manifold m;
    double worst = 0;
    int side, i;
    seam_square(first, second);
    for (side = 0; side < 2; ++side) {
        rg_collide_triangle(s, side ? second : first, side ? active_second : active_first, (rg_real)0.02, &m);
        *contacts += m.count;
        for (i = 0; i < m.count; ++i) {
            double a = normal_angle(m.normal, dmake(0, 1, 0)), spread = fabs((double)m.depths[i] - depth);
            if (a > worst) worst = a;
            if (depth_spread && spread > *depth_spread) *depth_spread = spread;
        }
    }
    return worst;
}

/* A box slides across the seam, slightly penetrating (0.01 and 0.05), turned about y (0, 0.2,
   45 degrees, 1 rad) and tilted (0 and 1.7 degrees), in steps of 0.01 from x = -1.2 to 1.2 at
   z = 0.1 (it crosses the diagonal near x = -0.1): with the diagonal inactive every contact of
   either triangle has the face normal within 1e-4, and a flat box's every contact the depth it
   penetrates; with every edge active the side faces and edges of the box give normals far from
   it there (the snag the inactive edge removes). */
static void test_triangle_internal_edge_box_slides_across_seam(void) {
    rg_hull *box = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL);
    double yaws[4] = {0, 0.2, 0.78539816, 1.0}, tilts[2] = {0, 0.03}, pens[2] = {0.01, 0.05};
    double worst_inactive = 0, worst_active = 0, spread = 0;
    int y, ti, pi, step, contacts = 0, steps = 0, missing = 0;
    ENSURE(box != NULL);
    for (y = 0; y < 4; ++y)
        for (ti = 0; ti < 2; ++ti)
            for (pi = 0; pi < 2; ++pi) {
                rg_quat q = rg_quat_mul(rg_quat_from_axis_angle(v3(1, 0, 0), (rg_real)tilts[ti]),
                                        rg_quat_from_axis_angle(v3(0, 1, 0), (rg_real)yaws[y]));
                double lowest = 0;
                int k;
                for (k = 0; k < 8; ++k) {
                    rg_vec3 c = rg_quat_rotate(q, v3(k & 1 ? 0.5 : -0.5, k & 2 ? 0.5 : -0.5, k & 4 ? 0.5 : -0.5));
                    if (c.y < lowest) lowest = c.y;
                }
                for (step = 0; step <= 240; ++step) {
                    rg_convex_shape s = test_hull_shape(box, v3((-1.2 + 0.01 * step), (-lowest - pens[pi]), 0.1), q);
                    int before = contacts;
                    double a = seam_worst_angle(&s, 0, &contacts, ti == 0 ? &spread : NULL, pens[pi]);
                    if (a > worst_inactive) worst_inactive = a;
                    if (contacts == before) ++missing;
                    a = seam_worst_angle(&s, 1, &before, NULL, 0);
                    if (a > worst_active) worst_active = a;
                    ++steps;
                }
            }
    rg_test_note("%d poses, %d contacts: worst normal %.2e rad from +y and flat boxes' depths off by %.2e with the"
                 " seam inactive, %.3f rad with it active", steps, contacts, worst_inactive, spread, worst_active);
    ENSURE(missing == 0);
    ENSURE(worst_inactive <= 1e-4);
    ENSURE(spread <= 10 * TRI_TOL);
    ENSURE(worst_active > 0.1);
    rg_hull_destroy(box);
}

/* A sphere rolls across the seam 0.02 deep along three paths (one through the square's centre,
   where the seam's middle is, one near each end of it): with the seam inactive every contact
   of either triangle has the face normal and the depth 0.02 (no bump); all edges active, the
   second triangle's edge region tilts the normal (the bump). */
static void test_triangle_internal_edge_sphere_rolls_across_seam(void) {
    double worst_inactive = 0, worst_active = 0, spread = 0, offsets[3] = {0.1, 1.2, -1.2};
    int path, step, contacts = 0;
    for (path = 0; path < 3; ++path)
        for (step = 0; step <= 200; ++step) {
            double along = -1 + 0.01 * step;
            rg_convex_shape s = test_sphere_shape(v3((along + offsets[path] * 0.5), 0.48,
                                                   (offsets[path] * 0.5 - along * 0.3)), 0.5);
            int before = contacts;
            double a = seam_worst_angle(&s, 0, &contacts, &spread, 0.02);
            if (a > worst_inactive) worst_inactive = a;
            ENSURE(contacts > before);
            a = seam_worst_angle(&s, 1, &before, NULL, 0);
            if (a > worst_active) worst_active = a;
        }
    rg_test_note("%d contacts: worst normal %.2e rad and depth off by %.2e with the seam inactive, %.3f rad active",
                 contacts, worst_inactive, spread, worst_active);
    ENSURE(worst_inactive <= 1e-4);
    ENSURE(spread <= 10 * TRI_TOL);
    ENSURE(worst_active > 0.1);
}

/* A capsule across the seam, turned at six angles to it in the plane, lying (its lowest point
   0.02 deep) or tilted 0.3 rad (its lower end 0.02 deep), sliding along x: with the seam
   inactive every contact of either triangle has the face normal, depth 0.02 when lying and
   at most 0.02 when tilted, and the point on the capsule (point - depth normal) on its surface
   (to 0.13% of the radius where the segment's ends are measured along the face normal). */
static void test_triangle_internal_edge_capsule_across_seam(void) {
    rg_vec3 first[3], second[3];
    double worst = 0, spread = 0, deepest = 0, off_surface = 0, r = 0.5;
    int angle, tilt, step, side, k, contacts = 0;
    seam_square(first, second);
    for (tilt = 0; tilt < 2; ++tilt)
        for (angle = 0; angle < 6; ++angle)
            for (step = 0; step <= 100; ++step) {
                double c = cos(0.5 * angle), sn = sin(0.5 * angle), x = -0.8 + 0.016 * step;
                double rise = tilt ? 0.8 * sin(0.3) : 0;
                dvec a = dmake(x - 0.4 * c, r - 0.02, 0.1 - 0.4 * sn);
                dvec b = dmake(x + 0.4 * c, r - 0.02 + rise, 0.1 + 0.4 * sn);
                rg_convex_shape s = test_capsule_shape(rv(a), rv(b), r);
                int before = contacts;
                a = dv(s.center_a);
                b = dv(s.center_b);
                for (side = 0; side < 2; ++side) {
                    rg_manifold m;
                    rg_collide_triangle(&s, side ? second : first, side ? 6u : 3u, (rg_real)0.02, &m);
                    contacts += m.count;
                    for (k = 0; k < m.count; ++k) {
                        double angle_off = normal_angle(m.normal, dmake(0, 1, 0));
                        rg_vec3 on_a = rg_v3_madd(m.points[k], m.normal, -m.depths[k]);
                        double surface = fabs(distance_to_segment(on_a, a, b) - r);
                        if (angle_off > worst) worst = angle_off;
                        if (!tilt && fabs(m.depths[k] - 0.02) > spread) spread = fabs(m.depths[k] - 0.02);
                        if (m.depths[k] > deepest) deepest = m.depths[k];
                        if (surface > off_surface) off_surface = surface;
                    }
                }
                ENSURE(contacts > before);
            }
    rg_test_note("%d contacts: worst normal %.2e rad, lying depth off by %.2e, deepest %.6f (0.02),"
                 " off the surface by %.2e", contacts, worst, spread, deepest, off_surface);
    ENSURE(worst <= 1e-4);
    ENSURE(spread <= 10 * TRI_TOL);
    ENSURE(deepest <= 0.02 + 10 * TRI_TOL);
    ENSURE(off_surface <= 1.3e-3 * r + 10 * TRI_TOL);
}

/* ---- random shapes against random triangles (all edges active) ------------------------------- */

/* A random triangle with corners in [-s, s]^3, not thinner than a tenth of its longest edge. */
static void random_triangle(rg_vec3 t[3], double s) {
    for (;;) {
        int k;
        double longest = 0, area;
        for (k = 0; k < 3; ++k) t[k] = random_point(s);
        for (k = 0; k < 3; ++k) {
            double l = dlen(dsub(dv(t[(k + 1) % 3]), dv(t[k])));
            if (l > longest) longest = l;
        }
        area = dlen(dcross(dsub(dv(t[1]), dv(t[0])), dsub(dv(t[2]), dv(t[0]))));
        if (area > 0.1 * longest * longest) return;
    }
}

/* A random point over the triangle (barycentric coordinates in [-0.3, 1.3]) at height h. */
static dvec point_near_triangle(const rg_vec3 t[3], double h) {
    double u = rg_test_uniform(-0.3, 1.3), v = rg_test_uniform(-0.3, 1.3) * (1.3 - u);
    dvec a = dv(t[0]), p = dadd(a, dadd(dscale(dsub(dv(t[1]), a), u), dscale(dsub(dv(t[2]), a), v)));
    return dadd(p, dscale(tri_normal(t), h));
}


/* 20000 spheres: count 1 exactly when the centre is in front and within radius + margin of the
   triangle (brute-force distance), depth radius - distance, the point on the triangle and
   point - depth normal on the sphere; with every edge inactive the same count, the face normal
   and depth radius - height. Cases within 1e-4 of either boundary are left out. */
static void test_triangle_random_spheres_against_brute_force(void) {
    int i, checked = 0, touching = 0;
    double worst = 0;
    unsigned long long hash = 14695981039346656037ull;
    rg_test_seed(11);
    for (i = 0; i < 20000; ++i) {
        rg_vec3 t[3];
        rg_manifold m;
        rg_convex_shape s;
        double r = rg_test_uniform(0.05, 1), margin = 0.05, h, d;
        dvec c;
        int count;
        random_triangle(t, 1);
        c = point_near_triangle(t, rg_test_uniform(-0.5, 1.5));
        s = test_sphere_shape(rv(c), r);
        c = dv(s.center_a);
        h = ddot(tri_normal(t), dsub(c, dv(t[0])));
        d = triangle_distance(t, c);
        count = rg_collide_triangle(&s, t, 7, (rg_real)margin, &m);
        hash = hash_manifold(hash, &m);
        if (fabs(h) < 1e-4 || fabs(d - r - margin) < 1e-4) continue;
        ++checked;
        ENSURE(count == (h > 0 && d < r + margin ? 1 : 0));
        if (!count) continue;
        ++touching;
        ENSURE_NEAR(m.depths[0], r - d, 10 * TRI_TOL);
        ENSURE_NEAR(triangle_distance(t, dv(m.points[0])), 0, 10 * TRI_TOL);
        ENSURE_NEAR(dlen(dsub(dv(rg_v3_madd(m.points[0], m.normal, -m.depths[0])), c)), r, 10 * TRI_TOL);
        ENSURE(ddot(dv(m.normal), tri_normal(t)) > 0);
        if (fabs(m.depths[0] - (r - d)) > worst) worst = fabs(m.depths[0] - (r - d));
        /* every edge inactive: the face normal, depth r - h from the sphere's lowest point */
        ENSURE(rg_collide_triangle(&s, t, 0, (rg_real)margin, &m) == 1);
        ENSURE_V3_NEAR(m.normal, rv(tri_normal(t)), 10 * TRI_TOL);
        ENSURE_NEAR(m.depths[0], r - h, 10 * TRI_TOL);
        ENSURE_V3_NEAR(rg_v3_madd(m.points[0], m.normal, -m.depths[0]), rv(dsub(c, dscale(tri_normal(t), r))),
                       10 * TRI_TOL);
    }
    rg_test_note("%d spheres checked, %d touching: depth off by at most %.2e; results hash %016llx", checked, touching,
                 worst, hash);
}

/* 10000 capsules (a third nearly parallel to the face): nothing when the segment is further than
   radius + margin from the triangle (brute-force distance) or its midpoint behind the plane.
   With both ends in front and within the margin: a contact, points on the triangle, each moved
   by -depth normal onto the capsule's surface (to 0.13% of the radius along the face normal).
   One point with a normal of its own has depth radius - distance exactly; points measured along
   the face normal (a capsule lying on the face: the ends of its part over the triangle) are
   never deeper than that, and no more than 1% of the distance shallower (a lying capsule
   closest to an edge from just outside). */
static void test_triangle_random_capsules_against_brute_force(void) {
    int i, checked = 0, touching = 0, two = 0;
    double worst = 0, worst_along_face = 0;
    unsigned long long hash = 14695981039346656037ull;
    rg_test_seed(12);
    for (i = 0; i < 10000; ++i) {
        rg_vec3 t[3];
        rg_manifold m;
        rg_convex_shape s;
        double r = rg_test_uniform(0.05, 0.7), margin = 0.05, h0, h1, d, off;
        dvec n, a, b, axis = dv(rg_test_unit_vector());
        int count, k;
        random_triangle(t, 1);
        n = tri_normal(t);
        a = point_near_triangle(t, rg_test_uniform(-0.5, 1.2));
        if (i % 3 == 0) axis = dunit(dsub(axis, dscale(n, ddot(axis, n) * rg_test_uniform(0.95, 1.0))));
        b = dadd(a, dscale(axis, rg_test_uniform(0.1, 1.5)));
        s = test_capsule_shape(rv(a), rv(b), r);
        a = dv(s.center_a);
        b = dv(s.center_b);
        h0 = ddot(n, dsub(a, dv(t[0])));
        h1 = ddot(n, dsub(b, dv(t[0])));
        d = segment_triangle_distance(t, a, b);
        count = rg_collide_triangle(&s, t, 7, (rg_real)margin, &m);
        hash = hash_manifold(hash, &m);
        if (fabs(h0 + h1) < 1e-4 || fabs(d - r - margin) < 1e-4) continue;
        ++checked;
        if (h0 + h1 < 0 || d > r + margin) {
            ENSURE(count == 0);
            continue;
        }
        if (h0 < 1e-4 || h1 < 1e-4) continue;
        ENSURE(count >= 1 && count <= 2);
        ++touching;
        two += count == 2;
        ENSURE(ddot(dv(m.normal), n) > 0);
        off = (r - d) - m.depths[0];
        if (normal_angle(m.normal, n) > 1e-3) {
            ENSURE(count == 1);
            ENSURE_NEAR(off, 0, 10 * TRI_TOL);
            if (fabs(off) > worst) worst = fabs(off);
        } else {
            ENSURE(off >= -10 * TRI_TOL && off <= 0.01 * d + 10 * TRI_TOL);
            if (off > worst_along_face) worst_along_face = off;
        }
        for (k = 0; k < count; ++k) {
            ENSURE_NEAR(triangle_distance(t, dv(m.points[k])), 0, 10 * TRI_TOL);
            /* along the face normal an end moved by -r n lies r (1 - cos b) inside (b < 2.9 degrees) */
            ENSURE_NEAR(distance_to_segment(rg_v3_madd(m.points[k], m.normal, -m.depths[k]), a, b), r,
                        (normal_angle(m.normal, n) > 1e-3 ? 0 : 1.3e-3 * r) + 10 * TRI_TOL);
            ENSURE(m.depths[k] >= -margin - 10 * TRI_TOL);
        }
    }
    rg_test_note("%d capsules checked, %d touching (%d with 2 points): depth off by at most %.2e with a normal of its"
                 " own, at most %.2e shallower along the face normal; results hash %016llx", checked, touching, two,
                 worst, worst_along_face, hash);
}

/* A hull posed in the world, in double, from the public getters only. */
typedef struct posed {
    int vertex_count, face_count, edge_count;
    dvec v[64], n[128], e[192];
    double offset[128];
} posed;

static dvec rotate_d(rg_quat q, dvec v) {
    double l = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
    dvec u = dmake(q.x / l, q.y / l, q.z / l), t = dscale(dcross(u, v), 2);
    return dadd(dadd(v, dscale(t, q.w / l)), dcross(u, t));
}

static void pose(const rg_hull *h, rg_vec3 position, rg_quat q, posed *out) {
    int i, ev[2], idx[64];
    out->vertex_count = rg_hull_vertex_count(h);
    out->face_count = rg_hull_face_count(h);
    out->edge_count = rg_hull_edge_count(h);
    for (i = 0; i < out->vertex_count; ++i) out->v[i] = dadd(dv(position), rotate_d(q, dv(rg_hull_vertex(h, i))));
    for (i = 0; i < out->face_count; ++i) {
        rg_hull_face_vertices(h, i, idx, 64);
        out->n[i] = rotate_d(q, dv(rg_hull_face_normal(h, i)));
        out->offset[i] = ddot(out->n[i], out->v[idx[0]]);
    }
    for (i = 0; i < out->edge_count; ++i) {
        rg_hull_edge(h, i, ev, NULL);
        out->e[i] = dsub(out->v[ev[1]], out->v[ev[0]]);
    }
}

/* Signed distance of p from the posed hull: its largest face-plane distance. */
static double hull_plane_distance(const posed *h, dvec p) {
    double best = -1e300;
    int i;
    for (i = 0; i < h->face_count; ++i) {
        double d = ddot(h->n[i], p) - h->offset[i];
        if (d > best) best = d;
    }
    return best;
}

/* Brute-force separating axes of the hull and the triangle: the hull's face normals, the
   triangle's normal and every cross product of a hull edge with a triangle edge, each axis
   either way. Returns the largest separation; *front is 0 when an axis within `tol` of it
   pushes the hull (away from the triangle) along a direction less than 0.02 up the face normal. */
typedef struct sat_scan { double best, tol; int count; double sep[256]; double up[256]; } sat_scan;

static void sat_axis(sat_scan *scan, const posed *h, const rg_vec3 t[3], dvec n) {
    double hmin = 1e300, hmax = -1e300, tmin = 1e300, tmax = -1e300, s1, s2;
    dvec normal = tri_normal(t);
    int i;
    for (i = 0; i < h->vertex_count; ++i) {
        double d = ddot(n, h->v[i]);
        if (d < hmin) hmin = d;
        if (d > hmax) hmax = d;
    }
    for (i = 0; i < 3; ++i) {
        double d = ddot(n, dv(t[i]));
        if (d < tmin) tmin = d;
        if (d > tmax) tmax = d;
    }
    s1 = tmin - hmax; /* the hull below the triangle along n: pushed along -n */
    s2 = hmin - tmax; /* pushed along +n */
    if (scan->count < 256) {
        scan->sep[scan->count] = s1 > s2 ? s1 : s2;
        scan->up[scan->count++] = (s1 > s2 ? -1 : 1) * ddot(n, normal);
    }
    if (s1 > scan->best) scan->best = s1;
    if (s2 > scan->best) scan->best = s2;
}

static double brute_force_sat(const posed *h, const rg_vec3 t[3], double small, int *front) {
    sat_scan scan;
    int i, k;
    scan.best = -1e300;
    scan.count = 0;
    for (i = 0; i < h->face_count; ++i) sat_axis(&scan, h, t, h->n[i]);
    sat_axis(&scan, h, t, tri_normal(t));
    for (i = 0; i < h->edge_count; ++i)
        for (k = 0; k < 3; ++k) {
            dvec c = dcross(h->e[i], dsub(dv(t[(k + 1) % 3]), dv(t[k])));
            if (dlen(c) <= 1e-9 * dlen(h->e[i])) continue;
            sat_axis(&scan, h, t, dunit(c));
        }
    *front = 1;
    for (i = 0; i < scan.count; ++i)
        if (scan.sep[i] >= scan.best - (0.005 * fabs(scan.best) + 0.001 * small) - 1e-6 && scan.up[i] < 0.02)
            *front = 0;
    return scan.best;
}

/* A random convex hull of 5 to 16 points in an ellipsoid of random size, or NULL. */
static rg_hull *random_hull(void) {
    rg_vec3 p[16], size = rg_v3_add(random_point(0.4), v3(0.6, 0.6, 0.6));
    int i, n = 5 + (int)(rg_test_random() * 12);
    for (i = 0; i < n; ++i) {
        rg_vec3 u = rg_test_unit_vector();
        double r = 0.6 + 0.4 * rg_test_random();
        p[i] = v3((u.x * size.x * r), (u.y * size.y * r), (u.z * size.z * r));
    }
    return brute_force_hull(p, n);
}

/* 4000 random hulls (boxes among them) against random triangles of sizes 0.3 to 6, all edges
   active: separated by more than the margin (brute-force separating axes) <=> count 0, except
   where the best axes push the hull into the back half-space (dropped by the one-sided rule) or
   its centroid is behind the plane; when overlapping, the deepest depth is the minimum overlap
   within the axis preference (0.5% of it plus 0.1% of the smaller size); points on the triangle
   and, moved by -depth normal, on the hull. With every edge inactive, those touching still
   touch, with a front-facing normal and points on the hull. */
static void test_triangle_random_hulls_against_brute_force(void) {
    int i, checked = 0, touching = 0, separated = 0, dropped = 0, boxes = 0, face_normals = 0;
    double worst = 0;
    unsigned long long hash = 14695981039346656037ull;
    rg_test_seed(13);
    for (i = 0; i < 4000; ++i) {
        rg_vec3 t[3];
        rg_manifold m;
        rg_convex_shape s;
        rg_hull *h;
        posed ph;
        dvec n, centroid;
        double margin = 0.05, best, small, radius, tol, scale = i % 2 ? 3 : 0.3 + 2.7 * rg_test_random(), size = 0;
        int count, front, k;
        if (i % 5 == 0) {
            h = rg_hull_create_box(rg_v3_add(random_point(0.35), v3(0.45, 0.45, 0.45)), NULL);
            ++boxes;
        } else {
            h = random_hull();
        }
        if (!h) continue;
        random_triangle(t, scale);
        n = tri_normal(t);
        radius = 0;
        for (k = 0; k < rg_hull_vertex_count(h); ++k) {
            double l = dlen(dsub(dv(rg_hull_vertex(h, k)), dv(rg_hull_centroid(h))));
            if (l > radius) radius = l;
        }
        for (k = 0; k < 3; ++k) {
            double l = dlen(dsub(dv(t[(k + 1) % 3]), dv(t[k])));
            if (l > size) size = l;
        }
        {
            rg_quat q = rg_test_rotation();
            dvec c = point_near_triangle(t, radius * rg_test_uniform(-0.3, 1.2));
            /* place the hull's centroid at c */
            s = test_hull_shape(h, rv(dsub(c, rotate_d(q, dv(rg_hull_centroid(h))))), q);
        }
        pose(h, s.position, s.orientation, &ph);
        centroid = dadd(dv(s.position), rotate_d(s.orientation, dv(rg_hull_centroid(h))));
        small = radius < size ? radius : size;
        tol = 1e-4 * (radius + size);
        best = brute_force_sat(&ph, t, small, &front);
        count = rg_collide_triangle(&s, t, 7, (rg_real)margin, &m);
        hash = hash_manifold(hash, &m);
        if (fabs(ddot(n, dsub(centroid, dv(t[0])))) < tol || fabs(best - margin) < tol) {
            rg_hull_destroy(h);
            continue;
        }
        ++checked;
        if (ddot(n, dsub(centroid, dv(t[0]))) < 0 || best > margin) {
            separated += best > margin;
            ENSURE(count == 0);
            rg_hull_destroy(h);
            continue;
        }
        if (best < -tol && !front) {
            ++dropped;
        } else if (best < -tol) {
            double pref = 0.005 * -best + 0.001 * small;
            ENSURE(count > 0);
            ENSURE(m.depths[0] <= -best + pref + tol);
            ENSURE(m.depths[0] >= -best - pref - tol);
            if (fabs(m.depths[0] + best) > worst) worst = fabs(m.depths[0] + best);
        }
        if (count > 0) {
            rg_manifold inactive;
            int j;
            ++touching;
            /* every edge inactive: still a contact, its normal front-facing */
            ENSURE(rg_collide_triangle(&s, t, 0, (rg_real)margin, &inactive) > 0);
            ENSURE(ddot(dv(inactive.normal), n) > 0);
            face_normals += normal_angle(inactive.normal, n) <= 1e-5;
            for (j = 0; j < inactive.count; ++j)
                ENSURE_NEAR(hull_plane_distance(&ph, dv(rg_v3_madd(inactive.points[j], inactive.normal,
                                                                   -inactive.depths[j]))), 0, tol);
        }
        for (k = 0; k < count; ++k) {
            ENSURE(ddot(dv(m.normal), n) > 0);
            ENSURE_NEAR(triangle_distance(t, dv(m.points[k])), 0, tol);
            ENSURE_NEAR(hull_plane_distance(&ph, dv(rg_v3_madd(m.points[k], m.normal, -m.depths[k]))), 0, tol);
            ENSURE(m.depths[k] >= -margin - tol);
        }
        rg_hull_destroy(h);
    }
    rg_test_note("%d pairs checked (%d boxes): %d separated, %d touching, %d overlapping with back-facing best axes;"
                 " deepest depth off the minimum overlap by at most %.2e; every edge inactive, %d of the touching"
                 " take the face normal; results hash %016llx", checked, boxes, separated, touching, dropped, worst,
                 face_normals, hash);
}

/* ---- feature ids, big hulls, bad input ------------------------------------------------------- */

/* A box resting on a triangle keeps its four feature ids while it slides a little and turns a
   few milliradians; the ids of one manifold are distinct. */
static void test_triangle_feature_ids_are_stable(void) {
    rg_hull *box = rg_hull_create_box(v3(0.5, 0.3, 0.4), NULL);
    rg_vec3 t[3];
    rg_manifold first, m;
    rg_convex_shape s;
    int step, i, j;
    ENSURE(box != NULL);
    set_triangle(t, v3(-10, 0, 10), v3(10, 0, 10), v3(0, 0, -10));
    s = test_hull_shape(box, v3(0.2, 0.29, 0.1), rg_quat_from_axis_angle(v3(0, 1, 0), (rg_real)0.3));
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.02, &first) == 4);
    for (i = 0; i < 4; ++i)
        for (j = i + 1; j < 4; ++j) ENSURE(first.features[i] != first.features[j]);
    for (step = 1; step <= 20; ++step) {
        s.position = rg_v3_add(s.position, v3(0.01, 0, -0.005));
        s.orientation = rg_quat_mul(rg_quat_from_axis_angle(v3(0, 1, 0), (rg_real)0.002), s.orientation);
        ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.02, &m) == 4);
        for (i = 0; i < 4; ++i) {
            int found = 0;
            for (j = 0; j < 4; ++j) found += m.features[i] == first.features[j];
            ENSURE(found == 1);
        }
    }
    rg_hull_destroy(box);
}

/* A 48-gon prism (caps of 48 corners, beyond the clipping's stack) resting 0.01 deep on a big
   triangle: 4 of its cap's corners at depth 0.01 (the cap clipped to the triangle); a small
   triangle tilted 5 degrees to its bottom cap, pressed into its middle, the prism itself tilted
   10 degrees: the cap is the reference (the triangle clipped against its 48 sides) and the
   triangle's 3 corners the points, at their depths below the cap, normal minus the cap's. */
static void test_triangle_large_faces_use_scratch(void) {
    rg_hull *prism = test_prism_hull(48, 1.0, 0.5);
    rg_vec3 big[3], small[3];
    rg_quat tilt = rg_quat_from_axis_angle(v3(1, 0, 0), (rg_real)0.17453293);
    rg_vec3 down = rg_quat_rotate(tilt, v3(0, -1, 0));
    rg_convex_shape s;
    rg_manifold m;
    int i;
    ENSURE(prism != NULL);
    set_triangle(big, v3(-10, 0, 10), v3(10, 0, 10), v3(0, 0, -10));
    s = test_hull_shape(prism, v3(0.3, -0.01, 0.2), rg_quat_identity());
    ENSURE(rg_collide_triangle(&s, big, 7, (rg_real)0.02, &m) == 4);
    for (i = 0; i < 4; ++i) {
        ENSURE_NEAR(m.depths[i], 0.01, 10 * TRI_TOL);
        ENSURE_NEAR(dlen(dsub(dv(m.points[i]), dmake(0.3, 0, 0.2))), 1, 10 * TRI_TOL);
    }
    /* the small triangle 0.01 inside the cap at its centre, its corners rising 5 degrees along w */
    s = test_hull_shape(prism, v3(0, 0, 0), tilt);
    {
        dvec u = dunit(dcross(dv(down), dmake(1, 0, 0))), w = dcross(dv(down), u), c = dscale(dv(down), -0.01);
        dvec n = dscale(dv(down), -1), corner[3];
        double slope = tan(5 * 3.14159265358979324 / 180);
        corner[0] = dadd(c, dscale(u, 0.2));
        corner[1] = dadd(c, dadd(dscale(u, -0.1), dscale(w, 0.17)));
        corner[2] = dadd(c, dadd(dscale(u, -0.1), dscale(w, -0.17)));
        for (i = 0; i < 3; ++i) corner[i] = dadd(corner[i], dscale(n, -slope * ddot(dsub(corner[i], c), w)));
        set_triangle(small, rv(corner[0]), rv(corner[1]), rv(corner[2]));
        if (ddot(tri_normal(small), n) < 0) set_triangle(small, rv(corner[0]), rv(corner[2]), rv(corner[1]));
        ENSURE(rg_collide_triangle(&s, small, 7, (rg_real)0.02, &m) == 3);
        ENSURE_V3_NEAR(m.normal, rv(n), 10 * TRI_TOL);
        for (i = 0; i < 3; ++i) {
            int k, found = 0;
            for (k = 0; k < 3; ++k)
                if (dlen(dsub(dv(m.points[i]), dv(small[k]))) <= 10 * TRI_TOL) {
                    ENSURE_NEAR(m.depths[i], -ddot(dv(down), dv(small[k])), 10 * TRI_TOL);
                    ++found;
                }
            ENSURE(found == 1);
        }
    }
    rg_hull_destroy(prism);
}

/* Bad input gives 0 and a cleared manifold: NULL shape, triangle or out; a mesh or unknown
   type; a NULL hull; a radius <= 0, NaN or absurd; NaN or absurd centres and positions; a NaN
   orientation; a NaN or absurd corner; a degenerate triangle (two equal corners, collinear
   corners); an infinite margin. A NaN margin counts as 0; a sliver 1e-4 wide still collides. */
static void test_triangle_bad_input_gives_nothing(void) {
    rg_hull *box = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL);
    rg_vec3 t[3], bad[3];
    rg_convex_shape good = test_sphere_shape(v3(0.2, 0.4, -0.2), 0.5), s;
    rg_manifold m;
    rg_real inf = (rg_real)HUGE_VAL, nan = inf - inf;
    int k;
    ENSURE(box != NULL);
    set_triangle(t, v3(0, 0, 0), v3(2, 0, 0), v3(0, 0, -2));
    ENSURE(rg_collide_triangle(&good, t, 7, (rg_real)0.01, &m) == 1);
    ENSURE(rg_collide_triangle(&good, t, 7, nan, &m) == 1);
    ENSURE(rg_collide_triangle(&good, t, 7, (rg_real)0.01, NULL) == 0);
    memset(&m, 0x55, sizeof m);
    ENSURE(rg_collide_triangle(NULL, t, 7, (rg_real)0.01, &m) == 0 && m.count == 0);
    ENSURE(rg_collide_triangle(&good, NULL, 7, (rg_real)0.01, &m) == 0 && m.count == 0);
    ENSURE(rg_collide_triangle(&good, t, 7, inf, &m) == 0);
    s = good; s.type = RG_SHAPE_MESH;
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 0);
    s = good; s.type = (rg_shape_type)42;
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 0);
    s = good; s.radius = 0;
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 0);
    s = good; s.radius = -1;
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 0);
    s = good; s.radius = nan;
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 0);
    s = good; s.radius = (rg_real)1e16;
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 0);
    s = good; s.center_a.y = nan;
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 0);
    s = test_capsule_shape(v3(0.2, 0.4, -0.2), v3(0.5, 0.4, -0.2), 0.5);
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 2);
    s.center_b.x = inf;
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 0);
    s.center_b.x = (rg_real)-2e15;
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 0);
    s = test_hull_shape(box, v3(0.5, 0.49, -0.5), rg_quat_identity());
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) > 0);
    s.hull = NULL;
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 0);
    s.hull = box; s.position.x = nan;
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 0);
    s.position.x = (rg_real)1e16;
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 0);
    s.position.x = (rg_real)0.5; s.orientation.w = nan;
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.01, &m) == 0);
    for (k = 0; k < 3; ++k) {
        memcpy(bad, t, sizeof bad);
        bad[k].z = nan;
        ENSURE(rg_collide_triangle(&good, bad, 7, (rg_real)0.01, &m) == 0);
        bad[k].z = (rg_real)1e16;
        ENSURE(rg_collide_triangle(&good, bad, 7, (rg_real)0.01, &m) == 0);
        memcpy(bad, t, sizeof bad);
        bad[k] = bad[(k + 1) % 3];
        ENSURE(rg_collide_triangle(&good, bad, 7, (rg_real)0.01, &m) == 0);
    }
    set_triangle(bad, v3(0, 0, 0), v3(1, 0, -1), v3(2, 0, -2));
    ENSURE(rg_collide_triangle(&good, bad, 7, (rg_real)0.01, &m) == 0);
    /* a sliver 1e-4 of its length wide is a triangle */
    set_triangle(bad, v3(0, 0, 0), v3(2, 0, 0), v3(1, 0, -2e-4));
    s = test_sphere_shape(v3(1, 0.4, -1e-4), 0.5);
    ENSURE(rg_collide_triangle(&s, bad, 7, (rg_real)0.01, &m) == 1);
    ENSURE_NEAR(m.depths[0], 0.1, 10 * TRI_TOL);
    /* huge but sane: far apart, nothing, no overflow */
    set_triangle(bad, v3(-1e15, 0, 1e15), v3(1e15, 0, 1e15), v3(0, 0, -1e15));
    s = test_hull_shape(box, v3(0, 0.49, 0), rg_quat_identity());
    ENSURE(rg_collide_triangle(&s, bad, 7, (rg_real)0.01, &m) >= 0);
    s = test_sphere_shape(v3(-1e15, -1e15, -1e15), 1e15);
    ENSURE(rg_collide_triangle(&s, bad, 7, (rg_real)0.01, &m) == 0);
    rg_hull_destroy(box);
}

/* Found by tests/fuzz/fuzz_shapes.c: a triangle (-5e14, 1.375, 1.1875) (-5e14, -5e14, -5e14)
   (-5e14, -5e14, -0.015625) and a sphere of radius 2.5e14 centred in its plane at (-5e14,
   -0.15625, -5e14), 1.04e14 beyond its corner (all edges active): the closest point's region
   tests multiply two dot products (7e14 squared, squared again), which overflowed float to
   inf - inf; every test failed and the centre counted as over the face: a contact, normal -x.
   Now nothing. Then its shape at scales 1, 1e10 and 1e14, turned: the triangle s (0, 0, 0),
   (0, -1, -1), (0, -1, 0) (front -x) and spheres centred at s (-0.1, 0, -1), 0.714 s from its
   diagonal edge: of radius 0.5 s nothing, of radius 0.8 s depth 0.0859 s along
   (-0.1, 0.5, -0.5) / 0.714. */
static void test_triangle_huge_triangle_regions(void) {
    static const double scales[3] = {1, 1e10, 1e14};
    rg_vec3 t[3];
    rg_convex_shape s;
    rg_manifold m;
    int i;
    double apart = sqrt(0.51);
    set_triangle(t, v3(-4.99999993e+14, 1.375, 1.1875), v3(-4.99999993e+14, -4.99999993e+14, -4.99999993e+14),
                 v3(-4.99999993e+14, -4.99999993e+14, -0.015625));
    s = test_sphere_shape(v3(-4.99999993e+14, -0.15625, -4.99999993e+14), 2.49999997e+14);
    ENSURE(rg_collide_triangle(&s, t, 7, (rg_real)0.0009765625, &m) == 0);
    for (i = 0; i < 3; ++i) {
        double k = scales[i];
        rg_quat q = rg_quat_normalize(rg_quat_from_axis_angle(v3(0.3, -1, 0.6), 0.7));   /* no zero products */
        rg_vec3 c = rg_quat_rotate(q, v3(-0.1 * k, 0, -k));
        set_triangle(t, v3(0, 0, 0), rg_quat_rotate(q, v3(0, -k, -k)), rg_quat_rotate(q, v3(0, -k, 0)));
        s = test_sphere_shape(c, 0.5 * k);
        ENSURE(rg_collide_triangle(&s, t, 7, 0, &m) == 0);
        s = test_sphere_shape(c, 0.8 * k);
        ENSURE(rg_collide_triangle(&s, t, 7, 0, &m) == 1);
        ENSURE_NEAR(m.depths[0] / k, 0.8 - apart, 10 * TRI_TOL);
        ENSURE_V3_NEAR(m.normal, rg_quat_rotate(q, v3(-0.1 / apart, 0.5 / apart, -0.5 / apart)), 10 * TRI_TOL);
    }
}

void rg_tests_triangle(void) {
    RUN_TEST(test_triangle_sphere_regions);
    RUN_TEST(test_triangle_sphere_back_side);
    RUN_TEST(test_triangle_capsule_lying_gives_two_points);
    RUN_TEST(test_triangle_box_resting_gives_four_corners);
    RUN_TEST(test_triangle_scaled);
    RUN_TEST(test_triangle_box_back_side_gives_nothing);
    RUN_TEST(test_triangle_convex_ridge_keeps_edge_normal);
    RUN_TEST(test_triangle_internal_edge_box_slides_across_seam);
    RUN_TEST(test_triangle_internal_edge_sphere_rolls_across_seam);
    RUN_TEST(test_triangle_internal_edge_capsule_across_seam);
    RUN_TEST(test_triangle_random_spheres_against_brute_force);
    RUN_TEST(test_triangle_random_capsules_against_brute_force);
    RUN_TEST(test_triangle_random_hulls_against_brute_force);
    RUN_TEST(test_triangle_feature_ids_are_stable);
    RUN_TEST(test_triangle_large_faces_use_scratch);
    RUN_TEST(test_triangle_bad_input_gives_nothing);
    RUN_TEST(test_triangle_huge_triangle_regions);
}
