// SPDX-License-Identifier: MIT
/*
 * build.c - quire build: a docs tree (or a bare source tree) to a site
 *
 * Arguments, then the stages in order: site, parse (on the pool), graph,
 * render (on the pool) into a temporary folder that replaces OUT at the
 * end, so a failed build leaves the last good site in place.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmark-gfm-core-extensions.h>
#include <git2.h>
#include <libxml/parser.h>

#include "cmd.h"
#include "git/git.h"
#include "graph/graph.h"
#include "kdoc/kdoc.h"
#include "markdown/markdown.h"
#include "qu_config.h"
#include "render/render.h"
#include "site/site.h"
#include "source/source.h"

struct build {
	struct qu_site site;
	struct qu_unit *units;
	struct qu_graph_exports *exports;
	char **src_paths;
	struct qu_graph graph;
	struct qu_md *md;
	struct qu_render render;
	struct qu_diags *page_diags;
	struct qu_buf *errs;
	const char *tmp;
	struct cmd_progress progress;
	size_t nitems;
};

static void usage(void)
{
	puts("usage: quire build [DIR] [-o OUT] [-j N] [-Werror] [--quiet]\n"
	     "\n"
	     "Build the HTML site of DIR (default: the current folder) into\n"
	     "OUT (default: _site). With DIR/quire.yml, its Markdown pages\n"
	     "and {kernel-doc} directives; without, the API reference of\n"
	     "every documented .c and .h file below DIR.\n"
	     "\n"
	     "  -o OUT     where the site goes; replaced as a whole at the "
	     "end\n"
	     "  -j N       worker threads (default: one per processor)\n"
	     "  -Werror    exit with 1 when there are warnings\n"
	     "  --quiet    no progress line and no summary");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The absolute, resolved form of @path, which may not exist yet. */
static char *resolve(const char *path)
{
	char buf[PATH_MAX];
	struct qu_buf b = QU_BUF_INIT;
	char *sl, *parent;

	if (realpath(path, buf))
		return qu_xstrdup(buf);
	qu_buf_adds(&b, path);
	while (b.len > 1 && b.buf[b.len - 1] == '/')
		b.buf[--b.len] = 0;
	sl = strrchr(b.buf, '/');
	if (sl) {
		*sl = 0;
		parent = resolve(*b.buf ? b.buf : "/");
	} else {
		parent = qu_xstrdup(getcwd(buf, sizeof(buf)) ? buf : ".");
		sl = b.buf - 1;
	}
	{
		struct qu_buf r = QU_BUF_INIT;

		qu_buf_addf(&r, "%s/%s", strcmp(parent, "/") ? parent : "",
			    sl + 1);
		free(parent);
		qu_buf_fini(&b);
		return qu_buf_detach(&r, NULL);
	}
}

/* Whether @dir is @anc or lies below it. */
/*
 * OUT must be neither the tree nor above it: the swap at the end would
 * replace the sources.
 */
static bool below(const char *dir, const char *anc)
{
	size_t l = strlen(anc);

	if (!strcmp(anc, "/"))
		return true;
	return !strncmp(dir, anc, l) && (dir[l] == 0 || dir[l] == '/');
}

/* QUIRE_TIMING=1 prints how long each phase took, for benchmarks. */
static void phase(bool on, double *t, const char *what)
{
	double n = now();

	if (on)
		fprintf(stderr, "quire build: %-8s %6.2f s\n", what, n - *t);
	*t = n;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void rm_rf(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * The old site is out of the way once renamed; deleting ten thousand
 * files can take seconds on a busy disk, so a child process does it while
 * the build reports and exits. The workers have all finished by now, so
 * the fork copies no thread in the middle of anything.
 */
static void remove_later(const char *path)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);

		/* nobody reading our output waits for the child */
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		rm_rf(path);
		_exit(0);
	}
	if (pid < 0)
		rm_rf(path);
}

static int copy_file(const char *from, const char *to, struct qu_buf *err)
{
	struct qu_buf data = QU_BUF_INIT;
	int r = qu_file_read(&data, from, err);

	if (!r)
		r = qu_file_write_atomic(to, data.buf, data.len, err);
	qu_buf_fini(&data);
	return r;
}

/*
 * Copy a folder recursively; a missing source folder is not an error (a
 * theme may have no static files).
 */
static int copy_tree(const char *from, const char *to, struct qu_buf *err)
{
	struct qu_buf a = QU_BUF_INIT, b = QU_BUF_INIT;
	struct dirent *de;
	DIR *d = opendir(from);
	int r = 0;

	if (!d)
		return 0;
	if (qu_mkdir_p(to, err) < 0) {
		closedir(d);
		return -1;
	}
	while (!r && (de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		qu_buf_reset(&a);
		qu_buf_reset(&b);
		qu_buf_addf(&a, "%s/%s", from, de->d_name);
		qu_buf_addf(&b, "%s/%s", to, de->d_name);
		if (stat(a.buf, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode))
			r = copy_tree(a.buf, b.buf, err);
		else if (S_ISREG(st.st_mode))
			r = copy_file(a.buf, b.buf, err);
	}
	closedir(d);
	qu_buf_fini(&a);
	qu_buf_fini(&b);
	return r;
}

/* The theme's folder: a path, or a name looked up where themes live. */
static char *find_theme(const struct qu_site *s)
{
	const char *name = s->cfg.theme ? s->cfg.theme : "default";
	struct qu_buf b = QU_BUF_INIT;
	char exe[PATH_MAX];
	const char *env = getenv("QUIRE_THEMES");
	ssize_t n;

	if (strchr(name, '/')) {
		if (name[0] == '/')
			qu_buf_adds(&b, name);
		else
			qu_buf_addf(&b, "%s/%s", s->root, name);
		return qu_buf_detach(&b, NULL);
	}
	if (env) {
		qu_buf_addf(&b, "%s/%s/page.html", env, name);
		if (!access(b.buf, R_OK))
			goto found;
	}
	qu_buf_reset(&b);
	qu_buf_addf(&b, "%s/themes/%s/page.html", s->root, name);
	if (!access(b.buf, R_OK))
		goto found;
	/* beside the executable in a build tree: BUILD/cmd/quire/quire */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *sl;
		int up;

		exe[n] = 0;
		for (up = 0; up < 4 && (sl = strrchr(exe, '/')); up++) {
			*sl = 0;
			qu_buf_reset(&b);
			qu_buf_addf(&b, "%s/themes/%s/page.html", exe, name);
			if (!access(b.buf, R_OK))
				goto found;
		}
	}
	qu_buf_reset(&b);
	qu_buf_addf(&b, "%s/themes/%s/page.html", QU_DATADIR, name);
found:
	b.len -= strlen("/page.html");
	b.buf[b.len] = 0;
	return qu_buf_detach(&b, NULL);
}

/*
 * Parse one source on a worker: the unit keeps the items, the exports and
 * the diagnostics; the bytes of the file are freed at once, so the tree's
 * sources are never all in memory.
 */
static void parse_one(struct qu_job *job, size_t i, void *payload)
{
	struct build *b = payload;
	struct qu_unit *u = &b->units[i];
	struct qu_source *src = NULL;
	size_t k;

	if (qu_source_read(&src, job, b->src_paths[i]) < 0) {
		qu_diag(&u->diags, QU_W_UNREADABLE, b->src_paths[i], 0, 0, "%s",
			job->err.buf);
		qu_buf_reset(&job->err);
		u->path = b->site.sources[i];
		cmd_progress_tick(&b->progress, job);
		return;
	}
	qu_kdoc_parse(u, src, NULL);
	qu_diags_move(&u->diags, &src->diags);
	/* a file without kernel-doc is no news to a site build */
	for (k = 0; k < u->diags.n; k++)
		if (u->diags.v[k].id == QU_W_NO_STRUCTURED_COMMENTS) {
			free(u->diags.v[k].msg);
			u->diags.v[k--] = u->diags.v[--u->diags.n];
		}
	/* the unit outlives the source: its names move to the unit */
	u->path = b->site.sources[i];
	for (k = 0; k < u->diags.n; k++)
		u->diags.v[k].path = b->src_paths[i];
	if (src->nexports) {
		struct qu_export *v =
			qu_arena_alloc(&u->arena, src->nexports * sizeof(*v));

		for (k = 0; k < src->nexports; k++) {
			v[k] = src->exports[k];
			v[k].name = qu_arena_strdup(&u->arena, v[k].name);
			v[k].macro = qu_arena_strdup(&u->arena, v[k].macro);
		}
		b->exports[i].v = v;
		b->exports[i].n = src->nexports;
	}
	qu_source_free(src);
	cmd_progress_tick(&b->progress, job);
}

/*
 * Write one output file into the temporary site; the site as a whole is
 * what replaces OUT atomically, so plain writes suffice.
 */
static int write_file(const char *tmp, const char *out,
		      const struct qu_buf *data, struct qu_buf *err)
{
	struct qu_buf path = QU_BUF_INIT;
	FILE *f;
	int r = 0;

	qu_buf_addf(&path, "%s/%s", tmp, out);
	f = fopen(path.buf, "wb");
	if (!f || fwrite(data->buf, 1, data->len, f) != data->len) {
		qu_buf_addf(err, "%s: cannot write: %s", path.buf,
			    strerror(errno));
		r = -1;
	}
	if (f && fclose(f) && !r) {
		qu_buf_addf(err, "%s: cannot write: %s", path.buf,
			    strerror(errno));
		r = -1;
	}
	qu_buf_fini(&path);
	return r;
}

/*
 * Render one page or extra file on a worker, with its own diagnostics and
 * error slot: merged in index order afterwards, so -j does not change the
 * output.
 */
static void render_one(struct qu_job *job, size_t i, void *payload)
{
	struct build *b = payload;
	size_t npages = b->site.npages;
	struct qu_buf html = QU_BUF_INIT;
	int r;

	if (i < npages)
		r = qu_render_page(&html, &b->render, (uint32_t)i,
				   &b->page_diags[i]);
	else
		r = qu_render_extra(&html, &b->render, i - npages);
	if (r < 0)
		qu_buf_addf(&b->errs[i], "%s: libxml2 could not write the page",
			    i < npages ? b->site.pages[i].out
				       : b->render.extras[i - npages].out);
	else
		write_file(b->tmp,
			   i < npages ? b->site.pages[i].out
				      : b->render.extras[i - npages].out,
			   &html, &b->errs[i]);
	qu_buf_fini(&html);
	cmd_progress_tick(&b->progress, job);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every folder the pages go into, made before the workers start. */
static int make_dirs(const struct build *b, struct qu_buf *err)
{
	char **dirs = qu_xcalloc(b->site.npages + 1, sizeof(char *));
	struct qu_buf p = QU_BUF_INIT;
	size_t n = 0, i;
	int r = 0;

	for (i = 0; i < b->site.npages; i++) {
		const char *out = b->site.pages[i].out;
		const char *sl = strrchr(out, '/');

		if (sl)
			dirs[n++] = qu_xstrndup(out, (size_t)(sl - out));
	}
	qsort(dirs, n, sizeof(char *), cmp_str);
	for (i = 0; i < n; i++) {
		if (i && !strcmp(dirs[i], dirs[i - 1]))
			continue;
		qu_buf_reset(&p);
		qu_buf_addf(&p, "%s/%s", b->tmp, dirs[i]);
		if (!r && qu_mkdir_p(p.buf, err) < 0)
			r = -1;
	}
	for (i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	qu_buf_fini(&p);
	return r;
}

/*
 * Everything but the pages: the theme's static files, objects.inv,
 * sitemap.xml (with base_url) and the docs root's images and files.
 */
static int write_rest(struct build *b, const char *theme, struct qu_buf *err)
{
	size_t i;

	{
		struct qu_buf sfrom = QU_BUF_INIT, sto = QU_BUF_INIT;
		int r;

		qu_buf_addf(&sfrom, "%s/static", theme);
		qu_buf_addf(&sto, "%s/_static", b->tmp);
		r = copy_tree(sfrom.buf, sto.buf, err);
		qu_buf_fini(&sfrom);
		qu_buf_fini(&sto);
		if (r < 0) {
			return -1;
		}
	}
	{
		struct qu_buf inv = QU_BUF_INIT;
		int r = qu_graph_inventory(&inv, &b->graph, b->render.title,
					   b->render.version);

		if (!r)
			r = write_file(b->tmp, "objects.inv", &inv, err);
		qu_buf_fini(&inv);
		if (r < 0) {
			if (!err->len)
				qu_buf_adds(err, "objects.inv: zlib failed");
			return -1;
		}
	}
	{
		struct qu_buf map = QU_BUF_INIT;
		int r = qu_render_sitemap(&map, &b->render);

		if (!r)
			r = write_file(b->tmp, "sitemap.xml", &map, err);
		qu_buf_fini(&map);
		if (r < 0) {
			if (!err->len)
				qu_buf_adds(err, "sitemap.xml: libxml2 failed");
			return -1;
		}
	}
	{
		/* GitHub Pages hides folders starting with "_" without it */
		struct qu_buf empty = QU_BUF_INIT;

		if (write_file(b->tmp, ".nojekyll", &empty, err) < 0)
			return -1;
	}
	for (i = 0; i < b->site.nassets; i++) {
		struct qu_buf from = QU_BUF_INIT, to = QU_BUF_INIT;
		char *sl;
		int r;

		qu_buf_addf(&from, "%s/%s", b->site.root, b->site.assets[i]);
		qu_buf_addf(&to, "%s/%s", b->tmp, b->site.assets[i]);
		sl = strrchr(to.buf, '/');
		*sl = 0;
		r = qu_mkdir_p(to.buf, err);
		*sl = '/';
		if (!r)
			r = copy_file(from.buf, to.buf, err);
		qu_buf_fini(&from);
		qu_buf_fini(&to);
		if (r < 0) {
			return -1;
		}
	}
	return 0;
}

/* Free everything the build holds, in the reverse order of making it. */
static void free_build(struct build *b)
{
	size_t i;

	qu_render_fini(&b->render);
	qu_md_free(b->md);
	if (b->graph.site)
		qu_graph_fini(&b->graph);
	if (b->page_diags) {
		for (i = 0; i < b->site.npages; i++)
			qu_diags_fini(&b->page_diags[i]);
		free(b->page_diags);
	}
	for (i = 0; i < b->site.nsources; i++) {
		if (b->units)
			qu_unit_fini(&b->units[i]);
		if (b->src_paths)
			free(b->src_paths[i]);
	}
	free(b->units);
	free(b->exports);
	free(b->src_paths);
	qu_site_fini(&b->site);
}

int cmd_build(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"quiet", no_argument, NULL, 'q'},
		{"output", required_argument, NULL, 'o'},
		{"jobs", required_argument, NULL, 'j'},
		{NULL, 0, NULL, 0},
	};
	struct build b;
	struct qu_buf err = QU_BUF_INIT, tmp = QU_BUF_INIT, old = QU_BUF_INIT;
	struct qu_buf version = QU_BUF_INIT, skip = QU_BUF_INIT;
	struct qu_diags all;
	const char *dir = ".", *out = "_site";
	char *out_abs = NULL, *dir_abs = NULL, *src_abs = NULL, *theme = NULL;
	unsigned threads = 0;
	bool werror = false, quiet = false;
	double t0 = now(), tp = t0;
	bool timing = getenv("QUIRE_TIMING") != NULL;
	size_t i, nwarn = 0, nerr = 0, ntasks;
	int c, ret = QU_EXIT_USAGE;
	struct stat st;

	memset(&b, 0, sizeof(b));
	qu_diags_init(&all);
	/* 0, not 1: GNU getopt re-reads its state after main.c used it */
	optind = 0;
	while ((c = getopt_long(argc, argv, "o:j:W:qh", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'j':
			if (cmd_parse_jobs(&threads, optarg) < 0)
				return cmd_usage_error(
					"build", "bad -j value '%s'", optarg);
			break;
		case 'W':
			if (cmd_parse_werror(optarg) < 0)
				return cmd_usage_error(
					"build", "unknown option -W%s", optarg);
			werror = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			usage();
			return QU_EXIT_OK;
		default:
			return cmd_usage_error("build", "bad arguments");
		}
	}
	if (optind < argc)
		dir = argv[optind++];
	if (optind < argc)
		return cmd_usage_error("build", "one folder at most");
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "quire build: %s: no such folder\n", dir);
		return QU_EXIT_USAGE;
	}

	/* libraries with global set-up, before any thread starts */
	xmlInitParser();
	git_libgit2_init();
	cmark_gfm_core_extensions_ensure_registered();

	dir_abs = resolve(dir);
	out_abs = resolve(out);
	if (below(out_abs, dir_abs) && strcmp(out_abs, dir_abs)) {
		/* the output inside the tree is left out of the walk */
		size_t dl = strlen(dir);

		/* as lib/site names paths: the root without trailing "/" */
		while (dl > 1 && dir[dl - 1] == '/')
			dl--;
		qu_buf_addf(&skip, "%.*s%s", (int)(strcmp(dir, "/") ? dl : 0),
			    dir, out_abs + strlen(dir_abs));
	}
	if (qu_site_load(&b.site, dir, skip.len ? skip.buf : NULL, &err) < 0) {
		fprintf(stderr, "quire build: %s\n", err.buf);
		goto out;
	}
	if (b.site.broken) {
		/* a broken configuration: its errors, and nothing written */
		qu_diags_sort(&b.site.diags);
		qu_diags_print(&b.site.diags, stderr, werror);
		goto out;
	}
	src_abs = resolve(b.site.srctree);
	if (below(dir_abs, out_abs) || below(src_abs, out_abs)) {
		fprintf(stderr,
			"quire build: refusing to write the site to %s: it is "
			"or holds %s\n",
			out, below(dir_abs, out_abs) ? dir : b.site.srctree);
		goto out;
	}

	/* parse every source the pages need, on the pool */
	b.units = qu_xcalloc(b.site.nsources + 1, sizeof(*b.units));
	b.exports = qu_xcalloc(b.site.nsources + 1, sizeof(*b.exports));
	b.src_paths = qu_xcalloc(b.site.nsources + 1, sizeof(char *));
	for (i = 0; i < b.site.nsources; i++) {
		qu_buf_reset(&tmp);
		if (strcmp(b.site.srctree, "."))
			qu_buf_addf(&tmp, "%s/", b.site.srctree);
		qu_buf_adds(&tmp, b.site.sources[i]);
		b.src_paths[i] = qu_buf_detach(&tmp, NULL);
	}
	cmd_progress_init(&b.progress, b.site.nsources, quiet);
	qu_pool_run(threads, b.site.nsources, parse_one, &b);
	phase(timing, &tp, "parse");
	cmd_progress_done(&b.progress);

	if (b.site.zero_config) {
		struct qu_site_file *files;
		struct qu_buf readme = QU_BUF_INIT, rerr = QU_BUF_INIT;
		size_t n = 0;
		bool has_readme;

		files = qu_xcalloc(b.site.nsources + 1, sizeof(*files));
		for (i = 0; i < b.site.nsources; i++) {
			const struct qu_unit *u = &b.units[i];
			uint32_t docs = 0;
			size_t k;

			if (!u->nitems)
				continue;
			for (k = 0; k < u->nitems; k++)
				docs += u->items[k].kind == QU_KIND_DOC;
			files[n].path = b.site.sources[i];
			files[n].ndocs = docs;
			files[n].nitems = (uint32_t)u->nitems - docs;
			n++;
		}
		qu_buf_addf(&tmp, "%s/README.md", dir);
		has_readme = !qu_file_read(&readme, tmp.buf, &rerr);
		qu_buf_reset(&tmp);
		if (!has_readme) {
			/* a plain README (the kernel's) is shown as it is */
			struct qu_buf plain = QU_BUF_INIT;

			qu_buf_addf(&tmp, "%s/README", dir);
			if (!qu_file_read(&plain, tmp.buf, &rerr) &&
			    !memmem(plain.buf, plain.len, "~~~~~~~~", 8)) {
				qu_buf_addf(
					&readme,
					"~~~~~~~~ text\n%s%s~~~~~~~~\n",
					plain.buf,
					plain.len && plain.buf[plain.len - 1] ==
								'\n'
						? ""
						: "\n");
				has_readme = true;
			}
			qu_buf_fini(&plain);
			qu_buf_reset(&tmp);
		}
		qu_site_zero_pages(&b.site, files, n,
				   has_readme ? readme.buf : NULL, readme.len);
		qu_buf_fini(&readme);
		qu_buf_fini(&rerr);
		free(files);
	}

	b.md = qu_md_new(b.site.cfg.allow_html);
	for (i = 0; i < b.site.npages; i++)
		qu_md_headings(b.md, &b.site.pages[i], &b.site.arena);
	qu_graph_build(&b.graph, &b.site, b.units, b.exports, &all, threads);
	phase(timing, &tp, "graph");
	for (i = 0; i < b.graph.nplaced; i++)
		b.nitems += b.graph.placed[i].home;

	if (b.site.cfg.version) {
		qu_buf_adds(&version, b.site.cfg.version);
	} else if (qu_git_workdir(&tmp,
				  b.site.zero_config ? dir : b.site.srctree) ==
		   0) {
		qu_git_describe(&version, tmp.buf);
	}
	qu_buf_reset(&tmp);
	theme = find_theme(&b.site);
	if (qu_render_init(&b.render, &b.site, &b.graph, b.md, theme,
			   version.len ? version.buf : NULL, &err) < 0) {
		fprintf(stderr, "quire build: %s\n", err.buf);
		goto out;
	}

	/* render into OUT.tmp-PID beside OUT, then swap it in */
	qu_buf_addf(&tmp, "%s.tmp-%ld", out_abs, (long)getpid());
	rm_rf(tmp.buf);
	b.tmp = tmp.buf;
	if (qu_mkdir_p(tmp.buf, &err) < 0) {
		fprintf(stderr, "quire build: %s\n", err.buf);
		goto out;
	}
	if (make_dirs(&b, &err) < 0) {
		fprintf(stderr, "quire build: %s\n", err.buf);
		goto out;
	}
	ntasks = b.site.npages + b.render.nextras;
	b.page_diags = qu_xcalloc(b.site.npages + 1, sizeof(*b.page_diags));
	b.errs = qu_xcalloc(ntasks + 1, sizeof(*b.errs));
	cmd_progress_init(&b.progress, ntasks, quiet);
	qu_pool_run(threads, ntasks, render_one, &b);
	phase(timing, &tp, "render");
	cmd_progress_done(&b.progress);
	for (i = 0; i < ntasks; i++)
		if (b.errs[i].len && !err.len)
			qu_buf_adds(&err, b.errs[i].buf);
	for (i = 0; i < ntasks; i++)
		qu_buf_fini(&b.errs[i]);
	free(b.errs);
	if (err.len) {
		fprintf(stderr, "quire build: %s\n", err.buf);
		goto out;
	}
	if (write_rest(&b, theme, &err) < 0) {
		fprintf(stderr, "quire build: %s\n", err.buf);
		goto out;
	}
	qu_buf_addf(&old, "%s.old-%ld", out_abs, (long)getpid());
	if (!stat(out_abs, &st) && rename(out_abs, old.buf) < 0) {
		fprintf(stderr, "quire build: cannot move %s aside: %s\n", out,
			strerror(errno));
		goto out;
	}
	if (rename(tmp.buf, out_abs) < 0) {
		fprintf(stderr, "quire build: cannot rename into %s: %s\n", out,
			strerror(errno));
		rename(old.buf, out_abs);
		goto out;
	}
	b.tmp = NULL;
	remove_later(old.buf);
	phase(timing, &tp, "write");

	/* diagnostics: every stage's, sorted, merged, printed once */
	qu_diags_move(&all, &b.site.diags);
	for (i = 0; i < b.site.nsources; i++)
		qu_diags_move(&all, &b.units[i].diags);
	for (i = 0; i < b.site.npages; i++)
		qu_diags_move(&all, &b.page_diags[i]);
	qu_diags_sort(&all);
	for (i = 0; i < all.n; i++) {
		if (qu_diag_info(all.v[i].id)->level == QU_LEVEL_ERROR)
			nerr++;
		else
			nwarn++;
	}
	qu_diags_print(&all, stderr, werror);
	phase(timing, &tp, "diags");
	if (!quiet)
		fprintf(stderr,
			"quire build: %zu pages, %zu items, %zu warnings%s, "
			"%.2f s: %s/index.html\n",
			b.site.npages, b.nitems, nwarn + nerr,
			werror && nwarn ? " (as errors)" : "", now() - t0, out);
	ret = nerr || (werror && nwarn) ? QU_EXIT_FAIL : QU_EXIT_OK;
out:
	/* a failed build leaves the last good site and no half-made one */
	if (b.tmp)
		rm_rf(b.tmp);
	free_build(&b);
	qu_diags_fini(&all);
	qu_buf_fini(&err);
	qu_buf_fini(&tmp);
	qu_buf_fini(&old);
	qu_buf_fini(&version);
	qu_buf_fini(&skip);
	free(theme);
	free(dir_abs);
	free(out_abs);
	free(src_abs);
	return ret;
}
