// SPDX-License-Identifier: MIT
/*
 * build.c - quire build: a docs tree (or a bare source tree) to a site
 *
 * Arguments, the summary line and the exit code; lib/build runs the
 * pipeline.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "build/build.h"
#include "cmd.h"

static void usage(void)
{
	puts("usage: quire build [DIR] [-o OUT] [-j N] [--cache DIR | "
	     "--no-cache]\n"
	     "                   [--depfile FILE] [-Werror] [--quiet]\n"
	     "                   [--rev REV [--repo PATH]] [--versions FILE]\n"
	     "\n"
	     "Build the HTML site of DIR (default: the current folder) into\n"
	     "OUT (default: _site). With DIR/quire.yml, its Markdown pages\n"
	     "and {kernel-doc} directives; without, the API reference of\n"
	     "every documented .c and .h file below DIR.\n"
	     "\n"
	     "  -o OUT          where the site goes; replaced as a whole at "
	     "the end,\n"
	     "                  and only if it is missing, empty or a quire "
	     "site\n"
	     "  -j N            worker threads (default: one per processor)\n"
	     "  --cache DIR     keep what the next build reuses in DIR\n"
	     "                  (default: .quire-cache beside OUT)\n"
	     "  --no-cache      render every page; keep no cache\n"
	     "  --depfile FILE  write every input read to FILE, for ninja "
	     "or make\n"
	     "  --rev REV       build the docs as they are at REV (a tag, a "
	     "branch,\n"
	     "                  a commit), read from git's object database; "
	     "DIR is\n"
	     "                  then a folder of that revision\n"
	     "  --repo PATH     the repository of --rev (default: the "
	     "current folder);\n"
	     "                  a bare repository works\n"
	     "  --versions FILE build the versions FILE's versions: lists "
	     "(as\n"
	     "                  DIR/quire.yml's would be), each into "
	     "OUT/<label>\n"
	     "  -Werror         exit with 1 when there are warnings\n"
	     "  --quiet         no progress line and no summary");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cmd_build(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"quiet", no_argument, NULL, 'q'},
		{"output", required_argument, NULL, 'o'},
		{"jobs", required_argument, NULL, 'j'},
		{"cache", required_argument, NULL, 'C'},
		{"no-cache", no_argument, NULL, 'N'},
		{"depfile", required_argument, NULL, 'D'},
		{"rev", required_argument, NULL, 'R'},
		{"repo", required_argument, NULL, 'G'},
		{"versions", required_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	struct qu_build_opts o = {.dir = ".", .out = "_site"};
	struct qu_build *b = NULL;
	struct qu_build_stats st;
	struct qu_build_vstats vst;
	struct qu_buf err = QU_BUF_INIT;
	struct qu_diags all;
	bool werror = false;
	double t0 = now();
	size_t nwarn = 0, nerr = 0;
	int c, ret = QU_EXIT_USAGE;

	qu_diags_init(&all);
	qu_arena_init(&vst.paths);
	o.timing = getenv("QUIRE_TIMING") != NULL;
	o.skip_unchanged = true;
	/* 0, not 1: GNU getopt re-reads its state after main.c used it */
	optind = 0;
	while ((c = getopt_long(argc, argv, "o:j:W:qh", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'o':
			o.out = optarg;
			break;
		case 'j':
			if (cmd_parse_jobs(&o.threads, optarg) < 0)
				return cmd_usage_error(
					"build", "bad -j value '%s'", optarg);
			break;
		case 'W':
			if (cmd_parse_werror(optarg) < 0)
				return cmd_usage_error(
					"build", "unknown option -W%s", optarg);
			werror = true;
			break;
		case 'C':
			o.cache = optarg;
			break;
		case 'N':
			o.no_cache = true;
			break;
		case 'D':
			o.depfile = optarg;
			break;
		case 'R':
			o.rev = optarg;
			break;
		case 'G':
			o.repo = optarg;
			break;
		case 'V':
			o.versions_file = optarg;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'h':
			usage();
			return QU_EXIT_OK;
		default:
			return cmd_usage_error("build", "bad arguments");
		}
	}
	if (o.cache && o.no_cache)
		return cmd_usage_error("build",
				       "--cache and --no-cache exclude each other");
	if (o.repo && !o.rev)
		return cmd_usage_error("build", "--repo needs --rev");
	if (o.rev && o.versions_file)
		return cmd_usage_error("build",
				       "--versions and --rev exclude each other");
	if (o.rev && o.depfile)
		return cmd_usage_error("build",
				       "--depfile needs a work tree, not --rev");
	if (o.rev) {
		/* DIR is a folder of the revision: lib/build checks it */
		if (optind < argc)
			o.dir = argv[optind++];
		if (optind < argc)
			return cmd_usage_error("build", "one folder at most");
	} else if ((c = cmd_folder_arg(&o.dir, "build", argc, argv))) {
		return c;
	}
	cmd_init_libraries();

	/* versions: in quire.yml: every version, into OUT/<label>/ */
	c = qu_build_versions(&vst, &o, &all, &err);
	if (c <= 0) {
		qu_diags_count(&nerr, &nwarn, &all);
		qu_diags_print(&all, stderr, werror);
		if (c < 0) {
			fprintf(stderr, "quire build: %s\n", err.buf);
			goto out;
		}
		cmd_note_git("build");
		if (!o.quiet)
			fprintf(stderr,
				"quire build: versions: %zu built, %zu kept "
				"(unchanged), %zu removed; %zu warnings, "
				"%.2f s: %s/index.html\n",
				vst.nbuilt, vst.nkept, vst.npruned,
				nwarn + nerr, now() - t0, o.out);
		ret = nerr || (werror && nwarn) ? QU_EXIT_FAIL : QU_EXIT_OK;
		goto out;
	}
	if (qu_build_new(&b, &o, &err) < 0) {
		/* a broken configuration: its errors in compiler format */
		qu_build_diags(&all, b);
		qu_diags_print(&all, stderr, werror);
		if (err.len)
			fprintf(stderr, "quire build: %s\n", err.buf);
		goto out;
	}
	qu_build_link(b);
	if (qu_build_write(b, &err) < 0) {
		fprintf(stderr, "quire build: %s\n", err.buf);
		goto out;
	}
	qu_build_get_stats(&st, b);
	qu_build_diags(&all, b);
	qu_diags_count(&nerr, &nwarn, &all);
	qu_diags_print(&all, stderr, werror);
	cmd_note_git("build");
	if (st.cache_note && !o.quiet)
		fprintf(stderr, "quire build: note: ignoring the cache: %s\n",
			st.cache_note);
	if (st.search_note && !o.quiet)
		fprintf(stderr,
			"quire build: note: ignoring the search index's state: "
			"%s\n",
			st.search_note);
	if (!o.quiet) {
		fprintf(stderr,
			"quire build: %zu pages, %zu items, %zu warnings%s, "
			"%.2f s: %s/index.html\n",
			st.npages, st.nitems, nwarn + nerr,
			werror && nwarn ? " (as errors)" : "", now() - t0,
			o.out);
		fprintf(stderr,
			"quire build: %zu pages rendered, %zu kept, "
			"%zu removed; %zu of %zu sources parsed%s%s\n",
			st.nwritten, st.nkept, st.nremoved, st.nparsed,
			st.nunits,
			st.search_updated ? "; search index updated" : "",
			st.unchanged ? " (nothing changed)" : "");
	}
	ret = nerr || (werror && nwarn) ? QU_EXIT_FAIL : QU_EXIT_OK;
out:
	/* a failed build leaves the last good site and no half-made one */
#ifdef QU_MIMALLOC
	/* quire exits next: the memory goes with it (not under sanitizers) */
	qu_build_exit(b);
#else
	qu_build_free(b);
#endif
	qu_diags_fini(&all);
	qu_build_vstats_fini(&vst);
	qu_buf_fini(&err);
	return ret;
}
