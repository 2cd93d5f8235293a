// SPDX-License-Identifier: MIT
/*
 * common.c - what the subcommands share: argument checks, the list of
 * files named on the command line (directories walked in a stable order)
 * and the progress line shown on a terminal.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <getopt.h>

#include <cmark-gfm-core-extensions.h>
#include <libxml/parser.h>

#include "cmd.h"
#include "git/git.h"

int cmd_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "quire%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'quire %s%s--help' for more information.\n",
		cmd ? cmd : "", cmd ? " " : "");
	return QU_EXIT_USAGE;
}

int cmd_parse_jobs(unsigned *out, const char *arg)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	/* A thousand threads is far past any machine's use here. */
	if (errno || end == arg || *end || n < 0 || n > 1024)
		return -1;
	*out = (unsigned)n;
	return 0;
}

int cmd_parse_werror(const char *arg)
{
	return strcmp(arg, "error") ? -1 : 0;
}

const char *cmd_err_text(const char *err, const char *path)
{
	size_t n = strlen(path);

	if (!strncmp(err, path, n) && err[n] == ':' && err[n + 1] == ' ')
		return err + n + 2;
	return err;
}

void cmd_diags_drop(struct qu_diags *d, enum qu_diag_id id)
{
	size_t o = 0;

	for (size_t i = 0; i < d->n; i++) {
		if (d->v[i].id == id)
			free(d->v[i].msg);
		else
			d->v[o++] = d->v[i];
	}
	d->n = o;
}

void cmd_files_add(struct cmd_files *f, const char *path)
{
	QU_VEC_GROW(f->v, f->n, f->alloc);
	f->v[f->n++] = qu_xstrdup(path);
}

void cmd_files_fini(struct cmd_files *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i]);
	free(f->v);
	f->v = NULL;
	f->n = f->alloc = 0;
}

static bool is_c_name(const char *name)
{
	size_t len = strlen(name);

	return len > 2 && name[len - 2] == '.' &&
	       (name[len - 1] == 'c' || name[len - 1] == 'h');
}

/*
 * Walk @dir (its path in @path) and add its .c and .h files. A directory
 * that cannot be opened is added as if it were a file, so that reading it
 * fails later with a diagnostic in the file's place instead of silently
 * dropping a part of the tree.
 */
static void walk(struct cmd_files *f, struct qu_buf *path)
{
	DIR *d = opendir(path->buf);
	struct dirent *e;
	size_t base = path->len;

	if (!d) {
		cmd_files_add(f, path->buf);
		return;
	}
	while ((e = readdir(d))) {
		struct stat st;
		bool dir;

		if (e->d_name[0] == '.')
			continue;
		path->len = base;
		path->buf[base] = '\0';
		if (base && path->buf[base - 1] != '/')
			qu_buf_addc(path, '/');
		qu_buf_adds(path, e->d_name);
		if (e->d_type == DT_DIR) {
			dir = true;
		} else if (e->d_type == DT_REG) {
			dir = false;
		} else {
			bool link = false;

			if (lstat(path->buf, &st) < 0)
				continue;
			if (S_ISLNK(st.st_mode)) {
				link = true;
				/* Dangling: kept, to be reported unreadable. */
				if (stat(path->buf, &st) < 0)
					st.st_mode = S_IFREG;
			}
			/* Links to directories may loop: skipped. */
			if (link && S_ISDIR(st.st_mode))
				continue;
			if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
				continue;
			dir = S_ISDIR(st.st_mode);
		}
		if (dir)
			walk(f, path);
		else if (is_c_name(e->d_name))
			cmd_files_add(f, path->buf);
	}
	closedir(d);
	path->len = base;
	path->buf[base] = '\0';
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int cmd_files_expand(struct cmd_files *f, const char *cmd, const char *path,
		     bool dirs)
{
	struct qu_buf b = QU_BUF_INIT;
	struct stat st;
	size_t first = f->n;

	/*
	 * A dangling symbolic link is a file that cannot be read: a
	 * diagnostic in its place, not a usage error.
	 */
	if (stat(path, &st) < 0 && lstat(path, &st) < 0) {
		fprintf(stderr, "quire %s: %s: %s\n", cmd, path,
			strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		cmd_files_add(f, path);
		return 0;
	}
	if (!dirs) {
		fprintf(stderr, "quire %s: %s: %s\n", cmd, path,
			strerror(EISDIR));
		return -1;
	}
	qu_buf_adds(&b, path);
	/* "dir/" and "dir" name the same files the same way. */
	while (b.len > 1 && b.buf[b.len - 1] == '/')
		b.buf[--b.len] = '\0';
	walk(f, &b);
	qu_buf_fini(&b);
	qsort(f->v + first, f->n - first, sizeof(*f->v), cmp_str);
	return 0;
}

int cmd_folder_arg(const char **dir, const char *cmd, int argc, char **argv)
{
	struct stat st;

	if (optind < argc)
		*dir = argv[optind++];
	if (optind < argc)
		return cmd_usage_error(cmd, "one folder at most");
	if (stat(*dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "quire %s: %s: no such folder\n", cmd, *dir);
		return QU_EXIT_USAGE;
	}
	return 0;
}

void cmd_init_libraries(void)
{
	xmlInitParser();
	cmark_gfm_core_extensions_ensure_registered();
}

void cmd_note_git(const char *cmd)
{
	struct qu_buf msg = QU_BUF_INIT;

	if (qu_git_missing(&msg))
		fprintf(stderr, "quire %s: note: %s; going on as outside git\n",
			cmd, msg.buf);
	qu_buf_fini(&msg);
}
