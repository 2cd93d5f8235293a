// SPDX-License-Identifier: MIT
/*
 * state.c - what one search index leaves for the next build
 *
 * Part of lib/search. The index's scores depend on every document, but
 * only through their number and their average length (kept on a coarse
 * grid, search_avgdl()): while neither moves, a term none of whose
 * documents changed has the scores, the cut and the top documents it
 * had. So a build with a cache writes, beside the site, every term with
 * all its postings (document, weighted frequency, title flag), what the
 * shards were cut from (each term's kept postings and top documents,
 * each document's record size) and each page's fingerprint. The next
 * build maps the file, tokenizes only the documents of the pages whose
 * fingerprint changed, rescores only the terms they hold or held, and
 * writes only the shards those terms (or those documents' records) are
 * in; every other shard is the last site's. The bytes are those of a
 * build from nothing: test/build/incremental.py checks it.
 *
 * The file: a header (magic, byte order, format, quire's version, the
 * counts, an XXH3 of the rest), then the arrays in the order of struct
 * search_state, each padded to 8 bytes. A file that is short, corrupt,
 * foreign or of another version is not used (the index is built whole).
 * It is removed before the new index is written and put back by
 * qu_search_state_commit() once the site holding that index is in
 * place, so that it never describes a site OUT does not hold.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "qu_config.h"
#include "search_int.h"

#define STATE_MAGIC "quire-search-st\n"
#define STATE_FORMAT 1
#define STATE_BOM 0x01020304u
/* the title flag, in a posting's document number */
#define POST_FLAG 0x80000000u


static size_t pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* The size of each array, in the file's order; returns the total. */
static size_t layout(const struct state_hdr *h, size_t *sz)
{
	size_t i, total = 0;

	sz[0] = h->npages * 8;		/* page_key */
	sz[1] = h->npages * 4;		/* page_ndocs */
	sz[2] = h->ndocs * 4;		/* doc_len */
	sz[3] = h->ndocs * 4;		/* rec_size */
	sz[4] = h->ndocs * 8;		/* tok_hash */
	sz[5] = h->ndocs * 8;		/* rec_hash */
	sz[6] = (h->nterms + 1) * 4;	/* term_str */
	sz[7] = (h->nterms + 1) * 4;	/* post_off */
	sz[8] = h->nterms * 4;		/* kept */
	sz[9] = (h->nterms + 1) * 4;	/* top_off */
	sz[10] = h->ntop * 4;		/* top */
	sz[11] = (h->nshards + 1) * 4;	/* shard_first */
	sz[12] = h->npost * 4;		/* post_doc */
	sz[13] = h->npost * 4;		/* post_tf */
	sz[14] = h->str_bytes;		/* str */
	for (i = 0; i < STATE_ARRAYS; i++)
		total += pad8(sz[i]);
	return total;
}

static bool increasing(const uint32_t *v, size_t n, uint32_t max)
{
	size_t i;

	if (v[0] != 0 || v[n] != max)
		return false;
	for (i = 0; i < n; i++)
		if (v[i] > v[i + 1])
			return false;
	return true;
}

/* Everything an index reads from the state, checked; or why not. */
static const char *check(const struct search_state *s)
{
	const struct state_hdr *h = s->hdr;
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < h->npages; i++)
		sum += s->page_ndocs[i];
	if (sum != h->ndocs)
		return "corrupt (documents)";
	if (!increasing(s->term_str, h->nterms, (uint32_t)h->str_bytes) ||
	    !increasing(s->post_off, h->nterms, (uint32_t)h->npost) ||
	    !increasing(s->top_off, h->nterms, (uint32_t)h->ntop) ||
	    !increasing(s->shard_first, h->nshards, (uint32_t)h->nterms))
		return "corrupt (offsets)";
	for (i = 0; i < h->nterms; i++) {
		uint32_t a = s->term_str[i], b = s->term_str[i + 1];

		/* a term is its bytes, none of them NUL, and a NUL */
		if (b == a || s->str[b - 1] != '\0' ||
		    memchr(s->str + a, '\0', b - a - 1) ||
		    (i && strcmp(s->str + s->term_str[i - 1], s->str + a) >= 0))
			return "corrupt (terms)";
		if (s->top_off[i + 1] - s->top_off[i] > SEARCH_TOP ||
		    s->kept[i] > s->post_off[i + 1] - s->post_off[i])
			return "corrupt (terms)";
	}
	for (i = 0; i < h->npost; i++)
		if ((s->post_doc[i] & ~POST_FLAG) >= h->ndocs)
			return "corrupt (postings)";
	for (i = 0; i < h->ntop; i++)
		if (s->top[i] >= h->ndocs)
			return "corrupt (postings)";
	return NULL;
}

const char *search_state_use(struct search_state *s, const void *p,
			     size_t size)
{
	const struct state_hdr *h = p;
	size_t sz[STATE_ARRAYS];
	const char *q, *why;

	if (size < sizeof(*h))
		return "truncated";
	if (memcmp(h->magic, STATE_MAGIC, sizeof(h->magic)) ||
	    h->bom != STATE_BOM || h->format != STATE_FORMAT)
		return "written in another format";
	if (strncmp(h->version, QU_VERSION, sizeof(h->version)))
		return "written by another quire";
	/* the counts bound the size before any sum can wrap */
	if (h->npages > UINT32_MAX || h->ndocs > UINT32_MAX / 2 ||
	    h->nterms > UINT32_MAX / 8 || h->npost > UINT32_MAX / 8 ||
	    h->ntop > UINT32_MAX / 8 || h->nshards > UINT32_MAX / 8 ||
	    h->str_bytes > UINT32_MAX ||
	    layout(h, sz) != size - sizeof(*h))
		return "truncated";
	q = (const char *)p + sizeof(*h);
	if (XXH3_64bits(q, size - sizeof(*h)) != h->checksum)
		return "corrupt (checksum)";
	s->hdr = h;
	s->page_key = (const uint64_t *)q;
	s->page_ndocs = (const uint32_t *)(q += pad8(sz[0]));
	s->doc_len = (const uint32_t *)(q += pad8(sz[1]));
	s->rec_size = (const uint32_t *)(q += pad8(sz[2]));
	s->tok_hash = (const uint64_t *)(q += pad8(sz[3]));
	s->rec_hash = (const uint64_t *)(q += pad8(sz[4]));
	s->term_str = (const uint32_t *)(q += pad8(sz[5]));
	s->post_off = (const uint32_t *)(q += pad8(sz[6]));
	s->kept = (const uint32_t *)(q += pad8(sz[7]));
	s->top_off = (const uint32_t *)(q += pad8(sz[8]));
	s->top = (const uint32_t *)(q += pad8(sz[9]));
	s->shard_first = (const uint32_t *)(q += pad8(sz[10]));
	s->post_doc = (const uint32_t *)(q += pad8(sz[11]));
	s->post_tf = (const float *)(q += pad8(sz[12]));
	s->str = (q += pad8(sz[13]));
	if (h->str_bytes && s->str[h->str_bytes - 1] != '\0')
		why = "corrupt (terms)";
	else
		why = check(s);
	if (why)
		s->hdr = NULL;
	return why;
}

const char *search_state_open(struct search_state *s, const char *path)
{
	const void *map;
	const char *why;
	size_t size;

	memset(s, 0, sizeof(*s));
	if (qu_file_map(path, &map, &size) < 0)
		return errno == ENOENT ? "" : "unreadable";
	if (size < sizeof(struct state_hdr)) {
		qu_file_unmap(map, size);
		return "truncated";
	}
	s->map = map;
	s->size = size;
	if ((why = search_state_use(s, s->map, s->size)))
		search_state_close(s);
	return why;
}

/* what qu_search_state_read() read: @s, or why not (@why) */
struct qu_search_state {
	struct search_state s;
	const char *why;
};

struct qu_search_state *qu_search_state_read(const char *path)
{
	struct qu_search_state *st = qu_xcalloc(1, sizeof(*st));

	st->why = search_state_open(&st->s, path);
	return st;
}

const char *search_state_take(struct search_state *s,
			      struct qu_search_state *st)
{
	const char *why = st->why;

	/* taken once: a second taker finds none */
	*s = st->s;
	memset(&st->s, 0, sizeof(st->s));
	st->why = "";
	return why;
}

void qu_search_state_free(struct qu_search_state *st)
{
	if (!st)
		return;
	search_state_close(&st->s);
	free(st);
}

void search_state_close(struct search_state *s)
{
	qu_file_unmap(s->map, s->size);
	memset(s, 0, sizeof(*s));
}

/* The zeros that bring an array of @n bytes to a multiple of 8. */
static void put_pad(struct qu_file_out *f, size_t n)
{
	static const char zero[8];

	qu_file_out_add(f, zero, pad8(n) - n);
}

/* An array as the state holds it, then its padding. */
static void put_array(struct qu_file_out *f, const void *v, size_t n)
{
	qu_file_out_add(f, v, n);
	put_pad(f, n);
}

/*
 * One term's postings, as the state holds them: its documents (@tf
 * false) or their term frequencies (@tf true), in the file's buffer.
 */
static void put_postings(struct qu_file_out *f, const struct search_term *t,
			 const struct search_state *prev, bool tf)
{
	uint32_t k;

	if (t->prev) {
		uint32_t a = prev->post_off[t->prev - 1];
		uint32_t z = prev->post_off[t->prev];

		if (tf)
			qu_file_out_add(f, prev->post_tf + a,
					(z - a) * sizeof(float));
		else
			qu_file_out_add(f, prev->post_doc + a,
					(z - a) * sizeof(uint32_t));
		return;
	}
	for (k = 0; k < t->nfull; k++) {
		const struct search_posting *p =
			t->full ? &t->full[k] : &t->post[k];

		if (tf) {
			qu_buf_add(&f->b, &p->tf, sizeof(p->tf));
		} else {
			uint32_t d = p->doc | (p->flag ? POST_FLAG : 0);

			qu_buf_add(&f->b, &d, sizeof(d));
		}
	}
	qu_file_out_spill(f);
}

/*
 * A table of @n + 1 offsets: each term's start in an array, from the
 * lengths @len gives, then the end.
 */
static void put_offsets(struct qu_file_out *f, const struct search_index *x,
			uint32_t (*len)(const struct search_term *))
{
	uint32_t o = 0;
	size_t i;

	for (i = 0; i < x->nterms; i++) {
		qu_buf_add(&f->b, &o, sizeof(o));
		o += len(x->terms[i]);
		qu_file_out_spill(f);
	}
	qu_buf_add(&f->b, &o, sizeof(o));
	put_pad(f, (x->nterms + 1) * sizeof(o));
}

static uint32_t str_len(const struct search_term *t)
{
	return (uint32_t)t->len + 1;
}

static uint32_t full_len(const struct search_term *t)
{
	return (uint32_t)t->nfull;
}

static uint32_t top_len(const struct search_term *t)
{
	return (uint32_t)t->ntop;
}

/*
 * The state is written as it is made, array after array, the header last
 * over zeros: a kernel tree's is 21 MB, whose pages a buffer of it whole
 * took to fault in and clear on every build.
 */
int search_state_write(const char *path, const struct search_index *x,
		       const struct search_state *prev,
		       const uint64_t *page_keys, const uint32_t *rec_size,
		       const uint64_t *rec_hash, const size_t *shard_first,
		       size_t nshards, uint64_t manifest, struct qu_buf *err)
{
	struct qu_file_out f;
	struct state_hdr h;
	size_t i;
	uint32_t *page_ndocs;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, STATE_MAGIC, sizeof(h.magic));
	h.bom = STATE_BOM;
	h.format = STATE_FORMAT;
	strncpy(h.version, QU_VERSION, sizeof(h.version));
	h.npages = x->site->npages;
	h.ndocs = x->ndocs;
	h.nterms = x->nterms;
	h.nshards = nshards;
	h.manifest = manifest;
	for (i = 0; i < x->nterms; i++) {
		h.npost += x->terms[i]->nfull;
		h.ntop += x->terms[i]->ntop;
		h.str_bytes += x->terms[i]->len + 1;
	}
	if (qu_file_out_open(&f, path, err) < 0)
		return -1;
	qu_file_out_add(&f, &h, sizeof(h));
	qu_file_out_sum_reset(&f);
	put_array(&f, page_keys, h.npages * sizeof(*page_keys));
	page_ndocs = qu_xcalloc(h.npages + 1, sizeof(*page_ndocs));
	for (i = 0; i < x->ndocs; i++) {
		page_ndocs[x->docs[i].page]++;
		h.sum_len += x->docs[i].len;
	}
	put_array(&f, page_ndocs, h.npages * sizeof(*page_ndocs));
	free(page_ndocs);
	for (i = 0; i < x->ndocs; i++) {
		uint32_t len = x->docs[i].len;

		qu_buf_add(&f.b, &len, sizeof(len));
		qu_file_out_spill(&f);
	}
	put_pad(&f, h.ndocs * sizeof(uint32_t));
	put_array(&f, rec_size, h.ndocs * sizeof(*rec_size));
	for (i = 0; i < x->ndocs; i++) {
		qu_buf_add(&f.b, &x->docs[i].tok_hash, sizeof(uint64_t));
		qu_file_out_spill(&f);
	}
	put_array(&f, rec_hash, h.ndocs * sizeof(*rec_hash));
	put_offsets(&f, x, str_len);
	put_offsets(&f, x, full_len);
	for (i = 0; i < x->nterms; i++) {
		uint32_t kept = (uint32_t)x->terms[i]->npost;

		qu_buf_add(&f.b, &kept, sizeof(kept));
		qu_file_out_spill(&f);
	}
	put_pad(&f, h.nterms * sizeof(uint32_t));
	put_offsets(&f, x, top_len);
	for (i = 0; i < x->nterms; i++)
		qu_file_out_add(&f, x->terms[i]->top,
				x->terms[i]->ntop * sizeof(uint32_t));
	put_pad(&f, h.ntop * sizeof(uint32_t));
	for (i = 0; i <= nshards; i++) {
		uint32_t s = (uint32_t)shard_first[i];

		qu_buf_add(&f.b, &s, sizeof(s));
	}
	put_pad(&f, (nshards + 1) * sizeof(uint32_t));
	for (i = 0; i < x->nterms; i++)
		put_postings(&f, x->terms[i], prev, false);
	put_pad(&f, h.npost * sizeof(uint32_t));
	for (i = 0; i < x->nterms; i++)
		put_postings(&f, x->terms[i], prev, true);
	put_pad(&f, h.npost * sizeof(float));
	for (i = 0; i < x->nterms; i++) {
		qu_buf_add(&f.b, x->terms[i]->term, x->terms[i]->len);
		qu_buf_addc(&f.b, 0);
		qu_file_out_spill(&f);
	}
	put_pad(&f, h.str_bytes);
	h.checksum = qu_file_out_sum(&f);
	qu_file_out_put_at(&f, 0, &h, sizeof(h));
	return qu_file_out_commit(&f, err);
}
