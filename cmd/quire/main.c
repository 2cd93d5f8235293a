// SPDX-License-Identifier: MIT
/*
 * main.c - the quire command: reads the first argument and hands the rest
 * to a subcommand (extract.c, check.c, build.c, ...). Nothing here a test
 * would want; the libraries under lib/ do the work.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef QU_MIMALLOC
#include <mimalloc.h>
#include <stdint.h>
#include <sys/mman.h>
#endif

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
	{"man", cmd_man, "write section-9 man pages of C files and trees"},
	{"coverage", cmd_coverage, "which exported symbols lack kernel-doc"},
};

#ifdef QU_MIMALLOC
/*
 * The heap in 2 MB pages where the kernel gives them (transparent huge
 * pages set to "madvise" or "always"). A build fills tens to hundreds of
 * megabytes that it touches once; a fault for each 4 KB page of them is
 * a third of a small build's time where faults are dear, and a fifth of
 * the kernel's Documentation/ (docs/commands/build.md, "Measured"). The
 * price is memory: about 45% more at the peak.
 *
 * mimalloc takes its large-page option for the memory it asks the kernel
 * for from now on, and for every thread's first segment only when the
 * eager commit is not delayed. The main thread's first segment, 32 MB
 * aligned in mimalloc 2, was reserved before main() and is advised here.
 * Were the layout other, the advice would fail or reach other anonymous
 * memory of the process, which it only makes eligible for huge pages.
 * MIMALLOC_LARGE_OS_PAGES=0 in the environment keeps 4 KB pages.
 */
static void large_pages(void)
{
	const uintptr_t seg_size = (uintptr_t)32 << 20;
	uintptr_t seg;
	void *p;

	if (getenv("MIMALLOC_LARGE_OS_PAGES"))
		return;
	mi_option_enable(mi_option_large_os_pages);
	mi_option_set(mi_option_eager_commit_delay, 0);
	p = malloc(1);
	if (!p)
		return;
	seg = (uintptr_t)p & ~(seg_size - 1);
	madvise((void *)seg, seg_size, MADV_HUGEPAGE);
	free(p);
}
#endif

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

#ifdef QU_MIMALLOC
	large_pages();
#endif
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
