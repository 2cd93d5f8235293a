// SPDX-License-Identifier: MIT
/*
 * fuzz_stamp.c - fuzz harness of quire build's stamp reader
 * (lib/build/stamp.c, build_stamp_read()): the inputs with their stat(2)
 * data, each folder's listing, the summary and the diagnostics. The key
 * is taken from the input and its checksum made right before it is read,
 * so that the fuzzer reaches the checks behind them, and the version is
 * not asked of git (the input names the repository). The inputs it names
 * are stat(2)ed, as a build would; the site it names is none, so the
 * stamp never matches and the listings of folders whose stat data does
 * are kept, as a build that goes on would keep them. The input is read
 * as a snapshot of the unit cache too (units.snap, lib/build/units.c:
 * build_units_snap_read()), its tail's executable, id and generation
 * taken for the database's and its checksum righted; every unit of a
 * snapshot that passes is loaded, as the build would. It is read as the
 * record of a back tree too (lib/build/back.c: build_back_rec_check()),
 * its root's device and inode taken for the tree's and its checksum
 * righted. The corpus holds the stamps of small trees, a snapshot of one
 * and the record of a small site's tree, as quire wrote them.
 */
#include <endian.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "build/build_int.h"
#include "fuzz.h"

/* where the key lies: after the magic (12 bytes), the format (4) and
 * quire's version (4 and its bytes) */
#define VERSION_AT 16

/* the tail of a snapshot: executable, id, generation, count, magic, sum */
#define SNAP_TAIL 48

static void snapshot(const uint8_t *data, size_t size)
{
	struct build_units u;
	uint64_t *copy = malloc(size + 8), exe, id, gen, sum;
	size_t i;

	if (!copy)
		abort();
	memcpy(copy, data, size);
	memset(&u, 0, sizeof(u));
	u.borrow = true;
	if (size >= 8 + SNAP_TAIL) {
		const char *c = (const char *)copy;

		memcpy(&exe, c + size - SNAP_TAIL, 8);
		memcpy(&id, c + size - SNAP_TAIL + 8, 8);
		memcpy(&gen, c + size - SNAP_TAIL + 16, 8);
		sum = XXH3_64bits(copy, size - 8);
		memcpy((char *)copy + size - 8, &sum, 8);
		if (!build_units_snap_read(&u, copy, size, exe, id, 0, gen)) {
			for (i = 0; i < u.n; i++) {
				struct qu_unit unit;
				struct qu_graph_exports ex = {0};

				if (!build_units_load(&u, &unit, &ex, &u.v[i],
						      u.v[i].path))
					abort();
				qu_unit_fini(&unit);
			}
		}
	}
	free(u.v);
	free(copy);
}

/* where a back tree record's root folder gives its device and inode:
 * after the magic (16), the format (4), the count (8), the root's empty
 * name (4 and its NUL) */
#define REC_ROOT_AT 33

static void back_record(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size + 1);
	uint64_t dev = 0, ino = 0, sum;

	if (!copy)
		abort();
	memcpy(copy, data, size);
	if (size >= REC_ROOT_AT + 16) {
		memcpy(&dev, copy + REC_ROOT_AT, 8);
		memcpy(&ino, copy + REC_ROOT_AT + 8, 8);
	}
	if (size >= 8) {
		sum = htole64(XXH3_64bits(copy, size - 8));
		memcpy(copy + size - 8, &sum, 8);
	}
	build_back_rec_check(copy, size, le64toh(dev), le64toh(ino));
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct build_deps deps;
	struct qu_diags diags;
	struct qu_arena a;
	struct qu_map seen;
	struct build_stamp st;
	uint8_t *copy = malloc(size + 1);
	uint32_t vlen;
	uint64_t v;

	if (!copy)
		abort();
	memcpy(copy, data, size);
	memset(&deps, 0, sizeof(deps));
	memset(&st, 0, sizeof(st));
	qu_diags_init(&diags);
	qu_arena_init(&a);
	qu_map_init(&seen);
	st.deps = &deps;
	st.diags = &diags;
	st.listings = qu_files_memo_new();
	st.no_version = true;
	if (size >= VERSION_AT + 4) {
		memcpy(&vlen, copy + VERSION_AT, 4);
		vlen = le32toh(vlen);
		if (vlen <= size - VERSION_AT - 4 &&
		    size - VERSION_AT - 4 - vlen >= 8) {
			memcpy(&v, copy + VERSION_AT + 4 + vlen, 8);
			st.key = le64toh(v);
		}
	}
	if (size >= 8) {
		v = htole64(XXH3_64bits(copy, size - 8));
		memcpy(copy + size - 8, &v, 8);
	}
	build_stamp_read(&st, copy, size, "/nonexistent/quire-fuzz-site", &a,
			 1);
	/* the table a build makes of what the read found */
	build_stamp_seen(&seen, &st);
	build_deps_fini(&deps);
	qu_diags_fini(&diags);
	qu_map_fini(&seen);
	qu_arena_fini(&a);
	qu_files_memo_free(st.listings);
	free(st.paths);
	free(copy);
	snapshot(data, size);
	back_record(data, size);
	return 0;
}
