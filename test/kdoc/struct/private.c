// SPDX-License-Identifier: MIT
/* private: hides members up to public: or the end; neither need docs. */

/**
 * struct my_struct - short description
 * @a: first member
 * @b: second member
 * @d: fourth member
 *
 * Longer description
 */
struct my_struct {
	int a;
	int b;
/* private: internal use only */
	int c;
/* public: the rest is documented again */
	int d;
	/* private: to the end */
	int e;
	int f;
};
