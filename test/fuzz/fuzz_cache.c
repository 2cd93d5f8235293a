// SPDX-License-Identifier: MIT
/*
 * fuzz_cache.c - fuzz harness of the readers of a build cache's own
 * files that lib/search and lib/graph parse: the search index's state
 * (lib/search/state.c), what comments name (lib/graph's memo) and a
 * saved placement (qu_graph_place_load(), against a small site of two
 * pages and two sources made here). The input is read as all three. The state's checksum is made right before it
 * is read, so that the fuzzer reaches the checks behind it; a state that
 * passes them is walked whole, every offset it gives dereferenced, as
 * an incremental index would. The corpus holds the two files of a small
 * site's cache, as quire wrote them, and the placement of the site made
 * here (QU_FUZZ_PLACEMENT=FILE writes it). The input is loaded as a
 * placement from a read-only mapping of its own, which the graph takes
 * and points into, as a build's graph does with the cache's file.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <xxhash.h>

#include "fuzz.h"
#include "graph/graph.h"
#include "search/search_int.h"
#include "site/site.h"

/*
 * Two sources, each shown whole on a page of its own: a function with a
 * parameter, a struct with two members, an enum with a constant, and a
 * struct of the same name as the first file's (a second symbol of it).
 */
static struct qu_param fn_params[] = {{.name = "x"}};
static struct qu_param st_params[] = {{.name = "a"}, {.name = "b"}};
static struct qu_param en_params[] = {{.name = "ONE"}};
static struct qu_item items_a[] = {
	{.kind = QU_KIND_FUNCTION, .name = "f", .params = fn_params,
	 .nparams = 1},
	{.kind = QU_KIND_STRUCT, .name = "s", .params = st_params,
	 .nparams = 2},
	{.kind = QU_KIND_ENUM, .name = "e", .params = en_params, .nparams = 1},
};
static struct qu_item items_b[] = {
	{.kind = QU_KIND_STRUCT, .name = "s", .params = st_params,
	 .nparams = 2},
	{.kind = QU_KIND_DOC, .name = "Overview"},
};
static const char *sources[] = {"a.h", "b.h"};
static struct qu_part parts[2] = {
	{.kind = QU_PART_KDOC, .sel = {.path = "a.h", .mode = QU_SEL_ALL}},
	{.kind = QU_PART_KDOC, .sel = {.path = "b.h", .mode = QU_SEL_ALL}},
};
static struct qu_heading heads[] = {{.id = "a", .text = "a"},
				    {.id = "b", .text = "b"}};
static struct qu_page pages[] = {
	{.out = "a.html", .title = "a", .parts = &parts[0], .nparts = 1,
	 .headings = &heads[0], .nheadings = 1},
	{.out = "b.html", .title = "b", .parts = &parts[1], .nparts = 1,
	 .headings = &heads[1], .nheadings = 1},
};

static void small_site(struct qu_site *site, struct qu_unit units[2])
{
	memset(site, 0, sizeof(*site));
	site->sources = sources;
	site->nsources = 2;
	site->pages = pages;
	site->npages = 2;
	memset(units, 0, 2 * sizeof(*units));
	units[0].path = "a.h";
	units[0].items = items_a;
	units[0].nitems = 3;
	units[1].path = "b.h";
	units[1].items = items_b;
	units[1].nitems = 2;
}

/* The input as a saved placement of the small site. */
static void placement(const uint8_t *data, size_t size)
{
	static struct qu_buf saved = QU_BUF_INIT;
	static bool made;
	struct qu_site site;
	struct qu_unit units[2];
	struct qu_diags diags;
	struct qu_graph g;
	size_t nsyms, nplaced;
	const char *seed;
	void *map;

	small_site(&site, units);
	qu_diags_init(&diags);
	if (!made) {
		/* the real placement loads back as it was made */
		memset(&g, 0, sizeof(g));
		qu_graph_build(&g, &site, units, NULL, NULL, &diags, 1);
		/* each item's comment refers to the first symbol */
		g.placed_refs = calloc(g.nplaced + 1, sizeof(*g.placed_refs));
		for (size_t j = 0; j < g.nplaced; j++) {
			g.placed_refs[j].ok = true;
			g.placed_refs[j].unit.lo = j;
			g.placed_refs[j].n = 1;
			g.placed_refs[j].v = calloc(1, sizeof(uint32_t));
		}
		if (qu_graph_place_save(&g, 7, &saved) < 0)
			abort();
		made = true;
		seed = getenv("QU_FUZZ_PLACEMENT");
		if (seed) {
			FILE *f = fopen(seed, "wb");

			if (!f || fwrite(saved.buf, 1, saved.len, f) != saved.len)
				abort();
			fclose(f);
		}
		nsyms = g.nsyms;
		nplaced = g.nplaced;
		qu_graph_fini(&g);
		if (!qu_graph_place_load(&g, &site, units, NULL, saved.buf,
					 saved.len, NULL, 0, 7, NULL, &diags,
					 1) ||
		    g.nsyms != nsyms || g.nplaced != nplaced || nsyms != 9 ||
		    nplaced != 5 || !g.placed_refs ||
		    g.placed_refs[4].unit.lo != 4 || g.placed_refs[4].n != 1)
			abort();
		qu_graph_fini(&g);
	}
	/* in a mapping of its own, which a graph that loads it takes */
	map = size ? mmap(NULL, size, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
		   : MAP_FAILED;
	if (map != MAP_FAILED) {
		memcpy(map, data, size);
		mprotect(map, size, PROT_READ);
	}
	memset(&g, 0, sizeof(g));
	if (map != MAP_FAILED &&
	    qu_graph_place_load(&g, &site, units, NULL, map, size, map, size,
				7, NULL, &diags, 1)) {
		/* every name and anchor a loaded placement gives is a string */
		struct qu_from from = {0};
		size_t i, k, sum = 0;

		for (i = 0; i < g.nsyms; i++)
			sum += strlen(g.syms[i].name) + strlen(g.syms[i].anchor);
		for (i = 0; i < g.nplaced; i++)
			sum += strlen(g.placed[i].anchor);
		for (i = 0; i < site.npages; i++)
			for (k = 0; k < g.npage_ids[i]; k++)
				sum += strlen(g.page_ids[i][k]);
		/* and its table finds a name, and misses one */
		sum += qu_graph_lookup(&g, "struct s", 8, &from, NULL) +
		       qu_graph_lookup(&g, "zz()", 4, &from, NULL);
		(void)sum;
		/* it unmaps what it took */
		qu_graph_fini(&g);
	} else if (map != MAP_FAILED) {
		munmap(map, size);
	}
	qu_diags_fini(&diags);
}

/* Touch everything a state that checks points at. */
static void walk(const struct search_state *s)
{
	const struct state_hdr *h = s->hdr;
	uint64_t sum = 0;
	size_t i, k;

	for (i = 0; i < h->npages; i++)
		sum += s->page_key[i] + s->page_ndocs[i];
	for (i = 0; i < h->ndocs; i++)
		sum += s->doc_len[i] + s->rec_size[i] + s->tok_hash[i] +
		       s->rec_hash[i];
	for (i = 0; i < h->nterms; i++) {
		const char *t = s->str + s->term_str[i];

		assert(strlen(t) + 1 == s->term_str[i + 1] - s->term_str[i]);
		for (k = s->post_off[i]; k < s->post_off[i + 1]; k++) {
			uint32_t tf;

			assert((s->post_doc[k] & 0x7fffffffu) < h->ndocs);
			memcpy(&tf, &s->post_tf[k], sizeof(tf));
			sum += tf;
		}
		for (k = s->top_off[i]; k < s->top_off[i + 1]; k++)
			assert(s->top[k] < h->ndocs);
		assert(s->kept[i] <= s->post_off[i + 1] - s->post_off[i]);
	}
	for (i = 0; i <= h->nshards; i++)
		assert(s->shard_first[i] <= h->nterms);
	(void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qu_graph_memo *m = qu_graph_memo_new();
	struct search_state s;
	/* a copy, aligned as a mapped file is, that may be patched */
	uint64_t *copy = malloc(size + 8);

	if (!copy)
		abort();
	memcpy(copy, data, size);
	if (size >= sizeof(struct state_hdr)) {
		struct state_hdr *h = (struct state_hdr *)copy;

		h->checksum = XXH3_64bits((char *)copy + sizeof(*h),
					  size - sizeof(*h));
	}
	memset(&s, 0, sizeof(s));
	if (!search_state_use(&s, copy, size))
		walk(&s);
	qu_graph_memo_read(m, (const char *)data, size);
	qu_graph_memo_free(m);
	free(copy);
	placement(data, size);
	return 0;
}
