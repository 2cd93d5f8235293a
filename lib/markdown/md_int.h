/* SPDX-License-Identifier: MIT */
/*
 * md_int.h - shared between the files of lib/markdown only
 */
#ifndef QU_MARKDOWN_MD_INT_H
#define QU_MARKDOWN_MD_INT_H

#include <pthread.h>

#include <cmark-gfm.h>

#include "markdown/markdown.h"

/*
 * Nesting deeper than this (a page of ">>>>>>…" or "[[[[…") is written as
 * plain text: the walk recurses, and HTML parsers refuse documents nested
 * deeper than 256 elements.
 */
#define MD_MAX_DEPTH 48

struct qu_md {
	pthread_mutex_t lock;
	bool allow_html;
};

cmark_node *md_parse(struct qu_md *md, const char *text, size_t len, bool rst);
void md_plain_text(struct qu_buf *out, cmark_node *n);

void md_text(xmlDocPtr doc, xmlNodePtr parent, const char *s, size_t len);

void md_html(struct qu_md_ctx *ctx, xmlNodePtr parent, const char *s,
	     size_t len);
void md_inlines(struct qu_md_ctx *ctx, xmlNodePtr parent, cmark_node *first,
		uint32_t line0, bool plain);

#endif /* QU_MARKDOWN_MD_INT_H */
