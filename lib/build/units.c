// SPDX-License-Identifier: MIT
/*
 * units.c - parsed sources kept between builds
 *
 * Part of lib/build. One file in the cache folder holds every unit of the
 * last build: its path, what stat(2) said of the file (size, mtime,
 * ctime, inode), its content hash, and its items, exports and
 * diagnostics. A source whose stat is unchanged is taken from it without
 * being read; one changed within two seconds of the cache's writing (a
 * "racily clean" file, whose mtime cannot tell an edit in the same tick)
 * is read and compared by content hash instead. The format, checks and
 * notes are those of cache.c.
 */
#include <assert.h>
#include <endian.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <xxhash.h>

#include "build_int.h"
#include "qu_config.h"

#define UNITS_MAGIC "quire-units\n"
#define UNITS_FORMAT 1
#define UNITS_FILE "units"
#define NO_STR 0xffffffffu
/* a file changed this close to the cache's writing is checked by hash */
#define RACY_NS (2ull * 1000000000ull)

struct rd {
	const unsigned char *p;
	size_t left;
	bool bad;
};

static uint32_t get_u32(struct rd *r)
{
	uint32_t v;

	if (r->bad || r->left < 4) {
		r->bad = true;
		return 0;
	}
	memcpy(&v, r->p, 4);
	r->p += 4;
	r->left -= 4;
	return le32toh(v);
}

static uint64_t get_u64(struct rd *r)
{
	uint64_t v;

	if (r->bad || r->left < 8) {
		r->bad = true;
		return 0;
	}
	memcpy(&v, r->p, 8);
	r->p += 8;
	r->left -= 8;
	return le64toh(v);
}

/* A string, or NULL; copied into @a when @a is given. */
static const char *get_str(struct rd *r, struct qu_arena *a, size_t *len)
{
	uint32_t n = get_u32(r);
	const char *s = (const char *)r->p;

	if (n == NO_STR || r->bad)
		return NULL;
	if (r->left < n) {
		r->bad = true;
		return NULL;
	}
	r->p += n;
	r->left -= n;
	if (len)
		*len = n;
	return a ? qu_arena_strndup(a, s, n) : s;
}

static void put_u32(struct qu_buf *b, uint32_t v)
{
	v = htole32(v);
	qu_buf_add(b, &v, 4);
}

static void put_u64(struct qu_buf *b, uint64_t v)
{
	v = htole64(v);
	qu_buf_add(b, &v, 8);
}

static void put_str(struct qu_buf *b, const char *s)
{
	size_t n;

	if (!s) {
		put_u32(b, NO_STR);
		return;
	}
	n = strlen(s);
	put_u32(b, (uint32_t)n);
	qu_buf_add(b, s, n);
}

/* strcmp() order of two strings given with their lengths */
static int cmp_path(const char *a, size_t al, const char *b, size_t bl)
{
	int d = memcmp(a, b, al < bl ? al : bl);

	return d ? d : (al > bl) - (al < bl);
}

static uint64_t ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000ull + (uint64_t)t->tv_nsec;
}

void build_stat_of(struct build_stat *out, const struct stat *st)
{
	out->size = (uint64_t)st->st_size;
	out->mtime = ns(&st->st_mtim);
	out->ctime = ns(&st->st_ctim);
	out->ino = (uint64_t)st->st_ino;
}

/* Skip one unit's body, checking its shape; false when malformed. */
static bool skip_body(struct rd *r)
{
	uint32_t n, k, j;

	n = get_u32(r);
	for (k = 0; k < n && !r->bad; k++) {
		get_u32(r);
		get_str(r, NULL, NULL);
		get_str(r, NULL, NULL);
		get_str(r, NULL, NULL);
		get_u32(r);
		get_u32(r);
		get_str(r, NULL, NULL);
		for (j = get_u32(r); j && !r->bad; j--) {
			get_str(r, NULL, NULL);
			get_str(r, NULL, NULL);
			get_str(r, NULL, NULL);
			get_u32(r);
		}
		for (j = get_u32(r); j && !r->bad; j--) {
			get_str(r, NULL, NULL);
			get_str(r, NULL, NULL);
			get_u32(r);
		}
	}
	for (n = get_u32(r); n && !r->bad; n--) {
		get_str(r, NULL, NULL);
		get_str(r, NULL, NULL);
		get_u32(r);
	}
	for (n = get_u32(r); n && !r->bad; n--) {
		size_t len;
		const char *name = get_str(r, NULL, &len);
		enum qu_diag_id id;

		if (!name || !build_diag_by_name(&id, name, len))
			r->bad = true;
		get_u32(r);
		get_u32(r);
		get_str(r, NULL, NULL);
	}
	return !r->bad;
}

const char *build_units_read(struct build_units *u, const char *dir,
			     uint64_t exe)
{
	struct qu_buf path = QU_BUF_INIT, err = QU_BUF_INIT;
	const char *why = NULL, *s;
	uint64_t sum, n, i;
	size_t len;
	struct rd r;

	memset(u, 0, sizeof(*u));
	qu_buf_init(&u->data);
	qu_buf_addf(&path, "%s/%s", dir, UNITS_FILE);
	if (qu_file_read(&u->data, path.buf, &err) < 0)
		goto out;
	if (u->data.len < 8) {
		why = "truncated";
		goto out;
	}
	memcpy(&sum, u->data.buf + u->data.len - 8, 8);
	if (le64toh(sum) != XXH3_64bits(u->data.buf, u->data.len - 8)) {
		why = "corrupt (checksum)";
		goto out;
	}
	r.p = (const unsigned char *)u->data.buf;
	r.left = u->data.len - 8;
	r.bad = false;
	if (r.left < sizeof(UNITS_MAGIC) - 1 ||
	    memcmp(r.p, UNITS_MAGIC, sizeof(UNITS_MAGIC) - 1)) {
		why = "not a quire cache";
		goto out;
	}
	r.p += sizeof(UNITS_MAGIC) - 1;
	r.left -= sizeof(UNITS_MAGIC) - 1;
	if (get_u32(&r) != UNITS_FORMAT) {
		why = "written in another format";
		goto out;
	}
	s = get_str(&r, NULL, &len);
	if (!s || len != strlen(QU_VERSION) || memcmp(s, QU_VERSION, len) ||
	    get_u64(&r) != exe) {
		why = r.bad ? "truncated" : "written by another quire";
		goto out;
	}
	u->written = get_u64(&r);
	n = get_u64(&r);
	if (r.bad || n > r.left / 48) {
		why = "truncated";
		goto out;
	}
	u->v = qu_xcalloc(n + 1, sizeof(*u->v));
	for (i = 0; i < n; i++) {
		struct build_unit_entry *e = &u->v[i];

		e->path = get_str(&r, NULL, &len);
		if (!e->path)
			break;
		e->path_len = len;
		e->st.size = get_u64(&r);
		e->st.mtime = get_u64(&r);
		e->st.ctime = get_u64(&r);
		e->st.ino = get_u64(&r);
		e->hash = get_u64(&r);
		e->ncomments = get_u64(&r);
		e->body = r.p;
		if (!skip_body(&r))
			break;
		e->body_len = (size_t)(r.p - e->body);
		if (i && cmp_path(u->v[i - 1].path, u->v[i - 1].path_len,
				  e->path, e->path_len) >= 0) {
			why = "corrupt (units out of order)";
			goto out;
		}
		u->n++;
	}
	if (r.bad || u->n != n)
		why = "truncated";
	else if (r.left)
		why = "corrupt (bytes after the end)";
out:
	if (why)
		build_units_fini(u);
	qu_buf_fini(&path);
	qu_buf_fini(&err);
	return why;
}

const struct build_unit_entry *build_units_find(const struct build_units *u,
						const char *path)
{
	size_t lo = 0, hi = u->n, pl = strlen(path);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct build_unit_entry *e = &u->v[mid];
		int d = cmp_path(path, pl, e->path, e->path_len);

		if (!d)
			return e;
		if (d < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

bool build_units_fresh(const struct build_units *u,
		       const struct build_unit_entry *e,
		       const struct build_stat *st)
{
	return e->st.size == st->size && e->st.mtime == st->mtime &&
	       e->st.ctime == st->ctime && e->st.ino == st->ino &&
	       st->mtime + RACY_NS < u->written &&
	       st->ctime + RACY_NS < u->written;
}

void build_units_load(struct qu_unit *unit, struct qu_graph_exports *ex,
		      const struct build_unit_entry *e, const char *diag_path)
{
	struct rd r = {e->body, e->body_len, false};
	uint32_t n, k, j;

	memset(unit, 0, sizeof(*unit));
	qu_arena_init(&unit->arena);
	qu_diags_init(&unit->diags);
	unit->hash = e->hash;
	unit->ncomments = (size_t)e->ncomments;
	n = get_u32(&r);
	unit->items = n ? qu_arena_alloc(&unit->arena,
					 n * sizeof(*unit->items))
			: NULL;
	unit->nitems = n;
	for (k = 0; k < n; k++) {
		struct qu_item *it = &unit->items[k];

		memset(it, 0, sizeof(*it));
		it->kind = (enum qu_kind)get_u32(&r);
		it->name = get_str(&r, &unit->arena, NULL);
		it->brief = get_str(&r, &unit->arena, NULL);
		it->decl = get_str(&r, &unit->arena, NULL);
		it->line = get_u32(&r);
		it->decl_line = get_u32(&r);
		it->exported = get_str(&r, &unit->arena, NULL);
		it->nparams = get_u32(&r);
		it->params = it->nparams
				     ? qu_arena_alloc(&unit->arena,
						      it->nparams *
							      sizeof(*it->params))
				     : NULL;
		for (j = 0; j < it->nparams; j++) {
			it->params[j].name = get_str(&r, &unit->arena, NULL);
			it->params[j].type = get_str(&r, &unit->arena, NULL);
			it->params[j].desc = get_str(&r, &unit->arena, NULL);
			it->params[j].line = get_u32(&r);
		}
		it->nsections = get_u32(&r);
		it->sections =
			it->nsections
				? qu_arena_alloc(&unit->arena,
						 it->nsections *
							 sizeof(*it->sections))
				: NULL;
		for (j = 0; j < it->nsections; j++) {
			it->sections[j].title =
				get_str(&r, &unit->arena, NULL);
			it->sections[j].body = get_str(&r, &unit->arena, NULL);
			it->sections[j].line = get_u32(&r);
		}
	}
	n = get_u32(&r);
	if (n) {
		struct qu_export *v =
			qu_arena_alloc(&unit->arena, n * sizeof(*v));

		for (k = 0; k < n; k++) {
			v[k].name = get_str(&r, &unit->arena, NULL);
			v[k].macro = get_str(&r, &unit->arena, NULL);
			v[k].line = get_u32(&r);
		}
		ex->v = v;
		ex->n = n;
	}
	for (n = get_u32(&r); n; n--) {
		size_t len, mlen;
		const char *name = get_str(&r, NULL, &len);
		enum qu_diag_id id = QU_W_UNREADABLE;
		uint32_t line, col;
		const char *msg;

		build_diag_by_name(&id, name, len);
		line = get_u32(&r);
		col = get_u32(&r);
		msg = get_str(&r, NULL, &mlen);
		qu_diag(&unit->diags, id, diag_path, line, col, "%.*s",
			(int)mlen, msg ? msg : "");
	}
	assert(!r.bad && !r.left);
}

static void put_unit(struct qu_buf *b, const struct qu_unit *u,
		     const struct qu_graph_exports *ex)
{
	size_t k, j;

	put_u32(b, (uint32_t)u->nitems);
	for (k = 0; k < u->nitems; k++) {
		const struct qu_item *it = &u->items[k];

		put_u32(b, (uint32_t)it->kind);
		put_str(b, it->name);
		put_str(b, it->brief);
		put_str(b, it->decl);
		put_u32(b, it->line);
		put_u32(b, it->decl_line);
		put_str(b, it->exported);
		put_u32(b, (uint32_t)it->nparams);
		for (j = 0; j < it->nparams; j++) {
			put_str(b, it->params[j].name);
			put_str(b, it->params[j].type);
			put_str(b, it->params[j].desc);
			put_u32(b, it->params[j].line);
		}
		put_u32(b, (uint32_t)it->nsections);
		for (j = 0; j < it->nsections; j++) {
			put_str(b, it->sections[j].title);
			put_str(b, it->sections[j].body);
			put_u32(b, it->sections[j].line);
		}
	}
	put_u32(b, (uint32_t)ex->n);
	for (k = 0; k < ex->n; k++) {
		put_str(b, ex->v[k].name);
		put_str(b, ex->v[k].macro);
		put_u32(b, ex->v[k].line);
	}
	put_u32(b, (uint32_t)u->diags.n);
	for (k = 0; k < u->diags.n; k++) {
		put_str(b, qu_diag_info(u->diags.v[k].id)->name);
		put_u32(b, u->diags.v[k].line);
		put_u32(b, u->diags.v[k].col);
		put_str(b, u->diags.v[k].msg);
	}
}

struct sort_ctx {
	const char *const *paths;
};

static int cmp_order(const void *a, const void *b, void *payload)
{
	const struct sort_ctx *c = payload;

	return strcmp(c->paths[*(const size_t *)a],
		      c->paths[*(const size_t *)b]);
}

int build_units_write(const char *dir, uint64_t exe, const char *const *paths,
		      const struct build_stat *st, const struct qu_unit *units,
		      const struct qu_graph_exports *ex, const bool *ok,
		      size_t n, struct qu_buf *err)
{
	struct qu_buf b = QU_BUF_INIT, path = QU_BUF_INIT;
	struct timespec now;
	size_t i, count = 0;
	int r;

	size_t *order = qu_xcalloc(n + 1, sizeof(*order));
	struct sort_ctx ctx = {paths};

	clock_gettime(CLOCK_REALTIME, &now);
	for (i = 0; i < n; i++) {
		count += ok[i];
		order[i] = i;
	}
	/* lookups bisect: strcmp order */
	qsort_r(order, n, sizeof(*order), cmp_order, &ctx);
	qu_buf_add(&b, UNITS_MAGIC, sizeof(UNITS_MAGIC) - 1);
	put_u32(&b, UNITS_FORMAT);
	put_str(&b, QU_VERSION);
	put_u64(&b, exe);
	put_u64(&b, ns(&now));
	put_u64(&b, count);
	for (size_t o = 0; o < n; o++) {
		i = order[o];
		if (!ok[i])
			continue;
		put_str(&b, paths[i]);
		put_u64(&b, st[i].size);
		put_u64(&b, st[i].mtime);
		put_u64(&b, st[i].ctime);
		put_u64(&b, st[i].ino);
		put_u64(&b, units[i].hash);
		put_u64(&b, units[i].ncomments);
		put_unit(&b, &units[i], &ex[i]);
	}
	free(order);
	put_u64(&b, XXH3_64bits(b.buf, b.len));
	qu_buf_addf(&path, "%s/%s", dir, UNITS_FILE);
	r = qu_mkdir_p(dir, err);
	if (!r)
		r = qu_file_write_atomic(path.buf, b.buf, b.len, err);
	qu_buf_fini(&b);
	qu_buf_fini(&path);
	return r;
}

void build_units_fini(struct build_units *u)
{
	free(u->v);
	qu_buf_fini(&u->data);
	memset(u, 0, sizeof(*u));
}
