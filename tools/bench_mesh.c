/* `make bench`: triangle meshes (prints, never asserts). Terrains of rolling hills with noise
   (tools/terrain.h, 1 m cells) of 1 000 to 1 000 000 triangles:
     - build:  rg_mesh_create (welding, edges, the hierarchy), the best of three
     - query:  rg_mesh_query_box over random boxes of a body's size (1 m cubes) at the terrain's
               heights, against a brute-force loop over every triangle's box (precomputed, in a
               flat array), on the same boxes; the hits of both are compared. "append" is
               rg__mesh_query, the same walk appending to a growing array (the narrow phase's).
   The query's time grows about as log n (the depth of the hierarchy) plus the hits, the brute
   force's as n: their ratio grows about as n / log n. Times are per box, the best of several
   passes. Counted by callgrind (gcc -O2, float), a query of these boxes (2 hits) takes 630, 830,
   1020 and 1200 instructions at 1e3, 1e4, 1e5 and 1e6 triangles, and rg_mesh_create 3.6M, 40M,
   454M and 5.2G. */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include <stdio.h>
#include <stdlib.h>

#include "tools/clock.h"
#include "tools/random.h"
#include "tools/terrain.h"

/* this file calls stb_ds itself, outside rigid.h's own silencing of its macros */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wtype-limits"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif

enum { BOXES = 2000, CAPACITY = 1024 };

typedef struct box { rg_vec3 lo, hi; } box;

static unsigned long long random_state = 0x9e3779b97f4a7c15ull;

/* Unit cubes centred anywhere over the terrain, at heights between its lowest and highest. */
static void random_boxes(const rg_mesh *m, box *boxes, int count) {
    rg_vec3 lo = rg_mesh_vertex(m, 0), hi = lo;
    int i;
    for (i = 1; i < rg_mesh_vertex_count(m); ++i) {
        lo = rg_v3_min(lo, rg_mesh_vertex(m, i));
        hi = rg_v3_max(hi, rg_mesh_vertex(m, i));
    }
    for (i = 0; i < count; ++i) {
        rg_real x = (rg_real)random_uniform(&random_state, lo.x, hi.x);
        rg_real y = (rg_real)random_uniform(&random_state, lo.y, hi.y);
        rg_real z = (rg_real)random_uniform(&random_state, lo.z, hi.z);
        boxes[i].lo = rg_v3(x - 0.5f, y - 0.5f, z - 0.5f);
        boxes[i].hi = rg_v3(x + 0.5f, y + 0.5f, z + 0.5f);
    }
}

static int overlap(rg_vec3 alo, rg_vec3 ahi, rg_vec3 blo, rg_vec3 bhi) {
    return alo.x <= bhi.x && blo.x <= ahi.x && alo.y <= bhi.y && blo.y <= ahi.y && alo.z <= bhi.z && blo.z <= ahi.z;
}

/* Every kept triangle's box, in the mesh's order, from the triangles as a collision takes them. */
static box *triangle_boxes(const rg_mesh *m) {
    int n = rg_mesh_triangle_count(m), t;
    box *b = (box *)malloc(sizeof(box) * (size_t)n);
    for (t = 0; t < n; ++t) {
        rg__triangle tri;
        rg__mesh_triangle_of(m, t, &tri);
        b[t].lo = rg_v3_min(tri.v[0], rg_v3_min(tri.v[1], tri.v[2]));
        b[t].hi = rg_v3_max(tri.v[0], rg_v3_max(tri.v[1], tri.v[2]));
    }
    return b;
}

/* Seconds for rg_mesh_query_box (append = 0) or rg__mesh_query (append = 1) over the boxes;
   adds up the hits. */
static double time_queries(const rg_mesh *m, const box *boxes, int count, int append, long *hits) {
    static int out[CAPACITY];
    int *appended = NULL, i;
    double start = now_seconds();
    *hits = 0;
    for (i = 0; i < count; ++i) {
        if (append) {
            stbds_arrsetlen(appended, 0);
            rg__mesh_query(m, boxes[i].lo, boxes[i].hi, &appended);
            *hits += (long)stbds_arrlen(appended);
        } else {
            *hits += rg_mesh_query_box(m, boxes[i].lo, boxes[i].hi, out, CAPACITY);
        }
    }
    start = now_seconds() - start;
    stbds_arrfree(appended);
    return start;
}

/* Seconds for the brute force over every triangle's box; adds up the hits, and the hits' indices
   into *sum (to compare with the query's). */
static double time_brute_force(const box *tri, int n, const box *boxes, int count, long *hits, long *sum) {
    int i, t;
    double start = now_seconds();
    *hits = *sum = 0;
    for (i = 0; i < count; ++i)
        for (t = 0; t < n; ++t)
            if (overlap(tri[t].lo, tri[t].hi, boxes[i].lo, boxes[i].hi)) {
                *sum += t;
                ++*hits;
            }
    return now_seconds() - start;
}

/* The query's hits and the sum of their indices over the boxes. */
static void query_sum(const rg_mesh *m, const box *boxes, int count, long *hits, long *sum) {
    static int out[CAPACITY];
    int i, k, found;
    *hits = *sum = 0;
    for (i = 0; i < count; ++i) {
        found = rg_mesh_query_box(m, boxes[i].lo, boxes[i].hi, out, CAPACITY);
        for (k = 0; k < found && k < CAPACITY; ++k) *sum += out[k];
        *hits += found;
    }
}

/* Each timing is the best of several passes (the machine may be shared). The brute force runs
   over the first boxes only at the larger sizes, about 2e7 box tests a pass. */
static void bench(int triangles) {
    terrain land = terrain_make(triangles, 3);
    rg_mesh *m = NULL;
    box *boxes = (box *)malloc(sizeof(box) * BOXES), *tri;
    int repeat, n, brute_boxes;
    long query_hits = 0, append_hits = 0, brute_hits = 0, brute_sum = 0, first_hits = 0, first_sum = 0;
    double build = 1e30, query = 1e30, append = 1e30, brute = 1e30, seconds;
    for (repeat = 0; repeat < 3; ++repeat) {
        rg_mesh_destroy(m);
        seconds = now_seconds();
        m = rg_mesh_create(land.vertices, land.vertex_count, land.indices, land.triangle_count, NULL);
        seconds = now_seconds() - seconds;
        if (seconds < build) build = seconds;
    }
    n = rg_mesh_triangle_count(m);
    brute_boxes = 20000000 / n < BOXES ? 20000000 / n : BOXES;
    random_boxes(m, boxes, BOXES);
    tri = triangle_boxes(m);
    for (repeat = 0; repeat < 20; ++repeat) {
        seconds = time_queries(m, boxes, BOXES, 0, &query_hits);
        if (seconds < query) query = seconds;
        seconds = time_queries(m, boxes, BOXES, 1, &append_hits);
        if (seconds < append) append = seconds;
    }
    for (repeat = 0; repeat < 3; ++repeat) {
        seconds = time_brute_force(tri, n, boxes, brute_boxes, &brute_hits, &brute_sum);
        if (seconds < brute) brute = seconds;
    }
    query_sum(m, boxes, brute_boxes, &first_hits, &first_sum);
    query /= BOXES;
    append /= BOXES;
    brute /= brute_boxes;
    printf("%9d %9.1f %9.3f %9.3f %11.2f %9.1f %6.2f%s\n", n, build * 1e3, query * 1e6, append * 1e6, brute * 1e6,
           brute / query, (double)query_hits / BOXES,
           first_hits == brute_hits && first_sum == brute_sum && append_hits == query_hits ? "" : "  MISMATCH");
    rg_mesh_destroy(m);
    terrain_free(&land);
    free(boxes);
    free(tri);
}

int main(void) {
    static const int sizes[] = {1000, 10000, 100000, 1000000};
    int i;
#ifdef RIGID_DOUBLE
    printf("triangle meshes, double precision: rolling hills, 1 m cells; %d unit boxes\n", BOXES);
#else
    printf("triangle meshes, single precision: rolling hills, 1 m cells; %d unit boxes\n", BOXES);
#endif
    printf("%9s %9s %9s %9s %11s %9s %6s\n", "triangles", "build ms", "query us", "append us", "brute us",
           "ratio", "hits");
    for (i = 0; i < (int)(sizeof sizes / sizeof sizes[0]); ++i) bench(sizes[i]);
    return 0;
}
