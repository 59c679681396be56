/* libFuzzer harness: a script of world calls with arguments from the fuzzer (NaN, infinities,
   limits and just beyond them, stale and fabricated ids, NULL worlds, defs and outputs).
   Checked after every call:
     - no crash, no sanitizer report, no allocation left behind (the counting allocator must be
       back to zero after the world and hulls are gone);
     - a refused call returns a code and changes nothing visible (state hash before and after);
     - an accepted step leaves every body finite;
     - the body count matches the creations and destructions that succeeded;
   and for the whole script: running it again on a second world gives the same state hash
   (determinism: no uninitialised memory, no pointer-order dependence).
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
   Build: clang -fsanitize=fuzzer,address,undefined (see `make fuzz`). */
#include "../programs/counting_allocator.h"
#define RIGID_IMPLEMENTATION
#include "rigid.h"
#include "fuzz_common.h"
#include "../programs/state_hash.h"
#include <stdarg.h>

enum { MAX_IDS = 48, MAX_OPS = 96, MAX_STEPS = 24, HULLS = 4 };

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

typedef struct script_state {
    rg_world *w;
    rg_hull *hulls[HULLS];
    rg_body_id ids[MAX_IDS];
    int id_count, live, steps;
} script_state;

static uint64_t world_hash(const script_state *st) {
    hash64 s = HASH64_INIT;
    rg_world_stats stats = rg_world_get_stats(st->w);
    int i;
    hash_vec3(&s, rg_world_gravity(st->w));
    hash_bytes(&s, &stats.body_count, sizeof stats.body_count);
    for (i = 0; i < st->id_count; ++i) {
        rg_body_id id = st->ids[i];
        rg_quat q = rg_body_orientation(st->w, id);
        rg_vec3 lo, hi;
        int valid = rg_body_is_valid(st->w, id);
        hash_bytes(&s, &valid, sizeof valid);
        hash_vec3(&s, rg_body_position(st->w, id));
        hash_quat(&s, q);
        hash_vec3(&s, rg_body_linear_velocity(st->w, id));
        hash_vec3(&s, rg_body_angular_velocity(st->w, id));
        hash_real(&s, rg_body_mass(st->w, id));
        rg_body_aabb(st->w, id, &lo, &hi);
        hash_vec3(&s, lo);
        hash_vec3(&s, hi);
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

/* one script: returns the final hash */
static uint64_t run_script(const uint8_t *data, size_t size) {
    fuzz_reader r;
    script_state st;
    rg_world_def def = rg_world_default_def();
    rg_result result = RG_OK;
    uint8_t flags;
    int op;
    uint64_t final_hash;
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
        int refused = 0, not_taken = 0;   /* not_taken: a step op that did not call rg_world_step */
        rg_result res = RG_OK;
        switch (code % 12) {
        case 0: case 1: {                                         /* create a body */
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
                ++st.live;
                if (st.id_count < MAX_IDS) st.ids[st.id_count++] = id;
                else if (rg_body_destroy(st.w, id) != RG_OK) fuzz_fail("destroying a new body failed", op);
                else --st.live;
            }
            break;
        }
        case 2: {                                                 /* destroy */
            rg_body_id id = fuzz_id(&r, &st);
            int valid = rg_body_is_valid(w, id);
            res = rg_body_destroy(w, id);
            trace("destroy #%u/%u", id.index, id.generation);
            if (valid != (res == RG_OK)) fuzz_fail("rg_body_destroy: result disagrees with rg_body_is_valid", op);
            refused = res != RG_OK;
            if (!refused) --st.live;
            break;
        }
        case 3: {
            rg_body_id id = fuzz_id(&r, &st);
            rg_vec3 p = fuzz_vec3(&r, wild);
            rg_quat q = fuzz_quat(&r, wild);
            res = rg_body_set_transform(w, id, p, q);
            trace("set_transform #%u (%.9g %.9g %.9g) (%.9g %.9g %.9g %.9g)", id.index, (double)p.x, (double)p.y, (double)p.z,
                  (double)q.x, (double)q.y, (double)q.z, (double)q.w);
            break;
        }
        case 4: {
            rg_body_id id = fuzz_id(&r, &st);
            rg_vec3 v = fuzz_vec3(&r, wild);
            res = rg_body_set_linear_velocity(w, id, v);
            trace("set_linear_velocity #%u (%.9g %.9g %.9g)", id.index, (double)v.x, (double)v.y, (double)v.z);
            break;
        }
        case 5: {
            rg_body_id id = fuzz_id(&r, &st);
            rg_vec3 v = fuzz_vec3(&r, wild);
            res = rg_body_set_angular_velocity(w, id, v);
            trace("set_angular_velocity #%u (%.9g %.9g %.9g)", id.index, (double)v.x, (double)v.y, (double)v.z);
            break;
        }
        case 6: {
            rg_body_id id = fuzz_id(&r, &st);
            rg_vec3 impulse = fuzz_vec3(&r, wild), arm = fuzz_vec3(&r, wild);
            res = rg_body_apply_impulse(w, id, impulse, rg_v3_add(rg_body_center_of_mass(w, id), arm));
            trace("apply_impulse #%u (%.9g %.9g %.9g) at com + (%.9g %.9g %.9g)", id.index, (double)impulse.x, (double)impulse.y,
                  (double)impulse.z, (double)arm.x, (double)arm.y, (double)arm.z);
            break;
        }
        case 7: {
            rg_body_id id = fuzz_id(&r, &st);
            rg_vec3 force = fuzz_vec3(&r, wild), arm = fuzz_vec3(&r, wild);
            res = rg_body_apply_force(w, id, force, rg_v3_add(rg_body_center_of_mass(w, id), arm));
            trace("apply_force #%u (%.9g %.9g %.9g) at com + (%.9g %.9g %.9g)", id.index, (double)force.x, (double)force.y,
                  (double)force.z, (double)arm.x, (double)arm.y, (double)arm.z);
            break;
        }
        case 8: {
            rg_body_id id = fuzz_id(&r, &st);
            rg_vec3 t = fuzz_vec3(&r, wild);
            res = rg_body_apply_torque(w, id, t);
            trace("apply_torque #%u (%.9g %.9g %.9g)", id.index, (double)t.x, (double)t.y, (double)t.z);
            break;
        }
        case 9: {
            rg_vec3 g = fuzz_vec3(&r, wild);
            res = rg_world_set_gravity(w, g);
            trace("set_gravity (%.9g %.9g %.9g)", (double)g.x, (double)g.y, (double)g.z);
            break;
        }
        case 10: {                                                /* queries: must not change anything */
            rg_contact contacts[8];
            int capacity = (int)(int8_t)fuzz_u8(&r) % 9, total;
            rg_vec3 lo, hi;
            rg_body_id id = fuzz_id(&r, &st);
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
        default: {                                                /* step */
            uint8_t k = fuzz_u8(&r);
            rg_real dt = k < 160 ? (rg_real)(1.0 / 60) : k < 200 ? (rg_real)(fabs(fuzz_plain(&r)) / 8)
                                                               : (rg_real)fuzz_number(&r);
            if (st.steps >= MAX_STEPS) {
                not_taken = 1;
                break;
            }
            res = rg_world_step(w, dt);
            trace("step %.9g", (double)dt);
            if (res == RG_OK) {
                ++st.steps;
                if (!world_is_finite(&st)) fuzz_fail("a step made a body non-finite", op);
            }
            break;
        }
        }
        if (code % 12 >= 2 && code % 12 <= 9) refused = res != RG_OK;
        if (code % 12 != 10 && !not_taken)
            trace("%s: %s\n", w ? "" : " (NULL world)", rg_result_string(res));
        if (!w && res == RG_OK && code % 12 != 10 && !not_taken)
            fuzz_fail("a call on a NULL world succeeded", op);
        if (refused && st.w && world_hash(&st) != before) fuzz_fail("a refused call changed the world", op);
        if (st.w && rg_world_get_stats(st.w).body_count != st.live) fuzz_fail("body count", op);
    }
    final_hash = st.w ? world_hash(&st) : 0;
    rg_world_destroy(st.w);
    for (op = 0; op < HULLS; ++op) rg_hull_destroy(st.hulls[op]);
    return final_hash;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint64_t first = run_script(data, size), second;
    if (counting_allocator.live_bytes != 0 || counting_allocator.live_blocks != 0)
        fuzz_fail("memory left allocated after the world and hulls were destroyed", -1);
    second = run_script(data, size);
    if (first != second) fuzz_fail("the same script gave two different states", -1);
    return 0;
}

#ifdef FUZZ_SEED_MAIN
/* a plain vector: three (selector 0, value) pairs */
static size_t put_v3(uint8_t *p, int x, int y, int z) {
    p[0] = 0; p[1] = (uint8_t)x; p[2] = 0; p[3] = (uint8_t)y; p[4] = 0; p[5] = (uint8_t)z;
    return 6;
}
int main(int argc, char **argv) {
    uint8_t seed[4096];
    size_t n = 0;
    int i;
    if (argc < 2) { fprintf(stderr, "usage: %s directory\n", argv[0]); return 1; }
    /* default world; a static ground slab, a stack of 5 cubes, 20 steps */
    seed[n++] = 0;
    seed[n++] = 0; seed[n++] = 100; seed[n++] = 0;            /* create, not wild, world */
    seed[n++] = 3 << 5;                                        /* static (3 % 3), hull 3 */
    n += put_v3(seed + n, 0, -8, 0);                           /* position y = -0.5 */
    n += put_v3(seed + n, 0, 16, 0); seed[n++] = 0; seed[n++] = 0;   /* orientation: angle 0 */
    n += put_v3(seed + n, 0, 0, 0); n += put_v3(seed + n, 0, 0, 0);
    for (i = 0; i < 5; ++i) {
        seed[n++] = 0; seed[n++] = 100; seed[n++] = 0;
        seed[n++] = 2;                                         /* dynamic, hull 0 */
        n += put_v3(seed + n, i, 8 + 16 * i, 0);
        n += put_v3(seed + n, 0, 16, 0); seed[n++] = 0; seed[n++] = (uint8_t)i;
        n += put_v3(seed + n, 0, 0, 0); n += put_v3(seed + n, 0, 0, i);
    }
    for (i = 0; i < 20; ++i) { seed[n++] = 11; seed[n++] = 100; seed[n++] = 0; seed[n++] = 0; }
    fuzz_write_seed(argv[1], "stack", seed, n);
    /* the same with pushes, a destroy, a re-create and queries between the steps */
    seed[n++] = 6; seed[n++] = 100; seed[n++] = 0; seed[n++] = 2;
    n += put_v3(seed + n, 16, 0, 0); n += put_v3(seed + n, 0, 8, 0);
    seed[n++] = 2; seed[n++] = 100; seed[n++] = 0; seed[n++] = 3;
    seed[n++] = 10; seed[n++] = 100; seed[n++] = 0; seed[n++] = 4; seed[n++] = 1;
    n += put_v3(seed + n, 0, 0, 0);
    for (i = 0; i < 4; ++i) { seed[n++] = 11; seed[n++] = 100; seed[n++] = 0; seed[n++] = 0; }
    fuzz_write_seed(argv[1], "stack_pushed", seed, n);
    return 0;
}
#endif
