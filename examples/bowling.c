/* bowling: a ten-pin bowling lane. A 6.35 kg ball (radius 0.109 m) is rolled from the foul line at
   8 m/s with a little side spin that hooks it into the pocket between pins 1 and 3; ten pins of
   1.5 kg and 0.38 m stand in the standard triangle 18.29 m (60 ft) down the lane. Each pin is one
   body of three shapes: a hull built by rg_hull_create from its turned (lathe) profile up to the
   neck, a capsule for the neck and a sphere for the head. The lane, gutters, side boards and pit
   are static boxes. Summary: the ball's speed and position when it reaches the pins, how many
   pins fell (a pin is down when its axis tilts more than 45 degrees, or it fell off the pin deck
   into the pit or a gutter), and where the ball ended.

   Dimensions are the USBC's: lane 1.05 m wide from gutter to gutter, pins 12 in (0.3048 m)
   apart, the pin deck 0.87 m past the head pin, then the pit. x runs down the lane from the foul
   line, y up, z to the bowler's right.

   usage: bowling [--record file] [--every n] [--snapshot file.png] [--steps n] */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include "examples/example.h"

#include <math.h>

#define PINS 10
#define MAX_STATICS 12

static const double pi = 3.14159265358979323846;
static const double head_pin_x = 18.29, deck_end_x = 19.16, lane_half_width = 0.525;
static const double ball_radius = 0.109, ball_mass = 6.35;
static const double pin_mass = 1.5;

/* The static parts of the alley, each a box, kept to be destroyed after the world. */
typedef struct alley {
    rg_hull *hulls[MAX_STATICS];
    rg_body_id ids[MAX_STATICS];
    int count;
} alley;

/* A static box between the corners (x0, y0, z0) and (x1, y1, z1), with the given friction. */
static void add_box(rg_world *w, alley *a, double x0, double y0, double z0, double x1, double y1, double z1,
                    double friction) {
    rg_body_def bd = rg_body_default_def();
    rg_hull *box = rg_hull_create_box(rg_v3((rg_real)fabs(x1 - x0) / 2, (rg_real)fabs(y1 - y0) / 2, (rg_real)fabs(z1 - z0) / 2), NULL);
    bd.type = RG_BODY_STATIC;
    bd.hull = box;
    bd.position = rg_v3((rg_real)((x0 + x1) / 2), (rg_real)((y0 + y1) / 2), (rg_real)((z0 + z1) / 2));
    bd.static_friction = bd.dynamic_friction = (rg_real)friction;
    a->hulls[a->count] = box;
    a->ids[a->count++] = rg_body_create(w, &bd, NULL);
}

/* The lane's top at y = 0 from 1 m behind the foul line to the end of the pin deck, oiled
   (friction 0.04); on either side a gutter 0.235 m wide and 0.05 m deep, a low side board along
   the lane and a tall kickback beside the pin deck; the pit 0.25 m down behind the deck, closed by
   a back cushion. */
static void build_alley(rg_world *w, alley *a) {
    const double gutter = lane_half_width + 0.235, board = gutter + 0.1, pit_end = deck_end_x + 0.8;
    int side;
    add_box(w, a, -1, -0.1, -lane_half_width, deck_end_x, 0, lane_half_width, 0.04);
    for (side = -1; side <= 1; side += 2) {
        add_box(w, a, -1, -0.15, side * lane_half_width, deck_end_x, -0.05, side * gutter, 0.2);
        add_box(w, a, -1, -0.15, side * gutter, head_pin_x - 0.5, 0.1, side * board, 0.2);
        add_box(w, a, head_pin_x - 0.5, -0.15, side * gutter, pit_end, 0.7, side * board, 0.2);
    }
    add_box(w, a, deck_end_x, -0.35, -board, pit_end, -0.25, board, 0.5);  /* pit floor */
    add_box(w, a, pit_end, -0.35, -board, pit_end + 0.1, 0.7, board, 0.5); /* back cushion */
}

/* A pin's turned profile below the neck, (height, radius) in inches from the USBC drawing. A
   lathe of it is convex, so its convex hull is the pin's body. */
static rg_hull *create_pin_body(void) {
    static const double profile[][2] = {{0, 1.016}, {0.75, 1.414}, {2.25, 1.953}, {3.375, 2.255},
                                        {4.5, 2.383}, {5.875, 2.282}, {7.25, 1.978}, {8.625, 1.435}, {9.375, 1.13}};
    enum { RINGS = sizeof profile / sizeof profile[0], AROUND = 16 };
    rg_vec3 points[RINGS * AROUND];
    rg_result result;
    rg_hull *h;
    int i, k;
    for (i = 0; i < RINGS; ++i)
        for (k = 0; k < AROUND; ++k) {
            double angle = 2 * pi * k / AROUND, r = profile[i][1] * 0.0254;
            points[i * AROUND + k] = rg_v3((rg_real)(r * cos(angle)), (rg_real)(profile[i][0] * 0.0254), (rg_real)(r * sin(angle)));
        }
    h = rg_hull_create(points, RINGS * AROUND, &result);
    if (!h) fprintf(stderr, "pin: %s\n", rg_result_string(result));
    return h;
}

/* A pin standing at (x, 0, z): the body hull, a capsule up the neck and a sphere for the head
   whose top is at 0.381 m (15 in). The body frame's origin is the middle of the base; the
   centre of mass comes out 0.157 m above it (a real pin's is about 0.15 m). */
static rg_body_id create_pin(rg_world *w, const rg_hull *body, double x, double z) {
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id id;
    bd.position = rg_v3((rg_real)x, 0, (rg_real)z);
    bd.mass = (rg_real)pin_mass; /* the shapes' densities scale to give 1.5 kg */
    id = rg_body_create(w, &bd, NULL);
    sd.restitution = 0.6f;
    sd.static_friction = sd.dynamic_friction = 0.2f;
    rg_body_add_hull(w, id, &sd, body, rg_v3(0, 0, 0), rg_quat_identity(), NULL);
    rg_body_add_capsule(w, id, &sd, rg_v3(0, 0.22f, 0), rg_v3(0, 0.3485f, 0), 0.024f, NULL);
    rg_body_add_sphere(w, id, &sd, rg_v3(0, 0.3485f, 0), 0.0325f, NULL);
    return id;
}

/* The ball: one sphere of density 6.35 kg / (4/3 pi r^3), about 1170 kg/m^3. */
static rg_body_id create_ball(rg_world *w, rg_vec3 position, rg_vec3 velocity, rg_vec3 spin) {
    rg_body_def bd = rg_body_default_def();
    rg_shape_def sd = rg_shape_default_def();
    rg_body_id id;
    bd.position = position;
    bd.linear_velocity = velocity;
    bd.angular_velocity = spin;
    id = rg_body_create(w, &bd, NULL);
    sd.density = (rg_real)(ball_mass / (4.0 / 3 * pi * ball_radius * ball_radius * ball_radius));
    sd.restitution = 0.6f;
    sd.static_friction = sd.dynamic_friction = 0.04f;
    sd.rolling_friction = 0.005f; /* slows a rolling ball by 5/7 * 0.005 g = 0.035 m/s^2 */
    rg_body_add_sphere(w, id, &sd, rg_v3(0, 0, 0), (rg_real)ball_radius, NULL);
    return id;
}

/* Whether the pin is down: its axis tilted more than 45 degrees, or off the deck (its base below
   the lane's surface: in the pit or a gutter). */
static int pin_is_down(const rg_world *w, rg_body_id pin) {
    rg_vec3 axis = rg_quat_rotate(rg_body_orientation(w, pin), rg_v3(0, 1, 0));
    return axis.y < cos(pi / 4) || rg_body_position(w, pin).y < -0.02;
}

/* Whether the ball pushed a pin in the last step (the world's contacts, up to 1024 of them). */
static int ball_hit_pin(const rg_world *w, rg_body_id ball, const rg_body_id *pins) {
    static rg_contact contacts[1024];
    int n = rg_world_contacts(w, contacts, 1024), i, k;
    for (i = 0; i < n && i < 1024; ++i)
        for (k = 0; k < PINS; ++k)
            if (contacts[i].normal_impulse > 0 && ((example_same_body(contacts[i].a, ball) && example_same_body(contacts[i].b, pins[k])) ||
                                                   (example_same_body(contacts[i].b, ball) && example_same_body(contacts[i].a, pins[k]))))
                return 1;
    return 0;
}

int main(int argc, char **argv) {
    const double dt = 1.0 / 120, row = 0.3048 * sin(pi / 3), speed = 8;
    /* Released 0.3 m past the foul line and 0.3 m right of centre, aimed 0.15 degrees left,
       rolling (w = v / r about the ball's left-right axis) with a side spin of 3 rad/s about the
       direction of travel: the ball's bottom slides to the right, and the lane's friction,
       opposing it, hooks the ball to the left. The step is 1/120 s: the ball moves 6.7 cm in
       one, about half a pin's width. */
    const double aim = -0.15 * pi / 180, side = -3, z0 = 0.3;
    rg_vec3 direction = rg_v3((rg_real)cos(aim), 0, (rg_real)sin(aim));
    rg_vec3 across = rg_v3_cross(direction, rg_v3(0, 1, 0)); /* to the ball's right */
    example_options o;
    rg_world_def wd = rg_world_default_def();
    rg_world *world;
    rg_hull *pin_body = create_pin_body();
    alley a;
    rg_body_id ids[MAX_STATICS + PINS + 1], pins[PINS], ball;
    recorder *r;
    rg_vec3 at_pins = rg_v3(0, 0, 0), v_at_pins = rg_v3(0, 0, 0), end;
    double speed_at_pins = -1, time_at_pins = 0;
    int i, j, n = 0, step, steps, down = 0;
    if (!example_parse(argc, argv, &o)) return 2;
    if (!pin_body) return 1;
    world = rg_world_create(&wd, NULL);
    a.count = 0;
    build_alley(world, &a);
    /* the triangle: pin 1 at the front, rows of 2, 3 and 4 behind it, 12 in apart */
    for (i = 0; i < 4; ++i)
        for (j = 0; j <= i; ++j, ++n) pins[n] = create_pin(world, pin_body, head_pin_x + i * row, (j - i / 2.0) * 0.3048);
    ball = create_ball(world, rg_v3(0.3f, (rg_real)ball_radius, (rg_real)z0), rg_v3_scale(direction, (rg_real)speed),
                       rg_v3_add(rg_v3_scale(across, (rg_real)(-speed / ball_radius)), rg_v3_scale(direction, (rg_real)side)));
    for (i = 0; i < a.count; ++i) ids[i] = a.ids[i];
    for (i = 0; i < PINS; ++i) ids[a.count + i] = pins[i];
    ids[a.count + PINS] = ball;

    steps = o.steps > 0 ? o.steps : 6 * 120;
    r = example_record_open(&o, world, ids, a.count + PINS + 1, dt);
    record_frame(r, world, 0);
    for (step = 1; step <= steps; ++step) {
        rg_vec3 v = rg_body_linear_velocity(world, ball), p = rg_body_position(world, ball);
        rg_world_step(world, (rg_real)dt);
        if (step % o.every == 0) record_frame(r, world, step * dt);
        if (speed_at_pins < 0 && ball_hit_pin(world, ball, pins)) {
            speed_at_pins = rg_v3_length(v); /* before the step that hit */
            at_pins = p;
            v_at_pins = v;
            time_at_pins = (step - 1) * dt;
        }
    }
    example_record_close(&o, r);

    printf("a %.2f kg ball of radius %.3f m rolled at %.1f m/s, %d pins of %.1f kg, %.1f s\n", ball_mass, ball_radius,
           speed, PINS, pin_mass, steps * dt);
    if (speed_at_pins >= 0)
        printf("the ball reached the pins after %.2f s at %.2f m/s, %.3f m %s of the head pin, heading %.1f degrees %s\n",
               time_at_pins, speed_at_pins, fabs(at_pins.z), at_pins.z >= 0 ? "right" : "left",
               fabs(atan2(v_at_pins.z, v_at_pins.x)) * 180 / pi, v_at_pins.z <= 0 ? "left" : "right");
    else
        printf("the ball did not touch a pin in %.2f s\n", steps * dt);
    printf(" pin   x (m)    z (m)   tilt (deg)\n");
    for (i = 0; i < PINS; ++i) {
        rg_vec3 p = rg_body_position(world, pins[i]), axis = rg_quat_rotate(rg_body_orientation(world, pins[i]), rg_v3(0, 1, 0));
        int is_down = pin_is_down(world, pins[i]);
        down += is_down;
        printf("%4d %7.2f %8.2f %9.1f   %s\n", i + 1, p.x, p.z, acos(axis.y > 1 ? 1 : axis.y) * 180 / pi,
               is_down ? "down" : "standing");
    }
    end = rg_body_position(world, ball);
    printf("%d of %d pins down%s\n", down, PINS, down == PINS ? ": a strike" : "");
    printf("the ball ended at x = %.2f m, y = %.2f m, z = %.2f m (%s), moving at %.2f m/s\n", end.x, end.y, end.z,
           end.x > deck_end_x ? "in the pit" : fabs(end.z) > lane_half_width ? "in a gutter" : "on the lane",
           rg_v3_length(rg_body_linear_velocity(world, ball)));
    {
        double eye[3] = {head_pin_x - 2.5, 2.2, 0.4}, target[3] = {head_pin_x + 0.7, -0.1, 0};
        example_snapshot(&o, world, ids, a.count + PINS + 1, "bowling", eye, target);
    }
    rg_world_destroy(world);
    for (i = 0; i < a.count; ++i) rg_hull_destroy(a.hulls[i]);
    rg_hull_destroy(pin_body);
    return 0;
}
