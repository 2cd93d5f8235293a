// SPDX-License-Identifier: MIT
/*
 * init.c - quire init: a starter docs folder for an existing tree
 *
 * Writes DIR/quire.yml and DIR/index.md (and with --ninja DIR/build.ninja)
 * for the source tree DIR lives in; never overwrites a file. Arguments,
 * the starter texts and the exit code; nothing a test would want beyond
 * running it.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"

static void usage(void)
{
	puts("usage: quire init [--ninja] [DIR]\n"
	     "\n"
	     "Write a starter docs folder DIR (default: docs) for the source\n"
	     "tree it is in: quire.yml and index.md, and with --ninja a\n"
	     "build.ninja whose 'docs' target builds the site into\n"
	     "DIR/_build/site and reruns only when an input changed.\n"
	     "Existing files are never overwritten.\n"
	     "\n"
	     "  --ninja   also write DIR/build.ninja");
}

/* Whether @path exists below @dir. */
static bool has(const char *dir, const char *path)
{
	struct qu_buf b = QU_BUF_INIT;
	bool r;

	qu_buf_add_path(&b, dir, path);
	r = !access(b.buf, F_OK);
	qu_buf_fini(&b);
	return r;
}

/* Write a new file; an existing one is an error, never replaced. */
static int create(const char *dir, const char *name, const char *text)
{
	struct qu_buf p = QU_BUF_INIT;
	size_t len = strlen(text);
	int fd, r = -1;

	qu_buf_add_path(&p, dir, name);
	fd = open(p.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "quire init: %s: %s\n", p.buf,
			errno == EEXIST ? "already exists, left as it is"
					: strerror(errno));
		goto out;
	}
	if (write(fd, text, len) != (ssize_t)len) {
		fprintf(stderr, "quire init: %s: cannot write: %s\n", p.buf,
			strerror(errno));
		close(fd);
		unlink(p.buf);
		goto out;
	}
	if (close(fd) < 0) {
		fprintf(stderr, "quire init: %s: cannot write: %s\n", p.buf,
			strerror(errno));
		unlink(p.buf);
		goto out;
	}
	printf("wrote %s\n", p.buf);
	r = 0;
out:
	qu_buf_fini(&p);
	return r;
}

/*
 * The source tree: the parent of DIR. A kernel tree gets a home page
 * with the core API headers; any other tree a page per include folder's
 * first header it can name, or a placeholder.
 */
static void starter_index(struct qu_buf *b, const char *src, const char *title)
{
	static const char *const kernel[] = {
		"include/linux/list.h",	     "include/linux/slab.h",
		"include/linux/string.h",    "include/linux/kref.h",
		"include/linux/workqueue.h", "mm/slab_common.c",
		"lib/string.c",		     "kernel/workqueue.c",
	};
	size_t i;

	qu_buf_addf(b, "# %s\n\n", title);
	if (has(src, "MAINTAINERS") && has(src, "include/linux")) {
		qu_buf_adds(b,
			    "The kernel's core API, from the kernel-doc "
			    "comments of its sources. Add a page\nper "
			    "subsystem beside this one and list it below.\n\n"
			    "```{toctree}\n```\n\n"
			    "## Lists, memory and strings\n\n");
		for (i = 0; i < QU_ARRAY_SIZE(kernel); i++) {
			if (!has(src, kernel[i]))
				continue;
			qu_buf_addf(b, "```{kernel-doc} %s\n%s```\n\n",
				    kernel[i],
				    strstr(kernel[i], ".c") ? ":export:\n"
							    : "");
		}
		return;
	}
	qu_buf_adds(b, "Write the introduction here. Pull the API of a "
		       "source file in with:\n\n"
		       "````text\n```{kernel-doc} include/foo.h\n```\n"
		       "````\n\n"
		       "and list further pages in a toctree:\n\n"
		       "```{toctree}\n```\n");
}

int cmd_init(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"ninja", no_argument, NULL, 'n'},
		{NULL, 0, NULL, 0},
	};
	struct qu_buf yml = QU_BUF_INIT, idx = QU_BUF_INIT,
		      nin = QU_BUF_INIT, err = QU_BUF_INIT;
	const char *dir = "docs";
	char src[PATH_MAX], *base;
	bool ninja = false;
	int c, ret = QU_EXIT_USAGE;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			ninja = true;
			break;
		case 'h':
			usage();
			return QU_EXIT_OK;
		default:
			return cmd_usage_error("init", "bad arguments");
		}
	}
	if (optind < argc)
		dir = argv[optind++];
	if (optind < argc)
		return cmd_usage_error("init", "one folder at most");
	if (qu_mkdir_p(dir, &err) < 0) {
		fprintf(stderr, "quire init: %s\n", err.buf);
		goto out;
	}
	qu_buf_addf(&yml, "%s/..", dir);
	if (!realpath(yml.buf, src)) {
		fprintf(stderr, "quire init: %s: %s\n", yml.buf,
			strerror(errno));
		goto out;
	}
	base = strrchr(src, '/');
	base = base && base[1] ? base + 1 : src;
	qu_buf_reset(&yml);
	qu_buf_addf(&yml,
		    "# quire's configuration: see the configuration page of "
		    "quire's docs.\n"
		    "title: %s\n"
		    "# the C sources the {kernel-doc} directives name, "
		    "relative to this folder\n"
		    "srctree: ..\n",
		    base);
	starter_index(&idx, src, base);
	if (has(dir, "quire.yml") || has(dir, "index.md") ||
	    (ninja && has(dir, "build.ninja"))) {
		fprintf(stderr, "quire init: %s already has a docs setup; "
				"nothing written\n",
			dir);
		goto out;
	}
	if (create(dir, "quire.yml", yml.buf) < 0 ||
	    create(dir, "index.md", idx.buf) < 0)
		goto out;
	if (ninja) {
		char exe[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

		/* the quire that wrote the file, which is surely there */
		exe[n > 0 ? n : 0] = 0;
		qu_buf_addf(&nin,
			    "# ninja docs: the site in _build/site, rebuilt only "
			    "when an input changed\n"
			    "# (quire lists what it read in the depfile).\n"
			    "quire = %s\n"
			    "# ninja's own files there too: this folder's "
			    "listing is an input\n"
			    "builddir = _build\n\n",
			    n > 0 ? exe : "quire");
		qu_buf_adds(&nin,
			    ""
			    "rule quire_build\n"
			    "  command = $quire build . -o $out --depfile "
			    "$out.d --quiet\n"
			    "  depfile = $out.d\n"
			    "  deps = gcc\n"
			    "  description = quire build\n\n"
			    "build _build/site: quire_build\n"
			    "build docs: phony _build/site\n");
#ifdef QU_HAVE_SERVE
		qu_buf_adds(&nin, "\nrule quire_serve\n"
				  "  command = $quire serve .\n"
				  "  pool = console\n\n"
				  "build docs-serve: quire_serve\n");
#endif
		qu_buf_adds(&nin, "\ndefault docs\n");
		if (create(dir, "build.ninja", nin.buf) < 0)
			goto out;
	}
	ret = QU_EXIT_OK;
out:
	qu_buf_fini(&yml);
	qu_buf_fini(&idx);
	qu_buf_fini(&nin);
	qu_buf_fini(&err);
	return ret;
}
