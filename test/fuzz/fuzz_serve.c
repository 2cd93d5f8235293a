// SPDX-License-Identifier: MIT
/*
 * fuzz_serve.c - the preview server's request-path handling
 *
 * Decodes the input as a request path the way quire serve does, and when
 * the server would accept it, checks that it cannot name anything
 * outside the served folder: it starts with "/", has no "." or ".."
 * component, no backslash, no control byte and no NUL.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "serve/serve_int.h"

/* as SERVE_MAX_URL: longer requests never reach the decoder's users */
#define MAX_PATH 8192

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;
	size_t n, i;

	if (size > MAX_PATH)
		return 0;
	s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = 0;
	n = serve_path_decode(s);
	assert(n == strlen(s));
	assert(n <= size);
	if (!serve_path_ok(s)) {
		free(s);
		return 0;
	}
	assert(s[0] == '/');
	assert(!strchr(s, BAD_ESCAPE) && !strchr(s, '\\'));
	for (i = 0; i < n; i++)
		assert((unsigned char)s[i] >= 0x20 && s[i] != 0x7f);
	for (i = 0; i < n; i++) {
		const char *c = s + i;

		if (*c != '/')
			continue;
		/* a component "." or ".." after any slash */
		assert(!(c[1] == '.' && (c[2] == '/' || !c[2])));
		assert(!(c[1] == '.' && c[2] == '.' && (c[3] == '/' || !c[3])));
	}
	free(s);
	return 0;
}
