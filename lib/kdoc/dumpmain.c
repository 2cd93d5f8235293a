// SPDX-License-Identifier: MIT
/*
 * dumpmain.c - qu-kdoc-dump, the kdoc stage's own driver (not installed)
 *
 * Runs the source and kdoc stages over files and prints the items as JSON
 * Lines or Markdown, only the diagnostics (--check), or the source
 * stage's own dumps (--tokens, --blocks), for golden tests
 * and measurements without the quire command. Accepts "extract" as a
 * first word so it can stand in for `quire extract`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kdoc/kdoc.h"
#include "source/source.h"

enum mode { M_JSON, M_MARKDOWN, M_CHECK, M_TOKENS, M_BLOCKS };

struct slot {
	const char *path;
	struct qu_source *src;
	struct qu_unit unit;
	struct qu_buf out;
	struct qu_buf err;
	int failed;
};

struct run {
	struct slot *slots;
	enum mode mode;
	struct qu_kdoc_opts opts;
};

static void task(struct qu_job *job, size_t i, void *payload)
{
	struct run *r = payload;
	struct slot *s = &r->slots[i];

	qu_buf_reset(&job->err);
	if (qu_source_read(&s->src, job, s->path) < 0) {
		s->failed = 1;
		qu_buf_add(&s->err, job->err.buf, job->err.len);
		return;
	}
	memset(&s->unit, 0, sizeof(s->unit));
	qu_kdoc_parse(&s->unit, s->src, &r->opts);
	if (r->mode == M_TOKENS)
		qu_source_dump_tokens(&s->out, s->src->data, s->src->len);
	else if (r->mode == M_BLOCKS)
		qu_source_dump_blocks(&s->out, s->src);
	else if (r->mode == M_JSON)
		qu_kdoc_dump_json(&s->out, &s->unit);
	else if (r->mode == M_MARKDOWN)
		qu_kdoc_dump_markdown(&s->out, &s->unit);
}

/*
 * Limit: files in flight at once. Output is printed and memory freed a
 * batch at a time, so a list of 10^5 files does not hold every unit.
 */
#define BATCH 256

int main(int argc, char **argv)
{
	struct run r = { .mode = M_JSON };
	unsigned threads = 0;
	int i = 1, nfiles;
	size_t total = 0;
	struct qu_diags all;

	if (i < argc && !strcmp(argv[i], "extract"))
		i++;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--json"))
			r.mode = M_JSON;
		else if (!strcmp(argv[i], "--markdown"))
			r.mode = M_MARKDOWN;
		else if (!strcmp(argv[i], "--check"))
			r.mode = M_CHECK;
		else if (!strcmp(argv[i], "--tokens"))
			r.mode = M_TOKENS;
		else if (!strcmp(argv[i], "--blocks"))
			r.mode = M_BLOCKS;
		else if (!strcmp(argv[i], "-v"))
			r.opts.verbose = true;
		else if (!strcmp(argv[i], "-j") && i + 1 < argc)
			threads = (unsigned)atoi(argv[++i]);
		else {
			fprintf(stderr,
				"usage: qu-kdoc-dump [extract] [--json|--markdown|--check|--tokens|--blocks] [-v] [-j N] FILE...\n");
			return 2;
		}
	}
	nfiles = argc - i;
	/* stderr is unbuffered: one write per diagnostic costs more than
	 * the parse */
	setvbuf(stderr, NULL, _IOFBF, 1 << 16);
	qu_diags_init(&all);
	for (int b = 0; b < nfiles; b += BATCH) {
		int n = nfiles - b < BATCH ? nfiles - b : BATCH;
		r.slots = qu_xcalloc((size_t)n, sizeof(*r.slots));
		for (int k = 0; k < n; k++) {
			r.slots[k].path = argv[i + b + k];
			qu_buf_init(&r.slots[k].out);
			qu_buf_init(&r.slots[k].err);
		}
		qu_pool_run(threads, (size_t)n, task, &r);
		for (int k = 0; k < n; k++) {
			struct slot *s = &r.slots[k];
			struct qu_diags d;
			if (s->failed) {
				fprintf(stderr, "%s\n", s->err.buf);
			} else {
				fwrite(s->out.buf, 1, s->out.len, stdout);
				qu_diags_init(&d);
				qu_diags_move(&d, &s->unit.diags);
				qu_diags_sort(&d);
				total += qu_diags_print(&d, stderr, false);
				qu_diags_fini(&d);
				qu_unit_fini(&s->unit);
				qu_source_free(s->src);
			}
			qu_buf_fini(&s->out);
			qu_buf_fini(&s->err);
		}
		free(r.slots);
	}
	qu_diags_fini(&all);
	if (total)
		fprintf(stderr, "%zu warning%s\n", total, total == 1 ? "" : "s");
	return 0;
}
