/* terrain.h: height-field grids as rg_mesh_create input, shared by the mesh tests and
   tools/bench_mesh.c. Header-only, static; C99 and C++; include rigid.h first. A grid of nx by nz
   square cells of side `step` from (x0, z0) in the x-z plane, y up, two triangles a cell
   counter-clockwise seen from above (+y). Vertex (i, j), i along x and j along z, is
   j (nx + 1) + i. */
#ifndef RIGID_TERRAIN_H
#define RIGID_TERRAIN_H

#include <math.h>
#include <stdlib.h>

#include "tools/random.h"

typedef struct terrain {
    rg_vec3 *vertices;
    int *indices;             /* three per triangle */
    int vertex_count, triangle_count;
} terrain;

typedef double (*terrain_height)(double x, double z, void *context);

static inline void terrain_free(terrain *t) {
    free(t->vertices);
    free(t->indices);
    t->vertices = NULL;
    t->indices = NULL;
    t->vertex_count = t->triangle_count = 0;
}

/* The grid with y = height(x, z, context) at every vertex. Cell (i, j) gives triangles
   2 (j nx + i) and 2 (j nx + i) + 1. */
static inline terrain terrain_grid(int nx, int nz, double x0, double z0, double step, terrain_height height,
                                   void *context) {
    terrain t;
    int i, j, n = 0;
    t.vertex_count = (nx + 1) * (nz + 1);
    t.triangle_count = 2 * nx * nz;
    t.vertices = (rg_vec3 *)malloc(sizeof(rg_vec3) * (size_t)t.vertex_count);
    t.indices = (int *)malloc(sizeof(int) * 3 * (size_t)t.triangle_count);
    for (j = 0; j <= nz; ++j)
        for (i = 0; i <= nx; ++i) {
            double x = x0 + step * i, z = z0 + step * j;
            t.vertices[j * (nx + 1) + i] = rg_v3((rg_real)x, (rg_real)height(x, z, context), (rg_real)z);
        }
    for (j = 0; j < nz; ++j)
        for (i = 0; i < nx; ++i) {
            int v00 = j * (nx + 1) + i, v10 = v00 + 1, v01 = v00 + nx + 1, v11 = v01 + 1;
            t.indices[n++] = v00; t.indices[n++] = v01; t.indices[n++] = v10;
            t.indices[n++] = v10; t.indices[n++] = v01; t.indices[n++] = v11;
        }
    return t;
}

/* Rolling hills, 3 m high over tens of metres, with uniform noise of +-`noise` m from the
   xorshift state in context. */
static inline double terrain_hills(double x, double z, void *context) {
    unsigned long long *state = (unsigned long long *)context;
    double noise = 0.2;
    return 3 * sin(0.3 * x) * cos(0.2 * z) + random_uniform(state, -noise, noise);
}

/* About `triangles` triangles (2 n^2, n the side in cells) of rolling hills with 1 m cells,
   centred on the origin; the same seed gives the same terrain. */
static inline terrain terrain_make(int triangles, unsigned long long seed) {
    int n = (int)sqrt(triangles / 2.0);
    unsigned long long state = seed ? seed : 1;
    if (2 * n * n < triangles) ++n;
    return terrain_grid(n, n, -0.5 * n, -0.5 * n, 1, terrain_hills, &state);
}

#endif
