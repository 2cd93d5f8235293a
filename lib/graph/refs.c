// SPDX-License-Identifier: MIT
/*
 * refs.c - count who references whom, for "Referenced by" (graph stage)
 *
 * Runs over the text of every page and of every item shown at its home,
 * on the thread pool, one result list per page merged in page order. The
 * markup's reader (struct qu_graph_reader) gives the runs of text where
 * its renderer draws links, so code, headings and links are skipped
 * exactly as the pages skip them.
 */
#include <stdlib.h>
#include <string.h>

#include "graph_int.h"

struct found {
	uint32_t target;
	struct qu_referrer from;
};

struct page_refs {
	struct found *v;
	size_t n;
	size_t alloc;
};

struct scan_ctx {
	struct qu_graph *g;
	const struct qu_graph_reader *rd;
	struct page_refs *per_page;
};

/* Where the references of one text go. */
struct run_ctx {
	const struct qu_graph *g;
	struct page_refs *pr;
	const struct qu_from *from;
	bool comment;
};

/* One run the markup's reader found: the scanner's references in it. */
static void on_run(void *payload, const char *t, size_t len)
{
	struct run_ctx *c = payload;
	struct qu_ref r;
	size_t pos = 0;

	while (qu_graph_scan(&r, t, len, pos, c->comment)) {
		uint32_t s = qu_graph_resolve(c->g, &r, c->from, NULL);

		pos = r.end;
		if (s == QU_NONE || s == c->from->sym)
			continue;
		QU_VEC_GROW(c->pr->v, c->pr->n, c->pr->alloc);
		c->pr->v[c->pr->n].target = s;
		c->pr->v[c->pr->n].from.page = c->from->page;
		c->pr->v[c->pr->n].from.sym = c->from->sym;
		c->pr->n++;
	}
}

static void scan_text(const struct scan_ctx *sc, struct page_refs *pr,
		      const char *t, size_t len, bool comment,
		      const struct qu_from *from)
{
	struct run_ctx c = {sc->g, pr, from, comment};
	struct qu_ref r;

	/* most texts name nothing: no need to ask the reader */
	if (!len || !qu_graph_scan(&r, t, len, 0, comment))
		return;
	sc->rd->runs(sc->rd->ctx, t, len, comment, on_run, &c);
}

/*
 * One page's references, into the page's own list: the pool runs pages in
 * any order, the merge below restores page order.
 */
static void scan_page(struct qu_job *job, size_t p, void *payload)
{
	struct scan_ctx *c = payload;
	struct qu_graph *g = c->g;
	const struct qu_page *pg = &g->site->pages[p];
	struct page_refs *pr = &c->per_page[p];
	size_t k, j, i;

	(void)job;
	for (k = 0; k < pg->nparts; k++) {
		const struct qu_part *part = &pg->parts[k];
		struct qu_from from = {(uint32_t)p, NULL, QU_NONE};

		if (part->kind == QU_PART_MARKDOWN) {
			scan_text(c, pr, part->text, part->len, false, &from);
			continue;
		}
		for (j = g->part_start[p][k]; j < g->part_start[p][k + 1];
		     j++) {
			const struct qu_placed *pl = &g->placed[j];
			const struct qu_item *it;

			if (!pl->home)
				continue;
			it = &g->units[pl->unit].items[pl->item];
			from.file = g->units[pl->unit].path;
			from.sym = pl->sym;
			scan_text(c, pr, it->brief, strlen(it->brief), true,
				  &from);
			for (i = 0; i < it->nparams; i++)
				scan_text(c, pr, it->params[i].desc,
					  strlen(it->params[i].desc), true,
					  &from);
			for (i = 0; i < it->nsections; i++)
				scan_text(c, pr, it->sections[i].body,
					  strlen(it->sections[i].body), true,
					  &from);
		}
	}
}

/*
 * Referrers sort by page, then by item, so "Referenced by" reads in site
 * order and duplicates become neighbours.
 */
static int cmp_ref(const void *a, const void *b)
{
	const struct qu_referrer *x = a, *y = b;

	if (x->page != y->page)
		return x->page < y->page ? -1 : 1;
	if (x->sym != y->sym)
		return x->sym < y->sym ? -1 : 1;
	return 0;
}

void graph_count_refs(struct qu_graph *g, const struct qu_graph_reader *rd,
		      unsigned threads)
{
	struct scan_ctx c = {g, rd, NULL};
	size_t p, i, total = 0, *fill;
	size_t np = g->site->npages;

	c.per_page = qu_xcalloc(np ? np : 1, sizeof(*c.per_page));
	qu_pool_run(threads, np, scan_page, &c);
	for (p = 0; p < np; p++)
		for (i = 0; i < c.per_page[p].n; i++) {
			g->syms[c.per_page[p].v[i].target].nrefs++;
			total++;
		}
	g->refs = qu_xmalloc((total ? total : 1) * sizeof(*g->refs));
	g->nrefs = total;
	fill = qu_xcalloc(g->nsyms ? g->nsyms : 1, sizeof(size_t));
	/* each symbol's slice of @g->refs, then the referrers in order */
	{
		size_t off = 0;

		for (i = 0; i < g->nsyms; i++) {
			fill[i] = off;
			off += g->syms[i].nrefs;
		}
	}
	for (p = 0; p < np; p++) {
		for (i = 0; i < c.per_page[p].n; i++) {
			const struct found *f = &c.per_page[p].v[i];

			g->refs[fill[f->target]++] = f->from;
		}
		free(c.per_page[p].v);
	}
	for (i = 0; i < g->nsyms; i++) {
		struct qu_sym *s = &g->syms[i];
		struct qu_referrer *v;
		size_t n = s->nrefs, k, m;

		if (!n)
			continue;
		v = g->refs + fill[i] - n;
		qsort(v, n, sizeof(*v), cmp_ref);
		for (k = m = 0; k < n; k++)
			if (!m || cmp_ref(&v[m - 1], &v[k]))
				v[m++] = v[k];
		s->refs = qu_arena_alloc(&g->arena, m * sizeof(uint32_t));
		for (k = 0; k < m; k++)
			s->refs[k] = (uint32_t)(v - g->refs + k);
		s->nrefs = (uint32_t)m;
	}
	free(fill);
	free(c.per_page);
}
