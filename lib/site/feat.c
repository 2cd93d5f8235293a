// SPDX-License-Identifier: MIT
/*
 * feat.c - the kernel's feature files as reST (site stage)
 *
 * The kernel's `kernel-feat` directive (Documentation/sphinx/
 * kernel_feat.py) runs `scripts/get_feat.pl rest --dir DIR [--arch ARCH]`
 * on the Documentation/features folder and reads its output in place of
 * the directive: a table of every feature's status on one architecture,
 * or, without one, a grid table per subsystem with the status on every
 * architecture. This makes the same text, byte for byte, from the
 * arch-support.txt files lib/site/directive.c read; the site-kernel-feat
 * test compares the two on the kernel's own folder.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "site_int.h"

/* A feature file, as get_feat.pl's parse_feat() keeps it. */
struct feat {
	const char *name, *subsys, *kconfig, *desc;
	size_t nname, nsubsys, nkconfig, ndesc;
	struct feat_arch {
		const char *arch, *status;
		size_t narch, nstatus;
	} * archs;
	size_t narchs;
};

/* The column widths, the script's globals, grown by every file read. */
struct feat_sizes {
	size_t name, kconfig, desc, subsys, status, arch, desc_word;
};

/* Perl's \s: what the script's patterns take for a blank. */
static bool ws(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && ws(*p))
		p++;
	return p;
}

static const char *trim_end(const char *p, const char *e)
{
	while (e > p && ws(e[-1]))
		e--;
	return e;
}

/*
 * "# KEY: value" as /^\#\s+KEY:\s*(.*\S)/ reads it; @key may hold a
 * blank, which stands for \s+. The value has no blank at either end.
 */
static bool header(const char *p, const char *e, const char *key,
		   const char **v, size_t *vlen)
{
	const char *q;

	if (p == e || *p != '#' || p + 1 == e || !ws(p[1]))
		return false;
	p = skip_ws(p + 1, e);
	for (; *key; key++) {
		if (*key == ' ') {
			if (p == e || !ws(*p))
				return false;
			p = skip_ws(p, e);
		} else if (p == e || *p++ != *key) {
			return false;
		}
	}
	p = skip_ws(p, e);
	q = trim_end(p, e);
	if (q == p)
		return false;
	*v = p;
	*vlen = (size_t)(q - p);
	return true;
}

/* A line the script skips: /^\\s*$/, /^\s*\-+\s*$/ or the table's head. */
static bool skipped(const char *p, const char *e)
{
	const char *q;
	static const char *const head[] = {"|", "arch", "|", "status", "|"};

	if (p < e && *p == '\\') {
		for (q = p + 1; q < e && *q == 's'; q++)
			;
		if (q == e)
			return true;
	}
	q = skip_ws(p, e);
	if (q < e && *q == '-') {
		while (q < e && *q == '-')
			q++;
		if (skip_ws(q, e) == e)
			return true;
	}
	q = p;
	for (size_t i = 0; i < 5; i++) {
		size_t l = strlen(head[i]);

		q = skip_ws(q, e);
		if ((size_t)(e - q) < l || memcmp(q, head[i], l))
			return false;
		q += l;
	}
	return skip_ws(q, e) == e;
}

/*
 * "| arch: | status |" as /^\s*\|\s*(\S+):\s*\|\s*(\S+)\s*\|\s*$/ reads
 * it: the first word as long as the rest still fits.
 */
static bool arch_row(const char *p, const char *e, struct feat_arch *out)
{
	const char *s, *r;

	p = skip_ws(p, e);
	if (p == e || *p != '|')
		return false;
	p = skip_ws(p + 1, e);
	e = trim_end(p, e);
	if (e == p || e[-1] != '|')
		return false;
	e = trim_end(p, e - 1);
	/* now: WORD ':' blanks '|' blanks WORD, the words without blanks */
	for (s = p; s < e && !ws(*s); s++)
		;
	for (r = s; r > p; r--) {
		const char *q, *w;

		if (r[-1] != ':' || r - 1 == p)
			continue;
		q = skip_ws(r, e);
		if (q == e || *q != '|')
			continue;
		q = skip_ws(q + 1, e);
		if (q == e)
			continue;
		for (w = q; w < e && !ws(*w); w++)
			;
		if (w != e)
			continue;
		out->arch = p;
		out->narch = (size_t)(r - 1 - p);
		out->status = q;
		out->nstatus = (size_t)(e - q);
		return true;
	}
	return false;
}

static void grow(size_t *max, size_t len)
{
	if (len > *max)
		*max = len;
}

/*
 * One arch-support.txt (@rel: its path below the folder): false when the
 * script leaves it out. The widths grow with what is read even so, as
 * the script's do.
 */
static bool parse(struct feat *f, struct feat_sizes *sz, struct qu_diags *d,
		  const char *path, const char *rel, const char *text,
		  size_t len)
{
	const char *p = text, *end = text + len, *sl = strchr(rel, '/');
	uint32_t ln = 0;
	struct qu_map seen; /* an architecture -> its row's index + 1 */

	qu_map_init(&seen);
	memset(f, 0, sizeof(*f));
	f->subsys = rel;
	f->nsubsys = sl ? (size_t)(sl - rel) : strlen(rel);
	grow(&sz->subsys, f->nsubsys);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		const char *v;
		size_t vl;
		struct feat_arch a;
		void **slot;

		ln++;
		if (header(p, e, "Feature name:", &v, &vl)) {
			f->name = v, f->nname = vl;
			grow(&sz->name, vl);
		} else if (header(p, e, "Kconfig:", &v, &vl)) {
			f->kconfig = v, f->nkconfig = vl;
			grow(&sz->kconfig, vl);
		} else if (header(p, e, "description:", &v, &vl)) {
			const char *w = v, *ve = v + vl;

			f->desc = v, f->ndesc = vl;
			grow(&sz->desc, vl);
			while (w < ve) {
				const char *we = w;

				while (we < ve && !ws(*we))
					we++;
				grow(&sz->desc_word, (size_t)(we - w));
				w = skip_ws(we, ve);
			}
		} else if (skipped(p, e) || (p < e && *p == '#')) {
			/* comments show only on a single feature's page */
		} else if (arch_row(p, e, &a)) {
			size_t i;

			grow(&sz->status, a.nstatus);
			grow(&sz->arch, a.narch);
			if (a.nstatus == 2 && !memcmp(a.status, "..", 2))
				a.status = "---", a.nstatus = 3;
			/* a second row for an architecture replaces the first
			 */
			slot = qu_map_slot(&seen, a.arch, a.narch);
			if (*slot) {
				i = (uintptr_t)*slot - 1;
			} else {
				i = f->narchs;
				*slot = (void *)(uintptr_t)(i + 1);
				f->archs = qu_xgrow(f->archs, f->narchs++,
						sizeof(*f->archs));
			}
			f->archs[i] = a;
		} else {
			qu_diag(d, QU_W_KERNEL_FEAT, path, ln, 1,
				"line is invalid, ignoring it");
		}
		p = nl ? nl + 1 : end;
	}
	qu_map_fini(&seen);
	if (!f->name) {
		qu_diag(d, QU_W_KERNEL_FEAT, path, 0, 0,
			"no '# Feature name:', leaving the file out");
		return false;
	}
	if (!f->kconfig)
		qu_diag(d, QU_W_KERNEL_FEAT, path, 0, 0,
			"no '# Kconfig:', leaving the column empty");
	if (!f->desc)
		qu_diag(d, QU_W_KERNEL_FEAT, path, 0, 0,
			"no '# description:', leaving the column empty");
	if (!f->narchs) {
		qu_diag(d, QU_W_KERNEL_FEAT, path, 0, 0,
			"no architecture table, leaving the feature out");
		return false;
	}
	return true;
}

/* Perl's "\L$a" cmp "\L$b": ASCII letters folded, then bytes. */
static int lc_cmp(const char *a, size_t al, const char *b, size_t bl)
{
	for (size_t i = 0; i < al && i < bl; i++) {
		unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];

		if (x >= 'A' && x <= 'Z')
			x += 'a' - 'A';
		if (y >= 'A' && y <= 'Z')
			y += 'a' - 'A';
		if (x != y)
			return x < y ? -1 : 1;
	}
	return al < bl ? -1 : al > bl;
}

static int bytes_cmp(const char *a, size_t al, const char *b, size_t bl)
{
	int c = memcmp(a, b, al < bl ? al : bl);

	return c ? c : al < bl ? -1 : al > bl;
}

/* The script's order: by subsystem, then by name in any case. */
static int feat_cmp(const void *x, const void *y)
{
	const struct feat *a = x, *b = y;
	int c = bytes_cmp(a->subsys, a->nsubsys, b->subsys, b->nsubsys);

	if (!c)
		c = lc_cmp(a->name, a->nname, b->name, b->nname);
	return c ? c : bytes_cmp(a->name, a->nname, b->name, b->nname);
}

/* The matrix's order of architectures: status descending, then name. */
static int arch_cmp(const void *x, const void *y)
{
	const struct feat_arch *a = x, *b = y;
	int c = bytes_cmp(b->status, b->nstatus, a->status, a->nstatus);

	return c ? c : lc_cmp(a->arch, a->narch, b->arch, b->narch);
}

static void repeat(struct qu_buf *out, char c, size_t n)
{
	while (n--)
		qu_buf_addc(out, c);
}

/* printf's "%-Ns": @s, then blanks up to @width. */
static void cell(struct qu_buf *out, const char *s, size_t len, size_t width)
{
	if (len)
		qu_buf_add(out, s, len);
	if (len < width)
		repeat(out, ' ', width - len);
}

static void title(struct qu_buf *out, const char *t)
{
	repeat(out, '=', strlen(t));
	qu_buf_addc(out, '\n');
	qu_buf_adds(out, t);
	qu_buf_addc(out, '\n');
	repeat(out, '=', strlen(t));
	qu_buf_adds(out, "\n\n");
}

static void arch_rule(struct qu_buf *out, const struct feat_sizes *sz)
{
	repeat(out, '=', sz->subsys);
	qu_buf_adds(out, "  ");
	repeat(out, '=', sz->name);
	qu_buf_adds(out, "  ");
	repeat(out, '=', sz->kconfig);
	qu_buf_adds(out, "  ");
	repeat(out, '=', sz->status);
	qu_buf_adds(out, "  ");
	repeat(out, '=', sz->desc);
	qu_buf_addc(out, '\n');
}

/* get_feat.pl's output_arch_table(): one architecture, a simple table. */
static void arch_table(struct qu_buf *out, const struct feat *f, size_t n,
		       const struct feat_sizes *sz, const char *arch)
{
	struct qu_buf t = QU_BUF_INIT;
	size_t alen = strlen(arch);

	qu_buf_addf(&t, "Feature status on %s architecture", arch);
	title(out, t.buf);
	qu_buf_fini(&t);
	arch_rule(out, sz);
	cell(out, "Subsystem", 9, sz->subsys + 2);
	cell(out, "Feature", 7, sz->name + 2);
	cell(out, "Kconfig", 7, sz->kconfig + 2);
	cell(out, "Status", 6, sz->status + 2);
	cell(out, "Description", 11, sz->desc);
	qu_buf_addc(out, '\n');
	arch_rule(out, sz);
	for (size_t i = 0; i < n; i++) {
		const char *st = "";
		size_t nst = 0;

		/* the name's bytes, which may hold a NUL, against @arch's */
		for (size_t k = 0; k < f[i].narchs; k++)
			if (f[i].archs[k].narch == alen &&
			    !memcmp(f[i].archs[k].arch, arch, alen))
				st = f[i].archs[k].status,
				nst = f[i].archs[k].nstatus;
		cell(out, f[i].subsys, f[i].nsubsys, sz->subsys + 2);
		cell(out, f[i].name, f[i].nname, sz->name + 2);
		cell(out, f[i].kconfig, f[i].nkconfig, sz->kconfig + 2);
		cell(out, st, nst, sz->status + 2);
		cell(out, f[i].desc, f[i].ndesc, 0);
		qu_buf_addc(out, '\n');
	}
	arch_rule(out, sz);
}

static void matrix_rule(struct qu_buf *out, size_t name, size_t desc,
			size_t status, char c)
{
	qu_buf_addc(out, '+');
	repeat(out, c, name);
	qu_buf_addc(out, '+');
	repeat(out, c, desc);
	qu_buf_addc(out, '+');
	repeat(out, c, status);
	qu_buf_adds(out, "+\n");
}

/* A growable list of strings, the script's @lines and @descs. */
struct strs {
	struct qu_buf *v;
	size_t n;
	size_t alloc;
};

static struct qu_buf *push(struct strs *s)
{
	QU_VEC_GROW(s->v, s->n, s->alloc);
	qu_buf_init(&s->v[s->n]);
	return &s->v[s->n++];
}

static void strs_fini(struct strs *s)
{
	for (size_t i = 0; i < s->n; i++)
		qu_buf_fini(&s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/*
 * The description cut into lines of at most @size bytes as the script
 * cuts it: at the last blank, or, with none, one byte short with a
 * backslash.
 */
static void wrap(struct strs *descs, const char *d, size_t len, size_t size)
{
	while (len > size) {
		size_t cut = size, i;
		bool blank = false;

		/* the last blank of the first @size bytes (the script's s///)
		 */
		for (i = size; i > 0; i--)
			if (ws(d[i - 1])) {
				blank = true;
				cut = i - 1;
				break;
			}
		if (!blank) {
			struct qu_buf *b = push(descs);

			cut = size ? size - 1 : 0;
			qu_buf_add(b, d, cut);
			qu_buf_addc(b, '\\');
			d += cut, len -= cut;
			if (!cut)
				break;
			continue;
		}
		qu_buf_add(push(descs), d, cut);
		d += cut, len -= cut;
		while (len && ws(*d))
			d++, len--;
	}
	qu_buf_add(push(descs), d, len);
}

/* get_feat.pl's output_matrix(): a grid table per subsystem. */
static void matrix(struct qu_buf *out, struct feat *f, size_t n,
		   struct feat_sizes *sz)
{
	static const char desc_title[] = "Kconfig / Description";
	static const char notcompat[] = "Not compatible";
	size_t desc_size = sz->kconfig + 4, status_size;
	const char *cur = NULL;
	size_t ncur = 0;

	title(out, "Feature status on all architectures");
	/* the script's $description_size of 1 never wins */
	grow(&desc_size, sz->desc_word);
	grow(&desc_size, sizeof(desc_title) - 1);
	grow(&sz->status, sizeof(notcompat) - 1);
	status_size = sz->status + sz->arch + 6;
	for (size_t i = 0; i < n; i++) {
		struct strs lines = {0}, descs = {0};
		struct qu_buf *line = NULL;
		const char *cs = "";
		size_t ncs = 0, nd = 0;

		if (!cur || bytes_cmp(cur, ncur, f[i].subsys, f[i].nsubsys)) {
			if (cur)
				qu_buf_addc(out, '\n');
			cur = f[i].subsys, ncur = f[i].nsubsys;
			qu_buf_addf(out, "Subsystem: %.*s\n", (int)ncur, cur);
			repeat(out, '=', ncur + 11);
			qu_buf_adds(out, "\n\n");
			matrix_rule(out, sz->name, desc_size, status_size, '-');
			qu_buf_addc(out, '|');
			cell(out, "Feature", 7, sz->name);
			qu_buf_addc(out, '|');
			cell(out, desc_title, sizeof(desc_title) - 1,
			     desc_size);
			qu_buf_addc(out, '|');
			cell(out, "Status per architecture", 23, status_size);
			qu_buf_adds(out, "|\n");
			matrix_rule(out, sz->name, desc_size, status_size, '=');
		}
		qsort(f[i].archs, f[i].narchs, sizeof(*f[i].archs), arch_cmp);
		for (size_t k = 0; k < f[i].narchs; k++) {
			const struct feat_arch *a = &f[i].archs[k];
			const char *st = a->status;
			size_t nst = a->nstatus;

			if (nst == 3 && !memcmp(st, "---", 3))
				st = notcompat, nst = sizeof(notcompat) - 1;
			if (bytes_cmp(st, nst, cs, ncs)) {
				line = push(&lines);
				qu_buf_addf(line, "- **%.*s**: %.*s", (int)nst,
					    st, (int)a->narch, a->arch);
			} else if (line->len + a->narch + 2 < status_size) {
				qu_buf_addf(line, ", %.*s", (int)a->narch,
					    a->arch);
			} else {
				line = push(&lines);
				qu_buf_addf(line, "  %.*s", (int)a->narch,
					    a->arch);
			}
			cs = st, ncs = nst;
		}
		wrap(&descs, f[i].desc ? f[i].desc : "", f[i].ndesc, desc_size);
		while (lines.n < 2 + descs.n)
			push(&lines);
		for (size_t k = 0; k < lines.n; k++) {
			qu_buf_addc(out, '|');
			if (!k) {
				cell(out, f[i].name, f[i].nname, sz->name);
				qu_buf_addf(out, "|``%.*s``",
					    (int)f[i].nkconfig,
					    f[i].kconfig ? f[i].kconfig : "");
				if (f[i].nkconfig + 4 < desc_size)
					repeat(out, ' ',
					       desc_size - f[i].nkconfig - 4);
			} else if (k >= 2 && nd < descs.n) {
				cell(out, "", 0, sz->name);
				qu_buf_addc(out, '|');
				cell(out, descs.v[nd].buf, descs.v[nd].len,
				     desc_size);
				nd++;
			} else {
				cell(out, "", 0, sz->name);
				qu_buf_addc(out, '|');
				cell(out, "", 0, desc_size);
			}
			qu_buf_addc(out, '|');
			cell(out, lines.v[k].buf, lines.v[k].len, status_size);
			qu_buf_adds(out, "|\n");
		}
		matrix_rule(out, sz->name, desc_size, status_size, '-');
		strs_fini(&lines);
		strs_fini(&descs);
	}
}

/* Perl's m,arch-support.txt$,: the '.' is any byte. */
static bool feature_file(const char *rel)
{
	size_t l = strlen(rel);

	return l >= 16 && !memcmp(rel + l - 16, "arch-support", 12) &&
	       !memcmp(rel + l - 3, "txt", 3);
}

void qu_site_feat_rst(struct qu_buf *out, struct qu_diags *diags,
		      const struct qu_site_text *files, size_t n,
		      const char *arch)
{
	struct feat_sizes sz = {7, 7, 11, 9, 6, 0, 0};
	struct feat *f = qu_xcalloc(n + 1, sizeof(*f));
	size_t nf = 0, i, k;

	for (i = 0; i < n; i++) {
		const char *rel = files[i].rel;

		/* the folder's own arch-support.txt is the template */
		if (!feature_file(rel) ||
		    (!strncmp(rel, "arch-support", 12) && rel[12] &&
		     !strncmp(rel + 13, "txt", 3)))
			continue;
		if (!parse(&f[nf], &sz, diags, files[i].path, rel,
			   files[i].text, files[i].len)) {
			free(f[nf].archs);
			continue;
		}
		/* a second file of the same feature replaces the first */
		for (k = 0; k < nf; k++)
			if (f[k].nname == f[nf].nname &&
			    !memcmp(f[k].name, f[nf].name, f[k].nname))
				break;
		if (k < nf) {
			free(f[k].archs);
			f[k] = f[nf];
		} else {
			nf++;
		}
	}
	qsort(f, nf, sizeof(*f), feat_cmp);
	if (arch)
		arch_table(out, f, nf, &sz, arch);
	else
		matrix(out, f, nf, &sz);
	for (i = 0; i < nf; i++)
		free(f[i].archs);
	free(f);
}
