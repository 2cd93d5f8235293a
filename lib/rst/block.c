// SPDX-License-Identifier: MIT
/*
 * block.c - body elements of reST (rst stage): sections, paragraphs,
 * literal blocks, lists, quotes, explicit markup and directives, the way
 * docutils' states.py recognizes them. Called by parse.c on the whole
 * document and by itself on every nested block; inline text goes to
 * inline.c, tables to table.c.
 */
#include <stdlib.h>
#include <string.h>

#include "rst_int.h"

/* Which directive names are known, and how their content is kept. */
enum content_kind {
	RST_CONTENT_NATIVE, RST_CONTENT_NESTED, RST_CONTENT_TITLED, RST_CONTENT_RAW
};
enum args_kind { RST_ARGS_NONE, RST_ARGS_ONE };

static const struct directive_row {
	const char *name;
	enum content_kind content;
	enum args_kind args;
} directives[] = {
#define RST_DIRECTIVE(id, name, content, args) { name, content, args },
#include "directives.def"
#undef RST_DIRECTIVE
};

/* Line classes of docutils' Body state, in the order it tries them. */
enum lclass {
	L_BLANK, L_INDENT, L_BULLET, L_ENUM, L_FIELD, L_OPTION, L_DOCTEST,
	L_LINE_BLOCK, L_GRID, L_SIMPLE, L_EXPLICIT, L_ANON, L_LINE, L_TEXT,
};

static const char *line(const struct rst_ctx *c, const struct blk *b,
			size_t i, uint32_t *len)
{
	return blk_line(c, b, i, len);
}

static bool blank(const struct rst_ctx *c, const struct blk *b, size_t i)
{
	uint32_t len;

	line(c, b, i, &len);
	return len == 0;
}

static uint32_t lead(const char *s, uint32_t len)
{
	uint32_t n = 0;

	while (n < len && s[n] == ' ')
		n++;
	return n;
}

static bool is_alnum(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9');
}

/* docutils' nonalphanum7bit: printable ASCII punctuation. */
static bool is_punct7(unsigned char ch)
{
	return ch > ' ' && ch < 0x7f && !is_alnum(ch);
}

/* A line of one punctuation character repeated: an adornment. */
static bool is_adornment(const char *s, uint32_t len)
{
	if (!len || !is_punct7((unsigned char)s[0]))
		return false;
	for (uint32_t i = 1; i < len; i++)
		if (s[i] != s[0])
			return false;
	return true;
}

/* The width of a title in columns: East Asian wide characters count two,
 * combining marks none (docutils' column_width()). */
static size_t column_width(const char *s, size_t len)
{
	size_t w = 0;

	for (size_t i = 0; i < len;) {
		unsigned char ch = s[i];
		uint32_t cp = ch;
		size_t n = 1;

		if (ch >= 0xf0 && i + 3 < len + 0) {
			cp = (ch & 7) << 18 | (s[i + 1] & 0x3f) << 12 |
			     (s[i + 2] & 0x3f) << 6 | (s[i + 3] & 0x3f);
			n = 4;
		} else if (ch >= 0xe0 && i + 2 < len) {
			cp = (ch & 15) << 12 | (s[i + 1] & 0x3f) << 6 |
			     (s[i + 2] & 0x3f);
			n = 3;
		} else if (ch >= 0xc0 && i + 1 < len) {
			cp = (ch & 31) << 6 | (s[i + 1] & 0x3f);
			n = 2;
		}
		i += n;
		if (cp >= 0x300 && cp < 0x370)
			continue;
		if ((cp >= 0x1100 && cp <= 0x115f) ||
		    (cp >= 0x2e80 && cp <= 0xa4cf) ||
		    (cp >= 0xac00 && cp <= 0xd7a3) ||
		    (cp >= 0xf900 && cp <= 0xfaff) ||
		    (cp >= 0xfe30 && cp <= 0xfe4f) ||
		    (cp >= 0xff00 && cp <= 0xff60) ||
		    (cp >= 0xffe0 && cp <= 0xffe6) || cp >= 0x20000)
			w += 2;
		else
			w += 1;
	}
	return w;
}

/* Bullets: - + * and U+2022, U+2023, U+2043; returns the marker's bytes. */
static uint32_t bullet_len(const char *s, uint32_t len)
{
	uint32_t n = 0;

	if (len && (s[0] == '-' || s[0] == '+' || s[0] == '*'))
		n = 1;
	else if (len >= 3 && (unsigned char)s[0] == 0xe2 &&
		 (((unsigned char)s[1] == 0x80 &&
		   ((unsigned char)s[2] == 0xa2 || (unsigned char)s[2] == 0xa3)) ||
		  ((unsigned char)s[1] == 0x81 && (unsigned char)s[2] == 0x83)))
		n = 3;
	if (!n || (n < len && s[n] != ' '))
		return 0;
	return n;
}

/* Past the marker and the spaces after it: docutils' match.end(). */
static uint32_t skip_spaces(const char *s, uint32_t len, uint32_t i)
{
	while (i < len && s[i] == ' ')
		i++;
	return i;
}

/* Enumerators ----------------------------------------------------------- */

enum enum_fmt { FMT_PERIOD, FMT_PARENS, FMT_RPAREN };
enum enum_seq { SEQ_ARABIC, SEQ_LOWERALPHA, SEQ_UPPERALPHA, SEQ_LOWERROMAN,
		SEQ_UPPERROMAN, SEQ_AUTO };
static const char *const seq_names[] = {
	"arabic", "loweralpha", "upperalpha", "lowerroman", "upperroman",
	"arabic",
};

struct enumerator {
	enum enum_fmt fmt;
	enum enum_seq seq;
	long ordinal; /* -1: an invalid roman numeral */
	uint32_t end; /* docutils' match.end() */
};

static int roman_value(char ch)
{
	switch (ch | 0x20) {
	case 'i': return 1;
	case 'v': return 5;
	case 'x': return 10;
	case 'l': return 50;
	case 'c': return 100;
	case 'd': return 500;
	case 'm': return 1000;
	}
	return 0;
}

/* roman.fromRoman(): only canonical numerals up to 4999 are valid. */
static long from_roman(const char *s, uint32_t len)
{
	static const char *const ones[] = { "", "i", "ii", "iii", "iv", "v",
					     "vi", "vii", "viii", "ix" };
	static const char *const tens[] = { "", "x", "xx", "xxx", "xl", "l",
					     "lx", "lxx", "lxxx", "xc" };
	static const char *const hund[] = { "", "c", "cc", "ccc", "cd", "d",
					     "dc", "dcc", "dccc", "cm" };
	long v = 0;
	char canon[32], low[32];
	size_t n = 0;

	if (len >= sizeof(low))
		return -1;
	for (uint32_t i = 0; i < len; i++) {
		int a = roman_value(s[i]), b = i + 1 < len ? roman_value(s[i + 1]) : 0;

		low[i] = (char)(s[i] | 0x20);
		v += a < b ? -a : a;
	}
	low[len] = '\0';
	if (v <= 0 || v >= 5000)
		return -1;
	for (long m = v / 1000; m > 0; m--)
		canon[n++] = 'm';
	n += (size_t)snprintf(canon + n, sizeof(canon) - n, "%s%s%s",
			      hund[v / 100 % 10], tens[v / 10 % 10], ones[v % 10]);
	return strcmp(canon, low) ? -1 : v;
}

static bool all_of(const char *s, uint32_t len, const char *set)
{
	for (uint32_t i = 0; i < len; i++)
		if (!s[i] || !strchr(set, s[i]))
			return false;
	return len > 0;
}

/* docutils' parse_enumerator(); @expect is the list's sequence, or -1. */
static bool parse_enumerator(struct enumerator *e, const char *s, uint32_t len,
			     int expect)
{
	uint32_t i = 0, t0, t1;

	if (!len)
		return false;
	if (s[0] == '(') {
		e->fmt = FMT_PARENS;
		i = 1;
	}
	t0 = i;
	if (i < len && s[i] == '#')
		i++;
	else if (i < len && s[i] >= '0' && s[i] <= '9')
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
	else
		while (i < len && ((s[i] >= 'a' && s[i] <= 'z') ||
				   (s[i] >= 'A' && s[i] <= 'Z')))
			i++;
	t1 = i;
	if (t1 == t0 || i >= len)
		return false;
	if (t0 == 1) {
		if (s[i] != ')')
			return false;
	} else if (s[i] == ')') {
		e->fmt = FMT_RPAREN;
	} else if (s[i] == '.') {
		e->fmt = FMT_PERIOD;
	} else {
		return false;
	}
	i++;
	if (i < len && s[i] != ' ')
		return false;
	e->end = skip_spaces(s, len, i);
	s += t0;
	len = t1 - t0;
	/* The enumerator regexp: arabic, one letter, or roman letters. */
	if (s[0] == '#') {
		e->seq = SEQ_AUTO;
		e->ordinal = 1;
		return true;
	}
	if (s[0] >= '0' && s[0] <= '9') {
		if (len > 9)
			return false;
		e->seq = SEQ_ARABIC;
	} else if (len == 1 || all_of(s, len, "ivxlcdm") ||
		   all_of(s, len, "IVXLCDM")) {
		bool lower = s[0] >= 'a';

		if (expect == SEQ_LOWERALPHA || expect == SEQ_UPPERALPHA ||
		    expect == SEQ_LOWERROMAN || expect == SEQ_UPPERROMAN) {
			e->seq = expect;
			if (len > 1 && (expect == SEQ_LOWERALPHA ||
					expect == SEQ_UPPERALPHA))
				e->seq = lower ? SEQ_LOWERROMAN : SEQ_UPPERROMAN;
			if ((e->seq == SEQ_LOWERALPHA || e->seq == SEQ_LOWERROMAN) != lower)
				e->seq = len == 1 ? (lower ? SEQ_LOWERALPHA : SEQ_UPPERALPHA)
						  : (lower ? SEQ_LOWERROMAN : SEQ_UPPERROMAN);
			if ((e->seq == SEQ_LOWERROMAN || e->seq == SEQ_UPPERROMAN) &&
			    !all_of(s, len, lower ? "ivxlcdm" : "IVXLCDM"))
				e->seq = lower ? SEQ_LOWERALPHA : SEQ_UPPERALPHA;
		} else if (len == 1 && s[0] == 'i') {
			e->seq = SEQ_LOWERROMAN;
		} else if (len == 1 && s[0] == 'I') {
			e->seq = SEQ_UPPERROMAN;
		} else if (len == 1) {
			e->seq = lower ? SEQ_LOWERALPHA : SEQ_UPPERALPHA;
		} else {
			e->seq = lower ? SEQ_LOWERROMAN : SEQ_UPPERROMAN;
		}
	} else {
		return false;
	}
	switch (e->seq) {
	case SEQ_ARABIC:
		e->ordinal = strtol(s, NULL, 10);
		break;
	case SEQ_LOWERALPHA:
		e->ordinal = s[0] - 'a' + 1;
		break;
	case SEQ_UPPERALPHA:
		e->ordinal = s[0] - 'A' + 1;
		break;
	default:
		e->ordinal = from_roman(s, len);
		break;
	}
	return true;
}

/* The text of enumerator @ordinal in @seq and @fmt (make_enumerator()). */
static void make_enumerator(struct qu_buf *b, long ordinal, enum enum_seq seq,
			    enum enum_fmt fmt)
{
	static const char *const r1[] = { "", "i", "ii", "iii", "iv", "v",
					   "vi", "vii", "viii", "ix" };
	static const char *const r10[] = { "", "x", "xx", "xxx", "xl", "l",
					    "lx", "lxx", "lxxx", "xc" };
	static const char *const r100[] = { "", "c", "cc", "ccc", "cd", "d",
					     "dc", "dcc", "dccc", "cm" };
	size_t start;

	qu_buf_reset(b);
	if (fmt == FMT_PARENS)
		qu_buf_addc(b, '(');
	start = b->len;
	switch (seq) {
	case SEQ_AUTO:
		qu_buf_addc(b, '#');
		break;
	case SEQ_ARABIC:
		qu_buf_addf(b, "%ld", ordinal);
		break;
	case SEQ_LOWERALPHA:
	case SEQ_UPPERALPHA:
		if (ordinal < 1 || ordinal > 26) {
			qu_buf_reset(b);
			return;
		}
		qu_buf_addc(b, (char)((seq == SEQ_LOWERALPHA ? 'a' : 'A') + ordinal - 1));
		break;
	default:
		if (ordinal < 1 || ordinal >= 5000) {
			qu_buf_reset(b);
			return;
		}
		for (long m = ordinal / 1000; m > 0; m--)
			qu_buf_addc(b, 'm');
		qu_buf_addf(b, "%s%s%s", r100[ordinal / 100 % 10],
			    r10[ordinal / 10 % 10], r1[ordinal % 10]);
		if (seq == SEQ_UPPERROMAN)
			for (size_t k = start; k < b->len; k++)
				b->buf[k] = (char)(b->buf[k] - 0x20);
		break;
	}
	qu_buf_addc(b, fmt == FMT_PERIOD ? '.' : ')');
	qu_buf_addc(b, ' ');
}

/* Field and option markers -------------------------------------------- */

/* docutils' field_marker: ":name:" then spaces or the end of the line.
 * Returns match.end(), or 0; *@name_end is the offset of the last colon. */
static uint32_t field_marker(const char *s, uint32_t len, uint32_t *name_end)
{
	if (len < 3 || s[0] != ':' || s[1] == ':' || s[1] == ' ')
		return 0;
	for (uint32_t j = 1; j < len; j++) {
		if (s[j] == '\\') {
			j++;
			continue;
		}
		if (s[j] != ':')
			continue;
		if (j + 1 == len || s[j + 1] == ' ') {
			if (s[j - 1] == ' ')
				return 0;
			*name_end = j;
			return skip_spaces(s, len, j + 1);
		}
		if (s[j + 1] == '`')
			return 0;
	}
	return 0;
}

static bool optname_char(unsigned char ch)
{
	return is_alnum(ch) || ch == '_' || ch == '-';
}

/* An option argument: a name or "<anything but angle brackets>". */
static uint32_t optarg(const char *s, uint32_t len, uint32_t i)
{
	if (i < len && s[i] == '<') {
		uint32_t j = i + 1;

		while (j < len && s[j] != '<' && s[j] != '>')
			j++;
		return j < len && s[j] == '>' && j > i + 1 ? j + 1 : 0;
	}
	if (i < len && is_alnum((unsigned char)s[i])) {
		while (i < len && optname_char((unsigned char)s[i]))
			i++;
		return i;
	}
	return 0;
}

/* One option of an option marker: -a, -a ARG, -aARG, --long[=ARG], /V. */
static uint32_t one_option(const char *s, uint32_t len, uint32_t i)
{
	uint32_t j, k;

	if (i + 1 < len && (s[i] == '-' || s[i] == '+') && s[i + 1] != '-') {
		if (!is_alnum((unsigned char)s[i + 1]))
			return 0;
		j = i + 2;
		k = optarg(s, len, j < len && s[j] == ' ' ? j + 1 : j);
		return k ? k : j;
	}
	if (i + 2 < len && s[i] == '-' && s[i + 1] == '-')
		j = i + 2;
	else if (i + 1 < len && s[i] == '/')
		j = i + 1;
	else
		return 0;
	if (!is_alnum((unsigned char)s[j]))
		return 0;
	while (j < len && optname_char((unsigned char)s[j]))
		j++;
	if (j < len && (s[j] == ' ' || s[j] == '=')) {
		k = optarg(s, len, j + 1);
		if (k)
			return k;
	}
	return j;
}

/* docutils' option_marker: options separated by ", ", then two spaces
 * or the end of the line. Returns match.end() or 0; *@mend is where the
 * options end. */
static uint32_t option_marker(const char *s, uint32_t len, uint32_t *mend)
{
	uint32_t i = 0, j;

	for (;;) {
		j = one_option(s, len, i);
		if (!j)
			return 0;
		if (j + 1 < len && s[j] == ',' && s[j + 1] == ' ') {
			i = j + 2;
			continue;
		}
		break;
	}
	*mend = j;
	if (j == len)
		return j;
	if (j + 1 == len && s[j] == ' ')
		return len;
	if (j + 1 < len && s[j] == ' ' && s[j + 1] == ' ')
		return skip_spaces(s, len, j);
	return 0;
}

/* Explicit markup and tables' tops, by shape. */
static bool is_grid_top(const char *s, uint32_t len)
{
	if (len < 3 || s[0] != '+' || s[1] != '-' || s[len - 1] != '+' ||
	    s[len - 2] != '-')
		return false;
	for (uint32_t i = 0; i < len; i++)
		if (s[i] != '-' && s[i] != '+')
			return false;
	return true;
}

static bool is_simple_top(const char *s, uint32_t len)
{
	bool gap = false;

	if (!len || s[0] != '=')
		return false;
	for (uint32_t i = 0; i < len; i++) {
		if (s[i] == ' ')
			gap = true;
		else if (s[i] != '=')
			return false;
	}
	return gap;
}

static enum lclass classify(const char *s, uint32_t len)
{
	struct enumerator e;
	uint32_t x;

	if (!len)
		return L_BLANK;
	if (s[0] == ' ')
		return L_INDENT;
	if (bullet_len(s, len))
		return L_BULLET;
	if (parse_enumerator(&e, s, len, -1))
		return L_ENUM;
	if (field_marker(s, len, &x))
		return L_FIELD;
	if (option_marker(s, len, &x))
		return L_OPTION;
	if (len >= 3 && !memcmp(s, ">>>", 3) && (len == 3 || s[3] == ' '))
		return L_DOCTEST;
	if (s[0] == '|' && (len == 1 || s[1] == ' '))
		return L_LINE_BLOCK;
	if (is_grid_top(s, len))
		return L_GRID;
	if (is_simple_top(s, len))
		return L_SIMPLE;
	if (len >= 2 && s[0] == '.' && s[1] == '.' && (len == 2 || s[2] == ' '))
		return L_EXPLICIT;
	if (len >= 2 && s[0] == '_' && s[1] == '_' && (len == 2 || s[2] == ' '))
		return L_ANON;
	if (is_adornment(s, len))
		return L_LINE;
	return L_TEXT;
}

/* Indented blocks -------------------------------------------------------- */

/*
 * docutils' StringList.get_indented(): from line @start of @b, the lines
 * that are blank or indented. With @first >= 0 the first line belongs
 * whatever its indentation and loses @first columns; with @known >= 0
 * every other line must be indented that much and loses exactly that.
 * Otherwise the least indentation of the other lines is removed.
 */
static size_t get_indented(const struct rst_ctx *c, const struct blk *b,
			   size_t start, long first, long known,
			   bool until_blank, struct blk *out, bool *blank_finish)
{
	long indent = known;
	size_t end = start;
	uint32_t base0 = start == b->a ? b->col0 : b->col;

	if (known >= 0 && first < 0)
		first = known;
	if (first >= 0)
		end++;
	*blank_finish = true;
	while (end < b->b) {
		uint32_t len;
		const char *s = line(c, b, end, &len);

		if (len && (s[0] != ' ' || (known >= 0 && lead(s, len) < known))) {
			*blank_finish = end > start && blank(c, b, end - 1);
			break;
		}
		if (!len) {
			if (until_blank)
				break;
		} else if (known < 0) {
			long li = lead(s, len);

			indent = indent < 0 || li < indent ? li : indent;
		}
		end++;
	}
	if (indent < 0)
		indent = 0;
	out->a = start;
	out->b = end;
	out->col = b->col + (uint32_t)indent;
	out->col0 = first >= 0 ? base0 + (uint32_t)first : b->col + (uint32_t)indent;
	if (first < 0 && start == b->a)
		out->col0 = b->col0 + (uint32_t)indent;
	return end;
}

/* Drop blank lines at the top (strip_top) and at the bottom. */
static void trim(const struct rst_ctx *c, struct blk *b)
{
	while (b->a < b->b && blank(c, b, b->a)) {
		b->a++;
		b->col0 = b->col;
	}
	while (b->b > b->a && blank(c, b, b->b - 1))
		b->b--;
}

/* The lines of @b joined by newlines, into the arena; @segs/@nsegs map
 * positions of the joined text back to input offsets, a line each. */
struct joined {
	char *s;
	size_t len;
};

static struct joined join(struct rst_ctx *c, const struct blk *b, size_t a,
			  size_t e, uint32_t strip0)
{
	struct joined j;
	size_t n = 0;
	char *o;

	for (size_t i = a; i < e; i++) {
		uint32_t len;

		line(c, b, i, &len);
		n += len + 1;
	}
	j.s = o = qu_arena_alloc(c->a, n + 1);
	for (size_t i = a; i < e; i++) {
		uint32_t len;
		const char *s = line(c, b, i, &len);

		if (i == a) {
			uint32_t k = strip0 < len ? strip0 : len;

			s += k;
			len -= k;
		}
		if (i > a)
			*o++ = '\n';
		memcpy(o, s, len);
		o += len;
	}
	*o = '\0';
	j.len = (size_t)(o - j.s);
	return j;
}

static void inline_lines(struct rst_ctx *c, struct qu_rst_node *parent,
			 const struct blk *b, size_t a, size_t e)
{
	struct joined j = join(c, b, a, e, 0);

	rst_inline(c, parent, j.s, j.len, blk_off(c, b, a));
}

static struct qu_rst_node *literal(struct rst_ctx *c,
				   struct qu_rst_node *parent,
				   enum qu_rst_kind kind, const struct blk *b,
				   size_t a, size_t e)
{
	struct qu_rst_node *n = rst_child(c, parent, kind, blk_off(c, b, a));
	struct joined j = join(c, b, a, e, 0);

	rst_set(c, n, "xml:space", "preserve");
	rst_text(c, n, j.s, j.len, n->off);
	return n;
}

/* Lines quire could not place are kept, as a literal block. */
static void keep(struct rst_ctx *c, struct qu_rst_node *parent,
		 const struct blk *b, size_t a, size_t e)
{
	literal(c, parent, QU_RST_LITERAL_BLOCK, b, a, e);
}

static void parse_nested(struct rst_ctx *c, struct qu_rst_node *parent,
			 const struct blk *b)
{
	struct blk t = *b;

	trim(c, &t);
	if (t.a < t.b)
		rst_parse_body(c, parent, &t, false);
}

static void unindent_warning(struct rst_ctx *c, const struct blk *b,
			     size_t i, const char *what)
{
	if (i < b->b)
		rst_warn(c, QU_W_RST_INDENT, blk_off(c, b, i),
			 "%s ends without a blank line; unexpected unindent",
			 what);
}

/*
 * After explicit markup: docutils reads the explicit markup that follows
 * at once (".. ", "..", "__ ") as more of the same list, and warns only
 * when the list ends on a line that is neither that nor blank.
 */
static void explicit_unindent_warning(struct rst_ctx *c, const struct blk *b,
				      size_t i)
{
	uint32_t len;
	const char *s;

	if (i >= b->b)
		return;
	s = line(c, b, i, &len);
	if (len >= 2 && ((s[0] == '.' && s[1] == '.') ||
			 (s[0] == '_' && s[1] == '_')) &&
	    (len == 2 || s[2] == ' '))
		return;
	unindent_warning(c, b, i, "explicit markup");
}

/* Next non-blank line at or after @i. */
static size_t skip_blank(const struct rst_ctx *c, const struct blk *b,
			 size_t i)
{
	while (i < b->b && blank(c, b, i))
		i++;
	return i;
}

/* Lists ----------------------------------------------------------------- */

/* docutils' list_item(): the item's text after the marker at column @end. */
static size_t list_item(struct rst_ctx *c, struct qu_rst_node *list,
			const struct blk *b, size_t i, uint32_t end,
			bool *blank_finish)
{
	uint32_t len;
	struct blk sub;
	struct qu_rst_node *item;
	size_t next;

	line(c, b, i, &len);
	if (end < len)
		next = get_indented(c, b, i, -1, end, false, &sub, blank_finish);
	else
		next = get_indented(c, b, i, end, -1, false, &sub, blank_finish);
	item = rst_child(c, list, QU_RST_LIST_ITEM, blk_off(c, b, i));
	parse_nested(c, item, &sub);
	return next;
}

static size_t bullet_list(struct rst_ctx *c, struct qu_rst_node *parent,
			  const struct blk *b, size_t i)
{
	uint32_t len;
	const char *s = line(c, b, i, &len);
	uint32_t blen = bullet_len(s, len);
	char bullet[4];
	struct qu_rst_node *list;
	bool bf = true;

	memcpy(bullet, s, blen);
	bullet[blen] = '\0';
	list = rst_child(c, parent, QU_RST_BULLET_LIST, blk_off(c, b, i));
	rst_set(c, list, "bullet", bullet);
	for (;;) {
		size_t j;

		i = list_item(c, list, b, i, skip_spaces(s, len, blen), &bf);
		j = skip_blank(c, b, i);
		if (j >= b->b)
			return j;
		s = line(c, b, j, &len);
		if (bullet_len(s, len) == blen && !memcmp(s, bullet, blen) &&
		    (j > i || bf || true)) {
			i = j;
			continue;
		}
		if (!bf && j == i)
			unindent_warning(c, b, j, "bullet list");
		return j;
	}
}

/* docutils' is_enumerated_list_item(): the next line is blank, indented,
 * or the next enumerator. */
static bool enum_item_ok(struct rst_ctx *c, const struct blk *b, size_t i,
			 const struct enumerator *e)
{
	uint32_t len;
	const char *s;
	struct qu_buf want = QU_BUF_INIT;
	bool ok = false;

	if (e->ordinal < 0)
		return false;
	if (i + 1 >= b->b)
		return true;
	s = line(c, b, i + 1, &len);
	if (!len || s[0] == ' ')
		return true;
	make_enumerator(&want, e->ordinal + 1, e->seq, e->fmt);
	if (want.len && len >= want.len && !memcmp(s, want.buf, want.len))
		ok = true;
	make_enumerator(&want, 0, SEQ_AUTO, e->fmt);
	if (len >= want.len && !memcmp(s, want.buf, want.len))
		ok = true;
	/* a line that ends right after the enumerator matches too */
	qu_buf_fini(&want);
	return ok;
}

static size_t enumerated_list(struct rst_ctx *c, struct qu_rst_node *parent,
			      const struct blk *b, size_t i,
			      const struct enumerator *first)
{
	static const char *const prefix[] = { "", "(", "" };
	static const char *const suffix[] = { ".", ")", ")" };
	struct qu_rst_node *list;
	struct enumerator e = *first;
	long last = e.ordinal;
	bool autoenum = e.seq == SEQ_AUTO, bf = true;
	enum enum_seq seq = e.seq == SEQ_AUTO ? SEQ_ARABIC : e.seq;

	list = rst_child(c, parent, QU_RST_ENUMERATED_LIST, blk_off(c, b, i));
	rst_set(c, list, "enumtype", seq_names[e.seq]);
	rst_set(c, list, "prefix", prefix[e.fmt]);
	rst_set(c, list, "suffix", suffix[e.fmt]);
	if (e.ordinal != 1) {
		char num[24];

		snprintf(num, sizeof(num), "%ld", e.ordinal);
		rst_set(c, list, "start", num);
	}
	for (;;) {
		size_t j;
		uint32_t len;
		const char *s;
		struct enumerator n;

		i = list_item(c, list, b, i, e.end, &bf);
		j = skip_blank(c, b, i);
		if (j >= b->b)
			return j;
		s = line(c, b, j, &len);
		if (parse_enumerator(&n, s, len, seq) && n.fmt == e.fmt &&
		    (n.seq == SEQ_AUTO ||
		     (n.seq == seq && !autoenum && n.ordinal == last + 1)) &&
		    enum_item_ok(c, b, j, &n)) {
			if (n.seq == SEQ_AUTO)
				autoenum = true;
			last = n.ordinal;
			e = n;
			i = j;
			continue;
		}
		if (!bf && j == i)
			unindent_warning(c, b, j, "enumerated list");
		return j;
	}
}

/* A field's body: the text after the marker and the indented lines. */
static size_t field(struct rst_ctx *c, struct qu_rst_node *list,
		    const struct blk *b, size_t i, bool *bf)
{
	uint32_t len, nend = 0;
	const char *s = line(c, b, i, &len);
	uint32_t end = field_marker(s, len, &nend);
	struct qu_rst_node *f, *name, *body;
	struct blk sub;
	size_t next;

	f = rst_child(c, list, QU_RST_FIELD, blk_off(c, b, i));
	name = rst_child(c, f, QU_RST_FIELD_NAME, f->off + 1);
	rst_inline(c, name, s + 1, nend - 1, f->off + 1);
	body = rst_child(c, f, QU_RST_FIELD_BODY, f->off);
	next = get_indented(c, b, i, end, -1, false, &sub, bf);
	parse_nested(c, body, &sub);
	return next;
}

static size_t field_list(struct rst_ctx *c, struct qu_rst_node *parent,
			 const struct blk *b, size_t i)
{
	struct qu_rst_node *list =
		rst_child(c, parent, QU_RST_FIELD_LIST, blk_off(c, b, i));
	bool bf = true;

	for (;;) {
		size_t j;
		uint32_t len, x;
		const char *s;

		i = field(c, list, b, i, &bf);
		j = skip_blank(c, b, i);
		if (j >= b->b)
			return j;
		s = line(c, b, j, &len);
		if (field_marker(s, len, &x)) {
			i = j;
			continue;
		}
		if (!bf && j == i)
			unindent_warning(c, b, j, "field list");
		return j;
	}
}

/* parse_option_marker(): split the marker into options and arguments. */
static void option_group(struct rst_ctx *c, struct qu_rst_node *group,
			 const char *s, uint32_t len, uint32_t off)
{
	uint32_t i = 0;

	while (i < len) {
		uint32_t e = i, ts, te, as = 0, ae = 0;
		const char *delim = " ";
		struct qu_rst_node *opt, *n;

		while (e < len && !(s[e] == ',' && e + 1 < len && s[e + 1] == ' '))
			e++;
		/* tokens: the option string, then its argument */
		ts = i;
		te = ts;
		while (te < e && s[te] != ' ' && s[te] != '=')
			te++;
		if (te < e && s[te] == '=') {
			delim = "=";
			as = te + 1;
			ae = e;
		} else if (te - ts > 2 && ((s[ts] == '-' && s[ts + 1] != '-') ||
					   s[ts] == '+')) {
			delim = "";
			as = ts + 2;
			ae = te;
			te = ts + 2;
			if (ae < e) {
				as = ae = 0; /* "-ovalue more": not docutils' shape */
			}
		} else if (te < e) {
			as = skip_spaces(s, e, te);
			ae = e;
		}
		opt = rst_child(c, group, QU_RST_OPTION, off + ts);
		n = rst_child(c, opt, QU_RST_OPTION_STRING, off + ts);
		rst_text(c, n, s + ts, te - ts, off + ts);
		if (ae > as) {
			n = rst_child(c, opt, QU_RST_OPTION_ARGUMENT, off + as);
			rst_set(c, n, "delimiter", delim);
			rst_text(c, n, s + as, ae - as, off + as);
		}
		i = e + 2;
	}
}

/* Returns the line after the list, or @i when the line is no option list
 * item after all (no description: docutils then reads it as text). */
static size_t option_list(struct rst_ctx *c, struct qu_rst_node *parent,
			  const struct blk *b, size_t i)
{
	struct qu_rst_node *list = NULL;
	bool bf = true;
	size_t start = i;

	for (;;) {
		uint32_t len, mend = 0, end;
		const char *s = line(c, b, i, &len);
		struct blk sub;
		struct qu_rst_node *item, *group, *desc;
		size_t next, j;

		end = option_marker(s, len, &mend);
		next = get_indented(c, b, i, end, -1, false, &sub, &bf);
		trim(c, &sub);
		if (sub.a >= sub.b) {
			if (i == start)
				return start;
			return i;
		}
		if (!list)
			list = rst_child(c, parent, QU_RST_OPTION_LIST,
					 blk_off(c, b, i));
		item = rst_child(c, list, QU_RST_OPTION_LIST_ITEM, blk_off(c, b, i));
		group = rst_child(c, item, QU_RST_OPTION_GROUP, item->off);
		option_group(c, group, s, mend, item->off);
		desc = rst_child(c, item, QU_RST_DESCRIPTION, item->off);
		parse_nested(c, desc, &sub);
		i = next;
		j = skip_blank(c, b, i);
		if (j >= b->b)
			return j;
		s = line(c, b, j, &len);
		if (option_marker(s, len, &mend)) {
			i = j;
			continue;
		}
		if (!bf && j == i)
			unindent_warning(c, b, j, "option list");
		return j;
	}
}

/* Line blocks ------------------------------------------------------------ */

struct lb_line {
	struct qu_rst_node *node;
	long indent;
};

/* nest_line_block_segment(): deeper lines go into nested line blocks. */
static void nest_lines(struct rst_ctx *c, struct qu_rst_node *block,
		       struct lb_line *v, size_t n, int depth)
{
	long least = v[0].indent;
	size_t k = 0;

	for (size_t i = 1; i < n; i++)
		if (v[i].indent < least)
			least = v[i].indent;
	while (k < n) {
		if (v[k].indent <= least || depth >= RST_MAX_DEPTH) {
			rst_append(block, v[k].node);
			k++;
			continue;
		}
		{
			size_t e = k;
			struct qu_rst_node *sub =
				rst_child(c, block, QU_RST_LINE_BLOCK, v[k].node->off);

			while (e < n && v[e].indent > least)
				e++;
			nest_lines(c, sub, v + k, e - k, depth + 1);
			k = e;
		}
	}
}

static size_t line_block(struct rst_ctx *c, struct qu_rst_node *parent,
			 const struct blk *b, size_t i)
{
	struct qu_rst_node *block =
		rst_child(c, parent, QU_RST_LINE_BLOCK, blk_off(c, b, i));
	struct lb_line *v = NULL;
	size_t n = 0, alloc = 0;
	bool bf = true;

	for (;;) {
		uint32_t len;
		const char *s = line(c, b, i, &len);
		uint32_t end;
		struct blk sub;
		struct qu_rst_node *ln;

		if (!len || s[0] != '|' || (len > 1 && s[1] != ' '))
			break;
		end = skip_spaces(s, len, 1);
		ln = rst_node(c, QU_RST_LINE, blk_off(c, b, i));
		QU_VEC_GROW(v, n, alloc);
		v[n].node = ln;
		v[n].indent = len > 1 ? (long)end - 2 : -1;
		n++;
		i = get_indented(c, b, i, end, -1, true, &sub, &bf);
		trim(c, &sub);
		if (sub.a < sub.b)
			inline_lines(c, ln, &sub, sub.a, sub.b);
		if (i >= b->b || blank(c, b, i))
			break;
	}
	if (i < b->b && !blank(c, b, i))
		rst_warn(c, QU_W_RST_INDENT, blk_off(c, b, i),
			 "line block ends without a blank line");
	if (v[0].indent < 0)
		v[0].indent = 0;
	for (size_t k = 1; k < n; k++)
		if (v[k].indent < 0)
			v[k].indent = v[k - 1].indent;
	nest_lines(c, block, v, n, 0);
	free(v);
	return i;
}

/* Block quotes ----------------------------------------------------------- */

/* attribution_pattern: "--", "---" or an em dash, then text. */
static uint32_t attribution_mark(const char *s, uint32_t len)
{
	uint32_t i;

	if (len >= 3 && !memcmp(s, "\xe2\x80\x94", 3))
		i = 3;
	else if (len >= 3 && !memcmp(s, "---", 3) && (len == 3 || s[3] != '-'))
		i = 3;
	else if (len >= 2 && !memcmp(s, "--", 2) && (len == 2 || s[2] != '-'))
		i = 2;
	else
		return 0;
	i = skip_spaces(s, len, i);
	return i < len ? i : 0;
}

static size_t block_quote(struct rst_ctx *c, struct qu_rst_node *parent,
			  const struct blk *b, size_t i)
{
	struct blk q;
	bool bf;
	size_t next = get_indented(c, b, i, -1, -1, false, &q, &bf);

	trim(c, &q);
	while (q.a < q.b) {
		struct qu_rst_node *bq =
			rst_child(c, parent, QU_RST_BLOCK_QUOTE, blk_off(c, &q, q.a));
		long blank_at = -1;
		bool seen = false;
		size_t k, attr = 0, aend = 0;
		uint32_t amark = 0, aindent = 0;

		/* split_attribution() */
		for (k = q.a; k < q.b; k++) {
			uint32_t len;
			const char *s = line(c, &q, k, &len);

			if (!len) {
				blank_at = (long)k;
				continue;
			}
			if (seen && blank_at == (long)k - 1 &&
			    (amark = attribution_mark(s, len))) {
				long ind = -1;
				size_t e;
				bool ok = true;

				for (e = k + 1; e < q.b; e++) {
					uint32_t l2;
					const char *t = line(c, &q, e, &l2);

					if (!l2)
						break;
					if (ind < 0)
						ind = lead(t, l2);
					else if (lead(t, l2) != ind) {
						ok = false;
						break;
					}
				}
				if (ok) {
					attr = k;
					aend = e;
					aindent = ind < 0 ? 0 : (uint32_t)ind;
					break;
				}
			}
			seen = true;
		}
		{
			struct blk body = q;

			if (attr)
				body.b = attr;
			parse_nested(c, bq, &body);
		}
		if (!attr)
			break;
		{
			struct blk ab = { attr, aend, q.col + aindent,
					  (attr == q.a ? q.col0 : q.col) + amark };
			struct qu_rst_node *an = rst_child(c, bq, QU_RST_ATTRIBUTION,
							   blk_off(c, &ab, attr));
			struct joined j = join(c, &ab, attr, aend, 0);

			while (j.len && (j.s[j.len - 1] == ' ' || j.s[j.len - 1] == '\n'))
				j.len--;
			rst_inline(c, an, j.s, j.len, an->off);
		}
		q.a = aend;
		q.col0 = q.col;
		trim(c, &q);
	}
	if (!bf)
		unindent_warning(c, b, next, "block quote");
	return next;
}

/* Literal blocks --------------------------------------------------------- */

/* The block after a paragraph ending in "::" (literal_block()). */
static size_t literal_block(struct rst_ctx *c, struct qu_rst_node *parent,
			    const struct blk *b, size_t i)
{
	struct blk lb;
	bool bf;
	size_t next;
	uint32_t len;
	const char *s;

	if (i >= b->b) {
		rst_warn(c, QU_W_RST_LITERAL, blk_off(c, b, i - 1),
			 "literal block expected; none found");
		return i;
	}
	next = get_indented(c, b, i, -1, -1, false, &lb, &bf);
	trim(c, &lb);
	if (lb.a < lb.b) {
		literal(c, parent, QU_RST_LITERAL_BLOCK, &lb, lb.a, lb.b);
		if (!bf)
			unindent_warning(c, b, next, "literal block");
		return next;
	}
	/* quoted literal block: unindented lines that all begin with the
	 * same punctuation character */
	i = skip_blank(c, b, i);
	/* (only blank lines left: no line @i to look at) */
	s = i < b->b ? line(c, b, i, &len) : NULL;
	if (s && is_punct7((unsigned char)s[0])) {
		char q = s[0];
		size_t e = i;

		while (e < b->b) {
			const char *t = line(c, b, e, &len);

			if (!len || t[0] != q)
				break;
			e++;
		}
		literal(c, parent, QU_RST_LITERAL_BLOCK, b, i, e);
		return e;
	}
	rst_warn(c, QU_W_RST_LITERAL, blk_off(c, b, i < b->b ? i : i - 1),
		 "literal block expected; none found");
	return i;
}

/* Paragraphs, definition lists, titles ---------------------------------- */

/* paragraph(): the text of lines [a, e); true when a literal block follows. */
static bool paragraph(struct rst_ctx *c, struct qu_rst_node *parent,
		      const struct blk *b, size_t a, size_t e)
{
	struct joined j = join(c, b, a, e, 0);
	size_t n = j.len, bs = 0;
	bool lit = false;
	struct qu_rst_node *p;

	if (n >= 2 && j.s[n - 1] == ':' && j.s[n - 2] == ':') {
		for (size_t k = n - 2; k > 0 && j.s[k - 1] == '\\'; k--)
			bs++;
		if (!(bs & 1)) {
			lit = true;
			if (n == 2)
				return true;
			if (j.s[n - 3] == ' ' || j.s[n - 3] == '\n') {
				n -= 3;
				while (n && (j.s[n - 1] == ' ' || j.s[n - 1] == '\n'))
					n--;
			} else {
				n -= 1;
			}
		}
	}
	p = rst_child(c, parent, QU_RST_PARAGRAPH, blk_off(c, b, a));
	rst_inline(c, p, j.s, n, p->off);
	return lit;
}

static void astext(struct qu_buf *out, const struct qu_rst_node *n)
{
	if (n->kind == QU_RST_TEXT)
		qu_buf_add(out, n->text, n->len);
	for (const struct qu_rst_node *k = n->first; k; k = k->next)
		astext(out, k);
}

/* A new section at title style @style (check_subsection(),
 * new_subsection()); false when the level is inconsistent. */
static bool section(struct rst_ctx *c, const char *title, size_t tlen,
		    const char style[2], uint32_t off)
{
	int level = -1;
	struct qu_rst_node *sec, *t;
	struct qu_buf text = QU_BUF_INIT;
	char *name;

	for (int k = 0; k < c->nstyles; k++)
		if (c->styles[k][0] == style[0] && c->styles[k][1] == style[1])
			level = k + 1;
	if (level < 0) {
		if (c->nstyles != c->level || c->nstyles >= RST_MAX_SECTION_LEVELS) {
			rst_warn(c, c->nstyles >= RST_MAX_SECTION_LEVELS ?
					    QU_W_RST_LIMIT : QU_W_RST_TITLE, off,
				 "title level inconsistent, kept as a literal block");
			return false;
		}
		c->styles[c->nstyles][0] = style[0];
		c->styles[c->nstyles][1] = style[1];
		level = ++c->nstyles;
	} else if (level > c->level + 1) {
		rst_warn(c, QU_W_RST_TITLE, off,
			 "title level inconsistent, kept as a literal block");
		return false;
	}
	c->level = level - 1;
	sec = rst_child(c, c->secs[c->level], QU_RST_SECTION, off);
	t = rst_node(c, QU_RST_TITLE, off);
	rst_inline(c, t, title, tlen, off);
	astext(&text, t);
	name = rst_normalize(c, text.buf, text.len, true);
	rst_add_list(c, sec, "names", name, strlen(name));
	rst_note_target(c, sec, name, false);
	rst_append(sec, t);
	c->level = level;
	c->secs[level] = sec;
	qu_buf_fini(&text);
	return true;
}

/* term(): the term's inline text, split at " : " into classifiers. */
static void term(struct rst_ctx *c, struct qu_rst_node *item,
		 const char *s, uint32_t len, uint32_t off)
{
	struct qu_rst_node tmp = { 0 }, *cur, *k, *next;

	rst_inline(c, &tmp, s, len, off);
	cur = rst_child(c, item, QU_RST_TERM, off);
	for (k = tmp.first; k; k = next) {
		next = k->next;
		if (k->kind != QU_RST_TEXT) {
			rst_append(cur, k);
			continue;
		}
		{
			const char *p = k->text, *end = k->text + k->len;
			bool firstpart = true;

			while (p <= end) {
				const char *q = p, *d = NULL, *de = NULL;

				for (; q < end; q++) {
					if (*q != ' ')
						continue;
					const char *r = q;

					while (r < end && *r == ' ')
						r++;
					if (r < end && *r == ':' && r + 1 < end &&
					    r[1] == ' ') {
						d = q;
						de = r + 1;
						while (de < end && *de == ' ')
							de++;
						break;
					}
					q = r - 1;
				}
				if (!d) {
					rst_text(c, cur, p, (size_t)(end - p), k->off);
					break;
				}
				{
					const char *te = d;

					if (firstpart)
						while (te > p && te[-1] == ' ')
							te--;
					rst_text(c, cur, p, (size_t)(te - p), k->off);
				}
				cur = rst_child(c, item, QU_RST_CLASSIFIER, k->off);
				firstpart = false;
				p = de;
			}
		}
	}
}

static size_t definition_list(struct rst_ctx *c, struct qu_rst_node *parent,
			      const struct blk *b, size_t i)
{
	struct qu_rst_node *dl =
		rst_child(c, parent, QU_RST_DEFINITION_LIST, blk_off(c, b, i));
	bool bf = true;

	for (;;) {
		uint32_t len, nlen;
		const char *s = line(c, b, i, &len);
		struct qu_rst_node *item, *def;
		struct blk sub;
		size_t j;
		const char *ns;

		item = rst_child(c, dl, QU_RST_DEFINITION_LIST_ITEM, blk_off(c, b, i));
		term(c, item, s, len, item->off);
		def = rst_child(c, item, QU_RST_DEFINITION, item->off);
		i = get_indented(c, b, i + 1, -1, -1, false, &sub, &bf);
		parse_nested(c, def, &sub);
		j = skip_blank(c, b, i);
		if (j + 1 >= b->b)
			goto end;
		s = line(c, b, j, &len);
		ns = line(c, b, j + 1, &nlen);
		if (classify(s, len) == L_TEXT && nlen && ns[0] == ' ') {
			i = j;
			continue;
		}
end:
		if (!bf && j == i)
			unindent_warning(c, b, j, "definition list");
		return j < b->b ? j : b->b;
	}
}

/* docutils' Text state: line @i is plain text. */
static size_t text(struct rst_ctx *c, struct qu_rst_node *parent,
		   const struct blk *b, size_t i, bool titles)
{
	uint32_t len, nlen;
	const char *s = line(c, b, i, &len), *ns;
	size_t e;

	if (i + 1 < b->b) {
		ns = line(c, b, i + 1, &nlen);
		if (nlen && is_adornment(ns, nlen)) {
			size_t w = column_width(s, len);

			if (!(w > nlen && nlen < 4)) {
				char style[2] = { 0, ns[0] };

				if (w > nlen)
					rst_warn(c, QU_W_RST_TITLE, blk_off(c, b, i + 1),
						 "title underline too short");
				if (!titles) {
					rst_warn(c, QU_W_RST_TITLE, blk_off(c, b, i),
						 "unexpected section title, kept as a literal block");
					keep(c, parent, b, i, i + 2);
					return i + 2;
				}
				if (!section(c, s, len, style, blk_off(c, b, i)))
					keep(c, parent, b, i, i + 2);
				return i + 2;
			}
		} else if (nlen && ns[0] == ' ') {
			return definition_list(c, parent, b, i);
		}
	}
	/* get_text_block(flush_left=True) */
	for (e = i + 1; e < b->b; e++) {
		const char *t = line(c, b, e, &nlen);

		if (!nlen)
			break;
		if (t[0] == ' ') {
			rst_warn(c, QU_W_RST_INDENT, blk_off(c, b, e),
				 "unexpected indentation");
			break;
		}
	}
	if (paragraph(c, parent, b, i, e))
		return literal_block(c, parent, b, e);
	return e;
}

/* docutils' Line state: line @i is an adornment at column 0. */
static size_t adornment(struct rst_ctx *c, struct qu_rst_node *parent,
			const struct blk *b, size_t i, bool titles)
{
	uint32_t len, tlen, ulen;
	const char *s = line(c, b, i, &len), *t, *u;

	if (!titles) {
		if ((len == 2 && s[0] == ':') || len < 4)
			return text(c, parent, b, i, titles);
		rst_warn(c, QU_W_RST_TITLE, blk_off(c, b, i),
			 "unexpected section title or transition, kept as a literal block");
		keep(c, parent, b, i, i + 1);
		return i + 1;
	}
	if (i + 1 >= b->b || blank(c, b, i + 1)) {
		if (len < 4)
			return text(c, parent, b, i, titles);
		rst_child(c, c->secs[c->level], QU_RST_TRANSITION, blk_off(c, b, i));
		return i + 1;
	}
	t = line(c, b, i + 1, &tlen);
	if (is_adornment(t, tlen) && t[0] != ' ') {
		if (len < 4)
			return text(c, parent, b, i, titles);
		rst_warn(c, QU_W_RST_TITLE, blk_off(c, b, i),
			 "invalid section title or transition marker, kept as a literal block");
		keep(c, parent, b, i, i + 2);
		return i + 2;
	}
	if (i + 2 >= b->b) {
		if (len < 4)
			return text(c, parent, b, i, titles);
		rst_warn(c, QU_W_RST_TITLE, blk_off(c, b, i),
			 "incomplete section title, kept as a literal block");
		keep(c, parent, b, i, i + 2);
		return i + 2;
	}
	u = line(c, b, i + 2, &ulen);
	if (!is_adornment(u, ulen) || ulen != len || u[0] != s[0]) {
		if (len < 4)
			return text(c, parent, b, i, titles);
		rst_warn(c, QU_W_RST_TITLE, blk_off(c, b, i),
			 is_adornment(u, ulen) ?
				 "title overline and underline mismatch, kept as a literal block" :
				 "missing matching underline for section title overline, kept as a literal block");
		keep(c, parent, b, i, ulen ? i + 3 : i + 2);
		return ulen ? i + 3 : i + 2;
	}
	if (column_width(t, tlen) > len) {
		if (len < 4)
			return text(c, parent, b, i, titles);
		rst_warn(c, QU_W_RST_TITLE, blk_off(c, b, i),
			 "title overline too short");
	}
	{
		char style[2] = { s[0], u[0] };
		uint32_t k = lead(t, tlen);

		if (!section(c, t + k, tlen - k, style, blk_off(c, b, i + 1) + k))
			keep(c, parent, b, i, i + 3);
	}
	return i + 3;
}

/* Explicit markup -------------------------------------------------------- */

static const struct directive_row *find_directive(const char *name,
						  size_t len)
{
	for (size_t k = 0; k < QU_ARRAY_SIZE(directives); k++)
		if (strlen(directives[k].name) == len &&
		    !strncasecmp(directives[k].name, name, len))
			return &directives[k];
	return NULL;
}

static const enum qu_rst_kind admonition_kind[] = {
	QU_RST_ATTENTION, QU_RST_CAUTION, QU_RST_DANGER, QU_RST_ERROR,
	QU_RST_HINT, QU_RST_IMPORTANT, QU_RST_NOTE, QU_RST_TIP, QU_RST_WARNING,
	QU_RST_ADMONITION,
};

/* A directive option's value: the field body's lines as written, joined
 * by newlines (docutils' "unchanged" keeps backslashes too). */
static char *option_value(struct rst_ctx *c, const struct blk *b, size_t a,
			  size_t e, uint32_t strip0, size_t *len_out)
{
	struct joined j = join(c, b, a, e, strip0);

	*len_out = j.len;
	return j.s;
}

/* Sections inside a directive's content: title styles and levels of
 * their own, the enclosing ones restored after. */
static void titled(struct rst_ctx *c, struct qu_rst_node *parent,
		   const struct blk *b)
{
	char styles[RST_MAX_SECTION_LEVELS][2];
	struct qu_rst_node *secs[RST_MAX_SECTION_LEVELS + 1];
	int nstyles = c->nstyles, level = c->level;

	memcpy(styles, c->styles, sizeof(styles));
	memcpy(secs, c->secs, sizeof(secs));
	c->nstyles = 0;
	c->level = 0;
	c->secs[0] = parent;
	rst_parse_body(c, parent, b, true);
	memcpy(c->styles, styles, sizeof(styles));
	memcpy(c->secs, secs, sizeof(secs));
	c->nstyles = nstyles;
	c->level = level;
}

/* Parse the directive at line @i, its name at [@n0, @n1) of the line and
 * its block starting at column @end (run_directive(),
 * parse_directive_block()). @sub_name, if not NULL, is the substitution
 * being defined. */
static size_t directive(struct rst_ctx *c, struct qu_rst_node *parent,
			const struct blk *b, size_t i, uint32_t n0, uint32_t n1,
			uint32_t end, const char *sub_name, uint32_t sub_off)
{
	uint32_t len;
	const char *s = line(c, b, i, &len);
	const struct directive_row *d = find_directive(s + n0, n1 - n0);
	struct blk sub, cont;
	bool bf;
	size_t next = get_indented(c, b, i, end, -1, false, &sub, &bf);
	size_t k = sub.a, e = sub.b, argend, optstart;
	enum content_kind ck = d ? d->content : RST_CONTENT_RAW;
	enum args_kind ak = d ? d->args : RST_ARGS_ONE;
	struct qu_rst_node *node;
	uint32_t off = blk_off(c, b, i);

	if (!d)
		rst_warn(c, QU_W_RST_UNKNOWN_DIRECTIVE, off + n0,
			 "unknown directive '%.*s', its content kept as text",
			 (int)(n1 - n0), s + n0);
	if (k < e && blank(c, &sub, k))
		k++;
	while (e > k && blank(c, &sub, e - 1))
		e--;
	for (argend = k; argend < e && !blank(c, &sub, argend); argend++)
		;
	for (optstart = k; optstart < argend; optstart++) {
		uint32_t l2, x;
		const char *t = line(c, &sub, optstart, &l2);

		if (field_marker(t, l2, &x))
			break;
	}
	cont = sub;
	cont.a = argend + 1 < e ? argend + 1 : e;
	cont.b = e;
	if (ak == RST_ARGS_NONE && optstart > k) {
		cont.a = k;
		if (optstart < argend)
			rst_warn(c, QU_W_RST_DIRECTIVE, off,
				 "options after the content of directive '%.*s' ignored",
				 (int)(n1 - n0), s + n0);
		else
			optstart = argend;
		if (optstart < argend)
			cont.a = argend + 1 < e ? argend + 1 : e;
	}
	if (cont.a != sub.a)
		cont.col0 = sub.col;
	trim(c, &cont);

	if (sub_name) {
		/* substitution definitions: "replace" gives inline text;
		 * other directives (image, unicode) stand on their own, as
		 * docutils moves a non-inline result out of the definition. */
		if (d && !strcmp(d->name, "replace")) {
			struct qu_rst_node *def = rst_child(
				c, parent, QU_RST_SUBSTITUTION_DEFINITION, sub_off);

			rst_add_list(c, def, "names", sub_name, strlen(sub_name));
			if (cont.a < cont.b) {
				struct joined j = join(c, &cont, cont.a, cont.b, 0);

				rst_inline(c, def, j.s, j.len, blk_off(c, &cont, cont.a));
			} else {
				rst_warn(c, QU_W_RST_DIRECTIVE, sub_off,
					 "substitution definition '%s' is empty",
					 sub_name);
			}
			return next;
		}
	}
	if (d && !strcmp(d->name, "title")) {
		/* docutils' "title" names the document and adds no node */
		struct joined j = join(c, &sub, k, optstart, 0);

		rst_setn(c, c->doc->root, "title", j.s, j.len);
		return next;
	}
	if (ck == RST_CONTENT_NATIVE && d && strcmp(d->name, "replace")) {
		enum qu_rst_kind kind = admonition_kind[d - directives];

		node = rst_child(c, parent, kind, off);
		if (kind == QU_RST_ADMONITION) {
			struct joined j = join(c, &sub, k, optstart, 0);
			struct qu_rst_node *t;
			struct qu_buf id = QU_BUF_INIT, cls = QU_BUF_INIT;
			size_t lead0 = 0;

			while (lead0 < j.len && (j.s[lead0] == ' ' || j.s[lead0] == '\n'))
				lead0++;
			rst_make_id(&id, j.s + lead0, j.len - lead0);
			qu_buf_addf(&cls, "admonition-%s", id.buf);
			rst_add_list(c, node, "classes", cls.buf, cls.len);
			t = rst_child(c, node, QU_RST_TITLE, off);
			rst_inline(c, t, j.s + lead0, j.len - lead0, off);
			qu_buf_fini(&id);
			qu_buf_fini(&cls);
			if (optstart == k)
				rst_warn(c, QU_W_RST_DIRECTIVE, off,
					 "directive 'admonition' needs a title");
		}
		if (cont.a < cont.b)
			rst_parse_body(c, node, &cont, false);
		else
			rst_warn(c, QU_W_RST_DIRECTIVE, off,
				 "directive '%s' is empty", d->name);
		return next;
	}

	node = rst_child(c, parent, QU_RST_DIRECTIVE, off);
	{
		char *name = rst_normalize(c, s + n0, n1 - n0, true);

		rst_set(c, node, "name", name);
	}
	if (ak == RST_ARGS_ONE && optstart > k) {
		struct joined j = join(c, &sub, k, optstart, 0);
		size_t l0 = 0;
		struct qu_rst_node *a;

		while (l0 < j.len && (j.s[l0] == ' ' || j.s[l0] == '\n'))
			l0++;
		a = rst_child(c, node, QU_RST_DIRECTIVE_ARGUMENTS, blk_off(c, &sub, k));
		rst_text(c, a, j.s + l0, j.len - l0, a->off);
	}
	/* in a substitution definition, docutils presets the option "alt"
	 * to the substitution's name */
	if (sub_name) {
		struct qu_rst_node *opt =
			rst_child(c, node, QU_RST_DIRECTIVE_OPTION, sub_off);

		rst_set(c, opt, "name", "alt");
		rst_text(c, opt, sub_name, strlen(sub_name), sub_off);
	}
	/* the options: a field list, each body one paragraph of text */
	for (size_t o = optstart; o < argend;) {
		uint32_t l2, nend = 0, mend;
		const char *t = line(c, &sub, o, &l2);
		struct blk ob;
		bool obf;
		size_t onext;
		struct qu_rst_node *opt;

		mend = field_marker(t, l2, &nend);
		if (!mend) {
			rst_warn(c, QU_W_RST_DIRECTIVE, blk_off(c, &sub, o),
				 "invalid option block of directive '%.*s', line ignored",
				 (int)(n1 - n0), s + n0);
			o++;
			continue;
		}
		{
			struct blk lim = sub;

			lim.b = argend;
			onext = get_indented(c, &lim, o, mend, -1, false, &ob, &obf);
		}
		opt = rst_child(c, node, QU_RST_DIRECTIVE_OPTION, blk_off(c, &sub, o));
		{
			char *oname = qu_arena_alloc(c->a, nend);
			size_t vlen, nl = rst_unescape(oname, t + 1, nend - 1);
			char *v;

			oname[nl] = '\0';
			for (char *p = oname; *p; p++)
				if (*p >= 'A' && *p <= 'Z')
					*p = (char)(*p + 32);
			rst_set(c, opt, "name", oname);
			trim(c, &ob);
			if (ob.a < ob.b) {
				v = option_value(c, &ob, ob.a, ob.b, 0, &vlen);
				rst_text(c, opt, v, vlen, opt->off);
			}
		}
		o = onext;
	}
	if (cont.a < cont.b) {
		struct qu_rst_node *cn =
			rst_child(c, node, QU_RST_DIRECTIVE_CONTENT,
				  blk_off(c, &cont, cont.a));

		if (ck == RST_CONTENT_NESTED) {
			rst_parse_body(c, cn, &cont, false);
		} else if (ck == RST_CONTENT_TITLED) {
			titled(c, cn, &cont);
		} else {
			struct joined j = join(c, &cont, cont.a, cont.b, 0);

			rst_text(c, cn, j.s, j.len, cn->off);
		}
	}
	return next;
}

/* simplename: word characters joined by single - . _ + or :. */
static uint32_t simplename(const char *s, uint32_t len, uint32_t i)
{
	uint32_t start = i;
	size_t cl;

	for (;;) {
		uint32_t w = i;

		while (i < len && s[i] != '_' &&
		       rst_is_simplename_char(s, len, i, &cl))
			i += (uint32_t)cl;
		if (i == w)
			return w == start ? start : w - 1;
		if (i < len && s[i] && strchr("-._+:", s[i]) && i + 1 < len &&
		    s[i + 1] != '_' && rst_is_simplename_char(s, len, i + 1, &cl)) {
			i++;
			continue;
		}
		return i;
	}
}

/* The label of ".. [label]": a number, "#", "#name", "*" or a name. */
static uint32_t footnote_label(const char *s, uint32_t len, uint32_t i,
			       bool *citation)
{
	uint32_t j = i;

	*citation = false;
	if (j < len && s[j] == '*')
		j++;
	else if (j < len && s[j] == '#')
		j = simplename(s, len, j + 1);
	else if (j < len && s[j] >= '0' && s[j] <= '9') {
		while (j < len && s[j] >= '0' && s[j] <= '9')
			j++;
		if (j < len && s[j] != ']')
			j = simplename(s, len, i), *citation = true;
	} else {
		j = simplename(s, len, i);
		*citation = true;
	}
	if (j == i || j >= len || s[j] != ']')
		return 0;
	return j;
}

static size_t footnote(struct rst_ctx *c, struct qu_rst_node *parent,
		       const struct blk *b, size_t i, uint32_t l0, uint32_t l1,
		       bool citation)
{
	uint32_t len;
	const char *s = line(c, b, i, &len);
	uint32_t end = skip_spaces(s, len, l1 + 1);
	struct blk sub;
	bool bf;
	size_t next = get_indented(c, b, i, end, -1, false, &sub, &bf);
	uint32_t off = blk_off(c, b, i);
	struct qu_rst_node *fn = rst_child(c, parent,
					   citation ? QU_RST_CITATION : QU_RST_FOOTNOTE,
					   off);
	char *name = rst_normalize(c, s + l0, l1 - l0, true);

	if (!citation && name[0] == '#') {
		rst_set(c, fn, "auto", "1");
		name++;
	} else if (!citation && name[0] == '*') {
		rst_set(c, fn, "auto", "*");
		name++;
	} else {
		struct qu_rst_node *lab = rst_child(c, fn, QU_RST_LABEL, off + l0);

		rst_text(c, lab, s + l0, l1 - l0, off + l0);
	}
	if (*name) {
		rst_add_list(c, fn, "names", name, strlen(name));
		rst_note_target(c, fn, name, true);
	} else {
		rst_set_id(c, fn, NULL);
	}
	parse_nested(c, fn, &sub);
	if (!bf)
		explicit_unindent_warning(c, b, next);
	return next;
}

/* ".. _name: target" and "__ target" (hyperlink_target(), make_target()). */
static void make_target(struct rst_ctx *c, struct qu_rst_node *parent,
			const char *name, size_t nlen, const char *rest,
			size_t rlen, uint32_t off)
{
	struct qu_rst_node *t = rst_child(c, parent, QU_RST_TARGET, off);
	struct qu_buf ref = QU_BUF_INIT;
	size_t k = rlen;

	while (k && (rest[k - 1] == ' ' || rest[k - 1] == '\n'))
		k--;
	/* an indirect target: "name_" or "`phrase`_" */
	if (k && rest[k - 1] == '_') {
		char *norm = rst_normalize(c, rest, k, false);
		size_t nl = strlen(norm), p = 0;
		bool ok = false;
		const char *inner = NULL;
		size_t ilen = 0;

		if (nl >= 3 && norm[0] == '`' && norm[nl - 2] == '`' &&
		    norm[1] != ' ' && norm[nl - 3] != ' ') {
			inner = norm + 1;
			ilen = nl - 3;
			ok = ilen > 0;
		} else if (nl >= 2) {
			p = simplename(norm, (uint32_t)nl - 1, 0);
			ok = p == nl - 1;
			inner = norm;
			ilen = nl - 1;
		}
		if (ok) {
			char *u = qu_arena_alloc(c->a, ilen + 1);
			size_t ul = rst_unescape(u, inner, ilen);

			rst_set(c, t, "refname", rst_normalize(c, u, ul, true));
			goto named;
		}
	}
	/* a URI: white space removed, escapes undone */
	for (size_t i = 0; i < rlen; i++) {
		if (rest[i] == '\\' && i + 1 < rlen) {
			if (rest[i + 1] == ' ' || rest[i + 1] == '\n')
				qu_buf_addc(&ref, ' ');
			else
				qu_buf_addc(&ref, rest[i + 1]);
			i++;
		} else if (rest[i] != ' ' && rest[i] != '\n') {
			qu_buf_addc(&ref, rest[i]);
		}
	}
	if (ref.len) {
		bool email = memchr(ref.buf, '@', ref.len) &&
			     !memchr(ref.buf, ':', ref.len) &&
			     !memchr(ref.buf, '/', ref.len);

		if (email && name) {
			struct qu_buf m = QU_BUF_INIT;

			qu_buf_addf(&m, "mailto:%s", ref.buf);
			rst_set(c, t, "refuri", m.buf);
			qu_buf_fini(&m);
		} else {
			rst_set(c, t, "refuri", ref.buf);
		}
	}
named:
	if (name) {
		char *u = qu_arena_alloc(c->a, nlen + 1);
		size_t ul = rst_unescape(u, name, nlen);
		char *norm = rst_normalize(c, u, ul, true);

		rst_add_list(c, t, "names", norm, strlen(norm));
		rst_note_target(c, t, norm, true);
	} else {
		rst_set(c, t, "anonymous", "1");
		rst_set_id(c, t, NULL);
	}
	qu_buf_fini(&ref);
}

static size_t hyperlink_target(struct rst_ctx *c, struct qu_rst_node *parent,
			       const struct blk *b, size_t i, uint32_t start)
{
	struct blk sub;
	bool bf;
	size_t next = get_indented(c, b, i, start, -1, true, &sub, &bf);
	struct joined j;
	uint32_t off = blk_off(c, b, i);
	size_t k, ne = 0, rs = 0;
	bool found = false, quoted;

	/* the lines with their indentation, joined without separators, as
	 * docutils joins them to find the name's end */
	sub.col = b->col;
	j = join(c, &sub, sub.a, sub.b, 0);
	{
		char *o = j.s;

		for (size_t p = 0; p < j.len; p++)
			if (j.s[p] != '\n')
				*o++ = j.s[p];
		j.len = (size_t)(o - j.s);
	}
	if (j.len >= 2 && j.s[0] == '_' && j.s[1] == ':' &&
	    (j.len == 2 || j.s[2] == ' ')) {
		make_target(c, parent, NULL, 0, j.s + 2, j.len - 2, off);
		return next;
	}
	if (j.len >= 3 && j.s[0] == '_' && j.s[1] == ' ' && j.s[2] == ':' &&
	    (j.len == 3 || j.s[3] == ' ')) {
		make_target(c, parent, NULL, 0, j.s + 3, j.len - 3, off);
		return next;
	}
	quoted = j.len && j.s[0] == '`';
	for (k = quoted ? 2 : 1; k < j.len; k++) {
		size_t e;

		if (j.s[k] == '\\') {
			k++;
			continue;
		}
		if (j.s[k] != ':' || (k + 1 < j.len && j.s[k + 1] != ' '))
			continue;
		e = j.s[k - 1] == ' ' ? k - 1 : k;
		if (e == 0 || j.s[e - 1] == ' ')
			continue;
		if (e >= 2 && j.s[e - 2] == '\\')
			continue;
		if (quoted) {
			if (e < 3 || j.s[e - 1] != '`' || j.s[e - 2] == ' ')
				continue;
			ne = e - 1;
		} else {
			if (j.s[e - 1] == ':')
				continue;
			ne = e;
		}
		rs = k + 1;
		found = true;
		break;
	}
	if (!found || j.s[quoted] == ' ' || (quoted && j.s[1] == '`')) {
		rst_warn(c, QU_W_RST_TARGET, off,
			 "malformed hyperlink target, kept as a comment");
		{
			struct qu_rst_node *cm = rst_child(c, parent, QU_RST_COMMENT, off);

			rst_set(c, cm, "xml:space", "preserve");
			rst_text(c, cm, j.s, j.len, off);
		}
		return next;
	}
	make_target(c, parent, j.s + quoted, ne - quoted, j.s + rs,
		    j.len - rs, off);
	return next;
}

static size_t substitution_def(struct rst_ctx *c, struct qu_rst_node *parent,
			       const struct blk *b, size_t i, uint32_t start)
{
	uint32_t len;
	const char *s = line(c, b, i, &len);
	uint32_t k, off = blk_off(c, b, i);

	/* "|name|" then white space, then "directive::" */
	for (k = start + 1; k < len; k++) {
		if (s[k] == '\\') {
			k++;
			continue;
		}
		if (s[k] == '|' && s[k - 1] != ' ' && (k + 1 == len || s[k + 1] == ' '))
			break;
	}
	if (k < len && k > start + 1 && s[start + 1] != ' ') {
		uint32_t d0 = skip_spaces(s, len, k + 1), d1 = simplename(s, len, d0);
		uint32_t p = d1;

		if (p < len && s[p] == ' ')
			p++;
		if (d1 > d0 && p + 1 < len && s[p] == ':' && s[p + 1] == ':' &&
		    (p + 2 == len || s[p + 2] == ' ')) {
			char *raw = qu_arena_alloc(c->a, k - start);
			size_t rl = rst_unescape(raw, s + start + 1, k - start - 1);
			char *name = rst_normalize(c, raw, rl, false);

			return directive(c, parent, b, i, d0, d1,
					 skip_spaces(s, len, p + 2), name, off);
		}
	}
	rst_warn(c, QU_W_RST_DIRECTIVE, off,
		 "substitution definition without a directive, kept as a literal block");
	{
		struct blk sub;
		bool bf;
		size_t next = get_indented(c, b, i, 0, -1, false, &sub, &bf);

		keep(c, parent, b, i, next);
		return next;
	}
}

static size_t comment(struct rst_ctx *c, struct qu_rst_node *parent,
		      const struct blk *b, size_t i, uint32_t end)
{
	uint32_t len;
	struct qu_rst_node *cm = rst_child(c, parent, QU_RST_COMMENT, blk_off(c, b, i));
	struct blk sub;
	bool bf;
	size_t next;

	line(c, b, i, &len);
	rst_set(c, cm, "xml:space", "preserve");
	if (end >= len && (i + 1 >= b->b || blank(c, b, i + 1)))
		return i + 1;
	next = get_indented(c, b, i, end, -1, false, &sub, &bf);
	trim(c, &sub);
	if (sub.a < sub.b) {
		struct joined j = join(c, &sub, sub.a, sub.b, 0);

		rst_text(c, cm, j.s, j.len, cm->off);
	}
	if (!bf)
		explicit_unindent_warning(c, b, next);
	return next;
}

static size_t explicit_markup(struct rst_ctx *c, struct qu_rst_node *parent,
			      const struct blk *b, size_t i)
{
	uint32_t len;
	const char *s = line(c, b, i, &len);
	uint32_t p = skip_spaces(s, len, 2);

	if (p < len && p > 2) {
		if (s[p] == '[') {
			bool cit;
			uint32_t l1 = footnote_label(s, len, p + 1, &cit);

			if (l1 && (l1 + 1 == len || s[l1 + 1] == ' '))
				return footnote(c, parent, b, i, p + 1, l1, cit);
		}
		if (s[p] == '_' && p + 1 < len && s[p + 1] != ' ')
			return hyperlink_target(c, parent, b, i, p + 1);
		if (s[p] == '|' && p + 1 < len && s[p + 1] != ' ')
			return substitution_def(c, parent, b, i, p);
		{
			uint32_t n1 = simplename(s, len, p), q = n1;

			if (q < len && s[q] == ' ')
				q++;
			if (n1 > p && q + 1 < len && s[q] == ':' && s[q + 1] == ':' &&
			    (q + 2 == len || s[q + 2] == ' '))
				return directive(c, parent, b, i, p, n1,
						 skip_spaces(s, len, q + 2), NULL, 0);
		}
	}
	return comment(c, parent, b, i, p);
}

static size_t anonymous_target(struct rst_ctx *c, struct qu_rst_node *parent,
			       const struct blk *b, size_t i)
{
	uint32_t len;
	const char *s = line(c, b, i, &len);
	struct blk sub;
	bool bf;
	size_t next = get_indented(c, b, i, skip_spaces(s, len, 2), -1, true,
				   &sub, &bf);
	struct joined j = join(c, &sub, sub.a, sub.b, 0);

	make_target(c, parent, NULL, 0, j.s, j.len, blk_off(c, b, i));
	return next;
}

static size_t doctest(struct rst_ctx *c, struct qu_rst_node *parent,
		      const struct blk *b, size_t i)
{
	size_t e = i;

	while (e < b->b && !blank(c, b, e))
		e++;
	literal(c, parent, QU_RST_DOCTEST_BLOCK, b, i, e);
	return e;
}

static size_t body_element(struct rst_ctx *c, struct qu_rst_node *parent,
			   const struct blk *b, size_t i, bool titles)
{
	uint32_t len;
	const char *s = line(c, b, i, &len);
	struct enumerator e;
	size_t r;

	switch (classify(s, len)) {
	case L_BLANK:
		return i + 1;
	case L_INDENT:
		return block_quote(c, parent, b, i);
	case L_BULLET:
		return bullet_list(c, parent, b, i);
	case L_ENUM:
		parse_enumerator(&e, s, len, -1);
		if (enum_item_ok(c, b, i, &e))
			return enumerated_list(c, parent, b, i, &e);
		break;
	case L_FIELD:
		return field_list(c, parent, b, i);
	case L_OPTION:
		r = option_list(c, parent, b, i);
		if (r != i)
			return r;
		break;
	case L_DOCTEST:
		return doctest(c, parent, b, i);
	case L_LINE_BLOCK:
		return line_block(c, parent, b, i);
	case L_GRID:
		return rst_table(c, parent, b, i, true);
	case L_SIMPLE:
		return rst_table(c, parent, b, i, false);
	case L_EXPLICIT:
		return explicit_markup(c, parent, b, i);
	case L_ANON:
		return anonymous_target(c, parent, b, i);
	case L_LINE:
		return adornment(c, parent, b, i, titles);
	case L_TEXT:
		break;
	}
	return text(c, parent, b, i, titles);
}

void rst_parse_body(struct rst_ctx *c, struct qu_rst_node *parent,
		    const struct blk *b, bool titles)
{
	size_t i = b->a;

	if (c->depth >= RST_MAX_DEPTH) {
		if (!c->limit_warned)
			rst_warn(c, QU_W_RST_LIMIT, blk_off(c, b, b->a),
				 "blocks nested more than %d deep, the rest kept as a literal block",
				 RST_MAX_DEPTH);
		c->limit_warned = true;
		keep(c, parent, b, b->a, b->b);
		return;
	}
	c->depth++;
	while (i < b->b) {
		size_t next;

		if (blank(c, b, i)) {
			i++;
			continue;
		}
		next = body_element(c, titles ? c->secs[c->level] : parent, b, i,
				    titles);
		i = next > i ? next : i + 1;
	}
	c->depth--;
}
