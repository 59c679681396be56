/* Threads (THREADS in rigid.h's doc block): scenes stepped with threads lent by tools/tasks.h's
   pthread pool with 2, 3, 4 and 8 workers, and through an enqueue_task that runs every range
   inline, backwards, and returns NULL. Each step's hash (every live body's position,
   orientation and velocities bit for bit, the step's contact and sensor events, statistics and
   a query through the tree) must equal the run's without threads, step by step. The callbacks
   are checked against the contract as they are called. Defs with one callback or a worker count
   outside [1, 64] are refused. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "tools/random.h"
#include "tools/tasks.h"
#include "tools/terrain.h"
#include "tests/programs/state_hash.h"

/* ---- the callbacks, checked ------------------------------------------------------------------ */

/* What the calls to the callbacks showed: one task at a time (the last enqueued finished before
   the next, none running), item counts above min_range >= 1, worker indices in range, finish
   once per handle. */
typedef struct threads_log {
    tasks_pool *pool;             /* NULL: the inline enqueue */
    int worker_count;
    long enqueued, handles, finished, ranges, broken;
    void *open;                   /* the handle not finished yet */
} threads_log;

static void threads_check(threads_log *log, int ok) {
    if (!ok) ++log->broken;
}

static void *threads_enqueue(rg_task_fn *task, int item_count, int min_range, void *task_context, void *user_context) {
    threads_log *log = (threads_log *)user_context;
    void *handle;
    ++log->enqueued;
    threads_check(log, task != NULL && min_range >= 1 && item_count > min_range && log->open == NULL);
    pthread_mutex_lock(&log->pool->mutex);
    threads_check(log, log->pool->running == 0 && tasks_pending(log->pool) == NULL);
    pthread_mutex_unlock(&log->pool->mutex);
    handle = tasks_enqueue(task, item_count, min_range, task_context, log->pool);
    if (handle) {
        ++log->handles;
        log->open = handle;
    }
    return handle;
}

static void threads_finish(void *handle, void *user_context) {
    threads_log *log = (threads_log *)user_context;
    threads_check(log, handle != NULL && handle == log->open);
    tasks_finish(handle, log->pool);
    log->open = NULL;
    ++log->finished;
}

/* The task's ranges of exactly min_range items (the last shorter), run here from the last to
   the first with the workers taken in turn; returns NULL. */
static void *threads_enqueue_inline(rg_task_fn *task, int item_count, int min_range, void *task_context,
                                    void *user_context) {
    threads_log *log = (threads_log *)user_context;
    int start, k = 0;
    ++log->enqueued;
    threads_check(log, task != NULL && min_range >= 1 && item_count > min_range);
    for (start = (item_count - 1) / min_range * min_range; start >= 0; start -= min_range, ++k) {
        int end = start + min_range < item_count ? start + min_range : item_count;
        task(start, end, k % log->worker_count, task_context);
        ++log->ranges;
    }
    return NULL;
}

static void threads_finish_never(void *handle, void *user_context) {
    threads_log *log = (threads_log *)user_context;
    (void)handle;
    ++log->finished;
}

/* ---- scenes ------------------------------------------------------------------------------------ */

enum { THREADS_INLINE = -1 };

/* A scene run: the world, its bodies' ids (null when destroyed), what it was built from. */
typedef struct threads_scene {
    rg_world *world;
    rg_body_id *ids;
    int count, capacity;
    rg_hull *cube, *prism, *slab, *wall;
    rg_mesh *mesh;
    unsigned long long random;
} threads_scene;

static rg_body_id threads_keep(threads_scene *s, rg_body_id id) {
    if (s->count == s->capacity) {
        s->capacity = s->capacity ? 2 * s->capacity : 256;
        s->ids = (rg_body_id *)realloc(s->ids, sizeof *s->ids * (size_t)s->capacity);
    }
    s->ids[s->count++] = id;
    return id;
}

static rg_body_id threads_static_box(threads_scene *s, const rg_hull *hull, rg_vec3 position) {
    rg_body_def bd = rg_body_default_def();
    bd.type = RG_BODY_STATIC;
    bd.hull = hull;
    bd.position = position;
    return threads_keep(s, rg_body_create(s->world, &bd, NULL));
}

/* A pyramid of cubes 1 m wide, `rows` at the bottom, on a slab. */
static void threads_pyramid(threads_scene *s, int rows) {
    int row, i;
    threads_static_box(s, s->slab, rg_v3(0, -0.5f, 0));
    for (row = 0; row < rows; ++row)
        for (i = 0; i < rows - row; ++i) {
            rg_body_def bd = rg_body_default_def();
            bd.hull = s->cube;
            bd.position = rg_v3((rg_real)(1.02 * (i - 0.5 * (rows - row - 1))), (rg_real)(0.5 + row), 0);
            threads_keep(s, rg_body_create(s->world, &bd, NULL));
        }
}

/* One falling body above (x, z): a cube, a sphere, a capsule, a cube with a sphere on it, or (one
   in 40) a 64-sided prism, whose collisions need the workers' scratch memory. */
static void threads_drop(threads_scene *s, double x, double y, double z) {
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    /* one draw per initialiser: draws as arguments of one call would come in an unspecified order */
    double ax = random_lcg(&s->random) - 0.5, ay = random_lcg(&s->random) - 0.5, az = random_lcg(&s->random) - 0.5;
    double angle = 6 * random_lcg(&s->random), kind = random_lcg(&s->random), down = 2 * random_lcg(&s->random);
    double spin_x = random_lcg(&s->random) - 0.5, spin_z = random_lcg(&s->random) - 0.5;
    rg_body_id id;
    bd.position = rg_v3((rg_real)x, (rg_real)y, (rg_real)z);
    bd.orientation = rg_quat_from_axis_angle(rg_v3((rg_real)ax, (rg_real)ay, (rg_real)az), (rg_real)angle);
    bd.linear_velocity = rg_v3(0, (rg_real)-down, 0);
    bd.angular_velocity = rg_v3((rg_real)spin_x, 0, (rg_real)spin_z);
    if (kind < 0.025) bd.hull = s->prism;
    else if (kind < 0.35 || kind >= 0.85) bd.hull = s->cube;
    id = threads_keep(s, rg_body_create(s->world, &bd, NULL));
    if (kind >= 0.35 && kind < 0.6) rg_body_add_sphere(s->world, id, &sd, rg_v3(0, 0, 0), 0.3f, NULL);
    else if (kind >= 0.6 && kind < 0.85)
        rg_body_add_capsule(s->world, id, &sd, rg_v3(-0.3f, 0, 0), rg_v3(0.3f, 0, 0), 0.2f, NULL);
    else if (kind >= 0.85) rg_body_add_sphere(s->world, id, &sd, rg_v3(0, 0.3f, 0), 0.2f, NULL);
}

/* Rain of mixed shapes on a mesh of hills between four walls, with a sensor box in the middle. */
static void threads_rain(threads_scene *s, int count) {
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    terrain t = terrain_make(2 * 18 * 18, 7);
    rg_body_id ground, sensor;
    int i;
    s->mesh = rg_mesh_create(t.vertices, t.vertex_count, t.indices, t.triangle_count, NULL);
    terrain_free(&t);
    bd.type = RG_BODY_STATIC;
    ground = threads_keep(s, rg_body_create(s->world, &bd, NULL));
    rg_body_add_mesh(s->world, ground, &sd, s->mesh, NULL);
    threads_static_box(s, s->wall, rg_v3(8.5f, 2, 0));
    threads_static_box(s, s->wall, rg_v3(-8.5f, 2, 0));
    bd.hull = s->wall;
    bd.position = rg_v3(0, 2, 8.5f);
    bd.orientation = rg_quat_from_axis_angle(rg_v3(0, 1, 0), 1.5707963f);
    threads_keep(s, rg_body_create(s->world, &bd, NULL));
    bd.position = rg_v3(0, 2, -8.5f);
    threads_keep(s, rg_body_create(s->world, &bd, NULL));
    bd = rg_body_default_def();
    bd.type = RG_BODY_STATIC;
    bd.position = rg_v3(0, 3, 0);
    sensor = threads_keep(s, rg_body_create(s->world, &bd, NULL));
    sd.is_sensor = 1;
    rg_body_add_hull(s->world, sensor, &sd, s->cube, rg_v3(0, 0, 0), rg_quat_identity(), NULL);
    for (i = 0; i < count; ++i)
        threads_drop(s, -6.5 + 1.3 * (i % 11), 4 + 1.2 * (i / 121), -6.5 + 1.3 * (i / 11 % 11));
}

/* Every 20 steps: every 7th body destroyed (or its first shape, when it has two), and 30 new
   ones dropped from above. */
static void threads_churn(threads_scene *s, int step) {
    int i, n = s->count;
    if (step % 20 != 10) return;
    for (i = 6; i < n; i += 7) {
        rg_shape_id shapes[2];
        if (rg_body_get_type(s->world, s->ids[i]) != RG_BODY_DYNAMIC) continue;
        if (rg_body_shapes(s->world, s->ids[i], shapes, 2) == 2) {
            rg_shape_destroy(s->world, shapes[0]);
            continue;
        }
        rg_body_destroy(s->world, s->ids[i]);
    }
    for (i = 0; i < 30; ++i) threads_drop(s, -6 + 0.4 * i, 7 + 0.1 * i, 0.3 * (i % 5));
}

static void threads_hash_step(const threads_scene *s, hash64 *hash) {
    rg_contact_events contacts = rg_world_contact_events(s->world);
    rg_sensor_events sensors = rg_world_sensor_events(s->world);
    rg_world_stats stats = rg_world_get_stats(s->world);
    rg_shape_id found[64];
    int i, n;
    for (i = 0; i < s->count; ++i) {
        rg_body_id id = s->ids[i];
        if (!rg_body_is_valid(s->world, id)) continue;
        hash_bytes(hash, &i, sizeof i);
        hash_vec3(hash, rg_body_position(s->world, id));
        hash_quat(hash, rg_body_orientation(s->world, id));
        hash_vec3(hash, rg_body_linear_velocity(s->world, id));
        hash_vec3(hash, rg_body_angular_velocity(s->world, id));
    }
    for (i = 0; i < contacts.begin_count; ++i) {
        hash_bytes(hash, &contacts.begin[i].shape_a, sizeof contacts.begin[i].shape_a);
        hash_bytes(hash, &contacts.begin[i].shape_b, sizeof contacts.begin[i].shape_b);
        hash_vec3(hash, contacts.begin[i].point);
        hash_vec3(hash, contacts.begin[i].normal);
        hash_real(hash, contacts.begin[i].approach_speed);
    }
    for (i = 0; i < contacts.end_count; ++i) hash_bytes(hash, &contacts.end[i].shape_a, sizeof contacts.end[i].shape_a);
    for (i = 0; i < sensors.begin_count; ++i) hash_bytes(hash, &sensors.begin[i].visitor, sizeof sensors.begin[i].visitor);
    for (i = 0; i < sensors.end_count; ++i) hash_bytes(hash, &sensors.end[i].visitor, sizeof sensors.end[i].visitor);
    hash_bytes(hash, &stats.contact_count, sizeof stats.contact_count);
    hash_bytes(hash, &stats.witness_hits, sizeof stats.witness_hits);
    hash_bytes(hash, &stats.witness_misses, sizeof stats.witness_misses);
    hash_bytes(hash, &stats.manifold_reuses, sizeof stats.manifold_reuses);
    hash_bytes(hash, &stats.pair_count, sizeof stats.pair_count);
    n = rg_world_overlap_aabb(s->world, rg_v3(-3, -1, -3), rg_v3(3, 4, 3), NULL, found, 64);
    hash_bytes(hash, &n, sizeof n);
    for (i = 0; i < n && i < 64; ++i) hash_bytes(hash, &found[i], sizeof found[i]);
}

enum { THREADS_PYRAMID, THREADS_RAIN };

/* Runs scene `which` for `steps` steps with the threads of `mode` (THREADS_INLINE: the inline
   enqueue with 4 workers; 0: none; n: the pool with n workers), each step's hash into hashes.
   Returns 0 when the world could not be made. */
static int threads_run(int which, int steps, int mode, uint64_t *hashes, threads_log *log, long *contacts) {
    threads_scene s;
    tasks_pool pool;
    rg_world_def wd = rg_world_default_def();
    rg_result result = RG_OK;
    int step, ok = 1;
    memset(&s, 0, sizeof s);
    memset(log, 0, sizeof *log);
    s.random = 12345;
    if (mode > 0) {
        if (!tasks_start(&pool, mode)) return 0;
        log->pool = &pool;
        log->worker_count = mode;
        wd.worker_count = mode;
        wd.enqueue_task = threads_enqueue;
        wd.finish_task = threads_finish;
        wd.user_task_context = log;
    } else if (mode == THREADS_INLINE) {
        log->worker_count = 4;
        wd.worker_count = 4;
        wd.enqueue_task = threads_enqueue_inline;
        wd.finish_task = threads_finish_never;
        wd.user_task_context = log;
    }
    s.world = rg_world_create(&wd, &result);
    s.cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    s.slab = rg_hull_create_box(rg_v3(40, 0.5f, 40), NULL);
    s.wall = rg_hull_create_box(rg_v3(0.5f, 3, 9), NULL);
    s.prism = test_prism_hull(64, 0.6, 0.8);
    if (!s.world || !s.cube || !s.slab || !s.wall || !s.prism) ok = 0;
    if (ok && which == THREADS_PYRAMID) threads_pyramid(&s, 14);
    if (ok && which == THREADS_RAIN) threads_rain(&s, 400);
    for (step = 0; ok && step < steps; ++step) {
        hash64 hash = HASH64_INIT;
        if (which == THREADS_RAIN) threads_churn(&s, step);
        ok = rg_world_step(s.world, (rg_real)(1.0 / 60)) == RG_OK;
        *contacts += rg_world_get_stats(s.world).contact_count;
        threads_hash_step(&s, &hash);
        hashes[step] = hash.h;
    }
    rg_world_destroy(s.world);
    rg_hull_destroy(s.cube);
    rg_hull_destroy(s.slab);
    rg_hull_destroy(s.wall);
    rg_hull_destroy(s.prism);
    rg_mesh_destroy(s.mesh);
    free(s.ids);
    if (mode > 0) {
        int k;
        for (k = 0; k < mode; ++k) log->ranges += pool.ranges[k];
        tasks_stop(&pool);
    }
    return ok;
}

/* The first step whose hash differs, or -1. */
static int threads_first_difference(const uint64_t *a, const uint64_t *b, int steps) {
    int i;
    for (i = 0; i < steps; ++i)
        if (a[i] != b[i]) return i;
    return -1;
}

/* Scene `which` with 2, 3, 4 and 8 pooled workers and the inline enqueue, against no threads. */
static void threads_compare(int which, int steps) {
    static const int modes[] = {2, 3, 4, 8, THREADS_INLINE};
    uint64_t *reference = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)steps);
    uint64_t *hashes = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)steps);
    threads_log log;
    long contacts = 0, ignored = 0;
    int m, ok = reference && hashes && threads_run(which, steps, 0, reference, &log, &contacts), broken = 0;
    int differs = -1;
    rg_test_note("%ld contact points over %d steps", contacts, steps);
    for (m = 0; ok && m < (int)(sizeof modes / sizeof *modes); ++m) {
        int first;
        ok = threads_run(which, steps, modes[m], hashes, &log, &ignored);
        first = threads_first_difference(reference, hashes, steps);
        rg_test_note("mode %d: %ld tasks, %ld ranges, %ld finished, first different step %d", modes[m], log.enqueued,
                     log.ranges, log.finished, first);
        if (first >= 0 && differs < 0) differs = first;
        /* every task enqueued was split (the pool cuts it into several ranges, the inline
           enqueue into min_range pieces); the pool's handles were each finished once */
        if (log.broken || log.enqueued == 0 || log.ranges <= log.enqueued) broken = 1;
        if (modes[m] > 0 && (log.finished != log.handles || log.handles == 0)) broken = 1;
        if (modes[m] == THREADS_INLINE && log.finished != 0) broken = 1;
    }
    free(reference);
    free(hashes);
    ENSURE(ok);
    ENSURE(broken == 0);
    ENSURE_NEAR(differs, -1, 0);
}

static void test_threads_pyramid(void) { threads_compare(THREADS_PYRAMID, 60); }

static void test_threads_rain(void) { threads_compare(THREADS_RAIN, 60); }

/* The defaults run inline; one callback without the other and worker counts outside [1, 64] are
   refused with RG_ERR_INVALID_ARGUMENT; 64 workers and a worker count without callbacks are
   accepted. */
static void test_threads_defs(void) {
    rg_world_def wd = rg_world_default_def(), bad;
    threads_log log;
    rg_result result = RG_OK;
    rg_world *w;
    static const int counts[] = {0, -1, 65, 1000, -2147483647 - 1};
    int i;
    memset(&log, 0, sizeof log);
    ENSURE(wd.worker_count == 1 && wd.enqueue_task == NULL && wd.finish_task == NULL && wd.user_task_context == NULL);
    bad = wd;
    bad.enqueue_task = threads_enqueue_inline;
    ENSURE(rg_world_create(&bad, &result) == NULL && result == RG_ERR_INVALID_ARGUMENT);
    bad = wd;
    bad.finish_task = threads_finish_never;
    result = RG_OK;
    ENSURE(rg_world_create(&bad, &result) == NULL && result == RG_ERR_INVALID_ARGUMENT);
    for (i = 0; i < (int)(sizeof counts / sizeof *counts); ++i) {
        bad = wd;
        bad.worker_count = counts[i];
        result = RG_OK;
        ENSURE(rg_world_create(&bad, &result) == NULL && result == RG_ERR_INVALID_ARGUMENT);
        bad.enqueue_task = threads_enqueue_inline;
        bad.finish_task = threads_finish_never;
        result = RG_OK;
        ENSURE(rg_world_create(&bad, &result) == NULL && result == RG_ERR_INVALID_ARGUMENT);
    }
    bad = wd;
    bad.worker_count = 64;
    bad.enqueue_task = threads_enqueue_inline;
    bad.finish_task = threads_finish_never;
    bad.user_task_context = &log;
    w = rg_world_create(&bad, &result);
    ENSURE(w != NULL && result == RG_OK);
    rg_world_destroy(w);
    bad = wd;
    bad.worker_count = 8;
    w = rg_world_create(&bad, &result);
    ENSURE(w != NULL && result == RG_OK);
    rg_world_destroy(w);
}

void rg_tests_threads(void) {
    RUN_TEST(test_threads_defs);
    RUN_TEST(test_threads_pyramid);
    RUN_TEST(test_threads_rain);
}
