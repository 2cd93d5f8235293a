// SPDX-License-Identifier: MIT
/*
 * template.c - the theme's page.html filled as a DOM (render stage)
 *
 * Each output file parses the template afresh (it is small, and a
 * document per thread keeps libxml2 free of sharing), fills the
 * data-slot elements, points "_static/" links at the right depth and
 * serialises (serialize.c).
 */
#include <string.h>

#include "render_int.h"

xmlNodePtr r_el(xmlDocPtr doc, xmlNodePtr parent, const char *name,
		const char *cls)
{
	xmlNodePtr n = qu_md_el(doc, parent, name);

	/* the code's own class names: no UTF-8 to check */
	if (cls)
		qu_md_attr(n, "class", cls);
	return n;
}

/* Whether the @n bytes at @p are ASCII, tab, newline or CR but no other
 * control character */
static bool plain_bytes(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] > 0x7e || (p[i] < 0x20 && p[i] != '\n' &&
				    p[i] != '\t' && p[i] != '\r'))
			return false;
	return true;
}

/* Whether the @len bytes at @p are plain_bytes(), as most text is. */
static bool plain(const unsigned char *p, size_t len)
{
	size_t i;

	if (len < 8)
		return plain_bytes(p, len);
	for (i = 0; i + 8 <= len; i += 8)
		if (!qu_ascii8_printable((const char *)p + i) &&
		    !plain_bytes(p + i, 8))
			return false;
	/* the last word overlaps the one before */
	return qu_ascii8_printable((const char *)p + len - 8) ||
	       plain_bytes(p + len - 8, 8);
}

/*
 * Text from sources and pages may hold invalid UTF-8 (a DOC: title, a
 * parameter's type); libxml2 would write the bytes as they are, so they
 * become U+FFFD here, as docs/warnings.md promises. *@len_out (unless
 * NULL) gets the length of what is returned.
 */
static const char *valid_utf8(struct qu_buf *tmp, const char *s,
			      size_t *len_out)
{
	const unsigned char *p = (const unsigned char *)s;
	struct qu_buf fixed = QU_BUF_INIT;
	size_t len = strlen(s), i = 0, run = 0;
	bool ctl = false, high = false;

	if (len_out)
		*len_out = len;
	if (plain(p, len))
		return s;
	while (i < len && !ctl) {
		/* eight bytes a step: most text is plain ASCII */
		if (i + 8 <= len && qu_ascii8_printable(s + i)) {
			i += 8;
			continue;
		}
		if (p[i] >= 0x80)
			high = true;
		else if ((p[i] < 0x20 && p[i] != '\n' && p[i] != '\t' &&
			  p[i] != '\r') ||
			 p[i] == 0x7f)
			ctl = true;
		i++;
	}
	if (!ctl && (!high || qu_utf8_valid(s, len, NULL)))
		return s;
	qu_buf_add_utf8(&fixed, s, len);
	/* control characters are not XML either (as lib/markdown does) */
	for (i = 0; i < fixed.len; i++) {
		unsigned char c = (unsigned char)fixed.buf[i];

		if ((c < 0x20 && c != '\n' && c != '\t' && c != '\r') ||
		    c == 0x7f) {
			qu_buf_add(tmp, fixed.buf + run, i - run);
			qu_buf_adds(tmp, "\xef\xbf\xbd");
			run = i + 1;
		}
	}
	qu_buf_add(tmp, fixed.buf + run, fixed.len - run);
	qu_buf_fini(&fixed);
	if (len_out)
		*len_out = tmp->len;
	return tmp->buf;
}

void r_html_text(struct qu_buf *out, const char *s)
{
	struct qu_buf tmp = QU_BUF_INIT;
	size_t len;
	const char *v = valid_utf8(&tmp, s, &len);

	render_html_text(out, v, len);
	qu_buf_fini(&tmp);
}

void r_html_attr(struct qu_buf *out, const char *name, bool as_uri,
		 const char *value)
{
	struct qu_buf tmp = QU_BUF_INIT;

	render_html_attr(out, name, as_uri, valid_utf8(&tmp, value, NULL));
	qu_buf_fini(&tmp);
}

void r_html_open(struct qu_buf *out, const char *name, const char *cls)
{
	qu_buf_addc(out, '<');
	qu_buf_adds(out, name);
	if (cls)
		render_html_attr(out, "class", false, cls);
	qu_buf_addc(out, '>');
}

void r_html_close(struct qu_buf *out, const char *name)
{
	qu_buf_adds(out, "</");
	qu_buf_adds(out, name);
	qu_buf_addc(out, '>');
}

void r_text(xmlDocPtr doc, xmlNodePtr parent, const char *s)
{
	struct qu_buf tmp = QU_BUF_INIT;
	size_t len;
	const char *v = valid_utf8(&tmp, s, &len);
	xmlNodePtr n = qu_md_text_node(doc, v, len);

	qu_buf_fini(&tmp);
	if (!xmlAddChild(parent, n))
		qu_die_oom();
}

void r_attr(xmlNodePtr n, const char *name, const char *value)
{
	struct qu_buf tmp = QU_BUF_INIT;

	qu_md_attr(n, name, valid_utf8(&tmp, value, NULL));
	qu_buf_fini(&tmp);
}

xmlNodePtr r_link(xmlDocPtr doc, xmlNodePtr parent, const char *href,
		  const char *text)
{
	xmlNodePtr a = r_el(doc, parent, "a", NULL);

	r_attr(a, "href", href);
	r_text(doc, a, text);
	return a;
}

enum slot {
	SLOT_TITLE,
	SLOT_SITE_TITLE,
	SLOT_VERSION,
	SLOT_NAV,
	SLOT_BREADCRUMBS,
	SLOT_TOC,
	SLOT_CONTENT,
	SLOT_PREVNEXT,
	SLOT_PAGE_META,
	SLOT_VERSIONS,
	SLOT_VERSION_BANNER,
	SLOT__COUNT,
};

static const char *const slot_names[SLOT__COUNT] = {
	"title",       "site-title", "version", "nav",
	"breadcrumbs", "toc",	     "content", "prevnext",
	"page-meta",   "versions",   "version-banner",
};

static void clear(xmlNodePtr n)
{
	xmlNodePtr c, next;

	for (c = n->children; c; c = next) {
		next = c->next;
		xmlUnlinkNode(c);
		xmlFreeNode(c);
	}
}

/*
 * A template's relative links ("_static/quire.css", "genindex.html") are
 * relative to the site's root; anchors, absolute paths and URLs are not.
 */
static bool root_relative(const char *v)
{
	size_t i = 0;

	if (!*v || v[0] == '#' || v[0] == '/' || v[0] == '?')
		return false;
	while (v[i] && v[i] != ':' && v[i] != '/' && v[i] != '#')
		i++;
	return v[i] != ':';
}

/* Find the slots; point the template's links at the root; drop data-slot. */
static void walk(xmlNodePtr n, xmlNodePtr *slots, const struct frame *f,
		 struct qu_buf *tmp)
{
	static const char *const link_attrs[] = {"href", "src"};

	for (; n; n = n->next) {
		xmlChar *v;
		size_t k;

		if (n->type != XML_ELEMENT_NODE)
			continue;
		v = xmlGetProp(n, BAD_CAST "data-slot");
		if (v) {
			for (k = 0; k < SLOT__COUNT; k++)
				if (!strcmp((const char *)v, slot_names[k]) &&
				    !slots[k])
					slots[k] = n;
			xmlFree(v);
			xmlUnsetProp(n, BAD_CAST "data-slot");
		}
		for (k = 0; k < QU_ARRAY_SIZE(link_attrs); k++) {
			unsigned d;

			v = xmlGetProp(n, BAD_CAST link_attrs[k]);
			if (!v)
				continue;
			if (root_relative((const char *)v) && f->depth) {
				qu_buf_reset(tmp);
				for (d = 0; d < f->depth; d++)
					qu_buf_adds(tmp, "../");
				qu_buf_adds(tmp, (const char *)v);
				r_attr(n, link_attrs[k], tmp->buf);
			}
			xmlFree(v);
		}
		walk(n->children, slots, f, tmp);
	}
}

/* The <head> of a page, or NULL. */
static xmlNodePtr head_of(xmlDocPtr doc)
{
	xmlNodePtr root = xmlDocGetRootElement(doc), head;

	for (head = root ? root->children : NULL; head; head = head->next)
		if (head->type == XML_ELEMENT_NODE &&
		    !strcmp((const char *)head->name, "head"))
			return head;
	return NULL;
}

static void version_target(struct qu_buf *t, const struct qu_render *r,
			   const char *out, size_t v);

/*
 * <link rel="canonical">: base_url and the page's path; in a versioned
 * site, the same page (or its nearest parent) of the latest version.
 */
static void canonical(const struct qu_render *r, xmlDocPtr doc,
		      const struct frame *f)
{
	const char *base = r->site->cfg.base_url;
	xmlNodePtr head = head_of(doc), link;
	struct qu_buf url = QU_BUF_INIT;

	if (!head)
		return;
	qu_buf_adds(&url, base);
	if (url.len && url.buf[url.len - 1] != '/')
		qu_buf_addc(&url, '/');
	if (r->nversions) {
		/* base_url is the versioned site's; the latest is canonical */
		struct qu_buf t = QU_BUF_INIT;

		version_target(&t, r, f->out, r->version_latest);
		qu_buf_add_path(&url, r->versions[r->version_latest].label,
				t.buf);
		qu_buf_fini(&t);
	} else {
		qu_buf_adds(&url, f->out);
	}
	link = r_el(doc, head, "link", NULL);
	r_attr(link, "rel", "canonical");
	r_attr(link, "href", url.buf);
	qu_buf_fini(&url);
}

/*
 * A link of the page-meta slot: @tmpl filled with the page's @path, after
 * a separator when something came before. Return: whether it was added.
 */
static bool meta_link(xmlDocPtr doc, xmlNodePtr slot, const char *tmpl,
		      const char *path, const char *text, const char *cls,
		      bool after)
{
	struct qu_buf url = QU_BUF_INIT;
	bool ok = tmpl && path;

	if (ok) {
		render_source_url(&url, tmpl, path, 0);
		ok = qu_md_url_is_safe(url.buf);
	}
	if (ok) {
		if (after)
			r_text(doc, slot, " \xc2\xb7 ");
		r_attr(r_link(doc, slot, url.buf, text), "class", cls);
	}
	qu_buf_fini(&url);
	return ok;
}

/*
 * The page-meta slot: when the page last changed and a link to its
 * source. Return: false when there is nothing to say (the slot goes).
 */
static bool page_meta(const struct qu_render *r, xmlDocPtr doc,
		      xmlNodePtr slot, const struct frame *f)
{
	const struct qu_render_file *pf;
	const char *tmpl = r->source_url ? r->source_url
					 : r->site->cfg.source_url;
	bool any = false;

	if (!r->page_files || f->page >= r->site->npages || f->base)
		return false;
	pf = &r->page_files[f->page];
	clear(slot);
	if (pf->time) {
		render_changed(doc, r_el(doc, slot, "span", "qu-changed"), pf);
		any = true;
	}
	any |= meta_link(doc, slot, tmpl, pf->link, "View source",
			 "qu-source-link", any);
	/* a page of the docs, not one quire made of a source file */
	if (r->site->pages[f->page].src)
		any |= meta_link(doc, slot, r->edit_url, pf->link,
				 "Edit this page", "qu-edit-link", any);
	return any;
}

static int cmp_out(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The link from page @out of this version to the same page of version
 * @v, or its nearest parent there: the folder's index.html, up to the
 * home page.
 */
static void version_target(struct qu_buf *t, const struct qu_render *r,
			   const char *out, size_t v)
{
	const struct qu_render_version *ver = &r->versions[v];

	qu_buf_adds(t, out);
	while (ver->pages) {
		const char *k = t->buf;
		char *sl;

		if (bsearch(&k, ver->pages, ver->npages, sizeof(char *),
			    cmp_out) ||
		    !strcmp(t->buf, "index.html"))
			break;
		/* a/b.html -> a/index.html; a/index.html -> index.html */
		sl = strrchr(t->buf, '/');
		if (sl && !strcmp(sl + 1, "index.html")) {
			*sl = 0;
			sl = strrchr(t->buf, '/');
		}
		t->len = sl ? (size_t)(sl - t->buf) + 1 : 0;
		t->buf[t->len] = 0;
		qu_buf_adds(t, "index.html");
	}
}

static void version_href(struct qu_buf *href, const struct qu_render *r,
			 const char *out, unsigned depth, size_t v)
{
	struct qu_buf t = QU_BUF_INIT;
	unsigned i;

	version_target(&t, r, out, v);
	for (i = 0; i <= depth; i++)
		qu_buf_adds(href, "../");
	qu_buf_add_path(href, r->versions[v].label, t.buf);
	qu_buf_fini(&t);
}

/* The switcher: every version, the current one marked. */
static void versions_slot(const struct qu_render *r, xmlDocPtr doc,
			  xmlNodePtr slot, const struct frame *f)
{
	xmlNodePtr ul = r_el(doc, slot, "ul", NULL);
	struct qu_buf href = QU_BUF_INIT;
	size_t v;

	for (v = 0; v < r->nversions; v++) {
		xmlNodePtr li = r_el(doc, ul, "li", NULL), a;

		qu_buf_reset(&href);
		version_href(&href, r, f->out, f->depth, v);
		a = r_link(doc, li, href.buf, r->versions[v].label);
		if (v == r->version_latest)
			r_text(doc, li, " (latest)");
		if (v == r->version_cur) {
			r_attr(li, "class", "current");
			r_attr(a, "aria-current", "page");
		}
	}
	qu_buf_fini(&href);
}

/* The banner of a version that is not the latest. */
static void banner_slot(const struct qu_render *r, xmlDocPtr doc,
			xmlNodePtr slot, const struct frame *f)
{
	struct qu_buf href = QU_BUF_INIT;

	r_text(doc, slot, "This is the documentation of ");
	r_text(doc, r_el(doc, slot, "strong", NULL),
	       r->versions[r->version_cur].label);
	r_text(doc, slot, ". The latest version is ");
	version_href(&href, r, f->out, f->depth, r->version_latest);
	r_link(doc, slot, href.buf, r->versions[r->version_latest].label);
	r_text(doc, slot, ".");
	qu_buf_fini(&href);
}

/*
 * xmlCopyDoc() of @tmpl, but with the copy's own dictionary made first:
 * the copied element and attribute names are interned there instead of
 * allocated once per node, so the serializer meets each name once and
 * freeing the page has fewer strings to free. NULL when out of memory.
 */
static xmlDocPtr copy_template(xmlDocPtr tmpl)
{
	xmlDocPtr doc = xmlCopyDoc(tmpl, 0);
	xmlNodePtr c, n;

	if (!doc)
		return NULL;
	doc->dict = xmlDictCreate();
	if (!doc->dict)
		goto fail;
	for (c = tmpl->children; c; c = c->next) {
		if (c->type == XML_DTD_NODE) {
			/* xmlCopyDoc() makes the internal subset a child too */
			doc->intSubset = xmlCopyDtd((xmlDtdPtr)c);
			if (!doc->intSubset)
				goto fail;
			xmlSetTreeDoc((xmlNodePtr)doc->intSubset, doc);
			n = (xmlNodePtr)doc->intSubset;
		} else {
			n = xmlDocCopyNode(c, doc, 1);
			if (!n)
				goto fail;
		}
		if (!xmlAddChild((xmlNodePtr)doc, n)) {
			/* xmlFreeDoc() frees the internal subset */
			if (n != (xmlNodePtr)doc->intSubset)
				xmlFreeNode(n);
			goto fail;
		}
	}
	return doc;
fail:
	xmlFreeDoc(doc);
	return NULL;
}

int render_frame(struct qu_buf *out, const struct qu_render *r,
		 const struct frame *f, body_fn body, void *payload)
{
	xmlNodePtr slots[SLOT__COUNT] = {0};
	struct qu_md_names names = {0};
	struct qu_buf tmp = QU_BUF_INIT;
	xmlDocPtr doc;
	size_t start;
	int error = -1;

	/*
	 * A copy of the template parsed once (copying only reads it), with
	 * a dictionary of the page's own: element and attribute names are
	 * interned instead of allocated once per node.
	 */
	doc = copy_template(r->tmpl_doc);
	if (!doc)
		goto out;
	doc->_private = &names;
	walk(xmlDocGetRootElement(doc), slots, f, &tmp);

	/*
	 * 404.html is served at any depth: with base_url, a <base> element
	 * makes its relative links work from wherever it is shown.
	 */
	if (f->base) {
		xmlNodePtr root = xmlDocGetRootElement(doc), head;

		for (head = root ? root->children : NULL; head;
		     head = head->next)
			if (head->type == XML_ELEMENT_NODE &&
			    !strcmp((const char *)head->name, "head"))
				break;
		if (head) {
			xmlNodePtr base = r_el(doc, NULL, "base", NULL);

			r_attr(base, "href", f->base);
			if (head->children)
				xmlAddPrevSibling(head->children, base);
			else
				xmlAddChild(head, base);
		}
	}
	/* with base_url, every page but 404.html names its one address */
	if (!f->base && r->site->cfg.base_url &&
	    qu_md_url_is_safe(r->site->cfg.base_url))
		canonical(r, doc, f);
	if (slots[SLOT_PAGE_META] && !page_meta(r, doc, slots[SLOT_PAGE_META],
						f)) {
		xmlUnlinkNode(slots[SLOT_PAGE_META]);
		xmlFreeNode(slots[SLOT_PAGE_META]);
	}
	/* 404.html is shown at any depth: it gets no version links */
	if (slots[SLOT_VERSIONS]) {
		clear(slots[SLOT_VERSIONS]);
		if (r->nversions && !f->base)
			versions_slot(r, doc, slots[SLOT_VERSIONS], f);
		else {
			xmlUnlinkNode(slots[SLOT_VERSIONS]);
			xmlFreeNode(slots[SLOT_VERSIONS]);
		}
	}
	if (slots[SLOT_VERSION_BANNER]) {
		clear(slots[SLOT_VERSION_BANNER]);
		if (r->nversions && !f->base &&
		    r->version_cur != r->version_latest)
			banner_slot(r, doc, slots[SLOT_VERSION_BANNER], f);
		else {
			xmlUnlinkNode(slots[SLOT_VERSION_BANNER]);
			xmlFreeNode(slots[SLOT_VERSION_BANNER]);
		}
	}
	if (slots[SLOT_CONTENT]) {
		clear(slots[SLOT_CONTENT]);
		body(r, doc, slots[SLOT_CONTENT], f, payload);
	}
	if (slots[SLOT_TITLE]) {
		clear(slots[SLOT_TITLE]);
		qu_buf_reset(&tmp);
		if (f->page == 0)
			qu_buf_adds(&tmp, r->title);
		else
			qu_buf_addf(&tmp, "%s \xe2\x80\x94 %s", f->title,
				    r->title);
		r_text(doc, slots[SLOT_TITLE], tmp.buf);
	}
	if (slots[SLOT_SITE_TITLE]) {
		xmlNodePtr n = slots[SLOT_SITE_TITLE];

		clear(n);
		r_text(doc, n, r->title);
		if (!strcmp((const char *)n->name, "a")) {
			qu_buf_reset(&tmp);
			qu_site_relpath(&tmp, f->out, "index.html");
			r_attr(n, "href", tmp.buf);
		}
	}
	if (slots[SLOT_VERSION]) {
		if (r->version && *r->version) {
			clear(slots[SLOT_VERSION]);
			r_text(doc, slots[SLOT_VERSION], r->version);
		} else {
			xmlUnlinkNode(slots[SLOT_VERSION]);
			xmlFreeNode(slots[SLOT_VERSION]);
		}
	}
	if (slots[SLOT_NAV]) {
		clear(slots[SLOT_NAV]);
		render_nav(r, doc, slots[SLOT_NAV], f);
	}
	if (slots[SLOT_BREADCRUMBS]) {
		clear(slots[SLOT_BREADCRUMBS]);
		render_breadcrumbs(r, doc, slots[SLOT_BREADCRUMBS], f);
	}
	if (slots[SLOT_PREVNEXT]) {
		clear(slots[SLOT_PREVNEXT]);
		render_prevnext(r, doc, slots[SLOT_PREVNEXT], f);
	}
	if (slots[SLOT_TOC]) {
		clear(slots[SLOT_TOC]);
		if (!slots[SLOT_CONTENT] ||
		    render_toc(doc, slots[SLOT_TOC], slots[SLOT_CONTENT]) < 2) {
			xmlUnlinkNode(slots[SLOT_TOC]);
			xmlFreeNode(slots[SLOT_TOC]);
		}
	}
	start = out->len;
	qu_render_serialize(out, doc);
	if (out->len == start)
		goto out;
	error = 0;
out:
	xmlFreeDoc(doc);
	qu_buf_fini(&tmp);
	return error;
}
