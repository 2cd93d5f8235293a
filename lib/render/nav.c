// SPDX-License-Identifier: MIT
/*
 * nav.c - the chrome around a page's body: navigation, breadcrumbs,
 * previous/next and the on-page table of contents (render stage)
 *
 * The navigation lists the top level and, along the current page's
 * ancestors, their children: all the pages a reader can reach in one
 * step, without the whole tree of a ten-thousand-page site on every page.
 */
#include <string.h>

#include "render_int.h"

/* The ancestors of @page, the home page excluded; returns the count. */
static size_t ancestors(const struct qu_site *s, uint32_t page, uint32_t *v,
			size_t max)
{
	size_t n = 0;

	while (page != QU_NONE && page != 0 && n < max) {
		v[n++] = page;
		page = s->pages[page].parent;
	}
	return n;
}

static bool in(const uint32_t *v, size_t n, uint32_t x)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

static void level(const struct qu_render *r, xmlDocPtr doc, xmlNodePtr parent,
		  uint32_t page, const struct frame *f, const uint32_t *anc,
		  size_t nanc, struct qu_buf *href);

/* One entry of the navigation, expanded when it leads to the current page. */
static void entry(const struct qu_render *r, xmlDocPtr doc, xmlNodePtr ul,
		  uint32_t c, const struct frame *f, const uint32_t *anc,
		  size_t nanc, struct qu_buf *href)
{
	const struct qu_page *cp = &r->site->pages[c];
	xmlNodePtr li = r_el(doc, ul, "li", NULL), a;
	const char *t = cp->title;

	/* zero-config titles are paths: the tree shows the rest */
	if (r->site->zero_config) {
		size_t tl = strlen(t);
		const char *sl = tl > 1 ? memrchr(t, '/', tl - 1) : NULL;

		if (sl)
			t = sl + 1;
	}
	qu_buf_reset(href);
	qu_site_relpath(href, f->out, cp->out);
	a = r_link(doc, li, href->buf, t);
	if (c == f->page) {
		r_attr(li, "class", "current");
		r_attr(a, "aria-current", "page");
	} else if (in(anc, nanc, c)) {
		r_attr(li, "class", "open");
	}
	if (in(anc, nanc, c))
		level(r, doc, li, c, f, anc, nanc, href);
}

/*
 * One level of the navigation: all the children of @page, each expanded
 * only when it leads to the current page.
 */
/*
 * A folder of the kernel holds hundreds of files (include/linux/: 553):
 * past NAV_MAX children a level shows NAV_AROUND on each side of the
 * current page (NAV_AROUND_UP of the ancestor on the way to it, on the
 * levels above), and a link to the folder's page, which lists them all.
 */
#define NAV_MAX 40
#define NAV_AROUND 8
/* the levels above the current page's keep less of their own */
#define NAV_AROUND_UP 3

/* "… N more" as an entry that leads to the folder page listing them. */
static void more(const struct qu_render *r, xmlDocPtr doc, xmlNodePtr ul,
		 uint32_t page, size_t n, const struct frame *f,
		 struct qu_buf *href)
{
	struct qu_buf t = QU_BUF_INIT;
	xmlNodePtr li = r_el(doc, ul, "li", "qu-nav-more");

	qu_buf_reset(href);
	qu_site_relpath(href, f->out, r->site->pages[page].out);
	qu_buf_addf(&t, "\xe2\x80\xa6 %zu more", n);
	r_link(doc, li, href->buf, t.buf);
	qu_buf_fini(&t);
}

static void level(const struct qu_render *r, xmlDocPtr doc, xmlNodePtr parent,
		  uint32_t page, const struct frame *f, const uint32_t *anc,
		  size_t nanc, struct qu_buf *href)
{
	const struct qu_page *pg = &r->site->pages[page];
	size_t k, lo = 0, hi = pg->nchildren, at = 0, w;
	xmlNodePtr ul;

	if (!pg->nchildren)
		return;
	if (pg->nchildren > NAV_MAX) {
		for (k = 0; k < pg->nchildren; k++)
			if (pg->children[k] == f->page ||
			    in(anc, nanc, pg->children[k])) {
				at = k;
				break;
			}
		w = pg->children[at] == f->page ? NAV_AROUND : NAV_AROUND_UP;
		lo = at > w ? at - w : 0;
		hi = lo + 2 * w + 1;
		if (hi > pg->nchildren) {
			hi = pg->nchildren;
			lo = hi > 2 * w + 1 ? hi - 2 * w - 1 : 0;
		}
	}
	ul = r_el(doc, parent, "ul", NULL);
	if (lo)
		more(r, doc, ul, page, lo, f, href);
	for (k = lo; k < hi; k++)
		entry(r, doc, ul, pg->children[k], f, anc, nanc, href);
	if (hi < pg->nchildren)
		more(r, doc, ul, page, pg->nchildren - hi, f, href);
}

/*
 * The top level, grouped under the captions of the home page's toctrees
 * as Sphinx groups it; pages no captioned toctree lists come after.
 */
static bool top_level_captions(const struct qu_render *r, xmlDocPtr doc,
			       xmlNodePtr slot, const struct frame *f,
			       const uint32_t *anc, size_t nanc,
			       struct qu_buf *href)
{
	const struct qu_page *home = &r->site->pages[0];
	const struct qu_page *pages = r->site->pages;
	bool any = false;
	xmlNodePtr ul = NULL;
	size_t i, k, m;

	for (i = 0; i < home->nparts; i++)
		any |= home->parts[i].kind == QU_PART_TOCTREE &&
		       home->parts[i].caption;
	if (!any)
		return false;
	for (i = 0; i < home->nparts; i++) {
		const struct qu_part *p = &home->parts[i];

		if (p->kind != QU_PART_TOCTREE || !p->caption)
			continue;
		r_text(doc, r_el(doc, slot, "p", "qu-nav-caption"),
		       p->caption);
		ul = r_el(doc, slot, "ul", NULL);
		for (k = 0; k < p->npages; k++)
			if (pages[p->pages[k]].parent == 0)
				entry(r, doc, ul, p->pages[k], f, anc, nanc,
				      href);
	}
	ul = NULL;
	for (k = 0; k < home->nchildren; k++) {
		uint32_t c = home->children[k];
		bool listed = false;

		for (i = 0; i < home->nparts && !listed; i++) {
			const struct qu_part *p = &home->parts[i];

			if (p->kind != QU_PART_TOCTREE || !p->caption)
				continue;
			for (m = 0; m < p->npages && !listed; m++)
				listed = p->pages[m] == c;
		}
		if (listed)
			continue;
		if (!ul)
			ul = r_el(doc, slot, "ul", NULL);
		entry(r, doc, ul, c, f, anc, nanc, href);
	}
	return true;
}

void render_nav(const struct qu_render *r, xmlDocPtr doc, xmlNodePtr slot,
		const struct frame *f)
{
	uint32_t anc[256];
	size_t nanc = 0;
	struct qu_buf href = QU_BUF_INIT;

	if (f->page != QU_NONE)
		nanc = ancestors(r->site, f->page, anc, QU_ARRAY_SIZE(anc));
	if (!top_level_captions(r, doc, slot, f, anc, nanc, &href))
		level(r, doc, slot, 0, f, anc, nanc, &href);
	qu_buf_fini(&href);
}

void render_breadcrumbs(const struct qu_render *r, xmlDocPtr doc,
			xmlNodePtr slot, const struct frame *f)
{
	uint32_t anc[256];
	size_t nanc = 0, i;
	struct qu_buf href = QU_BUF_INIT;
	xmlNodePtr ol = r_el(doc, slot, "ol", NULL), li;

	if (f->page != QU_NONE)
		nanc = ancestors(r->site, f->page, anc, QU_ARRAY_SIZE(anc));
	li = r_el(doc, ol, "li", NULL);
	if (f->page == 0) {
		r_text(doc, li, r->site->pages[0].title);
		goto out;
	}
	qu_site_relpath(&href, f->out, "index.html");
	r_link(doc, li, href.buf, r->site->pages[0].title);
	/* @anc runs from the page up: walk it backwards, page excluded */
	for (i = nanc; i > 1; i--) {
		const struct qu_page *p = &r->site->pages[anc[i - 1]];

		li = r_el(doc, ol, "li", NULL);
		qu_buf_reset(&href);
		qu_site_relpath(&href, f->out, p->out);
		r_link(doc, li, href.buf, p->title);
	}
	li = r_el(doc, ol, "li", NULL);
	r_attr(li, "aria-current", "page");
	r_text(doc, li, f->title);
out:
	qu_buf_fini(&href);
}

void render_prevnext(const struct qu_render *r, xmlDocPtr doc, xmlNodePtr slot,
		     const struct frame *f)
{
	struct qu_buf href = QU_BUF_INIT;
	uint32_t pos, n = (uint32_t)r->site->npages;
	xmlNodePtr a;

	if (f->page == QU_NONE)
		return;
	pos = r->pos[f->page];
	if (pos > 0) {
		const struct qu_page *p = &r->site->pages[r->order[pos - 1]];

		qu_site_relpath(&href, f->out, p->out);
		a = r_link(doc, slot, href.buf, p->title);
		r_attr(a, "rel", "prev");
		r_attr(a, "class", "prev");
	}
	if (pos + 1 < n) {
		const struct qu_page *p = &r->site->pages[r->order[pos + 1]];

		qu_buf_reset(&href);
		qu_site_relpath(&href, f->out, p->out);
		a = r_link(doc, slot, href.buf, p->title);
		r_attr(a, "rel", "next");
		r_attr(a, "class", "next");
	}
	qu_buf_fini(&href);
}

/* Whether an element has a class among its space-separated classes. */
static bool has_class(xmlNodePtr n, const char *cls)
{
	xmlChar *copy;
	const char *v = r_prop(n, "class", &copy);
	bool r = false;

	if (v) {
		const char *p = v;
		size_t l = strlen(cls);

		while ((p = strstr(p, cls))) {
			if ((p == v || p[-1] == ' ') &&
			    (p[l] == 0 || p[l] == ' ')) {
				r = true;
				break;
			}
			p += l;
		}
		xmlFree(copy);
	}
	return r;
}

struct toc {
	xmlDocPtr doc;
	xmlNodePtr top;
	xmlNodePtr last_h2;
	xmlNodePtr sub;
	size_t n;
	struct qu_buf href;
};

/* A heading's words, without the "¶" of its headerlink. */
static void heading_text(struct qu_buf *out, xmlNodePtr n)
{
	for (; n; n = n->next) {
		if (n->type == XML_TEXT_NODE && n->content)
			qu_buf_adds(out, (const char *)n->content);
		else if (n->type == XML_ELEMENT_NODE &&
			 !has_class(n, "headerlink"))
			heading_text(out, n->children);
	}
}

/* One entry of the table of contents; h3 entries go under the last h2. */
static void toc_add(struct toc *t, int lvl, const char *id, xmlNodePtr from)
{
	struct qu_buf text = QU_BUF_INIT;
	xmlNodePtr li;

	if (from->type == XML_TEXT_NODE)
		heading_text(&text, from);
	else
		heading_text(&text, from->children);

	if (lvl == 3 && t->last_h2) {
		if (!t->sub)
			t->sub = r_el(t->doc, t->last_h2, "ul", NULL);
		li = r_el(t->doc, t->sub, "li", NULL);
	} else {
		li = r_el(t->doc, t->top, "li", NULL);
		if (lvl == 2) {
			t->last_h2 = li;
			t->sub = NULL;
		}
	}
	qu_buf_reset(&t->href);
	qu_buf_addc(&t->href, '#');
	qu_buf_adds(&t->href, id);
	r_link(t->doc, li, t->href.buf, text.len ? text.buf : "");
	qu_buf_fini(&text);
	t->n++;
}

/*
 * Headings with ids and item sections, in document order; an item's own
 * headings (Parameters, Return, …) are not entries.
 */
static void toc_walk(struct toc *t, xmlNodePtr n)
{
	for (; n; n = n->next) {
		const char *name, *id;
		xmlChar *copy;

		if (n->type != XML_ELEMENT_NODE)
			continue;
		name = (const char *)n->name;
		id = r_prop(n, "id", &copy);
		if (id && (!strcmp(name, "h2") || !strcmp(name, "h3"))) {
			toc_add(t, name[1] - '0', id, n);
		} else if (id && !strcmp(name, "section") &&
			   (has_class(n, "qu-item") ||
			    has_class(n, "qu-doc"))) {
			xmlNodePtr h = n->children;

			while (h && h->type != XML_ELEMENT_NODE)
				h = h->next;
			/* an item's name is the <code> of its heading */
			if (h && h->children && has_class(n, "qu-item") &&
			    h->children->type == XML_ELEMENT_NODE)
				h = h->children;
			if (h)
				toc_add(t, has_class(n, "qu-doc") ? 2 : 3, id,
					h);
		} else if (id && !strcmp(name, "section")) {
			/*
			 * a reST section: its id, its heading (after the empty
			 * <span id> of the labels that name it), its
			 * subsections
			 */
			xmlNodePtr h = n->children;

			while (h && (h->type != XML_ELEMENT_NODE ||
				     (!strcmp((const char *)h->name, "span") &&
				      !h->children)))
				h = h->next;
			if (h && (!strcmp((const char *)h->name, "h2") ||
				  !strcmp((const char *)h->name, "h3")))
				toc_add(t, h->name[1] - '0', id, h);
			toc_walk(t, n->children);
		} else {
			toc_walk(t, n->children);
		}
		xmlFree(copy);
	}
}

size_t render_toc(xmlDocPtr doc, xmlNodePtr slot, xmlNodePtr content)
{
	struct toc t = {doc, NULL, NULL, NULL, 0, QU_BUF_INIT};

	t.top = r_el(doc, slot, "ul", NULL);
	toc_walk(&t, content->children);
	qu_buf_fini(&t.href);
	return t.n;
}

void render_sym_href(struct qu_buf *out, const struct qu_render *r,
		     const char *from_out, uint32_t sym)
{
	const struct qu_sym *s = &r->g->syms[sym];

	qu_site_relpath(out, from_out, r->site->pages[s->page].out);
	qu_buf_addc(out, '#');
	qu_buf_adds(out, s->anchor);
}
