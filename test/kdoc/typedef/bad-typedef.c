// SPDX-License-Identifier: MIT
/* A typedef the reference cannot parse. */

/**
 * typedef nameless - nothing is named
 */
typedef;
