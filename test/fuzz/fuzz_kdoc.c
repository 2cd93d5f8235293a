// SPDX-License-Identifier: MIT
/*
 * fuzz_kdoc.c - fuzz harness of the kdoc stage: the comment grammar, the
 * declaration parsers and the cross-checks, then both dumps. The first
 * byte's low bit chooses -v, so the verbose-only checks are fuzzed too.
 */
#include <string.h>

#include "fuzz.h"
#include "kdoc/kdoc.h"
#include "source/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qu_kdoc_opts opts = { .verbose = size && (data[0] & 1) };
	struct qu_source *src =
		qu_source_from_mem("fuzz.c", (const char *)data, size);
	struct qu_unit u = { 0 };
	struct qu_buf out = QU_BUF_INIT;

	qu_kdoc_parse(&u, src, &opts);
	qu_kdoc_dump_json(&out, &u);
	qu_kdoc_dump_markdown(&out, &u);
	qu_diags_sort(&u.diags);
	for (size_t i = 0; i < u.diags.n; i++)
		if (!u.diags.v[i].msg[0])
			__builtin_trap();
	qu_buf_fini(&out);
	qu_unit_fini(&u);
	qu_source_free(src);
	return 0;
}
