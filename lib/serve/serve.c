// SPDX-License-Identifier: MIT
/*
 * serve.c - the preview server's loop: build, watch, collapse, rebuild
 *
 * Part of lib/serve; called by quire serve. The main thread builds (with
 * lib/build, into a private folder, incrementally), watches the inputs the
 * build read, and after a burst of changes has been quiet for a moment
 * rebuilds once. The HTTP threads (http.c) serve the folder meanwhile: a
 * build swaps its site in whole, so a reader never sees half of one, and a
 * failed build leaves the last good site in place.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "build/build.h"
#include "git/git.h"
#include "serve_int.h"

extern char **environ;

/*
 * A burst of changes (an editor's several writes, a git checkout) ends
 * when nothing changed for QUIET_MS; a stream of changes still rebuilds
 * every MAX_WAIT_MS.
 */
#define QUIET_MS 25
/* the nice value of the search index's threads after a rebuild */
#define SEARCH_NICE 10
#define MAX_WAIT_MS 2000
/* folders below the docs root watched for new pages, at most */
#define MAX_WALK_DEPTH 32

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct list {
	char **v;
	size_t n, alloc;
};

static void list_add(struct list *l, char *s)
{
	if (l->n == l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 64;
		l->v = qu_xrealloc(l->v, l->alloc * sizeof(*l->v));
	}
	l->v[l->n++] = s;
}

/*
 * The inputs of a build, resolved as inotify names them; @parents keeps
 * each folder resolved once (a kernel tree's 55,000 sources lie in 5,000
 * folders, and realpath() costs an lstat() a component).
 */
struct inputs {
	struct list dirs, files;
	struct qu_map parents;
	struct qu_arena arena;
	/* each input file's resolved path to the build's (the server's) */
	struct qu_map *origin;
	struct qu_arena *origin_arena;
};

/* A file's resolved path: its folder's, then its name, unless a link. */
static char *resolve_file(struct inputs *in, const char *path)
{
	const char *sl = strrchr(path, '/'), *name;
	struct qu_buf r = QU_BUF_INIT;
	struct stat st;
	void **dir;

	name = sl ? sl + 1 : path;
	if (!sl || !*name || !strcmp(name, ".") || !strcmp(name, "..") ||
	    lstat(path, &st) < 0 || S_ISLNK(st.st_mode))
		return qu_path_resolve(path);
	dir = qu_map_slot(&in->parents, path, (size_t)(sl - path));
	if (!*dir) {
		char *d = qu_arena_strndup(&in->arena, path,
					   (size_t)(sl - path));
		char *abs = qu_path_resolve(sl == path ? "/" : d);

		/* the map keeps the key: the arena's copy */
		((struct qu_map_slot *)((char *)dir -
					offsetof(struct qu_map_slot, value)))
			->key = d;
		*dir = qu_arena_strdup(&in->arena, abs);
		free(abs);
	}
	qu_buf_add_path(&r, strcmp(*dir, "/") ? (char *)*dir : "", name);
	return qu_buf_detach(&r, NULL);
}

static void take_input(void *payload, const char *path, bool dir)
{
	struct inputs *in = payload;
	char *abs = dir ? qu_path_resolve(path) : resolve_file(in, path);

	if (!dir) {
		char *k = qu_arena_strdup(in->origin_arena, abs);

		*qu_map_slot(in->origin, k, strlen(k)) =
			qu_arena_strdup(in->origin_arena, path);
	}
	list_add(dir ? &in->dirs : &in->files, abs);
}

/* Every folder below the docs root, where a new page may appear. */
static void walk(struct list *dirs, const char *dir, const char *skip,
		 int depth)
{
	struct qu_buf p = QU_BUF_INIT;
	struct dirent *de;
	DIR *d;

	if (depth > MAX_WALK_DEPTH || !strcmp(dir, skip))
		return;
	list_add(dirs, qu_xstrdup(dir));
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.' || de->d_type == DT_REG)
			continue;
		qu_buf_reset(&p);
		qu_buf_add_path(&p, dir, de->d_name);
		/* readdir()'s type spares an lstat() of every file */
		if (de->d_type == DT_DIR ||
		    (de->d_type != DT_LNK && !lstat(p.buf, &st) &&
		     S_ISDIR(st.st_mode)))
			walk(dirs, p.buf, skip, depth + 1);
	}
	if (d)
		closedir(d);
	qu_buf_fini(&p);
}

/* JSON string escaping for the event's data. */
static void json_str(struct qu_buf *b, const char *s)
{
	qu_buf_addc(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			qu_buf_addf(b, "\\%c", c);
		else if (c == '\n')
			qu_buf_adds(b, "\\n");
		else if (c < 0x20)
			qu_buf_addf(b, "\\u%04x", c);
		else
			qu_buf_addc(b, (char)c);
	}
	qu_buf_addc(b, '"');
}

struct changed {
	struct qu_buf *json;
	size_t n;
};

static void take_changed(void *payload, const char *out)
{
	struct changed *c = payload;

	if (c->n++)
		qu_buf_addc(c->json, ',');
	json_str(c->json, out);
}

struct server {
	const struct qu_serve_opts *opts;
	struct qu_build_opts bopts;
	struct serve_state state;
	struct serve_watch *watch;
	char *root_abs;
	char *site;
	char *work;
	uint64_t builds;
	struct qu_build *last;
	struct qu_diags shown;
	/* the inputs the watches were set for, hashed (inputs_key()) */
	uint64_t watched_key;
	bool watched;
	/* the last build laid the watches anew */
	bool rewatched;
	/* each watched input file's resolved path to its build's path */
	struct qu_map origin;
	struct qu_arena origin_arena;
	/* the folder listings of the last build's walk of the tree */
	struct qu_files_memo *listings;
};

/* The list of a build's inputs, hashed in order. */
static void hash_input(void *payload, const char *path, bool dir)
{
	XXH3_state_t *h = payload;

	XXH3_64bits_update(h, path, strlen(path) + 1);
	XXH3_64bits_update(h, dir ? "d" : "f", 1);
}

static uint64_t inputs_key(const struct qu_build *b)
{
	XXH3_state_t *h = XXH3_createState();
	uint64_t k;

	XXH3_64bits_reset(h);
	qu_build_inputs(b, hash_input, h);
	k = XXH3_64bits_digest(h);
	XXH3_freeState(h);
	return k;
}

/*
 * The build paths of the input files the watcher saw written, for
 * qu_build_changed(): when the watches stood through the last build (it
 * did not lay them anew) and saw no change of structure, no other source
 * can differ from what that build saw.
 */
static void tell_changed(struct server *s, struct qu_build *b, bool structure)
{
	char **noted = NULL;
	size_t n = serve_watch_take(s->watch, &noted), i, k = 0;
	const char **paths = qu_xcalloc(n + 1, sizeof(*paths));

	for (i = 0; i < n; i++) {
		const char *p = qu_map_get(&s->origin, noted[i],
					   strlen(noted[i]));

		if (p)
			paths[k++] = p;
	}
	if (!structure && s->watched && !s->rewatched)
		qu_build_changed(b, paths, k);
	for (i = 0; i < n; i++)
		free(noted[i]);
	free(noted);
	free(paths);
}

/*
 * Print the diagnostics of @now that the build before did not give (both
 * sorted): a save shows what it caused, not the tree's every warning.
 */
static void print_new(const struct qu_diags *now, const struct qu_diags *before)
{
	struct qu_diags fresh;
	size_t i = 0, j = 0;

	qu_diags_init(&fresh);
	for (; i < now->n; i++) {
		int c = 1;

		while (j < before->n &&
		       (c = qu_diag_cmp(&before->v[j], &now->v[i])) < 0)
			j++;
		if (j < before->n && !c)
			continue;
		QU_VEC_GROW(fresh.v, fresh.n, fresh.alloc);
		fresh.v[fresh.n++] = now->v[i];
	}
	qu_diags_print(&fresh, stderr, false);
	free(fresh.v);
}

struct search_job {
	struct qu_build *b;
	struct qu_buf *err;
	int r;
};

static void *search_thread(void *arg)
{
	struct search_job *j = arg;

	/* its workers, made from this thread, are as nice as it is */
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), SEARCH_NICE);
	j->r = qu_build_search(j->b, j->err);
	return NULL;
}

/*
 * The search index after a rebuild, on a thread of its own at a lower
 * priority: the browser reloading the page the build changed comes
 * first on a machine with few processors. Its result, as
 * qu_build_search()'s.
 */
static int search_behind(struct qu_build *b, struct qu_buf *err)
{
	struct search_job j = {b, err, 0};
	pthread_t t;

	if (pthread_create(&t, NULL, search_thread, &j) != 0)
		return qu_build_search(b, err);
	pthread_join(t, NULL);
	return j.r;
}

/*
 * One build; its outcome becomes the event every tab hears. @structure:
 * the watcher saw more than input files written since the last build
 * (enum serve_change), so the watches are laid anew even when the build
 * read the same inputs. @listing: it saw files made, moved or deleted
 * where the build lists folders.
 */
static void rebuild(struct server *s, bool structure, bool listing)
{
	struct qu_build *b = NULL;
	struct qu_buf err = QU_BUF_INIT, ev = QU_BUF_INIT, msg = QU_BUF_INIT;
	struct qu_diags diags;
	struct qu_build_stats st;
	struct inputs in = {0};
	struct changed ch = {&ev, 0};
	size_t nerr = 0, nwarn = 0, i;
	long long t0 = now_ms(), tw = 0;
	bool wrote = false, rewatch = false;

	qu_diags_init(&diags);
	qu_map_init(&in.parents);
	qu_arena_init(&in.arena);
	memset(&st, 0, sizeof(st));
	qu_buf_adds(&ev, "{\"changed\":[");
	/*
	 * the last walk's listings hold when the watches stood through it
	 * and saw no file made, moved or deleted where it listed folders
	 */
	if (structure || listing || !s->watched || s->rewatched)
		qu_files_memo_clear(s->listings);
	if (qu_build_new(&b, &s->bopts, &err) == 0) {
		/* unchanged sources come from the last build, in memory */
		qu_build_reuse(b, s->last);
		tell_changed(s, b, structure);
		qu_build_link(b);
		wrote = qu_build_write(b, &err) == 0;
	}
	if (b)
		qu_build_diags(&diags, b);
	print_new(&diags, &s->shown);
	qu_diags_count(&nerr, &nwarn, &diags);
	if (wrote) {
		qu_build_get_stats(&st, b);
		qu_build_rendered(b, take_changed, &ch);
		tw = now_ms();
		/*
		 * the same inputs after only writes to them: the watches
		 * stand (resolving a kernel tree's 55,000 inputs and walking
		 * its folders again costs more than the rebuild)
		 */
		{
			uint64_t key = inputs_key(b);

			rewatch = structure || !s->watched ||
				  key != s->watched_key;
			s->watched_key = key;
		}
		if (rewatch) {
			qu_map_fini(&s->origin);
			qu_arena_fini(&s->origin_arena);
			qu_map_init(&s->origin);
			qu_arena_init(&s->origin_arena);
			in.origin = &s->origin;
			in.origin_arena = &s->origin_arena;
			qu_build_inputs(b, take_input, &in);
		}
	}
	qu_buf_adds(&ev, "]");
	if (!wrote || nerr) {
		/* what the overlay shows: path:line:col, as the terminal */
		if (err.len)
			qu_buf_addf(&msg, "quire build: %s\n", err.buf);
		for (i = 0; i < diags.n; i++) {
			const struct qu_diag *d = &diags.v[i];

			if (qu_diag_info(d->id)->level != QU_LEVEL_ERROR)
				continue;
			qu_buf_adds(&msg, d->path);
			if (d->line)
				qu_buf_addf(&msg, ":%u", d->line);
			if (d->line && d->col)
				qu_buf_addf(&msg, ":%u", d->col);
			qu_buf_addf(&msg, ": error: %s [-W%s]\n", d->msg,
				    qu_diag_info(d->id)->name);
		}
		if (err.len)
			fprintf(stderr, "quire serve: %s\n", err.buf);
		qu_buf_adds(&ev, ",\"ok\":false,\"error\":");
		json_str(&ev, msg.buf);
	} else {
		qu_buf_adds(&ev, ",\"ok\":true");
	}
	/*
	 * watch what this build read (a failed one keeps the last set),
	 * before the build is announced: a save after the announcement is
	 * seen
	 */
	if (wrote) {
		if (rewatch) {
			walk(&in.dirs, s->root_abs, s->work, 0);
			serve_watch_set(s->watch, in.dirs.v, in.dirs.n,
					in.files.v, in.files.n);
			s->watched = true;
		}
		s->rewatched = rewatch;
		/* QUIRE_TIMING=1: what the build's phases leave out */
		if (s->bopts.timing)
			fprintf(stderr, "quire serve: watch    %6.2f s\n",
				(double)(now_ms() - tw) / 1000);
	}
	qu_map_fini(&in.parents);
	qu_arena_fini(&in.arena);
	s->builds++;
	qu_buf_addf(&ev, ",\"gen\":%llu}", (unsigned long long)s->builds);
	if (!s->opts->quiet) {
		if (wrote)
			fprintf(stderr,
				"quire serve: build %llu, %lld ms: %zu pages "
				"rendered, %zu kept; %zu of %zu sources "
				"parsed, %zu from memory; %zu warnings%s\n",
				(unsigned long long)s->builds, now_ms() - t0,
				st.nwritten, st.nkept, st.nparsed, st.nunits,
				st.nreused,
				nwarn + nerr, nerr ? ", errors" : "");
		else
			fprintf(stderr,
				"quire serve: build %llu failed, %lld ms; "
				"serving the last good site\n",
				(unsigned long long)s->builds, now_ms() - t0);
	}
	pthread_mutex_lock(&s->state.lock);
	s->state.gen = s->builds;
	s->state.ok = wrote && !nerr;
	qu_buf_reset(&s->state.event);
	qu_buf_add(&s->state.event, ev.buf, ev.len);
	pthread_cond_broadcast(&s->state.cond);
	pthread_mutex_unlock(&s->state.lock);
	if (wrote) {
		long long t1 = now_ms();
		int sr;

		qu_buf_reset(&err);
		sr = search_behind(b, &err);
		if (sr < 0)
			fprintf(stderr, "quire serve: the search index: %s\n",
				err.buf);
		else if (sr > 0 && !s->opts->quiet)
			fprintf(stderr, "quire serve: search index, %lld ms\n",
				now_ms() - t1);
	}
	/* kept for the next build's units (a broken one has none to give) */
	qu_build_free(s->last);
	s->last = b;
	/* what the next build's new diagnostics are told apart from */
	qu_diags_fini(&s->shown);
	s->shown = diags;
	qu_buf_fini(&err);
	qu_buf_fini(&ev);
	qu_buf_fini(&msg);
}

static void open_browser(const char *url)
{
	char *argv[] = {"xdg-open", (char *)url, NULL};
	posix_spawn_file_actions_t fa;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, "xdg-open", &fa, NULL, argv, environ))
		fprintf(stderr, "quire serve: cannot run xdg-open; open %s\n",
			url);
	posix_spawn_file_actions_destroy(&fa);
}

int qu_serve_run(const struct qu_serve_opts *opts, struct qu_buf *err)
{
	struct server s;
	struct serve_http *http = NULL;
	struct qu_buf b = QU_BUF_INIT, url = QU_BUF_INIT;
	sigset_t set;
	unsigned port = 0;
	long long first = 0, last = 0;
	bool pending = false, structure = false, listing = false;
	int sigfd = -1, r = -1;
	char tmpl[] = "/tmp/quire-serve-XXXXXX";
	const char *tmpdir = getenv("TMPDIR");

	if (serve_http_load(err) < 0)
		return -1;
	memset(&s, 0, sizeof(s));
	qu_map_init(&s.origin);
	qu_arena_init(&s.origin_arena);
	s.opts = opts;
	pthread_mutex_init(&s.state.lock, NULL);
	pthread_cond_init(&s.state.cond, NULL);
	qu_buf_init(&s.state.event);
	qu_buf_adds(&s.state.event, "{}");

	/* the signals come to sigfd; every thread started later blocks them */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	sigdelset(&set, SIGPIPE);
	sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sigfd < 0) {
		qu_buf_addf(err, "signalfd: %s", strerror(errno));
		goto out;
	}

	/* a private folder for the site and its cache, ours alone */
	if (tmpdir && *tmpdir) {
		qu_buf_addf(&b, "%s/quire-serve-XXXXXX", tmpdir);
		s.work = qu_buf_detach(&b, NULL);
	} else {
		s.work = qu_xstrdup(tmpl);
	}
	if (!mkdtemp(s.work)) {
		qu_buf_addf(err, "cannot make a folder like %s: %s", s.work,
			    strerror(errno));
		free(s.work);
		s.work = NULL;
		goto out;
	}
	qu_buf_reset(&b);
	qu_buf_addf(&b, "%s/site", s.work);
	s.site = qu_buf_detach(&b, NULL);
	qu_buf_addf(&b, "%s/cache", s.work);
	s.bopts.cache = qu_buf_detach(&b, NULL);
	s.bopts.dir = opts->dir;
	s.bopts.out = s.site;
	s.bopts.threads = opts->threads;
	s.bopts.quiet = true;
	/* the tabs reload first; the search index follows */
	s.bopts.defer_search = true;
	/* a walk over history on every save costs more than a date is worth */
	s.bopts.no_history = true;
	/* the search index of a rebuild redoes only what changed */
	s.bopts.memo = true;
	/* its folder is its own: rebuilt in place, file by file */
	s.bopts.in_place = true;
	s.listings = qu_files_memo_new();
	s.bopts.lister = qu_files_memo_files(s.listings);
	/* QUIRE_TIMING=1: each phase of every rebuild, as quire build says */
	s.bopts.timing = getenv("QUIRE_TIMING") != NULL;
	s.root_abs = qu_path_resolve(opts->dir);

	if (serve_watch_new(&s.watch, opts->poll, err) < 0)
		goto out;
	rebuild(&s, true, true);
	{
		/* a work tree's version and root come from git, if it loads */
		struct qu_buf why = QU_BUF_INIT;

		if (qu_git_missing(&why))
			fprintf(stderr, "quire serve: note: %s; going on as "
				"outside git\n", why.buf);
		qu_buf_fini(&why);
	}
	if (serve_http_start(&http, &s.state, s.site, opts->bind, opts->port,
			     &port, err) < 0)
		goto out;
	{
		const char *host = opts->bind ? opts->bind : "127.0.0.1";
		bool v6 = strchr(host, ':') != NULL;

		qu_buf_addf(&url, "http://%s%s%s:%u/", v6 ? "[" : "", host,
			    v6 ? "]" : "", port);
	}
	if (opts->bind && strcmp(opts->bind, "127.0.0.1") &&
	    strcmp(opts->bind, "::1"))
		fprintf(stderr,
			"quire serve: listening on %s, not only on this "
			"machine: anyone who can reach it can read the site\n",
			opts->bind);
	fprintf(stderr, "quire serve: %s (watching with %s; Ctrl-C stops)\n",
		url.buf, s.watch->ops->name);
	if (opts->open)
		open_browser(url.buf);

	for (;;) {
		struct signalfd_siginfo si;
		enum serve_change changed = SERVE_NONE;
		int timeout = -1;
		long long t = now_ms();

		if (pending) {
			long long a = last + QUIET_MS - t;
			long long z = first + MAX_WAIT_MS - t;

			timeout = (int)(a < z ? a : z);
			if (timeout < 0)
				timeout = 0;
		}
		if (s.watch->ops->wait(s.watch, timeout, sigfd, &changed) < 0) {
			qu_buf_addf(err, "watching: %s", strerror(errno));
			break;
		}
		if (read(sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
			r = 0;
			break;
		}
		t = now_ms();
		if (changed) {
			if (!pending) {
				first = t;
				structure = listing = false;
			}
			pending = true;
			structure |= changed == SERVE_STRUCTURE;
			listing |= changed >= SERVE_LISTING;
			last = t;
		}
		if (pending &&
		    (t - last >= QUIET_MS || t - first >= MAX_WAIT_MS)) {
			pending = false;
			rebuild(&s, structure, listing);
		}
	}
	if (!opts->quiet)
		fprintf(stderr, "quire serve: stopped\n");
out:
	serve_http_stop(http);
	serve_watch_free(s.watch);
	qu_build_free(s.last);
	qu_files_memo_free(s.listings);
	qu_diags_fini(&s.shown);
	qu_map_fini(&s.origin);
	qu_arena_fini(&s.origin_arena);
	if (s.work) {
		/* the folder is ours: mkdtemp made it */
		qu_buf_reset(&b);
		qu_buf_addf(&b, "%s", s.work);
		if (qu_rm_tree(b.buf) < 0)
			fprintf(stderr, "quire serve: cannot remove %s\n",
				s.work);
	}
	if (sigfd >= 0)
		close(sigfd);
	free(s.work);
	free(s.site);
	free((char *)s.bopts.cache);
	free(s.root_abs);
	qu_buf_fini(&s.state.event);
	pthread_cond_destroy(&s.state.cond);
	pthread_mutex_destroy(&s.state.lock);
	qu_buf_fini(&b);
	qu_buf_fini(&url);
	return r;
}
