/* `make bench`: the narrow phase of one pair. Time per rg_collide_hulls call for box-box and
   for hulls of 32 vertices, touching pairs, and random walks of small motions (the case Baraff's
   witnesses are for, §7.1) with and without the witness. Timings are printed, never asserted. */
#define RIGID_IMPLEMENTATION
#include "rigid.h"
#include "tests/brute_force_hull.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/clock.h"
#include "tools/random.h"

static unsigned long long random_state = 0x243f6a8885a308d3ull;
static double uniform(double lo, double hi) { return random_uniform(&random_state, lo, hi); }

static rg_vec3 random_unit_vector(void) {
    for (;;) {
        double x = uniform(-1, 1), y = uniform(-1, 1), z = uniform(-1, 1);
        double l = sqrt(x * x + y * y + z * z);
        if (l > 0.1 && l <= 1) return rg_v3((rg_real)(x / l), (rg_real)(y / l), (rg_real)(z / l));
    }
}

static rg_quat random_rotation(double max_angle) {
    rg_vec3 axis = random_unit_vector();
    double angle = uniform(-max_angle, max_angle);
    return rg_quat_from_axis_angle(axis, (rg_real)angle);
}

/* 32 random points on the unit sphere; their hull has all 32 as vertices. */
static rg_hull *hull_of_32_points(void) {
    for (;;) {
        rg_vec3 p[32];
        rg_hull *h;
        int i;
        for (i = 0; i < 32; ++i) p[i] = random_unit_vector();
        h = rg_hull_create(p, 32, NULL);
        if (!h) h = brute_force_hull(p, 32); /* until quickhull exists */
        if (h && rg_hull_vertex_count(h) == 32) return h;
        rg_hull_destroy(h);
    }
}

static double hull_size(const rg_hull *h) {
    double r = 0;
    int i;
    for (i = 0; i < rg_hull_vertex_count(h); ++i) {
        double l = rg_v3_length(rg_v3_sub(rg_hull_vertex(h, i), rg_hull_centroid(h)));
        if (l > r) r = l;
    }
    return r;
}

typedef struct pose { rg_vec3 pa, pb; rg_quat qa, qb; } pose;

enum { POSES = 2000, WALKS = 50, STEPS = 400 };
static pose poses[POSES], walk[WALKS * STEPS];
static rg_manifold sink;

/* Touching poses by rejection: random orientations, A at a random direction from B. */
static void make_touching_poses(const rg_hull *a, const rg_hull *b) {
    double reach = hull_size(a) + hull_size(b);
    int n = 0;
    while (n < POSES) {
        pose p;
        rg_manifold m;
        p.pb = rg_v3(0, 0, 0);
        p.qb = random_rotation(3.14159265);
        p.qa = random_rotation(3.14159265);
        p.pa = rg_v3_scale(random_unit_vector(), (rg_real)(reach * uniform(0.3, 0.9)));
        if (rg_collide_hulls(a, p.pa, p.qa, b, p.pb, p.qb, 0.02f, &m) > 0) poses[n++] = p;
    }
}

/* Random walks: each step turns both hulls by up to 0.02 rad and moves A by up to 0.5% of the
   pair's reach, its distance kept in [lo, hi] times the reach. */
static void make_walks(const rg_hull *a, const rg_hull *b, double lo, double hi) {
    double reach = hull_size(a) + hull_size(b);
    int w, s;
    for (w = 0; w < WALKS; ++w) {
        rg_vec3 dir = random_unit_vector();
        rg_quat qa = random_rotation(3.14159265), qb = random_rotation(3.14159265);
        double distance = reach * uniform(lo, hi);
        for (s = 0; s < STEPS; ++s) {
            pose *p = &walk[w * STEPS + s];
            dir = rg_v3_normalize(rg_quat_rotate(random_rotation(0.02), dir));
            distance += reach * uniform(-0.005, 0.005);
            if (distance < lo * reach) distance = lo * reach;
            if (distance > hi * reach) distance = hi * reach;
            qa = rg_quat_normalize(rg_quat_mul(random_rotation(0.02), qa));
            qb = rg_quat_normalize(rg_quat_mul(random_rotation(0.02), qb));
            p->pb = rg_v3(0, 0, 0);
            p->qb = qb;
            p->qa = qa;
            p->pa = rg_v3_scale(dir, (rg_real)distance);
        }
    }
}

static double time_touching(const rg_hull *a, const rg_hull *b, int repeats) {
    double start = now_seconds();
    int r, i;
    for (r = 0; r < repeats; ++r)
        for (i = 0; i < POSES; ++i)
            rg_collide_hulls(a, poses[i].pa, poses[i].qa, b, poses[i].pb, poses[i].qb, 0.02f, &sink);
    return (now_seconds() - start) / ((double)repeats * POSES);
}

static double time_walks(const rg_hull *a, const rg_hull *b, int use_witness, int repeats, double *held,
                         double *touching) {
    double start = now_seconds();
    int r, w, s, hits = 0, touches = 0;
    for (r = 0; r < repeats; ++r)
        for (w = 0; w < WALKS; ++w) {
            rg_witness witness;
            memset(&witness, 0, sizeof witness);
            for (s = 0; s < STEPS; ++s) {
                const pose *p = &walk[w * STEPS + s];
                int n = use_witness ? rg_collide_hulls_cached(a, p->pa, p->qa, b, p->pb, p->qb, 0.02f, &witness, &sink)
                                    : rg_collide_hulls(a, p->pa, p->qa, b, p->pb, p->qb, 0.02f, &sink);
                hits += witness.held;
                touches += n > 0;
            }
        }
    *held = (double)hits / ((double)repeats * WALKS * STEPS);
    *touching = (double)touches / ((double)repeats * WALKS * STEPS);
    return (now_seconds() - start) / ((double)repeats * WALKS * STEPS);
}

static void bench_pair(const char *name, const rg_hull *a, const rg_hull *b, int repeats) {
    double held, touching, plain, cached;
    make_touching_poses(a, b);
    printf("%-22s touching, manifold:          %8.0f ns/pair\n", name, time_touching(a, b, repeats) * 1e9);
    make_walks(a, b, 0.55, 0.95);
    plain = time_walks(a, b, 0, repeats / 4 + 1, &held, &touching);
    cached = time_walks(a, b, 1, repeats / 4 + 1, &held, &touching);
    printf("%-22s walk near contact (%2.0f%% touching): %8.0f ns/pair full search, %8.0f with witness "
           "(held %.0f%%)\n", name, touching * 100, plain * 1e9, cached * 1e9, held * 100);
    make_walks(a, b, 0.9, 1.2);
    plain = time_walks(a, b, 0, repeats / 4 + 1, &held, &touching);
    cached = time_walks(a, b, 1, repeats / 4 + 1, &held, &touching);
    printf("%-22s walk close but apart (%2.0f%% touching): %6.0f ns/pair full search, %8.0f with witness "
           "(held %.0f%%)\n", name, touching * 100, plain * 1e9, cached * 1e9, held * 100);
}

int main(void) {
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_hull *plank = rg_hull_create_box(rg_v3(1.5f, 0.2f, 0.5f), NULL);
    rg_hull *h1 = hull_of_32_points(), *h2 = hull_of_32_points();
    printf("rigid.h %s collide bench (%d faces, %d edges per 32-vertex hull)\n", RIGID_VERSION_STRING,
           rg_hull_face_count(h1), rg_hull_edge_count(h1));
    bench_pair("box-box", box, box, 20);
    bench_pair("box-plank", box, plank, 20);
    bench_pair("hull32-hull32", h1, h2, 4);
    bench_pair("box-hull32", box, h1, 8);
    rg_hull_destroy(box);
    rg_hull_destroy(plank);
    rg_hull_destroy(h1);
    rg_hull_destroy(h2);
    return 0;
}
