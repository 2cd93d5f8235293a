// SPDX-License-Identifier: MIT
/*
 * write.c - the pages of a run: their names, their files, their date
 * (man stage)
 *
 * Which item gets which page (the first of a name wins), the pages
 * written on the thread pool into MAN/man9/, and the date of the .TH
 * line from SOURCE_DATE_EPOCH or git, never from the clock. Called by
 * cmd/quire (quire man, quire build).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "git/git.h"
#include "man_int.h"

bool qu_man_page_name(struct qu_buf *out, const struct qu_item *it)
{
	const char *n = it->name;

	if (it->kind == QU_KIND_DOC || !n ||
	    !(isalpha((unsigned char)*n) || *n == '_'))
		return false;
	/* the name becomes a file name: nothing but a C identifier */
	for (const char *p = n; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return false;
	if (it->kind == QU_KIND_STRUCT || it->kind == QU_KIND_UNION ||
	    it->kind == QU_KIND_ENUM) {
		qu_buf_adds(out, qu_kind_name(it->kind));
		qu_buf_addc(out, '_');
	}
	qu_buf_adds(out, n);
	return true;
}

static int cmp_name(const void *a, const void *b)
{
	const struct qu_man_page *x = a, *y = b;

	return strcmp(x->name, y->name);
}

void qu_man_set_init(struct qu_man_set *s, const struct qu_unit *units,
		     size_t n)
{
	struct qu_buf name = QU_BUF_INIT;
	size_t alloc = 0;

	memset(s, 0, sizeof(*s));
	s->units = units;
	s->nunits = n;
	qu_arena_init(&s->arena);
	qu_map_init(&s->by_name);
	for (size_t u = 0; u < n; u++) {
		for (size_t i = 0; i < units[u].nitems; i++) {
			const struct qu_item *it = &units[u].items[i];
			const char *key;

			qu_buf_reset(&name);
			if (!qu_man_page_name(&name, it))
				continue;
			if (qu_map_get(&s->by_name, name.buf, name.len)) {
				s->dropped++;
				continue;
			}
			key = qu_arena_strndup(&s->arena, name.buf, name.len);
			QU_VEC_GROW(s->pages, s->npages, alloc);
			s->pages[s->npages++] = (struct qu_man_page){
				.name = key, .unit = u, .item = i};
			qu_map_put(&s->by_name, key, (void *)1);
		}
	}
	qu_buf_fini(&name);
	/* sorted by name; the map then gives each name its index */
	if (s->npages)
		qsort(s->pages, s->npages, sizeof(*s->pages), cmp_name);
	qu_map_reset(&s->by_name);
	for (size_t i = 0; i < s->npages; i++)
		qu_map_put(&s->by_name, s->pages[i].name,
			   (void *)(uintptr_t)(i + 1));
}

void qu_man_set_fini(struct qu_man_set *s)
{
	free(s->pages);
	qu_map_fini(&s->by_name);
	qu_arena_fini(&s->arena);
	memset(s, 0, sizeof(*s));
}

struct writer {
	const struct qu_man_set *set;
	const struct qu_man_opts *opts;
	const char *dir;
	pthread_mutex_t lock;
	struct qu_buf *err;
};

/*
 * A page is written in place, not beside and renamed: a whole tree is
 * 65,000 pages, and the rename doubles the cost of each on a slow file
 * system. quire build writes into a folder it swaps in whole anyway.
 */
static int write_page(const char *path, const struct qu_buf *data,
		      struct qu_buf *err)
{
	return qu_file_write(path, data->buf, data->len, false, err);
}

static void write_one(struct qu_job *job, size_t i, void *payload)
{
	struct writer *wr = payload;
	struct qu_buf path = QU_BUF_INIT, err = QU_BUF_INIT;

	qu_buf_reset(&job->scratch);
	qu_man_render(&job->scratch, wr->set, i, wr->opts);
	qu_buf_addf(&path, "%s/%s.9", wr->dir, wr->set->pages[i].name);
	if (write_page(path.buf, &job->scratch, &err) < 0) {
		/* the first failure reported wins; the rest say the same */
		pthread_mutex_lock(&wr->lock);
		if (!wr->err->len)
			qu_buf_adds(wr->err, err.buf);
		pthread_mutex_unlock(&wr->lock);
	}
	qu_buf_fini(&path);
	qu_buf_fini(&err);
}

int qu_man_write(const char *dir, const struct qu_man_set *s,
		 const struct qu_man_opts *opts, unsigned threads,
		 struct qu_buf *err)
{
	struct qu_buf d = QU_BUF_INIT;
	struct writer wr = {.set = s, .opts = opts, .err = err};
	int ret = -1;

	qu_buf_reset(err);
	qu_buf_addf(&d, "%s/man9", dir);
	if (qu_mkdir_p(d.buf, err) < 0)
		goto out;
	wr.dir = d.buf;
	pthread_mutex_init(&wr.lock, NULL);
	qu_pool_run(threads, s->npages, write_one, &wr);
	pthread_mutex_destroy(&wr.lock);
	ret = err->len ? -1 : 0;
out:
	qu_buf_fini(&d);
	return ret;
}

int qu_man_date(struct qu_buf *out, const char *path, struct qu_buf *err)
{
	const char *env = getenv("SOURCE_DATE_EPOCH");
	struct qu_buf wd = QU_BUF_INIT;
	int64_t t = 0;
	bool have = false;
	struct tm tm;
	time_t tt;

	qu_buf_reset(out);
	if (env && *env) {
		char *end;
		long long v;

		errno = 0;
		v = strtoll(env, &end, 10);
		/* reproducible-builds.org: a decimal number of seconds */
		if (errno || *end || v < 0 || !isdigit((unsigned char)*env)) {
			qu_buf_reset(err);
			qu_buf_addf(err,
				    "SOURCE_DATE_EPOCH: not a number of "
				    "seconds: '%s'",
				    env);
			return -1;
		}
		t = v;
		have = true;
	} else if (qu_git_workdir(&wd, path) == 0 &&
		   qu_git_head_time(&t, wd.buf) == 0) {
		have = true;
	}
	qu_buf_fini(&wd);
	if (!have)
		return 0;
	tt = (time_t)t;
	if (!gmtime_r(&tt, &tm))
		return 0;
	qu_buf_addf(out, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1,
		    tm.tm_mday);
	return 0;
}
