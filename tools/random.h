/* random.h: the random numbers of the benchmarks, the benchmark scenes and the test programs,
   two generators with the state kept by the caller. Header-only, static; C99 and C++. The
   sequences are part of the results (benchmark scenes, fuzz seeds, determinism hashes): every
   caller keeps its own seed, and changing a generator changes them all. */
#ifndef RIGID_RANDOM_H
#define RIGID_RANDOM_H

/* xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift generators,
   scrambled", 2016): uniform in [0, 1), the top 53 bits of the scrambled state. The state must
   not be 0. The benchmarks' generator. */
static inline double random_xorshift(unsigned long long *state) {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return (double)((*state * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

/* uniform in [lo, hi), from random_xorshift */
static inline double random_uniform(unsigned long long *state, double lo, double hi) {
    return lo + (hi - lo) * random_xorshift(state);
}

/* A 64-bit linear congruential generator (Knuth's MMIX constants): uniform in [0, 1), the top
   53 bits of the state. The generator of the scenes' jitter and of the determinism and soak
   programs. */
static inline double random_lcg(unsigned long long *state) {
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) / 9007199254740992.0;
}

#endif
