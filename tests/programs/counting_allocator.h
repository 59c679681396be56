/* An allocator for rigid.h's RIGID_MALLOC/REALLOC/FREE hooks that counts calls and live bytes.
   Include it before the implementation of rigid.h:

      #include "counting_allocator.h"
      #define RIGID_IMPLEMENTATION
      #include "rigid.h"

   Every block carries a 16-byte header with its size, so the live byte count is exact. stb_ds
   allocates through RIGID_REALLOC too (rigid.h defines STBDS_REALLOC that way), so its growable
   arrays and hash maps are counted. */
#ifndef RIGID_COUNTING_ALLOCATOR_H
#define RIGID_COUNTING_ALLOCATOR_H

#include <stdlib.h>
#include <string.h>

typedef struct counting_allocator_stats {
    long long calls;        /* malloc, realloc and free calls that did something */
    long long allocations;  /* malloc, and realloc of NULL */
    long long reallocations;/* realloc of a live block */
    long long frees;
    long long live_bytes, peak_bytes;
    long long live_blocks;
} counting_allocator_stats;

static counting_allocator_stats counting_allocator;

#define COUNTING_HEADER 16

static void counting__account(long long delta) {
    counting_allocator.live_bytes += delta;
    if (counting_allocator.live_bytes > counting_allocator.peak_bytes)
        counting_allocator.peak_bytes = counting_allocator.live_bytes;
}

static void *counting_malloc(size_t size, void *ctx) {
    char *block = (char *)malloc(size + COUNTING_HEADER);
    (void)ctx;
    if (!block) return NULL;
    memcpy(block, &size, sizeof size);
    ++counting_allocator.calls;
    ++counting_allocator.allocations;
    ++counting_allocator.live_blocks;
    counting__account((long long)size);
    return block + COUNTING_HEADER;
}

static void counting_free(void *p, void *ctx) {
    char *block;
    size_t size;
    (void)ctx;
    if (!p) return;
    block = (char *)p - COUNTING_HEADER;
    memcpy(&size, block, sizeof size);
    ++counting_allocator.calls;
    ++counting_allocator.frees;
    --counting_allocator.live_blocks;
    counting__account(-(long long)size);
    free(block);
}

static void *counting_realloc(void *p, size_t size, void *ctx) {
    char *block;
    size_t old;
    if (!p) return counting_malloc(size, ctx);
    if (size == 0) {
        counting_free(p, ctx);
        return NULL;
    }
    block = (char *)p - COUNTING_HEADER;
    memcpy(&old, block, sizeof old);
    block = (char *)realloc(block, size + COUNTING_HEADER);
    if (!block) return NULL;
    memcpy(block, &size, sizeof size);
    ++counting_allocator.calls;
    ++counting_allocator.reallocations;
    counting__account((long long)size - (long long)old);
    return block + COUNTING_HEADER;
}

#define RIGID_MALLOC(size, ctx) counting_malloc((size), (ctx))
#define RIGID_REALLOC(ptr, size, ctx) counting_realloc((ptr), (size), (ctx))
#define RIGID_FREE(ptr, ctx) counting_free((ptr), (ctx))

#endif
