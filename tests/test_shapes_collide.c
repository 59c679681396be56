/* Tests of rg_collide_shapes: spheres, capsules and hulls in every pair, against analytic answers
   and an independent brute-force distance computed in double from the public getters. */
#include "test.h"

#include <string.h>

#ifdef RIGID_DOUBLE
#define SHAPES_TOL 1e-9
#else
#define SHAPES_TOL 2e-5
#endif

/* ---- shapes ----------------------------------------------------------------------------------- */

static rg_convex_shape moved_shape(rg_convex_shape s, rg_vec3 by) {
    s.position = rg_v3_add(s.position, by);
    s.center_a = rg_v3_add(s.center_a, by);
    s.center_b = rg_v3_add(s.center_b, by);
    return s;
}

/* ---- brute force in double -------------------------------------------------------------------- */

typedef struct dvec { double x, y, z; } dvec;

static dvec dv(double x, double y, double z) { dvec v; v.x = x; v.y = y; v.z = z; return v; }
static dvec dv_of(rg_vec3 v) { return dv(v.x, v.y, v.z); }
static dvec dv_sub(dvec a, dvec b) { return dv(a.x - b.x, a.y - b.y, a.z - b.z); }
static dvec dv_madd(dvec a, dvec b, double s) { return dv(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s); }
static double dv_dot(dvec a, dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static dvec dv_cross(dvec a, dvec b) {
    return dv(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static double dv_length(dvec a) { return sqrt(dv_dot(a, a)); }

/* q v q*, in double, q normalised first */
static dvec dv_rotate(rg_quat q, dvec v) {
    double l = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
    dvec u = dv(q.x / l, q.y / l, q.z / l), t = dv_cross(u, v);
    double w = q.w / l;
    t = dv(2 * t.x, 2 * t.y, 2 * t.z);
    return dv_madd(dv_madd(v, t, w), dv_cross(u, t), 1);
}

#define MAX_V 64
#define MAX_F 128

typedef struct posed {           /* a hull in the world, in double */
    int vertex_count, face_count, face_size[MAX_F], face[MAX_F][MAX_V];
    dvec v[MAX_V], n[MAX_F];
    double offset[MAX_F];
} posed;

static void pose(const rg_convex_shape *s, posed *p) {
    int i, k;
    p->vertex_count = rg_hull_vertex_count(s->hull);
    p->face_count = rg_hull_face_count(s->hull);
    for (i = 0; i < p->vertex_count; ++i)
        p->v[i] = dv_madd(dv_of(s->position), dv_rotate(s->orientation, dv_of(rg_hull_vertex(s->hull, i))), 1);
    for (i = 0; i < p->face_count; ++i) {
        p->face_size[i] = rg_hull_face_vertices(s->hull, i, p->face[i], MAX_V);
        p->n[i] = dv_rotate(s->orientation, dv_of(rg_hull_face_normal(s->hull, i)));
        p->offset[i] = 0;
        for (k = 0; k < p->face_size[i]; ++k) p->offset[i] += dv_dot(p->n[i], p->v[p->face[i][k]]) / p->face_size[i];
    }
}

static double point_segment_distance(dvec p, dvec a, dvec b) {
    dvec d = dv_sub(b, a);
    double dd = dv_dot(d, d), t = dd > 0 ? dv_dot(dv_sub(p, a), d) / dd : 0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    return dv_length(dv_sub(p, dv_madd(a, d, t)));
}

/* Signed distance of p from the hull's surface: negative inside (minus the distance to the
   nearest face plane), else the least distance to a face polygon (projection or its edges). */
static double hull_signed_distance(const posed *h, dvec p) {
    int f, k, inside = 1;
    double best = -1e300, outside = 1e300;
    for (f = 0; f < h->face_count; ++f) {
        double height = dv_dot(h->n[f], p) - h->offset[f], d;
        dvec q = dv_madd(p, h->n[f], -height);
        int in_polygon = 1;
        if (height > 0) inside = 0;
        if (height > best) best = height;
        for (k = 0; k < h->face_size[f]; ++k) {
            dvec a = h->v[h->face[f][k]], b = h->v[h->face[f][(k + 1) % h->face_size[f]]];
            if (dv_dot(dv_cross(dv_sub(b, a), dv_sub(q, a)), h->n[f]) < 0) in_polygon = 0;
        }
        if (in_polygon) d = fabs(height);
        else {
            d = 1e300;
            for (k = 0; k < h->face_size[f]; ++k) {
                double e = point_segment_distance(p, h->v[h->face[f][k]], h->v[h->face[f][(k + 1) % h->face_size[f]]]);
                if (e < d) d = e;
            }
        }
        if (d < outside) outside = d;
    }
    return inside ? best : outside;
}

/* The minimum over t in [0, 1] of a convex function of the point a + t (b - a): golden section. */
typedef double (*point_function)(const void *context, dvec p);
static double segment_minimum(point_function f, const void *context, dvec a, dvec b) {
    const double g = 0.6180339887498949;
    dvec d = dv_sub(b, a);
    double lo = 0, hi = 1, x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = f(context, dv_madd(a, d, x1)), f2 = f(context, dv_madd(a, d, x2)), best;
    int i;
    for (i = 0; i < 120; ++i) {
        if (f1 < f2) { hi = x2; x2 = x1; f2 = f1; x1 = hi - g * (hi - lo); f1 = f(context, dv_madd(a, d, x1)); }
        else { lo = x1; x1 = x2; f1 = f2; x2 = lo + g * (hi - lo); f2 = f(context, dv_madd(a, d, x2)); }
    }
    best = f1 < f2 ? f1 : f2;
    f1 = f(context, a);
    f2 = f(context, b);
    if (f1 < best) best = f1;
    if (f2 < best) best = f2;
    return best;
}

typedef struct segment_context { dvec a, b; } segment_context;
static double to_segment(const void *context, dvec p) {
    const segment_context *s = (const segment_context *)context;
    return point_segment_distance(p, s->a, s->b);
}
static double to_hull(const void *context, dvec p) { return hull_signed_distance((const posed *)context, p); }

/* Signed distance of a point from a shape's surface. */
static double shape_signed_distance(const rg_convex_shape *s, const posed *h, dvec p) {
    if (s->type == RG_SHAPE_HULL) return hull_signed_distance(h, p);
    return point_segment_distance(p, dv_of(s->center_a), dv_of(s->center_b)) - s->radius;
}

/* Distance between the cores of round a and shape b (the hull itself, signed: negative when a's
   segment enters it, by its deepest point). */
static double core_distance(const rg_convex_shape *a, const rg_convex_shape *b, const posed *hb) {
    dvec a0 = dv_of(a->center_a), a1 = dv_of(a->center_b);
    if (b->type == RG_SHAPE_HULL) return segment_minimum(to_hull, hb, a0, a1);
    {
        segment_context s;
        s.a = dv_of(b->center_a);
        s.b = dv_of(b->center_b);
        return segment_minimum(to_segment, &s, a0, a1);
    }
}

static double shape_radius(const rg_convex_shape *s) { return s->type == RG_SHAPE_HULL ? 0 : s->radius; }

/* Gap between the shapes' surfaces (negative: overlap as far as the cores' distance tells; a
   core inside a hull gives minus the radius minus its deepest point's depth, a lower bound). */
static double shape_gap(const rg_convex_shape *a, const rg_convex_shape *b) {
    posed h;
    if (a->type == RG_SHAPE_HULL) {
        pose(a, &h);
        return core_distance(b, a, &h) - shape_radius(b);
    }
    if (b->type == RG_SHAPE_HULL) pose(b, &h);
    return core_distance(a, b, &h) - shape_radius(a) - shape_radius(b);
}

/* ---- checks of a manifold against the brute force -------------------------------------------- */

typedef struct errors {
    double depth, moved, moved_inside, on_b, on_a, normal;
    int pairs, touching, separated, two_points, inside, count_wrong;
} errors;

static double larger(double a, double b) { return a > b ? a : b; }

/* Checks m = collide(a, b): count 0 exactly when the gap exceeds the margin (outside a band of
   band * size around it); the deepest depth against minus the gap when the cores are apart; a
   moved by the depth along the normal just touches b; the points lie on b and, moved back by
   their depth, on a. Records the largest errors, divided by the pair's size. */
static void check_manifold(const rg_convex_shape *a, const rg_convex_shape *b, rg_real margin, const rg_manifold *m,
                           double size, double band, errors *e) {
    double gap = shape_gap(a, b), core = gap + shape_radius(a) + shape_radius(b);
    posed ha, hb;
    int i;
    ++e->pairs;
    if (a->type == RG_SHAPE_HULL) pose(a, &ha);
    if (b->type == RG_SHAPE_HULL) pose(b, &hb);
    if (gap > margin + band * size && m->count != 0) ++e->count_wrong;
    if (gap < margin - band * size && m->count == 0) ++e->count_wrong;
    if (m->count == 0) {
        ++e->separated;
        return;
    }
    ++e->touching;
    if (m->count == 2) ++e->two_points;
    e->normal = larger(e->normal, fabs(rg_v3_length(m->normal) - 1));
    if (core > 1e-3 * size) e->depth = larger(e->depth, fabs(m->depths[0] + gap) / size);
    else ++e->inside;
    {
        rg_convex_shape moved = moved_shape(*a, rg_v3_scale(m->normal, m->depths[0]));
        double error = fabs(shape_gap(&moved, b)) / size;
        if (core > 1e-3 * size) e->moved = larger(e->moved, error);
        else e->moved_inside = larger(e->moved_inside, error);
    }
    for (i = 0; i < m->count; ++i) {
        dvec p = dv_of(m->points[i]), on_a = dv_madd(p, dv_of(m->normal), -m->depths[i]);
        e->on_b = larger(e->on_b, fabs(shape_signed_distance(b, &hb, p)) / size);
        e->on_a = larger(e->on_a, fabs(shape_signed_distance(a, &ha, on_a)) / size);
    }
}

/* Are m = collide(a, b) and s = collide(b, a) the same manifold flipped: opposite normals, the
   same depths, s's points m's moved onto a (any order), and, when same_ids, the same ids in the
   same order? */
static int flipped(const rg_manifold *m, const rg_manifold *s, double tol, int same_ids) {
    int i, j;
    if (m->count != s->count) return 0;
    if (m->count == 0) return 1;
    if (rg_v3_length(rg_v3_add(m->normal, s->normal)) > tol) return 0;
    for (i = 0; i < m->count; ++i) {
        rg_vec3 on_a = rg_v3_madd(m->points[i], m->normal, -m->depths[i]);
        for (j = 0; j < s->count; ++j)
            if (rg_v3_length(rg_v3_sub(on_a, s->points[j])) <= tol && fabs((double)(m->depths[i] - s->depths[j])) <= tol &&
                (!same_ids || (i == j && m->features[i] == s->features[j])))
                break;
        if (j == s->count) return 0;
    }
    return 1;
}

/* ---- random draws ----------------------------------------------------------------------------- */

static double log_uniform(double lo, double hi) { return lo * pow(hi / lo, rg_test_random()); }

/* a random direction, then a length uniform in [lo, hi] */
static rg_vec3 random_offset(double lo, double hi) {
    rg_vec3 u = rg_test_unit_vector();
    return rg_v3_scale(u, (rg_real)rg_test_uniform(lo, hi));
}

/* three draws in order (a function's arguments are evaluated in no fixed order) */
static rg_vec3 draw3(double (*draw)(double, double), double lo, double hi) {
    double x = draw(lo, hi), y = draw(lo, hi), z = draw(lo, hi);
    return rg_v3((rg_real)x, (rg_real)y, (rg_real)z);
}

/* ---- analytic cases --------------------------------------------------------------------------- */

static void test_shapes_collide_sphere_sphere(void) {
    rg_convex_shape a = test_sphere_shape(rg_v3(0, 1.2, 0), 1), b = test_sphere_shape(rg_v3(0, 0, 0), 0.5);
    rg_manifold m;
    ENSURE(rg_collide_shapes(&a, &b, 0, &m) == 1);
    ENSURE_V3_NEAR(m.normal, rg_v3(0, 1, 0), SHAPES_TOL);
    ENSURE_V3_NEAR(m.points[0], rg_v3(0, 0.5, 0), SHAPES_TOL);
    ENSURE_NEAR(m.depths[0], 0.3, SHAPES_TOL);
    /* a gap of 0.1: a speculative point within a margin of 0.2, nothing within 0.05 */
    a.center_a = a.center_b = rg_v3(0, 0, 1.6);
    ENSURE(rg_collide_shapes(&a, &b, 0.2, &m) == 1);
    ENSURE_V3_NEAR(m.normal, rg_v3(0, 0, 1), SHAPES_TOL);
    ENSURE_NEAR(m.depths[0], -0.1, SHAPES_TOL);
    ENSURE(rg_collide_shapes(&a, &b, 0.05, &m) == 0);
    /* concentric: some unit normal, depth the sum of the radii */
    a.center_a = a.center_b = b.center_a;
    ENSURE(rg_collide_shapes(&a, &b, 0, &m) == 1);
    ENSURE_NEAR(rg_v3_length(m.normal), 1, SHAPES_TOL);
    ENSURE_NEAR(m.depths[0], 1.5, SHAPES_TOL);
}

static void test_shapes_collide_sphere_capsule(void) {
    rg_convex_shape a = test_sphere_shape(rg_v3(0.5, 0.7, 0), 0.3), b = test_capsule_shape(rg_v3(-1, 0, 0), rg_v3(1, 0, 0), 0.5);
    rg_manifold m;
    /* above the middle: straight down onto the segment */
    ENSURE(rg_collide_shapes(&a, &b, 0, &m) == 1);
    ENSURE_V3_NEAR(m.normal, rg_v3(0, 1, 0), SHAPES_TOL);
    ENSURE_V3_NEAR(m.points[0], rg_v3(0.5, 0.5, 0), SHAPES_TOL);
    ENSURE_NEAR(m.depths[0], 0.1, SHAPES_TOL);
    /* beyond the end: towards the end's centre, (0.6, 0.6, 0) from it */
    a.center_a = a.center_b = rg_v3(1.6, 0.6, 0);
    a.radius = 0.4;
    ENSURE(rg_collide_shapes(&a, &b, 0, &m) == 1);
    ENSURE_V3_NEAR(m.normal, rg_v3_normalize(rg_v3(1, 1, 0)), SHAPES_TOL);
    ENSURE_NEAR(m.depths[0], 0.9 - 0.6 * sqrt(2.0), SHAPES_TOL);
    ENSURE_V3_NEAR(m.points[0], rg_v3_madd(rg_v3(1, 0, 0), m.normal, 0.5), SHAPES_TOL);
}

static void test_shapes_collide_capsule_capsule_crossed(void) {
    rg_convex_shape a = test_capsule_shape(rg_v3(-1, 0.9, 0.2), rg_v3(1, 0.9, 0.2), 0.5);
    rg_convex_shape b = test_capsule_shape(rg_v3(0.3, 0, -1), rg_v3(0.3, 0, 1), 0.5);
    rg_manifold m, s;
    ENSURE(rg_collide_shapes(&a, &b, 0, &m) == 1);
    ENSURE_V3_NEAR(m.normal, rg_v3(0, 1, 0), SHAPES_TOL);
    ENSURE_V3_NEAR(m.points[0], rg_v3(0.3, 0.5, 0.2), SHAPES_TOL);
    ENSURE_NEAR(m.depths[0], 0.1, SHAPES_TOL);
    /* axes that meet: the normal is perpendicular to both, the depth the sum of the radii */
    a = test_capsule_shape(rg_v3(-1, 0, 0.2), rg_v3(1, 0, 0.2), 0.5);
    ENSURE(rg_collide_shapes(&a, &b, 0, &m) == 1);
    ENSURE_NEAR(fabs((double)m.normal.y), 1, SHAPES_TOL);
    ENSURE_NEAR(m.depths[0], 1, SHAPES_TOL);
    ENSURE(rg_collide_shapes(&b, &a, 0, &s) == 1);
    ENSURE_NEAR(s.depths[0], 1, SHAPES_TOL);
    ENSURE_NEAR(fabs((double)s.normal.y), 1, SHAPES_TOL);
}

static void test_shapes_collide_capsule_capsule_parallel(void) {
    rg_convex_shape a = test_capsule_shape(rg_v3(-1, 0.9, 0), rg_v3(1.5, 0.9, 0), 0.5);
    rg_convex_shape b = test_capsule_shape(rg_v3(-2, 0, 0), rg_v3(1, 0, 0), 0.5);
    rg_manifold m, s;
    int i;
    /* the ends of the overlap, x = -1 (A's end) and x = 1 (B's end), both 0.1 deep */
    ENSURE(rg_collide_shapes(&a, &b, 0, &m) == 2);
    ENSURE_V3_NEAR(m.normal, rg_v3(0, 1, 0), SHAPES_TOL);
    ENSURE(m.features[0] != m.features[1]);
    for (i = 0; i < 2; ++i) ENSURE_NEAR(m.depths[i], 0.1, SHAPES_TOL);
    ENSURE_NEAR(fabs((double)(m.points[0].x - m.points[1].x)), 2, SHAPES_TOL);
    ENSURE_NEAR(m.points[0].x + m.points[1].x, 0, SHAPES_TOL);
    ENSURE_NEAR(m.points[0].y, 0.5, SHAPES_TOL);
    ENSURE(rg_collide_shapes(&b, &a, 0, &s) == 2);
    ENSURE(flipped(&m, &s, 10 * SHAPES_TOL, 0));
    /* tilted by 2 degrees in the plane of the normal: still lying, the depths along the normal
       differ by the rise over the overlap; by 10 degrees: one point */
    {
        double angle = 2 * 3.14159265358979 / 180, depth_low, depth_high;
        a = test_capsule_shape(rg_v3(-1, 0.9, 0), rg_v3(-1 + (rg_real)(2.5 * cos(angle)), (rg_real)(0.9 + 2.5 * sin(angle)), 0), 0.5);
        ENSURE(rg_collide_shapes(&a, &b, 0, &m) == 2);
        depth_low = rg_collide_shapes(&a, &b, 0, &m) ? m.depths[0] : 0;
        depth_high = m.depths[1];
        ENSURE_NEAR(depth_low, 0.1, 1e-3);
        ENSURE_NEAR(depth_low - depth_high, 2 * tan(angle), 2e-3);
        a.center_b = rg_v3(-1 + (rg_real)(2.5 * cos(10 * angle / 2)), (rg_real)(0.9 + 2.5 * sin(10 * angle / 2)), 0);
        ENSURE(rg_collide_shapes(&a, &b, 0, &m) == 1);
        ENSURE_NEAR(m.depths[0], 0.1, 1e-3);
    }
}

/* A box turned and moved, and what it should give: the local configuration rotated by q and
   moved by p. */
static rg_quat test_turn(void) { return rg_quat_normalize(rg_quat_from_axis_angle(rg_v3(0.3, -1, 0.6), 0.7)); }
static rg_vec3 to_world(rg_vec3 local) { return rg_v3_add(rg_v3(1.5, -2, 0.25), rg_quat_rotate(test_turn(), local)); }
static rg_vec3 dir_world(rg_vec3 local) { return rg_quat_rotate(test_turn(), local); }

/* Sphere of radius r at local centre c on the box of half extents (1, 1, 1): expects one point
   at local `point`, normal along local `normal`, depth `depth`. */
static int sphere_on_box(const rg_hull *box, rg_vec3 c, rg_real r, rg_vec3 point, rg_vec3 normal, double depth) {
    rg_convex_shape a = test_sphere_shape(to_world(c), r), b = test_hull_shape(box, to_world(rg_v3(0, 0, 0)), test_turn());
    rg_manifold m;
    double tol = 4 * SHAPES_TOL;
    if (rg_collide_shapes(&a, &b, 0, &m) != 1) return 0;
    return rg_v3_length(rg_v3_sub(m.normal, dir_world(rg_v3_normalize(normal)))) <= tol &&
           rg_v3_length(rg_v3_sub(m.points[0], to_world(point))) <= tol && fabs(m.depths[0] - depth) <= tol;
}

static void test_shapes_collide_sphere_box_face_edge_corner(void) {
    rg_hull *box = rg_hull_create_box(rg_v3(1, 1, 1), NULL);
    ENSURE(box);
    /* face: straight down */
    ENSURE(sphere_on_box(box, rg_v3(0.3, 1.4, -0.2), 0.5, rg_v3(0.3, 1, -0.2), rg_v3(0, 1, 0), 0.1));
    /* edge: from (1, 1, 0.2) towards the centre, (0.3, 0.4, 0) away */
    ENSURE(sphere_on_box(box, rg_v3(1.3, 1.4, 0.2), 0.6, rg_v3(1, 1, 0.2), rg_v3(0.6, 0.8, 0), 0.1));
    /* corner: along the diagonal, 0.2 sqrt(3) from the corner */
    ENSURE(sphere_on_box(box, rg_v3(1.2, 1.2, 1.2), 0.4, rg_v3(1, 1, 1), rg_v3(1, 1, 1), 0.4 - 0.2 * sqrt(3.0)));
    /* corner off the diagonal: (0.1, 0.3, 0.2) away */
    ENSURE(sphere_on_box(box, rg_v3(-1.1, 1.3, -1.2), 0.5, rg_v3(-1, 1, -1), rg_v3(-0.1, 0.3, -0.2), 0.5 - sqrt(0.14)));
    /* a gap within the margin */
    {
        rg_convex_shape a = test_sphere_shape(to_world(rg_v3(0, 0, -1.7)), 0.5), b = test_hull_shape(box, to_world(rg_v3(0, 0, 0)), test_turn());
        rg_manifold m;
        ENSURE(rg_collide_shapes(&a, &b, 0.3, &m) == 1);
        ENSURE_NEAR(m.depths[0], -0.2, 4 * SHAPES_TOL);
        ENSURE(rg_collide_shapes(&a, &b, 0.1, &m) == 0);
    }
    rg_hull_destroy(box);
}

static void test_shapes_collide_sphere_inside_box_deep(void) {
    rg_hull *box = rg_hull_create_box(rg_v3(2, 1, 1), NULL);
    ENSURE(box);
    /* nearest face +x, 0.3 in: depth 0.5 + 0.3 */
    ENSURE(sphere_on_box(box, rg_v3(1.7, 0.1, 0.2), 0.5, rg_v3(2, 0.1, 0.2), rg_v3(1, 0, 0), 0.8));
    /* at the centre: the nearest faces are +-y and +-z, 1 in */
    {
        rg_convex_shape a = test_sphere_shape(to_world(rg_v3(0, 0, 0)), 0.25), b = test_hull_shape(box, to_world(rg_v3(0, 0, 0)), test_turn());
        rg_manifold m;
        rg_vec3 n;
        ENSURE(rg_collide_shapes(&a, &b, 0, &m) == 1);
        ENSURE_NEAR(m.depths[0], 1.25, 4 * SHAPES_TOL);
        n = rg_quat_rotate_inverse(test_turn(), m.normal);
        ENSURE_NEAR(fabs((double)n.y) + fabs((double)n.z), 1, 4 * SHAPES_TOL);
    }
    rg_hull_destroy(box);
}

/* Capsule from local a to b, radius r, on the box of half extents (2, 0.5, 1) (top face y = 0.5). */
static int capsule_on_box(const rg_hull *box, rg_vec3 a, rg_vec3 b, rg_real r, rg_real margin, rg_manifold *m) {
    rg_convex_shape s = test_capsule_shape(to_world(a), to_world(b), r), h = test_hull_shape(box, to_world(rg_v3(0, 0, 0)), test_turn());
    return rg_collide_shapes(&s, &h, margin, m);
}

/* index of the point at local p, or -1 */
static int point_at(const rg_manifold *m, rg_vec3 p, double tol) {
    int i;
    for (i = 0; i < m->count; ++i)
        if (rg_v3_length(rg_v3_sub(m->points[i], to_world(p))) <= tol) return i;
    return -1;
}

static void test_shapes_collide_capsule_lying_on_box(void) {
    rg_hull *box = rg_hull_create_box(rg_v3(2, 0.5, 1), NULL);
    rg_manifold m;
    double tol = 4 * SHAPES_TOL, angle = 1 * 3.14159265358979 / 180;
    int i, j;
    ENSURE(box);
    /* flat, 0.02 deep: both ends */
    ENSURE(capsule_on_box(box, rg_v3(-1, 0.73, 0.3), rg_v3(1, 0.73, 0.3), 0.25, 0, &m) == 2);
    ENSURE(rg_v3_length(rg_v3_sub(m.normal, dir_world(rg_v3(0, 1, 0)))) <= tol);
    i = point_at(&m, rg_v3(-1, 0.5, 0.3), tol);
    j = point_at(&m, rg_v3(1, 0.5, 0.3), tol);
    ENSURE(i >= 0 && j >= 0 && i != j);
    ENSURE_NEAR(m.depths[i], 0.02, tol);
    ENSURE_NEAR(m.depths[j], 0.02, tol);
    ENSURE(m.features[i] != m.features[j]);
    /* tilted by 1 degree: still both ends, each at its own depth, the deeper first */
    ENSURE(capsule_on_box(box, rg_v3(-1, 0.73, 0), rg_v3(-1 + (rg_real)(2 * cos(angle)), (rg_real)(0.73 + 2 * sin(angle)), 0),
                          0.25, 0.1, &m) == 2);
    ENSURE_NEAR(m.depths[0], 0.02, tol);
    ENSURE_NEAR(m.depths[1], 0.02 - 2 * sin(angle), tol);
    ENSURE(point_at(&m, rg_v3(-1, 0.5, 0), tol) == 0);
    /* hanging over the edge x = 2: the part over the face, from x = 1.5 to the edge */
    ENSURE(capsule_on_box(box, rg_v3(1.5, 0.73, 0), rg_v3(3.5, 0.73, 0), 0.25, 0, &m) == 2);
    ENSURE(point_at(&m, rg_v3(1.5, 0.5, 0), tol) >= 0);
    ENSURE(point_at(&m, rg_v3(2, 0.5, 0), tol) >= 0);
    ENSURE_NEAR(m.depths[0], 0.02, tol);
    ENSURE_NEAR(m.depths[1], 0.02, tol);
    /* tilted by 20 degrees: the lower end alone */
    angle = 20 * 3.14159265358979 / 180;
    ENSURE(capsule_on_box(box, rg_v3(-1, 0.73, 0), rg_v3(-1 + (rg_real)(2 * cos(angle)), (rg_real)(0.73 + 2 * sin(angle)), 0),
                          0.25, 0, &m) == 1);
    ENSURE(point_at(&m, rg_v3(-1, 0.5, 0), tol) == 0);
    ENSURE_NEAR(m.depths[0], 0.02, tol);
    /* standing on its end: one point */
    ENSURE(capsule_on_box(box, rg_v3(0, 0.74, 0), rg_v3(0, 2, 0), 0.25, 0, &m) == 1);
    ENSURE_NEAR(m.depths[0], 0.01, tol);
    rg_hull_destroy(box);
}

static void test_shapes_collide_capsule_inside_box(void) {
    rg_hull *box = rg_hull_create_box(rg_v3(2, 0.5, 1), NULL), *cube = rg_hull_create_box(rg_v3(1, 1, 1), NULL);
    rg_manifold m;
    double tol = 4 * SHAPES_TOL;
    ENSURE(box && cube);
    /* the segment 0.2 below the top face: pushed up, depth 0.3 + 0.2, both ends */
    ENSURE(capsule_on_box(box, rg_v3(-1, 0.3, 0.2), rg_v3(1, 0.3, 0.2), 0.3, 0, &m) == 2);
    ENSURE(rg_v3_length(rg_v3_sub(m.normal, dir_world(rg_v3(0, 1, 0)))) <= tol);
    ENSURE_NEAR(m.depths[0], 0.5, tol);
    ENSURE_NEAR(m.depths[1], 0.5, tol);
    /* across the edge x = y = 1 of the cube, along (1, -1, 0) through (0.95, 0.95, 0): the
       edge's axis (1, 1, 0)/sqrt 2 separates best, 0.05 sqrt 2 in */
    ENSURE(capsule_on_box(cube, rg_v3(-0.05, 1.95, 0.1), rg_v3(1.95, -0.05, 0.1), 0.2, 0, &m) == 1);
    ENSURE(rg_v3_length(rg_v3_sub(m.normal, dir_world(rg_v3_normalize(rg_v3(1, 1, 0))))) <= tol);
    ENSURE_NEAR(m.depths[0], 0.2 + 0.05 * sqrt(2.0), tol);
    ENSURE(rg_v3_length(rg_v3_sub(m.points[0], to_world(rg_v3(1, 1, 0.1)))) <= tol);
    rg_hull_destroy(box);
    rg_hull_destroy(cube);
}

/* ---- swapping A and B ------------------------------------------------------------------------- */

static void test_shapes_collide_swap_flips(void) {
    rg_hull *box = rg_hull_create_box(rg_v3(1, 0.5, 0.8), NULL);
    rg_convex_shape shapes[6], a, b;
    rg_manifold m, s;
    int i, j, k, compared = 0;
    ENSURE(box);
    shapes[0] = test_sphere_shape(rg_v3(0.2, 0.9, 0.1), 0.5);
    shapes[1] = test_capsule_shape(rg_v3(-0.6, 0.85, 0.3), rg_v3(0.7, 0.88, 0.2), 0.4);
    shapes[2] = test_hull_shape(box, rg_v3(0, 0, 0), rg_quat_from_axis_angle(rg_v3(0.1, 1, 0.2), 0.3));
    shapes[3] = test_sphere_shape(rg_v3(1.1, 0.6, -0.5), 0.3);
    shapes[4] = test_capsule_shape(rg_v3(-0.3, 0.2, 1.2), rg_v3(0.4, -0.3, 1.0), 0.35);
    shapes[5] = test_hull_shape(box, rg_v3(0.3, 1.1, -0.2), rg_quat_from_axis_angle(rg_v3(1, 0, 0.5), 0.9));
    for (k = 0; k < 40; ++k) {
        rg_vec3 shift = random_offset(0, 0.5);
        for (i = 0; i < 6; ++i)
            for (j = 0; j < 6; ++j) {
                int same_ids;
                if (i == j) continue;
                a = moved_shape(shapes[i], shift);
                b = shapes[j];
                rg_collide_shapes(&a, &b, 0.05, &m);
                rg_collide_shapes(&b, &a, 0.05, &s);
                /* one routine per pair of types: the same ids unless both are capsules (then each
                   order measures along its own B) */
                same_ids = !(a.type == RG_SHAPE_CAPSULE && b.type == RG_SHAPE_CAPSULE) &&
                           !(a.type == RG_SHAPE_HULL && b.type == RG_SHAPE_HULL);
                if (a.type == RG_SHAPE_HULL && b.type == RG_SHAPE_HULL) {
                    ENSURE(m.count == s.count);
                    if (m.count) ENSURE(rg_v3_length(rg_v3_add(m.normal, s.normal)) <= 1e-3);
                } else {
                    ENSURE(flipped(&m, &s, 8 * SHAPES_TOL, same_ids));
                }
                compared += m.count > 0;
            }
    }
    rg_test_note("%d touching ordered pairs compared", compared);
    ENSURE(compared > 100);
    rg_hull_destroy(box);
}

/* ---- random pairs against the brute force ----------------------------------------------------- */

/* A hull of size 0.1 to 10: a box, or the hull of 8 to 24 points in an ellipsoid. */
static rg_hull *random_hull(void) {
    rg_vec3 size = draw3(log_uniform, 0.05, 5), p[24];
    int i, n = 8 + (int)(rg_test_random() * 17);
    if (rg_test_random() < 0.4) return rg_hull_create_box(size, NULL);
    for (i = 0; i < n; ++i) {
        rg_vec3 u = rg_test_unit_vector();
        double r = 0.5 + 0.5 * rg_test_random();
        p[i] = rg_v3((rg_real)(u.x * size.x * r), (rg_real)(u.y * size.y * r), (rg_real)(u.z * size.z * r));
    }
    return rg_hull_create(p, n, NULL);
}

/* A random shape of the type about centre c (sizes 0.1 to 10); *extent its bounding radius. */
static rg_convex_shape random_shape(rg_shape_type type, rg_vec3 c, rg_hull **hull, double *extent) {
    rg_convex_shape s;
    *hull = NULL;
    if (type == RG_SHAPE_HULL) {
        int i;
        *hull = random_hull();
        s = test_hull_shape(*hull, c, rg_test_rotation());
        *extent = 0;
        for (i = 0; *hull && i < rg_hull_vertex_count(*hull); ++i)
            *extent = larger(*extent, rg_v3_length(rg_hull_vertex(*hull, i)));
        return s;
    }
    if (type == RG_SHAPE_SPHERE) {
        s = test_sphere_shape(c, (rg_real)(log_uniform(0.1, 10) / 2));
        *extent = s.radius;
        return s;
    }
    {
        rg_vec3 u = rg_test_unit_vector(), half = rg_v3_scale(u, (rg_real)(log_uniform(0.1, 10) / 2));
        s = test_capsule_shape(rg_v3_sub(c, half), rg_v3_add(c, half), (rg_real)(log_uniform(0.1, 10) / 2));
        *extent = s.radius + rg_v3_length(half);
        return s;
    }
}

/* Tolerances of the checks, as parts of the pair's size (the sum of the bounding radii). The
   depth of a lying capsule is measured along the face's or the other capsule's normal, within
   3 degrees of the closest points' direction: radius (1 - cos 3 deg) = 0.0014 radius, and the
   points may sit that far off the surfaces; a core inside a hull takes a face within RG__AXIS_*
   of the best edge axis (0.5% of the depth and 0.1% of the hull's radius). */
#ifdef RIGID_DOUBLE
#define RANDOM_TOL 1e-9
#else
#define RANDOM_TOL 2e-5
#endif
#define LYING_TOL 2e-3
#define INSIDE_TOL 5e-3

static void test_shapes_collide_random_against_brute_force(void) {
    static const rg_shape_type pairs[8][2] = {
        {RG_SHAPE_SPHERE, RG_SHAPE_SPHERE}, {RG_SHAPE_SPHERE, RG_SHAPE_CAPSULE}, {RG_SHAPE_CAPSULE, RG_SHAPE_SPHERE},
        {RG_SHAPE_CAPSULE, RG_SHAPE_CAPSULE}, {RG_SHAPE_SPHERE, RG_SHAPE_HULL}, {RG_SHAPE_HULL, RG_SHAPE_SPHERE},
        {RG_SHAPE_CAPSULE, RG_SHAPE_HULL}, {RG_SHAPE_HULL, RG_SHAPE_CAPSULE}};
    static const char *names[8] = {"sphere-sphere", "sphere-capsule", "capsule-sphere", "capsule-capsule",
                                   "sphere-hull", "hull-sphere", "capsule-hull", "hull-capsule"};
    int p, k;
    rg_test_seed(2311);
    for (p = 0; p < 8; ++p) {
        errors plain, lying;
        memset(&plain, 0, sizeof plain);
        memset(&lying, 0, sizeof lying);
        for (k = 0; k < 1500; ++k) {
            rg_hull *ha, *hb;
            double ea, eb, size;
            rg_vec3 cb = draw3(rg_test_uniform, -3, 3);
            rg_convex_shape b = random_shape(pairs[p][1], cb, &hb, &eb), a;
            rg_manifold m;
            rg_real margin;
            a = random_shape(pairs[p][0], cb, &ha, &ea);
            if ((pairs[p][0] == RG_SHAPE_HULL && !ha) || (pairs[p][1] == RG_SHAPE_HULL && !hb)) {
                rg_hull_destroy(ha);
                rg_hull_destroy(hb);
                continue;
            }
            size = ea + eb;
            a = moved_shape(a, random_offset(0, 1.1 * size));
            /* a few capsules laid flat against their partner's direction, to reach the lying cases */
            if (a.type == RG_SHAPE_CAPSULE && b.type == RG_SHAPE_CAPSULE && rg_test_random() < 0.3) {
                rg_vec3 mid = rg_v3_scale(rg_v3_add(a.center_a, a.center_b), 0.5), half = rg_v3_scale(rg_v3_sub(b.center_b, b.center_a), 0.5);
                a.center_a = rg_v3_sub(mid, half);
                a.center_b = rg_v3_add(mid, half);
            }
            margin = rg_test_random() < 0.5 ? 0 : (rg_real)(0.05 * size);
            rg_collide_shapes(&a, &b, margin, &m);
            check_manifold(&a, &b, margin, &m, size, 10 * RANDOM_TOL, m.count == 2 ? &lying : &plain);
            rg_hull_destroy(ha);
            rg_hull_destroy(hb);
        }
        rg_test_note("%s: %d pairs, %d touching (%d of them with two points, %d with a core inside), %d apart; "
                     "largest errors / size: depth %.2g, moved to touching %.2g (core inside %.2g), on B %.2g, "
                     "on A %.2g; two points: depth %.2g, moved %.2g (%.2g), on B %.2g, on A %.2g",
                     names[p], plain.pairs + lying.pairs, plain.touching + lying.touching, lying.touching,
                     plain.inside + lying.inside, plain.separated + lying.separated, plain.depth, plain.moved,
                     plain.moved_inside, plain.on_b, plain.on_a, lying.depth, lying.moved, lying.moved_inside,
                     lying.on_b, lying.on_a);
        ENSURE(plain.count_wrong == 0 && lying.count_wrong == 0);
        ENSURE(plain.touching > 200 && plain.separated > 100);
        ENSURE(plain.normal <= RANDOM_TOL && lying.normal <= RANDOM_TOL);
        ENSURE_NEAR(plain.depth, 0, 2 * RANDOM_TOL);
        ENSURE_NEAR(plain.on_b, 0, 2 * RANDOM_TOL);
        ENSURE_NEAR(plain.on_a, 0, 2 * RANDOM_TOL);
        ENSURE_NEAR(plain.moved, 0, 2 * RANDOM_TOL);
        ENSURE_NEAR(plain.moved_inside, 0, INSIDE_TOL);
        ENSURE_NEAR(lying.depth, 0, LYING_TOL);
        ENSURE_NEAR(lying.moved, 0, LYING_TOL);
        ENSURE_NEAR(lying.moved_inside, 0, INSIDE_TOL);
        ENSURE_NEAR(lying.on_b, 0, LYING_TOL);
        ENSURE_NEAR(lying.on_a, 0, LYING_TOL);
    }
}

/* ---- exact ties: cores on a grid around a box -------------------------------------------------- */

/* Spheres and axis-aligned or diagonal capsules at grid points around and inside a box, where
   GJK meets exact ties, zero components and degenerate simplices (collinear and coplanar
   Minkowski points): the depth must match the box's closed form, a clamp. */
static double box_distance(rg_vec3 h, dvec p) {
    double dx = fabs(p.x) - h.x, dy = fabs(p.y) - h.y, dz = fabs(p.z) - h.z;
    double ox = dx > 0 ? dx : 0, oy = dy > 0 ? dy : 0, oz = dz > 0 ? dz : 0, inside = larger(dx, larger(dy, dz));
    return inside > 0 ? sqrt(ox * ox + oy * oy + oz * oz) : inside;
}
typedef struct box_context { rg_vec3 h; } box_context;
static double to_box(const void *context, dvec p) { return box_distance(((const box_context *)context)->h, p); }

static void test_shapes_collide_grid_ties(void) {
    box_context box;
    rg_hull *hull;
    rg_convex_shape b;
    int x, y, z, k, touching = 0;
    double worst = 0, worst_inside = 0;
    box.h = rg_v3(1, 0.5, 0.75);
    hull = rg_hull_create_box(box.h, NULL);
    ENSURE(hull);
    b = test_hull_shape(hull, rg_v3(0, 0, 0), rg_quat_identity());
    for (x = -6; x <= 6; ++x)
        for (y = -4; y <= 4; ++y)
            for (z = -5; z <= 5; ++z)
                for (k = 0; k < 4; ++k) {
                    rg_vec3 c = rg_v3(0.25 * x, 0.25 * y, 0.25 * z), d;
                    rg_convex_shape a;
                    rg_manifold m;
                    double core, expected;
                    d = k == 1 ? rg_v3(0.5, 0, 0) : k == 2 ? rg_v3(0, 0.25, 0.25) : rg_v3(0.25, 0.25, 0.25);
                    a = k == 0 ? test_sphere_shape(c, 0.3) : test_capsule_shape(rg_v3_sub(c, d), rg_v3_add(c, d), 0.3);
                    core = segment_minimum(to_box, &box, dv_of(a.center_a), dv_of(a.center_b));
                    expected = 0.3 - core;
                    rg_collide_shapes(&a, &b, 0, &m);
                    if (expected < -1e-4) {
                        ENSURE(m.count == 0);
                        continue;
                    }
                    if (expected > 1e-4) ENSURE(m.count > 0);
                    if (m.count == 0) continue;
                    ++touching;
                    ENSURE_NEAR(rg_v3_length(m.normal), 1, SHAPES_TOL);
                    if (core > 0) {
                        worst = larger(worst, fabs(m.depths[0] - expected));
                    } else {
                        /* a core inside: moved out by the depth along the normal, it just touches */
                        rg_convex_shape moved = moved_shape(a, rg_v3_scale(m.normal, m.depths[0]));
                        worst_inside = larger(worst_inside, fabs(segment_minimum(to_box, &box, dv_of(moved.center_a),
                                                                                 dv_of(moved.center_b)) - 0.3));
                    }
                }
    rg_test_note("%d touching, largest depth error %.2g, core inside: moved out %.2g from touching", touching, worst,
                 worst_inside);
    ENSURE(touching > 1000);
    ENSURE_NEAR(worst, 0, 4 * SHAPES_TOL);
    ENSURE_NEAR(worst_inside, 0, 4 * SHAPES_TOL);
    rg_hull_destroy(hull);
}

/* A small sphere by the edges and corners of a big box (radius 0.01, box 200 wide): the
   coordinates' rounding is epsilon times the box, in float 2.4e-3 of the radius; the depth must
   be within 16 of those, the normal within 0.02 where the centre is 0.001 from the box. */
static void test_shapes_collide_small_sphere_by_big_box(void) {
    box_context box;
    rg_hull *hull;
    rg_convex_shape b;
    int k, touching = 0;
    double worst = 0, worst_normal = 0, tol = 16 * (SHAPES_TOL / 2e-5 * 1.2e-7) * 200;
    box.h = rg_v3(100, 50, 80);
    hull = rg_hull_create_box(box.h, NULL);
    ENSURE(hull);
    b = test_hull_shape(hull, rg_v3(0, 0, 0), rg_quat_identity());
    rg_test_seed(5);
    for (k = 0; k < 3000; ++k) {
        /* near a random corner or edge: a corner, two coordinates pulled in for an edge */
        rg_vec3 c = draw3(rg_test_uniform, -1, 1);
        rg_vec3 off = random_offset(0, 0.012);
        c = rg_v3(c.x < 0 ? -100 : 100, c.y < 0 ? -50 : 50, c.z < 0 ? -80 : 80);
        rg_convex_shape a;
        rg_manifold m;
        dvec p, q;
        double d;
        if (k % 3 == 1) c.x *= 0.5;
        if (k % 3 == 2) c.z *= 0.25;
        a = test_sphere_shape(rg_v3_add(c, off), 0.01);
        p = dv_of(a.center_a);
        d = box_distance(box.h, p);
        rg_collide_shapes(&a, &b, 0, &m);
        if (d > 0.01 + tol) ENSURE(m.count == 0);
        if (d < 0.01 - tol) ENSURE(m.count == 1);
        if (m.count == 0 || d <= 0) continue;
        ++touching;
        worst = larger(worst, fabs(m.depths[0] - (0.01 - d)));
        /* the normal: from the box's closest point (the clamp) towards the centre */
        q = dv(p.x < -100 ? -100 : (p.x > 100 ? 100 : p.x), p.y < -50 ? -50 : (p.y > 50 ? 50 : p.y),
               p.z < -80 ? -80 : (p.z > 80 ? 80 : p.z));
        if (d > 1e-3) {
            dvec n = dv_sub(p, q);
            double l = dv_length(n);
            worst_normal = larger(worst_normal, dv_length(dv_sub(dv_of(m.normal), dv(n.x / l, n.y / l, n.z / l))));
        }
    }
    rg_test_note("%d touching, largest depth error %.2g (tolerance %.2g), normal error %.2g where the centre is "
                 "beyond 0.001", touching, worst, tol, worst_normal);
    ENSURE(touching > 500);
    ENSURE_NEAR(worst, 0, tol);
    ENSURE_NEAR(worst_normal, 0, 0.02);
    rg_hull_destroy(hull);
}

/* ---- feature ids ------------------------------------------------------------------------------ */

static void test_shapes_collide_feature_ids_stable(void) {
    rg_hull *box = rg_hull_create_box(rg_v3(2, 0.5, 1), NULL);
    rg_convex_shape h, a, b;
    rg_manifold m, first;
    int k;
    ENSURE(box);
    h = test_hull_shape(box, rg_v3(0.1, -0.2, 0.3), rg_quat_from_axis_angle(rg_v3(0, 1, 0), 0.4));
    /* a sphere rolling over the top face keeps its id; past the edge it changes */
    a = test_sphere_shape(rg_v3_add(h.position, rg_quat_rotate(h.orientation, rg_v3(-1.5, 0.95, 0))), 0.5);
    ENSURE(rg_collide_shapes(&a, &h, 0, &first) == 1);
    for (k = 1; k <= 10; ++k) {
        rg_convex_shape s = moved_shape(a, rg_quat_rotate(h.orientation, rg_v3(0.3 * k, 0.001 * k, 0.02 * k)));
        ENSURE(rg_collide_shapes(&s, &h, 0.1, &m) == 1);
        ENSURE(m.features[0] == first.features[0]);
    }
    a = moved_shape(a, rg_quat_rotate(h.orientation, rg_v3(3.7, 0, 0)));
    ENSURE(rg_collide_shapes(&a, &h, 0.1, &m) == 1);
    ENSURE(m.features[0] != first.features[0]);
    /* a capsule lying on the face and sliding: the two ids stay, each with its end */
    a = test_capsule_shape(rg_v3_add(h.position, rg_quat_rotate(h.orientation, rg_v3(-1, 0.7, 0))),
                      rg_v3_add(h.position, rg_quat_rotate(h.orientation, rg_v3(0.5, 0.7, 0.2))), 0.25);
    ENSURE(rg_collide_shapes(&a, &h, 0, &first) == 2);
    for (k = 1; k <= 10; ++k) {
        rg_convex_shape s = moved_shape(a, rg_quat_rotate(h.orientation, rg_v3(0.05 * k, -0.001 * k, -0.05 * k)));
        ENSURE(rg_collide_shapes(&s, &h, 0, &m) == 2);
        ENSURE((m.features[0] == first.features[0] && m.features[1] == first.features[1]) ||
               (m.features[0] == first.features[1] && m.features[1] == first.features[0]));
    }
    /* tipped up (one end lifted by 30 degrees) the lower end keeps its id */
    {
        rg_vec3 lower = rg_quat_rotate(h.orientation, rg_v3(-1, 0.7, 0)), along = rg_v3(1.5 * 0.866, 0.75, 0);
        rg_convex_shape s = test_capsule_shape(rg_v3_add(h.position, lower),
                                          rg_v3_add(h.position, rg_v3_add(lower, rg_quat_rotate(h.orientation, along))), 0.25);
        ENSURE(rg_collide_shapes(&s, &h, 0, &m) == 1);
        ENSURE(m.features[0] == first.features[0] || m.features[0] == first.features[1]);
    }
    /* crossed capsules sliding over each other keep theirs */
    a = test_capsule_shape(rg_v3(-1, 0.9, 0), rg_v3(1, 0.9, 0), 0.5);
    b = test_capsule_shape(rg_v3(0, 0, -1), rg_v3(0, 0, 1), 0.5);
    ENSURE(rg_collide_shapes(&a, &b, 0, &first) == 1);
    for (k = 1; k <= 5; ++k) {
        rg_convex_shape s = moved_shape(a, rg_v3(0.1 * k, 0, 0.1 * k));
        ENSURE(rg_collide_shapes(&s, &b, 0, &m) == 1);
        ENSURE(m.features[0] == first.features[0]);
    }
    rg_hull_destroy(box);
}

/* ---- hull pairs, bad input ------------------------------------------------------------------- */

static void test_shapes_collide_hull_pairs_as_rg_collide_hulls(void) {
    int k, touching = 0;
    rg_test_seed(77);
    for (k = 0; k < 300; ++k) {
        rg_hull *ha = random_hull(), *hb = random_hull();
        rg_convex_shape a, b;
        rg_manifold m, n;
        rg_vec3 at;
        int i;
        if (!ha || !hb) {
            rg_hull_destroy(ha);
            rg_hull_destroy(hb);
            continue;
        }
        at = random_offset(0, 6);
        a = test_hull_shape(ha, at, rg_test_rotation());
        b = test_hull_shape(hb, rg_v3(0, 0, 0), rg_test_rotation());
        a.orientation.w *= 3; /* not normalised */
        rg_collide_shapes(&a, &b, 0.05, &m);
        rg_collide_hulls(ha, a.position, a.orientation, hb, b.position, b.orientation, 0.05, &n);
        ENSURE(m.count == n.count);
        touching += m.count > 0;
        for (i = 0; i < m.count; ++i) {
            ENSURE(m.depths[i] == n.depths[i] && m.features[i] == n.features[i]);
            ENSURE(rg_v3_length(rg_v3_sub(m.points[i], n.points[i])) == 0);
        }
        rg_hull_destroy(ha);
        rg_hull_destroy(hb);
    }
    rg_test_note("%d of 300 pairs touching, identical to rg_collide_hulls", touching);
    ENSURE(touching > 30);
}

static void test_shapes_collide_bad_input(void) {
    rg_hull *box = rg_hull_create_box(rg_v3(1, 1, 1), NULL);
    rg_convex_shape good = test_sphere_shape(rg_v3(0, 1.2, 0), 0.5), h, bad;
    rg_manifold m;
    rg_real nan = (rg_real)NAN, inf = (rg_real)INFINITY;
    int i;
    ENSURE(box);
    h = test_hull_shape(box, rg_v3(0, 0, 0), rg_quat_identity());
    ENSURE(rg_collide_shapes(&good, &h, 0, &m) == 1);
    ENSURE(rg_collide_shapes(NULL, &h, 0, &m) == 0 && m.count == 0);
    ENSURE(rg_collide_shapes(&good, NULL, 0, &m) == 0 && m.count == 0);
    ENSURE(rg_collide_shapes(&good, &h, 0, NULL) == 0);
    ENSURE(rg_collide_shapes(&good, &h, inf, &m) == 0);
    ENSURE(rg_collide_shapes(&good, &h, nan, &m) == 1);   /* NaN margin: touching only */
    ENSURE(rg_collide_shapes(&good, &h, -1, &m) == 1);
    for (i = 0; i < 14; ++i) {
        bad = i < 7 ? good : h;
        switch (i) {
        case 0: bad.radius = 0; break;
        case 1: bad.radius = -1; break;
        case 2: bad.radius = nan; break;
        case 3: bad.radius = inf; break;
        case 4: bad.center_a.y = nan; break;
        case 5: bad.type = RG_SHAPE_CAPSULE; bad.center_b.x = inf; break;
        case 6: bad.center_a.x = (rg_real)1e16; break;
        case 7: bad.hull = NULL; break;
        case 8: bad.position.z = nan; break;
        case 9: bad.position.x = (rg_real)-1e16; break;
        case 10: bad.orientation.w = inf; break;
        case 11: bad.orientation.x = nan; break;
        case 12: bad.type = RG_SHAPE_MESH; break;
        default: bad.type = (rg_shape_type)7; break;
        }
        m.count = 5;
        ENSURE(rg_collide_shapes(&bad, i < 7 ? &h : &good, 0, &m) == 0 && m.count == 0);
        m.count = 5;
        ENSURE(rg_collide_shapes(i < 7 ? &h : &good, &bad, 0, &m) == 0 && m.count == 0);
    }
    /* a zero quaternion is taken as the identity, as rg_collide_hulls does */
    bad = h;
    bad.orientation.w = 0;
    ENSURE(rg_collide_shapes(&good, &bad, 0, &m) == 1);
    /* far apart but sane: nothing, no overflow */
    bad = test_sphere_shape(rg_v3((rg_real)9e14, 0, 0), (rg_real)1e14);
    ENSURE(rg_collide_shapes(&bad, &h, 0, &m) == 0);
    ENSURE(rg_collide_shapes(&bad, &good, 0, &m) == 0);
    /* huge but accepted (up to 1e15): every pair that overlaps gives finite numbers */
    {
        rg_convex_shape big[4];
        int j;
        big[0] = test_sphere_shape(rg_v3((rg_real)5e14, 0, 0), (rg_real)1e15);
        big[1] = test_capsule_shape(rg_v3((rg_real)-1e15, 0, 0), rg_v3((rg_real)1e15, (rg_real)1e14, 0), (rg_real)1e15);
        big[2] = test_hull_shape(box, rg_v3((rg_real)1e15, (rg_real)1e14, (rg_real)1e14), rg_quat_identity());
        big[3] = test_sphere_shape(rg_v3(0, 0, 0), (rg_real)1e-3);
        for (i = 0; i < 4; ++i)
            for (j = 0; j < 4; ++j) {
                int k;
                if (i == j || (i >= 2 && j >= 2)) continue;
                rg_collide_shapes(&big[i], &big[j], (rg_real)1e15, &m);
                ENSURE(m.count >= 1);
                ENSURE(rg_v3_is_finite(m.normal));
                for (k = 0; k < m.count; ++k) ENSURE(rg_v3_is_finite(m.points[k]) && m.depths[k] - m.depths[k] == 0);
            }
    }
    rg_hull_destroy(box);
}

/* Found by tests/fuzz/fuzz_shapes.c: crossing capsules far longer or shorter than 1 (in float,
   10^10 long: a e in the segments' normal equations overflowed and the pair had no contact;
   10^-12 long: a e was subnormal, and the normal came out 56 degrees off, the depth 0.39 of the
   overlap instead of 0.5). Capsule A along x, B along z 1.5 u above it, radii u: one point at
   (0, 0.5 u, 0), normal -y, depth 0.5 u, at every scale. */
static void test_shapes_collide_long_and_tiny_capsules_cross(void) {
    static const double lengths[6] = {1e10, 1e14, 1e15, 1e-7, 1e-12, 1e-15};
    int i;
    for (i = 0; i < 6; ++i) {
        rg_real length = (rg_real)lengths[i], u = (rg_real)(i < 3 ? 1 : lengths[i]);
        rg_convex_shape a = test_capsule_shape(rg_v3(-length, 0, 0), rg_v3(length, 0, 0), u);
        rg_convex_shape b = test_capsule_shape(rg_v3(0, 1.5f * u, -length), rg_v3(0, 1.5f * u, length), u);
        rg_manifold m;
        ENSURE(rg_collide_shapes(&a, &b, 0, &m) == 1);
        ENSURE_NEAR(m.normal.y, -1, SHAPES_TOL);
        ENSURE_NEAR(m.depths[0] / u, 0.5, SHAPES_TOL);
        ENSURE_NEAR(m.points[0].y / u, 0.5, SHAPES_TOL);
        ENSURE_NEAR(m.points[0].x / u, 0, SHAPES_TOL);
        ENSURE_NEAR(m.points[0].z / u, 0, SHAPES_TOL);
    }
}

/* Found by tests/fuzz/fuzz_shapes.c: capsules 3.5e14 long at 60 degrees to each other, touching
   at their ends near the origin, were taken as lying along each other (|da x db|^2 and
   sine^2 |da|^2 |db|^2 both overflowed float to infinity) and got a second point 2.8e13 off
   capsule A's surface. Now one point, on both surfaces within the rounding of the coordinates. */
static void test_shapes_collide_huge_capsules_at_60_degrees_one_point(void) {
    rg_convex_shape a = test_capsule_shape(rg_v3(-0.0625f, 0.015625f, 0), rg_v3(0, 2.5e14f, 2.5e14f), 1.25e14f);
    rg_convex_shape b = test_capsule_shape(rg_v3(2.5e14f, -0.171875f, 2.5e14f), rg_v3(0, 0.015625f, 0.25f), 0.02f);
    rg_manifold m;
    double size = 4.8e14;
    ENSURE(rg_collide_shapes(&a, &b, 0, &m) == 1);
    ENSURE_NEAR(rg_v3_length(m.normal), 1, SHAPES_TOL);
    ENSURE_NEAR(shape_signed_distance(&b, NULL, dv_of(m.points[0])) / size, 0, 1e-6);
    ENSURE_NEAR(shape_signed_distance(&a, NULL, dv_madd(dv_of(m.points[0]), dv_of(m.normal), -m.depths[0])) / size, 0, 1e-6);
}

/* Found by tests/fuzz/fuzz_shapes.c: a sphere of radius 0.02 at the origin on the axis of a
   capsule from (0.1875, 0, 0) to (-1.21875, 0, 0), radius 0.02. The capsule's closest point came
   out 1.5e-8 from the centre (0.1875 - 0.1875 rounded), above the rounding threshold taken from
   the points' own magnitudes (near 0), and the normal followed that rounding: (1, 0, 0), along
   the axis, with the point 0.02 inside the capsule. Now the rounding threshold follows the
   segments' ends: the normal is perpendicular to the axis, depth 0.04. Then 1000 spheres at the
   origin on random capsules' axes (ends in [-2, 2]^3 moved by minus a point of the axis, in
   rg_real) likewise. */
static void test_shapes_collide_sphere_centred_on_capsule_axis(void) {
    rg_convex_shape a = test_sphere_shape(rg_v3(0, 0, 0), 0.02f);
    rg_convex_shape b = test_capsule_shape(rg_v3(0.1875f, 0, 0), rg_v3(-1.21875f, 0, 0), 0.02f);
    rg_manifold m;
    int i, along = 0;
    double worst = 0;
    ENSURE(rg_collide_shapes(&a, &b, 0, &m) == 1);
    ENSURE_NEAR(m.normal.x, 0, 1e-6);
    ENSURE_NEAR(m.depths[0], 0.04, SHAPES_TOL);
    ENSURE_NEAR(shape_signed_distance(&b, NULL, dv_of(m.points[0])), 0, SHAPES_TOL);
    rg_test_seed(2325);
    for (i = 0; i < 1000; ++i) {
        rg_vec3 p0 = rg_v3((rg_real)rg_test_uniform(-2, 2), (rg_real)rg_test_uniform(-2, 2), (rg_real)rg_test_uniform(-2, 2));
        rg_vec3 p1 = rg_v3((rg_real)rg_test_uniform(-2, 2), (rg_real)rg_test_uniform(-2, 2), (rg_real)rg_test_uniform(-2, 2));
        rg_real s = (rg_real)rg_test_uniform(0.05, 0.95), r = (rg_real)rg_test_uniform(0.01, 0.5);
        rg_vec3 u = rg_v3_normalize(rg_v3_sub(p1, p0)), c = rg_v3_madd(p0, rg_v3_sub(p1, p0), s);
        double cosine;
        /* the centre at the origin, on the axis within the rounding of the moved ends */
        a = test_sphere_shape(rg_v3(0, 0, 0), r);
        b = test_capsule_shape(rg_v3_sub(p0, c), rg_v3_sub(p1, c), r);
        ENSURE(rg_collide_shapes(&a, &b, 0, &m) == 1);
        cosine = fabs((double)rg_v3_dot(m.normal, u));
        if (cosine > worst) worst = cosine;
        along += cosine > 1e-3;
        ENSURE_NEAR(m.depths[0], 2 * r, SHAPES_TOL);
    }
    rg_test_note("1000 spheres on capsule axes: %d normals more than 1e-3 off perpendicular, largest |n.u| %.2g", along, worst);
    ENSURE(along == 0);
}

/* Found by tests/fuzz/fuzz_shapes.c: capsules of radius 0.02, A (-0.0625, 0, 0)-(0.734375,
   0.03125, 0) and B (0.25, 0, -0.015625)-(1.015625, 0, 0), within 3 degrees of parallel but skew
   (0.02 apart across the normal at one end of the overlap) got the two points of capsules lying
   along each other; the far one, moved back by its depth, was 0.009 (0.45 r) inside A. Then
   4000 random pairs within 3 degrees of parallel, offset across and along the normal by up to
   the sum of the radii: every point moved back by its depth lies on A within
   (r_A + r_B)(1 - cos 3 degrees) (0.14%), as the lying capsules' depths promise. */
static void test_shapes_collide_skew_capsules_points_on_both(void) {
    rg_convex_shape a = test_capsule_shape(rg_v3(-0.0625f, 0, 0), rg_v3(0.734375f, 0.03125f, 0), 0.02f);
    rg_convex_shape b = test_capsule_shape(rg_v3(0.25f, 0, -0.015625f), rg_v3(1.015625f, 0, 0), 0.02f);
    rg_manifold m;
    int i, k, two = 0, off = 0;
    double worst = 0;
    ENSURE(rg_collide_shapes(&a, &b, 0.0078125f, &m) == 1);
    ENSURE_NEAR(shape_signed_distance(&a, NULL, dv_madd(dv_of(m.points[0]), dv_of(m.normal), -m.depths[0])), 0, SHAPES_TOL);
    rg_test_seed(2331);
    for (i = 0; i < 4000; ++i) {
        double ra = rg_test_uniform(0.02, 0.3), rb = rg_test_uniform(0.02, 0.3), length = rg_test_uniform(0.3, 2);
        double angle = rg_test_uniform(0, 0.05), across = rg_test_uniform(-1, 1) * (ra + rb);
        double up = rg_test_uniform(0, 1) * (ra + rb), x0 = rg_test_uniform(-0.5, 0.5);
        double turn_y = rg_test_uniform(-1, 1), turn_z = rg_test_uniform(-1, 1);
        a = test_capsule_shape(rg_v3((rg_real)x0, (rg_real)across, (rg_real)up),
                          rg_v3((rg_real)(x0 + length * cos(angle)), (rg_real)(across + length * sin(angle) * turn_y),
                                (rg_real)(up + length * sin(angle) * turn_z)), (rg_real)ra);
        b = test_capsule_shape(rg_v3(0, 0, 0), rg_v3((rg_real)length, 0, 0), (rg_real)rb);
        rg_collide_shapes(&a, &b, 0.01f, &m);
        two += m.count == 2;
        for (k = 0; k < m.count; ++k) {
            double error = fabs(shape_signed_distance(&a, NULL, dv_madd(dv_of(m.points[k]), dv_of(m.normal), -m.depths[k])));
            if (error / (ra + rb) > worst) worst = error / (ra + rb);
            off += error > 0.00137 * (ra + rb) + SHAPES_TOL;
        }
    }
    rg_test_note("4000 pairs within 3 degrees of parallel: %d with two points, %d points off A by more than "
                 "0.137%% of r_A + r_B, largest %.2g of it", two, off, worst);
    ENSURE(off == 0);
    ENSURE(two > 1000);
}

/* Found by tests/fuzz/fuzz_shapes.c: a box of half extents (0.395, 0.395, 0.02) at the origin
   and a sphere of radius 0.0278125 centred at (-0.015625, -0.015625, -0.015625), inside the box
   0.0044 above its bottom face. GJK stalled 1.45e-6 from an inner triangle of the box and
   reported the centre outside: normal (-0.69, -0.69, -0.23), depth 0.0278 (the radius), the
   point on the box 0.0044 off its surface. Now a core behind every face plane is inside, and
   the separating axes answer: normal +z (from the sphere towards the box), depth 0.0322.
   Then 3000 spheres centred inside random turned thin boxes: the normal is the nearest face's,
   the depth the radius plus the centre's distance to it (pairs whose two nearest faces are
   within 1% of each other left out). */
static void test_shapes_collide_sphere_centre_inside_thin_box(void) {
    rg_hull *box = rg_hull_create_box(rg_v3(0.395000011f, 0.395000011f, 0.0199999996f), NULL);
    rg_convex_shape a = test_hull_shape(box, rg_v3(0, 0, 0), rg_quat_identity());
    rg_convex_shape b = test_sphere_shape(rg_v3(-0.015625f, -0.015625f, -0.015625f), 0.0278124996f);
    rg_manifold m;
    int i, k, wrong = 0, checked = 0;
    double worst_depth = 0, worst_normal = 0;
    ENSURE(box);
    ENSURE(rg_collide_shapes(&a, &b, 0.0009765625f, &m) == 1);
    ENSURE_V3_NEAR(m.normal, rg_v3(0, 0, 1), SHAPES_TOL);
    ENSURE_NEAR(m.depths[0], 0.0321875, SHAPES_TOL);
    rg_hull_destroy(box);
    rg_test_seed(2337);
    for (i = 0; i < 3000; ++i) {
        rg_vec3 h = rg_v3((rg_real)rg_test_uniform(0.1, 1), (rg_real)rg_test_uniform(0.1, 1),
                          (rg_real)rg_test_uniform(0.005, 0.05));
        rg_vec3 local = rg_v3((rg_real)(h.x * rg_test_uniform(-0.98, 0.98)), (rg_real)(h.y * rg_test_uniform(-0.98, 0.98)),
                              (rg_real)(h.z * rg_test_uniform(-0.98, 0.98)));
        rg_quat q = rg_test_rotation();
        rg_vec3 p = rg_v3((rg_real)rg_test_uniform(-1, 1), (rg_real)rg_test_uniform(-1, 1), (rg_real)rg_test_uniform(-1, 1));
        rg_real r = (rg_real)rg_test_uniform(0.005, 0.1);
        double gaps[6], nearest = 1e300, second = 1e300, depth_error, normal_error;
        rg_vec3 face = rg_v3(0, 0, 0);
        box = rg_hull_create_box(h, NULL);
        ENSURE(box);
        a = test_hull_shape(box, p, q);
        b = test_sphere_shape(rg_v3_add(p, rg_quat_rotate(q, local)), r);
        gaps[0] = h.x - local.x; gaps[1] = h.x + local.x; gaps[2] = h.y - local.y;
        gaps[3] = h.y + local.y; gaps[4] = h.z - local.z; gaps[5] = h.z + local.z;
        for (k = 0; k < 6; ++k) {
            if (gaps[k] < nearest) {
                second = nearest;
                nearest = gaps[k];
                face = rg_v3(k / 2 == 0 ? (k & 1 ? -1.0f : 1.0f) : 0, k / 2 == 1 ? (k & 1 ? -1.0f : 1.0f) : 0,
                             k / 2 == 2 ? (k & 1 ? -1.0f : 1.0f) : 0);
            } else if (gaps[k] < second) {
                second = gaps[k];
            }
        }
        if (second - nearest < 0.01 * nearest + 1e-5) {
            rg_hull_destroy(box);
            continue;
        }
        ++checked;
        k = rg_collide_shapes(&a, &b, 0, &m);
        rg_hull_destroy(box);
        ENSURE(k == 1);
        /* the normal points from the sphere towards the box: against the nearest face's */
        depth_error = fabs((double)m.depths[0] - (r + nearest)) / r;
        normal_error = rg_v3_length(rg_v3_add(m.normal, rg_quat_rotate(q, face)));
        if (depth_error > worst_depth) worst_depth = depth_error;
        if (normal_error > worst_normal) worst_normal = normal_error;
        wrong += depth_error > 1e-4 || normal_error > 1e-4;
    }
    rg_test_note("%d spheres centred inside thin boxes: %d wrong, largest depth error %.2g r, normal error %.2g",
                 checked, wrong, worst_depth, worst_normal);
    ENSURE(wrong == 0);
    ENSURE(checked > 2000);
}

/* Found by tests/fuzz/fuzz_shapes.c: the hull of (-0.03125, -500, -500), (-500, -500, -500),
   (-500, -14750, -0.03125), (-500, -14750, 0), (0.046875, 0, 0), (0, 0, 0) has an edge 0.03125
   long among faces merged within its rounding (their normals 2 degrees off the edge). A capsule
   of radius 500.02 from (0, 2.5e-31, 0) to the vertex at the origin took that edge's axis with a
   claimed separation of 500 (the edge is not the hull's support along it): depth 0.02 instead of
   500.02, the point 14 300 off the capsule. Now the edge's claim is checked against the supports.
   Here capsules of lengths 2.5e-31 to 100 and radii 0.01 to 500 from that vertex towards the
   centroid: the depth is at least the radius (the core touches the hull), the point on the
   capsule. */
static void test_shapes_collide_capsule_on_vertex_of_hull_with_short_edge(void) {
    static const rg_vec3 points[6] = {{-0.03125f, -500, -500}, {-500, -500, -500}, {-500, -14750, -0.03125f},
                                      {-500, -14750, 0}, {0.046875f, 0, 0}, {0, 0, 0}};
    static const double lengths[5] = {2.5e-31, 1e-6, 1e-3, 1, 100};
    rg_hull *h = rg_hull_create(points, 6, NULL);
    rg_convex_shape a, b;
    rg_manifold m;
    rg_vec3 inward;
    int i, k;
    ENSURE(h);
    a = test_hull_shape(h, rg_v3(0, 0, 0), rg_quat_identity());
    b = test_capsule_shape(rg_v3(0, 2.50000001e-31f, 0), rg_v3(0, 0, 0), 500.019989f);
    ENSURE(rg_collide_shapes(&a, &b, 62.5f, &m) == 1);
    ENSURE_NEAR(m.depths[0], 500.019989, 1e-3);
    ENSURE_NEAR(shape_signed_distance(&b, NULL, dv_of(m.points[0])), 0, 1e-3);
    inward = rg_v3_normalize(rg_hull_centroid(h));
    for (i = 0; i < 5; ++i)
        for (k = 0; k < 3; ++k) {
            rg_real r = k == 0 ? 0.01f : k == 1 ? 1.0f : 500.0f;
            b = test_capsule_shape(rg_v3(0, 0, 0), rg_v3_scale(inward, (rg_real)lengths[i]), r);
            ENSURE(rg_collide_shapes(&a, &b, 0, &m) >= 1);
            ENSURE(m.depths[0] >= r * (1 - 1e-5));
            /* on the capsule within 1e-4 of r + 1 (a face's points are the core's part over the face) */
            ENSURE_NEAR(shape_signed_distance(&b, NULL, dv_of(m.points[0])), 0, 1e-4 * (r + 1));
            b = test_capsule_shape(rg_v3_scale(inward, (rg_real)lengths[i]), rg_v3(0, 0, 0), r);
            ENSURE(rg_collide_shapes(&a, &b, 0, &m) >= 1);
            ENSURE(m.depths[0] >= r * (1 - 1e-5));
        }
    rg_hull_destroy(h);
}

/* Found by tests/fuzz/fuzz_shapes.c: hull A of (1.25e-31, 0, 0), (0.375, 0, 0), (0.75, 0,
   -0.6953125), (0.890625, 0.0078125, 0.7578125), (0, 0.484375, 0), (0.5, 0.25, 0) and hull B of
   (-0.0078125, -0.0078125, -0.0078125), (-0.0078125, -0.0078125, 0), (0, 0.0078125, 0),
   (0.0390625, 0.5, 0.375), (0, 0, 0), both at the origin unturned, margin 0: they touch at the
   origin (1.25e-31 apart), B's face there a triangle 0.008 wide in the plane of A's edge from
   the origin to (0, 0.484375, 0). Every candidate failed and the fallback for hidden overlaps
   took A's deepest vertex, a tie along that plane: the point (0, 0.484375, 0), 0.29 off B. Now
   touching within rounding takes no fallback: no point. Moved 0.001 into each other along the
   face's normal, they overlap and get points on both hulls. */
static void test_shapes_collide_hulls_touching_at_a_corner(void) {
    static const rg_vec3 pa[6] = {{1.25e-31f, 0, 0}, {0.375f, 0, 0}, {0.75f, 0, -0.6953125f},
                                  {0.890625f, 0.0078125f, 0.7578125f}, {0, 0.484375f, 0}, {0.5f, 0.25f, 0}};
    static const rg_vec3 pb[5] = {{-0.0078125f, -0.0078125f, -0.0078125f}, {-0.0078125f, -0.0078125f, 0},
                                  {0, 0.0078125f, 0}, {0.0390625f, 0.5f, 0.375f}, {0, 0, 0}};
    rg_hull *ha = rg_hull_create(pa, 6, NULL), *hb = rg_hull_create(pb, 5, NULL);
    rg_convex_shape a, b;
    rg_manifold m;
    posed qa, qb;
    int i;
    ENSURE(ha && hb);
    a = test_hull_shape(ha, rg_v3(0, 0, 0), rg_quat_identity());
    b = test_hull_shape(hb, rg_v3(0, 0, 0), rg_quat_identity());
    ENSURE(rg_collide_shapes(&a, &b, 0, &m) == 0);
    a.position = rg_v3(-0.000707f, 0, 0.000707f);
    pose(&a, &qa);
    pose(&b, &qb);
    ENSURE(rg_collide_shapes(&a, &b, 0, &m) >= 1);
    for (i = 0; i < m.count; ++i) {
        ENSURE_NEAR(hull_signed_distance(&qb, dv_of(m.points[i])), 0, 1e-6);
        ENSURE_NEAR(hull_signed_distance(&qa, dv_madd(dv_of(m.points[i]), dv_of(m.normal), -m.depths[i])), 0, 1e-6);
    }
    rg_hull_destroy(ha);
    rg_hull_destroy(hb);
}

/* Every point of m (round a against posed hull q) on the hull and, moved back by its depth, on
   a, at the expected depth. */
static void ensure_round_on_hull(const rg_convex_shape *a, const posed *q, const rg_manifold *m, int count,
                                 double depth) {
    int k;
    for (k = 0; k < count; ++k) {
        ENSURE_NEAR(hull_signed_distance(q, dv_of(m->points[k])), 0, SHAPES_TOL);
        ENSURE_NEAR(shape_signed_distance(a, NULL, dv_madd(dv_of(m->points[k]), dv_of(m->normal), -m->depths[k])), 0,
                    SHAPES_TOL);
        ENSURE_NEAR(m->depths[k], depth, SHAPES_TOL);
    }
}

/* Found by tests/fuzz/fuzz_shapes.c: a bar of half extents (0.895, 0.02, 0.02) at
   (-0.078125, 0, 0) and a wedge whose lowest edge, from (0, 0, 0) to (0.1875, 0.03125, 0), lies
   in the bar's top plane and across it. The deepest vertex (a tie along the edge) was its far
   end, outside the bar; the incident face around that vertex clipped away to nothing and the
   fallback kept that vertex alone, 0.011 beyond the bar. Now the face that holds the whole tied
   edge is clipped. Then the wedge turned about z through 1000 angles and shifted along x: every
   point on the wedge and, moved back by its depth, on the bar (before: 513 of the 1001 wrong,
   points up to 0.17 off). */
static void test_shapes_collide_edge_lying_across_a_bar(void) {
    static const rg_vec3 wedge[7] = {{0.765625f, 0.765625f, 0.765625f}, {0.765625f, 0.765625f, 0.25f},
                                     {0.25f, 0.765625f, 0.765625f}, {0.765625f, -0.234375f, 0.765625f},
                                     {0.765625f, 0.125f, 0.0625f}, {0.1875f, 0.03125f, 0}, {0, 0, 0}};
    rg_vec3 corners[8];
    rg_hull *ha, *hb = rg_hull_create(wedge, 7, NULL);
    rg_convex_shape a, b;
    rg_manifold m;
    posed qa, qb;
    int i, k, wrong = 0, touching = 0;
    double worst = 0;
    for (i = 0; i < 8; ++i)
        corners[i] = rg_v3((i & 1) ? 0.894999981f : -0.894999981f, (i & 2) ? 0.0199999996f : -0.0199999996f,
                           (i & 4) ? 0.0199999996f : -0.0199999996f);
    ha = rg_hull_create(corners, 8, NULL);
    ENSURE(ha && hb);
    for (i = 0; i <= 1000; ++i) {
        double angle = i == 0 ? 0 : 6.283185307179586 * rg_test_random();
        rg_real shift = i == 0 ? 0 : (rg_real)(rg_test_random() - 0.5);
        a = test_hull_shape(ha, rg_v3(-0.078125f + shift, 0, 0), rg_quat_identity());
        b = test_hull_shape(hb, rg_v3(0, 0, 0), rg_quat_from_axis_angle(rg_v3(0, 0, 1), (rg_real)angle));
        pose(&a, &qa);
        pose(&b, &qb);
        if (rg_collide_shapes(&a, &b, 0, &m) == 0) { ++wrong; continue; }   /* the edge's end at the origin is in the bar */
        ++touching;
        for (k = 0; k < m.count; ++k) {
            double on_b = fabs(hull_signed_distance(&qb, dv_of(m.points[k])));
            double on_a = fabs(hull_signed_distance(&qa, dv_madd(dv_of(m.points[k]), dv_of(m.normal), -m.depths[k])));
            double off = on_a > on_b ? on_a : on_b;
            if (off > worst) worst = off;
            if (off > 10 * SHAPES_TOL) ++wrong;
        }
    }
    rg_test_note("%d of 1001 touching, %d wrong, points at most %.2g off", touching, wrong, worst);
    ENSURE(wrong == 0);
    rg_hull_destroy(ha);
    rg_hull_destroy(hb);
}

/* Is every point of m on B and, moved back by its depth, on A, with no depth beyond tol (hulls
   that touch)? No contact passes too. */
static int touching_contact_ok(const posed *qa, const posed *qb, const rg_manifold *m, int count, double tol) {
    int k;
    for (k = 0; k < count; ++k) {
        double on_b = fabs(hull_signed_distance(qb, dv_of(m->points[k])));
        double on_a = fabs(hull_signed_distance(qa, dv_madd(dv_of(m->points[k]), dv_of(m->normal), -m->depths[k])));
        if (on_a > tol || on_b > tol || m->depths[k] > tol) return 0;
    }
    return 1;
}

/* A point of edge e of h, a fraction u along it, and a normal inside the edge's arc on the
   Gauss map (w of one face's normal and 1 - w of the other's): the hull's support along it is
   the edge. */
static rg_vec3 edge_point(const rg_hull *h, int e, double u, double w, rg_vec3 *normal) {
    int v[2], f[2];
    rg_vec3 p0, p1;
    rg_hull_edge(h, e, v, f);
    p0 = rg_hull_vertex(h, v[0]);
    p1 = rg_hull_vertex(h, v[1]);
    *normal = rg_v3_normalize(rg_v3_add(rg_v3_scale(rg_hull_face_normal(h, f[0]), (rg_real)w),
                                        rg_v3_scale(rg_hull_face_normal(h, f[1]), (rg_real)(1 - w))));
    return rg_v3_add(p0, rg_v3_scale(rg_v3_sub(p1, p0), (rg_real)u));
}

/* Found by tests/fuzz/fuzz_shapes.c: hull A of (0.328125, 0.328125, 0.328125), (0.3828125,
   0.328125, -0.0078125), (-0.0078125, -0.0078125, -0.0078125), (-0.0078125, 0.328125, 0),
   (0.0078125, 0, -0.0078125) turned by (0, 0.6836496, 0.6836496, 0.255433768), hull B the same
   with (-0.0078125, 0.328125, -1) for its fourth vertex, unturned, both at (-0.015625, -0.015625,
   -0.015625), margin 0: their edges from the first to the third vertex lie on lines through the
   common origin and cross there, so the hulls touch (2.8e-17 apart in double). The distance of
   the edges' lines rounded to 2.2e-8 (apart) while the supports along the axis gave 0, and the
   pair was dropped as unconfirmed: the next axis, 0.0117 deep, gave a contact 0.0043 off A. Now
   the pair is kept at the supports' gap: touching, no contact. Then 2000 pairs of random hulls
   touching edge to edge, their edges crossing at a random angle: no contact, or points on both
   hulls with no depth (before: 90 wrong, depths up to 0.27; now none, depths at most 6.2e-7). */
static void test_shapes_collide_hull_edges_crossing_exactly(void) {
    static const rg_vec3 pa[5] = {{0.328125f, 0.328125f, 0.328125f}, {0.3828125f, 0.328125f, -0.0078125f},
                                  {-0.0078125f, -0.0078125f, -0.0078125f}, {-0.0078125f, 0.328125f, 0},
                                  {0.0078125f, 0, -0.0078125f}};
    rg_vec3 pb[5], points[8];
    rg_hull *ha, *hb;
    rg_convex_shape a, b;
    rg_manifold m;
    posed qa, qb;
    rg_quat turn = {0, 0.6836496f, 0.6836496f, 0.255433768f};
    int i, k, count, wrong = 0, checked = 0, contacts = 0;
    double worst = 0;
    memcpy(pb, pa, sizeof pb);
    pb[3].z = -1;
    ha = rg_hull_create(pa, 5, NULL);
    hb = rg_hull_create(pb, 5, NULL);
    ENSURE(ha && hb);
    a = test_hull_shape(ha, rg_v3(-0.015625f, -0.015625f, -0.015625f), turn);
    b = test_hull_shape(hb, rg_v3(-0.015625f, -0.015625f, -0.015625f), rg_quat_identity());
    pose(&a, &qa);
    pose(&b, &qb);
    count = rg_collide_shapes(&a, &b, 0, &m);
    ENSURE(touching_contact_ok(&qa, &qb, &m, count, 10 * SHAPES_TOL));
    rg_hull_destroy(ha);
    rg_hull_destroy(hb);
    rg_test_seed(977);
    for (i = 0; i < 2000; ++i) {
        rg_vec3 on_a, on_b, normal_a, normal_b, axis;
        rg_quat q;
        double cosine;
        for (k = 0; k < 8; ++k) points[k] = rg_v3((rg_real)rg_test_uniform(-1, 1), (rg_real)rg_test_uniform(-1, 1),
                                                  (rg_real)rg_test_uniform(-1, 1));
        ha = rg_hull_create(points, 8, NULL);
        for (k = 0; k < 8; ++k) points[k] = rg_v3((rg_real)rg_test_uniform(-1, 1), (rg_real)rg_test_uniform(-1, 1),
                                                  (rg_real)rg_test_uniform(-1, 1));
        hb = rg_hull_create(points, 8, NULL);
        if (ha && hb) {
            on_a = edge_point(ha, (int)(rg_test_random() * rg_hull_edge_count(ha)), rg_test_uniform(0.1, 0.9),
                              rg_test_uniform(0.1, 0.9), &normal_a);
            on_b = edge_point(hb, (int)(rg_test_random() * rg_hull_edge_count(hb)), rg_test_uniform(0.1, 0.9),
                              rg_test_uniform(0.1, 0.9), &normal_b);
            /* A turned so that its edge's normal is B's reversed, then spun about it; its point on B's */
            axis = rg_v3_cross(normal_a, rg_v3_neg(normal_b));
            cosine = -rg_v3_dot(normal_a, normal_b);
            q = rg_quat_from_axis_angle(axis, (rg_real)atan2(rg_v3_length(axis), cosine));
            q = rg_quat_mul(rg_quat_from_axis_angle(normal_b, (rg_real)rg_test_uniform(0, 6.283185307179586)), q);
            a = test_hull_shape(ha, rg_v3_sub(on_b, rg_quat_rotate(q, on_a)), q);
            b = test_hull_shape(hb, rg_v3(0, 0, 0), rg_quat_identity());
            pose(&a, &qa);
            pose(&b, &qb);
            ++checked;
            count = rg_collide_shapes(&a, &b, 0, &m);
            contacts += count > 0;
            for (k = 0; k < count; ++k) worst = fmax(worst, m.depths[k]);
            wrong += !touching_contact_ok(&qa, &qb, &m, count, 10 * SHAPES_TOL);
        }
        rg_hull_destroy(ha);
        rg_hull_destroy(hb);
    }
    rg_test_note("%d pairs of hulls touching edge to edge: %d with a contact, %d wrong, largest depth %.2g",
                 checked, contacts, wrong, worst);
    ENSURE(wrong == 0);
    ENSURE(checked > 1500);
}

/* Found by tests/fuzz/fuzz_shapes.c: a capsule of radius 0.02 from (0.828125, 0, 0) to the
   origin and the hull of (0.015625, 0.015625, 0.125), (0.125, 0, 0.0625), (0.109375, 2^-132,
   2^-132), (0.2890625, 0.0390625, 0.0546875), (-0.125, 0, 0) at the origin, margin 0: the core
   lies along the hull's edge on the x axis, in the planes of both faces there. The face of least
   overlap (by rounding) clipped the core to its side planes, and the side plane through that
   edge, 2.4e-40 from the core, cut it away entirely; the fallback took the core's lower end,
   (0.828125, 0, 0), 0.54 off the hull. Now a core lying in a side plane within rounding is not
   cut by it: two points along the edge, depth the radius. Then 2000 capsules lying along an edge
   of a random turned hull, overlapping it in part or beyond both ends: points on both shapes,
   depth the radius (before: 316 wrong, points or depths up to 170 r off; now none, 2.7e-4 r). */
static void test_shapes_collide_capsule_lying_along_a_hull_edge(void) {
    static const rg_vec3 corners[5] = {{0.015625f, 0.015625f, 0.125f}, {0.125f, 0, 0.0625f},
                                       {0.109375f, 1.83670992e-40f, 1.83670992e-40f},
                                       {0.2890625f, 0.0390625f, 0.0546875f}, {-0.125f, 0, 0}};
    rg_hull *h = rg_hull_create(corners, 5, NULL);
    rg_convex_shape a, b;
    rg_manifold m;
    rg_vec3 points[8];
    posed q;
    int i, k, count, wrong = 0, checked = 0;
    double worst = 0;
    ENSURE(h);
    a = test_capsule_shape(rg_v3(0.828125f, 0, 0), rg_v3(0, 0, 0), 0.02f);
    b = test_hull_shape(h, rg_v3(0, 0, 0), rg_quat_identity());
    pose(&b, &q);
    count = rg_collide_shapes(&a, &b, 0, &m);
    ENSURE(count >= 1);
    ensure_round_on_hull(&a, &q, &m, count, 0.02);
    rg_hull_destroy(h);
    rg_test_seed(4177);
    for (i = 0; i < 2000; ++i) {
        int v[2], f[2];
        rg_vec3 position = rg_v3((rg_real)rg_test_uniform(-2, 2), (rg_real)rg_test_uniform(-2, 2),
                                 (rg_real)rg_test_uniform(-2, 2)), p0, p1, d;
        rg_quat turn = rg_test_rotation();
        double u0 = rg_test_uniform(-1, 0.5), u1 = rg_test_uniform(0.5, 2), off = 0;
        rg_real r = (rg_real)rg_test_uniform(0.005, 0.1);
        for (k = 0; k < 8; ++k) points[k] = rg_v3((rg_real)rg_test_uniform(-1, 1), (rg_real)rg_test_uniform(-1, 1),
                                                  (rg_real)rg_test_uniform(-1, 1));
        h = rg_hull_create(points, 8, NULL);
        if (!h) continue;
        rg_hull_edge(h, (int)(rg_test_random() * rg_hull_edge_count(h)), v, f);
        p0 = rg_hull_vertex(h, v[0]);
        d = rg_v3_sub(rg_hull_vertex(h, v[1]), p0);
        p1 = rg_v3_madd(p0, d, (rg_real)u1);
        p0 = rg_v3_madd(p0, d, (rg_real)u0);
        a = test_capsule_shape(rg_v3_add(position, rg_quat_rotate(turn, p0)), rg_v3_add(position, rg_quat_rotate(turn, p1)), r);
        b = test_hull_shape(h, position, turn);
        pose(&b, &q);
        ++checked;
        count = rg_collide_shapes(&a, &b, 0, &m);
        for (k = 0; k < count; ++k) {
            off = fmax(off, fabs(hull_signed_distance(&q, dv_of(m.points[k]))));
            off = fmax(off, fabs(shape_signed_distance(&a, NULL, dv_madd(dv_of(m.points[k]), dv_of(m.normal), -m.depths[k]))));
            off = fmax(off, fabs(m.depths[k] - r));
        }
        worst = fmax(worst, off / r);
        wrong += count == 0 || off > 1e-3 * r;
        rg_hull_destroy(h);
    }
    rg_test_note("%d capsules lying along a hull edge: %d wrong, largest point or depth off %.2g r", checked, wrong, worst);
    ENSURE(wrong == 0);
    ENSURE(checked > 1500);
}

/* Found by tests/fuzz/fuzz_shapes.c: a capsule of radius 0.785625 from (2.5e-31, 2.5e-31,
   2.5e-31) to (2.5e-31, -0.125, 0) and the hull of (0.765625, -0.109375, 0.765625), (0.765625,
   -0.234375, 0.765625), (0.4609375, 0.765625, 0.765625), (0.765625, 0.765625, -0.234375), (0,
   0.03125, 0), (0, 0, 0) at the origin, margin 0: the core starts at the corner at the origin
   and runs along the line of the edge from there to (0, 0.03125, 0), away from the edge, in the
   plane of a face: it touches the hull at that corner only. Its separation from that face rounded to 1.5e-8, the core left
   the face's prism at t = -3.5e-31, and the fallback took the core's lower end, (0, -0.125, 0),
   0.12 off the hull. Now the face's boundary point closest to the core: the corner. Then 2000
   capsules starting at a vertex of a random turned hull, half along an edge's line and half in
   a face's plane away from the face's centroid: points on both shapes, the deepest as deep as
   the radius (before: 20 wrong, points or depths up to 43 r off; now none, 1.2e-3 r: a second
   point of a capsule lying within 3 degrees of a face). */
static void test_shapes_collide_capsule_touching_a_hull_corner(void) {
    static const rg_vec3 corners[6] = {{0.765625f, -0.109375f, 0.765625f}, {0.765625f, -0.234375f, 0.765625f},
                                       {0.4609375f, 0.765625f, 0.765625f}, {0.765625f, 0.765625f, -0.234375f},
                                       {0, 0.03125f, 0}, {0, 0, 0}};
    rg_hull *h = rg_hull_create(corners, 6, NULL);
    rg_convex_shape a, b;
    rg_manifold m;
    rg_vec3 points[8];
    posed q;
    int i, k, count, wrong = 0, checked = 0;
    double worst = 0;
    ENSURE(h);
    a = test_capsule_shape(rg_v3(2.50000001e-31f, 2.50000001e-31f, 2.50000001e-31f), rg_v3(2.50000001e-31f, -0.125f, 0),
                           0.785624981f);
    b = test_hull_shape(h, rg_v3(0, 0, 0), rg_quat_identity());
    pose(&b, &q);
    count = rg_collide_shapes(&a, &b, 0, &m);
    ENSURE(count >= 1);
    ensure_round_on_hull(&a, &q, &m, count, 0.785624981);
    rg_hull_destroy(h);
    rg_test_seed(6211);
    for (i = 0; i < 2000; ++i) {
        int v[2], f[2], ids[64], n;
        rg_vec3 position = rg_v3((rg_real)rg_test_uniform(-2, 2), (rg_real)rg_test_uniform(-2, 2),
                                 (rg_real)rg_test_uniform(-2, 2)), p0, away = rg_v3(0, 0, 0);
        rg_quat turn = rg_test_rotation();
        double length = rg_test_uniform(0.1, 2), off = 0;
        rg_real r = (rg_real)rg_test_uniform(0.005, 0.5);
        for (k = 0; k < 8; ++k) points[k] = rg_v3((rg_real)rg_test_uniform(-1, 1), (rg_real)rg_test_uniform(-1, 1),
                                                  (rg_real)rg_test_uniform(-1, 1));
        h = rg_hull_create(points, 8, NULL);
        if (!h) continue;
        if (i % 2 == 0) {   /* on along an edge's line, beyond its first vertex */
            rg_hull_edge(h, (int)(rg_test_random() * rg_hull_edge_count(h)), v, f);
            p0 = rg_hull_vertex(h, v[0]);
            away = rg_v3_sub(p0, rg_hull_vertex(h, v[1]));
        } else {            /* in a face's plane, from a corner away from its centroid */
            int face = (int)(rg_test_random() * rg_hull_face_count(h));
            n = rg_hull_face_vertices(h, face, ids, 64);
            for (k = 0; k < n; ++k) away = rg_v3_add(away, rg_hull_vertex(h, ids[k]));
            p0 = rg_hull_vertex(h, ids[(int)(rg_test_random() * n)]);
            away = rg_v3_sub(p0, rg_v3_scale(away, 1 / (rg_real)n));
        }
        away = rg_v3_scale(rg_v3_normalize(away), (rg_real)length);
        a = test_capsule_shape(rg_v3_add(position, rg_quat_rotate(turn, p0)),
                               rg_v3_add(position, rg_quat_rotate(turn, rg_v3_add(p0, away))), r);
        b = test_hull_shape(h, position, turn);
        pose(&b, &q);
        ++checked;
        count = rg_collide_shapes(&a, &b, 0, &m);
        /* a capsule within 3 degrees of a face's plane gets a second point, its depth measured
           along the one normal: on the capsule within r (1 - cos 3 degrees) */
        for (k = 0; k < count; ++k) {
            off = fmax(off, fabs(hull_signed_distance(&q, dv_of(m.points[k]))));
            off = fmax(off, fabs(shape_signed_distance(&a, NULL, dv_madd(dv_of(m.points[k]), dv_of(m.normal), -m.depths[k]))));
        }
        if (count > 0) off = fmax(off, fabs(m.depths[0] - r));
        worst = fmax(worst, off / r);
        wrong += count == 0 || off > 2e-3 * r;
        rg_hull_destroy(h);
    }
    rg_test_note("%d capsules touching a hull at a corner: %d wrong, largest point or depth off %.2g r", checked, wrong, worst);
    ENSURE(wrong == 0);
    ENSURE(checked > 1500);
}

/* Found by tests/fuzz/fuzz_shapes.c: a capsule of radius 0.02 from (-0.0625, 0, 0) to
   (0.671875, 0, 0.015625) and the tetrahedron (0.3359375, 0, 0.3671875), (0.875, 0.75, 0),
   (-0.3828125, 0, 0.03125), (0, 0, 0): the core lies in the plane of the face y = 0 and crosses
   it near the corner at the origin. GJK stalled 3.3e-6 from it (above its touching threshold)
   with a direction of rounding, -x: the point, moved back by its depth, was 0.0196 inside the
   capsule. Now a core that reaches behind every face plane (within rounding) touches, and the
   separating axes answer: the face's normal, depth 0.02. Then 2000 capsules lying in the plane
   of a face of a random hull and crossing it at a random point: the face's normal (within
   1e-3), depth the radius, the points on both shapes (before: 12 wrong, GJK stalled up to
   1.3e-4 away). */
static void test_shapes_collide_capsule_lying_in_a_face_plane(void) {
    static const rg_vec3 tetrahedron[4] = {{0.3359375f, 0, 0.3671875f}, {0.875f, 0.75f, 0}, {-0.3828125f, 0, 0.03125f},
                                           {0, 0, 0}};
    rg_hull *h = rg_hull_create(tetrahedron, 4, NULL);
    rg_convex_shape a = test_capsule_shape(rg_v3(-0.0625f, 0, 0), rg_v3(0.671875f, 0, 0.015625f), 0.02f), b;
    rg_manifold m;
    posed q;
    int i, k, wrong = 0, checked = 0;
    double worst = 0;
    ENSURE(h);
    b = test_hull_shape(h, rg_v3(0, 0, 0), rg_quat_identity());
    ENSURE(rg_collide_shapes(&a, &b, 0, &m) >= 1);
    ENSURE_V3_NEAR(m.normal, rg_v3(0, -1, 0), SHAPES_TOL);
    ENSURE_NEAR(m.depths[0], 0.02, SHAPES_TOL);
    rg_hull_destroy(h);
    rg_test_seed(2341);
    for (i = 0; i < 2000; ++i) {
        rg_vec3 points[8], corner[3], inside, along, normal;
        int face, ids[3];
        double w0 = rg_test_random(), w1 = rg_test_random() * (1 - w0), half = rg_test_uniform(0.05, 1);
        rg_real r = (rg_real)rg_test_uniform(0.005, 0.1);
        for (k = 0; k < 8; ++k) points[k] = rg_v3((rg_real)rg_test_uniform(-1, 1), (rg_real)rg_test_uniform(-1, 1),
                                                  (rg_real)rg_test_uniform(-1, 1));
        h = rg_hull_create(points, 8, NULL);
        if (!h) continue;
        face = (int)(rg_test_random() * rg_hull_face_count(h));
        rg_hull_face_vertices(h, face, ids, 3);
        for (k = 0; k < 3; ++k) corner[k] = rg_hull_vertex(h, ids[k]);
        normal = rg_hull_face_normal(h, face);
        inside = rg_v3_add(rg_v3_scale(corner[0], (rg_real)w0),
                           rg_v3_add(rg_v3_scale(corner[1], (rg_real)w1), rg_v3_scale(corner[2], (rg_real)(1 - w0 - w1))));
        along = rg_v3_normalize(rg_v3_cross(normal, rg_test_unit_vector()));
        a = test_capsule_shape(rg_v3_madd(inside, along, (rg_real)-half), rg_v3_madd(inside, along, (rg_real)half), r);
        b = test_hull_shape(h, rg_v3(0, 0, 0), rg_quat_identity());
        pose(&b, &q);
        ++checked;
        if (rg_collide_shapes(&a, &b, 0, &m) == 0) {
            ++wrong;
        } else {
            double normal_error = rg_v3_length(rg_v3_sub(m.normal, normal)), off = 0;
            for (k = 0; k < m.count; ++k) {
                off = fmax(off, fabs(hull_signed_distance(&q, dv_of(m.points[k]))));
                off = fmax(off, fabs(shape_signed_distance(&a, NULL, dv_madd(dv_of(m.points[k]), dv_of(m.normal), -m.depths[k]))));
            }
            worst = fmax(worst, off / r);
            wrong += normal_error > 1e-3 || fabs(m.depths[0] - r) > 1e-3 * r || off > 1e-3 * r;
        }
        rg_hull_destroy(h);
    }
    rg_test_note("%d capsules lying in a hull face's plane across the face: %d wrong, largest point off a shape %.2g r",
                 checked, wrong, worst);
    ENSURE(wrong == 0);
    ENSURE(checked > 1500);
}

void rg_tests_shapes_collide(void) {
    RUN_TEST(test_shapes_collide_sphere_sphere);
    RUN_TEST(test_shapes_collide_sphere_capsule);
    RUN_TEST(test_shapes_collide_capsule_capsule_crossed);
    RUN_TEST(test_shapes_collide_capsule_capsule_parallel);
    RUN_TEST(test_shapes_collide_sphere_box_face_edge_corner);
    RUN_TEST(test_shapes_collide_sphere_inside_box_deep);
    RUN_TEST(test_shapes_collide_capsule_lying_on_box);
    RUN_TEST(test_shapes_collide_capsule_inside_box);
    RUN_TEST(test_shapes_collide_swap_flips);
    RUN_TEST(test_shapes_collide_random_against_brute_force);
    RUN_TEST(test_shapes_collide_grid_ties);
    RUN_TEST(test_shapes_collide_small_sphere_by_big_box);
    RUN_TEST(test_shapes_collide_feature_ids_stable);
    RUN_TEST(test_shapes_collide_hull_pairs_as_rg_collide_hulls);
    RUN_TEST(test_shapes_collide_bad_input);
    RUN_TEST(test_shapes_collide_long_and_tiny_capsules_cross);
    RUN_TEST(test_shapes_collide_huge_capsules_at_60_degrees_one_point);
    RUN_TEST(test_shapes_collide_sphere_centred_on_capsule_axis);
    RUN_TEST(test_shapes_collide_skew_capsules_points_on_both);
    RUN_TEST(test_shapes_collide_sphere_centre_inside_thin_box);
    RUN_TEST(test_shapes_collide_capsule_on_vertex_of_hull_with_short_edge);
    RUN_TEST(test_shapes_collide_hulls_touching_at_a_corner);
    RUN_TEST(test_shapes_collide_edge_lying_across_a_bar);
    RUN_TEST(test_shapes_collide_hull_edges_crossing_exactly);
    RUN_TEST(test_shapes_collide_capsule_lying_in_a_face_plane);
    RUN_TEST(test_shapes_collide_capsule_lying_along_a_hull_edge);
    RUN_TEST(test_shapes_collide_capsule_touching_a_hull_corner);
}
