// SPDX-License-Identifier: MIT
/*
 * page.c - one item as a man(7) page (man stage)
 *
 * The page scripts/kernel-doc -man writes, in standard man(7): .TH, NAME
 * with the brief (what makewhatis and mandb index), SYNOPSIS with the
 * prototype or the struct, union or enum body, ARGUMENTS, MEMBERS or
 * CONSTANTS, every section in comment order, FILES with the place of the
 * declaration, and SEE ALSO. Called by write.c and the golden tests.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "man_int.h"

/* Longest synopsis line before a prototype is broken at its commas. */
#define SYNOPSIS_WIDTH 72

static bool is_ident(unsigned char c)
{
	return isalnum(c) || c == '_';
}

/*
 * Past this many parameters a prototype's names are looked up in a map:
 * 10^5 parameters would otherwise cost 10^10 comparisons.
 */
#define PARAMS_LINEAR 16

static bool is_param(const struct qu_item *it, const struct qu_map *names,
		     const char *p, size_t n)
{
	if (names)
		return qu_map_get(names, p, n) != NULL;
	for (size_t i = 0; i < it->nparams; i++)
		if (strlen(it->params[i].name) == n &&
		    !memcmp(it->params[i].name, p, n))
			return true;
	return false;
}

/*
 * Appends a piece of a declaration: the item's name in bold, its
 * parameters in italics, the rest as code.
 */
static void decl_text(struct man_w *w, const struct qu_item *it,
		      const char *p, size_t n, const struct qu_map *names,
		      bool params)
{
	size_t i = 0, text = 0, nlen = strlen(it->name);

	while (i < n) {
		if (!is_ident((unsigned char)p[i]) ||
		    (i > 0 && is_ident((unsigned char)p[i - 1]))) {
			i++;
			continue;
		}
		size_t j = i;

		while (j < n && is_ident((unsigned char)p[j]))
			j++;
		bool name = j - i == nlen && !memcmp(p + i, it->name, nlen);
		bool param =
			params && !name && is_param(it, names, p + i, j - i);

		if (name || param) {
			man_escape(w->b, p + text, i - text, MAN_ESC_CODE);
			qu_buf_adds(w->b, name ? "\\fB" : "\\fI");
			man_escape(w->b, p + i, j - i, MAN_ESC_CODE);
			qu_buf_adds(w->b, "\\fR");
			text = j;
		}
		i = j;
	}
	man_escape(w->b, p + text, n - text, MAN_ESC_CODE);
}

static void synopsis_line(struct man_w *w, const struct qu_item *it,
			  const char *p, size_t n, size_t indent,
			  const struct qu_map *names, bool params)
{
	size_t start = w->b->len;

	for (size_t i = 0; i < indent; i++)
		qu_buf_addc(w->b, ' ');
	decl_text(w, it, p, n, names, params);
	man_line_end(w, start);
}

/*
 * A prototype (or a #define with parameters, or a function-pointer
 * typedef) on one line, or broken after each top-level comma of its
 * parameter list when too long, continuation lines under the first
 * parameter.
 */
static void proto(struct man_w *w, const struct qu_item *it, const char *end)
{
	const char *d = it->decl;
	size_t n = strlen(d), open = 0, depth = 0, from, col;
	struct qu_buf line = QU_BUF_INIT;
	struct qu_map map, *names = NULL;

	if (it->nparams > PARAMS_LINEAR) {
		qu_map_init(&map);
		for (size_t i = 0; i < it->nparams; i++)
			qu_map_put(&map, it->params[i].name, (void *)1);
		names = &map;
	}

	/* a typedef's declaration brings its own ";" */
	if (n && d[n - 1] == ';')
		end = "";
	qu_buf_adds(&line, d);
	qu_buf_adds(&line, end);
	if (line.len <= SYNOPSIS_WIDTH || !memchr(d, '(', n)) {
		synopsis_line(w, it, line.buf, line.len, 0, names, true);
		goto out;
	}
	/* the parameter list: the first "(" after the name, else the first */
	const char *nm = strstr(d, it->name);

	open = nm && strchr(nm, '(') ? (size_t)(strchr(nm, '(') - d)
				     : (size_t)(strchr(d, '(') - d);
	col = open + 1 > 40 ? 8 : open + 1;
	from = 0;
	for (size_t i = open; i < n; i++) {
		if (d[i] == '(')
			depth++;
		else if (d[i] == ')')
			depth--;
		else if (d[i] == ',' && depth == 1) {
			synopsis_line(w, it, d + from, i + 1 - from,
				      from ? col : 0, names, true);
			from = i + 1;
			while (from < n && d[from] == ' ')
				from++;
		}
	}
	qu_buf_reset(&line);
	qu_buf_add(&line, d + from, n - from);
	qu_buf_adds(&line, end);
	synopsis_line(w, it, line.buf, line.len, from ? col : 0, names, true);
out:
	if (names)
		qu_map_fini(&map);
	qu_buf_fini(&line);
}

/*
 * One line of a body; a preprocessor line, which the normalized
 * declaration ends with ";" as the reference does, loses the ";" and its
 * indentation, as it is written in the header.
 */
static void member_line(struct man_w *w, const struct qu_item *it,
			const char *p, size_t n, size_t depth)
{
	if (*p == '#') {
		if (n > 1 && p[n - 1] == ';')
			n--;
		synopsis_line(w, it, p, n, 0, NULL, false);
		return;
	}
	synopsis_line(w, it, p, n, 4 * depth, NULL, false);
}

/*
 * A struct, union or enum body, one member (or enum value) a line,
 * nested bodies indented, from the one-line normalized declaration.
 */
static void body(struct man_w *w, const struct qu_item *it)
{
	const char *d = it->decl;
	size_t n = strlen(d), from = 0, depth = 0, paren = 0;
	bool is_enum = it->kind == QU_KIND_ENUM;

#define EMIT(to, ind)                                                      \
	do {                                                               \
		size_t a_ = from, e_ = (to);                               \
		while (a_ < e_ && d[a_] == ' ')                            \
			a_++;                                              \
		while (e_ > a_ && d[e_ - 1] == ' ')                        \
			e_--;                                              \
		if (e_ > a_)                                               \
			member_line(w, it, d + a_, e_ - a_, (ind));        \
		from = (to);                                               \
	} while (0)

	for (size_t i = 0; i < n; i++) {
		char c = d[i];

		if (c == '(')
			paren++;
		else if (c == ')' && paren)
			paren--;
		else if (c == '{' && !paren) {
			EMIT(i + 1, depth);
			depth++;
		} else if (c == '}' && !paren) {
			EMIT(i, depth);
			if (depth)
				depth--;
			/* "} name;" stays one line */
			size_t j = i + 1;

			while (j < n && d[j] != ';' && d[j] != '{' &&
			       d[j] != '}' && d[j] != ',')
				j++;
			if (j < n && d[j] == ';')
				j++;
			from = i;
			EMIT(j, depth);
			i = j - 1;
		} else if (!paren && (c == ';' || (is_enum && c == ','))) {
			EMIT(i + 1, depth);
		}
	}
	EMIT(n, depth);
	if (!(n && d[n - 1] == ';')) {
		size_t start = w->b->len;

		qu_buf_adds(w->b, ";");
		const char *prev = start > 1 ? memrchr(w->b->buf, '\n',
						       start - 1)
					     : NULL;
		size_t plen = prev ? start - 1 - (size_t)(prev + 1 - w->b->buf)
				   : start - 1;

		/*
		 * glue the ";" to the closing brace's line, unless that
		 * would make it longer than mandoc allows (found by fuzz-man)
		 */
		if (start && w->b->buf[start - 1] == '\n' &&
		    plen < MAN_LINE_MAX) {
			w->b->buf[start - 1] = ';';
			w->b->len = start;
			qu_buf_addc(w->b, '\n');
		} else if (start && w->b->buf[start - 1] == '\n') {
			qu_buf_addc(w->b, '\n');
		}
	}
#undef EMIT
}

static bool has_fp_params(const struct qu_item *it)
{
	return it->kind == QU_KIND_TYPEDEF && it->nparams &&
	       strchr(it->decl, '(');
}

static void synopsis(struct man_w *w, const struct qu_item *it,
		     const char *path)
{
	qu_buf_adds(w->b, ".SH SYNOPSIS\n.nf\n");
	w->fresh = true;
	w->nofill = true;
	if (!strncmp(path, "include/", 8)) {
		/* a header's users include it by its path below include/ */
		const char *h = path + 8;

		if (!strncmp(h, "uapi/", 5))
			h += 5;
		qu_buf_adds(w->b, "\\fB#include <");
		man_escape(w->b, h, strlen(h), MAN_ESC_CODE);
		qu_buf_adds(w->b, ">\\fR\n.PP\n");
	}
	switch (it->kind) {
	case QU_KIND_FUNCTION:
	case QU_KIND_VAR:
		proto(w, it, ";");
		break;
	case QU_KIND_MACRO:
		proto(w, it, "");
		break;
	case QU_KIND_TYPEDEF:
		if (has_fp_params(it))
			proto(w, it, ";");
		else if (strchr(it->decl, '{'))
			body(w, it);
		else
			proto(w, it, ";");
		break;
	case QU_KIND_STRUCT:
	case QU_KIND_UNION:
	case QU_KIND_ENUM:
		body(w, it);
		break;
	default:
		break;
	}
	if (!*it->decl) {
		size_t start = w->b->len;

		man_escape(w->b, it->name, strlen(it->name), MAN_ESC_CODE);
		man_line_end(w, start);
	}
	w->nofill = false;
	qu_buf_adds(w->b, ".fi\n");
}

static const char *params_title(const struct qu_item *it)
{
	switch (it->kind) {
	case QU_KIND_STRUCT:
	case QU_KIND_UNION:
		return "MEMBERS";
	case QU_KIND_ENUM:
		return "CONSTANTS";
	default:
		return "ARGUMENTS";
	}
}

static bool blank(const char *s)
{
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return false;
	return true;
}

static void params(struct man_w *w, const struct qu_item *it)
{
	bool members = it->kind == QU_KIND_STRUCT || it->kind == QU_KIND_UNION;
	size_t shown = 0;

	for (size_t i = 0; i < it->nparams; i++) {
		const struct qu_param *pm = &it->params[i];

		/*
		 * As the reference, undescribed members are left out (the
		 * synopsis shows them); an undescribed parameter keeps its
		 * place in the list.
		 */
		if (members && blank(pm->desc))
			continue;
		if (!shown++)
			qu_buf_addf(w->b, ".SH %s\n", params_title(it));
		qu_buf_adds(w->b, ".TP\n");
		size_t start = w->b->len;

		qu_buf_adds(w->b, it->kind == QU_KIND_ENUM ? "\\fB" : "\\fI");
		man_escape(w->b, pm->name, strlen(pm->name), MAN_ESC_CODE);
		qu_buf_adds(w->b, "\\fR");
		man_line_end(w, start);
		w->fresh = true;
		w->in_ip = true;
		if (blank(pm->desc)) {
			qu_buf_adds(w->b, "undescribed\n");
			w->fresh = false;
		} else {
			man_blocks(w, pm->desc);
		}
		w->in_ip = false;
	}
}

/* An ASCII-uppercased, quoted macro argument. */
static void upper_arg(struct qu_buf *b, const char *s)
{
	size_t start = b->len;

	man_escape(b, s, strlen(s), MAN_ESC_ARG);
	for (size_t i = start; i < b->len; i++)
		/* escapes stay as written: "\(dq", "\[u00E9]", "\e" */
		if (b->buf[i] == '\\') {
			if (b->buf[i + 1] == '[')
				i = (size_t)(strchr(b->buf + i, ']') - b->buf);
			else if (b->buf[i + 1] == '(')
				i += 3;
			else
				i++;
		} else {
			b->buf[i] = (char)toupper((unsigned char)b->buf[i]);
		}
}

static void sections(struct man_w *w, const struct qu_item *it)
{
	for (size_t i = 0; i < it->nsections; i++) {
		const struct qu_section *sec = &it->sections[i];

		if (blank(sec->body))
			continue;
		size_t req = w->b->len;

		qu_buf_adds(w->b, ".SH \"");
		upper_arg(w->b, sec->title);
		qu_buf_adds(w->b, "\"\n");
		man_request_fit(w->b, req, req + 5);
		w->fresh = true;
		man_blocks(w, sec->body);
	}
}

/* The struct, union and enum types of the parameters, for SEE ALSO. */
static void type_refs(struct man_w *w, const struct qu_item *it)
{
	static const char *const tags[] = {"struct ", "union ", "enum "};
	struct qu_buf name = QU_BUF_INIT;

	for (size_t i = 0; i < it->nparams; i++) {
		const char *t = it->params[i].type;

		for (size_t k = 0; k < QU_ARRAY_SIZE(tags); k++) {
			const char *at = strstr(t, tags[k]);
			size_t tl = strlen(tags[k]), e;

			if (!at || (at > t && is_ident((unsigned char)at[-1])))
				continue;
			at += tl;
			for (e = 0; is_ident((unsigned char)at[e]); e++)
				;
			qu_buf_reset(&name);
			qu_buf_add(&name, tags[k], tl - 1);
			qu_buf_addc(&name, '_');
			qu_buf_add(&name, at, e);
			man_ref(w, name.buf, name.len);
		}
	}
	qu_buf_fini(&name);
}

static int cmp_page(const void *a, const void *b, void *payload)
{
	const struct qu_man_set *s = payload;
	const size_t *x = a, *y = b;

	return strcmp(s->pages[*x].name, s->pages[*y].name);
}

static void see_also(struct man_w *w)
{
	if (!w->nrefs)
		return;
	qsort_r(w->refs, w->nrefs, sizeof(w->refs[0]), cmp_page,
		  (void *)w->set);
	qu_buf_adds(w->b, ".SH \"SEE ALSO\"\n");
	for (size_t i = 0; i < w->nrefs; i++) {
		const char *name = w->set->pages[w->refs[i]].name;

		qu_buf_adds(w->b, ".BR ");
		man_escape(w->b, name, strlen(name), MAN_ESC_CODE);
		qu_buf_adds(w->b, i + 1 < w->nrefs ? " (9),\n" : " (9)\n");
	}
}

void qu_man_render(struct qu_buf *out, const struct qu_man_set *s,
		   size_t page, const struct qu_man_opts *opts)
{
	const struct qu_man_page *pg = &s->pages[page];
	const struct qu_unit *u = &s->units[pg->unit];
	const struct qu_item *it = &u->items[pg->item];
	struct man_w w = {.b = out, .set = s, .self = page, .fresh = true};
	const char *path = u->path;
	size_t start;

	qu_buf_adds(out, ".\\\" Generated by quire from ");
	man_escape(out, path, strlen(path), MAN_ESC_CODE);
	qu_buf_adds(out, "; edit the comment there.\n.TH \"");
	upper_arg(out, pg->name);
	qu_buf_addf(out, "\" 9 \"%s\" \"", opts->date ? opts->date : "");
	if (opts->source)
		man_escape(out, opts->source, strlen(opts->source),
			   MAN_ESC_ARG);
	qu_buf_adds(out, "\" \"");
	man_escape(out,
		   opts->manual ? opts->manual : "Kernel API Manual",
		   strlen(opts->manual ? opts->manual : "Kernel API Manual"),
		   MAN_ESC_ARG);
	qu_buf_adds(out, "\"\n.SH NAME\n");

	/* "name \- brief": the line makewhatis and mandb index */
	start = out->len;
	if (it->kind == QU_KIND_STRUCT || it->kind == QU_KIND_UNION ||
	    it->kind == QU_KIND_ENUM) {
		qu_buf_adds(out, qu_kind_name(it->kind));
		qu_buf_addc(out, ' ');
	}
	man_escape(out, it->name, strlen(it->name), MAN_ESC_CODE);
	qu_buf_adds(out, " \\- ");
	if (blank(it->brief)) {
		qu_buf_adds(out, qu_kind_name(it->kind));
	} else {
		const char *b = it->brief;
		size_t bn;

		/* "name -- brief" leaves a "-" the reference prints too */
		while (*b == '-' || *b == ' ')
			b++;
		bn = strlen(b);

		/* one line: a brief never holds a newline, but be sure */
		for (size_t i = 0; i < bn; i++)
			if (b[i] == '\n' || b[i] == '\r') {
				bn = i;
				break;
			}
		man_inline(&w, b, bn);
	}
	man_line_end(&w, start);

	synopsis(&w, it, path);
	params(&w, it);
	sections(&w, it);

	qu_buf_adds(out, ".SH FILES\n");
	start = out->len;
	qu_buf_adds(out, "\\fI");
	man_escape(out, path, strlen(path), MAN_ESC_CODE);
	qu_buf_addf(out, "\\fR, line %u.",
		    (unsigned)(it->decl_line ? it->decl_line : it->line));
	if (it->exported) {
		qu_buf_adds(out, "\nExported with \\fB");
		man_escape(out, it->exported, strlen(it->exported),
			   MAN_ESC_CODE);
		qu_buf_adds(out, "\\fR.");
	}
	man_line_end(&w, start);

	type_refs(&w, it);
	see_also(&w);
}
