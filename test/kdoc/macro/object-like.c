// SPDX-License-Identifier: MIT
/* Object-like macros: a name and a value, no parameters. */

/**
 * PAGE_SHIFT - log2 of the page size
 *
 * Determines the page size: 1 << PAGE_SHIFT bytes.
 */
#define PAGE_SHIFT 12

/**
 * define MAX_ORDER - the largest allocation order
 *
 * The reference accepts the word "define" before the name.
 */
#define MAX_ORDER 11

/**
 * EMPTY_MACRO - a macro with no value at all
 */
#define EMPTY_MACRO
