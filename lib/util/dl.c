// SPDX-License-Identifier: MIT
/*
 * dl.c - shared libraries opened on first use (util stage)
 *
 * lib/git, lib/serve and lib/render's graph.c open libgit2,
 * libmicrohttpd and graphviz here, the first time a run needs them.
 */
#include <dlfcn.h>
#include <string.h>

#include "util.h"

static void open_lib(struct qu_dl *dl)
{
	void *h = dlopen(dl->soname, RTLD_NOW | RTLD_LOCAL);
	const char *why = NULL;
	size_t i;

	if (!h && !(why = dlerror()))
		why = "dlopen() failed";
	for (i = 0; h && !why && i < dl->nsyms; i++) {
		void *p;

		/* an address may be NULL: only dlerror() tells a failure */
		dlerror();
		p = dlsym(h, dl->syms[i].name);
		if (!p)
			why = dlerror();
		/* POSIX: a function's address goes through void * intact */
		memcpy((char *)dl->table + dl->syms[i].off, &p, sizeof(p));
	}
	/*
	 * The words are kept for the process's life, as the library would
	 * have been; a half-filled table is never used, the state says so.
	 */
	if (why)
		dl->why = qu_xstrdup(why);
	dl->state = why ? -1 : 1;
}

int qu_dl_load(struct qu_dl *dl, const char *need, struct qu_buf *err)
{
	int state;

	pthread_mutex_lock(&dl->lock);
	if (!dl->state)
		open_lib(dl);
	state = dl->state;
	pthread_mutex_unlock(&dl->lock);
	if (state > 0)
		return 0;
	qu_buf_addf(err, "cannot load %s (needed %s): %s", dl->soname, need,
		    dl->why);
	return -1;
}

bool qu_dl_failed(struct qu_dl *dl)
{
	int state;

	pthread_mutex_lock(&dl->lock);
	state = dl->state;
	pthread_mutex_unlock(&dl->lock);
	return state < 0;
}
