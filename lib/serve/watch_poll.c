// SPDX-License-Identifier: MIT
/*
 * watch_poll.c - watching inputs by looking at them now and then
 *
 * Part of lib/serve, behind watch.c: for file systems inotify does not
 * see (network mounts, some containers) or when asked. Every input file
 * and listed folder is stat(2)ed twice a second; a change of size, mtime,
 * ctime or inode counts, as a change of structure for a folder.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "serve_int.h"

/* how often inputs are looked at: twice a second is a reader's patience */
#define POLL_MS 500

struct seen {
	struct timespec mtime, ctime;
	off_t size;
	ino_t ino;
	bool exists;
};

struct pw {
	struct seen *v;
	size_t n;
};

static int pw_init(struct serve_watch *w, struct qu_buf *err)
{
	(void)err;
	w->priv = qu_xcalloc(1, sizeof(struct pw));
	return 0;
}

static void look(struct seen *s, const char *path)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	if (stat(path, &st) < 0)
		return;
	s->exists = true;
	s->mtime = st.st_mtim;
	s->ctime = st.st_ctim;
	s->size = st.st_size;
	s->ino = st.st_ino;
}

static const char *path_of(const struct serve_watch *w, size_t i)
{
	return i < w->ndirs ? w->dirs[i] : w->files[i - w->ndirs];
}

/*
 * A path watched before keeps what was last seen of it, not what it is
 * now: an edit saved while the build ran differs from it and starts the
 * next build. The old lists are still w's when this runs (old_*).
 */
static void pw_set(struct serve_watch *w, char **old_dirs, size_t old_ndirs,
		   char **old_files, size_t old_nfiles)
{
	struct pw *p = w->priv;
	struct seen *v;
	size_t i, n = w->ndirs + w->nfiles;

	v = qu_xcalloc(n + 1, sizeof(*v));
	for (i = 0; i < n; i++) {
		const char *path = path_of(w, i);
		char **o = i < w->ndirs ? old_dirs : old_files;
		size_t no = i < w->ndirs ? old_ndirs : old_nfiles;
		size_t base = i < w->ndirs ? 0 : old_ndirs;
		char **hit = no ? bsearch(&path, o, no, sizeof(*o), serve_watch_cmp)
				: NULL;

		if (hit)
			v[i] = p->v[base + (size_t)(hit - o)];
		else
			look(&v[i], path);
	}
	free(p->v);
	p->v = v;
	p->n = n;
}

static int pw_wait(struct serve_watch *w, int timeout_ms, int sigfd,
		   enum serve_change *changed)
{
	struct pw *p = w->priv;
	struct pollfd fd = {sigfd, POLLIN, 0};
	int t = timeout_ms < 0 || timeout_ms > POLL_MS ? POLL_MS : timeout_ms;
	size_t i;

	if (poll(&fd, sigfd >= 0 ? 1 : 0, t) < 0 && errno != EINTR)
		return -1;
	for (i = 0; i < p->n; i++) {
		struct seen s;

		look(&s, path_of(w, i));
		if (memcmp(&s, &p->v[i], sizeof(s))) {
			/*
			 * a listed folder's mtime moves when an entry comes
			 * or goes, a file or a folder: no telling which
			 */
			enum serve_change c = i < w->ndirs ? SERVE_STRUCTURE
							   : SERVE_CONTENT;

			p->v[i] = s;
			if (c == SERVE_CONTENT)
				serve_watch_note(w, path_of(w, i));
			if (c > *changed)
				*changed = c;
		}
	}
	return 0;
}

static void pw_fini(struct serve_watch *w)
{
	struct pw *p = w->priv;

	if (!p)
		return;
	free(p->v);
	free(p);
	w->priv = NULL;
}

const struct serve_watch_ops serve_watch_poll = {
	.name = "poll",
	.init = pw_init,
	.set = pw_set,
	.wait = pw_wait,
	.fini = pw_fini,
};
