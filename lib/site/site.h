/* SPDX-License-Identifier: MIT */
/*
 * site.h - the page tree: configuration, Markdown pages and directives
 *
 * In: a docs root (a folder with quire.yml and *.md pages), or a bare
 * source tree (zero-config mode). Out: a struct qu_site holding the
 * configuration, the list of C files the pages need, and every page of the
 * site split into parts (Markdown text, {kernel-doc} and {toctree}
 * directives, file listings) with its place in the navigation tree. This
 * stage does not parse C: the zero-config pages are made from counts the
 * caller supplies (qu_site_zero_pages()). Included by lib/graph and later.
 */
#ifndef QU_SITE_SITE_H
#define QU_SITE_SITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

/** QU_NONE - "no index": no page, no parent, no symbol */
#define QU_NONE UINT32_MAX

/**
 * struct qu_intersphinx - one site references may link into
 * @name: its name in quire.yml
 * @url: its base URL (what its inventory's locations are relative to)
 * @inventory: its objects.inv, relative to the docs root (no network)
 * @line: the line of @name in quire.yml, for diagnostics
 * @data: the inventory's bytes, read by qu_site_load(), or NULL when it
 *	could not be read (reported)
 * @len: how many
 */
struct qu_intersphinx {
	char *name;
	char *url;
	char *inventory;
	uint32_t line;
	char *data;
	size_t len;
};

/**
 * struct qu_version - one version of a versioned site (versions:)
 * @rev: the revision to build (a tag, a branch, a commit)
 * @label: its folder in the output and its name in the switcher
 * @latest: marked as the latest
 * @prerelease: a pre-release, never the latest
 */
struct qu_version {
	char *rev;
	char *label;
	bool latest;
	bool prerelease;
};

/**
 * enum qu_markup - the markup kernel-doc comments are written in
 * @QU_MARKUP_DEFAULT: not configured; qu_site_load() replaces it with
 *	the site's default (see qu_site_load())
 * @QU_MARKUP_MARKDOWN: Markdown, with the kernel's reST habits understood
 * @QU_MARKUP_RST: reStructuredText, as the kernel's Sphinx reads them
 */
enum qu_markup {
	QU_MARKUP_DEFAULT,
	QU_MARKUP_MARKDOWN,
	QU_MARKUP_RST,
};

/**
 * struct qu_config - quire.yml; every key optional
 * @title: the site's title
 * @srctree: the C source tree, relative to the docs root; NULL for the
 *	default (the git work tree holding the docs root, else its parent)
 * @theme: a theme name (a folder under the themes directory) or a path
 * @base_url: the URL the site is published at, or NULL
 * @source_url: a link template for source lines, with {path} and {line}
 * @edit_url: the "edit this page" link template, with {path}
 * @version: the version shown; NULL to use `git describe`
 * @exclude: glob patterns of paths (relative to the root) to leave out
 * @nexclude: how many
 * @allow_html: pass raw HTML in pages and comments through
 * @man: also write the section-9 man pages of every item, under
 *	OUT/man/man9/ ("man: true")
 * @api: "mode: api": the folder holding quire.yml is a source tree and
 *	the site its zero-config API reference, configured by the other keys
 * @sphinx: the docs root is a Sphinx project (conf.py and index.rst, no
 *	quire.yml): its pages are reST, its title conf.py's project
 * @conf_py: the conf.py read, for a Sphinx project
 * @comment_markup: how kernel-doc comments are read (comment_markup:);
 *	never QU_MARKUP_DEFAULT once qu_site_load() has returned
 * @no_last_changed: "last_changed: false": show no dates (no walk over
 *	history)
 * @autosection: a Sphinx project whose conf.py loads autosectionlabel:
 *	sections are labels named by their titles
 * @autosection_prefix: autosectionlabel_prefix_document: "DOCNAME:" first
 * @autosection_depth: autosectionlabel_maxdepth: sections down to this
 *	level (1 the page's title), or 0 for all
 * @intersphinx: other sites to link into (intersphinx:), in the order given
 * @nintersphinx: how many
 * @versions: the versions to build, in the order given (switcher order)
 * @nversions: how many
 * @theme_line: the line of the theme key in quire.yml, for diagnostics
 * @srctree_line: the line of the srctree key, likewise
 * @mode_line: the line of the mode key, likewise
 */
struct qu_config {
	char *title;
	char *srctree;
	char *theme;
	char *base_url;
	char *source_url;
	char *edit_url;
	char *version;
	char **exclude;
	size_t nexclude;
	bool allow_html;
	bool man;
	bool api;
	bool sphinx;
	char *conf_py;
	enum qu_markup comment_markup;
	bool no_last_changed;
	bool autosection;
	bool autosection_prefix;
	unsigned autosection_depth;
	struct qu_intersphinx *intersphinx;
	size_t nintersphinx;
	struct qu_version *versions;
	size_t nversions;
	uint32_t theme_line;
	uint32_t srctree_line;
	uint32_t mode_line;
};

/**
 * qu_site_label_is_ok() - whether a version's label names a folder of OUT
 * @label: the label
 *
 * A label is a folder name of the output: 1 to 64 letters, digits, '.',
 * '-' and '_', not starting with '.' (so never ".." or a hidden folder),
 * and not "latest", the folder of the copy of the latest version.
 * Context: thread-safe. Return: true when it may be a label.
 */
bool qu_site_label_is_ok(const char *label);

/**
 * qu_site_config_parse() - read a quire.yml from memory
 * @out: the configuration to fill; zeroed by the caller, freed with
 *	qu_config_fini() even on failure
 * @diags: where unknown keys and bad values are reported
 * @path: the file's name for diagnostics
 * @text: its bytes
 * @len: how many
 *
 * Return: 0, or -1 when the configuration is broken: not YAML, not a
 * mapping, or a known key with a value of the wrong type (each reported
 * as a -Wbad-config error with its line and column).
 */
int qu_site_config_parse(struct qu_config *out, struct qu_diags *diags,
			 const char *path, const char *text, size_t len);

/**
 * qu_config_fini() - free a configuration
 * @c: the configuration
 */
void qu_config_fini(struct qu_config *c);

/**
 * enum qu_part_kind - what one part of a page is
 * @QU_PART_MARKDOWN: Markdown text
 * @QU_PART_KDOC: a {kernel-doc} directive: items of one C file
 * @QU_PART_TOCTREE: a {toctree} directive: links to child pages
 * @QU_PART_FILES: a listing of folders and files (zero-config pages)
 * @QU_PART_RST: a whole reST page; the page's other parts are the
 *	directives its reader found in it, each at its @off
 * @QU_PART_INCLUDE: the file a reST include or literalinclude directive
 *	names, read by the site (confined like every read)
 */
enum qu_part_kind {
	QU_PART_MARKDOWN,
	QU_PART_KDOC,
	QU_PART_TOCTREE,
	QU_PART_FILES,
	QU_PART_RST,
	QU_PART_INCLUDE,
};

/**
 * enum qu_sel_mode - which items a {kernel-doc} directive takes
 * @QU_SEL_ALL: every item (no option)
 * @QU_SEL_EXPORT: items exported by EXPORT_SYMBOL*() (:export:)
 * @QU_SEL_INTERNAL: items not exported (:internal:)
 * @QU_SEL_IDENTIFIERS: the named items, or every item but DOC: blocks
 *	when no name is given (:identifiers:, :functions:)
 * @QU_SEL_DOC: the DOC: block with the given title (:doc:)
 */
enum qu_sel_mode {
	QU_SEL_ALL,
	QU_SEL_EXPORT,
	QU_SEL_INTERNAL,
	QU_SEL_IDENTIFIERS,
	QU_SEL_DOC,
};

/**
 * struct qu_kdoc_sel - the options of one {kernel-doc} directive
 * @path: the C file, relative to the source tree
 * @mode: which items
 * @names: the names of :identifiers:/:functions:, or the files of
 *	:export:/:internal: whose EXPORT_SYMBOL*() count too
 * @nnames: how many
 * @no_names: the names of :no-identifiers:
 * @nno_names: how many
 * @doc: the title of :doc:
 * @doc_first: DOC: blocks before the other items (zero-config pages)
 */
struct qu_kdoc_sel {
	const char *path;
	enum qu_sel_mode mode;
	const char **names;
	size_t nnames;
	const char **no_names;
	size_t nno_names;
	const char *doc;
	bool doc_first;
};

/**
 * struct qu_file_entry - one row of a zero-config listing
 * @name: what to show (a file or folder name, folders ending in "/")
 * @page: the page it links to
 * @nfiles: documented files below it (1 for a file)
 * @nitems: items in it or below it
 * @brief: a file's one-line description (see struct qu_site_file), or NULL
 */
struct qu_file_entry {
	const char *name;
	uint32_t page;
	uint32_t nfiles;
	uint32_t nitems;
	const char *brief;
};

/**
 * struct qu_part_mark - where the text of a generated part comes from
 * @off: the byte offset in the part's text from which it holds
 * @line: the 1-based line of @path it names
 * @path: the file, as diagnostics name it
 */
struct qu_part_mark {
	uint32_t off;
	uint32_t line;
	const char *path;
};

/**
 * struct qu_parsed - a reader's parse of a part, kept for the renderer
 * @doc: the parse (lib/rst's struct qu_rst_doc), or NULL once taken: the
 *	page's renderer takes it (and frees it), so that the parses of
 *	pages already written do not stay in memory
 * @free_fn: how qu_site_fini() frees a @doc nobody took
 *
 * Only the renderer of the part's page touches it, one at a time.
 */
struct qu_parsed {
	void *doc;
	void (*free_fn)(void *doc);
};

/**
 * struct qu_part - one part of a page
 * @kind: what it is
 * @line: 1-based line in the page's file where the part starts
 * @text: Markdown text (QU_PART_MARKDOWN), the reST page (QU_PART_RST),
 *	the included file's bytes (QU_PART_INCLUDE)
 * @len: its length
 * @sel: the selection (QU_PART_KDOC)
 * @pages: the child pages (QU_PART_TOCTREE)
 * @npages: how many
 * @caption: the toctree's :caption:, or NULL
 * @maxdepth: the toctree's :maxdepth: (0 for no limit)
 * @hidden: the toctree's :hidden: (navigation only, nothing in the page)
 * @glob: the toctree's :glob: (entries with "*" are patterns)
 * @titles_only: the toctree's :titlesonly: (pages, not their sections)
 * @numbered: the toctree's :numbered: depth (999 without a value; 0 when
 *	absent): Sphinx numbers the sections of the pages below
 * @file: the included file as diagnostics name it (QU_PART_INCLUDE); for
 *	kernel-feat and kernel-abi, the folder they read
 * @inputs: what a kernel-feat or kernel-abi part was made of: every file
 *	read and every folder listed (these end in '/'), for the depfile
 * @ninputs: how many
 * @marks: for kernel-abi, the source of each stretch of the text (its
 *	".. LINENO file#line" lines), by offset; diagnostics in the text
 *	name that file and line, as Sphinx's do
 * @nmarks: how many
 * @off: in a reST page, the byte offset in the QU_PART_RST text of the
 *	directive this part comes from, so the renderer finds it there
 * @files: the rows (QU_PART_FILES)
 * @nfiles: how many
 * @parsed: the reader's parse of @text (QU_PART_RST), kept so that the
 *	renderer does not parse the page again; NULL when the reader kept
 *	none
 */
struct qu_part {
	enum qu_part_kind kind;
	uint32_t line;
	const char *text;
	size_t len;
	struct qu_kdoc_sel sel;
	uint32_t *pages;
	size_t npages;
	const char *caption;
	unsigned maxdepth;
	bool hidden;
	bool glob;
	bool titles_only;
	unsigned numbered;
	const char *file;
	const char **inputs;
	size_t ninputs;
	const struct qu_part_mark *marks;
	size_t nmarks;
	uint32_t off;
	struct qu_file_entry *files;
	size_t nfiles;
	struct qu_parsed *parsed;
};

/**
 * struct qu_heading - one heading of a page's Markdown
 * @text: its plain text
 * @id: its anchor, unique in the page
 * @level: 1 to 6
 * @line: 1-based line in the page's file
 * @hidden: a reST section in an "only" block an HTML build leaves out:
 *	it counts for section numbers, as in Sphinx, but no table of
 *	contents, inventory or search lists it
 */
struct qu_heading {
	const char *text;
	const char *id;
	unsigned level;
	uint32_t line;
	bool hidden;
};

/**
 * struct qu_label - a place in a page other pages can name (reST's
 *	".. _name:" targets, which Sphinx's :ref: role links to)
 * @name: the label, normalised (lower case, blanks joined)
 * @id: the element id it gives on the page
 * @title: the title of the section it labels, or NULL
 * @role: for a C-domain declaration (name "c.NAME"), its inventory role
 *	("c:function", "c:macro", ...); "std:term" for a glossary term
 *	(name "T:term", in lower case; @title the term as written); NULL
 *	for a reST label
 */
struct qu_label {
	const char *name;
	const char *id;
	const char *title;
	const char *role;
};

/**
 * struct qu_page - one page of the site
 * @src: the Markdown file relative to the docs root, or NULL when made
 *	by quire (zero-config pages, a missing home page)
 * @diag_path: the name diagnostics about this page use
 * @out: the output file relative to the site's root ("a/b.html")
 * @title: the title (front matter, else the first heading, else the name)
 * @order: the front matter's order (0 when absent)
 * @depth: how many folders deep @out is
 * @h1: quire writes @title as the page's first heading
 * @draws: a reST page with a kernel-render directive: rendering it
 *	writes a picture besides its HTML (so it is never taken from the
 *	last site)
 * @parts: the parts in page order
 * @nparts: how many
 * @parent: the page above this one in the navigation, or QU_NONE
 * @children: the pages below it, in navigation order
 * @nchildren: how many
 * @headings: the Markdown headings, with their ids, from the site's
 *	reader
 * @nheadings: how many
 * @labels: the labels of a reST page, from the site's reader
 * @nlabels: how many
 */
struct qu_page {
	const char *src;
	const char *diag_path;
	const char *out;
	const char *title;
	int order;
	unsigned depth;
	bool h1;
	bool draws;
	struct qu_part *parts;
	size_t nparts;
	uint32_t parent;
	uint32_t *children;
	size_t nchildren;
	struct qu_heading *headings;
	size_t nheadings;
	struct qu_label *labels;
	size_t nlabels;
};

/**
 * struct qu_site_block - a fenced block of a page
 * @info: its info string, as the markup reads it ("{kernel-doc} a.h")
 * @info_len: its length
 * @line: the 1-based line of its opening fence, in the text given
 * @end_line: its last line (the closing fence, or the text's last line)
 * @col: the 1-based column of the opening fence
 * @closed: a closing fence ends it
 * @nested: it is inside a list, a quote or another block, not at the top
 *	level of the page (where a directive must be)
 */
struct qu_site_block {
	const char *info;
	size_t info_len;
	uint32_t line;
	uint32_t end_line;
	uint32_t col;
	bool closed;
	bool nested;
};

/**
 * struct qu_site_option - one option of a reST directive
 * @name: its name, without the colons
 * @value: its value, continuation lines joined by newlines
 * @line: its 1-based line
 */
struct qu_site_option {
	const char *name;
	const char *value;
	uint32_t line;
};

/**
 * struct qu_site_directive - a directive of a reST page that the site
 *	acts on (kernel-doc, toctree, include, literalinclude, ...), as the reST
 *	reader parsed it
 * @name: the directive's name
 * @arg: its argument, or ""
 * @opts: its options, in order
 * @nopts: how many
 * @content: its content as text, or ""
 * @off: its byte offset in the page's text
 * @line: its 1-based line
 * @col: its 1-based column
 */
struct qu_site_directive {
	const char *name;
	const char *arg;
	const struct qu_site_option *opts;
	size_t nopts;
	const char *content;
	uint32_t off;
	uint32_t line;
	uint32_t col;
};

/**
 * struct qu_site_rst_sink - what a reST page's reader tells the site
 * @directive: a kernel-doc, toctree, include, literalinclude or
 *	kernel-render directive, in page order
 * @heading: a section: level (1 for the page's title), plain text, id,
 *	its title as written normalised as :ref: looks labels up (the name
 *	Sphinx's autosectionlabel gives it), 1-based line, and whether an
 *	"only" block leaves it out (qu_heading.hidden)
 * @label: a label (".. _name:" before a section or a block) with the id
 *	it gives and the labelled section's title, or NULL; a C-domain
 *	declaration ("c.NAME", its role, such as "c:function"); or a
 *	glossary term (qu_rst_term_key()'s "T:name", its id, the term as
 *	written, role "std:term")
 * @keep: takes the parse of the page (@parsed, to free with @free_fn)
 *	for the page's QU_PART_RST part (qu_part.parsed); NULL for a site
 *	that keeps none, and the reader frees it
 */
struct qu_site_rst_sink {
	void (*directive)(void *payload, const struct qu_site_directive *d);
	void (*heading)(void *payload, unsigned level, const char *text,
			const char *id, const char *name, uint32_t line,
			bool hidden);
	void (*label)(void *payload, const char *name, const char *id,
		      const char *title, const char *role);
	void (*keep)(void *payload, void *parsed, void (*free_fn)(void *));
};

/**
 * struct qu_site_reader - what the site needs read from its pages' markup
 * @blocks: call @fn with each fenced block of @text, in order (the
 *	directives are among those at the top level); the block is valid
 *	during the call
 * @headings: call @fn with each heading of @page's Markdown parts, in
 *	order: its level, plain text, the id the page gives it (unique in
 *	the page) and its 1-based line in the page's file
 * @ctx: passed first to both
 * @rst: read a reST page (lib/rst's qu_rst_site_read()): its directives,
 *	sections and labels, in page order, to @sink; its parse diagnostics
 *	to @diags
 * @rst_ctx: passed first to @rst
 *
 * The site knows no markup syntax: lib/markdown reads it (qu_md_blocks(),
 * qu_md_page_headings()), and lib/build hands its reader to
 * qu_site_load(). Heading ids are decided here, once; the renderer uses
 * them.
 */
struct qu_site_reader {
	void (*blocks)(void *ctx, const char *text, size_t len,
		       void (*fn)(void *payload, const struct qu_site_block *b),
		       void *payload);
	void (*headings)(void *ctx, const struct qu_page *page,
			 void (*fn)(void *payload, unsigned level,
				    const char *text, const char *id,
				    uint32_t line),
			 void *payload);
	void *ctx;
	void (*rst)(void *ctx, struct qu_diags *diags, const char *path,
		    const char *text, size_t len,
		    const struct qu_site_rst_sink *sink, void *payload);
	void *rst_ctx;
};

/**
 * struct qu_site - the whole page tree
 * @cfg: the configuration (all defaults in zero-config mode)
 * @root: the docs root as given
 * @srctree: the source tree as a path usable from the current directory
 * @root_real: @root through realpath(): what reads are confined to
 * @srctree_real: @srctree through realpath(), or NULL when it does not
 *	exist
 * @broken: quire.yml or a page's front matter has a -Wbad-config error:
 *	the caller must build nothing
 * @zero_config: no quire.yml: pages are made from the source tree
 * @pages: the pages; @pages[0] is the home page (index.html)
 * @npages: how many
 * @sources: the C files to parse, relative to @srctree, sorted, unique
 * @nsources: how many
 * @assets: files below @root that pages may link to or show (images,
 *	PDF, plain text), relative to @root, sorted; copied as they are,
 *	but for graphs (".dot"), which lib/build draws as SVG
 * @nassets: how many
 * @folders: every folder the walk for pages (or, without quire.yml,
 *	for sources) listed, as opened (below @root, @root first): a name
 *	added to or removed from any of them may change the site
 * @nfolders: how many
 * @folders_alloc: how many allocated
 * @arena: owns every string and array above
 * @diags: diagnostics of the configuration, front matter and directives
 * @reader: how the pages' markup is read (must outlive the site)
 * @files: where the configuration, the pages and the directives' files
 *	are read from: NULL for the file system, or a git revision
 *	(qu_git_fs_new()); set by the caller before qu_site_load(), and
 *	must outlive the site
 * @lister: NULL, or where the walk of the tree lists folders instead of
 *	@files (quire serve's memo of the last walk, qu_files_memo_new());
 *	set as @files is
 */
struct qu_site {
	struct qu_config cfg;
	char *root;
	char *srctree;
	char *root_real;
	char *srctree_real;
	bool broken;
	bool zero_config;
	struct qu_page *pages;
	size_t npages;
	const char **sources;
	size_t nsources;
	const char **assets;
	size_t nassets;
	const char **folders;
	size_t nfolders;
	size_t folders_alloc;
	struct qu_arena arena;
	struct qu_diags diags;
	const struct qu_site_reader *reader;
	const struct qu_files *files;
	const struct qu_files *lister;
};

/**
 * qu_site_load() - read the configuration and the pages of a docs root
 * @out: the site to fill; zeroed by the caller, freed with qu_site_fini()
 *	even on failure
 * @root: the docs root, or a bare source tree
 * @skip: a folder below @root to leave out (the output folder), or NULL
 * @rd: how the pages' markup is read: directives and headings
 * @err: receives a one-line message when the tree cannot be read
 *
 * With quire.yml, every *.md below @root becomes a page and @out->sources
 * lists the files of the {kernel-doc} directives. Without, @out->sources
 * lists every *.c and *.h below @root and the pages are made later by
 * qu_site_zero_pages(). Toctree entries are resolved and every page no
 * toctree names hangs under its folder's index page, else the home page,
 * by (order, path). Bad input becomes diagnostics in @out->diags.
 * Unless quire.yml says, comments are reST (QU_MARKUP_RST) in a Sphinx
 * project and in a zero-config tree with a Documentation/conf.py (a
 * kernel tree), Markdown elsewhere.
 *
 * Return: 0, or -1 on an environment error (message in @err).
 */
int qu_site_load(struct qu_site *out, const char *root, const char *skip,
		 const struct qu_site_reader *rd, struct qu_buf *err);

/**
 * struct qu_site_file - what the caller learnt about one C file
 * @path: the file relative to the source tree
 * @nitems: its items that are not DOC: blocks
 * @ndocs: its DOC: blocks
 * @brief: what the file is about, in a line (its first DOC: block's
 *	title, else its first item's brief), or NULL; must outlive the site
 */
struct qu_site_file {
	const char *path;
	uint32_t nitems;
	uint32_t ndocs;
	const char *brief;
};

/**
 * qu_site_zero_pages() - make the pages of a zero-config site
 * @s: a site loaded without quire.yml
 * @files: the documented files (at least one item), sorted by path
 * @n: how many
 * @readme: the text of the tree's top-level README.md, or NULL
 * @readme_len: its length
 *
 * Makes the home page (with @readme as its text), one page per folder
 * holding documented files (index.html of the folder) and one page per
 * file ("path/file.c.html"), linked into a navigation tree.
 */
void qu_site_zero_pages(struct qu_site *s, const struct qu_site_file *files,
			size_t n, const char *readme, size_t readme_len);

/**
 * qu_site_find_page() - find a page by its Markdown path
 * @s: the site
 * @src: the path relative to the docs root ("a/b.md"), normalised
 *
 * Return: the page's index, or QU_NONE.
 */
uint32_t qu_site_find_page(const struct qu_site *s, const char *src);

/**
 * qu_site_relpath() - append the relative URL from one output file to another
 * @out: the buffer
 * @from: the output file the link is in ("a/b.html")
 * @to: the output file linked to ("c/d.html")
 */
void qu_site_relpath(struct qu_buf *out, const char *from, const char *to);

/**
 * qu_site_fini() - free a site
 * @s: the site
 */
void qu_site_fini(struct qu_site *s);

/**
 * qu_site_maintainers_rst() - the kernel's MAINTAINERS file as reST
 * @out: receives the reST (appended)
 * @text: the file's bytes
 * @len: their length
 *
 * What the kernel's maintainers-include directive reads in its place
 * (Documentation/sphinx/maintainers_include.py), line for line: the
 * label "maintainers", the descriptions as a line block, a section for
 * each subsystem with a field for each kind of entry. Any bytes give
 * some text.
 */
void qu_site_maintainers_rst(struct qu_buf *out, const char *text, size_t len);

/**
 * struct qu_site_text - one file of a folder a directive reads whole
 * @path: the file, as diagnostics name it
 * @rel: its path below the folder ("core/jump-labels/arch-support.txt")
 * @text: its bytes, NUL-terminated
 * @len: their length
 */
struct qu_site_text {
	const char *path;
	const char *rel;
	const char *text;
	size_t len;
};

/**
 * qu_site_feat_rst() - the kernel's feature files as reST
 * @out: receives the reST (appended)
 * @diags: malformed files are reported here (-Wkernel-feat)
 * @files: every file below the features folder, each folder's names
 *	sorted (a second file of one feature replaces the first)
 * @n: how many
 * @arch: the architecture to show, or NULL for all of them
 *
 * What the kernel's kernel-feat directive reads in its place: the output
 * of `scripts/get_feat.pl rest --dir DIR [--arch ARCH]`, byte for byte
 * (a simple table of one architecture's features, or a grid table per
 * subsystem). Files other than the arch-support.txt ones are skipped.
 * Any bytes give some text.
 */
void qu_site_feat_rst(struct qu_buf *out, struct qu_diags *diags,
		      const struct qu_site_text *files, size_t n,
		      const char *arch);

/**
 * qu_site_abi_rst() - the kernel's ABI files as reST
 * @out: receives the reST (appended)
 * @diags: malformed files are reported here (-Wkernel-abi)
 * @dir: the folder as ".. LINENO" lines name it (a '/' is added)
 * @files: every file below the folder, each folder's names sorted
 * @n: how many
 *
 * What the kernel's kernel-abi directive reads in its place: the output
 * of `scripts/get_abi.pl rest --enable-lineno --dir DIR`, byte for byte
 * (a section per file, a label and a table per symbol, descriptions with
 * links to the symbols and files they name). Any bytes give some text.
 */
void qu_site_abi_rst(struct qu_buf *out, struct qu_diags *diags,
		     const char *dir, const struct qu_site_text *files,
		     size_t n);

/**
 * qu_site_headers_rst() - a C header as the reST of parse-headers.pl
 * @out: receives the reST (appended)
 * @diags: an exceptions line the script cannot parse is reported here
 *	(-Wkernel-include)
 * @name: the header's path; its last component is the title
 * @header: the header's bytes
 * @hlen: their length
 * @exc_path: the exceptions file as diagnostics name it
 * @exc: the exceptions file's bytes, or NULL for none
 * @elen: their length
 *
 * What the kernel's media Makefile makes with
 * `Documentation/sphinx/parse-headers.pl HEADER OUT EXCEPTIONS` and its
 * pages read with kernel-include, byte for byte: the header in a
 * parsed-literal block, its ioctls, defines, enum constants, enums,
 * structs and typedefs linked as the exceptions file's "ignore" and
 * "replace" rules say. Linear in the size of both files.
 *
 * Context: thread-safe.
 * Return: 0, or -1 when the exceptions file has a line the script
 * cannot parse (it dies; nothing is appended).
 */
int qu_site_headers_rst(struct qu_buf *out, struct qu_diags *diags,
			const char *name, const char *header, size_t hlen,
			const char *exc_path, const char *exc, size_t elen);

#endif /* QU_SITE_SITE_H */
