// SPDX-License-Identifier: MIT
/* A member the comment does not describe, and a nested one. */

/**
 * struct half - half documented
 * @a: described
 */
struct half {
	int a;
	int b;
	struct {
		int c;
	} inner;
};
