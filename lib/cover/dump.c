// SPDX-License-Identifier: MIT
/*
 * dump.c - a coverage as a sorted table or as JSON Lines (cover stage)
 *
 * The JSON schema is documented in docs/commands/coverage.md; change
 * both together. Called by cmd/quire/coverage.c and the golden tests.
 */
#include <string.h>

#include "cover/cover.h"

static void pct(struct qu_buf *out, size_t part, size_t whole)
{
	if (!whole)
		qu_buf_addf(out, " %6s", "-");
	else
		qu_buf_addf(out, " %5.1f%%", 100.0 * (double)part / (double)whole);
}

static void text_row(struct qu_buf *out, const struct qu_cover_row *r,
		     int width)
{
	qu_buf_addf(out, "%-*s %8zu %10zu", width, r->name, r->exports,
		    r->documented);
	pct(out, r->documented, r->exports);
	qu_buf_addf(out, " %8zu %8zu", r->items, r->complete);
	pct(out, r->complete, r->items);
	qu_buf_addc(out, '\n');
}

void qu_cover_dump_text(struct qu_buf *out, const struct qu_cover *c,
			bool by_maint)
{
	const struct qu_cover_row *rows = by_maint ? c->maint : c->dirs;
	size_t n = by_maint ? c->nmaint : c->ndirs;
	int width = by_maint ? (int)strlen("MAINTAINERS ENTRY")
			     : (int)strlen("DIRECTORY");

	for (size_t i = 0; i < n; i++)
		if ((int)strlen(rows[i].name) > width)
			width = (int)strlen(rows[i].name);
	/* a 200-byte entry title would push every column off the screen */
	if (width > 60)
		width = 60;
	qu_buf_addf(out, "%-*s %8s %10s %7s %8s %8s %7s\n", width,
		    by_maint ? "MAINTAINERS ENTRY" : "DIRECTORY", "EXPORTS",
		    "DOCUMENTED", "%", "ITEMS", "COMPLETE", "%");
	for (size_t i = 0; i < n; i++)
		text_row(out, &rows[i], width);
	text_row(out, &c->total, width);
}

static void json_str(struct qu_buf *out, const char *key, const char *s)
{
	qu_buf_addf(out, ",\"%s\":", key);
	qu_buf_add_json_str(out, s, strlen(s));
}

static void json_row(struct qu_buf *out, const char *type,
		     const struct qu_cover_row *r)
{
	qu_buf_addf(out, "{\"schema\":1,\"type\":\"%s\"", type);
	json_str(out, "name", r->name);
	qu_buf_addf(out,
		    ",\"exports\":%zu,\"documented\":%zu,\"items\":%zu,"
		    "\"complete\":%zu}\n",
		    r->exports, r->documented, r->items, r->complete);
}

static void json_undescribed(struct qu_buf *out,
			     const struct qu_cover_item *it)
{
	qu_buf_addf(out, ",\"params\":%u,\"undescribed\":[",
		    (unsigned)it->nparams);
	for (size_t u = 0; u < it->nundescribed; u++) {
		if (u)
			qu_buf_addc(out, ',');
		qu_buf_add_json_str(out, it->undescribed[u],
				    strlen(it->undescribed[u]));
	}
	qu_buf_addc(out, ']');
}

void qu_cover_dump_json(struct qu_buf *out, const struct qu_cover *c,
			bool by_maint)
{
	for (size_t i = 0; i < c->nexports; i++) {
		const struct qu_cover_export *e = &c->exports[i];

		qu_buf_adds(out, "{\"schema\":1,\"type\":\"export\"");
		json_str(out, "name", e->name);
		json_str(out, "macro", e->macro);
		json_str(out, "file", e->file);
		qu_buf_addf(out, ",\"line\":%u,\"documented\":%s",
			    (unsigned)e->line, e->doc >= 0 ? "true" : "false");
		if (e->doc >= 0) {
			const struct qu_cover_item *it = &c->items[e->doc];

			json_str(out, "doc_file", it->file);
			qu_buf_addf(out, ",\"doc_line\":%u", (unsigned)it->line);
			json_undescribed(out, it);
		}
		qu_buf_adds(out, "}\n");
	}
	for (size_t i = 0; i < c->nitems; i++) {
		const struct qu_cover_item *it = &c->items[i];

		if (!it->in_scope)
			continue;
		qu_buf_adds(out, "{\"schema\":1,\"type\":\"item\"");
		json_str(out, "name", it->name);
		json_str(out, "kind", qu_kind_name(it->kind));
		json_str(out, "file", it->file);
		qu_buf_addf(out, ",\"line\":%u", (unsigned)it->line);
		json_undescribed(out, it);
		qu_buf_adds(out, "}\n");
	}
	for (size_t i = 0; i < c->ndirs; i++)
		json_row(out, "dir", &c->dirs[i]);
	if (by_maint)
		for (size_t i = 0; i < c->nmaint; i++)
			json_row(out, "maintainer", &c->maint[i]);
	json_row(out, "total", &c->total);
}
