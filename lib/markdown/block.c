// SPDX-License-Identifier: MIT
/*
 * block.c - block nodes of cmark-gfm's AST to libxml2 elements
 * (markdown stage)
 *
 * The entry points of the stage: qu_md_render() for a page's or a
 * section's Markdown and qu_md_render_inline() for a brief. GitHub
 * alerts become admonitions, tables keep their alignment, fenced C code
 * is highlighted.
 */
#include <string.h>

#include <cmark-gfm-core-extensions.h>

#include "md_int.h"

/*
 * The block children of @n under @parent. @tight: a tight list's
 * paragraphs are written without <p>, as cmark's HTML renderer does.
 */
static void blocks(struct qu_md_ctx *ctx, xmlNodePtr parent, cmark_node *n,
		   uint32_t line0, bool tight);

static const struct {
	const char *marker;
	const char *cls;
	const char *title;
} alerts[] = {
	{"[!NOTE]", "qu-note", "Note"},
	{"[!TIP]", "qu-tip", "Tip"},
	{"[!IMPORTANT]", "qu-important", "Important"},
	{"[!WARNING]", "qu-warning", "Warning"},
	{"[!CAUTION]", "qu-caution", "Caution"},
};

/*
 * "> [!NOTE]" opens a GitHub alert. cmark-gfm splits the marker into
 * several text nodes at the brackets; they are removed from the AST here
 * so the paragraph renders without them.
 */
static int alert(cmark_node *quote)
{
	cmark_node *p = cmark_node_first_child(quote), *t, *next;
	struct qu_buf head = QU_BUF_INIT;
	size_t k, take;
	int found = -1;

	if (!p || cmark_node_get_type(p) != CMARK_NODE_PARAGRAPH)
		return -1;
	for (t = cmark_node_first_child(p);
	     t && cmark_node_get_type(t) == CMARK_NODE_TEXT;
	     t = cmark_node_next(t))
		qu_buf_adds(&head, cmark_node_get_literal(t));
	for (k = 0; k < QU_ARRAY_SIZE(alerts); k++) {
		size_t ml = strlen(alerts[k].marker);

		if (head.len >= ml &&
		    !strncasecmp(head.buf, alerts[k].marker, ml)) {
			size_t r = ml;

			while (r < head.len && head.buf[r] == ' ')
				r++;
			if (r == head.len)
				found = (int)k;
			break;
		}
	}
	qu_buf_fini(&head);
	if (found < 0)
		return -1;
	/* drop the marker's text nodes and the line break after them */
	take = 1;
	for (t = cmark_node_first_child(p); t && take; t = next) {
		next = cmark_node_next(t);
		if (cmark_node_get_type(t) == CMARK_NODE_TEXT) {
			cmark_node_free(t);
			continue;
		}
		if (cmark_node_get_type(t) == CMARK_NODE_SOFTBREAK ||
		    cmark_node_get_type(t) == CMARK_NODE_LINEBREAK)
			cmark_node_free(t);
		take = 0;
	}
	if (!cmark_node_first_child(p))
		cmark_node_free(p);
	return found;
}

/*
 * A fenced or indented code block; the info string's first word is its
 * language, and C (or h) is highlighted by the C tokenizer.
 */
static void code_block(struct qu_md_ctx *ctx, xmlNodePtr parent, cmark_node *n)
{
	const char *info = cmark_node_get_fence_info(n);
	const char *lit = cmark_node_get_literal(n);
	xmlNodePtr pre = qu_md_el(ctx->doc, parent, "pre");
	xmlNodePtr code = qu_md_el(ctx->doc, pre, "code");
	struct qu_buf lang = QU_BUF_INIT;
	size_t i;

	qu_md_attr(pre, "class", "qu-code");
	for (i = 0; info && info[i] && info[i] != ' ' && info[i] != '\t' &&
		    info[i] != '{' && info[i] != ',';
	     i++)
		qu_buf_addc(&lang, info[i]);
	if (!lit)
		lit = "";
	if (lang.len) {
		struct qu_buf cls = QU_BUF_INIT;

		qu_buf_addf(&cls, "language-%s", lang.buf);
		qu_md_attr(code, "class", cls.buf);
		qu_buf_fini(&cls);
	}
	if (!strcmp(lang.buf, "c") || !strcmp(lang.buf, "C") ||
	    !strcmp(lang.buf, "h"))
		qu_md_highlight_c(ctx->doc, code, lit, strlen(lit));
	else
		md_text(ctx->doc, code, lit, strlen(lit));
	qu_buf_fini(&lang);
}

/*
 * A GFM table: a header row in <thead>, the rest in <tbody>, alignment as
 * a style on each cell.
 */
static void table(struct qu_md_ctx *ctx, xmlNodePtr parent, cmark_node *n,
		  uint32_t line0)
{
	static const char *const align[] = {"left", "center", "right"};
	uint8_t *al = cmark_gfm_extensions_get_table_alignments(n);
	uint16_t ncols = cmark_gfm_extensions_get_table_columns(n);
	xmlNodePtr t = qu_md_el(ctx->doc, parent, "table"), body = NULL;
	cmark_node *row, *cell;

	for (row = cmark_node_first_child(n); row; row = cmark_node_next(row)) {
		bool head = cmark_gfm_extensions_get_table_row_is_header(row);
		xmlNodePtr tr, sect;
		uint16_t col = 0;

		if (head) {
			sect = qu_md_el(ctx->doc, t, "thead");
		} else {
			if (!body)
				body = qu_md_el(ctx->doc, t, "tbody");
			sect = body;
		}
		tr = qu_md_el(ctx->doc, sect, "tr");
		for (cell = cmark_node_first_child(row); cell;
		     cell = cmark_node_next(cell), col++) {
			xmlNodePtr td =
				qu_md_el(ctx->doc, tr, head ? "th" : "td");
			char a = al && col < ncols ? (char)al[col] : 0;
			int k = a == 'l' ? 0 : a == 'c' ? 1 : a == 'r' ? 2 : -1;

			if (k >= 0) {
				struct qu_buf st = QU_BUF_INIT;

				qu_buf_addf(&st, "text-align: %s", align[k]);
				qu_md_attr(td, "style", st.buf);
				qu_buf_fini(&st);
			}
			md_inlines(ctx, td, cmark_node_first_child(cell), line0,
				   head);
		}
	}
}

/*
 * A heading: in pages it takes the id qu_md_headings() gave it (the
 * graph knows those ids already); in comments it is demoted below the
 * item's own headings and gets none.
 */
static void heading(struct qu_md_ctx *ctx, xmlNodePtr parent, cmark_node *n,
		    uint32_t line0)
{
	const struct qu_page *pg = &ctx->g->site->pages[ctx->from.page];
	int level = cmark_node_get_heading_level(n);
	char name[3] = {'h', '1', 0};
	xmlNodePtr h;

	if (ctx->comment) {
		level += (int)ctx->heading_min - 1;
		if (level > 6)
			level = 6;
	}
	name[1] = (char)('0' + level);
	h = qu_md_el(ctx->doc, parent, name);
	if (!ctx->comment && ctx->next_heading < pg->nheadings)
		qu_md_attr(h, "id", pg->headings[ctx->next_heading++].id);
	md_inlines(ctx, h, cmark_node_first_child(n), line0, true);
}

static void blocks(struct qu_md_ctx *ctx, xmlNodePtr parent, cmark_node *n,
		   uint32_t line0, bool tight)
{
	cmark_node *c, *next;

	if (ctx->depth >= MD_MAX_DEPTH) {
		struct qu_buf t = QU_BUF_INIT;

		md_plain_text(&t, n);
		md_text(ctx->doc, qu_md_el(ctx->doc, parent, "p"), t.buf,
			t.len);
		qu_buf_fini(&t);
		return;
	}
	ctx->depth++;

	for (c = cmark_node_first_child(n); c; c = next) {
		const char *ts = cmark_node_get_type_string(c);
		xmlNodePtr el;
		int k;

		next = cmark_node_next(c);
		switch (cmark_node_get_type(c)) {
		case CMARK_NODE_PARAGRAPH:
			el = tight ? parent : qu_md_el(ctx->doc, parent, "p");
			md_inlines(ctx, el, cmark_node_first_child(c), line0,
				   false);
			break;
		case CMARK_NODE_HEADING:
			heading(ctx, parent, c, line0);
			break;
		case CMARK_NODE_BLOCK_QUOTE:
			k = alert(c);
			if (k < 0) {
				blocks(ctx,
				       qu_md_el(ctx->doc, parent, "blockquote"),
				       c, line0, false);
				break;
			}
			{
				struct qu_buf cls = QU_BUF_INIT;
				xmlNodePtr t;

				el = qu_md_el(ctx->doc, parent, "div");
				qu_buf_addf(&cls, "qu-admonition %s",
					    alerts[k].cls);
				qu_md_attr(el, "class", cls.buf);
				qu_buf_fini(&cls);
				t = qu_md_el(ctx->doc, el, "p");
				qu_md_attr(t, "class", "qu-admonition-title");
				md_text(ctx->doc, t, alerts[k].title,
					strlen(alerts[k].title));
				blocks(ctx, el, c, line0, false);
			}
			break;
		case CMARK_NODE_LIST: {
			bool ordered = cmark_node_get_list_type(c) ==
				       CMARK_ORDERED_LIST;
			int start = cmark_node_get_list_start(c);

			el = qu_md_el(ctx->doc, parent, ordered ? "ol" : "ul");
			if (ordered && start != 1) {
				char b[16];

				snprintf(b, sizeof(b), "%d", start);
				qu_md_attr(el, "start", b);
			}
			blocks(ctx, el, c, line0, cmark_node_get_list_tight(c));
			break;
		}
		case CMARK_NODE_ITEM:
			el = qu_md_el(ctx->doc, parent, "li");
			if (ts && !strcmp(ts, "tasklist")) {
				xmlNodePtr in = qu_md_el(ctx->doc, el, "input");

				qu_md_attr(el, "class", "qu-task");
				qu_md_attr(in, "type", "checkbox");
				qu_md_attr(in, "disabled", "disabled");
				if (cmark_gfm_extensions_get_tasklist_item_checked(
					    c))
					qu_md_attr(in, "checked", "checked");
				md_text(ctx->doc, el, " ", 1);
			}
			blocks(ctx, el, c, line0, tight);
			break;
		case CMARK_NODE_CODE_BLOCK:
			code_block(ctx, parent, c);
			break;
		case CMARK_NODE_HTML_BLOCK: {
			const char *lit = cmark_node_get_literal(c);

			if (!lit)
				break;
			el = ctx->md->allow_html
				     ? parent
				     : qu_md_el(ctx->doc, parent, "p");
			md_html(ctx, el, lit, strlen(lit));
			break;
		}
		case CMARK_NODE_THEMATIC_BREAK:
			qu_md_el(ctx->doc, parent, "hr");
			break;
		default:
			if (ts && !strcmp(ts, "table"))
				table(ctx, parent, c, line0);
			else
				blocks(ctx, parent, c, line0, tight);
		}
	}
	ctx->depth--;
}

void qu_md_render(struct qu_md_ctx *ctx, xmlNodePtr parent, const char *text,
		  size_t len, uint32_t line)
{
	cmark_node *doc = md_parse(ctx->md, text, len, ctx->comment);

	blocks(ctx, parent, doc, line, false);
	cmark_node_free(doc);
}

void qu_md_render_inline(struct qu_md_ctx *ctx, xmlNodePtr parent,
			 const char *text, size_t len, uint32_t line)
{
	cmark_node *doc = md_parse(ctx->md, text, len, false), *c;
	bool first = true;

	/* a brief is one line: whatever blocks it made, keep the inlines */
	for (c = cmark_node_first_child(doc); c; c = cmark_node_next(c)) {
		cmark_node *in = c;

		while (cmark_node_first_child(in) &&
		       cmark_node_get_type(in) != CMARK_NODE_PARAGRAPH &&
		       cmark_node_get_type(in) != CMARK_NODE_HEADING)
			in = cmark_node_first_child(in);
		if (!first)
			md_text(ctx->doc, parent, " ", 1);
		first = false;
		if (cmark_node_get_type(in) == CMARK_NODE_CODE_BLOCK ||
		    cmark_node_get_type(in) == CMARK_NODE_HTML_BLOCK) {
			const char *l = cmark_node_get_literal(in);

			md_text(ctx->doc, parent, l ? l : "",
				l ? strlen(l) : 0);
			continue;
		}
		md_inlines(ctx, parent, cmark_node_first_child(in), line,
			   false);
	}
	cmark_node_free(doc);
}
