// SPDX-License-Identifier: MIT
/* An enum and its values, with initializers and a trailing comma. */

/**
 * enum color - the colors of a light
 * @COLOR_RED: stop
 * @COLOR_AMBER: wait, multi-line
 *	description of a value
 * @COLOR_GREEN: go
 *
 * Lights cycle through the colors in this order.
 */
enum color {
	COLOR_RED = 1,
	COLOR_AMBER = 1 << 1,
	COLOR_GREEN,
};

/**
 * enum inline_values - values described in-line
 */
enum inline_values {
	/** @IV_A: the first value */
	IV_A,
	/** @IV_B: the second value */
	IV_B
};
