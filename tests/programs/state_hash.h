/* state_hash.h: a 64-bit FNV-1a hash of a world's state, for tests/programs/determinism.c
   (hashes compared across compilers) and tests/fuzz/fuzz_world.c (a script run twice, a refused
   call that must change nothing). The same bits give the same hash. Header-only, static;
   rigid.h comes first. */
#ifndef RIGID_STATE_HASH_H
#define RIGID_STATE_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct hash64 { uint64_t h; } hash64;

#define HASH64_INIT {14695981039346656037ull}   /* FNV offset basis */

static inline void hash_bytes(hash64 *s, const void *data, size_t n) {
    const unsigned char *p = (const unsigned char *)data;
    size_t i;
    for (i = 0; i < n; ++i) {
        s->h ^= p[i];
        s->h *= 1099511628211ull;   /* FNV-1a 64-bit prime */
    }
}
/* one rg_real at a time: rg_vec3 has padding under tcc, and padding bytes are not state */
static inline void hash_real(hash64 *s, rg_real x) { hash_bytes(s, &x, sizeof x); }
static inline void hash_vec3(hash64 *s, rg_vec3 v) { hash_real(s, v.x); hash_real(s, v.y); hash_real(s, v.z); }
static inline void hash_quat(hash64 *s, rg_quat q) {
    hash_real(s, q.x); hash_real(s, q.y); hash_real(s, q.z); hash_real(s, q.w);
}

#endif
