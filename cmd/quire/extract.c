// SPDX-License-Identifier: MIT
/*
 * extract.c - "quire extract": the items of C files as JSON Lines or
 * Markdown, selected like scripts/kernel-doc's -export, -internal,
 * -function and -nosymbol. Files are parsed on the thread pool into
 * per-file slots and written in the order given, so the output is the same
 * for any number of threads.
 */
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "kdoc/kdoc.h"
#include "source/source.h"

static const char extract_usage[] =
	"usage: quire extract [--json | --markdown] [--export | --internal]\n"
	"                     [--identifiers NAMES] [--no-identifiers NAMES]\n"
	"                     [--doc TITLE] [--no-doc-sections]\n"
	"                     [--export-file FILE] [-Werror] [-v] [-j N] "
	"FILE...\n"
	"\n"
	"Print the kernel-doc items of C files in source order, files in the\n"
	"order given; diagnostics go to stderr.\n"
	"\n"
	"  --json                one JSON object per item (JSON Lines)\n"
	"  --markdown            readable Markdown (the default)\n"
	"  --export              only items exported with EXPORT_SYMBOL*()\n"
	"  --internal            only items that are not exported\n"
	"  --export-file FILE    also take exports from FILE (repeatable)\n"
	"  --identifiers NAMES   only these symbols or DOC: titles\n"
	"                        (comma or space separated, repeatable)\n"
	"  --no-identifiers NAMES  leave these symbols out\n"
	"  --doc TITLE           only the DOC: block of this title\n"
	"  --no-doc-sections     leave every DOC: block out\n"
	"  -W error, -Werror     treat warnings as errors (exit status 1)\n"
	"  -v, --verbose         also give the warnings kernel-doc gives with "
	"-v\n"
	"  -j, --jobs N          parse on N threads (default: one per "
	"processor)\n"
	"  -h, --help            show this help\n"
	"\n"
	"Exit status: 0 success, 1 errors or warnings under -Werror,\n"
	"2 bad usage or a missing file.\n";

enum format { FMT_MARKDOWN, FMT_JSON };

/* What one file leaves behind for the ordered merge. */
struct slot {
	struct qu_source *src;
	struct qu_buf out;
	struct qu_diags diags;
	bool done;
};

struct extract {
	enum format format;
	struct qu_kdoc_opts opts;
	struct qu_kdoc_select sel;
	struct cmd_files files; /* the files to extract, in order */
	struct cmd_files export_files; /* --export-file */
	struct slot *slots; /* files, then export files */
	struct qu_map exports;
	bool want_exports;
	/*
	 * Output is streamed in file order: whichever worker finishes the
	 * file at @next_out writes it and every finished file after it, so
	 * memory holds only the files finished out of order, not the whole
	 * tree's output (a kernel tree's JSON is over 100 MB).
	 */
	pthread_mutex_t out_lock;
	size_t next_out;
	bool write_failed;
};

/* Split NAMES at commas and blanks, as the Sphinx directive's options. */
static void add_names(struct cmd_files *list, const char *names)
{
	const char *p = names;

	while (*p) {
		size_t n;

		p += strspn(p, ", \t\n");
		n = strcspn(p, ", \t\n");
		if (!n)
			break;
		char *name = qu_xstrndup(p, n);

		cmd_files_add(list, name);
		free(name);
		p += n;
	}
}

static void read_one(struct qu_job *job, size_t i, void *payload)
{
	struct extract *x = payload;
	const char *path = i < x->files.n ? x->files.v[i]
					  : x->export_files.v[i - x->files.n];
	struct slot *s = &x->slots[i];

	qu_buf_reset(&job->err);
	if (qu_source_read(&s->src, job, path) < 0)
		qu_diag(&s->diags, QU_W_UNREADABLE, path, 0, 0, "%s",
			cmd_err_text(job->err.buf, path));
}

static bool has_error(const struct qu_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		if (qu_diag_info(d->v[i].id)->level == QU_LEVEL_ERROR)
			return true;
	return false;
}

/* Marks file @i done and writes every done file from the next one on. */
static void flush_ready(struct extract *x, size_t i)
{
	pthread_mutex_lock(&x->out_lock);
	x->slots[i].done = true;
	while (x->next_out < x->files.n && x->slots[x->next_out].done) {
		struct qu_buf *b = &x->slots[x->next_out].out;

		if (!x->write_failed &&
		    fwrite(b->buf, 1, b->len, stdout) != b->len)
			x->write_failed = true;
		qu_buf_fini(b);
		x->next_out++;
	}
	pthread_mutex_unlock(&x->out_lock);
}

static void extract_one(struct qu_job *job, size_t i, void *payload)
{
	struct extract *x = payload;
	const char *path = x->files.v[i];
	struct slot *s = &x->slots[i];
	struct qu_unit u = {0};
	struct qu_unit view;
	size_t nsel = 0;

	if (!s->src) {
		read_one(job, i, payload);
		if (!s->src) {
			flush_ready(x, i);
			return;
		}
	}
	qu_kdoc_parse(&u, s->src, &x->opts);

	/*
	 * The dumpers take a unit: give them a view of the selected items.
	 * Exports named only in another file or an --export-file are
	 * filled in here, the map being complete by now.
	 */
	view = u;
	view.items = qu_arena_alloc(&u.arena, (u.nitems ? u.nitems : 1) *
						      sizeof(*u.items));
	for (size_t k = 0; k < u.nitems; k++) {
		struct qu_item *it = &u.items[k];

		if (!it->exported && x->want_exports && it->kind != QU_KIND_DOC)
			it->exported = qu_map_get(&x->exports, it->name,
						  strlen(it->name));
		if (qu_kdoc_selected(it, &x->sel))
			view.items[nsel++] = *it;
	}
	view.nitems = nsel;

	/*
	 * As scripts/kernel-doc does when it outputs nothing for a file,
	 * counting the items this selection keeps (the parser counts them
	 * all); unlike it, per file: it compares with the count of the
	 * previous file. Golden: test/kdoc/doc/no-structured.c.
	 */
	cmd_diags_drop(&u.diags, QU_W_NO_STRUCTURED_COMMENTS);
	if (!nsel && !x->sel.nidentifiers && !x->sel.doc &&
	    !has_error(&s->src->diags))
		qu_diag(&u.diags, QU_W_NO_STRUCTURED_COMMENTS, path, 1, 1,
			"no structured comments found");

	if (x->format == FMT_JSON)
		qu_kdoc_dump_json(&s->out, &view);
	else
		qu_kdoc_dump_markdown(&s->out, &view);
	qu_diags_move(&s->diags, &s->src->diags);
	qu_diags_move(&s->diags, &u.diags);
	for (size_t k = 0; k < s->diags.n; k++)
		s->diags.v[k].path = path;
	qu_unit_fini(&u);
	/* The export map points into the sources: keep them only then. */
	if (!x->want_exports) {
		qu_source_free(s->src);
		s->src = NULL;
	}
	flush_ready(x, i);
}

static int parse_args(struct extract *x, struct cmd_files *ids,
		      struct cmd_files *noids, bool *werror, unsigned *threads,
		      int argc, char **argv)
{
	enum {
		OPT_JSON = 256,
		OPT_MARKDOWN,
		OPT_EXPORT,
		OPT_INTERNAL,
		OPT_IDS,
		OPT_NOIDS,
		OPT_DOC,
		OPT_NODOC,
		OPT_EXPORT_FILE,
		OPT_WERROR
	};
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"json", no_argument, NULL, OPT_JSON},
		{"markdown", no_argument, NULL, OPT_MARKDOWN},
		{"export", no_argument, NULL, OPT_EXPORT},
		{"internal", no_argument, NULL, OPT_INTERNAL},
		{"identifiers", required_argument, NULL, OPT_IDS},
		{"no-identifiers", required_argument, NULL, OPT_NOIDS},
		{"doc", required_argument, NULL, OPT_DOC},
		{"no-doc-sections", no_argument, NULL, OPT_NODOC},
		{"export-file", required_argument, NULL, OPT_EXPORT_FILE},
		{"verbose", no_argument, NULL, 'v'},
		{"jobs", required_argument, NULL, 'j'},
		{"werror", no_argument, NULL, OPT_WERROR},
		{NULL, 0, NULL, 0},
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "hvj:W:", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 'h':
			fputs(extract_usage, stdout);
			return 1;
		case OPT_JSON:
			x->format = FMT_JSON;
			break;
		case OPT_MARKDOWN:
			x->format = FMT_MARKDOWN;
			break;
		case OPT_EXPORT:
		case OPT_INTERNAL:
			if (x->sel.mode != QU_SELECT_ALL)
				return cmd_usage_error(
					"extract", "--export and --internal "
						   "exclude each other");
			x->sel.mode = opt == OPT_EXPORT ? QU_SELECT_EXPORT
							: QU_SELECT_INTERNAL;
			break;
		case OPT_IDS:
			add_names(ids, optarg);
			break;
		case OPT_NOIDS:
			add_names(noids, optarg);
			break;
		case OPT_DOC:
			x->sel.doc = optarg;
			break;
		case OPT_NODOC:
			x->sel.no_doc_sections = true;
			break;
		case OPT_EXPORT_FILE:
			if (cmd_files_expand(&x->export_files, "extract",
					     optarg, false) < 0)
				return QU_EXIT_USAGE;
			break;
		case 'v':
			x->opts.verbose = true;
			break;
		case 'j':
			if (cmd_parse_jobs(threads, optarg) < 0)
				return cmd_usage_error(
					"extract", "bad -j value '%s'", optarg);
			break;
		case 'W':
			if (cmd_parse_werror(optarg) < 0)
				return cmd_usage_error("extract",
						       "unknown option -W%s",
						       optarg);
			/* fall through */
		case OPT_WERROR:
			*werror = true;
			break;
		default:
			return cmd_usage_error("extract", "bad arguments");
		}
	}
	if (optind >= argc)
		return cmd_usage_error("extract", "no FILE given");
	for (int i = optind; i < argc; i++)
		if (cmd_files_expand(&x->files, "extract", argv[i], false) < 0)
			return QU_EXIT_USAGE;
	return 0;
}

static int finish_output(const struct extract *x)
{
	if (x->write_failed || fflush(stdout) || ferror(stdout)) {
		perror("quire extract: standard output");
		return -1;
	}
	return 0;
}

int cmd_extract(int argc, char **argv)
{
	struct extract x = {0};
	struct cmd_files ids = {0}, noids = {0};
	struct qu_diags all;
	bool werror = false;
	unsigned threads = 0;
	size_t nslots, nerr = 0, nwarn = 0;
	int rc;

	rc = parse_args(&x, &ids, &noids, &werror, &threads, argc, argv);
	if (rc) {
		rc = rc == 1 ? QU_EXIT_OK : rc;
		goto out_args;
	}
	x.sel.identifiers = (const char *const *)ids.v;
	x.sel.nidentifiers = ids.n;
	x.sel.no_identifiers = (const char *const *)noids.v;
	x.sel.nno_identifiers = noids.n;
	x.want_exports = x.sel.mode != QU_SELECT_ALL || x.export_files.n;

	nslots = x.files.n + x.export_files.n;
	x.slots = qu_xcalloc(nslots, sizeof(*x.slots));
	for (size_t i = 0; i < nslots; i++) {
		qu_buf_init(&x.slots[i].out);
		qu_diags_init(&x.slots[i].diags);
	}
	qu_map_init(&x.exports);
	if (x.want_exports) {
		/* Every export must be known before any item is selected. */
		qu_pool_run(threads, nslots, read_one, &x);
		for (size_t i = 0; i < nslots; i++)
			if (x.slots[i].src)
				qu_kdoc_add_exports(&x.exports, x.slots[i].src);
		x.sel.exported = &x.exports;
	}
	pthread_mutex_init(&x.out_lock, NULL);
	qu_pool_run(threads, x.files.n, extract_one, &x);
	pthread_mutex_destroy(&x.out_lock);

	rc = finish_output(&x) < 0 ? QU_EXIT_USAGE : QU_EXIT_OK;
	qu_diags_init(&all);
	for (size_t i = 0; i < nslots; i++)
		qu_diags_move(&all, &x.slots[i].diags);
	qu_diags_sort(&all);
	qu_diags_print(&all, stderr, werror);
	qu_diags_count(&nerr, &nwarn, &all);
	if ((nerr || (werror && nwarn)) && rc == QU_EXIT_OK)
		rc = QU_EXIT_FAIL;
	qu_diags_fini(&all);

	for (size_t i = 0; i < nslots; i++) {
		qu_source_free(x.slots[i].src);
		qu_buf_fini(&x.slots[i].out);
	}
	free(x.slots);
	qu_map_fini(&x.exports);
out_args:
	cmd_files_fini(&x.files);
	cmd_files_fini(&x.export_files);
	cmd_files_fini(&ids);
	cmd_files_fini(&noids);
	return rc;
}
