/* Contact and sensor events (rg_world_contact_events, rg_world_sensor_events): one begin for a
   landing box with the approach speed of its fall, none ended while it rests or a sphere rolls
   (on a box and across the triangles of a mesh), the touching threshold and its hysteresis,
   sensors' begins and ends in the steps free fall predicts without changing the fall, what
   sensors see (not sensors, not static bodies, only what their filters let through, kinematic
   bodies too), ends for destroyed shapes and bodies, order and determinism, bad input. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "tools/terrain.h"

static rg_vec3 v3(double x, double y, double z) { return rg_v3((rg_real)x, (rg_real)y, (rg_real)z); }

static const double gravity = 9.81;

static int same_shape(rg_shape_id a, rg_shape_id b) { return a.index == b.index && a.generation == b.generation; }

static int is_pair(rg_shape_id a, rg_shape_id b, rg_shape_id x, rg_shape_id y) {
    return (same_shape(a, x) && same_shape(b, y)) || (same_shape(a, y) && same_shape(b, x));
}

static rg_shape_id first_shape(const rg_world *w, rg_body_id body) {
    rg_shape_id id = {0, 0};
    rg_body_shapes(w, body, &id, 1);
    return id;
}

/* What the events said of one pair of shapes over a run. */
typedef struct pair_log {
    int begins, ends;
    int first_begin, last_end;     /* step numbers (1 = the first step), 0 none */
    rg_contact_begin_event begin;  /* the first begin */
    int other_events;              /* events of other pairs */
} pair_log;

/* Adds the last step's contact events of the pair (x, y) to log. */
static void log_contacts(const rg_world *w, rg_shape_id x, rg_shape_id y, int step, pair_log *log) {
    rg_contact_events e = rg_world_contact_events(w);
    int i;
    for (i = 0; i < e.begin_count; ++i) {
        if (!is_pair(e.begin[i].shape_a, e.begin[i].shape_b, x, y)) { ++log->other_events; continue; }
        if (log->begins++ == 0) {
            log->first_begin = step;
            log->begin = e.begin[i];
        }
    }
    for (i = 0; i < e.end_count; ++i) {
        if (!is_pair(e.end[i].shape_a, e.end[i].shape_b, x, y)) { ++log->other_events; continue; }
        ++log->ends;
        log->last_end = step;
    }
}

/* Adds the last step's sensor events of (sensor, visitor) to log. */
static void log_sensor(const rg_world *w, rg_shape_id sensor, rg_shape_id visitor, int step, pair_log *log) {
    rg_sensor_events e = rg_world_sensor_events(w);
    int i;
    for (i = 0; i < e.begin_count; ++i) {
        if (!same_shape(e.begin[i].sensor, sensor) || !same_shape(e.begin[i].visitor, visitor)) { ++log->other_events; continue; }
        if (log->begins++ == 0) log->first_begin = step;
    }
    for (i = 0; i < e.end_count; ++i) {
        if (!same_shape(e.end[i].sensor, sensor) || !same_shape(e.end[i].visitor, visitor)) { ++log->other_events; continue; }
        ++log->ends;
        log->last_end = step;
    }
}

static rg_body_id add_body(rg_world *w, rg_body_type type, const rg_hull *hull, rg_vec3 position) {
    rg_body_def bd = rg_body_default_def();
    bd.type = type;
    bd.hull = hull;
    bd.position = position;
    return rg_body_create(w, &bd, NULL);
}

static rg_body_id add_sphere_body(rg_world *w, rg_body_type type, rg_vec3 position, double radius, int sensor,
                                  rg_shape_id *shape) {
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id id;
    bd.type = type;
    bd.position = position;
    id = rg_body_create(w, &bd, NULL);
    sd.is_sensor = sensor;
    *shape = rg_body_add_sphere(w, id, &sd, rg_v3(0, 0, 0), (rg_real)radius, NULL);
    return id;
}

/* A static body holding one box sensor of half extents `half` at `position`. */
static rg_body_id add_box_sensor(rg_world *w, const rg_hull *box, rg_vec3 position, rg_shape_id *shape) {
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id id;
    bd.type = RG_BODY_STATIC;
    bd.position = position;
    id = rg_body_create(w, &bd, NULL);
    sd.is_sensor = 1;
    *shape = rg_body_add_hull(w, id, &sd, box, rg_v3(0, 0, 0), rg_quat_identity(), NULL);
    return id;
}

/* The first k >= 1 at which a body falling from rest under semi-implicit Euler (v += g h, then
   x += v h) has dropped by at least `drop`: after k steps it has dropped g h^2 k (k + 1) / 2. */
static int free_fall_step(double drop, double h) {
    int k = 1;
    while (gravity * h * h * k * (k + 1) / 2 < drop) ++k;
    return k;
}

/* ---- the tests ------------------------------------------------------------------------ */

/* A unit cube dropped with its bottom 1 m above the ground: one begin, in the step that free
   fall reaches the ground; no end while it rests 3 s; an end in the step after it is lifted off.
   approach_speed is the speed with which the gap closes in that step: u = g h (k - 1) at its
   start, after k - 1 steps of free fall (semi-implicit Euler has dropped g h^2 k (k + 1) / 2
   after k steps), and the gap then, 1 - g h^2 (k - 1) k / 2, closed under g: sqrt(u^2 + 2 g gap),
   at most u + g h. Within 3% of sqrt(2 g h) at 60, 120 and 240 Hz (the speed at the step's start
   alone is 4.0% short at 60 Hz). */
static void test_events_box_dropped_from_one_metre_begins_once(void) {
    static const double steps_per_second[3] = {60, 120, 240};
    int run;
    for (run = 0; run < 3; ++run) {
        double h = 1 / steps_per_second[run], expected = sqrt(2 * gravity * 1.0), u, gap, met;
        rg_world_def wd = rg_world_default_def();
        rg_world *w = rg_world_create(&wd, NULL);
        rg_hull *ground_hull = rg_hull_create_box(v3(50, 0.5, 50), NULL), *cube = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL);
        rg_body_id ground = add_ground(w, ground_hull), box = add_body(w, RG_BODY_DYNAMIC, cube, v3(0, 1.5, 0));
        rg_shape_id g = first_shape(w, ground), b = first_shape(w, box);
        pair_log log;
        int step, landing = free_fall_step(1.0, h), rest_steps = (int)(3 * steps_per_second[run]);
        memset(&log, 0, sizeof log);
        for (step = 1; step <= landing + rest_steps; ++step) {
            rg_world_step(w, (rg_real)h);
            log_contacts(w, g, b, step, &log);
        }
        u = gravity * h * (landing - 1);
        gap = 1.0 - gravity * h * h * (landing - 1) * landing / 2;
        met = sqrt(u * u + 2 * gravity * gap);
        if (met > u + gravity * h) met = u + gravity * h;
        rg_test_note("%g Hz: begin in step %d (free fall lands in step %d), approach %.4f m/s (met at %.4f), "
                     "sqrt(2 g h) %.4f (%+.2f%%), resting at y %.5f", steps_per_second[run], log.first_begin, landing,
                     (double)log.begin.approach_speed, met, expected,
                     100 * ((double)log.begin.approach_speed - expected) / expected, (double)rg_body_position(w, box).y);
        ENSURE(log.begins == 1 && log.ends == 0 && log.other_events == 0);
        ENSURE(log.first_begin == landing);
        ENSURE_REL(log.begin.approach_speed, met, 1e-4);
        ENSURE_REL(log.begin.approach_speed, expected, 0.03);
        ENSURE(log.begin.body_a.index == ground.index && log.begin.body_b.index == box.index);
        ENSURE_V3_NEAR(log.begin.normal, v3(0, -1, 0), 1e-3);   /* from b (the box) towards a (the ground) */
        ENSURE_NEAR(log.begin.point.y, 0, 2 * wd.contact_tolerance);
        ENSURE_NEAR(rg_body_position(w, box).y, 0.5, 2 * wd.contact_tolerance);
        /* lifted off: the pair leaves the narrow phase in the next step */
        rg_body_set_transform(w, box, v3(0, 3, 0), rg_quat_identity());
        rg_body_set_linear_velocity(w, box, v3(0, 0, 0));
        rg_world_step(w, (rg_real)h);
        log_contacts(w, g, b, ++step, &log);
        ENSURE(log.begins == 1 && log.ends == 1 && log.last_end == step);
        rg_world_destroy(w);
        rg_hull_destroy(ground_hull);
        rg_hull_destroy(cube);
    }
}

/* A sphere rolling (w = v / r) 5 s along a box at 2 and 5 m/s: one begin, no end. Carried with
   the material, its contact point would turn up (v h)^2 / 2r a step: 1.1 mm and 6.9 mm. */
static void test_events_rolling_sphere_on_a_box_never_ends(void) {
    static const double speeds[2] = {2, 5};
    int run;
    for (run = 0; run < 2; ++run) {
        rg_world_def wd = rg_world_default_def();
        rg_world *w = rg_world_create(&wd, NULL);
        rg_hull *ground_hull = rg_hull_create_box(v3(100, 0.5, 100), NULL);
        rg_body_id ground = add_ground(w, ground_hull), ball;
        rg_shape_id g = first_shape(w, ground), s;
        pair_log log;
        double r = 0.5, v = speeds[run];
        int step;
        ball = add_sphere_body(w, RG_BODY_DYNAMIC, v3(-60, r, 0), r, 0, &s);
        rg_body_set_linear_velocity(w, ball, v3(v, 0, 0));
        rg_body_set_angular_velocity(w, ball, v3(0, 0, -v / r));
        memset(&log, 0, sizeof log);
        for (step = 1; step <= 300; ++step) {
            rg_world_step(w, (rg_real)(1.0 / 60));
            log_contacts(w, g, s, step, &log);
        }
        rg_test_note("%g m/s: %d begin (step %d), %d ends; rolled %.2f m", v, log.begins, log.first_begin, log.ends,
                     (double)rg_body_position(w, ball).x + 60);
        ENSURE(log.begins == 1 && log.first_begin == 1 && log.ends == 0 && log.other_events == 0);
        ENSURE_REL(rg_body_position(w, ball).x + 60, 5 * v, 0.02);   /* it did roll */
        rg_world_destroy(w);
        rg_hull_destroy(ground_hull);
    }
}

/* A sphere rolling 5 s diagonally across a flat mesh of 0.5 m cells (7200 triangles), 4 m/s:
   one begin for the (sphere, mesh) pair and no end, though it crosses some 80 triangles. */
static double flat(double x, double z, void *context) {
    (void)x; (void)z; (void)context;
    return 0;
}

static void test_events_rolling_sphere_on_a_mesh_never_ends(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    terrain t = terrain_grid(60, 60, -15, -15, 0.5, flat, NULL);
    rg_mesh *mesh = rg_mesh_create(t.vertices, t.vertex_count, t.indices, t.triangle_count, NULL);
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id level, ball;
    rg_shape_id m, s;
    pair_log log;
    double r = 0.3, v = 4, c = v / sqrt(2.0);
    int step;
    ENSURE(mesh != NULL);
    bd.type = RG_BODY_STATIC;
    level = rg_body_create(w, &bd, NULL);
    m = rg_body_add_mesh(w, level, &sd, mesh, NULL);
    ball = add_sphere_body(w, RG_BODY_DYNAMIC, v3(-13.1, r, -13.3), r, 0, &s);
    rg_body_set_linear_velocity(w, ball, v3(c, 0, c));
    rg_body_set_angular_velocity(w, ball, v3(c / r, 0, -c / r));
    memset(&log, 0, sizeof log);
    for (step = 1; step <= 300; ++step) {
        rg_world_step(w, (rg_real)(1.0 / 60));
        log_contacts(w, m, s, step, &log);
    }
    rg_test_note("%d begin, %d ends over %d triangles; rolled to (%.2f, %.2f)", log.begins, log.ends, t.triangle_count,
                 (double)rg_body_position(w, ball).x, (double)rg_body_position(w, ball).z);
    ENSURE(log.begins == 1 && log.first_begin == 1 && log.ends == 0 && log.other_events == 0);
    ENSURE(same_shape(log.begin.shape_a, m) && same_shape(log.begin.shape_b, s));
    ENSURE_REL(rg_body_position(w, ball).x + 13.1, 5 * c, 0.02);   /* it did roll, 20 m */
    ENSURE_REL(rg_body_position(w, ball).z + 13.3, 5 * c, 0.02);
    rg_world_destroy(w);
    rg_mesh_destroy(mesh);
    terrain_free(&t);
}

/* A sphere falling through a static box sensor: the begin in the step whose end position first
   overlaps the box (from the free-fall formula), the end in the step it first leaves it; its
   trajectory bit for bit that of the same world without the sensor; no contact, no contact
   event. */
static void test_events_sphere_falls_through_a_sensor(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL), *plain = rg_world_create(&wd, NULL);
    rg_hull *box = rg_hull_create_box(v3(1, 0.5, 1), NULL);
    double r = 0.25, y0 = 3.0, h = 1.0 / 60, top = 0.5, bottom = -0.5;
    int expected_begin = free_fall_step(y0 - r - top, h), expected_end = free_fall_step(y0 + r - bottom, h), step;
    rg_shape_id sensor, s, s_plain;
    rg_body_id ball = add_sphere_body(w, RG_BODY_DYNAMIC, v3(0.2, y0, -0.1), r, 0, &s);
    rg_body_id ball_plain = add_sphere_body(plain, RG_BODY_DYNAMIC, v3(0.2, y0, -0.1), r, 0, &s_plain);
    pair_log log;
    int identical = 1, contacts = 0, contact_events = 0;
    add_box_sensor(w, box, v3(0, 0, 0), &sensor);
    memset(&log, 0, sizeof log);
    for (step = 1; step <= expected_end + 30; ++step) {
        rg_vec3 p, q, u, v;
        rg_world_step(w, (rg_real)h);
        rg_world_step(plain, (rg_real)h);
        log_sensor(w, sensor, s, step, &log);
        p = rg_body_position(w, ball); q = rg_body_position(plain, ball_plain);
        u = rg_body_linear_velocity(w, ball); v = rg_body_linear_velocity(plain, ball_plain);
        identical &= memcmp(&p.x, &q.x, sizeof p.x) == 0 && memcmp(&p.y, &q.y, sizeof p.y) == 0 &&
                     memcmp(&p.z, &q.z, sizeof p.z) == 0 && memcmp(&u.y, &v.y, sizeof u.y) == 0;
        contacts += rg_world_contacts(w, NULL, 0);
        contact_events += rg_world_contact_events(w).begin_count + rg_world_contact_events(w).end_count;
    }
    rg_test_note("begin in step %d (free fall: %d), end in step %d (free fall: %d); trajectory %s", log.first_begin,
                 expected_begin, log.last_end, expected_end, identical ? "bit-identical" : "DIFFERENT");
    ENSURE(log.begins == 1 && log.ends == 1 && log.other_events == 0);
    ENSURE(log.first_begin == expected_begin && log.last_end == expected_end);
    ENSURE(identical);
    ENSURE(contacts == 0 && contact_events == 0);
    rg_world_destroy(w);
    rg_world_destroy(plain);
    rg_hull_destroy(box);
}

/* ---- touching: the threshold and its hysteresis ------------------------------------------------ */

/* Without gravity, a cube held still at heights above a ground: a speculative contact 5 mm and
   1.5 mm apart (the tolerance is 1 mm) does not begin; at 0 it does; moved 1.5 mm up it still
   touches (hysteresis up to 2 mm), moved 2.5 mm up it ends. */
static void test_events_speculative_contacts_do_not_touch(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w;
    rg_hull *ground_hull = rg_hull_create_box(v3(10, 0.5, 10), NULL), *cube = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL);
    rg_body_id ground, box;
    rg_shape_id g, b;
    pair_log log;
    static const double gaps[6] = {0.005, 0.0015, 0, 0.0015, 0.0025, 0.0015};
    static const int begins[6] = {0, 0, 1, 1, 1, 1}, ends[6] = {0, 0, 0, 0, 1, 1};
    int i, step = 0;
    wd.gravity = v3(0, 0, 0);
    w = rg_world_create(&wd, NULL);
    ground = add_ground(w, ground_hull);
    box = add_body(w, RG_BODY_DYNAMIC, cube, v3(0, 0.5 + gaps[0], 0));
    g = first_shape(w, ground);
    b = first_shape(w, box);
    memset(&log, 0, sizeof log);
    for (i = 0; i < 6; ++i) {
        int k;
        rg_body_set_transform(w, box, v3(0, 0.5 + gaps[i], 0), rg_quat_identity());
        rg_body_set_linear_velocity(w, box, v3(0, 0, 0));
        for (k = 0; k < 3; ++k) {
            rg_world_step(w, (rg_real)(1.0 / 60));
            log_contacts(w, g, b, ++step, &log);
        }
        ENSURE(rg_world_contacts(w, NULL, 0) > 0);   /* the narrow phase has the pair all along */
        ENSURE(log.begins == begins[i] && log.ends == ends[i]);
    }
    rg_world_destroy(w);
    rg_hull_destroy(ground_hull);
    rg_hull_destroy(cube);
}

/* A contact whose filter stops letting it collide ends in the next step: its manifold is gone
   and the pair no longer passes the filter (it does not wait out RG__EVENT_MISSED_STEPS). */
static void test_events_filter_change_ends_a_contact(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_hull *ground_hull = rg_hull_create_box(v3(10, 0.5, 10), NULL), *cube = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL);
    rg_body_id ground = add_ground(w, ground_hull), box = add_body(w, RG_BODY_DYNAMIC, cube, v3(0, 0.5, 0));
    rg_shape_id g = first_shape(w, ground), b = first_shape(w, box);
    pair_log log;
    int step;
    memset(&log, 0, sizeof log);
    for (step = 1; step <= 30; ++step) {
        rg_world_step(w, (rg_real)(1.0 / 60));
        log_contacts(w, g, b, step, &log);
    }
    ENSURE(log.begins == 1 && log.first_begin == 1 && log.ends == 0);
    rg_shape_set_filter(w, b, 2, 2, 0);
    rg_world_step(w, (rg_real)(1.0 / 60));
    log_contacts(w, g, b, ++step, &log);
    ENSURE(log.ends == 1 && log.last_end == step);
    rg_world_destroy(w);
    rg_hull_destroy(ground_hull);
    rg_hull_destroy(cube);
}

/* A mesh can be a sensor: a surface that sees shapes touching its triangles from the front. A
   sphere falling through a flat mesh sensor begins in the step its surface first reaches the
   plane and ends in the step its centre passes below (behind the triangles). A kinematic mesh
   is a visitor: a plate rising at 1 m/s through a static sphere sensor begins in the step it
   reaches the sphere's bottom and ends in the step it passes its centre. */
static void test_events_mesh_sensor_and_mesh_visitor(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    terrain t = terrain_grid(4, 4, -2, -2, 1, flat, NULL);
    rg_mesh *mesh = rg_mesh_create(t.vertices, t.vertex_count, t.indices, t.triangle_count, NULL);
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id floor_body, plate_body;
    rg_shape_id floor_sensor, plate, ball, zone;
    pair_log falling, rising;
    double h = 1.0 / 60, y0 = 2, r = 0.25;
    int step, expected_begin = free_fall_step(y0 - r, h), expected_end = free_fall_step(y0, h);
    ENSURE(mesh != NULL);
    bd.type = RG_BODY_STATIC;
    floor_body = rg_body_create(w, &bd, NULL);
    sd.is_sensor = 1;
    floor_sensor = rg_body_add_mesh(w, floor_body, &sd, mesh, NULL);
    ENSURE(rg_shape_is_sensor(w, floor_sensor));
    add_sphere_body(w, RG_BODY_DYNAMIC, v3(0.3, y0, 0.2), r, 0, &ball);
    /* the plate, far from the floor: x around 20 */
    bd.type = RG_BODY_KINEMATIC;
    bd.position = v3(20, -1.01, 0);
    bd.linear_velocity = v3(0, 1, 0);
    plate_body = rg_body_create(w, &bd, NULL);
    sd.is_sensor = 0;
    plate = rg_body_add_mesh(w, plate_body, &sd, mesh, NULL);
    add_sphere_body(w, RG_BODY_STATIC, v3(20.1, 0, 0.1), r, 1, &zone);
    memset(&falling, 0, sizeof falling);
    memset(&rising, 0, sizeof rising);
    for (step = 1; step <= 90; ++step) {
        rg_world_step(w, (rg_real)h);
        log_sensor(w, floor_sensor, ball, step, &falling);
        log_sensor(w, zone, plate, step, &rising);
    }
    /* the plate at y = -1.01 + k / 60 touches the sphere's bottom (-0.25) from k >= 45.6 and has
       passed its centre from k > 60.6 */
    rg_test_note("mesh sensor: begin %d (free fall %d), end %d (free fall %d); kinematic mesh: begin %d, end %d",
                 falling.first_begin, expected_begin, falling.last_end, expected_end, rising.first_begin, rising.last_end);
    ENSURE(falling.begins == 1 && falling.ends == 1 && falling.first_begin == expected_begin && falling.last_end == expected_end);
    ENSURE(rising.begins == 1 && rising.ends == 1 && rising.first_begin == 46 && rising.last_end == 61);
    ENSURE(rg_world_contacts(w, NULL, 0) == 0);
    (void)plate_body;
    rg_world_destroy(w);
    rg_mesh_destroy(mesh);
    terrain_free(&t);
}

/* ---- order and determinism --------------------------------------------------------------------- */

typedef struct event_record { int kind; rg_shape_id a, b; rg_real speed; } event_record;

static int shape_order(rg_shape_id a0, rg_shape_id b0, rg_shape_id a1, rg_shape_id b1) {
    if (a0.index != a1.index) return a0.index < a1.index ? -1 : 1;
    if (b0.index != b1.index) return b0.index < b1.index ? -1 : 1;
    return 0;
}

/* A heap: 40 cubes and spheres dropped in a box of walls, some bouncing, through two static
   sensor boxes; every contact and sensor event of 240 steps recorded. Returns the count, or -1
   when a step's events were not in strict order of shape indices or a pair began twice without
   an end (or ended without a begin). */
static int heap_events(event_record *out, int capacity) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_hull *ground_hull = rg_hull_create_box(v3(5, 0.5, 5), NULL), *cube = rg_hull_create_box(v3(0.3, 0.3, 0.3), NULL);
    rg_hull *wall = rg_hull_create_box(v3(0.2, 2, 2.4), NULL);
    rg_hull *zone = rg_hull_create_box(v3(1.2, 0.8, 1.2), NULL);
    static unsigned char touching[64][64], inside[64][64];
    rg_shape_id zone_shape;
    int i, step, n = 0, ok = 1;
    memset(touching, 0, sizeof touching);
    memset(inside, 0, sizeof inside);
    add_ground(w, ground_hull);
    add_body(w, RG_BODY_STATIC, wall, v3(-2.2, 2, 0));
    add_body(w, RG_BODY_STATIC, wall, v3(2.2, 2, 0));
    add_box_sensor(w, zone, v3(-0.9, 2.5, 0), &zone_shape);
    add_box_sensor(w, zone, v3(0.9, 1.0, 0), &zone_shape);
    for (i = 0; i < 40; ++i) {
        rg_vec3 p = v3(-1.2 + 0.6 * (i % 5), 0.8 + 0.7 * (i / 5), -1.2 + 0.6 * ((i * 3) % 5));
        rg_body_def bd = rg_body_default_def();
        bd.position = p;
        bd.restitution = (rg_real)(i % 3 == 0 ? 0.5 : 0);
        bd.linear_velocity = v3(0.3 * ((i * 7) % 5 - 2), 0, 0.2 * ((i * 11) % 5 - 2));
        if (i % 2 == 0) {
            bd.hull = cube;
            rg_body_create(w, &bd, NULL);
        } else {
            rg_shape_def sd = rg_shape_default_def();
            rg_body_id id = rg_body_create(w, &bd, NULL);
            sd.restitution = bd.restitution;
            rg_body_add_sphere(w, id, &sd, rg_v3(0, 0, 0), (rg_real)0.3, NULL);
        }
    }
    for (step = 0; step < 240; ++step) {
        rg_contact_events e;
        rg_world_step(w, (rg_real)(1.0 / 60));
        e = rg_world_contact_events(w);
        for (i = 0; i < e.begin_count; ++i) {
            const rg_contact_begin_event *x = &e.begin[i];
            if (i > 0 && shape_order(e.begin[i - 1].shape_a, e.begin[i - 1].shape_b, x->shape_a, x->shape_b) >= 0) ok = 0;
            if (x->shape_a.index >= 64 || x->shape_b.index >= 64 || touching[x->shape_a.index][x->shape_b.index]) ok = 0;
            else touching[x->shape_a.index][x->shape_b.index] = 1;
            if (!(x->approach_speed >= 0) || rg_body_is_valid(w, x->body_a) + rg_body_is_valid(w, x->body_b) != 2) ok = 0;
            if (n < capacity) { out[n].kind = 1; out[n].a = x->shape_a; out[n].b = x->shape_b; out[n].speed = x->approach_speed; }
            ++n;
        }
        for (i = 0; i < e.end_count; ++i) {
            const rg_contact_end_event *x = &e.end[i];
            if (i > 0 && shape_order(e.end[i - 1].shape_a, e.end[i - 1].shape_b, x->shape_a, x->shape_b) >= 0) ok = 0;
            if (x->shape_a.index >= 64 || x->shape_b.index >= 64 || !touching[x->shape_a.index][x->shape_b.index]) ok = 0;
            else touching[x->shape_a.index][x->shape_b.index] = 0;
            if (n < capacity) { out[n].kind = 2; out[n].a = x->shape_a; out[n].b = x->shape_b; out[n].speed = 0; }
            ++n;
        }
        {
            rg_sensor_events se = rg_world_sensor_events(w);
            for (i = 0; i < se.begin_count + se.end_count; ++i) {
                int is_begin = i < se.begin_count, k = is_begin ? i : i - se.begin_count;
                const rg_sensor_event *x = is_begin ? &se.begin[k] : &se.end[k], *before = k == 0 ? NULL : x - 1;
                if (before && shape_order(before->sensor, before->visitor, x->sensor, x->visitor) >= 0) ok = 0;
                if (x->sensor.index >= 64 || x->visitor.index >= 64 || inside[x->sensor.index][x->visitor.index] != !is_begin) ok = 0;
                else inside[x->sensor.index][x->visitor.index] = (unsigned char)is_begin;
                if (n < capacity) { out[n].kind = is_begin ? 3 : 4; out[n].a = x->sensor; out[n].b = x->visitor; out[n].speed = 0; }
                ++n;
            }
        }
    }
    rg_world_destroy(w);
    rg_hull_destroy(ground_hull);
    rg_hull_destroy(cube);
    rg_hull_destroy(wall);
    rg_hull_destroy(zone);
    return ok ? n : -1;
}

static void test_events_sorted_alternating_and_deterministic(void) {
    static event_record first[4096], second[4096];
    int n = heap_events(first, 4096), m = heap_events(second, 4096), i, begins = 0, sensed = 0;
    for (i = 0; i < n && i < 4096; ++i) {
        begins += first[i].kind == 1;
        sensed += first[i].kind == 3;
    }
    rg_test_note("%d events (%d contact begins, %d sensor begins) in 240 steps of a 40-body heap", n, begins, sensed);
    ENSURE(sensed >= 20);
    ENSURE(n > 40 && n <= 4096 && m == n);
    for (i = 0; i < n; ++i)
        ENSURE(first[i].kind == second[i].kind && same_shape(first[i].a, second[i].a) && same_shape(first[i].b, second[i].b) &&
               memcmp(&first[i].speed, &second[i].speed, sizeof first[i].speed) == 0);
}

/* ---- destroyed shapes and bodies --------------------------------------------------------------- */

/* Two cubes resting on the ground, each inside a static sensor: destroying one's shape and the
   other body gives, in the next step, one contact end and one sensor end each, with the old ids;
   nothing in the step after. */
static void test_events_destroyed_shape_or_body_ends_next_step(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_hull *ground_hull = rg_hull_create_box(v3(10, 0.5, 10), NULL), *cube = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL);
    rg_hull *zone = rg_hull_create_box(v3(1, 1, 1), NULL);
    rg_body_id ground = add_ground(w, ground_hull);
    rg_body_id a = add_body(w, RG_BODY_DYNAMIC, cube, v3(-3, 0.5, 0)), b = add_body(w, RG_BODY_DYNAMIC, cube, v3(3, 0.5, 0));
    rg_shape_id g = first_shape(w, ground), sa = first_shape(w, a), sb = first_shape(w, b), zone_a, zone_b;
    rg_contact_events ce;
    rg_sensor_events se;
    int step;
    add_box_sensor(w, zone, v3(-3, 0.5, 0), &zone_a);
    add_box_sensor(w, zone, v3(3, 0.5, 0), &zone_b);
    for (step = 0; step < 30; ++step) rg_world_step(w, (rg_real)(1.0 / 60));
    ENSURE(rg_world_contact_events(w).end_count == 0);
    ENSURE(rg_shape_destroy(w, sa) == RG_OK);
    ENSURE(rg_body_destroy(w, b) == RG_OK);
    rg_world_step(w, (rg_real)(1.0 / 60));
    ce = rg_world_contact_events(w);
    se = rg_world_sensor_events(w);
    ENSURE(ce.begin_count == 0 && ce.end_count == 2 && se.begin_count == 0 && se.end_count == 2);
    /* sorted by shape indices: the ground's shape (0) with a's, then with b's */
    ENSURE(is_pair(ce.end[0].shape_a, ce.end[0].shape_b, g, sa) && is_pair(ce.end[1].shape_a, ce.end[1].shape_b, g, sb));
    ENSURE(ce.end[1].body_b.index == b.index && ce.end[1].body_b.generation == b.generation);
    ENSURE(same_shape(se.end[0].sensor, zone_a) && same_shape(se.end[0].visitor, sa));
    ENSURE(same_shape(se.end[1].sensor, zone_b) && same_shape(se.end[1].visitor, sb));
    rg_world_step(w, (rg_real)(1.0 / 60));
    ce = rg_world_contact_events(w);
    se = rg_world_sensor_events(w);
    ENSURE(ce.begin_count + ce.end_count + se.begin_count + se.end_count == 0);
    rg_world_destroy(w);
    rg_hull_destroy(ground_hull);
    rg_hull_destroy(cube);
    rg_hull_destroy(zone);
}

/* ---- what sensors see -------------------------------------------------------------------------- */

/* Two overlapping sensor spheres on dynamic bodies see nothing of each other; a static cube
   inside a static sensor is not seen, nor is it by a dynamic sensor body falling onto it (which
   falls through: no mass, no contact). */
static void test_events_sensors_see_neither_sensors_nor_static_bodies(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w;
    rg_hull *cube = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL), *zone = rg_hull_create_box(v3(2, 2, 2), NULL);
    rg_shape_id s1, s2, z, falling_sensor;
    rg_body_id faller;
    int step, events = 0;
    wd.gravity = v3(0, -9.81, 0);
    w = rg_world_create(&wd, NULL);
    add_sphere_body(w, RG_BODY_DYNAMIC, v3(10, 5, 0), 0.5, 1, &s1);
    add_sphere_body(w, RG_BODY_DYNAMIC, v3(10.3, 5, 0), 0.5, 1, &s2);
    add_body(w, RG_BODY_STATIC, cube, v3(0, 0, 0));
    add_box_sensor(w, zone, v3(0, 0, 0), &z);
    faller = add_sphere_body(w, RG_BODY_DYNAMIC, v3(0, 3, 0), 0.4, 1, &falling_sensor);
    for (step = 0; step < 60; ++step) {
        rg_sensor_events e;
        rg_world_step(w, (rg_real)(1.0 / 60));
        e = rg_world_sensor_events(w);
        events += e.begin_count + e.end_count + rg_world_contacts(w, NULL, 0);
    }
    rg_test_note("sensor body fell to y %.2f through the static cube", (double)rg_body_position(w, faller).y);
    ENSURE(events == 0);
    ENSURE(rg_body_position(w, faller).y < -1);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
    rg_hull_destroy(zone);
}

/* Kinematic bodies, which the broad phase pairs with no static or kinematic body: a kinematic
   cube moving at 2 m/s through a static sensor and through a kinematic sensor begins and ends in
   each, in the steps its end position first overlaps and first leaves (touching counts). */
static void test_events_sensors_see_kinematic_bodies(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_hull *cube = rg_hull_create_box(v3(0.5, 0.5, 0.5), NULL), *zone = rg_hull_create_box(v3(1, 1, 1), NULL);
    rg_body_id mover = add_body(w, RG_BODY_KINEMATIC, cube, v3(-4.11, 0, 0)), moving_zone;
    rg_shape_id c = first_shape(w, mover), z_static, z_kinematic;
    pair_log in_static, in_kinematic;
    int step;
    add_box_sensor(w, zone, v3(0, 0, 0), &z_static);
    moving_zone = add_sphere_body(w, RG_BODY_KINEMATIC, v3(6, 0, 0), 1.0, 1, &z_kinematic);
    rg_body_set_linear_velocity(w, mover, v3(2, 0, 0));
    rg_body_set_linear_velocity(w, moving_zone, v3(0, 0, 0));
    memset(&in_static, 0, sizeof in_static);
    memset(&in_kinematic, 0, sizeof in_kinematic);
    for (step = 1; step <= 300; ++step) {
        rg_world_step(w, (rg_real)(1.0 / 60));
        log_sensor(w, z_static, c, step, &in_static);
        log_sensor(w, z_kinematic, c, step, &in_kinematic);
    }
    /* x(k) = -4.11 + 2 k / 60: it touches the static zone once x + 0.5 >= -1 (k >= 78.3), leaves
       it once x - 0.5 > 1 (k > 168.3); the sphere of radius 1 at 6 once x + 0.5 >= 5 (k >= 258.3) */
    rg_test_note("static zone: begin %d end %d; kinematic zone: begin %d", in_static.first_begin, in_static.last_end,
                 in_kinematic.first_begin);
    ENSURE(in_static.begins == 1 && in_static.ends == 1);
    ENSURE(in_static.first_begin == 79 && in_static.last_end == 169);
    ENSURE(in_kinematic.begins == 1 && in_kinematic.ends == 0 && in_kinematic.first_begin == 259);
    rg_world_destroy(w);
    rg_hull_destroy(cube);
    rg_hull_destroy(zone);
}

/* A sensor whose mask leaves out a sphere's category does not see it; rg_shape_set_filter then
   lets it through (begin in the next step), a shared negative group hides it again (end). */
static void test_events_sensor_filters_are_honoured(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w;
    rg_hull *zone = rg_hull_create_box(v3(1, 1, 1), NULL);
    rg_shape_id z, s;
    rg_sensor_events e;
    int step, events = 0;
    wd.gravity = v3(0, 0, 0);
    w = rg_world_create(&wd, NULL);
    add_box_sensor(w, zone, v3(0, 0, 0), &z);
    add_sphere_body(w, RG_BODY_DYNAMIC, v3(0.5, 0, 0), 0.25, 0, &s);
    rg_shape_set_filter(w, s, 2, 0xFFFFFFFFu, 0);
    rg_shape_set_filter(w, z, 1, 1, 0);
    for (step = 0; step < 10; ++step) {
        rg_world_step(w, (rg_real)(1.0 / 60));
        e = rg_world_sensor_events(w);
        events += e.begin_count + e.end_count;
    }
    ENSURE(events == 0);
    rg_shape_set_filter(w, z, 1, 3, 0);
    rg_world_step(w, (rg_real)(1.0 / 60));
    e = rg_world_sensor_events(w);
    ENSURE(e.begin_count == 1 && e.end_count == 0 && same_shape(e.begin[0].sensor, z) && same_shape(e.begin[0].visitor, s));
    rg_shape_set_filter(w, z, 1, 3, -4);
    rg_shape_set_filter(w, s, 2, 0xFFFFFFFFu, -4);
    rg_world_step(w, (rg_real)(1.0 / 60));
    e = rg_world_sensor_events(w);
    ENSURE(e.begin_count == 0 && e.end_count == 1);
    rg_world_destroy(w);
    rg_hull_destroy(zone);
}

/* ---- bad input --------------------------------------------------------------------------------- */

static void test_events_bad_input(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_contact_events ce = rg_world_contact_events(NULL);
    rg_sensor_events se = rg_world_sensor_events(NULL);
    ENSURE(ce.begin == NULL && ce.end == NULL && ce.begin_count == 0 && ce.end_count == 0);
    ENSURE(se.begin == NULL && se.end == NULL && se.begin_count == 0 && se.end_count == 0);
    ce = rg_world_contact_events(w);   /* before the first step */
    se = rg_world_sensor_events(w);
    ENSURE(ce.begin_count == 0 && ce.end_count == 0 && se.begin_count == 0 && se.end_count == 0);
    ENSURE(rg_world_step(w, (rg_real)0) == RG_ERR_INVALID_ARGUMENT);
    ce = rg_world_contact_events(w);
    ENSURE(ce.begin_count == 0 && ce.end_count == 0);
    rg_world_destroy(w);
}

void rg_tests_events(void) {
    RUN_TEST(test_events_box_dropped_from_one_metre_begins_once);
    RUN_TEST(test_events_rolling_sphere_on_a_box_never_ends);
    RUN_TEST(test_events_rolling_sphere_on_a_mesh_never_ends);
    RUN_TEST(test_events_sphere_falls_through_a_sensor);
    RUN_TEST(test_events_speculative_contacts_do_not_touch);
    RUN_TEST(test_events_filter_change_ends_a_contact);
    RUN_TEST(test_events_mesh_sensor_and_mesh_visitor);
    RUN_TEST(test_events_sorted_alternating_and_deterministic);
    RUN_TEST(test_events_destroyed_shape_or_body_ends_next_step);
    RUN_TEST(test_events_sensors_see_neither_sensors_nor_static_bodies);
    RUN_TEST(test_events_sensors_see_kinematic_bodies);
    RUN_TEST(test_events_sensor_filters_are_honoured);
    RUN_TEST(test_events_bad_input);
}
