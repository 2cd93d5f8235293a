// SPDX-License-Identifier: MIT
/*
 * write.c - the index as script files under OUT/_search/
 *
 * Every file is one call of a function the page's script defines
 * (quireSearch.m, .t, .d) with a JSON argument, so that a <script src>
 * loads it from file:// as well as over HTTP, where fetch() and modules
 * would be refused. The terms, sorted, are cut into shards of about
 * SHARD_BYTES; the manifest names the first term of each, so the client
 * finds the one shard a word (or a prefix) lives in. A shard carries the
 * records (kind, name, URL, path, snippet) of the best few documents of
 * each of its terms, so a one-word query shows its results after two
 * fetches: the manifest and one shard (three when a prefix runs into
 * the next shard). Other documents' records are in the document shards,
 * DOC_SHARD documents each, loaded only for what is shown. Layout and
 * fields: docs/search.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search_int.h"

#define SHARD_BYTES 32768
#define DOC_SHARD 256
#define SNIPPET 180

static const char *const kind_names[] = {
	"function", "macro", "struct", "union", "enum",
	"typedef",  "var",   "doc",    "page",
};

/* Append @len bytes of Markdown @s as plain text, up to @out->len >= max. */
static void plain(struct qu_buf *out, const char *s, size_t len, size_t max)
{
	size_t i = 0;
	bool fence = false, space = out->len > 0;

	while (i < len && out->len < max) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - s) : len, j = i;

		while (j < end && (s[j] == ' ' || s[j] == '\t'))
			j++;
		if (!strncmp(s + j, "```", 3) || !strncmp(s + j, "~~~", 3)) {
			fence = !fence;
			i = end + 1;
			continue;
		}
		if (fence || (j < end && s[j] == '#') ||
		    (j + 1 < end && s[j] == '-' && s[j + 1] == '-' &&
		     s[j + 2] == '-')) {
			i = end + 1;
			continue;
		}
		if (j + 1 < end && (s[j] == '-' || s[j] == '*' || s[j] == '+') &&
		    s[j + 1] == ' ')
			j += 2;
		for (; j < end && out->len < max; j++) {
			char c = s[j];

			if (c == '*' || c == '`' || c == '[' || c == ']' ||
			    c == '\\' || c == '>' || c == '|')
				continue;
			if (c == '(' && j && s[j - 1] == ']') {
				/* a link's target: not text */
				while (j < end && s[j] != ')')
					j++;
				continue;
			}
			if (c == ' ' || c == '\t' || c == '\r') {
				space = out->len > 0;
				continue;
			}
			if (space && out->len) {
				qu_buf_addc(out, ' ');
				space = false;
			}
			qu_buf_addc(out, c);
		}
		space = out->len > 0;
		i = end + 1;
	}
}

/* Cut @b to about @max bytes at a word, on a UTF-8 boundary. */
static void cut(struct qu_buf *b, size_t max)
{
	size_t n;

	if (b->len <= max)
		return;
	n = max;
	while (n > max / 2 && b->buf[n] != ' ')
		n--;
	if (n <= max / 2)
		for (n = max; n && ((unsigned char)b->buf[n] & 0xc0) == 0x80;)
			n--;
	b->len = n;
	b->buf[n] = 0;
	qu_buf_adds(b, "\xe2\x80\xa6");
}

void search_snippet(struct qu_buf *out, const struct search_index *x,
		    const struct search_doc *d)
{
	struct qu_buf b = QU_BUF_INIT;
	size_t k, max = SNIPPET + 40;

	if (d->kind != SEARCH_KIND_PAGE) {
		const struct qu_item *it =
			&x->g->units[d->unit].items[d->item];

		if (*it->brief)
			plain(&b, it->brief, strlen(it->brief), max);
		for (k = 0; k < it->nsections && b.len < SNIPPET; k++)
			plain(&b, it->sections[k].body,
			      strlen(it->sections[k].body), max);
	} else {
		const struct qu_page *p = &x->site->pages[d->page];
		const struct qu_graph *g = x->g;

		for (k = 0; k < p->nparts && b.len < SNIPPET; k++)
			if (p->parts[k].kind == QU_PART_MARKDOWN)
				plain(&b, p->parts[k].text, p->parts[k].len,
				      max);
		/* a page of API only: the names it documents */
		for (k = 0; k < p->nparts && b.len < SNIPPET; k++) {
			uint32_t j;

			for (j = g->part_start[d->page][k];
			     j < g->part_start[d->page][k + 1] &&
			     b.len < SNIPPET;
			     j++) {
				const struct qu_item *it =
					&g->units[g->placed[j].unit]
						 .items[g->placed[j].item];

				if (b.len)
					qu_buf_adds(&b, ", ");
				qu_buf_adds(&b, it->name);
			}
		}
	}
	cut(&b, SNIPPET);
	qu_buf_add_json_str(out, b.buf, b.len);
	qu_buf_fini(&b);
}

struct writer {
	const struct search_index *x;
	const char *dir;
	char **records;
	size_t *shard_first;
	size_t nshards;
	struct qu_buf *errs;
	uint32_t *seen;
};

/* [kind,"name","url","path","snippet"] */
static void record(struct qu_job *job, size_t i, void *payload)
{
	struct writer *w = payload;
	const struct search_index *x = w->x;
	const struct search_doc *d = &x->docs[i];
	const struct qu_page *p = &x->site->pages[d->page];
	struct qu_buf b = QU_BUF_INIT;

	(void)job;
	qu_buf_addf(&b, "[%u,", d->kind);
	if (d->kind == SEARCH_KIND_PAGE) {
		const char *path = p->src ? p->src : p->out;

		qu_buf_add_json_str(&b, p->title, strlen(p->title));
		qu_buf_addc(&b, ',');
		qu_buf_add_json_str(&b, p->out, strlen(p->out));
		qu_buf_addc(&b, ',');
		qu_buf_add_json_str(&b, path, strlen(path));
	} else {
		const struct qu_item *it =
			&x->g->units[d->unit].items[d->item];
		struct qu_buf url = QU_BUF_INIT;
		const char *path = x->g->units[d->unit].path;

		qu_buf_add_json_str(&b, it->name, strlen(it->name));
		qu_buf_addc(&b, ',');
		qu_buf_addf(&url, "%s#%s", p->out, d->anchor);
		qu_buf_add_json_str(&b, url.buf, url.len);
		qu_buf_addc(&b, ',');
		qu_buf_add_json_str(&b, path, strlen(path));
		qu_buf_fini(&url);
	}
	qu_buf_addc(&b, ',');
	search_snippet(&b, x, d);
	qu_buf_addc(&b, ']');
	w->records[i] = qu_buf_detach(&b, NULL);
}

static int put(const char *dir, const char *name, const struct qu_buf *data,
	       struct qu_buf *err)
{
	struct qu_buf path = QU_BUF_INIT;
	FILE *f;
	int r = 0;

	qu_buf_addf(&path, "%s/_search/%s", dir, name);
	f = fopen(path.buf, "wb");
	if (!f || fwrite(data->buf, 1, data->len, f) != data->len)
		r = -1;
	if (f && fclose(f))
		r = -1;
	if (r < 0)
		qu_buf_addf(err, "%s: cannot write: %s", path.buf,
			    strerror(errno));
	qu_buf_fini(&path);
	return r;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t p = *(const uint32_t *)a, q = *(const uint32_t *)b;

	return p < q ? -1 : p > q;
}

static void term_shard(struct qu_job *job, size_t si, void *payload)
{
	struct writer *w = payload;
	const struct search_index *x = w->x;
	size_t first = w->shard_first[si], end = w->shard_first[si + 1];
	struct qu_buf b = QU_BUF_INIT, name = QU_BUF_INIT;
	uint32_t *docs;
	size_t i, n = 0, k;

	(void)job;
	for (i = first; i < end; i++)
		n += x->terms[i]->ntop;
	docs = qu_xcalloc(n + 1, sizeof(*docs));
	n = 0;
	qu_buf_addf(&b, "quireSearch.t(%zu,{\"t\":[", si);
	for (i = first; i < end; i++) {
		if (i > first)
			qu_buf_addc(&b, ',');
		qu_buf_add_json_str(&b, x->terms[i]->term, x->terms[i]->len);
	}
	qu_buf_adds(&b, "],\n\"p\":[");
	for (i = first; i < end; i++) {
		const struct search_term *t = x->terms[i];
		uint32_t prev = 0;

		qu_buf_adds(&b, i > first ? ",\n[" : "[");
		for (k = 0; k < t->npost; k++) {
			qu_buf_addf(&b, "%s%u,%u", k ? "," : "",
				    t->post[k].doc - prev, t->post[k].score);
			prev = t->post[k].doc;
		}
		qu_buf_addc(&b, ']');
		for (k = 0; k < t->ntop; k++)
			docs[n++] = t->top[k];
	}
	qu_buf_adds(&b, "],\n\"d\":{");
	qsort(docs, n, sizeof(*docs), cmp_u32);
	for (i = 0, k = 0; i < n; i++) {
		if (i && docs[i] == docs[i - 1])
			continue;
		qu_buf_addf(&b, "%s\"%u\":%s", k++ ? ",\n" : "", docs[i],
			    w->records[docs[i]]);
	}
	qu_buf_adds(&b, "}});\n");
	qu_buf_addf(&name, "t/%zu.js", si);
	put(w->dir, name.buf, &b, &w->errs[si]);
	free(docs);
	qu_buf_fini(&b);
	qu_buf_fini(&name);
}

static void doc_shard(struct qu_job *job, size_t si, void *payload)
{
	struct writer *w = payload;
	size_t i, end = (si + 1) * DOC_SHARD;
	struct qu_buf b = QU_BUF_INIT, name = QU_BUF_INIT;

	(void)job;
	if (end > w->x->ndocs)
		end = w->x->ndocs;
	qu_buf_addf(&b, "quireSearch.d(%zu,[", si);
	for (i = si * DOC_SHARD; i < end; i++) {
		if (i > si * DOC_SHARD)
			qu_buf_adds(&b, ",\n");
		qu_buf_adds(&b, w->records[i]);
	}
	qu_buf_adds(&b, "]);\n");
	qu_buf_addf(&name, "d/%zu.js", si);
	put(w->dir, name.buf, &b, &w->errs[w->nshards + si]);
	qu_buf_fini(&b);
	qu_buf_fini(&name);
}

/* Where the shards start: about SHARD_BYTES each, counting records. */
static void cut_shards(struct writer *w)
{
	const struct search_index *x = w->x;
	size_t i, k, size = 0, alloc = 16;

	w->shard_first = qu_xcalloc(alloc, sizeof(size_t));
	w->nshards = 0;
	w->seen = qu_xcalloc(x->ndocs + 1, sizeof(uint32_t));
	for (i = 0; i < x->nterms; i++) {
		const struct search_term *t = x->terms[i];

		if (i == 0 || size >= SHARD_BYTES) {
			if (w->nshards + 2 >= alloc) {
				alloc *= 2;
				w->shard_first = qu_xrealloc(
					w->shard_first, alloc * sizeof(size_t));
			}
			w->shard_first[w->nshards++] = i;
			size = 0;
		}
		size += t->len + 6 + 7 * (size_t)t->npost;
		for (k = 0; k < t->ntop; k++) {
			uint32_t d = t->top[k];

			if (w->seen[d] != w->nshards) {
				w->seen[d] = (uint32_t)w->nshards;
				size += strlen(w->records[d]) + 10;
			}
		}
	}
	w->shard_first[w->nshards] = x->nterms;
}

static void manifest(struct qu_buf *b, const struct writer *w)
{
	const struct search_index *x = w->x;
	size_t i;

	qu_buf_addf(b,
		    "quireSearch.m({\"v\":1,\"docs\":%zu,\"dshard\":%d,"
		    "\"kinds\":[",
		    x->ndocs, DOC_SHARD);
	for (i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		qu_buf_addf(b, "%s\"%s\"", i ? "," : "", kind_names[i]);
	qu_buf_adds(b, "],\n\"stop\":[");
	search_stop_words(b);
	qu_buf_adds(b, "],\n\"shards\":[");
	for (i = 0; i < w->nshards; i++) {
		const struct search_term *t = x->terms[w->shard_first[i]];

		if (i)
			qu_buf_addc(b, ',');
		/* the first shard takes every word before its first term */
		if (i == 0)
			qu_buf_adds(b, "\"\"");
		else
			qu_buf_add_json_str(b, t->term, t->len);
	}
	qu_buf_adds(b, "]});\n");
}

int qu_search_write(const char *dir, const struct qu_site *site,
		    const struct qu_graph *g, unsigned threads,
		    struct qu_buf *err)
{
	struct search_index x;
	struct writer w;
	struct qu_buf path = QU_BUF_INIT, m = QU_BUF_INIT;
	size_t i, ndshards;
	int r = 0;

	_Static_assert(sizeof(kind_names) / sizeof(kind_names[0]) ==
			       SEARCH_KIND_PAGE + 1,
		       "a name per kind");
	search_build(&x, site, g, threads);
	memset(&w, 0, sizeof(w));
	w.x = &x;
	w.dir = dir;
	w.records = qu_xcalloc(x.ndocs + 1, sizeof(char *));
	qu_pool_run(threads, x.ndocs, record, &w);
	cut_shards(&w);

	qu_buf_addf(&path, "%s/_search/t", dir);
	if (qu_mkdir_p(path.buf, err) < 0) {
		r = -1;
		goto out;
	}
	qu_buf_reset(&path);
	qu_buf_addf(&path, "%s/_search/d", dir);
	if (qu_mkdir_p(path.buf, err) < 0) {
		r = -1;
		goto out;
	}
	ndshards = (x.ndocs + DOC_SHARD - 1) / DOC_SHARD;
	w.errs = qu_xcalloc(w.nshards + ndshards + 1, sizeof(*w.errs));
	qu_pool_run(threads, w.nshards, term_shard, &w);
	qu_pool_run(threads, ndshards, doc_shard, &w);
	for (i = 0; i < w.nshards + ndshards; i++) {
		if (w.errs[i].len && !r) {
			qu_buf_adds(err, w.errs[i].buf);
			r = -1;
		}
		qu_buf_fini(&w.errs[i]);
	}
	free(w.errs);
	if (!r) {
		manifest(&m, &w);
		r = put(dir, "index.js", &m, err);
	}
out:
	for (i = 0; i < x.ndocs; i++)
		free(w.records[i]);
	free(w.records);
	free(w.shard_first);
	free(w.seen);
	qu_buf_fini(&path);
	qu_buf_fini(&m);
	search_fini(&x);
	return r;
}
