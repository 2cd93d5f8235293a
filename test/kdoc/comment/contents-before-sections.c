// SPDX-License-Identifier: MIT
/* Description text before a section heading warns under -v. */

/**
 * early() - describes before its parameters
 *
 * This text comes first.
 * @x: a value
 *
 * Return: @x.
 */
int early(int x);
