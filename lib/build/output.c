// SPDX-License-Identifier: MIT
/*
 * output.c - the folders quire owns: the site it writes and its cache
 *
 * Part of lib/build. quire replaces a folder only when it is missing,
 * empty, or carries the marker a finished quire folder has, and never one
 * that is or holds an input. A site is built aside, in a hidden sibling of
 * OUT, and exchanged with OUT in one rename, so OUT is at every moment
 * either the last good site or the new one. With a cache, the site OUT
 * held becomes the cache's back tree (back.c) instead of being removed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_int.h"

char *qu_path_resolve(const char *path)
{
	char buf[PATH_MAX];
	struct qu_buf b = QU_BUF_INIT, r = QU_BUF_INIT;
	char *sl, *parent;

	if (realpath(path, buf))
		return qu_xstrdup(buf);
	qu_buf_adds(&b, path);
	while (b.len > 1 && b.buf[b.len - 1] == '/')
		b.buf[--b.len] = 0;
	sl = strrchr(b.buf, '/');
	if (sl) {
		*sl = 0;
		parent = qu_path_resolve(*b.buf ? b.buf : "/");
	} else {
		parent = qu_xstrdup(getcwd(buf, sizeof(buf)) ? buf : ".");
		sl = b.buf - 1;
	}
	if (!strcmp(sl + 1, "..")) {
		/* a missing folder's ".." is its parent's parent */
		char *up = strrchr(parent, '/');

		if (up && up != parent)
			*up = 0;
		else
			strcpy(parent, "/");
		qu_buf_adds(&r, parent);
	} else if (!strcmp(sl + 1, ".") || !sl[1]) {
		qu_buf_adds(&r, parent);
	} else {
		qu_buf_add_path(&r, strcmp(parent, "/") ? parent : "", sl + 1);
	}
	free(parent);
	qu_buf_fini(&b);
	return qu_buf_detach(&r, NULL);
}

bool qu_path_is_below(const char *path, const char *dir)
{
	size_t l = strlen(dir);

	if (!strcmp(dir, "/"))
		return true;
	return !strncmp(path, dir, l) && (path[l] == 0 || path[l] == '/');
}

/* Whether @dir holds a marker file named @marker, as a regular file. */
static bool has_marker(const char *dir, const char *marker)
{
	struct qu_buf p = QU_BUF_INIT;
	struct stat st;
	bool r;

	qu_buf_add_path(&p, dir, marker);
	r = !lstat(p.buf, &st) && S_ISREG(st.st_mode);
	qu_buf_fini(&p);
	return r;
}

/* 1 when @dir is empty, 0 when it holds something, -1 when unreadable. */
static int is_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int r = 1;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			r = 0;
			break;
		}
	closedir(d);
	return r;
}

int qu_owned_check(const char *path, const char *shown, const char *marker,
		   const char *const *inputs, size_t ninputs,
		   const char *const *shown_inputs, struct qu_buf *err)
{
	char *abs = qu_path_resolve(path);
	struct stat st;
	size_t i;
	int r = -1;

	for (i = 0; i < ninputs; i++) {
		char *in = qu_path_resolve(inputs[i]);
		bool hit = qu_path_is_below(in, abs);

		free(in);
		if (hit) {
			qu_buf_addf(err,
				    "refusing to write to %s: it is or holds "
				    "%s, an input of the build",
				    shown, shown_inputs[i]);
			goto out;
		}
	}
	if (lstat(abs, &st) < 0) {
		if (errno == ENOENT) {
			r = 0;
			goto out;
		}
		qu_buf_addf(err, "%s: cannot inspect: %s", shown,
			    strerror(errno));
		goto out;
	}
	if (!S_ISDIR(st.st_mode)) {
		qu_buf_addf(err, "refusing to write to %s: it is not a folder",
			    shown);
		goto out;
	}
	if (has_marker(abs, marker)) {
		r = 0;
		goto out;
	}
	switch (is_empty(abs)) {
	case 1:
		r = 0;
		break;
	case 0:
		qu_buf_addf(err,
			    "refusing to write to %s: the folder is not empty "
			    "and quire did not write it (it has no %s); empty "
			    "it or choose another folder",
			    shown, marker);
		break;
	default:
		qu_buf_addf(err, "%s: cannot read: %s", shown,
			    strerror(errno));
	}
out:
	free(abs);
	return r;
}

/* The hidden sibling of @abs a build of process @pid writes into. */
static void aside_name(struct qu_buf *b, const char *abs, const char *what,
		       long pid)
{
	const char *sl = strrchr(abs, '/');

	qu_buf_reset(b);
	qu_buf_addf(b, "%.*s/.%s.quire-%s-%ld", (int)(sl - abs), abs, sl + 1,
		    what, pid);
}

/*
 * A hidden sibling of dead process @pid without the marker: a build killed
 * inside qu_out_begin(), between making the folder and renaming the
 * marker into it. Removed only when it holds nothing else than that
 * marker's temporary file, so a folder anyone else made stays.
 */
static void sweep_unmarked(const char *dir, const char *marker, long pid)
{
	struct qu_buf tmp = QU_BUF_INIT, p = QU_BUF_INIT;
	struct dirent *de;
	bool other = false;
	DIR *d = opendir(dir);

	if (!d)
		return;
	qu_buf_addf(&tmp, "%s.tmp.%ld", marker, pid);
	while (!other && (de = readdir(d)))
		other = strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
			strcmp(de->d_name, tmp.buf);
	closedir(d);
	if (!other) {
		qu_buf_add_path(&p, dir, tmp.buf);
		unlink(p.buf);
		rmdir(dir);
	}
	qu_buf_fini(&tmp);
	qu_buf_fini(&p);
}

/*
 * Remove the folders that killed builds left beside @abs: hidden siblings
 * named for a process that no longer runs, and carrying the marker (so
 * they are quire's). Anything else of the same name is left alone.
 */
static void sweep_stale(const char *abs, const char *marker)
{
	const char *sl = strrchr(abs, '/');
	struct qu_buf parent = QU_BUF_INIT, pre = QU_BUF_INIT,
		      p = QU_BUF_INIT;
	struct dirent *de;
	DIR *d;

	qu_buf_addf(&parent, "%.*s", (int)(sl - abs), abs);
	if (!parent.len)
		qu_buf_adds(&parent, "/");
	qu_buf_addf(&pre, ".%s.quire-", sl + 1);
	d = opendir(parent.buf);
	while (d && (de = readdir(d))) {
		const char *t;
		char *end;
		long pid;

		if (strncmp(de->d_name, pre.buf, pre.len))
			continue;
		t = de->d_name + pre.len;
		if (strncmp(t, "new-", 4) && strncmp(t, "old-", 4))
			continue;
		pid = strtol(t + 4, &end, 10);
		if (*end || pid <= 0 || pid == (long)getpid() ||
		    !kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		qu_buf_reset(&p);
		qu_buf_add_path(&p, strcmp(parent.buf, "/") ? parent.buf : "",
				de->d_name);
		if (has_marker(p.buf, marker))
			qu_rm_tree_marked(p.buf, marker);
		else
			sweep_unmarked(p.buf, marker, pid);
	}
	if (d)
		closedir(d);
	qu_buf_fini(&parent);
	qu_buf_fini(&pre);
	qu_buf_fini(&p);
}

static int write_marker(const char *dir, const char *marker,
			struct qu_buf *err)
{
	struct qu_buf p = QU_BUF_INIT, text = QU_BUF_INIT;
	int r;

	qu_buf_add_path(&p, dir, marker);
	qu_buf_addf(&text, "%s %d\n", marker + 1, QU_OUT_FORMAT);
	r = qu_file_write_atomic(p.buf, text.buf, text.len, err);
	qu_buf_fini(&p);
	qu_buf_fini(&text);
	return r;
}

/*
 * Whether @back can be composed into the next site: a site quire wrote,
 * on the file system of a live site that carries the marker too.
 */
static bool back_usable(const char *back, const char *live)
{
	struct stat bs, ls;

	return !lstat(back, &bs) && S_ISDIR(bs.st_mode) &&
	       !lstat(live, &ls) && S_ISDIR(ls.st_mode) &&
	       bs.st_dev == ls.st_dev && has_marker(back, QU_SITE_MARKER) &&
	       has_marker(live, QU_SITE_MARKER);
}

int qu_out_begin(struct qu_out *o, const char *out, const char *back,
		 struct qu_buf *err)
{
	struct qu_buf b = QU_BUF_INIT;

	memset(o, 0, sizeof(*o));
	o->abs = qu_path_resolve(out);
	if (!strcmp(o->abs, "/")) {
		qu_buf_adds(err, "refusing to write to /");
		return -1;
	}
	if (back) {
		o->back = qu_xstrdup(back);
		o->sparse = back_usable(back, o->abs);
	}
	sweep_stale(o->abs, QU_SITE_MARKER);
	aside_name(&b, o->abs, "new", (long)getpid());
	o->tmp = qu_buf_detach(&b, NULL);
	if (qu_rm_tree(o->tmp) < 0 || qu_mkdir_p(o->tmp, err) < 0 ||
	    write_marker(o->tmp, QU_SITE_MARKER, err) < 0) {
		if (!err->len)
			qu_buf_addf(err, "%s: cannot remove: %s", o->tmp,
				    strerror(errno));
		qu_rm_tree(o->tmp);
		return -1;
	}
	return 0;
}

/*
 * The site OUT held is now at @old: it becomes the back tree when there
 * is one, else it is removed.
 */
static void retire(struct qu_out *o, const char *old)
{
	if (o->back && strcmp(old, o->back)) {
		qu_rm_tree(o->back);
		if (!rename(old, o->back))
			return;
	}
	if (!o->back || strcmp(old, o->back))
		qu_rm_tree_marked(old, QU_SITE_MARKER);
}

int qu_out_commit(struct qu_out *o, struct qu_buf *err)
{
	const char *site = o->composed ? o->back : o->tmp;
	struct stat st;

	if (lstat(o->abs, &st) < 0) {
		if (rename(site, o->abs) < 0) {
			qu_buf_addf(err, "cannot rename %s to %s: %s", site,
				    o->abs, strerror(errno));
			return -1;
		}
		goto done;
	}
	/*
	 * One rename exchanges the two folders: OUT is never missing, and
	 * the old site ends where the new one was built.
	 */
	if (renameat2(AT_FDCWD, site, AT_FDCWD, o->abs, RENAME_EXCHANGE) <
	    0) {
		struct qu_buf old = QU_BUF_INIT;

		if (errno != EINVAL && errno != ENOSYS) {
			qu_buf_addf(err, "cannot exchange %s and %s: %s", site,
				    o->abs, strerror(errno));
			return -1;
		}
		/* a file system without RENAME_EXCHANGE: two renames */
		aside_name(&old, o->abs, "old", (long)getpid());
		if (rename(o->abs, old.buf) < 0) {
			qu_buf_addf(err, "cannot move %s aside: %s", o->abs,
				    strerror(errno));
			qu_buf_fini(&old);
			return -1;
		}
		if (rename(site, o->abs) < 0) {
			int e = errno;

			if (rename(old.buf, o->abs) < 0)
				qu_buf_addf(err,
					    "cannot rename %s to %s (%s), and "
					    "the last site is left at %s",
					    site, o->abs, strerror(e),
					    old.buf);
			else
				qu_buf_addf(err, "cannot rename %s to %s: %s",
					    site, o->abs, strerror(e));
			qu_buf_fini(&old);
			return -1;
		}
		retire(o, old.buf);
		qu_buf_fini(&old);
	} else {
		/* @site now holds the old site, which carries the marker */
		retire(o, site);
	}
done:
	/*
	 * OUT's own time is the new site's: a composed site may change no
	 * entry of its top folder, and make (or ninja with a depfile)
	 * compares OUT's time with its inputs'
	 */
	utimensat(AT_FDCWD, o->abs, NULL, 0);
	/* what the sparse folder still holds was linked, not moved */
	if (o->composed)
		qu_rm_tree_marked(o->tmp, QU_SITE_MARKER);
	free(o->tmp);
	o->tmp = NULL;
	return 0;
}

void qu_out_fini(struct qu_out *o)
{
	qu_out_rec_wait(o);
	if (o->tmp)
		qu_rm_tree_marked(o->tmp, QU_SITE_MARKER);
	free(o->tmp);
	free(o->abs);
	free(o->back);
	memset(o, 0, sizeof(*o));
}
