// SPDX-License-Identifier: MIT
/* A first line that says "struct" but gives no name. */

/**
 * struct
 * @a: a member
 */
struct nameless {
	int a;
};
