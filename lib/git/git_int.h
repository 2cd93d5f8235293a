/* SPDX-License-Identifier: MIT */
/*
 * git_int.h - what the files of lib/git share; included by the files of lib/git only
 */
#ifndef QU_GIT_GIT_INT_H
#define QU_GIT_GIT_INT_H

#include <git2.h>

#include "git/git.h"

struct qu_git_tree {
	git_repository *repo;
	char *path;		/* the repository's git folder, for dup */
	git_oid commit;
	char hex[41];
	git_tree *tree;
	char *branch;		/* the branch the revision names, or NULL */
};

/* the message of libgit2's last error, after @what */
void git_error_to(struct qu_buf *err, const char *what, const char *arg);

/*
 * qu_git_tree_list(), and with @links false every link as it is (no
 * target, none left out)
 */
int git_tree_files(struct qu_git_file **out, size_t *n_out,
		   struct qu_git_tree *t, const char *folder, bool links,
		   struct qu_buf *err);

#endif /* QU_GIT_GIT_INT_H */
