// SPDX-License-Identifier: MIT
/* Invalid UTF-8 in a comment is reported and shown as U+FFFD. */

/**
 * latin1() - café au lait
 * @x: naïve
 */
void latin1(int x);
