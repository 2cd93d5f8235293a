// SPDX-License-Identifier: MIT
/*
 * history.c - what git says of a site's inputs (part of lib/build)
 *
 * When each page's file and each source last changed, from one walk over
 * history for all of them (qu_git_last_changed()), and the template of
 * "view source" links: quire.yml's source_url, else one derived from the
 * repository's origin. lib/render shows both; pipeline.c calls this once
 * per build, on its own thread, before the pages' keys are computed.
 */
#include <stdlib.h>
#include <string.h>

#include "build_int.h"
#include "git/git.h"

/* Where "//git/…" paths of a revision start (lib/git/fs.c). */
#define REV_ROOT "//git/"

/* A site path as a path from the repository's root, or false. */
static bool repo_path(struct qu_buf *out, const struct qu_site *s,
		      const char *top, const char *path)
{
	struct qu_buf real = QU_BUF_INIT;
	size_t tl = strlen(top);
	bool ok = false;

	qu_buf_reset(out);
	if (qu_files_real(s->files, &real, path) < 0)
		goto out;
	if (!strncmp(real.buf, top, tl) && real.buf[tl] == '/' &&
	    real.buf[tl + 1]) {
		qu_buf_adds(out, real.buf + tl + 1);
		ok = true;
	} else if (!strcmp(top, "/") && real.buf[0] == '/' && real.buf[1]) {
		qu_buf_adds(out, real.buf + 1);
		ok = true;
	}
out:
	qu_buf_fini(&real);
	return ok;
}

static void set(struct qu_render_file *f, const struct qu_git_change *c)
{
	if (!c || !c->time || c->time <= f->time)
		return;
	f->time = c->time;
	memcpy(f->commit, c->commit, QU_GIT_SHORT);
	f->commit[QU_GIT_SHORT] = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

#define MEMO_MAGIC "quire-last-changed 1 "

/*
 * The answers of the last build, when it walked from the same commit
 * with the same files: a work tree's builds between two commits (every
 * ninja docs, every edit) then walk nothing. The file is
 * "quire-last-changed 1 COMMIT\n" then "TIME HEX PATH\n" per path, in
 * @paths' order. Return: true when @out holds the answers.
 */
static bool memo_read(struct qu_git_change **out, size_t *n, const char *file,
		      const char *commit, const char *const *paths,
		      size_t npaths)
{
	struct qu_buf data = QU_BUF_INIT, err = QU_BUF_INIT;
	struct qu_git_change *v = NULL;
	const char *p, *end;
	size_t i = 0;
	bool ok = false;

	if (!file || qu_file_read(&data, file, &err) < 0)
		goto out;
	p = data.buf;
	end = data.buf + data.len;
	if ((size_t)(end - p) < strlen(MEMO_MAGIC) + 41 ||
	    strncmp(p, MEMO_MAGIC, strlen(MEMO_MAGIC)) ||
	    strncmp(p + strlen(MEMO_MAGIC), commit, 40) ||
	    p[strlen(MEMO_MAGIC) + 40] != '\n')
		goto out;
	p += strlen(MEMO_MAGIC) + 41;
	v = qu_xcalloc(npaths + 1, sizeof(*v));
	for (i = 0; i < npaths && p < end; i++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char *sp;
		long long t;

		if (!nl)
			break;
		t = strtoll(p, &sp, 10);
		if (*sp != ' ' || nl - sp < 42 || sp[41] != ' ' ||
		    (size_t)(nl - sp - 42) != strlen(paths[i]) ||
		    strncmp(sp + 42, paths[i], strlen(paths[i])))
			break;
		v[i].path = qu_xstrdup(paths[i]);
		v[i].time = t;
		/* "-" padded to 40: no answer */
		if (sp[1] != '-')
			memcpy(v[i].commit, sp + 1, 40);
		p = nl + 1;
	}
	ok = i == npaths && p == end;
out:
	if (!ok && v) {
		qu_git_changes_free(v, i + 1 > npaths ? npaths : i + 1);
		v = NULL;
	}
	*out = v;
	*n = ok ? npaths : 0;
	qu_buf_fini(&data);
	qu_buf_fini(&err);
	return ok;
}

static void memo_write(const char *file, const char *commit,
		       const struct qu_git_change *v, size_t n)
{
	struct qu_buf b = QU_BUF_INIT, err = QU_BUF_INIT;
	size_t i;

	if (!file)
		return;
	qu_buf_addf(&b, MEMO_MAGIC "%s\n", commit);
	for (i = 0; i < n; i++) {
		/* a path with a newline is not worth a format */
		if (strchr(v[i].path, '\n'))
			goto out;
		qu_buf_addf(&b, "%lld %-40s %s\n", (long long)v[i].time,
			    v[i].commit[0] ? v[i].commit : "-", v[i].path);
	}
	/* a cache: failing to keep it only costs the next walk */
	(void)qu_file_write_atomic(file, b.buf, b.len, &err);
out:
	qu_buf_fini(&b);
	qu_buf_fini(&err);
}

void build_history(struct build_history *h, const struct qu_site *s,
		   const struct qu_graph *g, struct qu_git_tree *rev,
		   const char *dir, bool dates, const char *memo)
{
	struct qu_git_tree *t = rev, *own = NULL;
	struct qu_buf err = QU_BUF_INIT, top = QU_BUF_INIT, p = QU_BUF_INIT;
	struct qu_buf rp = QU_BUF_INIT;
	struct qu_git_change *ch = NULL;
	const char **paths = NULL, **sorted = NULL;
	char **page_path, **unit_path;
	size_t n = 0, nch = 0, i, k;

	memset(h, 0, sizeof(*h));
	h->pages = qu_xcalloc(s->npages + 1, sizeof(*h->pages));
	h->units = qu_xcalloc(s->nsources + 1, sizeof(*h->units));
	page_path = qu_xcalloc(s->npages + 1, sizeof(char *));
	unit_path = qu_xcalloc(s->nsources + 1, sizeof(char *));
	if (s->cfg.source_url)
		h->source_url = qu_xstrdup(s->cfg.source_url);
	/* the files on disk or a branch's can be edited, a tag's cannot */
	if (s->cfg.edit_url && (!rev || qu_git_tree_branch(rev)))
		h->edit_url = qu_xstrdup(s->cfg.edit_url);
	/* quire.yml's template names sources from the source tree */
	for (i = 0; s->cfg.source_url && i < s->nsources; i++)
		h->units[i].link = s->sources[i];
	if (!t) {
		/* a tree without git, or without a commit: no dates */
		if (qu_git_workdir(&p, dir) != 0 ||
		    qu_files_real(NULL, &top, p.buf) < 0 ||
		    qu_git_tree_open(&own, p.buf, NULL, &err) != 0) {
			/* quire.yml's template still names pages in srctree */
			for (i = 0; (s->cfg.source_url || s->cfg.edit_url) &&
				    s->srctree_real && i < s->npages;
			     i++) {
				if (!s->pages[i].src)
					continue;
				qu_buf_reset(&p);
				qu_buf_add_path(&p, s->root, s->pages[i].src);
				if (repo_path(&rp, s, s->srctree_real, p.buf))
					page_path[i] = qu_buf_detach(&rp, NULL);
				h->pages[i].link = page_path[i];
			}
			goto out;
		}
		t = own;
	} else {
		qu_buf_adds(&top, "//git");
	}
	if (!h->source_url && !qu_git_source_url(&p, t, NULL))
		h->source_url = qu_buf_detach(&p, NULL);
	if (!s->cfg.edit_url && !qu_git_edit_url(&p, t))
		h->edit_url = qu_buf_detach(&p, NULL);

	/* every file's path from the repository's root */
	paths = qu_xcalloc(s->npages + s->nsources + 1, sizeof(char *));
	for (i = 0; i < s->npages; i++) {
		if (!s->pages[i].src)
			continue;
		qu_buf_reset(&p);
		qu_buf_add_path(&p, s->root, s->pages[i].src);
		if (repo_path(&rp, s, top.buf, p.buf))
			paths[n++] = page_path[i] = qu_buf_detach(&rp, NULL);
	}
	for (i = 0; i < s->nsources; i++) {
		qu_buf_reset(&p);
		if (strcmp(s->srctree, "."))
			qu_buf_addf(&p, "%s/", s->srctree);
		qu_buf_adds(&p, s->sources[i]);
		if (repo_path(&rp, s, top.buf, p.buf))
			paths[n++] = unit_path[i] = qu_buf_detach(&rp, NULL);
	}
	/* one walk for all, each path asked once */
	sorted = qu_xcalloc(n + 1, sizeof(char *));
	memcpy(sorted, paths, n * sizeof(char *));
	qsort(sorted, n, sizeof(char *), cmp_str);
	for (i = k = 0; i < n; i++)
		if (!k || strcmp(sorted[k - 1], sorted[i]))
			sorted[k++] = sorted[i];
	if (dates && k &&
	    !memo_read(&ch, &nch, memo, qu_git_tree_commit(t), sorted, k)) {
		if (qu_git_last_changed(&ch, &nch, t, sorted, k,
					QU_GIT_WALK_FULL, &err) < 0)
			nch = 0;
		else
			memo_write(memo, qu_git_tree_commit(t), ch, nch);
	}
	for (i = 0; i < s->npages; i++) {
		const char **hit = NULL;

		if (page_path[i] && nch)
			hit = bsearch(&page_path[i], sorted, nch,
				      sizeof(char *), cmp_str);
		if (hit)
			set(&h->pages[i], &ch[hit - sorted]);
		h->pages[i].link = page_path[i];
	}
	for (i = 0; i < s->nsources; i++) {
		const char **hit = NULL;

		if (unit_path[i] && nch)
			hit = bsearch(&unit_path[i], sorted, nch,
				      sizeof(char *), cmp_str);
		if (hit)
			set(&h->units[i], &ch[hit - sorted]);
		if (!s->cfg.source_url)
			h->units[i].link = unit_path[i];
	}
	/*
	 * A page changes when a source whose items it shows does; a page
	 * quire made of one source (a zero-config file page) shows that
	 * source's "view source".
	 */
	for (i = 0; g->part_start && i < s->npages; i++) {
		const struct qu_page *pg = &s->pages[i];
		uint32_t only = UINT32_MAX;
		bool one = true;

		if (!g->part_start[i])
			continue;
		for (k = 0; k < pg->nparts; k++) {
			uint32_t e;

			for (e = g->part_start[i][k];
			     e < g->part_start[i][k + 1]; e++) {
				const struct qu_render_file *u =
					&h->units[g->placed[e].unit];

				if (only != UINT32_MAX &&
				    only != g->placed[e].unit)
					one = false;
				only = g->placed[e].unit;
				if (u->time > h->pages[i].time) {
					h->pages[i].time = u->time;
					memcpy(h->pages[i].commit, u->commit,
					       sizeof(u->commit));
				}
			}
		}
		if (!pg->src && one && only != UINT32_MAX)
			h->pages[i].link = h->units[only].link;
	}
out:
	/* the paths live as long as the links that point into them */
	h->paths = page_path;
	h->npaths = s->npages;
	h->upaths = unit_path;
	h->nupaths = s->nsources;
	qu_git_changes_free(ch, nch);
	free(sorted);
	free(paths);
	qu_git_tree_free(own);
	qu_buf_fini(&err);
	qu_buf_fini(&top);
	qu_buf_fini(&p);
	qu_buf_fini(&rp);
}

void build_history_fini(struct build_history *h)
{
	size_t i;

	for (i = 0; h->paths && i < h->npaths; i++)
		free(h->paths[i]);
	for (i = 0; h->upaths && i < h->nupaths; i++)
		free(h->upaths[i]);
	free(h->paths);
	free(h->upaths);
	free(h->pages);
	free(h->units);
	free(h->source_url);
	free(h->edit_url);
	memset(h, 0, sizeof(*h));
}
