/* Tests of the collide module. */
#include "test.h"

void rg_tests_collide(void) {
}
