// SPDX-License-Identifier: MIT
/*
 * fuzz_maintainers.c - fuzz harness of the MAINTAINERS reader and
 * matcher (cover stage): any bytes parse; the index finds exactly the
 * entries a brute-force walk over every pattern finds, for every
 * pattern's own text used as a path and for a few fixed paths.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../fuzz/fuzz.h"
#include "cover/cover.h"

/* Deterministic: a path "is a directory" when its length is odd. */
static bool odd_dir(const char *path, void *payload)
{
	(void)payload;
	return strlen(path) % 2;
}

static void check(const struct qu_maintainers *m, const char *path)
{
	uint32_t *hits = NULL;
	size_t nh = 0, alloc = 0, k = 0;

	qu_maint_match(&hits, &nh, &alloc, m, path);
	for (size_t e = 0; e < m->n; e++) {
		bool inc = false, exc = false;

		for (size_t p = 0; p < m->v[e].npats; p++) {
			if (!qu_maint_pattern_match(m->v[e].pats[p].glob, path))
				continue;
			if (m->v[e].pats[p].exclude)
				exc = true;
			else
				inc = true;
		}
		if (inc && !exc) {
			assert(k < nh && hits[k] == e);
			k++;
		}
	}
	assert(k == nh);
	free(hits);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = {
		"", "a", "a/b", "drivers/net/x.c", "include/linux/list.h",
	};
	struct qu_maintainers m;
	size_t checked = 0;

	qu_maint_parse(&m, (const char *)data, size, odd_dir, NULL);
	for (size_t i = 0; i < QU_ARRAY_SIZE(paths); i++)
		check(&m, paths[i]);
	/* bounded: a file of 10^5 patterns would take the product */
	for (size_t e = 0; e < m.n && checked < 64; e++)
		for (size_t p = 0; p < m.v[e].npats && checked < 64; p++) {
			check(&m, m.v[e].pats[p].glob);
			checked++;
		}
	qu_maint_fini(&m);
	return 0;
}
