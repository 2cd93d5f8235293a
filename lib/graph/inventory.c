// SPDX-License-Identifier: MIT
/*
 * inventory.c - objects.inv, Sphinx's inventory of the site's symbols
 * (graph stage)
 *
 * intersphinx reads it to link other projects' docs into this site:
 * every item, member and enum constant with its C-domain role and URL,
 * every page as a std:doc entry, and every heading as a std:label
 * named `PAGE:ID` (what :ref: looks up). Written once per build by
 * cmd/quire.
 */
#include <ctype.h>
#include <libdeflate.h>
#include <string.h>

#include "graph_int.h"

static const char *role(const struct qu_sym *s)
{
	if (s->param != QU_NONE)
		return s->kind == QU_KIND_ENUM ? "c:enumerator" : "c:member";
	switch (s->kind) {
	case QU_KIND_FUNCTION:
		return "c:function";
	case QU_KIND_MACRO:
		return "c:macro";
	case QU_KIND_STRUCT:
		return "c:struct";
	case QU_KIND_UNION:
		return "c:union";
	case QU_KIND_ENUM:
		return "c:enum";
	case QU_KIND_TYPEDEF:
		return "c:type";
	default:
		return "c:var";
	}
}

/*
 * intersphinx keeps one target per name and role: of the symbols that
 * share both, the inventory lists the one a reference from elsewhere
 * would pick (a header's or exported, then the most generic path).
 */
static bool preferred(const struct qu_graph *g, uint32_t i)
{
	const struct qu_sym *s = &g->syms[i];
	const char *r = role(s);
	uint32_t j;

	if (s->first == i && s->next == QU_NONE)
		return true;
	for (j = s->first; j != QU_NONE;
	     j = g->syms[j].next)
		if (j != i && !strcmp(role(&g->syms[j]), r) &&
		    graph_prefer(g, j, i))
			return false;
	return true;
}

int qu_graph_inventory(struct qu_buf *out, const struct qu_graph *g,
		       const char *project, const char *version,
		       struct qu_inv_memo *memo, uint64_t inputs)
{
	struct qu_buf body = QU_BUF_INIT;
	struct libdeflate_compressor *z;
	struct qu_hash128 key;
	size_t i, head, zlen;

	qu_buf_addf(out,
		    "# Sphinx inventory version 2\n"
		    "# Project: %s\n"
		    "# Version: %s\n"
		    "# The remainder of this file is compressed using zlib.\n",
		    project, version ? version : "");
	/*
	 * made of the same: the body as it was (a kernel tree's is 12 MB
	 * to make, to hash and to copy into the memo)
	 */
	if (memo && inputs && memo->inputs == inputs && memo->z.len) {
		qu_buf_add(out, memo->z.buf, memo->z.len);
		return 0;
	}
	/*
	 * room for the lines at once, rather than copying a kernel tree's
	 * 12 MB as it grows: more than the lines take is never touched
	 */
	{
		size_t room = g->nsyms * 96;

		for (i = 0; i < g->site->npages; i++)
			room += 256 + (g->site->pages[i].nheadings +
				       g->site->pages[i].nlabels) * 192;
		qu_buf_grow(&body, room);
	}
	/* the symbols' lines: the same as the last for the same placement */
	if (memo && g->place_id && memo->place_id == g->place_id) {
		qu_buf_add(&body, memo->syms.buf, memo->syms.len);
	} else {
		for (i = 0; i < g->nsyms; i++) {
			const struct qu_sym *s = &g->syms[i];

			/* names with blanks would break the line format */
			if (strchr(s->name, ' ') || !preferred(g, (uint32_t)i))
				continue;
			qu_buf_adds(&body, s->name);
			qu_buf_addc(&body, ' ');
			qu_buf_adds(&body, role(s));
			qu_buf_adds(&body, " 1 ");
			qu_buf_adds(&body, g->site->pages[s->page].out);
			qu_buf_addc(&body, '#');
			qu_buf_adds(&body, s->anchor);
			qu_buf_adds(&body, " -\n");
		}
		if (memo) {
			memo->place_id = g->place_id;
			qu_buf_reset(&memo->syms);
			qu_buf_add(&memo->syms, body.buf, body.len);
		}
	}
	for (i = 0; i < g->site->npages; i++) {
		const struct qu_page *p = &g->site->pages[i];
		size_t l = strlen(p->out);
		uint32_t home;

		/*
		 * reST labels as Sphinx's std:label, C-domain declarations
		 * (c:function, ...) under their name, glossary terms as
		 * std:term as written; the first page of a name is its
		 * home, as qu_graph_label() finds it.
		 */
		for (size_t k = 0; k < p->nlabels; k++) {
			const struct qu_label *lb = &p->labels[k];

			if (strchr(lb->name, ' ') || strchr(lb->id, ' ') ||
			    qu_graph_label(g, lb->name, &home) != lb)
				continue;
			if (lb->role && !strcmp(lb->role, "std:term"))
				qu_buf_addf(&body, "%s std:term -1 %s#%s -\n",
					    lb->title, p->out, lb->id);
			else if (lb->role)
				qu_buf_addf(&body, "%s %s 1 %s#%s -\n",
					    lb->name + 2, lb->role, p->out,
					    lb->id);
			else {
				const char *t = lb->title ? lb->title : "-";

				qu_buf_addf(&body, "%s std:label -1 %s#%s ",
					    lb->name, p->out, lb->id);
				for (; *t; t++)
					qu_buf_addc(&body,
						    *t == '\n' ? ' ' : *t);
				qu_buf_addc(&body, '\n');
			}
		}

		size_t h, k;

		qu_buf_addf(&body, "%.*s std:doc -1 %s %s\n", (int)(l - 5),
			    p->out, p->out, p->title);
		/*
		 * :ref: lowercases its target, so the label is lower case;
		 * a path with blanks cannot be a name of the line format
		 */
		if (strchr(p->out, ' '))
			continue;
		for (h = 0; h < p->nheadings; h++) {
			const struct qu_heading *hd = &p->headings[h];

			if (!hd->id || !*hd->id || strchr(hd->id, ' ') ||
			    hd->hidden)
				continue;
			for (k = 0; k + 5 < l; k++)
				qu_buf_addc(&body, (char)tolower(
					(unsigned char)p->out[k]));
			qu_buf_addc(&body, ':');
			qu_buf_adds(&body, hd->id);
			qu_buf_addf(&body, " std:label -1 %s#%s ", p->out,
				    hd->id);
			for (k = 0; hd->text[k]; k++)
				qu_buf_addc(&body, hd->text[k] == '\n' ?
						' ' : hd->text[k]);
			qu_buf_addc(&body, '\n');
		}
	}
	key = qu_hash128(body.buf, body.len);
	if (memo && memo->z.len && qu_hash128_eq(memo->key, key)) {
		memo->inputs = inputs;
		qu_buf_add(out, memo->z.buf, memo->z.len);
		qu_buf_fini(&body);
		return 0;
	}
	/*
	 * zlib's format, as Sphinx reads it, made by libdeflate at zlib's
	 * default level: a third of zlib's time, about the same size
	 */
	z = libdeflate_alloc_compressor(6);
	if (!z)
		qu_die_oom();
	head = out->len;
	zlen = libdeflate_zlib_compress_bound(z, body.len);
	qu_buf_grow(out, zlen);
	zlen = libdeflate_zlib_compress(z, body.buf, body.len, out->buf + head,
					zlen);
	libdeflate_free_compressor(z);
	qu_buf_fini(&body);
	if (!zlen) {
		out->len = head;
		out->buf[head] = 0;
		return -1;
	}
	out->len = head + zlen;
	out->buf[out->len] = 0;
	if (memo) {
		memo->key = key;
		memo->inputs = inputs;
		qu_buf_reset(&memo->z);
		qu_buf_add(&memo->z, out->buf + head, zlen);
	}
	return 0;
}
