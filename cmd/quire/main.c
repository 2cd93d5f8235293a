// SPDX-License-Identifier: MIT
/* main.c - the quire command: argument parsing and subcommands only */
#include <stdio.h>

#include "qu_config.h"

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	puts("quire " QU_VERSION);
	return 0;
}
