// SPDX-License-Identifier: MIT
/*
 * source.c - reading one C file whole (source stage)
 *
 * Reads the bytes once; the kernel-doc blocks and exports are found by
 * scanning for "/\*\*" and "EXPORT_" rather than tokenizing the file.
 */
#include <stdlib.h>
#include <string.h>

#include "source/source.h"

static struct qu_source *source_new(const char *path)
{
	struct qu_source *src = qu_xcalloc(1, sizeof(*src));

	src->path = qu_xstrdup(path);
	qu_arena_init(&src->arena);
	qu_diags_init(&src->diags);
	return src;
}

static void source_index(struct qu_source *src)
{
	qu_lines_init(&src->lines, src->data, src->len);
}

int qu_source_read(struct qu_source **out, struct qu_job *job,
		   const char *path)
{
	struct qu_buf b = QU_BUF_INIT;
	struct qu_source *src;

	if (qu_file_read(&b, path, &job->err) < 0) {
		qu_buf_fini(&b);
		*out = NULL;
		return -1;
	}
	src = source_new(path);
	src->data = qu_buf_detach(&b, &src->len);
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
	qu_arena_fini(&src->arena);
	qu_diags_fini(&src->diags);
	free(src->data);
	free(src->path);
	free(src);
}

bool qu_source_next_block(struct qu_block *out, const struct qu_source *src,
			  size_t *pos)
{
	(void)out;
	(void)src;
	(void)pos;
	return false;
}
