/* funnel: the `funnel` scene of docs/scenes.md (Bender & Schmitt's performance test): 1000
   cubes poured through a square funnel with a 4 m opening at y = 6, for 10 s. Summary: cubes
   through the opening, cubes still in the funnel, how wide the heap spread.

   usage: funnel [--record file] [--every n] [--snapshot file.png] [--steps n] */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/example.h"

int main(int argc, char **argv) {
    example_options o;
    example_run run;
    int i, through = 0, above = 0, sunk = 0;
    double spread = 0, height = 0;
    if (!example_parse(argc, argv, &o)) return 2;
    if (!example_run_scene("funnel", &o, &run)) return 1;
    example_print_run(&run);
    for (i = 1; i < run.s.count; ++i) {
        const double *p = &run.end[3 * i];
        if (run.s.boxes[i].is_static) continue;
        if (p[1] > 6) ++above;
        else if (p[1] >= 0) ++through;
        else ++sunk;
        if (p[1] >= 0 && p[1] <= 6) {
            double r = sqrt(p[0] * p[0] + p[2] * p[2]);
            if (r > spread) spread = r;
            if (p[1] > height) height = p[1];
        }
    }
    printf("  %d cubes through the opening, %d still in the funnel (y > 6), %d below the ground\n", through, above,
           sunk);
    printf("  the heap under the funnel: %.2f m high at its highest cube centre, spread %.2f m from the axis\n",
           height, spread);
    {
        /* the funnel, what is left in it and the heaps below it, seen from a little above the rim */
        snapshot_options so = example_fixed_camera(&run, 24, 14, 40, 0, 6, 0);
        so.fov_degrees = 42;
        example_snapshot_with(&o, run.world.world, run.world.ids, run.s.count, &so);
    }
    example_run_free(&run);
    return 0;
}
