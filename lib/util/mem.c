// SPDX-License-Identifier: MIT
/*
 * mem.c - allocation that never returns NULL (util stage)
 *
 * Out of memory is fatal and uniform, so no caller checks for NULL.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

#define HUGE_PAGE ((size_t)2 << 20)

static atomic_bool huge;
static void (*on_huge)(void);

void qu_mem_huge(void)
{
	if (!atomic_exchange(&huge, true) && on_huge)
		on_huge();
}

void qu_mem_on_huge(void (*fn)(void))
{
	on_huge = fn;
}

bool qu_mem_is_huge(void)
{
	return atomic_load(&huge);
}

static size_t big_size(size_t size)
{
	return (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

void *qu_big_alloc(size_t size)
{
	size_t n = big_size(size ? size : 1), head;
	char *p;

	if (size < QU_BIG_MIN)
		return qu_xcalloc(1, size);

	/* aligned to a huge page: map one more, give back the ends */
	p = mmap(NULL, n + HUGE_PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		qu_die_oom();
	head = (HUGE_PAGE - ((uintptr_t)p & (HUGE_PAGE - 1))) & (HUGE_PAGE - 1);
	if (head)
		munmap(p, head);
	munmap(p + head + n, HUGE_PAGE - head);
	p += head;
	if (atomic_load(&huge))
		madvise(p, n, MADV_HUGEPAGE);
	return p;
}

void qu_big_free(void *p, size_t size)
{
	if (size < QU_BIG_MIN)
		free(p);
	else if (p)
		munmap(p, big_size(size));
}
