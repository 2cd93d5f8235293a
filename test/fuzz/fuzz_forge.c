// SPDX-License-Identifier: MIT
/*
 * fuzz_forge.c - fuzz harness of the git stage's remote-URL parser: the
 * input is a remote's URL, a newline, and a revision. Checks what
 * qu_git_forge_url() promises: a template is an https URL holding
 * `{path}` and `{line}` once each and only URL-safe bytes, and no
 * template means an empty buffer; and qu_git_forge_edit_url()'s, with
 * `{path}` alone, only for a remote that has a view template.
 */
#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "git/git.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qu_buf out = QU_BUF_INIT;
	char *in = malloc(size + 1), *rev, *p;
	int r, e;

	if (!in)
		abort();
	memcpy(in, data, size);
	in[size] = '\0';
	rev = strchr(in, '\n');
	if (rev)
		*rev++ = '\0';
	r = qu_git_forge_url(&out, in, rev ? rev : "v1");
	if (r == 0) {
		assert(!strncmp(out.buf, "https://", 8));
		p = strstr(out.buf, "{path}");
		assert(p && !strstr(p + 1, "{path}"));
		p = strstr(out.buf, "{line}");
		assert(p && !strstr(p + 1, "{line}"));
		assert(strlen(out.buf) == out.len);
		for (p = out.buf; *p; p++)
			assert(isalnum((unsigned char)*p) ||
			       strchr("-._~/:{}#?=%", *p));
	} else {
		assert(r == 1 && out.len == 0);
	}
	/* the editor's: {path} once, no {line}, and only where a view is */
	e = qu_git_forge_edit_url(&out, in, rev ? rev : "v1");
	if (e == 0) {
		assert(r == 0 && !strncmp(out.buf, "https://", 8));
		p = strstr(out.buf, "{path}");
		assert(p && !strstr(p + 1, "{path}") &&
		       !strstr(out.buf, "{line}"));
		for (p = out.buf; *p; p++)
			assert(isalnum((unsigned char)*p) ||
			       strchr("-._~/:{}%", *p));
	} else {
		assert(e == 1 && out.len == 0);
	}
	qu_buf_fini(&out);
	free(in);
	return 0;
}
