/* record.h: records the motion of a rigid.h world to a file (hull shapes once, then per frame the
   body transforms and the contacts with their impulses), and reads such a file back. Header-only,
   every function static, public rigid.h API only; tools/replay turns a recording into an HTML
   page.

      recorder *r = record_open("run.rgrec", world, ids, count, 1.0 / 60);   (after creating the bodies)
      for (...) { rg_world_step(world, dt); record_frame(r, world, t); }
      record_close(r);                                                      (1 if every write succeeded)

   FILE FORMAT (version 1). Integers are unsigned 32-bit, reals IEEE-754 32-bit floats, both
   little-endian; there is no padding.

      header   magic      8 bytes "RGREC01\n"
               frame_dt   real     nominal seconds between frames
               hull_count u32
               body_count u32
      hulls    hull_count times:
               vertex_count u32, face_count u32, index_count u32 (the sum of the face sizes)
               vertices     vertex_count x (x, y, z) reals, hull frame
               face_sizes   face_count u32
               indices      index_count u32, each face's vertices counter-clockwise seen from
                            outside, faces one after another
      bodies   body_count times: hull u32 (index into the hulls; 0xffffffff: none),
               type u32 (rg_body_type: 0 static, 1 kinematic, 2 dynamic)
      frames   until the end of the file, each:
               magic "FRAM" (4 bytes), frame u32 (0, 1, 2, ...), time real (seconds)
               body_count x (position x, y, z, orientation x, y, z, w) reals: the world pose of
                            the body's hull frame
               contact_count u32
               contact_count x: a u32, b u32 (indices into the bodies; 0xffffffff: a body not
                            recorded), point x, y, z, normal x, y, z (unit, from b towards a),
                            depth, normal_impulse, friction_impulse x, y, z (reals; the
                            impulses are those applied on a in the last step, rg_contact)

   A reader that meets a truncated last frame ignores it (a run that was interrupted). */
#ifndef RIGID_RECORD_H
#define RIGID_RECORD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define RECORD__STATIC static __attribute__((unused))
#else
#define RECORD__STATIC static
#endif

#define RECORD_MAGIC "RGREC01\n"
#define RECORD_FRAME_MAGIC "FRAM"
#define RECORD_NONE 0xffffffffu
#define RECORD_BODY_REALS 7      /* position, orientation */
#define RECORD_CONTACT_BYTES 52  /* 2 u32 + 11 reals */

/* ---- little-endian encoding ------------------------------------------------------------------ */

/* reals are written through a 32-bit unsigned int holding the float's bits */
typedef char record__float_is_32_bits[sizeof(float) == 4 && sizeof(unsigned int) == 4 ? 1 : -1];

RECORD__STATIC void record__put_u32(unsigned char *p, unsigned long v) {
    p[0] = (unsigned char)(v & 0xff);
    p[1] = (unsigned char)((v >> 8) & 0xff);
    p[2] = (unsigned char)((v >> 16) & 0xff);
    p[3] = (unsigned char)((v >> 24) & 0xff);
}

RECORD__STATIC unsigned long record__get_u32(const unsigned char *p) {
    return (unsigned long)p[0] | (unsigned long)p[1] << 8 | (unsigned long)p[2] << 16 | (unsigned long)p[3] << 24;
}

RECORD__STATIC void record__put_real(unsigned char *p, double v) {
    float f = (float)v;
    unsigned long bits;
    unsigned int u;
    memcpy(&u, &f, sizeof u);
    bits = u;
    record__put_u32(p, bits);
}

RECORD__STATIC float record__get_real(const unsigned char *p) {
    unsigned int u = (unsigned int)record__get_u32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* A growable byte buffer: one frame is encoded in it, then written with one fwrite. */
typedef struct record__bytes { unsigned char *data; size_t size, capacity; int failed; } record__bytes;

RECORD__STATIC unsigned char *record__grow(record__bytes *b, size_t n) {
    if (b->failed) return NULL;
    if (b->size + n > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        unsigned char *data;
        while (capacity < b->size + n) capacity *= 2;
        data = (unsigned char *)realloc(b->data, capacity);
        if (!data) { b->failed = 1; return NULL; }
        b->data = data;
        b->capacity = capacity;
    }
    b->size += n;
    return b->data + b->size - n;
}

RECORD__STATIC void record__raw(record__bytes *b, const char *bytes, size_t n) {
    unsigned char *p = record__grow(b, n);
    if (p) memcpy(p, bytes, n);
}

RECORD__STATIC void record__u32(record__bytes *b, unsigned long v) {
    unsigned char *p = record__grow(b, 4);
    if (p) record__put_u32(p, v);
}

RECORD__STATIC void record__real(record__bytes *b, double v) {
    unsigned char *p = record__grow(b, 4);
    if (p) record__put_real(p, v);
}

/* ---- writing (needs rigid.h) ------------------------------------------------------------------ */
#ifdef RIGID_H_INCLUDED

typedef struct recorder {
    FILE *file;
    rg_body_id *ids;
    int count;
    unsigned long *slot_to_body;  /* body id index -> position in ids, RECORD_NONE if absent */
    unsigned long slot_count;
    rg_contact *contacts;
    int contact_capacity;
    unsigned long frame;
    record__bytes bytes;
    int failed;
} recorder;

/* Recorded index of a body id, RECORD_NONE when it is not one of the recorded bodies. */
RECORD__STATIC unsigned long record__body_index(const recorder *r, rg_body_id id) {
    unsigned long i;
    if (id.index >= r->slot_count) return RECORD_NONE;
    i = r->slot_to_body[id.index];
    if (i == RECORD_NONE || r->ids[i].generation != id.generation) return RECORD_NONE;
    return i;
}

/* Writes the header and the hulls of the bodies ids[0..count) (each distinct hull once).
   NULL when the file cannot be opened or memory runs out. */
RECORD__STATIC recorder *record_open(const char *path, const rg_world *w, const rg_body_id *ids, int count,
                                     double frame_dt) {
    recorder *r;
    const rg_hull **hulls;
    int i, hull_count = 0, f, v, unused;
    if (!path || !w || count < 0 || (count > 0 && !ids)) return NULL;
    r = (recorder *)calloc(1, sizeof *r);
    hulls = (const rg_hull **)calloc((size_t)count + 1, sizeof *hulls);
    if (!r || !hulls) goto fail;
    r->count = count;
    r->ids = (rg_body_id *)malloc(sizeof *r->ids * ((size_t)count + 1));
    if (!r->ids) goto fail;
    if (count) memcpy(r->ids, ids, sizeof *ids * (size_t)count);
    for (i = 0; i < count; ++i)
        if (ids[i].index + 1 > r->slot_count) r->slot_count = ids[i].index + 1;
    r->slot_to_body = (unsigned long *)malloc(sizeof *r->slot_to_body * (r->slot_count + 1));
    if (!r->slot_to_body) goto fail;
    for (i = 0; i < (int)r->slot_count; ++i) r->slot_to_body[i] = RECORD_NONE;
    for (i = 0; i < count; ++i) r->slot_to_body[ids[i].index] = (unsigned long)i;

    /* distinct hulls, in the order of the bodies that first use them */
    for (i = 0; i < count; ++i) {
        const rg_hull *h = rg_body_hull(w, ids[i]);
        int j;
        if (!h) continue;
        for (j = 0; j < hull_count && hulls[j] != h; ++j) {}
        if (j == hull_count) hulls[hull_count++] = h;
    }
    record__raw(&r->bytes, RECORD_MAGIC, 8);
    record__real(&r->bytes, frame_dt);
    record__u32(&r->bytes, (unsigned long)hull_count);
    record__u32(&r->bytes, (unsigned long)count);
    for (i = 0; i < hull_count; ++i) {
        const rg_hull *h = hulls[i];
        int faces = rg_hull_face_count(h), vertices = rg_hull_vertex_count(h), index_count = 0;
        for (f = 0; f < faces; ++f) index_count += rg_hull_face_vertices(h, f, &unused, 0);
        record__u32(&r->bytes, (unsigned long)vertices);
        record__u32(&r->bytes, (unsigned long)faces);
        record__u32(&r->bytes, (unsigned long)index_count);
        for (v = 0; v < vertices; ++v) {
            rg_vec3 p = rg_hull_vertex(h, v);
            record__real(&r->bytes, p.x);
            record__real(&r->bytes, p.y);
            record__real(&r->bytes, p.z);
        }
        for (f = 0; f < faces; ++f) record__u32(&r->bytes, (unsigned long)rg_hull_face_vertices(h, f, &unused, 0));
        for (f = 0; f < faces; ++f) {
            int n = rg_hull_face_vertices(h, f, &unused, 0), k;
            int *indices = (int *)malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
            if (!indices) goto fail;
            rg_hull_face_vertices(h, f, indices, n);
            for (k = 0; k < n; ++k) record__u32(&r->bytes, (unsigned long)indices[k]);
            free(indices);
        }
    }
    for (i = 0; i < count; ++i) {
        const rg_hull *h = rg_body_hull(w, ids[i]);
        int j;
        for (j = 0; h && j < hull_count && hulls[j] != h; ++j) {}
        record__u32(&r->bytes, h ? (unsigned long)j : RECORD_NONE);
        record__u32(&r->bytes, (unsigned long)rg_body_get_type(w, ids[i]));
    }
    if (r->bytes.failed) goto fail;
    r->file = fopen(path, "wb");
    if (!r->file || fwrite(r->bytes.data, 1, r->bytes.size, r->file) != r->bytes.size) goto fail;
    free(hulls);
    return r;
fail:
    free(hulls);
    if (r) {
        if (r->file) fclose(r->file);
        free(r->ids);
        free(r->slot_to_body);
        free(r->bytes.data);
        free(r);
    }
    return NULL;
}

/* Appends one frame: the poses of the recorded bodies from w, and the given contacts (any list of
   rg_contact, e.g. a subset of rg_world_contacts). Returns 1 on success, 0 for a NULL recorder
   or a failed write. */
RECORD__STATIC int record_frame_contacts(recorder *r, const rg_world *w, double time, const rg_contact *contacts,
                                         int count) {
    int i;
    if (!r || r->failed) return 0;
    if (count < 0 || (count > 0 && !contacts)) count = 0;
    r->bytes.size = 0;
    record__raw(&r->bytes, RECORD_FRAME_MAGIC, 4);
    record__u32(&r->bytes, r->frame);
    record__real(&r->bytes, time);
    for (i = 0; i < r->count; ++i) {
        rg_vec3 p = rg_body_position(w, r->ids[i]);
        rg_quat q = rg_body_orientation(w, r->ids[i]);
        record__real(&r->bytes, p.x);
        record__real(&r->bytes, p.y);
        record__real(&r->bytes, p.z);
        record__real(&r->bytes, q.x);
        record__real(&r->bytes, q.y);
        record__real(&r->bytes, q.z);
        record__real(&r->bytes, q.w);
    }
    record__u32(&r->bytes, (unsigned long)count);
    for (i = 0; i < count; ++i) {
        const rg_contact *c = &contacts[i];
        record__u32(&r->bytes, record__body_index(r, c->a));
        record__u32(&r->bytes, record__body_index(r, c->b));
        record__real(&r->bytes, c->point.x);
        record__real(&r->bytes, c->point.y);
        record__real(&r->bytes, c->point.z);
        record__real(&r->bytes, c->normal.x);
        record__real(&r->bytes, c->normal.y);
        record__real(&r->bytes, c->normal.z);
        record__real(&r->bytes, c->depth);
        record__real(&r->bytes, c->normal_impulse);
        record__real(&r->bytes, c->friction_impulse.x);
        record__real(&r->bytes, c->friction_impulse.y);
        record__real(&r->bytes, c->friction_impulse.z);
    }
    if (r->bytes.failed || fwrite(r->bytes.data, 1, r->bytes.size, r->file) != r->bytes.size) {
        r->failed = 1;
        return 0;
    }
    r->frame++;
    return 1;
}

/* Appends one frame: the poses of the recorded bodies and every contact of the last step
   (rg_world_contacts). Returns 1 on success (0 also for a NULL recorder, so that a program may
   call it whether or not it records). */
RECORD__STATIC int record_frame(recorder *r, const rg_world *w, double time) {
    int total;
    if (!r || r->failed) return 0;
    total = rg_world_contacts(w, NULL, 0);
    if (total > r->contact_capacity) {
        rg_contact *grown = (rg_contact *)realloc(r->contacts, sizeof *grown * (size_t)total);
        if (!grown) { r->failed = 1; return 0; }
        r->contacts = grown;
        r->contact_capacity = total;
    }
    if (total > 0) total = rg_world_contacts(w, r->contacts, total);
    if (total > r->contact_capacity) total = r->contact_capacity;
    return record_frame_contacts(r, w, time, r->contacts, total);
}

/* Closes the file and frees the recorder. Returns 1 when every frame was written. */
RECORD__STATIC int record_close(recorder *r) {
    int ok;
    if (!r) return 0;
    ok = !r->failed && fclose(r->file) == 0;
    if (r->failed) fclose(r->file);
    free(r->ids);
    free(r->slot_to_body);
    free(r->contacts);
    free(r->bytes.data);
    free(r);
    return ok;
}

#endif /* RIGID_H_INCLUDED */

/* ---- reading (C library only) ---------------------------------------------------------------- */

typedef struct record_hull {
    int vertex_count, face_count;
    float *vertices;        /* 3 per vertex */
    int *face_sizes;        /* face_count */
    int *indices;           /* the faces' vertices, one face after another */
} record_hull;

typedef struct record_contact {
    unsigned long a, b;     /* body indices, RECORD_NONE for a body not recorded */
    float point[3], normal[3], depth, normal_impulse, friction_impulse[3];
} record_contact;

typedef struct recording {
    float frame_dt;
    int hull_count, body_count, frame_count;
    record_hull *hulls;
    int *body_hull;         /* body_count: hull index or -1 */
    int *body_type;         /* body_count: rg_body_type value */
    float *times;           /* frame_count */
    float *poses;           /* frame_count * body_count * 7: position, orientation (x, y, z, w) */
    long *contact_start;    /* frame_count + 1: frame f has contacts [start[f], start[f + 1]) */
    record_contact *contacts;
} recording;

RECORD__STATIC void record_free(recording *rec) {
    int i;
    if (rec->hulls)
        for (i = 0; i < rec->hull_count; ++i) {
            free(rec->hulls[i].vertices);
            free(rec->hulls[i].face_sizes);
            free(rec->hulls[i].indices);
        }
    free(rec->hulls);
    free(rec->body_hull);
    free(rec->body_type);
    free(rec->times);
    free(rec->poses);
    free(rec->contact_start);
    free(rec->contacts);
    memset(rec, 0, sizeof *rec);
}

/* Reads a whole recording into memory. Returns 1 on success; 0 with *error set (and rec freed)
   for a missing file, a bad magic, or a header or hull section that does not fit the file. */
RECORD__STATIC int record_read(const char *path, recording *rec, const char **error) {
    FILE *f = fopen(path, "rb");
    unsigned char *data = NULL, *p, *end;
    long size;
    int i, k;
    size_t frame_capacity = 0, contact_capacity = 0, contact_count = 0;
    memset(rec, 0, sizeof *rec);
    *error = NULL;
    if (!f) { *error = "cannot open the file"; return 0; }
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        *error = "cannot read the file";
        return 0;
    }
    data = (unsigned char *)malloc((size_t)size + 1);
    if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        free(data);
        *error = "cannot read the file";
        return 0;
    }
    fclose(f);
    p = data;
    end = data + size;
#define RECORD__NEED(n) do { if ((size_t)(end - p) < (size_t)(n)) { *error = "truncated header or hulls"; goto fail; } } while (0)
    RECORD__NEED(20);
    if (memcmp(p, RECORD_MAGIC, 8) != 0) { *error = "not a rigid.h recording (bad magic)"; goto fail; }
    rec->frame_dt = record__get_real(p + 8);
    rec->hull_count = (int)record__get_u32(p + 12);
    rec->body_count = (int)record__get_u32(p + 16);
    p += 20;
    if (rec->hull_count < 0 || rec->body_count < 0 || rec->hull_count > 1000000 || rec->body_count > 10000000) {
        *error = "implausible counts";
        goto fail;
    }
    rec->hulls = (record_hull *)calloc((size_t)rec->hull_count + 1, sizeof *rec->hulls);
    rec->body_hull = (int *)malloc(sizeof(int) * ((size_t)rec->body_count + 1));
    rec->body_type = (int *)malloc(sizeof(int) * ((size_t)rec->body_count + 1));
    if (!rec->hulls || !rec->body_hull || !rec->body_type) { *error = "out of memory"; goto fail; }
    for (i = 0; i < rec->hull_count; ++i) {
        record_hull *h = &rec->hulls[i];
        unsigned long vertices, faces, indices, sum = 0;
        RECORD__NEED(12);
        vertices = record__get_u32(p);
        faces = record__get_u32(p + 4);
        indices = record__get_u32(p + 8);
        p += 12;
        if (vertices > 1000000 || faces > 1000000 || indices > 10000000) { *error = "implausible hull"; goto fail; }
        RECORD__NEED(12 * vertices + 4 * faces + 4 * indices);
        h->vertex_count = (int)vertices;
        h->face_count = (int)faces;
        h->vertices = (float *)malloc(sizeof(float) * (3 * vertices + 1));
        h->face_sizes = (int *)malloc(sizeof(int) * (faces + 1));
        h->indices = (int *)malloc(sizeof(int) * (indices + 1));
        if (!h->vertices || !h->face_sizes || !h->indices) { *error = "out of memory"; goto fail; }
        for (k = 0; k < (int)(3 * vertices); ++k, p += 4) h->vertices[k] = record__get_real(p);
        for (k = 0; k < (int)faces; ++k, p += 4) {
            h->face_sizes[k] = (int)record__get_u32(p);
            sum += (unsigned long)h->face_sizes[k];
        }
        for (k = 0; k < (int)indices; ++k, p += 4) {
            h->indices[k] = (int)record__get_u32(p);
            if (h->indices[k] < 0 || h->indices[k] >= (int)vertices) { *error = "face index out of range"; goto fail; }
        }
        if (sum != indices) { *error = "face sizes do not add up to the index count"; goto fail; }
    }
    RECORD__NEED(8 * (size_t)rec->body_count);
    for (i = 0; i < rec->body_count; ++i, p += 8) {
        unsigned long hull = record__get_u32(p);
        rec->body_hull[i] = hull < (unsigned long)rec->hull_count ? (int)hull : -1;
        rec->body_type[i] = (int)record__get_u32(p + 4);
    }
#undef RECORD__NEED
    /* frames: stop at the end or at a frame that does not fit (an interrupted run) */
    for (;;) {
        size_t pose_bytes = (size_t)rec->body_count * RECORD_BODY_REALS * 4;
        unsigned long n;
        if ((size_t)(end - p) < 12 + pose_bytes + 4 || memcmp(p, RECORD_FRAME_MAGIC, 4) != 0) break;
        n = record__get_u32(p + 12 + pose_bytes);
        if ((size_t)(end - p - 16 - pose_bytes) / RECORD_CONTACT_BYTES < n) break;
        if ((size_t)rec->frame_count + 1 >= frame_capacity) {
            size_t capacity = frame_capacity ? 2 * frame_capacity : 64;
            float *times = (float *)realloc(rec->times, sizeof(float) * capacity);
            float *poses;
            long *starts;
            if (times) rec->times = times;
            poses = (float *)realloc(rec->poses, sizeof(float) * capacity * (size_t)rec->body_count * RECORD_BODY_REALS + 1);
            if (poses) rec->poses = poses;
            starts = (long *)realloc(rec->contact_start, sizeof(long) * (capacity + 1));
            if (starts) rec->contact_start = starts;
            if (!times || !poses || !starts) { *error = "out of memory"; goto fail; }
            frame_capacity = capacity;
        }
        if (contact_count + n > contact_capacity) {
            size_t capacity = contact_capacity ? contact_capacity : 1024;
            record_contact *grown;
            while (capacity < contact_count + n) capacity *= 2;
            grown = (record_contact *)realloc(rec->contacts, sizeof *grown * capacity);
            if (!grown) { *error = "out of memory"; goto fail; }
            rec->contacts = grown;
            contact_capacity = capacity;
        }
        rec->times[rec->frame_count] = record__get_real(p + 8);
        p += 12;
        for (k = 0; k < rec->body_count * RECORD_BODY_REALS; ++k, p += 4)
            rec->poses[(size_t)rec->frame_count * (size_t)rec->body_count * RECORD_BODY_REALS + (size_t)k] = record__get_real(p);
        p += 4;
        rec->contact_start[rec->frame_count] = (long)contact_count;
        for (k = 0; k < (int)n; ++k, p += RECORD_CONTACT_BYTES) {
            record_contact *c = &rec->contacts[contact_count++];
            int j;
            c->a = record__get_u32(p);
            c->b = record__get_u32(p + 4);
            for (j = 0; j < 3; ++j) {
                c->point[j] = record__get_real(p + 8 + 4 * j);
                c->normal[j] = record__get_real(p + 20 + 4 * j);
                c->friction_impulse[j] = record__get_real(p + 40 + 4 * j);
            }
            c->depth = record__get_real(p + 32);
            c->normal_impulse = record__get_real(p + 36);
        }
        rec->frame_count++;
        rec->contact_start[rec->frame_count] = (long)contact_count;
    }
    if (!rec->contact_start) {
        rec->contact_start = (long *)calloc(1, sizeof(long));
        if (!rec->contact_start) { *error = "out of memory"; goto fail; }
    }
    free(data);
    return 1;
fail:
    free(data);
    record_free(rec);
    return 0;
}

#endif /* RIGID_RECORD_H */
