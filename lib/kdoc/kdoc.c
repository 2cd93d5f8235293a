// SPDX-License-Identifier: MIT
/*
 * kdoc.c - the kdoc stage's entry points: item kinds, parsing one unit,
 * freeing it (kdoc stage)
 *
 * qu_kdoc_parse() sets up the parser's context, lets comment.c walk the
 * file and moves the finished items into the unit's arena.
 */
#include <stdlib.h>
#include <string.h>

#include "kdoc_int.h"

static const struct {
	const char *json, *title;
} kinds[] = {
#define QU_KIND(id, json, title) [QU_KIND_##id] = { json, title },
#include "kinds.def"
#undef QU_KIND
};

_Static_assert(QU_ARRAY_SIZE(kinds) == QU_KIND__COUNT,
	       "kinds.def and enum qu_kind list the same kinds");

const char *qu_kind_name(enum qu_kind kind)
{
	return kinds[kind].json;
}

const char *qu_kind_title(enum qu_kind kind)
{
	return kinds[kind].title;
}

void qu_kdoc_parse(struct qu_unit *out, const struct qu_source *src,
		   const struct qu_kdoc_opts *opts)
{
	struct kdoc_ctx c;

	out->path = src->path;
	out->hash = src->hash;
	qu_arena_init(&out->arena);
	qu_diags_init(&out->diags);
	out->items = NULL;
	out->nitems = 0;
	out->ncomments = 0;

	memset(&c, 0, sizeof(c));
	c.src = src;
	c.u = out;
	c.verbose = opts && opts->verbose;
	c.a = &out->arena;
	qu_buf_init(&c.ln);
	qu_buf_init(&c.identifier);
	qu_buf_init(&c.purpose);
	qu_buf_init(&c.section);
	qu_buf_init(&c.contents);
	qu_buf_init(&c.leading_space);
	qu_buf_init(&c.prototype);
	qu_buf_init(&c.tmp);
	qu_buf_init(&c.s_arg);
	qu_buf_init(&c.s_b);
	qu_buf_init(&c.s_type);
	qu_buf_init(&c.s_t2);
	qu_buf_init(&c.s_attr);
	qu_buf_init(&c.s_decl);
	qu_map_init(&c.descmap);
	qu_map_init(&c.names);

	/* a binary file has its diagnostic from the source stage already */
	if (!src->binary)
		kdoc_run(&c);

	if (!c.outputs && !src->binary)
		qu_diag(&out->diags, QU_W_NO_STRUCTURED_COMMENTS, src->path,
			1, 1, "no structured comments found");
	if (c.nitems) {
		out->items = qu_arena_memdup(&out->arena, c.items,
					     c.nitems * sizeof(*c.items));
		out->nitems = c.nitems;
	}
	free(c.items);
	free(c.descs);
	free(c.sects);
	free(c.sectcheck);
	free(c.params);
	qu_map_fini(&c.descmap);
	qu_map_fini(&c.names);
	qu_buf_fini(&c.ln);
	qu_buf_fini(&c.identifier);
	qu_buf_fini(&c.purpose);
	qu_buf_fini(&c.section);
	qu_buf_fini(&c.contents);
	qu_buf_fini(&c.leading_space);
	qu_buf_fini(&c.prototype);
	qu_buf_fini(&c.tmp);
	qu_buf_fini(&c.s_arg);
	qu_buf_fini(&c.s_b);
	qu_buf_fini(&c.s_type);
	qu_buf_fini(&c.s_t2);
	qu_buf_fini(&c.s_attr);
	qu_buf_fini(&c.s_decl);
	free(c.fields);
}

void qu_unit_fini(struct qu_unit *u)
{
	qu_arena_fini(&u->arena);
	qu_diags_fini(&u->diags);
	u->items = NULL;
	u->nitems = 0;
}
