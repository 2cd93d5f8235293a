/* SPDX-License-Identifier: MIT */
/*
 * libgit2_int.h - libgit2's functions as the files of lib/git call them;
 * included by git_int.h only
 *
 * quire does not link libgit2: git_start() opens it the first time a
 * repository is read and fills git_fns with the addresses of the
 * functions libgit2.def lists. Each of those names is a macro that calls
 * through the table, so the code reads as plain libgit2 while the
 * prototypes stay libgit2's own (the members are typed with __typeof__
 * of its declarations). A function missing here fails to link in the
 * quire command, which has no libgit2 to find it in.
 */
#ifndef QU_GIT_LIBGIT2_INT_H
#define QU_GIT_LIBGIT2_INT_H

#include <git2.h>

struct git_fns {
#define GIT_FN(fn) __typeof__(fn) *fn;
#include "libgit2.def"
#undef GIT_FN
};

/* set once by git_start(), before any of it is called; read-only after */
extern struct git_fns git_fns;

#define git_blob_free(...) (git_fns.git_blob_free)(__VA_ARGS__)
#define git_blob_lookup(...) (git_fns.git_blob_lookup)(__VA_ARGS__)
#define git_blob_rawcontent(...) (git_fns.git_blob_rawcontent)(__VA_ARGS__)
#define git_blob_rawsize(...) (git_fns.git_blob_rawsize)(__VA_ARGS__)
#define git_buf_dispose(...) (git_fns.git_buf_dispose)(__VA_ARGS__)
#define git_commit_free(...) (git_fns.git_commit_free)(__VA_ARGS__)
#define git_commit_id(...) (git_fns.git_commit_id)(__VA_ARGS__)
#define git_commit_lookup(...) (git_fns.git_commit_lookup)(__VA_ARGS__)
#define git_commit_parent_id(...) (git_fns.git_commit_parent_id)(__VA_ARGS__)
#define git_commit_parentcount(...) \
	(git_fns.git_commit_parentcount)(__VA_ARGS__)
#define git_commit_time(...) (git_fns.git_commit_time)(__VA_ARGS__)
#define git_commit_tree(...) (git_fns.git_commit_tree)(__VA_ARGS__)
#define git_commit_tree_id(...) (git_fns.git_commit_tree_id)(__VA_ARGS__)
#define git_config_free(...) (git_fns.git_config_free)(__VA_ARGS__)
#define git_config_get_string_buf(...) \
	(git_fns.git_config_get_string_buf)(__VA_ARGS__)
#define git_describe_commit(...) (git_fns.git_describe_commit)(__VA_ARGS__)
#define git_describe_format(...) (git_fns.git_describe_format)(__VA_ARGS__)
#define git_describe_format_options_init(...) \
	(git_fns.git_describe_format_options_init)(__VA_ARGS__)
#define git_describe_options_init(...) \
	(git_fns.git_describe_options_init)(__VA_ARGS__)
#define git_describe_result_free(...) \
	(git_fns.git_describe_result_free)(__VA_ARGS__)
#define git_describe_workdir(...) (git_fns.git_describe_workdir)(__VA_ARGS__)
#define git_error_last(...) (git_fns.git_error_last)(__VA_ARGS__)
#define git_ignore_path_is_ignored(...) \
	(git_fns.git_ignore_path_is_ignored)(__VA_ARGS__)
#define git_libgit2_init(...) (git_fns.git_libgit2_init)(__VA_ARGS__)
#define git_libgit2_opts(...) (git_fns.git_libgit2_opts)(__VA_ARGS__)
#define git_object_free(...) (git_fns.git_object_free)(__VA_ARGS__)
#define git_object_lookup(...) (git_fns.git_object_lookup)(__VA_ARGS__)
#define git_object_peel(...) (git_fns.git_object_peel)(__VA_ARGS__)
#define git_odb_exists(...) (git_fns.git_odb_exists)(__VA_ARGS__)
#define git_odb_free(...) (git_fns.git_odb_free)(__VA_ARGS__)
#define git_oid_cpy(...) (git_fns.git_oid_cpy)(__VA_ARGS__)
#define git_oid_equal(...) (git_fns.git_oid_equal)(__VA_ARGS__)
#define git_oid_fromraw(...) (git_fns.git_oid_fromraw)(__VA_ARGS__)
#define git_oid_tostr(...) (git_fns.git_oid_tostr)(__VA_ARGS__)
#define git_reference_dwim(...) (git_fns.git_reference_dwim)(__VA_ARGS__)
#define git_reference_free(...) (git_fns.git_reference_free)(__VA_ARGS__)
#define git_reference_name(...) (git_fns.git_reference_name)(__VA_ARGS__)
#define git_reference_name_to_id(...) \
	(git_fns.git_reference_name_to_id)(__VA_ARGS__)
#define git_reference_resolve(...) (git_fns.git_reference_resolve)(__VA_ARGS__)
#define git_reference_type(...) (git_fns.git_reference_type)(__VA_ARGS__)
#define git_repository_commondir(...) \
	(git_fns.git_repository_commondir)(__VA_ARGS__)
#define git_repository_config_snapshot(...) \
	(git_fns.git_repository_config_snapshot)(__VA_ARGS__)
#define git_repository_discover(...) \
	(git_fns.git_repository_discover)(__VA_ARGS__)
#define git_repository_free(...) (git_fns.git_repository_free)(__VA_ARGS__)
#define git_repository_is_bare(...) \
	(git_fns.git_repository_is_bare)(__VA_ARGS__)
#define git_repository_odb(...) (git_fns.git_repository_odb)(__VA_ARGS__)
#define git_repository_open(...) (git_fns.git_repository_open)(__VA_ARGS__)
#define git_repository_open_ext(...) \
	(git_fns.git_repository_open_ext)(__VA_ARGS__)
#define git_repository_path(...) (git_fns.git_repository_path)(__VA_ARGS__)
#define git_repository_workdir(...) \
	(git_fns.git_repository_workdir)(__VA_ARGS__)
#define git_revparse_single(...) (git_fns.git_revparse_single)(__VA_ARGS__)
#define git_tree_entry_byindex(...) \
	(git_fns.git_tree_entry_byindex)(__VA_ARGS__)
#define git_tree_entry_bypath(...) (git_fns.git_tree_entry_bypath)(__VA_ARGS__)
#define git_tree_entry_cmp(...) (git_fns.git_tree_entry_cmp)(__VA_ARGS__)
#define git_tree_entry_filemode(...) \
	(git_fns.git_tree_entry_filemode)(__VA_ARGS__)
#define git_tree_entry_free(...) (git_fns.git_tree_entry_free)(__VA_ARGS__)
#define git_tree_entry_id(...) (git_fns.git_tree_entry_id)(__VA_ARGS__)
#define git_tree_entry_name(...) (git_fns.git_tree_entry_name)(__VA_ARGS__)
#define git_tree_entry_type(...) (git_fns.git_tree_entry_type)(__VA_ARGS__)
#define git_tree_entrycount(...) (git_fns.git_tree_entrycount)(__VA_ARGS__)
#define git_tree_free(...) (git_fns.git_tree_free)(__VA_ARGS__)
#define git_tree_lookup(...) (git_fns.git_tree_lookup)(__VA_ARGS__)
#define git_tree_walk(...) (git_fns.git_tree_walk)(__VA_ARGS__)

#endif /* QU_GIT_LIBGIT2_INT_H */
