// SPDX-License-Identifier: MIT
/*
 * input.c - the C files of a "quire man" run, parsed on the thread pool
 * (man stage)
 *
 * Each file becomes a unit that outlives its bytes; the exports of all
 * files are gathered afterwards so a header's prototype is marked
 * exported by the .c file that exports it. Called by cmd/quire/man.c.
 */
#include <stdlib.h>
#include <string.h>

#include "man_int.h"
#include "source/source.h"

struct reader {
	struct qu_man_input *in;
	const char *const *paths;
	struct qu_export **exports; /* per file, in the unit's arena */
	size_t *nexports;
};

static void read_one(struct qu_job *job, size_t i, void *payload)
{
	struct reader *r = payload;
	struct qu_unit *u = &r->in->units[i];
	const char *path = r->paths[i];
	struct qu_source *src = NULL;
	size_t k;

	qu_buf_reset(&job->err);
	if (qu_source_read(&src, job, path) < 0) {
		qu_arena_init(&u->arena);
		qu_diags_init(&u->diags);
		qu_diag(&u->diags, QU_W_UNREADABLE, path, 0, 0, "%s",
			job->err.buf);
		u->path = path;
		return;
	}
	qu_kdoc_parse(u, src, NULL);
	qu_diags_move(&u->diags, &src->diags);
	for (k = 0; k < u->diags.n; k++) {
		if (u->diags.v[k].id == QU_W_NO_STRUCTURED_COMMENTS) {
			free(u->diags.v[k].msg);
			u->diags.v[k--] = u->diags.v[--u->diags.n];
			continue;
		}
		u->diags.v[k].path = path;
	}
	/* the unit outlives the source: what it keeps moves to its arena */
	u->path = path;
	if (src->nexports) {
		struct qu_export *v =
			qu_arena_alloc(&u->arena, src->nexports * sizeof(*v));

		for (k = 0; k < src->nexports; k++) {
			v[k] = src->exports[k];
			v[k].name = qu_arena_strdup(&u->arena, v[k].name);
		}
		r->exports[i] = v;
		r->nexports[i] = src->nexports;
	}
	qu_source_free(src);
}

void qu_man_input_read(struct qu_man_input *out, const char *const *paths,
		       size_t n, unsigned threads)
{
	struct reader r = {out, paths, NULL, NULL};
	struct qu_map exports;

	memset(out, 0, sizeof(*out));
	qu_diags_init(&out->diags);
	out->units = qu_xcalloc(n + 1, sizeof(*out->units));
	out->n = n;
	r.exports = qu_xcalloc(n + 1, sizeof(*r.exports));
	r.nexports = qu_xcalloc(n + 1, sizeof(*r.nexports));
	qu_pool_run(threads, n, read_one, &r);

	/* the first file to export a name names the macro, in file order */
	qu_map_init(&exports);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < r.nexports[i]; k++) {
			void **slot = qu_map_slot(&exports, r.exports[i][k].name,
						  strlen(r.exports[i][k].name));

			if (!*slot)
				*slot = (void *)r.exports[i][k].macro;
		}
	for (size_t i = 0; i < n; i++) {
		struct qu_unit *u = &out->units[i];

		for (size_t k = 0; k < u->nitems; k++) {
			struct qu_item *it = &u->items[k];

			if (!it->exported && it->kind != QU_KIND_DOC)
				it->exported = qu_map_get(&exports, it->name,
							  strlen(it->name));
		}
		qu_diags_move(&out->diags, &u->diags);
	}
	qu_diags_sort(&out->diags);
	qu_map_fini(&exports);
	free(r.exports);
	free(r.nexports);
}

void qu_man_input_fini(struct qu_man_input *in)
{
	for (size_t i = 0; i < in->n; i++)
		qu_unit_fini(&in->units[i]);
	free(in->units);
	qu_diags_fini(&in->diags);
	memset(in, 0, sizeof(*in));
}
