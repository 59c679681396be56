/* stack: the `stack` scene of docs/scenes.md, a column of 20 cubes, exactly touching, for
   10 s. Summary: how many cubes moved more than 0.5 m, and how far the top cube sank (Box3D's
   soft-step solver sinks 10.8 cm here; Bullet and ODE topple it).

   usage: stack [--record file] [--every n] [--snapshot file.png] [--steps n] */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/example.h"

int main(int argc, char **argv) {
    example_options o;
    example_run run;
    double lean = 0;
    int i;
    if (!example_parse(argc, argv, &o)) return 2;
    if (!example_run_scene("stack", &o, &run)) return 1;
    example_print_run(&run);
    /* how far the column leans: the largest horizontal offset of a cube from its start */
    for (i = 1; i < run.s.count; ++i) {
        double dx = run.end[3 * i] - run.start[3 * i], dz = run.end[3 * i + 2] - run.start[3 * i + 2];
        if (sqrt(dx * dx + dz * dz) > lean) lean = sqrt(dx * dx + dz * dz);
    }
    printf("  top cube: y %.3f -> %.3f (%+.4f m); largest sideways drift %.4f m\n", run.start[3 * run.top + 1],
           run.end[3 * run.top + 1], run.end[3 * run.top + 1] - run.start[3 * run.top + 1], lean);
    if (run.moved == 0) printf("  the column stands\n");
    else if (run.end[3 * run.top + 1] - run.start[3 * run.top + 1] > -0.5)
        printf("  the column stands, but %d cubes moved more than 0.5 m\n", run.moved);
    else printf("  the column fell\n");
    example_snapshot(&o, run.world.world, run.world.ids, run.s.count, example_caption(&run), NULL, NULL);
    example_run_free(&run);
    return 0;
}
