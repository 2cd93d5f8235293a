// SPDX-License-Identifier: MIT
/* kdoc.c - the kdoc stage's entry points (kdoc stage) */
#include <string.h>

#include "kdoc/kdoc.h"
#include "source/source.h"

static const struct {
	const char *json, *title;
} kinds[] = {
#define QU_KIND(id, json, title) { json, title },
#include "kinds.def"
#undef QU_KIND
};

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
	(void)opts;
	out->path = src->path;
	out->hash = qu_hash(src->data, src->len);
	qu_arena_init(&out->arena);
	qu_diags_init(&out->diags);
}

void qu_unit_fini(struct qu_unit *u)
{
	qu_arena_fini(&u->arena);
	qu_diags_fini(&u->diags);
	u->items = NULL;
	u->nitems = 0;
}

void qu_kdoc_dump_json(struct qu_buf *out, const struct qu_unit *u)
{
	(void)out;
	(void)u;
}

void qu_kdoc_dump_markdown(struct qu_buf *out, const struct qu_unit *u)
{
	(void)out;
	(void)u;
}

bool qu_kdoc_selected(const struct qu_item *it,
		      const struct qu_kdoc_select *sel)
{
	(void)it;
	(void)sel;
	return true;
}

void qu_kdoc_add_exports(struct qu_map *map, const struct qu_source *src)
{
	for (size_t i = 0; i < src->nexports; i++)
		qu_map_put(map, src->exports[i].name,
			   (void *)src->exports[i].macro);
}
