// SPDX-License-Identifier: MIT
/*
 * load.c - find the configuration, the pages and the sources (site stage)
 *
 * cmd/quire calls qu_site_load() first. It walks the docs root once, in
 * sorted order so that every later list is stable, and reads each page.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "git/git.h"
#include "site_int.h"

char *site_strndup(struct qu_site *s, const char *p, size_t len)
{
	return qu_arena_strndup(&s->arena, p, len);
}

char *site_strdup(struct qu_site *s, const char *p)
{
	return qu_arena_strdup(&s->arena, p);
}

char *site_printf(struct qu_site *s, const char *fmt, ...)
{
	struct qu_buf b = QU_BUF_INIT;
	va_list ap;
	char *r;

	va_start(ap, fmt);
	qu_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	r = site_strndup(s, b.buf, b.len);
	qu_buf_fini(&b);
	return r;
}

uint32_t site_add_page(struct qu_site *s, size_t *alloc)
{
	struct qu_page *pg;

	QU_VEC_GROW(s->pages, s->npages, *alloc);
	pg = &s->pages[s->npages];
	memset(pg, 0, sizeof(*pg));
	pg->parent = QU_NONE;
	return (uint32_t)s->npages++;
}

bool site_excluded(const struct qu_site *s, const char *rel)
{
	const char *base = strrchr(rel, '/');
	size_t i;

	base = base ? base + 1 : rel;
	for (i = 0; i < s->cfg.nexclude; i++) {
		const char *pat = s->cfg.exclude[i];
		size_t pl = strlen(pat);

		if (!fnmatch(pat, rel, 0) || !fnmatch(pat, base, 0))
			return true;
		/* a pattern ending in "/" leaves out the whole folder */
		if (pl && pat[pl - 1] == '/' && !strncmp(rel, pat, pl - 1) &&
		    (rel[pl - 1] == '/' || !rel[pl - 1]))
			return true;
	}
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef bool (*want_fn)(const char *name);

/* Files a page may show or link to that quire copies as they are. */
static bool want_asset(const char *name)
{
	static const char *const ext[] = {
		".png",	 ".jpg", ".jpeg", ".gif", ".svg",
		".webp", ".ico", ".pdf",  ".txt", ".dot",
	};
	size_t l = strlen(name), i;

	for (i = 0; i < QU_ARRAY_SIZE(ext); i++) {
		size_t el = strlen(ext[i]);

		if (l > el && !strcasecmp(name + l - el, ext[i]))
			return true;
	}
	return false;
}

static bool is_rst(const char *name)
{
	size_t l = strlen(name);

	return l > 4 && !strcmp(name + l - 4, ".rst");
}

/* Pages: Markdown, and reST (a Sphinx project's, or beside Markdown). */
static bool want_md(const char *name)
{
	size_t l = strlen(name);

	return (l > 3 && !strcmp(name + l - 3, ".md")) || is_rst(name);
}

static bool want_c(const char *name)
{
	size_t l = strlen(name);

	return l > 2 && name[l - 2] == '.' &&
	       (name[l - 1] == 'c' || name[l - 1] == 'h');
}

/*
 * Collect the files below @dir whose names @want wants, folders sorted so
 * that the lists, and every later stage, do not depend on readdir().
 * Hidden entries, @skip (the output folder) and excluded paths are left
 * out. A folder that cannot be read is a diagnostic and the walk goes on
 * (only the root itself is an environment error). Links to folders are
 * not followed (they can make loops); a link to a file counts only when
 * it resolves inside the docs root or the source tree. A wanted name that
 * is a FIFO, device or socket is reported and never opened.
 */
static int walk(struct qu_site *s, const char *dir, const char *rel,
		const char *skip, want_fn want, char ***v, size_t *n,
		size_t *alloc, struct qu_buf *err)
{
	struct qu_buf path = QU_BUF_INIT, sub = QU_BUF_INIT;
	char **names = NULL;
	enum qu_fkind *kinds = NULL;
	size_t nnames = 0, i;

	if (qu_files_list(s->lister ? s->lister : s->files, &names, &kinds,
			  &nnames, dir) < 0) {
		if (!*rel) {
			qu_buf_addf(err, "%s: cannot open folder: %s", dir,
				    strerror(errno));
			return -1;
		}
		/* reported once, by the first of the walks */
		if (want == want_md || want == want_c)
			qu_diag(&s->diags, QU_W_UNREADABLE, site_strdup(s, dir),
				0, 0, "cannot open folder: %s, leaving it out",
				strerror(errno));
		return 0;
	}
	/* every folder listed, once (the other walks list the same) */
	if (want == want_md || want == want_c) {
		QU_VEC_GROW(s->folders, s->nfolders, s->folders_alloc);
		s->folders[s->nfolders++] = site_strdup(s, dir);
	}
	for (i = 0; i < nnames; i++) {
		const char *name = names[i];
		struct qu_fstat st;

		if (name[0] == '.')
			continue;
		qu_buf_reset(&path);
		qu_buf_add_path(&path, dir, name);
		qu_buf_reset(&sub);
		if (*rel)
			qu_buf_add_path(&sub, rel, name);
		else
			qu_buf_adds(&sub, name);
		if (skip && !strcmp(path.buf, skip))
			continue;
		if (site_excluded(s, sub.buf))
			continue;
		/*
		 * the listing's type spares an lstat() of every file of a
		 * kernel tree (75,000 of them); where it does not say,
		 * qu_files_stat() does
		 */
		if (kinds[i] == QU_FK_FILE && !want(name))
			continue;
		if (kinds[i] == QU_FK_FILE || kinds[i] == QU_FK_DIR) {
			memset(&st, 0, sizeof(st));
			st.kind = kinds[i];
		} else if (qu_files_stat(s->files, &st, path.buf, false) < 0) {
			continue;
		}
		if (st.kind == QU_FK_LINK) {
			if (!want(name))
				continue;
			/* dangling links and links to folders are no files */
			if (site_check_read(s, path.buf, name,
					    site_strdup(s, path.buf), 0, 0,
					    false) != SITE_READ_OK)
				continue;
			if (qu_files_stat(s->files, &st, path.buf, true) < 0)
				continue;
		}
		if (st.kind == QU_FK_DIR) {
			if (walk(s, path.buf, sub.buf, skip, want, v, n, alloc,
				 err) < 0)
				break;
			continue;
		}
		if (!want(name))
			continue;
		if (st.kind != QU_FK_FILE) {
			/* reports the FIFO, device or socket */
			site_check_read(s, path.buf, name,
					site_strdup(s, path.buf), 0, 0, false);
			continue;
		}
		/* a blob of a revision is always readable */
		if (want == want_asset && !s->files) {
			/* copied later as it is: it must be readable now */
			int fd = open(path.buf,
				      O_RDONLY | O_NONBLOCK | O_CLOEXEC);

			if (fd < 0) {
				qu_diag(&s->diags, QU_W_UNREADABLE,
					site_strdup(s, path.buf), 0, 0,
					"cannot read: %s, leaving it out",
					strerror(errno));
				continue;
			}
			close(fd);
		}
		QU_VEC_GROW(*v, *n, *alloc);
		(*v)[(*n)++] = site_strndup(s, sub.buf, sub.len);
	}
	for (i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	free(kinds);
	qu_buf_fini(&path);
	qu_buf_fini(&sub);
	return 0;
}

/* One heading the reader found, into the page. */
struct heads {
	struct qu_site *s;
	struct qu_page *pg;
	size_t alloc;
};

void site_add_heading(struct qu_site *s, struct qu_page *pg, size_t *alloc,
		      unsigned level, const char *text, const char *id,
		      uint32_t line, bool hidden)
{
	struct qu_heading *v;

	QU_VEC_GROW(pg->headings, pg->nheadings, *alloc);
	v = &pg->headings[pg->nheadings++];
	v->text = site_strdup(s, text);
	v->id = site_strdup(s, id);
	v->level = level;
	v->line = line;
	v->hidden = hidden;
}

static void on_heading(void *payload, unsigned level, const char *text,
		       const char *id, uint32_t line)
{
	struct heads *h = payload;

	site_add_heading(h->s, h->pg, &h->alloc, level, text, id, line, false);
}

void site_page_headings(struct qu_site *s, struct qu_page *pg)
{
	struct heads h = {s, pg, 0};

	pg->headings = NULL;
	pg->nheadings = 0;
	s->reader->headings(s->reader->ctx, pg, on_heading, &h);
	site_arena_headings(s, pg);
}

void site_arena_headings(struct qu_site *s, struct qu_page *pg)
{
	/* the array lives in the site's arena like everything else */
	if (pg->nheadings) {
		struct qu_heading *v = qu_arena_memdup(
			&s->arena, pg->headings,
			pg->nheadings * sizeof(*v));

		free(pg->headings);
		pg->headings = v;
	}
}

/*
 * "a/b.md" becomes "a/b.html", a folder's README.md its index.html, and
 * "a/b.rst" "a/b.html" as Sphinx names it.
 */
static void out_name(struct qu_buf *b, const char *src)
{
	size_t l = strlen(src);

	if (is_rst(src)) {
		qu_buf_reset(b);
		qu_buf_add(b, src, l - 4);
		qu_buf_adds(b, ".html");
		return;
	}
	qu_buf_reset(b);
	if (l >= 9 && !strcmp(src + l - 9, "README.md") &&
	    (l == 9 || src[l - 10] == '/')) {
		qu_buf_add(b, src, l - 9);
		qu_buf_adds(b, "index.html");
		return;
	}
	qu_buf_add(b, src, l - 3);
	qu_buf_adds(b, ".html");
}

/*
 * The files and folders quire writes itself at the top of a site
 * (DESIGN.md, "Output layout"); a page there would be overwritten, or
 * overwrite them, depending on the order of writing.
 */
static bool reserved(const char *out)
{
	static const char *const names[] = {
		"genindex.html", "search.html", "404.html",
		"sitemap.xml",	 "objects.inv", ".quire-site",
	};
	size_t i;

	for (i = 0; i < QU_ARRAY_SIZE(names); i++)
		if (!strcmp(out, names[i]))
			return true;
	return !strncmp(out, "genindex-", 9) || !strncmp(out, "_static/", 8) ||
	       !strncmp(out, "_search/", 8);
}

/*
 * Read one page: front matter, title, parts. Return: 0, or 1 when the
 * file cannot be read or its name is quire's (reported; the caller drops
 * the page).
 */
static int load_page(struct qu_site *s, uint32_t idx, const char *src,
		     struct qu_buf *err)
{
	struct qu_page *pg = &s->pages[idx];
	struct qu_buf path = QU_BUF_INIT, text = QU_BUF_INIT;
	size_t off;
	uint32_t line;
	const char *p;
	char *body;
	int ret = -1;

	qu_buf_add_path(&path, s->root, src);
	pg->src = src;
	pg->diag_path = site_strndup(s, path.buf, path.len);
	out_name(&path, src);
	pg->out = site_strndup(s, path.buf, path.len);
	for (p = pg->out; *p; p++)
		pg->depth += *p == '/';
	if (reserved(pg->out)) {
		qu_diag(&s->diags, QU_W_RESERVED_NAME, pg->diag_path, 0, 0,
			"quire writes %s itself, leaving the page out; rename "
			"it",
			pg->out);
		ret = 1;
		goto out;
	}
	if (qu_files_read(s->files, &text, pg->diag_path, err) < 0) {
		/* as quire check does: reported, and the build goes on */
		const char *why = strstr(err->buf, ": cannot read: ");

		qu_diag(&s->diags, QU_W_UNREADABLE, pg->diag_path, 0, 0,
			"cannot read: %s, leaving the page out",
			why ? why + 15 : err->buf);
		qu_buf_reset(err);
		ret = 1;
		goto out;
	}
	body = site_strndup(s, text.buf, text.len);
	if (is_rst(src)) {
		/* reST has no front matter: its reader gives all */
		site_rst_page(s, pg, body, text.len);
	} else {
		if (site_front_matter(s, pg, body, text.len, &off, &line) < 0)
			s->broken = true;
		site_split_parts(s, pg, body + off, text.len - off, line);
		site_page_headings(s, pg);
	}
	/* no title in the front matter: the first heading of level 1 */
	for (size_t k = 0; !pg->title && k < pg->nheadings; k++)
		if (pg->headings[k].level == 1)
			pg->title = pg->headings[k].text;
	if (!pg->title) {
		const char *b = strrchr(src, '/');

		b = b ? b + 1 : src;
		pg->title = site_strndup(s, b, strrchr(b, '.') - b);
	}
	ret = 0;
out:
	qu_buf_fini(&path);
	qu_buf_fini(&text);
	return ret;
}

/*
 * A docs root with quire.yml: every page, then the navigation tree and the
 * list of sources, then the files the pages may link to.
 */
static int load_configured(struct qu_site *s, const char *skip,
			   struct qu_buf *err)
{
	char **md = NULL;
	size_t nmd = 0, mdalloc = 0, palloc = 0, i;
	int ret = -1;

	if (walk(s, s->root, "", skip, want_md, &md, &nmd, &mdalloc, err) < 0)
		goto out;
	/* index.md (else README.md) at the top is the home page. */
	site_add_page(s, &palloc);
	for (i = 0; i < nmd; i++)
		if (!strcmp(md[i], "index.md"))
			break;
	if (i == nmd)
		for (i = 0; i < nmd; i++)
			if (!strcmp(md[i], "index.rst"))
				break;
	if (i == nmd)
		for (i = 0; i < nmd; i++)
			if (!strcmp(md[i], "README.md"))
				break;
	if (i < nmd && load_page(s, 0, md[i], err) == 0) {
		s->pages[0].out = "index.html";
	} else {
		memset(&s->pages[0], 0, sizeof(s->pages[0]));
		s->pages[0].parent = QU_NONE;
		s->pages[0].out = "index.html";
		s->pages[0].diag_path = s->root;
		s->pages[0].title = s->cfg.title ? s->cfg.title : "Home";
		s->pages[0].h1 = true;
	}
	for (size_t j = 0; j < nmd; j++) {
		size_t l = strlen(md[j]);

		if (j == i)
			continue;
		/* a README.md beside an index.md is not a second index */
		if (l >= 9 && !strcmp(md[j] + l - 9, "README.md")) {
			struct qu_buf ix = QU_BUF_INIT;
			bool has;

			qu_buf_add(&ix, md[j], l - 9);
			qu_buf_adds(&ix, "index.md");
			has = bsearch(&ix.buf, md, nmd, sizeof(*md), cmp_str);
			qu_buf_fini(&ix);
			if (has)
				continue;
		}
		if (load_page(s, site_add_page(s, &palloc), md[j], err))
			s->npages--;
	}
	site_link_pages(s);
	{
		char **v = NULL;
		size_t n = 0, alloc = 0;

		if (walk(s, s->root, "", skip, want_asset, &v, &n, &alloc,
			 err) < 0) {
			free(v);
			goto out;
		}
		s->assets = (const char **)v;
		s->nassets = n;
	}
	ret = 0;
out:
	free(md);
	return ret;
}

/*
 * A folder holding index.rst and no quire.yml is a Sphinx project when
 * conf.py is beside it or in a folder above (the kernel's SPHINXDIRS
 * builds, Documentation/core-api with Documentation/conf.py). Up to
 * CONF_PY_UP folders above: a conf.py further away is somebody else's.
 */
#define CONF_PY_UP 3

static bool sphinx_conf(struct qu_site *s, struct qu_buf *path, int *up_out)
{
	int up;

	qu_buf_reset(path);
	qu_buf_addf(path, "%s/index.rst", s->root);
	if (access(path->buf, F_OK) != 0)
		return false;
	for (up = 0; up <= CONF_PY_UP; up++) {
		qu_buf_reset(path);
		qu_buf_adds(path, s->root);
		for (int k = 0; k < up; k++)
			qu_buf_adds(path, "/..");
		qu_buf_adds(path, "/conf.py");
		if (access(path->buf, F_OK) == 0) {
			*up_out = up;
			return true;
		}
	}
	return false;
}

/*
 * Comments are reST where Sphinx reads them: in a Sphinx project, and in
 * the zero-config build of a tree whose Documentation/conf.py is
 * Sphinx's (a kernel tree, whose comments the kernel's kernel-doc
 * extension hands to Sphinx). Elsewhere they are Markdown.
 */
static enum qu_markup default_markup(const struct qu_site *s,
				     struct qu_buf *path)
{
	struct qu_fstat st;

	if (s->cfg.sphinx)
		return QU_MARKUP_RST;
	if (!s->zero_config)
		return QU_MARKUP_MARKDOWN;
	qu_buf_reset(path);
	qu_buf_addf(path, "%s/Documentation/conf.py", s->root);
	if (qu_files_stat(s->files, &st, path->buf, true) == 0 &&
	    st.kind == QU_FK_FILE)
		return QU_MARKUP_RST;
	return QU_MARKUP_MARKDOWN;
}

int qu_site_load(struct qu_site *out, const char *root, const char *skip,
		 const struct qu_site_reader *rd, struct qu_buf *err)
{
	struct qu_buf path = QU_BUF_INIT, text = QU_BUF_INIT;
	size_t rl = strlen(root);
	int ret = -1, up = 0;

	qu_arena_init(&out->arena);
	qu_diags_init(&out->diags);
	out->reader = rd;
	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	out->root = site_strndup(out, root, rl);
	qu_buf_addf(&path, "%s/quire.yml", out->root);
	if (qu_files_stat(out->files, &(struct qu_fstat){0}, path.buf,
			  false) == 0) {
		if (qu_files_read(out->files, &text, path.buf, err) < 0)
			goto out;
		if (qu_site_config_parse(&out->cfg, &out->diags,
					 site_strndup(out, path.buf, path.len),
					 text.buf, text.len) < 0)
			out->broken = true;
		/* mode: api: a source tree's zero-config build, configured */
		if (out->cfg.api && out->cfg.srctree) {
			qu_diag(&out->diags, QU_W_BAD_CONFIG,
				site_strndup(out, path.buf, path.len),
				out->cfg.srctree_line, 1,
				"'srctree' cannot go with 'mode: api': the "
				"source tree is the folder holding quire.yml");
			out->broken = true;
		}
		out->zero_config = out->cfg.api;
	} else if (sphinx_conf(out, &path, &up)) {
		/* a Sphinx project: its settings, then its pages */
		if (qu_file_read(&text, path.buf, err) < 0)
			goto out;
		out->cfg.sphinx = true;
		out->cfg.conf_py = qu_xstrdup(path.buf);
		site_conf_py(out, path.buf, text.buf, text.len);
		/* Documentation/.. is the kernel's source tree */
		qu_buf_reset(&path);
		qu_buf_adds(&path, "..");
		while (up-- > 0)
			qu_buf_adds(&path, "/..");
		out->cfg.srctree = qu_xstrdup(path.buf);
	} else {
		out->zero_config = true;
	}
	if (out->cfg.comment_markup == QU_MARKUP_DEFAULT)
		out->cfg.comment_markup = default_markup(out, &path);

	/* The source tree: the configured one, else git's, else the parent. */
	qu_buf_reset(&path);
	if (out->zero_config) {
		qu_buf_adds(&path, out->root);
	} else if (out->cfg.srctree) {
		if (out->cfg.srctree[0] == '/')
			qu_buf_adds(&path, out->cfg.srctree);
		else
			qu_buf_add_path(&path, out->root, out->cfg.srctree);
	} else if (out->files) {
		/* a revision's source tree is its root */
		qu_buf_adds(&path, ".");
	} else if (qu_git_workdir(&path, out->root) != 0) {
		qu_buf_reset(&path);
		qu_buf_addf(&path, "%s/..", out->root);
	}
	/* "docs/.." reads better as "." in every path printed */
	if (path.len > 3 && !strcmp(path.buf + path.len - 3, "/..")) {
		const char *base = path.buf;
		size_t bl = path.len - 3;
		const char *sl = memrchr(base, '/', bl);
		const char *last = sl ? sl + 1 : base;
		size_t ll = (size_t)(base + bl - last);

		if (!(ll == 1 && last[0] == '.') &&
		    !(ll == 2 && !strncmp(last, "..", 2)) && ll &&
		    !memmem(base, bl, "..", 2)) {
			path.len = sl ? (size_t)(sl - base) : 0;
			if (!path.len)
				qu_buf_adds(&path, sl ? "/" : ".");
			path.buf[path.len] = 0;
		}
	}
	out->srctree = site_strndup(out, path.buf, path.len);
	{
		struct qu_buf real = QU_BUF_INIT;

		if (qu_files_real(out->files, &real, out->root) < 0) {
			qu_buf_addf(err, "%s: cannot resolve: %s", out->root,
				    strerror(errno));
			qu_buf_fini(&real);
			goto out;
		}
		out->root_real = site_strdup(out, real.buf);
		if (!qu_files_real(out->files, &real, out->srctree))
			out->srctree_real = site_strdup(out, real.buf);
		qu_buf_fini(&real);
	}
	if (out->cfg.srctree) {
		struct qu_fstat st;

		/* else every {kernel-doc} would fail as a missing file */
		if (qu_files_stat(out->files, &st, out->srctree, true) < 0 ||
		    st.kind != QU_FK_DIR) {
			qu_diag(&out->diags, QU_W_BAD_CONFIG,
				site_printf(out, "%s/quire.yml", out->root),
				out->cfg.srctree_line, 1,
				"'srctree': no folder '%s'", out->cfg.srctree);
			out->broken = true;
		}
	}
	/* a theme given as a path is read like any other input */
	if (out->cfg.theme && strchr(out->cfg.theme, '/')) {
		struct qu_buf t = QU_BUF_INIT, cfg = QU_BUF_INIT;

		if (out->cfg.theme[0] == '/')
			qu_buf_adds(&t, out->cfg.theme);
		else
			qu_buf_add_path(&t, out->root, out->cfg.theme);
		qu_buf_addf(&cfg, "%s/quire.yml", out->root);
		switch (site_check_read(out, t.buf, out->cfg.theme,
					site_strdup(out, cfg.buf),
					out->cfg.theme_line, 1, true)) {
		case SITE_READ_OK:
			break;
		case SITE_READ_MISSING:
			qu_diag(&out->diags, QU_W_BAD_CONFIG,
				site_strdup(out, cfg.buf), out->cfg.theme_line,
				1, "'theme': no folder '%s'", out->cfg.theme);
			/* fall through */
		case SITE_READ_REFUSED:
			out->broken = true;
			break;
		}
		qu_buf_fini(&t);
		qu_buf_fini(&cfg);
	}

	/* intersphinx inventories: files of the docs tree like any other */
	for (size_t i = 0; !out->broken && i < out->cfg.nintersphinx; i++) {
		struct qu_intersphinx *e = &out->cfg.intersphinx[i];
		struct qu_buf t = QU_BUF_INIT, data = QU_BUF_INIT;
		const char *cfg = site_printf(out, "%s/quire.yml", out->root);

		if (e->inventory[0] == '/')
			qu_buf_adds(&t, e->inventory);
		else
			qu_buf_add_path(&t, out->root, e->inventory);
		switch (site_check_read(out, t.buf, e->inventory, cfg, e->line,
					1, false)) {
		case SITE_READ_OK:
			if (qu_files_read(out->files, &data, t.buf, err) == 0) {
				e->len = data.len;
				e->data = qu_buf_detach(&data, NULL);
				break;
			}
			qu_buf_reset(err);
			/* fall through */
		case SITE_READ_MISSING:
			qu_diag(&out->diags, QU_W_MISSING_FILE, cfg, e->line, 1,
				"'intersphinx': no inventory '%s', not "
				"linking into '%s'",
				e->inventory, e->name);
			break;
		case SITE_READ_REFUSED:
			break;
		}
		qu_buf_fini(&t);
		qu_buf_fini(&data);
	}
	if (out->zero_config) {
		char **v = NULL;
		size_t n = 0, alloc = 0;

		if (walk(out, out->root, "", skip, want_c, &v, &n, &alloc,
			 err) < 0) {
			free(v);
			goto out;
		}
		/*
		 * The walk sorts each folder's names, which is not the order
		 * of whole paths ("dma-buf/x" sorts before "dma/x", '-' being
		 * below '/'); units are found by bsearch() over whole paths.
		 * Golden: test/site/zero (folders "dma" and "dma-buf").
		 */
		if (n > 1)
			qsort(v, n, sizeof(*v), cmp_str);
		out->sources = (const char **)v;
		out->nsources = n;
		ret = 0;
		goto out;
	}
	/* a broken quire.yml: its errors alone, the pages are not read */
	ret = out->broken ? 0 : load_configured(out, skip, err);
out:
	if (out->broken) {
		/* warnings are noise beside the errors that stop the build */
		size_t i, o = 0;

		for (i = 0; i < out->diags.n; i++) {
			if (qu_diag_info(out->diags.v[i].id)->level ==
			    QU_LEVEL_ERROR) {
				out->diags.v[o++] = out->diags.v[i];
				continue;
			}
			free(out->diags.v[i].msg);
		}
		out->diags.n = o;
	}
	qu_buf_fini(&path);
	qu_buf_fini(&text);
	return ret;
}

void qu_site_fini(struct qu_site *s)
{
	size_t i;

	for (i = 0; i < s->npages; i++) {
		for (size_t k = 0; k < s->pages[i].nparts; k++) {
			struct qu_part *p = &s->pages[i].parts[k];

			free(p->pages);
			free(p->files);
			free(p->sel.names);
			free(p->sel.no_names);
			if (p->parsed && p->parsed->doc)
				p->parsed->free_fn(p->parsed->doc);
			free(p->parsed);
		}
		free(s->pages[i].parts);
		free(s->pages[i].children);
	}
	free(s->pages);
	free(s->sources);
	free(s->assets);
	free(s->folders);
	qu_config_fini(&s->cfg);
	qu_diags_fini(&s->diags);
	qu_arena_fini(&s->arena);
}
