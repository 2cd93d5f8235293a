// SPDX-License-Identifier: MIT
/*
 * tree.c - the navigation tree and paths between pages (site stage)
 *
 * Toctree entries make the tree; every page no toctree names hangs under
 * the index page of its folder (or the nearest folder above that has
 * one), else under the home page, ordered by front matter order, then
 * path.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "site_int.h"

/*
 * Resolve "." and ".." of @rel (of @len bytes) against the folder @dir
 * ("" or "a/b/") into @out.
 */
void site_normalise(struct qu_buf *out, const char *dir, const char *rel,
		    size_t len)
{
	struct qu_buf tmp = QU_BUF_INIT;
	size_t i = 0;

	qu_buf_reset(out);
	if (len && rel[0] == '/') {
		rel++;
		len--;
	} else {
		qu_buf_adds(&tmp, dir);
	}
	qu_buf_add(&tmp, rel, len);
	while (i < tmp.len) {
		size_t j = i;

		while (j < tmp.len && tmp.buf[j] != '/')
			j++;
		if (j - i == 2 && !strncmp(tmp.buf + i, "..", 2)) {
			char *sl;

			if (out->len)
				out->len--;
			sl = memrchr(out->buf, '/', out->len);
			out->len = sl ? (size_t)(sl - out->buf) + 1 : 0;
			out->buf[out->len] = 0;
		} else if (!(j - i == 1 && tmp.buf[i] == '.') && j > i) {
			qu_buf_add(out, tmp.buf + i, j - i);
			if (j < tmp.len)
				qu_buf_addc(out, '/');
		}
		i = j + 1;
	}
	qu_buf_fini(&tmp);
}

uint32_t qu_site_find_page(const struct qu_site *s, const char *src)
{
	size_t i;

	for (i = 0; i < s->npages; i++)
		if (s->pages[i].src && !strcmp(s->pages[i].src, src))
			return (uint32_t)i;
	return QU_NONE;
}

void qu_site_relpath(struct qu_buf *out, const char *from, const char *to)
{
	size_t common = 0, i;

	/* the longest common folder prefix */
	for (i = 0; from[i] && from[i] == to[i]; i++)
		if (from[i] == '/')
			common = i + 1;
	for (i = common; from[i]; i++)
		if (from[i] == '/')
			qu_buf_adds(out, "../");
	qu_buf_adds(out, to + common);
}

static void dir_of(struct qu_buf *b, const char *path)
{
	const char *sl = strrchr(path, '/');

	qu_buf_reset(b);
	if (sl)
		qu_buf_add(b, path, (size_t)(sl - path) + 1);
}

/*
 * Whether @a is @p or above it; a toctree naming an ancestor would make
 * the tree a cycle, so such entries are ignored.
 */
static bool is_ancestor(const struct qu_site *s, uint32_t a, uint32_t p)
{
	size_t guard = 0;

	for (; p != QU_NONE && guard <= s->npages;
	     p = s->pages[p].parent, guard++)
		if (p == a)
			return true;
	return false;
}

/* Hang @child under @parent, after its existing children. */
static void add_child(struct qu_site *s, uint32_t parent, uint32_t child)
{
	struct qu_page *pg = &s->pages[parent];

	pg->children = qu_xrealloc(pg->children,
				   (pg->nchildren + 1) * sizeof(uint32_t));
	pg->children[pg->nchildren++] = child;
	s->pages[child].parent = parent;
}

/* Pages no toctree orders go by front matter order, then output path. */
static int cmp_pages(const void *a, const void *b, void *payload)
{
	const struct qu_site *s = payload;
	const struct qu_page *x = &s->pages[*(const uint32_t *)a];
	const struct qu_page *y = &s->pages[*(const uint32_t *)b];

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return strcmp(x->out, y->out);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The page a toctree entry names: "guide" may be "guide.md", "guide.rst"
 * (Sphinx's docnames have no extension) or the folder "guide/index".
 */
static uint32_t find_entry(const struct qu_site *s, struct qu_buf *norm)
{
	static const char *const ext[] = {"", ".md", ".rst", "/index.md",
					  "/index.rst"};
	size_t base = norm->len, i;
	uint32_t target = QU_NONE;

	for (i = 0; i < QU_ARRAY_SIZE(ext) && target == QU_NONE; i++) {
		norm->len = base;
		norm->buf[base] = 0;
		qu_buf_adds(norm, ext[i]);
		target = qu_site_find_page(s, norm->buf);
	}
	return target;
}

static void add_entry(struct qu_site *s, uint32_t pi, struct qu_part *part,
		      uint32_t target)
{
	part->pages = qu_xrealloc(part->pages,
				  (part->npages + 1) * sizeof(uint32_t));
	part->pages[part->npages++] = target;
	if (s->pages[target].parent == QU_NONE)
		add_child(s, pi, target);
}

/*
 * A :glob: toctree's pattern (a "*" anywhere): every page whose name without
 * its extension matches, in name order as Sphinx sorts them, but the page
 * itself and its ancestors.
 */
static void glob_entries(struct qu_site *s, uint32_t pi, struct qu_part *part,
			 const char *pat)
{
	struct qu_buf name = QU_BUF_INIT;
	size_t i;

	for (i = 1; i < s->npages; i++) {
		const char *src = s->pages[i].src, *dot;

		if (!src || i == pi || is_ancestor(s, (uint32_t)i, pi))
			continue;
		dot = strrchr(src, '.');
		qu_buf_reset(&name);
		qu_buf_add(&name, src, dot ? (size_t)(dot - src) : strlen(src));
		if (!fnmatch(pat, name.buf, FNM_PATHNAME))
			add_entry(s, pi, part, (uint32_t)i);
	}
	qu_buf_fini(&name);
}

/*
 * Resolve a toctree's entries ("guide", "guide.md", "Title <guide>")
 * relative to its page, and adopt the pages no toctree has adopted yet.
 */
static void resolve_toctree(struct qu_site *s, uint32_t pi,
			    struct qu_part *part, struct qu_buf *dir,
			    struct qu_buf *norm)
{
	const char *t = part->text;
	size_t pos = 0;
	uint32_t line = part->line;

	dir_of(dir, s->pages[pi].src ? s->pages[pi].src : "");
	while (t && pos < part->len) {
		const char *nl = memchr(t + pos, '\n', part->len - pos);
		size_t eol = nl ? (size_t)(nl - t) : part->len;
		const char *e = t + pos, *lt;
		size_t el = eol - pos;
		uint32_t target;

		pos = eol + 1;
		while (el && (*e == ' ' || *e == '\t')) {
			e++;
			el--;
		}
		while (el && (e[el - 1] == ' ' || e[el - 1] == '\r'))
			el--;
		if (!el) {
			line++;
			continue;
		}
		/* "Title <path>" as Sphinx writes it */
		lt = memchr(e, '<', el);
		if (lt && e[el - 1] == '>') {
			el = (size_t)(e + el - 1 - lt - 1);
			e = lt + 1;
		}
		site_normalise(norm, dir->buf, e, el);
		if (part->glob && memchr(e, '*', el)) {
			glob_entries(s, pi, part, norm->buf);
			line++;
			continue;
		}
		target = find_entry(s, norm);
		if (target == QU_NONE || target == 0 ||
		    is_ancestor(s, target, pi)) {
			if (target == QU_NONE)
				qu_diag(&s->diags, QU_W_MISSING_PAGE,
					s->pages[pi].diag_path, line, 1,
					"toctree entry '%.*s' names no page, "
					"ignoring it",
					(int)el, e);
			line++;
			continue;
		}
		add_entry(s, pi, part, target);
		line++;
	}
}

void site_link_pages(struct qu_site *s)
{
	struct qu_buf dir = QU_BUF_INIT, norm = QU_BUF_INIT;
	char **src = NULL;
	size_t nsrc = 0, alloc = 0, i, k;
	uint32_t *orphans = NULL;
	size_t norphans = 0;

	/* Toctrees first, breadth-first from the home page. */
	{
		uint32_t *queue = qu_xmalloc(s->npages * sizeof(uint32_t));
		size_t head = 0, tail = 0;
		bool *seen = qu_xcalloc(s->npages, 1);

		queue[tail++] = 0;
		seen[0] = true;
		while (head < tail) {
			uint32_t pi = queue[head++];
			struct qu_page *pg = &s->pages[pi];

			for (k = 0; k < pg->nparts; k++)
				if (pg->parts[k].kind == QU_PART_TOCTREE)
					resolve_toctree(s, pi, &pg->parts[k],
							&dir, &norm);
			for (k = 0; k < pg->nchildren; k++)
				if (!seen[pg->children[k]]) {
					seen[pg->children[k]] = true;
					queue[tail++] = pg->children[k];
				}
		}
		/* toctrees of pages no toctree reaches still name pages */
		for (i = 1; i < s->npages; i++) {
			if (seen[i])
				continue;
			for (k = 0; k < s->pages[i].nparts; k++)
				if (s->pages[i].parts[k].kind ==
				    QU_PART_TOCTREE)
					resolve_toctree(s, (uint32_t)i,
							&s->pages[i].parts[k],
							&dir, &norm);
		}
		free(seen);
		free(queue);
	}
	/* The rest under their folder's index page, else home. */
	for (i = 1; i < s->npages; i++) {
		if (s->pages[i].parent != QU_NONE)
			continue;
		orphans =
			qu_xrealloc(orphans, (norphans + 1) * sizeof(uint32_t));
		orphans[norphans++] = (uint32_t)i;
	}
	if (norphans > 1)
		qsort_r(orphans, norphans, sizeof(uint32_t), cmp_pages, s);
	for (i = 0; i < norphans; i++) {
		uint32_t pi = orphans[i], parent = 0;
		const char *out = s->pages[pi].out;

		dir_of(&dir, out);
		/* an index page belongs to the folder above its own */
		if (dir.len && !strcmp(out + dir.len, "index.html")) {
			dir.len--;
			dir.buf[dir.len] = 0;
			dir_of(&norm, dir.buf);
			qu_buf_reset(&dir);
			qu_buf_add(&dir, norm.buf, norm.len);
		}
		for (;;) {
			uint32_t j;

			qu_buf_reset(&norm);
			qu_buf_addf(&norm, "%sindex.html", dir.buf);
			for (j = 0; j < s->npages; j++)
				if (j != pi &&
				    !strcmp(s->pages[j].out, norm.buf))
					break;
			if (j < s->npages && !is_ancestor(s, pi, j)) {
				parent = j;
				break;
			}
			if (!dir.len)
				break;
			dir.len--;
			dir.buf[dir.len] = 0;
			dir_of(&norm, dir.buf);
			qu_buf_reset(&dir);
			qu_buf_add(&dir, norm.buf, norm.len);
		}
		add_child(s, parent, pi);
	}
	free(orphans);

	/* The sources the directives need, sorted and unique. */
	for (i = 0; i < s->npages; i++)
		for (k = 0; k < s->pages[i].nparts; k++) {
			const struct qu_part *p = &s->pages[i].parts[k];
			size_t m;

			if (p->kind != QU_PART_KDOC)
				continue;
			QU_VEC_GROW(src, nsrc, alloc);
			src[nsrc++] = (char *)p->sel.path;
			if (p->sel.mode != QU_SEL_EXPORT &&
			    p->sel.mode != QU_SEL_INTERNAL)
				continue;
			for (m = 0; m < p->sel.nnames; m++) {
				QU_VEC_GROW(src, nsrc, alloc);
				src[nsrc++] = (char *)p->sel.names[m];
			}
		}
	if (nsrc > 1)
		qsort(src, nsrc, sizeof(*src), cmp_str);
	for (i = k = 0; i < nsrc; i++)
		if (!k || strcmp(src[k - 1], src[i]))
			src[k++] = src[i];
	s->sources = (const char **)src;
	s->nsources = k;
	qu_buf_fini(&dir);
	qu_buf_fini(&norm);
}
