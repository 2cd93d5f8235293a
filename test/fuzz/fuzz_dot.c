// SPDX-License-Identifier: MIT
/*
 * fuzz_dot.c - fuzz harness of lib/render's graphs: the input is the DOT
 * of a kernel-figure or kernel-render, drawn by qu_render_dot() with
 * graphviz. Whatever it holds, the answer is a drawing (an SVG
 * document), a refusal (a graph naming a file) or graphviz's message,
 * on one line; never a crash, and never a file opened (the files a
 * graph may name are refused before layout).
 */
#include <string.h>

#include "fuzz.h"
#include "render/render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qu_buf svg = QU_BUF_INIT, msg = QU_BUF_INIT;
	uint32_t line;
	int ret;

	ret = qu_render_dot(&svg, &msg, &line, (const char *)data, size);
	if (ret < -2 || ret > 0)
		__builtin_trap();
	if (!ret && (svg.len < 5 || !strstr(svg.buf, "<svg")))
		__builtin_trap();
	if (ret && (!msg.len || svg.len))
		__builtin_trap();
	if (memchr(msg.buf, '\n', msg.len))
		__builtin_trap();
	qu_buf_fini(&svg);
	qu_buf_fini(&msg);
	return 0;
}
