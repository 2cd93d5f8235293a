// SPDX-License-Identifier: MIT
/* --no-identifiers drops the named symbols. */

/**
 * DOC: Intro
 *
 * An introduction.
 */

/**
 * DOC: Other
 *
 * Another block.
 */

/**
 * keep_me() - kept
 */
void keep_me(void);

/**
 * drop_me() - dropped
 */
void drop_me(void);

/**
 * struct keep_too - kept
 * @a: a member
 */
struct keep_too {
	int a;
};
