/* Shapes on bodies: mass properties against hand-computed sums and a brute-force integration,
   ids and lists, the motion kept when shapes change, the filtering rule both ways, bad input. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

static rg_world *shapes_world(rg_vec3 gravity) {
    rg_world_def def = rg_world_default_def();
    def.gravity = gravity;
    return rg_world_create(&def, NULL);
}

static rg_body_id shapes_empty_body(rg_world *w, rg_body_type type, rg_vec3 position) {
    rg_body_def bd = rg_body_default_def();
    bd.type = type;
    bd.position = position;
    return rg_body_create(w, &bd, NULL);
}

/* Mass, centre and inertia about the centre (body frame, unturned body) by integrating the
   indicator of `inside` over a grid of cells of side `cell` within [lo, hi]. */
typedef int (*shapes_inside_fn)(rg_vec3 p, const void *context);
static void shapes_integrate(shapes_inside_fn inside, const void *context, rg_vec3 lo, rg_vec3 hi, double cell,
                             double density, double *mass, double com[3], double inertia[3][3]) {
    double m = 0, s[3] = {0, 0, 0}, ss[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, dv = cell * cell * cell;
    double x, y, z;
    int i, j;
    for (x = lo.x + cell / 2; x < hi.x; x += cell)
        for (y = lo.y + cell / 2; y < hi.y; y += cell)
            for (z = lo.z + cell / 2; z < hi.z; z += cell) {
                double p[3];
                if (!inside(rg_v3((rg_real)x, (rg_real)y, (rg_real)z), context)) continue;
                p[0] = x; p[1] = y; p[2] = z;
                m += density * dv;
                for (i = 0; i < 3; ++i) {
                    s[i] += density * dv * p[i];
                    for (j = 0; j < 3; ++j) ss[i][j] += density * dv * p[i] * p[j];
                }
            }
    *mass = m;
    for (i = 0; i < 3; ++i) com[i] = s[i] / m;
    /* I = sum m (|r|^2 E - r r^T) about the centre */
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            double second = ss[i][j] - m * com[i] * com[j];
            inertia[i][j] = -second;
        }
    {
        double trace = (ss[0][0] - m * com[0] * com[0]) + (ss[1][1] - m * com[1] * com[1]) + (ss[2][2] - m * com[2] * com[2]);
        for (i = 0; i < 3; ++i) inertia[i][i] += trace;
    }
}

typedef struct shapes_capsule { rg_vec3 a, b; double r; } shapes_capsule;
static int shapes_inside_capsule(rg_vec3 p, const void *context) {
    const shapes_capsule *c = (const shapes_capsule *)context;
    rg_vec3 d = rg_v3_sub(c->b, c->a);
    double t = rg_v3_dot(rg_v3_sub(p, c->a), d) / rg_v3_dot(d, d);
    rg_vec3 q;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    q = rg_v3_madd(c->a, d, (rg_real)t);
    return rg_v3_length_squared(rg_v3_sub(p, q)) <= c->r * c->r;
}

/* A capsule turned off the axes: mass, centre and inertia against the grid integration (cells
   of 1/120 of its length: the boundary's cells make about 0.5% of error). */
static void test_shapes_capsule_mass_matches_integration(void) {
    rg_world *w = shapes_world(rg_v3(0, 0, 0));
    rg_body_id body = shapes_empty_body(w, RG_BODY_DYNAMIC, rg_v3(0, 0, 0));
    rg_shape_def sd = rg_shape_default_def();
    shapes_capsule c;
    double mass, com[3], inertia[3][3];
    rg_mat3 I;
    rg_vec3 center;
    int i, j;
    c.a = rg_v3(-0.4f, 0.1f, 0.2f);
    c.b = rg_v3(0.5f, 0.7f, -0.1f);
    c.r = 0.3;
    sd.density = 500;
    ENSURE(rg_shape_is_valid(w, rg_body_add_capsule(w, body, &sd, c.a, c.b, (rg_real)c.r, NULL)));
    shapes_integrate(shapes_inside_capsule, &c, rg_v3(-0.8f, -0.3f, -0.5f), rg_v3(0.9f, 1.1f, 0.6f), 1.0 / 120, 500,
                     &mass, com, inertia);
    rg_test_note("mass %.4f (grid %.4f), Ixx %.5f (grid %.5f)", rg_body_mass(w, body), mass,
                 rg_body_inertia(w, body).m[0][0], inertia[0][0]);
    ENSURE_REL(rg_body_mass(w, body), mass, 0.005);
    center = rg_body_center_of_mass(w, body);
    ENSURE_NEAR(center.x, com[0], 2e-3);
    ENSURE_NEAR(center.y, com[1], 2e-3);
    ENSURE_NEAR(center.z, com[2], 2e-3);
    I = rg_body_inertia(w, body);
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) ENSURE_NEAR(I.m[i][j], inertia[i][j], 0.01 * inertia[0][0] + 1e-6);
    rg_world_destroy(w);
}

/* A sphere: m = 4/3 pi r^3 rho, I = 2/5 m r^2, centre at its centre. */
static void test_shapes_sphere_mass_is_closed_form(void) {
    rg_world *w = shapes_world(rg_v3(0, 0, 0));
    rg_body_id body = shapes_empty_body(w, RG_BODY_DYNAMIC, rg_v3(1, 2, 3));
    rg_shape_def sd = rg_shape_default_def();
    double r = 0.25, m = 4.0 / 3 * 3.14159265358979 * r * r * r * 1000;
    ENSURE(rg_shape_is_valid(w, rg_body_add_sphere(w, body, &sd, rg_v3(0.5f, 0, 0), (rg_real)r, NULL)));
    ENSURE_REL(rg_body_mass(w, body), m, 1e-5);
    ENSURE_REL(rg_body_inertia(w, body).m[1][1], 0.4 * m * r * r, 1e-5);
    ENSURE_NEAR(rg_body_inertia(w, body).m[0][1], 0, 1e-9);
    ENSURE_V3_NEAR(rg_body_center_of_mass(w, body), rg_v3(1.5f, 2, 3), 1e-6);
    ENSURE_V3_NEAR(rg_body_position(w, body), rg_v3(1, 2, 3), 1e-6);
    rg_world_destroy(w);
}

/* A compound of a box (placed and turned), a sphere and a capsule of different densities: mass,
   centre and inertia equal the sum computed here by hand with the parallel-axis theorem. */
static void test_shapes_compound_mass_is_the_sum(void) {
    rg_world *w = shapes_world(rg_v3(0, 0, 0));
    rg_body_id body = shapes_empty_body(w, RG_BODY_DYNAMIC, rg_v3(0, 0, 0));
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 0.25f, 0.125f), NULL);
    rg_shape_def sd = rg_shape_default_def();
    double pi = 3.14159265358979, mb, ms, mc, m, c[3], I[3][3], parts_m[3], parts_c[3][3], parts_I[3][3][3];
    double r = 0.2, L = 0.8, rc = 0.1;
    int i, j, k;
    rg_mat3 got;
    /* the box turned 90 degrees about z: its x extent lies along y */
    sd.density = 800;
    ENSURE(rg_shape_is_valid(w, rg_body_add_hull(w, body, &sd, box, rg_v3(1, 0, 0), rg_quat_from_axis_angle(rg_v3(0, 0, 1), (rg_real)(pi / 2)), NULL)));
    sd.density = 2000;
    ENSURE(rg_shape_is_valid(w, rg_body_add_sphere(w, body, &sd, rg_v3(-1, 0.5f, 0), (rg_real)r, NULL)));
    sd.density = 300;
    ENSURE(rg_shape_is_valid(w, rg_body_add_capsule(w, body, &sd, rg_v3(0, -0.4f, 0.5f), rg_v3(0, 0.4f, 0.5f), (rg_real)rc, NULL)));
    /* the box: 1 x 0.5 x 0.25 turned so its sides along x, y, z are 0.5, 1, 0.25 */
    mb = 800 * 1 * 0.5 * 0.25;
    memset(parts_I, 0, sizeof parts_I);
    parts_m[0] = mb; parts_c[0][0] = 1; parts_c[0][1] = 0; parts_c[0][2] = 0;
    parts_I[0][0][0] = mb / 12 * (1 * 1 + 0.25 * 0.25);
    parts_I[0][1][1] = mb / 12 * (0.5 * 0.5 + 0.25 * 0.25);
    parts_I[0][2][2] = mb / 12 * (0.5 * 0.5 + 1 * 1);
    ms = 2000 * 4.0 / 3 * pi * r * r * r;
    parts_m[1] = ms; parts_c[1][0] = -1; parts_c[1][1] = 0.5; parts_c[1][2] = 0;
    for (i = 0; i < 3; ++i) parts_I[1][i][i] = 0.4 * ms * r * r;
    {
        /* the capsule along y: cylinder plus two hemispheres (caps' centroids 3/8 r beyond the ends) */
        double mcyl = 300 * pi * rc * rc * L, mcap = 300 * 4.0 / 3 * pi * rc * rc * rc;
        double along = mcyl * rc * rc / 2 + 0.4 * mcap * rc * rc;
        double across = mcyl * (L * L / 12 + rc * rc / 4) +
                        2 * (83.0 / 320 * mcap / 2 * rc * rc + mcap / 2 * (L / 2 + 3 * rc / 8) * (L / 2 + 3 * rc / 8));
        mc = mcyl + mcap;
        parts_m[2] = mc; parts_c[2][0] = 0; parts_c[2][1] = 0; parts_c[2][2] = 0.5;
        parts_I[2][0][0] = across; parts_I[2][1][1] = along; parts_I[2][2][2] = across;
    }
    m = mb + ms + mc;
    for (i = 0; i < 3; ++i) c[i] = (parts_m[0] * parts_c[0][i] + parts_m[1] * parts_c[1][i] + parts_m[2] * parts_c[2][i]) / m;
    memset(I, 0, sizeof I);
    for (k = 0; k < 3; ++k) {
        double d[3], dd;
        for (i = 0; i < 3; ++i) d[i] = parts_c[k][i] - c[i];
        dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        for (i = 0; i < 3; ++i)
            for (j = 0; j < 3; ++j) I[i][j] += parts_I[k][i][j] + parts_m[k] * ((i == j ? dd : 0) - d[i] * d[j]);
    }
    rg_test_note("mass %.4f (hand %.4f)", rg_body_mass(w, body), m);
    ENSURE_REL(rg_body_mass(w, body), m, 1e-5);
    ENSURE_V3_NEAR(rg_body_center_of_mass(w, body), rg_v3((rg_real)c[0], (rg_real)c[1], (rg_real)c[2]), 1e-5);
    got = rg_body_inertia(w, body);
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) ENSURE_NEAR(got.m[i][j], I[i][j], 1e-5 * I[0][0]);
    rg_world_destroy(w);
    rg_hull_destroy(box);
}

/* A dynamic body without shapes moves as 1 kg with a solid sphere's inertia of radius 0.5 m; a
   fixed mass scales the shapes' densities; sensors and meshes add no mass. */
static void test_shapes_default_and_fixed_mass(void) {
    rg_world *w = shapes_world(rg_v3(0, -10, 0));
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id empty, fixed;
    rg_shape_id sensor;
    empty = rg_body_create(w, &bd, NULL);
    ENSURE(rg_body_is_valid(w, empty));
    ENSURE_NEAR(rg_body_mass(w, empty), 1, 0);
    ENSURE_NEAR(rg_body_inertia(w, empty).m[2][2], 0.1, 1e-7);
    sd.is_sensor = 1;
    sensor = rg_body_add_sphere(w, empty, &sd, rg_v3(0, 0, 0), 2, NULL);
    ENSURE(rg_shape_is_valid(w, sensor) && rg_shape_is_sensor(w, sensor));
    ENSURE_NEAR(rg_body_mass(w, empty), 1, 0);
    rg_world_step(w, 0.1f);
    ENSURE_NEAR(rg_body_linear_velocity(w, empty).y, -1, 1e-5);
    bd.mass = 3;
    fixed = rg_body_create(w, &bd, NULL);
    sd = rg_shape_default_def();
    ENSURE(rg_shape_is_valid(w, rg_body_add_sphere(w, fixed, &sd, rg_v3(0, 0, 0), 0.5f, NULL)));
    ENSURE(rg_shape_is_valid(w, rg_body_add_sphere(w, fixed, &sd, rg_v3(1, 0, 0), 0.5f, NULL)));
    ENSURE_REL(rg_body_mass(w, fixed), 3, 1e-6);
    ENSURE_V3_NEAR(rg_body_center_of_mass(w, fixed), rg_v3(0.5f, 0, 0), 1e-6);
    /* two spheres of 1.5 kg: 2 (2/5 m r^2) + 2 m (0.5)^2 about z */
    ENSURE_REL(rg_body_inertia(w, fixed).m[2][2], 2 * 0.4 * 1.5 * 0.25 + 2 * 1.5 * 0.25, 1e-5);
    rg_world_destroy(w);
}

/* Ids, lists and stale ids: shapes listed in the order added, destroyed ones gone, their ids
   stale, a destroyed body's shapes stale too; the body def's hull is the first shape. */
static void test_shapes_ids_and_lists(void) {
    rg_world *w = shapes_world(rg_v3(0, 0, 0));
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id body;
    rg_shape_id s[4], listed[8], first;
    rg_vec3 ca, cb;
    rg_real radius;
    int dummy;
    bd.hull = box;
    body = rg_body_create(w, &bd, NULL);
    ENSURE(rg_body_shapes(w, body, listed, 8) == 1);
    first = listed[0];
    ENSURE(rg_shape_get_type(w, first) == RG_SHAPE_HULL && rg_shape_get_hull(w, first, NULL, NULL) == box);
    sd.user_data = &dummy;
    s[0] = rg_body_add_sphere(w, body, &sd, rg_v3(1, 0, 0), 0.25f, NULL);
    s[1] = rg_body_add_capsule(w, body, &sd, rg_v3(0, 1, 0), rg_v3(0, 2, 0), 0.1f, NULL);
    s[2] = rg_body_add_sphere(w, body, &sd, rg_v3(-1, 0, 0), 0.25f, NULL);
    ENSURE(rg_body_shapes(w, body, listed, 8) == 4);
    ENSURE(listed[0].index == first.index && listed[1].index == s[0].index && listed[2].index == s[1].index &&
           listed[3].index == s[2].index);
    ENSURE(rg_shape_user_data(w, s[1]) == &dummy);
    ENSURE(rg_shape_body(w, s[1]).index == body.index && rg_shape_body(w, s[1]).generation == body.generation);
    ENSURE(rg_shape_get_capsule(w, s[1], &ca, &cb, &radius) && ca.y == 1 && cb.y == 2 && radius == 0.1f);
    ENSURE(!rg_shape_get_sphere(w, s[1], NULL, NULL));
    ENSURE(rg_shape_destroy(w, s[0]) == RG_OK);
    ENSURE(!rg_shape_is_valid(w, s[0]) && rg_shape_destroy(w, s[0]) == RG_ERR_STALE_ID);
    ENSURE(rg_body_shapes(w, body, listed, 8) == 3 && listed[1].index == s[1].index);
    /* the slot is reused with a new generation: the old id stays stale */
    s[3] = rg_body_add_sphere(w, body, &sd, rg_v3(0, 0, 1), 0.25f, NULL);
    ENSURE(s[3].index == s[0].index && s[3].generation != s[0].generation && !rg_shape_is_valid(w, s[0]));
    ENSURE(rg_body_destroy(w, body) == RG_OK);
    ENSURE(!rg_shape_is_valid(w, s[1]) && !rg_shape_is_valid(w, s[3]) && !rg_shape_is_valid(w, first));
    ENSURE(rg_shape_body(w, s[1]).generation == 0 && rg_shape_user_data(w, s[1]) == NULL);
    rg_world_destroy(w);
    rg_hull_destroy(box);
}

/* Adding and destroying a shape keeps the motion of the body's points: the velocity of every
   world point stays (the centre of mass's velocity changes by w x its shift), and the frame's
   origin stays put. */
static void test_shapes_adding_keeps_the_motion_of_points(void) {
    rg_world *w = shapes_world(rg_v3(0, 0, 0));
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id body;
    rg_shape_id added;
    rg_vec3 probe = rg_v3(0.3f, -0.7f, 2), before, origin;
    bd.hull = box;
    bd.position = rg_v3(1, 2, 3);
    bd.linear_velocity = rg_v3(0.5f, 0, 0);
    bd.angular_velocity = rg_v3(0, 2, 1);
    body = rg_body_create(w, &bd, NULL);
    before = rg_body_velocity_at_point(w, body, probe);
    origin = rg_body_position(w, body);
    added = rg_body_add_sphere(w, body, &sd, rg_v3(2, 0, 0), 0.5f, NULL);
    ENSURE(rg_shape_is_valid(w, added));
    ENSURE_V3_NEAR(rg_body_velocity_at_point(w, body, probe), before, 1e-5);
    ENSURE_V3_NEAR(rg_body_position(w, body), origin, 1e-5);
    ENSURE(rg_body_center_of_mass(w, body).x > 1.5f);
    ENSURE(rg_shape_destroy(w, added) == RG_OK);
    ENSURE_V3_NEAR(rg_body_velocity_at_point(w, body, probe), before, 1e-5);
    ENSURE_V3_NEAR(rg_body_center_of_mass(w, body), rg_v3(1, 2, 3), 1e-5);
    rg_world_destroy(w);
    rg_hull_destroy(box);
}

/* Two boxes dropped on the ground for 1 s, with filters: does the upper one rest on the ground
   (y about 0.5) or fall through it? */
static double shapes_drop_height(uint32_t category, uint32_t mask, int32_t group, uint32_t ground_category,
                                 uint32_t ground_mask, int32_t ground_group) {
    rg_world *w = shapes_world(rg_v3(0, -9.81f, 0));
    rg_hull *ground = rg_hull_create_box(rg_v3(5, 0.5f, 5), NULL);
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_id g = shapes_empty_body(w, RG_BODY_STATIC, rg_v3(0, -0.5f, 0));
    rg_body_id b = shapes_empty_body(w, RG_BODY_DYNAMIC, rg_v3(0, 1, 0));
    rg_shape_def sd = rg_shape_default_def();
    double y;
    int i;
    sd.category_bits = ground_category;
    sd.mask_bits = ground_mask;
    sd.group = ground_group;
    rg_body_add_hull(w, g, &sd, ground, rg_v3(0, 0, 0), rg_quat_identity(), NULL);
    sd.category_bits = category;
    sd.mask_bits = mask;
    sd.group = group;
    rg_body_add_hull(w, b, &sd, box, rg_v3(0, 0, 0), rg_quat_identity(), NULL);
    for (i = 0; i < 60; ++i) rg_world_step(w, 1.0f / 60);
    y = rg_body_position(w, b).y;
    rg_world_destroy(w);
    rg_hull_destroy(ground);
    rg_hull_destroy(box);
    return y;
}

/* The rule: the same non-zero group decides (positive: collide, negative: never); otherwise each
   category must be in the other's mask. Each case both ways. */
static void test_shapes_filtering_rule_both_ways(void) {
    ENSURE_NEAR(shapes_drop_height(1, 0xFFFFFFFFu, 0, 1, 0xFFFFFFFFu, 0), 0.5, 0.01);  /* defaults collide */
    ENSURE(shapes_drop_height(2, 0xFFFFFFFFu, 0, 1, 1, 0) < -1);   /* box's category not in the ground's mask */
    ENSURE(shapes_drop_height(2, 1, 0, 1, 2, 0) > 0.45);           /* both categories in both masks */
    ENSURE(shapes_drop_height(1, 2, 0, 1, 0xFFFFFFFFu, 0) < -1);   /* ground's category not in the box's mask */
    ENSURE(shapes_drop_height(2, 0, 3, 1, 0, 3) > 0.45);           /* same positive group overrides the masks */
    ENSURE(shapes_drop_height(1, 0xFFFFFFFFu, -3, 1, 0xFFFFFFFFu, -3) < -1); /* same negative group: never */
    ENSURE(shapes_drop_height(1, 0xFFFFFFFFu, -3, 1, 0xFFFFFFFFu, -4) > 0.45); /* different groups: the bits */
    ENSURE(shapes_drop_height(1, 0, 3, 1, 0xFFFFFFFFu, 4) < -1);   /* different groups, bits say no */
}

/* rg_shape_set_filter takes effect at the next step: a resting box set to ignore the ground falls. */
static void test_shapes_set_filter_takes_effect(void) {
    rg_world *w = shapes_world(rg_v3(0, -9.81f, 0));
    rg_hull *ground = rg_hull_create_box(rg_v3(5, 0.5f, 5), NULL);
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_id g = shapes_empty_body(w, RG_BODY_STATIC, rg_v3(0, -0.5f, 0));
    rg_body_id b = shapes_empty_body(w, RG_BODY_DYNAMIC, rg_v3(0, 0.5f, 0));
    rg_shape_def sd = rg_shape_default_def();
    rg_shape_id s;
    rg_contact contact;
    int i;
    rg_body_add_hull(w, g, &sd, ground, rg_v3(0, 0, 0), rg_quat_identity(), NULL);
    s = rg_body_add_hull(w, b, &sd, box, rg_v3(0, 0, 0), rg_quat_identity(), NULL);
    for (i = 0; i < 30; ++i) rg_world_step(w, 1.0f / 60);
    ENSURE_NEAR(rg_body_position(w, b).y, 0.5, 0.01);
    /* contacts name their shapes */
    ENSURE(rg_world_contacts(w, &contact, 1) >= 1);
    ENSURE((contact.shape_a.index == s.index && contact.a.index == b.index) ||
           (contact.shape_b.index == s.index && contact.b.index == b.index));
    ENSURE(rg_shape_is_valid(w, contact.shape_a) && rg_shape_is_valid(w, contact.shape_b));
    ENSURE(rg_shape_set_filter(w, s, 1, 0, 0) == RG_OK);
    for (i = 0; i < 60; ++i) rg_world_step(w, 1.0f / 60);
    ENSURE(rg_body_position(w, b).y < -1);
    rg_world_destroy(w);
    rg_hull_destroy(ground);
    rg_hull_destroy(box);
}

/* Bad input: each refused with its result, and the body's shapes and mass unchanged. */
static void test_shapes_bad_input_changes_nothing(void) {
    rg_world *w = shapes_world(rg_v3(0, 0, 0));
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_id body = shapes_empty_body(w, RG_BODY_DYNAMIC, rg_v3(0, 0, 0));
    rg_body_id stale = shapes_empty_body(w, RG_BODY_DYNAMIC, rg_v3(0, 0, 0));
    rg_shape_def sd = rg_shape_default_def(), bad;
    rg_real inf = (rg_real)HUGE_VAL, nan;
    rg_result r;
    rg_shape_id none = {0, 0};
    int refused = 0;
    nan = inf - inf;
    rg_body_destroy(w, stale);
    rg_body_add_sphere(w, body, &sd, rg_v3(0, 0, 0), 0.5f, NULL);
#define SHAPE_REFUSED(call, expected) do { r = RG_OK; ENSURE((call).generation == 0 && r == (expected)); \
        ENSURE(rg_body_shapes(w, body, NULL, 0) == 1); ++refused; } while (0)
    SHAPE_REFUSED(rg_body_add_sphere(NULL, body, &sd, rg_v3(0, 0, 0), 1, &r), RG_ERR_INVALID_ARGUMENT);
    SHAPE_REFUSED(rg_body_add_sphere(w, body, NULL, rg_v3(0, 0, 0), 1, &r), RG_ERR_INVALID_ARGUMENT);
    SHAPE_REFUSED(rg_body_add_sphere(w, stale, &sd, rg_v3(0, 0, 0), 1, &r), RG_ERR_STALE_ID);
    SHAPE_REFUSED(rg_body_add_sphere(w, body, &sd, rg_v3(0, 0, 0), 0, &r), RG_ERR_INVALID_ARGUMENT);
    SHAPE_REFUSED(rg_body_add_sphere(w, body, &sd, rg_v3(0, 0, 0), -1, &r), RG_ERR_INVALID_ARGUMENT);
    SHAPE_REFUSED(rg_body_add_sphere(w, body, &sd, rg_v3(0, 0, 0), nan, &r), RG_ERR_INVALID_ARGUMENT);
    SHAPE_REFUSED(rg_body_add_sphere(w, body, &sd, rg_v3(0, 0, 0), inf, &r), RG_ERR_INVALID_ARGUMENT);
    SHAPE_REFUSED(rg_body_add_sphere(w, body, &sd, rg_v3(0, 0, 0), (rg_real)1e16, &r), RG_ERR_INVALID_ARGUMENT);
    SHAPE_REFUSED(rg_body_add_sphere(w, body, &sd, rg_v3(nan, 0, 0), 1, &r), RG_ERR_INVALID_ARGUMENT);
    /* a density and radius whose inertia overflows float (double holds them) */
    bad = sd; bad.density = (rg_real)1e15;
    if (sizeof(rg_real) == sizeof(float))
        SHAPE_REFUSED(rg_body_add_sphere(w, body, &bad, rg_v3(0, 0, 0), (rg_real)1e14, &r), RG_ERR_INVALID_ARGUMENT);
    SHAPE_REFUSED(rg_body_add_capsule(w, body, &sd, rg_v3(0, 0, 0), rg_v3(0, inf, 0), 1, &r), RG_ERR_INVALID_ARGUMENT);
    SHAPE_REFUSED(rg_body_add_capsule(w, body, &sd, rg_v3(0, 0, 0), rg_v3(0, 1, 0), 0, &r), RG_ERR_INVALID_ARGUMENT);
    SHAPE_REFUSED(rg_body_add_hull(w, body, &sd, NULL, rg_v3(0, 0, 0), rg_quat_identity(), &r), RG_ERR_INVALID_ARGUMENT);
    {
        rg_quat zero;
        zero.x = zero.y = zero.z = zero.w = 0;
        SHAPE_REFUSED(rg_body_add_hull(w, body, &sd, box, rg_v3(0, 0, 0), zero, &r), RG_ERR_INVALID_ARGUMENT);
    }
    bad = sd; bad.cookie = 0;
    SHAPE_REFUSED(rg_body_add_sphere(w, body, &bad, rg_v3(0, 0, 0), 1, &r), RG_ERR_INVALID_ARGUMENT);
    bad = sd; bad.density = -1;
    SHAPE_REFUSED(rg_body_add_sphere(w, body, &bad, rg_v3(0, 0, 0), 1, &r), RG_ERR_INVALID_ARGUMENT);
    bad = sd; bad.restitution = 2;
    SHAPE_REFUSED(rg_body_add_sphere(w, body, &bad, rg_v3(0, 0, 0), 1, &r), RG_ERR_INVALID_ARGUMENT);
    bad = sd; bad.dynamic_friction = nan;
    SHAPE_REFUSED(rg_body_add_sphere(w, body, &bad, rg_v3(0, 0, 0), 1, &r), RG_ERR_INVALID_ARGUMENT);
    SHAPE_REFUSED(rg_body_add_mesh(w, body, &sd, NULL, &r), RG_ERR_INVALID_ARGUMENT);
    {
        /* a valid mesh on a dynamic body */
        rg_vec3 v[3];
        int t[3] = {0, 1, 2};
        rg_mesh *mesh;
        v[0] = rg_v3(0, 0, 0); v[1] = rg_v3(0, 0, 1); v[2] = rg_v3(1, 0, 0);
        mesh = rg_mesh_create(v, 3, t, 1, NULL);
        ENSURE(mesh != NULL);
        SHAPE_REFUSED(rg_body_add_mesh(w, body, &sd, mesh, &r), RG_ERR_INVALID_ARGUMENT);
        rg_mesh_destroy(mesh);
    }
#undef SHAPE_REFUSED
    ENSURE(rg_shape_destroy(NULL, none) == RG_ERR_INVALID_ARGUMENT);
    ENSURE(rg_shape_destroy(w, none) == RG_ERR_STALE_ID);
    ENSURE(rg_shape_set_filter(w, none, 1, 1, 0) == RG_ERR_STALE_ID);
    ENSURE(rg_body_shapes(w, stale, NULL, 0) == 0 && rg_body_shapes(NULL, body, NULL, 0) == 0);
    ENSURE_REL(rg_body_mass(w, body), 4.0 / 3 * 3.14159265 * 0.125 * 1000, 1e-5);
    rg_test_note("%d bad calls refused", refused);
    rg_world_destroy(w);
    rg_hull_destroy(box);
}

/* ---- spheres and capsules in a world ---- */

/* A static box of half extents (50, 0.5, 50) whose top face passes through the origin, turned
   by `angle` about z (a slope rising towards -x for a positive angle), friction mu (negative:
   the defaults). */
static rg_body_id shapes_slope(rg_world *w, rg_hull *slab, double angle, double mu) {
    rg_body_def bd = rg_body_default_def();
    rg_quat q = rg_quat_from_axis_angle(rg_v3(0, 0, 1), (rg_real)angle);
    bd.type = RG_BODY_STATIC;
    if (mu >= 0) bd.static_friction = bd.dynamic_friction = (rg_real)mu;
    bd.hull = slab;
    bd.orientation = q;
    bd.position = rg_quat_rotate(q, rg_v3(0, -0.5f, 0));
    return rg_body_create(w, &bd, NULL);
}

static rg_body_id shapes_ball(rg_world *w, rg_vec3 position, rg_real radius, const rg_shape_def *sd) {
    rg_body_id body = shapes_empty_body(w, RG_BODY_DYNAMIC, position);
    rg_body_add_sphere(w, body, sd, rg_v3(0, 0, 0), radius, NULL);
    return body;
}

/* A ball dropped on the ground rests at its radius (within 2 mm). */
static void test_shapes_sphere_rests_at_its_radius(void) {
    rg_world *w = shapes_world(rg_v3(0, -9.81f, 0));
    rg_hull *slab = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL);
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id ball;
    int i;
    shapes_slope(w, slab, 0, -1);
    ball = shapes_ball(w, rg_v3(0, 1.5f, 0), 0.5f, &sd);
    for (i = 0; i < 180; ++i) rg_world_step(w, 1.0f / 60);
    rg_test_note("rests at %.5f m (radius 0.5)", rg_body_position(w, ball).y);
    ENSURE_NEAR(rg_body_position(w, ball).y, 0.5, 0.002);
    ENSURE_NEAR(rg_v3_length(rg_body_linear_velocity(w, ball)), 0, 0.01);
    rg_world_destroy(w);
    rg_hull_destroy(slab);
}

/* Released on a 20 degree slope the ball rolls without slipping: acceleration (5/7) g sin(theta)
   (within 2%) and spin v / r (within 2%). */
static void test_shapes_sphere_rolls_down_a_slope(void) {
    double theta = 20 * 3.14159265358979 / 180, g = 9.81, r = 0.5, v1, v2, a, spin;
    rg_world *w = shapes_world(rg_v3(0, (rg_real)-g, 0));
    rg_hull *slab = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL);
    rg_shape_def sd = rg_shape_default_def();
    rg_vec3 normal = rg_v3((rg_real)-sin(theta), (rg_real)cos(theta), 0);
    rg_body_id ball;
    int i;
    shapes_slope(w, slab, theta, -1);
    ball = shapes_ball(w, rg_v3_scale(normal, (rg_real)r), (rg_real)r, &sd);
    for (i = 0; i < 30; ++i) rg_world_step(w, 1.0f / 60);
    v1 = rg_v3_length(rg_body_linear_velocity(w, ball));
    for (i = 0; i < 60; ++i) rg_world_step(w, 1.0f / 60);
    v2 = rg_v3_length(rg_body_linear_velocity(w, ball));
    a = v2 - v1;
    spin = rg_v3_length(rg_body_angular_velocity(w, ball));
    rg_test_note("a %.4f m/s^2 (5/7 g sin = %.4f), spin %.4f rad/s (v/r = %.4f)", a, 5.0 / 7 * g * sin(theta), spin,
                 v2 / r);
    ENSURE_REL(a, 5.0 / 7 * g * sin(theta), 0.02);
    ENSURE_REL(spin, v2 / r, 0.02);
    /* it stays on the slope */
    ENSURE_NEAR(rg_v3_dot(rg_body_position(w, ball), normal), r, 0.002);
    rg_world_destroy(w);
    rg_hull_destroy(slab);
}

/* A ball sliding at v0 without spin: friction slows it and spins it up until it rolls, at
   (5/7) v0 (within 2%) after t = 2 v0 / (7 mu g) (within 5%). */
static void test_shapes_sphere_slides_then_rolls(void) {
    double v0 = 5, mu = 0.2, g = 9.81, r = 0.5, t_roll = 2 * v0 / (7 * mu * g), t = -1, v = 0;
    rg_world *w = shapes_world(rg_v3(0, (rg_real)-g, 0));
    rg_hull *slab = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL);
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id ball;
    int i;
    shapes_slope(w, slab, 0, mu);
    sd.static_friction = sd.dynamic_friction = (rg_real)mu;
    ball = shapes_ball(w, rg_v3(-20, (rg_real)r, 0), (rg_real)r, &sd);
    rg_body_set_linear_velocity(w, ball, rg_v3((rg_real)v0, 0, 0));
    for (i = 1; i <= 240 && t < 0; ++i) {
        double slip;
        rg_world_step(w, 1.0f / 240);
        v = rg_body_linear_velocity(w, ball).x;
        slip = v + rg_body_angular_velocity(w, ball).z * r; /* rolling: v = -w_z r */
        if (slip < 1e-3 * v0) t = i / 240.0;
    }
    rg_test_note("rolls from t %.4f s (2 v0 / 7 mu g = %.4f) at %.4f m/s (5/7 v0 = %.4f)", t, t_roll, v, 5.0 / 7 * v0);
    ENSURE_REL(t, t_roll, 0.05);
    ENSURE_REL(v, 5.0 / 7 * v0, 0.02);
    rg_world_destroy(w);
    rg_hull_destroy(slab);
}

/* Seed 001 §1: ball 1 strikes balls 2 and 3, which touch each other, at both at once (no
   gravity, no friction, restitution 1). The struck balls leave with equal speeds (within 1%)
   in mirror-symmetric directions; momentum and energy are kept. */
static void test_shapes_three_billiard_balls_stay_symmetric(void) {
    rg_world *w = shapes_world(rg_v3(0, 0, 0));
    rg_shape_def sd = rg_shape_default_def();
    double r = 0.5, v = 2, sqrt3 = 1.7320508075688772, p[3], e;
    rg_body_id b1, b2, b3;
    rg_vec3 v1, v2, v3;
    int i;
    sd.restitution = 1;
    sd.static_friction = sd.dynamic_friction = 0;
    b2 = shapes_ball(w, rg_v3(0, (rg_real)r, 0), (rg_real)r, &sd);
    b3 = shapes_ball(w, rg_v3(0, (rg_real)-r, 0), (rg_real)r, &sd);
    b1 = shapes_ball(w, rg_v3((rg_real)(-sqrt3 * r - 0.05), 0, 0), (rg_real)r, &sd);
    rg_body_set_linear_velocity(w, b1, rg_v3((rg_real)v, 0, 0));
    for (i = 0; i < 30; ++i) rg_world_step(w, 1.0f / 60);
    v1 = rg_body_linear_velocity(w, b1);
    v2 = rg_body_linear_velocity(w, b2);
    v3 = rg_body_linear_velocity(w, b3);
    rg_test_note("struck balls leave at (%.4f, %.4f) and (%.4f, %.4f), the striker at %.4f", v2.x, v2.y, v3.x, v3.y, v1.x);
    ENSURE(rg_v3_length(v2) > 0.3 * v);
    ENSURE_REL(rg_v3_length(v3), rg_v3_length(v2), 0.01);
    ENSURE_NEAR(v3.x, v2.x, 0.01 * rg_v3_length(v2));
    ENSURE_NEAR(v3.y, -v2.y, 0.01 * rg_v3_length(v2));
    p[0] = v1.x + v2.x + v3.x;
    p[1] = v1.y + v2.y + v3.y;
    p[2] = v1.z + v2.z + v3.z;
    e = rg_v3_length_squared(v1) + rg_v3_length_squared(v2) + rg_v3_length_squared(v3);
    ENSURE_NEAR(p[0], v, 0.01 * v);
    ENSURE_NEAR(p[1], 0, 0.01 * v);
    ENSURE_REL(e, v * v, 0.02);
    rg_world_destroy(w);
}

/* Newton's cradle of five touching balls, restitution 1, no gravity or friction: the first
   strikes the row at v; the far ball leaves at v (within 2%), the others keep below 2% of it. */
static void test_shapes_newtons_cradle_of_spheres(void) {
    rg_world *w = shapes_world(rg_v3(0, 0, 0));
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id balls[5];
    double v = 1, worst = 0;
    int i;
    sd.restitution = 1;
    sd.static_friction = sd.dynamic_friction = 0;
    for (i = 0; i < 5; ++i) balls[i] = shapes_ball(w, rg_v3((rg_real)i - (i == 0 ? 0.05f : 0), 0, 0), 0.5f, &sd);
    rg_body_set_linear_velocity(w, balls[0], rg_v3((rg_real)v, 0, 0));
    for (i = 0; i < 30; ++i) rg_world_step(w, 1.0f / 60);
    for (i = 0; i < 4; ++i) {
        double speed = rg_v3_length(rg_body_linear_velocity(w, balls[i]));
        if (speed > worst) worst = speed;
    }
    rg_test_note("far ball %.4f m/s, the others at most %.4f", rg_body_linear_velocity(w, balls[4]).x, worst);
    ENSURE_REL(rg_body_linear_velocity(w, balls[4]).x, v, 0.02);
    ENSURE(worst < 0.02 * v);
    rg_world_destroy(w);
}

/* A capsule lying on the ground rests at its radius (within 2 mm) on two points; one stood on
   its end, tilted by 2 degrees, falls over (its axis ends within 10 degrees of horizontal). */
static void test_shapes_capsule_rests_and_tips(void) {
    rg_world *w = shapes_world(rg_v3(0, -9.81f, 0));
    rg_hull *slab = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL);
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id lying, standing;
    rg_contact contacts[16];
    rg_vec3 axis;
    int i, n, on_lying = 0;
    shapes_slope(w, slab, 0, -1);
    lying = shapes_empty_body(w, RG_BODY_DYNAMIC, rg_v3(0, 0.3f, 0));
    rg_body_add_capsule(w, lying, &sd, rg_v3(-0.5f, 0, 0), rg_v3(0.5f, 0, 0), 0.25f, NULL);
    standing = shapes_empty_body(w, RG_BODY_DYNAMIC, rg_v3(5, 0, 0));
    rg_body_add_capsule(w, standing, &sd, rg_v3(0, 0.25f, 0), rg_v3(0, 1.75f, 0), 0.25f, NULL);
    rg_body_set_transform(w, standing, rg_v3(5, 0, 0), rg_quat_from_axis_angle(rg_v3(0, 0, 1), 0.035f));
    for (i = 0; i < 60; ++i) rg_world_step(w, 1.0f / 60);
    ENSURE_NEAR(rg_body_position(w, lying).y, 0.25, 0.002);
    n = rg_world_contacts(w, contacts, 16);
    for (i = 0; i < n && i < 16; ++i)
        if (contacts[i].a.index == lying.index || contacts[i].b.index == lying.index) ++on_lying;
    ENSURE(on_lying == 2);
    for (i = 0; i < 180; ++i) rg_world_step(w, 1.0f / 60);
    axis = rg_quat_rotate(rg_body_orientation(w, standing), rg_v3(0, 1, 0));
    rg_test_note("lying capsule at %.5f m on %d points; the tilted one's axis ends at y = %.3f", rg_body_position(w, lying).y,
                 on_lying, axis.y);
    ENSURE(fabs(axis.y) < sin(10 * 3.14159265 / 180));
    rg_world_destroy(w);
    rg_hull_destroy(slab);
}

/* Rolling friction: a ball rolling at 3 m/s on the level with mu_r = 0.05 slows at
   5/7 mu_r g (within 5%); with mu_r = 0 it keeps its speed (within 0.5% over 3 s). */
static double shapes_rolling_deceleration(double mu_r, double *kept) {
    rg_world *w = shapes_world(rg_v3(0, -9.81f, 0));
    rg_hull *slab = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL);
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id ball;
    double v1, v2;
    int i;
    shapes_slope(w, slab, 0, -1);
    sd.rolling_friction = (rg_real)mu_r;
    ball = shapes_ball(w, rg_v3(-20, 0.5f, 0), 0.5f, &sd);
    rg_body_set_linear_velocity(w, ball, rg_v3(3, 0, 0));
    rg_body_set_angular_velocity(w, ball, rg_v3(0, 0, -6));
    for (i = 0; i < 30; ++i) rg_world_step(w, 1.0f / 60);
    v1 = rg_body_linear_velocity(w, ball).x;
    for (i = 0; i < 60; ++i) rg_world_step(w, 1.0f / 60);
    v2 = rg_body_linear_velocity(w, ball).x;
    for (i = 0; i < 90; ++i) rg_world_step(w, 1.0f / 60);
    *kept = rg_body_linear_velocity(w, ball).x / 3;
    rg_world_destroy(w);
    rg_hull_destroy(slab);
    return v1 - v2;
}

static void test_shapes_rolling_friction_matches_its_coefficient(void) {
    double kept, a = shapes_rolling_deceleration(0.05, &kept), kept_free;
    double free_a = shapes_rolling_deceleration(0, &kept_free);
    rg_test_note("deceleration %.4f m/s^2 (5/7 mu_r g = %.4f); without it %.5f, speed kept %.5f", a,
                 5.0 / 7 * 0.05 * 9.81, free_a, kept_free);
    ENSURE_REL(a, 5.0 / 7 * 0.05 * 9.81, 0.05);
    ENSURE_NEAR(kept_free, 1, 0.005);
}

/* ---- triangle meshes in a world ---- */

/* A grid of n x n cells of side `cell` centred on the origin, heights y = bowl (x^2 + z^2), two
   triangles a cell, counter-clockwise seen from above. */
static rg_mesh *shapes_grid_mesh(int n, double cell, double bowl) {
    rg_vec3 *v = (rg_vec3 *)malloc(sizeof *v * (size_t)((n + 1) * (n + 1)));
    int *t = (int *)malloc(sizeof *t * (size_t)(6 * n * n)), i, j, k = 0;
    rg_mesh *mesh;
    for (i = 0; i <= n; ++i)
        for (j = 0; j <= n; ++j) {
            double x = (i - n / 2.0) * cell, z = (j - n / 2.0) * cell;
            v[i * (n + 1) + j] = rg_v3((rg_real)x, (rg_real)(bowl * (x * x + z * z)), (rg_real)z);
        }
    for (i = 0; i < n; ++i)
        for (j = 0; j < n; ++j) {
            int a = i * (n + 1) + j, b = a + 1, c = a + n + 1, d = c + 1;
            /* seen from +y, x to the right and z down the page: a (x, z), c (x + 1, z), b (x, z + 1) */
            t[k++] = a; t[k++] = b; t[k++] = c;
            t[k++] = c; t[k++] = b; t[k++] = d;
        }
    mesh = rg_mesh_create(v, (n + 1) * (n + 1), t, 2 * n * n, NULL);
    free(v);
    free(t);
    return mesh;
}

static rg_body_id shapes_mesh_ground(rg_world *w, const rg_mesh *mesh, double mu) {
    rg_body_id ground = shapes_empty_body(w, RG_BODY_STATIC, rg_v3(0, 0, 0));
    rg_shape_def sd = rg_shape_default_def();
    sd.static_friction = sd.dynamic_friction = (rg_real)mu;
    rg_body_add_mesh(w, ground, &sd, mesh, NULL);
    return ground;
}

/* A frictionless box sliding at 5 m/s across a flat mesh of 800 triangles (20 x 20 cells of
   1 m), in eight directions: it keeps its speed within 2% for 3 s and its height within 1 mm:
   the seams it crosses (inactive edges) never snag it. */
static void test_shapes_box_slides_across_mesh_seams(void) {
    rg_mesh *mesh = shapes_grid_mesh(20, 1, 0);
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    double worst_speed = 0, worst_height = 0;
    int direction;
    ENSURE(mesh && rg_mesh_triangle_count(mesh) == 800);
    for (direction = 0; direction < 8; ++direction) {
        double angle = direction * 3.14159265358979 / 8 + 0.1;
        rg_vec3 u = rg_v3((rg_real)cos(angle), 0, (rg_real)sin(angle));
        rg_world *w = shapes_world(rg_v3(0, -9.81f, 0));
        rg_shape_def sd = rg_shape_default_def();
        rg_body_id body;
        int i;
        shapes_mesh_ground(w, mesh, 0);
        body = shapes_empty_body(w, RG_BODY_DYNAMIC, rg_v3_add(rg_v3_scale(u, -7.5f), rg_v3(0, 0.5f, 0)));
        sd.static_friction = sd.dynamic_friction = 0;
        rg_body_add_hull(w, body, &sd, box, rg_v3(0, 0, 0), rg_quat_identity(), NULL);
        rg_body_set_linear_velocity(w, body, rg_v3_scale(u, 5));
        for (i = 0; i < 180; ++i) {
            double speed, height;
            rg_world_step(w, 1.0f / 60);
            speed = fabs(rg_v3_length(rg_body_linear_velocity(w, body)) / 5 - 1);
            height = fabs(rg_body_position(w, body).y - 0.5);
            if (speed > worst_speed) worst_speed = speed;
            if (height > worst_height) worst_height = height;
        }
        rg_world_destroy(w);
    }
    rg_test_note("8 directions, 3 s each: speed within %.3g%%, height within %.3g mm", 100 * worst_speed, 1000 * worst_height);
    ENSURE(worst_speed < 0.02);
    ENSURE(worst_height < 0.001);
    rg_mesh_destroy(mesh);
    rg_hull_destroy(box);
}

/* A ball rolling at 3 m/s for 3 s across the flat mesh loses no more speed than on one box. */
static double shapes_roll_speed(int on_mesh) {
    rg_world *w = shapes_world(rg_v3(0, -9.81f, 0));
    rg_mesh *mesh = on_mesh ? shapes_grid_mesh(20, 1, 0) : NULL;
    rg_hull *slab = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL);
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id ball;
    double v;
    int i;
    if (mesh) shapes_mesh_ground(w, mesh, 0.5);
    else shapes_slope(w, slab, 0, 0.5);
    ball = shapes_ball(w, rg_v3(-5, 0.5f, -3.3f), 0.5f, &sd);
    rg_body_set_linear_velocity(w, ball, rg_v3(2.4f, 0, 1.8f));
    rg_body_set_angular_velocity(w, ball, rg_v3(3.6f, 0, -4.8f));
    for (i = 0; i < 180; ++i) rg_world_step(w, 1.0f / 60);
    v = rg_v3_length(rg_body_linear_velocity(w, ball));
    rg_world_destroy(w);
    rg_mesh_destroy(mesh);
    rg_hull_destroy(slab);
    return v;
}

static void test_shapes_ball_rolls_across_a_mesh(void) {
    double on_mesh = shapes_roll_speed(1), on_box = shapes_roll_speed(0);
    rg_test_note("speed after 3 s: %.5f m/s on the mesh, %.5f on a box (from 3)", on_mesh, on_box);
    ENSURE(on_mesh >= on_box - 1e-3);
    ENSURE_NEAR(on_mesh, 3, 0.03);
}

/* Balls, boxes and capsules dropped into a mesh bowl (y = 0.05 (x^2 + z^2), 1 m cells): none is
   below the bowl's surface after 10 s. */
static void test_shapes_nothing_falls_through_a_mesh_bowl(void) {
    rg_world *w = shapes_world(rg_v3(0, -9.81f, 0));
    rg_mesh *mesh = shapes_grid_mesh(24, 1, 0.05);
    rg_hull *box = rg_hull_create_box(rg_v3(0.3f, 0.3f, 0.3f), NULL);
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id bodies[60];
    int i, k, below = 0;
    double lowest = 1e9;
    shapes_mesh_ground(w, mesh, 0.5);
    for (i = 0; i < 60; ++i) {
        rg_vec3 p = rg_v3((rg_real)((i % 5) - 2) * 1.5f, 4 + (rg_real)(i / 25) * 1.5f, (rg_real)((i / 5) % 5 - 2) * 1.5f);
        bodies[i] = shapes_empty_body(w, RG_BODY_DYNAMIC, p);
        k = i % 3;
        if (k == 0) rg_body_add_sphere(w, bodies[i], &sd, rg_v3(0, 0, 0), 0.3f, NULL);
        else if (k == 1) rg_body_add_hull(w, bodies[i], &sd, box, rg_v3(0, 0, 0), rg_test_rotation(), NULL);
        else rg_body_add_capsule(w, bodies[i], &sd, rg_v3(-0.3f, 0, 0), rg_v3(0.3f, 0.1f, 0), 0.2f, NULL);
    }
    for (i = 0; i < 600; ++i) rg_world_step(w, 1.0f / 60);
    for (i = 0; i < 60; ++i) {
        rg_vec3 c = rg_body_center_of_mass(w, bodies[i]);
        double surface = 0.05 * (c.x * c.x + c.z * c.z), above = c.y - surface;
        if (above < lowest) lowest = above;
        if (above < 0) ++below;
    }
    rg_test_note("60 bodies after 10 s: %d below the bowl, lowest centre %.4f m above it", below, lowest);
    ENSURE(below == 0);
    rg_world_destroy(w);
    rg_mesh_destroy(mesh);
    rg_hull_destroy(box);
}

void rg_tests_shapes(void) {
    RUN_TEST(test_shapes_sphere_mass_is_closed_form);
    RUN_TEST(test_shapes_capsule_mass_matches_integration);
    RUN_TEST(test_shapes_compound_mass_is_the_sum);
    RUN_TEST(test_shapes_default_and_fixed_mass);
    RUN_TEST(test_shapes_ids_and_lists);
    RUN_TEST(test_shapes_adding_keeps_the_motion_of_points);
    RUN_TEST(test_shapes_filtering_rule_both_ways);
    RUN_TEST(test_shapes_set_filter_takes_effect);
    RUN_TEST(test_shapes_bad_input_changes_nothing);
    RUN_TEST(test_shapes_sphere_rests_at_its_radius);
    RUN_TEST(test_shapes_sphere_rolls_down_a_slope);
    RUN_TEST(test_shapes_sphere_slides_then_rolls);
    RUN_TEST(test_shapes_three_billiard_balls_stay_symmetric);
    RUN_TEST(test_shapes_newtons_cradle_of_spheres);
    RUN_TEST(test_shapes_capsule_rests_and_tips);
    RUN_TEST(test_shapes_rolling_friction_matches_its_coefficient);
    RUN_TEST(test_shapes_box_slides_across_mesh_seams);
    RUN_TEST(test_shapes_ball_rolls_across_a_mesh);
    RUN_TEST(test_shapes_nothing_falls_through_a_mesh_bowl);
}
