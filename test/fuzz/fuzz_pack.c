// SPDX-License-Identifier: MIT
/*
 * fuzz_pack.c - fuzz harness of the git stage's pack reader
 * (lib/git/pack.c): the input is a pack index's length (4 bytes,
 * big-endian), the index, and the pack. Every object the index lists is
 * read, and a few it does not; a read either succeeds with an object of a
 * git type no bigger than the limit, or says "damaged" or "not here".
 * The corpus holds real packs (offset and reference deltas, 64-bit
 * offsets) made by git.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "git/git_int.h"

/* bigger objects count as damaged: keeps the fuzzer's memory small */
#define LIMIT (1 << 20)

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void read_one(struct git_packs *ps, const unsigned char id[20])
{
	struct qu_buf out = QU_BUF_INIT;
	int type = 0, r = git_packs_read(&out, &type, ps, id);

	assert(r == 0 || r == 1 || r == -1);
	if (r == 0) {
		assert(type >= 1 && type <= 4);
		assert(out.len <= LIMIT && out.buf[out.len] == '\0');
	}
	qu_buf_fini(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char id[20];
	struct git_packs *ps;
	size_t idx_len, n, i, objects = 0;
	uint8_t *idx, *pack;

	if (size < 4)
		return 0;
	idx_len = be32(data);
	if (idx_len > size - 4)
		return 0;
	/* copies, so that reading past either end is a bug ASan sees */
	idx = malloc(idx_len ? idx_len : 1);
	pack = malloc(size - 4 - idx_len + 1);
	if (!idx || !pack)
		abort();
	memcpy(idx, data + 4, idx_len);
	memcpy(pack, data + 4 + idx_len, size - 4 - idx_len);
	ps = git_packs_from_memory(idx, idx_len, pack, size - 4 - idx_len,
				   LIMIT);
	if (git_packs_count(ps, &objects) == 1) {
		n = objects;
		for (i = 0; i < n && i < 4096; i++)
			read_one(ps, idx + 8 + 256 * 4 + 20 * i);
		/* twice: the second time from the cache */
		for (i = 0; i < n && i < 64; i++)
			read_one(ps, idx + 8 + 256 * 4 + 20 * i);
	}
	memset(id, 0, sizeof(id));
	read_one(ps, id);
	memset(id, 0xff, sizeof(id));
	read_one(ps, id);
	git_packs_free(ps);
	free(idx);
	free(pack);
	return 0;
}
