/* Configuration macros: a custom allocator that counts and checks its context, a custom
   assert, and the header included twice (the second time with the implementation). */
#include <stdio.h>
#include <stdlib.h>
#include "rigid.h"

static int allocations, frees, asserts_checked, asserts_failed, wrong_context;
static int world_context_tag;

static void *counting_malloc(size_t size, void *ctx) {
    if (ctx != NULL && ctx != &world_context_tag) ++wrong_context;
    ++allocations;
    return malloc(size);
}
static void *counting_realloc(void *p, size_t size, void *ctx) {
    if (ctx != NULL && ctx != &world_context_tag) ++wrong_context;
    if (!p) ++allocations;
    return realloc(p, size);
}
static void counting_free(void *p, void *ctx) {
    if (ctx != NULL && ctx != &world_context_tag) ++wrong_context;
    if (p) ++frees;
    free(p);
}

#define RIGID_MALLOC(size, ctx) counting_malloc((size), (ctx))
#define RIGID_REALLOC(ptr, size, ctx) counting_realloc((ptr), (size), (ctx))
#define RIGID_FREE(ptr, ctx) counting_free((ptr), (ctx))
#define RIGID_ASSERT(x) ((void)(++asserts_checked, (x) ? 0 : ++asserts_failed))
#define RIGID_IMPLEMENTATION
#include "rigid.h"

int main(void) {
    int passed = 0, failed = 0, i;
    rg_world_def wd = rg_world_default_def();
    rg_world *w;
    rg_hull *box, *slab;
    rg_body_def bd = rg_body_default_def(), ground = rg_body_default_def();
    wd.allocator_context = &world_context_tag;
    w = rg_world_create(&wd, NULL);
    box = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), NULL);
    slab = rg_hull_create_box(rg_v3(60, 0.5f, 2), NULL);
    /* a row of cubes resting on a slab, so that the solver's invariants are checked too */
    ground.type = RG_BODY_STATIC;
    ground.hull = slab;
    ground.position = rg_v3(49, -1, 0);
    rg_body_create(w, &ground, NULL);
    bd.hull = box;
    for (i = 0; i < 50; ++i) {
        bd.position = rg_v3((rg_real)i * 2, 0, 0);
        rg_body_create(w, &bd, NULL);
    }
    for (i = 0; i < 10; ++i) rg_world_step(w, 1.0f / 60);
    rg_world_destroy(w);
    rg_hull_destroy(box);
    rg_hull_destroy(slab);
#define CHECK(c) do { if (c) ++passed; else { ++failed; printf("FAIL %s\n", #c); } } while (0)
    CHECK(allocations > 0);
    CHECK(allocations == frees);   /* every allocation went through the hooks and came back */
    CHECK(wrong_context == 0);
    CHECK(asserts_checked > 0);    /* RIGID_ASSERT checks the internal invariants... */
    CHECK(asserts_failed == 0);    /* ...and they hold */
    printf("allocations %d, frees %d, internal checks %d\n", allocations, frees, asserts_checked);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
