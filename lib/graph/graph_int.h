/* SPDX-License-Identifier: MIT */
/*
 * graph_int.h - shared between the files of lib/graph only
 */
#ifndef QU_GRAPH_GRAPH_INT_H
#define QU_GRAPH_GRAPH_INT_H

#include "graph/graph.h"

void graph_count_refs(struct qu_graph *g, unsigned threads);
uint32_t graph_find_unit(const struct qu_graph *g, const char *path);

#endif /* QU_GRAPH_GRAPH_INT_H */
