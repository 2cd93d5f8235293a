// SPDX-License-Identifier: MIT
/*
 * fuzz_source.c - fuzz harness of the source stage: the C tokenizer,
 * reading bytes as a C file, finding every kernel-doc block and its
 * declaration, collecting exports. Checks the invariants as it goes: the
 * tokens cover every byte once and in order, the blocks come in order and
 * lie inside the input.
 */
#include <assert.h>
#include <string.h>

#include "fuzz.h"
#include "source/source.h"

static void tokens(const char *p, size_t len)
{
	struct qu_lexer lx;
	struct qu_token t;
	size_t next = 0;

	qu_lexer_init(&lx, p, len);
	while (qu_lexer_next(&t, &lx)) {
		assert(t.off == next && t.len > 0 && t.off + t.len <= len);
		assert(qu_tok_kind_name(t.kind) != NULL);
		next = t.off + t.len;
	}
	assert(next == len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qu_source *src =
		qu_source_from_mem("fuzz.c", (const char *)data, size);
	struct qu_block b;
	size_t pos = 0, last = 0;

	tokens((const char *)data, size);

	while (qu_source_next_block(&b, src, &pos)) {
		/* Blocks come in order, inside the input, and progress. */
		assert(b.start >= last && b.start < b.end && b.end <= size);
		assert(b.decl_start <= b.decl_end && b.decl_end <= size);
		assert(pos > b.start && pos <= size);
		assert(b.line >= 1);
		last = b.start + 1;
	}
	for (size_t i = 0; i < src->nexports; i++)
		assert(src->exports[i].name && src->exports[i].macro);
	qu_source_free(src);
	return 0;
}
