// SPDX-License-Identifier: MIT
/*
 * serialize.c - a page's DOM as HTML text (render stage)
 *
 * Writes what libxml2 2.9's htmlDocContentDumpFormatOutput() writes with
 * format 0 and no encoder, byte for byte, straight into a qu_buf. Its own
 * writer looks every element up in the HTML table by name (a
 * case-insensitive compare a step), copies each attribute's value to a
 * new string before escaping it, and escapes every text node into one
 * more; on the kernel's driver-api that was a tenth of the build.
 * render_frame() calls it; test/render/serialize.c holds the two writers
 * to the same bytes.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parserInternals.h>

#include "render_int.h"

/*
 * Names seen (of elements and of attributes), by pointer: a page's names
 * come from its own dictionary, and the template's are few. A name not
 * cached (the cache is full) is looked up every time into a spare entry
 * (one for elements, one for attributes, so an element's outlives its
 * attributes' lookups), which is only slower: a cached entry stays put,
 * so the walk keeps the entries of the elements it is inside (struct
 * ser's open).
 */
#define CACHE 128

/* what htmlAttrDumpOutput() does with an attribute's value */
enum value_as { VALUE_TEXT, VALUE_URI, VALUE_URI_ON_A };

/* the longest element name written from the cache's open[] and close[] */
#define TAG_MAX 16

struct name {
	const xmlChar *name;
	size_t len;
	const htmlElemDesc *info;
	bool raw;
	bool boolean;
	enum value_as as;
	/* "<name" and "</name>", for a name of at most TAG_MAX bytes */
	char open[TAG_MAX + 2];
	char close[TAG_MAX + 4];
};

struct ser {
	struct qu_buf *out;
	xmlDocPtr doc;
	struct name cache[CACHE];
	struct name spare_el, spare_attr;
	/* per level of the walk, the entry of the element it is inside
	 * (NULL for a namespaced element, an uncached name, the document) */
	const struct name **open;
	size_t depth, alloc;
};

/* htmlIsBooleanAttr() */
static bool is_boolean(const xmlChar *name)
{
	static const char *const names[] = {
		"checked", "compact",  "declare",  "defer",    "disabled",
		"ismap",   "multiple", "nohref",   "noresize", "noshade",
		"nowrap",  "readonly", "selected",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!xmlStrcasecmp(BAD_CAST names[i], name))
			return true;
	return false;
}

static size_t hash(const xmlChar *name)
{
	return (size_t)(((uint64_t)(uintptr_t)name * 0x9e3779b97f4a7c15ull) >>
			57) %
	       CACHE;
}

static const struct name *lookup(struct ser *s, const xmlChar *name,
				 struct name *spare)
{
	size_t h = hash(name), k;
	struct name *e = NULL;

	for (k = 0; k < CACHE; k++) {
		e = &s->cache[(h + k) % CACHE];
		if (e->name == name)
			return e;
		if (!e->name)
			break;
	}
	if (e->name)
		e = spare;
	e->name = name;
	e->len = strlen((const char *)name);
	e->info = htmlTagLookup(name);
	/* libxml2 writes the text of these unescaped */
	e->raw = !xmlStrcasecmp(name, BAD_CAST "script") ||
		 !xmlStrcasecmp(name, BAD_CAST "style");
	e->boolean = is_boolean(name);
	if (e->len <= TAG_MAX) {
		e->open[0] = '<';
		memcpy(e->open + 1, name, e->len);
		e->close[0] = '<';
		e->close[1] = '/';
		memcpy(e->close + 2, name, e->len);
		e->close[e->len + 2] = '>';
	}
	e->as = VALUE_TEXT;
	if (!xmlStrcasecmp(name, BAD_CAST "href") ||
	    !xmlStrcasecmp(name, BAD_CAST "action") ||
	    !xmlStrcasecmp(name, BAD_CAST "src"))
		e->as = VALUE_URI;
	else if (!xmlStrcasecmp(name, BAD_CAST "name"))
		e->as = VALUE_URI_ON_A;
	return e;
}

static void puts_(struct ser *s, const xmlChar *str)
{
	if (str)
		qu_buf_adds(s->out, (const char *)str);
}

/* 1: a byte encode() does something with (NUL ends the string) */
static const unsigned char act[256] = {
	[0x00] = 1, [0x01] = 1, [0x02] = 1, [0x03] = 1, [0x04] = 1,
	[0x05] = 1, [0x06] = 1, [0x07] = 1, [0x08] = 1, [0x0b] = 1,
	[0x0c] = 1, [0x0e] = 1, [0x0f] = 1, [0x10] = 1, [0x11] = 1,
	[0x12] = 1, [0x13] = 1, [0x14] = 1, [0x15] = 1, [0x16] = 1,
	[0x17] = 1, [0x18] = 1, [0x19] = 1, [0x1a] = 1, [0x1b] = 1,
	[0x1c] = 1, [0x1d] = 1, [0x1e] = 1, [0x1f] = 1, ['<'] = 1,
	['>'] = 1,  ['&'] = 1,
};

/*
 * xmlEncodeEntitiesReentrant() (@attr false) or
 * xmlEncodeAttributeEntities() (@attr true) on an HTML document: <, >
 * and & become entities, other control characters than tab, newline
 * and carriage return are dropped, and in attributes "<!--...-->" and
 * "&{...}" are kept as they are (HTML 4's server-side includes and
 * script macros).
 */
static void encode(struct qu_buf *out, const xmlChar *str, bool attr)
{
	const xmlChar *cur = str, *run = str;

	for (;; cur++) {
		unsigned char c;
		const char *ent;
		const xmlChar *end;

		while (!act[*cur])
			cur++;
		c = *cur;
		qu_buf_add(out, run, (size_t)(cur - run));
		if (!c)
			return;
		run = cur + 1;
		if (c == '<') {
			if (attr && cur[1] == '!' && cur[2] == '-' &&
			    cur[3] == '-' &&
			    (end = xmlStrstr(cur, BAD_CAST "-->"))) {
				run = cur;
				cur = end + 2;
				continue;
			}
			ent = "&lt;";
		} else if (c == '>') {
			ent = "&gt;";
		} else if (c == '&') {
			if (attr && cur[1] == '{' &&
			    strchr((const char *)cur, '}')) {
				run = cur;
				cur = (const xmlChar *)strchr((const char *)cur,
							      '}');
				continue;
			}
			ent = "&amp;";
		} else {
			/* another control character: dropped */
			continue;
		}
		qu_buf_adds(out, ent);
	}
}

/* xmlBufWriteQuotedString() of @str, @len bytes long (its strlen()) */
static void quoted(struct qu_buf *out, const char *str, size_t len)
{
	const char *q;

	if (!memchr(str, '"', len)) {
		qu_buf_addc(out, '"');
		qu_buf_add(out, str, len);
		qu_buf_addc(out, '"');
	} else if (!strchr(str, '\'')) {
		qu_buf_addc(out, '\'');
		qu_buf_adds(out, str);
		qu_buf_addc(out, '\'');
	} else {
		qu_buf_addc(out, '"');
		while ((q = strchr(str, '"'))) {
			qu_buf_add(out, str, (size_t)(q - str));
			qu_buf_adds(out, "&quot;");
			str = q + 1;
		}
		qu_buf_adds(out, str);
		qu_buf_addc(out, '"');
	}
}

/*
 * xmlURIEscapeStr() with the list htmlAttrDumpOutput() gives it, quoted:
 * the escaped value holds no '"'.
 */
static void uri(struct qu_buf *out, const char *str)
{
	static const char hex[] = "0123456789ABCDEF";
	/* 1: kept as it is, xmlURIEscapeStr()'s unreserved and its list */
	static const unsigned char keep[256] = {
		['a' ... 'z'] = 1, ['A' ... 'Z'] = 1, ['0' ... '9'] = 1,
		['-'] = 1, ['_'] = 1, ['.'] = 1, ['!'] = 1, ['~'] = 1,
		['*'] = 1, ['\''] = 1, ['('] = 1, [')'] = 1, ['@'] = 1,
		['/'] = 1, [':'] = 1, ['='] = 1, ['?'] = 1, [';'] = 1,
		['#'] = 1, ['%'] = 1, ['&'] = 1, [','] = 1, ['+'] = 1,
		['<'] = 1, ['>'] = 1,
	};

	qu_buf_addc(out, '"');
	while (*str) {
		const char *run = str;
		unsigned char c;

		/* a URI is mostly kept: added a run at a time */
		while (keep[(unsigned char)*str])
			str++;
		qu_buf_add(out, run, (size_t)(str - run));
		if (!*str)
			break;
		c = (unsigned char)*str++;
		qu_buf_addc(out, '%');
		qu_buf_addc(out, hex[c >> 4]);
		qu_buf_addc(out, hex[c & 15]);
	}
	qu_buf_addc(out, '"');
}

/* "=" and an attribute's encoded value @v (@vlen bytes): a URI's escaped
 * past its leading blanks, any other quoted */
static void attr_value(struct qu_buf *out, const char *v, size_t vlen,
		       bool as_uri)
{
	qu_buf_addc(out, '=');
	if (as_uri) {
		while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')
			v++;
		uri(out, v);
	} else {
		quoted(out, v, vlen);
	}
}

/* htmlAttrDumpOutput() */
static void attribute(struct ser *s, xmlAttrPtr a, struct qu_buf *tmp)
{
	xmlNodePtr t = a->children;
	xmlChar *list = NULL;
	const char *v;
	size_t vlen;

	const struct name *n = lookup(s, a->name, &s->spare_attr);

	qu_buf_addc(s->out, ' ');
	if (a->ns && a->ns->prefix) {
		puts_(s, a->ns->prefix);
		qu_buf_addc(s->out, ':');
	}
	qu_buf_add(s->out, n->name, n->len);
	if (!t || n->boolean)
		return;
	/* one text child, as every attribute quire makes has */
	qu_buf_reset(tmp);
	if (!t->next &&
	    (t->type == XML_TEXT_NODE || t->type == XML_CDATA_SECTION_NODE)) {
		if (!t->content) {
			qu_buf_adds(s->out, "=\"\"");
			return;
		}
		encode(tmp, t->content, true);
		v = tmp->buf;
		vlen = tmp->len;
	} else {
		list = xmlNodeListGetString(s->doc, t, 0);
		if (!list) {
			qu_buf_adds(s->out, "=\"\"");
			return;
		}
		v = (const char *)list;
		vlen = strlen(v);
	}
	attr_value(s->out, v, vlen,
		   !a->ns && a->parent && !a->parent->ns &&
			   (n->as == VALUE_URI ||
			    (n->as == VALUE_URI_ON_A &&
			     !xmlStrcasecmp(a->parent->name, BAD_CAST "a"))));
	xmlFree(list);
}

void render_html_text(struct qu_buf *out, const char *s, size_t len)
{
	size_t i, run = 0;

	/* encode() of a text without NUL: a control character is dropped */
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *ent = c == '<'   ? "&lt;"
				  : c == '>' ? "&gt;"
				  : c == '&' ? "&amp;"
					     : NULL;

		if (!ent && c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
			qu_buf_add(out, s + run, i - run);
			run = i + 1;
			continue;
		}
		if (!ent)
			continue;
		qu_buf_add(out, s + run, i - run);
		qu_buf_adds(out, ent);
		run = i + 1;
	}
	qu_buf_add(out, s + run, len - run);
}

void render_html_attr(struct qu_buf *out, const char *name, bool as_uri,
		      const char *value)
{
	struct qu_buf t = QU_BUF_INIT;

	qu_buf_addc(out, ' ');
	qu_buf_adds(out, name);
	if (!as_uri) {
		const unsigned char *p = (const unsigned char *)value;

		/* act[] stops at the NUL too */
		while (!act[*p] && *p != '"')
			p++;
		if (!*p) {
			/* nothing to encode or quote (a class name) */
			qu_buf_adds(out, "=\"");
			qu_buf_add(out, value,
				   (size_t)(p - (const unsigned char *)value));
			qu_buf_addc(out, '"');
			return;
		}
	}
	encode(&t, BAD_CAST value, true);
	attr_value(out, t.len ? t.buf : "", t.len, as_uri);
	qu_buf_fini(&t);
}

/* xmlNsListDumpOutput() */
static void ns_list(struct ser *s, xmlNsPtr ns)
{
	for (; ns; ns = ns->next) {
		if (ns->type != XML_LOCAL_NAMESPACE || !ns->href ||
		    xmlStrEqual(ns->prefix, BAD_CAST "xml"))
			continue;
		qu_buf_adds(s->out, " xmlns");
		if (ns->prefix) {
			qu_buf_addc(s->out, ':');
			puts_(s, ns->prefix);
		}
		qu_buf_addc(s->out, '=');
		quoted(s->out, (const char *)ns->href,
		       strlen((const char *)ns->href));
	}
}

/* htmlDtdDumpOutput() */
static void dtd(struct ser *s, xmlDtdPtr d)
{
	qu_buf_adds(s->out, "<!DOCTYPE ");
	puts_(s, d->name);
	if (d->ExternalID) {
		qu_buf_adds(s->out, " PUBLIC ");
		quoted(s->out, (const char *)d->ExternalID,
		       strlen((const char *)d->ExternalID));
		if (d->SystemID) {
			qu_buf_addc(s->out, ' ');
			quoted(s->out, (const char *)d->SystemID,
			       strlen((const char *)d->SystemID));
		}
	} else if (d->SystemID &&
		   xmlStrcmp(d->SystemID, BAD_CAST "about:legacy-compat")) {
		qu_buf_adds(s->out, " SYSTEM ");
		quoted(s->out, (const char *)d->SystemID,
		       strlen((const char *)d->SystemID));
	}
	qu_buf_adds(s->out, ">\n");
}

static void tag_name(struct ser *s, xmlNodePtr n)
{
	if (n->ns && n->ns->prefix) {
		puts_(s, n->ns->prefix);
		qu_buf_addc(s->out, ':');
	}
	puts_(s, n->name);
}

/*
 * Down into the children of an element (@e its entry, NULL with a
 * namespace) or of the document (@e NULL).
 */
static void enter(struct ser *s, const struct name *e)
{
	QU_VEC_GROW(s->open, s->depth, s->alloc);
	s->open[s->depth++] = e == &s->spare_el ? NULL : e;
}

/* "</name>" of element @n; @e is its name's entry, or NULL */
static void end_tag(struct ser *s, xmlNodePtr n, const struct name *e)
{
	if (e && e->len <= TAG_MAX) {
		qu_buf_add(s->out, e->close, e->len + 3);
		return;
	}
	qu_buf_adds(s->out, "</");
	tag_name(s, n);
	qu_buf_addc(s->out, '>');
}

void qu_render_serialize(struct qu_buf *out, xmlDocPtr doc)
{
	struct ser *s = qu_xcalloc(1, sizeof(*s));
	struct qu_buf tmp = QU_BUF_INIT;
	xmlNodePtr root = (xmlNodePtr)doc, cur = root, parent = NULL;

	/* text escaping as libxml2 does it for an HTML document only */
	assert(doc->type == XML_HTML_DOCUMENT_NODE);
	s->out = out;
	s->doc = doc;
	for (;;) {
		const struct name *e = NULL;
		xmlAttrPtr a;

		switch (cur->type) {
		case XML_HTML_DOCUMENT_NODE:
		case XML_DOCUMENT_NODE:
			if (((xmlDocPtr)cur)->intSubset)
				dtd(s, ((xmlDocPtr)cur)->intSubset);
			if (cur->children) {
				enter(s, NULL);
				parent = cur;
				cur = cur->children;
				continue;
			}
			qu_buf_addc(out, '\n');
			break;
		case XML_ELEMENT_NODE:
			if (!cur->ns)
				e = lookup(s, cur->name, &s->spare_el);
			if (e && e->len <= TAG_MAX) {
				qu_buf_add(out, e->open, e->len + 1);
			} else {
				qu_buf_addc(out, '<');
				tag_name(s, cur);
			}
			if (cur->nsDef)
				ns_list(s, cur->nsDef);
			for (a = cur->properties; a; a = a->next)
				attribute(s, a, &tmp);
			if (e && e->info && e->info->empty) {
				qu_buf_addc(out, '>');
			} else if (!cur->children) {
				if (e && e->info && e->info->saveEndTag &&
				    strcmp(e->info->name, "html") &&
				    strcmp(e->info->name, "body")) {
					qu_buf_addc(out, '>');
				} else {
					qu_buf_addc(out, '>');
					end_tag(s, cur, e);
				}
			} else {
				qu_buf_addc(out, '>');
				enter(s, e);
				parent = cur;
				cur = cur->children;
				continue;
			}
			break;
		case XML_TEXT_NODE:
			if (!cur->content)
				break;
			/* only script and style hold raw text: "s" first */
			e = s->depth ? s->open[s->depth - 1] : NULL;
			if (cur->name == xmlStringTextNoenc ||
			    (e ? e->raw
			       : parent && parent->name &&
					     (parent->name[0] | 0x20) == 's' &&
					     lookup(s, parent->name,
						    &s->spare_attr)
						     ->raw))
				puts_(s, cur->content);
			else
				encode(out, cur->content, false);
			break;
		case XML_COMMENT_NODE:
			if (cur->content) {
				qu_buf_adds(out, "<!--");
				puts_(s, cur->content);
				qu_buf_adds(out, "-->");
			}
			break;
		case XML_PI_NODE:
			if (cur->name) {
				qu_buf_adds(out, "<?");
				puts_(s, cur->name);
				if (cur->content) {
					qu_buf_addc(out, ' ');
					puts_(s, cur->content);
				}
				qu_buf_addc(out, '>');
			}
			break;
		case XML_ENTITY_REF_NODE:
			qu_buf_addc(out, '&');
			puts_(s, cur->name);
			qu_buf_addc(out, ';');
			break;
		case XML_CDATA_SECTION_NODE:
			puts_(s, cur->content);
			break;
		default:
			break;
		}
		for (;;) {
			if (cur == root)
				goto out;
			if (cur->next) {
				cur = cur->next;
				break;
			}
			cur = parent;
			parent = cur->parent;
			e = s->open[--s->depth];
			if (cur->type == XML_HTML_DOCUMENT_NODE ||
			    cur->type == XML_DOCUMENT_NODE)
				qu_buf_addc(out, '\n');
			else
				end_tag(s, cur, e);
		}
	}
out:
	qu_buf_fini(&tmp);
	free(s->open);
	free(s);
}
