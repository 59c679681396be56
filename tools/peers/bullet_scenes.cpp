/* The scenes of examples/scenes.h in Bullet 3.24 (Debian's libbullet-dev, float), with the
   settings of docs/scenes.md: btDiscreteDynamicsWorld, btDbvtBroadphase,
   btSequentialImpulseConstraintSolver with the scene's iteration count, sleeping off, one fixed
   step of dt per stepSimulation call. Boxes are btBoxShape, spheres btSphereShape, capsules
   btCapsuleShape (along y, as the scene's; Bullet's default margins), the mesh a
   btBvhTriangleMeshShape over a btTriangleIndexVertexArray of the scene's vertices and triangles
   (no internal-edge fix-up: the mesh ground is flat).

   Joints, with Bullet's default error reduction and softness, added with collisions between the
   joined bodies disabled: a ball joint is a btPoint2PointConstraint, or with a cone limit a
   btConeTwistConstraint (its frames' x axis the cone's axis, both swing spans the cone's half
   angle, the twist free: span pi); a hinge a btHingeConstraint with body a as Bullet's A (its
   angle is then A's turn relative to B about the axis, as the scene's) and setLimit(lower,
   upper). A joint to the world uses the constructors for one body.

   Friction and restitution: Bullet combines the two bodies' coefficients by their product by
   default, so bodies set to 0.5 would touch with 0.25. The scene states the coefficient of the
   pair, so the combine callbacks are replaced by the rules rigid.h uses (friction: the larger,
   restitution: the smaller); every body carries the scene's values, so any rule that returns
   the common value would do. */
#include <btBulletDynamicsCommon.h>
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>

#include <vector>

#include "tools/peers/peers.h"

namespace {

btScalar combine_larger_friction(const btCollisionObject *a, const btCollisionObject *b) {
    return btMax(a->getFriction(), b->getFriction());
}

btScalar combine_smaller_restitution(const btCollisionObject *a, const btCollisionObject *b) {
    return btMin(a->getRestitution(), b->getRestitution());
}

struct bullet_world {
    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher;
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world;
    std::vector<btBoxShape *> boxes;
    std::vector<btSphereShape *> spheres;
    std::vector<btCapsuleShape *> capsules;
    std::vector<btTypedConstraint *> joints;
    /* the scene's mesh: Bullet reads the vertices and indices where they are, so they live here */
    std::vector<btScalar> mesh_vertices;
    std::vector<int> mesh_indices;
    btTriangleIndexVertexArray *mesh_array;
    btBvhTriangleMeshShape *mesh;
    std::vector<btRigidBody *> bodies;

    bullet_world()
        : dispatcher(&configuration), world(&dispatcher, &broadphase, &solver, &configuration), mesh_array(NULL),
          mesh(NULL) {}
    ~bullet_world() {
        for (size_t i = 0; i < joints.size(); ++i) {
            world.removeConstraint(joints[i]);
            delete joints[i];
        }
        for (size_t i = 0; i < bodies.size(); ++i) {
            world.removeRigidBody(bodies[i]);
            delete bodies[i];
        }
        for (size_t i = 0; i < boxes.size(); ++i) delete boxes[i];
        for (size_t i = 0; i < spheres.size(); ++i) delete spheres[i];
        for (size_t i = 0; i < capsules.size(); ++i) delete capsules[i];
        delete mesh;
        delete mesh_array;
    }

    /* one shape per distinct box size and sphere radius, as in the rigid.h builder */
    btCollisionShape *box_shape(const scene_box &box) {
        btVector3 half(btScalar(box.half[0]), btScalar(box.half[1]), btScalar(box.half[2]));
        for (size_t j = 0; j < boxes.size(); ++j)
            if (boxes[j]->getHalfExtentsWithMargin() == half) return boxes[j];
        boxes.push_back(new btBoxShape(half));
        return boxes.back();
    }
    btCollisionShape *sphere_shape(const scene_box &box) {
        btScalar radius = btScalar(box.half[0]);
        for (size_t j = 0; j < spheres.size(); ++j)
            if (spheres[j]->getRadius() == radius) return spheres[j];
        spheres.push_back(new btSphereShape(radius));
        return spheres.back();
    }
    btCollisionShape *capsule_shape(const scene_box &box) {
        btScalar radius = btScalar(box.half[0]), height = btScalar(2 * box.half[1]);
        for (size_t j = 0; j < capsules.size(); ++j)
            if (capsules[j]->getRadius() == radius && capsules[j]->getHalfHeight() * 2 == height) return capsules[j];
        capsules.push_back(new btCapsuleShape(radius, height)); /* height: between the caps' centres */
        return capsules.back();
    }
    btCollisionShape *mesh_shape(const scene *s) {
        if (mesh) return mesh;
        mesh_vertices.resize(size_t(3 * s->mesh_vertex_count));
        for (size_t k = 0; k < mesh_vertices.size(); ++k) mesh_vertices[k] = btScalar(s->mesh_vertices[k]);
        mesh_indices.assign(s->mesh_indices, s->mesh_indices + 3 * s->mesh_triangle_count);
        mesh_array = new btTriangleIndexVertexArray(s->mesh_triangle_count, &mesh_indices[0], int(3 * sizeof(int)),
                                                    s->mesh_vertex_count, &mesh_vertices[0],
                                                    int(3 * sizeof(btScalar)));
        mesh = new btBvhTriangleMeshShape(mesh_array, true); /* quantized AABB compression */
        return mesh;
    }
};

btVector3 vec3(const double v[3]) { return btVector3(btScalar(v[0]), btScalar(v[1]), btScalar(v[2])); }

/* A frame in body's local coordinates whose x axis is the world direction axis and whose y and z
   are the world directions p and q; origin at the world point anchor. */
btTransform local_frame(const btRigidBody *body, const btVector3 &anchor, const btVector3 &axis, const btVector3 &p,
                        const btVector3 &q) {
    btTransform inverse = body->getCenterOfMassTransform().inverse();
    btVector3 x = inverse.getBasis() * axis, y = inverse.getBasis() * p, z = inverse.getBasis() * q;
    btTransform frame;
    frame.setBasis(btMatrix3x3(x.x(), y.x(), z.x(), x.y(), y.y(), z.y(), x.z(), y.z(), z.z()));
    frame.setOrigin(inverse * anchor);
    return frame;
}

btTypedConstraint *make_joint(bullet_world *w, const scene_joint &j) {
    btRigidBody *a = w->bodies[size_t(j.a)], *b = j.b >= 0 ? w->bodies[size_t(j.b)] : NULL;
    btVector3 anchor = vec3(j.anchor), axis = vec3(j.axis).normalized();
    btVector3 pivot_a = a->getCenterOfMassTransform().inverse() * anchor;
    if (j.type == SCENE_JOINT_HINGE) {
        btVector3 axis_a = a->getCenterOfMassTransform().getBasis().transpose() * axis;
        btHingeConstraint *hinge;
        if (b) {
            btVector3 pivot_b = b->getCenterOfMassTransform().inverse() * anchor;
            btVector3 axis_b = b->getCenterOfMassTransform().getBasis().transpose() * axis;
            hinge = new btHingeConstraint(*a, *b, pivot_a, pivot_b, axis_a, axis_b);
        } else {
            hinge = new btHingeConstraint(*a, pivot_a, axis_a);
        }
        if (j.limit) hinge->setLimit(btScalar(j.lower), btScalar(j.upper));
        return hinge;
    }
    if (j.limit) {
        btVector3 p, q;
        btPlaneSpace1(axis, p, q);
        btConeTwistConstraint *cone;
        if (b)
            cone = new btConeTwistConstraint(*b, *a, local_frame(b, anchor, axis, p, q), local_frame(a, anchor, axis, p, q));
        else
            cone = new btConeTwistConstraint(*a, local_frame(a, anchor, axis, p, q));
        cone->setLimit(btScalar(j.upper), btScalar(j.upper), SIMD_PI);
        return cone;
    }
    if (b) return new btPoint2PointConstraint(*a, *b, pivot_a, b->getCenterOfMassTransform().inverse() * anchor);
    return new btPoint2PointConstraint(*a, pivot_a);
}

} // namespace

extern "C" void *bullet_create(const scene *s, const char **error) {
    gCalculateCombinedFrictionCallback = combine_larger_friction;
    gCalculateCombinedRestitutionCallback = combine_smaller_restitution;
    bullet_world *w = new bullet_world;
    w->world.setGravity(btVector3(0, btScalar(-9.81), 0));
    w->world.getSolverInfo().m_numIterations = s->iterations;
    for (int i = 0; i < s->count; ++i) {
        const scene_box &box = s->boxes[i];
        btCollisionShape *shape = box.shape == SCENE_SPHERE    ? w->sphere_shape(box)
                                  : box.shape == SCENE_CAPSULE ? w->capsule_shape(box)
                                  : box.shape == SCENE_MESH    ? w->mesh_shape(s)
                                                               : w->box_shape(box);
        /* a triangle mesh is static in Bullet */
        btScalar mass = box.is_static || box.shape == SCENE_MESH ? btScalar(0) : btScalar(scene_body_mass(s, &box));
        btVector3 inertia(0, 0, 0);
        if (mass > 0) shape->calculateLocalInertia(mass, inertia);
        btRigidBody::btRigidBodyConstructionInfo info(mass, NULL, shape, inertia);
        info.m_startWorldTransform.setOrigin(
            btVector3(btScalar(box.position[0]), btScalar(box.position[1]), btScalar(box.position[2])));
        info.m_startWorldTransform.setRotation(btQuaternion(btScalar(box.rotation[0]), btScalar(box.rotation[1]),
                                                            btScalar(box.rotation[2]), btScalar(box.rotation[3])));
        info.m_friction = btScalar(s->friction);
        info.m_restitution = btScalar(s->restitution);
        btRigidBody *body = new btRigidBody(info);
        body->setActivationState(DISABLE_DEACTIVATION); /* sleeping off */
        w->world.addRigidBody(body);
        w->bodies.push_back(body);
    }
    for (int i = 0; i < s->joint_count; ++i) {
        btTypedConstraint *joint = make_joint(w, s->joints[i]);
        w->world.addConstraint(joint, true); /* true: no collisions between the joined bodies */
        w->joints.push_back(joint);
    }
    *error = NULL;
    return w;
}

extern "C" step_time bullet_step(void *world, const scene *s, int *contacts) {
    bullet_world *w = static_cast<bullet_world *>(world);
    peers_clock start = peers_clock_now();
    w->world.stepSimulation(btScalar(s->dt), 0); /* maxSubSteps 0: exactly one step of dt */
    step_time t = peers_elapsed(start);
    *contacts = 0;
    for (int m = 0; m < w->dispatcher.getNumManifolds(); ++m)
        *contacts += w->dispatcher.getManifoldByIndexInternal(m)->getNumContacts();
    return t;
}

extern "C" void bullet_finish(void *world, const scene *s, double *position, double *velocity, double *rotation) {
    bullet_world *w = static_cast<bullet_world *>(world);
    for (int i = 0; i < s->count; ++i) {
        const btVector3 &p = w->bodies[size_t(i)]->getWorldTransform().getOrigin();
        const btVector3 &v = w->bodies[size_t(i)]->getLinearVelocity();
        btQuaternion q = w->bodies[size_t(i)]->getWorldTransform().getRotation();
        for (int k = 0; k < 3; ++k) {
            position[3 * i + k] = double(p[k]);
            velocity[3 * i + k] = double(v[k]);
        }
        rotation[4 * i + 0] = double(q.x());
        rotation[4 * i + 1] = double(q.y());
        rotation[4 * i + 2] = double(q.z());
        rotation[4 * i + 3] = double(q.w());
    }
    delete w;
}
