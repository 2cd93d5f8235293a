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
 * fields: docs/site-search.md.
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "search_int.h"

#define SHARD_BYTES 32768
#define DOC_SHARD 256
#define SNIPPET 100

static const char *const kind_names[] = {
	"function", "macro", "struct", "union", "enum",
	"typedef",  "var",   "doc",    "page",
};

/*
 * A byte plain() copies with no look at the bytes around it: not markup
 * it drops, not a blank, not '(' (which may open a link's target).
 */
static bool plain_byte(char c)
{
	switch (c) {
	case '*': case '`': case '[': case ']': case '\\': case '>': case '|':
	case '(': case ' ': case '\t': case '\r':
		return false;
	}
	return true;
}

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
			size_t n;

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
			/* @c and the plain bytes after it, as many as fit */
			for (n = 1; j + n < end && out->len + n < max &&
				    plain_byte(s[j + n]);
			     n++)
				;
			qu_buf_add(out, s + j, n);
			j += n - 1;
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
		for (k = 0; k < it->nsections && b.len < SNIPPET; k++) {
			/* the brief is a phrase: end it before the text */
			if (b.len && !strchr(".!?:;", b.buf[b.len - 1]))
				qu_buf_addc(&b, '.');
			plain(&b, it->sections[k].body,
			      strlen(it->sections[k].body), max);
		}
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

/*
 * One document's record, in two parts around the number of its page:
 * the URL's page and the path are shared by many records of a shard, so
 * a shard lists each once ("s") and the records give their place in
 * that list. Equal strings share a number (number_strings()), by which
 * a shard finds its place for them.
 * @text: [kind,"name", then ,"anchor","snippet"
 * @head: the bytes of @text before the page's number
 * @len: all of @text
 * @own_path: the path is not the page's file without ".html"
 * @size: what cut_shards() counts for the record
 * @hash: what the next build's state compares the record by
 */
struct rec {
	const char *page;
	const char *path;
	uint32_t page_id;
	uint32_t path_id;
	char *text;
	size_t head;
	size_t len;
	bool own_path;
	size_t size;
	uint64_t hash;
};

/*
 * @prev, @changed: an index updated from the last build's state, and
 * how each document changed (SEARCH_*_CHANGED); @tkeep and @dkeep: the
 * shards it leaves as they are; @last_ok: the last site's index is the
 * state's, so its shards may stay; @strs: the numbered strings as JSON,
 * string N from @str_at[N] to @str_at[N + 1]; @level: by score, its
 * digit's level (score_level())
 */
struct writer {
	struct search_index *x;
	const struct search_state *prev;
	uint8_t *changed;
	bool *tkeep;
	bool *dkeep;
	const char *dir;
	const char *last;
	bool last_ok;
	bool *last_t, *last_d;	/* last_shards()', read on first use */
	bool *tkept;
	bool *dkept;
	struct rec *records;
	size_t *shard_first;
	size_t nshards;
	struct qu_buf *errs;
	uint32_t *seen;
	struct qu_buf strs;
	size_t *str_at;
	size_t nstrings;
	size_t nstrings_alloc;
	uint8_t level[4096];
};

/* A record's parts, put together by put_record() */
static void record(struct qu_job *job, size_t i, void *payload)
{
	struct writer *w = payload;
	const struct search_index *x = w->x;
	const struct search_doc *d = &x->docs[i];
	const struct qu_page *p = &x->site->pages[d->page];
	struct rec *r = &w->records[i];
	struct qu_buf b = QU_BUF_INIT;
	size_t name_len, anchor_at, snip_at, pl;

	(void)job;
	r->page = p->out;
	qu_buf_addc(&b, '[');
	qu_buf_add_u64(&b, d->kind);
	qu_buf_addc(&b, ',');
	if (d->kind == SEARCH_KIND_PAGE) {
		r->path = p->src ? p->src : p->out;
		qu_buf_add_json_str(&b, p->title, strlen(p->title));
		name_len = b.len;
		qu_buf_adds(&b, ",,");
		anchor_at = b.len;
		qu_buf_adds(&b, "\"\",");
	} else {
		const struct qu_item *it =
			&x->g->units[d->unit].items[d->item];

		r->path = x->g->units[d->unit].path;
		qu_buf_add_json_str(&b, it->name, strlen(it->name));
		name_len = b.len;
		qu_buf_adds(&b, ",,");
		anchor_at = b.len;
		/* the usual anchor, c.NAME, is left for the client to make */
		if (!strncmp(d->anchor, "c.", 2) &&
		    !strcmp(d->anchor + 2, it->name))
			qu_buf_adds(&b, "\"\"");
		else
			qu_buf_add_json_str(&b, d->anchor, strlen(d->anchor));
		qu_buf_addc(&b, ',');
	}
	snip_at = b.len;
	search_snippet(&b, x, d);
	/*
	 * what cut_shards() counts for the record: the name, the anchor
	 * and the snippet, and 20 for the rest
	 */
	r->size = name_len + (snip_at - anchor_at) + 20 + (b.len - snip_at);
	/* what the next build's state compares the record by */
	if (x->want_full) {
		struct qu_buf all = QU_BUF_INIT;

		qu_buf_add(&all, b.buf, name_len);
		qu_buf_addc(&all, 0);
		qu_buf_add(&all, b.buf + anchor_at, snip_at - anchor_at);
		qu_buf_addc(&all, 0);
		qu_buf_add(&all, b.buf + snip_at, b.len - snip_at);
		qu_buf_add(&all, r->page, strlen(r->page) + 1);
		qu_buf_add(&all, r->path, strlen(r->path) + 1);
		r->hash = XXH3_64bits(all.buf, all.len);
		qu_buf_fini(&all);
	}
	pl = strlen(r->path);
	r->own_path = strncmp(r->page, r->path, pl) ||
		      strcmp(r->page + pl, ".html");
	r->head = name_len + 1;
	r->text = qu_buf_detach(&b, &r->len);
}

/* Number string @s for the records, its JSON made once, here. */
static uint32_t number_string(struct writer *w, struct qu_map *ids,
			      const char *s)
{
	void **slot = qu_map_slot(ids, s, strlen(s));

	if (!*slot) {
		QU_VEC_GROW(w->str_at, w->nstrings + 1, w->nstrings_alloc);
		w->str_at[w->nstrings] = w->strs.len;
		qu_buf_add_json_str(&w->strs, s, strlen(s));
		*slot = (void *)(uintptr_t)++w->nstrings;
		w->str_at[w->nstrings] = w->strs.len;
	}
	return (uint32_t)((uintptr_t)*slot - 1);
}

/* Number the records' distinct page and path strings, on one thread. */
static void number_strings(struct writer *w)
{
	struct qu_map ids;
	size_t i;

	qu_map_init(&ids);
	for (i = 0; i < w->x->ndocs; i++) {
		struct rec *r = &w->records[i];

		/* an updated index makes only the records it writes */
		if (!r->text)
			continue;
		r->page_id = number_string(w, &ids, r->page);
		r->path_id = number_string(w, &ids, r->path);
	}
	qu_map_fini(&ids);
}

/*
 * The strings of a file: each page and path once, in the order the
 * records first name them; @at holds, by string number, 1 + a string's
 * place in @list, or 0.
 */
struct strtab {
	uint32_t *at;
	struct qu_buf list;
	size_t n;
};

static size_t str_index(struct strtab *st, const struct writer *w,
			uint32_t id)
{
	if (!st->at[id]) {
		if (st->n)
			qu_buf_addc(&st->list, ',');
		qu_buf_add(&st->list, w->strs.buf + w->str_at[id],
			   w->str_at[id + 1] - w->str_at[id]);
		st->at[id] = (uint32_t)++st->n;
	}
	return st->at[id] - 1;
}


/*
 * [kind,"name",page,"anchor","snippet",path]; the path is left out when
 * it is the page's file without ".html" (every item of a zero-config
 * site), which the client then derives.
 */
static void put_record(struct qu_buf *b, struct strtab *st,
		       const struct writer *w, const struct rec *r)
{
	qu_buf_add(b, r->text, r->head);
	qu_buf_add_u64(b, (uint32_t)str_index(st, w, r->page_id));
	qu_buf_add(b, r->text + r->head, r->len - r->head);
	if (r->own_path) {
		qu_buf_addc(b, ',');
		qu_buf_add_u64(b, (uint32_t)str_index(st, w, r->path_id));
	}
	qu_buf_addc(b, ']');
}

/* 64 digits: 0-31 end a number, 32-63 go on (five bits each, high first) */
static const char digits[] =
	"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";

/* a score's level: 32 log-spaced steps of its low 12 bits, 1 to 31 */
static uint8_t score_level(uint32_t score)
{
	double s = (score & 4095) / 64.0;
	long l = lround(log2(1.0 + s) * 7.0);

	if (l < 1)
		l = 1;
	if (l > 31)
		l = 31;
	return (uint8_t)l;
}

/*
 * A term's postings: each the step from the last document number, in
 * digits of five bits (32 to 63: more to come), then the score as one
 * digit, its level plus 32 for a title hit. A posting takes at most
 * eight digits: room for all is made at once.
 */
static void put_postings(struct qu_buf *b, const struct writer *w,
			 const struct search_term *t)
{
	uint32_t prev = 0, k;
	char *o;

	qu_buf_grow(b, (size_t)t->npost * 8);
	o = b->buf + b->len;
	for (k = 0; k < t->npost; k++) {
		const struct search_posting *p = &t->post[k];
		uint32_t v = p->doc - prev;
		char tmp[8];
		int n = 0;

		tmp[n++] = digits[v & 31];
		while ((v >>= 5))
			tmp[n++] = digits[32 + (v & 31)];
		while (n--)
			*o++ = tmp[n];
		*o++ = digits[w->level[p->score & 4095] +
			      (p->score & 4096 ? 32 : 0)];
		prev = p->doc;
	}
	b->len = (size_t)(o - b->buf);
	b->buf[b->len] = '\0';
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

/*
 * Write one file of the index, or leave it out when the last site has
 * these very bytes there. Return: whether it was left out.
 */
static bool put_new(const struct writer *w, const char *name,
		    const struct qu_buf *data, struct qu_buf *err)
{
	struct qu_buf path = QU_BUF_INIT, old = QU_BUF_INIT, e = QU_BUF_INIT;
	bool same = false;

	if (w->last) {
		qu_buf_addf(&path, "%s/_search/%s", w->last, name);
		same = !qu_file_read(&old, path.buf, &e) &&
		       old.len == data->len &&
		       !memcmp(old.buf, data->buf, data->len);
	}
	if (!same)
		put(w->dir, name, data, err);
	qu_buf_fini(&path);
	qu_buf_fini(&old);
	qu_buf_fini(&e);
	return same;
}

static void term_shard(struct qu_job *job, size_t si, void *payload)
{
	struct writer *w = payload;
	const struct search_index *x = w->x;
	size_t first = w->shard_first[si], end = w->shard_first[si + 1];
	/* the worker's buffer, shard after shard, instead of one a shard
	 * grown from nothing by doubling and copying */
	struct qu_buf *b = &job->scratch, name = QU_BUF_INIT;
	struct strtab st = {.list = QU_BUF_INIT};
	size_t nwords = x->ndocs / 64 + 1, i, k, n = 0;
	uint64_t *docs;

	if (w->tkeep && w->tkeep[si]) {
		w->tkept[si] = true;
		return;
	}
	/* the top documents of the shard's terms: a bit each */
	docs = qu_xcalloc(nwords, sizeof(*docs));
	qu_buf_reset(b);
	qu_buf_addf(b, "quireSearch.t(%zu,{\"t\":[", si);
	for (i = first; i < end; i++) {
		const struct search_term *t = x->terms[i];

		if (i > first)
			qu_buf_addc(b, ',');
		/*
		 * a term is letters, digits and "_" in valid UTF-8
		 * (qu_search_tokenize()): qu_buf_add_json_str() would
		 * only quote it
		 */
		qu_buf_addc(b, '"');
		qu_buf_add(b, t->term, t->len);
		qu_buf_addc(b, '"');
	}
	qu_buf_adds(b, "],\n\"p\":[");
	for (i = first; i < end; i++) {
		const struct search_term *t = x->terms[i];

		qu_buf_adds(b, i > first ? ",\n\"" : "\"");
		put_postings(b, w, t);
		qu_buf_addc(b, '"');
		for (k = 0; k < t->ntop; k++)
			docs[t->top[k] / 64] |= (uint64_t)1 << (t->top[k] % 64);
	}
	qu_buf_adds(b, "],\n\"d\":{");
	st.at = qu_xcalloc(w->nstrings + 1, sizeof(*st.at));
	/* their records, once each, by document */
	for (i = 0; i < nwords; i++) {
		uint64_t m;

		for (m = docs[i]; m; m &= m - 1) {
			size_t d = 64 * i + (size_t)__builtin_ctzll(m);

			qu_buf_adds(b, n++ ? ",\n\"" : "\"");
			qu_buf_add_u64(b, (uint32_t)d);
			qu_buf_adds(b, "\":");
			put_record(b, &st, w, &w->records[d]);
		}
	}
	qu_buf_adds(b, "},\n\"s\":[");
	qu_buf_add(b, st.list.buf, st.list.len);
	qu_buf_adds(b, "]});\n");
	free(st.at);
	qu_buf_fini(&st.list);
	qu_buf_addf(&name, "t/%zu.js", si);
	w->tkept[si] = put_new(w, name.buf, b, &w->errs[si]);
	free(docs);
	qu_buf_fini(&name);
}

static void doc_shard(struct qu_job *job, size_t si, void *payload)
{
	struct writer *w = payload;
	size_t i, end = (si + 1) * DOC_SHARD;
	/* the worker's buffer, as in term_shard() */
	struct qu_buf *b = &job->scratch, name = QU_BUF_INIT;
	struct strtab st = {.list = QU_BUF_INIT};

	if (w->dkeep && w->dkeep[si]) {
		w->dkept[si] = true;
		return;
	}
	if (end > w->x->ndocs)
		end = w->x->ndocs;
	st.at = qu_xcalloc(w->nstrings + 1, sizeof(*st.at));
	qu_buf_reset(b);
	qu_buf_addf(b, "quireSearch.d(%zu,{\"d\":[", si);
	for (i = si * DOC_SHARD; i < end; i++) {
		if (i > si * DOC_SHARD)
			qu_buf_adds(b, ",\n");
		put_record(b, &st, w, &w->records[i]);
	}
	qu_buf_adds(b, "],\n\"s\":[");
	qu_buf_add(b, st.list.buf, st.list.len);
	qu_buf_adds(b, "]});\n");
	free(st.at);
	qu_buf_fini(&st.list);
	qu_buf_addf(&name, "d/%zu.js", si);
	w->dkept[si] = put_new(w, name.buf, b, &w->errs[w->nshards + si]);
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
		size += t->len + 6 + 3 * (size_t)t->npost;
		for (k = 0; k < t->ntop; k++) {
			uint32_t d = t->top[k];

			if (w->seen[d] != w->nshards) {
				w->seen[d] = (uint32_t)w->nshards;
				size += w->records[d].size;
			}
		}
	}
	w->shard_first[w->nshards] = x->nterms;
}

/*
 * Which shards of one kind (@kind: "t" or "d") the last site's index has
 * as files, "N.js" for N below @n: its folder read once, where a stat(2)
 * a shard took as long again (a kernel site has 1,450). A link counts
 * as what it points to, as stat(2) says.
 */
static bool *last_shards(const char *last, const char *kind, size_t n)
{
	bool *has = qu_xcalloc(n + 1, sizeof(*has));
	struct qu_buf p = QU_BUF_INIT;
	struct dirent *de;
	DIR *d;

	qu_buf_addf(&p, "%s/_search/%s", last, kind);
	d = opendir(p.buf);
	qu_buf_fini(&p);
	if (!d)
		return has;
	while ((de = readdir(d))) {
		const char *c = de->d_name;
		size_t k = 0;
		struct stat st;

		/* as "%zu.js" writes it: no sign, no leading zero */
		if (*c < '0' || *c > '9' || (*c == '0' && c[1] != '.'))
			continue;
		for (; *c >= '0' && *c <= '9' && k < n; c++)
			k = k * 10 + (size_t)(*c - '0');
		if (k >= n || strcmp(c, ".js"))
			continue;
		if (de->d_type == DT_REG)
			has[k] = true;
		else if (de->d_type == DT_UNKNOWN || de->d_type == DT_LNK)
			has[k] = !fstatat(dirfd(d), de->d_name, &st, 0) &&
				 S_ISREG(st.st_mode);
	}
	closedir(d);
	return has;
}

/* Whether the last site has term shard @i (@doc: document shard) */
static bool last_has(struct writer *w, bool doc, size_t i, size_t n)
{
	bool **has = doc ? &w->last_d : &w->last_t;

	if (!w->last_ok)
		return false;
	if (!*has)
		*has = last_shards(w->last, doc ? "d" : "t", n);
	return i < n && (*has)[i];
}

static void need_record(struct writer *w, uint32_t d)
{
	if (!w->records[d].text)
		record(NULL, d, w);
}

/*
 * An index updated from the state: the records of the changed documents,
 * the shards cut, and which of them stay as the last site has them (a
 * term shard with the very terms it had, none rescored, none of whose
 * top documents changed; a document shard with no changed document).
 * The others get their terms' postings and their records.
 */
static void plan_update(struct writer *w, size_t ndshards)
{
	struct search_index *x = w->x;
	const struct search_state *s = w->prev;
	size_t i, k, si;

	for (i = 0; i < x->ndocs; i++) {
		struct rec *r = &w->records[i];

		if (!(w->changed[i] & SEARCH_PAGE_CHANGED)) {
			r->size = s->rec_size[i];
			r->hash = s->rec_hash[i];
			continue;
		}
		record(NULL, i, w);
		if (r->hash != s->rec_hash[i] || r->size != s->rec_size[i])
			w->changed[i] |= SEARCH_RECORD_CHANGED;
	}
	cut_shards(w);
	w->tkeep = qu_xcalloc(w->nshards + 1, sizeof(*w->tkeep));
	w->dkeep = qu_xcalloc(ndshards + 1, sizeof(*w->dkeep));
	for (si = 0; si < w->nshards; si++) {
		size_t first = w->shard_first[si], end = w->shard_first[si + 1];
		bool keep = si < s->hdr->nshards &&
			    end - first == s->shard_first[si + 1] -
						   s->shard_first[si] &&
			    x->terms[first]->prev == s->shard_first[si] + 1;

		for (i = first; keep && i < end; i++) {
			const struct search_term *t = x->terms[i];

			keep = t->prev != 0;
			for (k = 0; keep && k < t->ntop; k++)
				keep = !(w->changed[t->top[k]] &
					 SEARCH_RECORD_CHANGED);
		}
		if (keep && last_has(w, false, si, w->nshards)) {
			w->tkeep[si] = true;
			continue;
		}
		for (i = first; i < end; i++) {
			struct search_term *t = x->terms[i];

			if (t->prev)
				search_materialize(x, s, t);
			for (k = 0; k < t->ntop; k++)
				need_record(w, t->top[k]);
		}
	}
	for (si = 0; si < ndshards; si++) {
		size_t end = (si + 1) * DOC_SHARD;
		bool keep = true;

		if (end > x->ndocs)
			end = x->ndocs;
		for (i = si * DOC_SHARD; keep && i < end; i++)
			keep = !(w->changed[i] & SEARCH_RECORD_CHANGED);
		if (keep && last_has(w, true, si, ndshards)) {
			w->dkeep[si] = true;
			continue;
		}
		for (i = si * DOC_SHARD; i < end; i++)
			need_record(w, (uint32_t)i);
	}
	number_strings(w);
}

/* The XXH3 of the last site's manifest, or 0 when it has none. */
static uint64_t last_manifest(const char *last)
{
	struct qu_buf p = QU_BUF_INIT, b = QU_BUF_INIT, e = QU_BUF_INIT;
	uint64_t h = 0;

	qu_buf_addf(&p, "%s/_search/index.js", last);
	if (!qu_file_read(&b, p.buf, &e))
		h = XXH3_64bits(b.buf, b.len);
	qu_buf_fini(&p);
	qu_buf_fini(&b);
	qu_buf_fini(&e);
	return h;
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

/* Tell the caller which files were left out, in order. */
static void tell_kept(const struct writer *w, size_t ndshards, bool mkept,
		      qu_search_keep_fn keep, void *payload)
{
	struct qu_buf name = QU_BUF_INIT;
	size_t i;

	for (i = 0; i < w->nshards; i++)
		if (w->tkept[i]) {
			qu_buf_reset(&name);
			qu_buf_addf(&name, "_search/t/%zu.js", i);
			keep(name.buf, payload);
		}
	for (i = 0; i < ndshards; i++)
		if (w->dkept[i]) {
			qu_buf_reset(&name);
			qu_buf_addf(&name, "_search/d/%zu.js", i);
			keep(name.buf, payload);
		}
	if (mkept)
		keep("_search/index.js", payload);
	qu_buf_fini(&name);
}

/* The state file of the next build: STATE.next until committed. */
static void next_state(struct qu_buf *b, const char *path)
{
	qu_buf_addf(b, "%s.next", path);
}

/*
 * The next state, written beside the rest of the build: it needs the
 * index, which it frees, and the last state, which it closes.
 */
struct qu_search_next {
	struct qu_thread thread;
	struct search_index x;
	struct search_state prev;
	bool has_prev;
	char *path;
	const uint64_t *page_keys;
	uint32_t *sizes;
	uint64_t *hashes;
	size_t *shard_first;
	size_t nshards;
	uint64_t manifest;
	struct qu_buf err;
	int r;
};

static void *next_job(void *payload)
{
	struct qu_search_next *n = payload;

	n->r = search_state_write(n->path, &n->x,
				  n->has_prev ? &n->prev : NULL, n->page_keys,
				  n->sizes, n->hashes, n->shard_first,
				  n->nshards, n->manifest, &n->err);
	search_fini(&n->x);
	search_state_close(&n->prev);
	free(n->sizes);
	free(n->hashes);
	free(n->shard_first);
	free(n->path);
	return NULL;
}

/* Wait for the next state's writing; -1 with its message when it failed */
static int next_wait(struct qu_search_next *n, struct qu_buf *err)
{
	int r;

	if (!n)
		return 0;
	qu_thread_wait(&n->thread);
	r = n->r;
	if (r < 0 && err)
		qu_buf_adds(err, n->err.buf);
	qu_buf_fini(&n->err);
	free(n);
	return r;
}

void qu_search_next_free(struct qu_search_next *next)
{
	next_wait(next, NULL);
}

int qu_search_state_commit(const char *path, struct qu_search_next *n,
			   struct qu_buf *err)
{
	struct qu_buf next = QU_BUF_INIT;
	int r = 0;

	if (next_wait(n, err) < 0)
		return -1;
	next_state(&next, path);
	if (rename(next.buf, path) < 0 && errno != ENOENT) {
		qu_buf_addf(err, "%s: cannot rename: %s", next.buf,
			    strerror(errno));
		r = -1;
	}
	qu_buf_fini(&next);
	return r;
}

/*
 * Read the last build's state, when there is one for the last site or
 * the last site has no index (removed with the site, say: the state
 * still gives every unchanged page's postings, and no shard stays); it
 * is removed either way, and the next one written once this index is
 * in the site (qu_search_state_commit()).
 */
static bool begin_update(struct writer *w, struct search_state *prev,
			 struct qu_search_cache *cache, unsigned threads)
{
	const char *why = !w->last      ? ""
			  : cache->state ? search_state_take(prev, cache->state)
					 : search_state_open(prev, cache->path);
	uint8_t *changed;

	if (!why) {
		uint64_t h = last_manifest(w->last);

		if (h && h != prev->hdr->manifest) {
			/* the state of an index that did not reach OUT */
			search_state_close(prev);
			why = "";
		}
		w->last_ok = h != 0;
	}
	unlink(cache->path);
	if (why) {
		if (*why)
			cache->note = why;
		return false;
	}
	changed = qu_xcalloc(w->x->ndocs + 1, sizeof(*changed));
	if (!search_update(w->x, prev, cache->page_keys, changed, threads)) {
		free(changed);
		return false;
	}
	w->prev = prev;
	w->changed = changed;
	cache->updated = true;
	return true;
}

int qu_search_write(const char *dir, const struct qu_site *site,
		    const struct qu_graph *g, unsigned threads,
		    struct qu_search_memo *memo, struct qu_search_cache *cache,
		    const char *last, qu_search_keep_fn keep, void *payload,
		    struct qu_buf *err)
{
	struct search_index x;
	struct search_state prev;
	struct writer w;
	struct qu_buf path = QU_BUF_INIT, m = QU_BUF_INIT;
	size_t i, ndshards = 0, ndocs;
	bool mkept = false;
	int r = 0;

	_Static_assert(sizeof(kind_names) / sizeof(kind_names[0]) ==
			       SEARCH_KIND_PAGE + 1,
		       "a name per kind");
	assert(!last || keep);
	assert(!cache || !memo);
	memset(&prev, 0, sizeof(prev));
	search_begin(&x, site, g);
	memset(&w, 0, sizeof(w));
	w.x = &x;
	w.dir = dir;
	w.last = last;
	ndocs = x.ndocs;
	w.records = qu_xcalloc(ndocs + 1, sizeof(*w.records));
	ndshards = (x.ndocs + DOC_SHARD - 1) / DOC_SHARD;
	x.want_full = cache != NULL;
	if (cache && begin_update(&w, &prev, cache, threads)) {
		plan_update(&w, ndshards);
	} else {
		search_build(&x, threads, memo);
		qu_pool_run(threads, x.ndocs, record, &w);
		number_strings(&w);
		cut_shards(&w);
	}

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
	for (i = 0; i < 4096; i++)
		w.level[i] = score_level((uint32_t)i);
	w.errs = qu_xcalloc(w.nshards + ndshards + 1, sizeof(*w.errs));
	w.tkept = qu_xcalloc(w.nshards + 1, sizeof(*w.tkept));
	w.dkept = qu_xcalloc(ndshards + 1, sizeof(*w.dkept));
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
		struct qu_buf merr = QU_BUF_INIT;

		manifest(&m, &w);
		mkept = put_new(&w, "index.js", &m, &merr);
		if (merr.len) {
			qu_buf_adds(err, merr.buf);
			r = -1;
		}
		qu_buf_fini(&merr);
	}
	if (!r && last)
		tell_kept(&w, ndshards, mkept, keep, payload);
	if (!r && cache) {
		/* the next state on a thread, which takes the index */
		struct qu_search_next *n = qu_xcalloc(1, sizeof(*n));

		n->sizes = qu_xcalloc(x.ndocs + 1, sizeof(*n->sizes));
		n->hashes = qu_xcalloc(x.ndocs + 1, sizeof(*n->hashes));
		for (i = 0; i < x.ndocs; i++) {
			n->sizes[i] = (uint32_t)w.records[i].size;
			n->hashes[i] = w.records[i].hash;
		}
		qu_buf_reset(&path);
		next_state(&path, cache->path);
		n->path = qu_buf_detach(&path, NULL);
		n->page_keys = cache->page_keys;
		n->shard_first = w.shard_first;
		w.shard_first = NULL;
		n->nshards = w.nshards;
		n->manifest = XXH3_64bits(m.buf, m.len);
		n->x = x;
		memset(&x, 0, sizeof(x));
		n->has_prev = w.prev != NULL;
		n->prev = prev;
		memset(&prev, 0, sizeof(prev));
		qu_buf_init(&n->err);
		qu_thread_start(&n->thread, threads != 1, next_job, n);
		cache->next = n;
	}
out:
	/* the records are per document, whoever took the index */
	for (i = 0; i < ndocs; i++)
		free(w.records[i].text);
	qu_buf_fini(&w.strs);
	free(w.str_at);
	free(w.changed);
	free(w.tkeep);
	free(w.last_t);
	free(w.last_d);
	free(w.dkeep);
	free(w.records);
	free(w.shard_first);
	free(w.seen);
	free(w.tkept);
	free(w.dkept);
	qu_buf_fini(&path);
	qu_buf_fini(&m);
	search_fini(&x);
	search_state_close(&prev);
	return r;
}
