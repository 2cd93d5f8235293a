// SPDX-License-Identifier: MIT
/*
 * stamp.c - what a finished build read, so that the next can do nothing
 *
 * Part of lib/build. After a build with a cache, the stamp records every
 * input it read (files and the folders it listed, as the depfile lists
 * them) with its stat data, the version it showed and where that came
 * from, and what it printed: its diagnostics and its summary. The next
 * build stats those inputs first: when every one is as recorded, the
 * site in OUT is the site this build would write, so it replays the
 * diagnostics and stops, without walking the tree or reading the units.
 * An input whose change time is not before the second the build started
 * in is recorded as never matching (it may have changed while it was read, in
 * the same tick of the file system's clock), as git treats racy entries.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "build_int.h"
#include "git/git.h"
#include "qu_config.h"

#define STAMP_MAGIC "quire-stamp\n"
#define STAMP_FORMAT 3

static void stamp_file(struct qu_buf *b, const char *dir, const char *site)
{
	qu_buf_addf(b, "%s/stamp-%016llx", dir,
		    (unsigned long long)XXH3_64bits(site, strlen(site)));
}

void build_fstamp_of(struct build_fstamp *f, const char *path)
{
	struct stat st;

	memset(f, 0, sizeof(*f));
	if (stat(path, &st) < 0)
		return;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->size = (uint64_t)st.st_size;
	f->mode = st.st_mode;
	f->mtime_s = st.st_mtim.tv_sec;
	f->mtime_ns = st.st_mtim.tv_nsec;
	f->ctime_s = st.st_ctim.tv_sec;
	f->ctime_ns = st.st_ctim.tv_nsec;
}

int build_fstamp_stat(struct qu_fstat *out, const struct build_fstamp *f)
{
	if (!f->mode)
		return -1;
	out->kind = S_ISREG(f->mode)   ? QU_FK_FILE
		    : S_ISDIR(f->mode) ? QU_FK_DIR
		    : S_ISLNK(f->mode) ? QU_FK_LINK
				       : QU_FK_OTHER;
	out->size = f->size;
	out->mtime = (uint64_t)f->mtime_s * 1000000000u + (uint64_t)f->mtime_ns;
	out->ctime = (uint64_t)f->ctime_s * 1000000000u + (uint64_t)f->ctime_ns;
	out->ino = f->ino;
	return 0;
}

static void put_fstamp(struct qu_buf *b, const struct build_fstamp *f)
{
	build_put_u64(b, f->dev);
	build_put_u64(b, f->ino);
	build_put_u64(b, f->size);
	build_put_u64(b, f->mode);
	build_put_u64(b, (uint64_t)f->mtime_s);
	build_put_u64(b, (uint64_t)f->mtime_ns);
	build_put_u64(b, (uint64_t)f->ctime_s);
	build_put_u64(b, (uint64_t)f->ctime_ns);
}

/* how many bytes get_fstamp() reads: eight 64-bit numbers */
#define FSTAMP_BYTES (8 * sizeof(uint64_t))

static void get_fstamp(struct build_rd *r, struct build_fstamp *f)
{
	f->dev = build_get_u64(r);
	f->ino = build_get_u64(r);
	f->size = build_get_u64(r);
	f->mode = build_get_u64(r);
	f->mtime_s = (int64_t)build_get_u64(r);
	f->mtime_ns = (int64_t)build_get_u64(r);
	f->ctime_s = (int64_t)build_get_u64(r);
	f->ctime_ns = (int64_t)build_get_u64(r);
}

void build_git_version(struct qu_buf *out, const char *from)
{
	struct qu_buf wd = QU_BUF_INIT;

	if (from && *from && qu_git_workdir(&wd, from) == 0)
		qu_git_describe(out, wd.buf);
	qu_buf_fini(&wd);
}

#define NO_LISTING UINT32_MAX

/*
 * What the walk listed in folder @path, when it did and the stat kept
 * for it can be trusted (@trusted): each name with its NUL (the check
 * points into the file it maps) and its kind.
 */
static void put_listing(struct qu_buf *b, struct qu_files_memo *listings,
			const char *path, bool trusted)
{
	char *const *names;
	const enum qu_fkind *kinds;
	size_t n, i;

	if (!listings || !trusted ||
	    qu_files_memo_get(listings, path, &names, &kinds, &n) < 0 ||
	    n >= NO_LISTING) {
		build_put_u32(b, NO_LISTING);
		return;
	}
	build_put_u32(b, (uint32_t)n);
	for (i = 0; i < n; i++) {
		build_put_str(b, names[i]);
		qu_buf_addc(b, 0);
		qu_buf_addc(b, (char)kinds[i]);
	}
}

const struct build_fstamp *build_stamp_near(const struct build_stamp *st,
					    size_t *at, const char *path)
{
	size_t k;

	for (k = *at; k < *at + BUILD_STAMP_NEAR && k < st->n; k++)
		if (!strcmp(st->paths[k], path)) {
			*at = k + 1;
			return &st->now[k];
		}
	return NULL;
}

/*
 * What the check found of the input @path: in the checked stamp's order
 * (build_stamp_near()), else by the table of all when @want; NULL when it
 * never saw it.
 */
static const struct build_fstamp *
seen_of(const struct build_stamp_seen *seen, size_t *at, const char *path,
	bool want)
{
	const struct build_fstamp *f =
		seen ? build_stamp_near(seen->was, at, path) : NULL;

	if (f || !want || !seen || !seen->map)
		return f;
	return qu_map_get(seen->map(seen->ctx), path, strlen(path));
}

int build_stamp_write(const struct build_stamp *s, const char *dir,
		      const char *site, double started,
		      const struct build_stamp_seen *seen,
		      struct qu_file_out *out, struct qu_buf *err)
{
	struct qu_buf path = QU_BUF_INIT;
	struct qu_file_out *f = out;
	struct qu_buf *b = &f->b;
	size_t i, at = 0;
	int r;

	/* written as it is made: a kernel tree's stamp is 9 MB */
	stamp_file(&path, dir, site);
	r = qu_file_out_open(f, path.buf, err);
	qu_buf_fini(&path);
	if (r < 0)
		return -1;
	qu_buf_add(b, STAMP_MAGIC, sizeof(STAMP_MAGIC) - 1);
	build_put_u32(b, STAMP_FORMAT);
	build_put_str(b, QU_VERSION);
	build_put_u64(b, s->key);
	build_put_str(b, s->version_from);
	build_put_str(b, s->version);
	build_put_u64(b, s->deps->n);
	for (i = 0; i < s->deps->n; i++) {
		const struct build_dep *d = &s->deps->v[i];
		/* looked for in order even when not needed, to keep @at */
		const struct build_fstamp *was =
			seen_of(seen, &at, d->path, !d->have_st);
		struct build_fstamp fs;

		/* what the build saw: stat it again only if it never did */
		if (d->have_st)
			fs = d->st;
		else if (was)
			fs = *was;
		else
			build_fstamp_of(&fs, d->path);
		/*
		 * Changed in the second the build started or later: it may
		 * have changed while it was read, within one tick of the
		 * file system's clock, so it is never trusted.
		 */
		if (fs.ctime_s >= (int64_t)started)
			fs.ino = fs.dev = UINT64_MAX;
		/* with its NUL: the check points into the file it maps */
		build_put_str(b, d->path);
		qu_buf_addc(b, 0);
		build_put_u32(b, d->dir);
		put_fstamp(b, &fs);
		if (d->dir)
			put_listing(b, s->listings, d->path,
				    fs.ino != UINT64_MAX);
		qu_file_out_spill(f);
	}
	build_put_u64(b, s->stats.npages);
	build_put_u64(b, s->stats.nitems);
	build_put_u64(b, s->stats.nunits);
	build_put_u64(b, s->diags->n);
	for (i = 0; i < s->diags->n; i++) {
		build_put_diag(b, &s->diags->v[i]);
		qu_file_out_spill(f);
	}
	build_put_u64(b, qu_file_out_sum(f));
	/* a write that failed on the way shows here, and at the commit */
	if (f->error) {
		qu_buf_addf(err, "%s: cannot write: %s", f->path,
			    strerror(f->error));
		qu_file_out_abort(f);
		return -1;
	}
	return 0;
}

void build_stamp_remove(const char *dir, const char *site)
{
	struct qu_buf path = QU_BUF_INIT;

	stamp_file(&path, dir, site);
	unlink(path.buf);
	qu_buf_fini(&path);
}

/* the inputs of a stamp, stat(2)ed on the pool */
struct stat_run {
	const char **paths;
	struct build_fstamp *now;
	size_t n;
};

#define STAT_CHUNK 512

static void stat_chunk(struct qu_job *job, size_t c, void *payload)
{
	struct stat_run *sr = payload;
	size_t i, end = (c + 1) * STAT_CHUNK;

	(void)job;
	for (i = c * STAT_CHUNK; i < end && i < sr->n; i++)
		build_fstamp_of(&sr->now[i], sr->paths[i]);
}

/*
 * Read a folder's listing (put_listing()), checking its form, and when
 * @listings is not NULL keep it there as @path's.
 */
static void read_listing(struct build_rd *r, struct qu_files_memo *listings,
			 const char *path)
{
	uint32_t n = build_get_u32(r), i;
	const char **names = NULL;
	enum qu_fkind *kinds = NULL;

	if (n == NO_LISTING)
		return;
	if (listings && n <= r->left) {
		names = qu_xmalloc(((size_t)n + 1) * sizeof(*names));
		kinds = qu_xmalloc(((size_t)n + 1) * sizeof(*kinds));
	}
	for (i = 0; i < n && !r->bad; i++) {
		size_t len;
		const char *name = build_get_str(r, NULL, &len);
		unsigned char kind = 0;

		/* a name of a folder: never empty, ".", ".." nor a path */
		if (!name || !len || memchr(name, '/', len) ||
		    (name[0] == '.' && (len == 1 || (len == 2 &&
						     name[1] == '.'))) ||
		    !r->left || *r->p) {
			r->bad = true;
			break;
		}
		r->p++, r->left--;
		if (!build_get(r, &kind, 1) || kind > QU_FK_UNKNOWN)
			r->bad = true;
		if (names) {
			names[i] = name;
			kinds[i] = (enum qu_fkind)kind;
		}
	}
	if (names && !r->bad)
		qu_files_memo_put(listings, path, names, kinds, n);
	free(names);
	free(kinds);
}

/* Whether the stat data recorded at @p (before @end) are @now. */
static bool was_same(const unsigned char *p, const unsigned char *end,
		     const struct build_fstamp *now)
{
	struct build_rd r = {p, (size_t)(end - p), false};
	struct build_fstamp was;

	get_fstamp(&r, &was);
	return !r.bad && !memcmp(&was, now, sizeof(was));
}

/*
 * Read the stamp. Every input is stat(2)ed, even past the first that
 * changed, into @s->now: the build that follows needs them all.
 */
static bool check(struct build_rd *r, struct build_stamp *s,
		  struct qu_arena *a, const char *site, unsigned threads)
{
	struct qu_buf v = QU_BUF_INIT;
	const char *ver, *from, *str;
	char magic[sizeof(STAMP_MAGIC) - 1];
	uint64_t n, i;
	bool same;

	if (!build_get(r, magic, sizeof(magic)) ||
	    memcmp(magic, STAMP_MAGIC, sizeof(magic)) ||
	    build_get_u32(r) != STAMP_FORMAT ||
	    !(str = build_get_str(r, a, NULL)) || strcmp(str, QU_VERSION) ||
	    build_get_u64(r) != s->key)
		return false;
	from = build_get_str(r, a, NULL);
	ver = build_get_str(r, a, NULL);
	if (r->bad)
		return false;
	/* the version comes from git: a commit or a tag changes it */
	if (from && *from && !s->no_version) {
		build_git_version(&v, from);
		same = !strcmp(v.len ? v.buf : "", ver ? ver : "");
		qu_buf_fini(&v);
		if (!same)
			return false;
	}
	n = build_get_u64(r);
	if (r->bad || n > r->left / 70)
		return false;
	/* the entries first, then their stats on the pool, then compared */
	{
		/* the stats now: they live as long as @a */
		struct stat_run sr = {qu_xmalloc((n + 1) * sizeof(*sr.paths)),
				      qu_arena_alloc(a, (n + 1) *
							       sizeof(*sr.now)),
				      n};
		/*
		 * where each entry's recorded stat data starts, a folder's
		 * listing after it: read again where they lie, not copied (a
		 * kernel tree's 60,000 took 5 MB)
		 */
		const unsigned char **at = qu_xmalloc((n + 1) * sizeof(*at));
		const unsigned char *end = r->p + r->left;
		bool *dir = qu_xmalloc((n + 1) * sizeof(*dir));
		bool *changed = qu_xmalloc((n + 1) * sizeof(*changed));
		struct build_fstamp was;

		for (i = 0; i < n && !r->bad; i++) {
			sr.paths[i] = build_get_str(r, NULL, NULL);
			if (!sr.paths[i] || !r->left || *r->p)
				r->bad = true;
			else
				r->p++, r->left--;
			dir[i] = build_get_u32(r);
			at[i] = r->p;
			get_fstamp(r, &was);
			if (!sr.paths[i])
				r->bad = true;
			if (dir[i] && !r->bad)
				read_listing(r, NULL, NULL);
		}
		if (!r->bad)
			qu_pool_run(threads, (n + STAT_CHUNK - 1) / STAT_CHUNK,
				    stat_chunk, &sr);
		/* every input that changed is counted: how large a build is */
		for (i = 0; i < n && !r->bad; i++) {
			changed[i] = !was_same(at[i], end, &sr.now[i]);
			s->nchanged += changed[i];
		}
		same = !r->bad && !s->nchanged;
		/* the first file's entry: the sources follow, in site order */
		for (i = 0; i < n && !r->bad && dir[i]; i++)
			;
		s->first_file = i;
		/* the inputs, for the depfile, only when the build stops here */
		for (i = 0; same && i < n; i++) {
			build_deps_add(s->deps, sr.paths[i]);
			s->deps->v[s->deps->n - 1].dir = dir[i];
		}
		/*
		 * else the walk that follows lists each folder as it was
		 * listed last time, when its stat(2) data is as it was
		 */
		for (i = 0; !same && !r->bad && s->listings && i < n; i++)
			if (dir[i] && !changed[i]) {
				/* the listing follows the stat data */
				struct build_rd l = {at[i] + FSTAMP_BYTES,
						     (size_t)(end - at[i]) -
							     FSTAMP_BYTES,
						     false};

				read_listing(&l, s->listings, sr.paths[i]);
			}
		if (!r->bad) {
			s->paths = sr.paths;
			s->now = sr.now;
			s->n = n;
		} else {
			free(sr.paths);
		}
		free(at);
		free(dir);
		free(changed);
	}
	if (!same)
		return false;
	s->stats.npages = build_get_u64(r);
	s->stats.nitems = build_get_u64(r);
	s->stats.nunits = build_get_u64(r);
	n = build_get_u64(r);
	for (i = 0; i < n && !r->bad; i++) {
		size_t nn, mn;
		const char *name = build_get_str(r, a, &nn);
		const char *path = build_get_str(r, a, NULL);
		uint32_t line = build_get_u32(r), col = build_get_u32(r);
		const char *msg = build_get_str(r, a, &mn);
		enum qu_diag_id id;

		if (!name || !msg || !build_diag_by_name(&id, name, nn))
			return false;
		qu_diag(s->diags, id, path, line, col, "%.*s", (int)mn, msg);
	}
	/* OUT must still be the site the stamp describes */
	{
		struct qu_buf m = QU_BUF_INIT;
		struct stat st;

		qu_buf_add_path(&m, site, QU_SITE_MARKER);
		same = !lstat(m.buf, &st) && S_ISREG(st.st_mode);
		qu_buf_fini(&m);
	}
	return same && !r->bad && !r->left;
}

bool build_stamp_read(struct build_stamp *s, const void *data, size_t size,
		      const char *site, struct qu_arena *a, unsigned threads)
{
	struct build_rd r;
	uint64_t sum;
	bool ok = false;

	if (size >= 8) {
		memcpy(&sum, (const char *)data + size - 8, 8);
		if (le64toh(sum) == XXH3_64bits(data, size - 8)) {
			r.p = data;
			r.left = size - 8;
			r.bad = false;
			ok = check(&r, s, a, site, threads);
		}
	}
	if (!ok) {
		/* nothing of a stamp that did not match is used */
		build_deps_fini(s->deps);
		qu_diags_fini(s->diags);
		qu_diags_init(s->diags);
		memset(&s->stats, 0, sizeof(s->stats));
	}
	return ok;
}

bool build_stamp_check(struct build_stamp *s, const char *dir,
		       const char *site, struct qu_arena *a, unsigned threads,
		       struct build_map *map)
{
	struct qu_buf path = QU_BUF_INIT;

	stamp_file(&path, dir, site);
	if (qu_file_map(path.buf, &map->p, &map->size) < 0) {
		map->p = NULL;
		map->size = 0;
	}
	qu_buf_fini(&path);
	return build_stamp_read(s, map->p, map->size, site, a, threads);
}

void build_stamp_seen(struct qu_map *seen, const struct build_stamp *s)
{
	size_t i;

	qu_map_reserve(seen, s->n);
	for (i = 0; i < s->n; i++) {
		void **slot = qu_map_slot(seen, s->paths[i],
					  strlen(s->paths[i]));

		if (!*slot)
			*slot = (void *)&s->now[i];
	}
}

const char *build_stamp_version_from(const struct qu_site *s,
				     const char *dir)
{
	/*
	 * The docs folder's repository, not the source tree's: what was
	 * built is the docs folder, and --rev describes the repository
	 * that holds it too. Test: test/publish/version.py.
	 */
	return s->cfg.version ? "" : dir;
}
