// SPDX-License-Identifier: MIT
/*
 * tree.c - read a revision's files from the object database (git stage)
 *
 * No work tree is touched: a revision is a commit's tree, its files are
 * blobs, and a blob's id is the content key a cache needs. Links are
 * followed inside the tree only.
 */
#include <stdlib.h>
#include <string.h>

#include "git/git_int.h"

/* links to links to links: git itself gives up after 40, we sooner */
#define MAX_LINKS 16

void git_error_to(struct qu_buf *err, const char *what, const char *arg)
{
	const git_error *e = git_error_last();

	if (!err)
		return;
	qu_buf_reset(err);
	qu_buf_addf(err, "%s%s%s%s: %s", what, arg ? " '" : "",
		    arg ? arg : "", arg ? "'" : "",
		    e && e->message ? e->message : "unknown libgit2 error");
}

static int open_at(struct qu_git_tree *t, const char *rev,
		   struct qu_buf *err)
{
	git_object *obj = NULL, *peeled = NULL;
	git_commit *c = NULL;
	int error;

	if ((error = git_revparse_single(&obj, t->repo, rev)) < 0) {
		git_error_to(err, "unknown revision", rev);
		goto out;
	}
	if ((error = git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT)) < 0) {
		git_error_to(err, "not a commit", rev);
		goto out;
	}
	c = (git_commit *)peeled;
	git_oid_cpy(&t->commit, git_commit_id(c));
	git_oid_tostr(t->hex, sizeof(t->hex), &t->commit);
	if ((error = git_commit_tree(&t->tree, c)) < 0)
		git_error_to(err, "cannot read the tree of", t->hex);
out:
	git_object_free(peeled);
	git_object_free(obj);
	return error < 0 ? -1 : 0;
}

/*
 * The branch @rev names as it is (HEAD: the branch checked out), or NULL
 * for a tag, a commit, an expression such as main~1 or a detached HEAD:
 * a branch of origin counts under its own name (origin/HEAD as the
 * branch it points at).
 */
static char *branch_of(git_repository *repo, const char *rev)
{
	git_reference *ref = NULL, *res = NULL;
	const char *name = NULL;
	char *r = NULL;

	if (git_reference_dwim(&ref, repo, rev) < 0)
		return NULL;
	if (git_reference_type(ref) != GIT_REFERENCE_SYMBOLIC)
		name = git_reference_name(ref);
	else if (git_reference_resolve(&res, ref) == 0)
		name = git_reference_name(res);
	if (name && !strncmp(name, "refs/heads/", 11))
		r = strdup(name + 11);
	else if (name && !strncmp(name, "refs/remotes/origin/", 20) &&
		 strcmp(name + 20, "HEAD"))
		r = strdup(name + 20);
	git_reference_free(res);
	git_reference_free(ref);
	return r;
}

int qu_git_tree_open(struct qu_git_tree **out, const char *repo_path,
		     const char *rev, struct qu_buf *err)
{
	struct qu_git_tree *t = calloc(1, sizeof(*t));
	int error;

	*out = NULL;
	if (!t)
		abort();
	if (!git_may_hold(repo_path)) {
		error = 1;
		goto out;
	}
	if (git_start(GIT_NEED_REV, err) < 0) {
		error = -1;
		goto out;
	}
	error = git_repository_open_ext(&t->repo, repo_path, 0,
					getenv("GIT_CEILING_DIRECTORIES"));
	if (error == GIT_ENOTFOUND) {
		error = 1;
		goto out;
	}
	if (error < 0) {
		git_error_to(err, "cannot open the repository", repo_path);
		goto out;
	}
	t->path = strdup(git_repository_path(t->repo));
	if ((error = open_at(t, rev ? rev : "HEAD", err)) < 0)
		goto out;
	{
		struct qu_buf objects = QU_BUF_INIT;

		qu_buf_adds(&objects, git_repository_commondir(t->repo));
		qu_buf_adds(&objects, "objects");
		t->packs = git_packs_open(objects.buf);
		qu_buf_fini(&objects);
	}
	t->branch = branch_of(t->repo, rev ? rev : "HEAD");
	*out = t;
	return 0;
out:
	qu_git_tree_free(t);
	return error < 0 ? -1 : error;
}

int qu_git_tree_dup(struct qu_git_tree **out, const struct qu_git_tree *t,
		    struct qu_buf *err)
{
	struct qu_git_tree *d = calloc(1, sizeof(*d));
	git_commit *c = NULL;
	int error;

	*out = NULL;
	if (!d)
		abort();
	if ((error = git_repository_open(&d->repo, t->path)) < 0) {
		git_error_to(err, "cannot open the repository", t->path);
		goto out;
	}
	d->path = strdup(t->path);
	d->packs = git_packs_share(t->packs);
	d->branch = t->branch ? strdup(t->branch) : NULL;
	d->commit = t->commit;
	memcpy(d->hex, t->hex, sizeof(d->hex));
	if ((error = git_commit_lookup(&c, d->repo, &d->commit)) < 0 ||
	    (error = git_commit_tree(&d->tree, c)) < 0) {
		git_error_to(err, "cannot read", d->hex);
		goto out;
	}
	git_commit_free(c);
	*out = d;
	return 0;
out:
	git_commit_free(c);
	qu_git_tree_free(d);
	return -1;
}

void qu_git_tree_free(struct qu_git_tree *t)
{
	if (!t)
		return;
	git_packs_free(t->packs);
	/*
	 * A revision that failed to open may have found no libgit2 to load:
	 * what holds nothing of libgit2 calls nothing of it.
	 */
	if (t->tree)
		git_tree_free(t->tree);
	if (t->repo)
		git_repository_free(t->repo);
	free(t->path);
	free(t->branch);
	free(t);
}

const char *qu_git_tree_commit(const struct qu_git_tree *t)
{
	return t->hex;
}

bool qu_git_tree_is_bare(const struct qu_git_tree *t)
{
	return git_repository_is_bare(t->repo);
}

int64_t qu_git_tree_time(struct qu_git_tree *t)
{
	git_commit *c = NULL;
	int64_t r = 0;

	if (git_commit_lookup(&c, t->repo, &t->commit) == 0)
		r = (int64_t)git_commit_time(c);
	git_commit_free(c);
	return r;
}

const char *qu_git_tree_gitdir(const struct qu_git_tree *t)
{
	return t->path;
}

const char *qu_git_tree_branch(const struct qu_git_tree *t)
{
	return t->branch;
}

/*
 * Join a link's folder and its target into a path from the root,
 * resolving "." and ".."; false when the target leaves the tree or is
 * absolute.
 */
static bool link_join(struct qu_buf *out, const char *dir, size_t dlen,
		      const char *target, size_t tlen)
{
	const char *p, *end = target + tlen;

	if (tlen == 0 || target[0] == '/' || memchr(target, '\0', tlen))
		return false;
	qu_buf_reset(out);
	qu_buf_add(out, dir, dlen);
	for (p = target; p < end;) {
		const char *q = memchr(p, '/', (size_t)(end - p));
		size_t n = (q ? q : end) - p;

		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* "a//b" and "./" add nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *s;

			if (out->len == 0)
				return false;
			s = memrchr(out->buf, '/', out->len);
			out->len = s ? (size_t)(s - out->buf) : 0;
			out->buf[out->len] = '\0';
		} else {
			if (out->len)
				qu_buf_addc(out, '/');
			qu_buf_add(out, p, n);
		}
		p += n + (q != NULL);
	}
	return out->len > 0;
}

/*
 * Follow @path through links to a blob of the tree. Returns 0 with the
 * entry (the caller frees it) and the final path in @final, 1 when the
 * path leads nowhere, -1 on a read error.
 */
static int resolve(git_tree_entry **out, struct qu_buf *final,
		   struct qu_git_tree *t, const char *path, struct qu_buf *err)
{
	struct qu_buf next = QU_BUF_INIT;
	git_tree_entry *e = NULL;
	git_blob *b = NULL;
	int error = 0, hops;

	*out = NULL;
	qu_buf_reset(final);
	qu_buf_adds(final, path);
	for (hops = 0;; hops++) {
		const char *slash;

		error = git_tree_entry_bypath(&e, t->tree, final->buf);
		if (error == GIT_ENOTFOUND) {
			error = 1;
			goto out;
		}
		if (error < 0) {
			git_error_to(err, "cannot read", final->buf);
			goto out;
		}
		if (git_tree_entry_filemode(e) != GIT_FILEMODE_LINK)
			break;
		if (hops == MAX_LINKS) {
			error = 1;
			goto out;
		}
		if ((error = git_blob_lookup(&b, t->repo,
					     git_tree_entry_id(e))) < 0) {
			git_error_to(err, "cannot read the link", final->buf);
			goto out;
		}
		slash = strrchr(final->buf, '/');
		if (!link_join(&next, final->buf,
			       slash ? (size_t)(slash - final->buf) : 0,
			       git_blob_rawcontent(b),
			       (size_t)git_blob_rawsize(b))) {
			error = 1;
			goto out;
		}
		git_blob_free(b);
		b = NULL;
		git_tree_entry_free(e);
		e = NULL;
		qu_buf_reset(final);
		qu_buf_add(final, next.buf, next.len);
	}
	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB) {
		error = 1;
		goto out;
	}
	*out = e;
	e = NULL;
	error = 0;
out:
	git_blob_free(b);
	git_tree_entry_free(e);
	qu_buf_fini(&next);
	return error;
}

struct list {
	struct qu_git_file *v;
	size_t n, cap;
	const char *prefix;	/* the folder, with a slash, or "" */
	struct qu_buf path;
};

static int list_cb(const char *root, const git_tree_entry *e, void *payload)
{
	struct list *l = payload;
	git_filemode_t mode = git_tree_entry_filemode(e);
	struct qu_git_file *f;

	if (git_tree_entry_type(e) == GIT_OBJECT_TREE)
		return 0;
	if (mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE &&
	    mode != GIT_FILEMODE_LINK)
		return 0;	/* a submodule */
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			abort();
	}
	f = &l->v[l->n++];
	memset(f, 0, sizeof(*f));
	qu_buf_reset(&l->path);
	qu_buf_adds(&l->path, l->prefix);
	qu_buf_adds(&l->path, root);
	qu_buf_adds(&l->path, git_tree_entry_name(e));
	f->path = strdup(l->path.buf);
	f->mode = mode;
	memcpy(f->oid, git_tree_entry_id(e)->id, 20);
	git_oid_tostr(f->hex, sizeof(f->hex), git_tree_entry_id(e));
	return 0;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct qu_git_file *)a)->path,
		      ((const struct qu_git_file *)b)->path);
}

int git_tree_files(struct qu_git_file **out, size_t *n_out,
		   struct qu_git_tree *t, const char *folder, bool links,
		   struct qu_buf *err)
{
	struct list l = {.prefix = ""};
	struct qu_buf pre = QU_BUF_INIT, final = QU_BUF_INIT;
	git_tree_entry *fe = NULL;
	git_tree *sub = NULL;
	const git_tree *from = t->tree;
	size_t i, keep;
	int error = 0;

	*out = NULL;
	*n_out = 0;
	qu_buf_init(&l.path);
	if (folder) {
		size_t len = strlen(folder);

		while (len && folder[len - 1] == '/')
			len--;
		qu_buf_add(&pre, folder, len);
	}
	if (pre.len) {
		error = git_tree_entry_bypath(&fe, t->tree, pre.buf);
		if (error == GIT_ENOTFOUND ||
		    (!error && git_tree_entry_type(fe) != GIT_OBJECT_TREE)) {
			error = 1;
			goto out;
		}
		if (error < 0 || (error = git_tree_lookup(&sub, t->repo,
						git_tree_entry_id(fe))) < 0) {
			git_error_to(err, "cannot read", pre.buf);
			goto out;
		}
		from = sub;
		qu_buf_addc(&pre, '/');
		l.prefix = pre.buf;
	}
	if ((error = git_tree_walk(from, GIT_TREEWALK_PRE, list_cb, &l)) < 0) {
		git_error_to(err, "cannot walk the tree of", t->hex);
		goto out;
	}
	/* links: keep those that lead to a file, and say which */
	for (i = keep = 0; i < l.n; i++) {
		struct qu_git_file *f = &l.v[i];

		if (links && f->mode == GIT_FILEMODE_LINK) {
			git_tree_entry *e;

			error = resolve(&e, &final, t, f->path, err);
			if (error < 0)
				goto out;
			if (error == 1) {
				free(f->path);
				continue;
			}
			git_tree_entry_free(e);
			f->target = strdup(final.buf);
		}
		l.v[keep++] = *f;
	}
	l.n = keep;
	qsort(l.v, l.n, sizeof(*l.v), by_path);
	*out = l.v;
	*n_out = l.n;
	l.v = NULL;
	l.n = 0;
	error = 0;
out:
	qu_git_files_free(l.v, l.n);
	git_tree_free(sub);
	git_tree_entry_free(fe);
	qu_buf_fini(&l.path);
	qu_buf_fini(&pre);
	qu_buf_fini(&final);
	return error;
}

int qu_git_tree_list(struct qu_git_file **out, size_t *n_out,
		     struct qu_git_tree *t, const char *folder,
		     struct qu_buf *err)
{
	return git_tree_files(out, n_out, t, folder, true, err);
}

void qu_git_files_free(struct qu_git_file *files, size_t n)
{
	size_t i;

	for (i = 0; files && i < n; i++) {
		free(files[i].path);
		free(files[i].target);
	}
	free(files);
}

int qu_git_tree_read(struct qu_buf *out, struct qu_git_tree *t,
		     const char *path, struct qu_buf *err)
{
	struct qu_buf final = QU_BUF_INIT;
	git_tree_entry *e = NULL;
	int error;

	qu_buf_reset(out);
	error = resolve(&e, &final, t, path, err);
	if (error == 1) {
		qu_buf_reset(err);
		qu_buf_addf(err, "no file '%s' in %s", path, t->hex);
	}
	if (!error)
		error = qu_git_tree_read_blob(out, t,
					      git_tree_entry_id(e)->id, path,
					      err);
	git_tree_entry_free(e);
	qu_buf_fini(&final);
	return error < 0 ? -1 : error;
}

int qu_git_tree_read_blob(struct qu_buf *out, struct qu_git_tree *t,
			  const unsigned char oid[20], const char *path,
			  struct qu_buf *err)
{
	git_blob *b = NULL;
	git_oid id;
	int type;

	if (git_packs_read(out, &type, t->packs, oid) == 0 &&
	    type == GIT_OBJECT_BLOB)
		return 0;
	qu_buf_reset(out);
	git_oid_fromraw(&id, oid);
	if (git_blob_lookup(&b, t->repo, &id) < 0) {
		git_error_to(err, "cannot read", path);
		return -1;
	}
	qu_buf_add(out, git_blob_rawcontent(b), (size_t)git_blob_rawsize(b));
	git_blob_free(b);
	return 0;
}

int qu_git_describe_rev(struct qu_buf *out, struct qu_git_tree *t,
			struct qu_buf *err)
{
	git_describe_options opts;
	git_describe_format_options fmt;
	git_describe_result *res = NULL;
	git_object *obj = NULL;
	git_buf b = {0};
	int error;

	if ((error = git_describe_options_init(&opts,
				GIT_DESCRIBE_OPTIONS_VERSION)) < 0 ||
	    (error = git_describe_format_options_init(&fmt,
				GIT_DESCRIBE_FORMAT_OPTIONS_VERSION)) < 0)
		goto out;
	opts.describe_strategy = GIT_DESCRIBE_TAGS;
	opts.show_commit_oid_as_fallback = 1;
	if ((error = git_object_lookup(&obj, t->repo, &t->commit,
				       GIT_OBJECT_COMMIT)) < 0 ||
	    (error = git_describe_commit(&res, obj, &opts)) < 0 ||
	    (error = git_describe_format(&b, res, &fmt)) < 0)
		goto out;
	qu_buf_reset(out);
	qu_buf_add(out, b.ptr, b.size);
out:
	if (error < 0)
		git_error_to(err, "cannot describe", t->hex);
	git_buf_dispose(&b);
	git_describe_result_free(res);
	git_object_free(obj);
	return error < 0 ? -1 : 0;
}
