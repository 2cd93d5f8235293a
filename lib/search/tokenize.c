// SPDX-License-Identifier: MIT
/*
 * tokenize.c - text to search terms
 *
 * One pass over UTF-8: letters, digits and "_" make words; everything
 * else separates. Words are lower-cased as they are copied. The same
 * rules are written again in themes/default/static/quire-search.js for
 * the query side; test/search/tokens.txt holds the cases both must give.
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>

#include "search_int.h"

#define MAX_TOKEN 64

/* Decode one UTF-8 sequence at @s; 0xFFFD and one byte when invalid. */
static uint32_t decode(const unsigned char *s, size_t len, size_t *n)
{
	uint32_t c = s[0];
	size_t need, i;

	*n = 1;
	if (c < 0x80)
		return c;
	if (c >= 0xc2 && c <= 0xdf)
		need = 1, c &= 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		need = 2, c &= 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		need = 3, c &= 0x07;
	else
		return 0xfffd;
	if (len < need + 1)
		return 0xfffd;
	for (i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0xfffd;
		c = (c << 6) | (s[i] & 0x3f);
	}
	/* overlong, surrogates, beyond U+10FFFF */
	if ((need == 2 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (need == 3 && (c < 0x10000 || c > 0x10ffff)))
		return 0xfffd;
	*n = need + 1;
	return c;
}

static size_t encode(char *out, uint32_t c)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

uint32_t search_lower(uint32_t c)
{
	if (c >= 'A' && c <= 'Z')
		return c + 32;
	if (c < 0xc0)
		return c;
	if (c <= 0xde)
		return c == 0xd7 ? c : c + 32;
	if (c >= 0x100 && c <= 0x137)
		return c | 1;
	if (c >= 0x139 && c <= 0x148)
		return (c & 1) ? c + 1 : c;
	if (c >= 0x14a && c <= 0x177)
		return c | 1;
	if (c == 0x178)
		return 0xff;
	if (c >= 0x179 && c <= 0x17e)
		return (c & 1) ? c + 1 : c;
	if (c >= 0x391 && c <= 0x3ab && c != 0x3a2)
		return c + 32;
	if (c >= 0x400 && c <= 0x40f)
		return c + 80;
	if (c >= 0x410 && c <= 0x42f)
		return c + 32;
	return c;
}

/* A character that is a word of its own: CJK ideographs, kana, hangul. */
static bool alone(uint32_t c)
{
	return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) ||
	       (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) ||
	       (c >= 0xf900 && c <= 0xfaff);
}

/*
 * Whether @c is part of a word. Above ASCII, everything but the
 * punctuation and symbol blocks counts: a table of every letter would
 * cost more than the rare symbol taken for one.
 */
static bool wordc(uint32_t c)
{
	if (c < 0x80)
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		       (c >= '0' && c <= '9') || c == '_';
	if (c < 0xc0)
		return c == 0xaa || c == 0xb5 || c == 0xba;
	if (c == 0xd7 || c == 0xf7 || c == 0xfffd)
		return false;
	if (c >= 0x2000 && c <= 0x2bff) /* punctuation, arrows, symbols */
		return false;
	if (c >= 0x3000 && c <= 0x303f) /* CJK punctuation */
		return false;
	if (c >= 0xfe30 && c <= 0xfe4f)
		return false;
	if (c >= 0xff00 && c <= 0xff0f)
		return false;
	if (c >= 0x1f000) /* emoji and the like */
		return false;
	return true;
}

/*
 * Sorted (the client has the same list in the manifest), eight bytes
 * each, NUL-padded: each row is the word as a C string.
 */
static const char stop_keys[][8] = {
#define X(w) w,
#include "stop.def"
#undef X
};

/*
 * The stop words as numbers (their bytes little-endian, zeros above)
 * in a set of STOP_SLOTS slots by hash, with linear probing: at its load
 * (under a third) a word that is not there is told in one or two
 * probes, where a binary search of the sorted list took five or six.
 * Filled once from stop_keys[]; 0 marks an empty slot.
 */
#define STOP_SLOTS 128

static uint64_t stop_set[STOP_SLOTS];
static pthread_once_t stop_once = PTHREAD_ONCE_INIT;

static size_t stop_slot(uint64_t k)
{
	return (size_t)((k * 0x9e3779b97f4a7c15u) >> 57);
}

static void stop_init(void)
{
	size_t i, h;

	_Static_assert(sizeof(stop_keys) / sizeof(stop_keys[0]) <
			       STOP_SLOTS / 2,
		       "the stop set is at most half full");
	for (i = 0; i < sizeof(stop_keys) / sizeof(stop_keys[0]); i++) {
		uint64_t k = 0;
		size_t j;

		for (j = 0; j < 8 && stop_keys[i][j]; j++)
			k |= (uint64_t)(unsigned char)stop_keys[i][j] << (8 * j);
		/* keep() looks up words of two to five bytes */
		assert(j >= 1 && j <= 5);
		for (h = stop_slot(k); stop_set[h]; h = (h + 1) % STOP_SLOTS)
			;
		stop_set[h] = k;
	}
}

/* Whether the word @k (as stop_set[] holds words) is a stop word. */
static bool stop_has(uint64_t k)
{
	size_t h;

	for (h = stop_slot(k); stop_set[h]; h = (h + 1) % STOP_SLOTS)
		if (stop_set[h] == k)
			return true;
	return false;
}

bool search_is_stop(const char *w, size_t len)
{
	uint64_t k = 0;
	size_t i;

	if (len > 5)
		return false;
	pthread_once(&stop_once, stop_init);
	for (i = 0; i < len; i++)
		k |= (uint64_t)(unsigned char)w[i] << (8 * i);
	return stop_has(k);
}

void search_stop_words(struct qu_buf *out)
{
	size_t i;

	for (i = 0; i < sizeof(stop_keys) / sizeof(stop_keys[0]); i++) {
		if (i)
			qu_buf_addc(out, ',');
		qu_buf_add_json_str(out, stop_keys[i], strlen(stop_keys[i]));
	}
}

/*
 * The word being read: its bytes lowered, with MAX_TOKEN + 8 bytes of
 * room so that keep() may read eight bytes at any place of it; @over:
 * it ran past MAX_TOKEN bytes and is dropped; @has_us: it holds a "_"
 */
struct word {
	char buf[MAX_TOKEN + 8];
	size_t len;
	bool over;
	bool has_us;
};

/*
 * Whether a token of @len bytes at @w is kept: more than one byte (a
 * token of one byte is ASCII) and not a stop word. Reads eight bytes at
 * @w, inside a struct word: a stop word's number is its first @len of
 * them.
 */
static bool keep(const char *w, size_t len)
{
	uint64_t k;

	if (len < 2)
		return false;
	if (len > 5)
		return true;
	memcpy(&k, w, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	k = __builtin_bswap64(k);
#endif
	return !stop_has(k & ((1ull << (8 * len)) - 1));
}

/* Give the "_"-separated parts of the word read to @fn. */
static void emit_parts(const struct word *wd, qu_search_token_fn fn,
		       void *payload)
{
	const char *p, *q, *end = wd->buf + wd->len;

	for (p = wd->buf; p < end; p = q + 1) {
		q = memchr(p, '_', (size_t)(end - p));
		if (!q)
			q = end;
		if (q > p && keep(p, (size_t)(q - p)))
			fn(p, (size_t)(q - p), true, payload);
	}
}

/*
 * End the word read, if any: given to @fn, then its parts, unless it is
 * too long.
 */
static inline void word_end(struct word *wd, qu_search_token_fn fn,
			    void *payload)
{
	if (!wd->len && !wd->over)
		return;
	if (!wd->over) {
		if (keep(wd->buf, wd->len))
			fn(wd->buf, wd->len, false, payload);
		if (wd->has_us)
			emit_parts(wd, fn, payload);
	}
	wd->len = 0;
	wd->over = wd->has_us = false;
}

/*
 * What a word keeps of each byte: letters lowered, digits and "_" as
 * they are; 0 for an ASCII separator and for every byte from 0x80,
 * which is decoded (wordc() and search_lower() in one, for ASCII)
 */
static const char ascii_word[256] = {
	0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0,
	'0', '1', '2', '3', '4', '5', '6', '7',
	'8', '9', 0, 0, 0, 0, 0, 0,
	0, 'a', 'b', 'c', 'd', 'e', 'f', 'g',
	'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o',
	'p', 'q', 'r', 's', 't', 'u', 'v', 'w',
	'x', 'y', 'z', 0, 0, 0, 0, '_',
	0, 'a', 'b', 'c', 'd', 'e', 'f', 'g',
	'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o',
	'p', 'q', 'r', 's', 't', 'u', 'v', 'w',
	'x', 'y', 'z', 0, 0, 0, 0, 0,
};

void qu_search_tokenize(const char *text, size_t len, qu_search_token_fn fn,
			void *payload)
{
	const unsigned char *s = (const unsigned char *)text;
	struct word wd = {{0}, 0, false, false};
	size_t i = 0;

	pthread_once(&stop_once, stop_init);
	while (i < len) {
		uint32_t c;
		size_t n;

		if (s[i] < 0x80) {
			size_t room, stop, start;
			bool us = false;
			char w;

			if (!ascii_word[s[i]]) {
				/* an ASCII separator */
				word_end(&wd, fn, payload);
				i++;
				continue;
			}
			/*
			 * The common case: a run of ASCII word bytes, lowered
			 * as they are copied, as many as the word has room
			 * for; the rest of a longer run only drops the word.
			 */
			room = MAX_TOKEN - wd.len;
			stop = len - i > room ? i + room : len;
			start = i;
			while (i < stop && (w = ascii_word[s[i]])) {
				wd.buf[wd.len + (i - start)] = w;
				us |= w == '_';
				i++;
			}
			wd.len += i - start;
			wd.has_us |= us;
			if (i == stop && i < len && ascii_word[s[i]]) {
				wd.over = true;
				while (i < len && ascii_word[s[i]])
					i++;
			}
			continue;
		}
		c = decode(s + i, len - i, &n);
		if (wordc(c) && !alone(c)) {
			char tmp[4];
			size_t k = encode(tmp, search_lower(c));

			if (wd.len + k <= MAX_TOKEN) {
				memcpy(wd.buf + wd.len, tmp, k);
				wd.len += k;
			} else {
				wd.over = true;
			}
		} else {
			word_end(&wd, fn, payload);
			if (alone(c)) {
				char tmp[4];

				fn(tmp, encode(tmp, c), false, payload);
			}
		}
		i += n;
	}
	word_end(&wd, fn, payload);
}
