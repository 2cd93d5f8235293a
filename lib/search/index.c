// SPDX-License-Identifier: MIT
/*
 * index.c - the documents of a site, their terms and the BM25 scores
 *
 * Three steps. The documents are listed in page order (each page, then
 * the items whose home it is). Their text is tokenized on the pool, a
 * chunk of documents a task, into each document's distinct terms with a
 * weighted frequency (a term in the symbol name counts more than one in
 * the body). Then the terms are gathered into postings on the pool again,
 * one task per slice of the hash space, each walking the documents in
 * order, so every posting list comes out sorted by document whatever the
 * number of threads; each task scores its terms (BM25) and keeps the best
 * MAX_POSTINGS of each.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
/* XXH3 inlined: the term tables below hash every token */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "search_int.h"

#define CHUNK 64
/* the slices of the hash space: its top six bits (term_id()) */
#define SLICES 64
#define MAX_POSTINGS 400

/* field weights */
#define W_NAME 12.0f
#define W_NAME_PART 5.0f
#define W_TITLE 8.0f
#define W_HEAD 3.0f
#define W_PARAM 2.0f
#define W_BRIEF 2.0f
#define W_BODY 1.0f

/* BM25's constants */
#define K1 1.2
#define B 0.75

/* a document's term, by where it is: what a slice's task walks */
struct ref {
	uint32_t doc;
	uint32_t k;
};

/*
 * A table of terms by their bytes, for the two steps that number them:
 * a chunk its tokens' terms, a slice its chunks' terms. Open addressing
 * with linear probing at a load under one half; a slot is the term's
 * number and half its hash, so that a probe compares bytes only when
 * the hashes match, growing hashes nothing again, and the table is
 * small to clear. The hash is XXH3, inlined: every token is looked up.
 */
struct tslot {
	uint32_t id;	/* 1 + the term's number; 0: an empty slot */
	uint32_t hash;	/* the low half of its hash */
};

struct tkey {
	const char *term;
	uint32_t len;
};

/* @keys: by number, the terms; the caller's copies of them */
struct ttab {
	struct tslot *slots;
	size_t cap;
	struct tkey *keys;
	uint32_t n;
	uint32_t alloc;
};

static void ttab_fini(struct ttab *t)
{
	free(t->slots);
	free(t->keys);
	memset(t, 0, sizeof(*t));
}

static void ttab_grow(struct ttab *t)
{
	struct tslot *old = t->slots;
	size_t i, ocap = t->cap;

	t->cap = ocap ? 2 * ocap : 256;
	t->slots = qu_xcalloc(t->cap, sizeof(*t->slots));
	for (i = 0; i < ocap; i++) {
		size_t k = old[i].hash & (t->cap - 1);

		if (!old[i].id)
			continue;
		while (t->slots[k].id)
			k = (k + 1) & (t->cap - 1);
		t->slots[k] = old[i];
	}
	free(old);
}

/*
 * The number of @term, whose hash is @h. A new term (@added set) is
 * numbered next, with @term as its key: the caller puts its own copy
 * in its place (t->keys[number].term).
 */
static inline uint32_t ttab_find(struct ttab *t, const char *term,
				 uint32_t len, uint64_t h, bool *added)
{
	size_t k;

	if ((t->n + 1) * 2 > t->cap)
		ttab_grow(t);
	for (k = h & (t->cap - 1);; k = (k + 1) & (t->cap - 1)) {
		struct tslot *s = &t->slots[k];
		const struct tkey *key;

		if (!s->id)
			break;
		key = &t->keys[s->id - 1];
		if (s->hash == (uint32_t)h && key->len == len &&
		    !memcmp(key->term, term, len)) {
			*added = false;
			return s->id - 1;
		}
	}
	if (t->n == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 128;
		t->keys = qu_xrealloc(t->keys, t->alloc * sizeof(*t->keys));
	}
	t->keys[t->n].term = term;
	t->keys[t->n].len = len;
	t->slots[k].id = ++t->n;
	t->slots[k].hash = (uint32_t)h;
	*added = true;
	return t->n - 1;
}

/*
 * A term of a chunk, by its number in the chunk's table: a document
 * finds its own copy of the term through @doc and @at, without a map of
 * its own to fill and empty.
 */
struct cterm {
	uint32_t doc;
	uint32_t at;
	uint8_t slice;
};

/*
 * A chunk's last terms by their first eight bytes and length: most tokens
 * of a chunk repeat one seen shortly before, found here without hashing
 * the token for the table.
 */
#define TCACHE_BITS 10

struct tcache {
	uint64_t key;
	uint32_t len;
	uint32_t id;
};

/*
 * @sterm: once the chunk is tokenized, by term number, 1 + the term's
 * number in its slice (0 until seen there): a slice's task looks a term
 * up once a chunk, not once a document
 */
struct search_chunk {
	struct qu_arena arena;
	struct ttab intern;
	struct tcache *cache;
	struct cterm *terms;
	uint32_t *sterm;
	uint32_t aterms;
	struct ref *refs[SLICES];
	uint32_t nrefs[SLICES];
	uint32_t arefs[SLICES];
};

/* @doc: 1 + the document's number, unique in its chunk */
struct tok_ctx {
	struct search_chunk *c;
	struct search_dterm *v;
	uint32_t n;
	uint32_t alloc;
	uint32_t len;
	uint32_t doc;
	float w;
	float wpart;
	unsigned flags;
};

/* The chunk's number of term @tok, made when new. */
static uint32_t term_id(struct search_chunk *c, const char *tok, size_t len)
{
	struct tcache *e = NULL;
	uint64_t key = 0, h;
	uint32_t id;
	bool added;

	if (c->cache) {
		memcpy(&key, tok, len < 8 ? len : 8);
		e = &c->cache[((key ^ len) * 0x9e3779b97f4a7c15u) >>
			      (64 - TCACHE_BITS)];
		if (e->id && e->len == len && e->key == key &&
		    (len <= 8 || !memcmp(c->intern.keys[e->id - 1].term + 8,
					 tok + 8, len - 8)))
			return e->id - 1;
	}
	h = XXH3_64bits(tok, len);
	id = ttab_find(&c->intern, tok, (uint32_t)len, h, &added);
	if (added) {
		/* one copy of a term for the whole chunk (its documents
		 * share words) */
		struct cterm *ct;

		if (id == c->aterms) {
			c->aterms = c->aterms ? 2 * c->aterms : 256;
			c->terms = qu_xrealloc(c->terms,
					       c->aterms * sizeof(*c->terms));
		}
		c->intern.keys[id].term = qu_arena_strndup(&c->arena, tok, len);
		ct = &c->terms[id];
		ct->doc = 0;
		/* the hash's top bits: the table's slot is from its low ones */
		ct->slice = (uint8_t)(h >> 58);
	}
	if (e) {
		e->key = key;
		e->len = (uint32_t)len;
		e->id = id + 1;
	}
	return id;
}

static void on_token(const char *tok, size_t len, bool part, void *payload)
{
	struct tok_ctx *t = payload;
	struct search_chunk *c = t->c;
	struct search_dterm *d;
	struct cterm *ct;
	float w = part ? t->wpart : t->w;
	uint32_t id;
	size_t i;

	t->len++;
	/* numbers in running text are noise; in names they are kept */
	if (!t->flags) {
		for (i = 0; i < len && tok[i] >= '0' && tok[i] <= '9'; i++)
			;
		if (i == len)
			return;
	}
	/* not in one expression: a new term may move @c->terms */
	id = term_id(c, tok, len);
	ct = &c->terms[id];
	if (ct->doc == t->doc) {
		d = &t->v[ct->at];
		d->tf += w;
		d->flags |= t->flags;
		return;
	}
	if (t->n == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 32;
		t->v = qu_xrealloc(t->v, t->alloc * sizeof(*t->v));
	}
	ct->doc = t->doc;
	ct->at = t->n;
	d = &t->v[t->n++];
	d->term = c->intern.keys[id].term;
	d->len = c->intern.keys[id].len;
	d->id = id;
	d->tf = w;
	d->flags = (uint8_t)t->flags;
	d->slice = ct->slice;
}

static void field(struct tok_ctx *t, const char *s, float w, float wpart,
		  unsigned flags)
{
	if (!s || !*s)
		return;
	t->w = w;
	t->wpart = wpart;
	t->flags = flags;
	qu_search_tokenize(s, strlen(s), on_token, t);
}

static void field_n(struct tok_ctx *t, const char *s, size_t len, float w)
{
	t->w = t->wpart = w;
	t->flags = 0;
	qu_search_tokenize(s, len, on_token, t);
}

static const struct qu_item *doc_item(const struct search_index *x,
				      const struct search_doc *d)
{
	return &x->g->units[d->unit].items[d->item];
}

/* The parts whose text tok_page() reads. */
static bool part_has_words(const struct qu_part *pt)
{
	return pt->kind == QU_PART_MARKDOWN || pt->kind == QU_PART_RST;
}

static void tok_page(struct tok_ctx *t, const struct qu_page *p)
{
	size_t k;

	field(t, p->title, W_TITLE, W_TITLE, SEARCH_FLAG_TITLE);
	for (k = 0; k < p->nheadings; k++)
		if (!p->headings[k].hidden)
			field(t, p->headings[k].text, W_HEAD, W_HEAD,
			      SEARCH_FLAG_TITLE);
	for (k = 0; k < p->nparts; k++) {
		const struct qu_part *pt = &p->parts[k];

		/* a reST page's words are found among its markup */
		if (part_has_words(pt))
			field_n(t, pt->text, pt->len, W_BODY);
	}
}

/*
 * What tok_page() reads, hashed: a page's key in the memo. Each string
 * ends in a NUL, a byte no text holds, so that no two pages' texts run
 * together alike.
 */
static struct qu_hash128 page_key(const struct qu_page *p)
{
	struct qu_buf b = QU_BUF_INIT;
	struct qu_hash128 h;
	size_t k;

	qu_buf_adds(&b, "page");
	qu_buf_addc(&b, 0);
	if (p->title)
		qu_buf_adds(&b, p->title);
	qu_buf_addc(&b, 0);
	for (k = 0; k < p->nheadings; k++) {
		if (p->headings[k].text && !p->headings[k].hidden)
			qu_buf_adds(&b, p->headings[k].text);
		qu_buf_addc(&b, 0);
	}
	qu_buf_addc(&b, 1);
	for (k = 0; k < p->nparts; k++)
		if (part_has_words(&p->parts[k])) {
			qu_buf_add(&b, p->parts[k].text, p->parts[k].len);
			qu_buf_addc(&b, 0);
		}
	h = qu_hash128(b.buf, b.len);
	qu_buf_fini(&b);
	return h;
}

static void tok_item(struct tok_ctx *t, const struct qu_item *it)
{
	size_t k;

	if (it->kind == QU_KIND_DOC)
		field(t, it->name, W_TITLE, W_TITLE, SEARCH_FLAG_TITLE);
	else
		field(t, it->name, W_NAME, W_NAME_PART, SEARCH_FLAG_TITLE);
	field(t, it->brief, W_BRIEF, W_BRIEF, 0);
	for (k = 0; k < it->nparams; k++) {
		field(t, it->params[k].name, W_PARAM, W_PARAM,
		      SEARCH_FLAG_TITLE);
		field(t, it->params[k].desc, W_BODY, W_BODY, 0);
	}
	for (k = 0; k < it->nsections; k++) {
		const char *title = it->sections[k].title;

		if (strcmp(title, "Description") && strcmp(title, "Return") &&
		    strcmp(title, "Context"))
			field(t, title, W_HEAD, W_HEAD, SEARCH_FLAG_TITLE);
		field(t, it->sections[k].body, W_BODY, W_BODY, 0);
	}
	field(t, it->exported, W_BODY, W_BODY, 0);
}

/*
 * What a document's terms are, and its length (which counts tokens no
 * term keeps, numbers of running text), hashed: unchanged, every score
 * it has is the same.
 */
static uint64_t tok_hash(const struct search_dterm *v, uint32_t n,
			 uint32_t len)
{
	struct qu_buf b = QU_BUF_INIT;
	uint64_t h;
	uint32_t k;

	qu_buf_add(&b, &len, sizeof(len));
	for (k = 0; k < n; k++) {
		qu_buf_add(&b, v[k].term, v[k].len + 1);
		qu_buf_add(&b, &v[k].tf, sizeof(v[k].tf));
		qu_buf_add(&b, &v[k].flags, sizeof(v[k].flags));
	}
	h = XXH3_64bits(b.buf, b.len);
	qu_buf_fini(&b);
	return h;
}

static void tokenize_doc(struct search_index *x, struct search_chunk *c, size_t i)
{
	const struct search_doc *d = &x->docs[i];
	struct tok_ctx t = {c, NULL, 0, 0, 0, (uint32_t)i + 1, 0, 0, 0};

	if (d->kind == SEARCH_KIND_PAGE)
		tok_page(&t, &x->site->pages[d->page]);
	else
		tok_item(&t, doc_item(x, d));
	x->docs[i].len = t.len;
	if (x->want_full)
		x->docs[i].tok_hash = tok_hash(t.v, t.n, t.len);
	x->dterms[i] = t.v;
	x->ndterms[i] = t.n;
}

struct tok_run {
	struct search_index *x;
	struct search_chunk *chunks;
};

static void tokenize_chunk(struct qu_job *job, size_t i, void *payload)
{
	struct tok_run *r = payload;
	struct search_chunk *c = &r->chunks[i];
	size_t k, end = (i + 1) * CHUNK;

	(void)job;
	if (end > r->x->ndocs)
		end = r->x->ndocs;
	c->cache = qu_xcalloc((size_t)1 << TCACHE_BITS, sizeof(*c->cache));
	for (k = i * CHUNK; k < end; k++) {
		uint32_t j;

		tokenize_doc(r->x, c, k);
		for (j = 0; j < r->x->ndterms[k]; j++) {
			unsigned sl = r->x->dterms[k][j].slice;

			if (c->nrefs[sl] == c->arefs[sl]) {
				c->arefs[sl] = c->arefs[sl] ? 2 * c->arefs[sl]
							    : 64;
				c->refs[sl] = qu_xrealloc(
					c->refs[sl],
					c->arefs[sl] * sizeof(struct ref));
			}
			c->refs[sl][c->nrefs[sl]].doc = (uint32_t)k;
			c->refs[sl][c->nrefs[sl]++].k = j;
		}
	}
	/* the chunk's own tables go as soon as it is done: less at once */
	c->sterm = qu_xcalloc(c->intern.n + 1, sizeof(uint32_t));
	ttab_fini(&c->intern);
	free(c->cache);
	c->cache = NULL;
	free(c->terms);
	c->terms = NULL;
}

struct slice {
	struct qu_arena arena;
	struct ttab map;
	struct search_term **terms;
	size_t n;
	size_t alloc;
};

struct merge_run {
	struct search_index *x;
	struct slice *slices;
	struct search_chunk *chunks;
	size_t nchunks;
	double avgdl;
};

static int cmp_score(const void *a, const void *b)
{
	const struct search_posting *p = a, *q = b;

	if (p->exact != q->exact)
		return p->exact ? -1 : 1;
	if (p->score != q->score)
		return p->score > q->score ? -1 : 1;
	return p->doc < q->doc ? -1 : p->doc > q->doc;
}

static int cmp_doc(const void *a, const void *b)
{
	const struct search_posting *p = a, *q = b;

	return p->doc < q->doc ? -1 : p->doc > q->doc;
}

/* Whether document @doc is named @term (a symbol or a one-word title). */
static bool name_is(const struct search_index *x, uint32_t doc,
		    const char *term, size_t len)
{
	const struct search_doc *d = &x->docs[doc];
	const char *name = d->kind == SEARCH_KIND_PAGE
				   ? x->site->pages[d->page].title
				   : x->g->units[d->unit].items[d->item].name;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (!c || (c >= 'A' && c <= 'Z' ? c + 32 : c) !=
				  (unsigned char)term[i])
			return false;
	}
	return !name[len];
}

/* Put @p among the best few of @v (by cmp_score), @n of them so far. */
static inline void best_add(const struct search_posting **v, uint32_t *n,
		     const struct search_posting *p)
{
	uint32_t k = *n;

	if (k == SEARCH_TOP) {
		if (cmp_score(p, v[k - 1]) >= 0)
			return;
		k--;
	} else {
		(*n)++;
	}
	for (; k > 0 && cmp_score(p, v[k - 1]) < 0; k--)
		v[k] = v[k - 1];
	v[k] = p;
}

/*
 * The top few of a scored list, as a walk of it sorted by cmp_score
 * would pick them: the title hits (named ones first), then the rest.
 */
static void top_few(struct search_term *t)
{
	const struct search_posting *hit[SEARCH_TOP], *rest[SEARCH_TOP];
	uint32_t nhit = 0, nrest = 0, k;

	for (k = 0; k < t->npost; k++)
		if (t->post[k].score & 4096)
			best_add(hit, &nhit, &t->post[k]);
		else
			best_add(rest, &nrest, &t->post[k]);
	t->ntop = 0;
	for (k = 0; k < nhit; k++)
		t->top[t->ntop++] = hit[k]->doc;
	for (k = 0; k < nrest && t->ntop < SEARCH_TOP; k++)
		t->top[t->ntop++] = rest[k]->doc;
}

/*
 * A score as an integer of 1 to 4095: lround(@s * 64), clamped. In that
 * range (long)x is floor(x) and x - floor(x) is exact (Sterbenz's
 * lemma), so the test below rounds halves up as lround() does, without
 * its call.
 */
static uint32_t quantize(double s)
{
	double x = s * 64;
	long q;

	if (!(x >= 0.5))
		return 1;
	if (x >= 4095)
		return 4095;
	q = (long)x;
	return (uint32_t)(x - (double)q >= 0.5 ? q + 1 : q);
}

/*
 * Score one term's postings (BM25 over the weighted frequencies), keep
 * the best MAX_POSTINGS (documents named by the term first, so a
 * symbol is never cut from its own name's list) and note the top few,
 * whose records go in the term's shard: named ones, then title hits,
 * then the rest, each by score, as the client ranks.
 */
void search_score(struct search_term *t, const struct search_index *x,
		  double avgdl, struct qu_arena *full)
{
	double n = (double)x->ndocs, df = t->npost;
	double idf = log(1.0 + (n - df + 0.5) / (df + 0.5));
	uint32_t k;

	for (k = 0; k < t->npost; k++) {
		struct search_posting *p = &t->post[k];
		double tf = p->tf;
		double dl = x->docs[p->doc].len;
		double s = idf * tf * (K1 + 1) /
			   (tf + K1 * (1 - B + B * dl / avgdl));

		p->score = quantize(s) | (p->flag ? 4096 : 0);
		p->exact = p->flag && name_is(x, p->doc, t->term, t->len);
	}
	/*
	 * Postings come in document order; a list short enough to keep
	 * whole stays in it, and only its top few need ranking (a sort of
	 * every list took most of the index's time)
	 */
	t->full = NULL;
	t->nfull = t->npost;
	if (t->npost <= MAX_POSTINGS) {
		top_few(t);
		return;
	}
	/* the next build's state keeps every posting (state.c) */
	if (full) {
		struct search_posting *c =
			qu_arena_alloc(full, t->npost * sizeof(*c));

		memcpy(c, t->post, t->npost * sizeof(*c));
		t->full = c;
	}
	qsort(t->post, t->npost, sizeof(*t->post), cmp_score);
	if (t->npost > MAX_POSTINGS)
		t->npost = MAX_POSTINGS;
	t->ntop = 0;
	for (k = 0; k < t->npost && t->ntop < SEARCH_TOP; k++)
		if (t->post[k].exact || (t->post[k].score & 4096))
			t->top[t->ntop++] = t->post[k].doc;
	for (k = 0; k < t->npost && t->ntop < SEARCH_TOP; k++)
		if (!t->post[k].exact && !(t->post[k].score & 4096))
			t->top[t->ntop++] = t->post[k].doc;
	qsort(t->post, t->npost, sizeof(*t->post), cmp_doc);
}

/* one posting as gathered, before the postings are grouped by term */
struct raw {
	uint32_t term;
	uint32_t doc;
	float tf;
	bool flag;
};

/*
 * struct search_term.key: numbers that order as strcmp() orders the
 * first eight bytes of the terms, so that most comparisons of the sort
 * need no call of it
 */
static uint64_t term_key(const char *term, uint32_t len)
{
	uint64_t k = 0;
	uint32_t i;

	for (i = 0; i < 8 && i < len; i++)
		k |= (uint64_t)(unsigned char)term[i] << (56 - 8 * i);
	return k;
}

static int cmp_term(const void *a, const void *b)
{
	const struct search_term *p = *(struct search_term *const *)a;
	const struct search_term *q = *(struct search_term *const *)b;

	if (p->key != q->key)
		return p->key < q->key ? -1 : 1;
	return strcmp(p->term, q->term);
}

/* The slice's term of @d, made when new. */
static struct search_term *slice_term(struct slice *s,
				      const struct search_dterm *d)
{
	struct search_term *t;
	bool added;
	uint32_t id = ttab_find(&s->map, d->term, d->len,
				XXH3_64bits(d->term, d->len), &added);

	if (!added)
		return s->terms[id];
	t = qu_arena_zalloc(&s->arena, sizeof(*t));
	t->term = qu_arena_strndup(&s->arena, d->term, d->len);
	t->len = d->len;
	t->key = term_key(t->term, t->len);
	s->map.keys[id].term = t->term;
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 256;
		s->terms = qu_xrealloc(s->terms, s->alloc * sizeof(*s->terms));
	}
	/* the term's number, until the postings are placed */
	t->alloc = (uint32_t)s->n;
	s->terms[s->n++] = t;
	return t;
}

/*
 * Gather one slice's terms: the postings go into one array in document
 * order, then a counting sort by term (stable) gives each term its
 * postings, still in document order, in one allocation.
 */
static void merge_slice(struct qu_job *job, size_t si, void *payload)
{
	struct merge_run *r = payload;
	struct search_index *x = r->x;
	struct slice *s = &r->slices[si];
	struct raw *raw;
	struct search_posting *all;
	uint32_t *fill;
	size_t c, k, nraw = 0, off;

	(void)job;
	for (c = 0; c < r->nchunks; c++)
		nraw += r->chunks[c].nrefs[si];
	raw = qu_xmalloc((nraw + 1) * sizeof(*raw));
	nraw = 0;
	for (c = 0; c < r->nchunks; c++) {
		struct search_chunk *ch = &r->chunks[c];

		for (k = 0; k < ch->nrefs[si]; k++) {
			uint32_t i = ch->refs[si][k].doc;
			const struct search_dterm *d =
				&x->dterms[i][ch->refs[si][k].k];
			uint32_t *st = &ch->sterm[d->id];
			struct search_term *t;

			/*
			 * a chunk's term is in one slice: only this task
			 * writes its @sterm
			 */
			if (!*st)
				*st = slice_term(s, d)->alloc + 1;
			t = s->terms[*st - 1];
			t->npost++;
			raw[nraw].term = t->alloc;
			raw[nraw].doc = i;
			raw[nraw].tf = d->tf;
			raw[nraw].flag = (d->flags & SEARCH_FLAG_TITLE) != 0;
			nraw++;
		}
	}
	all = qu_arena_alloc(&s->arena, (nraw + 1) * sizeof(*all));
	fill = qu_xcalloc(s->n + 1, sizeof(*fill));
	for (off = k = 0; k < s->n; k++) {
		s->terms[k]->post = all + off;
		fill[k] = (uint32_t)off;
		off += s->terms[k]->npost;
	}
	for (k = 0; k < nraw; k++) {
		struct search_posting *p = &all[fill[raw[k].term]++];

		p->doc = raw[k].doc;
		p->tf = raw[k].tf;
		p->flag = raw[k].flag;
		p->exact = false;
		p->score = 0;
	}
	free(fill);
	free(raw);
	for (k = 0; k < s->n; k++)
		search_score(s->terms[k], x, r->avgdl,
			     x->want_full ? &s->arena : NULL);
}

/*
 * BM25's average document length, on a grid of 16 steps a doubling (the
 * rounded length within 2.2% of the true one, a score within about 2%
 * of its value without the rounding): an edit that adds or takes a few
 * words leaves it, and with it every other term's scores, as it was, so
 * that the next build rescores only the terms it touched (state.c).
 */
double search_avgdl(uint64_t sum, size_t ndocs)
{
	double a = ndocs ? (double)sum / (double)ndocs : 1;

	if (a < 1)
		a = 1;
	return exp2(round(log2(a) * 16) / 16);
}

/* List the documents: each page, then the items it is home to. */
static void list_docs(struct search_index *x)
{
	const struct qu_site *s = x->site;
	const struct qu_graph *g = x->g;
	size_t p, k, alloc = s->npages + g->nplaced + 1;

	x->docs = qu_xcalloc(alloc, sizeof(*x->docs));
	for (p = 0; p < s->npages; p++) {
		struct search_doc *d = &x->docs[x->ndocs++];

		d->kind = SEARCH_KIND_PAGE;
		d->page = (uint32_t)p;
		for (k = 0; k < s->pages[p].nparts; k++) {
			uint32_t j;

			for (j = g->part_start[p][k];
			     j < g->part_start[p][k + 1]; j++) {
				const struct qu_placed *pl = &g->placed[j];

				if (!pl->home)
					continue;
				d = &x->docs[x->ndocs++];
				d->page = (uint32_t)p;
				d->unit = pl->unit;
				d->item = pl->item;
				d->anchor = pl->anchor;
				d->kind = g->units[pl->unit]
						  .items[pl->item]
						  .kind;
			}
		}
	}
}

/*
 * The memo's way (quire serve): the documents' terms are taken from the
 * memo by their unit's or page's content, and only what it lacks is
 * tokenized (on the pool, then numbered in its dictionary in order). The
 * postings are then gathered by term number, in document order, with no
 * hashing: the same postings, scores and sorted terms the slices give.
 */

/* an entry the memo lacks: a unit's items, or a page */
struct fill {
	struct qu_hash128 key;
	const struct qu_unit *unit;
	const struct qu_page *page;
	struct search_chunk c;
	struct search_dterm **v;
	uint32_t *n;
	uint32_t *len;
	uint32_t ndocs;
};

static void fill_one(struct qu_job *job, size_t i, void *payload)
{
	struct fill *f = &((struct fill *)payload)[i];
	uint32_t k;

	(void)job;
	qu_arena_init(&f->c.arena);
	f->ndocs = f->unit ? (uint32_t)f->unit->nitems : 1;
	f->v = qu_xcalloc(f->ndocs + 1, sizeof(*f->v));
	f->n = qu_xcalloc(f->ndocs + 1, sizeof(*f->n));
	f->len = qu_xcalloc(f->ndocs + 1, sizeof(*f->len));
	for (k = 0; k < f->ndocs; k++) {
		struct tok_ctx t = {&f->c, NULL, 0, 0, 0, k + 1, 0, 0, 0};

		if (f->unit)
			tok_item(&t, &f->unit->items[k]);
		else
			tok_page(&t, f->page);
		f->v[k] = t.v;
		f->n[k] = t.n;
		f->len[k] = t.len;
	}
	ttab_fini(&f->c.intern);
	free(f->c.terms);
}

/* Number a filled entry's terms into the memo, which then owns it. */
static struct memo_entry *fill_done(struct qu_search_memo *m,
				    struct fill *f)
{
	struct memo_entry *e = qu_xcalloc(1, sizeof(*e));
	uint32_t k, j, total = 0;

	for (k = 0; k < f->ndocs; k++)
		total += f->n[k];
	e->key = f->key;
	e->ndocs = f->ndocs;
	e->gen = m->gen;
	e->start = qu_xcalloc(f->ndocs + 1, sizeof(*e->start));
	e->len = qu_xcalloc(f->ndocs + 1, sizeof(*e->len));
	e->terms = qu_xcalloc(total + 1, sizeof(*e->terms));
	for (total = k = 0; k < f->ndocs; k++) {
		e->start[k] = total;
		e->len[k] = f->len[k];
		for (j = 0; j < f->n[k]; j++) {
			const struct search_dterm *d = &f->v[k][j];
			struct memo_dterm *t = &e->terms[total++];

			t->id = memo_intern(m, d->term, d->len);
			t->tf = d->tf;
			t->flags = d->flags;
		}
		free(f->v[k]);
	}
	e->start[f->ndocs] = total;
	free(f->v);
	free(f->n);
	free(f->len);
	qu_arena_fini(&f->c.arena);
	memo_add(m, e);
	return e;
}

/* where a document's terms are: an entry, and which of its documents */
struct where {
	struct memo_entry *e;
	uint32_t k;
};

/*
 * The entry of every document, and the entries the memo lacks made:
 * @eu (by unit) and @ep (by page) end up holding every entry used.
 */
static void find_entries(struct search_index *x, unsigned threads,
			 struct qu_search_memo *m, struct memo_entry **eu,
			 struct memo_entry **ep)
{
	const struct qu_graph *g = x->g;
	const struct qu_site *site = x->site;
	size_t nmax = site->npages + g->nunits + 1, nf = 0, i;
	struct fill *fills = qu_xcalloc(nmax, sizeof(*fills));
	/* per unit, then per page: 1 + its fill, until the entry exists */
	uint32_t *which = qu_xcalloc(nmax, sizeof(*which));
	struct qu_map pending;

	qu_map_init(&pending);
	for (i = 0; i < x->ndocs; i++) {
		const struct search_doc *d = &x->docs[i];
		bool page = d->kind == SEARCH_KIND_PAGE;
		size_t slot = page ? g->nunits + d->page : d->unit;
		struct memo_entry **to = page ? &ep[d->page] : &eu[d->unit];
		struct qu_hash128 key;
		void **pf;

		if (*to || which[slot])
			continue;
		key = page ? page_key(&site->pages[d->page])
			   : g->units[d->unit].hash;
		if ((*to = memo_find(m, key))) {
			(*to)->gen = m->gen;
			continue;
		}
		/* two files with the same bytes share their entry */
		fills[nf].key = key;
		pf = qu_map_slot(&pending, (const char *)&fills[nf].key,
				 sizeof(key));
		if (!*pf) {
			if (page)
				fills[nf].page = &site->pages[d->page];
			else
				fills[nf].unit = &g->units[d->unit];
			*pf = (void *)(uintptr_t)++nf;
		}
		which[slot] = (uint32_t)(uintptr_t)*pf;
	}
	qu_map_fini(&pending);
	qu_pool_run(threads, nf, fill_one, fills);
	{
		struct memo_entry **made = qu_xcalloc(nf + 1, sizeof(*made));

		for (i = 0; i < nf; i++)
			made[i] = fill_done(m, &fills[i]);
		for (i = 0; i < g->nunits; i++)
			if (which[i])
				eu[i] = made[which[i] - 1];
		for (i = 0; i < site->npages; i++)
			if (which[g->nunits + i])
				ep[i] = made[which[g->nunits + i] - 1];
		free(made);
	}
	free(which);
	free(fills);
}

struct score_run {
	struct search_index *x;
	double avgdl;
};

#define SCORE_CHUNK 1024

static void score_chunk(struct qu_job *job, size_t i, void *payload)
{
	struct score_run *r = payload;
	size_t k, end = (i + 1) * SCORE_CHUNK;

	(void)job;
	if (end > r->x->nterms)
		end = r->x->nterms;
	for (k = i * SCORE_CHUNK; k < end; k++)
		search_score(r->x->terms[k], r->x, r->avgdl, NULL);
}

static void build_from_memo(struct search_index *x, unsigned threads,
			    struct qu_search_memo *m)
{
	const struct qu_graph *g = x->g;
	struct memo_entry **eu = qu_xcalloc(g->nunits + 1, sizeof(*eu));
	struct memo_entry **ep =
		qu_xcalloc(x->site->npages + 1, sizeof(*ep));
	struct where *w = qu_xcalloc(x->ndocs + 1, sizeof(*w));
	uint32_t *count, *at;
	size_t i, j, n = 0, total = 0;
	struct score_run sr = {x, 1};
	uint64_t sum = 0;

	m->gen++;
	find_entries(x, threads, m, eu, ep);
	count = qu_xcalloc(m->nwords + 1, sizeof(*count));
	at = qu_xcalloc(m->nwords + 1, sizeof(*at));
	for (i = 0; i < x->ndocs; i++) {
		const struct search_doc *d = &x->docs[i];

		if (d->kind == SEARCH_KIND_PAGE)
			w[i].e = ep[d->page];
		else {
			w[i].e = eu[d->unit];
			w[i].k = d->item;
		}
		x->docs[i].len = w[i].e->len[w[i].k];
		for (j = w[i].e->start[w[i].k]; j < w[i].e->start[w[i].k + 1];
		     j++)
			count[w[i].e->terms[j].id]++;
	}
	for (i = 0; i < m->nwords; i++)
		if (count[i]) {
			n++;
			total += count[i];
		}
	x->tstore = qu_xcalloc(n + 1, sizeof(*x->tstore));
	x->pstore = qu_xcalloc(total + 1, sizeof(*x->pstore));
	x->terms = qu_xcalloc(n + 1, sizeof(*x->terms));
	for (total = i = 0; i < m->nwords; i++) {
		struct search_term *t;

		if (!count[i])
			continue;
		t = &x->tstore[x->nterms];
		t->term = m->word[i];
		t->len = m->wlen[i];
		t->key = term_key(t->term, t->len);
		t->post = x->pstore + total;
		total += count[i];
		at[i] = (uint32_t)x->nterms;
		x->terms[x->nterms++] = t;
	}
	for (i = 0; i < x->ndocs; i++)
		for (j = w[i].e->start[w[i].k]; j < w[i].e->start[w[i].k + 1];
		     j++) {
			const struct memo_dterm *dt = &w[i].e->terms[j];
			struct search_term *t = &x->tstore[at[dt->id]];
			struct search_posting *p = &t->post[t->npost++];

			p->doc = (uint32_t)i;
			p->tf = dt->tf;
			p->flag = (dt->flags & SEARCH_FLAG_TITLE) != 0;
		}
	for (i = 0; i < x->ndocs; i++)
		sum += x->docs[i].len;
	sr.avgdl = x->avgdl = search_avgdl(sum, x->ndocs);
	qu_pool_run(threads, (x->nterms + SCORE_CHUNK - 1) / SCORE_CHUNK,
		    score_chunk, &sr);
	qsort(x->terms, x->nterms, sizeof(*x->terms), cmp_term);
	memo_sweep(m);
	free(count);
	free(at);
	free(w);
	free(eu);
	free(ep);
}

/* Free every document's terms (not the strings: the chunks own them). */
static void free_dterms(struct search_index *x)
{
	size_t i;

	for (i = 0; i < x->ndocs; i++)
		free(x->dterms[i]);
	free(x->dterms);
	free(x->ndterms);
	x->dterms = NULL;
	x->ndterms = NULL;
}

void search_begin(struct search_index *x, const struct qu_site *site,
		  const struct qu_graph *g)
{
	memset(x, 0, sizeof(*x));
	x->site = site;
	x->g = g;
	qu_arena_init(&x->arena);
	list_docs(x);
}

void search_build(struct search_index *x, unsigned threads,
		  struct qu_search_memo *memo)
{
	struct tok_run tr;
	struct merge_run mr;
	size_t nchunks, i, k, total = 0;
	uint64_t sum = 0;

	if (memo) {
		build_from_memo(x, threads, memo);
		return;
	}
	x->dterms = qu_xcalloc(x->ndocs + 1, sizeof(*x->dterms));
	x->ndterms = qu_xcalloc(x->ndocs + 1, sizeof(*x->ndterms));

	nchunks = (x->ndocs + CHUNK - 1) / CHUNK;
	tr.x = x;
	tr.chunks = qu_xcalloc(nchunks + 1, sizeof(*tr.chunks));
	for (i = 0; i < nchunks; i++)
		qu_arena_init(&tr.chunks[i].arena);
	qu_pool_run(threads, nchunks, tokenize_chunk, &tr);

	for (i = 0; i < x->ndocs; i++)
		sum += x->docs[i].len;
	mr.x = x;
	mr.chunks = tr.chunks;
	mr.nchunks = nchunks;
	mr.avgdl = x->avgdl = search_avgdl(sum, x->ndocs);
	mr.slices = qu_xcalloc(SLICES, sizeof(*mr.slices));
	x->arenas = qu_xcalloc(SLICES, sizeof(*x->arenas));
	x->narenas = SLICES;
	for (i = 0; i < SLICES; i++)
		qu_arena_init(&mr.slices[i].arena);
	qu_pool_run(threads, SLICES, merge_slice, &mr);
	for (i = 0; i < SLICES; i++)
		total += mr.slices[i].n;
	x->terms = qu_xcalloc(total + 1, sizeof(*x->terms));
	for (i = 0; i < SLICES; i++) {
		struct slice *s = &mr.slices[i];

		for (k = 0; k < s->n; k++)
			x->terms[x->nterms++] = s->terms[k];
		free(s->terms);
		ttab_fini(&s->map);
		/* the terms live on in the slice's arena */
		x->arenas[i] = s->arena;
	}
	free(mr.slices);
	qsort(x->terms, x->nterms, sizeof(*x->terms), cmp_term);

	/* the documents' terms and their strings are no longer needed */
	free_dterms(x);
	for (i = 0; i < nchunks; i++) {
		qu_arena_fini(&tr.chunks[i].arena);
		free(tr.chunks[i].sterm);
		for (k = 0; k < SLICES; k++)
			free(tr.chunks[i].refs[k]);
	}
	free(tr.chunks);
}

void search_tokenize_some(struct search_index *x, const uint32_t *docs,
			  size_t n)
{
	struct search_chunk *c = qu_xcalloc(1, sizeof(*c));
	size_t k;

	qu_arena_init(&c->arena);
	x->dterms = qu_xcalloc(x->ndocs + 1, sizeof(*x->dterms));
	x->ndterms = qu_xcalloc(x->ndocs + 1, sizeof(*x->ndterms));
	for (k = 0; k < n; k++)
		tokenize_doc(x, c, docs[k]);
	ttab_fini(&c->intern);
	free(c->terms);
	c->terms = NULL;
	x->some = c;
}

void search_drop_some(struct search_index *x)
{
	if (!x->some)
		return;
	free_dterms(x);
	qu_arena_fini(&x->some->arena);
	free(x->some);
	x->some = NULL;
}

void search_fini(struct search_index *x)
{
	size_t i;

	search_drop_some(x);

	free(x->terms);
	free(x->tstore);
	free(x->pstore);
	qu_big_free(x->kept, x->nkept_alloc * sizeof(*x->kept));
	free(x->docs);
	for (i = 0; i < x->narenas; i++)
		qu_arena_fini(&x->arenas[i]);
	free(x->arenas);
	qu_arena_fini(&x->arena);
}
