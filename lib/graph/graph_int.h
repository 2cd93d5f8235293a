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
/* one entry of another site's inventory (extern.c) */
struct graph_extern {
	const char *name;
	const char *role;
	const char *url;
	uint32_t order;
};

void graph_extern_load(struct qu_graph *g, struct qu_diags *diags);
bool graph_parse_target(struct qu_ref *r, const char *target, size_t len);
bool graph_prefer(const struct qu_graph *g, uint32_t a, uint32_t b);

#endif /* QU_GRAPH_GRAPH_INT_H */
