/* SPDX-License-Identifier: MIT */
/*
 * git_int.h - what the files of lib/git share; included by the files of lib/git only
 */
#ifndef QU_GIT_GIT_INT_H
#define QU_GIT_GIT_INT_H

#include "git/git.h"
#include "libgit2_int.h"

struct qu_git_tree {
	git_repository *repo;
	char *path;		/* the repository's git folder, for dup */
	git_oid commit;
	char hex[41];
	git_tree *tree;
	char *branch;		/* the branch the revision names, or NULL */
	struct git_packs *packs;	/* its packs, mapped once a repository */
};

/* what libgit2 is loaded for, in the message when it cannot be */
#define GIT_NEED_REPO "to read git repositories"
#define GIT_NEED_REV "to read git revisions"
#define GIT_NEED_WORKTREE "to read the git work tree"

/*
 * git_start() - open and set up libgit2 (qu_git_init()) for @need, one
 * of the GIT_NEED_ above. Returns 0, or -1 with the message in @err
 * (reset first, as git_error_to() does; @err may be NULL). Thread-safe.
 */
int git_start(const char *need, struct qu_buf *err);

/* the message of libgit2's last error, after @what */
void git_error_to(struct qu_buf *err, const char *what, const char *arg);

/*
 * git_may_hold() - false when no folder from @path up holds a .git, or a
 * bare repository's HEAD and objects: libgit2 need not be started (its
 * start reads every CA certificate of the system, about 10 ms) to learn
 * that @path is in no repository.
 */
bool git_may_hold(const char *path);

/*
 * qu_git_tree_list(), and with @links false every link as it is (no
 * target, none left out)
 */
int git_tree_files(struct qu_git_file **out, size_t *n_out,
		   struct qu_git_tree *t, const char *folder, bool links,
		   struct qu_buf *err);

/* pack.c: the objects of a repository's packs, inflated with libdeflate */
struct git_packs;

/*
 * Map the packs (and their version-2 indexes) of the objects folder
 * @objects. Packs it cannot read are left out: their objects are "not
 * here". Never fails; free with git_packs_free().
 */
struct git_packs *git_packs_open(const char *objects);

/*
 * Another reader of the same packs, for another thread: the mappings are
 * shared (counted; the last git_packs_free() unmaps them), the cache and
 * the inflater are its own. Thread-safe while @ps is not freed.
 */
struct git_packs *git_packs_share(const struct git_packs *ps);

/*
 * One pack held in memory by the caller (for the fuzz harness): objects
 * over @max_object bytes count as damaged.
 */
struct git_packs *git_packs_from_memory(const unsigned char *idx,
					size_t idx_len,
					const unsigned char *data,
					size_t data_len, size_t max_object);

/*
 * Read the object @oid into @out (reset first) and its type (a
 * git_object_t) into @type_out. Returns 0; 1 when no pack holds it (a
 * loose object, an alternate's); -1 when its pack is damaged there or it
 * needs what this reader leaves to libgit2 (a base in another pack).
 * Either way the caller asks libgit2. Not thread-safe for the same @ps.
 */
int git_packs_read(struct qu_buf *out, int *type_out, struct git_packs *ps,
		   const unsigned char oid[20]);

/* The number of packs read, and of their objects in @objects_out. */
size_t git_packs_count(const struct git_packs *ps, size_t *objects_out);

void git_packs_free(struct git_packs *ps);

#endif /* QU_GIT_GIT_INT_H */
