/* SPDX-License-Identifier: MIT */
/*
 * tap.h - the few checking macros of the unit tests. A failed check prints
 * file:line and the expression and marks the group failed; the group goes
 * on, so one run shows every failure.
 */
#ifndef QU_TEST_TAP_H
#define QU_TEST_TAP_H

#include <stdio.h>
#include <string.h>

/**
 * struct tap - the state of one test group
 * @checks: checks run
 * @failed: checks failed
 */
struct tap {
	int checks;
	int failed;
};

#define CHECK(t, expr)                                                         \
	do {                                                                   \
		(t)->checks++;                                                 \
		if (!(expr)) {                                                 \
			(t)->failed++;                                         \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #expr);                              \
		}                                                              \
	} while (0)

#define CHECK_STR(t, got, want)                                                \
	do {                                                                   \
		const char *g_ = (got), *w_ = (want);                          \
		(t)->checks++;                                                 \
		if (strcmp(g_, w_)) {                                          \
			(t)->failed++;                                         \
			fprintf(stderr,                                        \
				"%s:%d: %s\n  got:  \"%s\"\n  want: \"%s\"\n", \
				__FILE__, __LINE__, #got, g_, w_);             \
		}                                                              \
	} while (0)

#endif /* QU_TEST_TAP_H */
