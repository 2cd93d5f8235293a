// SPDX-License-Identifier: MIT
/*
 * source.c - reading one C file whole (source stage)
 *
 * Reads the bytes once; the kernel-doc blocks and exports are found by
 * scanning for "/\*\*" and "EXPORT_" rather than tokenizing the file.
 */
#include <endian.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "source/source.h"

static struct qu_source *source_new(const char *path)
{
	struct qu_source *src = qu_xcalloc(1, sizeof(*src));

	src->path = qu_xstrdup(path);
	qu_arena_init(&src->arena);
	qu_diags_init(&src->diags);
	return src;
}

const char *qu_source_find3(const char *p, const char *end, const char *three)
{
#if defined(__SSE2__)
	const __m128i a = _mm_set1_epi8(three[0]);
	const __m128i b = _mm_set1_epi8(three[1]);
	const __m128i c = _mm_set1_epi8(three[2]);

	/* sixteen candidate positions per step, checked with three loads */
	while (end - p >= 18) {
		__m128i x = _mm_loadu_si128((const __m128i *)p);
		__m128i y = _mm_loadu_si128((const __m128i *)(p + 1));
		__m128i z = _mm_loadu_si128((const __m128i *)(p + 2));
		int m = _mm_movemask_epi8(_mm_and_si128(
			_mm_and_si128(_mm_cmpeq_epi8(x, a), _mm_cmpeq_epi8(y, b)),
			_mm_cmpeq_epi8(z, c)));
		if (m)
			return p + __builtin_ctz((unsigned)m);
		p += 16;
	}
#endif
	if (end - p < 3)
		return NULL;
	return memmem(p, (size_t)(end - p), three, 3);
}

static const char *const export_macros[] = {
#define QU_EXPORT(macro, ref) macro,
#include "exports.def"
#undef QU_EXPORT
};

static bool is_word(unsigned char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/*
 * Find "MACRO(sym" at the start of a line (blanks allowed before it), as
 * scripts/kernel-doc's export pattern does; a memmem for "EXPORT_" keeps
 * this from looking at most of the file.
 */
/* An EXPORT_*( at @hit, if it is one: record it. */
static void try_export(struct qu_source *src, size_t *alloc, const char *hit,
		       uint32_t line)
{
	const char *end = src->data + src->len, *q = hit, *m = hit, *name;
	const char *macro = NULL;
	size_t mlen, nlen;

	if (end - hit < 7 || memcmp(hit, "EXPORT_", 7))
		return;
	while (q > src->data && is_blank(q[-1]))
		q--;
	if (q > src->data && q[-1] != '\n')
		return;
	while (m < end && is_word((unsigned char)*m))
		m++;
	mlen = (size_t)(m - hit);
	for (size_t i = 0; i < QU_ARRAY_SIZE(export_macros); i++)
		if (strlen(export_macros[i]) == mlen &&
		    !memcmp(export_macros[i], hit, mlen))
			macro = export_macros[i];
	if (!macro)
		return;
	while (m < end && is_blank(*m))
		m++;
	if (m >= end || *m != '(')
		return;
	m++;
	while (m < end && is_blank(*m))
		m++;
	name = m;
	while (m < end && is_word((unsigned char)*m))
		m++;
	nlen = (size_t)(m - name);
	while (m < end && is_blank(*m))
		m++;
	if (!nlen || m >= end || (*m != ')' && *m != ','))
		return;
	QU_VEC_GROW(src->exports, src->nexports, *alloc);
	src->exports[src->nexports++] = (struct qu_export){
		.name = qu_arena_strndup(&src->arena, name, nlen),
		.macro = macro,
		.line = line,
	};
}

static void add_doc(struct qu_source *src, size_t *alloc, size_t off,
		    uint32_t line)
{
	QU_VEC_GROW(src->docs, src->ndocs, *alloc);
	src->docs[src->ndocs++] = (struct qu_mark){ off, line };
}

static unsigned popcount16(unsigned x)
{
	x = x - ((x >> 1) & 0x5555);
	x = (x & 0x3333) + ((x >> 2) & 0x3333);
	x = (x + (x >> 4)) & 0x0f0f;
	return (x + (x >> 8)) & 0x1f;
}

/* A diagnostic about the byte at @off, with its line and column. */
static void byte_diag(struct qu_source *src, enum qu_diag_id id, size_t off,
		      const char *msg)
{
	const char *nl = memrchr(src->data, '\n', off);
	size_t col = off - (nl ? (size_t)(nl + 1 - src->data) : 0) + 1;

	qu_diag(&src->diags, id, src->path, qu_source_line_of(src, off),
		(uint32_t)col, "%s", msg);
}

/*
 * NUL bytes make a file binary: reported, and not parsed. Invalid UTF-8
 * is reported once, at its first byte; the text goes on, and the JSON
 * dump shows the bad bytes as U+FFFD. The scan already knows whether any
 * byte is NUL or non-ASCII, so valid ASCII files cost nothing here.
 */
static void check_bytes(struct qu_source *src, bool has_nul, bool has_high)
{
	size_t bad;

	if (has_nul) {
		const char *z = memchr(src->data, '\0', src->len);
		src->binary = true;
		byte_diag(src, QU_W_BINARY, (size_t)(z - src->data),
			  "the file holds NUL bytes and is not parsed");
		return;
	}
	if (has_high && !qu_utf8_valid(src->data, src->len, &bad))
		byte_diag(src, QU_W_INVALID_UTF8, bad,
			  "invalid UTF-8, shown as U+FFFD");
}

/*
 * One pass over the bytes finds every line starting with "/\*\*" and
 * every "EXP", and counts lines on the way: sixteen positions a step
 * with SSE2, so the bytes no comment needs are read once, cheaply.
 */
/*
 * What scan() carries from one loop to the next: the AVX2 loop takes the
 * bulk of the file, the SSE2 loop the rest, and the byte loop the tail.
 */
struct scan_state {
	size_t i;		/* the next byte to read */
	uint32_t line;		/* the line of byte @i */
	size_t adocs, aexp;	/* allocated room in docs and exports */
	bool has_nul, has_high;
};

static unsigned popcount32(uint32_t x)
{
	return popcount16(x & 0xffff) + popcount16(x >> 16);
}

/*
 * The candidates of one step at byte @i: bit b of @doc marks "\n/" and
 * bit b of @ex "EX" at byte i + b; @nl marks the newlines, and @line is
 * the line of byte i. The vector loops test two bytes, not three or
 * four: the third costs a load and two operations on every step, while
 * "\n/" not followed by "**" and "EX" not starting "EXPORT_" are rare
 * (about one in 3,000 steps over the kernel tree), so they are checked
 * here.
 */
static void scan_hits(struct qu_source *src, struct scan_state *st, size_t i,
		      uint32_t line, uint32_t nl, uint32_t doc, uint32_t ex)
{
	const char *d = src->data;

	for (uint32_t ev = doc | ex; ev; ev &= ev - 1) {
		unsigned b = (unsigned)__builtin_ctz(ev);
		uint32_t at = line + popcount32(nl & ((1u << b) - 1));
		size_t k = i + b;

		if ((doc >> b & 1) && k + 3 < src->len && d[k + 2] == '*' &&
		    d[k + 3] == '*')
			add_doc(src, &st->adocs, k + 1, at + 1);
		if (ex >> b & 1)
			try_export(src, &st->aexp, d + k, at);
	}
}

#if defined(__SSE2__) && defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_SCAN_AVX2 1
/*
 * The SSE2 loop below, thirty-two bytes a step: the scan was a fifth of
 * "quire check" over the kernel tree, and AVX2 halves its instructions.
 * It stops 34 bytes before the end (32 + the two bytes a step looks
 * past its block), leaving the rest to the SSE2 loop.
 */
__attribute__((target("avx2"))) static void scan_avx2(struct qu_source *src,
						      struct scan_state *st)
{
	const char *d = src->data;
	size_t n = src->len, i = st->i;
	uint32_t line = st->line;
	const __m256i cnl = _mm256_set1_epi8('\n');
	const __m256i csl = _mm256_set1_epi8('/');
	const __m256i ce = _mm256_set1_epi8('E');
	const __m256i cx = _mm256_set1_epi8('X');
	const __m256i zero = _mm256_setzero_si256();
	__m256i hiacc = zero;
	__m256i minacc = _mm256_set1_epi8(-1); /* a NUL makes a lane zero */

	/* newlines counted in @v's byte lanes, summed */
#define ACC_LINES(v)                                                       \
	({                                                                 \
		__m256i s_ = _mm256_sad_epu8((v), zero);                   \
		__m128i h_ = _mm_add_epi64(_mm256_castsi256_si128(s_),     \
					   _mm256_extracti128_si256(s_, 1)); \
		(uint32_t)_mm_cvtsi128_si32(h_) +                          \
			(uint32_t)_mm_extract_epi16(h_, 4);                \
	})

	while (i + 34 <= n) {
		/* a byte lane counts at most 255 newlines before it wraps */
		size_t steps = (n - 34 - i) / 32 + 1;
		__m256i acc = zero;

		if (steps > 255)
			steps = 255;
		for (; steps; steps--, i += 32) {
			const char *p = d + i;
			__m256i x = _mm256_loadu_si256((const __m256i *)p);
			__m256i y = _mm256_loadu_si256((const __m256i *)(p + 1));
			minacc = _mm256_min_epu8(minacc, x);
			hiacc = _mm256_or_si256(hiacc, x);
			__m256i nlv = _mm256_cmpeq_epi8(x, cnl);
			__m256i docv = _mm256_and_si256(
				nlv, _mm256_cmpeq_epi8(y, csl));
			__m256i exv = _mm256_and_si256(
				_mm256_cmpeq_epi8(x, ce),
				_mm256_cmpeq_epi8(y, cx));

			if (_mm256_movemask_epi8(_mm256_or_si256(docv, exv)))
				scan_hits(src, st, i, line + ACC_LINES(acc),
					  (uint32_t)_mm256_movemask_epi8(nlv),
					  (uint32_t)_mm256_movemask_epi8(docv),
					  (uint32_t)_mm256_movemask_epi8(exv));
			acc = _mm256_sub_epi8(acc, nlv);
		}
		line += ACC_LINES(acc);
	}
#undef ACC_LINES
	st->has_nul |= _mm256_movemask_epi8(
		_mm256_cmpeq_epi8(minacc, zero)) != 0;
	st->has_high |= _mm256_movemask_epi8(hiacc) != 0;
	st->i = i;
	st->line = line;
}
#endif

static void scan(struct qu_source *src)
{
	const char *d = src->data;
	size_t n = src->len;
	struct scan_state st = { .line = 1 };

	if (n >= 3 && !memcmp(d, "/**", 3))
		add_doc(src, &st.adocs, 0, 1);
#if defined(HAVE_SCAN_AVX2)
	if (__builtin_cpu_supports("avx2"))
		scan_avx2(src, &st);
#endif
#if defined(__SSE2__)
	const __m128i cnl = _mm_set1_epi8('\n'), csl = _mm_set1_epi8('/');
	const __m128i ce = _mm_set1_epi8('E'), cx = _mm_set1_epi8('X');
	const __m128i zero = _mm_setzero_si128();
	__m128i acc = zero; /* newlines per byte lane since the last flush */
	unsigned steps = 0;
	__m128i nulacc = zero, hiacc = zero; /* any NUL, any byte >= 0x80 */

	/* 18: a step reads one byte past its block, and two more for a doc start */
	for (; st.i + 18 <= n; st.i += 16) {
		const char *p = d + st.i;
		__m128i x = _mm_loadu_si128((const __m128i *)p);
		__m128i y = _mm_loadu_si128((const __m128i *)(p + 1));
		nulacc = _mm_or_si128(nulacc, _mm_cmpeq_epi8(x, zero));
		hiacc = _mm_or_si128(hiacc, x);
		__m128i nlv = _mm_cmpeq_epi8(x, cnl);
		__m128i docv = _mm_and_si128(nlv, _mm_cmpeq_epi8(y, csl));
		__m128i exv = _mm_and_si128(_mm_cmpeq_epi8(x, ce),
					    _mm_cmpeq_epi8(y, cx));

		if (_mm_movemask_epi8(_mm_or_si128(docv, exv))) {
			/* rare: the exact line of each hit */
			__m128i sum = _mm_sad_epu8(acc, zero);
			uint32_t base = st.line +
				(uint32_t)_mm_cvtsi128_si32(sum) +
				(uint32_t)_mm_extract_epi16(sum, 4);
			scan_hits(src, &st, st.i, base,
				  (uint32_t)_mm_movemask_epi8(nlv),
				  (uint32_t)_mm_movemask_epi8(docv),
				  (uint32_t)_mm_movemask_epi8(exv));
		}
		acc = _mm_sub_epi8(acc, nlv);
		if (++steps == 255) {
			__m128i sum = _mm_sad_epu8(acc, zero);
			st.line += (uint32_t)_mm_cvtsi128_si32(sum) +
				   (uint32_t)_mm_extract_epi16(sum, 4);
			acc = zero;
			steps = 0;
		}
	}
	{
		__m128i sum = _mm_sad_epu8(acc, zero);
		st.line += (uint32_t)_mm_cvtsi128_si32(sum) +
			   (uint32_t)_mm_extract_epi16(sum, 4);
		st.has_nul |= _mm_movemask_epi8(nulacc) != 0;
		st.has_high |= _mm_movemask_epi8(hiacc) != 0;
	}
#else
	st.has_nul = memchr(d, '\0', n) != NULL;
	for (size_t k = 0; k < n && !st.has_high; k++)
		st.has_high = (unsigned char)d[k] >= 0x80;
#endif
	for (size_t i = st.i; i < n; i++) {
		if (!d[i])
			st.has_nul = true;
		else if ((unsigned char)d[i] >= 0x80)
			st.has_high = true;
		if (d[i] == '\n') {
			if (i + 3 < n && d[i + 1] == '/' && d[i + 2] == '*' &&
			    d[i + 3] == '*')
				add_doc(src, &st.adocs, i + 1, st.line + 1);
			st.line++;
		} else if (d[i] == 'E' && i + 2 < n && d[i + 1] == 'X' &&
			   d[i + 2] == 'P') {
			try_export(src, &st.aexp, d + i, st.line);
		}
	}
	/* an order-sensitive hash of every byte: the caches' content key */
	src->hash = qu_hash128(d, n);
	check_bytes(src, st.has_nul, st.has_high);
}

static void source_index(struct qu_source *src)
{
	scan(src);
}

size_t qu_source_count_lines(const char *p, size_t len)
{
	const uint64_t ones = 0x0101010101010101ull;
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
	size_t n = 0, i = 0;

	/* a byte of w ^ "\n\n.." is zero exactly where a newline is */
	for (; i + 8 <= len; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		w ^= ones * '\n';
		uint64_t t = ((w & low7) + low7) | w;
		/* one bit per newline byte, summed by a multiply */
		n += (size_t)((((~t & (ones << 7)) >> 7) * ones) >> 56);
	}
	for (; i < len; i++)
		n += p[i] == '\n';
	return n;
}

void qu_source_index_lines(struct qu_source *src)
{
	if (!src->lines.n)
		qu_lines_init(&src->lines, src->data, src->len);
}

uint32_t qu_source_line_of(const struct qu_source *src, size_t off)
{
	if (src->lines.n)
		return qu_lines_find(&src->lines, off);
	return 1 + (uint32_t)qu_source_count_lines(src->data, off);
}

static bool read_exact(const char *path, char **data_out, size_t *len_out)
{
	struct stat st;
	char *data;
	ssize_t n;
	int fd;

	/*
	 * O_NONBLOCK: a FIFO's open() would wait for a writer; anything but
	 * a regular file goes to qu_file_read(), which refuses it.
	 */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
	    (uint64_t)st.st_size >= (uint64_t)SIZE_MAX / 2) {
		close(fd);
		return false;
	}
	data = qu_xmalloc((size_t)st.st_size + 1);
	n = read(fd, data, (size_t)st.st_size + 1);
	close(fd);
	if (n != st.st_size) {
		free(data);
		return false;
	}
	data[n] = '\0';
	*data_out = data;
	*len_out = (size_t)n;
	return true;
}

int qu_source_read(struct qu_source **out, struct qu_job *job,
		   const char *path)
{
	struct qu_buf b = QU_BUF_INIT;
	struct qu_source *src;
	char *data;
	size_t len;

	/*
	 * read() rather than mmap(): a mapping costs a page-table setup and
	 * teardown per file, while freed read buffers are reused by malloc;
	 * over the kernel tree read() spent a sixth less time. A regular
	 * file is read into a buffer of its exact size in one call; anything
	 * else (a pipe, a file that changes size) goes the general way.
	 */
	if (!read_exact(path, &data, &len)) {
		if (qu_file_read(&b, path, &job->err) < 0) {
			qu_buf_fini(&b);
			*out = NULL;
			return -1;
		}
		data = qu_buf_detach(&b, &len);
	}
	src = source_new(path);
	src->data = data;
	src->len = len;
	source_index(src);
	*out = src;
	return 0;
}

struct qu_source *qu_source_from_mem(const char *path, const char *data,
				     size_t len)
{
	struct qu_source *src = source_new(path);

	src->data = qu_xmalloc(len + 1);
	memcpy(src->data, data, len);
	src->data[len] = '\0';
	src->len = len;
	source_index(src);
	return src;
}

void qu_source_free(struct qu_source *src)
{
	if (!src)
		return;
	qu_lines_fini(&src->lines);
	free(src->exports);
	free(src->docs);
	qu_arena_fini(&src->arena);
	qu_diags_fini(&src->diags);
	free(src->data);
	free(src->path);
	free(src);
}

const char *qu_source_find_doc(const char *p, const char *end)
{
	const char *hit;

	while ((hit = qu_source_find3(p, end, "\n/*"))) {
		if (end - hit >= 4 && hit[3] == '*')
			return hit;
		p = hit + 1;
	}
	return NULL;
}

bool qu_source_is_doc_start(const char *p, size_t len)
{
	if (len < 3 || memcmp(p, "/**", 3))
		return false;
	for (size_t i = 3; i < len; i++)
		if (!is_blank(p[i]) && p[i] != '\n')
			return false;
	return true;
}

/*
 * The declaration the reference reads after a comment: up to the first
 * ";" or "{" outside parentheses, or the end of a #define line.
 */
static size_t decl_end(const struct qu_source *src, size_t pos)
{
	struct qu_lexer lx;
	struct qu_token t;
	int depth = 0;

	qu_lexer_init(&lx, src->data + pos, src->len - pos);
	while (qu_lexer_next(&t, &lx)) {
		const char *s = src->data + pos + t.off;

		if (t.kind == QU_TOK_PREPROC) {
			if (t.len >= 7 && memmem(s, t.len, "define", 6))
				return pos + t.off + t.len;
			continue;
		}
		if (t.kind != QU_TOK_PUNCT)
			continue;
		if (*s == '(')
			depth++;
		else if (*s == ')' && depth > 0)
			depth--;
		else if ((*s == ';' || *s == '{') && depth == 0)
			return pos + t.off + 1;
	}
	return src->len;
}

bool qu_source_next_block(struct qu_block *out, const struct qu_source *src,
			  size_t *pos)
{
	const char *p = src->data + *pos, *end = src->data + src->len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *close;

		if (!eol)
			eol = end;
		if (!qu_source_is_doc_start(p, (size_t)(eol - p))) {
			const char *hit = qu_source_find_doc(eol, end);
			if (!hit)
				break;
			p = hit + 1;
			continue;
		}
		out->start = (size_t)(p - src->data);
		out->line = qu_source_line_of(src, out->start);
		close = memmem(p + 3, (size_t)(end - p - 3), "*/", 2);
		out->terminated = close != NULL;
		out->end = close ? (size_t)(close + 2 - src->data) : src->len;
		eol = memchr(src->data + out->end, '\n',
			     src->len - out->end);
		out->decl_start = eol ? (size_t)(eol + 1 - src->data)
				      : src->len;
		out->decl_end = decl_end(src, out->decl_start);
		*pos = out->end;
		return true;
	}
	*pos = src->len;
	return false;
}

/* Escape a span so a dump shows one token or block per line. */
static void add_escaped(struct qu_buf *out, const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)p[i];
		if (ch == '\n')
			qu_buf_adds(out, "\\n");
		else if (ch == '\r')
			qu_buf_adds(out, "\\r");
		else if (ch == '\t')
			qu_buf_adds(out, "\\t");
		else if (ch == '\\')
			qu_buf_adds(out, "\\\\");
		else if (ch < 0x20 || ch == 0x7f)
			qu_buf_addf(out, "\\x%02x", ch);
		else
			qu_buf_addc(out, (char)ch);
	}
}

void qu_source_dump_tokens(struct qu_buf *out, const char *p, size_t len)
{
	struct qu_lexer lx;
	struct qu_token t;

	qu_lexer_init(&lx, p, len);
	while (qu_lexer_next(&t, &lx)) {
		qu_buf_addf(out, "%s ", qu_tok_kind_name(t.kind));
		add_escaped(out, p + t.off, t.len);
		qu_buf_addc(out, '\n');
	}
}

void qu_source_dump_blocks(struct qu_buf *out, const struct qu_source *src)
{
	struct qu_block b;
	size_t pos = 0;

	for (size_t i = 0; i < src->nexports; i++)
		qu_buf_addf(out, "export %u %s %s\n", src->exports[i].line,
			    src->exports[i].macro, src->exports[i].name);
	while (qu_source_next_block(&b, src, &pos)) {
		qu_buf_addf(out, "block %u%s\n  decl ", b.line,
			    b.terminated ? "" : " unterminated");
		add_escaped(out, src->data + b.decl_start,
			    b.decl_end - b.decl_start);
		qu_buf_addc(out, '\n');
	}
}
