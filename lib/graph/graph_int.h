/* SPDX-License-Identifier: MIT */
/*
 * graph_int.h - shared between the files of lib/graph only
 */
#ifndef QU_GRAPH_GRAPH_INT_H
#define QU_GRAPH_GRAPH_INT_H

#include "graph/graph.h"

void graph_count_refs(struct qu_graph *g, const struct qu_graph_reader *rd,
		      unsigned threads);
uint32_t graph_find_unit(const struct qu_graph *g, const char *path);
uint32_t graph_first(const struct qu_graph *g, enum qu_ns ns, const char *name,
		     size_t len);
uint64_t graph_sym_hash(enum qu_ns ns, const char *name, size_t len);
struct qu_graph_stab_slot *graph_stab_find(const struct qu_graph *g,
					   enum qu_ns ns, const char *name,
					   size_t len, uint64_t h);
/*
 * One entry of another site's inventory (extern.c): a C-domain entry's
 * role without "c:" ("function"), a page's or a label's as "std:doc" and
 * "std:label", which no C role spells; @title is the display name ("-"
 * in the inventory: NULL); @site the intersphinx: entry it came from.
 */
struct graph_extern {
	const char *name;
	const char *role;
	const char *url;
	const char *title;
	uint32_t order;
	uint32_t site;
};

void graph_extern_load(struct qu_graph *g, struct qu_diags *diags);
bool graph_parse_target(struct qu_ref *r, const char *target, size_t len);
bool graph_prefer(const struct qu_graph *g, uint32_t a, uint32_t b);

#endif /* QU_GRAPH_GRAPH_INT_H */
