/* seesaw: a plank on a wedge (a convex polyhedron built from its faces), a 1 kg cube on its low
   end and a 10 kg cube dropped from 4 m onto the other: the light cube is thrown up. Summary:
   how high it flew and where things came to rest.

   usage: seesaw [--record file] [--every n] [--snapshot file.png] [--steps n] */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/example.h"

/* A triangular prism: the triangle (-0.5, 0), (0.5, 0), (0, 0.6) in x-y, from z = -1 to 1. */
static rg_hull *create_wedge(void) {
    static const int sizes[5] = {3, 3, 4, 4, 4};
    static const int indices[18] = {3, 4, 5,  0, 2, 1,  0, 1, 4, 3,  0, 3, 5, 2,  1, 2, 5, 4};
    rg_vec3 v[6];
    rg_result result;
    rg_hull *h;
    v[0] = rg_v3(-0.5f, 0, -1); v[1] = rg_v3(0.5f, 0, -1); v[2] = rg_v3(0, 0.6f, -1);
    v[3] = rg_v3(-0.5f, 0, 1);  v[4] = rg_v3(0.5f, 0, 1);  v[5] = rg_v3(0, 0.6f, 1);
    h = rg_hull_create_polyhedron(v, 6, sizes, 5, indices, &result);
    if (!h) fprintf(stderr, "wedge: %s\n", rg_result_string(result));
    return h;
}

int main(int argc, char **argv) {
    const double dt = 1.0 / 60;
    example_options o;
    rg_world_def wd = rg_world_default_def();
    rg_world *world;
    rg_hull *ground = rg_hull_create_box(rg_v3(20, 0.5f, 20), NULL), *wedge = create_wedge();
    rg_hull *plank = rg_hull_create_box(rg_v3(3, 0.1f, 0.5f), NULL);
    rg_hull *light_cube = rg_hull_create_box(rg_v3(0.25f, 0.25f, 0.25f), NULL);
    rg_hull *heavy_cube = rg_hull_create_box(rg_v3(0.3f, 0.3f, 0.3f), NULL);
    rg_body_def bd;
    rg_body_id ids[5];
    recorder *r;
    double highest = 0, highest_at = 0;
    int step, steps;
    rg_vec3 axis;
    if (!example_parse(argc, argv, &o)) return 2;
    if (!wedge) return 1;
    world = rg_world_create(&wd, NULL);

    bd = rg_body_default_def();
    bd.type = RG_BODY_STATIC;
    bd.hull = ground;
    bd.position = rg_v3(0, -0.5f, 0);
    ids[0] = rg_body_create(world, &bd, NULL);
    bd.hull = wedge;
    bd.position = rg_v3(0, 0, 0);
    ids[1] = rg_body_create(world, &bd, NULL);

    bd = rg_body_default_def();
    bd.hull = plank;
    bd.mass = 2;
    bd.position = rg_v3(0, 0.7f, 0); /* on the wedge's edge at y = 0.6 */
    ids[2] = rg_body_create(world, &bd, NULL);
    bd.hull = light_cube;
    bd.mass = 1;
    bd.position = rg_v3(-2.6f, 1.05f, 0);
    ids[3] = rg_body_create(world, &bd, NULL);
    bd.hull = heavy_cube;
    bd.mass = 10;
    bd.position = rg_v3(2.6f, 4, 0);
    ids[4] = rg_body_create(world, &bd, NULL);

    steps = o.steps > 0 ? o.steps : 300;
    r = example_record_open(&o, world, ids, 5, dt);
    record_frame(r, world, 0);
    for (step = 1; step <= steps; ++step) {
        double y;
        rg_world_step(world, (rg_real)dt);
        if (step % o.every == 0) record_frame(r, world, step * dt);
        y = rg_body_position(world, ids[3]).y;
        if (y > highest) { highest = y; highest_at = step * dt; }
    }
    example_record_close(&o, r);
    axis = rg_quat_rotate(rg_body_orientation(world, ids[2]), rg_v3(1, 0, 0));
    printf("the light cube (1 kg) started at y = 1.05 and flew to y = %.3f m at t = %.2f s\n", highest, highest_at);
    printf("after %.1f s: plank tilted %.1f degrees (right end down is negative), light cube at (%.2f, %.2f), "
           "heavy cube at (%.2f, %.2f)\n",
           steps * dt, atan2(axis.y, axis.x) * 180 / 3.14159265358979323846, rg_body_position(world, ids[3]).x,
           rg_body_position(world, ids[3]).y, rg_body_position(world, ids[4]).x, rg_body_position(world, ids[4]).y);
    example_snapshot(&o, world, ids, 5, "seesaw", NULL, NULL);
    rg_world_destroy(world);
    rg_hull_destroy(ground);
    rg_hull_destroy(wedge);
    rg_hull_destroy(plank);
    rg_hull_destroy(light_cube);
    rg_hull_destroy(heavy_cube);
    return 0;
}
