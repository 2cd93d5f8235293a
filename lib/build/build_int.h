/* SPDX-License-Identifier: MIT */
/*
 * build_int.h - what the files of lib/build share
 *
 * Included only by lib/build/ *.c.
 */
#ifndef QU_BUILD_BUILD_INT_H
#define QU_BUILD_BUILD_INT_H

#include <endian.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>

#include "build.h"
#include "render/render.h"

struct qu_git_tree;

/**
 * struct qu_out - a folder being written aside before it replaces another
 * @abs: the folder it will replace, resolved
 * @tmp: the hidden sibling written into (".NAME.quire-new-PID"), or NULL
 *	once committed
 * @back: the cache's back tree (the site before the last one), or NULL
 *	without a cache
 * @sparse: @back can be composed (back.c): @tmp need hold only the files
 *	that are not kept from @abs
 * @composed: qu_out_compose() made @back the new site: it is what the
 *	commit swaps in
 */
struct qu_out {
	char *abs;
	char *tmp;
	char *back;
	bool sparse;
	bool composed;
	unsigned threads;	/* qu_out_compose()'s workers; 0: one a CPU */
	/* the record of the composed tree, made on a thread (back.c) */
	struct qu_thread rec_thread;
	void *rec_job;
	/* the compose's: the back tree's record's folders (0: none was
	 * used, the tree was walked) and how many of them it listed */
	size_t rec_ndirs;
	size_t rec_listed;
};

/**
 * qu_out_begin() - make the hidden sibling of @out to write a site into
 * @o: filled in; qu_out_fini() frees it even on failure
 * @out: the folder the site will replace
 * @back: where the cache keeps its back tree, or NULL
 * @err: receives a one-line message on failure
 *
 * Also removes what killed builds left beside @out (hidden siblings of
 * dead processes that carry the marker). The caller has checked @out with
 * qu_owned_check(). @o->sparse says whether the caller may leave out of
 * @o->tmp the files it keeps from @out.
 *
 * Return: 0, or -1.
 */
int qu_out_begin(struct qu_out *o, const char *out, const char *back,
		 struct qu_buf *err);

/**
 * struct qu_out_id - a file of OUT as a build saw it, by device and inode
 * (@ino 0: not seen)
 */
struct qu_out_id {
	dev_t dev;
	ino_t ino;
};

/**
 * qu_out_compose() - make the back tree the new site, in place
 * @o: a sparse folder, fully written
 * @kept: the files (relative to the site) the new site keeps from @o->abs
 * @kept_ids: for each of @kept, the file as the caller saw it in @o->abs,
 *	which spares asking again; or NULL
 * @nkept: how many
 * @kept_dirs: folders whose every file the new site keeps from @o->abs
 *	("" for all of it)
 * @nkept_dirs: how many
 * @skip: a folder of @o->abs that @kept_dirs leave out, or NULL
 * @err: receives a one-line message on failure
 *
 * The new site is @o->tmp's files over the kept ones; a file of @o->tmp
 * that has the bytes of @o->abs's is linked from there instead, so it
 * keeps its inode and time. Everything else in the back tree is removed.
 *
 * Return: 0 (the commit then swaps @o->back in), or -1.
 */
int qu_out_compose(struct qu_out *o, const char *const *kept,
		   const struct qu_out_id *kept_ids, size_t nkept,
		   const char *const *kept_dirs, size_t nkept_dirs,
		   const char *skip, struct qu_buf *err);

/**
 * qu_out_record() - record a back tree made whole, and OUT, for the next build
 * @back: the back tree
 * @live: OUT, which is recorded too
 * @threads: workers for the folders' stat(2)s (0: one a processor)
 *
 * qu_out_compose() records the tree it makes; a back tree made otherwise
 * (links to a site written whole) is walked and recorded here, so that
 * the next compose need not list its folders, and OUT (the site written
 * whole) too, so that the next build finds which pages OUT holds in its
 * record (qu_out_view_open()).
 *
 * Return: 0, or -1 (no record is left).
 */
int qu_out_record(const char *back, const char *live, unsigned threads);

/**
 * build_back_rec_check() - read a back tree's record from bytes, as a
 * compose would before it trusts any of it (for the fuzz harness)
 * @data: the record's bytes
 * @size: how many
 * @dev: the device of the tree it must be of
 * @ino: the inode of that tree's root
 *
 * Return: how many files it records, or -1 when it is not used.
 */
long build_back_rec_check(const void *data, size_t size, uint64_t dev,
			  uint64_t ino);

/**
 * qu_out_view_open() - OUT's files as the record its compose left says
 * @out: OUT
 * @back: where the cache keeps its back tree (the records lie beside it)
 *
 * The record's folders are stat(2)ed now; only those whose data is as
 * recorded (and was recorded as trusted) are answered for.
 *
 * Return: the view, or NULL when OUT has no record that can be used.
 */
struct qu_out_view *qu_out_view_open(const char *out, const char *back);

/**
 * qu_out_view_get() - whether OUT holds @rel as a regular file
 * @v: the view
 * @rel: the path, relative to OUT
 * @id: set to the file when it does
 *
 * Safe from several threads at once.
 *
 * Return: 1 it does, 0 it does not, -1 the record cannot say (stat(2)
 * the file).
 */
int qu_out_view_get(const struct qu_out_view *v, const char *rel,
		    struct qu_out_id *id);

/** qu_out_view_free() - free a view (NULL is fine) */
void qu_out_view_free(struct qu_out_view *v);

/** qu_out_rec_wait() - wait for the compose's record of its tree */
void qu_out_rec_wait(struct qu_out *o);

/**
 * qu_out_commit() - replace @o->abs with the finished folder
 * @o: the folder, fully written (and composed, when sparse)
 * @err: receives a one-line message on failure
 *
 * One rename(2) with RENAME_EXCHANGE; where the file system cannot
 * exchange, two renames, undone on failure. The old site then becomes the
 * back tree, or is removed without a cache.
 *
 * Return: 0, or -1 (the old site is left in place).
 */
int qu_out_commit(struct qu_out *o, struct qu_buf *err);

/**
 * struct qu_out_list - the files of a site folder, relative to it, sorted
 * @v: the paths
 * @n: how many
 * @valid: the folder holds these files and no other (qu_out_apply()
 *	drops the list when it fails half-way)
 */
struct qu_out_list {
	char **v;
	size_t n;
	bool valid;
};

/**
 * qu_out_list_read() - list the files of a site folder
 * @l: replaced
 * @dir: the folder
 *
 * Return: 0, or -1 (@l is then empty and not valid).
 */
int qu_out_list_read(struct qu_out_list *l, const char *dir);

/** qu_out_list_fini() - free @l and make it empty and not valid */
void qu_out_list_fini(struct qu_out_list *l);

/**
 * qu_out_apply() - bring @o->abs to the new site file by file
 * @o: a sparse folder, fully written
 * @kept: the files the new site keeps from @o->abs
 * @nkept: how many
 * @kept_dirs: folders whose every file the new site keeps ("" for all)
 * @nkept_dirs: how many
 * @skip: a folder @kept_dirs leave out, or NULL
 * @live: the files @o->abs holds, valid; becomes the new site's
 * @err: receives a one-line message on failure
 *
 * For a folder only quire serve reads, in place of the compose and the
 * exchange: the files @live has and the new site has not are removed,
 * and each file of @o->tmp whose bytes differ from @o->abs's is renamed
 * over it, so a reader gets a file's old bytes or its new ones, never a
 * part. The cost follows what changed, where the exchange's follows the
 * size of the site. @o->tmp is then removed.
 *
 * Return: 0, or -1 (@o->abs may then hold part of the new site; @live is
 * dropped, and the next build writes a whole site).
 */
int qu_out_apply(struct qu_out *o, const char *const *kept, size_t nkept,
		 const char *const *kept_dirs, size_t nkept_dirs,
		 const char *skip, struct qu_out_list *live, struct qu_buf *err);

/**
 * qu_out_fini() - remove an uncommitted folder and free @o
 * @o: the folder
 */
void qu_out_fini(struct qu_out *o);

/**
 * struct build_fstamp - what of a stat(2) says a file is unchanged; all
 * zero when it is missing
 */
struct build_fstamp {
	uint64_t dev, ino, size, mode;
	int64_t mtime_s, mtime_ns, ctime_s, ctime_ns;
};

/* build_fstamp_of() - stat(2) @path into @f */
void build_fstamp_of(struct build_fstamp *f, const char *path);

/*
 * build_fstamp_stat() - @f as qu_files_stat() would give it
 * Return: 0, or -1 when the file is missing.
 */
int build_fstamp_stat(struct qu_fstat *out, const struct build_fstamp *f);

/**
 * struct build_dep - one input of a build
 * @path: as read
 * @dir: a folder the build listed, not a file it read
 * @st: what stat(2) said of it when the build read it, if @have_st
 * @have_st: @st is set (else the stamp stats the input when written)
 */
struct build_dep {
	char *path;
	bool dir;
	struct build_fstamp st;
	bool have_st;
};

/**
 * struct build_deps - the inputs a build read, for the depfile
 * @v: the inputs
 * @n: how many
 * @alloc: how many allocated
 * @paths: owns their paths (all zero is an empty arena)
 */
struct build_deps {
	struct build_dep *v;
	size_t n;
	size_t alloc;
	struct qu_arena paths;
};

void build_deps_add(struct build_deps *d, const char *path);
/* A folder the build listed: a name added or removed changes it. */
void build_deps_add_dir(struct build_deps *d, const char *path);
/*
 * build_deps_add_folders() - add the folder of every input added so far,
 * so that a new or removed page or source makes the build out of date
 */
void build_deps_add_folders(struct build_deps *d);
void build_deps_fini(struct build_deps *d);

/**
 * build_deps_sort() - ready the inputs for build_deps_write(): sorted, each
 * once, and
 * the folder the output lies in left out (its path made empty), since
 * every build renames the output inside it
 * @d: the inputs
 * @out_parent: that folder, resolved
 */
void build_deps_sort(struct build_deps *d, const char *out_parent);

/**
 * build_deps_write() - write a depfile "TARGET: INPUT..." atomically
 * @d: the inputs, as build_deps_sort() left them; deduplicated here
 * @path: the depfile
 * @target: the target it names
 * @err: receives a one-line message on failure
 *
 * Spaces, '#', '$' and backslashes in paths are escaped as ninja's and
 * make's depfile readers expect.
 *
 * Return: 0, or -1.
 */
int build_deps_write(const struct build_deps *d, const char *path,
		     const char *target, struct qu_buf *err);

/**
 * struct build_page_state - what the last build knew of one page
 * @out: the page's output path
 * @key: the fingerprint of everything its HTML depends on
 * @diags: the diagnostics rendering it gave
 */
struct build_page_state {
	char *out;
	uint64_t key;
	struct qu_diags diags;
};

/**
 * struct build_cache - the state a build keeps for the next one
 * @pages: the pages of the last site, sorted by @out
 * @npages: how many
 */
struct build_cache {
	struct build_page_state *pages;
	size_t npages;
};

/**
 * build_cache_read() - load the cache of the last build
 * @c: filled in (empty when there is none or it cannot be trusted)
 * @dir: the cache folder
 * @site: the output folder it belongs to, resolved
 * @paths: where the diagnostics' paths are interned
 *
 * Return: NULL when loaded or when there was none, else why it was ignored
 * (a static text for the build's note).
 */
const char *build_cache_read(struct build_cache *c, const char *dir,
			     const char *site, struct qu_arena *paths);

/**
 * build_cache_write() - store the cache for the next build, atomically
 * @c: the state
 * @dir: the cache folder; made when missing
 * @site: the output folder it belongs to, resolved
 * @err: receives a one-line message on failure
 *
 * Return: 0, or -1.
 */
int build_cache_write(const struct build_cache *c, const char *dir,
		      const char *site, struct qu_buf *err);

/**
 * struct build_stamp - what a finished build read and printed (stamp.c)
 * @key: the build's options and quire's executable, hashed
 * @version_from: the folder whose git work tree gave the version, or ""
 *	when quire.yml set it
 * @version: the version shown, or NULL
 * @deps: the inputs read (written), or filled from the stamp (read)
 * @diags: the diagnostics printed, sorted (written), or filled (read)
 * @stats: the summary (npages, nitems, nunits)
 * @listings: NULL, or the walk's folder listings: each folder's is kept
 *	with it (written), or, when the stamp does not match, given back
 *	for each folder whose stat(2) data does (read)
 * @no_version: read without asking git for the version (the stamp's
 *	fuzz harness, which must not open the repositories it names)
 * @paths: set by a read that stat(2)ed the inputs, matching or not: the
 *	inputs in the stamp's order (the order the build that wrote it
 *	added them in, unless sorted for a depfile), an array the caller
 *	frees whose strings are the stamp's
 * @now: what stat(2) says of each now, in the arena the read was given
 * @n: how many
 * @first_file: the first of them that is not a folder (a build adds the
 *	folders it walked, then its sources in site order)
 * @nchanged: how many of them changed since
 */
struct build_stamp {
	uint64_t key;
	const char *version_from;
	const char *version;
	struct build_deps *deps;
	struct qu_diags *diags;
	struct qu_build_stats stats;
	struct qu_files_memo *listings;
	bool no_version;
	const char **paths;
	const struct build_fstamp *now;
	size_t n;
	size_t first_file;
	size_t nchanged;
};

/* how far past the last input found build_stamp_near() looks */
#define BUILD_STAMP_NEAR 4

/**
 * build_stamp_near() - what build_stamp_check() found of @path, looked
 * for at the checked stamp's entries *@at and a few past it (the inputs of
 * a build come in the order the last one listed them)
 * @st: the checked stamp (@paths, @now, @n)
 * @at: where to look; moved past the entry found
 * @path: the input
 *
 * Return: its stat data as the check found it, or NULL when not there.
 */
const struct build_fstamp *build_stamp_near(const struct build_stamp *st,
					    size_t *at, const char *path);

/**
 * struct build_stamp_seen - what build_stamp_check() found of each input
 * @was: the stamp it checked: its @paths and what stat(2) said of each
 *	(@now), in its order, which is the order the next stamp lists its
 *	inputs in when they are the same
 * @map: the same by path, made when first asked (an input out of that
 *	order), or NULL
 * @ctx: @map's argument
 */
struct build_stamp_seen {
	const struct build_stamp *was;
	const struct qu_map *(*map)(void *ctx);
	void *ctx;
};

/**
 * build_stamp_write() - record what a finished build read and printed
 * @s: the stamp
 * @dir: the cache folder
 * @site: the site's folder, resolved
 * @started: when the build started (CLOCK_REALTIME seconds): inputs
 *	changed since are recorded as never matching
 * @seen: what build_stamp_check() found of each input, or NULL: an input
 *	with no struct build_dep.st of its own takes it from there, and
 *	only one found nowhere is stat(2)ed again
 * @out: receives the file, written but not in place: the caller puts it
 *	there (qu_file_out_commit()) once the site it describes is OUT, or
 *	drops it (qu_file_out_abort())
 * @err: receives a one-line message on failure
 *
 * Return: 0, or -1 (nothing to commit or abort).
 */
int build_stamp_write(const struct build_stamp *s, const char *dir,
		      const char *site, double started,
		      const struct build_stamp_seen *seen,
		      struct qu_file_out *out, struct qu_buf *err);

/**
 * struct build_map - a file of the cache, mapped (qu_file_map())
 * @p: its bytes, or NULL
 * @size: how many
 */
struct build_map {
	const void *p;
	size_t size;
};

/**
 * build_stamp_check() - whether nothing changed since the stamp was written
 * @s: @key set; @deps and @diags empty, filled when it returns true
 * @dir: the cache folder
 * @site: the site's folder, resolved
 * @a: owns the strings read, and what stat(2) says of each input now
 *	(@s->now): the build that follows a stamp that did not match stats
 *	none again
 * @threads: worker threads for the stats (0: one per processor)
 * @map: receives the stamp's file, mapped: @s->paths point into it, so
 *	the caller unmaps it (qu_file_unmap()) only when done with them
 *
 * Return: true when every input is as recorded, the version is the same
 * and @site still holds a site.
 */
bool build_stamp_check(struct build_stamp *s, const char *dir,
		       const char *site, struct qu_arena *a, unsigned threads,
		       struct build_map *map);

/**
 * build_stamp_read() - build_stamp_check() on a stamp's bytes
 * @s, @site, @a, @threads: as build_stamp_check()'s
 * @data: the stamp's bytes, checksum last; @s->paths point into them
 * @size: how many
 *
 * Return: as build_stamp_check().
 */
bool build_stamp_read(struct build_stamp *s, const void *data, size_t size,
		      const char *site, struct qu_arena *a, unsigned threads);

/**
 * build_stamp_seen() - what a stamp's read found of each input, by path
 * @seen: an empty table; receives each path's struct build_fstamp (the
 *	first entry's, when a path is there twice)
 * @s: a stamp read by build_stamp_check(), matching or not
 */
void build_stamp_seen(struct qu_map *seen, const struct build_stamp *s);

/**
 * build_stamp_remove() - forget a site's stamp
 * @dir: the cache folder
 * @site: the site's folder, resolved
 */
void build_stamp_remove(const char *dir, const char *site);

/**
 * build_git_version() - the version a site shows when quire.yml sets none
 * @out: receives `git describe --tags` of the work tree holding @from
 * @from: a folder, or NULL or "" for none
 */
void build_git_version(struct qu_buf *out, const char *from);

/**
 * build_stamp_version_from() - the folder the version of a site comes from
 * @s: the site
 * @dir: the folder the build was given: the docs folder (or the source
 *	tree of a zero-config site), whose work tree's describe is shown
 *	whatever `srctree` says
 *
 * Return: "" when quire.yml sets the version, else @dir.
 */
const char *build_stamp_version_from(const struct qu_site *s,
				     const char *dir);

/**
 * build_back_path() - append where a cache keeps a site's back tree
 * @b: the buffer
 * @dir: the cache folder
 * @site: the site's folder, resolved
 *
 * The back tree is the site before the last one, which the next build
 * composes into its new site (back.c).
 */
void build_back_path(struct qu_buf *b, const char *dir, const char *site);

/**
 * build_inv_read() - the last objects.inv's compressed body, from the
 * cache folder @dir, into @m (left as it is when there is none, when the
 * file does not check, or when a quire other than @exe wrote it)
 *
 * Return: NULL, or why the file there was not used (static text).
 */
const char *build_inv_read(struct qu_inv_memo *m, const char *dir,
			   uint64_t exe);

/**
 * build_inv_write() - keep @m's compressed body in the cache folder @dir,
 * as the quire @exe wrote it
 * Return: 0, or -1 (message in @err).
 */
int build_inv_write(const struct qu_inv_memo *m, const char *dir,
		    uint64_t exe, struct qu_buf *err);

/**
 * build_place_read() - the last build's placement (qu_graph_place_save()'s
 * bytes) from the cache folder @dir, when the file there checks and the
 * quire @exe made it: the file mapped into @map (qu_file_unmap() it),
 * the bytes at *@body (8-aligned), *@len of them; @key receives the
 * placement key (qu_graph_place_key()) it was made for, then the hash of
 * its symbols (struct build_key_memo's @syms)
 *
 * Return: NULL (*@len 0 and nothing mapped when there was none), or why
 * the file there was not used (static text).
 */
const char *build_place_read(struct build_map *map, const void **body,
			     size_t *len, const char *dir, uint64_t exe,
			     uint64_t key[2]);

/**
 * build_place_write() - keep @g's placement, and its references as read
 * with the settings of key @refs_key, in the cache folder @dir, as the
 * quire @exe made it, with @key as build_place_read() gives it back
 * (nothing when placing gave diagnostics)
 * Return: 0, or -1 (message in @err).
 */
int build_place_write(const struct qu_graph *g, uint64_t refs_key,
		      const char *dir, uint64_t exe, const uint64_t key[2],
		      struct qu_buf *err);

/**
 * build_refs_read() - what comments named in the last builds (lib/graph's
 * memo), from the cache folder @dir, into the empty memo @m, when the
 * file there checks and was made by the quire @exe with @key (the
 * reader's settings); *@units receives the hash of the units' content
 * hashes it was last brought up to date with (build_refs_write())
 *
 * Return: NULL, or why the file there was not used (static text).
 */
const char *build_refs_read(struct qu_graph_memo *m, const char *dir,
			    uint64_t exe, uint64_t key, uint64_t *units);

/**
 * build_refs_write() - keep @m in the cache folder @dir, as the quire
 * @exe wrote it, under @key, brought up to date with the units whose
 * content hashes hash to @units
 * Return: 0, or -1 (message in @err).
 */
int build_refs_write(struct qu_graph_memo *m, const char *dir, uint64_t exe,
		     uint64_t key, uint64_t units, struct qu_buf *err);

/**
 * build_search_state_path() - append where a cache keeps the state of a
 * site's search index (lib/search's state.c)
 * @b: the buffer
 * @dir: the cache folder
 * @site: the site's folder, resolved
 */
void build_search_state_path(struct qu_buf *b, const char *dir,
			     const char *site);

void build_cache_fini(struct build_cache *c);

/**
 * build_cache_find() - the last build's state of a page
 * @c: the cache
 * @out: the page's output path
 *
 * Return: the state, or NULL.
 */
const struct build_page_state *build_cache_find(const struct build_cache *c,
						const char *out);

/**
 * struct build_rd - a reader of encoded bytes (codec.c)
 * @p: the next byte
 * @left: bytes left
 * @bad: a field was short; every later read fails too
 */
struct build_rd {
	const unsigned char *p;
	size_t left;
	bool bad;
};

void build_put_u32(struct qu_buf *b, uint32_t v);
void build_put_u64(struct qu_buf *b, uint64_t v);
/* a NULL string is kept as NULL */
void build_put_str(struct qu_buf *b, const char *s);
/* a diagnostic: its name, path, line, column and message */
void build_put_diag(struct qu_buf *b, const struct qu_diag *d);

/* the length that stands for a NULL string */
#define BUILD_NO_STR 0xffffffffu

/*
 * The readers are inline: a kernel tree's cached units are millions of
 * fields, read on every build.
 */
static inline bool build_get(struct build_rd *r, void *out, size_t n)
{
	if (r->bad || r->left < n) {
		r->bad = true;
		return false;
	}
	memcpy(out, r->p, n);
	r->p += n;
	r->left -= n;
	return true;
}

static inline uint32_t build_get_u32(struct build_rd *r)
{
	uint32_t v = 0;

	build_get(r, &v, 4);
	return le32toh(v);
}

static inline uint64_t build_get_u64(struct build_rd *r)
{
	uint64_t v = 0;

	build_get(r, &v, 8);
	return le64toh(v);
}

/*
 * build_get_str() - the next string, or NULL (a NULL was written, or the
 * field is short: then @r->bad); copied into @a when given, else pointing
 * into the bytes; its length in *@len when @len is given (0 for NULL)
 */
static inline const char *build_get_str(struct build_rd *r,
					struct qu_arena *a, size_t *len)
{
	uint32_t n = build_get_u32(r);
	const char *s = (const char *)r->p;

	if (len)
		*len = 0;
	if (n == BUILD_NO_STR || r->bad)
		return NULL;
	if (r->left < n) {
		r->bad = true;
		return NULL;
	}
	r->p += n;
	r->left -= n;
	if (len)
		*len = n;
	return a ? qu_arena_strndup(a, s, n) : s;
}

/**
 * build_diag_by_name() - the registry row of a -W name
 * @out: the row
 * @name: the name, without "-W"
 * @n: its length
 *
 * Return: false when no row has that name (a cache of another quire).
 */
bool build_diag_by_name(enum qu_diag_id *out, const char *name, size_t n);

/**
 * struct build_stat - what stat(2) says of a source, to tell it unchanged
 * @size: bytes
 * @mtime: modification time, in nanoseconds
 * @ctime: status change time, in nanoseconds
 * @ino: inode number
 */
struct build_stat {
	uint64_t size;
	uint64_t mtime;
	uint64_t ctime;
	uint64_t ino;
};

void build_stat_of(struct build_stat *out, const struct qu_fstat *st);

/**
 * struct build_unit_entry - one cached unit, still in the cache's bytes
 * @path: the source's path (not terminated)
 * @path_len: its length
 * @st: the file's stat when it was parsed
 * @hash: its content hash
 * @ncomments: kernel-doc comments in it
 * @body: the items, exports and diagnostics, encoded
 * @body_len: their length
 * @need: the arena bytes they decode into, once checked (0: not known)
 */
struct build_unit_entry {
	const char *path;
	size_t path_len;
	struct build_stat st;
	struct qu_hash128 hash;
	uint64_t ncomments;
	const unsigned char *body;
	size_t body_len;
	size_t need;
};

/**
 * struct build_units - the units of the last build
 * @db: the open database (sqlite3 *), kept for the write at the end
 * @path: its file
 * @data: the rows' bytes, which the entries point into
 * @v: the entries, sorted by path
 * @n: how many
 * @written: when the cache was written, in nanoseconds
 * @lazy: the entries have no bodies: build_units_load() reads each from
 *	the database when it is wanted
 * @get: that read's statement
 * @lock: held around it (the connection is not shared between threads)
 * @synced: lazy, and the entries are the database's as the last
 *	build_units_write() left it: a next build may take them as they are
 *	instead of reading them again (build_units_take())
 */
struct build_units {
	struct sqlite3 *db;
	char *path;
	struct qu_buf data;
	struct build_unit_entry *v;
	size_t n;
	uint64_t written;
	bool lazy;
	bool synced;
	struct sqlite3_stmt *get;
	pthread_mutex_t lock;
	const atomic_bool *cancel;
	/* units loaded from @data point into it, which lives as long as @u */
	bool borrow;
	/* @data's size when qu_big_alloc() made it, else 0 */
	size_t big;
	struct {
		char *p;
		size_t big;
	} *kept;
	size_t nkept;
	size_t kept_alloc;
	/*
	 * The snapshot of the rows (units.snap) that the entries taken from
	 * it point into, mapped; its generation (0: none taken, and why in
	 * @snap_note when one was there); the database's generation and id
	 * (its meta table's, as read or last written); the rows newer than
	 * the snapshot; whether a write removed rows since
	 */
	const void *snap;
	size_t snap_len;
	uint64_t snap_gen;
	const char *snap_note;
	uint64_t gen, id;
	size_t ndelta;
	bool snap_stale;
};

/*
 * build_units_read() - load the unit cache of @dir, written by the quire
 * whose executable hashes to @exe; with @bodies false only each entry's
 * key (a build that takes nearly every unit from the build before, in
 * memory, reads the few others' bodies when it loads them); with
 * @borrow, units loaded from the bodies point into the bytes read rather
 * than copying their strings, and those bytes live as long as @u (a build
 * whose units do not outlive it: quire build, not quire serve). Return:
 * NULL, or why it was ignored.
 */
const char *build_units_read(struct build_units *u, const char *dir,
			     uint64_t exe, bool bodies, bool borrow);
/*
 * build_units_peek() - build_units_read() of a cache that is there and
 * whole, with bodies, making, changing and removing nothing (SQLite's
 * -wal and -shm files aside): a build reads it on a thread of its own
 * while it lists the site, before it has checked the cache folder as a
 * whole. The read stops, holding nothing, once *@cancel is true (the
 * build has nothing to do). Return: whether @u holds it; else @u is
 * empty, and build_units_read() notes why and starts afresh.
 */
bool build_units_peek(struct build_units *u, const char *dir, uint64_t exe,
		      const atomic_bool *cancel);
/* build_units_find() - the entry of a source path, or NULL */
const struct build_unit_entry *build_units_find(const struct build_units *u,
						const char *path);
/*
 * build_units_find_near() - build_units_find() for paths asked in about
 * the entries' order (a build's sources, which are mostly in it): the
 * few entries past *@at, the one after the last found, are tried first,
 * a comparison or two each in place of a search. *@at is updated.
 */
const struct build_unit_entry *
build_units_find_near(const struct build_units *u, const char *path,
		      size_t *at);
/*
 * build_units_fresh() - whether an entry may be used without reading the
 * file: same stat, and not changed within two seconds of the cache
 */
bool build_units_fresh(const struct build_units *u,
		       const struct build_unit_entry *e,
		       const struct build_stat *st);
/*
 * build_units_load() - make a unit (and its exports) from an entry of @u;
 * the unit's diagnostics name @diag_path. The caller sets @unit->path.
 * Context: thread-safe; @e is only read.
 * Return: false when the entry's body cannot be read (a lazy entry whose
 * row is gone or corrupt): then @unit is untouched.
 */
bool build_units_load(struct build_units *u, struct qu_unit *unit,
		      struct qu_graph_exports *ex,
		      const struct build_unit_entry *e, const char *diag_path);
/*
 * build_units_snap_read() - the entries of the snapshot @data (units.snap
 * as build_units_snap_write() writes it) into @u, which has none, for a
 * database of id @id at generation @gen whose rows were last removed at
 * generation @from; they point into @data. Every length, body and the
 * order of the paths is checked. Return: NULL, or why not (then @u has
 * no entries). The build maps the file; tests and the fuzzer call this.
 */
const char *build_units_snap_read(struct build_units *u, const void *data,
				  size_t len, uint64_t exe, uint64_t id,
				  uint64_t from, uint64_t gen);
/*
 * build_units_snap_write() - after build_units_write(), write the snapshot
 * of every row (units.snap) when the last was not taken, a row was
 * removed since, or more than a few hundred rows are newer than it:
 * build_units_read() takes the rows from the snapshot, mapped, and only
 * the newer ones from the database. Return: 0 (also when it was not
 * needed), or -1 (message in @err).
 */
int build_units_snap_write(struct build_units *u, uint64_t exe,
			   struct qu_buf *err);
/*
 * build_units_write() - store the units whose @ok is set and which are new
 * or @dirty (parsed, or their stat changed), keyed by @paths and @st, and
 * forget the sources no longer there, in one transaction.
 * Return: 0, or -1 (message in @err).
 */
int build_units_write(struct build_units *u, uint64_t exe,
		      const char *const *paths, const struct build_stat *st,
		      const struct qu_unit *units,
		      const struct qu_graph_exports *ex, const bool *ok,
		      const bool *dirty, size_t n, struct qu_buf *err);
/* build_units_close() - close the database; the rows read stay */
void build_units_close(struct build_units *u);
void build_units_fini(struct build_units *u);

/*
 * build_units_take() - move @from's open cache into @to when its entries
 * are the database's (@from->synced): quire serve's next build then reads
 * none of the 55,000 keys of a kernel tree again. Return: whether it did.
 */
bool build_units_take(struct build_units *to, struct build_units *from);

struct qu_extra;

/**
 * struct build_history - what git says of a site's inputs (history.c)
 * @pages: per page: when it last changed (its file, or a source whose
 *	items it shows) and its file's path for "view source"
 * @units: per source, likewise
 * @source_url: the "view source" template: quire.yml's source_url, else
 *	one derived from the repository's origin, else NULL
 * @edit_url: the "edit this page" template, for a build of the files or
 *	of a branch: quire.yml's edit_url, else one derived from origin and
 *	the branch, else NULL
 * @paths: the pages' paths from the repository's root (owned)
 * @npaths: how many
 * @upaths: the sources' paths, likewise
 * @nupaths: how many
 */
struct build_history {
	struct qu_render_file *pages;
	struct qu_render_file *units;
	char *source_url;
	char *edit_url;
	char **paths;
	size_t npaths;
	char **upaths;
	size_t nupaths;
};

/**
 * build_history() - last changed and source links of every page and source
 * @h: filled in; free with build_history_fini()
 * @s: the site
 * @g: its graph (which items each page shows)
 * @rev: the revision built (--rev), or NULL for the work tree holding @dir
 * @dir: the folder the build was given
 * @dates: walk history for the dates (else links only)
 * @memo: a file of the cache folder that keeps the answers for the next
 *	build from the same commit (which then walks nothing), or NULL
 *
 * One walk over history for all files. Without git, without a commit, or
 * for a file git does not track, there is no date and no error.
 * Context: on the calling thread only (libgit2 handles stay there).
 */
void build_history(struct build_history *h, const struct qu_site *s,
		   const struct qu_graph *g, struct qu_git_tree *rev,
		   const char *dir, bool dates, const char *memo);
void build_history_fini(struct build_history *h);

/**
 * struct build_key_memo - what build_keys() keeps between quire serve's
 *	builds
 * @place_id: the placement @syms was hashed from (qu_graph.place_id), or 0
 * @syms: the hash of every symbol's name, kind, item and home
 */
struct build_key_memo {
	uint64_t place_id;
	uint64_t syms;
};

/**
 * build_keys() - the fingerprint of every page's HTML inputs
 * @out: @out[p] receives page p's fingerprint, then @out[npages + k]
 *	extra file k's
 * @site: the pages
 * @g: the graph
 * @units: the parsed sources
 * @extras: the files besides the pages (lib/render)
 * @nextras: how many
 * @theme_files: where the theme is read from (NULL: the file system)
 * @theme: the theme's folder
 * @version: the version shown, or NULL
 * @exe: the hash of the quire executable
 * @hist: what git says of the pages and sources (history.c)
 * @threads: how many workers hash the pages (0: one a processor)
 * @memo: the symbols' hash of the last call, kept for the same placement
 *	(qu_graph.place_id); NULL to hash them every time
 * @inv_out: NULL, or receives the key of what objects.inv's body is made
 *	of (qu_graph_inventory()'s @inputs): the symbols, the pages' paths,
 *	titles, headings and labels
 *
 * Two builds give a page the same fingerprint only when everything its
 * rendering reads is the same: its own parts and headings, the content of
 * the files whose items it shows, what refers to those items, and what
 * every page shares (the navigation, every symbol's name, kind and home,
 * the theme's template, the configuration, the version and quire itself).
 */
void build_keys(uint64_t *out, const struct qu_site *site,
		const struct qu_graph *g, const struct qu_unit *units,
		const struct qu_extra *extras, size_t nextras,
		const struct qu_files *theme_files, const char *theme,
		const char *version, uint64_t exe,
		const struct build_history *hist, unsigned threads,
		struct build_key_memo *memo, uint64_t *inv_out);

/**
 * build_link_tree() - hard-link every file of a site's folder into another
 * @from: the folder
 * @to: where its files go; made when missing, and no file of @from may
 *	be there yet
 * @skip: names left out at the top of @from (NULL-terminated), or NULL
 *
 * quire never writes a file of a site in place (every write makes a new
 * file and renames it), so a linked file keeps its bytes. Folders are
 * made, files linked; anything else is a failure.
 * Return: 0, or -1 (part may be linked: the caller drops @to).
 */
int build_link_tree(const char *from, const char *to,
		    const char *const *skip);

/**
 * build_site_key() - what a whole site of one revision is made from
 * @commit: the revision's full commit id
 * @links: the templates of its "view source" and "edit" links that
 *	origin gives (the repository's configuration, not the commit's)
 * @theme_files: where the theme is read from (NULL: the file system)
 * @theme: the theme's folder
 * @exe: the hash of the quire executable
 * @dates: whether pages show their last-changed dates
 *
 * Two builds of the same commit with the same key give the same bytes
 * (a versioned site keeps a version whose key is unchanged).
 * Return: the key.
 */
uint64_t build_site_key(const char *commit, const char *links,
			const struct qu_files *theme_files, const char *theme,
			uint64_t exe, bool dates);

/**
 * build_output_key() - build_site_key() of a build of a revision
 * @b: the build, made by qu_build_new() with a revision
 *
 * Return: the key.
 */
uint64_t build_output_key(const struct qu_build *b);

#endif /* QU_BUILD_BUILD_INT_H */
