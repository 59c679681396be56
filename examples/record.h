/* record.h: records the motion of a rigid.h world to a file (each body's shapes and the distinct
   hulls and meshes once, then per frame the body poses, and the contacts when asked for), and
   reads such a file back. Header-only, every function static, public rigid.h API only;
   tools/replay turns a recording into an HTML page.

      recorder *r = record_open("run.rgrec", world, ids, count, 1.0 / 60);   (after adding the shapes)
      record_set_contacts(r, 1);                                            (optional: contacts too)
      for (...) { rg_world_step(world, dt); record_frame(r, world, t); }
      record_close(r);                                                      (1 if every write succeeded)

   The shapes are read once, at record_open: shapes added or destroyed later are not seen.
   Contacts are off by default: a pile's contacts outweigh its poses (the 1000-cube funnel has
   8000 contacts a step, 52 bytes each, against 1000 poses of 18 bytes).

   FILE FORMAT (version 2). Integers are unsigned 32-bit, reals IEEE-754 32-bit floats, both
   little-endian; there is no padding.

      header   magic      8 bytes "RGREC02\n"
               frame_dt   real     nominal seconds between frames
               hull_count u32, mesh_count u32, body_count u32
      hulls    hull_count times:
               vertex_count u32, face_count u32, index_count u32 (the sum of the face sizes)
               vertices     vertex_count x (x, y, z) reals, hull frame
               face_sizes   face_count u32
               indices      index_count u32, each face's vertices counter-clockwise seen from
                            outside, faces one after another
      meshes   mesh_count times:
               vertex_count u32, triangle_count u32
               vertices     vertex_count x (x, y, z) reals, mesh frame (= the body frame)
               triangles    triangle_count x 3 u32, counter-clockwise seen from the front
      bodies   body_count times: type u32 (rg_body_type: 0 static, 1 kinematic, 2 dynamic),
               shape_count u32, then each shape in the body's order: type u32 (rg_shape_type:
               0 hull, 1 sphere, 2 capsule, 3 mesh) and
                  hull     hull u32 (index into the hulls), position x, y, z, orientation x, y,
                           z, w (reals): the hull frame in the body frame
                  sphere   centre x, y, z, radius (reals, body frame)
                  capsule  end a x, y, z, end b x, y, z, radius (reals, body frame)
                  mesh     mesh u32 (index into the meshes)
      frames   until the end of the file, each:
               magic "FRAM" (4 bytes), frame u32 (0, 1, 2, ...), time real (seconds),
               flags u32 (bit 0: the frame carries contacts; other bits 0)
               moved        ceil(body_count / 8) bytes: bit (b % 8) of byte b / 8 set when body
                            b's pose follows, clear when it is the same as in the previous frame
                            (set for every body in frame 0)
               poses        each moved body in order: position x, y, z (reals) and
                            orientation (6 bytes, below): the world pose of the body frame
               when flags bit 0 is set:
               contact_count u32
               contact_count x: a u32, b u32 (indices into the bodies; 0xffffffff: a body not
                            recorded), point x, y, z, normal x, y, z (unit, from b towards a),
                            depth, normal_impulse, friction_impulse x, y, z (reals; the
                            impulses are those applied on a in the last step, rg_contact)

   Orientations: the unit quaternion by its smallest three components (q and -q are one
   rotation: the sign makes the largest component, index i, positive, and its value follows
   from the unit length). Three little-endian 16-bit words; word k holds the k-th of the other
   components c as round(c * sqrt(2) * 16383) + 16383 (|c| <= 1/sqrt(2), so 0 .. 32766) in its
   low 15 bits, and words 0 and 1 hold bits 0 and 1 of i in their top bit. A component is off by
   at most 0.5 / (16383 sqrt(2)) = 2.2e-5, the rotation by at most RECORD_QUAT_MAX_ANGLE
   (1.5e-4 rad: 0.15 mm at 1 m from the origin). Positions are the floats themselves.

   A frame of 1000 moving bodies takes 16 + 125 + 1000 x 18 = 18 kB (version 1: 28 kB, plus the
   contacts, always).

   VERSION 1 ("RGREC01\n"), still read: no meshes and no shape list (a body has one hull at its
   frame's origin: hull u32, 0xffffffff for none, then type u32), frames without flags or
   moved bits, every pose as 7 reals (position, orientation x, y, z, w), and always a contact
   count with its contacts.

   A reader that meets a truncated or malformed last frame ignores it and what follows (a run
   that was interrupted). */
#ifndef RIGID_RECORD_H
#define RIGID_RECORD_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define RECORD__STATIC static __attribute__((unused))
#else
#define RECORD__STATIC static
#endif

#define RECORD_MAGIC "RGREC02\n"
#define RECORD_MAGIC_V1 "RGREC01\n"
#define RECORD_FRAME_MAGIC "FRAM"
#define RECORD_NONE 0xffffffffu
#define RECORD_BODY_REALS 7      /* a decoded pose: position, orientation x, y, z, w */
#define RECORD_POSE_BYTES 18     /* an encoded pose: 3 reals and 3 16-bit words */
#define RECORD_CONTACT_BYTES 52  /* 2 u32 + 11 reals */
#define RECORD_FRAME_CONTACTS 1u /* frame flags: contacts follow */
#define RECORD_QUAT_MAX_ANGLE 1.5e-4  /* radians: 2 sqrt(12) 0.5 / (16383 sqrt(2)), above */

/* shape types, rg_shape_type's values */
#define RECORD_SHAPE_HULL 0
#define RECORD_SHAPE_SPHERE 1
#define RECORD_SHAPE_CAPSULE 2
#define RECORD_SHAPE_MESH 3

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

/* The smallest-three code of the quaternion (x, y, z, w) (any length; zero, NaN or infinite
   components give the identity), 6 bytes. */
RECORD__STATIC void record__put_quat(unsigned char *p, double x, double y, double z, double w) {
    double c[4], length;
    int i, k, j = 0, largest = 0;
    c[0] = x; c[1] = y; c[2] = z; c[3] = w;
    length = sqrt(x * x + y * y + z * z + w * w);
    if (!(length > 0 && length < 1e300)) { c[0] = c[1] = c[2] = 0; c[3] = length = 1; }
    for (k = 1; k < 4; ++k)
        if (fabs(c[k]) > fabs(c[largest])) largest = k;
    if (c[largest] < 0) length = -length;
    for (k = 0; k < 4; ++k) {
        long q;
        if (k == largest) continue;
        q = (long)floor(c[k] / length * 1.4142135623730951 * 16383 + 0.5);
        if (q < -16383) q = -16383;
        if (q > 16383) q = 16383;
        i = (int)(q + 16383) | (j < 2 ? ((largest >> j) & 1) << 15 : 0);
        p[2 * j] = (unsigned char)(i & 0xff);
        p[2 * j + 1] = (unsigned char)(i >> 8);
        ++j;
    }
}

/* The unit quaternion (x, y, z, w) of a smallest-three code. */
RECORD__STATIC void record__get_quat(const unsigned char *p, float *out) {
    double c[4], sum = 0;
    unsigned words[3];
    int k, j = 0, largest;
    for (k = 0; k < 3; ++k) words[k] = (unsigned)p[2 * k] | (unsigned)p[2 * k + 1] << 8;
    largest = (int)(words[0] >> 15 | (words[1] >> 15) << 1);
    for (k = 0; k < 4; ++k) {
        if (k == largest) continue;
        c[k] = ((double)(words[j] & 0x7fff) - 16383) / (16383 * 1.4142135623730951);
        sum += c[k] * c[k];
        ++j;
    }
    c[largest] = sum < 1 ? sqrt(1 - sum) : 0;
    for (k = 0; k < 4; ++k) out[k] = (float)c[k];
}

/* A growable byte buffer: a header or one frame is encoded in it, then written with one fwrite. */
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

typedef char record__shape_types_match[RG_SHAPE_HULL == RECORD_SHAPE_HULL && RG_SHAPE_SPHERE == RECORD_SHAPE_SPHERE &&
                                               RG_SHAPE_CAPSULE == RECORD_SHAPE_CAPSULE &&
                                               RG_SHAPE_MESH == RECORD_SHAPE_MESH
                                           ? 1
                                           : -1];

typedef struct recorder {
    FILE *file;
    rg_body_id *ids;
    int count;
    unsigned long *slot_to_body;  /* body id index -> position in ids, RECORD_NONE if absent */
    unsigned long slot_count;
    rg_contact *contacts;
    int contact_capacity;
    int record_contacts;          /* record_frame writes the last step's contacts */
    unsigned long frame;
    unsigned char *last;          /* count * RECORD_POSE_BYTES: the poses last written */
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

/* The recorded bodies' shapes, and the distinct hulls and meshes among them in the order of
   their first use. */
typedef struct record__scene {
    rg_shape_id *shapes;          /* every body's shapes, one body after another */
    int *shape_start;             /* count + 1 */
    const void **hulls;           /* const rg_hull * */
    const void **meshes;          /* const rg_mesh * */
    int hull_count, mesh_count;
} record__scene;

RECORD__STATIC void record__scene_free(record__scene *s) {
    free(s->shapes);
    free(s->shape_start);
    free((void *)s->hulls);
    free((void *)s->meshes);
}

/* Index of p in list[0 .. *count), appended when absent. */
RECORD__STATIC int record__distinct(const void **list, int *count, const void *p) {
    int i;
    for (i = 0; i < *count && list[i] != p; ++i) {}
    if (i == *count) list[(*count)++] = p;
    return i;
}

RECORD__STATIC int record__collect(record__scene *s, const rg_world *w, const rg_body_id *ids, int count) {
    int i, k, total = 0;
    memset(s, 0, sizeof *s);
    s->shape_start = (int *)malloc(sizeof(int) * ((size_t)count + 1));
    if (!s->shape_start) return 0;
    for (i = 0; i < count; ++i) {
        s->shape_start[i] = total;
        total += rg_body_shapes(w, ids[i], NULL, 0);
    }
    s->shape_start[count] = total;
    s->shapes = (rg_shape_id *)malloc(sizeof *s->shapes * ((size_t)total + 1));
    s->hulls = (const void **)malloc(sizeof *s->hulls * ((size_t)total + 1));
    s->meshes = (const void **)malloc(sizeof *s->meshes * ((size_t)total + 1));
    if (!s->shapes || !s->hulls || !s->meshes) return 0;
    for (i = 0; i < count; ++i) {
        int n = s->shape_start[i + 1] - s->shape_start[i];
        rg_body_shapes(w, ids[i], s->shapes + s->shape_start[i], n);
    }
    for (k = 0; k < total; ++k) {
        const rg_hull *h = rg_shape_get_hull(w, s->shapes[k], NULL, NULL);
        const rg_mesh *m = rg_shape_get_mesh(w, s->shapes[k]);
        if (h) record__distinct(s->hulls, &s->hull_count, h);
        if (m) record__distinct(s->meshes, &s->mesh_count, m);
    }
    return 1;
}

RECORD__STATIC int record__write_hull(record__bytes *b, const rg_hull *h) {
    int faces = rg_hull_face_count(h), vertices = rg_hull_vertex_count(h), index_count = 0, f, v, unused;
    for (f = 0; f < faces; ++f) index_count += rg_hull_face_vertices(h, f, &unused, 0);
    record__u32(b, (unsigned long)vertices);
    record__u32(b, (unsigned long)faces);
    record__u32(b, (unsigned long)index_count);
    for (v = 0; v < vertices; ++v) {
        rg_vec3 p = rg_hull_vertex(h, v);
        record__real(b, p.x);
        record__real(b, p.y);
        record__real(b, p.z);
    }
    for (f = 0; f < faces; ++f) record__u32(b, (unsigned long)rg_hull_face_vertices(h, f, &unused, 0));
    for (f = 0; f < faces; ++f) {
        int n = rg_hull_face_vertices(h, f, &unused, 0), k;
        int *indices = (int *)malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
        if (!indices) return 0;
        rg_hull_face_vertices(h, f, indices, n);
        for (k = 0; k < n; ++k) record__u32(b, (unsigned long)indices[k]);
        free(indices);
    }
    return 1;
}

RECORD__STATIC void record__write_mesh(record__bytes *b, const rg_mesh *m) {
    int vertices = rg_mesh_vertex_count(m), triangles = rg_mesh_triangle_count(m), i, k;
    record__u32(b, (unsigned long)vertices);
    record__u32(b, (unsigned long)triangles);
    for (i = 0; i < vertices; ++i) {
        rg_vec3 p = rg_mesh_vertex(m, i);
        record__real(b, p.x);
        record__real(b, p.y);
        record__real(b, p.z);
    }
    for (i = 0; i < triangles; ++i) {
        int t[3] = {0, 0, 0};
        rg_mesh_triangle(m, i, t);
        for (k = 0; k < 3; ++k) record__u32(b, (unsigned long)t[k]);
    }
}

RECORD__STATIC void record__write_shape(record__bytes *b, const rg_world *w, rg_shape_id id, const record__scene *s) {
    rg_shape_type type = rg_shape_get_type(w, id);
    rg_vec3 p0 = rg_v3(0, 0, 0), p1 = rg_v3(0, 0, 0);
    rg_quat q = rg_quat_identity();
    rg_real radius = 0;
    const rg_hull *h;
    const rg_mesh *m;
    int i;
    record__u32(b, (unsigned long)type);
    switch (type) {
    case RG_SHAPE_HULL:
        h = rg_shape_get_hull(w, id, &p0, &q);
        for (i = 0; i < s->hull_count && s->hulls[i] != (const void *)h; ++i) {}
        record__u32(b, (unsigned long)i);
        record__real(b, p0.x); record__real(b, p0.y); record__real(b, p0.z);
        record__real(b, q.x); record__real(b, q.y); record__real(b, q.z); record__real(b, q.w);
        break;
    case RG_SHAPE_SPHERE:
        rg_shape_get_sphere(w, id, &p0, &radius);
        record__real(b, p0.x); record__real(b, p0.y); record__real(b, p0.z);
        record__real(b, radius);
        break;
    case RG_SHAPE_CAPSULE:
        rg_shape_get_capsule(w, id, &p0, &p1, &radius);
        record__real(b, p0.x); record__real(b, p0.y); record__real(b, p0.z);
        record__real(b, p1.x); record__real(b, p1.y); record__real(b, p1.z);
        record__real(b, radius);
        break;
    case RG_SHAPE_MESH:
        m = rg_shape_get_mesh(w, id);
        for (i = 0; i < s->mesh_count && s->meshes[i] != (const void *)m; ++i) {}
        record__u32(b, (unsigned long)i);
        break;
    }
}

/* The header, the hulls, the meshes and the bodies with their shapes. */
RECORD__STATIC int record__write_scene(record__bytes *b, const rg_world *w, const rg_body_id *ids, int count,
                                       double frame_dt, const record__scene *s) {
    int i, k;
    record__raw(b, RECORD_MAGIC, 8);
    record__real(b, frame_dt);
    record__u32(b, (unsigned long)s->hull_count);
    record__u32(b, (unsigned long)s->mesh_count);
    record__u32(b, (unsigned long)count);
    for (i = 0; i < s->hull_count; ++i)
        if (!record__write_hull(b, (const rg_hull *)s->hulls[i])) return 0;
    for (i = 0; i < s->mesh_count; ++i) record__write_mesh(b, (const rg_mesh *)s->meshes[i]);
    for (i = 0; i < count; ++i) {
        record__u32(b, (unsigned long)rg_body_get_type(w, ids[i]));
        record__u32(b, (unsigned long)(s->shape_start[i + 1] - s->shape_start[i]));
        for (k = s->shape_start[i]; k < s->shape_start[i + 1]; ++k) record__write_shape(b, w, s->shapes[k], s);
    }
    return !b->failed;
}

/* Writes the header, the distinct hulls and meshes, and the shapes of the bodies
   ids[0..count). NULL when the file cannot be opened or memory runs out. */
RECORD__STATIC recorder *record_open(const char *path, const rg_world *w, const rg_body_id *ids, int count,
                                     double frame_dt) {
    recorder *r;
    record__scene scene;
    int i;
    if (!path || !w || count < 0 || (count > 0 && !ids)) return NULL;
    memset(&scene, 0, sizeof scene);
    r = (recorder *)calloc(1, sizeof *r);
    if (!r) return NULL;
    r->count = count;
    r->ids = (rg_body_id *)malloc(sizeof *r->ids * ((size_t)count + 1));
    r->last = (unsigned char *)malloc((size_t)RECORD_POSE_BYTES * ((size_t)count + 1));
    if (!r->ids || !r->last) goto fail;
    if (count) memcpy(r->ids, ids, sizeof *ids * (size_t)count);
    for (i = 0; i < count; ++i)
        if (ids[i].index + 1 > r->slot_count) r->slot_count = ids[i].index + 1;
    r->slot_to_body = (unsigned long *)malloc(sizeof *r->slot_to_body * (r->slot_count + 1));
    if (!r->slot_to_body) goto fail;
    for (i = 0; i < (int)r->slot_count; ++i) r->slot_to_body[i] = RECORD_NONE;
    for (i = 0; i < count; ++i) r->slot_to_body[ids[i].index] = (unsigned long)i;
    if (!record__collect(&scene, w, ids, count) || !record__write_scene(&r->bytes, w, ids, count, frame_dt, &scene))
        goto fail;
    r->file = fopen(path, "wb");
    if (!r->file || fwrite(r->bytes.data, 1, r->bytes.size, r->file) != r->bytes.size) goto fail;
    record__scene_free(&scene);
    return r;
fail:
    record__scene_free(&scene);
    if (r->file) fclose(r->file);
    free(r->ids);
    free(r->last);
    free(r->slot_to_body);
    free(r->bytes.data);
    free(r);
    return NULL;
}

/* record_frame records the last step's contacts from now on (on = 1) or no more (on = 0). */
RECORD__STATIC void record_set_contacts(recorder *r, int on) {
    if (r) r->record_contacts = on != 0;
}

/* One frame: the poses (those that changed since the last frame), and contacts[0..count) when
   with_contacts. */
RECORD__STATIC int record__frame(recorder *r, const rg_world *w, double time, int with_contacts,
                                 const rg_contact *contacts, int count) {
    size_t mask_at;
    int i;
    r->bytes.size = 0;
    record__raw(&r->bytes, RECORD_FRAME_MAGIC, 4);
    record__u32(&r->bytes, r->frame);
    record__real(&r->bytes, time);
    record__u32(&r->bytes, with_contacts ? RECORD_FRAME_CONTACTS : 0);
    mask_at = r->bytes.size;
    if (record__grow(&r->bytes, ((size_t)r->count + 7) / 8)) memset(r->bytes.data + mask_at, 0, ((size_t)r->count + 7) / 8);
    for (i = 0; i < r->count; ++i) {
        rg_vec3 p = rg_body_position(w, r->ids[i]);
        rg_quat q = rg_body_orientation(w, r->ids[i]);
        unsigned char pose[RECORD_POSE_BYTES], *last = r->last + (size_t)i * RECORD_POSE_BYTES, *out;
        record__put_real(pose, p.x);
        record__put_real(pose + 4, p.y);
        record__put_real(pose + 8, p.z);
        record__put_quat(pose + 12, q.x, q.y, q.z, q.w);
        if (r->frame > 0 && memcmp(pose, last, RECORD_POSE_BYTES) == 0) continue;
        memcpy(last, pose, RECORD_POSE_BYTES);
        out = record__grow(&r->bytes, RECORD_POSE_BYTES);
        if (!out) break;
        memcpy(out, pose, RECORD_POSE_BYTES);
        r->bytes.data[mask_at + (size_t)i / 8] |= (unsigned char)(1u << (i % 8));
    }
    if (with_contacts) {
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
    }
    if (r->bytes.failed || fwrite(r->bytes.data, 1, r->bytes.size, r->file) != r->bytes.size) {
        r->failed = 1;
        return 0;
    }
    r->frame++;
    return 1;
}

/* Appends one frame: the poses of the recorded bodies from w, and the given contacts (any list of
   rg_contact, e.g. a subset of rg_world_contacts; recorded whether or not record_set_contacts
   is on). Returns 1 on success, 0 for a NULL recorder or a failed write. */
RECORD__STATIC int record_frame_contacts(recorder *r, const rg_world *w, double time, const rg_contact *contacts,
                                         int count) {
    if (!r || r->failed) return 0;
    if (count < 0 || (count > 0 && !contacts)) count = 0;
    return record__frame(r, w, time, 1, contacts, count);
}

/* Appends one frame: the poses of the recorded bodies, and every contact of the last step
   (rg_world_contacts) when record_set_contacts turned them on. Returns 1 on success (0 also for
   a NULL recorder, so that a program may call it whether or not it records). */
RECORD__STATIC int record_frame(recorder *r, const rg_world *w, double time) {
    int total;
    if (!r || r->failed) return 0;
    if (!r->record_contacts) return record__frame(r, w, time, 0, NULL, 0);
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
    free(r->last);
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

typedef struct record_mesh {
    int vertex_count, triangle_count;
    float *vertices;        /* 3 per vertex, the body frame */
    int *triangles;         /* 3 per triangle, counter-clockwise seen from the front */
} record_mesh;

typedef struct record_shape {
    int type;               /* RECORD_SHAPE_HULL, _SPHERE, _CAPSULE or _MESH */
    int index;              /* hulls: into rec->hulls; meshes: into rec->meshes; -1 otherwise */
    float a[3], b[3];       /* sphere: the centre (a = b); capsule: the ends; hull: a its position */
    float orientation[4];   /* hull: x, y, z, w in the body frame; identity otherwise */
    float radius;           /* spheres and capsules; 0 otherwise */
} record_shape;

typedef struct record_contact {
    unsigned long a, b;     /* body indices, RECORD_NONE for a body not recorded */
    float point[3], normal[3], depth, normal_impulse, friction_impulse[3];
} record_contact;

typedef struct recording {
    int version;            /* of the file: 1 or 2 */
    float frame_dt;
    int hull_count, mesh_count, body_count, shape_count, frame_count;
    record_hull *hulls;
    record_mesh *meshes;
    record_shape *shapes;   /* shape_count: every body's, one body after another */
    int *body_shape_start;  /* body_count + 1: body b has shapes [start[b], start[b + 1]) */
    int *body_hull;         /* body_count: the hull of its first shape when that is a hull, or -1 */
    int *body_type;         /* body_count: rg_body_type value */
    float *times;           /* frame_count */
    float *poses;           /* frame_count * body_count * 7: position, orientation (x, y, z, w) */
    long *contact_start;    /* frame_count + 1: frame f has contacts [start[f], start[f + 1]) */
    record_contact *contacts;
    int contact_frames;     /* frames that carry contacts (every frame of a version 1 file) */
} recording;

RECORD__STATIC void record_free(recording *rec) {
    int i;
    if (rec->hulls)
        for (i = 0; i < rec->hull_count; ++i) {
            free(rec->hulls[i].vertices);
            free(rec->hulls[i].face_sizes);
            free(rec->hulls[i].indices);
        }
    if (rec->meshes)
        for (i = 0; i < rec->mesh_count; ++i) {
            free(rec->meshes[i].vertices);
            free(rec->meshes[i].triangles);
        }
    free(rec->hulls);
    free(rec->meshes);
    free(rec->shapes);
    free(rec->body_shape_start);
    free(rec->body_hull);
    free(rec->body_type);
    free(rec->times);
    free(rec->poses);
    free(rec->contact_start);
    free(rec->contacts);
    memset(rec, 0, sizeof *rec);
}

/* The reader's cursor over the file's bytes; error is set by the first check that fails. */
typedef struct record__cursor {
    const unsigned char *p, *end;
    const char *error;
} record__cursor;

RECORD__STATIC int record__need(record__cursor *c, size_t n, const char *what) {
    if (c->error) return 0;
    if ((size_t)(c->end - c->p) < n) { c->error = what; return 0; }
    return 1;
}

RECORD__STATIC unsigned long record__read_u32(record__cursor *c) {
    unsigned long v = record__get_u32(c->p);
    c->p += 4;
    return v;
}

RECORD__STATIC float record__read_real(record__cursor *c) {
    float v = record__get_real(c->p);
    c->p += 4;
    return v;
}

RECORD__STATIC int record__read_hull(record__cursor *c, record_hull *h) {
    unsigned long vertices, faces, indices, sum = 0;
    int k;
    if (!record__need(c, 12, "truncated hulls")) return 0;
    vertices = record__read_u32(c);
    faces = record__read_u32(c);
    indices = record__read_u32(c);
    if (vertices > 1000000 || faces > 1000000 || indices > 10000000) { c->error = "implausible hull"; return 0; }
    if (!record__need(c, 12 * vertices + 4 * faces + 4 * indices, "truncated hulls")) return 0;
    h->vertex_count = (int)vertices;
    h->face_count = (int)faces;
    h->vertices = (float *)malloc(sizeof(float) * (3 * vertices + 1));
    h->face_sizes = (int *)malloc(sizeof(int) * (faces + 1));
    h->indices = (int *)malloc(sizeof(int) * (indices + 1));
    if (!h->vertices || !h->face_sizes || !h->indices) { c->error = "out of memory"; return 0; }
    for (k = 0; k < (int)(3 * vertices); ++k) h->vertices[k] = record__read_real(c);
    for (k = 0; k < (int)faces; ++k) {
        h->face_sizes[k] = (int)record__read_u32(c);
        sum += (unsigned long)h->face_sizes[k];
    }
    for (k = 0; k < (int)indices; ++k) {
        h->indices[k] = (int)record__read_u32(c);
        if (h->indices[k] < 0 || h->indices[k] >= (int)vertices) { c->error = "face index out of range"; return 0; }
    }
    if (sum != indices) { c->error = "face sizes do not add up to the index count"; return 0; }
    return 1;
}

RECORD__STATIC int record__read_mesh(record__cursor *c, record_mesh *m) {
    unsigned long vertices, triangles;
    int k;
    if (!record__need(c, 8, "truncated meshes")) return 0;
    vertices = record__read_u32(c);
    triangles = record__read_u32(c);
    if (vertices > 50000000 || triangles > 50000000) { c->error = "implausible mesh"; return 0; }
    if (!record__need(c, 12 * vertices + 12 * triangles, "truncated meshes")) return 0;
    m->vertex_count = (int)vertices;
    m->triangle_count = (int)triangles;
    m->vertices = (float *)malloc(sizeof(float) * (3 * vertices + 1));
    m->triangles = (int *)malloc(sizeof(int) * (3 * triangles + 1));
    if (!m->vertices || !m->triangles) { c->error = "out of memory"; return 0; }
    for (k = 0; k < (int)(3 * vertices); ++k) m->vertices[k] = record__read_real(c);
    for (k = 0; k < (int)(3 * triangles); ++k) {
        unsigned long v = record__read_u32(c);
        if (v >= vertices) { c->error = "triangle index out of range"; return 0; }
        m->triangles[k] = (int)v;
    }
    return 1;
}

RECORD__STATIC void record__shape_clear(record_shape *s, int type) {
    memset(s, 0, sizeof *s);
    s->type = type;
    s->index = -1;
    s->orientation[3] = 1;
}

/* One shape of a version 2 body. */
RECORD__STATIC int record__read_shape(record__cursor *c, const recording *rec, record_shape *s) {
    unsigned long type, index;
    int k;
    if (!record__need(c, 4, "truncated bodies")) return 0;
    type = record__read_u32(c);
    record__shape_clear(s, (int)type);
    switch (type) {
    case RECORD_SHAPE_HULL:
        if (!record__need(c, 32, "truncated bodies")) return 0;
        index = record__read_u32(c);
        if (index >= (unsigned long)rec->hull_count) { c->error = "a shape names a hull out of range"; return 0; }
        s->index = (int)index;
        for (k = 0; k < 3; ++k) s->a[k] = s->b[k] = record__read_real(c);
        for (k = 0; k < 4; ++k) s->orientation[k] = record__read_real(c);
        return 1;
    case RECORD_SHAPE_SPHERE:
        if (!record__need(c, 16, "truncated bodies")) return 0;
        for (k = 0; k < 3; ++k) s->a[k] = s->b[k] = record__read_real(c);
        s->radius = record__read_real(c);
        return 1;
    case RECORD_SHAPE_CAPSULE:
        if (!record__need(c, 28, "truncated bodies")) return 0;
        for (k = 0; k < 3; ++k) s->a[k] = record__read_real(c);
        for (k = 0; k < 3; ++k) s->b[k] = record__read_real(c);
        s->radius = record__read_real(c);
        return 1;
    case RECORD_SHAPE_MESH:
        if (!record__need(c, 4, "truncated bodies")) return 0;
        index = record__read_u32(c);
        if (index >= (unsigned long)rec->mesh_count) { c->error = "a shape names a mesh out of range"; return 0; }
        s->index = (int)index;
        return 1;
    default:
        c->error = "unknown shape type";
        return 0;
    }
}

/* The bodies: version 2 lists their shapes, version 1 gives each at most one hull. */
RECORD__STATIC int record__read_bodies(record__cursor *c, recording *rec) {
    int i, capacity = rec->body_count + 1;
    rec->body_shape_start = (int *)malloc(sizeof(int) * ((size_t)rec->body_count + 1));
    rec->body_hull = (int *)malloc(sizeof(int) * ((size_t)rec->body_count + 1));
    rec->body_type = (int *)malloc(sizeof(int) * ((size_t)rec->body_count + 1));
    rec->shapes = (record_shape *)malloc(sizeof *rec->shapes * (size_t)capacity);
    if (!rec->body_shape_start || !rec->body_hull || !rec->body_type || !rec->shapes) { c->error = "out of memory"; return 0; }
    for (i = 0; i < rec->body_count; ++i) {
        unsigned long n, k;
        rec->body_shape_start[i] = rec->shape_count;
        if (rec->version == 1) {
            unsigned long hull;
            if (!record__need(c, 8, "truncated bodies")) return 0;
            hull = record__read_u32(c);
            rec->body_type[i] = (int)record__read_u32(c);
            n = hull < (unsigned long)rec->hull_count ? 1 : 0;
            if (n) {
                record__shape_clear(&rec->shapes[rec->shape_count], RECORD_SHAPE_HULL);
                rec->shapes[rec->shape_count++].index = (int)hull;
            }
        } else {
            if (!record__need(c, 8, "truncated bodies")) return 0;
            rec->body_type[i] = (int)record__read_u32(c);
            n = record__read_u32(c);
            if (n > (unsigned long)(c->end - c->p) / 8) { c->error = "implausible shape count"; return 0; }
            if (rec->shape_count + (int)n >= capacity) {
                record_shape *grown;
                while (rec->shape_count + (int)n >= capacity) capacity *= 2;
                grown = (record_shape *)realloc(rec->shapes, sizeof *grown * (size_t)capacity);
                if (!grown) { c->error = "out of memory"; return 0; }
                rec->shapes = grown;
            }
            for (k = 0; k < n; ++k)
                if (!record__read_shape(c, rec, &rec->shapes[rec->shape_count++])) return 0;
        }
        rec->body_hull[i] = rec->shape_count > rec->body_shape_start[i] &&
                                    rec->shapes[rec->body_shape_start[i]].type == RECORD_SHAPE_HULL
                                ? rec->shapes[rec->body_shape_start[i]].index
                                : -1;
    }
    rec->body_shape_start[rec->body_count] = rec->shape_count;
    return 1;
}

/* Room for one more frame and n more contacts. */
RECORD__STATIC int record__reserve(recording *rec, size_t *frame_capacity, size_t *contact_capacity,
                                   size_t contact_count, unsigned long n) {
    if ((size_t)rec->frame_count + 1 >= *frame_capacity) {
        size_t capacity = *frame_capacity ? 2 * *frame_capacity : 64;
        float *times = (float *)realloc(rec->times, sizeof(float) * capacity);
        float *poses;
        long *starts;
        if (times) rec->times = times;
        poses = (float *)realloc(rec->poses, sizeof(float) * capacity * (size_t)rec->body_count * RECORD_BODY_REALS + 1);
        if (poses) rec->poses = poses;
        starts = (long *)realloc(rec->contact_start, sizeof(long) * (capacity + 1));
        if (starts) rec->contact_start = starts;
        if (!times || !poses || !starts) return 0;
        *frame_capacity = capacity;
    }
    if (contact_count + n > *contact_capacity) {
        size_t capacity = *contact_capacity ? *contact_capacity : 1024;
        record_contact *grown;
        while (capacity < contact_count + n) capacity *= 2;
        grown = (record_contact *)realloc(rec->contacts, sizeof *grown * capacity);
        if (!grown) return 0;
        rec->contacts = grown;
        *contact_capacity = capacity;
    }
    return 1;
}

RECORD__STATIC void record__read_contact(const unsigned char *p, record_contact *c) {
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

/* The size of the frame at p (0 when it does not fit or is malformed), its flags and contact
   count. */
RECORD__STATIC size_t record__frame_size(const recording *rec, const unsigned char *p, const unsigned char *end,
                                         int first, unsigned long *flags, unsigned long *contacts) {
    size_t available = (size_t)(end - p), size, mask = ((size_t)rec->body_count + 7) / 8, moved = 0, b;
    if (rec->version == 1) {
        size = 12 + (size_t)rec->body_count * RECORD_BODY_REALS * 4;
        *flags = RECORD_FRAME_CONTACTS;
    } else {
        if (available < 16 + mask) return 0;
        *flags = record__get_u32(p + 12);
        if (*flags & ~(unsigned long)RECORD_FRAME_CONTACTS) return 0;
        for (b = 0; b < (size_t)rec->body_count; ++b) moved += (p[16 + b / 8] >> (b % 8)) & 1;
        if (first && moved != (size_t)rec->body_count) return 0;
        size = 16 + mask + moved * RECORD_POSE_BYTES;
    }
    if (available < size || memcmp(p, RECORD_FRAME_MAGIC, 4) != 0) return 0;
    *contacts = 0;
    if (!(*flags & RECORD_FRAME_CONTACTS)) return size;
    if (available - size < 4) return 0;
    *contacts = record__get_u32(p + size);
    if ((available - size - 4) / RECORD_CONTACT_BYTES < *contacts) return 0;
    return size + 4 + (size_t)*contacts * RECORD_CONTACT_BYTES;
}

/* Decodes the poses of the frame at p into out (body_count * 7); prev is the previous frame's
   (NULL for the first). */
RECORD__STATIC void record__read_poses(const recording *rec, const unsigned char *p, const float *prev, float *out) {
    int b, k;
    if (rec->version == 1) {
        for (k = 0; k < rec->body_count * RECORD_BODY_REALS; ++k) out[k] = record__get_real(p + 12 + 4 * k);
        return;
    }
    {
        const unsigned char *mask = p + 16, *pose = mask + ((size_t)rec->body_count + 7) / 8;
        for (b = 0; b < rec->body_count; ++b, out += RECORD_BODY_REALS) {
            if (!((mask[b / 8] >> (b % 8)) & 1)) {
                memcpy(out, prev + (size_t)b * RECORD_BODY_REALS, sizeof(float) * RECORD_BODY_REALS);
                continue;
            }
            for (k = 0; k < 3; ++k) out[k] = record__get_real(pose + 4 * k);
            record__get_quat(pose + 12, out + 3);
            pose += RECORD_POSE_BYTES;
        }
    }
}

/* Reads a whole recording (version 1 or 2) into memory. Returns 1 on success; 0 with *error set
   (and rec freed) for a missing file, a bad magic, or a header, geometry or body section that
   does not fit the file. */
RECORD__STATIC int record_read(const char *path, recording *rec, const char **error) {
    FILE *f = fopen(path, "rb");
    unsigned char *data = NULL;
    record__cursor c;
    long size;
    int i;
    size_t frame_capacity = 0, contact_capacity = 0, contact_count = 0, header;
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
    c.p = data;
    c.end = data + size;
    c.error = NULL;
    if (!record__need(&c, 8, "not a rigid.h recording (bad magic)")) goto fail;
    if (memcmp(c.p, RECORD_MAGIC, 8) == 0) rec->version = 2;
    else if (memcmp(c.p, RECORD_MAGIC_V1, 8) == 0) rec->version = 1;
    else { c.error = "not a rigid.h recording (bad magic)"; goto fail; }
    header = rec->version == 1 ? 20 : 24;
    if (!record__need(&c, header, "truncated header")) goto fail;
    c.p += 8;
    rec->frame_dt = record__read_real(&c);
    rec->hull_count = (int)record__read_u32(&c);
    if (rec->version == 2) rec->mesh_count = (int)record__read_u32(&c);
    rec->body_count = (int)record__read_u32(&c);
    if (rec->hull_count < 0 || rec->body_count < 0 || rec->mesh_count < 0 || rec->hull_count > 1000000 ||
        rec->mesh_count > 1000000 || rec->body_count > 10000000) {
        c.error = "implausible counts";
        goto fail;
    }
    rec->hulls = (record_hull *)calloc((size_t)rec->hull_count + 1, sizeof *rec->hulls);
    rec->meshes = (record_mesh *)calloc((size_t)rec->mesh_count + 1, sizeof *rec->meshes);
    if (!rec->hulls || !rec->meshes) { c.error = "out of memory"; goto fail; }
    for (i = 0; i < rec->hull_count; ++i)
        if (!record__read_hull(&c, &rec->hulls[i])) goto fail;
    for (i = 0; i < rec->mesh_count; ++i)
        if (!record__read_mesh(&c, &rec->meshes[i])) goto fail;
    if (!record__read_bodies(&c, rec)) goto fail;

    /* frames: stop at the end or at a frame that does not fit (an interrupted run) */
    for (;;) {
        unsigned long flags, n, k;
        size_t frame_size = record__frame_size(rec, c.p, c.end, rec->frame_count == 0, &flags, &n);
        const unsigned char *contacts = c.p + frame_size - (size_t)n * RECORD_CONTACT_BYTES;
        float *poses;
        if (frame_size == 0) break;
        if (!record__reserve(rec, &frame_capacity, &contact_capacity, contact_count, n)) {
            c.error = "out of memory";
            goto fail;
        }
        poses = rec->poses + (size_t)rec->frame_count * (size_t)rec->body_count * RECORD_BODY_REALS;
        rec->times[rec->frame_count] = record__get_real(c.p + 8);
        record__read_poses(rec, c.p, rec->frame_count ? poses - (size_t)rec->body_count * RECORD_BODY_REALS : NULL, poses);
        rec->contact_start[rec->frame_count] = (long)contact_count;
        for (k = 0; k < n; ++k) record__read_contact(contacts + k * RECORD_CONTACT_BYTES, &rec->contacts[contact_count++]);
        rec->contact_frames += (flags & RECORD_FRAME_CONTACTS) != 0;
        rec->frame_count++;
        rec->contact_start[rec->frame_count] = (long)contact_count;
        c.p += frame_size;
    }
    if (!rec->contact_start) {
        rec->contact_start = (long *)calloc(1, sizeof(long));
        if (!rec->contact_start) { c.error = "out of memory"; goto fail; }
    }
    free(data);
    return 1;
fail:
    *error = c.error ? c.error : "cannot read the file";
    free(data);
    record_free(rec);
    return 0;
}

#endif /* RIGID_RECORD_H */
