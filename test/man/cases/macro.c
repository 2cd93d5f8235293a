// SPDX-License-Identifier: MIT
/**
 * WIDGET_FOR_EACH - walk the widgets of a list
 * @pos: the cursor
 * @head: the list, a &struct list_head
 *
 * Use it as a for loop. Undescribed parameters are listed too.
 */
#define WIDGET_FOR_EACH(pos, head, undescribed) \
	for (pos = (head)->next; pos != (head); pos = pos->next)

/**
 * WIDGET_MAX - the largest widget count
 */
#define WIDGET_MAX 64
