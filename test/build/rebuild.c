// SPDX-License-Identifier: MIT
/*
 * rebuild.c - builds that take from the build before, in memory, as
 * quire serve's do
 *
 * usage: rebuild DIR OUT CACHE, then one line a build on stdin ("build"),
 * one line a build on stdout: "ok R rendered K kept P parsed M memory
 * S search-kept" or "failed: MESSAGE". Each build takes the unchanged
 * units and the search index's memo from the one before and defers the
 * search index as quire serve does (qu_build_search()); incremental.py
 * compares every site it writes with a clean build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>
#include <libxml/parser.h>

#include "build/build.h"

int main(int argc, char **argv)
{
	struct qu_build_opts o;
	struct qu_build *last = NULL;
	char line[64];

	if (argc != 4) {
		fprintf(stderr, "usage: rebuild DIR OUT CACHE\n");
		return 2;
	}
	xmlInitParser();
	cmark_gfm_core_extensions_ensure_registered();
	memset(&o, 0, sizeof(o));
	o.dir = argv[1];
	o.out = argv[2];
	o.cache = argv[3];
	o.threads = 2;
	o.quiet = true;
	o.defer_search = true;
	o.memo = true;
	o.timing = getenv("QUIRE_TIMING") != NULL;
	while (fgets(line, sizeof(line), stdin)) {
		struct qu_buf err = QU_BUF_INIT;
		struct qu_build *b = NULL;
		struct qu_build_stats st;

		if (strcmp(line, "build\n"))
			break;
		if (qu_build_new(&b, &o, &err) == 0) {
			qu_build_reuse(b, last);
			qu_build_link(b);
			if (qu_build_write(b, &err) == 0 &&
			    qu_build_search(b, &err) >= 0) {
				qu_build_get_stats(&st, b);
				printf("ok %zu rendered %zu kept %zu parsed "
				       "%zu memory %zu search-kept\n",
				       st.nwritten, st.nkept, st.nparsed,
				       st.nreused, st.nsearch_kept);
			} else if (!err.len) {
				qu_buf_adds(&err, "no message");
			}
		} else if (!err.len) {
			qu_buf_adds(&err, "a broken configuration");
		}
		if (err.len)
			printf("failed: %s\n", err.buf);
		fflush(stdout);
		qu_build_free(last);
		last = b;
		qu_buf_fini(&err);
	}
	qu_build_free(last);
	return 0;
}
