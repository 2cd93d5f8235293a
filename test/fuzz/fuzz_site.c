// SPDX-License-Identifier: MIT
/*
 * fuzz_site.c - fuzz harness of lib/site's readers: the directive
 * splitter and its option parser (continuation lines, backslashes,
 * conflicts), a page's front matter, quire.yml and the reST made of a
 * MAINTAINERS file, of feature files and of ABI files. The first byte
 * chooses: even, the rest is a page (front matter, then Markdown with
 * {kernel-doc} and {toctree} blocks); odd, the rest is quire.yml,
 * MAINTAINERS, a feature file and two ABI files (the same bytes twice,
 * so every symbol is defined twice) and a C header for kernel-include
 * (alone, and with an exceptions file: what precedes a NUL, or the same
 * bytes). The
 * source tree does not exist, so no directive reads a file. The page's
 * markup is read by lib/markdown's reader, as builds read it.
 */
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>

#include "fuzz.h"
#include "markdown/markdown.h"
#include "site/site_int.h"

/* What every parse must give, whatever the input. */
static void check_page(const struct qu_page *pg)
{
	for (size_t i = 0; i < pg->nparts; i++) {
		const struct qu_part *p = &pg->parts[i];

		if (p->kind != QU_PART_KDOC)
			continue;
		/* names are split: no blank, no comma, never empty */
		for (size_t k = 0; k < p->sel.nnames; k++)
			if (!p->sel.names[k][0] ||
			    strpbrk(p->sel.names[k], " \t,"))
				__builtin_trap();
	}
}

static void check_diags(const struct qu_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		if (!d->v[i].line || !d->v[i].msg[0] || !d->v[i].path)
			__builtin_trap();
}

/*
 * The same bytes as the files kernel-feat and kernel-abi read: each
 * script's text comes out whatever they hold (a title; a file's
 * ".. LINENO" line), and a warning may name the whole file (line 0).
 */
static void feat_abi(const char *text, size_t len)
{
	const struct qu_site_text feat = {"f/core/x/arch-support.txt",
					  "core/x/arch-support.txt", text, len};
	const struct qu_site_text abi[] = {
		{"ABI/testing/sysfs-a", "sysfs-a", text, len},
		{"ABI/testing/sysfs-b", "sysfs-b", text, len},
	};
	struct qu_buf rst = QU_BUF_INIT;
	struct qu_diags d;

	qu_diags_init(&d);
	qu_site_feat_rst(&rst, &d, &feat, 1, NULL);
	if (strncmp(rst.buf, "====", 4))
		__builtin_trap();
	qu_buf_reset(&rst);
	qu_site_feat_rst(&rst, &d, &feat, 1, "x86");
	if (strncmp(rst.buf, "====", 4))
		__builtin_trap();
	qu_buf_reset(&rst);
	qu_site_abi_rst(&rst, &d, "ABI/testing", abi, 2);
	if (strncmp(rst.buf, ".. LINENO ABI/testing/", 22))
		__builtin_trap();
	for (size_t i = 0; i < d.n; i++)
		if (!d.v[i].msg[0] || !d.v[i].path)
			__builtin_trap();
	qu_diags_fini(&d);
	qu_buf_fini(&rst);
}

/*
 * The same bytes as a header kernel-include makes reST of, alone and
 * with an exceptions file: the bytes before a NUL, or else the same
 * bytes. The text has its title, and only an exceptions line the
 * script would die on stops it.
 */
static void headers(const char *text, size_t len)
{
	const char *nul = memchr(text, 0, len);
	const char *exc = text;
	size_t elen = nul ? (size_t)(nul - text) : len;

	static const char head[] = ".. -*- coding: utf-8; mode: rst -*-\n\n"
				   "demo.h\n======\n\n.. parsed-literal::\n\n";
	struct qu_buf rst = QU_BUF_INIT;
	struct qu_diags d;

	qu_diags_init(&d);
	if (qu_site_headers_rst(&rst, &d, "include/demo.h", text, len, NULL,
				NULL, 0) < 0 ||
	    strncmp(rst.buf, head, sizeof(head) - 1) || d.n)
		__builtin_trap();
	qu_buf_reset(&rst);
	if (nul) {
		text = nul + 1;
		len -= elen + 1;
	}
	if (qu_site_headers_rst(&rst, &d, "include/demo.h", text, len,
				"demo.h.rst.exceptions", exc, elen) < 0
		    ? rst.len || d.n != 1 || !d.v[0].line
		    : strncmp(rst.buf, head, sizeof(head) - 1) || d.n)
		__builtin_trap();
	qu_diags_fini(&d);
	qu_buf_fini(&rst);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qu_site s;
	struct qu_page pg;
	const char *text = (const char *)data + (size ? 1 : 0);
	size_t len = size ? size - 1 : 0, off;
	uint32_t line;
	char *body;

	static struct qu_site_reader rd;

	if (!rd.ctx) {
		cmark_gfm_core_extensions_ensure_registered();
		rd.blocks = qu_md_blocks;
		rd.headings = qu_md_page_headings;
		rd.ctx = qu_md_new(false);
	}
	memset(&s, 0, sizeof(s));
	s.reader = &rd;
	qu_arena_init(&s.arena);
	qu_diags_init(&s.diags);
	s.root = (char *)"/nonexistent/quire-fuzz/docs";
	s.srctree = (char *)"/nonexistent/quire-fuzz";
	s.root_real = s.root;
	if (size && (data[0] & 1)) {
		struct qu_config cfg;

		struct qu_buf rst = QU_BUF_INIT;

		memset(&cfg, 0, sizeof(cfg));
		qu_site_config_parse(&cfg, &s.diags, "quire.yml", text, len);
		qu_config_fini(&cfg);
		/* the same bytes as a MAINTAINERS file: some reST, labelled */
		qu_site_maintainers_rst(&rst, text, len);
		if (strncmp(rst.buf, ".. _maintainers:\n", 17))
			__builtin_trap();
		qu_buf_fini(&rst);
		feat_abi(text, len);
		headers(text, len);
	} else {
		memset(&pg, 0, sizeof(pg));
		pg.diag_path = "page.md";
		/* the readers expect a NUL after the text, as files have */
		body = qu_arena_strndup(&s.arena, text, len);
		if (site_front_matter(&s, &pg, body, len, &off, &line) < 0 &&
		    !s.diags.n)
			__builtin_trap();
		site_split_parts(&s, &pg, body + off, len - off, line);
		site_page_headings(&s, &pg);
		check_page(&pg);
		for (size_t k = 0; k < pg.nparts; k++) {
			free(pg.parts[k].sel.names);
			free(pg.parts[k].sel.no_names);
		}
		free(pg.parts);
	}
	check_diags(&s.diags);
	qu_diags_fini(&s.diags);
	qu_arena_fini(&s.arena);
	return 0;
}
