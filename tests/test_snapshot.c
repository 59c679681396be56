/* Snapshots (rg_world_snapshot_size, _save, _load): rollback of a scene with hulls, spheres,
   capsules, a compound, a sensor, a static mesh ground and joints, through 120 steps that create
   and destroy bodies, shapes and joints and apply impulses: after a load the same calls give the
   same hash of the public state at every step, in the world saved (also saved between calls
   and their step), in a new world made after destroying the first, in an empty world, and in
   a world with another history and another worker count. Bad buffers are refused and leave the world's own snapshot byte for byte as it
   was; the header is checked against an independent computation of the documented checksum. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "tests/programs/state_hash.h"
#include "tools/terrain.h"

#define SNAP_STEPS 120
#define SNAP_WARMUP 30
#define SNAP_MAX_CREATED 64

static const rg_real snap_dt = (rg_real)(1.0 / 60);

static rg_vec3 v3(double x, double y, double z) { return rg_v3((rg_real)x, (rg_real)y, (rg_real)z); }

/* What the scene is made of: hulls and a mesh, which snapshots reference. */
typedef struct snap_assets {
    rg_hull *cube, *slab;
    rg_mesh *ground;
    terrain grid;
} snap_assets;

static double snap_bumps(double x, double z, void *context) {
    (void)context;
    return 0.15 * sin(0.7 * x) * cos(0.5 * z);
}

static int snap_assets_make(snap_assets *a) {
    a->cube = rg_hull_create_box(v3(0.4, 0.4, 0.4), NULL);
    a->slab = rg_hull_create_box(v3(0.6, 0.15, 0.3), NULL);
    a->grid = terrain_grid(16, 16, -8, -8, 1, snap_bumps, NULL);
    a->ground = rg_mesh_create(a->grid.vertices, a->grid.vertex_count, a->grid.indices, a->grid.triangle_count, NULL);
    return a->cube && a->slab && a->ground;
}

static void snap_assets_free(snap_assets *a) {
    rg_hull_destroy(a->cube);
    rg_hull_destroy(a->slab);
    rg_mesh_destroy(a->ground);
    terrain_free(&a->grid);
}

/* The script's own state, which a rollback resets with the world's: the bodies, shapes and
   joints it created and has not destroyed yet. */
typedef struct snap_script {
    rg_body_id bodies[SNAP_MAX_CREATED];
    int body_count;
    rg_shape_id shapes[SNAP_MAX_CREATED];
    int shape_count;
    rg_joint_id joints[SNAP_MAX_CREATED];
    int joint_count;
    rg_body_id pile[16];          /* the first scene's dynamic bodies */
    int pile_count;
} snap_script;

static rg_body_id snap_dynamic(rg_world *w, const rg_hull *hull, rg_vec3 position) {
    rg_body_def bd = rg_body_default_def();
    bd.hull = hull;
    bd.position = position;
    bd.orientation = rg_quat_from_axis_angle(v3(0.3, 1, 0.2), (rg_real)(0.4 * position.x + 0.2 * position.z));
    return rg_body_create(w, &bd, NULL);
}

/* A pile on a bumpy mesh ground: cubes, spheres, capsules, a compound of a slab, a sphere and a
   capsule; a static sensor box; a hinge, a ball joint to the world and a distance joint. */
static void snap_scene(rg_world *w, const snap_assets *a, snap_script *s) {
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    rg_joint_def jd;
    rg_body_id ground, sensor, b;
    int i;
    memset(s, 0, sizeof *s);
    bd.type = RG_BODY_STATIC;
    ground = rg_body_create(w, &bd, NULL);
    rg_body_add_mesh(w, ground, &sd, a->ground, NULL);
    bd.position = v3(3, 0.6, 0);
    sensor = rg_body_create(w, &bd, NULL);
    sd.is_sensor = 1;
    rg_body_add_sphere(w, sensor, &sd, v3(0, 0, 0), (rg_real)1.2, NULL);
    sd = rg_shape_default_def();
    for (i = 0; i < 9; ++i) {
        rg_vec3 p = v3(-1.0 + 0.9 * (i % 3), 0.8 + 1.0 * (i / 3), -0.5 + 0.45 * (i % 2));
        if (i % 3 == 0) {
            b = snap_dynamic(w, a->cube, p);
        } else {
            b = snap_dynamic(w, NULL, p);
            if (i % 3 == 1) rg_body_add_sphere(w, b, &sd, v3(0, 0, 0), (rg_real)0.35, NULL);
            else rg_body_add_capsule(w, b, &sd, v3(-0.3, 0, 0), v3(0.3, 0, 0), (rg_real)0.2, NULL);
        }
        s->pile[s->pile_count++] = b;
    }
    /* the compound */
    b = snap_dynamic(w, NULL, v3(0.5, 4.5, 0.3));
    rg_body_add_hull(w, b, &sd, a->slab, v3(0, 0, 0), rg_quat_identity(), NULL);
    rg_body_add_sphere(w, b, &sd, v3(0.7, 0.1, 0), (rg_real)0.25, NULL);
    rg_body_add_capsule(w, b, &sd, v3(-0.6, 0, -0.3), v3(-0.6, 0, 0.3), (rg_real)0.15, NULL);
    s->pile[s->pile_count++] = b;
    /* a door on a hinge, a ball hanging from the world, two cubes on a rope */
    {
        rg_body_id door = snap_dynamic(w, a->slab, v3(-3, 2, 1)), bob = snap_dynamic(w, a->cube, v3(-3, 2, -2));
        rg_body_id c1 = snap_dynamic(w, a->cube, v3(2, 3, -2)), c2 = snap_dynamic(w, a->cube, v3(2.5, 4.5, -2));
        jd = rg_joint_default_def();
        jd.type = RG_JOINT_HINGE;
        jd.body_a = door;
        jd.anchor_a = v3(-3.6, 2, 1);
        jd.axis = v3(0, 1, 0);
        rg_joint_create(w, &jd, NULL);
        jd = rg_joint_default_def();
        jd.body_a = bob;
        jd.anchor_a = v3(-3, 3.5, -2);
        rg_joint_create(w, &jd, NULL);
        jd = rg_joint_default_def();
        jd.type = RG_JOINT_DISTANCE;
        jd.body_a = c1;
        jd.body_b = c2;
        jd.anchor_a = v3(2, 3.4, -2);
        jd.anchor_b = v3(2.5, 4.1, -2);
        rg_joint_create(w, &jd, NULL);
        s->pile[s->pile_count++] = door;
        s->pile[s->pile_count++] = c1;
    }
}

/* The calls before step k of the script: bodies created (three kinds in turn, some falling into
   the sensor) and destroyed, shapes added and destroyed, joints made and broken, impulses. */
static void snap_script_calls(rg_world *w, const snap_assets *a, snap_script *s, int k) {
    rg_shape_def sd = rg_shape_default_def();
    if (k % 9 == 2 && s->body_count < SNAP_MAX_CREATED) {
        rg_vec3 p = v3(-2 + 0.37 * (k % 11), 5, -1 + 0.23 * (k % 7));
        rg_body_id b;
        if (k % 27 == 2) p = v3(3, 4, 0.1); /* into the sensor */
        b = snap_dynamic(w, (k / 9) % 3 == 0 ? a->cube : NULL, p);
        if ((k / 9) % 3 == 1) rg_body_add_sphere(w, b, &sd, v3(0, 0, 0), (rg_real)0.3, NULL);
        if ((k / 9) % 3 == 2) rg_body_add_capsule(w, b, &sd, v3(0, -0.25, 0), v3(0, 0.25, 0), (rg_real)0.2, NULL);
        rg_body_set_linear_velocity(w, b, v3(0.5, -1, 0.2));
        s->bodies[s->body_count++] = b;
    }
    if (k % 14 == 8 && s->body_count > 0) {
        rg_body_destroy(w, s->bodies[0]);
        memmove(s->bodies, s->bodies + 1, sizeof s->bodies[0] * (size_t)--s->body_count);
    }
    if (k % 17 == 5 && s->shape_count < SNAP_MAX_CREATED) {
        rg_body_id on = s->pile[(k / 17) % s->pile_count];
        s->shapes[s->shape_count++] = rg_body_add_sphere(w, on, &sd, v3(0.3, 0.3, 0), (rg_real)0.15, NULL);
    }
    if (k % 17 == 13 && s->shape_count > 0) rg_shape_destroy(w, s->shapes[--s->shape_count]);
    if (k % 20 == 4 && s->joint_count < SNAP_MAX_CREATED) {
        rg_joint_def jd = rg_joint_default_def();
        jd.body_a = s->pile[(k / 20) % s->pile_count];
        jd.body_b = s->pile[(k / 20 + 3) % s->pile_count];
        jd.anchor_a = rg_body_position(w, jd.body_a);
        jd.type = RG_JOINT_DISTANCE;
        jd.anchor_b = rg_body_position(w, jd.body_b);
        s->joints[s->joint_count++] = rg_joint_create(w, &jd, NULL);
    }
    if (k % 20 == 15 && s->joint_count > 0) rg_joint_destroy(w, s->joints[--s->joint_count]);
    if (k % 5 == 1) {
        rg_body_id on = s->pile[k % s->pile_count];
        rg_body_apply_impulse(w, on, v3(0.8 * ((k % 3) - 1), 1.5, 0.6), rg_body_position(w, on));
    }
}

static void hash_body_id(hash64 *h, rg_body_id id) { hash_bytes(h, &id.index, 4); hash_bytes(h, &id.generation, 4); }
static void hash_shape_id(hash64 *h, rg_shape_id id) { hash_bytes(h, &id.index, 4); hash_bytes(h, &id.generation, 4); }

/* Every live body's id, pose and velocities, every contact, the last step's events and the ids
   the script holds. */
static uint64_t snap_hash(const rg_world *w, const snap_script *s) {
    hash64 h = HASH64_INIT;
    rg_body_id ids[256];
    rg_contact contacts[1024];
    rg_contact_events ce = rg_world_contact_events(w);
    rg_sensor_events se = rg_world_sensor_events(w);
    int i, n = rg_world_bodies(w, ids, 256), m = rg_world_contacts(w, contacts, 1024);
    hash_bytes(&h, &n, sizeof n);
    for (i = 0; i < n && i < 256; ++i) {
        hash_body_id(&h, ids[i]);
        hash_vec3(&h, rg_body_position(w, ids[i]));
        hash_quat(&h, rg_body_orientation(w, ids[i]));
        hash_vec3(&h, rg_body_linear_velocity(w, ids[i]));
        hash_vec3(&h, rg_body_angular_velocity(w, ids[i]));
    }
    hash_bytes(&h, &m, sizeof m);
    for (i = 0; i < m && i < 1024; ++i) {
        hash_body_id(&h, contacts[i].a);
        hash_body_id(&h, contacts[i].b);
        hash_shape_id(&h, contacts[i].shape_a);
        hash_shape_id(&h, contacts[i].shape_b);
        hash_vec3(&h, contacts[i].point);
        hash_vec3(&h, contacts[i].normal);
        hash_real(&h, contacts[i].depth);
        hash_real(&h, contacts[i].normal_impulse);
        hash_vec3(&h, contacts[i].friction_impulse);
    }
    for (i = 0; i < ce.begin_count; ++i) {
        hash_shape_id(&h, ce.begin[i].shape_a);
        hash_shape_id(&h, ce.begin[i].shape_b);
        hash_real(&h, ce.begin[i].approach_speed);
    }
    for (i = 0; i < ce.end_count; ++i) hash_shape_id(&h, ce.end[i].shape_a);
    for (i = 0; i < se.begin_count; ++i) hash_shape_id(&h, se.begin[i].visitor);
    for (i = 0; i < se.end_count; ++i) hash_shape_id(&h, se.end[i].visitor);
    for (i = 0; i < s->body_count; ++i) hash_body_id(&h, s->bodies[i]);
    for (i = 0; i < s->shape_count; ++i) hash_shape_id(&h, s->shapes[i]);
    for (i = 0; i < s->joint_count; ++i) {
        hash_bytes(&h, &s->joints[i].index, 4);
        hash_bytes(&h, &s->joints[i].generation, 4);
        hash_vec3(&h, rg_joint_reaction_force(w, s->joints[i]));
    }
    return h.h;
}

/* What a run of the script saw: each step's hash, and how busy it was (so that a match means
   something: contacts, events, creations all happened). */
typedef struct snap_run {
    uint64_t hash[SNAP_STEPS];
    int contacts, begins, sensor_begins, created, max_joints;
} snap_run;

static void snap_run_script(rg_world *w, const snap_assets *a, snap_script *s, snap_run *run) {
    int k;
    memset(run, 0, sizeof *run);
    for (k = 0; k < SNAP_STEPS; ++k) {
        int before = s->body_count;
        snap_script_calls(w, a, s, k);
        run->created += s->body_count > before;
        rg_world_step(w, snap_dt);
        run->hash[k] = snap_hash(w, s);
        run->contacts += rg_world_contacts(w, NULL, 0);
        run->begins += rg_world_contact_events(w).begin_count;
        run->sensor_begins += rg_world_sensor_events(w).begin_count;
        if (s->joint_count > run->max_joints) run->max_joints = s->joint_count;
    }
}

/* The first step whose hashes differ, or -1. */
static int snap_first_difference(const snap_run *x, const snap_run *y) {
    int k;
    for (k = 0; k < SNAP_STEPS; ++k)
        if (x->hash[k] != y->hash[k]) return k;
    return -1;
}

static void *snap_save(const rg_world *w, size_t *size) {
    void *buffer;
    *size = rg_world_snapshot_size(w);
    buffer = malloc(*size);
    if (buffer && rg_world_snapshot_save(w, buffer, *size) != RG_OK) {
        free(buffer);
        buffer = NULL;
    }
    return buffer;
}

/* A world with the scene, stepped SNAP_WARMUP steps. */
static rg_world *snap_world(const snap_assets *a, snap_script *s) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    int k;
    snap_scene(w, a, s);
    for (k = 0; k < SNAP_WARMUP; ++k) rg_world_step(w, snap_dt);
    return w;
}

/* A world with the scene saved after its warm-up, then run through the script and destroyed: the
   snapshot (NULL if it failed), the script as it was at the save, and the run after it. */
static void *snap_saved_run(const snap_assets *a, snap_script *saved_script, snap_run *first, size_t *size) {
    snap_script s;
    rg_world *w = snap_world(a, &s);
    void *buffer = snap_save(w, size);
    *saved_script = s;
    snap_run_script(w, a, &s, first);
    rg_world_destroy(w);
    return buffer;
}

static int snap_run_is_busy(const snap_run *run) {
    int k, distinct = 0;
    for (k = 1; k < SNAP_STEPS; ++k) distinct += run->hash[k] != run->hash[k - 1];
    return distinct == SNAP_STEPS - 1 && run->contacts > 0 && run->begins > 0 && run->sensor_begins > 0 &&
           run->created > 5 && run->max_joints > 0;
}

static int snap_same_stats(rg_world_stats x, rg_world_stats y) {
    return x.body_count == y.body_count && x.pair_count == y.pair_count && x.contact_count == y.contact_count &&
           x.collision_iterations == y.collision_iterations && x.contact_iterations == y.contact_iterations &&
           x.witness_hits == y.witness_hits && x.witness_misses == y.witness_misses &&
           x.manifold_reuses == y.manifold_reuses && x.broadphase_exchanges == y.broadphase_exchanges &&
           x.broadphase_rebuilds == y.broadphase_rebuilds && x.shock_iterations == y.shock_iterations &&
           x.contact_levels == y.contact_levels;
}

/* Save, 120 steps with creations, destructions and impulses, load: the getters report what they
   did at the save; the same 120 steps: every step's hash equal; the world's snapshot after the
   second run has the first run's size. */
static void test_snapshot_rollback_same_world(void) {
    snap_assets a;
    snap_script s, saved_script;
    snap_run first, second;
    rg_world *w;
    size_t size, size_after_first;
    void *buffer;
    uint64_t saved_hash;
    rg_world_stats saved_stats;
    ENSURE(snap_assets_make(&a));
    w = snap_world(&a, &s);
    buffer = snap_save(w, &size);
    saved_script = s;
    saved_hash = snap_hash(w, &s);
    saved_stats = rg_world_get_stats(w);
    ENSURE(buffer != NULL);
    snap_run_script(w, &a, &s, &first);
    size_after_first = rg_world_snapshot_size(w);
    ENSURE(rg_world_snapshot_load(w, buffer, size) == RG_OK);
    s = saved_script;
    /* what the getters report before the next step: contacts, events, stats */
    ENSURE(snap_hash(w, &s) == saved_hash);
    ENSURE(snap_same_stats(rg_world_get_stats(w), saved_stats));
    snap_run_script(w, &a, &s, &second);
    rg_test_note("snapshot %lu bytes, %d contacts, %d begins, %d sensor begins, %d bodies created over the run",
                 (unsigned long)size, first.contacts, first.begins, first.sensor_begins, first.created);
    ENSURE(snap_run_is_busy(&first));
    ENSURE_NEAR(snap_first_difference(&first, &second), -1, 0);
    ENSURE(rg_world_snapshot_size(w) == size_after_first);
    free(buffer);
    rg_world_destroy(w);
    snap_assets_free(&a);
}

/* Saved between calls and the step they wait for: a body created (pending in the broad phase),
   one destroyed (its contact pairs ended, its slot removed), a static body moved, a shape
   destroyed, an impulse; then the script. The load gives the same run. */
static void test_snapshot_rollback_between_calls(void) {
    snap_assets a;
    snap_script s, saved_script;
    snap_run first, second;
    rg_world *w;
    rg_body_id sensor_body = {1, 1};
    size_t size;
    void *buffer;
    ENSURE(snap_assets_make(&a));
    w = snap_world(&a, &s);
    ENSURE(rg_body_is_valid(w, sensor_body) && rg_body_get_type(w, sensor_body) == RG_BODY_STATIC);
    s.bodies[s.body_count++] = snap_dynamic(w, a.cube, v3(0.2, 3, 0.1));
    ENSURE(rg_body_destroy(w, s.pile[0]) == RG_OK);
    s.pile[0] = s.pile[--s.pile_count];
    ENSURE(rg_body_set_transform(w, sensor_body, v3(-1, 0.5, 0), rg_quat_identity()) == RG_OK);
    ENSURE(rg_body_apply_impulse(w, s.pile[1], v3(0, 2, 0), rg_body_position(w, s.pile[1])) == RG_OK);
    buffer = snap_save(w, &size);
    saved_script = s;
    ENSURE(buffer != NULL);
    snap_run_script(w, &a, &s, &first);
    ENSURE(rg_world_snapshot_load(w, buffer, size) == RG_OK);
    s = saved_script;
    snap_run_script(w, &a, &s, &second);
    ENSURE(snap_run_is_busy(&first));
    ENSURE_NEAR(snap_first_difference(&first, &second), -1, 0);
    free(buffer);
    rg_world_destroy(w);
    snap_assets_free(&a);
}

/* The snapshot loaded into a new world made by the same calls after the first was destroyed,
   and into an empty new world: the same hashes as the first world's run after the save. */
static void test_snapshot_rollback_new_world(void) {
    snap_assets a;
    snap_script s, saved_script;
    snap_run first, again, empty;
    rg_world_def wd = rg_world_default_def();
    rg_world *w;
    size_t size;
    void *buffer;
    ENSURE(snap_assets_make(&a));
    buffer = snap_saved_run(&a, &saved_script, &first, &size);
    ENSURE(buffer != NULL);
    w = snap_world(&a, &s);
    ENSURE(rg_world_snapshot_load(w, buffer, size) == RG_OK);
    s = saved_script;
    snap_run_script(w, &a, &s, &again);
    rg_world_destroy(w);
    w = rg_world_create(&wd, NULL);
    ENSURE(rg_world_snapshot_load(w, buffer, size) == RG_OK);
    s = saved_script;
    snap_run_script(w, &a, &s, &empty);
    rg_world_destroy(w);
    free(buffer);
    snap_assets_free(&a);
    ENSURE(snap_run_is_busy(&first));
    ENSURE_NEAR(snap_first_difference(&first, &again), -1, 0);
    ENSURE_NEAR(snap_first_difference(&first, &empty), -1, 0);
}

/* Runs every range inline, from the last to the first, the workers taken in turn. */
static void *snap_enqueue_inline(rg_task_fn *task, int item_count, int min_range, void *task_context,
                                 void *user_context) {
    int start, k = 0;
    (void)user_context;
    for (start = (item_count - 1) / min_range * min_range; start >= 0; start -= min_range, ++k)
        task(start, start + min_range < item_count ? start + min_range : item_count, k % 3, task_context);
    return NULL;
}
static void snap_finish(void *handle, void *user_context) { (void)handle; (void)user_context; }

/* A world with another history (more bodies, a kinematic body, other settings, three workers,
   its scratch arrays full of its own steps) takes the snapshot and runs as the saved world did;
   it keeps its worker count and callbacks, and takes the snapshot's gravity. */
static void test_snapshot_rollback_other_history(void) {
    snap_assets a;
    snap_script s, saved_script, other_script;
    snap_run first, other;
    rg_world_def wd = rg_world_default_def();
    rg_world *busy;
    size_t size;
    void *buffer;
    int k;
    ENSURE(snap_assets_make(&a));
    buffer = snap_saved_run(&a, &saved_script, &first, &size);
    ENSURE(buffer != NULL);
    wd.worker_count = 3;
    wd.enqueue_task = snap_enqueue_inline;
    wd.finish_task = snap_finish;
    wd.gravity = v3(0, -3, 1);
    busy = rg_world_create(&wd, NULL);
    snap_scene(busy, &a, &other_script);
    for (k = 0; k < 40; ++k) {
        rg_body_def bd = rg_body_default_def();
        bd.hull = a.cube;
        bd.position = v3(-4 + 0.3 * k, 2 + 0.5 * (k % 5), 2);
        if (k == 0) bd.type = RG_BODY_KINEMATIC, bd.linear_velocity = v3(0.5, 0, 0);
        rg_body_create(busy, &bd, NULL);
    }
    snap_run_script(busy, &a, &other_script, &other);
    ENSURE(rg_world_snapshot_load(busy, buffer, size) == RG_OK);
    ENSURE_NEAR(rg_world_gravity(busy).y, -9.81, 1e-6);
    s = saved_script;
    snap_run_script(busy, &a, &s, &other);
    rg_world_destroy(busy);
    free(buffer);
    snap_assets_free(&a);
    ENSURE_NEAR(snap_first_difference(&first, &other), -1, 0);
}

/* The checksum as the format documents it (>>snapshot), computed here independently: FNV-1a
   steps over the header's first 32 bytes and then the bytes after the 40-byte header, each part
   in four lanes of 8-byte words, its tail bytes in lane 0, the lanes and the part's length
   chained. */
static uint64_t snap_mix(uint64_t h, uint64_t x) { return (h ^ x) * 1099511628211ull; }
static uint64_t snap_part(uint64_t h, const unsigned char *p, size_t n) {
    uint64_t lane[4];
    size_t i;
    int k;
    for (k = 0; k < 4; ++k) lane[k] = snap_mix(h, (uint64_t)k);
    for (i = 0; i + 32 <= n; i += 32)
        for (k = 0; k < 4; ++k) {
            uint64_t word;
            memcpy(&word, p + i + 8 * k, 8);
            lane[k] = snap_mix(lane[k], word);
        }
    for (; i < n; ++i) lane[0] = snap_mix(lane[0], p[i]);
    for (k = 0; k < 4; ++k) h = snap_mix(h, lane[k]);
    return snap_mix(h, (uint64_t)n);
}
static void snap_reseal(unsigned char *buffer, size_t size) {
    uint64_t h = snap_part(snap_part(14695981039346656037ull, buffer, 32), buffer + 40, size - 40);
    memcpy(buffer + 32, &h, 8);
}

/* Refused loads leave the world as it was: its own snapshot is the same bytes after. */
static int snap_refused_untouched(rg_world *w, const void *bad, size_t bad_size) {
    size_t before_size, after_size;
    void *before = snap_save(w, &before_size), *after;
    int refused = rg_world_snapshot_load(w, bad, bad_size) == RG_ERR_INVALID_ARGUMENT, same;
    after = snap_save(w, &after_size);
    same = before && after && before_size == after_size && memcmp(before, after, before_size) == 0;
    free(before);
    free(after);
    return refused && same;
}

static void test_snapshot_bad_buffers(void) {
    snap_assets a;
    snap_script s, other_script;
    rg_world *w, *target;
    size_t size, at;
    unsigned char *buffer, *bad;
    uint32_t word;
    int k;
    ENSURE(snap_assets_make(&a));
    w = snap_world(&a, &s);
    buffer = (unsigned char *)snap_save(w, &size);
    ENSURE(buffer != NULL);
    target = snap_world(&a, &other_script);
    for (k = 0; k < 7; ++k) rg_world_step(target, snap_dt); /* not the saved world's state */
    bad = (unsigned char *)malloc(size + 16);
    ENSURE(bad != NULL);
    ENSURE(snap_refused_untouched(target, NULL, size));
    ENSURE(snap_refused_untouched(target, buffer, size - 1));
    ENSURE(snap_refused_untouched(target, buffer, 0));
    ENSURE(rg_world_snapshot_load(NULL, buffer, size) == RG_ERR_INVALID_ARGUMENT);
    /* one byte flipped: in the header, the world's image, the arrays, the last byte */
    for (k = 0; k < 12; ++k) {
        at = k < 11 ? (size_t)((double)(size - 1) * k * k / 121.0) : size - 1;
        memcpy(bad, buffer, size);
        bad[at] ^= (unsigned char)(1u << (k % 8));
        if (!snap_refused_untouched(target, bad, size)) {
            rg_test_note("a flipped byte at %lu of %lu was taken", (unsigned long)at, (unsigned long)size);
            ENSURE(0);
        }
    }
    /* the test's checksum is the format's: resealing the intact buffer changes nothing */
    memcpy(bad, buffer, size);
    snap_reseal(bad, size);
    ENSURE(memcmp(bad, buffer, size) == 0);
    /* headers faked with a valid checksum: another precision, version, build, magic, size */
    memcpy(&word, buffer + 12, 4);
    ENSURE(word == sizeof(rg_real));
    word = sizeof(rg_real) == 4 ? 8u : 4u;
    memcpy(bad + 12, &word, 4);
    snap_reseal(bad, size);
    ENSURE(snap_refused_untouched(target, bad, size));
    memcpy(bad, buffer, size);
    memcpy(&word, buffer + 8, 4);
    ++word;
    memcpy(bad + 8, &word, 4);
    snap_reseal(bad, size);
    ENSURE(snap_refused_untouched(target, bad, size));
    memcpy(bad, buffer, size);
    bad[16] ^= 1;   /* the build's fingerprint */
    snap_reseal(bad, size);
    ENSURE(snap_refused_untouched(target, bad, size));
    memcpy(bad, buffer, size);
    bad[0] ^= 0x20;
    snap_reseal(bad, size);
    ENSURE(snap_refused_untouched(target, bad, size));
    /* an array's length that no longer adds up, sealed: the lengths are checked too */
    memcpy(bad, buffer, size);
    bad[size] = 0;
    {
        uint64_t total;
        memcpy(&total, bad + 24, 8);
        total += 1;
        memcpy(bad + 24, &total, 8);
        snap_reseal(bad, size + 1);
        ENSURE(snap_refused_untouched(target, bad, size + 1));
    }
    /* a larger buffer is fine, and the intact snapshot still loads into the refusing world */
    memcpy(bad, buffer, size);
    ENSURE(rg_world_snapshot_load(target, bad, size + 16) == RG_OK);
    free(bad);
    free(buffer);
    rg_world_destroy(target);
    rg_world_destroy(w);
    snap_assets_free(&a);
}

/* Size and save on NULL, short buffers; an empty world's snapshot empties a full world, whose
   next bodies then get the empty world's ids. */
static void test_snapshot_api(void) {
    snap_assets a;
    snap_script s;
    rg_world_def wd = rg_world_default_def();
    rg_world *w, *empty;
    size_t size, empty_size;
    void *buffer, *empty_buffer;
    rg_body_id in_empty, in_loaded;
    rg_body_def bd = rg_body_default_def();
    ENSURE(snap_assets_make(&a));
    ENSURE(rg_world_snapshot_size(NULL) == 0);
    w = snap_world(&a, &s);
    size = rg_world_snapshot_size(w);
    ENSURE(size > 0);
    buffer = malloc(size);
    ENSURE(buffer != NULL);
    ENSURE(rg_world_snapshot_save(NULL, buffer, size) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_world_snapshot_save(w, NULL, size) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_world_snapshot_save(w, buffer, size - 1) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_world_snapshot_save(w, buffer, size) == RG_OK);
    empty = rg_world_create(&wd, NULL);
    empty_buffer = snap_save(empty, &empty_size);
    ENSURE(empty_buffer != NULL && empty_size < size);
    ENSURE(rg_world_snapshot_load(w, empty_buffer, empty_size) == RG_OK);
    ENSURE(rg_world_bodies(w, NULL, 0) == 0);
    ENSURE(rg_world_contacts(w, NULL, 0) == 0);
    ENSURE(rg_world_get_stats(w).body_count == 0);
    bd.hull = a.cube;
    in_empty = rg_body_create(empty, &bd, NULL);
    in_loaded = rg_body_create(w, &bd, NULL);
    ENSURE(in_empty.index == in_loaded.index && in_empty.generation == in_loaded.generation);
    free(buffer);
    free(empty_buffer);
    rg_world_destroy(empty);
    rg_world_destroy(w);
    snap_assets_free(&a);
}

void rg_tests_snapshot(void) {
    RUN_TEST(test_snapshot_rollback_same_world);
    RUN_TEST(test_snapshot_rollback_between_calls);
    RUN_TEST(test_snapshot_rollback_new_world);
    RUN_TEST(test_snapshot_rollback_other_history);
    RUN_TEST(test_snapshot_bad_buffers);
    RUN_TEST(test_snapshot_api);
}
