/* libFuzzer harness: rg_collide_shapes on two convex shapes (spheres, capsules, hulls: boxes or
   the hulls of a few fuzzed points) and rg_collide_triangle on a shape and a triangle, with
   sizes, poses, a common scale and offset and margins from the fuzzer, NaN and infinities
   included. Checked:
     - the count is out->count, within [0, RG_MANIFOLD_MAX]; NULL shapes, triangles or out, an
       invalid shape (a radius <= 0, values non-finite or beyond 1e15, another type, a hull that
       did not build), a triangle with collinear corners or a margin of +infinity give 0;
     - contacts have a unit normal and finite points and depths; a triangle's contact normal is
       on its front side, and a shape whose centre is behind the triangle's plane has none;
     - a pair of different types gives, swapped, the same manifold flipped (one routine);
     - against a brute force in double (distances of points to segments, hull faces and the
       triangle, minimised along cores by golden section; a separating-axis lower bound and a
       feature-pair upper bound for hulls): no contact when the shapes are apart by more than
       the margin; a contact when round shapes are closer than the margin (a shape and a
       triangle: with the shape's core in front of it), when hulls overlap (a hull and a
       triangle: when the triangle's front normal is clearly the axis of least overlap; others
       may point to its back and be dropped); every point on B's surface and, moved back
       by its depth along the normal, on A's (a triangle's point on its plane, on the triangle
       when all its edges are active, or within a round shape's radius of it when its core
       crosses the triangle; an inactive edge or corner measures depth from the plane,
       so a shape beside the triangle may touch it within the margin while further away);
     within a band of 2e-3 of the pair's size plus rounding of the coordinates' magnitude.
   Build: clang -fsanitize=fuzzer,address,undefined (see `make fuzz`). */
#define RIGID_IMPLEMENTATION
#include "rigid.h"
#include "fuzz_common.h"

static void fuzz_fail(const char *what) {
    fprintf(stderr, "fuzz_shapes: %s\n", what);
    abort();
}

/* ---- vectors in double ------------------------------------------------------------------------ */

typedef struct dvec { double x, y, z; } dvec;
static dvec dv(double x, double y, double z) { dvec v; v.x = x; v.y = y; v.z = z; return v; }
static dvec dv_of(rg_vec3 v) { return dv((double)v.x, (double)v.y, (double)v.z); }
static dvec dv_add(dvec a, dvec b) { return dv(a.x + b.x, a.y + b.y, a.z + b.z); }
static dvec dv_sub(dvec a, dvec b) { return dv(a.x - b.x, a.y - b.y, a.z - b.z); }
static dvec dv_scale(dvec a, double s) { return dv(a.x * s, a.y * s, a.z * s); }
static dvec dv_madd(dvec a, dvec b, double s) { return dv(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s); }
static double dv_dot(dvec a, dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static dvec dv_cross(dvec a, dvec b) { return dv(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static double dv_length(dvec a) { return sqrt(dv_dot(a, a)); }
static double dv_max_abs(dvec a) { return fmax(fabs(a.x), fmax(fabs(a.y), fabs(a.z))); }

/* q (normalised here) applied to v: v + 2 w (u x v) + 2 u x (u x v) */
static dvec dv_rotate(rg_quat q, dvec v) {
    double l = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
    dvec u = dv(q.x / l, q.y / l, q.z / l), t = dv_scale(dv_cross(u, v), 2);
    return dv_add(dv_madd(v, t, q.w / l), dv_cross(u, t));
}

/* ---- shapes in double, world frame ------------------------------------------------------------ */

enum { MAX_V = 16, MAX_F = 32, MAX_E = 48, MAX_POINTS = 12 };

/* A sphere or capsule (core p0 p1, radius r), a hull (vertices, faces, edges) or a triangle
   (RG_SHAPE_MESH: three vertices, one face, three edges) */
typedef struct solid {
    rg_shape_type type;
    dvec p0, p1;
    double r;
    int nv, nf, ne;
    dvec v[MAX_V], n[MAX_F];
    double d[MAX_F];
    int face_size[MAX_F], face[MAX_F][MAX_V], edge[MAX_E][2];
    dvec centre;        /* sphere's centre, capsule's midpoint, hull's centroid, triangle's centroid */
    double extent;      /* a ball of this radius about centre holds it */
    double magnitude;   /* its largest coordinate magnitude */
} solid;

static double point_segment(dvec p, dvec a, dvec b) {
    dvec e = dv_sub(b, a);
    double ee = dv_dot(e, e), t = ee > 0 ? dv_dot(dv_sub(p, a), e) / ee : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return dv_length(dv_sub(p, dv_madd(a, e, t)));
}

/* distance from p to face f's polygon: its plane's where p projects inside, else its sides' */
static double point_polygon(const solid *s, int f, dvec p) {
    double height = dv_dot(s->n[f], p) - s->d[f], best = 1e300;
    dvec q = dv_madd(p, s->n[f], -height);
    int k, m = s->face_size[f], inside = 1;
    for (k = 0; k < m; ++k) {
        dvec a = s->v[s->face[f][k]], b = s->v[s->face[f][(k + 1) % m]];
        if (dv_dot(dv_cross(dv_sub(b, a), dv_sub(q, a)), s->n[f]) < 0) inside = 0;
    }
    if (inside) return fabs(height);
    for (k = 0; k < m; ++k) {
        double e = point_segment(p, s->v[s->face[f][k]], s->v[s->face[f][(k + 1) % m]]);
        if (e < best) best = e;
    }
    return best;
}

/* signed distance from p to the solid's surface (a triangle's: unsigned), negative inside */
static double signed_distance(const solid *s, dvec p) {
    int f, inside = 1;
    double deepest = -1e300, best = 1e300;
    if (s->type == RG_SHAPE_SPHERE || s->type == RG_SHAPE_CAPSULE) return point_segment(p, s->p0, s->p1) - s->r;
    if (s->type == RG_SHAPE_MESH) return point_polygon(s, 0, p);
    for (f = 0; f < s->nf; ++f) {
        double height = dv_dot(s->n[f], p) - s->d[f], e = point_polygon(s, f, p);
        if (height > 0) inside = 0;
        if (height > deepest) deepest = height;
        if (e < best) best = e;
    }
    return inside ? deepest : best;
}

/* the least of a convex function of the point a + t (b - a), t in [0, 1]: golden section */
typedef double (*point_function)(const void *context, dvec p);
static double segment_minimum(point_function f, const void *context, dvec a, dvec b) {
    const double g = 0.6180339887498949;
    dvec e = dv_sub(b, a);
    double lo = 0, hi = 1, x1 = hi - g, x2 = lo + g, f1, f2, best;
    int i;
    f1 = f(context, dv_madd(a, e, x1));
    f2 = f(context, dv_madd(a, e, x2));
    for (i = 0; i < 90 && dv_length(e) > 0; ++i) {
        if (f1 < f2) { hi = x2; x2 = x1; f2 = f1; x1 = hi - g * (hi - lo); f1 = f(context, dv_madd(a, e, x1)); }
        else { lo = x1; x1 = x2; f1 = f2; x2 = lo + g * (hi - lo); f2 = f(context, dv_madd(a, e, x2)); }
    }
    best = fmin(f1, f2);
    best = fmin(best, f(context, a));
    return fmin(best, f(context, b));
}
/* the core's (or a polytope's) signed distance function, without a round shape's radius */
static double core_distance(const void *context, dvec p) {
    const solid *s = (const solid *)context;
    if (s->type == RG_SHAPE_SPHERE || s->type == RG_SHAPE_CAPSULE) return point_segment(p, s->p0, s->p1);
    return signed_distance(s, p);
}

/* Bounds on the gap between a and b (negative: overlap): lower and upper. Round against
   anything: the core's least distance, exact up to the search (lower = upper). Polytopes: the
   largest separation along the separating axes (face normals, edge pairs' cross products) is a
   lower bound; an upper one is the least signed distance of one's vertices and edges from the
   other (each a distance between points of both, or negative when they overlap). A polytope
   against a triangle (b) also gives the separation along the triangle's front normal (a
   pushed that way) and the largest along the other axes. */
static void gap_bounds(const solid *a, const solid *b, double *lower, double *upper, double *front, double *others) {
    int a_round = a->type == RG_SHAPE_SPHERE || a->type == RG_SHAPE_CAPSULE;
    int b_round = b->type == RG_SHAPE_SPHERE || b->type == RG_SHAPE_CAPSULE;
    int i, j, k, pass;
    double best;
    if (a_round || b_round) {
        const solid *round = a_round ? a : b, *other = a_round ? b : a;
        double g = segment_minimum(core_distance, other, round->p0, round->p1) - round->r;
        if (a_round && b_round) g -= other->r;
        *lower = *upper = g;
        return;
    }
    best = 1e300;
    for (pass = 0; pass < 2; ++pass) {
        const solid *s = pass ? b : a, *o = pass ? a : b;
        for (i = 0; i < s->nv; ++i) best = fmin(best, signed_distance(o, s->v[i]));
        for (i = 0; i < s->ne; ++i) best = fmin(best, segment_minimum(core_distance, o, s->v[s->edge[i][0]], s->v[s->edge[i][1]]));
    }
    *upper = best;
    best = *others = -1e300;
    *front = 1e300;
    for (pass = 0; pass < 2 + a->ne * b->ne; ++pass) {
        dvec axis;
        double a_lo = 1e300, a_hi = -1e300, b_lo = 1e300, b_hi = -1e300, l;
        if (pass < 2) {
            const solid *s = pass ? b : a;
            for (k = 0; k < s->nf; ++k) {
                double s_lo = 1e300, s_hi = -1e300, o_lo = 1e300, o_hi = -1e300;
                const solid *o = pass ? a : b;
                for (i = 0; i < s->nv; ++i) { double x = dv_dot(s->n[k], s->v[i]); s_lo = fmin(s_lo, x); s_hi = fmax(s_hi, x); }
                for (i = 0; i < o->nv; ++i) { double x = dv_dot(s->n[k], o->v[i]); o_lo = fmin(o_lo, x); o_hi = fmax(o_hi, x); }
                best = fmax(best, fmax(o_lo - s_hi, s_lo - o_hi));
                if (pass == 1 && b->type == RG_SHAPE_MESH) {
                    *front = o_lo - s_hi;
                    *others = fmax(*others, s_lo - o_hi);
                } else {
                    *others = fmax(*others, fmax(o_lo - s_hi, s_lo - o_hi));
                }
            }
            continue;
        }
        i = (pass - 2) / b->ne;
        j = (pass - 2) % b->ne;
        axis = dv_cross(dv_sub(a->v[a->edge[i][1]], a->v[a->edge[i][0]]), dv_sub(b->v[b->edge[j][1]], b->v[b->edge[j][0]]));
        l = dv_length(axis);
        if (!(l > 1e-9 * (a->extent + b->extent) * (a->extent + b->extent))) continue;
        axis = dv_scale(axis, 1 / l);
        for (k = 0; k < a->nv; ++k) { double x = dv_dot(axis, a->v[k]); a_lo = fmin(a_lo, x); a_hi = fmax(a_hi, x); }
        for (k = 0; k < b->nv; ++k) { double x = dv_dot(axis, b->v[k]); b_lo = fmin(b_lo, x); b_hi = fmax(b_hi, x); }
        best = fmax(best, fmax(a_lo - b_hi, b_lo - a_hi));
        *others = fmax(*others, fmax(a_lo - b_hi, b_lo - a_hi));
    }
    *lower = best;
}

/* ---- shapes from the fuzzer ------------------------------------------------------------------- */

typedef struct config {
    double scale;
    dvec offset;
    int wild;
} config;

static rg_vec3 placed(const config *c, double x, double y, double z) {
    return rg_v3((rg_real)(x * c->scale + c->offset.x), (rg_real)(y * c->scale + c->offset.y),
                 (rg_real)(z * c->scale + c->offset.z));
}
static rg_vec3 fuzz_point(fuzz_reader *r, const config *c) {
    double x[3];
    if (c->wild) {
        fuzz_numbers3(r, x);
        return rg_v3((rg_real)x[0], (rg_real)x[1], (rg_real)x[2]);
    }
    fuzz_plains3(r, x);
    return placed(c, x[0] / 4, x[1] / 4, x[2] / 4);
}
static rg_real fuzz_radius(fuzz_reader *r, const config *c) {
    if (c->wild) return (rg_real)fuzz_number(r);
    return (rg_real)((0.02 + fabs(fuzz_plain(r)) / 8) * c->scale);
}

/* A shape (kind % 4: sphere, capsule, hull, an invalid type), its hull built into *hull. */
static void fuzz_shape(fuzz_reader *r, const config *c, rg_convex_shape *s, rg_hull **hull) {
    uint8_t kind = fuzz_u8(r);
    memset(s, 0, sizeof *s);
    *hull = NULL;
    switch (kind % 4) {
    case 0:
        s->type = RG_SHAPE_SPHERE;
        s->center_a = s->center_b = fuzz_point(r, c);
        s->radius = fuzz_radius(r, c);
        break;
    case 1:
        s->type = RG_SHAPE_CAPSULE;
        s->center_a = fuzz_point(r, c);
        s->center_b = fuzz_point(r, c);
        s->radius = fuzz_radius(r, c);
        break;
    case 2: {
        rg_vec3 points[MAX_POINTS], axis;
        double x[3], angle;
        int n = 0, i;
        s->type = RG_SHAPE_HULL;
        if (kind & 4) {                               /* a box */
            if (c->wild) fuzz_numbers3(r, x);
            else fuzz_plains3(r, x);
            if (!c->wild)
                for (i = 0; i < 3; ++i) x[i] = (0.02 + fabs(x[i]) / 8) * c->scale;
            *hull = rg_hull_create_box(rg_v3((rg_real)x[0], (rg_real)x[1], (rg_real)x[2]), NULL);
        } else {                                      /* the hull of 4 to 12 points */
            n = 4 + fuzz_u8(r) % (MAX_POINTS - 3);
            for (i = 0; i < n; ++i) {
                fuzz_plains3(r, x);
                points[i] = rg_v3((rg_real)(x[0] / 8 * c->scale), (rg_real)(x[1] / 8 * c->scale), (rg_real)(x[2] / 8 * c->scale));
            }
            *hull = rg_hull_create(points, n, NULL);
        }
        s->hull = *hull;
        s->position = fuzz_point(r, c);
        if (c->wild) {
            s->orientation.x = (rg_real)fuzz_number(r); s->orientation.y = (rg_real)fuzz_number(r);
            s->orientation.z = (rg_real)fuzz_number(r); s->orientation.w = (rg_real)fuzz_number(r);
        } else {
            fuzz_plains3(r, x);
            axis = rg_v3((rg_real)x[0], (rg_real)x[1], (rg_real)x[2]);
            angle = fuzz_plain(r);
            s->orientation = rg_quat_from_axis_angle(axis, (rg_real)angle);
        }
        break;
    }
    default:
        s->type = (kind & 4) ? RG_SHAPE_MESH : (rg_shape_type)(int)(int8_t)kind;
        s->center_a = s->center_b = fuzz_point(r, c);
        s->radius = 1;
        break;
    }
}

static int real_is_sane(rg_real x) { return isfinite((double)x) && fabs((double)x) <= 1e15; }
static int v3_is_sane(rg_vec3 v) { return real_is_sane(v.x) && real_is_sane(v.y) && real_is_sane(v.z); }

/* Would the collision take the shape (rg_collide_shapes' list of invalid shapes)? */
static int shape_is_valid(const rg_convex_shape *s) {
    if (s->type == RG_SHAPE_HULL)
        return s->hull && v3_is_sane(s->position) && rg_quat_is_finite(s->orientation);
    if (s->type != RG_SHAPE_SPHERE && s->type != RG_SHAPE_CAPSULE) return 0;
    return s->radius > 0 && real_is_sane(s->radius) && v3_is_sane(s->center_a) &&
           (s->type == RG_SHAPE_SPHERE || v3_is_sane(s->center_b));
}

static void solid_of_shape(const rg_convex_shape *s, solid *out) {
    int i;
    memset(out, 0, sizeof *out);
    out->type = s->type;
    if (s->type != RG_SHAPE_HULL) {
        out->p0 = dv_of(s->center_a);
        out->p1 = s->type == RG_SHAPE_CAPSULE ? dv_of(s->center_b) : out->p0;
        out->r = (double)s->radius;
        out->centre = dv_scale(dv_add(out->p0, out->p1), 0.5);
        out->extent = dv_length(dv_sub(out->p1, out->p0)) / 2 + out->r;
        out->magnitude = fmax(dv_max_abs(out->p0), dv_max_abs(out->p1));
        return;
    }
    out->nv = rg_hull_vertex_count(s->hull);
    out->nf = rg_hull_face_count(s->hull);
    out->ne = rg_hull_edge_count(s->hull);
    if (out->nv > MAX_V || out->nf > MAX_F || out->ne > MAX_E) fuzz_fail("a hull larger than the harness's arrays");
    for (i = 0; i < out->nv; ++i) {
        out->v[i] = dv_add(dv_of(s->position), dv_rotate(s->orientation, dv_of(rg_hull_vertex(s->hull, i))));
        out->magnitude = fmax(out->magnitude, dv_max_abs(out->v[i]));
    }
    for (i = 0; i < out->nf; ++i) {
        out->n[i] = dv_rotate(s->orientation, dv_of(rg_hull_face_normal(s->hull, i)));
        out->face_size[i] = rg_hull_face_vertices(s->hull, i, out->face[i], MAX_V);
        out->d[i] = dv_dot(out->n[i], out->v[out->face[i][0]]);
    }
    for (i = 0; i < out->ne; ++i) {
        int faces[2];
        rg_hull_edge(s->hull, i, out->edge[i], faces);
    }
    out->centre = dv_add(dv_of(s->position), dv_rotate(s->orientation, dv_of(rg_hull_centroid(s->hull))));
    for (i = 0; i < out->nv; ++i) out->extent = fmax(out->extent, dv_length(dv_sub(out->v[i], out->centre)));
}

static void solid_of_triangle(const rg_vec3 t[3], solid *out) {
    int k;
    dvec area;
    memset(out, 0, sizeof *out);
    out->type = RG_SHAPE_MESH;
    out->nv = 3;
    out->nf = 1;
    out->ne = 3;
    for (k = 0; k < 3; ++k) {
        out->v[k] = dv_of(t[k]);
        out->face[0][k] = k;
        out->edge[k][0] = k;
        out->edge[k][1] = (k + 1) % 3;
        out->magnitude = fmax(out->magnitude, dv_max_abs(out->v[k]));
    }
    out->face_size[0] = 3;
    area = dv_cross(dv_sub(out->v[1], out->v[0]), dv_sub(out->v[2], out->v[0]));
    out->n[0] = dv_scale(area, 1 / dv_length(area));
    out->d[0] = dv_dot(out->n[0], out->v[0]);
    out->centre = dv_scale(dv_add(dv_add(out->v[0], out->v[1]), out->v[2]), 1.0 / 3);
    for (k = 0; k < 3; ++k) out->extent = fmax(out->extent, dv_length(dv_sub(out->v[k], out->centre)));
}

static double triangle_area(const rg_vec3 t[3]) {
    dvec a = dv_of(t[0]);
    return dv_length(dv_cross(dv_sub(dv_of(t[1]), a), dv_sub(dv_of(t[2]), a)));
}

/* Not a sliver: the collision's own test (|area| > 8 epsilon longest^2), with a factor of 2 of
   room for the rounding of its float cross product. */
static int triangle_is_valid(const rg_vec3 t[3], double factor) {
    dvec a = dv_of(t[0]), b = dv_of(t[1]), c = dv_of(t[2]);
    double longest = fmax(dv_length(dv_sub(b, a)), fmax(dv_length(dv_sub(c, b)), dv_length(dv_sub(a, c))));
    return v3_is_sane(t[0]) && v3_is_sane(t[1]) && v3_is_sane(t[2]) &&
           dv_length(dv_cross(dv_sub(b, a), dv_sub(c, a))) > factor * 8 * (double)RG__EPSILON * longest * longest;
}

/* ---- the checks ------------------------------------------------------------------------------- */

/* How far (in radians) the collision's float normal of triangle t may lie from the exact one:
   the rounding of its cross product, a few epsilon of the longest edge squared, over the
   cross product's length (twice the area). A slender triangle's normal is known less well. */
static double triangle_normal_rounding(const solid *t) {
    double longest = 0;
    int k;
    for (k = 0; k < 3; ++k) longest = fmax(longest, dv_length(dv_sub(t->v[(k + 1) % 3], t->v[k])));
    return 16 * (double)RG__EPSILON * longest * longest /
           dv_length(dv_cross(dv_sub(t->v[1], t->v[0]), dv_sub(t->v[2], t->v[0])));
}

static void check_basic(const rg_manifold *m, int count) {
    int i;
    if (count != m->count || count < 0 || count > RG_MANIFOLD_MAX) fuzz_fail("count out of range or not out->count");
    if (count > 0 && !(fabs((double)rg_v3_length(m->normal) - 1) < 1e-3)) fuzz_fail("normal not unit");
    for (i = 0; i < count; ++i)
        if (!rg_v3_is_finite(m->points[i]) || !isfinite((double)m->depths[i])) fuzz_fail("point or depth not finite");
}

/* The brute-force checks of m = collide(a, b); b a triangle when is_triangle. */
static void check_against_brute_force(const solid *a, const solid *b, unsigned active, double margin,
                                      const rg_manifold *m, int count, int verbose) {
    double size = a->extent + b->extent, magnitude = fmax(a->magnitude, b->magnitude);
    double band = 2e-3 * size + 256 * (double)RG__EPSILON * magnitude, lower, upper, front = 0, others = 0;
    int a_round = a->type == RG_SHAPE_SPHERE || a->type == RG_SHAPE_CAPSULE;
    int b_round = b->type == RG_SHAPE_SPHERE || b->type == RG_SHAPE_CAPSULE;
    int triangle = b->type == RG_SHAPE_MESH, expect = 0, i;
    gap_bounds(a, b, &lower, &upper, &front, &others);
    if (triangle) {
        double front0 = dv_dot(b->n[0], a->p0) - b->d[0], front1 = dv_dot(b->n[0], a->p1) - b->d[0];
        double centre = dv_dot(b->n[0], a->centre) - b->d[0];
        if (centre < -band && count > 0) fuzz_fail("a contact with a shape behind the triangle");
        /* the collision keeps a normal in front of its own (float) triangle normal: in front of the
           exact one up to that normal's rounding (an edge contact beside the triangle, in its
           plane, may lean back by that much) */
        if (count > 0 && !(dv_dot(dv_of(m->normal), b->n[0]) > -triangle_normal_rounding(b)))
            fuzz_fail("a triangle contact's normal on its back side");
        if (a_round) expect = upper < margin - band && front0 > band && front1 > band;
        else expect = upper < -band && front < -band && front > others + band && centre > band;
    } else {
        expect = a_round || b_round ? upper < margin - band : upper < -band;
    }
    if (verbose)
        fprintf(stderr, "gap in [%.9g, %.9g], margin %.9g, band %.3g (size %.3g, magnitude %.3g), count %d\n",
                lower, upper, margin, band, size, magnitude, count);
    /* a contact on an inactive edge or corner measures its depth from the triangle's plane: the
       shape may be further from the triangle itself (beside it, where a neighbour would be) */
    if (count > 0 && lower > margin + band && (!triangle || (active & 7) == 7))
        fuzz_fail("a contact between shapes apart by more than the margin");
    if (count == 0 && expect) fuzz_fail("no contact between shapes closer than the margin");
    for (i = 0; i < count; ++i) {
        dvec p = dv_of(m->points[i]), on_a = dv_madd(p, dv_of(m->normal), -(double)m->depths[i]);
        double on_b_error = triangle ? fabs(dv_dot(b->n[0], p) - b->d[0]) : fabs(signed_distance(b, p));
        double on_a_error = fabs(signed_distance(a, on_a));
        if (verbose)
            fprintf(stderr, "point %d (%.9g %.9g %.9g) depth %.9g: off B %.3g, off A %.3g\n", i, p.x, p.y, p.z,
                    (double)m->depths[i], on_b_error, on_a_error);
        if (on_b_error > band) fuzz_fail("a point off B's surface");
        /* on the triangle (a core through it: the projection of the round part's lowest point,
           up to its radius beside a corner); on an inactive feature the projection of a point of
           A within the margin of the triangle onto its plane */
        if (triangle && signed_distance(b, p) > ((active & 7) == 7 ? band + a->r : margin + 2 * a->extent + band))
            fuzz_fail("a point off the triangle");
        if (on_a_error > band) fuzz_fail("a point moved by its depth off A's surface");
    }
}

/* Swapped pairs of different types: the same routine flipped. */
static void check_flipped(const rg_manifold *m, const rg_manifold *s, double tolerance) {
    int i;
    if (m->count != s->count) fuzz_fail("swapped shapes gave another count");
    for (i = 0; i < m->count; ++i) {
        rg_vec3 on_a = rg_v3_madd(m->points[i], m->normal, -m->depths[i]);
        if (m->depths[i] != s->depths[i] || m->features[i] != s->features[i]) fuzz_fail("swapped shapes gave other depths or ids");
        if (!(dv_length(dv_sub(dv_of(on_a), dv_of(s->points[i]))) <= tolerance)) fuzz_fail("swapped shapes gave other points");
    }
    if (m->count > 0 && (m->normal.x != -s->normal.x || m->normal.y != -s->normal.y || m->normal.z != -s->normal.z))
        fuzz_fail("swapped shapes gave a normal not opposite");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* a common scale and offset: rounding relative to the coordinates, products of squares out
       of float's range (shapes 1e9 wide), subnormal ones */
    static const double scales[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1e-3, 1e3, 1e-6, 1e6, 1e-9, 1e9, 1e-12, 1e13};
    static const double offsets[16] = {0, 0, 0, 0, 0, 0, 0, 0, 10, 1e4, 1e7, 1e10, 1e12, 1e13, 1e14, 1e15};
    fuzz_reader r;
    uint8_t mode, k;
    config ca, cb;
    rg_convex_shape a, b;
    rg_hull *ha = NULL, *hb = NULL;
    rg_vec3 triangle[3];
    unsigned active;
    rg_real margin;
    rg_manifold m, swapped;
    int count, valid, is_triangle, verbose = getenv("FUZZ_VERBOSE") != NULL, i;
    double x[3];
    r.data = data; r.size = size; r.at = 0;
    mode = fuzz_u8(&r);
    is_triangle = mode & 8;
    k = fuzz_u8(&r);
    ca.scale = cb.scale = scales[k % 16];
    fuzz_plains3(&r, x);
    ca.offset = cb.offset = dv_scale(dv(x[0], x[1], x[2]), offsets[k >> 4]);
    ca.wild = mode & 1;
    cb.wild = (mode & 2) != 0;
    fuzz_shape(&r, &ca, &a, &ha);
    if (is_triangle) {
        for (i = 0; i < 3; ++i) triangle[i] = fuzz_point(&r, &cb);
        k = fuzz_u8(&r);
        active = k == 255 ? fuzz_u32(&r) : k % 8u;
    } else {
        fuzz_shape(&r, &cb, &b, &hb);
    }
    margin = (mode & 4) ? (rg_real)fuzz_number(&r) : (rg_real)(fabs(fuzz_plain(&r)) / 64 * ca.scale);
    /* a triangle is surely a sliver when its corners, exact in float, are collinear */
    valid = shape_is_valid(&a) && (double)margin != INFINITY && !(mode & 32) &&
            (is_triangle ? v3_is_sane(triangle[0]) && v3_is_sane(triangle[1]) && v3_is_sane(triangle[2]) &&
                               !(ca.scale == 1 && dv_length(ca.offset) == 0 && !cb.wild && triangle_area(triangle) == 0)
                         : shape_is_valid(&b));
    if (verbose) {
        fprintf(stderr, "a: type %d c (%.9g %.9g %.9g) (%.9g %.9g %.9g) r %.9g; hull %d vertices at (%.9g %.9g %.9g) q (%.9g %.9g %.9g %.9g)\n",
                (int)a.type, (double)a.center_a.x, (double)a.center_a.y, (double)a.center_a.z, (double)a.center_b.x,
                (double)a.center_b.y, (double)a.center_b.z, (double)a.radius, rg_hull_vertex_count(a.hull),
                (double)a.position.x, (double)a.position.y, (double)a.position.z, (double)a.orientation.x,
                (double)a.orientation.y, (double)a.orientation.z, (double)a.orientation.w);
        if (is_triangle)
            fprintf(stderr, "triangle (%.9g %.9g %.9g) (%.9g %.9g %.9g) (%.9g %.9g %.9g) active %u\n", (double)triangle[0].x,
                    (double)triangle[0].y, (double)triangle[0].z, (double)triangle[1].x, (double)triangle[1].y,
                    (double)triangle[1].z, (double)triangle[2].x, (double)triangle[2].y, (double)triangle[2].z, active);
        else
            fprintf(stderr, "b: type %d c (%.9g %.9g %.9g) (%.9g %.9g %.9g) r %.9g; hull %d vertices at (%.9g %.9g %.9g) q (%.9g %.9g %.9g %.9g)\n",
                    (int)b.type, (double)b.center_a.x, (double)b.center_a.y, (double)b.center_a.z, (double)b.center_b.x,
                    (double)b.center_b.y, (double)b.center_b.z, (double)b.radius, rg_hull_vertex_count(b.hull),
                    (double)b.position.x, (double)b.position.y, (double)b.position.z, (double)b.orientation.x,
                    (double)b.orientation.y, (double)b.orientation.z, (double)b.orientation.w);
        for (i = 0; i < rg_hull_vertex_count(a.hull); ++i) {
            rg_vec3 v = rg_hull_vertex(a.hull, i);
            fprintf(stderr, "%s(%.9g %.9g %.9g)%s", i ? " " : "a's hull: ", (double)v.x, (double)v.y, (double)v.z,
                    i + 1 == rg_hull_vertex_count(a.hull) ? "\n" : "");
        }
        for (i = 0; !is_triangle && i < rg_hull_vertex_count(b.hull); ++i) {
            rg_vec3 v = rg_hull_vertex(b.hull, i);
            fprintf(stderr, "%s(%.9g %.9g %.9g)%s", i ? " " : "b's hull: ", (double)v.x, (double)v.y, (double)v.z,
                    i + 1 == rg_hull_vertex_count(b.hull) ? "\n" : "");
        }
        fprintf(stderr, "margin %.9g, mode %d\n", (double)margin, mode);
    }
    memset(&m, 0x5a, sizeof m);
    if (is_triangle)
        count = rg_collide_triangle((mode & 32) && !(mode & 64) ? NULL : &a, (mode & 32) && (mode & 64) ? NULL : triangle,
                                    active, margin, (mode & 16) ? NULL : &m);
    else
        count = rg_collide_shapes((mode & 32) && !(mode & 64) ? NULL : &a, (mode & 32) && (mode & 64) ? NULL : &b, margin,
                                  (mode & 16) ? NULL : &m);
    if (verbose) {
        fprintf(stderr, "count %d", count);
        if (count > 0 && !(mode & 16))
            fprintf(stderr, ", normal (%.9g %.9g %.9g)", (double)m.normal.x, (double)m.normal.y, (double)m.normal.z);
        fprintf(stderr, "\n");
    }
    if (mode & 16) {
        if (count != 0) fuzz_fail("NULL out gave contacts");
    } else if (!valid) {
        if (count != 0 || m.count != 0) fuzz_fail("invalid input gave contacts");
    } else {
        check_basic(&m, count);
        if (!is_triangle && a.type != b.type) {
            rg_collide_shapes(&b, &a, margin, &swapped);
            check_flipped(&swapped, &m, 64 * (double)RG__EPSILON * (fabs((double)m.depths[0]) + 1e-30) +
                                        8 * (double)RG__EPSILON * fmax(dv_max_abs(dv_of(m.points[0])), dv_max_abs(dv_of(swapped.points[0]))));
        }
        /* the brute force: plain numbers (no NaN bits turned into huge ones), sizes above the
           rounding of the coordinates */
        {
            solid sa, sb;
            solid_of_shape(&a, &sa);
            if (is_triangle) solid_of_triangle(triangle, &sb);
            else solid_of_shape(&b, &sb);
            if (!ca.wild && !cb.wild && !(mode & 4) && (!is_triangle || triangle_is_valid(triangle, 4)) &&
                fmax(sa.magnitude, sb.magnitude) < 1e6 * fmin(sa.extent, sb.extent))
                check_against_brute_force(&sa, &sb, is_triangle ? active : 7, margin > 0 ? (double)margin : 0, &m, count,
                                          verbose);
        }
    }
    rg_hull_destroy(ha);
    rg_hull_destroy(hb);
    return 0;
}

#ifdef FUZZ_SEED_MAIN
typedef struct seed_buffer {
    uint8_t bytes[512];
    size_t n;
} seed_buffer;
static void put(seed_buffer *s, int byte) { s->bytes[s->n++] = (uint8_t)byte; }
static void put_plain(seed_buffer *s, int sixteenths) { put(s, 0); put(s, sixteenths); }
static void put_v3(seed_buffer *s, int x, int y, int z) { put_plain(s, x); put_plain(s, y); put_plain(s, z); }
/* mode, scale 1 and no offset */
static void put_start(seed_buffer *s, int mode) { s->n = 0; put(s, mode); put(s, 0); put_v3(s, 0, 0, 0); }
/* the seed in s at another scale (the scale byte's low 4 bits) and offset (its high 4 bits) */
static void write_scaled(const seed_buffer *s, const char *dir, const char *name, int scale_byte) {
    seed_buffer t = *s;
    t.bytes[1] = (uint8_t)scale_byte;
    t.bytes[3] = 16;    /* offset along x: 1 unit of the offset's size */
    fuzz_write_seed(dir, name, t.bytes, t.n);
}
int main(int argc, char **argv) {
    static seed_buffer s;
    if (argc < 2) { fprintf(stderr, "usage: %s directory\n", argv[0]); return 1; }
    /* points in 64ths (plain numbers are sixteenths, the harness divides points by 4), radii and
       hull points in 128ths (and radii 0.02 more) */
    put_start(&s, 0);                                          /* a sphere on a sphere */
    put(&s, 0); put_v3(&s, 0, 10, 0); put_plain(&s, 32);
    put(&s, 0); put_v3(&s, 0, 0, 0); put_plain(&s, 32);
    put_plain(&s, 4);
    fuzz_write_seed(argv[1], "spheres", s.bytes, s.n);
    put_start(&s, 0);                                          /* a capsule across a capsule */
    put(&s, 1); put_v3(&s, -8, 6, 0); put_v3(&s, 8, 6, 0); put_plain(&s, 24);
    put(&s, 1); put_v3(&s, 0, 0, -8); put_v3(&s, 0, 0, 8); put_plain(&s, 24);
    put_plain(&s, 4);
    fuzz_write_seed(argv[1], "capsules", s.bytes, s.n);
    write_scaled(&s, argv[1], "capsules_1e9_at_1e12", 13 | 12 << 4);
    write_scaled(&s, argv[1], "capsules_1e-12", 14);
    put_start(&s, 0);                                          /* a capsule lying on a box */
    put(&s, 1); put_v3(&s, -4, 9, 0); put_v3(&s, 4, 9, 1); put_plain(&s, 16);
    put(&s, 6); put_v3(&s, 48, 32, 48); put_v3(&s, 0, 0, 0); put_v3(&s, 0, 16, 0); put_plain(&s, 0);
    put_plain(&s, 4);
    fuzz_write_seed(argv[1], "capsule_on_box", s.bytes, s.n);
    write_scaled(&s, argv[1], "capsule_on_box_1e6_at_1e10", 11 | 11 << 4);
    put_start(&s, 0);                                          /* a turned box on the hull of 6 points */
    put(&s, 6); put_v3(&s, 48, 48, 48); put_v3(&s, 4, 20, 2); put_v3(&s, 16, 16, 0); put_plain(&s, 8);
    put(&s, 2); put(&s, 2);
    put_v3(&s, -16, 0, -16); put_v3(&s, 16, 0, -16); put_v3(&s, 0, 0, 16); put_v3(&s, 0, 12, 0);
    put_v3(&s, 4, -8, 2); put_v3(&s, -6, 4, 10);
    put_v3(&s, 0, 0, 0); put_v3(&s, 0, 16, 0); put_plain(&s, 0);
    put_plain(&s, 4);
    fuzz_write_seed(argv[1], "box_on_hull", s.bytes, s.n);
    put_start(&s, 8);                                          /* a sphere on a triangle */
    put(&s, 0); put_v3(&s, 2, 3, 1); put_plain(&s, 32);
    put_v3(&s, -16, 0, -16); put_v3(&s, 0, 0, 16); put_v3(&s, 16, 0, -16); put(&s, 5);
    put_plain(&s, 4);
    fuzz_write_seed(argv[1], "sphere_on_triangle", s.bytes, s.n);
    write_scaled(&s, argv[1], "sphere_on_triangle_1e13", 15);
    write_scaled(&s, argv[1], "sphere_on_triangle_at_1e7", 10 << 4);
    put_start(&s, 8);                                          /* a capsule across a triangle's edge */
    put(&s, 1); put_v3(&s, 10, 2, -8); put_v3(&s, 10, 2, 8); put_plain(&s, 24);
    put_v3(&s, -16, 0, -16); put_v3(&s, 0, 0, 16); put_v3(&s, 16, 0, -16); put(&s, 7);
    put_plain(&s, 4);
    fuzz_write_seed(argv[1], "capsule_on_triangle", s.bytes, s.n);
    put_start(&s, 8);                                          /* a turned box on a triangle */
    put(&s, 6); put_v3(&s, 8, 8, 8); put_v3(&s, 1, 3, 0); put_v3(&s, 4, 16, 2); put_plain(&s, 6);
    put_v3(&s, -16, 0, -16); put_v3(&s, 0, 0, 16); put_v3(&s, 16, 0, -16); put(&s, 2);
    put_plain(&s, 4);
    fuzz_write_seed(argv[1], "box_on_triangle", s.bytes, s.n);
    return 0;
}
#endif
