// SPDX-License-Identifier: MIT
/*
 * directive.c - split a page into Markdown and MyST-style directives
 * (site stage)
 *
 * A fenced block at the top level of a page whose info string is
 * "{name} argument" is a directive. The page's markup reader (struct
 * qu_site_reader: lib/markdown) finds the fences, so a directive is
 * exactly a block the renderer would have taken for one; the Markdown
 * between directives goes to it untouched. Options are the block's
 * leading ":key: value" lines; the rest is its body.
 */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "site_int.h"

static struct qu_part *add_part(struct qu_page *pg, enum qu_part_kind kind,
				uint32_t line)
{
	struct qu_part *p;

	pg->parts = qu_xrealloc(pg->parts, (pg->nparts + 1) * sizeof(*p));
	p = &pg->parts[pg->nparts++];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->line = line;
	return p;
}

/*
 * Text between directives: kept unless it is only blank lines, so an
 * empty part never costs a parse.
 */
static void add_markdown(struct qu_page *pg, const char *text, size_t len,
			 uint32_t line)
{
	size_t i;
	struct qu_part *p;

	for (i = 0; i < len; i++)
		if (text[i] != ' ' && text[i] != '\n' && text[i] != '\r' &&
		    text[i] != '\t')
			break;
	if (i == len)
		return;
	p = add_part(pg, QU_PART_MARKDOWN, line);
	p->text = text;
	p->len = len;
}

/* Split a whitespace-separated list of names into the arena. */
/*
 * Option values list names separated by blanks or commas, as the kernel's
 * Sphinx extension accepts them.
 */
static void names(struct qu_site *s, const char *v, size_t len,
		  const char ***out, size_t *n)
{
	size_t i = 0;

	while (i < len) {
		size_t j;

		while (i < len && (v[i] == ' ' || v[i] == '\t' || v[i] == ','))
			i++;
		j = i;
		while (j < len && v[j] != ' ' && v[j] != '\t' && v[j] != ',')
			j++;
		if (j > i) {
			*out = qu_xrealloc(*out, (*n + 1) * sizeof(**out));
			(*out)[(*n)++] = site_strndup(s, v + i, j - i);
		}
		i = j;
	}
}

static void trim(const char **p, size_t *len)
{
	while (*len && (**p == ' ' || **p == '\t')) {
		(*p)++;
		(*len)--;
	}
	while (*len && ((*p)[*len - 1] == ' ' || (*p)[*len - 1] == '\t' ||
			(*p)[*len - 1] == '\r'))
		(*len)--;
}

struct dir_line {
	const char *p;
	size_t len;
	uint32_t line;
};

/*
 * One option: ":name: value", its value joined from the continuation
 * lines (more indented than the option, or after a trailing backslash,
 * as the kernel's .rst files write long :functions: lists).
 */
struct dir_opt {
	const char *key;
	size_t klen;
	struct qu_buf val;
	uint32_t line;
	size_t indent;
};

static bool is_opt(const char *k, size_t kl, const char *name)
{
	return kl == strlen(name) && !strncmp(k, name, kl);
}

/* A directive that takes no value for @o says so when it has one. */
static void no_value(struct qu_site *s, struct qu_page *pg, const char *dname,
		     const struct dir_opt *o)
{
	if (o->val.len)
		qu_diag(&s->diags, QU_W_IGNORED_TEXT, pg->diag_path, o->line, 1,
			"{%s} option ':%.*s:' takes no value, ignoring "
			"'%.*s'",
			dname, (int)o->klen, o->key,
			(int)(o->val.len > 60 ? 60 : o->val.len), o->val.buf);
}

/* Text lines a directive without a body does not use. */
static void no_body(struct qu_site *s, struct qu_page *pg, const char *dname,
		    const struct dir_line *body, size_t nbody)
{
	if (nbody)
		qu_diag(&s->diags, QU_W_IGNORED_TEXT, pg->diag_path,
			body[0].line, 1,
			"{%s} takes options only, ignoring %zu line%s of "
			"text ('%.*s')",
			dname, nbody, nbody == 1 ? "" : "s",
			(int)(body[0].len > 40 ? 40 : body[0].len), body[0].p);
}

/*
 * ```{kernel-doc} PATH with its options. The file must exist in the source
 * tree now, so a typo is reported at the directive's line rather than as
 * an empty section later; and it must resolve inside the source tree or
 * the docs root, as a regular file (confine.c).
 */
static void kernel_doc(struct qu_site *s, struct qu_page *pg, uint32_t line,
		       const char *arg, size_t arglen,
		       const struct dir_opt *opts, size_t nopts,
		       const struct dir_line *body, size_t nbody)
{
	struct qu_part *part;
	struct qu_kdoc_sel *sel;
	struct qu_buf path = QU_BUF_INIT, shown = QU_BUF_INIT;
	const struct dir_opt *mode_opt = NULL;
	char real[PATH_MAX];
	enum site_read r;
	size_t i;

	if (!arglen) {
		qu_diag(&s->diags, QU_W_MISSING_FILE, pg->diag_path, line, 1,
			"{kernel-doc} names no file, ignoring it");
		return;
	}
	if (arg[0] == '/')
		qu_buf_add(&path, arg, arglen);
	else
		qu_buf_addf(&path, "%s/%.*s", s->srctree, (int)arglen, arg);
	qu_buf_add(&shown, arg, arglen);
	r = site_check_real(s, real, path.buf, shown.buf, pg->diag_path, line,
			    1, false);
	qu_buf_fini(&path);
	qu_buf_fini(&shown);
	if (r == SITE_READ_OK && arg[0] == '/') {
		/* sources are named relative to the source tree */
		struct qu_buf rel = QU_BUF_INIT;

		site_relative(&rel,
			      s->srctree_real ? s->srctree_real : s->root_real,
			      real);
		arg = site_strndup(s, rel.buf, rel.len);
		arglen = rel.len;
		qu_buf_fini(&rel);
	}
	if (r == SITE_READ_MISSING)
		qu_diag(&s->diags, QU_W_MISSING_FILE, pg->diag_path, line, 1,
			"no file '%.*s' in the source tree, ignoring the "
			"directive",
			(int)arglen, arg);
	if (r != SITE_READ_OK)
		return;
	part = add_part(pg, QU_PART_KDOC, line);
	sel = &part->sel;
	sel->path = site_strndup(s, arg, arglen);
	for (i = 0; i < nopts; i++) {
		const struct dir_opt *o = &opts[i];
		const char *k = o->key, *v = o->val.buf;
		size_t kl = o->klen, vl = o->val.len;
		enum qu_sel_mode mode;

		if (is_opt(k, kl, "export"))
			mode = QU_SEL_EXPORT;
		else if (is_opt(k, kl, "internal"))
			mode = QU_SEL_INTERNAL;
		else if (is_opt(k, kl, "identifiers") ||
			 is_opt(k, kl, "functions"))
			mode = QU_SEL_IDENTIFIERS;
		else if (is_opt(k, kl, "doc"))
			mode = QU_SEL_DOC;
		else if (is_opt(k, kl, "no-identifiers")) {
			names(s, v, vl, &sel->no_names, &sel->nno_names);
			continue;
		} else {
			qu_diag(&s->diags, QU_W_UNKNOWN_OPTION, pg->diag_path,
				o->line, 1,
				"{kernel-doc} has no option ':%.*s:', ignoring "
				"it",
				(int)kl, k);
			continue;
		}
		/* one selection: a second, different one replaces the first */
		if (mode_opt && sel->mode != mode) {
			qu_diag(&s->diags, QU_W_CONFLICTING_OPTIONS,
				pg->diag_path, o->line, 1,
				"{kernel-doc} option ':%.*s:' conflicts with "
				"':%.*s:' (line %u); using ':%.*s:'",
				(int)kl, k, (int)mode_opt->klen, mode_opt->key,
				mode_opt->line, (int)kl, k);
			free(sel->names);
			sel->names = NULL;
			sel->nnames = 0;
			sel->doc = NULL;
		}
		mode_opt = o;
		sel->mode = mode;
		if (mode == QU_SEL_DOC) {
			if (sel->doc)
				qu_diag(&s->diags, QU_W_CONFLICTING_OPTIONS,
					pg->diag_path, o->line, 1,
					"{kernel-doc} names a second ':doc:'; "
					"using '%.*s'",
					(int)vl, v);
			sel->doc = site_strndup(s, v, vl);
		} else {
			names(s, v, vl, &sel->names, &sel->nnames);
		}
	}
	no_body(s, pg, "kernel-doc", body, nbody);
}

/*
 * ```{toctree}: the options, and the entries kept as text until every page
 * is known (site_link_pages() resolves them).
 */
static void toctree(struct qu_site *s, struct qu_page *pg, uint32_t line,
		    const struct dir_opt *opts, size_t nopts,
		    const struct dir_line *body, size_t nbody)
{
	struct qu_part *part = add_part(pg, QU_PART_TOCTREE, line);
	size_t i;

	for (i = 0; i < nopts; i++) {
		const struct dir_opt *o = &opts[i];
		const char *k = o->key, *v = o->val.buf;
		size_t kl = o->klen, vl = o->val.len;

		if (is_opt(k, kl, "maxdepth")) {
			char *end;
			long d = strtol(v, &end, 10);

			if (!vl || *end || d < 0 || d > 1000)
				qu_diag(&s->diags, QU_W_IGNORED_TEXT,
					pg->diag_path, o->line, 1,
					"{toctree} option ':maxdepth:' needs a "
					"number, ignoring '%.*s'",
					(int)(vl > 60 ? 60 : vl), v);
			else
				part->maxdepth = (unsigned)d;
		} else if (is_opt(k, kl, "caption")) {
			part->caption = site_strndup(s, v, vl);
		} else if (is_opt(k, kl, "hidden") || is_opt(k, kl, "glob") ||
			   is_opt(k, kl, "includehidden") ||
			   is_opt(k, kl, "numbered") ||
			   is_opt(k, kl, "titlesonly")) {
			if (!is_opt(k, kl, "numbered"))
				no_value(s, pg, "toctree", o);
			else
				part->numbered = vl ? (unsigned)strtoul(v, NULL,
									10)
						    : 999;
			part->hidden |= is_opt(k, kl, "hidden");
			part->glob |= is_opt(k, kl, "glob");
			part->titles_only |= is_opt(k, kl, "titlesonly");
		} else {
			qu_diag(&s->diags, QU_W_UNKNOWN_OPTION, pg->diag_path,
				o->line, 1,
				"{toctree} has no option ':%.*s:', ignoring it",
				(int)kl, k);
		}
	}
	/*
	 * Entries are kept as text (in @caption's neighbour, the part's
	 * text) until every page is known; site_link_pages() resolves them.
	 */
	if (nbody) {
		part->text = body[0].p;
		part->len = (size_t)(body[nbody - 1].p + body[nbody - 1].len -
				     body[0].p);
		part->line = body[0].line;
	}
}

/* Leading blanks of a line, a tab counting to the next multiple of 8. */
static size_t indent_of(const char *l, size_t len)
{
	size_t i, col = 0;

	for (i = 0; i < len && (l[i] == ' ' || l[i] == '\t'); i++)
		col = l[i] == '\t' ? (col + 8) & ~(size_t)7 : col + 1;
	return col;
}

/*
 * Add the option line @dl (":name: value") to @opts, or continue the last
 * option with it; false when @dl is neither (it starts the body).
 */
static bool take_option(struct dir_opt **opts, size_t *nopts,
			const struct dir_line *dl, size_t indent)
{
	struct dir_opt *last = *nopts ? &(*opts)[*nopts - 1] : NULL;
	const char *colon;

	if (dl->len > 1 && dl->p[0] == ':' &&
	    (colon = memchr(dl->p + 1, ':', dl->len - 1))) {
		struct dir_opt *o;
		const char *v = colon + 1;
		size_t vl = (size_t)(dl->p + dl->len - v);

		*opts = qu_xrealloc(*opts, (*nopts + 1) * sizeof(**opts));
		o = &(*opts)[(*nopts)++];
		o->key = dl->p + 1;
		o->klen = (size_t)(colon - o->key);
		qu_buf_init(&o->val);
		trim(&v, &vl);
		qu_buf_add(&o->val, v, vl);
		o->line = dl->line;
		o->indent = indent;
		return true;
	}
	if (!last || !dl->len)
		return false;
	if (last->val.len && last->val.buf[last->val.len - 1] == '\\') {
		/* "a b \" then "c": the backslash joins the lines */
		last->val.buf[--last->val.len] = 0;
	} else if (indent <= last->indent) {
		return false;
	}
	while (last->val.len && (last->val.buf[last->val.len - 1] == ' ' ||
				 last->val.buf[last->val.len - 1] == '\t'))
		last->val.buf[--last->val.len] = 0;
	if (last->val.len)
		qu_buf_addc(&last->val, ' ');
	qu_buf_add(&last->val, dl->p, dl->len);
	return true;
}

/* The directives the page's reader found, in order. */
struct blocks {
	struct qu_site *s;
	struct qu_page *pg;
	uint32_t line0;
	struct qu_site_block *v;
	size_t n, alloc;
};

static void on_block(void *payload, const struct qu_site_block *b)
{
	struct blocks *bl = payload;

	if (!b->info_len || b->info[0] != '{')
		return;
	if (b->nested) {
		/* the page cannot be split inside a list: say so, show it */
		const char *close = memchr(b->info, '}', b->info_len);
		size_t nlen = close ? (size_t)(close - b->info) + 1
				    : b->info_len;

		qu_diag(&bl->s->diags, QU_W_NESTED_DIRECTIVE,
			bl->pg->diag_path, bl->line0 + b->line - 1, b->col,
			"'%.*s' inside a list, a quote or another block is not "
			"a directive; showing it as code (move it to the top "
			"level)",
			(int)nlen, b->info);
		return;
	}
	QU_VEC_GROW(bl->v, bl->n, bl->alloc);
	bl->v[bl->n] = *b;
	/* the reader's block lives only during the call */
	bl->v[bl->n++].info = qu_xstrndup(b->info, b->info_len);
}

/* One directive: its options and body from its lines, then its part. */
static void directive(struct qu_site *s, struct qu_page *pg,
		      const struct qu_site_block *b, const char *const *lines,
		      const size_t *lens, uint32_t nlines, uint32_t line0)
{
	const char *info = b->info, *name = info + 1, *arg;
	const char *close = memchr(info, '}', b->info_len);
	size_t nlen = close ? (size_t)(close - name) : b->info_len - 1;
	size_t arglen, nopts = 0, nbody = 0;
	struct dir_opt *opts = NULL;
	struct dir_line *body = NULL;
	uint32_t dline = line0 + b->line - 1, k;
	uint32_t last = b->closed ? b->end_line - 1 : b->end_line;
	bool in_opts = true;

	arg = close ? close + 1 : info + b->info_len;
	arglen = (size_t)(info + b->info_len - arg);
	trim(&arg, &arglen);
	/* the block's lines between its fences */
	for (k = b->line + 1; k <= last && k <= nlines; k++) {
		struct dir_line dl = {lines[k - 1], lens[k - 1],
				      line0 + k - 1};

		trim(&dl.p, &dl.len);
		if (in_opts && take_option(&opts, &nopts, &dl,
					   indent_of(lines[k - 1],
						     lens[k - 1])))
			continue;
		in_opts = false;
		if (!dl.len)
			continue;
		body = qu_xrealloc(body, (nbody + 1) * sizeof(*body));
		body[nbody++] = dl;
	}
	/* a trailing "\\" with nothing after it */
	for (size_t o = 0; o < nopts; o++) {
		struct qu_buf *v = &opts[o].val;

		while (v->len && (v->buf[v->len - 1] == '\\' ||
				  v->buf[v->len - 1] == ' '))
			v->buf[--v->len] = 0;
	}
	if (nlen == 10 && !strncmp(name, "kernel-doc", 10))
		kernel_doc(s, pg, dline, arg, arglen, opts, nopts, body, nbody);
	else if (nlen == 7 && !strncmp(name, "toctree", 7))
		toctree(s, pg, dline, opts, nopts, body, nbody);
	else
		qu_diag(&s->diags, QU_W_UNKNOWN_DIRECTIVE, pg->diag_path,
			dline, b->col,
			"unknown directive '{%.*s}', ignoring the block",
			(int)nlen, name);
	for (size_t o = 0; o < nopts; o++)
		qu_buf_fini(&opts[o].val);
	free(opts);
	free(body);
}

void site_split_parts(struct qu_site *s, struct qu_page *pg, const char *text,
		      size_t len, uint32_t line)
{
	struct blocks bl = {s, pg, line, NULL, 0, 0};
	const char **lines = NULL;
	size_t *lens = NULL, nl_alloc = 0, nlines = 0, pos = 0, md_start = 0;
	uint32_t md_line = line, k;

	/* the page's markup reader finds the fences: one reader, one truth */
	s->reader->blocks(s->reader->ctx, text, len, on_block, &bl);
	if (!bl.n) {
		add_markdown(pg, text, len, line);
		return;
	}
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t eol = nl ? (size_t)(nl - text) : len;

		if (nlines == nl_alloc) {
			nl_alloc = nl_alloc ? 2 * nl_alloc : 64;
			lines = qu_xrealloc(lines, nl_alloc * sizeof(*lines));
			lens = qu_xrealloc(lens, nl_alloc * sizeof(*lens));
		}
		lines[nlines] = text + pos;
		lens[nlines++] = eol - pos;
		pos = nl ? eol + 1 : len;
	}
	for (k = 0; k < bl.n; k++) {
		const struct qu_site_block *b = &bl.v[k];
		size_t start = b->line <= nlines
				       ? (size_t)(lines[b->line - 1] - text)
				       : len;
		size_t end = b->end_line < nlines
				     ? (size_t)(lines[b->end_line] - text)
				     : len;

		add_markdown(pg, text + md_start, start - md_start, md_line);
		directive(s, pg, b, lines, lens, (uint32_t)nlines, line);
		md_start = end;
		md_line = line + b->end_line;
	}
	add_markdown(pg, text + md_start, len - md_start, md_line);
	for (k = 0; k < bl.n; k++)
		free((char *)bl.v[k].info);
	free(bl.v);
	free(lines);
	free(lens);
}

/*
 * A reST page: one QU_PART_RST part holding the whole text, then a part
 * per kernel-doc and toctree directive the reST reader found, each
 * knowing its offset so that the renderer, walking the same tree, puts it
 * in its place; the sections become the page's headings and the labels
 * its labels. The options and content lines go through the same
 * functions as a Markdown page's fenced directives.
 */
struct rst_load {
	struct qu_site *s;
	struct qu_page *pg;
	size_t halloc, lalloc;
	unsigned level; /* of the page's own section being read */
	size_t part; /* the page's QU_PART_RST part, by index */
};

static const char *dir_option(const struct qu_site_directive *d,
			      const char *name)
{
	for (size_t i = 0; i < d->nopts; i++)
		if (!strcmp(d->opts[i].name, name))
			return d->opts[i].value;
	return NULL;
}

/* The start of line @n (0-based) of @t..@e, or @e. */
static const char *line_at(const char *t, const char *e, unsigned long n)
{
	for (; n && t < e; n--) {
		const char *nl = memchr(t, '\n', (size_t)(e - t));

		t = nl ? nl + 1 : e;
	}
	return t;
}

/*
 * What an include takes of the file: lines :start-line: to :end-line:
 * (both counted from the file's start, as docutils slices them), then
 * what follows :start-after: and precedes :end-before:.
 */
static void include_cut(const char **t_io, const char **e_io,
			const struct qu_site_directive *d)
{
	const char *t = *t_io, *e = *e_io, *o, *m;

	if ((o = dir_option(d, "end-line")))
		e = line_at(t, e, strtoul(o, NULL, 10));
	if ((o = dir_option(d, "start-line")))
		t = line_at(t, e, strtoul(o, NULL, 10));
	if ((o = dir_option(d, "start-after")) && *o &&
	    (m = memmem(t, (size_t)(e - t), o, strlen(o))))
		t = m + strlen(o);
	if ((o = dir_option(d, "end-before")) && *o &&
	    (m = memmem(t, (size_t)(e - t), o, strlen(o))))
		e = m;
	*t_io = t;
	*e_io = e;
}

/* An included reST file's sections and labels, into the including page. */
struct inc_load {
	struct rst_load *rl;
	unsigned base;
};

static void inc_directive(void *payload, const struct qu_site_directive *d)
{
	/* the renderer shows an include in an included file as its source */
	(void)payload;
	(void)d;
}

static void rst_label(void *payload, const char *name, const char *id,
		      const char *title, const char *role);
static void section_label(struct rst_load *rl, unsigned level,
			  const char *text, const char *id, const char *name);

static void inc_heading(void *payload, unsigned level, const char *text,
			const char *id, const char *name, uint32_t line,
			bool hidden)
{
	struct inc_load *il = payload;

	site_add_heading(il->rl->s, il->rl->pg, &il->rl->halloc,
			 il->base + level, text, id, line, hidden);
	section_label(il->rl, il->base + level, text, id, name);
}

static void inc_label(void *payload, const char *name, const char *id,
		      const char *title, const char *role)
{
	struct inc_load *il = payload;

	rst_label(il->rl, name, id, title, role);
}

/*
 * The sections of an included reST file are sections of the page, under
 * the section holding the include, as the renderer nests them (docutils
 * would share the page's title styles; a file whose first style is one
 * the page uses above the include nests deeper here). Its parse
 * diagnostics stay unsaid, as the renderer's second parse of it does.
 */
static void include_read(struct rst_load *rl, const char *text, size_t len)
{
	/* the renderer parses an included file itself */
	static const struct qu_site_rst_sink sink = {inc_directive, inc_heading,
						     inc_label, NULL};
	struct inc_load il = {rl, rl->level};
	struct qu_diags scratch;
	struct qu_page *pg = rl->pg;

	if (!rl->s->reader->rst)
		return;
	qu_diags_init(&scratch);
	rl->s->reader->rst(rl->s->reader->rst_ctx, &scratch, pg->diag_path,
			   text, len, &sink, &il);
	qu_diags_fini(&scratch);
}

/*
 * Read the file @path a directive names (@shown as the page writes it)
 * into @text, confined as every input is; -1 after saying why not.
 */
static int read_named(struct rst_load *rl, const struct qu_site_directive *d,
		      const char *path, const char *shown, struct qu_buf *text)
{
	struct qu_site *s = rl->s;
	struct qu_page *pg = rl->pg;
	struct qu_buf err = QU_BUF_INIT;
	int r = -1;

	switch (site_check_read(s, path, shown, pg->diag_path, d->line,
				d->col, false)) {
	case SITE_READ_OK:
		break;
	case SITE_READ_MISSING:
		qu_diag(&s->diags, QU_W_MISSING_FILE, pg->diag_path, d->line,
			d->col, "%s names no file '%s', ignoring it", d->name,
			shown);
		/* fall through */
	case SITE_READ_REFUSED:
		return -1;
	}
	if (qu_file_read(text, path, &err) < 0)
		qu_diag(&s->diags, QU_W_UNREADABLE, pg->diag_path, d->line,
			d->col, "%s, ignoring the %s", err.buf, d->name);
	else
		r = 0;
	qu_buf_fini(&err);
	return r;
}

/* The included text, a part of the page; @rst: its sections are too. */
static void add_included(struct rst_load *rl, const struct qu_site_directive *d,
			 const char *text, size_t len, const char *path,
			 bool rst)
{
	struct qu_part *p = add_part(rl->pg, QU_PART_INCLUDE, d->line);

	p->text = site_strndup(rl->s, text, len);
	p->len = len;
	p->file = site_strdup(rl->s, path);
	if (rst)
		include_read(rl, p->text, p->len);
}

/*
 * An include: the file, relative to the page's folder ("/x" to the
 * Sphinx project's root), read now like every other input, confined to
 * the docs root and the source tree, and cut as its options say.
 * "<isonum.txt>" names docutils' own substitution sets: nothing to read,
 * nothing shown.
 */
static void include(struct rst_load *rl, const struct qu_site_directive *d)
{
	struct qu_site *s = rl->s;
	struct qu_page *pg = rl->pg;
	const char *t, *e;
	struct qu_buf path = QU_BUF_INIT, text = QU_BUF_INIT;
	const char *sl = strrchr(pg->src, '/');

	if (d->arg[0] == '<' || !d->arg[0])
		return;
	if (d->arg[0] == '/')
		qu_buf_addf(&path, "%s%s", s->root, d->arg);
	else
		qu_buf_addf(&path, "%s/%.*s%s", s->root,
			    sl ? (int)(sl - pg->src + 1) : 0, pg->src, d->arg);
	if (read_named(rl, d, path.buf, d->arg, &text) == 0) {
		t = text.buf;
		e = text.buf + text.len;
		include_cut(&t, &e, d);
		add_included(rl, d, t, (size_t)(e - t), path.buf,
			     !strcmp(d->name, "include") &&
				     !dir_option(d, "literal") &&
				     !dir_option(d, "code") &&
				     !dir_option(d, "language"));
	}
	qu_buf_fini(&path);
	qu_buf_fini(&text);
}

/*
 * csv-table with :file: (the kernel's amdgpu pages): the CSV, relative to
 * the page's folder like an include's file, read now and kept as the
 * directive's part; the table is made of it as of content.
 */
static void csv_file(struct rst_load *rl, const struct qu_site_directive *d)
{
	struct qu_site_directive f = *d;

	f.arg = dir_option(d, "file");
	if (f.arg && f.arg[0] != '<')
		include(rl, &f);
}

/*
 * maintainers-include: the tree's MAINTAINERS file, as the kernel's
 * extension turns it into reST, read in place of the directive as an
 * include is (its sections and label are the page's). The extension
 * finds the file above the page's Documentation/ folder: the source tree.
 */
static void maintainers_include(struct rst_load *rl,
				const struct qu_site_directive *d)
{
	struct qu_site *s = rl->s;
	struct qu_buf path = QU_BUF_INIT, text = QU_BUF_INIT;
	struct qu_buf rst = QU_BUF_INIT;

	qu_buf_addf(&path, "%s/MAINTAINERS", s->srctree ? s->srctree : s->root);
	if (read_named(rl, d, path.buf, path.buf, &text) == 0) {
		qu_site_maintainers_rst(&rst, text.buf, text.len);
		add_included(rl, d, rst.buf, rst.len, path.buf, true);
	}
	qu_buf_fini(&path);
	qu_buf_fini(&text);
	qu_buf_fini(&rst);
}

/* The files and folders a kernel-feat or kernel-abi directive read. */
struct folder {
	struct qu_site_text *v;
	size_t n;
	const char **inputs;
	size_t ninputs;
};

static void add_input(struct qu_site *s, struct folder *f, const char *path)
{
	f->inputs = qu_xgrow(f->inputs, f->ninputs, sizeof(*f->inputs));
	f->inputs[f->ninputs++] = site_strdup(s, path);
}

/*
 * Folders below a kernel-feat or kernel-abi folder are walked to this
 * depth at most: the kernel's are one and three deep, and a tree of
 * folders nested without end (a bind mount of a parent) stops here.
 */
#define FOLDER_MAX_DEPTH 16

/*
 * Every file below @dir (@rel below the directive's folder), each
 * folder's names sorted, as the scripts' File::Find walk reads them: not
 * into folders a link names, but through links to files. Each file is
 * confined and read as every input is; each file and folder becomes an
 * input of the build.
 */
static void read_folder(struct rst_load *rl, const struct qu_site_directive *d,
			struct folder *f, const char *dir, const char *rel,
			unsigned depth)
{
	struct qu_site *s = rl->s;
	struct qu_buf path = QU_BUF_INIT, sub = QU_BUF_INIT;
	struct qu_buf text = QU_BUF_INIT, err = QU_BUF_INIT;
	char **names = NULL;
	size_t n = 0;

	qu_buf_addf(&path, "%s%s%s", dir, *rel ? "/" : "", rel);
	if (qu_files_list(s->files, &names, NULL, &n, path.buf) < 0) {
		qu_diag(&s->diags, QU_W_UNREADABLE, rl->pg->diag_path, d->line,
			d->col, "cannot list '%s', ignoring the %s", path.buf,
			d->name);
		goto out;
	}
	qu_buf_addc(&path, '/');
	add_input(s, f, path.buf);
	for (size_t i = 0; i < n; i++) {
		struct qu_fstat st;

		qu_buf_reset(&sub);
		qu_buf_addf(&sub, "%s%s%s", rel, *rel ? "/" : "", names[i]);
		qu_buf_reset(&path);
		qu_buf_add_path(&path, dir, sub.buf);
		if (qu_files_stat(s->files, &st, path.buf, false) < 0)
			continue;
		if (st.kind == QU_FK_DIR) {
			if (depth < FOLDER_MAX_DEPTH)
				read_folder(rl, d, f, dir, sub.buf, depth + 1);
			else
				qu_diag(&s->diags,
					strcmp(d->name, "kernel-feat")
						? QU_W_KERNEL_ABI
						: QU_W_KERNEL_FEAT,
					rl->pg->diag_path, d->line, d->col,
					"'%s' is more than %d folders deep, "
					"not reading it",
					path.buf, FOLDER_MAX_DEPTH);
			continue;
		}
		/* a link to a folder is not followed: "missing" for a file */
		if (site_check_read(s, path.buf, path.buf, rl->pg->diag_path,
				    d->line, d->col, false) != SITE_READ_OK)
			continue;
		qu_buf_reset(&text);
		if (qu_files_read(s->files, &text, path.buf, &err) < 0) {
			qu_diag(&s->diags, QU_W_UNREADABLE, rl->pg->diag_path,
				d->line, d->col, "%s, leaving it out of the %s",
				err.buf, d->name);
			qu_buf_reset(&err);
			continue;
		}
		f->v = qu_xgrow(f->v, f->n, sizeof(*f->v));
		f->v[f->n].path = site_strdup(s, path.buf);
		f->v[f->n].rel = site_strdup(s, sub.buf);
		f->v[f->n].len = text.len;
		f->v[f->n].text = site_strndup(s, text.buf, text.len);
		add_input(s, f, path.buf);
		f->n++;
	}
out:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	qu_buf_fini(&path);
	qu_buf_fini(&sub);
	qu_buf_fini(&text);
	qu_buf_fini(&err);
}

/*
 * The kernel's ":debug:" option: the reST shown, numbered, instead of
 * read (the extensions' nestedParse()).
 */
static void debug_block(struct qu_buf *rst)
{
	struct qu_buf b = QU_BUF_INIT;
	const char *p = rst->buf, *e = rst->buf + rst->len;

	qu_buf_adds(&b, "\n\n.. code-block:: rst\n    :linenos:\n");
	for (;;) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));

		qu_buf_adds(&b, "\n    ");
		qu_buf_add(&b, p, nl ? (size_t)(nl - p) : (size_t)(e - p));
		if (!nl)
			break;
		p = nl + 1;
	}
	qu_buf_adds(&b, "\n\n");
	qu_buf_fini(rst);
	*rst = b;
}

/*
 * The ".. LINENO PATH#LINE" lines of kernel-abi's text: what follows
 * each comes from that line of that file (kernel_abi.py hands Sphinx
 * the same positions, never counting on from the line).
 */
static void abi_marks(struct qu_site *s, struct qu_part *p)
{
	static const char pre[] = ".. LINENO ";
	const char *t = p->text, *e = p->text + p->len;
	struct qu_part_mark *m = NULL;
	size_t n = 0, alloc = 0;

	while (t < e) {
		const char *nl = memchr(t, '\n', (size_t)(e - t));
		const char *le = nl ? nl : e, *hash;
		unsigned long line = 0;

		if ((size_t)(le - t) > sizeof(pre) - 1 &&
		    !memcmp(t, pre, sizeof(pre) - 1) &&
		    (hash = memrchr(t, '#', (size_t)(le - t))) &&
		    hash + 1 < le) {
			for (const char *d = hash + 1;
			     d < le && *d >= '0' && *d <= '9' && line < UINT32_MAX;
			     d++)
				line = line * 10 + (unsigned long)(*d - '0');
			if (n == alloc) {
				alloc = alloc ? 2 * alloc : 64;
				m = qu_xrealloc(m, alloc * sizeof(*m));
			}
			m[n].off = (uint32_t)((nl ? nl + 1 : e) - p->text);
			m[n].line = line ? (uint32_t)line : 1;
			m[n++].path = site_strndup(
				s, t + sizeof(pre) - 1,
				(size_t)(hash - t) - (sizeof(pre) - 1));
		}
		t = nl ? nl + 1 : e;
	}
	if (n) {
		struct qu_part_mark *am =
			qu_arena_alloc(&s->arena, n * sizeof(*am));

		memcpy(am, m, n * sizeof(*am));
		p->marks = am;
		p->nmarks = n;
	}
	free(m);
}

/*
 * kernel-feat and kernel-abi: the reST the kernel's scripts make of a
 * folder (get_feat.pl of Documentation/features, get_abi.pl of a folder
 * of Documentation/ABI), read in place of the directive as an include
 * is. kernel-feat's folder is a shell word ("$srctree/Documentation/
 * features"), relative to the page's folder; kernel-abi's is below the
 * source tree's Documentation/.
 */
static void kernel_folder(struct rst_load *rl, const struct qu_site_directive *d)
{
	struct qu_site *s = rl->s;
	struct qu_page *pg = rl->pg;
	const char *srctree = s->srctree ? s->srctree : s->root;
	/* "./Documentation/ABI" reads better as "Documentation/ABI" */
	const char *top = strcmp(srctree, ".") ? srctree : NULL;
	bool feat = !strcmp(d->name, "kernel-feat");
	struct qu_buf dir = QU_BUF_INIT, arch = QU_BUF_INIT, rst = QU_BUF_INIT;
	struct folder f = {0};
	struct qu_part *p;
	const char *a = d->arg, *w;
	size_t wl;

	while (*a == ' ' || *a == '\t' || *a == '\n')
		a++;
	for (w = a; *w && *w != ' ' && *w != '\t' && *w != '\n'; w++)
		;
	wl = (size_t)(w - a);
	if (!wl) {
		qu_diag(&s->diags, QU_W_RST_DIRECTIVE, pg->diag_path, d->line,
			d->col, "%s names no folder, ignoring it", d->name);
		return;
	}
	if (!feat) {
		qu_buf_addf(&dir, "%s%sDocumentation/%.*s", top ? top : "",
			    top ? "/" : "", (int)wl, a);
	} else if ((wl >= 9 && !strncmp(a, "$srctree/", 9)) ||
		   (wl >= 11 && !strncmp(a, "${srctree}/", 11))) {
		size_t skip = a[1] == '{' ? 11 : 9;

		qu_buf_addf(&dir, "%s%s%.*s", top ? top : "", top ? "/" : "",
			    (int)(wl - skip), a + skip);
	} else if (a[0] == '/') {
		qu_buf_add(&dir, a, wl);
	} else {
		const char *sl = strrchr(pg->src, '/');

		qu_buf_addf(&dir, "%s/%.*s%.*s", s->root,
			    sl ? (int)(sl - pg->src + 1) : 0, pg->src, (int)wl,
			    a);
	}
	while (dir.len > 1 && dir.buf[dir.len - 1] == '/')
		dir.buf[--dir.len] = 0;
	for (a = w; *a == ' ' || *a == '\t' || *a == '\n'; a++)
		;
	for (w = a; *w && *w != ' ' && *w != '\t' && *w != '\n'; w++)
		;
	qu_buf_add(&arch, a, (size_t)(w - a));
	switch (site_check_read(s, dir.buf, dir.buf, pg->diag_path, d->line,
				d->col, true)) {
	case SITE_READ_OK:
		break;
	case SITE_READ_MISSING:
		qu_diag(&s->diags, QU_W_MISSING_FILE, pg->diag_path, d->line,
			d->col, "%s names no folder '%s', ignoring it", d->name,
			dir.buf);
		/* fall through */
	case SITE_READ_REFUSED:
		goto out;
	}
	read_folder(rl, d, &f, dir.buf, "", 0);
	if (feat)
		qu_site_feat_rst(&rst, &s->diags, f.v, f.n,
				 arch.len ? arch.buf : NULL);
	else
		qu_site_abi_rst(&rst, &s->diags, dir.buf, f.v, f.n);
	if (dir_option(d, "debug"))
		debug_block(&rst);
	add_included(rl, d, rst.buf, rst.len, dir.buf, true);
	p = &pg->parts[pg->nparts - 1];
	p->inputs = qu_arena_alloc(&s->arena,
				   (f.ninputs + 1) * sizeof(*p->inputs));
	memcpy(p->inputs, f.inputs, f.ninputs * sizeof(*p->inputs));
	p->ninputs = f.ninputs;
	if (!feat && !dir_option(d, "debug"))
		abi_marks(s, p);
out:
	free(f.v);
	free(f.inputs);
	qu_buf_fini(&dir);
	qu_buf_fini(&arch);
	qu_buf_fini(&rst);
}

/*
 * kernel-include: the files it reads, each an input of the build, and
 * what stops it, said once.
 */
struct kinc {
	struct rst_load *rl;
	const struct qu_site_directive *d;
	const char **inputs;
	size_t ninputs;
};

static void QU_PRINTF(2, 3) kinc_warn(struct kinc *k, const char *fmt, ...)
{
	struct qu_buf msg = QU_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	qu_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	qu_diag(&k->rl->s->diags, QU_W_KERNEL_INCLUDE, k->rl->pg->diag_path,
		k->d->line, k->d->col, "%s, showing the directive", msg.buf);
	qu_buf_fini(&msg);
}

/* "./include/x.h" reads better as "include/x.h" (a srctree of "."). */
static const char *no_dot(const char *path)
{
	while (path[0] == '.' && path[1] == '/' && path[2])
		path += 2;
	return path;
}

/*
 * Read @path, confined as every input is, into @text; an input of the
 * build. 1 when it does not exist (@quiet: say nothing), -1 when it may
 * not or cannot be read (said).
 */
static int kinc_read(struct kinc *k, const char *path, struct qu_buf *text,
		     bool quiet)
{
	struct qu_site *s = k->rl->s;
	struct qu_buf err = QU_BUF_INIT;
	int r = 0;

	path = no_dot(path);
	switch (site_check_read(s, path, path, k->rl->pg->diag_path, k->d->line,
				k->d->col, false)) {
	case SITE_READ_OK:
		break;
	case SITE_READ_MISSING:
		if (!quiet)
			kinc_warn(k, "kernel-include: no file '%s'", path);
		return 1;
	case SITE_READ_REFUSED:
		return -1;
	}
	if (qu_files_read(s->files, text, path, &err) < 0) {
		kinc_warn(k, "kernel-include: %s", err.buf);
		r = -1;
	} else {
		k->inputs = qu_xgrow(k->inputs, k->ninputs, sizeof(*k->inputs));
		k->inputs[k->ninputs++] = site_strdup(s, path);
	}
	qu_buf_fini(&err);
	return r;
}

/*
 * A Makefile as kernel-include needs it: its variables, and the rule
 * that makes $(BUILDDIR)/NAME. Read as text, never run.
 */
struct mk {
	struct qu_map vars; /* name -> value, in the arena */
	struct qu_arena arena;
	const char *srctree;
	const char *unset; /* the first variable or function not known */
	struct qu_buf rule; /* the prerequisites, expanded, blank-separated */
	bool found;
};

/*
 * Expansion stops this deep and this long: a variable naming itself,
 * or variables that each double the one before, would never end.
 */
#define MK_MAX_DEPTH 16
#define MK_MAX_LEN 65536

/* $(NAME) and ${NAME} in @v, as make expands them, into @out. */
static void mk_expand(struct mk *mk, struct qu_buf *out, const char *v,
		      size_t len, unsigned depth)
{
	for (size_t i = 0; i < len; i++) {
		char open, close;
		const char *e, *val;
		size_t nl;

		if (out->len > MK_MAX_LEN || depth > MK_MAX_DEPTH) {
			mk->unset = mk->unset ? mk->unset : "(a loop)";
			return;
		}
		if (v[i] != '$' || i + 1 >= len) {
			qu_buf_addc(out, v[i]);
			continue;
		}
		open = v[++i];
		if (open == '$') {
			qu_buf_addc(out, '$');
			continue;
		}
		close = open == '(' ? ')' : open == '{' ? '}' : 0;
		e = close ? memchr(v + i + 1, close, len - i - 1) : NULL;
		nl = e ? (size_t)(e - v) - i - 1 : 0;
		if (!e || !nl || memchr(v + i + 1, ' ', nl) ||
		    memchr(v + i + 1, '$', nl)) {
			/* $X, or a function such as $(notdir $@) */
			if (!mk->unset)
				mk->unset = qu_arena_strndup(
					&mk->arena, v + i - 1, e ? nl + 3 : 2);
			i = e ? (size_t)(e - v) : i;
			continue;
		}
		val = qu_map_get(&mk->vars, v + i + 1, nl);
		if (val)
			mk_expand(mk, out, val, strlen(val), depth + 1);
		else if (nl == 7 && !memcmp(v + i + 1, "srctree", 7))
			qu_buf_adds(out, mk->srctree);
		else if (!mk->unset)
			mk->unset = qu_arena_strndup(&mk->arena, v + i + 1, nl);
		i = (size_t)(e - v);
	}
}

static void mk_set(struct mk *mk, const char *name, size_t nl, const char *op,
		   const char *v, size_t vl)
{
	struct qu_buf b = QU_BUF_INIT;
	bool added;
	struct qu_map_slot *slot =
		qu_map_intern(&mk->vars, name, nl, &mk->arena, &added);

	if (*op == '?' && !added && slot->value) {
		qu_buf_fini(&b);
		return;
	}
	if (*op == '+' && slot->value) {
		qu_buf_adds(&b, slot->value);
		qu_buf_addc(&b, ' ');
	}
	if (*op == ':') {
		const char *save = mk->unset;

		/* what cannot be expanded now is said when a rule uses it */
		mk->unset = NULL;
		mk_expand(mk, &b, v, vl, 0);
		if (mk->unset) {
			qu_buf_reset(&b);
			qu_buf_add(&b, v, vl);
		}
		mk->unset = save;
	} else {
		qu_buf_add(&b, v, vl);
	}
	slot->value = qu_arena_strndup(&mk->arena, b.buf, b.len);
	qu_buf_fini(&b);
}

static bool mk_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/*
 * One logical line of a Makefile: an assignment (=, :=, ::=, ?=, +=),
 * or a rule whose targets may be $(BUILDDIR)/@name; recipes and
 * comments are skipped.
 */
static void mk_line(struct mk *mk, const char *l, size_t n, const char *name)
{
	const char *eq, *colon, *hash = memchr(l, '#', n);
	struct qu_buf t = QU_BUF_INIT;
	size_t i, nb;

	if (n && l[0] == '\t')
		return;
	if (hash)
		n = (size_t)(hash - l);
	eq = memchr(l, '=', n);
	colon = memchr(l, ':', n);
	if (eq && (!colon || colon + 1 == eq || colon + 2 == eq)) {
		const char *op = eq;
		const char *v = eq + 1;
		size_t vl = n - (size_t)(v - l);

		if (op > l && (op[-1] == '?' || op[-1] == '+' || op[-1] == ':'))
			op--;
		if (op > l && op[-1] == ':')
			op--;
		for (i = 0; i < (size_t)(op - l) && mk_blank(l[i]); i++)
			;
		for (const char *p = l + i, *w; p < op; p = w) {
			/* "export NAME =", "override NAME =" */
			for (w = p; w < op && !mk_blank(*w); w++)
				;
			if (w < op && (!strncmp(p, "export", 6) ||
				       !strncmp(p, "override", 8)))
				i = (size_t)(w - l) + 1;
			while (w < op && mk_blank(*w))
				w++;
		}
		while (i < (size_t)(op - l) && mk_blank(l[i]))
			i++;
		nb = (size_t)(op - l);
		while (nb > i && mk_blank(l[nb - 1]))
			nb--;
		while (vl && mk_blank(*v)) {
			v++;
			vl--;
		}
		while (vl && mk_blank(v[vl - 1]))
			vl--;
		if (nb > i && !memchr(l + i, ' ', nb - i) &&
		    !memchr(l + i, '\t', nb - i))
			mk_set(mk, l + i, nb - i, op, v, vl);
		return;
	}
	if (!colon || mk->found)
		return;
	mk_expand(mk, &t, l, (size_t)(colon - l), 0);
	for (const char *p = t.buf, *w; *p; p = w) {
		while (*p && mk_blank(*p))
			p++;
		for (w = p; *w && !mk_blank(*w); w++)
			;
		if (w > p && (size_t)(w - p) > 9 &&
		    !memcmp(p, "\001BUILDDIR/", 10) &&
		    (size_t)(w - p) - 10 == strlen(name) &&
		    !memcmp(p + 10, name, strlen(name))) {
			const char *pre = colon + 1, *semi;
			size_t pl = n - (size_t)(pre - l);

			if (pl && *pre == ':')
				break; /* "::" rules are not the kernel's */
			semi = memchr(pre, ';', pl);
			if (semi)
				pl = (size_t)(semi - pre);
			qu_buf_reset(&mk->rule);
			mk->unset = NULL;
			mk_expand(mk, &mk->rule, pre, pl, 0);
			mk->found = true;
			break;
		}
	}
	qu_buf_fini(&t);
}

/*
 * The prerequisites of the rule of @mkfile that makes $(BUILDDIR)/@name,
 * into @mk->rule; false when there is none.
 */
static bool mk_rule(struct mk *mk, const char *text, size_t len,
		    const char *name)
{
	struct qu_buf l = QU_BUF_INIT;

	/* $(BUILDDIR) stays a mark, so that the target is found by name */
	mk_set(mk, "BUILDDIR", 8, "=", "\001BUILDDIR", 9);
	for (size_t pos = 0; pos < len && !mk->found;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t e = nl ? (size_t)(nl - text) : len;

		/* a backslash at the end joins the next line */
		if (e > pos && text[e - 1] == '\\') {
			qu_buf_add(&l, text + pos, e - pos - 1);
			qu_buf_addc(&l, ' ');
		} else {
			qu_buf_add(&l, text + pos, e - pos);
			mk_line(mk, l.buf, l.len, name);
			qu_buf_reset(&l);
		}
		pos = nl ? e + 1 : len;
	}
	if (l.len && !mk->found)
		mk_line(mk, l.buf, l.len, name);
	qu_buf_fini(&l);
	return mk->found;
}

/* The next blank-separated word of @p, or NULL. */
static const char *next_word(const char **p, size_t *len)
{
	const char *w = *p, *e;

	while (*w && mk_blank(*w))
		w++;
	if (!*w)
		return NULL;
	for (e = w; *e && !mk_blank(*e); e++)
		;
	*len = (size_t)(e - w);
	*p = e;
	return w;
}

static bool ends_with(const char *w, size_t len, const char *end)
{
	size_t el = strlen(end);

	return len >= el && !memcmp(w + len - el, end, el);
}

/*
 * $BUILDDIR/@name: what the Makefile of the page's folder or of a
 * folder above it (up to the docs root) makes with parse-headers.pl,
 * made here from the header and its exceptions file. 1 when no Makefile
 * has the rule; 0 with the reST in @rst, -1 after saying why not.
 */
static int kinc_made(struct kinc *k, const char *name, struct qu_buf *rst,
		     struct qu_buf *header_out)
{
	struct qu_site *s = k->rl->s;
	const char *src = k->rl->pg->src, *sl = strrchr(src, '/');
	struct qu_buf dir = QU_BUF_INIT, path = QU_BUF_INIT;
	struct qu_buf text = QU_BUF_INIT, hdr = QU_BUF_INIT, exc = QU_BUF_INIT;
	struct mk mk;
	const char *p, *w, *header = NULL, *excp = NULL, *parser = NULL;
	size_t wl, hl = 0, xl = 0;
	int r = 1;

	qu_map_init(&mk.vars);
	qu_arena_init(&mk.arena);
	qu_buf_init(&mk.rule);
	mk.srctree = s->srctree ? s->srctree : s->root;
	mk.found = false;
	qu_buf_add(&dir, src, sl ? (size_t)(sl - src) : 0);
	for (;;) {
		qu_buf_reset(&path);
		qu_buf_addf(&path, "%s%s%s/Makefile", s->root,
			    dir.len ? "/" : "", dir.buf);
		qu_buf_reset(&text);
		if (kinc_read(k, path.buf, &text, true) == 0) {
			qu_map_reset(&mk.vars);
			mk.unset = NULL;
			if (mk_rule(&mk, text.buf, text.len, name))
				break;
		}
		if (!dir.len)
			goto out;
		sl = memrchr(dir.buf, '/', dir.len);
		dir.len = sl ? (size_t)(sl - dir.buf) : 0;
		dir.buf[dir.len] = 0;
	}
	r = -1;
	for (p = mk.rule.buf; (w = next_word(&p, &wl));) {
		if (!header) {
			header = w;
			hl = wl;
		} else if (ends_with(w, wl, "/parse-headers.pl") ||
			   (wl == 16 && !memcmp(w, "parse-headers.pl", 16))) {
			parser = w;
		} else if (!excp && ends_with(w, wl, ".exceptions")) {
			excp = w;
			xl = wl;
		}
	}
	if (mk.unset) {
		kinc_warn(k,
			  "kernel-include: the rule of %s for '$BUILDDIR/%s' "
			  "uses '%s', which quire does not know",
			  path.buf, name, mk.unset);
		goto out;
	}
	if (!header || !parser) {
		kinc_warn(k,
			  "kernel-include: the rule of %s for '$BUILDDIR/%s' "
			  "does not run parse-headers.pl on a header",
			  path.buf, name);
		goto out;
	}
	header = site_strndup(s, header, hl);
	if (kinc_read(k, header, &hdr, false))
		goto out;
	if (excp) {
		excp = site_strndup(s, excp, xl);
		if (kinc_read(k, excp, &exc, false))
			goto out;
	}
	if (qu_site_headers_rst(rst, &s->diags, header, hdr.buf, hdr.len,
				excp ? no_dot(excp) : NULL,
				excp ? exc.buf : NULL, exc.len) < 0) {
		kinc_warn(k, "kernel-include: parse-headers.pl would stop on "
			     "the exceptions file");
		goto out;
	}
	qu_buf_adds(header_out, header);
	r = 0;
out:
	qu_map_fini(&mk.vars);
	qu_arena_fini(&mk.arena);
	qu_buf_fini(&mk.rule);
	qu_buf_fini(&dir);
	qu_buf_fini(&path);
	qu_buf_fini(&text);
	qu_buf_fini(&hdr);
	qu_buf_fini(&exc);
	return r;
}

/*
 * os.path.expandvars() as kernel_include.py calls it: $NAME and ${NAME}
 * (ASCII word characters) from the environment, others left as they
 * are. $srctree is the site's source tree, as kernel-feat reads it.
 * False, with the first unknown name in @unset, when one is left.
 */
static bool expand_vars(const struct qu_site *s, struct qu_buf *out,
			const char *a, struct qu_buf *unset)
{
	bool ok = true;

	while (*a) {
		const char *n = a + 1, *e;
		struct qu_buf name = QU_BUF_INIT;
		const char *v = NULL;

		if (*a != '$') {
			qu_buf_addc(out, *a++);
			continue;
		}
		if (*n == '{') {
			e = strchr(n, '}');
			if (e)
				qu_buf_add(&name, n + 1, (size_t)(e - n - 1));
			e = e ? e + 1 : NULL;
		} else {
			for (e = n; (*e >= 'a' && *e <= 'z') ||
				    (*e >= 'A' && *e <= 'Z') ||
				    (*e >= '0' && *e <= '9') || *e == '_';
			     e++)
				;
			qu_buf_add(&name, n, (size_t)(e - n));
			if (e == n)
				e = NULL;
		}
		if (e && !strcmp(name.buf, "srctree"))
			v = s->srctree ? s->srctree : s->root;
		else if (e && name.len)
			v = getenv(name.buf);
		if (v) {
			qu_buf_adds(out, v);
			a = e;
		} else {
			if (e && ok) {
				qu_buf_add(unset, name.buf, name.len);
				ok = false;
			}
			qu_buf_addc(out, *a++);
		}
		qu_buf_fini(&name);
	}
	return ok;
}

/*
 * kernel-include (Documentation/sphinx/kernel_include.py): an include
 * whose path may hold environment variables. $BUILDDIR/NAME is a file
 * the kernel's Makefile makes with parse-headers.pl: made here in
 * memory. Any other path is read after expansion, relative to the
 * source tree (where the kernel runs Sphinx), and cut and shown as
 * include does. What cannot be resolved stays as its source, with
 * -Wkernel-include.
 */
static void kernel_include(struct rst_load *rl,
			   const struct qu_site_directive *d)
{
	struct qu_site *s = rl->s;
	struct kinc k = {rl, d, NULL, 0};
	struct qu_buf rst = QU_BUF_INIT, path = QU_BUF_INIT;
	struct qu_buf unset = QU_BUF_INIT, exp = QU_BUF_INIT;
	const char *a = d->arg, *name = NULL, *t, *e;
	struct qu_part *p;
	int r = 1;

	while (*a == ' ' || *a == '\t' || *a == '\n')
		a++;
	if (!*a) {
		kinc_warn(&k, "kernel-include names no file");
		return;
	}
	if (!strncmp(a, "$BUILDDIR/", 10))
		name = a + 10;
	else if (!strncmp(a, "${BUILDDIR}/", 12))
		name = a + 12;
	if (name && *name && (r = kinc_made(&k, name, &rst, &path)) < 0)
		goto out;
	if (r > 0) {
		if (!expand_vars(s, &exp, a, &unset)) {
			if (name)
				kinc_warn(&k,
					  "kernel-include: no Makefile from "
					  "the page's folder up makes '%s' "
					  "with parse-headers.pl, and "
					  "$BUILDDIR is not set",
					  a);
			else
				kinc_warn(&k,
					  "kernel-include: '%s' is not set "
					  "in the environment (in '%s')",
					  unset.buf, a);
			goto out;
		}
		qu_buf_reset(&path);
		/* $srctree is the site's, which may be relative to here */
		if (exp.buf[0] != '/' && strncmp(a, "$srctree", 8) &&
		    strncmp(a, "${srctree}", 10))
			qu_buf_addf(&path, "%s/",
				    s->srctree ? s->srctree : s->root);
		qu_buf_adds(&path, exp.buf);
		if (kinc_read(&k, path.buf, &rst, false))
			goto out;
	}
	t = rst.buf;
	e = rst.buf + rst.len;
	include_cut(&t, &e, d);
	add_included(rl, d, t, (size_t)(e - t), path.buf,
		     !dir_option(d, "literal") && !dir_option(d, "code"));
	p = &rl->pg->parts[rl->pg->nparts - 1];
	p->inputs =
		qu_arena_alloc(&s->arena, (k.ninputs + 1) * sizeof(*p->inputs));
	memcpy(p->inputs, k.inputs, k.ninputs * sizeof(*p->inputs));
	p->ninputs = k.ninputs;
out:
	free(k.inputs);
	qu_buf_fini(&rst);
	qu_buf_fini(&path);
	qu_buf_fini(&unset);
	qu_buf_fini(&exp);
}

static void rst_directive(void *payload, const struct qu_site_directive *d)
{
	struct rst_load *rl = payload;
	struct dir_opt *opts = NULL;
	struct dir_line *body = NULL;
	size_t nopts = 0, nbody = 0, i, before = rl->pg->nparts;
	/* toctree entries are resolved later: the site keeps the text */
	const char *c = site_strdup(rl->s, d->content);
	uint32_t line = d->line + (uint32_t)d->nopts + 2;

	for (i = 0; i < d->nopts; i++) {
		struct dir_opt *o;
		const char *v = d->opts[i].value;

		opts = qu_xrealloc(opts, (nopts + 1) * sizeof(*opts));
		o = &opts[nopts++];
		o->key = d->opts[i].name;
		o->klen = strlen(o->key);
		qu_buf_init(&o->val);
		/*
		 * Continuation lines of :functions: lists are one value; a
		 * backslash ending a line only joins it (kernel-api.rst).
		 */
		for (; *v; v++) {
			if (*v == '\\' && (v[1] == '\n' || !v[1]))
				continue;
			qu_buf_addc(&o->val, *v == '\n' ? ' ' : *v);
		}
		o->line = d->opts[i].line;
		o->indent = 0;
	}
	while (*c) {
		const char *nl = strchr(c, '\n');
		struct dir_line dl = {c, nl ? (size_t)(nl - c) : strlen(c),
				      line++};

		trim(&dl.p, &dl.len);
		if (dl.len) {
			body = qu_xrealloc(body, (nbody + 1) * sizeof(*body));
			body[nbody++] = dl;
		}
		c = nl ? nl + 1 : c + strlen(c);
	}
	if (!strcmp(d->name, "include") || !strcmp(d->name, "literalinclude"))
		include(rl, d);
	else if (!strcmp(d->name, "csv-table"))
		csv_file(rl, d);
	else if (!strcmp(d->name, "maintainers-include"))
		maintainers_include(rl, d);
	else if (!strcmp(d->name, "kernel-include"))
		kernel_include(rl, d);
	else if (!strcmp(d->name, "kernel-feat") ||
		 !strcmp(d->name, "kernel-abi"))
		kernel_folder(rl, d);
	else if (!strcmp(d->name, "kernel-doc"))
		kernel_doc(rl->s, rl->pg, d->line, d->arg, strlen(d->arg), opts,
			   nopts, body, nbody);
	else if (!strcmp(d->name, "toctree"))
		toctree(rl->s, rl->pg, d->line, opts, nopts, body, nbody);
	else if (!strcmp(d->name, "kernel-render"))
		rl->pg->draws = true;
	for (i = before; i < rl->pg->nparts; i++)
		rl->pg->parts[i].off = d->off;
	for (i = 0; i < nopts; i++)
		qu_buf_fini(&opts[i].val);
	free(opts);
	free(body);
}

static void rst_heading(void *payload, unsigned level, const char *text,
			const char *id, const char *name, uint32_t line,
			bool hidden)
{
	struct rst_load *rl = payload;

	/* the page's sections come in order: the last holds what follows */
	rl->level = level;
	site_add_heading(rl->s, rl->pg, &rl->halloc, level, text, id, line,
			 hidden);
	section_label(rl, level, text, id, name);
}

static void rst_label(void *payload, const char *name, const char *id,
		      const char *title, const char *role)
{
	struct rst_load *rl = payload;
	struct qu_label *l;

	QU_VEC_GROW(rl->pg->labels, rl->pg->nlabels, rl->lalloc);
	l = &rl->pg->labels[rl->pg->nlabels++];
	l->name = site_strdup(rl->s, name);
	l->id = site_strdup(rl->s, id);
	l->title = title ? site_strdup(rl->s, title) : NULL;
	l->role = role ? site_strdup(rl->s, role) : NULL;
}

/*
 * Sphinx's autosectionlabel (conf.py): a section down to the depth it
 * sets is a label, named by its title as written, after "DOCNAME:" with
 * autosectionlabel_prefix_document; the whole name in lower case.
 */
static void section_label(struct rst_load *rl, unsigned level,
			  const char *text, const char *id, const char *name)
{
	const struct qu_config *c = &rl->s->cfg;
	struct qu_buf n = QU_BUF_INIT;

	if (!c->autosection || !name || !*name ||
	    (c->autosection_depth && level > c->autosection_depth))
		return;
	if (c->autosection_prefix && rl->pg->src) {
		const char *src = rl->pg->src;
		size_t l = strlen(src);

		if (l > 4 && !strcmp(src + l - 4, ".rst"))
			l -= 4;
		for (size_t i = 0; i < l; i++)
			qu_buf_addc(&n, (char)tolower((unsigned char)src[i]));
		qu_buf_addc(&n, ':');
	}
	qu_buf_adds(&n, name);
	rst_label(rl, n.buf, id, text, NULL);
	qu_buf_fini(&n);
}

/* The page's parse, for the renderer (the directives added parts since) */
static void rst_keep(void *payload, void *parsed, void (*free_fn)(void *))
{
	struct rst_load *rl = payload;
	struct qu_part *p = &rl->pg->parts[rl->part];

	p->parsed = qu_xmalloc(sizeof(*p->parsed));
	p->parsed->doc = parsed;
	p->parsed->free_fn = free_fn;
}

void site_rst_page(struct qu_site *s, struct qu_page *pg, const char *text,
		   size_t len)
{
	static const struct qu_site_rst_sink sink = {rst_directive, rst_heading,
						     rst_label, rst_keep};
	struct rst_load rl = {s, pg, 0, 0, 0, pg->nparts};
	struct qu_part *p = add_part(pg, QU_PART_RST, 1);

	p->text = text;
	p->len = len;
	pg->headings = NULL;
	pg->nheadings = 0;
	if (s->reader->rst)
		s->reader->rst(s->reader->rst_ctx, &s->diags, pg->diag_path,
			       text, len, &sink, &rl);
	/* the arrays live in the site's arena like everything else */
	site_arena_headings(s, pg);
	if (pg->nlabels) {
		struct qu_label *v = qu_arena_memdup(
			&s->arena, pg->labels, pg->nlabels * sizeof(*v));

		free(pg->labels);
		pg->labels = v;
	}
}
