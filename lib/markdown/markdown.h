/* SPDX-License-Identifier: MIT */
/*
 * markdown.h - Markdown to libxml2 nodes, with links resolved on the way
 *
 * In: Markdown text (a page or a comment's description) and the symbol
 * graph. Out: libxml2 nodes appended under a parent element, made by
 * walking cmark-gfm's AST: no HTML string is rendered and parsed again,
 * so everything is escaped by construction. On the way it turns the
 * kernel-doc highlights and the automarkup forms into links, resolves
 * explicit links against the graph (-Wbroken-link, -Wambiguous-ref),
 * gives headings their ids, turns GitHub alerts into admonitions and
 * reStructuredText "::" literal blocks into code blocks, drops
 * javascript: and data: targets and highlights C code. Included by
 * lib/render and cmd/quire.
 */
#ifndef QU_MARKDOWN_MARKDOWN_H
#define QU_MARKDOWN_MARKDOWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libxml/tree.h>

#include "graph/graph.h"
#include "site/site.h"
#include "source/source.h"
#include "util/util.h"

struct qu_md;

/**
 * qu_md_new() - make the Markdown context of one build
 * @allow_html: pass raw HTML through instead of escaping it
 *
 * The caller must have called cmark_gfm_core_extensions_ensure_registered()
 * and xmlInitParser() before any thread starts. Parsing is serialised
 * behind a mutex of this context (cmark-gfm keeps a process-global table
 * during inline parsing); walking the AST and building nodes run in
 * parallel.
 *
 * Return: the context; the caller frees it with qu_md_free().
 */
struct qu_md *qu_md_new(bool allow_html);

/**
 * qu_md_free() - free a Markdown context
 * @md: the context, or NULL
 */
void qu_md_free(struct qu_md *md);

/**
 * qu_md_allow_html() - set whether raw HTML passes through
 * @md: the context
 * @allow: the site's allow_html setting
 *
 * The site's configuration is read through the context's reader
 * (qu_md_blocks()), so it is known only after: set it before rendering.
 */
void qu_md_allow_html(struct qu_md *md, bool allow);

/**
 * qu_md_blocks() - the fenced blocks of a page's text
 * @md: the context (a struct qu_md *; void for struct qu_site_reader)
 * @text: the page's Markdown
 * @len: its length
 * @fn: called with each fenced block, in order
 * @payload: passed to @fn
 *
 * What lib/site finds its directives among, read as qu_md_render() reads
 * the page: a fence inside a list, a quote or another block is marked
 * nested (a directive must be at the top level).
 */
void qu_md_blocks(void *md, const char *text, size_t len,
		  void (*fn)(void *payload, const struct qu_site_block *b),
		  void *payload);

/**
 * qu_md_page_headings() - the headings of a page, with their ids
 * @md: the context (a struct qu_md *; void for struct qu_site_reader)
 * @page: the page, its parts split
 * @fn: called with each heading of its Markdown parts, in page order:
 *	level, plain text, id (GitHub's slug, "-1", "-2" after repeats,
 *	unique in the page) and 1-based line in the page's file
 * @payload: passed to @fn
 *
 * The ids qu_md_render() writes are the ones lib/site kept from this.
 */
void qu_md_page_headings(void *md, const struct qu_page *page,
			 void (*fn)(void *payload, unsigned level,
				    const char *text, const char *id,
				    uint32_t line),
			 void *payload);

/**
 * qu_md_runs() - the runs of a text where references become links
 * @md: the context (a struct qu_md *; void for struct qu_graph_reader)
 * @text: Markdown (a page part, or a comment's text when @comment)
 * @len: its length
 * @comment: parse as a comment is rendered
 * @fn: called with each run, in text order
 * @payload: passed to @fn
 *
 * The reader lib/build gives the graph (struct qu_graph_reader): text
 * outside code, raw HTML, headings and link text, as qu_md_render() walks
 * it, consecutive text nodes joined.
 * Context: thread-safe (parsing takes the context's mutex).
 */
void qu_md_runs(void *md, const char *text, size_t len, bool comment,
		qu_graph_run_fn fn, void *payload);

/**
 * qu_md_slug() - append a heading's id as GitHub makes it
 * @out: the buffer
 * @text: the heading's plain text
 * @len: its length
 *
 * Lower case, spaces to "-", other punctuation but "-" and "_" dropped.
 */
void qu_md_slug(struct qu_buf *out, const char *text, size_t len);

/**
 * struct qu_md_ctx - where one piece of Markdown is rendered
 * @md: the build's context
 * @g: the graph links are resolved against
 * @doc: the document new nodes belong to
 * @diags: receives warnings
 * @path: the file named in warnings
 * @from: the page, and the item being described if any
 * @comment: text from a kernel-doc comment: apply the highlights
 * @heading_min: the smallest heading level to emit (comments use 5 so
 *	that their headings do not compete with the page's)
 * @next_heading: the index in the page's headings of the next Markdown
 *	heading; advanced as headings are emitted (pages only)
 * @depth: how deep the walk is; 0 when a call starts
 * @col: the column of the node being walked, for warnings
 */
struct qu_md_ctx {
	struct qu_md *md;
	const struct qu_graph *g;
	xmlDocPtr doc;
	struct qu_diags *diags;
	const char *path;
	struct qu_from from;
	bool comment;
	unsigned heading_min;
	size_t next_heading;
	unsigned depth;
	uint32_t col;
};

/**
 * qu_md_render() - render Markdown under @parent
 * @ctx: the context
 * @parent: the element the blocks are appended to
 * @text: the Markdown
 * @len: its length
 * @line: the 1-based line of @text's first line in @ctx->path
 *
 * Context: thread-safe for distinct @ctx->doc (parsing takes the mutex).
 */
void qu_md_render(struct qu_md_ctx *ctx, xmlNodePtr parent, const char *text,
		  size_t len, uint32_t line);

/**
 * qu_md_render_inline() - render one line of Markdown without a paragraph
 * @ctx: the context
 * @parent: the element the inline nodes are appended to
 * @text: the Markdown (an item's brief description)
 * @len: its length
 * @line: the 1-based line of @text
 */
void qu_md_render_inline(struct qu_md_ctx *ctx, xmlNodePtr parent,
			 const char *text, size_t len, uint32_t line);

/**
 * qu_md_highlight_c() - append C code as text and tok-* spans
 * @doc: the document
 * @parent: usually a <code> element
 * @code: the C text
 * @len: its length
 *
 * Classes: tok-kw (keywords), tok-type (built-in types and type-like
 * macros), tok-fn (a name before "("), tok-str, tok-num, tok-com,
 * tok-pp (preprocessor lines), tok-op. Never fails on any bytes.
 */
void qu_md_highlight_c(xmlDocPtr doc, xmlNodePtr parent, const char *code,
		       size_t len);

/**
 * typedef qu_md_piece_fn - receives one piece of highlighted code
 * @payload: the caller's context
 * @cls: the tok-* class, or NULL for plain text
 * @href: where the piece links (a <a class="qu-xref">), or NULL
 * @s: the piece's bytes, as in the code (not yet made valid UTF-8)
 * @len: their length
 */
typedef void (*qu_md_piece_fn)(void *payload, const char *cls,
			       const char *href, const char *s, size_t len);

/**
 * qu_md_highlight_decl() - highlight a declaration, linking known types
 * @ctx: the context (the graph and the page the links are on)
 * @code: the C text
 * @len: its length
 * @fn: called with each piece, in order; the pieces cover @code
 * @payload: passed to @fn
 *
 * As qu_md_highlight_c() cuts the code, and the name after struct, union
 * or enum, or a typedef's name, links to its symbol when the graph has
 * it. Plain pieces next to each other come as one. The caller makes the
 * markup, so that a page's thousands of declarations need not be nodes.
 */
void qu_md_highlight_decl(struct qu_md_ctx *ctx, const char *code,
			  size_t len, qu_md_piece_fn fn, void *payload);

/**
 * qu_md_raw() - append markup that the serializer writes as it is
 * @doc: the document
 * @parent: where
 * @s: the markup (made valid UTF-8 first, as every text)
 * @len: its length
 *
 * For raw HTML a site allows, and for markup lib/render writes as text
 * rather than as nodes, escaped as the serializer would have.
 */
void qu_md_raw(xmlDocPtr doc, xmlNodePtr parent, const char *s, size_t len);

/**
 * qu_md_fix_text() - text as a text node holds it: valid UTF-8
 * @fixed: a buffer for the fixed copy
 * @s: the bytes
 * @len: their length; updated
 *
 * Each byte that starts no valid UTF-8 sequence, and each control
 * character but tab, newline and carriage return, becomes U+FFFD, as
 * every text lib/markdown adds to a document.
 *
 * Return: @s when it needed nothing, else @fixed's bytes.
 */
const char *qu_md_fix_text(struct qu_buf *fixed, const char *s, size_t *len);

/**
 * qu_md_attr() - set an attribute of an element, as xmlSetProp() does
 * @n: the element
 * @name: the attribute's name
 * @value: its value
 *
 * The same attribute as xmlSetProp() makes, in the same place, but a new
 * one is not entered in the document's table of ids (xmlAddID()):
 * nothing looks ids up through libxml2, and the table cost a hash table
 * a page and an entry an id. Dies when out of memory.
 *
 * Context: thread-safe for distinct documents.
 */
void qu_md_attr(xmlNodePtr n, const char *name, const char *value);

/* the slots of a struct qu_md_names */
#define QU_MD_NAMES 128

/**
 * struct qu_md_names - the element names a document last interned
 * @key: the name as a caller gave it (by pointer: usually a literal)
 * @name: the same name in the document's dictionary
 *
 * A renderer that makes many elements of a document with a dictionary
 * points the document's _private at one of these, zeroed, for as long as
 * it makes them: qu_md_el() and qu_md_attr() then look a name up in the
 * dictionary once per slot, not once per element or attribute. Slots
 * are by the pointer, checked by the bytes, so a buffer that held another
 * name is only a miss.
 */
struct qu_md_names {
	const char *key[QU_MD_NAMES];
	const xmlChar *name[QU_MD_NAMES];
};

/**
 * qu_md_el() - a new element
 * @doc: the document; with a dictionary and a struct qu_md_names at its
 *	_private, the name is taken from there
 * @parent: the element it becomes the last child of, or NULL for none
 * @name: its name
 *
 * The element xmlNewDocNode() makes. Dies when out of memory.
 *
 * Return: the element.
 * Context: thread-safe for distinct documents.
 */
xmlNodePtr qu_md_el(xmlDocPtr doc, xmlNodePtr parent, const char *name);

/**
 * qu_md_text_node() - a new text node of @doc holding @len bytes of @s
 * @doc: the document
 * @s: the text, taken as it is (the caller has made it valid UTF-8)
 * @len: its length
 *
 * What xmlNewDocTextLen() makes, but a text shorter than 16 bytes is kept
 * in the node itself, as libxml2's parser keeps it with XML_PARSE_COMPACT
 * (over the properties and nsDef fields, which a text node does not use;
 * libxml2 frees and extends such a text knowingly): most texts and
 * attribute values of a page are that short, and each cost a malloc()
 * and a free(). Dies when out of memory.
 *
 * Return: the node, linked nowhere.
 * Context: thread-safe for distinct documents.
 */
xmlNodePtr qu_md_text_node(xmlDocPtr doc, const char *s, size_t len);

/**
 * qu_md_url_is_safe() - whether a link target may be written
 * @url: the target
 *
 * Return: false for javascript:, vbscript: and data: (any case, with
 * leading blanks or control bytes), true otherwise.
 */
bool qu_md_url_is_safe(const char *url);

#endif /* QU_MARKDOWN_MARKDOWN_H */
