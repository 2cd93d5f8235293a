// SPDX-License-Identifier: MIT
/*
 * serialize.c - qu_render_serialize() against libxml2's HTML writer
 *
 * Every HTML file named on the command line is parsed as the theme
 * template is, then written by both; so is a document built here with
 * what a parser never makes (control characters, unescaped text, CDATA,
 * entity references, namespaces, attributes without a value). The bytes
 * must be the same.
 *
 * usage: test-serialize FILE.html...
 */
#include <stdio.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/parserInternals.h>

#include "render/render.h"

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
	xmlCleanupParser();
	return r;
}
