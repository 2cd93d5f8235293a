/* SPDX-License-Identifier: MIT */
/*
 * serve.h - the preview server: build, serve, watch, rebuild, reload
 *
 * In: a docs root (or a bare source tree) and where to listen. Out: until
 * SIGINT or SIGTERM, the site served over HTTP from the folder lib/build
 * writes, rebuilt incrementally whenever an input changes, with the open
 * tabs told over Server-Sent Events which pages changed or what broke.
 * This stage renders nothing itself: every build is lib/build's.
 * Included by cmd/ only.
 */
#ifndef QU_SERVE_SERVE_H
#define QU_SERVE_SERVE_H

#include <stdbool.h>
#include <stdint.h>

#include "util/util.h"

/**
 * struct qu_serve_opts - what to serve and how
 * @dir: the docs root, or a source tree
 * @bind: the address to listen on (an IPv4 or IPv6 literal); NULL for
 *	127.0.0.1
 * @port: the TCP port; 0 for one the system picks
 * @threads: build threads, 0 for one per processor
 * @open: open the site in the desktop's browser once it is served
 * @poll: watch by polling even where inotify works
 * @quiet: no line per rebuild (diagnostics are still printed)
 */
struct qu_serve_opts {
	const char *dir;
	const char *bind;
	unsigned port;
	unsigned threads;
	bool open;
	bool poll;
	bool quiet;
};

/**
 * qu_serve_run() - serve until told to stop
 * @opts: the options
 * @err: receives a one-line message on failure
 *
 * Blocks SIGINT, SIGTERM and SIGPIPE in the calling thread (and so in
 * every thread it starts) and returns once SIGINT or SIGTERM arrives,
 * after the server and the watcher have stopped and the private output
 * folder is removed. Call before any other thread exists, with the
 * libraries set up as for qu_build_new().
 *
 * Return: 0 after a clean stop, -1 when the server could not start (the
 * first build failing to write a site is not an error: the browser shows
 * why).
 */
int qu_serve_run(const struct qu_serve_opts *opts, struct qu_buf *err);

#endif /* QU_SERVE_SERVE_H */
