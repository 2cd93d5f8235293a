// SPDX-License-Identifier: MIT
/* Unions, with a nested anonymous struct. */

/**
 * union value - a tagged value's payload
 * @i: as an integer
 * @p: as a pointer
 * @lo: low half, in an anonymous struct
 * @hi: high half, in an anonymous struct
 */
union value {
	long i;
	void *p;
	struct {
		int lo;
		int hi;
	};
};
