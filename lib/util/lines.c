// SPDX-License-Identifier: MIT
/*
 * lines.c - byte offsets to line numbers (util stage)
 *
 * Tokens and items keep byte offsets; only printing needs a line, and
 * then a binary search over the line starts finds it.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"

void qu_lines_init(struct qu_lines *l, const char *text, size_t len)
{
	size_t alloc = 64;
	const char *p = text, *end = text + len;

	l->start = qu_xmalloc(alloc * sizeof(*l->start));
	l->n = 0;
	l->start[l->n++] = 0;
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
		p++;
		QU_VEC_GROW(l->start, l->n, alloc);
		l->start[l->n++] = (uint32_t)(p - text);
	}
}

void qu_lines_fini(struct qu_lines *l)
{
	free(l->start);
	l->start = NULL;
	l->n = 0;
}

uint32_t qu_lines_find(const struct qu_lines *l, size_t off)
{
	size_t lo = 0, hi = l->n;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return (uint32_t)lo + 1;
}
