// SPDX-License-Identifier: MIT
/*
 * page.c - what the site needs from a reST page (rst stage)
 *
 * lib/build hands qu_rst_site_read() to lib/site as the reader of .rst
 * pages (struct qu_site_reader): it parses the page once and tells the
 * site its kernel-doc and toctree directives, its sections (the page's
 * headings, with docutils' ids) and its labels, so the site builds the
 * same page model from reST as from Markdown.
 */
#include <stdlib.h>
#include <string.h>

#include "rst_int.h"
#include "site/site.h"

/* The plain text below @n: what a title or a term reads as. */
void qu_rst_plain(struct qu_buf *out, const struct qu_rst_node *n)
{
	const struct qu_rst_node *c;

	if (n->kind == QU_RST_TEXT) {
		qu_buf_add(out, n->text, n->len);
		return;
	}
	for (c = n->first; c; c = c->next)
		qu_rst_plain(out, c);
}

/*
 * The first item of a list-valued attribute ("ids", "names"), escapes
 * removed; false when @n has none.
 */
bool qu_rst_attr_item(struct qu_buf *out, const struct qu_rst_node *n,
		      const char *name, size_t index)
{
	const char *v = qu_rst_attr(n, name);
	size_t k = 0;

	qu_buf_reset(out);
	if (!v || !*v)
		return false;
	for (; *v; v++) {
		if (*v == ' ') {
			if (k++ == index)
				return true;
			continue;
		}
		if (*v == '\\' && v[1])
			v++;
		if (k == index)
			qu_buf_addc(out, *v);
	}
	return k == index && out->len;
}

struct walk {
	const struct qu_rst_doc *doc;
	const struct qu_site_rst_sink *sink;
	void *payload;
	struct qu_buf a, b;
	struct qu_buf ns; /* the c:namespace in force, "" for none */
	struct qu_buf pend; /* the first label of the next section */
	unsigned depth;
	unsigned hidden; /* inside "only" blocks an HTML build leaves out */
};

static const struct qu_rst_node *title_of(const struct qu_rst_node *sec)
{
	const struct qu_rst_node *c;

	for (c = sec->first; c; c = c->next)
		if (c->kind == QU_RST_TITLE)
			return c;
	return NULL;
}

/*
 * The section a target labels: the next sibling that is not a target,
 * or, for a target closing a section, the section after it (docutils'
 * PropagateTargets does the same).
 */
const struct qu_rst_node *qu_rst_labelled(const struct qu_rst_node *t)
{
	const struct qu_rst_node *n = t;

	for (;;) {
		while (n->next && n->next->kind == QU_RST_TARGET)
			n = n->next;
		if (n->next)
			return n->next->kind == QU_RST_SECTION ? n->next : NULL;
		if (!n->parent || n->parent->kind != QU_RST_SECTION)
			return NULL;
		n = n->parent;
	}
}

/*
 * The "only" directive's expression: words, "not", "and", "or" and
 * parentheses, as Sphinx's Tags.eval_condition reads them.
 */
struct cond {
	const char *p;
	bool py;      /* ifconfig's Python: NAME == 'text', NAME != 'text' */
	bool unknown; /* it named what quire does not know */
};

static bool cond_or(struct cond *c, int depth);

static void cond_blank(struct cond *c)
{
	while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n')
		c->p++;
}

/*
 * ifconfig's comparison after NAME (@s, @l): "== 'text'" or "!= 'text'".
 * The builder is "html"; any other name, or another form, is unknown.
 */
static bool cond_compare(struct cond *c, const char *s, size_t l)
{
	const char *q, *end;
	bool eq, same;

	cond_blank(c);
	if ((c->p[0] != '=' && c->p[0] != '!') || c->p[1] != '=') {
		c->unknown = true;
		return true;
	}
	eq = c->p[0] == '=';
	c->p += 2;
	cond_blank(c);
	q = c->p;
	if ((*q != '\'' && *q != '"') || !(end = strchr(q + 1, *q)) ||
	    l != 7 || strncmp(s, "builder", 7)) {
		c->unknown = true;
		c->p += strcspn(c->p, " )\n");
		return true;
	}
	same = (size_t)(end - q - 1) == 4 && !strncmp(q + 1, "html", 4);
	c->p = end + 1;
	return eq == same;
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
	       *c->p != '\n' && (!c->py || (*c->p != '=' && *c->p != '!')))
		c->p++;
	l = (size_t)(c->p - s);
	if (l == 3 && !strncmp(s, "not", 3))
		return !cond_atom(c, depth + 1);
	if (c->py)
		return cond_compare(c, s, l);
	return (l == 4 && !strncmp(s, "html", 4)) ||
	       (l == 12 && !strncmp(s, "builder_html", 12)) ||
	       (l == 11 && !strncmp(s, "format_html", 11));
}

typedef bool cond_fn(struct cond *c, int depth);

/* "A and B and ..." or "A or B or ...": @sub's terms joined by @op. */
static bool cond_join(struct cond *c, int depth, const char *op, cond_fn *sub)
{
	size_t ol = strlen(op);
	bool v = sub(c, depth);

	for (;;) {
		bool t;

		cond_blank(c);
		if (strncmp(c->p, op, ol) || depth > 64)
			return v;
		c->p += ol;
		t = sub(c, depth + 1);
		v = op[0] == 'a' ? t && v : t || v;
	}
}

static bool cond_and(struct cond *c, int depth)
{
	return cond_join(c, depth, "and", cond_atom);
}

static bool cond_or(struct cond *c, int depth)
{
	return cond_join(c, depth, "or", cond_and);
}

bool qu_rst_is_auto_id(const char *id)
{
	return id[0] == 'i' && id[1] == 'd' && id[2] &&
	       strspn(id + 2, "0123456789") == strlen(id + 2);
}

bool qu_rst_only_true(const char *expr)
{
	struct cond c = {expr, false, false};

	return cond_or(&c, 0);
}

bool qu_rst_ifconfig_true(const char *expr, bool *unknown)
{
	struct cond c = {expr, true, false};
	bool v = cond_or(&c, 0);

	if (unknown)
		*unknown = c.unknown;
	/* what cannot be told stays visible */
	return v || c.unknown;
}

bool qu_rst_cond_false(const struct qu_rst_node *d, struct qu_buf *tmp)
{
	const char *name = qu_rst_attr(d, "name");
	const struct qu_rst_node *c;
	bool ifconfig;

	if (d->kind != QU_RST_DIRECTIVE || !name)
		return false;
	ifconfig = !strcmp(name, "ifconfig");
	if (!ifconfig && strcmp(name, "only"))
		return false;
	qu_buf_reset(tmp);
	for (c = d->first; c; c = c->next)
		if (c->kind == QU_RST_DIRECTIVE_ARGUMENTS)
			qu_rst_plain(tmp, c);
	return ifconfig ? !qu_rst_ifconfig_true(tmp->buf, NULL)
			: !qu_rst_only_true(tmp->buf);
}

static void directive(struct walk *w, const struct qu_rst_node *n)
{
	const char *name = qu_rst_attr(n, "name");
	struct qu_site_directive d;
	struct qu_site_option *opts = NULL;
	struct qu_buf arg = QU_BUF_INIT, content = QU_BUF_INIT;
	struct qu_buf *vals = NULL;
	const struct qu_rst_node *c;
	size_t nopts = 0, i;

	if (!name || (strcmp(name, "kernel-doc") && strcmp(name, "toctree") &&
		      strcmp(name, "include") && strcmp(name, "literalinclude") &&
		      strcmp(name, "maintainers-include") &&
		      strcmp(name, "kernel-include") &&
		      strcmp(name, "kernel-feat") && strcmp(name, "kernel-abi") &&
		      strcmp(name, "kernel-render") && strcmp(name, "csv-table")))
		return;
	for (c = n->first; c; c = c->next) {
		if (c->kind == QU_RST_DIRECTIVE_ARGUMENTS) {
			qu_rst_plain(&arg, c);
		} else if (c->kind == QU_RST_DIRECTIVE_OPTION) {
			opts = qu_xrealloc(opts, (nopts + 1) * sizeof(*opts));
			vals = qu_xrealloc(vals, (nopts + 1) * sizeof(*vals));
			qu_buf_init(&vals[nopts]);
			qu_rst_plain(&vals[nopts], c);
			opts[nopts].name = qu_rst_attr(c, "name");
			if (!opts[nopts].name)
				opts[nopts].name = "";
			opts[nopts].line = qu_lines_find(&w->doc->lines, c->off);
			nopts++;
		} else if (c->kind == QU_RST_DIRECTIVE_CONTENT) {
			qu_rst_plain(&content, c);
		}
	}
	for (i = 0; i < nopts; i++)
		opts[i].value = vals[i].buf;
	d.name = name;
	d.arg = arg.buf;
	d.opts = opts;
	d.nopts = nopts;
	d.content = content.buf;
	d.off = n->off;
	d.line = qu_lines_find(&w->doc->lines, n->off);
	d.col = n->off - w->doc->lines.start[d.line - 1] + 1;
	w->sink->directive(w->payload, &d);
	for (i = 0; i < nopts; i++)
		qu_buf_fini(&vals[i]);
	free(vals);
	free(opts);
	qu_buf_fini(&arg);
	qu_buf_fini(&content);
}

bool qu_rst_c_namespace(struct qu_buf *out, const struct qu_rst_node *d)
{
	const char *name = qu_rst_attr(d, "name");
	const struct qu_rst_node *c;

	if (d->kind != QU_RST_DIRECTIVE || !name || strcmp(name, "c:namespace"))
		return false;
	qu_buf_reset(out);
	for (c = d->first; c; c = c->next)
		if (c->kind == QU_RST_DIRECTIVE_ARGUMENTS)
			qu_rst_plain(out, c);
	if (!strcmp(out->buf, "NULL") || !strcmp(out->buf, "0"))
		qu_buf_reset(out);
	return true;
}

bool qu_rst_c_decl_id(struct qu_buf *out, const struct qu_rst_node *d,
		      size_t index, const char *ns)
{
	const char *name = qu_rst_attr(d, "name");
	struct qu_buf sig = QU_BUF_INIT;
	const struct qu_rst_node *c;
	const char *line, *p, *end, *s;
	size_t k;

	qu_buf_reset(out);
	if (!name || strncmp(name, "c:", 2) || !strncmp(name, "c:namespace", 11))
		return false;
	for (c = d->first; c; c = c->next)
		if (c->kind == QU_RST_DIRECTIVE_ARGUMENTS)
			qu_rst_plain(&sig, c);
	/* one signature a line (timekeeping.rst gives five at once) */
	line = sig.buf;
	for (k = 0; k < index && line; k++) {
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	if (!line) {
		qu_buf_fini(&sig);
		return false;
	}
	end = strchr(line, '\n');
	end = end ? end : line + strlen(line);
	/* the name before "(" (functions, function-like macros), else last */
	p = memchr(line, '(', (size_t)(end - line));
	if (p)
		end = p;
	while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	s = end;
	while (s > line && (s[-1] == '_' || (s[-1] >= 'a' && s[-1] <= 'z') ||
			    (s[-1] >= 'A' && s[-1] <= 'Z') ||
			    (s[-1] >= '0' && s[-1] <= '9')))
		s--;
	if (s < end)
		qu_buf_addf(out, "c.%s%s%.*s", ns ? ns : "", ns ? "." : "",
			    (int)(end - s), s);
	qu_buf_fini(&sig);
	/* a line naming nothing still counts, so the caller goes on */
	if (!out->len)
		qu_buf_adds(out, "");
	return true;
}

/* The inventory role of a C-domain directive, as Sphinx writes it. */
static const char *c_role(const struct qu_rst_node *d)
{
	const char *name = qu_rst_attr(d, "name");

	if (!name)
		return NULL;
	if (!strcmp(name, "c:function"))
		return "c:function";
	if (!strcmp(name, "c:macro"))
		return "c:macro";
	if (!strcmp(name, "c:struct"))
		return "c:struct";
	if (!strcmp(name, "c:union"))
		return "c:union";
	if (!strcmp(name, "c:enum"))
		return "c:enum";
	if (!strcmp(name, "c:enumerator"))
		return "c:enumerator";
	if (!strcmp(name, "c:member"))
		return "c:member";
	if (!strcmp(name, "c:var"))
		return "c:var";
	return "c:type";
}

bool qu_rst_glossary_term(size_t *term_len, const char *line, size_t len)
{
	const char *cl;

	if (!len || line[0] == ' ' || line[0] == '\t')
		return false;
	/* "term : classifier", as Sphinx's split_term_classifiers() */
	cl = memmem(line, len, " : ", 3);
	*term_len = cl ? (size_t)(cl - line) : len;
	while (*term_len &&
	       (line[*term_len - 1] == ' ' || line[*term_len - 1] == '\r'))
		(*term_len)--;
	return true;
}

/* A glossary's terms: labels with role "std:term" that :term: finds. */
static void glossary(struct walk *w, const struct qu_rst_node *d)
{
	struct qu_buf body = QU_BUF_INIT, term = QU_BUF_INIT;
	const struct qu_rst_node *c;
	const char *p, *nl;

	for (c = d->first; c; c = c->next)
		if (c->kind == QU_RST_DIRECTIVE_CONTENT)
			qu_rst_plain(&body, c);
	for (p = body.buf; *p; p = nl ? nl + 1 : p + strlen(p)) {
		size_t l, tl;

		nl = strchr(p, '\n');
		l = nl ? (size_t)(nl - p) : strlen(p);
		if (!qu_rst_glossary_term(&tl, p, l))
			continue;
		qu_rst_term_key(&w->b, p, tl);
		qu_rst_term_id(&w->a, p, tl);
		qu_buf_reset(&term);
		qu_buf_add(&term, p, tl);
		w->sink->label(w->payload, w->b.buf, w->a.buf, term.buf,
			       "std:term");
	}
	qu_buf_fini(&body);
	qu_buf_fini(&term);
}

/*
 * A section title's source as written (docutils' rawsource: its markup
 * kept), normalised as :ref: looks labels up: the name Sphinx's
 * autosectionlabel gives the section.
 */
static void title_name(struct qu_buf *out, const struct qu_rst_doc *doc,
		       const struct qu_rst_node *t)
{
	const char *p = doc->src + t->off, *end = doc->src + doc->len;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

	while (l && (p[l - 1] == ' ' || p[l - 1] == '\r'))
		l--;
	qu_rst_norm_name(out, p, l);
}

/* A directive's option as text, into @out; false when it has none. */
static bool option(struct qu_buf *out, const struct qu_rst_node *d,
		   const char *name)
{
	const struct qu_rst_node *c;

	for (c = d->first; c; c = c->next) {
		const char *n = qu_rst_attr(c, "name");

		if (c->kind == QU_RST_DIRECTIVE_OPTION && n &&
		    !strcmp(n, name)) {
			qu_buf_reset(out);
			qu_rst_plain(out, c);
			return true;
		}
	}
	return false;
}

/*
 * A code block's :name: is a label (docutils' add_name()), its :caption:
 * what :ref: shows, as Sphinx has them.
 */
static void code_name(struct walk *w, const struct qu_rst_node *d)
{
	const char *dn = qu_rst_attr(d, "name");
	struct qu_buf name = QU_BUF_INIT, cap = QU_BUF_INIT;

	if (dn && (!strcmp(dn, "code-block") || !strcmp(dn, "code") ||
		   !strcmp(dn, "sourcecode")) &&
	    option(&w->b, d, "name") && w->b.len) {
		qu_rst_norm_name(&name, w->b.buf, w->b.len);
		qu_rst_name_id(&w->a, w->b.buf, w->b.len);
		if (w->a.len)
			w->sink->label(w->payload, name.buf, w->a.buf,
				       option(&cap, d, "caption") && cap.len
					       ? cap.buf
					       : NULL,
				       NULL);
	}
	qu_buf_fini(&name);
	qu_buf_fini(&cap);
}

static bool is_one_of(const char *s, const char *const *v)
{
	for (; *v; v++)
		if (!strcmp(s, *v))
			return true;
	return false;
}

/*
 * The caption of directive @d, when it is one of what Sphinx numbers
 * (its enumerable nodes: a table, a figure, a code block with a caption)
 * and has one: what :ref: shows of a label naming it. Into @out.
 */
static void caption_of(struct qu_buf *out, const struct qu_rst_node *d)
{
	static const char *const tables[] = {
		"table", "list-table", "flat-table", "csv-table", NULL};
	static const char *const figures[] = {"figure", "kernel-figure", NULL};
	static const char *const codes[] = {
		"code-block", "code",	       "sourcecode",
		"literalinclude", "kernel-render", NULL};
	const char *dn = qu_rst_attr(d, "name");
	const struct qu_rst_node *c;
	struct qu_buf raw = QU_BUF_INIT;

	if (d->kind != QU_RST_DIRECTIVE || !dn)
		return;
	if (is_one_of(dn, tables)) {
		for (c = d->first; c; c = c->next)
			if (c->kind == QU_RST_DIRECTIVE_ARGUMENTS)
				qu_rst_plain(&raw, c);
	} else if (is_one_of(dn, figures)) {
		for (c = d->first; c; c = c->next)
			if (c->kind == QU_RST_DIRECTIVE_CONTENT && c->first &&
			    c->first->kind == QU_RST_PARAGRAPH)
				qu_rst_plain(out, c->first);
	} else if (is_one_of(dn, codes)) {
		option(&raw, d, "caption");
	}
	if (raw.len) {
		/* kept as text by the reader, read as reST by Sphinx */
		struct qu_diags scratch;
		struct qu_rst_doc *sub;

		qu_diags_init(&scratch);
		sub = qu_rst_parse_ex(&scratch, "", raw.buf, raw.len, 0);
		if (sub && sub->root->first &&
		    sub->root->first->kind == QU_RST_PARAGRAPH)
			qu_rst_plain(out, sub->root->first);
		else
			qu_buf_add(out, raw.buf, raw.len);
		qu_rst_free(sub);
		qu_diags_fini(&scratch);
	}
	qu_buf_fini(&raw);
}

static void label(struct walk *w, const struct qu_rst_node *n)
{
	const struct qu_rst_node *sec, *next;
	struct qu_buf title = QU_BUF_INIT;
	size_t k;

	if (qu_rst_attr(n, "refuri") || qu_rst_attr(n, "refname") ||
	    !qu_rst_attr_item(&w->a, n, "ids", 0))
		return;
	sec = qu_rst_labelled(n);
	if (sec && !w->pend.len)
		qu_buf_adds(&w->pend, w->a.buf);
	if (sec && title_of(sec)) {
		qu_rst_plain(&title, title_of(sec));
	} else if (!sec) {
		/* the next element, which the label's id moves to */
		for (next = n->next; next && next->kind == QU_RST_TARGET;
		     next = next->next)
			;
		if (next)
			caption_of(&title, next);
	}
	for (k = 0; qu_rst_attr_item(&w->b, n, "names", k); k++)
		w->sink->label(w->payload, w->b.buf, w->a.buf,
			       title.len ? title.buf : NULL, NULL);
	qu_buf_fini(&title);
}


static void walk(struct walk *w, const struct qu_rst_node *n)
{
	const struct qu_rst_node *c;

	switch (n->kind) {
	case QU_RST_SECTION: {
		const struct qu_rst_node *t = title_of(n);

		w->depth++;
		if (t && qu_rst_attr_item(&w->a, n, "ids", 0)) {
			struct qu_buf raw = QU_BUF_INIT;

			/*
			 * A section whose name a label took has a made-up
			 * "idN"; Sphinx writes the label's id first, and
			 * links there (as lib/render's section() does).
			 */
			if (w->pend.len && qu_rst_is_auto_id(w->a.buf)) {
				qu_buf_reset(&w->a);
				qu_buf_add(&w->a, w->pend.buf, w->pend.len);
			}

			qu_buf_reset(&w->b);
			qu_rst_plain(&w->b, t);
			title_name(&raw, w->doc, t);
			w->sink->heading(w->payload, w->depth, w->b.buf,
					 w->a.buf, raw.buf,
					 qu_lines_find(&w->doc->lines, t->off),
					 w->hidden > 0);
			qu_buf_fini(&raw);
		}
		qu_buf_reset(&w->pend);
		for (c = n->first; c; c = c->next)
			walk(w, c);
		w->depth--;
		return;
	}
	case QU_RST_TARGET:
		label(w, n);
		return;
	case QU_RST_DIRECTIVE:
		if (qu_rst_cond_false(n, &w->b)) {
			w->hidden++;
			for (c = n->first; c; c = c->next)
				walk(w, c);
			w->hidden--;
			return;
		}
		directive(w, n);
		if (qu_rst_attr(n, "name") &&
		    !strcmp(qu_rst_attr(n, "name"), "glossary"))
			glossary(w, n);
		code_name(w, n);
		qu_rst_c_namespace(&w->ns, n);
		/* a C-domain declaration: :c:func: and friends find it */
		for (size_t k = 0; qu_rst_c_decl_id(&w->a, n, k, w->ns.len
								? w->ns.buf
								: NULL);
		     k++)
			if (w->a.len)
				w->sink->label(w->payload, w->a.buf, w->a.buf,
					       NULL, c_role(n));
		break;
	case QU_RST_TEXT:
		return;
	default:
		break;
	}
	for (c = n->first; c; c = c->next)
		walk(w, c);
}

/* qu_rst_free() for a site that keeps a page's parse */
static void free_doc(void *doc)
{
	qu_rst_free(doc);
}

void qu_rst_site_read(void *ctx, struct qu_diags *diags, const char *path,
		      const char *text, size_t len,
		      const struct qu_site_rst_sink *sink, void *payload)
{
	struct qu_diags mine;
	struct qu_rst_doc *doc;
	struct walk w = {NULL,	      sink,	  payload,    QU_BUF_INIT,
			 QU_BUF_INIT, QU_BUF_INIT, QU_BUF_INIT, 0,
			 0};
	size_t i;

	(void)ctx;
	/* diagnostics name the document's copy of @path: name the caller's */
	qu_diags_init(&mine);
	doc = qu_rst_parse_ex(&mine, path, text, len, QU_RST_SPHINX_IDS);
	for (i = 0; i < mine.n; i++)
		mine.v[i].path = path;
	qu_diags_move(diags, &mine);
	qu_diags_fini(&mine);
	w.doc = doc;
	walk(&w, doc->root);
	qu_buf_fini(&w.a);
	qu_buf_fini(&w.b);
	qu_buf_fini(&w.ns);
	qu_buf_fini(&w.pend);
	if (sink->keep)
		sink->keep(payload, doc, free_doc);
	else
		qu_rst_free(doc);
}
