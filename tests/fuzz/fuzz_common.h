/* Shared by the libFuzzer harnesses of rigid.h: a reader that turns the fuzzer's bytes into
   values, biased towards the ones that break things (NaN, infinities, signed zeros, the
   validation limits and just beyond them, subnormals, huge and tiny numbers) and towards small
   plain numbers that make real scenes. Reading past the end gives zeros, so every input is a
   complete script.

   Every harness also builds without libFuzzer with -DFUZZ_SEED_MAIN: then it is a program that
   writes its seed corpus into the directory given as its argument (`make fuzz` does this), so
   no binary seed files live in the repository. */
#ifndef RIGID_FUZZ_COMMON_H
#define RIGID_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <math.h>
#include <float.h>

typedef struct fuzz_reader {
    const uint8_t *data;
    size_t size, at;
} fuzz_reader;

static inline uint8_t fuzz_u8(fuzz_reader *r) { return r->at < r->size ? r->data[r->at++] : 0; }
static inline uint32_t fuzz_u32(fuzz_reader *r) {
    uint32_t v = 0;
    int i;
    for (i = 0; i < 4; ++i) v = v << 8 | fuzz_u8(r);
    return v;
}
static inline int fuzz_done(const fuzz_reader *r) { return r->at >= r->size; }

/* A number from one selector byte (and more bytes for some kinds). */
static inline double fuzz_number(fuzz_reader *r) {
    uint8_t kind = fuzz_u8(r);
    switch (kind % 24) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return 0.0;
    case 4: return -0.0;
    case 5: return 1e15;                     /* the magnitude limit: accepted */
    case 6: return -2e15;                    /* beyond it */
    case 7: return 1e30;
    case 8: return 1e-30;
    case 9: return (double)FLT_MAX;
    case 10: return (double)FLT_MIN / 8;     /* subnormal in float */
    case 11: {                               /* raw float bits */
        uint32_t bits = fuzz_u32(r);
        float f;
        memcpy(&f, &bits, sizeof f);
        return (double)f;
    }
    case 12: return (double)(int8_t)fuzz_u8(r) * 1000.0;
    case 13: return 1.0 + (double)fuzz_u8(r) / 256.0 * 1e-6;   /* nearly one */
    default: return (double)(int8_t)fuzz_u8(r) / 16.0;        /* -8 .. 8 in sixteenths */
    }
}

/* Three numbers, read in order. Never read two values as arguments of one call: the order in
   which arguments are evaluated is unspecified (gcc and clang differ), and so would be the
   meaning of an input. */
static inline void fuzz_numbers3(fuzz_reader *r, double out[3]) {
    out[0] = fuzz_number(r);
    out[1] = fuzz_number(r);
    out[2] = fuzz_number(r);
}

/* mostly plain numbers: for the parts of a script that should usually be valid */
static inline double fuzz_plain(fuzz_reader *r) {
    uint8_t kind = fuzz_u8(r);
    if (kind < 240) return (double)(int8_t)fuzz_u8(r) / 16.0;
    return fuzz_number(r);
}

static inline void fuzz_plains3(fuzz_reader *r, double out[3]) {
    out[0] = fuzz_plain(r);
    out[1] = fuzz_plain(r);
    out[2] = fuzz_plain(r);
}

#ifdef FUZZ_SEED_MAIN
/* The seed programs: one seed input, `bytes`, written to the file dir/name (exits on failure). */
static inline void fuzz_write_seed(const char *dir, const char *name, const uint8_t *bytes, size_t n) {
    char path[1024];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f) { perror(path); exit(1); }
    fwrite(bytes, 1, n, f);
    fclose(f);
}
#endif

#endif
