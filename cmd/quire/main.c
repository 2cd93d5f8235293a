// SPDX-License-Identifier: MIT
/*
 * main.c - the quire command: reads the first argument and hands the rest
 * to a subcommand (extract.c, check.c, build.c, ...). Nothing here a test
 * would want; the libraries under lib/ do the work.
 */
#include <getopt.h>
#include <stdbool.h>
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

/*
 * One row per subcommand; the order is the order of "quire --help".
 * @pages: the command calls qu_mem_huge() itself when its work is large
 * (the build pipeline); the others have it called before they start.
 */
static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	bool pages;
} commands[] = {
#ifdef QU_HAVE_BUILD
	{"build", cmd_build, "build the HTML site of a docs tree", true},
#endif
	{"init", cmd_init, "write a starter docs folder for a tree", false},
#ifdef QU_HAVE_SERVE
	{"serve", cmd_serve, "build, serve and rebuild a site on change", true},
#endif
	{"extract", cmd_extract, "print the kernel-doc items of C files",
	 false},
	{"check", cmd_check, "print the diagnostics of C files and trees",
	 false},
	{"man", cmd_man, "write section-9 man pages of C files and trees",
	 false},
	{"coverage", cmd_coverage, "which exported symbols lack kernel-doc",
	 false},
};

#ifdef QU_MIMALLOC
/* the main thread's first segment (large_pages()), and its size */
static uintptr_t main_seg;
#define MAIN_SEG_SIZE ((uintptr_t)32 << 20)

/*
 * The heap in 2 MB pages where the kernel gives them (transparent huge
 * pages set to "madvise" or "always"), from the moment the command knows
 * its work is large (qu_mem_huge()): a build that fills hundreds of
 * megabytes it touches once pays a fault for each 4 KB page of them
 * otherwise: a fifth of the kernel's Documentation/, and the kernel's
 * zero-config site built clean in 6.3 s instead of 4.6 s
 * (docs/commands/build.md, "Measured"). A small build stays in 4 KB
 * pages, which fault in faster where memory is fresh.
 *
 * mimalloc takes its large-page option for the memory it asks the kernel
 * for from then on, and for every thread's first segment only when the
 * eager commit is not delayed. The main thread's first segment, 32 MB
 * aligned in mimalloc 2, was reserved before main() and is advised here.
 * Were the layout other, the advice would fail or reach other anonymous
 * memory of the process, which it only makes eligible for huge pages.
 * The build's other threads may be allocating meanwhile: mimalloc reads
 * the option each time it maps memory, and a mapping made just before
 * the switch stays in 4 KB pages.
 */
static void huge_pages(void)
{
	mi_option_enable(mi_option_large_os_pages);
	if (main_seg)
		madvise((void *)main_seg, MAIN_SEG_SIZE, MADV_HUGEPAGE);
}

/*
 * MIMALLOC_LARGE_OS_PAGES in the environment decides for mimalloc, which
 * reads it itself (0 keeps 4 KB pages, 1 takes 2 MB ones from the start).
 */
static void large_pages(void)
{
	void *p;

	if (getenv("MIMALLOC_LARGE_OS_PAGES"))
		return;
	mi_option_set(mi_option_eager_commit_delay, 0);
	p = malloc(1);
	if (!p)
		return;
	main_seg = (uintptr_t)p & ~(MAIN_SEG_SIZE - 1);
	free(p);
	qu_mem_on_huge(huge_pages);
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
	if (!cmd->pages)
		qu_mem_huge();
	return cmd->fn(argc, argv);
}
