// SPDX-License-Identifier: MIT
/*
 * lex.c - a C tokenizer that classifies every byte and never fails
 * (source stage)
 *
 * Used on the few bytes that matter (a declaration after a kernel-doc
 * comment, a code block the renderer highlights), never on a whole file.
 * Every byte belongs to exactly one token, so concatenating the tokens
 * gives the input back; bytes that fit no class become one-byte
 * punctuation, which is how NULs and invalid UTF-8 pass through.
 */
#include <string.h>

#include "source/source.h"

/*
 * Keywords and the words that name types, for highlighting; each list
 * sorted by bytes, for in_list()'s binary search.
 */
static const char *const keywords[] = {
	"_Alignas", "_Alignof", "_Atomic", "_Generic", "_Noreturn",
	"_Static_assert", "_Thread_local", "__asm__", "__attribute__",
	"__inline", "__inline__", "__restrict", "__typeof__", "__volatile__",
	"asm", "auto", "break", "case", "const", "continue", "default", "do",
	"else", "enum", "extern", "for", "goto", "if", "inline", "register",
	"restrict", "return", "sizeof", "static", "struct", "switch",
	"typedef", "typeof", "union", "volatile", "while",
};

static const char *const types[] = {
	"_Bool", "_Complex", "__be16", "__be32", "__be64", "__le16", "__le32",
	"__le64", "__s16", "__s32", "__s64", "__s8", "__u16", "__u32",
	"__u64", "__u8", "atomic64_t", "atomic_t", "bool", "char",
	"dma_addr_t", "double", "float", "gfp_t", "gid_t", "int", "int16_t",
	"int32_t", "int64_t", "int8_t", "intptr_t", "loff_t", "long", "off_t",
	"phys_addr_t", "pid_t", "refcount_t", "resource_size_t", "s16", "s32",
	"s64", "s8", "short", "signed", "size_t", "ssize_t", "u16", "u32",
	"u64", "u8", "uid_t", "uint16_t", "uint32_t", "uint64_t", "uint8_t",
	"uintptr_t", "umode_t", "unsigned", "void",
};

/* Whether the @len bytes at @p are a word of @list (@n words, sorted). */
static bool in_list(const char *const *list, size_t n, const char *p,
		    size_t len)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, k = 0;
		const unsigned char *e = (const unsigned char *)list[mid];
		int r;

		while (k < len && e[k] == (unsigned char)p[k])
			k++;
		/* a word that is a prefix of another sorts first */
		if (k == len)
			r = e[k] ? -1 : 0;
		else
			r = (unsigned char)p[k] - e[k];
		if (!r)
			return true;
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

static inline bool is_ident(unsigned char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c >= 0x80 || c == '$';
}

void qu_lexer_init(struct qu_lexer *lx, const char *p, size_t len)
{
	lx->p = p;
	lx->len = len;
	lx->pos = 0;
	lx->bol = true;
}

/* Skip a backslash-newline pair (or backslash-CR-LF) at @i, if any. */
static size_t splice(const struct qu_lexer *lx, size_t i)
{
	while (i < lx->len && lx->p[i] == '\\') {
		if (i + 1 < lx->len && lx->p[i + 1] == '\n')
			i += 2;
		else if (i + 2 < lx->len && lx->p[i + 1] == '\r' &&
			 lx->p[i + 2] == '\n')
			i += 3;
		else
			break;
	}
	return i;
}

static size_t skip_block_comment(const struct qu_lexer *lx, size_t i)
{
	const char *end = NULL;

	if (i < lx->len)
		end = memmem(lx->p + i, lx->len - i, "*/", 2);
	return end ? (size_t)(end - lx->p) + 2 : lx->len;
}

/* A quoted literal ends at its closing quote or, unterminated, at the line. */
static size_t skip_quoted(const struct qu_lexer *lx, size_t i, char q)
{
	while (i < lx->len) {
		char c = lx->p[i];
		if (c == '\\' && i + 1 < lx->len) {
			i += 2;
			continue;
		}
		if (c == '\n')
			return i;
		i++;
		if (c == q)
			return i;
	}
	return i;
}

/*
 * Classes are tried in the order that makes them unambiguous: blanks
 * (with splices) first, comments before "/" as an operator, "#" only at
 * the start of a line, literals before identifiers only for their
 * prefixes (L"", u8""), and longest-match operators last.
 */
bool qu_lexer_next(struct qu_token *out, struct qu_lexer *lx)
{
	size_t i = lx->pos, start = i;
	const char *p = lx->p;
	unsigned char c;

	if (i >= lx->len)
		return false;
	c = (unsigned char)p[i];
	out->off = start;
	if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	    c == '\v' || (c == '\\' && splice(lx, i) != i)) {
		while (i < lx->len) {
			size_t j = splice(lx, i);
			if (j != i) {
				i = j;
				continue;
			}
			c = (unsigned char)p[i];
			if (c == '\n')
				lx->bol = true;
			else if (!(c == ' ' || c == '\t' || c == '\r' ||
				   c == '\f' || c == '\v'))
				break;
			i++;
		}
		out->kind = QU_TOK_SPACE;
	} else if (c == '/' && i + 1 < lx->len && p[i + 1] == '*') {
		i = skip_block_comment(lx, i + 2);
		out->kind = QU_TOK_COMMENT;
	} else if (c == '/' && i + 1 < lx->len && p[i + 1] == '/') {
		while (i < lx->len && p[i] != '\n') {
			size_t j = splice(lx, i);
			i = j != i ? j : i + 1;
		}
		out->kind = QU_TOK_COMMENT;
	} else if (c == '#' && lx->bol) {
		/* A directive runs to a newline not spliced away; a block
		 * comment inside it may span lines. */
		while (i < lx->len && p[i] != '\n') {
			size_t j = splice(lx, i);
			if (j != i)
				i = j;
			else if (p[i] == '/' && i + 1 < lx->len &&
				 p[i + 1] == '*')
				i = skip_block_comment(lx, i + 2);
			else
				i++;
		}
		out->kind = QU_TOK_PREPROC;
	} else if (c == '"' || c == '\'') {
		i = skip_quoted(lx, i + 1, (char)c);
		out->kind = c == '"' ? QU_TOK_STRING : QU_TOK_CHAR;
	} else if ((c >= '0' && c <= '9') ||
		   (c == '.' && i + 1 < lx->len && p[i + 1] >= '0' &&
		    p[i + 1] <= '9')) {
		/* pp-number: digits, letters, dots, and signed exponents */
		i++;
		while (i < lx->len) {
			c = (unsigned char)p[i];
			if ((c == '+' || c == '-') &&
			    strchr("eEpP", p[i - 1]))
				i++;
			else if (is_ident(c) || c == '.' || c == '\'')
				i++;
			else
				break;
		}
		out->kind = QU_TOK_NUMBER;
	} else if (is_ident(c) && !(c >= '0' && c <= '9')) {
		while (i < lx->len && is_ident((unsigned char)p[i]))
			i++;
		/* L"", u8"" and friends are string prefixes */
		if (i < lx->len && (p[i] == '"' || p[i] == '\'') &&
		    i - start <= 2 && strchr("LuU8", p[start])) {
			char q = p[i];
			i = skip_quoted(lx, i + 1, q);
			out->kind = q == '"' ? QU_TOK_STRING : QU_TOK_CHAR;
		} else if (in_list(keywords, QU_ARRAY_SIZE(keywords),
				   p + start, i - start)) {
			out->kind = QU_TOK_KEYWORD;
		} else if (in_list(types, QU_ARRAY_SIZE(types), p + start,
				   i - start)) {
			out->kind = QU_TOK_TYPE;
		} else {
			out->kind = QU_TOK_IDENT;
		}
	} else {
		static const char *const ops3[] = { "<<=", ">>=", "..." };
		static const char *const ops2[] = {
			"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
			"&&", "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=",
			"|=", "##",
		};
		size_t n = 1;

		/* every longer operator starts with one of these */
		if (strchr("-+<>=!&|*/%^#.", c) && c) {
			for (size_t k = 0; n == 1 && k < QU_ARRAY_SIZE(ops3);
			     k++)
				if (i + 3 <= lx->len &&
				    !memcmp(p + i, ops3[k], 3))
					n = 3;
			for (size_t k = 0; n == 1 && k < QU_ARRAY_SIZE(ops2);
			     k++)
				if (i + 2 <= lx->len &&
				    !memcmp(p + i, ops2[k], 2))
					n = 2;
		}
		i += n;
		out->kind = QU_TOK_PUNCT;
	}
	if (out->kind != QU_TOK_SPACE && out->kind != QU_TOK_COMMENT)
		lx->bol = false;
	out->len = i - start;
	lx->pos = i;
	return true;
}

const char *qu_tok_kind_name(enum qu_tok_kind kind)
{
	static const char *const names[] = {
		[QU_TOK_SPACE] = "space",	[QU_TOK_COMMENT] = "comment",
		[QU_TOK_PREPROC] = "preproc",	[QU_TOK_KEYWORD] = "keyword",
		[QU_TOK_TYPE] = "type",		[QU_TOK_IDENT] = "ident",
		[QU_TOK_NUMBER] = "number",	[QU_TOK_STRING] = "string",
		[QU_TOK_CHAR] = "char",		[QU_TOK_PUNCT] = "punct",
	};

	return names[kind];
}
