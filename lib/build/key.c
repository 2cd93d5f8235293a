// SPDX-License-Identifier: MIT
/*
 * key.c - the fingerprint of what each page's HTML is made from
 *
 * Part of lib/build. A page is taken from the last site only when its
 * fingerprint is unchanged, so the fingerprint covers everything
 * lib/render reads for it: the page's own parts and headings, the bytes of
 * every file whose items it shows and who refers to them, and what all
 * pages share (navigation, the symbol table, theme, configuration,
 * version, and the quire executable itself, so a new quire never reuses
 * an old quire's pages).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "build_int.h"
#include "render/render.h"
#include "qu_config.h"

/*
 * A hash fed in small pieces: they gather in @buf and go to XXH3's
 * streaming state a block at a time (its update costs as much for 8 bytes
 * as for a kilobyte). The digest is XXH3_64bits() of the bytes fed in
 * order, however they are cut.
 */
struct kh {
	XXH3_state_t *st;
	size_t n;
	unsigned char buf[4096];
};

static struct kh *kh_new(void)
{
	struct kh *h = qu_xmalloc(sizeof(*h));

	h->st = XXH3_createState();
	if (!h->st)
		qu_die_oom();
	h->n = 0;
	return h;
}

static void kh_reset(struct kh *h)
{
	XXH3_64bits_reset(h->st);
	h->n = 0;
}

static void kh_add(struct kh *h, const void *p, size_t len)
{
	if (len > sizeof(h->buf) - h->n) {
		XXH3_64bits_update(h->st, h->buf, h->n);
		h->n = 0;
		if (len > sizeof(h->buf)) {
			XXH3_64bits_update(h->st, p, len);
			return;
		}
	}
	memcpy(h->buf + h->n, p, len);
	h->n += len;
}

static uint64_t kh_digest(struct kh *h)
{
	XXH3_64bits_update(h->st, h->buf, h->n);
	h->n = 0;
	return XXH3_64bits_digest(h->st);
}

static void kh_free(struct kh *h)
{
	XXH3_freeState(h->st);
	free(h);
}

static void h_str(struct kh *h, const char *s)
{
	/* the terminating NUL separates fields; NULL differs from "" */
	if (s)
		kh_add(h, s, strlen(s) + 1);
	else
		kh_add(h, "\xff", 1);
}

static void h_u64(struct kh *h, uint64_t v)
{
	kh_add(h, &v, sizeof(v));
}

static void h_file(struct kh *h, const struct qu_files *fs, const char *path)
{
	struct qu_buf data = QU_BUF_INIT, err = QU_BUF_INIT;

	if (qu_files_read(fs, &data, path, &err) < 0)
		h_str(h, err.buf);
	else
		h_u64(h, XXH3_64bits(data.buf, data.len));
	qu_buf_fini(&data);
	qu_buf_fini(&err);
}

/*
 * The workers' hashes: one each, made on first use (qu_job.worker is
 * below @n)
 */
struct kh_pool {
	struct kh **v;
	unsigned n;
};

static void kh_pool_init(struct kh_pool *kp, unsigned threads)
{
	kp->n = threads ? threads : qu_ncpus();
	kp->v = qu_xcalloc(kp->n, sizeof(*kp->v));
}

static struct kh *kh_of(struct kh_pool *kp, const struct qu_job *job)
{
	assert(job->worker < kp->n);
	if (!kp->v[job->worker])
		kp->v[job->worker] = kh_new();
	kh_reset(kp->v[job->worker]);
	return kp->v[job->worker];
}

static void kh_pool_fini(struct kh_pool *kp)
{
	for (unsigned i = 0; i < kp->n; i++)
		if (kp->v[i])
			kh_free(kp->v[i]);
	free(kp->v);
}

/* the symbols hashed a stretch at a time, on the workers */
#define SYMS_STRETCH 4096

struct syms_run {
	const struct qu_graph *g;
	struct kh_pool kp;
	uint64_t *out;	/* per stretch */
};

static void syms_stretch(struct qu_job *job, size_t k, void *payload)
{
	struct syms_run *run = payload;
	const struct qu_graph *g = run->g;
	struct kh *h = kh_of(&run->kp, job);
	size_t i = k * SYMS_STRETCH, end = i + SYMS_STRETCH;

	for (; i < end && i < g->nsyms; i++) {
		const struct qu_sym *s = &g->syms[i];

		h_str(h, s->name);
		h_u64(h, s->ns);
		h_u64(h, s->kind);
		h_u64(h, s->unit);
		h_u64(h, s->item);
		h_u64(h, s->param);
		h_u64(h, s->page);
		h_str(h, s->anchor);
		h_u64(h, s->next);
	}
	run->out[k] = kh_digest(h);
}

/*
 * Every symbol's name, kind, item and home: the same for one placement.
 * The hash of their count and of each stretch's hash, in order.
 */
static uint64_t syms_key(const struct qu_graph *g, unsigned threads,
			 struct build_key_memo *memo)
{
	struct syms_run run = {.g = g};
	size_t n = (g->nsyms + SYMS_STRETCH - 1) / SYMS_STRETCH;
	uint64_t r;

	if (memo && g->place_id && memo->place_id == g->place_id)
		return memo->syms;
	kh_pool_init(&run.kp, threads);
	run.out = qu_xcalloc(n + 2, sizeof(*run.out));
	qu_pool_run(threads, n, syms_stretch, &run);
	run.out[n] = g->nsyms;
	r = XXH3_64bits(run.out, (n + 1) * sizeof(*run.out));
	free(run.out);
	kh_pool_fini(&run.kp);
	if (memo) {
		memo->place_id = g->place_id;
		memo->syms = r;
	}
	return r;
}

/* What every page shows the same way: navigation, symbols, theme. */
static uint64_t global_key(const struct qu_site *site,
			   const struct qu_graph *g,
			   const struct qu_files *theme_files, const char *theme,
			   const char *version, uint64_t exe, unsigned threads,
			   struct build_key_memo *memo)
{
	struct kh *h = kh_new();
	const struct qu_config *c = &site->cfg;
	struct qu_buf p = QU_BUF_INIT;
	size_t i, k;
	uint64_t r;

	kh_reset(h);
	h_str(h, "quire " QU_VERSION);
	h_u64(h, exe);
	h_str(h, version);
	h_str(h, c->title);
	h_str(h, c->base_url);
	h_str(h, c->source_url);
	h_str(h, c->edit_url);
	h_str(h, c->srctree);
	h_u64(h, c->allow_html);
	h_u64(h, c->sphinx);
	h_u64(h, c->comment_markup);
	h_str(h, site->srctree);
	h_u64(h, site->zero_config);
	/* other sites' inventories decide where references link */
	for (i = 0; i < c->nintersphinx; i++) {
		h_str(h, c->intersphinx[i].name);
		h_str(h, c->intersphinx[i].url);
		h_u64(h, XXH3_64bits(c->intersphinx[i].data,
				     c->intersphinx[i].len));
	}
	h_u64(h, c->nintersphinx);
	qu_buf_addf(&p, "%s/page.html", theme);
	h_file(h, theme_files, p.buf);
	h_u64(h, site->npages);
	for (i = 0; i < site->npages; i++) {
		const struct qu_page *pg = &site->pages[i];

		h_str(h, pg->src);
		h_str(h, pg->diag_path);
		h_str(h, pg->out);
		h_str(h, pg->title);
		h_u64(h, (uint64_t)pg->order);
		h_u64(h, pg->depth);
		h_u64(h, pg->h1);
		h_u64(h, pg->parent);
		for (k = 0; k < pg->nchildren; k++)
			h_u64(h, pg->children[k]);
		h_u64(h, pg->nchildren);
		for (k = 0; k < pg->nparts; k++)
			if (pg->parts[k].kind == QU_PART_TOCTREE)
				h_str(h, pg->parts[k].caption);
		for (k = 0; k < pg->nheadings; k++) {
			h_str(h, pg->headings[k].text);
			h_str(h, pg->headings[k].id);
			h_u64(h, pg->headings[k].level);
			h_u64(h, pg->headings[k].hidden);
		}
		h_u64(h, pg->nheadings);
		/* :ref: on any page links to any page's labels */
		for (k = 0; k < pg->nlabels; k++) {
			h_str(h, pg->labels[k].name);
			h_str(h, pg->labels[k].id);
			h_str(h, pg->labels[k].title);
		}
		h_u64(h, pg->nlabels);
	}
	/* a reST page's relative link to a file is checked against these */
	for (i = 0; i < site->nassets; i++)
		h_str(h, site->assets[i]);
	h_u64(h, site->nassets);
	h_u64(h, g->nunits);
	for (i = 0; i < g->nunits; i++)
		h_str(h, g->units[i].path);
	/* "exported as" may come from another file than the item's */
	for (i = 0; g->exports && i < g->nunits; i++) {
		for (k = 0; k < g->exports[i].n; k++) {
			h_str(h, g->exports[i].v[k].name);
			h_str(h, g->exports[i].v[k].macro);
		}
		h_u64(h, g->exports[i].n);
	}
	h_u64(h, syms_key(g, threads, memo));
	r = kh_digest(h);
	kh_free(h);
	qu_buf_fini(&p);
	return r;
}

static void h_sel(struct kh *h, const struct qu_kdoc_sel *s)
{
	size_t i;

	h_str(h, s->path);
	h_u64(h, s->mode);
	for (i = 0; i < s->nnames; i++)
		h_str(h, s->names[i]);
	h_u64(h, s->nnames);
	for (i = 0; i < s->nno_names; i++)
		h_str(h, s->no_names[i]);
	h_u64(h, s->nno_names);
	h_str(h, s->doc);
	h_u64(h, s->doc_first);
}

static void h_refs(struct kh *h, const struct qu_graph *g, uint32_t sym)
{
	const struct qu_sym *s = &g->syms[sym];
	uint32_t i;

	h_u64(h, s->nrefs);
	for (i = 0; i < s->nrefs; i++) {
		h_u64(h, g->refs[s->refs[i]].page);
		h_u64(h, g->refs[s->refs[i]].sym);
	}
}

/*
 * objects.inv's body: the global key covers its symbols and the pages'
 * paths, titles, headings and labels, but for the labels' roles (reST's
 * C-domain declarations and glossary terms)
 */
static uint64_t inv_key(const struct qu_site *site, uint64_t global)
{
	struct kh *h = kh_new();
	size_t i, k;
	uint64_t r;

	kh_reset(h);
	h_str(h, "objects.inv");
	h_u64(h, global);
	for (i = 0; i < site->npages; i++)
		for (k = 0; k < site->pages[i].nlabels; k++)
			h_str(h, site->pages[i].labels[k].role);
	r = kh_digest(h);
	kh_free(h);
	/* 0 is "no key" to qu_graph_inventory() */
	return r ? r : 1;
}

/*
 * An extra file (the general index and its pages, 404.html, search.html)
 * shows the symbol table and the navigation, which the global key covers,
 * and its own stretch of the index.
 */
static uint64_t extra_key(uint64_t global, const struct qu_extra *e)
{
	struct kh *h = kh_new();
	uint64_t r;

	kh_reset(h);
	h_u64(h, global);
	h_str(h, e->out);
	h_str(h, e->title);
	h_u64(h, (uint64_t)e->kind);
	h_u64(h, e->first);
	h_u64(h, e->end);
	/* only an initial's page has a label (lib/render leaves the rest) */
	if (e->kind == 1)
		h_str(h, e->label);
	r = kh_digest(h);
	kh_free(h);
	return r;
}

struct keys_run {
	const struct qu_site *site;
	const struct qu_graph *g;
	const struct qu_unit *units;
	const struct build_history *hist;
	const uint32_t *first, *next;	/* each page's symbols, chained */
	uint64_t global;
	struct kh_pool kp;
	uint64_t *out;
};

/* One page's fingerprint, on a worker. */
static void page_key(struct qu_job *job, size_t p, void *payload)
{
	struct keys_run *run = payload;
	const struct qu_graph *g = run->g;
	const struct build_history *hist = run->hist;
	const struct qu_page *pg = &run->site->pages[p];
	struct kh *h = kh_of(&run->kp, job);
	uint32_t s;
	size_t k;

	h_u64(h, run->global);
	/* last changed and "view source" (history.c) */
	h_str(h, hist->source_url);
	h_str(h, hist->edit_url);
	h_u64(h, (uint64_t)hist->pages[p].time);
	h_str(h, hist->pages[p].commit);
	h_str(h, hist->pages[p].link);
	for (k = 0; k < pg->nparts; k++) {
		const struct qu_part *pt = &pg->parts[k];
		size_t e;

		h_u64(h, pt->kind);
		h_u64(h, pt->line);
		kh_add(h, pt->text ? pt->text : "", pt->text ? pt->len : 0);
		h_u64(h, pt->len);
		h_sel(h, &pt->sel);
		for (e = 0; e < pt->npages; e++)
			h_u64(h, pt->pages[e]);
		h_u64(h, pt->npages);
		h_u64(h, pt->maxdepth);
		for (e = 0; e < pt->nfiles; e++) {
			h_str(h, pt->files[e].name);
			h_u64(h, pt->files[e].page);
			h_u64(h, pt->files[e].nfiles);
			h_u64(h, pt->files[e].nitems);
			h_str(h, pt->files[e].brief);
		}
		h_u64(h, pt->nfiles);
		if (!g->part_start || !g->part_start[p])
			continue;
		for (e = g->part_start[p][k]; e < g->part_start[p][k + 1];
		     e++) {
			const struct qu_placed *pl = &g->placed[e];

			h_u64(h, pl->unit);
			h_u64(h, pl->item);
			h_u64(h, pl->sym);
			h_str(h, pl->anchor);
			h_u64(h, pl->home);
			h_u64(h, (uint64_t)hist->units[pl->unit].time);
			h_str(h, hist->units[pl->unit].commit);
			h_str(h, hist->units[pl->unit].link);
			h_u64(h, run->units[pl->unit].hash.lo);
			h_u64(h, run->units[pl->unit].hash.hi);
			if (pl->sym != QU_NONE)
				h_refs(h, g, pl->sym);
		}
	}
	for (s = run->first[p]; s != QU_NONE; s = run->next[s])
		h_refs(h, g, s);
	run->out[p] = kh_digest(h);
}

void build_keys(uint64_t *out, const struct qu_site *site,
		const struct qu_graph *g, const struct qu_unit *units,
		const struct qu_extra *extras, size_t nextras,
		const struct qu_files *theme_files, const char *theme,
		const char *version, uint64_t exe,
		const struct build_history *hist, unsigned threads,
		struct build_key_memo *memo, uint64_t *inv_out)
{
	uint64_t global = global_key(site, g, theme_files, theme, version,
				     exe, threads, memo);
	uint32_t *first = qu_xcalloc(site->npages + 1, sizeof(uint32_t));
	uint32_t *next = qu_xcalloc(g->nsyms + 1, sizeof(uint32_t));
	struct keys_run run = {.site = site, .g = g, .units = units,
			       .hist = hist, .first = first, .next = next,
			       .global = global, .out = out};
	size_t p, k, j;

	/* the symbols whose home is each page, in symbol order */
	for (p = 0; p < site->npages; p++)
		first[p] = QU_NONE;
	for (j = g->nsyms; j-- > 0;) {
		uint32_t pg = g->syms[j].page;

		next[j] = QU_NONE;
		if (pg < site->npages) {
			next[j] = first[pg];
			first[pg] = (uint32_t)j;
		}
	}
	kh_pool_init(&run.kp, threads);
	qu_pool_run(threads, site->npages, page_key, &run);
	kh_pool_fini(&run.kp);
	for (k = 0; k < nextras; k++)
		out[site->npages + k] = extra_key(global, &extras[k]);
	if (inv_out)
		*inv_out = inv_key(site, global);
	free(first);
	free(next);
}

/* Every file below the theme folder @dir, by name and bytes. */
static void h_tree(struct kh *h, const struct qu_files *fs, const char *dir)
{
	struct qu_buf p = QU_BUF_INIT;
	struct qu_fstat st;
	char **ents = NULL;
	size_t n = 0, k;

	if (qu_files_list(fs, &ents, NULL, &n, dir) < 0)
		return;
	for (k = 0; k < n; k++) {
		qu_buf_reset(&p);
		qu_buf_add_path(&p, dir, ents[k]);
		h_str(h, ents[k]);
		/* as copy_tree(): a link to a folder is not followed */
		if (qu_files_stat(fs, &st, p.buf, false) == 0 &&
		    st.kind == QU_FK_DIR)
			h_tree(h, fs, p.buf);
		else
			h_file(h, fs, p.buf);
		free(ents[k]);
	}
	h_u64(h, n);
	free(ents);
	qu_buf_fini(&p);
}

uint64_t build_site_key(const char *commit, const char *links,
			const struct qu_files *theme_files, const char *theme,
			uint64_t exe, bool dates)
{
	struct kh *h = kh_new();
	uint64_t r;

	kh_reset(h);
	h_str(h, "quire " QU_VERSION);
	h_u64(h, exe);
	h_str(h, commit);
	h_str(h, links);
	h_str(h, theme);
	/* a theme of the revision is in the commit; one on disk is not */
	if (!theme_files)
		h_tree(h, NULL, theme);
	h_u64(h, dates);
	r = kh_digest(h);
	kh_free(h);
	return r;
}
