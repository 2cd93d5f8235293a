// SPDX-License-Identifier: MIT
/*
 * A file without any kernel-doc comment: extract says so, check says
 * nothing. Unlike the reference, quire counts the items of each file on
 * its own (the reference compares with the count of the previous file).
 */

/* An ordinary comment. */
int plain(void);
