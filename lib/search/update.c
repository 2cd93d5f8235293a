// SPDX-License-Identifier: MIT
/*
 * update.c - the index from the last build's state and what changed
 *
 * Part of lib/search; the state file is state.c's. The documents are
 * those of the last build when every page has as many as it had; those
 * of a page whose fingerprint changed are tokenized again, the others
 * keep their lengths. A term is rescored when one of those documents
 * holds it now or held it then: its postings are the state's, less the
 * changed documents, merged with theirs. Any other term keeps its cut
 * and its top documents, and its postings stay in the state until a
 * shard that must be written needs them (search_materialize()).
 */
#include <stdlib.h>
#include <string.h>

#include "search_int.h"

/* the postings the changed documents give one term */
struct fresh {
	const char *term;
	uint32_t len;
	int64_t prev;	/* the term's number in the state, or -1 */
	struct search_posting *post;
	uint32_t n;
	uint32_t alloc;
};

/* The state's number of @term, or -1. */
static int64_t find_term(const struct search_state *s, const char *term,
			 uint32_t len)
{
	size_t lo = 0, hi = s->hdr->nterms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *m = s->str + s->term_str[mid];
		int c = strncmp(m, term, len);

		if (!c && m[len])
			c = 1;
		if (!c)
			return (int64_t)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static void state_posting(struct search_posting *p,
			  const struct search_state *s, uint32_t k)
{
	p->doc = s->post_doc[k] & 0x7fffffffu;
	p->flag = (s->post_doc[k] & 0x80000000u) != 0;
	p->tf = s->post_tf[k];
	p->score = 0;
	p->exact = false;
}

void search_materialize(struct search_index *x, const struct search_state *s,
			struct search_term *t)
{
	uint32_t a = s->post_off[t->prev - 1], z = s->post_off[t->prev], k;

	if (t->post)
		return;
	t->post = qu_arena_alloc(&x->arena, (z - a + 1) * sizeof(*t->post));
	for (k = a; k < z; k++)
		state_posting(&t->post[k - a], s, k);
	t->npost = z - a;
	search_score(t, x, x->avgdl, NULL);
}

/*
 * A rescored term: the state's postings (@prev, or none) but those of
 * changed documents, merged by document with the fresh ones (@f, or
 * none). Return: the term, or NULL when no document holds it any more.
 */
static struct search_term *rescore(struct search_index *x,
				   const struct search_state *s, int64_t prev,
				   const struct fresh *f, const uint8_t *changed)
{
	uint32_t a = 0, z = 0, k, j = 0, n = 0;
	struct search_term *t;

	if (prev >= 0) {
		a = s->post_off[prev];
		z = s->post_off[prev + 1];
	}
	t = qu_arena_zalloc(&x->arena, sizeof(*t));
	t->post = qu_arena_alloc(&x->arena, ((z - a) + (f ? f->n : 0) + 1) *
						    sizeof(*t->post));
	for (k = a; k <= z; k++) {
		uint32_t doc = k < z ? s->post_doc[k] & 0x7fffffffu : UINT32_MAX;

		while (f && j < f->n && f->post[j].doc < doc)
			t->post[n++] = f->post[j++];
		if (k < z && !(changed[doc] & SEARCH_TERMS_CHANGED))
			state_posting(&t->post[n++], s, k);
	}
	if (!n)
		return NULL;
	if (prev >= 0) {
		t->term = s->str + s->term_str[prev];
		t->len = s->term_str[prev + 1] - s->term_str[prev] - 1;
	} else {
		t->term = f->term;
		t->len = f->len;
	}
	t->npost = n;
	search_score(t, x, x->avgdl, &x->arena);
	return t;
}

static int cmp_fresh(const void *a, const void *b)
{
	const struct fresh *p = *(struct fresh *const *)a;
	const struct fresh *q = *(struct fresh *const *)b;
	uint32_t n = p->len < q->len ? p->len : q->len;
	int c = memcmp(p->term, q->term, n);

	return c ? c : (p->len > q->len) - (p->len < q->len);
}

/* Gather the changed documents' terms, by term, in document order. */
static struct fresh *gather(const struct search_index *x,
			    const struct search_state *s,
			    const uint32_t *docs, size_t ndocs, size_t *nout)
{
	struct qu_map map;
	struct fresh *v = NULL;
	size_t n = 0, alloc = 0, i;
	uint32_t k;

	qu_map_init(&map);
	for (i = 0; i < ndocs; i++)
		for (k = 0; k < x->ndterms[docs[i]]; k++) {
			const struct search_dterm *d = &x->dterms[docs[i]][k];
			void **slot = qu_map_slot(&map, d->term, d->len);
			struct fresh *f;

			if (!*slot) {
				QU_VEC_GROW(v, n, alloc);
				memset(&v[n], 0, sizeof(v[n]));
				v[n].term = d->term;
				v[n].len = d->len;
				v[n].prev = find_term(s, d->term, d->len);
				*slot = (void *)(uintptr_t)++n;
			}
			f = &v[(uintptr_t)*slot - 1];
			QU_VEC_GROW(f->post, f->n, f->alloc);
			f->post[f->n].doc = docs[i];
			f->post[f->n].tf = d->tf;
			f->post[f->n].flag = (d->flags & SEARCH_FLAG_TITLE) != 0;
			f->post[f->n].score = 0;
			f->post[f->n].exact = false;
			f->n++;
		}
	qu_map_fini(&map);
	*nout = n;
	return v;
}

/*
 * The state's terms in chunks, on the workers: which a changed document
 * held, then the unchanged ones' entries (a kernel tree: 160,000 terms,
 * 17 MB of new memory, whose first touch is most of the update's time)
 */
struct kept_run {
	struct search_index *x;
	const struct search_state *s;
	const uint8_t *changed;
	bool *affected;
};

#define KEPT_CHUNK 8192

static void find_affected(struct qu_job *job, size_t c, void *payload)
{
	const struct kept_run *kr = payload;
	const struct search_state *s = kr->s;
	size_t i, end = (c + 1) * KEPT_CHUNK;
	uint32_t k;

	(void)job;
	for (i = c * KEPT_CHUNK; i < end && i < s->hdr->nterms; i++)
		for (k = s->post_off[i]; k < s->post_off[i + 1]; k++)
			if (kr->changed[s->post_doc[k] & 0x7fffffffu] &
			    SEARCH_TERMS_CHANGED) {
				kr->affected[i] = true;
				break;
			}
}

static void fill_kept(struct qu_job *job, size_t c, void *payload)
{
	const struct kept_run *kr = payload;
	const struct search_state *s = kr->s;
	size_t i, end = (c + 1) * KEPT_CHUNK;

	(void)job;
	for (i = c * KEPT_CHUNK; i < end && i < s->hdr->nterms; i++) {
		struct search_term *t = &kr->x->kept[i];

		if (kr->affected[i])
			continue;
		t->term = s->str + s->term_str[i];
		t->len = s->term_str[i + 1] - s->term_str[i] - 1;
		t->npost = s->kept[i];
		t->nfull = s->post_off[i + 1] - s->post_off[i];
		t->ntop = s->top_off[i + 1] - s->top_off[i];
		memcpy(t->top, s->top + s->top_off[i],
		       t->ntop * sizeof(*t->top));
		t->prev = (uint32_t)i + 1;
	}
}

bool search_update(struct search_index *x, const struct search_state *s,
		   const uint64_t *page_keys, uint8_t *changed,
		   unsigned threads)
{
	const struct state_hdr *h = s->hdr;
	uint32_t *per_page, *docs;
	size_t i, ndocs = 0, nfresh = 0, nnew = 0, k;
	struct fresh *fresh, **fresh_new, **by_prev;
	bool *affected;
	uint64_t sum = 0;
	bool ok = h->npages == x->site->npages && h->ndocs == x->ndocs;

	if (!ok)
		return false;
	per_page = qu_xcalloc(h->npages + 1, sizeof(*per_page));
	for (i = 0; i < x->ndocs; i++)
		per_page[x->docs[i].page]++;
	for (i = 0; i < h->npages && ok; i++)
		ok = per_page[i] == s->page_ndocs[i];
	free(per_page);
	if (!ok)
		return false;
	docs = qu_xcalloc(x->ndocs + 1, sizeof(*docs));
	for (i = 0; i < x->ndocs; i++) {
		if (page_keys[x->docs[i].page] !=
		    s->page_key[x->docs[i].page]) {
			changed[i] = SEARCH_PAGE_CHANGED;
			docs[ndocs++] = (uint32_t)i;
		} else {
			x->docs[i].len = s->doc_len[i];
			x->docs[i].tok_hash = s->tok_hash[i];
		}
	}
	/*
	 * Past half the documents to read again (the theme, the version,
	 * the navigation changed every page) or a quarter whose terms
	 * changed, building the index whole is as quick.
	 */
	if (ndocs > x->ndocs / 2) {
		free(docs);
		return false;
	}
	search_tokenize_some(x, docs, ndocs);
	/* a page changes, most of its documents do not */
	for (i = k = 0; i < ndocs; i++)
		if (x->docs[docs[i]].tok_hash != s->tok_hash[docs[i]]) {
			changed[docs[i]] |= SEARCH_TERMS_CHANGED;
			docs[k++] = docs[i];
		}
	ndocs = k;
	if (ndocs > x->ndocs / 4) {
		search_drop_some(x);
		free(docs);
		return false;
	}
	for (i = 0; i < x->ndocs; i++)
		sum += x->docs[i].len;
	x->avgdl = search_avgdl(sum, x->ndocs);
	if (x->avgdl != search_avgdl(h->sum_len, h->ndocs)) {
		search_drop_some(x);
		free(docs);
		return false;
	}

	/* the state's terms a changed document held, or holds now */
	affected = qu_xcalloc(h->nterms + 1, sizeof(*affected));
	{
		struct kept_run kr = {x, s, changed, affected};

		qu_pool_run(threads, (h->nterms + KEPT_CHUNK - 1) / KEPT_CHUNK,
			    find_affected, &kr);
	}
	fresh = gather(x, s, docs, ndocs, &nfresh);
	by_prev = qu_xcalloc(h->nterms + 1, sizeof(*by_prev));
	fresh_new = qu_xcalloc(nfresh + 1, sizeof(*fresh_new));
	for (i = 0; i < nfresh; i++) {
		if (fresh[i].prev >= 0) {
			affected[fresh[i].prev] = true;
			by_prev[fresh[i].prev] = &fresh[i];
		} else {
			fresh_new[nnew++] = &fresh[i];
		}
	}
	qsort(fresh_new, nnew, sizeof(*fresh_new), cmp_fresh);

	/* the terms in order: the state's and the new, merged */
	x->terms = qu_xcalloc(h->nterms + nnew + 1, sizeof(*x->terms));
	/*
	 * the state's unchanged terms in one zeroed block (a kernel tree
	 * has 160,000 of 104 bytes: 17 MB of small allocations before)
	 */
	x->nkept_alloc = h->nterms + 1;
	x->kept = qu_big_alloc(x->nkept_alloc * sizeof(*x->kept));
	for (i = 0, k = 0; i < h->nterms || k < nnew;) {
		const char *si = i < h->nterms ? s->str + s->term_str[i] : NULL;
		struct search_term *t;
		bool take_new = k < nnew;

		if (take_new && si) {
			const struct fresh *f = fresh_new[k];
			int c = strncmp(f->term, si, f->len);

			take_new = c < 0 || (!c && si[f->len]);
		}
		if (take_new) {
			t = rescore(x, s, -1, fresh_new[k++], changed);
		} else if (affected[i]) {
			t = rescore(x, s, (int64_t)i, by_prev[i], changed);
			i++;
		} else {
			/* filled below, on the workers */
			t = &x->kept[i];
			i++;
		}
		if (t)
			x->terms[x->nterms++] = t;
	}
	{
		struct kept_run kr = {x, s, changed, affected};

		qu_pool_run(threads, (h->nterms + KEPT_CHUNK - 1) / KEPT_CHUNK,
			    fill_kept, &kr);
	}
	for (i = 0; i < nfresh; i++)
		free(fresh[i].post);
	free(fresh);
	free(fresh_new);
	free(by_prev);
	free(affected);
	free(docs);
	return true;
}
