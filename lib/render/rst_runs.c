// SPDX-License-Identifier: MIT
/*
 * rst_runs.c - where a reST comment can link, for the graph's
 * "Referenced by" (render stage)
 *
 * A site whose comments are reST renders them with render_rst_text(),
 * which links "foo()" and "struct foo" in text nodes only: never in
 * literals, literal blocks, titles, roles, links, comments or the raw
 * content of directives such as code-block. The graph asks for the same
 * runs here, so that a comment is referenced where its page links, and
 * reads the comment with the reader that renders it (Markdown's reader
 * would take "``x``", "::" blocks and roles for something else).
 */
#include <string.h>

#include "walk_int.h"

struct runs {
	qu_graph_run_fn fn;
	void *payload;
};

/* Whether the renderer shows @n's text as written: never a link. */
static bool never_links(const struct qu_rst_node *n)
{
	switch (n->kind) {
	case QU_RST_LITERAL:
	case QU_RST_LITERAL_BLOCK:
	case QU_RST_DOCTEST_BLOCK:
	case QU_RST_ROLE:
	case QU_RST_REFERENCE:
	case QU_RST_TITLE:
	case QU_RST_COMMENT:
	case QU_RST_SUBSTITUTION_DEFINITION:
	case QU_RST_SUBSTITUTION_REFERENCE:
	case QU_RST_FOOTNOTE_REFERENCE:
	case QU_RST_CITATION_REFERENCE:
	case QU_RST_LABEL:
	case QU_RST_OPTION_GROUP:
	case QU_RST_PROBLEMATIC:
	case QU_RST_DIRECTIVE_ARGUMENTS:
	case QU_RST_DIRECTIVE_OPTION:
		return true;
	case QU_RST_TARGET:
		/* a link target; an inline one shows its text */
		return qu_rst_attr(n, "refuri") || qu_rst_attr(n, "refname");
	default:
		return false;
	}
}

static void walk(const struct runs *r, const struct qu_rst_node *parent,
		 unsigned depth)
{
	const struct qu_rst_node *n;

	if (depth >= MAX_WALK_DEPTH)
		return;
	for (n = parent->first; n; n = n->next) {
		if (n->kind == QU_RST_TEXT) {
			/* a directive's raw content (code-block's) is no text */
			if (parent->kind != QU_RST_DIRECTIVE_CONTENT && n->len)
				r->fn(r->payload, n->text, n->len);
			continue;
		}
		if (!never_links(n))
			walk(r, n, depth + 1);
	}
}

void qu_render_rst_runs(void *ctx, const char *text, size_t len, bool comment,
			qu_graph_run_fn fn, void *payload)
{
	struct runs r = {fn, payload};
	struct qu_diags scratch;
	struct qu_rst_doc *rd;

	(void)ctx;
	(void)comment;
	/* the diagnostics are the renderer's to give */
	qu_diags_init(&scratch);
	rd = qu_rst_parse_ex(&scratch, "", text, len, QU_RST_SPHINX_IDS);
	qu_diags_fini(&scratch);
	walk(&r, rd->root, 0);
	qu_rst_free(rd);
}
