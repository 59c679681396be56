/* A convex hull by brute force, independent of quickhull, for the collide tests and
   tools/bench_collide.c. */
#ifndef RG_BRUTE_FORCE_HULL_H
#define RG_BRUTE_FORCE_HULL_H

#include <math.h>
#include "rigid.h"

/* Convex hull of a few points in general position by brute force, O(n^4): a triangle of three
   points is a face when every other point lies strictly behind its plane. Built with
   rg_hull_create_polyhedron, independently of quickhull. NULL when the points are degenerate. */
static rg_hull *brute_force_hull(const rg_vec3 *p, int n) {
    int faces[3 * 1024], sizes[1024], face_count = 0, used[64], remap[64], vertex_count = 0;
    rg_vec3 vertices[64];
    int i, j, k, l, f;
    if (n > 64) return NULL;
    for (i = 0; i < n; ++i) used[i] = 0;
    for (i = 0; i < n; ++i)
        for (j = i + 1; j < n; ++j)
            for (k = j + 1; k < n; ++k) {
                double e1[3], e2[3], nn[3], len, above = 0, below = 0;
                e1[0] = p[j].x - p[i].x; e1[1] = p[j].y - p[i].y; e1[2] = p[j].z - p[i].z;
                e2[0] = p[k].x - p[i].x; e2[1] = p[k].y - p[i].y; e2[2] = p[k].z - p[i].z;
                nn[0] = e1[1] * e2[2] - e1[2] * e2[1];
                nn[1] = e1[2] * e2[0] - e1[0] * e2[2];
                nn[2] = e1[0] * e2[1] - e1[1] * e2[0];
                len = sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
                if (len < 1e-6) return NULL;
                for (l = 0; l < n; ++l) {
                    double d;
                    if (l == i || l == j || l == k) continue;
                    d = (nn[0] * (p[l].x - p[i].x) + nn[1] * (p[l].y - p[i].y) + nn[2] * (p[l].z - p[i].z)) / len;
                    if (fabs(d) < 1e-4) return NULL; /* nearly coplanar: draw again */
                    if (d > 0) above += 1; else below += 1;
                }
                if (above > 0 && below > 0) continue;
                if (face_count >= 1024) return NULL;
                /* counter-clockwise from outside: the other points behind the normal */
                faces[3 * face_count] = i;
                faces[3 * face_count + 1] = above > 0 ? k : j;
                faces[3 * face_count + 2] = above > 0 ? j : k;
                sizes[face_count++] = 3;
                used[i] = used[j] = used[k] = 1;
            }
    for (i = 0; i < n; ++i) {
        remap[i] = used[i] ? vertex_count : -1;
        if (used[i]) vertices[vertex_count++] = p[i];
    }
    for (f = 0; f < 3 * face_count; ++f) faces[f] = remap[faces[f]];
    return rg_hull_create_polyhedron(vertices, vertex_count, sizes, face_count, faces, NULL);
}

#endif
