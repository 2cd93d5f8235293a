/* SPDX-License-Identifier: MIT */
/*
 * cmd.h - the subcommands of the quire command, one line each, and the
 * few helpers they share (argument checks, file lists, progress).
 * Included by the .c files of cmd/quire only.
 */
#ifndef QU_CMD_CMD_H
#define QU_CMD_CMD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/util.h"

/* Exit codes, the same for every command (docs/quire.1, EXIT STATUS). */
enum {
	QU_EXIT_OK = 0, /* success, possibly with warnings */
	QU_EXIT_FAIL = 1, /* diagnostics failed the run (-Werror, errors) */
	QU_EXIT_USAGE = 2, /* quire could not run */
};

/*
 * The subcommands. Each takes its own argv (argv[0] is the command's
 * name) and returns an exit code. cmd_build() and cmd_serve() live in
 * build.c and serve.c; main.c lists them only when meson found those files
 * (QU_HAVE_BUILD, QU_HAVE_SERVE).
 */
int cmd_extract(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_man(int argc, char **argv);
int cmd_coverage(int argc, char **argv);
int cmd_build(int argc, char **argv);
int cmd_init(int argc, char **argv);
int cmd_serve(int argc, char **argv);

/**
 * cmd_usage_error() - report a bad command line
 * @cmd: the subcommand's name, or NULL for quire itself
 * @fmt: the message
 * @...: its arguments
 *
 * Prints "quire CMD: message" and a hint to --help on stderr.
 * Return: %QU_EXIT_USAGE, so callers can return it.
 */
int cmd_usage_error(const char *cmd, const char *fmt, ...) QU_PRINTF(2, 3);

/**
 * cmd_parse_jobs() - read the argument of -j
 * @out: receives the thread count (0 means one per processor)
 * @arg: the text
 *
 * Return: 0, or -1 when @arg is not a number between 0 and 1024.
 */
int cmd_parse_jobs(unsigned *out, const char *arg);

/**
 * cmd_parse_werror() - read the argument of -W
 * @arg: the text after "-W"
 *
 * Return: 0 for "error", -1 for anything else.
 */
int cmd_parse_werror(const char *arg);

/**
 * cmd_err_text() - an environment error's text without its path
 * @err: the message, as qu_file_read() writes it ("path: cannot read: ...")
 * @path: the path it starts with
 *
 * A diagnostic already prints the path first.
 * Return: a pointer into @err.
 */
const char *cmd_err_text(const char *err, const char *path);

/**
 * cmd_diags_drop() - remove every diagnostic of one kind from a list
 * @d: the list
 * @id: the kind
 */
void cmd_diags_drop(struct qu_diags *d, enum qu_diag_id id);

/**
 * struct cmd_files - a list of file paths, each owned
 * @v: the paths
 * @n: how many
 * @alloc: how many allocated
 */
struct cmd_files {
	char **v;
	size_t n;
	size_t alloc;
};

/**
 * cmd_files_add() - append a copy of @path
 * @f: the list
 * @path: the path
 */
void cmd_files_add(struct cmd_files *f, const char *path);

/**
 * cmd_files_expand() - add @path, or every .c and .h file below it
 * @f: the list
 * @cmd: the subcommand's name, for messages
 * @path: a file or a directory named on the command line
 * @dirs: whether a directory is allowed
 *
 * A directory is walked recursively; entries whose names start with "."
 * and symbolic links to directories are skipped; the files found are
 * added in strcmp() order of their paths, so the list never depends on
 * the order readdir() returns.
 *
 * Return: 0, or -1 after a message on stderr when @path does not exist or
 * is a directory and @dirs is false.
 */
int cmd_files_expand(struct cmd_files *f, const char *cmd, const char *path,
		     bool dirs);

/**
 * cmd_files_fini() - free the list
 * @f: the list
 */
void cmd_files_fini(struct cmd_files *f);

/**
 * cmd_folder_arg() - take the optional folder argument of a command
 * @dir: the folder; left as it is (the default) when none is given
 * @cmd: the command, for messages
 * @argc: as main() got it
 * @argv: likewise; read from optind on
 *
 * Return: 0, or the exit status (QU_EXIT_USAGE) after a message when
 * there are more arguments or the folder does not exist.
 */
int cmd_folder_arg(const char **dir, const char *cmd, int argc, char **argv);

/**
 * cmd_init_libraries() - set up libxml2 and cmark-gfm's extensions,
 * once, before any thread starts (STYLE: threads); libgit2 is loaded
 * and started by the git stage when a repository is near
 */
void cmd_init_libraries(void);

/**
 * cmd_note_git() - say that git was left out for want of libgit2
 * @cmd: the subcommand's name
 *
 * A run in a git work tree reads the work tree's version, dates and
 * root through libgit2; when libgit2 cannot be loaded it goes on as
 * outside git, and this prints one note saying so, with the loader's
 * reason (nothing when libgit2 was loaded or never needed).
 */
void cmd_note_git(const char *cmd);

#endif /* QU_CMD_CMD_H */
