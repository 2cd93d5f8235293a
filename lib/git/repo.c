// SPDX-License-Identifier: MIT
/*
 * repo.c - load libgit2, and find the git work tree that holds a path
 * (git stage)
 *
 * Every function of the stage that reads a repository starts libgit2
 * here first. The site stage calls qu_git_workdir() to default `srctree`
 * to the root of the work tree holding the docs root.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "git/git.h"
#include "git/git_int.h"

struct git_fns git_fns;

static const struct qu_dl_sym syms[] = {
#define GIT_FN(fn) QU_DL_SYM(struct git_fns, fn),
#include "libgit2.def"
#undef GIT_FN
};

/* the process's one libgit2, as the library itself is */
static struct qu_dl libgit2 = QU_DL_INIT(QU_LIBGIT2_SONAME, syms, &git_fns);
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init(void)
{
	git_libgit2_init();
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/*
	 * Trees are looked up again and again (each path walks down from
	 * the root); libgit2 keeps only trees under 4 KB in its cache, and
	 * a kernel's drivers/ or include/linux/ is far bigger.
	 */
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE,
			 (size_t)1 << 20);
}

int git_start(const char *need, struct qu_buf *err)
{
	struct qu_buf msg = QU_BUF_INIT;
	int r = qu_dl_load(&libgit2, need, &msg);

	if (r < 0 && err) {
		qu_buf_reset(err);
		qu_buf_add(err, msg.buf, msg.len);
	}
	qu_buf_fini(&msg);
	if (r < 0)
		return -1;
	pthread_once(&init_once, init);
	return 0;
}

int qu_git_init(struct qu_buf *err)
{
	return git_start(GIT_NEED_REPO, err);
}

bool qu_git_missing(struct qu_buf *out)
{
	return qu_dl_failed(&libgit2) &&
	       qu_dl_load(&libgit2, GIT_NEED_WORKTREE, out) < 0;
}

/* @dir holds a repository: a work tree's .git, or a bare one's HEAD and objects */
static bool holds_repo(struct qu_buf *dir)
{
	static const char *const names[][2] = {{".git", NULL}, {"HEAD", "objects"}};
	struct stat st;
	size_t len = dir->len;
	bool yes = false;

	for (size_t i = 0; i < 2 && !yes; i++) {
		yes = true;
		for (size_t j = 0; j < 2 && names[i][j] && yes; j++) {
			qu_buf_addf(dir, "/%s", names[i][j]);
			yes = lstat(dir->buf, &st) == 0;
			dir->len = len;
			dir->buf[len] = '\0';
		}
	}
	return yes;
}

bool git_may_hold(const char *path)
{
	struct qu_buf dir = {0};
	char *real = realpath(path, NULL);
	bool yes;

	if (!real)
		return true;	/* libgit2 says what is wrong */
	qu_buf_adds(&dir, real);
	free(real);
	while (!(yes = holds_repo(&dir)) && dir.len > 1) {
		char *slash = strrchr(dir.buf, '/');

		dir.len = slash == dir.buf ? 1 : (size_t)(slash - dir.buf);
		dir.buf[dir.len] = '\0';
	}
	qu_buf_fini(&dir);
	return yes;
}

/*
 * A tree unpacked into an ignored folder of another project (a kernel
 * tarball under that project's build/) is not part of that work tree:
 * its version is not the project's `git describe`, nor its root the
 * project's root.
 */
static int is_ignored(git_repository *repo, const char *wd, const char *path)
{
	char *real = realpath(path, NULL);
	size_t wl = strlen(wd);
	int ignored = 0;

	if (!real)
		return 0;
	if (!strncmp(real, wd, wl) && real[wl] != '\0' &&
	    git_ignore_path_is_ignored(&ignored, repo, real + wl) < 0)
		ignored = 0;
	free(real);
	return ignored;
}

int qu_git_workdir(struct qu_buf *out, const char *path)
{
	git_buf found = {0};
	git_repository *repo = NULL;
	const char *wd;
	size_t len;
	int error;

	if (!git_may_hold(path))
		return 1;
	if (git_start(GIT_NEED_WORKTREE, NULL) < 0)
		return -1;
	/* as git does, discovery stops at $GIT_CEILING_DIRECTORIES */
	error = git_repository_discover(&found, path, 0,
					getenv("GIT_CEILING_DIRECTORIES"));
	if (error == GIT_ENOTFOUND) {
		error = 1;
		goto out;
	}
	if (error < 0)
		goto out;
	if ((error = git_repository_open(&repo, found.ptr)) < 0)
		goto out;
	wd = git_repository_workdir(repo);
	if (!wd || is_ignored(repo, wd, path)) {
		error = 1;
		goto out;
	}
	len = strlen(wd);
	while (len > 1 && wd[len - 1] == '/')
		len--;
	qu_buf_reset(out);
	qu_buf_add(out, wd, len);
	error = 0;
out:
	git_repository_free(repo);
	git_buf_dispose(&found);
	return error < 0 ? -1 : error;
}
