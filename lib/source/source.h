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
 * @macro: the macro's name as written ("EXPORT_SYMBOL_GPL", …)
 * @line: 1-based line of the use
 */
struct qu_export {
	const char *name;
	const char *macro;
	uint32_t line;
};

/**
 * struct qu_source - one C file, read whole
 * @path: the file as the user named it; owned
 * @data: the bytes, NUL-terminated (the file itself may hold NULs)
 * @len: how many bytes
 * @lines: the line index of @data
 * @exports: the EXPORT_SYMBOL*() uses, in file order
 * @nexports: how many
 * @arena: owns @exports and their strings
 * @diags: diagnostics about the bytes themselves (binary, invalid UTF-8)
 *
 * The kernel-doc blocks are found on demand by qu_source_next_block().
 */
struct qu_source {
	char *path;
	char *data;
	size_t len;
	struct qu_lines lines;
	struct qu_export *exports;
	size_t nexports;
	struct qu_arena arena;
	struct qu_diags diags;
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

#endif /* QU_SOURCE_SOURCE_H */
