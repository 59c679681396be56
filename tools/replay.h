/* replay.h: turns a recording (examples/record.h) into one self-contained HTML page that plays it
   on a 2D canvas: orbit camera, pause, single steps, contact points and impulses as red lines
   (PhysLab's debug drawing of contact forces, seed 003). Used by tools/replay.c and by the demo.
   Header-only, static; the page itself is tools/replay_page.html, compiled in as C strings
   (build/replay_page.inc, made by the Makefile: build with -Ibuild).

   The page carries its data inline, base64, quantised to 16 bits to keep it small:
     poses     int16 [frame][body][7]: position (p - posOffset) / posScale, orientation * 32767
     contacts  int16 [contact][6]: point as positions, impulse (normal + friction, N s) /
               impulseScale; contactStart[f] .. contactStart[f + 1] are frame f's
   Positions keep 1/65534 of the recording's extent (1.5 cm over 1 km), quaternions 3e-5. */
#ifndef RIGID_REPLAY_H
#define RIGID_REPLAY_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "examples/record.h"

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

/* ---- base64 of a growing int16 stream --------------------------------------------------------- */

typedef struct replay__base64 {
    FILE *out;
    unsigned char pending[3];
    int pending_count;
} replay__base64;

REPLAY__STATIC void replay__base64_byte(replay__base64 *b, unsigned char byte) {
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    b->pending[b->pending_count++] = byte;
    if (b->pending_count == 3) {
        unsigned long v = (unsigned long)b->pending[0] << 16 | (unsigned long)b->pending[1] << 8 | b->pending[2];
        fputc(digits[(v >> 18) & 63], b->out);
        fputc(digits[(v >> 12) & 63], b->out);
        fputc(digits[(v >> 6) & 63], b->out);
        fputc(digits[v & 63], b->out);
        b->pending_count = 0;
    }
}

REPLAY__STATIC void replay__base64_finish(replay__base64 *b) {
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    unsigned long v;
    if (b->pending_count == 0) return;
    v = (unsigned long)b->pending[0] << 16 | (b->pending_count > 1 ? (unsigned long)b->pending[1] << 8 : 0);
    fputc(digits[(v >> 18) & 63], b->out);
    fputc(digits[(v >> 12) & 63], b->out);
    fputc(b->pending_count > 1 ? digits[(v >> 6) & 63] : '=', b->out);
    fputc('=', b->out);
    b->pending_count = 0;
}

/* little-endian int16 of value / scale, rounded and clamped */
REPLAY__STATIC void replay__int16(replay__base64 *b, double value) {
    long q = (long)floor(value + 0.5);
    unsigned int u;
    if (q > 32767) q = 32767;
    if (q < -32767) q = -32767;
    if (!(value == value)) q = 0; /* NaN */
    u = (unsigned int)(q & 0xffff);
    replay__base64_byte(b, (unsigned char)(u & 0xff));
    replay__base64_byte(b, (unsigned char)(u >> 8));
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

/* Writes the page; returns 1 on success, 0 with *error set. */
REPLAY__STATIC int replay_write_html(const recording *rec, const char *path, const replay_options *options,
                                     const char **error) {
    replay_options o = options ? *options : replay_default_options();
    FILE *out;
    int stride, kept, f, i, b, k, line, dropped = 0;
    int *frames;
    long contact_total = 0, max_contacts;
    double lo[3], hi[3], offset[3], pos_scale, impulse_max = 0, impulse_scale, line_scale = 1;
    double *lengths = NULL;
    long length_count = 0;
    replay__base64 base64;

    *error = NULL;
    if (rec->frame_count <= 0) { *error = "the recording has no frames"; return 0; }
    if (o.every < 1) o.every = 1;
    if (o.max_frames < 1) o.max_frames = 1;
    if (o.max_contacts < 0) o.max_contacts = 0;
    max_contacts = o.max_contacts;
    stride = o.every;
    if ((rec->frame_count + stride - 1) / stride > o.max_frames) stride = (rec->frame_count + o.max_frames - 1) / o.max_frames;
    kept = (rec->frame_count + stride - 1) / stride;
    frames = (int *)malloc(sizeof(int) * (size_t)kept);
    if (!frames) { *error = "out of memory"; return 0; }
    for (i = 0; i < kept; ++i) frames[i] = i * stride;

    /* bounds of the positions and contact points, and the impulses, over the kept frames */
    for (k = 0; k < 3; ++k) { lo[k] = 1e30; hi[k] = -1e30; }
    for (i = 0; i < kept; ++i) {
        long n;
        f = frames[i];
        for (b = 0; b < rec->body_count; ++b) {
            const float *p = rec->poses + ((size_t)f * (size_t)rec->body_count + (size_t)b) * RECORD_BODY_REALS;
            for (k = 0; k < 3; ++k)
                if (p[k] == p[k] && fabs(p[k]) < 1e7) {
                    if (p[k] < lo[k]) lo[k] = p[k];
                    if (p[k] > hi[k]) hi[k] = p[k];
                }
        }
        n = rec->contact_start[f + 1] - rec->contact_start[f];
        if (n > max_contacts) { dropped += (int)(n - max_contacts); n = max_contacts; }
        contact_total += n;
    }
    lengths = (double *)malloc(sizeof(double) * (size_t)(contact_total + 1));
    if (!lengths) { free(frames); *error = "out of memory"; return 0; }
    for (i = 0; i < kept; ++i) {
        long n = rec->contact_start[frames[i] + 1] - rec->contact_start[frames[i]], c;
        if (n > max_contacts) n = max_contacts;
        for (c = 0; c < n; ++c) {
            const record_contact *ct = &rec->contacts[replay__contact_index(rec, frames[i], c, max_contacts)];
            double length = replay__impulse_length(ct);
            for (k = 0; k < 3; ++k)
                if (ct->point[k] == ct->point[k] && fabs(ct->point[k]) < 1e7) {
                    if (ct->point[k] < lo[k]) lo[k] = ct->point[k];
                    if (ct->point[k] > hi[k]) hi[k] = ct->point[k];
                }
            for (k = 0; k < 3; ++k) {
                double j = fabs(ct->normal[k] * ct->normal_impulse + ct->friction_impulse[k]);
                if (j == j && j < 1e30 && j > impulse_max) impulse_max = j;
            }
            if (length == length && length < 1e30) lengths[length_count++] = length;
        }
    }
    pos_scale = 0;
    for (k = 0; k < 3; ++k) {
        if (lo[k] > hi[k]) lo[k] = hi[k] = 0;
        offset[k] = 0.5 * (lo[k] + hi[k]);
        if (0.5 * (hi[k] - lo[k]) > pos_scale) pos_scale = 0.5 * (hi[k] - lo[k]);
    }
    pos_scale = pos_scale > 0 ? pos_scale / 32767 : 1e-3;
    impulse_scale = impulse_max > 0 ? impulse_max / 32767 : 1;
    /* lines: the 98th percentile of the impulses is drawn half a metre long */
    if (length_count > 0) {
        double typical;
        qsort(lengths, (size_t)length_count, sizeof *lengths, replay__compare_doubles);
        typical = lengths[(size_t)((double)(length_count - 1) * 0.98)];
        if (typical > 0) line_scale = 0.5 / typical;
    }
    free(lengths);
    /* the page multiplies the stored int16 by impulseScale * lineScale: keep lineScale in
       metres per N s as the page reports it */

    out = fopen(path, "w");
    if (!out) { free(frames); *error = "cannot write the page"; return 0; }
    for (line = 0; replay__page[line]; ++line) {
        if (strstr(replay__page[line], "/*@DATA@*/") == NULL) {
            fputs(replay__page[line], out);
            continue;
        }
        fprintf(out, "const RECORDING = {\n  title: ");
        replay__json_string(out, o.title ? o.title : "rigid.h");
        fprintf(out, ",\n  frames: %d, bodies: %d, contactsDropped: %d,\n", kept, rec->body_count, dropped);
        fprintf(out, "  posScale: %.9g, posOffset: [%.9g, %.9g, %.9g], impulseScale: %.9g, lineScale: %.9g,\n",
                pos_scale, offset[0], offset[1], offset[2], impulse_scale, line_scale);
        fprintf(out, "  hulls: [");
        for (i = 0; i < rec->hull_count; ++i) {
            const record_hull *h = &rec->hulls[i];
            int at = 0, face;
            fprintf(out, "%s\n    {v: [", i ? "," : "");
            for (k = 0; k < 3 * h->vertex_count; ++k) fprintf(out, "%s%.7g", k ? "," : "", h->vertices[k]);
            fprintf(out, "], f: [");
            for (face = 0; face < h->face_count; ++face) {
                fprintf(out, "%s[", face ? "," : "");
                for (k = 0; k < h->face_sizes[face]; ++k) fprintf(out, "%s%d", k ? "," : "", h->indices[at + k]);
                at += h->face_sizes[face];
                fprintf(out, "]");
            }
            fprintf(out, "]}");
        }
        fprintf(out, "],\n  bodyHull: [");
        for (b = 0; b < rec->body_count; ++b) fprintf(out, "%s%d", b ? "," : "", rec->body_hull[b]);
        fprintf(out, "],\n  bodyType: [");
        for (b = 0; b < rec->body_count; ++b) fprintf(out, "%s%d", b ? "," : "", rec->body_type[b]);
        fprintf(out, "],\n  times: [");
        for (i = 0; i < kept; ++i) fprintf(out, "%s%.6g", i ? "," : "", rec->times[frames[i]]);
        fprintf(out, "],\n  contactStart: [0");
        {
            long sum = 0;
            for (i = 0; i < kept; ++i) {
                long n = rec->contact_start[frames[i] + 1] - rec->contact_start[frames[i]];
                sum += n > max_contacts ? max_contacts : n;
                fprintf(out, ",%ld", sum);
            }
        }
        fprintf(out, "],\n  data: \"");
        base64.out = out;
        base64.pending_count = 0;
        for (i = 0; i < kept; ++i)
            for (b = 0; b < rec->body_count; ++b) {
                const float *p = rec->poses + ((size_t)frames[i] * (size_t)rec->body_count + (size_t)b) * RECORD_BODY_REALS;
                for (k = 0; k < 3; ++k) replay__int16(&base64, (p[k] - offset[k]) / pos_scale);
                for (k = 3; k < 7; ++k) replay__int16(&base64, p[k] * 32767);
            }
        for (i = 0; i < kept; ++i) {
            long n = rec->contact_start[frames[i] + 1] - rec->contact_start[frames[i]], c;
            if (n > max_contacts) n = max_contacts;
            for (c = 0; c < n; ++c) {
                const record_contact *ct = &rec->contacts[replay__contact_index(rec, frames[i], c, max_contacts)];
                for (k = 0; k < 3; ++k) replay__int16(&base64, (ct->point[k] - offset[k]) / pos_scale);
                for (k = 0; k < 3; ++k)
                    replay__int16(&base64, (ct->normal[k] * ct->normal_impulse + ct->friction_impulse[k]) / impulse_scale);
            }
        }
        replay__base64_finish(&base64);
        fprintf(out, "\"\n};\n");
    }
    free(frames);
    if (fclose(out) != 0) { *error = "cannot write the page"; return 0; }
    return 1;
}

#endif
