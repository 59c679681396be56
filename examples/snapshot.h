/* snapshot.h: PNG pictures of a rigid.h world, drawn by a small software rasteriser (flat-shaded
   shapes with a z-buffer and dark outlines, shadows on the ground, a faint checkerboard on it,
   haze in the distance), for CI logs and the README (`make pictures`). Header-only, every
   function static; writes PNG with stb_image_write (Debian's libstb-dev, -I/usr/include/stb).

   The 2D part (snap_image, lines, rectangles, 5x7 text) needs nothing but the C library and is
   also what tools/plot.h draws with. The 3D part (snapshot_world) needs rigid.h included first
   and uses its public API only: every shape of every body (rg_body_shapes; hulls where they are
   placed, spheres and capsules as inscribed polyhedra, meshes seen from both sides), its pose
   (rg_body_position, rg_body_orientation) and the contacts (rg_world_contacts).

      rg_body_id ids[...];                       (the bodies to draw, any order)
      snapshot_options o = snapshot_default_options();
      o.caption = "pyramid, t = 10 s";
      snapshot_world("pyramid.png", world, ids, count, &o);

   stb_image_write's implementation is compiled here, static, unless the program defines
   SNAPSHOT_NO_STB_IMAGE_WRITE_IMPLEMENTATION (it then compiles it itself, elsewhere). */
#ifndef RIGID_SNAPSHOT_H
#define RIGID_SNAPSHOT_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* every function is static; unused ones must not warn in programs that use a few */
#if defined(__GNUC__) || defined(__clang__)
#define SNAP__STATIC static __attribute__((unused))
#else
#define SNAP__STATIC static
#endif

#ifndef SNAPSHOT_NO_STB_IMAGE_WRITE_IMPLEMENTATION
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include "stb_image_write.h"
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
#else
#include "stb_image_write.h"
#endif

/* ---- 2D: images, lines, text ---------------------------------------------------------------- */

typedef struct snap_rgb { unsigned char r, g, b; } snap_rgb;

typedef struct snap_image {
    int width, height;
    unsigned char *rgb;   /* width * height * 3 */
    float *depth;         /* 1/z of the nearest surface drawn so far, 0 = nothing (3D only) */
    int *face;            /* id of the face seen at each pixel, -1 = none (3D only) */
} snap_image;

SNAP__STATIC snap_rgb snap_rgb_make(int r, int g, int b) {
    snap_rgb c;
    c.r = (unsigned char)(r < 0 ? 0 : r > 255 ? 255 : r);
    c.g = (unsigned char)(g < 0 ? 0 : g > 255 ? 255 : g);
    c.b = (unsigned char)(b < 0 ? 0 : b > 255 ? 255 : b);
    return c;
}

SNAP__STATIC snap_rgb snap_rgb_scale(snap_rgb c, double s) {
    return snap_rgb_make((int)(c.r * s + 0.5), (int)(c.g * s + 0.5), (int)(c.b * s + 0.5));
}

/* Returns 0 when out of memory. The image starts filled with background. */
SNAP__STATIC int snap_image_init(snap_image *im, int width, int height, snap_rgb background) {
    size_t n = (size_t)width * (size_t)height, i;
    memset(im, 0, sizeof *im);
    if (width <= 0 || height <= 0) return 0;
    im->width = width;
    im->height = height;
    im->rgb = (unsigned char *)malloc(n * 3);
    im->depth = (float *)calloc(n, sizeof(float));
    im->face = (int *)malloc(n * sizeof(int));
    if (!im->rgb || !im->depth || !im->face) {
        free(im->rgb); free(im->depth); free(im->face);
        memset(im, 0, sizeof *im);
        return 0;
    }
    for (i = 0; i < n; ++i) {
        im->rgb[3 * i] = background.r;
        im->rgb[3 * i + 1] = background.g;
        im->rgb[3 * i + 2] = background.b;
        im->face[i] = -1;
    }
    return 1;
}

SNAP__STATIC void snap_image_free(snap_image *im) {
    free(im->rgb); free(im->depth); free(im->face);
    memset(im, 0, sizeof *im);
}

/* Writes the image, averaged down by an integer factor (1: as is; 2 or 3 smooth the edges of
   an image drawn that many times larger). Returns 1 on success. */
SNAP__STATIC int snap_image_write_png(const snap_image *im, const char *path, int factor) {
    int w, h, x, y, i, j, c, ok;
    unsigned char *out;
    if (factor < 1) factor = 1;
    w = im->width / factor;
    h = im->height / factor;
    if (w <= 0 || h <= 0) return 0;
    if (factor == 1) return stbi_write_png(path, w, h, 3, im->rgb, w * 3) != 0;
    out = (unsigned char *)malloc((size_t)w * (size_t)h * 3);
    if (!out) return 0;
    for (y = 0; y < h; ++y)
        for (x = 0; x < w; ++x)
            for (c = 0; c < 3; ++c) {
                int sum = 0;
                for (j = 0; j < factor; ++j)
                    for (i = 0; i < factor; ++i)
                        sum += im->rgb[3 * ((size_t)(y * factor + j) * (size_t)im->width + (size_t)(x * factor + i)) + (size_t)c];
                out[3 * ((size_t)y * (size_t)w + (size_t)x) + (size_t)c] = (unsigned char)((sum + factor * factor / 2) / (factor * factor));
            }
    ok = stbi_write_png(path, w, h, 3, out, w * 3) != 0;
    free(out);
    return ok;
}

SNAP__STATIC void snap_pixel(snap_image *im, int x, int y, snap_rgb c) {
    unsigned char *p;
    if (x < 0 || y < 0 || x >= im->width || y >= im->height) return;
    p = im->rgb + 3 * ((size_t)y * (size_t)im->width + (size_t)x);
    p[0] = c.r; p[1] = c.g; p[2] = c.b;
}

SNAP__STATIC void snap_fill_rect(snap_image *im, int x0, int y0, int x1, int y1, snap_rgb c) {
    int x, y;
    for (y = y0; y < y1; ++y)
        for (x = x0; x < x1; ++x) snap_pixel(im, x, y, c);
}

/* A line of the given thickness in pixels (a square brush stepped along the longer axis). */
SNAP__STATIC void snap_line(snap_image *im, double x0, double y0, double x1, double y1, snap_rgb c, int thickness) {
    double dx = x1 - x0, dy = y1 - y0, length = fabs(dx) > fabs(dy) ? fabs(dx) : fabs(dy);
    int steps = (int)ceil(length), i, half = thickness / 2;
    if (steps > 100000) return; /* far outside any image */
    for (i = 0; i <= steps; ++i) {
        double t = steps ? (double)i / steps : 0;
        int x = (int)floor(x0 + dx * t + 0.5) - half, y = (int)floor(y0 + dy * t + 0.5) - half;
        snap_fill_rect(im, x, y, x + thickness, y + thickness, c);
    }
}

/* 5x7 glyphs for ASCII 32..126 with two rows below for the descenders of g, j, p, q, y and
   commas: one byte per row, bit 4 the leftmost column; drawn for this file. */
static const unsigned char snap__font[95][9] = {
    {0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00}, {0x04,0x04,0x04,0x04,0x04,0x00,0x04,0x00,0x00}, {0x0a,0x0a,0x0a,0x00,0x00,0x00,0x00,0x00,0x00},
    {0x0a,0x0a,0x1f,0x0a,0x1f,0x0a,0x0a,0x00,0x00}, {0x04,0x0f,0x14,0x0e,0x05,0x1e,0x04,0x00,0x00}, {0x18,0x19,0x02,0x04,0x08,0x13,0x03,0x00,0x00},
    {0x0c,0x12,0x14,0x08,0x15,0x12,0x0d,0x00,0x00}, {0x04,0x04,0x08,0x00,0x00,0x00,0x00,0x00,0x00}, {0x02,0x04,0x08,0x08,0x08,0x04,0x02,0x00,0x00},
    {0x08,0x04,0x02,0x02,0x02,0x04,0x08,0x00,0x00}, {0x00,0x04,0x15,0x0e,0x15,0x04,0x00,0x00,0x00}, {0x00,0x04,0x04,0x1f,0x04,0x04,0x00,0x00,0x00},
    {0x00,0x00,0x00,0x00,0x00,0x0c,0x0c,0x04,0x08}, {0x00,0x00,0x00,0x1f,0x00,0x00,0x00,0x00,0x00}, {0x00,0x00,0x00,0x00,0x00,0x0c,0x0c,0x00,0x00},
    {0x00,0x01,0x02,0x04,0x08,0x10,0x00,0x00,0x00}, {0x0e,0x11,0x13,0x15,0x19,0x11,0x0e,0x00,0x00}, {0x04,0x0c,0x04,0x04,0x04,0x04,0x0e,0x00,0x00},
    {0x0e,0x11,0x01,0x02,0x04,0x08,0x1f,0x00,0x00}, {0x1f,0x02,0x04,0x02,0x01,0x11,0x0e,0x00,0x00}, {0x02,0x06,0x0a,0x12,0x1f,0x02,0x02,0x00,0x00},
    {0x1f,0x10,0x1e,0x01,0x01,0x11,0x0e,0x00,0x00}, {0x06,0x08,0x10,0x1e,0x11,0x11,0x0e,0x00,0x00}, {0x1f,0x01,0x02,0x04,0x08,0x08,0x08,0x00,0x00},
    {0x0e,0x11,0x11,0x0e,0x11,0x11,0x0e,0x00,0x00}, {0x0e,0x11,0x11,0x0f,0x01,0x02,0x0c,0x00,0x00}, {0x00,0x0c,0x0c,0x00,0x0c,0x0c,0x00,0x00,0x00},
    {0x00,0x0c,0x0c,0x00,0x00,0x0c,0x0c,0x04,0x08}, {0x02,0x04,0x08,0x10,0x08,0x04,0x02,0x00,0x00}, {0x00,0x00,0x1f,0x00,0x1f,0x00,0x00,0x00,0x00},
    {0x08,0x04,0x02,0x01,0x02,0x04,0x08,0x00,0x00}, {0x0e,0x11,0x01,0x02,0x04,0x00,0x04,0x00,0x00}, {0x0e,0x11,0x01,0x0d,0x15,0x15,0x0e,0x00,0x00},
    {0x0e,0x11,0x11,0x11,0x1f,0x11,0x11,0x00,0x00}, {0x1e,0x11,0x11,0x1e,0x11,0x11,0x1e,0x00,0x00}, {0x0e,0x11,0x10,0x10,0x10,0x11,0x0e,0x00,0x00},
    {0x1c,0x12,0x11,0x11,0x11,0x12,0x1c,0x00,0x00}, {0x1f,0x10,0x10,0x1e,0x10,0x10,0x1f,0x00,0x00}, {0x1f,0x10,0x10,0x1e,0x10,0x10,0x10,0x00,0x00},
    {0x0e,0x11,0x10,0x17,0x11,0x11,0x0f,0x00,0x00}, {0x11,0x11,0x11,0x1f,0x11,0x11,0x11,0x00,0x00}, {0x0e,0x04,0x04,0x04,0x04,0x04,0x0e,0x00,0x00},
    {0x07,0x02,0x02,0x02,0x02,0x12,0x0c,0x00,0x00}, {0x11,0x12,0x14,0x18,0x14,0x12,0x11,0x00,0x00}, {0x10,0x10,0x10,0x10,0x10,0x10,0x1f,0x00,0x00},
    {0x11,0x1b,0x15,0x15,0x11,0x11,0x11,0x00,0x00}, {0x11,0x11,0x19,0x15,0x13,0x11,0x11,0x00,0x00}, {0x0e,0x11,0x11,0x11,0x11,0x11,0x0e,0x00,0x00},
    {0x1e,0x11,0x11,0x1e,0x10,0x10,0x10,0x00,0x00}, {0x0e,0x11,0x11,0x11,0x15,0x12,0x0d,0x00,0x00}, {0x1e,0x11,0x11,0x1e,0x14,0x12,0x11,0x00,0x00},
    {0x0f,0x10,0x10,0x0e,0x01,0x01,0x1e,0x00,0x00}, {0x1f,0x04,0x04,0x04,0x04,0x04,0x04,0x00,0x00}, {0x11,0x11,0x11,0x11,0x11,0x11,0x0e,0x00,0x00},
    {0x11,0x11,0x11,0x11,0x11,0x0a,0x04,0x00,0x00}, {0x11,0x11,0x11,0x15,0x15,0x15,0x0a,0x00,0x00}, {0x11,0x11,0x0a,0x04,0x0a,0x11,0x11,0x00,0x00},
    {0x11,0x11,0x11,0x0a,0x04,0x04,0x04,0x00,0x00}, {0x1f,0x01,0x02,0x04,0x08,0x10,0x1f,0x00,0x00}, {0x0e,0x08,0x08,0x08,0x08,0x08,0x0e,0x00,0x00},
    {0x00,0x10,0x08,0x04,0x02,0x01,0x00,0x00,0x00}, {0x0e,0x02,0x02,0x02,0x02,0x02,0x0e,0x00,0x00}, {0x04,0x0a,0x11,0x00,0x00,0x00,0x00,0x00,0x00},
    {0x00,0x00,0x00,0x00,0x00,0x00,0x1f,0x00,0x00}, {0x08,0x04,0x02,0x00,0x00,0x00,0x00,0x00,0x00}, {0x00,0x00,0x0e,0x01,0x0f,0x11,0x0f,0x00,0x00},
    {0x10,0x10,0x16,0x19,0x11,0x11,0x1e,0x00,0x00}, {0x00,0x00,0x0e,0x10,0x10,0x11,0x0e,0x00,0x00}, {0x01,0x01,0x0d,0x13,0x11,0x11,0x0f,0x00,0x00},
    {0x00,0x00,0x0e,0x11,0x1f,0x10,0x0e,0x00,0x00}, {0x06,0x09,0x08,0x1c,0x08,0x08,0x08,0x00,0x00}, {0x00,0x00,0x0f,0x11,0x11,0x11,0x0f,0x01,0x0e},
    {0x10,0x10,0x16,0x19,0x11,0x11,0x11,0x00,0x00}, {0x04,0x00,0x0c,0x04,0x04,0x04,0x0e,0x00,0x00}, {0x02,0x00,0x06,0x02,0x02,0x02,0x02,0x12,0x0c},
    {0x10,0x10,0x12,0x14,0x18,0x14,0x12,0x00,0x00}, {0x0c,0x04,0x04,0x04,0x04,0x04,0x0e,0x00,0x00}, {0x00,0x00,0x1a,0x15,0x15,0x11,0x11,0x00,0x00},
    {0x00,0x00,0x16,0x19,0x11,0x11,0x11,0x00,0x00}, {0x00,0x00,0x0e,0x11,0x11,0x11,0x0e,0x00,0x00}, {0x00,0x00,0x1e,0x11,0x11,0x11,0x1e,0x10,0x10},
    {0x00,0x00,0x0f,0x11,0x11,0x11,0x0f,0x01,0x01}, {0x00,0x00,0x16,0x19,0x10,0x10,0x10,0x00,0x00}, {0x00,0x00,0x0e,0x10,0x0e,0x01,0x1e,0x00,0x00},
    {0x08,0x08,0x1c,0x08,0x08,0x09,0x06,0x00,0x00}, {0x00,0x00,0x11,0x11,0x11,0x13,0x0d,0x00,0x00}, {0x00,0x00,0x11,0x11,0x11,0x0a,0x04,0x00,0x00},
    {0x00,0x00,0x11,0x11,0x15,0x15,0x0a,0x00,0x00}, {0x00,0x00,0x11,0x0a,0x04,0x0a,0x11,0x00,0x00}, {0x00,0x00,0x11,0x11,0x11,0x11,0x0f,0x01,0x0e},
    {0x00,0x00,0x1f,0x02,0x04,0x08,0x1f,0x00,0x00}, {0x02,0x04,0x04,0x08,0x04,0x04,0x02,0x00,0x00}, {0x04,0x04,0x04,0x04,0x04,0x04,0x04,0x00,0x00},
    {0x08,0x04,0x04,0x02,0x04,0x04,0x08,0x00,0x00}, {0x00,0x00,0x08,0x15,0x02,0x00,0x00,0x00,0x00},
};

/* Text with its top-left corner at (x, y); each font pixel becomes scale x scale pixels, a
   character advances 6 * scale, capitals are 7 * scale high and descenders reach 9 * scale. */
SNAP__STATIC void snap_text(snap_image *im, int x, int y, const char *text, snap_rgb c, int scale) {
    int column = 0, row, bit;
    for (; *text; ++text, ++column) {
        unsigned char ch = (unsigned char)*text;
        const unsigned char *glyph;
        if (ch < 32 || ch > 126) ch = '?';
        glyph = snap__font[ch - 32];
        for (row = 0; row < 9; ++row)
            for (bit = 0; bit < 5; ++bit)
                if (glyph[row] & (0x10 >> bit))
                    snap_fill_rect(im, x + (column * 6 + bit) * scale, y + row * scale,
                                   x + (column * 6 + bit + 1) * scale, y + (row + 1) * scale, c);
    }
}

SNAP__STATIC int snap_text_width(const char *text, int scale) { return (int)strlen(text) * 6 * scale - scale; }

/* ---- 3D: a pinhole camera and flat convex polygons with a z-buffer --------------------------- */

typedef struct snap_camera {
    double eye[3], right[3], up[3], forward[3];  /* camera frame in world space */
    double focal;                                /* pixels per unit of x/z */
    double cx, cy;                               /* image centre, pixels */
    double near_z;                               /* polygons are clipped at this depth */
} snap_camera;

SNAP__STATIC double snap__dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

SNAP__STATIC void snap__cross(const double a[3], const double b[3], double r[3]) {
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

SNAP__STATIC void snap__normalize(double v[3]) {
    double length = sqrt(snap__dot(v, v));
    if (length > 0) { v[0] /= length; v[1] /= length; v[2] /= length; }
}

/* A camera at eye looking at target, y up, with the given vertical field of view. */
SNAP__STATIC snap_camera snap_camera_look_at(const double eye[3], const double target[3], double fov_y_degrees,
                                       int width, int height) {
    static const double world_up[3] = {0, 1, 0};
    snap_camera c;
    int k;
    for (k = 0; k < 3; ++k) {
        c.eye[k] = eye[k];
        c.forward[k] = target[k] - eye[k];
    }
    snap__normalize(c.forward);
    snap__cross(c.forward, world_up, c.right);
    if (snap__dot(c.right, c.right) < 1e-12) { c.right[0] = 1; c.right[1] = c.right[2] = 0; } /* looking straight down */
    snap__normalize(c.right);
    snap__cross(c.right, c.forward, c.up);
    c.focal = 0.5 * height / tan(0.5 * fov_y_degrees * 3.14159265358979323846 / 180);
    c.cx = 0.5 * width;
    c.cy = 0.5 * height;
    c.near_z = 0.05;
    return c;
}

/* World point to camera space: x right, y up, z the distance in front of the camera. */
SNAP__STATIC void snap_camera_transform(const snap_camera *c, const double p[3], double out[3]) {
    double d[3];
    d[0] = p[0] - c->eye[0]; d[1] = p[1] - c->eye[1]; d[2] = p[2] - c->eye[2];
    out[0] = snap__dot(d, c->right);
    out[1] = snap__dot(d, c->up);
    out[2] = snap__dot(d, c->forward);
}

/* Clips a polygon (camera space) to z >= near, one plane of Sutherland-Hodgman. Returns the new
   count (at most count + 1). */
SNAP__STATIC int snap__clip_near(const double (*in)[3], int count, double near_z, double (*out)[3]) {
    int i, n = 0;
    for (i = 0; i < count; ++i) {
        const double *a = in[i], *b = in[(i + 1) % count];
        int a_in = a[2] >= near_z, b_in = b[2] >= near_z;
        if (a_in) { out[n][0] = a[0]; out[n][1] = a[1]; out[n][2] = a[2]; ++n; }
        if (a_in != b_in) {
            double t = (near_z - a[2]) / (b[2] - a[2]);
            out[n][0] = a[0] + (b[0] - a[0]) * t;
            out[n][1] = a[1] + (b[1] - a[1]) * t;
            out[n][2] = near_z;
            ++n;
        }
    }
    return n;
}

/* One screen triangle; w is 1/z, which is affine in screen space, so interpolating it is exact. */
SNAP__STATIC void snap__triangle(snap_image *im, const double x[3], const double y[3], const double w[3], snap_rgb c,
                           int face) {
    double area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
    int x0, x1, y0, y1, px, py;
    if (fabs(area) < 1e-12) return;
    x0 = (int)floor(fmin(x[0], fmin(x[1], x[2])));
    x1 = (int)ceil(fmax(x[0], fmax(x[1], x[2])));
    y0 = (int)floor(fmin(y[0], fmin(y[1], y[2])));
    y1 = (int)ceil(fmax(y[0], fmax(y[1], y[2])));
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > im->width - 1) x1 = im->width - 1;
    if (y1 > im->height - 1) y1 = im->height - 1;
    for (py = y0; py <= y1; ++py)
        for (px = x0; px <= x1; ++px) {
            double sx = px + 0.5, sy = py + 0.5, b0, b1, b2, depth;
            size_t at;
            b0 = ((x[1] - sx) * (y[2] - sy) - (x[2] - sx) * (y[1] - sy)) / area;
            b1 = ((x[2] - sx) * (y[0] - sy) - (x[0] - sx) * (y[2] - sy)) / area;
            b2 = 1 - b0 - b1;
            if (b0 < 0 || b1 < 0 || b2 < 0) continue;
            depth = b0 * w[0] + b1 * w[1] + b2 * w[2];
            at = (size_t)py * (size_t)im->width + (size_t)px;
            if (depth <= im->depth[at]) continue;
            im->depth[at] = (float)depth;
            im->face[at] = face;
            im->rgb[3 * at] = c.r; im->rgb[3 * at + 1] = c.g; im->rgb[3 * at + 2] = c.b;
        }
}

#define SNAP_MAX_POLYGON 64

/* A convex polygon given in camera space, clipped at the near plane, filled with one colour;
   face is the id recorded for the outline pass. */
SNAP__STATIC void snap_polygon(snap_image *im, const snap_camera *cam, const double (*points)[3], int count, snap_rgb c,
                         int face) {
    double clipped[SNAP_MAX_POLYGON + 1][3], x[3], y[3], w[3];
    int n, i;
    if (count < 3 || count > SNAP_MAX_POLYGON) return;
    n = snap__clip_near(points, count, cam->near_z, clipped);
    if (n < 3) return;
    /* fan from vertex 0 */
    w[0] = 1 / clipped[0][2];
    x[0] = cam->cx + clipped[0][0] * w[0] * cam->focal;
    y[0] = cam->cy - clipped[0][1] * w[0] * cam->focal;
    for (i = 1; i + 1 < n; ++i) {
        int k;
        for (k = 1; k < 3; ++k) {
            const double *p = clipped[i + k - 1];
            w[k] = 1 / p[2];
            x[k] = cam->cx + p[0] * w[k] * cam->focal;
            y[k] = cam->cy - p[1] * w[k] * cam->focal;
        }
        snap__triangle(im, x, y, w, c, face);
    }
}

/* Sets to 1 the bytes of mask (one per pixel) that a convex polygon given in camera space
   covers, after clipping at the near plane: the shadow pass of snapshot_world. A pixel is inside
   when its centre lies on the inner side of every edge. */
SNAP__STATIC void snap_mask_polygon(const snap_image *im, const snap_camera *cam, const double (*points)[3], int count,
                                    unsigned char *mask) {
    double clipped[SNAP_MAX_POLYGON + 1][3], x[SNAP_MAX_POLYGON + 1], y[SNAP_MAX_POLYGON + 1], area = 0;
    double x_min, x_max, y_min, y_max;
    int n, i, px, py, x0, x1, y0, y1;
    if (count < 3 || count > SNAP_MAX_POLYGON) return;
    n = snap__clip_near(points, count, cam->near_z, clipped);
    if (n < 3) return;
    for (i = 0; i < n; ++i) {
        x[i] = cam->cx + clipped[i][0] / clipped[i][2] * cam->focal;
        y[i] = cam->cy - clipped[i][1] / clipped[i][2] * cam->focal;
    }
    x_min = x_max = x[0];
    y_min = y_max = y[0];
    for (i = 0; i < n; ++i) {
        int j = (i + 1) % n;
        area += x[i] * y[j] - x[j] * y[i];
        x_min = fmin(x_min, x[i]); x_max = fmax(x_max, x[i]);
        y_min = fmin(y_min, y[i]); y_max = fmax(y_max, y[i]);
    }
    if (fabs(area) < 1e-12 || x_max < 0 || y_max < 0 || x_min > im->width || y_min > im->height) return;
    x0 = x_min < 0 ? 0 : (int)floor(x_min);
    y0 = y_min < 0 ? 0 : (int)floor(y_min);
    x1 = x_max > im->width - 1 ? im->width - 1 : (int)ceil(x_max);
    y1 = y_max > im->height - 1 ? im->height - 1 : (int)ceil(y_max);
    for (py = y0; py <= y1; ++py)
        for (px = x0; px <= x1; ++px) {
            double sx = px + 0.5, sy = py + 0.5;
            for (i = 0; i < n; ++i) {
                int j = (i + 1) % n;
                double edge = (x[j] - x[i]) * (sy - y[i]) - (y[j] - y[i]) * (sx - x[i]);
                if (edge * area < 0) break;
            }
            if (i == n) mask[(size_t)py * (size_t)im->width + (size_t)px] = 1;
        }
}

/* Darkens every pixel whose right or lower neighbour shows another face: the outlines of the
   polygons, which make boxes of one colour readable. */
SNAP__STATIC void snap_outline_faces(snap_image *im, double darken) {
    int x, y;
    for (y = 0; y + 1 < im->height; ++y)
        for (x = 0; x + 1 < im->width; ++x) {
            size_t at = (size_t)y * (size_t)im->width + (size_t)x;
            int f = im->face[at];
            if (f != im->face[at + 1] || f != im->face[at + (size_t)im->width]) {
                unsigned char *p = im->rgb + 3 * at;
                p[0] = (unsigned char)(p[0] * darken);
                p[1] = (unsigned char)(p[1] * darken);
                p[2] = (unsigned char)(p[2] * darken);
            }
        }
}

/* A line between two world points, drawn where it is not behind a surface by more than
   tolerance metres (so lines on visible faces show, lines inside a pile do not). */
SNAP__STATIC void snap_line3(snap_image *im, const snap_camera *cam, const double a[3], const double b[3], snap_rgb c,
                       int thickness, double tolerance) {
    double pa[3], pb[3], dx, dy, length;
    int steps, i, half = thickness / 2;
    snap_camera_transform(cam, a, pa);
    snap_camera_transform(cam, b, pb);
    if (pa[2] < cam->near_z && pb[2] < cam->near_z) return;
    if (pa[2] < cam->near_z || pb[2] < cam->near_z) { /* clip to the near plane */
        double *behind = pa[2] < cam->near_z ? pa : pb, *front = behind == pa ? pb : pa;
        double t = (cam->near_z - front[2]) / (behind[2] - front[2]);
        int k;
        for (k = 0; k < 3; ++k) behind[k] = front[k] + (behind[k] - front[k]) * t;
    }
    {
        double ax = cam->cx + pa[0] / pa[2] * cam->focal, ay = cam->cy - pa[1] / pa[2] * cam->focal;
        double bx = cam->cx + pb[0] / pb[2] * cam->focal, by = cam->cy - pb[1] / pb[2] * cam->focal;
        dx = bx - ax;
        dy = by - ay;
        length = fabs(dx) > fabs(dy) ? fabs(dx) : fabs(dy);
        if (length > 20000) return;
        steps = (int)ceil(length);
        for (i = 0; i <= steps; ++i) {
            double t = steps ? (double)i / steps : 0;
            /* 1/z is affine in screen space */
            double w = (1 - t) / pa[2] + t / pb[2];
            int x = (int)floor(ax + dx * t + 0.5), y = (int)floor(ay + dy * t + 0.5), u, v;
            for (v = y - half; v < y - half + thickness; ++v)
                for (u = x - half; u < x - half + thickness; ++u) {
                    size_t at;
                    if (u < 0 || v < 0 || u >= im->width || v >= im->height) continue;
                    at = (size_t)v * (size_t)im->width + (size_t)u;
                    if (im->depth[at] > 0 && 1 / w > 1 / im->depth[at] + tolerance) continue;
                    snap_pixel(im, u, v, c);
                }
        }
    }
}

/* Fills the image with a vertical gradient from top to bottom. */
SNAP__STATIC void snap_gradient(snap_image *im, snap_rgb top, snap_rgb bottom) {
    int x, y;
    for (y = 0; y < im->height; ++y) {
        double t = im->height > 1 ? (double)y / (im->height - 1) : 0;
        snap_rgb c = snap_rgb_make((int)(top.r + (bottom.r - top.r) * t), (int)(top.g + (bottom.g - top.g) * t),
                                   (int)(top.b + (bottom.b - top.b) * t));
        for (x = 0; x < im->width; ++x) snap_pixel(im, x, y, c);
    }
}

/* A colour for body number i: eight muted colours that go well together, each body a little
   lighter or darker than its neighbours so that touching bodies of one colour stay apart. */
SNAP__STATIC snap_rgb snap_palette(int i) {
    static const unsigned char colors[8][3] = {
        {226, 112, 85}, {242, 165, 98}, {232, 198, 110}, {140, 180, 122},
        {64, 160, 150}, {82, 132, 172}, {140, 116, 190}, {210, 118, 156},
    };
    unsigned u = (unsigned)(i < 0 ? -i : i);
    const unsigned char *c = colors[u % 8];
    double shade = 0.92 + 0.04 * (double)((u * 7u / 8u) % 4u); /* 0.92 .. 1.04 */
    return snap_rgb_make((int)(c[0] * shade + 0.5), (int)(c[1] * shade + 0.5), (int)(c[2] * shade + 0.5));
}

/* ---- rigid.h worlds ------------------------------------------------------------------------ */
#ifdef RIGID_H_INCLUDED

typedef struct snapshot_options {
    int width, height;          /* of the PNG */
    int supersample;            /* drawn this many times larger and averaged down (smooth edges) */
    int auto_camera;            /* 1: frame the bodies, looking along -view_direction */
    double view_direction[3];   /* from the scene towards the eye (auto camera) */
    double eye[3], target[3];   /* the camera when auto_camera is 0 */
    double fov_degrees;         /* vertical field of view */
    int draw_contacts;          /* contact points and impulses as red lines (PhysLab style) */
    double impulse_scale;       /* metres of line per N s of impulse; 0: the largest is 1 m long */
    const char *caption;        /* drawn top left, or NULL */
    double light[3];            /* towards the (distant) light; need not be unit */
    double ambient;             /* brightness of a face turned away from the light, 0..1 */
    int shadows;                /* 1: the bodies cast shadows on the ground */
    double shadow;              /* brightness of the ground in shadow, 0..1 */
    double checker;             /* side in metres of the ground's faint checkerboard; 0: none */
    double fog;                 /* 0..1: how much the farthest surfaces fade into the sky */
    /* the colour of each body; NULL: snapshot_body_color. index is the body's place in ids */
    snap_rgb (*color)(const rg_world *w, rg_body_id id, int index, void *user);
    void *color_user;
} snapshot_options;

SNAP__STATIC snapshot_options snapshot_default_options(void) {
    snapshot_options o;
    memset(&o, 0, sizeof o);
    o.width = 640;
    o.height = 400;
    o.supersample = 3;
    o.auto_camera = 1;
    o.view_direction[0] = 0.6; o.view_direction[1] = 0.55; o.view_direction[2] = 1.0;
    o.fov_degrees = 40;
    o.draw_contacts = 1;
    /* from the upper left and in front: a box seen from the default view shows three shades */
    o.light[0] = -0.35; o.light[1] = 0.8; o.light[2] = 0.5;
    o.ambient = 0.5;
    o.shadows = 1;
    o.shadow = 0.72;
    o.checker = 2;
    o.fog = 0.6;
    return o;
}

/* ---- the bodies' surfaces --------------------------------------------------------------------- */

/* Spheres and capsules are drawn as polyhedra inscribed in them: SNAP_ROUND_SEGMENTS around the
   axis and half as many from pole to pole (a sphere's outline then covers 99.4 % of the disc's
   area, (n / 2 pi) sin(2 pi / n)). */
#define SNAP_ROUND_SEGMENTS 32

/* One polygon of a body's surface in world space, as the drawing, shadow and bounds passes
   take it. */
typedef struct snapshot__polygon {
    double points[SNAP_MAX_POLYGON][3];
    int count;
    double normal[3];     /* unit, outwards (meshes: towards the front) */
    int face;             /* face id: one per hull face, one per sphere, capsule or mesh */
    int two_sided;        /* meshes: drawn from behind too */
} snapshot__polygon;

typedef void (*snapshot__visit)(const snapshot__polygon *polygon, void *user);

/* The body's shapes: in stack when they fit (capacity), else in memory the caller frees (the
   returned pointer differs from stack); *count is 0 when that allocation fails. */
SNAP__STATIC rg_shape_id *snapshot__shapes(const rg_world *w, rg_body_id id, rg_shape_id *stack, int capacity, int *count) {
    rg_shape_id *shapes;
    *count = rg_body_shapes(w, id, stack, capacity);
    if (*count <= capacity) return stack;
    shapes = (rg_shape_id *)malloc(sizeof *shapes * (size_t)*count);
    if (!shapes) { *count = 0; return stack; }
    rg_body_shapes(w, id, shapes, *count);
    return shapes;
}

/* The world pose of a hull shape's frame: the body's pose, then the hull's placement in it (a
   hull at the origin unturned takes the body's pose as it is). */
SNAP__STATIC const rg_hull *snapshot__hull_pose(const rg_world *w, rg_body_id id, rg_shape_id shape, rg_vec3 *position,
                                                rg_quat *orientation) {
    rg_vec3 p;
    rg_quat q;
    const rg_hull *h = rg_shape_get_hull(w, shape, &p, &q);
    *position = rg_body_position(w, id);
    *orientation = rg_body_orientation(w, id);
    if (!h || (p.x == 0 && p.y == 0 && p.z == 0 && q.x == 0 && q.y == 0 && q.z == 0)) return h;
    *position = rg_v3_add(*position, rg_quat_rotate(*orientation, p));
    *orientation = rg_quat_mul(*orientation, q);
    return h;
}

/* World position of vertex i of a hull at (position, orientation). */
SNAP__STATIC void snapshot__vertex(const rg_hull *h, int i, rg_vec3 position, rg_quat orientation, double out[3]) {
    rg_vec3 p = rg_v3_add(position, rg_quat_rotate(orientation, rg_hull_vertex(h, i)));
    out[0] = p.x; out[1] = p.y; out[2] = p.z;
}

SNAP__STATIC void snapshot__hull_surfaces(const rg_hull *h, rg_vec3 position, rg_quat orientation, int *face_id,
                                          snapshot__visit visit, void *user) {
    snapshot__polygon poly;
    int f, i;
    poly.two_sided = 0;
    for (f = 0; f < rg_hull_face_count(h); ++f, ++*face_id) {
        int indices[SNAP_MAX_POLYGON];
        rg_vec3 nw = rg_quat_rotate(orientation, rg_hull_face_normal(h, f));
        poly.count = rg_hull_face_vertices(h, f, indices, SNAP_MAX_POLYGON);
        if (poly.count < 3 || poly.count > SNAP_MAX_POLYGON) continue;
        for (i = 0; i < poly.count; ++i) snapshot__vertex(h, indices[i], position, orientation, poly.points[i]);
        poly.normal[0] = nw.x; poly.normal[1] = nw.y; poly.normal[2] = nw.z;
        poly.face = *face_id;
        visit(&poly, user);
    }
}

/* Newell's normal of the polygon, unit; 0 when it has no area. */
SNAP__STATIC int snapshot__newell(snapshot__polygon *poly) {
    double n[3] = {0, 0, 0}, length;
    int i;
    for (i = 0; i < poly->count; ++i) {
        const double *a = poly->points[i], *b = poly->points[(i + 1) % poly->count];
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    length = sqrt(snap__dot(n, n));
    if (!(length > 1e-300)) return 0;
    for (i = 0; i < 3; ++i) poly->normal[i] = n[i] / length;
    return 1;
}

/* Point i (around) of ring m of a capsule from a to b (a sphere when a = b) with the frame
   (axis, u, v): rings 0 .. n/4 circle end a from its pole to its equator, rings n/4 + 1 .. n/2 + 1
   end b from its equator to its pole. */
SNAP__STATIC void snapshot__round_point(const double a[3], const double b[3], double radius, const double axis[3],
                                        const double u[3], const double v[3], int m, int i, double out[3]) {
    const double pi = 3.14159265358979323846;
    int rings = SNAP_ROUND_SEGMENTS / 2, k = m <= rings / 2 ? m : m - 1;
    const double *center = m <= rings / 2 ? a : b;
    double theta = pi * k / rings, phi = 2 * pi * (i % SNAP_ROUND_SEGMENTS) / SNAP_ROUND_SEGMENTS;
    double along = -cos(theta), across = sin(theta);
    int j;
    if (k == 0 || k == rings) across = 0; /* the poles exactly */
    for (j = 0; j < 3; ++j)
        out[j] = center[j] + radius * (along * axis[j] + across * (cos(phi) * u[j] + sin(phi) * v[j]));
}

/* A sphere (a = b) or capsule, world space, as quadrilaterals between rings (triangles at the
   poles), all with one face id. */
SNAP__STATIC void snapshot__round_surfaces(const double a[3], const double b[3], double radius, int face,
                                           snapshot__visit visit, void *user) {
    snapshot__polygon poly;
    double axis[3], u[3], v[3], length, seed[3] = {0, 0, 0};
    int m, i, j, k, rings = SNAP_ROUND_SEGMENTS / 2;
    for (k = 0; k < 3; ++k) axis[k] = b[k] - a[k];
    length = sqrt(snap__dot(axis, axis));
    if (length > 1e-9 * radius) {
        for (k = 0; k < 3; ++k) axis[k] /= length;
    } else {
        axis[0] = axis[2] = 0;
        axis[1] = 1;
    }
    /* u: across the axis, from the coordinate axis least along it */
    k = fabs(axis[0]) <= fabs(axis[1]) && fabs(axis[0]) <= fabs(axis[2]) ? 0 : fabs(axis[1]) <= fabs(axis[2]) ? 1 : 2;
    seed[k] = 1;
    snap__cross(axis, seed, u);
    snap__normalize(u);
    snap__cross(axis, u, v);
    poly.face = face;
    poly.two_sided = 0;
    for (m = 0; m <= rings; ++m)
        for (i = 0; i < SNAP_ROUND_SEGMENTS; ++i) {
            double corners[4][3], middle[3], center[3], t, along;
            snapshot__round_point(a, b, radius, axis, u, v, m, i, corners[0]);
            snapshot__round_point(a, b, radius, axis, u, v, m, i + 1, corners[1]);
            snapshot__round_point(a, b, radius, axis, u, v, m + 1, i + 1, corners[2]);
            snapshot__round_point(a, b, radius, axis, u, v, m + 1, i, corners[3]);
            poly.count = 0;
            for (j = 0; j < 4; ++j) { /* the poles' corners coincide */
                const double *p = corners[j], *q = corners[(j + 3) % 4];
                if (p[0] == q[0] && p[1] == q[1] && p[2] == q[2]) continue;
                for (k = 0; k < 3; ++k) poly.points[poly.count][k] = p[k];
                poly.count++;
            }
            if (poly.count < 3 || !snapshot__newell(&poly)) continue;
            /* outwards: away from the nearest point of the segment */
            for (k = 0; k < 3; ++k) middle[k] = (corners[0][k] + corners[2][k]) / 2 - a[k];
            along = snap__dot(middle, axis);
            t = along < 0 ? 0 : along > length ? length : along;
            for (k = 0; k < 3; ++k) center[k] = middle[k] - t * axis[k];
            if (snap__dot(poly.normal, center) < 0)
                for (k = 0; k < 3; ++k) poly.normal[k] = -poly.normal[k];
            visit(&poly, user);
        }
}

/* A mesh's triangles on its body, seen from both sides, all with one face id. */
SNAP__STATIC void snapshot__mesh_surfaces(const rg_mesh *mesh, rg_vec3 position, rg_quat orientation, int face,
                                          snapshot__visit visit, void *user) {
    snapshot__polygon poly;
    int t, k, n = rg_mesh_triangle_count(mesh);
    poly.face = face;
    poly.two_sided = 1;
    poly.count = 3;
    for (t = 0; t < n; ++t) {
        int corners[3];
        if (!rg_mesh_triangle(mesh, t, corners)) continue;
        for (k = 0; k < 3; ++k) {
            rg_vec3 p = rg_v3_add(position, rg_quat_rotate(orientation, rg_mesh_vertex(mesh, corners[k])));
            poly.points[k][0] = p.x; poly.points[k][1] = p.y; poly.points[k][2] = p.z;
        }
        if (snapshot__newell(&poly)) visit(&poly, user);
    }
}

/* Visits the polygons of every shape of the body, face ids from *face_id on (advanced past
   them: one per hull face, one per other shape). */
SNAP__STATIC void snapshot__body_surfaces(const rg_world *w, rg_body_id id, int *face_id, snapshot__visit visit,
                                          void *user) {
    rg_shape_id stack[8], *shapes;
    rg_vec3 position = rg_body_position(w, id);
    rg_quat orientation = rg_body_orientation(w, id);
    int count, i, k;
    shapes = snapshot__shapes(w, id, stack, 8, &count);
    for (i = 0; i < count; ++i) {
        rg_vec3 p0, p1, hull_position;
        rg_quat hull_orientation;
        rg_real radius;
        double a[3], b[3];
        const rg_hull *h = snapshot__hull_pose(w, id, shapes[i], &hull_position, &hull_orientation);
        const rg_mesh *mesh = rg_shape_get_mesh(w, shapes[i]);
        if (h) {
            snapshot__hull_surfaces(h, hull_position, hull_orientation, face_id, visit, user);
            continue;
        }
        if (mesh) {
            snapshot__mesh_surfaces(mesh, position, orientation, (*face_id)++, visit, user);
            continue;
        }
        if (rg_shape_get_sphere(w, shapes[i], &p0, &radius)) p1 = p0;
        else if (!rg_shape_get_capsule(w, shapes[i], &p0, &p1, &radius)) { ++*face_id; continue; }
        p0 = rg_v3_add(position, rg_quat_rotate(orientation, p0));
        p1 = rg_v3_add(position, rg_quat_rotate(orientation, p1));
        a[0] = p0.x; a[1] = p0.y; a[2] = p0.z;
        b[0] = p1.x; b[1] = p1.y; b[2] = p1.z;
        for (k = 0; k < 3 && a[k] == b[k]; ++k) {}
        if (k == 3) for (k = 0; k < 3; ++k) b[k] = a[k]; /* a sphere */
        snapshot__round_surfaces(a, b, radius, (*face_id)++, visit, user);
    }
    if (shapes != stack) free(shapes);
}

/* Bounds of the points of the polygons visited. */
typedef struct snapshot__box { double lo[3], hi[3]; int any; } snapshot__box;

SNAP__STATIC void snapshot__grow_box(const snapshot__polygon *poly, void *user) {
    snapshot__box *box = (snapshot__box *)user;
    int i, k;
    for (i = 0; i < poly->count; ++i)
        for (k = 0; k < 3; ++k) {
            if (!box->any || poly->points[i][k] < box->lo[k]) box->lo[k] = poly->points[i][k];
            if (!box->any || poly->points[i][k] > box->hi[k]) box->hi[k] = poly->points[i][k];
            if (k == 2) box->any = 1;
        }
}

/* Bounds of the bodies, leaving out bodies larger than 40 m (the ground) unless nothing else is
   there. Returns 0 when no body has a surface. */
SNAP__STATIC int snapshot__bounds(const rg_world *w, const rg_body_id *ids, int count, double lo[3], double hi[3]) {
    int pass, i, k, found = 0;
    for (pass = 0; pass < 2 && !found; ++pass)
        for (i = 0; i < count; ++i) {
            snapshot__box box;
            int face = 0;
            box.any = 0;
            snapshot__body_surfaces(w, ids[i], &face, snapshot__grow_box, &box);
            if (!box.any) continue;
            if (pass == 0 && (box.hi[0] - box.lo[0] > 40 || box.hi[1] - box.lo[1] > 40 || box.hi[2] - box.lo[2] > 40))
                continue;
            for (k = 0; k < 3; ++k) {
                if (!found || box.lo[k] < lo[k]) lo[k] = box.lo[k];
                if (!found || box.hi[k] > hi[k]) hi[k] = box.hi[k];
            }
            found = 1;
        }
    return found;
}

/* The eye and target the options ask for (the auto camera frames the bodies' bounds). */
SNAP__STATIC void snapshot__view(const rg_world *w, const rg_body_id *ids, int count, const snapshot_options *o,
                                 double eye[3], double target[3]) {
    double lo[3], hi[3];
    int k;
    if (o->auto_camera && snapshot__bounds(w, ids, count, lo, hi)) {
        double direction[3], radius = 0, distance;
        for (k = 0; k < 3; ++k) {
            direction[k] = o->view_direction[k];
            target[k] = 0.5 * (lo[k] + hi[k]);
            radius += 0.25 * (hi[k] - lo[k]) * (hi[k] - lo[k]);
        }
        radius = sqrt(radius);
        snap__normalize(direction);
        /* the bounding sphere fits the vertical field of view */
        distance = radius / sin(0.5 * o->fov_degrees * 3.14159265358979323846 / 180) + 0.5;
        for (k = 0; k < 3; ++k) eye[k] = target[k] + direction[k] * distance;
    } else {
        for (k = 0; k < 3; ++k) {
            eye[k] = o->eye[k];
            target[k] = o->target[k];
        }
    }
}

/* The camera the options ask for, at the image's (supersampled) size. */
SNAP__STATIC snap_camera snapshot_camera(const rg_world *w, const rg_body_id *ids, int count, const snapshot_options *o) {
    double eye[3], target[3];
    snapshot__view(w, ids, count, o, eye, target);
    return snap_camera_look_at(eye, target, o->fov_degrees, o->width * o->supersample, o->height * o->supersample);
}

/* The drawing pass over one body's polygons. */
typedef struct snapshot__painter {
    snap_image *im;
    const snap_camera *cam;
    snap_rgb base;
    const double *light;
    double ambient;
} snapshot__painter;

SNAP__STATIC void snapshot__paint(const snapshot__polygon *poly, void *user) {
    const snapshot__painter *painter = (const snapshot__painter *)user;
    const snap_camera *cam = painter->cam;
    double camera[SNAP_MAX_POLYGON][3], normal[3], to_face[3], lambert;
    int i;
    for (i = 0; i < 3; ++i) {
        normal[i] = poly->normal[i];
        to_face[i] = poly->points[0][i] - cam->eye[i];
    }
    if (snap__dot(normal, to_face) >= 0) { /* faces away from the camera */
        if (!poly->two_sided) return;
        for (i = 0; i < 3; ++i) normal[i] = -normal[i];
    }
    for (i = 0; i < poly->count; ++i) snap_camera_transform(cam, poly->points[i], camera[i]);
    lambert = snap__dot(normal, painter->light);
    snap_polygon(painter->im, cam, (const double (*)[3])camera, poly->count,
                 snap_rgb_scale(painter->base, painter->ambient + (1 - painter->ambient) * (lambert > 0 ? lambert : 0)),
                 poly->face);
}

/* Draws the shapes of one body (hulls where they are placed, spheres and capsules as inscribed
   polyhedra, meshes from both sides): front faces flat-shaded by a distant light (light: unit,
   towards the light) with the given ambient brightness. *face_id is advanced by one per hull
   face and one per other shape. */
SNAP__STATIC void snapshot_draw_body_lit(snap_image *im, const snap_camera *cam, const rg_world *w, rg_body_id id,
                                         snap_rgb base, const double light[3], double ambient, int *face_id) {
    snapshot__painter painter;
    painter.im = im;
    painter.cam = cam;
    painter.base = base;
    painter.light = light;
    painter.ambient = ambient;
    snapshot__body_surfaces(w, id, face_id, snapshot__paint, &painter);
}

/* snapshot_draw_body_lit with a light from above, right and front and ambient 0.5. */
SNAP__STATIC void snapshot_draw_body(snap_image *im, const snap_camera *cam, const rg_world *w, rg_body_id id, snap_rgb base,
                               int *face_id) {
    static const double light[3] = {0.32, 0.87, 0.37};  /* unit */
    snapshot_draw_body_lit(im, cam, w, id, base, light, 0.5, face_id);
}

/* The colour snapshot_world gives a body: static bodies grey (the large ones, a hull over
   1000 m^3 or a mesh, lighter), dynamic ones from the palette by their position in ids. */
SNAP__STATIC snap_rgb snapshot_body_color(const rg_world *w, rg_body_id id, int i) {
    rg_shape_id stack[8], *shapes;
    int count, k, large = 0;
    if (rg_body_get_type(w, id) == RG_BODY_DYNAMIC) return snap_palette(i);
    shapes = snapshot__shapes(w, id, stack, 8, &count);
    for (k = 0; k < count; ++k)
        if (rg_shape_get_mesh(w, shapes[k]) || rg_hull_volume(rg_shape_get_hull(w, shapes[k], NULL, NULL)) > 1000)
            large = 1;
    if (shapes != stack) free(shapes);
    return large ? snap_rgb_make(222, 216, 204) : snap_rgb_make(160, 164, 172);
}

/* The ground: the static body whose hull of largest volume has a face pointing up (within 1
   degree). Returns its index in ids, or -1; *face is that face's id when the ground is drawn
   first (its body's earlier shapes' ids come before), *height its y. */
SNAP__STATIC int snapshot__ground(const rg_world *w, const rg_body_id *ids, int count, int *face, double *height) {
    int i, f, k, best = -1;
    double best_volume = 0;
    for (i = 0; i < count; ++i) {
        rg_shape_id stack[8], *shapes;
        int shape_count, first_id = 0;
        if (rg_body_get_type(w, ids[i]) != RG_BODY_STATIC) continue;
        shapes = snapshot__shapes(w, ids[i], stack, 8, &shape_count);
        for (k = 0; k < shape_count; ++k) {
            rg_vec3 position;
            rg_quat orientation;
            const rg_hull *h = snapshot__hull_pose(w, ids[i], shapes[k], &position, &orientation);
            double volume = rg_hull_volume(h);
            if (!h) { ++first_id; continue; }
            for (f = 0; f < rg_hull_face_count(h) && !(best >= 0 && volume <= best_volume); ++f) {
                int corner;
                double p[3];
                if (rg_quat_rotate(orientation, rg_hull_face_normal(h, f)).y < 0.99985) continue;
                if (rg_hull_face_vertices(h, f, &corner, 1) < 1) continue;
                snapshot__vertex(h, corner, position, orientation, p);
                best = i;
                best_volume = volume;
                *face = first_id + f;
                *height = p[1];
                break;
            }
            first_id += rg_hull_face_count(h);
        }
        if (shapes != stack) free(shapes);
    }
    return best;
}

/* The shadow pass: polygons that face the light (meshes' either way), projected along the
   light onto the plane y = height, mark the mask. */
typedef struct snapshot__shadow {
    const snap_camera *cam;
    const snap_image *im;
    const double *light;
    double height;
    unsigned char *mask;
} snapshot__shadow;

SNAP__STATIC void snapshot__cast(const snapshot__polygon *poly, void *user) {
    const snapshot__shadow *s = (const snapshot__shadow *)user;
    double camera[SNAP_MAX_POLYGON][3], lit = snap__dot(poly->normal, s->light);
    int k;
    if (poly->two_sided ? lit == 0 : lit <= 0) return;
    for (k = 0; k < poly->count; ++k) {
        double p[3], t;
        p[0] = poly->points[k][0]; p[1] = poly->points[k][1]; p[2] = poly->points[k][2];
        t = (p[1] - s->height) / s->light[1];
        if (t < 0) t = 0; /* a vertex below the ground casts where it is */
        p[0] -= s->light[0] * t; p[1] -= s->light[1] * t; p[2] -= s->light[2] * t;
        snap_camera_transform(s->cam, p, camera[k]);
    }
    snap_mask_polygon(s->im, s->cam, (const double (*)[3])camera, poly->count, s->mask);
}

/* Shadows on the ground: every surface of every other body that faces the light, projected along
   the light onto the plane y = height, marks a mask; the ground face's pixels (face id
   ground_face) under the mask are darkened. The union of a convex shape's lit faces projected
   is exactly its shadow. Bodies do not shadow one another. */
SNAP__STATIC void snapshot__shadows(snap_image *im, const snap_camera *cam, const rg_world *w, const rg_body_id *ids,
                                    int count, int ground, int ground_face, double height, const double light[3],
                                    double darkness) {
    snapshot__shadow s;
    size_t n = (size_t)im->width * (size_t)im->height, at;
    int i;
    if (!(light[1] > 0.05)) return; /* grazing light: shadows too long to mean anything */
    s.mask = (unsigned char *)calloc(n, 1);
    if (!s.mask) return;
    s.cam = cam;
    s.im = im;
    s.light = light;
    s.height = height;
    for (i = 0; i < count; ++i) {
        int face = 0;
        if (i != ground) snapshot__body_surfaces(w, ids[i], &face, snapshot__cast, &s);
    }
    for (at = 0; at < n; ++at)
        if (s.mask[at] && im->face[at] == ground_face) {
            unsigned char *p = im->rgb + 3 * at;
            p[0] = (unsigned char)(p[0] * darkness + 0.5);
            p[1] = (unsigned char)(p[1] * darkness + 0.5);
            p[2] = (unsigned char)(p[2] * darkness + 0.5);
        }
    free(s.mask);
}

/* The world point seen at pixel (px, py) on the plane y = height; 0 when the ray misses it. */
SNAP__STATIC int snapshot__on_plane(const snap_camera *cam, double px, double py, double height, double out[3]) {
    double ray[3], t, a = (px - cam->cx) / cam->focal, b = (cam->cy - py) / cam->focal;
    int k;
    for (k = 0; k < 3; ++k) ray[k] = cam->forward[k] + a * cam->right[k] + b * cam->up[k];
    if (fabs(ray[1]) < 1e-12) return 0;
    t = (height - cam->eye[1]) / ray[1];
    if (t <= 0) return 0;
    for (k = 0; k < 3; ++k) out[k] = cam->eye[k] + t * ray[k];
    return 1;
}

/* A faint checkerboard of side `side` metres on the ground face's pixels: depth cues. */
SNAP__STATIC void snapshot__checker(snap_image *im, const snap_camera *cam, int ground_face, double height, double side) {
    int x, y;
    for (y = 0; y < im->height; ++y)
        for (x = 0; x < im->width; ++x) {
            size_t at = (size_t)y * (size_t)im->width + (size_t)x;
            double p[3];
            if (im->face[at] != ground_face || !snapshot__on_plane(cam, x + 0.5, y + 0.5, height, p)) continue;
            if (((long)floor(p[0] / side) + (long)floor(p[2] / side)) & 1) {
                unsigned char *c = im->rgb + 3 * at;
                c[0] = (unsigned char)(c[0] * 0.94 + 0.5);
                c[1] = (unsigned char)(c[1] * 0.94 + 0.5);
                c[2] = (unsigned char)(c[2] * 0.94 + 0.5);
            }
        }
}

/* Distant surfaces fade towards the haze colour: nothing up to the target's distance, then a
   share rising to `amount` at four times that distance. */
SNAP__STATIC void snapshot__fog(snap_image *im, double near_distance, double amount, snap_rgb haze) {
    size_t n = (size_t)im->width * (size_t)im->height, at;
    for (at = 0; at < n; ++at) {
        double z, t;
        unsigned char *c;
        if (!(im->depth[at] > 0)) continue;
        z = 1 / im->depth[at];
        t = (z - near_distance) / (3 * near_distance);
        if (t <= 0) continue;
        if (t > 1) t = 1;
        t *= amount;
        c = im->rgb + 3 * at;
        c[0] = (unsigned char)(c[0] + (haze.r - c[0]) * t + 0.5);
        c[1] = (unsigned char)(c[1] + (haze.g - c[1]) * t + 0.5);
        c[2] = (unsigned char)(c[2] + (haze.b - c[2]) * t + 0.5);
    }
}

/* Red contact points and lines along the impulse each contact applied on body a in the last
   step (normal plus friction), as in the PhysLab notes. */
SNAP__STATIC void snapshot_draw_contacts(snap_image *im, const snap_camera *cam, const rg_world *w, double impulse_scale,
                                   int thickness) {
    int total = rg_world_contacts(w, NULL, 0), n, i;
    rg_contact *contacts;
    double largest = 0;
    snap_rgb red = snap_rgb_make(220, 20, 20);
    if (total <= 0) return;
    contacts = (rg_contact *)malloc(sizeof *contacts * (size_t)total);
    if (!contacts) return;
    n = rg_world_contacts(w, contacts, total);
    if (n > total) n = total;
    for (i = 0; i < n; ++i) {
        rg_vec3 j = rg_v3_add(rg_v3_scale(contacts[i].normal, contacts[i].normal_impulse), contacts[i].friction_impulse);
        double length = rg_v3_length(j);
        if (length > largest) largest = length;
    }
    if (impulse_scale <= 0) impulse_scale = largest > 0 ? 1 / largest : 0;
    for (i = 0; i < n; ++i) {
        rg_vec3 j = rg_v3_add(rg_v3_scale(contacts[i].normal, contacts[i].normal_impulse), contacts[i].friction_impulse);
        double a[3], b[3];
        a[0] = contacts[i].point.x; a[1] = contacts[i].point.y; a[2] = contacts[i].point.z;
        b[0] = a[0] + j.x * impulse_scale; b[1] = a[1] + j.y * impulse_scale; b[2] = a[2] + j.z * impulse_scale;
        snap_line3(im, cam, a, b, red, thickness, 0.05);
        snap_line3(im, cam, a, a, red, 3 * thickness, 0.05);
    }
    free(contacts);
}

/* Draws the bodies ids[0..count) of w into a PNG at path. Returns 1 on success. The ground (the
   largest static body with an upward face) is drawn first, so its faces have ids 0.. */
SNAP__STATIC int snapshot_world(const char *path, const rg_world *w, const rg_body_id *ids, int count,
                          const snapshot_options *options) {
    snapshot_options o = options ? *options : snapshot_default_options();
    snap_image im;
    snap_camera cam;
    snap_rgb sky_top = snap_rgb_make(176, 200, 228), sky_bottom = snap_rgb_make(238, 242, 246);
    double light[3], height = 0;
    int i, k, face_id = 0, ok, ground_face = -1, ground;
    if (o.supersample < 1) o.supersample = 1;
    if (!w || !path || !snap_image_init(&im, o.width * o.supersample, o.height * o.supersample, snap_rgb_make(0, 0, 0)))
        return 0;
    for (k = 0; k < 3; ++k) light[k] = o.light[k];
    if (snap__dot(light, light) < 1e-12) light[1] = 1;
    snap__normalize(light);
    snap_gradient(&im, sky_top, sky_bottom);
    cam = snapshot_camera(w, ids, count, &o);
    ground = snapshot__ground(w, ids, count, &ground_face, &height);
    if (ground >= 0) {
        snap_rgb c = o.color ? o.color(w, ids[ground], ground, o.color_user) : snapshot_body_color(w, ids[ground], ground);
        snapshot_draw_body_lit(&im, &cam, w, ids[ground], c, light, o.ambient, &face_id);
    }
    for (i = 0; i < count; ++i) {
        snap_rgb c;
        if (i == ground) continue;
        c = o.color ? o.color(w, ids[i], i, o.color_user) : snapshot_body_color(w, ids[i], i);
        snapshot_draw_body_lit(&im, &cam, w, ids[i], c, light, o.ambient, &face_id);
    }
    if (ground >= 0 && o.checker > 0) snapshot__checker(&im, &cam, ground_face, height, o.checker);
    if (ground >= 0 && o.shadows) snapshot__shadows(&im, &cam, w, ids, count, ground, ground_face, height, light, o.shadow);
    snap_outline_faces(&im, 0.55);
    if (o.fog > 0) {
        double eye[3], target[3], d[3];
        snapshot__view(w, ids, count, &o, eye, target);
        for (k = 0; k < 3; ++k) d[k] = target[k] - eye[k];
        snapshot__fog(&im, sqrt(snap__dot(d, d)) + 1, o.fog, sky_bottom);
    }
    if (o.draw_contacts) snapshot_draw_contacts(&im, &cam, w, o.impulse_scale, o.supersample);
    if (o.caption) snap_text(&im, 8 * o.supersample, 8 * o.supersample, o.caption, snap_rgb_make(30, 30, 40), 2 * o.supersample);
    ok = snap_image_write_png(&im, path, o.supersample);
    snap_image_free(&im);
    return ok;
}

#endif /* RIGID_H_INCLUDED */

#endif /* RIGID_SNAPSHOT_H */
