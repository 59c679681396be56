/* World queries (rg_world_ray_cast, _ray_cast_all, _sphere_cast, _overlap_aabb, _overlap_sphere)
   against brute force written here from the public API: every shape's box, distance and ray hit
   computed in double from its pose (rg_body_position, rg_body_orientation) and its geometry
   (spheres, capsules, boxes), over random worlds that have stepped, been moved by
   rg_body_set_transform and gained and lost bodies since. Also the filter (categories and masks,
   the ignored body, sensors), a mesh's front side, and bad input. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

/* ---- a random world and its shapes as the test knows them ----------------------------------- */

enum { QSPHERE, QCAPSULE, QBOX, QMESH };

typedef struct qshape {
    rg_shape_id id;
    rg_body_id body;
    int type;
    rg_vec3 a, b;                 /* body frame: sphere centre (a) or capsule ends; box centre (a) */
    rg_quat turn;                 /* box: orientation in the body frame */
    double half[3];               /* box: half extents */
    double radius;                /* sphere, capsule */
    const rg_hull *hull;          /* box */
    const rg_mesh *mesh;          /* mesh (ray tests only) */
    uint32_t category, mask;
    int is_sensor;
} qshape;

typedef struct qworld {
    rg_world *w;
    rg_hull *hulls[6];
    double hull_half[6][3];
    qshape *shapes;
    int count, capacity;
} qworld;

typedef struct dvec { double x, y, z; } dvec;

static dvec dv(rg_vec3 v) { dvec d; d.x = v.x; d.y = v.y; d.z = v.z; return d; }
static dvec dv_sub(dvec a, dvec b) { dvec d; d.x = a.x - b.x; d.y = a.y - b.y; d.z = a.z - b.z; return d; }
static dvec dv_add(dvec a, dvec b) { dvec d; d.x = a.x + b.x; d.y = a.y + b.y; d.z = a.z + b.z; return d; }
static dvec dv_scale(dvec a, double s) { dvec d; d.x = a.x * s; d.y = a.y * s; d.z = a.z * s; return d; }
static double dv_dot(dvec a, dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static double dv_get(dvec a, int k) { return k == 0 ? a.x : (k == 1 ? a.y : a.z); }

/* q v q* in double, q normalised first (as the engine's poses are) */
static dvec dv_rotate(rg_quat q, dvec v, int inverse) {
    double n = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
    double x = q.x / n, y = q.y / n, z = q.z / n, s = q.w / n, tx, ty, tz;
    dvec r;
    if (inverse) { x = -x; y = -y; z = -z; }
    tx = 2 * (y * v.z - z * v.y); ty = 2 * (z * v.x - x * v.z); tz = 2 * (x * v.y - y * v.x);
    r.x = v.x + s * tx + (y * tz - z * ty);
    r.y = v.y + s * ty + (z * tx - x * tz);
    r.z = v.z + s * tz + (x * ty - y * tx);
    return r;
}

/* Random draws one statement each: the order of a call's arguments is unspecified, and every
   compiler must build the same worlds. */
static rg_vec3 random_point(double extent) {
    rg_vec3 p;
    p.x = (rg_real)rg_test_uniform(-extent, extent);
    p.y = (rg_real)rg_test_uniform(-extent, extent);
    p.z = (rg_real)rg_test_uniform(-extent, extent);
    return p;
}

static rg_vec3 random_vector(double lo, double hi) {
    rg_vec3 u = rg_test_unit_vector();
    return rg_v3_scale(u, (rg_real)rg_test_uniform(lo, hi));
}

static dvec world_point(const rg_world *w, rg_body_id body, rg_vec3 p) {
    return dv_add(dv(rg_body_position(w, body)), dv_rotate(rg_body_orientation(w, body), dv(p), 0));
}

/* A box's centre and orientation in the world */
static void box_pose(const rg_world *w, const qshape *s, dvec *center, rg_quat *turn) {
    *center = world_point(w, s->body, s->a);
    *turn = rg_quat_mul(rg_body_orientation(w, s->body), s->turn);
}

static void shape_box(const rg_world *w, const qshape *s, double lo[3], double hi[3]) {
    int k;
    if (s->type == QBOX) {
        dvec c, axis[3];
        rg_quat q;
        box_pose(w, s, &c, &q);
        for (k = 0; k < 3; ++k) {
            dvec e = {0, 0, 0};
            if (k == 0) e.x = 1; else if (k == 1) e.y = 1; else e.z = 1;
            axis[k] = dv_rotate(q, e, 0);
        }
        for (k = 0; k < 3; ++k) {
            double r = fabs(dv_get(axis[0], k)) * s->half[0] + fabs(dv_get(axis[1], k)) * s->half[1] +
                       fabs(dv_get(axis[2], k)) * s->half[2];
            lo[k] = dv_get(c, k) - r;
            hi[k] = dv_get(c, k) + r;
        }
    } else {
        dvec a = world_point(w, s->body, s->a), b = world_point(w, s->body, s->b);
        for (k = 0; k < 3; ++k) {
            lo[k] = (dv_get(a, k) < dv_get(b, k) ? dv_get(a, k) : dv_get(b, k)) - s->radius;
            hi[k] = (dv_get(a, k) > dv_get(b, k) ? dv_get(a, k) : dv_get(b, k)) + s->radius;
        }
    }
}

/* Distance from p to the shape (0 inside) */
static double shape_distance(const rg_world *w, const qshape *s, dvec p) {
    if (s->type == QBOX) {
        dvec c, l;
        rg_quat q;
        double d2 = 0;
        int k;
        box_pose(w, s, &c, &q);
        l = dv_rotate(q, dv_sub(p, c), 1);
        for (k = 0; k < 3; ++k) {
            double x = fabs(dv_get(l, k)) - s->half[k];
            if (x > 0) d2 += x * x;
        }
        return sqrt(d2);
    } else {
        dvec a = world_point(w, s->body, s->a), b = world_point(w, s->body, s->b), u = dv_sub(b, a);
        double uu = dv_dot(u, u), t = uu > 0 ? dv_dot(dv_sub(p, a), u) / uu : 0, d;
        t = t < 0 ? 0 : (t > 1 ? 1 : t);
        d = sqrt(dv_dot(dv_sub(p, dv_add(a, dv_scale(u, t))), dv_sub(p, dv_add(a, dv_scale(u, t)))));
        return d > s->radius ? d - s->radius : 0;
    }
}

/* Entry fraction of the ray o + t d (t in [0, 1]) into a sphere, -1 if none or o inside */
static double ray_sphere(dvec o, dvec d, dvec c, double r) {
    dvec m = dv_sub(o, c);
    double a = dv_dot(d, d), b = dv_dot(m, d), cc = dv_dot(m, m) - r * r, disc, t;
    if (cc <= 0) return -1;
    disc = b * b - a * cc;
    if (disc < 0 || b > 0) return -1;
    t = (-b - sqrt(disc)) / a;
    return t >= 0 && t <= 1 ? t : -1;
}

/* Entry fraction into a box (its frame: o, d already turned), -1 if none or o inside */
static double ray_box_local(dvec o, dvec d, const double half[3]) {
    double near = 0, far = 1;
    int k, inside = 1;
    for (k = 0; k < 3; ++k) {
        double ok = dv_get(o, k), dk = dv_get(d, k), t0, t1;
        if (fabs(ok) > half[k]) inside = 0;
        if (dk == 0) {
            if (fabs(ok) > half[k]) return -1;
            continue;
        }
        t0 = (-half[k] - ok) / dk; t1 = (half[k] - ok) / dk;
        if (t0 > t1) { double t = t0; t0 = t1; t1 = t; }
        if (t0 > near) near = t0;
        if (t1 < far) far = t1;
        if (near > far) return -1;
    }
    return inside ? -1 : near;
}

/* Entry fraction into a capsule: the first of the two end spheres and the side, -1 if none or o
   inside */
static double ray_capsule(dvec o, dvec d, dvec a, dvec b, double r) {
    dvec u = dv_sub(b, a), m = dv_sub(o, a);
    double uu = dv_dot(u, u), best = -1, t0, t1, t, k;
    int e;
    { /* inside? */
        double s = uu > 0 ? dv_dot(m, u) / uu : 0;
        dvec q;
        s = s < 0 ? 0 : (s > 1 ? 1 : s);
        q = dv_sub(o, dv_add(a, dv_scale(u, s)));
        if (dv_dot(q, q) <= r * r) return -1;
    }
    for (e = 0; e < 2; ++e) {
        t = ray_sphere(o, d, e ? b : a, r);
        if (t >= 0 && (best < 0 || t < best)) best = t;
    }
    if (uu > 0) { /* the cylinder: |(m + t d) x u|^2 = r^2 |u|^2, between the end planes */
        double md = dv_dot(m, u), dd = dv_dot(d, u);
        double qa = dv_dot(d, d) * uu - dd * dd, qb = dv_dot(m, d) * uu - md * dd,
               qc = dv_dot(m, m) * uu - md * md - r * r * uu, disc = qb * qb - qa * qc;
        if (qa > 0 && disc >= 0) {
            t0 = (-qb - sqrt(disc)) / qa;
            (void)t1;
            k = md + t0 * dd;
            if (t0 >= 0 && t0 <= 1 && k >= 0 && k <= uu && (best < 0 || t0 < best)) best = t0;
        }
    }
    return best;
}

static double ray_shape(const rg_world *w, const qshape *s, dvec o, dvec d) {
    if (s->type == QMESH) { /* the world-less cast over every triangle's front */
        rg_cast_output out;
        rg_vec3 ro = rg_v3((rg_real)o.x, (rg_real)o.y, (rg_real)o.z), rd = rg_v3((rg_real)d.x, (rg_real)d.y, (rg_real)d.z);
        return rg_ray_cast_mesh(s->mesh, rg_body_position(w, s->body), rg_body_orientation(w, s->body), ro, rd, &out,
                                NULL) ? out.fraction : -1;
    }
    if (s->type == QBOX) {
        dvec c;
        rg_quat q;
        box_pose(w, s, &c, &q);
        return ray_box_local(dv_rotate(q, dv_sub(o, c), 1), dv_rotate(q, d, 1), s->half);
    }
    if (s->type == QSPHERE) return ray_sphere(o, d, world_point(w, s->body, s->a), s->radius);
    return ray_capsule(o, d, world_point(w, s->body, s->a), world_point(w, s->body, s->b), s->radius);
}

static void qworld_add(qworld *q, const qshape *s) {
    if (q->count == q->capacity) {
        q->capacity = q->capacity ? 2 * q->capacity : 256;
        q->shapes = (qshape *)realloc(q->shapes, sizeof(qshape) * (size_t)q->capacity);
    }
    q->shapes[q->count++] = *s;
}

/* One random shape on body: a sphere, capsule or box of 0.2 to 1 m, placed up to 0.8 m off the
   body's origin when `offset`. Category bits 1, 2 or 4, masks with a bit or two cleared, one in
   ten a sensor when `sensors`. */
static void add_random_shape(qworld *q, rg_body_id body, int offset, int sensors) {
    rg_shape_def sd = rg_shape_default_def();
    qshape s;
    rg_vec3 at = rg_v3(0, 0, 0);
    memset(&s, 0, sizeof s);
    s.body = body;
    s.type = (int)(rg_test_random() * 3);
    s.category = 1u << (int)(rg_test_random() * 3);
    s.mask = 0xFFFFFFFFu & ~(rg_test_random() < 0.3 ? 1u << (int)(rg_test_random() * 3) : 0u);
    s.is_sensor = sensors && rg_test_random() < 0.1;
    sd.category_bits = s.category;
    sd.mask_bits = s.mask;
    sd.is_sensor = s.is_sensor;
    if (offset) at = random_point(0.8);
    s.a = s.b = at;
    s.turn = rg_quat_identity();
    if (s.type == QSPHERE) {
        s.radius = (rg_real)rg_test_uniform(0.2, 1);
        s.id = rg_body_add_sphere(q->w, body, &sd, at, (rg_real)s.radius, NULL);
    } else if (s.type == QCAPSULE) {
        rg_vec3 u = random_vector(0.1, 0.6);
        s.a = rg_v3_sub(at, u);
        s.b = rg_v3_add(at, u);
        s.radius = (rg_real)rg_test_uniform(0.1, 0.5);
        s.id = rg_body_add_capsule(q->w, body, &sd, s.a, s.b, (rg_real)s.radius, NULL);
    } else {
        int h = (int)(rg_test_random() * 6), k;
        s.turn = rg_test_rotation();
        for (k = 0; k < 3; ++k) s.half[k] = q->hull_half[h][k];
        s.hull = q->hulls[h];
        s.id = rg_body_add_hull(q->w, body, &sd, q->hulls[h], at, s.turn, NULL);
    }
    if (rg_shape_is_valid(q->w, s.id)) qworld_add(q, &s);
}

/* A random body in the cube |x|, |y|, |z| < extent: static (a third), else dynamic with a random
   velocity; one body in five gets a second shape. */
static rg_body_id add_random_body(qworld *q, double extent, int sensors) {
    rg_body_def bd = rg_body_default_def();
    rg_body_id id;
    int i, shapes = rg_test_random() < 0.2 ? 2 : 1;
    bd.type = rg_test_random() < 0.33 ? RG_BODY_STATIC : RG_BODY_DYNAMIC;
    bd.position = random_point(extent);
    bd.orientation = rg_test_rotation();
    if (bd.type == RG_BODY_DYNAMIC) {
        bd.linear_velocity = random_vector(0, 3);
        bd.angular_velocity = random_vector(0, 3);
    }
    id = rg_body_create(q->w, &bd, NULL);
    for (i = 0; i < shapes; ++i) add_random_shape(q, id, shapes > 1, sensors);
    return id;
}

static void qworld_create(qworld *q) {
    rg_world_def wd = rg_world_default_def();
    int h;
    memset(q, 0, sizeof *q);
    wd.gravity = rg_v3(0, 0, 0);
    q->w = rg_world_create(&wd, NULL);
    for (h = 0; h < 6; ++h) {
        int k;
        for (k = 0; k < 3; ++k) q->hull_half[h][k] = (rg_real)rg_test_uniform(0.1, 0.5);
        q->hulls[h] = rg_hull_create_box(rg_v3((rg_real)q->hull_half[h][0], (rg_real)q->hull_half[h][1],
                                               (rg_real)q->hull_half[h][2]), NULL);
    }
}

static void qworld_destroy(qworld *q) {
    int h;
    rg_world_destroy(q->w);
    for (h = 0; h < 6; ++h) rg_hull_destroy(q->hulls[h]);
    free(q->shapes);
}

/* The test's records of live shapes only (after bodies were destroyed). */
static void qworld_prune(qworld *q) {
    int i, kept = 0;
    for (i = 0; i < q->count; ++i)
        if (rg_shape_is_valid(q->w, q->shapes[i].id)) q->shapes[kept++] = q->shapes[i];
    q->count = kept;
}

/* About 2000 shapes in a 20 m cube, stepped 30 times (moving, colliding, the tree refitted and
   rebuilt), then a tenth of the bodies teleported, 50 destroyed and 100 created: the queries
   must see all of it without another step. */
static void qworld_random(qworld *q, int sensors) {
    rg_body_id *bodies = (rg_body_id *)malloc(sizeof(rg_body_id) * 1700);
    int i;
    qworld_create(q);
    for (i = 0; i < 1600; ++i) bodies[i] = add_random_body(q, 10, sensors);
    for (i = 0; i < 30; ++i) rg_world_step(q->w, (rg_real)(1.0 / 60));
    for (i = 0; i < 1600; i += 10) {
        rg_vec3 p = random_point(10);
        rg_body_set_transform(q->w, bodies[i], p, rg_test_rotation());
    }
    for (i = 3; i < 1600; i += 32) rg_body_destroy(q->w, bodies[i]);
    for (i = 0; i < 100; ++i) add_random_body(q, 10, sensors);
    qworld_prune(q);
    free(bodies);
}

static int seen(const rg_query_filter *f, const qshape *s) {
    if (!(f->mask_bits & s->category) || !(s->mask & f->category_bits)) return 0;
    if (s->is_sensor && !f->include_sensors) return 0;
    return !(f->ignore_body.generation && f->ignore_body.index == s->body.index &&
             f->ignore_body.generation == s->body.generation);
}

static int id_less(const void *a, const void *b) {
    const rg_shape_id *x = (const rg_shape_id *)a, *y = (const rg_shape_id *)b;
    return x->index < y->index ? -1 : (x->index > y->index);
}

/* ---- overlaps --------------------------------------------------------------------------------- */

/* The query's set against the shapes whose boxes clearly overlap (by more than tol) and clearly
   do not; shapes within tol of touching may go either way and are counted. */
static int compare_sets(const rg_shape_id *got, int n, const qshape *shapes, const signed char *expect, int count,
                        int *uncertain) {
    int i, j = 0, expected = 0;
    for (i = 0; i < count; ++i) expected += expect[i] == 1;
    for (i = 0; i < count; ++i) {
        const rg_shape_id *hit = (const rg_shape_id *)bsearch(&shapes[i].id, got, (size_t)n, sizeof *got, id_less);
        if (expect[i] == 2) { ++*uncertain; j += hit != NULL; continue; }
        if ((hit != NULL) != (expect[i] == 1)) return 0;
        j += hit != NULL;
    }
    return j == n && n >= expected;
}

static void test_query_overlap_aabb_equals_brute_force(void) {
    qworld q;
    rg_shape_id *got = (rg_shape_id *)malloc(sizeof(rg_shape_id) * 4096);
    signed char *expect;
    int trial, total = 0, uncertain = 0, ok = 1;
    rg_test_seed(2401);
    qworld_random(&q, 1);
    expect = (signed char *)malloc((size_t)q.count);
    for (trial = 0; trial < 500 && ok; ++trial) {
        rg_query_filter f = rg_query_default_filter();
        double lo[3], hi[3], size = trial < 10 ? 25 : rg_test_uniform(0.1, 5), tol = 1e-5 * (1 + size);
        rg_vec3 qlo, qhi;
        int i, k, n;
        if (trial % 3 == 1) f.include_sensors = 1;
        if (trial % 5 == 2) { f.category_bits = 2; f.mask_bits = 5; }
        for (k = 0; k < 3; ++k) {
            double c = rg_test_uniform(-11, 11), e = size * rg_test_uniform(0.2, 1);
            lo[k] = c - e; hi[k] = c + e;
        }
        qlo = rg_v3((rg_real)lo[0], (rg_real)lo[1], (rg_real)lo[2]);
        qhi = rg_v3((rg_real)hi[0], (rg_real)hi[1], (rg_real)hi[2]);
        for (i = 0; i < q.count; ++i) {
            double slo[3], shi[3], gap = -1e300;
            shape_box(q.w, &q.shapes[i], slo, shi);
            for (k = 0; k < 3; ++k) {
                double ql = k == 0 ? qlo.x : (k == 1 ? qlo.y : qlo.z), qh = k == 0 ? qhi.x : (k == 1 ? qhi.y : qhi.z);
                double g = slo[k] - qh > ql - shi[k] ? slo[k] - qh : ql - shi[k];
                if (g > gap) gap = g;
            }
            expect[i] = !seen(&f, &q.shapes[i]) ? 0 : (gap < -tol ? 1 : (gap > tol ? 0 : 2));
        }
        n = rg_world_overlap_aabb(q.w, qlo, qhi, &f, got, 4096);
        ENSURE(n <= 4096);
        for (i = 1; i < n; ++i) ENSURE(got[i - 1].index < got[i].index);
        ok = compare_sets(got, n, q.shapes, expect, q.count, &uncertain);
        total += n;
    }
    ENSURE(ok);
    rg_test_note("%d shapes, 500 boxes: %d found, %d within 1e-5 of touching", q.count, total, uncertain);
    free(got);
    free(expect);
    qworld_destroy(&q);
}

static void test_query_overlap_sphere_equals_brute_force(void) {
    qworld q;
    rg_shape_id *got = (rg_shape_id *)malloc(sizeof(rg_shape_id) * 4096);
    signed char *expect;
    int trial, total = 0, uncertain = 0, ok = 1;
    rg_test_seed(2402);
    qworld_random(&q, 1);
    expect = (signed char *)malloc((size_t)q.count);
    for (trial = 0; trial < 1000 && ok; ++trial) {
        rg_query_filter f = rg_query_default_filter();
        double r = rg_test_uniform(0.05, 3), tol = 1e-5 * (1 + r);
        rg_vec3 c = random_point(11);
        int i, n;
        if (trial % 2) f.include_sensors = 1;
        for (i = 0; i < q.count; ++i) {
            double d = shape_distance(q.w, &q.shapes[i], dv(c)) - (rg_real)r;
            expect[i] = !seen(&f, &q.shapes[i]) ? 0 : (d < -tol ? 1 : (d > tol ? 0 : 2));
        }
        n = rg_world_overlap_sphere(q.w, c, (rg_real)r, &f, got, 4096);
        for (i = 1; i < n; ++i) ENSURE(got[i - 1].index < got[i].index);
        ok = compare_sets(got, n, q.shapes, expect, q.count, &uncertain);
        total += n;
    }
    ENSURE(ok);
    rg_test_note("%d shapes, 1000 spheres: %d found, %d within 1e-5 of touching", q.count, total, uncertain);
    free(got);
    free(expect);
    qworld_destroy(&q);
}

/* Fewer places than shapes found: the total returned, the lowest indices written, ascending. */
static void test_query_overlap_capacity_keeps_lowest(void) {
    qworld q;
    rg_shape_id all[4096], some[7];
    int n, m, i;
    rg_test_seed(2403);
    qworld_random(&q, 0);
    n = rg_world_overlap_aabb(q.w, rg_v3(-5, -5, -5), rg_v3(5, 5, 5), NULL, all, 4096);
    ENSURE(n > 7 && n <= 4096);
    m = rg_world_overlap_aabb(q.w, rg_v3(-5, -5, -5), rg_v3(5, 5, 5), NULL, some, 7);
    ENSURE(m == n);
    for (i = 0; i < 7; ++i) ENSURE(some[i].index == all[i].index && some[i].generation == all[i].generation);
    ENSURE(rg_world_overlap_aabb(q.w, rg_v3(-5, -5, -5), rg_v3(5, 5, 5), NULL, NULL, 0) == n);
    ENSURE(rg_world_overlap_sphere(q.w, rg_v3(0, 0, 0), 5, NULL, some, 7) ==
           rg_world_overlap_sphere(q.w, rg_v3(0, 0, 0), 5, NULL, NULL, 0));
    qworld_destroy(&q);
}

/* ---- what the queries see: bodies created, moved, destroyed; the filter -------------------- */

static rg_body_id ball(rg_world *w, rg_body_type type, rg_vec3 at, const rg_shape_def *sd, rg_shape_id *shape) {
    rg_body_def bd = rg_body_default_def();
    rg_body_id id;
    bd.type = type;
    bd.position = at;
    id = rg_body_create(w, &bd, NULL);
    *shape = rg_body_add_sphere(w, id, sd, rg_v3(0, 0, 0), (rg_real)0.5, NULL);
    return id;
}

static int found_at(const rg_world *w, rg_vec3 p, const rg_query_filter *f, rg_shape_id want) {
    rg_shape_id out[8];
    int n = rg_world_overlap_sphere(w, p, (rg_real)0.1, f, out, 8), i;
    for (i = 0; i < n && i < 8; ++i)
        if (out[i].index == want.index && out[i].generation == want.generation) return 1;
    return 0;
}

static void test_query_sees_bodies_created_moved_and_destroyed(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w;
    rg_shape_def sd = rg_shape_default_def();
    rg_shape_id s1, s2, s3, extra;
    rg_body_id b1, b2, b3;
    int i;
    wd.gravity = rg_v3(0, 0, 0);
    w = rg_world_create(&wd, NULL);
    b1 = ball(w, RG_BODY_STATIC, rg_v3(0, 0, 0), &sd, &s1);
    b2 = ball(w, RG_BODY_DYNAMIC, rg_v3(5, 0, 0), &sd, &s2);
    ENSURE(found_at(w, rg_v3(0, 0, 0), NULL, s1) && found_at(w, rg_v3(5, 0, 0), NULL, s2)); /* before any step */
    for (i = 0; i < 3; ++i) rg_world_step(w, (rg_real)(1.0 / 60));
    rg_body_set_transform(w, b1, rg_v3(0, 10, 0), rg_quat_identity());   /* a static body moved */
    ENSURE(!found_at(w, rg_v3(0, 0, 0), NULL, s1) && found_at(w, rg_v3(0, 10, 0), NULL, s1));
    rg_body_set_linear_velocity(w, b2, rg_v3(0, 0, 6));                  /* 0.1 m a step */
    for (i = 0; i < 10; ++i) rg_world_step(w, (rg_real)(1.0 / 60));
    ENSURE(!found_at(w, rg_v3(5, 0, 0), NULL, s2) && found_at(w, rg_v3(5, 0, 1), NULL, s2));
    b3 = ball(w, RG_BODY_DYNAMIC, rg_v3(-5, 0, 0), &sd, &s3);            /* created since the step */
    extra = rg_body_add_sphere(w, b2, &sd, rg_v3(0, 3, 0), (rg_real)0.25, NULL);  /* a shape added */
    ENSURE(found_at(w, rg_v3(-5, 0, 0), NULL, s3) && found_at(w, rg_v3(5, 3, 1), NULL, extra));
    rg_body_destroy(w, b3);
    rg_shape_destroy(w, extra);
    ENSURE(!found_at(w, rg_v3(-5, 0, 0), NULL, s3) && !found_at(w, rg_v3(5, 3, 1), NULL, extra));
    ENSURE(rg_world_overlap_aabb(w, rg_v3(-100, -100, -100), rg_v3(100, 100, 100), NULL, NULL, 0) == 2);
    rg_body_destroy(w, b1);
    rg_body_destroy(w, b2);
    ENSURE(rg_world_overlap_aabb(w, rg_v3(-100, -100, -100), rg_v3(100, 100, 100), NULL, NULL, 0) == 0);
    rg_world_destroy(w);
}

static void test_query_filter_is_honoured(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_shape_def sd = rg_shape_default_def();
    rg_query_filter f = rg_query_default_filter(), stale;
    rg_shape_id s, sensor;
    rg_body_id b, gone;
    ENSURE(f.category_bits == 1 && f.mask_bits == 0xFFFFFFFFu && f.ignore_body.generation == 0 && !f.include_sensors);
    sd.category_bits = 4;
    sd.mask_bits = 2;
    b = ball(w, RG_BODY_STATIC, rg_v3(0, 0, 0), &sd, &s);
    sd = rg_shape_default_def();
    sd.is_sensor = 1;
    sensor = rg_body_add_sphere(w, b, &sd, rg_v3(0, 0, 0), (rg_real)0.7, NULL);
    ENSURE(!found_at(w, rg_v3(0, 0, 0), &f, s));            /* its mask lacks the query's category 1 */
    f.category_bits = 2;
    ENSURE(found_at(w, rg_v3(0, 0, 0), &f, s));
    f.mask_bits = 3;                                       /* the query's mask lacks its category 4 */
    ENSURE(!found_at(w, rg_v3(0, 0, 0), &f, s));
    f = rg_query_default_filter();
    ENSURE(!found_at(w, rg_v3(0, 0, 0), &f, sensor) && !found_at(w, rg_v3(0, 0, 0), NULL, sensor));
    f.include_sensors = 1;
    ENSURE(found_at(w, rg_v3(0, 0, 0), &f, sensor));
    f.ignore_body = b;
    ENSURE(!found_at(w, rg_v3(0, 0, 0), &f, sensor));
    gone = ball(w, RG_BODY_STATIC, rg_v3(9, 0, 0), &sd, &s);
    rg_body_destroy(w, gone);
    stale = rg_query_default_filter();
    stale.include_sensors = 1;
    stale.ignore_body = gone;                              /* a stale id ignores nothing */
    ENSURE(found_at(w, rg_v3(0, 0, 0), &stale, sensor));
    rg_world_destroy(w);
}

/* A mesh: a 10 m square of two triangles facing +y at y = 0 on a static body turned 90 degrees
   about z (the front then faces -x). Spheres touch it from either side. */
static rg_world *mesh_world(rg_mesh **mesh, rg_shape_id *shape) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_vec3 v[4];
    int t[6] = {0, 2, 1, 1, 2, 3};
    rg_body_def bd = rg_body_default_def();
    rg_body_id body;
    rg_shape_def sd = rg_shape_default_def();
    v[0] = rg_v3(-5, 0, -5); v[1] = rg_v3(5, 0, -5); v[2] = rg_v3(-5, 0, 5); v[3] = rg_v3(5, 0, 5);
    *mesh = rg_mesh_create(v, 4, t, 2, NULL);
    bd.type = RG_BODY_STATIC;
    bd.position = rg_v3(1, 0, 0);
    bd.orientation = rg_quat_from_axis_angle(rg_v3(0, 0, 1), (rg_real)(3.14159265358979324 / 2));
    body = rg_body_create(w, &bd, NULL);
    *shape = rg_body_add_mesh(w, body, &sd, *mesh, NULL);
    return w;
}

static void test_query_overlap_sphere_on_mesh(void) {
    rg_mesh *mesh;
    rg_shape_id shape, out[2];
    rg_world *w = mesh_world(&mesh, &shape);
    ENSURE(rg_mesh_triangle_normal(mesh, 0).y > 0.99f);
    ENSURE(rg_world_overlap_sphere(w, rg_v3((rg_real)0.6, 0, 0), (rg_real)0.5, NULL, out, 2) == 1);  /* front */
    ENSURE(out[0].index == shape.index);
    ENSURE(rg_world_overlap_sphere(w, rg_v3((rg_real)1.4, 0, 0), (rg_real)0.5, NULL, out, 2) == 1);  /* behind */
    ENSURE(rg_world_overlap_sphere(w, rg_v3((rg_real)0.4, 0, 0), (rg_real)0.5, NULL, out, 2) == 0);  /* apart */
    ENSURE(rg_world_overlap_sphere(w, rg_v3(1, (rg_real)5.45, 0), (rg_real)0.5, NULL, out, 2) == 1); /* at the edge */
    ENSURE(rg_world_overlap_sphere(w, rg_v3(1, (rg_real)5.55, 0), (rg_real)0.5, NULL, out, 2) == 0);
    ENSURE(rg_world_overlap_aabb(w, rg_v3(0, -6, -6), rg_v3((rg_real)0.99, 6, 6), NULL, out, 2) == 0);
    ENSURE(rg_world_overlap_aabb(w, rg_v3(0, -6, -6), rg_v3((rg_real)1.01, 6, 6), NULL, out, 2) == 1);
    rg_world_destroy(w);
    rg_mesh_destroy(mesh);
}

/* ---- ray casts and sphere casts ------------------------------------------------------------ */

/* The brute-force closest hit: every shape the filter lets through, the least fraction (ties by
   index); *second the next shape's fraction. -1 when nothing is hit. */
static int brute_closest(const qworld *q, const rg_query_filter *f, dvec o, dvec d, double *fraction, double *second) {
    int i, best = -1;
    *fraction = *second = 2;
    for (i = 0; i < q->count; ++i) {
        double t;
        if (!seen(f, &q->shapes[i])) continue;
        t = ray_shape(q->w, &q->shapes[i], o, d);
        if (t < 0) continue;
        if (t < *fraction) {
            *second = *fraction;
            *fraction = t;
            best = i;
        } else if (t < *second) {
            *second = t;
        }
    }
    return best;
}

/* A bumpy grid of 20 x 20 cells (800 triangles) 24 m wide facing +y, on a static body at y = -11
   turned 10 degrees about x. */
static rg_mesh *add_floor(qworld *q) {
    rg_vec3 v[21 * 21];
    int t[20 * 20 * 6], i, j, k = 0;
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    rg_mesh *mesh;
    qshape s;
    for (j = 0; j <= 20; ++j)
        for (i = 0; i <= 20; ++i)
            v[i + 21 * j] = rg_v3((rg_real)(1.2 * i - 12), (rg_real)rg_test_uniform(-0.5, 0.5), (rg_real)(1.2 * j - 12));
    for (j = 0; j < 20; ++j)
        for (i = 0; i < 20; ++i) {
            int a = i + 21 * j;
            t[k++] = a; t[k++] = a + 21; t[k++] = a + 1;
            t[k++] = a + 1; t[k++] = a + 21; t[k++] = a + 22;
        }
    mesh = rg_mesh_create(v, 21 * 21, t, 800, NULL);
    bd.type = RG_BODY_STATIC;
    bd.position = rg_v3(0, -11, 0);
    bd.orientation = rg_quat_from_axis_angle(rg_v3(1, 0, 0), (rg_real)0.1745);
    memset(&s, 0, sizeof s);
    s.type = QMESH;
    s.mesh = mesh;
    s.body = rg_body_create(q->w, &bd, NULL);
    s.id = rg_body_add_mesh(q->w, s.body, &sd, mesh, NULL);
    s.category = 1;
    s.mask = 0xFFFFFFFFu;
    qworld_add(q, &s);
    return mesh;
}

/* 10 000 random rays 1 to 30 m long from anywhere in the world (with a mesh floor): the closest
   hit is the brute force's (the same shape, unless another lies within the tolerance of it; the
   same fraction and point), or both miss. A ray that grazes a shape within the tolerance may go
   either way. */
static void test_query_ray_cast_equals_brute_force(void) {
    qworld q;
    rg_mesh *floor_mesh;
    int trial, hits = 0, grazing = 0, ties = 0, wrong = 0, on_floor = 0;
    double worst = 0, tol = 1e-4;
    rg_test_seed(2404);
    qworld_random(&q, 1);
    floor_mesh = add_floor(&q);
    for (trial = 0; trial < 10000; ++trial) {
        rg_query_filter f = rg_query_default_filter();
        rg_vec3 o = random_point(12), d = random_vector(1, 30);
        rg_ray_hit hit;
        double t, next, length = rg_v3_length(d);
        int best, got;
        if (trial % 4 == 1) f.include_sensors = 1;
        if (trial % 7 == 3) { f.category_bits = 4; f.mask_bits = 3; }
        best = brute_closest(&q, &f, dv(o), dv(d), &t, &next);
        got = rg_world_ray_cast(q.w, o, d, &f, &hit);
        if (best < 0 && !got) continue;
        if (best < 0 || !got) {
            /* a graze: the ray's fraction window shifted a little finds the other answer */
            ++grazing;
            if (grazing > 5) ++wrong;
            continue;
        }
        ++hits;
        on_floor += q.shapes[best].type == QMESH;
        if (hit.shape.index != q.shapes[best].id.index) {
            if ((next - t) * length > tol) ++wrong;
            else ++ties;
            continue;
        }
        if (fabs(hit.fraction - t) * length > worst) worst = fabs(hit.fraction - t) * length;
        ENSURE(hit.body.index == q.shapes[best].body.index && hit.body.generation == q.shapes[best].body.generation);
        ENSURE(fabs(rg_v3_length(hit.normal) - 1) < 1e-4 && rg_v3_dot(hit.normal, d) <= 0);
        ENSURE_V3_NEAR(hit.point, rg_v3_madd(o, d, hit.fraction), 1e-4 * (1 + length));
    }
    rg_test_note("%d shapes, 10000 rays: %d hits (%d on the mesh), largest fraction error %.2g m, %d ties "
                 "within 1e-4 m, %d grazing", q.count, hits, on_floor, worst, ties, grazing);
    ENSURE(wrong == 0);
    ENSURE(worst < tol);
    qworld_destroy(&q);
    rg_mesh_destroy(floor_mesh);
}

static int hit_order(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : (x > y);
}

/* ray_cast_all: every shape on the ray, by fraction (the brute force's fractions), and the
   `capacity` closest when fewer places are given. */
static void test_query_ray_cast_all_sorted_and_complete(void) {
    qworld q;
    rg_ray_hit hits[512], few[3];
    double expect[512];
    int trial, total = 0;
    rg_test_seed(2405);
    qworld_random(&q, 0);
    for (trial = 0; trial < 500; ++trial) {
        rg_vec3 o = random_point(12), d = rg_v3_scale(rg_test_unit_vector(), 30);
        rg_query_filter f = rg_query_default_filter();
        int i, n, m = 0, k;
        for (i = 0; i < q.count; ++i) {
            double t = seen(&f, &q.shapes[i]) ? ray_shape(q.w, &q.shapes[i], dv(o), dv(d)) : -1;
            if (t >= 0 && m < 512) expect[m++] = t;
        }
        qsort(expect, (size_t)m, sizeof *expect, hit_order);
        n = rg_world_ray_cast_all(q.w, o, d, NULL, hits, 512);
        if (n != m) { /* a graze */
            rg_test_note("ray %d: %d hits, brute force %d", trial, n, m);
            ENSURE(abs(n - m) <= 1);
            continue;
        }
        for (i = 0; i < n; ++i) {
            ENSURE_NEAR(hits[i].fraction * 30, expect[i] * 30, 1e-4);
            if (i) ENSURE(hits[i - 1].fraction < hits[i].fraction ||
                          (hits[i - 1].fraction == hits[i].fraction && hits[i - 1].shape.index < hits[i].shape.index));
        }
        k = rg_world_ray_cast_all(q.w, o, d, NULL, few, 3);
        ENSURE(k == n);
        for (i = 0; i < 3 && i < n; ++i) ENSURE(few[i].shape.index == hits[i].shape.index);
        if (n > 0) {
            rg_ray_hit one;
            ENSURE(rg_world_ray_cast(q.w, o, d, NULL, &one) && one.shape.index == hits[0].shape.index &&
                   one.fraction == hits[0].fraction);
        }
        total += n;
    }
    rg_test_note("500 rays of 30 m through %d shapes: %d hits", q.count, total);
    qworld_destroy(&q);
}

/* Sphere casts against the world-less cast of every shape (rg_sphere_cast_convex): the same
   closest shape and fraction. */
static void test_query_sphere_cast_equals_brute_force(void) {
    qworld q;
    int trial, hits = 0, ties = 0, starts = 0;
    rg_test_seed(2406);
    qworld_random(&q, 0);
    for (trial = 0; trial < 2000; ++trial) {
        rg_vec3 o = random_point(12), d = random_vector(1, 20);
        rg_real r = (rg_real)rg_test_uniform(0.05, 1);
        rg_query_filter f = rg_query_default_filter();
        rg_ray_hit hit;
        double best_t = 2, second = 2;
        int i, best = -1, got;
        for (i = 0; i < q.count; ++i) {
            const qshape *s = &q.shapes[i];
            rg_convex_shape c;
            rg_cast_output out;
            rg_quat turn = rg_body_orientation(q.w, s->body);
            dvec a = world_point(q.w, s->body, s->a), b = world_point(q.w, s->body, s->b);
            rg_vec3 ra = rg_v3((rg_real)a.x, (rg_real)a.y, (rg_real)a.z), rb = rg_v3((rg_real)b.x, (rg_real)b.y, (rg_real)b.z);
            if (!seen(&f, s)) continue;
            if (s->type == QBOX) c = test_hull_shape(s->hull, ra, rg_quat_mul(turn, s->turn));
            else if (s->type == QSPHERE) c = test_sphere_shape(ra, s->radius);
            else c = test_capsule_shape(ra, rb, s->radius);
            if (!rg_sphere_cast_convex(&c, o, r, d, &out)) continue;
            if (out.fraction < best_t) { second = best_t; best_t = out.fraction; best = i; }
            else if (out.fraction < second) second = out.fraction;
        }
        got = rg_world_sphere_cast(q.w, o, r, d, NULL, &hit);
        ENSURE(got == (best >= 0));
        if (!got) continue;
        ++hits;
        starts += hit.fraction == 0;
        if (hit.shape.index != q.shapes[best].id.index) {
            ENSURE((second - best_t) * rg_v3_length(d) < 1e-4);
            ++ties;
            continue;
        }
        ENSURE_NEAR(hit.fraction, best_t, 1e-5);
    }
    rg_test_note("2000 sphere casts through %d shapes: %d hits (%d starting in touch), %d ties", q.count, hits,
                 starts, ties);
    qworld_destroy(&q);
}

/* The shooter's body ignored: a ray from behind it goes on to the next body; the filter's bits
   and sensors as for overlaps. */
static void test_query_ray_filter_and_ignored_body(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_shape_def sd = rg_shape_default_def();
    rg_query_filter f = rg_query_default_filter();
    rg_shape_id s1, s2, s3;
    rg_body_id b1, b2;
    rg_ray_hit hit, all[4];
    b1 = ball(w, RG_BODY_DYNAMIC, rg_v3(0, 0, 0), &sd, &s1);
    b2 = ball(w, RG_BODY_STATIC, rg_v3(3, 0, 0), &sd, &s2);
    sd.is_sensor = 1;
    ball(w, RG_BODY_STATIC, rg_v3(6, 0, 0), &sd, &s3);
    ENSURE(rg_world_ray_cast(w, rg_v3(-2, 0, 0), rg_v3(10, 0, 0), &f, &hit) == 1);
    ENSURE(hit.shape.index == s1.index && hit.body.index == b1.index);
    ENSURE_NEAR(hit.fraction, 0.15, 1e-6);
    ENSURE_V3_NEAR(hit.normal, rg_v3(-1, 0, 0), 1e-6);
    ENSURE_V3_NEAR(hit.point, rg_v3((rg_real)-0.5, 0, 0), 1e-6);
    f.ignore_body = b1;
    ENSURE(rg_world_ray_cast(w, rg_v3(-2, 0, 0), rg_v3(10, 0, 0), &f, &hit) == 1 && hit.shape.index == s2.index);
    ENSURE_NEAR(hit.fraction, 0.45, 1e-6);
    ENSURE(rg_world_ray_cast_all(w, rg_v3(-2, 0, 0), rg_v3(10, 0, 0), &f, all, 4) == 1);
    f.include_sensors = 1;
    ENSURE(rg_world_ray_cast_all(w, rg_v3(-2, 0, 0), rg_v3(10, 0, 0), &f, all, 4) == 2 && all[1].shape.index == s3.index);
    f.ignore_body = b2;
    ENSURE(rg_world_ray_cast_all(w, rg_v3(-2, 0, 0), rg_v3(10, 0, 0), &f, all, 4) == 2 && all[0].shape.index == s1.index);
    f.mask_bits = 2;                                         /* no shape is in category 2 */
    ENSURE(rg_world_ray_cast(w, rg_v3(-2, 0, 0), rg_v3(10, 0, 0), &f, &hit) == 0 && hit.fraction == 0);
    ENSURE(rg_world_sphere_cast(w, rg_v3(-2, 0, 0), (rg_real)0.25, rg_v3(10, 0, 0), &f, &hit) == 0);
    ENSURE(rg_world_ray_cast(w, rg_v3(0, 0, 0), rg_v3(10, 0, 0), NULL, &hit) == 1 && hit.shape.index == s2.index); /* starts inside s1 */
    ENSURE(rg_world_sphere_cast(w, rg_v3(-2, 0, 0), (rg_real)0.25, rg_v3(10, 0, 0), NULL, &hit) == 1);
    ENSURE_NEAR(hit.fraction, 0.125, 1e-6);
    ENSURE_V3_NEAR(hit.point, rg_v3((rg_real)-0.5, 0, 0), 1e-6);
    rg_world_destroy(w);
}

/* The turned mesh of mesh_world (its front faces -x): hit from the front only. */
static void test_query_ray_mesh_front_side_only(void) {
    rg_mesh *mesh;
    rg_shape_id shape;
    rg_ray_hit hit, all[2];
    rg_world *w = mesh_world(&mesh, &shape);
    ENSURE(rg_world_ray_cast(w, rg_v3(-1, 2, 3), rg_v3(4, 0, 0), NULL, &hit) == 1 && hit.shape.index == shape.index);
    ENSURE_NEAR(hit.fraction, 0.5, 1e-6);
    ENSURE_V3_NEAR(hit.normal, rg_v3(-1, 0, 0), 1e-6);
    ENSURE(rg_world_ray_cast(w, rg_v3(3, 2, 3), rg_v3(-4, 0, 0), NULL, &hit) == 0);
    ENSURE(rg_world_ray_cast_all(w, rg_v3(3, 2, 3), rg_v3(-4, 0, 0), NULL, all, 2) == 0);
    ENSURE(rg_world_sphere_cast(w, rg_v3(-1, 2, 3), (rg_real)0.5, rg_v3(4, 0, 0), NULL, &hit) == 1);
    ENSURE_NEAR(hit.fraction, 0.375, 1e-6);
    ENSURE(rg_world_sphere_cast(w, rg_v3(3, 2, 3), (rg_real)0.5, rg_v3(-4, 0, 0), NULL, &hit) == 0);
    rg_world_destroy(w);
    rg_mesh_destroy(mesh);
}

/* ---- bad input ------------------------------------------------------------------------------ */

static void test_query_bad_input_finds_nothing(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_shape_def sd = rg_shape_default_def();
    rg_shape_id s, out[4];
    rg_real nan = (rg_real)NAN;
    rg_vec3 lo = rg_v3(-1, -1, -1), hi = rg_v3(1, 1, 1), bad = rg_v3(0, nan, 0);
    ball(w, RG_BODY_STATIC, rg_v3(0, 0, 0), &sd, &s);
    ENSURE(rg_world_overlap_aabb(w, lo, hi, NULL, out, 4) == 1);
    ENSURE(rg_world_overlap_aabb(NULL, lo, hi, NULL, out, 4) == 0);
    ENSURE(rg_world_overlap_aabb(w, bad, hi, NULL, out, 4) == 0);
    ENSURE(rg_world_overlap_aabb(w, lo, rg_v3(1, (rg_real)1e16, 1), NULL, out, 4) == 0);
    ENSURE(rg_world_overlap_aabb(w, hi, lo, NULL, out, 4) == 0);      /* min above max */
    ENSURE(rg_world_overlap_aabb(w, lo, hi, NULL, out, -1) == 0);
    ENSURE(rg_world_overlap_aabb(w, lo, hi, NULL, NULL, 4) == 0);
    ENSURE(rg_world_overlap_sphere(w, rg_v3(0, 0, 0), 1, NULL, out, 4) == 1);
    ENSURE(rg_world_overlap_sphere(w, bad, 1, NULL, out, 4) == 0);
    ENSURE(rg_world_overlap_sphere(w, rg_v3(0, 0, 0), 0, NULL, out, 4) == 0);
    ENSURE(rg_world_overlap_sphere(w, rg_v3(0, 0, 0), -1, NULL, out, 4) == 0);
    ENSURE(rg_world_overlap_sphere(w, rg_v3(0, 0, 0), nan, NULL, out, 4) == 0);
    ENSURE(rg_world_overlap_sphere(w, rg_v3(0, 0, 0), 1, NULL, out, -3) == 0);
    {
        rg_vec3 o = rg_v3(-3, 0, 0), d = rg_v3(6, 0, 0), zero = rg_v3(0, 0, 0);
        rg_ray_hit hit, hits[2];
        ENSURE(rg_world_ray_cast(w, o, d, NULL, &hit) == 1 && rg_world_ray_cast(w, o, d, NULL, NULL) == 1);
        ENSURE(rg_world_ray_cast(NULL, o, d, NULL, &hit) == 0 && hit.fraction == 0 && hit.shape.generation == 0);
        ENSURE(rg_world_ray_cast(w, bad, d, NULL, &hit) == 0 && rg_world_ray_cast(w, o, bad, NULL, &hit) == 0);
        ENSURE(rg_world_ray_cast(w, o, zero, NULL, &hit) == 0);
        ENSURE(rg_world_ray_cast(w, o, rg_v3((rg_real)1e16, 0, 0), NULL, &hit) == 0);
        ENSURE(rg_world_ray_cast_all(w, o, d, NULL, hits, 2) == 1 && rg_world_ray_cast_all(w, o, d, NULL, NULL, 0) == 1);
        ENSURE(rg_world_ray_cast_all(w, o, d, NULL, hits, -1) == 0 && rg_world_ray_cast_all(w, o, d, NULL, NULL, 2) == 0);
        ENSURE(rg_world_ray_cast_all(w, o, zero, NULL, hits, 2) == 0 && rg_world_ray_cast_all(NULL, o, d, NULL, hits, 2) == 0);
        ENSURE(rg_world_sphere_cast(w, o, 1, d, NULL, &hit) == 1);
        ENSURE(rg_world_sphere_cast(w, o, 0, d, NULL, &hit) == 0 && rg_world_sphere_cast(w, o, -1, d, NULL, &hit) == 0);
        ENSURE(rg_world_sphere_cast(w, o, nan, d, NULL, &hit) == 0 && rg_world_sphere_cast(w, o, 1, zero, NULL, &hit) == 0);
        ENSURE(rg_world_sphere_cast(w, bad, 1, d, NULL, &hit) == 0 && rg_world_sphere_cast(NULL, o, 1, d, NULL, &hit) == 0);
    }
    rg_world_destroy(w);
}

void rg_tests_query(void) {
    RUN_TEST(test_query_overlap_aabb_equals_brute_force);
    RUN_TEST(test_query_overlap_sphere_equals_brute_force);
    RUN_TEST(test_query_overlap_capacity_keeps_lowest);
    RUN_TEST(test_query_sees_bodies_created_moved_and_destroyed);
    RUN_TEST(test_query_filter_is_honoured);
    RUN_TEST(test_query_overlap_sphere_on_mesh);
    RUN_TEST(test_query_ray_cast_equals_brute_force);
    RUN_TEST(test_query_ray_cast_all_sorted_and_complete);
    RUN_TEST(test_query_sphere_cast_equals_brute_force);
    RUN_TEST(test_query_ray_filter_and_ignored_body);
    RUN_TEST(test_query_ray_mesh_front_side_only);
    RUN_TEST(test_query_bad_input_finds_nothing);
}
