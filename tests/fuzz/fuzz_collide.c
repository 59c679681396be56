/* libFuzzer harness: rg_collide_hulls on two posed hulls (boxes of any extents, or a prism or
   tetrahedron from the fuzzer's corners) with poses and margins from the fuzzer, NaN and
   infinities included. Checked:
     - it returns out->count, within [0, RG_MANIFOLD_MAX]; NULL hulls or out give 0;
     - non-finite poses, positions beyond the 1e15 magnitude limit or a margin of +infinity
       give 0 contacts (a NaN or negative margin, -infinity included, means touching only,
       margin 0, as >>collide documents);
     - finite input gives a unit normal and finite points and depths;
     - hulls whose bounding spheres are apart by more than the margin have no contact;
     - once rg_collide_hulls is implemented (it finds the contact of two overlapping unit
       cubes), hulls whose inscribed spheres overlap have a contact with positive depth.
   (Finite positions whose difference overflowed, two unit boxes at x = +FLT_MAX and -FLT_MAX,
   used to crash rg__collide_face_contact; see test_collide_far_apart_does_not_crash.)
   Build: clang -fsanitize=fuzzer,address,undefined (see `make fuzz`). */
#define RIGID_IMPLEMENTATION
#include "rigid.h"
#include "fuzz_common.h"

static int beyond_limit(rg_vec3 v) { return fabs((double)v.x) > 1e15 || fabs((double)v.y) > 1e15 || fabs((double)v.z) > 1e15; }

static void fuzz_fail(const char *what) {
    fprintf(stderr, "fuzz_collide: %s\n", what);
    abort();
}

typedef struct posed {
    rg_hull *hull;
    rg_vec3 position;
    rg_quat rotation;
    double inner, outer;     /* radii of an inscribed and a circumscribed sphere about `centre` */
    rg_vec3 centre;          /* hull frame */
} posed;

static int collide_is_implemented;

/* a box, or a polyhedron from fuzzed corners of a box (a squashed or sheared box) */
static int make_hull(fuzz_reader *r, posed *p) {
    uint8_t kind = fuzz_u8(r);
    rg_vec3 h;
    double x[3];
    int i;
    memset(p, 0, sizeof *p);
    fuzz_numbers3(r, x);
    h = rg_v3((rg_real)x[0], (rg_real)x[1], (rg_real)x[2]);
    if (kind & 1) {
        fuzz_plains3(r, x);
        h = rg_v3((rg_real)(0.05 + fabs(x[0])), (rg_real)(0.05 + fabs(x[1])), (rg_real)(0.05 + fabs(x[2])));
    }
    if (kind & 2) {
        static const int faces[24] = {1, 3, 7, 5, 0, 4, 6, 2, 2, 6, 7, 3, 0, 1, 5, 4, 4, 5, 7, 6, 0, 2, 3, 1};
        static const int sizes[6] = {4, 4, 4, 4, 4, 4};
        rg_vec3 corners[8], shear;
        double sx = fuzz_plain(r), sz = fuzz_plain(r);
        shear = rg_v3((rg_real)(sx / 16), 0, (rg_real)(sz / 16));
        for (i = 0; i < 8; ++i) {
            corners[i] = rg_v3((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z);
            if (i & 2) corners[i] = rg_v3_add(corners[i], rg_v3_scale(shear, h.y));   /* a parallelepiped */
        }
        p->hull = rg_hull_create_polyhedron(corners, 8, sizes, 6, faces, NULL);
    } else {
        p->hull = rg_hull_create_box(h, NULL);
    }
    if (!p->hull) return 0;
    p->centre = rg_hull_centroid(p->hull);
    p->inner = 1e300;
    for (i = 0; i < rg_hull_face_count(p->hull); ++i) {
        rg_vec3 n = rg_hull_face_normal(p->hull, i);
        int first;
        double d;
        rg_hull_face_vertices(p->hull, i, &first, 1);
        d = rg_v3_dot(n, rg_v3_sub(rg_hull_vertex(p->hull, first), p->centre));
        if (d < p->inner) p->inner = d;
    }
    for (i = 0; i < rg_hull_vertex_count(p->hull); ++i) {
        double d = rg_v3_length(rg_v3_sub(rg_hull_vertex(p->hull, i), p->centre));
        if (d > p->outer) p->outer = d;
    }
    return 1;
}

static void make_pose(fuzz_reader *r, posed *p, int wild) {
    rg_vec3 axis;
    double angle, x[3];
    if (wild) {
        fuzz_numbers3(r, x);
        p->position = rg_v3((rg_real)x[0], (rg_real)x[1], (rg_real)x[2]);
        p->rotation.x = (rg_real)fuzz_number(r); p->rotation.y = (rg_real)fuzz_number(r);
        p->rotation.z = (rg_real)fuzz_number(r); p->rotation.w = (rg_real)fuzz_number(r);
        return;
    }
    fuzz_plains3(r, x);
    p->position = rg_v3((rg_real)(x[0] / 4), (rg_real)(x[1] / 4), (rg_real)(x[2] / 4));
    fuzz_plains3(r, x);
    axis = rg_v3((rg_real)x[0], (rg_real)x[1], (rg_real)x[2]);
    angle = fuzz_plain(r);
    p->rotation = rg_quat_from_axis_angle(axis, (rg_real)angle);
}

static int pose_is_finite(const posed *p) {
    return rg_v3_is_finite(p->position) && rg_quat_is_finite(p->rotation);
}

/* Distance between the hulls' centres, in double from the difference of the positions: at
   positions of 1e14 a float sum position + centre loses the centre (its ulp is 1.6e7), and
   two hulls at one position would seem concentric. */
static double centre_distance(const posed *a, const posed *b) {
    rg_vec3 ca = rg_quat_rotate(rg_quat_normalize(a->rotation), a->centre);
    rg_vec3 cb = rg_quat_rotate(rg_quat_normalize(b->rotation), b->centre);
    double dx = ((double)a->position.x - (double)b->position.x) + ((double)ca.x - (double)cb.x);
    double dy = ((double)a->position.y - (double)b->position.y) + ((double)ca.y - (double)cb.y);
    double dz = ((double)a->position.z - (double)b->position.z) + ((double)ca.z - (double)cb.z);
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static void check_manifold(const rg_manifold *m, int count) {
    int i;
    if (count != m->count || count < 0 || count > RG_MANIFOLD_MAX) fuzz_fail("count out of range or not out->count");
    if (count > 0 && !(fabs(rg_v3_length(m->normal) - 1) < 1e-3)) fuzz_fail("normal not unit");
    for (i = 0; i < count; ++i)
        if (!rg_v3_is_finite(m->points[i]) || !isfinite((double)m->depths[i])) fuzz_fail("point or depth not finite");
}

static void detect_implementation(void) {
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_manifold m;
    collide_is_implemented = rg_collide_hulls(cube, rg_v3(0, 0.8f, 0), rg_quat_identity(), cube, rg_v3(0, 0, 0),
                                              rg_quat_identity(), 0.02f, &m) > 0;
    rg_hull_destroy(cube);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_reader r;
    posed a, b;
    uint8_t mode;
    rg_real margin;
    rg_manifold m;
    int count;
    static int initialised;
    if (!initialised) { detect_implementation(); initialised = 1; }
    r.data = data; r.size = size; r.at = 0;
    mode = fuzz_u8(&r);
    if (!make_hull(&r, &a)) { rg_hull_destroy(a.hull); return 0; }
    if (!make_hull(&r, &b)) { rg_hull_destroy(a.hull); return 0; }
    make_pose(&r, &a, mode & 1);
    make_pose(&r, &b, mode & 2);
    margin = (mode & 4) ? (rg_real)fuzz_number(&r) : (rg_real)(fabs(fuzz_plain(&r)) / 64);
    if (getenv("FUZZ_VERBOSE"))
        fprintf(stderr, "a: %d vertices at (%g %g %g) q (%g %g %g %g); b: %d vertices at (%g %g %g) q (%g %g %g %g); "
                "margin %g, mode %d\n", rg_hull_vertex_count(a.hull), (double)a.position.x, (double)a.position.y,
                (double)a.position.z, (double)a.rotation.x, (double)a.rotation.y, (double)a.rotation.z,
                (double)a.rotation.w, rg_hull_vertex_count(b.hull), (double)b.position.x, (double)b.position.y,
                (double)b.position.z, (double)b.rotation.x, (double)b.rotation.y, (double)b.rotation.z,
                (double)b.rotation.w, (double)margin, mode);
    memset(&m, 0x5a, sizeof m);
    count = rg_collide_hulls((mode & 8) ? NULL : a.hull, a.position, a.rotation, b.hull, b.position, b.rotation,
                             margin, (mode & 16) ? NULL : &m);
    if ((mode & 8) || (mode & 16)) {
        if (count != 0) fuzz_fail("NULL hull or out gave contacts");
    } else if (!pose_is_finite(&a) || !pose_is_finite(&b) || (double)margin == INFINITY) {
        if (count != 0 || m.count != 0) fuzz_fail("non-finite input gave contacts");
    } else if (beyond_limit(a.position) || beyond_limit(b.position)) {
        if (count != 0 || m.count != 0) fuzz_fail("a position beyond 1e15 gave contacts");
    } else {
        if (!(margin > 0)) margin = 0;
        double distance = centre_distance(&a, &b);
        int plain_rotations = fabs(rg_quat_dot(a.rotation, a.rotation) - 1) < 1e-3 &&
                              fabs(rg_quat_dot(b.rotation, b.rotation) - 1) < 1e-3;
        check_manifold(&m, count);
        /* the sphere tests assume unit quaternions and plain magnitudes */
        if (plain_rotations && margin >= 0 && margin < 1e3 && a.outer < 1e6 && b.outer < 1e6 && distance < 1e6) {
            double slack = 1e-3 * (a.outer + b.outer) + 1e-4;
            if (distance > a.outer + b.outer + margin + slack && count != 0) fuzz_fail("contact between hulls far apart");
            if (collide_is_implemented && distance < a.inner + b.inner - slack) {
                int i, deep = 0;
                if (count == 0) fuzz_fail("no contact between overlapping hulls");
                for (i = 0; i < count; ++i) deep |= m.depths[i] > 0;
                if (!deep) fuzz_fail("overlapping hulls without a positive depth");
            }
        }
    }
    rg_hull_destroy(a.hull);
    rg_hull_destroy(b.hull);
    return 0;
}

#ifdef FUZZ_SEED_MAIN
int main(int argc, char **argv) {
    /* plain-number bytes: selector 0 then the value in sixteenths */
    uint8_t seed[256];
    size_t n;
    int k, s;
    if (argc < 2) { fprintf(stderr, "usage: %s directory\n", argv[0]); return 1; }
    for (s = 0; s < 4; ++s) {
        char name[32];
        n = 0;
        seed[n++] = 0;                                  /* mode: plain poses, plain margin */
        for (k = 0; k < 2; ++k) {
            int j;
            seed[n++] = (uint8_t)(k == 1 && s == 3 ? 3 : 1);   /* a box of plain extents (or a sheared one) */
            for (j = 0; j < 3; ++j) { seed[n++] = 3; }          /* the ignored fuzz_number extents: 0 */
            for (j = 0; j < 3; ++j) { seed[n++] = 0; seed[n++] = 7; }   /* extents 0.05 + 7/16 */
            if (k == 1 && s == 3) { seed[n++] = 0; seed[n++] = 4; seed[n++] = 0; seed[n++] = 0; }
        }
        /* pose of a: at y = 0.9 - 0.3 s (s = 0 touching, 1 overlapping, 2 deep, 3 sheared), turned a little */
        seed[n++] = 0; seed[n++] = 0;
        seed[n++] = 0; seed[n++] = (uint8_t)(int)(16 * 4 * (0.9 - 0.3 * s) / 1);
        seed[n++] = 0; seed[n++] = 0;
        seed[n++] = 0; seed[n++] = 16; seed[n++] = 0; seed[n++] = 8; seed[n++] = 0; seed[n++] = 0;
        seed[n++] = 0; seed[n++] = (uint8_t)(2 * s);
        /* pose of b: origin, identity */
        for (k = 0; k < 7; ++k) { seed[n++] = 0; seed[n++] = 0; }
        seed[n++] = 0; seed[n++] = 2;                   /* margin 2/16/64 */
        snprintf(name, sizeof name, "boxes_%d", s);
        fuzz_write_seed(argv[1], name, seed, n);
    }
    return 0;
}
#endif
