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
	xmlNodePtr h = r_el(doc, sec, "h3", "qu-item-title"), a;
	struct qu_buf b = QU_BUF_INIT;

	(void)r;
	r_text(doc, r_el(doc, h, "code", NULL), it->name);
	r_text(doc, h, " ");
	r_text(doc, r_el(doc, h, "span", "qu-kind"), qu_kind_name(it->kind));
	qu_buf_addc(&b, '#');
	qu_buf_adds(&b, anchor);
	a = r_link(doc, h, b.buf, "\xc2\xb6");
	r_attr(a, "class", "qu-anchor");
	r_attr(a, "aria-label", "Link to this symbol");
	qu_buf_fini(&b);
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
	struct qu_buf b = QU_BUF_INIT, url = QU_BUF_INIT;
	xmlNodePtr p = r_el(doc, sec, "p", "qu-meta");

	r_text(doc, p, "Defined in ");
	qu_buf_adds(&b, path);
	qu_buf_addc(&b, ':');
	qu_buf_add_u64(&b, line);
	if (tmpl)
		render_source_url(&url, tmpl, f && f->link ? f->link : path,
				  line);
	if (tmpl && qu_md_url_is_safe(url.buf))
		r_link(doc, p, url.buf, b.buf);
	else
		r_text(doc, r_el(doc, p, "code", NULL), b.buf);
	if (f && f->time) {
		r_text(doc, p, " \xc2\xb7 ");
		render_changed(doc, r_el(doc, p, "span", "qu-changed"), f);
	}
	if (it->exported) {
		r_text(doc, p, " \xc2\xb7 Exported as ");
		r_text(doc, r_el(doc, p, "code", NULL), it->exported);
	}
	qu_buf_fini(&b);
	qu_buf_fini(&url);
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
 * Sphinx's C domain resolves the tag of "struct clk *clk" in the scope
 * of the function, where "clk" is the parameter: the type links to the
 * function itself (#c.clk_enable). A Sphinx project keeps that link, so
 * that pages compare link for link with Sphinx's. Golden:
 * test/site/sphinx, demo_free()'s "struct demo_ctx *demo_ctx" (and
 * demo_add()'s "struct demo_ctx *ctx", which is not one).
 */
/*
 * xmlNodeGetContent() of @n, without the copy when it is one text node
 * (a highlighted token's span): free *@copy afterwards.
 */
static const char *content_of(xmlNodePtr n, xmlChar **copy)
{
	xmlNodePtr c = n->children;

	*copy = NULL;
	if (c && !c->next && c->type == XML_TEXT_NODE && c->content)
		return (const char *)c->content;
	*copy = xmlNodeGetContent(n);
	return (const char *)*copy;
}

static void sphinx_param_tags(xmlDocPtr doc, xmlNodePtr code,
			      const struct qu_item *it, const char *anchor)
{
	struct qu_buf href = QU_BUF_INIT;
	xmlNodePtr n, next;

	qu_buf_addc(&href, '#');
	qu_buf_adds(&href, anchor);
	for (n = code->children; n; n = next) {
		xmlNodePtr t = n->next;
		const char *kw;
		xmlChar *copy;
		bool tag;

		next = n->next;
		if (n->type != XML_ELEMENT_NODE || !t)
			continue;
		kw = content_of(n, &copy);
		tag = kw && (!strcmp(kw, "struct") || !strcmp(kw, "union") ||
			     !strcmp(kw, "enum"));
		xmlFree(copy);
		if (!tag)
			continue;
		/* "struct" then " " then the linked tag */
		if (t->type == XML_TEXT_NODE && t->content && t->next &&
		    !t->content[strspn((char *)t->content, " ")] &&
		    t->next->type == XML_ELEMENT_NODE)
			t = t->next;
		if (t->type == XML_ELEMENT_NODE && !strcmp((char *)t->name, "a")) {
			const char *name = content_of(t, &copy);

			if (name && is_param(it, name, strlen(name)))
				r_attr(t, "href", href.buf);
			xmlFree(copy);
		} else if (t->type == XML_TEXT_NODE && t->content) {
			const char *c = (const char *)t->content, *e;
			size_t sp = strspn(c, " "), l;

			e = c + sp;
			l = strspn(e, "abcdefghijklmnopqrstuvwxyz"
				      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
			if (l && is_param(it, e, l)) {
				char *name = qu_xstrndup(e, l);
				char *rest = qu_xstrdup(e + l);
				char *lead = qu_xstrndup(c, sp);
				xmlNodePtr a = r_el(doc, NULL, "a", "qu-xref");

				r_attr(a, "href", href.buf);
				r_text(doc, a, name);
				xmlNodeSetContent(t, BAD_CAST "");
				if (!xmlAddNextSibling(t, a))
					qu_die_oom();
				if (*rest) {
					xmlNodePtr rt = xmlNewDocText(
						doc, BAD_CAST rest);

					if (!rt || !xmlAddNextSibling(a, rt))
						qu_die_oom();
				}
				xmlNodeAddContent(t, BAD_CAST lead);
				next = a->next;
				free(name);
				free(rest);
				free(lead);
			}
		}
	}
	qu_buf_fini(&href);
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
	struct qu_buf b = QU_BUF_INIT;
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

		qu_md_highlight_decl(ctx, code, it->decl, strlen(it->decl));
		if (r->site->cfg.sphinx && it->kind == QU_KIND_FUNCTION)
			sphinx_param_tags(doc, code, it, pl->anchor);
	}
	if (it->nparams) {
		struct qu_map seen;
		xmlNodePtr dl;

		r_text(doc, r_el(doc, sec, "h4", NULL), params_title(it->kind));
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
			r_text(doc, r_el(doc, dt, "code", NULL), pa->name);
			if (pa->type && *pa->type) {
				r_text(doc, dt, " ");
				r_text(doc, r_el(doc, dt, "span", "qu-type"),
				       pa->type);
			}
			dd = r_el(doc, dl, "dd", NULL);
			if (pa->desc && *pa->desc)
				body(r, ctx, dd, pa->desc, pa->line);
		}
		qu_map_fini(&seen);
	}
	for (i = 0; i < it->nsections; i++) {
		const struct qu_section *s = &it->sections[i];
		xmlNodePtr ss = r_el(doc, sec, "section", "qu-section");

		r_text(doc, r_el(doc, ss, "h4", NULL), s->title);
		body(r, ctx, ss, s->body, s->line);
	}
	meta(r, doc, sec, pl, it);
	refs(r, doc, sec, ctx, pl->sym);
out:
	qu_buf_fini(&b);
}
