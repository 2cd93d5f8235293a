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
#include <unistd.h>
#include <xxhash.h>

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
		qu_buf_addf(err, "%s: versions: ", dir);
		if (!qu_git_missing(err))
			qu_buf_adds(err, "need a folder of a git work tree");
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

/* OUT/.quire-versions: the key each version's folder was built from. */
#define KEYS_FILE ".quire-versions"
#define LATEST "latest"

struct keys {
	char **label;
	uint64_t *key;
	size_t n;
};

static void keys_add(struct keys *k, const char *label, uint64_t key)
{
	k->label = qu_xrealloc(k->label, (k->n + 1) * sizeof(*k->label));
	k->key = qu_xrealloc(k->key, (k->n + 1) * sizeof(*k->key));
	k->label[k->n] = qu_xstrdup(label);
	k->key[k->n++] = key;
}

static void keys_fini(struct keys *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free(k->label[i]);
	free(k->label);
	free(k->key);
}

/* The key @label was built from, or false when none is known. */
static bool keys_get(uint64_t *out, const struct keys *k, const char *label)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (!strcmp(k->label[i], label)) {
			*out = k->key[i];
			return true;
		}
	return false;
}

/* A missing or damaged file is no key at all: every version is built. */
static void keys_read(struct keys *out, const char *dir)
{
	struct qu_buf p = QU_BUF_INIT, text = QU_BUF_INIT, e = QU_BUF_INIT;
	char *line, *save = NULL, label[80];
	unsigned long long key;
	int n;

	qu_buf_add_path(&p, dir, KEYS_FILE);
	if (qu_file_read(&text, p.buf, &e) == 0 &&
	    !strncmp(text.buf, &KEYS_FILE[1], strlen(&KEYS_FILE[1]))) {
		line = strtok_r(text.buf, "\n", &save);
		while ((line = strtok_r(NULL, "\n", &save)))
			/* a label that is no folder of OUT is never pruned */
			if (sscanf(line, "%79s %16llx%n", label, &key, &n) ==
				    2 &&
			    !line[n] &&
			    (qu_site_label_is_ok(label) ||
			     !strcmp(label, LATEST)))
				keys_add(out, label, (uint64_t)key);
	}
	qu_buf_fini(&p);
	qu_buf_fini(&text);
	qu_buf_fini(&e);
}

static int keys_write(const struct keys *k, const char *dir, struct qu_buf *err)
{
	struct qu_buf p = QU_BUF_INIT, text = QU_BUF_INIT;
	size_t i;
	int r;

	qu_buf_addf(&text, "%s %d\n", &KEYS_FILE[1], QU_OUT_FORMAT);
	for (i = 0; i < k->n; i++)
		qu_buf_addf(&text, "%s %016llx\n", k->label[i],
			    (unsigned long long)k->key[i]);
	qu_buf_add_path(&p, dir, KEYS_FILE);
	r = qu_file_write_atomic(p.buf, text.buf, text.len, err);
	qu_buf_fini(&p);
	qu_buf_fini(&text);
	return r;
}

/* Whether OUT/@name is a site quire wrote (it carries the marker). */
static bool is_site(const char *out, const char *name)
{
	struct qu_buf p = QU_BUF_INIT;
	struct qu_fstat st;
	bool r;

	qu_buf_addf(&p, "%s/%s/%s", out, name, QU_SITE_MARKER);
	r = !qu_files_stat(NULL, &st, p.buf, false) && st.kind == QU_FK_FILE;
	qu_buf_fini(&p);
	return r;
}

/*
 * The key of version @i's folder: its revision's site key (@base) and
 * what its switcher and banner show, the labels and pages of every
 * version and which is the latest.
 */
static uint64_t version_key(uint64_t base, const struct qu_config *c,
			    const struct qu_render_version *vers, size_t i,
			    size_t latest)
{
	XXH3_state_t *h = XXH3_createState();
	uint64_t v[4] = {base, i, latest, c->nversions}, r;
	size_t k, m;

	XXH3_64bits_reset(h);
	XXH3_64bits_update(h, v, sizeof(v));
	for (k = 0; k < c->nversions; k++) {
		XXH3_64bits_update(h, vers[k].label, strlen(vers[k].label) + 1);
		XXH3_64bits_update(h, &c->versions[k].prerelease,
				   sizeof(c->versions[k].prerelease));
		for (m = 0; m < vers[k].npages; m++)
			XXH3_64bits_update(h, vers[k].pages[m],
					   strlen(vers[k].pages[m]) + 1);
		XXH3_64bits_update(h, &vers[k].npages, sizeof(vers[k].npages));
	}
	r = XXH3_64bits_digest(h);
	XXH3_freeState(h);
	return r;
}

/*
 * OUT/latest/: a copy of the latest version's folder, written aside and
 * swapped in as every site is. A copy rather than a symbolic link or
 * redirects: static hosts often serve no symbolic links, and a redirect
 * page per page would be one more hop and no site of its own (no
 * search). Its files are hard links to the latest's: no space taken,
 * and to a reader or an upload they are plain files.
 */
static int write_latest(const char *out, const char *label, const char *dir,
			struct qu_buf *err)
{
	struct qu_buf from = QU_BUF_INIT, to = QU_BUF_INIT;
	const char *in[] = {dir}, *shown[] = {"the docs folder"};
	struct qu_out o;
	int r = -1;

	qu_buf_add_path(&from, out, label);
	qu_buf_add_path(&to, out, LATEST);
	memset(&o, 0, sizeof(o));
	if (qu_owned_check(to.buf, to.buf, QU_SITE_MARKER, in, 1, shown, err) <
		    0 ||
	    qu_out_begin(&o, to.buf, NULL, err) < 0)
		goto out;
	/* the latest's own marker comes with its files */
	qu_buf_reset(&to);
	qu_buf_add_path(&to, o.tmp, QU_SITE_MARKER);
	if (unlink(to.buf) < 0 || build_link_tree(from.buf, o.tmp, NULL) < 0) {
		qu_buf_addf(err, "cannot link %s into %s: %s", from.buf, o.tmp,
			    strerror(errno));
		goto out;
	}
	if (qu_out_commit(&o, err) < 0)
		goto out;
	r = 0;
out:
	qu_out_fini(&o);
	qu_buf_fini(&from);
	qu_buf_fini(&to);
	return r;
}

/* One version to build: its options, and what the build gives back. */
struct vtask {
	struct qu_build_opts o;
	struct qu_diags diags;
	struct qu_arena paths;
	struct qu_buf err;
	int rc;
};

/*
 * A build's diagnostics, their paths copied into @a: the paths are the
 * build's, and the build is freed before anyone prints them.
 */
static void take_diags(struct qu_diags *to, struct qu_arena *a,
		       struct qu_build *b)
{
	size_t i = to->n;

	qu_build_diags(to, b);
	for (; i < to->n; i++)
		to->v[i].path = qu_arena_strdup(a, to->v[i].path);
}

void qu_build_vstats_fini(struct qu_build_vstats *st)
{
	qu_arena_fini(&st->paths);
}

static void build_one(struct qu_job *job, size_t i, void *payload)
{
	struct vtask *t = (struct vtask *)payload + i;
	struct qu_build *b = NULL;

	(void)job;
	t->rc = qu_build_new(&b, &t->o, &t->err);
	if (!t->rc) {
		qu_build_link(b);
		t->rc = qu_build_write(b, &t->err);
	}
	take_diags(&t->diags, &t->paths, b);
	qu_build_free(b);
}

/*
 * Remove the folders of versions built before (OUT/.quire-versions names
 * them) that versions: no longer lists, when they carry the marker.
 */
static size_t prune(const char *out, const struct keys *old,
		    const struct qu_config *c)
{
	struct qu_buf p = QU_BUF_INIT;
	size_t i, k, n = 0;

	for (i = 0; i < old->n; i++) {
		for (k = 0; k < c->nversions; k++)
			if (!strcmp(c->versions[k].label, old->label[i]))
				break;
		if (k < c->nversions || !strcmp(old->label[i], LATEST) ||
		    !is_site(out, old->label[i]))
			continue;
		qu_buf_reset(&p);
		qu_buf_add_path(&p, out, old->label[i]);
		n += qu_rm_tree(p.buf) == 0;
	}
	qu_buf_fini(&p);
	return n;
}

int qu_build_versions(struct qu_build_vstats *st_out,
		      const struct qu_build_opts *o, struct qu_diags *diags,
		      struct qu_buf *err)
{
	struct qu_config c = {0};
	struct qu_diags cd;
	struct qu_buf text = QU_BUF_INIT, p = QU_BUF_INIT, rel = QU_BUF_INIT;
	struct qu_render_version *vers = NULL;
	struct keys old = {0}, now = {0};
	struct vtask *tasks = NULL;
	char ***pages = NULL, **caches = NULL, **outs = NULL;
	char *out_abs = NULL, *dir_abs = NULL;
	uint64_t *keys = NULL, k0 = 0;
	size_t latest = SIZE_MAX, i, k, ntodo = 0, *todo = NULL;
	unsigned threads, workers;
	int r = 1;

	memset(st_out, 0, sizeof(*st_out));
	qu_arena_init(&st_out->paths);
	qu_diags_init(&cd);
	if (o->rev || !o->out)
		goto done;
	if (o->versions_file)
		qu_buf_adds(&p, o->versions_file);
	else
		qu_buf_addf(&p, "%s/quire.yml", o->dir);
	if (qu_file_read(&text, p.buf, err) < 0 ||
	    qu_site_config_parse(&c, &cd, p.buf, text.buf, text.len) < 0 ||
	    !c.nversions) {
		/* the usual build reads and reports quire.yml; not this */
		if (o->versions_file) {
			qu_diags_move(diags, &cd);
			if (!err->len)
				qu_buf_addf(err, "%s: lists no versions",
					    p.buf);
			r = -1;
		} else {
			qu_buf_reset(err);
		}
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
		qu_buf_add_path(&p, out_abs, QU_SITE_MARKER);
		qu_buf_reset(&text);
		qu_buf_addf(&text, "%s %d\n", &QU_SITE_MARKER[1],
			    QU_OUT_FORMAT);
		if (qu_file_write_atomic(p.buf, text.buf, text.len, err) < 0)
			goto done;
	}
	vers = qu_xcalloc(c.nversions, sizeof(*vers));
	pages = qu_xcalloc(c.nversions, sizeof(*pages));
	caches = qu_xcalloc(c.nversions, sizeof(*caches));
	outs = qu_xcalloc(c.nversions, sizeof(*outs));
	keys = qu_xcalloc(c.nversions, sizeof(*keys));
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
			take_diags(diags, &st_out->paths, b);
			qu_build_free(b);
			if (!err->len)
				qu_buf_addf(err,
					    "version %s: broken "
					    "configuration",
					    vers[i].label);
			goto done;
		}
		s = qu_build_site(b);
		keys[i] = build_output_key(b);
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
	keys_read(&old, out_abs);
	st_out->npruned = prune(out_abs, &old, &c);
	todo = qu_xcalloc(c.nversions, sizeof(*todo));
	for (i = 0; i < c.nversions; i++) {
		keys[i] = version_key(keys[i], &c, vers, i, latest);
		if (keys_get(&k0, &old, vers[i].label) && k0 == keys[i] &&
		    is_site(out_abs, vers[i].label))
			st_out->nkept++;
		else
			todo[ntodo++] = i;
	}
	/* the versions to build share the threads: one version a worker */
	threads = o->threads ? o->threads : qu_ncpus();
	workers = ntodo < threads ? (unsigned)ntodo : threads;
	tasks = qu_xcalloc(ntodo ? ntodo : 1, sizeof(*tasks));
	for (k = 0; k < ntodo; k++) {
		struct qu_build_opts *vo = &tasks[k].o;

		i = todo[k];
		*vo = *o;
		qu_diags_init(&tasks[k].diags);
		qu_arena_init(&tasks[k].paths);
		qu_buf_init(&tasks[k].err);
		qu_buf_reset(&p);
		qu_buf_add_path(&p, o->out, vers[i].label);
		outs[i] = qu_buf_detach(&p, NULL);
		vo->rev = c.versions[i].rev;
		vo->repo = o->repo ? o->repo : o->dir;
		vo->dir = rel.buf;
		vo->out = outs[i];
		vo->threads = workers ? threads / workers : 1;
		/* progress lines of builds side by side would mix */
		vo->quiet = o->quiet || workers > 1;
		if (o->cache) {
			qu_buf_add_path(&p, o->cache, vers[i].label);
			caches[i] = qu_buf_detach(&p, NULL);
			vo->cache = caches[i];
		} else {
			/* a cache beside OUT/<label> would be in the site */
			vo->no_cache = true;
		}
		vo->versions = vers;
		vo->nversions = c.nversions;
		vo->version_cur = i;
		vo->version_latest = latest;
	}
	if (ntodo)
		qu_pool_run(workers, ntodo, build_one, tasks);
	/* in the order of versions:, whatever order they finished in */
	r = 0;
	for (k = 0; k < ntodo; k++) {
		size_t d = diags->n;

		qu_diags_move(diags, &tasks[k].diags);
		for (; d < diags->n; d++)
			diags->v[d].path = qu_arena_strdup(&st_out->paths,
							   diags->v[d].path);
		if (tasks[k].rc < 0 && !r) {
			r = -1;
			if (tasks[k].err.len)
				qu_buf_adds(err, tasks[k].err.buf);
			else
				qu_buf_addf(err,
					    "version %s: broken "
					    "configuration",
					    vers[todo[k]].label);
		}
	}
	/* a version that failed keeps its last folder, and that one's key */
	for (i = 0, k = 0; i < c.nversions; i++) {
		bool built = k < ntodo && todo[k] == i;

		if (built && tasks[k].rc < 0) {
			if (keys_get(&k0, &old, vers[i].label))
				keys_add(&now, vers[i].label, k0);
		} else {
			keys_add(&now, vers[i].label, keys[i]);
			st_out->nbuilt += built;
		}
		k += built;
	}
	if (!r && (!keys_get(&k0, &old, LATEST) || k0 != keys[latest] ||
		   !is_site(out_abs, LATEST))) {
		r = write_latest(out_abs, vers[latest].label, dir_abs, err);
		st_out->latest_copied = !r;
	}
	if (!r || keys_get(&k0, &old, LATEST))
		keys_add(&now, LATEST, r ? k0 : keys[latest]);
	/* after a failure, err holds its reason: this one would be second */
	if (keys_write(&now, out_abs, r ? &text : err) < 0)
		r = -1;
	if (!r)
		r = write_json(out_abs, &c, latest, err) < 0 ? -1 : 0;
done:
	for (k = 0; k < ntodo; k++) {
		qu_diags_fini(&tasks[k].diags);
		qu_arena_fini(&tasks[k].paths);
		qu_buf_fini(&tasks[k].err);
	}
	free(tasks);
	free(todo);
	for (i = 0; pages && i < c.nversions; i++) {
		for (k = 0; pages[i] && k < vers[i].npages; k++)
			free(pages[i][k]);
		free(pages[i]);
		free(caches[i]);
		free(outs[i]);
	}
	keys_fini(&old);
	keys_fini(&now);
	free(keys);
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
