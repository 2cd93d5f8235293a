// SPDX-License-Identifier: MIT
/*
 * deps.c - the depfile: every input a build read, for ninja and make
 *
 * Part of lib/build. Written in the format gcc -MD writes, which ninja
 * reads with "deps = gcc" and meson with custom_target(depfile:).
 */
#include <stdlib.h>
#include <string.h>

#include "build_int.h"

static void build_deps_add_dir(struct build_deps *d, const char *path,
			       size_t len)
{
	/* consecutive files mostly share their folder */
	if (d->n && strlen(d->v[d->n - 1]) == len &&
	    !memcmp(d->v[d->n - 1], path, len))
		return;
	build_deps_add(d, "");
	free(d->v[d->n - 1]);
	d->v[d->n - 1] = qu_xstrndup(path, len);
}

void build_deps_add(struct build_deps *d, const char *path)
{
	if (d->n == d->alloc) {
		d->alloc = d->alloc ? 2 * d->alloc : 64;
		d->v = qu_xrealloc(d->v, d->alloc * sizeof(*d->v));
	}
	d->v[d->n++] = qu_xstrdup(path);
}

void build_deps_add_folders(struct build_deps *d)
{
	size_t i, n = d->n;

	/* a page or source added or removed changes its folder's mtime */
	for (i = 0; i < n; i++) {
		const char *sl = strrchr(d->v[i], '/');

		if (sl && sl > d->v[i])
			build_deps_add_dir(d, d->v[i], (size_t)(sl - d->v[i]));
	}
}

void build_deps_fini(struct build_deps *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->v[i]);
	free(d->v);
	memset(d, 0, sizeof(*d));
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A path as depfile readers unescape it: "\ " "\#" "$$" "\\". */
static void add_escaped(struct qu_buf *b, const char *p)
{
	for (; *p; p++) {
		if (*p == ' ' || *p == '#' || *p == '\\')
			qu_buf_addc(b, '\\');
		else if (*p == '$')
			qu_buf_addc(b, '$');
		qu_buf_addc(b, *p);
	}
}

int build_deps_write(struct build_deps *d, const char *path,
		     const char *target, struct qu_buf *err)
{
	struct qu_buf b = QU_BUF_INIT;
	size_t i;
	int r;

	qsort(d->v, d->n, sizeof(*d->v), cmp);
	add_escaped(&b, target);
	qu_buf_addc(&b, ':');
	for (i = 0; i < d->n; i++) {
		if (i && !strcmp(d->v[i], d->v[i - 1]))
			continue;
		qu_buf_adds(&b, " \\\n  ");
		add_escaped(&b, d->v[i]);
	}
	qu_buf_addc(&b, '\n');
	r = qu_file_write_atomic(path, b.buf, b.len, err);
	qu_buf_fini(&b);
	return r;
}
