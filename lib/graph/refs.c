// SPDX-License-Identifier: MIT
/*
 * refs.c - count who references whom, for "Referenced by" (graph stage)
 *
 * Runs over the text of every page and of every item shown at its home,
 * on the thread pool, one result list per page merged in page order. The
 * markup's reader (struct qu_graph_reader) gives the runs of text where
 * its renderer draws links, so code, headings and links are skipped
 * exactly as the pages skip them. With a memo, what an item's comment
 * names is taken from an earlier build (keyed by the unit's content) and
 * only resolved: the markup of unchanged comments is not read again.
 */
#include <stdlib.h>
#include <string.h>

#include "graph_int.h"

struct found {
	uint32_t target;
	struct qu_referrer from;
};

/* one name a comment makes, as the memo keeps it */
struct mref {
	enum qu_ref_kind kind;
	char *name;
	size_t nlen;
	char *member;
	size_t mlen;
	bool amp;
};

/* what one item's comment names: its unit's content hash, its index */
struct memo_item {
	char key[sizeof(struct qu_hash128) + sizeof(uint32_t)];
	struct mref *v;
	size_t n;
	size_t alloc;
};

struct qu_graph_memo {
	struct qu_map items;
	/* the units' content hashes at the last update, in unit order */
	struct qu_hash128 *last;
	size_t nlast;
	/* an entry was filed or forgotten since qu_graph_memo_write() */
	bool changed;
};

struct page_refs {
	struct found *v;
	size_t n;
	size_t alloc;
	/* with a memo: the items read anew */
	struct memo_item **fresh;
	size_t nfresh;
	size_t afresh;
};

struct qu_graph_memo *qu_graph_memo_new(void)
{
	struct qu_graph_memo *m = qu_xcalloc(1, sizeof(*m));

	qu_map_init(&m->items);
	return m;
}

void qu_graph_memo_since(struct qu_graph_memo *m,
			 const struct qu_hash128 *hashes, size_t n)
{
	if (m->last)
		return;
	m->last = qu_xcalloc(n + 1, sizeof(*m->last));
	if (n)
		memcpy(m->last, hashes, n * sizeof(*m->last));
	m->nlast = n;
}

static void item_free(struct memo_item *mi)
{
	size_t i;

	for (i = 0; i < mi->n; i++) {
		free(mi->v[i].name);
		free(mi->v[i].member);
	}
	free(mi->v);
	free(mi);
}

/* Forget every entry. */
static void clear(struct qu_graph_memo *m)
{
	size_t i;

	for (i = 0; i < m->items.cap; i++)
		if (m->items.slots[i].key)
			item_free(m->items.slots[i].value);
	qu_map_fini(&m->items);
	qu_map_init(&m->items);
}

void qu_graph_memo_free(struct qu_graph_memo *m)
{
	if (!m)
		return;
	clear(m);
	qu_map_fini(&m->items);
	free(m->last);
	free(m);
}

/* A length as the memo's file holds it: UINT32_MAX for a NULL string. */
static void put_str(struct qu_buf *b, const char *s, size_t len)
{
	uint32_t n = s ? (uint32_t)len : UINT32_MAX;

	qu_buf_add(b, &n, sizeof(n));
	if (s)
		qu_buf_add(b, s, len);
}

void qu_graph_memo_write(struct qu_graph_memo *m, struct qu_buf *out)
{
	size_t i, k;

	for (i = 0; i < m->items.cap; i++) {
		const struct memo_item *mi = m->items.slots[i].value;
		uint32_t n;

		if (!m->items.slots[i].key)
			continue;
		n = (uint32_t)mi->n;
		qu_buf_add(out, mi->key, sizeof(mi->key));
		qu_buf_add(out, &n, sizeof(n));
		for (k = 0; k < mi->n; k++) {
			const struct mref *r = &mi->v[k];
			uint8_t kind = (uint8_t)r->kind, amp = r->amp;

			qu_buf_add(out, &kind, 1);
			qu_buf_add(out, &amp, 1);
			put_str(out, r->name, r->nlen);
			put_str(out, r->member, r->mlen);
		}
	}
	m->changed = false;
}

bool qu_graph_memo_changed(const struct qu_graph_memo *m)
{
	return m->changed;
}

/* Take @n bytes from @p (@left of them); false when there are fewer. */
static bool take(const char **p, size_t *left, void *out, size_t n)
{
	if (*left < n)
		return false;
	memcpy(out, *p, n);
	*p += n;
	*left -= n;
	return true;
}

/* Step over @n bytes of @p; false when there are fewer. */
static bool skip(const char **p, size_t *left, size_t n)
{
	if (*left < n)
		return false;
	*p += n;
	*left -= n;
	return true;
}

static bool get_str(const char **p, size_t *left, char **s, size_t *len)
{
	uint32_t n;

	if (!take(p, left, &n, sizeof(n)))
		return false;
	*s = NULL;
	*len = 0;
	if (n == UINT32_MAX)
		return true;
	if (*left < n)
		return false;
	*s = qu_xstrndup(*p, n);
	*len = n;
	*p += n;
	*left -= n;
	return true;
}

/* How many items the memo's bytes hold, as far as they can be walked. */
static size_t count_items(const char *p, size_t left)
{
	size_t count = 0;
	uint32_t n, k, len;

	while (left) {
		if (!skip(&p, &left, sizeof(((struct memo_item *)0)->key)) ||
		    !take(&p, &left, &n, sizeof(n)))
			break;
		for (k = 0; k < n; k++)
			if (!skip(&p, &left, 2) ||
			    !take(&p, &left, &len, sizeof(len)) ||
			    (len != UINT32_MAX && !skip(&p, &left, len)) ||
			    !take(&p, &left, &len, sizeof(len)) ||
			    (len != UINT32_MAX && !skip(&p, &left, len)))
				return count;
		count++;
	}
	return count;
}

bool qu_graph_memo_read(struct qu_graph_memo *m, const char *p, size_t left)
{
	/*
	 * the table at its size: a kernel tree's 60,000 items grew it 13
	 * times; with room for the items the next build reads anew, which
	 * would otherwise, one edit of the kernel tree's, move all 60,000
	 * into a table twice as large
	 */
	size_t nitems = count_items(p, left);

	qu_map_reserve(&m->items, nitems + nitems / 8 + 16);
	while (left) {
		struct memo_item *mi = qu_xcalloc(1, sizeof(*mi));
		uint32_t n, k;
		void **slot;
		bool ok = take(&p, &left, mi->key, sizeof(mi->key)) &&
			  take(&p, &left, &n, sizeof(n)) && n <= left / 10;

		for (k = 0; ok && k < n; k++) {
			struct mref *r;
			uint8_t kind = 0, amp = 0;

			QU_VEC_GROW(mi->v, mi->n, mi->alloc);
			r = &mi->v[mi->n];
			memset(r, 0, sizeof(*r));
			ok = take(&p, &left, &kind, 1) &&
			     take(&p, &left, &amp, 1) &&
			     kind <= QU_REF_MEMBER && amp <= 1;
			r->kind = (enum qu_ref_kind)kind;
			r->amp = amp;
			/* the strings are owned by the item even when cut short */
			mi->n++;
			ok = ok && get_str(&p, &left, &r->name, &r->nlen) &&
			     get_str(&p, &left, &r->member, &r->mlen);
		}
		slot = ok ? qu_map_slot(&m->items, mi->key, sizeof(mi->key))
			  : NULL;
		if (!ok || *slot) {
			item_free(mi);
			clear(m);
			return false;
		}
		*slot = mi;
	}
	return true;
}

static void memo_key(char *key, const struct qu_unit *u, uint32_t item)
{
	memcpy(key, &u->hash, sizeof(u->hash));
	memcpy(key + sizeof(u->hash), &item, sizeof(item));
}

static void record(struct memo_item *mi, const struct qu_ref *r)
{
	struct mref *m;

	QU_VEC_GROW(mi->v, mi->n, mi->alloc);
	m = &mi->v[mi->n++];
	m->kind = r->kind;
	m->name = r->name ? qu_xstrndup(r->name, r->nlen) : NULL;
	m->nlen = r->nlen;
	m->member = r->member ? qu_xstrndup(r->member, r->mlen) : NULL;
	m->mlen = r->mlen;
	m->amp = r->amp;
}

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
	struct memo_item *rec;
};

/* A reference found: resolved, and kept when it names another symbol. */
static void found(const struct run_ctx *c, const struct qu_ref *r)
{
	uint32_t s = qu_graph_resolve(c->g, r, c->from, NULL);

	if (s == QU_NONE || s == c->from->sym)
		return;
	QU_VEC_GROW(c->pr->v, c->pr->n, c->pr->alloc);
	c->pr->v[c->pr->n].target = s;
	c->pr->v[c->pr->n].from.page = c->from->page;
	c->pr->v[c->pr->n].from.sym = c->from->sym;
	c->pr->n++;
}

/* One run the markup's reader found: the scanner's references in it. */
static void on_run(void *payload, const char *t, size_t len)
{
	struct run_ctx *c = payload;
	struct qu_ref r;
	size_t pos = 0;

	while (qu_graph_scan(&r, t, len, pos, c->comment)) {
		pos = r.end;
		if (c->rec)
			record(c->rec, &r);
		found(c, &r);
	}
}

/*
 * Whether a reader may give text that @t does not hold as it is: a
 * backslash escape, or an entity ("&amp;", "&#40;") that Markdown decodes.
 */
static bool may_decode(const char *t, size_t len)
{
	const char *p = t, *end = t + len;

	if (memchr(t, '\\', len))
		return true;
	while ((p = memchr(p, '&', (size_t)(end - p)))) {
		const char *q = ++p;

		while (q < end && (*q == '#' || (*q >= '0' && *q <= '9') ||
				   (*q >= 'A' && *q <= 'Z') ||
				   (*q >= 'a' && *q <= 'z')))
			q++;
		if (q > p && q < end && *q == ';')
			return true;
	}
	return false;
}

/* Whether a name the scanner finds in @t resolves to another symbol. */
static bool names_one(const struct qu_graph *g, const char *t, size_t len,
		      bool comment, const struct qu_from *from,
		      struct qu_ref *r)
{
	size_t pos = 0;

	do {
		uint32_t s = qu_graph_resolve(g, r, from, NULL);

		if (s != QU_NONE && s != from->sym)
			return true;
		pos = r->end;
	} while (qu_graph_scan(r, t, len, pos, comment));
	return false;
}

static void scan_text(const struct scan_ctx *sc, struct page_refs *pr,
		      const char *t, size_t len, bool comment,
		      const struct qu_from *from, struct memo_item *rec)
{
	struct run_ctx c = {sc->g, pr, from, comment, rec};
	struct qu_ref r;

	/* most texts name nothing: no need to ask the reader */
	if (!len || !qu_graph_scan(&r, t, len, 0, comment))
		return;
	/*
	 * Nor when nothing they name resolves: the runs the reader gives are
	 * pieces of the text, and markup never ends next to a word byte, so
	 * they hold no name the whole text does not (unless the reader
	 * decodes something). Half of a kernel folder's comments that name
	 * something name nothing the site has.
	 */
	if (!may_decode(t, len) && !names_one(sc->g, t, len, comment, from, &r))
		return;
	sc->rd->runs(sc->rd->ctx, t, len, comment, on_run, &c);
}

/*
 * One page's references, into the page's own list: the pool runs pages in
 * any order, the merge below restores page order.
 */
/*
 * An item's references from the memo, resolved in the order its comment
 * makes them (true); else a new entry for @rec, to fill while reading.
 * The memo is only read here, on the workers; graph_count_refs() files
 * the new entries and marks the used ones afterwards, on one thread.
 */
static bool from_memo(const struct scan_ctx *c, struct page_refs *pr,
		      const struct qu_placed *pl, const struct qu_from *from,
		      struct memo_item **rec)
{
	char key[sizeof(((struct memo_item *)0)->key)];
	struct memo_item *mi;
	struct run_ctx rc = {c->g, pr, from, true, NULL};
	size_t k;

	memo_key(key, &c->g->units[pl->unit], pl->item);
	mi = qu_map_get(&c->rd->memo->items, key, sizeof(key));
	if (!mi) {
		*rec = qu_xcalloc(1, sizeof(**rec));
		memcpy((*rec)->key, key, sizeof(key));
		QU_VEC_GROW(pr->fresh, pr->nfresh, pr->afresh);
		pr->fresh[pr->nfresh++] = *rec;
		return false;
	}
	for (k = 0; k < mi->n; k++) {
		const struct mref *m = &mi->v[k];
		struct qu_ref r = {m->kind, 0,	     0,	      m->name,
				   m->nlen, m->member, m->mlen, m->amp};

		found(&rc, &r);
	}
	return true;
}

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
			scan_text(c, pr, part->text, part->len, false, &from,
				  NULL);
			continue;
		}
		for (j = g->part_start[p][k]; j < g->part_start[p][k + 1];
		     j++) {
			const struct qu_placed *pl = &g->placed[j];
			const struct qu_unit *u = &g->units[pl->unit];
			struct qu_placed_refs *pc = &g->placed_refs[j];
			const struct qu_item *it;
			struct memo_item *rec = NULL;
			size_t n0 = pr->n;

			if (!pl->home)
				continue;
			/* the same comment, the same placement: the same */
			if (pc->ok && qu_hash128_eq(pc->unit, u->hash)) {
				for (i = 0; i < pc->n; i++) {
					QU_VEC_GROW(pr->v, pr->n, pr->alloc);
					pr->v[pr->n].target = pc->v[i];
					pr->v[pr->n].from.page = (uint32_t)p;
					pr->v[pr->n].from.sym = pl->sym;
					pr->n++;
				}
				continue;
			}
			it = &u->items[pl->item];
			from.file = u->path;
			from.sym = pl->sym;
			if (!c->rd->memo || !from_memo(c, pr, pl, &from, &rec)) {
				scan_text(c, pr, it->brief, strlen(it->brief),
					  true, &from, rec);
				for (i = 0; i < it->nparams; i++)
					scan_text(c, pr, it->params[i].desc,
						  strlen(it->params[i].desc),
						  true, &from, rec);
				for (i = 0; i < it->nsections; i++)
					scan_text(c, pr, it->sections[i].body,
						  strlen(it->sections[i].body),
						  true, &from, rec);
			}
			if (!pc->borrowed)
				free(pc->v);
			pc->borrowed = false;
			pc->n = (uint32_t)(pr->n - n0);
			pc->v = qu_xmalloc((pc->n ? pc->n : 1) * sizeof(*pc->v));
			for (i = 0; i < pc->n; i++)
				pc->v[i] = pr->v[n0 + i].target;
			pc->unit = u->hash;
			pc->ok = true;
		}
	}
}

/* a few units changed: their old hashes are checked one by one */
#define FEW_GONE 64

/*
 * Whether the memo forgets entry @key: its unit's content hash (the key's
 * start) is one of @gone (@ngone of them), or, with @gone NULL, is not a
 * key of @live, the set of the units' hashes.
 */
static bool forgets(const char *key, const struct qu_hash128 *gone,
		    size_t ngone, const struct qu_map *live)
{
	size_t i;

	if (!gone)
		return !qu_map_get(live, key, sizeof(*gone));
	for (i = 0; i < ngone; i++)
		if (!memcmp(key, &gone[i], sizeof(*gone)))
			return true;
	return false;
}

/*
 * File the entries the pages read anew, in page order, and forget those
 * of sources the site no longer has (changed or gone): an entry's key
 * begins with its unit's content hash. After an edit of a few files only
 * their old hashes are looked for; after more, every entry is looked up
 * in the set of the units' hashes.
 */
static void memo_update(struct qu_graph_memo *m, struct page_refs *pp,
			size_t np, const struct qu_graph *g)
{
	struct qu_hash128 gone[FEW_GONE], *now;
	size_t p, i, k, ngone = 0, stale = 0;
	bool few = m->last && m->nlast == g->nunits;
	struct qu_map keep, live;

	for (p = 0; p < np; p++) {
		for (i = 0; i < pp[p].nfresh; i++) {
			struct memo_item *mi = pp[p].fresh[i];
			void **slot = qu_map_slot(&m->items, mi->key,
						  sizeof(mi->key));

			/* two files with the same bytes: one entry */
			if (*slot) {
				item_free(mi);
				continue;
			}
			*slot = mi;
			m->changed = true;
		}
		free(pp[p].fresh);
	}
	now = qu_xmalloc((g->nunits + 1) * sizeof(*now));
	for (i = 0; i < g->nunits; i++)
		now[i] = g->units[i].hash;
	for (i = 0; few && i < g->nunits; i++) {
		if (qu_hash128_eq(m->last[i], now[i]))
			continue;
		/* a file whose old bytes another file still has stays */
		for (k = 0; k < g->nunits; k++)
			if (qu_hash128_eq(now[k], m->last[i]))
				break;
		if (k < g->nunits)
			continue;
		if (ngone == FEW_GONE)
			few = false;
		else
			gone[ngone++] = m->last[i];
	}
	qu_map_init(&live);
	if (!few) {
		/* the keys point into @now, which the memo keeps */
		qu_map_reserve(&live, g->nunits);
		for (i = 0; i < g->nunits; i++)
			*qu_map_slot(&live, (const char *)&now[i],
				     sizeof(now[i])) = &now[i];
	}
	free(m->last);
	m->last = now;
	m->nlast = g->nunits;
	/* most rebuilds forget nothing: the table stays as it is */
	if (few && !ngone) {
		qu_map_fini(&live);
		return;
	}
	for (i = 0; i < m->items.cap; i++)
		if (m->items.slots[i].key &&
		    forgets(m->items.slots[i].key, few ? gone : NULL, ngone,
			    &live))
			stale++;
	/*
	 * An edit forgets a file's few entries: taken out of the table
	 * where they are, not by making the table (60,000 entries) anew
	 */
	if (stale && stale <= m->items.n / 8) {
		struct memo_item **dead = qu_xmalloc(stale * sizeof(*dead));
		size_t nd = 0;

		m->changed = true;
		for (i = 0; i < m->items.cap; i++)
			if (m->items.slots[i].key &&
			    forgets(m->items.slots[i].key, few ? gone : NULL,
				    ngone, &live))
				dead[nd++] = m->items.slots[i].value;
		for (i = 0; i < nd; i++) {
			qu_map_del(&m->items, dead[i]->key,
				   sizeof(dead[i]->key));
			item_free(dead[i]);
		}
		free(dead);
		stale = 0;
	}
	if (stale) {
		m->changed = true;
		qu_map_init(&keep);
		qu_map_reserve(&keep, m->items.n - stale);
		for (i = 0; i < m->items.cap; i++) {
			struct memo_item *mi = m->items.slots[i].value;

			if (!m->items.slots[i].key)
				continue;
			if (forgets(mi->key, few ? gone : NULL, ngone, &live))
				item_free(mi);
			else
				*qu_map_slot(&keep, mi->key, sizeof(mi->key)) =
					mi;
		}
		qu_map_fini(&m->items);
		m->items = keep;
	}
	qu_map_fini(&live);
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
	/* a new placement resolves every comment's references anew */
	if (!g->placed_refs)
		g->placed_refs = qu_xcalloc(g->nplaced + 1,
					    sizeof(*g->placed_refs));
	qu_pool_run(threads, np, scan_page, &c);
	if (rd->memo)
		memo_update(rd->memo, c.per_page, np, g);
	for (p = 0; p < np; p++)
		for (i = 0; i < c.per_page[p].n; i++) {
			g->syms[c.per_page[p].v[i].target].nrefs++;
			total++;
		}
	g->refs = qu_xmalloc((total ? total : 1) * sizeof(*g->refs));
	g->nrefs = total;
	fill = qu_xcalloc(g->nsyms ? g->nsyms : 1, sizeof(size_t));
	free(g->ref_idx);
	g->ref_idx = qu_xmalloc((total ? total : 1) * sizeof(*g->ref_idx));
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
		/* the slice's first m entries are its referrers */
		s->refs = g->ref_idx + (v - g->refs);
		for (k = 0; k < m; k++)
			s->refs[k] = (uint32_t)(v - g->refs + k);
		s->nrefs = (uint32_t)m;
	}
	free(fill);
	free(c.per_page);
}
