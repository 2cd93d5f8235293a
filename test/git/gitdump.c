// SPDX-License-Identifier: MIT
/*
 * gitdump.c - lib/git from the command line, for test/git/git.py and
 * test/bench/git.sh
 *
 *   gitdump ls REPO REV [FOLDER]      mode, blob id, path [-> target]
 *   gitdump cat REPO REV PATH         the file's bytes
 *   gitdump describe REPO REV         the revision's `git describe --tags`
 *   gitdump last REPO REV full|first [PATH...]   time, commit, path
 *   gitdump forge URL REV             the template, or "none"
 *   gitdump edit URL BRANCH           the editor's template, or "none"
 *   gitdump source REPO REV           the template of origin, or "none"
 *   gitdump branch REPO REV           the branch REV names, or "none"
 *   gitdump editor REPO REV           origin's editor template, or "none"
 *   gitdump read REPO REV THREADS     read every file; files, bytes, ms
 *   gitdump packs REPO REV            every object of the packs read by
 *                                     lib/git's reader and by libgit2:
 *                                     packs, objects, loose, differing
 *
 * Exit 0, 1 for "not found" answers, 2 on errors (message on stderr).
 */
#include <git2.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "git/git_int.h"

static struct qu_buf err = QU_BUF_INIT;

static int fail(int r)
{
	if (r < 0)
		fprintf(stderr, "gitdump: %s\n", err.buf);
	return r < 0 ? 2 : r;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

struct reader {
	struct qu_git_tree *t;
	struct qu_git_file *files;
	size_t n, from, step;
	uint64_t bytes;
	int error;
};

static void *read_some(void *arg)
{
	struct reader *r = arg;
	struct qu_buf b = QU_BUF_INIT, e = QU_BUF_INIT;
	size_t i;

	for (i = r->from; i < r->n; i += r->step) {
		if (qu_git_tree_read(&b, r->t, r->files[i].path, &e) != 0) {
			fprintf(stderr, "gitdump: %s\n", e.buf);
			r->error = 1;
			break;
		}
		r->bytes += b.len;
	}
	qu_buf_fini(&b);
	qu_buf_fini(&e);
	return NULL;
}

static int cmd_read(struct qu_git_tree *t, int threads)
{
	struct qu_git_file *files;
	struct reader r[64];
	pthread_t tid[64];
	uint64_t bytes = 0;
	size_t n;
	double t0 = now_ms(), t1;
	int i, ret = 0;

	if (threads < 1 || threads > 64)
		threads = 1;
	if (qu_git_tree_list(&files, &n, t, NULL, &err) < 0)
		return fail(-1);
	t1 = now_ms();
	for (i = 0; i < threads; i++) {
		r[i] = (struct reader){.files = files, .n = n, .from = (size_t)i,
				       .step = (size_t)threads};
		if (i == 0)
			r[i].t = t;
		else if (qu_git_tree_dup(&r[i].t, t, &err) < 0)
			return fail(-1);
		pthread_create(&tid[i], NULL, read_some, &r[i]);
	}
	for (i = 0; i < threads; i++) {
		pthread_join(tid[i], NULL);
		bytes += r[i].bytes;
		ret |= r[i].error;
		if (i)
			qu_git_tree_free(r[i].t);
	}
	printf("files %zu bytes %" PRIu64 " list_ms %.0f read_ms %.0f\n", n,
	       bytes, t1 - t0, now_ms() - t1);
	qu_git_files_free(files, n);
	return ret ? 2 : 0;
}

struct compare {
	struct git_packs *packs;
	git_odb *odb;
	size_t objects, loose, differ;
	struct qu_buf b;
};

static int compare_one(const git_oid *id, void *payload)
{
	struct compare *c = payload;
	git_odb_object *o = NULL;
	char hex[41];
	int type, r;

	c->objects++;
	git_oid_tostr(hex, sizeof(hex), id);
	if (git_odb_read(&o, c->odb, id) < 0) {
		fprintf(stderr, "gitdump: libgit2 cannot read %s\n", hex);
		c->differ++;
		return 0;
	}
	r = git_packs_read(&c->b, &type, c->packs, id->id);
	if (r == 1) {
		c->loose++;
	} else if (r != 0 || type != (int)git_odb_object_type(o) ||
	    c->b.len != git_odb_object_size(o) ||
	    memcmp(c->b.buf, git_odb_object_data(o), c->b.len)) {
		fprintf(stderr, "gitdump: %s differs\n", hex);
		c->differ++;
	}
	git_odb_object_free(o);
	return 0;
}

/* every object of the packs, read both ways */
static int packs(struct qu_git_tree *t)
{
	struct compare c = {0};
	size_t n_packs, n_objects;
	int r;

	qu_buf_init(&c.b);
	c.packs = t->packs;
	n_packs = git_packs_count(c.packs, &n_objects);
	if ((r = git_repository_odb(&c.odb, t->repo)) == 0)
		r = git_odb_foreach(c.odb, compare_one, &c);
	printf("%zu packs, %zu objects packed, %zu read, %zu loose, %zu differ\n",
	       n_packs, n_objects, c.objects, c.loose, c.differ);
	git_odb_free(c.odb);
	qu_buf_fini(&c.b);
	return r < 0 || c.differ ? 2 : 0;
}

int main(int argc, char **argv)
{
	struct qu_git_tree *t = NULL;
	struct qu_buf out = QU_BUF_INIT;
	int r;

	if (argc < 4) {
		fprintf(stderr, "usage: gitdump ls|cat|describe|last|forge|source|read ...\n");
		return 2;
	}
	if (!strcmp(argv[1], "forge") || !strcmp(argv[1], "edit")) {
		r = argv[1][0] == 'f' ? qu_git_forge_url(&out, argv[2], argv[3])
				      : qu_git_forge_edit_url(&out, argv[2],
							      argv[3]);
		puts(r ? "none" : out.buf);
		qu_buf_fini(&out);
		return 0;
	}
	/* libgit2 itself, for what packs compares lib/git's reader with */
	if (qu_git_init(&err) < 0)
		return fail(-1);
	r = qu_git_tree_open(&t, argv[2], argv[3], &err);
	if (r == 1) {
		puts("no repository");
		git_libgit2_shutdown();
		return 1;
	}
	if (r < 0)
		return fail(r);
	if (!strcmp(argv[1], "ls")) {
		struct qu_git_file *f;
		size_t n, i;

		r = qu_git_tree_list(&f, &n, t, argc > 4 ? argv[4] : NULL, &err);
		for (i = 0; r == 0 && i < n; i++)
			printf("%06o %s %s%s%s\n", f[i].mode, f[i].hex, f[i].path,
			       f[i].target ? " -> " : "",
			       f[i].target ? f[i].target : "");
		if (r == 0)
			qu_git_files_free(f, n);
	} else if (!strcmp(argv[1], "cat") && argc > 4) {
		r = qu_git_tree_read(&out, t, argv[4], &err);
		if (r == 0)
			fwrite(out.buf, 1, out.len, stdout);
		else if (r == 1)
			fprintf(stderr, "gitdump: %s\n", err.buf);
	} else if (!strcmp(argv[1], "describe")) {
		r = qu_git_describe_rev(&out, t, &err);
		if (r == 0)
			puts(out.buf);
	} else if (!strcmp(argv[1], "last") && argc > 4) {
		struct qu_git_change *c;
		size_t n, i;
		double t0 = now_ms();

		r = qu_git_last_changed(&c, &n, t,
			argc > 5 ? (const char *const *)argv + 5 : NULL,
			argc > 5 ? (size_t)(argc - 5) : 0,
			!strcmp(argv[4], "first") ? QU_GIT_WALK_FIRST_PARENT :
						    QU_GIT_WALK_FULL, &err);
		if (getenv("GITDUMP_TIME"))
			fprintf(stderr, "last_ms %.0f\n", now_ms() - t0);
		for (i = 0; r == 0 && i < n; i++)
			printf("%" PRId64 " %s %s\n", c[i].time,
			       c[i].commit[0] ? c[i].commit : "-", c[i].path);
		if (r == 0)
			qu_git_changes_free(c, n);
	} else if (!strcmp(argv[1], "source")) {
		r = qu_git_source_url(&out, t, NULL);
		puts(r ? "none" : out.buf);
		r = 0;
	} else if (!strcmp(argv[1], "branch")) {
		puts(qu_git_tree_branch(t) ? qu_git_tree_branch(t) : "none");
		r = 0;
	} else if (!strcmp(argv[1], "editor")) {
		r = qu_git_edit_url(&out, t);
		puts(r ? "none" : out.buf);
		r = 0;
	} else if (!strcmp(argv[1], "packs")) {
		r = packs(t);
	} else if (!strcmp(argv[1], "read") && argc > 4) {
		r = cmd_read(t, atoi(argv[4]));
	} else {
		fprintf(stderr, "gitdump: unknown command %s\n", argv[1]);
		r = 2;
	}
	qu_git_tree_free(t);
	qu_buf_fini(&out);
	git_libgit2_shutdown();
	r = fail(r);
	qu_buf_fini(&err);
	return r;
}
