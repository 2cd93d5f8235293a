// SPDX-License-Identifier: MIT
/*
 * tokens.c - the tokenizer against tokens.txt
 *
 * Each case of tokens.txt is "TEXT => TOKENS": the tokens quire indexes
 * for TEXT, space-separated, a part of an identifier marked with a
 * leading "+". Prints every case that differs; exit 1 when any does.
 *
 * usage: test-search-tokens tokens.txt
 */
#include <stdio.h>
#include <string.h>

#include "search/search.h"

static void add(const char *tok, size_t len, bool part, void *payload)
{
	struct qu_buf *b = payload;

	if (b->len)
		qu_buf_addc(b, ' ');
	if (part)
		qu_buf_addc(b, '+');
	qu_buf_add(b, tok, len);
}

int main(int argc, char **argv)
{
	struct qu_buf file = QU_BUF_INIT, err = QU_BUF_INIT, got = QU_BUF_INIT;
	char *line, *save = NULL;
	int n = 0, failed = 0;

	if (argc != 2 || qu_file_read(&file, argv[1], &err) < 0) {
		fprintf(stderr, "usage: test-search-tokens FILE %s\n", err.buf);
		return 2;
	}
	for (line = strtok_r(file.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sep = strstr(line, " => ");

		if (line[0] == '#' || !sep)
			continue;
		*sep = 0;
		qu_buf_reset(&got);
		qu_search_tokenize(line, strlen(line), add, &got);
		n++;
		if (strcmp(got.buf, sep + 4)) {
			failed++;
			printf("FAIL %s\n  got:  %s\n  want: %s\n", line, got.buf,
			       sep + 4);
		}
	}
	printf("%d/%d cases\n", n - failed, n);
	qu_buf_fini(&file);
	qu_buf_fini(&err);
	qu_buf_fini(&got);
	return failed ? 1 : 0;
}
