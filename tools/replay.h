/* replay.h: turns a recording (examples/record.h) into one self-contained HTML page that plays it
   with WebGL 2: orbit camera, pause, single steps, contact points and impulses as red lines
   (PhysLab's debug drawing of contact forces, seed 003). Used by tools/replay.c and by the demo.
   Header-only, static; the page itself is tools/replay_page.html, compiled in as C strings
   (build/replay_page.inc, made by the Makefile: build with -Ibuild).

   The page carries a small JSON header (counts, scales, the hulls' faces) and one binary blob,
   zlib-compressed (stb_image_write's compressor, through examples/snapshot.h) and base64-encoded,
   that the page inflates with the browser's DecompressionStream into typed arrays. The blob's
   sections, each at a multiple of 4 bytes (offsets in RECORDING.sections):
     times     float32 [frame]
     fixed     float32 [fixed body][7]: the pose of each body that does not move in the kept
               frames (position, orientation x, y, z, w), written once
     moving    uint32 [moving body]: the body index of each moving body
     poses     the moving bodies' poses as 16-bit codes, for each moving body, each of its 6 codes,
               each frame: position (p - posOffset) / posScale rounded (int16: 1/65534 of the
               recording's extent, e.g. 0.9 mm over 59 m), orientation by its smallest three
               components (record.h's code, rotation error <= 1.5e-4 rad). Stored as the
               zigzag-coded difference from the previous frame's code (0 for the first), low bytes
               of all codes first, then the high bytes: a body at rest or moving steadily gives
               runs of small numbers, which the compressor shrinks.
     contacts  int16 [contact][6]: point as positions, impulse (normal + friction, N s) /
               impulseScale; contactStart[f] .. contactStart[f + 1] are frame f's
     contactStart  uint32 [frame + 1]
     shapes    float32 [shape][14]: body, type (record.h's), hull or mesh index, a xyz, b xyz,
               orientation xyzw, radius (as record_shape, body frame)
     bodyType  uint8 [body]
     meshes    each mesh's vertices float32 [3 n] then triangles uint32 [3 m] (RECORDING.meshes
               gives their offsets and counts)
   The page builds each hull's, the unit sphere's, the unit capsule's and each mesh's triangles
   once and draws every shape as an instance of one of them. */
#ifndef RIGID_REPLAY_H
#define RIGID_REPLAY_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "examples/record.h"
#include "examples/snapshot.h" /* stb_image_write, for stbi_zlib_compress */

#ifdef SNAPSHOT_NO_STB_IMAGE_WRITE_IMPLEMENTATION
/* compiled by the program with the rest of stb_image_write, which declares it nowhere */
STBIWDEF unsigned char *stbi_zlib_compress(unsigned char *data, int data_len, int *out_len, int quality);
#endif

#if defined(__GNUC__) || defined(__clang__)
#define REPLAY__STATIC static __attribute__((unused))
#else
#define REPLAY__STATIC static
#endif

static const char *const replay__page[] = {
#include "replay_page.inc"
    NULL};

typedef struct replay_options {
    int every;            /* keep every n-th frame (1: all) */
    int max_frames;       /* then thin further so that at most this many frames remain */
    int max_contacts;     /* per frame; more are thinned evenly (the count left out is shown) */
    const char *title;    /* shown on the page */
} replay_options;

REPLAY__STATIC replay_options replay_default_options(void) {
    replay_options o;
    o.every = 1;
    o.max_frames = 600;
    o.max_contacts = 4000;
    o.title = "rigid.h";
    return o;
}

/* ---- base64 ----------------------------------------------------------------------------------- */

REPLAY__STATIC void replay__base64(FILE *out, const unsigned char *data, size_t size) {
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char line[4];
    size_t i;
    for (i = 0; i + 2 < size; i += 3) {
        unsigned long v = (unsigned long)data[i] << 16 | (unsigned long)data[i + 1] << 8 | data[i + 2];
        line[0] = digits[(v >> 18) & 63];
        line[1] = digits[(v >> 12) & 63];
        line[2] = digits[(v >> 6) & 63];
        line[3] = digits[v & 63];
        fwrite(line, 1, 4, out);
    }
    if (i < size) {
        unsigned long v = (unsigned long)data[i] << 16 | (i + 1 < size ? (unsigned long)data[i + 1] << 8 : 0);
        line[0] = digits[(v >> 18) & 63];
        line[1] = digits[(v >> 12) & 63];
        line[2] = i + 1 < size ? digits[(v >> 6) & 63] : '=';
        line[3] = '=';
        fwrite(line, 1, 4, out);
    }
}

/* ---- the blob --------------------------------------------------------------------------------- */

REPLAY__STATIC void replay__u16(record__bytes *b, unsigned v) {
    unsigned char *p = record__grow(b, 2);
    if (p) { p[0] = (unsigned char)(v & 0xff); p[1] = (unsigned char)((v >> 8) & 0xff); }
}

/* Starts a section at a multiple of 4 bytes; returns its offset. */
REPLAY__STATIC size_t replay__section(record__bytes *b) {
    while (b->size % 4) { unsigned char *p = record__grow(b, 1); if (p) *p = 0; else break; }
    return b->size;
}

/* value / scale rounded and clamped to int16 (NaN: 0), as the low 16 bits */
REPLAY__STATIC unsigned replay__int16(double value) {
    long q;
    if (!(value == value)) return 0;
    q = value > 32767 ? 32767 : value < -32767 ? -32767 : (long)floor(value + 0.5);
    return (unsigned)(q & 0xffff);
}

REPLAY__STATIC double replay__impulse_length(const record_contact *c) {
    double j[3];
    int k;
    for (k = 0; k < 3; ++k) j[k] = c->normal[k] * c->normal_impulse + c->friction_impulse[k];
    return sqrt(j[0] * j[0] + j[1] * j[1] + j[2] * j[2]);
}

static int replay__compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Contact number i (0 .. kept) of frame f after thinning to at most max per frame. */
static long replay__contact_index(const recording *rec, int f, long i, long max) {
    long start = rec->contact_start[f], n = rec->contact_start[f + 1] - start;
    if (n <= max) return start + i;
    return start + (long)((double)i * (double)n / (double)max);
}

/* What the page is told besides the blob. */
typedef struct replay__layout {
    int kept, moving_count, fixed_count, dropped;
    long contact_total;
    double offset[3], pos_scale, impulse_scale, line_scale;
    size_t times, fixed, moving, poses, contacts, contact_start, shapes, body_type, meshes;
    size_t *mesh_offsets;   /* per mesh: vertices, triangles */
} replay__layout;

static const float *replay__pose(const recording *rec, int frame, int body) {
    return rec->poses + ((size_t)frame * (size_t)rec->body_count + (size_t)body) * RECORD_BODY_REALS;
}

/* Bounds of the moving bodies' positions and the contact points over the kept frames, the
   impulse scales, and which bodies move. */
REPLAY__STATIC int replay__measure(const recording *rec, const int *frames, long max_contacts, replay__layout *l,
                                   int *moves) {
    double lo[3], hi[3], impulse_max = 0, *lengths;
    long length_count = 0;
    int i, b, k;
    for (b = 0; b < rec->body_count; ++b) {
        const float *first = replay__pose(rec, frames[0], b);
        moves[b] = 0;
        for (i = 1; i < l->kept && !moves[b]; ++i) moves[b] = memcmp(first, replay__pose(rec, frames[i], b), 7 * sizeof(float)) != 0;
        l->moving_count += moves[b];
    }
    l->fixed_count = rec->body_count - l->moving_count;
    for (k = 0; k < 3; ++k) { lo[k] = 1e30; hi[k] = -1e30; }
    for (i = 0; i < l->kept; ++i) {
        long n = rec->contact_start[frames[i] + 1] - rec->contact_start[frames[i]];
        for (b = 0; b < rec->body_count; ++b) {
            const float *p = replay__pose(rec, frames[i], b);
            if (!moves[b]) continue;
            for (k = 0; k < 3; ++k)
                if (p[k] == p[k] && fabs(p[k]) < 1e7) {
                    if (p[k] < lo[k]) lo[k] = p[k];
                    if (p[k] > hi[k]) hi[k] = p[k];
                }
        }
        if (n > max_contacts) { l->dropped += (int)(n - max_contacts); n = max_contacts; }
        l->contact_total += n;
    }
    lengths = (double *)malloc(sizeof(double) * (size_t)(l->contact_total + 1));
    if (!lengths) return 0;
    for (i = 0; i < l->kept; ++i) {
        long n = rec->contact_start[frames[i] + 1] - rec->contact_start[frames[i]], c;
        if (n > max_contacts) n = max_contacts;
        for (c = 0; c < n; ++c) {
            const record_contact *ct = &rec->contacts[replay__contact_index(rec, frames[i], c, max_contacts)];
            double length = replay__impulse_length(ct);
            for (k = 0; k < 3; ++k) {
                double j = fabs(ct->normal[k] * ct->normal_impulse + ct->friction_impulse[k]);
                if (ct->point[k] == ct->point[k] && fabs(ct->point[k]) < 1e7) {
                    if (ct->point[k] < lo[k]) lo[k] = ct->point[k];
                    if (ct->point[k] > hi[k]) hi[k] = ct->point[k];
                }
                if (j == j && j < 1e30 && j > impulse_max) impulse_max = j;
            }
            if (length == length && length < 1e30) lengths[length_count++] = length;
        }
    }
    l->pos_scale = 0;
    for (k = 0; k < 3; ++k) {
        if (lo[k] > hi[k]) lo[k] = hi[k] = 0;
        l->offset[k] = 0.5 * (lo[k] + hi[k]);
        if (0.5 * (hi[k] - lo[k]) > l->pos_scale) l->pos_scale = 0.5 * (hi[k] - lo[k]);
    }
    l->pos_scale = l->pos_scale > 0 ? l->pos_scale / 32767 : 1e-3;
    l->impulse_scale = impulse_max > 0 ? impulse_max / 32767 : 1;
    /* lines: the 98th percentile of the impulses is drawn half a metre long */
    l->line_scale = 1;
    if (length_count > 0) {
        double typical;
        qsort(lengths, (size_t)length_count, sizeof *lengths, replay__compare_doubles);
        typical = lengths[(size_t)((double)(length_count - 1) * 0.98)];
        if (typical > 0) l->line_scale = 0.5 / typical;
    }
    free(lengths);
    return 1;
}

/* The 6 codes of a pose: position int16, orientation smallest three. */
static void replay__codes(const float *p, const replay__layout *l, unsigned *codes) {
    unsigned char q[6];
    int k;
    for (k = 0; k < 3; ++k) codes[k] = replay__int16((p[k] - l->offset[k]) / l->pos_scale);
    record__put_quat(q, p[3], p[4], p[5], p[6]);
    for (k = 0; k < 3; ++k) codes[3 + k] = (unsigned)q[2 * k] | (unsigned)q[2 * k + 1] << 8;
}

/* The poses section: zigzag differences along the frames, low bytes then high bytes. */
REPLAY__STATIC void replay__poses(record__bytes *b, const recording *rec, const int *frames, const int *moves,
                                  const replay__layout *l) {
    size_t count = (size_t)l->moving_count * 6 * (size_t)l->kept, at = 0;
    unsigned char *low = record__grow(b, 2 * count), *high;
    unsigned *codes = (unsigned *)malloc(sizeof(unsigned) * 6 * (size_t)l->kept);
    int body, i, k;
    if (!low || !codes) { b->failed = 1; free(codes); return; }
    high = low + count;
    for (body = 0; body < rec->body_count; ++body) {
        if (!moves[body]) continue;
        for (i = 0; i < l->kept; ++i) replay__codes(replay__pose(rec, frames[i], body), l, codes + 6 * i);
        for (k = 0; k < 6; ++k)
            for (i = 0; i < l->kept; ++i) {
                unsigned previous = i ? codes[6 * (i - 1) + k] : 0, zigzag;
                int delta = (int)((codes[6 * i + k] - previous) & 0xffff);
                if (delta >= 32768) delta -= 65536;
                zigzag = (unsigned)(delta < 0 ? -2 * delta - 1 : 2 * delta);
                low[at] = (unsigned char)(zigzag & 0xff);
                high[at] = (unsigned char)(zigzag >> 8);
                ++at;
            }
    }
    free(codes);
}

REPLAY__STATIC void replay__blob(record__bytes *b, const recording *rec, const int *frames, const int *moves, long max_contacts,
                                 replay__layout *l) {
    int i, k, body;
    l->times = replay__section(b);
    for (i = 0; i < l->kept; ++i) record__real(b, rec->times[frames[i]]);
    l->fixed = replay__section(b);
    for (body = 0; body < rec->body_count; ++body)
        if (!moves[body])
            for (k = 0; k < 7; ++k) record__real(b, replay__pose(rec, frames[0], body)[k]);
    l->moving = replay__section(b);
    for (body = 0; body < rec->body_count; ++body)
        if (moves[body]) record__u32(b, (unsigned long)body);
    l->poses = replay__section(b);
    replay__poses(b, rec, frames, moves, l);
    l->contacts = replay__section(b);
    for (i = 0; i < l->kept; ++i) {
        long n = rec->contact_start[frames[i] + 1] - rec->contact_start[frames[i]], c;
        if (n > max_contacts) n = max_contacts;
        for (c = 0; c < n; ++c) {
            const record_contact *ct = &rec->contacts[replay__contact_index(rec, frames[i], c, max_contacts)];
            for (k = 0; k < 3; ++k) replay__u16(b, replay__int16((ct->point[k] - l->offset[k]) / l->pos_scale));
            for (k = 0; k < 3; ++k)
                replay__u16(b, replay__int16((ct->normal[k] * ct->normal_impulse + ct->friction_impulse[k]) / l->impulse_scale));
        }
    }
    l->contact_start = replay__section(b);
    {
        unsigned long sum = 0;
        record__u32(b, 0);
        for (i = 0; i < l->kept; ++i) {
            long n = rec->contact_start[frames[i] + 1] - rec->contact_start[frames[i]];
            sum += (unsigned long)(n > max_contacts ? max_contacts : n);
            record__u32(b, sum);
        }
    }
    l->shapes = replay__section(b);
    for (body = 0; body < rec->body_count; ++body)
        for (i = rec->body_shape_start[body]; i < rec->body_shape_start[body + 1]; ++i) {
            const record_shape *s = &rec->shapes[i];
            record__real(b, body);
            record__real(b, s->type);
            record__real(b, s->index);
            for (k = 0; k < 3; ++k) record__real(b, s->a[k]);
            for (k = 0; k < 3; ++k) record__real(b, s->b[k]);
            for (k = 0; k < 4; ++k) record__real(b, s->orientation[k]);
            record__real(b, s->radius);
        }
    l->body_type = replay__section(b);
    for (body = 0; body < rec->body_count; ++body) {
        unsigned char *p = record__grow(b, 1);
        if (p) *p = (unsigned char)rec->body_type[body];
    }
    l->meshes = replay__section(b);
    for (i = 0; i < rec->mesh_count; ++i) {
        const record_mesh *m = &rec->meshes[i];
        l->mesh_offsets[2 * i] = replay__section(b);
        for (k = 0; k < 3 * m->vertex_count; ++k) record__real(b, m->vertices[k]);
        l->mesh_offsets[2 * i + 1] = replay__section(b);
        for (k = 0; k < 3 * m->triangle_count; ++k) record__u32(b, (unsigned long)m->triangles[k]);
    }
    replay__section(b);
}

/* ---- the page --------------------------------------------------------------------------------- */

/* JSON string: quotes, backslashes and control characters escaped; '<' too, so that no text can
   close the script element. */
REPLAY__STATIC void replay__json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c < 32 || c == '<' || c == '>' || c == '&') fprintf(out, "\\u%04x", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

/* A float as JSON: non-finite values, which JSON lacks, as 0. */
REPLAY__STATIC void replay__json_real(FILE *out, const char *before, double v) {
    fprintf(out, "%s%.7g", before, v == v && fabs(v) < 1e300 ? v : 0.0);
}

REPLAY__STATIC void replay__json(FILE *out, const recording *rec, const replay_options *o, const replay__layout *l,
                                 size_t raw_size) {
    int i, k;
    fprintf(out, "const RECORDING = {\n  title: ");
    replay__json_string(out, o->title ? o->title : "rigid.h");
    fprintf(out, ",\n  frames: %d, bodies: %d, moving: %d, contactCount: %ld, contactsDropped: %d, contactFrames: %d,\n",
            l->kept, rec->body_count, l->moving_count, l->contact_total, l->dropped, rec->contact_frames);
    fprintf(out, "  shapeCount: %d, posScale: %.9g, posOffset: [%.9g, %.9g, %.9g], impulseScale: %.9g, lineScale: %.9g,\n",
            rec->shape_count, l->pos_scale, l->offset[0], l->offset[1], l->offset[2], l->impulse_scale, l->line_scale);
    fprintf(out, "  sections: {times: %lu, fixed: %lu, moving: %lu, poses: %lu, contacts: %lu, contactStart: %lu, "
                 "shapes: %lu, bodyType: %lu},\n  rawSize: %lu,\n",
            (unsigned long)l->times, (unsigned long)l->fixed, (unsigned long)l->moving, (unsigned long)l->poses,
            (unsigned long)l->contacts, (unsigned long)l->contact_start, (unsigned long)l->shapes,
            (unsigned long)l->body_type, (unsigned long)raw_size);
    fprintf(out, "  meshes: [");
    for (i = 0; i < rec->mesh_count; ++i)
        fprintf(out, "%s{vertices: %lu, vertexCount: %d, triangles: %lu, triangleCount: %d}", i ? ", " : "",
                (unsigned long)l->mesh_offsets[2 * i], rec->meshes[i].vertex_count,
                (unsigned long)l->mesh_offsets[2 * i + 1], rec->meshes[i].triangle_count);
    fprintf(out, "],\n  hulls: [");
    for (i = 0; i < rec->hull_count; ++i) {
        const record_hull *h = &rec->hulls[i];
        int at = 0, face;
        fprintf(out, "%s\n    {v: [", i ? "," : "");
        for (k = 0; k < 3 * h->vertex_count; ++k) replay__json_real(out, k ? "," : "", h->vertices[k]);
        fprintf(out, "], f: [");
        for (face = 0; face < h->face_count; ++face) {
            fprintf(out, "%s[", face ? "," : "");
            for (k = 0; k < h->face_sizes[face]; ++k) fprintf(out, "%s%d", k ? "," : "", h->indices[at + k]);
            at += h->face_sizes[face];
            fprintf(out, "]");
        }
        fprintf(out, "]}");
    }
    fprintf(out, "],\n  data: \"");
}

/* Writes the page; returns 1 on success, 0 with *error set. */
REPLAY__STATIC int replay_write_html(const recording *rec, const char *path, const replay_options *options,
                                     const char **error) {
    replay_options o = options ? *options : replay_default_options();
    replay__layout l;
    record__bytes blob;
    unsigned char *packed = NULL;
    int *frames = NULL, *moves = NULL, stride, i, line, packed_size = 0, ok = 1;
    FILE *out;

    *error = NULL;
    if (rec->frame_count <= 0) { *error = "the recording has no frames"; return 0; }
    if (o.every < 1) o.every = 1;
    if (o.max_frames < 1) o.max_frames = 1;
    if (o.max_contacts < 0) o.max_contacts = 0;
    memset(&l, 0, sizeof l);
    memset(&blob, 0, sizeof blob);
    stride = o.every;
    if ((rec->frame_count + stride - 1) / stride > o.max_frames) stride = (rec->frame_count + o.max_frames - 1) / o.max_frames;
    l.kept = (rec->frame_count + stride - 1) / stride;
    frames = (int *)malloc(sizeof(int) * (size_t)l.kept);
    moves = (int *)malloc(sizeof(int) * ((size_t)rec->body_count + 1));
    l.mesh_offsets = (size_t *)malloc(sizeof(size_t) * (2 * (size_t)rec->mesh_count + 1));
    if (!frames || !moves || !l.mesh_offsets) { *error = "out of memory"; goto done; }
    for (i = 0; i < l.kept; ++i) frames[i] = i * stride;
    if (!replay__measure(rec, frames, o.max_contacts, &l, moves)) { *error = "out of memory"; goto done; }
    replay__blob(&blob, rec, frames, moves, o.max_contacts, &l);
    if (blob.failed || blob.size > 0x7fffffff) { *error = "out of memory"; goto done; }
    packed = stbi_zlib_compress(blob.data, (int)blob.size, &packed_size, 8);
    if (!packed) { *error = "out of memory"; goto done; }

    out = fopen(path, "w");
    if (!out) { *error = "cannot write the page"; goto done; }
    for (line = 0; replay__page[line]; ++line) {
        if (strstr(replay__page[line], "/*@DATA@*/") == NULL) {
            fputs(replay__page[line], out);
            continue;
        }
        replay__json(out, rec, &o, &l, blob.size);
        replay__base64(out, packed, (size_t)packed_size);
        fprintf(out, "\"\n};\n");
    }
    if (fclose(out) != 0) *error = "cannot write the page";
done:
    ok = *error == NULL;
    free(frames);
    free(moves);
    free(l.mesh_offsets);
    free(blob.data);
    free(packed);
    return ok;
}

#endif
