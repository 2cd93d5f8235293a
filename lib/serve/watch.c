// SPDX-License-Identifier: MIT
/*
 * watch.c - which files and folders the preview server watches
 *
 * Part of lib/serve. Holds the set of inputs (from the last build) and
 * picks a backend: inotify (watch_inotify.c) where the kernel has it and
 * its watch limit suffices, else polling (watch_poll.c).
 */
#include <stdlib.h>
#include <string.h>

#include "serve_int.h"

int serve_watch_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int serve_watch_new(struct serve_watch **out, bool poll, struct qu_buf *err)
{
	struct serve_watch *w = qu_xcalloc(1, sizeof(*w));

	*out = w;
	if (!poll) {
		w->ops = &serve_watch_inotify;
		if (!w->ops->init(w, err))
			return 0;
		fprintf(stderr, "quire serve: %s; polling instead\n", err->buf);
		qu_buf_reset(err);
	}
	w->ops = &serve_watch_poll;
	return w->ops->init(w, err);
}

static void free_list(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void serve_watch_set(struct serve_watch *w, char **dirs, size_t ndirs,
		     char **files, size_t nfiles)
{
	char **old_dirs = w->dirs, **old_files = w->files;
	size_t old_ndirs = w->ndirs, old_nfiles = w->nfiles;

	qsort(dirs, ndirs, sizeof(*dirs), serve_watch_cmp);
	qsort(files, nfiles, sizeof(*files), serve_watch_cmp);
	w->dirs = dirs;
	w->ndirs = ndirs;
	w->files = files;
	w->nfiles = nfiles;
	w->ops->set(w, old_dirs, old_ndirs, old_files, old_nfiles);
	free_list(old_dirs, old_ndirs);
	free_list(old_files, old_nfiles);
}

static bool has(char *const *v, size_t n, const char *path)
{
	return n && bsearch(&path, v, n, sizeof(*v), serve_watch_cmp);
}

bool serve_watch_has_file(const struct serve_watch *w, const char *path)
{
	return has(w->files, w->nfiles, path);
}

bool serve_watch_has_dir(const struct serve_watch *w, const char *path)
{
	return has(w->dirs, w->ndirs, path);
}

bool serve_watch_ignored(const char *name)
{
	size_t n = strlen(name);

	/* hidden files, vim's swap and probe files, emacs' and others' backups */
	return !n || name[0] == '.' || name[n - 1] == '~' ||
	       !strcmp(name, "4913") || (name[0] == '#' && name[n - 1] == '#');
}

void serve_watch_note(struct serve_watch *w, const char *path)
{
	QU_VEC_GROW(w->noted, w->nnoted, w->anoted);
	w->noted[w->nnoted++] = qu_xstrdup(path);
}

size_t serve_watch_take(struct serve_watch *w, char ***out)
{
	size_t n = w->nnoted;

	*out = w->noted;
	w->noted = NULL;
	w->nnoted = w->anoted = 0;
	return n;
}

void serve_watch_free(struct serve_watch *w)
{
	if (!w)
		return;
	if (w->ops)
		w->ops->fini(w);
	free_list(w->dirs, w->ndirs);
	free_list(w->files, w->nfiles);
	free_list(w->noted, w->nnoted);
	free(w);
}
