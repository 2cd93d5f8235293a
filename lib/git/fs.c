// SPDX-License-Identifier: MIT
/*
 * fs.c - a revision as a struct qu_files (git stage)
 *
 * `quire build --rev` hands this to lib/build, which reads every page,
 * source and in-tree theme file through it. The revision's file list is
 * read once (sorted, with blob ids), so what a path is and what a folder
 * holds are binary searches that take no lock; reading bytes takes a
 * repository handle from a small pool, one per reading thread, since a
 * libgit2 handle stays on one thread at a time.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "git_int.h"

/* Paths the file system could never give: realpath() never starts "//". */
#define ROOT "//git"

struct gfs {
	struct qu_files files;
	struct qu_git_tree *t; /* the caller's, used for nothing but dup */
	struct qu_git_file *v; /* every file, sorted by path */
	size_t n;
	pthread_mutex_t lock;
	struct qu_git_tree **idle; /* handles no thread is using */
	size_t nidle, aidle;
};

/*
 * A path as the build spells it ("docs/a.md", "./x/../y.c", or one
 * qu_files_real() gave, "//git/docs") into a path of the revision ("" for
 * its root). Absolute paths and ".." above the root name nothing in it.
 */
static int norm(struct qu_buf *out, const char *path)
{
	const char *p = path, *e;

	qu_buf_reset(out);
	if (!strncmp(p, ROOT, strlen(ROOT)) &&
	    (p[strlen(ROOT)] == '/' || !p[strlen(ROOT)]))
		p += strlen(ROOT);
	else if (*p == '/')
		return -1;
	for (; *p; p = *e ? e + 1 : e) {
		size_t l;

		e = strchrnul(p, '/');
		l = (size_t)(e - p);
		if (!l || (l == 1 && *p == '.'))
			continue;
		if (l == 2 && p[0] == '.' && p[1] == '.') {
			char *sl;

			if (!out->len)
				return -1;
			sl = memrchr(out->buf, '/', out->len);
			out->len = sl ? (size_t)(sl - out->buf) : 0;
			out->buf[out->len] = 0;
			continue;
		}
		if (out->len)
			qu_buf_addc(out, '/');
		qu_buf_add(out, p, l);
	}
	return 0;
}

/* The first file whose path is @p or sorts after it. */
static size_t lower(const struct gfs *g, const char *p)
{
	size_t lo = 0, hi = g->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(g->v[mid].path, p) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct qu_git_file *find(const struct gfs *g, const char *p)
{
	size_t i = lower(g, p);

	return i < g->n && !strcmp(g->v[i].path, p) ? &g->v[i] : NULL;
}

/* Whether @p ("" for the root) is a folder: some file lies below it. */
static bool is_dir(const struct gfs *g, const char *p)
{
	struct qu_buf pre = QU_BUF_INIT;
	size_t i;
	bool r;

	if (!*p)
		return g->n > 0;
	qu_buf_addf(&pre, "%s/", p);
	i = lower(g, pre.buf);
	r = i < g->n && !strncmp(g->v[i].path, pre.buf, pre.len);
	qu_buf_fini(&pre);
	return r;
}

static const struct qu_git_file *target_of(const struct gfs *g,
					   const struct qu_git_file *f)
{
	return f->target ? find(g, f->target) : f;
}

static int gfs_stat(void *ctx, struct qu_fstat *out, const char *path,
		    bool follow)
{
	const struct gfs *g = ctx;
	struct qu_buf p = QU_BUF_INIT;
	const struct qu_git_file *f;
	int r = -1;

	memset(out, 0, sizeof(*out));
	if (norm(&p, path) < 0)
		goto out;
	if ((f = find(g, p.buf))) {
		if (f->target && !follow) {
			out->kind = QU_FK_LINK;
		} else {
			f = target_of(g, f);
			if (!f)
				goto out;
			out->kind = QU_FK_FILE;
			/* the blob id is the content key (struct qu_fstat) */
			memcpy(&out->size, f->oid, 8);
			memcpy(&out->ino, f->oid + 8, 8);
			memcpy(&out->mtime, f->oid + 16, 4);
			out->size |= (uint64_t)1 << 63;
		}
		r = 0;
	} else if (is_dir(g, p.buf)) {
		out->kind = QU_FK_DIR;
		r = 0;
	}
out:
	if (r < 0)
		errno = ENOENT;
	qu_buf_fini(&p);
	return r;
}

static int gfs_list(void *ctx, char ***names, enum qu_fkind **kinds,
		    size_t *n, const char *dir)
{
	const struct gfs *g = ctx;
	struct qu_buf p = QU_BUF_INIT;
	size_t i, alloc = 0, kalloc = 0;
	int r = -1;

	*names = NULL;
	if (kinds)
		*kinds = NULL;
	*n = 0;
	if (norm(&p, dir) < 0 || !is_dir(g, p.buf)) {
		errno = find(g, p.buf) ? ENOTDIR : ENOENT;
		goto out;
	}
	if (p.len)
		qu_buf_addc(&p, '/');
	/* sorted paths give each child's name once, in a run, sorted */
	for (i = lower(g, p.buf);
	     i < g->n && !strncmp(g->v[i].path, p.buf, p.len); i++) {
		const char *name = g->v[i].path + p.len;
		size_t l = strcspn(name, "/");

		if (*n && strlen((*names)[*n - 1]) == l &&
		    !strncmp((*names)[*n - 1], name, l))
			continue;
		if (kinds) {
			size_t k = *n;

			QU_VEC_GROW(*kinds, k, kalloc);
			/* a path going on below the name is a folder's */
			(*kinds)[*n] = name[l]	       ? QU_FK_DIR
				       : g->v[i].target ? QU_FK_LINK
							: QU_FK_FILE;
		}
		QU_VEC_GROW(*names, *n, alloc);
		(*names)[(*n)++] = qu_xstrndup(name, l);
	}
	r = 0;
out:
	qu_buf_fini(&p);
	return r;
}

static int gfs_real(void *ctx, struct qu_buf *out, const char *path)
{
	const struct gfs *g = ctx;
	struct qu_buf p = QU_BUF_INIT;
	const struct qu_git_file *f;
	int r = -1;

	errno = ENOENT;
	if (norm(&p, path) < 0)
		goto out;
	if ((f = find(g, p.buf))) {
		if (!(f = target_of(g, f)))
			goto out;
		qu_buf_addf(out, ROOT "/%s", f->path);
		r = 0;
	} else if (!p.len || is_dir(g, p.buf)) {
		qu_buf_adds(out, ROOT);
		if (p.len)
			qu_buf_addf(out, "/%s", p.buf);
		r = 0;
	}
out:
	qu_buf_fini(&p);
	return r;
}

static int gfs_read(void *ctx, struct qu_buf *out, const char *path,
		    struct qu_buf *err)
{
	struct gfs *g = ctx;
	struct qu_buf p = QU_BUF_INIT;
	struct qu_git_tree *h = NULL;
	const struct qu_git_file *f = NULL;
	int r = -1;

	qu_buf_reset(out);
	if (norm(&p, path) == 0)
		f = find(g, p.buf);
	if (!f || !(f = target_of(g, f))) {
		qu_buf_addf(err, "%s: cannot read: %s", path,
			    strerror(is_dir(g, p.buf) ? EISDIR : ENOENT));
		goto out;
	}
	pthread_mutex_lock(&g->lock);
	if (g->nidle)
		h = g->idle[--g->nidle];
	pthread_mutex_unlock(&g->lock);
	/* dup outside the lock: opening a repository takes a while */
	if (!h && qu_git_tree_dup(&h, g->t, err) < 0)
		goto out;
	r = qu_git_tree_read_blob(out, h, f->oid, f->path, err);
	pthread_mutex_lock(&g->lock);
	QU_VEC_GROW(g->idle, g->nidle, g->aidle);
	g->idle[g->nidle++] = h;
	pthread_mutex_unlock(&g->lock);
out:
	qu_buf_fini(&p);
	return r;
}

int qu_git_fs_new(struct qu_files **out, struct qu_git_tree *t,
		  struct qu_buf *err)
{
	struct gfs *g = qu_xcalloc(1, sizeof(*g));

	if (qu_git_tree_list(&g->v, &g->n, t, NULL, err) < 0) {
		free(g);
		*out = NULL;
		return -1;
	}
	g->t = t;
	pthread_mutex_init(&g->lock, NULL);
	g->files.read = gfs_read;
	g->files.stat = gfs_stat;
	g->files.list = gfs_list;
	g->files.real = gfs_real;
	g->files.ctx = g;
	*out = &g->files;
	return 0;
}

void qu_git_fs_free(struct qu_files *fs)
{
	struct gfs *g;
	size_t i;

	if (!fs)
		return;
	g = fs->ctx;
	for (i = 0; i < g->nidle; i++)
		qu_git_tree_free(g->idle[i]);
	free(g->idle);
	qu_git_files_free(g->v, g->n);
	pthread_mutex_destroy(&g->lock);
	free(g);
}
