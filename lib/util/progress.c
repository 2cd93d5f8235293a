// SPDX-License-Identifier: MIT
/*
 * progress.c - a "[done/total] files" line on a terminal during long runs
 *
 * Part of lib/util; lib/build and the commands count their tasks with it.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

/* Below this many files a run is too short for a progress line to help. */
#define PROGRESS_MIN_TASKS 200

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void qu_progress_init(struct qu_progress *p, size_t total, bool quiet)
{
	atomic_init(&p->done, 0);
	p->total = total;
	p->on = !quiet && total >= PROGRESS_MIN_TASKS && isatty(2) &&
		!getenv("QUIRE_NO_PROGRESS");
	p->last_ms = now_ms();
}

void qu_progress_tick(struct qu_progress *p, const struct qu_job *job)
{
	size_t done;
	long long t;

	/* no count without a line: the workers would share its cache line */
	if (!p->on)
		return;
	done = atomic_fetch_add(&p->done, 1) + 1;
	if (job->worker != 0)
		return;
	t = now_ms();
	if (t - p->last_ms < 100)
		return;
	p->last_ms = t;
	fprintf(stderr, "\r[%zu/%zu] files", done, p->total);
}

void qu_progress_done(struct qu_progress *p)
{
	if (p->on)
		fputs("\r\033[K", stderr);
}
