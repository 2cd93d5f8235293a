// SPDX-License-Identifier: MIT
/*
 * rst.c - a reST page's body: the reader's tree walked into DOM nodes
 * (render stage)
 *
 * page.c calls render_rst() for a page whose first part is QU_PART_RST.
 * The tree of lib/rst becomes libxml2 nodes the way lib/markdown walks
 * cmark's AST: text is text nodes, escaped by construction; sections
 * keep docutils' ids, labels their ids; :ref:, :doc: and the C roles
 * resolve through the graph and the site; bare foo() and struct foo link
 * as the kernel's automarkup does. The kernel-doc and toctree directives
 * are the page's other parts, found by their offset. What is not
 * rendered faithfully is shown as a literal block with -Wrst-unrendered.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parserInternals.h>

#include "render_int.h"
#include "rst/rst.h"

/*
 * Nesting the walk follows; the reader stops at 100 levels
 * (RST_MAX_DEPTH), so this only guards against a tree made otherwise.
 */
#define MAX_WALK_DEPTH 400

/*
 * Levels of pages a toctree lists below itself; the kernel's deepest is
 * 4, and it bounds two pages whose toctrees name each other.
 */
#define MAX_TOCTREE_DEPTH 8

/* One page's walk. */
struct rw {
	const struct qu_render *r;
	struct qu_md_ctx *ctx;
	xmlDocPtr doc;
	const struct qu_page *pg;
	const struct frame *f;
	const struct qu_rst_doc *rd;
	struct qu_diags *diags;
	struct qu_map targets; /* name -> target node (this page) */
	struct qu_map substs;  /* name -> substitution_definition */
	const struct qu_rst_node **anon;
	size_t nanon, anon_next;
	const char *lang; /* the highlight directive's language */
	uint32_t next_id; /* Sphinx's next "idN" after the parse's */
	struct qu_buf pending; /* label ids the next section takes, "a b " */
	struct qu_map fnref;   /* footnote name -> its first reference */
	const struct qu_rst_node **refs; /* every footnote reference */
	size_t nrefs;
	struct qu_map fnum;    /* footnote name -> (uintptr_t) its number */
	uint32_t nfoot;
	bool comment; /* a kernel-doc comment: its highlights too */
	unsigned includes; /* how deep in included files */
	uint32_t toc_path[MAX_TOCTREE_DEPTH + 1]; /* the pages a toctree
						   * is listing, outermost
						   * first */
	struct qu_map tocref; /* section node -> (uintptr_t) its contents
			       * entry's "idN" */
	unsigned depth, level;
	struct qu_buf tmp, href;
};

static void blocks(struct rw *w, xmlNodePtr parent,
		   const struct qu_rst_node *first);
static void block(struct rw *w, xmlNodePtr parent,
		  const struct qu_rst_node *n);
static struct qu_rst_doc *sub_parse(struct rw *w, const char *text,
				    size_t len);
static const char *secnum(const struct qu_render *r, uint32_t page,
			  const char *id);
static void inlines(struct rw *w, xmlNodePtr parent,
		    const struct qu_rst_node *first, bool plain);

static void where(const struct rw *w, uint32_t off, uint32_t *line,
		  uint32_t *col)
{
	*line = qu_lines_find(&w->rd->lines, off);
	*col = off - w->rd->lines.start[*line - 1] + 1;
}

static void QU_PRINTF(4, 5) warn(struct rw *w, enum qu_diag_id id,
				 uint32_t off, const char *fmt, ...)
{
	struct qu_buf msg = QU_BUF_INIT;
	uint32_t line, col;
	va_list ap;

	va_start(ap, fmt);
	qu_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	where(w, off, &line, &col);
	qu_diag(w->diags, id, w->pg->diag_path, line, col, "%s", msg.buf);
	qu_buf_fini(&msg);
}

static const struct qu_rst_node *child(const struct qu_rst_node *n,
				       enum qu_rst_kind kind)
{
	const struct qu_rst_node *c;

	for (c = n->first; c; c = c->next)
		if (c->kind == kind)
			return c;
	return NULL;
}

/* The value of a directive's option, as plain text, or NULL. */
static const char *option(struct rw *w, const struct qu_rst_node *d,
			  const char *name)
{
	const struct qu_rst_node *c;

	for (c = d->first; c; c = c->next) {
		const char *n = qu_rst_attr(c, "name");

		if (c->kind != QU_RST_DIRECTIVE_OPTION || !n || strcmp(n, name))
			continue;
		qu_buf_reset(&w->tmp);
		qu_rst_plain(&w->tmp, c);
		return w->tmp.buf;
	}
	return NULL;
}

static void set_ids(struct rw *w, xmlNodePtr el, const struct qu_rst_node *n)
{
	struct qu_buf id = QU_BUF_INIT;

	if (qu_rst_attr_item(&id, n, "ids", 0))
		r_attr(el, "id", id.buf);
	qu_buf_fini(&id);
	(void)w;
}

/* Ids past the first become empty spans, so every id still lands. */
static void extra_ids(struct rw *w, xmlNodePtr parent,
		      const struct qu_rst_node *n, size_t from)
{
	struct qu_buf id = QU_BUF_INIT;

	for (; qu_rst_attr_item(&id, n, "ids", from); from++)
		r_attr(r_el(w->doc, parent, "span", NULL), "id", id.buf);
	qu_buf_fini(&id);
}

/* The "¶" link Sphinx puts after a heading, a caption or a signature. */
static void headerlink(struct rw *w, xmlNodePtr el, const char *id)
{
	xmlNodePtr a = r_el(w->doc, el, "a", "headerlink");

	qu_buf_reset(&w->href);
	qu_buf_addf(&w->href, "#%s", id);
	r_attr(a, "href", w->href.buf);
	r_attr(a, "title", "Link to this place");
	r_text(w->doc, a, "\xc2\xb6");
}

/*
 * The id of a captioned table or figure: its own, else the next of
 * Sphinx's "idN" (its AutoNumbering transform names every enumerable
 * node with a title, counting on after the parser's ids).
 */
static void caption_id(struct rw *w, xmlNodePtr el, const struct qu_rst_node *n,
		       struct qu_buf *id)
{
	qu_buf_reset(id);
	if (!n || !qu_rst_attr_item(id, n, "ids", 0))
		qu_buf_addf(id, "id%u", w->next_id++);
	r_attr(el, "id", id->buf);
}

/* A link whose text is code: C symbols, as Sphinx's xrefs look. */
static void code_link(struct rw *w, xmlNodePtr parent, const char *href,
		      const char *text)
{
	xmlNodePtr a = r_el(w->doc, parent, "a", "qu-xref");

	r_attr(a, "href", href);
	r_text(w->doc, r_el(w->doc, a, "code", NULL), text);
}

/*
 * The link to a declaration a C-domain directive made ("c.NAME", a label
 * of its page), into w->href; false when no page declares @name.
 */
static bool decl_href(struct rw *w, const char *name, size_t len)
{
	const struct qu_label *l;
	uint32_t page;

	qu_buf_reset(&w->href);
	qu_buf_addf(&w->href, "c.%.*s", (int)len, name);
	l = qu_graph_label(w->r->g, w->href.buf, &page);
	qu_buf_reset(&w->href);
	if (!l)
		return false;
	if (page != w->f->page)
		qu_site_relpath(&w->href, w->f->out,
				w->r->site->pages[page].out);
	qu_buf_addf(&w->href, "#%s", l->id);
	return true;
}

/*
 * The kernel-doc highlights that are no links, as scripts/kernel-doc
 * turns them into reST: @param bold, %CONST and $ENV literal; an
 * unresolved &name as its name. The text before @ref goes first.
 * Return: true when @ref was one of them (and is written).
 */
static bool highlight(struct rw *w, xmlNodePtr parent, const char *s,
		      size_t pos, const struct qu_ref *ref)
{
	const char *el;

	switch (ref->kind) {
	case QU_REF_PARAM:
		el = "strong";
		break;
	case QU_REF_CONST:
	case QU_REF_ENV:
		el = "code";
		break;
	default:
		return false;
	}
	qu_buf_reset(&w->tmp);
	qu_buf_add(&w->tmp, s + pos, ref->start - pos);
	r_text(w->doc, parent, w->tmp.buf);
	qu_buf_reset(&w->tmp);
	qu_buf_add(&w->tmp, ref->name, ref->nlen);
	r_text(w->doc, r_el(w->doc, parent, el, NULL), w->tmp.buf);
	return true;
}

static void c_text(struct rw *w, xmlNodePtr parent, const char *s, size_t len,
		   bool plain);

static bool path_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '/';
}

/*
 * The next "path.rst" or "path.txt" at or after @pos, as the kernel's
 * automarkup.py finds them (RE_doc): [start, end) of the whole match.
 */
static bool doc_ref(const char *s, size_t len, size_t pos, size_t *start,
		    size_t *end)
{
	size_t i;

	for (i = pos; i + 4 <= len; i++) {
		size_t j = i;

		if (s[i] != '.' || (strncmp(s + i + 1, "rst", 3) &&
				    strncmp(s + i + 1, "txt", 3)))
			continue;
		while (j > pos && path_char(s[j - 1]))
			j--;
		while (j >= pos + 3 && !strncmp(s + j - 3, "../", 3))
			j -= 3;
		if (j == i)
			continue;
		*start = j;
		*end = i + 4;
		return true;
	}
	return false;
}

/*
 * Text, with automarkup of documents: "Documentation/x/y.rst" (from the
 * project's root) and "y.rst" or "../y.rst" (from this page's folder)
 * link to that page when there is one; the rest goes on to the C forms.
 */
static void text(struct rw *w, xmlNodePtr parent, const char *s, size_t len,
		 bool plain)
{
	size_t pos = 0, a, b;

	while (!plain && doc_ref(s, len, pos, &a, &b)) {
		const char *t = s + a, *src = w->pg->src ? w->pg->src : "";
		const char *sl = strrchr(src, '/');
		struct qu_buf path = QU_BUF_INIT, norm = QU_BUF_INIT;
		uint32_t page;

		if (b - a > 14 && !strncmp(t, "Documentation/", 14) &&
		    (!a || !path_char(s[a - 1])))
			qu_buf_add(&path, t + 14, b - a - 18);
		else {
			if (sl)
				qu_buf_add(&path, src, (size_t)(sl - src) + 1);
			qu_buf_add(&path, t, b - a - 4);
		}
		/* "a/../b" as the site names pages */
		{
			char *p = path.buf, *seg;

			while ((seg = strsep(&p, "/"))) {
				if (!strcmp(seg, "..")) {
					char *up;

					if (norm.len)
						norm.len--;
					up = memrchr(norm.buf, '/', norm.len);
					norm.len = up ? (size_t)(up - norm.buf) + 1
						      : 0;
					norm.buf[norm.len] = 0;
				} else if (*seg && strcmp(seg, ".")) {
					qu_buf_adds(&norm, seg);
					qu_buf_addc(&norm, '/');
				}
			}
			if (norm.len)
				norm.buf[--norm.len] = 0;
		}
		qu_buf_adds(&norm, ".rst");
		page = qu_site_find_page(w->r->site, norm.buf);
		qu_buf_fini(&path);
		qu_buf_fini(&norm);
		if (page == QU_NONE) {
			c_text(w, parent, s + pos, b - pos, plain);
		} else {
			xmlNodePtr el;

			c_text(w, parent, s + pos, a - pos, plain);
			qu_buf_reset(&w->href);
			qu_site_relpath(&w->href, w->f->out,
					w->r->site->pages[page].out);
			el = r_el(w->doc, parent, "a", "qu-doc-ref");
			r_attr(el, "href", w->href.buf);
			qu_buf_reset(&w->tmp);
			qu_buf_add(&w->tmp, t, b - a);
			r_text(w->doc, el, w->tmp.buf);
		}
		pos = b;
	}
	c_text(w, parent, s + pos, len - pos, plain);
}

/*
 * Text, with the kernel's automarkup of C: "foo()" and "struct foo" link
 * when the graph knows the symbol (Documentation/sphinx/automarkup.py),
 * here on text nodes only, never in literals, links or titles.
 */
static void c_text(struct rw *w, xmlNodePtr parent, const char *s, size_t len,
		   bool plain)
{
	struct qu_ref ref;
	size_t pos = 0;

	while (!plain && qu_graph_scan(&ref, s, len, pos, w->comment)) {
		uint32_t sym;

		/*
		 * "@foo()": scripts/kernel-doc turns foo() into a function
		 * reference before it looks for @param, so the "@" stays.
		 */
		if (ref.kind == QU_REF_PARAM && ref.end + 2 <= len &&
		    s[ref.end] == '(' && s[ref.end + 1] == ')') {
			qu_buf_reset(&w->tmp);
			qu_buf_add(&w->tmp, s + pos, ref.start + 1 - pos);
			r_text(w->doc, parent, w->tmp.buf);
			pos = ref.start + 1;
			continue;
		}
		if (highlight(w, parent, s, pos, &ref)) {
			pos = ref.end;
			continue;
		}
		sym = qu_graph_resolve(w->r->g, &ref, &w->ctx->from, NULL);

		if (sym == QU_NONE && decl_href(w, ref.name, ref.nlen)) {
			/* declared by a c:function, c:struct, ... directive */
			qu_buf_reset(&w->tmp);
			qu_buf_add(&w->tmp, s + pos, ref.start - pos);
			r_text(w->doc, parent, w->tmp.buf);
			qu_buf_reset(&w->tmp);
			qu_buf_add(&w->tmp, s + ref.start, ref.end - ref.start);
			code_link(w, parent, w->href.buf, w->tmp.buf);
			pos = ref.end;
			continue;
		}
		if (sym == QU_NONE) {
			qu_buf_reset(&w->tmp);
			qu_buf_add(&w->tmp, s + pos, ref.end - pos);
			r_text(w->doc, parent, w->tmp.buf);
			pos = ref.end;
			continue;
		}
		qu_buf_reset(&w->tmp);
		qu_buf_add(&w->tmp, s + pos, ref.start - pos);
		r_text(w->doc, parent, w->tmp.buf);
		qu_buf_reset(&w->href);
		qu_graph_href(&w->href, w->r->g, w->ctx->from.page, sym);
		qu_buf_reset(&w->tmp);
		/* "&struct foo" shows as "struct foo" */
		qu_buf_add(&w->tmp, s + ref.start + ref.amp,
			   ref.end - ref.start - ref.amp);
		code_link(w, parent, w->href.buf, w->tmp.buf);
		pos = ref.end;
	}
	qu_buf_reset(&w->tmp);
	qu_buf_add(&w->tmp, s + pos, len - pos);
	r_text(w->doc, parent, w->tmp.buf);
}

/* "Title <target>" of a role: the two halves, or the text alone. */
static void split_title(const char *s, struct qu_buf *title,
			struct qu_buf *target)
{
	size_t l = strlen(s);
	const char *lt = l && s[l - 1] == '>' ? strrchr(s, '<') : NULL;

	qu_buf_reset(title);
	qu_buf_reset(target);
	if (lt && lt > s) {
		size_t tl = (size_t)(lt - s);

		while (tl && (s[tl - 1] == ' ' || s[tl - 1] == '\n'))
			tl--;
		qu_buf_add(title, s, tl);
		qu_buf_add(target, lt + 1, (size_t)(s + l - 1 - lt - 1));
	} else {
		qu_buf_adds(target, s);
	}
}

/* A label as Sphinx normalises it: lower case, blanks joined. */
static void norm_label(struct qu_buf *out, const char *s)
{
	bool sp = false;

	qu_buf_reset(out);
	for (; *s; s++) {
		char c = *s;

		if (c == ' ' || c == '\n' || c == '\t') {
			sp = out->len > 0;
			continue;
		}
		if (sp)
			qu_buf_addc(out, ' ');
		sp = false;
		qu_buf_addc(out, c >= 'A' && c <= 'Z' ? (char)(c + 32) : c);
	}
}

static void unresolved(struct rw *w, xmlNodePtr parent,
		       const struct qu_rst_node *n, const char *what,
		       const char *shown)
{
	r_text(w->doc, r_el(w->doc, parent, "span", "qu-unresolved"), shown);
	warn(w, QU_W_BROKEN_LINK, n->off, "%s '%s' names nothing, showing it "
	     "as text", what, shown);
}

/* :ref:`label` and :ref:`Title <label>`: a label of any page. */
static void role_ref(struct rw *w, xmlNodePtr parent,
		     const struct qu_rst_node *n, const char *s)
{
	struct qu_buf title = QU_BUF_INIT, target = QU_BUF_INIT;
	struct qu_buf key = QU_BUF_INIT;
	const struct qu_label *l;
	uint32_t page;

	split_title(s, &title, &target);
	norm_label(&key, target.buf);
	l = qu_graph_label(w->r->g, key.buf, &page);
	if (!l) {
		unresolved(w, parent, n, ":ref: label",
			   title.len ? title.buf : target.buf);
	} else {
		xmlNodePtr a;

		qu_buf_reset(&w->href);
		if (page != w->f->page)
			qu_site_relpath(&w->href, w->f->out,
					w->r->site->pages[page].out);
		qu_buf_addf(&w->href, "#%s", l->id);
		a = r_el(w->doc, parent, "a", "qu-ref");
		r_attr(a, "href", w->href.buf);
		r_text(w->doc, a,
		       title.len ? title.buf
		       : l->title ? l->title
				  : target.buf);
	}
	qu_buf_fini(&title);
	qu_buf_fini(&target);
	qu_buf_fini(&key);
}

/* :doc:`path`: a page, relative to this one's folder or to the root. */
static void role_doc(struct rw *w, xmlNodePtr parent,
		     const struct qu_rst_node *n, const char *s)
{
	struct qu_buf title = QU_BUF_INIT, target = QU_BUF_INIT;
	struct qu_buf path = QU_BUF_INIT;
	const char *src = w->pg->src ? w->pg->src : "";
	const char *sl = strrchr(src, '/');
	uint32_t page;

	split_title(s, &title, &target);
	if (target.len && target.buf[0] == '/') {
		qu_buf_adds(&path, target.buf + 1);
	} else {
		if (sl)
			qu_buf_add(&path, src, (size_t)(sl - src) + 1);
		qu_buf_adds(&path, target.buf);
	}
	/* "a/../b" as the site names pages */
	{
		struct qu_buf norm = QU_BUF_INIT;
		char *p = path.buf, *seg;

		while ((seg = strsep(&p, "/"))) {
			if (!strcmp(seg, "..")) {
				char *up;

				if (norm.len)
					norm.len--;
				up = memrchr(norm.buf, '/', norm.len);
				norm.len = up ? (size_t)(up - norm.buf) + 1 : 0;
				norm.buf[norm.len] = 0;
			} else if (*seg && strcmp(seg, ".")) {
				qu_buf_adds(&norm, seg);
				qu_buf_addc(&norm, '/');
			}
		}
		if (norm.len)
			norm.buf[--norm.len] = 0;
		qu_buf_reset(&path);
		qu_buf_add(&path, norm.buf, norm.len);
		qu_buf_fini(&norm);
	}
	qu_buf_adds(&path, ".rst");
	page = qu_site_find_page(w->r->site, path.buf);
	if (page == QU_NONE) {
		path.len -= 4;
		qu_buf_adds(&path, ".md");
		page = qu_site_find_page(w->r->site, path.buf);
	}
	if (page == QU_NONE) {
		unresolved(w, parent, n, ":doc: page",
			   title.len ? title.buf : target.buf);
	} else {
		xmlNodePtr a;

		qu_buf_reset(&w->href);
		qu_site_relpath(&w->href, w->f->out,
				w->r->site->pages[page].out);
		a = r_el(w->doc, parent, "a", "qu-doc-ref");
		r_attr(a, "href", w->href.buf);
		r_text(w->doc, a,
		       title.len ? title.buf : w->r->site->pages[page].title);
	}
	qu_buf_fini(&title);
	qu_buf_fini(&target);
	qu_buf_fini(&path);
}

/*
 * :c:func:, :c:type:, :c:macro:, :c:member: and friends: a symbol of the
 * graph; unresolved ones stay code, as Sphinx leaves them (it warns only
 * in nitpicky mode).
 */
static void role_c(struct rw *w, xmlNodePtr parent, const char *role,
		   const char *s)
{
	struct qu_buf title = QU_BUF_INIT, target = QU_BUF_INIT;
	struct qu_buf shown = QU_BUF_INIT;
	bool func = !strcmp(role, "c:func");
	uint32_t sym;
	const char *t;

	split_title(s, &title, &target);
	t = target.buf;
	if (*t == '~' || *t == '!')
		t++;
	qu_buf_adds(&shown, title.len ? title.buf : t);
	if (func && !title.len && !strchr(shown.buf, '('))
		qu_buf_adds(&shown, "()");
	sym = qu_graph_lookup(w->r->g, t, strlen(t), &w->ctx->from, NULL);
	if (sym == QU_NONE && func && !strchr(t, '(')) {
		qu_buf_reset(&w->tmp);
		qu_buf_addf(&w->tmp, "%s()", t);
		sym = qu_graph_lookup(w->r->g, w->tmp.buf, w->tmp.len,
				      &w->ctx->from, NULL);
	}
	if (sym == QU_NONE && !strcmp(role, "c:type") && !strchr(t, ' ')) {
		static const char *const tags[] = {"struct", "union", "enum",
						   "typedef"};

		for (size_t k = 0; sym == QU_NONE && k < 4; k++) {
			qu_buf_reset(&w->tmp);
			qu_buf_addf(&w->tmp, "%s %s", tags[k], t);
			sym = qu_graph_lookup(w->r->g, w->tmp.buf, w->tmp.len,
					      &w->ctx->from, NULL);
		}
	}
	if (sym == QU_NONE) {
		/* a declaration of a c:function, c:macro, ... directive */
		const char *nm = strrchr(t, ' ') ? strrchr(t, ' ') + 1 : t;

		if (decl_href(w, nm, strcspn(nm, "("))) {
			code_link(w, parent, w->href.buf, shown.buf);
		} else {
			r_text(w->doc, r_el(w->doc, parent, "code", "qu-c"),
			       shown.buf);
		}
	} else {
		qu_buf_reset(&w->href);
		qu_graph_href(&w->href, w->r->g, w->ctx->from.page, sym);
		code_link(w, parent, w->href.buf, shown.buf);
	}
	qu_buf_fini(&title);
	qu_buf_fini(&target);
	qu_buf_fini(&shown);
}

/* How the roles that are not links look, as Sphinx's HTML writer. */
static const struct {
	const char *name;
	const char *el;
} role_looks[] = {
	{"file", "code"},     {"samp", "code"},	    {"command", "strong"},
	{"program", "strong"}, {"option", "code"},   {"envvar", "code"},
	{"kbd", "kbd"},	      {"abbr", "abbr"},	    {"dfn", "em"},
	{"math", "code"},     {"manpage", "em"},    {"menuselection", "em"},
	{"guilabel", "em"},   {"mimetype", "em"},   {"regexp", "code"},
	{"term", "em"},	      {"numref", "em"},	    {"code", "code"},
	{"c:expr", "code"},   {"c:texpr", "code"},  {"rfc", "strong"},
	{"pep", "strong"},
};

static void role(struct rw *w, xmlNodePtr parent, const struct qu_rst_node *n)
{
	const char *name = qu_rst_attr(n, "name");
	struct qu_buf s = QU_BUF_INIT;
	size_t k;

	qu_rst_plain(&s, n);
	if (!name)
		name = "";
	if (!strcmp(name, "ref")) {
		role_ref(w, parent, n, s.buf);
	} else if (!strcmp(name, "doc")) {
		role_doc(w, parent, n, s.buf);
	} else if (!strncmp(name, "c:", 2) &&
		   (!strcmp(name + 2, "func") || !strcmp(name + 2, "type") ||
		    !strcmp(name + 2, "macro") || !strcmp(name + 2, "member") ||
		    !strcmp(name + 2, "data") || !strcmp(name + 2, "var") ||
		    !strcmp(name + 2, "struct") || !strcmp(name + 2, "union") ||
		    !strcmp(name + 2, "enum") ||
		    !strcmp(name + 2, "enumerator"))) {
		role_c(w, parent, name, s.buf);
	} else {
		for (k = 0; k < QU_ARRAY_SIZE(role_looks); k++)
			if (!strcmp(name, role_looks[k].name))
				break;
		if (k == QU_ARRAY_SIZE(role_looks)) {
			r_text(w->doc, r_el(w->doc, parent, "code", NULL),
			       s.buf);
			warn(w, QU_W_RST_UNRENDERED, n->off,
			     "role ':%s:' is not rendered, showing its text as "
			     "code",
			     name);
		} else {
			struct qu_buf t = QU_BUF_INIT, g = QU_BUF_INIT;
			xmlNodePtr el;

			/* "Text <target>" shows the text (:manpage:, :abbr:) */
			split_title(s.buf, &t, &g);
			el = r_el(w->doc, parent, role_looks[k].el, NULL);
			if (!strcmp(name, "abbr") && t.len) {
				r_attr(el, "title", g.buf);
				r_text(w->doc, el, t.buf);
			} else {
				r_text(w->doc, el, t.len ? t.buf : g.buf);
			}
			qu_buf_fini(&t);
			qu_buf_fini(&g);
		}
	}
	qu_buf_fini(&s);
}

static bool link_ok(struct rw *w, const struct qu_rst_node *n,
		    const char *url)
{
	if (qu_md_url_is_safe(url))
		return true;
	warn(w, QU_W_UNSAFE_URL, n->off, "dropping the link target '%s'",
	     url);
	return false;
}

/*
 * A reference: to a URI, to a named target of this page (external, or an
 * element id), or anonymous (the n-th anonymous target).
 */
static void reference(struct rw *w, xmlNodePtr parent,
		      const struct qu_rst_node *n, bool plain)
{
	const char *uri = qu_rst_attr(n, "refuri");
	const char *name = qu_rst_attr(n, "refname");
	xmlNodePtr a;

	if (!uri && qu_rst_attr(n, "anonymous")) {
		while (w->anon_next < w->nanon && !uri) {
			const struct qu_rst_node *t = w->anon[w->anon_next++];

			uri = qu_rst_attr(t, "refuri");
		}
	}
	qu_buf_reset(&w->href);
	if (!uri && name) {
		const struct qu_rst_node *t =
			qu_map_get(&w->targets, name, strlen(name));
		size_t guard = 0;

		/* an indirect target (".. _a: b_") names another */
		while (t && !qu_rst_attr(t, "refuri") &&
		       qu_rst_attr(t, "refname") && guard++ < 16) {
			const char *nx = qu_rst_attr(t, "refname");

			t = qu_map_get(&w->targets, nx, strlen(nx));
		}
		if (t && qu_rst_attr(t, "refuri")) {
			uri = qu_rst_attr(t, "refuri");
		} else if (t) {
			struct qu_buf id = QU_BUF_INIT;

			if (qu_rst_attr_item(&id, t, "ids", 0))
				qu_buf_addf(&w->href, "#%s", id.buf);
			qu_buf_fini(&id);
		} else {
			/* Sphinx resolves a bare name_ against labels too */
			struct qu_buf key = QU_BUF_INIT;
			const struct qu_label *l;
			uint32_t page;

			norm_label(&key, name);
			l = qu_graph_label(w->r->g, key.buf, &page);
			if (l) {
				if (page != w->f->page)
					qu_site_relpath(
						&w->href, w->f->out,
						w->r->site->pages[page].out);
				qu_buf_addf(&w->href, "#%s", l->id);
			}
			qu_buf_fini(&key);
		}
	}
	if (uri)
		qu_buf_adds(&w->href, uri);
	if (plain || !w->href.len || !link_ok(w, n, w->href.buf)) {
		if (!plain && !w->href.len && name)
			warn(w, QU_W_BROKEN_LINK, n->off,
			     "reference '%s' names no target, showing it as "
			     "text",
			     name);
		inlines(w, parent, n->first, true);
		return;
	}
	a = r_el(w->doc, parent, "a", uri ? "qu-external" : NULL);
	r_attr(a, "href", w->href.buf);
	inlines(w, a, n->first, true);
}

/*
 * The unicode directive of a substitution definition ("|delta| unicode::
 * U+00394"): code points as U+XXXX, 0xXX, \\uXXXX, &#xXX; or decimal,
 * other words as text, as docutils' unicode_code() reads them.
 */
static void unicode(struct rw *w, xmlNodePtr parent, const char *arg)
{
	struct qu_buf out = QU_BUF_INIT;
	const char *p = arg;

	while (*p) {
		const char *e;
		char *end;
		unsigned long cp;
		int base = 0;

		p += strspn(p, " \t\n");
		if (!*p || (p[0] == '.' && p[1] == '.'))
			break;
		e = p + strcspn(p, " \t\n");
		if ((p[0] == 'U' || p[0] == 'u') && p[1] == '+')
			p += 2, base = 16;
		else if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
			p += 2, base = 16;
		else if (p[0] == '\\' && (p[1] == 'u' || p[1] == 'x'))
			p += 2, base = 16;
		else if (p[0] == '&' && p[1] == '#' && (p[2] == 'x' || p[2] == 'X'))
			p += 3, base = 16;
		else if (p[0] >= '0' && p[0] <= '9')
			base = 10;
		cp = base ? strtoul(p, &end, base) : 0;
		if (base && end > p && cp && cp <= 0x10ffff &&
		    (cp < 0xd800 || cp > 0xdfff)) {
			if (cp < 0x80) {
				qu_buf_addc(&out, (char)cp);
			} else if (cp < 0x800) {
				qu_buf_addc(&out, (char)(0xc0 | (cp >> 6)));
				qu_buf_addc(&out, (char)(0x80 | (cp & 0x3f)));
			} else if (cp < 0x10000) {
				qu_buf_addc(&out, (char)(0xe0 | (cp >> 12)));
				qu_buf_addc(&out,
					    (char)(0x80 | ((cp >> 6) & 0x3f)));
				qu_buf_addc(&out, (char)(0x80 | (cp & 0x3f)));
			} else {
				qu_buf_addc(&out, (char)(0xf0 | (cp >> 18)));
				qu_buf_addc(&out,
					    (char)(0x80 | ((cp >> 12) & 0x3f)));
				qu_buf_addc(&out,
					    (char)(0x80 | ((cp >> 6) & 0x3f)));
				qu_buf_addc(&out, (char)(0x80 | (cp & 0x3f)));
			}
		} else {
			while (p > arg && p[-1] != ' ' && p[-1] != '\t' &&
			       p[-1] != '\n')
				p--;
			qu_buf_add(&out, p, (size_t)(e - p));
		}
		p = e;
	}
	r_text(w->doc, parent, out.buf);
	qu_buf_fini(&out);
}

static void inlines(struct rw *w, xmlNodePtr parent,
		    const struct qu_rst_node *first, bool plain)
{
	const struct qu_rst_node *n;
	static const char *const tags[QU_RST__COUNT] = {
		[QU_RST_EMPHASIS] = "em",	  [QU_RST_STRONG] = "strong",
		[QU_RST_SUBSCRIPT] = "sub",	  [QU_RST_SUPERSCRIPT] = "sup",
		[QU_RST_TITLE_REFERENCE] = "cite",
	};

	for (n = first; n; n = n->next) {
		switch (n->kind) {
		case QU_RST_TEXT:
			text(w, parent, n->text, n->len, plain);
			break;
		case QU_RST_EMPHASIS:
		case QU_RST_STRONG:
		case QU_RST_SUBSCRIPT:
		case QU_RST_SUPERSCRIPT:
		case QU_RST_TITLE_REFERENCE:
			inlines(w, r_el(w->doc, parent, tags[n->kind], NULL),
				n->first, plain);
			break;
		case QU_RST_LITERAL: {
			qu_buf_reset(&w->tmp);
			qu_rst_plain(&w->tmp, n);
			r_text(w->doc, r_el(w->doc, parent, "code", NULL),
			       w->tmp.buf);
			break;
		}
		case QU_RST_ROLE:
			if (plain) {
				qu_buf_reset(&w->tmp);
				qu_rst_plain(&w->tmp, n);
				r_text(w->doc, parent, w->tmp.buf);
			} else {
				role(w, parent, n);
			}
			break;
		case QU_RST_REFERENCE:
			reference(w, parent, n, plain);
			break;
		case QU_RST_TARGET: {
			/* an inline target: its text, with its id */
			xmlNodePtr sp;

			if (qu_rst_attr(n, "refuri") || qu_rst_attr(n, "refname"))
				break;
			sp = r_el(w->doc, parent, "span", NULL);
			set_ids(w, sp, n);
			inlines(w, sp, n->first, plain);
			break;
		}
		case QU_RST_SUBSTITUTION_REFERENCE: {
			const char *nm = qu_rst_attr(n, "refname");
			const struct qu_rst_node *d =
				nm ? qu_map_get(&w->substs, nm, strlen(nm))
				   : NULL;

			if (d && d->kind == QU_RST_DIRECTIVE) {
				const struct qu_rst_node *a =
					child(d, QU_RST_DIRECTIVE_ARGUMENTS);
				char *arg;

				qu_buf_reset(&w->tmp);
				if (a)
					qu_rst_plain(&w->tmp, a);
				arg = qu_xstrdup(w->tmp.buf);
				unicode(w, parent, arg);
				free(arg);
			} else if (d && w->depth < MAX_WALK_DEPTH) {
				w->depth++;
				inlines(w, parent, d->first, plain);
				w->depth--;
			} else {
				inlines(w, parent, n->first, plain);
			}
			break;
		}
		case QU_RST_FOOTNOTE_REFERENCE:
		case QU_RST_CITATION_REFERENCE: {
			xmlNodePtr a = r_el(w->doc, parent, "a",
					    "qu-footnote-ref");
			const char *rn = qu_rst_attr(n, "refname");
			const struct qu_rst_node *t =
				rn ? qu_map_get(&w->targets, rn, strlen(rn))
				   : NULL;
			struct qu_buf id = QU_BUF_INIT;

			set_ids(w, a, n);
			if (t && qu_rst_attr_item(&id, t, "ids", 0)) {
				qu_buf_reset(&w->href);
				qu_buf_addf(&w->href, "#%s", id.buf);
				r_attr(a, "href", w->href.buf);
			}
			qu_buf_fini(&id);
			r_text(w->doc, a, "[");
			if (n->first) {
				inlines(w, a, n->first, true);
			} else {
				uintptr_t k = rn ? (uintptr_t)qu_map_get(
							   &w->fnum, rn,
							   strlen(rn))
						 : 0;

				qu_buf_reset(&w->tmp);
				if (k)
					qu_buf_addf(&w->tmp, "%lu",
						    (unsigned long)k);
				else
					qu_buf_addc(&w->tmp, '#');
				r_text(w->doc, a, w->tmp.buf);
			}
			r_text(w->doc, a, "]");
			break;
		}
		case QU_RST_DIRECTIVE: {
			/* the directives of substitution definitions */
			const char *nm = qu_rst_attr(n, "name");
			const struct qu_rst_node *a =
				child(n, QU_RST_DIRECTIVE_ARGUMENTS);

			if (nm && !strcmp(nm, "unicode") && a) {
				qu_buf_reset(&w->tmp);
				qu_rst_plain(&w->tmp, a);
				{
					char *arg = qu_xstrdup(w->tmp.buf);

					unicode(w, parent, arg);
					free(arg);
				}
			}
			break;
		}
		default:
			inlines(w, parent, n->first, plain);
			break;
		}
	}
}

static void code_text(struct rw *w, xmlNodePtr parent, const char *lang,
		      const char *s, size_t len)
{
	xmlNodePtr pre = r_el(w->doc, parent, "pre", "qu-code");
	xmlNodePtr code = r_el(w->doc, pre, "code", NULL);

	if (lang && *lang && strcmp(lang, "none") && strcmp(lang, "text")) {
		qu_buf_reset(&w->tmp);
		qu_buf_addf(&w->tmp, "language-%s", lang);
		r_attr(code, "class", w->tmp.buf);
	}
	if (lang && !strcasecmp(lang, "c")) {
		qu_md_highlight_c(w->doc, code, s, len);
	} else {
		struct qu_buf b = QU_BUF_INIT;

		qu_buf_add(&b, s, len);
		r_text(w->doc, code, b.buf);
		qu_buf_fini(&b);
	}
}

/* Whether the reader knows @name (else it warned already). */
static bool reader_knows(const char *name)
{
	static const char *const names[] = {
#define RST_DIRECTIVE(id, name, content, args) name,
#include "rst/directives.def"
#undef RST_DIRECTIVE
	};
	size_t k;

	for (k = 0; k < QU_ARRAY_SIZE(names); k++)
		if (!strcmp(names[k], name))
			return true;
	return false;
}

/*
 * A directive quire does not render: its source, reconstructed from the
 * tree, as a literal block, and a warning, so nothing is silently lost.
 */
static void unrendered(struct rw *w, xmlNodePtr parent,
		       const struct qu_rst_node *d, const char *why)
{
	struct qu_buf b = QU_BUF_INIT, v = QU_BUF_INIT;
	const struct qu_rst_node *c;
	const char *name = qu_rst_attr(d, "name");

	qu_buf_addf(&b, ".. %s::", name ? name : "");
	for (c = d->first; c; c = c->next) {
		qu_buf_reset(&v);
		qu_rst_plain(&v, c);
		if (c->kind == QU_RST_DIRECTIVE_ARGUMENTS)
			qu_buf_addf(&b, " %s", v.buf);
		else if (c->kind == QU_RST_DIRECTIVE_OPTION)
			qu_buf_addf(&b, "\n   :%s: %s", qu_rst_attr(c, "name"),
				    v.buf);
		else if (c->kind == QU_RST_DIRECTIVE_CONTENT && v.len) {
			const char *p = v.buf;

			qu_buf_adds(&b, "\n");
			while (*p) {
				const char *nl = strchr(p, '\n');
				size_t l = nl ? (size_t)(nl - p) : strlen(p);

				qu_buf_adds(&b, "\n");
				if (l)
					qu_buf_adds(&b, "   ");
				qu_buf_add(&b, p, l);
				p += l + (nl != NULL);
			}
		}
	}
	code_text(w, parent, NULL, b.buf, b.len);
	/* an unknown one has its -Wrst-unknown-directive from the reader */
	if (name && reader_knows(name))
		warn(w, QU_W_RST_UNRENDERED, d->off,
		     "directive '%s' is not rendered (%s); showing its source",
		     name, why);
	qu_buf_fini(&b);
	qu_buf_fini(&v);
}

/* Body elements of a directive's content, when it has any. */
static void content(struct rw *w, xmlNodePtr parent,
		    const struct qu_rst_node *d)
{
	const struct qu_rst_node *c = child(d, QU_RST_DIRECTIVE_CONTENT);

	if (c)
		blocks(w, parent, c->first);
}

static void admonition(struct rw *w, xmlNodePtr parent, const char *cls,
		       const char *title, const struct qu_rst_node *first)
{
	xmlNodePtr div = r_el(w->doc, parent, "div", "qu-admonition");

	qu_buf_reset(&w->tmp);
	qu_buf_addf(&w->tmp, "qu-admonition %s", cls);
	r_attr(div, "class", w->tmp.buf);
	r_text(w->doc, r_el(w->doc, div, "p", "qu-admonition-title"), title);
	blocks(w, div, first);
}

/* Whether @n is text of blanks only (between two leading roles). */
static bool blank_text(const struct qu_rst_node *n)
{
	return n->kind == QU_RST_TEXT && strspn(n->text, " \n") == n->len;
}

/*
 * A cell count from flat-table's :cspan:`N` / :rspan:`N` roles at the
 * start of a cell; the roles are removed from what is shown.
 */
static unsigned span_role(const struct qu_rst_node *cell, const char *which)
{
	const struct qu_rst_node *p = cell->first, *r;

	if (!p || p->kind != QU_RST_PARAGRAPH)
		return 0;
	for (r = p->first; r && (r->kind == QU_RST_ROLE || blank_text(r));
	     r = r->next) {
		const char *nm = qu_rst_attr(r, "name");

		if (r->kind == QU_RST_ROLE && nm && !strcmp(nm, which) &&
		    r->first && r->first->kind == QU_RST_TEXT)
			return (unsigned)strtoul(r->first->text, NULL, 10);
	}
	return 0;
}

/*
 * Columns a table may have; the kernel's widest has 20. Past it spans
 * are not tracked (the cells are still shown).
 */
#define MAX_TABLE_COLS 1024

/*
 * Lay out one row of a flat-table or list-table: where each cell goes
 * given the row spans above (@busy counts the rows each column is still
 * covered for). Return: the columns the row fills.
 */
static unsigned row_cols(const struct qu_rst_node *cells, bool flat,
			 unsigned *busy)
{
	const struct qu_rst_node *cell;
	unsigned col = 0, k;

	for (cell = cells ? cells->first : NULL; cell; cell = cell->next) {
		unsigned cs = flat ? span_role(cell, "cspan") : 0;
		unsigned rs = flat ? span_role(cell, "rspan") : 0;

		while (col < MAX_TABLE_COLS && busy[col])
			col++;
		for (k = 0; k <= cs && col + k < MAX_TABLE_COLS; k++)
			busy[col + k] = rs + 1;
		col += cs + 1;
	}
	for (k = 0; k < MAX_TABLE_COLS; k++)
		if (busy[k]) {
			busy[k]--;
			if (k >= col)
				col = k + 1;
		}
	return col < MAX_TABLE_COLS ? col : MAX_TABLE_COLS;
}

/*
 * flat-table and list-table: a bullet list of rows, each a bullet list of
 * cells; :header-rows: rows are the head. flat-table cells may span with
 * :cspan: and :rspan:, and a row's last cell spans the columns the row
 * leaves empty (the kernel's rstFlatTable).
 */
static void list_table(struct rw *w, xmlNodePtr parent,
		       const struct qu_rst_node *d, bool flat)
{
	const struct qu_rst_node *c = child(d, QU_RST_DIRECTIVE_CONTENT);
	const struct qu_rst_node *list = c ? child(c, QU_RST_BULLET_LIST) : NULL;
	const struct qu_rst_node *row, *args = child(d, QU_RST_DIRECTIVE_ARGUMENTS);
	const char *hr = option(w, d, "header-rows");
	unsigned head = hr ? (unsigned)strtoul(hr, NULL, 10) : 0, nrow = 0;
	unsigned *busy, ncols = 0;
	xmlNodePtr t, thead = NULL, tbody = NULL;

	if (!list) {
		unrendered(w, parent, d, "its content is not a list of rows");
		return;
	}
	busy = qu_xcalloc(MAX_TABLE_COLS, sizeof(*busy));
	for (row = list->first; row; row = row->next) {
		unsigned n = row_cols(child(row, QU_RST_BULLET_LIST), flat,
				      busy);

		if (n > ncols)
			ncols = n;
	}
	memset(busy, 0, MAX_TABLE_COLS * sizeof(*busy));
	t = r_el(w->doc, parent, "table", "qu-table");
	if (args) {
		xmlNodePtr cap = r_el(w->doc, t, "caption", NULL);
		struct qu_buf id = QU_BUF_INIT;

		caption_id(w, t, NULL, &id);
		inlines(w, cap, args->first, false);
		headerlink(w, cap, id.buf);
		qu_buf_fini(&id);
	}
	for (row = list->first; row; row = row->next, nrow++) {
		const struct qu_rst_node *cells = child(row, QU_RST_BULLET_LIST);
		const struct qu_rst_node *cell, *x;
		xmlNodePtr tr, td = NULL;
		bool th = nrow < head;
		unsigned filled;

		if (row->kind != QU_RST_LIST_ITEM)
			continue;
		if (th && !thead)
			thead = r_el(w->doc, t, "thead", NULL);
		if (!th && !tbody)
			tbody = r_el(w->doc, t, "tbody", NULL);
		tr = r_el(w->doc, th ? thead : tbody, "tr", NULL);
		/* a label before the row's cells names the row */
		for (x = row->first; x; x = x->next)
			if (x->kind == QU_RST_TARGET)
				extra_ids(w, tr, x, 0);
		filled = row_cols(cells, flat, busy);
		for (cell = cells ? cells->first : NULL; cell;
		     cell = cell->next) {
			unsigned cs = flat ? span_role(cell, "cspan") : 0;
			unsigned rs = flat ? span_role(cell, "rspan") : 0;
			const struct qu_rst_node *b = cell->first;

			td = r_el(w->doc, tr, th ? "th" : "td", NULL);
			if (flat && !cell->next && filled < ncols)
				cs += ncols - filled;
			if (cs) {
				qu_buf_reset(&w->tmp);
				qu_buf_addf(&w->tmp, "%u", cs + 1);
				r_attr(td, "colspan", w->tmp.buf);
			}
			if (rs) {
				qu_buf_reset(&w->tmp);
				qu_buf_addf(&w->tmp, "%u", rs + 1);
				r_attr(td, "rowspan", w->tmp.buf);
			}
			if (flat && b && b->kind == QU_RST_PARAGRAPH &&
			    b->first && b->first->kind == QU_RST_ROLE &&
			    (span_role(cell, "cspan") ||
			     span_role(cell, "rspan"))) {
				/* the span roles lead the first paragraph */
				xmlNodePtr p = r_el(w->doc, td, "p", NULL);

				x = b->first;
				while (x && (x->kind == QU_RST_ROLE ||
					     blank_text(x)))
					x = x->next;
				if (x && x->kind == QU_RST_TEXT) {
					size_t sp = strspn(x->text, " \n");

					text(w, p, x->text + sp, x->len - sp,
					     false);
					x = x->next;
				}
				inlines(w, p, x, false);
				b = b->next;
			}
			blocks(w, td, b);
		}
	}
	free(busy);
}

/*
 * One CSV record of @s into @cells (NUL-separated in @cells, @n of them):
 * fields split by commas, "quoted" fields with "" for a quote, blanks
 * after a comma dropped, as csv-table's default dialect. Returns where the
 * next record starts.
 */
static const char *csv_record(const char *s, struct qu_buf *cells, size_t *n)
{
	qu_buf_reset(cells);
	*n = 0;
	while (*s && *s != '\n') {
		s += strspn(s, " \t");
		if (*s == '"') {
			for (s++; *s; s++) {
				if (*s == '"' && s[1] == '"')
					qu_buf_addc(cells, *s++);
				else if (*s == '"')
					break;
				else
					qu_buf_addc(cells, *s);
			}
			if (*s == '"')
				s++;
			s += strcspn(s, ",\n");
		} else {
			const char *e = s + strcspn(s, ",\n"), *t = e;

			while (t > s && (t[-1] == ' ' || t[-1] == '\t'))
				t--;
			qu_buf_add(cells, s, (size_t)(t - s));
			s = e;
		}
		qu_buf_addc(cells, 0);
		(*n)++;
		if (*s == ',')
			s++;
		else
			break;
	}
	return *s == '\n' ? s + 1 : s;
}

/* A CSV cell: its text read as reST, a paragraph as the cell's body. */
static void csv_cell(struct rw *w, xmlNodePtr td, const char *text)
{
	struct qu_rst_doc *sub = sub_parse(w, text, strlen(text));

	blocks(w, td, sub->root->first);
	qu_rst_free(sub);
}

/* csv-table: :header: and the content, records of comma-separated cells. */
static void csv_table(struct rw *w, xmlNodePtr parent,
		      const struct qu_rst_node *d)
{
	const struct qu_rst_node *c = child(d, QU_RST_DIRECTIVE_CONTENT);
	const struct qu_rst_node *args = child(d, QU_RST_DIRECTIVE_ARGUMENTS);
	const char *hdr = option(w, d, "header"), *hr;
	struct qu_buf body = QU_BUF_INIT, cells = QU_BUF_INIT, h = QU_BUF_INIT;
	xmlNodePtr t = r_el(w->doc, parent, "table", "qu-table"), tb, tr;
	unsigned head = 0, row = 0;
	const char *p;
	size_t n, k;

	if (hdr)
		qu_buf_adds(&h, hdr);
	hr = option(w, d, "header-rows");
	if (hr)
		head = (unsigned)strtoul(hr, NULL, 10);
	if (c)
		qu_rst_plain(&body, c);
	if (args) {
		xmlNodePtr cap = r_el(w->doc, t, "caption", NULL);
		struct qu_buf id = QU_BUF_INIT;

		caption_id(w, t, NULL, &id);
		inlines(w, cap, args->first, false);
		headerlink(w, cap, id.buf);
		qu_buf_fini(&id);
	}
	if (h.len) {
		tr = r_el(w->doc, r_el(w->doc, t, "thead", NULL), "tr", NULL);
		csv_record(h.buf, &cells, &n);
		for (k = 0, p = cells.buf; k < n; k++, p += strlen(p) + 1)
			csv_cell(w, r_el(w->doc, tr, "th", NULL), p);
	}
	tb = r_el(w->doc, t, "tbody", NULL);
	for (p = body.buf; *p; row++) {
		const char *q;

		p = csv_record(p, &cells, &n);
		if (!n)
			continue;
		tr = r_el(w->doc, tb, "tr", NULL);
		for (k = 0, q = cells.buf; k < n; k++, q += strlen(q) + 1)
			csv_cell(w, r_el(w->doc, tr, row < head ? "th" : "td",
					 NULL),
				 q);
	}
	qu_buf_fini(&body);
	qu_buf_fini(&cells);
	qu_buf_fini(&h);
}

/* A docutils table: tgroup, thead, tbody, rows, entries with spans. */
static void table(struct rw *w, xmlNodePtr parent, const struct qu_rst_node *n,
		  const struct qu_rst_node *title)
{
	xmlNodePtr t = r_el(w->doc, parent, "table", "qu-table");
	const struct qu_rst_node *g = child(n, QU_RST_TGROUP), *c;

	if ((c = child(n, QU_RST_TITLE)))
		title = c->first;
	if (title) {
		xmlNodePtr cap = r_el(w->doc, t, "caption", NULL);
		struct qu_buf id = QU_BUF_INIT;

		caption_id(w, t, n, &id);
		inlines(w, cap, title, false);
		headerlink(w, cap, id.buf);
		qu_buf_fini(&id);
	} else {
		set_ids(w, t, n);
	}
	if (!g)
		return;
	for (c = g->first; c; c = c->next) {
		const struct qu_rst_node *row, *e;
		bool head = c->kind == QU_RST_THEAD;
		xmlNodePtr sec;

		if (c->kind != QU_RST_THEAD && c->kind != QU_RST_TBODY)
			continue;
		sec = r_el(w->doc, t, head ? "thead" : "tbody", NULL);
		for (row = c->first; row; row = row->next) {
			xmlNodePtr tr = r_el(w->doc, sec, "tr", NULL);

			for (e = row->first; e; e = e->next) {
				xmlNodePtr td = r_el(w->doc, tr,
						     head ? "th" : "td", NULL);
				const char *mc = qu_rst_attr(e, "morecols");
				const char *mr = qu_rst_attr(e, "morerows");

				if (mc) {
					qu_buf_reset(&w->tmp);
					qu_buf_addf(&w->tmp, "%lu",
						    strtoul(mc, NULL, 10) + 1);
					r_attr(td, "colspan", w->tmp.buf);
				}
				if (mr) {
					qu_buf_reset(&w->tmp);
					qu_buf_addf(&w->tmp, "%lu",
						    strtoul(mr, NULL, 10) + 1);
					r_attr(td, "rowspan", w->tmp.buf);
				}
				blocks(w, td, e->first);
			}
		}
	}
}

/*
 * The "only" directive's expression, with "html" the one true tag (the
 * builder quire is): words, "not", "and", "or" and parentheses, as
 * Sphinx's Tags.eval_condition reads them.
 */
struct cond {
	const char *p;
};

static bool cond_or(struct cond *c, int depth);

static void cond_blank(struct cond *c)
{
	while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n')
		c->p++;
}

static bool cond_atom(struct cond *c, int depth)
{
	const char *s;
	size_t l;

	cond_blank(c);
	if (*c->p == '(' && depth < 32) {
		bool v;

		c->p++;
		v = cond_or(c, depth + 1);
		cond_blank(c);
		if (*c->p == ')')
			c->p++;
		return v;
	}
	s = c->p;
	while (*c->p && *c->p != ' ' && *c->p != ')' && *c->p != '(' &&
	       *c->p != '\n')
		c->p++;
	l = (size_t)(c->p - s);
	if (l == 3 && !strncmp(s, "not", 3))
		return !cond_atom(c, depth + 1);
	return (l == 4 && !strncmp(s, "html", 4)) ||
	       (l == 12 && !strncmp(s, "builder_html", 12)) ||
	       (l == 11 && !strncmp(s, "format_html", 11));
}

static bool cond_and(struct cond *c, int depth)
{
	bool v = cond_atom(c, depth);

	for (;;) {
		cond_blank(c);
		if (strncmp(c->p, "and", 3) || depth > 64)
			return v;
		c->p += 3;
		v = cond_atom(c, depth + 1) && v;
	}
}

static bool cond_or(struct cond *c, int depth)
{
	bool v = cond_and(c, depth);

	for (;;) {
		cond_blank(c);
		if (strncmp(c->p, "or", 2) || depth > 64)
			return v;
		c->p += 2;
		v = cond_and(c, depth + 1) || v;
	}
}

/*
 * c:function, c:macro, c:type, c:struct, ...: a declaration block, one
 * <dt> a signature (a line of the argument), then the content.
 */
static void c_decl(struct rw *w, xmlNodePtr parent, const struct qu_rst_node *d)
{
	const struct qu_rst_node *args = child(d, QU_RST_DIRECTIVE_ARGUMENTS);
	struct qu_buf sig = QU_BUF_INIT, id = QU_BUF_INIT;
	xmlNodePtr dl = r_el(w->doc, parent, "dl", "qu-c-decl");
	const char *line;
	size_t k;

	if (args)
		qu_rst_plain(&sig, args);
	for (k = 0, line = sig.buf; *line; k++) {
		const char *nl = strchr(line, '\n');
		size_t l = nl ? (size_t)(nl - line) : strlen(line);
		xmlNodePtr dt = r_el(w->doc, dl, "dt", NULL);
		xmlNodePtr code = r_el(w->doc, dt, "code", "language-c");

		while (l && (*line == ' ' || *line == '\t')) {
			line++;
			l--;
		}
		qu_md_highlight_c(w->doc, code, line, l);
		if (qu_rst_c_decl_id(&id, d, k) && id.len) {
			r_attr(dt, "id", id.buf);
			headerlink(w, dt, id.buf);
		}
		line += l + (nl != NULL);
	}
	content(w, r_el(w->doc, dl, "dd", NULL), d);
	qu_buf_fini(&sig);
	qu_buf_fini(&id);
}

/* contents: the sections below the directive's own, down to :depth:. */
static void toc_sections(struct rw *w, xmlNodePtr ul,
			 const struct qu_rst_node *first, unsigned depth)
{
	const struct qu_rst_node *s;
	struct qu_buf id = QU_BUF_INIT;

	for (s = first; s; s = s->next) {
		const struct qu_rst_node *t;
		xmlNodePtr li, a;

		if (s->kind != QU_RST_SECTION || !(t = child(s, QU_RST_TITLE)))
			continue;
		li = r_el(w->doc, ul, "li", NULL);
		a = r_el(w->doc, li, "a", NULL);
		{
			uintptr_t n = (uintptr_t)qu_map_get(
				&w->tocref, (const char *)&s, sizeof(s));

			if (n) {
				qu_buf_reset(&w->tmp);
				qu_buf_addf(&w->tmp, "id%lu", (unsigned long)n);
				r_attr(a, "id", w->tmp.buf);
			}
		}
		if (qu_rst_attr_item(&id, s, "ids", 0)) {
			qu_buf_reset(&w->href);
			qu_buf_addf(&w->href, "#%s", id.buf);
			r_attr(a, "href", w->href.buf);
		}
		inlines(w, a, t->first, true);
		if (depth > 1) {
			const struct qu_rst_node *sub;

			for (sub = s->first; sub; sub = sub->next)
				if (sub->kind == QU_RST_SECTION)
					break;
			if (sub)
				toc_sections(w, r_el(w->doc, li, "ul", NULL),
					     sub, depth - 1);
		}
	}
	qu_buf_fini(&id);
}

/*
 * A toctree the way Sphinx draws one: each page's sections down to
 * :maxdepth: (a page with several top-level sections is several
 * entries), and the pages of its own toctrees below the section holding
 * them.
 */
static void toc_link(struct rw *w, xmlNodePtr li, const struct qu_page *p,
		     const char *id, const char *title, const char *num)
{
	qu_buf_reset(&w->href);
	if (p != w->pg)
		qu_site_relpath(&w->href, w->f->out, p->out);
	if (id)
		qu_buf_addf(&w->href, "#%s", id);
	qu_buf_reset(&w->tmp);
	if (num)
		qu_buf_addf(&w->tmp, "%s. ", num);
	qu_buf_adds(&w->tmp, title);
	r_link(w->doc, li, w->href.len ? w->href.buf : "#", w->tmp.buf);
}

/*
 * The headings below a heading of @p (deeper levels), from @k on; the
 * entry of each heading shown goes to @lis[k], for the toctrees inside.
 */
static size_t toc_headings(struct rw *w, xmlNodePtr li,
			   const struct qu_page *p, size_t k, unsigned level,
			   unsigned depth, unsigned maxdepth, xmlNodePtr *lis)
{
	xmlNodePtr ul = NULL;

	while (k < p->nheadings && p->headings[k].level > level) {
		const struct qu_heading *h = &p->headings[k];
		xmlNodePtr sub;

		if (h->level != level + 1 || depth > maxdepth) {
			k++;
			continue;
		}
		if (!ul)
			ul = r_el(w->doc, li, "ul", NULL);
		sub = r_el(w->doc, ul, "li", NULL);
		lis[k] = sub;
		toc_link(w, sub, p, h->id, h->text,
			 secnum(w->r, (uint32_t)(p - w->r->site->pages), h->id));
		k = toc_headings(w, sub, p, k + 1, level + 1, depth + 1,
				 maxdepth, lis);
	}
	return k;
}

/* The <ul> of @li, made when it has none yet. */
static xmlNodePtr sub_list(struct rw *w, xmlNodePtr li)
{
	if (li->last && li->last->type == XML_ELEMENT_NODE &&
	    !strcmp((const char *)li->last->name, "ul"))
		return li->last;
	return r_el(w->doc, li, "ul", NULL);
}

static void toc_page(struct rw *w, xmlNodePtr ul, uint32_t page,
		     unsigned depth, unsigned maxdepth, bool titles_only)
{
	const struct qu_page *p = &w->r->site->pages[page];
	xmlNodePtr first = NULL, *lis;
	size_t k = 0, c;
	bool top = true;

	if (depth > maxdepth || depth > MAX_TOCTREE_DEPTH)
		return;
	/* two pages whose toctrees name each other are listed once */
	for (c = 0; c + 1 < depth && c < MAX_TOCTREE_DEPTH; c++)
		if (w->toc_path[c] == page)
			return;
	w->toc_path[depth - 1] = page;
	lis = qu_xcalloc(p->nheadings + 1, sizeof(*lis));
	while (k < p->nheadings || top) {
		xmlNodePtr li = r_el(w->doc, ul, "li", NULL);
		const struct qu_heading *h = k < p->nheadings ? &p->headings[k]
							       : NULL;

		/* the first top-level section is the page itself */
		toc_link(w, li, p, top ? NULL : h->id,
			 top || !h ? p->title : h->text,
			 h ? secnum(w->r, page, h->id) : NULL);
		if (!first)
			first = li;
		top = false;
		if (!h)
			break;
		lis[k] = li;
		k = titles_only ? k + 1
				: toc_headings(w, li, p, k + 1, h->level,
					       depth + 1, maxdepth, lis);
		while (k < p->nheadings && p->headings[k].level != 1)
			k++;
		if (k >= p->nheadings)
			break;
	}
	/*
	 * The pages of this page's toctrees, under the entry of the section
	 * holding the toctree (the page's first when that one is not shown).
	 */
	for (c = 0; c < p->nparts; c++) {
		const struct qu_part *part = &p->parts[c];
		xmlNodePtr at = first;
		unsigned d = depth;
		size_t hk, in = SIZE_MAX;

		if (part->kind != QU_PART_TOCTREE || part->hidden)
			continue;
		for (hk = 0; hk < p->nheadings; hk++)
			if (p->headings[hk].line < part->line)
				in = hk;
		if (in != SIZE_MAX && lis[in]) {
			at = lis[in];
			d = depth + p->headings[in].level - 1;
		}
		if (d >= maxdepth)
			continue;
		for (size_t e = 0; e < part->npages; e++) {
			xmlNodePtr sub = sub_list(w, at);

			toc_page(w, sub, part->pages[e], d + 1, maxdepth,
				 titles_only);
			/* a page left out (a cycle) leaves no empty list */
			if (!sub->children) {
				xmlUnlinkNode(sub);
				xmlFreeNode(sub);
			}
		}
	}
	free(lis);
}

static void rst_toctree(struct rw *w, xmlNodePtr parent,
			const struct qu_part *part)
{
	xmlNodePtr nav, ul;
	unsigned maxdepth = part->maxdepth ? part->maxdepth
					   : MAX_TOCTREE_DEPTH;

	/* every entry left out (an ancestor, a missing page): nothing */
	if (!part->npages)
		return;
	nav = r_el(w->doc, parent, "nav", "qu-toctree");

	if (part->caption)
		r_text(w->doc, r_el(w->doc, nav, "p", "qu-toctree-caption"),
		       part->caption);
	ul = r_el(w->doc, nav, "ul", NULL);
	for (size_t i = 0; i < part->npages; i++)
		toc_page(w, ul, part->pages[i], 1, maxdepth, part->titles_only);
}

/* The part of the page a kernel-doc or toctree directive became. */
static const struct qu_part *part_at(const struct rw *w, uint32_t off,
				     size_t *k_out)
{
	size_t k;

	for (k = 1; k < w->pg->nparts; k++)
		if (w->pg->parts[k].off == off) {
			*k_out = k;
			return &w->pg->parts[k];
		}
	return NULL;
}

/* image, figure and kernel-figure: the picture, then caption and legend. */
static void image(struct rw *w, xmlNodePtr parent, const struct qu_rst_node *d,
		  bool figure)
{
	const struct qu_rst_node *args = child(d, QU_RST_DIRECTIVE_ARGUMENTS);
	struct qu_buf src = QU_BUF_INIT;
	xmlNodePtr box = figure ? r_el(w->doc, parent, "figure", "qu-figure")
				: parent;
	xmlNodePtr img;
	const char *alt;

	if (args)
		qu_rst_plain(&src, args);
	/* a .dot or .svg the kernel's extension converts stays its name */
	img = r_el(w->doc, box, "img", NULL);
	if (src.len && qu_md_url_is_safe(src.buf))
		r_attr(img, "src", src.buf);
	alt = option(w, d, "alt");
	r_attr(img, "alt", alt ? alt : "");
	if (figure) {
		const struct qu_rst_node *c = child(d, QU_RST_DIRECTIVE_CONTENT);
		const struct qu_rst_node *b = c ? c->first : NULL;

		if (b && b->kind == QU_RST_PARAGRAPH) {
			xmlNodePtr cap = r_el(w->doc, box, "figcaption", NULL);
			struct qu_buf id = QU_BUF_INIT;

			caption_id(w, box, NULL, &id);
			inlines(w, cap, b->first, false);
			headerlink(w, cap, id.buf);
			qu_buf_fini(&id);
			b = b->next;
		}
		blocks(w, box, b);
	}
	qu_buf_fini(&src);
}

/*
 * glossary: "term" lines, each followed by its indented definition; each
 * term gets Sphinx's id "term-NAME".
 */
static void glossary(struct rw *w, xmlNodePtr parent,
		     const struct qu_rst_node *d)
{
	const struct qu_rst_node *c = child(d, QU_RST_DIRECTIVE_CONTENT);
	struct qu_buf body = QU_BUF_INIT, def = QU_BUF_INIT;
	xmlNodePtr dl = r_el(w->doc, parent, "dl", "qu-glossary"), dd = NULL;
	const char *p;

	if (c)
		qu_rst_plain(&body, c);
	for (p = body.buf; *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);

		if (l && p[0] != ' ' && p[0] != '\t') {
			xmlNodePtr dt;

			if (dd && def.len)
				r_text(w->doc, r_el(w->doc, dd, "p", NULL),
				       def.buf);
			qu_buf_reset(&def);
			dt = r_el(w->doc, dl, "dt", NULL);
			qu_buf_reset(&w->href);
			qu_buf_adds(&w->href, "term-");
			for (size_t i = 0; i < l; i++) {
				char ch = p[i];

				if ((ch >= 'a' && ch <= 'z') ||
				    (ch >= '0' && ch <= '9'))
					qu_buf_addc(&w->href, ch);
				else if (ch >= 'A' && ch <= 'Z')
					qu_buf_addc(&w->href, (char)(ch + 32));
				else if (w->href.buf[w->href.len - 1] != '-')
					qu_buf_addc(&w->href, '-');
			}
			while (w->href.buf[w->href.len - 1] == '-')
				w->href.buf[--w->href.len] = 0;
			r_attr(dt, "id", w->href.buf);
			qu_buf_reset(&w->tmp);
			qu_buf_add(&w->tmp, p, l);
			r_text(w->doc, dt, w->tmp.buf);
			dd = r_el(w->doc, dl, "dd", NULL);
		} else if (l && dd) {
			const char *s = p;
			size_t sl = l;

			while (sl && (*s == ' ' || *s == '\t')) {
				s++;
				sl--;
			}
			if (def.len)
				qu_buf_addc(&def, ' ');
			qu_buf_add(&def, s, sl);
		} else if (!l && dd && def.len) {
			r_text(w->doc, r_el(w->doc, dd, "p", NULL), def.buf);
			qu_buf_reset(&def);
		}
		p += l + (nl != NULL);
	}
	if (dd && def.len)
		r_text(w->doc, r_el(w->doc, dd, "p", NULL), def.buf);
	qu_buf_fini(&body);
	qu_buf_fini(&def);
}

/*
 * Text the reader kept as a directive's argument or option that Sphinx
 * reads as reST (a table's title, a caption): parsed as a page of its
 * own; its parse diagnostics were the reader's already. Free with
 * qu_rst_free().
 */
static struct qu_rst_doc *sub_parse(struct rw *w, const char *text, size_t len)
{
	struct qu_diags scratch;
	struct qu_rst_doc *sub;

	qu_diags_init(&scratch);
	sub = qu_rst_parse_ex(&scratch, w->pg->diag_path, text, len,
			      QU_RST_SPHINX_IDS);
	qu_diags_fini(&scratch);
	return sub;
}

/* The inline nodes of a one-paragraph sub-document, or NULL. */
static const struct qu_rst_node *sub_inline(const struct qu_rst_doc *sub)
{
	const struct qu_rst_node *p = sub->root->first;

	return p && p->kind == QU_RST_PARAGRAPH ? p->first : NULL;
}

/*
 * seealso: Sphinx reads its argument as the first paragraph of its
 * content; the reader kept it as text, so it is parsed here as a page of
 * its own (its parse diagnostics were the reader's already).
 */
static void seealso(struct rw *w, xmlNodePtr parent, const struct qu_buf *arg,
		    const struct qu_rst_node *c)
{
	xmlNodePtr div = r_el(w->doc, parent, "div",
			      "qu-admonition qu-seealso");

	r_text(w->doc, r_el(w->doc, div, "p", "qu-admonition-title"),
	       "See also");
	if (arg->len) {
		struct qu_diags scratch;
		struct qu_rst_doc *sub;
		const struct qu_rst_doc *save = w->rd;

		qu_diags_init(&scratch);
		sub = qu_rst_parse_ex(&scratch, w->pg->diag_path, arg->buf,
				      arg->len, QU_RST_SPHINX_IDS);
		w->rd = sub;
		blocks(w, div, sub->root->first);
		w->rd = save;
		qu_rst_free(sub);
		qu_diags_fini(&scratch);
	}
	if (c)
		blocks(w, div, c->first);
}

/*
 * kernel-render: a figure made from DOT or SVG text by the kernel's
 * extension; quire shows the caption and the source, and says so.
 */
static void kernel_render(struct rw *w, xmlNodePtr parent,
			  const struct qu_rst_node *d)
{
	xmlNodePtr fig = r_el(w->doc, parent, "figure", "qu-figure");
	const char *cap = option(w, d, "caption");
	const struct qu_rst_node *c = child(d, QU_RST_DIRECTIVE_CONTENT);
	struct qu_buf body = QU_BUF_INIT;
	uint32_t line, col;

	if (c)
		qu_rst_plain(&body, c);
	code_text(w, fig, NULL, body.buf, body.len);
	if (cap) {
		struct qu_rst_doc *sub = sub_parse(w, cap, strlen(cap));
		xmlNodePtr fc = r_el(w->doc, fig, "figcaption", NULL);
		struct qu_buf id = QU_BUF_INIT;

		caption_id(w, fig, NULL, &id);
		inlines(w, fc, sub_inline(sub), false);
		headerlink(w, fc, id.buf);
		qu_buf_fini(&id);
		qu_rst_free(sub);
	}
	where(w, d->off, &line, &col);
	qu_diag(w->diags, QU_W_RST_UNRENDERED, w->pg->diag_path, line, col,
		"directive 'kernel-render' is not rendered (quire draws no "
		"DOT or SVG); showing its source");
	qu_buf_fini(&body);
}

/*
 * Nested includes: a file including itself would never end. Sphinx has
 * no limit but Python's recursion; the kernel nests two deep.
 */
#define MAX_INCLUDE_DEPTH 8

/*
 * include and literalinclude: the file the site read, cut by
 * :start-after: / :end-before: / :start-line: / :end-line:, shown as a
 * literal block (:literal:, :code:, literalinclude) or read as reST in
 * place of the directive.
 */
static void include(struct rw *w, xmlNodePtr parent, const struct qu_rst_node *d,
		    const struct qu_part *part, bool literal)
{
	const char *t = part->text, *e = part->text + part->len, *o;
	const char *lang = NULL;
	size_t k;

	if ((o = option(w, d, "start-line"))) {
		for (k = strtoul(o, NULL, 10); k && t < e; k--) {
			const char *nl = memchr(t, '\n', (size_t)(e - t));

			t = nl ? nl + 1 : e;
		}
	}
	if ((o = option(w, d, "end-line"))) {
		const char *p = t;

		for (k = strtoul(o, NULL, 10); k && p < e; k--) {
			const char *nl = memchr(p, '\n', (size_t)(e - p));

			p = nl ? nl + 1 : e;
		}
		e = p;
	}
	if ((o = option(w, d, "start-after")) && *o) {
		const char *m = memmem(t, (size_t)(e - t), o, strlen(o));

		if (m)
			t = m + strlen(o);
	}
	if ((o = option(w, d, "end-before")) && *o) {
		const char *m = memmem(t, (size_t)(e - t), o, strlen(o));

		if (m)
			e = m;
	}
	if (option(w, d, "literal"))
		literal = true;
	if ((o = option(w, d, "code")) || (o = option(w, d, "language"))) {
		literal = true;
		lang = *o ? qu_arena_strdup(&((struct qu_rst_doc *)w->rd)->arena,
					    o)
			  : NULL;
	}
	if (literal) {
		code_text(w, parent, lang, t, (size_t)(e - t));
	} else if (w->includes < MAX_INCLUDE_DEPTH) {
		struct qu_rst_doc *sub = sub_parse(w, t, (size_t)(e - t));
		const struct qu_rst_doc *save = w->rd;

		w->includes++;
		w->rd = sub;
		blocks(w, parent, sub->root->first);
		w->rd = save;
		w->includes--;
		qu_rst_free(sub);
	}
}

/*
 * Raw HTML a site allows still loses the tags GitHub's tagfilter
 * extension disarms in Markdown (<script>, <iframe>, ...): their "<"
 * becomes "&lt;", so both markups let the same HTML through. Golden:
 * test/site/rawhtml.
 */
static void tag_filter(struct qu_buf *b)
{
	static const char *const bad[] = {"title",    "textarea", "style",
					  "xmp",      "iframe",	  "noembed",
					  "noframes", "script",	  "plaintext"};
	struct qu_buf out = QU_BUF_INIT;
	size_t i, k;

	for (i = 0; i < b->len; i++) {
		const char *p = b->buf + i + 1;

		if (b->buf[i] == '<') {
			if (*p == '/')
				p++;
			for (k = 0; k < QU_ARRAY_SIZE(bad); k++) {
				size_t l = strlen(bad[k]);

				if (!strncasecmp(p, bad[k], l) &&
				    strchr(" \t\n/>", p[l] ? p[l] : ' '))
					break;
			}
			if (k < QU_ARRAY_SIZE(bad)) {
				qu_buf_adds(&out, "&lt;");
				continue;
			}
		}
		qu_buf_addc(&out, b->buf[i]);
	}
	qu_buf_reset(b);
	qu_buf_add(b, out.buf, out.len);
	qu_buf_fini(&out);
}

static void directive(struct rw *w, xmlNodePtr parent,
		      const struct qu_rst_node *d)
{
	const char *name = qu_rst_attr(d, "name");
	const struct qu_rst_node *args = child(d, QU_RST_DIRECTIVE_ARGUMENTS);
	const struct qu_rst_node *c = child(d, QU_RST_DIRECTIVE_CONTENT);
	struct qu_buf arg = QU_BUF_INIT, body = QU_BUF_INIT;

	if (!name)
		name = "";
	if (args)
		qu_rst_plain(&arg, args);
	if (!strcmp(name, "kernel-doc") || !strcmp(name, "toctree")) {
		size_t k, j;
		const struct qu_part *part = part_at(w, d->off, &k);

		/* no part: the site reported why (a missing file) */
		if (part && part->kind == QU_PART_KDOC)
			for (j = w->r->g->part_start[w->f->page][k];
			     j < w->r->g->part_start[w->f->page][k + 1]; j++)
				render_item(w->r, w->ctx, parent,
					    &w->r->g->placed[j]);
		else if (part && part->kind == QU_PART_TOCTREE &&
			 !part->hidden)
			rst_toctree(w, parent, part);
	} else if (!strcmp(name, "include") ||
		   !strcmp(name, "literalinclude")) {
		size_t k;
		const struct qu_part *part =
			w->includes ? NULL : part_at(w, d->off, &k);

		/* no part: "<isonum.txt>", or the site reported why */
		if (part && part->kind == QU_PART_INCLUDE)
			include(w, parent, d, part, name[0] == 'l');
		else if (w->includes)
			unrendered(w, parent, d, "an include in an included file");
	} else if (!strcmp(name, "code-block") || !strcmp(name, "code") ||
		   !strcmp(name, "sourcecode")) {
		if (c)
			qu_rst_plain(&body, c);
		code_text(w, parent, arg.len ? arg.buf : w->lang, body.buf,
			  body.len);
	} else if (!strcmp(name, "parsed-literal") || !strcmp(name, "math") ||
		   !strcmp(name, "productionlist")) {
		if (c)
			qu_rst_plain(&body, c);
		if (!body.len)
			qu_buf_add(&body, arg.buf, arg.len);
		code_text(w, parent, NULL, body.buf, body.len);
	} else if (!strcmp(name, "highlight")) {
		w->lang = arg.len ? qu_arena_strdup(&((struct qu_rst_doc *)
							      w->rd)->arena,
						    arg.buf)
				  : NULL;
	} else if (!strcmp(name, "tabularcolumns") || !strcmp(name, "index") ||
		   !strcmp(name, "sectnum") || !strncmp(name, "c:namespace", 11) ||
		   !strcmp(name, "title")) {
		/* LaTeX and index hints: nothing to show in HTML */
	} else if (!strcmp(name, "raw")) {
		if (c)
			qu_rst_plain(&body, c);
		if (strstr(arg.buf, "html") && body.len) {
			if (w->r->site->cfg.allow_html) {
				/* the site opted in: written as it is */
				xmlNodePtr t;

				tag_filter(&body);
				t = xmlNewDocTextLen(w->doc, BAD_CAST body.buf,
						     (int)body.len);

				if (!t)
					qu_die_oom();
				t->name = xmlStringTextNoenc;
				if (!xmlAddChild(parent, t))
					qu_die_oom();
			} else
				unrendered(w, parent, d,
					   "raw HTML needs allow_html");
		}
		/* raw LaTeX and other formats are for other builders */
	} else if (!strcmp(name, "only")) {
		struct cond cd = {arg.buf};

		if (cond_or(&cd, 0))
			content(w, parent, d);
	} else if (!strcmp(name, "csv-table")) {
		csv_table(w, parent, d);
	} else if (!strcmp(name, "unicode") || !strcmp(name, "date")) {
		/* in substitution definitions: shown where they are used */
	} else if (!strcmp(name, "flat-table") || !strcmp(name, "list-table")) {
		list_table(w, parent, d, name[0] == 'f');
	} else if (!strcmp(name, "table")) {
		/* the argument is the title of the table in the content */
		struct qu_rst_doc *sub = arg.len ? sub_parse(w, arg.buf,
							     arg.len)
						 : NULL;
		const struct qu_rst_node *tb = c ? c->first : NULL;

		for (; tb; tb = tb->next)
			if (tb->kind == QU_RST_TABLE)
				table(w, parent, tb, sub ? sub_inline(sub) : NULL);
			else
				block(w, parent, tb);
		qu_rst_free(sub);
	} else if (!strcmp(name, "kernel-render")) {
		kernel_render(w, parent, d);
	} else if (!strncmp(name, "c:", 2)) {
		c_decl(w, parent, d);
	} else if (!strcmp(name, "seealso")) {
		seealso(w, parent, &arg, c);
	} else if (!strcmp(name, "versionadded") ||
		   !strcmp(name, "versionchanged") ||
		   !strcmp(name, "deprecated")) {
		xmlNodePtr div = r_el(w->doc, parent, "div", "qu-version");

		qu_buf_reset(&w->tmp);
		qu_buf_addf(&w->tmp, "%s %s",
			    name[7] == 'a'   ? "New in version"
			    : name[7] == 'c' ? "Changed in version"
					     : "Deprecated since version",
			    arg.buf);
		r_text(w->doc, r_el(w->doc, div, "p", "qu-version-title"),
		       w->tmp.buf);
		content(w, div, d);
	} else if (!strcmp(name, "topic") || !strcmp(name, "sidebar")) {
		xmlNodePtr div = r_el(w->doc, parent, "div", "qu-topic");

		r_text(w->doc, r_el(w->doc, div, "p", "qu-topic-title"),
		       arg.buf);
		content(w, div, d);
	} else if (!strcmp(name, "rubric")) {
		r_text(w->doc, r_el(w->doc, parent, "p", "qu-rubric"),
		       arg.buf);
	} else if (!strcmp(name, "centered")) {
		r_text(w->doc, r_el(w->doc, parent, "p", "qu-centered"),
		       arg.buf);
	} else if (!strcmp(name, "class") || !strcmp(name, "cssclass") ||
		   !strcmp(name, "hlist")) {
		content(w, parent, d);
	} else if (!strcmp(name, "contents")) {
		xmlNodePtr nav = r_el(w->doc, parent, "nav", "qu-contents");

		/* the topic's name is its title, "Contents" by default */
		norm_label(&w->href, arg.len ? arg.buf : "Contents");
		qu_buf_reset(&w->tmp);
		for (const char *p = w->href.buf; *p; p++)
			qu_buf_addc(&w->tmp, *p == ' ' ? '-' : *p);
		r_attr(nav, "id", w->tmp.buf);
		const char *dp = option(w, d, "depth");
		unsigned depth = dp ? (unsigned)strtoul(dp, NULL, 10) : 0;
		const struct qu_rst_node *from = d->next;

		if (arg.len)
			r_text(w->doc, r_el(w->doc, nav, "p", "qu-topic-title"),
			       arg.buf);
		/* :local: lists the sections after it; else the page's */
		if (!option(w, d, "local"))
			from = w->rd->root->first;
		toc_sections(w, r_el(w->doc, nav, "ul", NULL), from,
			     depth ? depth : 8);
	} else if (!strcmp(name, "image")) {
		image(w, parent, d, false);
	} else if (!strcmp(name, "figure") || !strcmp(name, "kernel-figure")) {
		image(w, parent, d, true);
	} else if (!strcmp(name, "glossary")) {
		glossary(w, parent, d);
	} else {
		unrendered(w, parent, d, "not supported yet");
	}
	qu_buf_fini(&arg);
	qu_buf_fini(&body);
}

/*
 * The number a :numbered: toctree gives heading @id of @page, or NULL.
 * Headings are found by id: sections the site did not see (in an
 * included file, in an "only" for another builder) have none.
 */
static const char *secnum(const struct qu_render *r, uint32_t page,
			  const char *id)
{
	const struct qu_page *pg = &r->site->pages[page];
	size_t k;

	if (!r->secnums || !r->secnums[page] || !id)
		return NULL;
	for (k = 0; k < pg->nheadings; k++)
		if (!strcmp(pg->headings[k].id, id))
			return r->secnums[page][k];
	return NULL;
}

/* Sphinx's "2.1. " before a numbered title. */
static void secnum_span(struct rw *w, xmlNodePtr h, const char *num)
{
	qu_buf_reset(&w->tmp);
	qu_buf_addf(&w->tmp, "%s. ", num);
	r_text(w->doc, r_el(w->doc, h, "span", "section-number"), w->tmp.buf);
}

/* Whether @id is one Sphinx made up ("id12"). */
static bool auto_id(const char *id)
{
	return id[0] == 'i' && id[1] == 'd' && id[2] &&
	       strspn(id + 2, "0123456789") == strlen(id + 2);
}

/* Spans for the ids of "a b c " (the pending labels). */
static void pending_spans(struct rw *w, xmlNodePtr sec, const char *p)
{
	const char *sp;

	for (; *p; p = sp + 1) {
		sp = strchr(p, ' ');
		qu_buf_reset(&w->tmp);
		qu_buf_add(&w->tmp, p, (size_t)(sp - p));
		r_attr(r_el(w->doc, sec, "span", NULL), "id", w->tmp.buf);
	}
}

static void section(struct rw *w, xmlNodePtr parent,
		    const struct qu_rst_node *n)
{
	xmlNodePtr sec = r_el(w->doc, parent, "section", NULL), h;
	const struct qu_rst_node *t = child(n, QU_RST_TITLE), *c;
	char tag[3] = {'h', 0, 0};

	struct qu_buf first = QU_BUF_INIT;

	w->level++;
	tag[1] = (char)('0' + (w->level < 6 ? w->level : 6));
	/*
	 * The labels just before a section are ids of the section too
	 * (docutils' PropagateTargets). Sphinx writes the section's own id
	 * first, unless that is a made-up "idN" (the label took the name):
	 * then the label's.
	 */
	qu_rst_attr_item(&first, n, "ids", 0);
	if (w->pending.len && auto_id(first.buf)) {
		char *sp = strchr(w->pending.buf, ' ');

		qu_buf_reset(&first);
		qu_buf_add(&first, w->pending.buf,
			   (size_t)(sp - w->pending.buf));
		r_attr(sec, "id", first.buf);
		extra_ids(w, sec, n, 0);
		pending_spans(w, sec, sp + 1);
	} else {
		set_ids(w, sec, n);
		extra_ids(w, sec, n, 1);
		pending_spans(w, sec, w->pending.buf);
	}
	qu_buf_reset(&w->pending);
	if (t) {
		uintptr_t back = (uintptr_t)qu_map_get(
			&w->tocref, (const char *)&n, sizeof(n));

		struct qu_buf own = QU_BUF_INIT;
		const char *num;

		h = r_el(w->doc, sec, tag, NULL);
		qu_rst_attr_item(&own, n, "ids", 0);
		num = w->comment ? NULL : secnum(w->r, w->f->page, own.buf);
		qu_buf_fini(&own);
		if (num)
			secnum_span(w, h, num);
		if (back) {
			/* the title links back to its contents entry */
			xmlNodePtr a = r_el(w->doc, h, "a", "toc-backref");

			qu_buf_reset(&w->tmp);
			qu_buf_addf(&w->tmp, "#id%lu", (unsigned long)back);
			r_attr(a, "href", w->tmp.buf);
			inlines(w, a, t->first, true);
		} else {
			inlines(w, h, t->first, true);
		}
		if (first.len)
			headerlink(w, h, first.buf);
	}
	qu_buf_fini(&first);
	for (c = n->first; c; c = c->next)
		if (c != t)
			block(w, sec, c);
	w->level--;
}

static const char *const admon_title[QU_RST__COUNT] = {
	[QU_RST_ATTENTION] = "Attention", [QU_RST_CAUTION] = "Caution",
	[QU_RST_DANGER] = "Danger",	  [QU_RST_ERROR] = "Error",
	[QU_RST_HINT] = "Hint",		  [QU_RST_IMPORTANT] = "Important",
	[QU_RST_NOTE] = "Note",		  [QU_RST_TIP] = "Tip",
	[QU_RST_WARNING] = "Warning",
};

/*
 * A footnote cited more than once: "(1, 2)" after its label, each a link
 * back to one citation. Return: how many citations; written only when
 * more than one.
 */
static size_t backrefs(struct rw *w, xmlNodePtr el, const char *name)
{
	struct qu_buf id = QU_BUF_INIT;
	xmlNodePtr span = NULL;
	size_t i, n = 0;

	for (i = 0; i < w->nrefs; i++) {
		const char *rn = qu_rst_attr(w->refs[i], "refname");

		n += rn && !strcmp(rn, name);
	}
	if (n < 2)
		return n;
	span = r_el(w->doc, el, "span", "qu-backrefs");
	r_text(w->doc, span, "(");
	for (i = 0, n = 0; i < w->nrefs; i++) {
		const char *rn = qu_rst_attr(w->refs[i], "refname");
		xmlNodePtr a;

		if (!rn || strcmp(rn, name) ||
		    !qu_rst_attr_item(&id, w->refs[i], "ids", 0))
			continue;
		if (n)
			r_text(w->doc, span, ",");
		a = r_el(w->doc, span, "a", NULL);
		qu_buf_reset(&w->tmp);
		qu_buf_addf(&w->tmp, "#%s", id.buf);
		r_attr(a, "href", w->tmp.buf);
		qu_buf_reset(&w->tmp);
		qu_buf_addf(&w->tmp, "%zu", ++n);
		r_text(w->doc, a, w->tmp.buf);
	}
	r_text(w->doc, span, ")");
	qu_buf_fini(&id);
	return n;
}

/* One body element (and, for a section, everything in it). */
static void block(struct rw *w, xmlNodePtr parent, const struct qu_rst_node *n)
{
	const struct qu_rst_node *c;
	xmlNodePtr el;

	switch (n->kind) {
	case QU_RST_SECTION:
		section(w, parent, n);
		break;
	case QU_RST_PARAGRAPH:
		el = r_el(w->doc, parent, "p", NULL);
		set_ids(w, el, n);
		inlines(w, el, n->first, false);
		break;
	case QU_RST_LITERAL_BLOCK:
	case QU_RST_DOCTEST_BLOCK:
		qu_buf_reset(&w->href);
		qu_rst_plain(&w->href, n);
		code_text(w, parent, w->lang, w->href.buf, w->href.len);
		break;
	case QU_RST_BULLET_LIST:
		blocks(w, r_el(w->doc, parent, "ul", NULL), n->first);
		break;
	case QU_RST_ENUMERATED_LIST: {
		const char *et = qu_rst_attr(n, "enumtype");
		const char *st = qu_rst_attr(n, "start");

		el = r_el(w->doc, parent, "ol", NULL);
		if (et && strcmp(et, "arabic"))
			r_attr(el, "type",
			       !strcmp(et, "loweralpha")   ? "a"
			       : !strcmp(et, "upperalpha") ? "A"
			       : !strcmp(et, "lowerroman") ? "i"
							   : "I");
		if (st)
			r_attr(el, "start", st);
		blocks(w, el, n->first);
		break;
	}
	case QU_RST_LIST_ITEM:
		blocks(w, r_el(w->doc, parent, "li", NULL), n->first);
		break;
	case QU_RST_DEFINITION_LIST:
		blocks(w, r_el(w->doc, parent, "dl", NULL), n->first);
		break;
	case QU_RST_DEFINITION_LIST_ITEM:
		for (c = n->first; c; c = c->next) {
			if (c->kind == QU_RST_TERM) {
				el = r_el(w->doc, parent, "dt", NULL);
				set_ids(w, el, c);
				inlines(w, el, c->first, false);
			} else if (c->kind == QU_RST_CLASSIFIER) {
				el = parent->last;
				r_text(w->doc, el, " : ");
				inlines(w, r_el(w->doc, el, "span",
						"qu-classifier"),
					c->first, false);
			} else if (c->kind == QU_RST_DEFINITION) {
				blocks(w, r_el(w->doc, parent, "dd", NULL),
				       c->first);
			}
		}
		break;
	case QU_RST_FIELD_LIST:
		blocks(w, r_el(w->doc, parent, "dl", "qu-field-list"),
		       n->first);
		break;
	case QU_RST_FIELD:
		for (c = n->first; c; c = c->next)
			if (c->kind == QU_RST_FIELD_NAME)
				inlines(w, r_el(w->doc, parent, "dt", NULL),
					c->first, false);
			else if (c->kind == QU_RST_FIELD_BODY)
				blocks(w, r_el(w->doc, parent, "dd", NULL),
				       c->first);
		break;
	case QU_RST_OPTION_LIST:
		blocks(w, r_el(w->doc, parent, "dl", "qu-option-list"),
		       n->first);
		break;
	case QU_RST_OPTION_LIST_ITEM:
		for (c = n->first; c; c = c->next) {
			if (c->kind == QU_RST_OPTION_GROUP) {
				const struct qu_rst_node *o;

				el = r_el(w->doc, parent, "dt", NULL);
				for (o = c->first; o; o = o->next) {
					if (o != c->first)
						r_text(w->doc, el, ", ");
					qu_buf_reset(&w->href);
					for (const struct qu_rst_node *x =
						     o->first;
					     x; x = x->next) {
						const char *d = qu_rst_attr(
							x, "delimiter");

						if (x->kind ==
							    QU_RST_OPTION_ARGUMENT)
							qu_buf_adds(&w->href,
								    d ? d : " ");
						qu_rst_plain(&w->href, x);
					}
					r_text(w->doc,
					       r_el(w->doc, el, "kbd", NULL),
					       w->href.buf);
				}
			} else if (c->kind == QU_RST_DESCRIPTION) {
				blocks(w, r_el(w->doc, parent, "dd", NULL),
				       c->first);
			}
		}
		break;
	case QU_RST_LINE_BLOCK:
		el = r_el(w->doc, parent, "div", "qu-line-block");
		blocks(w, el, n->first);
		break;
	case QU_RST_LINE:
		el = r_el(w->doc, parent, "div", "qu-line");
		if (n->first)
			inlines(w, el, n->first, false);
		else
			r_el(w->doc, el, "br", NULL);
		break;
	case QU_RST_BLOCK_QUOTE:
		blocks(w, r_el(w->doc, parent, "blockquote", NULL), n->first);
		break;
	case QU_RST_ATTRIBUTION:
		el = r_el(w->doc, parent, "p", "qu-attribution");
		r_text(w->doc, el, "\xe2\x80\x94 ");
		inlines(w, el, n->first, false);
		break;
	case QU_RST_TABLE:
		table(w, parent, n, NULL);
		break;
	case QU_RST_TRANSITION:
		r_el(w->doc, parent, "hr", NULL);
		break;
	case QU_RST_COMMENT:
	case QU_RST_SUBSTITUTION_DEFINITION:
		break;
	case QU_RST_TARGET:
		/* a label: its id lands here; external targets show nothing */
		if (!qu_rst_attr(n, "refuri") && !qu_rst_attr(n, "refname")) {
			struct qu_buf id = QU_BUF_INIT;
			bool sec = qu_rst_labelled(n) &&
				   qu_rst_labelled(n)->kind == QU_RST_SECTION;

			for (size_t k = 0; qu_rst_attr_item(&id, n, "ids", k);
			     k++)
				if (sec)
					qu_buf_addf(&w->pending, "%s ", id.buf);
				else
					r_attr(r_el(w->doc, parent, "span",
						    NULL),
					       "id", id.buf);
			qu_buf_fini(&id);
		}
		break;
	case QU_RST_FOOTNOTE:
	case QU_RST_CITATION: {
		const struct qu_rst_node *l = child(n, QU_RST_LABEL);

		struct qu_buf nm = QU_BUF_INIT, id = QU_BUF_INIT;
		const struct qu_rst_node *ref = NULL;
		xmlNodePtr lab;

		el = r_el(w->doc, parent, "div", "qu-footnote");
		set_ids(w, el, n);
		lab = r_el(w->doc, el, "span", "qu-footnote-label");
		qu_buf_reset(&w->href);
		if (l)
			qu_rst_plain(&w->href, l);
		if (qu_rst_attr_item(&nm, n, "names", 0)) {
			uintptr_t k = (uintptr_t)qu_map_get(&w->fnum, nm.buf,
							    nm.len);

			if (k && !w->href.len)
				qu_buf_addf(&w->href, "%lu", (unsigned long)k);
			ref = qu_map_get(&w->fnref, nm.buf, nm.len);
		}
		r_text(w->doc, lab, "[");
		/* the links back to where it is cited, as Sphinx's */
		if (ref && backrefs(w, el, nm.buf) > 1) {
			r_text(w->doc, lab, w->href.buf);
		} else if (ref && qu_rst_attr_item(&id, ref, "ids", 0)) {
			xmlNodePtr a = r_el(w->doc, lab, "a", NULL);

			qu_buf_reset(&w->tmp);
			qu_buf_addf(&w->tmp, "#%s", id.buf);
			r_attr(a, "href", w->tmp.buf);
			r_text(w->doc, a, w->href.buf);
		} else {
			r_text(w->doc, lab, w->href.buf);
		}
		r_text(w->doc, lab, "]");
		qu_buf_fini(&nm);
		qu_buf_fini(&id);
		for (c = n->first; c; c = c->next)
			if (c->kind != QU_RST_LABEL)
				block(w, el, c);
		break;
	}
	case QU_RST_ADMONITION: {
		const struct qu_rst_node *t = child(n, QU_RST_TITLE);

		qu_buf_reset(&w->href);
		if (t)
			qu_rst_plain(&w->href, t);
		{
			char *title = qu_xstrdup(w->href.buf);
			const struct qu_rst_node *b = t ? t->next : n->first;

			admonition(w, parent, "qu-note", title, b);
			free(title);
		}
		break;
	}
	case QU_RST_ATTENTION:
	case QU_RST_CAUTION:
	case QU_RST_DANGER:
	case QU_RST_ERROR:
	case QU_RST_HINT:
	case QU_RST_IMPORTANT:
	case QU_RST_NOTE:
	case QU_RST_TIP:
	case QU_RST_WARNING: {
		const char *title = admon_title[n->kind];

		qu_buf_reset(&w->href);
		qu_buf_addf(&w->href, "qu-%s", qu_rst_kind_name(n->kind));
		{
			char *cls = qu_xstrdup(w->href.buf);

			admonition(w, parent, cls, title, n->first);
			free(cls);
		}
		break;
	}
	case QU_RST_DIRECTIVE:
		directive(w, parent, n);
		break;
	case QU_RST_TITLE:
		/* a title the reader kept outside a section */
		inlines(w, r_el(w->doc, parent, "p", NULL), n->first, false);
		break;
	default:
		/* inline content where a block was expected */
		el = r_el(w->doc, parent, "p", NULL);
		inlines(w, el, n, false);
		break;
	}
}

static void blocks(struct rw *w, xmlNodePtr parent,
		   const struct qu_rst_node *first)
{
	const struct qu_rst_node *n;

	if (w->depth >= MAX_WALK_DEPTH)
		return;
	w->depth++;
	for (n = first; n; n = n->next) {
		if (n->kind == QU_RST_TEXT) {
			text(w, parent, n->text, n->len, false);
			continue;
		}
		if (n->kind >= QU_RST_EMPHASIS && n->kind <= QU_RST_PROBLEMATIC &&
		    n->kind != QU_RST_TARGET &&
		    n->kind != QU_RST_SUBSTITUTION_DEFINITION &&
		    n->kind != QU_RST_FOOTNOTE && n->kind != QU_RST_CITATION &&
		    n->kind != QU_RST_LABEL) {
			/* inline nodes where blocks belong: the rest inline */
			inlines(w, parent, n, false);
			break;
		}
		block(w, parent, n);
	}
	w->depth--;
}

/* Every name of @n into @m, unless an earlier node took it. */
static void put_names(struct rw *w, struct qu_map *m,
		      const struct qu_rst_node *n, struct qu_buf *name)
{
	struct qu_arena *a = &((struct qu_rst_doc *)w->rd)->arena;
	size_t k;

	for (k = 0; qu_rst_attr_item(name, n, "names", k); k++) {
		void **slot = qu_map_slot(
			m, qu_arena_strdup(a, name->buf), name->len);

		if (!*slot)
			*slot = (void *)n;
	}
}

/*
 * The page's targets (explicit, and the implicit ones of section titles),
 * substitutions and anonymous targets, by name, for references.
 */
static void collect(struct rw *w, const struct qu_rst_node *n, unsigned depth,
		    struct qu_buf *name)
{
	const struct qu_rst_node *c;

	if (depth > MAX_WALK_DEPTH)
		return;
	for (c = n->first; c; c = c->next) {
		switch (c->kind) {
		case QU_RST_TARGET:
		case QU_RST_FOOTNOTE:
		case QU_RST_CITATION:
			/* docutils numbers auto footnotes in page order */
			if (c->kind == QU_RST_FOOTNOTE &&
			    qu_rst_attr(c, "auto") &&
			    qu_rst_attr_item(name, c, "names", 0)) {
				struct qu_arena *a =
					&((struct qu_rst_doc *)w->rd)->arena;

				qu_map_put(&w->fnum,
					   qu_arena_strdup(a, name->buf),
					   (void *)(uintptr_t)++w->nfoot);
			}
			if (qu_rst_attr(c, "anonymous")) {
				w->anon = qu_xrealloc(w->anon,
						      (w->nanon + 1) *
							      sizeof(*w->anon));
				w->anon[w->nanon++] = c;
			}
			/* fall through */
		case QU_RST_SECTION:
			put_names(w, &w->targets, c, name);
			break;
		case QU_RST_SUBSTITUTION_DEFINITION:
			put_names(w, &w->substs, c, name);
			break;
		case QU_RST_DIRECTIVE: {
			/*
			 * ".. |x| unicode:: U+2014": the reader keeps the
			 * directive, its substitution name as :alt:
			 */
			const char *nm = qu_rst_attr(c, "name");
			const char *alt;

			if (!nm || strcmp(nm, "unicode") ||
			    !(alt = option(w, c, "alt")))
				break;
			norm_label(name, alt);
			{
				void **slot = qu_map_slot(
					&w->substs,
					qu_arena_strdup(&((struct qu_rst_doc *)
								  w->rd)
								 ->arena,
							name->buf),
					name->len);

				if (!*slot)
					*slot = (void *)c;
			}
			break;
		}
		case QU_RST_FOOTNOTE_REFERENCE: {
			const char *rn = qu_rst_attr(c, "refname");
			void **slot;

			if (!rn)
				break;
			slot = qu_map_slot(&w->fnref, rn, strlen(rn));
			if (!*slot)
				*slot = (void *)c;
			w->refs = qu_xrealloc(w->refs,
					      (w->nrefs + 1) * sizeof(*w->refs));
			w->refs[w->nrefs++] = c;
			break;
		}
		case QU_RST_TEXT:
			continue;
		default:
			break;
		}
		collect(w, c, depth + 1, name);
	}
}

/*
 * docutils' Contents transform runs before Sphinx numbers tables and
 * figures: each entry of a contents directive takes the next "idN", and
 * its section's title links back to it. Entries are numbered here,
 * before the walk, in the transform's order.
 */
static void toc_number(struct rw *w, const struct qu_rst_node *first,
		       unsigned depth)
{
	const struct qu_rst_node *s, *sub;

	for (s = first; s && depth; s = s->next) {
		if (s->kind != QU_RST_SECTION)
			continue;
		*qu_map_slot(&w->tocref, qu_arena_memdup(
				     &((struct qu_rst_doc *)w->rd)->arena, &s,
				     sizeof(s)),
			     sizeof(s)) = (void *)(uintptr_t)w->next_id++;
		for (sub = s->first; sub && sub->kind != QU_RST_SECTION;)
			sub = sub->next;
		toc_number(w, sub, depth - 1);
	}
}

static void contents_ids(struct rw *w, const struct qu_rst_node *n,
			 unsigned level)
{
	const struct qu_rst_node *c;

	if (level > MAX_WALK_DEPTH)
		return;
	for (c = n->first; c; c = c->next) {
		const char *name = qu_rst_attr(c, "name");

		if (c->kind == QU_RST_DIRECTIVE && name &&
		    !strcmp(name, "contents")) {
			const char *dp = option(w, c, "depth");
			unsigned depth = dp ? (unsigned)strtoul(dp, NULL, 10)
					    : 0;

			toc_number(w, option(w, c, "local") ? c->next
							    : w->rd->root->first,
				   depth ? depth : 8);
		} else if (c->kind != QU_RST_TEXT) {
			contents_ids(w, c, level + 1);
		}
	}
}

void render_rst(const struct qu_render *r, struct qu_md_ctx *ctx,
		xmlNodePtr content, const struct frame *f, struct qu_diags *diags)
{
	const struct qu_page *pg = &r->site->pages[f->page];
	const struct qu_part *part = &pg->parts[0];
	struct qu_diags scratch;
	struct rw w;

	memset(&w, 0, sizeof(w));
	/* the site's load reported the parse's diagnostics already */
	qu_diags_init(&scratch);
	w.rd = qu_rst_parse_ex(&scratch, pg->diag_path, part->text, part->len,
			       QU_RST_SPHINX_IDS);
	w.next_id = w.rd->auto_ids + 1;
	qu_diags_fini(&scratch);
	w.r = r;
	w.ctx = ctx;
	w.doc = ctx->doc;
	w.pg = pg;
	w.f = f;
	w.diags = diags;
	qu_buf_init(&w.tmp);
	qu_buf_init(&w.href);
	qu_map_init(&w.targets);
	qu_map_init(&w.substs);
	qu_map_init(&w.fnref);
	qu_map_init(&w.fnum);
	qu_buf_init(&w.pending);
	{
		struct qu_buf name = QU_BUF_INIT;

		collect(&w, w.rd->root, 0, &name);
		qu_buf_fini(&name);
	}
	qu_map_init(&w.tocref);
	contents_ids(&w, w.rd->root, 0);
	ctx->path = pg->diag_path;
	ctx->from.file = NULL;
	ctx->from.sym = QU_NONE;
	ctx->comment = false;
	ctx->heading_min = 1;
	blocks(&w, content, w.rd->root->first);
	qu_map_fini(&w.targets);
	qu_map_fini(&w.substs);
	qu_map_fini(&w.fnref);
	qu_map_fini(&w.tocref);
	qu_map_fini(&w.fnum);
	qu_buf_fini(&w.pending);
	free(w.anon);
	free(w.refs);
	qu_buf_fini(&w.tmp);
	qu_buf_fini(&w.href);
	qu_rst_free((struct qu_rst_doc *)w.rd);
}

/*
 * A kernel-doc comment's text in a Sphinx project: reST, as the kernel's
 * kernel-doc extension gives it to Sphinx, with the comment highlights
 * (@param, %CONST, &struct foo, func()). Headings in it start at h5, below
 * the item's own. @inline_only: a brief, its paragraph's inline nodes.
 */
void render_rst_text(const struct qu_render *r, struct qu_md_ctx *ctx,
		     xmlNodePtr parent, const char *text, size_t len,
		     bool inline_only)
{
	const struct qu_page *pg = &r->site->pages[ctx->from.page];
	struct frame f = {pg->out, pg->depth, pg->title, ctx->from.page, NULL};
	struct qu_diags scratch;
	struct qu_buf name = QU_BUF_INIT;
	struct rw w;

	memset(&w, 0, sizeof(w));
	/* scripts/kernel-doc reports what is wrong in comments */
	qu_diags_init(&scratch);
	w.rd = qu_rst_parse_ex(&scratch, ctx->path ? ctx->path : "", text, len,
			       QU_RST_SPHINX_IDS);
	w.r = r;
	w.ctx = ctx;
	w.doc = ctx->doc;
	w.pg = pg;
	w.f = &f;
	w.diags = &scratch;
	w.comment = true;
	w.level = 4;
	w.next_id = w.rd->auto_ids + 1;
	qu_buf_init(&w.tmp);
	qu_buf_init(&w.href);
	qu_buf_init(&w.pending);
	qu_map_init(&w.targets);
	qu_map_init(&w.substs);
	qu_map_init(&w.fnref);
	qu_map_init(&w.fnum);
	qu_map_init(&w.tocref);
	collect(&w, w.rd->root, 0, &name);
	if (inline_only && w.rd->root->first &&
	    w.rd->root->first->kind == QU_RST_PARAGRAPH &&
	    !w.rd->root->first->next)
		inlines(&w, parent, w.rd->root->first->first, false);
	else
		blocks(&w, parent, w.rd->root->first);
	qu_diags_fini(&scratch);
	qu_map_fini(&w.targets);
	qu_map_fini(&w.substs);
	qu_map_fini(&w.fnref);
	qu_map_fini(&w.fnum);
	qu_map_fini(&w.tocref);
	free(w.anon);
	free(w.refs);
	qu_buf_fini(&name);
	qu_buf_fini(&w.tmp);
	qu_buf_fini(&w.href);
	qu_buf_fini(&w.pending);
	qu_rst_free((struct qu_rst_doc *)w.rd);
}

/*
 * Section numbers of :numbered: toctrees, as Sphinx's
 * assign_section_numbers() gives them: from each numbered toctree, the
 * pages it lists get the next numbers at its level, their sections the
 * levels below, and the toctrees inside a section go on at the level of
 * that section's subsections. A page is numbered once (the first toctree
 * wins). MAX_SECNUM_LEVELS bounds the stack (the kernel nests 5 deep).
 */
#define MAX_SECNUM_LEVELS 32

struct secnum {
	struct qu_render *r;
	uint32_t stack[MAX_SECNUM_LEVELS];
	unsigned n;
	bool *assigned;
};

static void sn_list(struct secnum *sn, uint32_t page, size_t from, size_t to,
		    unsigned level, int depth);

static void sn_toctree(struct secnum *sn, const struct qu_part *part, int depth)
{
	size_t e;

	if (depth <= 0)
		return;
	for (e = 0; e < part->npages; e++) {
		uint32_t p = part->pages[e];

		if (sn->assigned[p])
			continue;
		sn->assigned[p] = true;
		sn_list(sn, p, 0, sn->r->site->pages[p].nheadings, 1, depth);
	}
}

/* The line a heading or part starts on, to put toctrees among sections. */
static uint32_t part_line(const struct qu_part *p)
{
	return p->line;
}

/*
 * The entries of headings [@from, @to) of @page at @level: each heading
 * of that level, and the toctrees directly in the enclosing section (or
 * the page, at level 1) in page order.
 */
static void sn_list(struct secnum *sn, uint32_t page, size_t from, size_t to,
		    unsigned level, int depth)
{
	const struct qu_page *pg = &sn->r->site->pages[page];
	uint32_t lo = from ? pg->headings[from - 1].line : 0;
	uint32_t hi = to < pg->nheadings ? pg->headings[to].line : UINT32_MAX;
	size_t h = from, k;
	bool first = true;

	for (;;) {
		/*
		 * The next heading of this level; before the first one, the
		 * toctrees directly in the enclosing section (after it, a
		 * toctree is inside one of this level's sections).
		 */
		size_t next = h;
		uint32_t until;

		while (next < to && pg->headings[next].level != level)
			next++;
		until = next < to ? pg->headings[next].line : hi;
		for (k = 0; first && k < pg->nparts; k++) {
			const struct qu_part *p = &pg->parts[k];
			uint32_t l = part_line(p);
			size_t in;

			if (p->kind != QU_PART_TOCTREE || l <= lo || l >= until)
				continue;
			/* directly here: no deeper heading between */
			for (in = from; in < next; in++)
				if (pg->headings[in].line < l &&
				    pg->headings[in].level >= level)
					break;
			if (in < next)
				continue;
			sn_toctree(sn, p, depth);
		}
		first = false;
		if (next >= to)
			return;
		sn->stack[sn->n - 1]++;
		if (depth > 0) {
			struct qu_buf b = QU_BUF_INIT;
			unsigned i;

			for (i = 0; i < sn->n; i++)
				qu_buf_addf(&b, i ? ".%u" : "%u", sn->stack[i]);
			if (!sn->r->secnums[page])
				sn->r->secnums[page] = qu_xcalloc(
					pg->nheadings + 1, sizeof(char *));
			free(sn->r->secnums[page][next]);
			sn->r->secnums[page][next] = qu_buf_detach(&b, NULL);
		}
		/* the section's own entries, one level down */
		{
			size_t end = next + 1;

			while (end < to && pg->headings[end].level > level)
				end++;
			if (sn->n < MAX_SECNUM_LEVELS) {
				sn->stack[sn->n++] = 0;
				sn_list(sn, page, next + 1, end, level + 1,
					depth - 1);
				sn->n--;
			}
			h = end;
		}
	}
}

void render_rst_numbers(struct qu_render *r)
{
	const struct qu_site *s = r->site;
	struct secnum sn;
	size_t p, k;
	bool any = false;

	for (p = 0; p < s->npages && !any; p++)
		for (k = 0; k < s->pages[p].nparts; k++)
			any |= s->pages[p].parts[k].kind == QU_PART_TOCTREE &&
			       s->pages[p].parts[k].numbered;
	if (!any)
		return;
	memset(&sn, 0, sizeof(sn));
	sn.r = r;
	sn.assigned = qu_xcalloc(s->npages + 1, sizeof(bool));
	r->secnums = qu_xcalloc(s->npages + 1, sizeof(char **));
	for (p = 0; p < s->npages; p++)
		for (k = 0; k < s->pages[p].nparts; k++) {
			const struct qu_part *part = &s->pages[p].parts[k];

			if (part->kind != QU_PART_TOCTREE || !part->numbered)
				continue;
			/* every numbered toctree counts from 1 */
			sn.assigned[p] = true;
			sn.n = 1;
			sn.stack[0] = 0;
			sn_toctree(&sn, part, (int)part->numbered);
		}
	free(sn.assigned);
}
