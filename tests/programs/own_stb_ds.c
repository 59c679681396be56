/* A program that compiles stb_ds itself and turns off its short names. */
#define STBDS_NO_SHORT_NAMES
#define STB_DS_IMPLEMENTATION
#if defined(__GNUC__) && !defined(__clang__)
#define typeof __typeof__
#endif
#include "stb_ds.h"

int own_stb_ds_array_length(void) {
    int *a = NULL;
    int n;
    stbds_arrput(a, 1);
    stbds_arrput(a, 2);
    n = (int)stbds_arrlen(a);
    stbds_arrfree(a);
    return n;
}
