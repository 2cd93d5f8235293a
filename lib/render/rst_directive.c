// SPDX-License-Identifier: MIT
/*
 * rst_directive.c - the directives of a reST page as DOM nodes (render
 * stage)
 *
 * rst.c hands each directive node to rw_directive(): tables (flat-table,
 * list-table, csv-table, table), code, include, toctree, kernel-doc (the
 * page's parts, found by their offset), the C domain, contents, figures,
 * glossary, only, raw; what is not rendered faithfully is shown as its
 * source with -Wrst-unrendered.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parserInternals.h>

#include "walk_int.h"

static struct qu_rst_doc *sub_parse(struct rw *w, const char *text,
				    size_t len);
static const struct qu_rst_node *sub_inline(const struct qu_rst_doc *sub);
static const struct qu_part *part_at(const struct rw *w, uint32_t off,
				     size_t *k_out);

/*
 * A list-table's, flat-table's or csv-table's title, the directive's
 * argument, which docutils and the kernel's flat-table read as reST.
 */
static void table_title(struct rw *w, xmlNodePtr cap,
			const struct qu_rst_node *args)
{
	struct qu_buf text = QU_BUF_INIT;
	struct qu_rst_doc *sub;
	const struct qu_rst_node *in;

	qu_rst_plain(&text, args);
	sub = text.len ? sub_parse(w, text.buf, text.len) : NULL;
	in = sub ? sub_inline(sub) : NULL;
	rw_inlines(w, cap, in ? in : args->first, false);
	qu_rst_free(sub);
	qu_buf_fini(&text);
}

/* Whether @n is text of blanks only (between two leading roles). */
static bool blank_text(const struct qu_rst_node *n)
{
	return n->kind == QU_RST_TEXT && strspn(n->text, " \n") == n->len;
}

/*
 * A cell count from flat-table's :cspan:`N` / :rspan:`N` roles at the
 * start of a cell; the roles are removed from what is shown.
 */
static unsigned span_role(const struct qu_rst_node *cell, const char *which)
{
	const struct qu_rst_node *p = cell->first, *r;

	if (!p || p->kind != QU_RST_PARAGRAPH)
		return 0;
	for (r = p->first; r && (r->kind == QU_RST_ROLE || blank_text(r));
	     r = r->next) {
		const char *nm = qu_rst_attr(r, "name");

		if (r->kind == QU_RST_ROLE && nm && !strcmp(nm, which) &&
		    r->first && r->first->kind == QU_RST_TEXT)
			return (unsigned)strtoul(r->first->text, NULL, 10);
	}
	return 0;
}

/*
 * Columns a table may have; the kernel's widest has 20. Past it spans
 * are not tracked (the cells are still shown).
 */
#define MAX_TABLE_COLS 1024

/*
 * Lay out one row of a flat-table or list-table: where each cell goes
 * given the row spans above (@busy counts the rows each column is still
 * covered for). Return: the columns the row fills.
 */
static unsigned row_cols(const struct qu_rst_node *cells, bool flat,
			 unsigned *busy)
{
	const struct qu_rst_node *cell;
	unsigned col = 0, k;

	for (cell = cells ? cells->first : NULL; cell; cell = cell->next) {
		unsigned cs = flat ? span_role(cell, "cspan") : 0;
		unsigned rs = flat ? span_role(cell, "rspan") : 0;

		while (col < MAX_TABLE_COLS && busy[col])
			col++;
		for (k = 0; k <= cs && col + k < MAX_TABLE_COLS; k++)
			busy[col + k] = rs + 1;
		col += cs + 1;
	}
	for (k = 0; k < MAX_TABLE_COLS; k++)
		if (busy[k]) {
			busy[k]--;
			if (k >= col)
				col = k + 1;
		}
	return col < MAX_TABLE_COLS ? col : MAX_TABLE_COLS;
}

/*
 * flat-table and list-table: a bullet list of rows, each a bullet list of
 * cells; :header-rows: rows are the head. flat-table cells may span with
 * :cspan: and :rspan:, and a row's last cell spans the columns the row
 * leaves empty (the kernel's rstFlatTable).
 */
static void list_table(struct rw *w, xmlNodePtr parent,
		       const struct qu_rst_node *d, bool flat)
{
	const struct qu_rst_node *c = rw_child(d, QU_RST_DIRECTIVE_CONTENT);
	const struct qu_rst_node *list = c ? rw_child(c, QU_RST_BULLET_LIST) : NULL;
	const struct qu_rst_node *row, *args = rw_child(d, QU_RST_DIRECTIVE_ARGUMENTS);
	const char *hr = rw_option(w, d, "header-rows");
	unsigned head = hr ? (unsigned)strtoul(hr, NULL, 10) : 0, nrow = 0;
	unsigned *busy, ncols = 0;
	xmlNodePtr t, thead = NULL, tbody = NULL;

	if (!list) {
		rw_unrendered(w, parent, d, "its content is not a list of rows");
		return;
	}
	busy = qu_xcalloc(MAX_TABLE_COLS, sizeof(*busy));
	for (row = list->first; row; row = row->next) {
		unsigned n = row_cols(rw_child(row, QU_RST_BULLET_LIST), flat,
				      busy);

		if (n > ncols)
			ncols = n;
	}
	memset(busy, 0, MAX_TABLE_COLS * sizeof(*busy));
	t = r_el(w->doc, parent, "table", "qu-table");
	if (args) {
		xmlNodePtr cap = r_el(w->doc, t, "caption", NULL);
		struct qu_buf id = QU_BUF_INIT;

		rw_caption_id(w, t, NULL, &id);
		table_title(w, cap, args);
		rw_headerlink(w, cap, id.buf);
		qu_buf_fini(&id);
	}
	for (row = list->first; row; row = row->next, nrow++) {
		const struct qu_rst_node *cells = rw_child(row, QU_RST_BULLET_LIST);
		const struct qu_rst_node *cell, *x;
		xmlNodePtr tr, td = NULL;
		bool th = nrow < head;
		unsigned filled;

		if (row->kind != QU_RST_LIST_ITEM)
			continue;
		if (th && !thead)
			thead = r_el(w->doc, t, "thead", NULL);
		if (!th && !tbody)
			tbody = r_el(w->doc, t, "tbody", NULL);
		tr = r_el(w->doc, th ? thead : tbody, "tr", NULL);
		/* a label before the row's cells names the row */
		for (x = row->first; x; x = x->next)
			if (x->kind == QU_RST_TARGET)
				rw_extra_ids(w, tr, x, 0);
		filled = row_cols(cells, flat, busy);
		for (cell = cells ? cells->first : NULL; cell;
		     cell = cell->next) {
			unsigned cs = flat ? span_role(cell, "cspan") : 0;
			unsigned rs = flat ? span_role(cell, "rspan") : 0;
			const struct qu_rst_node *b = cell->first;

			td = r_el(w->doc, tr, th ? "th" : "td", NULL);
			if (flat && !cell->next && filled < ncols)
				cs += ncols - filled;
			if (cs) {
				qu_buf_reset(&w->tmp);
				qu_buf_addf(&w->tmp, "%u", cs + 1);
				r_attr(td, "colspan", w->tmp.buf);
			}
			if (rs) {
				qu_buf_reset(&w->tmp);
				qu_buf_addf(&w->tmp, "%u", rs + 1);
				r_attr(td, "rowspan", w->tmp.buf);
			}
			if (flat && b && b->kind == QU_RST_PARAGRAPH &&
			    b->first && b->first->kind == QU_RST_ROLE &&
			    (span_role(cell, "cspan") ||
			     span_role(cell, "rspan"))) {
				/* the span roles lead the first paragraph */
				xmlNodePtr p = r_el(w->doc, td, "p", NULL);

				x = b->first;
				while (x && (x->kind == QU_RST_ROLE ||
					     blank_text(x)))
					x = x->next;
				if (x && x->kind == QU_RST_TEXT) {
					size_t sp = strspn(x->text, " \n");

					rw_text(w, p, x->text + sp, x->len - sp,
					     false);
					x = x->next;
				}
				rw_inlines(w, p, x, false);
				b = b->next;
			}
			rw_blocks(w, td, b);
		}
	}
	free(busy);
}

/*
 * One CSV record of @s into @cells (NUL-separated in @cells, @n of them):
 * fields split by commas, "quoted" fields with "" for a quote, blanks
 * after a comma dropped, as csv-table's default dialect. Returns where the
 * next record starts.
 */
static const char *csv_record(const char *s, struct qu_buf *cells, size_t *n)
{
	qu_buf_reset(cells);
	*n = 0;
	while (*s && *s != '\n') {
		s += strspn(s, " \t");
		if (*s == '"') {
			for (s++; *s; s++) {
				if (*s == '"' && s[1] == '"')
					qu_buf_addc(cells, *s++);
				else if (*s == '"')
					break;
				else
					qu_buf_addc(cells, *s);
			}
			if (*s == '"')
				s++;
			s += strcspn(s, ",\n");
		} else {
			const char *e = s + strcspn(s, ",\n"), *t = e;

			while (t > s && (t[-1] == ' ' || t[-1] == '\t'))
				t--;
			qu_buf_add(cells, s, (size_t)(t - s));
			s = e;
		}
		qu_buf_addc(cells, 0);
		(*n)++;
		if (*s == ',')
			s++;
		else
			break;
	}
	return *s == '\n' ? s + 1 : s;
}

/* A CSV cell: its text read as reST, a paragraph as the cell's body. */
static void csv_cell(struct rw *w, xmlNodePtr td, const char *text)
{
	struct qu_rst_doc *sub = sub_parse(w, text, strlen(text));

	rw_blocks(w, td, sub->root->first);
	qu_rst_free(sub);
}

/* csv-table: :header: and the content, records of comma-separated cells. */
static void csv_table(struct rw *w, xmlNodePtr parent,
		      const struct qu_rst_node *d)
{
	const struct qu_rst_node *c = rw_child(d, QU_RST_DIRECTIVE_CONTENT);
	const struct qu_rst_node *args = rw_child(d, QU_RST_DIRECTIVE_ARGUMENTS);
	const char *hdr = rw_option(w, d, "header"), *hr;
	struct qu_buf body = QU_BUF_INIT, cells = QU_BUF_INIT, h = QU_BUF_INIT;
	xmlNodePtr t = r_el(w->doc, parent, "table", "qu-table"), tb = NULL,
		   thead = NULL, tr;
	unsigned head = 0, row = 0;
	const char *p;
	size_t n, k;

	if (hdr)
		qu_buf_adds(&h, hdr);
	hr = rw_option(w, d, "header-rows");
	if (hr)
		head = (unsigned)strtoul(hr, NULL, 10);
	if (rw_option(w, d, "file")) {
		/* the CSV file the site read (none: it said why) */
		size_t pk;
		const struct qu_part *part =
			w->includes ? NULL : part_at(w, d->off, &pk);

		if (part && part->kind == QU_PART_INCLUDE)
			qu_buf_add(&body, part->text, part->len);
		else if (w->includes)
			rw_unrendered(w, parent, d,
				      "a CSV file named in an included file");
	} else if (c) {
		qu_rst_plain(&body, c);
	}
	if (args) {
		xmlNodePtr cap = r_el(w->doc, t, "caption", NULL);
		struct qu_buf id = QU_BUF_INIT;

		rw_caption_id(w, t, NULL, &id);
		table_title(w, cap, args);
		rw_headerlink(w, cap, id.buf);
		qu_buf_fini(&id);
	}
	if (h.len) {
		thead = r_el(w->doc, t, "thead", NULL);
		tr = r_el(w->doc, thead, "tr", NULL);
		csv_record(h.buf, &cells, &n);
		for (k = 0, p = cells.buf; k < n; k++, p += strlen(p) + 1)
			csv_cell(w, r_el(w->doc, tr, "th", NULL), p);
	}
	/* :header-rows: are the head's, after :header:'s, as docutils has */
	for (p = body.buf; *p; row++) {
		const char *q;

		p = csv_record(p, &cells, &n);
		if (!n)
			continue;
		if (row < head && !tb) {
			if (!thead)
				thead = r_el(w->doc, t, "thead", NULL);
			tr = r_el(w->doc, thead, "tr", NULL);
		} else {
			if (!tb)
				tb = r_el(w->doc, t, "tbody", NULL);
			tr = r_el(w->doc, tb, "tr", NULL);
		}
		for (k = 0, q = cells.buf; k < n; k++, q += strlen(q) + 1)
			csv_cell(w, r_el(w->doc, tr, row < head ? "th" : "td",
					 NULL),
				 q);
	}
	if (!tb)
		r_el(w->doc, t, "tbody", NULL);
	qu_buf_fini(&body);
	qu_buf_fini(&cells);
	qu_buf_fini(&h);
}

/* A docutils table: tgroup, thead, tbody, rows, entries with spans. */
void rw_table(struct rw *w, xmlNodePtr parent, const struct qu_rst_node *n,
		  const struct qu_rst_node *title)
{
	xmlNodePtr t = r_el(w->doc, parent, "table", "qu-table");
	const struct qu_rst_node *g = rw_child(n, QU_RST_TGROUP), *c;

	if ((c = rw_child(n, QU_RST_TITLE)))
		title = c->first;
	if (title) {
		xmlNodePtr cap = r_el(w->doc, t, "caption", NULL);
		struct qu_buf id = QU_BUF_INIT;

		rw_caption_id(w, t, n, &id);
		rw_inlines(w, cap, title, false);
		rw_headerlink(w, cap, id.buf);
		qu_buf_fini(&id);
	} else {
		rw_set_ids(w, t, n);
	}
	if (!g)
		return;
	for (c = g->first; c; c = c->next) {
		const struct qu_rst_node *row, *e;
		bool head = c->kind == QU_RST_THEAD;
		xmlNodePtr sec;

		if (c->kind != QU_RST_THEAD && c->kind != QU_RST_TBODY)
			continue;
		sec = r_el(w->doc, t, head ? "thead" : "tbody", NULL);
		for (row = c->first; row; row = row->next) {
			xmlNodePtr tr = r_el(w->doc, sec, "tr", NULL);

			for (e = row->first; e; e = e->next) {
				xmlNodePtr td = r_el(w->doc, tr,
						     head ? "th" : "td", NULL);
				const char *mc = qu_rst_attr(e, "morecols");
				const char *mr = qu_rst_attr(e, "morerows");

				if (mc) {
					qu_buf_reset(&w->tmp);
					qu_buf_addf(&w->tmp, "%lu",
						    strtoul(mc, NULL, 10) + 1);
					r_attr(td, "colspan", w->tmp.buf);
				}
				if (mr) {
					qu_buf_reset(&w->tmp);
					qu_buf_addf(&w->tmp, "%lu",
						    strtoul(mr, NULL, 10) + 1);
					r_attr(td, "rowspan", w->tmp.buf);
				}
				rw_blocks(w, td, e->first);
			}
		}
	}
}

/*
 * c:function, c:macro, c:type, c:struct, ...: a declaration block, one
 * <dt> a signature (a line of the argument), then the content.
 */
static void c_decl(struct rw *w, xmlNodePtr parent, const struct qu_rst_node *d)
{
	const struct qu_rst_node *args = rw_child(d, QU_RST_DIRECTIVE_ARGUMENTS);
	struct qu_buf sig = QU_BUF_INIT, id = QU_BUF_INIT;
	xmlNodePtr dl = r_el(w->doc, parent, "dl", "qu-c-decl");
	const char *line;
	size_t k;

	if (args)
		qu_rst_plain(&sig, args);
	for (k = 0, line = sig.buf; *line; k++) {
		const char *nl = strchr(line, '\n');
		size_t l = nl ? (size_t)(nl - line) : strlen(line);
		xmlNodePtr dt = r_el(w->doc, dl, "dt", NULL);
		xmlNodePtr code = r_el(w->doc, dt, "code", "language-c");

		while (l && (*line == ' ' || *line == '\t')) {
			line++;
			l--;
		}
		qu_md_highlight_c(w->doc, code, line, l);
		if (qu_rst_c_decl_id(&id, d, k,
				     w->c_ns.len ? w->c_ns.buf : NULL) &&
		    id.len) {
			r_attr(dt, "id", id.buf);
			rw_headerlink(w, dt, id.buf);
		}
		line += l + (nl != NULL);
	}
	rw_content(w, r_el(w->doc, dl, "dd", NULL), d);
	qu_buf_fini(&sig);
	qu_buf_fini(&id);
}

/* contents: the sections below the directive's own, down to :depth:. */
static void toc_sections(struct rw *w, xmlNodePtr ul,
			 const struct qu_rst_node *first, unsigned depth)
{
	const struct qu_rst_node *s;
	struct qu_buf id = QU_BUF_INIT;

	for (s = first; s; s = s->next) {
		const struct qu_rst_node *t;
		xmlNodePtr li, a;

		if (s->kind != QU_RST_SECTION || !(t = rw_child(s, QU_RST_TITLE)))
			continue;
		li = r_el(w->doc, ul, "li", NULL);
		a = r_el(w->doc, li, "a", NULL);
		{
			uintptr_t n = (uintptr_t)qu_map_get(
				&w->tocref, (const char *)&s, sizeof(s));

			if (n) {
				qu_buf_reset(&w->tmp);
				qu_buf_addf(&w->tmp, "id%lu", (unsigned long)n);
				r_attr(a, "id", w->tmp.buf);
			}
		}
		if (qu_rst_attr_item(&id, s, "ids", 0)) {
			qu_buf_reset(&w->href);
			qu_buf_addf(&w->href, "#%s", id.buf);
			r_attr(a, "href", w->href.buf);
		}
		rw_inlines(w, a, t->first, true);
		if (depth > 1) {
			const struct qu_rst_node *sub;

			for (sub = s->first; sub; sub = sub->next)
				if (sub->kind == QU_RST_SECTION)
					break;
			if (sub)
				toc_sections(w, r_el(w->doc, li, "ul", NULL),
					     sub, depth - 1);
		}
	}
	qu_buf_fini(&id);
}

/*
 * A toctree the way Sphinx draws one: each page's sections down to
 * :maxdepth: (a page with several top-level sections is several
 * entries), and the pages of its own toctrees below the section holding
 * them.
 */
static void toc_link(struct rw *w, xmlNodePtr li, const struct qu_page *p,
		     const char *id, const char *title, const char *num)
{
	qu_buf_reset(&w->href);
	if (p != w->pg)
		qu_site_relpath(&w->href, w->f->out, p->out);
	if (id)
		qu_buf_addf(&w->href, "#%s", id);
	qu_buf_reset(&w->tmp);
	if (num)
		qu_buf_addf(&w->tmp, "%s. ", num);
	qu_buf_adds(&w->tmp, title);
	r_link(w->doc, li, w->href.len ? w->href.buf : "#", w->tmp.buf);
}

/*
 * The headings below a heading of @p (deeper levels), from @k on; the
 * entry of each heading shown goes to @lis[k], for the toctrees inside.
 */
static size_t toc_headings(struct rw *w, xmlNodePtr li,
			   const struct qu_page *p, size_t k, unsigned level,
			   unsigned depth, unsigned maxdepth, xmlNodePtr *lis)
{
	xmlNodePtr ul = NULL;

	while (k < p->nheadings && p->headings[k].level > level) {
		const struct qu_heading *h = &p->headings[k];
		xmlNodePtr sub;

		if (h->level != level + 1 || depth > maxdepth || h->hidden) {
			k++;
			continue;
		}
		if (!ul)
			ul = r_el(w->doc, li, "ul", NULL);
		sub = r_el(w->doc, ul, "li", NULL);
		lis[k] = sub;
		toc_link(w, sub, p, h->id, h->text,
			 rw_secnum(w->r, (uint32_t)(p - w->r->site->pages), h->id));
		k = toc_headings(w, sub, p, k + 1, level + 1, depth + 1,
				 maxdepth, lis);
	}
	return k;
}

/* The <ul> of @li, made when it has none yet. */
static xmlNodePtr sub_list(struct rw *w, xmlNodePtr li)
{
	if (li->last && li->last->type == XML_ELEMENT_NODE &&
	    !strcmp((const char *)li->last->name, "ul"))
		return li->last;
	return r_el(w->doc, li, "ul", NULL);
}

static void toc_page(struct rw *w, xmlNodePtr ul, uint32_t page,
		     unsigned depth, unsigned maxdepth, bool titles_only)
{
	const struct qu_page *p = &w->r->site->pages[page];
	xmlNodePtr first = NULL, *lis;
	size_t k = 0, c;
	bool top = true;

	if (depth > maxdepth || depth > MAX_TOCTREE_DEPTH)
		return;
	/* two pages whose toctrees name each other are listed once */
	for (c = 0; c + 1 < depth && c < MAX_TOCTREE_DEPTH; c++)
		if (w->toc_path[c] == page)
			return;
	w->toc_path[depth - 1] = page;
	lis = qu_xcalloc(p->nheadings + 1, sizeof(*lis));
	while (k < p->nheadings || top) {
		const struct qu_heading *h = k < p->nheadings ? &p->headings[k]
							       : NULL;
		xmlNodePtr li;

		/* a top-level section an "only" block leaves out */
		if (!top && h && h->hidden) {
			k++;
			while (k < p->nheadings && p->headings[k].level != 1)
				k++;
			if (k >= p->nheadings)
				break;
			continue;
		}
		li = r_el(w->doc, ul, "li", NULL);

		/* the first top-level section is the page itself */
		toc_link(w, li, p, top ? NULL : h->id,
			 top || !h ? p->title : h->text,
			 h ? rw_secnum(w->r, page, h->id) : NULL);
		if (!first)
			first = li;
		top = false;
		if (!h)
			break;
		lis[k] = li;
		k = titles_only ? k + 1
				: toc_headings(w, li, p, k + 1, h->level,
					       depth + 1, maxdepth, lis);
		while (k < p->nheadings && p->headings[k].level != 1)
			k++;
		if (k >= p->nheadings)
			break;
	}
	/*
	 * The pages of this page's toctrees, under the entry of the section
	 * holding the toctree (the page's first when that one is not shown).
	 */
	for (c = 0; c < p->nparts; c++) {
		const struct qu_part *part = &p->parts[c];
		xmlNodePtr at = first;
		unsigned d = depth;
		size_t hk, in = SIZE_MAX;

		if (part->kind != QU_PART_TOCTREE || part->hidden)
			continue;
		for (hk = 0; hk < p->nheadings; hk++)
			if (p->headings[hk].line < part->line)
				in = hk;
		if (in != SIZE_MAX && lis[in]) {
			at = lis[in];
			d = depth + p->headings[in].level - 1;
		}
		if (d >= maxdepth)
			continue;
		for (size_t e = 0; e < part->npages; e++) {
			xmlNodePtr sub = sub_list(w, at);

			toc_page(w, sub, part->pages[e], d + 1, maxdepth,
				 titles_only);
			/* a page left out (a cycle) leaves no empty list */
			if (!sub->children) {
				xmlUnlinkNode(sub);
				xmlFreeNode(sub);
			}
		}
	}
	free(lis);
}

static void rst_toctree(struct rw *w, xmlNodePtr parent,
			const struct qu_part *part)
{
	xmlNodePtr nav, ul;
	unsigned maxdepth = part->maxdepth ? part->maxdepth
					   : MAX_TOCTREE_DEPTH;

	/* every entry left out (an ancestor, a missing page): nothing */
	if (!part->npages)
		return;
	nav = r_el(w->doc, parent, "nav", "qu-toctree");

	if (part->caption)
		r_text(w->doc, r_el(w->doc, nav, "p", "qu-toctree-caption"),
		       part->caption);
	ul = r_el(w->doc, nav, "ul", NULL);
	for (size_t i = 0; i < part->npages; i++)
		toc_page(w, ul, part->pages[i], 1, maxdepth, part->titles_only);
}

/* The part of the page a kernel-doc or toctree directive became. */
static const struct qu_part *part_at(const struct rw *w, uint32_t off,
				     size_t *k_out)
{
	size_t k;

	for (k = 1; k < w->pg->nparts; k++)
		if (w->pg->parts[k].off == off) {
			*k_out = k;
			return &w->pg->parts[k];
		}
	return NULL;
}

/*
 * The .dot file a kernel-figure names, relative to the page's folder
 * (as Sphinx reads a picture's path), among the docs root's graphs; NULL
 * when it is not one (a path leading out of the root, a missing file).
 */
static const struct qu_render_graph *graph_of(const struct rw *w,
					      const char *src)
{
	const char *page = w->pg->src ? w->pg->src : "";
	const char *sl = strrchr(page, '/');
	struct qu_buf path = QU_BUF_INIT;
	const struct qu_render_graph *found = NULL;
	const char *key;
	bool out;
	size_t lo = 0, hi = w->r->ngraphs;

	if (src[0] == '/')
		qu_buf_adds(&path, src + 1);
	else {
		if (sl)
			qu_buf_add(&path, page, (size_t)(sl - page) + 1);
		qu_buf_adds(&path, src);
	}
	out = rw_norm_path(&path) > 0;
	key = path.len ? path.buf : "";
	while (!out && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(key, w->r->graphs[mid].dot);

		if (!c) {
			found = &w->r->graphs[mid];
			break;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	qu_buf_fini(&path);
	return found;
}

static bool ends_with(const char *s, size_t len, const char *tail)
{
	size_t tl = strlen(tail);

	return len >= tl && !strcmp(s + len - tl, tail);
}

/* image, figure and kernel-figure: the picture, then caption and legend. */
static void image(struct rw *w, xmlNodePtr parent, const struct qu_rst_node *d,
		  bool figure)
{
	const struct qu_rst_node *args = rw_child(d, QU_RST_DIRECTIVE_ARGUMENTS);
	struct qu_buf src = QU_BUF_INIT;
	xmlNodePtr box = figure ? r_el(w->doc, parent, "figure", "qu-figure")
				: parent;
	const struct qu_render_graph *g = NULL;
	xmlNodePtr img;
	const char *alt;

	if (args)
		qu_rst_plain(&src, args);
	/*
	 * A .dot or .svg the kernel's extension converts stays its name. A
	 * comment's picture is relative to the page of Documentation/
	 * pulling it in, which only a Sphinx project has: elsewhere its
	 * name is shown instead.
	 */
	if (w->comment && !w->r->site->cfg.sphinx && src.len &&
	    !strstr(src.buf, "://")) {
		r_text(w->doc, r_el(w->doc, box, "code", NULL), src.buf);
	} else if (ends_with(src.buf, src.len, ".dot") &&
		   (g = graph_of(w, src.buf)) && !g->drawn) {
		/* as kfigure.py does when dot(1) fails: the DOT itself */
		rw_code_text(w, box, NULL, g->text, strlen(g->text));
	} else {
		/* lib/build drew it beside its .dot */
		if (g)
			memcpy(src.buf + src.len - 3, "svg", 3);
		img = r_el(w->doc, box, "img", NULL);
		if (src.len && qu_md_url_is_safe(src.buf))
			r_attr(img, "src", src.buf);
		alt = rw_option(w, d, "alt");
		r_attr(img, "alt", alt ? alt : "");
	}
	if (figure) {
		const struct qu_rst_node *c = rw_child(d, QU_RST_DIRECTIVE_CONTENT);
		const struct qu_rst_node *b = c ? c->first : NULL;

		if (b && b->kind == QU_RST_PARAGRAPH) {
			xmlNodePtr cap = r_el(w->doc, box, "figcaption", NULL);
			struct qu_buf id = QU_BUF_INIT;

			rw_caption_id(w, box, NULL, &id);
			rw_inlines(w, cap, b->first, false);
			rw_headerlink(w, cap, id.buf);
			qu_buf_fini(&id);
			b = b->next;
		}
		rw_blocks(w, box, b);
	}
	qu_buf_fini(&src);
}

/*
 * glossary: "term" lines, each followed by its indented definition; each
 * term gets Sphinx's id (qu_rst_term_id()), which :term: links to, and
 * its definition is read as reST, as Sphinx reads it.
 */
static void glossary(struct rw *w, xmlNodePtr parent,
		     const struct qu_rst_node *d)
{
	const struct qu_rst_node *c = rw_child(d, QU_RST_DIRECTIVE_CONTENT);
	struct qu_buf body = QU_BUF_INIT, def = QU_BUF_INIT, id = QU_BUF_INIT;
	xmlNodePtr dl = r_el(w->doc, parent, "dl", "qu-glossary"), dd = NULL;
	size_t indent = SIZE_MAX;
	const char *p;

	if (c)
		qu_rst_plain(&body, c);
	for (p = body.buf;;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p), tl = 0;
		bool term = *p && qu_rst_glossary_term(&tl, p, l);

		if ((term || !*p) && dd && def.len) {
			struct qu_rst_doc *sub = sub_parse(w, def.buf, def.len);

			rw_blocks(w, dd, sub->root->first);
			qu_rst_free(sub);
		}
		if (!*p)
			break;
		if (term) {
			xmlNodePtr dt = r_el(w->doc, dl, "dt", NULL);

			qu_buf_reset(&def);
			qu_rst_term_id(&id, p, tl);
			r_attr(dt, "id", id.buf);
			qu_buf_reset(&w->tmp);
			qu_buf_add(&w->tmp, p, tl);
			r_text(w->doc, dt, w->tmp.buf);
			rw_headerlink(w, dt, id.buf);
			dd = r_el(w->doc, dl, "dd", NULL);
			indent = SIZE_MAX;
		} else if (dd) {
			/* the first line of a definition sets its indent */
			size_t in = strspn(p, " \t");

			if (in > l)
				in = l;
			if (indent == SIZE_MAX && in < l)
				indent = in;
			if (in < l) {
				in = in < indent ? in : indent;
				qu_buf_add(&def, p + in, l - in);
			}
			qu_buf_addc(&def, '\n');
		}
		p += l + (nl != NULL);
	}
	qu_buf_fini(&body);
	qu_buf_fini(&def);
	qu_buf_fini(&id);
}

/*
 * Text the reader kept as a directive's argument or option that Sphinx
 * reads as reST (a table's title, a caption): parsed as a page of its
 * own; its parse diagnostics were the reader's already. Free with
 * qu_rst_free().
 */
static struct qu_rst_doc *sub_parse(struct rw *w, const char *text, size_t len)
{
	struct qu_diags scratch;
	struct qu_rst_doc *sub;

	qu_diags_init(&scratch);
	sub = qu_rst_parse_ex(&scratch, w->pg->diag_path, text, len,
			      QU_RST_SPHINX_IDS);
	qu_diags_fini(&scratch);
	return sub;
}

/* The inline nodes of a one-paragraph sub-document, or NULL. */
static const struct qu_rst_node *sub_inline(const struct qu_rst_doc *sub)
{
	const struct qu_rst_node *p = sub->root->first;

	return p && p->kind == QU_RST_PARAGRAPH ? p->first : NULL;
}

/*
 * seealso: Sphinx reads its argument as the first paragraph of its
 * content; the reader kept it as text, so it is parsed here as a page of
 * its own (its parse diagnostics were the reader's already).
 */
static void seealso(struct rw *w, xmlNodePtr parent, const struct qu_buf *arg,
		    const struct qu_rst_node *c)
{
	xmlNodePtr div = r_el(w->doc, parent, "div",
			      "qu-admonition qu-seealso");

	r_text(w->doc, r_el(w->doc, div, "p", "qu-admonition-title"),
	       "See also");
	if (arg->len) {
		struct qu_diags scratch;
		struct qu_rst_doc *sub;
		const struct qu_rst_doc *save = w->rd;

		qu_diags_init(&scratch);
		sub = qu_rst_parse_ex(&scratch, w->pg->diag_path, arg->buf,
				      arg->len, QU_RST_SPHINX_IDS);
		w->rd = sub;
		rw_blocks(w, div, sub->root->first);
		w->rd = save;
		qu_rst_free(sub);
		qu_diags_fini(&scratch);
	}
	if (c)
		rw_blocks(w, div, c->first);
}

/*
 * kernel-render: a picture made from the directive's DOT (drawn with
 * graphviz) or SVG, as the kernel's kfigure.py makes it: an <img> of
 * "DOT-<hash>.svg" beside the page (kfigure.py names it by the SHA-1 of
 * the text, quire by its XXH3-128), in a figure when there is a
 * caption. DOT graphviz cannot draw stays visible as a literal block,
 * with -Wkernel-graph; outside a page (a comment) nothing can be
 * written, so the source is shown with -Wrst-unrendered.
 */
static void kernel_render(struct rw *w, xmlNodePtr parent,
			  const struct qu_rst_node *d)
{
	const struct qu_rst_node *c = rw_child(d, QU_RST_DIRECTIVE_CONTENT);
	const struct qu_rst_node *args = rw_child(d, QU_RST_DIRECTIVE_ARGUMENTS);
	struct qu_buf body = QU_BUF_INIT, lang = QU_BUF_INIT;
	struct qu_buf svg = QU_BUF_INIT, msg = QU_BUF_INIT;
	struct qu_buf cap = QU_BUF_INIT;
	const char *o = rw_option(w, d, "caption");
	xmlNodePtr box = parent;
	uint32_t line, col, gline = 0;
	const char *path;
	bool dot, drawn = false;

	if (c)
		qu_rst_plain(&body, c);
	if (args)
		qu_rst_plain(&lang, args);
	while (lang.len && (lang.buf[lang.len - 1] == ' ' ||
			    lang.buf[lang.len - 1] == '\n'))
		lang.buf[--lang.len] = 0;
	dot = !strcmp(lang.buf, "DOT");
	/* rw_option()'s answer lasts until its next call */
	if (o)
		qu_buf_adds(&cap, o);
	if (o)
		box = r_el(w->doc, parent, "figure", "qu-figure");
	if (!w->pics || (!dot && strcmp(lang.buf, "SVG")) || !body.len) {
		rw_code_text(w, box, NULL, body.buf, body.len);
		path = rw_diag_where(w, d->off, &line, &col);
		qu_diag(w->diags, QU_W_RST_UNRENDERED, path, line, col,
			"directive 'kernel-render' is not rendered (%s); "
			"showing its source",
			!w->pics ? "no picture is written from a comment"
			: body.len ? "its language is neither DOT nor SVG"
				   : "it has no content");
	} else {
		int r = 0;

		const char *why;

		if (dot) {
			r = qu_render_dot(&svg, &msg, &gline, body.buf,
					  body.len);
		} else if (!w->r->site->cfg.allow_html &&
			   (why = qu_render_svg_unsafe(body.buf, body.len))) {
			/* raw SVG is raw markup: script only when allowed */
			qu_buf_addf(&msg, "the SVG holds %s (allow_html lets "
				    "it through)", why);
			r = -2;
		} else {
			qu_buf_add(&svg, body.buf, body.len);
		}
		if (msg.len || r) {
			path = rw_diag_where(w, c->off, &line, &col);
			if (gline)
				line += gline - 1;
			qu_diag(w->diags, QU_W_KERNEL_GRAPH, path, line, col,
				r ? "graph not drawn: %s; showing its source"
				  : "graphviz: %s",
				msg.buf);
		}
		drawn = !r;
	}
	if (drawn) {
		struct qu_hash128 h = qu_hash128(body.buf, body.len);
		const char *src = w->pg->out ? w->pg->out : "";
		const char *sl = strrchr(src, '/');
		struct qu_render_pic *pic;
		const char *alt = rw_option(w, d, "alt");
		xmlNodePtr img;

		qu_buf_reset(&msg);
		qu_buf_addf(&msg, "%s-%016llx%016llx.svg", dot ? "DOT" : "SVG",
			    (unsigned long long)h.hi,
			    (unsigned long long)h.lo);
		img = r_el(w->doc, box, "img", NULL);
		r_attr(img, "alt", alt ? alt : "");
		r_attr(img, "src", msg.buf);
		w->pics->v = qu_xgrow(w->pics->v, w->pics->n,
				      sizeof(*w->pics->v));
		pic = &w->pics->v[w->pics->n++];
		qu_buf_reset(&lang);
		if (sl)
			qu_buf_add(&lang, src, (size_t)(sl - src) + 1);
		qu_buf_adds(&lang, msg.buf);
		pic->out = qu_buf_detach(&lang, NULL);
		pic->data = qu_buf_detach(&svg, &pic->len);
	} else if (w->pics && body.len && (dot || !strcmp(lang.buf, "SVG"))) {
		rw_code_text(w, box, NULL, body.buf, body.len);
	}
	if (o) {
		struct qu_rst_doc *sub = sub_parse(w, cap.buf, cap.len);
		xmlNodePtr fc = r_el(w->doc, box, "figcaption", NULL);
		struct qu_buf id = QU_BUF_INIT;

		rw_caption_id(w, box, NULL, &id);
		rw_inlines(w, fc, sub_inline(sub), false);
		rw_headerlink(w, fc, id.buf);
		qu_buf_fini(&id);
		qu_rst_free(sub);
	}
	qu_buf_fini(&body);
	qu_buf_fini(&lang);
	qu_buf_fini(&svg);
	qu_buf_fini(&msg);
	qu_buf_fini(&cap);
}

/*
 * A code block with :caption: or :name: sits in Sphinx's wrapper, which
 * holds the caption with its permalink and the id :ref: links to (the
 * name's, else the next automatic one); the block goes into what this
 * returns.
 */
static xmlNodePtr code_wrapper(struct rw *w, xmlNodePtr parent,
			       const struct qu_rst_node *d)
{
	const char *cap = rw_option(w, d, "caption"), *name;
	struct qu_buf c = QU_BUF_INIT, id = QU_BUF_INIT;
	xmlNodePtr box;

	/* rw_option()'s answer lasts until its next call */
	if (cap)
		qu_buf_adds(&c, cap);
	name = rw_option(w, d, "name");
	if (!c.len && !name)
		return parent;
	if (name && *name)
		qu_rst_name_id(&id, name, strlen(name));
	box = r_el(w->doc, parent, "div", "literal-block-wrapper");
	if (id.len) {
		r_attr(box, "id", id.buf);
	} else {
		rw_caption_id(w, box, NULL, &id);
	}
	if (c.len) {
		xmlNodePtr cd = r_el(w->doc, box, "div", "code-block-caption");

		r_text(w->doc, r_el(w->doc, cd, "span", "caption-text"), c.buf);
		rw_headerlink(w, cd, id.buf);
	}
	qu_buf_fini(&c);
	qu_buf_fini(&id);
	return box;
}

/*
 * Nested includes: a file including itself would never end. Sphinx has
 * no limit but Python's recursion; the kernel nests two deep.
 */
#define MAX_INCLUDE_DEPTH 8

/*
 * include and literalinclude: the file the site read, already cut by
 * :start-after: / :end-before: / :start-line: / :end-line:, shown as a
 * literal block (:literal:, :code:, literalinclude) or read as reST in
 * place of the directive (its sections and labels are the page's: the
 * site read them from the same text).
 */
static void include(struct rw *w, xmlNodePtr parent, const struct qu_rst_node *d,
		    const struct qu_part *part, bool literal)
{
	const char *t = part->text, *e = part->text + part->len, *o;
	const char *lang = NULL;

	if (rw_option(w, d, "literal"))
		literal = true;
	if ((o = rw_option(w, d, "code")) || (o = rw_option(w, d, "language"))) {
		literal = true;
		lang = *o ? qu_arena_strdup(&w->scratch, o) : NULL;
	}
	if (literal) {
		rw_code_text(w, parent, lang, t, (size_t)(e - t));
	} else if (w->includes < MAX_INCLUDE_DEPTH) {
		struct qu_rst_doc *sub = sub_parse(w, t, (size_t)(e - t));
		const struct qu_rst_doc *save = w->rd, *save_ird = w->inc_rd;
		const struct qu_part *save_inc = w->inc;
		struct qu_map *save_targets = w->inc_targets, targets;

		w->includes++;
		w->rd = sub;
		w->inc = part;
		w->inc_rd = sub;
		qu_map_init(&targets);
		rw_collect_targets(w, &targets, sub->root, 0);
		w->inc_targets = &targets;
		rw_blocks(w, parent, sub->root->first);
		w->inc_targets = save_targets;
		qu_map_fini(&targets);
		w->rd = save;
		w->inc = save_inc;
		w->inc_rd = save_ird;
		w->includes--;
		qu_rst_free(sub);
	}
}

/*
 * Raw HTML a site allows still loses the tags GitHub's tagfilter
 * extension disarms in Markdown (<script>, <iframe>, ...): their "<"
 * becomes "&lt;", so both markups let the same HTML through. Golden:
 * test/site/rawhtml.
 */
static void tag_filter(struct qu_buf *b)
{
	static const char *const bad[] = {"title",    "textarea", "style",
					  "xmp",      "iframe",	  "noembed",
					  "noframes", "script",	  "plaintext"};
	struct qu_buf out = QU_BUF_INIT;
	size_t i, k;

	for (i = 0; i < b->len; i++) {
		const char *p = b->buf + i + 1;

		if (b->buf[i] == '<') {
			if (*p == '/')
				p++;
			for (k = 0; k < QU_ARRAY_SIZE(bad); k++) {
				size_t l = strlen(bad[k]);

				if (!strncasecmp(p, bad[k], l) &&
				    strchr(" \t\n/>", p[l] ? p[l] : ' '))
					break;
			}
			if (k < QU_ARRAY_SIZE(bad)) {
				qu_buf_adds(&out, "&lt;");
				continue;
			}
		}
		qu_buf_addc(&out, b->buf[i]);
	}
	qu_buf_reset(b);
	qu_buf_add(b, out.buf, out.len);
	qu_buf_fini(&out);
}

/*
 * parsed-literal: a literal block whose text is read as inline markup,
 * so its roles link (parse-headers.pl's headers are made of them).
 */
static void parsed_literal(struct rw *w, xmlNodePtr parent,
			   const struct qu_rst_node *c)
{
	struct qu_buf body = QU_BUF_INIT;
	struct qu_diags scratch;
	struct qu_rst_doc *sub;
	xmlNodePtr pre = r_el(w->doc, parent, "pre", "qu-code");

	qu_rst_plain(&body, c);
	qu_diags_init(&scratch);
	sub = qu_rst_parse_ex(&scratch, w->pg->diag_path, body.buf, body.len,
			      QU_RST_SPHINX_IDS | QU_RST_INLINE);
	qu_diags_fini(&scratch);
	/* automarkup.py looks in paragraphs only, never in literal blocks */
	w->literal = true;
	rw_inlines(w, r_el(w->doc, pre, "code", NULL), sub_inline(sub), false);
	w->literal = false;
	qu_rst_free(sub);
	qu_buf_fini(&body);
}

void rw_directive(struct rw *w, xmlNodePtr parent,
		      const struct qu_rst_node *d)
{
	const char *name = qu_rst_attr(d, "name");
	const struct qu_rst_node *args = rw_child(d, QU_RST_DIRECTIVE_ARGUMENTS);
	const struct qu_rst_node *c = rw_child(d, QU_RST_DIRECTIVE_CONTENT);
	struct qu_buf arg = QU_BUF_INIT, body = QU_BUF_INIT;

	if (!name)
		name = "";
	if (args)
		qu_rst_plain(&arg, args);
	if (!strcmp(name, "kernel-doc") || !strcmp(name, "toctree")) {
		size_t k, j;
		const struct qu_part *part = part_at(w, d->off, &k);

		/* no part: the site reported why (a missing file) */
		if (part && part->kind == QU_PART_KDOC)
			for (j = w->r->g->part_start[w->f->page][k];
			     j < w->r->g->part_start[w->f->page][k + 1]; j++)
				render_item(w->r, w->ctx, parent,
					    &w->r->g->placed[j]);
		else if (part && part->kind == QU_PART_TOCTREE &&
			 !part->hidden)
			rst_toctree(w, parent, part);
	} else if (!strcmp(name, "include") ||
		   !strcmp(name, "literalinclude")) {
		size_t k;
		const struct qu_part *part =
			w->includes ? NULL : part_at(w, d->off, &k);

		/* no part: "<isonum.txt>", or the site reported why */
		if (part && part->kind == QU_PART_INCLUDE)
			include(w, parent, d, part, name[0] == 'l');
		else if (w->includes)
			rw_unrendered(w, parent, d, "an include in an included file");
	} else if (!strcmp(name, "kernel-include")) {
		size_t k;
		const struct qu_part *part =
			w->includes ? NULL : part_at(w, d->off, &k);

		/* none: the site said why (-Wkernel-include); show the source */
		if (part && part->kind == QU_PART_INCLUDE)
			include(w, parent, d, part, false);
		else
			rw_unrendered(w, parent, d,
				      w->includes ? "kernel-include in an "
						    "included file"
						  : NULL);
	} else if (!strcmp(name, "maintainers-include") ||
		   !strcmp(name, "kernel-feat") || !strcmp(name, "kernel-abi")) {
		size_t k;
		const struct qu_part *part =
			w->includes ? NULL : part_at(w, d->off, &k);

		/*
		 * The site made the reST of MAINTAINERS, of the feature files
		 * or of an ABI folder; none: it said why.
		 */
		if (part && part->kind == QU_PART_INCLUDE)
			include(w, parent, d, part, false);
		else if (w->includes) {
			qu_buf_addf(&body, "%s in an included file", name);
			rw_unrendered(w, parent, d, body.buf);
		}
	} else if (!strcmp(name, "code-block") || !strcmp(name, "code") ||
		   !strcmp(name, "sourcecode")) {
		if (c)
			qu_rst_plain(&body, c);
		rw_code_text(w, code_wrapper(w, parent, d), arg.len ? arg.buf
								 : w->lang,
			     body.buf, body.len);
	} else if (!strcmp(name, "parsed-literal") && c) {
		parsed_literal(w, parent, c);
	} else if (!strcmp(name, "parsed-literal") || !strcmp(name, "math") ||
		   !strcmp(name, "productionlist")) {
		if (c)
			qu_rst_plain(&body, c);
		if (!body.len)
			qu_buf_add(&body, arg.buf, arg.len);
		rw_code_text(w, parent, NULL, body.buf, body.len);
	} else if (!strcmp(name, "highlight")) {
		w->lang =
			arg.len ? qu_arena_strdup(&w->scratch, arg.buf) : NULL;
	} else if (qu_rst_c_namespace(&w->c_ns, d)) {
		/* the scope of the C declarations and references below */
	} else if (!strcmp(name, "tabularcolumns") || !strcmp(name, "index") ||
		   !strcmp(name, "sectnum") || !strncmp(name, "c:namespace", 11) ||
		   !strcmp(name, "title")) {
		/* LaTeX and index hints: nothing to show in HTML */
	} else if (!strcmp(name, "raw")) {
		if (c)
			qu_rst_plain(&body, c);
		if (strstr(arg.buf, "html") && body.len) {
			if (w->r->site->cfg.allow_html) {
				/* the site opted in: written as it is */
				xmlNodePtr t;

				tag_filter(&body);
				t = xmlNewDocTextLen(w->doc, BAD_CAST body.buf,
						     (int)body.len);

				if (!t)
					qu_die_oom();
				t->name = xmlStringTextNoenc;
				if (!xmlAddChild(parent, t))
					qu_die_oom();
			} else
				rw_unrendered(w, parent, d,
					   "raw HTML needs allow_html");
		}
		/* raw LaTeX and other formats are for other builders */
	} else if (!strcmp(name, "ifconfig")) {
		bool unknown;

		if (qu_rst_ifconfig_true(arg.buf, &unknown))
			rw_content(w, parent, d);
		if (unknown) {
			uint32_t line, col;
			const char *path = rw_diag_where(w, d->off, &line, &col);

			qu_diag(w->diags, QU_W_RST_UNRENDERED, path, line, col,
				"ifconfig \"%s\" names what quire cannot "
				"tell (it knows builder == 'html'); its "
				"content is shown",
				arg.buf);
		}
	} else if (!strcmp(name, "only")) {
		if (qu_rst_only_true(arg.buf))
			rw_content(w, parent, d);
	} else if (!strcmp(name, "csv-table")) {
		csv_table(w, parent, d);
	} else if (!strcmp(name, "unicode") || !strcmp(name, "date")) {
		/* in substitution definitions: shown where they are used */
	} else if (!strcmp(name, "flat-table") || !strcmp(name, "list-table")) {
		list_table(w, parent, d, name[0] == 'f');
	} else if (!strcmp(name, "table")) {
		/* the argument is the title of the table in the content */
		struct qu_rst_doc *sub = arg.len ? sub_parse(w, arg.buf,
							     arg.len)
						 : NULL;
		const struct qu_rst_node *tb = c ? c->first : NULL;

		for (; tb; tb = tb->next)
			if (tb->kind == QU_RST_TABLE)
				rw_table(w, parent, tb, sub ? sub_inline(sub) : NULL);
			else
				rw_block(w, parent, tb);
		qu_rst_free(sub);
	} else if (!strcmp(name, "kernel-render")) {
		kernel_render(w, parent, d);
	} else if (!strncmp(name, "c:", 2)) {
		c_decl(w, parent, d);
	} else if (!strcmp(name, "seealso")) {
		seealso(w, parent, &arg, c);
	} else if (!strcmp(name, "versionadded") ||
		   !strcmp(name, "versionchanged") ||
		   !strcmp(name, "deprecated")) {
		xmlNodePtr div = r_el(w->doc, parent, "div", "qu-version");

		qu_buf_reset(&w->tmp);
		qu_buf_addf(&w->tmp, "%s %s",
			    name[7] == 'a'   ? "New in version"
			    : name[7] == 'c' ? "Changed in version"
					     : "Deprecated since version",
			    arg.buf);
		r_text(w->doc, r_el(w->doc, div, "p", "qu-version-title"),
		       w->tmp.buf);
		rw_content(w, div, d);
	} else if (!strcmp(name, "topic") || !strcmp(name, "sidebar")) {
		xmlNodePtr div = r_el(w->doc, parent, "div", "qu-topic");

		r_text(w->doc, r_el(w->doc, div, "p", "qu-topic-title"),
		       arg.buf);
		rw_content(w, div, d);
	} else if (!strcmp(name, "rubric")) {
		r_text(w->doc, r_el(w->doc, parent, "p", "qu-rubric"),
		       arg.buf);
	} else if (!strcmp(name, "centered")) {
		r_text(w->doc, r_el(w->doc, parent, "p", "qu-centered"),
		       arg.buf);
	} else if (!strcmp(name, "class") || !strcmp(name, "cssclass") ||
		   !strcmp(name, "hlist")) {
		rw_content(w, parent, d);
	} else if (!strcmp(name, "contents")) {
		xmlNodePtr nav = r_el(w->doc, parent, "nav", "qu-contents");

		/* the topic's name is its title, "Contents" by default */
		rw_norm_label(&w->href, arg.len ? arg.buf : "Contents");
		qu_buf_reset(&w->tmp);
		for (const char *p = w->href.buf; *p; p++)
			qu_buf_addc(&w->tmp, *p == ' ' ? '-' : *p);
		r_attr(nav, "id", w->tmp.buf);
		const char *dp = rw_option(w, d, "depth");
		unsigned depth = dp ? (unsigned)strtoul(dp, NULL, 10) : 0;
		const struct qu_rst_node *from = d->next;

		if (arg.len)
			r_text(w->doc, r_el(w->doc, nav, "p", "qu-topic-title"),
			       arg.buf);
		/* :local: lists the sections after it; else the page's */
		if (!rw_option(w, d, "local"))
			from = w->rd->root->first;
		toc_sections(w, r_el(w->doc, nav, "ul", NULL), from,
			     depth ? depth : 8);
	} else if (!strcmp(name, "image")) {
		image(w, parent, d, false);
	} else if (!strcmp(name, "figure") || !strcmp(name, "kernel-figure")) {
		image(w, parent, d, true);
	} else if (!strcmp(name, "glossary")) {
		glossary(w, parent, d);
	} else {
		rw_unrendered(w, parent, d, "not supported yet");
	}
	qu_buf_fini(&arg);
	qu_buf_fini(&body);
}

