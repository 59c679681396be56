#define RIGID_STATIC
#define RIGID_NO_STB_DS_IMPLEMENTATION
#define RIGID_IMPLEMENTATION
#include "rigid.h"

int static_b_volume_times_1000(void) {
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    int v = box ? (int)(rg_hull_volume(box) * 1000 + 0.5f) : -1;
    rg_hull_destroy(box);
    return v;
}
