/* SPDX-License-Identifier: MIT */
/*
 * kdoc.h - the kernel-doc grammar: one C file in, its items out
 *
 * In: a struct qu_source (lib/source/source.h). Out: a struct qu_unit
 * holding the file's items (struct qu_item) in source order, each with
 * its kind, name, brief, parameters or members, sections and normalized
 * declaration, plus the diagnostics of the cross-checks between comment
 * and declaration. Later stages (graph, markdown, render, site) include
 * this header; the data model below is the contract between them.
 */
#ifndef QU_KDOC_KDOC_H
#define QU_KDOC_KDOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

/**
 * enum qu_kind - what a kernel-doc comment documents
 * @QU_KIND_FUNCTION: a function prototype or definition
 * @QU_KIND_MACRO: a #define, function-like or object-like
 * @QU_KIND_STRUCT: a struct and its members
 * @QU_KIND_UNION: a union and its members
 * @QU_KIND_ENUM: an enum and its values
 * @QU_KIND_TYPEDEF: a typedef, including function-pointer typedefs
 * @QU_KIND_VAR: a variable
 * @QU_KIND_DOC: a ``DOC:`` block of free text
 * @QU_KIND__COUNT: the number of kinds
 *
 * The names and titles of each kind are the rows of kinds.def, in this
 * order; kdoc.c checks at compile time that the two agree.
 */
enum qu_kind {
	QU_KIND_FUNCTION,
	QU_KIND_MACRO,
	QU_KIND_STRUCT,
	QU_KIND_UNION,
	QU_KIND_ENUM,
	QU_KIND_TYPEDEF,
	QU_KIND_VAR,
	QU_KIND_DOC,
	QU_KIND__COUNT
};

/**
 * qu_kind_name() - the kind's name in JSON output ("function", "struct", …)
 * @kind: the kind
 *
 * Return: static storage.
 */
const char *qu_kind_name(enum qu_kind kind);

/**
 * qu_kind_title() - the kind's name for people ("Function", "Struct", …)
 * @kind: the kind
 *
 * Return: static storage.
 */
const char *qu_kind_title(enum qu_kind kind);

/**
 * struct qu_param - one parameter, member or enum value of an item
 * @name: the name; for nested members the dotted path (``bar.st1.memb1``);
 *	``...`` for the variadic parameter
 * @type: the C type text, normalized to one line; "" for enum values and
 *	macro parameters
 * @desc: the Markdown description, comment prefix removed; "" when the
 *	comment does not describe it
 * @line: 1-based line of the description, or of the declaration when
 *	undescribed
 */
struct qu_param {
	const char *name;
	const char *type;
	const char *desc;
	uint32_t line;
};

/**
 * struct qu_section - one titled section of an item's description
 * @title: the title as the reference names it ("Description", "Return",
 *	"Context", "Note", …)
 * @body: the Markdown text, comment prefix removed
 * @line: 1-based line of the first line of @body
 */
struct qu_section {
	const char *title;
	const char *body;
	uint32_t line;
};

/**
 * struct qu_item - one documented symbol or DOC: block
 * @kind: what it is
 * @name: the symbol's name, or the DOC: block's title
 * @brief: the short description on the comment's first line; may be ""
 * @decl: the declaration as one normalized line; "" for DOC: blocks
 * @params: parameters (functions, macros, function-pointer typedefs;
 *	none for "void"; a variadic one is named "..."), the members the
 *	comment describes (structs, unions; nested ones with dotted names,
 *	as scripts/kernel-doc lists them) or values (enums), in declaration
 *	order
 * @nparams: how many
 * @sections: the titled sections, in comment order
 * @nsections: how many
 * @line: 1-based line of the comment's opening
 * @decl_line: 1-based line where the declaration starts; 0 for DOC:
 *
 * Function-pointer typedefs are %QU_KIND_TYPEDEF with @params (the
 * reference renders them as macros); #define lines and prototypes with
 * no return type are %QU_KIND_MACRO.
 * @exported: the EXPORT_SYMBOL* macro that exports @name in the file (or
 *	the --export-file files), or NULL when it is not exported
 *
 * All strings live in the unit's arena and are NUL-terminated UTF-8.
 */
struct qu_item {
	enum qu_kind kind;
	const char *name;
	const char *brief;
	const char *decl;
	struct qu_param *params;
	size_t nparams;
	struct qu_section *sections;
	size_t nsections;
	uint32_t line;
	uint32_t decl_line;
	const char *exported;
};

/**
 * struct qu_unit - the items of one source file, owning their memory
 * @path: the file as the user named it (relative to the source tree)
 * @hash: the 128-bit hash (XXH3-128) of the file's bytes, the caches'
 *	content key; stable across runs and machines
 * @arena: owns every string and array of the items
 * @items: the items in source order
 * @nitems: how many
 * @diags: the diagnostics of this file, unsorted
 * @ncomments: how many kernel-doc style comments the file holds
 */
struct qu_unit {
	const char *path;
	struct qu_hash128 hash;
	struct qu_arena arena;
	struct qu_item *items;
	size_t nitems;
	struct qu_diags diags;
	size_t ncomments;
};

struct qu_source;

/**
 * struct qu_kdoc_opts - how to parse
 * @verbose: also give the warnings scripts/kernel-doc gives only with -v
 *	(contents before sections, missing return description, …)
 */
struct qu_kdoc_opts {
	bool verbose;
};

/**
 * qu_kdoc_parse() - turn one source file into its items
 * @out: the unit to fill; the caller passes it zeroed and frees it with
 *	qu_unit_fini()
 * @src: the source; @out->path points at @src->path, so @src must live
 *	as long as @out's diagnostics are printed
 * @opts: options, or NULL for the defaults
 *
 * Never fails: bad input becomes diagnostics in @out->diags.
 * Context: thread-safe for distinct @out.
 */
void qu_kdoc_parse(struct qu_unit *out, const struct qu_source *src,
		   const struct qu_kdoc_opts *opts);

/**
 * qu_unit_fini() - free a unit's items and diagnostics
 * @u: the unit
 */
void qu_unit_fini(struct qu_unit *u);

/**
 * qu_kdoc_dump_json() - append a unit's items as JSON Lines
 * @out: the buffer
 * @u: the unit
 *
 * One object per item, in the schema documented in docs/json.md.
 */
void qu_kdoc_dump_json(struct qu_buf *out, const struct qu_unit *u);

/**
 * qu_kdoc_dump_markdown() - append a unit's items as readable Markdown
 * @out: the buffer
 * @u: the unit
 */
void qu_kdoc_dump_markdown(struct qu_buf *out, const struct qu_unit *u);


/**
 * enum qu_select_mode - which items a selection keeps by export status
 * @QU_SELECT_ALL: every item (the reference's default)
 * @QU_SELECT_EXPORT: only exported functions, structs, ... (-export)
 * @QU_SELECT_INTERNAL: only items that are not exported (-internal)
 */
enum qu_select_mode {
	QU_SELECT_ALL,
	QU_SELECT_EXPORT,
	QU_SELECT_INTERNAL,
};

/**
 * struct qu_kdoc_select - which items to output, as scripts/kernel-doc's
 *	-export, -internal, -function, -nosymbol and -no-doc-sections choose
 * @mode: the export filter
 * @identifiers: names of symbols or DOC: titles to keep (-function);
 *	none means all
 * @nidentifiers: how many
 * @no_identifiers: names of symbols to drop (-nosymbol)
 * @nno_identifiers: how many
 * @doc: keep only the DOC: block of this title (``:doc:``), or NULL
 * @no_doc_sections: drop every DOC: block (-no-doc-sections)
 * @exported: symbol name -> EXPORT_SYMBOL* macro name (a ``const char *``),
 *	from every given file and every --export-file; only read, may be
 *	NULL when @mode is %QU_SELECT_ALL
 *
 * As in the reference, -export and -internal never output DOC: blocks,
 * and neither does a list of @identifiers unless it names the DOC: title.
 */
struct qu_kdoc_select {
	enum qu_select_mode mode;
	const char *const *identifiers;
	size_t nidentifiers;
	const char *const *no_identifiers;
	size_t nno_identifiers;
	const char *doc;
	bool no_doc_sections;
	const struct qu_map *exported;
};

/**
 * qu_kdoc_selected() - whether a selection keeps an item
 * @it: the item
 * @sel: the selection, or NULL to keep everything
 *
 * Context: thread-safe; nothing is written.
 * Return: true when @it is to be output.
 */
bool qu_kdoc_selected(const struct qu_item *it,
		      const struct qu_kdoc_select *sel);

/**
 * qu_kdoc_add_exports() - add a source's EXPORT_SYMBOL*() uses to a map
 * @map: symbol name -> macro name; keys and values point into @src, which
 *	must outlive @map
 * @src: the source
 *
 * Used to build &struct qu_kdoc_select.exported from the given files and
 * the --export-file files.
 */
void qu_kdoc_add_exports(struct qu_map *map, const struct qu_source *src);

#endif /* QU_KDOC_KDOC_H */
