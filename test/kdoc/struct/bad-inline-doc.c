// SPDX-License-Identifier: MIT
/* An in-line member comment that is not in kernel-doc form. */

/**
 * struct inl - in-line comments
 * @a: a member
 */
struct inl {
	int a;
	/**
	 * this line names no member
	 */
	int b;
};
