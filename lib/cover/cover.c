// SPDX-License-Identifier: MIT
/*
 * cover.c - documentation coverage of a tree's exports and items
 * (cover stage)
 *
 * Every C file of the tree is read on the thread pool and parsed when it
 * holds a "/\*\*" line; each leaves a compact summary (its documented
 * names, their undescribed parameters, its exports when in scope), so
 * the tree is never in memory at once. The summaries are then joined in
 * path order, which makes the result independent of the threads.
 * Called by cmd/quire/coverage.c.
 */
#include <stdlib.h>
#include <string.h>

#include "cover/cover.h"
#include "source/source.h"

/* What one file leaves for the join. */
struct slot {
	const char *path; /* normalized, in the result's arena */
	bool in_scope;
	struct qu_arena arena;
	struct qu_cover_item *items;
	size_t nitems;
	struct qu_export *exports;
	size_t nexports;
	struct qu_diags diags;
};

struct run {
	struct slot *slots;
	const char *const *paths; /* as given, for reading */
};

static const char *strip_dot(const char *p)
{
	while (p[0] == '.' && p[1] == '/') {
		p += 2;
		while (*p == '/')
			p++;
	}
	return p;
}

static void read_one(struct qu_job *job, size_t i, void *payload)
{
	struct run *r = payload;
	struct slot *s = &r->slots[i];
	struct qu_source *src = NULL;
	struct qu_unit u = {0};

	qu_arena_init(&s->arena);
	qu_diags_init(&s->diags);
	qu_buf_reset(&job->err);
	if (qu_source_read(&src, job, r->paths[i]) < 0) {
		qu_diag(&s->diags, QU_W_UNREADABLE, s->path, 0, 0, "%s",
			job->err.buf);
		return;
	}
	if (s->in_scope && src->nexports) {
		s->exports = qu_arena_alloc(&s->arena, src->nexports *
							       sizeof(*s->exports));
		for (size_t k = 0; k < src->nexports; k++) {
			s->exports[k] = src->exports[k];
			s->exports[k].name =
				qu_arena_strdup(&s->arena, src->exports[k].name);
		}
		s->nexports = src->nexports;
	}
	/* no "/\*\*" line: no comment to find, no parse to pay for */
	if (src->ndocs) {
		qu_kdoc_parse(&u, src, NULL);
		s->items = qu_arena_alloc(&s->arena, (u.nitems ? u.nitems : 1) *
							     sizeof(*s->items));
		for (size_t k = 0; k < u.nitems; k++) {
			const struct qu_item *it = &u.items[k];
			struct qu_cover_item *ci;
			size_t nu = 0;

			if (it->kind == QU_KIND_DOC)
				continue;
			ci = &s->items[s->nitems++];
			*ci = (struct qu_cover_item){
				.name = qu_arena_strdup(&s->arena, it->name),
				.kind = it->kind,
				.file = s->path,
				.line = it->decl_line ? it->decl_line : it->line,
				.nparams = (uint32_t)it->nparams,
				.in_scope = s->in_scope,
			};
			for (size_t p = 0; p < it->nparams; p++)
				nu += !*it->params[p].desc;
			if (!nu)
				continue;
			ci->undescribed = qu_arena_alloc(
				&s->arena, nu * sizeof(*ci->undescribed));
			for (size_t p = 0; p < it->nparams; p++)
				if (!*it->params[p].desc)
					ci->undescribed[ci->nundescribed++] =
						qu_arena_strdup(
							&s->arena,
							it->params[p].name);
		}
		qu_unit_fini(&u);
	}
	qu_source_free(src);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_export(const void *a, const void *b)
{
	const struct qu_cover_export *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_row(const void *a, const void *b)
{
	const struct qu_cover_row *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* The directory of @path: "." for the top. */
static const char *dir_of(struct qu_arena *a, const char *path)
{
	const char *sl = strrchr(path, '/');

	return sl ? qu_arena_strndup(a, path, (size_t)(sl - path)) : ".";
}

/* The row of @name in @rows, added when new. */
static struct qu_cover_row *row(struct qu_map *index,
				struct qu_cover_row **rows, size_t *n,
				size_t *alloc, const char *name)
{
	void **slot = qu_map_slot(index, name, strlen(name));

	if (*slot)
		return &(*rows)[(uintptr_t)*slot - 1];
	QU_VEC_GROW(*rows, *n, *alloc);
	(*rows)[*n] = (struct qu_cover_row){.name = name};
	*slot = (void *)(uintptr_t)(*n + 1);
	return &(*rows)[(*n)++];
}

/* Totals per directory, and per entry when @m is given. */
static void count(struct qu_cover *c, const struct qu_maintainers *m)
{
	struct qu_map dirs, ents;
	size_t dalloc = 0, malloc_ = 0, hal = 0, nh = 0;
	uint32_t *hits = NULL;
	const char *last_file = NULL;
	const char *last_dir = NULL;

	qu_map_init(&dirs);
	qu_map_init(&ents);
	/*
	 * Rows are found by name; a file's directory and entries are looked
	 * up once for its run of records (the records are sorted by file).
	 */
#define FILE_OF(f)                                                            \
	do {                                                                  \
		if (!last_file || strcmp(last_file, (f))) {                   \
			last_file = (f);                                      \
			last_dir = dir_of(&c->arena, (f));                    \
			if (m)                                                \
				qu_maint_match(&hits, &nh, &hal, m, (f));     \
		}                                                             \
	} while (0)

	for (size_t i = 0; i < c->nexports; i++) {
		const struct qu_cover_export *e = &c->exports[i];
		bool doc = e->doc >= 0;

		FILE_OF(e->file);
		struct qu_cover_row *r =
			row(&dirs, &c->dirs, &c->ndirs, &dalloc, last_dir);

		r->exports++;
		r->documented += doc;
		for (size_t h = 0; h < nh; h++) {
			r = row(&ents, &c->maint, &c->nmaint, &malloc_,
				m->v[hits[h]].name);
			r->exports++;
			r->documented += doc;
		}
		c->total.exports++;
		c->total.documented += doc;
	}
	last_file = NULL;
	for (size_t i = 0; i < c->nitems; i++) {
		const struct qu_cover_item *it = &c->items[i];
		bool ok = !it->nundescribed;

		if (!it->in_scope)
			continue;
		FILE_OF(it->file);
		struct qu_cover_row *r =
			row(&dirs, &c->dirs, &c->ndirs, &dalloc, last_dir);

		r->items++;
		r->complete += ok;
		for (size_t h = 0; h < nh; h++) {
			r = row(&ents, &c->maint, &c->nmaint, &malloc_,
				m->v[hits[h]].name);
			r->items++;
			r->complete += ok;
		}
		c->total.items++;
		c->total.complete += ok;
	}
#undef FILE_OF
	/* the rows move into the arena, sorted */
	if (c->ndirs)
		qsort(c->dirs, c->ndirs, sizeof(*c->dirs), cmp_row);
	if (c->nmaint)
		qsort(c->maint, c->nmaint, sizeof(*c->maint), cmp_row);
	/*
	 * Two MAINTAINERS entries with one title (it happens) share a row,
	 * since rows are found by name.
	 */
	free(hits);
	qu_map_fini(&dirs);
	qu_map_fini(&ents);
	c->total.name = "total";
}

void qu_cover_run(struct qu_cover *out, const struct qu_cover_input *in,
		  struct qu_diags *diags)
{
	struct qu_map scope, seen, docs;
	const char **paths;
	const char **given;
	struct run r;
	size_t n = 0, items_alloc = 0;

	memset(out, 0, sizeof(*out));
	qu_arena_init(&out->arena);
	qu_map_init(&scope);
	qu_map_init(&seen);
	qu_map_init(&docs);

	/* the files to read: the tree and the scope, each once, sorted */
	for (size_t i = 0; i < in->nscope; i++) {
		const char *p = strip_dot(in->scope[i]);

		qu_map_put(&scope, p, (void *)1);
	}
	paths = qu_xcalloc(in->ntree + in->nscope + 1, sizeof(*paths));
	given = qu_xcalloc(in->ntree + in->nscope + 1, sizeof(*given));
	for (size_t k = 0; k < 2; k++) {
		const char *const *v = k ? in->scope : in->tree;
		size_t nv = k ? in->nscope : in->ntree;

		for (size_t i = 0; i < nv; i++) {
			const char *p = strip_dot(v[i]);
			void **slot = qu_map_slot(&seen, p, strlen(p));

			if (*slot)
				continue;
			*slot = (void *)1;
			paths[n++] = p;
		}
	}
	qsort(paths, n, sizeof(*paths), cmp_str);
	r.slots = qu_xcalloc(n + 1, sizeof(*r.slots));
	for (size_t i = 0; i < n; i++) {
		r.slots[i].path = qu_arena_strdup(&out->arena, paths[i]);
		r.slots[i].in_scope =
			qu_map_get(&scope, paths[i], strlen(paths[i])) != NULL;
		given[i] = paths[i];
	}
	r.paths = given;
	qu_pool_run(in->threads, n, read_one, &r);
	out->nfiles = n;

	/*
	 * Join, in path order: the name of every documented item anywhere
	 * -> its first item in path order (slot + 1 << 32 | item).
	 */
	for (size_t i = 0; i < n; i++) {
		struct slot *s = &r.slots[i];

		qu_diags_move(diags, &s->diags);
		for (size_t k = 0; k < s->nitems; k++) {
			void **slot = qu_map_slot(&docs, s->items[k].name,
						  strlen(s->items[k].name));

			if (!*slot)
				*slot = (void *)(((uintptr_t)(i + 1) << 32) | k);
		}
	}

	/* each export's comment: the same file's, else the first anywhere */
	size_t nexp = 0;

	for (size_t i = 0; i < n; i++)
		nexp += r.slots[i].nexports;
	out->exports = qu_arena_alloc(&out->arena,
				      (nexp ? nexp : 1) * sizeof(*out->exports));
	uintptr_t *doc_of = qu_xcalloc(nexp + 1, sizeof(*doc_of));
	int64_t **idx = qu_xcalloc(n + 1, sizeof(*idx));

	for (size_t i = 0; i < n; i++) {
		idx[i] = qu_xmalloc((r.slots[i].nitems + 1) * sizeof(**idx));
		for (size_t k = 0; k < r.slots[i].nitems; k++)
			idx[i][k] = -1;
	}
	for (size_t i = 0; i < n; i++) {
		struct slot *s = &r.slots[i];

		for (size_t k = 0; k < s->nexports; k++) {
			const char *name = s->exports[k].name;
			uintptr_t d = 0;

			for (size_t j = 0; j < s->nitems && !d; j++)
				if (!strcmp(s->items[j].name, name))
					d = ((uintptr_t)(i + 1) << 32) | j;
			if (!d)
				d = (uintptr_t)qu_map_get(&docs, name,
							  strlen(name));
			doc_of[out->nexports] = d;
			/* marks the item as wanted */
			if (d)
				idx[(d >> 32) - 1][d & 0xffffffffu] = -2;
			out->exports[out->nexports++] = (struct qu_cover_export){
				.name = qu_arena_strdup(&out->arena, name),
				.macro = s->exports[k].macro,
				.file = s->path,
				.line = s->exports[k].line,
				.doc = -1,
			};
		}
	}

	/* the items: those in scope, then the wanted ones outside it */
	for (size_t pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++) {
			struct slot *s = &r.slots[i];

			for (size_t k = 0; k < s->nitems; k++) {
				const struct qu_cover_item *it = &s->items[k];
				struct qu_cover_item *c;

				if (pass == 0 ? !it->in_scope
					      : it->in_scope || idx[i][k] != -2)
					continue;
				QU_VEC_GROW(out->items, out->nitems,
					    items_alloc);
				c = &out->items[out->nitems];
				*c = *it;
				c->name = qu_arena_strdup(&out->arena, it->name);
				c->undescribed = qu_arena_alloc(
					&out->arena,
					(it->nundescribed + 1) *
						sizeof(*c->undescribed));
				for (size_t u = 0; u < it->nundescribed; u++)
					c->undescribed[u] = qu_arena_strdup(
						&out->arena, it->undescribed[u]);
				idx[i][k] = (int64_t)out->nitems++;
			}
		}
	}
	for (size_t e = 0; e < out->nexports; e++)
		if (doc_of[e])
			out->exports[e].doc =
				idx[(doc_of[e] >> 32) - 1][doc_of[e] & 0xffffffffu];
	if (out->nexports)
		qsort(out->exports, out->nexports, sizeof(*out->exports),
		      cmp_export);
	count(out, in->maint);

	for (size_t i = 0; i < n; i++) {
		free(idx[i]);
		qu_arena_fini(&r.slots[i].arena);
	}
	free(idx);
	free(doc_of);
	free(r.slots);
	free(paths);
	free(given);
	qu_map_fini(&scope);
	qu_map_fini(&seen);
	qu_map_fini(&docs);
}

void qu_cover_fini(struct qu_cover *c)
{
	free(c->items);
	free(c->dirs);
	free(c->maint);
	qu_arena_fini(&c->arena);
	memset(c, 0, sizeof(*c));
}
