/* SPDX-License-Identifier: MIT */
/*
 * man_int.h - what the files of lib/man share: the roff writer that
 * text.c fills from Markdown and page.c from items. Included by
 * the files of lib/man only.
 */
#ifndef QU_MAN_MAN_INT_H
#define QU_MAN_MAN_INT_H

#include "man/man.h"

/**
 * struct man_w - one page being written
 * @b: the page's roff source
 * @set: the set, to resolve references for SEE ALSO
 * @self: the page's own index in @set, never listed as a reference
 * @refs: indices of the pages the text references, in order of first
 *	use, at most %QU_MAN_SEE_ALSO_MAX
 * @nrefs: how many
 * @fresh: nothing was written since the last .SH, .SS, .IP or .PP, so a
 *	paragraph break would be an empty paragraph (mandoc warns)
 * @in_ip: text is inside an indented paragraph (.IP): a paragraph break
 *	there is another .IP, which keeps the indentation
 * @nofill: lines are in no-fill mode (.nf, .EX): an empty one is kept,
 *	and a long one is split with "\\c" rather than at a blank
 */
struct man_w {
	struct qu_buf *b;
	const struct qu_man_set *set;
	size_t self;
	size_t refs[QU_MAN_SEE_ALSO_MAX];
	size_t nrefs;
	bool fresh;
	bool in_ip;
	bool nofill;
};

/* Longest input line written: mandoc -Tlint warns beyond 80 bytes. */
#define MAN_LINE_MAX 80

/**
 * enum man_esc - how man_escape() treats the text
 * @MAN_ESC_TEXT: prose: a hyphen between letters stays a hyphen
 * @MAN_ESC_CODE: code: every "-" is a minus, quotes and carets are the
 *	ASCII characters, not typographic ones
 * @MAN_ESC_ARG: a quoted macro argument: as prose, and '"' escaped
 */
enum man_esc {
	MAN_ESC_TEXT,
	MAN_ESC_CODE,
	MAN_ESC_ARG,
};

/* Appends @p as roff text: backslashes, hyphens, non-ASCII escaped. */
void man_escape(struct qu_buf *b, const char *p, size_t n, enum man_esc esc);

/*
 * Ends the text line that began at offset @start of the page: trailing
 * blanks dropped, a leading "." or "'" (which would make it a request)
 * guarded with "\&", nothing at all for an empty line.
 */
/*
 * man_request_fit() - shorten the quoted argument of the request line at
 * @start (its text begins at @arg, the line ends in '"' and a newline) to
 * MAN_LINE_MAX bytes, at an escape's boundary, with an ellipsis: a request
 * cannot be continued on the next line.
 */
void man_request_fit(struct qu_buf *b, size_t start, size_t arg);
void man_line_end(struct man_w *w, size_t start);

/* Appends one line of Markdown with its highlights as roff inline text. */
void man_inline(struct man_w *w, const char *p, size_t n);

/* Appends a Markdown body (a description or a section) as roff blocks. */
void man_blocks(struct man_w *w, const char *text);

/* Notes a reference to the page called @name (len @n), if the set has it. */
void man_ref(struct man_w *w, const char *name, size_t n);

#endif /* QU_MAN_MAN_INT_H */
