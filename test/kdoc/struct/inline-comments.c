// SPDX-License-Identifier: MIT
/* Members described in-line, in single-line and multi-line comments. */

/**
 * struct foo - a struct documented in-line
 * @bar: described in the header comment
 */
struct foo {
	int bar;
	/** @baz: described on one line */
	int baz;
	/**
	 * @qux: described over
	 * several lines.
	 *
	 * With a second paragraph.
	 */
	int qux;
	union {
		/** @u1: a member of an anonymous union */
		int u1;
		/** @u2: another one */
		long u2;
	};
	/**
	 * @nested: a named nested struct
	 */
	struct {
		/** @nested.a: its first member */
		int a;
	} nested;
};
