// SPDX-License-Identifier: MIT
/*
 * back.c - the previous site, kept in the cache and brought up to date
 *
 * Part of lib/build. After a build exchanges its new site with OUT, the
 * site it replaced is not removed: it moves into the cache as the "back"
 * tree. The next build writes only what changed into a sparse folder
 * beside OUT, then composes the back tree into the new site in place:
 * every file the new site keeps from OUT becomes a hard link to OUT's
 * file, every file written anew is renamed in (or linked from OUT when its
 * bytes equal OUT's), and every other file is removed. The back tree is
 * never shown to a reader, so it may be half-composed when a build is
 * killed; the next compose checks each file against OUT and repairs it.
 * The finished back tree is exchanged with OUT in one rename, as a fresh
 * tree would be. A build's writes are thus proportional to what changed,
 * not to the size of the site, and a file whose bytes did not change
 * keeps its inode and modification time (so rsync and HTTP caches skip
 * it).
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_int.h"

/* Where a file of the new site comes from. */
enum want_from {
	FROM_LIVE = 1,	/* OUT's file, unchanged */
	FROM_NEW,	/* the sparse folder's file */
};

struct want {
	enum want_from from;
	bool in_back;
	dev_t dev;
	ino_t ino;
	struct qu_out_id live;	/* OUT's file as the caller saw it */
};

struct compose {
	struct qu_map want;	/* relative path -> struct want */
	struct qu_arena arena;	/* the paths and the entries */
	const char *live, *sparse, *back;
	const char *skip;	/* a folder of OUT's not to keep, or NULL */
	struct qu_out_list *list;	/* qu_out_list_read()'s */
	struct qu_buf a, b;
	size_t nremoved;
	/* the root's folders, listed by walk() to be walked apart */
	bool defer;
	char **deferred;
	size_t ndeferred;
};

static struct want *want_add(struct compose *c, const char *rel,
			     enum want_from from)
{
	struct want *w = qu_map_get(&c->want, rel, strlen(rel));

	if (!w) {
		w = qu_arena_alloc(&c->arena, sizeof(*w));
		memset(w, 0, sizeof(*w));
		/* the map keeps the key: give it a copy that lives on */
		qu_map_put(&c->want, qu_arena_strdup(&c->arena, rel), w);
	}
	/* a file written anew wins over the same file kept */
	if (w->from != FROM_NEW)
		w->from = from;
	return w;
}

/* Cut @b back to its first @len bytes. */
static void truncate_to(struct qu_buf *b, size_t len)
{
	b->len = len;
	if (b->buf)
		b->buf[len] = 0;
}

static int from_live(struct compose *c, const char *rel,
		     const struct stat *st);

/*
 * What the walk needs of an entry of the folder @d: its kind and, for a
 * file, its inode, told by readdir(3) on the file systems that say the
 * kind (ext4, XFS, Btrfs, tmpfs); else from fstatat(2) beside the folder.
 * A kernel site's back tree has 9,300 files: a stat(2) each was half
 * the compose. The inode a directory entry gives is the one stat(2)
 * gives for a regular file there, and a file whose inode differed from
 * OUT's would only be linked anew. @dev: the folder's device, asked once
 * (0 until then).
 */
static bool entry_stat(DIR *d, const struct dirent *de, struct stat *st,
		       dev_t *dev)
{
	mode_t kind = de->d_type == DT_REG   ? S_IFREG
		      : de->d_type == DT_DIR ? S_IFDIR
		      : de->d_type == DT_LNK ? S_IFLNK
					     : 0;

	if (!kind || (kind == S_IFREG && !*dev)) {
		if (fstatat(dirfd(d), de->d_name, st, AT_SYMLINK_NOFOLLOW) < 0)
			return false;
		if (S_ISREG(st->st_mode))
			*dev = st->st_dev;
		return true;
	}
	memset(st, 0, sizeof(*st));
	st->st_mode = kind;
	st->st_ino = de->d_ino;
	st->st_dev = *dev;
	return true;
}

/*
 * Visit every regular file below @root/@rel (a folder), depth first, in
 * no particular order; @fn gets the path relative to @root and says
 * whether the file stays (1), is gone (0) or failed (-1). A folder with
 * nothing left in it is given to @dir_done after its contents, which
 * says whether it removed it; a folder where something stays is not (a
 * kernel site has 1,500 of them). *@stays: whether @rel is still there.
 */
static int walk(struct compose *c, const char *root, struct qu_buf *rel,
		int (*fn)(struct compose *, const char *, const struct stat *),
		bool (*dir_done)(struct compose *, const char *), bool *stays)
{
	struct qu_buf p = QU_BUF_INIT;
	struct dirent *de;
	DIR *d;
	size_t keep = rel->len;
	bool some = false;
	dev_t dev = 0;
	int r = 0;

	*stays = true;
	qu_buf_addf(&p, "%s%s%s", root, rel->len ? "/" : "",
		    rel->len ? rel->buf : "");
	d = opendir(p.buf);
	if (!d) {
		qu_buf_fini(&p);
		if (errno != ENOENT)
			return -1;
		*stays = false;
		return 0;
	}
	while (!r && (de = readdir(d))) {
		struct stat st;
		bool sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		truncate_to(rel, keep);
		qu_buf_addf(rel, "%s%s", keep ? "/" : "", de->d_name);
		if (!entry_stat(d, de, &st, &dev)) {
			r = -1;
			break;
		}
		if (S_ISDIR(st.st_mode) && fn == from_live && c->skip &&
		    !strcmp(rel->buf, c->skip)) {
			some = true;
			continue;
		}
		if (S_ISDIR(st.st_mode) && c->defer && !keep) {
			c->deferred = qu_xrealloc(
				c->deferred,
				(c->ndeferred + 1) * sizeof(*c->deferred));
			c->deferred[c->ndeferred++] = qu_xstrdup(rel->buf);
			some = true;
		} else if (S_ISDIR(st.st_mode)) {
			r = walk(c, root, rel, fn, dir_done, &sub);
			some |= sub;
		} else {
			r = fn(c, rel->buf, &st);
			some |= r > 0;
			r = r < 0 ? -1 : 0;
		}
	}
	closedir(d);
	truncate_to(rel, keep);
	if (!r && dir_done && keep && !some)
		*stays = !dir_done(c, rel->buf);
	qu_buf_fini(&p);
	return r;
}

static int from_sparse(struct compose *c, const char *rel,
		       const struct stat *st)
{
	(void)st;
	want_add(c, rel, FROM_NEW);
	return 1;
}

static int from_live(struct compose *c, const char *rel, const struct stat *st)
{
	(void)st;
	want_add(c, rel, FROM_LIVE);
	return 1;
}

/* A file of the back tree: kept (noting its inode) or removed. */
static int back_file(struct compose *c, const char *rel, const struct stat *st)
{
	struct want *w = qu_map_get(&c->want, rel, strlen(rel));

	if (w && S_ISREG(st->st_mode)) {
		w->in_back = true;
		w->dev = st->st_dev;
		w->ino = st->st_ino;
		return 1;
	}
	qu_buf_reset(&c->a);
	qu_buf_add_path(&c->a, c->back, rel);
	c->nremoved++;
	return unlink(c->a.buf) < 0 && errno != ENOENT ? -1 : 0;
}

static bool back_dir_done(struct compose *c, const char *rel)
{
	qu_buf_reset(&c->a);
	qu_buf_add_path(&c->a, c->back, rel);
	return rmdir(c->a.buf) == 0;
}

/* Whether two files hold the same bytes. */
static bool same_bytes(const char *x, const char *y, off_t size)
{
	char bx[65536], by[65536];
	int fx = open(x, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	int fy = fx < 0 ? -1 : open(y, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	bool same = fx >= 0 && fy >= 0;
	off_t done = 0;

	while (same && done < size) {
		size_t want = (size_t)(size - done) < sizeof(bx)
				      ? (size_t)(size - done)
				      : sizeof(bx);
		ssize_t nx = read(fx, bx, want), ny;

		if (nx <= 0) {
			same = false;
			break;
		}
		ny = read(fy, by, (size_t)nx);
		same = ny == nx && !memcmp(bx, by, (size_t)nx);
		done += nx;
	}
	if (fx >= 0)
		close(fx);
	if (fy >= 0)
		close(fy);
	return same;
}

/* Make the folder a back tree path lies in. */
static int parent_dir(struct qu_buf *path, struct qu_buf *err)
{
	char *sl = strrchr(path->buf, '/');
	int r;

	*sl = 0;
	r = qu_mkdir_p(path->buf, err);
	*sl = '/';
	return r;
}

/* Bring one file of the back tree to what the new site has. */
/*
 * @op (rename() or link()) of @from to the back tree's path @to, the file
 * there removed first: link() needs a free name, and rename(2) over a
 * file makes ext4 (auto_da_alloc) write the new one's blocks out at once,
 * a disk write a page, where a rename to a free name leaves them to
 * writeback. The back tree is never shown, so a moment without the file
 * costs nothing; a kill here is repaired by the next compose, as any
 * other. The folder most often is there, so it is made only when @op
 * says ENOENT.
 * Return: 0; -1 with errno set; -2 when the folder could not be made
 * (told in @err).
 */
static int into_back(int (*op)(const char *, const char *), const char *from,
		     struct qu_buf *to, struct qu_buf *err)
{
	if (unlink(to->buf) < 0 && errno != ENOENT)
		return -1;
	if (!op(from, to->buf))
		return 0;
	if (errno != ENOENT)
		return -1;
	if (parent_dir(to, err) < 0)
		return -2;
	return op(from, to->buf) < 0 ? -1 : 0;
}

/* What one worker of the compose uses. */
struct compose_worker {
	struct qu_buf a, b;
};

static int compose_one(const struct compose *c, struct compose_worker *k,
		       const char *rel, const struct want *w,
		       struct qu_buf *err)
{
	struct stat ls, ns;
	bool have_live;

	qu_buf_reset(&k->a);
	qu_buf_add_path(&k->a, c->live, rel);
	if (w->from == FROM_LIVE && w->live.ino) {
		/* a kept file: the caller saw it a moment ago */
		ls.st_dev = w->live.dev;
		ls.st_ino = w->live.ino;
		have_live = true;
	} else {
		have_live = !lstat(k->a.buf, &ls) && S_ISREG(ls.st_mode);
	}
	if (w->from == FROM_NEW) {
		qu_buf_reset(&k->b);
		qu_buf_add_path(&k->b, c->sparse, rel);
		if (lstat(k->b.buf, &ns) < 0)
			goto fail;
		if (!have_live || ls.st_size != ns.st_size ||
		    !same_bytes(k->a.buf, k->b.buf, ns.st_size)) {
			qu_buf_reset(&k->a);
			qu_buf_add_path(&k->a, c->back, rel);
			switch (into_back(rename, k->b.buf, &k->a, err)) {
			case -1:
				goto fail;
			case -2:
				return -1;
			}
			return 0;
		}
	} else if (!have_live) {
		qu_buf_addf(err, "%s: missing from the last site", k->a.buf);
		return -1;
	}
	/* OUT's file, as it is */
	if (w->in_back && w->dev == ls.st_dev && w->ino == ls.st_ino)
		return 0;
	qu_buf_reset(&k->b);
	qu_buf_add_path(&k->b, c->back, rel);
	switch (into_back(link, k->a.buf, &k->b, err)) {
	case -1:
		goto fail;
	case -2:
		return -1;
	}
	return 0;
fail:
	qu_buf_addf(err, "%s: cannot compose the site: %s", rel,
		    strerror(errno));
	return -1;
}

struct compose_run {
	const struct compose *c;
	const struct qu_map_slot **files;
	struct compose_worker *workers;
	char **errs;	/* per file: its error, or NULL */
};

static void compose_task(struct qu_job *job, size_t i, void *payload)
{
	struct compose_run *run = payload;
	struct qu_buf err = QU_BUF_INIT;

	if (compose_one(run->c, &run->workers[job->worker],
			run->files[i]->key, run->files[i]->value, &err) < 0)
		run->errs[i] = qu_buf_detach(&err, NULL);
	qu_buf_fini(&err);
}

/*
 * Every file of the new site into the back tree, on @threads workers
 * (0: one a processor): each is a rename or a link of its own, and a
 * release's worth of change renames thousands. The first failure in the
 * map's order is the one told.
 */
static int compose_all(const struct compose *c, unsigned threads,
		       struct qu_buf *err)
{
	struct compose_run run = {c, NULL, NULL, NULL};
	unsigned nw = threads ? threads : qu_ncpus();
	size_t i, n = 0;
	int r = 0;

	run.files = qu_xcalloc(c->want.n + 1, sizeof(*run.files));
	run.errs = qu_xcalloc(c->want.n + 1, sizeof(*run.errs));
	run.workers = qu_xcalloc(nw, sizeof(*run.workers));
	for (i = 0; i < c->want.cap; i++)
		if (c->want.slots[i].key)
			run.files[n++] = &c->want.slots[i];
	qu_pool_run(nw, n, compose_task, &run);
	for (i = 0; i < n; i++) {
		if (run.errs[i] && !r) {
			qu_buf_adds(err, run.errs[i]);
			r = -1;
		}
		free(run.errs[i]);
	}
	for (i = 0; i < nw; i++) {
		qu_buf_fini(&run.workers[i].a);
		qu_buf_fini(&run.workers[i].b);
	}
	free(run.workers);
	free(run.errs);
	free(run.files);
	return r;
}

/* walk_back()'s: each folder's walk, on a worker of its own */
struct back_run {
	const struct compose *c;
	int *r;
	int *errs;	/* errno, where @r is -1 */
	size_t *nremoved;
};

static void back_task(struct qu_job *job, size_t i, void *payload)
{
	struct back_run *run = payload;
	/* the table of wanted files is only read: a copy of its handle */
	struct compose c = *run->c;
	struct qu_buf rel = QU_BUF_INIT;
	bool stays;

	(void)job;
	qu_buf_init(&c.a);
	qu_buf_init(&c.b);
	c.nremoved = 0;
	c.defer = false;
	qu_buf_adds(&rel, run->c->deferred[i]);
	run->r[i] = walk(&c, c.back, &rel, back_file, back_dir_done, &stays);
	run->errs[i] = errno;
	run->nremoved[i] = c.nremoved;
	qu_buf_fini(&rel);
	qu_buf_fini(&c.a);
	qu_buf_fini(&c.b);
}

/*
 * The back tree's files noted or removed (back_file()): the root's own,
 * then each of its folders on the workers (a kernel site's back tree has
 * 9,300 files in 1,500 folders). Each file's entry in the table is its
 * own; the first failure in the folders' order is told, errno set.
 */
static int walk_back(struct compose *c, unsigned threads)
{
	struct qu_buf rel = QU_BUF_INIT;
	struct back_run run = {c, NULL, NULL, NULL};
	bool stays;
	size_t i;
	int r;

	c->defer = true;
	r = walk(c, c->back, &rel, back_file, back_dir_done, &stays);
	c->defer = false;
	qu_buf_fini(&rel);
	if (!r && c->ndeferred) {
		run.r = qu_xcalloc(c->ndeferred, sizeof(*run.r));
		run.errs = qu_xcalloc(c->ndeferred, sizeof(*run.errs));
		run.nremoved = qu_xcalloc(c->ndeferred, sizeof(*run.nremoved));
		qu_pool_run(threads, c->ndeferred, back_task, &run);
		for (i = 0; i < c->ndeferred; i++) {
			c->nremoved += run.nremoved[i];
			if (run.r[i] < 0 && !r) {
				r = -1;
				errno = run.errs[i];
			}
		}
		free(run.r);
		free(run.errs);
		free(run.nremoved);
	}
	for (i = 0; i < c->ndeferred; i++)
		free(c->deferred[i]);
	free(c->deferred);
	c->deferred = NULL;
	c->ndeferred = 0;
	return r;
}

int qu_out_compose(struct qu_out *o, const char *const *kept,
		   const struct qu_out_id *kept_ids, size_t nkept,
		   const char *const *kept_dirs, size_t nkept_dirs,
		   const char *skip, struct qu_buf *err)
{
	struct compose c;
	struct qu_buf rel = QU_BUF_INIT;
	bool stays;
	size_t i;
	int r = -1;

	memset(&c, 0, sizeof(c));
	qu_map_init(&c.want);
	qu_arena_init(&c.arena);
	c.live = o->abs;
	c.sparse = o->tmp;
	c.back = o->back;
	c.skip = skip;
	if (walk(&c, o->tmp, &rel, from_sparse, NULL, &stays) < 0)
		goto io;
	for (i = 0; i < nkept; i++) {
		struct want *w = want_add(&c, kept[i], FROM_LIVE);

		if (kept_ids && w->from == FROM_LIVE)
			w->live = kept_ids[i];
	}
	for (i = 0; i < nkept_dirs; i++) {
		qu_buf_reset(&rel);
		qu_buf_adds(&rel, kept_dirs[i]);
		if (walk(&c, o->abs, &rel, from_live, NULL, &stays) < 0)
			goto io;
	}
	if (walk_back(&c, o->threads) < 0)
		goto io;
	if (compose_all(&c, o->threads, err) < 0)
		goto out;
	o->composed = true;
	r = 0;
	goto out;
io:
	qu_buf_addf(err, "%s: cannot compose the site: %s", o->back,
		    strerror(errno));
out:
	qu_buf_fini(&rel);
	qu_buf_fini(&c.a);
	qu_buf_fini(&c.b);
	qu_map_fini(&c.want);
	qu_arena_fini(&c.arena);
	return r;
}

/* quire serve's folder, updated in place ------------------------------- */

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void qu_out_list_fini(struct qu_out_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
	l->valid = false;
}

static int list_file(struct compose *c, const char *rel, const struct stat *st)
{
	struct qu_out_list *l = c->list;

	(void)st;
	l->v = qu_xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = qu_xstrdup(rel);
	return 1;
}

int qu_out_list_read(struct qu_out_list *l, const char *dir)
{
	struct compose c;
	struct qu_buf rel = QU_BUF_INIT;
	bool stays;
	int r;

	qu_out_list_fini(l);
	memset(&c, 0, sizeof(c));
	c.list = l;
	r = walk(&c, dir, &rel, list_file, NULL, &stays);
	qu_buf_fini(&rel);
	qu_buf_fini(&c.a);
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), cmp_path);
	l->valid = r == 0;
	if (r < 0)
		qu_out_list_fini(l);
	return r;
}

/* Whether @rel is @dir or lies below it ("" holds everything). */
static bool below(const char *rel, const char *dir)
{
	size_t l = strlen(dir);

	return !l || (!strncmp(rel, dir, l) && (!rel[l] || rel[l] == '/'));
}

/* Remove @rel's folders below @root that it left empty. */
static void prune_dirs(struct qu_buf *p, size_t root_len)
{
	char *sl;

	while ((sl = strrchr(p->buf, '/')) && (size_t)(sl - p->buf) > root_len) {
		*sl = 0;
		p->len = (size_t)(sl - p->buf);
		/* a folder that still holds something says ENOTEMPTY */
		if (rmdir(p->buf) < 0)
			break;
	}
}

int qu_out_apply(struct qu_out *o, const char *const *kept, size_t nkept,
		 const char *const *kept_dirs, size_t nkept_dirs,
		 const char *skip, struct qu_out_list *live, struct qu_buf *err)
{
	struct compose c;
	struct qu_buf rel = QU_BUF_INIT, p = QU_BUF_INIT, q = QU_BUF_INIT;
	bool stays;
	size_t root_len = strlen(o->abs), i, k;
	char **next = NULL;
	size_t nnext = 0;
	int r = -1;

	assert(live->valid);
	memset(&c, 0, sizeof(c));
	qu_map_init(&c.want);
	qu_arena_init(&c.arena);
	if (walk(&c, o->tmp, &rel, from_sparse, NULL, &stays) < 0) {
		qu_buf_addf(err, "%s: cannot read: %s", o->tmp,
			    strerror(errno));
		goto out;
	}
	for (i = 0; i < nkept; i++)
		want_add(&c, kept[i], FROM_LIVE);
	for (i = 0; i < live->n; i++)
		for (k = 0; k < nkept_dirs; k++)
			if (below(live->v[i], kept_dirs[k]) &&
			    !(skip && below(live->v[i], skip)))
				want_add(&c, live->v[i], FROM_LIVE);
	/*
	 * From here on OUT changes: a failure leaves it neither the last
	 * site nor the new one, so the list is dropped and the next build
	 * writes a whole site again.
	 */
	live->valid = false;
	/* the files no longer wanted first: a new file may take the path */
	for (i = 0; i < live->n; i++) {
		if (qu_map_get(&c.want, live->v[i], strlen(live->v[i])))
			continue;
		qu_buf_reset(&p);
		qu_buf_add_path(&p, o->abs, live->v[i]);
		if (unlink(p.buf) < 0 && errno != ENOENT) {
			qu_buf_addf(err, "%s: cannot remove: %s", p.buf,
				    strerror(errno));
			goto out;
		}
		prune_dirs(&p, root_len);
	}
	for (i = 0; i < c.want.cap; i++) {
		const struct qu_map_slot *s = &c.want.slots[i];
		const struct want *w = s->value;
		struct stat ls, ns;

		if (!s->key)
			continue;
		next = qu_xrealloc(next, (nnext + 1) * sizeof(*next));
		next[nnext++] = qu_xstrdup(s->key);
		if (w->from != FROM_NEW)
			continue;
		qu_buf_reset(&p);
		qu_buf_add_path(&p, o->abs, s->key);
		qu_buf_reset(&q);
		qu_buf_add_path(&q, o->tmp, s->key);
		if (lstat(q.buf, &ns) < 0)
			goto fail;
		/* the same bytes keep OUT's file, its inode and its time */
		if (!lstat(p.buf, &ls) && S_ISREG(ls.st_mode) &&
		    ls.st_size == ns.st_size &&
		    same_bytes(p.buf, q.buf, ns.st_size))
			continue;
		if (parent_dir(&p, err) < 0 || rename(q.buf, p.buf) < 0)
			goto fail;
	}
	if (nnext > 1)
		qsort(next, nnext, sizeof(*next), cmp_path);
	qu_out_list_fini(live);
	live->v = next;
	live->n = nnext;
	live->valid = true;
	next = NULL;
	nnext = 0;
	qu_rm_tree_marked(o->tmp, QU_SITE_MARKER);
	free(o->tmp);
	o->tmp = NULL;
	r = 0;
	goto out;
fail:
	if (!err->len)
		qu_buf_addf(err, "%s: cannot update the site: %s", p.buf,
			    strerror(errno));
out:
	for (i = 0; i < nnext; i++)
		free(next[i]);
	free(next);
	if (!live->valid)
		qu_out_list_fini(live);
	qu_buf_fini(&rel);
	qu_buf_fini(&p);
	qu_buf_fini(&q);
	qu_buf_fini(&c.a);
	qu_buf_fini(&c.b);
	qu_map_fini(&c.want);
	qu_arena_fini(&c.arena);
	return r;
}
