/* tcc 0.9.27 (Debian, x86-64) and structs returned in registers whose size is not a multiple
   of 8, such as a 12-byte {float x, y, z}.

   The bug: the caller stores the two returned eightbytes (xmm0, xmm1) into a temporary with two
   8-byte stores, but allocates the temporary with the struct's size, (loc - 12) & -8. When the
   previous stack slot ends 4 bytes above an 8-byte boundary (a 4-byte local, a 12-byte struct),
   the second store's upper half lands on it. What is written there is whatever followed z in
   the callee's memory (the callee loads xmm1 with an 8-byte load too): below, the next element
   of the table the callee returns from. The same happens for 12-byte int structs (rax:rdx) and
   for 6-byte structs; 4- and 8- and 16-byte structs are fine.

   The trigger is any such call while the slot above its temporary is live: in rigid.h's tests
   it showed as a loop counter overwritten by the bits of 0.1f (a loop that stopped after one
   turn), and as corrupted arguments of nested calls such as dot(get(0), sub(p, get(1))).

   rigid.h's workaround (see RIGID__VEC3_ALIGN): under tcc on x86-64, rg_vec3's x is aligned to
   8, making the struct 16 bytes, so both stores stay inside it. This program shows the bug on a
   plain 12-byte struct (reported, not asserted: a fixed tcc is welcome) and checks that rg_vec3
   with the same call pattern leaves its neighbour alone. Any compiler may build it. */
#include <stdio.h>
#define RIGID_IMPLEMENTATION
#include "rigid.h"

typedef struct plain3 { float x, y, z; } plain3;
static plain3 plain_table[3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
static rg_vec3 vec3_table[3];

static plain3 plain_get(int i) { return plain_table[i]; }
static rg_vec3 vec3_get(int i) { return vec3_table[i]; }
static float plain_dot(plain3 a, plain3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static plain3 plain_sub(plain3 a, plain3 b) {
    plain3 r;
    r.x = a.x - b.x; r.y = a.y - b.y; r.z = a.z - b.z;
    return r;
}

int main(void) {
    int passed = 0, failed = 0, i, plain_broken = 0;
    for (i = 0; i < 3; ++i) vec3_table[i] = rg_v3((rg_real)(3 * i + 1), (rg_real)(3 * i + 2), (rg_real)(3 * i + 3));
    /* a plain 12-byte struct: the 4-byte local declared after `a` sits right above the
       temporary of the second call */
    {
        plain3 a = plain_get(0);
        int neighbour = 5;
        a = plain_get(1);
        if (neighbour != 5) plain_broken = 1;
        printf("plain 12-byte struct: neighbour %d after the call (5 if the compiler is right)\n", neighbour);
        (void)a;
    }
    {
        plain3 p = {10, 10, 10};
        float d = plain_dot(plain_get(0), plain_sub(p, plain_get(1)));
        if (d != 28) plain_broken = 1;
        printf("plain 12-byte struct: dot(get(0), sub(p, get(1))) = %g (28 if the compiler is right)\n", d);
    }
    printf("this compiler %s 12-byte structs returned in registers\n",
           plain_broken ? "MISCOMPILES" : "handles");
    /* rg_vec3 with the same patterns */
    {
        rg_vec3 a = vec3_get(0);
        int neighbour = 5;
        a = vec3_get(1);
        if (neighbour == 5 && a.x == 4) ++passed; else { ++failed; printf("FAIL rg_vec3 neighbour %d\n", neighbour); }
    }
    {
        rg_vec3 p = rg_v3(10, 10, 10);
        rg_real d = rg_v3_dot(vec3_get(0), rg_v3_sub(p, vec3_get(1)));
        if (d == 28) ++passed; else { ++failed; printf("FAIL rg_v3_dot(get(0), sub(p, get(1))) = %g\n", (double)d); }
    }
    {
        /* the loop of test_rotation_vector_is_exact that stopped after one turn under tcc */
        rg_vec3 rotation = rg_v3((rg_real)0.3, (rg_real)-1.2, (rg_real)0.7);
        rg_quat pieces = rg_quat_identity();
        int turns = 0;
        for (i = 0; i < 10; ++i, ++turns)
            pieces = rg_quat_mul(rg_quat_from_rotation_vector(rg_v3_scale(rotation, (rg_real)0.1)), pieces);
        if (turns == 10 && rg_quat_dot(pieces, rg_quat_from_rotation_vector(rotation)) > (rg_real)0.9999) ++passed;
        else { ++failed; printf("FAIL loop of rotations: %d turns\n", turns); }
    }
    printf("sizeof(rg_vec3) = %d\n", (int)sizeof(rg_vec3));
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
