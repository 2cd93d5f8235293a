// SPDX-License-Identifier: MIT
/*
 * watch.c - the watchers keep what they saw across a new set of inputs
 *
 * A build ends by handing the watcher the inputs it read. A save that
 * landed while that build ran must still start the next one, with
 * inotify (its event is queued on a folder's watch) and with polling (the
 * file differs from what was last seen). Each backend: watch a folder,
 * save a file in it, lay the same set down again, and the next wait must
 * say "changed"; with nothing saved, it must not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static bool waits(struct serve_watch *w, int ms)
{
	bool changed = false;

	if (w->ops->wait(w, ms, -1, &changed) < 0) {
		perror("wait");
		exit(1);
	}
	return changed;
}

static void check(bool got, bool want, const char *backend, const char *what)
{
	if (got != want) {
		printf("FAIL: %s: %s\n", backend, what);
		fails++;
	} else {
		printf("ok: %s: %s\n", backend, what);
	}
}

static void one(bool poll, const char *dir, const char *file)
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
	check(waits(w, ms), false, name, "nothing saved, nothing seen");
	/* a save while "the build" runs, then the build's new set */
	save(file, "a save during the build\n");
	serve_watch_set(w, list(dir), 1, list(file), 1);
	check(waits(w, ms), true, name, "a save before a new set is seen after it");
	check(waits(w, ms), false, name, "and only once");
	/* and the watch goes on after a set */
	serve_watch_set(w, list(dir), 1, list(file), 1);
	save(file, "a save after the set\n");
	check(waits(w, ms), true, name, "a save after a new set is seen");
	serve_watch_free(w);
	qu_buf_fini(&err);
}

int main(void)
{
	char dir[] = "/tmp/quire-watch-XXXXXX";
	char file[64];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(file, sizeof(file), "%s/page.md", dir);
	save(file, "# A page\n");
	one(false, dir, file);
	one(true, dir, file);
	unlink(file);
	rmdir(dir);
	return fails ? 1 : 0;
}
