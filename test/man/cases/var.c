// SPDX-License-Identifier: MIT
/**
 * widget_count - how many widgets exist
 *
 * Read it with READ_ONCE().
 */
unsigned long widget_count;
