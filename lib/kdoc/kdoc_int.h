/* SPDX-License-Identifier: MIT */
/*
 * kdoc_int.h - what the steps of the kdoc stage share; included only by the
 * files of lib/kdoc
 *
 * The parser is scripts/kernel-doc's line state machine (comment.c) feeding
 * its declaration dumpers (decl.c) and cross-checks (check.c); the state
 * that script keeps in ninety globals lives in struct kdoc_ctx.
 */
#ifndef QU_KDOC_KDOC_INT_H
#define QU_KDOC_KDOC_INT_H

#include "kdoc/kdoc.h"
#include "source/source.h"

/* The states of scripts/kernel-doc's process_file(). */
enum kdoc_state {
	ST_NORMAL,
	ST_NAME,
	ST_BODY_MAYBE,
	ST_BODY,
	ST_BODY_WITH_BLANK_LINE,
	ST_PROTO,
	ST_DOCBLOCK,
	ST_INLINE,
};

enum kdoc_inline_state {
	INL_NA,
	INL_NAME,
	INL_TEXT,
	INL_ERROR,
};

/* What the comment's first line announced (scripts/kernel-doc $decl_type). */
enum kdoc_decl_type {
	DT_NONE,
	DT_FUNCTION,
	DT_STRUCT,
	DT_UNION,
	DT_ENUM,
	DT_TYPEDEF,
};

/* A described parameter, member or value (@name: text). */
struct kdoc_desc {
	const char *name;
	const char *text;
	uint32_t line;
};

/*
 * A parameter of the declaration, as push_parameter() records it; a named
 * variadic macro argument ("args...") is @name "args" with @variadic set
 * and the text as written in @type. @text is the whole declaration the
 * parameter came from, for the item's one-line declaration.
 */
struct kdoc_param {
	const char *name;
	const char *type;
	bool has_type;
	bool variadic;
	const char *text;
};

/**
 * struct kdoc_ctx - the parser's state for one file
 * @src: the source
 * @u: the unit being filled
 * @verbose: give the -v warnings too
 * @a: @u's arena, where every kept string goes
 * @line: 1-based line of the logical line being read (its last physical
 *	line, as Perl's $. after joining continuations)
 * @ln: the logical line: continuations joined, tabs expanded, no newline
 * @has_nl: whether @ln ended with a newline
 * @state: where the line state machine is (the reference's $state)
 * @inline_state: where an in-line member comment is
 * @decl_type: what the comment's first line named (function, struct, …)
 * @in_doc_sect: a section heading has been seen in this comment
 * @leading_space_set: @leading_space holds the section's indentation
 * @anon_struct_union: the last member parsed was an anonymous aggregate
 * @brcount: brace depth while a prototype is collected
 * @new_start_line: line where the current section's text starts
 * @comment_line: line of the comment's opening
 * @proto_line: line where the declaration starts
 * @identifier: the name the comment's first line gives
 * @purpose: the short description
 * @section: the current section's title
 * @contents: the current section's text so far
 * @leading_space: indentation removed from the section's lines
 * @prototype: the declaration collected after the comment
 * @tmp: scratch for one step
 * @s_arg: scratch for decl.c: one argument
 * @s_b: scratch for decl.c
 * @s_type: scratch for decl.c: a type
 * @s_t2: scratch for decl.c
 * @s_attr: scratch for decl.c: attributes cut out
 * @s_decl: scratch for decl.c: the normalized declaration
 * @fields: a struct body split into members
 * @afields: slots allocated in @fields
 * @descs: the parameter descriptions of the comment, in order
 * @ndescs: how many
 * @adescs: how many allocated
 * @descmap: parameter name to its entry in @descs
 * @names: kdoc_check_sections()'s set of names, kept for reuse
 * @sects: the titled sections of the comment
 * @nsects: how many
 * @asects: how many allocated
 * @sectcheck: parameter names described, for the excess check
 * @nsectcheck: how many
 * @asectcheck: how many allocated
 * @params: the declaration's parameters or members
 * @nparams: how many
 * @aparams: how many allocated
 * @outputs: items output so far (for "no structured comments found")
 * @items: the finished items
 * @nitems: how many
 * @aitems: how many allocated
 */
struct kdoc_ctx {
	const struct qu_source *src;
	struct qu_unit *u;
	bool verbose;
	struct qu_arena *a;

	uint32_t line;
	struct qu_buf ln;
	bool has_nl;

	enum kdoc_state state;
	enum kdoc_inline_state inline_state;
	enum kdoc_decl_type decl_type;
	bool in_doc_sect;
	bool leading_space_set;
	bool anon_struct_union;
	int brcount;
	uint32_t new_start_line;
	uint32_t comment_line;
	uint32_t proto_line;

	struct qu_buf identifier;
	struct qu_buf purpose;
	struct qu_buf section;
	struct qu_buf contents;
	struct qu_buf leading_space;
	struct qu_buf prototype;
	struct qu_buf tmp;
	/* scratch for decl.c, reused so a parameter costs no malloc() */
	struct qu_buf s_arg, s_b, s_type, s_t2, s_attr, s_decl;
	char **fields;
	size_t afields;

	struct kdoc_desc *descs;
	size_t ndescs, adescs;
	struct qu_map descmap;
	struct qu_map names;	/* kdoc_check_sections()'s, kept for reuse */
	struct qu_section *sects;
	size_t nsects, asects;
	const char **sectcheck;
	size_t nsectcheck, asectcheck;
	struct kdoc_param *params;
	size_t nparams, aparams;

	size_t outputs;
	struct qu_item *items;
	size_t nitems, aitems;
};

/* comment.c */
void kdoc_run(struct kdoc_ctx *c);
void kdoc_reset(struct kdoc_ctx *c);

/* decl.c */
void kdoc_dump_function(struct kdoc_ctx *c);
void kdoc_dump_declaration(struct kdoc_ctx *c);
void kdoc_param_list(struct kdoc_ctx *c, char *args, char splitter,
		     const char *decl_name);

/* check.c */
void kdoc_check_sections(struct kdoc_ctx *c, const char *decl_name);
void kdoc_check_return(struct kdoc_ctx *c, const char *decl_name,
		       const char *return_type);
void kdoc_push_param(struct kdoc_ctx *c, const char *param,
		     const char *type, const char *org_arg,
		     const char *decl_name, bool is_function);
struct kdoc_desc *kdoc_desc_find(struct kdoc_ctx *c, const char *name,
				 size_t len);
void kdoc_desc_set(struct kdoc_ctx *c, const char *name, const char *text,
		   uint32_t line);
void kdoc_warn(struct kdoc_ctx *c, enum qu_diag_id id, uint32_t line,
	       const char *fmt, ...) QU_PRINTF(4, 5);
void kdoc_emit(struct kdoc_ctx *c, enum qu_kind kind, const char *name,
	       const char *decl);
void kdoc_emit_doc(struct kdoc_ctx *c, const struct qu_section *s);

/* text.c: the few string operations the reference does with regexes */
extern const unsigned char kdoc_ctype[256];
#define KDOC_SPACE 1
#define KDOC_WORD 2
/* Perl's \s and \w over bytes: a table, since they run on every byte */
static inline bool kdoc_is_space(int ch)
{
	return kdoc_ctype[(unsigned char)ch] & KDOC_SPACE;
}

static inline bool kdoc_is_word(int ch)
{
	return kdoc_ctype[(unsigned char)ch] & KDOC_WORD;
}

/* \s* : inline, as the patterns call it at nearly every token */
static inline const char *kdoc_skip_space(const char *p)
{
	while (kdoc_is_space((unsigned char)*p))
		p++;
	return p;
}

void kdoc_strip_comments(struct qu_buf *b);
void kdoc_squash_spaces(struct qu_buf *b);
void kdoc_trim(struct qu_buf *b);
void kdoc_buf_set(struct qu_buf *b, const char *s, size_t len);
void kdoc_apply_attrs(struct qu_buf *b, int where, struct qu_buf *scratch);

/* Where an attrs.def row applies. */
enum kdoc_attr_where {
	ATTR_PROTO,
	ATTR_MEMBERS,
};

#endif /* QU_KDOC_KDOC_INT_H */
