// SPDX-License-Identifier: MIT
/*
 * diag.c - the diagnostic registry and per-unit lists (util stage)
 *
 * Diagnostics are recorded per unit while workers run, then merged,
 * sorted and printed once, so output never depends on thread timing.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const struct qu_diag_info registry[] = {
#define QU_DIAG(id, name, level, doc) { name, level, doc },
#include "diag.def"
#undef QU_DIAG
};

const struct qu_diag_info *qu_diag_info(enum qu_diag_id id)
{
	return &registry[id];
}

int qu_diag_find(const char *name)
{
	for (size_t i = 0; i < QU_ARRAY_SIZE(registry); i++)
		if (!strcmp(registry[i].name, name))
			return (int)i;
	return -1;
}

void qu_diags_init(struct qu_diags *d)
{
	d->v = NULL;
	d->n = d->alloc = 0;
}

void qu_diags_fini(struct qu_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].msg);
	free(d->v);
	qu_diags_init(d);
}

/* Append a diagnostic whose message @msg (malloc()ed) it takes. */
static void push(struct qu_diags *d, enum qu_diag_id id, const char *path,
		 uint32_t line, uint32_t col, char *msg)
{
	QU_VEC_GROW(d->v, d->n, d->alloc);
	d->v[d->n++] = (struct qu_diag){
		.path = path,
		.line = line,
		.col = col,
		.id = id,
		.msg = msg,
	};
}

void qu_diag(struct qu_diags *d, enum qu_diag_id id, const char *path,
	     uint32_t line, uint32_t col, const char *fmt, ...)
{
	struct qu_buf b = QU_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	qu_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	push(d, id, path, line, col, qu_buf_detach(&b, NULL));
}

void qu_diag_text(struct qu_diags *d, enum qu_diag_id id, const char *path,
		  uint32_t line, uint32_t col, const char *msg, size_t len)
{
	push(d, id, path, line, col, qu_xstrndup(msg, len));
}

void qu_diags_move(struct qu_diags *to, struct qu_diags *from)
{
	for (size_t i = 0; i < from->n; i++) {
		QU_VEC_GROW(to->v, to->n, to->alloc);
		to->v[to->n++] = from->v[i];
	}
	free(from->v);
	qu_diags_init(from);
}

int qu_diag_cmp(const struct qu_diag *a, const struct qu_diag *b)
{
	int r = strcmp(a->path, b->path);

	if (r)
		return r;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->col != b->col)
		return a->col < b->col ? -1 : 1;
	r = strcmp(registry[a->id].name, registry[b->id].name);
	if (r)
		return r;
	return strcmp(a->msg, b->msg);
}

static int cmp_diag(const void *pa, const void *pb)
{
	return qu_diag_cmp(pa, pb);
}

void qu_diags_sort(struct qu_diags *d)
{
	size_t o = 0;

	if (d->n < 2)
		return;
	qsort(d->v, d->n, sizeof(d->v[0]), cmp_diag);
	for (size_t i = 0; i < d->n; i++) {
		if (o && !cmp_diag(&d->v[o - 1], &d->v[i])) {
			free(d->v[i].msg);
			continue;
		}
		d->v[o++] = d->v[i];
	}
	d->n = o;
}

void qu_diags_count(size_t *nerr, size_t *nwarn, const struct qu_diags *d)
{
	*nerr = *nwarn = 0;
	for (size_t i = 0; i < d->n; i++) {
		if (registry[d->v[i].id].level == QU_LEVEL_ERROR)
			(*nerr)++;
		else
			(*nwarn)++;
	}
}

size_t qu_diags_print(const struct qu_diags *d, FILE *f, bool werror)
{
	struct qu_buf b = QU_BUF_INIT;

	for (size_t i = 0; i < d->n; i++) {
		const struct qu_diag *g = &d->v[i];
		const struct qu_diag_info *info = &registry[g->id];
		const char *level = info->level == QU_LEVEL_ERROR || werror
					    ? "error" : "warning";

		/* "path:line:col: level: msg [-Wname]", unformatted: a
		 * kernel tree prints tens of thousands */
		qu_buf_adds(&b, g->path);
		if (g->line) {
			qu_buf_addc(&b, ':');
			qu_buf_add_u64(&b, g->line);
			if (g->col) {
				qu_buf_addc(&b, ':');
				qu_buf_add_u64(&b, g->col);
			}
		}
		qu_buf_adds(&b, ": ");
		qu_buf_adds(&b, level);
		qu_buf_adds(&b, ": ");
		qu_buf_adds(&b, g->msg);
		qu_buf_adds(&b, " [-W");
		qu_buf_adds(&b, info->name);
		qu_buf_adds(&b, "]\n");
		if (b.len > 1 << 16) {
			fwrite(b.buf, 1, b.len, f);
			qu_buf_reset(&b);
		}
	}
	fwrite(b.buf, 1, b.len, f);
	qu_buf_fini(&b);
	return d->n;
}
