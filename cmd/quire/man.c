// SPDX-License-Identifier: MIT
/*
 * man.c - "quire man": section-9 man pages of the items of C files and
 * trees. Arguments, the summary line and the exit status; lib/man reads
 * the files, names the pages and writes them.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "git/git.h"
#include "man/man.h"

static const char man_usage[] =
	"usage: quire man [-o DIR] [-j N] [-Werror] [-q] FILE|DIR...\n"
	"\n"
	"Write a section-9 man page for every documented function, macro,\n"
	"struct, union, enum, typedef and variable of C files, as\n"
	"DIR/man9/NAME.9. A directory means every .c and .h file below it.\n"
	"The date comes from SOURCE_DATE_EPOCH, else from the git commit.\n"
	"\n"
	"  -o, --output DIR   the man folder (default: man); MANPATH=DIR\n"
	"  -j, --jobs N       work on N threads (default: one per processor)\n"
	"  -W error, -Werror  treat warnings as errors (exit status 1)\n"
	"  -q, --quiet        no summary line\n"
	"  -h, --help         show this help\n"
	"\n"
	"Exit status: 0 success, 1 errors or warnings under -Werror,\n"
	"2 bad usage, a missing path or a page that cannot be written.\n";

static double now(void)
{
	struct timespec ts;

	/* for the summary line only; pages never see the clock */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cmd_man(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"output", required_argument, NULL, 'o'},
		{"jobs", required_argument, NULL, 'j'},
		{"quiet", no_argument, NULL, 'q'},
		{"werror", no_argument, NULL, 'E'},
		{NULL, 0, NULL, 0},
	};
	struct cmd_files files = {0};
	struct qu_man_input in;
	struct qu_man_set set;
	struct qu_man_opts opts = {0};
	struct qu_buf date = QU_BUF_INIT, err = QU_BUF_INIT;
	const char *dir = "man";
	bool werror = false, quiet = false;
	unsigned threads = 0;
	size_t nerr = 0, nwarn = 0;
	double t0 = now();
	int opt, rc = QU_EXIT_USAGE;

	while ((opt = getopt_long(argc, argv, "ho:j:qW:", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 'h':
			fputs(man_usage, stdout);
			return QU_EXIT_OK;
		case 'o':
			dir = optarg;
			break;
		case 'j':
			if (cmd_parse_jobs(&threads, optarg) < 0)
				return cmd_usage_error(
					"man", "bad -j value '%s'", optarg);
			break;
		case 'q':
			quiet = true;
			break;
		case 'W':
			if (cmd_parse_werror(optarg) < 0)
				return cmd_usage_error(
					"man", "unknown option -W%s", optarg);
			/* fall through */
		case 'E':
			werror = true;
			break;
		default:
			return cmd_usage_error("man", "bad arguments");
		}
	}
	if (optind >= argc)
		return cmd_usage_error("man", "no FILE or DIR given");
	for (int i = optind; i < argc; i++)
		if (cmd_files_expand(&files, "man", argv[i], true) < 0)
			goto out_files;

	if (qu_man_date(&date, argv[optind], &err) < 0) {
		fprintf(stderr, "quire man: %s\n", err.buf);
		goto out_files;
	}
	opts.date = date.buf;
	cmd_note_git("man");

	qu_man_input_read(&in, (const char *const *)files.v, files.n, threads);
	qu_man_set_init(&set, in.units, in.n);
	if (qu_man_write(dir, &set, &opts, threads, &err) < 0) {
		fprintf(stderr, "quire man: %s\n", err.buf);
		goto out_set;
	}
	for (size_t i = 0; i < in.diags.n; i++) {
		if (qu_diag_info(in.diags.v[i].id)->level == QU_LEVEL_ERROR)
			nerr++;
		else
			nwarn++;
	}
	qu_diags_print(&in.diags, stderr, werror);
	if (!quiet)
		fprintf(stderr,
			"quire man: %zu pages from %zu files (%zu names "
			"documented twice), %zu warnings, %.2f s: %s/man9\n",
			set.npages, files.n, set.dropped, nwarn + nerr,
			now() - t0, dir);
	rc = nerr || (werror && nwarn) ? QU_EXIT_FAIL : QU_EXIT_OK;
out_set:
	qu_man_set_fini(&set);
	qu_man_input_fini(&in);
out_files:
	cmd_files_fini(&files);
	qu_buf_fini(&date);
	qu_buf_fini(&err);
	return rc;
}
