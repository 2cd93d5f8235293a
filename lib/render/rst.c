// SPDX-License-Identifier: MIT
/*
 * rst.c - a reST page's body: the reader's tree walked into DOM nodes
 * (render stage)
 *
 * page.c calls render_rst() for a page whose first part is QU_PART_RST,
 * item.c render_rst_text() for a comment of a Sphinx project. The tree of
 * lib/rst becomes libxml2 nodes the way lib/markdown walks cmark's AST:
 * text is text nodes, escaped by construction; sections keep docutils'
 * ids, labels their ids; :ref:, :doc: and the C roles resolve through the
 * graph and the site; bare foo() and struct foo link as the kernel's
 * automarkup does. Directives are rst_directive.c's.
 */
#include <stdarg.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parserInternals.h>

#include "render_int.h"
#include "rst/rst.h"
#include "walk_int.h"

void rw_where(const struct rw *w, uint32_t off, uint32_t *line,
		  uint32_t *col)
{
	*line = qu_lines_find(&w->rd->lines, off);
	*col = off - w->rd->lines.start[*line - 1] + 1;
}

const char *rw_diag_where(const struct rw *w, uint32_t off, uint32_t *line,
			  uint32_t *col)
{
	const struct qu_part *p = w->inc;

	/*
	 * Text a kernel-abi directive made: the ABI file and line its
	 * ".. LINENO" lines name (test/site/sphinx-kernel-feat)
	 */
	if (p && p->nmarks && w->rd == w->inc_rd && off >= p->marks[0].off) {
		size_t lo = 0, hi = p->nmarks;

		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;

			if (p->marks[mid].off <= off)
				lo = mid;
			else
				hi = mid;
		}
		*line = p->marks[lo].line;
		*col = 0;
		return p->marks[lo].path;
	}
	rw_where(w, off, line, col);
	return w->pg->diag_path;
}

static void QU_PRINTF(4, 5) warn(struct rw *w, enum qu_diag_id id,
				 uint32_t off, const char *fmt, ...)
{
	struct qu_buf msg = QU_BUF_INIT;
	uint32_t line, col;
	const char *path;
	va_list ap;

	va_start(ap, fmt);
	qu_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	path = rw_diag_where(w, off, &line, &col);
	qu_diag(w->diags, id, path, line, col, "%s", msg.buf);
	qu_buf_fini(&msg);
}

const struct qu_rst_node *rw_child(const struct qu_rst_node *n,
				       enum qu_rst_kind kind)
{
	const struct qu_rst_node *c;

	for (c = n->first; c; c = c->next)
		if (c->kind == kind)
			return c;
	return NULL;
}

/* The value of a directive's option, as plain text, or NULL. */
const char *rw_option(struct rw *w, const struct qu_rst_node *d,
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

void rw_set_ids(struct rw *w, xmlNodePtr el, const struct qu_rst_node *n)
{
	struct qu_buf id = QU_BUF_INIT;

	if (qu_rst_attr_item(&id, n, "ids", 0))
		r_attr(el, "id", id.buf);
	qu_buf_fini(&id);
	(void)w;
}

/* Ids past the first become empty spans, so every id still lands. */
void rw_extra_ids(struct rw *w, xmlNodePtr parent,
		      const struct qu_rst_node *n, size_t from)
{
	struct qu_buf id = QU_BUF_INIT;

	for (; qu_rst_attr_item(&id, n, "ids", from); from++)
		r_attr(r_el(w->doc, parent, "span", NULL), "id", id.buf);
	qu_buf_fini(&id);
}

/* The "¶" link Sphinx puts after a heading, a caption or a signature. */
void rw_headerlink(struct rw *w, xmlNodePtr el, const char *id)
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
void rw_caption_id(struct rw *w, xmlNodePtr el, const struct qu_rst_node *n,
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
static bool decl_href_in(struct rw *w, const char *ns, const char *name,
			 size_t len)
{
	const struct qu_label *l;
	uint32_t page;

	qu_buf_reset(&w->href);
	qu_buf_adds(&w->href, "c.");
	qu_buf_adds(&w->href, ns);
	if (*ns)
		qu_buf_addc(&w->href, '.');
	qu_buf_add(&w->href, name, len);
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
 * A declaration of a c:function, c:struct, ... directive in the page's
 * c:namespace: Sphinx's C domain and the kernel's automarkup look there
 * before anywhere else (then decl_href_in(w, "", ...) for the global).
 */
static bool ns_decl_href(struct rw *w, const char *name, size_t len)
{
	return w->c_ns.len && decl_href_in(w, w->c_ns.buf, name, len);
}

static void fnauto_put(struct rw *w, const struct qu_rst_node *n, size_t i)
{
	*qu_map_slot(&w->fnauto, qu_arena_memdup(&w->scratch, &n, sizeof(n)),
		     sizeof(n)) = (void *)(uintptr_t)(i + 1);
}

/* The index + 1 of auto-numbered footnote or reference @n, or 0. */
static size_t fnauto_get(struct rw *w, const struct qu_rst_node *n)
{
	return (uintptr_t)qu_map_get(&w->fnauto, (const char *)&n,
				     sizeof(n));
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
	const char *dot;
	size_t i;

	for (i = pos; i + 4 <= len; i++) {
		size_t j;

		/* from one '.' to the next */
		dot = memchr(s + i, '.', len - 3 - i);
		if (!dot)
			break;
		i = j = (size_t)(dot - s);
		if (strncmp(s + i + 1, "rst", 3) &&
		    strncmp(s + i + 1, "txt", 3))
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
 * "a/./b/../c" as "a/c", in place; returns how many ".." went above the
 * start, which are dropped.
 */
unsigned rw_norm_path(struct qu_buf *path)
{
	struct qu_buf norm = QU_BUF_INIT;
	char *p = path->buf ? path->buf : (char *)"", *seg;
	unsigned ups = 0;

	while ((seg = strsep(&p, "/"))) {
		if (!strcmp(seg, "..")) {
			char *up;

			if (!norm.len) {
				ups++;
				continue;
			}
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
	qu_buf_reset(path);
	qu_buf_add(path, norm.buf, norm.len);
	qu_buf_fini(&norm);
	return ups;
}

/*
 * Text, with automarkup of documents: "Documentation/x/y.rst" (from the
 * project's root) and "y.rst" or "../y.rst" (from this page's folder)
 * link to that page when there is one; the rest goes on to the C forms.
 */
void rw_text(struct rw *w, xmlNodePtr parent, const char *s, size_t len,
		 bool plain)
{
	size_t pos = 0, a, b;

	while (!plain && !w->literal && doc_ref(s, len, pos, &a, &b)) {
		const char *t = s + a, *src = w->pg->src ? w->pg->src : "";
		const char *sl = strrchr(src, '/');
		struct qu_buf path = QU_BUF_INIT;
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
		rw_norm_path(&path);
		qu_buf_adds(&path, ".rst");
		page = qu_site_find_page(w->r->site, path.buf);
		qu_buf_fini(&path);
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
	/* written up to pos, scanned up to from */
	size_t pos = 0, from = 0;

	while (!plain && !w->literal &&
	       qu_graph_scan(&ref, s, len, from, w->comment)) {
		uint32_t sym;
		bool ns;

		/*
		 * "@foo()": scripts/kernel-doc turns foo() into a function
		 * reference before it looks for @param, so the "@" stays.
		 */
		if (ref.kind == QU_REF_PARAM && ref.end + 2 <= len &&
		    s[ref.end] == '(' && s[ref.end + 1] == ')') {
			qu_buf_reset(&w->tmp);
			qu_buf_add(&w->tmp, s + pos, ref.start + 1 - pos);
			r_text(w->doc, parent, w->tmp.buf);
			pos = from = ref.start + 1;
			continue;
		}
		if (highlight(w, parent, s, pos, &ref)) {
			pos = from = ref.end;
			continue;
		}
		ns = ns_decl_href(w, ref.name, ref.nlen);
		sym = ns ? QU_NONE
			 : qu_graph_resolve(w->r->g, &ref, &w->ctx->from, NULL);

		if (ns || (sym == QU_NONE &&
			   decl_href_in(w, "", ref.name, ref.nlen))) {
			/* declared by a c:function, c:struct, ... directive */
			qu_buf_reset(&w->tmp);
			qu_buf_add(&w->tmp, s + pos, ref.start - pos);
			r_text(w->doc, parent, w->tmp.buf);
			qu_buf_reset(&w->tmp);
			qu_buf_add(&w->tmp, s + ref.start, ref.end - ref.start);
			code_link(w, parent, w->href.buf, w->tmp.buf);
			pos = from = ref.end;
			continue;
		}
		/*
		 * A name that links nowhere stays in the text written next:
		 * one text node, not one per name that libxml2 merges (a
		 * NUL, which ends what r_text() writes, is written as ever)
		 */
		if (sym == QU_NONE && !memchr(s + pos, '\0', ref.end - pos)) {
			from = ref.end;
			continue;
		}
		if (sym == QU_NONE) {
			qu_buf_reset(&w->tmp);
			qu_buf_add(&w->tmp, s + pos, ref.end - pos);
			r_text(w->doc, parent, w->tmp.buf);
			pos = from = ref.end;
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
		pos = from = ref.end;
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
void rw_norm_label(struct qu_buf *out, const char *s)
{
	qu_buf_reset(out);
	qu_rst_norm_name(out, s, strlen(s));
}

static void unresolved(struct rw *w, xmlNodePtr parent,
		       const struct qu_rst_node *n, const char *what,
		       const char *shown)
{
	r_text(w->doc, r_el(w->doc, parent, "span", "qu-unresolved"), shown);
	warn(w, QU_W_BROKEN_LINK, n->off, "%s '%s' names nothing, showing it "
	     "as text", what, shown);
}

/* A link out of the page's text, to @href as it is. */
static void link_to(struct rw *w, xmlNodePtr parent, const char *cls,
		    const char *href, const char *text)
{
	xmlNodePtr a = r_el(w->doc, parent, "a", cls);

	r_attr(a, "href", href);
	r_text(w->doc, a, text);
}

/*
 * A :ref: label no page has: Sphinx's standard labels for the general
 * index and the search page (both in every quire site; "modindex", of
 * Python modules, is not), else a label of another site's inventory.
 */
static bool ref_elsewhere(struct rw *w, xmlNodePtr parent, const char *key,
			  const struct qu_buf *title)
{
	static const struct {
		const char *label, *out, *text;
	} std[] = {
		{"genindex", "genindex.html", "Index"},
		{"search", "search.html", "Search Page"},
	};
	const char *url, *shown;
	size_t i;

	for (i = 0; i < QU_ARRAY_SIZE(std); i++)
		if (!strcmp(key, std[i].label)) {
			qu_buf_reset(&w->href);
			qu_site_relpath(&w->href, w->f->out, std[i].out);
			link_to(w, parent, "qu-ref", w->href.buf,
				title->len ? title->buf : std[i].text);
			return true;
		}
	url = qu_graph_extern_std(w->r->g, false, key, &shown);
	if (!url)
		return false;
	link_to(w, parent, "qu-ref qu-extern", url,
		title->len ? title->buf : shown ? shown : key);
	return true;
}

/*
 * :ref:`label` and :ref:`Title <label>`: a label of any page. With
 * @term, :term:`name` and :term:`text <name>`: a glossary's term of any
 * page (its text as written, as Sphinx shows it).
 */
static void role_ref(struct rw *w, xmlNodePtr parent,
		     const struct qu_rst_node *n, const char *s, bool term)
{
	struct qu_buf title = QU_BUF_INIT, target = QU_BUF_INIT;
	struct qu_buf key = QU_BUF_INIT;
	const struct qu_label *l;
	uint32_t page;

	split_title(s, &title, &target);
	if (term)
		qu_rst_term_key(&key, target.buf, target.len);
	else
		rw_norm_label(&key, target.buf);
	l = qu_graph_label(w->r->g, key.buf, &page);
	if (!l && !term && ref_elsewhere(w, parent, key.buf, &title)) {
		/* Sphinx's own labels, or another site's (intersphinx:) */
	} else if (!l) {
		unresolved(w, parent, n, term ? ":term:" : ":ref: label",
			   title.len ? title.buf : target.buf);
	} else {
		xmlNodePtr a;

		qu_buf_reset(&w->href);
		if (page != w->f->page)
			qu_site_relpath(&w->href, w->f->out,
					w->r->site->pages[page].out);
		qu_buf_addf(&w->href, "#%s", l->id);
		a = r_el(w->doc, parent, "a", term ? "qu-term" : "qu-ref");
		r_attr(a, "href", w->href.buf);
		r_text(w->doc, a,
		       title.len	   ? title.buf
		       : l->title && !term ? l->title
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
	rw_norm_path(&path);
	qu_buf_adds(&path, ".rst");
	page = qu_site_find_page(w->r->site, path.buf);
	if (page == QU_NONE) {
		path.len -= 4;
		qu_buf_adds(&path, ".md");
		page = qu_site_find_page(w->r->site, path.buf);
	}
	if (page == QU_NONE) {
		/* a page of another site (intersphinx:), named as written */
		const char *shown,
			*url = qu_graph_extern_std(w->r->g, true, target.buf,
						   &shown);

		if (url)
			link_to(w, parent, "qu-doc-ref qu-extern", url,
				title.len ? title.buf
				: shown	  ? shown
					  : target.buf);
		else
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
	const char *t, *nm;

	split_title(s, &title, &target);
	t = target.buf;
	if (*t == '~' || *t == '!')
		t++;
	qu_buf_adds(&shown, title.len ? title.buf : t);
	if (func && !title.len && !strchr(shown.buf, '('))
		qu_buf_adds(&shown, "()");
	nm = strrchr(t, ' ') ? strrchr(t, ' ') + 1 : t;
	if (ns_decl_href(w, nm, strcspn(nm, "("))) {
		/* a declaration of this c:namespace's, before the graph's */
		code_link(w, parent, w->href.buf, shown.buf);
		goto out;
	}
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
		if (decl_href_in(w, "", nm, strcspn(nm, "("))) {
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
out:
	qu_buf_fini(&title);
	qu_buf_fini(&target);
	qu_buf_fini(&shown);
}

/* How the roles that are not links look, as Sphinx's HTML writer. */
static const struct {
	const char *name;
	const char *el;
} role_looks[] = {
	{"file", "code"},      {"samp", "code"},   {"command", "strong"},
	{"program", "strong"}, {"option", "code"}, {"envvar", "code"},
	{"kbd", "kbd"},	       {"abbr", "abbr"},   {"dfn", "em"},
	{"math", "code"},      {"manpage", "em"},  {"menuselection", "em"},
	{"guilabel", "em"},    {"mimetype", "em"}, {"regexp", "code"},
	{"numref", "em"},      {"code", "code"},   {"c:expr", "code"},
	{"c:texpr", "code"},   {"rfc", "strong"},  {"pep", "strong"},
};

static void role(struct rw *w, xmlNodePtr parent, const struct qu_rst_node *n)
{
	const char *as_written = qu_rst_attr(n, "name");
	struct qu_buf s = QU_BUF_INIT;
	char name[64];
	size_t k;

	/* role names are case-insensitive, as docutils looks them up */
	for (k = 0; as_written && as_written[k] && k + 1 < sizeof(name); k++)
		name[k] = (char)tolower((unsigned char)as_written[k]);
	name[k] = 0;
	qu_rst_plain(&s, n);
	if (!strcmp(name, "ref") || !strcmp(name, "term")) {
		role_ref(w, parent, n, s.buf, name[0] == 't');
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
			     as_written ? as_written : "");
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
 * A URI relative to the page holding it ("kasan.html"): a comment means
 * the page of Documentation/ that pulls it in, which only a Sphinx
 * project has; elsewhere the text stays unlinked.
 */
static bool relative(const char *uri)
{
	size_t k = strspn(uri, "abcdefghijklmnopqrstuvwxyz"
			       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-");

	return uri[0] != '/' && uri[0] != '#' && uri[k] != ':';
}

/* The page whose output file is @out, or QU_NONE. */
static uint32_t page_by_out(const struct qu_site *s, const char *out)
{
	for (size_t k = 0; k < s->npages; k++)
		if (!strcmp(s->pages[k].out, out))
			return (uint32_t)k;
	return QU_NONE;
}

static int cmp_asset(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether page @page has an element with id @id that the site knows. */
static bool page_has_id(const struct rw *w, uint32_t page, const char *id)
{
	const struct qu_page *pg = &w->r->site->pages[page];

	if (qu_graph_has_anchor(w->r->g, page, id))
		return true;
	for (size_t k = 0; k < pg->nlabels; k++)
		if (pg->labels[k].id && !strcmp(pg->labels[k].id, id))
			return true;
	return false;
}

/*
 * A URI relative to the page (not a comment's, outside a Sphinx
 * project): Sphinx writes it as it is, a link that leads nowhere unless
 * the site has the file. Here "#id" is checked once the page is made
 * (check_ids()); a page's source ("btf.rst", "x.rst#id") or output file
 * links to that page, its fragment checked; a file copied into the site
 * stays as written; a file above the docs root, in the source tree, links
 * to its source URL when the site has a template; anything else is shown
 * as text with -Wbroken-link. Returns false for text; else w->href holds
 * the link, *@frag is true when it awaits check_ids() and *@out when it
 * leads out of the site.
 */
static bool local_uri(struct rw *w, const struct qu_rst_node *n,
		      const char *uri, bool *frag, bool *out)
{
	const struct qu_site *s = w->r->site;
	const char *src = w->pg->src ? w->pg->src : "";
	const char *sl = strrchr(src, '/');
	const char *hash = strchr(uri, '#');
	const char *q = strchr(uri, '?');
	size_t plen = hash ? (size_t)(hash - uri) : strlen(uri);
	struct qu_buf path = QU_BUF_INIT;
	uint32_t page;
	unsigned ups;
	bool ok = false;

	*frag = false;
	*out = false;
	if (plen == 0) {
		qu_buf_adds(&w->href, uri);
		*frag = hash && hash[1];
		return true;
	}
	if (q && (!hash || q < hash))
		plen = (size_t)(q - uri);
	if (sl)
		qu_buf_add(&path, src, (size_t)(sl - src) + 1);
	qu_buf_add(&path, uri, plen);
	ups = rw_norm_path(&path);
	page = ups || !path.len ? QU_NONE : qu_site_find_page(s, path.buf);
	if (page == QU_NONE && !ups && path.len)
		page = page_by_out(s, path.buf);
	if (page != QU_NONE) {
		qu_site_relpath(&w->href, w->f->out, s->pages[page].out);
		if (hash && hash[1] && page_has_id(w, page, hash + 1))
			qu_buf_adds(&w->href, hash);
		else if (hash && hash[1])
			warn(w, QU_W_BROKEN_LINK, n->off,
			     "'%s': page '%s' has no id '%s'; linking to the "
			     "page", uri, s->pages[page].src, hash + 1);
		ok = true;
	} else if (!ups && path.len &&
		   bsearch(&path.buf, s->assets, s->nassets, sizeof(char *),
			   cmp_asset)) {
		qu_buf_adds(&w->href, uri);
		ok = true;
	} else if (ups) {
		/* above the docs root: a file of the source tree? */
		const char *tmpl = w->r->source_url ? w->r->source_url
						    : s->cfg.source_url;
		size_t sl2 = s->srctree_real ? strlen(s->srctree_real) : 0;
		struct qu_buf rel = QU_BUF_INIT;

		if (tmpl && sl2 && s->root_real &&
		    !strncmp(s->root_real, s->srctree_real, sl2) &&
		    (s->root_real[sl2] == '/' || !s->root_real[sl2])) {
			qu_buf_adds(&rel, s->root_real + sl2 +
						  (s->root_real[sl2] == '/'));
			for (unsigned k = 0; k < ups; k++)
				qu_buf_adds(&rel, "/..");
			qu_buf_addc(&rel, '/');
			qu_buf_adds(&rel, path.buf);
			if (!rw_norm_path(&rel) && rel.len) {
				render_source_url(&w->href, tmpl, rel.buf, 0);
				*out = ok = true;
			}
		}
		qu_buf_fini(&rel);
		if (!ok)
			warn(w, QU_W_BROKEN_LINK, n->off,
			     "'%s' leads out of the site (no source_url to "
			     "link a source file through); showing it as text",
			     uri);
	} else {
		warn(w, QU_W_BROKEN_LINK, n->off,
		     "'%s' names no page or file of the site; showing it as "
		     "text", uri);
	}
	qu_buf_fini(&path);
	return ok;
}

/*
 * A reference: to a URI, to a named target of this page (external, or an
 * element id), or anonymous (the n-th anonymous target).
 */
/*
 * The target or section a name_ reference names: in an included file,
 * that file's own first (the page holds them too, as docutils reads the
 * included text into the page), then the page's.
 */
static const struct qu_rst_node *target_named(struct rw *w, const char *name)
{
	const struct qu_rst_node *t = NULL;

	if (w->inc_targets)
		t = qu_map_get(w->inc_targets, name, strlen(name));
	return t ? t : qu_map_get(&w->targets, name, strlen(name));
}

static void reference(struct rw *w, xmlNodePtr parent,
		      const struct qu_rst_node *n, bool plain)
{
	const char *uri = qu_rst_attr(n, "refuri");
	const char *name = qu_rst_attr(n, "refname");
	bool frag = false, out;
	xmlNodePtr a;

	if (!uri && qu_rst_attr(n, "anonymous")) {
		while (w->anon_next < w->nanon && !uri) {
			const struct qu_rst_node *t = w->anon[w->anon_next++];

			uri = qu_rst_attr(t, "refuri");
		}
	}
	qu_buf_reset(&w->href);
	if (!uri && name) {
		const struct qu_rst_node *t = target_named(w, name);
		size_t guard = 0;

		/* an indirect target (".. _a: b_") names another */
		while (t && !qu_rst_attr(t, "refuri") &&
		       qu_rst_attr(t, "refname") && guard++ < 16)
			t = target_named(w, qu_rst_attr(t, "refname"));
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

			rw_norm_label(&key, name);
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
	out = uri != NULL;
	if (uri && !plain && !w->comment && (relative(uri) || uri[0] == '#') &&
	    !local_uri(w, n, uri, &frag, &out)) {
		rw_inlines(w, parent, n->first, true);
		return;
	}
	if (uri && !w->href.len &&
	    !(w->comment && !w->r->site->cfg.sphinx && relative(uri)))
		qu_buf_adds(&w->href, uri);
	if (plain || !w->href.len || !link_ok(w, n, w->href.buf)) {
		if (!plain && !w->href.len && name)
			warn(w, QU_W_BROKEN_LINK, n->off,
			     "reference '%s' names no target, showing it as "
			     "text",
			     name);
		rw_inlines(w, parent, n->first, true);
		return;
	}
	a = r_el(w->doc, parent, "a", out ? "qu-external" : NULL);
	r_attr(a, "href", w->href.buf);
	rw_inlines(w, a, n->first, true);
	if (frag) {
		struct rw_frag *f;

		w->frags = qu_xrealloc(w->frags,
				       (w->nfrags + 1) * sizeof(*w->frags));
		f = &w->frags[w->nfrags++];
		f->a = a;
		f->path = rw_diag_where(w, n->off, &f->line, &f->col);
	}
}

/* The links below @n to "#@from" now lead to "#@to". */
static void retarget(xmlNodePtr n, const char *from, const char *to)
{
	for (; n; n = n->next) {
		xmlChar *href;

		if (n->type != XML_ELEMENT_NODE)
			continue;
		href = xmlGetProp(n, (const xmlChar *)"href");
		if (href && href[0] == '#' && !strcmp((char *)href + 1, from)) {
			struct qu_buf b = QU_BUF_INIT;

			qu_buf_addf(&b, "#%s", to);
			r_attr(n, "href", b.buf);
			qu_buf_fini(&b);
		}
		xmlFree(href);
		retarget(n->children, from, to);
	}
}

/*
 * The ids of the elements below @n, into @ids (which owns the keys). An
 * id given twice (a section of an included file or of a comment named as
 * one of the page's: docutils numbers the second of one document, quire
 * reads them apart) takes the next free "idN", and the links inside its
 * element (its permalink) follow it.
 */
static void collect_ids(struct rw *w, struct qu_map *ids,
			struct qu_arena *keys, xmlNodePtr n)
{
	for (; n; n = n->next) {
		xmlChar *id;
		const char *k;

		if (n->type != XML_ELEMENT_NODE)
			continue;
		k = r_prop(n, "id", &id);
		if (k) {
			if (qu_map_get(ids, k, strlen(k))) {
				do {
					qu_buf_reset(&w->tmp);
					qu_buf_addf(&w->tmp, "id%u",
						    w->next_id++);
				} while (qu_map_get(ids, w->tmp.buf,
						    w->tmp.len) ||
					 qu_graph_has_anchor(w->r->g,
							     w->f->page,
							     w->tmp.buf));
				/* @k may be the text the new id replaces */
				retarget(n->children, k, w->tmp.buf);
				r_attr(n, "id", w->tmp.buf);
				k = w->tmp.buf;
			}
			qu_map_put(ids, qu_arena_strdup(keys, k), (void *)1);
			xmlFree(id);
		}
		collect_ids(w, ids, keys, n->children);
	}
}

/*
 * The page made: ids given twice are made unique (collect_ids()), and
 * its links to "#id" of itself (local_uri()) that name no element of it
 * get -Wbroken-link, their text shown unlinked.
 */
static void check_ids(struct rw *w, xmlNodePtr content)
{
	struct qu_map ids;
	struct qu_arena keys;

	qu_map_init(&ids);
	qu_arena_init(&keys);
	collect_ids(w, &ids, &keys, content);
	for (size_t k = 0; k < w->nfrags; k++) {
		struct rw_frag *f = &w->frags[k];
		xmlChar *href = xmlGetProp(f->a, (const xmlChar *)"href");
		const char *id = href ? (const char *)href + 1 : "";
		xmlNodePtr c, next;

		if (!qu_map_get(&ids, id, strlen(id))) {
			qu_diag(w->diags, QU_W_BROKEN_LINK, f->path, f->line,
				f->col,
				"'#%s' names no id of this page; showing it "
				"as text", id);
			for (c = f->a->children; c; c = next) {
				next = c->next;
				xmlUnlinkNode(c);
				xmlAddPrevSibling(f->a, c);
			}
			xmlUnlinkNode(f->a);
			xmlFreeNode(f->a);
		}
		xmlFree(href);
	}
	qu_map_fini(&ids);
	qu_arena_fini(&keys);
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

void rw_inlines(struct rw *w, xmlNodePtr parent,
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
			rw_text(w, parent, n->text, n->len, plain);
			break;
		case QU_RST_EMPHASIS:
		case QU_RST_STRONG:
		case QU_RST_SUBSCRIPT:
		case QU_RST_SUPERSCRIPT:
		case QU_RST_TITLE_REFERENCE:
			rw_inlines(w, r_el(w->doc, parent, tags[n->kind], NULL),
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
			rw_set_ids(w, sp, n);
			rw_inlines(w, sp, n->first, plain);
			break;
		}
		case QU_RST_SUBSTITUTION_REFERENCE: {
			const char *nm = qu_rst_attr(n, "refname");
			const struct qu_rst_node *d =
				nm ? qu_map_get(&w->substs, nm, strlen(nm))
				   : NULL;

			if (d && d->kind == QU_RST_DIRECTIVE) {
				const struct qu_rst_node *a =
					rw_child(d, QU_RST_DIRECTIVE_ARGUMENTS);
				char *arg;

				qu_buf_reset(&w->tmp);
				if (a)
					qu_rst_plain(&w->tmp, a);
				arg = qu_xstrdup(w->tmp.buf);
				unicode(w, parent, arg);
				free(arg);
			} else if (d && w->depth < MAX_WALK_DEPTH) {
				w->depth++;
				rw_inlines(w, parent, d->first, plain);
				w->depth--;
			} else {
				rw_inlines(w, parent, n->first, plain);
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

			size_t ai = rn ? 0 : fnauto_get(w, n);

			/* [#]_: the anonymous footnote of its rank */
			if (ai && ai <= w->nafn)
				t = w->afn[ai - 1];
			rw_set_ids(w, a, n);
			if (t && qu_rst_attr_item(&id, t, "ids", 0)) {
				qu_buf_reset(&w->href);
				qu_buf_addf(&w->href, "#%s", id.buf);
				r_attr(a, "href", w->href.buf);
			}
			qu_buf_fini(&id);
			r_text(w->doc, a, "[");
			if (n->first) {
				rw_inlines(w, a, n->first, true);
			} else {
				uintptr_t k = rn ? (uintptr_t)qu_map_get(
							   &w->fnum, rn,
							   strlen(rn))
					      : ai   ? w->afnum[ai - 1]
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
				rw_child(n, QU_RST_DIRECTIVE_ARGUMENTS);

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
			rw_inlines(w, parent, n->first, plain);
			break;
		}
	}
}

void rw_code_text(struct rw *w, xmlNodePtr parent, const char *lang,
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
void rw_unrendered(struct rw *w, xmlNodePtr parent,
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
	rw_code_text(w, parent, NULL, b.buf, b.len);
	/* an unknown one has its -Wrst-unknown-directive from the reader */
	if (name && reader_knows(name) && why)
		warn(w, QU_W_RST_UNRENDERED, d->off,
		     "directive '%s' is not rendered (%s); showing its source",
		     name, why);
	qu_buf_fini(&b);
	qu_buf_fini(&v);
}

/* Body elements of a directive's content, when it has any. */
void rw_content(struct rw *w, xmlNodePtr parent,
		    const struct qu_rst_node *d)
{
	const struct qu_rst_node *c = rw_child(d, QU_RST_DIRECTIVE_CONTENT);

	if (c)
		rw_blocks(w, parent, c->first);
}

static void admonition(struct rw *w, xmlNodePtr parent, const char *cls,
		       const char *title, const struct qu_rst_node *first)
{
	xmlNodePtr div = r_el(w->doc, parent, "div", "qu-admonition");

	qu_buf_reset(&w->tmp);
	qu_buf_addf(&w->tmp, "qu-admonition %s", cls);
	r_attr(div, "class", w->tmp.buf);
	r_text(w->doc, r_el(w->doc, div, "p", "qu-admonition-title"), title);
	rw_blocks(w, div, first);
}

/* Sphinx's "2.1. " before a numbered title. */
static void secnum_span(struct rw *w, xmlNodePtr h, const char *num)
{
	qu_buf_reset(&w->tmp);
	qu_buf_addf(&w->tmp, "%s. ", num);
	r_text(w->doc, r_el(w->doc, h, "span", "section-number"), w->tmp.buf);
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
	const struct qu_rst_node *t = rw_child(n, QU_RST_TITLE), *c;
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
	if (w->pending.len && qu_rst_is_auto_id(first.buf)) {
		char *sp = strchr(w->pending.buf, ' ');

		qu_buf_reset(&first);
		qu_buf_add(&first, w->pending.buf,
			   (size_t)(sp - w->pending.buf));
		r_attr(sec, "id", first.buf);
		rw_extra_ids(w, sec, n, 0);
		pending_spans(w, sec, sp + 1);
	} else {
		rw_set_ids(w, sec, n);
		rw_extra_ids(w, sec, n, 1);
		pending_spans(w, sec, w->pending.buf);
	}
	qu_buf_reset(&w->pending);
	if (t) {
		uintptr_t back = (uintptr_t)qu_map_get(
			&w->tocref, (const char *)&n, sizeof(n));

		/* numbered by the id it is known by (lib/rst's heading id) */
		const char *num = w->comment ? NULL
					     : rw_secnum(w->r, w->f->page,
							 first.buf);

		h = r_el(w->doc, sec, tag, NULL);
		if (num)
			secnum_span(w, h, num);
		if (back) {
			/* the title links back to its contents entry */
			xmlNodePtr a = r_el(w->doc, h, "a", "toc-backref");

			qu_buf_reset(&w->tmp);
			qu_buf_addf(&w->tmp, "#id%lu", (unsigned long)back);
			r_attr(a, "href", w->tmp.buf);
			rw_inlines(w, a, t->first, true);
		} else {
			/*
			 * Roles and links in a title are links, as Sphinx's;
			 * the kernel's automarkup reads paragraphs only.
			 */
			bool lit = w->literal;

			w->literal = true;
			rw_inlines(w, h, t->first, false);
			w->literal = lit;
		}
		if (first.len)
			rw_headerlink(w, h, first.buf);
	}
	qu_buf_fini(&first);
	for (c = n->first; c; c = c->next)
		if (c != t)
			rw_block(w, sec, c);
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
/* A <dd> holding @c's blocks: a definition, a field's or option's body. */
static void rw_dd(struct rw *w, xmlNodePtr parent, const struct qu_rst_node *c)
{
	rw_blocks(w, r_el(w->doc, parent, "dd", NULL), c->first);
}

void rw_block(struct rw *w, xmlNodePtr parent, const struct qu_rst_node *n)
{
	const struct qu_rst_node *c;
	xmlNodePtr el;

	switch (n->kind) {
	case QU_RST_SECTION:
		section(w, parent, n);
		break;
	case QU_RST_PARAGRAPH:
		el = r_el(w->doc, parent, "p", NULL);
		rw_set_ids(w, el, n);
		rw_inlines(w, el, n->first, false);
		break;
	case QU_RST_LITERAL_BLOCK:
	case QU_RST_DOCTEST_BLOCK:
		qu_buf_reset(&w->href);
		qu_rst_plain(&w->href, n);
		rw_code_text(w, parent, w->lang, w->href.buf, w->href.len);
		break;
	case QU_RST_BULLET_LIST:
		rw_blocks(w, r_el(w->doc, parent, "ul", NULL), n->first);
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
		rw_blocks(w, el, n->first);
		break;
	}
	case QU_RST_LIST_ITEM:
		rw_blocks(w, r_el(w->doc, parent, "li", NULL), n->first);
		break;
	case QU_RST_DEFINITION_LIST:
	case QU_RST_FIELD_LIST:
	case QU_RST_OPTION_LIST:
		rw_blocks(w,
			  r_el(w->doc, parent, "dl",
			       n->kind == QU_RST_FIELD_LIST ? "qu-field-list"
			       : n->kind == QU_RST_OPTION_LIST
				       ? "qu-option-list"
				       : NULL),
			  n->first);
		break;
	case QU_RST_DEFINITION_LIST_ITEM:
		for (c = n->first; c; c = c->next) {
			if (c->kind == QU_RST_TERM) {
				el = r_el(w->doc, parent, "dt", NULL);
				rw_set_ids(w, el, c);
				rw_inlines(w, el, c->first, false);
			} else if (c->kind == QU_RST_CLASSIFIER) {
				el = parent->last;
				r_text(w->doc, el, " : ");
				rw_inlines(w, r_el(w->doc, el, "span",
						"qu-classifier"),
					c->first, false);
			} else if (c->kind == QU_RST_DEFINITION) {
				rw_dd(w, parent, c);
			}
		}
		break;
	case QU_RST_FIELD:
		for (c = n->first; c; c = c->next)
			if (c->kind == QU_RST_FIELD_NAME)
				rw_inlines(w, r_el(w->doc, parent, "dt", NULL),
					c->first, false);
			else if (c->kind == QU_RST_FIELD_BODY)
				rw_dd(w, parent, c);
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
				rw_dd(w, parent, c);
			}
		}
		break;
	case QU_RST_LINE_BLOCK:
		el = r_el(w->doc, parent, "div", "qu-line-block");
		rw_blocks(w, el, n->first);
		break;
	case QU_RST_LINE:
		el = r_el(w->doc, parent, "div", "qu-line");
		if (n->first)
			rw_inlines(w, el, n->first, false);
		else
			r_el(w->doc, el, "br", NULL);
		break;
	case QU_RST_BLOCK_QUOTE: {
		/*
		 * Mostly text indented for its own sake, which Sphinx's themes
		 * show indented only; a quotation has its attribution.
		 */
		const struct qu_rst_node *last = n->first;

		while (last && last->next)
			last = last->next;
		rw_blocks(w,
			  r_el(w->doc, parent, "blockquote",
			       last && last->kind == QU_RST_ATTRIBUTION
				       ? NULL
				       : "qu-indented"),
			  n->first);
		break;
	}
	case QU_RST_ATTRIBUTION:
		el = r_el(w->doc, parent, "p", "qu-attribution");
		r_text(w->doc, el, "\xe2\x80\x94 ");
		rw_inlines(w, el, n->first, false);
		break;
	case QU_RST_TABLE:
		rw_table(w, parent, n, NULL);
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
		const struct qu_rst_node *l = rw_child(n, QU_RST_LABEL);

		struct qu_buf nm = QU_BUF_INIT, id = QU_BUF_INIT;
		const struct qu_rst_node *ref = NULL;
		xmlNodePtr lab;
		size_t ai;

		el = r_el(w->doc, parent, "div", "qu-footnote");
		rw_set_ids(w, el, n);
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
		} else if ((ai = fnauto_get(w, n))) {
			/* [#]: its number, its reference of the same rank */
			if (!w->href.len)
				qu_buf_addf(&w->href, "%lu",
					    (unsigned long)w->afnum[ai - 1]);
			if (ai <= w->narefs)
				ref = w->arefs[ai - 1];
		}
		r_text(w->doc, lab, "[");
		/* the links back to where it is cited, as Sphinx's */
		if (ref && nm.len && backrefs(w, el, nm.buf) > 1) {
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
				rw_block(w, el, c);
		break;
	}
	case QU_RST_ADMONITION: {
		const struct qu_rst_node *t = rw_child(n, QU_RST_TITLE);

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
		rw_directive(w, parent, n);
		break;
	case QU_RST_TITLE:
		/* a title the reader kept outside a section */
		rw_inlines(w, r_el(w->doc, parent, "p", NULL), n->first, false);
		break;
	default:
		/* inline content where a block was expected */
		el = r_el(w->doc, parent, "p", NULL);
		rw_inlines(w, el, n, false);
		break;
	}
}

void rw_blocks(struct rw *w, xmlNodePtr parent,
		   const struct qu_rst_node *first)
{
	const struct qu_rst_node *n;

	if (w->depth >= MAX_WALK_DEPTH)
		return;
	w->depth++;
	for (n = first; n; n = n->next) {
		if (n->kind == QU_RST_TEXT) {
			rw_text(w, parent, n->text, n->len, false);
			continue;
		}
		if (n->kind >= QU_RST_EMPHASIS && n->kind <= QU_RST_PROBLEMATIC &&
		    n->kind != QU_RST_TARGET &&
		    n->kind != QU_RST_SUBSTITUTION_DEFINITION &&
		    n->kind != QU_RST_FOOTNOTE && n->kind != QU_RST_CITATION &&
		    n->kind != QU_RST_LABEL) {
			/* inline nodes where blocks belong: the rest inline */
			rw_inlines(w, parent, n, false);
			break;
		}
		rw_block(w, parent, n);
	}
	w->depth--;
}

/* Every name of @n into @m, unless an earlier node took it. */
static void put_names(struct rw *w, struct qu_map *m,
		      const struct qu_rst_node *n, struct qu_buf *name)
{
	struct qu_arena *a = &w->scratch;
	size_t k;

	for (k = 0; qu_rst_attr_item(name, n, "names", k); k++) {
		void **slot = qu_map_slot(
			m, qu_arena_strdup(a, name->buf), name->len);

		if (!*slot)
			*slot = (void *)n;
	}
}

void rw_collect_targets(struct rw *w, struct qu_map *m,
			const struct qu_rst_node *n, unsigned depth)
{
	struct qu_buf name = QU_BUF_INIT;
	const struct qu_rst_node *c;

	if (depth > MAX_WALK_DEPTH)
		return;
	for (c = n->first; c; c = c->next) {
		if (c->kind == QU_RST_TARGET || c->kind == QU_RST_SECTION ||
		    c->kind == QU_RST_FOOTNOTE || c->kind == QU_RST_CITATION)
			put_names(w, m, c, &name);
		if (c->kind != QU_RST_TEXT)
			rw_collect_targets(w, m, c, depth + 1);
	}
	qu_buf_fini(&name);
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
			    !(alt = rw_option(w, c, "alt")))
				break;
			rw_norm_label(name, alt);
			{
				void **slot = qu_map_slot(
					&w->substs,
					qu_arena_strdup(&w->scratch, name->buf),
					name->len);

				if (!*slot)
					*slot = (void *)c;
			}
			break;
		}
		case QU_RST_FOOTNOTE_REFERENCE: {
			const char *rn = qu_rst_attr(c, "refname");
			void **slot;

			if (!rn && qu_rst_attr(c, "auto")) {
				/* [#]_: paired with a [#] footnote later */
				w->arefs = qu_xrealloc(w->arefs,
						       (w->narefs + 1) *
							       sizeof(*w->arefs));
				w->arefs[w->narefs++] = c;
			}
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
 * docutils' Footnotes transform, after collect(): the auto-numbered
 * footnotes ([#name] and [#]) take 1, 2, ... in page order, each the next
 * number that names nothing on the page yet; the references to [#name]
 * show its number, and the anonymous references ([#]_) take the
 * anonymous footnotes' in order.
 */
static void number_footnotes(struct rw *w, const struct qu_rst_node *n,
			     unsigned depth, struct qu_buf *name)
{
	struct qu_arena *a = &w->scratch;
	const struct qu_rst_node *c;
	char label[16];

	if (depth > MAX_WALK_DEPTH)
		return;
	for (c = n->first; c; c = c->next) {
		if (c->kind == QU_RST_FOOTNOTE && qu_rst_attr(c, "auto")) {
			do
				snprintf(label, sizeof(label), "%u",
					 ++w->nfoot);
			while (qu_map_get(&w->targets, label, strlen(label)));
			if (qu_rst_attr_item(name, c, "names", 0)) {
				qu_map_put(&w->fnum,
					   qu_arena_strdup(a, name->buf),
					   (void *)(uintptr_t)w->nfoot);
			} else {
				w->afn = qu_xrealloc(w->afn, (w->nafn + 1) *
							     sizeof(*w->afn));
				w->afnum = qu_xrealloc(
					w->afnum,
					(w->nafn + 1) * sizeof(*w->afnum));
				w->afn[w->nafn] = c;
				w->afnum[w->nafn] = w->nfoot;
				fnauto_put(w, c, w->nafn);
				if (w->nafn < w->narefs)
					fnauto_put(w, w->arefs[w->nafn],
						   w->nafn);
				w->nafn++;
			}
		}
		if (c->kind != QU_RST_TEXT)
			number_footnotes(w, c, depth + 1, name);
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
		*qu_map_slot(&w->tocref,
			     qu_arena_memdup(&w->scratch, &s, sizeof(s)),
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
			const char *dp = rw_option(w, c, "depth");
			unsigned depth = dp ? (unsigned)strtoul(dp, NULL, 10)
					    : 0;

			toc_number(w, rw_option(w, c, "local") ? c->next
							    : w->rd->root->first,
				   depth ? depth : 8);
		} else if (c->kind != QU_RST_TEXT) {
			contents_ids(w, c, level + 1);
		}
	}
}

void render_rst(const struct qu_render *r, struct qu_md_ctx *ctx,
		xmlNodePtr content, const struct frame *f, struct qu_diags *diags,
		struct qu_render_pics *pics)
{
	const struct qu_page *pg = &r->site->pages[f->page];
	const struct qu_part *part = &pg->parts[0];
	struct qu_rst_doc *mine;
	struct qu_diags scratch;
	struct rw w;

	memset(&w, 0, sizeof(w));
	/*
	 * The site's load parsed the page and kept the parse (taken here),
	 * or reported the parse's diagnostics already.
	 */
	if (part->parsed && part->parsed->doc) {
		mine = part->parsed->doc;
		part->parsed->doc = NULL;
	} else {
		qu_diags_init(&scratch);
		mine = qu_rst_parse_ex(&scratch, pg->diag_path, part->text,
				       part->len, QU_RST_SPHINX_IDS);
		qu_diags_fini(&scratch);
	}
	w.rd = mine;
	w.next_id = w.rd->auto_ids + 1;
	qu_arena_init(&w.scratch);
	w.r = r;
	w.ctx = ctx;
	w.doc = ctx->doc;
	w.pg = pg;
	w.f = f;
	w.diags = diags;
	w.pics = pics;
	qu_buf_init(&w.tmp);
	qu_buf_init(&w.c_ns);
	qu_buf_init(&w.href);
	qu_map_init(&w.targets);
	qu_map_init(&w.substs);
	qu_map_init(&w.fnref);
	qu_map_init(&w.fnum);
	qu_map_init(&w.fnauto);
	qu_buf_init(&w.pending);
	{
		struct qu_buf name = QU_BUF_INIT;

		collect(&w, w.rd->root, 0, &name);
		number_footnotes(&w, w.rd->root, 0, &name);
		qu_buf_fini(&name);
	}
	qu_map_init(&w.tocref);
	contents_ids(&w, w.rd->root, 0);
	ctx->path = pg->diag_path;
	ctx->from.file = NULL;
	ctx->from.sym = QU_NONE;
	ctx->comment = false;
	ctx->heading_min = 1;
	rw_blocks(&w, content, w.rd->root->first);
	check_ids(&w, content);
	free(w.frags);
	qu_map_fini(&w.targets);
	qu_map_fini(&w.substs);
	qu_map_fini(&w.fnref);
	qu_map_fini(&w.tocref);
	qu_map_fini(&w.fnum);
	qu_map_fini(&w.fnauto);
	free(w.afn);
	free(w.afnum);
	free(w.arefs);
	qu_buf_fini(&w.pending);
	free(w.anon);
	free(w.refs);
	qu_buf_fini(&w.tmp);
	qu_buf_fini(&w.href);
	qu_buf_fini(&w.c_ns);
	qu_arena_fini(&w.scratch);
	qu_rst_free(mine);
}

/*
 * A kernel-doc comment's text in a Sphinx project: reST, as the kernel's
 * kernel-doc extension gives it to Sphinx, with the comment highlights
 * (@param, %CONST, &struct foo, func()). Headings in it start at h5, below
 * the item's own. @inline_only: a brief, its paragraph's inline nodes.
 */
/*
 * A brief goes in a paragraph: a brief that reads as blocks ("- Copy a
 * string", a bullet list) gives their paragraphs' inlines and the plain
 * text of the rest, one after the other, so that no block lands in the
 * <p>. Golden: test/site/markup-rst (map_rd()).
 */
static void brief_inlines(struct rw *w, xmlNodePtr parent)
{
	const struct qu_rst_node *b;
	struct qu_buf t = QU_BUF_INIT;

	for (b = w->rd->root->first; b; b = b->next) {
		if (b != w->rd->root->first)
			r_text(w->doc, parent, " ");
		if (b->kind == QU_RST_PARAGRAPH) {
			rw_inlines(w, parent, b->first, false);
			continue;
		}
		qu_buf_reset(&t);
		qu_rst_plain(&t, b);
		r_text(w->doc, parent, t.buf);
	}
	qu_buf_fini(&t);
}

void render_rst_text(const struct qu_render *r, struct qu_md_ctx *ctx,
		     xmlNodePtr parent, const char *text, size_t len,
		     bool inline_only)
{
	const struct qu_page *pg = &r->site->pages[ctx->from.page];
	struct frame f = {pg->out, pg->depth, pg->title, ctx->from.page, NULL};
	struct qu_diags scratch;
	struct qu_buf name = QU_BUF_INIT;
	struct qu_rst_doc *rd;
	struct rw w;

	memset(&w, 0, sizeof(w));
	/* scripts/kernel-doc reports what is wrong in comments */
	qu_diags_init(&scratch);
	rd = qu_rst_parse_ex(&scratch, ctx->path ? ctx->path : "", text, len,
			     QU_RST_SPHINX_IDS);
	w.rd = rd;
	qu_arena_init(&w.scratch);
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
	qu_buf_init(&w.c_ns);
	qu_buf_init(&w.href);
	qu_buf_init(&w.pending);
	qu_map_init(&w.targets);
	qu_map_init(&w.substs);
	qu_map_init(&w.fnref);
	qu_map_init(&w.fnum);
	qu_map_init(&w.fnauto);
	qu_map_init(&w.tocref);
	collect(&w, w.rd->root, 0, &name);
	number_footnotes(&w, w.rd->root, 0, &name);
	if (inline_only)
		brief_inlines(&w, parent);
	else
		rw_blocks(&w, parent, w.rd->root->first);
	qu_diags_fini(&scratch);
	qu_map_fini(&w.targets);
	qu_map_fini(&w.substs);
	qu_map_fini(&w.fnref);
	qu_map_fini(&w.fnum);
	qu_map_fini(&w.fnauto);
	free(w.afn);
	free(w.afnum);
	free(w.arefs);
	qu_map_fini(&w.tocref);
	free(w.anon);
	free(w.refs);
	qu_buf_fini(&name);
	qu_buf_fini(&w.tmp);
	qu_buf_fini(&w.href);
	qu_buf_fini(&w.pending);
	qu_buf_fini(&w.c_ns);
	qu_arena_fini(&w.scratch);
	qu_rst_free(rd);
}
