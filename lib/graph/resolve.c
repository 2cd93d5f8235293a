// SPDX-License-Identifier: MIT
/*
 * resolve.c - from a reference to the symbol it means (graph stage)
 *
 * Kernel trees reuse names (static helpers in every driver, one struct
 * tag under several configs), so candidates are ranked: the same file,
 * then the same folder, then a header's or an exported symbol; a tie in
 * the best rank is ambiguous and picks the shallowest path, then the
 * first by path and line.
 */
#include <stdlib.h>
#include <string.h>

#include "graph_int.h"

/*
 * The symbol table's hash: the name's, told apart by namespace (a tag
 * and a function may share a name).
 */
uint64_t graph_sym_hash(enum qu_ns ns, const char *name, size_t len)
{
	return qu_hash(name, len) ^ ((uint64_t)ns + 1) * 0x9e3779b97f4a7c15ull;
}

/*
 * The slot of @ns and @name (hash @h): the one holding its first symbol,
 * or the empty one it would take. The table keeps no key: the symbols
 * are the keys, and the hash's upper half tells most others apart
 * without reading them.
 */
struct qu_graph_stab_slot *graph_stab_find(const struct qu_graph *g,
					   enum qu_ns ns, const char *name,
					   size_t len, uint64_t h)
{
	size_t mask = g->stab_cap - 1, i = (size_t)h & mask;
	uint32_t tag = (uint32_t)(h >> 32);

	for (;; i = (i + 1) & mask) {
		struct qu_graph_stab_slot *s = &g->stab[i];
		const struct qu_sym *sym;

		if (!s->sym)
			return s;
		if (s->tag != tag)
			continue;
		sym = &g->syms[s->sym - 1];
		/* the name's length too: @name may hold a NUL before @len */
		if (sym->ns == ns && !strncmp(sym->name, name, len) &&
		    strnlen(sym->name, len + 1) == len)
			return s;
	}
}

uint32_t graph_first(const struct qu_graph *g, enum qu_ns ns, const char *name,
		     size_t len)
{
	const struct qu_graph_stab_slot *s;

	if (!g->stab_cap)
		return QU_NONE;
	s = graph_stab_find(g, ns, name, len, graph_sym_hash(ns, name, len));
	return s->sym ? s->sym - 1 : QU_NONE;
}

/*
 * Whether a symbol has the kind the reference's form asks for: foo() wants
 * a function or a function-like macro, %CONST a constant or a macro.
 */
static bool kind_fits(enum qu_ref_kind rk, const struct qu_sym *s)
{
	switch (rk) {
	case QU_REF_FUNC:
		return s->param == QU_NONE && (s->kind == QU_KIND_FUNCTION ||
					       s->kind == QU_KIND_MACRO);
	case QU_REF_STRUCT:
		return s->kind == QU_KIND_STRUCT;
	case QU_REF_UNION:
		return s->kind == QU_KIND_UNION;
	case QU_REF_ENUM:
		return s->kind == QU_KIND_ENUM;
	case QU_REF_TYPEDEF:
		return s->kind == QU_KIND_TYPEDEF;
	case QU_REF_CONST:
		return s->param != QU_NONE || s->kind == QU_KIND_MACRO;
	default:
		return true;
	}
}

static const char *sym_path(const struct qu_graph *g, const struct qu_sym *s)
{
	return g->units[s->unit].path;
}

/*
 * The ranking: same file (3), same folder (2), a header's or an
 * exported symbol (1), anything else (0).
 */
static int rank(const struct qu_graph *g, const struct qu_sym *s,
		const struct qu_from *from)
{
	const char *p = sym_path(g, s), *sl;
	const struct qu_item *it = &g->units[s->unit].items[s->item];
	size_t l = strlen(p);

	if (from->file && !strcmp(p, from->file))
		return 3;
	sl = strrchr(p, '/');
	if (from->file) {
		const char *fs = strrchr(from->file, '/');
		size_t dl = sl ? (size_t)(sl - p) : 0;
		size_t fl = fs ? (size_t)(fs - from->file) : 0;

		if (dl == fl && !strncmp(p, from->file, dl))
			return 2;
	}
	if ((l > 2 && !strcmp(p + l - 2, ".h")) || it->exported)
		return 1;
	return 0;
}

/*
 * Ties in a rank go to the shallowest path, then the first by path and
 * line: the generic definition (lib/string.c, asm-generic/) before the
 * specialised ones (arch/…/lib/string.c), and a choice that does
 * not depend on which page placed the symbol first.
 */
static unsigned depth(const char *path)
{
	unsigned n = 0;

	for (; *path; path++)
		n += *path == '/';
	return n;
}

static int before(const struct qu_graph *g, const struct qu_sym *a,
		  const struct qu_sym *b)
{
	const char *pa = sym_path(g, a), *pb = sym_path(g, b);
	unsigned da = depth(pa), db = depth(pb);
	int c;

	if (da != db)
		return da < db;
	c = strcmp(pa, pb);

	if (c)
		return c < 0;
	return g->units[a->unit].items[a->item].line <
	       g->units[b->unit].items[b->item].line;
}

bool graph_prefer(const struct qu_graph *g, uint32_t a, uint32_t b)
{
	static const struct qu_from nowhere = {QU_NONE, NULL, QU_NONE};
	int ra = rank(g, &g->syms[a], &nowhere);
	int rb = rank(g, &g->syms[b], &nowhere);

	if (ra != rb)
		return ra > rb;
	return before(g, &g->syms[a], &g->syms[b]);
}

static int cmp_cand(const void *a, const void *b, void *payload)
{
	const struct qu_graph *g = payload;
	const struct qu_sym *x = &g->syms[*(const uint32_t *)a];
	const struct qu_sym *y = &g->syms[*(const uint32_t *)b];

	return before(g, x, y) ? -1 : before(g, y, x) ? 1 : 0;
}

/*
 * The best candidate of a chain; with @ambiguous, the list of those that
 * tie with it, for -Wambiguous-ref. Strict picks only the kinds the form
 * asks for; callers retry loosely so "struct foo" still finds a typedef'd
 * tag documented as a typedef.
 */
static uint32_t pick(const struct qu_graph *g, uint32_t head,
		     enum qu_ref_kind rk, bool strict,
		     const struct qu_from *from, struct qu_buf *ambiguous)
{
	uint32_t best = QU_NONE, j;
	int best_rank = -1;
	size_t ties = 0;

	for (j = head; j != QU_NONE; j = g->syms[j].next) {
		const struct qu_sym *s = &g->syms[j];
		int r;

		if (strict && !kind_fits(rk, s))
			continue;
		r = rank(g, s, from);
		if (r > best_rank) {
			best_rank = r;
			best = j;
			ties = 1;
		} else if (r == best_rank) {
			ties++;
			if (before(g, s, &g->syms[best]))
				best = j;
		}
	}
	if (ties > 1 && ambiguous) {
		uint32_t *v = qu_xmalloc(ties * sizeof(*v));
		size_t n = 0, i;

		for (j = head; j != QU_NONE; j = g->syms[j].next)
			if ((!strict || kind_fits(rk, &g->syms[j])) &&
			    rank(g, &g->syms[j], from) == best_rank)
				v[n++] = j;
		/* by path and line, as the choice was made */
		qsort_r(v, n, sizeof(*v), cmp_cand, (void *)g);
		qu_buf_reset(ambiguous);
		for (i = 0; i < n; i++) {
			const struct qu_sym *s = &g->syms[v[i]];

			/* a long list helps nobody: eight and a count */
			if (i == 8) {
				qu_buf_addf(ambiguous, " and %zu more", n - i);
				break;
			}
			qu_buf_addf(ambiguous, "%s%s:%u", i ? ", " : "",
				    sym_path(g, s),
				    g->units[s->unit].items[s->item].line);
		}
		free(v);
	}
	return best;
}

uint32_t qu_graph_resolve(const struct qu_graph *g, const struct qu_ref *ref,
			  const struct qu_from *from, struct qu_buf *ambiguous)
{
	uint32_t head, r;
	char mkey[512];

	if (ambiguous)
		qu_buf_reset(ambiguous);
	switch (ref->kind) {
	case QU_REF_ENV:
	case QU_REF_PARAM:
		return QU_NONE;
	case QU_REF_MEMBER: {
		const struct qu_sym *cur;
		size_t nl;

		if (from->sym == QU_NONE)
			return QU_NONE;
		cur = &g->syms[from->sym];
		if (cur->kind != QU_KIND_STRUCT && cur->kind != QU_KIND_UNION)
			return QU_NONE;
		nl = strlen(cur->name);
		if (nl + 1 + ref->nlen > sizeof(mkey))
			return QU_NONE;
		memcpy(mkey, cur->name, nl);
		mkey[nl] = '.';
		memcpy(mkey + nl + 1, ref->name, ref->nlen);
		for (head = graph_first(g, QU_NS_MEMBER, mkey,
					nl + 1 + ref->nlen);
		     head != QU_NONE; head = g->syms[head].next)
			if (g->syms[head].unit == cur->unit &&
			    g->syms[head].item == cur->item)
				return head;
		return QU_NONE;
	}
	default:
		break;
	}
	if (ref->member && ref->nlen + 1 + ref->mlen <= sizeof(mkey)) {
		memcpy(mkey, ref->name, ref->nlen);
		mkey[ref->nlen] = '.';
		memcpy(mkey + ref->nlen + 1, ref->member, ref->mlen);
		head = graph_first(g, QU_NS_MEMBER, mkey,
				   ref->nlen + 1 + ref->mlen);
		if (head != QU_NONE)
			return pick(g, head, ref->kind, false, from, ambiguous);
	}
	if (ref->kind == QU_REF_STRUCT || ref->kind == QU_REF_UNION ||
	    ref->kind == QU_REF_ENUM) {
		head = graph_first(g, QU_NS_TAG, ref->name, ref->nlen);
		if (head == QU_NONE)
			return QU_NONE;
		r = pick(g, head, ref->kind, true, from, ambiguous);
		return r != QU_NONE ? r
				    : pick(g, head, ref->kind, false, from,
					   ambiguous);
	}
	head = graph_first(g, QU_NS_ORD, ref->name, ref->nlen);
	if (head != QU_NONE) {
		r = pick(g, head, ref->kind, true, from, ambiguous);
		if (r != QU_NONE || ref->kind == QU_REF_TYPEDEF)
			return r;
		return pick(g, head, ref->kind, false, from, ambiguous);
	}
	if (ref->kind == QU_REF_ANY || ref->kind == QU_REF_TYPEDEF) {
		/* &foo and "typedef foo" also find a struct tag */
		head = graph_first(g, QU_NS_TAG, ref->name, ref->nlen);
		if (head != QU_NONE)
			return pick(g, head, ref->kind, false, from, ambiguous);
	}
	return QU_NONE;
}

/*
 * Link targets come from page text: anything that is not a C identifier is
 * not a symbol, and must not reach the map as one.
 */
static bool ident_ok(const char *p, size_t n)
{
	size_t i;

	if (!n || (p[0] >= '0' && p[0] <= '9'))
		return false;
	for (i = 0; i < n; i++)
		if (!(p[i] == '_' || (p[i] >= '0' && p[i] <= '9') ||
		      ((p[i] | 32) >= 'a' && (p[i] | 32) <= 'z')))
			return false;
	return true;
}

/* A link target's spelling as a reference; false when it names none. */
bool graph_parse_target(struct qu_ref *out, const char *target, size_t len)
{
	static const struct {
		const char *kw;
		enum qu_ref_kind kind;
	} tags[] = {
		{"struct", QU_REF_STRUCT},
		{"union", QU_REF_UNION},
		{"enum", QU_REF_ENUM},
		{"typedef", QU_REF_TYPEDEF},
	};
	struct qu_ref r;
	const char *t = target;
	size_t k;

	memset(&r, 0, sizeof(r));
	memset(out, 0, sizeof(*out));
	r.kind = QU_REF_ANY;
	while (len && (t[len - 1] == ' ' || t[len - 1] == '`'))
		len--;
	while (len && (*t == ' ' || *t == '`' || *t == '&')) {
		t++;
		len--;
	}
	if (len && *t == '%') {
		r.kind = QU_REF_CONST;
		t++;
		len--;
	}
	for (k = 0; k < QU_ARRAY_SIZE(tags); k++) {
		size_t kl = strlen(tags[k].kw);

		if (len > kl && !strncmp(t, tags[k].kw, kl) &&
		    (t[kl] == ' ' || t[kl] == '\t')) {
			r.kind = tags[k].kind;
			t += kl;
			len -= kl;
			while (len && (*t == ' ' || *t == '\t')) {
				t++;
				len--;
			}
			break;
		}
	}
	if (len > 2 && t[len - 2] == '(' && t[len - 1] == ')') {
		r.kind = QU_REF_FUNC;
		len -= 2;
	}
	r.name = t;
	r.nlen = len;
	/* "foo.bar" and "foo->bar" name a member */
	for (k = 0; k < len; k++) {
		size_t skip = t[k] == '.' ? 1
			      : (k + 1 < len && t[k] == '-' && t[k + 1] == '>')
				      ? 2
				      : 0;

		if (skip) {
			r.nlen = k;
			r.member = t + k + skip;
			r.mlen = len - k - skip;
			if (!ident_ok(r.member, r.mlen))
				return false;
			break;
		}
	}
	if (!ident_ok(r.name, r.nlen))
		return false;
	*out = r;
	return true;
}

uint32_t qu_graph_lookup(const struct qu_graph *g, const char *target,
			 size_t len, const struct qu_from *from,
			 struct qu_buf *ambiguous)
{
	struct qu_ref r;

	if (!graph_parse_target(&r, target, len))
		return QU_NONE;
	return qu_graph_resolve(g, &r, from, ambiguous);
}

const char *qu_graph_lookup_extern(const struct qu_graph *g,
				   const char *target, size_t len)
{
	struct qu_ref r;

	if (!graph_parse_target(&r, target, len))
		return NULL;
	return qu_graph_extern(g, &r);
}

void qu_graph_href(struct qu_buf *out, const struct qu_graph *g,
		   uint32_t from_page, uint32_t sym)
{
	const struct qu_sym *s = &g->syms[sym];

	if (s->page != from_page)
		qu_site_relpath(out, g->site->pages[from_page].out,
				g->site->pages[s->page].out);
	qu_buf_addc(out, '#');
	qu_buf_adds(out, s->anchor);
}

const struct qu_item *qu_graph_item(const struct qu_graph *g, uint32_t sym)
{
	return &g->units[g->syms[sym].unit].items[g->syms[sym].item];
}

void qu_graph_dump(struct qu_buf *out, const struct qu_graph *g)
{
	static const char *const ns[] = {"ord", "tag", "member"};
	size_t i;

	for (i = 0; i < g->nsyms; i++) {
		const struct qu_sym *s = &g->syms[i];

		qu_buf_addf(out, "%s %s %s %s:%u %s#%s refs=%u\n", ns[s->ns],
			    s->name, qu_kind_name(s->kind),
			    g->units[s->unit].path,
			    g->units[s->unit].items[s->item].line,
			    g->site->pages[s->page].out, s->anchor, s->nrefs);
	}
}
