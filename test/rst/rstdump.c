// SPDX-License-Identifier: MIT
/*
 * rstdump.c - the rst stage's own driver, for golden tests, the kernel
 * test and measurements: parses reST files and prints each tree as
 * docutils' pseudo-XML, diagnostics on stderr in compiler format.
 *
 * usage: rst-dump FILE...            the trees on stdout, in order
 *        rst-dump -q FILE...         parse only (for timing)
 *        rst-dump -o OUTDIR -r ROOT FILE...
 *            write OUTDIR/<FILE relative to ROOT>.xml for each, and
 *            print "slowest: MS ms PATH" at the end
 * Exit status: 0, or 2 when a file cannot be read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "rst/rst.h"
#include "util/util.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int write_out(const char *outdir, const char *root, const char *path,
		     const struct qu_buf *b)
{
	struct qu_buf p = QU_BUF_INIT, err = QU_BUF_INIT;
	size_t rl = strlen(root);
	const char *rel = path;
	char *slash;
	int rc = 0;

	if (!strncmp(path, root, rl) && path[rl] == '/')
		rel = path + rl + 1;
	qu_buf_addf(&p, "%s/%s.xml", outdir, rel);
	slash = strrchr(p.buf, '/');
	*slash = '\0';
	if (qu_mkdir_p(p.buf, &err) < 0)
		rc = -1;
	*slash = '/';
	if (!rc && qu_file_write_atomic(p.buf, b->buf, b->len, &err) < 0)
		rc = -1;
	if (rc)
		fprintf(stderr, "rst-dump: %s\n", err.buf);
	qu_buf_fini(&p);
	qu_buf_fini(&err);
	return rc;
}

int main(int argc, char **argv)
{
	const char *outdir = NULL, *root = ".", *slow_path = NULL;
	bool quiet = false;
	double slow = 0;
	int i = 1, rc = 0;
	struct qu_buf out = QU_BUF_INIT;
	struct qu_diags diags;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-q"))
			quiet = true;
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			outdir = argv[++i];
		else if (!strcmp(argv[i], "-r") && i + 1 < argc)
			root = argv[++i];
		else {
			fprintf(stderr, "usage: rst-dump [-q] [-o OUTDIR -r ROOT] FILE...\n");
			return 2;
		}
	}
	qu_diags_init(&diags);
	for (; i < argc; i++) {
		struct qu_buf src = QU_BUF_INIT, err = QU_BUF_INIT;
		struct qu_rst_doc *doc;
		double t0;

		if (qu_file_read(&src, argv[i], &err) < 0) {
			fprintf(stderr, "rst-dump: %s\n", err.buf);
			qu_buf_fini(&err);
			rc = 2;
			continue;
		}
		t0 = now_ms();
		doc = qu_rst_parse(&diags, argv[i], src.buf, src.len);
		if (now_ms() - t0 > slow) {
			slow = now_ms() - t0;
			slow_path = argv[i];
		}
		if (!quiet) {
			qu_buf_reset(&out);
			qu_rst_dump(&out, doc);
			if (outdir) {
				if (write_out(outdir, root, argv[i], &out) < 0)
					rc = 2;
			} else {
				fwrite(out.buf, 1, out.len, stdout);
			}
		}
		qu_diags_sort(&diags);
		qu_diags_print(&diags, stderr, false);
		qu_diags_fini(&diags);
		qu_rst_free(doc);
		qu_buf_fini(&src);
	}
	if (outdir && slow_path)
		printf("slowest: %.1f ms %s\n", slow, slow_path);
	qu_buf_fini(&out);
	return rc;
}
