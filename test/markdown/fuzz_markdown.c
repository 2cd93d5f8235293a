// SPDX-License-Identifier: MIT
/*
 * fuzz_markdown.c - fuzz harness of the Markdown glue and the YAML
 * readers: the input is rendered as page text and as comment text
 * against a small graph, and read as quire.yml. The first byte's low bit
 * lets raw HTML through; the rest is the text.
 */
#include <string.h>

#include <cmark-gfm-core-extensions.h>
#include <libxml/HTMLtree.h>
#include <libxml/parser.h>

#include "../fuzz/fuzz.h"
#include "graph/graph.h"
#include "markdown/markdown.h"

static struct qu_param members[] = {
	{"baz", "int", "a member", 3},
};
static struct qu_item items[] = {
	{QU_KIND_STRUCT, "bar", "a struct", "struct bar { int baz; }", members,
	 1, NULL, 0, 1, 4, NULL},
	{QU_KIND_FUNCTION, "foo", "a function", "int foo(void)", NULL, 0, NULL,
	 0, 7, 9, NULL},
};

/* The graph and contexts every input shares; built on the first call. */
struct world {
	bool ready;
	struct qu_site site;
	struct qu_page page;
	struct qu_part part;
	struct qu_unit unit;
	struct qu_graph g;
	struct qu_diags diags;
	struct qu_md *md;
	struct qu_md *raw;
};

static struct world w;

static void setup(void)
{
	static const char *sources[] = {"x.h"};

	xmlInitParser();
	cmark_gfm_core_extensions_ensure_registered();
	qu_arena_init(&w.site.arena);
	qu_diags_init(&w.diags);
	w.part.kind = QU_PART_KDOC;
	w.part.sel.path = "x.h";
	w.page.out = "a/index.html";
	w.page.title = "Fuzz";
	w.page.diag_path = "fuzz.md";
	w.page.src = "a/index.md";
	w.page.parent = QU_NONE;
	w.page.parts = &w.part;
	w.page.nparts = 1;
	w.site.pages = &w.page;
	w.site.npages = 1;
	w.site.root = ".";
	w.site.srctree = ".";
	w.site.sources = sources;
	w.site.nsources = 1;
	w.unit.path = "x.h";
	w.unit.items = items;
	w.unit.nitems = QU_ARRAY_SIZE(items);
	qu_graph_build(&w.g, &w.site, &w.unit, NULL, NULL, &w.diags, 1);
	w.md = qu_md_new(false);
	w.raw = qu_md_new(true);
	w.ready = true;
}

static void render(const char *text, size_t len, bool comment, bool raw)
{
	htmlDocPtr doc = htmlNewDocNoDtD(NULL, NULL);
	xmlNodePtr div = xmlNewDocNode(doc, NULL, BAD_CAST "div", NULL);
	xmlBufferPtr buf = xmlBufferCreate();
	struct qu_diags diags;
	struct qu_md_ctx ctx;

	qu_diags_init(&diags);
	xmlDocSetRootElement(doc, div);
	memset(&ctx, 0, sizeof(ctx));
	ctx.md = raw ? w.raw : w.md;
	ctx.g = &w.g;
	ctx.doc = doc;
	ctx.diags = &diags;
	ctx.path = "fuzz.md";
	ctx.from.page = 0;
	ctx.from.file = comment ? "x.h" : NULL;
	ctx.from.sym = comment ? 0 : QU_NONE;
	ctx.comment = comment;
	ctx.heading_min = comment ? 5 : 1;
	qu_md_render(&ctx, div, text, len, 1);
	qu_md_render_inline(&ctx, div, text, len, 1);
	htmlNodeDump(buf, doc, div);
	/* every warning has a place and a text */
	for (size_t i = 0; i < diags.n; i++)
		if (!diags.v[i].line || !diags.v[i].msg[0])
			__builtin_trap();
	xmlBufferFree(buf);
	xmlFreeDoc(doc);
	qu_diags_fini(&diags);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qu_config cfg;
	struct qu_diags diags;
	const char *text = (const char *)data + (size ? 1 : 0);
	size_t len = size ? size - 1 : 0;
	bool raw = size && (data[0] & 1);

	if (!w.ready)
		setup();
	render(text, len, false, raw);
	render(text, len, true, raw);
	memset(&cfg, 0, sizeof(cfg));
	qu_diags_init(&diags);
	qu_site_config_parse(&cfg, &diags, "quire.yml", text, len);
	qu_config_fini(&cfg);
	qu_diags_fini(&diags);
	return 0;
}
