// SPDX-License-Identifier: MIT
/*
 * page.c - the body of each page, the general index and 404.html
 * (render stage)
 *
 * cmd/quire calls qu_render_init() once, then qu_render_page() for every
 * page and qu_render_extra() for every extra file, from any thread.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "render_int.h"

/* Above this many symbols, the index gets one page per initial. */
#define GENINDEX_SPLIT 2000
/*
 * An initial's page holds at most this many entries (about 250 KB): the
 * kernel's "i" has 7,000, which made one page of 2.5 MB.
 */
#define GENINDEX_PAGE 700

struct page_job {
	uint32_t page;
	struct qu_diags *diags;
	struct qu_render_pics *pics;
};

/*
 * The pages below @page, @depth levels deep, as nested lists. The page
 * tree has no cycles (lib/site refuses toctree entries naming an
 * ancestor), and MAX_TOC_DEPTH bounds a tree a generator made deep.
 */
#define MAX_TOC_DEPTH 8

static void toc_level(const struct qu_render *r, xmlDocPtr doc, xmlNodePtr li,
		      uint32_t page, unsigned depth, const struct frame *f,
		      struct qu_buf *href)
{
	const struct qu_page *p = &r->site->pages[page];
	xmlNodePtr ul;
	size_t k;

	if (!depth || !p->nchildren)
		return;
	ul = r_el(doc, li, "ul", NULL);
	for (k = 0; k < p->nchildren; k++) {
		const struct qu_page *c = &r->site->pages[p->children[k]];
		xmlNodePtr cl = r_el(doc, ul, "li", NULL);

		qu_buf_reset(href);
		qu_site_relpath(href, f->out, c->out);
		r_link(doc, cl, href->buf, c->title);
		toc_level(r, doc, cl, p->children[k], depth - 1, f, href);
	}
}

/*
 * A {toctree} as a list of its pages and, down to :maxdepth: levels (all
 * by default, as Sphinx does), the pages below them.
 */
void render_toctree(const struct qu_render *r, xmlDocPtr doc,
		    xmlNodePtr parent, const struct qu_part *part,
		    const struct frame *f)
{
	xmlNodePtr nav = r_el(doc, parent, "nav", "qu-toctree"), ul;
	struct qu_buf href = QU_BUF_INIT;
	unsigned depth = part->maxdepth && part->maxdepth < MAX_TOC_DEPTH
				 ? part->maxdepth
				 : MAX_TOC_DEPTH;
	size_t i;

	if (part->caption)
		r_text(doc, r_el(doc, nav, "p", "qu-toctree-caption"),
		       part->caption);
	ul = r_el(doc, nav, "ul", NULL);
	for (i = 0; i < part->npages; i++) {
		const struct qu_page *p = &r->site->pages[part->pages[i]];
		xmlNodePtr li = r_el(doc, ul, "li", NULL);

		qu_buf_reset(&href);
		qu_site_relpath(&href, f->out, p->out);
		r_link(doc, li, href.buf, p->title);
		toc_level(r, doc, li, part->pages[i], depth - 1, f, &href);
	}
	qu_buf_fini(&href);
}

/*
 * A zero-config folder listing: folders (ending in "/") with the number of
 * documented files below them, files with their items.
 */
static void files(const struct qu_render *r, xmlDocPtr doc, xmlNodePtr parent,
		  const struct qu_part *part, const struct frame *f)
{
	xmlNodePtr t, tr, tb;
	struct qu_buf b = QU_BUF_INIT;
	size_t i;

	if (!part->nfiles)
		return;
	t = r_el(doc, parent, "table", "qu-files");
	tr = r_el(doc, r_el(doc, t, "thead", NULL), "tr", NULL);
	r_text(doc, r_el(doc, tr, "th", NULL), "Name");
	r_text(doc, r_el(doc, tr, "th", NULL), "About");
	r_text(doc, r_el(doc, tr, "th", NULL), "Files");
	r_text(doc, r_el(doc, tr, "th", NULL), "Items");
	tb = r_el(doc, t, "tbody", NULL);
	for (i = 0; i < part->nfiles; i++) {
		const struct qu_file_entry *e = &part->files[i];
		size_t nl = strlen(e->name);
		bool dir = nl && e->name[nl - 1] == '/';
		xmlNodePtr td;

		tr = r_el(doc, tb, "tr", dir ? "qu-dir" : "qu-file");
		td = r_el(doc, tr, "td", "qu-name");
		qu_buf_reset(&b);
		qu_site_relpath(&b, f->out, r->site->pages[e->page].out);
		r_link(doc, td, b.buf, e->name);
		r_text(doc, r_el(doc, tr, "td", "qu-brief"),
		       e->brief ? e->brief : "");
		qu_buf_reset(&b);
		if (dir)
			qu_buf_addf(&b, "%u", e->nfiles);
		r_text(doc, r_el(doc, tr, "td", "qu-count"), b.buf);
		qu_buf_reset(&b);
		qu_buf_addf(&b, "%u", e->nitems);
		r_text(doc, r_el(doc, tr, "td", "qu-count"), b.buf);
	}
	qu_buf_fini(&b);
}

/*
 * The body of one page, part after part, each Markdown part with the page
 * as its context and each item with its own source file as context, so
 * references resolve from where they are written.
 */
static void page_body(const struct qu_render *r, xmlDocPtr doc,
		      xmlNodePtr content, const struct frame *f, void *payload)
{
	struct page_job *pj = payload;
	const struct qu_page *pg = &r->site->pages[f->page];
	struct qu_md_ctx ctx;
	size_t k, j;

	memset(&ctx, 0, sizeof(ctx));
	ctx.md = r->md;
	ctx.g = r->g;
	ctx.doc = doc;
	ctx.diags = pj->diags;
	ctx.from.page = f->page;
	if (pg->h1)
		r_text(doc, r_el(doc, content, "h1", NULL), pg->title);
	for (k = 0; k < pg->nparts; k++) {
		const struct qu_part *part = &pg->parts[k];

		switch (part->kind) {
		case QU_PART_MARKDOWN:
			ctx.path = pg->diag_path;
			ctx.from.file = NULL;
			ctx.from.sym = QU_NONE;
			ctx.comment = false;
			ctx.heading_min = 1;
			qu_md_render(&ctx, content, part->text, part->len,
				     part->line);
			break;
		case QU_PART_KDOC:
			for (j = r->g->part_start[f->page][k];
			     j < r->g->part_start[f->page][k + 1]; j++)
				render_item(r, &ctx, content, &r->g->placed[j]);
			break;
		case QU_PART_TOCTREE:
			render_toctree(r, doc, content, part, f);
			break;
		case QU_PART_INCLUDE:
			break;
		case QU_PART_RST:
			/* the page's other parts are in its tree */
			render_rst(r, &ctx, content, f, pj->diags, pj->pics);
			return;
		case QU_PART_FILES:
			files(r, doc, content, part, f);
			break;
		}
	}
}

int qu_render_page(struct qu_buf *out, const struct qu_render *r, uint32_t page,
		   struct qu_diags *diags)
{
	const struct qu_page *pg = &r->site->pages[page];
	struct frame f = {pg->out, pg->depth, pg->title, page, NULL};
	struct page_job pj = {page, diags, NULL};

	return render_frame(out, r, &f, page_body, &pj);
}

int qu_render_page_pics(struct qu_buf *out, struct qu_render_pics *pics,
			const struct qu_render *r, uint32_t page,
			struct qu_diags *diags)
{
	const struct qu_page *pg = &r->site->pages[page];
	struct frame f = {pg->out, pg->depth, pg->title, page, NULL};
	struct page_job pj = {page, diags, pics};

	return render_frame(out, r, &f, page_body, &pj);
}

void qu_render_pics_fini(struct qu_render_pics *pics)
{
	for (size_t i = 0; i < pics->n; i++) {
		free(pics->v[i].out);
		free(pics->v[i].data);
	}
	free(pics->v);
	pics->v = NULL;
	pics->n = 0;
}

/*
 * The index's letter of a name; "_" collects the names that start with
 * anything but a letter, as Sphinx's "Symbols" does.
 */
static char initial(const char *name)
{
	char c = name[0];

	if (c >= 'a' && c <= 'z')
		return (char)(c - 'a' + 'A');
	if (c >= 'A' && c <= 'Z')
		return c;
	return '_';
}

/* qu_render.index_sort: the index's order, made by the first who needs it */
struct qu_index_sort {
	pthread_mutex_t lock;
	bool done;
	struct qu_index_memo *memo;
};

static const uint32_t *render_index(const struct qu_render *r);

/* The rows of one stretch of the sorted index, a heading per initial. */
static void index_rows(const struct qu_render *r, xmlDocPtr doc,
		       xmlNodePtr parent, const struct frame *f, size_t first,
		       size_t end)
{
	const uint32_t *index = render_index(r);
	struct qu_buf href = QU_BUF_INIT;
	xmlNodePtr t = NULL, tb = NULL;
	char cur = 0;
	size_t i;

	for (i = first; i < end; i++) {
		const struct qu_sym *s = &r->g->syms[index[i]];
		char c = initial(s->name);
		xmlNodePtr tr, td, a;

		if (c != cur || !t) {
			char id[2] = {c, 0};
			xmlNodePtr h = r_el(doc, parent, "h2", NULL);

			r_attr(h, "id", c == '_' ? "_" : id);
			r_text(doc, h, c == '_' ? "_ and others" : id);
			t = r_el(doc, parent, "table", "qu-genindex");
			tb = r_el(doc, t, "tbody", NULL);
			cur = c;
		}
		tr = r_el(doc, tb, "tr", NULL);
		td = r_el(doc, tr, "td", "qu-name");
		qu_buf_reset(&href);
		render_sym_href(&href, r, f->out, index[i]);
		a = r_link(doc, td, href.buf, "");
		r_text(doc, r_el(doc, a, "code", NULL), s->name);
		r_text(doc, r_el(doc, tr, "td", "qu-kind"),
		       qu_kind_name(s->kind));
		r_text(doc, r_el(doc, tr, "td", "qu-file"),
		       r->g->units[s->unit].path);
	}
	qu_buf_fini(&href);
}

/*
 * The body of an extra file: 404.html, the index, or one initial's page
 * of a split index.
 */
static void extra_body(const struct qu_render *r, xmlDocPtr doc,
		       xmlNodePtr content, const struct frame *f, void *payload)
{
	const struct qu_extra *e = payload;
	struct qu_buf href = QU_BUF_INIT;
	size_t i;

	r_text(doc, r_el(doc, content, "h1", NULL), e->title);
	if (e->kind == 2) {
		xmlNodePtr d = r_el(doc, content, "div", "qu-404"), p;

		p = r_el(doc, d, "p", NULL);
		r_text(doc, p, "There is no page at this address. ");
		qu_buf_adds(&href, "index.html");
		r_link(doc, p, href.buf, "Go to the home page");
		r_text(doc, p, ".");
		goto out;
	}
	if (e->kind == 3) {
		/* the theme's script fills the list from OUT/_search/ */
		xmlNodePtr form = r_el(doc, content, "form", "qu-search-page"), n;

		r_attr(form, "role", "search");
		n = r_el(doc, form, "input", NULL);
		r_attr(n, "type", "search");
		r_attr(n, "name", "q");
		r_attr(n, "id", "search-input");
		r_attr(n, "aria-label", "Search the documentation");
		r_attr(n, "autocomplete", "off");
		r_attr(n, "spellcheck", "false");
		n = r_el(doc, form, "button", NULL);
		r_attr(n, "type", "submit");
		r_text(doc, n, "Search");
		n = r_el(doc, content, "p", "qu-search-status");
		r_attr(n, "id", "search-status");
		r_attr(n, "role", "status");
		n = r_el(doc, content, "noscript", NULL);
		r_text(doc, n, "Searching needs JavaScript.");
		r_el(doc, content, "ol", "qu-search-results");
		r_attr(content->last, "id", "search-results");
		goto out;
	}
	if ((e->kind == 0 && r->nindex > GENINDEX_SPLIT) || e->kind == 1) {
		xmlNodePtr nav = r_el(doc, content, "nav", "qu-letters");

		/* every page of a split index links every other */
		for (i = 0; i < r->nextras; i++) {
			if (r->extras[i].kind != 1)
				continue;
			if (&r->extras[i] == e)
				r_text(doc, r_el(doc, nav, "strong", NULL),
				       r->extras[i].label);
			else
				r_link(doc, nav, r->extras[i].out,
				       r->extras[i].label);
			r_text(doc, nav, " ");
		}
		if (e->kind == 0)
			goto out;
	}
	if (e->kind == 0) {
		xmlNodePtr nav = r_el(doc, content, "nav", "qu-letters");
		char cur = 0;

		const uint32_t *index = render_index(r);

		for (i = 0; i < r->nindex; i++) {
			char c = initial(r->g->syms[index[i]].name);
			char id[4] = {'#', c, 0, 0};

			if (c == cur)
				continue;
			cur = c;
			r_link(doc, nav, id, id + 1);
			r_text(doc, nav, " ");
		}
	}
	index_rows(r, doc, content, f, e->first, e->end);
out:
	qu_buf_fini(&href);
}

int qu_render_extra(struct qu_buf *out, const struct qu_render *r, size_t i)
{
	const struct qu_extra *e = &r->extras[i];
	struct frame f = {e->out, 0, e->title, QU_NONE, NULL};
	struct qu_buf base = QU_BUF_INIT;
	int ret;

	if (e->kind == 2 && r->site->cfg.base_url &&
	    qu_md_url_is_safe(r->site->cfg.base_url)) {
		qu_buf_adds(&base, r->site->cfg.base_url);
		if (base.len && base.buf[base.len - 1] != '/')
			qu_buf_addc(&base, '/');
		f.base = base.buf;
	}
	ret = render_frame(out, r, &f, extra_body, (void *)e);
	qu_buf_fini(&base);
	return ret;
}

/*
 * Sorted by initial first, so that every initial is one contiguous range
 * for the split index pages; then case-insensitively as readers expect.
 */
static int cmp_index(const void *a, const void *b, void *payload)
{
	const struct qu_graph *g = payload;
	const struct qu_sym *x = &g->syms[*(const uint32_t *)a];
	const struct qu_sym *y = &g->syms[*(const uint32_t *)b];
	char ix = initial(x->name), iy = initial(y->name);
	int c;

	/* by initial first, so each initial's entries are contiguous */
	if (ix != iy)
		return ix == '_' ? 1 : iy == '_' ? -1 : ix - iy;
	if ((c = strcasecmp(x->name, y->name)))
		return c;
	if ((c = strcmp(x->name, y->name)))
		return c;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(g->units[x->unit].path, g->units[y->unit].path);
}

/*
 * A symbol with the start of its sort key: the initial's rank, then the
 * first seven bytes of the name as strcasecmp() compares them, so that
 * most comparisons of a kernel's 200,000 entries are of two integers.
 */
struct index_key {
	uint64_t head;
	uint32_t sym;
};

static uint64_t index_head(const char *name)
{
	char ini = initial(name);
	uint64_t h = ini == '_' ? 27 : (uint64_t)(ini - 'A' + 1);
	size_t i = 0;

	for (; i < 7; i++) {
		h <<= 8;
		if (*name)
			h |= (unsigned char)tolower((unsigned char)*name++);
	}
	return h;
}

/* cmp_index() in the same order: the heads first, then all of it */
static int cmp_index_key(const void *a, const void *b, void *payload)
{
	const struct index_key *x = a, *y = b;

	if (x->head != y->head)
		return x->head < y->head ? -1 : 1;
	return cmp_index(&x->sym, &y->sym, payload);
}

static void add_extra(struct qu_render *r, const char *out, const char *title,
		      int kind, size_t first, size_t end)
{
	struct qu_extra *e;

	r->extras = qu_xrealloc(r->extras, (r->nextras + 1) * sizeof(*e));
	e = &r->extras[r->nextras++];
	e->out = qu_xstrdup(out);
	e->title = qu_xstrdup(title);
	e->kind = kind;
	e->first = first;
	e->end = end;
}

/* Depth first from the home page: the order prev/next follows. */
static void reading_order(struct qu_render *r, uint32_t page, size_t *n)
{
	const struct qu_page *pg = &r->site->pages[page];
	size_t k;

	r->pos[page] = (uint32_t)*n;
	r->order[(*n)++] = page;
	for (k = 0; k < pg->nchildren; k++)
		reading_order(r, pg->children[k], n);
}

/*
 * The pages of a split index, from how many names each initial has
 * (@per: A to Z, then "_"): an initial's names in parts of about
 * GENINDEX_PAGE, each part's stretch of the sorted index
 */
static void split_index(struct qu_render *r, const size_t *per,
			struct qu_buf *b, struct qu_buf *title)
{
	size_t start = 0, k;

	for (k = 0; k < 27; start += per[k], k++) {
		char c = k == 26 ? '_' : (char)('A' + k);
		size_t nparts = (per[k] + GENINDEX_PAGE - 1) / GENINDEX_PAGE;
		size_t each, p, s = start;

		if (!per[k])
			continue;
		each = (per[k] + nparts - 1) / nparts;
		for (p = 1; p <= nparts; p++, s += each) {
			size_t e = s + each < start + per[k] ? s + each
							     : start + per[k];

			qu_buf_reset(b);
			qu_buf_addf(b, "genindex-%c", c == '_' ? '_' : c + 32);
			if (p > 1)
				qu_buf_addf(b, "-%zu", p);
			qu_buf_adds(b, ".html");
			qu_buf_reset(title);
			qu_buf_addf(title, "Index \xe2\x80\x94 %c", c);
			if (nparts > 1)
				qu_buf_addf(title, " (%zu of %zu)", p, nparts);
			add_extra(r, b->buf, title->buf, 1, s, e);
			snprintf(r->extras[r->nextras - 1].label,
				 sizeof(r->extras[0].label),
				 p > 1 ? "%c%zu" : "%c", c, p);
		}
	}
}

/*
 * The general index in its order, sorted by the first caller (the
 * renderer's workers may ask at once); from the memo when the placement
 * is the one it was sorted from
 */
static const uint32_t *render_index(const struct qu_render *r)
{
	struct qu_index_sort *o = r->index_sort;
	const struct qu_graph *g = r->g;
	struct qu_index_memo *memo = o->memo;

	pthread_mutex_lock(&o->lock);
	if (o->done) {
		pthread_mutex_unlock(&o->lock);
		return r->index;
	}
	if (memo && g->place_id && memo->place_id == g->place_id &&
	    memo->n == r->nindex) {
		/* the same placement: the same symbols in the same order */
		memcpy(r->index, memo->index, memo->n * sizeof(uint32_t));
	} else {
		struct index_key *keys =
			qu_xmalloc((r->nindex + 1) * sizeof(*keys));
		size_t i;

		for (i = 0; i < r->nindex; i++) {
			keys[i].head = index_head(g->syms[r->index[i]].name);
			keys[i].sym = r->index[i];
		}
		qsort_r(keys, r->nindex, sizeof(*keys), cmp_index_key,
			(void *)g);
		for (i = 0; i < r->nindex; i++)
			r->index[i] = keys[i].sym;
		free(keys);
		if (memo) {
			free(memo->index);
			memo->index = qu_xmalloc((r->nindex + 1) *
						 sizeof(uint32_t));
			memcpy(memo->index, r->index,
			       r->nindex * sizeof(uint32_t));
			memo->n = r->nindex;
			memo->place_id = g->place_id;
		}
	}
	o->done = true;
	pthread_mutex_unlock(&o->lock);
	return r->index;
}

int qu_render_init(struct qu_render *r, const struct qu_site *site,
		   const struct qu_graph *g, struct qu_md *md,
		   const struct qu_files *theme_files, const char *theme_dir,
		   const char *version, struct qu_index_memo *memo,
		   struct qu_buf *err)
{
	struct qu_buf b = QU_BUF_INIT, tmpl = QU_BUF_INIT;
	size_t i, n;

	memset(r, 0, sizeof(*r));
	r->site = site;
	r->g = g;
	r->md = md;
	r->version = version;
	r->title = site->cfg.title ? site->cfg.title : site->pages[0].title;
	qu_buf_addf(&b, "%s/page.html", theme_dir);
	r->tmpl_path = qu_buf_detach(&b, NULL);
	if (qu_files_read(theme_files, &tmpl, r->tmpl_path, err) < 0)
		return -1;
	r->tmpl_len = tmpl.len;
	r->tmpl = qu_buf_detach(&tmpl, NULL);
	r->tmpl_doc = htmlReadMemory(
		r->tmpl, (int)r->tmpl_len, r->tmpl_path, "UTF-8",
		HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
	if (!r->tmpl_doc) {
		qu_buf_addf(err, "%s: libxml2 cannot parse the template",
			    r->tmpl_path);
		qu_buf_fini(&b);
		return -1;
	}

	r->diag_paths = qu_xcalloc(g->nunits ? g->nunits : 1, sizeof(char *));
	for (i = 0; i < g->nunits; i++) {
		qu_buf_reset(&b);
		if (strcmp(site->srctree, ".")) {
			qu_buf_adds(&b, site->srctree);
			qu_buf_addc(&b, '/');
		}
		qu_buf_adds(&b, g->units[i].path);
		r->diag_paths[i] = qu_buf_detach(&b, NULL);
	}

	/* pages in reading order; pages outside the tree go last */
	r->order = qu_xcalloc(site->npages + 1, sizeof(uint32_t));
	r->pos = qu_xmalloc((site->npages + 1) * sizeof(uint32_t));
	memset(r->pos, 0xff, (site->npages + 1) * sizeof(uint32_t));
	n = 0;
	if (site->npages)
		reading_order(r, 0, &n);
	for (i = 0; i < site->npages; i++)
		if (r->pos[i] == QU_NONE) {
			r->pos[i] = (uint32_t)n;
			r->order[n++] = (uint32_t)i;
		}

	/*
	 * the general index: items with a home page, sorted when first
	 * used; its pages split by initial, which comes first in its order
	 * ("_" for any other), so that how many each has is enough here
	 */
	r->index = qu_xmalloc((g->nsyms + 1) * sizeof(uint32_t));
	r->index_sort = qu_xcalloc(1, sizeof(*r->index_sort));
	pthread_mutex_init(&r->index_sort->lock, NULL);
	r->index_sort->memo = memo;
	{
		size_t per[27] = {0};

		for (i = 0; i < g->nsyms; i++)
			if (g->syms[i].param == QU_NONE) {
				char c = initial(g->syms[i].name);

				r->index[r->nindex++] = (uint32_t)i;
				per[c == '_' ? 26 : c - 'A']++;
			}
		add_extra(r, "genindex.html", "Index", 0, 0, r->nindex);
		if (r->nindex > GENINDEX_SPLIT)
			split_index(r, per, &b, &tmpl);
	}
	render_rst_numbers(r);
	add_extra(r, "404.html", "Page not found", 2, 0, 0);
	add_extra(r, "search.html", "Search", 3, 0, 0);
	qu_buf_fini(&b);
	qu_buf_fini(&tmpl);
	return 0;
}

void qu_render_fini(struct qu_render *r)
{
	size_t i;

	for (i = 0; i < r->nextras; i++) {
		free(r->extras[i].out);
		free(r->extras[i].title);
	}
	if (r->diag_paths && r->g)
		for (i = 0; i < r->g->nunits; i++)
			free(r->diag_paths[i]);
	free(r->diag_paths);
	if (r->secnums && r->site) {
		for (i = 0; i < r->site->npages; i++) {
			if (!r->secnums[i])
				continue;
			for (size_t k = 0; k < r->site->pages[i].nheadings; k++)
				free(r->secnums[i][k]);
			free(r->secnums[i]);
		}
	}
	free(r->secnums);
	free(r->extras);
	free(r->index);
	if (r->index_sort) {
		pthread_mutex_destroy(&r->index_sort->lock);
		free(r->index_sort);
	}
	free(r->order);
	free(r->pos);
	xmlFreeDoc(r->tmpl_doc);
	free(r->tmpl);
	free(r->tmpl_path);
	memset(r, 0, sizeof(*r));
}

int qu_render_sitemap(struct qu_buf *out, const struct qu_render *r)
{
	const char *base = r->site->cfg.base_url;
	xmlDocPtr doc;
	xmlNodePtr set;
	xmlChar *mem = NULL;
	struct qu_buf url = QU_BUF_INIT;
	size_t i;
	int size = 0;

	if (!base || !qu_md_url_is_safe(base))
		return 1;
	doc = xmlNewDoc(BAD_CAST "1.0");
	set = doc ? xmlNewDocNode(doc, NULL, BAD_CAST "urlset", NULL) : NULL;
	if (!set)
		qu_die_oom();
	xmlDocSetRootElement(doc, set);
	r_attr(set, "xmlns", "http://www.sitemaps.org/schemas/sitemap/0.9");
	/* in reading order, so the file reads like the site */
	for (i = 0; i < r->site->npages; i++) {
		const struct qu_page *p = &r->site->pages[r->order[i]];
		xmlNodePtr u = xmlNewChild(set, NULL, BAD_CAST "url", NULL);

		qu_buf_reset(&url);
		qu_buf_adds(&url, base);
		if (url.len && url.buf[url.len - 1] != '/')
			qu_buf_addc(&url, '/');
		/* base_url of a versioned site is the folder of them all */
		if (r->nversions)
			qu_buf_addf(&url, "%s/",
				    r->versions[r->version_cur].label);
		qu_buf_adds(&url, p->out);
		if (!u ||
		    !xmlNewTextChild(u, NULL, BAD_CAST "loc", BAD_CAST url.buf))
			qu_die_oom();
		if (r->page_files && r->page_files[r->order[i]].time) {
			qu_buf_reset(&url);
			render_date(&url, r->page_files[r->order[i]].time,
				    true);
			if (!xmlNewTextChild(u, NULL, BAD_CAST "lastmod",
					     BAD_CAST url.buf))
				qu_die_oom();
		}
	}
	xmlDocDumpFormatMemoryEnc(doc, &mem, &size, "UTF-8", 1);
	if (mem && size > 0)
		qu_buf_add(out, mem, (size_t)size);
	xmlFree(mem);
	xmlFreeDoc(doc);
	qu_buf_fini(&url);
	return size > 0 ? 0 : -1;
}
