/* Tests of the broadphase module. */
#include "test.h"

void rg_tests_broadphase(void) {
}
