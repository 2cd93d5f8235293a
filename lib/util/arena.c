// SPDX-License-Identifier: MIT
/*
 * arena.c - bump allocation for one unit's data (util stage)
 *
 * With QU_ARENA_DEBUG every allocation is its own malloc(), chained in a
 * list, so that ASan and the fuzzers see what a bump allocator would hide.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* A chunk is this large unless one allocation needs more. */
#define CHUNK_SIZE (64 * 1024 - 64)

struct chunk {
	struct chunk *next;
	/* Keeps the payload that follows aligned to QU_ARENA_ALIGN. */
	char pad[QU_ARENA_ALIGN - sizeof(struct chunk *)];
};

void qu_arena_init(struct qu_arena *a)
{
	a->chunks = NULL;
	a->cur = NULL;
	a->end = NULL;
}

void qu_arena_fini(struct qu_arena *a)
{
	struct chunk *c = a->chunks;

	while (c) {
		struct chunk *next = c->next;
		free(c);
		c = next;
	}
	qu_arena_init(a);
}

static void *new_chunk(struct qu_arena *a, size_t payload)
{
	struct chunk *c = qu_xmalloc(sizeof(*c) + payload);

	c->next = a->chunks;
	a->chunks = c;
	return c + 1;
}

void *qu_arena_alloc_chunk(struct qu_arena *a, size_t size)
{
#ifdef QU_ARENA_DEBUG
	return new_chunk(a, size ? size : 1);
#else
	size_t need = qu_arena_need(size);
	char *p;

	if (need == SIZE_MAX)
		qu_die_oom();
	if (need > (size_t)(a->end - a->cur) || !a->cur) {
		if (need > CHUNK_SIZE / 4) {
			/*
			 * A large block gets a chunk of its own, so it does not
			 * waste the rest of the current one.
			 */
			struct chunk *c = qu_xmalloc(sizeof(*c) + need);
			if (a->chunks) {
				c->next = ((struct chunk *)a->chunks)->next;
				((struct chunk *)a->chunks)->next = c;
			} else {
				c->next = NULL;
				a->chunks = c;
				a->cur = a->end = NULL;
			}
			return c + 1;
		}
		p = new_chunk(a, CHUNK_SIZE);
		a->cur = p;
		a->end = p + CHUNK_SIZE;
	}
	p = a->cur;
	a->cur += need;
	return p;
#endif
}

void qu_arena_reserve(struct qu_arena *a, size_t size)
{
#ifdef QU_ARENA_DEBUG
	(void)a;
	(void)size;
#else
	char *p;

	if (a->chunks || !size || size > SIZE_MAX - sizeof(struct chunk))
		return;
	p = new_chunk(a, size);
	a->cur = p;
	a->end = p + size;
#endif
}

void *qu_arena_zalloc(struct qu_arena *a, size_t size)
{
	void *p = qu_arena_alloc(a, size);

	memset(p, 0, size);
	return p;
}

void *qu_arena_memdup(struct qu_arena *a, const void *p, size_t len)
{
	void *q = qu_arena_alloc(a, len);

	if (len)
		memcpy(q, p, len);
	return q;
}

char *qu_arena_strndup(struct qu_arena *a, const char *s, size_t len)
{
	char *p = qu_arena_alloc(a, len + 1);

	if (len)
		memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *qu_arena_strdup(struct qu_arena *a, const char *s)
{
	return qu_arena_strndup(a, s, strlen(s));
}
