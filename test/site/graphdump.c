// SPDX-License-Identifier: MIT
/*
 * graphdump.c - the symbol graph of a docs tree as text, for goldens
 *
 * Runs the site, source, kdoc and graph stages the way quire build does
 * (one thread) and prints qu_graph_dump(): one symbol a line with its
 * namespace, kind, home page, anchor and reference count.
 *
 * usage: graphdump DOCS_ROOT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>
#include <git2.h>
#include <libxml/parser.h>

#include "graph/graph.h"
#include "kdoc/kdoc.h"
#include "markdown/markdown.h"
#include "site/site.h"
#include "source/source.h"

int main(int argc, char **argv)
{
	struct qu_site site;
	struct qu_graph g;
	struct qu_unit *units;
	struct qu_graph_exports *ex;
	struct qu_source **srcs;
	struct qu_diags diags;
	struct qu_buf err = QU_BUF_INIT, path = QU_BUF_INIT, out = QU_BUF_INIT;
	struct qu_job job;
	struct qu_md *md;
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: graphdump DOCS_ROOT\n");
		return 2;
	}
	xmlInitParser();
	git_libgit2_init();
	cmark_gfm_core_extensions_ensure_registered();
	memset(&site, 0, sizeof(site));
	memset(&g, 0, sizeof(g));
	memset(&job, 0, sizeof(job));
	qu_diags_init(&diags);
	if (qu_site_load(&site, argv[1], NULL, &err) < 0) {
		fprintf(stderr, "graphdump: %s\n", err.buf);
		return 2;
	}
	units = qu_xcalloc(site.nsources + 1, sizeof(*units));
	ex = qu_xcalloc(site.nsources + 1, sizeof(*ex));
	srcs = qu_xcalloc(site.nsources + 1, sizeof(*srcs));
	for (i = 0; i < site.nsources; i++) {
		qu_buf_reset(&path);
		qu_buf_addf(&path, "%s/%s", site.srctree, site.sources[i]);
		if (qu_source_read(&srcs[i], &job, path.buf) < 0) {
			fprintf(stderr, "graphdump: %s\n", job.err.buf);
			return 2;
		}
		qu_kdoc_parse(&units[i], srcs[i], NULL);
		units[i].path = site.sources[i];
		ex[i].v = srcs[i]->exports;
		ex[i].n = srcs[i]->nexports;
	}
	if (site.zero_config) {
		/* as quire build makes them: the files with items, in order */
		struct qu_site_file *files =
			qu_xcalloc(site.nsources + 1, sizeof(*files));
		size_t n = 0, k;

		for (i = 0; i < site.nsources; i++) {
			if (!units[i].nitems)
				continue;
			files[n].path = site.sources[i];
			for (k = 0; k < units[i].nitems; k++) {
				if (units[i].items[k].kind == QU_KIND_DOC)
					files[n].ndocs++;
				else
					files[n].nitems++;
			}
			n++;
		}
		qu_site_zero_pages(&site, files, n, NULL, 0);
		free(files);
	}
	md = qu_md_new(false);
	for (i = 0; i < site.npages; i++)
		qu_md_headings(md, &site.pages[i], &site.arena);
	qu_graph_build(&g, &site, units, ex, &diags, 1);
	qu_graph_dump(&out, &g);
	fwrite(out.buf, 1, out.len, stdout);

	qu_graph_fini(&g);
	qu_md_free(md);
	for (i = 0; i < site.nsources; i++) {
		qu_unit_fini(&units[i]);
		qu_source_free(srcs[i]);
	}
	free(units);
	free(ex);
	free(srcs);
	qu_diags_fini(&diags);
	qu_site_fini(&site);
	qu_buf_fini(&err);
	qu_buf_fini(&path);
	qu_buf_fini(&out);
	qu_buf_fini(&job.err);
	qu_buf_fini(&job.scratch);
	git_libgit2_shutdown();
	return 0;
}
