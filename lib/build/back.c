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
#include <stdatomic.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

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
	ino_t made;	/* the composed file's inode, for the record */
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
	/* a folder of the back tree stayed that holds no wanted file */
	atomic_bool *unknown;
	/* qu_out_record()'s files, and whether one was not a file */
	struct rec_in *ins;
	size_t nins, ains;
	bool rec_bad;
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
	if (rmdir(c->a.buf) == 0)
		return true;
	if (c->unknown)
		atomic_store(c->unknown, true);
	return false;
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
		       const char *rel, struct want *w, struct qu_buf *err)
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
			w->made = ns.st_ino;
			return 0;
		}
	} else if (!have_live) {
		qu_buf_addf(err, "%s: missing from the last site", k->a.buf);
		return -1;
	}
	/* OUT's file, as it is */
	w->made = ls.st_ino;
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

/* The back tree's record ------------------------------------------------ */

/*
 * What a compose leaves of the tree it made, in the cache beside the back
 * tree: every folder with its stat(2) data, every file with its inode.
 * OUT and the back tree trade places at each commit, so two builds later
 * that tree is the back tree again, and the compose takes its files from
 * the record instead of listing its folders (a kernel site's 1,500
 * folders took 25 to 40 ms, most of a one-edit build's compose). A
 * folder whose stat(2) data is as recorded holds what the record says:
 * adding, removing or renaming an entry changes a folder's modification
 * time. Any other folder is listed, and a folder the record does not know
 * is walked whole. A folder changed less than REC_RACY_NS before the
 * record was made could change again within the same tick of the file
 * system's clock and keep its time, so it is recorded as untrusted and
 * always listed, as git treats racy entries. The record is named by the
 * tree's inode; one that is corrupt, of another tree or of another format
 * is not used, and the tree is walked as before.
 */
#define REC_MAGIC "quire-back-tree\n"
#define REC_FORMAT 1
#define REC_RACY_NS 50000000
#define REC_CHUNK 64

struct rec_dir {
	const char *rel;	/* "" for the root */
	uint64_t dev, ino;
	int64_t mtime_s, mtime_ns;
	bool trusted;
};

struct rec_file {
	uint32_t dir;
	const char *name;
	uint64_t ino;
};

struct back_rec {
	const void *data;	/* the record's bytes */
	size_t size;
	bool mapped;	/* by rec_read(), so unmapped by rec_fini() */
	struct rec_dir *dirs;
	size_t *parent;	/* each folder's, by number; the root's is 0 */
	struct qu_map map;	/* a folder's path -> 1 + its number */
	size_t ndirs;
	struct rec_file *files;
	size_t nfiles;
};

/*
 * Where the record of the tree whose root is inode @ino is kept: beside
 * the back tree "DIR/back-HASH", as "DIR/tree-HASH.INO" (INO in hex);
 * without @ino, the part before INO.
 */
static void rec_path(struct qu_buf *b, const char *back, uint64_t ino)
{
	const char *base = strrchr(back, '/');

	base = base ? base + 1 : back;
	qu_buf_reset(b);
	qu_buf_add(b, back, (size_t)(base - back));
	qu_buf_addf(b, "tree-%s.", strncmp(base, "back-", 5) ? base : base + 5);
	if (ino)
		qu_buf_addf(b, "%llx", (unsigned long long)ino);
}

/* @b: "@dir/@name", or @name in the root ("") */
static void rec_join(struct qu_buf *b, const char *dir, const char *name)
{
	qu_buf_reset(b);
	if (*dir)
		qu_buf_add_path(b, dir, name);
	else
		qu_buf_adds(b, name);
}

static void rec_fini(struct back_rec *r)
{
	if (r->mapped)
		qu_file_unmap(r->data, r->size);
	free(r->dirs);
	free(r->parent);
	free(r->files);
	qu_map_fini(&r->map);
	memset(r, 0, sizeof(*r));
}

/*
 * Whether @s (@len bytes) may name something below the back tree: a
 * folder's path ("" is the root) of parts neither empty, "." nor "..",
 * or (!@path) one such part.
 */
static bool rec_name_ok(const char *s, size_t len, bool path)
{
	size_t i = 0, j;

	if (!len)
		return path;
	if (!path && memchr(s, '/', len))
		return false;
	while (i <= len) {
		for (j = i; j < len && s[j] != '/'; j++)
			;
		if (j == i || (j - i == 1 && s[i] == '.') ||
		    (j - i == 2 && s[i] == '.' && s[i + 1] == '.'))
			return false;
		i = j + 1;
	}
	return true;
}

/* A name with its NUL, pointing into the record's bytes. */
static const char *rec_get_name(struct build_rd *rd, bool path)
{
	size_t len;
	const char *s = build_get_str(rd, NULL, &len);

	if (!s || !rd->left || *rd->p || memchr(s, 0, len) ||
	    !rec_name_ok(s, len, path)) {
		rd->bad = true;
		return NULL;
	}
	rd->p++, rd->left--;
	return s;
}

/*
 * The record in @r->data of the tree whose root is (@dev, @ino), checked:
 * its sum, its names, its folders in order, the root first, each after
 * the folder it lies in; @r->map made of its folders. Return: whether it
 * can be used; either way the caller frees @r with rec_fini().
 */
static bool rec_parse(struct back_rec *r, uint64_t dev, uint64_t ino)
{
	char magic[sizeof(REC_MAGIC) - 1];
	struct build_rd rd;
	uint64_t sum, n, i;

	qu_map_init(&r->map);
	if (r->size < 8)
		return false;
	memcpy(&sum, (const char *)r->data + r->size - 8, 8);
	if (le64toh(sum) != XXH3_64bits(r->data, r->size - 8))
		return false;
	rd.p = r->data;
	rd.left = r->size - 8;
	rd.bad = false;
	if (!build_get(&rd, magic, sizeof(magic)) ||
	    memcmp(magic, REC_MAGIC, sizeof(magic)) ||
	    build_get_u32(&rd) != REC_FORMAT)
		return false;
	n = build_get_u64(&rd);
	if (rd.bad || !n || n > rd.left / 38)
		return false;
	r->dirs = qu_xcalloc(n, sizeof(*r->dirs));
	r->parent = qu_xcalloc(n, sizeof(*r->parent));
	for (i = 0; i < n && !rd.bad; i++) {
		struct rec_dir *d = &r->dirs[i];
		unsigned char t = 0;
		const char *sl;
		void *p = NULL;

		d->rel = rec_get_name(&rd, true);
		d->dev = build_get_u64(&rd);
		d->ino = build_get_u64(&rd);
		d->mtime_s = (int64_t)build_get_u64(&rd);
		d->mtime_ns = (int64_t)build_get_u64(&rd);
		build_get(&rd, &t, 1);
		d->trusted = t == 1;
		if (rd.bad || t > 1 || (!i) != !*d->rel ||
		    (!i && (d->dev != dev || d->ino != ino)) ||
		    (i && strcmp(r->dirs[i - 1].rel, d->rel) >= 0))
			return false;
		/* the folder it lies in, already read */
		sl = strrchr(d->rel, '/');
		if (i && !(p = qu_map_get(&r->map, d->rel,
					  sl ? (size_t)(sl - d->rel) : 0)))
			return false;
		r->parent[i] = p ? (uintptr_t)p - 1 : 0;
		qu_map_put(&r->map, d->rel, (void *)(uintptr_t)(i + 1));
	}
	r->ndirs = n;
	n = build_get_u64(&rd);
	if (rd.bad || n > rd.left / 14)
		return false;
	r->files = qu_xcalloc(n + 1, sizeof(*r->files));
	for (i = 0; i < n && !rd.bad; i++) {
		struct rec_file *f = &r->files[i];

		f->dir = build_get_u32(&rd);
		f->name = rec_get_name(&rd, false);
		f->ino = build_get_u64(&rd);
		if (f->dir >= r->ndirs)
			rd.bad = true;
	}
	r->nfiles = n;
	/* what was read stays for rec_fini(), which the caller calls */
	return !rd.bad && !rd.left;
}

/* The record at @path of the tree whose root is (@dev, @ino), checked. */
static bool rec_read(struct back_rec *r, const char *path, uint64_t dev,
		     uint64_t ino)
{
	memset(r, 0, sizeof(*r));
	r->mapped = qu_file_map(path, &r->data, &r->size) == 0;
	if (r->mapped && rec_parse(r, dev, ino))
		return true;
	rec_fini(r);
	return false;
}

long build_back_rec_check(const void *data, size_t size, uint64_t dev,
			  uint64_t ino)
{
	struct back_rec r;
	struct qu_buf rel = QU_BUF_INIT;
	long n = -1;
	size_t i;

	memset(&r, 0, sizeof(r));
	r.data = data;
	r.size = size;
	if (rec_parse(&r, dev, ino)) {
		/* every path the compose would make of it */
		for (i = 0; i < r.nfiles; i++)
			rec_join(&rel, r.dirs[r.files[i].dir].rel,
				 r.files[i].name);
		n = (long)r.nfiles;
	}
	qu_buf_fini(&rel);
	rec_fini(&r);
	return n;
}

/*
 * Folders stat(2)ed on the pool below a tree's root, opened (@fd): the
 * tree may be OUT by the time a record is made. The folders are @rels, or
 * without them @rec's.
 */
struct rec_stat {
	int fd;
	const char *const *rels;
	const struct back_rec *rec;
	size_t n;
	struct stat *st;
	bool *exists;
	int64_t before;	/* the time before the first stat(2), in ns */
};

static int64_t now_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static void rec_stat_chunk(struct qu_job *job, size_t c, void *payload)
{
	struct rec_stat *rs = payload;
	size_t i;

	(void)job;
	for (i = c * REC_CHUNK; i < (c + 1) * REC_CHUNK && i < rs->n; i++) {
		const char *rel = rs->rels ? rs->rels[i] : rs->rec->dirs[i].rel;

		rs->exists[i] = !fstatat(rs->fd, *rel ? rel : ".", &rs->st[i],
					 AT_SYMLINK_NOFOLLOW) &&
				S_ISDIR(rs->st[i].st_mode);
	}
}

/* @rs's folders (@rels, or @rec's) stat(2)ed below @fd */
static void rec_stat_all(struct rec_stat *rs, int fd, const char *const *rels,
			 const struct back_rec *rec, unsigned threads)
{
	rs->fd = fd;
	rs->rels = rels;
	rs->rec = rec;
	rs->n = rels ? rs->n : rec->ndirs;
	rs->st = qu_xcalloc(rs->n + 1, sizeof(*rs->st));
	rs->exists = qu_xcalloc(rs->n + 1, sizeof(*rs->exists));
	/* a folder changed after this is racy */
	rs->before = now_ns();
	qu_pool_run(threads, (rs->n + REC_CHUNK - 1) / REC_CHUNK,
		    rec_stat_chunk, rs);
}

static void rec_stat_fini(struct rec_stat *rs)
{
	free(rs->st);
	free(rs->exists);
	memset(rs, 0, sizeof(*rs));
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* a file the record is made of: its path in the tree and its inode */
struct rec_in {
	const char *rel;
	uint64_t ino;
};

/*
 * Record the tree at @back (its root @root) as holding the @n files @in
 * and the folders they lie in, at @path. A folder @known found before
 * the compose (its record's, stat(2)ed then) is recorded as it was found:
 * when the compose changed it since, its time or its inode is no longer
 * the one recorded (it was found trusted only when its time lay
 * REC_RACY_NS before, and the compose came after), and the next compose
 * lists it, as it would list a folder recorded as racy. The other folders
 * are stat(2)ed now.
 */
static void rec_write(const char *path, int fd, const struct stat *root,
		      const struct rec_in *in, size_t n,
		      const struct rec_stat *known, unsigned threads)
{
	struct qu_arena a;
	struct qu_map dirs;
	struct qu_buf b = QU_BUF_INIT, err = QU_BUF_INIT;
	const char **rels = NULL, **fresh = NULL;
	size_t nrels = 0, alloc = 0, nfresh = 0, i, k, *was = NULL;
	struct rec_stat rs;
	bool ok = true;
	uint64_t sum;

	qu_arena_init(&a);
	qu_map_init(&dirs);
	memset(&rs, 0, sizeof(rs));
	QU_VEC_GROW(rels, nrels, alloc);
	rels[nrels++] = "";
	qu_map_put(&dirs, "", (void *)(uintptr_t)1);
	for (i = 0; i < n; i++) {
		const char *sl = strrchr(in[i].rel, '/');

		/* the file's folder and the folders above it, once each */
		while (sl) {
			size_t len = (size_t)(sl - in[i].rel);
			const char *d;

			if (qu_map_get(&dirs, in[i].rel, len))
				break;
			d = qu_arena_strndup(&a, in[i].rel, len);
			qu_map_put(&dirs, d, (void *)(uintptr_t)1);
			QU_VEC_GROW(rels, nrels, alloc);
			rels[nrels++] = d;
			sl = len ? memrchr(in[i].rel, '/', len) : NULL;
		}
	}
	qsort(rels, nrels, sizeof(*rels), cmp_path);
	for (i = 0; i < nrels; i++)
		qu_map_put(&dirs, rels[i], (void *)(uintptr_t)(i + 1));
	/* the folders not found before the compose, stat(2)ed now */
	/* each folder's number in @known's record, found once; 0: none */
	fresh = qu_xcalloc(nrels, sizeof(*fresh));
	was = qu_xcalloc(nrels, sizeof(*was));
	for (i = 0; i < nrels; i++) {
		void *kv = known ? qu_map_get(&known->rec->map, rels[i],
					      strlen(rels[i]))
				 : NULL;

		if (kv && known->exists[(uintptr_t)kv - 1])
			was[i] = (uintptr_t)kv;
		else
			fresh[nfresh++] = rels[i];
	}
	rs.n = nfresh;
	rec_stat_all(&rs, fd, fresh, NULL, nfresh > REC_CHUNK ? threads : 1);
	qu_buf_add(&b, REC_MAGIC, sizeof(REC_MAGIC) - 1);
	build_put_u32(&b, REC_FORMAT);
	build_put_u64(&b, nrels);
	for (i = k = 0; i < nrels && ok; i++) {
		const struct stat *st;
		int64_t m, before;
		bool exists;

		if (!was[i]) {
			st = &rs.st[k];
			exists = rs.exists[k++];
			before = rs.before;
		} else {
			st = &known->st[was[i] - 1];
			exists = true;
			before = known->before;
		}
		m = (int64_t)st->st_mtim.tv_sec * 1000000000 +
		    st->st_mtim.tv_nsec;
		/* the root is the tree the caller stat(2)ed */
		ok = exists && (i || (st->st_dev == root->st_dev &&
				      st->st_ino == root->st_ino));
		build_put_str(&b, rels[i]);
		qu_buf_addc(&b, 0);
		build_put_u64(&b, (uint64_t)st->st_dev);
		build_put_u64(&b, (uint64_t)st->st_ino);
		build_put_u64(&b, (uint64_t)st->st_mtim.tv_sec);
		build_put_u64(&b, (uint64_t)st->st_mtim.tv_nsec);
		qu_buf_addc(&b, before - m >= REC_RACY_NS);
	}
	build_put_u64(&b, n);
	for (i = 0; i < n && ok; i++) {
		const char *sl = strrchr(in[i].rel, '/');
		size_t len = sl ? (size_t)(sl - in[i].rel) : 0;

		build_put_u32(&b, (uint32_t)((uintptr_t)qu_map_get(
						     &dirs, in[i].rel, len) -
					     1));
		build_put_str(&b, sl ? sl + 1 : in[i].rel);
		qu_buf_addc(&b, 0);
		build_put_u64(&b, in[i].ino);
	}
	sum = htole64(XXH3_64bits(b.buf, b.len));
	qu_buf_add(&b, &sum, 8);
	if (!ok || qu_file_write_atomic(path, b.buf, b.len, &err) < 0)
		unlink(path);
	qu_buf_fini(&b);
	qu_buf_fini(&err);
	rec_stat_fini(&rs);
	free(fresh);
	free(was);
	free(rels);
	qu_map_fini(&dirs);
	qu_arena_fini(&a);
}

/*
 * Which of @r's folders hold what it says (@ok): those whose stat(2)
 * data @rs found as recorded, and recorded as trusted.
 */
static void rec_check_dirs(const struct back_rec *r, const struct rec_stat *rs,
			   bool *ok)
{
	size_t i;

	for (i = 0; i < r->ndirs; i++) {
		const struct rec_dir *d = &r->dirs[i];
		const struct stat *st = &rs->st[i];

		ok[i] = rs->exists[i] && d->trusted &&
			(uint64_t)st->st_dev == d->dev &&
			(uint64_t)st->st_ino == d->ino &&
			(int64_t)st->st_mtim.tv_sec == d->mtime_s &&
			(int64_t)st->st_mtim.tv_nsec == d->mtime_ns;
	}
}

/*
 * The back tree's files from its record @r: those of the folders whose
 * stat(2) data is as recorded as the record says, those of any other
 * folder as listed now (a folder the record does not know walked whole),
 * each given to back_file(); then every folder left holding nothing is
 * removed, deepest first, as walk() would. What stat(2) found of each
 * folder is left in @rs, for the record of the tree the compose makes of
 * it. Return: 0, or -1 (errno set).
 */
static int back_from_rec(struct compose *c, const struct back_rec *r,
			 int fd, unsigned threads, struct rec_stat *rs,
			 size_t *nlisted)
{
	const size_t *parent = r->parent;
	bool *ok = qu_xcalloc(r->ndirs, sizeof(*ok));
	bool *has = qu_xcalloc(r->ndirs, sizeof(*has));
	struct qu_buf rel = QU_BUF_INIT;
	size_t i;
	int res = 0;

	rec_stat_all(rs, fd, NULL, r, threads);
	rec_check_dirs(r, rs, ok);
	/* the files of the folders as recorded */
	for (i = 0; i < r->nfiles && !res; i++) {
		const struct rec_file *f = &r->files[i];
		struct stat st;
		int k;

		if (!ok[f->dir])
			continue;
		memset(&st, 0, sizeof(st));
		st.st_mode = S_IFREG;
		st.st_dev = (dev_t)r->dirs[f->dir].dev;
		st.st_ino = (ino_t)f->ino;
		rec_join(&rel, r->dirs[f->dir].rel, f->name);
		k = back_file(c, rel.buf, &st);
		if (k < 0)
			res = -1;
		else if (k)
			has[f->dir] = true;
	}
	/* the folders changed since, listed */
	for (i = 0; i < r->ndirs && !res; i++) {
		struct dirent *de;
		dev_t dev = 0;
		DIR *dir;

		if (ok[i] || !rs->exists[i])
			continue;
		++*nlisted;
		qu_buf_reset(&rel);
		qu_buf_add_path(&rel, c->back, r->dirs[i].rel);
		dir = opendir(rel.buf);
		if (!dir) {
			if (errno == ENOENT)
				continue;
			res = -1;
			break;
		}
		while (!res && (de = readdir(dir))) {
			struct stat st;
			bool stays;
			int k;

			if (!strcmp(de->d_name, ".") ||
			    !strcmp(de->d_name, ".."))
				continue;
			rec_join(&rel, r->dirs[i].rel, de->d_name);
			if (!entry_stat(dir, de, &st, &dev)) {
				res = -1;
				break;
			}
			if (S_ISDIR(st.st_mode)) {
				/* a folder the record has is its own */
				if (qu_map_get(&r->map, rel.buf, rel.len))
					continue;
				if (walk(c, c->back, &rel, back_file,
					 back_dir_done, &stays) < 0)
					res = -1;
				else if (stays)
					has[i] = true;
				continue;
			}
			k = back_file(c, rel.buf, &st);
			if (k < 0)
				res = -1;
			else if (k)
				has[i] = true;
		}
		closedir(dir);
	}
	/* the folders left empty, deepest first (a folder after its own) */
	for (i = r->ndirs; i-- > 1 && !res;) {
		if (!rs->exists[i])
			continue;
		if (!has[i] && !back_dir_done(c, r->dirs[i].rel))
			has[i] = true;
		if (has[i])
			has[parent[i]] = true;
	}
	qu_buf_fini(&rel);
	free(ok);
	free(has);
	return res;
}

/* walk()'s, for qu_out_record(): each file with its inode */
static int rec_collect(struct compose *c, const char *rel,
		       const struct stat *st)
{
	if (!S_ISREG(st->st_mode)) {
		c->rec_bad = true;
		return 1;
	}
	QU_VEC_GROW(c->ins, c->nins, c->ains);
	c->ins[c->nins].rel = qu_arena_strdup(&c->arena, rel);
	c->ins[c->nins++].ino = (uint64_t)st->st_ino;
	return 1;
}

/*
 * The records other than those of @a's and @b's trees removed: a back
 * tree made anew leaves its old one's behind.
 */
static void rec_sweep(const char *back, uint64_t a, uint64_t b)
{
	struct qu_buf pre = QU_BUF_INIT, dir = QU_BUF_INIT, p = QU_BUF_INIT;
	const char *base;
	struct dirent *de;
	size_t blen;
	DIR *d;

	rec_path(&pre, back, 0);
	base = strrchr(pre.buf, '/');
	if (!base)
		qu_buf_adds(&dir, ".");
	else if (base == pre.buf)
		qu_buf_adds(&dir, "/");
	else
		qu_buf_add(&dir, pre.buf, (size_t)(base - pre.buf));
	base = base ? base + 1 : pre.buf;
	blen = strlen(base);
	d = opendir(dir.buf);
	while (d && (de = readdir(d))) {
		char *end;
		unsigned long long ino;

		if (strncmp(de->d_name, base, blen) || !de->d_name[blen])
			continue;
		errno = 0;
		ino = strtoull(de->d_name + blen, &end, 16);
		if (*end || errno || ino == a || ino == b)
			continue;
		qu_buf_reset(&p);
		qu_buf_add_path(&p, dir.buf, de->d_name);
		unlink(p.buf);
	}
	if (d)
		closedir(d);
	qu_buf_fini(&pre);
	qu_buf_fini(&dir);
	qu_buf_fini(&p);
}

/* A tree's root, opened to stat(2) below it whatever its name becomes. */
static int open_root(const char *dir, struct stat *st)
{
	int fd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0 && fstat(fd, st) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * The tree at @dir walked and recorded beside the back tree @back; its
 * root's inode in *@ino (0 when it has none). Return: 0, or -1 (no
 * record of it is left).
 */
static int record_walked(const char *dir, const char *back, unsigned threads,
			 uint64_t *ino)
{
	struct compose c;
	struct qu_buf rel = QU_BUF_INIT, path = QU_BUF_INIT;
	struct stat root;
	bool stays;
	int fd = open_root(dir, &root), r = -1;

	memset(&c, 0, sizeof(c));
	qu_arena_init(&c.arena);
	*ino = fd < 0 ? 0 : (uint64_t)root.st_ino;
	if (fd < 0)
		goto out;
	rec_path(&path, back, root.st_ino);
	if (walk(&c, dir, &rel, rec_collect, NULL, &stays) < 0 || c.rec_bad) {
		unlink(path.buf);
		goto out;
	}
	rec_write(path.buf, fd, &root, c.ins, c.nins, NULL, threads);
	r = 0;
out:
	if (fd >= 0)
		close(fd);
	free(c.ins);
	qu_buf_fini(&rel);
	qu_buf_fini(&path);
	qu_buf_fini(&c.a);
	qu_arena_fini(&c.arena);
	return r;
}

int qu_out_record(const char *back, const char *live, unsigned threads)
{
	uint64_t back_ino, live_ino;
	int r = record_walked(back, back, threads, &back_ino);

	/*
	 * and OUT, whose record tells the next build which of its pages OUT
	 * holds (qu_out_view_open()) without a stat(2) a page
	 */
	if (!r)
		record_walked(live, back, threads, &live_ino);
	else
		live_ino = 0;
	if (!r)
		rec_sweep(back, back_ino, live_ino);
	return r;
}

/*
 * The record of the tree a compose made, from its wants (the paths are
 * the compose's arena's, which the job takes over): made on a thread of
 * its own while the site is put in place and the build ends, through the
 * tree's root opened before the exchange renames it.
 */
struct rec_job {
	int fd;
	struct stat root;
	char *path, *back;
	uint64_t live_ino;
	struct rec_in *in;
	size_t n;
	struct qu_arena arena;
	/* the record the compose started from, and its folders as found */
	struct back_rec rec;
	struct rec_stat known;
	bool have_known;
	unsigned threads;
};

static void *rec_job_run(void *payload)
{
	struct rec_job *j = payload;

	rec_write(j->path, j->fd, &j->root, j->in, j->n,
		  j->have_known ? &j->known : NULL, j->threads);
	rec_sweep(j->back, j->root.st_ino, j->live_ino);
	return NULL;
}

/*
 * @rec and @rs, when the compose started from a record (@rec->ndirs), are
 * the job's: the caller's are left empty.
 */
static void record_composed(struct qu_out *o, struct compose *c, int fd,
			    const struct stat *root, const char *path,
			    struct back_rec *rec, struct rec_stat *rs)
{
	struct rec_job *j;
	struct stat ls;
	size_t i;

	if (atomic_load(c->unknown)) {
		unlink(path);
		return;
	}
	j = qu_xcalloc(1, sizeof(*j));
	j->in = qu_xcalloc(c->want.n + 1, sizeof(*j->in));
	for (i = 0; i < c->want.cap; i++) {
		const struct qu_map_slot *sl = &c->want.slots[i];
		const struct want *w = sl->value;

		if (!sl->key)
			continue;
		if (!w->made) {
			free(j->in);
			free(j);
			unlink(path);
			return;
		}
		j->in[j->n].rel = sl->key;
		j->in[j->n++].ino = (uint64_t)w->made;
	}
	j->fd = dup(fd);
	if (j->fd < 0) {
		free(j->in);
		free(j);
		unlink(path);
		return;
	}
	j->root = *root;
	j->path = qu_xstrdup(path);
	j->back = qu_xstrdup(o->back);
	j->live_ino = lstat(o->abs, &ls) ? 0 : (uint64_t)ls.st_ino;
	j->threads = o->threads;
	/* the wants' paths live in the arena: the job keeps it */
	j->arena = c->arena;
	qu_arena_init(&c->arena);
	if (rec->ndirs) {
		j->rec = *rec;
		j->known = *rs;
		j->known.rec = &j->rec;
		j->have_known = true;
		memset(rec, 0, sizeof(*rec));
		memset(rs, 0, sizeof(*rs));
	}
	o->rec_job = j;
	qu_thread_start(&o->rec_thread, o->threads != 1, rec_job_run, j);
}

void qu_out_rec_wait(struct qu_out *o)
{
	struct rec_job *j = o->rec_job;

	if (!j)
		return;
	qu_thread_wait(&o->rec_thread);
	close(j->fd);
	free(j->in);
	free(j->path);
	free(j->back);
	qu_arena_fini(&j->arena);
	rec_fini(&j->rec);
	rec_stat_fini(&j->known);
	free(j);
	o->rec_job = NULL;
}

/* OUT's files, as its record says ----------------------------------- */

/*
 * OUT is the tree the last build composed, and that build left its
 * record: whether OUT holds a page's file, and which inode it is, can be
 * read from it for every folder whose stat(2) data is as recorded,
 * instead of a stat(2) a page (a kernel site: 1,531 folders against
 * 9,300 pages). The record's folders are stat(2)ed once, when the view
 * is made.
 */
struct qu_out_view {
	struct back_rec rec;
	bool *ok;	/* a folder that holds what was recorded, by number */
	struct qu_map files;	/* a file of such a folder -> 1 + its number */
	struct qu_arena arena;
};

struct qu_out_view *qu_out_view_open(const char *out, const char *back)
{
	struct qu_out_view *v = NULL;
	struct qu_buf rp = QU_BUF_INIT, rel = QU_BUF_INIT;
	struct rec_stat rs;
	struct stat root;
	size_t i;
	int fd = open_root(out, &root);

	if (fd < 0)
		return NULL;
	v = qu_xcalloc(1, sizeof(*v));
	rec_path(&rp, back, root.st_ino);
	if (!rec_read(&v->rec, rp.buf, root.st_dev, root.st_ino)) {
		free(v);
		v = NULL;
		goto out;
	}
	qu_map_init(&v->files);
	qu_arena_init(&v->arena);
	memset(&rs, 0, sizeof(rs));
	rec_stat_all(&rs, fd, NULL, &v->rec, 1);
	v->ok = qu_xcalloc(v->rec.ndirs, sizeof(*v->ok));
	rec_check_dirs(&v->rec, &rs, v->ok);
	rec_stat_fini(&rs);
	for (i = 0; i < v->rec.nfiles; i++) {
		const struct rec_file *f = &v->rec.files[i];

		if (!v->ok[f->dir])
			continue;
		rec_join(&rel, v->rec.dirs[f->dir].rel, f->name);
		qu_map_put(&v->files, qu_arena_strdup(&v->arena, rel.buf),
			   (void *)(uintptr_t)(i + 1));
	}
out:
	close(fd);
	qu_buf_fini(&rp);
	qu_buf_fini(&rel);
	return v;
}

int qu_out_view_get(const struct qu_out_view *v, const char *rel,
		    struct qu_out_id *id)
{
	const char *sl = strrchr(rel, '/');
	void *d = qu_map_get(&v->rec.map, rel, sl ? (size_t)(sl - rel) : 0);
	void *f;

	if (!d || !v->ok[(uintptr_t)d - 1])
		return -1;
	f = qu_map_get(&v->files, rel, strlen(rel));
	if (!f)
		return 0;
	id->dev = (dev_t)v->rec.dirs[v->rec.files[(uintptr_t)f - 1].dir].dev;
	id->ino = (ino_t)v->rec.files[(uintptr_t)f - 1].ino;
	return 1;
}

void qu_out_view_free(struct qu_out_view *v)
{
	if (!v)
		return;
	rec_fini(&v->rec);
	free(v->ok);
	qu_map_fini(&v->files);
	qu_arena_fini(&v->arena);
	free(v);
}

int qu_out_compose(struct qu_out *o, const char *const *kept,
		   const struct qu_out_id *kept_ids, size_t nkept,
		   const char *const *kept_dirs, size_t nkept_dirs,
		   const char *skip, struct qu_buf *err)
{
	struct compose c;
	struct qu_buf rel = QU_BUF_INIT, rp = QU_BUF_INIT;
	struct back_rec rec;
	struct rec_stat rs;
	struct stat root;
	atomic_bool unknown;
	bool stays, have_rec = false;
	size_t i;
	int r = -1, fd;

	memset(&c, 0, sizeof(c));
	memset(&rec, 0, sizeof(rec));
	memset(&rs, 0, sizeof(rs));
	qu_map_init(&c.want);
	qu_arena_init(&c.arena);
	atomic_init(&unknown, false);
	c.unknown = &unknown;
	c.live = o->abs;
	c.sparse = o->tmp;
	c.back = o->back;
	c.skip = skip;
	/* the back tree's record, when the compose two builds ago left one */
	fd = open_root(o->back, &root);
	if (fd >= 0) {
		rec_path(&rp, o->back, root.st_ino);
		have_rec = rec_read(&rec, rp.buf, root.st_dev, root.st_ino);
	}
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
	o->rec_ndirs = have_rec ? rec.ndirs : 0;
	o->rec_listed = 0;
	if ((have_rec ? back_from_rec(&c, &rec, fd, o->threads, &rs,
				      &o->rec_listed)
		      : walk_back(&c, o->threads)) < 0)
		goto io;
	if (compose_all(&c, o->threads, err) < 0)
		goto out;
	o->composed = true;
	if (fd >= 0)
		record_composed(o, &c, fd, &root, rp.buf, &rec, &rs);
	r = 0;
	goto out;
io:
	qu_buf_addf(err, "%s: cannot compose the site: %s", o->back,
		    strerror(errno));
out:
	if (fd >= 0)
		close(fd);
	rec_fini(&rec);
	rec_stat_fini(&rs);
	qu_buf_fini(&rp);
	qu_buf_fini(&rel);
	qu_buf_fini(&c.a);
	qu_buf_fini(&c.b);
	qu_map_fini(&c.want);
	qu_arena_fini(&c.arena);
	return r;
}

/* quire serve's folder, updated in place ------------------------------- */

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
