// SPDX-License-Identifier: MIT
/* The comment names another typedef than the one that follows. */

/**
 * typedef this_t - the comment's name
 */
typedef int that_t;
