// SPDX-License-Identifier: MIT
/*
 * cache.c - what one build leaves for the next: page fingerprints
 *
 * Part of lib/build. One file per output folder in the cache folder,
 * written atomically and read whole: a header naming the format, quire's
 * version and the output folder, then each page's output path,
 * fingerprint and render diagnostics, then an XXH3 checksum of all of it.
 * Integers are little-endian whatever the machine. A file that is
 * truncated, corrupt, foreign or of another version is ignored with a
 * note, never trusted: the worst a bad cache can cost is renders.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "build_int.h"
#include "qu_config.h"

#define CACHE_MAGIC "quire-cache\n"
#define CACHE_FORMAT 2

static void state_file(struct qu_buf *b, const char *dir, const char *site)
{
	qu_buf_addf(b, "%s/site-%016llx", dir,
		    (unsigned long long)XXH3_64bits(site, strlen(site)));
}

/* -W name to registry row + 1, made once: a kernel tree's cache names
 * tens of thousands of diagnostics */
static struct qu_map diag_names;
static pthread_once_t diag_names_once = PTHREAD_ONCE_INIT;

static void diag_names_init(void)
{
	qu_map_init(&diag_names);
	for (int i = 0; i < QU_DIAG__COUNT; i++) {
		const char *w = qu_diag_info((enum qu_diag_id)i)->name;

		*qu_map_slot(&diag_names, w, strlen(w)) =
			(void *)(uintptr_t)(i + 1);
	}
}

bool build_diag_by_name(enum qu_diag_id *out, const char *name, size_t n)
{
	uintptr_t v;

	pthread_once(&diag_names_once, diag_names_init);
	v = (uintptr_t)qu_map_get(&diag_names, name, n);
	if (!v)
		return false;
	*out = (enum qu_diag_id)(v - 1);
	return true;
}

static bool str_is(const char *s, size_t n, const char *want)
{
	return s && strlen(want) == n && !memcmp(s, want, n);
}

static const char *parse(struct build_cache *c, struct build_rd *r,
			 const char *site, struct qu_arena *paths)
{
	char magic[sizeof(CACHE_MAGIC) - 1];
	const char *s;
	size_t n, i;
	uint64_t np;

	if (!build_get(r, magic, sizeof(magic)) ||
	    memcmp(magic, CACHE_MAGIC, sizeof(magic)))
		return "not a quire cache";
	if (build_get_u32(r) != CACHE_FORMAT)
		return "written in another format";
	s = build_get_str(r, NULL, &n);
	if (!str_is(s, n, QU_VERSION))
		return r->bad ? "truncated" : "written by another quire";
	s = build_get_str(r, NULL, &n);
	if (!str_is(s, n, site))
		return r->bad ? "truncated" : "written for another site";
	np = build_get_u64(r);
	if (r->bad || np > r->left / 16)
		return "truncated";
	c->pages = qu_xcalloc(np + 1, sizeof(*c->pages));
	for (i = 0; i < np && !r->bad; i++) {
		struct build_page_state *ps = &c->pages[i];
		uint32_t nd, k;

		s = build_get_str(r, NULL, &n);
		if (!s)
			break;
		ps->out = qu_xstrndup(s, n);
		ps->key = build_get_u64(r);
		qu_diags_init(&ps->diags);
		c->npages++;
		nd = build_get_u32(r);
		for (k = 0; k < nd && !r->bad; k++) {
			const char *name, *path, *msg;
			size_t nn, pn, mn;
			enum qu_diag_id id;
			uint32_t line, col;

			name = build_get_str(r, NULL, &nn);
			path = build_get_str(r, NULL, &pn);
			line = build_get_u32(r);
			col = build_get_u32(r);
			msg = build_get_str(r, NULL, &mn);
			if (r->bad)
				break;
			/* quire never writes a NULL here */
			if (!name || !path || !msg)
				return "corrupt (a missing string)";
			if (!build_diag_by_name(&id, name, nn))
				return "names an unknown diagnostic";
			qu_diag_text(&ps->diags, id,
				     qu_arena_strndup(paths, path, pn), line,
				     col, msg ? msg : "", msg ? mn : 0);
		}
		if (i && strcmp(c->pages[i - 1].out, ps->out) >= 0)
			return "corrupt (pages out of order)";
	}
	if (r->bad)
		return "truncated";
	if (r->left)
		return "corrupt (bytes after the end)";
	return NULL;
}

void build_search_state_path(struct qu_buf *b, const char *dir,
			     const char *site)
{
	qu_buf_addf(b, "%s/search-%016llx", dir,
		    (unsigned long long)XXH3_64bits(site, strlen(site)));
}

void build_back_path(struct qu_buf *b, const char *dir, const char *site)
{
	qu_buf_addf(b, "%s/back-%016llx", dir,
		    (unsigned long long)XXH3_64bits(site, strlen(site)));
}

const char *build_cache_read(struct build_cache *c, const char *dir,
			     const char *site, struct qu_arena *paths)
{
	struct qu_buf path = QU_BUF_INIT, data = QU_BUF_INIT,
		      err = QU_BUF_INIT;
	const char *why = NULL;
	uint64_t sum;
	struct build_rd r;

	memset(c, 0, sizeof(*c));
	state_file(&path, dir, site);
	if (qu_file_read(&data, path.buf, &err) < 0)
		goto out; /* no cache: a first build */
	if (data.len < 8) {
		why = "truncated";
		goto out;
	}
	memcpy(&sum, data.buf + data.len - 8, 8);
	if (le64toh(sum) != XXH3_64bits(data.buf, data.len - 8)) {
		why = "corrupt (checksum)";
		goto out;
	}
	r.p = (const unsigned char *)data.buf;
	r.left = data.len - 8;
	r.bad = false;
	why = parse(c, &r, site, paths);
out:
	if (why)
		build_cache_fini(c);
	qu_buf_fini(&path);
	qu_buf_fini(&data);
	qu_buf_fini(&err);
	return why;
}

static int cmp_state(const void *a, const void *b)
{
	return strcmp(((const struct build_page_state *)a)->out,
		      ((const struct build_page_state *)b)->out);
}

int build_cache_write(const struct build_cache *c, const char *dir,
		      const char *site, struct qu_buf *err)
{
	struct build_page_state *v =
		qu_xcalloc(c->npages + 1, sizeof(*v));
	struct qu_buf b = QU_BUF_INIT, path = QU_BUF_INIT;
	size_t i, k;
	int r = -1;

	memcpy(v, c->pages, c->npages * sizeof(*v));
	qsort(v, c->npages, sizeof(*v), cmp_state);
	qu_buf_add(&b, CACHE_MAGIC, sizeof(CACHE_MAGIC) - 1);
	build_put_u32(&b, CACHE_FORMAT);
	build_put_str(&b, QU_VERSION);
	build_put_str(&b, site);
	build_put_u64(&b, c->npages);
	for (i = 0; i < c->npages; i++) {
		build_put_str(&b, v[i].out);
		build_put_u64(&b, v[i].key);
		build_put_u32(&b, (uint32_t)v[i].diags.n);
		for (k = 0; k < v[i].diags.n; k++)
			build_put_diag(&b, &v[i].diags.v[k]);
	}
	build_put_u64(&b, XXH3_64bits(b.buf, b.len));
	if (qu_mkdir_p(dir, err) < 0)
		goto out;
	qu_buf_add_path(&path, dir, QU_CACHE_MARKER);
	if (qu_file_write_atomic(path.buf, "quire-cache 1\n", 14, err) < 0)
		goto out;
	qu_buf_reset(&path);
	state_file(&path, dir, site);
	r = qu_file_write_atomic(path.buf, b.buf, b.len, err);
out:
	free(v);
	qu_buf_fini(&b);
	qu_buf_fini(&path);
	return r;
}

void build_cache_fini(struct build_cache *c)
{
	size_t i;

	for (i = 0; i < c->npages; i++) {
		free(c->pages[i].out);
		qu_diags_fini(&c->pages[i].diags);
	}
	free(c->pages);
	memset(c, 0, sizeof(*c));
}

const struct build_page_state *build_cache_find(const struct build_cache *c,
						const char *out)
{
	size_t lo = 0, hi = c->npages;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = strcmp(out, c->pages[mid].out);

		if (!d)
			return &c->pages[mid];
		if (d < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/*
 * A memo the cache keeps by content (it is never stale): "quire-memo\n",
 * the format, the hash of the quire executable that wrote it, a key of
 * 16 bytes, the XXH3 of the rest, then the memo's bytes. A file that does
 * not check is not used, nor one another quire wrote: the same content
 * may give it other bytes (objects.inv compressed otherwise).
 */
#define MEMO_MAGIC "quire-memo\n"
#define MEMO_FORMAT 3
/*
 * with a zero byte after the sum: the bytes start 8-aligned in a mapped
 * file, where the placement's words are read in place
 */
#define MEMO_HEAD (sizeof(MEMO_MAGIC) - 1 + 4 + 8 + 16 + 8 + 1)
_Static_assert(MEMO_HEAD % 8 == 0, "a memo's bytes 8-aligned");

/* what memo_read() says: why a file was not used, by memo */
struct memo_file {
	const char *name;
	const char *unreadable;
	const char *truncated;
	const char *format;
	const char *checksum;
};

static const struct memo_file inv_memo = {
	"inventory", "objects.inv: unreadable", "objects.inv: truncated",
	"objects.inv: written in another format",
	"objects.inv: corrupt (checksum)"};
static const struct memo_file place_memo = {
	"placement", "placement: unreadable", "placement: truncated",
	"placement: written in another format",
	"placement: corrupt (checksum)"};
static const struct memo_file refs_memo = {
	"refs", "refs: unreadable", "refs: truncated",
	"refs: written in another format", "refs: corrupt (checksum)"};

static void memo_path(struct qu_buf *b, const char *dir,
		      const struct memo_file *f)
{
	qu_buf_add_path(b, dir, f->name);
}

/*
 * The memo @f in the cache folder @dir, mapped into @map (read, never
 * copied: the placement's 20 MB are read where they lie): its key, and
 * its bytes from @map->p + MEMO_HEAD, 8-aligned. Return: NULL, or why it
 * is not used ("" when there is none), and then nothing is mapped.
 */
static const char *memo_check(const struct memo_file *f, const char *data,
			      size_t len, uint64_t exe, unsigned char key[16])
{
	const char *p;
	uint32_t format;
	uint64_t by, sum;

	if (len < MEMO_HEAD || memcmp(data, MEMO_MAGIC, sizeof(MEMO_MAGIC) - 1))
		return f->truncated;
	p = data + sizeof(MEMO_MAGIC) - 1;
	memcpy(&format, p, 4);
	memcpy(&by, p + 4, 8);
	memcpy(&sum, p + 4 + 8 + 16, 8);
	if (le32toh(format) != MEMO_FORMAT)
		return f->format;
	if (le64toh(sum) != XXH3_64bits(data + MEMO_HEAD, len - MEMO_HEAD))
		return f->checksum;
	if (le64toh(by) != exe)
		return "";	/* another quire's: not a fault */
	memcpy(key, p + 4 + 8, 16);
	return NULL;
}

static const char *memo_read(const struct memo_file *f, const char *dir,
			     uint64_t exe, struct build_map *map,
			     unsigned char key[16])
{
	struct qu_buf path = QU_BUF_INIT;
	const char *why;

	memo_path(&path, dir, f);
	if (qu_file_map(path.buf, &map->p, &map->size) < 0)
		why = errno == ENOENT ? "" : f->unreadable;
	else
		why = memo_check(f, map->p, map->size, exe, key);
	qu_buf_fini(&path);
	if (why) {
		qu_file_unmap(map->p, map->size);
		map->p = NULL;
		map->size = 0;
	}
	return why;
}

static int memo_write(const struct memo_file *f, const char *dir,
		      uint64_t exe, const unsigned char key[16],
		      const void *body, size_t len, struct qu_buf *err)
{
	struct qu_buf path = QU_BUF_INIT, data = QU_BUF_INIT;
	uint32_t format = htole32(MEMO_FORMAT);
	uint64_t by = htole64(exe), sum = htole64(XXH3_64bits(body, len));
	int r;

	memo_path(&path, dir, f);
	qu_buf_adds(&data, MEMO_MAGIC);
	qu_buf_add(&data, &format, 4);
	qu_buf_add(&data, &by, 8);
	qu_buf_add(&data, key, 16);
	qu_buf_add(&data, &sum, 8);
	qu_buf_addc(&data, 0);
	qu_buf_add(&data, body, len);
	r = qu_file_write_atomic(path.buf, data.buf, data.len, err);
	qu_buf_fini(&path);
	qu_buf_fini(&data);
	return r;
}

/* objects.inv's compressed body, keyed by the hash of what it compresses */
const char *build_inv_read(struct qu_inv_memo *m, const char *dir,
			   uint64_t exe)
{
	struct build_map data;
	const char *bytes;
	unsigned char key[16];
	const char *why = memo_read(&inv_memo, dir, exe, &data, key);
	uint64_t inputs;

	/* the key of what the body was made of, then the body */
	if (!why && data.size < MEMO_HEAD + 8)
		why = inv_memo.truncated;
	if (!why) {
		bytes = (const char *)data.p + MEMO_HEAD;
		memcpy(&m->key, key, sizeof(m->key));
		memcpy(&inputs, bytes, 8);
		m->inputs = le64toh(inputs);
		qu_buf_reset(&m->z);
		qu_buf_add(&m->z, bytes + 8, data.size - MEMO_HEAD - 8);
	}
	qu_file_unmap(data.p, data.size);
	return why && *why ? why : NULL;
}

int build_inv_write(const struct qu_inv_memo *m, const char *dir,
		    uint64_t exe, struct qu_buf *err)
{
	struct qu_buf body = QU_BUF_INIT;
	unsigned char key[16];
	uint64_t inputs = htole64(m->inputs);
	int r;

	memcpy(key, &m->key, sizeof(key));
	qu_buf_add(&body, &inputs, 8);
	qu_buf_add(&body, m->z.buf, m->z.len);
	r = memo_write(&inv_memo, dir, exe, key, body.buf, body.len, err);
	qu_buf_fini(&body);
	return r;
}

const char *build_place_read(struct build_map *map, const void **body,
			     size_t *len, const char *dir, uint64_t exe,
			     uint64_t key[2])
{
	unsigned char k[16];
	const char *why = memo_read(&place_memo, dir, exe, map, k);

	*body = NULL;
	*len = 0;
	if (why)
		return *why ? why : NULL;
	memcpy(key, k, sizeof(k));
	*body = (const char *)map->p + MEMO_HEAD;
	*len = map->size - MEMO_HEAD;
	return NULL;
}

int build_place_write(const struct qu_graph *g, uint64_t refs_key,
		      const char *dir, uint64_t exe, const uint64_t key[2],
		      struct qu_buf *err)
{
	struct qu_buf body = QU_BUF_INIT;
	unsigned char k[16];
	int r = 0;

	memcpy(k, key, sizeof(k));
	if (!qu_graph_place_save(g, refs_key, &body))
		r = memo_write(&place_memo, dir, exe, k, body.buf, body.len,
			       err);
	qu_buf_fini(&body);
	return r;
}

/*
 * What comments name (lib/graph's memo), keyed by their units' content;
 * the file's key is the reader's settings, and a memo another reader
 * made is not used.
 */
/* the key: the reader's settings, then the units' hashes' hash */
const char *build_refs_read(struct qu_graph_memo *m, const char *dir,
			    uint64_t exe, uint64_t key, uint64_t *units)
{
	struct build_map data;
	unsigned char k[16];
	const char *why = memo_read(&refs_memo, dir, exe, &data, k);

	*units = 0;
	/* another reader's (other settings): not a fault */
	if (!why && !memcmp(k, &key, sizeof(key))) {
		if (!qu_graph_memo_read(m, (const char *)data.p + MEMO_HEAD,
					data.size - MEMO_HEAD))
			why = "refs: corrupt";
		else
			memcpy(units, k + 8, sizeof(*units));
	}
	qu_file_unmap(data.p, data.size);
	return why && *why ? why : NULL;
}

int build_refs_write(struct qu_graph_memo *m, const char *dir, uint64_t exe,
		     uint64_t key, uint64_t units, struct qu_buf *err)
{
	struct qu_buf body = QU_BUF_INIT;
	unsigned char k[16];
	int r;

	memcpy(k, &key, sizeof(key));
	memcpy(k + 8, &units, sizeof(units));
	qu_graph_memo_write(m, &body);
	r = memo_write(&refs_memo, dir, exe, k, body.buf, body.len, err);
	qu_buf_fini(&body);
	return r;
}
