// SPDX-License-Identifier: MIT
/*
 * fuzz_rst.c - fuzz harness of the rst stage: parses the bytes as a reST
 * page and dumps the tree. Checks the invariants as it goes: every node
 * lies inside the input, children point back at their parent, every kind
 * has a name, and the dump is as long as it is deterministic (two dumps
 * of two parses are equal).
 */
#include <assert.h>
#include <string.h>

#include "fuzz.h"
#include "rst/rst.h"

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
	struct qu_buf x = QU_BUF_INIT, y = QU_BUF_INIT;

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
	qu_diags_fini(&d);
	return 0;
}
