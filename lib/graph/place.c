// SPDX-License-Identifier: MIT
/*
 * place.c - put items on pages and give each one home and one anchor
 * (graph stage)
 *
 * Pages are visited in order: the first page that shows an item is its
 * home. Anchors follow Sphinx's C domain ("c.list_add", members
 * "c.list_head.next") and are made unique within each page.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "graph_int.h"
#include "rst/rst.h"

/* bsearch() over the site's sorted source list. */
static int cmp_path(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

/*
 * Units are indexed like the site's sources, which are sorted: a directive's
 * path finds its unit by binary search.
 */
uint32_t graph_find_unit(const struct qu_graph *g, const char *path)
{
	const char **p = bsearch(path, g->site->sources, g->site->nsources,
				 sizeof(char *), cmp_path);

	return p ? (uint32_t)(p - g->site->sources) : QU_NONE;
}

/*
 * An anchor id on the page being placed, made unique there with
 * "-2", "-3", ... The page's anchors are a small table, reset for each
 * page, where one for the whole site would be large enough to miss the
 * cache on every anchor. Returns the arena copy.
 */
static const char *claim_n(struct qu_graph *g, const char *id, size_t idlen)
{
	struct qu_buf *key = &g->kbuf;
	struct qu_map_slot *s;
	bool added;

	qu_buf_reset(key);
	qu_buf_add(key, id, idlen);
	s = qu_map_intern(&g->anchors, key->buf, key->len, &g->arena, &added);
	/*
	 * A taken anchor holds the last suffix given for it, so the n-th
	 * item of one name does not probe "-2" to "-n" again (anchors are
	 * never freed): the same anchors in linear time.
	 */
	if (!added) {
		const char *taken = s->key;
		size_t tlen = s->klen;
		uint32_t n = (uint32_t)(uintptr_t)s->value;

		do {
			key->len = idlen;
			qu_buf_addc(key, '-');
			qu_buf_add_u64(key, ++n);
			s = qu_map_intern(&g->anchors, key->buf, key->len,
					  &g->arena, &added);
		} while (!added);
		*qu_map_slot(&g->anchors, taken, tlen) = (void *)(uintptr_t)n;
		/* the slot of the new anchor may have moved: find it again */
		s = qu_map_intern(&g->anchors, key->buf, key->len, &g->arena,
				  &added);
	}
	s->value = (void *)1;
	QU_VEC_GROW(g->ids, g->nids, g->ids_alloc);
	g->ids[g->nids++] = s->key;
	return s->key;
}

static const char *claim(struct qu_graph *g, const char *id)
{
	return claim_n(g, id, strlen(id));
}

static int cmp_id(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The placed page's anchors, sorted once all are placed (sort_page_ids()). */
static void page_done(struct qu_graph *g, size_t page)
{
	const char **v = qu_arena_alloc(&g->arena,
					(g->nids + 1) * sizeof(*v));

	/* memcpy() may not take NULL, even for nothing */
	if (g->nids)
		memcpy(v, g->ids, g->nids * sizeof(*v));
	g->page_ids[page] = v;
	g->npage_ids[page] = g->nids;
	g->nids = 0;
	qu_map_reset(&g->anchors);
}

static void sort_page_ids(struct qu_job *job, size_t page, void *payload)
{
	struct qu_graph *g = payload;

	(void)job;
	if (g->npage_ids[page] > 1)
		qsort((void *)g->page_ids[page], g->npage_ids[page],
		      sizeof(char *), cmp_id);
}

bool qu_graph_has_anchor(const struct qu_graph *g, uint32_t page,
			 const char *id)
{
	if (page >= g->site->npages || !g->page_ids)
		return false;
	return bsearch(&id, g->page_ids[page], g->npage_ids[page],
		       sizeof(char *), cmp_id) != NULL;
}

/*
 * The symbol table made room for @n names (under half full): a new table,
 * the first symbols of the old one placed in it again.
 */
static void stab_grow(struct qu_graph *g, size_t n)
{
	struct qu_graph_stab_slot *old = g->stab;
	size_t cap = g->stab_cap ? g->stab_cap : 16, oldcap = g->stab_cap;

	while (n * 2 > cap)
		cap *= 2;
	if (cap <= oldcap)
		return;
	g->stab = qu_big_alloc(cap * sizeof(*g->stab));
	g->stab_cap = cap;
	for (size_t i = 0; i < oldcap; i++) {
		const struct qu_sym *sym;
		struct qu_graph_stab_slot *to;
		size_t len;
		uint64_t h;

		if (!old[i].sym)
			continue;
		sym = &g->syms[old[i].sym - 1];
		len = strlen(sym->name);
		h = graph_sym_hash(sym->ns, sym->name, len);
		to = graph_stab_find(g, sym->ns, sym->name, len, h);
		*to = old[i];
	}
	/* a table in a loaded placement's mapping is the mapping's */
	if (!g->stab_borrowed)
		qu_big_free(old, oldcap * sizeof(*old));
	g->stab_borrowed = false;
}

/*
 * Symbols of one namespace and name form a chain (@next) from the
 * table's entry: the map holds the first, so candidates come out in placement
 * order, which is page order and thus independent of the thread count.
 */
static uint32_t add_sym(struct qu_graph *g, const char *name, size_t nlen,
			enum qu_ns ns, enum qu_kind kind, uint32_t unit,
			uint32_t item, uint32_t param, uint32_t page,
			const char *anchor)
{
	struct qu_graph_stab_slot *slot;
	struct qu_sym *s;
	uint32_t idx = (uint32_t)g->nsyms;

	QU_VEC_GROW(g->syms, g->nsyms, g->sym_alloc);
	s = &g->syms[g->nsyms++];
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->ns = ns;
	s->kind = kind;
	s->unit = unit;
	s->item = item;
	s->param = param;
	s->page = page;
	s->anchor = anchor;
	s->next = QU_NONE;
	if (2 * (g->nstab + 1) > g->stab_cap)
		stab_grow(g, g->nstab + 1);
	slot = graph_stab_find(g, ns, name, nlen, graph_sym_hash(ns, name, nlen));
	if (!slot->sym) {
		slot->sym = idx + 1;
		slot->tag = (uint32_t)(graph_sym_hash(ns, name, nlen) >> 32);
		g->nstab++;
		s->first = idx;
	} else {
		uint32_t j = slot->sym - 1;

		s->first = j;
		while (g->syms[j].next != QU_NONE)
			j = g->syms[j].next;
		g->syms[j].next = idx;
	}
	return idx;
}

/*
 * struct, union and enum tags share one namespace in C; everything else is
 * an ordinary identifier.
 */
static enum qu_ns kind_ns(enum qu_kind k)
{
	return k == QU_KIND_STRUCT || k == QU_KIND_UNION || k == QU_KIND_ENUM
		       ? QU_NS_TAG
		       : QU_NS_ORD;
}

/*
 * The symbol table of a large site is larger than the caches: the slot a
 * symbol a few ahead will take is loaded while this one is placed: that
 * of @name, or of "@name.@member".
 */
#define SYM_AHEAD 4

static void prefetch_sym(const struct qu_graph *g, enum qu_ns ns,
			 const char *name, const char *member)
{
	char key[128];
	size_t n = strlen(name), m = member ? strlen(member) + 1 : 0;

	if (!g->stab_cap || n + m > sizeof(key))
		return;
	memcpy(key, name, n);
	if (member) {
		key[n] = '.';
		memcpy(key + 1 + n, member, m - 1);
	}
	__builtin_prefetch(&g->stab[graph_sym_hash(ns, key, n + m) &
				    (g->stab_cap - 1)],
			   1);
}

/* The item's symbols: itself, then its members or constants. */
/*
 * Members become "tag.member" symbols so that &struct foo->bar finds them;
 * enum constants are ordinary identifiers in C, and %CONST looks them up so.
 */
static uint32_t home(struct qu_graph *g, uint32_t page, uint32_t unit,
		     uint32_t item, const char *anchor)
{
	const struct qu_item *it = &g->units[unit].items[item];
	/* "ANCHOR.member" and "NAME.member", their prefixes made once */
	struct qu_buf ab = QU_BUF_INIT, nb = QU_BUF_INIT;
	size_t nlen = strlen(it->name), alen, i;
	uint32_t sym;

	sym = add_sym(g, it->name, nlen, kind_ns(it->kind), it->kind, unit,
		      item, QU_NONE, page, anchor);
	if (it->kind != QU_KIND_STRUCT && it->kind != QU_KIND_UNION &&
	    it->kind != QU_KIND_ENUM)
		return sym;
	qu_buf_adds(&ab, anchor);
	qu_buf_addc(&ab, '.');
	alen = ab.len;
	qu_buf_add(&nb, it->name, nlen);
	qu_buf_addc(&nb, '.');
	for (i = 0; i < it->nparams; i++) {
		const struct qu_param *p = &it->params[i];
		size_t plen = strlen(p->name);
		const char *pa;

		if (i + SYM_AHEAD < it->nparams) {
			const char *ahead = it->params[i + SYM_AHEAD].name;

			if (it->kind == QU_KIND_ENUM)
				prefetch_sym(g, QU_NS_ORD, ahead, NULL);
			else
				prefetch_sym(g, QU_NS_MEMBER, it->name, ahead);
		}
		ab.len = alen;
		qu_buf_add(&ab, p->name, plen);
		pa = claim_n(g, ab.buf, ab.len);
		if (it->kind == QU_KIND_ENUM) {
			add_sym(g, p->name, plen, QU_NS_ORD, it->kind, unit,
				item, (uint32_t)i, page, pa);
		} else {
			nb.len = nlen + 1;
			qu_buf_add(&nb, p->name, plen);
			add_sym(g, qu_arena_strndup(&g->arena, nb.buf, nb.len),
				nb.len, QU_NS_MEMBER, it->kind, unit, item,
				(uint32_t)i, page, pa);
		}
	}
	qu_buf_fini(&ab);
	qu_buf_fini(&nb);
	return sym;
}

/*
 * A function's parameters get anchors (for @param links) but no symbols:
 * nothing outside the item refers to them.
 */
static void params_anchors(struct qu_graph *g, uint32_t page,
			   const struct qu_item *it, const char *anchor)
{
	struct qu_buf b = QU_BUF_INIT;
	size_t i, alen;

	if (it->kind == QU_KIND_STRUCT || it->kind == QU_KIND_UNION ||
	    it->kind == QU_KIND_ENUM || !it->nparams)
		return;
	/* "ANCHOR.param", the prefix made once */
	qu_buf_adds(&b, anchor);
	qu_buf_addc(&b, '.');
	alen = b.len;
	for (i = 0; i < it->nparams; i++) {
		b.len = alen;
		qu_buf_adds(&b, it->params[i].name);
		claim_n(g, b.buf, b.len);
	}
	qu_buf_fini(&b);
}

/*
 * DOC: titles are prose; their anchor is a slug prefixed "doc-" so it never
 * meets a C-domain anchor ("c.…") or a heading's.
 */
static void doc_anchor(struct qu_buf *b, const char *title)
{
	const char *p;

	qu_buf_reset(b);
	qu_buf_adds(b, "doc-");
	for (p = title; *p; p++) {
		char c = *p;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '_' || c == '-')
			qu_buf_addc(b, c);
		else if ((c == ' ' || c == '.') && b->len &&
			 b->buf[b->len - 1] != '-')
			qu_buf_addc(b, '-');
	}
	while (b->len > 4 && b->buf[b->len - 1] == '-')
		b->buf[--b->len] = 0;
}

/*
 * Put one item on a page. The first page to show an item is its home and
 * owns its symbols; later ones get a short block that links home, and a
 * warning, since two full copies would split the references.
 */
static void place(struct qu_graph *g, uint32_t **homes, uint32_t page,
		  const struct qu_part *part, uint32_t unit, uint32_t item,
		  struct qu_diags *diags)
{
	const struct qu_item *it = &g->units[unit].items[item];
	const struct qu_page *pg = &g->site->pages[page];
	struct qu_placed *pl;
	struct qu_buf b = QU_BUF_INIT;

	QU_VEC_GROW(g->placed, g->nplaced, g->placed_alloc);
	pl = &g->placed[g->nplaced++];
	memset(pl, 0, sizeof(*pl));
	pl->unit = unit;
	pl->item = item;
	pl->sym = QU_NONE;
	if (it->kind == QU_KIND_DOC) {
		/*
		 * In a Sphinx project, a DOC: block shown whole (not by
		 * :doc:) follows the label scripts/kernel-doc writes of its
		 * title (".. _abmlevel (uint):"): that label's id.
		 */
		if (g->site->cfg.sphinx && part && !part->sel.doc)
			qu_rst_name_id(&b, it->name, strlen(it->name));
		if (!b.len)
			doc_anchor(&b, it->name);
		pl->anchor = claim_n(g, b.buf, b.len);
		pl->home = true;
		qu_buf_fini(&b);
		return;
	}
	qu_buf_adds(&b, "c.");
	qu_buf_adds(&b, it->name);
	pl->anchor = claim_n(g, b.buf, b.len);
	qu_buf_fini(&b);
	if (homes[unit][item] != QU_NONE) {
		const struct qu_sym *s = &g->syms[homes[unit][item]];

		pl->sym = homes[unit][item];
		qu_diag(diags, QU_W_DUPLICATE_ITEM, pg->diag_path, part->line,
			1, "'%s' of %s is already on %s, linking there",
			it->name, g->units[unit].path,
			g->site->pages[s->page].out);
		return;
	}
	pl->home = true;
	pl->sym = home(g, page, unit, item, pl->anchor);
	homes[unit][item] = pl->sym;
	params_anchors(g, page, it, pl->anchor);
}

static bool in_list(const char *name, const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return true;
	return false;
}

/*
 * The items a {kernel-doc} directive takes, through kdoc's own selection so
 * that :export:, :internal:, :identifiers: and :doc: mean what they mean to
 * quire extract. :export: and :internal: also read the EXPORT_SYMBOL*()
 * uses of the files the option names, like the kernel's Sphinx extension.
 */
static void select_items(struct qu_graph *g, uint32_t **homes, uint32_t page,
			 const struct qu_part *part, uint32_t unit,
			 struct qu_diags *diags)
{
	const struct qu_kdoc_sel *sel = &part->sel;
	const struct qu_page *pg = &g->site->pages[page];
	struct qu_kdoc_select ks;
	struct qu_map exported;
	const struct qu_unit *u;
	bool *found = NULL;
	size_t i, k, pass;

	if (unit == QU_NONE)
		return;
	u = &g->units[unit];
	memset(&ks, 0, sizeof(ks));
	qu_map_init(&exported);
	switch (sel->mode) {
	case QU_SEL_EXPORT:
	case QU_SEL_INTERNAL:
		ks.mode = sel->mode == QU_SEL_EXPORT ? QU_SELECT_EXPORT
						     : QU_SELECT_INTERNAL;
		for (k = 0; k <= sel->nnames; k++) {
			uint32_t un =
				k < sel->nnames
					? graph_find_unit(g, sel->names[k])
					: unit;
			const struct qu_graph_exports *ex;

			if (un == QU_NONE || !g->exports)
				continue;
			ex = &g->exports[un];
			for (i = 0; i < ex->n; i++)
				qu_map_put(&exported, ex->v[i].name,
					   (void *)ex->v[i].macro);
		}
		ks.exported = &exported;
		break;
	case QU_SEL_IDENTIFIERS:
		ks.identifiers = sel->names;
		ks.nidentifiers = sel->nnames;
		ks.no_doc_sections = !sel->nnames;
		found = qu_xcalloc(sel->nnames + 1, 1);
		break;
	case QU_SEL_DOC:
		ks.doc = sel->doc;
		break;
	case QU_SEL_ALL:
		break;
	}
	ks.no_identifiers = sel->no_names;
	ks.nno_identifiers = sel->nno_names;
	for (pass = 0; pass < (sel->doc_first ? 2 : 1); pass++) {
		for (i = 0; i < u->nitems; i++) {
			const struct qu_item *it = &u->items[i];

			if (i + SYM_AHEAD < u->nitems)
				prefetch_sym(g, kind_ns(u->items[i + SYM_AHEAD].kind),
					     u->items[i + SYM_AHEAD].name, NULL);

			if (sel->doc_first &&
			    (it->kind == QU_KIND_DOC) != (pass == 0))
				continue;
			if (!qu_kdoc_selected(it, &ks))
				continue;
			if (found)
				for (k = 0; k < sel->nnames; k++)
					if (!strcmp(sel->names[k], it->name))
						found[k] = true;
			place(g, homes, page, part, unit, (uint32_t)i, diags);
		}
	}
	if (found) {
		for (k = 0; k < sel->nnames; k++)
			if (!found[k] && !in_list(sel->names[k], sel->no_names,
						  sel->nno_names))
				qu_diag(diags, QU_W_NO_SUCH_ITEM, pg->diag_path,
					part->line, 1, "%s documents no '%s'",
					sel->path, sel->names[k]);
	}
	if (sel->mode == QU_SEL_DOC && sel->doc) {
		for (i = 0; i < u->nitems; i++)
			if (u->items[i].kind == QU_KIND_DOC &&
			    !strcmp(u->items[i].name, sel->doc))
				break;
		if (i == u->nitems)
			qu_diag(diags, QU_W_NO_SUCH_ITEM, pg->diag_path,
				part->line, 1, "%s has no 'DOC: %s'", sel->path,
				sel->doc);
	}
	free(found);
	qu_map_fini(&exported);
}

/*
 * A reST label: its id is an anchor of its page, and its name, unique
 * across the site as Sphinx's std:label, finds it (the first page in
 * site order wins, as Sphinx keeps the first with a warning).
 */
struct label_home {
	uint32_t page;
	const struct qu_label *label;
};

static void label_home(struct qu_graph *g, uint32_t page,
		       const struct qu_label *l)
{
	void **slot = qu_map_slot(&g->labels, l->name, strlen(l->name));
	struct label_home *h;

	if (*slot)
		return;
	h = qu_arena_alloc(&g->arena, sizeof(*h));
	h->page = page;
	h->label = l;
	*slot = h;
}

static void add_label(struct qu_graph *g, uint32_t page,
		      const struct qu_label *l)
{
	claim(g, l->id);
	label_home(g, page, l);
}

const struct qu_label *qu_graph_label(const struct qu_graph *g,
				      const char *name, uint32_t *page_out)
{
	const struct label_home *h = qu_map_get(&g->labels, name, strlen(name));

	if (!h)
		return NULL;
	*page_out = h->page;
	return h->label;
}

/* qu_graph.place_id: the last one given (versions build side by side) */
static _Atomic uint64_t last_place_id;

/*
 * The anchors a page claims, at most, when it places whole units (a
 * zero-config page, a kernel-doc directive without options): each item's
 * and each of its parameters' or members'. The table of anchors is made
 * that large at once instead of growing through its sizes page after
 * page. Parts that select from a unit are not counted: a page with one
 * function of a 2,000-item header would make a table for all of them.
 */
static size_t page_ids_bound(const struct qu_graph *g, const struct qu_page *pg,
			     const uint32_t *units)
{
	size_t n = pg->nheadings + pg->nlabels, k, i;

	for (k = 0; k < pg->nparts; k++) {
		const struct qu_part *part = &pg->parts[k];
		const struct qu_unit *u;
		uint32_t unit = units[k];

		if (part->kind != QU_PART_KDOC || part->sel.mode != QU_SEL_ALL)
			continue;
		if (unit == QU_NONE)
			continue;
		u = &g->units[unit];
		for (i = 0; i < u->nitems; i++)
			n += 1 + u->items[i].nparams;
	}
	return n;
}

/* A graph of @site's @units about to be placed: its inputs, empty tables. */
static void graph_start(struct qu_graph *g, const struct qu_site *site,
			const struct qu_unit *units,
			const struct qu_graph_exports *exports)
{
	g->site = site;
	g->units = units;
	g->nunits = site->nsources;
	g->exports = exports;
	g->place_id = atomic_fetch_add(&last_place_id, 1) + 1;
	qu_map_init(&g->anchors);
	qu_map_init(&g->labels);
	qu_arena_init(&g->arena);
	qu_buf_init(&g->kbuf);
}

/*
 * What a placement taken as it was makes anew: the labels' homes (their
 * anchors are placed), the other sites' inventories and the references.
 */
static void graph_retake(struct qu_graph *g, const struct qu_site *site,
			 const struct qu_graph_reader *rd,
			 struct qu_diags *diags, unsigned threads)
{
	size_t i, k;

	for (i = 0; i < site->npages; i++)
		for (k = 0; k < site->pages[i].nlabels; k++)
			label_home(g, (uint32_t)i, &site->pages[i].labels[k]);
	graph_extern_load(g, diags);
	if (rd)
		graph_count_refs(g, rd, threads);
}

void qu_graph_build(struct qu_graph *g, const struct qu_site *site,
		    const struct qu_unit *units,
		    const struct qu_graph_exports *exports,
		    const struct qu_graph_reader *rd, struct qu_diags *diags,
		    unsigned threads)
{
	uint32_t **homes, *home_block, *part_unit = NULL;
	size_t p, k, i, n, ndiags, npart_unit = 0;

	graph_start(g, site, units, exports);
	ndiags = diags->n;
	homes = qu_xcalloc(g->nunits ? g->nunits : 1, sizeof(*homes));
	/*
	 * room for a symbol of every item and member, as a zero-config site
	 * places them: the table grows no more, and is no larger than that
	 */
	for (i = 0, k = 0, n = 0; i < g->nunits; i++)
		for (p = 0; p < units[i].nitems; p++) {
			const struct qu_item *it = &units[i].items[p];

			k += 1;
			n += 1;
			if (it->kind == QU_KIND_STRUCT ||
			    it->kind == QU_KIND_UNION ||
			    it->kind == QU_KIND_ENUM)
				k += it->nparams;
		}
	stab_grow(g, k);
	/* and the symbols themselves: a kernel tree's 180,000 would grow
	 * the array, copying it, seventeen times */
	g->sym_alloc = k ? k : 1;
	g->syms = qu_xmalloc(g->sym_alloc * sizeof(*g->syms));
	g->placed_alloc = n ? n : 1;
	g->placed = qu_xmalloc(g->placed_alloc * sizeof(*g->placed));
	g->page_ids = qu_xcalloc(site->npages + 1, sizeof(*g->page_ids));
	g->npage_ids = qu_xcalloc(site->npages + 1, sizeof(*g->npage_ids));
	/* each unit's slice of one block: a kernel tree has 55,000 units */
	home_block = qu_xmalloc((n + g->nunits + 1) * sizeof(uint32_t));
	memset(home_block, 0xff, (n + g->nunits + 1) * sizeof(uint32_t));
	for (i = 0, k = 0; i < g->nunits; i++) {
		homes[i] = home_block + k;
		k += units[i].nitems + 1;
	}
	g->part_start = qu_xcalloc(site->npages ? site->npages : 1,
				   sizeof(*g->part_start));
	for (p = 0; p < site->npages; p++) {
		const struct qu_page *pg = &site->pages[p];

		/* each kernel-doc part's unit, looked up once */
		if (pg->nparts > npart_unit) {
			npart_unit = pg->nparts;
			part_unit = qu_xrealloc(part_unit,
						npart_unit * sizeof(*part_unit));
		}
		for (k = 0; k < pg->nparts; k++)
			part_unit[k] = pg->parts[k].kind == QU_PART_KDOC
					       ? graph_find_unit(
							 g, pg->parts[k].sel.path)
					       : QU_NONE;
		qu_map_reserve(&g->anchors, page_ids_bound(g, pg, part_unit));
		for (k = 0; k < pg->nheadings; k++)
			claim(g, pg->headings[k].id);
		for (k = 0; k < pg->nlabels; k++)
			add_label(g, (uint32_t)p, &pg->labels[k]);
		g->part_start[p] = qu_arena_alloc(
			&g->arena, (pg->nparts + 1) * sizeof(uint32_t));
		for (k = 0; k < pg->nparts; k++) {
			g->part_start[p][k] = (uint32_t)g->nplaced;
			if (pg->parts[k].kind == QU_PART_KDOC &&
			    part_unit[k] != QU_NONE)
				select_items(g, homes, (uint32_t)p,
					     &pg->parts[k], part_unit[k],
					     diags);
		}
		g->part_start[p][pg->nparts] = (uint32_t)g->nplaced;
		page_done(g, p);
	}
	free(part_unit);
	free(home_block);
	free(homes);
	g->nplace_diags = diags->n - ndiags;
	/*
	 * each page's anchors sorted for qu_graph_has_anchor(), on the
	 * workers: pages are sorted apart, and a kernel tree's 230,000
	 * anchors took a sixth of placing
	 */
	qu_pool_run(threads, site->npages, sort_page_ids, g);
	graph_extern_load(g, diags);
	if (rd)
		graph_count_refs(g, rd, threads);
}

void qu_graph_fini(struct qu_graph *g)
{
	free(g->syms);
	if (g->placed_refs)
		for (size_t j = 0; j < g->nplaced; j++)
			if (!g->placed_refs[j].borrowed)
				free(g->placed_refs[j].v);
	free(g->placed_refs);
	free(g->placed);
	free(g->part_start);
	free(g->refs);
	free(g->ext);
	if (!g->stab_borrowed)
		qu_big_free(g->stab, g->stab_cap * sizeof(*g->stab));
	qu_map_fini(&g->anchors);
	qu_map_fini(&g->labels);
	qu_arena_fini(&g->arena);
	qu_buf_fini(&g->kbuf);
	free(g->page_ids);
	free(g->npage_ids);
	/* last: the strings and references above may point into it */
	qu_file_unmap(g->map, g->map_size);
	free(g->ids);
	free(g->ref_idx);
	memset(g, 0, sizeof(*g));
}

/* Reusing the last placement ------------------------------------------ */

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool same_strs(const char *const *a, size_t na, const char *const *b,
		      size_t nb)
{
	size_t i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
		if (!same_str(a[i], b[i]))
			return false;
	return true;
}

/* Whether two pages place items alike: what claim() and select_items() read. */
static bool same_page(const struct qu_page *a, const struct qu_page *b)
{
	size_t k;

	if (strcmp(a->out, b->out) || a->nheadings != b->nheadings ||
	    a->nlabels != b->nlabels || a->nparts != b->nparts)
		return false;
	for (k = 0; k < a->nheadings; k++)
		if (strcmp(a->headings[k].id, b->headings[k].id))
			return false;
	for (k = 0; k < a->nlabels; k++)
		if (strcmp(a->labels[k].name, b->labels[k].name) ||
		    strcmp(a->labels[k].id, b->labels[k].id))
			return false;
	for (k = 0; k < a->nparts; k++) {
		const struct qu_kdoc_sel *x = &a->parts[k].sel,
					 *y = &b->parts[k].sel;

		if (a->parts[k].kind != b->parts[k].kind)
			return false;
		if (a->parts[k].kind != QU_PART_KDOC)
			continue;
		if (!same_str(x->path, y->path) || x->mode != y->mode ||
		    !same_strs(x->names, x->nnames, y->names, y->nnames) ||
		    !same_strs(x->no_names, x->nno_names, y->no_names,
			       y->nno_names) ||
		    !same_str(x->doc, y->doc) || x->doc_first != y->doc_first)
			return false;
	}
	return true;
}

/* Whether two units have the same items, as placing reads them. */
static bool same_unit(const struct qu_unit *a, const struct qu_unit *b,
		      const struct qu_graph_exports *ea,
		      const struct qu_graph_exports *eb)
{
	size_t i, k;

	if (a->nitems != b->nitems || (ea == NULL) != (eb == NULL))
		return false;
	for (i = 0; i < a->nitems; i++) {
		const struct qu_item *x = &a->items[i], *y = &b->items[i];

		if (x->kind != y->kind || strcmp(x->name, y->name) ||
		    x->nparams != y->nparams)
			return false;
		for (k = 0; k < x->nparams; k++)
			if (strcmp(x->params[k].name, y->params[k].name))
				return false;
	}
	if (!ea)
		return true;
	if (ea->n != eb->n)
		return false;
	for (i = 0; i < ea->n; i++)
		if (strcmp(ea->v[i].name, eb->v[i].name) ||
		    !same_str(ea->v[i].macro, eb->v[i].macro))
			return false;
	return true;
}

bool qu_graph_reuse(struct qu_graph *g, struct qu_graph *prev,
		    const struct qu_site *site, const struct qu_unit *units,
		    const struct qu_graph_exports *exports, const bool *taken,
		    const struct qu_graph_reader *rd, struct qu_diags *diags,
		    unsigned threads)
{
	const struct qu_site *ps = prev->site;
	size_t i;

	if (!ps || prev->nplace_diags || !prev->page_ids ||
	    site->npages != ps->npages || site->nsources != ps->nsources ||
	    site->nsources != prev->nunits || (!exports) != (!prev->exports))
		return false;
	for (i = 0; i < site->nsources; i++)
		if (strcmp(site->sources[i], ps->sources[i]) ||
		    (!taken[i] &&
		     !same_unit(&units[i], &prev->units[i],
				exports ? &exports[i] : NULL,
				exports ? &prev->exports[i] : NULL)))
			return false;
	for (i = 0; i < site->npages; i++)
		if (!same_page(&site->pages[i], &ps->pages[i]))
			return false;
	memset(g, 0, sizeof(*g));
	g->site = site;
	g->units = units;
	g->nunits = site->nsources;
	g->exports = exports;
	/* the placement moves; @prev keeps what is made anew */
	g->syms = prev->syms;
	g->nsyms = prev->nsyms;
	g->sym_alloc = prev->sym_alloc;
	g->placed = prev->placed;
	g->nplaced = prev->nplaced;
	g->placed_alloc = prev->placed_alloc;
	g->part_start = prev->part_start;
	g->stab = prev->stab;
	g->stab_cap = prev->stab_cap;
	g->nstab = prev->nstab;
	g->stab_borrowed = prev->stab_borrowed;
	prev->stab_borrowed = false;
	g->arena = prev->arena;
	g->page_ids = prev->page_ids;
	g->npage_ids = prev->npage_ids;
	g->place_id = prev->place_id;
	g->placed_refs = prev->placed_refs;
	prev->placed_refs = NULL;
	/* what they point into */
	g->map = prev->map;
	g->map_size = prev->map_size;
	prev->map = NULL;
	prev->map_size = 0;
	prev->syms = NULL;
	prev->nsyms = prev->sym_alloc = 0;
	prev->placed = NULL;
	prev->nplaced = prev->placed_alloc = 0;
	prev->part_start = NULL;
	prev->page_ids = NULL;
	prev->npage_ids = NULL;
	prev->stab = NULL;
	prev->stab_cap = prev->nstab = 0;
	qu_arena_init(&prev->arena);
	qu_map_init(&g->anchors);
	qu_map_init(&g->labels);
	qu_buf_init(&g->kbuf);
	/* the names of the units read anew live in their items */
	for (i = 0; i < g->nsyms; i++) {
		struct qu_sym *s = &g->syms[i];
		const struct qu_item *it;

		s->refs = NULL;
		s->nrefs = 0;
		if (taken[s->unit])
			continue;
		it = &units[s->unit].items[s->item];
		if (s->param == QU_NONE)
			s->name = it->name;
		else if (s->ns != QU_NS_MEMBER)
			s->name = it->params[s->param].name;
	}
	graph_retake(g, site, rd, diags, threads);
	return true;
}

/* A placement kept in the cache ---------------------------------------- */

/* A number, then a string with its NUL (NULL as "\xff"), into @b. */
static void key_u32(struct qu_buf *b, uint32_t v)
{
	qu_buf_add(b, &v, sizeof(v));
}

static void key_str(struct qu_buf *b, const char *s)
{
	if (s)
		qu_buf_add(b, s, strlen(s) + 1);
	else
		qu_buf_add(b, "\xff", 2);
}

uint64_t qu_graph_unit_shape(const struct qu_unit *u,
			     const struct qu_graph_exports *e,
			     const char *path, struct qu_buf *scratch)
{
	struct qu_buf *b = scratch;
	size_t k, m;

	qu_buf_reset(b);
	key_str(b, path);
	key_u32(b, (uint32_t)u->nitems);
	for (k = 0; k < u->nitems; k++) {
		const struct qu_item *it = &u->items[k];

		key_u32(b, (uint32_t)it->kind);
		key_u32(b, (uint32_t)it->nparams);
		key_str(b, it->name);
		for (m = 0; m < it->nparams; m++)
			key_str(b, it->params[m].name);
	}
	if (e) {
		key_u32(b, (uint32_t)e->n);
		for (k = 0; k < e->n; k++) {
			key_str(b, e->v[k].name);
			key_str(b, e->v[k].macro);
		}
	}
	return qu_hash(b->buf, b->len);
}

uint64_t qu_graph_place_key(const struct qu_site *site,
			    const uint64_t *shapes, bool exports)
{
	struct qu_buf b = QU_BUF_INIT;
	size_t i, k, m;
	uint64_t r;

	key_str(&b, "quire placement");
	key_u32(&b, site->cfg.sphinx);
	key_u32(&b, exports);
	key_u32(&b, (uint32_t)site->nsources);
	key_u32(&b, (uint32_t)site->npages);
	qu_buf_add(&b, shapes, site->nsources * sizeof(*shapes));
	/* same_page()'s fields */
	for (i = 0; i < site->npages; i++) {
		const struct qu_page *pg = &site->pages[i];

		key_u32(&b, (uint32_t)pg->nheadings);
		key_u32(&b, (uint32_t)pg->nlabels);
		key_u32(&b, (uint32_t)pg->nparts);
		key_str(&b, pg->out);
		for (k = 0; k < pg->nheadings; k++)
			key_str(&b, pg->headings[k].id);
		for (k = 0; k < pg->nlabels; k++) {
			key_str(&b, pg->labels[k].name);
			key_str(&b, pg->labels[k].id);
		}
		for (k = 0; k < pg->nparts; k++) {
			const struct qu_kdoc_sel *s = &pg->parts[k].sel;

			key_u32(&b, (uint32_t)pg->parts[k].kind);
			if (pg->parts[k].kind != QU_PART_KDOC)
				continue;
			key_u32(&b, (uint32_t)s->mode);
			key_u32(&b, s->doc_first);
			key_u32(&b, (uint32_t)s->nnames);
			key_u32(&b, (uint32_t)s->nno_names);
			key_str(&b, s->path);
			key_str(&b, s->doc);
			for (m = 0; m < s->nnames; m++)
				key_str(&b, s->names[m]);
			for (m = 0; m < s->nno_names; m++)
				key_str(&b, s->no_names[m]);
		}
	}
	r = qu_hash(b.buf, b.len);
	qu_buf_fini(&b);
	return r;
}

/*
 * The saved form: a header, then the symbols, the placed items, each
 * page's part starts, each page's anchor count and anchors (sorted), the
 * symbol table's slots, what each placed item's comment refers to (its
 * unit's hash and the symbols, as resolved for this placement), and the
 * strings the others point at by offset:
 * the anchors, and the members' "tag.member" names. The other names are
 * the items' own, found again by unit, item and member.
 */
#define PLACE_MAGIC "quplace2"
#define NAME_OF_ITEM UINT32_MAX

struct place_hdr {
	char magic[8];
	uint32_t nsyms, nplaced, npages, nids, stab_cap, nstab;
	uint64_t nstr;
	uint64_t refs_key;	/* the reader's settings the references are of */
	uint32_t nrefs;		/* the placed items' references, in all */
	uint32_t pad;
};

/*
 * what one placed item's comment refers to (struct qu_placed_refs): its
 * unit's hash in words of four bytes, as every array of the saved form
 * is, so that it needs no more than 4-byte alignment where it falls
 */
struct place_refs {
	uint32_t unit[4];
	uint32_t n, ok;
};

struct place_sym {
	uint32_t ns, kind, unit, item, param, page, next, first;
	uint32_t anchor, name;
};

struct place_item {
	uint32_t unit, item, sym, anchor, home;
};

/* The offset of the string @s (by address), adding it when new. */
static uint32_t str_off(struct qu_map *offs, struct qu_buf *str,
			const char *s)
{
	void **slot = qu_map_slot(offs, (const char *)&s, sizeof(s));

	if (!*slot) {
		*slot = (void *)(uintptr_t)(str->len + 1);
		qu_buf_adds(str, s);
		qu_buf_addc(str, 0);
	}
	return (uint32_t)((uintptr_t)*slot - 1);
}

int qu_graph_place_save(const struct qu_graph *g, uint64_t refs_key,
			struct qu_buf *out)
{
	const struct qu_site *site = g->site;
	struct place_hdr h;
	struct qu_buf str = QU_BUF_INIT;
	struct qu_map offs;
	uint32_t *ids;
	size_t i, k, head, nids = 0;

	if (!site || g->nplace_diags || !g->page_ids || g->nsyms >= UINT32_MAX ||
	    g->nplaced >= UINT32_MAX)
		return -1;
	for (i = 0; i < site->npages; i++)
		nids += g->npage_ids[i];
	qu_map_init(&offs);
	qu_map_reserve(&offs, nids + g->nsyms / 4);
	ids = qu_xcalloc(nids + 1, sizeof(*ids));
	for (i = 0, nids = 0; i < site->npages; i++)
		for (k = 0; k < g->npage_ids[i]; k++)
			ids[nids++] = str_off(&offs, &str, g->page_ids[i][k]);
	head = out->len;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, PLACE_MAGIC, 8);
	h.nsyms = (uint32_t)g->nsyms;
	h.nplaced = (uint32_t)g->nplaced;
	h.npages = (uint32_t)site->npages;
	h.nids = (uint32_t)nids;
	h.stab_cap = (uint32_t)g->stab_cap;
	h.nstab = (uint32_t)g->nstab;
	qu_buf_add(out, &h, sizeof(h));
	for (i = 0; i < g->nsyms; i++) {
		const struct qu_sym *s = &g->syms[i];
		struct place_sym ps = {
			s->ns,	  s->kind,  s->unit, s->item, s->param,
			s->page,  s->next,  s->first,
			str_off(&offs, &str, s->anchor),
			s->ns == QU_NS_MEMBER ? str_off(&offs, &str, s->name)
					      : NAME_OF_ITEM};

		qu_buf_add(out, &ps, sizeof(ps));
	}
	for (i = 0; i < g->nplaced; i++) {
		const struct qu_placed *pl = &g->placed[i];
		struct place_item pi = {pl->unit, pl->item, pl->sym,
					str_off(&offs, &str, pl->anchor),
					pl->home};

		qu_buf_add(out, &pi, sizeof(pi));
	}
	for (i = 0; i < site->npages; i++)
		qu_buf_add(out, g->part_start[i],
			   (site->pages[i].nparts + 1) * sizeof(uint32_t));
	for (i = 0; i < site->npages; i++) {
		uint32_t n = (uint32_t)g->npage_ids[i];

		qu_buf_add(out, &n, sizeof(n));
	}
	qu_buf_add(out, ids, nids * sizeof(*ids));
	qu_buf_add(out, g->stab, g->stab_cap * sizeof(*g->stab));
	h.refs_key = refs_key;
	for (i = 0; g->placed_refs && i < g->nplaced; i++) {
		const struct qu_placed_refs *pc = &g->placed_refs[i];
		struct place_refs pr = {.n = pc->ok ? pc->n : 0, .ok = pc->ok};

		memcpy(pr.unit, &pc->unit, sizeof(pr.unit));
		qu_buf_add(out, &pr, sizeof(pr));
		h.nrefs += pr.n;
	}
	for (i = 0; g->placed_refs && i < g->nplaced; i++)
		if (g->placed_refs[i].ok)
			qu_buf_add(out, g->placed_refs[i].v,
				   g->placed_refs[i].n * sizeof(uint32_t));
	if (!g->placed_refs)
		h.refs_key = 0;
	/* the strings' size, known only now, goes in the header */
	h.nstr = str.len;
	memcpy(out->buf + head, &h, sizeof(h));
	qu_buf_add(out, str.buf, str.len);
	free(ids);
	qu_map_fini(&offs);
	qu_buf_fini(&str);
	return 0;
}

/* A reader of the saved form that never reads past its end. */
struct place_rd {
	const unsigned char *p;
	size_t left;
};

static const void *take(struct place_rd *r, size_t n, size_t size)
{
	const void *p = r->p;

	if (size && n > r->left / size)
		return NULL;
	r->p += n * size;
	r->left -= n * size;
	return p;
}

/* Whether symbol @ps names an item and member that @units have. */
/*
 * A chain of one name runs forward (symbols are appended to it), so one
 * that does not cannot loop.
 */
static bool sym_fits(const struct place_sym *ps, uint32_t i,
		     const struct qu_site *site, const struct qu_unit *units,
		     uint32_t nsyms, size_t nstr)
{
	const struct qu_item *it;

	if (ps->unit >= site->nsources || ps->item >= units[ps->unit].nitems ||
	    ps->anchor >= nstr ||
	    (ps->page != QU_NONE && ps->page >= site->npages) ||
	    (ps->next != QU_NONE && (ps->next >= nsyms || ps->next <= i)) ||
	    ps->first > i || ps->ns > QU_NS_MEMBER ||
	    ps->kind >= QU_KIND__COUNT)
		return false;
	it = &units[ps->unit].items[ps->item];
	if (ps->param != QU_NONE && ps->param >= it->nparams)
		return false;
	if (ps->ns == QU_NS_MEMBER)
		return ps->param != QU_NONE && ps->name < nstr;
	return ps->name == NAME_OF_ITEM;
}

bool qu_graph_place_load(struct qu_graph *g, const struct qu_site *site,
			 const struct qu_unit *units,
			 const struct qu_graph_exports *exports,
			 const void *data, size_t len, const void *map,
			 size_t map_size, uint64_t refs_key,
			 const struct qu_graph_reader *rd,
			 struct qu_diags *diags, unsigned threads)
{
	struct place_rd r = {data, len};
	const struct place_hdr *h = take(&r, 1, sizeof(*h));
	const struct place_sym *ps;
	const struct place_item *pi;
	const uint32_t *counts, *ids, *refv = NULL;
	const struct place_refs *prs = NULL;
	const void *stab;
	const char *strs;
	const char *str;
	size_t i, k, n;

	if (!h || memcmp(h->magic, PLACE_MAGIC, 8) ||
	    h->npages != site->npages || h->nsyms >= UINT32_MAX ||
	    (h->stab_cap & (h->stab_cap - 1)) || h->nstab > h->nsyms ||
	    2 * (size_t)h->nstab > h->stab_cap || h->nstr > UINT32_MAX ||
	    !(ps = take(&r, h->nsyms, sizeof(*ps))) ||
	    !(pi = take(&r, h->nplaced, sizeof(*pi))))
		return false;
	/* each page's part starts, as many as the page has parts, plus one */
	const uint32_t *starts = (const uint32_t *)(const void *)r.p;

	for (i = 0, n = 0; i < site->npages; i++)
		n += site->pages[i].nparts + 1;
	if (!take(&r, n, sizeof(uint32_t)) ||
	    !(counts = take(&r, site->npages, sizeof(uint32_t))))
		return false;
	for (i = 0, n = 0; i < site->npages; i++)
		n += counts[i];
	if (n != h->nids || !(ids = take(&r, n, sizeof(uint32_t))) ||
	    !(stab = take(&r, h->stab_cap, sizeof(*g->stab))))
		return false;
	if (h->refs_key &&
	    (!(prs = take(&r, h->nplaced, sizeof(*prs))) ||
	     !(refv = take(&r, h->nrefs, sizeof(uint32_t)))))
		return false;
	if (r.left != h->nstr || (h->nstr && r.p[h->nstr - 1]))
		return false;
	strs = (const char *)r.p;
	for (i = 0; i < h->nsyms; i++)
		if (!sym_fits(&ps[i], (uint32_t)i, site, units, h->nsyms,
			      h->nstr))
			return false;
	for (i = 0; i < h->nplaced; i++)
		if (pi[i].unit >= site->nsources ||
		    pi[i].item >= units[pi[i].unit].nitems ||
		    (pi[i].sym != QU_NONE && pi[i].sym >= h->nsyms) ||
		    pi[i].anchor >= h->nstr || pi[i].home > 1)
			return false;
	for (i = 0, n = 0; i < site->npages; i++)
		for (k = 0; k <= site->pages[i].nparts; k++, n++)
			if (starts[n] > h->nplaced ||
			    (k && starts[n] < starts[n - 1]))
				return false;
	for (i = 0; i < h->nids; i++)
		if (ids[i] >= h->nstr)
			return false;
	/* as many slots taken as it says, so that a probe meets an empty one */
	for (i = 0, n = 0; i < h->stab_cap; i++) {
		const struct qu_graph_stab_slot *sl =
			(const struct qu_graph_stab_slot *)stab + i;

		if (sl->sym > h->nsyms)
			return false;
		n += sl->sym != 0;
	}
	if (n != h->nstab)
		return false;
	for (i = 0, n = 0; prs && i < h->nplaced; i++) {
		if (prs[i].ok > 1 || (!prs[i].ok && prs[i].n) ||
		    prs[i].n > h->nrefs - n)
			return false;
		n += prs[i].n;
	}
	if (prs && n != h->nrefs)
		return false;
	for (i = 0; i < (prs ? h->nrefs : 0); i++)
		if (refv[i] >= h->nsyms)
			return false;

	memset(g, 0, sizeof(*g));
	graph_start(g, site, units, exports);
	/* the strings where they lie when the graph keeps the mapping */
	if (map) {
		g->map = map;
		g->map_size = map_size;
		str = strs;
	} else {
		char *copy = qu_arena_alloc(&g->arena, h->nstr + 1);

		memcpy(copy, strs, h->nstr);
		str = copy;
	}
	g->sym_alloc = h->nsyms ? h->nsyms : 1;
	g->syms = qu_xcalloc(g->sym_alloc, sizeof(*g->syms));
	g->nsyms = h->nsyms;
	for (i = 0; i < h->nsyms; i++) {
		struct qu_sym *s = &g->syms[i];
		const struct qu_item *it = &units[ps[i].unit].items[ps[i].item];

		s->ns = (enum qu_ns)ps[i].ns;
		s->kind = (enum qu_kind)ps[i].kind;
		s->unit = ps[i].unit;
		s->item = ps[i].item;
		s->param = ps[i].param;
		s->page = ps[i].page;
		s->next = ps[i].next;
		s->first = ps[i].first;
		s->anchor = str + ps[i].anchor;
		if (s->ns == QU_NS_MEMBER)
			s->name = str + ps[i].name;
		else if (s->param == QU_NONE)
			s->name = it->name;
		else
			s->name = it->params[s->param].name;
	}
	g->placed_alloc = h->nplaced ? h->nplaced : 1;
	g->placed = qu_xcalloc(g->placed_alloc, sizeof(*g->placed));
	g->nplaced = h->nplaced;
	for (i = 0; i < h->nplaced; i++) {
		g->placed[i].unit = pi[i].unit;
		g->placed[i].item = pi[i].item;
		g->placed[i].sym = pi[i].sym;
		g->placed[i].anchor = str + pi[i].anchor;
		g->placed[i].home = pi[i].home;
	}
	g->part_start = qu_xcalloc(site->npages ? site->npages : 1,
				   sizeof(*g->part_start));
	g->page_ids = qu_xcalloc(site->npages + 1, sizeof(*g->page_ids));
	g->npage_ids = qu_xcalloc(site->npages + 1, sizeof(*g->npage_ids));
	for (i = 0, n = 0, k = 0; i < site->npages; i++) {
		size_t np = site->pages[i].nparts + 1, j;
		const char **v = qu_arena_alloc(&g->arena,
						(counts[i] + 1) * sizeof(*v));

		g->part_start[i] = qu_arena_alloc(&g->arena,
						  np * sizeof(uint32_t));
		memcpy(g->part_start[i], starts + n, np * sizeof(uint32_t));
		n += np;
		for (j = 0; j < counts[i]; j++)
			v[j] = str + ids[k++];
		g->page_ids[i] = v;
		g->npage_ids[i] = counts[i];
	}
	g->stab_cap = h->stab_cap;
	g->nstab = h->nstab;
	if (map && g->stab_cap) {
		/* read only: a loaded placement adds no symbol */
		g->stab = (struct qu_graph_stab_slot *)stab;
		g->stab_borrowed = true;
	} else if (g->stab_cap) {
		g->stab = qu_big_alloc(g->stab_cap * sizeof(*g->stab));
		memcpy(g->stab, stab, g->stab_cap * sizeof(*g->stab));
	}
	/*
	 * what the comments referred to, for the reader they were read with:
	 * graph_count_refs() takes them for a comment whose unit is the same
	 */
	if (prs && h->refs_key == refs_key) {
		g->placed_refs = qu_xcalloc(h->nplaced + 1,
					    sizeof(*g->placed_refs));
		for (i = 0, k = 0; i < h->nplaced; i++) {
			struct qu_placed_refs *pc = &g->placed_refs[i];

			if (!prs[i].ok)
				continue;
			pc->ok = true;
			memcpy(&pc->unit, prs[i].unit, sizeof(pc->unit));
			pc->n = prs[i].n;
			if (map) {
				/* read only: refs.c replaces, never writes, it */
				pc->v = (uint32_t *)(refv + k);
				pc->borrowed = true;
			} else {
				pc->v = qu_xmalloc((pc->n ? pc->n : 1) *
						   sizeof(*pc->v));
				memcpy(pc->v, refv + k, pc->n * sizeof(*pc->v));
			}
			k += pc->n;
		}
	}
	graph_retake(g, site, rd, diags, threads);
	return true;
}
