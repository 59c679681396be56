/* RIGID_STATIC: two files each with a private copy of the implementation link together. The
   second file keeps stb_ds's (extern) implementation out with RIGID_NO_STB_DS_IMPLEMENTATION. */
#include <stdio.h>
#define RIGID_STATIC
#define RIGID_IMPLEMENTATION
#include "rigid.h"

int static_b_volume_times_1000(void);

int main(void) {
    int passed = 0, failed = 0;
    rg_hull *box = rg_hull_create_box(rg_v3(1, 1, 1), NULL);
    if (box && (int)(rg_hull_volume(box) * 1000 + 0.5f) == 8000) ++passed; else ++failed;
    if (static_b_volume_times_1000() == 1000) ++passed; else ++failed;
    rg_hull_destroy(box);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
