// SPDX-License-Identifier: MIT
/*
 * maintainers.c - the MAINTAINERS file: entries, their F: and X:
 * patterns, and which entries a file belongs to (cover stage)
 *
 * Read and matched as scripts/get_maintainer.pl does (read_maintainer_file,
 * file_match_pattern), with the patterns indexed by their literal
 * directory so a file is tested against the few patterns that can match
 * it, not all seven thousand. Called by cover.c and cmd/quire.
 */
#include <stdlib.h>
#include <string.h>

#include "cover/cover.h"

/*
 * Patterns longer than this are cut: no real one comes near, and the
 * matcher's cost is the product of the pattern's and the path's lengths.
 */
#define PATTERN_MAX 4096

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

struct parse {
	struct qu_maintainers *m;
	size_t alloc;
	size_t pat_alloc;
};

static struct qu_maint_entry *new_entry(struct parse *p, const char *name,
					size_t n, uint32_t line)
{
	struct qu_maintainers *m = p->m;

	QU_VEC_GROW(m->v, m->n, p->alloc);
	m->v[m->n] = (struct qu_maint_entry){
		.name = qu_arena_strndup(&m->arena, name, n),
		.line = line,
	};
	p->pat_alloc = 0;
	return &m->v[m->n++];
}

/* The directory part of a pattern's literal prefix, "" when none. */
static size_t literal_dir(const char *glob)
{
	size_t lit = strcspn(glob, "*?[");
	size_t dir = 0;

	for (size_t i = 0; i < lit; i++)
		if (glob[i] == '/')
			dir = i + 1;
	return dir;
}

static int cmp_key(const void *a, const void *b, void *payload)
{
	const struct qu_maintainers *m = payload;
	const struct qu_maint_key *x = a, *y = b;
	const char *gx = m->v[x->entry].pats[x->pat].glob;
	const char *gy = m->v[y->entry].pats[y->pat].glob;
	size_t lx = literal_dir(gx), ly = literal_dir(gy);
	int c = memcmp(gx, gy, lx < ly ? lx : ly);

	if (c)
		return c;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	if (x->entry != y->entry)
		return x->entry < y->entry ? -1 : 1;
	return x->pat < y->pat ? -1 : x->pat > y->pat;
}

static void build_index(struct qu_maintainers *m)
{
	size_t n = 0;

	for (size_t e = 0; e < m->n; e++)
		n += m->v[e].npats;
	m->keys = qu_arena_alloc(&m->arena, (n ? n : 1) * sizeof(*m->keys));
	for (size_t e = 0; e < m->n; e++)
		for (size_t k = 0; k < m->v[e].npats; k++)
			m->keys[m->nkeys++] =
				(struct qu_maint_key){(uint32_t)e, (uint32_t)k};
	if (m->nkeys)
		qsort_r(m->keys, m->nkeys, sizeof(*m->keys), cmp_key, m);
	for (size_t i = 0; i < m->nkeys;) {
		const char *g = m->v[m->keys[i].entry].pats[m->keys[i].pat].glob;
		size_t l = literal_dir(g), j = i + 1;

		while (j < m->nkeys) {
			const char *h =
				m->v[m->keys[j].entry].pats[m->keys[j].pat].glob;

			if (literal_dir(h) != l || memcmp(g, h, l))
				break;
			j++;
		}
		char *key = qu_arena_strndup(&m->arena, g, l);

		qu_map_put(&m->by_dir, key,
			   (void *)(((uintptr_t)(i + 1) << 32) | (j - i)));
		i = j;
	}
}

void qu_maint_parse(struct qu_maintainers *out, const char *text, size_t len,
		    qu_is_dir_fn is_dir, void *payload)
{
	struct parse p = {out, 0, 0};
	struct qu_maint_entry *cur = NULL;
	const char *s = text, *end = text + len;
	uint32_t line = 0;
	struct qu_buf tmp = QU_BUF_INIT;

	memset(out, 0, sizeof(*out));
	qu_arena_init(&out->arena);
	qu_map_init(&out->by_dir);
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		const char *l = s;

		s += n + (nl != NULL);
		line++;
		/* "X: value": one capital, a colon, blanks, the value */
		if (n >= 2 && l[0] >= 'A' && l[0] <= 'Z' && l[1] == ':') {
			size_t v = 2;

			if (l[0] != 'F' && l[0] != 'X')
				continue;
			while (v < n && (is_blank(l[v]) || l[v] == '\r' ||
					 l[v] == '\f' || l[v] == '\v'))
				v++;
			if (!cur) /* fields before any title: an entry of its own */
				cur = new_entry(&p, "", 0, line);
			qu_buf_reset(&tmp);
			qu_buf_add(&tmp, l + v,
				   n - v > PATTERN_MAX ? PATTERN_MAX : n - v);
			/*
			 * A directory without its "/" gets one; the reference
			 * tests the pattern after turning it into a regex, so
			 * only one without ".", "*" and "?" can be a
			 * directory.
			 */
			if (is_dir && tmp.len && tmp.buf[tmp.len - 1] != '/' &&
			    !strpbrk(tmp.buf, ".*?") && is_dir(tmp.buf, payload))
				qu_buf_addc(&tmp, '/');
			QU_VEC_GROW(cur->pats, cur->npats, p.pat_alloc);
			cur->pats[cur->npats++] = (struct qu_maint_pattern){
				.glob = qu_arena_strndup(&out->arena, tmp.buf,
							 tmp.len),
				.line = line,
				.exclude = l[0] == 'X',
			};
			continue;
		}
		size_t k = 0;

		while (k < n && (is_blank(l[k]) || l[k] == '\r'))
			k++;
		if (k == n || l[k] == '#')
			continue;
		/* a new title: the previous entry's patterns move to the arena */
		if (cur && cur->npats) {
			void *v = qu_arena_memdup(&out->arena, cur->pats,
						  cur->npats * sizeof(*cur->pats));

			free(cur->pats);
			cur->pats = v;
		}
		while (n && (l[n - 1] == '\r' || is_blank(l[n - 1])))
			n--;
		cur = new_entry(&p, l, n, line);
	}
	if (cur && cur->npats) {
		void *v = qu_arena_memdup(&out->arena, cur->pats,
					  cur->npats * sizeof(*cur->pats));

		free(cur->pats);
		cur->pats = v;
	}
	qu_buf_fini(&tmp);
	build_index(out);
}

void qu_maint_fini(struct qu_maintainers *m)
{
	free(m->v);
	qu_map_fini(&m->by_dir);
	qu_arena_fini(&m->arena);
	memset(m, 0, sizeof(*m));
}

/* Whether the class at @p (after "[") holds @c; *@len gets its length. */
static bool class_match(const char *p, char c, size_t *len)
{
	size_t i = 0;
	bool neg = false, hit = false;

	if (p[i] == '^') {
		neg = true;
		i++;
	}
	/* a "]" first is a member, as in a regex */
	if (p[i] == ']') {
		hit |= c == ']';
		i++;
	}
	for (; p[i] && p[i] != ']'; i++) {
		if (p[i + 1] == '-' && p[i + 2] && p[i + 2] != ']') {
			hit |= (unsigned char)c >= (unsigned char)p[i] &&
			       (unsigned char)c <= (unsigned char)p[i + 2];
			i += 2;
		} else {
			hit |= c == p[i];
		}
	}
	if (!p[i]) {
		/* no closing "]": the "[" is itself */
		*len = 0;
		return c == '[';
	}
	*len = i + 1;
	return hit != neg;
}

/*
 * Whether @glob matches a prefix of @s: the classic wildcard walk with
 * one backtracking point (the last "*"), which is exact for "*" and
 * linear in practice; a prefix match is a full match of @glob + "*".
 */
static bool prefix_match(const char *glob, const char *s)
{
	const char *star = NULL, *star_s = NULL;

	for (;;) {
		if (!*glob)
			return true; /* the rest of @s is the implied "*" */
		if (*glob == '*') {
			while (*glob == '*')
				glob++;
			if (!*glob)
				return true;
			star = glob;
			star_s = s;
			continue;
		}
		if (*s) {
			size_t cl = 0;
			bool ok;

			if (*glob == '?')
				ok = true;
			else if (*glob == '[')
				ok = class_match(glob + 1, *s, &cl);
			else
				ok = *glob == *s;
			if (ok) {
				glob += *glob == '[' ? cl + 1 : 1;
				s++;
				continue;
			}
		}
		if (!star || !*star_s)
			return false;
		glob = star;
		s = ++star_s;
	}
}

static size_t slashes(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '/';
	return n;
}

bool qu_maint_pattern_match(const char *glob, const char *file)
{
	size_t n = strlen(glob);

	if (!prefix_match(glob, file))
		return false;
	return (n && glob[n - 1] == '/') || slashes(file) == slashes(glob);
}

struct hit {
	uint32_t entry;
	bool exclude;
};

static int cmp_hit(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

void qu_maint_match(uint32_t **out, size_t *nout, size_t *alloc,
		    const struct qu_maintainers *m, const char *path)
{
	struct hit small[64], *hits = small;
	size_t nhits = 0, cap = QU_ARRAY_SIZE(small);
	size_t dir = 0;

	*nout = 0;
	/* the literal directories a pattern for @path can have: "", "a/", … */
	for (;;) {
		uintptr_t v = (uintptr_t)qu_map_get(&m->by_dir, path, dir);

		if (v) {
			size_t first = (v >> 32) - 1, cnt = v & 0xffffffffu;

			for (size_t i = first; i < first + cnt; i++) {
				const struct qu_maint_key *k = &m->keys[i];
				const struct qu_maint_pattern *pt =
					&m->v[k->entry].pats[k->pat];

				if (!qu_maint_pattern_match(pt->glob, path))
					continue;
				if (nhits == cap) {
					cap *= 2;
					if (hits == small) {
						hits = qu_xmalloc(cap *
								  sizeof(*hits));
						memcpy(hits, small, sizeof(small));
					} else {
						hits = qu_xrealloc(
							hits,
							cap * sizeof(*hits));
					}
				}
				hits[nhits++] = (struct hit){k->entry,
							     pt->exclude};
			}
		}
		const char *sl = strchr(path + dir, '/');

		if (!sl)
			break;
		dir = (size_t)(sl - path) + 1;
	}
	qsort(hits, nhits, sizeof(*hits), cmp_hit);
	for (size_t i = 0; i < nhits;) {
		size_t j = i;
		bool excl = false;

		while (j < nhits && hits[j].entry == hits[i].entry)
			excl |= hits[j++].exclude;
		/* an entry with only X: hits does not match either */
		bool inc = false;

		for (size_t k = i; k < j; k++)
			inc |= !hits[k].exclude;
		if (inc && !excl) {
			QU_VEC_GROW(*out, *nout, *alloc);
			(*out)[(*nout)++] = hits[i].entry;
		}
		i = j;
	}
	if (hits != small)
		free(hits);
}
