// SPDX-License-Identifier: MIT
/*
 * units.c - parsed sources kept between builds, in SQLite
 *
 * Part of lib/build. One SQLite database in the cache folder holds every
 * unit of the last build: its path, what stat(2) said of the file (size,
 * mtime, ctime, inode), its content hash, and its items, exports and
 * diagnostics encoded in one blob with a checksum. A source whose stat is
 * unchanged is taken from it without being read; one changed within two
 * seconds of the cache's writing (a "racily clean" file, whose mtime
 * cannot tell an edit in the same tick) is read and compared by content
 * hash instead. SQLite because a build after an edit rewrites one row, not
 * the whole cache (docs/commands/build.md has the measurement), and
 * because its transactions survive a crash. A database that is corrupt,
 * of another format or written by another quire is emptied with a note.
 * Beside it, a snapshot of every row (units.snap, below) that quire build
 * maps, reading from SQLite only the rows written since.
 */
#include <assert.h>
#include <endian.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <sqlite3.h>
#include <unistd.h>
#include <xxhash.h>

#include "build_int.h"
#include "qu_config.h"

#define UNITS_FORMAT "4"
#define UNITS_FILE "units.sqlite"
#define SNAP_FILE "units.snap"
/* a snapshot is written anew when more rows than this are newer */
#define SNAP_DELTA_MIN 256
/* a file changed this close to the cache's writing is checked by hash */
#define RACY_NS (2ull * 1000000000ull)

/* strcmp() order of two strings given with their lengths */
static int cmp_path(const char *a, size_t al, const char *b, size_t bl)
{
	int d = memcmp(a, b, al < bl ? al : bl);

	return d ? d : (al > bl) - (al < bl);
}

static int cmp_entry(const void *a, const void *b)
{
	const struct build_unit_entry *x = a, *y = b;

	return cmp_path(x->path, x->path_len, y->path, y->path_len);
}

static uint64_t ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000ull + (uint64_t)t->tv_nsec;
}

void build_stat_of(struct build_stat *out, const struct qu_fstat *st)
{
	/* a blob's id, for a revision's file (struct qu_fstat) */
	out->size = st->size;
	out->mtime = st->mtime;
	out->ctime = st->ctime;
	out->ino = st->ino;
}

/*
 * A unit's strings are written with their NUL, so that a unit loaded
 * from the bytes read can point into them instead of copying each.
 */
static void put_str0(struct qu_buf *b, const char *s)
{
	build_put_str(b, s);
	if (s)
		qu_buf_addc(b, 0);
}

/*
 * The next string, or NULL (written as NULL, or malformed: then @r->bad):
 * copied into @a when given, else pointing into the bytes
 */
static const char *get_str0(struct build_rd *r, struct qu_arena *a,
			    size_t *len)
{
	size_t n;
	const char *s = build_get_str(r, NULL, &n);

	if (len)
		*len = n;
	if (!s)
		return NULL;
	if (!r->left || *r->p) {
		r->bad = true;
		return NULL;
	}
	r->p++;
	r->left--;
	return a ? qu_arena_strndup(a, s, n) : s;
}

/*
 * The arena bytes build_units_load() takes for a string of the body: none
 * when it points into the bytes (@borrow)
 */
static size_t str_need(struct build_rd *r, bool borrow)
{
	size_t len;

	return get_str0(r, NULL, &len) && !borrow ? qu_arena_need(len + 1)
						  : 0;
}

static size_t array_need(uint32_t n, size_t size)
{
	return n ? qu_arena_need((size_t)n * size) : 0;
}

/*
 * Skip one unit's body, checking its shape; false when malformed. *@need
 * is what build_units_load() will allocate for it, so that the unit's
 * arena takes one block of that size.
 */
static bool skip_body(struct build_rd *r, size_t *need, bool borrow)
{
	uint32_t n, k, j;
	size_t sum;

	n = build_get_u32(r);
	sum = array_need(n, sizeof(struct qu_item));
	for (k = 0; k < n && !r->bad; k++) {
		build_get_u32(r);
		sum += str_need(r, borrow);
		sum += str_need(r, borrow);
		sum += str_need(r, borrow);
		build_get_u32(r);
		build_get_u32(r);
		sum += str_need(r, borrow);
		j = build_get_u32(r);
		sum += array_need(j, sizeof(struct qu_param));
		for (; j && !r->bad; j--) {
			sum += str_need(r, borrow);
			sum += str_need(r, borrow);
			sum += str_need(r, borrow);
			build_get_u32(r);
		}
		j = build_get_u32(r);
		sum += array_need(j, sizeof(struct qu_section));
		for (; j && !r->bad; j--) {
			sum += str_need(r, borrow);
			sum += str_need(r, borrow);
			build_get_u32(r);
		}
	}
	n = build_get_u32(r);
	sum += array_need(n, sizeof(struct qu_export));
	for (; n && !r->bad; n--) {
		sum += str_need(r, borrow);
		sum += str_need(r, borrow);
		build_get_u32(r);
	}
	for (n = build_get_u32(r); n && !r->bad; n--) {
		size_t len;
		const char *name = get_str0(r, NULL, &len);
		enum qu_diag_id id;

		if (!name || !build_diag_by_name(&id, name, len))
			r->bad = true;
		build_get_u32(r);
		build_get_u32(r);
		get_str0(r, NULL, NULL);
	}
	*need = sum;
	return !r->bad;
}

/* A statement's text column, or "" */
static const char *col_text(sqlite3_stmt *st, int i, size_t *len)
{
	const char *t = (const char *)sqlite3_column_text(st, i);

	*len = (size_t)sqlite3_column_bytes(st, i);
	return t ? t : "";
}

static const char *meta(sqlite3 *db, const char *key, struct qu_buf *out)
{
	sqlite3_stmt *st = NULL;
	const char *r = NULL;

	qu_buf_reset(out);
	if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?", -1,
			       &st, NULL) == SQLITE_OK &&
	    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		size_t n;
		const char *t = col_text(st, 0, &n);

		qu_buf_add(out, t, n);
		r = out->buf;
	}
	sqlite3_finalize(st);
	return r;
}

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);"
	"CREATE TABLE IF NOT EXISTS units (path TEXT PRIMARY KEY, size INTEGER,"
	" mtime INTEGER, ctime INTEGER, ino INTEGER, hash INTEGER,"
	" ncomments INTEGER, body BLOB, sum INTEGER, hash_hi INTEGER,"
	" gen INTEGER);"
	"CREATE INDEX IF NOT EXISTS units_gen ON units (gen);";

/* Whether the database is in WAL mode, as open_db() leaves it. */
static bool is_wal(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	bool r = false;

	if (sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL) ==
		    SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		size_t n;
		const char *mode = col_text(st, 0, &n);

		r = n == 3 && !memcmp(mode, "wal", 3);
	}
	sqlite3_finalize(st);
	return r;
}

/*
 * Open the database; -1 when it is not one. With @make, one that is
 * missing is made, in WAL mode and with the schema; without, only one
 * some build made is opened, and nothing in it is changed.
 */
static int open_db(sqlite3 **db, const char *path, bool make)
{
	if (sqlite3_open_v2(path, db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
				    (make ? SQLITE_OPEN_CREATE : 0),
			    NULL) != SQLITE_OK)
		return -1;
	sqlite3_busy_timeout(*db, 5000);
	if ((make && sqlite3_exec(*db, "PRAGMA journal_mode=WAL;", NULL, NULL,
				  NULL) != SQLITE_OK) ||
	    sqlite3_exec(*db,
			 /*
			  * mapped, a scan of the keys is no longer a
			  * pread() of every page (12,600 on a kernel tree)
			  */
			 "PRAGMA synchronous=NORMAL; "
			 "PRAGMA mmap_size=1073741824;",
			 NULL, NULL, NULL) != SQLITE_OK ||
	    (make ? sqlite3_exec(*db, schema, NULL, NULL, NULL) != SQLITE_OK
		  : !is_wal(*db)))
		return -1;
	return 0;
}

/* An empty @u for the database of the cache folder @dir */
static void units_init(struct build_units *u, const char *dir)
{
	struct qu_buf path = QU_BUF_INIT;

	memset(u, 0, sizeof(*u));
	qu_buf_init(&u->data);
	pthread_mutex_init(&u->lock, NULL);
	qu_buf_add_path(&path, dir, UNITS_FILE);
	u->path = qu_buf_detach(&path, NULL);
}

/* The snapshot's file, beside the database @db_path */
static void snap_path(struct qu_buf *b, const char *db_path)
{
	const char *sl = strrchr(db_path, '/');

	qu_buf_reset(b);
	if (sl)
		qu_buf_add(b, db_path, (size_t)(sl - db_path) + 1);
	qu_buf_adds(b, SNAP_FILE);
}

/* Unmap the snapshot; the entries taken from it go with it. */
static void snap_drop(struct build_units *u)
{
	qu_file_unmap(u->snap, u->snap_len);
	u->snap = NULL;
	u->snap_len = 0;
	u->snap_gen = 0;
}

static void remove_db(const char *path)
{
	struct qu_buf p = QU_BUF_INIT;

	unlink(path);
	qu_buf_addf(&p, "%s-wal", path);
	unlink(p.buf);
	qu_buf_reset(&p);
	qu_buf_addf(&p, "%s-shm", path);
	unlink(p.buf);
	snap_path(&p, path);
	unlink(p.buf);
	qu_buf_fini(&p);
}

/*
 * The rows' bytes of a large cache in huge pages (qu_big_alloc()): a
 * kernel tree's are 52 MB, 13,000 page faults of 4 KB. @u->big says so.
 */
static void data_drop(struct build_units *u, bool keep);

static void data_big(struct build_units *u, size_t size)
{
	data_drop(u, false);
	u->data.buf = qu_big_alloc(size + 1);
	u->data.alloc = size + 1;
	u->data.len = 0;
	u->big = size + 1;
}

/* The rows' bytes moved to the heap, where they may grow */
static void data_unbig(struct build_units *u)
{
	struct qu_buf b = QU_BUF_INIT;

	qu_buf_grow(&b, u->data.len + 1);
	qu_buf_add(&b, u->data.buf, u->data.len);
	qu_big_free(u->data.buf, u->big);
	u->data = b;
	u->big = 0;
}

/* Free the rows' bytes, or keep them for the units that point into them. */
static void data_drop(struct build_units *u, bool keep)
{
	if (keep) {
		QU_VEC_GROW(u->kept, u->nkept, u->kept_alloc);
		u->kept[u->nkept].big = u->big;
		u->kept[u->nkept++].p = u->big ? u->data.buf
					       : qu_buf_detach(&u->data, NULL);
	} else if (u->big) {
		qu_big_free(u->data.buf, u->big);
	} else {
		qu_buf_fini(&u->data);
	}
	qu_buf_init(&u->data);
	u->big = 0;
}

/*
 * The snapshot (units.snap): every row of the database as of generation
 * @gen, in path order, written after a build whose rows had drifted from
 * the last one (build_units_snap_write()). A build maps it and takes the
 * entries from it, pointing into the mapping, and reads from the
 * database only the rows newer than it: the kernel's 55,000 rows (52 MB)
 * cost a step of SQLite and a copy each otherwise. Native byte order: it
 * is only read by the executable that wrote it. The form: the magic, then
 * each row (struct snap_ent, its path with a NUL, its body), then struct
 * snap_tail, whose last field is the XXH3 of every byte before it.
 */
#define SNAP_MAGIC "qusnap01"

struct snap_ent {
	uint64_t path_len, body_len;
	uint64_t size, mtime, ctime, ino, hash_lo, hash_hi, ncomments;
};

struct snap_tail {
	uint64_t exe, id, gen, n;
	char magic[8];
	uint64_t sum;
};

/* A meta value as a number, 0 when missing. */
static uint64_t meta_u64(sqlite3 *db, const char *key, struct qu_buf *m)
{
	const char *v = meta(db, key, m);

	return v ? strtoull(v, NULL, 16) : 0;
}

/*
 * Check the snapshot's bytes against the database (its id, and a
 * generation from @from to @gen) and make @u's entries from them; a
 * reason when it cannot be taken, for the cache's note ("" for one of an
 * earlier state of the database: no defect, the build writes it anew).
 * Every length and body is checked, and the paths must come in strictly
 * increasing order.
 */
static const char *snap_entries(struct build_units *u, const void *data,
				size_t len, uint64_t exe, uint64_t id,
				uint64_t from, uint64_t gen)
{
	const char *p = data, *end;
	struct snap_tail t;
	size_t i;

	if (len < 8 + sizeof(t))
		return "units.snap: truncated";
	memcpy(&t, p + len - sizeof(t), sizeof(t));
	if (memcmp(p, SNAP_MAGIC, 8) || memcmp(t.magic, SNAP_MAGIC, 8))
		return "units.snap: truncated";
	if (t.sum != XXH3_64bits(p, len - 8))
		return "units.snap: corrupt (checksum)";
	if (t.exe != exe)
		return "units.snap: written by another quire";
	if (t.id != id || !t.gen || t.gen < from || t.gen > gen)
		return "";
	end = p + len - sizeof(t);
	p += 8;
	if (t.n > (size_t)(end - p) / sizeof(struct snap_ent))
		return "units.snap: corrupt (an entry)";
	u->v = qu_xcalloc(t.n + 1, sizeof(*u->v));
	for (i = 0; i < t.n; i++) {
		struct build_unit_entry *e = &u->v[i];
		struct snap_ent se;
		struct build_rd r;

		if ((size_t)(end - p) < sizeof(se))
			return "units.snap: corrupt (an entry)";
		memcpy(&se, p, sizeof(se));
		p += sizeof(se);
		if (se.path_len >= (size_t)(end - p) || p[se.path_len] ||
		    se.body_len > (size_t)(end - p) - se.path_len - 1)
			return "units.snap: corrupt (an entry)";
		e->path = p;
		e->path_len = se.path_len;
		p += se.path_len + 1;
		e->body = (const unsigned char *)p;
		e->body_len = se.body_len;
		p += se.body_len;
		e->st.size = se.size;
		e->st.mtime = se.mtime;
		e->st.ctime = se.ctime;
		e->st.ino = se.ino;
		e->hash.lo = se.hash_lo;
		e->hash.hi = se.hash_hi;
		e->ncomments = se.ncomments;
		if (i && cmp_entry(&u->v[i - 1], e) >= 0)
			return "units.snap: corrupt (out of order)";
		r.p = e->body;
		r.left = e->body_len;
		r.bad = false;
		if (!skip_body(&r, &e->need, u->borrow) || r.left)
			return "units.snap: corrupt (a unit does not parse)";
		u->n = i + 1;
	}
	if (p != end)
		return "units.snap: corrupt (an entry)";
	u->snap_gen = t.gen;
	return NULL;
}

const char *build_units_snap_read(struct build_units *u, const void *data,
				  size_t len, uint64_t exe, uint64_t id,
				  uint64_t from, uint64_t gen)
{
	const char *why = snap_entries(u, data, len, exe, id, from, gen);

	if (why) {
		free(u->v);
		u->v = NULL;
		u->n = 0;
		u->snap_gen = 0;
	}
	return why;
}

/*
 * Take the snapshot, when it is there and fits the database: @u->v from
 * it, @u->snap its mapping. Any other snapshot is left alone (the build
 * writes a new one) and noted in @u->snap_note.
 */
static void snap_take(struct build_units *u, uint64_t exe, uint64_t from)
{
	struct qu_buf path = QU_BUF_INIT;
	const void *map;
	size_t len;

	snap_path(&path, u->path);
	if (qu_file_map(path.buf, &map, &len) == 0) {
		const char *why = build_units_snap_read(u, map, len, exe,
							u->id, from, u->gen);

		if (why) {
			u->snap_note = why;
			qu_file_unmap(map, len);
		} else {
			u->snap = map;
			u->snap_len = len;
		}
	}
	qu_buf_fini(&path);
}

/*
 * Fold the rows read after the snapshot's entries (from @first on) into
 * them: a row replaces the entry of its path, or is added.
 */
static void snap_merge(struct build_units *u, size_t first)
{
	size_t i, k = first;

	for (i = first; i < u->n; i++) {
		struct build_unit_entry *e = &u->v[i];
		size_t lo = 0, hi = first;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int d = cmp_entry(e, &u->v[mid]);

			if (!d) {
				lo = mid;
				break;
			}
			if (d < 0)
				hi = mid;
			else
				lo = mid + 1;
		}
		if (lo < first && !cmp_entry(e, &u->v[lo]))
			u->v[lo] = *e;
		else
			u->v[k++] = *e;
	}
	u->n = k;
}

/*
 * Every row, copied into @u->data (without the bodies unless @bodies); a
 * reason when the rows cannot be used.
 */
static const char *load_rows(struct build_units *u, uint64_t exe,
			     bool bodies)
{
	struct qu_buf m = QU_BUF_INIT;
	sqlite3_stmt *st = NULL;
	const char *why = NULL, *v;
	size_t alloc = 0, i, first;
	int rc;

	v = meta(u->db, "format", &m);
	if (!v) {
		/* a new database, or one no build finished writing */
		goto out;
	}
	if (strcmp(v, UNITS_FORMAT)) {
		why = "written in another format";
		goto out;
	}
	v = meta(u->db, "quire", &m);
	if (!v || strcmp(v, QU_VERSION)) {
		why = "written by another quire";
		goto out;
	}
	v = meta(u->db, "exe", &m);
	if (!v || strtoull(v, NULL, 16) != exe) {
		why = "written by another quire";
		goto out;
	}
	v = meta(u->db, "written", &m);
	u->written = v ? strtoull(v, NULL, 10) : 0;
	u->gen = meta_u64(u->db, "gen", &m);
	u->id = meta_u64(u->db, "id", &m);
	/* the entries from the snapshot, then the rows newer than it */
	if (bodies && u->borrow && u->id)
		snap_take(u, exe, meta_u64(u->db, "snap_from", &m));
	first = u->n;
	alloc = u->v ? first + 1 : 0;
	if (sqlite3_prepare_v2(u->db,
			       !bodies ? "SELECT path, size, mtime, ctime, ino, "
					 "hash, ncomments, NULL, 0, hash_hi "
					 "FROM units"
			       : first ? "SELECT path, size, mtime, ctime, ino, "
					 "hash, ncomments, body, sum, hash_hi "
					 "FROM units WHERE gen > ?"
				       : "SELECT path, size, mtime, ctime, ino, "
					 "hash, ncomments, body, sum, hash_hi "
					 "FROM units",
			       -1, &st, NULL) != SQLITE_OK ||
	    (first && sqlite3_bind_int64(st, 1, (sqlite3_int64)u->snap_gen) !=
			      SQLITE_OK) ||
	    (!bodies && sqlite3_prepare_v2(u->db,
					   "SELECT body, sum FROM units "
					   "WHERE path = ?",
					   -1, &u->get, NULL) != SQLITE_OK)) {
		why = "corrupt";
		goto out;
	}
	/*
	 * Rows first, then one copy of their bytes the entries point into;
	 * the database's size bounds them, so that the copy never moves
	 */
	if (!first) {
		struct stat sb;

		if (!stat(u->path, &sb) && sb.st_size > 0) {
			if (bodies && (size_t)sb.st_size >= QU_BIG_MIN)
				data_big(u, (size_t)sb.st_size);
			else
				qu_buf_grow(&u->data, (size_t)sb.st_size);
		}
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct build_unit_entry *e;
		size_t pl, bl;
		const char *path = col_text(st, 0, &pl);
		const void *body = sqlite3_column_blob(st, 7);

		if (u->cancel && !(u->n & 255) &&
		    atomic_load_explicit(u->cancel, memory_order_relaxed)) {
			why = "not needed";
			goto out;
		}
		bl = (size_t)sqlite3_column_bytes(st, 7);
		if (bodies && (uint64_t)sqlite3_column_int64(st, 8) !=
				      XXH3_64bits(body ? body : "", bl)) {
			why = "corrupt (checksum)";
			goto out;
		}
		/* rows the WAL holds may pass the database's size */
		if (u->big && u->data.len + pl + bl + 2 >= u->data.alloc)
			data_unbig(u);
		if (u->n == alloc) {
			alloc = alloc ? 2 * alloc : 1024;
			u->v = qu_xrealloc(u->v, alloc * sizeof(*u->v));
		}
		e = &u->v[u->n++];
		e->path = (const char *)(uintptr_t)u->data.len;
		e->path_len = pl;
		qu_buf_add(&u->data, path, pl);
		e->st.size = (uint64_t)sqlite3_column_int64(st, 1);
		e->st.mtime = (uint64_t)sqlite3_column_int64(st, 2);
		e->st.ctime = (uint64_t)sqlite3_column_int64(st, 3);
		e->st.ino = (uint64_t)sqlite3_column_int64(st, 4);
		e->hash.lo = (uint64_t)sqlite3_column_int64(st, 5);
		e->hash.hi = (uint64_t)sqlite3_column_int64(st, 9);
		e->ncomments = (uint64_t)sqlite3_column_int64(st, 6);
		e->body = (const unsigned char *)(uintptr_t)u->data.len;
		e->body_len = bl;
		e->need = 0;
		qu_buf_add(&u->data, body ? body : "", bl);
	}
	if (rc != SQLITE_DONE) {
		why = "corrupt";
		goto out;
	}
	u->lazy = !bodies;
	u->ndelta = u->n - first;
	for (i = first; i < u->n; i++) {
		struct build_unit_entry *e = &u->v[i];
		struct build_rd r;

		e->path = u->data.buf + (uintptr_t)e->path;
		e->body = (const unsigned char *)u->data.buf +
			  (uintptr_t)e->body;
		if (u->lazy) {
			e->body = NULL;
			continue;
		}
		r.p = e->body;
		r.left = e->body_len;
		r.bad = false;
		if (!skip_body(&r, &e->need, u->borrow) || r.left) {
			why = "corrupt (a unit does not parse)";
			goto out;
		}
	}
	if (first)
		snap_merge(u, first);
	/*
	 * no units (a site without sources): qsort() may not take NULL; the
	 * rows of a table written whole come in the order written, sorted
	 */
	for (size_t k = 1; k < u->n; k++)
		if (cmp_entry(&u->v[k - 1], &u->v[k]) > 0) {
			qsort(u->v, u->n, sizeof(*u->v), cmp_entry);
			break;
		}
out:
	sqlite3_finalize(st);
	qu_buf_fini(&m);
	return why;
}

const char *build_units_read(struct build_units *u, const char *dir,
			     uint64_t exe, bool bodies, bool borrow)
{
	struct qu_buf err = QU_BUF_INIT;
	const char *why = NULL;

	units_init(u, dir);
	u->borrow = borrow && bodies;
	if (qu_mkdir_p(dir, &err) < 0) {
		why = "its folder cannot be made";
		goto out;
	}
	if (open_db(&u->db, u->path, true) < 0) {
		why = "corrupt (not a database)";
	} else {
		why = load_rows(u, exe, bodies);
		if (!why)
			goto out;
	}
	/* start afresh: an empty database nobody can mistake for this one */
	sqlite3_finalize(u->get);
	u->get = NULL;
	u->lazy = false;
	sqlite3_close(u->db);
	u->db = NULL;
	free(u->v);
	u->v = NULL;
	u->n = 0;
	qu_buf_reset(&u->data);
	snap_drop(u);
	u->gen = u->id = 0;
	u->ndelta = 0;
	remove_db(u->path);
	if (open_db(&u->db, u->path, true) < 0) {
		sqlite3_close(u->db);
		u->db = NULL;
	}
out:
	qu_buf_fini(&err);
	return why;
}

bool build_units_peek(struct build_units *u, const char *dir, uint64_t exe,
		      const atomic_bool *cancel)
{
	struct qu_buf m = QU_BUF_INIT;
	struct stat st;
	bool ok;

	units_init(u, dir);
	u->cancel = cancel;
	u->borrow = true;
	/*
	 * an existing database that some build finished writing, which this
	 * read leaves as it found it
	 */
	ok = !lstat(u->path, &st) && S_ISREG(st.st_mode) &&
	     !open_db(&u->db, u->path, false) && meta(u->db, "format", &m) &&
	     !load_rows(u, exe, true);
	if (!ok)
		build_units_fini(u);
	qu_buf_fini(&m);
	return ok;
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

/* how far past the last entry found build_units_find_near() looks */
#define NEAR 4

const struct build_unit_entry *
build_units_find_near(const struct build_units *u, const char *path,
		      size_t *at)
{
	const struct build_unit_entry *e = NULL;
	size_t pl = strlen(path), k;

	for (k = *at; k < *at + NEAR && k < u->n; k++)
		if (!cmp_path(path, pl, u->v[k].path, u->v[k].path_len)) {
			e = &u->v[k];
			break;
		}
	if (!e)
		e = build_units_find(u, path);
	if (e)
		*at = (size_t)(e - u->v) + 1;
	return e;
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

/* A lazy entry's body, read from the database into @out, and checked. */
static bool read_body(struct build_units *u, const struct build_unit_entry *e,
		      struct qu_buf *out, size_t *need)
{
	bool ok = false;

	pthread_mutex_lock(&u->lock);
	if (u->get &&
	    sqlite3_bind_text(u->get, 1, e->path, (int)e->path_len,
			      SQLITE_STATIC) == SQLITE_OK &&
	    sqlite3_step(u->get) == SQLITE_ROW) {
		const void *body = sqlite3_column_blob(u->get, 0);
		size_t bl = (size_t)sqlite3_column_bytes(u->get, 0);

		qu_buf_add(out, body ? body : "", bl);
		ok = (uint64_t)sqlite3_column_int64(u->get, 1) ==
		     XXH3_64bits(out->buf, out->len);
	}
	if (u->get) {
		sqlite3_reset(u->get);
		sqlite3_clear_bindings(u->get);
	}
	pthread_mutex_unlock(&u->lock);
	if (ok) {
		struct build_rd r = {(const unsigned char *)out->buf, out->len,
				     false};

		ok = skip_body(&r, need, false) && !r.left;
	}
	return ok;
}

bool build_units_load(struct build_units *u, struct qu_unit *unit,
		      struct qu_graph_exports *ex,
		      const struct build_unit_entry *e, const char *diag_path)
{
	struct qu_buf lazy = QU_BUF_INIT;
	struct build_rd r = {e->body, e->body_len, false};
	size_t need = e->need;
	uint32_t n, k, j;
	/* the strings point into the bytes read, or are copied */
	struct qu_arena *sa = e->body && u->borrow ? NULL : &unit->arena;

	if (!e->body) {
		if (!read_body(u, e, &lazy, &need)) {
			qu_buf_fini(&lazy);
			return false;
		}
		r.p = (const unsigned char *)lazy.buf;
		r.left = lazy.len;
	}

	memset(unit, 0, sizeof(*unit));
	qu_arena_init(&unit->arena);
	qu_arena_reserve(&unit->arena, need);
	qu_diags_init(&unit->diags);
	unit->hash = e->hash;
	unit->ncomments = (size_t)e->ncomments;
	n = build_get_u32(&r);
	unit->items = n ? qu_arena_alloc(&unit->arena,
					 n * sizeof(*unit->items))
			: NULL;
	unit->nitems = n;
	for (k = 0; k < n; k++) {
		struct qu_item *it = &unit->items[k];

		memset(it, 0, sizeof(*it));
		it->kind = (enum qu_kind)build_get_u32(&r);
		it->name = get_str0(&r, sa, NULL);
		it->brief = get_str0(&r, sa, NULL);
		it->decl = get_str0(&r, sa, NULL);
		it->line = build_get_u32(&r);
		it->decl_line = build_get_u32(&r);
		it->exported = get_str0(&r, sa, NULL);
		it->nparams = build_get_u32(&r);
		it->params = it->nparams
				     ? qu_arena_alloc(&unit->arena,
						      it->nparams *
							      sizeof(*it->params))
				     : NULL;
		for (j = 0; j < it->nparams; j++) {
			it->params[j].name = get_str0(&r, sa, NULL);
			it->params[j].type = get_str0(&r, sa, NULL);
			it->params[j].desc = get_str0(&r, sa, NULL);
			it->params[j].line = build_get_u32(&r);
		}
		it->nsections = build_get_u32(&r);
		it->sections =
			it->nsections
				? qu_arena_alloc(&unit->arena,
						 it->nsections *
							 sizeof(*it->sections))
				: NULL;
		for (j = 0; j < it->nsections; j++) {
			it->sections[j].title =
				get_str0(&r, sa, NULL);
			it->sections[j].body = get_str0(&r, sa, NULL);
			it->sections[j].line = build_get_u32(&r);
		}
	}
	n = build_get_u32(&r);
	if (n) {
		struct qu_export *v =
			qu_arena_alloc(&unit->arena, n * sizeof(*v));

		for (k = 0; k < n; k++) {
			v[k].name = get_str0(&r, sa, NULL);
			v[k].macro = get_str0(&r, sa, NULL);
			v[k].line = build_get_u32(&r);
		}
		ex->v = v;
		ex->n = n;
	}
	for (n = build_get_u32(&r); n; n--) {
		size_t len, mlen;
		const char *name = get_str0(&r, NULL, &len);
		enum qu_diag_id id = QU_W_UNREADABLE;
		uint32_t line, col;
		const char *msg;

		build_diag_by_name(&id, name, len);
		line = build_get_u32(&r);
		col = build_get_u32(&r);
		msg = get_str0(&r, NULL, &mlen);
		qu_diag_text(&unit->diags, id, diag_path, line, col,
			     msg ? msg : "", msg ? mlen : 0);
	}
	assert(!r.bad && !r.left);
	qu_buf_fini(&lazy);
	return true;
}

static void put_unit(struct qu_buf *b, const struct qu_unit *u,
		     const struct qu_graph_exports *ex)
{
	size_t k, j;

	build_put_u32(b, (uint32_t)u->nitems);
	for (k = 0; k < u->nitems; k++) {
		const struct qu_item *it = &u->items[k];

		build_put_u32(b, (uint32_t)it->kind);
		put_str0(b, it->name);
		put_str0(b, it->brief);
		put_str0(b, it->decl);
		build_put_u32(b, it->line);
		build_put_u32(b, it->decl_line);
		put_str0(b, it->exported);
		build_put_u32(b, (uint32_t)it->nparams);
		for (j = 0; j < it->nparams; j++) {
			put_str0(b, it->params[j].name);
			put_str0(b, it->params[j].type);
			put_str0(b, it->params[j].desc);
			build_put_u32(b, it->params[j].line);
		}
		build_put_u32(b, (uint32_t)it->nsections);
		for (j = 0; j < it->nsections; j++) {
			put_str0(b, it->sections[j].title);
			put_str0(b, it->sections[j].body);
			build_put_u32(b, it->sections[j].line);
		}
	}
	build_put_u32(b, (uint32_t)ex->n);
	for (k = 0; k < ex->n; k++) {
		put_str0(b, ex->v[k].name);
		put_str0(b, ex->v[k].macro);
		build_put_u32(b, ex->v[k].line);
	}
	build_put_u32(b, (uint32_t)u->diags.n);
	for (k = 0; k < u->diags.n; k++) {
		put_str0(b, qu_diag_info(u->diags.v[k].id)->name);
		build_put_u32(b, u->diags.v[k].line);
		build_put_u32(b, u->diags.v[k].col);
		put_str0(b, u->diags.v[k].msg);
	}
}

/*
 * Make the entries what the database now holds after a write, as
 * load_rows() would read them without bodies: a row per @ok source, new
 * or @dirty ones as written, the others as they were.
 */
static void mirror(struct build_units *u, const char *const *paths,
		   const struct build_stat *st, const struct qu_unit *units,
		   const bool *ok, const bool *dirty, size_t n,
		   uint64_t written)
{
	struct build_unit_entry *v = qu_xcalloc(n + 1, sizeof(*v));
	struct qu_buf data = QU_BUF_INIT;
	size_t i, k = 0, at = 0;
	bool sorted = true;

	for (i = 0; i < n; i++) {
		const struct build_unit_entry *e;
		struct build_unit_entry *m = &v[k];

		if (!ok[i])
			continue;
		e = build_units_find_near(u, paths[i], &at);
		if (e && !dirty[i]) {
			*m = *e;
		} else {
			m->st = st[i];
			m->hash = units[i].hash;
			m->ncomments = units[i].ncomments;
		}
		m->path_len = strlen(paths[i]);
		m->path = (const char *)(uintptr_t)data.len;
		m->body = NULL;
		m->body_len = 0;
		qu_buf_add(&data, paths[i], m->path_len + 1);
		k++;
	}
	for (i = 0; i < k; i++) {
		v[i].path = data.buf + (uintptr_t)v[i].path;
		if (i && cmp_entry(&v[i - 1], &v[i]) > 0)
			sorted = false;
	}
	/* the site's sources come sorted: most often so are the entries */
	if (k > 1 && !sorted)
		qsort(v, k, sizeof(*v), cmp_entry);
	free(u->v);
	/* the units loaded from the bytes point into them */
	data_drop(u, u->borrow);
	u->v = v;
	u->n = k;
	u->data = data;
	u->written = written;
	u->synced = true;
}

bool build_units_take(struct build_units *to, struct build_units *from)
{
	if (!from->synced || !from->db || !from->get)
		return false;
	build_units_fini(to);
	*to = *from;
	/* the lock moves with the cache: @from gets a fresh one */
	pthread_mutex_init(&to->lock, NULL);
	memset(from, 0, sizeof(*from));
	pthread_mutex_init(&from->lock, NULL);
	return true;
}

int build_units_write(struct build_units *u, uint64_t exe,
		      const char *const *paths, const struct build_stat *st,
		      const struct qu_unit *units,
		      const struct qu_graph_exports *ex, const bool *ok,
		      const bool *dirty, size_t n, struct qu_buf *err)
{
	struct qu_buf b = QU_BUF_INIT, v = QU_BUF_INIT;
	sqlite3_stmt *put = NULL, *del = NULL, *set = NULL;
	struct timespec now;
	bool *still, fresh = !u->id;
	size_t i, at = 0, nput = 0, ndel = 0;
	/* this write's generation; a new database's id, made once */
	uint64_t gen = u->gen + 1, id = u->id;
	int r = -1;

	if (!u->db) {
		qu_buf_addf(err, "%s: cannot open the unit cache", u->path);
		return -1;
	}
	while (!id)
		sqlite3_randomness(sizeof(id), &id);
	still = qu_xcalloc(u->n + 1, sizeof(*still));
	if (sqlite3_exec(u->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(u->db,
			       /*
				* a row rewritten in place keeps its rowid,
				* so a scan still returns the rows sorted by
				* path and load_rows() need not sort them
				*/
			       "INSERT INTO units VALUES "
			       "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
			       "ON CONFLICT(path) DO UPDATE SET "
			       "size = excluded.size, mtime = excluded.mtime, "
			       "ctime = excluded.ctime, ino = excluded.ino, "
			       "hash = excluded.hash, "
			       "ncomments = excluded.ncomments, "
			       "body = excluded.body, sum = excluded.sum, "
			       "hash_hi = excluded.hash_hi, gen = excluded.gen",
			       -1, &put, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(u->db, "DELETE FROM units WHERE path = ?", -1,
			       &del, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(u->db,
			       "INSERT OR REPLACE INTO meta VALUES (?, ?)", -1,
			       &set, NULL) != SQLITE_OK)
		goto fail;
	for (i = 0; i < n; i++) {
		const struct build_unit_entry *e = build_units_find_near(u, paths[i], &at);

		if (e)
			still[e - u->v] = ok[i];
		if (!ok[i] || (e && !dirty[i]))
			continue;
		qu_buf_reset(&b);
		put_unit(&b, &units[i], &ex[i]);
		sqlite3_bind_text(put, 1, paths[i], -1, SQLITE_STATIC);
		sqlite3_bind_int64(put, 2, (sqlite3_int64)st[i].size);
		sqlite3_bind_int64(put, 3, (sqlite3_int64)st[i].mtime);
		sqlite3_bind_int64(put, 4, (sqlite3_int64)st[i].ctime);
		sqlite3_bind_int64(put, 5, (sqlite3_int64)st[i].ino);
		sqlite3_bind_int64(put, 6, (sqlite3_int64)units[i].hash.lo);
		sqlite3_bind_int64(put, 7, (sqlite3_int64)units[i].ncomments);
		sqlite3_bind_blob(put, 8, b.buf, (int)b.len, SQLITE_STATIC);
		sqlite3_bind_int64(put, 9,
				   (sqlite3_int64)XXH3_64bits(b.buf, b.len));
		sqlite3_bind_int64(put, 10, (sqlite3_int64)units[i].hash.hi);
		sqlite3_bind_int64(put, 11, (sqlite3_int64)gen);
		if (sqlite3_step(put) != SQLITE_DONE)
			goto fail;
		sqlite3_reset(put);
		nput++;
	}
	/* the sources this build no longer has */
	for (i = 0; i < u->n; i++) {
		if (still[i])
			continue;
		sqlite3_bind_text(del, 1, u->v[i].path, (int)u->v[i].path_len,
				  SQLITE_STATIC);
		if (sqlite3_step(del) != SQLITE_DONE)
			goto fail;
		sqlite3_reset(del);
		ndel++;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	{
		/*
		 * "snap_from": a snapshot older than a removal holds rows
		 * the database no longer has, and is not taken
		 */
		static const char *const keys[] = {"format", "quire", "exe",
						   "written", "gen", "id",
						   "snap_from"};
		char vals[7][32];
		size_t nkeys = ndel || fresh ? 7 : 6;

		snprintf(vals[0], sizeof(vals[0]), "%s", UNITS_FORMAT);
		snprintf(vals[1], sizeof(vals[1]), "%.31s", QU_VERSION);
		snprintf(vals[2], sizeof(vals[2]), "%016llx",
			 (unsigned long long)exe);
		snprintf(vals[3], sizeof(vals[3]), "%llu",
			 (unsigned long long)ns(&now));
		snprintf(vals[4], sizeof(vals[4]), "%llx",
			 (unsigned long long)gen);
		snprintf(vals[5], sizeof(vals[5]), "%llx",
			 (unsigned long long)id);
		snprintf(vals[6], sizeof(vals[6]), "%llx",
			 (unsigned long long)gen);
		for (i = 0; i < nkeys; i++) {
			sqlite3_bind_text(set, 1, keys[i], -1, SQLITE_STATIC);
			sqlite3_bind_text(set, 2, vals[i], -1,
					  SQLITE_TRANSIENT);
			if (sqlite3_step(set) != SQLITE_DONE)
				goto fail;
			sqlite3_reset(set);
		}
	}
	if (sqlite3_exec(u->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		goto fail;
	u->gen = gen;
	u->id = id;
	u->ndelta += nput;
	if (ndel || fresh)
		u->snap_stale = true;
	if (u->lazy)
		mirror(u, paths, st, units, ok, dirty, n, ns(&now));
	r = 0;
	goto out;
fail:
	qu_buf_addf(err, "%s: %s", u->path, sqlite3_errmsg(u->db));
	sqlite3_exec(u->db, "ROLLBACK", NULL, NULL, NULL);
out:
	sqlite3_finalize(put);
	sqlite3_finalize(del);
	sqlite3_finalize(set);
	free(still);
	qu_buf_fini(&b);
	qu_buf_fini(&v);
	return r;
}

int build_units_snap_write(struct build_units *u, uint64_t exe,
			   struct qu_buf *err)
{
	struct qu_buf path = QU_BUF_INIT;
	struct qu_file_out f;
	struct snap_tail t;
	sqlite3_stmt *st = NULL;
	int rc;

	if (!u->db || !u->gen || !u->id ||
	    (u->snap_gen && !u->snap_stale &&
	     u->ndelta <= SNAP_DELTA_MIN + u->n / 64))
		return 0;
	snap_path(&path, u->path);
	/* the database's path order is memcmp()'s, as cmp_entry()'s */
	if (sqlite3_prepare_v2(u->db,
			       "SELECT path, size, mtime, ctime, ino, hash, "
			       "ncomments, body, sum, hash_hi FROM units "
			       "ORDER BY path",
			       -1, &st, NULL) != SQLITE_OK) {
		qu_buf_addf(err, "%s: %s", u->path, sqlite3_errmsg(u->db));
		qu_buf_fini(&path);
		return -1;
	}
	if (qu_file_out_open(&f, path.buf, err) < 0) {
		sqlite3_finalize(st);
		qu_buf_fini(&path);
		return -1;
	}
	memset(&t, 0, sizeof(t));
	qu_file_out_add(&f, SNAP_MAGIC, 8);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		size_t pl, bl = (size_t)sqlite3_column_bytes(st, 7);
		const char *p = col_text(st, 0, &pl);
		const void *body = sqlite3_column_blob(st, 7);
		struct snap_ent se = {
			pl,
			bl,
			(uint64_t)sqlite3_column_int64(st, 1),
			(uint64_t)sqlite3_column_int64(st, 2),
			(uint64_t)sqlite3_column_int64(st, 3),
			(uint64_t)sqlite3_column_int64(st, 4),
			(uint64_t)sqlite3_column_int64(st, 5),
			(uint64_t)sqlite3_column_int64(st, 9),
			(uint64_t)sqlite3_column_int64(st, 6),
		};

		/* a row that does not match its checksum is not copied */
		if ((uint64_t)sqlite3_column_int64(st, 8) !=
		    XXH3_64bits(body ? body : "", bl)) {
			rc = SQLITE_CORRUPT;
			break;
		}
		qu_file_out_add(&f, &se, sizeof(se));
		qu_file_out_add(&f, p, pl);
		qu_file_out_add(&f, "", 1);
		qu_file_out_add(&f, body ? body : "", bl);
		qu_file_out_spill(&f);
		t.n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		qu_buf_addf(err, "%s: %s", u->path,
			    rc == SQLITE_CORRUPT ? "corrupt (checksum)"
						 : sqlite3_errmsg(u->db));
		qu_file_out_abort(&f);
		qu_buf_fini(&path);
		return -1;
	}
	t.exe = exe;
	t.id = u->id;
	t.gen = u->gen;
	memcpy(t.magic, SNAP_MAGIC, 8);
	qu_file_out_add(&f, &t, offsetof(struct snap_tail, sum));
	t.sum = qu_file_out_sum(&f);
	qu_file_out_add(&f, &t.sum, sizeof(t.sum));
	qu_buf_fini(&path);
	if (qu_file_out_commit(&f, err) < 0)
		return -1;
	u->snap_stale = false;
	u->ndelta = 0;
	return 0;
}

void build_units_close(struct build_units *u)
{
	sqlite3_finalize(u->get);
	u->get = NULL;
	sqlite3_close(u->db);
	u->db = NULL;
}

void build_units_fini(struct build_units *u)
{
	build_units_close(u);
	free(u->path);
	free(u->v);
	data_drop(u, false);
	for (size_t i = 0; i < u->nkept; i++) {
		if (u->kept[i].big)
			qu_big_free(u->kept[i].p, u->kept[i].big);
		else
			free(u->kept[i].p);
	}
	free(u->kept);
	snap_drop(u);
	pthread_mutex_destroy(&u->lock);
	memset(u, 0, sizeof(*u));
}
