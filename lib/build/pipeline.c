// SPDX-License-Identifier: MIT
/*
 * pipeline.c - the stages in order, for every command that builds
 *
 * Part of lib/build: site, then source and kdoc on the pool, the
 * zero-config pages, the graph, then render on the pool into a folder
 * beside the output that replaces it at the end. Pages whose fingerprint
 * (key.c) matches the last build's are linked from the last site instead
 * of rendered. Called by quire build and the test drivers.
 */
#include <assert.h>
#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdatomic.h>
#include <xxhash.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "build_int.h"
#include "git/git.h"
#include "man/man.h"
#include "markdown/markdown.h"
#include "qu_config.h"
#include "render/render.h"
#include "rst/rst.h"
#include "search/search.h"
#include "source/source.h"

/*
 * A file of the cache written on a thread of its own while the build goes
 * on (writer_start()), waited for before the cache counts as saved
 * (writer_end()): what it returned and why it failed.
 */
struct cache_writer {
	struct qu_thread thread;
	bool started;
	int r;
	struct qu_buf err;
};

struct qu_build {
	const struct qu_build_opts *opts;
	struct qu_site site;
	struct qu_unit *units;
	struct qu_graph_exports *exports;
	char **src_paths;
	struct qu_arena src_arena;	/* owns them */
	struct qu_graph graph;
	struct qu_md *md;
	struct qu_site_reader reader;
	struct qu_render render;
	struct qu_diags *page_diags;
	struct qu_buf *errs;
	struct qu_diags diags;
	struct qu_progress progress;
	struct qu_out out;
	struct build_deps deps;
	struct build_cache cache;
	struct qu_arena cache_paths;
	struct build_map stamp_map;	/* the last stamp: @seen's paths */
	/* what the stamp's check found of each input, by path (stamp.c) */
	struct qu_map seen;
	/* per source, its entry in @deps */
	size_t *src_dep;
	uint64_t *keys;
	bool *keep;
	/* rendered anew with the bytes OUT has: taken from OUT as kept */
	bool *same;
	struct qu_out_id *out_ids;	/* keep_one()'s, for the compose */
	/*
	 * each page's file in OUT, stat(2)ed on a thread while the graph is
	 * made (start_outstat()): whether OUT has it, and which it is
	 */
	struct qu_thread outstat_thread;
	bool outstat_started;
	atomic_size_t outstat_next;	/* the next page to stat(2) */
	/* OUT's record, once the thread has read it (back.c) */
	struct qu_out_view *out_view;
	atomic_bool out_view_ready;
	atomic_size_t out_view_hits;	/* pages it answered for */
	bool *page_in_out;
	struct qu_out_id *page_out_ids;
	/* keep_one()'s: each page's state in the cache, or NULL */
	const struct build_page_state **kept_state;
	uint64_t search_key;
	bool keep_search;
	bool search_pending;
	struct qu_search_memo *memo;
	struct qu_graph_memo *gmemo;
	bool gmemo_html;
	/* objects.inv's compressed body (opts->memo) */
	struct qu_inv_memo *imemo;
	uint64_t inv_inputs;	/* build_keys()'s key of objects.inv's body */
	/* why the memo of objects.inv was not read, set on its thread */
	const char *inv_note;
	struct build_key_memo *kmemo; /* build_keys()'s, quire serve's */
	struct qu_index_memo *xmemo;  /* qu_render_init()'s, likewise */
	char **search_kept;
	size_t nsearch_kept;
	size_t search_kept_alloc;
	bool search_keep_failed;
	uint64_t exe;
	uint64_t stamp_key;
	struct build_units ucache;
	/* the unit cache, read on a thread while the site is listed */
	struct qu_thread peek;
	char *peek_dir;	/* when it was started */
	atomic_bool peek_cancel;	/* the build has nothing to do */
	bool peeked;
	/* every diagnostic, sorted for the stamp, for qu_build_diags() */
	struct qu_diags sorted;
	bool sorted_ok;
	/* the stamp, written on a thread while the site is put in place */
	struct qu_thread stamp_thread;
	struct qu_file_out stamp_out;
	bool stamp_started;
	bool stamp_ready;
	bool deps_sorted;	/* build_deps_sort() done */
	/* the comments' references, read on a thread while units are loaded */
	struct qu_thread memo_thread;
	bool memo_started;
	uint64_t memo_key;
	const char *gmemo_why;
	bool refs_read;		/* refs_read() was called */
	uint64_t refs_units;	/* the memo's units' hash, as read */
	uint64_t refs_units_now;	/* units_hash() of this build's units */
	/* the search index's state, read on a thread while the graph is made */
	struct qu_thread sstate_thread;
	char *sstate_path;
	struct qu_search_state *sstate;
	/* it and OUT's record, read while the site is listed (prefetch_job()) */
	struct qu_thread prefetch;
	bool prefetching;
	bool prefetched;	/* from the cache folder the build uses */
	bool sstate_pre;	/* end_sstate() takes pre_sstate */
	struct qu_search_state *pre_sstate;
	struct qu_out_view *pre_view;
	struct build_stat *st;
	bool *st_ok;
	bool *dirty;
	/* per source: the unit is the last build's, taken from memory */
	bool *taken;
	/* per source, its unit's content hash in the unit cache, or zero */
	struct qu_hash128 *was;
	/* the last stamp as read: its inputs in order, their stats now */
	struct build_stamp stamp;
	/* @seen made from it, when first asked (seen_map()) */
	pthread_mutex_t seen_lock;
	bool seen_made;
	/* per worker of the parse, past its last entry of each */
	size_t *seen_at, *unit_at;
	atomic_size_t nparsed;
	atomic_size_t nreused;
	char *dir_abs;
	/* the folder OUT lies in, as the walk names it, when it walked it */
	char *out_walked_parent;
	/* the walk's folder listings, kept in the stamp for the next build */
	struct qu_files_memo *listings;
	char *out_abs;
	char *cache_dir;
	/* the search index's state file, when this build wrote one */
	char *search_state;
	struct qu_search_next *search_next;	/* being written */
	/* the last placement, read with the references' memo (memo_job()) */
	struct build_map place_map;
	const void *place_data;
	size_t place_len;
	uint64_t place_was[2];	/* its placement key and symbols' hash */
	const char *place_why;
	uint64_t place_key;	/* this build's, when it placed anew */
	uint64_t *shapes;	/* per source, qu_graph_unit_shape() */
	/* this build's placement being written (start_place()) */
	struct cache_writer place_w;
	/* the references' memo being written (start_refs()) */
	struct cache_writer refs_w;
	/* the unit cache being written (units_start()) */
	struct cache_writer units_w;
	bool units_apart;
	char *theme;
	char *version;
	struct qu_git_tree *rev;
	struct qu_files *rev_files;
	struct build_history hist;
	const struct qu_files *theme_files;
	bool linked;
	bool uptodate;
	struct qu_build *prev;
	/* opts->in_place: the files OUT holds; this build updates it so */
	struct qu_out_list live;
	bool in_place;
	/* qu_build_changed(): the inputs that may have changed, sorted */
	char **hint;
	size_t nhint;
	bool hinted;
	double t0, tp, started;
	struct qu_build_stats stats;
	/* the docs root's .dot files, drawn (render.graphs), their SVGs */
	struct qu_render_graph *graphs;
	struct qu_buf *graph_svgs;
	size_t ngraphs;
	uint64_t graphs_key;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* QUIRE_TIMING=1 prints how long each phase took, for benchmarks. */
static void phase(struct qu_build *b, const char *what)
{
	double n = now();

	if (b->opts->timing) {
		struct rusage ru;
		char line[128];
		long anon = -1;
		FILE *f = fopen("/proc/self/status", "r");

		/*
		 * with the process's peak memory so far, and the anonymous
		 * memory it holds now (each page of which was zeroed for it)
		 */
		getrusage(RUSAGE_SELF, &ru);
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "RssAnon: %ld kB", &anon) == 1)
				break;
		if (f)
			fclose(f);
		fprintf(stderr,
			"quire build: %-8s %6.2f s  %5ld MB peak  "
			"%5ld MB anonymous\n",
			what, n - b->tp, ru.ru_maxrss / 1024, anon / 1024);
	}
	b->tp = n;
}

/*
 * The build's memory in 2 MB pages from now on when it is large: more
 * than one in 64 of @of changed (of the inputs, after the stamp), or of
 * the pages are rendered (after the keys); @of 0 (no stamp to go by) is
 * large. A small build (one edit in a kernel tree: 130 MB it touches
 * once) stays in 4 KB pages (qu_mem_huge()). A site of fewer than 64
 * pages or inputs is large by this measure at any change: it is small
 * enough for either to make no difference.
 */
static void pages_for(const struct qu_build *b, size_t changed, size_t of,
		      const char *after)
{
	if (qu_mem_is_huge() || (of && changed <= of / 64))
		return;
	qu_mem_huge();
	if (b->opts->timing)
		fprintf(stderr,
			"quire build: huge pages after %s: "
			"%zu of %zu changed\n",
			after, changed, of);
}

/*
 * The theme's folder: a path, or a name looked up where themes live. A
 * theme inside the docs tree is read where the pages are (a revision,
 * with --rev: @files_out is the site's); any other from the file system.
 */
static char *find_theme(const struct qu_site *s,
			const struct qu_files **files_out)
{
	const char *name = s->cfg.theme ? s->cfg.theme : "default";
	struct qu_buf b = QU_BUF_INIT;
	char exe[PATH_MAX];
	const char *env = getenv("QUIRE_THEMES");
	ssize_t n;

	*files_out = s->files;
	if (strchr(name, '/')) {
		if (name[0] == '/')
			qu_buf_adds(&b, name);
		else
			qu_buf_add_path(&b, s->root, name);
		return qu_buf_detach(&b, NULL);
	}
	qu_buf_addf(&b, "%s/themes/%s/page.html", s->root, name);
	if (!qu_files_stat(s->files, &(struct qu_fstat){0}, b.buf, true))
		goto found;
	*files_out = NULL;
	qu_buf_reset(&b);
	if (env) {
		qu_buf_addf(&b, "%s/%s/page.html", env, name);
		if (!access(b.buf, R_OK))
			goto found;
	}
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
	if (!access(b.buf, R_OK))
		goto found;
	qu_buf_reset(&b);
	qu_buf_addf(&b, "%s/%s/page.html", QU_SRC_THEMES, name);
found:
	b.len -= strlen("/page.html");
	b.buf[b.len] = 0;
	return qu_buf_detach(&b, NULL);
}

/* The GNU build ID of the program (the first object listed), if any. */
static int build_id(struct dl_phdr_info *info, size_t size, void *payload)
{
	uint64_t *h = payload;
	size_t i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
		size_t off = 0;

		if (ph->p_type != PT_NOTE)
			continue;
		while (off + sizeof(ElfW(Nhdr)) <= ph->p_memsz) {
			const ElfW(Nhdr) *n = (const void *)(p + off);
			size_t name = (n->n_namesz + 3) & ~(size_t)3;
			size_t desc = (n->n_descsz + 3) & ~(size_t)3;
			const char *d = (const char *)(n + 1) + name;

			if (off + sizeof(*n) + name + desc > ph->p_memsz)
				break;
			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
			    !memcmp(n + 1, "GNU", 4) && n->n_descsz) {
				*h = XXH3_64bits(d, n->n_descsz);
				return 1;
			}
			off += sizeof(*n) + name + desc;
		}
	}
	/* only the program itself: a library's ID is not quire's */
	return 1;
}

/*
 * The quire executable's identity: a cache written by another build of
 * quire, even of the same version, must not be trusted. The linker's
 * build ID (a hash of the linked program) when it has one, read from
 * memory; else a hash of the executable's bytes.
 */
static uint64_t exe_hash(void)
{
	struct qu_buf data = QU_BUF_INIT, err = QU_BUF_INIT;
	uint64_t h = 0;

	dl_iterate_phdr(build_id, &h);
	if (h)
		return h;
	if (!qu_file_read(&data, "/proc/self/exe", &err))
		h = XXH3_64bits(data.buf, data.len);
	qu_buf_fini(&data);
	qu_buf_fini(&err);
	return h;
}

uint64_t build_output_key(const struct qu_build *b)
{
	struct qu_buf links = QU_BUF_INIT, edit = QU_BUF_INIT;
	uint64_t r;

	/* origin is configuration, not part of any commit */
	if (b->rev) {
		qu_git_source_url(&links, b->rev, NULL);
		qu_git_edit_url(&edit, b->rev);
		qu_buf_addc(&links, '\n');
		qu_buf_add(&links, edit.buf, edit.len);
	}
	r = build_site_key(b->rev ? qu_git_tree_commit(b->rev) : NULL,
			   links.buf, b->theme_files, b->theme, b->exe,
			   !b->opts->no_history &&
				   !b->site.cfg.no_last_changed);
	qu_buf_fini(&links);
	qu_buf_fini(&edit);
	return r;
}

/* The cache folder: as asked, else ".quire-cache" beside the output. */
static char *cache_folder(const struct qu_build_opts *o, const char *out_abs)
{
	struct qu_buf b = QU_BUF_INIT;
	const char *sl;

	if (o->cache)
		return qu_path_resolve(o->cache);
	sl = strrchr(out_abs, '/');
	qu_buf_addf(&b, "%.*s/.quire-cache", (int)(sl - out_abs), out_abs);
	return qu_buf_detach(&b, NULL);
}

/*
 * Whether a source a page names lies in the output folder: a marker says
 * quire wrote the folder, not that all of it is quire's. Sources resolve
 * inside srctree (lib/site confines them), so only an OUT inside srctree
 * can hold one, and a path's spelling below srctree_real is its place.
 */
static bool sources_in(const struct qu_build *b, const char *shown,
		       struct qu_buf *err)
{
	const char *src = b->site.srctree_real;
	struct qu_buf p = QU_BUF_INIT;
	bool hit = false;
	size_t i;

	/* without quire.yml the walk that found the sources left OUT out */
	if (b->site.zero_config || !src || !qu_path_is_below(b->out_abs, src))
		return false;
	for (i = 0; i < b->site.nsources && !hit; i++) {
		char *abs;

		qu_buf_reset(&p);
		qu_buf_add_path(&p, strcmp(src, "/") ? src : "",
				b->site.sources[i]);
		abs = qu_path_resolve(p.buf);
		hit = qu_path_is_below(abs, b->out_abs);
		free(abs);
		if (hit)
			qu_buf_addf(err,
				    "refusing to write to %s: it holds %s, "
				    "an input of the build",
				    shown, b->site.sources[i]);
	}
	qu_buf_fini(&p);
	return hit;
}

/* Seconds since the epoch, to compare with file times. */
static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Whether the last build's stamp (stamp.c) says nothing changed: then the
 * build replays its diagnostics and summary, and writes nothing but the
 * depfile. The key covers what the inputs do not: quire itself, the
 * folders named and where themes are looked up.
 */
static bool up_to_date(struct qu_build *b)
{
	const char *themes = getenv("QUIRE_THEMES");
	struct qu_buf k = QU_BUF_INIT;
	struct build_stamp st = {.deps = &b->deps, .diags = &b->diags,
				 .listings = b->listings};

	qu_buf_addf(&k, "%016llx\n%s\n%s\n%s", (unsigned long long)b->exe,
		    b->dir_abs, b->out_abs, themes ? themes : "");
	b->stamp_key = st.key = XXH3_64bits(k.buf, k.len);
	qu_buf_fini(&k);
	b->cache_dir = cache_folder(b->opts, b->out_abs);
	bool ok = build_stamp_check(&st, b->cache_dir, b->out_abs,
				    &b->cache_paths, b->opts->threads,
				    &b->stamp_map);

	/* its inputs in order, for parse_one()'s look-ups */
	b->stamp = st;
	if (!ok) {
		free(b->cache_dir);
		b->cache_dir = NULL;
		return false;
	}
	b->uptodate = true;
	b->stats = st.stats;
	b->stats.nkept = st.stats.npages;
	b->stats.unchanged = true;
	phase(b, "stamp");
	return true;
}

/*
 * A zero-config site of a revision's root is named after the repository
 * ("linux" for linux/.git or linux.git), as one of a folder is after the
 * folder: the root of a revision has no name of its own.
 */
static void name_rev_site(struct qu_build *b)
{
	struct qu_buf n = QU_BUF_INIT;
	const char *sl;

	if (!b->rev || !b->site.zero_config || b->site.cfg.title ||
	    !b->site.root_real || strcmp(b->site.root_real, "//git"))
		return;
	qu_buf_adds(&n, qu_git_tree_gitdir(b->rev));
	while (n.len > 1 && n.buf[n.len - 1] == '/')
		n.buf[--n.len] = 0;
	if (n.len > 5 && !strcmp(n.buf + n.len - 5, "/.git"))
		n.buf[n.len -= 5] = 0;
	else if (n.len > 4 && !strcmp(n.buf + n.len - 4, ".git"))
		n.buf[n.len -= 4] = 0;
	sl = strrchr(n.buf, '/');
	if (sl && sl[1])
		b->site.cfg.title = qu_xstrdup(sl + 1);
	qu_buf_fini(&n);
}

/*
 * --rev: the revision's files take the file system's place for every
 * input but a theme installed outside the docs tree (lib/site reads
 * through them, and so do the sources' workers and the render).
 */
static int open_rev(struct qu_build *b, struct qu_buf *err)
{
	const struct qu_build_opts *o = b->opts;
	const char *repo = o->repo ? o->repo : ".";
	struct qu_buf real = QU_BUF_INIT, e = QU_BUF_INIT;
	struct qu_fstat st;
	int r;

	r = qu_git_tree_open(&b->rev, repo, o->rev, &e);
	if (r == 1)
		qu_buf_addf(err, "%s: not in a git repository", repo);
	else if (r < 0 || qu_git_fs_new(&b->rev_files, b->rev, &e) < 0)
		qu_buf_adds(err, e.buf);
	else if (qu_files_stat(b->rev_files, &st, o->dir, true) < 0 ||
		 st.kind != QU_FK_DIR)
		qu_buf_addf(err, "%s: no such folder in %s", o->dir, o->rev);
	else if (qu_files_real(b->rev_files, &real, o->dir) == 0)
		b->dir_abs = qu_buf_detach(&real, NULL);
	b->site.files = b->rev_files;
	qu_buf_fini(&real);
	qu_buf_fini(&e);
	return b->dir_abs ? 0 : -1;
}

static void *peek_job(void *payload)
{
	struct qu_build *b = payload;

	b->peeked = build_units_peek(&b->ucache, b->peek_dir, b->exe,
				     &b->peek_cancel);
	return NULL;
}

/*
 * quire build with a cache: its units, read on a thread of their own
 * while the main one checks the stamp and lists the site, when the cache
 * folder carries the marker and is neither OUT nor in it nor holding it.
 * The reading makes, changes and removes nothing (build_units_peek());
 * qu_build_link() takes
 * what it read once qu_build_new() has checked the folder in full, and
 * reads the cache as usual when it read nothing.
 */
static void start_peek(struct qu_build *b)
{
	const struct qu_build_opts *o = b->opts;
	struct qu_buf m = QU_BUF_INIT;
	struct stat st;
	char *dir;

	if (!o->out || o->no_cache || o->rev || o->memo)
		return;
	dir = cache_folder(o, b->out_abs);
	qu_buf_add_path(&m, dir, QU_CACHE_MARKER);
	if (!lstat(m.buf, &st) && S_ISREG(st.st_mode) &&
	    !qu_path_is_below(dir, b->out_abs) &&
	    !qu_path_is_below(b->out_abs, dir)) {
		b->peek_dir = dir;
		qu_thread_start(&b->peek, true, peek_job, b);
	} else {
		free(dir);
	}
	qu_buf_fini(&m);
}

/*
 * A build that does something reads the search index's state and OUT's
 * record (qu_out_view_open()) while the main thread lists the site (a
 * kernel tree: 20 ms with the other processor idle), from the cache
 * folder the units are peeked from. Reading makes, changes and removes
 * nothing; start_sstate() and outstat_job() take what was read once
 * qu_build_new() has checked that folder in full, as the units are.
 */
static void *prefetch_job(void *payload)
{
	struct qu_build *b = payload;
	struct qu_buf p = QU_BUF_INIT;

	build_search_state_path(&p, b->peek_dir, b->out_abs);
	b->pre_sstate = qu_search_state_read(p.buf);
	/* as start_outstat() would */
	if (!b->opts->in_place) {
		qu_buf_reset(&p);
		build_back_path(&p, b->peek_dir, b->out_abs);
		b->pre_view = qu_out_view_open(b->out_abs, p.buf);
	}
	qu_buf_fini(&p);
	return NULL;
}

static void start_prefetch(struct qu_build *b)
{
	if (!b->peek_dir || b->opts->threads == 1)
		return;
	b->prefetching = true;
	qu_thread_start(&b->prefetch, true, prefetch_job, b);
}

/* What prefetch_job() read, kept when the build's cache is where it read */
static void end_prefetch(struct qu_build *b)
{
	if (!b->prefetching)
		return;
	qu_thread_wait(&b->prefetch);
	b->prefetching = false;
	b->prefetched = b->cache_dir && !strcmp(b->cache_dir, b->peek_dir);
	if (!b->prefetched) {
		qu_search_state_free(b->pre_sstate);
		b->pre_sstate = NULL;
		qu_out_view_free(b->pre_view);
		b->pre_view = NULL;
	}
}

static void *sstate_job(void *payload)
{
	struct qu_build *b = payload;

	b->sstate = qu_search_state_read(b->sstate_path);
	return NULL;
}

/*
 * quire build with a cache: the search index's state (tens of megabytes
 * for a kernel tree) mapped and checked on a thread of its own while the
 * units are loaded and the graph is made; write_search() takes it.
 */
static void start_sstate(struct qu_build *b)
{
	struct qu_buf p = QU_BUF_INIT;
	/* being read from this cache already: end_sstate() takes it */
	bool pre = b->prefetching && b->cache_dir &&
		   !strcmp(b->cache_dir, b->peek_dir);

	if (!pre)
		end_prefetch(b);
	if (!b->cache_dir || b->opts->memo)
		return;
	build_search_state_path(&p, b->cache_dir, b->out_abs);
	b->sstate_path = qu_buf_detach(&p, NULL);
	if (pre)
		b->sstate_pre = true;
	else
		qu_thread_start(&b->sstate_thread, true, sstate_job, b);
}

static struct qu_search_state *end_sstate(struct qu_build *b)
{
	if (b->sstate_pre) {
		end_prefetch(b);
		b->sstate = b->pre_sstate;
		b->pre_sstate = NULL;
		b->sstate_pre = false;
	}
	qu_thread_wait(&b->sstate_thread);
	return b->sstate;
}

/* What the thread read, once it is done; false when it read nothing. */
static bool end_peek(struct qu_build *b)
{
	if (!b->peek_dir)
		return false;
	qu_thread_wait(&b->peek);
	if (b->peeked && (!b->cache_dir || strcmp(b->cache_dir, b->peek_dir))) {
		build_units_fini(&b->ucache);
		b->peeked = false;
	}
	return b->peeked;
}

int qu_build_new(struct qu_build **out, const struct qu_build_opts *opts,
		 struct qu_buf *err)
{
	struct qu_build *b = qu_xcalloc(1, sizeof(*b));
	struct qu_buf skip = QU_BUF_INIT, tmp = QU_BUF_INIT;
	const char *dir = opts->dir;
	char *src_abs = NULL, *cfg = NULL;
	bool stamped;
	int r = -1;

	*out = b;
	b->opts = opts;
	b->exe = exe_hash();
	b->t0 = b->tp = now();
	b->started = wall_now();
	qu_diags_init(&b->diags);
	qu_arena_init(&b->cache_paths);
	qu_map_init(&b->seen);
	pthread_mutex_init(&b->seen_lock, NULL);
	if (opts->rev ? open_rev(b, err) < 0 : !(b->dir_abs = qu_path_resolve(dir)))
		goto out;
	if (opts->out) {
		b->out_abs = qu_path_resolve(opts->out);
		if (qu_path_is_below(b->out_abs, b->dir_abs) &&
		    strcmp(b->out_abs, b->dir_abs)) {
			/* the output inside the tree is left out of the walk */
			size_t dl = strlen(dir);

			/* as lib/site names paths: the root without "/" */
			while (dl > 1 && dir[dl - 1] == '/')
				dl--;
			qu_buf_addf(&skip, "%.*s%s",
				    (int)(strcmp(dir, "/") ? dl : 0), dir,
				    b->out_abs + strlen(b->dir_abs));
		}
	}
	/*
	 * The units read while the stamp's inputs are stat(2)ed, not only
	 * while the site is listed: a build that does something needs
	 * nearly all of them, and a kernel tree's (52 MB) took longer to
	 * read than the listing. A build with nothing to do stops the read.
	 */
	start_peek(b);
	/* a revision has no stat data: it is built, from the cache */
	stamped = opts->out && !opts->no_cache && opts->skip_unchanged &&
		  !opts->rev;
	/*
	 * The folders whose stat(2) data is as the stamp recorded list as
	 * they did then (a kernel tree: 5,000 folders); quire serve's
	 * watcher keeps its own.
	 */
	if (stamped && !opts->lister)
		b->listings = qu_files_memo_new();
	if (stamped && up_to_date(b)) {
		atomic_store(&b->peek_cancel, true);
		r = 0;
		goto out;
	}
	phase(b, "stamp");
	pages_for(b, b->stamp.nchanged, b->stamp.n, "stamp");
	start_prefetch(b);
	/* lib/markdown reads the pages for lib/site: directives, headings */
	b->md = qu_md_new(false);
	b->reader.blocks = qu_md_blocks;
	b->reader.headings = qu_md_page_headings;
	b->reader.ctx = b->md;
	/* and lib/rst reads the reST pages: directives, sections, labels */
	b->reader.rst = qu_rst_site_read;
	b->reader.rst_ctx = NULL;
	if (!opts->rev)
		b->site.lister = opts->lister	? opts->lister
				 : b->listings ? qu_files_memo_files(b->listings)
					       : NULL;
	if (qu_site_load(&b->site, dir, skip.len ? skip.buf : NULL, &b->reader,
			 err) < 0)
		goto out;
	if (skip.len) {
		char *sl = strrchr(skip.buf, '/');

		b->out_walked_parent = sl ? qu_xstrndup(skip.buf,
						       (size_t)(sl - skip.buf))
					  : qu_xstrdup(".");
	}
	phase(b, "site");
	/* a broken quire.yml or front matter: its errors, nothing written */
	if (b->site.broken)
		goto out;
	name_rev_site(b);
	b->theme = find_theme(&b->site, &b->theme_files);
	if (!b->site.zero_config || b->site.cfg.api) {
		qu_buf_addf(&tmp, "%s/quire.yml", b->site.root);
		cfg = qu_buf_detach(&tmp, NULL);
	}
	if (opts->out) {
		const char *inputs[4], *shown[4];
		size_t n = 0;

		if (opts->rev) {
			/* the inputs are the repository's objects */
			src_abs = qu_path_resolve(qu_git_tree_gitdir(b->rev));
			inputs[n] = src_abs;
			shown[n++] = "the repository";
			if (qu_path_is_below(b->out_abs, src_abs)) {
				qu_buf_addf(err,
					    "refusing to write to %s: it is "
					    "in the repository",
					    opts->out);
				goto out;
			}
		} else {
			src_abs = qu_path_resolve(b->site.srctree);
			inputs[n] = b->dir_abs;
			shown[n++] = dir;
			inputs[n] = src_abs;
			shown[n++] = b->site.srctree;
		}
		if (!b->theme_files) {
			inputs[n] = b->theme;
			shown[n++] = "the theme";
		}
		if (cfg && !opts->rev) {
			inputs[n] = cfg;
			shown[n++] = "quire.yml";
		}
		if (qu_owned_check(b->out_abs, opts->out, QU_SITE_MARKER,
				   inputs, n, shown, err) < 0 ||
		    sources_in(b, opts->out, err))
			goto out;
		if (!opts->no_cache) {
			b->cache_dir = cache_folder(opts, b->out_abs);
			if (qu_path_is_below(b->cache_dir, b->out_abs) ||
			    qu_path_is_below(b->out_abs, b->cache_dir)) {
				qu_buf_addf(err,
					    "refusing the cache folder %s: it "
					    "is, holds or lies in the output "
					    "folder",
					    b->cache_dir);
				goto out;
			}
			if (qu_owned_check(b->cache_dir, b->cache_dir,
					   QU_CACHE_MARKER, inputs, n, shown,
					   err) < 0)
				goto out;
		}
	}
	if (cfg)
		build_deps_add(&b->deps, cfg);
	r = 0;
out:
	qu_buf_fini(&skip);
	qu_buf_fini(&tmp);
	free(src_abs);
	free(cfg);
	return r;
}

/*
 * Take source @i's unit from the build before (quire serve keeps it in
 * memory) when the file's stat data is what that build saw, and it was
 * not changed close to that build's reading it (racy, as units.c says).
 */
static int cmp_str(const void *a, const void *b);

static bool take_unit(struct qu_build *b, size_t i)
{
	struct qu_build *p = b->prev;
	const char *key = b->site.sources[i];
	const char **hit = bsearch(&key, p->site.sources, p->site.nsources,
				   sizeof(char *), cmp_str);
	struct build_stat now;
	struct qu_fstat sb;
	size_t j, k;
	bool told;

	if (!hit || !p->units)
		return false;
	j = (size_t)(hit - p->site.sources);
	/* a source the watcher did not name is as the last build saw it */
	told = b->hinted && p->st_ok[j] &&
	       !bsearch(&b->src_paths[i], b->hint, b->nhint, sizeof(char *),
			cmp_str);
	if (told)
		now = p->st[j];
	else if (qu_files_stat(b->site.files, &sb, b->src_paths[i], true) < 0)
		return false;
	else
		build_stat_of(&now, &sb);
	if (!p->st_ok[j] || !p->units[j].path ||
	    memcmp(&now, &p->st[j], sizeof(now)) ||
	    (double)now.mtime / 1e9 + 2.0 >= p->started ||
	    (double)now.ctime / 1e9 + 2.0 >= p->started)
		return false;
	b->units[i] = p->units[j];
	b->exports[i] = p->exports[j];
	memset(&p->units[j], 0, sizeof(p->units[j]));
	memset(&p->exports[j], 0, sizeof(p->exports[j]));
	b->units[i].path = key;
	for (k = 0; k < b->units[i].diags.n; k++)
		b->units[i].diags.v[k].path = b->src_paths[i];
	b->st[i] = now;
	b->st_ok[i] = true;
	b->taken[i] = true;
	/* the unit cache on disk has it as the last build left it */
	b->dirty[i] = false;
	atomic_fetch_add(&b->nreused, 1);
	return true;
}

/*
 * What stat(2) says of source @i: what the stamp's check found, when it
 * looked, else asked now; either way kept for the next stamp, so that a
 * build stats each input once.
 */
/*
 * What the stamp's check found of each input, by path: made when first
 * asked (a kernel tree's 60,000 entries), which a build whose sources
 * are those of the stamp, in its order, never does.
 */
static const struct qu_map *seen_map(struct qu_build *b)
{
	pthread_mutex_lock(&b->seen_lock);
	if (!b->seen_made) {
		build_stamp_seen(&b->seen, &b->stamp);
		b->seen_made = true;
	}
	pthread_mutex_unlock(&b->seen_lock);
	return &b->seen;
}

static const struct qu_map *seen_map_of(void *b)
{
	return seen_map(b);
}

/*
 * What the stamp's check found of source @i, @p, for the worker
 * @worker. The stamp lists the inputs in the order the last build added
 * them: its folders, then its sources in site order. With the same
 * sources, source @i is the stamp's (@i)th file; else the sources a
 * worker takes in turn are a few entries past its last one; else the
 * table of all says.
 */
static const struct build_fstamp *build_seen(struct qu_build *b, size_t i,
					     unsigned worker, const char *p)
{
	const struct build_stamp *st = &b->stamp;
	size_t *at = &b->seen_at[worker], k = st->first_file + i;
	const struct build_fstamp *f;

	if (k < st->n && !strcmp(st->paths[k], p)) {
		*at = k + 1;
		return &st->now[k];
	}
	if ((f = build_stamp_near(st, at, p)))
		return f;
	if (!st->n)
		return NULL;
	f = qu_map_get(seen_map(b), p, strlen(p));
	if (f)
		*at = (size_t)(f - st->now) + 1;
	return f;
}

static int stat_source(struct qu_build *b, size_t i, unsigned worker,
		       struct qu_fstat *out)
{
	const char *p = b->src_paths[i];
	struct build_dep *d = &b->deps.v[b->src_dep[i]];
	const struct build_fstamp *seen;

	if (b->site.files)
		return qu_files_stat(b->site.files, out, p, true);
	seen = build_seen(b, i, worker, p);
	if (seen)
		d->st = *seen;
	else
		build_fstamp_of(&d->st, p);
	d->have_st = true;
	return build_fstamp_stat(out, &d->st);
}

/*
 * Parse one source on a worker: the unit keeps the items, the exports and
 * the diagnostics; the bytes of the file are freed at once, so the tree's
 * sources are never all in memory.
 */
static void parse_unit(struct qu_job *job, size_t i, void *payload)
{
	struct qu_build *b = payload;
	struct qu_unit *u = &b->units[i];
	const struct build_unit_entry *e = NULL;
	struct qu_source *src = NULL;
	const struct qu_files *fs = b->site.files;
	struct qu_fstat sb;
	size_t k;
	int r;

	if (b->prev && take_unit(b, i)) {
		qu_progress_tick(&b->progress, job);
		return;
	}
	if (b->ucache.n && !stat_source(b, i, job->worker, &sb)) {
		build_stat_of(&b->st[i], &sb);
		e = build_units_find_near(&b->ucache, b->site.sources[i],
					  &b->unit_at[job->worker]);
		if (e)
			b->was[i] = e->hash;
		if (e && build_units_fresh(&b->ucache, e, &b->st[i]) &&
		    build_units_load(&b->ucache, u, &b->exports[i], e,
				     b->src_paths[i])) {
			u->path = b->site.sources[i];
			b->st_ok[i] = true;
			qu_progress_tick(&b->progress, job);
			return;
		}
	} else if (!stat_source(b, i, job->worker, &sb)) {
		build_stat_of(&b->st[i], &sb);
	} else {
		memset(&b->st[i], 0, sizeof(b->st[i]));
	}
	if (fs) {
		/* a revision's blob: the bytes come from the object database */
		qu_buf_reset(&job->scratch);
		r = qu_files_read(fs, &job->scratch, b->src_paths[i],
				  &job->err);
		if (!r)
			src = qu_source_from_mem(b->src_paths[i],
						 job->scratch.buf,
						 job->scratch.len);
	} else {
		r = qu_source_read(&src, job, b->src_paths[i]);
	}
	if (r < 0) {
		qu_diag(&u->diags, QU_W_UNREADABLE, b->src_paths[i], 0, 0, "%s",
			job->err.buf);
		qu_buf_reset(&job->err);
		u->path = b->site.sources[i];
		qu_progress_tick(&b->progress, job);
		return;
	}
	b->st_ok[i] = true;
	if (e && qu_hash128_eq(e->hash, src->hash) &&
	    build_units_load(&b->ucache, u, &b->exports[i], e,
			     b->src_paths[i])) {
		/* touched, or changed too close to the cache: same bytes */
		/* the cache keeps the new stat */
		b->dirty[i] = memcmp(&e->st, &b->st[i], sizeof(e->st)) != 0;
		u->path = b->site.sources[i];
		qu_source_free(src);
		qu_progress_tick(&b->progress, job);
		return;
	}
	atomic_fetch_add(&b->nparsed, 1);
	b->dirty[i] = true;
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
	qu_progress_tick(&b->progress, job);
}

static void parse_one(struct qu_job *job, size_t i, void *payload)
{
	struct qu_build *b = payload;

	parse_unit(job, i, payload);
	/* what placing reads of it, for the placement's key */
	if (b->shapes)
		b->shapes[i] = qu_graph_unit_shape(
			&b->units[i], b->exports ? &b->exports[i] : NULL,
			b->site.sources[i], &job->scratch);
}

/* A zero-config tree's README, as the home page's Markdown. */
static bool read_readme(struct qu_build *b, struct qu_buf *readme)
{
	struct qu_buf p = QU_BUF_INIT, err = QU_BUF_INIT, plain = QU_BUF_INIT;
	bool found = false;

	qu_buf_addf(&p, "%s/README.md", b->opts->dir);
	if (!qu_files_read(b->site.files, readme, p.buf, &err)) {
		build_deps_add(&b->deps, p.buf);
		found = true;
		goto out;
	}
	qu_buf_reset(&p);
	qu_buf_addf(&p, "%s/README", b->opts->dir);
	/* a plain README (the kernel's) is shown as it is */
	if (!qu_files_read(b->site.files, &plain, p.buf, &err) &&
	    !memmem(plain.buf, plain.len, "~~~~~~~~", 8)) {
		build_deps_add(&b->deps, p.buf);
		qu_buf_reset(readme);
		qu_buf_addf(readme, "~~~~~~~~ text\n%s%s~~~~~~~~\n", plain.buf,
			    plain.len && plain.buf[plain.len - 1] == '\n'
				    ? ""
				    : "\n");
		found = true;
	}
out:
	qu_buf_fini(&p);
	qu_buf_fini(&err);
	qu_buf_fini(&plain);
	return found;
}

/* A file in a line: its first DOC: block's title, else an item's brief. */
static const char *file_brief(const struct qu_unit *u)
{
	size_t k;

	for (k = 0; k < u->nitems; k++)
		if (u->items[k].kind == QU_KIND_DOC && u->items[k].name &&
		    *u->items[k].name)
			return u->items[k].name;
	for (k = 0; k < u->nitems; k++)
		if (u->items[k].brief && *u->items[k].brief)
			return u->items[k].brief;
	return NULL;
}

static void zero_pages(struct qu_build *b)
{
	struct qu_site_file *files;
	struct qu_buf readme = QU_BUF_INIT;
	size_t n = 0, i;
	bool has_readme;

	files = qu_xcalloc(b->site.nsources + 1, sizeof(*files));
	for (i = 0; i < b->site.nsources; i++) {
		const struct qu_unit *u = &b->units[i];
		uint32_t docs = 0;
		size_t k;

		if (!u->nitems)
			continue;
		for (k = 0; k < u->nitems; k++)
			docs += u->items[k].kind == QU_KIND_DOC;
		files[n].path = b->site.sources[i];
		files[n].ndocs = docs;
		files[n].nitems = (uint32_t)u->nitems - docs;
		files[n].brief = file_brief(u);
		n++;
	}
	has_readme = read_readme(b, &readme);
	qu_site_zero_pages(&b->site, files, n, has_readme ? readme.buf : NULL,
			   readme.len);
	qu_buf_fini(&readme);
	free(files);
}

/*
 * What the memo of references in the cache was made with: the same bytes
 * of a comment are read alike with the same settings (and by the same
 * quire, which the file records too).
 */
static uint64_t refs_key(const struct qu_build *b)
{
	const struct qu_config *c = &b->site.cfg;
	uint64_t v[] = {c->allow_html, c->comment_markup, c->sphinx,
			b->site.zero_config};

	return XXH3_64bits(v, sizeof(v));
}

/*
 * The graph's reader: pages' Markdown as lib/markdown renders it, and
 * comments in the site's comment markup, as they are rendered.
 */
static void site_runs(void *ctx, const char *text, size_t len, bool comment,
		      qu_graph_run_fn fn, void *payload)
{
	struct qu_build *b = ctx;

	if (comment && b->site.cfg.comment_markup == QU_MARKUP_RST)
		qu_render_rst_runs(NULL, text, len, comment, fn, payload);
	else
		qu_md_runs(b->md, text, len, comment, fn, payload);
}
/*
 * What the comments named in the builds before (opts->memo): kept while
 * Markdown is read the same way, which allow_html changes.
 */
/* The hash of the units' content hashes @h (one a source). */
static uint64_t units_hash(const struct qu_hash128 *h, size_t n)
{
	return XXH3_64bits(h, n * sizeof(*h));
}

/*
 * What the comments named in the builds before, from the cache: only
 * for a build that places its items anew (else the placement it takes
 * carries what each comment refers to, and the memo is neither read nor
 * written). A memo that a build taking the placement left behind is not
 * of the unit cache's units: it is not told which units it had
 * (qu_graph_memo_since()), so that it forgets every entry of a unit the
 * site no longer has.
 */
static void refs_read(struct qu_build *b)
{
	b->refs_read = true;
	b->gmemo = qu_graph_memo_new();
	b->gmemo_why = build_refs_read(b->gmemo, b->cache_dir, b->exe,
				       b->memo_key, &b->refs_units);
}

static void refs_since(struct qu_build *b)
{
	if (b->gmemo && b->refs_units &&
	    b->refs_units == units_hash(b->was, b->site.nsources))
		qu_graph_memo_since(b->gmemo, b->was, b->site.nsources);
}

static void *memo_job(void *payload)
{
	struct qu_build *b = payload;

	b->place_why = build_place_read(&b->place_map, &b->place_data,
					&b->place_len, b->cache_dir, b->exe,
					b->place_was);
	/* no placement to take: the memo is wanted */
	if (!b->place_len)
		refs_read(b);
	return NULL;
}

/*
 * A build with a cache reads what the last one's comments named on a
 * thread of its own while the units are loaded (a kernel tree's: 60,000
 * items, 2 MB); graph_memo() takes it.
 */
static void start_memo(struct qu_build *b)
{
	if (b->opts->memo || !b->cache_dir)
		return;
	b->memo_started = true;
	b->memo_key = refs_key(b);
	qu_thread_start(&b->memo_thread, b->opts->threads != 1, memo_job, b);
}

static struct qu_graph_memo *graph_memo(struct qu_build *b)
{
	/* a build with a cache reads what the last one kept there */
	if (b->memo_started) {
		qu_thread_wait(&b->memo_thread);
		b->memo_started = false;
		if (b->gmemo_why && !b->stats.cache_note)
			b->stats.cache_note = b->gmemo_why;
		if (b->place_why && !b->stats.cache_note)
			b->stats.cache_note = b->place_why;
		/* the memo's units are the unit cache's */
		refs_since(b);
		return b->gmemo;
	}
	if (!b->opts->memo)
		return NULL;
	if (b->gmemo && b->gmemo_html != b->site.cfg.allow_html) {
		qu_graph_memo_free(b->gmemo);
		b->gmemo = NULL;
	}
	if (!b->gmemo)
		b->gmemo = qu_graph_memo_new();
	b->gmemo_html = b->site.cfg.allow_html;
	return b->gmemo;
}

/*
 * A build with a cache takes the last build's placement when what
 * placing reads is the same (qu_graph_place_key()): an edit to a
 * comment's words. graph_memo() has waited for its reading.
 */
static void place_unmap(struct qu_build *b)
{
	qu_file_unmap(b->place_map.p, b->place_map.size);
	memset(&b->place_map, 0, sizeof(b->place_map));
	b->place_data = NULL;
	b->place_len = 0;
}

static bool place_from_cache(struct qu_build *b,
			     const struct qu_graph_reader *rd)
{
	bool ok;

	if (!b->shapes)
		return false;
	b->place_key = qu_graph_place_key(&b->site, b->shapes, b->exports);
	ok = b->place_len && b->place_was[0] == b->place_key &&
	     qu_graph_place_load(&b->graph, &b->site, b->units, b->exports,
				 b->place_data, b->place_len, b->place_map.p,
				 b->place_map.size, refs_key(b), rd,
				 &b->diags, b->opts->threads);
	/* the graph that took the placement took its mapping */
	if (ok)
		memset(&b->place_map, 0, sizeof(b->place_map));
	place_unmap(b);
	/* the keys' hash of the symbols, too: they are the same symbols */
	if (!b->kmemo)
		b->kmemo = qu_xcalloc(1, sizeof(*b->kmemo));
	if (ok) {
		b->kmemo->place_id = b->graph.place_id;
		b->kmemo->syms = b->place_was[1];
		b->place_key = 0;	/* the cache has it */
	}
	return ok;
}

static void *place_job(void *payload)
{
	struct qu_build *b = payload;
	uint64_t key[2] = {b->place_key, b->kmemo->syms};

	b->place_w.r = build_place_write(&b->graph, refs_key(b), b->cache_dir,
					 b->exe, key, &b->place_w.err);
	return NULL;
}

static void writer_start(struct cache_writer *w, struct qu_build *b,
			 void *(*job)(void *))
{
	qu_buf_init(&w->err);
	w->started = true;
	qu_thread_start(&w->thread, b->opts->threads != 1, job, b);
}

/* 0, or -1 with the writer's message added to @err (when not NULL) */
static int writer_end(struct cache_writer *w, struct qu_buf *err)
{
	if (!w->started)
		return 0;
	qu_thread_wait(&w->thread);
	w->started = false;
	if (w->r < 0 && err)
		qu_buf_adds(err, w->err.buf);
	qu_buf_fini(&w->err);
	return w->r;
}

/*
 * A placement made anew, kept for the next build on a thread of its own
 * once the pages' keys have hashed its symbols (build_keys())
 */
static void start_place(struct qu_build *b)
{
	if (b->place_key && b->kmemo &&
	    b->kmemo->place_id == b->graph.place_id)
		writer_start(&b->place_w, b, place_job);
}

static void start_outstat(struct qu_build *b);

void qu_build_link(struct qu_build *b)
{
	const struct qu_build_opts *o = b->opts;
	struct qu_buf tmp = QU_BUF_INIT;
	size_t i;

	assert(!b->linked);
	b->linked = true;
	if (b->uptodate)
		return;
	b->units = qu_xcalloc(b->site.nsources + 1, sizeof(*b->units));
	b->exports = qu_xcalloc(b->site.nsources + 1, sizeof(*b->exports));
	b->src_paths = qu_xcalloc(b->site.nsources + 1, sizeof(char *));
	for (i = 0; i < b->site.nsources; i++) {
		qu_buf_reset(&tmp);
		if (strcmp(b->site.srctree, ".")) {
			qu_buf_adds(&tmp, b->site.srctree);
			qu_buf_addc(&tmp, '/');
		}
		qu_buf_adds(&tmp, b->site.sources[i]);
		b->src_paths[i] = qu_arena_strndup(&b->src_arena, tmp.buf,
						   tmp.len);
	}
	for (i = 0; i < b->site.npages; i++) {
		const struct qu_page *pg = &b->site.pages[i];

		if (pg->src) {
			qu_buf_reset(&tmp);
			qu_buf_add_path(&tmp, b->site.root, pg->src);
			build_deps_add(&b->deps, tmp.buf);
		}
		/* the files reST pages include are inputs as much */
		for (size_t k = 0; k < pg->nparts; k++) {
			const struct qu_part *pt = &pg->parts[k];

			if (pt->kind != QU_PART_INCLUDE)
				continue;
			if (!pt->ninputs)
				build_deps_add(&b->deps, pt->file);
			/* kernel-feat, kernel-abi: each file, each folder */
			for (size_t j = 0; j < pt->ninputs; j++) {
				size_t l = strlen(pt->inputs[j]);

				if (l > 1 && pt->inputs[j][l - 1] == '/') {
					char *dir = qu_xstrndup(pt->inputs[j],
								l - 1);

					build_deps_add_dir(&b->deps, dir);
					free(dir);
				} else {
					build_deps_add(&b->deps,
						       pt->inputs[j]);
				}
			}
		}
	}
	if (b->site.cfg.conf_py)
		build_deps_add(&b->deps, b->site.cfg.conf_py);
	/*
	 * Every folder the walk listed is an input too, so that a new page
	 * (or, without quire.yml, a new source) makes the site out of date,
	 * even in a new folder below one that held none; and the folder of
	 * every other input (a source a directive names), for the same.
	 */
	for (i = 0; i < b->site.nfolders; i++) {
		/* not the folder OUT lies in: every build renames OUT there */
		if (b->out_walked_parent &&
		    !strcmp(b->site.folders[i], b->out_walked_parent))
			continue;
		build_deps_add_dir(&b->deps, b->site.folders[i]);
	}
	if (!b->site.zero_config)
		build_deps_add_folders(&b->deps);
	b->src_dep = qu_xcalloc(b->site.nsources + 1, sizeof(*b->src_dep));
	for (i = 0; i < b->site.nsources; i++) {
		b->src_dep[i] = b->deps.n;
		build_deps_add(&b->deps, b->src_paths[i]);
	}
	b->st = qu_xcalloc(b->site.nsources + 1, sizeof(*b->st));
	b->st_ok = qu_xcalloc(b->site.nsources + 1, sizeof(*b->st_ok));
	b->dirty = qu_xcalloc(b->site.nsources + 1, sizeof(*b->dirty));
	b->taken = qu_xcalloc(b->site.nsources + 1, sizeof(*b->taken));
	b->was = qu_xcalloc(b->site.nsources + 1, sizeof(*b->was));
	/* a build with a cache may take the last placement (place_from_cache()) */
	if (b->cache_dir && !o->memo)
		b->shapes = qu_xcalloc(b->site.nsources + 1,
				       sizeof(*b->shapes));
	start_sstate(b);
	start_memo(b);
	/* quire serve: the last build's open cache, as it left it */
	if (!end_peek(b) && b->cache_dir &&
	    !(b->prev && b->prev->cache_dir &&
	      !strcmp(b->prev->cache_dir, b->cache_dir) &&
	      build_units_take(&b->ucache, &b->prev->ucache))) {
		const char *why =
			build_units_read(&b->ucache, b->cache_dir, b->exe,
					 !b->prev, !o->memo);

		if (why)
			b->stats.cache_note = why;
	}
	/* a snapshot of the unit cache that was there and was not taken */
	if (b->ucache.snap_note && *b->ucache.snap_note &&
	    !b->stats.cache_note)
		b->stats.cache_note = b->ucache.snap_note;
	atomic_init(&b->nparsed, 0);
	atomic_init(&b->nreused, 0);
	qu_progress_init(&b->progress, b->site.nsources, o->quiet);
	{
		unsigned nw = o->threads ? o->threads : qu_ncpus();

		b->seen_at = qu_xcalloc(nw, sizeof(*b->seen_at));
		b->unit_at = qu_xcalloc(nw, sizeof(*b->unit_at));
	}
	qu_pool_run(o->threads, b->site.nsources, parse_one, b);
	qu_progress_done(&b->progress);
	b->stats.nunits = b->site.nsources;
	b->stats.nparsed = atomic_load(&b->nparsed);
	b->stats.nreused = atomic_load(&b->nreused);
	phase(b, "parse");

	if (b->site.zero_config)
		zero_pages(b);
	start_outstat(b);
	qu_md_allow_html(b->md, b->site.cfg.allow_html);
	{
		/* the references are found where the renderer draws links */
		struct qu_graph_reader rd = {site_runs, b, graph_memo(b)};

		/* quire serve: the last placement, when nothing moved */
		if (b->prev && b->prev->graph.site &&
		    qu_graph_reuse(&b->graph, &b->prev->graph, &b->site,
				   b->units, b->exports, b->taken, &rd,
				   &b->diags, o->threads))
			;
		else if (!place_from_cache(b, &rd)) {
			/* placed anew: the memo, when it was left for now */
			if (b->cache_dir && !o->memo && !b->refs_read) {
				refs_read(b);
				if (b->gmemo_why && !b->stats.cache_note)
					b->stats.cache_note = b->gmemo_why;
				refs_since(b);
				rd.memo = b->gmemo;
			}
			qu_graph_build(&b->graph, &b->site, b->units,
				       b->exports, &rd, &b->diags, o->threads);
		}
	}
	for (i = 0; i < b->graph.nplaced; i++)
		b->stats.nitems += b->graph.placed[i].home;
	b->stats.npages = b->site.npages;
	phase(b, "graph");
	qu_buf_fini(&tmp);
}

static void index_memo_free(struct qu_index_memo *m)
{
	if (m)
		free(m->index);
	free(m);
}

void qu_build_reuse(struct qu_build *b, struct qu_build *prev)
{
	assert(!b->linked);
	if (prev && prev->linked && !prev->uptodate && prev->units)
		b->prev = prev;
	/* the terms the last search index read */
	if (prev && prev->memo) {
		b->memo = prev->memo;
		prev->memo = NULL;
	}
	/* and the names the last build's comments made */
	if (prev && prev->gmemo) {
		b->gmemo = prev->gmemo;
		b->gmemo_html = prev->gmemo_html;
		prev->gmemo = NULL;
	}
	/* and objects.inv's compressed body */
	b->imemo = prev ? prev->imemo : NULL;
	if (prev)
		prev->imemo = NULL;
	/* and the symbols' part of the pages' keys, and the index's order */
	if (prev && prev->kmemo) {
		free(b->kmemo);
		b->kmemo = prev->kmemo;
		prev->kmemo = NULL;
	}
	if (prev && prev->xmemo) {
		index_memo_free(b->xmemo);
		b->xmemo = prev->xmemo;
		prev->xmemo = NULL;
	}
	/* and what OUT holds, when a failed build left it as it was */
	if (prev && b->opts->in_place) {
		b->live = prev->live;
		memset(&prev->live, 0, sizeof(prev->live));
	}
}

void qu_build_changed(struct qu_build *b, const char *const *paths,
		      size_t n)
{
	size_t i;

	assert(!b->linked);
	for (i = 0; i < b->nhint; i++)
		free(b->hint[i]);
	free(b->hint);
	b->hint = qu_xcalloc(n + 1, sizeof(*b->hint));
	for (i = 0; i < n; i++)
		b->hint[i] = qu_xstrdup(paths[i]);
	b->nhint = n;
	if (n > 1)
		qsort(b->hint, n, sizeof(*b->hint), cmp_str);
	b->hinted = true;
}

const struct qu_graph *qu_build_graph(const struct qu_build *b)
{
	return &b->graph;
}

/* A .dot file of the docs root: a graph, drawn by draw_graphs(). */
static bool is_graph(const char *asset)
{
	size_t l = strlen(asset);

	return l > 4 && !strcmp(asset + l - 4, ".dot");
}

/*
 * Write one output file into the folder being built; the folder as a
 * whole is what replaces OUT, so plain writes suffice.
 */
static int write_file(const char *dir, const char *out,
		      const struct qu_buf *data, struct qu_buf *err)
{
	struct qu_buf path = QU_BUF_INIT;
	int r;

	qu_buf_add_path(&path, dir, out);
	r = qu_file_write(path.buf, data->buf, data->len, true, err);
	qu_buf_fini(&path);
	return r;
}

/*
 * Whether OUT's file @out holds @data's bytes. A page whose fingerprint
 * moved (a release changes the symbols every page's fingerprint covers)
 * often renders to the same bytes: compared here, on the workers, while
 * the bytes are in memory, it is neither written nor moved into the
 * composed site (back.c), which takes OUT's file as for a kept page.
 */
static bool same_as_out(const struct qu_build *b, const char *out,
			const struct qu_buf *data)
{
	struct qu_buf path = QU_BUF_INIT;
	char buf[65536];
	struct stat st;
	size_t done = 0;
	bool same = false;
	int fd;

	qu_buf_add_path(&path, b->out_abs, out);
	fd = open(path.buf, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	qu_buf_fini(&path);
	if (fd < 0)
		return false;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    (size_t)st.st_size == data->len) {
		same = true;
		while (same && done < data->len) {
			size_t want = data->len - done < sizeof(buf)
					      ? data->len - done
					      : sizeof(buf);
			ssize_t n = read(fd, buf, want);

			if (n <= 0 || memcmp(buf, data->buf + done, (size_t)n))
				same = false;
			else
				done += (size_t)n;
		}
	}
	close(fd);
	return same;
}

/*
 * Take an unchanged page from the last site: a hard link costs no copy
 * and leaves the last site untouched. Return: 0, or -1 to render it.
 */
static int keep_page(const struct qu_build *b, const char *out)
{
	struct qu_buf from = QU_BUF_INIT, to = QU_BUF_INIT;
	struct stat st;
	int r = -1;

	qu_buf_add_path(&from, b->out_abs, out);
	qu_buf_add_path(&to, b->out.tmp, out);
	if (!lstat(from.buf, &st) && S_ISREG(st.st_mode) &&
	    !link(from.buf, to.buf))
		r = 0;
	qu_buf_fini(&from);
	qu_buf_fini(&to);
	return r;
}

/*
 * Render one page or extra file on a worker, with its own diagnostics and
 * error slot: merged in index order afterwards, so -j does not change the
 * output.
 */
static void render_one(struct qu_job *job, size_t i, void *payload)
{
	struct qu_build *b = payload;
	size_t npages = b->site.npages;
	/*
	 * the worker's buffer, page after page, instead of one a page grown
	 * from nothing by doubling and copying
	 */
	struct qu_buf *html = &job->scratch, path = QU_BUF_INIT;
	struct qu_render_pics pics = {0};
	const char *out = i < npages ? b->site.pages[i].out
				     : b->render.extras[i - npages].out;
	int r;

	/* a sparse folder leaves kept pages to the compose (back.c) */
	if (b->keep[i] && (b->out.sparse || !keep_page(b, out)))
		goto done;
	b->keep[i] = false;
	qu_buf_reset(html);
	if (i < npages)
		r = qu_render_page_pics(html, &pics, &b->render, (uint32_t)i,
					&b->page_diags[i]);
	else
		r = qu_render_extra(html, &b->render, i - npages);
	if (r < 0)
		qu_buf_addf(&b->errs[i], "%s: libxml2 could not write the page",
			    out);
	else if (b->out.sparse && same_as_out(b, out, html))
		b->same[i] = true;
	else
		write_file(b->out.tmp, out, html, &b->errs[i]);
	/*
	 * kernel-render's pictures, beside the page; two pages drawing the
	 * same text write the same bytes, so the rename settles it
	 */
	for (size_t k = 0; !r && !b->errs[i].len && k < pics.n; k++) {
		qu_buf_reset(&path);
		qu_buf_add_path(&path, b->out.tmp, pics.v[k].out);
		qu_file_write_atomic(path.buf, pics.v[k].data, pics.v[k].len,
				     &b->errs[i]);
	}
done:
	qu_render_pics_fini(&pics);
	qu_buf_fini(&path);
	qu_progress_tick(&b->progress, job);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every folder the pages go into, made before the workers start. */
static int make_dirs(const struct qu_build *b, struct qu_buf *err)
{
	char **dirs = qu_xcalloc(b->site.npages + 1, sizeof(char *));
	struct qu_buf p = QU_BUF_INIT;
	size_t n = 0, i;
	int r = 0;

	for (i = 0; i < b->site.npages; i++) {
		const char *out = b->site.pages[i].out;
		const char *sl = strrchr(out, '/');

		if (sl && !(b->out.sparse && b->keep[i]))
			dirs[n++] = qu_xstrndup(out, (size_t)(sl - out));
	}
	qsort(dirs, n, sizeof(char *), cmp_str);
	for (i = 0; i < n; i++) {
		if (i && !strcmp(dirs[i], dirs[i - 1]))
			continue;
		qu_buf_reset(&p);
		qu_buf_add_path(&p, b->out.tmp, dirs[i]);
		if (!r && qu_mkdir_p(p.buf, err) < 0)
			r = -1;
	}
	for (i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	qu_buf_fini(&p);
	return r;
}

static int copy_file(struct qu_build *b, const struct qu_files *fs,
		     const char *from, const char *to, struct qu_buf *err)
{
	struct qu_buf data = QU_BUF_INIT;
	int r = qu_files_read(fs, &data, from, err);

	build_deps_add(&b->deps, from);
	if (!r)
		r = qu_file_write_atomic(to, data.buf, data.len, err);
	qu_buf_fini(&data);
	return r;
}

/*
 * Copy a folder recursively; a missing source folder is not an error (a
 * theme may have no static files).
 */
/*
 * What a theme's static entry is, as stat() would say, but a symbolic
 * link counts only when it resolves to a file inside the theme (links to
 * folders could loop, and a link out could publish any file): one leading
 * elsewhere is -Woutside-tree and left out.
 */
static int theme_entry(struct qu_build *b, const char *path,
		       struct qu_fstat *st)
{
	const struct qu_files *fs = b->theme_files;
	struct qu_buf real = QU_BUF_INIT, top = QU_BUF_INIT;
	bool ok;

	if (qu_files_stat(fs, st, path, false) < 0)
		return -1;
	if (st->kind != QU_FK_LINK)
		return 0;
	ok = !qu_files_real(fs, &real, path) &&
	     !qu_files_real(fs, &top, b->theme) &&
	     qu_path_is_below(real.buf, top.buf) &&
	     !qu_files_stat(fs, st, real.buf, true) && st->kind == QU_FK_FILE;
	qu_buf_fini(&real);
	qu_buf_fini(&top);
	if (ok)
		return 0;
	qu_diag(&b->diags, QU_W_OUTSIDE_TREE,
		qu_arena_strdup(&b->site.arena, path), 0, 0,
		"a link in the theme that does not lead to a file of the "
		"theme; not copying it");
	return -1;
}

static int copy_tree(struct qu_build *b, const char *from, const char *to,
		     struct qu_buf *err)
{
	struct qu_buf x = QU_BUF_INIT, y = QU_BUF_INIT;
	char **ents = NULL;
	size_t n = 0, k;
	int r = 0;

	if (qu_files_list(b->theme_files, &ents, NULL, &n, from) < 0)
		return 0;
	/* a file added to the folder is a change too */
	build_deps_add(&b->deps, from);
	b->deps.v[b->deps.n - 1].dir = true;
	if (qu_mkdir_p(to, err) < 0)
		r = -1;
	for (k = 0; k < n; k++) {
		struct qu_fstat st;

		if (!r && ents[k][0] != '.') {
			qu_buf_reset(&x);
			qu_buf_reset(&y);
			qu_buf_add_path(&x, from, ents[k]);
			qu_buf_add_path(&y, to, ents[k]);
			if (theme_entry(b, x.buf, &st) < 0)
				;
			else if (st.kind == QU_FK_DIR)
				r = copy_tree(b, x.buf, y.buf, err);
			else if (st.kind == QU_FK_FILE)
				r = copy_file(b, b->theme_files, x.buf, y.buf,
					      err);
		}
		free(ents[k]);
	}
	free(ents);
	qu_buf_fini(&x);
	qu_buf_fini(&y);
	return r;
}

/* Whether the last site has a search index to keep for a while. */
static bool last_index(const struct qu_build *b)
{
	struct qu_buf p = QU_BUF_INIT;
	bool r;

	qu_buf_addf(&p, "%s/_search/index.js", b->out_abs);
	r = !access(p.buf, R_OK);
	qu_buf_fini(&p);
	return r;
}

/* The cache's entry for the search index: no page's path ends in "/". */
#define SEARCH_STATE "_search/"

static bool listed(const char *name, const char *const *v)
{
	for (; v && *v; v++)
		if (!strcmp(name, *v))
			return true;
	return false;
}

/* A folder of the last site is kept whole, or not at all (rewritten). */
int build_link_tree(const char *from, const char *to,
		    const char *const *skip)
{
	struct qu_buf x = QU_BUF_INIT, y = QU_BUF_INIT, err = QU_BUF_INIT;
	struct dirent **ents = NULL;
	int n = scandir(from, &ents, NULL, alphasort), k, r = 0;

	if (n < 0)
		return -1;
	if (qu_mkdir_p(to, &err) < 0)
		r = -1;
	for (k = 0; k < n; k++) {
		const char *e = ents[k]->d_name;
		struct stat st;

		if (!r && strcmp(e, ".") && strcmp(e, "..") &&
		    !listed(e, skip)) {
			qu_buf_reset(&x);
			qu_buf_reset(&y);
			qu_buf_add_path(&x, from, e);
			qu_buf_add_path(&y, to, e);
			/* the kind as the folder tells it, else lstat(2)'s */
			st.st_mode = ents[k]->d_type == DT_DIR	 ? S_IFDIR
				     : ents[k]->d_type == DT_REG ? S_IFREG
								 : 0;
			if (!st.st_mode && lstat(x.buf, &st) < 0)
				r = -1;
			else if (S_ISDIR(st.st_mode))
				r = build_link_tree(x.buf, y.buf, NULL);
			else if (!S_ISREG(st.st_mode) || link(x.buf, y.buf) < 0)
				r = -1;
		}
		free(ents[k]);
	}
	free(ents);
	qu_buf_fini(&x);
	qu_buf_fini(&y);
	qu_buf_fini(&err);
	return r;
}

/* Link the whole last site into the new folder, but for one folder. */
static int link_site(const struct qu_build *b, const char *skip)
{
	const char *const but[] = {skip, QU_SITE_MARKER, NULL};

	return build_link_tree(b->out_abs, b->out.tmp, but);
}

/*
 * A file of the search index the last site has with the same bytes: a
 * sparse folder leaves it to the compose, a full one links it now.
 */
static void keep_search_file(const char *name, void *payload)
{
	struct qu_build *b = payload;

	QU_VEC_GROW(b->search_kept, b->nsearch_kept, b->search_kept_alloc);
	b->search_kept[b->nsearch_kept++] = qu_xstrdup(name);
	if (!b->out.sparse && keep_page(b, name) < 0)
		b->search_keep_failed = true;
}

/* The search index, OUT/_search/, into the folder being written. */
static int write_search(struct qu_build *b, struct qu_buf *err)
{
	size_t i;
	int r;

	for (i = 0; i < b->nsearch_kept; i++)
		free(b->search_kept[i]);
	b->nsearch_kept = 0;
	b->search_keep_failed = false;
	if (b->opts->memo && !b->memo)
		b->memo = qu_search_memo_new();
	/* a build with a cache updates the index from the last one's */
	free(b->search_state);
	b->search_state = NULL;
	qu_search_next_free(b->search_next);
	b->search_next = NULL;
	if (b->cache_dir && !b->opts->memo) {
		struct qu_buf st = QU_BUF_INIT;
		struct qu_search_cache c = {.page_keys = b->keys,
					    .state = end_sstate(b)};

		build_search_state_path(&st, b->cache_dir, b->out_abs);
		b->search_state = qu_buf_detach(&st, NULL);
		c.path = b->search_state;
		r = qu_search_write(b->out.tmp, &b->site, &b->graph,
				    b->opts->threads, NULL, &c, b->out_abs,
				    keep_search_file, b, err);
		/* its state is still being written: the commit waits */
		b->search_next = c.next;
		b->stats.search_note = c.note;
		b->stats.search_updated = c.updated;
	} else {
		r = qu_search_write(b->out.tmp, &b->site, &b->graph,
				    b->opts->threads, b->memo, NULL,
				    b->out_abs, keep_search_file, b, err);
	}
	if (!r && b->search_keep_failed) {
		qu_buf_addf(err, "%s/_search: cannot link the last index",
			    b->out.tmp);
		r = -1;
	}
	b->stats.nsearch_kept = r ? 0 : b->nsearch_kept;
	return r;
}

/* objects.inv, and sitemap.xml with base_url */
static int write_inventory(struct qu_build *b, struct qu_buf *err)
{
	struct qu_buf x = QU_BUF_INIT;
	struct qu_hash128 was = {0};
	uint64_t was_inputs = 0;
	int r;

	if ((b->opts->memo || b->cache_dir) && !b->imemo) {
		b->imemo = qu_xcalloc(1, sizeof(*b->imemo));
		qu_buf_init(&b->imemo->z);
		qu_buf_init(&b->imemo->syms);
		/* zlib is most of the cost: the last build's body */
		const char *why = b->cache_dir
			? build_inv_read(b->imemo, b->cache_dir, b->exe)
			: NULL;

		if (why)
			b->inv_note = why;
	}
	if (b->imemo) {
		was = b->imemo->key;
		was_inputs = b->imemo->inputs;
	}
	r = qu_graph_inventory(&x, &b->graph, b->render.title,
			       b->render.version, b->imemo, b->inv_inputs);
	if (!r && b->cache_dir && (!qu_hash128_eq(was, b->imemo->key) ||
				   was_inputs != b->imemo->inputs))
		r = build_inv_write(b->imemo, b->cache_dir, b->exe, err);
	if (!r)
		r = write_file(b->out.tmp, "objects.inv", &x, err);
	else if (!err->len)
		qu_buf_adds(err, "objects.inv: zlib failed");
	qu_buf_reset(&x);
	if (!r) {
		/* 1: no base_url, so no sitemap */
		r = qu_render_sitemap(&x, &b->render);
		if (!r)
			r = write_file(b->out.tmp, "sitemap.xml", &x, err);
		else if (r == 1)
			r = 0;
		else
			qu_buf_adds(err, "sitemap.xml: libxml2 failed");
	}
	qu_buf_fini(&x);
	return r;
}

struct inventory_job {
	struct qu_build *b;
	struct qu_buf err;
	int r;
};

static void *inventory_job(void *payload)
{
	struct inventory_job *j = payload;

	j->r = write_inventory(j->b, &j->err);
	return NULL;
}

/* the search index, OUT/_search/: the one call into lib/search */
static int write_search_folder(struct qu_build *b, struct qu_buf *err)
{
	struct qu_buf from = QU_BUF_INIT, to = QU_BUF_INIT;
	bool kept = false;
	int r = 0;

	qu_buf_addf(&from, "%s/_search", b->out_abs);
	qu_buf_addf(&to, "%s/_search", b->out.tmp);
	if (b->keep_search && b->out.sparse) {
		/* the compose keeps the folder whole */
		struct qu_buf idx = QU_BUF_INIT;

		qu_buf_addf(&idx, "%s/index.js", from.buf);
		kept = !access(idx.buf, R_OK);
		qu_buf_fini(&idx);
	} else if (b->keep_search) {
		kept = build_link_tree(from.buf, to.buf, NULL) == 0;
	}
	/* quire serve: the last index now, this one after the reload */
	if (!kept && b->opts->defer_search && last_index(b)) {
		kept = b->out.sparse ||
		       build_link_tree(from.buf, to.buf, NULL) == 0;
		b->keep_search = b->search_pending = kept;
	}
	if (!kept) {
		b->keep_search = false;
		qu_rm_tree(to.buf);
		r = write_search(b, err);
	}
	qu_buf_fini(&from);
	qu_buf_fini(&to);
	return r;
}

/*
 * Everything but the pages: the theme's static files, objects.inv,
 * sitemap.xml (with base_url), the search index and the docs root's
 * images and files. objects.inv is written on a thread of its own while
 * the search index is, when the build has more than one.
 */
static int write_rest(struct qu_build *b, struct qu_buf *err)
{
	struct qu_buf x = QU_BUF_INIT, y = QU_BUF_INIT;
	struct inventory_job inv = {b, QU_BUF_INIT, 0};
	struct qu_thread th;
	size_t i;
	int r;

	qu_buf_addf(&x, "%s/static", b->theme);
	qu_buf_addf(&y, "%s/_static", b->out.tmp);
	r = copy_tree(b, x.buf, y.buf, err);
	if (!r) {
		bool apart = qu_thread_start(
			&th, (b->opts->threads ? b->opts->threads : qu_ncpus()) > 1,
			inventory_job, &inv);

		if (!apart)
			phase(b, "inventory");
		/* one after the other, a failed objects.inv stops the build */
		if (apart || !inv.r) {
			r = write_search_folder(b, err);
			phase(b, "search");
		}
		qu_thread_wait(&th);
		if (apart)
			phase(b, "inventory");
		/* its error first, as when the two come one after the other */
		if (inv.r) {
			qu_buf_reset(err);
			qu_buf_add(err, inv.err.buf, inv.err.len);
			r = inv.r;
		}
	}
	if (b->inv_note && !b->stats.cache_note)
		b->stats.cache_note = b->inv_note;
	qu_buf_fini(&inv.err);
	/* GitHub Pages hides folders starting with "_" without it */
	qu_buf_reset(&x);
	if (!r)
		r = write_file(b->out.tmp, ".nojekyll", &x, err);
	for (i = 0; !r && i < b->site.nassets; i++) {
		char *sl;

		/* a graph is in the site as its SVG (write_graphs()) */
		if (is_graph(b->site.assets[i]))
			continue;
		qu_buf_reset(&x);
		qu_buf_reset(&y);
		qu_buf_add_path(&x, b->site.root, b->site.assets[i]);
		qu_buf_add_path(&y, b->out.tmp, b->site.assets[i]);
		sl = strrchr(y.buf, '/');
		*sl = 0;
		r = qu_mkdir_p(y.buf, err);
		*sl = '/';
		if (!r)
			r = copy_file(b, b->site.files, x.buf, y.buf, err);
	}
	qu_buf_fini(&x);
	qu_buf_fini(&y);
	return r;
}

/*
 * "man: true" (lib/man): the section-9 man pages of every parsed unit,
 * written into the new site as man/man9/NAME.9 so they are swapped in
 * with it. The date is SOURCE_DATE_EPOCH's or the tree's last commit's;
 * the .TH source field is the site's version.
 */
static int write_man(const struct qu_build *b, struct qu_buf *err)
{
	struct qu_man_set set;
	struct qu_man_opts opts = {.source = b->version};
	struct qu_buf dir = QU_BUF_INIT, date = QU_BUF_INIT;
	int ret;

	if (b->rev && !getenv("SOURCE_DATE_EPOCH")) {
		/* the revision's own commit time, not the current folder's */
		time_t t = (time_t)qu_git_tree_time(b->rev);
		struct tm tm;
		char d[16];

		if (t && gmtime_r(&t, &tm) &&
		    strftime(d, sizeof(d), "%Y-%m-%d", &tm))
			qu_buf_adds(&date, d);
	} else if ((ret = qu_man_date(&date,
				      b->site.zero_config ? b->opts->dir
							  : b->site.srctree,
				      err)) < 0) {
		goto out;
	}
	opts.date = date.buf;
	qu_buf_addf(&dir, "%s/man", b->out.tmp);
	qu_man_set_init(&set, b->units, b->site.nsources);
	ret = qu_man_write(dir.buf, &set, &opts, b->opts->threads, err);
	qu_man_set_fini(&set);
out:
	qu_buf_fini(&dir);
	qu_buf_fini(&date);
	return ret;
}

/* The theme's template is an input too. */
static void theme_deps(struct qu_build *b)
{
	struct qu_buf p = QU_BUF_INIT;

	qu_buf_addf(&p, "%s/page.html", b->theme);
	build_deps_add(&b->deps, p.buf);
	qu_buf_fini(&p);
}

/*
 * Whether the last site has a page, as a file that can be kept; *@id:
 * the file, when it was asked for
 */
static bool in_last_site(const struct qu_build *b, const char *out,
			 struct qu_buf *p, struct qu_out_id *id)
{
	struct stat st;

	/* quire serve's folder: the list of its files says */
	if (b->opts->in_place && b->live.valid)
		return bsearch(&out, b->live.v, b->live.n, sizeof(char *),
			       cmp_str) != NULL;
	qu_buf_reset(p);
	qu_buf_add_path(p, b->out_abs, out);
	if (lstat(p->buf, &st) || !S_ISREG(st.st_mode))
		return false;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	return true;
}

/* The output path of page @i, or past the pages, of an extra file. */
static const char *out_of(const struct qu_build *b, size_t i)
{
	return i < b->site.npages ? b->site.pages[i].out
				  : b->render.extras[i - b->site.npages].out;
}

/*
 * Every page's file in OUT, as keep_one() would find it: the stat(2)s
 * (9,300 for a kernel site) run on a thread while the graph is made,
 * when the placement is taken from the cache and the other processor is
 * idle; the pages it has not reached when the keys are made are shared
 * out to the workers then (end_outstat()). Each page is taken once.
 */
static void outstat_some(struct qu_build *b)
{
	struct qu_buf p = QU_BUF_INIT;
	const struct qu_out_view *v =
		atomic_load(&b->out_view_ready) ? b->out_view : NULL;
	size_t i;

	while ((i = atomic_fetch_add(&b->outstat_next, 1)) <
	       b->site.npages) {
		const char *out = b->site.pages[i].out;
		int k = v ? qu_out_view_get(v, out, &b->page_out_ids[i]) : -1;

		if (k >= 0)
			atomic_fetch_add(&b->out_view_hits, 1);
		b->page_in_out[i] = k >= 0 ? k == 1
					   : in_last_site(b, out, &p,
							  &b->page_out_ids[i]);
	}
	qu_buf_fini(&p);
}

/*
 * OUT's record first (qu_out_view_open()): where it holds, a page is
 * looked up, not stat(2)ed. The workers that help once the keys are
 * made take it only when it is ready; a stat(2) says the same.
 */
static void *outstat_job(void *payload)
{
	struct qu_build *b = payload;
	struct qu_buf back = QU_BUF_INIT;

	if (b->prefetched) {
		b->out_view = b->pre_view;
		b->pre_view = NULL;
	} else {
		build_back_path(&back, b->cache_dir, b->out_abs);
		b->out_view = qu_out_view_open(b->out_abs, back.buf);
	}
	atomic_store(&b->out_view_ready, b->out_view != NULL);
	qu_buf_fini(&back);
	outstat_some(b);
	return NULL;
}

static void outstat_help(struct qu_job *job, size_t i, void *payload)
{
	(void)job;
	(void)i;
	outstat_some(payload);
}

/* once the pages are known; only a build that may keep pages from OUT */
static void start_outstat(struct qu_build *b)
{
	if (!b->cache_dir || !b->out_abs || b->opts->in_place ||
	    b->opts->threads == 1)
		return;
	b->page_in_out = qu_xcalloc(b->site.npages + 1, sizeof(bool));
	b->page_out_ids = qu_xcalloc(b->site.npages + 1,
				     sizeof(*b->page_out_ids));
	/* OUT's record, read by now */
	end_prefetch(b);
	atomic_init(&b->outstat_next, 0);
	atomic_init(&b->out_view_ready, false);
	atomic_init(&b->out_view_hits, 0);
	b->outstat_started = true;
	qu_thread_start(&b->outstat_thread, true, outstat_job, b);
}

static void end_outstat(struct qu_build *b)
{
	if (b->outstat_started) {
		unsigned nw = b->opts->threads ? b->opts->threads
					       : qu_ncpus();

		/* what the thread has not reached, on the workers */
		qu_pool_run(b->opts->threads, nw, outstat_help, b);
		qu_thread_wait(&b->outstat_thread);
		/* QUIRE_TIMING=1: how OUT's pages were found */
		if (b->opts->timing && b->site.npages)
			fprintf(stderr,
				"quire build: OUT's pages: %zu of %zu from "
				"its record\n",
				atomic_load(&b->out_view_hits),
				b->site.npages);
	}
	b->outstat_started = false;
	qu_out_view_free(b->out_view);
	b->out_view = NULL;
	atomic_store(&b->out_view_ready, false);
}

/*
 * The name of page or extra file @i in the cache's state: an extra's
 * path ends in "/", as no page's does, so that it is never counted as a
 * page (as SEARCH_STATE is not).
 */
static void put_state_name(struct qu_buf *n, const struct qu_build *b,
			   size_t i)
{
	qu_buf_adds(n, out_of(b, i));
	if (i >= b->site.npages)
		qu_buf_addc(n, '/');
}

static char *state_name(const struct qu_build *b, size_t i)
{
	struct qu_buf n = QU_BUF_INIT;

	put_state_name(&n, b, i);
	return qu_buf_detach(&n, NULL);
}

/*
 * kernel-figure's graphs: every .dot file of the docs root drawn as SVG,
 * before the pages render (a page shows the DOT of one that could not
 * be drawn). Each is an input of the build; a DOT graphviz refuses is
 * -Wkernel-graph at the file. The pages' fingerprints take which were
 * drawn (graphs_key): a graph that breaks or mends renders them again.
 */
static void draw_graphs(struct qu_build *b)
{
	struct qu_buf path = QU_BUF_INIT, dot = QU_BUF_INIT;
	struct qu_buf msg = QU_BUF_INIT, err = QU_BUF_INIT;
	XXH3_state_t *h = XXH3_createState();
	size_t i, n = 0;

	XXH3_64bits_reset(h);
	for (i = 0; i < b->site.nassets; i++)
		n += is_graph(b->site.assets[i]);
	b->graphs = qu_xcalloc(n + 1, sizeof(*b->graphs));
	b->graph_svgs = qu_xcalloc(n + 1, sizeof(*b->graph_svgs));
	/* the assets are sorted: so are the graphs */
	for (i = 0; i < b->site.nassets; i++) {
		struct qu_render_graph *g = &b->graphs[b->ngraphs];
		struct qu_buf *svg = &b->graph_svgs[b->ngraphs];
		const char *diag_path;
		uint32_t line = 0;
		int r;

		if (!is_graph(b->site.assets[i]))
			continue;
		qu_buf_init(svg);
		qu_buf_reset(&path);
		qu_buf_add_path(&path, b->site.root, b->site.assets[i]);
		build_deps_add(&b->deps, path.buf);
		diag_path = qu_arena_strdup(&b->site.arena, path.buf);
		qu_buf_reset(&dot);
		if (qu_files_read(b->site.files, &dot, path.buf, &err) < 0) {
			qu_diag(&b->diags, QU_W_UNREADABLE, diag_path, 0, 0,
				"%s, not drawing it", err.buf);
			qu_buf_reset(&err);
			continue;
		}
		g->dot = b->site.assets[i];
		qu_buf_reset(&msg);
		r = qu_render_dot(svg, &msg, &line, dot.buf, dot.len);
		g->drawn = !r;
		if (r)
			g->text = qu_arena_strdup(&b->site.arena, dot.buf);
		if (r || msg.len)
			qu_diag(&b->diags, QU_W_KERNEL_GRAPH, diag_path,
				line ? line : 1, 1,
				r ? "graph not drawn: %s; pages show its source"
				  : "graphviz: %s",
				msg.buf);
		XXH3_64bits_update(h, g->dot, strlen(g->dot) + 1);
		XXH3_64bits_update(h, &g->drawn, sizeof(g->drawn));
		b->ngraphs++;
	}
	b->graphs_key = XXH3_64bits_digest(h);
	XXH3_freeState(h);
	b->render.graphs = b->graphs;
	b->render.ngraphs = b->ngraphs;
	qu_buf_fini(&path);
	qu_buf_fini(&dot);
	qu_buf_fini(&msg);
	qu_buf_fini(&err);
}

/* The drawn graphs' SVGs, each beside its .dot. */
static int write_graphs(struct qu_build *b, struct qu_buf *err)
{
	struct qu_buf path = QU_BUF_INIT;
	int r = 0;

	for (size_t i = 0; !r && i < b->ngraphs; i++) {
		char *sl;

		if (!b->graphs[i].drawn)
			continue;
		qu_buf_reset(&path);
		qu_buf_add_path(&path, b->out.tmp, b->graphs[i].dot);
		memcpy(path.buf + path.len - 3, "svg", 3);
		sl = strrchr(path.buf, '/');
		*sl = 0;
		r = qu_mkdir_p(path.buf, err);
		*sl = '/';
		if (!r)
			r = qu_file_write_atomic(path.buf,
						 b->graph_svgs[i].buf,
						 b->graph_svgs[i].len, err);
	}
	qu_buf_fini(&path);
	return r;
}

/*
 * Whether page or extra file @i is kept from OUT: its key is the last
 * build's and OUT has its file (a kernel site: 9,300 stat(2)s, on the
 * workers). The file as seen goes to the compose, which then need not
 * ask again.
 */
static void keep_one(struct qu_job *job, size_t i, void *payload)
{
	struct qu_build *b = payload;
	const struct build_page_state *ps;

	qu_buf_reset(&job->scratch);
	put_state_name(&job->scratch, b, i);
	ps = build_cache_find(&b->cache, job->scratch.buf);
	b->kept_state[i] = ps;
	if (i < b->site.npages && b->page_in_out) {
		b->keep[i] = ps && ps->key == b->keys[i] && b->page_in_out[i];
		b->out_ids[i] = b->page_out_ids[i];
	} else {
		b->keep[i] = ps && ps->key == b->keys[i] &&
			     in_last_site(b, out_of(b, i), &job->scratch,
					  &b->out_ids[i]);
	}
	/* its kernel-render pictures are written as it renders */
	if (i < b->site.npages && b->site.pages[i].draws)
		b->keep[i] = false;
}

/*
 * Which pages, and which extra files (the general index, 404.html,
 * search.html), can be taken from the last site, from their fingerprints.
 */
static void decide_pages(struct qu_build *b)
{
	size_t i, n = b->site.npages + b->render.nextras;

	b->keys = qu_xcalloc(n + 1, sizeof(*b->keys));
	b->keep = qu_xcalloc(n + 1, sizeof(*b->keep));
	b->same = qu_xcalloc(n + 1, sizeof(*b->same));
	if (!b->cache_dir)
		return;
	{
		const char *why = build_cache_read(&b->cache, b->cache_dir,
						   b->out_abs, &b->cache_paths);

		if (why && !b->stats.cache_note)
			b->stats.cache_note = why;
	}
	if (b->opts->memo && !b->kmemo)
		b->kmemo = qu_xcalloc(1, sizeof(*b->kmemo));
	build_keys(b->keys, &b->site, &b->graph, b->units, b->render.extras,
		   b->render.nextras, b->theme_files, b->theme, b->version,
		   b->exe, &b->hist, b->opts->threads, b->kmemo,
		   &b->inv_inputs);
	if (b->opts->nversions) {
		/* the switcher links into every version's pages */
		const struct qu_build_opts *o = b->opts;
		XXH3_state_t *h = XXH3_createState();
		uint64_t vh;
		size_t v, k;

		XXH3_64bits_reset(h);
		XXH3_64bits_update(h, &o->version_cur, sizeof(size_t));
		XXH3_64bits_update(h, &o->version_latest, sizeof(size_t));
		for (v = 0; v < o->nversions; v++) {
			XXH3_64bits_update(h, o->versions[v].label,
					   strlen(o->versions[v].label) + 1);
			for (k = 0; k < o->versions[v].npages; k++)
				XXH3_64bits_update(
					h, o->versions[v].pages[k],
					strlen(o->versions[v].pages[k]) + 1);
			XXH3_64bits_update(h, &o->versions[v].npages,
					   sizeof(size_t));
		}
		vh = XXH3_64bits_digest(h);
		XXH3_freeState(h);
		/* every page and extra file shows the switcher */
		for (i = 0; i < n; i++)
			b->keys[i] ^= vh;
	}
	/* a page shows a graph, or its DOT when it was not drawn */
	for (i = 0; i < b->site.npages; i++)
		b->keys[i] ^= b->graphs_key;
	b->out_ids = qu_xcalloc(n + 1, sizeof(*b->out_ids));
	b->kept_state = qu_xcalloc(n + 1, sizeof(*b->kept_state));
	end_outstat(b);
	qu_pool_run(b->opts->threads, n, keep_one, b);
	/* the search index reads every page: it changes with any of them */
	b->search_key = XXH3_64bits(b->keys, b->site.npages * sizeof(*b->keys));
	{
		const struct build_page_state *ps =
			build_cache_find(&b->cache, SEARCH_STATE);

		b->keep_search = ps && ps->key == b->search_key;
	}
}

/*
 * What the comments name, for the next build: written only when it grew
 * (a kernel tree's, 2 MB), on a thread of its own from when the graph is
 * done to when the cache is saved
 */
static void *refs_job(void *payload)
{
	struct qu_build *b = payload;

	b->refs_w.r = build_refs_write(b->gmemo, b->cache_dir, b->exe,
				       refs_key(b),
				       b->refs_units_now,
				       &b->refs_w.err);
	return NULL;
}

static void start_refs(struct qu_build *b)
{
	if (b->cache_dir && !b->opts->memo && b->gmemo &&
	    qu_graph_memo_changed(b->gmemo)) {
		/* the units it is now of: this build's, hashed as units_hash() */
		XXH3_state_t *h = XXH3_createState();

		XXH3_64bits_reset(h);
		for (size_t i = 0; i < b->site.nsources; i++)
			XXH3_64bits_update(h, &b->units[i].hash,
					   sizeof(b->units[i].hash));
		b->refs_units_now = XXH3_64bits_digest(h);
		XXH3_freeState(h);
		writer_start(&b->refs_w, b, refs_job);
	}
}

/* Pages of the last site that this one no longer has. */
static size_t count_removed(const struct qu_build *b)
{
	const char **outs = qu_xcalloc(b->site.npages + 1, sizeof(char *));
	size_t i, n = 0;

	for (i = 0; i < b->site.npages; i++)
		outs[i] = b->site.pages[i].out;
	qsort(outs, b->site.npages, sizeof(char *), cmp_str);
	for (i = 0; i < b->cache.npages; i++) {
		const char *k = b->cache.pages[i].out;
		size_t kl = strlen(k);

		/* the search index and the extra files are no pages */
		if (kl && k[kl - 1] == '/')
			continue;
		if (!bsearch(&k, outs, b->site.npages, sizeof(char *),
			     cmp_str))
			n++;
	}
	free(outs);
	return n;
}

/* What the next build needs: every page's fingerprint and diagnostics. */
static int save_state(struct qu_build *b, struct qu_buf *err)
{
	struct build_cache next;
	size_t i;
	int r;

	memset(&next, 0, sizeof(next));
	next.pages = qu_xcalloc(b->site.npages + b->render.nextras + 2,
				sizeof(*next.pages));
	next.npages = b->site.npages + 1;
	next.pages[b->site.npages].out = qu_xstrdup(SEARCH_STATE);
	/* an index left for qu_build_search() is not this site's */
	next.pages[b->site.npages].key = b->search_pending ? 0 : b->search_key;
	qu_diags_init(&next.pages[b->site.npages].diags);
	for (i = 0; i < b->site.npages; i++) {
		struct build_page_state *n = &next.pages[i];
		size_t k;

		n->out = qu_xstrdup(b->site.pages[i].out);
		n->key = b->keys[i];
		qu_diags_init(&n->diags);
		for (k = 0; k < b->page_diags[i].n; k++) {
			const struct qu_diag *d = &b->page_diags[i].v[k];

			qu_diag_text(&n->diags, d->id, d->path, d->line, d->col,
				     d->msg, strlen(d->msg));
		}
	}
	for (i = 0; i < b->render.nextras; i++) {
		struct build_page_state *n = &next.pages[next.npages++];

		n->out = state_name(b, b->site.npages + i);
		n->key = b->keys[b->site.npages + i];
		qu_diags_init(&n->diags);
	}
	r = build_cache_write(&next, b->cache_dir, b->out_abs, err);
	build_cache_fini(&next);
	return r;
}

/* The depfile, when asked for: every input the build read. */
/*
 * The inputs ready for the depfile, when one is asked for: sorted, OUT's
 * folder left out. Done once, before the stamp is written from them.
 */
static void sort_deps(struct qu_build *b)
{
	char *parent;

	if (!b->opts->depfile || b->deps_sorted)
		return;
	parent = qu_xstrdup(b->out_abs);
	*strrchr(parent, '/') = 0;
	build_deps_sort(&b->deps, *parent ? parent : "/");
	free(parent);
	b->deps_sorted = true;
}

static int write_depfile(struct qu_build *b, struct qu_buf *err)
{
	const struct qu_build_opts *o = b->opts;

	if (!o->depfile)
		return 0;
	sort_deps(b);
	return build_deps_write(&b->deps, o->depfile,
				o->depfile_target ? o->depfile_target : o->out,
				err);
}

/* A copy of every diagnostic the build gives, as qu_build_diags() sorts. */
static void copy_diags(struct qu_diags *to, const struct qu_build *b)
{
	const struct qu_diags *from[3] = {&b->site.diags, &b->diags, NULL};
	size_t i, k, f;

	for (f = 0; from[f]; f++)
		for (k = 0; k < from[f]->n; k++) {
			const struct qu_diag *d = &from[f]->v[k];

			qu_diag_text(to, d->id, d->path, d->line, d->col,
				     d->msg, strlen(d->msg));
		}
	for (i = 0; b->units && i < b->site.nsources; i++)
		for (k = 0; k < b->units[i].diags.n; k++) {
			const struct qu_diag *d = &b->units[i].diags.v[k];

			qu_diag_text(to, d->id, d->path, d->line, d->col,
				     d->msg, strlen(d->msg));
		}
	for (i = 0; b->page_diags && i < b->site.npages; i++)
		for (k = 0; k < b->page_diags[i].n; k++) {
			const struct qu_diag *d = &b->page_diags[i].v[k];

			qu_diag_text(to, d->id, d->path, d->line, d->col,
				     d->msg, strlen(d->msg));
		}
	qu_diags_sort(to);
}

/*
 * The stamp that lets the next build stop at once when nothing changed;
 * without one it only does its usual work, so a failure is no error.
 */
static void *stamp_job(void *payload)
{
	struct qu_build *b = payload;
	struct qu_buf err = QU_BUF_INIT;
	struct qu_diags all;
	struct build_stamp st = {
		.key = b->stamp_key,
		.version_from = build_stamp_version_from(&b->site, b->opts->dir),
		.version = b->version,
		.deps = &b->deps,
		.diags = &all,
		.listings = b->listings,
	};

	struct build_stamp_seen seen = {&b->stamp, seen_map_of, b};

	qu_diags_init(&all);
	copy_diags(&all, b);
	st.stats = b->stats;
	b->stamp_ready = build_stamp_write(&st, b->cache_dir, b->out_abs,
					   b->started,
					   b->stamp.n ? &seen : NULL,
					   &b->stamp_out, &err) == 0;
	/* kept for qu_build_diags(): the build gives no diagnostic after */
	qu_diags_fini(&b->sorted);
	b->sorted = all;
	b->sorted_ok = true;
	qu_buf_fini(&err);
	return NULL;
}

/*
 * Only a build that would read a stamp writes one (a stamp is a stat of
 * every input: most of a small rebuild of quire serve's). It is written
 * on a thread of its own once the build's inputs and diagnostics are
 * all known (a kernel tree's: 55,000 inputs and 15,000 diagnostics, 9
 * MB), while the site is put in place, and is put in place after it.
 */
static void start_stamp(struct qu_build *b)
{
	if (!b->cache_dir || b->opts->rev || !b->opts->skip_unchanged)
		return;
	b->stamp_started = true;
	qu_thread_start(&b->stamp_thread, b->opts->threads != 1, stamp_job,
			b);
}

/*
 * The stamp in place when the whole build succeeded (@ok); else dropped
 * with the diagnostics it kept, and the last one removed too when the site was put in place (@swapped):
 * it describes a site that is no longer OUT.
 */
static void end_stamp(struct qu_build *b, bool ok, bool swapped)
{
	struct qu_buf err = QU_BUF_INIT;
	bool in_place = false;

	if (!b->stamp_started)
		return;
	qu_thread_wait(&b->stamp_thread);
	b->stamp_started = false;
	if (b->stamp_ready) {
		if (ok)
			in_place = qu_file_out_commit(&b->stamp_out, &err) == 0;
		else
			qu_file_out_abort(&b->stamp_out);
		b->stamp_ready = false;
	}
	/* the diagnostics the stamp was written from are this build's
	 * only when it went on to the end */
	if (!ok) {
		qu_diags_fini(&b->sorted);
		qu_diags_init(&b->sorted);
		b->sorted_ok = false;
	}
	if ((ok || swapped) && !in_place)
		build_stamp_remove(b->cache_dir, b->out_abs);
	qu_buf_fini(&err);
}

/*
 * opts->in_place: update OUT file by file when the build before left the
 * list of its files; else a site swapped in whole, whose files are then
 * listed for the next build.
 */
static void begin_in_place(struct qu_build *b)
{
	b->in_place = b->opts->in_place && b->live.valid;
	if (b->in_place)
		b->out.sparse = true;
}

/*
 * A site written whole where there was none to retire (the first build
 * with this cache) leaves no back tree: one is made of links to OUT's
 * files, as a build that changed nothing would leave it, so that the
 * next build composes only what it changed instead of linking every file
 * (a kernel site: 10,800) while the user waits for an edit. One that
 * fails part way is removed: the next build then writes its site whole.
 */
static void back_of_links(struct qu_build *b)
{
	struct stat st;

	if (lstat(b->out.back, &st) < 0 && errno == ENOENT) {
		if (build_link_tree(b->out_abs, b->out.back, NULL) < 0)
			qu_rm_tree(b->out.back);
		else
			qu_out_record(b->out.back, b->out_abs,
				      b->opts->threads);
	}
}

static int commit(struct qu_build *b, const char *const *kept,
		  const struct qu_out_id *ids, size_t nkept,
		  const char *const *dirs, size_t ndirs, const char *skip,
		  struct qu_buf *err)
{
	if (b->in_place)
		return qu_out_apply(&b->out, kept, nkept, dirs, ndirs, skip,
				    &b->live, err);
	qu_out_list_fini(&b->live);
	if (b->out.sparse && qu_out_compose(&b->out, kept, ids, nkept, dirs,
					    ndirs, skip, err) < 0)
		return -1;
	/* QUIRE_TIMING=1: how the compose learnt the back tree's files */
	if (b->out.sparse && b->opts->timing) {
		if (b->out.rec_ndirs)
			fprintf(stderr,
				"quire build: back tree from its record, "
				"%zu of %zu folders listed\n",
				b->out.rec_listed, b->out.rec_ndirs);
		else
			fprintf(stderr, "quire build: back tree walked\n");
	}
	if (qu_out_commit(&b->out, err) < 0)
		return -1;
	if (b->opts->in_place)
		qu_out_list_read(&b->live, b->out_abs);
	else if (b->out.back && !b->out.sparse)
		back_of_links(b);
	return 0;
}

/* The new site: the files written over the kept pages and index. */
static int finish(struct qu_build *b, struct qu_buf *err)
{
	size_t nout = b->site.npages + b->render.nextras;
	const char **kept =
		qu_xcalloc(nout + b->nsearch_kept + 1, sizeof(char *));
	struct qu_out_id *ids =
		qu_xcalloc(nout + b->nsearch_kept + 1, sizeof(*ids));
	const char *dirs[] = {"_search"};
	size_t i, n = 0;
	int r;

	for (i = 0; i < nout; i++) {
		if (!b->keep[i] && !b->same[i])
			continue;
		/* a page rendered with OUT's bytes: its file was not asked */
		if (b->keep[i])
			ids[n] = b->out_ids[i];
		kept[n++] = out_of(b, i);
	}
	/* the search index's files it wrote with the same bytes */
	for (i = 0; i < b->nsearch_kept; i++)
		kept[n++] = b->search_kept[i];
	r = commit(b, kept, ids, n, dirs, b->keep_search ? 1 : 0, NULL, err);
	free(ids);
	free(kept);
	return r;
}

/*
 * The units parsed anew written to the unit cache, which is then closed:
 * SQLite starts its log anew with the write and copies it into the
 * database as it closes, three fdatasync(2)s in all (12, 8 and 0.4 ms
 * on this machine's disk).
 */
static void *units_job(void *payload)
{
	struct qu_build *b = payload;

	b->units_w.r = build_units_write(&b->ucache, b->exe, b->site.sources,
					 b->st, b->units, b->exports, b->st_ok,
					 b->dirty, b->site.nsources,
					 &b->units_w.err);
	/* the rows as one mapped file, when those the next build reads drifted */
	if (!b->units_w.r)
		b->units_w.r = build_units_snap_write(&b->ucache, b->exe,
						      &b->units_w.err);
	build_units_close(&b->ucache);
	return NULL;
}

/*
 * quire build writes the unit cache on a thread from the moment the units
 * are known, while the pages are rendered and the site is put in place
 * (a kernel tree: the processor that was idle while the search index
 * was updated): a write that fails leaves the rows as they were, whose stat
 * data then no longer match, so the next build only parses those
 * sources again; the build still fails, and leaves no stamp. quire
 * serve's next build takes the cache open: it writes in line. Return:
 * whether the thread writes.
 */
static bool units_start(struct qu_build *b)
{
	if (b->opts->memo || !b->ucache.db)
		return false;
	writer_start(&b->units_w, b, units_job);
	return true;
}

int qu_build_write(struct qu_build *b, struct qu_buf *err)
{
	const struct qu_build_opts *o = b->opts;
	struct qu_buf tmp = QU_BUF_INIT;
	size_t i, ntasks;
	bool swapped = false;
	int r = -1;

	assert(b->linked && o->out);
	if (b->uptodate)
		return write_depfile(b, err);
	/* the units parsed anew, in one transaction */
	b->units_apart = b->cache_dir && units_start(b);
	if (b->site.cfg.version) {
		b->version = qu_xstrdup(b->site.cfg.version);
	} else if (b->rev) {
		/* a revision shows its own describe, never "-dirty" */
		if (!qu_git_describe_rev(&tmp, b->rev, err))
			b->version = qu_buf_detach(&tmp, NULL);
		qu_buf_reset(err);
		qu_buf_reset(&tmp);
	} else {
		build_git_version(&tmp, build_stamp_version_from(&b->site,
								 o->dir));
		if (tmp.len)
			b->version = qu_buf_detach(&tmp, NULL);
		qu_buf_reset(&tmp);
	}
	phase(b, "version");
	start_refs(b);
	theme_deps(b);
	if (o->memo && !b->xmemo)
		b->xmemo = qu_xcalloc(1, sizeof(*b->xmemo));
	if (qu_render_init(&b->render, &b->site, &b->graph, b->md,
			   b->theme_files, b->theme, b->version, b->xmemo,
			   err) < 0)
		goto out;
	phase(b, "theme");
	if (b->cache_dir) {
		qu_buf_reset(&tmp);
		qu_buf_addf(&tmp, "%s/last-changed", b->cache_dir);
	}
	build_history(&b->hist, &b->site, &b->graph, b->rev, o->dir,
		      !o->no_history && !b->site.cfg.no_last_changed,
		      b->cache_dir ? tmp.buf : NULL);
	qu_buf_reset(&tmp);
	b->render.versions = o->versions;
	b->render.nversions = o->nversions;
	b->render.version_cur = o->version_cur;
	b->render.version_latest = o->version_latest;
	b->render.source_url = b->hist.source_url;
	b->render.edit_url = b->hist.edit_url;
	b->render.page_files = b->hist.pages;
	b->render.unit_files = b->hist.units;
	phase(b, "git");
	draw_graphs(b);
	phase(b, "graphs");
	decide_pages(b);
	start_place(b);
	phase(b, "keys");
	{
		size_t nrender = 0;

		for (i = 0; i < b->site.npages; i++)
			nrender += !b->keep[i];
		pages_for(b, nrender, b->site.npages, "keys");
	}
	if (b->cache_dir)
		build_back_path(&tmp, b->cache_dir, b->out_abs);
	if (qu_out_begin(&b->out, b->out_abs, tmp.len ? tmp.buf : NULL,
			 err) < 0)
		goto out;
	b->out.threads = o->threads;
	begin_in_place(b);
	if (make_dirs(b, err) < 0 || write_graphs(b, err) < 0)
		goto out;
	ntasks = b->site.npages + b->render.nextras;
	b->page_diags = qu_xcalloc(b->site.npages + 1, sizeof(*b->page_diags));
	b->errs = qu_xcalloc(ntasks + 1, sizeof(*b->errs));
	qu_progress_init(&b->progress, ntasks, o->quiet);
	qu_pool_run(o->threads, ntasks, render_one, b);
	qu_progress_done(&b->progress);
	phase(b, "render");
	for (i = 0; i < ntasks; i++)
		if (b->errs[i].len && !err->len)
			qu_buf_adds(err, b->errs[i].buf);
	if (err->len || write_rest(b, err) < 0)
		goto out;
	/* man: true in quire.yml: OUT/man/man9/ */
	if (b->site.cfg.man && write_man(b, err) < 0)
		goto out;
	phase(b, "rest");
	for (i = 0; i < b->site.npages; i++) {
		if (b->keep[i]) {
			/* keep_one() found it */
			const struct build_page_state *ps = b->kept_state[i];
			size_t k;

			for (k = 0; k < ps->diags.n; k++) {
				const struct qu_diag *d = &ps->diags.v[k];

				qu_diag_text(&b->page_diags[i], d->id, d->path,
					     d->line, d->col, d->msg,
					     strlen(d->msg));
			}
			b->stats.nkept++;
		} else {
			b->stats.nwritten++;
		}
	}
	b->stats.nremoved = count_removed(b);
	/*
	 * every input and diagnostic is known: the stamp, beside the rest,
	 * from the inputs as the depfile has them (never changed after)
	 */
	sort_deps(b);
	start_stamp(b);
	/* the cache first: a stale one only costs renders, never bytes */
	if (b->cache_dir && save_state(b, err) < 0)
		goto out;
	/* quire serve's, in line */
	if (b->cache_dir && !b->units_apart &&
	    build_units_write(&b->ucache, b->exe, b->site.sources, b->st,
			      b->units, b->exports, b->st_ok, b->dirty,
			      b->site.nsources, err) < 0)
		goto out;
	if (writer_end(&b->refs_w, err) < 0 ||
	    writer_end(&b->place_w, err) < 0)
		goto out;
	phase(b, "cache");
	if (finish(b, err) < 0)
		goto out;
	swapped = true;
	/* the index's state is the one of the site now in OUT */
	if (b->search_state) {
		struct qu_search_next *next = b->search_next;

		b->search_next = NULL;
		if (qu_search_state_commit(b->search_state, next, err) < 0)
			goto out;
	}
	phase(b, "write");
	if (writer_end(&b->units_w, err) < 0 || write_depfile(b, err) < 0)
		goto out;
	r = 0;
out:
	end_stamp(b, r == 0, swapped);
	qu_buf_fini(&tmp);
	return r;
}

int qu_build_search(struct qu_build *b, struct qu_buf *err)
{
	struct qu_buf back = QU_BUF_INIT;
	const char *all[] = {""};
	int r = -1;

	if (!b->search_pending)
		return 0;
	b->tp = now();
	qu_out_fini(&b->out);
	if (b->cache_dir)
		build_back_path(&back, b->cache_dir, b->out_abs);
	if (qu_out_begin(&b->out, b->out_abs, back.len ? back.buf : NULL,
			 err) < 0)
		goto out;
	b->out.threads = b->opts->threads;
	begin_in_place(b);
	/* without a back tree, the rest of the site is linked in whole */
	if (!b->out.sparse && link_site(b, "_search") < 0) {
		qu_buf_addf(err, "%s: cannot link the site", b->out.tmp);
		goto out;
	}
	if (write_search(b, err) < 0)
		goto out;
	phase(b, "index");
	b->search_pending = false;
	if ((b->cache_dir && save_state(b, err) < 0) ||
	    commit(b, (const char *const *)b->search_kept, NULL, b->nsearch_kept,
		   all, 1, "_search", err) < 0)
		goto out;
	phase(b, "swap");
	r = 1;
out:
	qu_buf_fini(&back);
	return r;
}

void qu_build_diags(struct qu_diags *to, struct qu_build *b)
{
	/* the copy the stamp was written from, taken once */
	if (b->sorted_ok && !to->n) {
		qu_diags_fini(to);
		*to = b->sorted;
		qu_diags_init(&b->sorted);
		b->sorted_ok = false;
		return;
	}
	/* a copy: quire serve's next build takes these units, diagnostics
	 * and all */
	copy_diags(to, b);
}

void qu_build_inputs(const struct qu_build *b,
		     void (*fn)(void *payload, const char *path, bool dir),
		     void *payload)
{
	size_t i;

	for (i = 0; i < b->deps.n; i++)
		if (b->deps.v[i].path[0])
			fn(payload, b->deps.v[i].path, b->deps.v[i].dir);
}

void qu_build_rendered(const struct qu_build *b,
		       void (*fn)(void *payload, const char *out),
		       void *payload)
{
	size_t i;

	for (i = 0; b->keep && i < b->site.npages; i++)
		if (!b->keep[i])
			fn(payload, b->site.pages[i].out);
}

const struct qu_site *qu_build_site(const struct qu_build *b)
{
	return &b->site;
}

void qu_build_get_stats(struct qu_build_stats *out, const struct qu_build *b)
{
	*out = b->stats;
}

/*
 * What a build leaves outside its memory: its threads stopped, the folder
 * it wrote into removed when it did not become the site, the unit cache
 * closed.
 */
static void build_close(struct qu_build *b)
{
	/* the search index's next state reads the pages' keys */
	qu_search_next_free(b->search_next);
	b->search_next = NULL;
	writer_end(&b->refs_w, NULL);
	writer_end(&b->place_w, NULL);
	/* a build that stopped before it took the units: no need to read on */
	atomic_store(&b->peek_cancel, true);
	end_peek(b);
	qu_thread_wait(&b->memo_thread);
	end_prefetch(b);
	qu_search_state_free(b->pre_sstate);
	b->pre_sstate = NULL;
	qu_out_view_free(b->pre_view);
	b->pre_view = NULL;
	qu_search_state_free(end_sstate(b));
	b->sstate = NULL;
	/* a build that stops here stats no more of OUT's pages */
	atomic_store(&b->outstat_next, b->site.npages);
	end_outstat(b);
	qu_out_fini(&b->out);
	writer_end(&b->units_w, NULL);
	build_units_close(&b->ucache);
}

void qu_build_exit(struct qu_build *b)
{
	if (b)
		build_close(b);
}

void qu_build_free(struct qu_build *b)
{
	size_t i;

	if (!b)
		return;
	build_close(b);
	free(b->peek_dir);
	free(b->out_walked_parent);
	qu_diags_fini(&b->sorted);
	free(b->sstate_path);
	qu_out_list_fini(&b->live);
	qu_render_fini(&b->render);
	for (i = 0; i < b->ngraphs; i++)
		qu_buf_fini(&b->graph_svgs[i]);
	free(b->graph_svgs);
	free(b->graphs);
	qu_md_free(b->md);
	if (b->graph.site)
		qu_graph_fini(&b->graph);
	if (b->page_diags) {
		for (i = 0; i < b->site.npages; i++)
			qu_diags_fini(&b->page_diags[i]);
		free(b->page_diags);
	}
	if (b->errs) {
		for (i = 0; i < b->site.npages + b->render.nextras; i++)
			qu_buf_fini(&b->errs[i]);
		free(b->errs);
	}
	for (i = 0; b->units && i < b->site.nsources; i++)
		qu_unit_fini(&b->units[i]);
	free(b->units);
	free(b->exports);
	free(b->src_paths);
	qu_arena_fini(&b->src_arena);
	free(b->keys);
	free(b->keep);
	free(b->same);
	free(b->out_ids);
	free(b->kept_state);
	free(b->page_in_out);
	free(b->page_out_ids);
	place_unmap(b);
	qu_search_memo_free(b->memo);
	for (i = 0; i < b->nhint; i++)
		free(b->hint[i]);
	free(b->hint);
	qu_graph_memo_free(b->gmemo);
	free(b->kmemo);
	index_memo_free(b->xmemo);
	if (b->imemo) {
		qu_buf_fini(&b->imemo->z);
		qu_buf_fini(&b->imemo->syms);
	}
	free(b->imemo);
	for (i = 0; i < b->nsearch_kept; i++)
		free(b->search_kept[i]);
	free(b->search_kept);
	free(b->st);
	free(b->st_ok);
	free(b->dirty);
	free(b->taken);
	free(b->was);
	free(b->shapes);
	free(b->stamp.paths);
	free(b->seen_at);
	free(b->unit_at);
	build_units_fini(&b->ucache);
	build_cache_fini(&b->cache);
	build_deps_fini(&b->deps);
	qu_arena_fini(&b->cache_paths);
	qu_map_fini(&b->seen);
	pthread_mutex_destroy(&b->seen_lock);
	qu_file_unmap(b->stamp_map.p, b->stamp_map.size);
	free(b->src_dep);
	qu_diags_fini(&b->diags);
	qu_site_fini(&b->site);
	/* after the site, which lists through it */
	qu_files_memo_free(b->listings);
	build_history_fini(&b->hist);
	qu_git_fs_free(b->rev_files);
	qu_git_tree_free(b->rev);
	free(b->dir_abs);
	free(b->out_abs);
	free(b->search_state);
	free(b->cache_dir);
	free(b->theme);
	free(b->version);
	free(b);
}
