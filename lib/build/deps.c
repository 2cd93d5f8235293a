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

/* @path's first @len bytes, copied into the arena (a kernel tree: 60,000) */
static void add(struct build_deps *d, const char *path, size_t len, bool dir)
{
	if (d->n == d->alloc) {
		d->alloc = d->alloc ? 2 * d->alloc : 64;
		d->v = qu_xrealloc(d->v, d->alloc * sizeof(*d->v));
	}
	memset(&d->v[d->n], 0, sizeof(d->v[d->n]));
	d->v[d->n].path = qu_arena_strndup(&d->paths, path, len);
	d->v[d->n++].dir = dir;
}

void build_deps_add(struct build_deps *d, const char *path)
{
	add(d, path, strlen(path), false);
}

void build_deps_add_dir(struct build_deps *d, const char *path)
{
	add(d, path, strlen(path), true);
}

void build_deps_add_folders(struct build_deps *d)
{
	size_t i, n = d->n;
	const char *last = NULL;
	size_t last_len = 0;

	/* a page or source added or removed changes its folder's mtime */
	for (i = 0; i < n; i++) {
		const char *p = d->v[i].path;
		const char *sl = strrchr(p, '/');
		size_t len;

		if (d->v[i].dir || !sl || sl == p)
			continue;
		len = (size_t)(sl - p);
		/* consecutive files mostly share their folder */
		if (last && len == last_len && !memcmp(p, last, len))
			continue;
		add(d, p, len, true);
		last = d->v[d->n - 1].path;
		last_len = len;
	}
}

void build_deps_fini(struct build_deps *d)
{
	qu_arena_fini(&d->paths);
	free(d->v);
	memset(d, 0, sizeof(*d));
}

static int cmp(const void *a, const void *b)
{
	return strcmp(((const struct build_dep *)a)->path,
		      ((const struct build_dep *)b)->path);
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

/* The last component of @p, "." for a path ending in "/". */
static const char *last_name(const char *p, size_t *len)
{
	size_t n = strlen(p);
	const char *sl;

	while (n > 1 && p[n - 1] == '/')
		n--;
	sl = memrchr(p, '/', n);
	*len = sl ? n - (size_t)(sl + 1 - p) : n;
	return sl ? sl + 1 : p;
}

void build_deps_sort(struct build_deps *d, const char *out_parent)
{
	size_t i, k, plen;
	const char *pname = last_name(out_parent, &plen);

	for (i = 0; i < d->n; i++) {
		const char *name;
		size_t len;
		char *abs;

		if (!d->v[i].dir)
			continue;
		/*
		 * Only a folder named as OUT's parent, or "." or "..", can
		 * be it (a kernel tree lists 5,000 folders: realpath(3)
		 * reads each component of each); the walk does not follow
		 * links to folders, so a folder it listed is named as what
		 * it is.
		 */
		name = last_name(d->v[i].path, &len);
		if (!((len == plen && !memcmp(name, pname, len)) ||
		      (len == 1 && name[0] == '.') ||
		      (len == 2 && name[0] == '.' && name[1] == '.')))
			continue;
		abs = qu_path_resolve(d->v[i].path);
		if (!strcmp(abs, out_parent))
			d->v[i].path[0] = 0; /* dropped below */
		free(abs);
	}
	qsort(d->v, d->n, sizeof(*d->v), cmp);
	/* a folder both listed and holding an input is there twice */
	for (i = k = 0; i < d->n; i++) {
		if (k && !strcmp(d->v[i].path, d->v[k - 1].path)) {
			if (!d->v[k - 1].have_st && d->v[i].have_st) {
				d->v[k - 1].st = d->v[i].st;
				d->v[k - 1].have_st = true;
			}
			continue;
		}
		d->v[k++] = d->v[i];
	}
	d->n = k;
}

int build_deps_write(const struct build_deps *d, const char *path,
		     const char *target, struct qu_buf *err)
{
	struct qu_buf b = QU_BUF_INIT;
	size_t i;
	int r;

	add_escaped(&b, target);
	qu_buf_addc(&b, ':');
	for (i = 0; i < d->n; i++) {
		const char *p = d->v[i].path;

		if (!p[0] || (i && !strcmp(p, d->v[i - 1].path)))
			continue;
		qu_buf_adds(&b, " \\\n  ");
		add_escaped(&b, p);
	}
	qu_buf_addc(&b, '\n');
	r = qu_file_write_atomic(path, b.buf, b.len, err);
	qu_buf_fini(&b);
	return r;
}
