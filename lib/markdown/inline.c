// SPDX-License-Identifier: MIT
/*
 * inline.c - inline nodes: text with its references, code, links
 * (markdown stage)
 *
 * Runs of text nodes are joined first (cmark-gfm splits text at
 * brackets), then read for explicit links ("[text][foo()]", "[`foo()`]")
 * and, outside headings and links, for the forms qu_graph_scan() finds.
 * Link targets are checked: unsafe schemes dropped, page paths turned
 * into the page's output file, anchors verified.
 */
#include <ctype.h>
#include <string.h>

#include "md_int.h"

/*
 * -Wambiguous-ref names the pick and the candidates, so the writer can
 * make the reference explicit.
 */
static void warn_ambiguous(struct qu_md_ctx *ctx, uint32_t line,
			   const char *name, size_t len, uint32_t sym,
			   const struct qu_buf *cands)
{
	const struct qu_sym *s = &ctx->g->syms[sym];

	qu_diag(ctx->diags, QU_W_AMBIGUOUS_REF, ctx->path, line, ctx->col,
		"'%.*s' is ambiguous, linking to %s; candidates: %s", (int)len,
		name, ctx->g->units[s->unit].path, cands->buf);
}

/* A link to a symbol's home; the class lets themes mark cross-references. */
static xmlNodePtr xref(struct qu_md_ctx *ctx, xmlNodePtr parent, uint32_t sym)
{
	struct qu_buf href = QU_BUF_INIT;
	xmlNodePtr a = qu_md_el(ctx->doc, parent, "a");

	qu_graph_href(&href, ctx->g, ctx->from.page, sym);
	qu_md_attr(a, "href", href.buf);
	qu_md_attr(a, "class", "qu-xref");
	qu_buf_fini(&href);
	return a;
}

/* A link to another site's symbol (quire.yml's intersphinx:). */
static xmlNodePtr xref_extern(struct qu_md_ctx *ctx, xmlNodePtr parent,
			      const char *url)
{
	xmlNodePtr a = qu_md_el(ctx->doc, parent, "a");

	qu_md_attr(a, "href", url);
	qu_md_attr(a, "class", "qu-xref qu-extern");
	return a;
}

/* A <code> element holding text. */
static void code(struct qu_md_ctx *ctx, xmlNodePtr parent, const char *cls,
		 const char *s, size_t len)
{
	xmlNodePtr c = qu_md_el(ctx->doc, parent, "code");

	if (cls)
		qu_md_attr(c, "class", cls);
	md_text(ctx->doc, c, s, len);
}

/* One reference found by the scanner. */
static void emit_ref(struct qu_md_ctx *ctx, xmlNodePtr parent, const char *t,
		     const struct qu_ref *r, uint32_t line)
{
	struct qu_buf amb = QU_BUF_INIT, shown = QU_BUF_INIT;
	const char *src = t + r->start;
	size_t srclen = r->end - r->start;
	const char *url;
	uint32_t sym;

	switch (r->kind) {
	case QU_REF_ENV:
		code(ctx, parent, "qu-env", src, srclen);
		goto out;
	case QU_REF_PARAM:
		if (ctx->from.sym != QU_NONE) {
			qu_buf_addf(&shown, "%s.%.*s",
				    ctx->g->syms[ctx->from.sym].anchor,
				    (int)r->nlen, r->name);
			if (qu_graph_has_anchor(ctx->g, ctx->from.page,
						shown.buf)) {
				xmlNodePtr a = qu_md_el(ctx->doc, parent, "a");

				qu_buf_reset(&amb);
				qu_buf_addf(&amb, "#%s", shown.buf);
				qu_md_attr(a, "href", amb.buf);
				code(ctx, a, "qu-param", r->name, r->nlen);
				goto out;
			}
		}
		code(ctx, parent, "qu-param", r->name, r->nlen);
		goto out;
	default:
		break;
	}
	sym = qu_graph_resolve(ctx->g, r, &ctx->from, &amb);
	/* what is shown: the text without the leading "&" */
	if (r->amp)
		qu_buf_add(&shown, src + 1, srclen - 1);
	else
		qu_buf_add(&shown, src, srclen);
	if (sym == QU_NONE && (url = qu_graph_extern(ctx->g, r)) &&
	    qu_md_url_is_safe(url)) {
		code(ctx, xref_extern(ctx, parent, url),
		     r->kind == QU_REF_CONST ? "qu-const" : NULL,
		     r->kind == QU_REF_CONST ? r->name : shown.buf,
		     r->kind == QU_REF_CONST ? r->nlen : shown.len);
		goto out;
	}
	if (sym == QU_NONE ||
	    (sym == ctx->from.sym && r->kind != QU_REF_CONST)) {
		if (ctx->comment && r->kind != QU_REF_MEMBER &&
		    (r->kind == QU_REF_CONST || r->kind == QU_REF_FUNC ||
		     r->amp))
			code(ctx, parent,
			     r->kind == QU_REF_CONST ? "qu-const" : NULL,
			     r->kind == QU_REF_CONST ? r->name : shown.buf,
			     r->kind == QU_REF_CONST ? r->nlen : shown.len);
		else
			md_text(ctx->doc, parent, src, srclen);
		goto out;
	}
	if (amb.len)
		warn_ambiguous(ctx, line, shown.buf, shown.len, sym, &amb);
	code(ctx, xref(ctx, parent, sym),
	     r->kind == QU_REF_CONST ? "qu-const" : NULL,
	     r->kind == QU_REF_CONST ? r->name : shown.buf,
	     r->kind == QU_REF_CONST ? r->nlen : shown.len);
out:
	qu_buf_fini(&amb);
	qu_buf_fini(&shown);
}

/* Text with the scanner's references turned into nodes, the rest as text. */
static void scan_refs(struct qu_md_ctx *ctx, xmlNodePtr parent, const char *t,
		      size_t len, uint32_t line)
{
	struct qu_ref r;
	size_t pos = 0;

	while (qu_graph_scan(&r, t, len, pos, ctx->comment)) {
		md_text(ctx->doc, parent, t + pos, r.start - pos);
		emit_ref(ctx, parent, t, &r, line);
		pos = r.end;
	}
	md_text(ctx->doc, parent, t + pos, len - pos);
}

/* Bytes of a C identifier. */
static bool word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/*
 * "[text][site:target]": a page ("process/index") or a label of another
 * site named in intersphinx:, as reST's :doc: and :ref: find them. The
 * label is normalised as :ref: normalises it (lower case, blanks
 * joined); the site's name stays as written. NULL when none has it.
 */
static const char *extern_std(const struct qu_md_ctx *ctx, const char *t,
			      size_t len)
{
	const char *colon = memchr(t, ':', len), *url, *shown;
	struct qu_buf key = QU_BUF_INIT;
	bool blank = false;

	if (!colon || colon == t || (size_t)(colon - t) + 1 >= len)
		return NULL;
	qu_buf_add(&key, t, len);
	url = qu_graph_extern_std(ctx->g, true, key.buf, &shown);
	if (!url) {
		qu_buf_reset(&key);
		qu_buf_add(&key, t, (size_t)(colon - t) + 1);
		for (const char *p = colon + 1; p < t + len; p++) {
			if (*p == ' ' || *p == '\t' || *p == '\n') {
				blank = key.buf[key.len - 1] != ':';
				continue;
			}
			if (blank)
				qu_buf_addc(&key, ' ');
			blank = false;
			qu_buf_addc(&key, (char)tolower((unsigned char)*p));
		}
		url = qu_graph_extern_std(ctx->g, false, key.buf, &shown);
	}
	qu_buf_fini(&key);
	return url;
}

/* Text: explicit "[text][target]" links, then the scanner's forms. */
/*
 * Text of a run of text nodes: explicit "[text][target]" links first,
 * since their brackets would otherwise read as plain text, then the
 * scanner's forms in what is left.
 */
static void text_run(struct qu_md_ctx *ctx, xmlNodePtr parent, const char *t,
		     size_t len, bool plain, uint32_t line)
{
	size_t pos = 0, i;

	if (plain) {
		md_text(ctx->doc, parent, t, len);
		return;
	}
	for (i = 0; i < len; i++) {
		const char *c1, *o2, *c2, *url;
		struct qu_buf amb = QU_BUF_INIT;
		uint32_t sym;

		if (t[i] != '[' || (i && (word(t[i - 1]) || t[i - 1] == '\\')))
			continue;
		c1 = memchr(t + i + 1, ']', len - i - 1);
		if (!c1 || (size_t)(c1 - t) + 1 >= len || c1[1] != '[')
			continue;
		o2 = c1 + 1;
		c2 = memchr(o2 + 1, ']', (size_t)(t + len - o2 - 1));
		if (!c2 || c2 == o2 + 1)
			continue;
		sym = qu_graph_lookup(ctx->g, o2 + 1, (size_t)(c2 - o2 - 1),
				      &ctx->from, &amb);
		url = sym == QU_NONE ? qu_graph_lookup_extern(
					       ctx->g, o2 + 1,
					       (size_t)(c2 - o2 - 1))
				     : NULL;
		if (sym == QU_NONE && !url)
			url = extern_std(ctx, o2 + 1, (size_t)(c2 - o2 - 1));
		if (url && qu_md_url_is_safe(url)) {
			qu_buf_fini(&amb);
			scan_refs(ctx, parent, t + pos, i - pos, line);
			md_text(ctx->doc, xref_extern(ctx, parent, url),
				t + i + 1, (size_t)(c1 - t - i - 1));
			pos = (size_t)(c2 - t) + 1;
			i = pos - 1;
			continue;
		}
		if (sym == QU_NONE) {
			if (!ctx->comment)
				qu_diag(ctx->diags, QU_W_BROKEN_LINK, ctx->path,
					line, ctx->col,
					"no symbol '%.*s' for the link, "
					"leaving it as text",
					(int)(c2 - o2 - 1), o2 + 1);
			qu_buf_fini(&amb);
			i = (size_t)(c2 - t);
			continue;
		}
		if (amb.len)
			warn_ambiguous(ctx, line, o2 + 1, (size_t)(c2 - o2 - 1),
				       sym, &amb);
		qu_buf_fini(&amb);
		scan_refs(ctx, parent, t + pos, i - pos, line);
		md_text(ctx->doc, xref(ctx, parent, sym), t + i + 1,
			(size_t)(c1 - t - i - 1));
		pos = (size_t)(c2 - t) + 1;
		i = pos - 1;
	}
	scan_refs(ctx, parent, t + pos, len - pos, line);
}

/*
 * A URL scheme ("https:", "mailto:") or a network path ("//host"): such
 * links leave the site and are written as they are.
 */
static bool has_scheme(const char *u)
{
	size_t i = 0;

	if (u[0] == '/' && u[1] == '/')
		return true;
	if (!((u[0] | 32) >= 'a' && (u[0] | 32) <= 'z'))
		return false;
	while (u[i] && (((u[i] | 32) >= 'a' && (u[i] | 32) <= 'z') ||
			(u[i] >= '0' && u[i] <= '9') || u[i] == '+' ||
			u[i] == '-' || u[i] == '.'))
		i++;
	return u[i] == ':';
}

/*
 * The href for a link's target: NULL when it is dropped. Page paths
 * ("guide.md#intro") become output files; anchors are checked.
 */
static bool link_href(struct qu_md_ctx *ctx, struct qu_buf *out,
		      const char *url, uint32_t line)
{
	const struct qu_site *site = ctx->g->site;
	const struct qu_page *pg = &site->pages[ctx->from.page];
	const char *hash, *sl;
	struct qu_buf norm = QU_BUF_INIT, dir = QU_BUF_INIT;
	size_t plen;
	uint32_t target;
	bool ok = true;

	if (!qu_md_url_is_safe(url)) {
		qu_diag(ctx->diags, QU_W_UNSAFE_URL, ctx->path, line, ctx->col,
			"dropping the link target '%.20s'", url);
		return false;
	}
	if (!*url || has_scheme(url)) {
		qu_buf_adds(out, url);
		return true;
	}
	hash = strchr(url, '#');
	plen = hash ? (size_t)(hash - url) : strlen(url);
	if (!plen) {
		if (!qu_graph_has_anchor(ctx->g, ctx->from.page, hash + 1)) {
			if (!ctx->comment)
				qu_diag(ctx->diags, QU_W_BROKEN_LINK, ctx->path,
					line, ctx->col,
					"no heading '%s' on this page",
					hash + 1);
			return false;
		}
		qu_buf_adds(out, url);
		return true;
	}
	if (plen < 3 || strncmp(url + plen - 3, ".md", 3)) {
		/* a comment's relative link points nowhere in the site */
		if (ctx->comment)
			return false;
		qu_buf_adds(out, url);
		return true;
	}
	sl = pg->src ? strrchr(pg->src, '/') : NULL;
	if (sl)
		qu_buf_add(&dir, pg->src, (size_t)(sl - pg->src) + 1);
	{
		/* site_normalise() is private to lib/site: do it here */
		const char *p = url;
		size_t i = 0;
		struct qu_buf tmp = QU_BUF_INIT;

		qu_buf_add(&tmp, dir.buf, dir.len);
		qu_buf_add(&tmp, p, plen);
		while (i < tmp.len) {
			size_t j = i;

			while (j < tmp.len && tmp.buf[j] != '/')
				j++;
			if (j - i == 2 && !strncmp(tmp.buf + i, "..", 2)) {
				char *s2;

				if (norm.len)
					norm.len--;
				s2 = memrchr(norm.buf, '/', norm.len);
				norm.len = s2 ? (size_t)(s2 - norm.buf) + 1 : 0;
				norm.buf[norm.len] = 0;
			} else if (!(j - i == 1 && tmp.buf[i] == '.') &&
				   j > i) {
				qu_buf_add(&norm, tmp.buf + i, j - i);
				if (j < tmp.len)
					qu_buf_addc(&norm, '/');
			}
			i = j + 1;
		}
		qu_buf_fini(&tmp);
	}
	target = qu_site_find_page(site, norm.buf);
	if (target == QU_NONE) {
		qu_diag(ctx->diags, QU_W_BROKEN_LINK, ctx->path, line, ctx->col,
			"no page '%.*s'", (int)plen, url);
		ok = false;
		goto out;
	}
	if (target != ctx->from.page)
		qu_site_relpath(out, pg->out, site->pages[target].out);
	if (hash && hash[1]) {
		if (!qu_graph_has_anchor(ctx->g, target, hash + 1)) {
			qu_diag(ctx->diags, QU_W_BROKEN_LINK, ctx->path, line,
				ctx->col, "no heading '%s' on page '%.*s'",
				hash + 1, (int)plen, url);
			ok = false;
			goto out;
		}
		qu_buf_adds(out, hash);
	} else if (target == ctx->from.page) {
		qu_buf_adds(out, "#");
	}
out:
	qu_buf_fini(&norm);
	qu_buf_fini(&dir);
	return ok;
}

/* cmark-gfm's tagfilter, for raw HTML that is let through. */
static void raw_html(struct qu_md_ctx *ctx, xmlNodePtr parent, const char *s,
		     size_t len)
{
	static const char *const tags[] = {
		"title",   "textarea", "style",	 "xmp",	      "iframe",
		"noembed", "noframes", "script", "plaintext",
	};
	struct qu_buf b = QU_BUF_INIT;
	size_t i, k;

	for (i = 0; i < len; i++) {
		if (s[i] == '<') {
			size_t j = i + 1 + (i + 1 < len && s[i + 1] == '/');

			for (k = 0; k < QU_ARRAY_SIZE(tags); k++) {
				size_t tl = strlen(tags[k]);

				if (j + tl <= len &&
				    !strncasecmp(s + j, tags[k], tl) &&
				    (j + tl == len || s[j + tl] == '>' ||
				     s[j + tl] == ' ' || s[j + tl] == '/' ||
				     s[j + tl] == '\t' || s[j + tl] == '\n'))
					break;
			}
			if (k < QU_ARRAY_SIZE(tags)) {
				qu_buf_adds(&b, "&lt;");
				continue;
			}
		}
		qu_buf_addc(&b, s[i]);
	}
	qu_md_raw(ctx->doc, parent, b.buf, b.len);
	qu_buf_fini(&b);
}

/* Raw HTML: escaped as text, unless the site allows HTML. */
void md_html(struct qu_md_ctx *ctx, xmlNodePtr parent, const char *s,
	     size_t len)
{
	if (ctx->md->allow_html)
		raw_html(ctx, parent, s, len);
	else
		md_text(ctx->doc, parent, s, len);
}

/* A node's literal, "" for none. */
static const char *lit(cmark_node *n)
{
	const char *s = cmark_node_get_literal(n);

	return s ? s : "";
}

/*
 * The length of a reST role (":c:type:", ":ref:") ending @t's @len
 * bytes, or 0: a kernel comment's ":c:type:`foo`" reads in Markdown as
 * the text ":c:type:" and the code "foo".
 */
static size_t role_len(const char *t, size_t len)
{
	size_t i = len - 1, parts = 0;

	if (len < 3 || t[len - 1] != ':')
		return 0;
	for (;;) {
		size_t e = i;

		while (i > 0 && t[i - 1] >= 'a' && t[i - 1] <= 'z')
			i--;
		if (i == e || i == 0 || t[i - 1] != ':')
			return 0;
		i--;
		/* ":name:" or ":domain:name:" */
		if (++parts == 2 || i == 0 || t[i - 1] < 'a' || t[i - 1] > 'z')
			break;
	}
	if (i > 0 && (word(t[i - 1]) || t[i - 1] == ':' || t[i - 1] == '`'))
		return 0;
	return len - i;
}

/*
 * The code after a reST role: "title <target>" shows the title; a C
 * role (":c:func:", ":c:type:", ...) links its target when the graph
 * knows it, as Sphinx's C domain does; other roles show their text.
 */
static void role(struct qu_md_ctx *ctx, xmlNodePtr parent, const char *r,
		 size_t rlen, const char *s, uint32_t line)
{
	size_t len = strlen(s), tl = len;
	const char *target = s, *lt = memchr(s, '<', len);
	struct qu_buf amb = QU_BUF_INIT, shown = QU_BUF_INIT;
	uint32_t sym = QU_NONE;

	if (lt && len > 2 && s[len - 1] == '>' && lt > s && lt[-1] == ' ') {
		target = lt + 1;
		tl = (size_t)(s + len - 1 - target);
		len = (size_t)(lt - 1 - s);
	}
	if (target[0] == '~' || target[0] == '!') {
		target++;
		tl--;
	}
	if (rlen > 3 && !strncmp(r, ":c:", 3) && tl)
		sym = qu_graph_lookup(ctx->g, target, tl, &ctx->from, &amb);
	/* Sphinx writes a function's parentheses (add_function_parentheses) */
	if (target == s && rlen == 8 && !strncmp(r, ":c:func:", 8) && len &&
	    s[len - 1] != ')') {
		qu_buf_add(&shown, s, len);
		qu_buf_adds(&shown, "()");
		s = shown.buf;
		len = shown.len;
	}
	if (sym != QU_NONE) {
		if (amb.len)
			warn_ambiguous(ctx, line, target, tl, sym, &amb);
		code(ctx, xref(ctx, parent, sym), NULL, s, len);
	} else if (rlen > 3 && !strncmp(r, ":c:", 3)) {
		code(ctx, parent, NULL, s, len);
	} else {
		md_text(ctx->doc, parent, s, len);
	}
	qu_buf_fini(&shown);
	qu_buf_fini(&amb);
}

/*
 * The inline nodes from @first on, under @parent. @plain (headings, link
 * text) keeps text as it is: no links inside links, none in headings.
 */
void md_inlines(struct qu_md_ctx *ctx, xmlNodePtr parent, cmark_node *first,
		uint32_t line0, bool plain)
{
	struct qu_buf run = QU_BUF_INIT;
	cmark_node *c, *next;

	if (ctx->depth >= MD_MAX_DEPTH) {
		for (c = first; c; c = cmark_node_next(c)) {
			qu_buf_reset(&run);
			if (cmark_node_get_literal(c))
				qu_buf_adds(&run, cmark_node_get_literal(c));
			md_plain_text(&run, c);
			md_text(ctx->doc, parent, run.buf, run.len);
		}
		qu_buf_fini(&run);
		return;
	}
	ctx->depth++;

	for (c = first; c; c = next) {
		const char *ts = cmark_node_get_type_string(c);
		int sl = cmark_node_get_start_line(c);
		int sc = cmark_node_get_start_column(c);
		uint32_t line = line0 + (uint32_t)(sl > 0 ? sl - 1 : 0);
		xmlNodePtr el;

		next = cmark_node_next(c);
		/* a comment's text lost its " * " prefix: put it back */
		ctx->col = sc > 0 ? (uint32_t)sc + (ctx->comment ? 3 : 0) : 0;
		switch (cmark_node_get_type(c)) {
		case CMARK_NODE_TEXT: {
			cmark_node *after;

			qu_buf_reset(&run);
			qu_buf_adds(&run, lit(c));
			while (next &&
			       cmark_node_get_type(next) == CMARK_NODE_TEXT) {
				qu_buf_adds(&run, lit(next));
				next = cmark_node_next(next);
			}
			/* :c:type:`foo` in a comment: text ":c:type:", code */
			if (!plain && ctx->comment && next &&
			    cmark_node_get_type(next) == CMARK_NODE_CODE &&
			    role_len(run.buf, run.len)) {
				size_t rl = role_len(run.buf, run.len);

				text_run(ctx, parent, run.buf, run.len - rl,
					 plain, line);
				role(ctx, parent, run.buf + run.len - rl, rl,
				     lit(next), line);
				next = cmark_node_next(next);
				break;
			}
			/* [`foo()`]: text "[", code, text "]..." */
			after = next ? cmark_node_next(next) : NULL;
			if (!plain && run.len && run.buf[run.len - 1] == '[' &&
			    next &&
			    cmark_node_get_type(next) == CMARK_NODE_CODE &&
			    after &&
			    cmark_node_get_type(after) == CMARK_NODE_TEXT &&
			    lit(after)[0] == ']' && lit(after)[1] != '(' &&
			    lit(after)[1] != '[') {
				struct qu_buf amb = QU_BUF_INIT;
				const char *name = lit(next);
				uint32_t sym = qu_graph_lookup(
					ctx->g, name, strlen(name), &ctx->from,
					&amb);
				const char *url =
					sym != QU_NONE
						? NULL
						: qu_graph_lookup_extern(
							  ctx->g, name,
							  strlen(name));

				if (url && !qu_md_url_is_safe(url))
					url = NULL;
				if (sym != QU_NONE || url) {
					text_run(ctx, parent, run.buf,
						 run.len - 1, plain, line);
					if (amb.len)
						warn_ambiguous(ctx, line, name,
							       strlen(name),
							       sym, &amb);
					code(ctx,
					     url ? xref_extern(ctx, parent, url)
						 : xref(ctx, parent, sym),
					     NULL, name, strlen(name));
					qu_buf_reset(&run);
					qu_buf_adds(&run, lit(after) + 1);
					next = cmark_node_next(after);
					while (next &&
					       cmark_node_get_type(next) ==
						       CMARK_NODE_TEXT) {
						qu_buf_adds(&run, lit(next));
						next = cmark_node_next(next);
					}
				} else if (!ctx->comment) {
					qu_diag(ctx->diags, QU_W_BROKEN_LINK,
						ctx->path, line, ctx->col,
						"no symbol '%s' for the link, "
						"leaving it as text",
						name);
				}
				qu_buf_fini(&amb);
			}
			text_run(ctx, parent, run.buf, run.len, plain, line);
			break;
		}
		case CMARK_NODE_SOFTBREAK:
			md_text(ctx->doc, parent, "\n", 1);
			break;
		case CMARK_NODE_LINEBREAK:
			qu_md_el(ctx->doc, parent, "br");
			break;
		case CMARK_NODE_CODE:
			code(ctx, parent, NULL, lit(c), strlen(lit(c)));
			break;
		case CMARK_NODE_HTML_INLINE:
			md_html(ctx, parent, lit(c), strlen(lit(c)));
			break;
		case CMARK_NODE_EMPH:
			md_inlines(ctx, qu_md_el(ctx->doc, parent, "em"),
				   cmark_node_first_child(c), line0, plain);
			break;
		case CMARK_NODE_STRONG:
			md_inlines(ctx, qu_md_el(ctx->doc, parent, "strong"),
				   cmark_node_first_child(c), line0, plain);
			break;
		case CMARK_NODE_LINK: {
			struct qu_buf href = QU_BUF_INIT;
			const char *title = cmark_node_get_title(c);

			if (link_href(ctx, &href, cmark_node_get_url(c),
				      line)) {
				el = qu_md_el(ctx->doc, parent, "a");
				qu_md_attr(el, "href", href.buf);
				if (title && *title)
					qu_md_attr(el, "title", title);
			} else {
				el = qu_md_el(ctx->doc, parent, "span");
				qu_md_attr(el, "class", "qu-unresolved");
			}
			qu_buf_fini(&href);
			md_inlines(ctx, el, cmark_node_first_child(c), line0,
				   true);
			break;
		}
		case CMARK_NODE_IMAGE: {
			struct qu_buf alt = QU_BUF_INIT;
			const char *url = cmark_node_get_url(c);

			md_plain_text(&alt, c);
			if (url && qu_md_url_is_safe(url)) {
				el = qu_md_el(ctx->doc, parent, "img");
				qu_md_attr(el, "src", url);
				qu_md_attr(el, "alt", alt.buf);
			} else {
				qu_diag(ctx->diags, QU_W_UNSAFE_URL, ctx->path,
					line, ctx->col,
					"dropping the image source '%.20s'",
					url ? url : "");
				md_text(ctx->doc, parent, alt.buf, alt.len);
			}
			qu_buf_fini(&alt);
			break;
		}
		default:
			if (ts && !strcmp(ts, "strikethrough")) {
				md_inlines(ctx,
					   qu_md_el(ctx->doc, parent, "del"),
					   cmark_node_first_child(c), line0,
					   plain);
				break;
			}
			if (cmark_node_first_child(c))
				md_inlines(ctx, parent,
					   cmark_node_first_child(c), line0,
					   plain);
			else
				md_text(ctx->doc, parent, lit(c),
					strlen(lit(c)));
		}
	}
	ctx->depth--;
	qu_buf_fini(&run);
}
