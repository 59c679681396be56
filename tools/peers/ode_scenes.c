/* The scenes of examples/scenes.h in ODE 0.16 (Debian's libode-dev, double), with the settings
   of docs/scenes.md: dWorldQuickStep with the scene's iteration count, a sweep-and-prune
   space, auto-disable off, up to 8 contacts per pair with the friction-pyramid approximation
   dContactApprox1 (mu is a coefficient of the normal force). ERP and CFM keep ODE's defaults;
   with restitution, contacts closing slower than 0.1 m/s do not bounce. Boxes are dCreateBox,
   spheres dCreateSphere, capsules dCreateCapsule (along z in ODE: turned onto the body's y axis
   by the geom's offset rotation; dMassSetCapsuleTotal along y), the mesh a dCreateTriMesh over
   the scene's vertices and triangles (Debian builds ODE in double, dDOUBLE: the vertices are
   handed over in ODE's dReal).

   Joints, with ODE's default ERP and CFM: a ball joint is dJointCreateBall; a hinge
   dJointCreateHinge attached (a, b), whose angle is then a's turn relative to b about the axis
   (as the scene's), its limit dParamLoStop and dParamHiStop. ODE has no cone limit: a ball joint
   with one gets an angular motor (dJointCreateAMotor, dAMotorEuler, no motor force) attached
   (b, a), axis 0 on b perpendicular to the cone's axis, axis 2 on a along it, with stops at
   +-(the cone's half angle) on Euler angles 0 and 1 and none on the twist (angle 2): the limit is
   then a square pyramid around the axis, reaching sqrt(2) times the cone's angle at its corners
   (a cone to the world is left out). Joined bodies make no contacts (dAreConnectedExcluding in
   the near callback).

   A step is what an ODE program does each frame: collide the space (contact joints made in the
   near callback), take the quick step, empty the contact group. */
#include <ode/ode.h>
#include <math.h>
#include <stdlib.h>

#include "tools/peers/peers.h"

#define ODE_CONTACTS_PER_PAIR 8

typedef struct ode_world {
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
    dBodyID *bodies;        /* per box, 0 for static boxes */
    dGeomID *geoms;
    dTriMeshDataID mesh;    /* the scene's mesh, 0 without one */
    dReal *mesh_vertices;   /* ODE reads these where they are: they live as long as the world */
    dTriIndex *mesh_indices;
    double friction, restitution;
    int contact_count;      /* contact joints made in the current step */
    int joined;             /* the scene has joints */
} ode_world;

static void ode_near_callback(void *data, dGeomID g1, dGeomID g2) {
    ode_world *w = (ode_world *)data;
    dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
    dContact contact[ODE_CONTACTS_PER_PAIR];
    int i, n;
    if (!b1 && !b2) return; /* two static boxes */
    if (b1 && b2 && w->joined && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return;
    n = dCollide(g1, g2, ODE_CONTACTS_PER_PAIR, &contact[0].geom, sizeof(dContact));
    for (i = 0; i < n; ++i) {
        dJointID joint;
        contact[i].surface.mode = dContactApprox1;
        contact[i].surface.mu = w->friction;
        if (w->restitution > 0) {
            contact[i].surface.mode |= dContactBounce;
            contact[i].surface.bounce = w->restitution;
            contact[i].surface.bounce_vel = 0.1;
        }
        joint = dJointCreateContact(w->world, w->contacts, &contact[i]);
        dJointAttach(joint, b1, b2);
    }
    w->contact_count += n;
}

/* The scene's mesh as ODE trimesh data (once per world). */
static dTriMeshDataID ode_mesh(ode_world *w, const scene *s) {
    int k;
    if (w->mesh) return w->mesh;
    w->mesh_vertices = (dReal *)malloc(sizeof(dReal) * 3 * (size_t)s->mesh_vertex_count);
    w->mesh_indices = (dTriIndex *)malloc(sizeof(dTriIndex) * 3 * (size_t)s->mesh_triangle_count);
    if (!w->mesh_vertices || !w->mesh_indices) return 0;
    for (k = 0; k < 3 * s->mesh_vertex_count; ++k) w->mesh_vertices[k] = (dReal)s->mesh_vertices[k];
    for (k = 0; k < 3 * s->mesh_triangle_count; ++k) w->mesh_indices[k] = (dTriIndex)s->mesh_indices[k];
    w->mesh = dGeomTriMeshDataCreate();
#ifdef dDOUBLE
    dGeomTriMeshDataBuildDouble(w->mesh, w->mesh_vertices, 3 * sizeof(dReal), s->mesh_vertex_count, w->mesh_indices,
                                3 * s->mesh_triangle_count, 3 * sizeof(dTriIndex));
#else
    dGeomTriMeshDataBuildSingle(w->mesh, w->mesh_vertices, 3 * sizeof(dReal), s->mesh_vertex_count, w->mesh_indices,
                                3 * s->mesh_triangle_count, 3 * sizeof(dTriIndex));
#endif
    return w->mesh;
}

static void ode_free(ode_world *w) {
    free(w->bodies);
    free(w->geoms);
    free(w->mesh_vertices);
    free(w->mesh_indices);
    free(w);
}

/* A joint of the scene (ODE keeps it until the world is destroyed). */
static void ode_joint(ode_world *w, const scene_joint *j) {
    dBodyID a = w->bodies[j->a], b = j->b >= 0 ? w->bodies[j->b] : 0;
    dJointID joint;
    if (j->type == SCENE_JOINT_HINGE) {
        joint = dJointCreateHinge(w->world, 0);
        dJointAttach(joint, a, b);
        dJointSetHingeAnchor(joint, j->anchor[0], j->anchor[1], j->anchor[2]);
        dJointSetHingeAxis(joint, j->axis[0], j->axis[1], j->axis[2]);
        if (j->limit) {
            dJointSetHingeParam(joint, dParamLoStop, j->lower);
            dJointSetHingeParam(joint, dParamHiStop, j->upper);
        }
        return;
    }
    joint = dJointCreateBall(w->world, 0);
    dJointAttach(joint, a, b);
    dJointSetBallAnchor(joint, j->anchor[0], j->anchor[1], j->anchor[2]);
    if (j->limit && b) {
        /* axis 0: a direction perpendicular to the cone's axis (its cross product with the world
           axis farthest from it) */
        const double *n = j->axis;
        double e[3] = {0, 0, 0}, p[3];
        int k = fabs(n[0]) <= fabs(n[1]) && fabs(n[0]) <= fabs(n[2]) ? 0 : fabs(n[1]) <= fabs(n[2]) ? 1 : 2;
        e[k] = 1;
        p[0] = n[1] * e[2] - n[2] * e[1];
        p[1] = n[2] * e[0] - n[0] * e[2];
        p[2] = n[0] * e[1] - n[1] * e[0];
        joint = dJointCreateAMotor(w->world, 0);
        dJointAttach(joint, b, a);
        dJointSetAMotorMode(joint, dAMotorEuler);
        dJointSetAMotorNumAxes(joint, 3);
        dJointSetAMotorAxis(joint, 0, 1, p[0], p[1], p[2]);
        dJointSetAMotorAxis(joint, 2, 2, n[0], n[1], n[2]);
        dJointSetAMotorParam(joint, dParamLoStop, -j->upper);
        dJointSetAMotorParam(joint, dParamHiStop, j->upper);
        dJointSetAMotorParam(joint, dParamLoStop2, -j->upper);
        dJointSetAMotorParam(joint, dParamHiStop2, j->upper);
    }
}

void *ode_create(const scene *s, const char **error) {
    ode_world *w = (ode_world *)calloc(1, sizeof *w);
    int i;
    if (w) {
        w->bodies = (dBodyID *)calloc((size_t)s->count, sizeof *w->bodies);
        w->geoms = (dGeomID *)calloc((size_t)s->count, sizeof *w->geoms);
    }
    if (!w || !w->bodies || !w->geoms) {
        if (w) ode_free(w);
        *error = "out of memory";
        return NULL;
    }
    dInitODE2(0);
    dAllocateODEDataForThread(dAllocateMaskAll);
    /* dWorldQuickStep shuffles the constraints with ODE's global random generator: start every
       scene from the seed a fresh program has, so that a scene's outcome does not depend on
       what ran before it in this process */
    dRandSetSeed(0);
    w->world = dWorldCreate();
    w->contacts = dJointGroupCreate(0);
    w->friction = s->friction;
    w->restitution = s->restitution;
    dWorldSetGravity(w->world, 0, -9.81, 0);
    dWorldSetQuickStepNumIterations(w->world, s->iterations);
    dWorldSetAutoDisableFlag(w->world, 0);
    w->space = dSweepAndPruneSpaceCreate(0, dSAP_AXES_XZY); /* sorts along x, then z, then y */
    for (i = 0; i < s->count; ++i) {
        const scene_box *box = &s->boxes[i];
        dQuaternion q; /* ODE's quaternions are (w, x, y, z) */
        q[0] = box->rotation[3]; q[1] = box->rotation[0]; q[2] = box->rotation[1]; q[3] = box->rotation[2];
        if (box->shape == SCENE_SPHERE) {
            w->geoms[i] = dCreateSphere(w->space, box->half[0]);
        } else if (box->shape == SCENE_CAPSULE) {
            w->geoms[i] = dCreateCapsule(w->space, box->half[0], 2 * box->half[1]);
        } else if (box->shape == SCENE_MESH) {
            dTriMeshDataID data = ode_mesh(w, s);
            if (!data) {
                *error = "out of memory";
                ode_finish(w, s, NULL, NULL, NULL);
                return NULL;
            }
            w->geoms[i] = dCreateTriMesh(w->space, data, NULL, NULL, NULL);
        } else {
            w->geoms[i] = dCreateBox(w->space, 2 * box->half[0], 2 * box->half[1], 2 * box->half[2]);
        }
        if (box->is_static || box->shape == SCENE_MESH) {
            dGeomSetPosition(w->geoms[i], box->position[0], box->position[1], box->position[2]);
            dGeomSetQuaternion(w->geoms[i], q);
        } else {
            dMass mass;
            double m = scene_body_mass(s, box);
            w->bodies[i] = dBodyCreate(w->world);
            if (box->shape == SCENE_SPHERE) dMassSetSphereTotal(&mass, m, box->half[0]);
            else if (box->shape == SCENE_CAPSULE) dMassSetCapsuleTotal(&mass, m, 2, box->half[0], 2 * box->half[1]);
            else dMassSetBoxTotal(&mass, m, 2 * box->half[0], 2 * box->half[1], 2 * box->half[2]);
            dBodySetMass(w->bodies[i], &mass);
            dGeomSetBody(w->geoms[i], w->bodies[i]);
            if (box->shape == SCENE_CAPSULE) {
                /* ODE's capsule lies along z: a quarter turn about x takes z to y */
                dQuaternion z_to_y;
                z_to_y[0] = sqrt(0.5); z_to_y[1] = -sqrt(0.5); z_to_y[2] = 0; z_to_y[3] = 0;
                dGeomSetOffsetQuaternion(w->geoms[i], z_to_y);
            }
            dBodySetPosition(w->bodies[i], box->position[0], box->position[1], box->position[2]);
            dBodySetQuaternion(w->bodies[i], q);
        }
    }
    for (i = 0; i < s->joint_count; ++i) ode_joint(w, &s->joints[i]);
    w->joined = s->joint_count > 0;
    *error = NULL;
    return w;
}

step_time ode_step(void *world, const scene *s, int *contacts) {
    ode_world *w = (ode_world *)world;
    peers_clock start = peers_clock_now();
    w->contact_count = 0;
    dSpaceCollide(w->space, w, ode_near_callback);
    dWorldQuickStep(w->world, s->dt);
    dJointGroupEmpty(w->contacts);
    *contacts = w->contact_count;
    return peers_elapsed(start);
}

/* position, velocity and rotation may be NULL (a world given up on while being built) */
void ode_finish(void *world, const scene *s, double *position, double *velocity, double *rotation) {
    ode_world *w = (ode_world *)world;
    int i, k;
    for (i = 0; i < s->count && position && velocity && rotation; ++i) {
        const dReal *p = dGeomGetPosition(w->geoms[i]);
        const dReal *v = w->bodies[i] ? dBodyGetLinearVel(w->bodies[i]) : NULL;
        dQuaternion q; /* w, x, y, z: the body's (a capsule's geom is turned from it) */
        if (w->bodies[i]) {
            const dReal *b = dBodyGetQuaternion(w->bodies[i]);
            for (k = 0; k < 4; ++k) q[k] = b[k];
        } else {
            dGeomGetQuaternion(w->geoms[i], q);
        }
        for (k = 0; k < 3; ++k) {
            position[3 * i + k] = p[k];
            velocity[3 * i + k] = v ? v[k] : 0;
            rotation[4 * i + k] = q[k + 1];
        }
        rotation[4 * i + 3] = q[0];
    }
    dJointGroupDestroy(w->contacts);
    dSpaceDestroy(w->space);  /* and the geoms in it */
    dWorldDestroy(w->world);  /* and the bodies */
    if (w->mesh) dGeomTriMeshDataDestroy(w->mesh);
    dCloseODE();
    ode_free(w);
}
