/* `make bench`: the broad phase alone (prints, never asserts). Unit cubes placed at random at
   one cube per 1.25^3 m^3 in a volume (or a one-body-thick layer) that grows with n, gravity
   off; positions advanced by the world's own integrator outside the timed region. The timed call
   is rg__broadphase_update, reachable because this file compiles the implementation. Compared
   at the same n, on the same motion:
     - incremental: rg__broadphase_update (boxes of the moving bodies + insertion sort + pairs)
     - rebuild:     rg__broadphase_rebuild, what the update falls back on (boxes, three sorted
                    axes, sweep, sorted pair list and pair set)
     - plain SAP:   a from-scratch sort and sweep on one axis (Baraff §7.2.1): boxes, sort of the
                    2n endpoints (the same radix sort), sweep with 3-axis test, pairs sorted
     - brute force: boxes and all n(n-1)/2 box tests, only up to 10 000 bodies (100 000 would
                    take about 100 times longer than 10 000: seconds per step)
   Every method computes every box; the column "boxes" gives that common cost alone.

   Why exchanges per body grow with n in a volume: a body's endpoint passes the endpoints whose
   values lie within its relative displacement, and the number of endpoints per metre of an axis
   is 2n / L with L ~ n^(1/3) (volume) or n^(1/2) (layer). So c ~ n^(5/3) in a volume, n^(3/2) in
   a layer, for the same motion: Baraff's O(n + c) with c growing faster than n. */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include <stdio.h>

#include "tools/clock.h"
#include "tools/random.h"

/* this file calls stb_ds itself, outside rigid.h's own silencing of its macros */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wtype-limits"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif

static unsigned long long bench_random_state = 0x2545f4914f6cdd1dull;
static double bench_random(void) { return random_xorshift(&bench_random_state); }
static rg_real bench_uniform(double lo, double hi) { return (rg_real)random_uniform(&bench_random_state, lo, hi); }

typedef struct scene {
    const char *name;
    int layer;          /* 1: one body thick (x-z plane), turning about y only; 0: a cube of space */
    double drift;       /* common velocity along (1, 0.5, 0.25), m/s */
    double deviation;   /* each body's own velocity, uniform in +-deviation per axis, m/s */
    double spin;        /* angular velocity, uniform in +-spin per axis, rad/s */
} scene;

static rg_vec3 bench_vector(double scale) {
    rg_real x = bench_uniform(-scale, scale);
    rg_real y = bench_uniform(-scale, scale);
    rg_real z = bench_uniform(-scale, scale);
    return rg_v3(x, y, z);
}

/* n unit cubes at random positions, one per 1.25^3 m^3, randomly turned, moving per the scene. */
static rg_world *build_scene(const scene *sc, int n, rg_hull *cube) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w;
    double side = sc->layer ? 1.25 * sqrt((double)n) : 1.25 * cbrt((double)n);
    int i;
    wd.gravity = rg_v3(0, 0, 0);
    wd.enable_sleep = 0; /* the sweep is timed with every body moving */
    w = rg_world_create(&wd, NULL);
    for (i = 0; i < n; ++i) {
        rg_body_def bd = rg_body_default_def();
        rg_real x = bench_uniform(0, side), y = sc->layer ? 0 : bench_uniform(0, side), z = bench_uniform(0, side);
        rg_vec3 axis = sc->layer ? rg_v3(0, 1, 0) : bench_vector(1); /* a layer lies flat on a floor */
        rg_real angle = bench_uniform(0, 3.14159);
        bd.hull = cube;
        bd.position = rg_v3(x, y, z);
        bd.orientation = rg_quat_from_axis_angle(axis, angle);
        bd.linear_velocity = rg_v3_add(rg_v3_scale(rg_v3(1, 0.5f, 0.25f), (rg_real)sc->drift), bench_vector(sc->deviation));
        if (sc->layer) bd.linear_velocity.y = 0;
        bd.angular_velocity = bench_vector(sc->spin);
        if (sc->layer) bd.angular_velocity.x = bd.angular_velocity.z = 0;
        rg_body_create(w, &bd, NULL);
    }
    return w;
}

/* Every box, as the methods compared all compute them, copied into a compact array. */
static void compute_all_boxes(rg_world *w, rg_real dt, rg__sap_box **boxes) {
    int i, n = (int)stbds_arrlen(w->bodies);
    stbds_arrsetlen(*boxes, n);
    for (i = 0; i < n; ++i) {
        rg__body *body = &w->bodies[i];
        rg__sap_box *b = &(*boxes)[i];
        rg__broadphase_body_box(w, body, w->def.contact_margin, dt);
        b->lo[0] = body->aabb_min.x; b->lo[1] = body->aabb_min.y; b->lo[2] = body->aabb_min.z;
        b->hi[0] = body->aabb_max.x; b->hi[1] = body->aabb_max.y; b->hi[2] = body->aabb_max.z;
    }
}

/* Baraff §7.2.1 from scratch on the x axis: sort the 2n endpoints, then after each begin every
   begin met before its end is a candidate, tested on all three axes (the boxes copied in begin
   order so that the scan reads memory in sequence). Returns the pair count. */
typedef struct plain_sap {
    rg__sap_box *boxes, *sorted;
    rg__sap_endpoint *endpoints, *scratch;
    int *bodies;
    uint64_t *keys, *key_scratch, *radix_keys, *radix_scratch;
} plain_sap;

static int plain_sap_pairs(plain_sap *s, rg_world *w, rg_real dt) {
    int i, j, n = (int)stbds_arrlen(w->bodies), m = 0;
    compute_all_boxes(w, dt, &s->boxes);
    stbds_arrsetlen(s->endpoints, 2 * n);
    for (i = 0; i < n; ++i) { /* begins, then ends: the tie order */
        s->endpoints[i].value = s->boxes[i].lo[0];
        s->endpoints[i].tag = 8 * i;
        s->endpoints[n + i].value = s->boxes[i].hi[0];
        s->endpoints[n + i].tag = 8 * i + RG__SAP_END;
    }
    m = 2 * n;
    rg__broadphase_sort_endpoints(&s->endpoints, &s->scratch, &s->radix_keys, &s->radix_scratch, m);
    stbds_arrsetlen(s->sorted, n);
    stbds_arrsetlen(s->bodies, n);
    for (i = j = 0; i < m; ++i) {
        if (s->endpoints[i].tag & RG__SAP_END) continue;
        s->bodies[j] = s->endpoints[i].tag >> 3;
        s->sorted[j++] = s->boxes[s->endpoints[i].tag >> 3];
    }
    stbds_arrsetlen(s->keys, 0);
    for (i = 0; i < n; ++i)
        for (j = i + 1; j < n && s->sorted[j].lo[0] <= s->sorted[i].hi[0]; ++j)
            if (rg__broadphase_boxes_overlap(&s->sorted[i], &s->sorted[j]))
                stbds_arrput(s->keys, rg__broadphase_pair_key(s->bodies[i], s->bodies[j]));
    rg__broadphase_sort_keys(&s->keys, &s->key_scratch, (int)stbds_arrlen(s->keys));
    return (int)stbds_arrlen(s->keys);
}

static int brute_force_pairs(rg_world *w, rg_real dt, rg__sap_box **boxes, uint64_t **keys) {
    int i, j, n = (int)stbds_arrlen(w->bodies);
    compute_all_boxes(w, dt, boxes);
    stbds_arrsetlen(*keys, 0);
    for (i = 0; i < n; ++i)
        for (j = i + 1; j < n; ++j)
            if (rg__broadphase_boxes_overlap(&(*boxes)[i], &(*boxes)[j])) stbds_arrput(*keys, rg__broadphase_pair_key(i, j));
    return (int)stbds_arrlen(*keys);
}

typedef struct bench_result {
    double incremental, rebuild, cold, plain, brute, boxes; /* seconds per step */
    double exchanges, budget;
    int pairs, rebuilt_steps;
} bench_result;

/* The machine may be shared: other processes only ever add time, so every figure is the
   fastest of its steps or repeats. */
static double fastest(double best, double t) { return best == 0 || t < best ? t : best; }

static void check_count(const char *method, int count, const rg_world *w) {
    if (count != (int)stbds_arrlen(w->broadphase.pairs))
        printf("  %s found %d pairs, the broad phase %d\n", method, count, (int)stbds_arrlen(w->broadphase.pairs));
}

static bench_result bench_scene(const scene *sc, int n, rg_hull *cube) {
    const rg_real dt = 1.0f / 60;
    rg_world *w = build_scene(sc, n, cube);
    plain_sap sap;
    uint64_t *brute_keys = NULL;
    rg__sap_box *brute_boxes = NULL;
    bench_result r;
    int steps = n >= 100000 ? 15 : n >= 10000 ? 40 : 100, repeats = n >= 100000 ? 3 : n >= 10000 ? 4 : 10, i;
    int rebuilds;
    double t, exchanges = 0;
    memset(&sap, 0, sizeof sap);
    memset(&r, 0, sizeof r);
    rg__broadphase_update(w, dt); /* the first step: a rebuild */
    for (i = 0; i < 5; ++i) {
        rg__integrate_positions(w, dt);
        rg__broadphase_update(w, dt);
    }
    rebuilds = w->stats.broadphase_rebuilds;
    for (i = 0; i < steps; ++i) {
        rg__integrate_positions(w, dt);
        t = now_seconds();
        rg__broadphase_update(w, dt);
        r.incremental = fastest(r.incremental, now_seconds() - t);
        exchanges += w->stats.broadphase_exchanges;
    }
    r.rebuilt_steps = w->stats.broadphase_rebuilds - rebuilds;
    r.exchanges = exchanges / steps;
    r.pairs = w->stats.pair_count;
    r.budget = (double)rg__broadphase_exchange_budget(&w->broadphase, n);
    for (i = 0; i < repeats; ++i) {
        t = now_seconds();
        compute_all_boxes(w, dt, &brute_boxes);
        r.boxes = fastest(r.boxes, now_seconds() - t);
    }
    for (i = 0; i < repeats; ++i) { /* warm: the fallback of an update, the set updated by difference */
        rg__integrate_positions(w, dt);
        t = now_seconds();
        rg__broadphase_rebuild(w, dt);
        r.rebuild = fastest(r.rebuild, now_seconds() - t);
    }
    for (i = 0; i < repeats; ++i) { /* cold, like a first step: the pair set filled from empty */
        stbds_hmfree(w->broadphase.pair_set);
        stbds_arrsetlen(w->broadphase.pairs, 0);
        t = now_seconds();
        rg__broadphase_rebuild(w, dt);
        r.cold = fastest(r.cold, now_seconds() - t);
    }
    for (i = 0; i < repeats; ++i) {
        int count;
        t = now_seconds();
        count = plain_sap_pairs(&sap, w, dt);
        r.plain = fastest(r.plain, now_seconds() - t);
        check_count("plain SAP", count, w);
    }
    if (n <= 10000) {
        for (i = 0; i < (n >= 10000 ? 2 : repeats); ++i) {
            int count;
            t = now_seconds();
            count = brute_force_pairs(w, dt, &brute_boxes, &brute_keys);
            r.brute = fastest(r.brute, now_seconds() - t);
            check_count("brute force", count, w);
        }
    }
    printf("%-6s %7d %8.3f %7.1f %6.2f %7.3f %8.3f %5.1fx %8.3f %8.3f %5.1fx", sc->name, n,
           r.incremental * 1e3, r.exchanges / n, (double)r.pairs / n, r.boxes * 1e3, r.rebuild * 1e3,
           r.rebuild / r.incremental, r.cold * 1e3, r.plain * 1e3, r.plain / r.incremental);
    if (n <= 10000) printf(" %9.2f %5.0fx", r.brute * 1e3, r.brute / r.incremental);
    else printf(" %9s %6s", "-", "");
    /* the rebuild's cost in exchanges, from this scene's cost per exchange, against the budget */
    if (r.rebuilt_steps) {
        printf(" %d of %d steps rebuilt\n", r.rebuilt_steps, steps);
    } else if (r.exchanges > n) {
        double per_exchange = (r.incremental - r.boxes) / r.exchanges;
        printf(" %6.0f ns %5.2f\n", per_exchange * 1e9, r.rebuild / per_exchange / r.budget);
    } else {
        printf("\n");
    }
    fflush(stdout);
    stbds_arrfree(sap.boxes);
    stbds_arrfree(sap.sorted);
    stbds_arrfree(sap.bodies);
    stbds_arrfree(sap.endpoints);
    stbds_arrfree(sap.scratch);
    stbds_arrfree(sap.keys);
    stbds_arrfree(sap.key_scratch);
    stbds_arrfree(sap.radix_keys);
    stbds_arrfree(sap.radix_scratch);
    stbds_arrfree(brute_boxes);
    stbds_arrfree(brute_keys);
    rg_world_destroy(w);
    return r;
}

/* Coherence lost: a share of the bodies teleported anywhere in the grid each step. Shows the
   exchanges against the rebuild budget and which way the update went. */
static void bench_teleports(const scene *sc, int n, double share, rg_hull *cube) {
    const rg_real dt = 1.0f / 60;
    rg_world *w = build_scene(sc, n, cube);
    int steps = 20, i, k, rebuilds;
    double t, elapsed = 0, exchanges = 0, side = 1.25 * cbrt((double)n);
    rg__broadphase_update(w, dt);
    rebuilds = w->stats.broadphase_rebuilds;
    for (i = 0; i < steps; ++i) {
        rg__integrate_positions(w, dt);
        for (k = 0; k < (int)(share * n); ++k) {
            int index = (int)(bench_random() * n);
            rg_body_id id;
            rg_real x = bench_uniform(0, side), y = bench_uniform(0, side), z = bench_uniform(0, side);
            id.index = (uint32_t)index;
            id.generation = w->bodies[index].generation;
            rg_body_set_transform(w, id, rg_v3(x, y, z), rg_quat_identity());
        }
        t = now_seconds();
        rg__broadphase_update(w, dt);
        elapsed += now_seconds() - t;
        exchanges += w->stats.broadphase_exchanges;
    }
    printf("%7d cubes, %5.1f%% teleported per step: %8.3f ms/step, %9.0f exchanges/step (budget %lld), "
           "%d of %d steps rebuilt\n", n, share * 100, elapsed / steps * 1e3, exchanges / steps,
           (long long)rg__broadphase_exchange_budget(&w->broadphase, n), w->stats.broadphase_rebuilds - rebuilds, steps);
    rg_world_destroy(w);
}

static void run_scene(const scene *sc, rg_hull *cube) {
    bench_result r1k = bench_scene(sc, 1000, cube), r10k = bench_scene(sc, 10000, cube);
    bench_result r100k = bench_scene(sc, 100000, cube);
    printf("%-6s 10k/1k: incremental %.1fx, plain SAP %.1fx, brute force %.1fx. 100k/10k: incremental "
           "%.1fx (exchanges %.1fx, boxes %.1fx), plain SAP %.1fx, rebuild %.1fx\n\n", sc->name,
           r10k.incremental / r1k.incremental, r10k.plain / r1k.plain, r10k.brute / r1k.brute,
           r100k.incremental / r10k.incremental, r100k.exchanges / r10k.exchanges, r100k.boxes / r10k.boxes,
           r100k.plain / r10k.plain, r100k.rebuild / r10k.rebuild);
}

int main(void) {
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    scene drift = {"drift", 0, 1.0, 0.1, 0.3}, layer = {"layer", 1, 1.0, 0.1, 0.3};
    scene gas = {"gas", 0, 0.0, 1.0, 1.0};
    printf("rigid.h %s broad phase bench. Times in ms per step (fastest of the steps or repeats);\n"
           "ratios are method / incremental. drift: a volume drifting at 1.15 m/s, each body +-%.1f m/s\n"
           "and +-%.1f rad/s of its own; layer: the same one body thick on a floor, turning about y;\n"
           "gas: +-1 m/s and +-1 rad/s each, no common drift (stress). rebuild = the update's fallback;\n"
           "first = a first step's rebuild (pair set filled from empty). The last two columns: the\n"
           "cost of an exchange in this scene, and the rebuild's cost over the exchange budget (the\n"
           "update gives up after budget exchanges: about 1 is right).\n", RIGID_VERSION_STRING,
           drift.deviation, drift.spin);
    printf("%-6s %7s %8s %7s %6s %7s %8s %6s %8s %8s %6s %9s %6s %9s %5s\n", "scene", "bodies", "incr",
           "exch/n", "pair/n", "boxes", "rebuild", "", "first", "plainSAP", "", "brute", "", "exchange",
           "r/bud");
    run_scene(&drift, cube);
    run_scene(&layer, cube);
    run_scene(&gas, cube);
    bench_teleports(&drift, 10000, 0.001, cube);
    bench_teleports(&drift, 10000, 0.01, cube);
    bench_teleports(&drift, 10000, 0.1, cube);
    bench_teleports(&drift, 10000, 1.0, cube);
    rg_hull_destroy(cube);
    return 0;
}
