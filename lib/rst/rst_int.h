/* SPDX-License-Identifier: MIT */
/*
 * rst_int.h - what the files of lib/rst share: the line table, the parse
 * context, node building and the entry points of each step. Included only
 * by the files of lib/rst.
 */
#ifndef QU_RST_RST_INT_H
#define QU_RST_RST_INT_H

#include <stdbool.h>

#include "rst.h"

/*
 * Limits. Each names the input it stops; past it the rest is kept as a
 * literal block with a -Wrst-limit diagnostic, so nothing is lost.
 *
 * RST_MAX_DEPTH: nested body elements (a list in a quote in a list ...).
 * 10,000 levels of "- - - ..." or of deeper and deeper indentation would
 * otherwise recurse 10,000 C frames deep; docutils itself stops near 100
 * (Python's recursion limit).
 * RST_MAX_TABLE_CELLS: rows times columns of one grid or simple table; a
 * 10 MB table of one-character cells stays linear below it.
 * RST_MAX_TABLE_AREA: columns times lines of one grid table, 32 M (128 MB
 * of code points while it is cut into cells); a 10 MB table is a third
 * of it.
 * RST_MAX_SECTION_LEVELS: distinct title adornment styles in a document;
 * docutils has no limit, but no document uses more than a dozen.
 */
#define RST_MAX_DEPTH 100
#define RST_MAX_TABLE_CELLS (1u << 20)
#define RST_MAX_TABLE_AREA ((size_t)32 << 20)
#define RST_MAX_SECTION_LEVELS 32

/*
 * struct rline - one input line, tabs expanded to 8 columns, \v and \f
 * made spaces, trailing white space dropped (as docutils prepares lines)
 * @s: its text (into the input, or the arena when a tab was expanded)
 * @len: its length
 * @off: byte offset in the input of the line's first byte
 * @tabbed: the text was rewritten, so columns are approximate offsets
 */
struct rline {
	const char *s;
	uint32_t len;
	uint32_t off;
	bool tabbed;
};

/*
 * struct blk - a block of lines being parsed: lines [a, b) of the input,
 * less @col columns of indentation (@col0 for the first line, which may
 * follow a list marker or "..")
 */
struct blk {
	size_t a, b;
	uint32_t col, col0;
};

/* struct rst_ctx - one parse: the document, lines, title styles, ids */
struct rst_ctx {
	struct qu_rst_doc *doc;
	struct qu_arena *a;
	struct qu_diags *diags;
	struct rline *lines;
	size_t nlines, lines_alloc;
	/* title adornments seen, in order: [0] overline or 0, [1] underline */
	char styles[RST_MAX_SECTION_LEVELS][2];
	int nstyles;
	struct qu_rst_node *secs[RST_MAX_SECTION_LEVELS + 1];
	int level;
	int depth;
	struct qu_map ids;      /* id -> node */
	struct qu_map names;    /* name -> node (or NULL once duplicated) */
	struct qu_map counters; /* id prefix -> (uintptr_t) count */
	bool limit_warned;
	bool sphinx_ids; /* auto ids are "idN", one counter (Sphinx's) */
};

/* tree.c */
struct qu_rst_node *rst_node(struct rst_ctx *c, enum qu_rst_kind kind,
			     uint32_t off);
struct qu_rst_node *rst_child(struct rst_ctx *c, struct qu_rst_node *parent,
			      enum qu_rst_kind kind, uint32_t off);
void rst_append(struct qu_rst_node *parent, struct qu_rst_node *n);
struct qu_rst_node *rst_text(struct rst_ctx *c, struct qu_rst_node *parent,
			     const char *s, size_t len, uint32_t off);
void rst_set(struct rst_ctx *c, struct qu_rst_node *n, const char *name,
	     const char *value);
void rst_setn(struct rst_ctx *c, struct qu_rst_node *n, const char *name,
	      const char *value, size_t len);
void rst_add_list(struct rst_ctx *c, struct qu_rst_node *n, const char *name,
		  const char *item, size_t len);
char *rst_normalize(struct rst_ctx *c, const char *s, size_t len, bool lower);
void rst_make_id(struct qu_buf *out, const char *s, size_t len);
void rst_set_id(struct rst_ctx *c, struct qu_rst_node *n, const char *name);
void rst_note_target(struct rst_ctx *c, struct qu_rst_node *n,
		     const char *name, bool explicit_);
void rst_warn(struct rst_ctx *c, enum qu_diag_id id, uint32_t off,
	      const char *fmt, ...) QU_PRINTF(4, 5);
uint32_t rst_line_off(const struct rst_ctx *c, size_t line, uint32_t col);

/* block.c */
void rst_parse_body(struct rst_ctx *c, struct qu_rst_node *parent,
		    const struct blk *b, bool titles);

/* inline.c */
void rst_inline(struct rst_ctx *c, struct qu_rst_node *parent,
		const char *s, size_t len, uint32_t off);
bool rst_is_simplename_char(const char *s, size_t len, size_t i,
			    size_t *clen);
size_t rst_unescape(char *dst, const char *s, size_t len);

/* table.c */
size_t rst_table(struct rst_ctx *c, struct qu_rst_node *parent,
		 const struct blk *b, size_t i, bool grid);

/* Line access. */
static inline const char *blk_line(const struct rst_ctx *c,
				   const struct blk *b, size_t i,
				   uint32_t *len)
{
	const struct rline *l = &c->lines[i];
	uint32_t col = i == b->a ? b->col0 : b->col;

	if (l->len <= col) {
		*len = 0;
		return l->s + l->len;
	}
	*len = l->len - col;
	return l->s + col;
}

static inline uint32_t blk_off(const struct rst_ctx *c, const struct blk *b,
			       size_t i)
{
	return rst_line_off(c, i, i == b->a ? b->col0 : b->col);
}

#endif /* QU_RST_RST_INT_H */
