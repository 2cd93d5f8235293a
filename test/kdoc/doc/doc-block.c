// SPDX-License-Identifier: MIT
/* DOC: blocks: free text with a title, no declaration. */

/**
 * DOC: Theory of Operation
 *
 * The whizbang foobar is a dilly of a gizmo. It can do whatever you
 * want it to do, at any time. It reads your mind.
 *
 * Its design:
 *
 *  - reads
 *  - writes
 */

/**
 * DOC: second block
 *
 * Another block, in **Markdown**.
 */

/**
 * helper() - a function after the DOC: blocks
 */
void helper(void);
