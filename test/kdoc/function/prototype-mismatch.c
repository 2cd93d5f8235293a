// SPDX-License-Identifier: MIT
/* The comment names another function than the one that follows. */

/**
 * old_name() - does something
 * @x: a value
 *
 * Return: @x.
 */
int new_name(int x)
{
	return x;
}
