// SPDX-License-Identifier: MIT
/*
 * text.c - small text helpers shared by every stage (util stage)
 */
#include <xxhash.h>

#include "util.h"

uint64_t qu_hash(const void *p, size_t len)
{
	/*
	 * Every map key goes through here: XXH3 reads eight bytes a step
	 * where FNV-1a waited on a multiply a byte.
	 */
	return XXH3_64bits(p, len);
}

struct qu_hash128 qu_hash128(const void *p, size_t len)
{
	XXH128_hash_t h = XXH3_128bits(p, len);
	struct qu_hash128 r = {h.low64, h.high64};

	return r;
}
