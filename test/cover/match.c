// SPDX-License-Identifier: MIT
/*
 * match.c - checks qu_maint_pattern_match() against match.txt, and
 * qu_maint_match() against a small MAINTAINERS: the cases of
 * scripts/get_maintainer.pl's matching written down.
 * usage: match MATCH_TXT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cover/cover.h"

static bool dirs(const char *path, void *payload)
{
	(void)payload;
	return !strcmp(path, "drivers/net") || !strcmp(path, "lib");
}

static int entries(void)
{
	static const char text[] =
		"Intro text\n"
		"\n"
		"NET\n"
		"F:\tdrivers/net\n"
		"X:\tdrivers/net/wireless/\n"
		"\n"
		"WIRELESS\n"
		"F:\tdrivers/net/wireless/\n"
		"\n"
		"LIB\n"
		"F:    lib\n"
		"F:\tlib.c\n"
		"# a comment\n"
		"K:\tnot a file pattern\n"
		"ONLY EXCLUDES\n"
		"X:\tlib/\n";
	static const struct {
		const char *path;
		const char *want;
	} cases[] = {
		{"drivers/net/loopback.c", "NET"},
		{"drivers/net/wireless/ath/ath.c", "WIRELESS"},
		{"lib/list.c", "LIB"},
		{"lib.c", "LIB"},
		{"mm/slab.c", ""},
	};
	struct qu_maintainers m;
	uint32_t *hits = NULL;
	size_t nh = 0, alloc = 0;
	int bad = 0;

	qu_maint_parse(&m, text, sizeof(text) - 1, dirs, NULL);
	if (m.n != 5 || strcmp(m.v[3].pats[0].glob, "lib/") ||
	    strcmp(m.v[1].pats[0].glob, "drivers/net/") || m.v[3].npats != 2) {
		fprintf(stderr, "not ok: MAINTAINERS read as %zu entries\n",
			m.n);
		bad++;
	}
	for (size_t i = 0; i < QU_ARRAY_SIZE(cases); i++) {
		struct qu_buf got = QU_BUF_INIT;

		qu_maint_match(&hits, &nh, &alloc, &m, cases[i].path);
		for (size_t k = 0; k < nh; k++)
			qu_buf_addf(&got, "%s%s", k ? "," : "",
				    m.v[hits[k]].name);
		if (strcmp(got.buf, cases[i].want)) {
			fprintf(stderr, "not ok: %s is in '%s', not '%s'\n",
				cases[i].path, got.buf, cases[i].want);
			bad++;
		}
		qu_buf_fini(&got);
	}
	free(hits);
	qu_maint_fini(&m);
	return bad;
}

int main(int argc, char **argv)
{
	struct qu_buf text = QU_BUF_INIT, err = QU_BUF_INIT;
	int bad = 0, n = 0;
	char *line, *save = NULL;

	if (argc != 2 || qu_file_read(&text, argv[1], &err) < 0) {
		fprintf(stderr, "usage: match MATCH_TXT %s\n", err.buf);
		return 2;
	}
	for (line = strtok_r(text.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *res, *pat, *path;

		if (line[0] == '#')
			continue;
		res = line;
		pat = strchr(res, '\t');
		path = pat ? strchr(pat + 1, '\t') : NULL;
		if (!path) {
			fprintf(stderr, "bad line: %s\n", line);
			return 2;
		}
		*pat++ = 0;
		*path++ = 0;
		n++;
		if (qu_maint_pattern_match(pat, path) != !strcmp(res, "yes")) {
			fprintf(stderr, "not ok: '%s' %s '%s'\n", pat,
				strcmp(res, "yes") ? "matches" : "misses",
				path);
			bad++;
		}
	}
	bad += entries();
	printf("%d pattern cases, %d failures\n", n, bad);
	qu_buf_fini(&text);
	qu_buf_fini(&err);
	return bad ? 1 : 0;
}
