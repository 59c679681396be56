/* Debug draw (rg_world_draw): the triangles of each shape type against its analytic surface
   area and volume (the signed volume by the divergence theorem, sum a.(b x c) / 6, is positive
   only when every triangle runs counter-clockwise seen from outside), every vertex on the
   shape's surface and every triangle facing away from its inside; the flags, the contacts,
   impulses and boxes against rg_world_contacts and rg_body_aabb; NULL callbacks; bad input. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define DRAW_PI 3.14159265358979323846
#define DRAW_MAX_VERTICES 256

/* What the shape drawn should be, to check each vertex and each triangle's facing against. */
typedef enum { DRAW_ROUND, DRAW_POINTS } draw_kind;
typedef struct draw_expect {
    draw_kind kind;
    rg_vec3 a, b;                 /* round: the segment (a = b for a sphere) */
    double radius;
    rg_vec3 inside;               /* points: a point inside the convex solid (or solids: see below) */
    rg_vec3 vertices[DRAW_MAX_VERTICES]; /* points: where the vertices may lie, world */
    int vertex_count;
    int convex;                   /* each triangle must face away from `inside` */
} draw_expect;

/* Everything the callbacks received. */
typedef struct draw_sink {
    const draw_expect *expect;
    int triangles, lines, points;
    double area, volume;          /* volume: signed, about the origin */
    double worst_vertex;          /* largest distance of a vertex from where it should be */
    int inward;                   /* triangles whose normal points towards the inside */
    uint32_t first_rgb, last_rgb;
    int colors_differ;            /* triangles of more than one colour */
    uint32_t line_rgb, point_rgb;
    double point_size;
    rg_vec3 line_a[64], line_b[64];  /* the first lines */
    unsigned long long hash;      /* of the whole sequence of calls */
} draw_sink;

static void draw_hash(draw_sink *s, const void *data, size_t n) {
    const unsigned char *p = (const unsigned char *)data;
    size_t i;
    for (i = 0; i < n; ++i) s->hash = (s->hash ^ p[i]) * 1099511628211ull;
}
static void draw_hash_v3(draw_sink *s, rg_vec3 v) {
    rg_real c[3];
    c[0] = v.x; c[1] = v.y; c[2] = v.z;
    draw_hash(s, c, sizeof c);
}

static double draw_dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void draw_cross(const double a[3], const double b[3], double r[3]) {
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}
static void draw_d3(rg_vec3 v, double out[3]) { out[0] = v.x; out[1] = v.y; out[2] = v.z; }

/* The distance of p from the segment a-b. */
static double draw_segment_distance(rg_vec3 p, rg_vec3 a, rg_vec3 b, rg_vec3 *closest) {
    double pa[3], ab[3], t, q[3], d = 0;
    int k;
    draw_d3(rg_v3_sub(p, a), pa);
    draw_d3(rg_v3_sub(b, a), ab);
    t = draw_dot(ab, ab) > 0 ? draw_dot(pa, ab) / draw_dot(ab, ab) : 0;
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    for (k = 0; k < 3; ++k) {
        q[k] = pa[k] - t * ab[k];
        d += q[k] * q[k];
    }
    if (closest) *closest = rg_v3((rg_real)(a.x + t * ab[0]), (rg_real)(a.y + t * ab[1]), (rg_real)(a.z + t * ab[2]));
    return sqrt(d);
}

static double draw_vertex_error(const draw_expect *e, rg_vec3 p) {
    double best = 1e300;
    int i;
    if (e->kind == DRAW_ROUND) return fabs(draw_segment_distance(p, e->a, e->b, NULL) - e->radius);
    for (i = 0; i < e->vertex_count; ++i) {
        double d[3];
        draw_d3(rg_v3_sub(p, e->vertices[i]), d);
        if (sqrt(draw_dot(d, d)) < best) best = sqrt(draw_dot(d, d));
    }
    return best;
}

static void draw_triangle(rg_vec3 a, rg_vec3 b, rg_vec3 c, uint32_t rgb, void *context) {
    draw_sink *s = (draw_sink *)context;
    double pa[3], pb[3], pc[3], e1[3], e2[3], n[3], bc[3], out[3];
    int k;
    draw_d3(a, pa);
    draw_d3(b, pb);
    draw_d3(c, pc);
    for (k = 0; k < 3; ++k) {
        e1[k] = pb[k] - pa[k];
        e2[k] = pc[k] - pa[k];
    }
    draw_cross(e1, e2, n);
    draw_cross(pb, pc, bc);
    s->area += 0.5 * sqrt(draw_dot(n, n));
    s->volume += draw_dot(pa, bc) / 6;
    if (s->triangles == 0) s->first_rgb = rgb;
    else if (rgb != s->last_rgb) s->colors_differ = 1;
    s->last_rgb = rgb;
    ++s->triangles;
    draw_hash_v3(s, a);
    draw_hash_v3(s, b);
    draw_hash_v3(s, c);
    draw_hash(s, &rgb, sizeof rgb);
    if (!s->expect) return;
    for (k = 0; k < 3; ++k) {
        rg_vec3 p = k == 0 ? a : k == 1 ? b : c;
        double error = draw_vertex_error(s->expect, p);
        if (error > s->worst_vertex) s->worst_vertex = error;
    }
    {
        /* outwards: from the inside (the nearest point of a round shape's segment) to the centroid */
        rg_vec3 centroid = rg_v3((rg_real)((pa[0] + pb[0] + pc[0]) / 3), (rg_real)((pa[1] + pb[1] + pc[1]) / 3),
                                 (rg_real)((pa[2] + pb[2] + pc[2]) / 3)), inside = s->expect->inside;
        if (s->expect->kind == DRAW_ROUND) draw_segment_distance(centroid, s->expect->a, s->expect->b, &inside);
        draw_d3(rg_v3_sub(centroid, inside), out);
        if (s->expect->convex && !(draw_dot(n, out) > 0)) ++s->inward;
    }
}

static void draw_line(rg_vec3 a, rg_vec3 b, uint32_t rgb, void *context) {
    draw_sink *s = (draw_sink *)context;
    if (s->lines < 64) {
        s->line_a[s->lines] = a;
        s->line_b[s->lines] = b;
    }
    s->line_rgb = rgb;
    ++s->lines;
    draw_hash_v3(s, a);
    draw_hash_v3(s, b);
    draw_hash(s, &rgb, sizeof rgb);
}

static void draw_point(rg_vec3 p, rg_real size, uint32_t rgb, void *context) {
    draw_sink *s = (draw_sink *)context;
    s->point_rgb = rgb;
    s->point_size = size;
    ++s->points;
    draw_hash_v3(s, p);
    draw_hash(s, &rgb, sizeof rgb);
}

/* Draws the world into a fresh sink with every callback set and the given flags. */
static void draw_collect(const rg_world *w, const draw_expect *expect, int shapes, int contacts, int impulses, int aabbs,
                         draw_sink *s) {
    rg_debug_draw d = rg_debug_draw_default();
    memset(s, 0, sizeof *s);
    s->hash = 14695981039346656037ull;
    s->expect = expect;
    d.triangle = draw_triangle;
    d.line = draw_line;
    d.point = draw_point;
    d.context = s;
    d.draw_shapes = shapes;
    d.draw_contacts = contacts;
    d.draw_impulses = impulses;
    d.draw_aabbs = aabbs;
    rg_world_draw(w, &d);
}

static rg_world *draw_world(void) {
    rg_world_def def = rg_world_default_def();
    return rg_world_create(&def, NULL);
}

/* A body at a random place and orientation, no shape yet. */
static rg_body_id draw_body(rg_world *w, rg_body_type type) {
    rg_body_def bd = rg_body_default_def();
    bd.type = type;
    bd.position = rg_v3((rg_real)rg_test_uniform(-3, 3), (rg_real)rg_test_uniform(-3, 3), (rg_real)rg_test_uniform(-3, 3));
    bd.orientation = rg_test_rotation();
    return rg_body_create(w, &bd, NULL);
}

static rg_vec3 draw_to_world(const rg_world *w, rg_body_id id, rg_vec3 local) {
    return rg_v3_add(rg_body_position(w, id), rg_quat_rotate(rg_body_orientation(w, id), local));
}

/* Tolerance of a vertex's place: 1e-5 of the shape's size, and the rounding of coordinates of
   the body's distance from the origin. */
static double draw_place_tolerance(const rg_world *w, rg_body_id id, double size) {
    return 1e-5 * size + 8 * RG_TEST_EPS * (rg_v3_length(rg_body_position(w, id)) + size);
}

/* Spheres at random places, radii and body orientations: area within 2% (and below: the
   polyhedron is inscribed), volume within 3%, every vertex at the radius, every triangle
   facing outwards. */
static void test_draw_sphere(void) {
    double worst_area = 0, worst_volume = 0, worst_vertex = 0;
    int i;
    rg_test_seed(11);
    for (i = 0; i < 20; ++i) {
        rg_world *w = draw_world();
        rg_body_id id = draw_body(w, RG_BODY_DYNAMIC);
        rg_shape_def sd = rg_shape_default_def();
        rg_vec3 center = rg_v3((rg_real)rg_test_uniform(-1, 1), (rg_real)rg_test_uniform(-1, 1), (rg_real)rg_test_uniform(-1, 1));
        double r = rg_test_uniform(0.1, 2), area, volume;
        draw_expect e;
        draw_sink s;
        ENSURE(rg_shape_is_valid(w, rg_body_add_sphere(w, id, &sd, center, (rg_real)r, NULL)));
        memset(&e, 0, sizeof e);
        e.kind = DRAW_ROUND;
        e.a = e.b = draw_to_world(w, id, center);
        e.radius = r;
        e.convex = 1;
        draw_collect(w, &e, 1, 0, 0, 0, &s);
        area = 4 * DRAW_PI * r * r;
        volume = 4.0 / 3 * DRAW_PI * r * r * r;
        ENSURE(s.triangles > 0 && s.lines == 0 && s.points == 0);
        ENSURE_REL(s.area, area, 0.02);
        ENSURE(s.area < area);
        ENSURE_REL(s.volume, volume, 0.03);
        ENSURE(s.volume > 0);
        ENSURE(s.inward == 0);
        ENSURE(s.worst_vertex <= draw_place_tolerance(w, id, r));
        if (fabs(s.area / area - 1) > worst_area) worst_area = fabs(s.area / area - 1);
        if (fabs(s.volume / volume - 1) > worst_volume) worst_volume = fabs(s.volume / volume - 1);
        if (s.worst_vertex / r > worst_vertex) worst_vertex = s.worst_vertex / r;
        if (i == 0) rg_test_note("%d triangles a sphere", s.triangles);
        rg_world_destroy(w);
    }
    rg_test_note("20 spheres: area short by at most %.3f%%, volume %.3f%%, vertex off the radius %.2g r",
                 100 * worst_area, 100 * worst_volume, worst_vertex);
}

/* Capsules of random lengths (from nearly a sphere to long rods) and directions. */
static void test_draw_capsule(void) {
    double worst_area = 0, worst_volume = 0, worst_vertex = 0;
    int i;
    rg_test_seed(12);
    for (i = 0; i < 20; ++i) {
        rg_world *w = draw_world();
        rg_body_id id = draw_body(w, RG_BODY_DYNAMIC);
        rg_shape_def sd = rg_shape_default_def();
        double r = rg_test_uniform(0.1, 1), length = i == 0 ? 1e-3 * r : rg_test_uniform(0, 6) * r, area, volume;
        rg_vec3 a = rg_v3((rg_real)rg_test_uniform(-1, 1), (rg_real)rg_test_uniform(-1, 1), (rg_real)rg_test_uniform(-1, 1));
        rg_vec3 b = rg_v3_madd(a, rg_test_unit_vector(), (rg_real)length);
        draw_expect e;
        draw_sink s;
        ENSURE(rg_shape_is_valid(w, rg_body_add_capsule(w, id, &sd, a, b, (rg_real)r, NULL)));
        length = rg_v3_length(rg_v3_sub(b, a)); /* as rounded */
        memset(&e, 0, sizeof e);
        e.kind = DRAW_ROUND;
        e.a = draw_to_world(w, id, a);
        e.b = draw_to_world(w, id, b);
        e.radius = r;
        e.convex = 1;
        draw_collect(w, &e, 1, 0, 0, 0, &s);
        area = 4 * DRAW_PI * r * r + 2 * DRAW_PI * r * length;
        volume = 4.0 / 3 * DRAW_PI * r * r * r + DRAW_PI * r * r * length;
        ENSURE_REL(s.area, area, 0.02);
        ENSURE(s.area < area);
        ENSURE_REL(s.volume, volume, 0.03);
        ENSURE(s.inward == 0);
        ENSURE(s.worst_vertex <= draw_place_tolerance(w, id, r + length));
        if (fabs(s.area / area - 1) > worst_area) worst_area = fabs(s.area / area - 1);
        if (fabs(s.volume / volume - 1) > worst_volume) worst_volume = fabs(s.volume / volume - 1);
        if (s.worst_vertex / r > worst_vertex) worst_vertex = s.worst_vertex / r;
        rg_world_destroy(w);
    }
    rg_test_note("20 capsules: area short by at most %.3f%%, volume %.3f%%, vertex off the radius %.2g r",
                 100 * worst_area, 100 * worst_volume, worst_vertex);
}

/* The world vertices of every hull shape of the body, and their mean (inside the union when
   there is one hull; the compound test passes its own). */
static int draw_hull_vertices(const rg_world *w, rg_body_id id, draw_expect *e) {
    rg_shape_id shapes[8];
    int n = rg_body_shapes(w, id, shapes, 8), i, k;
    double mean[3] = {0, 0, 0};
    e->kind = DRAW_POINTS;
    e->vertex_count = 0;
    for (i = 0; i < n && i < 8; ++i) {
        rg_vec3 position;
        rg_quat orientation;
        const rg_hull *h = rg_shape_get_hull(w, shapes[i], &position, &orientation);
        if (!h) continue;
        for (k = 0; k < rg_hull_vertex_count(h); ++k) {
            rg_vec3 p = draw_to_world(w, id, rg_v3_add(position, rg_quat_rotate(orientation, rg_hull_vertex(h, k))));
            if (e->vertex_count >= DRAW_MAX_VERTICES) return 0;
            e->vertices[e->vertex_count++] = p;
            mean[0] += p.x; mean[1] += p.y; mean[2] += p.z;
        }
    }
    if (e->vertex_count == 0) return 0;
    e->inside = rg_v3((rg_real)(mean[0] / e->vertex_count), (rg_real)(mean[1] / e->vertex_count),
                      (rg_real)(mean[2] / e->vertex_count));
    return 1;
}

/* A hull's surface area from its faces, in its own frame: each polygon's area is n . (sum of
   v_i x v_i+1) / 2 (the same polygons the drawing fans, summed another way). */
static double draw_hull_area(const rg_hull *h) {
    double area = 0;
    int f, i, indices[64];
    for (f = 0; f < rg_hull_face_count(h); ++f) {
        int n = rg_hull_face_vertices(h, f, indices, 64);
        double sum[3] = {0, 0, 0}, normal[3];
        for (i = 0; i < n && n <= 64; ++i) {
            double a[3], b[3], c[3];
            draw_d3(rg_hull_vertex(h, indices[i]), a);
            draw_d3(rg_hull_vertex(h, indices[(i + 1) % n]), b);
            draw_cross(a, b, c);
            sum[0] += c[0]; sum[1] += c[1]; sum[2] += c[2];
        }
        draw_d3(rg_hull_face_normal(h, f), normal);
        area += draw_dot(normal, sum) / 2;
    }
    return area;
}

/* A box on a turned body: area 8 (xy + yz + zx), volume 8 xyz, vertices at its corners. */
static void test_draw_box(void) {
    int i;
    rg_test_seed(13);
    for (i = 0; i < 10; ++i) {
        rg_world *w = draw_world();
        rg_vec3 half = rg_v3((rg_real)rg_test_uniform(0.05, 2), (rg_real)rg_test_uniform(0.05, 2), (rg_real)rg_test_uniform(0.05, 2));
        rg_hull *box = rg_hull_create_box(half, NULL);
        rg_body_def bd = rg_body_default_def();
        rg_body_id id;
        double x = half.x, y = half.y, z = half.z, size = x + y + z;
        draw_expect e;
        draw_sink s;
        ENSURE(box != NULL);
        bd.hull = box;
        bd.position = rg_v3((rg_real)rg_test_uniform(-3, 3), (rg_real)rg_test_uniform(-3, 3), (rg_real)rg_test_uniform(-3, 3));
        bd.orientation = rg_test_rotation();
        id = rg_body_create(w, &bd, NULL);
        memset(&e, 0, sizeof e);
        e.convex = 1;
        ENSURE(draw_hull_vertices(w, id, &e));
        draw_collect(w, &e, 1, 0, 0, 0, &s);
        ENSURE(s.triangles == 12);
        ENSURE_REL(s.area, 8 * (x * y + y * z + z * x), 1e-5);
        ENSURE_REL(s.volume, 8 * x * y * z, 1e-5);
        ENSURE(s.inward == 0);
        ENSURE(s.worst_vertex <= draw_place_tolerance(w, id, size));
        ENSURE(s.first_rgb == RG_DEBUG_COLOR_DYNAMIC && !s.colors_differ);
        rg_world_destroy(w);
        rg_hull_destroy(box);
    }
}

/* Hulls of random point clouds (faces of 3 to many vertices): area against the faces' own
   polygons, volume against rg_hull_volume. */
static void test_draw_random_hull(void) {
    double worst_area = 0, worst_volume = 0;
    int i, k;
    rg_test_seed(14);
    for (i = 0; i < 20; ++i) {
        rg_world *w = draw_world();
        rg_vec3 points[40];
        rg_hull *h;
        rg_body_def bd = rg_body_default_def();
        rg_body_id id;
        double scale = rg_test_uniform(0.2, 3), area, volume;
        draw_expect e;
        draw_sink s;
        for (k = 0; k < 40; ++k) {
            /* some points on a cube's faces, so that faces of many vertices appear */
            points[k] = rg_v3_scale(rg_test_unit_vector(), (rg_real)(scale * rg_test_uniform(0.5, 1)));
            if (k % 3 == 0) points[k].y = (rg_real)(0.6 * scale);
        }
        h = rg_hull_create(points, 40, NULL);
        ENSURE(h != NULL);
        bd.type = i % 3 == 0 ? RG_BODY_STATIC : i % 3 == 1 ? RG_BODY_KINEMATIC : RG_BODY_DYNAMIC;
        bd.hull = h;
        bd.position = rg_v3((rg_real)rg_test_uniform(-3, 3), (rg_real)rg_test_uniform(-3, 3), (rg_real)rg_test_uniform(-3, 3));
        bd.orientation = rg_test_rotation();
        id = rg_body_create(w, &bd, NULL);
        memset(&e, 0, sizeof e);
        e.convex = 1;
        ENSURE(draw_hull_vertices(w, id, &e));
        draw_collect(w, &e, 1, 0, 0, 0, &s);
        area = draw_hull_area(h);
        volume = rg_hull_volume(h);
        ENSURE_REL(s.area, area, 1e-5);
        ENSURE_REL(s.volume, volume, 1e-5);
        ENSURE(s.inward == 0);
        ENSURE(s.worst_vertex <= draw_place_tolerance(w, id, scale));
        ENSURE(s.first_rgb == (bd.type == RG_BODY_STATIC ? RG_DEBUG_COLOR_STATIC
                               : bd.type == RG_BODY_KINEMATIC ? RG_DEBUG_COLOR_KINEMATIC : RG_DEBUG_COLOR_DYNAMIC));
        if (fabs(s.area / area - 1) > worst_area) worst_area = fabs(s.area / area - 1);
        if (fabs(s.volume / volume - 1) > worst_volume) worst_volume = fabs(s.volume / volume - 1);
        rg_world_destroy(w);
        rg_hull_destroy(h);
    }
    rg_test_note("20 random hulls: area off by %.2g, volume by %.2g (relative)", worst_area, worst_volume);
}

/* A compound body: a box at the frame's origin and two hulls placed and turned in it, apart
   from one another. The signed volume of several closed surfaces is the sum of theirs. */
static void test_draw_compound_hull(void) {
    rg_world *w = draw_world();
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 0.25f, 0.75f), NULL);
    rg_hull *prism = test_prism_hull(7, 0.4, 1.2);
    rg_shape_def sd = rg_shape_default_def();
    rg_body_def bd = rg_body_default_def();
    rg_body_id id;
    draw_expect e;
    draw_sink s;
    double area, volume;
    ENSURE(box && prism);
    rg_test_seed(15);
    bd.hull = box;
    bd.position = rg_v3(1, 2, -3);
    bd.orientation = rg_test_rotation();
    id = rg_body_create(w, &bd, NULL);
    ENSURE(rg_shape_is_valid(w, rg_body_add_hull(w, id, &sd, prism, rg_v3(3, 0, 0), rg_test_rotation(), NULL)));
    ENSURE(rg_shape_is_valid(w, rg_body_add_hull(w, id, &sd, box, rg_v3(0, -3, 1), rg_test_rotation(), NULL)));
    memset(&e, 0, sizeof e);
    e.convex = 0;  /* three solids: no single inside */
    ENSURE(draw_hull_vertices(w, id, &e));
    draw_collect(w, &e, 1, 0, 0, 0, &s);
    area = 2 * draw_hull_area(box) + draw_hull_area(prism);
    volume = 2 * rg_hull_volume(box) + rg_hull_volume(prism);
    ENSURE(s.triangles == 2 * 12 + 2 * 5 + 7 * 2);
    ENSURE_REL(s.area, area, 1e-5);
    ENSURE_REL(s.volume, volume, 1e-5);
    ENSURE(s.worst_vertex <= draw_place_tolerance(w, id, 1.2));
    rg_test_note("compound: area %.6f of %.6f, volume %.6f of %.6f, worst vertex %.2g", s.area, area, s.volume, volume,
                 s.worst_vertex);
    rg_world_destroy(w);
    rg_hull_destroy(box);
    rg_hull_destroy(prism);
}

/* Meshes on turned static and kinematic bodies: a closed one (a box's 12 triangles, fronts
   outwards, so area and volume are the box's) and an open bumpy terrain (area the sum of its
   input triangles', each drawn vertex an input vertex). */
static void test_draw_mesh(void) {
    static const int box_faces[12][3] = {
        {0, 3, 2}, {0, 1, 3}, {4, 7, 5}, {4, 6, 7}, {0, 5, 1}, {0, 4, 5},
        {2, 7, 6}, {2, 3, 7}, {0, 6, 4}, {0, 2, 6}, {1, 7, 3}, {1, 5, 7},
    };
    rg_vec3 corners[8], grid[64];
    int indices[12 * 3], terrain[7 * 7 * 2 * 3], i, j, k, n = 0;
    double hx = 0.7, hy = 0.4, hz = 1.1, terrain_area = 0;
    rg_mesh *closed, *open;
    rg_test_seed(16);
    for (k = 0; k < 8; ++k)
        corners[k] = rg_v3((rg_real)(k & 4 ? hx : -hx), (rg_real)(k & 2 ? hy : -hy), (rg_real)(k & 1 ? hz : -hz));
    for (i = 0; i < 12; ++i)
        for (k = 0; k < 3; ++k) indices[3 * i + k] = box_faces[i][k];
    closed = rg_mesh_create(corners, 8, indices, 12, NULL);
    for (i = 0; i < 8; ++i)
        for (j = 0; j < 8; ++j)
            grid[8 * i + j] = rg_v3((rg_real)i, (rg_real)rg_test_uniform(-0.3, 0.3), (rg_real)j);
    for (i = 0; i < 7; ++i)
        for (j = 0; j < 7; ++j) {
            int a = 8 * i + j, b = a + 1, c = a + 8, d = c + 1, t[6];
            t[0] = a; t[1] = b; t[2] = d;   /* front up: (b - a) x (d - a) = z x (x + z) has +y */
            t[3] = a; t[4] = d; t[5] = c;
            for (k = 0; k < 6; ++k) terrain[n++] = t[k];
            for (k = 0; k < 2; ++k) {
                double p[3], q[3], r[3], e1[3], e2[3], x[3];
                int m;
                draw_d3(grid[t[3 * k]], p);
                draw_d3(grid[t[3 * k + 1]], q);
                draw_d3(grid[t[3 * k + 2]], r);
                for (m = 0; m < 3; ++m) {
                    e1[m] = q[m] - p[m];
                    e2[m] = r[m] - p[m];
                }
                draw_cross(e1, e2, x);
                terrain_area += 0.5 * sqrt(draw_dot(x, x));
            }
        }
    open = rg_mesh_create(grid, 64, terrain, 98, NULL);
    ENSURE(closed && open && rg_mesh_triangle_count(open) == 98);
    for (k = 0; k < 2; ++k) {
        rg_world *w = draw_world();
        rg_body_id id = draw_body(w, k ? RG_BODY_KINEMATIC : RG_BODY_STATIC);
        rg_shape_def sd = rg_shape_default_def();
        draw_expect e;
        draw_sink s;
        double size = k ? 7 : hx + hy + hz;
        const rg_vec3 *vertices = k ? grid : corners;
        ENSURE(rg_shape_is_valid(w, rg_body_add_mesh(w, id, &sd, k ? open : closed, NULL)));
        memset(&e, 0, sizeof e);
        e.kind = DRAW_POINTS;
        e.convex = !k;
        e.inside = rg_body_position(w, id);
        for (i = 0; i < (k ? 64 : 8); ++i) e.vertices[e.vertex_count++] = draw_to_world(w, id, vertices[i]);
        draw_collect(w, &e, 1, 0, 0, 0, &s);
        ENSURE(s.worst_vertex <= draw_place_tolerance(w, id, size));
        if (!k) {
            ENSURE(s.triangles == 12);
            ENSURE_REL(s.area, 8 * (hx * hy + hy * hz + hz * hx), 1e-5);
            ENSURE_REL(s.volume, 8 * hx * hy * hz, 1e-5);
            ENSURE(s.inward == 0);
            ENSURE(s.first_rgb == RG_DEBUG_COLOR_STATIC);
        } else {
            ENSURE(s.triangles == 98);
            ENSURE_REL(s.area, terrain_area, 1e-5);
            ENSURE(s.first_rgb == RG_DEBUG_COLOR_KINEMATIC);
        }
        rg_world_destroy(w);
    }
    rg_mesh_destroy(closed);
    rg_mesh_destroy(open);
}

/* A small pile for the flag tests: a static ground (body 0), a dynamic box resting on it, a
   sphere with a sensor sphere, a kinematic box, stepped for 1 s. */
typedef struct draw_scene {
    rg_world *w;
    rg_hull *ground, *cube;
    rg_body_id bodies[4];
} draw_scene;

static int draw_scene_build(draw_scene *sc) {
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    int i;
    sc->w = draw_world();
    sc->ground = rg_hull_create_box(rg_v3(10, 0.5f, 10), NULL);
    sc->cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    if (!sc->w || !sc->ground || !sc->cube) return 0;
    bd.type = RG_BODY_STATIC;
    bd.hull = sc->ground;
    bd.position = rg_v3(0, -0.5f, 0);
    sc->bodies[0] = rg_body_create(sc->w, &bd, NULL);
    bd = rg_body_default_def();
    bd.hull = sc->cube;
    bd.position = rg_v3(0, 0.5f, 0);
    sc->bodies[1] = rg_body_create(sc->w, &bd, NULL);
    bd.hull = NULL;
    bd.position = rg_v3(3, 0.5f, 0);
    sc->bodies[2] = rg_body_create(sc->w, &bd, NULL);
    rg_body_add_sphere(sc->w, sc->bodies[2], &sd, rg_v3(0, 0, 0), 0.5f, NULL);
    sd.is_sensor = 1;
    rg_body_add_sphere(sc->w, sc->bodies[2], &sd, rg_v3(0, 1, 0), 0.3f, NULL);
    bd = rg_body_default_def();
    bd.type = RG_BODY_KINEMATIC;
    bd.hull = sc->cube;
    bd.position = rg_v3(-3, 4, 0);
    sc->bodies[3] = rg_body_create(sc->w, &bd, NULL);
    for (i = 0; i < 60; ++i) rg_world_step(sc->w, 1.0f / 60);
    return 1;
}

static void draw_scene_free(draw_scene *sc) {
    rg_world_destroy(sc->w);
    rg_hull_destroy(sc->ground);
    rg_hull_destroy(sc->cube);
}

/* Counts the triangles of each colour. */
typedef struct draw_colors { int grey, orange, blue, half_orange, other; } draw_colors;
static void draw_count_color(rg_vec3 a, rg_vec3 b, rg_vec3 c, uint32_t rgb, void *context) {
    draw_colors *k = (draw_colors *)context;
    (void)a; (void)b; (void)c;
    if (rgb == RG_DEBUG_COLOR_STATIC) ++k->grey;
    else if (rgb == RG_DEBUG_COLOR_DYNAMIC) ++k->orange;
    else if (rgb == RG_DEBUG_COLOR_KINEMATIC) ++k->blue;
    else if (rgb == ((RG_DEBUG_COLOR_DYNAMIC >> 1) & 0x7F7F7Fu)) ++k->half_orange;
    else ++k->other;
}

/* The flags: the defaults draw shapes only; draw_shapes 0 draws no triangle; contacts, impulses
   and boxes only when asked, and then as rg_world_contacts and rg_body_aabb say. Colours by body
   type, the sensor at half brightness; the same calls every time. */
static void test_draw_flags(void) {
    draw_scene sc;
    draw_sink s, again;
    rg_contact contacts[64];
    int n, i, k, with_impulse = 0;
    ENSURE(draw_scene_build(&sc));
    n = rg_world_contacts(sc.w, contacts, 64);
    ENSURE(n >= 4 && n <= 64);
    for (i = 0; i < n; ++i) with_impulse += contacts[i].normal_impulse > 0;

    draw_collect(sc.w, NULL, 1, 0, 0, 0, &s);  /* the defaults' flags */
    ENSURE(s.triangles > 0 && s.lines == 0 && s.points == 0);
    ENSURE(s.first_rgb == RG_DEBUG_COLOR_STATIC); /* body 0 first */
    draw_collect(sc.w, NULL, 1, 0, 0, 0, &again);
    ENSURE(again.hash == s.hash && again.triangles == s.triangles);
    {
        rg_debug_draw d = rg_debug_draw_default();
        draw_colors colors;
        ENSURE(d.draw_shapes == 1 && d.draw_joints == 1 && d.draw_contacts == 0 && d.draw_impulses == 0 && d.draw_aabbs == 0);
        ENSURE(d.triangle == NULL && d.line == NULL && d.point == NULL && d.context == NULL);
        memset(&colors, 0, sizeof colors);
        d.triangle = draw_count_color;
        d.context = &colors;
        rg_world_draw(sc.w, &d);
        /* ground 12, cube 12, kinematic cube 12, the sphere and the sensor sphere alike */
        ENSURE(colors.grey == 12 && colors.blue == 12 && colors.other == 0);
        ENSURE(colors.half_orange > 0 && colors.orange == 12 + colors.half_orange);
    }

    draw_collect(sc.w, NULL, 0, 0, 0, 0, &s);
    ENSURE(s.triangles == 0 && s.lines == 0 && s.points == 0);

    draw_collect(sc.w, NULL, 0, 1, 0, 0, &s);
    ENSURE(s.triangles == 0 && s.points == n && s.lines == n);
    ENSURE(s.point_rgb == RG_DEBUG_COLOR_CONTACT && s.line_rgb == RG_DEBUG_COLOR_NORMAL);
    ENSURE_NEAR(s.point_size, 0.05, 1e-7);
    for (i = 0; i < n; ++i) {
        ENSURE_V3_NEAR(s.line_a[i], contacts[i].point, 0);
        ENSURE_V3_NEAR(rg_v3_sub(s.line_b[i], s.line_a[i]), rg_v3_scale(contacts[i].normal, 0.25f), 1e-6);
    }

    draw_collect(sc.w, NULL, 0, 0, 1, 0, &s);
    ENSURE(s.points == 0 && s.lines == with_impulse && s.line_rgb == RG_DEBUG_COLOR_IMPULSE);
    for (i = 0, k = 0; i < n; ++i) {
        if (!(contacts[i].normal_impulse > 0)) continue;
        ENSURE_V3_NEAR(s.line_a[k], contacts[i].point, 0);
        ENSURE_NEAR(rg_v3_length(rg_v3_sub(s.line_b[k], s.line_a[k])), 0.01 * contacts[i].normal_impulse,
                    1e-5 * contacts[i].normal_impulse);
        ++k;
    }
    rg_test_note("%d contacts, %d with an impulse; the cube's first %.3f N s (a quarter of its weight a step: %.3f)", n,
                 with_impulse, contacts[0].normal_impulse, 1000 * 9.81 / 60 / 4);

    draw_collect(sc.w, NULL, 0, 0, 0, 1, &s);
    ENSURE(s.lines == 12 * 4 && s.points == 0 && s.line_rgb == RG_DEBUG_COLOR_AABB);
    for (i = 0; i < 4; ++i) {
        rg_vec3 lo, hi;
        double edges = 0;
        rg_body_aabb(sc.w, sc.bodies[i], &lo, &hi);
        for (k = 12 * i; k < 12 * i + 12; ++k) {
            rg_vec3 a = s.line_a[k], b = s.line_b[k];
            ENSURE(a.x >= lo.x && a.x <= hi.x && a.y >= lo.y && a.y <= hi.y && a.z >= lo.z && a.z <= hi.z);
            ENSURE((a.x == lo.x || a.x == hi.x) && (a.y == lo.y || a.y == hi.y) && (a.z == lo.z || a.z == hi.z));
            ENSURE((b.x == lo.x || b.x == hi.x) && (b.y == lo.y || b.y == hi.y) && (b.z == lo.z || b.z == hi.z));
            edges += rg_v3_length(rg_v3_sub(b, a));
        }
        /* the 12 edges: 4 along each axis */
        ENSURE_REL(edges, 4 * ((hi.x - lo.x) + (hi.y - lo.y) + (hi.z - lo.z)), 1e-6);
    }

    /* everything: shapes, then contacts, then boxes */
    draw_collect(sc.w, NULL, 1, 1, 1, 1, &s);
    ENSURE(s.points == n && s.lines == n + with_impulse + 48);
    draw_scene_free(&sc);
}

/* NULL callbacks are skipped, whatever the flags; what is set still draws. */
static void test_draw_null_callbacks(void) {
    draw_scene sc;
    draw_sink s;
    rg_debug_draw d = rg_debug_draw_default();
    int n;
    ENSURE(draw_scene_build(&sc));
    n = rg_world_contacts(sc.w, NULL, 0);
    d.draw_contacts = d.draw_impulses = d.draw_aabbs = 1;
    rg_world_draw(sc.w, &d); /* all NULL: nothing to call */
    memset(&s, 0, sizeof s);
    d.context = &s;
    d.point = draw_point;
    rg_world_draw(sc.w, &d);
    ENSURE(s.points == n && s.lines == 0 && s.triangles == 0);
    memset(&s, 0, sizeof s);
    d.point = NULL;
    d.line = draw_line;
    rg_world_draw(sc.w, &d);
    ENSURE(s.points == 0 && s.lines > 48 && s.triangles == 0);
    memset(&s, 0, sizeof s);
    d.line = NULL;
    d.triangle = draw_triangle;
    rg_world_draw(sc.w, &d);
    ENSURE(s.points == 0 && s.lines == 0 && s.triangles > 0);
    draw_scene_free(&sc);
}

/* A NULL world or draw draws nothing; an empty world nothing; a destroyed body's shapes and
   contacts are gone; a destroyed shape is gone. */
static void test_draw_bad_input(void) {
    draw_scene sc;
    draw_sink s;
    rg_debug_draw d = rg_debug_draw_default();
    rg_world *empty = draw_world();
    rg_shape_id shapes[2];
    int before, n;
    ENSURE(draw_scene_build(&sc));
    memset(&s, 0, sizeof s);
    d.triangle = draw_triangle;
    d.line = draw_line;
    d.point = draw_point;
    d.context = &s;
    d.draw_contacts = d.draw_impulses = d.draw_aabbs = 1;
    rg_world_draw(NULL, &d);
    rg_world_draw(sc.w, NULL);
    rg_world_draw(NULL, NULL);
    rg_world_draw(empty, &d);
    ENSURE(s.triangles == 0 && s.lines == 0 && s.points == 0);

    draw_collect(sc.w, NULL, 1, 0, 0, 0, &s);
    before = s.triangles;
    ENSURE(rg_body_shapes(sc.w, sc.bodies[2], shapes, 2) == 2);
    ENSURE(rg_shape_destroy(sc.w, shapes[1]) == RG_OK); /* the sensor sphere */
    draw_collect(sc.w, NULL, 1, 0, 0, 0, &s);
    ENSURE(s.triangles < before && s.triangles > 36);
    before = s.triangles;
    n = rg_world_contacts(sc.w, NULL, 0);
    ENSURE(rg_body_destroy(sc.w, sc.bodies[1]) == RG_OK); /* the cube resting on the ground */
    draw_collect(sc.w, NULL, 1, 1, 0, 1, &s);
    ENSURE(s.triangles == before - 12);
    ENSURE(s.points == rg_world_contacts(sc.w, NULL, 0) && s.points < n);
    ENSURE(s.lines == s.points + 12 * 3);
    rg_world_destroy(empty);
    draw_scene_free(&sc);
}

void rg_tests_draw(void) {
    RUN_TEST(test_draw_sphere);
    RUN_TEST(test_draw_capsule);
    RUN_TEST(test_draw_box);
    RUN_TEST(test_draw_random_hull);
    RUN_TEST(test_draw_compound_hull);
    RUN_TEST(test_draw_mesh);
    RUN_TEST(test_draw_flags);
    RUN_TEST(test_draw_null_callbacks);
    RUN_TEST(test_draw_bad_input);
}
