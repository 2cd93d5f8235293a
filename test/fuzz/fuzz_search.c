// SPDX-License-Identifier: MIT
/*
 * fuzz_search.c - fuzz harness of the search tokenizer: any bytes as page
 * or comment text. Checks the invariants as it goes: every token is 1 to
 * 64 bytes of valid UTF-8 holding no ASCII capital, separator or control
 * byte, and a part of an identifier follows the identifier it is part of.
 */
#include <assert.h>
#include <string.h>

#include "fuzz.h"
#include "search/search.h"

struct state {
	char whole[80];
	size_t wlen;
	size_t n;
};

static void check(const char *tok, size_t len, bool part, void *payload)
{
	struct state *s = payload;
	size_t i;

	assert(tok && len >= 1 && len <= 64);
	assert(qu_utf8_valid(tok, len, NULL));
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)tok[i];

		assert(!(c >= 'A' && c <= 'Z'));
		assert(c >= 0x80 || c == '_' || (c >= 'a' && c <= 'z') ||
		       (c >= '0' && c <= '9'));
	}
	if (part) {
		/* the whole may itself have been dropped (a stop word) */
		assert(s->wlen == 0 || memmem(s->whole, s->wlen, tok, len));
		assert(!memchr(tok, '_', len));
	} else {
		memcpy(s->whole, tok, len);
		s->wlen = len;
	}
	s->n++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct state s = {{0}, 0, 0};

	qu_search_tokenize((const char *)data, size, check, &s);
	assert(s.n <= size);
	return 0;
}
