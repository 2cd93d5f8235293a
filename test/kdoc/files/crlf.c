// SPDX-License-Identifier: MIT
/* CRLF line ends read as LF ones. */

/**
 * crlf() - a function in a CRLF file
 * @x: a value
 *
 * Return: @x.
 */
int crlf(int x);
