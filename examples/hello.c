/* hello: the README's usage example, with options. A cube dropped from 4 m onto a ground whose
   top face is y = 0; its height printed every half second. It comes to rest at y = 0.5 (its
   half extent).

   usage: hello [--record file] [--every n] [--snapshot file.png] [--steps n] */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/example.h"

int main(int argc, char **argv) {
    example_options o;
    rg_world_def wd = rg_world_default_def();
    rg_world *world;
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_hull *slab = rg_hull_create_box(rg_v3(10, 0.5f, 10), NULL);
    rg_body_def bd = rg_body_default_def();
    rg_body_id ids[2];
    recorder *r;
    int i, steps;
    if (!example_parse(argc, argv, &o)) return 2;
    world = rg_world_create(&wd, NULL);

    bd.type = RG_BODY_STATIC;
    bd.hull = slab;
    bd.position = rg_v3(0, -0.5f, 0);
    ids[0] = rg_body_create(world, &bd, NULL);

    bd = rg_body_default_def();
    bd.hull = cube;
    bd.position = rg_v3(0, 4, 0);
    ids[1] = rg_body_create(world, &bd, NULL);

    steps = o.steps > 0 ? o.steps : 120;
    r = example_record_open(&o, world, ids, 2, 1.0 / 60);
    record_frame(r, world, 0);
    printf("   t (s)   height (m)\n");
    for (i = 1; i <= steps; ++i) {
        rg_world_step(world, 1.0f / 60);
        if (i % o.every == 0) record_frame(r, world, i / 60.0);
        if (i % 30 == 0) printf("%8.2f %10.3f\n", i / 60.0, rg_body_position(world, ids[1]).y);
    }
    printf("after %.1f s the cube is at y = %.3f (resting on the ground: 0.500)\n", steps / 60.0,
           rg_body_position(world, ids[1]).y);
    example_record_close(&o, r);
    example_snapshot(&o, world, ids, 2, "hello: a cube dropped on the ground", NULL, NULL);
    rg_world_destroy(world);
    rg_hull_destroy(cube);
    rg_hull_destroy(slab);
    return 0;
}
