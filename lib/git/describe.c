// SPDX-License-Identifier: MIT
/*
 * describe.c - the version string of a work tree (git stage)
 *
 * `git describe --tags --dirty` through libgit2, falling back to the
 * abbreviated commit id when no tag is reachable, as `--always` does.
 */
#include "git/git_int.h"

int qu_git_describe(struct qu_buf *out, const char *workdir)
{
	git_describe_options opts;
	git_describe_format_options fmt;
	git_describe_result *res = NULL;
	git_repository *repo = NULL;
	git_buf b = {0};
	int error;

	if (git_start(GIT_NEED_WORKTREE, NULL) < 0)
		return -1;
	if (git_describe_options_init(&opts, GIT_DESCRIBE_OPTIONS_VERSION) <
		    0 ||
	    git_describe_format_options_init(
		    &fmt, GIT_DESCRIBE_FORMAT_OPTIONS_VERSION) < 0)
		return -1;
	opts.describe_strategy = GIT_DESCRIBE_TAGS;
	opts.show_commit_oid_as_fallback = 1;
	fmt.dirty_suffix = "-dirty";
	if ((error = git_repository_open(&repo, workdir)) < 0)
		goto out;
	if ((error = git_describe_workdir(&res, repo, &opts)) < 0)
		goto out;
	if ((error = git_describe_format(&b, res, &fmt)) < 0)
		goto out;
	qu_buf_reset(out);
	qu_buf_add(out, b.ptr, b.size);
	error = 0;
out:
	git_buf_dispose(&b);
	git_describe_result_free(res);
	git_repository_free(repo);
	return error < 0 ? -1 : 0;
}
