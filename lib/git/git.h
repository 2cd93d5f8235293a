/* SPDX-License-Identifier: MIT */
/*
 * git.h - the little of git a site build needs, through libgit2
 *
 * In: a path inside a tree, or a repository and a revision. Out: the root
 * of the git work tree holding the path and its `git describe`; a
 * revision's files and their bytes read straight from the object database
 * (no work tree needed, a bare repository works); when each file last
 * changed, for all files in one walk over history; and the forge URL of a
 * file and line, derived from the `origin` remote. A tree without git is
 * fine: every call says "not found" rather than failing. Included by
 * lib/site, lib/build and cmd/quire.
 *
 * Threads: libgit2 objects never leave the thread that made them. A
 * struct qu_git_tree is one repository handle: use it from one thread at a
 * time, and give each worker its own with qu_git_tree_dup().
 */
#ifndef QU_GIT_GIT_H
#define QU_GIT_GIT_H

#include <stdbool.h>
#include <stdint.h>

#include "util/util.h"

/**
 * qu_git_init() - open libgit2 and set it up for the git stage
 * @err: receives the message when libgit2 cannot be loaded (reset first):
 *	"cannot load libgit2.so.1.5 (needed to read git repositories): " and
 *	the loader's reason
 *
 * quire is not linked with libgit2: the first call opens it (by the
 * SONAME found when quire was configured), initialises it and turns off
 * its check of each object's hash as it is read: git reads objects
 * without hashing them again (that is fsck's work), and hashing every
 * blob of a revision cost as much CPU as inflating it (78,624 files of a
 * kernel tree: 15.6 s with the check, 9.5 s without). The functions of
 * this stage that open a repository call it themselves, so that a build
 * outside any repository never loads libgit2; a caller that uses
 * libgit2 directly calls it first, and may pair it with
 * git_libgit2_shutdown() at exit.
 * Context: thread-safe; only the first call does anything, later ones
 * return what it did.
 * Return: 0, or -1 when libgit2 cannot be loaded (message in @err).
 */
int qu_git_init(struct qu_buf *err);

/**
 * qu_git_missing() - whether a read of git found no libgit2 to load
 * @out: receives the message (appended), as qu_git_init() words it
 *
 * Finding the work tree (qu_git_workdir()), describing it and dating
 * its HEAD say "not found" when libgit2 cannot be loaded, as for a
 * repository libgit2 cannot read, and have no message to give: their
 * callers build as outside git, and the command says why with this.
 * Loads nothing.
 * Context: thread-safe.
 * Return: true when a call of this stage needed libgit2 and could not
 * load it.
 */
bool qu_git_missing(struct qu_buf *out);

/**
 * qu_git_workdir() - find the root of the work tree that holds @path
 * @out: receives the root, an absolute path without a trailing slash
 * @path: a file or directory
 *
 * Context: thread-safe; opens and closes its own repository handle.
 * Return: 0 when found, 1 when @path is in no git work tree (or in a bare
 * repository, or in a folder the work tree ignores), -1 on a libgit2
 * error other than "not found", or when libgit2 cannot be loaded
 * (qu_git_missing()).
 */
int qu_git_workdir(struct qu_buf *out, const char *path);

/**
 * qu_git_describe() - describe the work tree's HEAD like `git describe --tags`
 * @out: receives the description ("v6.1-12-gabcdef0", with "-dirty"
 *	appended when the work tree has changes); on a repository without
 *	tags, the abbreviated commit id
 * @workdir: the root of the work tree, as qu_git_workdir() found it
 *
 * Context: thread-safe; opens and closes its own repository handle.
 * Return: 0, or -1 when there is nothing to describe (no commit yet,
 * not a repository); @out is then unchanged.
 */
int qu_git_describe(struct qu_buf *out, const char *workdir);

/**
 * qu_git_head_time() - the commit time of the work tree's HEAD
 * @out: receives the time, in seconds since the epoch (UTC)
 * @workdir: the root of the work tree, as qu_git_workdir() found it
 *
 * Context: thread-safe; opens and closes its own repository handle.
 * Return: 0, or -1 when there is no commit (not a repository, an unborn
 * branch); @out is then unchanged.
 */
int qu_git_head_time(int64_t *out, const char *workdir);
/* Reading a revision ------------------------------------------------- */

/**
 * DOC: Reading a revision
 *
 * struct qu_git_tree is one revision of a repository, opened for
 * reading; it is opaque: a libgit2 repository handle, the commit a
 * revision named and its tree. qu_git_tree_open() or qu_git_tree_dup()
 * make one, qu_git_tree_free() frees it. Use it from one thread at a
 * time.
 */
struct qu_git_tree;

/**
 * QU_GIT_MODE_LINK - the mode of a symbolic link in a git tree (0120000)
 */
#define QU_GIT_MODE_LINK 0120000

/**
 * struct qu_git_file - one file of a revision, as qu_git_tree_list() lists it
 * @path: its path from the repository's root, without a leading slash
 * @mode: its git mode: 0100644, 0100755 or QU_GIT_MODE_LINK
 * @oid: its blob's id (20 bytes), a ready-made content key: two files with
 *	the same id have the same bytes, in any revision
 * @hex: @oid in hexadecimal, NUL-terminated
 * @target: for a symbolic link, the path (from the repository's root) of
 *	the file it leads to, following links to links; NULL otherwise.
 *	qu_git_tree_read() of @path reads that file's bytes.
 */
struct qu_git_file {
	char *path;
	unsigned mode;
	unsigned char oid[20];
	char hex[41];
	char *target;
};

/**
 * qu_git_tree_open() - open a revision of a repository, without a work tree
 * @out: receives the revision; the caller frees it with qu_git_tree_free()
 * @repo_path: the repository: a work tree or any folder inside one, a
 *	`.git` folder, or a bare repository (what `quire build --repo PATH`
 *	will name)
 * @rev: any revision `git rev-parse` understands and that names a commit:
 *	a commit id (abbreviated or not), a tag (annotated or light), a
 *	branch, `HEAD`, `v6.1~3`, `main^2`; NULL means `HEAD`
 * @err: receives a message on failure (reset first)
 *
 * Context: thread-safe; the new handle is the calling thread's.
 * Return: 0 on success; 1 when @repo_path is in no repository (no message:
 * a tree without git builds without dates or links); -1 when the
 * repository cannot be read, @rev names no commit or libgit2 cannot be
 * loaded (message in @err).
 */
int qu_git_tree_open(struct qu_git_tree **out, const char *repo_path,
		     const char *rev, struct qu_buf *err);

/**
 * qu_git_tree_dup() - open a second handle on the same revision
 * @out: receives the new handle; the caller frees it with qu_git_tree_free()
 * @t: the revision
 * @err: receives a message on failure
 *
 * Workers that read in parallel each take a handle of their own: handles
 * share nothing but the files of the repository, so reads never wait on
 * one another (libgit2 locks its object database cache inside one handle
 * only).
 * Context: thread-safe while nobody else uses @t.
 * Return: 0, or -1 (message in @err).
 */
int qu_git_tree_dup(struct qu_git_tree **out, const struct qu_git_tree *t,
		    struct qu_buf *err);

/**
 * qu_git_tree_free() - close a revision
 * @t: the revision, or NULL (nothing happens)
 *
 * Context: on the thread that used @t last.
 */
void qu_git_tree_free(struct qu_git_tree *t);

/**
 * qu_git_tree_commit() - the commit a revision resolved to
 * @t: the revision
 *
 * Return: the commit's id in hexadecimal (40 digits), owned by @t.
 */
const char *qu_git_tree_commit(const struct qu_git_tree *t);

/**
 * qu_git_tree_is_bare() - whether the repository has no work tree
 * @t: the revision
 *
 * Return: true for a bare repository.
 */
bool qu_git_tree_is_bare(const struct qu_git_tree *t);

/**
 * qu_git_tree_time() - the commit time of the revision
 * @t: the revision
 *
 * Context: not thread-safe for the same @t.
 * Return: seconds since the epoch (the committer's time), 0 on a read
 * error.
 */
int64_t qu_git_tree_time(struct qu_git_tree *t);

/**
 * qu_git_tree_gitdir() - the repository's git folder
 * @t: the revision
 *
 * Return: the `.git` folder (or the bare repository), with a trailing
 * slash, owned by @t.
 */
const char *qu_git_tree_gitdir(const struct qu_git_tree *t);

/**
 * qu_git_tree_branch() - the branch the revision was named by
 * @t: the revision
 *
 * A local branch (`main`, or HEAD when a branch is checked out) or one of
 * `origin` (`origin/main`) gives its name (`main`); a tag, a commit id,
 * an expression (`main~1`) or a detached HEAD give none: their files
 * cannot be edited where they are.
 * Return: the name, owned by @t, or NULL.
 */
const char *qu_git_tree_branch(const struct qu_git_tree *t);

/**
 * qu_git_tree_list() - list the files of a revision below a folder
 * @out: receives an array of @n_out files sorted by path (bytewise); the
 *	caller frees it with qu_git_files_free()
 * @n_out: receives the number of files
 * @t: the revision
 * @folder: a folder from the repository's root ("Documentation",
 *	"include/linux"), or NULL or "" for the whole tree
 * @err: receives a message on failure
 *
 * Lists regular files and symbolic links that lead to a file of the same
 * revision (@target says which). Leaves out submodules, links that lead
 * nowhere (outside the tree, to a missing file, to a folder, or in a loop)
 * and folders themselves.
 * Context: not thread-safe for the same @t.
 * Return: 0; 1 when @folder is not a folder of the revision (empty
 * list, no message); -1 on a read error (message in @err).
 */
int qu_git_tree_list(struct qu_git_file **out, size_t *n_out,
		     struct qu_git_tree *t, const char *folder,
		     struct qu_buf *err);

/**
 * qu_git_files_free() - free a list of files
 * @files: what qu_git_tree_list() returned, or NULL
 * @n: its length
 */
void qu_git_files_free(struct qu_git_file *files, size_t n);

/**
 * qu_git_tree_read() - read a file of a revision
 * @out: receives the file's bytes (reset first; NUL-terminated as every
 *	struct qu_buf, which the bytes themselves may also contain)
 * @t: the revision
 * @path: the file's path from the repository's root; a symbolic link is
 *	followed to the file it leads to
 * @err: receives a message on failure
 *
 * Context: not thread-safe for the same @t; use qu_git_tree_dup().
 * Return: 0; 1 when the revision has no such file (or @path is a folder,
 * a submodule or a link leading nowhere; message in @err); -1 on a read
 * error (message in @err).
 */
int qu_git_tree_read(struct qu_buf *out, struct qu_git_tree *t,
		     const char *path, struct qu_buf *err);

/**
 * qu_git_tree_read_blob() - read a file of a revision by its blob id
 * @out: receives the blob's bytes (reset first)
 * @t: the revision (its repository is read)
 * @oid: the blob id, as struct qu_git_file has it (a listed link's target
 *	already resolved)
 * @path: the file's path, for the message only
 * @err: receives a message on failure
 *
 * What qu_git_tree_read() does for a file already listed, without walking
 * the trees down to it again.
 *
 * Context: not thread-safe for the same @t; use qu_git_tree_dup().
 * Return: 0, or -1 on a read error (message in @err).
 */
int qu_git_tree_read_blob(struct qu_buf *out, struct qu_git_tree *t,
			  const unsigned char oid[20], const char *path,
			  struct qu_buf *err);

/**
 * qu_git_describe_rev() - describe a revision like `git describe --tags`
 * @out: receives the description: the nearest tag reachable from the
 *	commit ("v6.1"), or that tag with the count of commits since and
 *	the abbreviated id ("v6.1-12-gabcdef0"); the abbreviated id alone
 *	when no tag is reachable. Never "-dirty": a revision has no work tree.
 * @t: the revision
 * @err: receives a message on failure
 *
 * Context: not thread-safe for the same @t.
 * Return: 0, or -1 (message in @err; @out unchanged).
 */
int qu_git_describe_rev(struct qu_buf *out, struct qu_git_tree *t,
			struct qu_buf *err);

/**
 * qu_git_fs_new() - a revision as the files a build reads
 * @out: receives the files; free them with qu_git_fs_free() before @t
 * @t: the revision; it must outlive @out and is not used by @out but to
 *	open more handles on it
 * @err: receives a message on failure
 *
 * Paths are the revision's, from its root ("docs/index.md"); "." and
 * ".." are folded, and what lies outside the revision (an absolute path,
 * ".." above the root) is not there. Resolved paths (qu_files_real())
 * start with "//git", which no path of the file system does. Reads are
 * thread-safe: each reading thread takes a handle of its own from a pool.
 * Return: 0, or -1 when the revision's files cannot be listed.
 */
int qu_git_fs_new(struct qu_files **out, struct qu_git_tree *t,
		  struct qu_buf *err);

/**
 * qu_git_fs_free() - free what qu_git_fs_new() made
 * @fs: the files, or NULL
 */
void qu_git_fs_free(struct qu_files *fs);

/* Last changed -------------------------------------------------------- */

/**
 * struct qu_git_change - when a file last changed
 * @path: the file, as asked (or as listed, for every file)
 * @time: the commit time (seconds since the epoch, the committer's, as
 *	`git log --format=%ct` prints it); 0 when unknown: the file is not in
 *	the revision, or the history that would say was cut off by a shallow
 *	clone
 * @commit: the commit's id in hexadecimal, "" when unknown; its first
 *	QU_GIT_SHORT digits are the short id a page shows
 */
struct qu_git_change {
	char *path;
	int64_t time;
	char commit[41];
};

/**
 * QU_GIT_SHORT - digits of a short commit id on a page
 */
#define QU_GIT_SHORT 12

/**
 * enum qu_git_walk - how qu_git_last_changed() follows merges
 * @QU_GIT_WALK_FULL: as `git log -1 -- PATH` does: through a merge, follow
 *	the first parent the file is the same in; a merge in which it differs
 *	from every parent changed it
 * @QU_GIT_WALK_FIRST_PARENT: as `git log --first-parent -1 -- PATH`: only
 *	first parents, so a merge changed whatever it brought in
 */
enum qu_git_walk {
	QU_GIT_WALK_FULL,
	QU_GIT_WALK_FIRST_PARENT,
};

/**
 * qu_git_last_changed() - the newest commit that changed each file
 * @out: receives @n_out answers, in the order of @paths (sorted by path
 *	when @paths is NULL); the caller frees them with qu_git_changes_free()
 * @n_out: receives the number of answers
 * @t: the revision whose history is walked
 * @paths: the files, from the repository's root; NULL for every file of
 *	the revision (submodules left out, links included: git tracks them)
 * @n_paths: the number of @paths
 * @walk: how to follow merges
 * @err: receives a message on failure
 *
 * One walk over history answers for every file at once: commits are
 * visited children first; each carries the files whose answer lies
 * further down its line, hands them to its parent, and compares its tree
 * with its parent's only where they differ (folders with the same id are
 * skipped whole). The walk ends as soon as every file has its answer.
 * The answers are `git log -1 --format=%ct:%H -- PATH` (with
 * --first-parent for QU_GIT_WALK_FIRST_PARENT); renames are not followed.
 * In a shallow clone, files whose answer lies beyond the cut get none.
 * Context: not thread-safe for the same @t.
 * Return: 0, or -1 on a read error (message in @err).
 */
int qu_git_last_changed(struct qu_git_change **out, size_t *n_out,
			struct qu_git_tree *t, const char *const *paths,
			size_t n_paths, enum qu_git_walk walk,
			struct qu_buf *err);

/**
 * qu_git_changes_free() - free the answers of qu_git_last_changed()
 * @changes: the answers, or NULL
 * @n: their number
 */
void qu_git_changes_free(struct qu_git_change *changes, size_t n);

/* Forge links --------------------------------------------------------- */

/**
 * qu_git_forge_url() - a source URL template from a remote's URL
 * @out: receives the template (reset first), an https URL holding
 *	`{path}` and `{line}` for the page to fill in: on GitHub
 *	`https://github.com/O/R/blob/REV/{path}#L{line}`, on GitLab
 *	`https://gitlab.com/G/R/-/blob/REV/{path}#L{line}`, on a cgit
 *	(git.kernel.org) `https://git.kernel.org/pub/scm/.../R.git/tree/{path}?h=REV#n{line}`
 *	(`?id=` when @rev is a full commit id)
 * @remote: the remote's URL: `https://host/path`, `http://`, `git://`,
 *	`ssh://[user@]host[:port]/path` or scp-like `user@host:path`
 * @rev: the revision the links show (a tag, a branch or a commit id);
 *	characters outside [A-Za-z0-9._~/-] are percent-encoded
 *
 * Hosts: github.com; gitlab.com and hosts named `gitlab.*`; git.kernel.org.
 * The template only ever holds URL-safe characters, so it can go into an
 * HTML attribute as it is. Pure: reads nothing but its arguments.
 * Context: thread-safe.
 * Return: 0, or 1 when the host is unknown or the URL is not one of the
 * forms above (@out empty).
 */
int qu_git_forge_url(struct qu_buf *out, const char *remote, const char *rev);

/**
 * qu_git_source_url() - the source URL template of a revision's `origin`
 * @out: receives the template, as qu_git_forge_url() makes it
 * @t: the revision; its repository's `remote.origin.url` is read as it
 *	is configured (`url.*.insteadOf` rewrites are not applied)
 * @rev: the revision the links show; NULL for the commit's full id
 *
 * Context: not thread-safe for the same @t.
 * Return: 0, or 1 when there is no `origin` or its host is unknown.
 */
int qu_git_source_url(struct qu_buf *out, struct qu_git_tree *t,
		      const char *rev);

/**
 * qu_git_forge_edit_url() - the "edit this page" URL template of a remote
 * @out: receives the template, holding `{path}`: on GitHub
 *	`https://github.com/O/R/edit/BRANCH/{path}`, on GitLab
 *	`https://gitlab.com/G/R/-/edit/BRANCH/{path}`
 * @remote: the remote's URL, in the forms qu_git_forge_url() reads
 * @branch: the branch whose files the editor changes
 *
 * A cgit (git.kernel.org) has no editor: no template. URL-safe as
 * qu_git_forge_url()'s. Context: thread-safe.
 * Return: 0, or 1 when the forge has no editor or is unknown (@out empty).
 */
int qu_git_forge_edit_url(struct qu_buf *out, const char *remote,
			  const char *branch);

/**
 * qu_git_edit_url() - the "edit this page" template of a revision's origin
 * @out: receives the template, as qu_git_forge_edit_url() makes it
 * @t: the revision; it must name a branch (qu_git_tree_branch())
 *
 * Context: not thread-safe for the same @t.
 * Return: 0, or 1 when the revision is no branch, there is no `origin`
 * or its forge has no editor.
 */
int qu_git_edit_url(struct qu_buf *out, struct qu_git_tree *t);

#endif /* QU_GIT_GIT_H */
