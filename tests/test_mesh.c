/* Triangle meshes (rg_mesh_create and its queries): bad input refused, degenerate triangles
   dropped, unit normals equal to the corners' cross product, internal edges (flat or concave,
   also across tiles with duplicated vertices) inactive and convex ones beyond 5 degrees active,
   and rg_mesh_query_box equal to a brute-force loop over every triangle's box. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "tools/terrain.h"

static const double degrees = 3.14159265358979324 / 180;

static int boxes_overlap(rg_vec3 amin, rg_vec3 amax, rg_vec3 bmin, rg_vec3 bmax) {
    return amin.x <= bmax.x && bmin.x <= amax.x && amin.y <= bmax.y && bmin.y <= amax.y &&
           amin.z <= bmax.z && bmin.z <= amax.z;
}

static void triangle_box(const rg_mesh *mesh, int t, rg_vec3 *lo, rg_vec3 *hi) {
    int v[3];
    rg_vec3 a, b, c;
    rg_mesh_triangle(mesh, t, v);
    a = rg_mesh_vertex(mesh, v[0]); b = rg_mesh_vertex(mesh, v[1]); c = rg_mesh_vertex(mesh, v[2]);
    *lo = rg_v3_min(a, rg_v3_min(b, c));
    *hi = rg_v3_max(a, rg_v3_max(b, c));
}

static double flat(double x, double z, void *context) {
    (void)x; (void)z; (void)context;
    return 0;
}

/* ---- bad input and degenerate triangles ----------------------------------------------------- */

static void test_mesh_bad_input_is_refused(void) {
    rg_vec3 v[4];
    int tri[3] = {0, 1, 2}, bad_low[3] = {0, -1, 2}, bad_high[3] = {0, 1, 4};
    rg_result r = RG_OK;
    v[0] = rg_v3(0, 0, 0); v[1] = rg_v3(1, 0, 0); v[2] = rg_v3(0, 0, 1); v[3] = rg_v3(1, 0, 1);
    ENSURE(rg_mesh_create(NULL, 4, tri, 1, &r) == NULL && r == RG_ERR_INVALID_ARGUMENT);
    r = RG_OK;
    ENSURE(rg_mesh_create(v, 4, NULL, 1, &r) == NULL && r == RG_ERR_INVALID_ARGUMENT);
    r = RG_OK;
    ENSURE(rg_mesh_create(v, 0, tri, 1, &r) == NULL && r == RG_ERR_INVALID_ARGUMENT);
    r = RG_OK;
    ENSURE(rg_mesh_create(v, -3, tri, 1, &r) == NULL && r == RG_ERR_INVALID_ARGUMENT);
    r = RG_OK;
    ENSURE(rg_mesh_create(v, 4, tri, 0, &r) == NULL && r == RG_ERR_INVALID_ARGUMENT);
    r = RG_OK;
    ENSURE(rg_mesh_create(v, 4, tri, -1, &r) == NULL && r == RG_ERR_INVALID_ARGUMENT);
    r = RG_OK;
    ENSURE(rg_mesh_create(v, 4, bad_low, 1, &r) == NULL && r == RG_ERR_INVALID_ARGUMENT);
    r = RG_OK;
    ENSURE(rg_mesh_create(v, 4, bad_high, 1, &r) == NULL && r == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_mesh_create(v, 4, bad_high, 1, NULL) == NULL);  /* a NULL result is allowed */
    /* NaN, infinity and absurd magnitudes, also in a vertex no triangle uses */
    v[3].y = (rg_real)NAN;
    r = RG_OK;
    ENSURE(rg_mesh_create(v, 4, tri, 1, &r) == NULL && r == RG_ERR_INVALID_ARGUMENT);
    v[3].y = (rg_real)INFINITY;
    r = RG_OK;
    ENSURE(rg_mesh_create(v, 4, tri, 1, &r) == NULL && r == RG_ERR_INVALID_ARGUMENT);
    v[3].y = (rg_real)-2e15;
    r = RG_OK;
    ENSURE(rg_mesh_create(v, 4, tri, 1, &r) == NULL && r == RG_ERR_INVALID_ARGUMENT);
    v[3].y = (rg_real)1e15;  /* at the limit: accepted */
    {
        rg_mesh *m = rg_mesh_create(v, 4, tri, 1, &r);
        ENSURE(m != NULL && r == RG_OK && rg_mesh_triangle_count(m) == 1 && rg_mesh_vertex_count(m) == 4);
        rg_mesh_destroy(m);
    }
    rg_mesh_destroy(NULL);
}

/* The accessors and the query take NULL meshes, bad triangle numbers and bad boxes. */
static void test_mesh_accessors_take_bad_arguments(void) {
    rg_vec3 v[3], lo = rg_v3(-1, -1, -1), hi = rg_v3(2, 2, 2), z;
    int tri[3] = {0, 1, 2}, out[4] = {-7, -7, -7, -7}, got[3] = {-7, -7, -7};
    rg_mesh *m;
    v[0] = rg_v3(0, 0, 0); v[1] = rg_v3(0, 0, 1); v[2] = rg_v3(1, 0, 0);
    m = rg_mesh_create(v, 3, tri, 1, NULL);
    ENSURE(m != NULL);
    ENSURE(rg_mesh_vertex_count(NULL) == 0 && rg_mesh_triangle_count(NULL) == 0);
    z = rg_mesh_vertex(m, 3);
    ENSURE(z.x == 0 && z.y == 0 && z.z == 0);
    z = rg_mesh_vertex(NULL, 0);
    ENSURE(z.x == 0 && z.y == 0 && z.z == 0);
    ENSURE(rg_mesh_triangle(m, -1, got) == 0 && rg_mesh_triangle(m, 1, got) == 0 && got[0] == -7);
    ENSURE(rg_mesh_triangle(NULL, 0, got) == 0 && rg_mesh_triangle(m, 0, NULL) == 0);
    ENSURE(rg_mesh_active_edges(m, 1) == 0 && rg_mesh_active_edges(NULL, 0) == 0);
    ENSURE(rg_mesh_active_edges(m, 0) == 7);  /* a lone triangle: all boundary */
    z = rg_mesh_triangle_normal(m, -1);
    ENSURE(z.x == 0 && z.y == 0 && z.z == 0);
    ENSURE(rg_mesh_query_box(NULL, lo, hi, out, 4) == 0);
    ENSURE(rg_mesh_query_box(m, lo, hi, NULL, 4) == 0);
    ENSURE(rg_mesh_query_box(m, lo, hi, out, -1) == 0);
    ENSURE(rg_mesh_query_box(m, rg_v3(-1, (rg_real)NAN, -1), hi, out, 4) == 0);
    ENSURE(rg_mesh_query_box(m, lo, rg_v3(2, (rg_real)INFINITY, 2), out, 4) == 0);
    ENSURE(out[0] == -7);
    ENSURE(rg_mesh_query_box(m, lo, hi, NULL, 0) == 1);         /* count only */
    ENSURE(rg_mesh_query_box(m, lo, hi, out, 4) == 1 && out[0] == 0 && out[1] == -7);
    ENSURE(rg_mesh_query_box(m, hi, lo, out, 4) == 0);          /* an empty box */
    ENSURE(rg_mesh_query_box(m, rg_v3(1, 0, 1), rg_v3(3, 3, 3), out, 4) == 1);  /* touching a corner */
    ENSURE(rg_mesh_query_box(m, rg_v3(-3, -3, -3), rg_v3(0, 0, 0), out, 4) == 1); /* and the other */
    ENSURE(rg_mesh_query_box(m, rg_v3(-3, -3, -3), rg_v3(-0.001f, 0, 0), out, 4) == 0);
    ENSURE(rg_mesh_query_box(m, rg_v3(1.001f, 0, 0), rg_v3(3, 3, 3), out, 4) == 0);
    rg_mesh_destroy(m);
}

/* Sorted copies of the index triples, to compare meshes as sets of triangles. */
static int compare_triples(const void *a, const void *b) {
    const int *x = (const int *)a, *y = (const int *)b;
    int k;
    for (k = 0; k < 3; ++k)
        if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
    return 0;
}

static void test_mesh_degenerate_triangles_are_dropped(void) {
    /* 0-2: a good triangle; 3: a copy of vertex 0; 4-5: on the line through 0 and 1; 6: a height
       of 1e-17 above that line (nothing in float or double); 7: 1e-3 above it (kept) */
    rg_vec3 v[8];
    int indices[] = {
        0, 2, 1,   /* good */
        0, 0, 1,   /* repeated index */
        0, 1, 4,   /* collinear */
        4, 5, 0,   /* collinear */
        3, 2, 0,   /* vertex 3 is vertex 0's position: two corners at one point */
        0, 6, 1,   /* height 1e-17 */
        0, 7, 1,   /* height 1e-3: thin but kept */
    };
    int expected[2][3] = {{0, 2, 1}, {0, 7, 1}}, got[2][3], t, only_bad[] = {0, 0, 1, 0, 1, 4, 3, 2, 0, 0, 6, 1};
    rg_result r = RG_OK;
    rg_mesh *m;
    rg_vec3 same[3];
    int same_tri[3] = {0, 1, 2};
    v[0] = rg_v3(0, 0, 0); v[1] = rg_v3(1, 0, 0); v[2] = rg_v3(0, 0, 1); v[3] = rg_v3(0, 0, 0);
    v[4] = rg_v3(2, 0, 0); v[5] = rg_v3(-3, 0, 0); v[6] = rg_v3(0.5f, (rg_real)1e-17, 0);
    v[7] = rg_v3(0.5f, 0, (rg_real)-1e-3);
    m = rg_mesh_create(v, 8, indices, 7, &r);
    ENSURE(m != NULL && r == RG_OK);
    ENSURE(rg_mesh_triangle_count(m) == 2 && rg_mesh_vertex_count(m) == 8);
    for (t = 0; t < 2; ++t) ENSURE(rg_mesh_triangle(m, t, got[t]));
    qsort(got, 2, sizeof got[0], compare_triples);
    qsort(expected, 2, sizeof expected[0], compare_triples);
    ENSURE(memcmp(got, expected, sizeof got) == 0);
    rg_mesh_destroy(m);
    /* nothing left */
    r = RG_OK;
    ENSURE(rg_mesh_create(v, 8, only_bad, 4, &r) == NULL && r == RG_ERR_DEGENERATE);
    same[0] = same[1] = same[2] = rg_v3(1, 2, 3);
    r = RG_OK;
    ENSURE(rg_mesh_create(same, 3, same_tri, 1, &r) == NULL && r == RG_ERR_DEGENERATE);
}

/* ---- normals -------------------------------------------------------------------------------- */

static int normal_matches_cross_product(const rg_mesh *m, int t, double tolerance) {
    int v[3];
    rg_vec3 a, b, c, n = rg_mesh_triangle_normal(m, t);
    double e1[3], e2[3], x[3], length;
    rg_mesh_triangle(m, t, v);
    a = rg_mesh_vertex(m, v[0]); b = rg_mesh_vertex(m, v[1]); c = rg_mesh_vertex(m, v[2]);
    e1[0] = (double)b.x - a.x; e1[1] = (double)b.y - a.y; e1[2] = (double)b.z - a.z;
    e2[0] = (double)c.x - a.x; e2[1] = (double)c.y - a.y; e2[2] = (double)c.z - a.z;
    x[0] = e1[1] * e2[2] - e1[2] * e2[1];
    x[1] = e1[2] * e2[0] - e1[0] * e2[2];
    x[2] = e1[0] * e2[1] - e1[1] * e2[0];
    length = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    return fabs(n.x - x[0] / length) <= tolerance && fabs(n.y - x[1] / length) <= tolerance &&
           fabs(n.z - x[2] / length) <= tolerance &&
           fabs(sqrt((double)n.x * n.x + (double)n.y * n.y + (double)n.z * n.z) - 1) <= tolerance;
}

/* Random triangles of all sizes and shapes, far from the origin too, and the terrain's. */
static void test_mesh_normals_are_unit_cross_products(void) {
    enum { COUNT = 2000 };
    rg_vec3 *v = (rg_vec3 *)malloc(sizeof(rg_vec3) * 3 * COUNT);
    int *indices = (int *)malloc(sizeof(int) * 3 * COUNT), i, worst = 0;
    rg_mesh *m;
    terrain land = terrain_make(20000, 7);
    rg_test_seed(41);
    for (i = 0; i < 3 * COUNT; i += 3) {
        double scale = pow(10, rg_test_uniform(-2, 3)), distance = rg_test_uniform(0, 1000);
        rg_vec3 center = rg_v3_scale(rg_test_unit_vector(), (rg_real)distance);
        v[i] = rg_v3_add(center, rg_v3_scale(rg_test_unit_vector(), (rg_real)scale));
        v[i + 1] = rg_v3_add(center, rg_v3_scale(rg_test_unit_vector(), (rg_real)scale));
        v[i + 2] = rg_v3_add(center, rg_v3_scale(rg_test_unit_vector(), (rg_real)scale));
        indices[i] = i; indices[i + 1] = i + 1; indices[i + 2] = i + 2;
    }
    m = rg_mesh_create(v, 3 * COUNT, indices, COUNT, NULL);
    ENSURE(m != NULL);
    rg_test_note("%d of %d random triangles kept", rg_mesh_triangle_count(m), COUNT);
    ENSURE(rg_mesh_triangle_count(m) >= COUNT - 5);
    for (i = 0; i < rg_mesh_triangle_count(m); ++i) worst += !normal_matches_cross_product(m, i, 4 * RG_TEST_EPS);
    ENSURE(worst == 0);
    rg_mesh_destroy(m);
    m = rg_mesh_create(land.vertices, land.vertex_count, land.indices, land.triangle_count, NULL);
    ENSURE(m != NULL && rg_mesh_triangle_count(m) == land.triangle_count);
    for (i = 0; i < rg_mesh_triangle_count(m); ++i) worst += !normal_matches_cross_product(m, i, 4 * RG_TEST_EPS);
    ENSURE(worst == 0);
    rg_mesh_destroy(m);
    terrain_free(&land);
    free(v);
    free(indices);
}

/* ---- active edges --------------------------------------------------------------------------- */

/* Whether each edge of each kept triangle is active exactly when expected(a, b) says so, a and b
   the edge's ends; returns the number of mismatches and counts the active edges. */
typedef int (*edge_rule)(rg_vec3 a, rg_vec3 b, void *context);

static int active_mismatches(const rg_mesh *m, edge_rule expected, void *context, int *active_count) {
    int t, k, wrong = 0;
    *active_count = 0;
    for (t = 0; t < rg_mesh_triangle_count(m); ++t) {
        int v[3];
        unsigned bits = rg_mesh_active_edges(m, t);
        rg_mesh_triangle(m, t, v);
        for (k = 0; k < 3; ++k) {
            int active = (bits >> k) & 1;
            *active_count += active;
            wrong += active != expected(rg_mesh_vertex(m, v[k]), rg_mesh_vertex(m, v[(k + 1) % 3]), context);
        }
    }
    return wrong;
}

/* The grid's outline: both ends on one side of the square [lo, hi]^2 in x-z. */
typedef struct square { double lo, hi; } square;

static int on_outline(rg_vec3 a, rg_vec3 b, void *context) {
    const square *s = (const square *)context;
    return (a.x == s->lo && b.x == s->lo) || (a.x == s->hi && b.x == s->hi) ||
           (a.z == s->lo && b.z == s->lo) || (a.z == s->hi && b.z == s->hi);
}

static void test_mesh_flat_grid_has_active_outline_only(void) {
    terrain grid = terrain_grid(12, 12, -6, -6, 1, flat, NULL);
    square outline = {-6, 6};
    int active;
    rg_mesh *m = rg_mesh_create(grid.vertices, grid.vertex_count, grid.indices, grid.triangle_count, NULL);
    ENSURE(m != NULL && rg_mesh_triangle_count(m) == 288);
    ENSURE(active_mismatches(m, on_outline, &outline, &active) == 0);
    ENSURE(active == 4 * 12);
    rg_mesh_destroy(m);
    terrain_free(&grid);
}

/* tiles x tiles separate grids of cells x cells, each with its own vertices (those on the seams
   repeated), gathered into one vertex and index array. */
static void tiled_grid(int tiles, int cells, terrain *out) {
    int tx, tz, i;
    out->vertex_count = out->triangle_count = 0;
    out->vertices = (rg_vec3 *)malloc(sizeof(rg_vec3) * (size_t)(tiles * tiles * (cells + 1) * (cells + 1)));
    out->indices = (int *)malloc(sizeof(int) * 3 * (size_t)(tiles * tiles * 2 * cells * cells));
    for (tz = 0; tz < tiles; ++tz)
        for (tx = 0; tx < tiles; ++tx) {
            terrain tile = terrain_grid(cells, cells, tx * cells, tz * cells, 1, flat, NULL);
            memcpy(out->vertices + out->vertex_count, tile.vertices, sizeof(rg_vec3) * (size_t)tile.vertex_count);
            for (i = 0; i < 3 * tile.triangle_count; ++i)
                out->indices[3 * out->triangle_count + i] = tile.indices[i] + out->vertex_count;
            out->vertex_count += tile.vertex_count;
            out->triangle_count += tile.triangle_count;
            terrain_free(&tile);
        }
}

static void test_mesh_tiles_with_duplicated_vertices_join(void) {
    terrain grid;
    square outline = {0, 12};
    int active;
    rg_mesh *m;
    tiled_grid(3, 4, &grid);
    ENSURE(grid.vertex_count == 9 * 25 && grid.triangle_count == 288);
    m = rg_mesh_create(grid.vertices, grid.vertex_count, grid.indices, grid.triangle_count, NULL);
    ENSURE(m != NULL && rg_mesh_triangle_count(m) == 288);
    ENSURE(active_mismatches(m, on_outline, &outline, &active) == 0);
    ENSURE(active == 4 * 12);
    rg_mesh_destroy(m);
    terrain_free(&grid);
}

/* A roof (slope = -tan) or a valley (slope = +tan) along the line x = 0: y = slope |x|. */
static double ridge_height(double x, double z, void *context) {
    (void)z;
    return *(const double *)context * fabs(x);
}

typedef struct ridge_rule { int ridge_active; square outline; } ridge_rule;

static int ridge_expected(rg_vec3 a, rg_vec3 b, void *context) {
    const ridge_rule *r = (const ridge_rule *)context;
    if (on_outline(a, b, (void *)&r->outline)) return 1;
    return a.x == 0 && b.x == 0 ? r->ridge_active : 0;
}

/* The two slopes of a roof (or valley) meet at twice the slope angle; each grid has 4 x 4 cells
   from -2 to 2. Returns the mismatches. */
static int ridge_mismatches(double slope_degrees, int expect_ridge_active) {
    double slope = tan(fabs(slope_degrees) * degrees) * (slope_degrees < 0 ? -1 : 1);
    terrain grid = terrain_grid(4, 4, -2, -2, 1, ridge_height, &slope);
    ridge_rule rule;
    int active, wrong = 1000;
    rg_mesh *m = rg_mesh_create(grid.vertices, grid.vertex_count, grid.indices, grid.triangle_count, NULL);
    rule.ridge_active = expect_ridge_active;
    rule.outline.lo = -2;
    rule.outline.hi = 2;
    if (m) wrong = active_mismatches(m, ridge_expected, &rule, &active);
    rg_mesh_destroy(m);
    terrain_free(&grid);
    return wrong;
}

/* Roofs (convex) bent by 60 and 6 degrees: the ridge is active; by 4 degrees: flat enough,
   inactive. Valleys (concave) are inactive however deep. */
static void test_mesh_convex_ridge_active_valley_inactive(void) {
    ENSURE(ridge_mismatches(-30, 1) == 0);
    ENSURE(ridge_mismatches(-3, 1) == 0);
    ENSURE(ridge_mismatches(-2, 0) == 0);
    ENSURE(ridge_mismatches(30, 0) == 0);
    ENSURE(ridge_mismatches(3, 0) == 0);
    ENSURE(ridge_mismatches(60, 0) == 0);
}

/* An edge shared by three triangles, or by two running the same way (inconsistent orientation),
   is a boundary: active, though its triangles are coplanar. A sheet (a triangle and its mirror)
   is folded back on itself: its edges are knife edges, active. */
static void test_mesh_nonmanifold_and_misoriented_edges_are_boundaries(void) {
    rg_vec3 v[6];
    int three[] = {0, 1, 2, 1, 0, 3, 1, 0, 4};     /* edge 0-1 in three triangles, coplanar in y = 0 */
    int same_way[] = {0, 1, 2, 0, 1, 3};          /* edge 0 -> 1 in both, coplanar */
    int sheet[] = {0, 1, 2, 0, 2, 1};
    int t, k;
    rg_mesh *m;
    v[0] = rg_v3(0, 0, 0); v[1] = rg_v3(1, 0, 0); v[2] = rg_v3(0, 0, -1);
    v[3] = rg_v3(0, 0, 1); v[4] = rg_v3(1, 0, 1); v[5] = rg_v3(5, 5, 5);
    m = rg_mesh_create(v, 6, three, 3, NULL);
    ENSURE(m != NULL && rg_mesh_triangle_count(m) == 3);
    for (t = 0; t < 3; ++t) ENSURE(rg_mesh_active_edges(m, t) == 7);
    rg_mesh_destroy(m);
    m = rg_mesh_create(v, 6, same_way, 2, NULL);
    ENSURE(m != NULL && rg_mesh_triangle_count(m) == 2);
    for (t = 0; t < 2; ++t) ENSURE(rg_mesh_active_edges(m, t) == 7);
    rg_mesh_destroy(m);
    m = rg_mesh_create(v, 6, sheet, 2, NULL);
    ENSURE(m != NULL && rg_mesh_triangle_count(m) == 2);
    for (t = 0; t < 2; ++t) ENSURE(rg_mesh_active_edges(m, t) == 7);
    rg_mesh_destroy(m);
    /* the control: the same two coplanar triangles, consistently oriented, share an inactive edge */
    same_way[3] = 1; same_way[4] = 0;
    m = rg_mesh_create(v, 6, same_way, 2, NULL);
    ENSURE(m != NULL);
    for (t = 0, k = 0; t < 2; ++t) k += rg_mesh_active_edges(m, t) == 7;
    ENSURE(k == 0);
    rg_mesh_destroy(m);
}

/* Cube edges: the ends differ in one coordinate (a face's diagonal differs in two). */
static int cube_edge(rg_vec3 a, rg_vec3 b, void *context) {
    (void)context;
    return (a.x != b.x) + (a.y != b.y) + (a.z != b.z) == 1;
}

/* A closed cube of 12 triangles, each face split along a diagonal: the 12 edges (90 degrees,
   convex) active on both sides, the 6 flat diagonals inactive, no boundary. */
static void test_mesh_closed_cube(void) {
    rg_vec3 v[8];
    int indices[36], n = 0, i, axis, side, active;
    rg_mesh *m;
    for (i = 0; i < 8; ++i) v[i] = rg_v3(i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f, i & 4 ? 1.0f : -1.0f);
    for (axis = 0; axis < 3; ++axis)
        for (side = 0; side < 2; ++side) {
            /* the face's corners around it, then turned to run counter-clockwise from outside */
            int u = 1 << ((axis + 1) % 3), w = 1 << ((axis + 2) % 3), base = side << axis;
            int q[4], k;
            rg_vec3 outward = rg_v3(0, 0, 0), normal;
            q[0] = base; q[1] = base + u; q[2] = base + u + w; q[3] = base + w;
            if (axis == 0) outward.x = side ? 1.0f : -1.0f;
            if (axis == 1) outward.y = side ? 1.0f : -1.0f;
            if (axis == 2) outward.z = side ? 1.0f : -1.0f;
            normal = rg_v3_cross(rg_v3_sub(v[q[1]], v[q[0]]), rg_v3_sub(v[q[2]], v[q[0]]));
            if (rg_v3_dot(normal, outward) < 0) { k = q[1]; q[1] = q[3]; q[3] = k; }
            indices[n++] = q[0]; indices[n++] = q[1]; indices[n++] = q[2];
            indices[n++] = q[0]; indices[n++] = q[2]; indices[n++] = q[3];
        }
    m = rg_mesh_create(v, 8, indices, 12, NULL);
    ENSURE(m != NULL && rg_mesh_triangle_count(m) == 12);
    for (i = 0; i < 12; ++i) {
        int corners[3];
        rg_mesh_triangle(m, i, corners);
        ENSURE(rg_v3_dot(rg_mesh_triangle_normal(m, i), rg_mesh_vertex(m, corners[0])) > 0);  /* outward */
    }
    ENSURE(active_mismatches(m, cube_edge, NULL, &active) == 0);
    ENSURE(active == 24);
    rg_mesh_destroy(m);
}

/* ---- the hierarchy and its query ------------------------------------------------------------ */

/* The query against the brute force over every kept triangle's box, for boxes from a
   generator; returns the mismatching boxes and adds up the hits. A short buffer must take the
   first hits and still count them all. */
typedef void (*box_maker)(rg_vec3 all_lo, rg_vec3 all_hi, void *context, rg_vec3 *lo, rg_vec3 *hi);

static int query_mismatches(const rg_mesh *m, int boxes, box_maker make, void *context, long *hits) {
    int n = rg_mesh_triangle_count(m), *got = (int *)malloc(sizeof(int) * (size_t)n);
    int *want = (int *)malloc(sizeof(int) * (size_t)n), i, t, wrong = 0;
    rg_vec3 *lo = (rg_vec3 *)malloc(sizeof(rg_vec3) * (size_t)n), *hi = (rg_vec3 *)malloc(sizeof(rg_vec3) * (size_t)n);
    rg_vec3 all_lo = rg_v3(1e30f, 1e30f, 1e30f), all_hi = rg_v3(-1e30f, -1e30f, -1e30f);
    for (t = 0; t < n; ++t) {
        triangle_box(m, t, &lo[t], &hi[t]);
        all_lo = rg_v3_min(all_lo, lo[t]);
        all_hi = rg_v3_max(all_hi, hi[t]);
    }
    *hits = 0;
    for (i = 0; i < boxes; ++i) {
        rg_vec3 qlo, qhi;
        int count = 0, reported;
        make(all_lo, all_hi, context, &qlo, &qhi);
        for (t = 0; t < n; ++t)
            if (boxes_overlap(lo[t], hi[t], qlo, qhi)) want[count++] = t;
        reported = rg_mesh_query_box(m, qlo, qhi, got, n);
        *hits += count;
        if (reported != count || memcmp(got, want, sizeof(int) * (size_t)count) != 0) ++wrong;
        if (count > 2 && (rg_mesh_query_box(m, qlo, qhi, got, count / 2) != count ||
                          memcmp(got, want, sizeof(int) * (size_t)(count / 2)) != 0)) ++wrong;
    }
    free(got); free(want); free(lo); free(hi);
    return wrong;
}

/* Boxes with half sizes in [range[0], range[1]] centred anywhere within range[1] of the mesh's
   box (the random numbers drawn one statement each: argument order is unspecified). */
static void uniform_box(rg_vec3 all_lo, rg_vec3 all_hi, void *context, rg_vec3 *lo, rg_vec3 *hi) {
    const double *range = (const double *)context;
    double c[3], h[3];
    int k;
    c[0] = rg_test_uniform(all_lo.x - range[1], all_hi.x + range[1]);
    c[1] = rg_test_uniform(all_lo.y - range[1], all_hi.y + range[1]);
    c[2] = rg_test_uniform(all_lo.z - range[1], all_hi.z + range[1]);
    for (k = 0; k < 3; ++k) h[k] = rg_test_uniform(range[0], range[1]);
    *lo = rg_v3((rg_real)(c[0] - h[0]), (rg_real)(c[1] - h[1]), (rg_real)(c[2] - h[2]));
    *hi = rg_v3((rg_real)(c[0] + h[0]), (rg_real)(c[1] + h[1]), (rg_real)(c[2] + h[2]));
}

/* A 100 352-triangle terrain: every kept triangle is an input triangle, once, and the query over
   boxes from a body's size to a tenth of the terrain equals the brute force. */
static void test_mesh_terrain_query_matches_brute_force(void) {
    terrain land = terrain_make(100000, 3);
    int *kept, t;
    long hits, big_hits;
    double small[2] = {0.05, 1.5}, large[2] = {5, 25};
    rg_result r = RG_ERR_DEGENERATE;
    rg_mesh *m = rg_mesh_create(land.vertices, land.vertex_count, land.indices, land.triangle_count, &r);
    ENSURE(m != NULL && r == RG_OK && land.triangle_count == 100352);
    ENSURE(rg_mesh_triangle_count(m) == land.triangle_count);
    kept = (int *)malloc(sizeof(int) * 3 * (size_t)land.triangle_count);
    for (t = 0; t < land.triangle_count; ++t) rg_mesh_triangle(m, t, kept + 3 * t);
    qsort(kept, (size_t)land.triangle_count, 3 * sizeof(int), compare_triples);
    qsort(land.indices, (size_t)land.triangle_count, 3 * sizeof(int), compare_triples);
    ENSURE(memcmp(kept, land.indices, sizeof(int) * 3 * (size_t)land.triangle_count) == 0);
    free(kept);
    rg_test_seed(17);
    ENSURE(query_mismatches(m, 300, uniform_box, small, &hits) == 0);
    ENSURE(query_mismatches(m, 30, uniform_box, large, &big_hits) == 0);
    rg_test_note("%ld hits in 300 small boxes, %ld in 30 large", hits, big_hits);
    ENSURE(hits > 300 && big_hits > 30 * 100);
    rg_mesh_destroy(m);
    terrain_free(&land);
}

/* Boxes at x = 2^u, u uniform in [-100, 48], of half size 0.01 to 2 times that (within 1e15). */
static void spread_box(rg_vec3 all_lo, rg_vec3 all_hi, void *context, rg_vec3 *lo, rg_vec3 *hi) {
    double x = pow(2, rg_test_uniform(-100, 48)), h = x * rg_test_uniform(0.01, 2);
    (void)all_lo; (void)all_hi; (void)context;
    *lo = rg_v3((rg_real)(x - h), (rg_real)-h, (rg_real)-h);
    *hi = rg_v3((rg_real)(x + h), (rg_real)h, (rg_real)h);
}

/* Triangles that defeat the surface area heuristic: sized x / 4 at x = 2^k, -100 <= k < 50 (the
   heuristic's splits peel off a few powers at a time; the hierarchy reaches the median splits
   below depth 32), and 5000 copies of one triangle (the centres coincide: median splits only).
   The query still equals the brute force. */
static void test_mesh_query_on_degenerate_distributions(void) {
    enum { SPREAD = 150, COPIES = 5000 };
    rg_vec3 *v = (rg_vec3 *)malloc(sizeof(rg_vec3) * 3 * COPIES);
    int *indices = (int *)malloc(sizeof(int) * 3 * COPIES), i, out[8];
    double near[2] = {0.1, 2};
    long hits;
    rg_mesh *m;
    for (i = 0; i < SPREAD; ++i) {
        rg_real x = (rg_real)ldexp(1, i - 100);
        v[3 * i] = rg_v3(x, 0, 0); v[3 * i + 1] = rg_v3(x, 0, x / 4); v[3 * i + 2] = rg_v3(x + x / 4, 0, 0);
        indices[3 * i] = 3 * i; indices[3 * i + 1] = 3 * i + 1; indices[3 * i + 2] = 3 * i + 2;
    }
    m = rg_mesh_create(v, 3 * SPREAD, indices, SPREAD, NULL);
    ENSURE(m != NULL && rg_mesh_triangle_count(m) == SPREAD);
    rg_test_seed(5);
    ENSURE(query_mismatches(m, 300, spread_box, NULL, &hits) == 0);
    rg_test_note("%ld hits in 300 boxes over 150 powers of 2", hits);
    ENSURE(hits > 300);
    rg_mesh_destroy(m);
    for (i = 0; i < COPIES; ++i) {
        v[3 * i] = rg_v3(0, 0, 0); v[3 * i + 1] = rg_v3(0, 0, 1); v[3 * i + 2] = rg_v3(1, 0, 0);
        indices[3 * i] = 3 * i; indices[3 * i + 1] = 3 * i + 1; indices[3 * i + 2] = 3 * i + 2;
    }
    m = rg_mesh_create(v, 3 * COPIES, indices, COPIES, NULL);
    ENSURE(m != NULL && rg_mesh_triangle_count(m) == COPIES);
    ENSURE(rg_mesh_query_box(m, rg_v3(0.5f, -1, 0.25f), rg_v3(2, 1, 2), out, 8) == COPIES);
    for (i = 0; i < 8; ++i) ENSURE(out[i] == i);
    ENSURE(query_mismatches(m, 20, uniform_box, near, &hits) == 0);
    rg_mesh_destroy(m);
    free(v);
    free(indices);
}

void rg_tests_mesh(void) {
    RUN_TEST(test_mesh_bad_input_is_refused);
    RUN_TEST(test_mesh_accessors_take_bad_arguments);
    RUN_TEST(test_mesh_degenerate_triangles_are_dropped);
    RUN_TEST(test_mesh_normals_are_unit_cross_products);
    RUN_TEST(test_mesh_flat_grid_has_active_outline_only);
    RUN_TEST(test_mesh_tiles_with_duplicated_vertices_join);
    RUN_TEST(test_mesh_convex_ridge_active_valley_inactive);
    RUN_TEST(test_mesh_nonmanifold_and_misoriented_edges_are_boundaries);
    RUN_TEST(test_mesh_closed_cube);
    RUN_TEST(test_mesh_terrain_query_matches_brute_force);
    RUN_TEST(test_mesh_query_on_degenerate_distributions);
}
