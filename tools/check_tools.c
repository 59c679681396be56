/* tools/check_tools: checks of the recording format and the snapshot rasteriser (part of
   `make test`, quick), and the fixture of `make test-replay`.

   Recording: writes a recording (examples/record.h) of bodies in free flight (which rigid.h
   simulates without the solver): boxes of several sizes and a wedge built from its faces, a
   compound body (a box placed off its origin and turned, a sphere and a capsule), a sphere, a
   capsule, thrown and spinning over a static ground, and a static triangle mesh, 100 frames at
   60 per second. The first 80 frames carry made-up contacts (record_frame_contacts) at the
   lowest vertex of every flying hull body with an upward impulse, and one naming a body that is
   not recorded, so that the replay page has contacts to draw; the next 10 none (record_frame,
   contacts off by default); the last 10 the world's own (record_set_contacts). It reads the
   file back with record_read and checks that everything written comes back: shapes and
   geometry exactly (the format stores 32-bit floats: values are compared after the same
   rounding), positions exactly, orientations within RECORD_QUAT_MAX_ANGLE; that the static
   bodies cost nothing after the first frame; that a truncated copy loses only its last frame,
   that a version 1 file is still read, and that a bad magic and a missing file are refused. The
   orientation code alone is checked on 200 000 random rotations and the hard cases.

   Snapshots (examples/snapshot.h): a cube seen face-on covers the analytic area of its
   perspective projection; the z-buffer shows the nearer of two cubes; a sphere, a capsule and a
   mesh square (from the front and from behind) cover the area of their outlines; a hull placed
   on a body is drawn where the same hull on a body of the combined pose is; world snapshots (two
   cubes; the recording's world, every shape type) and the benchmark's log-log plot are written
   as PNG files.

   Last line: "N passed, N failed"; exit status 1 on any failure.

   usage: check_tools [out.rgrec]   (default: the program's path with .rgrec appended; the
                                     recording and the PNG files are left there for inspection) */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "examples/record.h"
#include "examples/snapshot.h"
#include "tools/plot.h"
#include "tools/random.h"

#define FRAMES 100
#define CONTACT_FRAMES 80    /* made-up contacts; then 10 frames without, then 10 with the world's */
#define HULL_BODIES 7        /* ground + 5 boxes + wedge */
#define BODIES 11            /* + compound, sphere, capsule, mesh */
#define CONTACTS_PER_FRAME (HULL_BODIES - 1 + 1)
#define GRID 4               /* the mesh: GRID x GRID squares, two triangles each */

static int passed, failed;

static void check(int ok, const char *what) {
    if (ok) ++passed;
    else { ++failed; printf("FAIL %s\n", what); }
}

/* ---- the mesh ---------------------------------------------------------------------------------- */

static rg_mesh *check_mesh_create(const rg_vec3 *vertices, int vertex_count, const int *indices, int triangle_count) {
    return rg_mesh_create(vertices, vertex_count, indices, triangle_count, NULL);
}

static void check_mesh_destroy(rg_mesh *m) { rg_mesh_destroy(m); }

/* A small terrain: (GRID + 1)^2 heights over a square of side 2 GRID, front side up. */
static rg_mesh *create_terrain(int *indices) {
    rg_vec3 v[(GRID + 1) * (GRID + 1)];
    int i, j, t = 0;
    for (j = 0; j <= GRID; ++j)
        for (i = 0; i <= GRID; ++i)
            v[j * (GRID + 1) + i] = rg_v3((rg_real)(2 * i - GRID), (rg_real)(0.3 * ((i * 7 + j * 3) % 5) - 0.6),
                                          (rg_real)(2 * j - GRID));
    for (j = 0; j < GRID; ++j)
        for (i = 0; i < GRID; ++i) {
            int a = j * (GRID + 1) + i, b = a + 1, c = a + GRID + 1, d = c + 1;
            /* counter-clockwise seen from above (+y): a, c, b and b, c, d */
            indices[t++] = a; indices[t++] = c; indices[t++] = b;
            indices[t++] = b; indices[t++] = c; indices[t++] = d;
        }
    return check_mesh_create(v, (GRID + 1) * (GRID + 1), indices, 2 * GRID * GRID);
}

/* A square of side 2 in the plane z = 0 about the origin, its front towards +z. */
static rg_mesh *create_square(void) {
    static const int indices[6] = {0, 1, 2, 0, 2, 3};
    rg_vec3 v[4];
    v[0] = rg_v3(-1, -1, 0); v[1] = rg_v3(1, -1, 0); v[2] = rg_v3(1, 1, 0); v[3] = rg_v3(-1, 1, 0);
    return check_mesh_create(v, 4, indices, 2);
}

/* ---- helpers ------------------------------------------------------------------------------------ */

static rg_hull *create_wedge(void) {
    static const int sizes[5] = {3, 3, 4, 4, 4};
    static const int indices[18] = {3, 4, 5, 0, 2, 1, 0, 1, 4, 3, 0, 3, 5, 2, 1, 2, 5, 4};
    rg_vec3 v[6];
    v[0] = rg_v3(-0.5f, 0, -1); v[1] = rg_v3(0.5f, 0, -1); v[2] = rg_v3(0, 0.6f, -1);
    v[3] = rg_v3(-0.5f, 0, 1);  v[4] = rg_v3(0.5f, 0, 1);  v[5] = rg_v3(0, 0.6f, 1);
    return rg_hull_create_polyhedron(v, 6, sizes, 5, indices, NULL);
}

/* The lowest vertex of a body with a hull in world space. */
static rg_vec3 lowest_vertex(const rg_world *w, rg_body_id id) {
    const rg_hull *h = rg_body_hull(w, id);
    rg_vec3 p = rg_body_position(w, id), best = p;
    rg_quat q = rg_body_orientation(w, id);
    int i;
    for (i = 0; i < rg_hull_vertex_count(h); ++i) {
        rg_vec3 v = rg_v3_add(p, rg_quat_rotate(q, rg_hull_vertex(h, i)));
        if (i == 0 || v.y < best.y) best = v;
    }
    return best;
}

static int same_float(float stored, double written) { return stored == (float)written; }

static int same_v3(const float *stored, rg_vec3 written) {
    return same_float(stored[0], written.x) && same_float(stored[1], written.y) && same_float(stored[2], written.z);
}

/* The angle in radians between the rotations of two quaternions (either sign), each taken
   unit: 4 asin(|p - s q| / 2) with s the sign of p.q, well conditioned for small angles. */
static double rotation_angle(const double *p, const double *q) {
    double lp = 0, lq = 0, dot = 0, d = 0, s;
    int k;
    for (k = 0; k < 4; ++k) { lp += p[k] * p[k]; lq += q[k] * q[k]; }
    lp = sqrt(lp);
    lq = sqrt(lq);
    for (k = 0; k < 4; ++k) dot += p[k] / lp * q[k] / lq;
    s = dot < 0 ? -1 : 1;
    for (k = 0; k < 4; ++k) d += (p[k] / lp - s * q[k] / lq) * (p[k] / lp - s * q[k] / lq);
    d = sqrt(d) / 2;
    return 4 * asin(d < 1 ? d : 1);
}

/* ---- the orientation code ---------------------------------------------------------------------- */

/* Encodes and decodes q; returns the angle between the rotations, -1 when the decoded
   quaternion is not unit within 1e-6. */
static double quat_round_trip(double x, double y, double z, double w, double *decoded) {
    unsigned char code[6];
    float out[4];
    double q[4];
    int k;
    record__put_quat(code, x, y, z, w);
    record__get_quat(code, out);
    for (k = 0; k < 4; ++k) decoded[k] = out[k];
    if (fabs(decoded[0] * decoded[0] + decoded[1] * decoded[1] + decoded[2] * decoded[2] + decoded[3] * decoded[3] - 1) > 1e-6)
        return -1;
    q[0] = x; q[1] = y; q[2] = z; q[3] = w;
    return rotation_angle(q, decoded);
}

static void check_quaternion_code(void) {
    static const double cases[][4] = {
        {0, 0, 0, 1}, {0, 0, 0, -1}, {1, 0, 0, 0}, {0, -1, 0, 0}, {0.5, 0.5, 0.5, 0.5}, {-0.5, 0.5, -0.5, 0.5},
        {0.7071067811865476, 0.7071067811865476, 0, 0}, {0, -0.7071067811865476, 0, 0.7071067811865476},
        {0.5773502691896258, 0.5773502691896258, 0.5773502691896258, 0}, {3, 0, 4, 0}, {1e-20, 0, 0, 2e-20},
    };
    unsigned long long state = 0x9e3779b97f4a7c15ull;
    double worst = 0, decoded[4], angle;
    int i, k, ok = 1;
    for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i) {
        angle = quat_round_trip(cases[i][0], cases[i][1], cases[i][2], cases[i][3], decoded);
        if (angle < 0 || angle > RECORD_QUAT_MAX_ANGLE) ok = 0;
        if (angle > worst) worst = angle;
    }
    for (i = 0; i < 200000; ++i) {
        double q[4];
        /* near the worst case every 4th: one component large, three equal and small */
        if (i % 4 == 0) {
            double small = random_uniform(&state, 0.2, 0.5);
            for (k = 0; k < 4; ++k) q[k] = (random_xorshift(&state) < 0.5 ? -1 : 1) * small;
            q[(unsigned)(random_xorshift(&state) * 4) % 4] = sqrt(1 - 3 * small * small) + random_uniform(&state, 0, 0.01);
        } else {
            for (k = 0; k < 4; ++k) q[k] = random_uniform(&state, -1, 1);
        }
        angle = quat_round_trip(q[0], q[1], q[2], q[3], decoded);
        if (angle < 0 || angle > RECORD_QUAT_MAX_ANGLE) ok = 0;
        if (angle > worst) worst = angle;
    }
    printf("note  orientation code: worst rotation error %.3g rad over 200011 rotations (bound %.3g)\n", worst,
           RECORD_QUAT_MAX_ANGLE);
    check(ok, "orientation code: unit and within RECORD_QUAT_MAX_ANGLE");
    /* zero, NaN and infinite quaternions come back as the identity */
    quat_round_trip(0, 0, 0, 0, decoded);
    check(decoded[0] == 0 && decoded[1] == 0 && decoded[2] == 0 && decoded[3] == 1, "orientation code: zero gives the identity");
    quat_round_trip(0, 0, sqrt(-1.0), 1, decoded);
    check(decoded[0] == 0 && decoded[1] == 0 && decoded[2] == 0 && decoded[3] == 1, "orientation code: NaN gives the identity");
}

/* ---- snapshots ------------------------------------------------------------------------------- */

/* Pixels showing face ids in [first, last], and their centroid. */
static int count_face_pixels(const snap_image *im, int first, int last) {
    int i, n = 0;
    for (i = 0; i < im->width * im->height; ++i) n += im->face[i] >= first && im->face[i] <= last;
    return n;
}

static void face_centroid(const snap_image *im, double *x, double *y) {
    int i, n = 0;
    *x = *y = 0;
    for (i = 0; i < im->width * im->height; ++i)
        if (im->face[i] >= 0) {
            *x += i % im->width + 0.5;
            *y += i / im->width + 0.5;
            ++n;
        }
    if (n) { *x /= n; *y /= n; }
}

/* The pixels one body covers, drawn alone seen from eye (looking at the origin, 4 degrees:
   nearly parallel projection), and their centroid. */
static int body_pixels(const rg_world *w, rg_body_id id, const double eye[3], double *cx, double *cy, double *focal) {
    static const double target[3] = {0, 0, 0};
    snap_image im;
    snap_camera cam;
    int face_id = 0, n;
    if (!snap_image_init(&im, 400, 400, snap_rgb_make(0, 0, 0))) return -1;
    cam = snap_camera_look_at(eye, target, 4, 400, 400);
    snapshot_draw_body(&im, &cam, w, id, snap_rgb_make(200, 100, 50), &face_id);
    n = count_face_pixels(&im, 0, face_id);
    face_centroid(&im, cx, cy);
    *focal = cam.focal;
    snap_image_free(&im);
    return n;
}

static void check_area(const char *what, int measured, double expected, double tolerance) {
    char text[200];
    printf("note  %s: %d pixels, outline %.0f (%+.2f%%; tolerance %.0f%%)\n", what, measured, expected,
           100 * (measured - expected) / expected, 100 * tolerance);
    snprintf(text, sizeof text, "%s covers its outline's area", what);
    check(fabs(measured - expected) < tolerance * expected, text);
}

/* Spheres, capsules, a mesh and a placed hull, each drawn alone from 60 m away. */
static void check_shape_snapshots(void) {
    const double pi = 3.14159265358979323846, d = 60;
    const double polygon = 32 / (2 * pi) * sin(2 * pi / 32); /* a 32-gon's share of its circle */
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_shape_def sd = rg_shape_default_def();
    rg_body_def bd = rg_body_default_def();
    rg_hull *box = rg_hull_create_box(rg_v3(0.6f, 0.3f, 0.2f), NULL);
    rg_mesh *square = create_square();
    rg_body_id body;
    rg_quat turn = rg_quat_from_axis_angle(rg_v3(0.3f, 1, 0.2f), 0.7f), place = rg_quat_from_axis_angle(rg_v3(1, 0, 0.5f), 1.1f);
    rg_vec3 offset = rg_v3(0.4f, -0.2f, 0.1f);
    double front[3] = {0, 0, 60}, behind[3] = {0, 0, -60}, x0, y0, x1, y1, focal, scale;
    int n0, n1;

    body = rg_body_create(w, &bd, NULL);
    rg_body_add_sphere(w, body, &sd, rg_v3(0, 0, 0), 1, NULL);
    n0 = body_pixels(w, body, front, &x0, &y0, &focal);
    /* a sphere's outline from distance d: a circle of radius focal r / sqrt(d^2 - r^2) */
    check_area("sphere r = 1", n0, polygon * pi * focal * focal / (d * d - 1), 0.01);
    rg_body_destroy(w, body);

    bd.position = rg_v3(0, 0, 0);
    body = rg_body_create(w, &bd, NULL);
    rg_body_add_capsule(w, body, &sd, rg_v3(-1, 0, 0), rg_v3(1, 0, 0), 0.5f, NULL);
    n0 = body_pixels(w, body, front, &x0, &y0, &focal);
    scale = focal / d;
    check_area("capsule 2 m x r = 0.5", n0, (2 * 2 * 0.5 + polygon * pi * 0.25) * scale * scale, 0.01);
    rg_body_destroy(w, body);

    bd.type = RG_BODY_STATIC;
    body = rg_body_create(w, &bd, NULL);
    check(rg_shape_is_valid(w, rg_body_add_mesh(w, body, &sd, square, NULL)), "a mesh shape added");
    n0 = body_pixels(w, body, front, &x0, &y0, &focal);
    n1 = body_pixels(w, body, behind, &x1, &y1, &focal);
    scale = focal / d;
    check_area("mesh square 2 m from the front", n0, 4 * scale * scale, 0.02);
    check_area("mesh square 2 m from behind", n1, 4 * scale * scale, 0.02);
    rg_body_destroy(w, body);

    /* a box placed at (offset, place) on a body at (p, turn) against the box alone at
       (p + turn offset, turn place) */
    bd = rg_body_default_def();
    bd.position = rg_v3(0.1f, 0.2f, 0);
    bd.orientation = turn;
    body = rg_body_create(w, &bd, NULL);
    rg_body_add_hull(w, body, &sd, box, offset, place, NULL);
    n0 = body_pixels(w, body, front, &x0, &y0, &focal);
    rg_body_destroy(w, body);
    bd.position = rg_v3_add(bd.position, rg_quat_rotate(turn, offset));
    bd.orientation = rg_quat_mul(turn, place);
    bd.hull = box;
    body = rg_body_create(w, &bd, NULL);
    n1 = body_pixels(w, body, front, &x1, &y1, &focal);
    printf("note  placed hull: %d pixels at (%.2f, %.2f), the same hull at the combined pose %d at (%.2f, %.2f)\n", n0,
           x0, y0, n1, x1, y1);
    check(n0 > 1000 && abs(n0 - n1) <= n1 / 200 && fabs(x0 - x1) < 0.5 && fabs(y0 - y1) < 0.5,
          "a placed hull is drawn where the hull at the combined pose is");
    rg_world_destroy(w);
    rg_hull_destroy(box);
    check_mesh_destroy(square);
}

static void check_snapshots(const char *base) {
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_hull *cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_def bd = rg_body_default_def();
    rg_body_id ids[2];
    snap_image im;
    snap_camera cam;
    snapshot_options so = snapshot_default_options();
    double eye[3] = {0, 0, 5}, target[3] = {0, 0, 0}, half, expected;
    int face_id = 0, measured, center, front_faces;
    char path[1100];
    plot_series series[2];

    bd.hull = cube;
    ids[0] = rg_body_create(w, &bd, NULL);
    bd.position = rg_v3(1.0f, 0.4f, -3);   /* behind the first, partly hidden */
    ids[1] = rg_body_create(w, &bd, NULL);
    check(snap_image_init(&im, 400, 400, snap_rgb_make(0, 0, 0)), "snap_image_init");
    cam = snap_camera_look_at(eye, target, 40, 400, 400);

    /* the front face z = 0.5 of the first cube, 4.5 from the eye: a square of half side
       0.5 / 4.5 * focal pixels; the other faces are edge-on or turned away */
    snapshot_draw_body(&im, &cam, w, ids[0], snap_rgb_make(200, 100, 50), &face_id);
    half = 0.5 / 4.5 * cam.focal;
    expected = 4 * half * half;
    measured = count_face_pixels(&im, 0, face_id - 1);
    printf("note  cube seen face-on: %d pixels, analytic %.0f (%.2f%%; tolerance 2%%)\n", measured, expected,
           100 * (measured - expected) / expected);
    check(fabs(measured - expected) < 0.02 * expected, "projected area of a face-on cube");
    front_faces = face_id;
    snapshot_draw_body(&im, &cam, w, ids[1], snap_rgb_make(50, 100, 200), &face_id);
    center = 200 * 400 + 200;
    check(im.face[center] >= 0 && im.face[center] < front_faces, "z-buffer: the nearer cube hides the farther");
    check(count_face_pixels(&im, front_faces, face_id - 1) > 0, "z-buffer: the farther cube shows around the nearer");
    /* a pixel inside both projections (the far cube's front face spans 37..110 pixels right of
       the centre, the near one's up to 61) belongs to the near cube */
    check(im.face[center + 45] >= 0 && im.face[center + 45] < front_faces, "z-buffer: the overlap shows the nearer");
    snap_image_free(&im);

    snprintf(path, sizeof path, "%s.snapshot.png", base);
    so.width = 320;
    so.height = 240;
    so.caption = "check_tools";
    check(snapshot_world(path, w, ids, 2, &so), "snapshot_world writes a PNG");
    series[0].name = "linear";
    series[0].count = 3;
    series[0].x[0] = 1000; series[0].x[1] = 2000; series[0].x[2] = 10000;
    series[0].y[0] = 1; series[0].y[1] = 2; series[0].y[2] = 10;
    series[1].name = "none";
    series[1].count = 0;
    snprintf(path, sizeof path, "%s.plot.png", base);
    check(plot_loglog(path, "check_tools", "x", "y", series, 2), "plot_loglog writes a PNG");
    rg_world_destroy(w);
    rg_hull_destroy(cube);
    check_shape_snapshots();
}

/* ---- the recording -------------------------------------------------------------------------- */

typedef struct scene {
    rg_world *world;
    rg_hull *ground, *wedge, *boxes[3];
    rg_mesh *terrain;
    int terrain_indices[6 * GRID * GRID];
    rg_body_id ids[BODIES];
} scene;

static int scene_create(scene *s) {
    rg_world_def wd = rg_world_default_def();
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    int i;
    memset(s, 0, sizeof *s);
    s->world = rg_world_create(&wd, NULL);
    s->ground = rg_hull_create_box(rg_v3(30, 0.5f, 30), NULL);
    s->wedge = create_wedge();
    s->boxes[0] = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    s->boxes[1] = rg_hull_create_box(rg_v3(1.0f, 0.25f, 0.5f), NULL);
    s->boxes[2] = rg_hull_create_box(rg_v3(0.3f, 0.8f, 0.3f), NULL);
    s->terrain = create_terrain(s->terrain_indices);
    if (!s->world || !s->ground || !s->wedge || !s->boxes[0] || !s->boxes[1] || !s->boxes[2] || !s->terrain) return 0;
    bd.type = RG_BODY_STATIC;
    bd.hull = s->ground;
    bd.position = rg_v3(0, -0.5f, 0);
    s->ids[0] = rg_body_create(s->world, &bd, NULL);
    for (i = 1; i < BODIES - 1; ++i) {
        bd = rg_body_default_def();
        bd.hull = i == HULL_BODIES - 1 ? s->wedge : i < HULL_BODIES ? s->boxes[i % 3] : NULL;
        bd.position = rg_v3((rg_real)(2.5 * (i - 3.5)), (rg_real)(1.5 + 0.3 * i), (rg_real)(i % 2 ? -2 : 2));
        bd.linear_velocity = rg_v3((rg_real)(i % 2 ? 1 : -1), (rg_real)(8 + i % 3), (rg_real)(i % 2 ? 1.5 : -1.5));
        bd.angular_velocity = rg_v3((rg_real)(1 + i), 2, (rg_real)(3 - i));
        s->ids[i] = rg_body_create(s->world, &bd, NULL);
    }
    /* the compound body: a box placed off the origin and turned, a sphere, a capsule */
    rg_body_add_hull(s->world, s->ids[7], &sd, s->boxes[0], rg_v3(0.8f, 0, 0), rg_quat_from_axis_angle(rg_v3(0, 0, 1), 0.5f),
                     NULL);
    rg_body_add_sphere(s->world, s->ids[7], &sd, rg_v3(-0.6f, 0, 0), 0.4f, NULL);
    rg_body_add_capsule(s->world, s->ids[7], &sd, rg_v3(0, 0.5f, -0.5f), rg_v3(0, 0.5f, 0.5f), 0.2f, NULL);
    rg_body_add_sphere(s->world, s->ids[8], &sd, rg_v3(0, 0, 0), 0.5f, NULL);
    rg_body_add_capsule(s->world, s->ids[9], &sd, rg_v3(-0.6f, 0, 0), rg_v3(0.6f, 0.2f, 0), 0.3f, NULL);
    bd = rg_body_default_def();
    bd.type = RG_BODY_STATIC;
    bd.position = rg_v3(0, 1, -9);
    bd.orientation = rg_quat_from_axis_angle(rg_v3(0, 1, 0), 0.35f);
    s->ids[BODIES - 1] = rg_body_create(s->world, &bd, NULL);
    return rg_shape_is_valid(s->world, rg_body_add_mesh(s->world, s->ids[BODIES - 1], &sd, s->terrain, NULL));
}

static void scene_destroy(scene *s) {
    int i;
    rg_world_destroy(s->world);
    rg_hull_destroy(s->ground);
    rg_hull_destroy(s->wedge);
    for (i = 0; i < 3; ++i) rg_hull_destroy(s->boxes[i]);
    check_mesh_destroy(s->terrain);
}

/* Made-up contacts of frame f: under every flying hull body, and one with a stranger. */
static void make_contacts(const scene *s, int f, rg_contact *contacts) {
    rg_body_id stranger;
    int i;
    for (i = 1; i < HULL_BODIES; ++i) {
        rg_contact *c = &contacts[i - 1];
        memset(c, 0, sizeof *c);
        c->a = s->ids[i];
        c->b = s->ids[0];
        c->point = lowest_vertex(s->world, s->ids[i]);
        c->normal = rg_v3(0, 1, 0);
        c->depth = (rg_real)(0.001 * i);
        c->normal_impulse = (rg_real)(0.2 + 0.05 * i + 0.1 * (f % 30) / 30.0);
        c->friction_impulse = rg_v3((rg_real)(0.03 * i), 0, (rg_real)(-0.02 * i));
    }
    memset(&contacts[HULL_BODIES - 1], 0, sizeof contacts[0]);
    stranger.index = 1000;
    stranger.generation = 1;
    contacts[HULL_BODIES - 1].a = stranger;
    contacts[HULL_BODIES - 1].b = s->ids[0];
    contacts[HULL_BODIES - 1].normal = rg_v3(0, 1, 0);
    contacts[HULL_BODIES - 1].normal_impulse = (rg_real)0.1;
}

/* Every shape of the recording equals the world's, geometry included. */
static void check_shapes(const scene *s, const recording *rec) {
    const rg_hull *hulls[5];
    int b, h, i, k, ok = 1;
    /* hulls in order of first use: ground, boxes[1], boxes[2], boxes[0], wedge */
    hulls[0] = s->ground; hulls[1] = s->boxes[1]; hulls[2] = s->boxes[2]; hulls[3] = s->boxes[0]; hulls[4] = s->wedge;
    check(rec->hull_count == 5 && rec->mesh_count == 1, "distinct hulls and meshes");
    for (h = 0; h < 5 && h < rec->hull_count; ++h) {
        const record_hull *rh = &rec->hulls[h];
        int at = 0, face;
        if (rh->vertex_count != rg_hull_vertex_count(hulls[h]) || rh->face_count != rg_hull_face_count(hulls[h])) {
            ok = 0;
            continue;
        }
        for (i = 0; i < rh->vertex_count; ++i)
            if (!same_v3(rh->vertices + 3 * i, rg_hull_vertex(hulls[h], i))) ok = 0;
        for (face = 0; face < rh->face_count; ++face) {
            int indices[64], n = rg_hull_face_vertices(hulls[h], face, indices, 64);
            if (n != rh->face_sizes[face]) ok = 0;
            for (k = 0; k < n && k < rh->face_sizes[face]; ++k)
                if (rh->indices[at + k] != indices[k]) ok = 0;
            at += rh->face_sizes[face];
        }
    }
    check(ok, "hull vertices and faces");
    check(rec->body_hull[0] == 0 && rec->body_hull[1] == 1 && rec->body_hull[2] == 2 && rec->body_hull[3] == 3 &&
              rec->body_hull[4] == 1 && rec->body_hull[HULL_BODIES - 1] == 4 && rec->body_hull[8] == -1,
          "body hull indices");
    check(rec->body_type[0] == RG_BODY_STATIC && rec->body_type[1] == RG_BODY_DYNAMIC &&
              rec->body_type[BODIES - 1] == RG_BODY_STATIC,
          "body types");

    /* the mesh: the world's vertices and kept triangles, which are the triangles made */
    ok = rec->mesh_count == 1;
    if (ok) {
        const record_mesh *m = &rec->meshes[0];
        ok = m->vertex_count == rg_mesh_vertex_count(s->terrain) && m->triangle_count == rg_mesh_triangle_count(s->terrain) &&
             m->triangle_count == 2 * GRID * GRID;
        for (i = 0; ok && i < m->vertex_count; ++i) ok = same_v3(m->vertices + 3 * i, rg_mesh_vertex(s->terrain, i));
        for (i = 0; ok && i < m->triangle_count; ++i) {
            int t[3], j, found = 0;
            rg_mesh_triangle(s->terrain, i, t);
            ok = m->triangles[3 * i] == t[0] && m->triangles[3 * i + 1] == t[1] && m->triangles[3 * i + 2] == t[2];
            /* the same corners in the same turn as one of the triangles made */
            for (j = 0; j < 2 * GRID * GRID; ++j)
                for (k = 0; k < 3; ++k)
                    found |= s->terrain_indices[3 * j] == t[k] && s->terrain_indices[3 * j + 1] == t[(k + 1) % 3] &&
                             s->terrain_indices[3 * j + 2] == t[(k + 2) % 3];
            ok = ok && found;
        }
    }
    check(ok, "mesh vertices and triangles (counter-clockwise kept)");

    /* every body's shapes, in order */
    ok = rec->body_shape_start[BODIES] == rec->shape_count;
    for (b = 0; b < BODIES && ok; ++b) {
        rg_shape_id shapes[8];
        int n = rg_body_shapes(s->world, s->ids[b], shapes, 8);
        if (rec->body_shape_start[b + 1] - rec->body_shape_start[b] != n) { ok = 0; break; }
        for (i = 0; i < n; ++i) {
            const record_shape *r = &rec->shapes[rec->body_shape_start[b] + i];
            rg_vec3 p0 = rg_v3(0, 0, 0), p1 = p0;
            rg_quat q = rg_quat_identity();
            rg_real radius = 0;
            const rg_hull *hull;
            if (r->type != (int)rg_shape_get_type(s->world, shapes[i])) { ok = 0; continue; }
            switch (r->type) {
            case RECORD_SHAPE_HULL:
                hull = rg_shape_get_hull(s->world, shapes[i], &p0, &q);
                ok = ok && r->index >= 0 && r->index < 5 && hulls[r->index] == hull && same_v3(r->a, p0) &&
                     same_float(r->orientation[0], q.x) && same_float(r->orientation[1], q.y) &&
                     same_float(r->orientation[2], q.z) && same_float(r->orientation[3], q.w);
                break;
            case RECORD_SHAPE_SPHERE:
                rg_shape_get_sphere(s->world, shapes[i], &p0, &radius);
                ok = ok && same_v3(r->a, p0) && same_v3(r->b, p0) && same_float(r->radius, radius) && r->index == -1;
                break;
            case RECORD_SHAPE_CAPSULE:
                rg_shape_get_capsule(s->world, shapes[i], &p0, &p1, &radius);
                ok = ok && same_v3(r->a, p0) && same_v3(r->b, p1) && same_float(r->radius, radius);
                break;
            case RECORD_SHAPE_MESH:
                ok = ok && r->index == 0;
                break;
            default:
                ok = 0;
            }
        }
    }
    check(ok, "every body's shapes: types, placements, radii");
    check(rec->shape_count == BODIES + 2 && rec->body_shape_start[8] - rec->body_shape_start[7] == 3 &&
              rec->shapes[rec->body_shape_start[7]].type == RECORD_SHAPE_HULL &&
              rec->shapes[rec->body_shape_start[7]].orientation[2] != 0 &&
              rec->shapes[rec->body_shape_start[7] + 1].type == RECORD_SHAPE_SPHERE &&
              rec->shapes[rec->body_shape_start[7] + 2].type == RECORD_SHAPE_CAPSULE,
          "the compound body holds its placed box, sphere and capsule");
}

/* A version 1 file written here byte by byte (a box hull, two bodies, two frames, one contact)
   is read as before: one hull shape per body, poses and contacts as written. */
static void check_version1(const char *base) {
    static const float box[24] = {-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1};
    static const int faces[24] = {0, 3, 2, 1, 4, 5, 6, 7, 0, 1, 5, 4, 2, 3, 7, 6, 1, 2, 6, 5, 0, 4, 7, 3};
    record__bytes b;
    recording rec;
    const char *error;
    char path[1100];
    FILE *out;
    int i, f, ok;
    memset(&b, 0, sizeof b);
    record__raw(&b, RECORD_MAGIC_V1, 8);
    record__real(&b, 0.5);
    record__u32(&b, 1);
    record__u32(&b, 2);
    record__u32(&b, 8); record__u32(&b, 6); record__u32(&b, 24);
    for (i = 0; i < 24; ++i) record__real(&b, box[i]);
    for (i = 0; i < 6; ++i) record__u32(&b, 4);
    for (i = 0; i < 24; ++i) record__u32(&b, (unsigned long)faces[i]);
    record__u32(&b, 0); record__u32(&b, 2);            /* body 0: the box, dynamic */
    record__u32(&b, RECORD_NONE); record__u32(&b, 0);  /* body 1: no hull, static */
    for (f = 0; f < 2; ++f) {
        record__raw(&b, RECORD_FRAME_MAGIC, 4);
        record__u32(&b, (unsigned long)f);
        record__real(&b, 0.5 * f);
        for (i = 0; i < 14; ++i) record__real(&b, i == 6 || i == 13 ? 1 : 0.25 * (i + f));
        record__u32(&b, 1);
        record__u32(&b, 0); record__u32(&b, RECORD_NONE);
        for (i = 0; i < 11; ++i) record__real(&b, 0.125 * (i + f));
    }
    snprintf(path, sizeof path, "%s.v1", base);
    out = fopen(path, "wb");
    check(out && !b.failed && fwrite(b.data, 1, b.size, out) == b.size, "version 1 file written");
    if (out) fclose(out);
    free(b.data);
    ok = record_read(path, &rec, &error);
    check(ok && rec.version == 1 && rec.frame_count == 2 && rec.body_count == 2 && rec.hull_count == 1 &&
              rec.mesh_count == 0 && rec.contact_frames == 2,
          "version 1: read, counts");
    if (ok) {
        int good = rec.shape_count == 1 && rec.body_shape_start[1] == 1 && rec.body_shape_start[2] == 1 &&
                   rec.shapes[0].type == RECORD_SHAPE_HULL && rec.shapes[0].index == 0 &&
                   rec.shapes[0].orientation[3] == 1 && rec.body_hull[0] == 0 && rec.body_hull[1] == -1 &&
                   rec.body_type[0] == 2 && rec.body_type[1] == 0 && rec.hulls[0].face_count == 6 &&
                   rec.hulls[0].vertices[23] == 1 && rec.frame_dt == 0.5f;
        check(good, "version 1: one hull shape at the origin per body with a hull");
        good = rec.times[1] == 0.5f && rec.contact_start[2] == 2;
        for (f = 0; f < 2; ++f)
            for (i = 0; i < 14; ++i) good = good && rec.poses[f * 14 + i] == (i == 6 || i == 13 ? 1 : 0.25f * (i + f));
        good = good && rec.contacts[1].a == 0 && rec.contacts[1].b == RECORD_NONE && rec.contacts[1].point[0] == 0.125f &&
               rec.contacts[1].friction_impulse[2] == 0.125f * 11;
        check(good, "version 1: poses and contacts");
    }
    record_free(&rec);
    remove(path);
}

/* Writes the recording of the scene at path; the poses and contacts written go to poses and
   contacts (world_contacts: the counts of the last frames). Returns the size of the file when
   no frame is written (the header), or -1. */
static long write_recording(scene *s, const char *path, float (*poses)[BODIES][7],
                            rg_contact (*contacts)[CONTACTS_PER_FRAME], int *world_contacts) {
    recorder *r;
    char header_path[1100];
    long header = -1;
    FILE *in;
    int i, f;
    snprintf(header_path, sizeof header_path, "%s.header", path);
    r = record_open(header_path, s->world, s->ids, BODIES, 1.0 / 60);
    check(r && record_close(r), "record_open and record_close, no frames");
    in = fopen(header_path, "rb");
    if (in && fseek(in, 0, SEEK_END) == 0) header = ftell(in);
    if (in) fclose(in);
    remove(header_path);

    r = record_open(path, s->world, s->ids, BODIES, 1.0 / 60);
    check(r != NULL, "record_open");
    if (!r) return -1;
    for (f = 0; f < FRAMES; ++f) {
        if (f > 0) rg_world_step(s->world, 1.0f / 60);
        for (i = 0; i < BODIES; ++i) {
            rg_vec3 p = rg_body_position(s->world, s->ids[i]);
            rg_quat q = rg_body_orientation(s->world, s->ids[i]);
            poses[f][i][0] = (float)p.x; poses[f][i][1] = (float)p.y; poses[f][i][2] = (float)p.z;
            poses[f][i][3] = (float)q.x; poses[f][i][4] = (float)q.y; poses[f][i][5] = (float)q.z;
            poses[f][i][6] = (float)q.w;
        }
        if (f < CONTACT_FRAMES) {
            make_contacts(s, f, contacts[f]);
            check(record_frame_contacts(r, s->world, f / 60.0, contacts[f], CONTACTS_PER_FRAME), "record_frame_contacts");
            continue;
        }
        if (f == FRAMES - 10) record_set_contacts(r, 1);
        world_contacts[f] = f >= FRAMES - 10 ? rg_world_contacts(s->world, NULL, 0) : 0;
        check(record_frame(r, s->world, f / 60.0), "record_frame");
    }
    check(record_close(r), "record_close");
    return header;
}

/* The frames read back: times, poses (positions exact, orientations within the code's bound),
   contacts; and the size of the file: the static bodies were written in the first frame only. */
static void check_frames(const recording *rec, float (*poses)[BODIES][7], rg_contact (*contacts)[CONTACTS_PER_FRAME],
                         const int *world_contacts, long header, long size) {
    double worst = 0;
    long expected = header;
    int f, i, k, ok = 1;
    for (f = 0; f < FRAMES && f < rec->frame_count; ++f) {
        if (!same_float(rec->times[f], f / 60.0)) ok = 0;
        for (i = 0; i < BODIES; ++i) {
            const float *p = rec->poses + ((size_t)f * BODIES + (size_t)i) * 7;
            double a[4], b[4], angle;
            for (k = 0; k < 3; ++k)
                if (p[k] != poses[f][i][k]) ok = 0;
            for (k = 0; k < 4; ++k) { a[k] = p[3 + k]; b[k] = poses[f][i][3 + k]; }
            angle = rotation_angle(a, b);
            if (angle > worst) worst = angle;
        }
    }
    printf("note  orientations read back: worst rotation error %.3g rad (bound %.3g)\n", worst, RECORD_QUAT_MAX_ANGLE);
    check(ok, "times and positions of every frame, exactly");
    check(worst <= RECORD_QUAT_MAX_ANGLE, "orientations of every frame, within RECORD_QUAT_MAX_ANGLE");

    ok = rec->contact_frames == FRAMES - 10;
    for (f = 0; f < FRAMES && f < rec->frame_count; ++f) {
        long n = rec->contact_start[f + 1] - rec->contact_start[f];
        if (f >= CONTACT_FRAMES) {
            if (n != world_contacts[f]) ok = 0;
            continue;
        }
        if (n != CONTACTS_PER_FRAME) { ok = 0; continue; }
        for (i = 0; i < CONTACTS_PER_FRAME; ++i) {
            const record_contact *c = &rec->contacts[rec->contact_start[f] + i];
            const rg_contact *e = &contacts[f][i];
            unsigned long a = i < HULL_BODIES - 1 ? (unsigned long)(i + 1) : RECORD_NONE;
            if (c->a != a || c->b != 0) ok = 0;
            if (!same_float(c->point[0], e->point.x) || !same_float(c->point[1], e->point.y) ||
                !same_float(c->point[2], e->point.z) || !same_float(c->normal[1], e->normal.y) ||
                !same_float(c->depth, e->depth) || !same_float(c->normal_impulse, e->normal_impulse) ||
                !same_float(c->friction_impulse[0], e->friction_impulse.x) ||
                !same_float(c->friction_impulse[2], e->friction_impulse.z))
                ok = 0;
        }
    }
    check(ok, "contacts: made-up ones with body indices (RECORD_NONE for a stranger), none while off, the world's");

    /* frame 0: every pose; later: the 9 bodies that move (not the ground, not the mesh) */
    for (f = 0; f < FRAMES; ++f) {
        long n = f < CONTACT_FRAMES ? CONTACTS_PER_FRAME : world_contacts[f];
        expected += 16 + (BODIES + 7) / 8 + (f == 0 ? BODIES : BODIES - 2) * RECORD_POSE_BYTES;
        if (f < CONTACT_FRAMES || f >= FRAMES - 10) expected += 4 + n * RECORD_CONTACT_BYTES;
    }
    printf("note  recording: %ld bytes, %ld of them the header; %ld expected when static bodies are written once\n", size,
           header, expected);
    check(size == expected, "static bodies are written in the first frame only");
}

/* A copy cut in the middle of its last frame keeps the whole frames; a bad magic and a missing
   file are refused. */
static void check_damaged(const char *path) {
    FILE *in = fopen(path, "rb"), *out;
    recording rec;
    const char *error;
    char truncated_path[1100], bad_path[1100];
    long size;
    char *data;
    if (!in) { check(0, "open the recording"); return; }
    snprintf(truncated_path, sizeof truncated_path, "%s.truncated", path);
    snprintf(bad_path, sizeof bad_path, "%s.bad", path);
    fseek(in, 0, SEEK_END);
    size = ftell(in);
    fseek(in, 0, SEEK_SET);
    data = (char *)malloc((size_t)size);
    check(data && fread(data, 1, (size_t)size, in) == (size_t)size, "read the file");
    fclose(in);
    if (!data) return;
    out = fopen(truncated_path, "wb");
    fwrite(data, 1, (size_t)size - 30, out);
    fclose(out);
    check(record_read(truncated_path, &rec, &error) && rec.frame_count == FRAMES - 1, "truncated copy keeps whole frames");
    record_free(&rec);
    data[0] = 'X';
    out = fopen(bad_path, "wb");
    fwrite(data, 1, (size_t)size, out);
    fclose(out);
    check(!record_read(bad_path, &rec, &error) && error && strstr(error, "magic"), "bad magic refused");
    check(!record_read("/nonexistent/recording", &rec, &error) && error != NULL, "missing file refused");
    remove(truncated_path);
    remove(bad_path);
    free(data);
}

int main(int argc, char **argv) {
    static float poses[FRAMES][BODIES][7];
    static rg_contact contacts[FRAMES][CONTACTS_PER_FRAME];
    static int world_contacts[FRAMES];
    scene s;
    recording rec;
    const char *error, *path;
    char default_path[1024];
    long header, size = -1;
    FILE *in;
    if (argc > 2) {
        fprintf(stderr, "usage: check_tools [out.rgrec]\n");
        return 2;
    }
    if (argc == 2) {
        path = argv[1];
    } else {
        snprintf(default_path, sizeof default_path, "%s.rgrec", argv[0]);
        path = default_path;
    }
    check_quaternion_code();
    check(scene_create(&s), "hulls, mesh, world and shapes created");
    if (failed) return 1;
    header = write_recording(&s, path, poses, contacts, world_contacts);
    in = fopen(path, "rb");
    if (in && fseek(in, 0, SEEK_END) == 0) size = ftell(in);
    if (in) fclose(in);

    check(record_read(path, &rec, &error), "record_read");
    if (failed) { printf("%s\n", error ? error : ""); return 1; }
    check(rec.version == 2 && rec.frame_count == FRAMES && rec.body_count == BODIES, "counts");
    check(same_float(rec.frame_dt, 1.0 / 60), "frame_dt");
    check_shapes(&s, &rec);
    check_frames(&rec, poses, contacts, world_contacts, header, size);
    record_free(&rec);
    check_damaged(path);
    check_version1(path);
    {
        snapshot_options so = snapshot_default_options();
        char picture[1100];
        snprintf(picture, sizeof picture, "%s.shapes.png", path);
        so.caption = "check_tools: every shape type";
        check(snapshot_world(picture, s.world, s.ids, BODIES, &so), "snapshot_world of every shape type writes a PNG");
    }
    scene_destroy(&s);

    check_snapshots(path);
    printf("recording: %s (%d frames, %d bodies, %d contacts in each of the first %d frames)\n", path, FRAMES, BODIES,
           CONTACTS_PER_FRAME, CONTACT_FRAMES);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
