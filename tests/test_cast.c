/* Tests of the casts without a world (rg_ray_cast_*, rg_sphere_cast_*): rays and moving spheres
   against spheres, capsules, hulls, triangles and meshes, checked against analytic answers and
   brute-force computations written here in double (a ray against every face plane, every
   triangle of a mesh; a sphere's first touch by bisection on rg_collide_shapes and
   rg_collide_triangle). Errors are measured as distances along the cast relative to the shape's
   size. */
#include "test.h"
#include "tools/terrain.h"

#include <float.h>
#include <string.h>
#include <stdlib.h>

#ifdef RIGID_DOUBLE
#define CAST_TOL 1e-9
#else
#define CAST_TOL 2e-5
#endif

static rg_vec3 v3(double x, double y, double z) { return rg_v3((rg_real)x, (rg_real)y, (rg_real)z); }

/* ---- double-precision geometry, independent of rigid.h ------------------------------------ */

typedef struct dvec { double x, y, z; } dvec;
static dvec dv(rg_vec3 v) { dvec r; r.x = v.x; r.y = v.y; r.z = v.z; return r; }
static dvec dmake(double x, double y, double z) { dvec r; r.x = x; r.y = y; r.z = z; return r; }
static dvec dsub(dvec a, dvec b) { return dmake(a.x - b.x, a.y - b.y, a.z - b.z); }
static dvec dscale(dvec a, double s) { return dmake(a.x * s, a.y * s, a.z * s); }
static dvec dmadd(dvec a, dvec b, double s) { return dmake(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s); }
static dvec dadd3(dvec a, dvec b, dvec c) { return dmake(a.x + b.x + c.x, a.y + b.y + c.y, a.z + b.z + c.z); }
static double ddot(dvec a, dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static dvec dcross(dvec a, dvec b) {
    return dmake(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static double dlen(dvec a) { return sqrt(ddot(a, a)); }
static dvec dunit(dvec a) { return dscale(a, 1 / dlen(a)); }
static rg_vec3 rv(dvec v) { return v3(v.x, v.y, v.z); }
static double ddist(rg_vec3 a, dvec b) { return dlen(dsub(dv(a), b)); }

/* distance from p to segment a b */
static double dsegment_distance(dvec p, dvec a, dvec b) {
    dvec u = dsub(b, a);
    double uu = ddot(u, u), s = uu > 0 ? ddot(dsub(p, a), u) / uu : 0;
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    return dlen(dsub(p, dmadd(a, u, s)));
}

/* The first t in [0, 1] where |o + t d - segment| <= radius, by a scan of n steps then bisection;
   -1 when none (a path grazing within one step may be missed: callers aim through the shape). */
static double dfirst_within(dvec o, dvec d, dvec a, dvec b, double radius, int n) {
    double lo = 0, hi = -1;
    int i;
    if (dsegment_distance(o, a, b) <= radius) return 0;
    for (i = 1; i <= n; ++i) {
        double t = (double)i / n;
        if (dsegment_distance(dmadd(o, d, t), a, b) <= radius) {
            lo = (double)(i - 1) / n;
            hi = t;
            break;
        }
    }
    if (hi < 0) return -1;
    for (i = 0; i < 100; ++i) {
        double mid = 0.5 * (lo + hi);
        if (dsegment_distance(dmadd(o, d, mid), a, b) <= radius) hi = mid; else lo = mid;
    }
    return hi;
}

/* distance from p to triangle v: the plane's when p projects inside, else the nearest edge's */
static double dtriangle_distance(dvec p, const dvec v[3]) {
    dvec n = dunit(dcross(dsub(v[1], v[0]), dsub(v[2], v[0])));
    double best = 1e300, e;
    int k, inside = 1;
    for (k = 0; k < 3; ++k) {
        if (ddot(dcross(dsub(v[(k + 1) % 3], v[k]), n), dsub(p, v[k])) > 0) inside = 0;
        e = dsegment_distance(p, v[k], v[(k + 1) % 3]);
        if (e < best) best = e;
    }
    return inside ? fabs(ddot(n, dsub(p, v[0]))) : best;
}

/* Random inputs drawn in a fixed order (a function's arguments are evaluated in an order that
   differs between compilers): a point in a box, x then y then z; a point at a random distance in
   [lo, hi] from base, its direction first. */
static rg_vec3 random_box(double x0, double x1, double y0, double y1, double z0, double z1) {
    double x = rg_test_uniform(x0, x1), y = rg_test_uniform(y0, y1), z = rg_test_uniform(z0, z1);
    return v3(x, y, z);
}

static dvec random_offset(dvec base, double lo, double hi) {
    dvec u = dv(rg_test_unit_vector());
    return dmadd(base, u, rg_test_uniform(lo, hi));
}

static double dmax(double a, double b) { return a > b ? a : b; }
static double max_abs3(rg_vec3 v) { return dmax(fabs(v.x), dmax(fabs(v.y), fabs(v.z))); }

/* ---- rays against spheres and capsules ----------------------------------------------------- */

/* Rays aimed at random impact parameters b through a sphere of radius R: the analytic entry is
   at distance sqrt(|c - o|^2 - b^2) - sqrt(R^2 - b^2) along the ray (measured from the exact
   inputs in double). */
static void test_cast_ray_sphere(void) {
    double worst = 0, worst_normal = 0;
    int i, hits = 0;
    rg_test_seed(101);
    for (i = 0; i < 2000; ++i) {
        double radius = rg_test_uniform(0.1, 2), length;
        rg_vec3 centre = random_box(-5, 5, -5, 5, -5, 5);
        rg_vec3 from = rv(random_offset(dv(centre), radius * 1.05, radius * 4));
        rg_vec3 aim = rv(random_offset(dv(centre), 0, radius * 0.999));
        rg_vec3 translation;
        rg_convex_shape s = test_sphere_shape(centre, radius);
        rg_cast_output out;
        dvec o, d, c, closest;
        double along, b2, expected;
        length = rg_test_uniform(1.01, 3);
        translation = rv(dscale(dsub(dv(aim), dv(from)), length));
        o = dv(from); d = dv(translation); c = dv(centre);
        along = ddot(dsub(c, o), d) / ddot(d, d);
        closest = dmadd(o, d, along);
        b2 = ddot(dsub(closest, c), dsub(closest, c));
        expected = along - sqrt((radius * radius - b2) / ddot(d, d));
        ENSURE(rg_ray_cast_convex(&s, from, translation, &out));
        ++hits;
        worst = dmax(worst, fabs(out.fraction - expected) * dlen(d) / radius);
        ENSURE_NEAR(fabs(out.fraction - expected) * dlen(d) / radius, 0, CAST_TOL);
        ENSURE_NEAR(ddist(out.point, dmadd(o, d, out.fraction)), 0, CAST_TOL * radius * 10);
        worst_normal = dmax(worst_normal, dlen(dsub(dv(out.normal), dunit(dsub(dmadd(o, d, expected), c)))));
        ENSURE_NEAR(dlen(dsub(dv(out.normal), dunit(dsub(dmadd(o, d, expected), c)))), 0, 50 * CAST_TOL);
        ENSURE(rg_v3_dot(out.normal, translation) < 0);
    }
    rg_test_note("%d hits, largest fraction error %.3g of the radius, normal %.3g", hits, worst, worst_normal);
}

/* A capsule from (-1 0 0) to (1 0 0), radius 0.5: a ray down onto its body and one along x onto
   its cap, answered by hand; then random rays against a brute-force scan of the distance to the
   segment. */
static void test_cast_ray_capsule(void) {
    rg_convex_shape s = test_capsule_shape(v3(-1, 0, 0), v3(1, 0, 0), 0.5);
    rg_cast_output out;
    double y = sqrt(0.25 - 0.01), x = 1 + sqrt(0.25 - 0.04), worst = 0;
    int i, hits = 0;
    ENSURE(rg_ray_cast_convex(&s, v3(0.3, 2, 0.1), v3(0, -4, 0), &out));
    ENSURE_NEAR(out.fraction, (2 - y) / 4, 4 * RG_TEST_EPS);
    ENSURE_V3_NEAR(out.normal, v3(0, y / 0.5, 0.2), 8 * RG_TEST_EPS);
    ENSURE_V3_NEAR(out.point, v3(0.3, y, 0.1), 8 * RG_TEST_EPS);
    ENSURE(rg_ray_cast_convex(&s, v3(3, 0.2, 0), v3(-4, 0, 0), &out));
    ENSURE_NEAR(out.fraction, (3 - x) / 4, 4 * RG_TEST_EPS);
    ENSURE_V3_NEAR(out.normal, v3((x - 1) / 0.5, 0.4, 0), 8 * RG_TEST_EPS);
    /* along the axis onto the other cap */
    ENSURE(rg_ray_cast_convex(&s, v3(-4, 0, 0), v3(8, 0, 0), &out));
    ENSURE_NEAR(out.fraction, 2.5 / 8, 4 * RG_TEST_EPS);
    ENSURE_V3_NEAR(out.normal, v3(-1, 0, 0), 4 * RG_TEST_EPS);
    /* parallel to the axis, beside it (misses) and through the body's edge at 0.5 */
    ENSURE(!rg_ray_cast_convex(&s, v3(-4, 0.6, 0), v3(8, 0, 0), &out));
    ENSURE(rg_ray_cast_convex(&s, v3(-4, 0.3, 0), v3(8, 0, 0), &out));
    ENSURE_NEAR(out.fraction, (4 - 1 - 0.4) / 8, 4 * RG_TEST_EPS);
    rg_test_seed(102);
    for (i = 0; i < 1000; ++i) {
        double radius = rg_test_uniform(0.05, 1), expected;
        rg_vec3 a = random_box(-2, 2, -2, 2, -2, 2);
        rg_vec3 b = rv(random_offset(dv(a), 0, 3));
        rg_vec3 mid = rv(dmadd(dv(a), dsub(dv(b), dv(a)), rg_test_uniform(-0.2, 1.2)));
        rg_vec3 from = rv(random_offset(dv(mid), 2, 6));
        rg_vec3 aim = rv(random_offset(dv(mid), 0, radius));
        rg_vec3 translation = rv(dscale(dsub(dv(aim), dv(from)), 2));
        s = test_capsule_shape(a, b, radius);
        if (dsegment_distance(dv(from), dv(a), dv(b)) <= radius) continue;
        expected = dfirst_within(dv(from), dv(translation), dv(a), dv(b), radius, 4000);
        if (expected < 0) continue;
        ENSURE(rg_ray_cast_convex(&s, from, translation, &out));
        ++hits;
        worst = dmax(worst, fabs(out.fraction - expected) * dlen(dv(translation)) / radius);
        ENSURE_NEAR(fabs(out.fraction - expected) * dlen(dv(translation)) / radius, 0, 4 * CAST_TOL);
        ENSURE_NEAR(dsegment_distance(dv(out.point), dv(a), dv(b)), radius, 20 * CAST_TOL * radius + 1e-6);
    }
    rg_test_note("%d random hits, largest fraction error %.3g of the radius", hits, worst);
}

/* ---- rays against hulls -------------------------------------------------------------------- */

/* A box of half extents (1, 2, 3), turned and moved: a ray onto each face's random point along
   minus its normal from 5 away hits at 5 / |translation| with that face's normal. */
static void test_cast_ray_box_faces(void) {
    rg_hull *box = rg_hull_create_box(v3(1, 2, 3), NULL);
    double worst = 0;
    int i, k;
    ENSURE(box);
    rg_test_seed(103);
    for (i = 0; i < 200; ++i) {
        rg_quat q = rg_test_rotation();
        rg_vec3 position = random_box(-10, 10, -10, 10, -10, 10);
        rg_convex_shape s = test_hull_shape(box, position, q);
        for (k = 0; k < 6; ++k) {
            double half[3] = {1, 2, 3}, local[3], sign = k % 2 ? -1 : 1, length = rg_test_uniform(5.5, 20);
            int axis = k / 2, j;
            rg_vec3 n, on, from, translation;
            rg_cast_output out;
            for (j = 0; j < 3; ++j) local[j] = rg_test_uniform(-0.99, 0.99) * half[j];
            local[axis] = sign * half[axis];
            n = rg_quat_rotate(q, v3(axis == 0 ? sign : 0, axis == 1 ? sign : 0, axis == 2 ? sign : 0));
            on = rg_v3_add(position, rg_quat_rotate(q, v3(local[0], local[1], local[2])));
            from = rv(dmadd(dv(on), dv(n), 5));
            translation = rv(dscale(dv(n), -length));
            ENSURE(rg_ray_cast_convex(&s, from, translation, &out));
            worst = dmax(worst, fabs(out.fraction * length - 5));
            ENSURE_NEAR(out.fraction * length, 5, 10 * CAST_TOL);
            ENSURE_V3_NEAR(out.normal, n, 4 * RG_TEST_EPS);
            ENSURE_NEAR(ddist(out.point, dv(on)), 0, 10 * CAST_TOL * 10);
            /* the same ray from inside the box (a step past the face) does not hit */
            from = rv(dmadd(dv(on), dv(n), -0.01));
            ENSURE(!rg_ray_cast_convex(&s, from, translation, &out));
        }
    }
    rg_test_note("largest distance error %.3g (box 2 x 4 x 6)", worst);
    rg_hull_destroy(box);
}

/* Brute force: the ray against every face plane; the first crossing at t >= 0 entering through
   a plane, whose point lies behind every other plane (within tol), is the hit. */
static double brute_ray_hull(const rg_hull *h, dvec o, dvec d, dvec *normal) {
    int f, g, n = rg_hull_face_count(h), idx[64];
    double best = -1;
    for (f = 0; f < n; ++f) {
        dvec nf = dv(rg_hull_face_normal(h, f)), x;
        double off, along, t;
        int ok = 1;
        rg_hull_face_vertices(h, f, idx, 64);
        off = ddot(nf, dv(rg_hull_vertex(h, idx[0])));
        along = ddot(nf, d);
        if (!(along < 0)) continue;
        t = (off - ddot(nf, o)) / along;
        if (t < 0 || (best >= 0 && t >= best)) continue;
        x = dmadd(o, d, t);
        for (g = 0; g < n && ok; ++g) {
            dvec ng = dv(rg_hull_face_normal(h, g));
            rg_hull_face_vertices(h, g, idx, 64);
            if (g != f && ddot(ng, dsub(x, dv(rg_hull_vertex(h, idx[0])))) > 1e-9) ok = 0;
        }
        if (!ok) continue;
        best = t;
        *normal = nf;
    }
    return best;
}

static int inside_hull(const rg_hull *h, dvec p) {
    int g, idx[64];
    for (g = 0; g < rg_hull_face_count(h); ++g) {
        rg_hull_face_vertices(h, g, idx, 64);
        if (ddot(dv(rg_hull_face_normal(h, g)), dsub(p, dv(rg_hull_vertex(h, idx[0])))) > 0) return 0;
    }
    return 1;
}

/* Random hulls of 20 points at the origin unturned (so the brute force needs no pose) against
   rays from a sphere around them towards points near them. */
static void test_cast_ray_hull_brute_force(void) {
    double worst = 0;
    int i, j, hits = 0, misses = 0;
    rg_test_seed(104);
    for (i = 0; i < 50; ++i) {
        rg_vec3 points[20];
        rg_hull *h;
        rg_convex_shape s;
        for (j = 0; j < 20; ++j) points[j] = random_box(-1, 1, -1.5, 1.5, -0.7, 0.7);
        h = rg_hull_create(points, 20, NULL);
        ENSURE(h);
        s = test_hull_shape(h, v3(0, 0, 0), rg_quat_identity());
        for (j = 0; j < 100; ++j) {
            rg_vec3 from = rv(random_offset(dmake(0, 0, 0), 2.5, 5));
            rg_vec3 aim = random_box(-1.2, 1.2, -1.2, 1.2, -1.2, 1.2);
            rg_vec3 translation = rv(dscale(dsub(dv(aim), dv(from)), 1.5));
            rg_cast_output out;
            dvec normal = dmake(0, 0, 0);
            double expected = brute_ray_hull(h, dv(from), dv(translation), &normal);
            int touched = rg_ray_cast_convex(&s, from, translation, &out);
            if (expected > 1) expected = -1;
            ENSURE(touched == (expected >= 0));
            if (!touched) { ++misses; continue; }
            ++hits;
            worst = dmax(worst, fabs(out.fraction - expected) * dlen(dv(translation)));
            ENSURE_NEAR(out.fraction * dlen(dv(translation)), expected * dlen(dv(translation)), CAST_TOL * 10);
            ENSURE_NEAR(dlen(dsub(dv(out.normal), normal)), 0, 1e-4);
        }
        /* from inside: no hit */
        {
            rg_cast_output out;
            rg_vec3 centroid = rg_hull_centroid(h);
            ENSURE(inside_hull(h, dv(centroid)));
            ENSURE(!rg_ray_cast_convex(&s, centroid, v3(10, 1, 0.5), &out));
        }
        rg_hull_destroy(h);
    }
    rg_test_note("%d hits, %d misses agree; largest distance error %.3g (hulls about 2 wide)", hits, misses, worst);
}

/* ---- rays against triangles and meshes ----------------------------------------------------- */

static void test_cast_ray_triangle_sides(void) {
    rg_vec3 t[3];
    rg_cast_output out;
    t[0] = v3(0, 0, 0); t[1] = v3(0, 0, 1); t[2] = v3(1, 0, 0); /* counter-clockwise seen from +y */
    ENSURE(rg_ray_cast_triangle(t, v3(0.25, 2, 0.25), v3(0, -4, 0), &out));
    ENSURE_NEAR(out.fraction, 0.5, RG_TEST_EPS);
    ENSURE_V3_NEAR(out.normal, v3(0, 1, 0), RG_TEST_EPS);
    ENSURE_V3_NEAR(out.point, v3(0.25, 0, 0.25), RG_TEST_EPS);
    /* from behind: nothing */
    ENSURE(!rg_ray_cast_triangle(t, v3(0.25, -2, 0.25), v3(0, 4, 0), &out));
    /* beside it, short of it, along its plane */
    ENSURE(!rg_ray_cast_triangle(t, v3(0.75, 2, 0.75), v3(0, -4, 0), &out));
    ENSURE(!rg_ray_cast_triangle(t, v3(0.25, 2, 0.25), v3(0, -1.9, 0), &out));
    ENSURE(!rg_ray_cast_triangle(t, v3(-1, 0, 0.25), v3(4, 0, 0), &out));
    /* slanted, onto an edge and a corner (touching counts) */
    ENSURE(rg_ray_cast_triangle(t, v3(-1, 1, 0.5), v3(1, -1, 0), &out));
    ENSURE_NEAR(out.fraction, 1, RG_TEST_EPS);
    ENSURE(rg_ray_cast_triangle(t, v3(1, 3, 0), v3(0, -6, 0), &out));
    ENSURE_NEAR(out.fraction, 0.5, RG_TEST_EPS);
    /* a ray starting on the face and going down hits at 0; going up does not */
    ENSURE(rg_ray_cast_triangle(t, v3(0.25, 0, 0.25), v3(0, -1, 0), &out));
    ENSURE_NEAR(out.fraction, 0, 0);
    ENSURE(!rg_ray_cast_triangle(t, v3(0.25, 0, 0.25), v3(0, 1, 0), &out));
}

/* Möller & Trumbore 1997 in double, both sides reported with the sign of the determinant. */
static double dray_triangle(dvec o, dvec d, dvec a, dvec b, dvec c, int *front) {
    dvec e1 = dsub(b, a), e2 = dsub(c, a), p = dcross(d, e2), s, q;
    double det = ddot(e1, p), u, v, t;
    if (det == 0) return -1;
    s = dsub(o, a);
    u = ddot(s, p) / det;
    if (u < 0 || u > 1) return -1;
    q = dcross(s, e1);
    v = ddot(d, q) / det;
    if (v < 0 || u + v > 1) return -1;
    t = ddot(e2, q) / det;
    *front = ddot(dcross(e1, e2), d) < 0;
    return t;
}

/* 1000 random rays over a terrain of 2000 triangles of rolling hills against a loop over all
   triangles (Möller-Trumbore in double, front side): the same fraction, and the same triangle
   unless the two fractions agree (a ray through a shared edge). The mesh is placed turned and
   moved, the rays brought into its frame for the brute force. */
static void test_cast_ray_mesh_brute_force(void) {
    terrain land = terrain_make(2000, 11);
    rg_mesh *mesh = rg_mesh_create(land.vertices, land.vertex_count, land.indices, land.triangle_count, NULL);
    rg_quat q = rg_quat_from_axis_angle(v3(0.3, 1, -0.2), 0.7);
    rg_vec3 position = v3(3, -2, 5);
    double worst = 0;
    int i, hits = 0, same = 0, count;
    ENSURE(mesh);
    count = rg_mesh_triangle_count(mesh);
    rg_test_seed(105);
    for (i = 0; i < 1000; ++i) {
        rg_vec3 from_local = random_box(-18, 18, 2, 10, -18, 18);
        rg_vec3 to_local = random_box(-18, 18, -8, 0, -18, 18);
        rg_vec3 from = rg_v3_add(position, rg_quat_rotate(q, from_local));
        rg_vec3 translation = rg_quat_rotate(q, rg_v3_sub(to_local, from_local));
        dvec o = dv(rg_quat_rotate_inverse(q, rg_v3_sub(from, position)));
        dvec d = dv(rg_quat_rotate_inverse(q, translation));
        double best = -1;
        int t, best_t = -1, found, which = -1;
        rg_cast_output out;
        if (i % 4 == 0) translation = rg_quat_rotate(q, random_box(-1, 1, -10, -2, -1, 1));
        d = dv(rg_quat_rotate_inverse(q, translation));
        for (t = 0; t < count; ++t) {
            int idx[3], front = 0;
            double f;
            rg_mesh_triangle(mesh, t, idx);
            f = dray_triangle(o, d, dv(rg_mesh_vertex(mesh, idx[0])), dv(rg_mesh_vertex(mesh, idx[1])),
                              dv(rg_mesh_vertex(mesh, idx[2])), &front);
            if (front && f >= 0 && f <= 1 && (best < 0 || f < best)) {
                best = f;
                best_t = t;
            }
        }
        found = rg_ray_cast_mesh(mesh, position, q, from, translation, &out, &which);
        ENSURE(found == (best >= 0) || (best >= 0 && fabs(best - 1) * dlen(d) < 1e-4));
        if (!found) continue;
        ++hits;
        worst = dmax(worst, fabs(out.fraction - best) * dlen(d));
        ENSURE_NEAR(out.fraction * dlen(d), best * dlen(d), 1e-4);
        if (which == best_t) ++same;
        else ENSURE_NEAR(out.fraction * dlen(d), best * dlen(d), 1e-4);
        ENSURE_V3_NEAR(out.normal, rg_quat_rotate(q, rg_mesh_triangle_normal(mesh, which)), 4 * RG_TEST_EPS);
        ENSURE(rg_v3_dot(out.normal, translation) < 0);
    }
    rg_test_note("%d hits of 1000 (%d on the brute force's triangle), largest distance error %.3g (terrain 32 m wide, 3 m hills)",
                 hits, same, worst);
    rg_mesh_destroy(mesh);
    terrain_free(&land);
}

/* Bad input and the rules: a ray starting inside; zero, NaN, infinite and absurd values. */
static void test_cast_ray_bad_input(void) {
    rg_hull *box = rg_hull_create_box(v3(1, 1, 1), NULL);
    rg_convex_shape sphere = test_sphere_shape(v3(0, 0, 0), 1), hull = test_hull_shape(box, v3(0, 0, 0), rg_quat_identity());
    rg_vec3 t[3];
    rg_cast_output out;
    {
        rg_real nan = (rg_real)NAN, inf = (rg_real)INFINITY;
        t[0] = v3(0, 0, 0); t[1] = v3(0, 0, 1); t[2] = v3(1, 0, 0);
        ENSURE(!rg_ray_cast_convex(&sphere, v3(0, 0.5, 0), v3(0, 5, 0), &out));   /* inside */
        ENSURE(!rg_ray_cast_convex(&hull, v3(0, 0.5, 0), v3(0, 5, 0), &out));
        ENSURE(!rg_ray_cast_convex(&sphere, v3(0, 5, 0), v3(0, 0, 0), &out));     /* zero translation */
        ENSURE(!rg_ray_cast_convex(&hull, v3(0, 5, 0), v3(0, 0, 0), &out));
        ENSURE(!rg_ray_cast_triangle(t, v3(0.2, 1, 0.2), v3(0, 0, 0), &out));
        ENSURE(!rg_ray_cast_convex(&sphere, v3(nan, 5, 0), v3(0, -10, 0), &out));
        ENSURE(!rg_ray_cast_convex(&hull, v3(0, 5, 0), v3(0, nan, 0), &out));
        ENSURE(!rg_ray_cast_convex(&hull, v3(0, 5, 0), v3(0, -inf, 0), &out));
        ENSURE(!rg_ray_cast_convex(&hull, v3(0, 5, 0), v3(0, -1e16, 0), &out));
        ENSURE(!rg_ray_cast_triangle(t, v3(0.2, nan, 0.2), v3(0, -2, 0), &out));
        ENSURE(!rg_ray_cast_convex(NULL, v3(0, 5, 0), v3(0, -10, 0), &out));
        ENSURE(!rg_ray_cast_convex(&hull, v3(0, 5, 0), v3(0, -10, 0), NULL));
        ENSURE(!rg_ray_cast_triangle(NULL, v3(0.2, 1, 0.2), v3(0, -2, 0), &out));
        ENSURE(!rg_ray_cast_mesh(NULL, v3(0, 0, 0), rg_quat_identity(), v3(0, 5, 0), v3(0, -10, 0), &out, NULL));
        /* grazing a face of the box along its plane, and along its edge: a hit or not, never NaN */
        if (rg_ray_cast_convex(&hull, v3(-5, 1, 0), v3(10, 0, 0), &out)) ENSURE(rg_v3_is_finite(out.normal) && out.fraction >= 0);
        if (rg_ray_cast_convex(&hull, v3(-5, 1, 1), v3(10, 0, 0), &out)) ENSURE(rg_v3_is_finite(out.normal) && out.fraction >= 0);
        /* parallel beside a face: miss */
        ENSURE(!rg_ray_cast_convex(&hull, v3(-5, 1.001f, 0), v3(10, 0, 0), &out));
    }
    rg_hull_destroy(box);
}

/* The same casts at scales 1e-3 and 1e4, and 1e4 away from the origin: fractions within
   CAST_TOL of the analytic ones (everything scales). */
static void test_cast_ray_scales(void) {
    static const double scales[2] = {1e-3, 1e4};
    int i;
    for (i = 0; i < 2; ++i) {
        double k = scales[i], offset = i == 1 ? 1e4 : 0;
        rg_hull *box = rg_hull_create_box(v3(k, 2 * k, 3 * k), NULL);
        rg_convex_shape sphere = test_sphere_shape(v3(offset, 0, 0), 0.5 * k);
        rg_convex_shape capsule = test_capsule_shape(v3(offset - k, 0, 0), v3(offset + k, 0, 0), 0.5 * k);
        rg_convex_shape hull = test_hull_shape(box, v3(offset, 0, 0), rg_quat_from_axis_angle(v3(0, 1, 0), 0.5));
        rg_vec3 t[3];
        rg_cast_output out;
        ENSURE(box);
        ENSURE(rg_ray_cast_convex(&sphere, v3(offset + 0.3 * k, 3 * k, 0), v3(0, -4 * k, 0), &out));
        ENSURE_NEAR(out.fraction, (3 - 0.4) / 4, CAST_TOL);
        ENSURE(rg_ray_cast_convex(&capsule, v3(offset + 0.3 * k, 2 * k, 0.1 * k), v3(0, -4 * k, 0), &out));
        ENSURE_NEAR(out.fraction, (2 - sqrt(0.24)) / 4, CAST_TOL);
        ENSURE(rg_ray_cast_convex(&hull, v3(offset + 0.1 * k, 5 * k, 0.2 * k), v3(0, -10 * k, 0), &out));
        ENSURE_NEAR(out.fraction, 0.3, CAST_TOL);
        ENSURE_V3_NEAR(out.normal, v3(0, 1, 0), 4 * RG_TEST_EPS);
        t[0] = v3(offset, 0, 0); t[1] = v3(offset, 0, k); t[2] = v3(offset + k, 0, 0);
        ENSURE(rg_ray_cast_triangle(t, v3(offset + 0.25 * k, 2 * k, 0.25 * k), v3(0, -4 * k, 0), &out));
        ENSURE_NEAR(out.fraction, 0.5, CAST_TOL);
        rg_hull_destroy(box);
    }
}

static double flat(double x, double z, void *context) {
    (void)x; (void)z; (void)context;
    return 0;
}

/* Watertight: rays through every vertex, every edge's midpoint (the diagonals' too) and every
   cell's quarter points of a flat 12 x 12 grid, straight down and slanted, all hit at fraction
   0.5; rays from below hit nothing (back sides). */
static void test_cast_ray_mesh_watertight(void) {
    terrain grid = terrain_grid(12, 12, -6, -6, 1, flat, NULL);
    rg_mesh *mesh = rg_mesh_create(grid.vertices, grid.vertex_count, grid.indices, grid.triangle_count, NULL);
    int i, j, k, rays = 0;
    ENSURE(mesh);
    for (i = 0; i <= 48; ++i)
        for (j = 0; j <= 48; ++j)
            for (k = 0; k < 3; ++k) {
                double x = -6 + 0.25 * i, z = -6 + 0.25 * j;
                rg_vec3 d = k == 0 ? v3(0, -4, 0) : (k == 1 ? v3(1, -4, 0.5) : v3(-0.75, -4, -1.25));
                rg_vec3 from = v3(x - 0.5 * d.x, 2, z - 0.5 * d.z); /* exact: quarters and halves */
                rg_cast_output out;
                int which = -1;
                ENSURE(rg_ray_cast_mesh(mesh, v3(0, 0, 0), rg_quat_identity(), from, d, &out, &which));
                ENSURE_NEAR(out.fraction, 0.5, RG_TEST_EPS);
                ENSURE_V3_NEAR(out.normal, v3(0, 1, 0), RG_TEST_EPS);
                ENSURE(which >= 0 && which < rg_mesh_triangle_count(mesh));
                ENSURE(!rg_ray_cast_mesh(mesh, v3(0, 0, 0), rg_quat_identity(), v3(from.x, -2, from.z), v3(d.x, 4, d.z), &out, NULL));
                ++rays;
            }
    rg_test_note("%d rays through vertices, edges and faces hit", rays);
    /* bad poses */
    {
        rg_cast_output out;
        rg_real nan = (rg_real)NAN;
        rg_quat zero = {0, 0, 0, 0}, bad = {nan, 0, 0, 1};
        ENSURE(!rg_ray_cast_mesh(mesh, v3(nan, 0, 0), rg_quat_identity(), v3(0, 2, 0), v3(0, -4, 0), &out, NULL));
        ENSURE(!rg_ray_cast_mesh(mesh, v3(0, 0, 0), zero, v3(0, 2, 0), v3(0, -4, 0), &out, NULL));
        ENSURE(!rg_ray_cast_mesh(mesh, v3(0, 0, 0), bad, v3(0, 2, 0), v3(0, -4, 0), &out, NULL));
        ENSURE(!rg_sphere_cast_mesh(mesh, v3(0, 0, 0), rg_quat_identity(), v3(0, 2, 0), 0, v3(0, -4, 0), &out, NULL));
        ENSURE(!rg_ray_cast_mesh(mesh, v3(0, 0, 0), rg_quat_identity(), v3(0, 2, 0), v3(0, 0, 0), &out, NULL));
        ENSURE(!rg_ray_cast_mesh(mesh, v3(0, 0, 0), rg_quat_identity(), v3(0, 2, 0), v3(0, -1.9f, 0), &out, NULL));
        /* an unnormalised orientation is normalised */
        ENSURE(rg_ray_cast_mesh(mesh, v3(0, 1, 0), rg_quat_from_axis_angle(v3(1, 0, 0), 0), v3(0.3f, 3, 0.2f), v3(0, -4, 0), &out, NULL));
        ENSURE_NEAR(out.fraction, 0.5, RG_TEST_EPS);
    }
    rg_mesh_destroy(mesh);
    terrain_free(&grid);
}

/* Rays aimed exactly at a box's edges and corners, and along its faces and edges, from all
   around: a hit or not, and a hit is finite, on the box's surface, its normal a face's. */
static void test_cast_ray_grazing(void) {
    rg_hull *box = rg_hull_create_box(v3(1, 1, 1), NULL);
    rg_convex_shape s = test_hull_shape(box, v3(0, 0, 0), rg_quat_identity());
    int i, hits = 0, rays = 0;
    ENSURE(box);
    rg_test_seed(106);
    for (i = 0; i < 3000; ++i) {
        /* a point on an edge or a corner */
        double p[3];
        int k, free_axis = i % 4 < 3 ? i % 4 : -1;
        rg_vec3 target, from, d;
        rg_cast_output out;
        for (k = 0; k < 3; ++k) p[k] = rg_test_random() < 0.5 ? -1 : 1;
        if (free_axis >= 0) p[free_axis] = rg_test_uniform(-1, 1);
        target = v3(p[0], p[1], p[2]);
        from = rv(dmadd(dv(target), dv(rg_test_unit_vector()), 3));
        if (i % 5 == 0) { /* along a face's plane */
            from = target;
            if (free_axis < 0) free_axis = 0;
            k = (free_axis + 1) % 3;
            from = v3(k == 0 ? p[0] * 3 : p[0], k == 1 ? p[1] * 3 : p[1], k == 2 ? p[2] * 3 : p[2]);
        }
        d = rv(dscale(dsub(dv(target), dv(from)), 2));
        ++rays;
        if (!rg_ray_cast_convex(&s, from, d, &out)) continue;
        ++hits;
        ENSURE(rg_v3_is_finite(out.point) && rg_v3_is_finite(out.normal));
        ENSURE(out.fraction >= 0 && out.fraction <= 1);
        ENSURE_NEAR(max_abs3(out.point), 1, 8 * RG_TEST_EPS);
        ENSURE_NEAR(fabs(out.normal.x) + fabs(out.normal.y) + fabs(out.normal.z), 1, 4 * RG_TEST_EPS);
    }
    rg_test_note("%d of %d rays at edges, corners and along faces hit", hits, rays);
    rg_hull_destroy(box);
}

/* A sphere touching a face exactly (its centre at height r) hits at 0 whatever its direction; a
   sphere sliding along the face just clear of it does not; one cast at a face's edge along the
   face's plane touches the edge's capsule where the analytic answer puts it. */
static void test_cast_sphere_touching(void) {
    rg_hull *box = rg_hull_create_box(v3(1, 1, 1), NULL);
    rg_convex_shape s = test_hull_shape(box, v3(0, 0, 0), rg_quat_identity());
    rg_cast_output out;
    ENSURE(box);
    ENSURE(rg_sphere_cast_convex(&s, v3(0, 1.5f, 0), 0.5f, v3(3, 0, 0), &out));
    ENSURE_NEAR(out.fraction, 0, 0);
    ENSURE_V3_NEAR(out.normal, v3(0, 1, 0), RG_TEST_EPS);
    ENSURE(rg_sphere_cast_convex(&s, v3(0, 1.5f, 0), 0.5f, v3(0, 3, 0), &out));
    ENSURE_NEAR(out.fraction, 0, 0);
    ENSURE(!rg_sphere_cast_convex(&s, v3(0, 1.5f + 1e-3f, 0), 0.5f, v3(3, 0, 0), &out));
    /* from beside, at the height of the top face: the top edge's capsule (x = 1, y = 1) */
    ENSURE(rg_sphere_cast_convex(&s, v3(5, 1.25f, 0), 0.5f, v3(-4, 0, 0), &out));
    ENSURE_NEAR(out.fraction, (4 - sqrt(0.25 - 0.0625)) / 4, 4 * RG_TEST_EPS);
    ENSURE_V3_NEAR(out.point, v3(1, 1, 0), 4 * RG_TEST_EPS);
    ENSURE_V3_NEAR(out.normal, v3(sqrt(0.25 - 0.0625) / 0.5, 0.5, 0), 8 * RG_TEST_EPS);
    rg_hull_destroy(box);
}

/* ---- sphere casts ------------------------------------------------------------------------ */

/* Against spheres and capsules a sphere cast is a ray cast against them grown by its radius:
   random casts against the scan of the distance to the core with the radii summed; the point of
   touch lies on the shape, the normal along core -> centre. */
static void test_cast_sphere_round(void) {
    double worst = 0, worst_point = 0;
    int i, hits = 0;
    rg_test_seed(201);
    for (i = 0; i < 1000; ++i) {
        double radius = rg_test_uniform(0.05, 1), cast_radius = rg_test_uniform(0.01, 1), expected;
        rg_vec3 a = random_box(-2, 2, -2, 2, -2, 2);
        rg_vec3 b = i % 2 ? rv(random_offset(dv(a), 0, 3)) : a;
        rg_vec3 mid = rv(dmadd(dv(a), dsub(dv(b), dv(a)), rg_test_uniform(-0.2, 1.2)));
        rg_vec3 from = rv(random_offset(dv(mid), 3, 6));
        rg_vec3 aim = rv(random_offset(dv(mid), 0, radius + cast_radius));
        rg_vec3 translation = rv(dscale(dsub(dv(aim), dv(from)), 2));
        rg_convex_shape s = i % 2 ? test_capsule_shape(a, b, radius) : test_sphere_shape(a, radius);
        rg_cast_output out;
        dvec centre;
        if (dsegment_distance(dv(from), dv(a), dv(b)) <= radius + cast_radius) continue;
        expected = dfirst_within(dv(from), dv(translation), dv(a), dv(b), radius + cast_radius, 4000);
        if (expected < 0) continue;
        ENSURE(rg_sphere_cast_convex(&s, from, (rg_real)cast_radius, translation, &out));
        ++hits;
        worst = dmax(worst, fabs(out.fraction - expected) * dlen(dv(translation)) / (radius + cast_radius));
        ENSURE_NEAR(fabs(out.fraction - expected) * dlen(dv(translation)) / (radius + cast_radius), 0, 4 * CAST_TOL);
        centre = dmadd(dv(from), dv(translation), out.fraction);
        /* the point: on the shape, cast_radius from the centre, along the normal */
        worst_point = dmax(worst_point, fabs(dsegment_distance(dv(out.point), dv(a), dv(b)) - radius) / radius);
        ENSURE_NEAR(dsegment_distance(dv(out.point), dv(a), dv(b)), radius, 20 * CAST_TOL * (radius + 1));
        ENSURE_NEAR(dlen(dsub(dmadd(dv(out.point), dv(out.normal), cast_radius), centre)), 0, 20 * CAST_TOL * (radius + 1));
        ENSURE(rg_v3_dot(out.normal, translation) < 0);
    }
    rg_test_note("%d hits, largest fraction error %.3g of the radii, point off the surface %.3g of the radius", hits, worst, worst_point);
}

/* A unit box (half extents 1), turned and moved, and a sphere of radius 0.5 cast at its face
   ((0.2 5 0.3) down: the centre stops at y = 1.5), its edge ((3 3 0.2) along -(1 1 0): stops
   r / sqrt 2 from the edge x = y = 1) and its corner ((3 3 3) along -(1 1 1): r / sqrt 3 from the
   corner per axis), in the box's frame. */
static void test_cast_sphere_box_features(void) {
    rg_hull *box = rg_hull_create_box(v3(1, 1, 1), NULL);
    double r = 0.5, worst = 0;
    int i, k;
    ENSURE(box);
    rg_test_seed(202);
    for (i = 0; i < 100; ++i) {
        rg_quat q = i == 0 ? rg_quat_identity() : rg_test_rotation();
        rg_vec3 position = i == 0 ? v3(0, 0, 0) : random_box(-10, 10, -10, 10, -10, 10);
        rg_convex_shape s = test_hull_shape(box, position, q);
        for (k = 0; k < 3; ++k) {
            static const double from[3][3] = {{0.2, 5, 0.3}, {3, 3, 0.2}, {3, 3, 3}};
            static const double move[3][3] = {{0, -10, 0}, {-4, -4, 0}, {-4, -4, -4}};
            static const double point[3][3] = {{0.2, 1, 0.3}, {1, 1, 0.2}, {1, 1, 1}};
            double s_stop = k == 0 ? 3.5 : (k == 1 ? 2 - r / sqrt(2.0) : 2 - r / sqrt(3.0));
            double expected = k == 0 ? 0.35 : s_stop / 4;
            rg_vec3 normal = k == 0 ? v3(0, 1, 0) : (k == 1 ? v3(1 / sqrt(2.0), 1 / sqrt(2.0), 0) : v3(1 / sqrt(3.0), 1 / sqrt(3.0), 1 / sqrt(3.0)));
            rg_vec3 o = rg_v3_add(position, rg_quat_rotate(q, v3(from[k][0], from[k][1], from[k][2])));
            rg_vec3 d = rg_quat_rotate(q, v3(move[k][0], move[k][1], move[k][2]));
            rg_vec3 p = rg_v3_add(position, rg_quat_rotate(q, v3(point[k][0], point[k][1], point[k][2])));
            rg_cast_output out;
            ENSURE(rg_sphere_cast_convex(&s, o, (rg_real)r, d, &out));
            worst = dmax(worst, fabs(out.fraction - expected) * dlen(dv(d)));
            ENSURE_NEAR(out.fraction * dlen(dv(d)), expected * dlen(dv(d)), 10 * CAST_TOL);
            ENSURE_V3_NEAR(out.normal, rg_quat_rotate(q, normal), 20 * CAST_TOL);
            ENSURE_NEAR(ddist(out.point, dv(p)), 0, 50 * CAST_TOL);
        }
    }
    rg_test_note("largest distance error %.3g (box 2 wide, sphere radius 0.5)", worst);
    rg_hull_destroy(box);
}

/* The first t in [0, 1] where `overlaps` holds, by a scan of n steps then bisection; -1 if none. */
typedef int (*overlap_test)(const void *context, rg_vec3 centre);
static double first_overlap(overlap_test overlaps, const void *context, dvec o, dvec d, int n) {
    double lo = 0, hi = -1;
    int i;
    for (i = 1; i <= n; ++i) {
        if (overlaps(context, rv(dmadd(o, d, (double)i / n)))) {
            lo = (double)(i - 1) / n;
            hi = (double)i / n;
            break;
        }
    }
    if (hi < 0) return -1;
    for (i = 0; i < 60; ++i) {
        double mid = 0.5 * (lo + hi);
        if (overlaps(context, rv(dmadd(o, d, mid)))) hi = mid; else lo = mid;
    }
    return 0.5 * (lo + hi);
}

typedef struct sphere_against { const rg_convex_shape *shape; const rg_vec3 *triangle; double radius; } sphere_against;

/* rg_collide_shapes or rg_collide_triangle at margin 0: a point deeper than 0. */
static int sphere_overlaps(const void *context, rg_vec3 centre) {
    const sphere_against *c = (const sphere_against *)context;
    rg_convex_shape sphere = test_sphere_shape(centre, c->radius);
    rg_manifold m;
    int count = c->shape ? rg_collide_shapes(&sphere, c->shape, 0, &m) : rg_collide_triangle(&sphere, c->triangle, 7u, 0, &m);
    return count > 0 && m.depths[0] > 0;
}

/* Random hulls, turned and moved, and spheres cast at points inside them from all around, some
   passing close by: the fraction against the bisection on rg_collide_shapes' overlap, the touch
   point on the hull's surface, the normal the hull's at it. */
static void test_cast_sphere_hull_brute_force(void) {
    double worst = 0, worst_point = 0;
    int i, j, hits = 0, misses = 0, grazes = 0;
    rg_test_seed(203);
    for (i = 0; i < 40; ++i) {
        rg_vec3 points[16], position = random_box(-5, 5, -5, 5, -5, 5);
        rg_quat q = rg_test_rotation();
        rg_hull *h;
        rg_convex_shape s;
        for (j = 0; j < 16; ++j) points[j] = random_box(-1, 1, -1, 1, -0.6, 0.6);
        h = rg_hull_create(points, 16, NULL);
        ENSURE(h);
        s = test_hull_shape(h, position, q);
        for (j = 0; j < 50; ++j) {
            double radius = rg_test_uniform(0.02, 0.8), expected;
            rg_vec3 aim = rg_v3_add(position, rg_quat_rotate(q, random_box(-1.3, 1.3, -1.3, 1.3, -1, 1)));
            rg_vec3 from = rv(random_offset(dv(position), 3, 5));
            rg_vec3 translation = rv(dscale(dsub(dv(aim), dv(from)), 1.5));
            sphere_against context;
            rg_cast_output out;
            int touched;
            context.shape = &s;
            context.triangle = NULL;
            context.radius = radius;
            expected = first_overlap(sphere_overlaps, &context, dv(from), dv(translation), 2000);
            touched = rg_sphere_cast_convex(&s, from, (rg_real)radius, translation, &out);
            if (!touched || expected < 0) {
                /* only a graze within the scan's step may disagree */
                if (touched != (expected >= 0)) {
                    rg_cast_output deeper;
                    ++grazes;
                    ENSURE(!rg_sphere_cast_convex(&s, from, (rg_real)(radius * 0.999), translation, &deeper) ||
                           !sphere_overlaps(&context, rv(dmadd(dv(from), dv(translation), out.fraction + 0.002))));
                }
                ++misses;
                continue;
            }
            ++hits;
            worst = dmax(worst, fabs(out.fraction - expected) * dlen(dv(translation)));
            ENSURE_NEAR(out.fraction * dlen(dv(translation)), expected * dlen(dv(translation)), 2 * CAST_TOL + 1e-6);
            /* the point lies on the hull's surface, radius from the centre along the normal */
            {
                dvec centre = dmadd(dv(from), dv(translation), out.fraction);
                double off = dlen(dsub(dmadd(dv(out.point), dv(out.normal), radius), centre));
                worst_point = dmax(worst_point, off);
                ENSURE_NEAR(off, 0, 20 * CAST_TOL + 1e-6);
                ENSURE(rg_v3_dot(out.normal, translation) <= 0);
            }
        }
        rg_hull_destroy(h);
    }
    rg_test_note("%d hits, %d misses (%d grazes only one saw); largest distance error %.3g, point off the touching sphere %.3g "
                 "(hulls about 2 wide)", hits, misses, grazes, worst, worst_point);
}

/* Random triangles and spheres cast at them from the front, aimed up to a radius beyond their
   edges (edges and corners touched), against the bisection on rg_collide_triangle's overlap (all
   edges active, so its normal is the true one). */
static void test_cast_sphere_triangle_brute_force(void) {
    double worst = 0;
    int i, hits = 0, misses = 0, grazes = 0;
    rg_test_seed(204);
    for (i = 0; i < 2000; ++i) {
        rg_vec3 t[3], n, from, aim, translation;
        double radius = rg_test_uniform(0.02, 0.6), expected, w0 = rg_test_uniform(-0.3, 1), w1 = rg_test_uniform(-0.3, 1), lift;
        sphere_against context;
        rg_cast_output out;
        int touched;
        t[0] = random_box(-1, 1, -1, 1, -1, 1);
        t[1] = random_box(-1, 1, -1, 1, -1, 1);
        t[2] = random_box(-1, 1, -1, 1, -1, 1);
        n = rv(dunit(dcross(dsub(dv(t[1]), dv(t[0])), dsub(dv(t[2]), dv(t[0])))));
        aim = rv(dadd3(dv(t[0]), dscale(dsub(dv(t[1]), dv(t[0])), w0), dscale(dsub(dv(t[2]), dv(t[0])), w1 * (1 - (w0 > 0 ? w0 : 0)))));
        lift = rg_test_uniform(1, 3);
        from = rv(random_offset(dmadd(dv(aim), dv(n), lift), 1, 1));
        if (ddot(dsub(dv(from), dv(t[0])), dv(n)) <= 2 * radius) continue;
        translation = rv(dscale(dsub(dv(aim), dv(from)), 1.5));
        context.shape = NULL;
        context.triangle = t;
        context.radius = radius;
        expected = first_overlap(sphere_overlaps, &context, dv(from), dv(translation), 2000);
        touched = rg_sphere_cast_triangle(t, from, (rg_real)radius, translation, &out);
        if (!touched || expected < 0) {
            if (touched != (expected >= 0)) ++grazes;
            if (touched != (expected >= 0))
                ENSURE(!sphere_overlaps(&context, rv(dmadd(dv(from), dv(translation), out.fraction + 0.002))));
            ++misses;
            continue;
        }
        ++hits;
        worst = dmax(worst, fabs(out.fraction - expected) * dlen(dv(translation)));
        ENSURE_NEAR(out.fraction * dlen(dv(translation)), expected * dlen(dv(translation)), 2 * CAST_TOL + 1e-6);
        ENSURE(rg_v3_dot(out.normal, n) >= 0);
    }
    rg_test_note("%d hits, %d misses (%d grazes only one saw); largest distance error %.3g (triangles about 2 wide)", hits,
                 misses, grazes, worst);
}

/* Sphere casts on the terrain against a loop of rg_sphere_cast_triangle over all its triangles
   (the hierarchy's walk against none). */
static void test_cast_sphere_mesh_brute_force(void) {
    terrain land = terrain_make(800, 12);
    rg_mesh *mesh = rg_mesh_create(land.vertices, land.vertex_count, land.indices, land.triangle_count, NULL);
    rg_quat q = rg_quat_from_axis_angle(v3(-0.3, 1, 0.1), 2.1);
    rg_vec3 position = v3(-1, 4, 2);
    double worst = 0, worst_gap = 0;
    int i, hits = 0, count, apart = 0, other = 0;
    ENSURE(mesh);
    count = rg_mesh_triangle_count(mesh);
    rg_test_seed(205);
    for (i = 0; i < 500; ++i) {
        double radius = rg_test_uniform(0.05, 2), best = -1;
        rg_vec3 from = rg_v3_add(position, rg_quat_rotate(q, random_box(-12, 12, 4, 10, -12, 12)));
        rg_vec3 to = rg_v3_add(position, rg_quat_rotate(q, random_box(-12, 12, -6, 0, -12, 12)));
        rg_vec3 translation = rg_v3_sub(to, from);
        rg_cast_output out, one;
        int t, which = -1, best_t = -1, found;
        for (t = 0; t < count; ++t) {
            int idx[3], k;
            rg_vec3 corners[3];
            rg_mesh_triangle(mesh, t, idx);
            for (k = 0; k < 3; ++k) corners[k] = rg_v3_add(position, rg_quat_rotate(q, rg_mesh_vertex(mesh, idx[k])));
            if (rg_sphere_cast_triangle(corners, from, (rg_real)radius, translation, &one) && (best < 0 || one.fraction < best)) {
                best = one.fraction;
                best_t = t;
            }
        }
        found = rg_sphere_cast_mesh(mesh, position, q, from, (rg_real)radius, translation, &out, &which);
        ENSURE(found == (best >= 0));
        if (!found) continue;
        ++hits;
        worst = dmax(worst, fabs(out.fraction - best) * dlen(dv(translation)));
        /* a sphere grazing an edge or a face enters at an ill-conditioned fraction: the world
           and mesh frames' rounding may move it; the gap at either fraction must be nil */
        {
            int idx[3], k;
            dvec corners[3], c_mesh = dmadd(dv(from), dv(translation), out.fraction), c_loop = dmadd(dv(from), dv(translation), best);
            double gap;
            rg_mesh_triangle(mesh, which, idx);
            for (k = 0; k < 3; ++k) corners[k] = dv(rg_v3_add(position, rg_quat_rotate(q, rg_mesh_vertex(mesh, idx[k]))));
            gap = fabs(dtriangle_distance(c_mesh, corners) - radius);
            rg_mesh_triangle(mesh, best_t, idx);
            for (k = 0; k < 3; ++k) corners[k] = dv(rg_v3_add(position, rg_quat_rotate(q, rg_mesh_vertex(mesh, idx[k]))));
            gap = dmax(gap, fabs(dtriangle_distance(c_loop, corners) - radius));
            worst_gap = dmax(worst_gap, gap);
            ENSURE_NEAR(gap, 0, 10 * CAST_TOL);
            if (fabs(out.fraction - best) * dlen(dv(translation)) > 10 * CAST_TOL) ++apart;
        }
        if (which != best_t) ++other;
    }
    rg_test_note("%d hits of 500 (%d on another triangle touched as soon), largest distance difference %.3g (%d beyond %.3g: "
                 "grazing), the sphere's gap to its triangle at either fraction %.3g",
                 hits, other, worst, apart, 10 * CAST_TOL, worst_gap);
    rg_mesh_destroy(mesh);
    terrain_free(&land);
}

/* The rules: a sphere starting overlapping hits at fraction 0 with the closest surface point and
   its normal, whatever its direction; a centre inside a hull takes the face it is least deep
   behind; behind a triangle nothing; a zero translation, NaN, radius <= 0: nothing. */
static void test_cast_sphere_starting_inside(void) {
    rg_hull *box = rg_hull_create_box(v3(1, 2, 3), NULL);
    rg_convex_shape hull = test_hull_shape(box, v3(0, 0, 0), rg_quat_identity());
    rg_convex_shape sphere = test_sphere_shape(v3(0, 0, 0), 1);
    rg_convex_shape capsule = test_capsule_shape(v3(-1, 0, 0), v3(1, 0, 0), 0.5);
    rg_vec3 t[3];
    rg_cast_output out;
    rg_real nan = (rg_real)NAN;
    ENSURE(box);
    /* 0.3 above the top face (y = 2), radius 0.5, moving up or sideways */
    ENSURE(rg_sphere_cast_convex(&hull, v3(0.2, 2.3, 0.1), 0.5f, v3(0, 5, 0), &out));
    ENSURE_NEAR(out.fraction, 0, 0);
    ENSURE_V3_NEAR(out.normal, v3(0, 1, 0), RG_TEST_EPS);
    ENSURE_V3_NEAR(out.point, v3(0.2, 2, 0.1), 4 * RG_TEST_EPS);
    ENSURE(rg_sphere_cast_convex(&hull, v3(0.2, 2.3, 0.1), 0.5f, v3(5, 0, 0), &out));
    ENSURE_NEAR(out.fraction, 0, 0);
    /* beyond an edge: the edge's point and the direction from it */
    ENSURE(rg_sphere_cast_convex(&hull, v3(1.2, 2.2, 0.5), 0.5f, v3(5, 0, 0), &out));
    ENSURE_NEAR(out.fraction, 0, 0);
    ENSURE_V3_NEAR(out.point, v3(1, 2, 0.5), 4 * RG_TEST_EPS);
    ENSURE_V3_NEAR(out.normal, v3(sqrt(0.5), sqrt(0.5), 0), 4 * RG_TEST_EPS);
    /* centre inside, 0.1 from the x face (least deep): that face */
    ENSURE(rg_sphere_cast_convex(&hull, v3(0.9, 0.5, 0.5), 0.5f, v3(0, 0, 5), &out));
    ENSURE_NEAR(out.fraction, 0, 0);
    ENSURE_V3_NEAR(out.normal, v3(1, 0, 0), RG_TEST_EPS);
    ENSURE_V3_NEAR(out.point, v3(1, 0.5, 0.5), 4 * RG_TEST_EPS);
    /* round shapes */
    ENSURE(rg_sphere_cast_convex(&sphere, v3(0, 1.2, 0), 0.5f, v3(0, 5, 0), &out));
    ENSURE_NEAR(out.fraction, 0, 0);
    ENSURE_V3_NEAR(out.normal, v3(0, 1, 0), RG_TEST_EPS);
    ENSURE_V3_NEAR(out.point, v3(0, 1, 0), 4 * RG_TEST_EPS);
    ENSURE(rg_sphere_cast_convex(&capsule, v3(0.5, -0.7, 0), 0.5f, v3(1, 0, 0), &out));
    ENSURE_NEAR(out.fraction, 0, 0);
    ENSURE_V3_NEAR(out.normal, v3(0, -1, 0), RG_TEST_EPS);
    /* just apart: a real fraction */
    ENSURE(rg_sphere_cast_convex(&hull, v3(0.2, 2.6, 0.1), 0.5f, v3(0, -1, 0), &out));
    ENSURE_NEAR(out.fraction, 0.1, 4 * RG_TEST_EPS);
    ENSURE(!rg_sphere_cast_convex(&hull, v3(0.2, 2.6, 0.1), 0.5f, v3(0, 1, 0), &out));
    /* triangle: overlapping from the front hits at 0, from behind nothing, even moving through it */
    t[0] = v3(0, 0, 0); t[1] = v3(0, 0, 1); t[2] = v3(1, 0, 0);
    ENSURE(rg_sphere_cast_triangle(t, v3(0.2, 0.3, 0.2), 0.5f, v3(0, 1, 0), &out));
    ENSURE_NEAR(out.fraction, 0, 0);
    ENSURE_V3_NEAR(out.normal, v3(0, 1, 0), RG_TEST_EPS);
    ENSURE_V3_NEAR(out.point, v3(0.2, 0, 0.2), 4 * RG_TEST_EPS);
    ENSURE(!rg_sphere_cast_triangle(t, v3(0.2, -0.3, 0.2), 0.5f, v3(0, 1, 0), &out));
    ENSURE(!rg_sphere_cast_triangle(t, v3(0.2, -2, 0.2), 0.5f, v3(0, 4, 0), &out));
    ENSURE(rg_sphere_cast_triangle(t, v3(0.2, 2, 0.2), 0.5f, v3(0, -4, 0), &out));
    ENSURE_NEAR(out.fraction, 1.5 / 4, 4 * RG_TEST_EPS);
    /* zero translation (overlapping or not), NaN, radius <= 0, NULL */
    ENSURE(!rg_sphere_cast_convex(&hull, v3(0.2, 2.3, 0.1), 0.5f, v3(0, 0, 0), &out));
    ENSURE(!rg_sphere_cast_convex(&hull, v3(0.2, 5, 0.1), 0.5f, v3(0, 0, 0), &out));
    ENSURE(!rg_sphere_cast_triangle(t, v3(0.2, 0.3, 0.2), 0.5f, v3(0, 0, 0), &out));
    ENSURE(!rg_sphere_cast_convex(&hull, v3(0.2, 5, 0.1), nan, v3(0, -10, 0), &out));
    ENSURE(!rg_sphere_cast_convex(&hull, v3(0.2, 5, 0.1), 0, v3(0, -10, 0), &out));
    ENSURE(!rg_sphere_cast_convex(&hull, v3(0.2, 5, 0.1), -1, v3(0, -10, 0), &out));
    ENSURE(!rg_sphere_cast_convex(&hull, v3(0.2, nan, 0.1), 0.5f, v3(0, -10, 0), &out));
    ENSURE(!rg_sphere_cast_convex(&sphere, v3(0, 5, 0), 0.5f, v3(nan, -10, 0), &out));
    ENSURE(!rg_sphere_cast_triangle(t, v3(0.2, 2, 0.2), 0.5f, v3(0, nan, 0), &out));
    ENSURE(!rg_sphere_cast_convex(NULL, v3(0, 5, 0), 0.5f, v3(0, -10, 0), &out));
    ENSURE(!rg_sphere_cast_mesh(NULL, v3(0, 0, 0), rg_quat_identity(), v3(0, 5, 0), 0.5f, v3(0, -10, 0), &out, NULL));
    ENSURE(out.fraction == 0 && out.normal.x == 0 && out.normal.y == 0 && out.normal.z == 0);
    rg_hull_destroy(box);
}

/* Sphere casts at a box's face, edge and corner at scales 1e-3 and 1e4 (1e4 from the origin):
   the fractions of test_cast_sphere_box_features within CAST_TOL. */
static void test_cast_sphere_scales(void) {
    static const double scales[2] = {1e-3, 1e4};
    int i, k;
    for (i = 0; i < 2; ++i) {
        double s = scales[i], offset = i == 1 ? 1e4 : 0, r = 0.5;
        rg_hull *box = rg_hull_create_box(v3(s, s, s), NULL);
        rg_convex_shape hull = test_hull_shape(box, v3(offset, 0, 0), rg_quat_identity());
        rg_convex_shape sphere = test_sphere_shape(v3(offset, 0, 0), s);
        rg_vec3 t[3];
        rg_cast_output out;
        ENSURE(box);
        for (k = 0; k < 3; ++k) {
            static const double from[3][3] = {{0.2, 5, 0.3}, {3, 3, 0.2}, {3, 3, 3}};
            static const double move[3][3] = {{0, -10, 0}, {-4, -4, 0}, {-4, -4, -4}};
            double expected = k == 0 ? 0.35 : (k == 1 ? (2 - r / sqrt(2.0)) / 4 : (2 - r / sqrt(3.0)) / 4);
            ENSURE(rg_sphere_cast_convex(&hull, v3(offset + s * from[k][0], s * from[k][1], s * from[k][2]), (rg_real)(r * s),
                                         v3(s * move[k][0], s * move[k][1], s * move[k][2]), &out));
            ENSURE_NEAR(out.fraction, expected, CAST_TOL);
        }
        ENSURE(rg_sphere_cast_convex(&sphere, v3(offset + 0.3 * s, 3 * s, 0), (rg_real)(0.5 * s), v3(0, -4 * s, 0), &out));
        ENSURE_NEAR(out.fraction, (3 - sqrt(2.25 - 0.09)) / 4, CAST_TOL);
        t[0] = v3(offset, 0, 0); t[1] = v3(offset, 0, s); t[2] = v3(offset + s, 0, 0);
        ENSURE(rg_sphere_cast_triangle(t, v3(offset + 0.25 * s, 2 * s, 0.25 * s), (rg_real)(0.5 * s), v3(0, -4 * s, 0), &out));
        ENSURE_NEAR(out.fraction, 1.5 / 4, CAST_TOL);
        rg_hull_destroy(box);
    }
}

void rg_tests_cast(void) {
    RUN_TEST(test_cast_ray_sphere);
    RUN_TEST(test_cast_ray_capsule);
    RUN_TEST(test_cast_ray_box_faces);
    RUN_TEST(test_cast_ray_hull_brute_force);
    RUN_TEST(test_cast_ray_triangle_sides);
    RUN_TEST(test_cast_ray_mesh_brute_force);
    RUN_TEST(test_cast_ray_bad_input);
    RUN_TEST(test_cast_ray_scales);
    RUN_TEST(test_cast_ray_mesh_watertight);
    RUN_TEST(test_cast_ray_grazing);
    RUN_TEST(test_cast_sphere_touching);
    RUN_TEST(test_cast_sphere_round);
    RUN_TEST(test_cast_sphere_box_features);
    RUN_TEST(test_cast_sphere_hull_brute_force);
    RUN_TEST(test_cast_sphere_triangle_brute_force);
    RUN_TEST(test_cast_sphere_mesh_brute_force);
    RUN_TEST(test_cast_sphere_starting_inside);
    RUN_TEST(test_cast_sphere_scales);
}
