// SPDX-License-Identifier: MIT
/*
 * abi_link.c - the links get_abi.pl puts on a symbol's path (site stage)
 *
 * lib/site/abi.c's descriptions link every mention of another symbol as
 * scripts/get_abi.pl does, and the script does it with a substitution
 * whose pattern is the symbol's name: this is that substitution, the
 * name read as Perl reads a pattern. Only abi.c calls it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "site_int.h"

/* Perl's \s, \w: ASCII only, as the script's byte strings have them. */
static bool ws(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static bool word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* The script's $bondary: one of ",.:;)" or a blank (or the end). */
static bool boundary(char c)
{
	return (c && strchr(",.:;)", c)) || ws(c);
}

/*
 * The script links a symbol's path with s,$start$s$bondary,$1$xref$2,g,
 * its path $s read as a regular expression: the What
 * "/sys/kernel/fadump/" followed by '*' is "/sys/kernel/fadump" and any
 * number of '/' (so ABI/testing/sysfs-kernel-fadump's own mention of it
 * stays text), and a '|' splits the whole pattern in two. So the path is
 * compiled as Perl would compile it, for what a path can hold (no blank, ',',
 * '.', ':', ';' or ')'): bytes, classes, escapes, anchors, quantifiers and
 * alternatives. What Perl refuses (an unmatched '(' or '[', a nested
 * quantifier) stops the script; quire leaves the line as it is.
 */
enum re_kind {
	RE_START, /* (^|\s|\(), captured as $1 */
	RE_BOUND, /* ([,.:;\)\s]|\z), captured as $2 */
	RE_SET, /* one byte of a set, quantified */
	RE_BOL, /* ^ */
	RE_EOL, /* $: the end, or before a newline ending the text */
	RE_WORDB, /* \b */
	RE_NWORDB, /* \B */
};

struct re_node {
	enum re_kind kind;
	bool set[256];
	unsigned min, max;
	bool lazy, possessive, quantified;
};

struct re_alt {
	struct re_node *v;
	size_t n, alloc;
};

struct re {
	struct re_alt *alts;
	size_t nalts;
};

/* Where one match's captures are: NULL for one not taken part. */
struct re_caps {
	const char *c1, *c2;
	size_t l1, l2;
};

static struct re_node *re_add(struct re *re, enum re_kind kind)
{
	struct re_alt *alt = &re->alts[re->nalts - 1];
	struct re_node *nd;

	/* doubling: a name thousands of bytes long compiles in one pass */
	if (alt->n == alt->alloc) {
		alt->alloc = alt->alloc ? 2 * alt->alloc : 16;
		alt->v = qu_xrealloc(alt->v, alt->alloc * sizeof(*alt->v));
	}
	nd = &alt->v[alt->n++];
	memset(nd, 0, sizeof(*nd));
	nd->kind = kind;
	nd->min = nd->max = 1;
	return nd;
}

static void re_new_alt(struct re *re)
{
	re->alts = qu_xgrow(re->alts, re->nalts, sizeof(*re->alts));
	re->alts[re->nalts].v = NULL;
	re->alts[re->nalts].alloc = 0;
	re->alts[re->nalts++].n = 0;
}

static void re_fini(struct re *re)
{
	for (size_t i = 0; i < re->nalts; i++)
		free(re->alts[i].v);
	free(re->alts);
}

/* \d, \w, \s and their negations into @set; false for other letters. */
static bool re_class_escape(bool *set, char c)
{
	bool neg = c >= 'A' && c <= 'Z';

	switch (c | 0x20) {
	case 'd':
	case 'w':
	case 's':
		for (int b = 0; b < 256; b++) {
			bool in = (c | 0x20) == 'd'   ? b >= '0' && b <= '9'
				  : (c | 0x20) == 'w' ? word((char)b)
						      : ws((char)b);

			if (in != neg)
				set[b] = true;
		}
		return true;
	}
	return false;
}

/* The byte an escape stands for; -1 for one quire does not read. */
static int re_escape_byte(char c)
{
	static const char from[] = "tnrfea", to[] = "\t\n\r\f\033\a";
	const char *f;

	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9')) {
		f = strchr(from, c);
		return f ? (unsigned char)to[f - from] : -1;
	}
	return (unsigned char)c;
}

/* [...] at @p: its set into @nd; the byte after it, or NULL. */
static const char *re_class(struct re_node *nd, const char *p)
{
	bool neg = false, first = true;
	int prev = -1;

	if (*p == '^')
		neg = true, p++;
	for (; *p && (first || *p != ']'); first = false) {
		int c;

		if (*p == '[' && p[1] == ':')
			return NULL;
		if (*p == '\\') {
			if (!p[1])
				return NULL;
			if (re_class_escape(nd->set, p[1])) {
				p += 2;
				prev = -1;
				continue;
			}
			if ((c = re_escape_byte(p[1])) < 0)
				return NULL;
			p += 2;
		} else {
			c = (unsigned char)*p++;
		}
		if (*p == '-' && p[1] && p[1] != ']' && prev < 0) {
			int hi = (unsigned char)p[1];

			if (p[1] == '\\')
				return NULL;
			if (hi < c)
				return NULL;
			for (int b = c; b <= hi; b++)
				nd->set[b] = true;
			p += 2;
			continue;
		}
		nd->set[c] = true;
		prev = -1;
	}
	if (*p != ']')
		return NULL;
	if (neg)
		for (int b = 0; b < 256; b++)
			nd->set[b] = !nd->set[b];
	return p + 1;
}

static bool digits(const char **p, unsigned *v)
{
	const char *q = *p;
	unsigned long n = 0;

	while (*q >= '0' && *q <= '9' && n < 65536)
		n = n * 10 + (unsigned)(*q++ - '0');
	if (q == *p)
		return false;
	*v = (unsigned)n;
	*p = q;
	return true;
}

/* {n}, {n,}, {n,m}, {,m} at @p; false when the brace is a byte. */
static bool re_braces(const char **p, unsigned *min, unsigned *max)
{
	const char *q = *p + 1;
	bool lo = digits(&q, min), hi;

	if (*q == '}' && lo) {
		*max = *min;
		*p = q + 1;
		return true;
	}
	if (*q != ',')
		return false;
	q++;
	hi = digits(&q, max);
	if (*q != '}' || (!lo && !hi))
		return false;
	if (!lo)
		*min = 0;
	if (!hi)
		*max = UINT32_MAX;
	*p = q + 1;
	return true;
}

/* START @s BOUND as Perl compiles it; false where Perl would refuse it. */
static bool re_compile(struct re *re, const char *s)
{
	struct re_node *last = NULL;

	memset(re, 0, sizeof(*re));
	re_new_alt(re);
	re_add(re, RE_START);
	while (*s) {
		unsigned min, max;
		struct re_node *nd;
		int c;

		if (*s == '*' || *s == '+' || *s == '?' ||
		    (*s == '{' && re_braces(&(const char *){s}, &min, &max))) {
			if (!last || last->kind != RE_SET || last->quantified)
				return false;
			if (*s == '{') {
				re_braces(&s, &min, &max);
			} else {
				min = *s == '+';
				max = *s == '?' ? 1 : UINT32_MAX;
				s++;
			}
			last->min = min, last->max = max;
			last->quantified = true;
			if (*s == '?')
				last->lazy = true, s++;
			else if (*s == '+')
				last->possessive = true, s++;
			continue;
		}
		if (*s == '|') {
			re_new_alt(re);
			last = NULL;
			s++;
			continue;
		}
		if (*s == '(' || *s == ')')
			return false;
		if (*s == '^' || *s == '$') {
			re_add(re, *s == '^' ? RE_BOL : RE_EOL);
			last = NULL;
			s++;
			continue;
		}
		nd = re_add(re, RE_SET);
		last = nd;
		if (*s == '[') {
			if (!(s = re_class(nd, s + 1)))
				return false;
			continue;
		}
		if (*s != '\\') {
			nd->set[(unsigned char)*s++] = true;
			continue;
		}
		if (!s[1])
			return false;
		if (s[1] == 'b' || s[1] == 'B') {
			nd->kind = s[1] == 'b' ? RE_WORDB : RE_NWORDB;
			last = NULL;
		} else if (!re_class_escape(nd->set, s[1])) {
			if ((c = re_escape_byte(s[1])) < 0)
				return false;
			nd->set[c] = true;
		}
		s += 2;
	}
	re_add(re, RE_BOUND);
	return true;
}

static bool re_from(const struct re_alt *alt, size_t k, const char *d,
		    size_t len, size_t i, struct re_caps *c, size_t *end);

/* One node at @i, then the rest of the alternative. */
static bool re_node(const struct re_alt *alt, size_t k, const char *d,
		    size_t len, size_t i, struct re_caps *c, size_t *end)
{
	const struct re_node *nd = &alt->v[k];
	bool wl, wr;
	size_t r;

	switch (nd->kind) {
	case RE_START:
		c->c1 = d + i, c->l1 = 0;
		if (i == 0 && re_from(alt, k + 1, d, len, i, c, end))
			return true;
		c->l1 = 1;
		if (i < len && (ws(d[i]) || d[i] == '(') &&
		    re_from(alt, k + 1, d, len, i + 1, c, end))
			return true;
		c->c1 = NULL;
		return false;
	case RE_BOUND:
		c->c2 = d + i, c->l2 = 1;
		if (i < len && boundary(d[i]) &&
		    re_from(alt, k + 1, d, len, i + 1, c, end))
			return true;
		c->l2 = 0;
		if (i == len && re_from(alt, k + 1, d, len, i, c, end))
			return true;
		c->c2 = NULL;
		return false;
	case RE_BOL:
		return i == 0 && re_from(alt, k + 1, d, len, i, c, end);
	case RE_EOL:
		return (i == len || (i + 1 == len && d[i] == '\n')) &&
		       re_from(alt, k + 1, d, len, i, c, end);
	case RE_WORDB:
	case RE_NWORDB:
		wl = i > 0 && word(d[i - 1]);
		wr = i < len && word(d[i]);
		return (wl != wr) == (nd->kind == RE_WORDB) &&
		       re_from(alt, k + 1, d, len, i, c, end);
	case RE_SET:
		break;
	}
	for (r = 0;
	     r < nd->max && i + r < len && nd->set[(unsigned char)d[i + r]];
	     r++)
		;
	if (r < nd->min)
		return false;
	if (nd->possessive)
		return re_from(alt, k + 1, d, len, i + r, c, end);
	if (nd->lazy) {
		for (size_t t = nd->min; t <= r; t++)
			if (re_from(alt, k + 1, d, len, i + t, c, end))
				return true;
		return false;
	}
	for (size_t t = r + 1; t-- > nd->min;)
		if (re_from(alt, k + 1, d, len, i + t, c, end))
			return true;
	return false;
}

static bool re_from(const struct re_alt *alt, size_t k, const char *d,
		    size_t len, size_t i, struct re_caps *c, size_t *end)
{
	if (k == alt->n) {
		*end = i;
		return true;
	}
	return re_node(alt, k, d, len, i, c, end);
}

/* The first match at @i, the alternatives in order; its end, or false. */
static bool re_at(const struct re *re, const char *d, size_t len, size_t i,
		  bool nonempty, struct re_caps *c, size_t *end)
{
	for (size_t a = 0; a < re->nalts; a++) {
		memset(c, 0, sizeof(*c));
		if (re_from(&re->alts[a], 0, d, len, i, c, end) &&
		    (!nonempty || *end > i))
			return true;
	}
	return false;
}

bool site_abi_link(struct qu_buf *b, const char *s, const char *xref)
{
	struct qu_buf out = QU_BUF_INIT;
	struct re re;
	size_t i = 0, end;
	bool empty_at = false;
	struct re_caps c;

	if (!re_compile(&re, s)) {
		re_fini(&re);
		return false;
	}
	while (i <= b->len) {
		/* after an empty match here, only a longer one may follow */
		if (re_at(&re, b->buf, b->len, i, empty_at, &c, &end)) {
			if (c.c1)
				qu_buf_add(&out, c.c1, c.l1);
			qu_buf_adds(&out, xref);
			if (c.c2)
				qu_buf_add(&out, c.c2, c.l2);
			empty_at = end == i;
			i = end;
			continue;
		}
		empty_at = false;
		if (i == b->len)
			break;
		qu_buf_addc(&out, b->buf[i++]);
	}
	re_fini(&re);
	qu_buf_fini(b);
	*b = out;
	return true;
}
