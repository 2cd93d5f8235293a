// SPDX-License-Identifier: MIT
/*
 * comment.c - the kernel-doc comment grammar: scripts/kernel-doc's line
 * state machine (kdoc stage)
 *
 * Called by qu_kdoc_parse(). Lines outside comments are never looked at:
 * a memmem() for "\n/\*\*" jumps from one comment to the next, and only
 * the comment and the declaration after it are read line by line, the
 * way process_name(), process_body(), process_proto(), process_inline()
 * and process_docblock() read them. The declaration goes to decl.c.
 */
#include <string.h>

#include "kdoc_int.h"

static const char section_default[] = "Description";
static const char section_intro[] = "Introduction";
static const char section_context[] = "Context";
static const char section_return[] = "Return";

/*
 * Limit: a logical line (continuations joined) longer than this is cut.
 * It stops a file of backslash-continued lines, or one 1 GB line, from
 * being copied and scanned by every pattern below.
 */
#define MAX_LINE (1u << 20)

void kdoc_reset(struct kdoc_ctx *c)
{
	c->ndescs = 0;
	qu_map_reset(&c->descmap);
	c->nsects = 0;
	c->nsectcheck = 0;
	c->nparams = 0;
	qu_buf_reset(&c->prototype);
	c->state = ST_NORMAL;
	c->inline_state = INL_NA;
}

/*
 * Read the logical line at *@pos as Perl's <IN_FILE> plus process_file()
 * would: a line ending in a backslash (and blanks) is joined with the next
 * one, and tabs are expanded to 8 columns. No line holds a NUL: a file
 * with one is binary and never parsed (struct qu_source.binary).
 */
static void read_line(struct kdoc_ctx *c, size_t *pos)
{
	const char *d = c->src->data, *end = d + c->src->len;
	struct qu_buf *ln = &c->ln;
	size_t col = 0;

	qu_buf_reset(ln);
	c->has_nl = false;
	for (;;) {
		const char *p = d + *pos;
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *stop = eol ? eol : end;
		const char *q = stop;

		c->line++;
		*pos = eol ? (size_t)(eol + 1 - d) : c->src->len;
		/* \\\s*$ : a backslash then only blanks */
		while (q > p && kdoc_is_space((unsigned char)q[-1]))
			q--;
		bool cont = q > p && q[-1] == '\\';
		if (cont)
			stop = q - 1;
		if ((size_t)(stop - p) > MAX_LINE - ln->len)
			stop = p + (MAX_LINE - ln->len);
		/* a tab widens to at most 8 bytes */
		qu_buf_grow(ln, (size_t)(stop - p) * 8);
		char *w = ln->buf + ln->len;
		while (p < stop) {
			/* copy up to the next tab in one go */
			const char *tab = memchr(p, '\t', (size_t)(stop - p));
			const char *run = tab ? tab : stop;
			size_t n = (size_t)(run - p);

			memcpy(w, p, n);
			w += n;
			col += n;
			p = run;
			if (tab) {
				size_t t = 8 - col % 8;
				memset(w, ' ', t);
				w += t;
				col += t;
				p++;
			}
		}
		ln->len = (size_t)(w - ln->buf);
		ln->buf[ln->len] = '\0';
		if (!cont || *pos >= c->src->len) {
			c->has_nl = !cont && eol != NULL;
			return;
		}
	}
}

/* dump_section(): a finished @param description or section */
static void dump_section(struct kdoc_ctx *c, const char *name,
			 const char *text, size_t len)
{
	const char *at = strchr(name, '@');

	if (at) {
		/* \@(\w*((\.\w+)|(->\w+))*(\.\.\.)?) */
		const char *p = at + 1, *q;

		while (kdoc_is_word((unsigned char)*p))
			p++;
		for (;;) {
			if (p[0] == '.' && kdoc_is_word((unsigned char)p[1]))
				q = p + 1;
			else if (p[0] == '-' && p[1] == '>' &&
				 kdoc_is_word((unsigned char)p[2]))
				q = p + 2;
			else
				break;
			while (kdoc_is_word((unsigned char)*q))
				q++;
			p = q;
		}
		if (!strncmp(p, "...", 3))
			p += 3;
		char *pname = qu_arena_strndup(c->a, at + 1,
					       (size_t)(p - at - 1));
		kdoc_desc_set(c, pname, qu_arena_strndup(c->a, text, len),
			      c->new_start_line);
		QU_VEC_GROW(c->sectcheck, c->nsectcheck, c->asectcheck);
		c->sectcheck[c->nsectcheck++] = pname;
		c->new_start_line = 0;
		return;
	}
	for (size_t i = 0; i < c->nsects; i++) {
		struct qu_section *s = &c->sects[i];
		if (strcmp(s->title, name))
			continue;
		if (*s->body) {
			if (strcmp(name, section_default))
				kdoc_warn(c, QU_W_DUPLICATE_SECTION, c->line,
					  "duplicate section name '%s'", name);
			size_t bl = strlen(s->body);
			char *nb = qu_arena_alloc(c->a, bl + len + 1);
			memcpy(nb, s->body, bl);
			memcpy(nb + bl, text, len);
			nb[bl + len] = '\0';
			for (size_t k = i; k < c->nsects; k++)
				if (!strcmp(c->sects[k].title, name))
					c->sects[k].body = nb;
			return;
		}
		/* an empty earlier one: the reference lists the name again */
		break;
	}
	QU_VEC_GROW(c->sects, c->nsects, c->asects);
	const char *body = qu_arena_strndup(c->a, text, len);
	for (size_t k = 0; k < c->nsects; k++)
		if (!strcmp(c->sects[k].title, name))
			c->sects[k].body = body;
	c->sects[c->nsects++] = (struct qu_section){
		.title = qu_arena_strdup(c->a, name),
		.body = body,
		.line = c->new_start_line,
	};
	c->new_start_line = 0;
}

static void dump_contents(struct kdoc_ctx *c)
{
	dump_section(c, c->section.buf, c->contents.buf, c->contents.len);
}

static bool contents_real(const struct kdoc_ctx *c)
{
	return c->contents.len && strcmp(c->contents.buf, "\n");
}

static void set_section(struct kdoc_ctx *c, const char *s)
{
	kdoc_buf_set(&c->section, s, strlen(s));
}

/* \s*\*\s*DOC:\s*(.*)? anywhere: the title, or NULL */
static const char *match_doc_block(const char *l)
{
	for (const char *st = strchr(l, '*'); st; st = strchr(st + 1, '*')) {
		const char *p = kdoc_skip_space(st + 1);
		if (!strncmp(p, "DOC:", 4))
			return kdoc_skip_space(p + 4);
	}
	return NULL;
}

/* \s*\*\s*(\w+) anywhere: the word */
static bool match_doc_decl(const char *l, const char **w, size_t *wlen)
{
	for (const char *st = strchr(l, '*'); st; st = strchr(st + 1, '*')) {
		const char *p = kdoc_skip_space(st + 1), *q = p;
		while (kdoc_is_word((unsigned char)*q))
			q++;
		if (q > p) {
			*w = p;
			*wlen = (size_t)(q - p);
			return true;
		}
	}
	return false;
}

/* ^\s*\* then \s*: the rest, or NULL */
static const char *after_lead_star(const char *l)
{
	l = kdoc_skip_space(l);
	return *l == '*' ? kdoc_skip_space(l + 1) : NULL;
}

/* (\(\w*\))?\s*([-:].*)?$ from @p */
static bool name_tail(const char *p)
{
	if (*p == '(') {
		const char *q = p + 1;
		while (kdoc_is_word((unsigned char)*q))
			q++;
		if (*q == ')') {
			const char *r = kdoc_skip_space(q + 1);
			if (!*r || *r == '-' || *r == ':')
				return true;
		}
	}
	p = kdoc_skip_space(p);
	return !*p || *p == '-' || *p == ':';
}

/* \w+\s*\*\s* at @p: its end, or NULL */
static const char *fn_type(const char *p)
{
	const char *q = p;

	while (kdoc_is_word((unsigned char)*q))
		q++;
	if (q == p)
		return NULL;
	q = kdoc_skip_space(q);
	if (*q != '*')
		return NULL;
	return kdoc_skip_space(q + 1);
}

/* The two function-name patterns of process_name(); false if neither. */
static bool match_fn_name(const char *l, struct qu_buf *id)
{
	const char *r = after_lead_star(l);

	if (!r)
		return false;
	/* $fn_type?(\w+)\s*$parenthesis?\s*$decl_end?$ */
	for (int with = 1; with >= 0; with--) {
		const char *p = with ? fn_type(r) : r, *q;
		if (!p)
			continue;
		q = p;
		while (kdoc_is_word((unsigned char)*q))
			q++;
		if (q > p && name_tail(kdoc_skip_space(q))) {
			kdoc_buf_set(id, p, (size_t)(q - p));
			return true;
		}
	}
	/* $fn_type?(\w+.*)$parenthesis?\s*$decl_end$: to the last [-:] */
	for (int with = 1; with >= 0; with--) {
		const char *p = with ? fn_type(r) : r, *last = NULL;
		if (!p || !kdoc_is_word((unsigned char)*p))
			continue;
		for (const char *q = p + 1; *q; q++)
			if (*q == '-' || *q == ':')
				last = q;
		if (last) {
			kdoc_buf_set(id, p, (size_t)(last - p));
			return true;
		}
	}
	return false;
}

/*
 * process_name(): the line after "/\*\*" says what is documented. "DOC:"
 * opens a free-text block; otherwise the first word (or "struct foo",
 * "foo()", "define FOO") names the symbol and the text after the first
 * "-" or ":" is the brief. A line naming nothing ends the comment early
 * with the reference's warning, and the rest of it is skipped.
 */
static void process_name(struct kdoc_ctx *c)
{
	const char *l = c->ln.buf, *title, *w, *r;
	size_t wlen;
	bool is_kernel_comment = false;
	struct qu_buf *id = &c->identifier;

	title = match_doc_block(l);
	if (title) {
		size_t tl = strlen(title);
		c->state = ST_DOCBLOCK;
		qu_buf_reset(&c->contents);
		c->new_start_line = c->line;
		while (tl && kdoc_is_space((unsigned char)title[tl - 1]))
			tl--;
		if (tl)
			kdoc_buf_set(&c->section, title, tl);
		else
			set_section(c, section_intro);
		return;
	}
	if (!match_doc_decl(l, &w, &wlen)) {
		kdoc_warn(c, QU_W_BAD_DOC_LINE, c->line,
			  "Cannot understand %s on line %u - I thought it was a doc line",
			  l, c->line);
		c->state = ST_NORMAL;
		return;
	}
	kdoc_buf_set(id, w, wlen);
	/* ^$decl_start([\w\s]+?)$parenthesis?\s*$decl_end?$ */
	r = after_lead_star(l);
	if (r) {
		const char *q = r;
		while (kdoc_is_word((unsigned char)*q) ||
		       kdoc_is_space((unsigned char)*q)) {
			q++;
			if (name_tail(q)) {
				kdoc_buf_set(id, r, (size_t)(q - r));
				break;
			}
		}
	}
	static const struct {
		const char *kw;
		enum kdoc_decl_type t;
	} kws[] = { { "struct", DT_STRUCT }, { "union", DT_UNION },
		    { "enum", DT_ENUM }, { "typedef", DT_TYPEDEF } };
	for (size_t k = 0; k < QU_ARRAY_SIZE(kws); k++) {
		size_t n = strlen(kws[k].kw);
		if (!strncmp(id->buf, kws[k].kw, n) &&
		    !kdoc_is_word((unsigned char)id->buf[n])) {
			const char *p = kdoc_skip_space(id->buf + n), *q = p;
			while (*q && !kdoc_is_space((unsigned char)*q))
				q++;
			c->decl_type = kws[k].t;
			kdoc_buf_set(id, p, (size_t)(q - p));
			is_kernel_comment = true;
			break;
		}
	}
	if (!is_kernel_comment && match_fn_name(l, id)) {
		c->decl_type = DT_FUNCTION;
		if (!strncmp(id->buf, "define", 6) &&
		    kdoc_is_space((unsigned char)id->buf[6])) {
			const char *p = kdoc_skip_space(id->buf + 6);
			kdoc_buf_set(id, p, strlen(p));
		}
		is_kernel_comment = true;
	}
	while (id->len && kdoc_is_space((unsigned char)id->buf[id->len - 1]))
		id->buf[--id->len] = '\0';

	c->state = ST_BODY;
	qu_buf_reset(&c->contents);
	set_section(c, section_default);
	c->new_start_line = c->line + 1;
	qu_buf_reset(&c->purpose);
	{
		const char *d = strpbrk(l, "-:");
		if (d) {
			qu_buf_adds(&c->purpose, d + 1);
			kdoc_squash_spaces(&c->purpose);
			kdoc_trim(&c->purpose);
			c->state = ST_BODY_MAYBE;
		}
	}
	if (!is_kernel_comment) {
		kdoc_warn(c, QU_W_NOT_KERNEL_DOC, c->line,
			  "This comment starts with '/**', but isn't a kernel-doc comment. Refer Documentation/doc-guide/kernel-doc.rst");
		c->state = ST_NORMAL;
	}
	if (!c->purpose.len && c->verbose)
		kdoc_warn(c, QU_W_MISSING_SHORT_DESC, c->line,
			  "missing initial short description on line: %s", l);
	if (!id->len && c->decl_type != DT_ENUM) {
		kdoc_warn(c, QU_W_BAD_IDENTIFIER, c->line,
			  "wrong kernel-doc identifier on line: %s", l);
		c->state = ST_NORMAL;
	}
}

/*
 * $doc_sect, case-insensitive, anywhere in the line:
 * \*\s*(\@[.\w]+|\@\.\.\.|description|context|returns?|notes?|examples?)
 * \s*:([^:].*)?$. Sets the name and the text after the colon.
 */
static bool match_doc_sect(const struct kdoc_ctx *c, const char **name,
			   size_t *nlen, const char **rest)
{
	static const char *const words[] = {
		"description", "context", "returns", "return", "notes",
		"note", "examples", "example",
	};
	const char *l = c->ln.buf;

	for (const char *st = strchr(l, '*'); st; st = strchr(st + 1, '*')) {
		const char *p = kdoc_skip_space(st + 1);
		const char *ends[QU_ARRAY_SIZE(words) + 2];
		size_t n = 0;

		if (*p == '@') {
			const char *q = p + 1;
			while (*q == '.' || kdoc_is_word((unsigned char)*q))
				q++;
			if (q > p + 1)
				ends[n++] = q;
		} else if (strchr("dDcCrRnNeE", *p) && *p) {
			for (size_t k = 0; k < QU_ARRAY_SIZE(words); k++) {
				size_t wl = strlen(words[k]);
				if (!strncasecmp(p, words[k], wl))
					ends[n++] = p + wl;
			}
		}
		for (size_t k = 0; k < n; k++) {
			const char *q = kdoc_skip_space(ends[k]);
			if (*q != ':' || q[1] == ':')
				continue;
			*name = p;
			*nlen = (size_t)(ends[k] - p);
			*rest = q + 1;
			return true;
		}
	}
	return false;
}

/* \s*\* ?(.*) anywhere: the text, or NULL */
static const char *match_doc_content(const char *l)
{
	const char *st = strchr(l, '*');

	if (!st)
		return NULL;
	return st[1] == ' ' ? st + 2 : st + 1;
}

/*
 * process_body(): "@name:" and the section names start a new part, "*\/"
 * ends the comment, anything else is text of the current part. A blank
 * line after a named section returns to the description, as the
 * reference does; the brief continues until the first blank line.
 */
static void process_body(struct kdoc_ctx *c)
{
	const char *l = c->ln.buf, *name, *rest, *cont;
	size_t nlen;

	/* \w\.\.\.$ : named variadic macro arguments lose their dots */
	if (c->section.len > 3 &&
	    !strcmp(c->section.buf + c->section.len - 3, "...") &&
	    kdoc_is_word((unsigned char)c->section.buf[c->section.len - 4])) {
		c->section.len -= 3;
		c->section.buf[c->section.len] = '\0';
		if (c->verbose)
			kdoc_warn(c, QU_W_VARIADIC_DOTS, c->line,
				  "Variable macro arguments should be documented without dots");
	}
	if (c->state == ST_BODY_WITH_BLANK_LINE) {
		/* ^\s*\*\s?\S */
		const char *p = kdoc_skip_space(l);
		if (*p == '*') {
			p++;
			if (kdoc_is_space((unsigned char)*p))
				p++;
			if (*p && !kdoc_is_space((unsigned char)*p)) {
				dump_contents(c);
				set_section(c, section_default);
				c->new_start_line = c->line;
				qu_buf_reset(&c->contents);
			}
		}
	}
	if (match_doc_sect(c, &name, &nlen, &rest)) {
		struct qu_buf *ns = &c->tmp;

		kdoc_buf_set(ns, name, nlen);
		if (!strcasecmp(ns->buf, "description"))
			kdoc_buf_set(ns, section_default, 11);
		else if (!strcasecmp(ns->buf, "context"))
			kdoc_buf_set(ns, section_context, 7);
		else if (!strcasecmp(ns->buf, "return") ||
			 !strcasecmp(ns->buf, "returns") ||
			 !strcmp(ns->buf, "@return"))
			kdoc_buf_set(ns, section_return, 6);
		if (contents_real(c)) {
			if (!c->in_doc_sect && c->verbose)
				kdoc_warn(c, QU_W_CONTENTS_BEFORE_SECTIONS,
					  c->line, "contents before sections");
			dump_contents(c);
			set_section(c, section_default);
		}
		c->in_doc_sect = true;
		c->state = ST_BODY;
		/* ([^:].*)? takes the newline when nothing else follows */
		qu_buf_reset(&c->contents);
		if (*rest)
			qu_buf_adds(&c->contents, rest);
		else if (c->has_nl)
			qu_buf_addc(&c->contents, '\n');
		c->new_start_line = c->line;
		{
			size_t s = 0;
			while (s < c->contents.len && c->contents.buf[s] == ' ')
				s++;
			kdoc_buf_set(&c->contents, c->contents.buf + s,
				     c->contents.len - s);
		}
		if (c->contents.len)
			qu_buf_addc(&c->contents, '\n');
		kdoc_buf_set(&c->section, ns->buf, ns->len);
		c->leading_space_set = false;
	} else if (strstr(l, "*/")) {
		if (contents_real(c)) {
			dump_contents(c);
			set_section(c, section_default);
			qu_buf_reset(&c->contents);
		}
		/* \s*\*\s*[a-zA-Z_0-9:\.]+\*\/ */
		for (const char *st = strchr(l, '*'); st;
		     st = strchr(st + 1, '*')) {
			const char *p = kdoc_skip_space(st + 1), *q = p;
			while (kdoc_is_word((unsigned char)*q) || *q == ':' ||
			       *q == '.')
				q++;
			if (q > p && q[0] == '*' && q[1] == '/') {
				kdoc_warn(c, QU_W_SUSPICIOUS_END, c->line,
					  "suspicious ending line: %s", l);
				break;
			}
		}
		qu_buf_reset(&c->prototype);
		c->state = ST_PROTO;
		c->brcount = 0;
		c->new_start_line = c->line + 1;
		c->proto_line = c->line + 1;
	} else if ((cont = match_doc_content(l))) {
		if (!*cont) {
			if (!strcmp(c->section.buf, section_context)) {
				dump_contents(c);
				set_section(c, section_default);
				qu_buf_reset(&c->contents);
				c->new_start_line = c->line;
				c->state = ST_BODY;
			} else {
				c->state = strcmp(c->section.buf,
						  section_default)
						   ? ST_BODY_WITH_BLANK_LINE
						   : ST_BODY;
				qu_buf_addc(&c->contents, '\n');
			}
		} else if (c->state == ST_BODY_MAYBE) {
			qu_buf_addc(&c->purpose, ' ');
			qu_buf_adds(&c->purpose, cont);
			kdoc_squash_spaces(&c->purpose);
		} else {
			if (c->section.buf[0] == '@' ||
			    !strcmp(c->section.buf, section_context)) {
				if (!c->leading_space_set) {
					const char *p = cont;
					while (kdoc_is_space((unsigned char)*p))
						p++;
					kdoc_buf_set(&c->leading_space, cont,
						     (size_t)(p - cont));
					c->leading_space_set = true;
				}
				if (!strncmp(cont, c->leading_space.buf,
					     c->leading_space.len))
					cont += c->leading_space.len;
			}
			qu_buf_adds(&c->contents, cont);
			qu_buf_addc(&c->contents, '\n');
		}
	} else {
		kdoc_warn(c, QU_W_BAD_LINE, c->line, "bad line: %s", l);
	}
}

/* ^\s*\/\*\*\s*(@[\w\s]+):\s*(.*)\s*\*\/\s*$ */
static bool match_inline_oneline(const char *l, struct qu_buf *name,
				 struct qu_buf *text)
{
	const char *p = kdoc_skip_space(l), *q, *e;

	if (strncmp(p, "/**", 3))
		return false;
	p = kdoc_skip_space(p + 3);
	if (*p != '@')
		return false;
	q = p + 1;
	while (kdoc_is_word((unsigned char)*q) ||
	       kdoc_is_space((unsigned char)*q))
		q++;
	if (q == p + 1 || *q != ':')
		return false;
	e = l + strlen(l);
	while (e > q && kdoc_is_space((unsigned char)e[-1]))
		e--;
	if (e - q < 3 || e[-1] != '/' || e[-2] != '*')
		return false;
	e -= 2;
	kdoc_buf_set(name, p, (size_t)(q - p));
	q = kdoc_skip_space(q + 1);
	if (q > e)
		q = e;
	kdoc_buf_set(text, q, (size_t)(e - q));
	return true;
}

static bool only_space_after(const char *p)
{
	return !*kdoc_skip_space(p);
}

/* ^\s*\/\*\*\s*$ */
static bool match_inline_start(const char *l)
{
	const char *p = kdoc_skip_space(l);
	return !strncmp(p, "/**", 3) && only_space_after(p + 3);
}

/* ^\s*\*\/\s*$ */
static bool match_inline_end(const char *l)
{
	const char *p = kdoc_skip_space(l);
	return p[0] == '*' && p[1] == '/' && only_space_after(p + 2);
}

/* process_proto_function(): a function's prototype ends at "{" or ";" */
static void proto_function(struct kdoc_ctx *c)
{
	struct qu_buf *x = &c->tmp;
	char *cc;

	kdoc_buf_set(x, c->ln.buf, c->ln.len);
	if (c->has_nl)
		qu_buf_addc(x, '\n');
	/* s@\/\/.*$@@gos: the first "//" cuts the rest, newline included */
	cc = strstr(x->buf, "//");
	if (cc) {
		x->len = (size_t)(cc - x->buf);
		*cc = '\0';
	}
	const char *p = x->buf;
	bool macdoc = false;
	for (const char *st = strstr(p, "/*"); st; st = strstr(st + 1, "/*")) {
		const char *q = st + 2;
		if (!kdoc_is_space((unsigned char)*q))
			continue;
		q = kdoc_skip_space(q);
		if (!strncasecmp(q, "MACDOC", 6)) {
			macdoc = true;
			break;
		}
	}
	bool hash = x->buf[0] == '#';
	bool define = false;
	for (const char *h = strchr(p, '#'); h; h = strchr(h + 1, '#'))
		if (!strncmp(kdoc_skip_space(h + 1), "define", 6)) {
			define = true;
			break;
		}
	bool hash_define = hash && !strncmp(kdoc_skip_space(p + 1), "define", 6);
	if (!(macdoc || (hash && !hash_define))) {
		const char *br = strchr(p, '{');
		qu_buf_add(&c->prototype, p,
			   br ? (size_t)(br - p) : x->len);
	}
	if (strchr(p, '{') || define || strchr(p, ';')) {
		struct qu_buf *pr = &c->prototype;
		kdoc_strip_comments(pr);
		/* s@[\r\n]+@ @gos */
		{
			char *r = pr->buf, *w, *end = pr->buf + pr->len;
			/* the part before the first line break stays as it is */
			r += strcspn(r, "\r\n");
			w = r;
			while (r < end) {
				if (*r == '\r' || *r == '\n') {
					while (r < end && (*r == '\r' || *r == '\n'))
						r++;
					*w++ = ' ';
					continue;
				}
				*w++ = *r++;
			}
			pr->len = (size_t)(w - pr->buf);
			if (pr->alloc)
				*w = '\0';
		}
		{
			const char *s = kdoc_skip_space(pr->buf);
			kdoc_buf_set(pr, s, strlen(s));
		}
		kdoc_dump_function(c);
		kdoc_reset(c);
	}
}

/* process_proto_type(): a type ends at the ";" that closes its braces */
static void proto_type(struct kdoc_ctx *c)
{
	struct qu_buf *x = &c->tmp;
	char *cc;
	const char *p;

	kdoc_buf_set(x, c->ln.buf, c->ln.len);
	/* memchr(): a carriage return is rare, and this runs on every line */
	for (char *cr = memchr(x->buf, '\r', x->len); cr;
	     cr = memchr(cr + 1, '\r', x->len - (size_t)(cr + 1 - x->buf)))
		*cr = ' ';
	kdoc_trim(x);
	cc = strstr(x->buf, "//");
	if (cc) {
		x->len = (size_t)(cc - x->buf);
		*cc = '\0';
	}
	if (x->buf[0] == '#')
		qu_buf_addc(x, ';');
	p = x->buf;
	for (;;) {
		size_t n = strcspn(p, "{};");
		if (!p[n]) {
			qu_buf_adds(&c->prototype, p);
			return;
		}
		if (c->prototype.len)
			qu_buf_addc(&c->prototype, ' ');
		qu_buf_add(&c->prototype, p, n + 1);
		if (p[n] == '{')
			c->brcount++;
		else if (p[n] == '}')
			c->brcount--;
		else if (c->brcount == 0) {
			kdoc_dump_declaration(c);
			kdoc_reset(c);
			return;
		}
		p += n + 1;
	}
}

/*
 * process_proto(): declaration lines, with in-line member comments
 * ("/\*\* @member: text *\/" on one line, or a "/\*\*" block) taken as
 * member descriptions on the way.
 */
static void process_proto(struct kdoc_ctx *c)
{
	struct qu_buf name = QU_BUF_INIT, text = QU_BUF_INIT;

	if (match_inline_oneline(c->ln.buf, &name, &text)) {
		kdoc_buf_set(&c->section, name.buf, name.len);
		if (text.len) {
			qu_buf_addc(&text, '\n');
			dump_section(c, c->section.buf, text.buf, text.len);
			set_section(c, section_default);
			qu_buf_reset(&c->contents);
		} else {
			qu_buf_reset(&c->contents);
		}
	} else if (match_inline_start(c->ln.buf)) {
		c->state = ST_INLINE;
		c->inline_state = INL_NAME;
	} else if (c->decl_type == DT_FUNCTION) {
		proto_function(c);
	} else {
		proto_type(c);
	}
	qu_buf_fini(&name);
	qu_buf_fini(&text);
}

/* process_docblock(): a DOC: block is text up to "*\/", no sections. */
static void process_docblock(struct kdoc_ctx *c)
{
	const char *cont;

	if (strstr(c->ln.buf, "*/")) {
		/* dump_doc_section(): the selection is applied later */
		dump_contents(c);
		c->outputs++;
		for (size_t i = 0; i < c->nsects; i++)
			kdoc_emit_doc(c, &c->sects[i]);
		set_section(c, section_default);
		qu_buf_reset(&c->contents);
		c->ndescs = 0;
		qu_map_reset(&c->descmap);
		c->nsects = 0;
		c->nparams = 0;
		qu_buf_reset(&c->prototype);
		c->state = ST_NORMAL;
	} else if ((cont = match_doc_content(c->ln.buf))) {
		qu_buf_adds(&c->contents, cont);
		qu_buf_addc(&c->contents, '\n');
	}
}

/* \s*\*\s*(@\s*[\w][\w\.]*\s*):(.*) anywhere */
static bool match_inline_sect(const char *l, struct qu_buf *name,
			      const char **rest)
{
	for (const char *st = strchr(l, '*'); st; st = strchr(st + 1, '*')) {
		const char *p = kdoc_skip_space(st + 1), *q;
		if (*p != '@')
			continue;
		q = kdoc_skip_space(p + 1);
		if (!kdoc_is_word((unsigned char)*q))
			continue;
		while (kdoc_is_word((unsigned char)*q) || *q == '.')
			q++;
		q = kdoc_skip_space(q);
		if (*q != ':')
			continue;
		kdoc_buf_set(name, p, (size_t)(q - p));
		*rest = q + 1;
		return true;
	}
	return false;
}

/*
 * process_inline(): an in-line member comment must start with "@name:";
 * text lines before one are the reference's "Incorrect use" warning.
 */
static void process_inline(struct kdoc_ctx *c)
{
	const char *rest, *cont;

	if (c->inline_state == INL_NAME &&
	    match_inline_sect(c->ln.buf, &c->section, &rest)) {
		kdoc_buf_set(&c->contents, rest, strlen(rest));
		c->new_start_line = c->line;
		if (c->contents.len) {
			size_t s = 0;
			while (c->contents.buf[s] == ' ')
				s++;
			kdoc_buf_set(&c->contents, c->contents.buf + s,
				     c->contents.len - s);
			qu_buf_addc(&c->contents, '\n');
		}
		c->inline_state = INL_TEXT;
	} else if (match_inline_end(c->ln.buf)) {
		if (contents_real(c)) {
			dump_contents(c);
			set_section(c, section_default);
			qu_buf_reset(&c->contents);
		}
		c->state = ST_PROTO;
		c->inline_state = INL_NA;
	} else if ((cont = match_doc_content(c->ln.buf))) {
		if (c->inline_state == INL_TEXT) {
			qu_buf_adds(&c->contents, cont);
			qu_buf_addc(&c->contents, '\n');
			if (!*kdoc_skip_space(c->contents.buf))
				qu_buf_reset(&c->contents);
		} else if (c->inline_state == INL_NAME) {
			c->inline_state = INL_ERROR;
			kdoc_warn(c, QU_W_BAD_INLINE_DOC, c->line,
				  "Incorrect use of kernel-doc format: %s",
				  c->ln.buf);
		}
	}
}

/*
 * The next line from @pos that opens a comment, from the candidates the
 * source stage found in its one pass: its index in @src->docs, or -1.
 */
static size_t next_doc_start(const struct qu_source *src, size_t *cursor,
			     size_t pos)
{
	const char *d = src->data, *end = d + src->len;

	for (; *cursor < src->ndocs; ++*cursor) {
		size_t at = src->docs[*cursor].off;
		const char *p = d + at, *eol, *q;

		if (at < pos)
			continue;
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!qu_source_is_doc_start(p, (size_t)((eol ? eol : end) - p)))
			continue;
		/* a line spliced onto the one before is not a start */
		q = p - 1;
		while (q > d && q[-1] != '\n' &&
		       kdoc_is_space((unsigned char)q[-1]))
			q--;
		if (at == 0 || q <= d || q[-1] != '\\')
			return (*cursor)++;
	}
	return (size_t)-1;
}

/*
 * Outside comments nothing is read: the scan of the source stage listed
 * every line starting "/\*\*", and the line number comes with it. Inside,
 * each logical line goes to the handler of the current state.
 */
void kdoc_run(struct kdoc_ctx *c)
{
	size_t pos = 0, len = c->src->len, cursor = 0;

	c->state = ST_NORMAL;
	while (pos < len) {
		if (c->state == ST_NORMAL) {
			size_t k = next_doc_start(c->src, &cursor, pos);
			if (k == (size_t)-1)
				break;
			pos = c->src->docs[k].off;
			c->line = c->src->docs[k].line - 1;
			read_line(c, &pos);
			/* process_normal() */
			c->state = ST_NAME;
			c->in_doc_sect = false;
			c->comment_line = c->line;
			c->u->ncomments++;
			continue;
		}
		read_line(c, &pos);
		switch (c->state) {
		case ST_NAME:
			process_name(c);
			break;
		case ST_BODY_MAYBE:
		case ST_BODY:
		case ST_BODY_WITH_BLANK_LINE:
			process_body(c);
			break;
		case ST_INLINE:
			process_inline(c);
			break;
		case ST_PROTO:
			process_proto(c);
			break;
		case ST_DOCBLOCK:
			process_docblock(c);
			break;
		case ST_NORMAL:
			break;
		}
	}
	/* the reference says nothing; an open comment is worth a word */
	if (c->state == ST_NAME || c->state == ST_BODY ||
	    c->state == ST_BODY_MAYBE || c->state == ST_BODY_WITH_BLANK_LINE ||
	    c->state == ST_DOCBLOCK)
		kdoc_warn(c, QU_W_UNTERMINATED_COMMENT, c->comment_line,
			  "the comment runs to the end of the file");
}
