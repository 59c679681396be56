/* Tests of the reliability module. */
#include "test.h"

void rg_tests_reliability(void) {
}
