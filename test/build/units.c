// SPDX-License-Identifier: MIT
/*
 * units.c - the unit cache gives back what it was given, and a unit read
 * back takes one block of its arena, of the size the entry's check said
 *
 * usage: test-units (the cache goes in a new folder under $TMPDIR, removed
 * at the end). Writes units of
 * every shape (no items, items with and without strings, parameters,
 * sections, exports and diagnostics, an empty string beside a missing
 * one), reads them back, and checks each field and each arena.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "build/build_int.h"

static int failures;

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: failed: %s\n", __FILE__,   \
				__LINE__, #cond);                          \
			failures++;                                        \
		}                                                          \
	} while (0)

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* unit @k: @k items, item i with i parameters and i % 3 sections */
static void make(struct qu_unit *u, struct qu_graph_exports *ex, size_t k)
{
	static const char *const text[] = {"", "x", "a longer string, 31 bytes",
					   NULL};
	size_t i, j;

	memset(u, 0, sizeof(*u));
	qu_arena_init(&u->arena);
	qu_diags_init(&u->diags);
	u->hash.lo = k;
	u->ncomments = k;
	u->nitems = k;
	u->items = k ? qu_arena_zalloc(&u->arena, k * sizeof(*u->items)) : NULL;
	for (i = 0; i < k; i++) {
		struct qu_item *it = &u->items[i];

		it->kind = (enum qu_kind)(i % 4);
		it->name = qu_arena_strdup(&u->arena, "name");
		it->brief = text[i % 4];
		it->decl = text[(i + 1) % 4];
		it->exported = text[(i + 2) % 4];
		it->line = (uint32_t)i;
		it->decl_line = (uint32_t)i + 1;
		it->nparams = i;
		it->params = i ? qu_arena_zalloc(&u->arena,
						 i * sizeof(*it->params))
			       : NULL;
		for (j = 0; j < i; j++) {
			it->params[j].name = text[j % 4];
			it->params[j].type = text[(j + 1) % 4];
			it->params[j].desc = text[(j + 3) % 4];
			it->params[j].line = (uint32_t)j;
		}
		it->nsections = i % 3;
		it->sections = it->nsections
				       ? qu_arena_zalloc(&u->arena,
							 it->nsections *
								 sizeof(*it->sections))
				       : NULL;
		for (j = 0; j < it->nsections; j++) {
			it->sections[j].title = text[(j + 2) % 4];
			it->sections[j].body = text[j % 4];
			it->sections[j].line = (uint32_t)j;
		}
	}
	ex->n = k % 2 ? k : 0;
	if (ex->n) {
		struct qu_export *v = qu_arena_zalloc(&u->arena, ex->n * sizeof(*v));

		for (i = 0; i < ex->n; i++) {
			v[i].name = text[i % 3];
			v[i].macro = "EXPORT_SYMBOL";
			v[i].line = (uint32_t)i;
		}
		ex->v = v;
	} else {
		ex->v = NULL;
	}
	if (k > 2)
		qu_diag(&u->diags, QU_W_UNDESCRIBED_PARAM, "f.c", 3, 1, "unit %zu",
			k);
}

static void compare(const struct qu_unit *a, const struct qu_graph_exports *ea,
		    const struct qu_unit *b, const struct qu_graph_exports *eb)
{
	size_t i, j;

	CHECK(a->nitems == b->nitems && a->ncomments == b->ncomments &&
	      a->hash.lo == b->hash.lo);
	for (i = 0; i < a->nitems && i < b->nitems; i++) {
		const struct qu_item *x = &a->items[i], *y = &b->items[i];

		CHECK(x->kind == y->kind && same(x->name, y->name) &&
		      same(x->brief, y->brief) && same(x->decl, y->decl) &&
		      same(x->exported, y->exported) && x->line == y->line &&
		      x->decl_line == y->decl_line);
		CHECK(x->nparams == y->nparams && x->nsections == y->nsections);
		for (j = 0; j < x->nparams && j < y->nparams; j++)
			CHECK(same(x->params[j].name, y->params[j].name) &&
			      same(x->params[j].type, y->params[j].type) &&
			      same(x->params[j].desc, y->params[j].desc) &&
			      x->params[j].line == y->params[j].line);
		for (j = 0; j < x->nsections && j < y->nsections; j++)
			CHECK(same(x->sections[j].title, y->sections[j].title) &&
			      same(x->sections[j].body, y->sections[j].body));
	}
	CHECK(ea->n == eb->n);
	for (i = 0; i < ea->n && i < eb->n; i++)
		CHECK(same(ea->v[i].name, eb->v[i].name) &&
		      same(ea->v[i].macro, eb->v[i].macro));
	CHECK(a->diags.n == b->diags.n);
	for (i = 0; i < a->diags.n && i < b->diags.n; i++)
		CHECK(a->diags.v[i].id == b->diags.v[i].id &&
		      !strcmp(a->diags.v[i].msg, b->diags.v[i].msg));
}

#define N 9

/*
 * A cache of more than QU_BIG_MIN bytes, whose rows a build reads into
 * huge pages: every unit loads as it was written. Then the same units
 * with texts twice as long, written while another reader holds the
 * database as it was, so that the rows stay in the WAL and outgrow the
 * database's file: they are moved to the heap, and load all the same.
 */
static void large(const char *dir)
{
	enum { L = 2500 };
	char (*paths)[16] = qu_xmalloc(L * sizeof(*paths));
	const char **pp = qu_xmalloc(L * sizeof(*pp));
	struct qu_unit *units = qu_xcalloc(L, sizeof(*units)), back;
	struct qu_graph_exports *ex = qu_xcalloc(L, sizeof(*ex)), exb;
	struct build_stat *st = qu_xcalloc(L, sizeof(*st));
	bool *ok = qu_xcalloc(L, sizeof(*ok)), *dirty = qu_xcalloc(L, sizeof(*dirty));
	char *text = qu_xmalloc(6001);
	struct build_units u;
	struct qu_buf err = QU_BUF_INIT, sub = QU_BUF_INIT, db = QU_BUF_INIT;
	sqlite3 *reader = NULL;
	sqlite3_stmt *snap = NULL;
	size_t k, loaded;

	qu_buf_addf(&sub, "%s/large", dir);
	qu_buf_addf(&db, "%s/units.sqlite", sub.buf);
	for (k = 0; k < L; k++) {
		snprintf(paths[k], sizeof(paths[k]), "l%05zu.c", k);
		pp[k] = paths[k];
		make(&units[k], &ex[k], 2);
		units[k].items[0].brief = text;
		st[k].size = k;
		ok[k] = dirty[k] = true;
	}
	for (int round = 0; round < 2; round++) {
		memset(text, 'a' + round, 3000 * (round + 1));
		text[3000 * (round + 1)] = 0;
		for (k = 0; k < L; k++)
			units[k].hash.lo = 100 + k + round * L;
		if (round) {
			/* a reader that keeps the database as it was */
			CHECK(sqlite3_open_v2(db.buf, &reader, SQLITE_OPEN_READONLY,
					      NULL) == SQLITE_OK);
			CHECK(sqlite3_exec(reader, "BEGIN", NULL, NULL, NULL) ==
			      SQLITE_OK);
			CHECK(sqlite3_prepare_v2(reader,
						 "SELECT count(*) FROM units",
						 -1, &snap, NULL) == SQLITE_OK &&
			      sqlite3_step(snap) == SQLITE_ROW);
		}
		CHECK(!build_units_read(&u, sub.buf, 1, true, true));
		CHECK(build_units_write(&u, 1, pp, st, units, ex, ok, dirty, L,
					&err) == 0);
		build_units_fini(&u);
		CHECK(!build_units_read(&u, sub.buf, 1, true, true) && u.n == L);
		CHECK(u.data.len > QU_BIG_MIN);
		/* in huge pages the first time, moved to the heap the second */
		CHECK(round ? !u.big : u.big > 0);
		loaded = 0;
		for (k = 0; k < L && k < u.n; k++) {
			const struct build_unit_entry *e =
				build_units_find(&u, pp[k]);

			memset(&exb, 0, sizeof(exb));
			if (!e || !build_units_load(&u, &back, &exb, e, pp[k]))
				continue;
			compare(&units[k], &ex[k], &back, &exb);
			loaded++;
			qu_arena_fini(&back.arena);
			qu_diags_fini(&back.diags);
		}
		CHECK(loaded == L);
		build_units_fini(&u);
	}
	sqlite3_finalize(snap);
	sqlite3_close(reader);
	for (k = 0; k < L; k++) {
		qu_arena_fini(&units[k].arena);
		qu_diags_fini(&units[k].diags);
	}
	free(paths);
	free(pp);
	free(units);
	free(ex);
	free(st);
	free(ok);
	free(dirty);
	free(text);
	qu_buf_fini(&err);
	qu_buf_fini(&sub);
	qu_buf_fini(&db);
}

/* every unit of @paths[0..n) loads from @u as @units has it */
static size_t load_all(struct build_units *u, const char *const *paths,
		       const struct qu_unit *units,
		       const struct qu_graph_exports *ex, size_t n)
{
	struct qu_unit back;
	struct qu_graph_exports exb;
	size_t k, loaded = 0;

	for (k = 0; k < n; k++) {
		const struct build_unit_entry *e = build_units_find(u, paths[k]);

		memset(&exb, 0, sizeof(exb));
		if (!e || !build_units_load(u, &back, &exb, e, paths[k]))
			continue;
		compare(&units[k], &ex[k], &back, &exb);
		loaded++;
		qu_arena_fini(&back.arena);
		qu_diags_fini(&back.diags);
	}
	return loaded;
}

static bool file_bytes(const char *path, struct qu_buf *out)
{
	struct qu_buf err = QU_BUF_INIT;
	int r;

	qu_buf_reset(out);
	r = qu_file_read(out, path, &err);
	qu_buf_fini(&err);
	return r == 0;
}

/*
 * The snapshot (units.snap): written after the rows, a read takes them
 * from it, mapped; a row written after it is read from the database over
 * its entry, and a new one is added; a write that removes a row makes a
 * snapshot of the state before it not taken (and not noted: nothing is
 * wrong), and writes the next one at once; a corrupt and a truncated
 * snapshot are each noted, and the rows come from the database.
 */
static void snapshot(const char *dir)
{
	enum { S = 6 };
	static const char *const paths[S] = {"s/a.c", "s/b.c", "s/c.c",
					     "s/d.c", "s/e.c", "s/f.c"};
	struct qu_unit units[S];
	struct qu_graph_exports ex[S];
	struct build_stat st[S];
	bool ok[S], dirty[S];
	struct build_units u;
	struct qu_buf err = QU_BUF_INIT, sub = QU_BUF_INIT, snap = QU_BUF_INIT;
	struct qu_buf was = QU_BUF_INIT, now = QU_BUF_INIT;
	size_t k;

	qu_buf_addf(&sub, "%s/snap", dir);
	qu_buf_addf(&snap, "%s/units.snap", sub.buf);
	for (k = 0; k < S; k++) {
		make(&units[k], &ex[k], k + 1);
		memset(&st[k], 0, sizeof(st[k]));
		st[k].size = k;
		ok[k] = dirty[k] = true;
	}
	/* the last source is new after the snapshot */
	ok[S - 1] = false;
	CHECK(!build_units_read(&u, sub.buf, 1, true, true) && u.n == 0);
	CHECK(build_units_write(&u, 1, paths, st, units, ex, ok, dirty, S,
				&err) == 0);
	CHECK(build_units_snap_write(&u, 1, &err) == 0);
	build_units_fini(&u);
	CHECK(file_bytes(snap.buf, &was));

	CHECK(!build_units_read(&u, sub.buf, 1, true, true));
	CHECK(u.snap_gen == 1 && u.ndelta == 0 && u.n == S - 1 && !u.snap_note);
	CHECK(load_all(&u, paths, units, ex, S - 1) == S - 1);
	/* an edit of one, and a new one: the snapshot stays as it is */
	memset(dirty, 0, sizeof(dirty));
	qu_arena_fini(&units[2].arena);
	qu_diags_fini(&units[2].diags);
	make(&units[2], &ex[2], 7);
	units[2].hash.lo = 99;
	st[2].size = 99;
	dirty[2] = true;
	ok[S - 1] = true;
	CHECK(build_units_write(&u, 1, paths, st, units, ex, ok, dirty, S,
				&err) == 0);
	CHECK(build_units_snap_write(&u, 1, &err) == 0);
	build_units_fini(&u);
	CHECK(file_bytes(snap.buf, &now) && now.len == was.len &&
	      !memcmp(now.buf, was.buf, was.len));

	CHECK(!build_units_read(&u, sub.buf, 1, true, true));
	CHECK(u.snap_gen == 1 && u.ndelta == 2 && u.n == S);
	{
		const struct build_unit_entry *e = build_units_find(&u, paths[2]);

		CHECK(e && e->st.size == 99 && e->hash.lo == 99);
	}
	CHECK(load_all(&u, paths, units, ex, S) == S);
	/* a source gone: its row is removed, and a snapshot made at once */
	ok[0] = false;
	memset(dirty, 0, sizeof(dirty));
	CHECK(build_units_write(&u, 1, paths, st, units, ex, ok, dirty, S,
				&err) == 0);
	CHECK(u.snap_stale);
	CHECK(build_units_snap_write(&u, 1, &err) == 0);
	build_units_fini(&u);
	CHECK(file_bytes(snap.buf, &now) && now.len != was.len);
	CHECK(!build_units_read(&u, sub.buf, 1, true, true));
	CHECK(u.snap_gen == 3 && u.ndelta == 0 && u.n == S - 1 &&
	      !build_units_find(&u, paths[0]));
	CHECK(load_all(&u, paths + 1, units + 1, ex + 1, S - 1) == S - 1);
	build_units_fini(&u);
	/* the snapshot from before the removal: not taken, not noted */
	CHECK(qu_file_write_atomic(snap.buf, was.buf, was.len, &err) == 0);
	CHECK(!build_units_read(&u, sub.buf, 1, true, true));
	CHECK(u.snap_gen == 0 && u.snap_note && !*u.snap_note &&
	      u.n == S - 1 && !build_units_find(&u, paths[0]));
	CHECK(load_all(&u, paths + 1, units + 1, ex + 1, S - 1) == S - 1);
	build_units_fini(&u);
	/* corrupt, then truncated: noted, and the rows come from SQLite */
	for (int way = 0; way < 2; way++) {
		CHECK(!build_units_read(&u, sub.buf, 1, true, true) &&
		      build_units_write(&u, 1, paths, st, units, ex, ok, dirty,
					S, &err) == 0);
		u.snap_stale = true;
		CHECK(build_units_snap_write(&u, 1, &err) == 0);
		build_units_fini(&u);
		CHECK(file_bytes(snap.buf, &now) && now.len > 100);
		if (way)
			now.len /= 2;
		else
			now.buf[now.len / 2] ^= 1;
		CHECK(qu_file_write_atomic(snap.buf, now.buf, now.len, &err) ==
		      0);
		CHECK(!build_units_read(&u, sub.buf, 1, true, true));
		CHECK(u.snap_gen == 0 && u.snap_note &&
		      !strcmp(u.snap_note, way ? "units.snap: truncated"
					       : "units.snap: corrupt (checksum)"));
		CHECK(u.n == S - 1 &&
		      load_all(&u, paths + 1, units + 1, ex + 1, S - 1) ==
			      S - 1);
		build_units_fini(&u);
	}
	for (k = 0; k < S; k++) {
		qu_arena_fini(&units[k].arena);
		qu_diags_fini(&units[k].diags);
	}
	qu_buf_fini(&err);
	qu_buf_fini(&sub);
	qu_buf_fini(&snap);
	qu_buf_fini(&was);
	qu_buf_fini(&now);
}

int main(int argc, char **argv)
{
	static const char *const paths[N] = {"a.c", "b.c", "c.c", "d.c", "e.c",
					     "f.c", "g.c", "h.c", "i.c"};
	struct qu_unit units[N], back;
	struct qu_graph_exports ex[N], exb;
	struct build_stat st[N];
	bool ok[N], dirty[N];
	struct build_units u;
	struct qu_buf err = QU_BUF_INIT, dir = QU_BUF_INIT;
	const char *why;
	size_t k;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: test-units\n");
		return 2;
	}
	qu_buf_adds(&dir, getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	qu_buf_adds(&dir, "/quire-units-XXXXXX");
	if (!mkdtemp(dir.buf)) {
		perror(dir.buf);
		return 1;
	}
	for (k = 0; k < N; k++) {
		make(&units[k], &ex[k], k);
		memset(&st[k], 0, sizeof(st[k]));
		st[k].size = k;
		ok[k] = dirty[k] = true;
	}
	why = build_units_read(&u, dir.buf, 1, true, false);
	if (why)
		fprintf(stderr, "%s\n", why);
	CHECK(!why && u.n == 0);
	CHECK(build_units_write(&u, 1, paths, st, units, ex, ok, dirty, N,
				&err) == 0);
	build_units_fini(&u);
	/* the strings copied (quire serve), then pointing into the bytes */
	for (int borrow = 0; borrow < 2; borrow++) {
	why = build_units_read(&u, dir.buf, 1, true, borrow);
	CHECK(!why && u.n == N);
	for (k = 0; k < N && k < u.n; k++) {
		const struct build_unit_entry *e = build_units_find(&u, paths[k]);

		CHECK(e != NULL);
		if (!e)
			continue;
		memset(&exb, 0, sizeof(exb));
		CHECK(build_units_load(&u, &back, &exb, e, paths[k]));
		compare(&units[k], &ex[k], &back, &exb);
		/* borrowed: the names lie in the bytes the cache gave */
		if (back.nitems)
			CHECK((back.items[0].name >= u.data.buf &&
			       back.items[0].name < u.data.buf + u.data.len) ==
			      borrow);
#ifndef QU_ARENA_DEBUG
		/*
		 * what the check counted is what the unit took: one block,
		 * filled to its end (none at all for a unit of nothing)
		 */
		CHECK(e->need || !back.arena.chunks);
		CHECK(!e->need || (back.arena.cur == back.arena.end &&
				   !*(void **)back.arena.chunks));
#endif
		qu_arena_fini(&back.arena);
		qu_diags_fini(&back.diags);
	}
	build_units_fini(&u);
	}
	for (k = 0; k < N; k++) {
		qu_arena_fini(&units[k].arena);
		qu_diags_fini(&units[k].diags);
	}
	large(dir.buf);
	snapshot(dir.buf);
	qu_buf_fini(&err);
	if (qu_rm_tree(dir.buf) < 0) {
		perror(dir.buf);
		failures++;
	}
	qu_buf_fini(&dir);
	if (failures)
		return 1;
	printf("ok: %d units written, read back and loaded\n", N);
	return 0;
}
