/* tools/bench: rigid.h side by side with Bullet and ODE (`make bench-peers`, part of `make bench`).

   Runs every scene of docs/scenes.md (built once, from examples/scenes.h) in rigid.h, Bullet
   and ODE in the same process and prints for each scene the median time of a whole step in each
   engine, the ratios rigid/Bullet and rigid/ODE, contacts per step, and the stability outcome.

   Times are the process's CPU time around each engine's step call (CLOCK_PROCESS_CPUTIME_ID,
   all threads), which does not run on while other programs hold the core; the wall-clock
   medians are printed beside them. On a quiet machine the two agree. The three worlds of a
   scene exist together and are stepped in turns of 10 steps, so that what load remains (caches,
   memory bandwidth shared with other programs) falls on all three alike: the ratios are the
   figures to trust. Then the scaling run: `rain` at 1k, 2k, 5k and 10k cubes, 300 steps,
   in all three engines, printed and plotted log-log to a PNG. Timings are printed, never
   asserted; the machine is shared, so compare ratios measured in one run.

   Stability outcome, from the final positions only, the same code for every engine:
     moved      dynamic cubes whose centre ends more than 0.5 m from where it started
     top drift  stack and pyramids: the final y minus the initial y of the cube that started
                highest (negative: it sank or fell)
     in funnel  funnel scenes: cubes still above the opening (y > 6) at the end
     sunk       cubes whose centre ends below the ground's top face (y < 0): they went through
                (in mesh-rain: through the mesh)
     max |v|    the largest final speed of a cube (m/s): near zero when a pile has settled
     in walls   balls: spheres whose centre ends inside rain's walls (|x|, |z| < 6, the walls'
                inner faces, and y > 0), and how many of them are at rest (slower than 0.1 m/s)
     highest    balls: the highest final centre (spheres that land exactly on one another may
                stay in columns up to y = 9.5; a pile is about 6 m deep)
     lowest     mesh-rain: the lowest final centre of a cube (0.5 for one lying on the mesh)
     joint gap  scenes with joints (joint-grid, ragdolls): the largest distance at the end between
                a joint's anchor carried by body a and carried by body b (or the world's anchor),
                in mm; each anchor is carried from the body's first pose to its last one, the same
                computation for every engine
     limits     scenes with joint limits (ragdolls): by how much the most violated limit is
                exceeded at the end, in rad: a hinge's angle (the twist about its axis of a's turn
                relative to b since the start) outside [lower, upper], or a ball joint's cone angle
                (between the axis carried by a and the axis carried by b) beyond its half angle.
                ODE approximates the cones by a square of Euler-angle stops (tools/peers/
                ode_scenes.c), which lets them open up to sqrt(2) times wider at the corners
     in walls   ragdolls: bodies whose centre ends inside rain's walls
     NaN        bodies or joints whose final state is not finite (a world that blew up): left
                out of every figure above and counted

   usage: bench [--engines rigid,bullet,ode] [--scenes a,b,...] [--steps N] [--iterations N]
                [--no-scaling] [--scaling-only] [--png file] [--markdown file]
     --steps N caps every scene at N steps (quick checks; the medians then cover the fall only);
     --iterations N replaces every scene's solver iterations (scenes.md's `pyramid` at 4);
     --png file: the scaling plot (default build/bench_scaling.png);
     --markdown file: the speed, stability and scaling tables as markdown (default
       build/bench.md), which `make bench-readme` (tools/bench-readme) puts into README.md.

   Built with BENCH_BOX3D (`make bench-box3d BOX3D_DIR=...`, against a Box3D checkout outside the
   repository), Box3D is a fourth engine (tools/peers/box3d_scenes.c, `--engines` name box3d),
   and by default only rigid.h and Box3D run: the table is then the direct ratio, each engine's
   CPU time summed over the whole run and divided by the steps (ms/step), rigid/Box3D the ratio of
   the sums, with the stability outcome of both. */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "examples/scenes.h"
#include "tools/peers/peers.h"
#include "tools/plot.h"

#ifdef BENCH_BOX3D
enum { ENGINE_RIGID, ENGINE_BULLET, ENGINE_ODE, ENGINE_BOX3D, ENGINE_COUNT };
static const char *const engine_names[ENGINE_COUNT] = {"rigid.h", "Bullet", "ODE", "Box3D"};
#define ENGINE_LIST "rigid,bullet,ode,box3d"
#else
enum { ENGINE_RIGID, ENGINE_BULLET, ENGINE_ODE, ENGINE_COUNT };
static const char *const engine_names[ENGINE_COUNT] = {"rigid.h", "Bullet", "ODE"};
#define ENGINE_LIST "rigid,bullet,ode"
#endif

/* What docs/scenes.md reports for the peers on this machine (ms/step; < 0: not given). */
typedef struct reference { const char *scene; double bullet_ms, ode_ms; const char *outcome; } reference;
static const reference references[] = {
    {"stack", 0.10, 0.12, "both collapse: 19 and 17 of 20 cubes move > 0.5 m"},
    {"pyramid", 2.35, 2.20, "Bullet stands (top -0.024 m); ODE collapses (145 of 210 fall)"},
    {"rain", 9.6, 12.9, "both settle"},
    {"funnel", 10.1, 7.9, "both pass the cubes through"},
    {"funnel-bender", 7.4, -1, "Bullet's figure is a mean, compared with our mean"},
    {"rain-10k", 268, 151, "both settle"},
    {"large-pyramid", 65, 62, "both collapse (4902 and 4937 of 5050 fall)"},
    {"balls", 6.2, 1.7, "all inside the walls; Bullet's columns topple, ODE's stand"},
    {"mesh-rain", 10.6, 11.6, "none falls through; lowest centre 0.418 (Bullet), 0.490 (ODE)"},
};

/* balls: the inner faces of rain's walls (|x|, |z| = 6) and the speed below which a sphere
   counts as at rest */
#define WALLS_INNER 6.0
#define REST_SPEED 0.1

typedef struct summary {
    int ran;                  /* 0: not run (engine not selected) */
    const char *error;
    int steps, dynamic;
    double median_ms, mean_ms, contacts_per_step;   /* CPU time */
    double wall_median_ms;
    int moved, sunk, in_funnel, nonfinite, inside, at_rest_inside;
    double top_drift, max_speed, lowest, highest;
    int joints, limited_joints, nonfinite_joints;
    double max_gap, max_limit_excess;    /* m, rad */
} summary;

/* ---- rigid.h, with the same three calls as the peers ------------------------------------- */

static void *rigid_create(const scene *s, const char **error) {
    rg_world_def def = rg_world_default_def();
    scene_world *sw = (scene_world *)calloc(1, sizeof *sw);
    /* the scene's iteration count caps both of rigid.h's loops */
    def.collision_iterations = s->iterations;
    def.contact_iterations = s->iterations;
    def.enable_sleep = 0; /* the peers run with sleeping off (docs/scenes.md) */
    if (!sw || !scene_create_world(s, &def, sw)) {
        if (sw) scene_destroy_world(sw);
        free(sw);
        *error = "scene_create_world failed";
        return NULL;
    }
    *error = NULL;
    return sw;
}

static step_time rigid_step(void *world, const scene *s, int *contacts) {
    scene_world *sw = (scene_world *)world;
    peers_clock start = peers_clock_now();
    step_time t;
    rg_world_step(sw->world, (rg_real)s->dt);
    t = peers_elapsed(start);
    *contacts = rg_world_get_stats(sw->world).contact_count;
    return t;
}

static void rigid_finish(void *world, const scene *s, double *position, double *velocity, double *rotation) {
    scene_world *sw = (scene_world *)world;
    int i;
    for (i = 0; i < s->count; ++i) {
        /* box hulls and spheres are centred on their body's origin, so the body position is the
           centre (the mesh's body sits at the origin) */
        rg_vec3 p = rg_body_position(sw->world, sw->ids[i]);
        rg_vec3 v = rg_body_linear_velocity(sw->world, sw->ids[i]);
        rg_quat q = rg_body_orientation(sw->world, sw->ids[i]);
        position[3 * i + 0] = p.x;
        position[3 * i + 1] = p.y;
        position[3 * i + 2] = p.z;
        velocity[3 * i + 0] = v.x;
        velocity[3 * i + 1] = v.y;
        velocity[3 * i + 2] = v.z;
        rotation[4 * i + 0] = q.x;
        rotation[4 * i + 1] = q.y;
        rotation[4 * i + 2] = q.z;
        rotation[4 * i + 3] = q.w;
    }
    scene_destroy_world(sw);
    free(sw);
}

typedef struct engine {
    const char *name;
    void *(*create)(const scene *s, const char **error);
    step_time (*step)(void *world, const scene *s, int *contacts);
    void (*finish)(void *world, const scene *s, double *position, double *velocity, double *rotation);
} engine;

static const engine engines[ENGINE_COUNT] = {
    {"rigid.h", rigid_create, rigid_step, rigid_finish},
    {"Bullet", bullet_create, bullet_step, bullet_finish},
    {"ODE", ode_create, ode_step, ode_finish},
#ifdef BENCH_BOX3D
    {"Box3D", box3d_create, box3d_step, box3d_finish},
#endif
};

/* ---- measurements --------------------------------------------------------------------------- */

/* What one engine measured in one scene: per step times and contacts, the final state. */
typedef struct engine_run {
    void *world;
    const char *error;
    double *step_ms;          /* CPU */
    double *step_wall_ms;
    int *step_contacts;
    double *final_position, *final_velocity, *final_rotation;
} engine_run;

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof *values, compare_doubles);
    if (count == 0) return 0;
    return count % 2 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

static int is_column_scene(const scene *s) {
    return strcmp(s->name, "stack") == 0 || strstr(s->name, "pyramid") != NULL;
}

static int is_funnel_scene(const scene *s) { return strncmp(s->name, "funnel", 6) == 0; }

static int is_balls_scene(const scene *s) { return strcmp(s->name, "balls") == 0; }

static int is_mesh_scene(const scene *s) { return s->mesh_triangle_count > 0; }

static int is_ragdoll_scene(const scene *s) { return strcmp(s->name, "ragdolls") == 0; }

/* The turn of body i since the start, d = q q0* (q0 its pose in the scene), as a quaternion. */
static void turn_since_start(const scene *s, int i, const double *rotation, double d[4]) {
    const double *q0 = s->boxes[i].rotation;
    double inverse[4];
    inverse[0] = -q0[0]; inverse[1] = -q0[1]; inverse[2] = -q0[2]; inverse[3] = q0[3];
    scene__quat_mul(&rotation[4 * i], inverse, d);
}

/* The world point where body i (or the world, i < 0) carries the point p of the start. */
static void carry(const scene *s, int i, const double p[3], const double *position, const double *rotation, double out[3]) {
    double d[4], r[3], v[3];
    int k;
    if (i < 0) {
        memcpy(out, p, sizeof(double) * 3);
        return;
    }
    turn_since_start(s, i, rotation, d);
    for (k = 0; k < 3; ++k) v[k] = p[k] - s->boxes[i].position[k];
    scene__rotate(d, v, r);
    for (k = 0; k < 3; ++k) out[k] = position[3 * i + k] + r[k];
}

/* A joint at the end, from the bodies' poses (see the top of the file): the gap between its
   carried anchors (m), and by how much its limit is exceeded (rad, 0 within it or without one). */
static void joint_state(const scene *s, const scene_joint *j, const double *position, const double *rotation,
                        double *gap, double *excess) {
    static const double identity[4] = {0, 0, 0, 1};
    double pa[3], pb[3], da[4], db[4], r[4], inverse[4], dx, dy, dz;
    carry(s, j->a, j->anchor, position, rotation, pa);
    carry(s, j->b, j->anchor, position, rotation, pb);
    dx = pa[0] - pb[0]; dy = pa[1] - pb[1]; dz = pa[2] - pb[2];
    *gap = sqrt(dx * dx + dy * dy + dz * dz);
    *excess = 0;
    if (!j->limit) return;
    turn_since_start(s, j->a, rotation, da);
    if (j->b >= 0) turn_since_start(s, j->b, rotation, db);
    else memcpy(db, identity, sizeof db);
    if (j->type == SCENE_JOINT_HINGE) {
        /* r = db* da, a's turn relative to b in the frame of the start, where the axis is j->axis:
           its twist about the axis is 2 atan2(v . n, w), taken into (-pi, pi] */
        const double pi = 3.14159265358979323846;
        double angle;
        inverse[0] = -db[0]; inverse[1] = -db[1]; inverse[2] = -db[2]; inverse[3] = db[3];
        scene__quat_mul(inverse, da, r);
        angle = 2 * atan2(r[0] * j->axis[0] + r[1] * j->axis[1] + r[2] * j->axis[2], r[3]);
        if (angle > pi) angle -= 2 * pi;
        if (angle <= -pi) angle += 2 * pi;
        if (angle < j->lower) *excess = j->lower - angle;
        if (angle > j->upper) *excess = angle - j->upper;
    } else {
        double na[3], nb[3], c;
        scene__rotate(da, j->axis, na);
        scene__rotate(db, j->axis, nb);
        c = na[0] * nb[0] + na[1] * nb[1] + na[2] * nb[2];
        c = c > 1 ? 1 : c < -1 ? -1 : c;
        if (acos(c) > j->upper) *excess = acos(c) - j->upper;
    }
}

static void summarize(const scene *s, int steps, engine_run *run, summary *out) {
    int i, top = -1, finite = 0;
    double sum = 0, contacts = 0;
    memset(out, 0, sizeof *out);
    out->ran = 1;
    out->steps = steps;
    for (i = 0; i < steps; ++i) {
        sum += run->step_ms[i];
        contacts += run->step_contacts[i];
    }
    out->mean_ms = steps ? sum / steps : 0;
    out->contacts_per_step = steps ? contacts / steps : 0;
    out->median_ms = median(run->step_ms, steps);
    out->wall_median_ms = median(run->step_wall_ms, steps);
    for (i = 0; i < s->count; ++i) {
        const scene_box *b = &s->boxes[i];
        const double *p = &run->final_position[3 * i], *v = &run->final_velocity[3 * i];
        double dx = p[0] - b->position[0], dy = p[1] - b->position[1], dz = p[2] - b->position[2];
        double speed = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if (b->is_static) continue;
        out->dynamic++;
        if (!(fabs(p[0]) + fabs(p[1]) + fabs(p[2]) + speed < 1e30)) { /* NaN or infinite */
            out->nonfinite++;
            continue;
        }
        if (dx * dx + dy * dy + dz * dz > 0.25) out->moved++;
        if (p[1] < 0) out->sunk++;
        if (p[1] > 6) out->in_funnel++;
        if (fabs(p[0]) < WALLS_INNER && fabs(p[2]) < WALLS_INNER && p[1] > 0) {
            out->inside++;
            if (speed < REST_SPEED) out->at_rest_inside++;
        }
        if (finite == 0 || p[1] < out->lowest) out->lowest = p[1];
        if (finite == 0 || p[1] > out->highest) out->highest = p[1];
        ++finite;
        if (speed > out->max_speed) out->max_speed = speed;
        if (top < 0 || b->position[1] > s->boxes[top].position[1]) top = i;
    }
    if (top >= 0) out->top_drift = run->final_position[3 * top + 1] - s->boxes[top].position[1];
    for (i = 0; i < s->joint_count; ++i) {
        double gap, excess;
        joint_state(s, &s->joints[i], run->final_position, run->final_rotation, &gap, &excess);
        out->joints++;
        out->limited_joints += s->joints[i].limit;
        if (!(gap + excess < 1e30)) { /* NaN or infinite */
            out->nonfinite_joints++;
            continue;
        }
        if (gap > out->max_gap) out->max_gap = gap;
        if (excess > out->max_limit_excess) out->max_limit_excess = excess;
    }
}

/* Steps every selected engine through the scene, in alternating blocks of BLOCK_STEPS steps,
   and summarizes each. */
#define BLOCK_STEPS 10
static void run_engines(const int *selected, const scene *s, int steps, summary *out) {
    engine_run runs[ENGINE_COUNT];
    int e, block, i;
    memset(runs, 0, sizeof runs);
    for (e = 0; e < ENGINE_COUNT; ++e) {
        engine_run *r = &runs[e];
        memset(&out[e], 0, sizeof out[e]);
        if (!selected[e]) continue;
        r->step_ms = (double *)calloc((size_t)steps + 1, sizeof(double));
        r->step_wall_ms = (double *)calloc((size_t)steps + 1, sizeof(double));
        r->step_contacts = (int *)calloc((size_t)steps + 1, sizeof(int));
        r->final_position = (double *)calloc((size_t)s->count * 3, sizeof(double));
        r->final_velocity = (double *)calloc((size_t)s->count * 3, sizeof(double));
        r->final_rotation = (double *)calloc((size_t)s->count * 4, sizeof(double));
        if (!r->step_ms || !r->step_wall_ms || !r->step_contacts || !r->final_position || !r->final_velocity ||
            !r->final_rotation)
            r->error = "out of memory";
        else r->world = engines[e].create(s, &r->error);
    }
    for (block = 0; block < steps; block += BLOCK_STEPS)
        for (e = 0; e < ENGINE_COUNT; ++e) {
            engine_run *r = &runs[e];
            if (!r->world) continue;
            for (i = block; i < steps && i < block + BLOCK_STEPS; ++i) {
                step_time t = engines[e].step(r->world, s, &r->step_contacts[i]);
                r->step_ms[i] = t.cpu_ms;
                r->step_wall_ms[i] = t.wall_ms;
            }
        }
    for (e = 0; e < ENGINE_COUNT; ++e) {
        engine_run *r = &runs[e];
        if (r->world) {
            engines[e].finish(r->world, s, r->final_position, r->final_velocity, r->final_rotation);
            summarize(s, steps, r, &out[e]);
        } else if (selected[e]) {
            out[e].ran = 1;
            out[e].error = r->error ? r->error : "failed";
        }
        free(r->step_ms);
        free(r->step_wall_ms);
        free(r->step_contacts);
        free(r->final_position);
        free(r->final_velocity);
        free(r->final_rotation);
    }
}

/* ---- results, kept so the scaling run can reuse a table run of the same scene ---------------- */

#define MAX_RESULTS 64
typedef struct result {
    char scene[32];
    int steps, bodies, dynamic;   /* bodies: with the static ground and walls */
    summary engines[ENGINE_COUNT];
} result;

typedef struct options {
    int engines[ENGINE_COUNT];
    const char *scenes[32];
    int scene_count;
    int step_cap;             /* 0: the scene's own count */
    int iterations;           /* 0: the scene's own count */
    int table, scaling;
    const char *png, *markdown;
} options;

static result results[MAX_RESULTS];
static int result_count;

static result *find_result(const char *name, int steps) {
    int i;
    for (i = 0; i < result_count; ++i)
        if (strcmp(results[i].scene, name) == 0 && results[i].steps == steps) return &results[i];
    return NULL;
}

/* Runs the scene in every selected engine (or finds an earlier run with the same steps). */
static result *run_scene(const options *o, const char *name, int steps_override) {
    scene s;
    result *r;
    int e, steps;
    if (!scene_build(&s, name)) {
        fprintf(stderr, "bench: unknown scene '%s'\n", name);
        return NULL;
    }
    if (o->iterations > 0) s.iterations = o->iterations;
    steps = steps_override > 0 ? steps_override : s.steps;
    if (o->step_cap > 0 && steps > o->step_cap) steps = o->step_cap;
    if ((r = find_result(s.name, steps)) != NULL || result_count == MAX_RESULTS) {
        scene_free(&s);
        return r;
    }
    r = &results[result_count++];
    memset(r, 0, sizeof *r);
    snprintf(r->scene, sizeof r->scene, "%s", s.name);
    r->steps = steps;
    r->bodies = s.count;
    r->dynamic = scene_dynamic_count(&s);
    fprintf(stderr, "  %-14s %6d bodies %5d steps ...", s.name, s.count, steps);
    fflush(stderr);
    run_engines(o->engines, &s, steps, r->engines);
    for (e = 0; e < ENGINE_COUNT; ++e) {
        const summary *m = &r->engines[e];
        if (!m->ran) continue;
        if (m->error) fprintf(stderr, "  %s failed: %s", engine_names[e], m->error);
        else fprintf(stderr, "  %s %.3f ms (wall %.3f)", engine_names[e], m->median_ms, m->wall_median_ms);
    }
    fprintf(stderr, "\n");
    scene_free(&s);
    return r;
}

/* ---- printing ------------------------------------------------------------------------------- */

static void format_ms(char *buffer, size_t size, const summary *m) {
    if (!m->ran) snprintf(buffer, size, "-");
    else if (m->error) snprintf(buffer, size, "failed");
    else snprintf(buffer, size, "%.3f", m->median_ms);
}

static void format_ratio(char *buffer, size_t size, const summary *a, const summary *b) {
    if (a->ran && b->ran && !a->error && !b->error && b->median_ms > 0)
        snprintf(buffer, size, "%.2f", a->median_ms / b->median_ms);
    else
        snprintf(buffer, size, "-");
}

/* One row of the scaling table, for the console and the README: ms/step of each engine and the
   ratios rigid/Bullet and rigid/ODE. */
typedef struct scaling_cells {
    char ms[ENGINE_COUNT][24], rb[16], ro[16];
} scaling_cells;

static scaling_cells scaling_cells_of(const result *r) {
    scaling_cells cells;
    int e;
    for (e = 0; e < ENGINE_COUNT; ++e) format_ms(cells.ms[e], sizeof cells.ms[e], &r->engines[e]);
    format_ratio(cells.rb, sizeof cells.rb, &r->engines[ENGINE_RIGID], &r->engines[ENGINE_BULLET]);
    format_ratio(cells.ro, sizeof cells.ro, &r->engines[ENGINE_RIGID], &r->engines[ENGINE_ODE]);
    return cells;
}

static const reference *find_reference(const char *name) {
    size_t i;
    for (i = 0; i < sizeof references / sizeof references[0]; ++i)
        if (strcmp(references[i].scene, name) == 0) return &references[i];
    return NULL;
}

/* markdown: no '|' (it would end a table cell) */
static void format_outcome(char *buffer, size_t size, const result *r, const summary *m, int markdown) {
    char top[32] = "", extra[96] = "", lowest[48] = "", joints[160] = "", speed[32];
    scene s;
    if (!m->ran || m->error) {
        snprintf(buffer, size, "-");
        return;
    }
    if (scene_build(&s, r->scene)) {
        /* below half a millimetre: +0.000, not the -0.000 a tiny sinking would print */
        if (is_column_scene(&s))
            snprintf(top, sizeof top, ", top %+.3f m", fabs(m->top_drift) < 5e-4 ? 0.0 : m->top_drift);
        if (is_funnel_scene(&s)) snprintf(extra, sizeof extra, ", %d in funnel", m->in_funnel);
        if (is_balls_scene(&s))
            snprintf(extra, sizeof extra, markdown ? ", %d in the walls, %d of them at rest, highest centre y %.2f m"
                                                    : ", %d in the walls, %d of them at rest, highest y %.2f",
                     m->inside, m->at_rest_inside, m->highest);
        if (is_mesh_scene(&s)) snprintf(lowest, sizeof lowest, markdown ? ", lowest centre y %.3f m" : ", lowest y %.3f", m->lowest);
        if (is_ragdoll_scene(&s)) snprintf(extra, sizeof extra, ", %d in the walls", m->inside);
        scene_free(&s);
    }
    if (m->joints > 0) {
        char limits[64] = "", broken[64] = "", gap[32];
        if (m->limited_joints > 0)
            snprintf(limits, sizeof limits, markdown ? ", limits exceeded by up to %.3f rad" : ", limit excess %.3f rad",
                     m->max_limit_excess);
        if (m->nonfinite_joints > 0) snprintf(broken, sizeof broken, " (%d NaN)", m->nonfinite_joints);
        /* a world that blew up: metres, three digits */
        if (m->max_gap < 1) snprintf(gap, sizeof gap, "%.1f mm", 1000 * m->max_gap);
        else snprintf(gap, sizeof gap, "%.3g m", m->max_gap);
        snprintf(joints, sizeof joints, markdown ? ", largest joint gap %s%s%s" : ", joint gap %s%s%s", gap, broken,
                 limits);
    }
    snprintf(speed, sizeof speed, m->max_speed < 1e6 ? "%.2f" : "%.3g", m->max_speed);
    snprintf(buffer, size, markdown ? "%d/%d moved%s%s, %d sunk%s, max speed %s m/s%s%s" : "%d/%d moved%s%s, %d sunk%s, max|v| %s%s%s",
             m->moved, m->dynamic, top, extra, m->sunk, lowest, speed, joints, m->nonfinite ? ", NaN!" : "");
}

/* Prints the speed and stability tables as aligned text. */
static void print_tables(FILE *f, int first, int last) {
    int i, e;
    fprintf(f, "%-14s  %6s  %5s  %9s  %9s  %9s  %7s  %7s  %-20s  %s\n", "scene", "cubes", "steps", "rigid.h", "Bullet",
            "ODE", "r/Bul", "r/ODE", "contacts/step r/B/O", "wall ms r/B/O");
    for (i = first; i < last; ++i) {
        const result *r = &results[i];
        char ms[ENGINE_COUNT][24], rb[16], ro[16], contacts[64], wall[64];
        for (e = 0; e < ENGINE_COUNT; ++e) format_ms(ms[e], sizeof ms[e], &r->engines[e]);
        format_ratio(rb, sizeof rb, &r->engines[ENGINE_RIGID], &r->engines[ENGINE_BULLET]);
        format_ratio(ro, sizeof ro, &r->engines[ENGINE_RIGID], &r->engines[ENGINE_ODE]);
        snprintf(contacts, sizeof contacts, "%.0f / %.0f / %.0f", r->engines[0].contacts_per_step,
                 r->engines[1].contacts_per_step, r->engines[2].contacts_per_step);
        snprintf(wall, sizeof wall, "%.3g / %.3g / %.3g", r->engines[0].wall_median_ms, r->engines[1].wall_median_ms,
                 r->engines[2].wall_median_ms);
        fprintf(f, "%-14s  %6d  %5d  %9s  %9s  %9s  %7s  %7s  %-20s  %s\n", r->scene, r->dynamic, r->steps, ms[0],
                ms[1], ms[2], rb, ro, contacts, wall);
    }
    fprintf(f, "\n");
    fprintf(f, "stability (moved: > 0.5 m from the start; top: final - initial y of the highest cube;\n"
               "sunk: centre below the ground's top; in the walls: centre inside them, at rest: slower than %.1f m/s;\n"
               "highest / lowest y: the highest / lowest centre; max|v|: largest final speed, m/s;\n"
               "joint gap: the largest distance between a joint's two anchors at the end; limit excess: the largest\n"
               "angle beyond a joint's limit at the end)\n", REST_SPEED);
    for (i = first; i < last; ++i) {
        const result *r = &results[i];
        for (e = 0; e < ENGINE_COUNT; ++e) {
            char outcome[320];
            if (!r->engines[e].ran) continue;
            format_outcome(outcome, sizeof outcome, r, &r->engines[e], 0);
            fprintf(f, "%-14s  %-8s %s\n", r->scene, engine_names[e], outcome);
            if (e == ENGINE_ODE && r->engines[e].limited_joints > 0)
                fprintf(f, "%-14s  %-8s (no cone limit in ODE: each cone is two Euler-angle stops of an angular motor,\n"
                           "%-14s  %-8s  a square pyramid that opens up to sqrt(2) times wider at its corners)\n",
                        "", "", "", "");
        }
    }
    fprintf(f, "\n");
}

/* The markdown for the README (`make bench-readme` pastes it between the bench markers): the
   speed table, the stability table (one column per engine) and the scaling table. */
static void print_markdown(FILE *f, int first, int last, result *const *scaling, int scaling_count) {
    int i, e, steps = 0;
    for (i = 0; i < scaling_count; ++i)
        if (scaling[i]) steps = scaling[i]->steps;
    if (last > first) {
        fprintf(f, "| scene | cubes | steps | rigid.h ms/step | Bullet ms/step | ODE ms/step | rigid/Bullet | rigid/ODE "
                   "| contacts/step rigid.h / Bullet / ODE |\n");
        fprintf(f, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (i = first; i < last; ++i) {
            const result *r = &results[i];
            char ms[ENGINE_COUNT][24], rb[16], ro[16];
            for (e = 0; e < ENGINE_COUNT; ++e) format_ms(ms[e], sizeof ms[e], &r->engines[e]);
            format_ratio(rb, sizeof rb, &r->engines[ENGINE_RIGID], &r->engines[ENGINE_BULLET]);
            format_ratio(ro, sizeof ro, &r->engines[ENGINE_RIGID], &r->engines[ENGINE_ODE]);
            fprintf(f, "| `%s` | %d | %d | %s | %s | %s | %s | %s | %.0f / %.0f / %.0f |\n", r->scene, r->dynamic,
                    r->steps, ms[0], ms[1], ms[2], rb, ro, r->engines[0].contacts_per_step,
                    r->engines[1].contacts_per_step, r->engines[2].contacts_per_step);
        }
        fprintf(f, "\n| scene | rigid.h | Bullet | ODE |\n| --- | --- | --- | --- |\n");
        for (i = first; i < last; ++i) {
            const result *r = &results[i];
            fprintf(f, "| `%s` ", r->scene);
            for (e = 0; e <= ENGINE_ODE; ++e) {
                char outcome[320];
                format_outcome(outcome, sizeof outcome, r, &r->engines[e], 1);
                fprintf(f, "| %s ", outcome);
            }
            fprintf(f, "|\n");
        }
    }
    if (scaling_count > 0) {
        fprintf(f, "%s| cubes (`rain`, %d steps) | rigid.h ms/step | Bullet ms/step | ODE ms/step | rigid/Bullet | "
                   "rigid/ODE |\n| ---: | ---: | ---: | ---: | ---: | ---: |\n",
                last > first ? "\n" : "", steps);
        for (i = 0; i < scaling_count; ++i) {
            scaling_cells cells;
            if (!scaling[i]) continue;
            cells = scaling_cells_of(scaling[i]);
            fprintf(f, "| %d | %s | %s | %s | %s | %s |\n", scaling[i]->dynamic, cells.ms[0], cells.ms[1], cells.ms[2],
                    cells.rb, cells.ro);
        }
    }
}

#ifdef BENCH_BOX3D
/* `make bench-box3d`: rigid.h against Box3D, as text or as markdown for the README. Times are the
   CPU time of each engine summed over the run, per step; the ratio is that of the sums. */
static void print_box3d(FILE *f, int first, int last, int markdown) {
    static const int pair[2] = {ENGINE_RIGID, ENGINE_BOX3D};
    int i, k;
    if (markdown)
        fprintf(f, "| scene | cubes | steps | rigid.h ms/step | Box3D ms/step | rigid/Box3D | contacts/step rigid.h / Box3D |\n"
                   "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    else
        fprintf(f, "%-14s  %6s  %5s  %9s  %9s  %11s  %-17s  %s\n", "scene", "cubes", "steps", "rigid.h", "Box3D",
                "rigid/Box3D", "median ms r / B", "contacts/step r / B");
    for (i = first; i < last; ++i) {
        const result *r = &results[i];
        const summary *a = &r->engines[ENGINE_RIGID], *b = &r->engines[ENGINE_BOX3D];
        char ms[2][24], ratio[16] = "-", medians[48];
        for (k = 0; k < 2; ++k) {
            const summary *m = &r->engines[pair[k]];
            format_ms(ms[k], sizeof ms[k], m);
            if (m->ran && !m->error) snprintf(ms[k], sizeof ms[k], "%.3f", m->mean_ms);
        }
        if (a->ran && b->ran && !a->error && !b->error && b->mean_ms > 0)
            snprintf(ratio, sizeof ratio, "%.2f", a->mean_ms / b->mean_ms);
        snprintf(medians, sizeof medians, "%.3f / %.3f", a->median_ms, b->median_ms);
        if (markdown)
            fprintf(f, "| `%s` | %d | %d | %s | %s | %s | %.0f / %.0f |\n", r->scene, r->dynamic, r->steps, ms[0], ms[1],
                    ratio, a->contacts_per_step, b->contacts_per_step);
        else
            fprintf(f, "%-14s  %6d  %5d  %9s  %9s  %11s  %-17s  %.0f / %.0f\n", r->scene, r->dynamic, r->steps, ms[0],
                    ms[1], ratio, medians, a->contacts_per_step, b->contacts_per_step);
    }
    fprintf(f, markdown ? "\n| scene | rigid.h | Box3D |\n| --- | --- | --- |\n"
                        : "\nstability (moved: > 0.5 m from the start; top: final - initial y of the highest cube;\n"
                          "sunk: centre below the ground's top; max|v|: largest final speed, m/s)\n");
    for (i = first; i < last; ++i) {
        const result *r = &results[i];
        char outcome[2][320];
        for (k = 0; k < 2; ++k) format_outcome(outcome[k], sizeof outcome[k], r, &r->engines[pair[k]], markdown);
        if (markdown) fprintf(f, "| `%s` | %s | %s |\n", r->scene, outcome[0], outcome[1]);
        else
            for (k = 0; k < 2; ++k) fprintf(f, "%-14s  %-8s %s\n", r->scene, engine_names[pair[k]], outcome[k]);
    }
    fprintf(f, "\n");
}
#endif

static void print_references(FILE *f, int first, int last) {
    int i, any = 0;
    for (i = first; i < last; ++i) any |= find_reference(results[i].scene) != NULL;
    if (!any) return; /* none of these scenes has figures in docs/scenes.md */
    fprintf(f, "peers against docs/scenes.md (measured on this machine earlier; ms/step)\n");
    fprintf(f, "%-14s  %9s %9s %9s  %9s %9s %9s\n", "scene", "Bullet", "scenes.md", "ratio", "ODE", "scenes.md",
            "ratio");
    for (i = first; i < last; ++i) {
        const result *r = &results[i];
        const reference *ref = find_reference(r->scene);
        const summary *b = &r->engines[ENGINE_BULLET], *o = &r->engines[ENGINE_ODE];
        char bm[24], om[24], br[16] = "-", orr[16] = "-", bref[16] = "-", oref[16] = "-";
        if (!ref) continue;
        format_ms(bm, sizeof bm, b);
        format_ms(om, sizeof om, o);
        if (b->ran && !b->error) snprintf(bm, sizeof bm, "%.3f", strcmp(r->scene, "funnel-bender") == 0 ? b->mean_ms : b->median_ms);
        if (ref->bullet_ms > 0) snprintf(bref, sizeof bref, "%.2f", ref->bullet_ms);
        if (ref->ode_ms > 0) snprintf(oref, sizeof oref, "%.2f", ref->ode_ms);
        if (b->ran && !b->error && ref->bullet_ms > 0)
            snprintf(br, sizeof br, "%.2f", (strcmp(r->scene, "funnel-bender") == 0 ? b->mean_ms : b->median_ms) / ref->bullet_ms);
        if (o->ran && !o->error && ref->ode_ms > 0) snprintf(orr, sizeof orr, "%.2f", o->median_ms / ref->ode_ms);
        fprintf(f, "%-14s  %9s %9s %9s  %9s %9s %9s   (%s)\n", r->scene, bm, bref, br, om, oref, orr, ref->outcome);
    }
    fprintf(f, "\n");
}

static void machine_description(char *buffer, size_t size) {
    char line[256], model[160] = "unknown CPU";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "model name", 10) == 0) {
                char *colon = strchr(line, ':');
                if (colon) {
                    snprintf(model, sizeof model, "%s", colon + 2);
                    model[strcspn(model, "\n")] = 0;
                }
                break;
            }
        fclose(f);
    }
    snprintf(buffer, size, "%s", model);
}

/* ---- main ----------------------------------------------------------------------------------- */

static int parse_list(char *list, const char **items, int capacity) {
    int n = 0;
    char *token = strtok(list, ",");
    while (token && n < capacity) {
        items[n++] = token;
        token = strtok(NULL, ",");
    }
    return n;
}

static int parse_options(int argc, char **argv, options *o) {
    int i, e;
    memset(o, 0, sizeof *o);
    for (e = 0; e < ENGINE_COUNT; ++e) o->engines[e] = 1;
    o->table = o->scaling = 1;
    o->png = "build/bench_scaling.png";
    o->markdown = "build/bench.md";
#ifdef BENCH_BOX3D
    /* the direct ratio: rigid.h and Box3D only, no scaling run */
    o->engines[ENGINE_BULLET] = o->engines[ENGINE_ODE] = 0;
    o->scaling = 0;
    o->png = NULL;
    o->markdown = "build/bench_box3d.md";
#endif
    for (i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--engines") == 0 && i + 1 < argc) {
            const char *names[ENGINE_COUNT + 4];
            int n = parse_list(argv[++i], names, ENGINE_COUNT + 4), k;
            for (e = 0; e < ENGINE_COUNT; ++e) o->engines[e] = 0;
            for (k = 0; k < n; ++k) {
                if (strcmp(names[k], "rigid") == 0 || strcmp(names[k], "rigid.h") == 0) o->engines[ENGINE_RIGID] = 1;
                else if (strcmp(names[k], "bullet") == 0) o->engines[ENGINE_BULLET] = 1;
                else if (strcmp(names[k], "ode") == 0) o->engines[ENGINE_ODE] = 1;
#ifdef BENCH_BOX3D
                else if (strcmp(names[k], "box3d") == 0) o->engines[ENGINE_BOX3D] = 1;
#endif
                else { fprintf(stderr, "bench: unknown engine '%s'\n", names[k]); return 0; }
            }
        } else if (strcmp(a, "--scenes") == 0 && i + 1 < argc) {
            o->scene_count = parse_list(argv[++i], o->scenes, 32);
        } else if (strcmp(a, "--steps") == 0 && i + 1 < argc) {
            o->step_cap = atoi(argv[++i]);
        } else if (strcmp(a, "--iterations") == 0 && i + 1 < argc) {
            o->iterations = atoi(argv[++i]);
        } else if (strcmp(a, "--no-scaling") == 0) {
            o->scaling = 0;
        } else if (strcmp(a, "--scaling-only") == 0) {
            o->table = 0;
        } else if (strcmp(a, "--png") == 0 && i + 1 < argc) {
            o->png = argv[++i];
        } else if (strcmp(a, "--markdown") == 0 && i + 1 < argc) {
            o->markdown = argv[++i];
        } else {
            fprintf(stderr, "usage: bench [--engines " ENGINE_LIST "] [--scenes a,b] [--steps N] [--iterations N]\n"
                            "             [--no-scaling] [--scaling-only] [--png file] [--markdown file]\n");
            return 0;
        }
    }
    if (o->scene_count == 0) {
        for (i = 0; i < SCENE_COUNT; ++i) o->scenes[i] = scene_names[i];
        o->scene_count = SCENE_COUNT;
    }
    return 1;
}

int main(int argc, char **argv) {
    static const char *const scaling_scenes[] = {"rain", "rain-2k", "rain-5k", "rain-10k"};
    enum { SCALING_COUNT = 4, SCALING_STEPS = 300 };
    result *scaling[SCALING_COUNT];
    options o;
    char machine[200], date[32];
    time_t now = time(NULL);
    int i, e, table_end;
    FILE *md = NULL;

    if (!parse_options(argc, argv, &o)) return 2;
    machine_description(machine, sizeof machine);
    strftime(date, sizeof date, "%Y-%m-%d", localtime(&now));
    printf("rigid.h %s (%s) against Bullet 3.24 (float) and ODE 0.16 (double); %s, %s\n", RIGID_VERSION_STRING,
           sizeof(rg_real) == sizeof(double) ? "double" : "float", machine, date);
#ifdef BENCH_BOX3D
    printf("and against %s: ms/step is its CPU time summed over the run, per step\n", box3d_description());
#endif
    printf("median CPU time of whole steps (wall-clock medians at the right), the engines stepped in turns of %d steps;\n"
           "rigid.h caps both of its loops at the scene's solver iterations%s\n\n", BLOCK_STEPS,
           o.iterations > 0 ? " (overridden by --iterations)" : "");

    if (o.table)
        for (i = 0; i < o.scene_count; ++i) run_scene(&o, o.scenes[i], 0);
    table_end = result_count;
    if (o.table) {
#ifdef BENCH_BOX3D
        if (o.engines[ENGINE_BOX3D]) print_box3d(stdout, 0, table_end, 0);
        if (o.engines[ENGINE_BULLET] || o.engines[ENGINE_ODE])
#endif
        print_tables(stdout, 0, table_end);
        /* scenes.md's figures are for the scenes' own iteration and step counts */
        if ((o.engines[ENGINE_BULLET] || o.engines[ENGINE_ODE]) && o.iterations <= 0 &&
            o.step_cap <= 0)
            print_references(stdout, 0, table_end);
    }

    if (o.scaling) {
        plot_series series[ENGINE_COUNT];
        /* --steps caps these too */
        int scaling_steps = o.step_cap > 0 && o.step_cap < SCALING_STEPS ? o.step_cap : SCALING_STEPS;
        printf("scaling: rain, %d steps, median ms/step\n%8s", scaling_steps, "cubes");
        for (i = 0; i < SCALING_COUNT; ++i) scaling[i] = run_scene(&o, scaling_scenes[i], SCALING_STEPS);
        for (e = 0; e < ENGINE_COUNT; ++e) printf(" %10s", engine_names[e]);
        printf(" %8s %8s\n", "r/Bul", "r/ODE");
        for (i = 0; i < SCALING_COUNT; ++i) {
            scaling_cells cells;
            if (!scaling[i]) continue;
            cells = scaling_cells_of(scaling[i]);
            printf("%8d %10s %10s %10s %8s %8s\n", scaling[i]->dynamic, cells.ms[0], cells.ms[1], cells.ms[2], cells.rb,
                   cells.ro);
        }
        for (e = 0; e < ENGINE_COUNT; ++e) {
            int n = 0;
            series[e].name = engine_names[e];
            for (i = 0; i < SCALING_COUNT; ++i) {
                const summary *m = scaling[i] ? &scaling[i]->engines[e] : NULL;
                if (!m || !m->ran || m->error || !(m->median_ms > 0)) continue;
                series[e].x[n] = scaling[i]->dynamic;
                series[e].y[n] = m->median_ms;
                ++n;
            }
            series[e].count = n;
        }
        if (o.png) {
            char title[160];
            snprintf(title, sizeof title, "rain, %d steps: ms/step against cubes (%s)", scaling_steps, date);
            if (plot_loglog(o.png, title, "cubes", "ms/step", series, ENGINE_COUNT))
                printf("plot: %s\n", o.png);
            else
                printf("plot: could not write %s\n", o.png);
        }
        printf("\n");
    }

    if (o.markdown && (md = fopen(o.markdown, "w")) != NULL) {
#ifdef BENCH_BOX3D
        if (o.engines[ENGINE_BOX3D]) print_box3d(md, 0, table_end, 1);
        else
#endif
        print_markdown(md, 0, table_end, scaling, o.scaling ? SCALING_COUNT : 0);
        fclose(md);
        printf("markdown tables: %s\n", o.markdown);
    } else if (o.markdown) {
        printf("markdown tables: could not write %s\n", o.markdown);
    }
    return 0;
}
