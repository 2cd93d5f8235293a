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
	const char *why;
	struct stat st;
	int fd;

	memset(s, 0, sizeof(*s));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? "" : "unreadable";
	if (fstat(fd, &st) < 0 || (size_t)st.st_size < sizeof(struct state_hdr)) {
		close(fd);
		return "truncated";
	}
	s->size = (size_t)st.st_size;
	s->map = mmap(NULL, s->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (s->map == MAP_FAILED) {
		s->map = NULL;
		return "unreadable";
	}
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
	if (s->map)
		munmap(s->map, s->size);
	memset(s, 0, sizeof(*s));
}

/* One term's postings, whole and by document, as the state holds them. */
static void term_postings(const struct search_term *t,
			  const struct search_state *prev, uint32_t *doc,
			  float *tf)
{
	uint32_t k;

	if (t->prev) {
		uint32_t a = prev->post_off[t->prev - 1];
		uint32_t z = prev->post_off[t->prev];

		memcpy(doc, prev->post_doc + a, (z - a) * sizeof(*doc));
		memcpy(tf, prev->post_tf + a, (z - a) * sizeof(*tf));
		return;
	}
	for (k = 0; k < t->nfull; k++) {
		const struct search_posting *p =
			t->full ? &t->full[k] : &t->post[k];

		doc[k] = p->doc | (p->flag ? POST_FLAG : 0);
		tf[k] = p->tf;
	}
}

int search_state_write(const char *path, const struct search_index *x,
		       const struct search_state *prev,
		       const uint64_t *page_keys, const uint32_t *rec_size,
		       const uint64_t *rec_hash, const size_t *shard_first,
		       size_t nshards, uint64_t manifest, struct qu_buf *err)
{
	struct state_hdr h;
	size_t sz[STATE_ARRAYS], off[STATE_ARRAYS], total, i;
	char *buf;
	uint64_t *page_key, *tok_hash, *rhash;
	uint32_t *page_ndocs, *doc_len, *rsize, *term_str, *post_off, *kept,
		*top_off, *top, *first, *post_doc;
	float *post_tf;
	char *str;
	int r;

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
	total = layout(&h, sz);
	for (off[0] = 0, i = 1; i < STATE_ARRAYS; i++)
		off[i] = off[i - 1] + pad8(sz[i - 1]);
	buf = qu_xcalloc(1, sizeof(h) + total);
	page_key = (uint64_t *)(buf + sizeof(h) + off[0]);
	page_ndocs = (uint32_t *)(buf + sizeof(h) + off[1]);
	doc_len = (uint32_t *)(buf + sizeof(h) + off[2]);
	rsize = (uint32_t *)(buf + sizeof(h) + off[3]);
	tok_hash = (uint64_t *)(buf + sizeof(h) + off[4]);
	rhash = (uint64_t *)(buf + sizeof(h) + off[5]);
	term_str = (uint32_t *)(buf + sizeof(h) + off[6]);
	post_off = (uint32_t *)(buf + sizeof(h) + off[7]);
	kept = (uint32_t *)(buf + sizeof(h) + off[8]);
	top_off = (uint32_t *)(buf + sizeof(h) + off[9]);
	top = (uint32_t *)(buf + sizeof(h) + off[10]);
	first = (uint32_t *)(buf + sizeof(h) + off[11]);
	post_doc = (uint32_t *)(buf + sizeof(h) + off[12]);
	post_tf = (float *)(buf + sizeof(h) + off[13]);
	str = buf + sizeof(h) + off[14];

	memcpy(page_key, page_keys, h.npages * sizeof(*page_key));
	memcpy(rsize, rec_size, h.ndocs * sizeof(*rsize));
	memcpy(rhash, rec_hash, h.ndocs * sizeof(*rhash));
	for (i = 0; i < x->ndocs; i++) {
		page_ndocs[x->docs[i].page]++;
		doc_len[i] = x->docs[i].len;
		tok_hash[i] = x->docs[i].tok_hash;
		h.sum_len += x->docs[i].len;
	}
	term_str[0] = post_off[0] = top_off[0] = 0;
	for (i = 0; i < x->nterms; i++) {
		const struct search_term *t = x->terms[i];

		memcpy(str + term_str[i], t->term, t->len);
		term_str[i + 1] = term_str[i] + t->len + 1;
		term_postings(t, prev, post_doc + post_off[i],
			      post_tf + post_off[i]);
		post_off[i + 1] = post_off[i] + t->nfull;
		kept[i] = t->npost;
		memcpy(top + top_off[i], t->top, t->ntop * sizeof(*top));
		top_off[i + 1] = top_off[i] + t->ntop;
	}
	for (i = 0; i <= nshards; i++)
		first[i] = (uint32_t)shard_first[i];
	h.checksum = XXH3_64bits(buf + sizeof(h), total);
	memcpy(buf, &h, sizeof(h));
	r = qu_file_write_atomic(path, buf, sizeof(h) + total, err);
	free(buf);
	return r;
}
