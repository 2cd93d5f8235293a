// SPDX-License-Identifier: MIT
/*
 * serialize.c - qu_render_serialize() against libxml2's HTML writer
 *
 * Every HTML file named on the command line is parsed as the theme
 * template is, then written by both; so is a document built here with
 * what a parser never makes (control characters, unescaped text, CDATA,
 * entity references, namespaces, attributes without a value). The bytes
 * must be the same. Then a declaration's markup, which lib/render writes
 * as text (render_decl_markup()), against the nodes of the same code
 * highlighted by qu_md_highlight_c() and written by qu_render_serialize(),
 * and the r_html_*() writers against the nodes r_el(), r_text() and
 * r_attr() make of hostile text.
 *
 * usage: test-serialize FILE.html...
 */
#include <stdio.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/parserInternals.h>

#include "markdown/markdown.h"
#include "render/render.h"
#include "render/render_int.h"

static int compare(xmlDocPtr doc, const char *what)
{
	struct qu_buf mine = QU_BUF_INIT;
	xmlOutputBufferPtr ob = xmlAllocOutputBuffer(NULL);
	const char *theirs;
	size_t len;
	int r = 0;

	qu_render_serialize(&mine, doc);
	htmlDocContentDumpFormatOutput(ob, doc, "UTF-8", 0);
	xmlOutputBufferFlush(ob);
	theirs = (const char *)xmlOutputBufferGetContent(ob);
	len = xmlOutputBufferGetSize(ob);
	if (len != mine.len || memcmp(theirs, mine.buf, len)) {
		fprintf(stderr,
			"%s: differs\n--- libxml2\n%.*s\n--- quire\n%s\n", what,
			(int)len, theirs, mine.buf);
		r = 1;
	}
	xmlOutputBufferClose(ob);
	qu_buf_fini(&mine);
	return r;
}

static xmlNodePtr el(xmlDocPtr doc, xmlNodePtr parent, const char *name)
{
	xmlNodePtr n = xmlNewDocNode(doc, NULL, BAD_CAST name, NULL);

	xmlAddChild(parent, n);
	return n;
}

/* What the parser does not make, built by hand. */
static int built(void)
{
	xmlDocPtr doc = htmlNewDoc(BAD_CAST "http://www.w3.org/TR/html4/x.dtd",
				   BAD_CAST "-//W3C//DTD HTML 4.0//EN");
	xmlNodePtr html = el(doc, NULL, "html"), body, p, t, s;
	xmlNsPtr ns;
	int r;

	xmlDocSetRootElement(doc, html);
	body = el(doc, html, "body");
	p = el(doc, body, "p");
	xmlAddChild(p, xmlNewDocText(doc, BAD_CAST "ctl\x01\x02 cr\r tab\t "
						   "del\x7f <&> \xc3\xbc"));
	t = xmlNewDocText(doc, BAD_CAST "<b>raw & as is</b>");
	t->name = xmlStringTextNoenc;
	xmlAddChild(p, t);
	xmlAddChild(p, xmlNewCDataBlock(doc, BAD_CAST "<cdata>", 7));
	xmlAddChild(p, xmlNewReference(doc, BAD_CAST "&nbsp;"));
	xmlAddChild(p, xmlNewDocComment(doc, BAD_CAST " note "));
	xmlAddChild(p, xmlNewDocPI(doc, BAD_CAST "pi", BAD_CAST "data"));
	xmlAddChild(p, xmlNewDocPI(doc, BAD_CAST "pi2", NULL));
	xmlSetProp(p, BAD_CAST "novalue", NULL);
	xmlSetProp(p, BAD_CAST "empty", BAD_CAST "");
	xmlSetProp(p, BAD_CAST "title",
		   BAD_CAST "ctl\x01 \"both\" 'kinds' "
			    "<!-- a --> &{b} & < >");
	xmlSetProp(p, BAD_CAST "HREF", BAD_CAST "\t\n x\r\x01y\"z'\xc3\xbc");
	xmlSetProp(p, BAD_CAST "nowrap", BAD_CAST "nowrap");
	s = el(doc, body, "Script");
	xmlAddChild(s, xmlNewDocText(doc, BAD_CAST "a < b && c"));
	s = el(doc, body, "svg");
	ns = xmlNewNs(s, BAD_CAST "http://www.w3.org/2000/svg", BAD_CAST "s");
	xmlNewNs(s, BAD_CAST "http://example.org/\"q\"", NULL);
	xmlSetNs(s, ns);
	t = el(doc, s, "g");
	xmlSetNs(t, ns);
	xmlSetNsProp(t, ns, BAD_CAST "href", BAD_CAST "a b");
	xmlAddChild(t, xmlNewDocText(doc, BAD_CAST "in <ns>"));
	el(doc, body, "br");
	el(doc, el(doc, body, "br"), "i");
	el(doc, body, "html");
	el(doc, body, "BODY");
	el(doc, body, "P");
	r = compare(doc, "built");
	xmlFreeDoc(doc);
	return r;
}

/* The <code> element's children as qu_render_serialize() writes them. */
static void code_children(struct qu_buf *out, xmlDocPtr doc, xmlNodePtr code)
{
	struct qu_buf all = QU_BUF_INIT;
	const char *a, *b;

	qu_render_serialize(&all, doc);
	a = strstr(all.buf, "<code>");
	b = a ? strstr(a, "</code>") : NULL;
	if (a && b)
		qu_buf_add(out, a + 6, (size_t)(b - a - 6));
	qu_buf_fini(&all);
	(void)code;
}

/* Declarations written as text against the same code as nodes. */
static int decls(void)
{
	static const char *const code[] = {
		"int f(struct a *b, char c[4])",
		"#define MAX(a, b) ((a) < (b) ? (b) : (a)) /* <x> & \"y\" */",
		"const char *s = \"a<b&c>\"; char q = '<';",
		"void g(u8 \xff\xfe bad, int \x01ctl\x1f\x7f)",
		"struct \xc3\xbc\xe2\x82\xac { int x; }\t\r\n\t;",
		"enum e { A = 1 << 3, B = A & ~0 };",
		"\xe2\x82 cut \xf0\x9f\x98",
		"",
	};
	size_t i;
	int r = 0;

	for (i = 0; i < sizeof(code) / sizeof(code[0]); i++) {
		xmlDocPtr doc = htmlNewDoc(NULL, NULL);
		xmlNodePtr html = el(doc, NULL, "html");
		xmlNodePtr c;
		struct qu_buf nodes = QU_BUF_INIT, text = QU_BUF_INIT;

		xmlDocSetRootElement(doc, html);
		c = el(doc, el(doc, el(doc, html, "body"), "pre"), "code");
		qu_md_highlight_c(doc, c, code[i], strlen(code[i]));
		code_children(&nodes, doc, c);
		render_decl_markup(&text, NULL, code[i], NULL, NULL);
		if (nodes.len != text.len ||
		    (nodes.len && memcmp(nodes.buf, text.buf, nodes.len))) {
			fprintf(stderr,
				"declaration %zu: differs\n--- nodes\n%s\n"
				"--- text\n%s\n",
				i, nodes.len ? nodes.buf : "",
				text.len ? text.buf : "");
			r = 1;
		}
		qu_buf_fini(&nodes);
		qu_buf_fini(&text);
		xmlFreeDoc(doc);
	}
	return r;
}

/* r_html_*() against r_el(), r_text() and r_attr() on hostile text. */
static int markup(void)
{
	static const char *const text[] = {
		"plain", "<b>&amp; \"q\" 'a'", "ctl\x01\x1f\x7f tab\t nl\n cr\r",
		"bad \xff\xc3 \xed\xa0\x80 \xf4\x90\x80\x80 ok \xc3\xbc",
		" \t https://x.org/a b?c=<d>&e#f", "",
	};
	size_t i;
	int r = 0;

	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		xmlDocPtr doc = htmlNewDoc(NULL, NULL);
		xmlNodePtr html = el(doc, NULL, "html"), body, a;
		struct qu_buf nodes = QU_BUF_INIT, made = QU_BUF_INIT;
		const char *b, *e;

		xmlDocSetRootElement(doc, html);
		body = el(doc, html, "body");
		r_text(doc, r_el(doc, body, "code", "qu-x"), text[i]);
		a = r_el(doc, body, "a", NULL);
		r_attr(a, "href", text[i]);
		r_attr(a, "title", text[i]);
		r_text(doc, a, text[i]);
		qu_render_serialize(&nodes, doc);
		b = strstr(nodes.buf, "<body>");
		e = b ? strstr(b, "</body>") : NULL;
		r_html_open(&made, "code", "qu-x");
		r_html_text(&made, text[i]);
		r_html_close(&made, "code");
		qu_buf_adds(&made, "<a");
		r_html_attr(&made, "href", true, text[i]);
		r_html_attr(&made, "title", false, text[i]);
		qu_buf_addc(&made, '>');
		r_html_text(&made, text[i]);
		r_html_close(&made, "a");
		if (!b || !e || (size_t)(e - b - 6) != made.len ||
		    memcmp(b + 6, made.buf, made.len)) {
			fprintf(stderr,
				"markup %zu: differs\n--- nodes\n%.*s\n"
				"--- text\n%s\n",
				i, b && e ? (int)(e - b - 6) : 0, b ? b + 6 : "",
				made.buf);
			r = 1;
		}
		qu_buf_fini(&nodes);
		qu_buf_fini(&made);
		xmlFreeDoc(doc);
	}
	return r;
}

int main(int argc, char **argv)
{
	int i, r = 0;

	xmlInitParser();
	for (i = 1; i < argc; i++) {
		struct qu_buf b = QU_BUF_INIT, err = QU_BUF_INIT;
		xmlDocPtr doc;

		if (qu_file_read(&b, argv[i], &err) < 0) {
			fprintf(stderr, "%s\n", err.buf);
			return 2;
		}
		doc = htmlReadMemory(b.buf, (int)b.len, argv[i], "UTF-8",
				     HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
					     HTML_PARSE_NONET);
		if (!doc) {
			fprintf(stderr, "%s: cannot parse\n", argv[i]);
			return 2;
		}
		r |= compare(doc, argv[i]);
		xmlFreeDoc(doc);
		qu_buf_fini(&b);
		qu_buf_fini(&err);
	}
	r |= built();
	r |= decls();
	r |= markup();
	xmlCleanupParser();
	return r;
}
