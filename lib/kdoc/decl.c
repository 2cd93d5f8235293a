// SPDX-License-Identifier: MIT
/*
 * decl.c - declaration parsing: the prototype or type after a comment
 * becomes a name and a parameter or member list (kdoc stage)
 *
 * Called by comment.c when a declaration ends. This is scripts/kernel-doc's
 * dump_function(), dump_struct(), dump_enum(), dump_typedef() and
 * create_parameterlist(), kept to their matching rules (documented at each
 * step) so the names and members agree with the reference on the kernel
 * tree; the attribute and macro rewrites come from lib/source/attrs.def.
 */
#include <stdlib.h>
#include <string.h>

#include "kdoc_int.h"

static bool is_name(int ch)
{
	return kdoc_is_word(ch) || ch == '~' || ch == ':';
}

/*
 * \(([^\(]*|[^\{]*)\) at @p: true with the arguments' span. The first
 * alternative ends at the last ")" before the next "(", the second at the
 * last ")" before a "{" (the prototype has none left) or the end.
 */
static bool proto_end(const char *p, const char **args, size_t *alen)
{
	const char *q, *last = NULL;

	if (*p != '(')
		return false;
	for (q = p + 1; *q && *q != '('; q++)
		if (*q == ')')
			last = q;
	if (!last)
		for (q = p + 1; *q && *q != '{'; q++)
			if (*q == ')')
				last = q;
	if (!last)
		return false;
	*args = p + 1;
	*alen = (size_t)(last - p - 1);
	return true;
}

/* $name\s*$prototype_end at @p */
static bool name_proto(const char *p, const char **name, size_t *nlen,
		       const char **args, size_t *alen)
{
	const char *q = p;

	while (is_name((unsigned char)*q))
		q++;
	if (q == p)
		return false;
	*name = p;
	*nlen = (size_t)(q - p);
	return proto_end(kdoc_skip_space(q), args, alen);
}

/* s@^(\S+\s+)\(\s*\*(\S+)\)@$1$2@ : "int (*op)(args)" -> "int op(args)" */
static void unwrap_fp(struct qu_buf *pr)
{
	char *s = pr->buf, *p = s, *q, *r, *last = NULL;

	while (*p && !kdoc_is_space((unsigned char)*p))
		p++;
	if (p == s || !*p)
		return;
	while (kdoc_is_space((unsigned char)*p))
		p++;
	if (*p != '(')
		return;
	q = (char *)kdoc_skip_space(p + 1);
	if (*q != '*')
		return;
	q++;
	for (r = q; *r && !kdoc_is_space((unsigned char)*r); r++)
		if (r > q && *r == ')')
			last = r;
	if (!last)
		return;
	/* drop "(\s*\*" and the ")" after the name */
	memmove(last, last + 1, strlen(last + 1) + 1);
	memmove(p, q, strlen(q) + 1);
	pr->len = strlen(pr->buf);
}

/* syscall_munge(): SYSCALL_DEFINEn(name, type, arg, ...) */
static void syscall_munge(struct qu_buf *pr)
{
	struct qu_buf out = QU_BUF_INIT;
	bool is_void = strstr(pr->buf, "SYSCALL_DEFINE0") != NULL;
	char *s = strstr(pr->buf, "SYSCALL_DEFINE"), *lp, *c;

	lp = strrchr(s, '(');
	if (!lp)
		return;
	qu_buf_add(&out, pr->buf, (size_t)(s - pr->buf));
	qu_buf_adds(&out, "long sys_");
	qu_buf_adds(&out, lp + 1);
	c = strstr(out.buf, "long sys_");
	if (c && strchr(c, ',')) {
		*strchr(out.buf, ',') = '(';
	} else if (is_void) {
		char *rp = strchr(out.buf, ')');
		if (rp) {
			size_t at = (size_t)(rp - out.buf);
			struct qu_buf t = QU_BUF_INIT;
			qu_buf_add(&t, out.buf, at);
			qu_buf_adds(&t, "(void)");
			qu_buf_adds(&t, out.buf + at + 1);
			qu_buf_fini(&out);
			out = t;
		}
	}
	if (!is_void) {
		int count = 0;
		for (char *k = out.buf; *k; k++)
			if (*k == ',' && ++count % 2 == 1)
				*k = ' ';
	}
	kdoc_buf_set(pr, out.buf, out.len);
	qu_buf_fini(&out);
}

/* (.*?), after @key: the span up to the next comma */
static bool upto_comma(const char *s, const char *key, int skip,
		       struct qu_slice *out)
{
	const char *p = strstr(s, key), *q;

	if (!p)
		return false;
	p += strlen(key);
	for (int k = 0; k <= skip; k++) {
		q = strchr(p, ',');
		if (!q)
			return false;
		*out = (struct qu_slice){ p, (size_t)(q - p) };
		p = q + 1;
	}
	return true;
}

/* tracepoint_munge(): TRACE_EVENT(name, TP_PROTO(args), ...) */
static void tracepoint_munge(struct kdoc_ctx *c)
{
	struct qu_buf *pr = &c->prototype;
	struct qu_slice name = { NULL, 0 }, s;
	const char *tp, *e;
	struct qu_buf out = QU_BUF_INIT;

	if (upto_comma(pr->buf, "TRACE_EVENT(", 0, &s))
		name = s;
	if (upto_comma(pr->buf, "DEFINE_SINGLE_EVENT(", 0, &s))
		name = s;
	if (upto_comma(pr->buf, "DEFINE_EVENT(", 1, &s))
		name = s;
	while (name.ptr && name.len && kdoc_is_space((unsigned char)*name.ptr)) {
		name.ptr++;
		name.len--;
	}
	tp = strstr(pr->buf, "TP_PROTO(");
	e = tp ? strchr(tp + 9, ')') : NULL;
	if (!name.ptr || !e) {
		kdoc_warn(c, QU_W_BAD_TRACEPOINT, c->line,
			  "Unrecognized tracepoint format: %s", pr->buf);
		return;
	}
	qu_buf_adds(&out, "static inline void trace_");
	qu_buf_add(&out, name.ptr, name.len);
	qu_buf_addc(&out, '(');
	qu_buf_add(&out, tp + 9, (size_t)(e - tp - 9));
	qu_buf_addc(&out, ')');
	kdoc_buf_set(pr, out.buf, out.len);
	qu_buf_reset(&out);
	qu_buf_adds(&out, "trace_");
	qu_buf_adds(&out, c->identifier.buf);
	kdoc_buf_set(&c->identifier, out.buf, out.len);
	qu_buf_fini(&out);
}

/* One comma-joined line of the parameters' types, for @decl. */
static void add_param_types(struct kdoc_ctx *c, struct qu_buf *d, size_t from)
{
	for (size_t i = from; i < c->nparams; i++) {
		const struct kdoc_param *p = &c->params[i];
		if (i > from)
			qu_buf_adds(d, ", ");
		qu_buf_adds(d, p->text && *p->text ? p->text : p->name);
	}
}

/*
 * A comment named like a function above "type name;" or "type name = ..."
 * documents a variable. The reference gives up on it (the warning above
 * stays, so the warning counts still match); quire keeps it as a "var"
 * item when the declared name is the comment's.
 */
static void dump_var(struct kdoc_ctx *c, const char *s)
{
	size_t end = strcspn(s, "=;");
	const char *w, *e = s + end;
	struct qu_buf *dp = &c->s_decl;

	/* a struct's "{" ends the prototype first: no "=" or ";" then */
	if (!s[end])
		return;
	while (e > s && kdoc_is_space((unsigned char)e[-1]))
		e--;
	while (e > s && e[-1] == ']') {
		const char *lb = e - 1;
		while (lb > s && *lb != '[')
			lb--;
		if (*lb != '[')
			return;
		e = lb;
		while (e > s && kdoc_is_space((unsigned char)e[-1]))
			e--;
	}
	w = e;
	while (w > s && kdoc_is_word((unsigned char)w[-1]))
		w--;
	if (w == e || w == s || strlen(c->identifier.buf) != (size_t)(e - w) ||
	    memcmp(c->identifier.buf, w, (size_t)(e - w)) ||
	    strpbrk(s, "()"))
		return;
	/* "struct foo;" declares a tag, not a variable */
	{
		const char *t = kdoc_skip_space(s), *te = w;
		while (te > t && kdoc_is_space((unsigned char)te[-1]))
			te--;
		size_t tl = (size_t)(te - t);
		if ((tl == 6 && !memcmp(t, "struct", 6)) ||
		    (tl == 5 && !memcmp(t, "union", 5)) ||
		    (tl == 4 && !memcmp(t, "enum", 4)))
			return;
	}
	qu_buf_reset(dp);
	qu_buf_add(dp, s, end);
	kdoc_squash_spaces(dp);
	kdoc_trim(dp);
	kdoc_emit(c, strncmp(dp->buf, "typedef", 7) ? QU_KIND_VAR
						     : QU_KIND_TYPEDEF,
		  c->identifier.buf, dp->buf);
}

/*
 * dump_function(): after the attrs.def rewrites, the prototype is tried
 * as an object-like macro, then as "name(args)", "type name(args)" and
 * "type *name(args)", each with the reference's greedy choice of where
 * the type ends. The parameters are read before the name is compared,
 * so a misnamed comment still reports its undescribed parameters.
 */
void kdoc_dump_function(struct kdoc_ctx *c)
{
	struct qu_buf *pr = &c->prototype;
	const char *name = NULL, *args = NULL, *s;
	size_t nlen = 0, alen = 0, rlen = 0;
	bool define = false, noret = false, ok = false;
	char *ret, *nm;
	enum qu_kind kind;

	unwrap_fp(pr);
	if (strstr(pr->buf, "SYSCALL_DEFINE"))
		syscall_munge(pr);
	/* all three name "_EVENT": one search for the common prototype */
	if (strstr(pr->buf, "_EVENT") &&
	    (strstr(pr->buf, "TRACE_EVENT") || strstr(pr->buf, "DEFINE_EVENT") ||
	     strstr(pr->buf, "DEFINE_SINGLE_EVENT")))
		tracepoint_munge(c);

	/* s/^#\s*define\s+// */
	if (pr->buf[0] == '#') {
		const char *p = kdoc_skip_space(pr->buf + 1);
		if (!strncmp(p, "define", 6) &&
		    kdoc_is_space((unsigned char)p[6])) {
			p = kdoc_skip_space(p + 6);
			kdoc_buf_set(pr, p, strlen(p));
			define = true;
		}
	}
	kdoc_apply_attrs(pr, ATTR_PROTO, &c->s_attr);
	s = pr->buf;

	if (define) {
		/* ^()($name)\s+ : an object-like macro */
		const char *q = s;
		while (is_name((unsigned char)*q))
			q++;
		if (q > s && kdoc_is_space((unsigned char)*q)) {
			name = s;
			nlen = (size_t)(q - s);
			noret = ok = true;
		}
	}
	if (!ok && name_proto(s, &name, &nlen, &args, &alen))
		ok = true;
	if (!ok) {
		/* ^([\w\s]+)\s+($name)\s*$prototype_end, longest type first */
		size_t S = 0;
		while (kdoc_is_word((unsigned char)s[S]) ||
		       kdoc_is_space((unsigned char)s[S]))
			S++;
		for (size_t t = S; t >= 1 && !ok; t--) {
			if (!kdoc_is_space((unsigned char)s[t]))
				continue;
			if (name_proto(kdoc_skip_space(s + t), &name, &nlen,
				       &args, &alen)) {
				rlen = t;
				ok = true;
			}
		}
	}
	if (!ok) {
		/* ^(([\w\s]+\*+)+)\s*($name)\s*$prototype_end */
		size_t ends[64], n = 0, i = 0;
		for (;;) {
			size_t j = i;
			while (kdoc_is_word((unsigned char)s[j]) ||
			       kdoc_is_space((unsigned char)s[j]))
				j++;
			if (j == i || s[j] != '*')
				break;
			while (s[j] == '*')
				j++;
			if (n == QU_ARRAY_SIZE(ends))
				break;
			ends[n++] = i = j;
		}
		while (n-- > 0 && !ok)
			if (name_proto(kdoc_skip_space(s + ends[n]), &name,
				       &nlen, &args, &alen)) {
				rlen = ends[n];
				ok = true;
			}
	}
	if (!ok) {
		kdoc_warn(c, QU_W_BAD_PROTOTYPE, c->line,
			  "cannot understand function prototype: '%s'", s);
		dump_var(c, s);
		return;
	}
	nm = qu_arena_strndup(c->a, name, nlen);
	ret = qu_arena_strndup(c->a, s, rlen);
	/* the parameters are read (and warned about) before the name is
	 * compared, as in the reference */
	if (args) {
		char *a = qu_arena_strndup(c->a, args, alen);
		kdoc_param_list(c, a, ',', nm);
	}
	if (strcmp(c->identifier.buf, nm)) {
		kdoc_warn(c, QU_W_PROTOTYPE_MISMATCH, c->line,
			  "expecting prototype for %s(). Prototype was for %s() instead",
			  c->identifier.buf, nm);
		return;
	}
	kdoc_check_sections(c, nm);
	if (c->verbose && !noret)
		kdoc_check_return(c, nm, ret);

	if (strstr(ret, "typedef"))
		kind = QU_KIND_TYPEDEF;
	else if (define || !*ret)
		kind = QU_KIND_MACRO;
	else
		kind = QU_KIND_FUNCTION;

	struct qu_buf *dp = &c->s_decl;
	qu_buf_reset(dp);
	if (define && noret) {
		qu_buf_adds(dp, "#define ");
		qu_buf_adds(dp, s);
	} else {
		if (define)
			qu_buf_adds(dp, "#define ");
		if (*ret) {
			qu_buf_adds(dp, ret);
			qu_buf_addc(dp, ' ');
		}
		qu_buf_adds(dp, nm);
		qu_buf_addc(dp, '(');
		add_param_types(c, dp, 0);
		qu_buf_addc(dp, ')');
	}
	kdoc_squash_spaces(dp);
	kdoc_trim(dp);
	kdoc_emit(c, kind, nm, dp->buf);
}

/* create_parameterlist() -------------------------------------------------- */

/* while (/\([^\),]+,/) { s/(\([^\),]+),/$1#/g } */
static void hide_fp_commas(char *s)
{
	bool changed = true;

	while (changed) {
		changed = false;
		for (char *p = strchr(s, '('); p; p = strchr(p + 1, '(')) {
			char *q = p + 1;
			while (*q && *q != ')' && *q != ',')
				q++;
			if (q > p + 1 && *q == ',') {
				*q = '#';
				changed = true;
				p = q;
			}
		}
	}
}

/* \(.+\)\s*\( : a pointer to function */
static bool is_fp(const char *s)
{
	const char *open = strchr(s, '(');

	if (!open || !open[1])
		return false;
	for (const char *r = open + 2; *r; r++) {
		if (*r != ')')
			continue;
		if (*kdoc_skip_space(r + 1) == '(')
			return true;
	}
	return false;
}

static void one_fp_param(struct kdoc_ctx *c, char *arg, const char *decl_name)
{
	const char *name = "", *at = NULL;
	size_t nlen = 0;
	struct qu_buf type = QU_BUF_INIT;

	for (char *k = arg; *k; k++)
		if (*k == '#')
			*k = ',';
	/* [^\(]+\(\*?\s*([\w\[\]\.]*)\s*\) */
	for (const char *p = strchr(arg, '('); p; p = strchr(p + 1, '(')) {
		const char *q = p + 1, *n0, *n1;
		if (p == arg || p[-1] == '(')
			continue;
		if (*q == '*')
			q++;
		q = kdoc_skip_space(q);
		n0 = q;
		while (kdoc_is_word((unsigned char)*q) || *q == '[' ||
		       *q == ']' || *q == '.')
			q++;
		n1 = q;
		if (*kdoc_skip_space(q) != ')')
			continue;
		name = n0;
		nlen = (size_t)(n1 - n0);
		at = p + 1;
		break;
	}
	char *param = qu_arena_strndup(c->a, name, nlen);
	/* the type is the declaration without the name */
	if (at) {
		const char *q = at;
		if (*q == '*')
			q++;
		qu_buf_add(&type, arg, (size_t)(q - arg));
		q = kdoc_skip_space(q);
		qu_buf_adds(&type, q + nlen);
	} else {
		qu_buf_adds(&type, arg);
	}
	kdoc_push_param(c, param, type.buf, arg, decl_name, true);
	qu_buf_fini(&type);
}

/* split /\s+/ : fields, with a leading empty one if @s starts blank */
static size_t split_ws(char *s, char **out, size_t max)
{
	size_t n = 0;
	char *p = s;

	if (kdoc_is_space((unsigned char)*p) && n < max)
		out[n++] = (char *)"";
	while (*p) {
		while (kdoc_is_space((unsigned char)*p))
			*p++ = '\0';
		if (!*p)
			break;
		if (n < max)
			out[n++] = p;
		while (*p && !kdoc_is_space((unsigned char)*p))
			p++;
	}
	return n;
}

/*
 * Limit: words in the type of one declarator list. A type of more words
 * than this (no real C type has 64) is cut, so one pathological line
 * cannot make the per-parameter type text quadratic.
 */
#define MAX_TYPE_WORDS 64

static void plain_params(struct kdoc_ctx *c, char *arg, const char *decl_name)
{
	struct qu_buf *bp = &c->s_b, *typep = &c->s_type, *t2p = &c->s_t2;
	char *words[MAX_TYPE_WORDS + 2];
	size_t nw;
	const char *org;

	qu_buf_reset(bp);
	qu_buf_reset(typep);
	qu_buf_reset(t2p);

	/* s/\s*:\s*\/:/g; s/\s*\[/\[/g */
	for (const char *p = arg; *p;) {
		if (kdoc_is_space((unsigned char)*p)) {
			const char *q = kdoc_skip_space(p);
			if (*q == ':' || *q == '[') {
				p = q;
				continue;
			}
		}
		if (*p == ':') {
			qu_buf_addc(bp, ':');
			p = kdoc_skip_space(p + 1);
			continue;
		}
		qu_buf_addc(bp, *p++);
	}
	org = qu_arena_strndup(c->a, bp->buf, bp->len);

	/* split('\s*,\s*'), dropping trailing empty fields */
	char **fields = c->fields;
	size_t nf = 0, af = c->afields;
	{
		char *p = bp->buf;
		for (;;) {
			char *comma = strchr(p, ',');
			char *e = comma ? comma : p + strlen(p);
			char *s0 = p, *e0 = e;
			while (e0 > s0 && kdoc_is_space((unsigned char)e0[-1]))
				e0--;
			if (nf > 0)
				s0 = (char *)kdoc_skip_space(s0);
			QU_VEC_GROW(fields, nf, af);
			fields[nf++] = qu_arena_strndup(c->a, s0,
						(size_t)(e0 > s0 ? e0 - s0 : 0));
			if (!comma)
				break;
			p = comma + 1;
		}
		while (nf > 0 && !*fields[nf - 1])
			nf--;
	}
	if (!nf)
		goto out;
	/* s/(\*+)\s*\/ $1/ on the first */
	{
		char *st = strchr(fields[0], '*');
		if (st) {
			char *e = st;
			while (*e == '*')
				e++;
			const char *after = kdoc_skip_space(e);
			qu_buf_reset(t2p);
			qu_buf_add(t2p, fields[0], (size_t)(st - fields[0]));
			qu_buf_addc(t2p, ' ');
			qu_buf_add(t2p, st, (size_t)(e - st));
			qu_buf_adds(t2p, after);
			fields[0] = qu_arena_strndup(c->a, t2p->buf, t2p->len);
		}
	}
	/* ^(.*\s+)(.*?\[.*\].*)$ : the type words, then a declarator with [] */
	{
		char *f = fields[0], *split = NULL;
		/*
		 * From the end: the first '[' at or after p is kept as we go,
		 * and the last ']' of the field is fixed, so each blank costs
		 * a comparison, not a search to the end (an 850 KB
		 * declaration took 1.8 s).
		 */
		const char *lb = NULL, *rb = strrchr(f, ']');
		for (char *p = f + strlen(f); p > f; p--) {
			if (*p == '[')
				lb = p;
			if (!kdoc_is_space((unsigned char)p[-1]))
				continue;
			if (lb && rb && rb > lb) {
				split = p;
				break;
			}
		}
		if (split) {
			char *decl = qu_arena_strdup(c->a, split);
			*split = '\0';
			nw = split_ws(f, words, MAX_TYPE_WORDS);
			while (nw && !*words[nw - 1] && nw > 1)
				nw--;
			words[nw++] = decl;
		} else {
			nw = split_ws(f, words, MAX_TYPE_WORDS + 1);
		}
	}
	/* unshift(@args, pop @first_arg); $type = join " ", @first_arg */
	if (nw)
		fields[0] = words[--nw];
	else
		fields[0] = (char *)"";
	for (size_t i = 0; i < nw; i++) {
		if (i)
			qu_buf_addc(typep, ' ');
		qu_buf_adds(typep, words[i]);
	}
	for (size_t i = 0; i < nf; i++) {
		char *p = fields[i], *colon;
		if (*p == '*') {
			char *q = p;
			while (*q == '*')
				q++;
			qu_buf_reset(t2p);
			qu_buf_add(t2p, typep->buf, typep->len);
			qu_buf_addc(t2p, ' ');
			qu_buf_add(t2p, p, (size_t)(q - p));
			kdoc_push_param(c, kdoc_skip_space(q), t2p->buf, org,
					decl_name, true);
		} else if ((colon = strchr(p, ':')) &&
			   colon[1] >= '0' && colon[1] <= '9') {
			if (typep->len) {
				const char *d = colon + 1;
				while (*d >= '0' && *d <= '9')
					d++;
				qu_buf_reset(t2p);
				qu_buf_add(t2p, typep->buf, typep->len);
				qu_buf_add(t2p, colon, (size_t)(d - colon));
				*colon = '\0';
				kdoc_push_param(c, p, t2p->buf, org, decl_name,
						true);
			}
		} else {
			kdoc_push_param(c, p, typep->buf, org, decl_name, true);
		}
	}
out:
	c->fields = fields;
	c->afields = af;
}

/*
 * create_parameterlist(): split at @splitter ("," for functions, ";" for
 * members) with commas inside a function pointer's own parameters hidden,
 * then each piece is a preprocessor line, a function pointer, or a type
 * followed by one or more declarators ("int a, *b, c[4]").
 */
void kdoc_param_list(struct kdoc_ctx *c, char *args, char splitter,
		     const char *decl_name)
{
	struct qu_buf *argp = &c->s_arg;
	char *p = args, *end;
	size_t nfields = 0;

	hide_fp_commas(args);
	/* split drops trailing empty fields: find the last non-empty one */
	end = args + strlen(args);
	{
		char *q = end;
		while (q > args && q[-1] == splitter)
			q--;
		end = q;
	}
	while (p < end || (p == args && !nfields && p < end)) {
		char *sep = memchr(p, splitter, (size_t)(end - p));
		char *e = sep ? sep : end;

		nfields++;
		kdoc_buf_set(argp, p, (size_t)(e - p));
		p = sep ? sep + 1 : end;
		/* s/\/\*.*\*\/\/\/ */
		{
			char *o = strstr(argp->buf, "/*");
			char *cl = o ? NULL : NULL;
			if (o)
				for (char *k = strstr(o + 2, "*/"); k;
				     k = strstr(k + 1, "*/"))
					cl = k;
			if (o && cl) {
				memmove(o, cl + 2, strlen(cl + 2) + 1);
				argp->len = strlen(argp->buf);
			}
		}
		kdoc_trim(argp);
		/* s/\s+/ / : the first run only */
		for (size_t i = 0; i < argp->len; i++) {
			if (!kdoc_is_space((unsigned char)argp->buf[i]))
				continue;
			size_t j = i;
			while (j < argp->len &&
			       kdoc_is_space((unsigned char)argp->buf[j]))
				j++;
			argp->buf[i] = ' ';
			memmove(argp->buf + i + 1, argp->buf + j, argp->len - j + 1);
			argp->len -= j - i - 1;
			break;
		}
		if (argp->buf[0] == '#') {
			kdoc_push_param(c, qu_arena_strdup(c->a, argp->buf), "",
					"", decl_name, true);
		} else if (is_fp(argp->buf)) {
			one_fp_param(c, qu_arena_strdup(c->a, argp->buf),
				     decl_name);
		} else if (argp->len && strcmp(argp->buf, "0")) {
			plain_params(c, argp->buf, decl_name);
		}
	}
}

/* dump_struct() ------------------------------------------------------------ */

static bool is_qualifier(const char *s, size_t *len)
{
	static const char *const q[] = {
		"__packed", "__aligned", "____cacheline_aligned_in_smp",
		"____cacheline_aligned",
	};

	if (!strncasecmp(s, "__attribute__", 13)) {
		const char *p = kdoc_skip_space(s + 13), *k, *last = NULL;
		if (p[0] != '(' || p[1] != '(')
			return false;
		for (k = p + 2; *k && (kdoc_is_word((unsigned char)*k) ||
				       strchr(",*()", *k) ||
				       kdoc_is_space((unsigned char)*k));
		     k++)
			if (k[0] == ')' && k[1] == ')')
				last = k + 2;
		if (!last || last > k)
			return false;
		*len = (size_t)(last - s);
		return true;
	}
	for (size_t i = 0; i < QU_ARRAY_SIZE(q); i++)
		if (!strncmp(s, q[i], strlen(q[i]))) {
			*len = strlen(q[i]);
			return true;
		}
	return false;
}

/* }\s*$qualifiers*\s*(\w+)\s*; at @p: the name's span */
static bool typedef_tail(const char *p, struct qu_slice *name)
{
	const char *stops[32];
	size_t n = 0, ql;
	const char *q = kdoc_skip_space(p + 1);

	stops[n++] = q;
	while (n < QU_ARRAY_SIZE(stops) && is_qualifier(q, &ql)) {
		q += ql;
		stops[n++] = q;
	}
	while (n-- > 0) {
		const char *w = kdoc_skip_space(stops[n]), *e = w;
		while (kdoc_is_word((unsigned char)*e))
			e++;
		if (e > w && *kdoc_skip_space(e) == ';') {
			*name = (struct qu_slice){ w, (size_t)(e - w) };
			return true;
		}
	}
	return false;
}

/* private: up to the next public: comment, or to the end, goes */
static void strip_private(struct qu_buf *m)
{
	struct qu_buf out = QU_BUF_INIT;
	const char *s = m->buf;
	size_t i = 0;

	if (!strcasestr(s, "private:"))
		return;
	while (s[i]) {
		if (s[i] == '/' && s[i + 1] == '*') {
			const char *p = kdoc_skip_space(s + i + 2);
			if (!strncasecmp(p, "private:", 8)) {
				/* .*?\/\*\s*public:.*?\*\/ */
				const char *k = p + 8, *pub = NULL;
				for (; (k = strstr(k, "/*")); k++) {
					const char *t = kdoc_skip_space(k + 2);
					if (!strncasecmp(t, "public:", 7)) {
						pub = strstr(t + 7, "*/");
						break;
					}
				}
				if (pub) {
					i = (size_t)(pub + 2 - s);
					continue;
				}
				/* private: with no public: after it */
				break;
			}
		}
		qu_buf_addc(&out, s[i++]);
	}
	kdoc_buf_set(m, out.buf, out.len);
	qu_buf_fini(&out);
}

/*
 * The length of "struct" or "union" at @p, else 0. Called at every byte of
 * struct bodies, so one byte is tested before any string compare.
 */
static inline size_t aggregate_keyword(const char *p)
{
	if (*p == 's' && !strncmp(p, "struct", 6))
		return 6;
	if (*p == 'u' && !strncmp(p, "union", 5))
		return 5;
	return 0;
}

/*
 * The first (struct|union)([^{};]+)\{([^{}]*)\}([^{};]*); : an innermost
 * nested struct or union, with its declarators.
 */
static bool find_nested(const char *s, size_t *at, size_t *end,
			struct qu_slice *type, struct qu_slice *body,
			struct qu_slice *ids)
{
	for (const char *p = s; *p; p++) {
		size_t kl = aggregate_keyword(p);

		if (!kl)
			continue;
		const char *q = p + kl, *b, *e;
		size_t n = strcspn(q, "{};");
		if (!n || q[n] != '{')
			continue;
		b = q + n + 1;
		e = b + strcspn(b, "{}");
		if (*e != '}')
			continue;
		const char *i0 = e + 1;
		size_t il = strcspn(i0, "{};");
		if (i0[il] != ';')
			continue;
		*at = (size_t)(p - s);
		*end = (size_t)(i0 + il + 1 - s);
		*type = (struct qu_slice){ p, kl };
		*body = (struct qu_slice){ b, (size_t)(e - b) };
		*ids = (struct qu_slice){ i0, il };
		return true;
	}
	return false;
}

static void add_slice(struct qu_buf *b, struct qu_slice s)
{
	qu_buf_add(b, s.ptr, s.len);
}

/* s/^\s*\**(\S+)\s*\/$1/ */
static void strip_stars(struct qu_buf *b)
{
	const char *p = kdoc_skip_space(b->buf), *q;

	while (*p == '*')
		p++;
	if (!*p || kdoc_is_space((unsigned char)*p))
		return;
	q = p;
	while (*q && !kdoc_is_space((unsigned char)*q))
		q++;
	const char *r = kdoc_skip_space(q);
	struct qu_buf t = QU_BUF_INIT;
	qu_buf_add(&t, p, (size_t)(q - p));
	qu_buf_adds(&t, r);
	kdoc_buf_set(b, t.buf, t.len);
	qu_buf_fini(&t);
}

/* One member of a nested struct, rewritten with its parent's name. */
static void nested_member(struct qu_buf *nm, const char *arg,
			  const char *id, bool anon)
{
	struct qu_buf a = QU_BUF_INIT, names = QU_BUF_INIT, t = QU_BUF_INIT;
	const char *open;

	/* ^([^\(]+\(\*?\s*)([\w\.]*)(\s*\).*) : a pointer to function */
	open = strchr(arg, '(');
	if (open && open > arg) {
		const char *q = open + 1, *n0, *n1;
		if (*q == '*')
			q++;
		q = kdoc_skip_space(q);
		n0 = q;
		while (kdoc_is_word((unsigned char)*q) || *q == '.')
			q++;
		n1 = q;
		if (*kdoc_skip_space(q) == ')') {
			if (n1 > n0) {
				qu_buf_add(nm, arg, (size_t)(n0 - arg));
				if (!anon) {
					qu_buf_adds(nm, id);
					qu_buf_addc(nm, '.');
				}
				qu_buf_add(nm, n0, (size_t)(n1 - n0));
				qu_buf_adds(nm, n1);
				qu_buf_adds(nm, "; ");
			}
			goto out;
		}
	}
	qu_buf_adds(&a, arg);
	kdoc_trim(&a);
	/* s/:\s*\d+\s*\/\/g; s/\[.*\]//g; s/\s*,\s*\/,/g */
	qu_buf_reset(&t);
	for (size_t i = 0; i < a.len;) {
		if (a.buf[i] == ':') {
			size_t j = (size_t)(kdoc_skip_space(a.buf + i + 1) -
					    a.buf);
			if (a.buf[j] >= '0' && a.buf[j] <= '9') {
				while (a.buf[j] >= '0' && a.buf[j] <= '9')
					j++;
				i = (size_t)(kdoc_skip_space(a.buf + j) - a.buf);
				continue;
			}
		}
		qu_buf_addc(&t, a.buf[i++]);
	}
	kdoc_buf_set(&a, t.buf, t.len);
	{
		char *lb = strchr(a.buf, '['), *rb = strrchr(a.buf, ']');
		if (lb && rb && rb > lb) {
			memmove(lb, rb + 1, strlen(rb + 1) + 1);
			a.len = strlen(a.buf);
		}
	}
	qu_buf_reset(&t);
	for (size_t i = 0; i < a.len;) {
		if (kdoc_is_space((unsigned char)a.buf[i]) ||
		    a.buf[i] == ',') {
			size_t j = (size_t)(kdoc_skip_space(a.buf + i) - a.buf);
			if (a.buf[j] == ',') {
				qu_buf_addc(&t, ',');
				i = (size_t)(kdoc_skip_space(a.buf + j + 1) -
					     a.buf);
				continue;
			}
		}
		qu_buf_addc(&t, a.buf[i++]);
	}
	kdoc_buf_set(&a, t.buf, t.len);
	/* (.*)\s+([\S+,]+) : the last blank splits type and names */
	{
		char *sp = NULL;
		for (char *p = a.buf + a.len; p > a.buf; p--)
			if (kdoc_is_space((unsigned char)p[-1]) && *p &&
			    !kdoc_is_space((unsigned char)*p)) {
				sp = p - 1;
				break;
			}
		if (!sp) {
			qu_buf_adds(nm, a.buf);
			qu_buf_adds(nm, "; ");
			goto out;
		}
		char *te = sp;
		while (te > a.buf && kdoc_is_space((unsigned char)te[-1]))
			te--;
		qu_buf_adds(&names, sp + 1);
		*te = '\0';
	}
	for (char *n = names.buf; n;) {
		char *comma = strchr(n, ',');
		struct qu_buf one = QU_BUF_INIT;
		if (comma)
			qu_buf_add(&one, n, (size_t)(comma - n));
		else
			qu_buf_adds(&one, n);
		strip_stars(&one);
		if (*kdoc_skip_space(one.buf)) {
			qu_buf_adds(nm, a.buf);
			qu_buf_addc(nm, ' ');
			if (!anon) {
				qu_buf_adds(nm, id);
				qu_buf_addc(nm, '.');
			}
			qu_buf_adds(nm, one.buf);
			qu_buf_adds(nm, "; ");
		}
		qu_buf_fini(&one);
		n = comma ? comma + 1 : NULL;
	}
out:
	qu_buf_fini(&a);
	qu_buf_fini(&names);
	qu_buf_fini(&t);
}

/*
 * Limits of the nested struct rewrites of one declaration. Each pass
 * removes one innermost brace pair and copies its members out with
 * their parent's name in front, as scripts/kernel-doc's loop of
 * substitutions does; a pass costs the length of the text, so the passes
 * together are bounded by the bytes they may move (MAX_NESTED_WORK): a
 * 10^4-deep anonymous nest moves about 10^9. MAX_MEMBER_TEXT stops names
 * that grow with depth (N named levels cost N^3). Past either limit, the
 * deeper members are dropped.
 */
#define MAX_NESTED_WORK (4ull << 30)
#define MAX_MEMBER_TEXT (4u << 20)

/*
 * Where the search for the next innermost block may start after one at
 * @at was rewritten: only an aggregate whose '{' is the last one before
 * @at (the rewritten block's parent) can have become innermost, and its
 * keyword follows the last ';', '{' or '}' before that '{'. Everything
 * earlier is as the last search left it: not innermost.
 */
static size_t nested_resume(const char *s, size_t at)
{
	size_t i = at;

	while (i && s[i - 1] != '{')
		i--;
	if (!i)
		return 0;
	i--;
	while (i && !strchr(";{}", s[i - 1]))
		i--;
	return i;
}

static void flatten_nested(struct kdoc_ctx *c, struct qu_buf *m)
{
	struct qu_buf *nmp = &c->s_b, *outp = &c->s_type, *idbp = &c->s_t2;
	size_t at, end, from = 0;
	unsigned long long work = 0;
	struct qu_slice type, body, ids;

	while (work < MAX_NESTED_WORK && m->len < MAX_MEMBER_TEXT &&
	       find_nested(m->buf + from, &at, &end, &type, &body, &ids)) {
		at += from;
		end += from;
		work += m->len;
		qu_buf_reset(nmp);
		/* split /,/ drops trailing empty fields */
		size_t il = ids.len;
		while (il && ids.ptr[il - 1] == ',')
			il--;
		const char *p = ids.ptr, *e = ids.ptr + il;
		while (p < e) {
			const char *comma = memchr(p, ',', (size_t)(e - p));
			const char *fe = comma ? comma : e;
			qu_buf_reset(idbp);
			qu_buf_add(idbp, p, (size_t)(fe - p));
			/*
			 * "struct ;" of an anonymous block names no member;
			 * kept, it would be copied out again at every level
			 * above (quadratic in the depth) and dropped at last
			 */
			if (*kdoc_skip_space(idbp->buf)) {
				add_slice(nmp, type);
				qu_buf_addc(nmp, ' ');
				qu_buf_adds(nmp, idbp->buf);
				qu_buf_adds(nmp, "; ");
			}
			/* s/[:\[].*\/\/; s/^\s*\**(\S+)\s*\/$1/ */
			idbp->len = strcspn(idbp->buf, ":[");
			idbp->buf[idbp->len] = '\0';
			strip_stars(idbp);
			bool anon = !*kdoc_skip_space(idbp->buf);
			const char *b = body.ptr, *be = body.ptr + body.len;
			while (b < be) {
				const char *semi = memchr(b, ';', (size_t)(be - b));
				const char *ae = semi ? semi : be;
				struct qu_buf arg = QU_BUF_INIT;
				qu_buf_add(&arg, b, (size_t)(ae - b));
				if (*kdoc_skip_space(arg.buf))
					nested_member(nmp, arg.buf, idbp->buf,
						      anon);
				qu_buf_fini(&arg);
				b = semi ? semi + 1 : be;
			}
			p = comma ? comma + 1 : e;
		}
		/* the block [at, end) becomes its members, in place */
		size_t tail = m->len - end;

		if (nmp->len > end - at)
			qu_buf_grow(m, nmp->len - (end - at));
		memmove(m->buf + at + nmp->len, m->buf + end, tail + 1);
		memcpy(m->buf + at, nmp->buf, nmp->len);
		m->len = at + nmp->len + tail;
		from = nested_resume(m->buf, at);
	}
	/* s/(\{[^\{\}]*\})//g */
	qu_buf_reset(outp);
	for (size_t i = 0; i < m->len;) {
		if (m->buf[i] == '{') {
			size_t j = i + 1 + strcspn(m->buf + i + 1, "{}");
			if (m->buf[j] == '}') {
				i = j + 1;
				continue;
			}
		}
		qu_buf_addc(outp, m->buf[i++]);
	}
	kdoc_buf_set(m, outp->buf, outp->len);
}

/*
 * dump_struct(): the body between the first "{" and the last "}", with
 * private: parts, comments and attributes removed, nested structs
 * flattened to dotted member names, and the rest read as members.
 */
static void dump_struct(struct kdoc_ctx *c)
{
	const char *x = c->prototype.buf;
	struct qu_slice name = { NULL, 0 }, members = { NULL, 0 };
	const char *dtype = NULL;
	struct qu_buf m = QU_BUF_INIT, *dp = &c->s_decl;

	/* (struct|union)\s+(\w+)\s*\{(.*)\}\s*$qualifiers* */
	for (const char *p = x; *p && !members.ptr; p++) {
		size_t kl = aggregate_keyword(p);

		if (!kl)
			continue;
		const char *q = p + kl, *w, *b, *e;
		if (!kdoc_is_space((unsigned char)*q))
			continue;
		w = kdoc_skip_space(q);
		q = w;
		while (kdoc_is_word((unsigned char)*q))
			q++;
		if (q == w)
			continue;
		b = kdoc_skip_space(q);
		if (*b != '{' || !(e = strrchr(b, '}')))
			continue;
		dtype = kl == 6 ? "struct" : "union";
		name = (struct qu_slice){ w, (size_t)(q - w) };
		members = (struct qu_slice){ b + 1, (size_t)(e - b - 1) };
	}
	/* typedef\s+(struct|union)\s*\{(.*)\}\s*$qualifiers*\s*(\w+)\s*; */
	for (const char *p = strstr(x, "typedef"); p && !members.ptr;
	     p = strstr(p + 1, "typedef")) {
		const char *q = p + 7, *b;
		size_t kl;
		if (!kdoc_is_space((unsigned char)*q))
			continue;
		q = kdoc_skip_space(q);
		if (!strncmp(q, "struct", 6))
			kl = 6;
		else if (!strncmp(q, "union", 5))
			kl = 5;
		else
			continue;
		b = kdoc_skip_space(q + kl);
		if (*b != '{')
			continue;
		for (const char *e = x + strlen(x); e > b; e--) {
			if (e[-1] != '}')
				continue;
			if (typedef_tail(e - 1, &name)) {
				dtype = kl == 6 ? "struct" : "union";
				members = (struct qu_slice){
					b + 1, (size_t)(e - 1 - b - 1) };
				break;
			}
		}
	}
	if (!members.ptr || !members.len ||
	    (members.len == 1 && members.ptr[0] == '0')) {
		kdoc_warn(c, QU_W_BAD_STRUCT, c->line,
			  "Cannot parse struct or union!");
		goto out;
	}
	char *nm = qu_arena_strndup(c->a, name.ptr, name.len);
	if (strcmp(c->identifier.buf, nm)) {
		kdoc_warn(c, QU_W_PROTOTYPE_MISMATCH, c->line,
			  "expecting prototype for %s %s. Prototype was for %s %s instead",
			  dtype, c->identifier.buf, dtype, nm);
		goto out;
	}
	qu_buf_reset(dp);
	add_slice(&m, members);
	strip_private(&m);
	kdoc_strip_comments(&m);
	kdoc_apply_attrs(&m, ATTR_MEMBERS, &c->s_attr);
	qu_buf_adds(dp, dtype);
	qu_buf_addc(dp, ' ');
	qu_buf_adds(dp, nm);
	qu_buf_adds(dp, " { ");
	qu_buf_add(dp, m.buf, m.len);
	qu_buf_adds(dp, " }");
	kdoc_squash_spaces(dp);
	flatten_nested(c, &m);
	kdoc_param_list(c, m.buf, ';', nm);
	kdoc_check_sections(c, NULL);
	kdoc_emit(c, dtype[0] == 's' ? QU_KIND_STRUCT : QU_KIND_UNION, nm,
		  dp->buf);
out:
	qu_buf_fini(&m);
}

/* dump_enum() -------------------------------------------------------------- */

/*
 * dump_enum(): each comma-separated entry's first word is a value; an
 * entry without one (an #if line) is kept whole, as the reference does.
 */
static void dump_enum(struct kdoc_ctx *c)
{
	struct qu_buf x = QU_BUF_INIT, t = QU_BUF_INIT;
	struct qu_slice name = { NULL, 0 }, members = { NULL, 0 };

	qu_buf_add(&x, c->prototype.buf, c->prototype.len);
	kdoc_strip_comments(&x);
	/* s@#\s*((define|ifdef)\s+|endif)[^;]*;@@gos */
	for (size_t i = 0; i < x.len;) {
		if (x.buf[i] == '#') {
			const char *p = kdoc_skip_space(x.buf + i + 1);
			bool hit = false;
			if ((!strncmp(p, "define", 6) &&
			     kdoc_is_space((unsigned char)p[6])) ||
			    (!strncmp(p, "ifdef", 5) &&
			     kdoc_is_space((unsigned char)p[5])))
				hit = true;
			else if (!strncmp(p, "endif", 5))
				hit = true;
			const char *semi = hit ? strchr(p, ';') : NULL;
			if (semi) {
				i = (size_t)(semi + 1 - x.buf);
				continue;
			}
		}
		qu_buf_addc(&t, x.buf[i++]);
	}
	kdoc_buf_set(&x, t.buf, t.len);
	const char *s = x.buf;
	/* typedef\s+enum\s*\{(.*)\}\s*(\w*)\s*; */
	for (const char *p = strstr(s, "typedef"); p && !members.ptr;
	     p = strstr(p + 1, "typedef")) {
		const char *q = p + 7, *b;
		if (!kdoc_is_space((unsigned char)*q))
			continue;
		q = kdoc_skip_space(q);
		if (strncmp(q, "enum", 4))
			continue;
		b = kdoc_skip_space(q + 4);
		if (*b != '{')
			continue;
		for (const char *e = s + strlen(s); e > b; e--) {
			if (e[-1] != '}')
				continue;
			const char *w = kdoc_skip_space(e), *we = w;
			while (kdoc_is_word((unsigned char)*we))
				we++;
			if (*kdoc_skip_space(we) == ';') {
				name = (struct qu_slice){ w, (size_t)(we - w) };
				members = (struct qu_slice){
					b + 1, (size_t)(e - 1 - b - 1) };
				break;
			}
		}
	}
	/* enum\s+(\w*)\s*\{(.*)\} */
	for (const char *p = strstr(s, "enum"); p && !members.ptr;
	     p = strstr(p + 1, "enum")) {
		const char *q = p + 4, *w, *b, *e;
		if (!kdoc_is_space((unsigned char)*q))
			continue;
		w = kdoc_skip_space(q);
		q = w;
		while (kdoc_is_word((unsigned char)*q))
			q++;
		b = kdoc_skip_space(q);
		if (*b != '{' || !(e = strrchr(b, '}')))
			continue;
		name = (struct qu_slice){ w, (size_t)(q - w) };
		members = (struct qu_slice){ b + 1, (size_t)(e - b - 1) };
	}
	if (!members.ptr || !members.len ||
	    (members.len == 1 && members.ptr[0] == '0')) {
		kdoc_warn(c, QU_W_BAD_ENUM, c->line, "Cannot parse enum!");
		goto out;
	}
	char *nm = qu_arena_strndup(c->a, name.ptr, name.len);
	if (strcmp(c->identifier.buf, nm)) {
		if (!c->identifier.len)
			kdoc_warn(c, QU_W_BAD_IDENTIFIER, c->line,
				  "wrong kernel-doc identifier on line:");
		else
			kdoc_warn(c, QU_W_PROTOTYPE_MISMATCH, c->line,
				  "expecting prototype for enum %s. Prototype was for enum %s instead",
				  c->identifier.buf, nm);
		goto out;
	}
	if (!*nm)
		nm = (char *)"(anonymous)";
	struct qu_buf d = QU_BUF_INIT;
	qu_buf_adds(&d, "enum ");
	qu_buf_adds(&d, nm);
	qu_buf_adds(&d, " { ");
	/*
	 * The prototype's lines were joined without blanks, as the
	 * reference joins them: a blank after each comma lets a reader's
	 * line wrap between values rather than inside a name.
	 */
	for (size_t k = 0; k < members.len; k++) {
		qu_buf_addc(&d, members.ptr[k]);
		if (members.ptr[k] == ',')
			qu_buf_addc(&d, ' ');
	}
	qu_buf_adds(&d, " }");
	kdoc_squash_spaces(&d);

	/* s/\s+$//; split ',' dropping trailing empty fields */
	size_t ml = members.len;
	while (ml && kdoc_is_space((unsigned char)members.ptr[ml - 1]))
		ml--;
	while (ml && members.ptr[ml - 1] == ',')
		ml--;
	struct qu_map seen;
	qu_map_init(&seen);
	for (const char *p = members.ptr, *e = members.ptr + ml; p < e;) {
		const char *comma = memchr(p, ',', (size_t)(e - p));
		const char *fe = comma ? comma : e;
		/* s/^\s*(\w+).*\/$1/ */
		const char *w = p;
		while (w < fe && kdoc_is_space((unsigned char)*w))
			w++;
		const char *we = w;
		while (we < fe && kdoc_is_word((unsigned char)*we))
			we++;
		char *arg = we > w ? qu_arena_strndup(c->a, w, (size_t)(we - w))
				   : qu_arena_strndup(c->a, p, (size_t)(fe - p));
		const char *shown = arg;
		/* not a name (a stray "#if ...;X" line): shown trimmed */
		if (we == w)
			shown = qu_arena_strndup(c->a, w, (size_t)(fe - w));
		QU_VEC_GROW(c->params, c->nparams, c->aparams);
		c->params[c->nparams++] = (struct kdoc_param){ shown, "",
							       false, false,
							       shown };
		struct kdoc_desc *dd = kdoc_desc_find(c, arg, strlen(arg));
		if (!dd || !dd->text || !*dd->text || !strcmp(dd->text, "0")) {
			kdoc_desc_set(c, arg, NULL, 0);
			kdoc_warn(c, QU_W_UNDESCRIBED_ENUM, c->line,
				  "Enum value '%s' not described in enum '%s'",
				  arg, nm);
		}
		qu_map_put(&seen, arg, arg);
		p = comma ? comma + 1 : e;
	}
	for (size_t i = 0; i < c->ndescs; i++)
		if (!qu_map_get(&seen, c->descs[i].name,
				strlen(c->descs[i].name)))
			kdoc_warn(c, QU_W_EXCESS_ENUM, c->line,
				  "Excess enum value '%s' description in '%s'",
				  c->descs[i].name, nm);
	qu_map_fini(&seen);
	kdoc_emit(c, QU_KIND_ENUM, nm, d.buf);
	qu_buf_fini(&d);
out:
	qu_buf_fini(&x);
	qu_buf_fini(&t);
}

/* dump_typedef() ----------------------------------------------------------- */

/*
 * typedef((?:\s+[\w\*]+\b){1,8})\s*  then either  \(\*?\s*(\w\S+)\s*\)
 * (typedef1) or  \*?\s*(\w\S+)\s*  (typedef2), then  \s*\((.*)\);
 */
static bool typedef_fn(const char *x, struct qu_slice *ret,
		       struct qu_slice *name, struct qu_slice *args)
{
	for (const char *p = strstr(x, "typedef"); p;
	     p = strstr(p + 1, "typedef")) {
		const char *q = p + 7, *open = strchr(q, '('), *close;
		const char *words[9];
		size_t nw = 0;

		if (!open)
			return false;
		/* the words up to the first "(" */
		for (const char *r = q; r < open;) {
			const char *s = r, *w;
			while (s < open && kdoc_is_space((unsigned char)*s))
				s++;
			if (s == open)
				break;
			if (s == r)
				break;
			w = s;
			while (s < open && (kdoc_is_word((unsigned char)*s) ||
					    *s == '*'))
				s++;
			if (s == w || (s < open &&
				       !kdoc_is_space((unsigned char)*s)))
				break;
			if (nw < QU_ARRAY_SIZE(words))
				words[nw++] = s;
			r = s;
		}
		const char *tail = kdoc_skip_space(nw ? words[nw - 1] : q);
		close = strstr(x, ");");
		for (const char *k = close; k; k = strstr(k + 1, ");"))
			close = k;
		if (!close)
			return false;
		/* typedef1: all words end in a word character */
		if (nw >= 1 && nw <= 8 && tail == open &&
		    kdoc_is_word((unsigned char)words[nw - 1][-1])) {
			const char *n0 = open + 1, *n1;
			if (*n0 == '*')
				n0++;
			n0 = kdoc_skip_space(n0);
			n1 = n0;
			while (*n1 && *n1 != ')' &&
			       !kdoc_is_space((unsigned char)*n1))
				n1++;
			const char *k = kdoc_skip_space(n1);
			if (kdoc_is_word((unsigned char)*n0) && n1 - n0 >= 2 &&
			    *k == ')') {
				k = kdoc_skip_space(k + 1);
				if (*k == '(' && close > k) {
					*ret = (struct qu_slice){ q,
						(size_t)(words[nw - 1] - q) };
					*name = (struct qu_slice){ n0,
						(size_t)(n1 - n0) };
					*args = (struct qu_slice){ k + 1,
						(size_t)(close - k - 1) };
					return true;
				}
			}
		}
		/* typedef2: the last word before "(" is the name */
		if (nw >= 2 && nw <= 9 && tail == open) {
			const char *n1 = words[nw - 1], *n0 = words[nw - 2];
			n0 = kdoc_skip_space(n0);
			const char *t_end = words[nw - 2];
			if (*n0 == '*')
				n0++;
			if (n1 - n0 >= 2 && kdoc_is_word((unsigned char)*n0) &&
			    close > open) {
				*ret = (struct qu_slice){ q,
							  (size_t)(t_end - q) };
				*name = (struct qu_slice){ n0,
							   (size_t)(n1 - n0) };
				*args = (struct qu_slice){ open + 1,
						(size_t)(close - open - 1) };
				return true;
			}
		}
	}
	return false;
}

static void dump_typedef(struct kdoc_ctx *c)
{
	struct qu_buf x = QU_BUF_INIT;
	struct qu_slice ret, name, args;

	qu_buf_add(&x, c->prototype.buf, c->prototype.len);
	kdoc_strip_comments(&x);
	if (typedef_fn(x.buf, &ret, &name, &args)) {
		char *nm = qu_arena_strndup(c->a, name.ptr, name.len);
		if (strcmp(c->identifier.buf, nm)) {
			kdoc_warn(c, QU_W_PROTOTYPE_MISMATCH, c->line,
				  "expecting prototype for typedef %s. "
				  "Prototype was for typedef %s instead",
				  c->identifier.buf, nm);
			goto out;
		}
		char *a = qu_arena_strndup(c->a, args.ptr, args.len);
		kdoc_param_list(c, a, ',', nm);
		struct qu_buf d = QU_BUF_INIT;
		qu_buf_add(&d, x.buf, x.len);
		kdoc_squash_spaces(&d);
		kdoc_trim(&d);
		kdoc_emit(c, QU_KIND_TYPEDEF, nm, d.buf);
		qu_buf_fini(&d);
		goto out;
	}
	/*
	 * while (/\(*.\)\s*;$/ || /\[*.\]\s*;$/) strip the last group:
	 * "typedef int foo[4];" -> "typedef int foo;"
	 */
	for (bool again = true; again;) {
		again = false;
		for (int br = 0; br < 2; br++) {
			char open = br ? '[' : '(', close = br ? ']' : ')';
			char *e = x.buf + x.len;
			while (e > x.buf && kdoc_is_space((unsigned char)e[-1]))
				e--;
			if (e == x.buf || e[-1] != ';')
				continue;
			char *r = e - 1;
			while (r > x.buf && kdoc_is_space((unsigned char)r[-1]))
				r--;
			if (r - x.buf < 2 || r[-1] != close)
				continue;
			char *s = r - 2;
			while (s > x.buf && s[-1] == open)
				s--;
			memcpy(s, ";", 2);
			x.len = (size_t)(s - x.buf) + 1;
			again = true;
		}
	}
	/* typedef.*\s+(\w+)\s*; */
	const char *td = strstr(x.buf, "typedef");
	struct qu_slice nm = { NULL, 0 };
	for (const char *semi = td ? x.buf + x.len : NULL; semi && semi > td;
	     semi--) {
		if (semi[-1] != ';')
			continue;
		const char *e = semi - 1;
		while (e > td && kdoc_is_space((unsigned char)e[-1]))
			e--;
		const char *w = e;
		while (w > td + 7 && kdoc_is_word((unsigned char)w[-1]))
			w--;
		if (w < e && w > td + 7 && kdoc_is_space((unsigned char)w[-1])) {
			nm = (struct qu_slice){ w, (size_t)(e - w) };
			break;
		}
	}
	if (!nm.ptr) {
		kdoc_warn(c, QU_W_BAD_TYPEDEF, c->line,
			  "Cannot parse typedef!");
		goto out;
	}
	char *n = qu_arena_strndup(c->a, nm.ptr, nm.len);
	if (strcmp(c->identifier.buf, n)) {
		kdoc_warn(c, QU_W_PROTOTYPE_MISMATCH, c->line,
			  "expecting prototype for typedef %s. Prototype was for typedef %s instead",
			  c->identifier.buf, n);
		goto out;
	}
	struct qu_buf d = QU_BUF_INIT;
	qu_buf_add(&d, c->prototype.buf, c->prototype.len);
	kdoc_strip_comments(&d);
	kdoc_squash_spaces(&d);
	kdoc_trim(&d);
	kdoc_emit(c, QU_KIND_TYPEDEF, n, d.buf);
	qu_buf_fini(&d);
out:
	qu_buf_fini(&x);
}

void kdoc_dump_declaration(struct kdoc_ctx *c)
{
	switch (c->decl_type) {
	case DT_STRUCT:
	case DT_UNION:
		dump_struct(c);
		break;
	case DT_ENUM:
		dump_enum(c);
		break;
	case DT_TYPEDEF:
		dump_typedef(c);
		break;
	default:
		break;
	}
}
