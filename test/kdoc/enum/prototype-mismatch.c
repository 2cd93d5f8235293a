// SPDX-License-Identifier: MIT
/* The comment names another enum than the one that follows. */

/**
 * enum first - the comment's name
 * @A: a value
 */
enum second {
	A,
};
