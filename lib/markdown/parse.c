// SPDX-License-Identifier: MIT
/*
 * parse.c - cmark-gfm behind one mutex, and the text fixes before it
 * (markdown stage)
 *
 * cmark-gfm adds its extensions' special characters to a process-global
 * table around each inline parse, so two parses at once can lose syntax:
 * every parse takes the context's mutex; the AST walk that follows runs
 * in parallel. Before parsing a comment, reStructuredText literal blocks
 * ("text::" then an indented block) and code blocks become fenced
 * blocks, line for line, and admonitions GitHub alerts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>

#include "md_int.h"

struct qu_md *qu_md_new(bool allow_html)
{
	struct qu_md *md = qu_xcalloc(1, sizeof(*md));

	if (pthread_mutex_init(&md->lock, NULL))
		qu_die_oom();
	md->allow_html = allow_html;
	return md;
}

void qu_md_allow_html(struct qu_md *md, bool allow)
{
	md->allow_html = allow;
}

void qu_md_free(struct qu_md *md)
{
	if (!md)
		return;
	pthread_mutex_destroy(&md->lock);
	free(md);
}

static size_t indent_of(const char *l, size_t len)
{
	size_t i = 0;

	while (i < len && (l[i] == ' ' || l[i] == '\t'))
		i++;
	return i;
}

static bool blank(const char *l, size_t len)
{
	return indent_of(l, len) == len ||
	       (indent_of(l, len) + 1 == len && l[len - 1] == '\r');
}

struct line {
	const char *p;
	size_t len;
};

/*
 * A comment's reST directive that Markdown has a form for: code blocks
 * become fenced blocks, admonitions GitHub alerts.
 */
static const struct {
	const char *name;
	const char *alert;
} rst_directives[] = {
	{"code-block", NULL},
	{"code", NULL},
	{"sourcecode", NULL},
	{"note", "NOTE"},
	{"hint", "TIP"},
	{"tip", "TIP"},
	{"important", "IMPORTANT"},
	{"attention", "IMPORTANT"},
	{"warning", "WARNING"},
	{"caution", "CAUTION"},
	{"danger", "CAUTION"},
	{"error", "CAUTION"},
};

/*
 * Admonitions nest (a note holding a code block is read again inside);
 * past this depth, which only a hostile comment reaches, the directive
 * stays as text, so a comment of nested notes cannot exhaust the stack.
 */
#define RST_MAX_NEST 8

/* ".. name:: argument": the row of rst_directives[], or -1. */
static int rst_directive(const char *l, size_t len, const char **arg,
			 size_t *arglen)
{
	const char *dc;
	size_t k, nl;

	if (len < 5 || strncmp(l, ".. ", 3))
		return -1;
	dc = memmem(l + 3, len - 3, "::", 2);
	if (!dc)
		return -1;
	nl = (size_t)(dc - l - 3);
	for (k = 0; k < QU_ARRAY_SIZE(rst_directives); k++)
		if (strlen(rst_directives[k].name) == nl &&
		    !strncmp(l + 3, rst_directives[k].name, nl))
			break;
	if (k == QU_ARRAY_SIZE(rst_directives))
		return -1;
	*arg = dc + 2;
	*arglen = (size_t)(l + len - *arg);
	while (*arglen && (**arg == ' ' || **arg == '\t')) {
		(*arg)++;
		(*arglen)--;
	}
	while (*arglen &&
	       ((*arg)[*arglen - 1] == ' ' || (*arg)[*arglen - 1] == '\r'))
		(*arglen)--;
	return (int)k;
}

static void rst_blocks(struct qu_buf *out, const char *t, size_t len,
		       unsigned depth);

/*
 * Lines @i on of @v that are blank or indented deeper than @ind: a
 * directive's or a literal block's body. Returns the end, trailing
 * blank lines left out; *@min_out is the least indent (SIZE_MAX: none).
 */
static size_t body_end(const struct line *v, size_t n, size_t i, size_t ind,
		       size_t *min_out)
{
	size_t j, min = SIZE_MAX;

	for (j = i; j < n; j++) {
		if (blank(v[j].p, v[j].len))
			continue;
		if (indent_of(v[j].p, v[j].len) <= ind)
			break;
		if (indent_of(v[j].p, v[j].len) < min)
			min = indent_of(v[j].p, v[j].len);
	}
	while (j > i && blank(v[j - 1].p, v[j - 1].len))
		j--;
	*min_out = min;
	return j;
}

/*
 * An admonition at line @i as a GitHub alert: "> [!NOTE]", then its
 * body, read again for reST habits, each line quoted. Text after the
 * "::" takes one more line. Returns the last line consumed.
 */
static size_t rst_alert(struct qu_buf *out, const struct line *v, size_t n,
			size_t i, size_t ind, const char *alert,
			const char *arg, size_t arglen, unsigned depth)
{
	struct qu_buf body = QU_BUF_INIT, done = QU_BUF_INIT;
	size_t j, k, min, pos;

	j = body_end(v, n, i + 1, ind, &min);
	qu_buf_addf(out, "> [!%s]\n", alert);
	if (arglen) {
		qu_buf_adds(out, "> ");
		qu_buf_add(out, arg, arglen);
		qu_buf_addc(out, '\n');
	}
	for (k = i + 1; k < j; k++) {
		if (!blank(v[k].p, v[k].len))
			qu_buf_add(&body, v[k].p + min, v[k].len - min);
		qu_buf_addc(&body, '\n');
	}
	rst_blocks(&done, body.buf, body.len, depth + 1);
	for (pos = 0; pos < done.len;) {
		const char *nl = memchr(done.buf + pos, '\n', done.len - pos);
		size_t eol = nl ? (size_t)(nl - done.buf) : done.len;

		qu_buf_addc(out, '>');
		if (eol > pos)
			qu_buf_addc(out, ' ');
		qu_buf_add(out, done.buf + pos, eol - pos);
		qu_buf_addc(out, '\n');
		pos = eol + 1;
	}
	qu_buf_fini(&body);
	qu_buf_fini(&done);
	return j - 1;
}

/*
 * The kernel's habits from reStructuredText, in a comment read as
 * Markdown. "Paragraph::", a blank line, an indented block: the blank
 * line becomes the opening fence and the blank line after the block the
 * closing one, so lines keep their numbers; the block is dedented.
 * ".. code-block:: c" is read the same way, its line and its options
 * left blank. Admonitions (".. note::") become alerts (rst_alert()).
 */
static void rst_blocks(struct qu_buf *out, const char *t, size_t len,
		       unsigned depth)
{
	struct line *v = NULL;
	size_t n = 0, alloc = 0, i, pos = 0;
	bool fenced = false;

	while (pos < len) {
		const char *nl = memchr(t + pos, '\n', len - pos);
		size_t eol = nl ? (size_t)(nl - t) : len;

		QU_VEC_GROW(v, n, alloc);
		v[n].p = t + pos;
		v[n].len = eol - pos;
		n++;
		pos = eol + 1;
	}
	for (i = 0; i < n; i++) {
		const char *l = v[i].p;
		size_t ll = v[i].len, ind = indent_of(l, ll), e = ll, j, k;
		size_t min;

		while (e > ind && (l[e - 1] == ' ' || l[e - 1] == '\r'))
			e--;
		if (e - ind >= 3 && (!strncmp(l + ind, "```", 3) ||
				     !strncmp(l + ind, "~~~", 3)))
			fenced = !fenced;
		if (!fenced && depth < RST_MAX_NEST) {
			const char *arg;
			size_t arglen;
			int d = rst_directive(l + ind, e - ind, &arg, &arglen);

			if (d >= 0 && rst_directives[d].alert) {
				i = rst_alert(out, v, n, i, ind,
					      rst_directives[d].alert, arg,
					      arglen, depth);
				continue;
			}
			if (d >= 0) {
				/* the options, then a blank line, the code */
				for (j = i + 1;
				     j < n && !blank(v[j].p, v[j].len) &&
				     indent_of(v[j].p, v[j].len) > ind &&
				     v[j].p[indent_of(v[j].p, v[j].len)] == ':';
				     j++)
					;
				if (j < n && blank(v[j].p, v[j].len))
					k = body_end(v, n, j + 1, ind, &min);
				else
					min = SIZE_MAX;
				if (min != SIZE_MAX) {
					for (; i < j; i++)
						qu_buf_addc(out, '\n');
					qu_buf_adds(out, "~~~~~~~~ ");
					qu_buf_add(out, arg, arglen);
					qu_buf_addc(out, '\n');
					for (j = i + 1; j < k; j++) {
						if (!blank(v[j].p, v[j].len))
							qu_buf_add(out,
								   v[j].p + min,
								   v[j].len -
									   min);
						qu_buf_addc(out, '\n');
					}
					qu_buf_adds(out, "~~~~~~~~\n");
					i = k < n && blank(v[k].p, v[k].len)
						    ? k
						    : k - 1;
					continue;
				}
			}
		}
		if (fenced || e < ind + 2 || strncmp(l + e - 2, "::", 2) ||
		    i + 2 >= n || !blank(v[i + 1].p, v[i + 1].len)) {
			qu_buf_add(out, l, ll);
			qu_buf_addc(out, '\n');
			continue;
		}
		/* the block: lines indented deeper than the "::" line */
		j = body_end(v, n, i + 2, ind, &min);
		if (min == SIZE_MAX) {
			qu_buf_add(out, l, ll);
			qu_buf_addc(out, '\n');
			continue;
		}
		/* "text::" keeps one colon; " ::" and a lone "::" go */
		if (e - ind == 2)
			;
		else if (l[e - 3] == ' ')
			qu_buf_add(out, l, e - 3);
		else
			qu_buf_add(out, l, e - 1);
		qu_buf_adds(out, "\n~~~~~~~~\n");
		for (k = i + 2; k < j; k++) {
			if (!blank(v[k].p, v[k].len))
				qu_buf_add(out, v[k].p + min, v[k].len - min);
			qu_buf_addc(out, '\n');
		}
		qu_buf_adds(out, "~~~~~~~~\n");
		/* the blank line after the block became the fence */
		i = j < n && blank(v[j].p, v[j].len) ? j : j - 1;
	}
	free(v);
}

cmark_node *md_parse(struct qu_md *md, const char *text, size_t len, bool rst)
{
	static const char *const exts[] = {
		"table",
		"strikethrough",
		"autolink",
		"tasklist",
	};
	struct qu_buf fixed = QU_BUF_INIT;
	cmark_parser *p;
	cmark_node *doc;
	size_t i;

	if (rst && len > 2 && memmem(text, len, "::", 2)) {
		rst_blocks(&fixed, text, len, 0);
		text = fixed.buf;
		len = fixed.len;
	}
	pthread_mutex_lock(&md->lock);
	p = cmark_parser_new(CMARK_OPT_DEFAULT);
	if (!p)
		qu_die_oom();
	for (i = 0; i < QU_ARRAY_SIZE(exts); i++) {
		cmark_syntax_extension *e =
			cmark_find_syntax_extension(exts[i]);

		if (e)
			cmark_parser_attach_syntax_extension(p, e);
	}
	cmark_parser_feed(p, text, len);
	doc = cmark_parser_finish(p);
	cmark_parser_free(p);
	pthread_mutex_unlock(&md->lock);
	if (!doc)
		qu_die_oom();
	qu_buf_fini(&fixed);
	return doc;
}

void md_plain_text(struct qu_buf *out, cmark_node *n)
{
	cmark_iter *it = cmark_iter_new(n);
	cmark_event_type ev;

	if (!it)
		qu_die_oom();
	/* iterative: the subtree may be nested as deep as the input */
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *c = cmark_iter_get_node(it);

		if (ev != CMARK_EVENT_ENTER || c == n)
			continue;
		switch (cmark_node_get_type(c)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
			qu_buf_adds(out, cmark_node_get_literal(c));
			break;
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK:
			qu_buf_addc(out, ' ');
			break;
		default:
			break;
		}
	}
	cmark_iter_free(it);
}

void qu_md_slug(struct qu_buf *out, const char *text, size_t len)
{
	struct qu_buf fixed = QU_BUF_INIT;
	size_t i;

	/* bytes of invalid UTF-8 would make the id, and the page, invalid */
	if (!qu_utf8_valid(text, len, NULL)) {
		qu_buf_add_utf8(&fixed, text, len);
		qu_md_slug(out, fixed.buf, fixed.len);
		qu_buf_fini(&fixed);
		return;
	}

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c >= 'A' && c <= 'Z')
			qu_buf_addc(out, (char)(c - 'A' + 'a'));
		else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
			 c == '-' || c == '_' || c >= 0x80)
			qu_buf_addc(out, (char)c);
		else if (c == ' ')
			qu_buf_addc(out, '-');
	}
}

/* Where the headings of one page go. */
struct heads {
	struct qu_map used;
	void (*fn)(void *payload, unsigned level, const char *text,
		   const char *id, uint32_t line);
	void *payload;
};

static void headings(struct heads *hs, cmark_node *n, uint32_t line0,
		     unsigned depth)
{
	cmark_node *c;

	/* as deep as qu_md_render() looks for them, no deeper */
	if (depth >= MD_MAX_DEPTH)
		return;

	for (c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
		struct qu_buf t = QU_BUF_INIT, id = QU_BUF_INIT;
		size_t base;
		unsigned k = 0;
		void *v;
		char *key;

		if (cmark_node_get_type(c) != CMARK_NODE_HEADING) {
			if (cmark_node_first_child(c) &&
			    cmark_node_get_type(c) != CMARK_NODE_PARAGRAPH)
				headings(hs, c, line0, depth + 1);
			continue;
		}
		md_plain_text(&t, c);
		qu_md_slug(&id, t.buf, t.len);
		if (!id.len)
			qu_buf_adds(&id, "section");
		base = id.len;
		/*
		 * A taken id holds the last suffix given for it (plus one), so
		 * the n-th repeat of a heading does not probe "-1" to "-n"
		 * again: ids are never freed, so every suffix below is still
		 * taken. Same ids as probing from 1, in linear time.
		 */
		v = qu_map_get(&hs->used, id.buf, id.len);
		if (v) {
			k = (unsigned)((uintptr_t)v - 1);
			do {
				id.len = base;
				qu_buf_addf(&id, "-%u", ++k);
			} while (qu_map_get(&hs->used, id.buf, id.len));
			*qu_map_slot(&hs->used, id.buf, base) =
				(void *)(uintptr_t)(k + 1);
		}
		hs->fn(hs->payload, (unsigned)cmark_node_get_heading_level(c),
		       t.buf ? t.buf : "", id.buf,
		       line0 + (uint32_t)cmark_node_get_start_line(c) - 1);
		/* the map keeps its keys: one copy each, freed at the end */
		key = qu_buf_detach(&id, NULL);
		qu_map_put(&hs->used, key, (void *)1);
		qu_buf_fini(&t);
	}
}

void qu_md_page_headings(void *md, const struct qu_page *page,
			 void (*fn)(void *payload, unsigned level,
				    const char *text, const char *id,
				    uint32_t line),
			 void *payload)
{
	struct heads hs = {.fn = fn, .payload = payload};
	size_t k;

	qu_map_init(&hs.used);
	for (k = 0; k < page->nparts; k++) {
		const struct qu_part *p = &page->parts[k];
		cmark_node *doc;

		if (p->kind != QU_PART_MARKDOWN)
			continue;
		doc = md_parse(md, p->text, p->len, false);
		headings(&hs, doc, p->line, 0);
		cmark_node_free(doc);
	}
	for (k = 0; k < hs.used.cap; k++)
		free((char *)hs.used.slots[k].key);
	qu_map_fini(&hs.used);
}

/* Whether line @end of @text closes the fenced block @c began at @start. */
static bool closing_fence(const char *text, size_t len,
			  const struct qu_lines *lines, cmark_node *c,
			  uint32_t end, uint32_t start)
{
	int flen = 0, off = 0;
	char ch = 0;
	size_t p, e, i = 0, n = 0;

	cmark_node_get_fenced(c, &flen, &off, &ch);
	if (end <= start || end > lines->n)
		return false;
	p = lines->start[end - 1];
	e = end < lines->n ? lines->start[end] : len;
	while (p + i < e && i < 4 && text[p + i] == ' ')
		i++;
	while (p + i + n < e && text[p + i + n] == ch)
		n++;
	if (i > 3 || n < (size_t)flen)
		return false;
	for (i += n; p + i < e; i++)
		if (text[p + i] != ' ' && text[p + i] != '\t' &&
		    text[p + i] != '\r' && text[p + i] != '\n')
			return false;
	return true;
}

void qu_md_blocks(void *md, const char *text, size_t len,
		  void (*fn)(void *payload, const struct qu_site_block *b),
		  void *payload)
{
	cmark_node *doc = md_parse(md, text, len, false), *c;
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	struct qu_lines lines;

	qu_lines_init(&lines, text, len);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		struct qu_site_block b;
		const char *info;
		int sl, el, flen, foff;
		char fch;

		c = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER ||
		    cmark_node_get_type(c) != CMARK_NODE_CODE_BLOCK ||
		    !cmark_node_get_fenced(c, &flen, &foff, &fch))
			continue;
		sl = cmark_node_get_start_line(c);
		el = cmark_node_get_end_line(c);
		if (sl < 1)
			continue;
		info = cmark_node_get_fence_info(c);
		b.info = info ? info : "";
		b.info_len = strlen(b.info);
		b.line = (uint32_t)sl;
		b.end_line = (uint32_t)(el >= sl ? el : sl);
		b.col = (uint32_t)cmark_node_get_start_column(c);
		b.nested = cmark_node_parent(c) != doc;
		b.closed = !b.nested && closing_fence(text, len, &lines, c,
						      b.end_line, b.line);
		fn(payload, &b);
	}
	cmark_iter_free(it);
	qu_lines_fini(&lines);
	cmark_node_free(doc);
}
