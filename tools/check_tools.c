/* tools/check_tools: checks of the recording format and the snapshot rasteriser (part of
   `make test`, quick), and the fixture of `make test-replay`.

   Recording: writes a recording (examples/record.h) of bodies in free flight (which rigid.h
   simulates without the solver): boxes of several sizes and a wedge built from its faces, thrown
   and spinning over a static ground, 100 frames at 60 per second. Each frame carries made-up
   contacts (record_frame_contacts) at the lowest vertex of every flying body with an upward
   impulse, and one naming a body that is not recorded, so that the replay page has contacts to
   draw before the solver makes real ones. It reads the file back with record_read and checks
   that everything written comes back exactly (the format stores 32-bit floats: values are
   compared after the same rounding), that a truncated copy loses only its last frame, and that
   a bad magic and a missing file are refused.

   Snapshots (examples/snapshot.h): a cube seen face-on covers the analytic area of its
   perspective projection; the z-buffer shows the nearer of two cubes; a world snapshot and the
   benchmark's log-log plot are written as PNG files.

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

#define FRAMES 100
#define BODIES 7   /* ground + 5 boxes + wedge */
#define CONTACTS_PER_FRAME (BODIES - 1 + 1)

static int passed, failed;

static void check(int ok, const char *what) {
    if (ok) ++passed;
    else { ++failed; printf("FAIL %s\n", what); }
}

static rg_hull *create_wedge(void) {
    static const int sizes[5] = {3, 3, 4, 4, 4};
    static const int indices[18] = {3, 4, 5, 0, 2, 1, 0, 1, 4, 3, 0, 3, 5, 2, 1, 2, 5, 4};
    rg_vec3 v[6];
    v[0] = rg_v3(-0.5f, 0, -1); v[1] = rg_v3(0.5f, 0, -1); v[2] = rg_v3(0, 0.6f, -1);
    v[3] = rg_v3(-0.5f, 0, 1);  v[4] = rg_v3(0.5f, 0, 1);  v[5] = rg_v3(0, 0.6f, 1);
    return rg_hull_create_polyhedron(v, 6, sizes, 5, indices, NULL);
}

/* The lowest vertex of a body in world space. */
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

/* Pixels showing face ids in [first, last]. */
static int count_face_pixels(const snap_image *im, int first, int last) {
    int i, n = 0;
    for (i = 0; i < im->width * im->height; ++i) n += im->face[i] >= first && im->face[i] <= last;
    return n;
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
}

int main(int argc, char **argv) {
    rg_world_def wd = rg_world_default_def();
    rg_world *world = rg_world_create(&wd, NULL);
    rg_hull *ground = rg_hull_create_box(rg_v3(30, 0.5f, 30), NULL), *wedge = create_wedge();
    rg_hull *boxes[3];
    rg_body_id ids[BODIES];
    static float poses[FRAMES][BODIES][7];
    static rg_contact contacts[FRAMES][CONTACTS_PER_FRAME];
    recorder *r;
    recording rec;
    const char *error, *path;
    char truncated_path[1100], bad_path[1100], default_path[1024];
    int i, f, k, all_equal;
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
    boxes[0] = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    boxes[1] = rg_hull_create_box(rg_v3(1.0f, 0.25f, 0.5f), NULL);
    boxes[2] = rg_hull_create_box(rg_v3(0.3f, 0.8f, 0.3f), NULL);
    check(world && ground && wedge && boxes[0] && boxes[1] && boxes[2], "hulls and world created");
    if (!world || !ground || !wedge || !boxes[0] || !boxes[1] || !boxes[2]) return 1;
    {
        rg_body_def bd = rg_body_default_def();
        bd.type = RG_BODY_STATIC;
        bd.hull = ground;
        bd.position = rg_v3(0, -0.5f, 0);
        ids[0] = rg_body_create(world, &bd, NULL);
        for (i = 1; i < BODIES; ++i) {
            bd = rg_body_default_def();
            bd.hull = i == BODIES - 1 ? wedge : boxes[i % 3];
            bd.position = rg_v3((rg_real)(2.5 * (i - 3.5)), (rg_real)(1.5 + 0.3 * i), (rg_real)(i % 2 ? -2 : 2));
            bd.linear_velocity = rg_v3((rg_real)(i % 2 ? 1 : -1), (rg_real)(8 + i % 3), (rg_real)(i % 2 ? 1.5 : -1.5));
            bd.angular_velocity = rg_v3((rg_real)(1 + i), 2, (rg_real)(3 - i));
            ids[i] = rg_body_create(world, &bd, NULL);
        }
    }

    r = record_open(path, world, ids, BODIES, 1.0 / 60);
    check(r != NULL, "record_open");
    if (!r) return 1;
    for (f = 0; f < FRAMES; ++f) {
        if (f > 0) rg_world_step(world, 1.0f / 60);
        for (i = 0; i < BODIES; ++i) {
            rg_vec3 p = rg_body_position(world, ids[i]);
            rg_quat q = rg_body_orientation(world, ids[i]);
            poses[f][i][0] = (float)p.x; poses[f][i][1] = (float)p.y; poses[f][i][2] = (float)p.z;
            poses[f][i][3] = (float)q.x; poses[f][i][4] = (float)q.y; poses[f][i][5] = (float)q.z;
            poses[f][i][6] = (float)q.w;
        }
        for (i = 1; i < BODIES; ++i) {
            rg_contact *c = &contacts[f][i - 1];
            memset(c, 0, sizeof *c);
            c->a = ids[i];
            c->b = ids[0];
            c->point = lowest_vertex(world, ids[i]);
            c->normal = rg_v3(0, 1, 0);
            c->depth = (rg_real)(0.001 * i);
            c->normal_impulse = (rg_real)(0.2 + 0.05 * i + 0.1 * (f % 30) / 30.0);
            c->friction_impulse = rg_v3((rg_real)(0.03 * i), 0, (rg_real)(-0.02 * i));
        }
        {
            rg_contact *c = &contacts[f][BODIES - 1]; /* names a body that is not recorded */
            rg_body_id stranger;
            memset(c, 0, sizeof *c);
            stranger.index = 1000;
            stranger.generation = 1;
            c->a = stranger;
            c->b = ids[0];
            c->point = rg_v3(0, 0, 0);
            c->normal = rg_v3(0, 1, 0);
            c->normal_impulse = (rg_real)0.1;
        }
        check(record_frame_contacts(r, world, f / 60.0, contacts[f], CONTACTS_PER_FRAME), "record_frame_contacts");
    }
    check(record_close(r), "record_close");

    /* read it back */
    check(record_read(path, &rec, &error), "record_read");
    if (failed) { printf("%s\n", error ? error : ""); return 1; }
    check(rec.frame_count == FRAMES && rec.body_count == BODIES && rec.hull_count == 5, "counts");
    check(same_float(rec.frame_dt, 1.0 / 60), "frame_dt");
    /* hulls in order of first use: ground, boxes[1], boxes[2], boxes[0], wedge */
    {
        const rg_hull *expected[5];
        int h;
        expected[0] = ground; expected[1] = boxes[1]; expected[2] = boxes[2]; expected[3] = boxes[0]; expected[4] = wedge;
        all_equal = 1;
        for (h = 0; h < 5 && h < rec.hull_count; ++h) {
            const record_hull *rh = &rec.hulls[h];
            int at = 0, face;
            if (rh->vertex_count != rg_hull_vertex_count(expected[h]) || rh->face_count != rg_hull_face_count(expected[h])) {
                all_equal = 0;
                continue;
            }
            for (i = 0; i < rh->vertex_count; ++i) {
                rg_vec3 v = rg_hull_vertex(expected[h], i);
                if (!same_float(rh->vertices[3 * i], v.x) || !same_float(rh->vertices[3 * i + 1], v.y) ||
                    !same_float(rh->vertices[3 * i + 2], v.z))
                    all_equal = 0;
            }
            for (face = 0; face < rh->face_count; ++face) {
                int indices[64], n = rg_hull_face_vertices(expected[h], face, indices, 64);
                if (n != rh->face_sizes[face]) all_equal = 0;
                for (k = 0; k < n && k < rh->face_sizes[face]; ++k)
                    if (rh->indices[at + k] != indices[k]) all_equal = 0;
                at += rh->face_sizes[face];
            }
        }
        check(all_equal, "hull vertices and faces");
        check(rec.body_hull[0] == 0 && rec.body_hull[1] == 1 && rec.body_hull[2] == 2 && rec.body_hull[3] == 3 &&
                  rec.body_hull[4] == 1 && rec.body_hull[BODIES - 1] == 4,
              "body hull indices");
        check(rec.body_type[0] == RG_BODY_STATIC && rec.body_type[1] == RG_BODY_DYNAMIC, "body types");
    }
    all_equal = 1;
    for (f = 0; f < FRAMES && f < rec.frame_count; ++f) {
        if (!same_float(rec.times[f], f / 60.0)) all_equal = 0;
        for (i = 0; i < BODIES; ++i)
            for (k = 0; k < 7; ++k)
                if (rec.poses[((size_t)f * BODIES + (size_t)i) * 7 + (size_t)k] != poses[f][i][k]) all_equal = 0;
    }
    check(all_equal, "times and poses of every frame");
    all_equal = 1;
    for (f = 0; f < FRAMES && f < rec.frame_count; ++f) {
        if (rec.contact_start[f + 1] - rec.contact_start[f] != CONTACTS_PER_FRAME) { all_equal = 0; continue; }
        for (i = 0; i < CONTACTS_PER_FRAME; ++i) {
            const record_contact *c = &rec.contacts[rec.contact_start[f] + i];
            const rg_contact *e = &contacts[f][i];
            unsigned long a = i < BODIES - 1 ? (unsigned long)(i + 1) : RECORD_NONE;
            if (c->a != a || c->b != 0) all_equal = 0;
            if (!same_float(c->point[0], e->point.x) || !same_float(c->point[1], e->point.y) ||
                !same_float(c->point[2], e->point.z) || !same_float(c->normal[1], e->normal.y) ||
                !same_float(c->depth, e->depth) || !same_float(c->normal_impulse, e->normal_impulse) ||
                !same_float(c->friction_impulse[0], e->friction_impulse.x) ||
                !same_float(c->friction_impulse[2], e->friction_impulse.z))
                all_equal = 0;
        }
    }
    check(all_equal, "contacts of every frame, with body indices (RECORD_NONE for a stranger)");
    record_free(&rec);

    /* a copy cut in the middle of its last frame: the reader keeps the whole frames */
    {
        FILE *in = fopen(path, "rb"), *out;
        long size;
        char *data;
        snprintf(truncated_path, sizeof truncated_path, "%s.truncated", path);
        snprintf(bad_path, sizeof bad_path, "%s.bad", path);
        fseek(in, 0, SEEK_END);
        size = ftell(in);
        fseek(in, 0, SEEK_SET);
        data = (char *)malloc((size_t)size);
        check(data && fread(data, 1, (size_t)size, in) == (size_t)size, "read the file");
        fclose(in);
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

    rg_world_destroy(world);
    rg_hull_destroy(ground);
    rg_hull_destroy(wedge);
    for (i = 0; i < 3; ++i) rg_hull_destroy(boxes[i]);
    check_snapshots(path);
    printf("recording: %s (%d frames, %d bodies, %d contacts per frame)\n", path, FRAMES, BODIES, CONTACTS_PER_FRAME);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
