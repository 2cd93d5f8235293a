/* SPDX-License-Identifier: MIT */
/*
 * render_int.h - shared between the files of lib/render only
 */
#ifndef QU_RENDER_RENDER_INT_H
#define QU_RENDER_RENDER_INT_H

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>

#include "render/render.h"

/* What the chrome of one output file needs. */
struct frame {
	const char *out;
	unsigned depth;
	const char *title;
	uint32_t page;
	const char *base;
};

/* @cls: a class name of the code's own (ASCII), or NULL */
xmlNodePtr r_el(xmlDocPtr doc, xmlNodePtr parent, const char *name,
		const char *cls);
void r_text(xmlDocPtr doc, xmlNodePtr parent, const char *s);
void r_attr(xmlNodePtr n, const char *name, const char *value);
/*
 * Markup as text, byte for byte what the nodes of r_el(), r_text() and
 * r_attr() serialize to: r_html_open() as r_el(@name, @cls) with
 * children, then r_html_close(); r_html_text() as r_text(); r_html_attr()
 * as r_attr() (@as_uri for href and src, which the serializer escapes as
 * URIs), added to a page with qu_md_raw(). For the parts of a page made a
 * thousand times and never looked at again, such as an item's parameter names
 * and its "Defined in" line.
 */
void r_html_open(struct qu_buf *out, const char *name, const char *cls);
void r_html_close(struct qu_buf *out, const char *name);
void r_html_text(struct qu_buf *out, const char *s);
void r_html_attr(struct qu_buf *out, const char *name, bool as_uri,
		 const char *value);

/*
 * What qu_render_serialize() writes for a text node holding @s (@len
 * bytes, no NUL), and for the attribute
 * @name="@value" of an element in no namespace, with its leading space:
 * @as_uri for the attributes it writes as URIs (href, src, action, and
 * name on <a>), never a boolean one (checked, selected, ...). For markup
 * made as text, byte for byte what its nodes would give.
 */
void render_html_text(struct qu_buf *out, const char *s, size_t len);
/*
 * A declaration's highlighted markup, as the spans and links of
 * qu_md_highlight_c() (with @ctx, its links) would serialize; with @it,
 * Sphinx's rule for a tag named like one of @it's parameters (a link to
 * "#@anchor"). @ctx may be NULL: no links.
 */
void render_decl_markup(struct qu_buf *out, struct qu_md_ctx *ctx,
			const char *code, const struct qu_item *it,
			const char *anchor);
void render_html_attr(struct qu_buf *out, const char *name, bool as_uri,
		      const char *value);
/*
 * xmlGetProp(@n, @name), read in place when the attribute is one text
 * node (as quire makes them), else copied into *@copy: free *@copy
 * (NULL when nothing was copied) once done with the value. Inline, so
 * that the name compares as the constant it is.
 */
static inline const char *r_prop(xmlNodePtr n, const char *name, xmlChar **copy)
{
	xmlDocPtr d = n->doc;
	xmlAttrPtr a;

	*copy = NULL;
	/* xmlHasProp(): the first of that name, in any namespace */
	for (a = n->properties; a; a = a->next)
		if (!strcmp((const char *)a->name, name)) {
			xmlNodePtr t = a->children;

			if (t && !t->next && t->type == XML_TEXT_NODE &&
			    t->content)
				return (const char *)t->content;
			break;
		}
	/* none, and no DTD that could give a default value */
	if (!a && !(d && ((d->intSubset && d->intSubset->attributes) ||
			  (d->extSubset && d->extSubset->attributes))))
		return NULL;
	*copy = xmlGetProp(n, BAD_CAST name);
	return (const char *)*copy;
}

xmlNodePtr r_link(xmlDocPtr doc, xmlNodePtr parent, const char *href,
		  const char *text);

void render_source_url(struct qu_buf *out, const char *tmpl,
		       const char *path, uint32_t line);
void render_date(struct qu_buf *out, int64_t t, bool full);
void render_changed(xmlDocPtr doc, xmlNodePtr p,
		    const struct qu_render_file *f);
void render_item(const struct qu_render *r, struct qu_md_ctx *ctx,
		 xmlNodePtr parent, const struct qu_placed *pl);
void render_toctree(const struct qu_render *r, xmlDocPtr doc,
		    xmlNodePtr parent, const struct qu_part *part,
		    const struct frame *f);
void render_rst(const struct qu_render *r, struct qu_md_ctx *ctx,
		xmlNodePtr content, const struct frame *f,
		struct qu_diags *diags, struct qu_render_pics *pics);
void render_rst_text(const struct qu_render *r, struct qu_md_ctx *ctx,
		     xmlNodePtr parent, const char *text, size_t len,
		     bool inline_only);
void render_rst_numbers(struct qu_render *r);
void render_nav(const struct qu_render *r, xmlDocPtr doc, xmlNodePtr slot,
		const struct frame *f);
void render_breadcrumbs(const struct qu_render *r, xmlDocPtr doc,
			xmlNodePtr slot, const struct frame *f);
void render_prevnext(const struct qu_render *r, xmlDocPtr doc, xmlNodePtr slot,
		     const struct frame *f);
size_t render_toc(xmlDocPtr doc, xmlNodePtr slot, xmlNodePtr content);
void render_sym_href(struct qu_buf *out, const struct qu_render *r,
		     const char *from_out, uint32_t sym);

typedef void (*body_fn)(const struct qu_render *r, xmlDocPtr doc,
			xmlNodePtr content, const struct frame *f,
			void *payload);
int render_frame(struct qu_buf *out, const struct qu_render *r,
		 const struct frame *f, body_fn body, void *payload);

#endif /* QU_RENDER_RENDER_INT_H */
