/* pyramid: the `pyramid` scene of ../shared/scenes.md, 210 cubes with a base of 20, exactly
   touching, for 10 s. Summary: cubes that moved more than 0.5 m, and how far the top sank
   (Bullet: 2.4 cm and stands; ODE collapses; Box3D: 2.8 cm).

   usage: pyramid [--record file] [--every n] [--snapshot file.png] [--steps n] */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/example.h"

int main(int argc, char **argv) {
    example_options o;
    example_run run;
    double sink = 0, mean_sink = 0;
    int i, dynamic = 0;
    if (!example_parse(argc, argv, &o)) return 2;
    if (!example_run_scene("pyramid", &o, &run)) return 1;
    example_print_run(&run);
    for (i = 1; i < run.s.count; ++i) {
        double dy = run.end[3 * i + 1] - run.start[3 * i + 1];
        if (run.s.boxes[i].is_static) continue;
        if (-dy > sink) sink = -dy;
        mean_sink += -dy;
        ++dynamic;
    }
    printf("  top cube: y %.3f -> %.3f (%+.4f m); largest sinking %.4f m, mean %.4f m\n", run.start[3 * run.top + 1],
           run.end[3 * run.top + 1], run.end[3 * run.top + 1] - run.start[3 * run.top + 1], sink,
           dynamic ? mean_sink / dynamic : 0.0);
    if (run.moved == 0) printf("  the pyramid stands\n");
    else if (run.end[3 * run.top + 1] - run.start[3 * run.top + 1] > -0.5)
        printf("  the pyramid stands, but %d cubes moved more than 0.5 m\n", run.moved);
    else printf("  the pyramid collapsed\n");
    example_snapshot(&o, run.world.world, run.world.ids, run.s.count, example_caption(&run), NULL, NULL);
    example_run_free(&run);
    return 0;
}
