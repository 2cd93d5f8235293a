// SPDX-License-Identifier: MIT
/*
 * versions.c - a site of several versions, one folder each (lib/build)
 *
 * quire.yml's versions: names revisions and labels. quire build then
 * builds each revision (as --rev does, from the repository holding the
 * docs folder) into OUT/<label>/, each swapped in on its own, and writes
 * OUT/versions.json and OUT/index.html, a redirect to the latest. Every
 * page gets a switcher that keeps the reader on the same page of another
 * version, or its nearest parent there, and pages of versions other than
 * the latest a banner linking to the latest. Called by cmd/quire.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "build_int.h"
#include "git/git.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The docs folder as a path of the repository, from its work tree. */
static int docs_in_repo(struct qu_buf *out, const char *dir, struct qu_buf *err)
{
	struct qu_buf wd = QU_BUF_INIT, real = QU_BUF_INIT, top = QU_BUF_INIT;
	int r = -1;

	if (qu_git_workdir(&wd, dir) != 0 ||
	    qu_files_real(NULL, &top, wd.buf) ||
	    qu_files_real(NULL, &real, dir)) {
		qu_buf_addf(err,
			    "%s: versions: need a folder of a git work "
			    "tree",
			    dir);
		goto out;
	}
	qu_buf_reset(out);
	if (!strcmp(real.buf, top.buf))
		qu_buf_adds(out, ".");
	else
		qu_buf_adds(out, real.buf + top.len + 1);
	r = 0;
out:
	qu_buf_fini(&wd);
	qu_buf_fini(&real);
	qu_buf_fini(&top);
	return r;
}

/* OUT/versions.json: the versions in order, which is the latest. */
static int write_json(const char *out, const struct qu_config *c, size_t latest,
		      struct qu_buf *err)
{
	struct qu_buf j = QU_BUF_INIT, p = QU_BUF_INIT;
	size_t i;
	int r;

	qu_buf_adds(&j, "{\"latest\": ");
	qu_buf_add_json_str(&j, c->versions[latest].label,
			    strlen(c->versions[latest].label));
	qu_buf_adds(&j, ", \"versions\": [");
	for (i = 0; i < c->nversions; i++) {
		const struct qu_version *v = &c->versions[i];

		qu_buf_adds(&j, i ? ",\n  {\"label\": " : "\n  {\"label\": ");
		qu_buf_add_json_str(&j, v->label, strlen(v->label));
		qu_buf_adds(&j, ", \"rev\": ");
		qu_buf_add_json_str(&j, v->rev, strlen(v->rev));
		qu_buf_addf(&j, ", \"latest\": %s, \"prerelease\": %s}",
			    i == latest ? "true" : "false",
			    v->prerelease ? "true" : "false");
	}
	qu_buf_adds(&j, "\n]}\n");
	qu_buf_addf(&p, "%s/versions.json", out);
	r = qu_file_write_atomic(p.buf, j.buf, j.len, err);
	/* the labels hold only [A-Za-z0-9._-] (lib/site checks) */
	qu_buf_reset(&j);
	qu_buf_addf(&j,
		    "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
		    "<meta http-equiv=\"refresh\" content=\"0; "
		    "url=%s/index.html\"><title>%s</title></head>\n<body><a "
		    "href=\"%s/index.html\">%s</a></body></html>\n",
		    c->versions[latest].label, c->versions[latest].label,
		    c->versions[latest].label, c->versions[latest].label);
	qu_buf_reset(&p);
	qu_buf_addf(&p, "%s/index.html", out);
	if (!r)
		r = qu_file_write_atomic(p.buf, j.buf, j.len, err);
	qu_buf_fini(&j);
	qu_buf_fini(&p);
	return r;
}

int qu_build_versions(const struct qu_build_opts *o, struct qu_diags *diags,
		      struct qu_buf *err)
{
	struct qu_config c = {0};
	struct qu_diags cd;
	struct qu_buf text = QU_BUF_INIT, p = QU_BUF_INIT, rel = QU_BUF_INIT;
	struct qu_render_version *vers = NULL;
	char ***pages = NULL, **caches = NULL, **outs = NULL;
	char *out_abs = NULL, *dir_abs = NULL;
	size_t latest = SIZE_MAX, i, k;
	int r = 1;

	qu_diags_init(&cd);
	if (o->rev || !o->out)
		goto done;
	qu_buf_addf(&p, "%s/quire.yml", o->dir);
	if (qu_file_read(&text, p.buf, err) < 0 ||
	    qu_site_config_parse(&c, &cd, p.buf, text.buf, text.len) < 0 ||
	    !c.nversions) {
		/* the usual build reads and reports it */
		qu_buf_reset(err);
		goto done;
	}
	r = -1;
	for (i = 0; i < c.nversions && latest == SIZE_MAX; i++)
		if (c.versions[i].latest)
			latest = i;
	for (i = 0; i < c.nversions && latest == SIZE_MAX; i++)
		if (!c.versions[i].prerelease)
			latest = i;
	if (latest == SIZE_MAX) {
		qu_buf_addf(err,
			    "%s: versions: none is a release to be the "
			    "latest",
			    p.buf);
		goto done;
	}
	if (o->repo)
		qu_buf_adds(&rel, o->dir);
	else if (docs_in_repo(&rel, o->dir, err) < 0)
		goto done;
	out_abs = qu_path_resolve(o->out);
	dir_abs = qu_path_resolve(o->dir);
	{
		const char *in[] = {dir_abs}, *shown[] = {o->dir};

		if (qu_owned_check(out_abs, o->out, QU_SITE_MARKER, in, 1,
				   shown, err) < 0 ||
		    qu_mkdir_p(out_abs, err) < 0)
			goto done;
		qu_buf_reset(&p);
		qu_buf_addf(&p, "%s/%s", out_abs, QU_SITE_MARKER);
		qu_buf_reset(&text);
		qu_buf_addf(&text, "%s %d\n", QU_SITE_MARKER + 1,
			    QU_OUT_FORMAT);
		if (qu_file_write_atomic(p.buf, text.buf, text.len, err) < 0)
			goto done;
	}
	vers = qu_xcalloc(c.nversions, sizeof(*vers));
	pages = qu_xcalloc(c.nversions, sizeof(*pages));
	caches = qu_xcalloc(c.nversions, sizeof(*caches));
	outs = qu_xcalloc(c.nversions, sizeof(*outs));
	/* the pages of every version first, for the switcher's links */
	for (i = 0; i < c.nversions; i++) {
		struct qu_build_opts vo = *o;
		struct qu_build *b = NULL;
		const struct qu_site *s;

		vers[i].label = c.versions[i].label;
		vo.rev = c.versions[i].rev;
		vo.repo = o->repo ? o->repo : o->dir;
		vo.dir = rel.buf;
		vo.out = NULL;
		vo.quiet = true;
		if (qu_build_new(&b, &vo, err) < 0) {
			qu_build_diags(diags, b);
			qu_build_free(b);
			if (!err->len)
				qu_buf_addf(err,
					    "version %s: broken "
					    "configuration",
					    vers[i].label);
			goto done;
		}
		s = qu_build_site(b);
		if (!s->zero_config && s->npages) {
			pages[i] = qu_xcalloc(s->npages, sizeof(char *));
			for (k = 0; k < s->npages; k++)
				pages[i][k] = qu_xstrdup(s->pages[k].out);
			qsort(pages[i], s->npages, sizeof(char *), cmp_str);
			vers[i].pages = (const char *const *)pages[i];
			vers[i].npages = s->npages;
		}
		qu_build_free(b);
	}
	for (i = 0; i < c.nversions; i++) {
		struct qu_build_opts vo = *o;
		struct qu_build *b = NULL;
		int e;

		qu_buf_reset(&p);
		qu_buf_addf(&p, "%s/%s", o->out, vers[i].label);
		outs[i] = qu_buf_detach(&p, NULL);
		vo.rev = c.versions[i].rev;
		vo.repo = o->repo ? o->repo : o->dir;
		vo.dir = rel.buf;
		vo.out = outs[i];
		if (o->cache) {
			qu_buf_addf(&p, "%s/%s", o->cache, vers[i].label);
			caches[i] = qu_buf_detach(&p, NULL);
			vo.cache = caches[i];
		} else {
			/* a cache beside OUT/<label> would be in the site */
			vo.no_cache = true;
		}
		vo.versions = vers;
		vo.nversions = c.nversions;
		vo.version_cur = i;
		vo.version_latest = latest;
		e = qu_build_new(&b, &vo, err);
		if (!e) {
			qu_build_link(b);
			e = qu_build_write(b, err);
		}
		qu_build_diags(diags, b);
		qu_build_free(b);
		if (e < 0) {
			if (!err->len)
				qu_buf_addf(err,
					    "version %s: broken "
					    "configuration",
					    vers[i].label);
			goto done;
		}
	}
	r = write_json(out_abs, &c, latest, err) < 0 ? -1 : 0;
done:
	for (i = 0; pages && i < c.nversions; i++) {
		for (k = 0; pages[i] && k < vers[i].npages; k++)
			free(pages[i][k]);
		free(pages[i]);
		free(caches[i]);
		free(outs[i]);
	}
	free(pages);
	free(caches);
	free(outs);
	free(vers);
	free(out_abs);
	free(dir_abs);
	qu_diags_fini(&cd);
	qu_config_fini(&c);
	qu_buf_fini(&text);
	qu_buf_fini(&p);
	qu_buf_fini(&rel);
	return r;
}
