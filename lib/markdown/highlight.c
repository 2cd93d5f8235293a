// SPDX-License-Identifier: MIT
/*
 * highlight.c - C code as tok-* spans, from lib/source's tokenizer
 * (markdown stage)
 *
 * Code blocks and item declarations use it; tokens cover every byte, so
 * the text of the <code> element is exactly the input.
 */
#include <string.h>

#include "md_int.h"

static const char *tok_class(enum qu_tok_kind k)
{
	switch (k) {
	case QU_TOK_COMMENT:
		return "tok-com";
	case QU_TOK_PREPROC:
		return "tok-pp";
	case QU_TOK_KEYWORD:
		return "tok-kw";
	case QU_TOK_TYPE:
		return "tok-type";
	case QU_TOK_NUMBER:
		return "tok-num";
	case QU_TOK_STRING:
	case QU_TOK_CHAR:
		return "tok-str";
	case QU_TOK_PUNCT:
		return "tok-op";
	default:
		return NULL;
	}
}

/* Whether the next token that is not a blank is "(". */
static bool before_paren(const char *code, size_t len, size_t pos)
{
	while (pos < len && (code[pos] == ' ' || code[pos] == '\t'))
		pos++;
	return pos < len && code[pos] == '(';
}

static bool is_tag_kw(const char *p, size_t n)
{
	return (n == 6 && !memcmp(p, "struct", 6)) ||
	       (n == 5 && !memcmp(p, "union", 5)) ||
	       (n == 4 && !memcmp(p, "enum", 4));
}

/*
 * Each piece of @code in order: plain runs, tokens with their class and,
 * with @ctx, names that resolve in the graph as links: the tag after
 * struct/union/enum, and typedef names.
 */
static void pieces(struct qu_md_ctx *ctx, const char *code, size_t len,
		   qu_md_piece_fn fn, void *payload)
{
	struct qu_lexer lx;
	struct qu_token t;
	struct qu_buf href = QU_BUF_INIT;
	const char *tag_kw = NULL;
	size_t run = 0, nrun = 0;

	/*
	 * Tokens without a class (blanks, names that link nowhere) are
	 * text next to each other: one piece for each run of them, as
	 * libxml2 would merge their nodes into anyway (their bytes are
	 * ASCII or whole identifiers, so no UTF-8 sequence is cut).
	 */
	qu_lexer_init(&lx, code, len);
	while (qu_lexer_next(&t, &lx)) {
		const char *cls = tok_class(t.kind);
		const char *p = code + t.off;

		if (t.kind == QU_TOK_IDENT &&
		    before_paren(code, len, t.off + t.len))
			cls = "tok-fn";
		if (ctx && (t.kind == QU_TOK_IDENT || t.kind == QU_TOK_TYPE)) {
			struct qu_ref r = {0};
			uint32_t s;

			r.kind = tag_kw ? (tag_kw[0] == 's'   ? QU_REF_STRUCT
					   : tag_kw[0] == 'u' ? QU_REF_UNION
							      : QU_REF_ENUM)
					: QU_REF_TYPEDEF;
			r.name = p;
			r.nlen = t.len;
			s = qu_graph_resolve(ctx->g, &r, &ctx->from, NULL);
			if (s != QU_NONE && s != ctx->from.sym) {
				if (nrun)
					fn(payload, NULL, NULL, code + run, nrun);
				nrun = 0;
				qu_buf_reset(&href);
				qu_graph_href(&href, ctx->g, ctx->from.page, s);
				fn(payload, cls, href.buf, p, t.len);
				tag_kw = NULL;
				continue;
			}
		}
		if (t.kind == QU_TOK_KEYWORD && is_tag_kw(p, t.len))
			tag_kw = p;
		else if (t.kind != QU_TOK_SPACE && t.kind != QU_TOK_COMMENT)
			tag_kw = NULL;
		if (!cls) {
			if (!nrun)
				run = t.off;
			nrun += t.len;
			continue;
		}
		if (nrun)
			fn(payload, NULL, NULL, code + run, nrun);
		nrun = 0;
		fn(payload, cls, NULL, p, t.len);
	}
	if (nrun)
		fn(payload, NULL, NULL, code + run, nrun);
	qu_buf_fini(&href);
}

struct dom_out {
	xmlDocPtr doc;
	xmlNodePtr parent;
};

/* A piece of code without links as nodes: text, or a span of a class. */
static void dom_piece(void *payload, const char *cls, const char *href,
		      const char *s, size_t len)
{
	struct dom_out *o = payload;
	xmlNodePtr span;

	(void)href;
	if (!cls) {
		md_text(o->doc, o->parent, s, len);
		return;
	}
	span = qu_md_el(o->doc, o->parent, "span");
	qu_md_attr(span, "class", cls);
	md_text(o->doc, span, s, len);
}

void qu_md_highlight_c(xmlDocPtr doc, xmlNodePtr parent, const char *code,
		       size_t len)
{
	struct dom_out o = {doc, parent};

	pieces(NULL, code, len, dom_piece, &o);
}

void qu_md_highlight_decl(struct qu_md_ctx *ctx, const char *code,
			  size_t len, qu_md_piece_fn fn, void *payload)
{
	pieces(ctx, code, len, fn, payload);
}
