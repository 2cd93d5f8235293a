/* SPDX-License-Identifier: MIT */
/*
 * man.h - man pages (section 9) from items
 *
 * In: the units of parsed C files (lib/kdoc/kdoc.h). Out: one man(7)
 * page per documented function, macro, struct, union, enum, typedef and
 * variable, as scripts/kernel-doc -man writes them: NAME with the brief,
 * SYNOPSIS, ARGUMENTS/MEMBERS/CONSTANTS, every section in order, the file
 * and line, and SEE ALSO for the symbols the text references. The
 * comment's Markdown and highlights become man markup; no HTML is
 * involved. Included by cmd/quire (quire man, and quire build with
 * "man: true").
 */
#ifndef QU_MAN_MAN_H
#define QU_MAN_MAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kdoc/kdoc.h"
#include "util/util.h"

/** QU_MAN_SEE_ALSO_MAX - most references listed under SEE ALSO */
#define QU_MAN_SEE_ALSO_MAX 16

/**
 * struct qu_man_opts - what every page of one run shares
 * @date: the date of the .TH line, "YYYY-MM-DD", or "" for none
 *	(qu_man_date() finds it)
 * @source: the .TH source field ("Linux 6.1", a version), or NULL for ""
 * @manual: the .TH volume title, or NULL for "Kernel API Manual"
 */
struct qu_man_opts {
	const char *date;
	const char *source;
	const char *manual;
};

/**
 * struct qu_man_page - one page of a set
 * @name: the page's name, also its file name without ".9" ("list_add",
 *	"struct_list_head"); owned by the set
 * @unit: index of the unit in the array given to qu_man_set_init()
 * @item: index of the item in that unit
 */
struct qu_man_page {
	const char *name;
	size_t unit;
	size_t item;
};

/**
 * struct qu_man_set - the pages of a run, sorted by name
 * @units: the units, not owned
 * @nunits: how many
 * @pages: the pages in strcmp() order of their names
 * @npages: how many
 * @dropped: items left without a page because another item took its
 *	name first (the same symbol documented twice)
 * @by_name: page name -> index + 1 in @pages (a ``uintptr_t``)
 * @arena: owns the names
 */
struct qu_man_set {
	const struct qu_unit *units;
	size_t nunits;
	struct qu_man_page *pages;
	size_t npages;
	size_t dropped;
	struct qu_map by_name;
	struct qu_arena arena;
};

/**
 * qu_man_page_name() - append the name of an item's page
 * @out: the buffer
 * @it: the item
 *
 * Functions, macros, typedefs and variables: the symbol ("list_add");
 * structs, unions and enums: the keyword, "_" and the tag
 * ("struct_list_head"), the name scripts/kernel-doc -man gives them with
 * "_" for its blank.
 *
 * Return: false, appending nothing, when @it gets no page: a DOC: block
 * (the reference writes them all to one page that each file overwrites),
 * or a name that is not a C identifier.
 */
bool qu_man_page_name(struct qu_buf *out, const struct qu_item *it);

/**
 * qu_man_set_init() - choose the pages of a run
 * @s: the set to fill; freed with qu_man_set_fini()
 * @units: the units, in the order their files were given; must outlive @s
 * @n: how many
 *
 * When two items want one name, the first in @units order keeps it, so
 * the set depends only on the order of the files.
 */
void qu_man_set_init(struct qu_man_set *s, const struct qu_unit *units,
		     size_t n);

/**
 * qu_man_set_fini() - free a set
 * @s: the set
 */
void qu_man_set_fini(struct qu_man_set *s);

/**
 * qu_man_render() - append one page of a set as man(7) source
 * @out: the buffer
 * @s: the set; SEE ALSO lists only pages of the set
 * @page: index in @s->pages
 * @opts: the shared fields
 *
 * Never fails; any bytes of a comment give valid, escaped roff.
 * Context: thread-safe for distinct @out.
 */
void qu_man_render(struct qu_buf *out, const struct qu_man_set *s,
		   size_t page, const struct qu_man_opts *opts);

/**
 * qu_man_write() - write every page of a set as DIR/man9/NAME.9
 * @dir: the man folder (the one MANPATH names); man9 is made in it
 * @s: the set
 * @opts: the shared fields
 * @threads: worker threads (0: one per processor)
 * @err: receives the message of the first failure
 *
 * Pages are rendered and written on the thread pool; the bytes of each
 * page depend only on the set and @opts. Files are overwritten in place
 * (quire build writes into a folder it swaps in whole); pages of
 * earlier runs that the set no longer has are left alone.
 *
 * Return: 0, or -1 when a folder or file cannot be written.
 */
int qu_man_write(const char *dir, const struct qu_man_set *s,
		 const struct qu_man_opts *opts, unsigned threads,
		 struct qu_buf *err);

/**
 * qu_man_date() - the date for .TH, never from the clock
 * @out: receives "YYYY-MM-DD" (UTC), or nothing when there is none
 * @path: a file or folder of the tree, to find its git work tree
 * @err: receives the message when SOURCE_DATE_EPOCH is bad
 *
 * SOURCE_DATE_EPOCH when set, else the commit time of HEAD of the git
 * work tree holding @path, else no date.
 *
 * Return: 0, or -1 when SOURCE_DATE_EPOCH is not a number of seconds.
 */
int qu_man_date(struct qu_buf *out, const char *path, struct qu_buf *err);

/**
 * struct qu_man_input - C files read and parsed for a man run
 * @units: one per file, in the order given; each unit's @path is the
 *	path as given (owned by the caller's list)
 * @n: how many
 * @diags: every file's diagnostics, sorted (unreadable files included),
 *	less -Wno-structured-comments
 *
 * Exports count across the files: a header's item is "exported" when
 * any given file has EXPORT_SYMBOL*() of its name, as in the site.
 */
struct qu_man_input {
	struct qu_unit *units;
	size_t n;
	struct qu_diags diags;
};

/**
 * qu_man_input_read() - read and parse C files on the thread pool
 * @out: the input to fill; freed with qu_man_input_fini()
 * @paths: the files; must outlive @out
 * @n: how many
 * @threads: worker threads (0: one per processor)
 *
 * Never fails: an unreadable file is a -Wunreadable diagnostic and an
 * empty unit. The result is the same for any @threads.
 */
void qu_man_input_read(struct qu_man_input *out, const char *const *paths,
		       size_t n, unsigned threads);

/**
 * qu_man_input_fini() - free an input
 * @in: the input
 */
void qu_man_input_fini(struct qu_man_input *in);

#endif /* QU_MAN_MAN_H */
