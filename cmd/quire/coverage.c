#include "cmd.h"
int cmd_coverage(int argc, char **argv) { return 2; }
