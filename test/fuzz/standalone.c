// SPDX-License-Identifier: MIT
/*
 * standalone.c - replays fuzz corpora without libFuzzer, so the ordinary
 * gcc build (and the sanitizer build) runs every committed input of a
 * harness as a regression test. Arguments are files or folders; a
 * folder's files run in name order.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "util/util.h"

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_file(const char *path)
{
	struct qu_buf b = QU_BUF_INIT, err = QU_BUF_INIT;

	if (qu_file_read(&b, path, &err) < 0) {
		fprintf(stderr, "%s\n", err.buf);
		qu_buf_fini(&err);
		return -1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)b.buf, b.len);
	qu_buf_fini(&b);
	return 0;
}

static int run_dir(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t count = 0, alloc = 0;
	int rc = 0;

	if (!d) {
		perror(dir);
		return -1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		QU_VEC_GROW(names, count, alloc);
		names[count++] = qu_xstrdup(e->d_name);
	}
	closedir(d);
	qsort(names, count, sizeof(*names), cmp);
	for (size_t i = 0; i < count; i++) {
		struct qu_buf p = QU_BUF_INIT;
		struct stat st;

		qu_buf_addf(&p, "%s/%s", dir, names[i]);
		if (stat(p.buf, &st) == 0 && S_ISDIR(st.st_mode))
			rc |= run_dir(p.buf, n);
		else if (stat(p.buf, &st) == 0 && run_file(p.buf) == 0)
			(*n)++;
		qu_buf_fini(&p);
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	size_t n = 0;
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) < 0) {
			perror(argv[i]);
			return 2;
		}
		if (S_ISDIR(st.st_mode))
			rc |= run_dir(argv[i], &n);
		else if (run_file(argv[i]) == 0)
			n++;
		else
			rc = 1;
	}
	printf("%zu inputs replayed\n", n);
	return rc ? 1 : 0;
}
