// SPDX-License-Identifier: MIT
/*
 * dump.c - the document tree as docutils' pseudo-XML (rst stage): what
 * "python3 -m docutils --writer=pseudoxml" prints, element by element,
 * attributes sorted by name, four spaces a level, text a line at a time.
 * Called by the stage's own driver and by tests.
 */
#include <stdlib.h>
#include <string.h>

#include "rst_int.h"

static const char *const tags[] = {
#define RST_NODE(id, tag) tag,
#include "nodes.def"
#undef RST_NODE
};

const char *qu_rst_kind_name(enum qu_rst_kind kind)
{
	return kind < QU_RST__COUNT ? tags[kind] : "?";
}

static int cmp_attr(const void *a, const void *b)
{
	const struct qu_rst_attr *x = *(const struct qu_rst_attr *const *)a;
	const struct qu_rst_attr *y = *(const struct qu_rst_attr *const *)b;

	return strcmp(x->name, y->name);
}

static void indent(struct qu_buf *out, int level)
{
	for (int i = 0; i < level; i++)
		qu_buf_add(out, "    ", 4);
}

/* Python's str.splitlines() breaks at these too: \r, \v, \f, \x1c-\x1e
 * (and the Unicode line separators, left out here). */
static bool line_break(char ch)
{
	return ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f' ||
	       (ch >= 0x1c && ch <= 0x1e);
}

static void text(struct qu_buf *out, const struct qu_rst_node *n, int level)
{
	size_t i = 0;

	while (i < n->len) {
		size_t j = i;

		while (j < n->len && !line_break(n->text[j]))
			j++;
		indent(out, level);
		qu_buf_add(out, n->text + i, j - i);
		qu_buf_addc(out, '\n');
		if (j < n->len && n->text[j] == '\r' && j + 1 < n->len &&
		    n->text[j + 1] == '\n')
			j++;
		i = j + 1;
	}
}

static void node(struct qu_buf *out, const struct qu_rst_doc *doc,
		 const struct qu_rst_node *n, int level)
{
	const struct qu_rst_attr *a;
	const struct qu_rst_attr *sorted[32];
	size_t na = 0;

	if (n->kind == QU_RST_TEXT) {
		text(out, n, level);
		return;
	}
	indent(out, level);
	qu_buf_addc(out, '<');
	qu_buf_adds(out, tags[n->kind]);
	for (a = n->attrs; a && na < QU_ARRAY_SIZE(sorted); a = a->next)
		if (*a->value || strcmp(a->name, "ids"))
			sorted[na++] = a;
	qsort(sorted, na, sizeof(*sorted), cmp_attr);
	for (size_t i = 0; i < na; i++) {
		if (!*sorted[i]->value &&
		    (!strcmp(sorted[i]->name, "names") ||
		     !strcmp(sorted[i]->name, "dupnames") ||
		     !strcmp(sorted[i]->name, "classes")))
			continue;
		qu_buf_addf(out, " %s=\"%s\"", sorted[i]->name, sorted[i]->value);
	}
	if (n->kind == QU_RST_DOCUMENT)
		qu_buf_addf(out, " source=\"%s\"", doc->path);
	qu_buf_add(out, ">\n", 2);
	for (const struct qu_rst_node *k = n->first; k; k = k->next)
		node(out, doc, k, level + 1);
}

void qu_rst_dump(struct qu_buf *out, const struct qu_rst_doc *doc)
{
	node(out, doc, doc->root, 0);
}
