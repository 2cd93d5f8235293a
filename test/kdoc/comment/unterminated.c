// SPDX-License-Identifier: MIT
/* A kernel-doc comment that runs to the end of the file. */

/**
 * complete() - a complete comment first
 */
void complete(void);

/**
 * unfinished() - never closed
 * @x: a value
