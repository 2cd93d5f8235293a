// SPDX-License-Identifier: MIT
/* A described parameter the prototype does not have. */

/**
 * free_page() - free one page
 * @addr: the page
 * @order: not a parameter any more
 */
void free_page(unsigned long addr)
{
}
