/* SPDX-License-Identifier: MIT */
/*
 * build.h - the pipeline driver every command runs
 *
 * In: a docs root (or a bare source tree) and the build's options. Out: a
 * site written into an output folder quire owns, the run's diagnostics
 * and what it did (pages written and kept, units parsed and reused). The
 * driver runs the stages in order (site, source and kdoc on the pool,
 * graph, markdown, render on the pool), keeps the unit and page cache
 * between runs, and decides what changed; it holds no stage's logic.
 * Included by cmd/ and lib/serve.
 */
#ifndef QU_BUILD_BUILD_H
#define QU_BUILD_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "kdoc/kdoc.h"
#include "render/render.h"
#include "site/site.h"
#include "util/util.h"

/** QU_SITE_MARKER - the file at the root of every site quire wrote */
#define QU_SITE_MARKER ".quire-site"
/** QU_CACHE_MARKER - the file at the root of every cache quire wrote */
#define QU_CACHE_MARKER ".quire-cache"
/** QU_OUT_FORMAT - the version of the output layout the markers name */
#define QU_OUT_FORMAT 1

/**
 * struct qu_build_opts - what one build is asked to do
 * @dir: the docs root, or a source tree for a zero-config site
 * @out: the output folder; NULL to stop after the graph (no output)
 * @cache: the cache folder; NULL for the default, ".quire-cache" beside
 *	@out
 * @no_cache: neither read nor write a cache
 * @depfile: write a Makefile-style list of every input read there, or NULL
 * @depfile_target: the target the depfile names; NULL for @out
 * @threads: worker threads, 0 for one per processor
 * @quiet: no progress line
 * @timing: print each phase's time on stderr (QUIRE_TIMING=1)
 * @defer_search: when pages changed, keep the last site's search index
 *	and leave the new one to qu_build_search() (quire serve, which
 *	reloads the tabs in between)
 * @in_place: update @out file by file (qu_out_apply()) once a build
 *	has written it whole, instead of exchanging it with a new folder:
 *	for quire serve's private folder, where a rebuild's cost should
 *	follow what changed; a reader may then see a page of the new site
 *	beside one of the last, never part of a file
 * @lister: NULL, or where the site's walk lists folders (quire serve's
 *	qu_files_memo_files(), when its watcher saw no file made, moved or
 *	deleted)
 * @memo: keep lib/search's and lib/graph's memos for a next build that
 *	takes them (qu_build_reuse()): its index then tokenizes, and its
 *	graph reads the comments of, only what changed (quire serve)
 * @skip_unchanged: with a cache, stop at once when no input changed since
 *	the last build (its stamp): the diagnostics and the summary are the
 *	last build's, and nothing but the depfile is written; only such a
 *	build writes a stamp for the next
 * @rev: build the docs as they are at this revision (a tag, a branch, a
 *	commit), read from the object database without a work tree; @dir
 *	is then a folder of the revision, from its root. NULL: the files
 * @repo: the repository of @rev (a work tree, a folder in one, a bare
 *	repository); NULL for the current folder
 * @no_history: show no "last changed" dates (no walk over history;
 *	quire serve, whose rebuilds must be quick); links stay
 * @versions_file: the file whose versions: qu_build_versions() builds,
 *	instead of @dir's quire.yml; NULL for that one
 * @versions: the versions of a versioned site (qu_build_versions() sets
 *	them), or NULL
 * @nversions: how many
 * @version_cur: the one this build is
 * @version_latest: the latest
 */
struct qu_build_opts {
	const char *dir;
	const char *out;
	const char *cache;
	bool no_cache;
	const char *depfile;
	const char *depfile_target;
	unsigned threads;
	bool quiet;
	bool timing;
	bool skip_unchanged;
	bool defer_search;
	const char *rev;
	const char *repo;
	bool no_history;
	const char *versions_file;
	const struct qu_render_version *versions;
	size_t nversions;
	size_t version_cur;
	size_t version_latest;
	bool memo;
	bool in_place;
	const struct qu_files *lister;
};

/**
 * struct qu_build_stats - what a build did
 * @npages: pages in the site
 * @nitems: items on a page (each counted at its home)
 * @nunits: source files the pages read
 * @nparsed: of those, parsed anew (the others came from the cache)
 * @nreused: of the others, taken in memory from the build before
 *	(qu_build_reuse())
 * @nwritten: pages rendered anew
 * @nkept: pages kept from the last site because nothing they show changed
 * @nremoved: outputs of the last site that this one no longer has
 * @nsearch_kept: files of the search index the last site had with the
 *	same bytes, not written again
 * @cache_note: why the cache was not used, or NULL (static text)
 * @search_updated: the search index was updated from the last build's,
 *	not built whole
 * @search_note: why the search index's state in the cache was not used
 *	(corrupt, foreign), or NULL (static text)
 * @unchanged: no input changed since the last build: nothing was done
 */
struct qu_build_stats {
	size_t npages;
	size_t nitems;
	size_t nunits;
	size_t nparsed;
	size_t nreused;
	size_t nwritten;
	size_t nkept;
	size_t nremoved;
	size_t nsearch_kept;
	const char *cache_note;
	bool search_updated;
	const char *search_note;
	bool unchanged;
};

struct qu_build;

/**
 * qu_build_new() - read the configuration and pages, claim the output
 * @out: the new build; free with qu_build_free()
 * @opts: the options; must outlive the build
 * @err: receives a one-line message on failure
 *
 * Refuses (with a message) an output or cache folder that exists and is
 * neither empty nor marked as quire's, or that is or holds the docs root,
 * the source tree, the theme or the configuration. Nothing on disk changes
 * before qu_build_write().
 *
 * Return: 0, or -1 when the build cannot run (the caller exits with 2).
 * A broken configuration (-Wbad-config) leaves @err empty: its errors
 * are the build's diagnostics (qu_build_diags()).
 */
int qu_build_new(struct qu_build **out, const struct qu_build_opts *opts,
		 struct qu_buf *err);

/**
 * qu_build_link() - parse the sources, make the pages, build the graph
 * @b: the build, fresh from qu_build_new()
 *
 * Units whose file is unchanged since the cached run are taken from the
 * cache instead of parsed.
 */
void qu_build_link(struct qu_build *b);

/**
 * qu_build_reuse() - take unchanged sources from the build before
 * @b: the build, fresh from qu_build_new()
 * @prev: the last build (which must not be written or linked again), or
 *	NULL
 *
 * qu_build_link() then takes from @prev, in memory, the parsed unit of
 * every source whose stat data is as @prev saw it, instead of reading it
 * or the cache: what keeps quire serve's rebuilds from reading the tree.
 * The units move: @prev keeps only what it needs to be freed. So do
 * @prev's memos (@opts->memo).
 */
void qu_build_reuse(struct qu_build *b, struct qu_build *prev);

/**
 * qu_build_changed() - name the only inputs that may have changed
 * @b: the build, after qu_build_reuse() and before qu_build_link()
 * @paths: the inputs (as qu_build_inputs() gave them) that may differ
 *	from what the build before (@prev of qu_build_reuse()) saw since it
 *	started; copied
 * @n: how many
 *
 * For a caller that watches every input since before the last build
 * started (quire serve): a source not named is taken from the last build
 * without a stat(), unless it changed close to that build's start. Not
 * called: every source is stat()ed.
 */
void qu_build_changed(struct qu_build *b, const char *const *paths,
		      size_t n);

/**
 * qu_build_graph() - the symbol graph of a linked build
 * @b: the build, after qu_build_link()
 *
 * Return: the graph, owned by @b.
 */
const struct qu_graph *qu_build_graph(const struct qu_build *b);

/**
 * qu_build_write() - render the site aside and swap it in
 * @b: the build, after qu_build_link()
 * @err: receives a one-line message on failure
 *
 * Pages whose inputs did not change since the last site are kept from it;
 * the rest are rendered. The new site replaces the output folder in one
 * rename; on failure the last site is left as it was. Then the cache and
 * the depfile are written.
 *
 * Return: 0, or -1 (the caller exits with 2).
 */
int qu_build_write(struct qu_build *b, struct qu_buf *err);

/**
 * qu_build_search() - write the search index a build deferred, and swap
 * @b: the build, after a successful qu_build_write()
 * @err: receives a one-line message on failure
 *
 * With @defer_search, qu_build_write() swaps in the new pages with the
 * last site's search index; this writes the new index and swaps the site
 * again, which then equals what a build without @defer_search writes.
 * Does nothing when nothing was deferred.
 *
 * Return: 1 when it wrote an index, 0 when nothing was deferred, or -1
 * (the site keeps the last index; the cache says so).
 */
int qu_build_search(struct qu_build *b, struct qu_buf *err);

/**
 * qu_build_diags() - a copy of the build's diagnostics, sorted
 * @to: where they are added
 * @b: the build (its own stay, for a next build that reuses its units)
 *
 * The first call after qu_build_write() into an empty @to takes the
 * sorted copy the build made for its stamp, when it made one, instead of
 * making another (a kernel tree's 20,000 warnings).
 */
void qu_build_diags(struct qu_diags *to, struct qu_build *b);

/**
 * qu_build_get_stats() - what the build did so far
 * @out: filled in
 * @b: the build
 */
void qu_build_get_stats(struct qu_build_stats *out, const struct qu_build *b);

/**
 * qu_build_inputs() - every input the build read, files and folders
 * @b: the build, after qu_build_write()
 * @fn: called once per input, in no particular order, with @payload, the
 *	path as read, and whether it is a folder (whose listing was read)
 * @payload: passed to @fn
 *
 * What the depfile lists, for a watcher.
 */
void qu_build_inputs(const struct qu_build *b,
		     void (*fn)(void *payload, const char *path, bool dir),
		     void *payload);

/**
 * qu_build_rendered() - the pages this build rendered anew
 * @b: the build, after qu_build_write()
 * @fn: called with @payload and each such page's output path, in page
 *	order (pages kept from the last site are left out)
 * @payload: passed to @fn
 */
void qu_build_rendered(const struct qu_build *b,
		       void (*fn)(void *payload, const char *out),
		       void *payload);

/**
 * qu_build_site() - the site a build read
 * @b: the build, after qu_build_new()
 *
 * Return: the site, owned by @b (its pages are known before
 * qu_build_link() unless it is a zero-config site).
 */
const struct qu_site *qu_build_site(const struct qu_build *b);

/**
 * struct qu_build_vstats - what a build of versions did
 * @nbuilt: versions built
 * @nkept: versions kept as they were: built before from the same key
 * @npruned: folders of versions no longer listed, removed
 * @latest_copied: OUT/latest/ was written anew
 * @paths: the paths the diagnostics name (their builds are gone); freed
 *	by qu_build_vstats_fini()
 */
struct qu_build_vstats {
	size_t nbuilt;
	size_t nkept;
	size_t npruned;
	bool latest_copied;
	struct qu_arena paths;
};

/**
 * qu_build_vstats_fini() - free what qu_build_versions() kept in @st
 * @st: filled by qu_build_versions(), even one that failed
 */
void qu_build_vstats_fini(struct qu_build_vstats *st);

/**
 * qu_build_versions() - build every version quire.yml's versions: names
 * @st_out: receives what was built, kept and removed; the caller frees it
 *	with qu_build_vstats_fini() once @diags are printed
 * @opts: the options; @opts->dir's quire.yml names the versions, each a
 *	revision of the repository holding @opts->dir (or @opts->repo)
 * @diags: receives the diagnostics of every version built, in the order
 *	of versions:
 * @err: receives a one-line message on failure
 *
 * Each version is built from its revision, as with @rev, into
 * OUT/<label>/ (swapped in on its own), with a switcher and, but for the
 * latest (the one marked, else the first that is no pre-release), a
 * banner; then OUT/latest/ (a copy of the latest), OUT/versions.json and
 * OUT/index.html, a redirect to the latest, are written. A version whose
 * key (its commit, quire, the theme, what its switcher shows) is the one
 * OUT/.quire-versions holds for its folder is kept as it is; a folder of
 * a version no longer listed is removed. The versions to build are built
 * side by side, @opts->threads (0: one per processor) shared between
 * them. A cache, when asked for, is kept per version in
 * @opts->cache/<label>.
 *
 * Return: 1 when there is nothing to do (no versions:, or @opts->rev
 * set): the caller builds as usual; 0; -1 when a version cannot be built
 * or @opts->versions_file is broken or lists none.
 */
int qu_build_versions(struct qu_build_vstats *st_out,
		      const struct qu_build_opts *opts, struct qu_diags *diags,
		      struct qu_buf *err);

/**
 * qu_build_free() - free a build
 * @b: the build, or NULL
 *
 * A build that never reached qu_build_write() leaves no file behind.
 */
void qu_build_free(struct qu_build *b);

/**
 * qu_build_exit() - end a build as qu_build_free() does, but for its
 * memory, for a process about to exit
 * @b: the build, or NULL; not to be used after
 *
 * Its threads stop, the folder it wrote into goes when it did not become
 * the site, and its cache is closed. The kernel takes the memory back
 * with the process, at once: given back block by block, a kernel site's
 * few hundred megabytes take tens of milliseconds.
 */
void qu_build_exit(struct qu_build *b);

/**
 * qu_path_resolve() - the absolute form of a path, with symlinks resolved
 * @path: the path, which need not exist
 *
 * The longest existing prefix goes through realpath(3); the rest is
 * appended with "." and ".." folded.
 *
 * Return: a new string; the caller frees it.
 */
char *qu_path_resolve(const char *path);

/**
 * qu_path_is_below() - whether one absolute path is another or lies below it
 * @path: the path, resolved
 * @dir: the folder, resolved
 *
 * Return: true when @path is @dir or inside it.
 */
bool qu_path_is_below(const char *path, const char *dir);

/**
 * qu_owned_check() - whether quire may replace a folder
 * @path: the folder, as given
 * @shown: how to name it in the message
 * @marker: the marker file a folder quire wrote carries
 * @inputs: paths the folder must not be or hold
 * @ninputs: how many
 * @shown_inputs: how to name each in the message
 * @err: receives the reason for a refusal
 *
 * A folder may be replaced when it does not exist, is empty, or carries
 * @marker, and is not and does not hold any of @inputs.
 *
 * Return: 0 when it may, -1 when not.
 */
int qu_owned_check(const char *path, const char *shown, const char *marker,
		   const char *const *inputs, size_t ninputs,
		   const char *const *shown_inputs, struct qu_buf *err);

#endif /* QU_BUILD_BUILD_H */
