/* The scenes of examples/scenes.h in ODE 0.16 (Debian's libode-dev, double), with the settings
   of docs/scenes.md: dWorldQuickStep with the scene's iteration count, a sweep-and-prune
   space, auto-disable off, up to 8 contacts per pair with the friction-pyramid approximation
   dContactApprox1 (mu is a coefficient of the normal force). ERP and CFM keep ODE's defaults;
   with restitution, contacts closing slower than 0.1 m/s do not bounce. Boxes are dCreateBox,
   spheres dCreateSphere, the mesh a dCreateTriMesh over the scene's vertices and triangles
   (Debian builds ODE in double, dDOUBLE: the vertices are handed over in ODE's dReal).

   A step is what an ODE program does each frame: collide the space (contact joints made in the
   near callback), take the quick step, empty the contact group. */
#include <ode/ode.h>
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
} ode_world;

static void ode_near_callback(void *data, dGeomID g1, dGeomID g2) {
    ode_world *w = (ode_world *)data;
    dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
    dContact contact[ODE_CONTACTS_PER_PAIR];
    int i, n;
    if (!b1 && !b2) return; /* two static boxes */
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
        } else if (box->shape == SCENE_MESH) {
            dTriMeshDataID data = ode_mesh(w, s);
            if (!data) {
                *error = "out of memory";
                ode_finish(w, s, NULL, NULL);
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
            w->bodies[i] = dBodyCreate(w->world);
            if (box->shape == SCENE_SPHERE) dMassSetSphereTotal(&mass, s->cube_mass, box->half[0]);
            else dMassSetBoxTotal(&mass, s->cube_mass, 2 * box->half[0], 2 * box->half[1], 2 * box->half[2]);
            dBodySetMass(w->bodies[i], &mass);
            dGeomSetBody(w->geoms[i], w->bodies[i]);
            dBodySetPosition(w->bodies[i], box->position[0], box->position[1], box->position[2]);
            dBodySetQuaternion(w->bodies[i], q);
        }
    }
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

/* position and velocity may be NULL (a world given up on while being built) */
void ode_finish(void *world, const scene *s, double *position, double *velocity) {
    ode_world *w = (ode_world *)world;
    int i, k;
    for (i = 0; i < s->count && position && velocity; ++i) {
        const dReal *p = dGeomGetPosition(w->geoms[i]);
        const dReal *v = w->bodies[i] ? dBodyGetLinearVel(w->bodies[i]) : NULL;
        for (k = 0; k < 3; ++k) {
            position[3 * i + k] = p[k];
            velocity[3 * i + k] = v ? v[k] : 0;
        }
    }
    dJointGroupDestroy(w->contacts);
    dSpaceDestroy(w->space);  /* and the geoms in it */
    dWorldDestroy(w->world);  /* and the bodies */
    if (w->mesh) dGeomTriMeshDataDestroy(w->mesh);
    dCloseODE();
    ode_free(w);
}
