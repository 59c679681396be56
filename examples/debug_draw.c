/* debug_draw: a world drawn through rg_world_draw, the way a game draws its physics in its own
   renderer: three callbacks (triangle, line, point) feed examples/snapshot.h's software
   rasteriser (flat shading with a z-buffer, lines that hide behind surfaces), and the picture
   is written as a PNG. The scene: boxes, spheres, capsules and a two-hull compound body dropped
   onto a static ground and a bumpy static mesh, a spinning kinematic paddle, and a sensor; the
   contacts (red points, yellow normals), their normal impulses (green) and the bodies' boxes
   (cyan) on top. Colours are rg_world_draw's: static grey, kinematic blue, dynamic orange,
   sensors half as bright.

   usage: debug_draw [--record file] [--every n] [--snapshot file.png] [--steps n]
   (the picture is drawn every run; --snapshot writes it) */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/example.h"

#define WIDTH 800
#define HEIGHT 500
#define SUPERSAMPLE 2
#define MAX_BODIES 32

/* What the callbacks draw into. A triangle of the colour of the one before and turned less than
   25 degrees from it continues its face (a hull face's fan, a sphere's bands, gentle bumps): the
   outline pass then draws the edges of boxes and the outlines of balls, not every triangle's. */
typedef struct renderer {
    snap_image image;
    snap_camera camera;
    double light[3];             /* unit, towards the light */
    int face;                    /* the id of the last face */
    double normal[3];            /* the last triangle's unit normal */
    uint32_t rgb;                /* and colour */
    int triangles, lines, points;
} renderer;

static snap_rgb from_rgb(uint32_t rgb) {
    return snap_rgb_make((int)(rgb >> 16 & 255), (int)(rgb >> 8 & 255), (int)(rgb & 255));
}

static void to_double(rg_vec3 v, double out[3]) { out[0] = v.x; out[1] = v.y; out[2] = v.z; }
static double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* A triangle, counter-clockwise from outside: drawn when it faces the camera, lit by the angle
   between its normal and the light. */
static void draw_triangle(rg_vec3 a, rg_vec3 b, rg_vec3 c, uint32_t rgb, void *context) {
    renderer *r = (renderer *)context;
    double p[3][3], camera[3][3], e1[3], e2[3], n[3], to_eye[3], length, lambert;
    int k;
    to_double(a, p[0]);
    to_double(b, p[1]);
    to_double(c, p[2]);
    for (k = 0; k < 3; ++k) {
        e1[k] = p[1][k] - p[0][k];
        e2[k] = p[2][k] - p[0][k];
        to_eye[k] = r->camera.eye[k] - p[0][k];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    length = sqrt(dot(n, n));
    ++r->triangles;
    if (!(length > 0) || dot(n, to_eye) <= 0) return; /* degenerate, or seen from behind */
    for (k = 0; k < 3; ++k) n[k] /= length;
    if (!(rgb == r->rgb && dot(n, r->normal) > 0.906)) ++r->face; /* cos 25 degrees */
    r->normal[0] = n[0]; r->normal[1] = n[1]; r->normal[2] = n[2];
    r->rgb = rgb;
    for (k = 0; k < 3; ++k) snap_camera_transform(&r->camera, p[k], camera[k]);
    lambert = dot(n, r->light);
    snap_polygon(&r->image, &r->camera, (const double (*)[3])camera, 3,
                 snap_rgb_scale(from_rgb(rgb), 0.5 + 0.5 * (lambert > 0 ? lambert : 0)), r->face);
}

/* Contacts' lines and points are drawn over the surfaces (they lie under the bodies); boxes
   thinner, hidden behind surfaces more than 2 cm in front of them. */
static void draw_line(rg_vec3 a, rg_vec3 b, uint32_t rgb, void *context) {
    renderer *r = (renderer *)context;
    double pa[3], pb[3];
    to_double(a, pa);
    to_double(b, pb);
    ++r->lines;
    if (rgb == RG_DEBUG_COLOR_AABB) snap_line3(&r->image, &r->camera, pa, pb, from_rgb(rgb), SUPERSAMPLE, 0.02);
    else snap_line3(&r->image, &r->camera, pa, pb, from_rgb(rgb), 2 * SUPERSAMPLE, 1e30);
}

static void draw_point(rg_vec3 p, rg_real size, uint32_t rgb, void *context) {
    renderer *r = (renderer *)context;
    double pp[3], camera[3];
    int pixels;
    to_double(p, pp);
    snap_camera_transform(&r->camera, pp, camera);
    ++r->points;
    if (camera[2] < r->camera.near_z) return;
    pixels = (int)(size * r->camera.focal / camera[2] + 0.5); /* the size seen from the camera */
    if (pixels < 2 * SUPERSAMPLE) pixels = 2 * SUPERSAMPLE;
    if (pixels > 40 * SUPERSAMPLE) pixels = 40 * SUPERSAMPLE;
    snap_line3(&r->image, &r->camera, pp, pp, from_rgb(rgb), pixels, 1e30);
}

/* A bumpy patch of ground 8 m square: a 9 x 9 grid of heights, fronts up. */
static rg_mesh *bumps(void) {
    rg_vec3 v[81];
    int indices[8 * 8 * 6], i, j, n = 0;
    for (i = 0; i < 9; ++i)
        for (j = 0; j < 9; ++j)
            v[9 * i + j] = rg_v3((rg_real)i, (rg_real)(0.25 * sin(1.3 * i) * cos(1.1 * j) + 0.25), (rg_real)j);
    for (i = 0; i < 8; ++i)
        for (j = 0; j < 8; ++j) {
            int a = 9 * i + j, b = a + 1, c = a + 9, d = c + 1;
            /* (b - a) x (d - a) = z x (x + z) points up */
            indices[n++] = a; indices[n++] = b; indices[n++] = d;
            indices[n++] = a; indices[n++] = d; indices[n++] = c;
        }
    return rg_mesh_create(v, 81, indices, 64 * 2, NULL);
}

int main(int argc, char **argv) {
    static const double eye[3] = {6.5, 5.5, 10}, target[3] = {-0.5, 0.8, 0};
    example_options o;
    rg_world_def wd = rg_world_default_def();
    rg_world *world;
    rg_hull *slab = rg_hull_create_box(rg_v3(8, 0.5f, 6), NULL);
    rg_hull *cube = rg_hull_create_box(rg_v3(0.4f, 0.4f, 0.4f), NULL);
    rg_hull *plank = rg_hull_create_box(rg_v3(1.2f, 0.1f, 0.3f), NULL);
    rg_mesh *ground_bumps = bumps();
    rg_body_def bd;
    rg_shape_def sd = rg_shape_default_def();
    rg_debug_draw draw = rg_debug_draw_default();
    rg_body_id ids[MAX_BODIES], id;
    renderer r;
    recorder *rec;
    int count = 0, i, step, steps;
    if (!example_parse(argc, argv, &o)) return 2;
    if (!slab || !cube || !plank || !ground_bumps) return 1;
    world = rg_world_create(&wd, NULL);

    /* the ground, and the bumps on a static body beside it, its top between y = 0 and 0.5 */
    bd = rg_body_default_def();
    bd.type = RG_BODY_STATIC;
    bd.hull = slab;
    bd.position = rg_v3(0, -0.5f, 0);
    ids[count++] = rg_body_create(world, &bd, NULL);
    bd.hull = NULL;
    bd.position = rg_v3(-7.5f, 0.01f, -4);
    id = ids[count++] = rg_body_create(world, &bd, NULL);
    rg_body_add_mesh(world, id, &sd, ground_bumps, NULL);

    /* a stack of cubes, turned a little, and three more dropped on the slab */
    for (i = 0; i < 6; ++i) {
        bd = rg_body_default_def();
        bd.hull = cube;
        bd.position = i < 3 ? rg_v3(2.5f, 0.4f + 0.8f * (rg_real)i, -1) : rg_v3((rg_real)(i - 4) * 1.3f, 2.5f, 2);
        bd.orientation = rg_quat_from_axis_angle(rg_v3(0, 1, 0), 0.2f * (rg_real)i);
        ids[count++] = rg_body_create(world, &bd, NULL);
    }
    /* spheres and capsules rolling down onto the bumps */
    for (i = 0; i < 4; ++i) {
        bd = rg_body_default_def();
        bd.position = rg_v3(-6 + 1.8f * (rg_real)i, 2 + 0.4f * (rg_real)i, -2.5f + (rg_real)(i % 2));
        bd.linear_velocity = rg_v3(1, 0, 0.5f);
        id = ids[count++] = rg_body_create(world, &bd, NULL);
        if (i % 2 == 0) rg_body_add_sphere(world, id, &sd, rg_v3(0, 0, 0), 0.45f, NULL);
        else rg_body_add_capsule(world, id, &sd, rg_v3(-0.5f, 0, 0), rg_v3(0.5f, 0, 0), 0.3f, NULL);
    }
    /* a compound body: a plank with a cube placed and turned on each end */
    bd = rg_body_default_def();
    bd.hull = plank;
    bd.position = rg_v3(-1, 3.5f, 0.5f);
    bd.orientation = rg_quat_from_axis_angle(rg_v3(1, 0, 1), 0.5f);
    id = ids[count++] = rg_body_create(world, &bd, NULL);
    rg_body_add_hull(world, id, &sd, cube, rg_v3(-1.2f, 0.45f, 0), rg_quat_from_axis_angle(rg_v3(0, 1, 0), 0.7f), NULL);
    rg_body_add_hull(world, id, &sd, cube, rg_v3(1.2f, 0.45f, 0), rg_quat_from_axis_angle(rg_v3(1, 0, 0), 0.4f), NULL);
    /* a kinematic paddle spinning above the ground, with a sensor sphere at its hub */
    bd = rg_body_default_def();
    bd.type = RG_BODY_KINEMATIC;
    bd.hull = plank;
    bd.position = rg_v3(4.5f, 0.6f, 2.5f);
    bd.angular_velocity = rg_v3(0, 1.5f, 0);
    id = ids[count++] = rg_body_create(world, &bd, NULL);
    sd.is_sensor = 1;
    rg_body_add_sphere(world, id, &sd, rg_v3(0, 0.3f, 0), 0.35f, NULL);

    steps = o.steps > 0 ? o.steps : 75;
    rec = example_record_open(&o, world, ids, count, 1.0 / 60);
    record_frame(rec, world, 0);
    for (step = 1; step <= steps; ++step) {
        rg_world_step(world, 1.0f / 60);
        if (step % o.every == 0) record_frame(rec, world, step / 60.0);
    }
    example_record_close(&o, rec);

    /* the picture: sky, then everything rg_world_draw hands over */
    memset(&r, 0, sizeof r);
    if (!snap_image_init(&r.image, WIDTH * SUPERSAMPLE, HEIGHT * SUPERSAMPLE, snap_rgb_make(0, 0, 0))) return 1;
    snap_gradient(&r.image, snap_rgb_make(176, 200, 228), snap_rgb_make(238, 242, 246));
    r.camera = snap_camera_look_at(eye, target, 40, WIDTH * SUPERSAMPLE, HEIGHT * SUPERSAMPLE);
    r.light[0] = -0.35; r.light[1] = 0.8; r.light[2] = 0.5; /* made unit below */
    for (i = 0; i < 3; ++i) r.light[i] /= sqrt(0.35 * 0.35 + 0.8 * 0.8 + 0.5 * 0.5);
    r.face = -1;
    draw.triangle = draw_triangle;
    draw.line = NULL;           /* surfaces first, outlined; then the lines on top */
    draw.context = &r;
    rg_world_draw(world, &draw);
    snap_outline_faces(&r.image, 0.6);
    draw.triangle = NULL;
    draw.line = draw_line;
    draw.point = draw_point;
    draw.draw_shapes = 0;
    draw.draw_contacts = draw.draw_impulses = draw.draw_aabbs = 1;
    draw.point_size = 0.1f;
    draw.impulse_scale = 0.01f; /* metres per N s: 0.21 m for a quarter of a resting cube's weight a step */
    rg_world_draw(world, &draw);
    snap_text(&r.image, 8 * SUPERSAMPLE, 8 * SUPERSAMPLE, "debug_draw: rg_world_draw into the software rasteriser",
              snap_rgb_make(30, 30, 40), 2 * SUPERSAMPLE);
    printf("debug_draw: %d bodies after %d steps: %d triangles, %d lines, %d points (%d contacts)\n", count, steps,
           r.triangles, r.lines, r.points, rg_world_contacts(world, NULL, 0));
    if (o.snapshot) {
        if (snap_image_write_png(&r.image, o.snapshot, SUPERSAMPLE)) printf("snapshot: %s\n", o.snapshot);
        else fprintf(stderr, "could not write %s\n", o.snapshot);
    }
    snap_image_free(&r.image);
    rg_world_destroy(world);
    rg_mesh_destroy(ground_bumps);
    rg_hull_destroy(slab);
    rg_hull_destroy(cube);
    rg_hull_destroy(plank);
    return 0;
}
