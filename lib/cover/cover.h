/* SPDX-License-Identifier: MIT */
/*
 * cover.h - documentation coverage: which exported symbols have
 * kernel-doc, which documented items describe all their parameters
 *
 * In: the C files of a tree (every one, to find comments anywhere), the
 * files in scope (whose EXPORT_SYMBOL*() uses are counted), and
 * optionally the tree's MAINTAINERS file. Out: one record per export and
 * per documented item in scope, totals per directory and per MAINTAINERS
 * entry, as a sorted table or JSON Lines (docs/commands/coverage.md).
 * Included by cmd/quire.
 */
#ifndef QU_COVER_COVER_H
#define QU_COVER_COVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kdoc/kdoc.h"
#include "util/util.h"

/**
 * struct qu_maint_pattern - one F: or X: line of a MAINTAINERS entry
 * @glob: the pattern as written after "F:" and its blanks, with "/"
 *	appended when it names a directory of the tree (as
 *	scripts/get_maintainer.pl does)
 * @line: 1-based line in MAINTAINERS
 * @exclude: an X: line
 */
struct qu_maint_pattern {
	const char *glob;
	uint32_t line;
	bool exclude;
};

/**
 * struct qu_maint_entry - one entry (a subsystem) of MAINTAINERS
 * @name: its title line
 * @line: 1-based line of the title
 * @pats: its F: and X: patterns in file order
 * @npats: how many
 */
struct qu_maint_entry {
	const char *name;
	uint32_t line;
	struct qu_maint_pattern *pats;
	size_t npats;
};

/**
 * struct qu_maint_key - patterns that share a literal directory prefix
 * @entry: index of the entry
 * @pat: index of the pattern in the entry
 */
struct qu_maint_key {
	uint32_t entry;
	uint32_t pat;
};

/**
 * struct qu_maintainers - a parsed MAINTAINERS file
 * @v: the entries in file order (text before the first entry included,
 *	as the reference reads it: it has no patterns)
 * @n: how many
 * @keys: every pattern, grouped by the directory part of its literal
 *	prefix ("drivers/net/" for "drivers/net/phy*.c")
 * @nkeys: how many
 * @by_dir: that directory -> (first index in @keys + 1) << 32 | count,
 *	as a ``uintptr_t``
 * @arena: owns every string and array
 */
struct qu_maintainers {
	struct qu_maint_entry *v;
	size_t n;
	struct qu_maint_key *keys;
	size_t nkeys;
	struct qu_map by_dir;
	struct qu_arena arena;
};

/**
 * typedef qu_is_dir_fn - whether a path of the tree is a directory
 * @path: the path, relative to the tree's root
 * @payload: the caller's context
 */
typedef bool (*qu_is_dir_fn)(const char *path, void *payload);

/**
 * qu_maint_parse() - read a MAINTAINERS file
 * @out: filled; freed with qu_maint_fini()
 * @text: the bytes (any: never fails)
 * @len: how many
 * @is_dir: says which patterns name directories, or NULL for none
 * @payload: passed to @is_dir
 *
 * As scripts/get_maintainer.pl reads it: a line "X: value" (one capital
 * letter) is a field of the current entry, any other line that is not
 * blank and does not start with "#" starts an entry. Of the fields only
 * F: and X: are kept.
 */
void qu_maint_parse(struct qu_maintainers *out, const char *text, size_t len,
		    qu_is_dir_fn is_dir, void *payload);

/**
 * qu_maint_fini() - free a parsed MAINTAINERS
 * @m: the file
 */
void qu_maint_fini(struct qu_maintainers *m);

/**
 * qu_maint_pattern_match() - whether a file matches one F: or X: pattern
 * @glob: the pattern
 * @file: the path, relative to the tree's root, without "./"
 *
 * scripts/get_maintainer.pl's rule: "*" is any run of characters ("/"
 * included), "?" any one, "[...]" a class; the pattern matches a prefix
 * of the path; unless it ends in "/", the path must also have as many
 * "/" as the pattern, so "drivers/net/e*.c" matches no file below
 * drivers/net/phy/. Any other character is itself.
 *
 * Return: true when it matches.
 */
bool qu_maint_pattern_match(const char *glob, const char *file);

/**
 * qu_maint_match() - the entries a file belongs to
 * @out: receives the entries' indices, ascending; reset first
 * @nout: receives how many
 * @alloc: the allocated size of *@out, kept between calls
 * @m: the file
 * @path: the path, relative to the tree's root
 *
 * An entry matches when one of its F: patterns matches and none of its
 * X: patterns does.
 * Context: thread-safe; @m is only read.
 */
void qu_maint_match(uint32_t **out, size_t *nout, size_t *alloc,
		    const struct qu_maintainers *m, const char *path);

/**
 * struct qu_cover_item - a documented item, in scope or documenting an
 *	export
 * @name: the symbol
 * @kind: its kind
 * @file: the file, relative to the tree
 * @line: line of its declaration (of its comment when there is none)
 * @nparams: parameters or members
 * @undescribed: the names of those the comment does not describe
 * @nundescribed: how many
 * @in_scope: @file is one of the files in scope
 */
struct qu_cover_item {
	const char *name;
	enum qu_kind kind;
	const char *file;
	uint32_t line;
	uint32_t nparams;
	const char **undescribed;
	size_t nundescribed;
	bool in_scope;
};

/**
 * struct qu_cover_export - one EXPORT_SYMBOL*() use in scope
 * @name: the symbol
 * @macro: the macro ("EXPORT_SYMBOL_GPL", ...)
 * @file: the file, relative to the tree
 * @line: line of the use
 * @doc: index in &struct qu_cover.items of the comment that documents it
 *	(the one in the same file, else the first in path order), or -1
 */
struct qu_cover_export {
	const char *name;
	const char *macro;
	const char *file;
	uint32_t line;
	int64_t doc;
};

/**
 * struct qu_cover_row - totals of a directory or a MAINTAINERS entry
 * @name: the directory ("." for the top) or the entry's title
 * @exports: EXPORT_SYMBOL*() uses in its files
 * @documented: of those, the ones with a kernel-doc comment
 * @items: documented items (not DOC: blocks) in its files
 * @complete: of those, the ones that describe every parameter or member
 */
struct qu_cover_row {
	const char *name;
	size_t exports;
	size_t documented;
	size_t items;
	size_t complete;
};

/**
 * struct qu_cover - the coverage of a run
 * @exports: the exports in scope, sorted by file, line and name
 * @nexports: how many
 * @items: the documented items in scope, then the ones elsewhere that
 *	document an export; each group sorted by file and line
 * @nitems: how many
 * @dirs: totals per directory, sorted by name
 * @ndirs: how many
 * @maint: totals per MAINTAINERS entry with anything to count, sorted by
 *	name; none without a MAINTAINERS
 * @nmaint: how many
 * @total: the totals of the whole scope
 * @nfiles: files read (the whole tree and the scope)
 * @arena: owns everything
 */
struct qu_cover {
	struct qu_cover_export *exports;
	size_t nexports;
	struct qu_cover_item *items;
	size_t nitems;
	struct qu_cover_row *dirs;
	size_t ndirs;
	struct qu_cover_row *maint;
	size_t nmaint;
	struct qu_cover_row total;
	size_t nfiles;
	struct qu_arena arena;
};

/**
 * struct qu_cover_input - what to measure
 * @tree: every C file of the tree, relative to its root (comments are
 *	looked up in all of them)
 * @ntree: how many
 * @scope: the files whose exports and items are counted
 * @nscope: how many
 * @maint: the tree's MAINTAINERS, or NULL for no per-entry totals
 * @threads: worker threads (0: one per processor)
 */
struct qu_cover_input {
	const char *const *tree;
	size_t ntree;
	const char *const *scope;
	size_t nscope;
	const struct qu_maintainers *maint;
	unsigned threads;
};

/**
 * qu_cover_run() - read the files and count
 * @out: filled; freed with qu_cover_fini()
 * @in: the files
 * @diags: receives -Wunreadable for files that cannot be read
 *
 * Paths may start with "./", which is dropped. The result is the same
 * for any number of threads.
 */
void qu_cover_run(struct qu_cover *out, const struct qu_cover_input *in,
		  struct qu_diags *diags);

/**
 * qu_cover_fini() - free a coverage
 * @c: the coverage
 */
void qu_cover_fini(struct qu_cover *c);

/**
 * qu_cover_dump_text() - append the sorted table
 * @out: the buffer
 * @c: the coverage
 * @by_maint: one row per MAINTAINERS entry rather than per directory
 */
void qu_cover_dump_text(struct qu_buf *out, const struct qu_cover *c,
			bool by_maint);

/**
 * qu_cover_dump_json() - append the coverage as JSON Lines
 * @out: the buffer
 * @c: the coverage
 * @by_maint: also one "maintainer" record per MAINTAINERS entry
 *
 * The schema is in docs/commands/coverage.md.
 */
void qu_cover_dump_json(struct qu_buf *out, const struct qu_cover *c,
			bool by_maint);

#endif /* QU_COVER_COVER_H */
