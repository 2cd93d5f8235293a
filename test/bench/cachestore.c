// SPDX-License-Identifier: MIT
/*
 * cachestore.c - how to store the build cache, measured
 *
 * The unit cache of the zero-config linux-source-6.1 site holds about
 * 55,000 entries (10,000 with items, a few KB each; the rest a few dozen
 * bytes), 46 MB in all. This writes and reads the same shape three ways:
 *
 *   one file   every entry in one file, written to a temporary name and
 *              renamed, read back whole (what lib/build does)
 *   sqlite     one row per entry in an SQLite table (WAL, one
 *              transaction), read back with one SELECT
 *   files      one file per entry, content-addressed (named by its
 *              XXH3), each written atomically, read back one by one
 *
 * and prints the median wall time of each over RUNS runs. A no-op build
 * reads the cache; a build after an edit reads it and writes it again.
 *
 * build: cc -O2 -o cachestore test/bench/cachestore.c -lsqlite3 -lxxhash
 * usage: cachestore DIR [RUNS]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>
#include <xxhash.h>

#define NENTRIES 55418
#define NFULL 10300

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t size_of(int i)
{
	/* deterministic sizes: few KB for documented files, 60 B else */
	return i % 5 == 0 && i / 5 < NFULL ? 1500 + (size_t)(i * 7919) % 6000
					      : 60;
}

static void fill(char *p, size_t n, int i)
{
	for (size_t k = 0; k < n; k++)
		p[k] = (char)('a' + (i + k) % 26);
}

static void die(const char *what)
{
	fprintf(stderr, "cachestore: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void write_all(const char *path, const void *p, size_t n)
{
	char tmp[4096];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, p, n) != (ssize_t)n || close(fd) < 0)
		die(tmp);
	if (rename(tmp, path) < 0)
		die(path);
}

static size_t read_all(const char *path, char **out)
{
	struct stat st;
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0 || fstat(fd, &st) < 0)
		die(path);
	*out = malloc((size_t)st.st_size + 1);
	n = read(fd, *out, (size_t)st.st_size);
	close(fd);
	return n < 0 ? 0 : (size_t)n;
}

static double one_file(const char *dir, int write)
{
	char path[4096], *buf;
	double t0 = now();
	size_t total = 0, off = 0;
	int i;

	snprintf(path, sizeof(path), "%s/units", dir);
	if (write) {
		for (i = 0; i < NENTRIES; i++)
			total += size_of(i) + 48;
		buf = malloc(total);
		for (i = 0; i < NENTRIES; i++) {
			memset(buf + off, 0, 48);
			off += 48;
			fill(buf + off, size_of(i), i);
			off += size_of(i);
		}
		write_all(path, buf, total);
		free(buf);
	} else {
		size_t n = read_all(path, &buf);

		if (XXH3_64bits(buf, n) == 42)
			puts("");
		free(buf);
	}
	return now() - t0;
}

static double with_sqlite(const char *dir, int write)
{
	char path[4096], *blob = malloc(8000);
	sqlite3 *db;
	sqlite3_stmt *st;
	double t0 = now();
	int i;

	snprintf(path, sizeof(path), "%s/cache.sqlite", dir);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		die("sqlite3_open");
	sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
		     NULL, NULL, NULL);
	if (write) {
		sqlite3_exec(db,
			     "CREATE TABLE IF NOT EXISTS u (path TEXT PRIMARY "
			     "KEY, st BLOB, body BLOB); BEGIN;",
			     NULL, NULL, NULL);
		sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO u VALUES (?, ?, ?)",
				   -1, &st, NULL);
		for (i = 0; i < NENTRIES; i++) {
			char name[64];
			char stat48[48] = {0};

			snprintf(name, sizeof(name), "drivers/x/file%06d.c", i);
			fill(blob, size_of(i), i);
			sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
			sqlite3_bind_blob(st, 2, stat48, 48, SQLITE_STATIC);
			sqlite3_bind_blob(st, 3, blob, (int)size_of(i),
					  SQLITE_STATIC);
			sqlite3_step(st);
			sqlite3_reset(st);
		}
		sqlite3_finalize(st);
		sqlite3_exec(db, "COMMIT;", NULL, NULL, NULL);
	} else {
		uint64_t h = 0;

		sqlite3_prepare_v2(db, "SELECT path, st, body FROM u", -1, &st,
				   NULL);
		while (sqlite3_step(st) == SQLITE_ROW)
			h ^= XXH3_64bits(sqlite3_column_blob(st, 2),
					 (size_t)sqlite3_column_bytes(st, 2));
		sqlite3_finalize(st);
		if (h == 42)
			puts("");
	}
	sqlite3_close(db);
	free(blob);
	return now() - t0;
}

/* After one edit: one entry changes. */
static double sqlite_one(const char *dir)
{
	char path[4096], blob[3000];
	sqlite3 *db;
	sqlite3_stmt *st;
	double t0 = now();

	snprintf(path, sizeof(path), "%s/cache.sqlite", dir);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		die("sqlite3_open");
	sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
		     NULL, NULL, NULL);
	sqlite3_exec(db, "BEGIN;", NULL, NULL, NULL);
	sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO u VALUES (?, ?, ?)", -1,
			   &st, NULL);
	fill(blob, sizeof(blob), 7);
	sqlite3_bind_text(st, 1, "drivers/x/file000005.c", -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 2, blob, 48, SQLITE_STATIC);
	sqlite3_bind_blob(st, 3, blob, sizeof(blob), SQLITE_STATIC);
	sqlite3_step(st);
	sqlite3_finalize(st);
	sqlite3_exec(db, "COMMIT;", NULL, NULL, NULL);
	sqlite3_close(db);
	return now() - t0;
}

static double files(const char *dir, int write)
{
	char path[4096], *blob = malloc(8000), *buf;
	double t0 = now();
	int i;

	snprintf(path, sizeof(path), "%s/objects", dir);
	mkdir(path, 0755);
	for (i = 0; i < NENTRIES; i++) {
		uint64_t h;

		fill(blob, size_of(i), i);
		h = XXH3_64bits(blob, size_of(i)) ^ (uint64_t)i;
		snprintf(path, sizeof(path), "%s/objects/%016llx", dir,
			 (unsigned long long)h);
		if (write) {
			write_all(path, blob, size_of(i));
		} else {
			read_all(path, &buf);
			free(buf);
		}
	}
	free(blob);
	return now() - t0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		double (*fn)(const char *, int);
	} ways[] = {{"one file", one_file}, {"sqlite", with_sqlite},
		    {"files", files}};
	int runs = argc > 2 ? atoi(argv[2]) : 5;
	double w[64], r[64];

	if (argc < 2 || runs < 1 || runs > 64) {
		fprintf(stderr, "usage: cachestore DIR [RUNS]\n");
		return 2;
	}
	printf("%d entries (%d with items), %d runs, medians\n", NENTRIES,
	       NFULL, runs);
	for (size_t k = 0; k < sizeof(ways) / sizeof(ways[0]); k++) {
		for (int i = 0; i < runs; i++) {
			w[i] = ways[k].fn(argv[1], 1);
			r[i] = ways[k].fn(argv[1], 0);
		}
		qsort(w, (size_t)runs, sizeof(double), cmp);
		qsort(r, (size_t)runs, sizeof(double), cmp);
		printf("%-9s write %7.3f s  read %7.3f s\n", ways[k].name,
		       w[runs / 2], r[runs / 2]);
	}
	for (int i = 0; i < runs; i++)
		w[i] = sqlite_one(argv[1]);
	qsort(w, (size_t)runs, sizeof(double), cmp);
	printf("sqlite, one entry replaced: %.4f s (one file and files: "
	       "rewrite all, or one file atomically)\n",
	       w[runs / 2]);
	return 0;
}
