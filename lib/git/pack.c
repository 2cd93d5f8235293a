// SPDX-License-Identifier: MIT
/*
 * pack.c - read objects out of a repository's packs (git stage)
 *
 * A build from a revision reads every blob of a tree, and inflating them
 * is most of what that costs beyond a build from the files: through
 * libgit2 (which inflates with zlib) a kernel tree's --rev build spent
 * 27% of its CPU time in zlib. This reader maps the packs and their
 * version-2 indexes itself and inflates with libdeflate, which does the
 * same work in well under half the time, since an object's size is known
 * before it is inflated and libdeflate needs no stream state.
 *
 * It reads packs only, and only what it understands: an object that is
 * loose, in an alternate, in an index of another version, or damaged, is
 * "not here" or "damaged", and the caller asks libgit2, which reads it or
 * says what is wrong. Every length and offset read from the files is
 * checked before it is used: the files are input like any other.
 *
 * Formats: Documentation/gitformat-pack.txt in git's tree (the pack, its
 * index, and the delta encoding).
 */
#include <dirent.h>
#include <stdatomic.h>
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "git/git_int.h"

#define IDX_HEAD (8 + 256 * 4)		/* magic, version, fan-out */
#define PACK_HEAD 12			/* "PACK", version, count */
#define TRAILER 20			/* a SHA-1 at the end of either */

/* deflate never expands more than 1032 times: a bound for sizes read */
#define MAX_RATIO 1032
/* delta chains: git writes 50 deep at most; a cycle must end somewhere */
#define MAX_CHAIN 4096

/* a bigger object, or a damaged size, is left to libgit2 */
#define MAX_OBJECT ((size_t)1 << 30)

/* the base cache of one handle: slots and the bytes they may hold */
#define CACHE_SLOTS 1024
#define CACHE_BYTES ((size_t)64 << 20)
#define CACHE_MAX_OBJECT ((size_t)4 << 20)

enum {
	OBJ_COMMIT = 1, OBJ_TREE = 2, OBJ_BLOB = 3, OBJ_TAG = 4,
	OBJ_OFS_DELTA = 6, OBJ_REF_DELTA = 7,
};

struct pack {
	const unsigned char *idx, *data;
	size_t idx_len, data_len;
	uint32_t n;			/* objects */
	size_t n_big;			/* 64-bit offsets */
	bool mapped;			/* munmap both at the end */
};

struct slot {
	size_t pack;
	uint64_t off;
	unsigned char *buf;		/* NULL: empty */
	size_t len;
	int type;
};

/* the mapped packs, shared by the handles of one repository */
struct pack_set {
	struct pack *v;
	size_t n;
	atomic_uint refs;
};

struct git_packs {
	struct pack_set *set;
	struct libdeflate_decompressor *inflater;
	struct slot cache[CACHE_SLOTS];
	size_t cached;			/* bytes held */
	size_t hand;			/* the next slot to evict */
	size_t max_object;		/* bigger ones are libgit2's */
	uint64_t *chain;		/* offsets on the way down to a base */
	size_t chain_cap;
	struct qu_buf delta;		/* one inflated delta */
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const unsigned char *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/*
 * Check an index and its pack and fill @p; false when either is not
 * something this reader knows (an index of version 1, a pack of another
 * version) or is cut short.
 */
static bool pack_init(struct pack *p, const unsigned char *idx,
		      size_t idx_len, const unsigned char *data,
		      size_t data_len)
{
	static const unsigned char magic[8] = {0xff, 't', 'O', 'c', 0, 0, 0, 2};
	uint32_t prev = 0, v;
	size_t i, fixed;

	memset(p, 0, sizeof(*p));
	if (idx_len < IDX_HEAD + 2 * TRAILER || memcmp(idx, magic, 8))
		return false;
	for (i = 0; i < 256; i++) {
		v = be32(idx + 8 + 4 * i);
		if (v < prev)
			return false;
		prev = v;
	}
	/* ids, CRCs and 32-bit offsets: 28 bytes each */
	if (prev > (idx_len - IDX_HEAD - 2 * TRAILER) / 28)
		return false;
	fixed = IDX_HEAD + (size_t)prev * 28 + 2 * TRAILER;
	if ((idx_len - fixed) % 8)
		return false;
	if (data_len < PACK_HEAD + TRAILER || memcmp(data, "PACK", 4) ||
	    (be32(data + 4) != 2 && be32(data + 4) != 3) ||
	    be32(data + 8) != prev)
		return false;
	p->idx = idx;
	p->idx_len = idx_len;
	p->data = data;
	p->data_len = data_len;
	p->n = prev;
	p->n_big = (idx_len - fixed) / 8;
	return true;
}

/* The offset in its pack of the object @oid, or 0 when it is not there. */
static uint64_t pack_find(const struct pack *p, const unsigned char oid[20])
{
	const unsigned char *ids = p->idx + IDX_HEAD;
	const unsigned char *offs = ids + (size_t)p->n * 24;
	uint32_t lo = oid[0] ? be32(p->idx + 8 + 4 * (oid[0] - 1)) : 0;
	uint32_t hi = be32(p->idx + 8 + 4 * oid[0]);
	uint32_t o;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = memcmp(ids + (size_t)mid * 20, oid, 20);

		if (c == 0) {
			o = be32(offs + (size_t)mid * 4);
			if (!(o & 0x80000000u))
				return o;
			o &= 0x7fffffffu;
			if (o >= p->n_big)
				return 0;
			return be64(offs + (size_t)p->n * 4 + (size_t)o * 8);
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/*
 * An object's header at @off: its type, its size, and where its deflated
 * bytes begin (@data_out); for a delta, the offset of its base in the same
 * pack (@base_out). False when the header is damaged.
 */
static bool object_head(int *type_out, size_t *size_out, size_t *data_out,
			uint64_t *base_out, const struct pack *p, uint64_t off)
{
	const size_t end = p->data_len - TRAILER;
	size_t i = (size_t)off, shift = 4, size;
	unsigned c;

	if (off < PACK_HEAD || off >= end)
		return false;
	c = p->data[i++];
	*type_out = (c >> 4) & 7;
	size = c & 15;
	while (c & 0x80) {
		if (i >= end || shift > 8 * sizeof(size_t) - 7)
			return false;
		c = p->data[i++];
		size |= (size_t)(c & 0x7f) << shift;
		shift += 7;
	}
	*base_out = 0;
	if (*type_out == OBJ_OFS_DELTA) {
		uint64_t back;

		if (i >= end)
			return false;
		c = p->data[i++];
		back = c & 0x7f;
		while (c & 0x80) {
			if (i >= end || back > (UINT64_MAX >> 7) - 1)
				return false;
			c = p->data[i++];
			back = ((back + 1) << 7) | (c & 0x7f);
		}
		if (back == 0 || back > off)
			return false;
		*base_out = off - back;
	} else if (*type_out == OBJ_REF_DELTA) {
		if (end - i < 20)
			return false;
		*base_out = pack_find(p, p->data + i);
		i += 20;
		if (*base_out == 0)
			return false;	/* a base in another pack: libgit2's */
	} else if (*type_out < OBJ_COMMIT || *type_out > OBJ_TAG) {
		return false;
	}
	if (i >= end || size / MAX_RATIO > end - i)
		return false;
	*size_out = size;
	*data_out = i;
	return true;
}

/* Inflate @size bytes of the object whose data begins at @at into @dst. */
static bool inflate_to(struct git_packs *ps, unsigned char *dst, size_t size,
		       const struct pack *p, size_t at)
{
	size_t got;

	return libdeflate_zlib_decompress_ex(ps->inflater, p->data + at,
			p->data_len - TRAILER - at, dst, size, NULL, &got) ==
			LIBDEFLATE_SUCCESS && got == size;
}

/* a delta's sizes: little-endian base-128 */
static bool delta_size(size_t *out, const unsigned char **d,
		       const unsigned char *end)
{
	size_t v = 0, shift = 0;
	unsigned c;

	do {
		if (*d >= end || shift > 8 * sizeof(size_t) - 7)
			return false;
		c = *(*d)++;
		v |= (size_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	*out = v;
	return true;
}

/*
 * The size of the object the delta in ps->delta makes, after checking
 * that its base is @base_len bytes; false when the delta is damaged.
 */
static bool delta_target(size_t *out, const unsigned char **d,
			 const struct git_packs *ps, size_t base_len)
{
	const unsigned char *end;
	size_t src;

	*d = (const unsigned char *)ps->delta.buf;
	end = *d + ps->delta.len;
	return delta_size(&src, d, end) && src == base_len &&
	       delta_size(out, d, end);
}

/* Apply the delta from @d on (@base, @base_len) into @dst of @len bytes. */
static bool delta_apply(unsigned char *dst, size_t len,
			const unsigned char *base, size_t base_len,
			const unsigned char *d, const unsigned char *end)
{
	size_t at = 0;

	while (d < end) {
		unsigned op = *d++;

		if (op & 0x80) {
			size_t off = 0, n = 0;
			int b;

			for (b = 0; b < 4; b++)
				if (op & (1u << b)) {
					if (d >= end)
						return false;
					off |= (size_t)*d++ << (8 * b);
				}
			for (b = 0; b < 3; b++)
				if (op & (0x10u << b)) {
					if (d >= end)
						return false;
					n |= (size_t)*d++ << (8 * b);
				}
			if (n == 0)
				n = 0x10000;
			if (off > base_len || n > base_len - off ||
			    n > len - at)
				return false;
			memcpy(dst + at, base + off, n);
			at += n;
		} else if (op) {
			if (op > (size_t)(end - d) || op > len - at)
				return false;
			memcpy(dst + at, d, op);
			d += op;
			at += op;
		} else {
			return false;	/* reserved */
		}
	}
	return at == len;
}

static size_t slot_of(size_t pack, uint64_t off)
{
	uint64_t h = (off ^ (uint64_t)pack << 56) * 0x9e3779b97f4a7c15u;

	return (size_t)(h >> 54) % CACHE_SLOTS;
}

static struct slot *cache_get(struct git_packs *ps, size_t pack,
			      uint64_t off)
{
	struct slot *s = &ps->cache[slot_of(pack, off)];

	return s->buf && s->pack == pack && s->off == off ? s : NULL;
}

static void slot_clear(struct git_packs *ps, struct slot *s)
{
	if (!s->buf)
		return;
	ps->cached -= s->len;
	free(s->buf);
	s->buf = NULL;
}

/*
 * Keep (@buf, @len), which the cache now owns, as the object at @off: in
 * its slot, after freeing others round the clock while the cache is over
 * its bytes.
 */
static void cache_put(struct git_packs *ps, size_t pack, uint64_t off,
		      unsigned char *buf, size_t len, int type)
{
	struct slot *s = &ps->cache[slot_of(pack, off)];

	slot_clear(ps, s);
	while (ps->cached + len > CACHE_BYTES) {
		slot_clear(ps, &ps->cache[ps->hand]);
		ps->hand = (ps->hand + 1) % CACHE_SLOTS;
	}
	*s = (struct slot){.pack = pack, .off = off, .buf = buf, .len = len,
			   .type = type};
	ps->cached += len;
}

/*
 * Where an object of @len bytes is made: @out's bytes for the object
 * asked for (@last), else new memory, a base for the cache.
 */
static unsigned char *out_to(struct qu_buf *out, bool last, size_t len)
{
	unsigned char *m;

	if (last) {
		qu_buf_reset(out);
		qu_buf_grow(out, len);
		return (unsigned char *)out->buf;
	}
	m = malloc(len ? len : 1);
	if (!m)
		abort();
	return m;
}

static int out_done(struct qu_buf *out, int *type_out, size_t len, int type)
{
	out->len = len;
	out->buf[len] = '\0';
	*type_out = type;
	return 0;
}

/*
 * Read the object at @off of pack @pi into @out: walk down its chain of
 * deltas to a whole object or one in the cache, then build back up,
 * keeping each base on the way. Returns 0, or -1 when damaged.
 */
static int read_at(struct qu_buf *out, int *type_out, struct git_packs *ps,
		   size_t pi, uint64_t off)
{
	const struct pack *p = &ps->set->v[pi];
	unsigned char *base = NULL;	/* ours, or the cache's if @cached */
	size_t base_len = 0, depth = 0, size, at;
	const unsigned char *d;
	bool cached = false;
	int type = 0;
	uint64_t cur = off, next;

	for (;;) {
		struct slot *s = cache_get(ps, pi, cur);

		if (s) {
			base = s->buf;
			base_len = s->len;
			type = s->type;
			cached = true;
			break;
		}
		if (!object_head(&type, &size, &at, &next, p, cur) ||
		    size > ps->max_object)
			goto bad;
		if (type != OBJ_OFS_DELTA && type != OBJ_REF_DELTA) {
			/* most objects are whole: straight into @out */
			unsigned char *to = out_to(out, depth == 0, size);

			if (!inflate_to(ps, to, size, p, at)) {
				if (depth)
					free(to);
				return -1;
			}
			if (depth == 0)
				return out_done(out, type_out, size, type);
			base = to;
			base_len = size;
			break;
		}
		if (depth == MAX_CHAIN)
			goto bad;
		if (depth == ps->chain_cap) {
			ps->chain_cap = ps->chain_cap ? 2 * ps->chain_cap : 64;
			ps->chain = realloc(ps->chain,
					    ps->chain_cap * sizeof(*ps->chain));
			if (!ps->chain)
				abort();
		}
		ps->chain[depth++] = cur;
		cur = next;
	}
	if (depth == 0) {
		qu_buf_reset(out);
		qu_buf_add(out, base, base_len);
		*type_out = type;
		return 0;
	}
	while (depth > 0) {
		uint64_t here = ps->chain[--depth];
		unsigned char *made;
		size_t len;
		int dtype;

		if (!object_head(&dtype, &size, &at, &next, p, here) ||
		    size > ps->max_object)
			goto bad;
		qu_buf_reset(&ps->delta);
		qu_buf_grow(&ps->delta, size);
		if (!inflate_to(ps, (unsigned char *)ps->delta.buf, size, p,
				at))
			goto bad;
		ps->delta.len = size;
		/* a copy is of the base, an insert of at most 127 bytes */
		if (!delta_target(&len, &d, ps, base_len) ||
		    len > ps->max_object ||
		    len / (size ? size : 1) > base_len + 127)
			goto bad;
		/* the object asked for goes straight into @out */
		made = out_to(out, depth == 0, len);
		if (!delta_apply(made, len, base, base_len, d,
				 (const unsigned char *)ps->delta.buf +
				 ps->delta.len)) {
			if (depth)
				free(made);
			goto bad;
		}
		/* the base served; keep it for its other deltas */
		if (!cached && base_len <= CACHE_MAX_OBJECT)
			cache_put(ps, pi, cur, base, base_len, type);
		else if (!cached)
			free(base);
		if (depth == 0)
			return out_done(out, type_out, len, type);
		base = made;
		base_len = len;
		cached = false;
		cur = here;
	}
bad:
	if (!cached)
		free(base);
	return -1;
}

int git_packs_read(struct qu_buf *out, int *type_out, struct git_packs *ps,
		   const unsigned char oid[20])
{
	size_t i;

	for (i = 0; i < ps->set->n; i++) {
		uint64_t off = pack_find(&ps->set->v[i], oid);

		if (off)
			return read_at(out, type_out, ps, i, off);
	}
	return 1;
}

static struct git_packs *packs_new(size_t max_object, struct pack_set *set)
{
	struct git_packs *ps = calloc(1, sizeof(*ps));

	if (!ps)
		abort();
	if (!set) {
		set = calloc(1, sizeof(*set));
		if (!set)
			abort();
		atomic_init(&set->refs, 1);
	} else {
		atomic_fetch_add(&set->refs, 1);
	}
	ps->set = set;
	ps->max_object = max_object;
	ps->inflater = libdeflate_alloc_decompressor();
	if (!ps->inflater)
		abort();
	qu_buf_init(&ps->delta);
	return ps;
}

static void packs_add(struct git_packs *ps, const struct pack *p)
{
	struct pack_set *set = ps->set;

	set->v = realloc(set->v, (set->n + 1) * sizeof(*set->v));
	if (!set->v)
		abort();
	set->v[set->n++] = *p;
}

struct git_packs *git_packs_share(const struct git_packs *ps)
{
	return packs_new(ps->max_object, ps->set);
}

struct git_packs *git_packs_from_memory(const unsigned char *idx,
					size_t idx_len,
					const unsigned char *data,
					size_t data_len, size_t max_object)
{
	struct git_packs *ps = packs_new(max_object, NULL);
	struct pack p;

	if (pack_init(&p, idx, idx_len, data, data_len))
		packs_add(ps, &p);
	return ps;
}

/* Map @dir/@name read-only; NULL when it cannot be read or is empty. */
static const unsigned char *map_file(size_t *len_out, const char *dir,
				     const char *name)
{
	struct qu_buf path = QU_BUF_INIT;
	const void *m = NULL;

	qu_buf_addf(&path, "%s/%s", dir, name);
	if (qu_file_map(path.buf, &m, len_out) < 0)
		m = NULL;
	qu_buf_fini(&path);
	return m;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct git_packs *git_packs_open(const char *objects)
{
	struct git_packs *ps = packs_new(MAX_OBJECT, NULL);
	struct qu_buf dir = QU_BUF_INIT, name = QU_BUF_INIT;
	char **names = NULL;
	size_t n = 0, i;
	struct dirent *e;
	DIR *d;

	qu_buf_adds(&dir, objects);
	qu_buf_adds(&dir, "/pack");
	d = opendir(dir.buf);
	if (!d)
		goto out;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len < 5 || strcmp(e->d_name + len - 4, ".idx"))
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (!names || !(names[n] = strdup(e->d_name)))
			abort();
		n++;
	}
	/* the same order every time, whatever the folder's */
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		size_t idx_len = 0, data_len = 0;
		const unsigned char *idx = map_file(&idx_len, dir.buf, names[i]);
		const unsigned char *data;
		struct pack p;

		qu_buf_reset(&name);
		qu_buf_add(&name, names[i], strlen(names[i]) - 4);
		qu_buf_adds(&name, ".pack");
		data = idx ? map_file(&data_len, dir.buf, name.buf) : NULL;
		if (data && pack_init(&p, idx, idx_len, data, data_len)) {
			p.mapped = true;
			packs_add(ps, &p);
			continue;
		}
		qu_file_unmap(idx, idx_len);
		qu_file_unmap(data, data_len);
	}
	closedir(d);
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	qu_buf_fini(&dir);
	qu_buf_fini(&name);
	return ps;
}

void git_packs_free(struct git_packs *ps)
{
	size_t i;

	if (!ps)
		return;
	if (atomic_fetch_sub(&ps->set->refs, 1) == 1) {
		struct pack_set *set = ps->set;

		for (i = 0; i < set->n; i++)
			if (set->v[i].mapped) {
				qu_file_unmap(set->v[i].idx, set->v[i].idx_len);
				qu_file_unmap(set->v[i].data,
					      set->v[i].data_len);
			}
		free(set->v);
		free(set);
	}
	for (i = 0; i < CACHE_SLOTS; i++)
		free(ps->cache[i].buf);
	libdeflate_free_decompressor(ps->inflater);
	qu_buf_fini(&ps->delta);
	free(ps->chain);
	free(ps);
}

size_t git_packs_count(const struct git_packs *ps, size_t *objects_out)
{
	size_t i, n = 0;

	for (i = 0; i < ps->set->n; i++)
		n += ps->set->v[i].n;
	if (objects_out)
		*objects_out = n;
	return ps->set->n;
}
