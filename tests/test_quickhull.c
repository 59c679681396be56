/* Tests of the quickhull module. */
#include "test.h"

void rg_tests_quickhull(void) {
}
