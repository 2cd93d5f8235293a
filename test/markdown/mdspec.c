// SPDX-License-Identifier: MIT
/*
 * mdspec.c - run lib/markdown's spec-format examples
 *
 * Each file holds examples in cmark's spec format: a line of 32 backticks
 * and "example", the Markdown, a "." line, the HTML expected, a line of
 * 32 backticks. Words after the closing backticks are flags: "comment"
 * renders as kernel-doc comment text, "allow_html" lets raw HTML through.
 * The examples see a graph holding a function foo(), a struct bar with a
 * member baz, an enum constant BAR_ONE and a page heading "intro".
 * QUIRE_REGEN=1 rewrites the expected HTML.
 *
 * usage: mdspec FILE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>
#include <libxml/HTMLtree.h>
#include <libxml/parser.h>

#include "graph/graph.h"
#include "markdown/markdown.h"

#define FENCE "````````````````````````````````"

static struct qu_param bar_members[] = {
	{"baz", "int", "a member", 3},
};
static struct qu_param consts[] = {
	{"BAR_ONE", "", "one", 8},
};
static struct qu_param foo_params[] = {
	{"arg", "int", "an argument", 12},
};
static struct qu_item items[] = {
	{QU_KIND_STRUCT, "bar", "a struct", "struct bar { int baz; }",
	 bar_members, 1, NULL, 0, 1, 4, NULL},
	{QU_KIND_ENUM, "bar_kind", "kinds", "enum bar_kind { BAR_ONE }", consts,
	 1, NULL, 0, 7, 9, NULL},
	{QU_KIND_FUNCTION, "foo", "a function", "int foo(int arg)", foo_params,
	 1, NULL, 0, 11, 14, "EXPORT_SYMBOL"},
};

static void render(struct qu_buf *out, struct qu_md *md,
		   const struct qu_graph *g, const char *text, size_t len,
		   bool comment)
{
	htmlDocPtr doc = htmlNewDocNoDtD(NULL, NULL);
	xmlNodePtr div = xmlNewDocNode(doc, NULL, BAD_CAST "div", NULL);
	xmlOutputBufferPtr ob = xmlAllocOutputBuffer(NULL);
	struct qu_diags diags;
	struct qu_md_ctx ctx;
	xmlNodePtr c;
	size_t i;

	qu_diags_init(&diags);
	xmlDocSetRootElement(doc, div);
	memset(&ctx, 0, sizeof(ctx));
	ctx.md = md;
	ctx.g = g;
	ctx.doc = doc;
	ctx.diags = &diags;
	ctx.path = "example.md";
	ctx.from.page = 0;
	ctx.from.file = comment ? "x.h" : NULL;
	ctx.from.sym = QU_NONE;
	ctx.comment = comment;
	ctx.heading_min = comment ? 5 : 1;
	qu_md_render(&ctx, div, text, len, 1);
	for (c = div->children; c; c = c->next)
		htmlNodeDumpFormatOutput(ob, doc, c, "UTF-8", 0);
	xmlOutputBufferFlush(ob);
	qu_buf_add(out, xmlOutputBufferGetContent(ob),
		   xmlOutputBufferGetSize(ob));
	while (out->len && out->buf[out->len - 1] == '\n')
		out->buf[--out->len] = 0;
	qu_buf_addc(out, '\n');
	/* warnings become part of the expected output */
	qu_diags_sort(&diags);
	for (i = 0; i < diags.n; i++)
		qu_buf_addf(out, "! %u: %s [-W%s]\n", diags.v[i].line,
			    diags.v[i].msg, qu_diag_info(diags.v[i].id)->name);
	xmlOutputBufferClose(ob);
	xmlFreeDoc(doc);
	qu_diags_fini(&diags);
}

static int run_file(const char *path, struct qu_md *md, struct qu_md *raw,
		    const struct qu_graph *g, bool regen)
{
	struct qu_buf text = QU_BUF_INIT, err = QU_BUF_INIT;
	struct qu_buf out = QU_BUF_INIT;
	const char *p, *end;
	int fails = 0, n = 0;

	if (qu_file_read(&text, path, &err) < 0) {
		fprintf(stderr, "%s\n", err.buf);
		return 1;
	}
	p = text.buf;
	end = text.buf + text.len;
	while (p < end) {
		const char *open = strstr(p, FENCE " example\n");
		const char *in, *dot, *want, *close, *flags, *eol;
		struct qu_buf got = QU_BUF_INIT;
		bool comment, allow;

		if (!open) {
			qu_buf_add(&out, p, (size_t)(end - p));
			break;
		}
		in = open + strlen(FENCE " example\n");
		dot = strstr(in, "\n.\n");
		if (in[0] == '.' && in[1] == '\n')
			dot = in - 1;
		close = dot ? strstr(dot + 3, FENCE) : NULL;
		if (!dot || !close) {
			fprintf(stderr, "%s: unterminated example\n", path);
			return 1;
		}
		want = dot + 3;
		flags = close + strlen(FENCE);
		eol = strchr(flags, '\n');
		if (!eol)
			eol = end;
		comment = memmem(flags, (size_t)(eol - flags), "comment", 7);
		allow = memmem(flags, (size_t)(eol - flags), "allow_html", 10);
		n++;
		render(&got, allow ? raw : md, g, in,
		       dot + 1 > in ? (size_t)(dot + 1 - in) : 0, comment);
		if (!regen && (got.len != (size_t)(close - want) ||
			       memcmp(got.buf, want, got.len))) {
			fails++;
			printf("FAIL %s example %d\n--- expected\n%.*s--- "
			       "got\n%s",
			       path, n, (int)(close - want), want, got.buf);
		}
		qu_buf_add(&out, p, (size_t)(want - p));
		qu_buf_add(&out, got.buf, got.len);
		qu_buf_add(&out, close, (size_t)(eol - close));
		if (eol < end)
			qu_buf_addc(&out, '\n');
		p = eol < end ? eol + 1 : end;
		qu_buf_fini(&got);
	}
	if (regen && qu_file_write_atomic(path, out.buf, out.len, &err) < 0)
		fprintf(stderr, "%s\n", err.buf);
	printf("%s %s: %d examples\n", fails ? "FAIL" : "ok  ", path, n);
	qu_buf_fini(&text);
	qu_buf_fini(&out);
	qu_buf_fini(&err);
	return fails ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const char *sources[] = {"x.h"};
	struct qu_site site;
	struct qu_page page;
	struct qu_part part;
	struct qu_heading heading = {"Intro", "intro", 2, 1, false};
	struct qu_unit unit;
	struct qu_graph g;
	struct qu_diags diags;
	struct qu_md *md, *raw;
	bool regen =
		getenv("QUIRE_REGEN") && !strcmp(getenv("QUIRE_REGEN"), "1");
	int i, ret = 0;

	xmlInitParser();
	cmark_gfm_core_extensions_ensure_registered();
	memset(&site, 0, sizeof(site));
	memset(&page, 0, sizeof(page));
	memset(&part, 0, sizeof(part));
	memset(&unit, 0, sizeof(unit));
	qu_arena_init(&site.arena);
	qu_diags_init(&diags);
	part.kind = QU_PART_KDOC;
	part.sel.path = "x.h";
	page.out = "index.html";
	page.title = "Example";
	page.diag_path = "example.md";
	page.parent = QU_NONE;
	page.parts = &part;
	page.nparts = 1;
	page.headings = &heading;
	page.nheadings = 1;
	site.pages = &page;
	site.npages = 1;
	site.root = ".";
	site.srctree = ".";
	site.sources = sources;
	site.nsources = 1;
	unit.path = "x.h";
	unit.items = items;
	unit.nitems = QU_ARRAY_SIZE(items);
	memset(&g, 0, sizeof(g));
	qu_graph_build(&g, &site, &unit, NULL, NULL, &diags, 1);
	md = qu_md_new(false);
	raw = qu_md_new(true);
	for (i = 1; i < argc; i++)
		ret |= run_file(argv[i], md, raw, &g, regen);
	qu_md_free(md);
	qu_md_free(raw);
	qu_graph_fini(&g);
	qu_diags_fini(&diags);
	qu_arena_fini(&site.arena);
	return ret;
}
