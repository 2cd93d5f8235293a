/* SPDX-License-Identifier: MIT */
/*
 * graph.h - the symbol graph: where every item lives and who links to it
 *
 * In: the site's pages (lib/site) and the parsed units (lib/kdoc). Out: a
 * struct qu_graph that places each item on pages (one home page and one
 * anchor each, Sphinx C-domain style: "c.list_add"), indexes items,
 * members, enum constants and page headings by C namespace, resolves
 * references (same file, same folder, header or exported, else the best
 * candidate, reported as ambiguous) and records back-references. It also
 * owns the scanner of the kernel-doc highlight and automarkup patterns,
 * so that the back-references it counts and the links lib/markdown draws
 * agree. Included by lib/markdown, lib/render and cmd/quire.
 */
#ifndef QU_GRAPH_GRAPH_H
#define QU_GRAPH_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kdoc/kdoc.h"
#include "site/site.h"
#include "source/source.h"
#include "util/util.h"

/**
 * enum qu_ns - the namespaces of C, plus one for page anchors
 * @QU_NS_ORD: functions, macros, variables, typedefs, enum constants
 * @QU_NS_TAG: struct, union and enum tags
 * @QU_NS_MEMBER: members, keyed "tag.member"
 */
enum qu_ns {
	QU_NS_ORD,
	QU_NS_TAG,
	QU_NS_MEMBER,
};

/**
 * struct qu_sym - one linkable symbol
 * @name: the name ("list_add"; for members "tag.member")
 * @ns: its namespace
 * @kind: the kind of the item (for members and constants: of the
 *	struct, union or enum holding them)
 * @unit: the unit of the item
 * @item: the item's index in its unit
 * @param: the member or constant's index in the item, or QU_NONE
 * @page: the home page, or QU_NONE when no page shows the item
 * @anchor: the element id on @page
 * @next: the next symbol with the same namespace and name, or QU_NONE
 * @first: the first symbol of that namespace and name (itself when it
 *	is the first)
 * @refs: back-references: indices into &qu_graph.refs, sorted
 * @nrefs: how many
 */
struct qu_sym {
	const char *name;
	enum qu_ns ns;
	enum qu_kind kind;
	uint32_t unit;
	uint32_t item;
	uint32_t param;
	uint32_t page;
	const char *anchor;
	uint32_t next;
	uint32_t first;
	uint32_t *refs;
	uint32_t nrefs;
};

/**
 * struct qu_placed - one item shown on a page
 * @unit: its unit
 * @item: its index in the unit
 * @sym: its symbol (QU_NONE for DOC: blocks)
 * @anchor: its id on this page
 * @home: this page is its home; otherwise the page links to the home
 */
struct qu_placed {
	uint32_t unit;
	uint32_t item;
	uint32_t sym;
	const char *anchor;
	bool home;
};

/**
 * struct qu_referrer - where a reference comes from
 * @page: the page holding it
 * @sym: the item whose comment holds it, or QU_NONE for page text
 */
struct qu_referrer {
	uint32_t page;
	uint32_t sym;
};

/**
 * struct qu_graph_exports - the EXPORT_SYMBOL*() uses of one unit's file
 * @v: the uses
 * @n: how many
 */
struct qu_graph_exports {
	const struct qu_export *v;
	size_t n;
};

/**
 * struct qu_placed_refs - what one placed item's comment refers to
 * @unit: the content hash of its unit when resolved
 * @v: the symbols, in the comment's order (itself left out)
 * @n: how many
 * @ok: @v holds them
 * @borrowed: @v points into the graph's @map (read only), not owned
 */
struct qu_placed_refs {
	struct qu_hash128 unit;
	uint32_t *v;
	uint32_t n;
	bool ok;
	bool borrowed;
};

/**
 * struct qu_graph - symbols, placements and references of a whole site
 * @site: the site (not owned)
 * @units: the units, indexed like the site's sources (not owned)
 * @nunits: how many
 * @syms: the symbols
 * @nsyms: how many
 * @sym_alloc: how many allocated
 * @placed: for page p and part k, the items shown are
 *	@placed[@part_start[p][k]] up to the next part's start
 * @nplaced: how many in all
 * @placed_alloc: how many allocated
 * @part_start: per page, per part, the first index into @placed; each
 *	array has nparts + 1 entries
 * @refs: the referrers, shared by every symbol's @refs
 * @nrefs: how many
 * @stab: the symbols by namespace and name: each slot the first symbol's
 *	index + 1 (0: empty) and its hash's upper half; open-addressed,
 *	probed linearly, under half full
 * @stab_cap: how many slots (a power of two)
 * @nstab: how many are taken
 * @stab_borrowed: @stab lies in @map (read only), not owned
 * @anchors: the page being placed: each anchor id taken -> the last
 *	suffix given for it (placement only)
 * @page_ids: the anchor ids of each page, sorted
 * @npage_ids: how many each
 * @ids: the ids of the page being placed (placement only)
 * @nids: how many
 * @ids_alloc: room
 * @labels: a reST label's name -> where it is (see qu_graph_label())
 * @exports: per unit, its file's EXPORT_SYMBOL*() uses (not owned)
 * @arena: owns the arrays and strings
 * @ext: the entries of other sites' inventories (intersphinx:), sorted
 * @next: how many
 * @kbuf: the map key being made (placement)
 * @ref_idx: the storage of every symbol's @refs
 * @nplace_diags: the diagnostics placing the items gave
 * @placed_refs: for each placed item, the symbols its comment refers to,
 *	as resolved for this placement, with its unit's content hash
 *	(graph_count_refs() takes them for an unchanged unit); NULL before
 * @place_id: which placement the symbols are: a new one for each
 *	qu_graph_build(), the last graph's for qu_graph_reuse(), so that what
 *	is made of the symbols alone can be kept with it (0 for none)
 * @map: the saved placement qu_graph_place_load() read, mapped, when the
 *	graph took it: the symbols' and anchors' strings, the symbol table
 *	and the comments' references point into it; qu_graph_fini() unmaps it
 * @map_size: its size
 */
struct qu_graph {
	const struct qu_site *site;
	const struct qu_unit *units;
	size_t nunits;
	struct qu_sym *syms;
	size_t nsyms;
	size_t sym_alloc;
	struct qu_placed *placed;
	size_t nplaced;
	size_t placed_alloc;
	uint32_t **part_start;
	struct qu_referrer *refs;
	size_t nrefs;
	struct qu_graph_stab_slot {
		uint32_t sym;
		uint32_t tag;
	} *stab;
	size_t stab_cap;
	size_t nstab;
	bool stab_borrowed;
	struct qu_map anchors;
	const char ***page_ids;
	size_t *npage_ids;
	const char **ids;
	size_t nids;
	size_t ids_alloc;
	struct qu_map labels;
	const struct qu_graph_exports *exports;
	struct qu_arena arena;
	struct graph_extern *ext;
	size_t next;
	struct qu_buf kbuf;
	uint32_t *ref_idx;
	size_t nplace_diags;
	struct qu_placed_refs *placed_refs;
	uint64_t place_id;
	const void *map;
	size_t map_size;
};

/**
 * typedef qu_graph_run_fn - receives one run of text that can hold links
 * @payload: the caller's context
 * @text: the run (not NUL-terminated)
 * @len: its length
 */
typedef void (*qu_graph_run_fn)(void *payload, const char *text, size_t len);

/**
 * struct qu_graph_reader - how the graph reads pages' and comments' markup
 * @runs: call @fn, in text order, with each run of @text where a
 *	reference can become a link: the text outside code, headings,
 *	links and raw HTML, as the stage that renders it reads it
 * @ctx: passed to @runs first
 * @memo: what earlier builds' comments named, used and brought up to
 *	date; NULL to read every comment
 *
 * The graph knows no markup: the markup's own reader (lib/markdown's
 * qu_md_runs(), or lib/render's qu_render_rst_runs() for reST comments)
 * tells it where references may be, so "Referenced by" lists the links
 * the pages show.
 */
struct qu_graph_reader {
	void (*runs)(void *ctx, const char *text, size_t len, bool comment,
		     qu_graph_run_fn fn, void *payload);
	void *ctx;
	struct qu_graph_memo *memo;
};

/*
 * struct qu_graph_memo - the references comments make, kept between builds
 *
 * What an item's comment names depends on its text alone, so it is kept
 * by the content of the item's unit: a later build with the same reader
 * (quire serve's next rebuild) resolves those names again, against its own
 * graph, without reading the comments' markup again. Set as a reader's
 * @memo; a memo holds what one reader found and must not be given to a
 * reader that reads differently.
 */
struct qu_graph_memo;

/**
 * qu_graph_memo_new() - an empty memo
 *
 * Return: the memo; free it with qu_graph_memo_free().
 */
struct qu_graph_memo *qu_graph_memo_new(void);

/**
 * qu_graph_memo_free() - free a memo
 * @m: the memo, or NULL
 */
void qu_graph_memo_free(struct qu_graph_memo *m);

/**
 * qu_graph_memo_write() - what a memo holds, as bytes for
 * qu_graph_memo_read() (in this machine's byte order)
 * @m: the memo; no longer qu_graph_memo_changed() after
 * @out: receives the bytes (appended)
 */
void qu_graph_memo_write(struct qu_graph_memo *m, struct qu_buf *out);

/**
 * qu_graph_memo_read() - fill an empty memo from qu_graph_memo_write()'s
 * bytes
 * @m: the memo
 * @p: the bytes
 * @len: how many
 *
 * Return: false, with @m empty again, when the bytes are not such.
 */
bool qu_graph_memo_read(struct qu_graph_memo *m, const char *p, size_t len);

/**
 * qu_graph_memo_since() - the units a memo read from bytes was kept for
 * @m: a memo that no qu_graph_build() has updated yet
 * @hashes: each unit's content hash when the memo was written, in the
 *	order of the units the next qu_graph_build() takes (zero for a
 *	unit that had none)
 * @n: how many
 *
 * The bytes do not say: without this, the next update checks every
 * entry against every unit to forget those no unit holds any more; with
 * it, as quire serve's rebuilds do, only those of the units that changed.
 * An entry wrongly kept would only be never used: entries are found by
 * content. The memo copies @hashes.
 */
void qu_graph_memo_since(struct qu_graph_memo *m,
			 const struct qu_hash128 *hashes, size_t n);

/* qu_graph_memo_changed() - an entry was filed or forgotten since written */
bool qu_graph_memo_changed(const struct qu_graph_memo *m);

/**
 * qu_graph_build() - place the items, index the symbols, count references
 * @g: the graph to fill; zeroed by the caller, freed with qu_graph_fini()
 * @site: the site, with its pages' headings filled in
 * @units: one unit per entry of @site->sources, in that order
 * @exports: per unit, the EXPORT_SYMBOL*() uses of its file, for
 *	:export: and :internal: naming other files; kept by the graph
 * @rd: the markup's reader, for the references; NULL to count none
 * @diags: receives the duplicate-inclusion and selection warnings
 * @threads: worker threads for the reference scan (0: one per processor)
 *
 * Pages are visited in order; the first page showing an item is its home,
 * and a later inclusion warns (-Wduplicate-item) and links home. The
 * reference scan runs in parallel, merged in page order.
 */
void qu_graph_build(struct qu_graph *g, const struct qu_site *site,
		    const struct qu_unit *units,
		    const struct qu_graph_exports *exports,
		    const struct qu_graph_reader *rd, struct qu_diags *diags,
		    unsigned threads);

/**
 * qu_graph_unit_shape() - the hash of what placing reads of one source
 * @u: its unit
 * @e: its exports, or NULL when the site has none
 * @path: its path in the site's sources
 * @scratch: a buffer to use
 *
 * The path, the items' kinds, names and members, and the exports: what
 * qu_graph_reuse() compares of a unit. Context: thread-safe.
 * Return: the hash.
 */
uint64_t qu_graph_unit_shape(const struct qu_unit *u,
			     const struct qu_graph_exports *e,
			     const char *path, struct qu_buf *scratch);

/**
 * qu_graph_place_key() - the hash of what placing reads
 * @site: as qu_graph_build()'s
 * @shapes: per source, qu_graph_unit_shape()
 * @exports: whether the units have exports (qu_graph_build()'s @exports)
 *
 * The units' shapes, and every page's output, headings, labels and
 * kernel-doc selections (what qu_graph_reuse() compares), and whether the
 * site is a Sphinx project's. Two builds with the same key place their
 * items alike.
 *
 * Return: the key.
 */
uint64_t qu_graph_place_key(const struct qu_site *site,
			    const uint64_t *shapes, bool exports);

/**
 * qu_graph_place_save() - a placement's bytes, for qu_graph_place_load()
 * @g: a built graph
 * @refs_key: a key of the settings @g's references were read with
 *	(struct qu_graph_reader's), kept with them
 * @out: receives them (appended), for the same executable to read
 *
 * Return: 0, or -1 when it is not kept: placing gave diagnostics (which a
 * load would not give again).
 */
int qu_graph_place_save(const struct qu_graph *g, uint64_t refs_key,
			struct qu_buf *out);

/**
 * qu_graph_place_load() - qu_graph_build() from a saved placement
 * @g: the graph to fill, as qu_graph_build()'s
 * @site: as qu_graph_build()'s
 * @units: as qu_graph_build()'s
 * @exports: as qu_graph_build()'s
 * @data: qu_graph_place_save()'s bytes of a placement whose
 *	qu_graph_place_key() was this one's, aligned for 8-byte words
 * @len: how many
 * @map: when not NULL, the mapping (qu_file_map()) @data lies in, taken
 *	when the load succeeds: the graph's strings, its symbol table and
 *	the comments' references point into it instead of being copied, and
 *	qu_graph_fini() unmaps it; on failure the caller keeps it
 * @map_size: its size
 * @refs_key: the key of the settings the references are read with
 * @rd: as qu_graph_build()'s
 * @diags: as qu_graph_build()'s
 * @threads: as qu_graph_build()'s
 *
 * The symbols, placed items and anchors are read back, pointing into
 * @units for the items' names; the labels, the other sites' inventories
 * and the references are made anew, as qu_graph_reuse() makes them: the
 * references of a comment whose unit has the hash it had when saved,
 * read with the same @refs_key, are taken as they were resolved. Bytes
 * that do not describe a placement of @site and @units (an index out of
 * range, a truncated part) are refused whole.
 *
 * Return: true, or false (nothing done: call qu_graph_build()).
 */
bool qu_graph_place_load(struct qu_graph *g, const struct qu_site *site,
			 const struct qu_unit *units,
			 const struct qu_graph_exports *exports,
			 const void *data, size_t len, const void *map,
			 size_t map_size, uint64_t refs_key,
			 const struct qu_graph_reader *rd,
			 struct qu_diags *diags, unsigned threads);

/**
 * qu_graph_reuse() - take @prev's placement when the new inputs place alike
 * @g: the graph to fill, as qu_graph_build()'s
 * @prev: the last build's graph; on success its symbols, placements and
 *	anchors move into @g (it stays valid for qu_graph_fini())
 * @site: as qu_graph_build()'s
 * @units: as qu_graph_build()'s
 * @exports: as qu_graph_build()'s
 * @taken: per unit, whether it is the very unit @prev placed (quire
 *	serve's, taken from memory); the others are compared with @prev's
 * @rd: as qu_graph_build()'s
 * @diags: as qu_graph_build()'s
 * @threads: as qu_graph_build()'s
 *
 * The items are placed alike when the sources are the same files, every
 * page has the same output, headings, labels and kernel-doc selections,
 * and every unit not taken has the same items (kinds, names, members)
 * and exports; and @prev's placing gave no diagnostic. Then only the
 * labels, the other sites' inventories and the references are made
 * anew, which is what a comment's edit changes: the graph equals what
 * qu_graph_build() would make.
 *
 * Return: true, or false (nothing done: call qu_graph_build()).
 */
bool qu_graph_reuse(struct qu_graph *g, struct qu_graph *prev,
		    const struct qu_site *site, const struct qu_unit *units,
		    const struct qu_graph_exports *exports, const bool *taken,
		    const struct qu_graph_reader *rd, struct qu_diags *diags,
		    unsigned threads);

/**
 * qu_graph_fini() - free a graph
 * @g: the graph
 */
void qu_graph_fini(struct qu_graph *g);

/**
 * enum qu_ref_kind - what a reference in text looks like
 * @QU_REF_FUNC: ``name()``
 * @QU_REF_STRUCT: ``struct name`` or ``&struct name``
 * @QU_REF_UNION: ``union name`` or ``&union name``
 * @QU_REF_ENUM: ``enum name`` or ``&enum name``
 * @QU_REF_TYPEDEF: ``typedef name`` or ``&typedef name``
 * @QU_REF_ANY: ``&name``: any symbol of that name
 * @QU_REF_CONST: ``%NAME``: a constant
 * @QU_REF_PARAM: ``@name``: a parameter of the item being described
 * @QU_REF_ENV: ``$NAME``: an environment variable (never linked)
 * @QU_REF_MEMBER: ``.name``: a member of the struct being described
 */
enum qu_ref_kind {
	QU_REF_FUNC,
	QU_REF_STRUCT,
	QU_REF_UNION,
	QU_REF_ENUM,
	QU_REF_TYPEDEF,
	QU_REF_ANY,
	QU_REF_CONST,
	QU_REF_PARAM,
	QU_REF_ENV,
	QU_REF_MEMBER,
};

/**
 * struct qu_ref - one reference found in text
 * @kind: its form
 * @start: offset of its first byte in the text scanned
 * @end: offset just past it
 * @name: the symbol's name (points into the text)
 * @nlen: its length
 * @member: a member after "->" or "." (&struct foo->bar), or NULL
 * @mlen: its length
 * @amp: written with a leading "&" (shown without it)
 */
struct qu_ref {
	enum qu_ref_kind kind;
	size_t start;
	size_t end;
	const char *name;
	size_t nlen;
	const char *member;
	size_t mlen;
	bool amp;
};

/**
 * qu_graph_scan() - find the next reference in text
 * @out: receives the reference
 * @text: the text
 * @len: its length
 * @pos: where to start
 * @comment: also find the kernel-doc highlights (&name, @param, %CONST,
 *	$ENV, .member); without, only the automarkup forms (name(),
 *	struct/union/enum/typedef name)
 *
 * Context: pure function.
 * Return: true when a reference was found at or after @pos.
 */
bool qu_graph_scan(struct qu_ref *out, const char *text, size_t len, size_t pos,
		   bool comment);

/**
 * struct qu_from - where a reference is made, to pick among candidates
 * @page: the page being written
 * @file: the source file of the item being described, or NULL
 * @sym: the item being described (for @param and .member), or QU_NONE
 */
struct qu_from {
	uint32_t page;
	const char *file;
	uint32_t sym;
};

/**
 * qu_graph_resolve() - find the symbol a reference means
 * @g: the graph
 * @ref: the reference
 * @from: where it is made
 * @ambiguous: if not NULL, receives the candidates ("a.c:3, b.c:9") when
 *	more than one fits equally well; left empty otherwise
 *
 * Only symbols with a home page are found. Among several, the one in the
 * same file wins, then the same folder, then one in a header or exported,
 * else the one with the fewest folders in its path (the most generic),
 * then the first by path.
 *
 * Context: thread-safe (reads only).
 * Return: the symbol's index, or QU_NONE.
 */
uint32_t qu_graph_resolve(const struct qu_graph *g, const struct qu_ref *ref,
			  const struct qu_from *from, struct qu_buf *ambiguous);

/**
 * qu_graph_lookup() - find a symbol by its spelling in a link target
 * @g: the graph
 * @target: "foo()", "struct foo", "foo", "struct foo.member", …
 * @len: its length
 * @from: where the link is made
 * @ambiguous: as for qu_graph_resolve()
 *
 * Context: thread-safe.
 * Return: the symbol's index, or QU_NONE.
 */
uint32_t qu_graph_lookup(const struct qu_graph *g, const char *target,
			 size_t len, const struct qu_from *from,
			 struct qu_buf *ambiguous);

/**
 * qu_graph_extern() - the URL of a reference on another site
 * @g: the graph
 * @ref: a reference that resolves to no symbol of this site
 *
 * Looks the name up in the inventories quire.yml's intersphinx: names,
 * by the roles the reference's form allows (name() a c:function or
 * c:macro, struct name a c:struct or c:type, name.member a c:member,
 * …), the sites in the order configured.
 * Context: thread-safe (reads only).
 * Return: an absolute URL owned by @g, or NULL.
 */
const char *qu_graph_extern(const struct qu_graph *g, const struct qu_ref *ref);

/**
 * qu_graph_extern_std() - the URL of a page or label of another site
 * @g: the graph
 * @doc: a page (:doc:, std:doc) rather than a label (:ref:, std:label)
 * @target: the page's name without ".html" ("core-api/kernel-api") or
 *	the label, normalised as :ref: normalises it; "site:target" looks
 *	only into the inventory intersphinx: names "site" when no entry of
 *	any has the whole name, as Sphinx's intersphinx does
 * @title: receives the entry's display name, or NULL when it has none
 *
 * Context: thread-safe (reads only).
 * Return: an absolute URL owned by @g, or NULL.
 */
const char *qu_graph_extern_std(const struct qu_graph *g, bool doc,
				const char *target, const char **title);

/**
 * qu_graph_lookup_extern() - qu_graph_extern() of a link target's spelling
 * @g: the graph
 * @target: "foo()", "struct foo", … as for qu_graph_lookup()
 * @len: its length
 *
 * Return: an absolute URL owned by @g, or NULL.
 */
const char *qu_graph_lookup_extern(const struct qu_graph *g,
				   const char *target, size_t len);

/**
 * qu_graph_href() - append the relative URL of a symbol
 * @out: the buffer
 * @g: the graph
 * @from_page: the page the link is on
 * @sym: the symbol
 */
void qu_graph_href(struct qu_buf *out, const struct qu_graph *g,
		   uint32_t from_page, uint32_t sym);

/**
 * qu_graph_item() - the item of a symbol
 * @g: the graph
 * @sym: the symbol
 *
 * Return: the item (owned by its unit).
 */
const struct qu_item *qu_graph_item(const struct qu_graph *g, uint32_t sym);

/**
 * qu_graph_has_anchor() - whether a page has an element with an id
 * @g: the graph
 * @page: the page
 * @id: the id
 *
 * Knows headings, item anchors and their parameter anchors.
 * Return: true when it has.
 */
bool qu_graph_has_anchor(const struct qu_graph *g, uint32_t page,
			 const char *id);

/**
 * qu_graph_label() - find a reST label, as Sphinx's :ref: role does
 * @g: the graph
 * @name: the label, normalised (lower case, blanks joined)
 * @page_out: receives the page it is on
 *
 * Context: thread-safe (reads only).
 * Return: the label (owned by the site), or NULL when no page has it.
 */
const struct qu_label *qu_graph_label(const struct qu_graph *g,
				      const char *name, uint32_t *page_out);

/**
 * struct qu_inv_memo - the last inventory's compressed body, for a next
 *	build whose body is the same (zlib is most of an inventory's cost)
 * @key: the content hash of the body it holds
 * @z: the body, compressed; empty when there is none
 * @place_id: the placement (qu_graph.place_id) @syms was made of, or 0
 * @syms: the body's lines of symbols, which depend on the placement alone
 * @inputs: the caller's key of what the body was made of, or 0
 */
struct qu_inv_memo {
	struct qu_hash128 key;
	struct qu_buf z;
	uint64_t place_id;
	struct qu_buf syms;
	uint64_t inputs;
};

/**
 * qu_graph_inventory() - objects.inv in Sphinx's version 2 format
 * @out: receives the bytes (appended)
 * @g: the graph
 * @project: the project's name for the header
 * @version: its version, or NULL
 * @memo: NULL, or the last inventory's body (quire serve keeps it between
 *	rebuilds): used when the body is the same, else updated; @memo->z
 *	starts as an empty buffer (qu_buf_init()) and is freed with
 *	qu_buf_fini()
 * @inputs: 0, or a key of everything the body is made of (the symbols,
 *	the pages' paths, titles, headings and labels): when @memo was made
 *	for the same key, its body is used as it is, not made again
 *
 * Items, members and enum constants with their C-domain roles
 * (c:function, c:struct, c:member, c:enumerator, …), pages as std:doc.
 * Context: thread-safe (reads only) but for @memo.
 * Return: 0, or -1 when zlib fails.
 */
int qu_graph_inventory(struct qu_buf *out, const struct qu_graph *g,
		       const char *project, const char *version,
		       struct qu_inv_memo *memo, uint64_t inputs);

/**
 * qu_graph_dump() - append the graph as text, one symbol a line
 * @out: the buffer
 * @g: the graph
 *
 * "ns name kind file:line page#anchor refs=N", in symbol order; for
 * golden tests.
 */
void qu_graph_dump(struct qu_buf *out, const struct qu_graph *g);

#endif /* QU_GRAPH_GRAPH_H */
