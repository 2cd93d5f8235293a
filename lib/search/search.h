/* SPDX-License-Identifier: MIT */
/*
 * search.h - the full-text search index of a site
 *
 * In: the site's pages (lib/site) and the graph that places every item on
 * its home page (lib/graph). Out: OUT/_search/, a small manifest and
 * shards that a browser loads as plain script files (so they load from
 * file:// as well as over HTTP): every page and every item is a document,
 * indexed by its title, headings, symbol name (whole, and split at "_"),
 * parameter and member names, brief and body text, each term with its
 * BM25 score already computed, and a short snippet per document so the
 * results need no second fetch. The format is docs/site-search.md's. This
 * stage knows nothing of the theme's HTML. Included by cmd/quire (and
 * lib/build).
 */
#ifndef QU_SEARCH_SEARCH_H
#define QU_SEARCH_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "site/site.h"
#include "util/util.h"

/**
 * typedef qu_search_token_fn - receives one token of a text
 * @tok: the token, lower-cased UTF-8 (not NUL-terminated)
 * @len: its length in bytes
 * @part: the token is a "_"-separated part of an identifier, which is
 *	also given whole
 * @payload: the caller's context
 */
typedef void (*qu_search_token_fn)(const char *tok, size_t len, bool part,
				   void *payload);

/**
 * qu_search_tokenize() - split text into search terms
 * @text: UTF-8 text (invalid bytes are separators)
 * @len: its length
 * @fn: called once per token, in text order
 * @payload: passed to @fn
 *
 * A token is a run of letters, digits and "_" (C identifiers stay whole),
 * lower-cased (ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic); an
 * identifier holding "_" is given whole, then each non-empty part. CJK
 * ideographs and kana are one token each. Tokens of one ASCII byte, tokens
 * longer than 64 bytes and the English stop words of the manifest are left
 * out (parts of one byte too).
 * Context: pure function, thread-safe.
 */
void qu_search_tokenize(const char *text, size_t len, qu_search_token_fn fn,
			void *payload);

/*
 * struct qu_search_memo - what an index keeps for the next one
 *
 * The terms of every document it read, numbered in one dictionary and
 * keyed by the content of their unit (or page). Given to the next
 * qu_search_write() (quire serve keeps it between rebuilds), it spares
 * tokenizing what did not change. Content-keyed, it is never stale: the
 * index written is byte for byte the one written without it.
 */
struct qu_search_memo;

/**
 * qu_search_memo_new() - an empty memo
 *
 * Return: the memo; free it with qu_search_memo_free().
 */
struct qu_search_memo *qu_search_memo_new(void);

/**
 * qu_search_memo_free() - free a memo
 * @m: the memo, or NULL
 */
void qu_search_memo_free(struct qu_search_memo *m);

/**
 * typedef qu_search_keep_fn - a file the index leaves as it was
 * @name: the file, relative to the site ("_search/t/3.js")
 * @payload: the caller's context
 *
 * The file was not written: the last site has it with the same bytes,
 * and the caller takes it from there.
 */
typedef void (*qu_search_keep_fn)(const char *name, void *payload);

/**
 * struct qu_search_cache - the index's state between two builds
 * @path: the state file, in the build's cache folder
 * @page_keys: each page's fingerprint, in site order (lib/build): a page
 *	whose fingerprint is the one the state has gives the same documents,
 *	with the same text and records
 * @state: the state file as qu_search_state_read() read it ahead, or
 *	NULL: read by qu_search_write(); either way its caller's to free
 * @note: set to why a state file there was not used (corrupt, foreign)
 * @updated: set when the index was updated from the state, not built whole
 * @next: set to the next state while it is written, on a thread of its
 *	own, once the index's files are (a kernel site's is 23 MB): for
 *	qu_search_state_commit(), or qu_search_next_free()
 *
 * With it, qu_search_write() reads the state the last build left, when
 * it describes the index of @last, and writes the next one to
 * PATH.next; qu_search_state_commit() puts it in place once the site
 * holding the index is.
 */
struct qu_search_cache {
	const char *path;
	const uint64_t *page_keys;
	struct qu_search_state *state;
	const char *note;
	bool updated;
	struct qu_search_next *next;
};

/**
 * qu_search_state_read() - read and check the state at @path ahead of
 * qu_search_write()
 * @path: struct qu_search_cache's @path
 *
 * The state of a large site is tens of megabytes to map and check: a
 * build reads it on a thread of its own while it does other work, and
 * gives it to qu_search_write() in struct qu_search_cache's @state.
 * Return: the state read, or why there is none; never NULL.
 */
struct qu_search_state *qu_search_state_read(const char *path);

/**
 * qu_search_state_free() - let go of what qu_search_state_read() read
 * @st: the state, or NULL
 */
void qu_search_state_free(struct qu_search_state *st);

/**
 * qu_search_state_commit() - the state written by qu_search_write() is
 * the one of the site now in place
 * @path: struct qu_search_cache's @path
 * @next: struct qu_search_cache's @next, or NULL; waited for and freed
 * @err: receives a one-line message on failure
 *
 * Return: 0, or -1 (message in @err).
 */
int qu_search_state_commit(const char *path, struct qu_search_next *next,
			   struct qu_buf *err);

/**
 * qu_search_next_free() - wait for the next state's writing and drop it,
 * uncommitted
 * @next: struct qu_search_cache's @next, or NULL
 */
void qu_search_next_free(struct qu_search_next *next);

/**
 * qu_search_write() - write the index of a site under DIR/_search/
 * @dir: the site's folder (the temporary one the build writes into)
 * @site: the site
 * @g: its graph
 * @threads: worker threads (0: one per processor); the bytes written do
 *	not depend on it
 * @memo: the terms the last index read, updated for the next; or NULL
 * @cache: the state between builds, or NULL (never with @memo): the
 *	index is then updated in proportion to the pages that changed
 * @last: the last site's folder, or NULL: a file it holds with the very
 *	bytes this index has for it is left out of @dir and given to @keep
 * @keep: called in order for each file left out; NULL only without @last
 * @payload: passed to @keep
 * @err: receives a one-line message on failure
 *
 * Writes DIR/_search/index.js (the manifest), DIR/_search/t/N.js (the
 * term shards) and DIR/_search/d/N.js (the document shards), but for
 * those given to @keep: after an edit, a few of a large site's.
 * Context: @memo is not thread-safe; one write at a time.
 * Return: 0, or -1 when a file cannot be written (message in @err).
 */
int qu_search_write(const char *dir, const struct qu_site *site,
		    const struct qu_graph *g, unsigned threads,
		    struct qu_search_memo *memo, struct qu_search_cache *cache,
		    const char *last, qu_search_keep_fn keep, void *payload,
		    struct qu_buf *err);

#endif /* QU_SEARCH_SEARCH_H */
