// SPDX-License-Identifier: MIT
/* A name without a short description; warns under -v. */

/**
 * no_brief()
 * @x: a value
 */
void no_brief(int x);
