/* Links with a program that compiles stb_ds itself (RIGID_NO_STB_DS_IMPLEMENTATION), and
   checks that stb_ds's short names do not leak out of the public part of rigid.h. */
#include <stdio.h>
#include "rigid.h"
#if defined(arrput) || defined(hmget) || defined(arrlen)
#error "stb_ds short names leaked out of the public part of rigid.h"
#endif
#define STBDS_NO_SHORT_NAMES
#define RIGID_NO_STB_DS_IMPLEMENTATION
#define RIGID_IMPLEMENTATION
#include "rigid.h"

int own_stb_ds_array_length(void);

int main(void) {
    int passed = 0, failed = 0, i;
    rg_world_def wd = rg_world_default_def();
    rg_world *w = rg_world_create(&wd, NULL);
    rg_hull *box = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    rg_body_def bd = rg_body_default_def();
    bd.hull = box;
    for (i = 0; i < 20; ++i) rg_body_create(w, &bd, NULL);
    rg_world_step(w, 1.0f / 60);
    if (rg_world_get_stats(w).body_count == 20) ++passed; else ++failed;
    if (own_stb_ds_array_length() == 2) ++passed; else ++failed;
    rg_world_destroy(w);
    rg_hull_destroy(box);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
