// SPDX-License-Identifier: MIT
/*
 * item.c - one item as a block of the page (render stage)
 *
 * The heading with its anchor, the brief, the highlighted declaration,
 * the parameters or members, the sections, where it is defined and
 * exported, and who references it. On a page that is not the item's
 * home, a short block that links home.
 */
#include <string.h>
#include <time.h>

#include "render_int.h"

/* Referrers listed before "and N more"; kmalloc() has thousands. */
#define MAX_REFS 50

/* The heading of an item's parameter list says what the entries are. */
static const char *params_title(enum qu_kind k)
{
	switch (k) {
	case QU_KIND_STRUCT:
	case QU_KIND_UNION:
		return "Members";
	case QU_KIND_ENUM:
		return "Constants";
	default:
		return "Parameters";
	}
}

/*
 * The item's heading: its name as code, its kind, and a self-link readers
 * copy to cite the symbol.
 */
static void title(const struct qu_render *r, xmlDocPtr doc, xmlNodePtr sec,
		  const struct qu_item *it, const char *anchor)
{
	xmlNodePtr h = r_el(doc, sec, "h3", "qu-item-title");
	struct qu_buf b = QU_BUF_INIT, html = QU_BUF_INIT;

	(void)r;
	/* the name is a node: the page's contents copy it */
	r_text(doc, r_el(doc, h, "code", NULL), it->name);
	qu_buf_addc(&html, ' ');
	r_html_open(&html, "span", "qu-kind");
	r_html_text(&html, qu_kind_name(it->kind));
	r_html_close(&html, "span");
	qu_buf_addc(&b, '#');
	qu_buf_adds(&b, anchor);
	qu_buf_adds(&html, "<a");
	r_html_attr(&html, "href", true, b.buf);
	r_html_attr(&html, "class", false, "qu-anchor");
	r_html_attr(&html, "aria-label", false, "Link to this symbol");
	qu_buf_adds(&html, ">\xc2\xb6</a>");
	qu_md_raw(doc, h, html.buf, html.len);
	qu_buf_fini(&b);
	qu_buf_fini(&html);
}

/*
 * A source URL from its template: {path} and {line} filled in. With no
 * line (a page's own file), a fragment that names {line} is left out
 * ("…/blob/REV/{path}#L{line}" links to the file, not to its line 1).
 */
void render_source_url(struct qu_buf *out, const char *tmpl, const char *path,
		       uint32_t line)
{
	const char *t, *hash = strchr(tmpl, '#');
	const char *end = tmpl + strlen(tmpl);

	if (!line && hash && strstr(hash, "{line}"))
		end = hash;
	for (t = tmpl; t < end; t++) {
		if (!strncmp(t, "{path}", 6)) {
			qu_buf_adds(out, path);
			t += 5;
		} else if (!strncmp(t, "{line}", 6)) {
			qu_buf_addf(out, "%u", line ? line : 1);
			t += 5;
		} else {
			qu_buf_addc(out, *t);
		}
	}
}

/* A commit time as a date (UTC), or as a full W3C time for sitemaps. */
void render_date(struct qu_buf *out, int64_t t, bool full)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char b[32];

	gmtime_r(&tt, &tm);
	strftime(b, sizeof(b), full ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%d", &tm);
	qu_buf_adds(out, b);
}

/* "Last changed 2023-11-14 in abcdef012345", when git knows. */
void render_changed(xmlDocPtr doc, xmlNodePtr p,
		    const struct qu_render_file *f)
{
	struct qu_buf b = QU_BUF_INIT;
	xmlNodePtr tm;

	r_text(doc, p, "Last changed ");
	tm = r_el(doc, p, "time", NULL);
	render_date(&b, f->time, true);
	r_attr(tm, "datetime", b.buf);
	qu_buf_reset(&b);
	render_date(&b, f->time, false);
	r_text(doc, tm, b.buf);
	if (f->commit[0]) {
		r_text(doc, p, " in ");
		r_text(doc, r_el(doc, p, "code", "qu-commit"), f->commit);
	}
	qu_buf_fini(&b);
}

/*
 * Where the item is defined (linked through the source URL template when
 * the site has one), when that file last changed, and which
 * EXPORT_SYMBOL*() exports it.
 */
static void meta(const struct qu_render *r, xmlDocPtr doc, xmlNodePtr sec,
		 const struct qu_placed *pl, const struct qu_item *it)
{
	const char *path = r->g->units[pl->unit].path;
	const char *tmpl = r->source_url ? r->source_url
					 : r->site->cfg.source_url;
	const struct qu_render_file *f =
		r->unit_files ? &r->unit_files[pl->unit] : NULL;
	uint32_t line = it->decl_line ? it->decl_line : it->line;
	struct qu_buf b = QU_BUF_INIT, url = QU_BUF_INIT, html = QU_BUF_INIT;
	xmlNodePtr p = r_el(doc, sec, "p", "qu-meta");

	/* as text, but for the date of the last change (nodes) */
	qu_buf_adds(&html, "Defined in ");
	qu_buf_adds(&b, path);
	qu_buf_addc(&b, ':');
	qu_buf_add_u64(&b, line);
	if (tmpl)
		render_source_url(&url, tmpl, f && f->link ? f->link : path,
				  line);
	if (tmpl && qu_md_url_is_safe(url.buf)) {
		qu_buf_adds(&html, "<a");
		r_html_attr(&html, "href", true, url.buf);
		qu_buf_addc(&html, '>');
		r_html_text(&html, b.buf);
		r_html_close(&html, "a");
	} else {
		r_html_open(&html, "code", NULL);
		r_html_text(&html, b.buf);
		r_html_close(&html, "code");
	}
	if (f && f->time) {
		qu_buf_adds(&html, " \xc2\xb7 ");
		qu_md_raw(doc, p, html.buf, html.len);
		qu_buf_reset(&html);
		render_changed(doc, r_el(doc, p, "span", "qu-changed"), f);
	}
	if (it->exported) {
		qu_buf_adds(&html, " \xc2\xb7 Exported as ");
		r_html_open(&html, "code", NULL);
		r_html_text(&html, it->exported);
		r_html_close(&html, "code");
	}
	qu_md_raw(doc, p, html.buf, html.len);
	qu_buf_fini(&b);
	qu_buf_fini(&url);
	qu_buf_fini(&html);
}

/* "Referenced by": items link to the item, pages to the page. */
static void refs(const struct qu_render *r, xmlDocPtr doc, xmlNodePtr sec,
		 const struct qu_md_ctx *ctx, uint32_t sym)
{
	const struct qu_sym *s = &r->g->syms[sym];
	const char *from = r->site->pages[ctx->from.page].out;
	struct qu_buf href = QU_BUF_INIT, text = QU_BUF_INIT;
	xmlNodePtr p;
	uint32_t i;

	if (!s->nrefs)
		return;
	p = r_el(doc, sec, "p", "qu-refs");
	r_text(doc, p, "Referenced by ");
	for (i = 0; i < s->nrefs && i < MAX_REFS; i++) {
		const struct qu_referrer *ref = &r->g->refs[s->refs[i]];

		if (i)
			r_text(doc, p, ", ");
		qu_buf_reset(&href);
		qu_buf_reset(&text);
		if (ref->sym != QU_NONE) {
			const struct qu_item *it =
				qu_graph_item(r->g, ref->sym);

			render_sym_href(&href, r, from, ref->sym);
			if (it->kind == QU_KIND_STRUCT ||
			    it->kind == QU_KIND_UNION ||
			    it->kind == QU_KIND_ENUM)
				qu_buf_addf(&text, "%s ",
					    qu_kind_name(it->kind));
			qu_buf_adds(&text, it->name);
			if (it->kind == QU_KIND_FUNCTION)
				qu_buf_adds(&text, "()");
			r_text(doc,
			       r_el(doc, r_link(doc, p, href.buf, ""), "code",
				    NULL),
			       text.buf);
		} else {
			qu_site_relpath(&href, from,
					r->site->pages[ref->page].out);
			r_link(doc, p, href.buf,
			       r->site->pages[ref->page].title);
		}
	}
	if (s->nrefs > MAX_REFS) {
		qu_buf_reset(&text);
		qu_buf_addf(&text, " and %u more", s->nrefs - MAX_REFS);
		r_text(doc, p, text.buf);
	}
	qu_buf_fini(&href);
	qu_buf_fini(&text);
}

/*
 * A comment's text in the site's comment markup: reST as the kernel's
 * kernel-doc extension hands it to Sphinx, or Markdown.
 */
static void body(const struct qu_render *r, struct qu_md_ctx *ctx,
		 xmlNodePtr parent, const char *text, uint32_t line)
{
	if (r->site->cfg.comment_markup == QU_MARKUP_RST)
		render_rst_text(r, ctx, parent, text, strlen(text), false);
	else
		qu_md_render(ctx, parent, text, strlen(text), line);
}

/* Whether @name (of @len bytes) names a parameter of @it. */
static bool is_param(const struct qu_item *it, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < it->nparams; i++)
		if (strlen(it->params[i].name) == len &&
		    !strncmp(it->params[i].name, name, len))
			return true;
	return false;
}

/*
 * A declaration's highlighting, as HTML text rather than nodes (a page
 * of a thousand items would hold tens of thousands of spans): the pieces
 * qu_md_highlight_decl() gives, their bytes made valid UTF-8 as text
 * nodes hold them.
 */
struct decl_piece {
	const char *cls;
	size_t href;	/* offset + 1 in decl_html.hrefs; 0: no link */
	size_t text;	/* offset in decl_html.texts */
	size_t len;
	bool param;	/* a link to the function's own parameter (new) */
};

struct decl_html {
	struct decl_piece *v;
	size_t n, alloc;
	struct qu_buf hrefs, texts, fixed;
};

static void decl_piece(void *payload, const char *cls, const char *href,
		       const char *s, size_t len)
{
	struct decl_html *d = payload;
	struct decl_piece *p;

	QU_VEC_GROW(d->v, d->n, d->alloc);
	p = &d->v[d->n++];
	memset(p, 0, sizeof(*p));
	p->cls = cls;
	if (href) {
		p->href = d->hrefs.len + 1;
		qu_buf_add(&d->hrefs, href, strlen(href) + 1);
	}
	s = qu_md_fix_text(&d->fixed, s, &len);
	p->text = d->texts.len;
	p->len = len;
	qu_buf_add(&d->texts, s, len);
	qu_buf_addc(&d->texts, '\0');
}

static const char *piece_text(const struct decl_html *d,
			      const struct decl_piece *p)
{
	return d->texts.buf + p->text;
}

/* Whether the piece is an element: a token's span or a link */
static bool piece_el(const struct decl_piece *p)
{
	return p->cls || p->href || p->param;
}

/*
 * Sphinx's C domain resolves the tag of "struct clk *clk" in the scope
 * of the function, where "clk" is the parameter: the type links to the
 * function itself (#c.clk_enable). A Sphinx project keeps that link, so
 * that pages compare link for link with Sphinx's. Golden:
 * test/site/sphinx, demo_free()'s "struct demo_ctx *demo_ctx" (and
 * demo_add()'s "struct demo_ctx *ctx", which is not one).
 *
 * After a struct, union or enum keyword (a token piece, with one piece
 * after it): the next piece, past one of blanks before a token or link;
 * a link that names a parameter links to the function; plain text that
 * begins (after blanks) with a parameter's name is cut there, the name
 * a link of its own.
 */
static void sphinx_param_tags(struct decl_html *d, const struct qu_item *it)
{
	size_t i, j;

	for (i = 0; i + 1 < d->n; i++) {
		const struct decl_piece *n = &d->v[i];
		const char *kw = piece_text(d, n), *c;
		struct decl_piece *t;
		size_t sp, l;

		if (!piece_el(n))
			continue;
		if (strcmp(kw, "struct") && strcmp(kw, "union") &&
		    strcmp(kw, "enum"))
			continue;
		j = i + 1;
		t = &d->v[j];
		c = piece_text(d, t);
		if (!piece_el(t) && j + 1 < d->n && !c[strspn(c, " ")] &&
		    piece_el(&d->v[j + 1]))
			t = &d->v[++j];
		c = piece_text(d, t);
		if (t->href || t->param) {
			if (is_param(it, c, t->len))
				t->param = true;
			continue;
		}
		if (t->cls)
			continue;
		sp = strspn(c, " ");
		l = strspn(c + sp, "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (!l || !is_param(it, c + sp, l))
			continue;
		/* the blanks, the name as a link, the rest */
		{
			struct decl_piece lead = *t, name = *t, rest = *t;

			lead.len = sp;
			name.text += sp;
			name.len = l;
			name.param = true;
			rest.text += sp + l;
			rest.len -= sp + l;
			/* room for two more */
			QU_VEC_GROW(d->v, d->n + 1, d->alloc);
			memmove(&d->v[j + 3], &d->v[j + 1],
				(d->n - j - 1) * sizeof(*d->v));
			d->v[j] = lead;
			d->v[j + 1] = name;
			d->v[j + 2] = rest;
			d->n += 2;
			/* go on after the name, as the walk of nodes did */
			i = j + 1;
		}
	}
}

/* The declaration's markup, byte for byte as its nodes would serialize. */
static void decl_markup(struct qu_buf *out, const struct decl_html *d,
			const char *self)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct decl_piece *p = &d->v[i];
		const char *txt = piece_text(d, p);

		if (p->param && !p->href) {
			/* a link the Sphinx rule made: class, then href */
			qu_buf_adds(out, "<a");
			render_html_attr(out, "class", false, "qu-xref");
			render_html_attr(out, "href", true, self);
			qu_buf_addc(out, '>');
			render_html_text(out, txt, p->len);
			qu_buf_adds(out, "</a>");
			continue;
		}
		if (p->href) {
			qu_buf_adds(out, "<a");
			render_html_attr(out, "href", true,
					 p->param ? self
						  : d->hrefs.buf + p->href - 1);
			render_html_attr(out, "class", false, "qu-xref");
			qu_buf_addc(out, '>');
		}
		if (p->cls) {
			qu_buf_adds(out, "<span");
			render_html_attr(out, "class", false, p->cls);
			qu_buf_addc(out, '>');
		}
		render_html_text(out, txt, p->len);
		if (p->cls)
			qu_buf_adds(out, "</span>");
		if (p->href)
			qu_buf_adds(out, "</a>");
	}
}

void render_decl_markup(struct qu_buf *out, struct qu_md_ctx *ctx,
			const char *code, const struct qu_item *it,
			const char *anchor)
{
	struct decl_html d = {0};
	struct qu_buf self = QU_BUF_INIT;

	qu_md_highlight_decl(ctx, code, strlen(code), decl_piece, &d);
	if (it)
		sphinx_param_tags(&d, it);
	qu_buf_addc(&self, '#');
	if (anchor)
		qu_buf_adds(&self, anchor);
	decl_markup(out, &d, self.buf);
	free(d.v);
	qu_buf_fini(&d.hrefs);
	qu_buf_fini(&d.texts);
	qu_buf_fini(&d.fixed);
	qu_buf_fini(&self);
}

static void decl(const struct qu_render *r, struct qu_md_ctx *ctx,
		 xmlNodePtr code, const struct qu_item *it, const char *anchor)
{
	struct qu_buf html = QU_BUF_INIT;
	bool sphinx = r->site->cfg.sphinx && it->kind == QU_KIND_FUNCTION;

	render_decl_markup(&html, ctx, it->decl, sphinx ? it : NULL, anchor);
	qu_md_raw(ctx->doc, code, html.buf, html.len);
	qu_buf_fini(&html);
}

/* A DOC: block: its title as a section heading and its text. */
static void doc_block(const struct qu_render *r, struct qu_md_ctx *ctx,
		      xmlNodePtr parent, const struct qu_placed *pl,
		      const struct qu_item *it)
{
	xmlDocPtr doc = ctx->doc;
	xmlNodePtr sec = r_el(doc, parent, "section", "qu-doc");
	size_t i;

	(void)r;
	r_attr(sec, "id", pl->anchor);
	r_text(doc, r_el(doc, sec, "h2", NULL), it->name);
	for (i = 0; i < it->nsections; i++) {
		const struct qu_section *s = &it->sections[i];

		/* a DOC: block's own text is its first, untitled section */
		if (i && strcmp(s->title, "Description"))
			r_text(doc, r_el(doc, sec, "h3", NULL), s->title);
		body(r, ctx, sec, s->body, s->line);
	}
}

void render_item(const struct qu_render *r, struct qu_md_ctx *ctx,
		 xmlNodePtr parent, const struct qu_placed *pl)
{
	const struct qu_unit *u = &r->g->units[pl->unit];
	const struct qu_item *it = &u->items[pl->item];
	xmlDocPtr doc = ctx->doc;
	struct qu_buf b = QU_BUF_INIT, html = QU_BUF_INIT;
	xmlNodePtr sec, p;
	size_t i;

	ctx->path = r->diag_paths[pl->unit];
	ctx->from.file = u->path;
	ctx->from.sym = pl->sym;
	ctx->comment = true;
	ctx->heading_min = 5;
	if (it->kind == QU_KIND_DOC) {
		doc_block(r, ctx, parent, pl, it);
		goto out;
	}
	sec = r_el(doc, parent, "section", NULL);
	qu_buf_adds(&b, "qu-item qu-kind-");
	qu_buf_adds(&b, qu_kind_name(it->kind));
	r_attr(sec, "class", b.buf);
	r_attr(sec, "id", pl->anchor);
	title(r, doc, sec, it, pl->anchor);
	if (it->brief && *it->brief) {
		p = r_el(doc, sec, "p", "qu-brief");
		if (r->site->cfg.comment_markup == QU_MARKUP_RST)
			render_rst_text(r, ctx, p, it->brief,
					strlen(it->brief), true);
		else
			qu_md_render_inline(ctx, p, it->brief,
					    strlen(it->brief), it->line);
	}
	if (!pl->home) {
		const struct qu_sym *s = &r->g->syms[pl->sym];

		p = r_el(doc, sec, "p", "qu-elsewhere");
		r_text(doc, p, "Documented on ");
		qu_buf_reset(&b);
		qu_graph_href(&b, r->g, ctx->from.page, pl->sym);
		r_link(doc, p, b.buf, r->site->pages[s->page].title);
		goto out;
	}
	if (it->decl && *it->decl) {
		xmlNodePtr pre = r_el(doc, sec, "pre", "qu-decl");
		xmlNodePtr code = r_el(doc, pre, "code", "language-c");

		decl(r, ctx, code, it, pl->anchor);
	}
	if (it->nparams) {
		struct qu_map seen;
		xmlNodePtr dl;

		qu_buf_reset(&html);
		r_html_open(&html, "h4", NULL);
		r_html_text(&html, params_title(it->kind));
		r_html_close(&html, "h4");
		qu_md_raw(doc, sec, html.buf, html.len);
		dl = r_el(doc, sec, "dl", "qu-params");
		qu_map_init(&seen);
		for (i = 0; i < it->nparams; i++) {
			const struct qu_param *pa = &it->params[i];
			xmlNodePtr dt = r_el(doc, dl, "dt", NULL), dd;
			uintptr_t n;

			/*
			 * A name described twice (members under #ifdef) gets
			 * "-2", "-3", as the graph claimed them.
			 */
			n = (uintptr_t)qu_map_get(&seen, pa->name,
						  strlen(pa->name));
			qu_map_put(&seen, pa->name, (void *)(n + 1));
			qu_buf_reset(&b);
			qu_buf_adds(&b, pl->anchor);
			qu_buf_addc(&b, '.');
			qu_buf_adds(&b, pa->name);
			if (n) {
				qu_buf_addc(&b, '-');
				qu_buf_add_u64(&b, n + 1);
			}
			r_attr(dt, "id", b.buf);
			/* <code>name</code> <span class="qu-type">type</span> */
			qu_buf_reset(&html);
			r_html_open(&html, "code", NULL);
			r_html_text(&html, pa->name);
			r_html_close(&html, "code");
			if (pa->type && *pa->type) {
				qu_buf_addc(&html, ' ');
				r_html_open(&html, "span", "qu-type");
				r_html_text(&html, pa->type);
				r_html_close(&html, "span");
			}
			qu_md_raw(doc, dt, html.buf, html.len);
			dd = r_el(doc, dl, "dd", NULL);
			if (pa->desc && *pa->desc)
				body(r, ctx, dd, pa->desc, pa->line);
		}
		qu_map_fini(&seen);
	}
	for (i = 0; i < it->nsections; i++) {
		const struct qu_section *s = &it->sections[i];
		xmlNodePtr ss = r_el(doc, sec, "section", "qu-section");

		qu_buf_reset(&html);
		r_html_open(&html, "h4", NULL);
		r_html_text(&html, s->title);
		r_html_close(&html, "h4");
		qu_md_raw(doc, ss, html.buf, html.len);
		body(r, ctx, ss, s->body, s->line);
	}
	meta(r, doc, sec, pl, it);
	refs(r, doc, sec, ctx, pl->sym);
out:
	qu_buf_fini(&b);
	qu_buf_fini(&html);
}
