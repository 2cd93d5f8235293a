// SPDX-License-Identifier: MIT
/* A function with parameters, a brief, a description and a Return section. */

/**
 * list_add() - add a new entry
 * @new: new entry to be added
 * @head: list head to add it after
 *
 * Insert a new entry after the specified head.
 * This is good for implementing stacks.
 *
 * Return: the number of entries now on the list.
 */
int list_add(struct list_head *new, struct list_head *head)
{
	return 0;
}
