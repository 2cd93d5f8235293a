// SPDX-License-Identifier: MIT
/*
 * fuzz_rst.c - fuzz harness of the rst stage: parses the bytes as a reST
 * page and dumps the tree. Checks the invariants as it goes: every node
 * lies inside the input, children point back at their parent, every kind
 * has a name, and the dump is as long as it is deterministic (two dumps
 * of two parses are equal). Then reads the page as lib/site does
 * (qu_rst_site_read(), Sphinx's ids): directives, sections and labels
 * lie inside the input and are well formed.
 */
#include <assert.h>
#include <string.h>

#include "fuzz.h"
#include "rst/rst.h"
#include "site/site.h"

static size_t fuzz_len;

static void on_directive(void *payload, const struct qu_site_directive *d)
{
	(void)payload;
	assert(d->name && d->arg && d->content);
	assert(d->off <= fuzz_len && d->line >= 1 && d->col >= 1);
	for (size_t i = 0; i < d->nopts; i++)
		assert(d->opts[i].name && d->opts[i].value &&
		       d->opts[i].line >= d->line);
}

static void on_heading(void *payload, unsigned level, const char *text,
		       const char *id, const char *name, uint32_t line,
		       bool hidden)
{
	(void)payload;
	(void)hidden;
	assert(level >= 1 && text && id && *id && name && line >= 1);
}

static void on_label(void *payload, const char *name, const char *id,
		     const char *title, const char *role)
{
	(void)payload;
	(void)title;
	assert(name && id && *id);
	assert(!role || !strncmp(name, "c.", 2) ||
	       (!strcmp(role, "std:term") && !strncmp(name, "T:", 2)));
}

/*
 * Every C-domain directive's signatures give an id or nothing, in the
 * global scope and in the last c:namespace met.
 */
static void c_ids(const struct qu_rst_node *n, struct qu_buf *b,
		  struct qu_buf *ns, int depth)
{
	if (n->kind == QU_RST_DIRECTIVE) {
		qu_rst_c_namespace(ns, n);
		for (size_t k = 0; qu_rst_c_decl_id(b, n, k, NULL) && k < 1000;
		     k++)
			assert(!b->len || !strncmp(b->buf, "c.", 2));
		for (size_t k = 0;
		     ns->len && qu_rst_c_decl_id(b, n, k, ns->buf) && k < 1000;
		     k++)
			assert(!b->len || (!strncmp(b->buf, "c.", 2) &&
					   !strncmp(b->buf + 2, ns->buf,
						    strlen(ns->buf))));
	}
	for (const struct qu_rst_node *k = n->first; k && depth < 200;
	     k = k->next)
		c_ids(k, b, ns, depth + 1);
}

static void check(const struct qu_rst_node *n, size_t len, int depth)
{
	assert(n->kind < QU_RST__COUNT && qu_rst_kind_name(n->kind));
	assert(n->off <= len);
	assert(depth < 10000);
	if (n->kind == QU_RST_TEXT)
		assert(n->text && n->len && !n->first);
	for (const struct qu_rst_node *k = n->first; k; k = k->next) {
		assert(k->parent == n);
		if (!k->next)
			assert(n->last == k);
		check(k, len, depth + 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qu_diags d;
	struct qu_rst_doc *a, *b;
	struct qu_buf x = QU_BUF_INIT, y = QU_BUF_INIT, ns = QU_BUF_INIT;

	qu_diags_init(&d);
	a = qu_rst_parse(&d, "fuzz.rst", (const char *)data, size);
	check(a->root, size, 0);
	for (size_t i = 0; i < d.n; i++)
		assert(d.v[i].line >= 1 && d.v[i].col >= 1);
	b = qu_rst_parse(&d, "fuzz.rst", (const char *)data, size);
	qu_rst_dump(&x, a);
	qu_rst_dump(&y, b);
	assert(x.len == y.len && !memcmp(x.buf, y.buf, x.len));
	qu_buf_fini(&x);
	qu_buf_fini(&y);
	qu_rst_free(a);
	qu_rst_free(b);
	{
		static const struct qu_site_rst_sink sink = {
			on_directive, on_heading, on_label, NULL};

		fuzz_len = size;
		qu_rst_site_read(NULL, &d, "fuzz.rst", (const char *)data,
				 size, &sink, NULL);
		a = qu_rst_parse_ex(&d, "fuzz.rst", (const char *)data, size,
				    QU_RST_SPHINX_IDS);
		check(a->root, size, 0);
		c_ids(a->root, &x, &ns, 0);
		qu_rst_free(a);
		qu_buf_fini(&x);
		qu_buf_fini(&ns);
	}
	qu_diags_fini(&d);
	return 0;
}
