// SPDX-License-Identifier: MIT
/*
 * check.c - the cross-checks between a comment and its declaration, and
 * the making of items (kdoc stage)
 *
 * Called by decl.c as it reads parameters and members: push_parameter(),
 * check_sections() and check_return_section() of scripts/kernel-doc, with
 * that script's warning texts (matched on purpose, so existing tooling
 * that greps for them keeps working), then the finished struct qu_item.
 */
#include <stdlib.h>
#include <string.h>

#include "kdoc_int.h"

void kdoc_warn(struct kdoc_ctx *c, enum qu_diag_id id, uint32_t line,
	       const char *fmt, ...)
{
	struct qu_buf b = QU_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	qu_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	/* one line per diagnostic, whatever the quoted source holds */
	for (size_t i = 0; i < b.len; i++)
		if (b.buf[i] == '\n' || b.buf[i] == '\r')
			b.buf[i] = ' ';
	kdoc_trim(&b);
	qu_diag(&c->u->diags, id, c->src->path, line, 1, "%s", b.buf);
	qu_buf_fini(&b);
}

struct kdoc_desc *kdoc_desc_find(struct kdoc_ctx *c, const char *name,
				 size_t len)
{
	void *v = qu_map_get(&c->descmap, name, len);

	return v ? &c->descs[(uintptr_t)v - 1] : NULL;
}

/* @text NULL marks a parameter known to be undescribed. */
void kdoc_desc_set(struct kdoc_ctx *c, const char *name, const char *text,
		   uint32_t line)
{
	void **slot = qu_map_slot(&c->descmap, name, strlen(name));

	if (*slot) {
		struct kdoc_desc *d = &c->descs[(uintptr_t)*slot - 1];
		d->text = text;
		d->line = line;
		return;
	}
	QU_VEC_GROW(c->descs, c->ndescs, c->adescs);
	c->descs[c->ndescs] = (struct kdoc_desc){ name, text, line };
	*slot = (void *)(uintptr_t)(++c->ndescs);
}

void kdoc_push_param(struct kdoc_ctx *c, const char *param,
		     const char *type, const char *org_arg,
		     const char *decl_name, bool is_function)
{
	size_t plen;
	char *p;
	const char *variadic = NULL;
	struct kdoc_desc *d;

	if (c->anon_struct_union && !*type && !strcmp(param, "}"))
		return;
	c->anon_struct_union = false;
	/* s/[\[\)].*\/\/ */
	plen = strcspn(param, "[)");
	p = qu_arena_strndup(c->a, param, plen);
	if (!*type && plen >= 3 && !strcmp(p + plen - 3, "...")) {
		/* "args..." is described as @args; output shows it as "..." */
		if (plen > 3 && kdoc_is_word((unsigned char)p[plen - 4])) {
			variadic = qu_arena_strdup(c->a, p);
			p[plen - 3] = '\0';
		}
		d = kdoc_desc_find(c, p, strlen(p));
		if (!d || !d->text || !*d->text)
			kdoc_desc_set(c, p, "variable arguments", 0);
	} else if (!*type && (!*p || !strcmp(p, "void"))) {
		p = (char *)"void";
		kdoc_desc_set(c, p, "no arguments", 0);
	} else if (!*type && (!strcmp(p, "struct") || !strcmp(p, "union"))) {
		type = p;
		p = qu_arena_strdup(c->a, p[0] == 's' ? "{unnamed_struct}"
						      : "{unnamed_union}");
		kdoc_desc_set(c, p, "anonymous\n", 0);
		c->anon_struct_union = true;
	}
	d = kdoc_desc_find(c, p, strlen(p));
	if (!d && p[0] != '#') {
		kdoc_desc_set(c, p, NULL, 0);
		if (!strchr(p, '.'))
			kdoc_warn(c, QU_W_UNDESCRIBED_PARAM, c->line,
				  "Function parameter or member '%s' not described in '%s'",
				  p, decl_name);
	}
	(void)is_function;
	QU_VEC_GROW(c->params, c->nparams, c->aparams);
	c->params[c->nparams++] = (struct kdoc_param){
		.name = p,
		.type = variadic ? variadic : qu_arena_strdup(c->a, type),
		.has_type = *type != '\0',
		.variadic = variadic != NULL,
		.text = qu_arena_strdup(c->a, org_arg),
	};
}

void kdoc_check_sections(struct kdoc_ctx *c, const char *decl_name)
{
	struct qu_map *names = &c->names;

	if (!decl_name || !c->nsectcheck)
		return;
	/*
	 * The parameters, joined with " " and split on " ", each without
	 * "[...": a set, so 10^5 parameters and their descriptions do not
	 * make 10^10 comparisons.
	 */
	qu_map_reset(names);
	for (size_t i = 0; i < c->nparams; i++) {
		const char *p = c->params[i].name;
		while (*p) {
			size_t n = strcspn(p, " ");
			size_t k = 0;
			while (k < n && p[k] != '[')
				k++;
			if (n)
				*qu_map_slot(names, p, k) = (void *)p;
			p += n;
			while (*p == ' ')
				p++;
		}
	}
	for (size_t s = 0; s < c->nsectcheck; s++) {
		const char *want = c->sectcheck[s];

		if (!*want || qu_map_get(names, want, strlen(want)))
			continue;
		kdoc_warn(c, QU_W_EXCESS_PARAM, c->line,
			  "Excess function parameter '%s' description in '%s'",
			  want, decl_name);
	}
}

void kdoc_check_return(struct kdoc_ctx *c, const char *decl_name,
		       const char *return_type)
{
	/* "" (a macro) and /void\s*\w*\s*$/ return nothing */
	const char *v = return_type;

	if (!*return_type)
		return;
	for (v = strstr(v, "void"); v; v = strstr(v + 1, "void")) {
		const char *p = kdoc_skip_space(v + 4);
		while (kdoc_is_word((unsigned char)*p))
			p++;
		if (!*kdoc_skip_space(p))
			return;
	}
	for (size_t i = 0; i < c->nsects; i++)
		if (!strcmp(c->sects[i].title, "Return") && *c->sects[i].body)
			return;
	kdoc_warn(c, QU_W_NO_RETURN_DOC, c->line,
		  "No description found for return value of '%s'", decl_name);
}

static const char *exported_as(struct kdoc_ctx *c, const char *name)
{
	for (size_t i = 0; i < c->src->nexports; i++)
		if (!strcmp(c->src->exports[i].name, name))
			return c->src->exports[i].macro;
	return NULL;
}

static struct qu_item *new_item(struct kdoc_ctx *c, enum qu_kind kind,
				const char *name)
{
	struct qu_item *it;

	QU_VEC_GROW(c->items, c->nitems, c->aitems);
	it = &c->items[c->nitems++];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	it->name = qu_arena_strdup(c->a, name);
	it->brief = qu_arena_strdup(c->a, c->purpose.buf);
	it->decl = "";
	it->line = c->comment_line;
	it->exported = exported_as(c, name);
	return it;
}

/* Sections as the reference lists them; repeats keep their place. */
static void copy_sections(struct kdoc_ctx *c, struct qu_item *it)
{
	it->nsections = c->nsects;
	it->sections = qu_arena_alloc(c->a, (c->nsects + 1) *
					    sizeof(*it->sections));
	if (c->nsects)
		memcpy(it->sections, c->sects,
		       c->nsects * sizeof(*c->sects));
}

void kdoc_emit(struct kdoc_ctx *c, enum qu_kind kind, const char *name,
	       const char *decl)
{
	struct qu_item *it = new_item(c, kind, name);
	bool members = kind == QU_KIND_STRUCT || kind == QU_KIND_UNION;
	size_t n = 0;

	c->outputs++;
	it->decl = qu_arena_strdup(c->a, decl);
	it->decl_line = c->proto_line;
	it->params = qu_arena_alloc(c->a, (c->nparams + 1) *
					  sizeof(*it->params));
	for (size_t i = 0; i < c->nparams; i++) {
		const struct kdoc_param *p = &c->params[i];
		struct kdoc_desc *d = kdoc_desc_find(c, p->name,
						     strlen(p->name));
		const char *text = d && d->text ? d->text : NULL;

		/* the reference lists "#if" lines among enum values and
		 * parameters, but not among members */
		if ((members && p->name[0] == '#') ||
		    !strncmp(p->name, "{unnamed_", 9))
			continue;
		if (!members && !p->has_type && !strcmp(p->name, "void"))
			continue;
		/* the reference lists only the members it has text for */
		if (members && !text)
			continue;
		it->params[n++] = (struct qu_param){
			.name = p->variadic ? "..." : p->name,
			.type = p->type,
			.desc = text ? text : "",
			.line = d && d->line ? d->line : c->proto_line,
		};
	}
	it->nparams = n;
	copy_sections(c, it);
}

void kdoc_emit_doc(struct kdoc_ctx *c, const struct qu_section *s)
{
	struct qu_item *it = new_item(c, QU_KIND_DOC, s->title);

	it->brief = "";
	it->sections = qu_arena_alloc(c->a, sizeof(*it->sections));
	it->sections[0] = (struct qu_section){
		.title = "Description", .body = s->body, .line = s->line,
	};
	it->nsections = 1;
	it->exported = NULL;
}
