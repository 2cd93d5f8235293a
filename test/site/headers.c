// SPDX-License-Identifier: MIT
/*
 * headers.c - print the reST quire makes of a C header
 * (qu_site_headers_rst()), for headers.py to compare with what the
 * kernel's Documentation/sphinx/parse-headers.pl writes. Diagnostics go
 * to stderr; the exit status is 1 where the script dies.
 *
 * usage: headers-rst HEADER [EXCEPTIONS]
 */
#include <stdio.h>
#include <stdlib.h>

#include "site/site.h"

int main(int argc, char **argv)
{
	struct qu_buf h = QU_BUF_INIT, e = QU_BUF_INIT, out = QU_BUF_INIT;
	struct qu_buf err = QU_BUF_INIT;
	struct qu_diags diags;
	int r;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: headers-rst HEADER [EXCEPTIONS]\n");
		return 2;
	}
	if (qu_file_read(&h, argv[1], &err) < 0 ||
	    (argc == 3 && qu_file_read(&e, argv[2], &err) < 0)) {
		fprintf(stderr, "%s\n", err.buf);
		return 2;
	}
	qu_diags_init(&diags);
	r = qu_site_headers_rst(&out, &diags, argv[1], h.buf, h.len,
				argc == 3 ? argv[2] : NULL,
				argc == 3 ? e.buf : NULL, e.len);
	fwrite(out.buf, 1, out.len, stdout);
	for (size_t i = 0; i < diags.n; i++)
		fprintf(stderr, "%s:%u:%u: %s\n", diags.v[i].path,
			diags.v[i].line, diags.v[i].col, diags.v[i].msg);
	qu_diags_fini(&diags);
	qu_buf_fini(&h);
	qu_buf_fini(&e);
	qu_buf_fini(&out);
	qu_buf_fini(&err);
	return r < 0 ? 1 : 0;
}
