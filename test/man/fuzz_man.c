// SPDX-License-Identifier: MIT
/*
 * fuzz_man.c - fuzz harness of the man stage: any bytes as a C file,
 * parsed, and every item's page rendered. Checks what makes a page valid
 * roff for mandoc and groff whatever the comment holds: no input line
 * longer than MAN_LINE_MAX bytes (80) but the first comment line and
 * .TH, none ending in a blank, no text line starting with "." or "'"
 * that is not one of the requests the stage writes, no control byte, no
 * byte beyond ASCII.
 */
#include <string.h>

#include "../fuzz/fuzz.h"
#include "kdoc/kdoc.h"
#include "man/man.h"
#include "source/source.h"

static const char *const requests[] = {
	".\\\" ", ".TH ", ".SH ", ".SS ", ".PP", ".IP", ".TP", ".nf", ".fi",
	".EX", ".EE", ".BR ",
};

static void check_page(const char *p, size_t n)
{
	const char *end = p + n;
	size_t lineno = 0;

	if (!n || p[n - 1] != '\n')
		__builtin_trap();
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)(nl - p);
		bool known = false;

		lineno++;
		for (size_t i = 0; i < len; i++)
			if ((unsigned char)p[i] < 0x20 ||
			    (unsigned char)p[i] >= 0x7f)
				__builtin_trap();
		if (len && p[len - 1] == ' ')
			__builtin_trap();
		if (len && (p[0] == '.' || p[0] == '\'')) {
			for (size_t r = 0; r < sizeof(requests) / sizeof(*requests);
			     r++)
				if (!strncmp(p, requests[r], strlen(requests[r])))
					known = true;
			if (!known)
				__builtin_trap();
		}
		/* the comment naming the file and .TH carry names whole */
		if (len > 80 && lineno > 2)
			__builtin_trap();
		if (!len)
			__builtin_trap(); /* a blank line is a paragraph break */
		p = nl + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qu_source *src =
		qu_source_from_mem("fuzz.c", (const char *)data, size);
	struct qu_unit u = {0};
	struct qu_man_set set;
	struct qu_man_opts opts = {.date = "2022-12-11", .source = "fuzz"};
	struct qu_buf out = QU_BUF_INIT;

	qu_kdoc_parse(&u, src, NULL);
	u.path = "include/fuzz.h";
	qu_man_set_init(&set, &u, 1);
	for (size_t i = 0; i < set.npages; i++) {
		qu_buf_reset(&out);
		qu_man_render(&out, &set, i, &opts);
		check_page(out.buf, out.len);
	}
	qu_man_set_fini(&set);
	qu_buf_fini(&out);
	qu_unit_fini(&u);
	qu_source_free(src);
	return 0;
}
