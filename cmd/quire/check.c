// SPDX-License-Identifier: MIT
/*
 * check.c - "quire check": parse C files and trees on the thread pool and
 * print their diagnostics only, sorted, so the output is the same for any
 * number of threads.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "kdoc/kdoc.h"
#include "source/source.h"

static const char check_usage[] =
	"usage: quire check [-Werror] [-v] [-q] [-j N] FILE|DIR...\n"
	"\n"
	"Parse the kernel-doc comments of C files and print their diagnostics\n"
	"in compiler format. A directory means every .c and .h file below it.\n"
	"\n"
	"  -W error, -Werror  treat warnings as errors (exit status 1)\n"
	"  -v, --verbose      also give the warnings kernel-doc gives with -v\n"
	"  -q, --quiet        no progress line and no summary line\n"
	"  -j, --jobs N       parse on N threads (default: one per processor)\n"
	"  -h, --help         show this help\n"
	"\n"
	"Exit status: 0 clean or warnings only, 1 errors or warnings under\n"
	"-Werror, 2 bad usage or a missing path.\n";

struct check {
	struct cmd_files files;
	struct qu_kdoc_opts opts;
	struct qu_diags *slots; /* one list per file */
	struct qu_progress progress;
};

static void check_one(struct qu_job *job, size_t i, void *payload)
{
	struct check *c = payload;
	const char *path = c->files.v[i];
	struct qu_diags *out = &c->slots[i];
	struct qu_source *src;
	struct qu_unit u = {0};

	qu_buf_reset(&job->err);
	if (qu_source_read(&src, job, path) < 0) {
		qu_diag(out, QU_W_UNREADABLE, path, 0, 0, "%s",
			cmd_err_text(job->err.buf, path));
		qu_progress_tick(&c->progress, job);
		return;
	}
	qu_kdoc_parse(&u, src, &c->opts);
	qu_diags_move(out, &src->diags);
	/* Like scripts/kernel-doc -none, which never says it found none. */
	cmd_diags_drop(&u.diags, QU_W_NO_STRUCTURED_COMMENTS);
	qu_diags_move(out, &u.diags);
	/* The source dies here; the slot's list points at our own path. */
	for (size_t k = 0; k < out->n; k++)
		out->v[k].path = path;
	qu_unit_fini(&u);
	qu_source_free(src);
	qu_progress_tick(&c->progress, job);
}

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"verbose", no_argument, NULL, 'v'},
		{"quiet", no_argument, NULL, 'q'},
		{"jobs", required_argument, NULL, 'j'},
		{"werror", no_argument, NULL, 'E'},
		{NULL, 0, NULL, 0},
	};
	struct check c = {0};
	struct qu_diags all;
	bool werror = false, quiet = false;
	unsigned threads = 0;
	size_t nerr = 0, nwarn = 0, nfiles = 0;
	int opt, rc = QU_EXIT_OK;

	while ((opt = getopt_long(argc, argv, "hvqj:W:", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 'h':
			fputs(check_usage, stdout);
			return QU_EXIT_OK;
		case 'v':
			c.opts.verbose = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'j':
			if (cmd_parse_jobs(&threads, optarg) < 0)
				return cmd_usage_error(
					"check", "bad -j value '%s'", optarg);
			break;
		case 'W':
			if (cmd_parse_werror(optarg) < 0)
				return cmd_usage_error(
					"check", "unknown option -W%s", optarg);
			/* fall through */
		case 'E':
			werror = true;
			break;
		default:
			return cmd_usage_error("check", "bad arguments");
		}
	}
	if (optind >= argc)
		return cmd_usage_error("check", "no FILE or DIR given");
	for (int i = optind; i < argc; i++) {
		if (cmd_files_expand(&c.files, "check", argv[i], true) < 0) {
			cmd_files_fini(&c.files);
			return QU_EXIT_USAGE;
		}
	}

	c.slots = qu_xcalloc(c.files.n ? c.files.n : 1, sizeof(*c.slots));
	qu_progress_init(&c.progress, c.files.n, quiet);
	qu_pool_run(threads, c.files.n, check_one, &c);
	qu_progress_done(&c.progress);

	qu_diags_init(&all);
	for (size_t i = 0; i < c.files.n; i++) {
		if (c.slots[i].n)
			nfiles++;
		qu_diags_move(&all, &c.slots[i]);
	}
	qu_diags_sort(&all);
	qu_diags_count(&nerr, &nwarn, &all);
	/* under -Werror every warning is printed and counted as an error */
	if (werror) {
		nerr += nwarn;
		nwarn = 0;
	}
	fflush(stdout);
	qu_diags_print(&all, stderr, werror);
	/* Like compilers and linters: a summary only when there is news. */
	if (!quiet && all.n) {
		fputs("quire: ", stderr);
		if (nerr)
			fprintf(stderr, "%zu error%s%s", nerr,
				nerr == 1 ? "" : "s", nwarn ? " and " : "");
		if (nwarn)
			fprintf(stderr, "%zu warning%s", nwarn,
				nwarn == 1 ? "" : "s");
		fprintf(stderr, " in %zu file%s (%zu checked)\n", nfiles,
			nfiles == 1 ? "" : "s", c.files.n);
	}
	if (nerr)
		rc = QU_EXIT_FAIL;
	qu_diags_fini(&all);
	free(c.slots);
	cmd_files_fini(&c.files);
	return rc;
}
