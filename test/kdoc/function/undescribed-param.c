// SPDX-License-Identifier: MIT
/* A parameter the comment does not describe. */

/**
 * copy_page() - copy one page
 * @to: destination
 *
 * Return: 0.
 */
int copy_page(void *to, const void *from)
{
	return 0;
}
