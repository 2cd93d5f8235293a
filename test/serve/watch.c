// SPDX-License-Identifier: MIT
/*
 * watch.c - the watchers keep what they saw across a new set of inputs
 *
 * A build ends by handing the watcher the inputs it read. A save that
 * landed while that build ran must still start the next one, with
 * inotify (its event is queued on a folder's watch) and with polling (the
 * file differs from what was last seen). Each backend: watch a folder,
 * save a file in it, lay the same set down again, and the next wait must
 * say "changed"; with nothing saved, it must not. Files written, made or
 * moved are writes (the next build's list of inputs tells whether its
 * watches stand); a new folder where the build lists folders is a change
 * of structure (it must be watched), as is any change of a listed folder
 * to the poller, which cannot tell a file's coming from a folder's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve/serve_int.h"

static int fails;

static char **list(const char *a)
{
	char **v = qu_xcalloc(2, sizeof(*v));

	v[0] = qu_xstrdup(a);
	return v;
}

static void save(const char *path, const char *text)
{
	FILE *f = fopen(path, "a");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static enum serve_change waits(struct serve_watch *w, int ms)
{
	enum serve_change changed = SERVE_NONE;

	if (w->ops->wait(w, ms, -1, &changed) < 0) {
		perror("wait");
		exit(1);
	}
	return changed;
}

static void check(enum serve_change got, enum serve_change want,
		  const char *backend, const char *what)
{
	if (got != want) {
		printf("FAIL: %s: %s\n", backend, what);
		fails++;
	} else {
		printf("ok: %s: %s\n", backend, what);
	}
}

static void one(bool poll, const char *dir, const char *file,
		const char *tmp, const char *other, const char *sub)
{
	struct serve_watch *w;
	struct qu_buf err = QU_BUF_INIT;
	const char *name = poll ? "poll" : "inotify";
	/* the poller looks twice a second */
	int ms = poll ? 700 : 100;

	if (serve_watch_new(&w, poll, &err) < 0) {
		printf("FAIL: %s: %s\n", name, err.buf);
		fails++;
		return;
	}
	serve_watch_set(w, list(dir), 1, list(file), 1);
	check(waits(w, ms), SERVE_NONE, name, "nothing saved, nothing seen");
	/* a save while "the build" runs, then the build's new set */
	save(file, "a save during the build\n");
	serve_watch_set(w, list(dir), 1, list(file), 1);
	check(waits(w, ms), SERVE_CONTENT, name,
	      "a save before a new set is seen after it, as a write");
	check(waits(w, ms), SERVE_NONE, name, "and only once");
	/* and the watch goes on after a set */
	serve_watch_set(w, list(dir), 1, list(file), 1);
	save(file, "a save after the set\n");
	check(waits(w, ms), SERVE_CONTENT, name,
	      "a save after a new set is seen, as a write");
	/* an editor's save: a new hidden file renamed over the input */
	save(tmp, "# A page, saved whole\n");
	if (rename(tmp, file) < 0) {
		perror("rename");
		exit(1);
	}
	/*
	 * (the poller sees the folder's listing change, and cannot tell;
	 * inotify sees a hidden file, which is never an input, go)
	 */
	check(waits(w, ms), poll ? SERVE_STRUCTURE : SERVE_CONTENT, name,
	      "a save by rename over the input");
	/* a new file where the build lists a folder: perhaps a new page */
	save(other, "# Another page\n");
	check(waits(w, ms), poll ? SERVE_STRUCTURE : SERVE_LISTING, name,
	      "a new file in a listed folder");
	unlink(other);
	waits(w, ms);
	/* the input goes (the build's list of inputs tells the rest) */
	if (rename(file, tmp) < 0) {
		perror("rename");
		exit(1);
	}
	check(waits(w, ms), poll ? SERVE_STRUCTURE : SERVE_LISTING, name,
	      "an input moved away");
	if (rename(tmp, file) < 0) {
		perror("rename");
		exit(1);
	}
	waits(w, ms);
	/* a new folder may hold pages to come */
	if (mkdir(sub, 0755) < 0) {
		perror("mkdir");
		exit(1);
	}
	check(waits(w, ms), SERVE_STRUCTURE, name,
	      "a new folder in a listed folder is a change of structure");
	rmdir(sub);
	waits(w, ms);
	serve_watch_free(w);
	qu_buf_fini(&err);
}

int main(void)
{
	char dir[] = "/tmp/quire-watch-XXXXXX";
	char file[64], tmp[64], other[64], sub[64];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(file, sizeof(file), "%s/page.md", dir);
	snprintf(tmp, sizeof(tmp), "%s/.page.md.new", dir);
	snprintf(other, sizeof(other), "%s/other.md", dir);
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	save(file, "# A page\n");
	one(false, dir, file, tmp, other, sub);
	one(true, dir, file, tmp, other, sub);
	unlink(file);
	rmdir(dir);
	return fails ? 1 : 0;
}
