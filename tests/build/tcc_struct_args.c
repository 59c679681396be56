/* Reproducer, not a test: tcc 0.9.27 on x86-64 passes a 12-byte float struct wrongly when an
   argument is itself a call returning such a struct. Expected output: 28 and 20 30 40.
   Build: tcc tests/build/tcc_struct_args.c -o /tmp/tcc_bug && /tmp/tcc_bug */
#include <stdio.h>
typedef struct V { float x, y, z; } V;
typedef struct M { float m[3][3]; } M;
static V table[2] = {{1, 2, 3}, {4, 5, 6}};
static V get(const V *t, int i) { return t[i]; }
static V sub(V a, V b) { V r; r.x = a.x - b.x; r.y = a.y - b.y; r.z = a.z - b.z; return r; }
static float dot(V a, V b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static V diagonal_times(M m, V v) { V r; r.x = m.m[0][0] * v.x; r.y = m.m[1][1] * v.y; r.z = m.m[2][2] * v.z; return r; }
static V same(V v) { return v; }
int main(void) {
    V p = {10, 10, 10};
    M m = {{{2, 0, 0}, {0, 3, 0}, {0, 0, 4}}};
    V r = diagonal_times(m, same(p));
    printf("%g\n", dot(get(table, 0), sub(p, get(table, 1))));
    printf("%g %g %g\n", r.x, r.y, r.z);
    return 0;
}
