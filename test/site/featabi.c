// SPDX-License-Identifier: MIT
/*
 * featabi.c - print the reST quire makes of the kernel's feature files
 * (qu_site_feat_rst()) or of a folder of ABI files (qu_site_abi_rst()),
 * for featabi.py to compare with what scripts/get_feat.pl and
 * scripts/get_abi.pl print. Diagnostics go to stderr.
 *
 * usage: featabi-rst feat DIR [ARCH]
 *        featabi-rst abi DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site/site.h"

struct walk {
	struct qu_site_text *v;
	size_t n;
};

/* Every file below @dir, sorted as the site reads them. */
static int walk(struct walk *w, const char *dir, const char *rel)
{
	char **names;
	enum qu_fkind *kinds;
	size_t n, i;
	struct qu_buf path = QU_BUF_INIT, sub = QU_BUF_INIT;
	struct qu_buf err = QU_BUF_INIT, text = QU_BUF_INIT;

	qu_buf_addf(&path, "%s%s%s", dir, *rel ? "/" : "", rel);
	if (qu_files_list(NULL, &names, &kinds, &n, path.buf) < 0) {
		perror(path.buf);
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct qu_fstat st;

		qu_buf_reset(&sub);
		qu_buf_addf(&sub, "%s%s%s", rel, *rel ? "/" : "", names[i]);
		qu_buf_reset(&path);
		qu_buf_addf(&path, "%s/%s", dir, sub.buf);
		if (qu_files_stat(NULL, &st, path.buf, false) < 0)
			continue;
		if (st.kind == QU_FK_DIR) {
			walk(w, dir, sub.buf);
		} else if (st.kind == QU_FK_FILE) {
			struct qu_site_text *t;

			qu_buf_reset(&text);
			if (qu_file_read(&text, path.buf, &err) < 0)
				continue;
			w->v = qu_xrealloc(w->v, (w->n + 1) * sizeof(*w->v));
			t = &w->v[w->n++];
			t->path = qu_xstrdup(path.buf);
			t->rel = qu_xstrdup(sub.buf);
			t->len = text.len;
			t->text = qu_buf_detach(&text, NULL);
		}
		free(names[i]);
	}
	free(names);
	free(kinds);
	qu_buf_fini(&path);
	qu_buf_fini(&sub);
	qu_buf_fini(&err);
	qu_buf_fini(&text);
	return 0;
}

int main(int argc, char **argv)
{
	struct walk w = {0};
	struct qu_buf out = QU_BUF_INIT;
	struct qu_diags diags;
	bool feat = argc >= 3 && !strcmp(argv[1], "feat");

	if (argc < 3 || argc > 4 || (!feat && strcmp(argv[1], "abi")) ||
	    (!feat && argc == 4)) {
		fprintf(stderr, "usage: featabi-rst feat DIR [ARCH]\n"
				"       featabi-rst abi DIR\n");
		return 2;
	}
	qu_diags_init(&diags);
	if (walk(&w, argv[2], "") < 0)
		return 1;
	if (feat)
		qu_site_feat_rst(&out, &diags, w.v, w.n,
				 argc == 4 ? argv[3] : NULL);
	else
		qu_site_abi_rst(&out, &diags, argv[2], w.v, w.n);
	fwrite(out.buf, 1, out.len, stdout);
	for (size_t i = 0; i < diags.n; i++)
		fprintf(stderr, "%s:%u:%u: %s\n", diags.v[i].path,
			diags.v[i].line, diags.v[i].col, diags.v[i].msg);
	for (size_t i = 0; i < w.n; i++) {
		free((char *)w.v[i].path);
		free((char *)w.v[i].rel);
		free((char *)w.v[i].text);
	}
	free(w.v);
	qu_diags_fini(&diags);
	qu_buf_fini(&out);
	return 0;
}
