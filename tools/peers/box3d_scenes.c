/* The scenes of examples/scenes.h in Box3D (Erin Catto's 3D engine, C17, float), for
   `make bench-box3d BOX3D_DIR=...`: tools/bench.c built with BENCH_BOX3D steps rigid.h and Box3D
   in turns and compares them. Box3D is not in the repository: the Makefile builds this file
   against $(BOX3D_DIR)/include and the library its own CMake built in $(BOX3D_DIR)/build. C11
   (Box3D's headers use anonymous unions).

   Settings, as docs/scenes.md gives them for the peers: gravity (0, -9.81, 0), the scene's dt,
   Box3D's default 4 substeps a step (b3World_Step(world, dt, 4); Box3D has no iteration count:
   its soft-step solver takes one solve and one relax pass a substep), sleeping off, one worker
   (no task system: Box3D then runs everything on the calling thread), every other world setting
   Box3D's default (contact stiffness 30 Hz, damping ratio 10, push-out speed 3 m/s, restitution
   below 1 m/s off, continuous collision on). Boxes are b3MakeBoxHull hulls, spheres b3Sphere, the
   mesh a b3CreateMesh over the scene's vertices and triangles (median split and edge adjacency,
   as Box3D's own grid meshes). A dynamic body's density makes the scene's mass. Friction and
   restitution are every shape's material; Box3D mixes a pair's friction as sqrt(a b) and its
   restitution as max(a, b), both the common value here. Capsules are b3Capsule shapes along y.

   Joints (joint-grid, ragdolls), with Box3D's default softness, collideConnected false: a ball
   joint is a b3SphericalJoint (with a cone limit: enableConeLimit, the cone about the joint
   frames' z axis, the twist free), a hinge a b3RevoluteJoint (about the frames' z axis, with
   enableLimit). Both frames sit at the anchor with z along the scene's axis. Box3D's revolute
   angle is B's turn relative to A, so the scene's body b is Box3D's A and body a its B; a joint to
   the world is made to a static body without shapes at the origin. */
#include <box3d/box3d.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tools/peers/peers.h"

#define BOX3D_SUBSTEPS 4

typedef struct box3d_world {
    b3WorldId world;
    b3BodyId *bodies;       /* per box, static ones too */
    b3MeshData *mesh;       /* the scene's mesh, NULL without one */
    b3ContactData *contacts; /* scratch for counting contact points */
    int contact_capacity;
    b3BodyId anchor;        /* the world's side of joints to the world (a static body, no shapes) */
    int has_anchor;
} box3d_world;

static b3Vec3 box3d_v3(const double v[3]) {
    b3Vec3 r;
    r.x = (float)v[0];
    r.y = (float)v[1];
    r.z = (float)v[2];
    return r;
}

/* The scene's mesh as Box3D mesh data (once per world); Box3D copies what it keeps. */
static b3MeshData *box3d_mesh(box3d_world *w, const scene *s) {
    b3MeshDef def = {0};
    b3Vec3 *vertices;
    int k;
    if (w->mesh) return w->mesh;
    vertices = (b3Vec3 *)malloc(sizeof(b3Vec3) * (size_t)s->mesh_vertex_count);
    if (!vertices) return NULL;
    for (k = 0; k < s->mesh_vertex_count; ++k) vertices[k] = box3d_v3(&s->mesh_vertices[3 * k]);
    def.vertices = vertices;
    def.indices = s->mesh_indices; /* int, three per triangle, counter-clockwise from the front */
    def.vertexCount = s->mesh_vertex_count;
    def.triangleCount = s->mesh_triangle_count;
    def.useMedianSplit = true;
    def.identifyEdges = true;
    w->mesh = b3CreateMesh(&def, NULL, 0);
    free(vertices);
    return w->mesh;
}

static void box3d_free(box3d_world *w) {
    if (b3World_IsValid(w->world)) b3DestroyWorld(w->world);
    if (w->mesh) b3DestroyMesh(w->mesh);
    free(w->bodies);
    free(w->contacts);
    free(w);
}

/* A joint's frame in the local coordinates of box (the world's anchor body at the origin when
   NULL): origin at the anchor, z along the scene's axis, x and y perpendicular to it (the same
   world directions for both bodies of the joint, so that the frames agree at the start). */
static b3Transform box3d_joint_frame(const scene_box *box, const scene_joint *j) {
    const double *n = j->axis;
    double e[3] = {0, 0, 0}, p[3], length;
    int k = fabs(n[0]) <= fabs(n[1]) && fabs(n[0]) <= fabs(n[2]) ? 0 : fabs(n[1]) <= fabs(n[2]) ? 1 : 2;
    b3Matrix3 basis;
    b3Quat body = {{0, 0, 0}, 1}, world;
    b3Vec3 anchor = box3d_v3(j->anchor);
    b3Transform frame;
    e[k] = 1;
    p[0] = n[1] * e[2] - n[2] * e[1];
    p[1] = n[2] * e[0] - n[0] * e[2];
    p[2] = n[0] * e[1] - n[1] * e[0];
    length = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    for (k = 0; k < 3; ++k) p[k] /= length;
    basis.cz = box3d_v3(n);
    basis.cx = box3d_v3(p);
    basis.cy = b3Cross(basis.cz, basis.cx);
    world = b3MakeQuatFromMatrix(&basis);
    if (box) {
        body.v.x = (float)box->rotation[0];
        body.v.y = (float)box->rotation[1];
        body.v.z = (float)box->rotation[2];
        body.s = (float)box->rotation[3];
        anchor = b3Sub(anchor, box3d_v3(box->position));
    }
    frame.q = b3InvMulQuat(body, world);
    frame.p = b3InvRotateVector(body, anchor);
    return frame;
}

/* One joint of the scene; 0 if Box3D refused it. */
static int box3d_joint(box3d_world *w, const scene *s, const scene_joint *j) {
    const scene_box *parent = j->b >= 0 ? &s->boxes[j->b] : NULL;
    b3JointId id;
    if (!parent && !w->has_anchor) {
        b3BodyDef body_def = b3DefaultBodyDef();
        body_def.type = b3_staticBody;
        w->anchor = b3CreateBody(w->world, &body_def);
        w->has_anchor = 1;
    }
    if (j->type == SCENE_JOINT_HINGE) {
        b3RevoluteJointDef def = b3DefaultRevoluteJointDef();
        def.enableLimit = j->limit != 0;
        def.lowerAngle = (float)j->lower;
        def.upperAngle = (float)j->upper;
        def.base.bodyIdA = parent ? w->bodies[j->b] : w->anchor;
        def.base.bodyIdB = w->bodies[j->a];
        def.base.localFrameA = box3d_joint_frame(parent, j);
        def.base.localFrameB = box3d_joint_frame(&s->boxes[j->a], j);
        def.base.collideConnected = false;
        id = b3CreateRevoluteJoint(w->world, &def);
    } else {
        b3SphericalJointDef def = b3DefaultSphericalJointDef();
        def.enableConeLimit = j->limit != 0;
        def.coneAngle = (float)j->upper;
        def.base.bodyIdA = parent ? w->bodies[j->b] : w->anchor;
        def.base.bodyIdB = w->bodies[j->a];
        def.base.localFrameA = box3d_joint_frame(parent, j);
        def.base.localFrameB = box3d_joint_frame(&s->boxes[j->a], j);
        def.base.collideConnected = false;
        id = b3CreateSphericalJoint(w->world, &def);
    }
    return b3Joint_IsValid(id);
}

const char *box3d_description(void) {
    static char text[96];
    b3Version v = b3GetVersion();
    snprintf(text, sizeof text, "Box3D %d.%d.%d (float, %d substeps, one worker)", v.major, v.minor, v.revision,
             BOX3D_SUBSTEPS);
    return text;
}

void *box3d_create(const scene *s, const char **error) {
    const double pi = 3.14159265358979323846;
    box3d_world *w = (box3d_world *)calloc(1, sizeof *w);
    b3WorldDef world_def = b3DefaultWorldDef();
    int i;
    if (w) w->bodies = (b3BodyId *)calloc((size_t)s->count, sizeof *w->bodies);
    if (!w || !w->bodies) {
        if (w) box3d_free(w);
        *error = "out of memory";
        return NULL;
    }
    world_def.gravity.x = 0;
    world_def.gravity.y = -9.81f;
    world_def.gravity.z = 0;
    world_def.enableSleep = false;
    world_def.workerCount = 1;
    w->world = b3CreateWorld(&world_def);
    if (!b3World_IsValid(w->world)) {
        box3d_free(w);
        *error = "b3CreateWorld failed";
        return NULL;
    }
    for (i = 0; i < s->count; ++i) {
        const scene_box *box = &s->boxes[i];
        b3BodyDef body_def = b3DefaultBodyDef();
        b3ShapeDef shape_def = b3DefaultShapeDef();
        b3ShapeId shape;
        int dynamic = !box->is_static && box->shape != SCENE_MESH;
        body_def.type = dynamic ? b3_dynamicBody : b3_staticBody;
        body_def.position = box3d_v3(box->position);
        body_def.rotation.v.x = (float)box->rotation[0];
        body_def.rotation.v.y = (float)box->rotation[1];
        body_def.rotation.v.z = (float)box->rotation[2];
        body_def.rotation.s = (float)box->rotation[3];
        body_def.enableSleep = false;
        w->bodies[i] = b3CreateBody(w->world, &body_def);
        shape_def.baseMaterial.friction = (float)s->friction;
        shape_def.baseMaterial.restitution = (float)s->restitution;
        if (box->shape == SCENE_SPHERE) {
            b3Sphere sphere;
            double r = box->half[0];
            sphere.center.x = sphere.center.y = sphere.center.z = 0;
            sphere.radius = (float)r;
            if (dynamic) shape_def.density = (float)(scene_body_mass(s, box) / (4.0 / 3.0 * pi * r * r * r));
            shape = b3CreateSphereShape(w->bodies[i], &shape_def, &sphere);
        } else if (box->shape == SCENE_CAPSULE) {
            b3Capsule capsule;
            double r = box->half[0], h = box->half[1];
            capsule.center1.x = capsule.center1.z = capsule.center2.x = capsule.center2.z = 0;
            capsule.center1.y = (float)-h;
            capsule.center2.y = (float)h;
            capsule.radius = (float)r;
            if (dynamic) shape_def.density = (float)(scene_body_mass(s, box) / (pi * r * r * (2 * h + 4.0 / 3.0 * r)));
            shape = b3CreateCapsuleShape(w->bodies[i], &shape_def, &capsule);
        } else if (box->shape == SCENE_MESH) {
            const b3MeshData *mesh = box3d_mesh(w, s);
            b3Vec3 unit;
            unit.x = unit.y = unit.z = 1;
            if (!mesh) {
                box3d_free(w);
                *error = "b3CreateMesh failed";
                return NULL;
            }
            shape = b3CreateMeshShape(w->bodies[i], &shape_def, mesh, unit);
        } else {
            /* b3MakeBoxHull returns the hull by value; b3CreateHullShape copies it */
            b3BoxHull hull = b3MakeBoxHull((float)box->half[0], (float)box->half[1], (float)box->half[2]);
            if (dynamic)
                shape_def.density = (float)(scene_body_mass(s, box) / (8 * box->half[0] * box->half[1] * box->half[2]));
            shape = b3CreateHullShape(w->bodies[i], &shape_def, &hull.base);
        }
        if (!b3Shape_IsValid(shape)) {
            box3d_free(w);
            *error = "a Box3D shape could not be made";
            return NULL;
        }
    }
    for (i = 0; i < s->joint_count; ++i)
        if (!box3d_joint(w, s, &s->joints[i])) {
            box3d_free(w);
            *error = "a Box3D joint could not be made";
            return NULL;
        }
    *error = NULL;
    return w;
}

/* Contact points of touching manifolds, each contact counted once: on its first shape's body
   when both are dynamic, on the dynamic body otherwise. Outside the timed step. */
static int box3d_contact_points(box3d_world *w, const scene *s) {
    int i, c, m, points = 0;
    for (i = 0; i < s->count; ++i) {
        int count, capacity;
        if (b3Body_GetType(w->bodies[i]) != b3_dynamicBody) continue;
        capacity = b3Body_GetContactCapacity(w->bodies[i]);
        if (capacity > w->contact_capacity) {
            b3ContactData *grown = (b3ContactData *)realloc(w->contacts, sizeof(b3ContactData) * (size_t)capacity);
            if (!grown) return -1;
            w->contacts = grown;
            w->contact_capacity = capacity;
        }
        count = b3Body_GetContactData(w->bodies[i], w->contacts, capacity);
        for (c = 0; c < count; ++c) {
            const b3ContactData *d = &w->contacts[c];
            b3BodyId a = b3Shape_GetBody(d->shapeIdA), b = b3Shape_GetBody(d->shapeIdB);
            b3BodyId other = B3_ID_EQUALS(a, w->bodies[i]) ? b : a;
            if (b3Body_GetType(other) == b3_dynamicBody && !B3_ID_EQUALS(a, w->bodies[i])) continue;
            for (m = 0; m < d->manifoldCount; ++m) points += d->manifolds[m].pointCount;
        }
    }
    return points;
}

step_time box3d_step(void *world, const scene *s, int *contacts) {
    box3d_world *w = (box3d_world *)world;
    peers_clock start = peers_clock_now();
    step_time t;
    b3World_Step(w->world, (float)s->dt, BOX3D_SUBSTEPS);
    t = peers_elapsed(start);
    *contacts = box3d_contact_points(w, s);
    return t;
}

void box3d_finish(void *world, const scene *s, double *position, double *velocity, double *rotation) {
    box3d_world *w = (box3d_world *)world;
    int i;
    for (i = 0; i < s->count; ++i) {
        /* every shape is centred on its body's origin */
        b3Pos p = b3Body_GetPosition(w->bodies[i]);
        b3Vec3 v = b3Body_GetLinearVelocity(w->bodies[i]);
        b3Quat q = b3Body_GetRotation(w->bodies[i]);
        position[3 * i + 0] = p.x;
        position[3 * i + 1] = p.y;
        position[3 * i + 2] = p.z;
        velocity[3 * i + 0] = v.x;
        velocity[3 * i + 1] = v.y;
        velocity[3 * i + 2] = v.z;
        rotation[4 * i + 0] = q.v.x;
        rotation[4 * i + 1] = q.v.y;
        rotation[4 * i + 2] = q.v.z;
        rotation[4 * i + 3] = q.s;
    }
    box3d_free(w);
}
