/* `make bench`: rg_hull_create on clouds of several shapes and sizes. Timings are printed, never
   asserted. The hull goes through rg_hull_create_polyhedron, whose convexity check costs
   O(V F); its share is shown by building the finished hull's polyhedron again. */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include <stdio.h>
#include <stdlib.h>

#include "tools/clock.h"
#include "tools/random.h"

static unsigned long long random_state = 0x9e3779b97f4a7c15ull;

static double uniform(double lo, double hi) { return random_uniform(&random_state, lo, hi); }

static rg_vec3 random_vector(void) {
    double x = uniform(-1, 1);
    double y = uniform(-1, 1);
    double z = uniform(-1, 1);
    return rg_v3((rg_real)x, (rg_real)y, (rg_real)z);
}

enum { CUBE, BALL, SPHERE, BOX_FACES };
static const char *shape_names[] = {"in a cube", "in a ball", "on a sphere", "on box faces"};

static void fill(rg_vec3 *points, int n, int shape) {
    int i = 0;
    while (i < n) {
        rg_vec3 p = random_vector();
        rg_real length = rg_v3_length(p);
        if (shape == BALL && length > 1) continue;
        if (shape == SPHERE) {
            if (length < 0.1f || length > 1) continue;
            p = rg_v3_scale(p, 1 / length);
        }
        if (shape == BOX_FACES) {  /* push one coordinate to the face */
            int axis = i % 3;
            rg_real side = uniform(0, 1) < 0.5 ? -1.0f : 1.0f;
            if (axis == 0) p.x = side; else if (axis == 1) p.y = side; else p.z = side;
        }
        points[i++] = p;
    }
}

/* The hull's polyhedron built again from its faces: the part of rg_hull_create spent in
   rg_hull_create_polyhedron. */
static double polyhedron_seconds(const rg_hull *h) {
    int v = rg_hull_vertex_count(h), f = rg_hull_face_count(h), i, total = 0, *sizes, *indices;
    rg_vec3 *vertices = (rg_vec3 *)malloc(sizeof(rg_vec3) * (size_t)v);
    double start;
    rg_hull *again;
    sizes = (int *)malloc(sizeof(int) * (size_t)f);
    for (i = 0; i < f; ++i) total += sizes[i] = rg_hull_face_vertices(h, i, NULL, 0);
    indices = (int *)malloc(sizeof(int) * (size_t)total);
    for (i = 0, total = 0; i < f; ++i) total += rg_hull_face_vertices(h, i, indices + total, sizes[i]);
    for (i = 0; i < v; ++i) vertices[i] = rg_hull_vertex(h, i);
    start = now_seconds();
    again = rg_hull_create_polyhedron(vertices, v, sizes, f, indices, NULL);
    start = now_seconds() - start;
    rg_hull_destroy(again);
    free(vertices);
    free(sizes);
    free(indices);
    return start;
}

static void bench(int n, int shape, int repeats) {
    rg_vec3 *points = (rg_vec3 *)malloc(sizeof(rg_vec3) * (size_t)n);
    double best = 1e300, polyhedron;
    rg_hull *h = NULL;
    int r;
    fill(points, n, shape);
    for (r = 0; r < repeats; ++r) {
        double start = now_seconds(), elapsed;
        rg_hull_destroy(h);
        h = rg_hull_create(points, n, NULL);
        elapsed = now_seconds() - start;
        if (elapsed < best) best = elapsed;
    }
    if (!h) {
        printf("quickhull %8d points %-13s FAILED\n", n, shape_names[shape]);
        free(points);
        return;
    }
    polyhedron = polyhedron_seconds(h);
    printf("quickhull %8d points %-13s %9.2f ms (%6.1f ns/point), of it polyhedron %8.2f ms; V %6d E %6d F %6d\n",
           n, shape_names[shape], best * 1e3, best / n * 1e9, polyhedron * 1e3, rg_hull_vertex_count(h),
           rg_hull_edge_count(h), rg_hull_face_count(h));
    rg_hull_destroy(h);
    free(points);
}

int main(void) {
    static const int sizes[4] = {1000, 10000, 100000, 1000000};
    int i, shape;
    printf("rigid.h %s bench, %s precision (best of a few runs)\n", RIGID_VERSION_STRING,
           sizeof(rg_real) == sizeof(float) ? "single" : "double");
    for (shape = CUBE; shape <= BOX_FACES; ++shape)
        for (i = 0; i < 4; ++i) {
            /* every point of a sphere is a vertex: the O(V F) check makes 100k of them slow */
            if (shape == SPHERE && sizes[i] > 10000) continue;
            bench(sizes[i], shape, sizes[i] >= 1000000 ? 1 : 3);
        }
    return 0;
}
