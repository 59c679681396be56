/* libFuzzer harness: hull creation. rg_hull_create (quickhull) on point clouds of any size and
   content, and rg_hull_create_polyhedron on a box whose vertices and face lists the fuzzer
   perturbs. Bad input must give NULL and a code; a hull that is built must be a proper convex
   polyhedron:
     - V - E + F = 2, every face has >= 3 vertices and a unit normal, every edge joins two faces;
     - every vertex on or behind every face plane, and (rg_hull_create) every input point too,
       within 1e-3 of the cloud's extent;
     - finite, positive volume equal to that of a fan of tetrahedra over its faces (1e-3),
       finite centroid inside the bounding box, finite inertia with positive diagonal;
     - rg_hull_create's result code is RG_ERR_INVALID_ARGUMENT exactly for NULL points,
       count < 0, NaN, infinities or coordinates beyond 1e15, RG_ERR_DEGENERATE for fewer than
       4 valid points.
   (Quickhull issue 4, fixed: a cloud of a few points within ~8 units and one ~5e4 to 1e5 away
   lost the far point in float; the containment check no longer skips long thin clouds. A
   polyhedron 1e-17 wide and 3.9e-3 long got a volume of rounding and its centroid outside its
   box; such a volume now counts as none: test_needle_hull_with_volume_below_rounding.)
   Build: clang -fsanitize=fuzzer,address,undefined (see `make fuzz`). */
#define RIGID_IMPLEMENTATION
#include "rigid.h"
#include "fuzz_common.h"

static void fuzz_fail(const char *what) {
    fprintf(stderr, "fuzz_hull: %s\n", what);
    abort();
}

/* the invariants of a built hull; `points` (may be NULL) must all lie inside it */
static void check_hull(const rg_hull *h, const rg_vec3 *points, int count) {
    int v = rg_hull_vertex_count(h), e = rg_hull_edge_count(h), f = rg_hull_face_count(h);
    int i, k, indices[256];
    double extent = 0, volume = 0, tolerance;
    rg_vec3 lo, hi, c = rg_hull_centroid(h);
    rg_mat3 inertia = rg_hull_inertia(h, 1);
    if (v < 4 || f < 4 || v - e + f != 2) fuzz_fail("Euler characteristic");
    lo = hi = rg_hull_vertex(h, 0);
    for (i = 0; i < v; ++i) {
        rg_vec3 p = rg_hull_vertex(h, i);
        if (!rg_v3_is_finite(p)) fuzz_fail("vertex not finite");
        lo = rg_v3_min(lo, p);
        hi = rg_v3_max(hi, p);
    }
    for (i = 0; i < count; ++i) {
        lo = rg_v3_min(lo, points[i]);
        hi = rg_v3_max(hi, points[i]);
    }
    extent = rg_v3_length(rg_v3_sub(hi, lo));
    tolerance = 1e-3 * extent;
    for (i = 0; i < e; ++i) {
        int ev[2], ef[2];
        if (!rg_hull_edge(h, i, ev, ef)) fuzz_fail("edge missing");
        if (ev[0] < 0 || ev[0] >= v || ev[1] < 0 || ev[1] >= v || ev[0] == ev[1]) fuzz_fail("edge vertices");
        if (ef[0] < 0 || ef[0] >= f || ef[1] < 0 || ef[1] >= f || ef[0] == ef[1]) fuzz_fail("edge faces");
    }
    for (k = 0; k < f; ++k) {
        rg_vec3 n = rg_hull_face_normal(h, k), a;
        int size = rg_hull_face_vertices(h, k, indices, 256);
        double offset;
        if (size < 3) fuzz_fail("face with fewer than 3 vertices");
        if (fabs(rg_v3_length(n) - 1) > 1e-4) fuzz_fail("face normal not unit");
        if (size > 256) continue;
        a = rg_hull_vertex(h, indices[0]);
        offset = rg_v3_dot(n, a);
        for (i = 0; i < v; ++i)
            if (rg_v3_dot(n, rg_hull_vertex(h, i)) - offset > tolerance) fuzz_fail("hull vertex outside a face plane");
        for (i = 0; i < count; ++i)
            if (rg_v3_dot(n, points[i]) - offset > tolerance) {
                fprintf(stderr, "point %d (%.9g %.9g %.9g) is %.3g outside face %d (tolerance %.3g, extent %.3g)\n", i,
                        (double)points[i].x, (double)points[i].y, (double)points[i].z,
                        rg_v3_dot(n, points[i]) - offset, k, tolerance, extent);
                fuzz_fail("input point outside the hull");
            }
        /* volume as a fan of tetrahedra from the centroid, in double */
        for (i = 1; i + 1 < size; ++i) {
            rg_vec3 b = rg_hull_vertex(h, indices[i]), d = rg_hull_vertex(h, indices[i + 1]);
            double ax = (double)a.x - c.x, ay = (double)a.y - c.y, az = (double)a.z - c.z;
            double bx = (double)b.x - c.x, by = (double)b.y - c.y, bz = (double)b.z - c.z;
            double dx = (double)d.x - c.x, dy = (double)d.y - c.y, dz = (double)d.z - c.z;
            volume += (ax * (by * dz - bz * dy) - ay * (bx * dz - bz * dx) + az * (bx * dy - by * dx)) / 6;
        }
    }
    if (!(rg_hull_volume(h) > 0) || !isfinite((double)rg_hull_volume(h))) fuzz_fail("volume not positive and finite");
    if (fabs(volume - rg_hull_volume(h)) > 1e-3 * rg_hull_volume(h) + 1e-6 * extent * extent * extent)
        fuzz_fail("volume differs from the tetrahedra of the faces");
    if (!rg_v3_is_finite(c) || c.x < lo.x - tolerance || c.y < lo.y - tolerance || c.z < lo.z - tolerance ||
        c.x > hi.x + tolerance || c.y > hi.y + tolerance || c.z > hi.z + tolerance)
        fuzz_fail("centroid outside the bounding box");
    for (i = 0; i < 3; ++i) {
        if (!(inertia.m[i][i] > 0) || !isfinite((double)inertia.m[i][i])) fuzz_fail("inertia diagonal");
        for (k = 0; k < 3; ++k)
            if (!isfinite((double)inertia.m[i][k])) fuzz_fail("inertia not finite");
    }
}

static void fuzz_point_cloud(fuzz_reader *r, uint8_t mode) {
    int count = (int)(int8_t)fuzz_u8(r), i;
    rg_vec3 *points;
    rg_result result = RG_OK;
    rg_hull *h;
    if (mode & 2) count = count * 4 + (int)fuzz_u8(r);     /* up to ~760 points */
    points = (rg_vec3 *)malloc(sizeof(rg_vec3) * (size_t)(count > 0 ? count : 1));
    if (!points) return;
    for (i = 0; i < count; ++i) {
        double x[3];
        if (mode & 4) fuzz_numbers3(r, x);
        else fuzz_plains3(r, x);
        points[i] = rg_v3((rg_real)x[0], (rg_real)x[1], (rg_real)x[2]);
        if ((mode & 8) && i > 0 && (fuzz_u8(r) & 1)) points[i] = points[fuzz_u8(r) % i];   /* duplicates */
    }
    if (getenv("FUZZ_VERBOSE"))
        for (i = 0; i < count; ++i)
            fprintf(stderr, "  {%.9g, %.9g, %.9g},\n", (double)points[i].x, (double)points[i].y, (double)points[i].z);
    h = rg_hull_create((mode & 16) ? NULL : points, count, &result);
    if ((h == NULL) != (result != RG_OK)) fuzz_fail("rg_hull_create: result code disagrees with the hull");
    {
        /* the documented codes: invalid argument for NULL, count < 0, NaN, infinities and
           coordinates beyond 1e15 (checked first); degenerate for fewer than 4 points */
        int invalid = (mode & 16) || count < 0;
        for (i = 0; i < count && !invalid; ++i)
            invalid = !(fabs((double)points[i].x) <= 1e15 && fabs((double)points[i].y) <= 1e15 &&
                        fabs((double)points[i].z) <= 1e15);
        if (invalid != (result == RG_ERR_INVALID_ARGUMENT)) fuzz_fail("rg_hull_create: invalid argument or not");
        if (!invalid && count < 4 && result != RG_ERR_DEGENERATE) fuzz_fail("rg_hull_create: fewer than 4 points");
    }
    if (h) check_hull(h, points, count);
    rg_hull_destroy(h);
    free(points);
}

static void fuzz_polyhedron(fuzz_reader *r, uint8_t mode) {
    /* a box, corners by bits (x: 1, y: 2, z: 4), faces counter-clockwise from outside */
    int faces[24] = {1, 3, 7, 5, 0, 4, 6, 2, 2, 6, 7, 3, 0, 1, 5, 4, 4, 5, 7, 6, 0, 2, 3, 1};
    int sizes[6] = {4, 4, 4, 4, 4, 4};
    rg_vec3 corners[8];
    rg_result result = RG_OK;
    rg_hull *h;
    int i, edits = fuzz_u8(r) % 8, vertex_count = 8, face_count = 6;
    for (i = 0; i < 8; ++i) {
        double scale = (mode & 4) ? fuzz_number(r) : 1 + fuzz_plain(r) / 64;
        corners[i] = rg_v3((rg_real)((i & 1 ? 1 : -1) * scale), (rg_real)((i & 2 ? 1 : -1) * scale),
                           (rg_real)((i & 4 ? 1 : -1) * scale));
        if (mode & 8) {
            double x[3];
            fuzz_plains3(r, x);
            corners[i] = rg_v3_add(corners[i], rg_v3((rg_real)x[0] / 8, (rg_real)x[1] / 8, (rg_real)x[2] / 8));
        }
    }
    for (i = 0; i < edits; ++i) {
        uint8_t what = fuzz_u8(r), where = fuzz_u8(r), value = fuzz_u8(r);
        if (what % 3 == 0) faces[where % 24] = (int)(int8_t)value % 10;
        else if (what % 3 == 1) sizes[where % 6] = (int)(int8_t)value % 6;
        else if (fuzz_u8(r) & 1) vertex_count = (int)(int8_t)fuzz_u8(r) % 9;
        else face_count = (int)(int8_t)fuzz_u8(r) % 7;
    }
    /* the counts never exceed the arrays: the contract is that they describe them */
    for (i = 0; i < face_count; ++i) {
        int j, sum = 0;
        for (j = 0; j < i; ++j) sum += sizes[j] > 0 ? sizes[j] : 0;
        if (sizes[i] > 0 && sum + sizes[i] > 24) sizes[i] = 24 - sum;
    }
    h = rg_hull_create_polyhedron((mode & 16) ? NULL : corners, vertex_count, sizes, face_count, faces, &result);
    if ((h == NULL) != (result != RG_OK)) fuzz_fail("rg_hull_create_polyhedron: result code disagrees with the hull");
    if (h) check_hull(h, NULL, 0);
    rg_hull_destroy(h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_reader r;
    uint8_t mode;
    r.data = data; r.size = size; r.at = 0;
    mode = fuzz_u8(&r);
    if (mode & 1) fuzz_polyhedron(&r, mode);
    else fuzz_point_cloud(&r, mode);
    return 0;
}

#ifdef FUZZ_SEED_MAIN
/* seeds: a cube cloud, a random-ish cloud with duplicates, a box polyhedron, a perturbed one */
int main(int argc, char **argv) {
    uint8_t seed[4096];
    size_t n = 0;
    int i, k;
    if (argc < 2) { fprintf(stderr, "usage: %s directory\n", argv[0]); return 1; }
    /* 8 cube corners, plain numbers: selector 0, value 16 * +-1 */
    seed[n++] = 0; seed[n++] = 8;
    for (i = 0; i < 8; ++i)
        for (k = 0; k < 3; ++k) { seed[n++] = 0; seed[n++] = (uint8_t)((i >> k & 1) ? 16 : 240); }
    fuzz_write_seed(argv[1], "cube_cloud", seed, n);
    /* 40 points on a lattice with repeats */
    n = 0; seed[n++] = 8; seed[n++] = 40;
    for (i = 0; i < 40; ++i) {
        for (k = 0; k < 3; ++k) { seed[n++] = 0; seed[n++] = (uint8_t)((i * (k + 3) * 7) % 64 - 32); }
        seed[n++] = (uint8_t)(i & 1); seed[n++] = (uint8_t)(i * 5);
    }
    fuzz_write_seed(argv[1], "lattice_cloud", seed, n);
    /* a box polyhedron, unperturbed, and one with moved corners */
    n = 0; seed[n++] = 1; seed[n++] = 0;
    for (i = 0; i < 8; ++i) { seed[n++] = 0; seed[n++] = 0; }
    fuzz_write_seed(argv[1], "box_polyhedron", seed, n);
    n = 0; seed[n++] = 9; seed[n++] = 0;
    for (i = 0; i < 8; ++i) {
        seed[n++] = 0; seed[n++] = (uint8_t)(i * 3);
        for (k = 0; k < 3; ++k) { seed[n++] = 0; seed[n++] = (uint8_t)(i + k); }
    }
    fuzz_write_seed(argv[1], "moved_box_polyhedron", seed, n);
    return 0;
}
#endif
