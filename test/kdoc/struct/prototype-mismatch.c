// SPDX-License-Identifier: MIT
/* The comment names another struct than the one that follows. */

/**
 * struct alpha - the comment's name
 * @x: a member
 */
struct beta {
	int x;
};
