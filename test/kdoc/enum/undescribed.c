// SPDX-License-Identifier: MIT
/* An enum value without description. */

/**
 * enum mode - modes
 * @MODE_A: described
 */
enum mode {
	MODE_A,
	MODE_B,
};
