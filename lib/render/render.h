/* SPDX-License-Identifier: MIT */
/*
 * render.h - whole HTML pages from a theme template
 *
 * In: the site, the graph, the Markdown context and a theme. Out: the
 * bytes of every page, of the general index and of 404.html. The
 * template is parsed with libxml2's HTML parser and filled as a DOM;
 * the caller writes the bytes (and copies the theme's static/ folder).
 * Included by cmd/quire.
 *
 * The theme contract (themes/NAME/page.html):
 *
 *   data-slot="title"       text: "Page — Site" (the site title alone on
 *                           the home page)
 *   data-slot="site-title"  text: the site title; an <a> gets href to the
 *                           home page
 *   data-slot="version"     text: the version; removed when there is none
 *   data-slot="nav"         children: <ul><li><a href> nested; the
 *                           current page's <li> has class "current" and
 *                           its <a> aria-current="page"; its ancestors'
 *                           <li> have class "open". Only the ancestors'
 *                           siblings are listed, as Sphinx collapses.
 *   data-slot="breadcrumbs" children: <ol><li><a>…</a></li>…<li>Here</li>
 *   data-slot="toc"         children: <ul> of the page's h2/h3 and
 *                           items; removed under two entries
 *   data-slot="content"     children: the page body
 *   data-slot="prevnext"    children: <a rel="prev" class="prev"> and/or
 *                           <a rel="next" class="next">
 *   other href/src          relative ones ("_static/quire.css",
 *                           "genindex.html") are taken as relative to the
 *                           site's root and rewritten for the page's depth
 * The data-slot attributes are removed from the output.
 *
 * Classes in the body, for the theme's CSS:
 *   section.qu-item.qu-kind-KIND        one item (KIND: function, macro,
 *                                       struct, union, enum, typedef, var)
 *     h3.qu-item-title > code, span.qu-kind, a.qu-anchor
 *     p.qu-brief, pre.qu-decl > code.language-c
 *     h4 + dl.qu-params > dt > code, span.qu-type; dd
 *     section.qu-section > h4          Return, Context, Note, …
 *     p.qu-meta                        defined in, exported as
 *     p.qu-refs                        referenced by
 *     p.qu-elsewhere                   on a page that is not the item's
 *                                      home: the link home
 *   section.qu-doc > h2                a DOC: block
 *   a.qu-xref > code                   a resolved cross-reference
 *   span.qu-unresolved                 an explicit link that did not
 *                                      resolve
 *   code.qu-param, code.qu-const, code.qu-env   @param, %CONST, $ENV
 *   div.qu-admonition.qu-note|qu-tip|qu-important|qu-warning|qu-caution
 *     p.qu-admonition-title
 *   pre.qu-code > code[.language-X]   code blocks; C gets span.tok-kw,
 *                                      tok-type, tok-fn, tok-str,
 *                                      tok-num, tok-com, tok-pp, tok-op
 *   li.qu-task > input[type=checkbox] GFM task lists
 *   nav.qu-toctree > p.qu-toctree-caption, ul   a {toctree}
 *   reST pages (render/rst.c): section[id] > hN > span.section-number,
 *     a.headerlink; a.qu-ref (:ref:), a.qu-doc-ref (:doc:, file names),
 *     a.qu-external, code.qu-c (an unresolved C role); table.qu-table >
 *     caption; dl.qu-field-list, dl.qu-option-list, dl.qu-glossary,
 *     dl.qu-c-decl (c:function, ...); div.qu-line-block > div.qu-line;
 *     p.qu-attribution; figure.qu-figure > figcaption; nav.qu-contents
 *     (and a.toc-backref in titles); div.qu-footnote >
 *     span.qu-footnote-label, span.qu-backrefs; a.qu-footnote-ref;
 *     div.qu-version, div.qu-topic, p.qu-rubric, p.qu-centered,
 *     span.qu-classifier
 *   table.qu-files > tr.qu-dir|qu-file > td.qu-name, td.qu-count
 *                                      zero-config folder listings
 *   nav.qu-letters > a                 genindex initials
 *   table.qu-genindex > tr > td.qu-name > a > code, td.qu-kind,
 *                        td.qu-file
 *   div.qu-404                         the 404 page's body
 *   form.qu-search-page > input#search-input[name=q], button
 *   p#search-status.qu-search-status   search.html: filled by the theme's
 *   ol#search-results.qu-search-results  script from OUT/_search/
 */
#ifndef QU_RENDER_RENDER_H
#define QU_RENDER_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "markdown/markdown.h"
#include "site/site.h"
#include "util/util.h"

/**
 * struct qu_extra - one output file that is not a page of the site
 * @out: its path in the site ("genindex.html", "genindex-a.html", …)
 * @title: its title
 * @kind: 0 for the index (or its first page), 1 for one initial's page,
 *	2 for 404.html, 3 for search.html
 * @first: the first entry of its stretch of the sorted index
 * @end: one past the last
 * @label: how the index's letter links name it ("I", "I2", …)
 */
struct qu_extra {
	char *out;
	char *title;
	int kind;
	size_t first;
	size_t end;
	char label[24];
};

/**
 * struct qu_render_file - what git says of the file a page or unit is from
 * @time: when the file (for a page, also any source whose items it
 *	shows) last changed: the commit time, seconds since the epoch; 0
 *	when unknown (no git, a shallow clone, a file git does not track)
 * @commit: that commit's short id, "" when unknown
 * @link: what the source URL template's {path} becomes for this file,
 *	or NULL for no "view source" link (a page quire made)
 */
struct qu_render_file {
	int64_t time;
	char commit[16];
	const char *link;
};

/**
 * struct qu_render_graph - one .dot file of the docs root
 * @dot: its path relative to the docs root
 * @drawn: its SVG is in the site, at @dot with ".svg" for ".dot"
 * @text: its DOT, shown in place of a graph that was not drawn
 */
struct qu_render_graph {
	const char *dot;
	bool drawn;
	const char *text;
};

/**
 * struct qu_render_pic - a file a page makes besides its HTML: the SVG
 *	of a kernel-render directive
 * @out: its path in the site
 * @data: its bytes
 * @len: how many
 */
struct qu_render_pic {
	char *out;
	char *data;
	size_t len;
};

/**
 * struct qu_render_pics - the files one page makes besides its HTML
 * @v: the files, in page order
 * @n: how many
 */
struct qu_render_pics {
	struct qu_render_pic *v;
	size_t n;
};

/**
 * struct qu_render_version - one version of a versioned site
 * @label: its folder beside this version's ("1.0", "latest")
 * @pages: its pages' output paths, sorted bytewise, or NULL when not
 *	known (links then keep the page's path as it is)
 * @npages: how many
 */
struct qu_render_version {
	const char *label;
	const char *const *pages;
	size_t npages;
};

/**
 * struct qu_render - everything a page needs, read-only while rendering
 * @site: the site
 * @g: the graph
 * @md: the Markdown context
 * @tmpl: the template's bytes
 * @tmpl_len: how many
 * @tmpl_path: the template's file, for messages
 * @tmpl_doc: the template parsed once; every page starts from a copy
 * @title: the site's title
 * @version: the version to show, or NULL
 * @index: the symbols with a home page, sorted by name for genindex on
 *	first use (render_index(), page.c): a rebuild that keeps the index's
 *	pages does not sort a kernel tree's 130,000 names
 * @nindex: how many
 * @index_sort: how @index is sorted once
 * @extras: the files besides the pages
 * @nextras: how many
 * @order: the pages in reading order (depth first), for prev/next
 * @pos: @pos[page] is the page's place in @order
 * @diag_paths: per unit, the path warnings about its comments name
 * @secnums: per page, per heading, the section number a :numbered:
 *	toctree gives it ("2.1"), or NULL; NULL when no toctree numbers
 * @source_url: the link template of "view source" and "defined in",
 *	with {path} and {line}; NULL for quire.yml's source_url
 * @edit_url: the link template of "edit this page", with {path}; NULL:
 *	no such link (a build of a tag or a commit, or no editor known)
 * @page_files: per page, what git says of it, or NULL (nothing shown);
 *	set by the caller after qu_render_init(), must outlive @r
 * @unit_files: per unit, likewise, or NULL
 * @versions: the site's versions, for the switcher and the banner, or
 *	NULL (an unversioned site); set by the caller, must outlive @r
 * @nversions: how many
 * @version_cur: the one being rendered
 * @version_latest: the latest
 * @graphs: the docs root's .dot files as drawn by qu_render_dot()
 *	(kernel-figure shows the SVG, or the DOT where it could not be
 *	drawn), sorted by path; set by the caller, must outlive @r
 * @ngraphs: how many
 */
struct qu_render {
	const struct qu_site *site;
	const struct qu_graph *g;
	struct qu_md *md;
	char *tmpl;
	size_t tmpl_len;
	char *tmpl_path;
	xmlDocPtr tmpl_doc;
	const char *title;
	const char *version;
	uint32_t *index;
	size_t nindex;
	struct qu_index_sort *index_sort;
	struct qu_extra *extras;
	size_t nextras;
	uint32_t *order;
	uint32_t *pos;
	char **diag_paths;
	char ***secnums;
	const char *source_url;
	const char *edit_url;
	const struct qu_render_file *page_files;
	const struct qu_render_file *unit_files;
	const struct qu_render_version *versions;
	size_t nversions;
	size_t version_cur;
	size_t version_latest;
	const struct qu_render_graph *graphs;
	size_t ngraphs;
};

/**
 * struct qu_index_memo - the general index's order, kept between quire
 *	serve's builds for the same placement
 * @place_id: the placement it was sorted from (qu_graph.place_id), or 0
 * @index: the symbols, sorted as qu_render.index
 * @n: how many
 */
struct qu_index_memo {
	uint64_t place_id;
	uint32_t *index;
	size_t n;
};

/**
 * qu_render_init() - load the theme's template and sort the index
 * @r: the renderer to fill; freed with qu_render_fini() even on failure
 * @site: the site
 * @g: its graph
 * @md: the Markdown context
 * @theme_files: where the theme is read from (NULL: the file system)
 * @theme_dir: the theme's folder (holding page.html)
 * @version: the version to show, or NULL
 * @memo: the last call's sorted index, taken when @g has its placement
 *	(qu_graph.place_id) and left with this one's; NULL to sort every time
 * @err: receives a one-line message on failure
 *
 * Return: 0, or -1 when the template cannot be read or parsed.
 */
int qu_render_init(struct qu_render *r, const struct qu_site *site,
		   const struct qu_graph *g, struct qu_md *md,
		   const struct qu_files *theme_files, const char *theme_dir,
		   const char *version, struct qu_index_memo *memo,
		   struct qu_buf *err);

/**
 * qu_render_fini() - free a renderer
 * @r: the renderer
 */
void qu_render_fini(struct qu_render *r);

/**
 * qu_render_rst_runs() - the runs of a reST text where references become links
 * @ctx: unused (the signature of struct qu_graph_reader's runs)
 * @text: reST: a kernel-doc comment's text in a site whose comments are reST
 * @len: its length
 * @comment: unused: reST text is always read as a comment is rendered
 * @fn: called with each run, in text order
 * @payload: passed to @fn
 *
 * The text nodes render_rst_text() links "foo()" and "struct foo" in:
 * not in literals, literal blocks, titles, roles, links, comments or a
 * directive's raw content. Each text node is one run.
 * Context: thread-safe.
 */
void qu_render_rst_runs(void *ctx, const char *text, size_t len, bool comment,
			qu_graph_run_fn fn, void *payload);

/**
 * qu_render_serialize() - an HTML document as text
 * @out: receives the bytes (appended)
 * @doc: the document; it must be an HTML one (htmlReadMemory(),
 *	htmlNewDoc() or a copy of one)
 *
 * Writes the bytes libxml2 2.9's htmlDocContentDumpFormatOutput() writes
 * with format 0 into an output buffer without an encoder (UTF-8 as it
 * is), without its per-element table search and string copies.
 *
 * Context: thread-safe for distinct @out and @doc; only reads @doc.
 */
void qu_render_serialize(struct qu_buf *out, xmlDocPtr doc);

/**
 * qu_render_page() - the HTML of one page
 * @out: receives the bytes (appended)
 * @r: the renderer
 * @page: the page's index
 * @diags: receives the page's warnings (broken links, ambiguities)
 *
 * Context: thread-safe for distinct @out and @diags.
 * Return: 0, or -1 when libxml2 fails (an environment error; the caller
 * reports it with the page's name).
 */
int qu_render_page(struct qu_buf *out, const struct qu_render *r, uint32_t page,
		   struct qu_diags *diags);

/**
 * qu_render_page_pics() - the HTML of one page and the files it makes
 * @out: receives the bytes (appended)
 * @pics: receives the SVG of each kernel-render directive (appended);
 *	free with qu_render_pics_fini()
 * @r: the renderer
 * @page: the page's index
 * @diags: receives the page's warnings
 *
 * Context: thread-safe for distinct @out, @pics and @diags.
 * Return: as qu_render_page().
 */
int qu_render_page_pics(struct qu_buf *out, struct qu_render_pics *pics,
			const struct qu_render *r, uint32_t page,
			struct qu_diags *diags);

/**
 * qu_render_pics_fini() - free what qu_render_page_pics() gave
 * @pics: the files
 */
void qu_render_pics_fini(struct qu_render_pics *pics);

/**
 * qu_render_dot() - draw DOT as SVG with graphviz (libgvc, layout "dot")
 * @svg: receives the SVG (appended) when drawn
 * @msg: receives graphviz's messages, on one line (appended); its
 *	warnings may come with a drawing
 * @line_out: the 1-based line of the DOT that graphviz's error names,
 *	0 when it names none
 * @dot: the DOT text
 * @len: its length
 *
 * A graph with an attribute that makes graphviz open a file (image,
 * shapefile, imagepath, fontpath, stylesheet, an HTML label's IMG) is
 * refused before it is laid out: the DOT comes from the tree, and only
 * what the build was asked to read may be read. A drawing that
 * qu_render_svg_unsafe() finds script in (a URL attribute naming
 * javascript:) is refused too.
 *
 * Context: thread-safe; calls into graphviz are serialised (it keeps
 * global state). The first call opens graphviz (quire is not linked
 * with it) and makes its context, which lasts as long as the process
 * (graphviz cannot make a second one safely).
 * Return: 0 when drawn, -1 when graphviz could not (a syntax error, or
 * its libraries cannot be loaded: @msg says what), -2 when refused (@msg
 * names the attribute).
 */
int qu_render_dot(struct qu_buf *svg, struct qu_buf *msg, uint32_t *line_out,
		  const char *dot, size_t len);

/**
 * qu_render_svg_unsafe() - what in an SVG could run script
 * @svg: the SVG
 * @len: its length
 *
 * The site writes the SVG of a graph as a file: shown in an <img> it runs
 * nothing, but opened by itself it is a document of the site's origin.
 * Script is a <script> or <foreignObject> element, an on* attribute, or
 * a link or reference whose URL qu_md_url_is_safe() refuses; an SVG that
 * is not well-formed XML cannot be checked.
 * Context: thread-safe.
 * Return: NULL when none, else what was found ("a <script> element").
 */
const char *qu_render_svg_unsafe(const char *svg, size_t len);

/**
 * qu_render_extra() - the HTML of one extra file (genindex, 404)
 * @out: receives the bytes (appended)
 * @r: the renderer
 * @i: the index in @r->extras
 *
 * Context: thread-safe for distinct @out.
 * Return: 0, or -1 when libxml2 fails.
 */
int qu_render_extra(struct qu_buf *out, const struct qu_render *r, size_t i);

/**
 * qu_render_sitemap() - sitemap.xml: the URL of every page
 * @out: receives the bytes (appended)
 * @r: the renderer
 *
 * URLs are absolute, so a sitemap needs the configuration's base_url.
 * A page whose @page_files entry has a time gets it as <lastmod>.
 * Context: thread-safe for distinct @out.
 * Return: 0, 1 when there is no base_url (nothing written), -1 when
 * libxml2 fails.
 */
int qu_render_sitemap(struct qu_buf *out, const struct qu_render *r);

#endif /* QU_RENDER_RENDER_H */
