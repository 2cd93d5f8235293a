// SPDX-License-Identifier: MIT
/*
 * memo.c - what one search index keeps for the next
 *
 * Part of lib/search. A dictionary numbers every term once; each unit's
 * items (or a page) keep their documents' terms as numbers, keyed by the
 * unit's content hash, so the next index tokenizes only what changed and
 * gathers its postings by number (index.c). quire serve holds the memo
 * between rebuilds.
 */
#include <stdlib.h>
#include <string.h>

#include "search_int.h"

struct qu_search_memo *qu_search_memo_new(void)
{
	struct qu_search_memo *m = qu_xcalloc(1, sizeof(*m));

	qu_map_init(&m->dict);
	qu_arena_init(&m->words);
	qu_map_init(&m->entries);
	return m;
}

static void entry_free(struct memo_entry *e)
{
	free(e->start);
	free(e->len);
	free(e->terms);
	free(e);
}

void qu_search_memo_free(struct qu_search_memo *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->entries.cap; i++)
		if (m->entries.slots[i].key)
			entry_free(m->entries.slots[i].value);
	qu_map_fini(&m->entries);
	qu_map_fini(&m->dict);
	qu_arena_fini(&m->words);
	free(m->word);
	free(m->wlen);
	free(m);
}

uint32_t memo_intern(struct qu_search_memo *m, const char *term,
		     uint32_t len)
{
	void *v = qu_map_get(&m->dict, term, len);
	char *w;

	if (v)
		return (uint32_t)((uintptr_t)v - 1);
	if (m->nwords == m->awords) {
		m->awords = m->awords ? 2 * m->awords : 4096;
		m->word = qu_xrealloc(m->word, m->awords * sizeof(*m->word));
		m->wlen = qu_xrealloc(m->wlen, m->awords * sizeof(*m->wlen));
	}
	/* the map keeps the key: the memo's copy */
	w = qu_arena_strndup(&m->words, term, len);
	m->word[m->nwords] = w;
	m->wlen[m->nwords] = len;
	*qu_map_slot(&m->dict, w, len) = (void *)(uintptr_t)++m->nwords;
	return (uint32_t)(m->nwords - 1);
}

struct memo_entry *memo_find(struct qu_search_memo *m, struct qu_hash128 key)
{
	return qu_map_get(&m->entries, (const char *)&key, sizeof(key));
}

void memo_add(struct qu_search_memo *m, struct memo_entry *e)
{
	/* the key lives in the entry */
	*qu_map_slot(&m->entries, (const char *)&e->key, sizeof(e->key)) = e;
}

void memo_sweep(struct qu_search_memo *m)
{
	struct qu_map keep;
	size_t i;

	qu_map_init(&keep);
	for (i = 0; i < m->entries.cap; i++) {
		struct memo_entry *e = m->entries.slots[i].value;

		if (!m->entries.slots[i].key)
			continue;
		if (e->gen != m->gen)
			entry_free(e);
		else
			*qu_map_slot(&keep, (const char *)&e->key,
				     sizeof(e->key)) = e;
	}
	qu_map_fini(&m->entries);
	m->entries = keep;
}
