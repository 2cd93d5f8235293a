// SPDX-License-Identifier: MIT
/*
 * tree.c - building the document tree (rst stage): nodes, attributes,
 * names and ids the way docutils gives them (make_id, set_id, duplicate
 * names), and diagnostics at byte offsets. Called by every step.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "rst_int.h"

struct qu_rst_node *rst_node(struct rst_ctx *c, enum qu_rst_kind kind,
			     uint32_t off)
{
	struct qu_rst_node *n = qu_arena_zalloc(c->a, sizeof(*n));

	n->kind = kind;
	/* inline nodes place themselves by their position in the joined
	 * (tab-expanded) text of a paragraph, which can run past the end */
	n->off = off < c->doc->len ? off : (uint32_t)c->doc->len;
	return n;
}

void rst_append(struct qu_rst_node *parent, struct qu_rst_node *n)
{
	n->parent = parent;
	n->next = NULL;
	if (parent->last)
		parent->last->next = n;
	else
		parent->first = n;
	parent->last = n;
}

struct qu_rst_node *rst_child(struct rst_ctx *c, struct qu_rst_node *parent,
			      enum qu_rst_kind kind, uint32_t off)
{
	struct qu_rst_node *n = rst_node(c, kind, off);

	rst_append(parent, n);
	return n;
}

struct qu_rst_node *rst_text(struct rst_ctx *c, struct qu_rst_node *parent,
			     const char *s, size_t len, uint32_t off)
{
	struct qu_rst_node *n;

	if (!len)
		return NULL;
	/* Adjacent text merges, as docutils' Text nodes print as one. */
	if (parent->last && parent->last->kind == QU_RST_TEXT) {
		struct qu_rst_node *t = parent->last;
		char *m = qu_arena_alloc(c->a, t->len + len + 1);

		memcpy(m, t->text, t->len);
		memcpy(m + t->len, s, len);
		m[t->len + len] = '\0';
		t->text = m;
		t->len += len;
		return t;
	}
	n = rst_child(c, parent, QU_RST_TEXT, off);
	n->text = qu_arena_strndup(c->a, s, len);
	n->len = len;
	return n;
}

void rst_setn(struct rst_ctx *c, struct qu_rst_node *n, const char *name,
	      const char *value, size_t len)
{
	struct qu_rst_attr **p = &n->attrs;

	for (; *p; p = &(*p)->next)
		if (!strcmp((*p)->name, name)) {
			(*p)->value = qu_arena_strndup(c->a, value, len);
			return;
		}
	*p = qu_arena_zalloc(c->a, sizeof(**p));
	(*p)->name = name;
	(*p)->value = qu_arena_strndup(c->a, value, len);
}

void rst_set(struct rst_ctx *c, struct qu_rst_node *n, const char *name,
	     const char *value)
{
	rst_setn(c, n, name, value, strlen(value));
}

const char *qu_rst_attr(const struct qu_rst_node *n, const char *name)
{
	for (const struct qu_rst_attr *a = n->attrs; a; a = a->next)
		if (!strcmp(a->name, name))
			return a->value;
	return NULL;
}

/* Append one item to a list-valued attribute, escaped as docutils'
 * serial_escape() does for pseudo-XML. */
void rst_add_list(struct rst_ctx *c, struct qu_rst_node *n, const char *name,
		  const char *item, size_t len)
{
	struct qu_buf b = QU_BUF_INIT;
	const char *old = qu_rst_attr(n, name);

	if (old && *old) {
		qu_buf_adds(&b, old);
		qu_buf_addc(&b, ' ');
	}
	for (size_t i = 0; i < len; i++) {
		if (item[i] == '\\' || item[i] == ' ')
			qu_buf_addc(&b, '\\');
		qu_buf_addc(&b, item[i]);
	}
	rst_setn(c, n, name, b.buf, b.len);
	qu_buf_fini(&b);
}

/* Remove one item from a list-valued attribute. */
static void remove_list(struct rst_ctx *c, struct qu_rst_node *n,
			const char *name, const char *item)
{
	struct qu_buf esc = QU_BUF_INIT, b = QU_BUF_INIT;
	const char *old = qu_rst_attr(n, name);

	if (!old)
		return;
	for (const char *s = item; *s; s++) {
		if (*s == '\\' || *s == ' ')
			qu_buf_addc(&esc, '\\');
		qu_buf_addc(&esc, *s);
	}
	/* Items are separated by unescaped spaces. */
	for (const char *p = old; *p;) {
		const char *q = p;

		while (*q && *q != ' ')
			q += q[0] == '\\' && q[1] ? 2 : 1;
		if ((size_t)(q - p) != esc.len || memcmp(p, esc.buf, esc.len)) {
			if (b.len)
				qu_buf_addc(&b, ' ');
			qu_buf_add(&b, p, q - p);
		}
		p = *q ? q + 1 : q;
	}
	rst_setn(c, n, name, b.buf, b.len);
	qu_buf_fini(&esc);
	qu_buf_fini(&b);
}

/* docutils' whitespace_normalize_name(), with fully_normalize_name()'s
 * lower-casing when @lower (ASCII letters only). */
char *rst_normalize(struct rst_ctx *c, const char *s, size_t len, bool lower)
{
	char *out = qu_arena_alloc(c->a, len + 1), *o = out;
	bool space = false;

	for (size_t i = 0; i < len; i++) {
		unsigned char ch = s[i];

		if (ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r') {
			space = o > out;
			continue;
		}
		if (space)
			*o++ = ' ';
		space = false;
		*o++ = lower ? tolower(ch) : ch;
	}
	*o = '\0';
	return out;
}

/* What docutils' make_id() turns a letter of Latin-1 and Latin
 * Extended-A into after NFKD and its translation tables (U+00C0 on, in
 * lower case); "" drops it. */
static const char *const latin[] = {
	/* U+00E0 */ "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e",
	"i", "i", "i", "i", "", "n", "o", "o", "o", "o", "o", "", "o", "u", "u",
	"u", "u", "y", "", "y",
	/* U+0100 */ "a", "a", "a", "a", "a", "a", "c", "c", "c", "c", "c", "c",
	"c", "c", "d", "d", "d", "d", "e", "e", "e", "e", "e", "e", "e", "e",
	"e", "e", "g", "g", "g", "g", "g", "g", "g", "g", "h", "h", "h", "h",
	"i", "i", "i", "i", "i", "i", "i", "i", "i", "i", "ij", "ij", "j", "j",
	"k", "k", "k", "l", "l", "l", "l", "l", "l", "l", "l", "l", "l", "n",
	"n", "n", "n", "n", "n", "n", "n", "n", "o", "o", "o", "o", "o", "o",
	"oe", "oe", "r", "r", "r", "r", "r", "r", "s", "s", "s", "s", "s", "s",
	"s", "s", "t", "t", "t", "t", "t", "t", "u", "u", "u", "u", "u", "u",
	"u", "u", "u", "u", "u", "u", "w", "w", "y", "y", "y", "z", "z", "z",
	"z", "z", "z", "s",
};

/* An ASCII id character: docutils' [a-z0-9], Sphinx's [a-zA-Z0-9._]. */
static bool id_char(unsigned char ch, bool sphinx)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
	       (sphinx && ((ch >= 'A' && ch <= 'Z') || ch == '.' || ch == '_'));
}

/*
 * docutils' make_id(): lower case, accents dropped, runs of anything but
 * [a-z0-9] become one hyphen, leading digits and hyphens and trailing
 * hyphens go. With @sphinx, Sphinx's _make_id() (sphinx/util/nodes.py):
 * case, dots and underscores are kept; an accented capital becomes a
 * small ASCII letter all the same.
 */
static void make_id(struct qu_buf *out, const char *s, size_t len, bool sphinx)
{
	bool dash = false;
	size_t start = out->len;

	for (size_t i = 0; i < len; i++) {
		unsigned char ch = sphinx ? (unsigned char)s[i]
					  : tolower((unsigned char)s[i]);
		const char *rep = NULL;
		char one[2] = { 0, 0 };

		if (ch >= 0x80) {
			unsigned cp = 0;

			if ((ch & 0xe0) == 0xc0 && i + 1 < len) {
				cp = (ch & 31u) << 6 | (s[i + 1] & 0x3fu);
				i++;
			} else if ((ch & 0xf0) == 0xe0 && i + 2 < len) {
				cp = (ch & 15u) << 12 | (s[i + 1] & 0x3fu) << 6 |
				     (s[i + 2] & 0x3fu);
				i += 2;
				/* full-width forms decompose to ASCII */
				if (cp >= 0xff01 && cp <= 0xff5e) {
					one[0] = (char)tolower((int)(cp - 0xfee0));
					rep = one;
					goto emit;
				}
			} else {
				while (i + 1 < len && ((unsigned char)s[i + 1] & 0xc0) == 0x80)
					i++;
			}
			if (cp >= 0xc0 && cp < 0xe0 && cp != 0xd7)
				cp += 0x20;
			if (cp == 0xdf + 0x20 || cp == 0xdf)
				rep = "sz";
			else if (cp >= 0xe0 && cp < 0xe0 + QU_ARRAY_SIZE(latin) && cp != 0xf7)
				rep = latin[cp - 0xe0];
			else if (cp == 0xb9 || cp == 0xb2 || cp == 0xb3)
				rep = cp == 0xb9 ? "1" : cp == 0xb2 ? "2" : "3";
			/* others have no ASCII decomposition and vanish */
			if (!rep || !*rep)
				continue;
		} else {
			one[0] = (char)ch;
			rep = one;
		}
emit:
		for (; *rep; rep++) {
			ch = (unsigned char)*rep;
			if (id_char(ch, sphinx)) {
				if (dash && out->len > start)
					qu_buf_addc(out, '-');
				dash = false;
				/* an id begins with a letter */
				if (out->len == start &&
				    !((ch >= 'a' && ch <= 'z') ||
				      (sphinx && ch >= 'A' && ch <= 'Z')))
					continue;
				qu_buf_addc(out, ch);
			} else {
				dash = true;
			}
		}
	}
}

void rst_make_id(struct qu_buf *out, const char *s, size_t len)
{
	make_id(out, s, len, false);
}

void qu_rst_name_id(struct qu_buf *out, const char *name, size_t len)
{
	qu_buf_reset(out);
	make_id(out, name, len, false);
}

void qu_rst_term_id(struct qu_buf *out, const char *term, size_t len)
{
	struct qu_buf t = QU_BUF_INIT;

	/* the whole "term-..." is made an id: digits after "term-" stay */
	qu_buf_adds(&t, "term-");
	qu_buf_add(&t, term, len);
	qu_buf_reset(out);
	make_id(out, t.buf, t.len, true);
	/* nothing of the term is left: Sphinx numbers it ("term-0") */
	if (!strcmp(out->buf, "term"))
		qu_buf_adds(out, "-0");
	qu_buf_fini(&t);
}

void qu_rst_norm_name(struct qu_buf *out, const char *s, size_t len)
{
	size_t start = out->len;
	bool sp = false;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			sp = out->len > start;
			continue;
		}
		if (sp)
			qu_buf_addc(out, ' ');
		sp = false;
		qu_buf_addc(out, c >= 'A' && c <= 'Z' ? (char)(c + 32) : c);
	}
}

void qu_rst_term_key(struct qu_buf *out, const char *term, size_t len)
{
	qu_buf_reset(out);
	qu_buf_adds(out, "T:");
	qu_rst_norm_name(out, term, len);
}

static uintptr_t next_count(struct rst_ctx *c, const char *prefix)
{
	size_t len = strlen(prefix);
	uintptr_t k = (uintptr_t)qu_map_get(&c->counters, prefix, len) + 1;

	/* The map keeps its keys: a new one must live as long as the map. */
	if (k == 1)
		prefix = qu_arena_strndup(c->a, prefix, len);
	*qu_map_slot(&c->counters, prefix, len) = (void *)k;
	return k;
}

/* docutils' document.set_id() with auto_id_prefix "%": the id comes from
 * the name, or from "<name-id>-N" or "<tagname>-N" when taken or empty. */
void rst_set_id(struct rst_ctx *c, struct qu_rst_node *n, const char *name)
{
	struct qu_buf id = QU_BUF_INIT, prefix = QU_BUF_INIT;

	if (name)
		rst_make_id(&id, name, strlen(name));
	if (!id.len || qu_map_get(&c->ids, id.buf, id.len)) {
		if (c->sphinx_ids) {
			/* Sphinx sets auto_id_prefix "id": one counter */
			qu_buf_adds(&prefix, "id");
		} else if (id.len) {
			qu_buf_add(&prefix, id.buf, id.len);
			qu_buf_addc(&prefix, '-');
		} else {
			const char *tag = qu_rst_kind_name(n->kind);

			for (; *tag; tag++)
				qu_buf_addc(&prefix, *tag == '_' ? '-' : *tag);
			qu_buf_addc(&prefix, '-');
		}
		for (;;) {
			uintptr_t k = next_count(c, prefix.buf);

			qu_buf_reset(&id);
			qu_buf_addf(&id, "%s%lu", prefix.buf, (unsigned long)k);
			if (!qu_map_get(&c->ids, id.buf, id.len))
				break;
		}
	}
	{
		char *key = qu_arena_strndup(c->a, id.buf, id.len);

		qu_map_put(&c->ids, key, n);
		rst_add_list(c, n, "ids", key, id.len);
	}
	qu_buf_fini(&id);
	qu_buf_fini(&prefix);
}

struct name_entry {
	struct qu_rst_node *node; /* NULL once the name is ambiguous */
	bool explicit_;
};

static void dupname(struct rst_ctx *c, struct qu_rst_node *n, const char *name)
{
	remove_list(c, n, "names", name);
	rst_add_list(c, n, "dupnames", name, strlen(name));
}

/* docutils' note_implicit_target()/note_explicit_target(): @n already
 * carries @name in "names"; set its id, and settle a name given twice by
 * the table of document.set_name_id_map(). */
void rst_note_target(struct rst_ctx *c, struct qu_rst_node *n,
		     const char *name, bool explicit_)
{
	struct name_entry *e;

	rst_set_id(c, n, name);
	if (!name)
		return;
	e = qu_map_get(&c->names, name, strlen(name));
	if (!e) {
		e = qu_arena_zalloc(c->a, sizeof(*e));
		e->node = n;
		e->explicit_ = explicit_;
		qu_map_put(&c->names, qu_arena_strdup(c->a, name), e);
		return;
	}
	if (explicit_) {
		if (e->explicit_) {
			/* the same URI twice only informs in docutils: the
			 * first target keeps its name */
			const char *uri = qu_rst_attr(n, "refuri");
			const char *ouri = e->node ? qu_rst_attr(e->node, "refuri") : NULL;
			const char *onames = e->node ? qu_rst_attr(e->node, "names") : NULL;
			bool same = uri && ouri && onames && *onames && !strcmp(uri, ouri);

			if (e->node && !same) {
				dupname(c, e->node, name);
				e->node = NULL;
			}
			dupname(c, n, name);
		} else {
			if (e->node)
				dupname(c, e->node, name);
			e->node = n;
		}
	} else {
		if (e->node && !e->explicit_) {
			dupname(c, e->node, name);
			e->node = NULL;
		}
		dupname(c, n, name);
	}
	e->explicit_ = e->explicit_ || explicit_;
}

uint32_t rst_line_off(const struct rst_ctx *c, size_t line, uint32_t col)
{
	const struct rline *l;
	const char *p, *end;
	uint32_t vc = 0;

	if (line >= c->nlines)
		return (uint32_t)c->doc->len;
	l = &c->lines[line];
	if (!l->tabbed)
		return l->off + (col < l->len ? col : l->len);
	p = c->doc->src + l->off;
	end = c->doc->src + c->doc->len;
	/* the expanded line counts characters: walk the bytes to column @col */
	while (p < end && *p != '\n' && vc < col) {
		if (((unsigned char)*p & 0xc0) != 0x80)
			vc = *p == '\t' ? (vc / 8 + 1) * 8 : vc + 1;
		p++;
	}
	return (uint32_t)(p - c->doc->src);
}

void rst_warn(struct rst_ctx *c, enum qu_diag_id id, uint32_t off,
	      const char *fmt, ...)
{
	struct qu_buf b = QU_BUF_INIT;
	const struct qu_lines *li = &c->doc->lines;
	uint32_t line = qu_lines_find(li, off);
	uint32_t col = line ? off - li->start[line - 1] + 1 : 0;
	va_list ap;

	va_start(ap, fmt);
	qu_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	qu_diag(c->diags, id, c->doc->path, line, col, "%s", b.buf);
	qu_buf_fini(&b);
}
