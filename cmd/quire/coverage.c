// SPDX-License-Identifier: MIT
/*
 * coverage.c - "quire coverage": which exported symbols of C files and
 * trees have kernel-doc, and which documented items describe all their
 * parameters. Arguments, output and exit status; lib/cover counts.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "cover/cover.h"

static const char coverage_usage[] =
	"usage: quire coverage [--json] [--by-maintainer] [-C DIR] [-j N]\n"
	"                      FILE|DIR...\n"
	"\n"
	"For every symbol named by an EXPORT_SYMBOL*() in the given files,\n"
	"say whether a kernel-doc comment anywhere in the tree documents it;\n"
	"for every documented item of the given files, whether it describes\n"
	"all its parameters. Prints totals per directory as a sorted table.\n"
	"The tree is the current directory: run it at the top of the tree,\n"
	"or name the top with -C.\n"
	"\n"
	"  --json             JSON Lines: every export, item and total\n"
	"                     (schema: docs/commands/coverage.md)\n"
	"  --by-maintainer    totals per entry of the tree's MAINTAINERS\n"
	"  -C DIR             the top of the tree (default: .)\n"
	"  -j, --jobs N       read on N threads (default: one per processor)\n"
	"  -h, --help         show this help\n"
	"\n"
	"Exit status: 0 success, 1 a file could not be read, 2 bad usage, a\n"
	"missing path or MAINTAINERS.\n";

static bool is_dir(const char *path, void *payload)
{
	struct stat st;

	(void)payload;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int read_maintainers(struct qu_maintainers *m)
{
	struct qu_buf text = QU_BUF_INIT, err = QU_BUF_INIT;
	int rc = 0;

	if (qu_file_read(&text, "MAINTAINERS", &err) < 0) {
		fprintf(stderr, "quire coverage: %s\n", err.buf);
		rc = -1;
	} else {
		qu_maint_parse(m, text.buf, text.len, is_dir, NULL);
	}
	qu_buf_fini(&text);
	qu_buf_fini(&err);
	return rc;
}

int cmd_coverage(int argc, char **argv)
{
	enum { OPT_JSON = 256, OPT_MAINT };
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"json", no_argument, NULL, OPT_JSON},
		{"by-maintainer", no_argument, NULL, OPT_MAINT},
		{"jobs", required_argument, NULL, 'j'},
		{NULL, 0, NULL, 0},
	};
	struct cmd_files tree = {0}, scope = {0};
	struct qu_maintainers maint;
	struct qu_cover cov;
	struct qu_cover_input in = {0};
	struct qu_diags diags;
	struct qu_buf out = QU_BUF_INIT;
	bool json = false, by_maint = false, have_maint = false;
	const char *dir = NULL;
	int opt, rc = QU_EXIT_USAGE;

	while ((opt = getopt_long(argc, argv, "hC:j:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			fputs(coverage_usage, stdout);
			return QU_EXIT_OK;
		case OPT_JSON:
			json = true;
			break;
		case OPT_MAINT:
			by_maint = true;
			break;
		case 'C':
			dir = optarg;
			break;
		case 'j':
			if (cmd_parse_jobs(&in.threads, optarg) < 0)
				return cmd_usage_error(
					"coverage", "bad -j value '%s'", optarg);
			break;
		default:
			return cmd_usage_error("coverage", "bad arguments");
		}
	}
	if (optind >= argc)
		return cmd_usage_error("coverage", "no FILE or DIR given");
	if (dir && chdir(dir) < 0) {
		fprintf(stderr, "quire coverage: %s: %s\n", dir,
			strerror(errno));
		return QU_EXIT_USAGE;
	}
	for (int i = optind; i < argc; i++)
		if (cmd_files_expand(&scope, "coverage", argv[i], true) < 0)
			goto out;
	if (cmd_files_expand(&tree, "coverage", ".", true) < 0)
		goto out;
	if (by_maint) {
		if (read_maintainers(&maint) < 0)
			goto out;
		have_maint = true;
	}
	in.tree = (const char *const *)tree.v;
	in.ntree = tree.n;
	in.scope = (const char *const *)scope.v;
	in.nscope = scope.n;
	in.maint = have_maint ? &maint : NULL;
	qu_diags_init(&diags);
	qu_cover_run(&cov, &in, &diags);
	if (json)
		qu_cover_dump_json(&out, &cov, by_maint);
	else
		qu_cover_dump_text(&out, &cov, by_maint);
	rc = QU_EXIT_OK;
	if (fwrite(out.buf, 1, out.len, stdout) != out.len || fflush(stdout)) {
		perror("quire coverage: standard output");
		rc = QU_EXIT_USAGE;
	}
	qu_diags_sort(&diags);
	qu_diags_print(&diags, stderr, false);
	for (size_t i = 0; i < diags.n && rc == QU_EXIT_OK; i++)
		if (qu_diag_info(diags.v[i].id)->level == QU_LEVEL_ERROR)
			rc = QU_EXIT_FAIL;
	qu_diags_fini(&diags);
	qu_cover_fini(&cov);
	if (have_maint)
		qu_maint_fini(&maint);
out:
	qu_buf_fini(&out);
	cmd_files_fini(&tree);
	cmd_files_fini(&scope);
	return rc;
}
