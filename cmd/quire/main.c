// SPDX-License-Identifier: MIT
/*
 * main.c - the quire command: reads the first argument and hands the rest
 * to a subcommand (extract.c, check.c, build.c, ...). Nothing here a test
 * would want; the libraries under lib/ do the work.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "qu_config.h"

/* One row per subcommand; the order is the order of "quire --help". */
static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
#ifdef QU_HAVE_BUILD
	{"build", cmd_build, "build the HTML site of a docs tree"},
#endif
	{"init", cmd_init, "write a starter docs folder for a tree"},
#ifdef QU_HAVE_SERVE
	{"serve", cmd_serve, "build, serve and rebuild a site on change"},
#endif
	{"extract", cmd_extract, "print the kernel-doc items of C files"},
	{"check", cmd_check, "print the diagnostics of C files and trees"},
};

static void usage(FILE *f)
{
	fputs("usage: quire [--help | --version] COMMAND [ARG...]\n\n"
	      "quire turns kernel-doc comments and Markdown pages into a\n"
	      "documentation site.\n\ncommands:\n",
	      f);
	for (size_t i = 0; i < QU_ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name,
			commands[i].summary);
	fputs("\n'quire COMMAND --help' describes a command; "
	      "man quire describes them all.\n"
	      "Exit status: 0 success, 1 diagnostics failed the run, "
	      "2 quire could not run.\n",
	      f);
}

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < QU_ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const struct command *cmd;
	int c;

	/* "+": stop at the command's name; its options are its own. */
	while ((c = getopt_long(argc, argv, "+hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return QU_EXIT_OK;
		case 'V':
			puts("quire " QU_VERSION);
			return QU_EXIT_OK;
		default:
			return cmd_usage_error(NULL, "unknown option");
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return QU_EXIT_USAGE;
	}
	if (!strcmp(argv[optind], "help")) {
		if (optind + 1 >= argc) {
			usage(stdout);
			return QU_EXIT_OK;
		}
		cmd = find(argv[optind + 1]);
		if (!cmd)
			return cmd_usage_error(NULL, "unknown command '%s'",
					       argv[optind + 1]);
		char *help[] = {argv[optind + 1], "--help", NULL};

		optind = 0;
		return cmd->fn(2, help);
	}
	cmd = find(argv[optind]);
	if (!cmd)
		return cmd_usage_error(NULL, "unknown command '%s'",
				       argv[optind]);
	argc -= optind;
	argv += optind;
	/* 0, not 1: glibc then forgets the state of the previous scan. */
	optind = 0;
	return cmd->fn(argc, argv);
}
