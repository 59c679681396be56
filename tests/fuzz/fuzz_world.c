/* libFuzzer harness: a script of world calls with arguments from the fuzzer (NaN, infinities,
   limits and just beyond them, stale and fabricated ids, NULL worlds, defs and outputs): bodies
   with and without a hull, spheres, capsules and placed hulls added to them (compound bodies),
   shapes destroyed and filtered, small triangle meshes (grids, soups, closed boxes, slivers,
   degenerate and bad input) created, added to static and kinematic bodies (and to dynamic ones,
   which must be refused) and destroyed once no shape uses them.
   Checked after every call:
     - no crash, no sanitizer report, no allocation left behind (the counting allocator must be
       back to zero after the world, hulls and meshes are gone);
     - a refused call returns a code and changes nothing visible (state hash before and after,
       the bodies' shapes included);
     - an accepted step leaves every body finite, and its contacts have unit normals, finite
       points, depths and impulses, a normal impulse >= 0 and shapes of the bodies they name;
     - the body count matches the creations and destructions that succeeded, and each body's
       shapes are those the script added and did not destroy (a destroyed body's shapes go with
       it); a mesh shape names its mesh;
     - a mesh that was built keeps some of the input's triangles, each as given, with a unit
       normal across its edges on its counter-clockwise side; an edge not shared by exactly two
       triangles running opposite ways is active, one shared by two coplanar ones inactive; a
       query of the mesh's box finds every triangle in ascending order;
     - with the flags byte's bit 8, every step is taken a second time from a snapshot saved
       before it (rg_world_snapshot_load: the same result and state hash), and the snapshot
       with one bit flipped is refused with the world unchanged;
   and for the whole script: running it again on a second world gives the same state hashes
   after every step (determinism: no uninitialised memory, no pointer-order dependence).
   Steps of every accepted length are taken, subnormal ones included. What this harness found is
   fixed and kept as regression tests: in tests/test_solver.c
   test_tiny_step_does_not_launch_resting_bodies, test_shortest_step_keeps_a_penetrating_body_finite,
   test_shortest_step_with_bodies_inside_each_other_stays_finite,
   test_feather_with_rolling_friction_stays_finite, test_feather_far_out_under_huge_gravity_stays_finite,
   test_cube_placed_into_a_slab_after_a_huge_knock_stays_finite,
   test_stack_on_a_cube_flung_at_1e15_stays_finite, test_speculative_contact_across_1e13_m_stays_finite,
   test_tiny_box_struck_by_a_spinning_slab_stays_finite; in tests/test_body.c
   test_fast_spin_keeps_its_energy, test_slab_knocked_to_a_huge_spin_keeps_its_energy. Their
   comments and commit messages tell the inputs.
   Byte encoding: a flags byte (and the world def), then operations of three bytes (code, wild,
   NULL world) and their arguments; code % 24 picks the operation: 0-11 as before shapes came
   (seeds of that time still mean the same), 12-20 shapes and meshes, 21-23 steps like 11.
   Build: clang -fsanitize=fuzzer,address,undefined (see `make fuzz`). */
#include "../programs/counting_allocator.h"
#define RIGID_IMPLEMENTATION
#include "rigid.h"
#include "fuzz_common.h"
#include "../programs/state_hash.h"
#include <stdarg.h>

enum {
    MAX_IDS = 48, MAX_OPS = 96, MAX_STEPS = 24, HULLS = 4, MAX_SHAPES = 64, MESHES = 4,
    MESH_VERTICES = 25, MESH_TRIANGLES = 32, BODY_SHAPES = 16, CONTACTS = 64
};

/* the operations: code % 24, 21-23 a step too */
enum {
    OP_CREATE = 0, OP_CREATE_TOO = 1, OP_DESTROY = 2, OP_TRANSFORM = 3, OP_LINEAR = 4, OP_ANGULAR = 5,
    OP_IMPULSE = 6, OP_FORCE = 7, OP_TORQUE = 8, OP_GRAVITY = 9, OP_QUERY = 10, OP_STEP = 11,
    OP_SPHERE = 12, OP_CAPSULE = 13, OP_HULL = 14, OP_DESTROY_SHAPE = 15, OP_FILTER = 16, OP_MESH = 17,
    OP_ADD_MESH = 18, OP_DESTROY_MESH = 19, OP_SHAPE_QUERY = 20, OP_CODES = 24
};

/* FUZZ_VERBOSE=1 in the environment prints the script as it runs (to reproduce a failure), its
   numbers with the 9 digits that give a float back exactly */
static int verbose = -1;
static void trace(const char *format, ...) {
    va_list args;
    if (verbose < 0) verbose = getenv("FUZZ_VERBOSE") != NULL;
    if (!verbose) return;
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
}

static void fuzz_fail(const char *what, int op) {
    fprintf(stderr, "fuzz_world: %s (operation %d)\n", what, op);
    abort();
}

/* A shape the script added (a body's hull shape included). */
typedef struct tracked_shape {
    rg_shape_id id;
    rg_body_id body;
    int mesh;          /* the mesh's slot for a mesh shape, else -1 */
    int destroyed;     /* by rg_shape_destroy; a destroyed body's shapes go with it */
} tracked_shape;

typedef struct script_state {
    rg_world *w;
    rg_hull *hulls[HULLS];
    rg_mesh *meshes[MESHES];
    rg_body_id ids[MAX_IDS];
    tracked_shape shapes[MAX_SHAPES];
    int id_count, live, steps, shape_count;
} script_state;

static int shape_is_live(const script_state *st, const tracked_shape *s) {
    return !s->destroyed && rg_body_is_valid(st->w, s->body);
}

static int mesh_in_use(const script_state *st, int slot) {
    int i;
    for (i = 0; i < st->shape_count; ++i)
        if (st->shapes[i].mesh == slot && shape_is_live(st, &st->shapes[i])) return 1;
    return 0;
}

/* pointers are not state (they differ between runs): hulls and meshes by their slot */
static int hull_slot(const script_state *st, const rg_hull *h) {
    int i;
    for (i = 0; i < HULLS; ++i)
        if (st->hulls[i] == h) return i;
    return h ? -2 : -1;
}
static int mesh_slot(const script_state *st, const rg_mesh *m) {
    int i;
    for (i = 0; i < MESHES; ++i)
        if (m && st->meshes[i] == m) return i;
    return m ? -2 : -1;
}

static void hash_int(hash64 *s, int x) { hash_bytes(s, &x, sizeof x); }

static void hash_shape(hash64 *s, const script_state *st, rg_shape_id id) {
    rg_vec3 a, b, lo, hi;
    rg_quat q;
    rg_real radius;
    const rg_hull *h;
    hash_int(s, (int)id.index);
    hash_int(s, (int)id.generation);
    hash_int(s, (int)rg_shape_get_type(st->w, id));
    hash_int(s, rg_shape_is_sensor(st->w, id));
    if (rg_shape_get_sphere(st->w, id, &a, &radius)) {
        hash_vec3(s, a);
        hash_real(s, radius);
    }
    if (rg_shape_get_capsule(st->w, id, &a, &b, &radius)) {
        hash_vec3(s, a);
        hash_vec3(s, b);
        hash_real(s, radius);
    }
    h = rg_shape_get_hull(st->w, id, &a, &q);
    if (h) {
        hash_int(s, hull_slot(st, h));
        hash_vec3(s, a);
        hash_quat(s, q);
    }
    hash_int(s, mesh_slot(st, rg_shape_get_mesh(st->w, id)));
    rg_shape_aabb(st->w, id, &lo, &hi);
    hash_vec3(s, lo);
    hash_vec3(s, hi);
}

static uint64_t world_hash(const script_state *st) {
    hash64 s = HASH64_INIT;
    rg_world_stats stats = rg_world_get_stats(st->w);
    int i, k;
    hash_vec3(&s, rg_world_gravity(st->w));
    hash_bytes(&s, &stats.body_count, sizeof stats.body_count);
    for (i = 0; i < st->id_count; ++i) {
        rg_body_id id = st->ids[i];
        rg_quat q = rg_body_orientation(st->w, id);
        rg_vec3 lo, hi;
        rg_shape_id shapes[BODY_SHAPES];
        int valid = rg_body_is_valid(st->w, id), count;
        hash_bytes(&s, &valid, sizeof valid);
        hash_vec3(&s, rg_body_position(st->w, id));
        hash_quat(&s, q);
        hash_vec3(&s, rg_body_linear_velocity(st->w, id));
        hash_vec3(&s, rg_body_angular_velocity(st->w, id));
        hash_real(&s, rg_body_mass(st->w, id));
        rg_body_aabb(st->w, id, &lo, &hi);
        hash_vec3(&s, lo);
        hash_vec3(&s, hi);
        count = rg_body_shapes(st->w, id, shapes, BODY_SHAPES);
        hash_int(&s, count);
        for (k = 0; k < count && k < BODY_SHAPES; ++k) hash_shape(&s, st, shapes[k]);
    }
    return s.h;
}

static int world_is_finite(const script_state *st) {
    int i;
    for (i = 0; i < st->id_count; ++i) {
        rg_body_id id = st->ids[i];
        if (!rg_body_is_valid(st->w, id)) continue;
        if (!rg_v3_is_finite(rg_body_position(st->w, id)) || !rg_quat_is_finite(rg_body_orientation(st->w, id)) ||
            !rg_v3_is_finite(rg_body_linear_velocity(st->w, id)) || !rg_v3_is_finite(rg_body_angular_velocity(st->w, id)))
            return 0;
    }
    return 1;
}

static int same_body(rg_body_id a, rg_body_id b) { return a.index == b.index && a.generation == b.generation; }

/* The last step's contacts: unit normals, finite values, shapes of the bodies named. */
static void check_contacts(const script_state *st, int op) {
    static rg_contact contacts[CONTACTS];
    int total = rg_world_contacts(st->w, contacts, CONTACTS), i;
    for (i = 0; i < total && i < CONTACTS; ++i) {
        const rg_contact *c = &contacts[i];
        double length = (double)rg_v3_length(c->normal);
        if (!rg_v3_is_finite(c->point) || !isfinite((double)c->depth) || !rg_v3_is_finite(c->friction_impulse) ||
            !isfinite((double)c->normal_impulse))
            fuzz_fail("a contact with a non-finite point, depth or impulse", op);
        if (!(fabs(length - 1) < 1e-3)) fuzz_fail("a contact normal not unit", op);
        if (!(c->normal_impulse >= 0)) fuzz_fail("a negative normal impulse", op);
        if (!same_body(rg_shape_body(st->w, c->shape_a), c->a) || !same_body(rg_shape_body(st->w, c->shape_b), c->b))
            fuzz_fail("a contact's shape is not on its body", op);
    }
}

/* Every tracked shape valid exactly when neither it nor its body was destroyed, on its body, a
   mesh shape on its mesh; each body's shapes are the tracked live ones. */
static void check_shapes(const script_state *st, int op) {
    int i, k;
    for (i = 0; i < st->shape_count; ++i) {
        const tracked_shape *s = &st->shapes[i];
        int live = shape_is_live(st, s);
        if (rg_shape_is_valid(st->w, s->id) != live) fuzz_fail("rg_shape_is_valid disagrees with the script", op);
        if (!live) continue;
        if (!same_body(rg_shape_body(st->w, s->id), s->body)) fuzz_fail("a shape moved to another body", op);
        if (s->mesh >= 0 && rg_shape_get_mesh(st->w, s->id) != st->meshes[s->mesh])
            fuzz_fail("a mesh shape does not name its mesh", op);
    }
    for (i = 0; i < st->id_count; ++i) {
        int expected = 0;
        if (!rg_body_is_valid(st->w, st->ids[i])) continue;
        for (k = 0; k < st->shape_count; ++k)
            expected += shape_is_live(st, &st->shapes[k]) && same_body(st->shapes[k].body, st->ids[i]);
        if (rg_body_shapes(st->w, st->ids[i], NULL, 0) != expected) fuzz_fail("a body's shape count", op);
    }
}

static rg_vec3 fuzz_vec3(fuzz_reader *r, int wild) {
    double x[3];
    if (wild) fuzz_numbers3(r, x);
    else fuzz_plains3(r, x);
    return rg_v3((rg_real)x[0], (rg_real)x[1], (rg_real)x[2]);
}
static rg_quat fuzz_quat(fuzz_reader *r, int wild) {
    rg_quat q;
    if (!wild) {
        rg_vec3 axis = fuzz_vec3(r, 0);
        double angle = fuzz_plain(r);
        return rg_quat_from_axis_angle(axis, (rg_real)angle);
    }
    q.x = (rg_real)fuzz_number(r); q.y = (rg_real)fuzz_number(r);
    q.z = (rg_real)fuzz_number(r); q.w = (rg_real)fuzz_number(r);
    return q;
}
static rg_real fuzz_real(fuzz_reader *r, int wild) { return (rg_real)(wild ? fuzz_number(r) : fuzz_plain(r)); }

/* an id: one the script created (live or destroyed), the null id, or a fabricated one */
static rg_body_id fuzz_id(fuzz_reader *r, const script_state *st) {
    uint8_t k = fuzz_u8(r);
    rg_body_id id = {0, 0};
    if (k < 200 && st->id_count > 0) return st->ids[k % st->id_count];
    if (k < 220) return id;
    id.index = fuzz_u8(r) % 64;
    id.generation = fuzz_u8(r) % 8;
    if (k >= 250) { id.index = fuzz_u32(r); id.generation = fuzz_u32(r); }
    return id;
}
static rg_shape_id fuzz_shape_id(fuzz_reader *r, const script_state *st) {
    uint8_t k = fuzz_u8(r);
    rg_shape_id id = {0, 0};
    if (k < 200 && st->shape_count > 0) return st->shapes[k % st->shape_count].id;
    if (k < 220) return id;
    id.index = fuzz_u8(r) % 64;
    id.generation = fuzz_u8(r) % 8;
    if (k >= 250) { id.index = fuzz_u32(r); id.generation = fuzz_u32(r); }
    return id;
}

static uint32_t fuzz_bits(fuzz_reader *r) {
    static const uint32_t bits[8] = {0, 1, 2, 3, 0xFFFFFFFFu, 0xFFFFFFFEu, 0x80000000u, 5};
    uint8_t k = fuzz_u8(r);
    return k == 255 ? fuzz_u32(r) : bits[k % 8];
}
static int32_t fuzz_group(fuzz_reader *r) {
    uint8_t k = fuzz_u8(r);
    return k == 255 ? (int32_t)fuzz_u32(r) : (int32_t)(k % 5) - 2;
}

/* A shape def: the default, or one field from the fuzzer, filters, NULL (255) */
static const rg_shape_def *fuzz_shape_def(fuzz_reader *r, int wild, rg_shape_def *def) {
    uint8_t k = fuzz_u8(r);
    *def = rg_shape_default_def();
    if (k == 255) return NULL;
    if (k & 0x80) {
        rg_real x = fuzz_real(r, wild);
        switch (k % 8) {
        case 0: def->density = wild ? x : (rg_real)fabs((double)x) * 1000; break;
        case 1: def->restitution = x; break;
        case 2: def->static_friction = x; break;
        case 3: def->dynamic_friction = x; break;
        case 4: def->rolling_friction = x; break;
        case 5: def->spinning_friction = x; break;
        case 6: def->is_sensor = 1; break;
        default: def->cookie = 0; break;
        }
    }
    if (k & 0x40) {
        def->category_bits = fuzz_bits(r);
        def->mask_bits = fuzz_bits(r);
        def->group = fuzz_group(r);
    }
    return def;
}

/* Keeps shape `id` (added to `body`) in the table, or destroys it when the table is full. */
static void track_shape(script_state *st, rg_shape_id id, rg_body_id body, int mesh, int op) {
    tracked_shape *s;
    if (st->shape_count == MAX_SHAPES) {
        if (rg_shape_destroy(st->w, id) != RG_OK) fuzz_fail("destroying a new shape failed", op);
        return;
    }
    s = &st->shapes[st->shape_count++];
    s->id = id;
    s->body = body;
    s->mesh = mesh;
    s->destroyed = 0;
}

static void trace_def(const rg_shape_def *def) {
    if (!def) {
        trace(" def NULL");
        return;
    }
    trace(" def density %.9g restitution %.9g friction %.9g %.9g %.9g %.9g sensor %d filter %#x %#x %d cookie %d",
          (double)def->density, (double)def->restitution, (double)def->static_friction,
          (double)def->dynamic_friction, (double)def->rolling_friction, (double)def->spinning_friction,
          def->is_sensor, (unsigned)def->category_bits, (unsigned)def->mask_bits, (int)def->group,
          def->cookie == rg_shape_default_def().cookie);
}

/* ---- meshes ------------------------------------------------------------------------------------ */

typedef struct mesh_input {
    rg_vec3 v[MESH_VERTICES];
    int index[3 * MESH_TRIANGLES];
    int vertex_count, triangle_count;
    int null_vertices, null_indices;
} mesh_input;

/* A small mesh from the fuzzer: kind % 5 picks a height grid (1 to 4 cells a side, heights and
   the cell size from the fuzzer, some triangles turned over), a soup of up to 12 fuzzed vertices
   and triangles (indices out of range too), a closed box seen from outside or inside (convex or
   concave edges), a fan of slivers (heights down to 1e-7 of their size) or bad counts and NULL
   arrays. Then scaled (1e-4 to 1e14) and moved. */
static void fuzz_mesh_input(fuzz_reader *r, int wild, mesh_input *m) {
    uint8_t kind = fuzz_u8(r);
    int i, j, t;
    memset(m, 0, sizeof *m);
    switch (kind % 5) {
    case 0: {
        int nx = 1 + fuzz_u8(r) % 4, nz = 1 + fuzz_u8(r) % 4;
        double cell = fuzz_plain(r);
        uint8_t flips = (kind & 0x80) ? fuzz_u8(r) : 0;
        for (j = 0; j <= nz; ++j)
            for (i = 0; i <= nx; ++i) {
                double h = fuzz_plain(r) / 4;
                m->v[j * (nx + 1) + i] = rg_v3((rg_real)(i * cell), (rg_real)h, (rg_real)(j * cell));
            }
        m->vertex_count = (nx + 1) * (nz + 1);
        for (j = 0, t = 0; j < nz; ++j)
            for (i = 0; i < nx; ++i, t += 2) {
                int a = j * (nx + 1) + i, b = a + 1, c = a + nx + 1, d = c + 1;
                int *p = m->index + 3 * t;
                p[0] = a; p[1] = c; p[2] = b;       /* counter-clockwise from +y */
                p[3] = b; p[4] = c; p[5] = d;
                if (flips & (1u << (t / 2 % 8))) { p[1] = b; p[2] = c; }
            }
        m->triangle_count = t;
        break;
    }
    case 1: {
        m->vertex_count = 1 + fuzz_u8(r) % 12;
        m->triangle_count = 1 + fuzz_u8(r) % 12;
        for (i = 0; i < m->vertex_count; ++i) m->v[i] = fuzz_vec3(r, wild);
        for (i = 0; i < 3 * m->triangle_count; ++i) {
            uint8_t k = fuzz_u8(r);
            m->index[i] = k < 240 ? k % m->vertex_count : k < 248 ? m->vertex_count : -1;
        }
        break;
    }
    case 2: {
        static const int box[36] = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                                    2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
        rg_vec3 h = fuzz_vec3(r, 0);
        int inside = kind & 0x80;
        for (i = 0; i < 8; ++i)
            m->v[i] = rg_v3((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z);
        m->vertex_count = 8;
        m->triangle_count = 12;
        for (i = 0; i < 12; ++i) {
            m->index[3 * i] = box[3 * i];
            m->index[3 * i + 1] = box[3 * i + (inside ? 2 : 1)];
            m->index[3 * i + 2] = box[3 * i + (inside ? 1 : 2)];
        }
        break;
    }
    case 3: {
        int n = 1 + fuzz_u8(r) % 8;
        double length = fuzz_plain(r), height = fuzz_plain(r) * pow(10.0, -(double)(fuzz_u8(r) % 8));
        m->v[0] = rg_v3(0, 0, 0);
        for (i = 0; i <= n; ++i)
            m->v[1 + i] = rg_v3((rg_real)(length * (1 + 0.1 * i)), (rg_real)(height * (i & 1 ? 1 : -1)), (rg_real)(0.01 * i));
        m->vertex_count = n + 2;
        m->triangle_count = n;
        for (i = 0; i < n; ++i) {
            m->index[3 * i] = 0;
            m->index[3 * i + 1] = 2 + i;
            m->index[3 * i + 2] = 1 + i;
        }
        break;
    }
    default: {
        uint8_t k = fuzz_u8(r);
        m->vertex_count = 3;
        m->triangle_count = 1;
        m->v[1] = rg_v3(1, 0, 0);
        m->v[2] = rg_v3(0, 0, 1);
        m->index[0] = 0; m->index[1] = 2; m->index[2] = 1;
        switch (k % 6) {
        case 0: m->null_vertices = 1; break;
        case 1: m->null_indices = 1; break;
        case 2: m->vertex_count = -(int)(k / 8); break;
        case 3: m->triangle_count = -(int)(k / 8); break;
        case 4: m->v[(k / 8) % 3] = fuzz_vec3(r, 1); break;
        default: m->triangle_count = (k & 128) ? 0x7fffffff : 0; break;
        }
        return;   /* no scale: the call must be refused as it is */
    }
    }
    {
        static const double scales[8] = {1, 1, 1, 1, 1e-4, 1e4, 1e7, 1e14};
        uint8_t k = fuzz_u8(r);
        double scale = k == 255 ? fuzz_number(r) : scales[k % 8];
        rg_vec3 offset = fuzz_vec3(r, wild);
        for (i = 0; i < m->vertex_count; ++i)
            m->v[i] = rg_v3_add(rg_v3((rg_real)(m->v[i].x * scale), (rg_real)(m->v[i].y * scale),
                                      (rg_real)(m->v[i].z * scale)), offset);
    }
}

static int same_position(rg_vec3 a, rg_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

/* The half-edges of the kept triangles along the edge from position a to b: those running the
   same way, and the other way (with the triangle of the last one). */
static void count_half_edges(const rg_mesh *mesh, rg_vec3 a, rg_vec3 b, int *along, int *against, int *other) {
    int n = rg_mesh_triangle_count(mesh), t, k;
    *along = *against = 0;
    *other = -1;
    for (t = 0; t < n; ++t) {
        int idx[3];
        rg_mesh_triangle(mesh, t, idx);
        for (k = 0; k < 3; ++k) {
            rg_vec3 p = rg_mesh_vertex(mesh, idx[k]), q = rg_mesh_vertex(mesh, idx[(k + 1) % 3]);
            if (same_position(p, a) && same_position(q, b)) ++*along;
            if (same_position(p, b) && same_position(q, a)) {
                ++*against;
                *other = t;
            }
        }
    }
}

/* A built mesh against its input (see the top of the file). */
static void check_mesh(const rg_mesh *mesh, const mesh_input *in, int op) {
    int n = rg_mesh_triangle_count(mesh), t, k, j, found[MESH_TRIANGLES], total;
    rg_vec3 lo, hi;
    if (rg_mesh_vertex_count(mesh) != in->vertex_count || n < 1 || n > in->triangle_count)
        fuzz_fail("a mesh's counts", op);
    lo = hi = in->v[0];
    for (k = 1; k < in->vertex_count; ++k) {
        lo = rg_v3_min(lo, in->v[k]);
        hi = rg_v3_max(hi, in->v[k]);
    }
    for (t = 0; t < n; ++t) {
        int idx[3];
        double e[3][3], cross[3], length;
        rg_vec3 normal = rg_mesh_triangle_normal(mesh, t);
        unsigned active = rg_mesh_active_edges(mesh, t);
        if (!rg_mesh_triangle(mesh, t, idx)) fuzz_fail("rg_mesh_triangle refused a kept triangle", op);
        for (j = 0; j < in->triangle_count; ++j)
            if (in->index[3 * j] == idx[0] && in->index[3 * j + 1] == idx[1] && in->index[3 * j + 2] == idx[2]) break;
        if (j == in->triangle_count) fuzz_fail("a kept triangle is not one of the input's", op);
        for (k = 0; k < 3; ++k) {
            rg_vec3 p = in->v[idx[k]], q = in->v[idx[(k + 1) % 3]];
            e[k][0] = (double)q.x - (double)p.x;
            e[k][1] = (double)q.y - (double)p.y;
            e[k][2] = (double)q.z - (double)p.z;
        }
        length = fabs((double)rg_v3_length(normal) - 1);
        if (!(length < 1e-5)) fuzz_fail("a triangle normal not unit", op);
        for (k = 0; k < 3; ++k) {
            double along = (double)normal.x * e[k][0] + (double)normal.y * e[k][1] + (double)normal.z * e[k][2];
            double edge = sqrt(e[k][0] * e[k][0] + e[k][1] * e[k][1] + e[k][2] * e[k][2]);
            if (!(fabs(along) <= 1e-5 * edge)) fuzz_fail("a triangle normal not across its edges", op);
        }
        cross[0] = e[0][1] * e[1][2] - e[0][2] * e[1][1];
        cross[1] = e[0][2] * e[1][0] - e[0][0] * e[1][2];
        cross[2] = e[0][0] * e[1][1] - e[0][1] * e[1][0];
        if (!((double)normal.x * cross[0] + (double)normal.y * cross[1] + (double)normal.z * cross[2] > 0))
            fuzz_fail("a triangle normal on its clockwise side", op);
        if (active > 7) fuzz_fail("active edge bits beyond the three edges", op);
        for (k = 0; k < 3; ++k) {
            int along, against, other;
            rg_vec3 a = in->v[idx[k]], b = in->v[idx[(k + 1) % 3]];
            count_half_edges(mesh, a, b, &along, &against, &other);
            if ((along != 1 || against != 1) && !(active & (1u << k))) fuzz_fail("an unshared edge is inactive", op);
            if (along == 1 && against == 1 && (active & (1u << k)) &&
                rg_v3_dot(normal, rg_mesh_triangle_normal(mesh, other)) > (rg_real)0.9999)
                fuzz_fail("an edge between coplanar triangles is active", op);
        }
    }
    total = rg_mesh_query_box(mesh, lo, hi, found, MESH_TRIANGLES);
    if (total != n) fuzz_fail("a query of the mesh's box missed triangles", op);
    for (t = 0; t < n; ++t)
        if (found[t] != t) fuzz_fail("a query's triangles out of order", op);
}

/* one script: returns a hash of the states after every step and at the end */
static uint64_t run_script(const uint8_t *data, size_t size) {
    fuzz_reader r;
    script_state st;
    rg_world_def def = rg_world_default_def();
    rg_result result = RG_OK;
    uint8_t flags;
    int op;
    uint64_t trail = 0;
    memset(&st, 0, sizeof st);
    r.data = data; r.size = size; r.at = 0;
    flags = fuzz_u8(&r);
    /* the world def: mostly the default, sometimes one field from the fuzzer */
    if (flags & 1) {
        uint8_t field = fuzz_u8(&r);
        switch (field % 8) {
        case 0: def.gravity = fuzz_vec3(&r, 1); break;
        case 1: def.collision_iterations = (int)(int8_t)fuzz_u8(&r) * 64; break;
        case 2: def.contact_iterations = (int)(int8_t)fuzz_u8(&r); break;
        case 3: def.shock_iterations = (int)(int8_t)fuzz_u8(&r) % 8; break;
        case 4: def.contact_tolerance = (rg_real)fuzz_number(&r); break;
        case 5: def.contact_margin = (rg_real)fuzz_number(&r); break;
        case 6: def.random_seed = fuzz_u32(&r); break;
        default: def.cookie = (int)fuzz_u32(&r); break;
        }
    }
    if (def.collision_iterations > 64) def.collision_iterations = 64;   /* keep an input fast */
    if (def.contact_iterations > 64) def.contact_iterations = 64;
    st.w = rg_world_create((flags & 2) && (flags & 4) ? NULL : &def, &result);
    /* the def in the trace too: a fuzzed gravity of 1e15 set there was behind 21 of 22 inputs
       that one campaign found, and a trace without it read as the default world */
    trace("world: gravity (%.9g %.9g %.9g), iterations %d %d %d, tolerance %.9g, margin %.9g, seed %llu%s -> %s\n",
          (double)def.gravity.x, (double)def.gravity.y, (double)def.gravity.z, def.collision_iterations,
          def.contact_iterations, def.shock_iterations, (double)def.contact_tolerance, (double)def.contact_margin,
          (unsigned long long)def.random_seed, (flags & 2) && (flags & 4) ? " (NULL def)" : "", rg_result_string(result));
    if ((st.w == NULL) != (result != RG_OK)) fuzz_fail("rg_world_create: result code disagrees with the world", -1);
    /* hulls: a unit cube, a plank, a tiny and a large box (these must build) */
    st.hulls[0] = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    st.hulls[1] = rg_hull_create_box(rg_v3(2, 0.1f, 0.5f), NULL);
    st.hulls[2] = rg_hull_create_box(rg_v3(0.001f, 0.002f, 0.003f), NULL);
    st.hulls[3] = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL);
    for (op = 0; op < HULLS; ++op)
        if (!st.hulls[op]) fuzz_fail("a box did not build", -1);
    for (op = 0; op < MAX_OPS && !fuzz_done(&r); ++op) {
        uint8_t code = fuzz_u8(&r), wild = fuzz_u8(&r) < 64;
        rg_world *w = (fuzz_u8(&r) == 255) ? NULL : st.w;        /* now and then a NULL world */
        uint64_t before = st.w ? world_hash(&st) : 0;
        int kind = code % OP_CODES;
        int refused = 0, not_taken = 0;   /* not_taken: an operation that made no world call */
        int world_call = 1;               /* a call that fails on a NULL world */
        rg_result res = RG_OK;
        if (kind > OP_SHAPE_QUERY) kind = OP_STEP;
        switch (kind) {
        case OP_CREATE: case OP_CREATE_TOO: {
            rg_body_def bd = rg_body_default_def();
            uint8_t what = fuzz_u8(&r);
            rg_body_id id;
            bd.type = (rg_body_type)(what % 3 == 0 ? RG_BODY_STATIC : what % 3 == 1 ? RG_BODY_KINEMATIC : RG_BODY_DYNAMIC);
            if (what == 255) bd.type = (rg_body_type)(int)(int8_t)fuzz_u8(&r);
            bd.hull = (what & 8) && (what & 16) ? NULL : st.hulls[(what >> 5) % HULLS];
            bd.position = fuzz_vec3(&r, wild);
            bd.orientation = fuzz_quat(&r, wild);
            bd.linear_velocity = fuzz_vec3(&r, wild);
            bd.angular_velocity = fuzz_vec3(&r, wild);
            if (wild) {
                uint8_t field = fuzz_u8(&r);
                rg_real x = (rg_real)fuzz_number(&r);
                switch (field % 8) {
                case 0: bd.density = x; break;
                case 1: bd.mass = x; break;
                case 2: bd.restitution = x; break;
                case 3: bd.static_friction = x; break;
                case 4: bd.dynamic_friction = x; break;
                case 5: bd.rolling_friction = x; break;
                case 6: bd.spinning_friction = x; break;
                default: bd.mass = (rg_real)fabs(fuzz_plain(&r)); break;
                }
            }
            id = rg_body_create(w, (what & 4) && (what & 2) && (what & 1) ? NULL : &bd, &res);
            trace("create type %d hull %d at (%.9g %.9g %.9g) q (%.9g %.9g %.9g %.9g) v (%.9g %.9g %.9g) w (%.9g %.9g %.9g) density %.9g mass %.9g "
                  "restitution %.9g friction %.9g %.9g %.9g %.9g -> #%u", (int)bd.type,
                  bd.hull == NULL ? -1 : (int)((what >> 5) % HULLS), (double)bd.position.x, (double)bd.position.y,
                  (double)bd.position.z, (double)bd.orientation.x, (double)bd.orientation.y, (double)bd.orientation.z,
                  (double)bd.orientation.w, (double)bd.linear_velocity.x, (double)bd.linear_velocity.y,
                  (double)bd.linear_velocity.z, (double)bd.angular_velocity.x, (double)bd.angular_velocity.y,
                  (double)bd.angular_velocity.z, (double)bd.density, (double)bd.mass, (double)bd.restitution,
                  (double)bd.static_friction, (double)bd.dynamic_friction, (double)bd.rolling_friction,
                  (double)bd.spinning_friction, id.index);
            if ((id.generation == 0) != (res != RG_OK)) fuzz_fail("rg_body_create: result code disagrees with the id", op);
            refused = res != RG_OK;
            if (!refused) {
                rg_shape_id first;
                int shapes = rg_body_shapes(st.w, id, &first, 1);
                ++st.live;
                if (shapes != (bd.hull != NULL)) fuzz_fail("a new body's shapes are not its hull", op);
                if (st.id_count < MAX_IDS && (!shapes || st.shape_count < MAX_SHAPES)) {
                    st.ids[st.id_count++] = id;
                    if (shapes) track_shape(&st, first, id, -1, op);
                } else if (rg_body_destroy(st.w, id) != RG_OK) {
                    fuzz_fail("destroying a new body failed", op);
                } else {
                    --st.live;
                }
            }
            break;
        }
        case OP_DESTROY: {
            rg_body_id id = fuzz_id(&r, &st);
            int valid = rg_body_is_valid(w, id);
            res = rg_body_destroy(w, id);
            trace("destroy #%u/%u", id.index, id.generation);
            if (valid != (res == RG_OK)) fuzz_fail("rg_body_destroy: result disagrees with rg_body_is_valid", op);
            if (res == RG_OK) --st.live;
            break;
        }
        case OP_TRANSFORM: {
            rg_body_id id = fuzz_id(&r, &st);
            rg_vec3 p = fuzz_vec3(&r, wild);
            rg_quat q = fuzz_quat(&r, wild);
            res = rg_body_set_transform(w, id, p, q);
            trace("set_transform #%u (%.9g %.9g %.9g) (%.9g %.9g %.9g %.9g)", id.index, (double)p.x, (double)p.y, (double)p.z,
                  (double)q.x, (double)q.y, (double)q.z, (double)q.w);
            break;
        }
        case OP_LINEAR: {
            rg_body_id id = fuzz_id(&r, &st);
            rg_vec3 v = fuzz_vec3(&r, wild);
            res = rg_body_set_linear_velocity(w, id, v);
            trace("set_linear_velocity #%u (%.9g %.9g %.9g)", id.index, (double)v.x, (double)v.y, (double)v.z);
            break;
        }
        case OP_ANGULAR: {
            rg_body_id id = fuzz_id(&r, &st);
            rg_vec3 v = fuzz_vec3(&r, wild);
            res = rg_body_set_angular_velocity(w, id, v);
            trace("set_angular_velocity #%u (%.9g %.9g %.9g)", id.index, (double)v.x, (double)v.y, (double)v.z);
            break;
        }
        case OP_IMPULSE: {
            rg_body_id id = fuzz_id(&r, &st);
            rg_vec3 impulse = fuzz_vec3(&r, wild), arm = fuzz_vec3(&r, wild);
            res = rg_body_apply_impulse(w, id, impulse, rg_v3_add(rg_body_center_of_mass(w, id), arm));
            trace("apply_impulse #%u (%.9g %.9g %.9g) at com + (%.9g %.9g %.9g)", id.index, (double)impulse.x, (double)impulse.y,
                  (double)impulse.z, (double)arm.x, (double)arm.y, (double)arm.z);
            break;
        }
        case OP_FORCE: {
            rg_body_id id = fuzz_id(&r, &st);
            rg_vec3 force = fuzz_vec3(&r, wild), arm = fuzz_vec3(&r, wild);
            res = rg_body_apply_force(w, id, force, rg_v3_add(rg_body_center_of_mass(w, id), arm));
            trace("apply_force #%u (%.9g %.9g %.9g) at com + (%.9g %.9g %.9g)", id.index, (double)force.x, (double)force.y,
                  (double)force.z, (double)arm.x, (double)arm.y, (double)arm.z);
            break;
        }
        case OP_TORQUE: {
            rg_body_id id = fuzz_id(&r, &st);
            rg_vec3 t = fuzz_vec3(&r, wild);
            res = rg_body_apply_torque(w, id, t);
            trace("apply_torque #%u (%.9g %.9g %.9g)", id.index, (double)t.x, (double)t.y, (double)t.z);
            break;
        }
        case OP_GRAVITY: {
            rg_vec3 g = fuzz_vec3(&r, wild);
            res = rg_world_set_gravity(w, g);
            trace("set_gravity (%.9g %.9g %.9g)", (double)g.x, (double)g.y, (double)g.z);
            break;
        }
        case OP_QUERY: {                                          /* queries: must not change anything */
            rg_contact contacts[8];
            int capacity = (int)(int8_t)fuzz_u8(&r) % 9, total;
            rg_vec3 lo, hi;
            rg_body_id id = fuzz_id(&r, &st);
            world_call = 0;
            total = rg_world_contacts(w, (capacity & 1) ? NULL : contacts, capacity);
            if (total < 0 || (w && total != rg_world_contacts(w, NULL, 0))) fuzz_fail("rg_world_contacts total", op);
            (void)rg_world_get_stats(w);
            rg_body_aabb(w, id, (capacity & 2) ? NULL : &lo, &hi);
            (void)rg_body_velocity_at_point(w, id, fuzz_vec3(&r, wild));
            (void)rg_body_kinetic_energy(w, id);
            (void)rg_body_angular_momentum(w, id);
            (void)rg_body_inverse_inertia(w, id);
            break;
        }
        case OP_SPHERE: {
            rg_body_id body = fuzz_id(&r, &st);
            rg_shape_def sd;
            const rg_shape_def *d = fuzz_shape_def(&r, wild, &sd);
            rg_vec3 c = fuzz_vec3(&r, wild);
            rg_real radius = wild ? (rg_real)fuzz_number(&r) : (rg_real)fabs(fuzz_plain(&r));
            rg_shape_id id = rg_body_add_sphere(w, body, d, c, radius, &res);
            trace("add_sphere #%u (%.9g %.9g %.9g) radius %.9g", body.index, (double)c.x, (double)c.y, (double)c.z,
                  (double)radius);
            trace_def(d);
            if ((id.generation == 0) != (res != RG_OK)) fuzz_fail("rg_body_add_sphere: result disagrees with the id", op);
            if (res == RG_OK) track_shape(&st, id, body, -1, op);
            break;
        }
        case OP_CAPSULE: {
            rg_body_id body = fuzz_id(&r, &st);
            rg_shape_def sd;
            const rg_shape_def *d = fuzz_shape_def(&r, wild, &sd);
            rg_vec3 a = fuzz_vec3(&r, wild), b = fuzz_vec3(&r, wild);
            rg_real radius = wild ? (rg_real)fuzz_number(&r) : (rg_real)fabs(fuzz_plain(&r));
            rg_shape_id id = rg_body_add_capsule(w, body, d, a, b, radius, &res);
            trace("add_capsule #%u (%.9g %.9g %.9g) (%.9g %.9g %.9g) radius %.9g", body.index, (double)a.x, (double)a.y,
                  (double)a.z, (double)b.x, (double)b.y, (double)b.z, (double)radius);
            trace_def(d);
            if ((id.generation == 0) != (res != RG_OK)) fuzz_fail("rg_body_add_capsule: result disagrees with the id", op);
            if (res == RG_OK) track_shape(&st, id, body, -1, op);
            break;
        }
        case OP_HULL: {
            rg_body_id body = fuzz_id(&r, &st);
            rg_shape_def sd;
            const rg_shape_def *d = fuzz_shape_def(&r, wild, &sd);
            uint8_t which = fuzz_u8(&r);
            const rg_hull *hull = which == 255 ? NULL : st.hulls[which % HULLS];
            rg_vec3 p = fuzz_vec3(&r, wild);
            rg_quat q = fuzz_quat(&r, wild);
            rg_shape_id id = rg_body_add_hull(w, body, d, hull, p, q, &res);
            trace("add_hull #%u hull %d at (%.9g %.9g %.9g) q (%.9g %.9g %.9g %.9g)", body.index,
                  hull ? which % HULLS : -1, (double)p.x, (double)p.y, (double)p.z, (double)q.x, (double)q.y,
                  (double)q.z, (double)q.w);
            trace_def(d);
            if ((id.generation == 0) != (res != RG_OK)) fuzz_fail("rg_body_add_hull: result disagrees with the id", op);
            if (res == RG_OK) track_shape(&st, id, body, -1, op);
            break;
        }
        case OP_DESTROY_SHAPE: {
            rg_shape_id id = fuzz_shape_id(&r, &st);
            int valid = rg_shape_is_valid(w, id), i;
            res = rg_shape_destroy(w, id);
            trace("destroy_shape %u/%u", id.index, id.generation);
            if (res == RG_OK && !valid) fuzz_fail("rg_shape_destroy of an invalid shape succeeded", op);
            if (res == RG_OK)
                for (i = 0; i < st.shape_count; ++i)
                    if (st.shapes[i].id.index == id.index && st.shapes[i].id.generation == id.generation)
                        st.shapes[i].destroyed = 1;
            break;
        }
        case OP_FILTER: {
            rg_shape_id id = fuzz_shape_id(&r, &st);
            uint32_t category = fuzz_bits(&r), mask = fuzz_bits(&r);
            int32_t group = fuzz_group(&r);
            int valid = rg_shape_is_valid(w, id);
            res = rg_shape_set_filter(w, id, category, mask, group);
            trace("set_filter %u/%u %#x %#x %d", id.index, id.generation, (unsigned)category, (unsigned)mask, (int)group);
            if (valid != (res == RG_OK)) fuzz_fail("rg_shape_set_filter: result disagrees with rg_shape_is_valid", op);
            break;
        }
        case OP_MESH: {
            static mesh_input in;
            int slot = fuzz_u8(&r) % MESHES;
            rg_mesh *mesh;
            world_call = 0;
            fuzz_mesh_input(&r, wild, &in);
            mesh = rg_mesh_create(in.null_vertices ? NULL : in.v, in.vertex_count, in.null_indices ? NULL : in.index,
                                  in.triangle_count, &res);
            trace("mesh_create %d vertices, %d triangles%s%s -> %d triangles", in.vertex_count, in.triangle_count,
                  in.null_vertices ? ", NULL vertices" : "", in.null_indices ? ", NULL indices" : "",
                  rg_mesh_triangle_count(mesh));
            if (verbose) {
                int i;
                for (i = 0; i < in.vertex_count && !in.null_vertices; ++i)
                    trace(" v%d (%.9g %.9g %.9g)", i, (double)in.v[i].x, (double)in.v[i].y, (double)in.v[i].z);
                for (i = 0; i < in.triangle_count && i < MESH_TRIANGLES && !in.null_indices; ++i)
                    trace(" t%d (%d %d %d)", i, in.index[3 * i], in.index[3 * i + 1], in.index[3 * i + 2]);
            }
            if ((mesh == NULL) != (res != RG_OK)) fuzz_fail("rg_mesh_create: result disagrees with the mesh", op);
            if (mesh) {
                check_mesh(mesh, &in, op);
                if (st.meshes[slot]) rg_mesh_destroy(mesh);
                else st.meshes[slot] = mesh;
            }
            break;
        }
        case OP_ADD_MESH: {
            rg_body_id body = fuzz_id(&r, &st);
            uint8_t which = fuzz_u8(&r);
            rg_shape_def sd;
            const rg_shape_def *d = fuzz_shape_def(&r, wild, &sd);
            const rg_mesh *mesh = which == 255 ? NULL : st.meshes[which % MESHES];
            int dynamic = rg_body_is_valid(w, body) && rg_body_get_type(w, body) == RG_BODY_DYNAMIC;
            rg_shape_id id = rg_body_add_mesh(w, body, d, mesh, &res);
            trace("add_mesh #%u mesh %d", body.index, mesh ? which % MESHES : -1);
            trace_def(d);
            if ((id.generation == 0) != (res != RG_OK)) fuzz_fail("rg_body_add_mesh: result disagrees with the id", op);
            if (dynamic && res == RG_OK) fuzz_fail("a mesh was added to a dynamic body", op);
            if (res == RG_OK) track_shape(&st, id, body, which % MESHES, op);
            break;
        }
        case OP_DESTROY_MESH: {
            uint8_t which = fuzz_u8(&r);
            int slot = which % MESHES, i;
            world_call = 0;
            not_taken = 1;
            if (!st.meshes[slot]) break;
            if (which & 0x80 && st.w)               /* its shapes first */
                for (i = 0; i < st.shape_count; ++i) {
                    tracked_shape *s = &st.shapes[i];
                    if (s->mesh != slot || !shape_is_live(&st, s)) continue;
                    if (rg_shape_destroy(st.w, s->id) != RG_OK) fuzz_fail("a mesh shape could not be destroyed", op);
                    s->destroyed = 1;
                    trace("destroy_shape %u/%u (mesh %d)\n", s->id.index, s->id.generation, slot);
                }
            if (st.w && mesh_in_use(&st, slot)) break;
            trace("mesh_destroy %d\n", slot);
            rg_mesh_destroy(st.meshes[slot]);
            st.meshes[slot] = NULL;
            break;
        }
        case OP_SHAPE_QUERY: {                                    /* queries: must not change anything */
            rg_shape_id id = fuzz_shape_id(&r, &st), list[4];
            rg_body_id body = fuzz_id(&r, &st);
            uint8_t k = fuzz_u8(&r);
            rg_vec3 a, b, lo = fuzz_vec3(&r, wild), hi = fuzz_vec3(&r, wild);
            rg_quat q;
            rg_real radius;
            int found[MESH_TRIANGLES], total, i;
            const rg_mesh *mesh = st.meshes[k % MESHES];
            world_call = 0;
            (void)rg_shape_get_type(w, id);
            (void)rg_shape_body(w, id);
            (void)rg_shape_user_data(w, id);
            (void)rg_shape_is_sensor(w, id);
            (void)rg_shape_get_sphere(w, id, (k & 8) ? NULL : &a, &radius);
            (void)rg_shape_get_capsule(w, id, &a, (k & 8) ? NULL : &b, &radius);
            (void)rg_shape_get_hull(w, id, &a, (k & 8) ? NULL : &q);
            (void)rg_shape_get_mesh(w, id);
            rg_shape_aabb(w, id, (k & 16) ? NULL : &a, &b);
            total = rg_body_shapes(w, body, (k & 32) ? NULL : list, (int)(k % 5));
            if (total < 0 || total != rg_body_shapes(w, body, NULL, 0)) fuzz_fail("rg_body_shapes total", op);
            total = rg_mesh_query_box(mesh, lo, hi, (k & 64) ? NULL : found, (k & 64) ? 0 : MESH_TRIANGLES);
            if (total < 0 || total > rg_mesh_triangle_count(mesh)) fuzz_fail("rg_mesh_query_box total", op);
            for (i = 1; i < total && !(k & 64); ++i)
                if (found[i] <= found[i - 1]) fuzz_fail("rg_mesh_query_box not ascending", op);
            break;
        }
        default: {                                                /* step */
            uint8_t k = fuzz_u8(&r);
            size_t saved_size;
            void *saved;
            rg_real dt = k < 160 ? (rg_real)(1.0 / 60) : k < 200 ? (rg_real)(fabs(fuzz_plain(&r)) / 8)
                                                               : (rg_real)fuzz_number(&r);
            if (st.steps >= MAX_STEPS) {
                not_taken = 1;
                break;
            }
            /* with flags bit 8, each step is also taken again from a snapshot saved before it
               (rollback: the same result and state), and a copy with one bit flipped must be
               refused with the world unchanged */
            saved_size = w && (flags & 8) ? rg_world_snapshot_size(w) : 0;
            saved = saved_size ? malloc(saved_size) : NULL;
            if (saved && rg_world_snapshot_save(w, saved, saved_size) != RG_OK) fuzz_fail("rg_world_snapshot_save refused", op);
            res = rg_world_step(w, dt);
            trace("step %.9g", (double)dt);
            if (saved) {
                uint64_t after = world_hash(&st);
                if (rg_world_snapshot_load(w, saved, saved_size) != RG_OK) fuzz_fail("rg_world_snapshot_load refused its own snapshot", op);
                if (rg_world_step(w, dt) != res || world_hash(&st) != after) fuzz_fail("the step after a snapshot load differs", op);
                ((unsigned char *)saved)[(size_t)k * 7919u % saved_size] ^= (unsigned char)(1u << (k % 8));
                if (rg_world_snapshot_load(w, saved, saved_size) == RG_OK || world_hash(&st) != after)
                    fuzz_fail("a corrupted snapshot was loaded", op);
                free(saved);
            }
            if (res == RG_OK) {
                ++st.steps;
                if (!world_is_finite(&st)) fuzz_fail("a step made a body non-finite", op);
                check_contacts(&st, op);
                trail = (trail ^ world_hash(&st)) * 1099511628211ull;
            }
            break;
        }
        }
        if (world_call) refused = res != RG_OK;
        if (world_call && !not_taken) trace("%s: %s\n", w ? "" : " (NULL world)", rg_result_string(res));
        else if (kind == OP_MESH) trace(": %s\n", rg_result_string(res));
        if (!w && res == RG_OK && world_call && !not_taken) fuzz_fail("a call on a NULL world succeeded", op);
        if (refused && st.w && world_hash(&st) != before) fuzz_fail("a refused call changed the world", op);
        if (st.w && rg_world_get_stats(st.w).body_count != st.live) fuzz_fail("body count", op);
        if (st.w) check_shapes(&st, op);
    }
    trail ^= st.w ? world_hash(&st) : 0;
    rg_world_destroy(st.w);
    for (op = 0; op < HULLS; ++op) rg_hull_destroy(st.hulls[op]);
    for (op = 0; op < MESHES; ++op) rg_mesh_destroy(st.meshes[op]);   /* after the world: it may still use them */
    return trail;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint64_t first = run_script(data, size), second;
    if (counting_allocator.live_bytes != 0 || counting_allocator.live_blocks != 0)
        fuzz_fail("memory left allocated after the world, hulls and meshes were destroyed", -1);
    second = run_script(data, size);
    if (first != second) fuzz_fail("the same script gave two different states", -1);
    return 0;
}

#ifdef FUZZ_SEED_MAIN
/* The seed scripts, byte by byte. */
typedef struct seed_buffer {
    uint8_t bytes[4096];
    size_t n;
} seed_buffer;
static void put(seed_buffer *s, int byte) { s->bytes[s->n++] = (uint8_t)byte; }
/* a plain number in sixteenths: selector 0, then the value */
static void put_plain(seed_buffer *s, int sixteenths) { put(s, 0); put(s, sixteenths); }
static void put_v3(seed_buffer *s, int x, int y, int z) { put_plain(s, x); put_plain(s, y); put_plain(s, z); }
static void put_op(seed_buffer *s, int code) { put(s, code); put(s, 100); put(s, 0); }   /* not wild, the world */
static void put_turn(seed_buffer *s, int angle) { put_v3(s, 0, 16, 0); put_plain(s, angle); }   /* about +y */
/* create: `what` picks type and hull (see the harness), then pose and velocities */
static void put_create(seed_buffer *s, int what, int x, int y, int z, int angle, int spin) {
    put_op(s, OP_CREATE);
    put(s, what);
    put_v3(s, x, y, z);
    put_turn(s, angle);
    put_v3(s, 0, 0, 0);
    put_v3(s, 0, 0, spin);
}
static void put_steps(seed_buffer *s, int count) {
    int i;
    for (i = 0; i < count; ++i) { put_op(s, OP_STEP); put(s, 0); }
}
int main(int argc, char **argv) {
    static seed_buffer s;
    int i;
    if (argc < 2) { fprintf(stderr, "usage: %s directory\n", argv[0]); return 1; }
    /* default world; a static ground slab, a stack of 5 cubes, 20 steps */
    put(&s, 0);
    put_create(&s, 3 << 5, 0, -8, 0, 0, 0);                    /* static (3 % 3), hull 3: y = -0.5 */
    for (i = 0; i < 5; ++i) put_create(&s, 2, i, 8 + 16 * i, 0, i, i);   /* dynamic, hull 0 */
    put_steps(&s, 20);
    fuzz_write_seed(argv[1], "stack", s.bytes, s.n);
    /* the same with pushes, a destroy, a re-create and queries between the steps */
    put_op(&s, OP_IMPULSE); put(&s, 2); put_v3(&s, 16, 0, 0); put_v3(&s, 0, 8, 0);
    put_op(&s, OP_DESTROY); put(&s, 3);
    put_op(&s, OP_QUERY); put(&s, 4); put(&s, 1); put_v3(&s, 0, 0, 0);
    put_steps(&s, 4);
    fuzz_write_seed(argv[1], "stack_pushed", s.bytes, s.n);

    /* a 4 x 4 grid mesh of 1 m cells on a static body without a hull (what 24: static, no hull);
       a ball, a capsule and a compound of two placed cubes fall on it */
    s.n = 0;
    put(&s, 0);
    put_create(&s, 24, -32, 0, -32, 0, 0);                     /* #0 at (-2, 0, -2) */
    put_op(&s, OP_MESH); put(&s, 0);                           /* slot 0 */
    put(&s, 0); put(&s, 3); put(&s, 3); put_plain(&s, 16);     /* grid 4 x 4, cell 1 */
    for (i = 0; i < 25; ++i) put_plain(&s, (i * 7) % 5 - 2);   /* heights of a few cm */
    put(&s, 0); put_v3(&s, 0, 0, 0);                           /* scale 1, no offset */
    put_op(&s, OP_ADD_MESH); put(&s, 0); put(&s, 0); put(&s, 0);
    put_create(&s, 26, 0, 24, 0, 0, 0);                        /* #1 dynamic, no hull */
    put_op(&s, OP_SPHERE); put(&s, 1); put(&s, 0); put_v3(&s, 0, 0, 0); put_plain(&s, 6);
    put_create(&s, 26, 16, 32, 0, 4, 0);                       /* #2 */
    put_op(&s, OP_CAPSULE); put(&s, 2); put(&s, 0); put_v3(&s, -6, 0, 0); put_v3(&s, 6, 0, 0); put_plain(&s, 4);
    put_create(&s, 26, -16, 40, 8, 0, 8);                      /* #3 a compound */
    put_op(&s, OP_HULL); put(&s, 3); put(&s, 0); put(&s, 0); put_v3(&s, -8, 0, 0); put_turn(&s, 0);
    put_op(&s, OP_HULL); put(&s, 3); put(&s, 0); put(&s, 0); put_v3(&s, 8, 4, 0); put_turn(&s, 6);
    put_op(&s, OP_SPHERE); put(&s, 3); put(&s, 0x80 | 6); put_plain(&s, 0); put_v3(&s, 0, 12, 0); put_plain(&s, 4);
    put_steps(&s, 16);
    fuzz_write_seed(argv[1], "mesh_grid", s.bytes, s.n);
    /* then filters, a shape destroyed, the mesh destroyed with its shape, more steps */
    put_op(&s, OP_FILTER); put(&s, 1); put(&s, 2); put(&s, 2); put(&s, 2);   /* the sphere: category 2 */
    put_op(&s, OP_DESTROY_SHAPE); put(&s, 3);                  /* the compound's first cube */
    put_op(&s, OP_SHAPE_QUERY); put(&s, 2); put(&s, 3); put(&s, 4); put_v3(&s, -16, -16, -16); put_v3(&s, 16, 16, 16);
    put_steps(&s, 2);
    put_op(&s, OP_DESTROY_MESH); put(&s, 0x80);
    put_steps(&s, 2);
    fuzz_write_seed(argv[1], "mesh_grid_changed", s.bytes, s.n);

    /* a kinematic box room (a closed box seen from inside) moving, a dynamic body refused its
       mesh, a cube and a ball inside */
    s.n = 0;
    put(&s, 0);
    put_create(&s, 25, 0, 0, 0, 0, 0);                         /* #0 kinematic (25 % 3), no hull */
    put_op(&s, OP_MESH); put(&s, 1);
    put(&s, 0x84); put_v3(&s, 48, 32, 48);                     /* room 6 x 4 x 6: kind 2, inside */
    put(&s, 0); put_v3(&s, 0, 0, 0);
    put_op(&s, OP_ADD_MESH); put(&s, 0); put(&s, 1); put(&s, 0);
    put_op(&s, OP_LINEAR); put(&s, 0); put_v3(&s, 4, 0, 0);
    put_create(&s, 2, 0, 0, 0, 3, 0);                          /* #1 dynamic cube */
    put_op(&s, OP_ADD_MESH); put(&s, 1); put(&s, 1); put(&s, 0);   /* refused */
    put_op(&s, OP_SPHERE); put(&s, 1); put(&s, 0); put_v3(&s, 0, 16, 0); put_plain(&s, 4);
    put_steps(&s, 20);
    fuzz_write_seed(argv[1], "mesh_room", s.bytes, s.n);
    return 0;
}
#endif
