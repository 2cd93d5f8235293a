// SPDX-License-Identifier: MIT
/*
 * dump.c - a unit's items as JSON Lines or as readable Markdown (kdoc
 * stage)
 *
 * Called by `quire extract` and the golden tests. The JSON schema, one
 * object per item, one item per line, fields always in this order:
 *
 *   schema    1; bumped when a field changes meaning or goes away (new
 *             fields may appear without a bump; readers ignore unknown ones)
 *   file      the source file as given on the command line
 *   line      1-based line of the comment's opening "/\*\*"
 *   decl_line 1-based line where the declaration starts; 0 for "doc"
 *   kind      "function", "macro", "struct", "union", "enum", "typedef",
 *             "var" or "doc"
 *   name      the symbol's name, or the DOC: block's title
 *   brief     the short description from the comment's first line; ""
 *   decl      the declaration as one normalized line, attributes the
 *             reference strips removed; "" for "doc"
 *   params    [{name, type, desc}]: a function's or macro's parameters
 *             ("..." for variadic ones, no entry for "void"); a struct's or
 *             union's members that the comment describes, nested ones
 *             with dotted names ("bar.st1.memb1"); an enum's values. type
 *             is the C type text without the name ("" for macro
 *             parameters and enum values); desc is the Markdown text, ""
 *             when undescribed
 *   sections  [{title, body}] in comment order: "Description", "Return",
 *             "Context", "Note", ... as written (Description, Context
 *             and Return/Returns canonicalized); a "doc" item has one
 *             "Description" holding its text
 *   exported  null, or the EXPORT_SYMBOL* macro exporting name in the file
 *
 * Texts are the comment's Markdown with the " * " prefix removed and the
 * highlight conventions (func(), &struct foo, @param, %CONST) as written.
 */
#include <string.h>

#include "kdoc_int.h"

static void json_str(struct qu_buf *out, const char *s)
{
	qu_buf_add_json_str(out, s, strlen(s));
}

static void json_item(struct qu_buf *out, const struct qu_unit *u,
		      const struct qu_item *it)
{
	qu_buf_addf(out, "{\"schema\":1,\"file\":");
	json_str(out, u->path);
	qu_buf_addf(out, ",\"line\":%u,\"decl_line\":%u,\"kind\":\"%s\",",
		    it->line, it->decl_line, qu_kind_name(it->kind));
	qu_buf_adds(out, "\"name\":");
	json_str(out, it->name);
	qu_buf_adds(out, ",\"brief\":");
	json_str(out, it->brief);
	qu_buf_adds(out, ",\"decl\":");
	json_str(out, it->decl);
	qu_buf_adds(out, ",\"params\":[");
	for (size_t i = 0; i < it->nparams; i++) {
		const struct qu_param *p = &it->params[i];
		qu_buf_adds(out, i ? ",{\"name\":" : "{\"name\":");
		json_str(out, p->name);
		qu_buf_adds(out, ",\"type\":");
		json_str(out, p->type);
		qu_buf_adds(out, ",\"desc\":");
		json_str(out, p->desc);
		qu_buf_addc(out, '}');
	}
	qu_buf_adds(out, "],\"sections\":[");
	for (size_t i = 0; i < it->nsections; i++) {
		const struct qu_section *s = &it->sections[i];
		qu_buf_adds(out, i ? ",{\"title\":" : "{\"title\":");
		json_str(out, s->title);
		qu_buf_adds(out, ",\"body\":");
		json_str(out, s->body);
		qu_buf_addc(out, '}');
	}
	qu_buf_adds(out, "],\"exported\":");
	if (it->exported)
		json_str(out, it->exported);
	else
		qu_buf_adds(out, "null");
	qu_buf_adds(out, "}\n");
}

void qu_kdoc_dump_json(struct qu_buf *out, const struct qu_unit *u)
{
	for (size_t i = 0; i < u->nitems; i++)
		json_item(out, u, &u->items[i]);
}

/* Markdown text ends with exactly one newline. */
static void add_block(struct qu_buf *out, const char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		n--;
	while (*s == '\n' && n) {
		s++;
		n--;
	}
	qu_buf_add(out, s, n);
	qu_buf_addc(out, '\n');
}

void qu_kdoc_dump_markdown(struct qu_buf *out, const struct qu_unit *u)
{
	for (size_t i = 0; i < u->nitems; i++) {
		const struct qu_item *it = &u->items[i];
		const char *plist = it->kind == QU_KIND_ENUM ? "Values"
				    : it->kind == QU_KIND_STRUCT ||
						    it->kind == QU_KIND_UNION
					    ? "Members"
					    : "Parameters";

		if (it->kind == QU_KIND_DOC)
			qu_buf_addf(out, "## %s\n\n", it->name);
		else
			qu_buf_addf(out, "## %s `%s`\n\n",
				    qu_kind_title(it->kind), it->name);
		if (*it->brief)
			qu_buf_addf(out, "%s\n\n", it->brief);
		if (*it->decl) {
			qu_buf_adds(out, "```c\n");
			add_block(out, it->decl);
			qu_buf_adds(out, "```\n\n");
		}
		if (it->nparams) {
			qu_buf_addf(out, "**%s**\n\n", plist);
			for (size_t k = 0; k < it->nparams; k++) {
				const struct qu_param *p = &it->params[k];
				qu_buf_addf(out, "- `%s`", p->name);
				if (*p->desc) {
					qu_buf_adds(out, ": ");
					add_block(out, p->desc);
				} else {
					qu_buf_adds(out, ": *undescribed*\n");
				}
			}
			qu_buf_addc(out, '\n');
		}
		for (size_t k = 0; k < it->nsections; k++) {
			const struct qu_section *s = &it->sections[k];
			if (!*s->body)
				continue;
			if (it->kind != QU_KIND_DOC)
				qu_buf_addf(out, "**%s**\n\n", s->title);
			add_block(out, s->body);
			qu_buf_addc(out, '\n');
		}
		if (it->exported)
			qu_buf_addf(out, "Exported with `%s()`.\n\n",
				    it->exported);
	}
}
