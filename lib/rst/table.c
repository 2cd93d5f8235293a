// SPDX-License-Identifier: MIT
/*
 * table.c - grid and simple tables of reST (rst stage), found and cut
 * into cells as docutils' tableparser.py does: a grid table by following
 * its cell borders from each corner, with row and column spans; a simple
 * table by its column borders and span underlines. Each cell's text
 * becomes lines of its own, appended to the parse's line table, and is
 * parsed as body elements. Called by block.c.
 *
 * Tables are worked on in columns, not bytes: each line is decoded into
 * code points, a wide character followed by a pad, as docutils pads them.
 */
#include <stdlib.h>
#include <string.h>

#include "rst_int.h"

#define PAD 0x110000u

struct tline {
	uint32_t *cp;
	size_t n;
	size_t line; /* index in the line table */
};

struct cell {
	size_t top, left, bottom, right; /* grid: border rows and columns */
	size_t morerows, morecols;
	size_t row, col;
	/* the cell's text: rows [r0, r1) of the table, columns [c0, c1) */
	size_t r0, r1, c0, c1;
};

static bool wide(uint32_t cp)
{
	return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
	       (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	       (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	       (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x20000 && cp < PAD);
}

static void decode_line(struct tline *t, const char *s, uint32_t len)
{
	/* a wide character (and its pad) takes at least three bytes */
	size_t alloc = (size_t)len + 1;

	t->cp = qu_xmalloc(alloc * sizeof(*t->cp));
	t->n = 0;
	for (uint32_t i = 0; i < len;) {
		unsigned char ch = (unsigned char)s[i];
		uint32_t cp = ch;
		uint32_t k = 1;

		if (ch >= 0xf0 && i + 3 < len) {
			cp = (ch & 7u) << 18 | (s[i + 1] & 0x3fu) << 12 |
			     (s[i + 2] & 0x3fu) << 6 | (s[i + 3] & 0x3fu);
			k = 4;
		} else if (ch >= 0xe0 && i + 2 < len) {
			cp = (ch & 15u) << 12 | (s[i + 1] & 0x3fu) << 6 | (s[i + 2] & 0x3fu);
			k = 3;
		} else if (ch >= 0xc0 && i + 1 < len) {
			cp = (ch & 31u) << 6 | (s[i + 1] & 0x3fu);
			k = 2;
		}
		i += k;
		t->cp[t->n++] = cp;
		if (wide(cp))
			t->cp[t->n++] = PAD;
	}
}

static void encode(struct qu_buf *b, const uint32_t *cp, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t c = cp[i];

		if (c == PAD)
			continue;
		if (c < 0x80) {
			qu_buf_addc(b, (char)c);
		} else if (c < 0x800) {
			qu_buf_addc(b, (char)(0xc0 | c >> 6));
			qu_buf_addc(b, (char)(0x80 | (c & 0x3f)));
		} else if (c < 0x10000) {
			qu_buf_addc(b, (char)(0xe0 | c >> 12));
			qu_buf_addc(b, (char)(0x80 | (c >> 6 & 0x3f)));
			qu_buf_addc(b, (char)(0x80 | (c & 0x3f)));
		} else {
			qu_buf_addc(b, (char)(0xf0 | c >> 18));
			qu_buf_addc(b, (char)(0x80 | (c >> 12 & 0x3f)));
			qu_buf_addc(b, (char)(0x80 | (c >> 6 & 0x3f)));
			qu_buf_addc(b, (char)(0x80 | (c & 0x3f)));
		}
	}
}

static uint32_t at(const struct tline *t, size_t col)
{
	return col < t->n ? t->cp[col] : ' ';
}

/* A new line at the end of the line table holding @text, placed at the
 * input offset @off. */
static size_t add_line(struct rst_ctx *c, const char *text, size_t len,
		       uint32_t off)
{
	struct rline *l;

	QU_VEC_GROW(c->lines, c->nlines, c->lines_alloc);
	l = &c->lines[c->nlines];
	l->s = qu_arena_strndup(c->a, text, len);
	l->len = (uint32_t)len;
	l->off = off;
	l->tabbed = true;
	return c->nlines++;
}

/* get_2D_block(): rows [r0, r1), columns [c0, c1), right-stripped, the
 * common indentation removed; appended to the line table and parsed into
 * @entry. */
static void cell_body(struct rst_ctx *c, struct qu_rst_node *entry,
		      const struct tline *tl, size_t r0, size_t r1, size_t c0,
		      size_t c1)
{
	size_t indent = c1 - c0, first;
	struct qu_buf b = QU_BUF_INIT;
	bool any = false;
	struct blk blk;

	for (size_t r = r0; r < r1; r++) {
		size_t e = c1 < tl[r].n ? c1 : tl[r].n, s = c0, k;

		while (e > s && (tl[r].cp[e - 1] == ' ' || tl[r].cp[e - 1] == PAD))
			e--;
		if (e <= s)
			continue;
		for (k = s; k < e && tl[r].cp[k] == ' '; k++)
			;
		if (k - s < indent)
			indent = k - s;
		any = true;
	}
	if (!any)
		return;
	/* the line table grows: remember where ours begin */
	first = c->nlines;
	for (size_t r = r0; r < r1; r++) {
		size_t e = c1 < tl[r].n ? c1 : tl[r].n, s = c0 + indent;
		uint32_t off = rst_line_off(c, tl[r].line, (uint32_t)s);

		while (e > s && (tl[r].cp[e - 1] == ' ' || tl[r].cp[e - 1] == PAD))
			e--;
		qu_buf_reset(&b);
		if (e > s)
			encode(&b, tl[r].cp + s, e - s);
		add_line(c, b.buf, b.len, off);
	}
	qu_buf_fini(&b);
	blk.a = first;
	blk.b = c->nlines;
	blk.col = blk.col0 = 0;
	while (blk.a < blk.b && !c->lines[blk.a].len)
		blk.a++;
	if (blk.a < blk.b)
		rst_parse_body(c, entry, &blk, false);
}

struct grid {
	struct tline *tl;
	size_t nrows, width;
	long *done;
	/* row and column borders seen */
	bool *rowsep, *colsep;
	struct cell *cells;
	size_t ncells, alloc;
	size_t budget; /* border steps left: stops pathological tables */
};

static bool scan_up(struct grid *g, size_t top, size_t left, size_t bottom,
		    bool *rows)
{
	for (size_t i = bottom - 1; i > top; i--) {
		uint32_t ch = at(&g->tl[i], left);

		if (ch == '+')
			rows[i] = true;
		else if (ch != '|')
			return false;
	}
	return true;
}

static bool scan_left(struct grid *g, size_t top, size_t left, size_t bottom,
		      size_t right, bool *rows, bool *cols)
{
	const struct tline *t = &g->tl[bottom];

	for (size_t i = right - 1; i > left; i--) {
		uint32_t ch = at(t, i);

		if (ch == '+')
			cols[i] = true;
		else if (ch != '-')
			return false;
	}
	if (at(t, left) != '+')
		return false;
	return scan_up(g, top, left, bottom, rows);
}

/* scan_right/scan_down: the cell whose top left corner is (@top, @left). */
static bool scan_cell(struct grid *g, size_t top, size_t left, size_t *bottom,
		      size_t *right, bool *rows, bool *cols)
{
	const struct tline *t = &g->tl[top];

	for (size_t i = left + 1; i < g->width; i++) {
		uint32_t ch = at(t, i);

		if (!g->budget--)
			return false;
		if (ch == '+') {
			memset(rows, 0, g->nrows);
			memset(cols, 0, g->width);
			for (size_t r = top + 1; r < g->nrows; r++) {
				uint32_t d = at(&g->tl[r], i);

				if (!g->budget--)
					return false;
				if (d == '+') {
					memset(rows, 0, g->nrows);
					memset(cols, 0, g->width);
					if (scan_left(g, top, left, r, i, rows, cols)) {
						rows[r] = true;
						cols[i] = true;
						*bottom = r;
						*right = i;
						return true;
					}
				} else if (d != '|') {
					break;
				}
			}
		} else if (ch != '-') {
			return false;
		}
	}
	return false;
}

static int cmp_corner(const void *a, const void *b)
{
	const size_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

static void build(struct rst_ctx *c, struct qu_rst_node *parent, uint32_t off,
		  const struct tline *tl, const size_t *widths, size_t ncols,
		  struct cell *cells, size_t ncells, size_t nrows, size_t nhead)
{
	struct qu_rst_node *table = rst_child(c, parent, QU_RST_TABLE, off);
	struct qu_rst_node *tg = rst_child(c, table, QU_RST_TGROUP, off);
	struct qu_rst_node *part = NULL;
	char num[24];
	size_t k = 0;

	snprintf(num, sizeof(num), "%zu", ncols);
	rst_set(c, tg, "cols", num);
	for (size_t i = 0; i < ncols; i++) {
		struct qu_rst_node *cs = rst_child(c, tg, QU_RST_COLSPEC, off);

		snprintf(num, sizeof(num), "%zu", widths[i]);
		rst_set(c, cs, "colwidth", num);
	}
	/* every row, even one whose cells all come from rows above */
	for (size_t r = 0; r < nrows; r++) {
		struct qu_rst_node *row;

		if (!part || (r == nhead && part->kind == QU_RST_THEAD))
			part = rst_child(c, tg, r < nhead ? QU_RST_THEAD : QU_RST_TBODY,
					 off);
		row = rst_child(c, part, QU_RST_ROW, off);
		for (; k < ncells && cells[k].row == r; k++) {
			struct cell *e = &cells[k];
			struct qu_rst_node *entry = rst_child(c, row, QU_RST_ENTRY, off);

			if (e->morerows) {
				snprintf(num, sizeof(num), "%zu", e->morerows);
				rst_set(c, entry, "morerows", num);
			}
			if (e->morecols) {
				snprintf(num, sizeof(num), "%zu", e->morecols);
				rst_set(c, entry, "morecols", num);
			}
			cell_body(c, entry, tl, e->r0, e->r1, e->c0, e->c1);
		}
	}
	if (!part || part->kind != QU_RST_TBODY)
		rst_child(c, tg, QU_RST_TBODY, off);
}

static int cmp_cell(const void *a, const void *b)
{
	const struct cell *x = a, *y = b;

	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return x->col < y->col ? -1 : x->col > y->col;
}

static void free_lines(struct tline *tl, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(tl[i].cp);
	free(tl);
}

/* A grid table on lines [@a, @e): false when malformed. */
static bool grid_table(struct rst_ctx *c, struct qu_rst_node *parent,
		       const struct blk *b, size_t a, size_t e)
{
	struct grid g = { 0 };
	size_t n = e - a, head = 0, (*corners)[2] = NULL, nc = 0, calloc_ = 0;
	size_t *rowidx = NULL, *colidx = NULL, *widths = NULL, nr = 0, ncol = 0;
	bool *rows = NULL, *cols = NULL, ok = false;
	uint32_t off = blk_off(c, b, a);

	g.tl = qu_xcalloc(n, sizeof(*g.tl));
	g.nrows = n;
	for (size_t i = 0; i < n; i++) {
		uint32_t len;
		const char *s = blk_line(c, b, a + i, &len);

		decode_line(&g.tl[i], s, len);
		g.tl[i].line = a + i;
	}
	g.width = g.tl[0].n;
	/* every line as wide as the top, edged with + or | */
	for (size_t i = 0; i < n; i++)
		if (g.tl[i].n != g.width ||
		    (at(&g.tl[i], 0) != '+' && at(&g.tl[i], 0) != '|') ||
		    (at(&g.tl[i], g.width - 1) != '+' && at(&g.tl[i], g.width - 1) != '|'))
			goto out;
	if (n < 2 || g.width * n > RST_MAX_TABLE_AREA)
		goto out;
	/* the head/body separator +===+ becomes an ordinary border */
	for (size_t i = 1; i + 1 < n; i++) {
		struct tline *t = &g.tl[i];
		bool sep = t->n > 2 && t->cp[0] == '+' && t->cp[1] == '=';

		for (size_t k = 0; sep && k < t->n; k++)
			if (t->cp[k] != '=' && t->cp[k] != '+')
				sep = false;
		if (sep) {
			if (head)
				goto out;
			head = i;
			for (size_t k = 0; k < t->n; k++)
				if (t->cp[k] == '=')
					t->cp[k] = '-';
		}
	}
	g.done = qu_xmalloc(g.width * sizeof(*g.done));
	for (size_t i = 0; i < g.width; i++)
		g.done[i] = -1;
	g.rowsep = qu_xcalloc(n, 1);
	g.colsep = qu_xcalloc(g.width, 1);
	rows = qu_xcalloc(n, 1);
	cols = qu_xcalloc(g.width, 1);
	g.rowsep[0] = g.colsep[0] = true;
	g.budget = (size_t)RST_MAX_TABLE_CELLS * 64;
	QU_VEC_GROW(corners, nc, calloc_);
	corners[nc][0] = corners[nc][1] = 0;
	nc++;
	while (nc) {
		size_t top = corners[0][0], left = corners[0][1], bottom, right;
		struct cell *cl;

		memmove(corners, corners + 1, --nc * sizeof(*corners));
		if (top == n - 1 || left == g.width - 1 || (long)top <= g.done[left])
			continue;
		if (!scan_cell(&g, top, left, &bottom, &right, rows, cols)) {
			if (!g.budget)
				goto out;
			continue;
		}
		for (size_t i = 0; i < n; i++)
			g.rowsep[i] |= rows[i];
		for (size_t i = 0; i < g.width; i++)
			g.colsep[i] |= cols[i];
		g.rowsep[top] = g.colsep[left] = true;
		for (size_t col = left; col < right; col++) {
			if (g.done[col] != (long)top - 1)
				goto out;
			g.done[col] = (long)bottom - 1;
		}
		if (g.ncells >= RST_MAX_TABLE_CELLS)
			goto out;
		QU_VEC_GROW(g.cells, g.ncells, g.alloc);
		cl = &g.cells[g.ncells++];
		memset(cl, 0, sizeof(*cl));
		cl->top = top;
		cl->left = left;
		cl->bottom = bottom;
		cl->right = right;
		cl->r0 = top + 1;
		cl->r1 = bottom;
		cl->c0 = left + 1;
		cl->c1 = right;
		/* new corners, inserted in order (docutils sorts the list) */
		for (int k = 0; k < 2; k++) {
			size_t nw[2] = { k ? bottom : top, k ? left : right };
			size_t lo = 0, hi = nc;

			while (lo < hi) {
				size_t mid = (lo + hi) / 2;

				if (cmp_corner(corners[mid], nw) <= 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			QU_VEC_GROW(corners, nc, calloc_);
			memmove(corners + lo + 1, corners + lo,
				(nc - lo) * sizeof(*corners));
			corners[lo][0] = nw[0];
			corners[lo][1] = nw[1];
			nc++;
		}
	}
	for (size_t col = 0; col + 1 < g.width; col++)
		if (g.done[col] != (long)n - 2)
			goto out;
	/* rows and columns from the borders seen */
	rowidx = qu_xmalloc(n * sizeof(*rowidx));
	colidx = qu_xmalloc(g.width * sizeof(*colidx));
	for (size_t i = 0; i < n; i++)
		rowidx[i] = g.rowsep[i] ? nr++ : (size_t)-1;
	widths = qu_xmalloc(g.width * sizeof(*widths));
	{
		size_t prev = 0;

		for (size_t i = 0; i < g.width; i++) {
			colidx[i] = g.colsep[i] ? ncol++ : (size_t)-1;
			if (g.colsep[i] && i) {
				widths[ncol - 2] = i - prev - 1;
			}
			if (g.colsep[i])
				prev = i;
		}
	}
	if (nr < 2 || ncol < 2)
		goto out;
	{
		size_t area = 0;

		for (size_t k = 0; k < g.ncells; k++) {
			struct cell *cl = &g.cells[k];

			cl->row = rowidx[cl->top];
			cl->col = colidx[cl->left];
			cl->morerows = rowidx[cl->bottom] - cl->row - 1;
			cl->morecols = colidx[cl->right] - cl->col - 1;
			area += (cl->morerows + 1) * (cl->morecols + 1);
		}
		if (area != (nr - 1) * (ncol - 1))
			goto out;
	}
	qsort(g.cells, g.ncells, sizeof(*g.cells), cmp_cell);
	build(c, parent, off, g.tl, widths, ncol - 1, g.cells, g.ncells, nr - 1,
	      head ? rowidx[head] : 0);
	ok = true;
out:
	free(corners);
	free(rowidx);
	free(colidx);
	free(widths);
	free(rows);
	free(cols);
	free(g.done);
	free(g.rowsep);
	free(g.colsep);
	free(g.cells);
	free_lines(g.tl, n);
	return ok;
}

struct span {
	size_t start, end;
};

static bool is_span_line(const struct tline *t)
{
	if (!t->n || t->cp[0] != '-')
		return false;
	for (size_t i = 0; i < t->n; i++)
		if (t->cp[i] != '-' && t->cp[i] != ' ')
			return false;
	return true;
}

/* parse_columns(): the runs of "-" in a border or span line. */
static size_t columns(const struct tline *t, struct span **out)
{
	size_t n = 0, alloc = 0, i = 0;

	*out = NULL;
	while (i < t->n) {
		size_t s;

		while (i < t->n && t->cp[i] != '-')
			i++;
		if (i >= t->n)
			break;
		s = i;
		while (i < t->n && t->cp[i] != ' ')
			i++;
		QU_VEC_GROW(*out, n, alloc);
		(*out)[n].start = s;
		(*out)[n].end = i;
		n++;
	}
	return n;
}

static bool blank_cols(const struct tline *t, size_t a, size_t e)
{
	for (size_t i = a; i < e && i < t->n; i++)
		if (t->cp[i] != ' ' && t->cp[i] != PAD)
			return false;
	return true;
}

/* A simple table on lines [@a, @e): false when malformed. */
static bool simple_table(struct rst_ctx *c, struct qu_rst_node *parent,
			 const struct blk *b, size_t a, size_t e)
{
	size_t n = e - a, ncols, head = 0, start = 1, nrows = 0;
	struct tline *tl = qu_xcalloc(n, sizeof(*tl));
	struct span *cols = NULL;
	struct cell *cells = NULL;
	size_t ncells = 0, alloc = 0, *widths = NULL, nhead = 0;
	bool ok = false, text_found = false;
	uint32_t off = blk_off(c, b, a);

	for (size_t i = 0; i < n; i++) {
		uint32_t len;
		const char *s = blk_line(c, b, a + i, &len);

		decode_line(&tl[i], s, len);
		tl[i].line = a + i;
	}
	for (size_t i = 0; i < n; i += n - 1) {
		for (size_t k = 0; k < tl[i].n; k++)
			if (tl[i].cp[k] == '=')
				tl[i].cp[k] = '-';
		if (n == 1)
			break;
	}
	for (size_t i = 1; i + 1 < n; i++) {
		struct tline *t = &tl[i];
		bool sep = t->n && t->cp[0] == '=';

		for (size_t k = 0; sep && k < t->n; k++)
			if (t->cp[k] != '=' && t->cp[k] != ' ')
				sep = false;
		if (sep) {
			if (head)
				goto out;
			head = i;
			for (size_t k = 0; k < t->n; k++)
				if (t->cp[k] == '=')
					t->cp[k] = '-';
		}
	}
	ncols = columns(&tl[0], &cols);
	if (!ncols || n < 2)
		goto out;
	for (size_t off2 = 1; off2 <= n; off2++) {
		bool span = off2 < n && is_span_line(&tl[off2]);
		bool newrow = off2 < n && !span &&
			      !blank_cols(&tl[off2], cols[0].start, cols[0].end);

		if (off2 == n && !span)
			break;
		if (span || (newrow && text_found && off2 != start)) {
			/* parse_row(lines [start, off2), spanline) */
			struct span *sp = cols, *own = NULL;
			size_t nsp = ncols;

			if (span) {
				nsp = columns(&tl[off2], &own);
				if (!nsp || own[nsp - 1].end != cols[ncols - 1].end) {
					free(own);
					goto out;
				}
				sp = own;
			}
			if (off2 > start || span) {
				size_t ci = 0;
				/* a span line ends a row even with no text in it
				 * (docutils then gives a row of empty entries) */
				bool any = off2 > start || span;

				for (size_t k = 0; k < nsp && any; k++) {
					size_t more = 0;
					struct cell *cl;
					size_t cend = k + 1 == nsp ? (size_t)-1 : sp[k].end;

					if (ci >= ncols || sp[k].start != cols[ci].start) {
						free(own);
						goto out;
					}
					while (ci < ncols && (k + 1 == nsp ? ci + 1 < ncols
								: cols[ci].end != sp[k].end)) {
						ci++;
						more++;
					}
					/* text may not sit in the margin */
					for (size_t r = start; r < off2; r++) {
						size_t nxt = k + 1 < nsp ? sp[k + 1].start : (size_t)-1;

						if (cend != (size_t)-1 && nxt != (size_t)-1 &&
						    !blank_cols(&tl[r], sp[k].end, nxt)) {
							free(own);
							goto out;
						}
					}
					if (ncells >= RST_MAX_TABLE_CELLS) {
						free(own);
						goto out;
					}
					QU_VEC_GROW(cells, ncells, alloc);
					cl = &cells[ncells++];
					memset(cl, 0, sizeof(*cl));
					cl->row = nrows;
					cl->col = k;
					cl->morecols = more;
					cl->r0 = start;
					cl->r1 = off2;
					cl->c0 = sp[k].start;
					cl->c1 = cend;
					cl->top = start;
					ci++;
				}
				if (any) {
					if (head && start <= head)
						nhead = nrows + 1;
					nrows++;
				}
			}
			free(own);
			start = off2 + 1;
			text_found = false;
		} else if (newrow) {
			start = off2;
			text_found = true;
		} else if (!text_found) {
			start = off2 + 1;
		}
		if (newrow && !text_found) {
			start = off2;
			text_found = true;
		}
	}
	if (!nrows)
		goto out;
	widths = qu_xmalloc(ncols * sizeof(*widths));
	for (size_t k = 0; k < ncols; k++)
		widths[k] = cols[k].end - cols[k].start;
	/* the last column is unbounded: it widens to its longest text */
	for (size_t k = 0; k < ncells; k++) {
		if (cells[k].c1 == (size_t)-1) {
			size_t w = cols[ncols - 1].end;

			for (size_t r = cells[k].r0; r < cells[k].r1; r++) {
				size_t e2 = tl[r].n;

				while (e2 > 0 && tl[r].cp[e2 - 1] == ' ')
					e2--;
				if (e2 > w)
					w = e2;
			}
			cells[k].c1 = w;
			if (w - cols[ncols - 1].start > widths[ncols - 1])
				widths[ncols - 1] = w - cols[ncols - 1].start;
		}
	}
	/* head rows: those that start above the separator */
	build(c, parent, off, tl, widths, ncols, cells, ncells, nrows,
	      head ? nhead : 0);
	ok = true;
out:
	free(cols);
	free(cells);
	free(widths);
	free_lines(tl, n);
	return ok;
}

static bool is_border(const struct rst_ctx *c, const struct blk *b, size_t i,
		      uint32_t *len)
{
	const char *s = blk_line(c, b, i, len);

	if (!*len || s[0] != '=')
		return false;
	for (uint32_t k = 0; k < *len; k++)
		if (s[k] != '=' && s[k] != ' ')
			return false;
	return true;
}

static size_t malformed(struct rst_ctx *c, struct qu_rst_node *parent,
			const struct blk *b, size_t a, size_t e, const char *why)
{
	struct qu_rst_node *n = rst_child(c, parent, QU_RST_LITERAL_BLOCK,
					  blk_off(c, b, a));
	struct qu_buf t = QU_BUF_INIT;

	rst_warn(c, QU_W_RST_TABLE, blk_off(c, b, a),
		 "malformed table (%s), kept as a literal block", why);
	for (size_t i = a; i < e; i++) {
		uint32_t len;
		const char *s = blk_line(c, b, i, &len);

		if (i > a)
			qu_buf_addc(&t, '\n');
		qu_buf_add(&t, s, len);
	}
	rst_set(c, n, "xml:space", "preserve");
	rst_text(c, n, t.buf, t.len, n->off);
	qu_buf_fini(&t);
	return e;
}

size_t rst_table(struct rst_ctx *c, struct qu_rst_node *parent,
		 const struct blk *b, size_t i, bool grid)
{
	size_t e;
	uint32_t len, toplen;

	if (grid) {
		/* isolate_grid_table(): the text block; it ends before a line
		 * not edged with + or |, then at the last border */
		size_t last = i;

		for (e = i; e < b->b; e++) {
			const char *s = blk_line(c, b, e, &len);

			if (!len)
				break;
			if (s[0] != '+' && s[0] != '|')
				break;
			if (s[0] == '+' && len > 1 && s[1] == '-')
				last = e;
		}
		if (last == i)
			return malformed(c, parent, b, i, e, "no bottom border");
		if (last + 1 != e) {
			const char *s = blk_line(c, b, last, &len);
			bool border = len > 1;

			for (uint32_t k = 0; k < len; k++)
				if (s[k] != '+' && s[k] != '-')
					border = false;
			if (!border)
				return malformed(c, parent, b, i, e, "no bottom border");
			e = last + 1;
		}
		if (!grid_table(c, parent, b, i, e))
			return malformed(c, parent, b, i, e, "cells do not fit");
		return e;
	}
	/* isolate_simple_table() */
	blk_line(c, b, i, &toplen);
	{
		int found = 0;

		for (e = i + 1; e < b->b; e++) {
			if (!is_border(c, b, e, &len))
				continue;
			if (len != toplen)
				return malformed(c, parent, b, i, e + 1,
						 "border does not match the top border");
			found++;
			if (found == 2 || e + 1 >= b->b ||
			    !blk_line(c, b, e + 1, &len) || !len) {
				break;
			}
		}
		if (e >= b->b)
			return malformed(c, parent, b, i, b->b, "no bottom border");
		e++;
	}
	if (!simple_table(c, parent, b, i, e))
		return malformed(c, parent, b, i, e, "columns do not line up");
	return e;
}
