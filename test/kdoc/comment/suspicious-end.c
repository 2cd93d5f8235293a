// SPDX-License-Identifier: MIT
/* Text on the line that closes the comment. */

/**
 * ends_badly() - the closing line holds text
 * @x: a value
 * end*/
void ends_badly(int x);
