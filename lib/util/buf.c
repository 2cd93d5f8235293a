// SPDX-License-Identifier: MIT
/*
 * buf.c - growable NUL-terminated byte buffers (util stage)
 *
 * Invariants are stated in util.h: buf is never NULL and always
 * terminated; an empty buffer points at the shared qu_buf_empty.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"

char qu_buf_empty[1];

void qu_buf_grow(struct qu_buf *b, size_t extra)
{
	size_t want = b->len + extra + 1;

	if (want < b->len)
		qu_die_oom();
	if (want <= b->alloc)
		return;
	size_t n = b->alloc ? b->alloc : 64;
	while (n < want)
		n *= 2;
	if (b->alloc) {
		b->buf = qu_xrealloc(b->buf, n);
	} else {
		b->buf = qu_xmalloc(n);
		b->buf[0] = '\0';
	}
	b->alloc = n;
}

void qu_buf_vaddf(struct qu_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	qu_buf_grow(b, 64);
	va_copy(cp, ap);
	n = vsnprintf(b->buf + b->len, b->alloc - b->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n >= b->alloc - b->len) {
		qu_buf_grow(b, (size_t)n);
		va_copy(cp, ap);
		vsnprintf(b->buf + b->len, b->alloc - b->len, fmt, cp);
		va_end(cp);
	}
	b->len += (size_t)n;
}

void qu_buf_addf(struct qu_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	qu_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

char *qu_buf_detach(struct qu_buf *b, size_t *len_out)
{
	char *s;

	if (len_out)
		*len_out = b->len;
	if (!b->alloc)
		s = qu_xstrdup("");
	else
		s = b->buf;
	qu_buf_init(b);
	return s;
}

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static size_t utf8_seq(const unsigned char *s, size_t len)
{
	unsigned c = s[0];
	size_t n;
	unsigned min, cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, min = 0x80, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, min = 0x800, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, min = 0x10000, cp = c & 0x07;
	else
		return 0;
	if (n > len)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

bool qu_utf8_valid(const char *s, size_t len, size_t *bad_out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		/*
		 * ASCII runs a word at a time, thirty-two bytes a step where
		 * possible: files with one non-ASCII byte (an author's name)
		 * are otherwise mostly ASCII, and a byte-wise walk over them
		 * cost more than finding their comments.
		 */
		while (i + 32 <= len) {
			uint64_t w[4];
			memcpy(w, p + i, 32);
			if ((w[0] | w[1] | w[2] | w[3]) & 0x8080808080808080ull)
				break;
			i += 32;
		}
		if (i == len)
			break;
		if (i + 8 <= len) {
			uint64_t w;
			memcpy(&w, p + i, 8);
			if (!(w & 0x8080808080808080ull)) {
				i += 8;
				continue;
			}
		}
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		size_t n = utf8_seq(p + i, len - i);
		if (!n) {
			if (bad_out)
				*bad_out = i;
			return false;
		}
		i += n;
	}
	return true;
}

void qu_buf_add_utf8(struct qu_buf *b, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0;

	while (i < len) {
		size_t n;

		if (p[i] < 0x80) {
			i++;
			continue;
		}
		n = utf8_seq(p + i, len - i);
		if (n) {
			i += n;
			continue;
		}
		qu_buf_add(b, s + run, i - run);
		qu_buf_adds(b, "\xef\xbf\xbd");
		run = ++i;
	}
	qu_buf_add(b, s + run, len - run);
}

void qu_buf_add_json_str(struct qu_buf *b, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0;
	bool high = false;

	/* most strings have nothing to escape: quoted as they are */
	for (i = 0; i < len; i++) {
		if (p[i] < 0x20 || p[i] == '"' || p[i] == '\\')
			break;
		high |= p[i] >= 0x80;
	}
	if (i == len && (!high || qu_utf8_valid(s, len, NULL))) {
		qu_buf_grow(b, len + 2);
		qu_buf_addc(b, '"');
		qu_buf_add(b, s, len);
		qu_buf_addc(b, '"');
		return;
	}
	i = 0;
	qu_buf_grow(b, len + 2);
	qu_buf_addc(b, '"');
	while (i < len) {
		unsigned c = p[i];
		size_t n = 1;
		const char *esc = NULL;
		char u[7];

		if (c >= 0x80) {
			n = utf8_seq(p + i, len - i);
			if (!n) {
				qu_buf_add(b, s + run, i - run);
				qu_buf_adds(b, "\xef\xbf\xbd");
				run = ++i;
				continue;
			}
			i += n;
			continue;
		}
		switch (c) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\n': esc = "\\n"; break;
		case '\t': esc = "\\t"; break;
		case '\r': esc = "\\r"; break;
		default:
			if (c < 0x20) {
				u[0] = '\\', u[1] = 'u', u[2] = '0', u[3] = '0';
				u[4] = hex[c >> 4], u[5] = hex[c & 15], u[6] = 0;
				esc = u;
			}
		}
		if (esc) {
			qu_buf_add(b, s + run, i - run);
			qu_buf_adds(b, esc);
			run = i + 1;
		}
		i++;
	}
	qu_buf_add(b, s + run, len - run);
	qu_buf_addc(b, '"');
}

