/* pyramid: the `pyramid` scene of docs/scenes.md, 210 cubes with a base of 20, exactly
   touching, for 10 s. Summary: cubes that moved more than 0.5 m, and how far the top sank
   (Bullet: 2.4 cm and stands; ODE collapses; Box3D: 2.8 cm).

   usage: pyramid [--record file] [--every n] [--snapshot file.png] [--steps n] */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/example.h"

/* The README's picture: each row of the pyramid in one colour of the palette, by the height the
   cube started at (a row that slid or sank would show as a broken band). */
static snap_rgb row_color(const rg_world *w, rg_body_id id, int index, void *user) {
    const scene *s = (const scene *)user;
    if (rg_body_get_type(w, id) != RG_BODY_DYNAMIC) return snapshot_body_color(w, id, index);
    return snap_palette((int)floor(s->boxes[index].position[1]));
}

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
    {
        /* the pyramid from the front and a little to the right */
        snapshot_options so = example_fixed_camera(&run, 17, 12, 38, 0, 9, 0);
        so.color = row_color;
        so.color_user = &run.s;
        example_snapshot_with(&o, run.world.world, run.world.ids, run.s.count, &so);
    }
    example_run_free(&run);
    return 0;
}
