// SPDX-License-Identifier: MIT
/*
 * dom.c - the few ways lib/markdown makes libxml2 nodes (markdown stage)
 *
 * Text goes in as text nodes, so the serializer escapes it; bytes that
 * are not valid UTF-8 or are control characters become U+FFFD first,
 * because HTML cannot carry them. Raw HTML (allow_html only) is the one
 * path around escaping.
 */
#include <string.h>

#include <libxml/parserInternals.h>

#include "md_int.h"

/* @name in @doc's dictionary, through its struct qu_md_names */
static xmlChar *intern(xmlDocPtr doc, const char *name)
{
	struct qu_md_names *c = doc->_private;
	size_t h =
		(size_t)(((uint64_t)(uintptr_t)name * 0x9e3779b97f4a7c15ull) >>
			 57) %
		QU_MD_NAMES;
	const xmlChar *v = c->name[h];

	if (c->key[h] == name) {
		const char *k = name;

		/* names are short: compared here, not by strcmp() */
		while (*k && *k == (char)*v)
			k++, v++;
		if (*k == (char)*v)
			return (xmlChar *)c->name[h];
	}
	v = xmlDictLookup(doc->dict, BAD_CAST name, -1);
	if (!v)
		qu_die_oom();
	c->key[h] = name;
	c->name[h] = v;
	return (xmlChar *)v;
}

xmlNodePtr qu_md_el(xmlDocPtr doc, xmlNodePtr parent, const char *name)
{
	/* a name from the dictionary is the node's own, as xmlNewDocNode()
	 * would make it */
	xmlNodePtr n = doc && doc->dict && doc->_private
			       ? xmlNewDocNodeEatName(doc, NULL,
						      intern(doc, name), NULL)
			       : xmlNewDocNode(doc, NULL, BAD_CAST name, NULL);

	if (!n)
		qu_die_oom();
	if (parent && !xmlAddChild(parent, n))
		qu_die_oom();
	return n;
}

/*
 * Whether @n has an attribute @name in no namespace (the one xmlSetProp()
 * would change); *@last gets its last attribute, or NULL.
 */
static bool has_attr(xmlNodePtr n, const char *name, xmlAttrPtr *last)
{
	xmlAttrPtr a;

	*last = NULL;
	for (a = n->properties; a; a = a->next) {
		if (!a->ns && !strcmp((const char *)a->name, name))
			return true;
		*last = a;
	}
	return false;
}

void qu_md_attr(xmlNodePtr n, const char *name, const char *value)
{
	xmlAttrPtr a, last;
	xmlNodePtr t;

	/* a qualified name, no value or a change: xmlSetProp()'s own way */
	if (!value || strchr(name, ':') || has_attr(n, name, &last)) {
		if (!xmlSetProp(n, BAD_CAST name, BAD_CAST value))
			qu_die_oom();
		return;
	}
	/*
	 * What xmlNewPropInternal() does, but for xmlAddID(); with a
	 * struct qu_md_names, the attribute xmlNewDocProp() would make, its
	 * name from there.
	 */
	if (n->doc && n->doc->dict && n->doc->_private) {
		a = xmlMalloc(sizeof(*a));
		if (!a)
			qu_die_oom();
		memset(a, 0, sizeof(*a));
		a->type = XML_ATTRIBUTE_NODE;
		a->name = intern(n->doc, name);
		a->doc = n->doc;
	} else {
		a = xmlNewDocProp(n->doc, BAD_CAST name, NULL);
		if (!a)
			qu_die_oom();
	}
	t = qu_md_text_node(n->doc, value, strlen(value));
	t->parent = (xmlNodePtr)a;
	a->children = a->last = t;
	a->parent = n;
	if (last) {
		last->next = a;
		a->prev = last;
	} else {
		n->properties = a;
	}
}

xmlNodePtr qu_md_text_node(xmlDocPtr doc, const char *s, size_t len)
{
	xmlNodePtr n = xmlNewDocText(doc, NULL);

	if (!n)
		qu_die_oom();
	if (len < 2 * sizeof(void *)) {
		n->content = (xmlChar *)&n->properties;
		memcpy(n->content, s, len);
		n->content[len] = '\0';
	} else {
		n->content = xmlStrndup(BAD_CAST s, (int)len);
		if (!n->content)
			qu_die_oom();
	}
	return n;
}

/* Length of the valid UTF-8 sequence at @s, or 0. */
static size_t utf8_len(const unsigned char *s, size_t len)
{
	size_t n, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

static bool clean(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned char c;
		size_t n;

		/* eight bytes a step: most text is plain ASCII */
		if (i + 8 <= len && qu_ascii8_printable(s + i)) {
			i += 8;
			continue;
		}
		c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f) {
			i++;
			continue;
		}
		if (c == '\n' || c == '\t' || c == '\r') {
			i++;
			continue;
		}
		n = utf8_len((const unsigned char *)s + i, len - i);
		if (!n || c < 0x20 || c == 0x7f)
			return false;
		i += n;
	}
	return true;
}

const char *qu_md_fix_text(struct qu_buf *fixed, const char *s, size_t *len)
{
	size_t i = 0, n = *len;

	if (clean(s, n))
		return s;
	qu_buf_reset(fixed);
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		size_t k = utf8_len((const unsigned char *)s + i, n - i);

		if (!k || (c < 0x20 && c != '\n' && c != '\t' && c != '\r') ||
		    c == 0x7f) {
			qu_buf_adds(fixed, "\xef\xbf\xbd");
			i++;
			continue;
		}
		qu_buf_add(fixed, s + i, k);
		i += k;
	}
	*len = fixed->len;
	return fixed->buf;
}

static void add_text(xmlDocPtr doc, xmlNodePtr parent, const char *s,
		     size_t len, bool raw)
{
	struct qu_buf fixed = QU_BUF_INIT;
	xmlNodePtr n;

	if (!len)
		return;
	s = qu_md_fix_text(&fixed, s, &len);
	n = qu_md_text_node(doc, s, len);
	/* the HTML serializer writes a "textnoenc" node unescaped */
	if (raw)
		n->name = xmlStringTextNoenc;
	if (!xmlAddChild(parent, n))
		qu_die_oom();
	qu_buf_fini(&fixed);
}

void md_text(xmlDocPtr doc, xmlNodePtr parent, const char *s, size_t len)
{
	add_text(doc, parent, s, len, false);
}

void qu_md_raw(xmlDocPtr doc, xmlNodePtr parent, const char *s, size_t len)
{
	add_text(doc, parent, s, len, true);
}

bool qu_md_url_is_safe(const char *url)
{
	static const char *const bad[] = {"javascript:", "vbscript:", "data:"};
	char head[16];
	size_t i, n = 0;

	/* browsers ignore blanks and control bytes inside the scheme */
	for (i = 0; url[i] && n < sizeof(head) - 1; i++) {
		unsigned char c = (unsigned char)url[i];

		if (c <= 0x20)
			continue;
		head[n++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
	}
	head[n] = 0;
	for (i = 0; i < QU_ARRAY_SIZE(bad); i++)
		if (!strncmp(head, bad[i], strlen(bad[i])))
			return false;
	return true;
}
