// SPDX-License-Identifier: MIT
/*
 * text.c - small text helpers shared by every stage (util stage)
 */
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
