// SPDX-License-Identifier: MIT
/*
 * map.c - open-addressed hash maps keyed by byte strings (util stage)
 *
 * Linear probing at a load under 1/2; used for symbol tables, string
 * sets and export lists.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"

/*
 * A table of 4 MB or more (a kernel tree's symbol table is 16 MB) takes
 * huge pages where the system gives them (qu_big_alloc()): its probes
 * land anywhere in it, and with 4 KB pages each was a page fault when
 * new and a TLB miss after.
 */
static struct qu_map_slot *slots_new(size_t cap)
{
	return qu_big_alloc(cap * sizeof(struct qu_map_slot));
}

static void slots_free(struct qu_map_slot *slots, size_t cap)
{
	qu_big_free(slots, cap * sizeof(struct qu_map_slot));
}

void qu_map_init(struct qu_map *m)
{
	m->slots = NULL;
	m->cap = 0;
	m->n = 0;
}

void qu_map_fini(struct qu_map *m)
{
	slots_free(m->slots, m->cap);
	qu_map_init(m);
}

void qu_map_reset(struct qu_map *m)
{
	/*
	 * A parser empties its map once per comment, the graph once per
	 * page: clearing a table is cheaper than freeing it and growing
	 * the next one again, if the next use is about as large. A table
	 * at least a quarter full (the load stays under a half, so one
	 * grown for what it holds) is sized for its use and is kept. A
	 * large sparse one (a 10^5-member struct's, once a later comment
	 * used it) is freed, or every later use would pay for clearing it.
	 */
	if (m->cap > 64 && m->n < m->cap / 4) {
		qu_map_fini(m);
		return;
	}
	if (m->n)
		memset(m->slots, 0, m->cap * sizeof(*m->slots));
	m->n = 0;
}

static struct qu_map_slot *find(const struct qu_map *m, const char *key,
				size_t klen, uint64_t h)
{
	size_t mask = m->cap - 1;

	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct qu_map_slot *s = &m->slots[i];
		if (!s->key)
			return s;
		if (s->hash == h && s->klen == klen &&
		    !memcmp(s->key, key, klen))
			return s;
	}
}

void *qu_map_get(const struct qu_map *m, const char *key, size_t klen)
{
	struct qu_map_slot *s;

	if (!m->n)
		return NULL;
	s = find(m, key, klen, qu_hash(key, klen));
	return s->key ? s->value : NULL;
}

void qu_map_prefetch(const struct qu_map *m, const char *key, size_t klen)
{
	if (m->cap)
		__builtin_prefetch(&m->slots[qu_hash(key, klen) & (m->cap - 1)],
				   1);
}

static void grow(struct qu_map *m)
{
	struct qu_map old = *m;

	m->cap = old.cap ? old.cap * 2 : 16;
	m->slots = slots_new(m->cap);
	for (size_t i = 0; i < old.cap; i++) {
		struct qu_map_slot *s = &old.slots[i];
		if (s->key)
			*find(m, s->key, s->klen, s->hash) = *s;
	}
	slots_free(old.slots, old.cap);
}

/* The slot of @key, added (with a NULL value and @key itself) if new. */
static struct qu_map_slot *add(struct qu_map *m, const char *key,
			       size_t klen, bool *added)
{
	uint64_t h = qu_hash(key, klen);
	struct qu_map_slot *s;

	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	s = find(m, key, klen, h);
	*added = !s->key;
	if (!s->key) {
		s->key = key;
		s->klen = klen;
		s->hash = h;
		s->value = NULL;
		m->n++;
	}
	return s;
}

void **qu_map_slot(struct qu_map *m, const char *key, size_t klen)
{
	bool added;

	return &add(m, key, klen, &added)->value;
}

struct qu_map_slot *qu_map_intern(struct qu_map *m, const char *key,
				  size_t klen, struct qu_arena *a, bool *added)
{
	struct qu_map_slot *s = add(m, key, klen, added);

	/* the table keeps a copy that lives on */
	if (*added)
		s->key = qu_arena_strndup(a, key, klen);
	return s;
}

void *qu_map_del(struct qu_map *m, const char *key, size_t klen)
{
	struct qu_map_slot *s;
	size_t mask, i, j;
	void *v;

	if (!m->n)
		return NULL;
	s = find(m, key, klen, qu_hash(key, klen));
	if (!s->key)
		return NULL;
	v = s->value;
	mask = m->cap - 1;
	i = (size_t)(s - m->slots);
	/*
	 * Close the gap: a later entry of the same run moves into it when
	 * the gap lies on its probe path (from its home slot to where it
	 * is), so that no look-up stops short of it.
	 */
	for (j = (i + 1) & mask; m->slots[j].key; j = (j + 1) & mask)
		if (((j - (m->slots[j].hash & mask)) & mask) >= ((j - i) & mask)) {
			m->slots[i] = m->slots[j];
			i = j;
		}
	memset(&m->slots[i], 0, sizeof(m->slots[i]));
	m->n--;
	return v;
}

void qu_map_reserve(struct qu_map *m, size_t n)
{
	size_t cap = m->cap ? m->cap : 16;

	while (n * 2 > cap)
		cap *= 2;
	if (cap <= m->cap)
		return;
	if (!m->n) {
		/* nothing to move: the table is made at its size at once */
		slots_free(m->slots, m->cap);
		m->slots = slots_new(cap);
		m->cap = cap;
		return;
	}
	while (m->cap < cap)
		grow(m);
}

void qu_map_put(struct qu_map *m, const char *key, void *value)
{
	*qu_map_slot(m, key, strlen(key)) = value;
}
