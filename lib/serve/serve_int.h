/* SPDX-License-Identifier: MIT */
/*
 * serve_int.h - what the files of lib/serve share
 *
 * Included only by lib/serve/ *.c.
 */
#ifndef QU_SERVE_SERVE_INT_H
#define QU_SERVE_SERVE_INT_H

#include <pthread.h>

#include "serve.h"

/**
 * struct serve_state - the last build, as the HTTP threads see it
 * @lock: guards everything below
 * @cond: broadcast when @gen changes or @stopping is set
 * @gen: counts finished builds, the first is 1
 * @ok: whether the last build gave a site without errors
 * @event: the last build's event as Server-Sent Events data (JSON)
 * @stopping: the server is shutting down
 * @nclients: event streams open
 */
struct serve_state {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t gen;
	bool ok;
	struct qu_buf event;
	bool stopping;
	unsigned nclients;
};

/* Limits: each names what it stops. */
/* connections at once: a tab opens a few; a flood of them gets refused */
#define SERVE_MAX_CONNECTIONS 256
/* event streams at once: one per open tab */
#define SERVE_MAX_CLIENTS 64
/* a connection idle this long (seconds) is closed; streams send keepalives */
#define SERVE_IDLE_TIMEOUT 60
/* an event stream sends a comment this often (seconds) to stay open */
#define SERVE_KEEPALIVE 15
/* a URL longer than this is refused with 414 */
#define SERVE_MAX_URL 4096

struct serve_http;

/**
 * serve_http_load() - open libmicrohttpd, which quire is not linked with
 * @err: receives the message on failure (appended): "cannot load
 *	libmicrohttpd.so.12 (needed to serve the site): " and the reason
 *
 * serve_http_start() calls it too; quire serve calls it first, so that
 * a missing library stops it before the first build rather than after.
 * Context: thread-safe; the first call opens it, later ones say how.
 * Return: 0, or -1.
 */
int serve_http_load(struct qu_buf *err);

/**
 * serve_http_start() - listen and answer requests on threads of its own
 * @out: the server; serve_http_stop() frees it
 * @state: the build state to report on the event stream
 * @root: the folder served, resolved; nothing outside it is ever read
 * @bind: the address, or NULL for 127.0.0.1
 * @port: the port, 0 for any
 * @port_out: the port listened on
 * @err: receives a one-line message on failure
 *
 * Return: 0, or -1.
 */
int serve_http_start(struct serve_http **out, struct serve_state *state,
		     const char *root, const char *bind, unsigned port,
		     unsigned *port_out, struct qu_buf *err);

/**
 * serve_http_stop() - end every stream, close every connection, stop
 * @h: the server, or NULL
 */
void serve_http_stop(struct serve_http *h);

/* the decoder's mark for a malformed escape: never a valid path byte */
#define BAD_ESCAPE '\x01'

/**
 * serve_path_decode() - decode a request path's %XX escapes, in place
 * @s: the path as it came; NUL-terminated
 *
 * Decodes once. A malformed escape ("%zz", "%4") or an encoded NUL
 * becomes BAD_ESCAPE rather than cutting the path short, so that
 * "/x%00/../../etc" cannot turn into "/x".
 *
 * Return: the decoded length.
 */
size_t serve_path_decode(char *s);

/**
 * serve_path_ok() - whether a request path is one the server may map
 * @path: the decoded path, starting with "/"
 *
 * Refuses "." and ".." components, backslashes, control bytes (so
 * BAD_ESCAPE too) and DEL.
 */
bool serve_path_ok(const char *path);

struct serve_watch;

/**
 * enum serve_change - what a watcher saw, in rising order
 * @SERVE_NONE: nothing that is an input
 * @SERVE_CONTENT: files written (an input also when made or moved
 *	there): whether the next build reads other inputs its list of them
 *	tells (when it is the last one's, the watches stand)
 * @SERVE_LISTING: as @SERVE_CONTENT, and files made, moved or deleted
 *	where the build lists folders, or an input moved away or deleted:
 *	the folders' listings of the last build no longer hold
 * @SERVE_STRUCTURE: a folder made, moved or deleted where the build
 *	lists folders (or one the poller cannot tell from a file), a
 *	watched folder gone, or events lost: the watches are laid anew
 */
enum serve_change {
	SERVE_NONE,
	SERVE_CONTENT,
	SERVE_LISTING,
	SERVE_STRUCTURE,
};

/**
 * struct serve_watch_ops - one way of watching files (STYLE: one per file)
 * @name: "inotify" or "poll"
 * @init: set up; 0 or -1 (message in @err) when unavailable here
 * @set: watch @w's folders (their listing) and files from now on; the
 *	lists watched until now are passed, sorted, for what carries over
 * @wait: wait up to @timeout_ms (-1: for ever) for a change or for
 *	@sigfd to become readable; raises *@changed to what it saw
 * @fini: release everything
 */
struct serve_watch_ops {
	const char *name;
	int (*init)(struct serve_watch *w, struct qu_buf *err);
	void (*set)(struct serve_watch *w, char **old_dirs, size_t old_ndirs,
		    char **old_files, size_t old_nfiles);
	int (*wait)(struct serve_watch *w, int timeout_ms, int sigfd,
		    enum serve_change *changed);
	void (*fini)(struct serve_watch *w);
};

/**
 * struct serve_watch - what is watched, and the backend's state
 * @ops: the backend
 * @dirs: folders whose listing is an input (resolved), sorted
 * @ndirs: how many
 * @files: files that are inputs (resolved), sorted
 * @nfiles: how many
 * @noted: the input files the waits saw written since serve_watch_take()
 *	(resolved, in the order seen, perhaps twice)
 * @nnoted: how many
 * @anoted: allocated
 * @priv: the backend's own state
 */
struct serve_watch {
	const struct serve_watch_ops *ops;
	char **dirs;
	size_t ndirs;
	char **files;
	size_t nfiles;
	char **noted;
	size_t nnoted, anoted;
	void *priv;
};

/* strcmp() of two char * array entries, for qsort() and bsearch() */
int serve_watch_cmp(const void *a, const void *b);

extern const struct serve_watch_ops serve_watch_inotify;
extern const struct serve_watch_ops serve_watch_poll;

/*
 * serve_watch_new() - a watcher: inotify, else (or with @poll) polling.
 * Return: 0, or -1 (message in @err).
 */
int serve_watch_new(struct serve_watch **out, bool poll, struct qu_buf *err);
/* serve_watch_set() - replace what is watched; takes the arrays' paths */
void serve_watch_set(struct serve_watch *w, char **dirs, size_t ndirs,
		     char **files, size_t nfiles);
/* serve_watch_has_file() - whether @path is a watched input file */
bool serve_watch_has_file(const struct serve_watch *w, const char *path);
/* serve_watch_has_dir() - whether @path is a watched folder */
bool serve_watch_has_dir(const struct serve_watch *w, const char *path);
/* serve_watch_note() - a backend saw the input file @path written */
void serve_watch_note(struct serve_watch *w, const char *path);
/*
 * serve_watch_take() - the files noted since the last call, which the
 * caller frees (each and the array)
 */
size_t serve_watch_take(struct serve_watch *w, char ***out);
/* serve_watch_ignored() - an editor's temporary file, never an input */
bool serve_watch_ignored(const char *name);
void serve_watch_free(struct serve_watch *w);

#endif /* QU_SERVE_SERVE_INT_H */
