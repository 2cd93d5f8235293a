// SPDX-License-Identifier: MIT
/*
 * graphdump.c - the symbol graph of a docs tree as text, for goldens
 *
 * Runs quire build's own pipeline (lib/build) up to the graph, on one
 * thread, and prints qu_graph_dump(): one symbol a line with its
 * namespace, kind, home page, anchor and reference count.
 *
 * usage: graphdump DOCS_ROOT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>
#include <libxml/parser.h>

#include "build/build.h"

int main(int argc, char **argv)
{
	struct qu_build_opts o = {.threads = 1, .quiet = true};
	struct qu_build *b = NULL;
	struct qu_buf err = QU_BUF_INIT, out = QU_BUF_INIT;
	int r = 2;

	if (argc != 2) {
		fprintf(stderr, "usage: graphdump DOCS_ROOT\n");
		return 2;
	}
	xmlInitParser();
	cmark_gfm_core_extensions_ensure_registered();
	o.dir = argv[1];
	if (qu_build_new(&b, &o, &err) < 0) {
		fprintf(stderr, "graphdump: %s\n", err.buf);
		goto out;
	}
	qu_build_link(b);
	qu_graph_dump(&out, qu_build_graph(b));
	fwrite(out.buf, 1, out.len, stdout);
	r = 0;
out:
	qu_build_free(b);
	qu_buf_fini(&err);
	qu_buf_fini(&out);
	return r;
}
