/* landscape: a ball rolling over hills. The ground is a static triangle mesh, a height field of
   128 x 128 cells of 0.5 m (64 m square, 32 768 triangles) whose heights come from a few sines:
   a wide basin with gentle hills on it. A ball of radius 0.5 m is released at rest on a slope
   and rolls about the basin; every second the example prints its position, speed, the gap
   between the ball and the triangulated surface (computed here from the height function, not
   by the engine: it should stay within a few millimetres of zero), and its energy, kinetic plus
   potential. With friction enough to roll and no rolling friction nothing should take energy
   away but the mesh's edges, where the surface turns by up to 1.1 degrees (0.3 on average): the
   rigid ball bumps over them, so its energy may only go down, slowly. A few boxes and capsules
   are dropped on the hills too; the ball's filter lets it touch the ground only, so they cannot
   change its energy.

   usage: landscape [--record file] [--every n] [--snapshot file.png] [--steps n] */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/example.h"

#include <math.h>

#define CELLS 128       /* per side */
#define CELL 0.5        /* metres */
#define DROPPED 6       /* boxes and capsules */
#define GROUND 1        /* filter categories: the ground keeps the default one */
#define BALL 2
#define DROPPED_BODY 4

static const double pi = 3.14159265358979323846, g = 9.81, ball_radius = 0.5;

/* The height of the ground at (x, z), for x and z from -32 to 32: a basin, 3 m higher at the
   middle of each side than at the centre, with hills of up to half a metre on it. */
static double height(double x, double z) {
    double basin = 1.5 * (2 - cos(pi * x / 32) - cos(pi * z / 32));
    double hills = 0.3 * sin(2 * pi * x / 32) * sin(2 * pi * z / 28) + 0.2 * sin(2 * pi * (x - z) / 40);
    return basin + hills;
}

/* Vertex (i, k) of the grid, i along x and k along z. */
static rg_vec3 grid_vertex(int i, int k) {
    double x = -CELLS * CELL / 2 + i * CELL, z = -CELLS * CELL / 2 + k * CELL;
    return rg_v3((rg_real)x, (rg_real)height(x, z), (rg_real)z);
}

/* The height field as a mesh: two triangles a cell, counter-clockwise seen from above (y up),
   so that their fronts, the side that collides, face up. */
static rg_mesh *create_ground(void) {
    int n = CELLS + 1, i, k, t = 0;
    rg_vec3 *vertices = (rg_vec3 *)malloc(sizeof(rg_vec3) * (size_t)(n * n));
    int *indices = (int *)malloc(sizeof(int) * 6 * CELLS * CELLS);
    rg_result result = RG_ERR_OUT_OF_MEMORY;
    rg_mesh *mesh = NULL;
    if (vertices && indices) {
        for (i = 0; i < n; ++i)
            for (k = 0; k < n; ++k) vertices[i * n + k] = grid_vertex(i, k);
        for (i = 0; i < CELLS; ++i)
            for (k = 0; k < CELLS; ++k) {
                int v00 = i * n + k, v10 = v00 + n, v01 = v00 + 1, v11 = v00 + n + 1;
                indices[t++] = v00; indices[t++] = v01; indices[t++] = v10;
                indices[t++] = v10; indices[t++] = v01; indices[t++] = v11;
            }
        mesh = rg_mesh_create(vertices, n * n, indices, 2 * CELLS * CELLS, &result);
    }
    if (!mesh) fprintf(stderr, "ground: %s\n", rg_result_string(result));
    free(vertices);
    free(indices);
    return mesh;
}

/* Distance from p to the segment ab. */
static double segment_distance(rg_vec3 p, rg_vec3 a, rg_vec3 b) {
    rg_vec3 ab = rg_v3_sub(b, a);
    double t = rg_v3_dot(rg_v3_sub(p, a), ab) / rg_v3_dot(ab, ab);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return rg_v3_length(rg_v3_sub(p, rg_v3_madd(a, ab, (rg_real)t)));
}

/* Distance from p to the triangle abc's plane when p lies over the triangle (along its normal),
   else a huge value: the triangle's edges are measured by segment_distance. */
static double plane_distance_over(rg_vec3 p, rg_vec3 a, rg_vec3 b, rg_vec3 c) {
    rg_vec3 n = rg_v3_cross(rg_v3_sub(b, a), rg_v3_sub(c, a));
    if (rg_v3_dot(rg_v3_cross(rg_v3_sub(b, a), rg_v3_sub(p, a)), n) < 0 ||
        rg_v3_dot(rg_v3_cross(rg_v3_sub(c, b), rg_v3_sub(p, b)), n) < 0 ||
        rg_v3_dot(rg_v3_cross(rg_v3_sub(a, c), rg_v3_sub(p, c)), n) < 0)
        return 1e30;
    return rg_v3_dot(rg_v3_sub(p, a), n) / rg_v3_length(n);
}

/* Distance from p to the triangulated surface: the nearest of the triangles and edges of the
   cells within 2 of the one under p. */
static double surface_distance(rg_vec3 p) {
    int ci = (int)floor((p.x + CELLS * CELL / 2) / CELL), ck = (int)floor((p.z + CELLS * CELL / 2) / CELL), i, k;
    double best = 1e30, d;
    for (i = ci - 2; i <= ci + 2; ++i)
        for (k = ck - 2; k <= ck + 2; ++k) {
            rg_vec3 v00, v10, v01, v11;
            if (i < 0 || k < 0 || i >= CELLS || k >= CELLS) continue;
            v00 = grid_vertex(i, k); v10 = grid_vertex(i + 1, k); v01 = grid_vertex(i, k + 1); v11 = grid_vertex(i + 1, k + 1);
            d = plane_distance_over(p, v00, v01, v10); if (d < best) best = d;
            d = plane_distance_over(p, v10, v01, v11); if (d < best) best = d;
            d = segment_distance(p, v00, v01); if (d < best) best = d;
            d = segment_distance(p, v00, v10); if (d < best) best = d;
            d = segment_distance(p, v10, v01); if (d < best) best = d;
        }
    return best;
}

/* Kinetic plus potential energy (zero at y = 0). */
static double energy(const rg_world *w, rg_body_id id) {
    return rg_body_kinetic_energy(w, id) + rg_body_mass(w, id) * g * rg_body_center_of_mass(w, id).y;
}

/* One line of the table: time, position, speed, gap to the surface, energy and its change. */
static void print_ball(const rg_world *w, rg_body_id ball, double t, double e0) {
    rg_vec3 p = rg_body_position(w, ball);
    double e = energy(w, ball);
    printf("%5.0f %7.2f %7.2f %7.2f %7.2f %9.2f %12.1f %+8.2f%%\n", t, p.x, p.z, p.y,
           rg_v3_length(rg_body_linear_velocity(w, ball)), (surface_distance(p) - ball_radius) * 1000, e,
           100 * (e - e0) / e0);
}

int main(int argc, char **argv) {
    const double dt = 1.0 / 60, release[2] = {14, 6}; /* x, z where the ball starts */
    static const double drops[DROPPED][2] = {{-12, -10}, {-6, 14}, {8, -14}, {-16, 6}, {3, 18}, {16, -4}};
    /* the slope at the release point, by central differences */
    const double sx = (height(release[0] + 0.01, release[1]) - height(release[0] - 0.01, release[1])) / 0.02;
    const double sz = (height(release[0], release[1] + 0.01) - height(release[0], release[1] - 0.01)) / 0.02;
    example_options o;
    rg_world_def wd = rg_world_default_def();
    rg_world *world;
    rg_mesh *mesh = create_ground();
    rg_hull *box = rg_hull_create_box(rg_v3(0.4f, 0.3f, 0.5f), NULL);
    rg_body_id ids[2 + DROPPED], ground, ball;
    rg_body_def bd;
    rg_shape_def sd;
    recorder *r;
    double e0, gap_max = 0, rise_max = -1e30, speed_max = 0;
    int i, step, steps;
    if (!example_parse(argc, argv, &o)) return 2;
    if (!mesh) return 1;
    world = rg_world_create(&wd, NULL);

    bd = rg_body_default_def();
    bd.type = RG_BODY_STATIC;
    ground = rg_body_create(world, &bd, NULL);
    sd = rg_shape_default_def();
    rg_body_add_mesh(world, ground, &sd, mesh, NULL);

    /* the ball: a body without a hull, given a sphere shape; at rest on the slope, its centre one
       radius from the surface along the normal (r sqrt(1 + slope^2) above it) */
    bd = rg_body_default_def();
    bd.position = rg_v3((rg_real)release[0], (rg_real)(height(release[0], release[1]) + ball_radius * sqrt(1 + sx * sx + sz * sz)),
                        (rg_real)release[1]);
    ball = rg_body_create(world, &bd, NULL);
    sd = rg_shape_default_def();
    sd.static_friction = sd.dynamic_friction = 0.8f; /* rolls without slipping on slopes up to atan(7/2 mu) */
    sd.rolling_friction = 0;
    sd.category_bits = BALL;
    sd.mask_bits = GROUND; /* touches the ground only */
    rg_body_add_sphere(world, ball, &sd, rg_v3(0, 0, 0), (rg_real)ball_radius, NULL);

    /* boxes and capsules, 2 m above the ground, tilted so that they tumble */
    for (i = 0; i < DROPPED; ++i) {
        double x = drops[i][0], z = drops[i][1];
        bd = rg_body_default_def();
        bd.position = rg_v3((rg_real)x, (rg_real)(height(x, z) + 2), (rg_real)z);
        bd.orientation = rg_quat_from_axis_angle(rg_v3(1, 0, 1), (rg_real)(0.4 + 0.3 * i));
        ids[2 + i] = rg_body_create(world, &bd, NULL);
        sd = rg_shape_default_def();
        sd.category_bits = DROPPED_BODY; /* not in the ball's mask */
        sd.rolling_friction = 0.1f;      /* so that the capsules come to rest in the basin */
        if (i % 2 == 0) rg_body_add_hull(world, ids[2 + i], &sd, box, rg_v3(0, 0, 0), rg_quat_identity(), NULL);
        else rg_body_add_capsule(world, ids[2 + i], &sd, rg_v3(-0.5f, 0, 0), rg_v3(0.5f, 0, 0), 0.25f, NULL);
    }
    ids[0] = ground;
    ids[1] = ball;

    steps = o.steps > 0 ? o.steps : 20 * 60;
    e0 = energy(world, ball);
    printf("a ball of radius %.2f m (%.1f kg) released at rest at x = %.1f, z = %.1f, where the ground is %.2f m above "
           "the basin's centre\n",
           ball_radius, rg_body_mass(world, ball), release[0], release[1], height(release[0], release[1]));
    printf("the ground: %d triangles; %d boxes and capsules dropped from 2 m\n", rg_mesh_triangle_count(mesh), DROPPED);
    printf("    t      x       z       y    speed   gap (mm)   energy (J)   change\n");
    print_ball(world, ball, 0, e0);
    r = example_record_open(&o, world, ids, 2 + DROPPED, dt);
    record_frame(r, world, 0);
    for (step = 1; step <= steps; ++step) {
        double gap, speed, e;
        rg_world_step(world, (rg_real)dt);
        if (step % o.every == 0) record_frame(r, world, step * dt);
        gap = surface_distance(rg_body_position(world, ball)) - ball_radius;
        speed = rg_v3_length(rg_body_linear_velocity(world, ball));
        e = energy(world, ball);
        if (fabs(gap) > gap_max) gap_max = fabs(gap);
        if (speed > speed_max) speed_max = speed;
        if (e - e0 > rise_max) rise_max = e - e0;
        if (step % 60 == 0) print_ball(world, ball, step * dt, e0);
    }
    example_record_close(&o, r);
    printf("over %.0f s: largest |gap| %.2f mm, top speed %.2f m/s, energy %.1f J -> %.1f J (%+.2f%%), never more "
           "than %+.3f%% above the start\n",
           steps * dt, gap_max * 1000, speed_max, e0, energy(world, ball), 100 * (energy(world, ball) - e0) / e0,
           100 * rise_max / e0);
    printf("the dropped bodies after %.0f s:\n", steps * dt);
    for (i = 0; i < DROPPED; ++i) {
        rg_vec3 p = rg_body_position(world, ids[2 + i]);
        printf("  %-7s from (%6.1f, %6.1f): at (%6.2f, %6.2f, %6.2f), centre %.2f m above the ground, moving at %.3f m/s\n",
               i % 2 == 0 ? "box" : "capsule", drops[i][0], drops[i][1], p.x, p.y, p.z, p.y - height(p.x, p.z),
               rg_v3_length(rg_body_linear_velocity(world, ids[2 + i])));
    }
    {
        double eye[3] = {30, 22, 30}, target[3] = {0, 0, 0};
        example_snapshot(&o, world, ids, 2 + DROPPED, "landscape", eye, target);
    }
    rg_world_destroy(world);
    rg_mesh_destroy(mesh);
    rg_hull_destroy(box);
    return 0;
}
