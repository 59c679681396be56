/* The main demo (`make run`). Until the solver lands: a box thrown through the air, tumbling,
   with its trajectory printed against the analytic parabola. */
#define RIGID_IMPLEMENTATION
#include "rigid.h"

#include <stdio.h>

int main(void) {
    rg_world_def wd = rg_world_default_def();
    rg_world *world = rg_world_create(&wd, NULL);
    rg_hull *box = rg_hull_create_box(rg_v3(0.2f, 0.1f, 0.3f), NULL);
    rg_body_def bd = rg_body_default_def();
    rg_body_id id;
    int step;
    bd.hull = box;
    bd.linear_velocity = rg_v3(4, 6, 0);
    bd.angular_velocity = rg_v3(1, 8, 2);
    id = rg_body_create(world, &bd, NULL);
    printf("a box thrown at (4, 6, 0) m/s, spinning at (1, 8, 2) rad/s\n");
    printf("   t      x       y      parabola y   |L| kg m^2/s   energy J\n");
    for (step = 0; step <= 72; ++step) {
        if (step % 6 == 0) {
            rg_real t = step / 60.0f;
            rg_vec3 p = rg_body_center_of_mass(world, id);
            printf("%5.2f %7.3f %7.3f %10.3f %13.5f %10.4f\n", t, p.x, p.y, 6 * t - 0.5f * 9.81f * t * t,
                   rg_v3_length(rg_body_angular_momentum(world, id)), rg_body_kinetic_energy(world, id));
        }
        rg_world_step(world, 1.0f / 60);
    }
    rg_world_destroy(world);
    rg_hull_destroy(box);
    return 0;
}
