// SPDX-License-Identifier: MIT
/*
 * codec.c - the byte encoding of what lib/build keeps between builds
 *
 * Part of lib/build: little-endian integers and length-prefixed strings
 * (a length of ~0 is NULL), written to a buffer and read back by a reader
 * that fails for good at the first short field, for the page state
 * (cache.c) and the parsed units (units.c) alike.
 */
#include <endian.h>
#include <string.h>

#include "build_int.h"

#define NO_STR BUILD_NO_STR

void build_put_u32(struct qu_buf *b, uint32_t v)
{
	v = htole32(v);
	qu_buf_add(b, &v, 4);
}

void build_put_u64(struct qu_buf *b, uint64_t v)
{
	v = htole64(v);
	qu_buf_add(b, &v, 8);
}

void build_put_str(struct qu_buf *b, const char *s)
{
	size_t n;

	if (!s) {
		build_put_u32(b, NO_STR);
		return;
	}
	n = strlen(s);
	build_put_u32(b, (uint32_t)n);
	qu_buf_add(b, s, n);
}

void build_put_diag(struct qu_buf *b, const struct qu_diag *d)
{
	build_put_str(b, qu_diag_info(d->id)->name);
	build_put_str(b, d->path);
	build_put_u32(b, d->line);
	build_put_u32(b, d->col);
	build_put_str(b, d->msg);
}
