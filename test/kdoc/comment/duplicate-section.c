// SPDX-License-Identifier: MIT
/* A section and a parameter described twice. */

/**
 * twice() - describes things twice
 * @x: first description
 * @x: second description
 *
 * Return: first.
 *
 * Return: second.
 */
int twice(int x);
