/* rollback: the loop of a networked game that predicts its player's input and corrects itself
   with snapshots (rg_world_snapshot_save, rg_world_snapshot_load). A ball pushed by a player
   rolls into a pile of twelve boxes. The player's real input for a frame arrives DELAY frames late;
   until then the game steps with a prediction (the last input it knows). Each frame it loads
   the snapshot of the last frame whose input it knew, steps that frame again with the real
   input that has now arrived, saves, and steps on to the present with predictions. A reference
   world that only ever got the real inputs is stepped alongside: every frame the game confirms
   must be, bit for bit, the reference's (a hash of every body's pose and velocities and of the
   contacts). Prints the count of frames that matched and exits 1 if any did not.

   usage: rollback [--steps n] (frames, default 300; --record, --every, --snapshot as the others) */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/example.h"

#include <stdint.h>

#define DELAY 6        /* frames between a frame and the arrival of its real input */
#define PILE 12
#define HISTORY (DELAY + 2)

static const rg_real frame_dt = (rg_real)(1.0 / 60);

/* The player's real input for frame f: a push of 0.1 m/s on the ball (a 524 kg ball: 52 N s)
   along +x (into the pile), +x, +z, -x, -z in turn, 45 frames each, and no push one frame in five. */
static rg_vec3 real_input(int f) {
    static const float dx[5] = {1, 1, 0, -1, 0}, dz[5] = {0, 0, 1, 0, -1};
    int k = f / 45 % 5;
    if (f % 5 == 4) return rg_v3(0, 0, 0);
    return rg_v3(52 * dx[k], 0, 52 * dz[k]);
}

static int same_input(rg_vec3 a, rg_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

typedef struct game {
    rg_world *world;
    rg_body_id ids[PILE + 2];     /* ground, ball, boxes */
} game;

static void game_build(game *g, const rg_hull *cube, const rg_hull *slab) {
    rg_world_def wd = rg_world_default_def();
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    int i;
    g->world = rg_world_create(&wd, NULL);
    bd.type = RG_BODY_STATIC;
    bd.hull = slab;
    bd.position = rg_v3(0, -0.5f, 0);
    g->ids[0] = rg_body_create(g->world, &bd, NULL);
    bd = rg_body_default_def();
    bd.position = rg_v3(-4, 0.5f, 0);
    g->ids[1] = rg_body_create(g->world, &bd, NULL);
    rg_body_add_sphere(g->world, g->ids[1], &sd, rg_v3(0, 0, 0), 0.5f, NULL);
    for (i = 0; i < PILE; ++i) {
        bd = rg_body_default_def();
        bd.hull = cube;
        bd.position = rg_v3(1.5f + 0.7f * (float)(i % 3), 0.3f + 0.65f * (float)(i / 3), 0.2f * (float)(i % 2));
        g->ids[2 + i] = rg_body_create(g->world, &bd, NULL);
    }
}

/* One frame: the player's push on the ball, then a step. */
static void game_frame(game *g, rg_vec3 input) {
    rg_body_apply_impulse(g->world, g->ids[1], input, rg_body_position(g->world, g->ids[1]));
    rg_world_step(g->world, frame_dt);
}

static void hash_bytes(uint64_t *h, const void *data, size_t n) {
    const unsigned char *p = (const unsigned char *)data;
    size_t i;
    for (i = 0; i < n; ++i) *h = (*h ^ p[i]) * 1099511628211ull;   /* FNV-1a */
}
static void hash_vec3(uint64_t *h, rg_vec3 v) {
    hash_bytes(h, &v.x, sizeof v.x); hash_bytes(h, &v.y, sizeof v.y); hash_bytes(h, &v.z, sizeof v.z);
}

/* Every body's pose and velocities and every contact's point and impulse. */
static uint64_t game_hash(const game *g) {
    uint64_t h = 14695981039346656037ull;
    rg_contact contacts[256];
    int i, n = rg_world_contacts(g->world, contacts, 256);
    for (i = 0; i < PILE + 2; ++i) {
        rg_quat q = rg_body_orientation(g->world, g->ids[i]);
        hash_vec3(&h, rg_body_position(g->world, g->ids[i]));
        hash_bytes(&h, &q.x, sizeof q.x); hash_bytes(&h, &q.y, sizeof q.y);
        hash_bytes(&h, &q.z, sizeof q.z); hash_bytes(&h, &q.w, sizeof q.w);
        hash_vec3(&h, rg_body_linear_velocity(g->world, g->ids[i]));
        hash_vec3(&h, rg_body_angular_velocity(g->world, g->ids[i]));
    }
    hash_bytes(&h, &n, sizeof n);
    for (i = 0; i < n && i < 256; ++i) {
        hash_vec3(&h, contacts[i].point);
        hash_bytes(&h, &contacts[i].normal_impulse, sizeof contacts[i].normal_impulse);
    }
    return h;
}

int main(int argc, char **argv) {
    example_options o;
    rg_hull *cube = rg_hull_create_box(rg_v3(0.3f, 0.3f, 0.3f), NULL);
    rg_hull *slab = rg_hull_create_box(rg_v3(20, 0.5f, 20), NULL);
    game g, reference;
    unsigned char *confirmed;     /* the snapshot of the state before the first unconfirmed frame */
    size_t capacity, size;
    rg_vec3 start[PILE];
    uint64_t history[HISTORY];    /* the reference's hashes of the last frames, by frame */
    int frames, f, c, matched = 0, checked = 0, mispredicted = 0, steps = 0;
    rg_vec3 known = rg_v3(0, 0, 0); /* the last real input that has arrived: the prediction */
    recorder *r;
    if (!example_parse(argc, argv, &o)) return 2;
    frames = o.steps > 0 ? o.steps : 300;
    game_build(&g, cube, slab);
    game_build(&reference, cube, slab);
    r = example_record_open(&o, g.world, g.ids, PILE + 2, frame_dt);
    for (f = 0; f < PILE; ++f) start[f] = rg_body_position(g.world, g.ids[2 + f]);

    /* frame 0's state, confirmed: nothing has happened yet */
    size = rg_world_snapshot_size(g.world);
    capacity = 2 * size;
    confirmed = (unsigned char *)malloc(capacity);
    if (!confirmed || rg_world_snapshot_save(g.world, confirmed, capacity) != RG_OK) return 1;
    c = 0;                        /* frames [0, c) are confirmed */
    for (f = 0; f < frames; ++f) {
        int k;
        /* the reference only ever gets the real input; its hash after f + 1 frames kept */
        game_frame(&reference, real_input(f));
        history[(f + 1) % HISTORY] = game_hash(&reference);
        /* this frame brings the real input of frame f - DELAY: back to the confirmed state,
           that frame stepped again with it, the result confirmed and compared */
        if (f >= DELAY) {
            k = f - DELAY;
            if (rg_world_snapshot_load(g.world, confirmed, capacity) != RG_OK) return 1;
            game_frame(&g, real_input(k));
            ++steps;
            known = real_input(k);
            c = k + 1;
            matched += game_hash(&g) == history[c % HISTORY];
            ++checked;
            size = rg_world_snapshot_size(g.world);
            if (size > capacity) {  /* grows with the contacts; rarely */
                free(confirmed);
                capacity = 2 * size;
                confirmed = (unsigned char *)malloc(capacity);
                if (!confirmed) return 1;
            }
            rg_world_snapshot_save(g.world, confirmed, capacity);
        }
        /* then on to the present with the prediction */
        for (k = c; k <= f; ++k) {
            mispredicted += !same_input(known, real_input(k));
            game_frame(&g, known);
            ++steps;
        }
        if (f % o.every == 0) record_frame(r, g.world, (f + 1) * (double)frame_dt);
    }
    printf("%d frames, input arriving %d frames late: %d steps taken (%.1f a frame), %d of them with a"
           " wrong prediction, snapshot %lu bytes\n",
           frames, DELAY, steps, (double)steps / frames, mispredicted, (unsigned long)size);
    printf("confirmed frames equal to the reference world's, bit for bit: %d of %d (%s)\n", matched, checked,
           matched == checked ? "all" : "MISMATCH");
    {
        int i, moved = 0;
        for (i = 0; i < PILE; ++i) {
            rg_vec3 d = rg_v3_sub(rg_body_position(g.world, g.ids[2 + i]), start[i]);
            moved += rg_v3_length(d) > 0.2f;
        }
        printf("the ball knocked %d of the %d boxes more than 0.2 m from where they stood\n", moved, PILE);
    }
    example_record_close(&o, r);
    example_snapshot(&o, g.world, g.ids, PILE + 2, "rollback: a ball pushed into a pile, input 6 frames late", NULL, NULL);
    free(confirmed);
    rg_world_destroy(g.world);
    rg_world_destroy(reference.world);
    rg_hull_destroy(cube);
    rg_hull_destroy(slab);
    return matched == checked ? 0 : 1;
}
