/* SPDX-License-Identifier: MIT */
/*
 * walk_int.h - the walk of a reST page into DOM nodes, shared between
 * rst.c (the page, blocks, inline markup, roles), rst_directive.c (the
 * directives) and rst_number.c (section numbers) of lib/render only
 */
#ifndef QU_RENDER_WALK_INT_H
#define QU_RENDER_WALK_INT_H

#include "render_int.h"
#include "rst/rst.h"

/*
 * Nesting the walk follows; the reader stops at 100 levels
 * (RST_MAX_DEPTH), so this only guards against a tree made otherwise.
 */
#define MAX_WALK_DEPTH 400

/*
 * Levels of pages a toctree lists below itself; the kernel's deepest is
 * 4, and it bounds two pages whose toctrees name each other.
 */
#define MAX_TOCTREE_DEPTH 8

/* One page's walk. */
struct rw {
	const struct qu_render *r;
	struct qu_md_ctx *ctx;
	xmlDocPtr doc;
	const struct qu_page *pg;
	const struct frame *f;
	const struct qu_rst_doc *rd;
	/* what the walk keeps until it ends (map keys, a language): the
	 * page's parse may be the site's, which the walk only reads */
	struct qu_arena scratch;
	struct qu_diags *diags;
	struct qu_render_pics *pics; /* kernel-render's SVGs; NULL in a
				      * comment */
	struct qu_map targets; /* name -> target node (this page) */
	struct qu_map substs;  /* name -> substitution_definition */
	const struct qu_rst_node **anon;
	size_t nanon, anon_next;
	const char *lang; /* the highlight directive's language */
	struct qu_buf c_ns; /* the c:namespace in force, "" for none */
	uint32_t next_id; /* Sphinx's next "idN" after the parse's */
	struct qu_buf pending; /* label ids the next section takes, "a b " */
	struct qu_map fnref;   /* footnote name -> its first reference */
	const struct qu_rst_node **refs; /* every footnote reference */
	size_t nrefs;
	struct qu_map fnum;    /* footnote name -> (uintptr_t) its number */
	uint32_t nfoot;
	/* the anonymous auto-numbered footnotes ([#]) in page order, their
	 * numbers, and the anonymous references ([#]_) they pair with */
	const struct qu_rst_node **afn, **arefs;
	uint32_t *afnum;
	size_t nafn, narefs;
	struct qu_map fnauto; /* such a node -> (uintptr_t) its index + 1 */
	bool comment; /* a kernel-doc comment: its highlights too */
	unsigned includes; /* how deep in included files */
	bool literal; /* a parsed-literal: roles link, automarkup does not */
	const struct qu_part *inc; /* the included part being read */
	const struct qu_rst_doc *inc_rd; /* its text's parse */
	struct qu_map *inc_targets; /* its targets by name, which its own
				     * references (name_) find first */
	uint32_t toc_path[MAX_TOCTREE_DEPTH + 1]; /* the pages a toctree
						   * is listing, outermost
						   * first */
	struct qu_map tocref; /* section node -> (uintptr_t) its contents
			       * entry's "idN" */
	unsigned depth, level;
	struct qu_buf tmp, href;
	struct rw_frag {
		xmlNodePtr a;
		const char *path;
		uint32_t line, col;
	} *frags; /* links to "#id" of this page, checked once it is made */
	size_t nfrags;
};

/* rst.c */
/* The targets and sections of @n's tree, by name, into @m (keys in
 * w->scratch) */
void rw_collect_targets(struct rw *w, struct qu_map *m,
			const struct qu_rst_node *n, unsigned depth);
/* "a/./b/../c" as "a/c", in place; returns how many ".." went above the
 * start, which are dropped */
unsigned rw_norm_path(struct qu_buf *path);
void rw_where(const struct rw *w, uint32_t off, uint32_t *line,
	      uint32_t *col);
/* Where to report @off: the file (the page's, or the one a kernel-abi
 * mark names) with its line and column. */
const char *rw_diag_where(const struct rw *w, uint32_t off, uint32_t *line,
			  uint32_t *col);
const struct qu_rst_node *rw_child(const struct qu_rst_node *n,
				   enum qu_rst_kind kind);
const char *rw_option(struct rw *w, const struct qu_rst_node *d,
		      const char *name);
void rw_set_ids(struct rw *w, xmlNodePtr el, const struct qu_rst_node *n);
void rw_extra_ids(struct rw *w, xmlNodePtr parent,
		  const struct qu_rst_node *n, size_t from);
void rw_headerlink(struct rw *w, xmlNodePtr el, const char *id);
void rw_caption_id(struct rw *w, xmlNodePtr el, const struct qu_rst_node *n,
		   struct qu_buf *id);
void rw_text(struct rw *w, xmlNodePtr parent, const char *s, size_t len,
	     bool plain);
void rw_norm_label(struct qu_buf *out, const char *s);
void rw_inlines(struct rw *w, xmlNodePtr parent,
		const struct qu_rst_node *first, bool plain);
void rw_code_text(struct rw *w, xmlNodePtr parent, const char *lang,
		  const char *s, size_t len);
/* @why NULL: shown without -Wrst-unrendered (an earlier stage said why) */
void rw_unrendered(struct rw *w, xmlNodePtr parent,
		   const struct qu_rst_node *d, const char *why);
void rw_content(struct rw *w, xmlNodePtr parent, const struct qu_rst_node *d);
void rw_block(struct rw *w, xmlNodePtr parent, const struct qu_rst_node *n);
void rw_blocks(struct rw *w, xmlNodePtr parent,
	       const struct qu_rst_node *first);

/* rst_directive.c */
void rw_directive(struct rw *w, xmlNodePtr parent,
		  const struct qu_rst_node *d);
void rw_table(struct rw *w, xmlNodePtr parent, const struct qu_rst_node *n,
	      const struct qu_rst_node *title);

/* rst_number.c */
const char *rw_secnum(const struct qu_render *r, uint32_t page,
		      const char *id);

#endif /* QU_RENDER_WALK_INT_H */
