// SPDX-License-Identifier: MIT
/*
 * text.c - the string operations scripts/kernel-doc does with regexes,
 * written out once (kdoc stage)
 *
 * Each function names the reference pattern it reproduces, since parity
 * with that script on the kernel tree depends on matching its leftmost,
 * greedy semantics exactly, quirks included. The attribute rewrites are
 * rows of lib/source/attrs.def; this file is their interpreter.
 */
#include <ctype.h>
#include <string.h>

#include "kdoc_int.h"

const unsigned char kdoc_ctype[256] = {
	['\t'] = KDOC_SPACE, ['\n'] = KDOC_SPACE, ['\v'] = KDOC_SPACE,
	['\f'] = KDOC_SPACE, ['\r'] = KDOC_SPACE, [' '] = KDOC_SPACE,
	['_'] = KDOC_WORD,
#define R10(c) [c] = KDOC_WORD, [c + 1] = KDOC_WORD, [c + 2] = KDOC_WORD, \
	[c + 3] = KDOC_WORD, [c + 4] = KDOC_WORD, [c + 5] = KDOC_WORD,    \
	[c + 6] = KDOC_WORD, [c + 7] = KDOC_WORD, [c + 8] = KDOC_WORD,    \
	[c + 9] = KDOC_WORD
	R10('0'), R10('a'), R10('k'), R10('A'), R10('K'),
	['u'] = KDOC_WORD, ['v'] = KDOC_WORD, ['w'] = KDOC_WORD,
	['x'] = KDOC_WORD, ['y'] = KDOC_WORD, ['z'] = KDOC_WORD,
	['U'] = KDOC_WORD, ['V'] = KDOC_WORD, ['W'] = KDOC_WORD,
	['X'] = KDOC_WORD, ['Y'] = KDOC_WORD, ['Z'] = KDOC_WORD,
#undef R10
};

void kdoc_buf_set(struct qu_buf *b, const char *s, size_t len)
{
	/* @s may point into @b itself */
	if (b->alloc && s >= b->buf && s <= b->buf + b->len) {
		memmove(b->buf, s, len);
		b->len = len;
		b->buf[len] = '\0';
		return;
	}
	qu_buf_reset(b);
	qu_buf_add(b, s, len);
}

/* s@/\*.*?\*\/@@gos */
void kdoc_strip_comments(struct qu_buf *b)
{
	char *r = b->buf, *w = b->buf, *end = b->buf + b->len;

	/*
	 * strstr() rather than memmem(): the text holds no NUL (binary files
	 * are never parsed) and ends in one, and glibc's strstr() is
	 * vectorised where its memmem() walks bytes.
	 */
	r = strstr(b->buf, "/*");
	if (!r)
		return;
	w = r;
	while (r < end) {
		if (r[0] == '/' && r + 1 < end && r[1] == '*') {
			char *close = strstr(r + 2, "*/");
			if (close) {
				r = close + 2;
				continue;
			}
		}
		*w++ = *r++;
	}
	b->len = (size_t)(w - b->buf);
	*w = '\0';
}

/* s/\s+/ /g */
void kdoc_squash_spaces(struct qu_buf *b)
{
	char *r = b->buf, *w = b->buf, *end = b->buf + b->len;

	while (r < end) {
		if (kdoc_is_space((unsigned char)*r)) {
			while (r < end && kdoc_is_space((unsigned char)*r))
				r++;
			*w++ = ' ';
			continue;
		}
		*w++ = *r++;
	}
	b->len = (size_t)(w - b->buf);
	if (b->alloc)
		*w = '\0';
}

/* s/^\s+//; s/\s+$// */
void kdoc_trim(struct qu_buf *b)
{
	size_t s = 0, e = b->len;

	while (s < e && kdoc_is_space((unsigned char)b->buf[s]))
		s++;
	while (e > s && kdoc_is_space((unsigned char)b->buf[e - 1]))
		e--;
	if (s || e != b->len)
		kdoc_buf_set(b, b->buf + s, e - s);
}

/* attrs.def ------------------------------------------------------------- */

enum attr_how { PREFIX, WORD, NUMARGS, GNU, MWORD, MPARENS, MGNU, GROUP,
		MACRO };

static const struct attr {
	enum kdoc_attr_where where;
	enum attr_how how;
	const char *name;
	int n;
	const char *repl;
} attrs[] = {
#define QU_ATTR(where, how, name, n, repl) { ATTR_##where, how, name, n, repl },
#include "source/attrs.def"
#undef QU_ATTR
};

static size_t spaces(const char *s, size_t i)
{
	while (kdoc_is_space((unsigned char)s[i]))
		i++;
	return i;
}

/* name + " +" at @i: the end of the blanks, or 0 */
static size_t word_blanks(const char *s, size_t i, const char *name)
{
	size_t n = strlen(name), j;

	if (strncmp(s + i, name, n))
		return 0;
	j = i + n;
	if (s[j] != ' ')
		return 0;
	while (s[j] == ' ')
		j++;
	return j;
}

/* __printf\s*\(\s*\d*\s*,\s*\d*\s*\) + and __alloc_size(...) alike */
static size_t numargs(const char *s, size_t i, const char *name)
{
	size_t n = strlen(name), j;

	if (strncmp(s + i, name, n))
		return 0;
	j = spaces(s, i + n);
	if (s[j] != '(')
		return 0;
	j++;
	while (isdigit((unsigned char)s[j]) || s[j] == ',' ||
	       kdoc_is_space((unsigned char)s[j]))
		j++;
	if (s[j] != ')' || s[j + 1] != ' ')
		return 0;
	j++;
	while (s[j] == ' ')
		j++;
	return j;
}

/*
 * __attribute__\s*\(\((?:[\w\s]++(?:\([^)]*+\))?\s*+,?)+\)\)\s+
 * (the prototype form: attribute words, each with one flat argument list)
 */
static size_t gnu_proto(const char *s, size_t i)
{
	size_t j, k;
	int reps = 0;

	if (strncmp(s + i, "__attribute__", 13))
		return 0;
	j = spaces(s, i + 13);
	if (s[j] != '(' || s[j + 1] != '(')
		return 0;
	j += 2;
	for (;;) {
		k = j;
		while (kdoc_is_word((unsigned char)s[k]) ||
		       kdoc_is_space((unsigned char)s[k]))
			k++;
		if (k == j)
			break;
		j = k;
		if (s[j] == '(') {
			k = j + 1;
			while (s[k] && s[k] != ')')
				k++;
			if (s[k] == ')')
				j = k + 1;
		}
		j = spaces(s, j);
		if (s[j] == ',')
			j++;
		reps++;
	}
	if (!reps || s[j] != ')' || s[j + 1] != ')')
		return 0;
	j += 2;
	if (!kdoc_is_space((unsigned char)s[j]))
		return 0;
	return spaces(s, j);
}

/* \s*__attribute__\s*\(\([a-z0-9,_\*\s\(\)]*\)\) with /i, from @i */
static size_t gnu_member(const char *s, size_t i)
{
	size_t j = spaces(s, i), k, last = 0;

	if (strncasecmp(s + j, "__attribute__", 13))
		return 0;
	j = spaces(s, j + 13);
	if (s[j] != '(' || s[j + 1] != '(')
		return 0;
	j += 2;
	/* greedy class run, then back off to its last "))" */
	for (k = j; s[k] && (isalnum((unsigned char)s[k]) ||
			     strchr(",_*()", s[k]) ||
			     kdoc_is_space((unsigned char)s[k]));
	     k++)
		if (s[k] == ')' && s[k + 1] == ')')
			last = k + 2;
	/* the "))" may straddle the run's end only if both are in it */
	if (!last)
		return 0;
	if (last > k)
		return 0;
	return last;
}

/* \s*name\s*\([^;]*\) : to the last ")" before the next ";" */
static size_t mparens(const char *s, size_t i, const char *name)
{
	size_t j = spaces(s, i), n = strlen(name), k, last = 0;

	if (strncmp(s + j, name, n))
		return 0;
	j = spaces(s, j + n);
	if (s[j] != '(')
		return 0;
	for (k = j; s[k] && s[k] != ';'; k++)
		if (s[k] == ')')
			last = k + 1;
	return last;
}

/* \s*name, and with @trail also \s* after it */
static size_t mword(const char *s, size_t i, const char *name, bool trail)
{
	size_t j = spaces(s, i), n = strlen(name);

	if (strncmp(s + j, name, n))
		return 0;
	j += n;
	return trail ? spaces(s, j) : j;
}

/* \bname\s*\(([^,]*,){n} */
static size_t group(const char *s, size_t i, const char *name, int n)
{
	size_t len = strlen(name), j;

	if (i > 0 && kdoc_is_word((unsigned char)s[i - 1]))
		return 0;
	if (strncmp(s + i, name, len))
		return 0;
	j = spaces(s, i + len);
	if (s[j] != '(')
		return 0;
	j++;
	for (int k = 0; k < n; k++) {
		while (s[j] && s[j] != ',')
			j++;
		if (s[j] != ',')
			return 0;
		j++;
	}
	return j;
}

/*
 * name\s*\(([^,)]+),\s*([^,)]+)...\) or, for @n == 0, name\s*\(([^\)]+)\):
 * the argument spans go to @args.
 */
static size_t macro(const char *s, size_t i, const char *name, int n,
		    struct qu_slice *args)
{
	size_t len = strlen(name), j;
	int want = n ? n : 1;

	if (strncmp(s + i, name, len))
		return 0;
	j = spaces(s, i + len);
	if (s[j] != '(')
		return 0;
	j++;
	for (int k = 0; k < want; k++) {
		size_t a = j;
		if (k > 0)
			a = j = spaces(s, j);
		while (s[j] && s[j] != ')' && (n == 0 || s[j] != ','))
			j++;
		if (j == a)
			return 0;
		args[k] = (struct qu_slice){ s + a, j - a };
		if (k + 1 < want) {
			if (s[j] != ',')
				return 0;
			j++;
		}
	}
	if (s[j] != ')')
		return 0;
	return j + 1;
}

/* \bSTRUCT_GROUP(\(((?:(?>[^)(]+)|(?1))*)\))[^;]*; -> the inside */
static size_t unwrap_group(const char *s, size_t i, struct qu_slice *in)
{
	size_t j, depth = 0;

	if (i > 0 && kdoc_is_word((unsigned char)s[i - 1]))
		return 0;
	if (strncmp(s + i, "STRUCT_GROUP(", 13))
		return 0;
	for (j = i + 12; s[j]; j++) {
		if (s[j] == '(')
			depth++;
		else if (s[j] == ')' && --depth == 0)
			break;
	}
	if (!s[j])
		return 0;
	*in = (struct qu_slice){ s + i + 13, j - i - 13 };
	for (j++; s[j] && s[j] != ';'; j++)
		;
	return s[j] == ';' ? j + 1 : 0;
}

static void add_template(struct qu_buf *out, const char *t,
			 const struct qu_slice *args, int nargs)
{
	for (; *t; t++) {
		if (*t == '$' && t[1] >= '1' && t[1] <= '0' + nargs) {
			const struct qu_slice *a = &args[t[1] - '1'];
			qu_buf_add(out, a->ptr, a->len);
			t++;
		} else {
			qu_buf_addc(out, *t);
		}
	}
}

/* One global substitution pass of a member row over @b. */
static void apply_global(struct qu_buf *b, const struct attr *r,
			 struct qu_buf *out)
{
	const char *s = b->buf;
	size_t i = 0, end;
	struct qu_slice args[3];

	/* strstr(): no NUL inside, and faster than memmem() (see above) */
	if (r->how != MGNU && !strstr(s, r->name))
		return;
	if (r->how == MGNU && !strcasestr(s, "__attribute__"))
		return;
	qu_buf_reset(out);
	while (i < b->len) {
		switch (r->how) {
		case MWORD:
			end = mword(s, i, r->name, r->n);
			break;
		case MPARENS:
			end = mparens(s, i, r->name);
			break;
		case MGNU:
			end = gnu_member(s, i);
			break;
		case GROUP:
			end = group(s, i, r->name, r->n);
			break;
		case MACRO:
			end = macro(s, i, r->name, r->n, args);
			break;
		default:
			end = 0;
		}
		if (!end) {
			qu_buf_addc(out, s[i++]);
			continue;
		}
		if (r->how == GROUP)
			qu_buf_adds(out, "STRUCT_GROUP(");
		else if (r->how == MACRO)
			add_template(out, r->repl, args, r->n ? r->n : 1);
		else
			qu_buf_addc(out, ' ');
		i = end;
	}
	kdoc_buf_set(b, out->buf, out->len);
}

static void apply_unwrap(struct qu_buf *b, struct qu_buf *out)
{
	const char *s = b->buf;
	size_t i = 0, end;
	struct qu_slice in;

	if (!strstr(s, "STRUCT_GROUP("))
		return;
	qu_buf_reset(out);
	while (i < b->len) {
		end = unwrap_group(s, i, &in);
		if (!end) {
			qu_buf_addc(out, s[i++]);
			continue;
		}
		qu_buf_add(out, in.ptr, in.len);
		i = end;
	}
	kdoc_buf_set(b, out->buf, out->len);
}

/* One first-occurrence removal of a prototype row. */
static void apply_first(struct qu_buf *b, const struct attr *r)
{
	const char *s = b->buf;
	size_t end = 0, i;

	if (r->how == PREFIX) {
		end = word_blanks(s, 0, r->name);
		if (end)
			kdoc_buf_set(b, s + end, b->len - end);
		return;
	}
	for (const char *hit = strstr(s, r->name); hit;
	     hit = strstr(hit + 1, r->name)) {
		i = (size_t)(hit - s);
		if (r->how == WORD)
			end = word_blanks(s, i, r->name);
		else if (r->how == NUMARGS)
			end = numargs(s, i, r->name);
		else
			end = gnu_proto(s, i);
		if (end) {
			memmove(b->buf + i, b->buf + end, b->len - end + 1);
			b->len -= end - i;
			return;
		}
	}
}

void kdoc_apply_attrs(struct qu_buf *b, int where, struct qu_buf *out)
{
	bool grouped = false;
	/* every prototype row past the PREFIX ones names a "__" word */
	bool has_dunder = strstr(b->buf, "__") != NULL;

	for (size_t k = 0; k < QU_ARRAY_SIZE(attrs); k++) {
		const struct attr *r = &attrs[k];

		if ((int)r->where != where)
			continue;
		if (where == ATTR_PROTO) {
			if (r->how == PREFIX || has_dunder)
				apply_first(b, r);
			continue;
		}
		/* the unwrap runs once, after the last GROUP row */
		if (r->how != GROUP && grouped) {
			apply_unwrap(b, out);
			grouped = false;
		}
		apply_global(b, r, out);
		if (r->how == GROUP)
			grouped = true;
	}
	if (grouped)
		apply_unwrap(b, out);
}
