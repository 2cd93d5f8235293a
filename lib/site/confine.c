// SPDX-License-Identifier: MIT
/*
 * confine.c - what a site may read (site stage)
 *
 * Every path a page or quire.yml names is resolved with realpath() and
 * must land inside the docs root or the source tree; it must then be a
 * regular file, not a device, FIFO, socket or a file of /proc or /sys.
 * The checks use stat() and statfs(), which never open the file, so a
 * FIFO cannot block the build and a device is never touched. They go
 * through the site's struct qu_files, so a revision read from git is
 * confined the same way (its resolved paths start with "//git").
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "site_int.h"

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif
#ifndef SYSFS_MAGIC
#define SYSFS_MAGIC 0x62656572
#endif

/* Whether the resolved path @real is @dir or lies below it. */
static bool below(const char *real, const char *dir)
{
	size_t l;

	if (!dir)
		return false;
	if (!strcmp(dir, "/"))
		return true;
	l = strlen(dir);
	return !strncmp(real, dir, l) && (real[l] == 0 || real[l] == '/');
}

void site_relative(struct qu_buf *out, const char *from, const char *to)
{
	size_t fl = strlen(from), common = 0, i;

	if (!strcmp(from, "/")) {
		qu_buf_adds(out, to + 1);
		return;
	}
	if (!strncmp(to, from, fl) && to[fl] == '/') {
		qu_buf_adds(out, to + fl + 1);
		return;
	}
	/* the longest common folder prefix of two resolved paths */
	for (i = 0; from[i] && from[i] == to[i]; i++)
		if (from[i] == '/')
			common = i + 1;
	qu_buf_adds(out, "../");
	for (i = common; from[i]; i++)
		if (from[i] == '/')
			qu_buf_adds(out, "../");
	qu_buf_adds(out, to + common);
}

bool site_inside(const struct qu_site *s, const char *real)
{
	return below(real, s->root_real) || below(real, s->srctree_real);
}

/* What a file that is not a regular one is, for the message. */
static const char *kind_of(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

enum site_read site_check_read(struct qu_site *s, const char *path,
			       const char *shown, const char *diag_path,
			       uint32_t line, uint32_t col, bool want_dir)
{
	char real[PATH_MAX];

	return site_check_real(s, real, path, shown, diag_path, line, col,
			       want_dir);
}

enum site_read site_check_real(struct qu_site *s, char *real, const char *path,
			       const char *shown, const char *diag_path,
			       uint32_t line, uint32_t col, bool want_dir)
{
	struct qu_buf rb = QU_BUF_INIT;
	struct qu_fstat st;
	struct statfs fs;
	int r = qu_files_real(s->files, &rb, path);

	if (!r && rb.len >= PATH_MAX)
		r = -1, errno = ENAMETOOLONG;
	if (!r)
		memcpy(real, rb.buf, rb.len + 1);
	qu_buf_fini(&rb);
	if (r < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return SITE_READ_MISSING;
		qu_diag(&s->diags, QU_W_UNREADABLE, diag_path, line, col,
			"cannot resolve '%s': %s, not reading it", shown,
			errno == ELOOP ? "a loop of symbolic links"
				       : strerror(errno));
		return SITE_READ_REFUSED;
	}
	if (!site_inside(s, real)) {
		qu_diag(&s->diags, QU_W_OUTSIDE_TREE, diag_path, line, col,
			"'%s' is outside the docs root and the source "
			"tree; not reading it",
			shown);
		return SITE_READ_REFUSED;
	}
	if (qu_files_stat(s->files, &st, real, true) < 0)
		return SITE_READ_MISSING;
	if (st.kind == QU_FK_DIR)
		return want_dir ? SITE_READ_OK : SITE_READ_MISSING;
	if (want_dir)
		return SITE_READ_MISSING;
	if (st.kind != QU_FK_FILE) {
		struct stat ds;

		qu_diag(&s->diags, QU_W_SPECIAL_FILE, diag_path, line, col,
			"'%s' is %s; not opening it", shown,
			stat(real, &ds) < 0 ? "not a regular file"
					    : kind_of(ds.st_mode));
		return SITE_READ_REFUSED;
	}
	/* a revision has no /proc: only the file system is asked */
	if (!s->files && !statfs(real, &fs) &&
	    ((unsigned long)fs.f_type == PROC_SUPER_MAGIC ||
	     (unsigned long)fs.f_type == SYSFS_MAGIC)) {
		qu_diag(&s->diags, QU_W_SPECIAL_FILE, diag_path, line, col,
			"'%s' is a file of /proc or /sys; not opening it",
			shown);
		return SITE_READ_REFUSED;
	}
	return SITE_READ_OK;
}
