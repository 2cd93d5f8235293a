// SPDX-License-Identifier: MIT
/*
 * select.c - which items an extract or a {kernel-doc} directive outputs
 * (kdoc stage)
 *
 * The rules of scripts/kernel-doc's output_declaration() and
 * dump_doc_section(): -export and -internal never output DOC: blocks,
 * -function NAME outputs a DOC: block only if NAME is its title,
 * -nosymbol and -no-doc-sections drop, and -internal keeps every
 * non-function item even if exported.
 */
#include <string.h>

#include "kdoc_int.h"

static bool in(const char *const *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return true;
	return false;
}

static bool is_exported(const struct qu_item *it,
			const struct qu_kdoc_select *sel)
{
	if (sel->exported)
		return qu_map_get(sel->exported, it->name,
				  strlen(it->name)) != NULL;
	return it->exported != NULL;
}

bool qu_kdoc_selected(const struct qu_item *it,
		      const struct qu_kdoc_select *sel)
{
	if (!sel)
		return true;
	if (in(sel->no_identifiers, sel->nno_identifiers, it->name))
		return false;
	if (it->kind == QU_KIND_DOC) {
		if (sel->no_doc_sections || sel->mode != QU_SELECT_ALL)
			return false;
		if (sel->doc)
			return !strcmp(sel->doc, it->name);
		if (sel->nidentifiers)
			return in(sel->identifiers, sel->nidentifiers,
				  it->name);
		return true;
	}
	if (sel->doc && !sel->nidentifiers)
		return false;
	if (sel->nidentifiers &&
	    !in(sel->identifiers, sel->nidentifiers, it->name))
		return false;
	switch (sel->mode) {
	case QU_SELECT_EXPORT:
		return is_exported(it, sel);
	case QU_SELECT_INTERNAL:
		return !((it->kind == QU_KIND_FUNCTION ||
			  it->kind == QU_KIND_MACRO) &&
			 is_exported(it, sel));
	case QU_SELECT_ALL:
		break;
	}
	return true;
}

void qu_kdoc_add_exports(struct qu_map *map, const struct qu_source *src)
{
	for (size_t i = 0; i < src->nexports; i++)
		qu_map_put(map, src->exports[i].name,
			   (void *)src->exports[i].macro);
}
