// SPDX-License-Identifier: MIT
/*
 * mem.c - allocation that never returns NULL (util stage)
 *
 * Out of memory is fatal and uniform, so no caller checks for NULL.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

void qu_die_oom(void)
{
	static const char msg[] = "quire: out of memory\n";
	ssize_t r = write(2, msg, sizeof(msg) - 1);

	(void)r;
	_exit(2);
}

void *qu_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		qu_die_oom();
	return p;
}

void *qu_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		qu_die_oom();
	return p;
}

void *qu_xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		qu_die_oom();
	return p;
}

char *qu_xstrdup(const char *s)
{
	return qu_xstrndup(s, strlen(s));
}

char *qu_xstrndup(const char *s, size_t len)
{
	char *p;

	len = strnlen(s, len);
	p = qu_xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void *qu_xgrow(void *v, size_t n, size_t size)
{
	if (n & (n - 1))
		return v;
	return qu_xrealloc(v, (n ? 2 * n : 1) * size);
}
