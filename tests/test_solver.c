/* Tests of the solver module. */
#include "test.h"

void rg_tests_solver(void) {
}
