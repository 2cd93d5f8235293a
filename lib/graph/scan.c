// SPDX-License-Identifier: MIT
/*
 * scan.c - find kernel-doc highlights and automarkup forms in text
 * (graph stage)
 *
 * One scanner serves the reference count of the graph and the links of
 * lib/markdown, so "Referenced by" and the links drawn agree. The forms
 * are those of scripts/kernel-doc's highlights and of the kernel's
 * Documentation/sphinx/automarkup.py, read byte by byte instead of by
 * regular expression.
 */
#include <string.h>

#include "graph/graph.h"

/*
 * Byte classes: a word byte (C_WORD), one that starts an identifier
 * (C_IDENT), one that starts a comment highlight (C_MARK). The scan
 * moves over bytes of no class it looks for without testing each form.
 */
enum { C_WORD = 1, C_IDENT = 2, C_MARK = 4 };
static const unsigned char cls[256] = {
	['0' ... '9'] = C_WORD,
	['A' ... 'Z'] = C_WORD | C_IDENT,
	['a' ... 'z'] = C_WORD | C_IDENT,
	['_'] = C_WORD | C_IDENT,
	['&'] = C_MARK,
	['@'] = C_MARK,
	['%'] = C_MARK,
	['$'] = C_MARK,
	['.'] = C_MARK,
};

static bool word(char c)
{
	return cls[(unsigned char)c] & C_WORD;
}

static bool ident_start(char c)
{
	return cls[(unsigned char)c] & C_IDENT;
}

static size_t ident(const char *t, size_t len, size_t i)
{
	size_t j = i;

	if (j >= len || !ident_start(t[j]))
		return 0;
	while (++j < len && word(t[j]))
		;
	return j - i;
}

static inline int tag_kind(const char *w, size_t n)
{
	switch (n) {
	case 4:
		return memcmp(w, "enum", 4) ? -1 : QU_REF_ENUM;
	case 5:
		return memcmp(w, "union", 5) ? -1 : QU_REF_UNION;
	case 6:
		return memcmp(w, "struct", 6) ? -1 : QU_REF_STRUCT;
	case 7:
		return memcmp(w, "typedef", 7) ? -1 : QU_REF_TYPEDEF;
	default:
		return -1;
	}
}

/* "->member" or ".member" after a name; returns the bytes taken */
static size_t member(struct qu_ref *r, const char *t, size_t len, size_t i)
{
	size_t skip = 0, n;

	if (i + 1 < len && t[i] == '-' && t[i + 1] == '>')
		skip = 2;
	else if (i < len && t[i] == '.')
		skip = 1;
	if (!skip)
		return 0;
	n = ident(t, len, i + skip);
	if (!n)
		return 0;
	r->member = t + i + skip;
	r->mlen = n;
	return skip + n;
}

/* "struct foo" at @i (the keyword's start); 0 when it is not one */
static size_t tagged(struct qu_ref *r, const char *t, size_t len, size_t i)
{
	size_t kw = ident(t, len, i), j, n;
	int k;

	if (!kw || (k = tag_kind(t + i, kw)) < 0)
		return 0;
	j = i + kw;
	if (j >= len || (t[j] != ' ' && t[j] != '\t' && t[j] != '\n'))
		return 0;
	while (j < len && (t[j] == ' ' || t[j] == '\t' || t[j] == '\n'))
		j++;
	n = ident(t, len, j);
	if (!n)
		return 0;
	r->kind = (enum qu_ref_kind)k;
	r->name = t + j;
	r->nlen = n;
	return j + n - i;
}

/*
 * Empty @out for a reference at @i: done where one may start, not for
 * every byte scanned.
 */
static void clear(struct qu_ref *out, size_t i)
{
	memset(out, 0, sizeof(*out));
	out->start = i;
}

bool qu_graph_scan(struct qu_ref *out, const char *t, size_t len, size_t pos,
		   bool comment)
{
	unsigned starts = comment ? C_IDENT | C_MARK : C_IDENT;
	size_t i = pos;

	while (i < len) {
		char c;
		bool after_word;
		size_t n;

		/* bytes where no form starts */
		while (!(cls[(unsigned char)t[i]] & starts))
			if (++i == len)
				return false;
		c = t[i];
		after_word = i > 0 && word(t[i - 1]);

		/* the common case first: the other forms start with a mark */
		if (ident_start(c)) {
			if (after_word) {
				i++;
				continue;
			}
			n = ident(t, len, i);
			if (tag_kind(t + i, n) >= 0) {
				size_t m;

				clear(out, i);
				if ((m = tagged(out, t, len, i))) {
					out->end = i + m;
					return true;
				}
			}
			if (i + n + 2 <= len && t[i + n] == '(' &&
			    t[i + n + 1] == ')') {
				clear(out, i);
				out->kind = QU_REF_FUNC;
				out->name = t + i;
				out->nlen = n;
				out->end = i + n + 2;
				return true;
			}
			i += n;
			continue;
		}
		if (comment && c == '&' && !after_word && i + 1 < len) {
			clear(out, i);
			n = tagged(out, t, len, i + 1);
			if (!n) {
				n = ident(t, len, i + 1);
				if (n) {
					out->kind = QU_REF_ANY;
					out->name = t + i + 1;
					out->nlen = n;
				}
			}
			if (n) {
				n += member(out, t, len, i + 1 + n);
				out->amp = true;
				out->end = i + 1 + n;
				return true;
			}
		} else if (comment && c == '@' && !after_word) {
			size_t j = i + 1;

			clear(out, i);
			if (j + 3 <= len && !memcmp(t + j, "...", 3)) {
				j += 3;
			} else if ((n = ident(t, len, j))) {
				j += n;
				while ((n = member(out, t, len, j)))
					j += n;
				out->member = NULL;
				out->mlen = 0;
				if (j + 3 <= len && !memcmp(t + j, "...", 3))
					j += 3;
			}
			if (j > i + 1) {
				out->kind = QU_REF_PARAM;
				out->name = t + i + 1;
				out->nlen = j - i - 1;
				out->end = j;
				return true;
			}
		} else if (comment && c == '%' && !after_word) {
			size_t j = i + 1;

			while (j < len && (word(t[j]) || t[j] == '-'))
				j++;
			/* a trailing "-" is punctuation, not the name */
			while (j > i + 1 && t[j - 1] == '-')
				j--;
			if (j > i + 1) {
				clear(out, i);
				out->kind = QU_REF_CONST;
				out->name = t + i + 1;
				out->nlen = j - i - 1;
				out->end = j;
				return true;
			}
		} else if (comment && c == '$' && !after_word &&
			   (n = ident(t, len, i + 1))) {
			clear(out, i);
			out->kind = QU_REF_ENV;
			out->name = t + i + 1;
			out->nlen = n;
			out->end = i + 1 + n;
			return true;
		} else if (comment && c == '.' &&
			   (i == 0 || t[i - 1] == ' ' || t[i - 1] == '\n' ||
			    t[i - 1] == '(' || t[i - 1] == '\t') &&
			   (n = ident(t, len, i + 1)) &&
			   (i + 1 + n >= len ||
			    (t[i + 1 + n] != '(' && t[i + 1 + n] != '/'))) {
			clear(out, i);
			out->kind = QU_REF_MEMBER;
			out->name = t + i + 1;
			out->nlen = n;
			out->end = i + 1 + n;
			return true;
		}
		i++;
	}
	return false;
}
