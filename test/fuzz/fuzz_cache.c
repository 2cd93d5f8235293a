// SPDX-License-Identifier: MIT
/*
 * fuzz_cache.c - fuzz harness of the readers of a build cache's own
 * files that lib/search and lib/graph parse: the search index's state
 * (lib/search/state.c) and what comments name (lib/graph's memo). The
 * input is read as both. The state's checksum is made right before it
 * is read, so that the fuzzer reaches the checks behind it; a state that
 * passes them is walked whole, every offset it gives dereferenced, as
 * an incremental index would. The corpus holds the two files of a small
 * site's cache, as quire wrote them.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "fuzz.h"
#include "graph/graph.h"
#include "search/search_int.h"

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
	return 0;
}
