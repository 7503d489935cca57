/* placeholder, replaced below */
#include "util.h"
Suite *suite(void) { return suite_create("property"); }
OST_TEST_MAIN
