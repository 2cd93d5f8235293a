/* SPDX-License-Identifier: MIT */
/*
 * search_int.h - what the files of lib/search share
 */
#ifndef QU_SEARCH_SEARCH_INT_H
#define QU_SEARCH_SEARCH_INT_H

#include "search.h"

struct search_chunk;

/* the document kind of a page; items use their enum qu_kind */
#define SEARCH_KIND_PAGE QU_KIND__COUNT

/* the records a term shard carries per term: the drop-down's ten */
#define SEARCH_TOP 10

/* a term's flag: it is in the document's name, title or a heading */
#define SEARCH_FLAG_TITLE 1u

/**
 * struct search_doc - one document: a page, or an item on its home page
 * @kind: enum qu_kind, or SEARCH_KIND_PAGE
 * @page: the page
 * @unit: the item's unit (items only)
 * @item: the item's index in its unit (items only)
 * @anchor: the item's id on @page, or NULL for a page
 * @len: how many tokens it holds (BM25's document length)
 * @tok_hash: XXH3 of its length and its distinct terms, with their
 *	frequencies and flags, once tokenized
 */
struct search_doc {
	unsigned kind;
	uint32_t page;
	uint32_t unit;
	uint32_t item;
	const char *anchor;
	uint32_t len;
	uint64_t tok_hash;
};

/**
 * struct search_dterm - one distinct term of one document
 * @term: the term (in the tokenizing task's arena, one copy a chunk)
 * @len: its length
 * @tf: its weighted frequency in the document
 * @id: its number among the terms of the tokenizing task's chunk
 * @slice: which slice of the hash space gathers it
 * @flags: SEARCH_FLAG_*
 */
struct search_dterm {
	const char *term;
	uint32_t len;
	float tf;
	uint32_t id;
	uint8_t slice;
	uint8_t flags;
};

/**
 * struct search_posting - one document of a term
 * @doc: the document
 * @score: the quantized BM25 score, plus 4096 when SEARCH_FLAG_TITLE
 * @tf: the weighted frequency, until scored
 * @flag: the term is in the document's name, title or a heading
 * @exact: the document is named the term
 */
struct search_posting {
	uint32_t doc;
	uint32_t score;
	float tf;
	bool flag;
	bool exact;
};

/**
 * struct search_term - one term of the index
 * @term: the term (NUL-terminated)
 * @len: its length
 * @post: its postings, by document (in the slice's arena)
 * @npost: how many
 * @alloc: while gathering, the term's number in its slice
 * @top: the best few documents, by rank: their records go in the shard
 * @ntop: how many
 * @full: every posting, by document, when @post was cut to the best
 *	(kept for the next build's state only); NULL when @post is all
 * @nfull: how many postings the term has in all
 * @prev: 1 + the term's number in the last build's state when it is
 *	unchanged since (@post is then NULL until the shard is written), or 0
 * @key: while the terms are sorted, their first eight bytes, NUL-padded,
 *	as a big-endian number (search_build())
 */
struct search_term {
	const char *term;
	uint32_t len;
	struct search_posting *post;
	uint32_t npost;
	uint32_t alloc;
	uint32_t top[SEARCH_TOP];
	uint32_t ntop;
	const struct search_posting *full;
	uint32_t nfull;
	uint32_t prev;
	uint64_t key;
};

/**
 * struct search_index - the whole index, before it is written
 * @site: the site
 * @g: its graph
 * @docs: the documents, in page order (a page, then its items)
 * @ndocs: how many
 * @dterms: per document, its distinct terms
 * @ndterms: per document, how many
 * @terms: every term, sorted by bytes
 * @nterms: how many
 * @arena: owns the documents' strings
 * @arenas: own the terms' strings and structs
 * @narenas: how many
 * @tstore: the terms, when gathered from a memo (memo.c)
 * @pstore: their postings, likewise
 * @kept: the terms an update took unchanged from the state (update.c),
 *	in one block of qu_big_alloc()'s
 * @nkept_alloc: how many @kept has room for
 * @want_full: the index has a state for the next build (state.c):
 *	keep every term's postings (struct search_term.full), and hash each
 *	document's terms and each record, which the state compares them by
 * @some: the terms of the documents search_tokenize_some() read
 * @avgdl: BM25's average document length, once known
 */
struct search_index {
	const struct qu_site *site;
	const struct qu_graph *g;
	struct search_doc *docs;
	size_t ndocs;
	struct search_dterm **dterms;
	uint32_t *ndterms;
	struct search_term **terms;
	size_t nterms;
	struct qu_arena arena;
	struct qu_arena *arenas;
	size_t narenas;
	struct search_term *tstore;
	struct search_posting *pstore;
	struct search_term *kept;
	size_t nkept_alloc;
	bool want_full;
	struct search_chunk *some;
	double avgdl;
};

/**
 * struct memo_dterm - one distinct term of a remembered document
 * @id: the term's number in the memo's dictionary
 * @tf: its weighted frequency
 * @flags: SEARCH_FLAG_*
 */
struct memo_dterm {
	uint32_t id;
	float tf;
	uint8_t flags;
};

/**
 * struct memo_entry - the documents of one unit's items, or of one page
 * @key: the unit's content hash, or the hash of what the page's
 *	document reads (search_page_key())
 * @ndocs: the unit's items, or 1
 * @start: where each document's terms start in @terms (@ndocs + 1)
 * @len: each document's length in tokens
 * @terms: the terms
 * @gen: the last write that used it
 */
struct memo_entry {
	struct qu_hash128 key;
	uint32_t ndocs;
	uint32_t *start;
	uint32_t *len;
	struct memo_dterm *terms;
	uint64_t gen;
};

struct qu_search_memo {
	struct qu_map dict;
	struct qu_arena words;
	const char **word;
	uint32_t *wlen;
	size_t nwords;
	size_t awords;
	struct qu_map entries;
	uint64_t gen;
};

uint32_t memo_intern(struct qu_search_memo *m, const char *term,
		     uint32_t len);
struct memo_entry *memo_find(struct qu_search_memo *m,
			     struct qu_hash128 key);
void memo_add(struct qu_search_memo *m, struct memo_entry *e);
/* memo_sweep() - forget the entries the last write did not use */
void memo_sweep(struct qu_search_memo *m);


/* the arrays of a state file, in their order in it (state.c) */
#define STATE_ARRAYS 15

/*
 * struct state_hdr - a state file's header: what it is, the counts, the
 * sum of the documents' lengths, the XXH3 of the manifest it goes with
 * and of the rest of the file
 */
struct state_hdr {
	char magic[16];
	uint32_t bom;
	uint32_t format;
	char version[16];
	uint64_t npages;
	uint64_t ndocs;
	uint64_t nterms;
	uint64_t npost;
	uint64_t ntop;
	uint64_t nshards;
	uint64_t str_bytes;
	uint64_t sum_len;
	uint64_t manifest;
	uint64_t checksum;
};

/**
 * struct search_state - the last build's index, as state.c maps it
 * @map: the file, mapped
 * @size: its size
 * @hdr: its header (struct state_hdr)
 * @page_key: each page's fingerprint then
 * @page_ndocs: each page's documents (itself and its items)
 * @doc_len: each document's length in tokens
 * @rec_size: each document's record size, as cut_shards() counts it
 * @tok_hash: each document's struct search_doc.tok_hash
 * @rec_hash: XXH3 of each document's record
 * @term_str: where each term starts in @str (one more: the end)
 * @post_off: where each term's postings start (one more: the end)
 * @kept: each term's postings after the cut to the best
 * @top_off: where each term's top documents start in @top
 * @top: the top documents
 * @shard_first: each term shard's first term (one more: the end)
 * @post_doc: each posting's document, plus 1 << 31 for a title hit
 * @post_tf: each posting's weighted frequency
 * @str: the terms, each ending in a NUL, sorted
 */
struct search_state {
	const void *map;
	size_t size;
	const struct state_hdr *hdr;
	const uint64_t *page_key;
	const uint32_t *page_ndocs;
	const uint32_t *doc_len;
	const uint32_t *rec_size;
	const uint64_t *tok_hash;
	const uint64_t *rec_hash;
	const uint32_t *term_str;
	const uint32_t *post_off;
	const uint32_t *kept;
	const uint32_t *top_off;
	const uint32_t *top;
	const uint32_t *shard_first;
	const uint32_t *post_doc;
	const float *post_tf;
	const char *str;
};

/*
 * search_state_open() - map and check a state file
 * Return: NULL when @s can be used; else why not ("" when there is none)
 */
const char *search_state_open(struct search_state *s, const char *path);
/* the state qu_search_state_read() read, moved into @s; why not, if so */
const char *search_state_take(struct search_state *s,
			      struct qu_search_state *st);
/*
 * search_state_use() - check @size bytes at @p as a state file and point
 * @s into them (search_state_open()'s check, on bytes in memory)
 * Return: NULL, or why they cannot be used
 */
const char *search_state_use(struct search_state *s, const void *p,
			     size_t size);
void search_state_close(struct search_state *s);
/*
 * search_state_write() - the state of the index @x for the next build;
 * a term with @prev set takes its postings from @prev
 */
int search_state_write(const char *path, const struct search_index *x,
		       const struct search_state *prev,
		       const uint64_t *page_keys, const uint32_t *rec_size,
		       const uint64_t *rec_hash, const size_t *shard_first,
		       size_t nshards, uint64_t manifest, struct qu_buf *err);
/*
 * search_update() - the index @x (listed by search_begin()) from the
 * state @s of the last build and the pages' fingerprints: only the
 * documents of pages whose fingerprint changed are read, and only the
 * terms they hold or held are scored. Sets @changed, by document:
 * SEARCH_PAGE_CHANGED for each document of those pages, and
 * SEARCH_TERMS_CHANGED too when its terms are not the ones it had.
 * Return: false, with @x as search_begin() left it, when the index must
 * be built whole (other pages or documents, too much changed, or the
 * average length moved). The state's terms are gone through on @threads
 * workers (qu_pool_run()).
 */
bool search_update(struct search_index *x, const struct search_state *s,
		   const uint64_t *page_keys, uint8_t *changed,
		   unsigned threads);
#define SEARCH_PAGE_CHANGED 1u
#define SEARCH_TERMS_CHANGED 2u
/* set by the writer: the document's record is not the one it had */
#define SEARCH_RECORD_CHANGED 4u
/* search_materialize() - an unchanged term's postings, from the state */
void search_materialize(struct search_index *x, const struct search_state *s,
			struct search_term *t);

uint32_t search_lower(uint32_t c);
bool search_is_stop(const char *w, size_t len);
void search_stop_words(struct qu_buf *out);

/* search_begin() - list a site's documents, in page order */
void search_begin(struct search_index *x, const struct qu_site *site,
		  const struct qu_graph *g);
/* search_build() - tokenize every document, gather and score the terms */
void search_build(struct search_index *x, unsigned threads,
		  struct qu_search_memo *memo);
/*
 * search_tokenize_some() - tokenize only @docs, into x->dterms (what an
 * incremental index reads anew)
 */
void search_tokenize_some(struct search_index *x, const uint32_t *docs,
			  size_t n);
/* search_drop_some() - forget what search_tokenize_some() read */
void search_drop_some(struct search_index *x);
/*
 * search_score() - BM25 over a term's postings, cut to the best; with
 * @full, every posting is kept there first (struct search_term.full)
 */
void search_score(struct search_term *t, const struct search_index *x,
		  double avgdl, struct qu_arena *full);
double search_avgdl(uint64_t sum, size_t ndocs);
void search_snippet(struct qu_buf *out, const struct search_index *x,
		    const struct search_doc *d);
void search_fini(struct search_index *x);

#endif /* QU_SEARCH_SEARCH_INT_H */
