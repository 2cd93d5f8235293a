// SPDX-License-Identifier: MIT
/*
 * files.c - where a build's input bytes come from (util stage)
 *
 * struct qu_files is the one seam between the stages that read inputs
 * (lib/site, lib/build, lib/render) and the place the bytes live: the
 * file system here, a git revision in lib/git. A NULL struct qu_files *
 * is the file system, so callers that never build a revision pass NULL.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "util.h"

struct entry {
	char *name;
	enum qu_fkind kind;
};

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name,
		      ((const struct entry *)b)->name);
}

static enum qu_fkind dirent_kind(unsigned char type)
{
	switch (type) {
	case DT_REG:
		return QU_FK_FILE;
	case DT_DIR:
		return QU_FK_DIR;
	case DT_LNK:
		return QU_FK_LINK;
	case DT_UNKNOWN:
		return QU_FK_UNKNOWN;
	default:
		return QU_FK_OTHER;
	}
}

static uint64_t ns(struct timespec t)
{
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int qu_files_read(const struct qu_files *fs, struct qu_buf *out,
		  const char *path, struct qu_buf *err)
{
	if (fs)
		return fs->read(fs->ctx, out, path, err);
	return qu_file_read(out, path, err);
}

int qu_files_stat(const struct qu_files *fs, struct qu_fstat *out,
		  const char *path, bool follow)
{
	struct stat st;

	if (fs)
		return fs->stat(fs->ctx, out, path, follow);
	if ((follow ? stat(path, &st) : lstat(path, &st)) < 0)
		return -1;
	out->kind = S_ISREG(st.st_mode)	  ? QU_FK_FILE
		    : S_ISDIR(st.st_mode) ? QU_FK_DIR
		    : S_ISLNK(st.st_mode) ? QU_FK_LINK
					  : QU_FK_OTHER;
	out->size = (uint64_t)st.st_size;
	out->mtime = ns(st.st_mtim);
	out->ctime = ns(st.st_ctim);
	out->ino = (uint64_t)st.st_ino;
	return 0;
}

int qu_files_list(const struct qu_files *fs, char ***names,
		  enum qu_fkind **kinds, size_t *n, const char *dir)
{
	struct entry *v = NULL;
	size_t alloc = 0, i;
	struct dirent *de;
	DIR *d;

	if (fs)
		return fs->list(fs->ctx, names, kinds, n, dir);
	*names = NULL;
	if (kinds)
		*kinds = NULL;
	*n = 0;
	if (!(d = opendir(dir)))
		return -1;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		QU_VEC_GROW(v, *n, alloc);
		v[*n].name = qu_xstrdup(de->d_name);
		v[(*n)++].kind = dirent_kind(de->d_type);
	}
	closedir(d);
	if (*n > 1)
		qsort(v, *n, sizeof(*v), cmp_entry);
	*names = qu_xcalloc(*n + 1, sizeof(**names));
	if (kinds)
		*kinds = qu_xcalloc(*n + 1, sizeof(**kinds));
	for (i = 0; i < *n; i++) {
		(*names)[i] = v[i].name;
		if (kinds)
			(*kinds)[i] = v[i].kind;
	}
	free(v);
	return 0;
}

int qu_files_real(const struct qu_files *fs, struct qu_buf *out,
		  const char *path)
{
	char real[PATH_MAX];

	qu_buf_reset(out);
	if (fs)
		return fs->real(fs->ctx, out, path);
	if (!realpath(path, real))
		return -1;
	qu_buf_adds(out, real);
	return 0;
}

/* Folder listings kept between builds ----------------------------------- */

struct listing {
	char **names;
	enum qu_fkind *kinds;
	size_t n;
};

struct qu_files_memo {
	struct qu_files fs;
	pthread_mutex_t lock;
	struct qu_map dirs;	/* folder -> struct listing */
	struct qu_arena arena;	/* the folders, listings and names */
};

static int memo_read(void *ctx, struct qu_buf *out, const char *path,
		     struct qu_buf *err)
{
	(void)ctx;
	return qu_files_read(NULL, out, path, err);
}

static int memo_stat(void *ctx, struct qu_fstat *out, const char *path,
		     bool follow)
{
	(void)ctx;
	return qu_files_stat(NULL, out, path, follow);
}

static int memo_real(void *ctx, struct qu_buf *out, const char *path)
{
	(void)ctx;
	return qu_files_real(NULL, out, path);
}

/* Keep a listing of @dir; @m is locked. */
static struct listing *memo_keep(struct qu_files_memo *m, const char *dir,
				 const char *const *names,
				 const enum qu_fkind *kinds, size_t n)
{
	struct listing *l = qu_arena_alloc(&m->arena, sizeof(*l));
	size_t i;

	l->n = n;
	l->names = qu_arena_alloc(&m->arena, (n + 1) * sizeof(*l->names));
	l->kinds = qu_arena_alloc(&m->arena, (n + 1) * sizeof(*l->kinds));
	for (i = 0; i < n; i++) {
		l->names[i] = qu_arena_strdup(&m->arena, names[i]);
		l->kinds[i] = kinds[i];
	}
	qu_map_put(&m->dirs, qu_arena_strdup(&m->arena, dir), l);
	return l;
}

static int memo_list(void *ctx, char ***names, enum qu_fkind **kinds,
		     size_t *n, const char *dir)
{
	struct qu_files_memo *m = ctx;
	struct listing *l;
	size_t i;

	pthread_mutex_lock(&m->lock);
	l = qu_map_get(&m->dirs, dir, strlen(dir));
	if (!l) {
		char **nv;
		enum qu_fkind *kv;
		size_t nn;

		/* a folder that cannot be read is asked again next time */
		if (qu_files_list(NULL, &nv, &kv, &nn, dir) < 0) {
			int e = errno;

			pthread_mutex_unlock(&m->lock);
			errno = e;
			return -1;
		}
		l = memo_keep(m, dir, (const char *const *)nv, kv, nn);
		for (i = 0; i < nn; i++)
			free(nv[i]);
		free(nv);
		free(kv);
	}
	*n = l->n;
	*names = qu_xcalloc(l->n + 1, sizeof(**names));
	for (i = 0; i < l->n; i++)
		(*names)[i] = qu_xstrdup(l->names[i]);
	if (kinds) {
		*kinds = qu_xcalloc(l->n + 1, sizeof(**kinds));
		memcpy(*kinds, l->kinds, l->n * sizeof(**kinds));
	}
	pthread_mutex_unlock(&m->lock);
	return 0;
}

void qu_files_memo_put(struct qu_files_memo *m, const char *dir,
		       const char *const *names, const enum qu_fkind *kinds,
		       size_t n)
{
	pthread_mutex_lock(&m->lock);
	if (!qu_map_get(&m->dirs, dir, strlen(dir)))
		memo_keep(m, dir, names, kinds, n);
	pthread_mutex_unlock(&m->lock);
}

int qu_files_memo_get(struct qu_files_memo *m, const char *dir,
		      char *const **names, const enum qu_fkind **kinds,
		      size_t *n)
{
	struct listing *l;

	pthread_mutex_lock(&m->lock);
	l = qu_map_get(&m->dirs, dir, strlen(dir));
	pthread_mutex_unlock(&m->lock);
	if (!l)
		return -1;
	*names = l->names;
	*kinds = l->kinds;
	*n = l->n;
	return 0;
}

struct qu_files_memo *qu_files_memo_new(void)
{
	struct qu_files_memo *m = qu_xcalloc(1, sizeof(*m));

	m->fs.read = memo_read;
	m->fs.stat = memo_stat;
	m->fs.list = memo_list;
	m->fs.real = memo_real;
	m->fs.ctx = m;
	pthread_mutex_init(&m->lock, NULL);
	qu_map_init(&m->dirs);
	qu_arena_init(&m->arena);
	return m;
}

const struct qu_files *qu_files_memo_files(struct qu_files_memo *m)
{
	return &m->fs;
}

void qu_files_memo_clear(struct qu_files_memo *m)
{
	pthread_mutex_lock(&m->lock);
	qu_map_fini(&m->dirs);
	qu_arena_fini(&m->arena);
	qu_map_init(&m->dirs);
	qu_arena_init(&m->arena);
	pthread_mutex_unlock(&m->lock);
}

void qu_files_memo_free(struct qu_files_memo *m)
{
	if (!m)
		return;
	qu_map_fini(&m->dirs);
	qu_arena_fini(&m->arena);
	pthread_mutex_destroy(&m->lock);
	free(m);
}
