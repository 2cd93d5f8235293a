// SPDX-License-Identifier: MIT
/*
 * abi.c - the kernel's ABI files as reST (site stage)
 *
 * The kernel's `kernel-abi` directive (Documentation/sphinx/
 * kernel_abi.py) runs `scripts/get_abi.pl rest --enable-lineno --dir DIR`
 * on a folder of Documentation/ABI and reads its output in place of the
 * directive: a section per file, then for each symbol ("What:") a label,
 * a table of its names, the file it is defined in and its description,
 * where the paths of other symbols and files become :ref: links. This
 * makes the same text, byte for byte, from the files lib/site/
 * directive.c read; the site-kernel-feat test compares the two on the
 * kernel's four folders. The parse follows the script's parse_abi() line
 * for line, odd cases included, since they decide what a page shows;
 * the links to symbols are abi_link.c's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "site_int.h"

/* The script joins the names of one symbol with this byte. */
#define SEP '\xac'

/*
 * One key of the script's %data: a symbol ("What:" names joined by SEP)
 * or a file ("File stable/sysfs-foo"). A field is "defined" when set.
 */
struct abi_entry {
	char *key;
	bool is_file;
	char *type;
	struct qu_buf file, filepath;
	bool has_file;
	uint32_t line_no;
	bool has_line;
	struct qu_buf desc;
	bool has_desc;
	struct qu_buf users;
	bool has_users;
	/* the first label of the last group of names read for it */
	char *label_src;
	char *label;
	/* a file's symbols, in order */
	char **syms;
	size_t nsyms;
};

/* One name of the script's %symbols: the symbol holding it, and where. */
struct abi_sym {
	char *name;
	char *xref;
	const char *path;
	uint32_t line;
};

struct abi {
	struct qu_map data, symbols, labels;
	struct abi_entry **v;
	size_t n;
	struct abi_sym **sv;
	size_t nsv;
	struct qu_diags *diags;
};

/* Perl's \s, \w: ASCII only, as the script's byte strings have them. */
static bool ws(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static bool word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static struct abi_entry *entry(struct abi *a, const char *key, size_t len)
{
	void **slot;
	struct abi_entry *e;

	len = strnlen(key, len);
	e = qu_map_get(&a->data, key, len);

	if (e)
		return e;
	e = qu_xcalloc(1, sizeof(*e));
	e->key = qu_xstrndup(key, len);
	qu_buf_init(&e->file);
	qu_buf_init(&e->filepath);
	qu_buf_init(&e->desc);
	qu_buf_init(&e->users);
	slot = qu_map_slot(&a->data, e->key, len);
	*slot = e;
	a->v = qu_xgrow(a->v, a->n, sizeof(*a->v));
	a->v[a->n++] = e;
	return e;
}

static struct abi_entry *find(const struct abi *a, const char *key)
{
	return qu_map_get(&a->data, key, strlen(key));
}

static struct abi_sym *sym(struct abi *a, const char *name, size_t len)
{
	void **slot;
	struct abi_sym *s;

	/* a NUL ends a name, as it ends every string made of it */
	len = strnlen(name, len);
	s = qu_map_get(&a->symbols, name, len);

	if (s)
		return s;
	s = qu_xcalloc(1, sizeof(*s));
	a->sv = qu_xgrow(a->sv, a->nsv, sizeof(*a->sv));
	a->sv[a->nsv++] = s;
	s->name = qu_xstrndup(name, len);
	slot = qu_map_slot(&a->symbols, s->name, len);
	*slot = s;
	return s;
}

/* Perl's s/\t+/' ' x (length($&) * 8 - length($`) % 8)/e, to the end. */
static void expand_tabs(struct qu_buf *b)
{
	struct qu_buf r = QU_BUF_INIT;

	if (!memchr(b->buf, '\t', b->len))
		return;
	/* each run in one pass: the runs before it are spaces already */
	for (size_t i = 0; i < b->len;) {
		size_t n = 0, sp;

		if (b->buf[i] != '\t') {
			qu_buf_addc(&r, b->buf[i++]);
			continue;
		}
		while (i + n < b->len && b->buf[i + n] == '\t')
			n++;
		for (sp = n * 8 - r.len % 8; sp; sp--)
			qu_buf_addc(&r, ' ');
		i += n;
	}
	qu_buf_fini(b);
	*b = r;
}

/*
 * m/^(\s*)(\S.*)$/ on @b: the leading blanks into @space and the rest
 * (up to a newline) followed by one newline into @b. False when no
 * non-blank follows the blanks on that line.
 */
static bool first_line(struct qu_buf *b, struct qu_buf *space)
{
	size_t i = 0, e;

	while (i < b->len && ws(b->buf[i]))
		i++;
	if (i == b->len)
		return false;
	/* '.' stops at a newline, which may only end the text */
	for (e = i; e < b->len && b->buf[e] != '\n'; e++)
		;
	if (e < b->len && e + 1 != b->len)
		return false;
	qu_buf_reset(space);
	qu_buf_add(space, b->buf, i);
	memmove(b->buf, b->buf + i, e - i);
	b->len = e - i;
	b->buf[b->len] = 0;
	qu_buf_addc(b, '\n');
	return true;
}

static bool perl_true(const char *s)
{
	return s && s[0] && strcmp(s, "0");
}

/* Whether lower-cased @tag is one of the script's: a substring test. */
static bool known_tag(const char *tag)
{
	static const char *const tags[] = {
		"what",	   "where",	  "date", "kernelversion",
		"contact", "description", "users"};

	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (strstr(tag, tags[i]))
			return true;
	return false;
}

/* For each name of @what: the script's $symbols{$w}->{xref} = $what. */
static void set_xrefs(struct abi *a, const char *what)
{
	const char *p = what;

	while (*p) {
		const char *q = strchr(p, SEP);
		size_t l = q ? (size_t)(q - p) : strlen(p);
		struct abi_sym *s = sym(a, p, l);

		free(s->xref);
		s->xref = qu_xstrdup(what);
		p += l + (q != NULL);
	}
}

/* A symbol ends: a description is due, and its names point at it. */
static void end_what(struct abi *a, const char *what, const char *path,
		     uint32_t ln)
{
	struct abi_entry *e = entry(a, what, strlen(what));

	if (!perl_true(e->has_desc ? e->desc.buf : NULL))
		qu_diag(a->diags, QU_W_KERNEL_ABI, path, ln, 0,
			"What '%s' has no description", what);
	set_xrefs(a, what);
}

/* State of one file's parse, the script's locals of parse_abi(). */
struct abi_file {
	struct abi *a;
	const struct qu_site_text *f;
	const char *name, *type;
	struct abi_entry *file;
	struct qu_buf what, tag, space;
	bool has_what, has_space, new_what;
	char *first_label;
	uint32_t ln;
};

/* "What:" and its kin: a name of a symbol, or the start of another. */
static void what_line(struct abi_file *st, const char *content, size_t len)
{
	struct abi *a = st->a;
	struct abi_sym *s;

	qu_buf_reset(&st->space);
	st->has_space = true;
	if (len && (content[len - 1] == ',' || content[len - 1] == '.' ||
		    content[len - 1] == ';'))
		len--;
	s = sym(a, content, len);
	if (s->path)
		qu_diag(a->diags, QU_W_KERNEL_ABI, st->f->path, st->ln, 1,
			"What '%.*s' is already defined at %s:%u", (int)len,
			content, s->path, s->line);
	else
		s->path = st->f->path, s->line = st->ln;
	if (strstr(st->tag.buf, "what")) {
		qu_buf_addc(&st->what, SEP);
		qu_buf_add(&st->what, content, len);
	} else {
		if (st->has_what && perl_true(st->what.buf))
			end_what(a, st->what.buf, st->f->path, st->ln);
		qu_buf_reset(&st->what);
		qu_buf_add(&st->what, content, len);
		st->has_what = true;
		/* the group's label is its first name */
		free(st->first_label);
		st->first_label = qu_xstrndup(content, len);
		st->new_what = true;
	}
	st->file->syms = qu_xgrow(st->file->syms, st->file->nsyms, sizeof(char *));
	st->file->syms[st->file->nsyms++] = qu_xstrndup(content, len);
}

/* The first tag after a symbol's names: the symbol's entry begins. */
static void first_tag(struct abi_file *st)
{
	struct abi_entry *e = entry(st->a, st->what.buf, st->what.len);

	if (!st->new_what) {
		if (!e->has_line)
			e->line_no = st->ln, e->has_line = true;
		return;
	}
	free(e->label_src);
	e->label_src = st->first_label;
	st->first_label = NULL;
	st->new_what = false;
	free(e->type);
	e->type = qu_xstrdup(st->type);
	if (!e->has_file) {
		qu_buf_adds(&e->file, st->name);
		qu_buf_adds(&e->filepath, st->f->path);
		e->has_file = true;
	} else {
		if (e->has_desc)
			qu_buf_adds(&e->desc, "\n\n");
		if (strcmp(st->name, e->file.buf)) {
			qu_buf_addf(&e->file, " %s", st->name);
			qu_buf_addf(&e->filepath, " %s", st->f->path);
		}
	}
	e->line_no = st->ln, e->has_line = true;
}

/* A tag line: m/^(\S+)(:\s*)(.*)/; false when the line is not one. */
static bool tag_line(const char *p, const char *e, struct qu_buf *tag,
		     const char **sep, size_t *nsep, const char **content,
		     size_t *ncontent)
{
	const char *r = p, *c = NULL, *q;

	while (r < e && !ws(*r))
		r++;
	for (q = r; q > p + 1; q--)
		if (q[-1] == ':') {
			c = q - 1;
			break;
		}
	if (!c)
		return false;
	qu_buf_reset(tag);
	for (q = p; q < c; q++)
		qu_buf_addc(tag, *q >= 'A' && *q <= 'Z' ? *q + 'a' - 'A' : *q);
	*sep = c;
	for (q = c + 1; q < e && ws(*q); q++)
		;
	*nsep = (size_t)(q - c);
	*content = q;
	for (; q < e && *q != '\n'; q++)
		;
	*ncontent = (size_t)(q - *content);
	return true;
}

/* A description's line after its first, indented as the first was. */
static void desc_line(struct abi_file *st, struct abi_entry *e, const char *p,
		      size_t len)
{
	struct qu_buf c = QU_BUF_INIT;
	size_t i = 0;

	qu_buf_add(&c, p, len);
	expand_tabs(&c);
	/* m/^\s*\n/ on the line as read */
	while (i < len && ws(p[i]) && p[i] != '\n')
		i++;
	if (i < len && p[i] == '\n') {
		qu_buf_addc(&e->desc, '\n');
		e->has_desc = true;
		qu_buf_fini(&c);
		return;
	}
	if (!st->has_space) {
		if (first_line(&c, &st->space))
			st->has_space = true;
	} else if (c.len >= st->space.len &&
		   !memcmp(c.buf, st->space.buf, st->space.len)) {
		memmove(c.buf, c.buf + st->space.len, c.len - st->space.len);
		c.len -= st->space.len;
		c.buf[c.len] = 0;
	} else {
		qu_buf_reset(&st->space);
	}
	qu_buf_add(&e->desc, c.buf, c.len);
	e->has_desc = true;
	qu_buf_fini(&c);
}

/* A tag's value: "Description:" starts the text, others are kept. */
static void tag_value(struct abi_file *st, struct abi_entry *e, const char *sep,
		      size_t nsep, const char *content, size_t ncontent)
{
	struct qu_buf c = QU_BUF_INIT;

	if (strcmp(st->tag.buf, "description")) {
		if (!strcmp(st->tag.buf, "users")) {
			qu_buf_reset(&e->users);
			qu_buf_add(&e->users, content, ncontent);
			e->has_users = true;
		}
		return;
	}
	/* the tag's width in blanks, its ':' a blank too */
	qu_buf_adds(&c, "            ");
	qu_buf_add(&c, sep + 1, nsep - 1);
	qu_buf_add(&c, content, ncontent);
	expand_tabs(&c);
	if (first_line(&c, &st->space)) {
		st->has_space = true;
		qu_buf_add(&e->desc, c.buf, c.len);
		e->has_desc = true;
	} else {
		st->has_space = false;
	}
	qu_buf_fini(&c);
}

/*
 * One line of an ABI file. A "Word:" line is a tag unless a description
 * is running and the word is not one of the script's tags; a line that
 * is no tag goes on the current tag's value, or before any tag, on the
 * file's own description.
 */
static void parse_line(struct abi_file *st, const char *p, const char *e)
{
	struct abi *a = st->a;
	const char *sep, *content;
	size_t nsep, ncontent;
	struct qu_buf nt = QU_BUF_INIT;

	if (tag_line(p, e, &nt, &sep, &nsep, &content, &ncontent)) {
		/* "Foo:" inside a description is text, as in the script */
		if (!known_tag(nt.buf)) {
			if (!strcmp(st->tag.buf, "description"))
				qu_buf_reset(&nt);
			else if (st->tag.len)
				qu_diag(a->diags, QU_W_KERNEL_ABI, st->f->path,
					st->ln, 1,
					"tag '%s' is invalid, ignoring its "
					"value",
					nt.buf);
		}
		if (!strcmp(nt.buf, "where")) {
			qu_diag(a->diags, QU_W_KERNEL_ABI, st->f->path, st->ln,
				1,
				"tag 'Where' is invalid, reading it as "
				"'What'");
			qu_buf_reset(&nt);
			qu_buf_adds(&nt, "what");
		}
		if (strstr(nt.buf, "what")) {
			what_line(st, content, ncontent);
			qu_buf_reset(&st->tag);
			qu_buf_add(&st->tag, nt.buf, nt.len);
			goto out;
		}
		/* a tag after a symbol's names: its entry starts or goes on */
		if (st->tag.len && perl_true(nt.buf)) {
			struct abi_entry *w;

			qu_buf_reset(&st->tag);
			qu_buf_add(&st->tag, nt.buf, nt.len);
			first_tag(st);
			if (!perl_true(st->what.buf)) {
				qu_diag(a->diags, QU_W_KERNEL_ABI, st->f->path,
					st->ln, 1,
					"'What:' should come first, ignoring "
					"the line");
				goto out;
			}
			w = entry(a, st->what.buf, st->what.len);
			tag_value(st, w, sep, nsep, content, ncontent);
			goto out;
		}
	}
	if (!st->tag.len) {
		/* the text before the first tag describes the file */
		qu_buf_add(&st->file->desc, p, (size_t)(e - p));
		st->file->has_desc = true;
	} else if (!strcmp(st->tag.buf, "description")) {
		desc_line(st, entry(a, st->what.buf, st->what.len), p,
			  (size_t)(e - p));
	} else {
		struct abi_entry *w = entry(a, st->what.buf, st->what.len);

		while (p < e && ws(*p))
			p++;
		if (!strcmp(st->tag.buf, "users")) {
			qu_buf_addc(&w->users, '\n');
			for (; p < e && *p != '\n'; p++)
				qu_buf_addc(&w->users, *p);
			while (w->users.len &&
			       w->users.buf[w->users.len - 1] == '\n')
				w->users.buf[--w->users.len] = 0;
			w->has_users = true;
		}
	}
out:
	qu_buf_fini(&nt);
}

/* The script's parse_abi() of one file. */
static void parse_file(struct abi *a, const struct qu_site_text *f)
{
	struct abi_file st = {.a = a,
			      .f = f,
			      .what = QU_BUF_INIT,
			      .tag = QU_BUF_INIT,
			      .space = QU_BUF_INIT};
	struct qu_buf key = QU_BUF_INIT, type = QU_BUF_INIT;
	const char *p = f->text, *end = f->text + f->len, *sl, *abi;
	size_t sp;

	sl = strrchr(f->path, '/');
	st.name = sl ? sl + 1 : f->path;
	/* s,.*Documentation/ABI/,, : the last such folder */
	abi = f->path;
	for (const char *q = f->path; (q = strstr(q, "Documentation/ABI/"));
	     q++)
		abi = q + 18;
	qu_buf_addf(&key, "File %s", abi);
	st.file = entry(a, key.buf, key.len);
	st.file->is_file = true;
	free(st.file->type);
	st.file->type = qu_xstrdup("File");
	qu_buf_reset(&st.file->file);
	qu_buf_reset(&st.file->filepath);
	qu_buf_addf(&st.file->file, "%s", st.name);
	qu_buf_adds(&st.file->filepath, f->path);
	st.file->has_file = true;
	st.file->line_no = 1, st.file->has_line = true;
	/* s,.*\/(.*)\/.*,$1, : the folder holding the file */
	if (sl && sl > f->path) {
		const char *b = sl;

		while (b > f->path && b[-1] != '/')
			b--;
		if (b > f->path)
			qu_buf_add(&type, b, (size_t)(sl - b));
		else
			qu_buf_adds(&type, f->path);
	} else {
		qu_buf_adds(&type, f->path);
	}
	st.type = type.buf;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl + 1 : end;

		st.ln++;
		parse_line(&st, p, e);
		p = e;
	}
	/* s/^\n+// of the file's own text */
	for (sp = 0; sp < st.file->desc.len && st.file->desc.buf[sp] == '\n';
	     sp++)
		;
	if (sp && perl_true(st.file->desc.buf)) {
		memmove(st.file->desc.buf, st.file->desc.buf + sp,
			st.file->desc.len - sp + 1);
		st.file->desc.len -= sp;
	}
	if (st.has_what && perl_true(st.what.buf))
		end_what(a, st.what.buf, f->path, st.ln);
	if (!st.has_what)
		qu_diag(a->diags, QU_W_KERNEL_ABI, f->path, 0, 0,
			"no 'What:' in the file, showing its text as the "
			"file's description");
	free(st.first_label);
	qu_buf_fini(&st.what);
	qu_buf_fini(&st.tag);
	qu_buf_fini(&st.space);
	qu_buf_fini(&key);
	qu_buf_fini(&type);
}

static int key_cmp(const void *x, const void *y)
{
	const struct abi_entry *a = *(struct abi_entry *const *)x;
	const struct abi_entry *b = *(struct abi_entry *const *)y;

	return strcmp(a->key, b->key);
}

/*
 * The script's create_labels(): "abi_" and the symbol's first name, in
 * lower case, every other byte but a letter or digit an underscore, runs
 * of them one. The script makes a taken label unique with random
 * letters; quire adds letters that count (A, B, ..., z, AB, ...), so the
 * same tree gives the same ids (never needed in linux-source-6.1), and
 * keeps each label's count, so many symbols of one label stay linear.
 */
static void make_labels(struct abi *a)
{
	static const char letters[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
	struct qu_buf l = QU_BUF_INIT;
	struct qu_map next; /* a taken label -> its next count + 1 */
	char **keys = NULL;
	size_t nkeys = 0;

	qu_map_init(&next);
	for (size_t i = 0; i < a->n; i++) {
		struct abi_entry *e = a->v[i];
		size_t base;
		void **slot;
		uintptr_t t;

		if (!e->label_src)
			continue;
		qu_buf_reset(&l);
		qu_buf_adds(&l, "abi_");
		for (const char *p = e->label_src;; p++) {
			unsigned char c = (unsigned char)(*p ? *p : ' ');
			bool keep = (c >= '0' && c <= '9') ||
				    (c >= 'a' && c <= 'z') ||
				    (c >= 'A' && c <= 'Z');

			if (!keep)
				c = '_';
			else if (c >= 'A' && c <= 'Z')
				c += 'a' - 'A';
			if (c != '_' || l.buf[l.len - 1] != '_')
				qu_buf_addc(&l, (char)c);
			if (!*p)
				break;
		}
		if (l.buf[l.len - 1] == '_')
			l.buf[--l.len] = 0;
		base = l.len;
		if (qu_map_get(&a->labels, l.buf, l.len)) {
			t = (uintptr_t)qu_map_get(&next, l.buf, base);
			if (!t) {
				/* the map keeps its keys: a copy */
				keys = qu_xrealloc(keys,
						   (nkeys + 1) * sizeof(*keys));
				keys[nkeys] = qu_xstrndup(l.buf, base);
				slot = qu_map_slot(&next, keys[nkeys++], base);
			} else {
				slot = qu_map_slot(&next, l.buf, base);
				t--;
			}
			do {
				uintptr_t c = t++;

				l.len = base;
				do {
					qu_buf_addc(&l, letters[c % 52]);
					c /= 52;
				} while (c);
			} while (qu_map_get(&a->labels, l.buf, l.len));
			*slot = (void *)(t + 1);
		}
		e->label = qu_xstrdup(l.buf);
		qu_map_put(&a->labels, e->label, e);
	}
	for (size_t i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	qu_map_fini(&next);
	qu_buf_fini(&l);
}

/* Backslashes before the bytes @esc says: the script's s/$symbols/\\$1/g. */
static void escape(struct qu_buf *out, const char *s, size_t len,
		   bool (*esc)(unsigned char))
{
	for (size_t i = 0; i < len; i++) {
		if (esc((unsigned char)s[i]))
			qu_buf_addc(out, '\\');
		qu_buf_addc(out, s[i]);
	}
}

/* $symbols: [\x01-\x08\x0e-\x1f\x21-\x2f\x3a-\x40\x7b-\xff] */
static bool esc_name(unsigned char c)
{
	return (c >= 0x01 && c <= 0x08) || (c >= 0x0e && c <= 0x1f) ||
	       (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) ||
	       c >= 0x7b;
}

/* The list of a file's symbols: [\x00-\x1f\x21-\x2f\x3a-\x40\x7b-\xff] */
static bool esc_list(unsigned char c)
{
	return c <= 0x1f || (c >= 0x21 && c <= 0x2f) ||
	       (c >= 0x3a && c <= 0x40) || c >= 0x7b;
}

/* The last two components of a path, '/' and '-' as '_': a file's label. */
static void file_ref(struct qu_buf *out, const char *path, size_t len)
{
	size_t from = 0, slashes = 0;

	for (size_t i = len; i > 0; i--)
		if (path[i - 1] == '/' && ++slashes == 2) {
			from = i;
			break;
		}
	qu_buf_adds(out, "abi_file_");
	for (size_t i = from; i < len; i++)
		qu_buf_addc(out,
			    path[i] == '/' || path[i] == '-' ? '_' : path[i]);
}

static void dashes(struct qu_buf *out, const char *s)
{
	for (; *s; s++)
		if (*s != '\n')
			qu_buf_addc(out, '-');
}

/*
 * Perl's split / /: the fields between single blanks, trailing empty
 * ones dropped, into new arrays (@f the starts, @fl the lengths).
 */
static size_t split_sp(const char *s, size_t len, const char ***f, size_t **fl)
{
	size_t n = 0, start = 0;

	*f = qu_xcalloc(len + 1, sizeof(**f));
	*fl = qu_xcalloc(len + 1, sizeof(**fl));
	for (size_t i = 0; i <= len; i++)
		if (i == len || s[i] == ' ') {
			(*f)[n] = s + start;
			(*fl)[n++] = i - start;
			start = i + 1;
		}
	while (n && !(*fl)[n - 1])
		n--;
	return n;
}

static bool boundary(char c)
{
	return (c && strchr(",.:;)", c)) || ws(c);
}

/*
 * The description of an entry with its links, as the script's
 * output_rest() makes it when descriptions are reST (they always are
 * for the directive).
 */
static void rich_line(struct abi *a, struct qu_buf *out, const char *d,
		      size_t len);

static void description(struct abi *a, struct qu_buf *out, const char *text)
{
	struct qu_buf desc = QU_BUF_INIT;
	size_t i, e, lit = (size_t)-1;
	bool in_lit = false;

	/* s/\s+$/\n/ */
	e = strlen(text);
	i = e;
	while (i > 0 && ws(text[i - 1]))
		i--;
	qu_buf_add(&desc, text, i);
	if (i < e)
		qu_buf_addc(&desc, '\n');
	/* s/\n[\-\*\=\^\~]+\n/\n\n/g: title underlines go */
	{
		struct qu_buf t = QU_BUF_INIT;

		for (i = 0; i < desc.len;) {
			size_t j = i + 1;

			if (desc.buf[i] == '\n') {
				while (j < desc.len &&
				       strchr("-*=^~", desc.buf[j]) &&
				       desc.buf[j])
					j++;
				if (j > i + 1 && j < desc.len &&
				    desc.buf[j] == '\n') {
					qu_buf_adds(&t, "\n\n");
					i = j + 1;
					continue;
				}
			}
			qu_buf_addc(&t, desc.buf[i++]);
		}
		qu_buf_fini(&desc);
		desc = t;
	}
	for (i = 0; i < desc.len;) {
		const char *d = desc.buf + i;
		const char *nl = memchr(d, '\n', desc.len - i);
		size_t l = nl ? (size_t)(nl - d) + 1 : desc.len - i;
		/* the script's "indent" is whether the line starts blank */
		size_t spaces = l && ws(d[0]);

		i += l;
		if (in_lit) {
			if (spaces > lit) {
				qu_buf_add(out, d, l);
				continue;
			}
			in_lit = false;
		} else {
			size_t b = l;
			size_t k = 0;

			if (b && d[b - 1] == '\n')
				b--;
			while (k < l && ws(d[k]))
				k++;
			if (b >= 2 && d[b - 2] == ':' && d[b - 1] == ':' &&
			    !(k + 1 < l && d[k] == '.' && d[k + 1] == '.')) {
				in_lit = true;
				lit = spaces;
			}
		}
		rich_line(a, out, d, l);
	}
	qu_buf_adds(out, "\n\n");
	qu_buf_fini(&desc);
}

/* s,Documentation/(?!devicetree)(\S+)\.rst,:doc:`/$1`,g */
static void doc_links(struct qu_buf *out, const char *d, size_t len)
{
	static const char pre[] = "Documentation/";
	/* the run of non-blanks scanned last, and its last ".rst" end */
	size_t i = 0, r = 0, last = 0;

	while (i < len) {
		if (len - i < 14 || memcmp(d + i, pre, 14) ||
		    (len - i - 14 >= 10 &&
		     !memcmp(d + i + 14, "devicetree", 10))) {
			qu_buf_addc(out, d[i++]);
			continue;
		}
		/* one scan a run, so a run of many matches stays linear */
		if (i >= r) {
			for (r = i + 14; r < len && !ws(d[r]); r++)
				;
			for (last = r; last >= i + 4; last--)
				if (!memcmp(d + last - 4, ".rst", 4))
					break;
			if (last < i + 4)
				last = 0;
		}
		/* (\S+) holds a byte at least: ".rst" ends past i + 18 */
		if (last < i + 19) {
			qu_buf_addc(out, d[i++]);
			continue;
		}
		qu_buf_addf(out, ":doc:`/%.*s`", (int)(last - 4 - i - 14),
			    d + i + 14);
		i = last;
	}
}

/* s,\bDocumentation/ABI/$f\b,:ref:`$xref`,g with @f literal. */
static void abi_ref(struct qu_buf *b, const char *f, size_t fl)
{
	struct qu_buf out = QU_BUF_INIT, path = QU_BUF_INIT;
	size_t i = 0, n = 18 + fl;

	while (i < b->len) {
		bool ok = b->len - i >= n &&
			  !memcmp(b->buf + i, "Documentation/ABI/", 18) &&
			  !memcmp(b->buf + i + 18, f, fl) &&
			  (i == 0 || !word(b->buf[i - 1]));

		if (ok) {
			bool after = i + n < b->len && word(b->buf[i + n]);

			ok = word(f[fl - 1]) != after;
		}
		if (!ok) {
			qu_buf_addc(&out, b->buf[i++]);
			continue;
		}
		qu_buf_reset(&path);
		file_ref(&path, f, fl);
		qu_buf_addf(&out, ":ref:`%.*s <%s>`", (int)fl, f, path.buf);
		i += n;
	}
	qu_buf_fini(b);
	qu_buf_fini(&path);
	*b = out;
}

/*
 * A symbol's path at @p: "/sys/", "/config/", "/proc/", "/dev/" or
 * "/kvd/" and at least one byte up to a boundary or the end; its end.
 */
static size_t path_end(const char *d, size_t len, size_t p)
{
	static const char *const roots[] = {"/sys/", "/config/", "/proc/",
					    "/dev/", "/kvd/"};

	for (size_t k = 0; k < 5; k++) {
		size_t rl = strlen(roots[k]), e = p + rl;

		if (len - p < rl || memcmp(d + p, roots[k], rl))
			continue;
		while (e < len && !boundary(d[e]))
			e++;
		return e > p + rl ? e : 0;
	}
	return 0;
}

/*
 * A match of ($start)PATH($bondary) at @i, as Perl tries it: "^" first
 * (at 0 only), then a blank or '(' at @i. The path's start goes to @p;
 * the match's end, with the boundary byte it takes, is returned, or 0.
 */
static size_t match_at(const char *d, size_t len, size_t i, size_t *p)
{
	size_t e;

	if (i == 0 && (e = path_end(d, len, 0))) {
		*p = 0;
		return e < len ? e + 1 : e;
	}
	if (i < len && (ws(d[i]) || d[i] == '(') &&
	    (e = path_end(d, len, i + 1))) {
		*p = i + 1;
		return e < len ? e + 1 : e;
	}
	return 0;
}

/* The paths m/$xref_match/g finds, in order, each as (start, length). */
static size_t sym_paths(const char *d, size_t len, size_t *at, size_t *pl)
{
	size_t n = 0, i = 0, p, e;

	while (i < len) {
		if (!(e = match_at(d, len, i, &p))) {
			i++;
			continue;
		}
		at[n] = p;
		pl[n] = path_end(d, len, p) - p;
		n++;
		i = e;
	}
	return n;
}

/*
 * The script substitutes once for each name its match found, in order,
 * so a name found N times is substituted N times. A substitution that
 * changed nothing changes nothing again until the line changes: @done
 * keeps, for each name, the line's generation (plus one) at which it
 * last did nothing, so a line naming one symbol a great many times costs
 * a few passes, not one a mention.
 */
static bool unchanged(const struct qu_map *done, const char *name,
		      uintptr_t gen)
{
	return (uintptr_t)qu_map_get(done, name, strlen(name)) == gen + 1;
}

/* One substitution on @b; 1 when it changed the line, else 0. */
static uintptr_t
replaced(struct qu_buf *b, void (*lit)(struct qu_buf *, const char *, size_t),
	 bool (*pat)(struct qu_buf *, const char *, const char *),
	 const char *name, const char *xref, struct qu_map *done, uintptr_t gen)
{
	struct qu_buf before = QU_BUF_INIT;
	bool same;

	qu_buf_add(&before, b->buf, b->len);
	if (lit)
		lit(b, name, strlen(name));
	else
		pat(b, name, xref);
	same = before.len == b->len && !memcmp(before.buf, b->buf, b->len);
	qu_buf_fini(&before);
	if (!same)
		return 1;
	qu_map_put(done, name, (void *)(gen + 1));
	return 0;
}

/*
 * The script replaces each name all over the line, inside the links made
 * for the names before: names that hold each other can grow a line
 * without bound (446 bytes of a fuzzed file became 335 MB). Past this
 * size a line takes no more links; no file of linux-source-6.1 nears it.
 */
#define RICH_MAX(len) ((len) * 64 + 65536)

static void rich_line(struct abi *a, struct qu_buf *out, const char *d,
		      size_t len)
{
	struct qu_buf b = QU_BUF_INIT;
	size_t *at, *pl, n, i;
	struct {
		size_t at, len;
	} *m = NULL;
	size_t nm = 0;
	struct qu_map done;
	uintptr_t gen = 0;

	qu_map_init(&done);

	doc_links(&b, d, len);
	/* m,Documentation/ABI/([\w\/\-]+),g, then each replaced in turn */
	for (i = 0; i + 18 <= b.len;) {
		size_t e = i + 18;

		if (memcmp(b.buf + i, "Documentation/ABI/", 18)) {
			i++;
			continue;
		}
		while (e < b.len &&
		       (word(b.buf[e]) || b.buf[e] == '/' || b.buf[e] == '-'))
			e++;
		if (e == i + 18) {
			i++;
			continue;
		}
		m = qu_xgrow(m, nm, sizeof(*m));
		m[nm].at = i + 18;
		m[nm++].len = e - i - 18;
		i = e;
	}
	if (nm) {
		char **fs = qu_xcalloc(nm, sizeof(char *));

		for (i = 0; i < nm; i++)
			fs[i] = qu_xstrndup(b.buf + m[i].at, m[i].len);
		for (i = 0; i < nm && b.len <= RICH_MAX(len); i++) {
			if (!unchanged(&done, fs[i], gen))
				gen += replaced(&b, abi_ref, NULL, fs[i], NULL,
						&done, gen);
		}
		/* the names are freed: forget them */
		qu_map_reset(&done);
		for (i = 0; i < nm; i++)
			free(fs[i]);
		free(fs);
	}
	free(m);
	at = qu_xcalloc(b.len + 1, sizeof(*at));
	pl = qu_xcalloc(b.len + 1, sizeof(*pl));
	n = sym_paths(b.buf, b.len, at, pl);
	if (n) {
		char **ss = qu_xcalloc(n, sizeof(char *));

		for (i = 0; i < n; i++)
			ss[i] = qu_xstrndup(b.buf + at[i], pl[i]);
		for (i = 0; i < n && b.len <= RICH_MAX(len); i++) {
			const struct abi_entry *e = find(a, ss[i]);
			struct qu_buf x = QU_BUF_INIT;

			if (e && e->label && !unchanged(&done, ss[i], gen)) {
				qu_buf_adds(&x, ":ref:`");
				escape(&x, ss[i], strlen(ss[i]), esc_name);
				qu_buf_addf(&x, " <%s>`", e->label);
				gen += replaced(&b, NULL, site_abi_link, ss[i],
						x.buf, &done, gen);
			}
			qu_buf_fini(&x);
		}
		for (i = 0; i < n; i++)
			free(ss[i]);
		free(ss);
	}
	free(at);
	free(pl);
	qu_map_fini(&done);
	qu_buf_add(out, b.buf, b.len);
	qu_buf_fini(&b);
}

/* m#^(\/?(?:[\w\-]+\/?){1,2})#: the first two folders of a path. */
static size_t part_prefix(const char *w)
{
	size_t i = w[0] == '/';

	for (int k = 0; k < 2; k++) {
		size_t s = i;

		while (word(w[i]) || w[i] == '-')
			i++;
		if (i == s)
			return k ? s : 0;
		if (w[i] == '/')
			i++;
	}
	return i;
}

static int out_cmp(const void *x, const void *y)
{
	const struct abi_entry *a = *(struct abi_entry *const *)x;
	const struct abi_entry *b = *(struct abi_entry *const *)y;
	bool fa = a->type && !strcmp(a->type, "File");
	bool fb = b->type && !strcmp(b->type, "File");

	if (fa != fb)
		return fa ? 1 : -1;
	return strcmp(a->key, b->key);
}

/*
 * The script's output_rest(): symbols first, then files, each in byte
 * order of its key. A symbol's section heading ("Symbols under /sys/bus")
 * comes only when its first two folders differ from the last symbol's,
 * so the sort decides the sections.
 */
static void output(struct abi *a, struct qu_buf *out, const char *prefix)
{
	struct qu_buf part = QU_BUF_INIT, cur = QU_BUF_INIT;
	struct abi_entry **v = qu_xcalloc(a->n + 1, sizeof(*v));
	size_t nv = a->n;

	memcpy(v, a->v, nv * sizeof(*v));
	qsort(v, nv, sizeof(*v), out_cmp);
	for (size_t i = 0; i < nv; i++) {
		struct abi_entry *e = v[i];
		bool is_file = e->type && !strcmp(e->type, "File");
		const char **file, **path;
		size_t *fl, *pl, nf, np;

		nf = split_sp(e->file.buf, e->file.len, &file, &fl);
		np = split_sp(e->filepath.buf, e->filepath.len, &path, &pl);
		qu_buf_addf(out, ".. LINENO %s%.*s#", prefix,
			    nf ? (int)fl[0] : 0, nf ? file[0] : "");
		if (e->has_line)
			qu_buf_addf(out, "%u", e->line_no);
		qu_buf_adds(out, "\n\n");
		if (!is_file) {
			size_t pp, len = 0;
			struct qu_buf names = QU_BUF_INIT;
			size_t nn = 0, *ends;
			const char *s;

			qu_buf_reset(&cur);
			if (strchr(e->key, '/') && (pp = part_prefix(e->key))) {
				qu_buf_addf(&cur, "Symbols under %.*s", (int)pp,
					    e->key);
				if (cur.buf[cur.len - 1] == '/')
					cur.buf[--cur.len] = 0;
			} else {
				qu_buf_adds(&cur, e->key);
			}
			if (cur.len && strcmp(part.buf, cur.buf)) {
				qu_buf_reset(&part);
				qu_buf_add(&part, cur.buf, cur.len);
				qu_buf_addf(out, "%s\n", part.buf);
				dashes(out, part.buf);
				qu_buf_adds(out, "\n\n");
			}
			qu_buf_addf(out, ".. _%s:\n\n",
				    e->label ? e->label : "");
			/* split /\xac/: trailing empty names dropped */
			ends = qu_xcalloc(strlen(e->key) + 2, sizeof(*ends));
			for (s = e->key;;) {
				const char *q = strchr(s, SEP);
				size_t l = q ? (size_t)(q - s) : strlen(s);

				qu_buf_adds(&names, "**");
				escape(&names, s, l, esc_name);
				qu_buf_adds(&names, "**");
				ends[nn++] = names.len;
				if (!q)
					break;
				s = q + 1;
			}
			/* "****" is an empty name */
			while (nn &&
			       ends[nn - 1] - (nn > 1 ? ends[nn - 2] : 0) == 4)
				nn--;
			for (size_t k = 0; k < nn; k++) {
				size_t l = ends[k] - (k ? ends[k - 1] : 0);

				if (l > len)
					len = l;
			}
			qu_buf_adds(out, "+-");
			for (size_t k = 0; k < len; k++)
				qu_buf_addc(out, '-');
			qu_buf_adds(out, "-+\n");
			for (size_t k = 0; k < nn; k++) {
				size_t b = k ? ends[k - 1] : 0;
				size_t l = ends[k] - b;

				qu_buf_adds(out, "| ");
				qu_buf_add(out, names.buf + b, l);
				for (size_t j = l; j < len; j++)
					qu_buf_addc(out, ' ');
				qu_buf_adds(out, " |\n+-");
				for (size_t j = 0; j < len; j++)
					qu_buf_addc(out, '-');
				qu_buf_adds(out, "-+\n");
			}
			qu_buf_addc(out, '\n');
			free(ends);
			qu_buf_fini(&names);
		}
		for (size_t k = 0; k < np; k++) {
			struct qu_buf ref = QU_BUF_INIT;

			file_ref(&ref, path[k], pl[k]);
			if (is_file)
				qu_buf_addf(out, ".. _%s:\n\n", ref.buf);
			else
				qu_buf_addf(out,
					    "Defined on file :ref:`%.*s <%s>`"
					    "\n\n",
					    k < nf ? (int)fl[k] : 0,
					    k < nf ? file[k] : "", ref.buf);
			qu_buf_fini(&ref);
		}
		free(file);
		free(fl);
		free(path);
		free(pl);
		if (is_file) {
			qu_buf_addf(out, "%s\n", e->key);
			dashes(out, e->key);
			qu_buf_adds(out, "\n\n");
		}
		{
			const char *d = e->has_desc ? e->desc.buf : "";
			const char *q = d;

			while (*q && ws(*q))
				q++;
			if (*q)
				description(a, out, d);
			else if (!e->is_file)
				qu_buf_addf(out,
					    "DESCRIPTION MISSING for %s\n\n",
					    e->key);
		}
		if (e->nsyms) {
			qu_buf_adds(out, "Has the following ABI:\n\n");
			for (size_t k = 0; k < e->nsyms; k++) {
				const struct abi_sym *s =
					qu_map_get(&a->symbols, e->syms[k],
						   strlen(e->syms[k]));
				/* no symbol holds it: Perl's undef key is "" */
				const struct abi_entry *x =
					find(a, s && s->xref ? s->xref : "");

				qu_buf_adds(out, "- :ref:`");
				escape(out, e->syms[k], strlen(e->syms[k]),
				       esc_list);
				qu_buf_addf(out, " <%s>`\n\n",
					    x && x->label ? x->label : "");
			}
		}
		if (e->has_users && e->users.len) {
			qu_buf_adds(out, "Users:\n\t");
			for (size_t k = 0; k < e->users.len; k++) {
				qu_buf_addc(out, e->users.buf[k]);
				if (e->users.buf[k] == '\n')
					qu_buf_addc(out, '\t');
			}
			qu_buf_adds(out, "\n\n");
		}
	}
	free(v);
	qu_buf_fini(&part);
	qu_buf_fini(&cur);
}

void qu_site_abi_rst(struct qu_buf *out, struct qu_diags *diags,
		     const char *dir, const struct qu_site_text *files,
		     size_t n)
{
	struct abi a;
	struct qu_buf prefix = QU_BUF_INIT;

	memset(&a, 0, sizeof(a));
	a.diags = diags;
	qu_map_init(&a.data);
	qu_map_init(&a.symbols);
	qu_map_init(&a.labels);
	for (size_t i = 0; i < n; i++) {
		const char *rel = files[i].rel;

		/* m,/README, and m,/\., below the folder */
		if (!strncmp(rel, "README", 6) || strstr(rel, "/README") ||
		    rel[0] == '.' || strstr(rel, "/."))
			continue;
		parse_file(&a, &files[i]);
	}
	/* labels are given in key order: ties break the same each time */
	qsort(a.v, a.n, sizeof(*a.v), key_cmp);
	make_labels(&a);
	/* $prefix =~ s,/?$,/, */
	qu_buf_adds(&prefix, dir);
	if (!prefix.len || prefix.buf[prefix.len - 1] != '/')
		qu_buf_addc(&prefix, '/');
	output(&a, out, prefix.buf);
	for (size_t i = 0; i < a.n; i++) {
		struct abi_entry *e = a.v[i];

		free(e->key);
		free(e->type);
		qu_buf_fini(&e->file);
		qu_buf_fini(&e->filepath);
		qu_buf_fini(&e->desc);
		qu_buf_fini(&e->users);
		free(e->label_src);
		free(e->label);
		for (size_t k = 0; k < e->nsyms; k++)
			free(e->syms[k]);
		free(e->syms);
		free(e);
	}
	for (size_t i = 0; i < a.nsv; i++) {
		free(a.sv[i]->name);
		free(a.sv[i]->xref);
		free(a.sv[i]);
	}
	free(a.sv);
	free(a.v);
	qu_map_fini(&a.data);
	qu_map_fini(&a.symbols);
	qu_map_fini(&a.labels);
	qu_buf_fini(&prefix);
}
