// SPDX-License-Identifier: MIT
/*
 * zero.c - the pages of a source tree without quire.yml (site stage)
 *
 * A home page, one page per folder holding documented files (its
 * index.html) and one page per documented file ("dir/file.c.html"),
 * hung into a navigation tree that mirrors the folders.
 */
#include <stdlib.h>
#include <string.h>

#include "site_int.h"

struct zdir {
	uint32_t page;
	uint32_t nfiles;
	uint32_t nitems;
};

/*
 * The page of a folder, made on first use together with the folders above
 * it; @dirs maps a folder's path to its index in @zd plus one.
 */
static uint32_t dir_page(struct qu_site *s, struct qu_map *dirs,
			 struct zdir **zd, size_t *nzd, size_t *zalloc,
			 size_t *palloc, const char *path, size_t len)
{
	void **slot;
	const char *sl;
	uint32_t parent, pi;
	struct qu_page *pg;
	char *key;

	if (!len)
		return 0;
	slot = qu_map_slot(dirs, path, len);
	if (*slot)
		return (*zd)[(uintptr_t)*slot - 1].page;
	key = site_strndup(s, path, len);
	sl = memrchr(path, '/', len);
	parent = dir_page(s, dirs, zd, nzd, zalloc, palloc, path,
			  sl ? (size_t)(sl - path) : 0);
	pi = site_add_page(s, palloc);
	pg = &s->pages[pi];
	pg->out = site_printf(s, "%s/index.html", key);
	pg->title = site_printf(s, "%s/", key);
	pg->diag_path = pg->title;
	pg->h1 = true;
	pg->parent = parent;
	for (const char *p = pg->out; *p; p++)
		pg->depth += *p == '/';
	QU_VEC_GROW(*zd, *nzd, *zalloc);
	(*zd)[*nzd].page = pi;
	(*zd)[*nzd].nfiles = 0;
	(*zd)[*nzd].nitems = 0;
	(*nzd)++;
	/* the key may have moved the map: look the slot up again */
	*qu_map_slot(dirs, key, len) = (void *)(uintptr_t)*nzd;
	return pi;
}

/* A folder page lists its folders before its files, each by name. */
static int cmp_child(const void *a, const void *b, void *payload)
{
	const struct qu_site *s = payload;
	const struct qu_page *x = &s->pages[*(const uint32_t *)a];
	const struct qu_page *y = &s->pages[*(const uint32_t *)b];

	/* folders first, then files, each by name */
	if (x->parts[0].kind != y->parts[0].kind)
		return x->parts[0].kind == QU_PART_FILES ? -1 : 1;
	return strcmp(x->out, y->out);
}

static struct qu_part *add_part(struct qu_page *pg, enum qu_part_kind kind)
{
	struct qu_part *p;

	pg->parts = qu_xrealloc(pg->parts, (pg->nparts + 1) * sizeof(*p));
	p = &pg->parts[pg->nparts++];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->line = 1;
	return p;
}

void qu_site_zero_pages(struct qu_site *s, const struct qu_site_file *files,
			size_t n, const char *readme, size_t readme_len)
{
	struct qu_map dirs;
	struct zdir *zd = NULL;
	size_t nzd = 0, zalloc = 0, palloc = 0, i, k;
	uint32_t *dir_of_page, *fcount, *fpage;
	const char **fbrief;
	struct qu_page *home;
	const char *base;

	qu_map_init(&dirs);
	palloc = s->npages;
	site_add_page(s, &palloc);
	home = &s->pages[0];
	home->out = "index.html";
	base = strrchr(s->root, '/');
	base = base && base[1] ? base + 1 : s->root;
	/* "quire build ." is named after the folder, not "." */
	if ((!strcmp(base, ".") || !strcmp(base, "..")) && s->root_real &&
	    strcmp(s->root_real, "/")) {
		base = strrchr(s->root_real, '/');
		base = base && base[1] ? base + 1 : s->root_real;
	}
	home->title = s->cfg.title ? s->cfg.title : site_strdup(s, base);
	home->diag_path = s->root;
	home->h1 = !readme;
	if (readme) {
		struct qu_part *p = add_part(home, QU_PART_MARKDOWN);

		p->text = site_strndup(s, readme, readme_len);
		p->len = readme_len;
		home->diag_path = site_printf(s, "%s/README.md", s->root);
		site_page_headings(s, home);
	}
	add_part(home, QU_PART_FILES);
	fpage = qu_xcalloc(n ? n : 1, sizeof(uint32_t));

	for (i = 0; i < n; i++) {
		const char *path = files[i].path;
		const char *sl = strrchr(path, '/');
		uint32_t dp, pi;
		struct qu_page *pg;
		struct qu_part *part;

		dp = dir_page(s, &dirs, &zd, &nzd, &zalloc, &palloc, path,
			      sl ? (size_t)(sl - path) : 0);
		pi = site_add_page(s, &palloc);
		fpage[i] = pi;
		pg = &s->pages[pi];
		pg->out = site_printf(s, "%s.html", path);
		pg->title = site_strdup(s, path);
		pg->diag_path = pg->title;
		pg->h1 = true;
		pg->parent = dp;
		for (const char *p = pg->out; *p; p++)
			pg->depth += *p == '/';
		part = add_part(pg, QU_PART_KDOC);
		part->sel.path = pg->title;
		part->sel.doc_first = true;
		/* count the file in every folder above it */
		for (size_t l = sl ? (size_t)(sl - path) : 0; l;) {
			struct zdir *z =
				&zd[(uintptr_t)qu_map_get(&dirs, path, l) - 1];
			const char *up;

			z->nfiles++;
			z->nitems += files[i].nitems + files[i].ndocs;
			up = memrchr(path, '/', l);
			l = up ? (size_t)(up - path) : 0;
		}
	}
	/* folder pages get their listing part */
	for (i = 0; i < nzd; i++)
		add_part(&s->pages[zd[i].page], QU_PART_FILES);

	/* children, then the listings from them */
	dir_of_page = qu_xcalloc(s->npages, sizeof(uint32_t));
	fcount = qu_xcalloc(s->npages, sizeof(uint32_t));
	fbrief = qu_xcalloc(s->npages, sizeof(*fbrief));
	for (i = 0; i < n; i++) {
		fcount[fpage[i]] = files[i].nitems + files[i].ndocs;
		fbrief[fpage[i]] = files[i].brief;
	}
	for (i = 0; i < nzd; i++)
		dir_of_page[zd[i].page] = (uint32_t)i + 1;
	for (i = 1; i < s->npages; i++) {
		struct qu_page *par = &s->pages[s->pages[i].parent];

		par->children = qu_xrealloc(
			par->children, (par->nchildren + 1) * sizeof(uint32_t));
		par->children[par->nchildren++] = (uint32_t)i;
	}
	for (i = 0; i < s->npages; i++) {
		struct qu_page *pg = &s->pages[i];
		struct qu_part *fp = &pg->parts[pg->nparts - 1];

		if (pg->nchildren > 1)
			qsort_r(pg->children, pg->nchildren, sizeof(uint32_t),
				cmp_child, s);
		if (fp->kind != QU_PART_FILES)
			continue;
		fp->files = qu_xcalloc(pg->nchildren ? pg->nchildren : 1,
				       sizeof(*fp->files));
		for (k = 0; k < pg->nchildren; k++) {
			uint32_t c = pg->children[k];
			struct qu_file_entry *e = &fp->files[fp->nfiles++];
			const char *t = s->pages[c].title;
			size_t tl = strlen(t);
			const char *b;

			/* the last component of the title, with its "/" */
			b = tl > 1 ? memrchr(t, '/', tl - 1) : NULL;
			e->name = b ? b + 1 : t;
			e->page = c;
			if (dir_of_page[c]) {
				e->nfiles = zd[dir_of_page[c] - 1].nfiles;
				e->nitems = zd[dir_of_page[c] - 1].nitems;
			} else {
				e->nfiles = 1;
				e->nitems = fcount[c];
				e->brief = fbrief[c];
			}
		}
	}
	free(fcount);
	free(fbrief);
	free(dir_of_page);
	free(fpage);
	free(zd);
	qu_map_fini(&dirs);
}
