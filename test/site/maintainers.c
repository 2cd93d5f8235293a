// SPDX-License-Identifier: MIT
/*
 * maintainers.c - print the reST quire makes of a MAINTAINERS file
 * (qu_site_maintainers_rst()), for maintainers.py to compare with what
 * the kernel's own maintainers_include.py makes of it.
 *
 * usage: maintainers-rst MAINTAINERS
 */
#include <stdio.h>

#include "site/site.h"

int main(int argc, char **argv)
{
	struct qu_buf in = QU_BUF_INIT, out = QU_BUF_INIT, err = QU_BUF_INIT;

	if (argc != 2) {
		fprintf(stderr, "usage: maintainers-rst MAINTAINERS\n");
		return 2;
	}
	if (qu_file_read(&in, argv[1], &err) < 0) {
		fprintf(stderr, "maintainers-rst: %s\n", err.buf);
		return 1;
	}
	qu_site_maintainers_rst(&out, in.buf, in.len);
	fwrite(out.buf, 1, out.len, stdout);
	qu_buf_fini(&in);
	qu_buf_fini(&out);
	qu_buf_fini(&err);
	return 0;
}
