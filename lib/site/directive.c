// SPDX-License-Identifier: MIT
/*
 * directive.c - split a page into Markdown and MyST-style directives
 * (site stage)
 *
 * A fenced block whose info string is "{name} argument" is a directive.
 * The fence is found by lines here, before any Markdown parsing, so the
 * Markdown between directives goes to cmark-gfm untouched. Options are
 * the block's leading ":key: value" lines; the rest is its body.
 */
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
 * An option line ":name: value" split into its name and its trimmed
 * value; false when the line has no second ':'.
 */
static bool split_option(const struct dir_line *o, const char **k,
			 size_t *kl, const char **v, size_t *vl)
{
	const char *colon;

	*k = o->p + 1;
	colon = memchr(*k, ':', o->len - 1);
	if (!colon)
		return false;
	*kl = (size_t)(colon - *k);
	*v = colon + 1;
	*vl = o->len - 1 - *kl - 1;
	trim(v, vl);
	return true;
}

/*
 * ```{kernel-doc} PATH with its options. The file must exist in the source
 * tree now, so a typo is reported at the directive's line rather than as
 * an empty section later.
 */
static void kernel_doc(struct qu_site *s, struct qu_page *pg, uint32_t line,
		       const char *arg, size_t arglen,
		       const struct dir_line *opts, size_t nopts)
{
	struct qu_part *part;
	struct qu_kdoc_sel *sel;
	struct qu_buf path = QU_BUF_INIT;
	struct stat st;
	size_t i;

	if (!arglen) {
		qu_diag(&s->diags, QU_W_MISSING_FILE, pg->diag_path, line, 1,
			"{kernel-doc} names no file, ignoring it");
		return;
	}
	qu_buf_addf(&path, "%s/%.*s", s->srctree, (int)arglen, arg);
	if (stat(path.buf, &st) < 0 || !S_ISREG(st.st_mode)) {
		qu_diag(&s->diags, QU_W_MISSING_FILE, pg->diag_path, line, 1,
			"no file '%.*s' in the source tree, ignoring the "
			"directive",
			(int)arglen, arg);
		qu_buf_fini(&path);
		return;
	}
	qu_buf_fini(&path);
	part = add_part(pg, QU_PART_KDOC, line);
	sel = &part->sel;
	sel->path = site_strndup(s, arg, arglen);
	for (i = 0; i < nopts; i++) {
		const char *k, *v;
		size_t kl, vl;

		if (!split_option(&opts[i], &k, &kl, &v, &vl))
			continue;
		if (kl == 6 && !strncmp(k, "export", 6)) {
			sel->mode = QU_SEL_EXPORT;
			names(s, v, vl, &sel->names, &sel->nnames);
		} else if (kl == 8 && !strncmp(k, "internal", 8)) {
			sel->mode = QU_SEL_INTERNAL;
			names(s, v, vl, &sel->names, &sel->nnames);
		} else if ((kl == 11 && !strncmp(k, "identifiers", 11)) ||
			   (kl == 9 && !strncmp(k, "functions", 9))) {
			sel->mode = QU_SEL_IDENTIFIERS;
			names(s, v, vl, &sel->names, &sel->nnames);
		} else if (kl == 14 && !strncmp(k, "no-identifiers", 14)) {
			names(s, v, vl, &sel->no_names, &sel->nno_names);
		} else if (kl == 3 && !strncmp(k, "doc", 3)) {
			sel->mode = QU_SEL_DOC;
			sel->doc = site_strndup(s, v, vl);
		} else {
			qu_diag(&s->diags, QU_W_UNKNOWN_OPTION, pg->diag_path,
				opts[i].line, 1,
				"{kernel-doc} has no option ':%.*s:', ignoring "
				"it",
				(int)kl, k);
		}
	}
}

/*
 * ```{toctree}: the options, and the entries kept as text until every page
 * is known (site_link_pages() resolves them).
 */
static void toctree(struct qu_site *s, struct qu_page *pg, uint32_t line,
		    const struct dir_line *opts, size_t nopts,
		    const struct dir_line *body, size_t nbody)
{
	struct qu_part *part = add_part(pg, QU_PART_TOCTREE, line);
	size_t i;

	for (i = 0; i < nopts; i++) {
		const char *k, *v;
		size_t kl, vl;

		if (!split_option(&opts[i], &k, &kl, &v, &vl))
			continue;
		if (kl == 8 && !strncmp(k, "maxdepth", 8))
			part->maxdepth = (unsigned)atoi(v);
		else if (kl == 7 && !strncmp(k, "caption", 7))
			part->caption = site_strndup(s, v, vl);
		else if (!(kl == 6 && !strncmp(k, "hidden", 6)) &&
			 !(kl == 4 && !strncmp(k, "glob", 4)) &&
			 !(kl == 8 && !strncmp(k, "numbered", 8)) &&
			 !(kl == 12 && !strncmp(k, "titlesonly", 12)))
			qu_diag(&s->diags, QU_W_UNKNOWN_OPTION, pg->diag_path,
				opts[i].line, 1,
				"{toctree} has no option ':%.*s:', ignoring it",
				(int)kl, k);
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

void site_split_parts(struct qu_site *s, struct qu_page *pg, const char *text,
		      size_t len, uint32_t line)
{
	size_t pos = 0, md_start = 0;
	uint32_t md_line = line, ln = line;
	char fence = 0;
	size_t fence_len = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t eol = nl ? (size_t)(nl - text) : len;
		size_t next = nl ? eol + 1 : len;
		const char *l = text + pos;
		size_t ll = eol - pos, ind = 0, fl = 0;

		while (ind < ll && ind < 4 && l[ind] == ' ')
			ind++;
		if (ind < 4 && ind + 3 <= ll &&
		    (l[ind] == '`' || l[ind] == '~')) {
			char c = l[ind];

			while (ind + fl < ll && l[ind + fl] == c)
				fl++;
		}
		if (fence) {
			if (fl >= fence_len && l[ind] == fence)
				fence = 0;
		} else if (fl >= 3) {
			const char *info = l + ind + fl;
			size_t il = ll - ind - fl;

			trim(&info, &il);
			if (il && info[0] == '{') {
				const char *close = memchr(info, '}', il);
				struct dir_line *opts = NULL, *body = NULL;
				size_t nopts = 0, nbody = 0;
				uint32_t dline = ln, bl = ln + 1;
				const char *name = info + 1, *arg;
				size_t nlen, arglen;
				size_t p2 = next;
				char fc = l[ind];
				bool in_opts = true;

				add_markdown(pg, text + md_start,
					     pos - md_start, md_line);
				nlen = close ? (size_t)(close - name) : il - 1;
				arg = close ? close + 1 : info + il;
				arglen = (size_t)(info + il - arg);
				trim(&arg, &arglen);
				/* the block's lines up to the closing fence */
				while (p2 < len) {
					const char *nl2 = memchr(
						text + p2, '\n', len - p2);
					size_t e2 = nl2 ? (size_t)(nl2 - text)
							: len;
					const char *l2 = text + p2;
					size_t ll2 = e2 - p2, i2 = 0, f2 = 0;
					struct dir_line dl;

					while (i2 < ll2 && i2 < 4 &&
					       l2[i2] == ' ')
						i2++;
					while (i2 + f2 < ll2 &&
					       l2[i2 + f2] == fc)
						f2++;
					p2 = nl2 ? e2 + 1 : len;
					if (f2 >= fl) {
						bl++;
						break;
					}
					dl.p = l2;
					dl.len = ll2;
					trim(&dl.p, &dl.len);
					dl.line = bl++;
					if (in_opts && dl.len > 1 &&
					    dl.p[0] == ':' &&
					    memchr(dl.p + 1, ':', dl.len - 1)) {
						opts = qu_xrealloc(
							opts,
							(nopts + 1) *
								sizeof(*opts));
						opts[nopts++] = dl;
						continue;
					}
					in_opts = false;
					if (!dl.len)
						continue;
					body = qu_xrealloc(
						body,
						(nbody + 1) * sizeof(*body));
					body[nbody++] = dl;
				}
				if (nlen == 10 &&
				    !strncmp(name, "kernel-doc", 10))
					kernel_doc(s, pg, dline, arg, arglen,
						   opts, nopts);
				else if (nlen == 7 &&
					 !strncmp(name, "toctree", 7))
					toctree(s, pg, dline, opts, nopts, body,
						nbody);
				else
					qu_diag(&s->diags,
						QU_W_UNKNOWN_DIRECTIVE,
						pg->diag_path, dline,
						(uint32_t)ind + 1,
						"unknown directive '{%.*s}', "
						"ignoring the block",
						(int)nlen, name);
				free(opts);
				free(body);
				ln = bl;
				pos = p2;
				md_start = p2;
				md_line = bl;
				continue;
			}
			fence = l[ind];
			fence_len = fl;
		}
		pos = next;
		ln++;
	}
	add_markdown(pg, text + md_start, len - md_start, md_line);
}
