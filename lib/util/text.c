// SPDX-License-Identifier: MIT
/*
 * text.c - small text helpers shared by every stage (util stage)
 */
#include <xxhash.h>

#include "util.h"

uint64_t qu_hash(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++) {
		h ^= s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

struct qu_hash128 qu_hash128(const void *p, size_t len)
{
	XXH128_hash_t h = XXH3_128bits(p, len);
	struct qu_hash128 r = {h.low64, h.high64};

	return r;
}
