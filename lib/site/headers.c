// SPDX-License-Identifier: MIT
/*
 * headers.c - a C header as the reST parse-headers.pl makes of it (site
 * stage)
 *
 * The kernel's media documentation includes its uAPI headers with
 * `.. kernel-include:: $BUILDDIR/videodev2.h.rst`, a file its Makefile
 * makes with Documentation/sphinx/parse-headers.pl HEADER OUT EXCEPTIONS:
 * the header as a parsed-literal block, each ioctl, define, enum
 * constant, enum, struct and typedef it declares linked to where the
 * documentation describes it, as the exceptions file ignores or redirects
 * them. This makes the same text, byte for byte, from the bytes
 * lib/site/directive.c read; the site-kernel-include test runs the script
 * on the kernel's headers and compares.
 *
 * The script runs one regex substitution over the whole text per symbol;
 * here each kind of symbol is one pass over the text that looks every
 * word up in a table, which gives the same bytes in linear time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site_int.h"

/* The script's hashes, in the order its substitutions run. */
enum ph_kind {
	PH_IOCTL,
	PH_DEFINE,
	PH_SYMBOL,
	PH_ENUM,
	PH_STRUCT,
	PH_TYPEDEF,
	PH_NKINDS,
};

/* The exceptions file's names of the kinds, and their default roles. */
static const struct {
	const char *name;
	const char *role;
} kinds[PH_NKINDS] = {
	[PH_IOCTL] = {"ioctl", ":ref"},
	[PH_DEFINE] = {"define", ":ref"},
	[PH_SYMBOL] = {"symbol", ":ref"},
	[PH_ENUM] = {"enum", ":c:type"},
	[PH_STRUCT] = {"struct", ":c:type"},
	[PH_TYPEDEF] = {"typedef", ":c:type"},
};

struct ph {
	struct qu_map sym[PH_NKINDS]; /* name -> its reST; NULL: deleted */
	struct qu_arena arena; /* the names and their reST */
	struct qu_buf line; /* a line without its comments */
	struct qu_buf tmp;
};

/* Perl's \s, and \w without Unicode rules (the script reads bytes). */
static bool ws(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static bool word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static size_t skip_ws(const char *p, size_t i, size_t n)
{
	while (i < n && ws(p[i]))
		i++;
	return i;
}

static size_t skip_word(const char *p, size_t i, size_t n)
{
	while (i < n && word(p[i]))
		i++;
	return i;
}

/* A name's reST, which may hold NUL bytes (the header's). */
struct ph_val {
	size_t len;
	char text[];
};

static struct ph_val *val(struct ph *ph, const struct qu_buf *rst)
{
	struct ph_val *v = qu_arena_alloc(&ph->arena, sizeof(*v) + rst->len);

	v->len = rst->len;
	memcpy(v->text, rst->buf, rst->len);
	return v;
}

static void set(struct ph *ph, enum ph_kind k, const char *name, size_t len,
		const struct qu_buf *rst)
{
	bool added;
	struct qu_map_slot *slot =
		qu_map_intern(&ph->sym[k], name, len, &ph->arena, &added);

	slot->value = val(ph, rst);
}

/*
 * A symbol's reference, "\ :ref:`NAME <name>`\ ": the target in lower
 * case, its '_' as '-' unless @keep_ (ioctls keep them).
 */
static void add_ref(struct ph *ph, enum ph_kind k, const char *name, size_t len,
		    bool keep_)
{
	struct qu_buf *b = &ph->tmp;

	qu_buf_reset(b);
	qu_buf_adds(b, "\\ :ref:`");
	qu_buf_add(b, name, len);
	qu_buf_adds(b, " <");
	for (size_t i = 0; i < len; i++) {
		char c = name[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		else if (c == '_' && !keep_)
			c = '-';
		qu_buf_addc(b, c);
	}
	qu_buf_adds(b, ">`\\ ");
	set(ph, k, name, len, b);
}

/* /^\s*WORD/ where WORD may hold a blank, which stands for \s+ (or \s*
 * when it is a '*'). The end of the match, or 0. */
static size_t lead(const char *l, size_t n, const char *words)
{
	size_t i = skip_ws(l, 0, n);

	for (const char *w = words; *w; w++) {
		if (*w == ' ' || *w == '*') {
			size_t j = skip_ws(l, i, n);

			if (*w == ' ' && j == i)
				return 0;
			i = j;
		} else if (i < n && l[i] == *w) {
			i++;
		} else {
			return 0;
		}
	}
	return i;
}

/*
 * After a keyword and its blanks at @i: a name of two word characters or
 * more ([_\w][\w\d_]+, or with '[' first if @bracket), then blanks and
 * '{', or the line's end. Its length, or 0.
 */
static size_t decl_name(const char *l, size_t n, size_t i, bool bracket)
{
	size_t j;

	if (i >= n || !(word(l[i]) || (bracket && l[i] == '[')))
		return 0;
	j = skip_word(l, i + 1, n);
	if (j - i < 2)
		return 0;
	if (j == n || (j + 1 == n && l[j] == '\n'))
		return j - i;
	/* the '[' forms take a name at the line's end only */
	if (bracket && l[i] == '[')
		return 0;
	if (j < n && ws(l[j]) && skip_ws(l, j, n) < n &&
	    l[skip_ws(l, j, n)] == '{')
		return j - i;
	return 0;
}

/* enum NAME {, enum NAME$, and both after "typedef". */
static size_t decl(const char *l, size_t n, const char *kw, size_t *name_out,
		   bool bracket)
{
	char pat[32];
	size_t i, len;

	for (int td = 0; td < 2; td++) {
		snprintf(pat, sizeof(pat), "%s%s ", td ? "typedef*" : "", kw);
		if (!(i = lead(l, n, pat)))
			continue;
		/* "\s+\{" wants the name whole: any form */
		if ((len = decl_name(l, n, i, bracket))) {
			*name_out = i;
			return len;
		}
	}
	return 0;
}

/*
 * /^\s*typedef\s+([_\w][\w\d_]+)\s+(.*)\s+([_\w][\w\d_]+);/: the type
 * (the greedy middle) and the name. False when it does not match.
 */
static bool typedef_line(struct ph *ph, const char *l, size_t n)
{
	size_t i = lead(l, n, "typedef "), a, b, f = 0, fe = 0, s;
	struct qu_buf *t = &ph->tmp;

	if (!i)
		return false;
	a = skip_word(l, i, n);
	if (a - i < 2 || a >= n || !ws(l[a]))
		return false;
	b = skip_ws(l, a, n);
	/* '.' stops at the newline: the line's, at its end */
	if (n && l[n - 1] == '\n')
		n--;
	/* the last name after a blank, with ';' right after it */
	for (size_t k = b + 1; k < n; k++) {
		size_t e;

		if (!ws(l[k - 1]) || !word(l[k]))
			continue;
		e = skip_word(l, k, n);
		if (e - k >= 2 && e < n && l[e] == ';') {
			f = k;
			fe = e;
		}
		k = e;
	}
	s = b;
	if (!f) {
		/* the first \s+ gives back a blank: an empty middle */
		size_t e = skip_word(l, b, n);

		if (b - a < 2 || e - b < 2 || e >= n || l[e] != ';')
			return false;
		f = b;
		fe = e;
		s = b - 1;
	}
	qu_buf_reset(t);
	qu_buf_adds(t, "\\ :c:type:`");
	qu_buf_add(t, l + f, fe - f);
	qu_buf_adds(t, " <");
	qu_buf_add(t, l + s, f - 1 - s);
	qu_buf_adds(t, ">`\\ ");
	set(ph, PH_TYPEDEF, l + f, fe - f, t);
	return true;
}

/*
 * The script's first loop: each line without its comments, looked at for
 * what it declares. @is_enum is its $is_enum.
 */
static void read_line(struct ph *ph, const char *raw, size_t rn,
		      bool *is_comment, bool *is_enum)
{
	struct qu_buf *ln = &ph->line;
	size_t n, i, len, body = rn && raw[rn - 1] == '\n' ? rn - 1 : rn;
	const char *l, *o, *c;
	char *tail;

	/* the comments, as s,/\*.*(\*{@literal /}),,g and s,/\*.*,, cut them */
	qu_buf_reset(ln);
	if (!*is_comment) {
		o = memmem(raw, body, "/*", 2);
		c = NULL;
		for (const char *p = o ? o + 2 : NULL; p && p + 1 < raw + body;
		     p++)
			if (p[0] == '*' && p[1] == '/')
				c = p;
		if (o && c) {
			qu_buf_add(ln, raw, (size_t)(o - raw));
			qu_buf_add(ln, c + 2, (size_t)(raw + rn - c - 2));
		} else {
			qu_buf_add(ln, raw, rn);
		}
		l = ln->buf;
		n = ln->len;
		body = n && l[n - 1] == '\n' ? n - 1 : n;
		if ((o = memmem(l, body, "/*", 2))) {
			*is_comment = true;
			/* keep the newline, which '.' does not take */
			tail = ln->buf + (o - l);
			memmove(tail, l + body, n - body);
			ln->len = (size_t)(tail - ln->buf) + (n - body);
			ln->buf[ln->len] = 0;
		}
	} else {
		c = NULL;
		for (const char *p = raw; p + 1 < raw + body; p++)
			if (p[0] == '*' && p[1] == '/')
				c = p;
		if (!c)
			return;
		*is_comment = false;
		qu_buf_add(ln, c + 2, (size_t)(raw + rn - c - 2));
	}
	l = ln->buf;
	n = ln->len;
	if (*is_enum) {
		i = skip_ws(l, 0, n);
		len = skip_word(l, i, n) - i;
		if (len >= 2) {
			add_ref(ph, PH_SYMBOL, l + i, len, false);
			if (memchr(raw, '}', rn))
				*is_enum = false;
			return;
		}
	}
	if (*is_enum && memchr(raw, '}', rn))
		*is_enum = false;
	if ((i = lead(l, n, "#*define "))) {
		size_t e = skip_word(l, i, n), k;

		if (e - i >= 2 && e < n && ws(l[e])) {
			bool io;

			k = skip_ws(l, e, n);
			io = n - k >= 3 && !memcmp(l + k, "_IO", 3);
			add_ref(ph, io ? PH_IOCTL : PH_DEFINE, l + i, e - i,
				io);
			return;
		}
	}
	if (typedef_line(ph, l, n))
		return;
	if ((len = decl(l, n, "enum", &i, false))) {
		qu_buf_reset(&ph->tmp);
		qu_buf_adds(&ph->tmp, "enum :c:type:`");
		qu_buf_add(&ph->tmp, l + i, len);
		qu_buf_adds(&ph->tmp, "`\\ ");
		set(ph, PH_ENUM, l + i, len, &ph->tmp);
		*is_enum = true;
		return;
	}
	if ((len = decl(l, n, "struct", &i, true))) {
		qu_buf_reset(&ph->tmp);
		qu_buf_adds(&ph->tmp, "struct ");
		qu_buf_add(&ph->tmp, l + i, len);
		qu_buf_adds(&ph->tmp, "\\ ");
		set(ph, PH_STRUCT, l + i, len, &ph->tmp);
	}
}

/*
 * The tail of a multi-line typedef after its '}' at @cb:
 * \}\s*(\S+)\s*\; with the greedy name. The end of the match, or 0.
 */
static size_t typedef_tail(const char *d, size_t n, size_t cb, size_t *name,
			   size_t *name_end)
{
	size_t u = skip_ws(d, cb + 1, n), v = u, w;

	while (v < n && !ws(d[v]))
		v++;
	if (v == u)
		return 0;
	w = skip_ws(d, v, n);
	if (w < n && d[w] == ';') {
		*name = u;
		*name_end = v;
		return w + 1;
	}
	/* the name gives back up to its last ';' */
	for (w = v - 1; w > u; w--)
		if (d[w] == ';') {
			*name = u;
			*name_end = w;
			return w + 1;
		}
	return 0;
}

/*
 * The typedefs of structs and enums over several lines, as
 * m/typedef\s+KW\s+\S+?\s*\{[^\}]+\}\s*(\S+)\s*\;/g finds them in the
 * whole file, comments and all. The braces' search and the tail after a
 * '}' are kept from one start to the next: the starts only move forward,
 * so a file of unclosed typedefs stays linear.
 */
static void typedef_blocks(struct ph *ph, const char *d, size_t n,
			   const char *kw)
{
	size_t kl = strlen(kw), i = 0;
	/* the first '}' from close_from on; SIZE_MAX: none */
	size_t close_from = SIZE_MAX, close_at = 0;
	size_t tail_cb = SIZE_MAX, tail_end = 0, tail_s = 0, tail_e = 0;
	const char *t;

	while (i < n && (t = memmem(d + i, n - i, "typedef", 7))) {
		size_t p = (size_t)(t - d) + 7, q, r, end = 0;

		i = (size_t)(t - d) + 1;
		q = skip_ws(d, p, n);
		if (q == p || n - q < kl || memcmp(d + q, kw, kl))
			continue;
		p = q + kl;
		q = skip_ws(d, p, n);
		if (q == p || q >= n)
			continue;
		for (r = q; r < n && !ws(d[r]); r++)
			;
		/* \S+? lazily: every '{' of the word, then one after it */
		for (size_t bp = q + 1; bp <= r && !end; bp++) {
			size_t cb;

			if (bp == r) {
				bp = skip_ws(d, r, n);
				if (bp >= n || d[bp] != '{')
					break;
			} else if (d[bp] != '{') {
				continue;
			}
			if (bp + 1 >= n || d[bp + 1] == '}')
				continue;
			if (!(close_from <= bp + 1 && bp + 1 <= close_at)) {
				const char *c =
					memchr(d + bp + 1, '}', n - bp - 1);

				close_from = bp + 1;
				close_at = c ? (size_t)(c - d) : SIZE_MAX;
			}
			if (close_at == SIZE_MAX)
				return;
			cb = close_at;
			if (cb != tail_cb) {
				tail_cb = cb;
				tail_end = typedef_tail(d, n, cb, &tail_s,
							&tail_e);
			}
			end = tail_end;
			if (bp > r)
				break;
		}
		if (!end)
			continue;
		qu_buf_reset(&ph->tmp);
		qu_buf_adds(&ph->tmp, "\\ :c:type:`");
		qu_buf_add(&ph->tmp, d + tail_s, tail_e - tail_s);
		qu_buf_adds(&ph->tmp, "`\\ ");
		set(ph, PH_TYPEDEF, d + tail_s, tail_e - tail_s, &ph->tmp);
		i = end;
	}
}

/* Whether the exceptions file's line @l is /^KW\s+/, then where after. */
static size_t keyword(const char *l, size_t n, const char *kw)
{
	size_t kl = strlen(kw), i;

	if (n < kl || memcmp(l, kw, kl))
		return 0;
	i = skip_ws(l, kl, n);
	return i > kl ? i : 0;
}

/* (\S+) at @i: its end, or @i. */
static size_t nonblank(const char *l, size_t i, size_t n)
{
	while (i < n && !ws(l[i]))
		i++;
	return i;
}

/*
 * A "replace" rule's new target as the script reads it: ":c:ROLE:`x`",
 * any ":ref:`x`", or a bare target with the kind's role.
 */
static void QU_NONNULL_ARGS
new_target(struct qu_buf *b, enum ph_kind k, const char *old, size_t ol,
	   const char *v, size_t vl)
{
	static const char *const c_roles[] = {"data", "func", "macro", "type"};
	const char *role = k < PH_NKINDS ? kinds[k].role : "";
	const char *lb = memrchr(v, '`', vl);
	size_t rl = strlen(role);

	for (size_t r = 0; r < QU_ARRAY_SIZE(c_roles); r++) {
		size_t cl = strlen(c_roles[r]);

		if (vl > 3 + cl + 2 && !memcmp(v, ":c:", 3) &&
		    !memcmp(v + 3, c_roles[r], cl) && v[3 + cl] == ':' &&
		    v[4 + cl] == '`' && lb && lb > v + 5 + cl) {
			role = v;
			rl = 3 + cl;
			vl = (size_t)(lb - v) - (5 + cl);
			v += 5 + cl;
			goto out;
		}
	}
	for (const char *m = memmem(v, vl, ":ref:`", 6); m;) {
		if (lb && lb > m + 6) {
			role = ":ref";
			rl = 4;
			vl = (size_t)(lb - m) - 6;
			v = m + 6;
		}
		break;
	}
out:
	qu_buf_reset(b);
	qu_buf_add(b, role, rl);
	qu_buf_adds(b, ":`");
	qu_buf_add(b, old, ol);
	qu_buf_adds(b, " <");
	qu_buf_add(b, v, vl);
	qu_buf_adds(b, ">`");
}

/*
 * The exceptions file: "ignore KIND NAME" and "replace KIND NAME NEW"
 * lines, blank lines and '#' comments. A line the script cannot parse
 * makes it die: -1, after saying so.
 */
static int exceptions(struct ph *ph, struct qu_diags *diags, const char *path,
		      const char *t, size_t len)
{
	uint32_t line = 0;

	for (size_t pos = 0; pos < len; line++) {
		const char *l = t + pos, *nl = memchr(l, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - l) : len - pos, i, j, k, e;
		int kind = -1;

		pos += n + (nl ? 1 : 0);
		i = skip_ws(l, 0, n);
		if (i == n || l[i] == '#')
			continue;
		if ((i = keyword(l, n, "ignore"))) {
			for (k = 0; k < PH_NKINDS; k++)
				if ((j = keyword(l + i, n - i,
						 kinds[k].name)) &&
				    (e = nonblank(l, i + j, n)) > i + j)
					break;
			if (k < PH_NKINDS) {
				void **v = qu_map_get(&ph->sym[k], l + i + j,
						      e - i - j)
						   ? qu_map_slot(&ph->sym[k],
								 l + i + j,
								 e - i - j)
						   : NULL;

				if (v)
					*v = NULL;
				continue;
			}
		}
		if ((i = keyword(l, n, "replace"))) {
			size_t te = nonblank(l, i, n), os, oe, ns, ne;

			os = skip_ws(l, te, n);
			oe = nonblank(l, os, n);
			ns = skip_ws(l, oe, n);
			ne = nonblank(l, ns, n);
			if (te > i && os > te && oe > os && ns > oe &&
			    ne > ns) {
				for (k = 0; k < PH_NKINDS; k++)
					if (te - i == strlen(kinds[k].name) &&
					    !memcmp(l + i, kinds[k].name,
						    te - i))
						kind = (int)k;
				new_target(&ph->tmp,
					   kind < 0 ? PH_NKINDS
						    : (enum ph_kind)kind,
					   l + os, oe - os, l + ns, ne - ns);
				if (kind >= 0) {
					if (qu_map_get(&ph->sym[kind], l + os,
						       oe - os))
						*qu_map_slot(&ph->sym[kind],
							     l + os, oe - os) =
							val(ph, &ph->tmp);
					continue;
				}
			}
		}
		qu_diag(diags, QU_W_KERNEL_INCLUDE, path, line + 1, 1,
			"cannot parse '%.*s', as parse-headers.pl cannot "
			"(it stops)",
			(int)(n > 80 ? 80 : n), l);
		return -1;
	}
	return 0;
}

/* Text::Tabs' expand(): tab stops every 8 bytes, counted from each line. */
static void expand(struct qu_buf *out, const char *d, size_t n)
{
	size_t col = 0;

	for (size_t i = 0; i < n; i++) {
		if (d[i] == '\t') {
			size_t pad = 8 - col % 8;

			while (pad--)
				qu_buf_addc(out, ' ');
			col = 0;
		} else {
			qu_buf_addc(out, d[i]);
			col = d[i] == '\n' ? 0 : col + 1;
		}
	}
}

/*
 * The block's indent: "    " before every line, s/\n\s+$/\n/ (the
 * blanks at the end, from their first newline, become one newline) and
 * s/\n\s+\n/\n\n/g (a run of blank lines becomes one).
 */
static void indent(struct qu_buf *out, const char *d, size_t n)
{
	struct qu_buf a = QU_BUF_INIT;
	size_t i, t;

	qu_buf_adds(&a, "    ");
	for (i = 0; i < n; i++) {
		qu_buf_addc(&a, d[i]);
		if (d[i] == '\n')
			qu_buf_adds(&a, "    ");
	}
	for (t = a.len; t > 0 && ws(a.buf[t - 1]); t--)
		;
	for (; t < a.len && a.buf[t] != '\n'; t++)
		;
	if (t + 1 < a.len) {
		a.len = t + 1;
		a.buf[a.len] = 0;
	}
	for (i = 0; i < a.len;) {
		size_t y, z = 0;

		if (a.buf[i] != '\n') {
			qu_buf_addc(out, a.buf[i++]);
			continue;
		}
		y = skip_ws(a.buf, i + 1, a.len);
		for (size_t k = i + 2; k < y; k++)
			if (a.buf[k] == '\n')
				z = k;
		if (z) {
			qu_buf_adds(out, "\n\n");
			i = z + 1;
		} else {
			qu_buf_addc(out, '\n');
			i++;
		}
	}
	qu_buf_fini(&a);
}

/* The script's escapes, then its **DEPRECATED**. */
static void escape(struct qu_buf *out, const char *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (n - i >= 10 && !memcmp(d + i, "DEPRECATED", 10)) {
			qu_buf_adds(out, "**DEPRECATED**");
			i += 9;
			continue;
		}
		if (strchr("_`*<>&\\:/|%$#{}~^", d[i]) && d[i])
			qu_buf_addc(out, '\\');
		qu_buf_addc(out, d[i]);
	}
}

/*
 * Bytes a name may hold and the script's pattern of it matches as they
 * are in the escaped text: word characters, bytes past ASCII, control
 * bytes and a few marks. A name of typedef_blocks() (any \S+) with any
 * other byte is never linked: the script's pattern of it either never
 * matches (a '%' the text holds as "\%"), starts or ends at a
 * delimiter, or reads as a regex ('.', '*', '[').
 */
static bool name_byte(unsigned char c)
{
	return (word((char)c) && c != '_') || c >= 0x80 ||
	       (c < 0x20 && !ws((char)c)) || c == 0x7f || c == '!' ||
	       c == '"' || c == '\'' || c == '-';
}

/*
 * A name in the escaped text: its bytes, with '_' '`' '&' '<' '>' '/' as
 * the script escapes them ("\_"), which its pattern of the name escapes
 * alike. Its end, and the name without the escapes in @key.
 */
static size_t escaped_name(struct qu_buf *key, const char *d, size_t i,
			   size_t n)
{
	qu_buf_reset(key);
	while (i < n) {
		if (name_byte((unsigned char)d[i])) {
			qu_buf_addc(key, d[i++]);
		} else if (d[i] == '\\' && i + 1 < n && d[i + 1] &&
			   strchr("_`&<>/", d[i + 1])) {
			qu_buf_addc(key, d[i + 1]);
			i += 2;
		} else {
			break;
		}
	}
	return i;
}

/* $end_delim after a name at @i: its length, or 0. */
static size_t end_delim(const char *d, size_t i, size_t n)
{
	if (i >= n)
		return 0;
	if (ws(d[i]) || strchr(",;)}{", d[i]))
		return d[i] ? 1 : 0;
	if (d[i] == '\\' && i + 1 < n && (d[i + 1] == '=' || d[i + 1] == ':'))
		return 2;
	return 0;
}

static bool start_delim(char c)
{
	return c && strchr(" \n\t(=*@", c);
}

/*
 * s/($start_delim)($r)$end_delim/$1$s$3/g for every name $r of one
 * table at once. A name's own substitution takes its end delimiter
 * along, so the same name cannot start on it (FOO FOO links the first);
 * another name's substitution, run on its own in the script, can.
 */
static void link_delimited(struct ph *ph, struct qu_buf *out, const char *d,
			   size_t n, const struct qu_map *m)
{
	struct qu_buf key = QU_BUF_INIT;
	const struct ph_val *last = NULL; /* the last name linked ... */
	size_t last_ed = 0, last_ed_end = 0; /* ... and its end delimiter */

	for (size_t i = 0; i < n; i++) {
		size_t j, ed;
		const struct ph_val *v;

		qu_buf_addc(out, d[i]);
		if (!start_delim(d[i]) || !m->n)
			continue;
		j = escaped_name(&key, d, i + 1, n);
		if (j == i + 1 || !(ed = end_delim(d, j, n)) ||
		    !(v = qu_map_get(m, key.buf, key.len)))
			continue;
		if (last == v && i >= last_ed && i < last_ed_end)
			continue;
		qu_buf_add(out, v->text, v->len);
		last = v;
		last_ed = j;
		last_ed_end = j + ed;
		i = j - 1;
	}
	qu_buf_fini(&key);
}

/* s/KW\s+($r)$end_delim/$s$2/g for every name of enums or structs. */
static void link_keyword(struct qu_buf *out, const char *d, size_t n,
			 const struct qu_map *m, const char *kw)
{
	struct qu_buf key = QU_BUF_INIT;
	size_t kl = strlen(kw);

	for (size_t i = 0; i < n; i++) {
		size_t k, j;
		const struct ph_val *v;

		if (m->n && n - i > kl && !memcmp(d + i, kw, kl) &&
		    (k = skip_ws(d, i + kl, n)) > i + kl &&
		    (j = escaped_name(&key, d, k, n)) > k &&
		    end_delim(d, j, n) &&
		    (v = qu_map_get(m, key.buf, key.len))) {
			qu_buf_add(out, v->text, v->len);
			i = j - 1;
			continue;
		}
		qu_buf_addc(out, d[i]);
	}
	qu_buf_fini(&key);
}

/* s/\\ ([\n\s])/\1/g: the links' "\ " before a blank goes. */
static void unspace(struct qu_buf *out, const char *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (d[i] == '\\' && i + 2 < n && d[i + 1] == ' ' &&
		    ws(d[i + 2])) {
			qu_buf_addc(out, d[i + 2]);
			i += 2;
			continue;
		}
		qu_buf_addc(out, d[i]);
	}
}

int qu_site_headers_rst(struct qu_buf *out, struct qu_diags *diags,
			const char *name, const char *header, size_t hlen,
			const char *exc_path, const char *exc, size_t elen)
{
	struct ph ph;
	struct qu_buf a = QU_BUF_INIT, b = QU_BUF_INIT;
	bool is_comment = false, is_enum = false;
	const char *base = strrchr(name, '/');
	int r = 0;

	for (int k = 0; k < PH_NKINDS; k++)
		qu_map_init(&ph.sym[k]);
	qu_arena_init(&ph.arena);
	qu_buf_init(&ph.line);
	qu_buf_init(&ph.tmp);
	for (size_t pos = 0; pos < hlen;) {
		const char *nl = memchr(header + pos, '\n', hlen - pos);
		size_t e = nl ? (size_t)(nl - header) + 1 : hlen;

		read_line(&ph, header + pos, e - pos, &is_comment, &is_enum);
		pos = e;
	}
	typedef_blocks(&ph, header, hlen, "struct");
	typedef_blocks(&ph, header, hlen, "enum");
	if (exc && exceptions(&ph, diags, exc_path, exc, elen) < 0) {
		r = -1;
		goto out;
	}
	expand(&a, header, hlen);
	indent(&b, a.buf, a.len);
	qu_buf_reset(&a);
	escape(&a, b.buf, b.len);
	for (int k = 0; k < PH_NKINDS; k++) {
		qu_buf_reset(&b);
		if (k == PH_ENUM || k == PH_STRUCT)
			link_keyword(&b, a.buf, a.len, &ph.sym[k],
				     k == PH_ENUM ? "enum" : "struct");
		else
			link_delimited(&ph, &b, a.buf, a.len, &ph.sym[k]);
		qu_buf_reset(&a);
		qu_buf_add(&a, b.buf, b.len);
	}
	base = base ? base + 1 : name;
	qu_buf_adds(out, ".. -*- coding: utf-8; mode: rst -*-\n\n");
	qu_buf_adds(out, base);
	qu_buf_addc(out, '\n');
	for (size_t i = strlen(base); i; i--)
		qu_buf_addc(out, '=');
	qu_buf_adds(out, "\n\n.. parsed-literal::\n\n");
	unspace(out, a.buf, a.len);
out:
	for (int k = 0; k < PH_NKINDS; k++)
		qu_map_fini(&ph.sym[k]);
	qu_arena_fini(&ph.arena);
	qu_buf_fini(&ph.line);
	qu_buf_fini(&ph.tmp);
	qu_buf_fini(&a);
	qu_buf_fini(&b);
	return r;
}
