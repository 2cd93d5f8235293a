// SPDX-License-Identifier: MIT
/*
 * text.c - a comment's Markdown and kernel-doc highlights as roff (man
 * stage)
 *
 * Line-oriented, as the man output of scripts/kernel-doc is: paragraphs,
 * fenced and indented literal blocks (and reStructuredText's "::"
 * blocks), list items and headings, and inline the highlights (func(),
 * &struct foo, @param, %CONST, $ENV), code spans and emphasis. It never
 * fails: any bytes give roff that mandoc -Tlint and groff -ww accept.
 * Called by page.c.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "man_int.h"

static bool is_ident_start(unsigned char c)
{
	return isalpha(c) || c == '_';
}

static bool is_ident(unsigned char c)
{
	return isalnum(c) || c == '_';
}

/* Decodes one UTF-8 sequence; returns its length, 0 when invalid. */
static size_t utf8_decode(const unsigned char *p, size_t n, uint32_t *cp)
{
	size_t len, i;
	uint32_t c;

	if (p[0] < 0xc2 || p[0] > 0xf4)
		return 0;
	len = p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : 4;
	if (n < len)
		return 0;
	c = p[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3f);
	}
	/* overlong forms, surrogates and beyond U+10FFFF */
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	*cp = c;
	return len;
}

void man_escape(struct qu_buf *b, const char *p, size_t n, enum man_esc esc)
{
	const unsigned char *s = (const unsigned char *)p;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];

		switch (c) {
		case '\\':
			qu_buf_adds(b, "\\e");
			continue;
		case '-':
			/*
			 * A hyphen in a word ("read-only") is a hyphen; an
			 * option, a minus or "->" is a minus sign, which
			 * copies and searches as ASCII "-".
			 */
			if (esc != MAN_ESC_CODE && i > 0 && i + 1 < n &&
			    isalpha(s[i - 1]) && isalpha(s[i + 1]))
				qu_buf_addc(b, '-');
			else
				qu_buf_adds(b, "\\-");
			continue;
		case '"':
			qu_buf_adds(b, esc == MAN_ESC_ARG ? "\\(dq" : "\"");
			continue;
		case '\'':
			qu_buf_adds(b, esc == MAN_ESC_CODE ? "\\(aq" : "'");
			continue;
		case '`':
			qu_buf_adds(b, esc == MAN_ESC_CODE ? "\\(ga" : "`");
			continue;
		case '^':
			qu_buf_adds(b, "\\(ha");
			continue;
		case '~':
			qu_buf_adds(b, "\\(ti");
			continue;
		case '\t':
			qu_buf_addc(b, ' ');
			continue;
		default:
			break;
		}
		if (c < 0x20 || c == 0x7f)
			continue; /* control bytes carry no text */
		if (c < 0x80) {
			qu_buf_addc(b, (char)c);
			continue;
		}
		/*
		 * Non-ASCII as a named code point: groff reads its input as
		 * Latin-1 unless preconv runs, mandoc guesses; \[uXXXX] means
		 * the same to both. Invalid UTF-8 becomes U+FFFD.
		 */
		uint32_t cp = 0xfffd;
		size_t len = utf8_decode(s + i, n - i, &cp);

		qu_buf_addf(b, "\\[u%04X]", (unsigned)cp);
		if (len)
			i += len - 1;
	}
}

/* Length of the escape sequence at @p ("\\fB", "\\(aq", "\\[u00E9]"...). */
static size_t esc_len(const char *p, size_t n)
{
	if (n < 2)
		return n;
	switch (p[1]) {
	case 'f':
		return n < 3 ? n : 3;
	case '(':
		return n < 4 ? n : 4;
	case '[': {
		const char *e = memchr(p, ']', n);

		return e ? (size_t)(e - p) + 1 : n;
	}
	default:
		return 2;
	}
}

/* Inserts "\\&" at @at when the byte there would start a request. */
static size_t guard(struct qu_buf *b, size_t at)
{
	if (at >= b->len ||
	    (b->buf[at] != '.' && b->buf[at] != '\'' && b->buf[at] != ' '))
		return 0;
	qu_buf_grow(b, 2);
	memmove(b->buf + at + 2, b->buf + at, b->len - at);
	memcpy(b->buf + at, "\\&", 2);
	b->len += 2;
	b->buf[b->len] = '\0';
	return 2;
}

/*
 * Splits the line that starts at @start into input lines of at most
 * MAN_LINE_MAX bytes (mandoc -Tlint's limit): at a blank in filled text,
 * else with "\\c", which joins the next input line without a blank and
 * works in no-fill mode too. Escapes are never cut. The pieces are
 * copied once, so a 1 MB line costs its length, not its length squared.
 */
static void wrap(struct qu_buf *b, size_t start, bool nofill)
{
	/* room on each piece for a "\\&" before it and a "\\:\\c" after it */
	const size_t room = MAN_LINE_MAX - 6;
	size_t n = b->len - start, pos = 0;
	char *src;

	if (n <= MAN_LINE_MAX)
		return;
	src = qu_xstrndup(b->buf + start, n);
	b->len = start;
	/* the last piece may get a "\\&" too: it needs its two bytes */
	while (n - pos + (pos ? 2 : 0) > MAN_LINE_MAX) {
		size_t i = pos, last_sp = 0, last_cut = 0;

		while (i < n && i - pos < room) {
			if (src[i] == ' ' && !nofill && i > pos)
				last_sp = i;
			else if (i > pos &&
				 (nofill || (src[i - 1] != ' ' &&
					     src[i] != ' ')))
				/* no-fill text breaks anywhere ("\\c" keeps
				 * its blanks), or "; ; ;" never would */
				last_cut = i;
			i += src[i] == '\\' ? esc_len(src + i, n - i) : 1;
		}
		if (last_sp) {
			/* the whole run of blanks becomes the newline */
			size_t a = last_sp, e = last_sp;

			while (a > pos && src[a - 1] == ' ')
				a--;
			while (e < n && src[e] == ' ')
				e++;
			qu_buf_add(b, src + pos, a - pos);
			qu_buf_addc(b, '\n');
			pos = e;
		} else if (last_cut) {
			/*
			 * In filled text "\\:" also lets groff break the
			 * word there, or a word wider than the page warns
			 * "can't break line" under -ww.
			 */
			qu_buf_add(b, src + pos, last_cut - pos);
			qu_buf_adds(b, nofill ? "\\c\n" : "\\:\\c\n");
			pos = last_cut;
		} else {
			break; /* one escape longer than a line: never written */
		}
		/* the next piece is a line of its own: guard its first byte */
		if (pos < n &&
		    (src[pos] == '.' || src[pos] == '\'' || src[pos] == ' '))
			qu_buf_adds(b, "\\&");
	}
	qu_buf_add(b, src + pos, n - pos);
	free(src);
}

void man_request_fit(struct qu_buf *b, size_t start, size_t arg)
{
	/* room for the ellipsis, the closing quote and the newline */
	const size_t keep = MAN_LINE_MAX - 10;
	size_t i = arg, cut = arg, end;

	if (b->len - start <= MAN_LINE_MAX + 1)
		return;
	/* the argument runs to the closing quote before the newline */
	end = b->len - 2;
	while (i < end && i - start < keep) {
		cut = i;
		i += b->buf[i] == '\\' ? esc_len(b->buf + i, end - i) : 1;
	}
	if (i - start < keep)
		cut = i;
	b->len = cut;
	qu_buf_adds(b, "\\[u2026]\"\n");
}

void man_line_end(struct man_w *w, size_t start)
{
	struct qu_buf *b = w->b;

	/* trailing blanks: mandoc's "whitespace at end of input line" */
	while (b->len > start && b->buf[b->len - 1] == ' ')
		b->len--;
	b->buf[b->len] = '\0';
	if (b->len == start) {
		/* an empty text line is a blank line: say nothing instead */
		if (!w->nofill)
			return;
		qu_buf_adds(b, "\\&");
	}
	/* a control character first would make the line a request */
	guard(b, start);
	wrap(b, start, w->nofill);
	qu_buf_addc(b, '\n');
	w->fresh = false;
}

void man_ref(struct man_w *w, const char *name, size_t n)
{
	uintptr_t v = (uintptr_t)qu_map_get(&w->set->by_name, name, n);

	if (!v || v - 1 == w->self)
		return;
	for (size_t i = 0; i < w->nrefs; i++)
		if (w->refs[i] == v - 1)
			return;
	/* bounded: a header that names 500 functions lists the first 16 */
	if (w->nrefs < QU_MAN_SEE_ALSO_MAX)
		w->refs[w->nrefs++] = v - 1;
}

/* Length of a "`"-run at @p. */
static size_t run_len(const char *p, size_t n, char c)
{
	size_t k = 0;

	while (k < n && p[k] == c)
		k++;
	return k;
}

/*
 * How far ahead a closing backtick run or emphasis marker is looked for:
 * a 1 MB line of unmatched "*" would otherwise cost its length squared.
 */
#define INLINE_LOOKAHEAD 256

/* Where the code span opened by @k backticks at @i closes, or 0. */
static size_t code_close(const char *p, size_t n, size_t i, size_t k)
{
	if (n - i > INLINE_LOOKAHEAD)
		n = i + INLINE_LOOKAHEAD;
	for (size_t j = i + k; j < n;) {
		size_t r = run_len(p + j, n - j, '`');

		if (r == k)
			return j;
		j += r ? r : 1;
	}
	return 0;
}

/*
 * Where the emphasis opened by @k copies of @c at @i closes, or 0: the
 * closer follows a non-blank and is not followed by a word character,
 * and "_" never opens inside a word (foo_bar_baz is one identifier).
 */
static size_t emph_close(const char *p, size_t n, size_t i, size_t k, char c)
{
	const unsigned char *s = (const unsigned char *)p;

	if (i + k >= n || isspace(s[i + k]) || s[i + k] == (unsigned char)c)
		return 0;
	if (i > 0 && is_ident(s[i - 1]))
		return 0;
	if (n - i > INLINE_LOOKAHEAD)
		n = i + INLINE_LOOKAHEAD;
	for (size_t j = i + k + 1; j + k <= n; j++) {
		if (run_len(p + j, n - j, c) != k)
			continue;
		if (isspace(s[j - 1]))
			continue;
		if (j + k < n && is_ident(s[j + k]))
			continue;
		return j;
	}
	return 0;
}

/* Appends @name in bold and notes it for SEE ALSO as page @page. */
static void bold_ref(struct man_w *w, const char *name, size_t n,
		     const char *page, size_t pn)
{
	qu_buf_adds(w->b, "\\fB");
	man_escape(w->b, name, n, MAN_ESC_CODE);
	qu_buf_adds(w->b, "\\fR");
	man_ref(w, page, pn);
}

/* "&struct foo", "&union foo", "&enum foo", "&typedef_name", with an
 * optional "->member" or ".member"; returns the bytes used after "&". */
static size_t amp_ref(struct man_w *w, const char *p, size_t n)
{
	static const char *const tags[] = {"struct ", "union ", "enum "};
	struct qu_buf page = QU_BUF_INIT;
	size_t i = 0, tag = 0, name;

	for (size_t t = 0; t < QU_ARRAY_SIZE(tags); t++) {
		size_t tl = strlen(tags[t]);

		if (n > tl && !memcmp(p, tags[t], tl)) {
			tag = tl;
			break;
		}
	}
	i = tag;
	while (i < n && p[i] == ' ')
		i++;
	if (i >= n || !is_ident_start((unsigned char)p[i]))
		return 0;
	name = i;
	while (i < n && is_ident((unsigned char)p[i]))
		i++;
	if (tag) {
		qu_buf_add(&page, p, tag - 1);
		qu_buf_addc(&page, '_');
	}
	qu_buf_add(&page, p + name, i - name);
	qu_buf_adds(w->b, "\\fB");
	if (tag) {
		qu_buf_add(w->b, p, tag);
	}
	man_escape(w->b, p + name, i - name, MAN_ESC_CODE);
	qu_buf_adds(w->b, "\\fR");
	man_ref(w, page.buf, page.len);
	qu_buf_fini(&page);
	/* &struct foo->bar: the member in italics, as a parameter */
	if (i + 2 < n && p[i] == '-' && p[i + 1] == '>' &&
	    is_ident_start((unsigned char)p[i + 2])) {
		size_t m = i + 2;

		while (m < n && is_ident((unsigned char)p[m]))
			m++;
		qu_buf_adds(w->b, "\\->\\fI");
		man_escape(w->b, p + i + 2, m - i - 2, MAN_ESC_CODE);
		qu_buf_adds(w->b, "\\fR");
		i = m;
	}
	return i;
}

void man_inline(struct man_w *w, const char *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t i = 0, text = 0;

#define FLUSH()                                                          \
	do {                                                             \
		man_escape(w->b, p + text, i - text, MAN_ESC_TEXT);      \
	} while (0)

	while (i < n) {
		unsigned char c = s[i];
		bool after_word = i > 0 && is_ident(s[i - 1]);
		size_t k, j;

		if (c == '`') {
			k = run_len(p + i, n - i, '`');
			j = code_close(p, n, i, k);
			if (!j) {
				i += k;
				continue;
			}
			FLUSH();
			/* ``literal`` and `code`: bold, blanks at the ends trimmed */
			size_t a = i + k, e = j;

			if (e - a >= 2 && p[a] == ' ' && p[e - 1] == ' ') {
				a++;
				e--;
			}
			qu_buf_adds(w->b, "\\fB");
			man_escape(w->b, p + a, e - a, MAN_ESC_CODE);
			qu_buf_adds(w->b, "\\fR");
			i = text = j + k;
			continue;
		}
		if (c == '\\' && i + 1 < n && ispunct(s[i + 1])) {
			FLUSH();
			man_escape(w->b, p + i + 1, 1, MAN_ESC_TEXT);
			i = text = i + 2;
			continue;
		}
		if ((c == '*' || c == '_') && !after_word) {
			k = run_len(p + i, n - i, (char)c);
			j = k <= 2 ? emph_close(p, n, i, k, (char)c) : 0;
			if (j) {
				FLUSH();
				qu_buf_adds(w->b, k == 2 ? "\\fB" : "\\fI");
				man_escape(w->b, p + i + k, j - i - k,
					   MAN_ESC_TEXT);
				qu_buf_adds(w->b, "\\fR");
				i = text = j + k;
				continue;
			}
			i += k;
			continue;
		}
		if (c == '@' && !after_word && i + 1 < n &&
		    (is_ident_start(s[i + 1]) ||
		     (i + 3 < n && !memcmp(p + i + 1, "...", 3)))) {
			/* @param, @param.member, @param->member, @... */
			FLUSH();
			j = i + 1;
			if (p[j] == '.')
				j += 3;
			else
				while (j < n &&
				       (is_ident(s[j]) ||
					(s[j] == '.' && j + 1 < n &&
					 is_ident_start(s[j + 1])) ||
					(s[j] == '-' && j + 2 < n &&
					 s[j + 1] == '>' &&
					 is_ident_start(s[j + 2]))))
					j += s[j] == '-' ? 2 : 1;
			qu_buf_adds(w->b, "\\fI");
			man_escape(w->b, p + i + 1, j - i - 1, MAN_ESC_CODE);
			qu_buf_adds(w->b, "\\fR");
			i = text = j;
			continue;
		}
		if ((c == '%' || c == '$') && !after_word && i + 1 < n &&
		    (is_ident(s[i + 1]) || s[i + 1] == '-')) {
			/* %CONST, %-ENOMEM, $ENVVAR */
			FLUSH();
			j = i + 1;
			while (j < n && (is_ident(s[j]) || s[j] == '-'))
				j++;
			while (j > i + 1 && s[j - 1] == '-')
				j--;
			bold_ref(w, p + i + (c == '%'), j - i - (c == '%'),
				 p + i + 1, j - i - 1);
			i = text = j;
			continue;
		}
		if (c == '&' && !after_word && i + 1 < n &&
		    is_ident_start(s[i + 1])) {
			FLUSH();
			j = amp_ref(w, p + i + 1, n - i - 1);
			if (j) {
				i = text = i + 1 + j;
				continue;
			}
			i++;
			continue;
		}
		if (is_ident_start(c) && !after_word) {
			j = i;
			while (j < n && is_ident(s[j]))
				j++;
			if (j + 1 < n && p[j] == '(' && p[j + 1] == ')') {
				/* func(): the function in bold */
				FLUSH();
				bold_ref(w, p + i, j - i, p + i, j - i);
				qu_buf_adds(w->b, "()");
				i = text = j + 2;
				continue;
			}
			i = j;
			continue;
		}
		i++;
	}
	FLUSH();
#undef FLUSH
}

/* Lines of a body, without their final newline. */
struct lines {
	const char *p;
	size_t n;
	size_t pos;
};

static bool next_line(struct lines *l, const char **out, size_t *len)
{
	const char *nl;

	if (l->pos >= l->n)
		return false;
	*out = l->p + l->pos;
	nl = memchr(*out, '\n', l->n - l->pos);
	*len = nl ? (size_t)(nl - *out) : l->n - l->pos;
	l->pos += *len + (nl != NULL);
	/* CRLF sources */
	if (*len && (*out)[*len - 1] == '\r')
		(*len)--;
	return true;
}

static size_t indent_of(const char *p, size_t n)
{
	size_t col = 0;

	for (size_t i = 0; i < n; i++) {
		if (p[i] == ' ')
			col++;
		else if (p[i] == '\t')
			col = (col + 8) & ~(size_t)7;
		else
			return col;
	}
	return SIZE_MAX; /* blank */
}

/* Skips @col columns of indentation; returns the bytes skipped. */
static size_t skip_cols(const char *p, size_t n, size_t col)
{
	size_t c = 0, i = 0;

	while (i < n && c < col && (p[i] == ' ' || p[i] == '\t')) {
		c = p[i] == ' ' ? c + 1 : ((c + 8) & ~(size_t)7);
		i++;
	}
	return i;
}

/* A paragraph break, unless nothing was written since the last one. */
static void para(struct man_w *w)
{
	if (w->fresh)
		return;
	qu_buf_adds(w->b, w->in_ip ? ".IP\n" : ".PP\n");
	w->fresh = true;
}

/* One literal line inside .EX/.EE, tabs expanded. */
static void literal_line(struct man_w *w, const char *p, size_t n)
{
	struct qu_buf t = QU_BUF_INIT;
	size_t start = w->b->len, col = 0;

	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\t') {
			do
				qu_buf_addc(&t, ' ');
			while (++col % 8);
			continue;
		}
		qu_buf_addc(&t, p[i]);
		/* columns count characters, not UTF-8 continuation bytes */
		col += ((unsigned char)p[i] & 0xc0) != 0x80;
	}
	man_escape(w->b, t.buf, t.len, MAN_ESC_CODE);
	qu_buf_fini(&t);
	w->nofill = true;
	man_line_end(w, start);
	w->nofill = false;
}

static bool is_fence(const char *p, size_t n, char *ch, size_t *k)
{
	size_t i = skip_cols(p, n, 3);

	if (i < n && (p[i] == '`' || p[i] == '~')) {
		size_t r = run_len(p + i, n - i, p[i]);

		if (r >= 3) {
			*ch = p[i];
			*k = r;
			return true;
		}
	}
	return false;
}

/* "- item", "* item", "+ item", "1. item", "1) item": the text's offset. */
static size_t list_item(const char *p, size_t n, bool *ordered)
{
	size_t i = skip_cols(p, n, 3);

	if (i + 1 < n && (p[i] == '-' || p[i] == '*' || p[i] == '+') &&
	    p[i + 1] == ' ') {
		*ordered = false;
		return i + 2;
	}
	size_t d = i;

	while (d < n && d - i < 9 && isdigit((unsigned char)p[d]))
		d++;
	if (d > i && d + 1 < n && (p[d] == '.' || p[d] == ')') &&
	    p[d + 1] == ' ') {
		*ordered = true;
		return d + 2;
	}
	return 0;
}

static bool ends_with_dcolon(const char *p, size_t n)
{
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	return n >= 2 && p[n - 1] == ':' && p[n - 2] == ':';
}

/*
 * A reStructuredText directive line in a comment: ".. code-block:: c"
 * (and ".. code::", ".. highlight::") announce a literal block; a label
 * (".. _name:") and a comment ("..") show nothing. Other directives
 * (".. note::") are left as text.
 */
static bool is_directive(const char *p, size_t n, bool *literal)
{
	size_t i = skip_cols(p, n, 3);

	if (n - i < 2 || p[i] != '.' || p[i + 1] != '.')
		return false;
	i += 2;
	if (i == n)
		return true;
	if (p[i] != ' ')
		return false;
	while (i < n && p[i] == ' ')
		i++;
	if (i < n && p[i] == '_' && p[n - 1] == ':')
		return true;
	static const char *const code[] = {"code-block::", "code::",
					   "highlight::", "sourcecode::"};

	for (size_t k = 0; k < QU_ARRAY_SIZE(code); k++) {
		size_t cl = strlen(code[k]);

		if (n - i >= cl && !memcmp(p + i, code[k], cl)) {
			*literal = true;
			return true;
		}
	}
	return false;
}

/* A paragraph's text line, leading blanks dropped (they would break). */
static void text_line(struct man_w *w, const char *p, size_t n)
{
	size_t start;

	while (n && (*p == ' ' || *p == '\t')) {
		p++;
		n--;
	}
	start = w->b->len;
	man_inline(w, p, n);
	man_line_end(w, start);
}

void man_blocks(struct man_w *w, const char *text)
{
	struct lines l = {text, strlen(text), 0};
	const char *p;
	size_t n;
	bool in_para = false, blank_before = true, literal_next = false;
	bool in_list = false;

	while (next_line(&l, &p, &n)) {
		size_t ind = indent_of(p, n);
		char fch;
		size_t fk;
		bool ordered;
		size_t li;

		if (ind == SIZE_MAX) {
			in_para = false;
			blank_before = true;
			continue;
		}
		if (is_fence(p, n, &fch, &fk)) {
			/* a fenced block runs to its closing fence or the end */
			para(w);
			qu_buf_adds(w->b, ".EX\n");
			while (next_line(&l, &p, &n)) {
				char c2;
				size_t k2;

				if (is_fence(p, n, &c2, &k2) && c2 == fch &&
				    k2 >= fk)
					break;
				literal_line(w, p, n);
			}
			qu_buf_adds(w->b, ".EE\n");
			w->fresh = false;
			in_para = false;
			blank_before = false;
			continue;
		}
		if (blank_before && (literal_next || (ind >= 4 && !in_list)) &&
		    ind >= 1) {
			/*
			 * An indented block after a blank line (Markdown's
			 * code block, or the one a "::" paragraph announces):
			 * literal, its common indentation removed.
			 */
			size_t base = ind;

			para(w);
			qu_buf_adds(w->b, ".EX\n");
			for (;;) {
				size_t skip = skip_cols(p, n, base);

				literal_line(w, p + skip, n - skip);
				size_t save = l.pos;
				size_t blanks = 0;
				bool more = false;

				/* blank lines inside the block belong to it */
				while (next_line(&l, &p, &n)) {
					size_t i2 = indent_of(p, n);

					if (i2 == SIZE_MAX) {
						blanks++;
						continue;
					}
					if (i2 >= base) {
						more = true;
						break;
					}
					break;
				}
				if (!more) {
					l.pos = save;
					/* skip the blank lines just seen */
					while (blanks--) {
						const char *q;
						size_t qn;

						next_line(&l, &q, &qn);
					}
					break;
				}
				while (blanks--)
					qu_buf_adds(w->b, "\\&\n");
			}
			qu_buf_adds(w->b, ".EE\n");
			w->fresh = false;
			in_para = false;
			literal_next = false;
			blank_before = true;
			continue;
		}
		if (ind < 4 && is_directive(p, n, &literal_next)) {
			blank_before = true;
			in_para = false;
			continue;
		}
		literal_next = false;
		li = ind < 4 ? list_item(p, n, &ordered) : 0;
		if (li) {
			/* each item a tagged paragraph: a bullet or its number */
			struct qu_buf tag = QU_BUF_INIT;

			if (ordered)
				qu_buf_add(&tag, p + skip_cols(p, n, 3),
					   li - 1 - skip_cols(p, n, 3));
			qu_buf_addf(w->b, ".IP %s %d\n",
				    ordered ? tag.buf : "\\(bu",
				    ordered ? 4 : 2);
			qu_buf_fini(&tag);
			w->fresh = true;
			in_list = true;
			in_para = true;
			blank_before = false;
			text_line(w, p + li, n - li);
			if (ends_with_dcolon(p, n))
				literal_next = true;
			continue;
		}
		if (in_list && (blank_before || !in_para) && ind < 2) {
			/* the list ends: back to the enclosing paragraph */
			in_list = false;
			w->fresh = false;
			in_para = false;
			if (w->in_ip)
				qu_buf_adds(w->b, ".IP\n");
			else
				qu_buf_adds(w->b, ".PP\n");
			w->fresh = true;
		}
		if (ind < 4 && !in_list) {
			size_t h = skip_cols(p, n, 3), hk;

			hk = run_len(p + h, n - h, '#');
			if (hk >= 1 && hk <= 6 && h + hk < n &&
			    p[h + hk] == ' ' && !w->in_ip) {
				/* a heading inside a section: a subsection */
				size_t a = h + hk + 1, e = n;

				while (e > a && (p[e - 1] == '#' ||
						 p[e - 1] == ' '))
					e--;
				size_t req = w->b->len;

				qu_buf_adds(w->b, ".SS \"");
				man_escape(w->b, p + a, e - a, MAN_ESC_ARG);
				qu_buf_adds(w->b, "\"\n");
				man_request_fit(w->b, req, req + 5);
				w->fresh = true;
				in_para = false;
				blank_before = true;
				continue;
			}
		}
		if (!in_para) {
			if (!in_list)
				para(w);
			else if (blank_before)
				qu_buf_adds(w->b, ".IP \"\" 2\n");
			in_para = true;
		}
		blank_before = false;
		if (ends_with_dcolon(p, n)) {
			/* "text::" shows "text:" and announces a literal block */
			size_t e = n;

			while (e && (p[e - 1] == ' ' || p[e - 1] == '\t'))
				e--;
			e--;
			if (e && (p[e - 1] == ' ' || e == skip_cols(p, n, n)))
				while (e && (p[e - 1] == ':' || p[e - 1] == ' '))
					e--;
			text_line(w, p, e);
			literal_next = true;
			continue;
		}
		text_line(w, p, n);
	}
}
