// SPDX-License-Identifier: MIT
/* A line inside a comment that does not start with " * ". */

/**
 * bad_line() - has a bad line
 * @x: a value
this line lacks the star
 */
void bad_line(int x);
