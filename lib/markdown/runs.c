// SPDX-License-Identifier: MIT
/*
 * runs.c - where a text can link, for the graph's "Referenced by"
 * (markdown stage)
 *
 * The graph knows no Markdown: it asks this stage for the runs of text in
 * which the renderer turns references into links, and scans only those.
 * The text is parsed as qu_md_render() parses it (the same fixes first)
 * and walked as block.c and inline.c walk it: code, raw HTML, headings
 * and the text of links never link, consecutive text nodes make one run,
 * and nothing deeper than the renderer goes is read.
 */
#include <string.h>

#include "md_int.h"

struct runs {
	qu_graph_run_fn fn;
	void *payload;
	struct qu_buf run;
};

static void flush(struct runs *r)
{
	if (r->run.len)
		r->fn(r->payload, r->run.buf, r->run.len);
	qu_buf_reset(&r->run);
}

static void walk(struct runs *r, cmark_node *n, unsigned depth)
{
	cmark_node *c;

	if (depth >= MD_MAX_DEPTH)
		return;
	for (c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
		const char *lit;

		switch (cmark_node_get_type(c)) {
		case CMARK_NODE_TEXT:
			lit = cmark_node_get_literal(c);
			if (lit)
				qu_buf_adds(&r->run, lit);
			continue;
		case CMARK_NODE_HEADING:
		case CMARK_NODE_CODE_BLOCK:
		case CMARK_NODE_HTML_BLOCK:
		case CMARK_NODE_CODE:
		case CMARK_NODE_HTML_INLINE:
		case CMARK_NODE_LINK:
		case CMARK_NODE_IMAGE:
			flush(r);
			continue;
		default:
			flush(r);
			walk(r, c, depth + 1);
		}
	}
	flush(r);
}

void qu_md_runs(void *md, const char *text, size_t len, bool comment,
		qu_graph_run_fn fn, void *payload)
{
	cmark_node *doc = md_parse(md, text, len, comment);
	struct runs r = {fn, payload, QU_BUF_INIT};

	walk(&r, doc, 0);
	qu_buf_fini(&r.run);
	cmark_node_free(doc);
}
