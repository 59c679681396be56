/* Fidelity of the solver to mechanics: a face's twist friction follows the contact area's
   pressure (rg__impulse_patch_radius), and stacks stand exactly when statics says they can
   (rg__step_carry_unique_loads). Analytic answers, an independent integration of the equations
   of motion, or the same shape as one body; default world, dt = 1/60. */
#include "test.h"

#include <math.h>
#include <string.h>

#define DT (1.0 / 60)
#define G 9.81
/* (sqrt 2 + ln(1 + sqrt 2)) / 3: the mean distance from the centre of a square of half side 1 */
#define SQUARE_RADIUS 0.76519571
#define FIDELITY_PI 3.14159265358979323846

typedef struct fidelity_cube {
    rg_world *world;
    rg_hull *ground, *cube;
    rg_body_id body;
} fidelity_cube;

/* A cube of half side h resting flat on the ground (top face y = 0), friction mu (static and
   dynamic, on both), moving at v0 along x and spinning at w0 about y. */
static int fidelity_cube_create(fidelity_cube *c, double h, double mu, double v0, double w0) {
    rg_world_def wd = rg_world_default_def();
    rg_body_def bd = rg_body_default_def();
    memset(c, 0, sizeof *c);
    c->world = rg_world_create(&wd, NULL);
    c->ground = rg_hull_create_box(rg_v3(100, 0.5f, 100), NULL);
    c->cube = rg_hull_create_box(rg_v3((rg_real)h, (rg_real)h, (rg_real)h), NULL);
    if (!c->world || !c->ground || !c->cube) return 0;
    bd.type = RG_BODY_STATIC;
    bd.hull = c->ground;
    bd.position = rg_v3(0, -0.5f, 0);
    bd.static_friction = bd.dynamic_friction = (rg_real)mu;
    if (rg_body_create(c->world, &bd, NULL).generation == 0) return 0;
    bd = rg_body_default_def();
    bd.hull = c->cube;
    bd.position = rg_v3(0, (rg_real)h, 0);
    bd.linear_velocity = rg_v3((rg_real)v0, 0, 0);
    bd.angular_velocity = rg_v3(0, (rg_real)w0, 0);
    bd.static_friction = bd.dynamic_friction = (rg_real)mu;
    c->body = rg_body_create(c->world, &bd, NULL);
    return c->body.generation != 0;
}

static void fidelity_cube_destroy(fidelity_cube *c) {
    rg_world_destroy(c->world);
    rg_hull_destroy(c->ground);
    rg_hull_destroy(c->cube);
}

static double fidelity_spin(const fidelity_cube *c) { return rg_body_angular_velocity(c->world, c->body).y; }

static double fidelity_speed(const fidelity_cube *c) {
    rg_vec3 v = rg_body_linear_velocity(c->world, c->body);
    return sqrt((double)v.x * v.x + (double)v.z * v.z);
}

/* When a value falling at a steady rate from x0 reaches zero, from its values x[k] after each step
   (x[n - 1] the first at or below stop_below): the last step's rate carried from the last value
   above it. Returns -1 if it had not stopped or stopped within the first step. */
static double fidelity_stop_time(const double *x, int n, double x0, double stop_below) {
    double rate;
    if (n < 2 || !(x[n - 1] <= stop_below)) return -1;
    rate = n >= 3 ? (x[n - 3] - x[n - 2]) / DT : (x0 - x[0]) / DT;
    return rate > 0 ? (n - 1) * DT + x[n - 2] / rate : -1;
}

/* A cube of half side h spinning flat at w0 with friction mu: under uniform pressure m g / (4 h^2)
   the twist is mu m g h (sqrt 2 + ln(1 + sqrt 2)) / 3 and the inertia (2/3) m h^2, so it stops at
   t = w0 h / (1.1478 mu g) (the four corners alone would stop it in 54% of that time). */
static void test_fidelity_spinning_cube_stops_as_uniform_pressure(void) {
    static const double sizes[3] = {0.1, 0.5, 2}, frictions[3] = {0.2, 0.5, 0.8}, spins[2] = {2, 10};
    double worst = 0;
    int a, b, k;
    for (a = 0; a < 3; ++a)
        for (b = 0; b < 3; ++b)
            for (k = 0; k < 2; ++k) {
                double h = sizes[a], mu = frictions[b], w0 = spins[k], expected, stopped, spin[2000];
                double torque_ratio = 1.5 * SQUARE_RADIUS; /* twist / (mu m g h) over (2/3) */
                fidelity_cube c;
                int n = 0;
                expected = w0 * h / (torque_ratio * mu * G);
                ENSURE(fidelity_cube_create(&c, h, mu, 0, w0));
                do {
                    ENSURE(rg_world_step(c.world, (rg_real)DT) == RG_OK);
                    spin[n++] = fidelity_spin(&c);
                } while (n < 2000 && spin[n - 1] > 1e-3 * w0);
                stopped = fidelity_stop_time(spin, n, w0, 1e-3 * w0);
                fidelity_cube_destroy(&c);
                ENSURE(stopped > 0);
                if (fabs(stopped / expected - 1) > fabs(worst)) worst = stopped / expected - 1;
                rg_test_note("h %.1f m, mu %.1f, w0 %2.0f rad/s: stops at %.4f s, analytic %.4f s (%+.2f%%)", h, mu,
                             w0, stopped, expected, 100 * (stopped / expected - 1));
                ENSURE_REL(stopped, expected, 0.10);
            }
    rg_test_note("largest difference %+.2f%%", 100 * worst);
}

/* Pure sliding is what it was: a cube sliding flat at v0 decelerates at mu g (Coulomb), whatever
   the twist model, and stops after v0 / (mu g). */
static void test_fidelity_sliding_cube_decelerates_at_mu_g(void) {
    static const double frictions[3] = {0.2, 0.5, 0.8};
    int b;
    for (b = 0; b < 3; ++b) {
        const double mu = frictions[b], v0 = 3, h = 0.5;
        double speed[2000], deceleration, stopped;
        fidelity_cube c;
        int n = 0, half;
        ENSURE(fidelity_cube_create(&c, h, mu, v0, 0));
        do {
            ENSURE(rg_world_step(c.world, (rg_real)DT) == RG_OK);
            speed[n++] = fidelity_speed(&c);
        } while (n < 2000 && speed[n - 1] > 1e-3 * v0);
        ENSURE(fabs(fidelity_spin(&c)) < 1e-4);
        fidelity_cube_destroy(&c);
        half = n / 2;
        deceleration = (v0 - speed[half - 1]) / (half * DT);
        stopped = fidelity_stop_time(speed, n, v0, 1e-3 * v0);
        rg_test_note("mu %.1f: deceleration %.5f m/s^2 (mu g %.5f, %+.3f%%), stops at %.4f s (analytic %.4f s)", mu,
                     deceleration, mu * G, 100 * (deceleration / (mu * G) - 1), stopped, v0 / (mu * G));
        ENSURE_REL(deceleration, mu * G, 0.01);
        ENSURE_REL(stopped, v0 / (mu * G), 0.01);
    }
}

/* The friction force and twist (per unit mu m g) on a square of half side h, turned by theta about
   y, sliding at (vx, vz) and spinning at w about y, under uniform pressure: the sum over a
   cells x cells grid of the unit vectors against each cell's sliding velocity v + w y x r. */
static void fidelity_square_friction(double h, double theta, double vx, double vz, double w, int cells, double *fx,
                                     double *fz, double *torque) {
    double c = cos(theta), s = sin(theta), cell = 2 * h / cells, weight = 1.0 / ((double)cells * cells);
    int i, j;
    *fx = *fz = *torque = 0;
    for (i = 0; i < cells; ++i)
        for (j = 0; j < cells; ++j) {
            double bx = -h + (i + 0.5) * cell, bz = -h + (j + 0.5) * cell;
            double rx = c * bx + s * bz, rz = -s * bx + c * bz; /* turned about y by theta */
            double ux = vx + w * rz, uz = vz - w * rx, length = sqrt(ux * ux + uz * uz);
            if (!(length > 0)) continue;
            *fx -= weight * ux / length;
            *fz -= weight * uz / length;
            *torque -= weight * (rz * ux - rx * uz) / length; /* y . (r x f) = rz fx - rx fz */
        }
}

/* The effective radius (mean distance from the centre of pressure, under the pressure) of a square
   of half side h whose centre of pressure the friction force f (per unit normal force, world
   frame) shifts by -H f (H the centre of mass's height: friction's moment about it taken by the
   normal force), the square turned by theta about y: the affine pressure with that centre, its
   slope shrunk until no corner pulls (rigid.h's field), summed over a grid of cells x cells. */
static double fidelity_shifted_radius(double h, double H, double theta, double fx, double fz, int cells) {
    double c = cos(theta), s = sin(theta), dx = -H * fx, dz = -H * fz, j = 4.0 / 3.0 * h * h * h * h;
    double bx, bz, alpha = 1 / (4 * h * h), pull = 0, ox, oz, sum = 0, weight = 0, cell = 2 * h / cells;
    int i, k;
    /* the shift in the square's frame; J = (4/3) h^4 I, J beta = shift */
    bx = (c * dx - s * dz) / j;
    bz = (s * dx + c * dz) / j;
    for (i = 0; i < 4; ++i) {
        double vx = (i & 1) ? h : -h, vz = (i & 2) ? h : -h;
        if (-(bx * vx + bz * vz) > pull) pull = -(bx * vx + bz * vz);
    }
    if (pull > alpha) {
        bx *= alpha / pull;
        bz *= alpha / pull;
    }
    ox = j * bx;
    oz = j * bz;
    for (i = 0; i < cells; ++i)
        for (k = 0; k < cells; ++k) {
            double x = -h + (i + 0.5) * cell, z = -h + (k + 0.5) * cell, p = alpha + bx * x + bz * z;
            sum += p * sqrt((x - ox) * (x - ox) + (z - oz) * (z - oz));
            weight += p;
        }
    return sum / weight;
}

/* Sliding and spinning at once: the speed and spin of a cube (half side h, friction mu, the
   centre of mass h above the floor) from (v0, w0), with the friction per unit mu m g of a limit
   surface: model 0 rigid.h's ellipsoid (|F|^2 + (T / e)^2 = 1 at maximal dissipation for the
   sliding at the face's centre) with uniform pressure, e = 0.7652 h; model 1 the same with the
   pressure shifted by friction's moment (fidelity_shifted_radius, from the friction a step
   before, as rigid.h warm starts it); model 2 uniform pressure integrated over the square
   (fidelity_square_friction). Midpoint steps of dt; writes the speed and spin at the times t[k]
   and when both have fallen below 1e-3 of their start. */
static void fidelity_predict(double h, double mu, double v0, double w0, int model, const double *t, int times,
                             double *speed, double *spin, double *stop) {
    const double dt = 2e-4, inertia = 2.0 / 3.0 * h * h;
    double vx = v0, vz = 0, w = w0, theta = 0, time = 0, last_fx = 0, last_fz = 0;
    int k = 0;
    *stop = -1;
    while (time < 100 && (k < times || *stop < 0)) {
        double rate[4] = {0, 0, 0, 0}, fx = 0, fz = 0, torque = 0;
        double e = model == 1 ? fidelity_shifted_radius(h, h, theta, last_fx * mu, last_fz * mu, 24) : 0.76519571 * h;
        int stage;
        for (stage = 0; stage < 2; ++stage) {
            double sx = vx + rate[0] * dt / 2 * stage, sz = vz + rate[1] * dt / 2 * stage;
            double sw = w + rate[2] * dt / 2 * stage, angle = theta + rate[3] * dt / 2 * stage;
            if (model == 2) {
                fidelity_square_friction(h, angle, sx, sz, sw, 48, &fx, &fz, &torque);
            } else {
                double size = sqrt(sx * sx + sz * sz + e * e * sw * sw);
                fx = size > 0 ? -sx / size : 0;
                fz = size > 0 ? -sz / size : 0;
                torque = size > 0 ? -e * e * sw / size : 0;
            }
            rate[0] = mu * G * fx;
            rate[1] = mu * G * fz;
            rate[2] = mu * G * torque / inertia;
            rate[3] = sw;
        }
        last_fx = fx;
        last_fz = fz;
        /* a motion that friction would turn around in this step stops */
        if (vx * (vx + rate[0] * dt) + vz * (vz + rate[1] * dt) <= 0) {
            vx = vz = 0;
        } else {
            vx += rate[0] * dt;
            vz += rate[1] * dt;
        }
        w = w * (w + rate[2] * dt) <= 0 ? 0 : w + rate[2] * dt;
        if (*stop < 0 && vx * vx + vz * vz <= 1e-6 * v0 * v0 && fabs(w) <= 1e-3 * w0) *stop = time + dt;
        theta += rate[3] * dt;
        time += dt;
        while (k < times && time >= t[k] - dt / 2) {
            speed[k] = sqrt(vx * vx + vz * vz);
            spin[k++] = w;
        }
    }
}

/* Sliding at 2 m/s and spinning at 4 rad/s at once (h 0.5 m, mu 0.5): rigid.h's speed and spin
   follow its limit surface's prediction with the pressure friction's moment shifts (the
   leading edge pressed harder, the twist's lever shorter), within 2% of the start values, and
   come to rest together when it does, within 3%; the predictions of uniform pressure (ellipsoid,
   and integrated exactly) are printed beside. */
static void test_fidelity_sliding_and_spinning_cube(void) {
    const double h = 0.5, mu = 0.5, v0 = 2, w0 = 4;
    double t[3] = {0.1, 0.2, 0.3}, speed[3][3], spin[3][3], stop[3], speeds[2000], spins[2000], stop_v = -1, stop_w = -1;
    fidelity_cube c;
    int n = 0, k;
    for (k = 0; k < 3; ++k) fidelity_predict(h, mu, v0, w0, k, t, 3, speed[k], spin[k], &stop[k]);
    ENSURE(fidelity_cube_create(&c, h, mu, v0, w0));
    do {
        ENSURE(rg_world_step(c.world, (rg_real)DT) == RG_OK);
        speeds[n] = fidelity_speed(&c);
        spins[n] = fidelity_spin(&c);
        ++n;
        if (stop_v < 0 && speeds[n - 1] <= 1e-3 * v0) stop_v = fidelity_stop_time(speeds, n, v0, 1e-3 * v0);
        if (stop_w < 0 && spins[n - 1] <= 1e-3 * w0) stop_w = fidelity_stop_time(spins, n, w0, 1e-3 * w0);
    } while (n < 2000 && (stop_v < 0 || stop_w < 0));
    fidelity_cube_destroy(&c);
    for (k = 0; k < 3; ++k) {
        int step = (int)(t[k] / DT + 0.5) - 1;
        rg_test_note("t %.1f s: speed %.4f m/s (shifted pressure %.4f; uniform: ellipsoid %.4f, exact %.4f), spin %.4f rad/s "
                     "(%.4f; %.4f, %.4f)", t[k], speeds[step], speed[1][k], speed[0][k], speed[2][k], spins[step],
                     spin[1][k], spin[0][k], spin[2][k]);
        ENSURE_NEAR(speeds[step], speed[1][k], 0.02 * v0);
        ENSURE_NEAR(spins[step], spin[1][k], 0.02 * w0);
    }
    rg_test_note("stops sliding at %.4f s, spinning at %.4f s (shifted pressure %.4f; uniform: ellipsoid %.4f, exact %.4f)",
                 stop_v, stop_w, stop[1], stop[0], stop[2]);
    ENSURE_REL(stop_v, stop[1], 0.03);
    ENSURE_REL(stop_w, stop[1], 0.03);
}

/* The hulls of the stacking tests: the floor slab, a 1 m cube and a 1 x 3 x 1 m box (made once
   per test; worlds are destroyed before them). */
typedef struct fidelity_hulls {
    rg_hull *floor, *cube, *tall;
} fidelity_hulls;

static int fidelity_hulls_create(fidelity_hulls *h) {
    h->floor = rg_hull_create_box(rg_v3(50, 0.5f, 50), NULL);
    h->cube = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    h->tall = rg_hull_create_box(rg_v3(0.5f, 1.5f, 0.5f), NULL);
    return h->floor && h->cube && h->tall;
}

static void fidelity_hulls_destroy(fidelity_hulls *h) {
    rg_hull_destroy(h->floor);
    rg_hull_destroy(h->cube);
    rg_hull_destroy(h->tall);
}

/* A world with a static floor (top face y = 0), friction mu. */
static rg_world *fidelity_floor_world(const fidelity_hulls *h, double mu) {
    rg_world_def wd = rg_world_default_def();
    rg_body_def bd = rg_body_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    if (!w) return NULL;
    bd.type = RG_BODY_STATIC;
    bd.hull = h->floor;
    bd.position = rg_v3(0, -0.5f, 0);
    bd.static_friction = bd.dynamic_friction = (rg_real)mu;
    rg_body_create(w, &bd, NULL);
    return w;
}

/* A dynamic body of `hull` at `position`, friction mu. */
static rg_body_id fidelity_box(rg_world *w, rg_hull *hull, rg_vec3 position, double mu) {
    rg_body_def bd = rg_body_default_def();
    bd.hull = hull;
    bd.position = position;
    bd.static_friction = bd.dynamic_friction = (rg_real)mu;
    return rg_body_create(w, &bd, NULL);
}

static double fidelity_distance(rg_vec3 a, rg_vec3 b) {
    double x = (double)a.x - b.x, y = (double)a.y - b.y, z = (double)a.z - b.z;
    return sqrt(x * x + y * y + z * z);
}

/* The angle a body has turned from the identity, radians. */
static double fidelity_tilt(rg_quat q) {
    double s = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z);
    return 2 * atan2(s, fabs((double)q.w));
}

/* The harmonic overhang stack (the block-stacking problem): five 1 m cubes on the floor, the
   k-th from the top shifted over the one below by s / (2k), all towards +x, friction 0.6. The
   upper k cubes then have their centre of mass s / 2 from the centre of the cube below: inside
   its edge for s < 1. Runs 10 s; returns the largest distance a cube moved from its start. */
static double fidelity_harmonic_stack(const fidelity_hulls *h, double s) {
    rg_world *w = fidelity_floor_world(h, 0.6);
    rg_body_id cubes[5];
    rg_vec3 start[5];
    double x = 0, worst = 0;
    int k, i;
    for (k = 5; k >= 1; --k) {
        if (k < 5) x += s / (2 * k);
        start[5 - k] = rg_v3((rg_real)x, (rg_real)(0.5 + (5 - k)), 0);
        cubes[5 - k] = fidelity_box(w, h->cube, start[5 - k], 0.6);
    }
    for (i = 0; i < 600; ++i) rg_world_step(w, (rg_real)DT);
    for (k = 0; k < 5; ++k) worst = fmax(worst, fidelity_distance(rg_body_position(w, cubes[k]), start[k]));
    rg_world_destroy(w);
    return worst;
}

/* Every upper part's centre of mass 5 cm inside the edge below it: stands 10 s, no cube moving
   more than 1 cm. 5 cm beyond: falls (the top cube alone overhangs, and more). */
static void test_fidelity_harmonic_stack_stands_exactly_as_statics_says(void) {
    fidelity_hulls h;
    double stands, falls;
    ENSURE(fidelity_hulls_create(&h));
    stands = fidelity_harmonic_stack(&h, 0.9);
    falls = fidelity_harmonic_stack(&h, 1.1);
    fidelity_hulls_destroy(&h);
    rg_test_note("s = 0.9: largest move in 10 s %.2f mm; s = 1.1: %.2f m", stands * 1e3, falls);
    ENSURE(stands < 0.01);
    ENSURE(falls > 0.5);
}

/* A column of three cubes on a base cube (friction 0.6), shifted together by `shift` along +x:
   for shift 0.6 their centre of mass lies 10 cm beyond the base's edge. `single` instead puts one
   1 x 3 x 1 m box where the three are. Returns the world; ids[0] is the base, ids[1..] the rest. */
static rg_world *fidelity_column(const fidelity_hulls *h, double shift, int single, rg_body_id *ids) {
    rg_world *w = fidelity_floor_world(h, 0.6);
    int k;
    ids[0] = fidelity_box(w, h->cube, rg_v3(0, 0.5f, 0), 0.6);
    if (single) {
        ids[1] = fidelity_box(w, h->tall, rg_v3((rg_real)shift, 2.5f, 0), 0.6);
        return w;
    }
    for (k = 0; k < 3; ++k) ids[1 + k] = fidelity_box(w, h->cube, rg_v3((rg_real)shift, (rg_real)(1.5 + k), 0), 0.6);
    return w;
}

/* The leaning column: its centre of mass 10 cm beyond the base's edge, it falls, and it tips as
   one body until it breaks up: the three cubes turn together (within 2% of each other when the
   column has turned 3 degrees), it reaches 3 degrees within 5% of the time the single box of its
   shape takes (measured: in the same step), and for the first 0.3 s its top's height agrees with
   the single box's within 10%. Leaning 10 cm the other way (inside the edge) it stands 10 s with
   no cube moving more than 1 cm. */
static void test_fidelity_leaning_column_tips_as_one_body(void) {
    fidelity_hulls h;
    rg_body_id column[4], single[2], standing[4];
    rg_world *w, *w1, *w2;
    rg_vec3 start[4];
    double t_column = -1, t_single = -1, spread = 0, worst_height = 0, worst_stand = 0, fell;
    const double three_degrees = 3 * FIDELITY_PI / 180;
    int i, k;
    ENSURE(fidelity_hulls_create(&h));
    w = fidelity_column(&h, 0.6, 0, column);
    w1 = fidelity_column(&h, 0.6, 1, single);
    w2 = fidelity_column(&h, 0.4, 0, standing);
    for (k = 0; k < 4; ++k) start[k] = rg_body_position(w2, standing[k]);
    for (i = 1; i <= 180; ++i) {
        double tilt;
        rg_world_step(w, (rg_real)DT);
        rg_world_step(w1, (rg_real)DT);
        rg_world_step(w2, (rg_real)DT);
        tilt = fidelity_tilt(rg_body_orientation(w, column[1]));
        if (i * DT <= 0.3 + 1e-9) {
            /* the column's top face and the single box's, at their centre lines */
            double top = rg_body_position(w, column[3]).y + 0.5, top1 = rg_body_position(w1, single[1]).y + 1.5;
            worst_height = fmax(worst_height, fabs(top - top1) / top1);
        }
        if (t_column < 0 && tilt >= three_degrees) {
            t_column = i * DT;
            for (k = 2; k <= 3; ++k) spread = fmax(spread, fabs(fidelity_tilt(rg_body_orientation(w, column[k])) - tilt) / tilt);
        }
        if (t_single < 0 && fidelity_tilt(rg_body_orientation(w1, single[1])) >= three_degrees) t_single = i * DT;
    }
    fell = start[3].y - rg_body_position(w, column[3]).y; /* both columns' top cubes start at y = 3.5 */
    for (; i <= 600; ++i) rg_world_step(w2, (rg_real)DT);
    for (k = 0; k < 4; ++k) worst_stand = fmax(worst_stand, fidelity_distance(rg_body_position(w2, standing[k]), start[k]));
    rg_test_note("3 degrees at %.3f s (single box %.3f s), the cubes' tilts then within %.2f%%; top height within %.3f%% "
                 "for 0.3 s; top %.2f m lower after 3 s; leaning inside the edge: largest move in 10 s %.2f mm",
                 t_column, t_single, spread * 100, worst_height * 100, fell, worst_stand * 1e3);
    ENSURE(t_single > 0);
    ENSURE(t_column > 0);
    ENSURE_REL(t_column, t_single, 0.05);
    ENSURE(spread < 0.02);
    ENSURE(worst_height < 0.1);
    ENSURE(fell > 1);
    ENSURE(worst_stand < 0.01);
    rg_world_destroy(w);
    rg_world_destroy(w1);
    rg_world_destroy(w2);
    fidelity_hulls_destroy(&h);
}

void rg_tests_fidelity(void) {
    RUN_TEST(test_fidelity_spinning_cube_stops_as_uniform_pressure);
    RUN_TEST(test_fidelity_sliding_cube_decelerates_at_mu_g);
    RUN_TEST(test_fidelity_sliding_and_spinning_cube);
    RUN_TEST(test_fidelity_harmonic_stack_stands_exactly_as_statics_says);
    RUN_TEST(test_fidelity_leaning_column_tips_as_one_body);
}
