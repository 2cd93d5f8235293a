/* SPDX-License-Identifier: MIT */
/*
 * graph.c - DOT drawn as SVG with graphviz's libgvc (part of lib/render)
 *
 * What the kernel's kfigure.py does with dot(1), in-process: the
 * graphs of kernel-figure (.dot files, drawn by lib/build before the
 * pages) and of kernel-render (rst_directive.c, while a page renders).
 */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <graphviz/gvc.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "render/render_int.h"

/*
 * quire does not link graphviz: gv_load() opens libcgraph and libgvc
 * the first time a graph is drawn. What graphviz.def lists is reached
 * through gv_fns, typed from graphviz's own declarations; the functions
 * keep their names through the macros below, the one variable is
 * written gv_fns.AgMemDisc.
 */
static struct gv_fns {
#define GVC_FN(sym) __typeof__(sym) *sym;
#define CGRAPH_FN(sym) __typeof__(sym) *sym;
#include "graphviz.def"
#undef GVC_FN
#undef CGRAPH_FN
} gv_fns;

static const struct qu_dl_sym gvc_syms[] = {
#define GVC_FN(sym) QU_DL_SYM(struct gv_fns, sym),
#define CGRAPH_FN(sym)
#include "graphviz.def"
#undef GVC_FN
#undef CGRAPH_FN
};

static const struct qu_dl_sym cgraph_syms[] = {
#define GVC_FN(sym)
#define CGRAPH_FN(sym) QU_DL_SYM(struct gv_fns, sym),
#include "graphviz.def"
#undef GVC_FN
#undef CGRAPH_FN
};

/* the process's one graphviz, as the library itself is */
static struct qu_dl cgraph_lib =
	QU_DL_INIT(QU_LIBCGRAPH_SONAME, cgraph_syms, &gv_fns);
static struct qu_dl gvc_lib = QU_DL_INIT(QU_LIBGVC_SONAME, gvc_syms, &gv_fns);

#define gvContext(...) (gv_fns.gvContext)(__VA_ARGS__)
#define gvFreeLayout(...) (gv_fns.gvFreeLayout)(__VA_ARGS__)
#define gvFreeRenderData(...) (gv_fns.gvFreeRenderData)(__VA_ARGS__)
#define gvLayout(...) (gv_fns.gvLayout)(__VA_ARGS__)
#define gvRenderData(...) (gv_fns.gvRenderData)(__VA_ARGS__)
#define agattr(...) (gv_fns.agattr)(__VA_ARGS__)
#define agclose(...) (gv_fns.agclose)(__VA_ARGS__)
#define agfstnode(...) (gv_fns.agfstnode)(__VA_ARGS__)
#define agfstout(...) (gv_fns.agfstout)(__VA_ARGS__)
#define agfstsubg(...) (gv_fns.agfstsubg)(__VA_ARGS__)
#define aghtmlstr(...) (gv_fns.aghtmlstr)(__VA_ARGS__)
#define agnxtnode(...) (gv_fns.agnxtnode)(__VA_ARGS__)
#define agnxtout(...) (gv_fns.agnxtout)(__VA_ARGS__)
#define agnxtsubg(...) (gv_fns.agnxtsubg)(__VA_ARGS__)
#define agread(...) (gv_fns.agread)(__VA_ARGS__)
#define agreadline(...) (gv_fns.agreadline)(__VA_ARGS__)
#define agseterrf(...) (gv_fns.agseterrf)(__VA_ARGS__)
#define agxget(...) (gv_fns.agxget)(__VA_ARGS__)

/* libgvc needs libcgraph: opened first, a missing one is named as such */
static int gv_load(struct qu_buf *msg)
{
	static const char need[] = "to draw graphs";

	if (qu_dl_load(&cgraph_lib, need, msg) < 0 ||
	    qu_dl_load(&gvc_lib, need, msg) < 0)
		return -1;
	return 0;
}

/*
 * graphviz's state is the process's (its DOT parser, the error hook, the
 * attribute dictionaries, its plugins' font caches), so quire's handle
 * on it is too: one context for the life of the process, every call
 * into graphviz under @gv_lock. A context made after another was freed
 * reads the first one's freed font names (ASan, in build-incremental's
 * builds in one process), so the context is never freed. The error hook
 * takes no payload: @gv_msg is where it writes, set under @gv_lock.
 */
static pthread_mutex_t gv_lock = PTHREAD_MUTEX_INITIALIZER;
static GVC_t *gv_ctx;
static bool gv_failed;
static struct qu_buf *gv_msg;

/*
 * graphviz hands a message over in pieces, "Error", ": ", then the text
 * ending in a newline; the level is left out (the diagnostic has its
 * own) and messages are joined by "; ".
 */
static int gv_error(char *s)
{
	if (!gv_msg || !strcmp(s, "Error") || !strcmp(s, "Warning") ||
	    !strcmp(s, ": "))
		return 0;
	if (gv_msg->len && gv_msg->buf[gv_msg->len - 1] == '\n') {
		gv_msg->buf[--gv_msg->len] = 0;
		qu_buf_adds(gv_msg, "; ");
	}
	qu_buf_adds(gv_msg, s);
	return 0;
}

/*
 * Attributes that make graphviz open a file: a node's picture
 * (image, shapefile), the folders it looks in (imagepath, fontpath) and
 * an SVG's stylesheet, which the drawing would link. A graph naming
 * any is not drawn: the DOT comes from the tree, and the site must not
 * show (or read) a file the build was not asked to.
 */
static const char *const file_attrs[] = {
	"image", "shapefile", "imagepath", "fontpath", "stylesheet",
};

/* An HTML-like label with <IMG SRC=...> reads its file too. */
static bool html_img(Agraph_t *g, void *obj, Agsym_t *sym)
{
	char *v = agxget(obj, sym);

	return v && aghtmlstr(v) && strcasestr(v, "<img");
}

static const char *label_attrs[] = {
	"label", "xlabel", "headlabel", "taillabel",
};

/*
 * The first attribute of @g that names a file, or NULL; "IMG" for an
 * HTML label's.
 */
static const char *names_file(Agraph_t *g)
{
	static const int kinds[] = {AGRAPH, AGNODE, AGEDGE};
	Agraph_t *sub;
	Agnode_t *n;
	Agedge_t *e;
	size_t i, k;

	for (k = 0; k < QU_ARRAY_SIZE(kinds); k++)
		for (i = 0; i < QU_ARRAY_SIZE(file_attrs); i++)
			if (agattr(g, kinds[k], (char *)file_attrs[i], NULL))
				return file_attrs[i];
	for (i = 0; i < QU_ARRAY_SIZE(label_attrs); i++) {
		Agsym_t *gs = agattr(g, AGRAPH, (char *)label_attrs[i], NULL);
		Agsym_t *ns = agattr(g, AGNODE, (char *)label_attrs[i], NULL);
		Agsym_t *es = agattr(g, AGEDGE, (char *)label_attrs[i], NULL);

		if (gs && html_img(g, g, gs))
			return "IMG";
		for (sub = agfstsubg(g); gs && sub; sub = agnxtsubg(sub))
			if (html_img(g, sub, gs))
				return "IMG";
		for (n = agfstnode(g); n; n = agnxtnode(g, n)) {
			if (ns && html_img(g, n, ns))
				return "IMG";
			for (e = agfstout(g, n); es && e; e = agnxtout(g, e))
				if (html_img(g, e, es))
					return "IMG";
		}
	}
	return NULL;
}

/*
 * Ids by order of appearance. cgraph's own discipline makes a name's id
 * the address of its interned copy, and keeps subgraphs in id order: the
 * clusters of one graph came out in a different order from run to run.
 * Here a name's id is 2 * (1 + its index in @names) and an anonymous
 * object's the next odd number, as cgraph tells the two apart; the
 * same DOT gives the same ids, hence the same SVG bytes.
 */
struct read_disc {
	Agdisc_t disc;		/* first: cgraph hands it back to open() */
	Agiddisc_t id;
	Agiodisc_t io;
	const char *text;	/* the DOT being read */
	size_t len, pos;
	struct qu_map ids;	/* name -> (uintptr_t) 1 + its index */
	struct qu_arena arena;	/* the names */
	char **names;
	size_t nnames;
	IDTYPE anon;
};

static void *id_open(Agraph_t *g, Agdisc_t *disc)
{
	return disc;
}

static long id_map(void *state, int objtype, char *str, IDTYPE *id,
		   int createflag)
{
	struct read_disc *rd = state;
	struct qu_map_slot *slot;
	bool added;

	if (!str) {
		*id = rd->anon;
		rd->anon += 2;
		return 1;
	}
	if (!createflag) {
		uintptr_t k = (uintptr_t)qu_map_get(&rd->ids, str, strlen(str));

		if (!k)
			return 0;
		*id = (IDTYPE)k * 2;
		return 1;
	}
	slot = qu_map_intern(&rd->ids, str, strlen(str), &rd->arena, &added);
	if (added) {
		rd->names = qu_xgrow(rd->names, rd->nnames, sizeof(*rd->names));
		rd->names[rd->nnames++] = (char *)slot->key;
		slot->value = (void *)(uintptr_t)rd->nnames;
	}
	*id = (IDTYPE)(uintptr_t)slot->value * 2;
	return 1;
}

static long id_alloc(void *state, int objtype, IDTYPE id)
{
	return 0;
}

static void id_free(void *state, int objtype, IDTYPE id)
{
}

static char *id_print(void *state, int objtype, IDTYPE id)
{
	struct read_disc *rd = state;

	if (id % 2 || id / 2 - 1 >= rd->nnames)
		return NULL;
	return rd->names[id / 2 - 1];
}

static void id_close(void *state)
{
}

static void id_register(void *state, int objtype, void *obj)
{
}

/* The DOT a line at a time, as agmemread()'s reader gives it. */
static int io_read(void *chan, char *buf, int bufsize)
{
	struct read_disc *rd = chan;
	size_t n = 0;

	if (bufsize <= 0)
		return 0;
	while (rd->pos < rd->len && n < (size_t)bufsize) {
		char c = rd->text[rd->pos++];

		buf[n++] = c;
		if (c == '\n')
			break;
	}
	return (int)n;
}

static int io_put(void *chan, const char *str)
{
	return 0;
}

static int io_flush(void *chan)
{
	return 0;
}

static void read_disc_init(struct read_disc *rd, const char *text, size_t len)
{
	memset(rd, 0, sizeof(*rd));
	rd->id = (Agiddisc_t){
		.open = id_open,   .map = id_map,     .alloc = id_alloc,
		.free = id_free,   .print = id_print, .close = id_close,
		.idregister = id_register,
	};
	rd->io = (Agiodisc_t){
		.afread = io_read, .putstr = io_put, .flush = io_flush};
	rd->disc.mem = gv_fns.AgMemDisc;
	rd->disc.id = &rd->id;
	rd->disc.io = &rd->io;
	rd->text = text;
	rd->len = len;
	rd->anon = 1;
	qu_map_init(&rd->ids);
	qu_arena_init(&rd->arena);
}

static void read_disc_fini(struct read_disc *rd)
{
	qu_map_fini(&rd->ids);
	qu_arena_fini(&rd->arena);
	free(rd->names);
}

/* graphviz's messages as one line: "syntax error in line 2 near ';'". */
static void tidy(struct qu_buf *msg, uint32_t *line_out)
{
	const char *l;
	size_t i, o = 0;
	bool sp = false;

	for (i = 0; i < msg->len; i++) {
		char c = msg->buf[i];

		if (c == '\n' || c == '\t' || c == '\r')
			c = ' ';
		if (c == ' ' && (sp || !o))
			continue;
		sp = c == ' ';
		msg->buf[o++] = c;
	}
	while (o && msg->buf[o - 1] == ' ')
		o--;
	msg->buf[o] = 0;
	msg->len = o;
	l = strstr(msg->buf, "in line ");
	if (l && line_out) {
		unsigned long v = strtoul(l + 8, NULL, 10);

		*line_out = v && v < UINT32_MAX ? (uint32_t)v : 0;
	}
}

static const char *svg_walk(xmlNodePtr n, int depth)
{
	const char *why;
	xmlAttrPtr a;

	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (depth > 256)
			return "elements nested too deep to check";
		if (!xmlStrcasecmp(n->name, (const xmlChar *)"script"))
			return "a <script> element";
		if (!xmlStrcasecmp(n->name, (const xmlChar *)"foreignObject"))
			return "a <foreignObject> element";
		for (a = n->properties; a; a = a->next) {
			xmlChar *v;
			bool bad;

			if (!xmlStrncasecmp(a->name, (const xmlChar *)"on", 2))
				return "an on* attribute";
			if (xmlStrcasecmp(a->name, (const xmlChar *)"href") &&
			    xmlStrcasecmp(a->name, (const xmlChar *)"src") &&
			    xmlStrcasecmp(a->name, (const xmlChar *)"to") &&
			    xmlStrcasecmp(a->name, (const xmlChar *)"values") &&
			    xmlStrcasecmp(a->name, (const xmlChar *)"from"))
				continue;
			v = xmlNodeListGetString(n->doc, a->children, 1);
			bad = v && !qu_md_url_is_safe((const char *)v);
			xmlFree(v);
			if (bad)
				return "a link to an unsafe URL";
		}
		if ((why = svg_walk(n->children, depth + 1)))
			return why;
	}
	return NULL;
}

const char *qu_render_svg_unsafe(const char *svg, size_t len)
{
	xmlDocPtr doc;
	const char *why;

	if (len > INT_MAX)
		return "too large to check";
	doc = xmlReadMemory(svg, (int)len, "picture.svg", NULL,
			    XML_PARSE_NONET | XML_PARSE_NOERROR |
				    XML_PARSE_NOWARNING);
	if (!doc)
		return "not well-formed XML, which cannot be checked";
	why = svg_walk(xmlDocGetRootElement(doc), 0);
	xmlFreeDoc(doc);
	return why;
}

int qu_render_dot(struct qu_buf *svg, struct qu_buf *msg, uint32_t *line_out,
		  const char *dot, size_t len)
{
	struct qu_buf text = QU_BUF_INIT;
	struct read_disc rd;
	Agraph_t *g = NULL;
	const char *file;
	char *data = NULL;
	unsigned dlen = 0;
	bool laid = false;
	int ret = -1;

	*line_out = 0;
	if (gv_load(msg) < 0)
		return -1;
	/* agmemread() reads a C string: a NUL ends the DOT there */
	qu_buf_add(&text, dot, len);
	read_disc_init(&rd, text.buf, strlen(text.buf));
	pthread_mutex_lock(&gv_lock);
	gv_msg = msg;
	agseterrf(gv_error);
	if (!gv_ctx && !gv_failed) {
		gv_ctx = gvContext();
		gv_failed = !gv_ctx;
	}
	if (!gv_ctx) {
		qu_buf_adds(msg, "graphviz could not start");
		goto out;
	}
	/* the line count is graphviz's too, and goes on from the last read */
	agreadline(1);
	g = agread(&rd, &rd.disc);
	if (!g) {
		if (!msg->len)
			qu_buf_adds(msg, "graphviz could not read it");
		goto out;
	}
	file = names_file(g);
	if (file) {
		qu_buf_reset(msg);
		if (!strcmp(file, "IMG"))
			qu_buf_adds(msg, "an HTML label's IMG names a file");
		else
			qu_buf_addf(msg, "its attribute '%s' names a file",
				    file);
		ret = -2;
		goto out;
	}
	if (gvLayout(gv_ctx, g, "dot") != 0) {
		if (!msg->len)
			qu_buf_adds(msg, "graphviz could not lay it out");
		goto out;
	}
	laid = true;
	if (gvRenderData(gv_ctx, g, "svg", &data, &dlen) != 0 || !data) {
		if (!msg->len)
			qu_buf_adds(msg, "graphviz could not write the SVG");
		goto out;
	}
	{
		const char *why = qu_render_svg_unsafe(data, dlen);

		if (why) {
			qu_buf_reset(msg);
			qu_buf_addf(msg, "its drawing holds %s", why);
			ret = -2;
			goto out;
		}
	}
	qu_buf_add(svg, data, dlen);
	ret = 0;
out:
	if (data)
		gvFreeRenderData(data);
	if (laid)
		gvFreeLayout(gv_ctx, g);
	if (g)
		agclose(g);
	agseterrf(NULL);
	gv_msg = NULL;
	pthread_mutex_unlock(&gv_lock);
	read_disc_fini(&rd);
	if (ret != -2)
		tidy(msg, line_out);
	qu_buf_fini(&text);
	return ret;
}
