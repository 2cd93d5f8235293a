// SPDX-License-Identifier: MIT
/* A first line that is not a comment line at all. */

/**
foo() - the star is missing
 */
void foo(void);
