/* SPDX-License-Identifier: MIT */
/*
 * git.h - the little of git a site build needs, through libgit2
 *
 * In: a path inside a tree. Out: the root of the git work tree holding it
 * and a version string from `git describe`. A tree without git is fine:
 * every call says "not found" rather than failing. Included by lib/site
 * and cmd/quire; libgit2 objects never leave the calling thread.
 */
#ifndef QU_GIT_GIT_H
#define QU_GIT_GIT_H

#include <stdint.h>

#include "util/util.h"

/**
 * qu_git_workdir() - find the root of the work tree that holds @path
 * @out: receives the root, an absolute path without a trailing slash
 * @path: a file or directory
 *
 * The caller must have called git_libgit2_init() (once, before threads).
 * Context: thread-safe; opens and closes its own repository handle.
 * Return: 0 when found, 1 when @path is in no git work tree (or in a bare
 * repository, or in a folder the work tree ignores), -1 on a libgit2
 * error other than "not found".
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

#endif /* QU_GIT_GIT_H */
