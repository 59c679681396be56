/* `make bench`: world queries (prints, never asserts). Times are process CPU time.
   - rays: worlds of 1 000, 10 000 and 100 000 static bodies (unit cubes and spheres of radius
     0.5, turned at random) at one body per 8 m^3 in a cube; rays 5 m long in random directions
     from random points at least 5 m inside it, so that every size sees the same crowd along its
     rays and only the number of bodies changes. rg_world_ray_cast against a brute-force loop
     over every shape (its box tested, then the shape cast: the leaf test the tree's walk makes)
     on the same rays; the hits of both are compared. The tree is timed as insertions left it
     (before any step; it is rebuilt each time insertions double it) and after the first step.
     Rays per second, the best of several passes. Counted by callgrind (gcc -O2, float), a ray
     takes 6 530, 7 640 and 8 720 instructions at 1e3, 1e4 and 1e5 bodies: 1 100 more for each
     factor of 10, logarithmic; its time grows faster, as the world outgrows the caches.
   - upkeep: the scenes rain (1 000 cubes) and rain-10k stepped with RIGID_PROFILE_CLOCK; the
     time of rg_world_step and of its query phase (the moving leaves' boxes, the refit, the
     rebuilds) per step, averaged over the run, and the number of rebuilds in the steps. Then
     the refitted tree's rays (5 m, random, from inside the walls up to 8 m high) per second
     against the same tree rebuilt: what refitting between rebuilds costs the queries. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

/* Process CPU seconds: on a machine shared with other work, time spent descheduled does not count
   (wall-clock times on 2 busy cores varied twofold between runs). */
static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define RIGID_PROFILE_CLOCK() cpu_seconds()
#define RIGID_IMPLEMENTATION
#include "rigid.h"
#include "examples/scenes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tools/random.h"

enum { RAYS = 20000, LENGTH = 5 };

static unsigned long long random_state = 0x2545f4914f6cdd1dull;

static rg_real uniform(double lo, double hi) { return (rg_real)random_uniform(&random_state, lo, hi); }

static rg_quat random_rotation(void) {
    rg_vec3 axis = rg_v3(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
    return rg_quat_from_axis_angle(axis, uniform(0, 6.2831853));
}

static rg_vec3 random_direction(void) {
    for (;;) {
        rg_vec3 v = rg_v3(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
        rg_real l = rg_v3_length(v);
        if (l > (rg_real)0.1 && l <= 1) return rg_v3_scale(v, 1 / l);
    }
}

typedef struct ray { rg_vec3 origin, translation; } ray;

/* The brute force: every shape's box tested, then its cast (rg__query_cast_leaf, as the tree's
   walk calls it). Shape boxes are computed once, into a flat array. */
static int brute_ray_cast(const rg_world *w, const rg_vec3 *lo, const rg_vec3 *hi, int n, ray r, rg_ray_hit *hit) {
    rg__query_cast c;
    rg_real entry;
    int i;
    rg__query_cast_start(&c, w, r.origin, 0, r.translation, NULL);
    for (i = 0; i < n; ++i)
        if (rg__cast_box(lo[i], hi[i], 0, r.origin, r.translation, c.limit, &entry)) rg__query_cast_leaf(&c, i);
    if (c.total) *hit = c.best;
    return c.total;
}

static double time_tree(const rg_world *w, const ray *rays, int count, long *hits, long *sum) {
    double start = cpu_seconds();
    int i;
    *hits = *sum = 0;
    for (i = 0; i < count; ++i) {
        rg_ray_hit hit;
        if (rg_world_ray_cast(w, rays[i].origin, rays[i].translation, NULL, &hit)) {
            ++*hits;
            *sum += hit.shape.index;
        }
    }
    return cpu_seconds() - start;
}

static double best_tree(const rg_world *w, const ray *rays, int count, long *hits, long *sum) {
    double best = 1e30, t;
    int repeat;
    for (repeat = 0; repeat < 5; ++repeat) {
        t = time_tree(w, rays, count, hits, sum);
        if (t < best) best = t;
    }
    return best;
}

static void bench_rays(int bodies) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_hull *cube = rg_hull_create_box(rg_v3((rg_real)0.5, (rg_real)0.5, (rg_real)0.5), NULL);
    double side = pow(8.0 * bodies, 1.0 / 3), inserted, built, brute = 1e30, step;
    ray *rays = (ray *)malloc(sizeof(ray) * RAYS);
    rg_vec3 *lo, *hi;
    int i, n, brute_rays = (int)(2e8 / bodies / 10) < RAYS ? (int)(2e8 / bodies / 10) : RAYS, repeat;
    long hits, sum, brute_hits = 0, brute_sum = 0, first_hits, first_sum;
    for (i = 0; i < bodies; ++i) {
        rg_body_def bd = rg_body_default_def();
        rg_shape_def sd = rg_shape_default_def();
        rg_body_id id;
        bd.type = RG_BODY_STATIC;
        bd.position = rg_v3(uniform(-side / 2, side / 2), uniform(-side / 2, side / 2), uniform(-side / 2, side / 2));
        bd.orientation = random_rotation();
        if (i % 2 == 0) bd.hull = cube;
        id = rg_body_create(w, &bd, NULL);
        if (i % 2) rg_body_add_sphere(w, id, &sd, rg_v3(0, 0, 0), (rg_real)0.5, NULL);
    }
    for (i = 0; i < RAYS; ++i) {
        double inner = side / 2 - LENGTH;
        rays[i].origin = rg_v3(uniform(-inner, inner), uniform(-inner, inner), uniform(-inner, inner));
        rays[i].translation = rg_v3_scale(random_direction(), LENGTH);
    }
    inserted = best_tree(w, rays, RAYS, &hits, &sum);
    step = cpu_seconds();
    rg_world_step(w, (rg_real)(1.0 / 60));   /* static bodies: the step rebuilds the tree */
    step = cpu_seconds() - step;
    built = best_tree(w, rays, RAYS, &hits, &sum);
    n = (int)stbds_arrlen(w->shapes);
    lo = (rg_vec3 *)malloc(sizeof(rg_vec3) * (size_t)n);
    hi = (rg_vec3 *)malloc(sizeof(rg_vec3) * (size_t)n);
    for (i = 0; i < n; ++i) rg__query_shape_box(w, i, &lo[i], &hi[i]);
    for (repeat = 0; repeat < 3; ++repeat) {
        double t = cpu_seconds();
        brute_hits = brute_sum = 0;
        for (i = 0; i < brute_rays; ++i) {
            rg_ray_hit hit;
            if (brute_ray_cast(w, lo, hi, n, rays[i], &hit)) {
                ++brute_hits;
                brute_sum += hit.shape.index;
            }
        }
        t = cpu_seconds() - t;
        if (t < brute) brute = t;
    }
    time_tree(w, rays, brute_rays, &first_hits, &first_sum);
    printf("%8d %6d %12.0f %12.0f %9.0f %12.0f %9.0f %9.1f %6.2f%s\n", bodies, w->query.nodes[w->query.root].height,
           RAYS / inserted, RAYS / built, built / RAYS * 1e9 / log2((double)bodies), brute_rays / brute,
           (RAYS / built) / (brute_rays / brute), step * 1e3, (double)hits / RAYS,
           first_hits == brute_hits && first_sum == brute_sum ? "" : "  MISMATCH");
    free(lo);
    free(hi);
    free(rays);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
}

static void bench_upkeep(const char *name, int steps) {
    scene s;
    scene_world sw;
    rg_world_def wd = rg_world_default_def();
    double total = 0, query = 0, most = 0;
    int i, created_rebuilds;
    scene_build(&s, name);
    wd.contact_iterations = s.iterations;
    wd.enable_sleep = 0; /* the scenes' settings: sleeping off */
    scene_create_world(&s, &wd, &sw);
    created_rebuilds = sw.world->query.rebuilds;   /* as the bodies were created: not the step's */
    for (i = 0; i < steps; ++i) {
        double t = cpu_seconds();
        rg_world_stats st;
        rg_world_step(sw.world, (rg_real)s.dt);
        total += cpu_seconds() - t;
        st = rg_world_get_stats(sw.world);
        query += st.seconds_query;
        if (st.seconds_query > most) most = st.seconds_query;
    }
    {
        double wall = s.boxes[1].position[0], refitted, rebuilt;
        ray *rays = (ray *)malloc(sizeof(ray) * RAYS);
        long hits, sum, hits2, sum2;
        for (i = 0; i < RAYS; ++i) {
            rays[i].origin = rg_v3(uniform(-wall, wall), uniform(0, 8), uniform(-wall, wall));
            rays[i].translation = rg_v3_scale(random_direction(), LENGTH);
        }
        refitted = best_tree(sw.world, rays, RAYS, &hits, &sum);
        rg__query_rebuild(sw.world);
        rebuilt = best_tree(sw.world, rays, RAYS, &hits2, &sum2);
        printf("%-9s %6d %7d %10.3f %10.4f %9.2f%% %10.3f %9d %11.0f %11.0f%s\n", name, scene_dynamic_count(&s), steps,
               total / steps * 1e3, query / steps * 1e3, 100 * query / total, most * 1e3, sw.world->query.rebuilds - 1 - created_rebuilds,
               RAYS / refitted, RAYS / rebuilt, hits == hits2 && sum == sum2 ? "" : "  MISMATCH");
        free(rays);
    }
    scene_destroy_world(&sw);
    scene_free(&s);
}

int main(void) {
    static const int sizes[] = {1000, 10000, 100000};
    int i;
#ifdef RIGID_DOUBLE
    printf("world ray casts, double precision: unit cubes and spheres, one per 8 m^3, %d rays of %d m\n", RAYS, LENGTH);
#else
    printf("world ray casts, single precision: unit cubes and spheres, one per 8 m^3, %d rays of %d m\n", RAYS, LENGTH);
#endif
    printf("rays per second: the tree as insertions left it, after the first step's rebuild, ns per ray over\n"
           "log2(bodies) after it, the brute force and the ratio; the first step's ms; hits per ray\n");
    printf("%8s %6s %12s %12s %9s %12s %9s %9s %6s\n", "bodies", "height", "inserted/s", "rebuilt/s", "ns/log2n",
           "brute/s", "ratio", "step ms", "hits");
    for (i = 0; i < (int)(sizeof sizes / sizeof sizes[0]); ++i) bench_rays(sizes[i]);
    printf("\nthe query tree's upkeep in rg_world_step (ms per step, averaged over the run)\n");
    printf("%-9s %6s %7s %10s %10s %10s %10s %9s %11s %11s\n", "scene", "bodies", "steps", "step ms", "query ms", "share",
           "worst ms", "rebuilds", "refitted/s", "rebuilt/s");
    bench_upkeep("rain", 600);
    bench_upkeep("rain-10k", 300);
    return 0;
}
