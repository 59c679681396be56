/* The benchmark scenes of docs/scenes.md, described once as data (boxes, spheres, capsules and at
   most one triangle mesh, with poses, and the joints between them) so that rigid.h's tests,
   examples and benchmark and the peer engines (Bullet, ODE) all build the same scene. C99 and
   C++; header-only, every function static.

   The scenes (scene_names; docs/scenes.md gives their set-up in full):
     stack, pyramid, large-pyramid  columns and pyramids of cubes on the ground
     rain, rain-10k                 a grid of turned cubes dropped between four walls
     funnel, funnel-bender          cubes poured through a square funnel
     balls                          rain with spheres
     mesh-rain                      rain on a triangle-mesh ground
     joint-grid                     40 x 40 spheres (radius 0.2 m, 0.5 m apart, 1 kg) lying flat at
                                    y = 25, each joined by a ball joint at the midpoint to its +x
                                    and +z neighbours (3120 joints), the row at z = -9.75 joined
                                    to the world at its centres (40 more): the net falls, swings
                                    down about that row and hangs from it, far above the ground
     ragdolls                       100 ragdolls (scene__ragdoll: 11 boxes, capsules and a sphere,
                                    10 joints: ball joints with cone limits at the spine, neck,
                                    shoulders and hips, limited hinges at elbows and knees) lying
                                    face down in 5 layers of 5 x 4 over rain's walls, each turned
                                    by a seeded random rotation of up to 0.4 rad, poured in
   Joined bodies never make contacts with each other (collide_connected 0 in every scene).

   scene_build(&s, "pyramid") fills s; scene_free(&s) releases it. Besides the scenes of
   scene_names, scene_build knows "rain-2k" and "rain-5k" (the scaling run of tools/bench.c) and
   "ragdolls-apart" (examples/ragdoll's six ragdolls on the ground) and "joint-net" (joint-grid's
   net at 20 x 20). With rigid.h included first,
   scene_create_world() builds the scene in a new rigid.h world. */
#ifndef RIGID_SCENES_H
#define RIGID_SCENES_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/random.h"   /* random_lcg: the jitter of `rain` */

/* every function is static; unused ones must not warn in programs that use a few */
#if defined(__GNUC__) || defined(__clang__)
#define SCENE__STATIC static __attribute__((unused))
#else
#define SCENE__STATIC static
#endif

/* What a body of a scene is. */
enum scene_shape {
    SCENE_BOX,             /* a box of half extents half[] */
    SCENE_SPHERE,          /* a sphere of radius half[0] (all three halves hold it) */
    SCENE_MESH,            /* the scene's triangle mesh (static, its vertices in the body frame) */
    SCENE_CAPSULE          /* a capsule along the body's y axis: radius half[0] (= half[2]), the
                              segment between its caps' centres from y = -half[1] to +half[1] */
};

typedef struct scene_box {
    double half[3];        /* half extents; a sphere's radius; 0 for the mesh */
    double position[3];    /* centre (origin of the body frame) */
    double rotation[4];    /* unit quaternion x, y, z, w */
    int is_static;
    int shape;             /* enum scene_shape */
    double mass;           /* a dynamic body's mass, kg; 0: the scene's cube_mass (scene_body_mass) */
} scene_box;

/* What a joint of a scene is (ball and hinge, the joints Bullet and ODE have too). */
enum scene_joint_type {
    SCENE_JOINT_BALL,      /* anchor held by both bodies; with limit, a cone of half angle upper:
                              the angle between axis carried by a and axis carried by b */
    SCENE_JOINT_HINGE      /* anchor held, rotation only about axis; with limit, the angle of a
                              relative to b, right-handed about axis, 0 at creation, in
                              [lower, upper] */
};

typedef struct scene_joint {
    int type;              /* enum scene_joint_type */
    int a, b;              /* indices into boxes; a is dynamic; b = -1: the world */
    double anchor[3];      /* world point at creation */
    double axis[3];        /* unit, world at creation: the hinge's axis, the ball's cone axis */
    int limit;             /* 1: the limits below hold */
    double lower, upper;   /* hinge: angles (rad); ball: upper is the cone's half angle */
} scene_joint;

typedef struct scene {
    const char *name;
    double dt;
    int steps;
    int iterations;        /* solver iterations the peers use */
    double friction;       /* static and dynamic */
    double restitution;
    double cube_mass;      /* mass of every dynamic body, box or sphere */
    scene_box *boxes;      /* boxes[0] is the ground (a box, or the mesh) */
    int count, capacity;
    /* the mesh of the SCENE_MESH body: x, y, z of each vertex, and three vertex indices per
       triangle, counter-clockwise seen from the side that collides (the front) */
    double *mesh_vertices;
    int mesh_vertex_count;
    int *mesh_indices;
    int mesh_triangle_count;
    /* the joints, none in most scenes; joined bodies make no contacts with each other */
    scene_joint *joints;
    int joint_count, joint_capacity;
} scene;

static const char *const scene_names[] = {
    "stack", "pyramid", "rain", "funnel", "funnel-bender", "rain-10k", "large-pyramid", "balls", "mesh-rain",
    "joint-grid", "ragdolls"
};
#define SCENE_COUNT 11

SCENE__STATIC void scene__add(scene *s, double hx, double hy, double hz, double x, double y, double z,
                       const double rotation[4], int is_static) {
    scene_box *b;
    if (s->count == s->capacity) {
        s->capacity = s->capacity ? 2 * s->capacity : 64;
        s->boxes = (scene_box *)realloc(s->boxes, sizeof(scene_box) * (size_t)s->capacity);
    }
    b = &s->boxes[s->count++];
    b->half[0] = hx; b->half[1] = hy; b->half[2] = hz;
    b->position[0] = x; b->position[1] = y; b->position[2] = z;
    if (rotation) memcpy(b->rotation, rotation, sizeof b->rotation);
    else { b->rotation[0] = b->rotation[1] = b->rotation[2] = 0; b->rotation[3] = 1; }
    b->is_static = is_static;
    b->shape = SCENE_BOX;
    b->mass = 0;
}

/* A dynamic body's mass (kg). */
SCENE__STATIC double scene_body_mass(const scene *s, const scene_box *b) {
    return b->mass > 0 ? b->mass : s->cube_mass;
}

SCENE__STATIC void scene__joint(scene *s, int type, int a, int b, const double anchor[3], const double axis[3],
                                int limit, double lower, double upper) {
    scene_joint *j;
    if (s->joint_count == s->joint_capacity) {
        s->joint_capacity = s->joint_capacity ? 2 * s->joint_capacity : 64;
        s->joints = (scene_joint *)realloc(s->joints, sizeof(scene_joint) * (size_t)s->joint_capacity);
    }
    j = &s->joints[s->joint_count++];
    j->type = type;
    j->a = a;
    j->b = b;
    memcpy(j->anchor, anchor, sizeof j->anchor);
    memcpy(j->axis, axis, sizeof j->axis);
    j->limit = limit;
    j->lower = lower;
    j->upper = upper;
}

SCENE__STATIC void scene__axis_angle(double ax, double ay, double az, double angle, double q[4]) {
    double length = sqrt(ax * ax + ay * ay + az * az), s = sin(angle / 2);
    q[0] = ax / length * s; q[1] = ay / length * s; q[2] = az / length * s; q[3] = cos(angle / 2);
}

SCENE__STATIC void scene__quat_mul(const double a[4], const double b[4], double r[4]) {
    r[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    r[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    r[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    r[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
}

/* r = q v q* (q unit, x y z w) */
SCENE__STATIC void scene__rotate(const double q[4], const double v[3], double r[3]) {
    double t[3];
    t[0] = 2 * (q[1] * v[2] - q[2] * v[1]);
    t[1] = 2 * (q[2] * v[0] - q[0] * v[2]);
    t[2] = 2 * (q[0] * v[1] - q[1] * v[0]);
    r[0] = v[0] + q[3] * t[0] + q[1] * t[2] - q[2] * t[1];
    r[1] = v[1] + q[3] * t[1] + q[2] * t[0] - q[0] * t[2];
    r[2] = v[2] + q[3] * t[2] + q[0] * t[1] - q[1] * t[0];
}

SCENE__STATIC void scene__pyramid(scene *s, int base) {
    int i, j;
    for (i = 0; i < base; ++i)
        for (j = 0; j < base - i; ++j)
            scene__add(s, 0.5, 0.5, 0.5, j - (base - i - 1) / 2.0, 0.5 + i, 0, NULL, 0);
}

SCENE__STATIC void scene__rain(scene *s, int nx, int ny, int nz, double spacing, double wall, double y0,
                        double jitter_angle) {
    unsigned long long state = 20261121ull;
    int i, j, k;
    scene__add(s, 0.5, 4, wall, wall, 4, 0, NULL, 1);
    scene__add(s, 0.5, 4, wall, -wall, 4, 0, NULL, 1);
    scene__add(s, wall, 4, 0.5, 0, 4, wall, NULL, 1);
    scene__add(s, wall, 4, 0.5, 0, 4, -wall, NULL, 1);
    for (k = 0; k < ny; ++k)
        for (j = 0; j < nz; ++j)
            for (i = 0; i < nx; ++i) {
                double q[4], ax, ay, az, angle;
                ax = random_lcg(&state) * 2 - 1;
                ay = random_lcg(&state) * 2 - 1;
                az = random_lcg(&state) * 2 - 1;
                angle = random_lcg(&state) * jitter_angle;
                if (ax * ax + ay * ay + az * az < 1e-6) ax = 1;
                scene__axis_angle(ax, ay, az, angle, q);
                scene__add(s, 0.5, 0.5, 0.5, (i - (nx - 1) / 2.0) * spacing, y0 + k * spacing,
                           (j - (nz - 1) / 2.0) * spacing, q, 0);
            }
}

/* joint-grid: n x n spheres lying flat at height y, spacing apart, centred on the y axis; sphere
   (i, j) is body first + i + n j at x = (i - (n - 1)/2) spacing, z = (j - (n - 1)/2) spacing. Each
   is joined by a ball joint at the midpoint to its +x neighbour and to its +z neighbour, and the
   row j = 0 to the world at its centres. No limits. */
SCENE__STATIC void scene__joint_grid(scene *s, int n, double spacing, double radius, double y) {
    static const double up[3] = {0, 1, 0};
    int i, j, first = s->count;
    for (j = 0; j < n; ++j)
        for (i = 0; i < n; ++i) {
            scene__add(s, radius, radius, radius, (i - (n - 1) / 2.0) * spacing, y, (j - (n - 1) / 2.0) * spacing,
                       NULL, 0);
            s->boxes[s->count - 1].shape = SCENE_SPHERE;
        }
    for (j = 0; j < n; ++j)
        for (i = 0; i < n; ++i) {
            int k = first + i + n * j;
            const double *p = s->boxes[k].position;
            double anchor[3];
            if (j == 0) scene__joint(s, SCENE_JOINT_BALL, k, -1, p, up, 0, 0, 0);
            if (i + 1 < n) {
                anchor[0] = p[0] + spacing / 2; anchor[1] = p[1]; anchor[2] = p[2];
                scene__joint(s, SCENE_JOINT_BALL, k, k + 1, anchor, up, 0, 0, 0);
            }
            if (j + 1 < n) {
                anchor[0] = p[0]; anchor[1] = p[1]; anchor[2] = p[2] + spacing / 2;
                scene__joint(s, SCENE_JOINT_BALL, k, k + n, anchor, up, 0, 0, 0);
            }
        }
}

/* One ragdoll, standing in its own frame (y up, facing +z, the hips at the origin, feet at
   y = -0.84, the top of the head at 0.83), placed at centre turned by q. 11 bodies, 67 kg: pelvis
   and torso boxes, a sphere head, capsules for the upper and lower arms and legs, hanging
   straight down, each part joined to its parent. Joints (a is the child, b its parent):
   ball joints with cone limits at the spine (0.5 rad about +y), neck (0.6 about +y), shoulders
   (1.2 about -y) and hips (0.9 about -y); hinges about +x at the elbows (the forearm may turn
   forward, angle -2.4 to 0) and knees (the shin backward, 0 to 2.4): both start at a limit,
   straight. */
SCENE__STATIC void scene__ragdoll(scene *s, const double centre[3], const double q[4]) {
    typedef struct part { int shape; double half[3], position[3], mass; } part;
    typedef struct link { int type, a, b; double anchor[3], axis[3], lower, upper; } link;
    static const part parts[11] = {
        {SCENE_BOX, {0.16, 0.08, 0.10}, {0, 0.08, 0}, 10},          /* 0 pelvis */
        {SCENE_BOX, {0.17, 0.22, 0.10}, {0, 0.38, 0}, 20},          /* 1 torso */
        {SCENE_SPHERE, {0.11, 0.11, 0.11}, {0, 0.72, 0}, 5},        /* 2 head */
        {SCENE_CAPSULE, {0.05, 0.10, 0.05}, {-0.23, 0.41, 0}, 2.5}, /* 3, 4 upper arms */
        {SCENE_CAPSULE, {0.05, 0.10, 0.05}, {0.23, 0.41, 0}, 2.5},
        {SCENE_CAPSULE, {0.045, 0.105, 0.045}, {-0.23, 0.11, 0}, 1.5}, /* 5, 6 forearms */
        {SCENE_CAPSULE, {0.045, 0.105, 0.045}, {0.23, 0.11, 0}, 1.5},
        {SCENE_CAPSULE, {0.07, 0.15, 0.07}, {-0.09, -0.22, 0}, 8},  /* 7, 8 thighs */
        {SCENE_CAPSULE, {0.07, 0.15, 0.07}, {0.09, -0.22, 0}, 8},
        {SCENE_CAPSULE, {0.06, 0.14, 0.06}, {-0.09, -0.64, 0}, 4},  /* 9, 10 shins */
        {SCENE_CAPSULE, {0.06, 0.14, 0.06}, {0.09, -0.64, 0}, 4},
    };
    static const link links[10] = {
        {SCENE_JOINT_BALL, 1, 0, {0, 0.16, 0}, {0, 1, 0}, 0, 0.5},        /* spine */
        {SCENE_JOINT_BALL, 2, 1, {0, 0.60, 0}, {0, 1, 0}, 0, 0.6},        /* neck */
        {SCENE_JOINT_BALL, 3, 1, {-0.23, 0.56, 0}, {0, -1, 0}, 0, 1.2},   /* shoulders */
        {SCENE_JOINT_BALL, 4, 1, {0.23, 0.56, 0}, {0, -1, 0}, 0, 1.2},
        {SCENE_JOINT_HINGE, 5, 3, {-0.23, 0.26, 0}, {1, 0, 0}, -2.4, 0},  /* elbows */
        {SCENE_JOINT_HINGE, 6, 4, {0.23, 0.26, 0}, {1, 0, 0}, -2.4, 0},
        {SCENE_JOINT_BALL, 7, 0, {-0.09, 0, 0}, {0, -1, 0}, 0, 0.9},      /* hips */
        {SCENE_JOINT_BALL, 8, 0, {0.09, 0, 0}, {0, -1, 0}, 0, 0.9},
        {SCENE_JOINT_HINGE, 9, 7, {-0.09, -0.44, 0}, {1, 0, 0}, 0, 2.4},  /* knees */
        {SCENE_JOINT_HINGE, 10, 8, {0.09, -0.44, 0}, {1, 0, 0}, 0, 2.4},
    };
    int i, k, first = s->count;
    for (i = 0; i < 11; ++i) {
        double p[3];
        scene_box *b;
        scene__rotate(q, parts[i].position, p);
        scene__add(s, parts[i].half[0], parts[i].half[1], parts[i].half[2], centre[0] + p[0], centre[1] + p[1],
                   centre[2] + p[2], q, 0);
        b = &s->boxes[s->count - 1];
        b->shape = parts[i].shape;
        b->mass = parts[i].mass;
    }
    for (i = 0; i < 10; ++i) {
        double anchor[3], axis[3];
        scene__rotate(q, links[i].anchor, anchor);
        for (k = 0; k < 3; ++k) anchor[k] += centre[k];
        scene__rotate(q, links[i].axis, axis);
        scene__joint(s, links[i].type, first + links[i].a, first + links[i].b, anchor, axis, 1, links[i].lower,
                     links[i].upper);
    }
}

/* ragdolls-apart (examples/ragdoll and tests/test_joint_solver.c): six ragdolls 2.5 m apart on
   a 3 x 2 grid, their hips 1 to 2.5 m up, each turned by an axis and angle: standing, face down,
   on a side, head first, and two tilted. */
SCENE__STATIC void scene__ragdolls_apart(scene *s) {
    static const double turns[6][4] = {
        {1, 0, 0, 0}, {1, 0, 0, 1.5708}, {0, 0, 1, 1.5708}, {1, 0, 0, 3.1416}, {1, 0, 1, 0.7}, {0, 1, 1, 2.2},
    };
    int i;
    for (i = 0; i < 6; ++i) {
        double q[4], centre[3];
        scene__axis_angle(turns[i][0], turns[i][1], turns[i][2], turns[i][3], q);
        centre[0] = 2.5 * (i % 3 - 1);
        centre[1] = 1 + 0.3 * i;
        centre[2] = 2.5 * (i / 3) - 1.25;
        scene__ragdoll(s, centre, q);
    }
}

/* ragdolls: rain's walls; 5 layers (y = 1 + 1.2 k) of 5 x 4 ragdolls lying face down, head to
   +z, at x = 2 (i - 2), z = 2.6 (j - 1.5), each turned by a random rotation of up to 0.4 rad
   (random_lcg, as rain's). */
SCENE__STATIC void scene__ragdolls(scene *s) {
    const double pi = 3.14159265358979323846;
    unsigned long long state = 20261127ull;
    double lie[4];
    int i, j, k;
    scene__add(s, 0.5, 4, 6.5, 6.5, 4, 0, NULL, 1);
    scene__add(s, 0.5, 4, 6.5, -6.5, 4, 0, NULL, 1);
    scene__add(s, 6.5, 4, 0.5, 0, 4, 6.5, NULL, 1);
    scene__add(s, 6.5, 4, 0.5, 0, 4, -6.5, NULL, 1);
    scene__axis_angle(1, 0, 0, pi / 2, lie); /* +y (the head) to +z, +z (the front) to -y */
    for (k = 0; k < 5; ++k)
        for (j = 0; j < 4; ++j)
            for (i = 0; i < 5; ++i) {
                double turn[4], q[4], centre[3], ax, ay, az, angle;
                ax = random_lcg(&state) * 2 - 1;
                ay = random_lcg(&state) * 2 - 1;
                az = random_lcg(&state) * 2 - 1;
                angle = random_lcg(&state) * 0.4;
                if (ax * ax + ay * ay + az * az < 1e-6) ax = 1;
                scene__axis_angle(ax, ay, az, angle, turn);
                scene__quat_mul(turn, lie, q);
                centre[0] = 2.0 * (i - 2);
                centre[1] = 1 + 1.2 * k;
                centre[2] = 2.6 * (j - 1.5);
                scene__ragdoll(s, centre, q);
            }
}

/* The scaling family between `rain` (1000 cubes, walls at 6.5) and `rain-10k` (10 000, walls at
   20): walls at 0.2 sqrt(count), so that the settled pile stays about six layers deep as in both
   of those; columns spaced 1.5 as many as fit inside the walls with a metre to spare, filled
   layer by layer from y = 2 (the top layer may be partial). */
SCENE__STATIC void scene__rain_count(scene *s, int count) {
    unsigned long long state = 20261121ull;
    double wall = 0.2 * sqrt((double)count), spacing = 1.5;
    int columns = (int)((2 * wall - 3) / spacing) + 1, n;
    scene__add(s, 0.5, 4, wall, wall, 4, 0, NULL, 1);
    scene__add(s, 0.5, 4, wall, -wall, 4, 0, NULL, 1);
    scene__add(s, wall, 4, 0.5, 0, 4, wall, NULL, 1);
    scene__add(s, wall, 4, 0.5, 0, 4, -wall, NULL, 1);
    for (n = 0; n < count; ++n) {
        int i = n % columns, j = (n / columns) % columns, k = n / (columns * columns);
        double q[4], ax, ay, az, angle;
        ax = random_lcg(&state) * 2 - 1;
        ay = random_lcg(&state) * 2 - 1;
        az = random_lcg(&state) * 2 - 1;
        angle = random_lcg(&state) * 0.6;
        if (ax * ax + ay * ay + az * az < 1e-6) ax = 1;
        scene__axis_angle(ax, ay, az, angle, q);
        scene__add(s, 0.5, 0.5, 0.5, (i - (columns - 1) / 2.0) * spacing, 2 + k * spacing,
                   (j - (columns - 1) / 2.0) * spacing, q, 0);
    }
}

SCENE__STATIC void scene__funnel(scene *s) {
    const double pi = 3.14159265358979323846, c45 = cos(pi / 4), s45 = sin(pi / 4);
    double tilt[4], turn[4], q[4];
    int a, i, j, k;
    /* each plate rises outwards: its long axis (local x) tilted up by 45 degrees about z */
    scene__axis_angle(0, 0, 1, pi / 4, tilt);
    for (a = 0; a < 4; ++a) {
        double angle = a * pi / 2, r = 2 + 3.5 * c45;
        scene__axis_angle(0, 1, 0, angle, turn);
        scene__quat_mul(turn, tilt, q);
        /* rotation about y by angle takes +x to (cos, 0, -sin) */
        scene__add(s, 3.5, 0.25, 8, r * cos(angle), 6 + 3.5 * s45, -r * sin(angle), q, 1);
    }
    for (k = 0; k < 10; ++k)
        for (j = 0; j < 10; ++j)
            for (i = 0; i < 10; ++i)
                scene__add(s, 0.5, 0.5, 0.5, (i - 4.5) * 1.3, 14 + k * 1.3, (j - 4.5) * 1.3, NULL, 0);
}

/* `balls`: every dynamic box becomes a sphere of that radius at its centre, unturned. */
SCENE__STATIC void scene__boxes_to_spheres(scene *s, double radius) {
    int i;
    for (i = 0; i < s->count; ++i) {
        scene_box *b = &s->boxes[i];
        if (b->is_static) continue;
        b->shape = SCENE_SPHERE;
        b->half[0] = b->half[1] = b->half[2] = radius;
        b->rotation[0] = b->rotation[1] = b->rotation[2] = 0;
        b->rotation[3] = 1;
    }
}

/* The ground (boxes[0]) becomes a mesh: an n x n grid of square cells of side `cell`, centred
   on the origin at y = 0, two triangles per cell. Vertex (i, j), i and j in 0..n, is number
   i + (n + 1) j at x = (i - n/2) cell, z = (j - n/2) cell. Cell (i, j) is triangles
   2 (i + n j) and 2 (i + n j) + 1: (i, j), (i, j + 1), (i + 1, j) and (i + 1, j), (i, j + 1),
   (i + 1, j + 1), counter-clockwise seen from above (+z cross +x = +y). */
SCENE__STATIC int scene__mesh_ground(scene *s, int n, double cell) {
    int i, j, v = n + 1;
    scene_box *g = &s->boxes[0];
    s->mesh_vertices = (double *)malloc(sizeof(double) * 3 * (size_t)(v * v));
    s->mesh_indices = (int *)malloc(sizeof(int) * 6 * (size_t)(n * n));
    if (!s->mesh_vertices || !s->mesh_indices) return 0;
    s->mesh_vertex_count = v * v;
    s->mesh_triangle_count = 2 * n * n;
    for (j = 0; j < v; ++j)
        for (i = 0; i < v; ++i) {
            double *p = &s->mesh_vertices[3 * (i + v * j)];
            p[0] = (i - n / 2.0) * cell;
            p[1] = 0;
            p[2] = (j - n / 2.0) * cell;
        }
    for (j = 0; j < n; ++j)
        for (i = 0; i < n; ++i) {
            int *t = &s->mesh_indices[6 * (i + n * j)];
            int v00 = i + v * j, v10 = v00 + 1, v01 = v00 + v, v11 = v01 + 1;
            t[0] = v00; t[1] = v01; t[2] = v10;
            t[3] = v10; t[4] = v01; t[5] = v11;
        }
    g->shape = SCENE_MESH;
    g->half[0] = g->half[1] = g->half[2] = 0;
    g->position[0] = g->position[1] = g->position[2] = 0;
    return 1;
}

SCENE__STATIC void scene_free(scene *s) {
    free(s->boxes);
    free(s->mesh_vertices);
    free(s->mesh_indices);
    free(s->joints);
    memset(s, 0, sizeof *s);
}

/* Fills s with the named scene; returns 0 for an unknown name. */
SCENE__STATIC int scene_build(scene *s, const char *name) {
    memset(s, 0, sizeof *s);
    s->dt = 1.0 / 60;
    s->steps = 600;
    s->iterations = 10;
    s->friction = 0.5;
    s->restitution = 0;
    s->cube_mass = 1;
    scene__add(s, 50, 0.5, 50, 0, -0.5, 0, NULL, 1); /* the ground: top face at y = 0 */
    if (strcmp(name, "stack") == 0) {
        int i;
        s->name = "stack";
        for (i = 0; i < 20; ++i) scene__add(s, 0.5, 0.5, 0.5, 0, 0.5 + i, 0, NULL, 0);
    } else if (strcmp(name, "pyramid") == 0) {
        s->name = "pyramid";
        scene__pyramid(s, 20);
    } else if (strcmp(name, "large-pyramid") == 0) {
        s->name = "large-pyramid";
        s->friction = 0.6;
        s->steps = 200;
        scene__pyramid(s, 100);
    } else if (strcmp(name, "rain") == 0) {
        s->name = "rain";
        scene__rain(s, 10, 10, 10, 1.2, 6.5, 2, 0.6);
    } else if (strcmp(name, "rain-10k") == 0) {
        s->name = "rain-10k";
        s->steps = 300;
        scene__rain(s, 20, 25, 20, 1.5, 20, 2, 0.6);
    } else if (strcmp(name, "rain-2k") == 0 || strcmp(name, "rain-5k") == 0) {
        /* not in scene_names: the middle points of the benchmark's scaling run, 300 steps as
           rain-10k */
        s->name = name[5] == '2' ? "rain-2k" : "rain-5k";
        s->steps = 300;
        scene__rain_count(s, name[5] == '2' ? 2000 : 5000);
    } else if (strcmp(name, "funnel") == 0) {
        s->name = "funnel";
        scene__funnel(s);
    } else if (strcmp(name, "funnel-bender") == 0) {
        s->name = "funnel-bender";
        s->dt = 0.001;
        s->steps = 6000;
        s->restitution = 0.48;
        s->friction = 0.1;
        scene__funnel(s);
    } else if (strcmp(name, "balls") == 0) {
        s->name = "balls";
        scene__rain(s, 10, 10, 10, 1.2, 6.5, 2, 0.6);
        scene__boxes_to_spheres(s, 0.5);
    } else if (strcmp(name, "mesh-rain") == 0) {
        s->name = "mesh-rain";
        scene__rain(s, 10, 10, 10, 1.2, 6.5, 2, 0.6);
        if (!scene__mesh_ground(s, 100, 1)) {
            scene_free(s);
            return 0;
        }
    } else if (strcmp(name, "joint-grid") == 0) {
        s->name = "joint-grid";
        scene__joint_grid(s, 40, 0.5, 0.2, 25);
    } else if (strcmp(name, "joint-net") == 0) {
        /* not in scene_names: joint-grid's net at 20 x 20 (tests/test_joint_solver.c) */
        s->name = "joint-net";
        scene__joint_grid(s, 20, 0.5, 0.2, 25);
    } else if (strcmp(name, "ragdolls") == 0) {
        s->name = "ragdolls";
        scene__ragdolls(s);
    } else if (strcmp(name, "ragdolls-apart") == 0) {
        /* not in scene_names: examples/ragdoll's six ragdolls on the ground */
        s->name = "ragdolls-apart";
        scene__ragdolls_apart(s);
    } else {
        scene_free(s);
        return 0;
    }
    return 1;
}

SCENE__STATIC int scene_dynamic_count(const scene *s) {
    int i, n = 0;
    for (i = 0; i < s->count; ++i) n += !s->boxes[i].is_static;
    return n;
}

#ifdef RIGID_H_INCLUDED
/* rigid.h side: one hull per distinct box size and the scene's mesh, kept in the scene_world so
   they can be freed after the world. ids[i] is the body of s->boxes[i]. A box is a body with that
   hull; a sphere or a capsule a body without one, given a sphere or capsule shape centred on its
   origin whose density makes the body's mass; the mesh a static body given the mesh shape.
   joints[k] is the joint of s->joints[k] (rg_joint_create, collide_connected 0). */
typedef struct scene_world {
    rg_world *world;
    rg_body_id *ids;
    rg_joint_id *joints;
    rg_hull **hulls;       /* one per box, shared when sizes are equal */
    int hull_count;
    rg_mesh *mesh;         /* the scene's mesh, NULL without one */
} scene_world;

/* The scene's mesh in rigid.h (made once, shared by every SCENE_MESH body). */
SCENE__STATIC rg_mesh *scene__rigid_mesh(const scene *s, scene_world *out) {
    rg_vec3 *vertices;
    int i;
    if (out->mesh || !s->mesh_vertices || !s->mesh_indices) return out->mesh;
    vertices = (rg_vec3 *)malloc(sizeof(rg_vec3) * (size_t)s->mesh_vertex_count);
    if (!vertices) return NULL;
    for (i = 0; i < s->mesh_vertex_count; ++i)
        vertices[i] = rg_v3((rg_real)s->mesh_vertices[3 * i], (rg_real)s->mesh_vertices[3 * i + 1],
                            (rg_real)s->mesh_vertices[3 * i + 2]);
    /* rg_mesh_create copies what it keeps */
    out->mesh = rg_mesh_create(vertices, s->mesh_vertex_count, s->mesh_indices, s->mesh_triangle_count, NULL);
    free(vertices);
    return out->mesh;
}

SCENE__STATIC int scene_create_world(const scene *s, const rg_world_def *def, scene_world *out) {
    rg_hull **unique = (rg_hull **)calloc((size_t)s->count, sizeof(rg_hull *));
    int i, j;
    memset(out, 0, sizeof *out);
    out->world = rg_world_create(def, NULL);
    out->ids = (rg_body_id *)calloc((size_t)s->count, sizeof(rg_body_id));
    out->joints = (rg_joint_id *)calloc((size_t)s->joint_count + 1, sizeof(rg_joint_id));
    out->hulls = unique;
    if (!out->world || !out->ids || !out->joints || !unique) return 0;
    for (i = 0; i < s->count; ++i) {
        const scene_box *b = &s->boxes[i];
        rg_body_def bd = rg_body_default_def();
        rg_shape_def sd = rg_shape_default_def();
        rg_hull *hull = NULL;
        for (j = 0; j < out->hull_count && !hull && b->shape == SCENE_BOX; ++j) {
            rg_vec3 h = rg_hull_vertex(unique[j], 7); /* the (+,+,+) corner */
            if (h.x == (rg_real)b->half[0] && h.y == (rg_real)b->half[1] && h.z == (rg_real)b->half[2])
                hull = unique[j];
        }
        if (!hull && b->shape == SCENE_BOX) {
            hull = rg_hull_create_box(rg_v3((rg_real)b->half[0], (rg_real)b->half[1], (rg_real)b->half[2]), NULL);
            if (!hull) return 0;
            unique[out->hull_count++] = hull;
        }
        bd.type = b->is_static ? RG_BODY_STATIC : RG_BODY_DYNAMIC;
        bd.hull = hull;
        bd.position = rg_v3((rg_real)b->position[0], (rg_real)b->position[1], (rg_real)b->position[2]);
        bd.orientation.x = (rg_real)b->rotation[0];
        bd.orientation.y = (rg_real)b->rotation[1];
        bd.orientation.z = (rg_real)b->rotation[2];
        bd.orientation.w = (rg_real)b->rotation[3];
        bd.mass = b->is_static || b->shape != SCENE_BOX ? 0 : (rg_real)scene_body_mass(s, b);
        bd.static_friction = bd.dynamic_friction = (rg_real)s->friction;
        bd.restitution = (rg_real)s->restitution;
        out->ids[i] = rg_body_create(out->world, &bd, NULL);
        if (out->ids[i].generation == 0) return 0;
        if (b->shape == SCENE_BOX) continue;
        sd.static_friction = sd.dynamic_friction = (rg_real)s->friction;
        sd.restitution = (rg_real)s->restitution;
        if (b->shape == SCENE_SPHERE) {
            const double pi = 3.14159265358979323846, r = b->half[0];
            if (!b->is_static) sd.density = (rg_real)(scene_body_mass(s, b) / (4.0 / 3.0 * pi * r * r * r));
            if (rg_body_add_sphere(out->world, out->ids[i], &sd, rg_v3(0, 0, 0), (rg_real)r, NULL).generation == 0)
                return 0;
        } else if (b->shape == SCENE_CAPSULE) {
            /* a cylinder of length 2 h and two half spheres */
            const double pi = 3.14159265358979323846, r = b->half[0], h = b->half[1];
            if (!b->is_static) sd.density = (rg_real)(scene_body_mass(s, b) / (pi * r * r * (2 * h + 4.0 / 3.0 * r)));
            if (rg_body_add_capsule(out->world, out->ids[i], &sd, rg_v3(0, (rg_real)-h, 0), rg_v3(0, (rg_real)h, 0),
                                    (rg_real)r, NULL).generation == 0)
                return 0;
        } else {
            const rg_mesh *mesh = scene__rigid_mesh(s, out);
            if (!mesh || rg_body_add_mesh(out->world, out->ids[i], &sd, mesh, NULL).generation == 0) return 0;
        }
    }
    for (i = 0; i < s->joint_count; ++i) {
        const scene_joint *j = &s->joints[i];
        rg_joint_def jd = rg_joint_default_def();
        jd.type = j->type == SCENE_JOINT_HINGE ? RG_JOINT_HINGE : RG_JOINT_BALL;
        jd.body_a = out->ids[j->a];
        if (j->b >= 0) jd.body_b = out->ids[j->b];
        jd.anchor_a = rg_v3((rg_real)j->anchor[0], (rg_real)j->anchor[1], (rg_real)j->anchor[2]);
        jd.axis = rg_v3((rg_real)j->axis[0], (rg_real)j->axis[1], (rg_real)j->axis[2]);
        jd.enable_limit = j->limit;
        jd.lower = (rg_real)j->lower;
        jd.upper = (rg_real)j->upper;
        jd.collide_connected = 0;
        out->joints[i] = rg_joint_create(out->world, &jd, NULL);
        if (out->joints[i].generation == 0) return 0;
    }
    return 1;
}

SCENE__STATIC void scene_destroy_world(scene_world *sw) {
    int i;
    rg_world_destroy(sw->world);
    for (i = 0; i < sw->hull_count; ++i) rg_hull_destroy(sw->hulls[i]);
    rg_mesh_destroy(sw->mesh);
    free(sw->hulls);
    free(sw->ids);
    free(sw->joints);
    memset(sw, 0, sizeof *sw);
}
#endif

#endif
