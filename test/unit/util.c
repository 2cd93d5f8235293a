// SPDX-License-Identifier: MIT
/*
 * util.c - unit tests of lib/util: buffers, arenas, maps, the diagnostic
 * list, line indexes, the thread pool, UTF-8 and JSON escaping, files
 * written in pieces. Run as
 * "test-util GROUP"; each group is one meson test of the suite "unit".
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "tap.h"
#include "util/util.h"

static void test_buf(struct tap *t)
{
	struct qu_buf b = QU_BUF_INIT;
	size_t len;
	char *s;

	CHECK(t, b.buf && b.len == 0 && b.buf[0] == '\0');
	qu_buf_adds(&b, "abc");
	qu_buf_addc(&b, 'd');
	qu_buf_add(&b, "e\0f", 3);
	CHECK(t, b.len == 7 && b.buf[7] == '\0');
	CHECK(t, !memcmp(b.buf, "abcde\0f", 7));
	qu_buf_reset(&b);
	CHECK(t, b.len == 0 && b.buf[0] == '\0');
	qu_buf_addf(&b, "%d-%s", 42, "x");
	CHECK_STR(t, b.buf, "42-x");
	/* Growth past many doublings keeps the bytes and the terminator. */
	for (int i = 0; i < 10000; i++)
		qu_buf_addc(&b, (char)('a' + i % 26));
	CHECK(t, b.len == 10004 && b.buf[b.len] == '\0');
	CHECK(t, b.buf[4] == 'a' && b.buf[b.len - 1] == 'a' + 9999 % 26);
	s = qu_buf_detach(&b, &len);
	CHECK(t, len == 10004 && strlen(s) == 10004);
	CHECK(t, b.len == 0 && b.buf && b.buf[0] == '\0');
	free(s);
	/* Detaching an empty buffer still gives memory the caller frees. */
	s = qu_buf_detach(&b, NULL);
	CHECK(t, s && s[0] == '\0');
	free(s);
	qu_buf_fini(&b);
	qu_buf_fini(&b);
	CHECK(t, b.len == 0 && b.buf[0] == '\0');
}

static void test_arena(struct tap *t)
{
	struct qu_arena a;
	char *p[1000];
	bool ok = true;

	qu_arena_init(&a);
	for (int i = 0; i < 1000; i++) {
		p[i] = qu_arena_alloc(&a, (size_t)(i % 100) + 1);
		if ((uintptr_t)p[i] % sizeof(void *))
			ok = false;
		memset(p[i], i & 0xff, (size_t)(i % 100) + 1);
	}
	CHECK(t, ok);
	for (int i = 0; i < 1000; i++)
		if ((unsigned char)p[i][i % 100] != (i & 0xff))
			ok = false;
	CHECK(t, ok);
	/* Bigger than a chunk. */
	char *big = qu_arena_zalloc(&a, 1 << 20);
	CHECK(t, big[0] == 0 && big[(1 << 20) - 1] == 0);
	CHECK_STR(t, qu_arena_strdup(&a, "hello"), "hello");
	CHECK_STR(t, qu_arena_strndup(&a, "hello", 3), "hel");
	CHECK(t, !memcmp(qu_arena_memdup(&a, "a\0b", 3), "a\0b", 3));
	CHECK(t, qu_arena_alloc(&a, 0) != NULL);
	qu_arena_fini(&a);
	/* Reusable after fini. */
	CHECK_STR(t, qu_arena_strdup(&a, "again"), "again");
	qu_arena_fini(&a);
	/* A reserved block takes what it was sized for, then chunks again. */
	CHECK(t, qu_arena_need(1) == 16 && qu_arena_need(32) == 32 &&
		     qu_arena_need(SIZE_MAX) == SIZE_MAX);
	qu_arena_reserve(&a, qu_arena_need(5) + qu_arena_need(40));
	{
		char *x = qu_arena_alloc(&a, 5), *y = qu_arena_alloc(&a, 40);

		memset(y, 'y', 40);
		CHECK(t, x && y && x != y);
#ifndef QU_ARENA_DEBUG
		CHECK(t, y == x + qu_arena_need(5) && a.cur == a.end);
#endif
		CHECK(t, qu_arena_alloc(&a, 100) != NULL);
	}
	/* and does nothing to an arena in use */
	qu_arena_reserve(&a, 1 << 20);
#ifndef QU_ARENA_DEBUG
	CHECK(t, (size_t)(a.end - a.cur) < 1 << 16);
#endif
	qu_arena_fini(&a);
}

static void test_map(struct tap *t)
{
	struct qu_map m;
	char keys[5000][16];
	bool ok = true;

	qu_map_init(&m);
	CHECK(t, qu_map_get(&m, "x", 1) == NULL);
	for (int i = 0; i < 5000; i++) {
		snprintf(keys[i], sizeof(keys[i]), "key%d", i);
		qu_map_put(&m, keys[i], (void *)(uintptr_t)(i + 1));
	}
	CHECK(t, m.n == 5000);
	for (int i = 0; i < 5000; i++)
		if (qu_map_get(&m, keys[i], strlen(keys[i])) !=
		    (void *)(uintptr_t)(i + 1))
			ok = false;
	CHECK(t, ok);
	/* Keys are byte strings: a prefix is another key. */
	CHECK(t, qu_map_get(&m, "key1", 3) == NULL);
	qu_map_put(&m, keys[7], (void *)"replaced");
	CHECK(t, m.n == 5000);
	CHECK_STR(t, (const char *)qu_map_get(&m, "key7", 4), "replaced");
	void **slot = qu_map_slot(&m, "fresh", 5);
	CHECK(t, slot && *slot == NULL);
	*slot = (void *)"v";
	CHECK_STR(t, (const char *)qu_map_get(&m, "fresh", 5), "v");
	CHECK(t, m.n == 5001);
	/*
	 * Removed keys are gone and every other key is still found, in a
	 * table kept full to its limit (long runs, wrapping past the end),
	 * removed in an order that is not the order of the slots.
	 */
	CHECK(t, qu_map_del(&m, "nope", 4) == NULL);
	CHECK_STR(t, (const char *)qu_map_del(&m, "fresh", 5), "v");
	CHECK(t, m.n == 5000 && !qu_map_get(&m, "fresh", 5));
	for (int i = 0; i < 5000; i += 3)
		qu_map_del(&m, keys[(i * 7) % 5000], strlen(keys[(i * 7) % 5000]));
	ok = true;
	for (int i = 0, n = 0; i < 5000; i++) {
		bool gone = false;

		for (int k = 0; k < 5000 && !gone; k += 3)
			gone = (k * 7) % 5000 == i;
		if (gone != !qu_map_get(&m, keys[i], strlen(keys[i])))
			ok = false;
		n += !gone;
		if (i == 4999 && m.n != (size_t)n)
			ok = false;
	}
	CHECK(t, ok);
	qu_map_fini(&m);
	CHECK(t, qu_map_get(&m, "key1", 4) == NULL);
	/* a table of 16 slots, filled and emptied in turns */
	qu_map_init(&m);
	ok = true;
	for (int round = 0; round < 50; round++) {
		for (int i = 0; i < 7; i++)
			qu_map_put(&m, keys[round * 7 + i], (void *)keys[i]);
		for (int i = 0; i < 7; i += 2)
			if (qu_map_del(&m, keys[round * 7 + i],
				       strlen(keys[round * 7 + i])) != keys[i])
				ok = false;
		for (int i = 1; i < 7; i += 2)
			if (qu_map_get(&m, keys[round * 7 + i],
				       strlen(keys[round * 7 + i])) != keys[i])
				ok = false;
		for (int i = 1; i < 7; i += 2)
			qu_map_del(&m, keys[round * 7 + i],
				   strlen(keys[round * 7 + i]));
		if (m.n)
			ok = false;
	}
	CHECK(t, ok && m.cap == 16);
	qu_map_fini(&m);
	/*
	 * Tables of 4 MB and more are mapped apart: grown into, reserved at
	 * once, reset and freed, they hold what a small one holds.
	 */
	for (int way = 0; way < 2; way++) {
		enum { BIG = 300000 };
		char (*big)[16] = qu_xmalloc(BIG * sizeof(*big));

		qu_map_init(&m);
		if (way)
			qu_map_reserve(&m, BIG);
		for (int i = 0; i < BIG; i++) {
			snprintf(big[i], sizeof(big[i]), "big%d", i);
			qu_map_put(&m, big[i], (void *)(uintptr_t)(i + 1));
		}
		ok = m.n == BIG && m.cap * sizeof(*m.slots) >= (4u << 20);
		for (int i = 0; i < BIG; i++)
			if (qu_map_get(&m, big[i], strlen(big[i])) !=
			    (void *)(uintptr_t)(i + 1))
				ok = false;
		CHECK(t, ok);
		qu_map_reset(&m);
		CHECK(t, m.n == 0 && !qu_map_get(&m, big[5], strlen(big[5])));
		qu_map_put(&m, big[5], (void *)"again");
		CHECK_STR(t, (const char *)qu_map_get(&m, big[5],
						      strlen(big[5])),
			  "again");
		qu_map_fini(&m);
		free(big);
	}
}

static void test_diag(struct tap *t)
{
	struct qu_diags a, b;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	qu_diags_init(&a);
	qu_diags_init(&b);
	/* Recorded out of order, across two lists, with one repeat. */
	qu_diag(&a, QU_W_UNDESCRIBED_PARAM, "b.c", 3, 1, "second %d", 2);
	qu_diag(&a, QU_W_BAD_LINE, "a.c", 10, 2, "late");
	qu_diag(&b, QU_W_BAD_LINE, "a.c", 2, 5, "col five");
	qu_diag(&b, QU_W_BAD_LINE, "a.c", 2, 1, "col one");
	qu_diag(&b, QU_W_UNDESCRIBED_PARAM, "b.c", 3, 1, "second %d", 2);
	qu_diag(&b, QU_W_UNREADABLE, "c.c", 0, 0, "c.c: cannot read");
	qu_diags_move(&a, &b);
	CHECK(t, b.n == 0 && a.n == 6);
	qu_diags_sort(&a);
	CHECK(t, a.n == 5);
	f = open_memstream(&text, &len);
	CHECK(t, qu_diags_print(&a, f, false) == 5);
	fclose(f);
	CHECK_STR(t, text,
		  "a.c:2:1: warning: col one [-Wbad-line]\n"
		  "a.c:2:5: warning: col five [-Wbad-line]\n"
		  "a.c:10:2: warning: late [-Wbad-line]\n"
		  "b.c:3:1: warning: second 2 [-Wundescribed-param]\n"
		  "c.c: error: c.c: cannot read [-Wunreadable]\n");
	free(text);
	f = open_memstream(&text, &len);
	qu_diags_print(&a, f, true);
	fclose(f);
	CHECK(t, !strncmp(text, "a.c:2:1: error: col one", 23));
	free(text);
	/* Sorting is stable across runs: sort again, same order. */
	qu_diags_sort(&a);
	CHECK(t, a.n == 5 && a.v[0].col == 1 && a.v[4].line == 0);
	CHECK(t, qu_diag_find("bad-line") == QU_W_BAD_LINE);
	CHECK(t, qu_diag_find("no-such-warning") == -1);
	CHECK_STR(t, qu_diag_info(QU_W_BAD_LINE)->name, "bad-line");
	/* Every registry row has a distinct, lower-case name and a text. */
	for (int i = 0; i < QU_DIAG__COUNT; i++) {
		const struct qu_diag_info *d = qu_diag_info(i);

		CHECK(t, d->name[0] && d->doc[0]);
		CHECK(t, qu_diag_find(d->name) == i);
		for (const char *p = d->name; *p; p++)
			CHECK(t, (*p >= 'a' && *p <= 'z') ||
					 (*p >= '0' && *p <= '9') || *p == '-');
	}
	qu_diags_fini(&a);
	qu_diags_fini(&b);
}

static void test_lines(struct tap *t)
{
	static const char text[] = "one\ntwo\r\n\nfour";
	struct qu_lines l;

	qu_lines_init(&l, text, sizeof(text) - 1);
	CHECK(t, l.n == 4);
	CHECK(t, qu_lines_find(&l, 0) == 1);
	CHECK(t, qu_lines_find(&l, 3) == 1); /* the "\n" of line 1 */
	CHECK(t, qu_lines_find(&l, 4) == 2);
	CHECK(t, qu_lines_find(&l, 8) == 2); /* "\r\n" belongs to line 2 */
	CHECK(t, qu_lines_find(&l, 9) == 3);
	CHECK(t, qu_lines_find(&l, 10) == 4);
	CHECK(t, qu_lines_find(&l, 13) == 4);
	CHECK(t, l.start[3] == 10);
	qu_lines_fini(&l);
	qu_lines_init(&l, "", 0);
	CHECK(t, l.n == 1 && qu_lines_find(&l, 0) == 1);
	qu_lines_fini(&l);
	qu_lines_init(&l, "\n", 1);
	CHECK(t, l.n == 2 && qu_lines_find(&l, 1) == 2);
	qu_lines_fini(&l);
}

struct pool_payload {
	uint64_t *out;
	unsigned *seen_worker;
	atomic_uint *runs;	/* how often each task ran */
};

static void square(struct qu_job *job, size_t i, void *payload)
{
	struct pool_payload *p = payload;

	qu_buf_reset(&job->scratch);
	qu_buf_addf(&job->scratch, "%zu", i);
	p->out[i] = qu_hash(job->scratch.buf, job->scratch.len) ^ (i * i);
	p->seen_worker[i] = job->worker + 1;
	if (p->runs)
		atomic_fetch_add(&p->runs[i], 1);
}

static void *note_thread(void *arg)
{
	*(pthread_t *)arg = pthread_self();
	return NULL;
}

static void test_pool(struct tap *t)
{
	/* not a multiple of the indices a worker takes at once */
	enum { N = 20011 };
	uint64_t *ref = qu_xcalloc(N, sizeof(*ref));
	uint64_t *got = qu_xcalloc(N, sizeof(*got));
	unsigned *w = qu_xcalloc(N, sizeof(*w));
	struct pool_payload p = {ref, w, NULL};
	static const unsigned threads[] = {2, 3, 8, 0};

	qu_pool_run(1, N, square, &p);
	for (size_t i = 0; i < N; i++)
		CHECK(t, w[i] == 1);
	for (size_t k = 0; k < QU_ARRAY_SIZE(threads); k++) {
		memset(w, 0, N * sizeof(*w));
		p.out = got;
		p.runs = qu_xcalloc(N, sizeof(*p.runs));
		qu_pool_run(threads[k], N, square, &p);
		CHECK(t, !memcmp(ref, got, N * sizeof(*got)));
		/* Every task ran exactly once, on a worker of the pool. */
		bool ran = true;
		for (size_t i = 0; i < N; i++)
			if (atomic_load(&p.runs[i]) != 1 || !w[i] ||
			    (threads[k] && w[i] > threads[k]))
				ran = false;
		CHECK(t, ran);
		free(p.runs);
		p.runs = NULL;
	}
	/* No tasks at all is not an error. */
	qu_pool_run(4, 0, square, &p);
	CHECK(t, qu_ncpus() >= 1);
	/* A function beside the caller: apart, or at once when not. */
	{
		struct qu_thread th = {0};
		pthread_t self = pthread_self(), where = self;

		CHECK(t, qu_thread_start(&th, true, note_thread, &where));
		qu_thread_wait(&th);
		CHECK(t, !pthread_equal(where, self));
		qu_thread_wait(&th);
		CHECK(t, !qu_thread_start(&th, false, note_thread, &where));
		CHECK(t, pthread_equal(where, self));
		qu_thread_wait(&th);
	}
	free(ref);
	free(got);
	free(w);
}

static void test_utf8(struct tap *t)
{
	size_t bad = 99;

	CHECK(t, qu_utf8_valid("", 0, NULL));
	CHECK(t, qu_utf8_valid("plain", 5, NULL));
	CHECK(t,
	      qu_utf8_valid("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9, NULL));
	CHECK(t, !qu_utf8_valid("ab\xff", 3, &bad) && bad == 2);
	CHECK(t, !qu_utf8_valid("a\xc3", 2, &bad) && bad == 1);
	/* Overlong encodings and surrogates are not UTF-8. */
	CHECK(t, !qu_utf8_valid("\xc0\xaf", 2, NULL));
	CHECK(t, !qu_utf8_valid("\xe0\x80\xaf", 3, NULL));
	CHECK(t, !qu_utf8_valid("\xed\xa0\x80", 3, NULL));
	CHECK(t, !qu_utf8_valid("\xf4\x90\x80\x80", 4, NULL));
	CHECK(t, qu_utf8_valid("\xf4\x8f\xbf\xbf", 4, NULL));
	/* NUL is a valid character. */
	CHECK(t, qu_utf8_valid("a\0b", 3, NULL));
	/* XXH3-64: the same on every run and machine */
	CHECK(t, qu_hash("", 0) == 0x2d06800538d394c2ull);
	CHECK(t, qu_hash("a", 1) == 0xe6c632b61e964e1full);
}

static void json(struct tap *t, const char *in, size_t len, const char *want)
{
	struct qu_buf b = QU_BUF_INIT;

	qu_buf_add_json_str(&b, in, len);
	CHECK_STR(t, b.buf, want);
	qu_buf_fini(&b);
}

static void test_json(struct tap *t)
{
	json(t, "", 0, "\"\"");
	json(t, "plain", 5, "\"plain\"");
	json(t, "q\"b\\", 4, "\"q\\\"b\\\\\"");
	json(t, "\n\t\r", 3, "\"\\n\\t\\r\"");
	json(t, "\x01\x1f", 2, "\"\\u0001\\u001f\"");
	json(t, "a\0b", 3, "\"a\\u0000b\"");
	/* "/" and DEL need no escape; UTF-8 passes through. */
	json(t, "/\x7f\xc3\xa9", 4, "\"/\x7f\xc3\xa9\"");
	/* Invalid UTF-8 becomes U+FFFD, one per bad byte. */
	json(t,
	     "a\xff"
	     "b",
	     3,
	     "\"a\xef\xbf\xbd"
	     "b\"");
	json(t, "\xe2\x82", 2, "\"\xef\xbf\xbd\xef\xbf\xbd\"");
}

/* Files written in pieces: the bytes, the sum, the header, a failure. */
static void test_file_out(struct tap *t)
{
	char dir[] = "/tmp/quire-file-out-XXXXXX";
	struct qu_buf path = QU_BUF_INIT, got = QU_BUF_INIT,
		      want = QU_BUF_INIT, err = QU_BUF_INIT;
	struct qu_file_out f;
	char *big;
	size_t i, n = 3 * QU_FILE_OUT_CHUNK + 17;

	if (!mkdtemp(dir)) {
		CHECK(t, !"mkdtemp");
		return;
	}
	qu_buf_addf(&path, "%s/state", dir);
	/* an old file stays whole until the commit */
	CHECK(t, qu_file_write_atomic(path.buf, "old", 3, &err) == 0);
	big = qu_xmalloc(n);
	for (i = 0; i < n; i++)
		big[i] = (char)(i * 7 + i / 251);
	CHECK(t, qu_file_out_open(&f, path.buf, &err) == 0);
	qu_buf_add(&want, "HEAD", 4);
	qu_file_out_add(&f, "....", 4);
	qu_file_out_sum_reset(&f);
	/* small pieces through the buffer, spilled; a large one straight */
	for (i = 0; i < 100000; i++) {
		qu_buf_addf(&f.b, "%zu,", i);
		qu_buf_addf(&want, "%zu,", i);
		qu_file_out_spill(&f);
	}
	qu_file_out_add(&f, big, n);
	qu_buf_add(&want, big, n);
	qu_file_out_add(&f, "tail", 4);
	qu_buf_add(&want, "tail", 4);
	/* written in whole chunks, at offsets that are multiples of one */
	CHECK(t, f.off && f.off % QU_FILE_OUT_CHUNK == 0 &&
			 f.off + f.b.len == want.len);
	CHECK(t, qu_file_out_sum(&f) ==
			 XXH3_64bits(want.buf + 4, want.len - 4));
	qu_file_out_put_at(&f, 0, "HEAD", 4);
	CHECK(t, qu_file_read(&got, path.buf, &err) == 0 &&
			 got.len == 3 && !memcmp(got.buf, "old", 3));
	CHECK(t, qu_file_out_commit(&f, &err) == 0);
	qu_buf_reset(&got);
	CHECK(t, qu_file_read(&got, path.buf, &err) == 0 &&
			 got.len == want.len &&
			 !memcmp(got.buf, want.buf, want.len));
	/* a small file: its header is still in the buffer when put */
	CHECK(t, qu_file_out_open(&f, path.buf, &err) == 0);
	qu_file_out_add(&f, "....body", 8);
	qu_file_out_put_at(&f, 0, "HEAD", 4);
	CHECK(t, !f.off && qu_file_out_commit(&f, &err) == 0);
	qu_buf_reset(&got);
	CHECK(t, qu_file_read(&got, path.buf, &err) == 0 && got.len == 8 &&
			 !memcmp(got.buf, "HEADbody", 8));
	CHECK(t, qu_file_write_atomic(path.buf, want.buf, want.len, &err) ==
			 0);
	/* an abort leaves the file as it was, and no temporary file */
	CHECK(t, qu_file_out_open(&f, path.buf, &err) == 0);
	qu_file_out_add(&f, "new", 3);
	qu_file_out_abort(&f);
	qu_buf_reset(&got);
	CHECK(t, qu_file_read(&got, path.buf, &err) == 0 &&
			 got.len == want.len);
	qu_buf_reset(&got);
	qu_buf_addf(&got, "%s.tmp.%ld", path.buf, (long)getpid());
	CHECK(t, access(got.buf, F_OK) < 0);
	/* a folder that is not there: a message naming the file */
	qu_buf_reset(&got);
	qu_buf_addf(&got, "%s/none/state", dir);
	CHECK(t, qu_file_out_open(&f, got.buf, &err) < 0 &&
			 strstr(err.buf, "/none/state: cannot write"));
	unlink(path.buf);
	rmdir(dir);
	free(big);
	qu_buf_fini(&path);
	qu_buf_fini(&got);
	qu_buf_fini(&want);
	qu_buf_fini(&err);
}

static const struct group {
	const char *name;
	void (*fn)(struct tap *t);
} groups[] = {
	{"buf", test_buf},   {"arena", test_arena}, {"map", test_map},
	{"diag", test_diag}, {"lines", test_lines}, {"pool", test_pool},
	{"utf8", test_utf8}, {"json", test_json}, {"file_out", test_file_out},
};

int main(int argc, char **argv)
{
	int failed = 0;

	for (size_t i = 0; i < QU_ARRAY_SIZE(groups); i++) {
		struct tap t = {0};

		if (argc > 1 && strcmp(argv[1], groups[i].name))
			continue;
		groups[i].fn(&t);
		printf("%s %s: %d checks, %d failed\n",
		       t.failed ? "FAIL" : "ok", groups[i].name, t.checks,
		       t.failed);
		failed += t.failed;
	}
	return failed ? 1 : 0;
}
