/* SPDX-License-Identifier: MIT */
/*
 * rst.h - the reStructuredText reader (rst stage)
 *
 * In: the bytes of one reST page and its path. Out: a document tree owned
 * by one arena, the parse docutils' own parser would give before its
 * transforms run (references unresolved, the title not promoted), with
 * Sphinx's and the kernel's directives and roles kept generically; every
 * node carries its byte offset into the input. Bad input never stops the
 * parse: it gives diagnostics (-Wrst-*) and the text stays in the tree.
 * qu_rst_site_read() gives lib/site what it needs of a page (directives,
 * sections, labels) in the page model's own terms. May be included by the
 * stages after site/ (graph, markdown, render, build) and by cmd/.
 */
#ifndef QU_RST_RST_H
#define QU_RST_RST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

/*
 * enum qu_rst_kind - one enumerator per row of lib/rst/nodes.def, named
 * QU_RST_<ID>, then QU_RST__COUNT.
 */
enum qu_rst_kind {
#define RST_NODE(id, tag) QU_RST_##id,
#include "nodes.def"
#undef RST_NODE
	QU_RST__COUNT
};

/**
 * struct qu_rst_attr - one attribute of a node, docutils' way
 * @name: the attribute's name ("ids", "refuri", "enumtype", ...)
 * @value: its value; list-valued attributes (ids, names, classes,
 *	dupnames) hold their items separated by spaces, a space or a
 *	backslash inside an item escaped by a backslash, as pseudo-XML
 *	prints them
 * @next: the next attribute, in the order they were set
 */
struct qu_rst_attr {
	const char *name;
	const char *value;
	struct qu_rst_attr *next;
};

/**
 * struct qu_rst_node - one node of a document tree
 * @kind: what it is
 * @off: byte offset in the input where its source begins
 * @text: for QU_RST_TEXT, the text (escapes removed), NUL-terminated
 * @len: the length of @text
 * @attrs: the attributes, or NULL
 * @parent: the enclosing node (NULL for the document)
 * @first: the first child
 * @last: the last child
 * @next: the next sibling
 *
 * Everything lives in the document's arena.
 */
struct qu_rst_node {
	enum qu_rst_kind kind;
	uint32_t off;
	const char *text;
	size_t len;
	struct qu_rst_attr *attrs;
	struct qu_rst_node *parent, *first, *last, *next;
};

/**
 * struct qu_rst_doc - a parsed reST document
 * @arena: owns every node, attribute and string of the tree
 * @root: the QU_RST_DOCUMENT node
 * @path: the path given to qu_rst_parse(), copied into @arena
 * @src: the input bytes (not owned: they must outlive the document)
 * @len: their length
 * @lines: the line index of @src, for turning offsets into line:col
 * @auto_ids: with QU_RST_SPHINX_IDS, how many "idN" ids the parse gave
 *	(Sphinx's transforms go on counting from there)
 */
struct qu_rst_doc {
	struct qu_arena arena;
	struct qu_rst_node *root;
	const char *path;
	const char *src;
	size_t len;
	struct qu_lines lines;
	uint32_t auto_ids;
};

/*
 * QU_RST_SPHINX_IDS - ids made up for nodes without a name, or for a
 * repeated name, are "id1", "id2", ... from one counter, as Sphinx
 * configures docutils (auto_id_prefix "id"), instead of docutils' own
 * default ("footnote-reference-1", "usage-1").
 */
#define QU_RST_SPHINX_IDS 1u

/*
 * QU_RST_INLINE - the whole text is the inline content of one paragraph,
 * blank lines and indentation kept: a parsed-literal block's, which
 * docutils parses with inline_text().
 */
#define QU_RST_INLINE 2u

/**
 * qu_rst_parse() - parse one reST document
 * @diags: receives the diagnostics (path:line:col, -Wrst-*)
 * @path: the file's path as diagnostics should print it
 * @src: the bytes; need not be NUL-terminated, may hold anything
 * @len: how many (at most 4 GiB - 1; longer input is cut with a warning)
 *
 * Never fails on bad input: what cannot be parsed stays in the tree as
 * text or a literal block, with a diagnostic.
 *
 * Context: thread-safe for distinct @diags.
 * Return: the document; free it with qu_rst_free().
 */
struct qu_rst_doc *qu_rst_parse(struct qu_diags *diags, const char *path,
				const char *src, size_t len);

/**
 * qu_rst_parse_ex() - qu_rst_parse() with options
 * @diags: as for qu_rst_parse()
 * @path: likewise
 * @src: likewise
 * @len: likewise
 * @flags: QU_RST_SPHINX_IDS, QU_RST_INLINE, both or 0
 *
 * Context: thread-safe for distinct @diags.
 * Return: the document; free it with qu_rst_free().
 */
struct qu_rst_doc *qu_rst_parse_ex(struct qu_diags *diags, const char *path,
				   const char *src, size_t len, unsigned flags);

/**
 * qu_rst_free() - free a document and its whole tree
 * @doc: the document, or NULL
 */
void qu_rst_free(struct qu_rst_doc *doc);

/**
 * qu_rst_kind_name() - the tag name of a node kind
 * @kind: the kind
 *
 * Return: docutils' element name ("paragraph"), static storage.
 */
const char *qu_rst_kind_name(enum qu_rst_kind kind);

/**
 * qu_rst_attr() - find an attribute of a node
 * @n: the node
 * @name: the attribute's name
 *
 * Return: its value, or NULL when @n does not have it.
 */
const char *qu_rst_attr(const struct qu_rst_node *n, const char *name);

/**
 * qu_rst_dump() - print a tree as docutils' pseudo-XML
 * @out: the text is appended here
 * @doc: the document
 *
 * The form of "python3 -m docutils --writer=pseudoxml" on the parse tree
 * (attributes sorted by name, four spaces a level), so goldens can be
 * made by docutils and compared line for line.
 */
void qu_rst_dump(struct qu_buf *out, const struct qu_rst_doc *doc);

/**
 * qu_rst_plain() - append the plain text below a node
 * @out: the buffer
 * @n: the node (a title, a term, a directive's argument)
 */
void qu_rst_plain(struct qu_buf *out, const struct qu_rst_node *n);

/**
 * qu_rst_attr_item() - one item of a list-valued attribute
 * @out: reset, then receives the item, escapes removed
 * @n: the node
 * @name: the attribute ("ids", "names", "classes")
 * @index: which item, from 0
 *
 * Return: true when @n has that item.
 */
bool qu_rst_attr_item(struct qu_buf *out, const struct qu_rst_node *n,
		      const char *name, size_t index);

/**
 * qu_rst_c_decl_id() - the id of one signature of a C-domain directive
 * @out: reset, then receives "c.NAME" as Sphinx's C domain writes it
 *	("c.NS.NAME" in a namespace), or "" when that signature names
 *	nothing
 * @d: a directive node (c:function, c:macro, c:type, c:struct, ...)
 * @index: which signature (one a line of the argument), from 0
 * @ns: the c:namespace in force where @d stands ("V4L", "DTV.fe"), or
 *	NULL in the global scope
 *
 * The name is the identifier before "(" in a function or function-like
 * macro, else the last identifier of the signature.
 * Return: false when @d is no C declaration or has no such signature.
 */
bool qu_rst_c_decl_id(struct qu_buf *out, const struct qu_rst_node *d,
		      size_t index, const char *ns);

/**
 * qu_rst_c_namespace() - the scope a c:namespace directive sets
 * @out: receives the scope ("V4L"), or is left empty for the global one
 *	("NULL" and "0" reset it, as in Sphinx's C domain)
 * @d: a directive node
 *
 * Return: true when @d is a c:namespace directive.
 */
bool qu_rst_c_namespace(struct qu_buf *out, const struct qu_rst_node *d);

/**
 * qu_rst_name_id() - the id docutils gives an explicit name
 * @out: reset, then receives make_id() of @name (docutils' rule: lower
 *	case, accents dropped, runs of other characters as one hyphen)
 * @name: a :name: option's value
 * @len: its length
 */
void qu_rst_name_id(struct qu_buf *out, const char *name, size_t len);

/**
 * qu_rst_term_id() - the id Sphinx gives a glossary term
 * @out: reset, then receives "term-NAME": Sphinx's make_id() of
 *	"term-" and the term (sphinx/util/nodes.py), case, dots and
 *	underscores kept, other runs of characters as one hyphen
 * @term: the term's text
 * @len: its length
 *
 * A term defined twice on a page gets the same id, where Sphinx numbers
 * the second ("term-1").
 */
void qu_rst_term_id(struct qu_buf *out, const char *term, size_t len);

/**
 * qu_rst_norm_name() - a label or term as Sphinx looks it up
 * @out: receives (appended) @s in lower case (ASCII), runs of blanks as
 *	one space, none at either end
 * @s: the name
 * @len: its length
 */
void qu_rst_norm_name(struct qu_buf *out, const char *s, size_t len);

/**
 * qu_rst_term_key() - the label name under which a glossary term is found
 * @out: reset, then receives "T:" and the term in lower case, blanks
 *	joined: no reST label (always lower case) can take it, and :term:
 *	finds a term in any case, as Sphinx's fallback does
 * @term: the term, or the target of a :term: role
 * @len: its length
 */
void qu_rst_term_key(struct qu_buf *out, const char *term, size_t len);

/**
 * qu_rst_glossary_term() - whether a line of a glossary's content is a term
 * @term_len: receives the length of the term, a classifier
 *	(" : classifier") and trailing blanks left out
 * @line: the line, as the directive's content keeps it (dedented)
 * @len: its length
 *
 * Return: true for a term (a line not indented and not blank); the
 * indented lines after it are its definition.
 */
bool qu_rst_glossary_term(size_t *term_len, const char *line, size_t len);

/**
 * qu_rst_is_auto_id() - whether @id is one docutils made up ("id12") for
 *	a node without a name of its own, not a name's
 * @id: an id
 */
bool qu_rst_is_auto_id(const char *id);

/**
 * qu_rst_only_true() - whether an "only" directive's content is built
 * @expr: the directive's argument
 *
 * Sphinx's tags of an HTML build: "html", "builder_html" and
 * "format_html" are true, every other word ("subproject", "latex") is
 * false, as in a build of the whole Documentation/ or of one folder
 * named on sphinx-build's command line.
 * Return: the expression's value.
 */
bool qu_rst_only_true(const char *expr);

/**
 * qu_rst_ifconfig_true() - whether an "ifconfig" directive's content is
 *	built
 * @expr: the directive's argument, a Python expression Sphinx evaluates
 *	over conf.py's values and the builder's name
 *
 * What the kernel writes: "builder == 'html'" and "builder != 'latex'",
 * joined with "and", "or", "not" and parentheses; the builder is "html".
 * An expression naming anything else cannot be told here and counts as
 * true, so its content stays visible.
 * @unknown: if not NULL, receives whether that was so
 * Return: the expression's value.
 */
bool qu_rst_ifconfig_true(const char *expr, bool *unknown);

/**
 * qu_rst_cond_false() - whether @d is an "only" or "ifconfig" directive
 *	whose content an HTML build leaves out
 * @d: any node
 * @tmp: scratch space
 *
 * Return: true when @d's content is left out.
 */
bool qu_rst_cond_false(const struct qu_rst_node *d, struct qu_buf *tmp);

/**
 * qu_rst_labelled() - what a label (".. _name:") names
 * @t: a target node
 *
 * The next sibling that is not a target, or, for a target closing a
 * section, the section after it (as docutils' PropagateTargets finds it).
 * Return: that node, or NULL.
 */
const struct qu_rst_node *qu_rst_labelled(const struct qu_rst_node *t);

struct qu_site_rst_sink;

/**
 * qu_rst_site_read() - read a reST page for lib/site
 * @ctx: unused (the reader of struct qu_site_reader)
 * @diags: receives the parse's diagnostics
 * @path: the page's path, as diagnostics print it; must outlive @diags
 * @text: its bytes
 * @len: how many
 * @sink: told each kernel-doc and toctree directive, each section (its
 *	level, title and first id) and each label (".. _name:"), in page
 *	order; then given the parse itself if it keeps it (its keep())
 * @payload: passed to @sink's functions
 *
 * Context: thread-safe for distinct @diags.
 */
void qu_rst_site_read(void *ctx, struct qu_diags *diags, const char *path,
		      const char *text, size_t len,
		      const struct qu_site_rst_sink *sink, void *payload);

#endif /* QU_RST_RST_H */
