/* SPDX-License-Identifier: MIT */
/**
 * DOC: Overview
 *
 * Doubly linked lists, as list_add() and &struct list_head make them.
 */

/**
 * enum list_kind - what a list holds
 * @LIST_PLAIN: nothing special
 * @LIST_RCU: entries freed after a grace period
 */
enum list_kind {
	LIST_PLAIN,
	LIST_RCU,
};

/**
 * struct list_head - one node of a list
 * @next: the next node, or the head
 * @prev: the previous node, or the head
 */
struct list_head {
	struct list_head *next, *prev;
};

/**
 * list_add() - add an entry after the head
 * @new: the entry to add
 * @head: the head to add it after
 *
 * Links @new after @head using &struct list_head->next; the kind is
 * %LIST_PLAIN unless $LIST_DEBUG says otherwise.
 *
 * Return: nothing; see list_del() to undo.
 */
void list_add(struct list_head *new, struct list_head *head);

/**
 * list_del() - remove an entry
 * @entry: the entry, a &struct list_head
 *
 * Context: any context.
 */
void list_del(struct list_head *entry);
EXPORT_SYMBOL_GPL(list_del);
