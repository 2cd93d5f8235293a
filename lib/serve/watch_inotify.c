// SPDX-License-Identifier: MIT
/*
 * watch_inotify.c - watching inputs with inotify(7)
 *
 * Part of lib/serve, behind watch.c. One watch per folder that holds an
 * input or whose listing is one; an event counts when it names an input
 * file, or any entry of a listed folder, and is not an editor's temporary
 * file. A full event queue counts as a change.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "serve_int.h"

struct ino {
	int fd;
	/* the folder of each watch descriptor, by descriptor */
	char **wd_dir;
	size_t nwd;
	bool *wd_listed;
	/* still wanted by the set being laid down */
	bool *wd_keep;
};

static int ino_init(struct serve_watch *w, struct qu_buf *err)
{
	struct ino *n = qu_xcalloc(1, sizeof(*n));

	n->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (n->fd < 0) {
		qu_buf_addf(err, "inotify: %s", strerror(errno));
		free(n);
		return -1;
	}
	w->priv = n;
	return 0;
}

static void forget(struct ino *n)
{
	size_t i;

	for (i = 0; i < n->nwd; i++) {
		if (n->wd_dir[i])
			inotify_rm_watch(n->fd, (int)i);
		free(n->wd_dir[i]);
	}
	free(n->wd_dir);
	free(n->wd_listed);
	free(n->wd_keep);
	n->wd_dir = NULL;
	n->wd_listed = NULL;
	n->wd_keep = NULL;
	n->nwd = 0;
}

static void add(struct ino *n, const char *dir, bool listed)
{
	int wd = inotify_add_watch(n->fd, dir,
				   IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB |
					   IN_CREATE | IN_DELETE |
					   IN_MOVED_FROM | IN_MOVED_TO |
					   IN_DELETE_SELF | IN_MOVE_SELF |
					   IN_ONLYDIR);

	if (wd < 0) {
		if (errno == ENOSPC)
			fprintf(stderr,
				"quire serve: inotify's watch limit is "
				"reached (fs.inotify.max_user_watches); "
				"changes in %s are not seen\n",
				dir);
		return;
	}
	if ((size_t)wd >= n->nwd) {
		size_t m = (size_t)wd + 64;

		n->wd_dir = qu_xrealloc(n->wd_dir, m * sizeof(*n->wd_dir));
		n->wd_listed =
			qu_xrealloc(n->wd_listed, m * sizeof(*n->wd_listed));
		n->wd_keep = qu_xrealloc(n->wd_keep, m * sizeof(*n->wd_keep));
		memset(n->wd_dir + n->nwd, 0,
		       (m - n->nwd) * sizeof(*n->wd_dir));
		memset(n->wd_listed + n->nwd, 0,
		       (m - n->nwd) * sizeof(*n->wd_listed));
		memset(n->wd_keep + n->nwd, 0,
		       (m - n->nwd) * sizeof(*n->wd_keep));
		n->nwd = m;
	}
	if (!n->wd_dir[wd])
		n->wd_dir[wd] = qu_xstrdup(dir);
	n->wd_listed[wd] |= listed;
	n->wd_keep[wd] = true;
}

/*
 * The new set is laid over the old one: a folder watched before keeps
 * its descriptor (inotify_add_watch() of a watched folder returns it), so
 * the events queued while the build ran still name a folder we know and
 * an edit saved during a build starts the next one. Only the folders no
 * longer wanted are let go.
 */
static void ino_set(struct serve_watch *w, char **old_dirs, size_t old_ndirs,
		    char **old_files, size_t old_nfiles)
{
	struct ino *n = w->priv;
	struct qu_buf d = QU_BUF_INIT;
	struct qu_map seen;
	struct qu_arena names;
	size_t i;

	(void)old_dirs, (void)old_ndirs, (void)old_files, (void)old_nfiles;
	qu_map_init(&seen);
	qu_arena_init(&names);
	for (i = 0; i < n->nwd; i++) {
		n->wd_keep[i] = false;
		n->wd_listed[i] = false;
	}
	for (i = 0; i < w->ndirs; i++)
		add(n, w->dirs[i], true);
	for (i = 0; i < w->nfiles; i++) {
		const char *sl = strrchr(w->files[i], '/');

		void **slot;

		qu_buf_reset(&d);
		qu_buf_add(&d, w->files[i],
			   sl && sl != w->files[i] ? (size_t)(sl - w->files[i])
						   : 1);
		/*
		 * one watch a folder: inotify would merge repeats, but a
		 * kernel tree's 55,000 sources in 5,000 folders would cost
		 * 50,000 needless calls (and path lookups)
		 */
		slot = qu_map_slot(&seen, d.buf, d.len);
		if (*slot)
			continue;
		((struct qu_map_slot *)((char *)slot -
					offsetof(struct qu_map_slot, value)))
			->key = qu_arena_strndup(&names, d.buf, d.len);
		*slot = n;
		add(n, d.buf, false);
	}
	qu_map_fini(&seen);
	qu_arena_fini(&names);
	for (i = 0; i < n->nwd; i++) {
		if (!n->wd_dir[i] || n->wd_keep[i])
			continue;
		inotify_rm_watch(n->fd, (int)i);
		free(n->wd_dir[i]);
		n->wd_dir[i] = NULL;
	}
	qu_buf_fini(&d);
}

/* counts()'s flag: the event's file is an input, in the path buffer */
#define SERVE_NOTED 0x100

/* What one event says: an enum serve_change, and SERVE_NOTED. */
static int counts(const struct serve_watch *w, const struct ino *n,
		  const struct inotify_event *e, struct qu_buf *path)
{
	bool listed;

	if (e->mask & IN_Q_OVERFLOW)
		return SERVE_STRUCTURE;
	if (e->wd < 0 || (size_t)e->wd >= n->nwd || !n->wd_dir[e->wd])
		return SERVE_NONE;
	if (e->mask & (IN_DELETE_SELF | IN_MOVE_SELF))
		return SERVE_STRUCTURE;
	if (!e->len || serve_watch_ignored(e->name))
		return SERVE_NONE;
	listed = n->wd_listed[e->wd];
	qu_buf_reset(path);
	qu_buf_add_path(path,
			strcmp(n->wd_dir[e->wd], "/") ? n->wd_dir[e->wd] : "",
			e->name);
	/* a new folder may hold pages to come: it must be watched */
	if (listed && (e->mask & IN_ISDIR))
		return e->mask & (IN_CREATE | IN_DELETE | IN_MOVED_FROM |
				  IN_MOVED_TO)
			       ? SERVE_STRUCTURE
			       : SERVE_NONE;
	/*
	 * an input made or moved there (an editor's save by rename) leaves
	 * the listing as it was; one deleted or moved away does not
	 */
	if (serve_watch_has_file(w, path->buf))
		return (e->mask & (IN_DELETE | IN_MOVED_FROM) ? SERVE_LISTING
							      : SERVE_CONTENT) |
		       SERVE_NOTED;
	if (!listed)
		return SERVE_NONE;
	/* a file where the build lists folders: perhaps a new page */
	return e->mask & (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)
		       ? SERVE_LISTING
		       : SERVE_CONTENT;
}

static int ino_wait(struct serve_watch *w, int timeout_ms, int sigfd,
		    enum serve_change *changed)
{
	struct ino *n = w->priv;
	struct pollfd p[2] = {{n->fd, POLLIN, 0}, {sigfd, POLLIN, 0}};
	char buf[64 * 1024]
		__attribute__((aligned(__alignof__(struct inotify_event))));
	struct qu_buf path = QU_BUF_INIT;
	int r = poll(p, sigfd >= 0 ? 2 : 1, timeout_ms);

	if (r < 0 && errno != EINTR) {
		qu_buf_fini(&path);
		return -1;
	}
	for (;;) {
		ssize_t len = read(n->fd, buf, sizeof(buf));
		char *q;

		if (len <= 0)
			break;
		for (q = buf; q < buf + len;) {
			const struct inotify_event *e = (void *)q;
			int c = (int)counts(w, n, e, &path);

			if (c & SERVE_NOTED) {
				serve_watch_note(w, path.buf);
				c &= ~SERVE_NOTED;
			}
			if (c > (int)*changed)
				*changed = (enum serve_change)c;
			q += sizeof(*e) + e->len;
		}
	}
	qu_buf_fini(&path);
	return 0;
}

static void ino_fini(struct serve_watch *w)
{
	struct ino *n = w->priv;

	if (!n)
		return;
	forget(n);
	close(n->fd);
	free(n);
	w->priv = NULL;
}

const struct serve_watch_ops serve_watch_inotify = {
	.name = "inotify",
	.init = ino_init,
	.set = ino_set,
	.wait = ino_wait,
	.fini = ino_fini,
};
