// SPDX-License-Identifier: MIT
/*
 * inline.c - inline markup of reST (rst stage): emphasis, strong,
 * literals, interpreted text and roles, hyperlink references and inline
 * targets, substitution and footnote references, standalone URIs, with
 * docutils' recognition rules (what may come before a start-string and
 * after an end-string, quoted starts, backslash escapes). Called by
 * block.c and table.c on the text of each paragraph, title, term, cell.
 *
 * A backslash escapes the next character (docutils turns it into NUL
 * first); here esc() asks whether the byte at i is such a backslash.
 * Every end-string search remembers where it last found, or failed to
 * find, its end, so text full of unmatched start-strings stays linear.
 */
#include <stdlib.h>
#include <string.h>

#include "rst_int.h"

/* ASCII classes, one bit each: may precede a start-string (C_PRE), may
 * follow an end-string (C_SUF), docutils' uric, emailc and urilast
 * classes of URIs, and the joiners of a simplename. */
enum { C_PRE = 1, C_SUF = 2, C_URIC = 4, C_EMAIL = 8, C_ULAST = 16,
       C_JOIN = 32 };
static const unsigned char ctab[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3,
	3, 14, 3, 8, 12, 12, 12, 15, 5, 6, 28, 60, 6, 47, 38, 31,
	28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 39, 6, 1, 28, 2, 10,
	4, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
	28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 5, 2, 6, 8, 60,
	8, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
	28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 9, 8, 10, 28, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static bool cls(unsigned char ch, unsigned bit)
{
	return ctab[ch] & bit;
}

/* More ASCII classes: a simplename's word characters (B_WORD), and the
 * bytes at which inline markup other than "name_" may start (B_START). */
enum { B_WORD = 1, B_START = 2 };
static const unsigned char btab[256] = {
	['0' ... '9'] = B_WORD, ['A' ... 'Z'] = B_WORD,
	['a' ... 'z'] = B_WORD, ['_'] = B_WORD | B_START,
	['*'] = B_START,	['`'] = B_START,
	['|'] = B_START,	[':'] = B_START,
	['['] = B_START,
};

/* Decode the code point at @s[i]; *@n gets its length in bytes. */
static uint32_t decode(const char *s, size_t len, size_t i, size_t *n)
{
	unsigned char ch = (unsigned char)s[i];

	*n = 1;
	if (ch < 0x80)
		return ch;
	if (ch >= 0xf0 && i + 3 < len) {
		*n = 4;
		return (ch & 7u) << 18 | (s[i + 1] & 0x3fu) << 12 |
		       (s[i + 2] & 0x3fu) << 6 | (s[i + 3] & 0x3fu);
	}
	if (ch >= 0xe0 && i + 2 < len) {
		*n = 3;
		return (ch & 15u) << 12 | (s[i + 1] & 0x3fu) << 6 |
		       (s[i + 2] & 0x3fu);
	}
	if (ch >= 0xc0 && i + 1 < len) {
		*n = 2;
		return (ch & 31u) << 6 | (s[i + 1] & 0x3fu);
	}
	return 0xfffd;
}

/* The code point that ends just before @i. */
static uint32_t decode_before(const char *s, size_t len, size_t i)
{
	size_t k = i - 1, n;

	while (k > 0 && i - k < 4 && ((unsigned char)s[k] & 0xc0) == 0x80)
		k--;
	return decode(s, len, k, &n);
}

static bool is_space_cp(uint32_t cp)
{
	return cp == ' ' || cp == '\n' || cp == '\t' || cp == '\r' ||
	       cp == '\v' || cp == '\f' || cp == 0xa0 || cp == 0x1680 ||
	       (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 ||
	       cp == 0x2029 || cp == 0x202f || cp == 0x205f || cp == 0x3000 ||
	       (cp >= 0x1c && cp <= 0x1f) || cp == 0x85;
}

/* Unicode punctuation docutils accepts around inline markup (the Pd, Po,
 * Ps, Pe, Pi, Pf classes), for the blocks real documents use. */
static bool is_upunct(uint32_t cp)
{
	return (cp >= 0xa1 && cp <= 0xbf && cp != 0xa2 && cp != 0xa3 &&
		cp != 0xa4 && cp != 0xa5 && cp != 0xa6 && cp != 0xa8 &&
		cp != 0xa9 && cp != 0xaa && cp != 0xac && cp != 0xad &&
		cp != 0xae && cp != 0xaf && cp != 0xb0 && cp != 0xb1 &&
		cp != 0xb2 && cp != 0xb3 && cp != 0xb4 && cp != 0xb5 &&
		cp != 0xb8 && cp != 0xb9 && cp != 0xba && cp != 0xbc &&
		cp != 0xbd && cp != 0xbe) ||
	       (cp >= 0x2010 && cp <= 0x2027) || (cp >= 0x2030 && cp <= 0x205e) ||
	       (cp >= 0x3001 && cp <= 0x3003) || (cp >= 0x3008 && cp <= 0x3011) ||
	       (cp >= 0x3014 && cp <= 0x301f) || (cp >= 0xff01 && cp <= 0xff0f &&
						  cp != 0xff04 && cp != 0xff0b) ||
	       (cp >= 0xff1a && cp <= 0xff20) || (cp >= 0xff3b && cp <= 0xff3d) ||
	       cp == 0xff3f || cp == 0xff5b || cp == 0xff5d ||
	       (cp >= 0xff5f && cp <= 0xff65);
}

bool rst_is_simplename_char(const char *s, size_t len, size_t i, size_t *clen)
{
	uint32_t cp = decode(s, len, i, clen);

	if (cp < 0x80)
		return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
		       (cp >= '0' && cp <= '9') || cp == '_';
	return !is_space_cp(cp) && !is_upunct(cp) && cp != 0xfffd &&
	       !(cp >= 0x2100 && cp < 0x2c00);
}

/* rst_is_simplename_char(), ASCII answered here: the common case. */
static bool name_char(const char *s, size_t len, size_t i, size_t *clen)
{
	unsigned char ch = (unsigned char)s[i];

	if (ch < 0x80) {
		*clen = 1;
		return btab[ch] & B_WORD;
	}
	return rst_is_simplename_char(s, len, i, clen);
}

struct il {
	struct rst_ctx *c;
	struct qu_rst_node *parent;
	const char *s;
	size_t n;
	uint32_t off;
	/* per end-string kind: searched from, found at (or n + 1: none) */
	size_t from[8], at[8];
	/* standalone reference runs: [rs, re) has no "_" end that works */
	size_t run_end;
	bool run_none;
	size_t scheme_end, email_end;
	/* escb[i]: the byte at i is a backslash escaping the next one;
	 * NULL when the text holds no backslash */
	unsigned char *escb;
};

/* The byte at @i is a backslash that escapes the next one (or ends the
 * text). Precomputed: a run of backslashes pairs up from its left. */
static bool esc(const struct il *x, size_t i)
{
	return x->escb && i < x->n && x->escb[i];
}

/* Unicode opening (Ps) and closing (Pe) punctuation: a start-string may
 * not follow a closer, an end-string may not precede an opener. */
static bool is_uopen(uint32_t cp)
{
	if ((cp >= 0x3008 && cp <= 0x301b) || (cp >= 0xff08 && cp <= 0xff09))
		return !(cp & 1);
	return cp == 0x201a || cp == 0x201e || cp == 0x2045 || cp == 0x207d ||
	       cp == 0x208d || cp == 0x301d || cp == 0xff3b || cp == 0xff5b ||
	       cp == 0xff5f || cp == 0xff62 || cp == 0x2329 || cp == 0x2768 ||
	       cp == 0x276a || cp == 0x276c || cp == 0x276e || cp == 0x2770 ||
	       cp == 0x2772 || cp == 0x2774;
}

static bool is_uclose(uint32_t cp)
{
	if ((cp >= 0x3008 && cp <= 0x301b) || (cp >= 0xff08 && cp <= 0xff09))
		return cp & 1;
	return cp == 0x2046 || cp == 0x207e || cp == 0x208e || cp == 0x301e ||
	       cp == 0x301f || cp == 0xff3d || cp == 0xff5d || cp == 0xff60 ||
	       cp == 0xff63 || cp == 0x232a || cp == 0x2769 || cp == 0x276b ||
	       cp == 0x276d || cp == 0x276f || cp == 0x2771 || cp == 0x2773 ||
	       cp == 0x2775;
}

/* Before a start-string: the start, white space, an opener or a
 * delimiter. @seg is where the text being searched begins. */
static inline bool prefix_ok(const struct il *x, size_t p, size_t seg)
{
	unsigned char prev;
	uint32_t cp;

	if (p == seg)
		return true;
	/* an escaping backslash is no C_PRE byte either */
	prev = (unsigned char)x->s[p - 1];
	if (prev < 0x80)
		return cls(prev, C_PRE);
	cp = decode_before(x->s, x->n, p);
	if (cp < 0x80)
		return cls((unsigned char)cp, C_PRE);
	return is_space_cp(cp) || (is_upunct(cp) && !is_uclose(cp));
}

/* After an end-string: the end, white space, an escape, or punctuation. */
static bool suffix_ok(const struct il *x, size_t q)
{
	size_t n;
	uint32_t cp;

	if (q >= x->n)
		return true;
	cp = decode(x->s, x->n, q, &n);
	if (cp < 0x80)
		return cls((unsigned char)cp, C_SUF);
	return is_space_cp(cp) || (is_upunct(cp) && !is_uopen(cp));
}

static bool space_at(const struct il *x, size_t i)
{
	size_t n;

	return i < x->n && is_space_cp(decode(x->s, x->n, i, &n));
}

static bool space_before(const struct il *x, size_t i)
{
	return i > 0 && is_space_cp(decode_before(x->s, x->n, i));
}

/* quoted_start(): the start-string sits between an opener and its closer. */
static bool quoted(const struct il *x, size_t start, size_t end)
{
	static const char open[] = "\"'(<[{", close[] = "\"')>]}";
	const char *o;

	if (start == 0)
		return false;
	if (end >= x->n)
		return true;
	o = memchr(open, x->s[start - 1], 6);
	if (o && x->s[end] == close[o - open])
		return true;
	/* the Unicode quotes and brackets, paired as docutils pairs them */
	{
		uint32_t a = decode_before(x->s, x->n, start);
		size_t k;
		uint32_t b = decode(x->s, x->n, end, &k);
		static const uint32_t pairs[][2] = {
			{ 0x2018, 0x2019 }, { 0x201c, 0x201d }, { 0xab, 0xbb },
			{ 0xbb, 0xab }, { 0x2039, 0x203a }, { 0x201a, 0x2019 },
			{ 0x201e, 0x201d }, { 0x2019, 0x2019 }, { 0x201d, 0x201d },
		};

		for (size_t i = 0; i < QU_ARRAY_SIZE(pairs); i++)
			if (a == pairs[i][0] && b == pairs[i][1])
				return true;
	}
	return false;
}

enum endk { E_EMPH, E_STRONG, E_LIT, E_TARGET, E_SUBST, E_INTERP };

/* Does an end-string of kind @k end at @q (its first byte)? On success
 * *@e is past the end-string and its suffix (role, "_"). */
static bool end_at(const struct il *x, enum endk k, size_t q, size_t *e,
		   size_t *suffix_start)
{
	const char *s = x->s;
	size_t n = x->n;

	switch (k) {
	case E_EMPH:
		if (s[q] != '*' || space_before(x, q) || (q && esc(x, q - 1)))
			return false;
		*e = q + 1;
		return suffix_ok(x, q + 1);
	case E_STRONG:
		if (q + 1 >= n || s[q] != '*' || s[q + 1] != '*' ||
		    space_before(x, q) || (q && esc(x, q - 1)))
			return false;
		*e = q + 2;
		return suffix_ok(x, q + 2);
	case E_LIT:
		if (q + 1 >= n || s[q] != '`' || s[q + 1] != '`' || space_before(x, q))
			return false;
		*e = q + 2;
		return suffix_ok(x, q + 2);
	case E_TARGET:
		if (s[q] != '`' || space_before(x, q) || (q && esc(x, q - 1)))
			return false;
		*e = q + 1;
		return suffix_ok(x, q + 1);
	case E_SUBST:
		if (s[q] != '|' || space_before(x, q) || (q && esc(x, q - 1)))
			return false;
		for (int u = 2; u >= 0; u--) {
			bool ok = true;

			for (int j = 1; j <= u; j++)
				if (q + j >= n || s[q + j] != '_')
					ok = false;
			if (ok && suffix_ok(x, q + 1 + u)) {
				*e = q + 1 + u;
				return true;
			}
		}
		return false;
	case E_INTERP:
		if (s[q] != '`')
			return false;
		/* not after unescaped white space, nor escaped itself */
		if (q && esc(x, q - 1))
			return false;
		if (space_before(x, q) && !(q >= 2 && esc(x, q - 2)))
			return false;
		{
			size_t r = q + 1, cands[6];
			int nc = 0;

			/* optional ":role:", then optional "__" or "_" */
			if (r < n && s[r] == ':') {
				size_t t = r + 1, cl;

				while (t < n && s[t] != '_' &&
				       name_char(s, n, t, &cl))
					t += cl;
				while (t + 1 < n &&
				       cls((unsigned char)s[t], C_JOIN) &&
				       s[t + 1] != '_' &&
				       name_char(s, n, t + 1, &cl) &&
				       t > r + 1) {
					if (s[t] == ':' && t + 1 < n && s[t + 1] == '`')
						break;
					t++;
					while (t < n && s[t] != '_' &&
					       name_char(s, n, t, &cl))
						t += cl;
				}
				if (t > r + 1 && t < n && s[t] == ':') {
					size_t rr = t + 1;

					if (rr + 1 < n && s[rr] == '_' && s[rr + 1] == '_')
						cands[nc++] = rr + 2;
					if (rr < n && s[rr] == '_')
						cands[nc++] = rr + 1;
					cands[nc++] = rr;
				}
			}
			if (r + 1 < n && s[r] == '_' && s[r + 1] == '_')
				cands[nc++] = r + 2;
			if (r < n && s[r] == '_')
				cands[nc++] = r + 1;
			cands[nc++] = r;
			for (int i = 0; i < nc; i++)
				if (suffix_ok(x, cands[i])) {
					*e = cands[i];
					*suffix_start = r;
					return true;
				}
		}
		return false;
	}
	return false;
}

/* The first end-string of kind @k at or after @from; n + 1 for none. */
static size_t find_end(struct il *x, enum endk k, size_t from, size_t *e,
		       size_t *sfx)
{
	size_t q;

	if (x->at[k] != (size_t)-1 && from >= x->from[k] && from <= x->at[k]) {
		if (x->at[k] > x->n)
			return x->n + 1;
		q = x->at[k];
		end_at(x, k, q, e, sfx);
		return q;
	}
	for (q = from; q < x->n; q++) {
		if (x->s[q] != "**``||``"[k] && !(k == E_INTERP && x->s[q] == '`'))
			continue;
		if (end_at(x, k, q, e, sfx))
			break;
	}
	x->from[k] = from;
	x->at[k] = q < x->n ? q : x->n + 1;
	return x->at[k];
}

size_t rst_unescape(char *dst, const char *s, size_t len)
{
	const char *bs = memchr(s, '\\', len);
	size_t o = bs ? (size_t)(bs - s) : len;

	/* up to the first backslash, a copy */
	memcpy(dst, s, o);
	for (size_t i = o; i < len; i++) {
		if (s[i] == '\\') {
			/* a backslash at the very end escapes nothing and goes */
			if (++i == len)
				break;
			if (s[i] == ' ' || s[i] == '\n')
				continue;
		}
		dst[o++] = s[i];
	}
	return o;
}

/* Text of [a, b) with escapes removed, as a text node. */
static void add_text(struct il *x, struct qu_rst_node *parent, size_t a,
		     size_t b)
{
	char *t;
	size_t len;

	if (a >= b)
		return;
	if (!x->escb) {
		rst_text(x->c, parent, x->s + a, b - a, x->off + (uint32_t)a);
		return;
	}
	t = qu_arena_alloc(x->c->a, b - a + 1);
	len = rst_unescape(t, x->s + a, b - a);
	rst_text(x->c, parent, t, len, x->off + (uint32_t)a);
}

static char *unesc(struct il *x, size_t a, size_t b, size_t *len)
{
	char *t = qu_arena_alloc(x->c->a, b - a + 1);

	*len = rst_unescape(t, x->s + a, b - a);
	t[*len] = '\0';
	return t;
}

/* Text of [a, b) with backslashes kept (literals). */
static void add_raw(struct il *x, struct qu_rst_node *parent, size_t a,
		    size_t b)
{
	rst_text(x->c, parent, x->s + a, b - a, x->off + (uint32_t)a);
}

static struct qu_rst_node *add(struct il *x, enum qu_rst_kind kind, size_t at)
{
	return rst_child(x->c, x->parent, kind, x->off + (uint32_t)at);
}

/* docutils' urischemes.schemes: a URI of another scheme is plain text. */
static const char *const known_schemes[] = {
	"about", "acap", "addbook", "afp", "afs", "aim", "callto", "castanet",
	"chttp", "cid", "crid", "data", "dav", "dict", "dns", "eid", "fax", "feed",
	"file", "finger", "freenet", "ftp", "go", "gopher", "gsm-sms", "h323",
	"h324", "hdl", "hnews", "http", "https", "hydra", "iioploc", "ilu", "im",
	"imap", "info", "ior", "ipp", "irc", "iris.beep", "iseek", "jar",
	"javascript", "jdbc", "ldap", "lifn", "livescript", "lrq", "mailbox",
	"mailserver", "mailto", "md5", "mid", "mocha", "modem", "mtqp", "mupdate",
	"news", "nfs", "nntp", "opaquelocktoken", "phone", "pop", "pop3", "pres",
	"printer", "prospero", "rdar", "res", "rtsp", "rvp", "rwhois", "rx", "sdp",
	"service", "shttp", "sip", "sips", "smb", "snews", "snmp", "soap.beep",
	"soap.beeps", "ssh", "t120", "tag", "tcp", "tel", "telephone", "telnet",
	"tftp", "tip", "tn3270", "tv", "urn", "uuid", "vemmi", "videotex",
	"view-source", "wais", "whodp", "whois++", "x-man-page", "xmlrpc.beep",
	"xmlrpc.beeps", "z39.50r", "z39.50s",
};

static bool known_scheme(const char *s, size_t len)
{
	for (size_t i = 0; i < QU_ARRAY_SIZE(known_schemes); i++)
		if (strlen(known_schemes[i]) == len &&
		    !strncasecmp(known_schemes[i], s, len))
			return true;
	return false;
}

static bool uric(const struct il *x, size_t i)
{
	unsigned char ch = (unsigned char)x->s[i];

	return cls(ch, C_URIC) || (ch == '\\' && esc(x, i));
}

static bool urilast(unsigned char ch)
{
	return cls(ch, C_ULAST);
}

static inline bool emailc(const struct il *x, size_t i)
{
	unsigned char ch = (unsigned char)x->s[i];

	return cls(ch, C_EMAIL) || (ch == '\\' && esc(x, i));
}

/* The ends at which "uric* uri_end" starting at @i may stop, longest
 * first: *@cands gets up to @max of them. */
static int uri_ends(const struct il *x, size_t i, size_t *cands, int max)
{
	size_t r = i;
	int n = 0;

	while (r < x->n && uric(x, r))
		r++;
	for (size_t q = r; q > i && n < max; q--) {
		unsigned char last = (unsigned char)x->s[q - 1];

		if (urilast(last) || (q < x->n && x->s[q] == '>'))
			cands[n++] = q;
	}
	return n;
}

/* After the hierarchical part of a URI ends at @e: an optional fragment
 * "#...", then the end-string suffix. Returns the end, or 0. */
static size_t uri_fragment(const struct il *x, size_t e)
{
	size_t f[64];

	if (e < x->n && x->s[e] == '#') {
		int nf = uri_ends(x, e + 1, f, 64);

		for (int k = 0; k < nf; k++)
			if (suffix_ok(x, f[k]))
				return f[k];
	}
	return suffix_ok(x, e) ? e : 0;
}

/* An optional query "?...", then uri_fragment(). */
static size_t uri_tail(const struct il *x, size_t e)
{
	size_t qe[64];

	if (e < x->n && x->s[e] == '?') {
		int nq = uri_ends(x, e + 1, qe, 64);

		for (int k = 0; k < nq; k++) {
			size_t r = uri_fragment(x, qe[k]);

			if (r)
				return r;
		}
	}
	return uri_fragment(x, e);
}

/* A standalone URI or e-mail address starting at @p: its end, or 0.
 * *@mismatch is set when it has a scheme docutils does not know. */
static size_t standalone(struct il *x, size_t p, bool *email, bool *mismatch)
{
	const char *s = x->s;
	size_t n = x->n, q = p;

	*email = *mismatch = false;
	if (p < n && ((s[p] >= 'a' && s[p] <= 'z') || (s[p] >= 'A' && s[p] <= 'Z'))) {
		if (x->scheme_end > p) {
			q = x->scheme_end;
		} else {
			q = p + 1;
			while (q < n && ((s[q] >= 'a' && s[q] <= 'z') ||
					 (s[q] >= 'A' && s[q] <= 'Z') ||
					 (s[q] >= '0' && s[q] <= '9') ||
					 s[q] == '.' || s[q] == '+' || s[q] == '-'))
				q++;
			x->scheme_end = q;
		}
		if (q < n && s[q] == ':') {
			size_t h[64];
			int nh = uri_ends(x, q + 1, h, 64);

			/* the regexp backtracks from the longest match */
			for (int k = 0; k < nh; k++) {
				size_t e = uri_tail(x, h[k]);

				if (!e)
					continue;
				if (!known_scheme(s + p, q - p))
					*mismatch = true;
				return e;
			}
		}
	}
	/* e-mail: emailc+(.emailc*)*@emailc+(.emailc*)* uri_end */
	if (p < n && emailc(x, p) && x->email_end <= p) {
		size_t at;

		q = p;
		while (q < n && (emailc(x, q) || s[q] == '.'))
			q++;
		x->email_end = q;
		if (q < n && s[q] == '@' && q > p && !(q && esc(x, q - 1)) && s[p] != '.') {
			size_t r;

			at = q;
			r = at + 1;
			if (r < n && emailc(x, r)) {
				while (r < n && (emailc(x, r) || s[r] == '.'))
					r++;
				/* emailc+ then uri_end: two characters at least */
				for (size_t e = r; e > at + 2; e--) {
					unsigned char last = (unsigned char)s[e - 1];

					if ((urilast(last) || (e < n && s[e] == '>')) &&
					    suffix_ok(x, e)) {
						*email = true;
						x->email_end = 0;
						return e;
					}
				}
			}
		}
	}
	return 0;
}

/* implicit_inline(): standalone URIs and e-mail addresses in plain text;
 * the first URI with an unknown scheme makes the whole text plain, as in
 * docutils. */
static void implicit(struct il *x, size_t a, size_t b)
{
	size_t saved_n = x->n;
	const char *colon, *at;
	size_t p, last;

	if (a >= b)
		return;
	/*
	 * Every URI has a colon after its start, every address an at sign:
	 * none starts at or after the last of them.
	 */
	colon = memrchr(x->s + a, ':', b - a);
	at = memrchr(x->s + a, '@', b - a);
	if (!colon && !at) {
		add_text(x, x->parent, a, b);
		return;
	}
	last = (size_t)((colon > at ? colon : at) - x->s);
	x->n = b;
	x->scheme_end = x->email_end = 0;
	for (p = a; p < last; p++) {
		bool email, mismatch;
		size_t e;

		if (!prefix_ok(x, p, a))
			continue;
		e = standalone(x, p, &email, &mismatch);
		if (!e)
			continue;
		if (mismatch)
			break;
		add_text(x, x->parent, a, p);
		{
			struct qu_rst_node *r = add(x, QU_RST_REFERENCE, p);
			struct qu_buf uri = QU_BUF_INIT;
			size_t ul;
			char *u = unesc(x, p, e, &ul);

			if (email)
				qu_buf_adds(&uri, "mailto:");
			qu_buf_add(&uri, u, ul);
			rst_setn(x->c, r, "refuri", uri.buf, uri.len);
			add_text(x, r, p, e);
			qu_buf_fini(&uri);
		}
		x->n = saved_n;
		implicit(x, e, b);
		return;
	}
	x->n = saved_n;
	add_text(x, x->parent, a, b);
}

static void problem(struct il *x, size_t a, size_t b, const char *what)
{
	struct qu_rst_node *pr = add(x, QU_RST_PROBLEMATIC, a);

	add_text(x, pr, a, b);
	rst_warn(x->c, QU_W_RST_INLINE, x->off + (uint32_t)a,
		 "inline %s start-string without end-string, kept as text", what);
}

static char *norm(struct il *x, const char *s, size_t len, bool lower)
{
	return rst_normalize(x->c, s, len, lower);
}

/* phrase_ref(): `text`_, `text <uri>`_, `text <name_>`_ and their
 * anonymous "__" forms; [@a, @b) is the text between the backquotes. */
static void phrase_ref(struct il *x, size_t at, size_t a, size_t b, bool anon)
{
	const char *s = x->s;
	size_t lt = (size_t)-1, tlen, ulen;
	char *text, *alias = NULL;
	bool is_name = false;
	struct qu_rst_node *ref, *tgt = NULL;

	/* the embedded <link>: "<" at the start or after white space, up to
	 * the closing ">" at the end, no unescaped angle brackets inside */
	if (b > a + 2 && s[b - 1] == '>' && !esc(x, b - 2) && s[b - 2] != ' ' &&
	    s[b - 2] != '\n') {
		for (size_t k = b - 2; k > a; k--) {
			if ((s[k] == '<' || s[k] == '>') && !esc(x, k - 1))  {
				if (s[k] == '<' && (k == a || s[k - 1] == ' ' || s[k - 1] == '\n') &&
				    s[k + 1] != ' ' && s[k + 1] != '\n')
					lt = k;
				break;
			}
		}
		if (s[a] == '<' && lt == (size_t)-1) {
			bool clean = true;

			for (size_t k = a + 1; k < b - 1; k++)
				if ((s[k] == '<' || s[k] == '>') && !esc(x, k - 1))
					clean = false;
			if (clean && s[a + 1] != ' ' && s[a + 1] != '\n')
				lt = a;
		}
	}
	if (lt != (size_t)-1) {
		size_t te = lt, al0 = lt + 1, al1 = b - 1;
		bool escaped_us = al1 >= 2 && s[al1 - 1] == '_' && esc(x, al1 - 2);

		while (te > a && (s[te - 1] == ' ' || s[te - 1] == '\n'))
			te--;
		if (s[al1 - 1] == '_' && !escaped_us) {
			bool email, mm;
			size_t saved = x->n, e;

			x->n = al1;
			x->scheme_end = x->email_end = 0;
			e = standalone(x, al0, &email, &mm);
			x->n = saved;
			is_name = !(e == al1);
		}
		if (is_name) {
			char *u = unesc(x, al0, al1 - 1, &ulen);

			alias = norm(x, u, ulen, true);
		} else {
			/* white space removed, escaped spaces kept */
			struct qu_buf ub = QU_BUF_INIT;

			for (size_t k = al0; k < al1; k++) {
				if (s[k] == '\\' && esc(x, k)) {
					k++;
					if (s[k] == ' ' || s[k] == '\n')
						qu_buf_addc(&ub, ' ');
					else
						qu_buf_addc(&ub, s[k]);
					continue;
				}
				if (s[k] != ' ' && s[k] != '\n')
					qu_buf_addc(&ub, s[k]);
			}
			if (memchr(ub.buf, '@', ub.len) && !memchr(ub.buf, ':', ub.len)) {
				struct qu_buf m = QU_BUF_INIT;

				qu_buf_addf(&m, "mailto:%s", ub.buf);
				alias = qu_arena_strdup(x->c->a, m.buf);
				qu_buf_fini(&m);
			} else {
				alias = qu_arena_strdup(x->c->a, ub.buf);
			}
			qu_buf_fini(&ub);
		}
		if (te > a) {
			text = unesc(x, a, te, &tlen);
		} else {
			text = unesc(x, al0, al1, &tlen);
			if (!is_name)
				text = alias, tlen = strlen(alias);
		}
	} else {
		text = unesc(x, a, b, &tlen);
	}
	ref = add(x, QU_RST_REFERENCE, at);
	rst_set(x->c, ref, "name", norm(x, text, tlen, false));
	rst_text(x->c, ref, text, tlen, x->off + (uint32_t)a);
	if (anon) {
		if (alias && is_name)
			rst_set(x->c, ref, "refname", alias);
		else if (alias)
			rst_set(x->c, ref, "refuri", alias);
		else
			rst_set(x->c, ref, "anonymous", "1");
		return;
	}
	if (alias) {
		char *refname = norm(x, text, tlen, true);

		tgt = add(x, QU_RST_TARGET, lt);
		rst_add_list(x->c, tgt, "names", refname, strlen(refname));
		if (is_name) {
			rst_set(x->c, ref, "refname", alias);
			rst_set(x->c, tgt, "refname", alias);
		} else {
			rst_set(x->c, ref, "refuri", alias);
			rst_set(x->c, tgt, "refuri", alias);
			rst_note_target(x->c, tgt, refname, true);
		}
		return;
	}
	rst_set(x->c, ref, "refname", norm(x, text, tlen, true));
}

static const struct {
	const char *name;
	enum qu_rst_kind kind;
} native_roles[] = {
	{ "emphasis", QU_RST_EMPHASIS },
	{ "strong", QU_RST_STRONG },
	{ "literal", QU_RST_LITERAL },
	{ "sub", QU_RST_SUBSCRIPT },
	{ "subscript", QU_RST_SUBSCRIPT },
	{ "sup", QU_RST_SUPERSCRIPT },
	{ "superscript", QU_RST_SUPERSCRIPT },
	{ "title-reference", QU_RST_TITLE_REFERENCE },
	{ "title", QU_RST_TITLE_REFERENCE },
	{ "t", QU_RST_TITLE_REFERENCE },
};

/* interpreted(): `text` with a role before or after, or the default. */
static void interpreted(struct il *x, size_t at, const char *role,
			size_t rlen, size_t a, size_t b)
{
	enum qu_rst_kind kind = QU_RST_TITLE_REFERENCE;
	struct qu_rst_node *n;

	if (role) {
		kind = QU_RST_ROLE;
		for (size_t i = 0; i < QU_ARRAY_SIZE(native_roles); i++)
			if (strlen(native_roles[i].name) == rlen &&
			    !strncasecmp(native_roles[i].name, role, rlen))
				kind = native_roles[i].kind;
	}
	n = add(x, kind, at);
	if (kind == QU_RST_ROLE)
		rst_setn(x->c, n, "name", role, rlen);
	add_text(x, n, a, b);
}

/* The simplename at @p followed by "_" or "__" and a valid suffix: a
 * standalone reference. Returns its end (past the underscores) or 0. */
static size_t standalone_ref(struct il *x, size_t p, size_t *name_end)
{
	const char *s = x->s;
	size_t n = x->n, r = p, cl, limit;
	bool joiner = true, has_us;

	if (p < x->run_end && x->run_none)
		return 0;
	if (!name_char(s, n, p, &cl) || s[p] == '_')
		return 0;
	/* the run of word characters and joiners; a valid name stops
	 * before two joiners in a row */
	limit = (size_t)-1;
	while (r < n) {
		if (s[r] != '_' && name_char(s, n, r, &cl)) {
			joiner = false;
			r += cl;
		} else if (cls((unsigned char)s[r], C_JOIN)) {
			if (joiner && limit == (size_t)-1)
				limit = r - 1;
			joiner = true;
			r++;
		} else {
			break;
		}
	}
	if (limit == (size_t)-1)
		limit = r;
	/* the "_" is inside the run: s[r] is none, a joiner would have
	 * taken it */
	has_us = r > p + 1 && memchr(s + p + 1, '_', r - p - 1);
	for (size_t q = has_us ? r : p; q > p; q--) {
		if (q - 1 >= limit || s[q - 1] == '_' ||
		    !name_char(s, n, q - 1, &cl))
			continue;
		if (q >= n || s[q] != '_' || (q && esc(x, q - 1)))
			continue;
		if (q + 1 < n && s[q + 1] == '_' && suffix_ok(x, q + 2)) {
			*name_end = q;
			return q + 2;
		}
		if (suffix_ok(x, q + 1)) {
			*name_end = q;
			return q + 1;
		}
	}
	x->run_end = r;
	x->run_none = true;
	return 0;
}

/* A footnote or citation reference "[label]_" at @p: its end or 0. */
static size_t footnote_ref(struct il *x, size_t p, size_t *l0, size_t *l1,
			   bool *citation)
{
	const char *s = x->s;
	size_t n = x->n, q = p + 1, cl;

	*citation = false;
	*l0 = q;
	if (q < n && s[q] == '*') {
		q++;
	} else if (q < n && s[q] == '#') {
		q++;
		while (q < n && s[q] != ']' && s[q] != '_' &&
		       name_char(s, n, q, &cl))
			q += cl;
		while (q + 1 < n && cls((unsigned char)s[q], C_JOIN) &&
		       name_char(s, n, q + 1, &cl) && s[q + 1] != '_') {
			q++;
			while (q < n && s[q] != '_' && name_char(s, n, q, &cl))
				q += cl;
		}
	} else if (q < n && s[q] >= '0' && s[q] <= '9') {
		while (q < n && s[q] >= '0' && s[q] <= '9')
			q++;
	}
	if (!(q < n && s[q] == ']')) {
		/* a citation label is any simplename */
		q = p + 1;
		while (q < n && s[q] != '_' && name_char(s, n, q, &cl))
			q += cl;
		if (q == p + 1)
			return 0;
		while (q + 1 < n && cls((unsigned char)s[q], C_JOIN) &&
		       s[q + 1] != '_' && name_char(s, n, q + 1, &cl)) {
			q++;
			while (q < n && s[q] != '_' && name_char(s, n, q, &cl))
				q += cl;
		}
		*citation = true;
	}
	if (q == p + 1 || q + 1 >= n || s[q] != ']' || s[q + 1] != '_' ||
	    !suffix_ok(x, q + 2))
		return 0;
	*l1 = q;
	return q + 2;
}

void rst_inline(struct rst_ctx *c, struct qu_rst_node *parent, const char *s,
		size_t len, uint32_t off)
{
	struct il x = { .c = c, .parent = parent, .s = s, .n = len, .off = off };
	size_t seg = 0, text_from = 0, p, last_us;

	for (int k = 0; k < 8; k++)
		x.at[k] = (size_t)-1;
	if (memchr(s, '\\', len)) {
		x.escb = qu_xcalloc(len + 1, 1);
		for (size_t i = 0; i < len; i++)
			if (s[i] == '\\')
				x.escb[i++] = 1;
	}
	/* a standalone reference ends in "_": none after the last one */
	{
		const char *u = memrchr(s, '_', len);

		last_us = u ? (size_t)(u - s) : 0;
	}
	for (p = 0; p < len; p++) {
		unsigned char ch;
		size_t e = 0, q, sfx = 0, ne = 0, l0, l1;
		bool cit;

		/*
		 * Past the special bytes only name_ can start, and not
		 * where standalone_ref() already found that the run of
		 * word characters holds none: such bytes are passed over
		 * here, the run's up to its end.
		 */
		for (;;) {
			size_t stop;

			if (p >= last_us)
				stop = len;
			else if (p < x.run_end && x.run_none)
				stop = x.run_end;
			else
				break;
			while (p < stop &&
			       !(btab[(unsigned char)s[p]] & B_START))
				p++;
			if (p < stop || p == len)
				break;
		}
		if (p == len)
			break;
		ch = (unsigned char)s[p];
		if (!prefix_ok(&x, p, seg))
			continue;
		/* start-strings: ** * `` _` | */
		if (ch == '*' || ch == '`' || ch == '|' ||
		    (ch == '_' && p + 1 < len && s[p + 1] == '`')) {
			enum endk k;
			size_t slen = 1;
			const char *what;

			if (ch == '*' && p + 1 < len && s[p + 1] == '*') {
				k = E_STRONG, slen = 2, what = "strong";
			} else if (ch == '*') {
				k = E_EMPH, what = "emphasis";
			} else if (ch == '`' && p + 1 < len && s[p + 1] == '`') {
				k = E_LIT, slen = 2, what = "literal";
			} else if (ch == '_') {
				k = E_TARGET, slen = 2, what = "target";
			} else if (ch == '|') {
				if (p + 1 < len && s[p + 1] == '|')
					continue;
				k = E_SUBST, what = "substitution_reference";
			} else {
				k = E_INTERP, what = "interpreted text or phrase reference";
			}
			/* a start-string is followed by non-white space */
			if (space_at(&x, p + slen))
				continue;
			if (quoted(&x, p, p + slen)) {
				seg = p + slen;
				p = seg - 1;
				continue;
			}
			q = find_end(&x, k, p + slen, &e, &sfx);
			if (q > len || q == p + slen) {
				implicit(&x, text_from, p);
				problem(&x, p, p + slen, what);
				seg = text_from = p + slen;
				p = seg - 1;
				continue;
			}
			implicit(&x, text_from, p);
			switch (k) {
			case E_STRONG:
				add_text(&x, add(&x, QU_RST_STRONG, p), p + 2, q);
				break;
			case E_EMPH:
				add_text(&x, add(&x, QU_RST_EMPHASIS, p), p + 1, q);
				break;
			case E_LIT:
				add_raw(&x, add(&x, QU_RST_LITERAL, p), p + 2, q);
				break;
			case E_TARGET: {
				struct qu_rst_node *t = add(&x, QU_RST_TARGET, p);
				size_t tl;
				char *tt = unesc(&x, p + 2, q, &tl);
				char *nm = norm(&x, tt, tl, true);

				rst_text(c, t, tt, tl, off + (uint32_t)p + 2);
				rst_add_list(c, t, "names", nm, strlen(nm));
				rst_note_target(c, t, nm, true);
				break;
			}
			case E_SUBST: {
				size_t tl;
				char *tt = unesc(&x, p + 1, q, &tl);
				struct qu_rst_node *sr, *holder = parent;
				size_t us = e - q - 1;

				if (us) {
					holder = add(&x, QU_RST_REFERENCE, p);
					if (us == 2)
						rst_set(c, holder, "anonymous", "1");
					else
						rst_set(c, holder, "refname",
							norm(&x, tt, tl, true));
				}
				sr = rst_child(c, holder, QU_RST_SUBSTITUTION_REFERENCE,
					       off + (uint32_t)p);
				rst_set(c, sr, "refname", norm(&x, tt, tl, false));
				rst_text(c, sr, tt, tl, off + (uint32_t)p + 1);
				break;
			}
			case E_INTERP: {
				/* [sfx, e) is the suffix: ":role:" and/or "_" */
				const char *role = NULL;
				size_t rlen = 0, us = 0, r = sfx;

				if (r < e && s[r] == ':') {
					size_t t = e - 1;

					while (s[t] != ':')
						t--;
					role = s + r + 1;
					rlen = t - r - 1;
					r = t + 1;
				}
				us = e - r;
				if (us) {
					if (role) {
						problem(&x, p, e, "interpreted text with both a role and a reference suffix:");
						break;
					}
					phrase_ref(&x, p, p + 1, q, us == 2);
				} else {
					interpreted(&x, p, role, rlen, p + 1, q);
				}
				break;
			}
			}
			seg = text_from = e;
			p = e - 1;
			x.run_end = 0;
			x.run_none = false;
			continue;
		}
		/* :role:`text` */
		if (ch == ':') {
			size_t t = p + 1, cl;

			while (t < len && s[t] != '_' &&
			       name_char(s, len, t, &cl))
				t += cl;
			while (t + 1 < len &&
			       cls((unsigned char)s[t], C_JOIN) &&
			       s[t + 1] != '_' &&
			       name_char(s, len, t + 1, &cl) &&
			       !(s[t] == ':' && s[t + 1] == '`')) {
				t++;
				while (t < len && s[t] != '_' &&
				       name_char(s, len, t, &cl))
					t += cl;
			}
			if (t > p + 1 && t + 1 < len && s[t] == ':' && s[t + 1] == '`' &&
			    !(t + 2 < len && s[t + 2] == '`') && !space_at(&x, t + 2) &&
			    t + 2 < len) {
				size_t bq = t + 1;

				q = find_end(&x, E_INTERP, bq + 1, &e, &sfx);
				if (q > len || q == bq + 1) {
					/* the role stays text; the backquote is the problem */
					implicit(&x, text_from, bq);
					problem(&x, bq, bq + 1, "interpreted text or phrase reference");
					seg = text_from = bq + 1;
					p = seg - 1;
					continue;
				}
				implicit(&x, text_from, p);
				if (e > sfx && s[sfx] == ':') {
					problem(&x, p, e, "interpreted text with two roles:");
				} else if (e > sfx) {
					problem(&x, p, e, "interpreted text with both a role and a reference suffix:");
				} else {
					interpreted(&x, p, s + p + 1, t - p - 1, bq + 1, q);
				}
				seg = text_from = e;
				p = e - 1;
				continue;
			}
		}
		/* [1]_ [#]_ [#name]_ [*]_ [CIT]_ */
		if (ch == '[' && (e = footnote_ref(&x, p, &l0, &l1, &cit))) {
			struct qu_rst_node *r;
			char *label = norm(&x, s + l0, l1 - l0, true);

			implicit(&x, text_from, p);
			if (cit) {
				r = add(&x, QU_RST_CITATION_REFERENCE, p);
				rst_set(c, r, "refname", label);
				add_raw(&x, r, l0, l1);
				rst_set_id(c, r, NULL);
			} else {
				r = add(&x, QU_RST_FOOTNOTE_REFERENCE, p);
				if (label[0] == '#') {
					rst_set(c, r, "auto", "1");
					label++;
				} else if (label[0] == '*') {
					rst_set(c, r, "auto", "*");
					label++;
				} else {
					add_raw(&x, r, l0, l1);
				}
				rst_set_id(c, r, NULL);
				if (*label)
					rst_set(c, r, "refname", label);
			}
			seg = text_from = e;
			p = e - 1;
			continue;
		}
		/* name_ and name__ */
		if ((e = standalone_ref(&x, p, &ne))) {
			struct qu_rst_node *r;
			size_t tl;
			char *tt;

			implicit(&x, text_from, p);
			tt = unesc(&x, p, ne, &tl);
			r = add(&x, QU_RST_REFERENCE, p);
			rst_set(c, r, "name", norm(&x, tt, tl, false));
			if (e - ne == 2)
				rst_set(c, r, "anonymous", "1");
			else
				rst_set(c, r, "refname", norm(&x, tt, tl, true));
			rst_text(c, r, tt, tl, off + (uint32_t)p);
			seg = text_from = e;
			p = e - 1;
			x.run_end = 0;
			x.run_none = false;
			continue;
		}
	}
	implicit(&x, text_from, len);
	free(x.escb);
}
