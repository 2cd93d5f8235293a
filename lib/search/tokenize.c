// SPDX-License-Identifier: MIT
/*
 * tokenize.c - text to search terms
 *
 * One pass over UTF-8: letters, digits and "_" make words; everything
 * else separates. Words are lower-cased as they are copied. The same
 * rules are written again in themes/default/static/quire-search.js for
 * the query side; test/search/tokens.txt holds the cases both must give.
 */
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
 * each, NUL-padded: read big-endian, they sort as the strings do, so the
 * search below compares numbers instead of calling strncmp(); each row
 * is also the word as a C string.
 */
static const char stop_keys[][8] = {
#define X(w) w,
#include "stop.def"
#undef X
};

/* A row of stop_keys[] as a big-endian number. */
static uint64_t stop_key(const char *row)
{
	uint64_t k;

	memcpy(&k, row, 8);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	k = __builtin_bswap64(k);
#endif
	return k;
}

/*
 * By first letter, the lengths of the stop words starting with it (bit
 * n: n bytes): most words are ruled out before the search below.
 */
static uint8_t stop_lens[26];
static pthread_once_t stop_once = PTHREAD_ONCE_INIT;

static void stop_init(void)
{
	size_t i;

	for (i = 0; i < sizeof(stop_keys) / sizeof(stop_keys[0]); i++)
		stop_lens[stop_keys[i][0] - 'a'] |=
			(uint8_t)(1u << strlen(stop_keys[i]));
}

bool search_is_stop(const char *w, size_t len)
{
	size_t lo = 0, hi = sizeof(stop_keys) / sizeof(stop_keys[0]), i;
	uint64_t k;

	if (len > 5 || w[0] < 'a' || w[0] > 'z')
		return false;
	pthread_once(&stop_once, stop_init);
	if (!(stop_lens[w[0] - 'a'] & (1u << len)))
		return false;
	for (k = 0, i = 0; i < len; i++)
		k |= (uint64_t)(unsigned char)w[i] << (56 - 8 * i);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		uint64_t m = stop_key(stop_keys[mid]);

		if (k == m)
			return true;
		if (k < m)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
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

static bool keep(const char *w, size_t len)
{
	if (len == 1 && (unsigned char)w[0] < 0x80)
		return false;
	return len <= MAX_TOKEN && !search_is_stop(w, len);
}

static void emit(const char *w, size_t len, bool has_us,
		 qu_search_token_fn fn, void *payload)
{
	size_t i, start;

	if (len > MAX_TOKEN)
		return;
	if (keep(w, len))
		fn(w, len, false, payload);
	if (!has_us)
		return;
	for (start = i = 0; i <= len; i++) {
		if (i < len && w[i] != '_')
			continue;
		if (i > start && i - start < len && keep(w + start, i - start))
			fn(w + start, i - start, true, payload);
		start = i + 1;
	}
}

/*
 * What a word keeps of each ASCII byte: letters lowered, digits and "_"
 * as they are; 0 for a separator (wordc() and search_lower() in one)
 */
static const char ascii_word[128] = {
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
	char word[MAX_TOKEN + 8];
	size_t i = 0, wl = 0;
	bool over = false, has_us = false;

	while (i <= len) {
		uint32_t c;
		size_t n = 1;

		if (i == len) {
			c = ' ';
		} else if (s[i] < 0x80) {
			/* the common case: a run of ASCII word bytes */
			char w;

			while (i < len && s[i] < 0x80 && (w = ascii_word[s[i]])) {
				has_us |= w == '_';
				if (wl < MAX_TOKEN + 1)
					word[wl++] = w;
				else
					over = true;
				i++;
			}
			if (i < len && s[i] >= 0x80)
				continue;
			/* an ASCII separator, or the end of the text */
			if (wl && !over)
				emit(word, wl, has_us, fn, payload);
			wl = 0;
			over = has_us = false;
			i++;
			continue;
		} else {
			c = decode(s + i, len - i, &n);
		}
		if (wordc(c) && !alone(c)) {
			char tmp[4];
			size_t k = encode(tmp, search_lower(c));

			if (c == '_')
				has_us = true;
			if (wl + k <= MAX_TOKEN + 1) {
				memcpy(word + wl, tmp, k);
				wl += k;
			} else {
				over = true;
			}
		} else {
			if (wl && !over)
				emit(word, wl, has_us, fn, payload);
			wl = 0;
			over = has_us = false;
			if (alone(c)) {
				char tmp[4];

				fn(tmp, encode(tmp, c), false, payload);
			}
		}
		i += n;
	}
}
