// SPDX-License-Identifier: MIT
/*
 * parse.c - the entry of the rst stage: the input cut into lines the way
 * docutils prepares them (tabs to 8 columns, \v and \f as spaces, trailing
 * white space dropped), then the whole document parsed as body elements
 * with sections allowed. Called by whoever reads a reST page.
 */
#include <stdlib.h>
#include <string.h>

#include "rst_int.h"

/* Input past 4 GiB cannot be addressed by the 32-bit offsets of nodes. */
#define RST_MAX_INPUT 0xfffffffeu

static void split_lines(struct rst_ctx *c, const char *src, size_t len)
{
	size_t alloc = 64, i = 0;

	c->lines = qu_xmalloc(alloc * sizeof(*c->lines));
	c->nlines = 0;
	while (i < len || (i == len && c->nlines == 0 && len)) {
		size_t s = i, e;
		bool tab = false, odd = false;
		struct rline *l;

		while (i < len && src[i] != '\n' && src[i] != '\r') {
			uint64_t w;

			/*
			 * Eight bytes a step while none is below 0x0e: \t, \n,
			 * \v, \f and \r all are (a carry only sends a word to
			 * the bytewise test).
			 */
			if (i + 8 <= len) {
				memcpy(&w, src + i, 8);
				if (!((w - 0x0e0e0e0e0e0e0e0eull) & ~w &
				      0x8080808080808080ull)) {
					i += 8;
					continue;
				}
			}
			if (src[i] == '\t')
				tab = true;
			else if (src[i] == '\v' || src[i] == '\f')
				odd = true;
			i++;
		}
		e = i;
		if (i < len && src[i] == '\r' && i + 1 < len && src[i + 1] == '\n')
			i += 2;
		else if (i < len)
			i++;
		if (c->nlines >= alloc) {
			alloc *= 2;
			c->lines = qu_xrealloc(c->lines, alloc * sizeof(*c->lines));
		}
		l = &c->lines[c->nlines++];
		l->off = (uint32_t)s;
		l->tabbed = tab;
		if (tab || odd) {
			struct qu_buf b = QU_BUF_INIT;
			size_t col = 0;

			/* Python's expandtabs() counts characters, not bytes */
			for (size_t k = s; k < e; k++) {
				if (((unsigned char)src[k] & 0xc0) != 0x80)
					col++;
				if (src[k] == '\t') {
					col--;
					do
						qu_buf_addc(&b, ' ');
					while (++col % 8);
				} else if (src[k] == '\v' || src[k] == '\f') {
					qu_buf_addc(&b, ' ');
				} else {
					qu_buf_addc(&b, src[k]);
				}
			}
			while (b.len && b.buf[b.len - 1] == ' ')
				b.len--;
			l->s = qu_arena_strndup(c->a, b.buf, b.len);
			l->len = (uint32_t)b.len;
			qu_buf_fini(&b);
		} else {
			while (e > s && (src[e - 1] == ' '))
				e--;
			l->s = src + s;
			l->len = (uint32_t)(e - s);
		}
		if (i == len)
			break;
	}
	c->lines_alloc = alloc;
}

struct qu_rst_doc *qu_rst_parse(struct qu_diags *diags, const char *path,
				const char *src, size_t len)
{
	return qu_rst_parse_ex(diags, path, src, len, 0);
}

struct qu_rst_doc *qu_rst_parse_ex(struct qu_diags *diags, const char *path,
				   const char *src, size_t len, unsigned flags)
{
	struct qu_rst_doc *doc = qu_xcalloc(1, sizeof(*doc));
	struct rst_ctx c = { 0 };
	struct blk all;
	size_t bad;

	qu_arena_init(&doc->arena);
	doc->path = qu_arena_strdup(&doc->arena, path);
	if (len > RST_MAX_INPUT) {
		qu_diag(diags, QU_W_RST_LIMIT, doc->path, 0, 0,
			"file larger than 4 GiB, the rest not read");
		len = RST_MAX_INPUT;
	}
	doc->src = src;
	doc->len = len;
	qu_lines_init(&doc->lines, src, len);
	c.doc = doc;
	c.a = &doc->arena;
	c.diags = diags;
	c.sphinx_ids = flags & QU_RST_SPHINX_IDS;
	qu_map_init(&c.ids);
	qu_map_init(&c.names);
	qu_map_init(&c.counters);
	if (!qu_utf8_valid(src, len, &bad))
		rst_warn(&c, QU_W_INVALID_UTF8, (uint32_t)bad,
			 "invalid UTF-8, the bytes kept as they are");
	doc->root = rst_node(&c, QU_RST_DOCUMENT, 0);
	c.secs[0] = doc->root;
	split_lines(&c, src, len);
	all.a = 0;
	all.b = c.nlines;
	all.col = all.col0 = 0;
	if (flags & QU_RST_INLINE)
		rst_inline(&c, rst_child(&c, doc->root, QU_RST_PARAGRAPH, 0),
			   qu_arena_strndup(&doc->arena, src, len), len, 0);
	else
		rst_parse_body(&c, doc->root, &all, true);
	doc->auto_ids = (uint32_t)(uintptr_t)qu_map_get(&c.counters, "id", 2);
	free(c.lines);
	qu_map_fini(&c.ids);
	qu_map_fini(&c.names);
	qu_map_fini(&c.counters);
	return doc;
}

void qu_rst_free(struct qu_rst_doc *doc)
{
	if (!doc)
		return;
	qu_lines_fini(&doc->lines);
	qu_arena_fini(&doc->arena);
	free(doc);
}
