// SPDX-License-Identifier: MIT
/*
 * date.c - the commit time of a work tree's HEAD (git stage)
 *
 * Dated outputs (the man pages' .TH line) take their date from the
 * commit they were built from, never from the clock, so two builds of
 * one commit give the same bytes.
 */
#include "git/git_int.h"

int qu_git_head_time(int64_t *out, const char *workdir)
{
	git_repository *repo = NULL;
	git_commit *commit = NULL;
	git_oid oid;
	int error;

	if (git_start(GIT_NEED_WORKTREE, NULL) < 0)
		return -1;
	if ((error = git_repository_open(&repo, workdir)) < 0)
		goto out;
	if ((error = git_reference_name_to_id(&oid, repo, "HEAD")) < 0)
		goto out;
	if ((error = git_commit_lookup(&commit, repo, &oid)) < 0)
		goto out;
	*out = (int64_t)git_commit_time(commit);
	error = 0;
out:
	git_commit_free(commit);
	git_repository_free(repo);
	return error < 0 ? -1 : 0;
}
