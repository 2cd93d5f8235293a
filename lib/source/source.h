/* SPDX-License-Identifier: MIT */
/*
 * source.h - reading C text without a preprocessor
 *
 * In: the bytes of one C file. Out: a struct qu_source with the file's
 * kernel-doc blocks (each kernel-doc comment with its exact position and the
 * declaration text that follows it) and its EXPORT_SYMBOL*() uses, plus a
 * C tokenizer that never fails (also used to highlight code). Included by
 * lib/kdoc and later stages; it does not interpret comment text.
 */
#ifndef QU_SOURCE_SOURCE_H
#define QU_SOURCE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

/**
 * struct qu_export - one EXPORT_SYMBOL*() use
 * @name: the exported symbol
 * @macro: the macro's name as written ("EXPORT_SYMBOL_GPL", …); static
 *	storage, one of the rows of lib/source/exports.def
 * @line: 1-based line of the use
 */
struct qu_export {
	const char *name;
	const char *macro;
	uint32_t line;
};

/**
 * struct qu_mark - a place in a source
 * @off: byte offset
 * @line: 1-based line of @off
 */
struct qu_mark {
	size_t off;
	uint32_t line;
};

/**
 * struct qu_source - one C file, read whole
 * @path: the file as the user named it; owned
 * @data: the bytes, NUL-terminated (the file itself may hold NULs)
 * @len: how many bytes
 * @hash: a 64-bit hash of the bytes (XXH3), sensitive to their order;
 *	stable across runs and machines
 * @lines: the line index of @data; empty until qu_source_index_lines()
 *	builds it (parsing does not need it, and indexing 10 million lines
 *	would cost more than finding every comment)
 * @docs: the start of every line that begins with "/\*\*", in file order
 *	(candidates: qu_source_is_doc_start() says which open a comment)
 * @ndocs: how many
 * @exports: the EXPORT_SYMBOL*() uses, in file order
 * @nexports: how many
 * @arena: owns @exports and their strings
 * @diags: diagnostics about the bytes themselves (binary, invalid UTF-8);
 *	the caller moves them to its output
 * @binary: the file holds NUL bytes; qu_kdoc_parse() then finds nothing
 *
 * The kernel-doc blocks are found on demand by qu_source_next_block().
 */
struct qu_source {
	char *path;
	char *data;
	size_t len;
	uint64_t hash;
	struct qu_lines lines;
	struct qu_mark *docs;
	size_t ndocs;
	struct qu_export *exports;
	size_t nexports;
	struct qu_arena arena;
	struct qu_diags diags;
	bool binary;
};

/**
 * qu_source_read() - read one C file and collect its exports
 * @out: the new source on success; the caller frees it (qu_source_free())
 * @job: the worker's context; an environment error's message goes to
 *	@job->err
 * @path: the file
 *
 * Context: thread-safe for distinct @job values.
 * Return: 0, or -1 if the file cannot be read (message in @job->err).
 */
int qu_source_read(struct qu_source **out, struct qu_job *job,
		   const char *path);

/**
 * qu_source_from_mem() - make a source from bytes already in memory
 * @path: the name to report
 * @data: the bytes; copied
 * @len: how many
 *
 * Used by the fuzzers and the tests.
 *
 * Return: the new source; the caller frees it (qu_source_free()).
 */
struct qu_source *qu_source_from_mem(const char *path, const char *data,
				     size_t len);

/**
 * qu_source_free() - free a source
 * @src: the source, or NULL
 */
void qu_source_free(struct qu_source *src);



/* Tokens ------------------------------------------------------------------ */

/**
 * enum qu_tok_kind - the class of a token
 * @QU_TOK_SPACE: blanks and newlines, including backslash-newline splices
 * @QU_TOK_COMMENT: a block or line comment, delimiters included; an
 *	unterminated block comment runs to the end of the input
 * @QU_TOK_PREPROC: a whole preprocessor line, from "#" to the newline
 *	that is not spliced away (comments inside included)
 * @QU_TOK_KEYWORD: a C keyword or GNU extension keyword (struct, static,
 *	__attribute__, ...)
 * @QU_TOK_TYPE: a word that names a basic or common kernel type (int,
 *	unsigned, u32, size_t, ...), for highlighting only
 * @QU_TOK_IDENT: any other identifier
 * @QU_TOK_NUMBER: a preprocessing number (0x1f, 1e-3, 10UL)
 * @QU_TOK_STRING: a string literal with its prefix; an unterminated one
 *	ends at the end of its line
 * @QU_TOK_CHAR: a character literal, same rules as strings
 * @QU_TOK_PUNCT: an operator or punctuator (longest match), or any single
 *	byte no other class takes (NUL, stray bytes, invalid UTF-8)
 */
enum qu_tok_kind {
	QU_TOK_SPACE,
	QU_TOK_COMMENT,
	QU_TOK_PREPROC,
	QU_TOK_KEYWORD,
	QU_TOK_TYPE,
	QU_TOK_IDENT,
	QU_TOK_NUMBER,
	QU_TOK_STRING,
	QU_TOK_CHAR,
	QU_TOK_PUNCT,
};

/**
 * struct qu_token - one token, as a span of the input
 * @kind: its class
 * @off: offset of its first byte in the lexer's input
 * @len: its length in bytes; never 0
 */
struct qu_token {
	enum qu_tok_kind kind;
	size_t off;
	size_t len;
};

/**
 * struct qu_lexer - the state of a tokenizer over a span of bytes
 * @p: the bytes (not owned, need not be NUL-terminated)
 * @len: how many
 * @pos: offset of the next token
 * @bol: whether only blanks and comments precede @pos on its line, which
 *	is where "#" starts a preprocessor line
 */
struct qu_lexer {
	const char *p;
	size_t len;
	size_t pos;
	bool bol;
};

/**
 * qu_lexer_init() - start tokenizing bytes
 * @lx: the lexer
 * @p: the bytes; any content (NULs, CRLF, invalid UTF-8) is accepted
 * @len: how many
 *
 * The tokens cover every byte exactly once, in order, so a highlighter
 * can write them back and get its input.
 */
void qu_lexer_init(struct qu_lexer *lx, const char *p, size_t len);

/**
 * qu_lexer_next() - the next token
 * @out: receives the token
 * @lx: the lexer
 *
 * Never fails on any input; every call consumes at least one byte.
 * Context: thread-safe for distinct @lx.
 * Return: false at the end of the input.
 */
bool qu_lexer_next(struct qu_token *out, struct qu_lexer *lx);

/**
 * qu_tok_kind_name() - a token class's name ("keyword", "ident", ...)
 * @kind: the class
 *
 * Return: static storage; usable as a CSS class.
 */
const char *qu_tok_kind_name(enum qu_tok_kind kind);

/* Blocks and exports ----------------------------------------------------- */

/**
 * struct qu_block - one kernel-doc comment and the declaration after it
 * @start: offset of the comment's "/" of "/\*\*"
 * @end: offset just past the comment's closing "*\/" (or the file's end)
 * @decl_start: offset of the first byte after the comment's last line
 * @decl_end: offset where the declaration text the reference would read
 *	ends (the first ";" or "{" at depth 0 for a function, the end of the
 *	"};" for a struct, the end of a #define line, ...); equal to
 *	@decl_start when nothing follows
 * @line: 1-based line of @start
 * @terminated: false when the comment runs to the end of the file
 */
struct qu_block {
	size_t start;
	size_t end;
	size_t decl_start;
	size_t decl_end;
	uint32_t line;
	bool terminated;
};

/**
 * qu_source_next_block() - find the next kernel-doc comment
 * @out: receives the block
 * @src: the source
 * @pos: where to start looking; advanced past the block on success
 *
 * A kernel-doc comment is a line whose first non-blank bytes are "/\*\*"
 * followed by a blank or the end of the line, as scripts/kernel-doc finds
 * them.
 *
 * Context: thread-safe; @src is not modified.
 * Return: true when a block was found.
 */
bool qu_source_next_block(struct qu_block *out, const struct qu_source *src,
			  size_t *pos);

/**
 * qu_source_is_doc_start() - whether a line opens a kernel-doc comment
 * @p: the line, without its newline
 * @len: its length
 *
 * True for "/\*\*" at the very start of the line followed only by blanks,
 * scripts/kernel-doc's rule (an indented "/\*\*" opens an in-line member
 * comment instead).
 *
 * Return: true when it does.
 */
bool qu_source_is_doc_start(const char *p, size_t len);

/**
 * qu_source_index_lines() - build @src->lines if it is not built yet
 * @src: the source
 *
 * Context: not thread-safe for the same @src.
 */
void qu_source_index_lines(struct qu_source *src);

/**
 * qu_source_find3() - find three bytes
 * @p: where to start
 * @end: the end of the bytes
 * @three: the three bytes to find (a prefix of a longer needle)
 *
 * memmem() for a three-byte needle, sixteen positions a step where SSE2
 * exists: the scans for "\n/\*\*" and "EXPORT_" are most of the time
 * spent on a file with few comments.
 *
 * Return: the first match, or NULL.
 */
const char *qu_source_find3(const char *p, const char *end, const char *three);

/**
 * qu_source_find_doc() - find the next "\n/\*\*"
 * @p: where to start
 * @end: the end of the bytes
 *
 * Return: the newline before the next line starting with "/\*\*", or NULL.
 */
const char *qu_source_find_doc(const char *p, const char *end);

/**
 * qu_source_count_lines() - count the newlines in a span of bytes
 * @p: the bytes
 * @len: how many
 *
 * Eight bytes at a time; used to turn offsets into line numbers without
 * a line index when the offsets come in increasing order.
 *
 * Return: the number of "\n" bytes.
 */
size_t qu_source_count_lines(const char *p, size_t len);

/**
 * qu_source_line_of() - the 1-based line holding an offset
 * @src: the source
 * @off: the offset
 *
 * Uses @src->lines when built, otherwise counts from the start.
 *
 * Return: the line.
 */
uint32_t qu_source_line_of(const struct qu_source *src, size_t off);

/**
 * qu_source_dump_tokens() - append one line per token: its class and text
 * @out: the buffer
 * @p: the bytes to tokenize
 * @len: how many
 *
 * Newlines, tabs, backslashes and control bytes in the text are escaped
 * (\\n, \\t, \\\\, \\xNN). For golden tests.
 */
void qu_source_dump_tokens(struct qu_buf *out, const char *p, size_t len);

/**
 * qu_source_dump_blocks() - append a source's exports and blocks as text
 * @out: the buffer
 * @src: the source
 *
 * One "export LINE MACRO NAME" line per export, then per block a
 * "block LINE" line and the declaration text after it, escaped as in
 * qu_source_dump_tokens(). For golden tests.
 */
void qu_source_dump_blocks(struct qu_buf *out, const struct qu_source *src);

#endif /* QU_SOURCE_SOURCE_H */
