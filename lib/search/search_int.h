/* SPDX-License-Identifier: MIT */
/*
 * search_int.h - what the files of lib/search share
 */
#ifndef QU_SEARCH_SEARCH_INT_H
#define QU_SEARCH_SEARCH_INT_H

#include "search.h"

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
 */
struct search_doc {
	unsigned kind;
	uint32_t page;
	uint32_t unit;
	uint32_t item;
	const char *anchor;
	uint32_t len;
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
 */
struct search_term {
	const char *term;
	uint32_t len;
	struct search_posting *post;
	uint32_t npost;
	uint32_t alloc;
	uint32_t top[SEARCH_TOP];
	uint32_t ntop;
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


uint32_t search_lower(uint32_t c);
bool search_is_stop(const char *w, size_t len);
void search_stop_words(struct qu_buf *out);

void search_build(struct search_index *x, const struct qu_site *site,
		  const struct qu_graph *g, unsigned threads,
		  struct qu_search_memo *memo);
void search_snippet(struct qu_buf *out, const struct search_index *x,
		    const struct search_doc *d);
void search_fini(struct search_index *x);

#endif /* QU_SEARCH_SEARCH_INT_H */
