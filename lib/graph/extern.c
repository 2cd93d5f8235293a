// SPDX-License-Identifier: MIT
/*
 * extern.c - other sites' inventories, to link into (graph stage)
 *
 * quire.yml's intersphinx: names sites by base URL and a local copy of
 * their objects.inv (lib/site reads the bytes). qu_graph_build() parses
 * each here, once: Sphinx's version 2 format, four '#' lines then zlib,
 * one "name domain:role priority location display" line per entry. The
 * C domain is kept, and pages and labels (std:doc, std:label). lib/markdown
 * asks qu_graph_extern() for a reference that resolves to no symbol of
 * this site, lib/render qu_graph_extern_std() for a :doc: or :ref: that
 * names no page or label of it.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "graph_int.h"

/* An inventory inflates to this at most: a kernel's is about 4 MB. */
#define MAX_INFLATED (256u << 20)

/* Inflate @len bytes into @out; false when they are not zlib. */
static bool inflate_all(struct qu_buf *out, const char *p, size_t len)
{
	z_stream z;
	int r = Z_OK;

	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return false;
	z.next_in = (Bytef *)p;
	z.avail_in = (uInt)len;
	while (r == Z_OK && out->len < MAX_INFLATED) {
		qu_buf_grow(out, 65536);
		z.next_out = (Bytef *)out->buf + out->len;
		z.avail_out = (uInt)(out->alloc - out->len - 1);
		r = inflate(&z, Z_NO_FLUSH);
		out->len = (size_t)((char *)z.next_out - out->buf);
		out->buf[out->len] = 0;
		if (r == Z_BUF_ERROR && z.avail_in)
			r = Z_OK;
	}
	inflateEnd(&z);
	return r == Z_STREAM_END;
}

static int cmp_ext(const void *a, const void *b)
{
	const struct graph_extern *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * Where a std:doc or std:label entry's name ends: its names may hold
 * blanks (a label made of a section's title), so the role, found as a
 * word, ends it, as Sphinx's own reader splits the line.
 */
static const char *std_end(const char *l, size_t len, const char **role)
{
	static const char *const roles[] = {" std:label ", " std:doc "};
	size_t i;

	for (i = 0; i < QU_ARRAY_SIZE(roles); i++) {
		size_t rl = strlen(roles[i]);
		const char *p;

		for (p = l; (size_t)(p - l) + rl <= len; p++)
			if (*p == ' ' && !memcmp(p, roles[i], rl)) {
				*role = roles[i];
				return p;
			}
	}
	return NULL;
}

/* One line "name domain:role prio location display" into @g. */
static void add_line(struct qu_graph *g, const struct qu_intersphinx *e,
		     uint32_t site, const char *l, size_t len, size_t *alloc)
{
	const char *sp1, *sp2, *sp3, *sp4, *end = l + len, *std = NULL;
	struct qu_buf url = QU_BUF_INIT;
	struct graph_extern *x;

	/* C names hold no blanks: the first blank ends the name */
	sp1 = memchr(l, ' ', len);
	if (sp1 && (size_t)(end - sp1) > 3 && !strncmp(sp1 + 1, "c:", 2))
		;
	else if (!(sp1 = std_end(l, len, &std)))
		return;
	if (!(sp2 = memchr(sp1 + 1, ' ', (size_t)(end - sp1 - 1))) ||
	    !(sp3 = memchr(sp2 + 1, ' ', (size_t)(end - sp2 - 1))))
		return;
	sp4 = memchr(sp3 + 1, ' ', (size_t)(end - sp3 - 1));
	if (!sp4)
		sp4 = end;
	if (sp1 == l || (!std && sp2 - sp1 - 1 < 3))
		return;
	qu_buf_adds(&url, e->url);
	if (url.len && url.buf[url.len - 1] != '/')
		qu_buf_addc(&url, '/');
	if (sp4 > sp3 + 1 && sp4[-1] == '$') {
		qu_buf_add(&url, sp3 + 1, (size_t)(sp4 - sp3 - 2));
		qu_buf_add(&url, l, (size_t)(sp1 - l));
	} else {
		qu_buf_add(&url, sp3 + 1, (size_t)(sp4 - sp3 - 1));
	}
	QU_VEC_GROW(g->ext, g->next, *alloc);
	x = &g->ext[g->next];
	x->name = qu_arena_strndup(&g->arena, l, (size_t)(sp1 - l));
	x->role = std ? qu_arena_strndup(&g->arena, std + 1, strlen(std) - 2)
		      : qu_arena_strndup(&g->arena, sp1 + 3,
					 (size_t)(sp2 - sp1 - 3));
	x->url = qu_arena_strndup(&g->arena, url.buf, url.len);
	x->title = NULL;
	if (sp4 < end && !(end - sp4 == 2 && sp4[1] == '-'))
		x->title = qu_arena_strndup(&g->arena, sp4 + 1,
					    (size_t)(end - sp4 - 1));
	x->site = site;
	x->order = (uint32_t)g->next++;
	qu_buf_fini(&url);
}

void graph_extern_load(struct qu_graph *g, struct qu_diags *diags)
{
	const struct qu_config *c = &g->site->cfg;
	size_t alloc = 0, i;

	for (i = 0; i < c->nintersphinx; i++) {
		const struct qu_intersphinx *e = &c->intersphinx[i];
		struct qu_buf body = QU_BUF_INIT;
		const char *p = e->data, *end = e->data + e->len, *nl;
		int hashes = 0;

		if (!e->data)
			continue;
		/* four comment lines, the last saying zlib follows */
		while (hashes < 4 && p < end && *p == '#' &&
		       (nl = memchr(p, '\n', (size_t)(end - p)))) {
			p = nl + 1;
			hashes++;
		}
		if (hashes < 4 ||
		    strncmp(e->data, "# Sphinx inventory version 2", 28) ||
		    !inflate_all(&body, p, (size_t)(end - p))) {
			qu_diag(diags, QU_W_BAD_CONFIG,
				qu_arena_strdup(&g->arena, e->inventory), 0, 0,
				"not a Sphinx inventory (version 2, zlib), "
				"not linking into '%s'",
				e->name);
			qu_buf_fini(&body);
			continue;
		}
		for (p = body.buf; p < body.buf + body.len; p = nl + 1) {
			nl = memchr(p, '\n', (size_t)(body.buf + body.len - p));
			if (!nl)
				nl = body.buf + body.len;
			add_line(g, e, (uint32_t)i, p, (size_t)(nl - p),
				 &alloc);
		}
		qu_buf_fini(&body);
	}
	if (g->next > 1)
		qsort(g->ext, g->next, sizeof(*g->ext), cmp_ext);
}

/* Whether an entry's role fits a reference's form. */
static bool fits(enum qu_ref_kind k, const char *role, bool member)
{
	static const struct {
		enum qu_ref_kind kind;
		const char *roles;
	} table[] = {
		{QU_REF_FUNC, " function macro "},
		{QU_REF_STRUCT, " struct type "},
		{QU_REF_UNION, " union type "},
		{QU_REF_ENUM, " enum type "},
		{QU_REF_TYPEDEF, " type "},
		{QU_REF_CONST, " macro enumerator "},
	};
	char pat[40];
	size_t i;

	/* pages and labels answer :doc: and :ref: only */
	if (!strncmp(role, "std:", 4))
		return false;
	if (member)
		return !strcmp(role, "member") || !strcmp(role, "enumerator");
	if (k == QU_REF_ANY)
		return strcmp(role, "member") && strcmp(role, "functionParam");
	snprintf(pat, sizeof(pat), " %s ", role);
	for (i = 0; i < QU_ARRAY_SIZE(table); i++)
		if (table[i].kind == k)
			return strstr(table[i].roles, pat) != NULL;
	return false;
}

const char *qu_graph_extern(const struct qu_graph *g, const struct qu_ref *r)
{
	struct qu_buf name = QU_BUF_INIT;
	const char *url = NULL;
	size_t lo = 0, hi = g->next;

	if (!g->next || r->kind == QU_REF_PARAM || r->kind == QU_REF_ENV ||
	    r->kind == QU_REF_MEMBER)
		return NULL;
	qu_buf_add(&name, r->name, r->nlen);
	if (r->member) {
		qu_buf_addc(&name, '.');
		qu_buf_add(&name, r->member, r->mlen);
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(g->ext[mid].name, name.buf) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the first that fits, in the order the sites are configured */
	for (; lo < g->next && !strcmp(g->ext[lo].name, name.buf); lo++)
		if (fits(r->kind, g->ext[lo].role, r->member != NULL)) {
			url = g->ext[lo].url;
			break;
		}
	qu_buf_fini(&name);
	return url;
}

/* The first entry named @name (of site @site, or any: -1) with @role. */
static const struct graph_extern *find_std(const struct qu_graph *g,
					   const char *name, const char *role,
					   long site)
{
	size_t lo = 0, hi = g->next;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(g->ext[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < g->next && !strcmp(g->ext[lo].name, name); lo++)
		if (!strcmp(g->ext[lo].role, role) &&
		    (site < 0 || g->ext[lo].site == (uint32_t)site))
			return &g->ext[lo];
	return NULL;
}

const char *qu_graph_extern_std(const struct qu_graph *g, bool doc,
				const char *target, const char **title)
{
	const char *role = doc ? "std:doc" : "std:label";
	const struct graph_extern *x;
	const char *colon;
	size_t i;

	*title = NULL;
	if (!g->next)
		return NULL;
	x = find_std(g, target, role, -1);
	/* "site:target" names one site, as intersphinx reads it */
	if (!x && (colon = strchr(target, ':'))) {
		const struct qu_config *c = &g->site->cfg;

		for (i = 0; i < c->nintersphinx && !x; i++)
			if (strlen(c->intersphinx[i].name) ==
				    (size_t)(colon - target) &&
			    !strncmp(c->intersphinx[i].name, target,
				     (size_t)(colon - target)))
				x = find_std(g, colon + 1, role, (long)i);
	}
	if (!x)
		return NULL;
	*title = x->title;
	return x->url;
}
