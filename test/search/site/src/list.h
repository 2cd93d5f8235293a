/* SPDX-License-Identifier: MIT */
/**
 * DOC: Lock ordering
 *
 * The outer mutex is always taken before the inner spinlock, and a
 * callback never sleeps while it holds the zebra semaphore.
 */

/**
 * struct list_head - one link of a circular doubly linked list
 * @next: the next entry
 * @prev: the previous entry
 */
struct list_head {
	struct list_head *next, *prev;
};

/**
 * list_add - add a new entry
 * @new: new entry to be added
 * @head: list head to add it after
 *
 * Insert a new entry after the specified head.
 * This is good for implementing stacks.
 */
void list_add(struct list_head *new, struct list_head *head);

/**
 * list_add_tail - add a new entry before the head
 * @new: new entry to be added
 * @head: list head to add it before
 *
 * Insert a new entry before the specified head; useful for queues.
 */
void list_add_tail(struct list_head *new, struct list_head *head);

/**
 * list_del - deletes an entry from its list
 * @entry: the element to delete from the list
 *
 * Unlike list_add(), this takes no head.
 */
void list_del(struct list_head *entry);

/**
 * spin_lock_irqsave - take a spinlock and disable interrupts
 * @lock: the lock
 * @flags: where the interrupt state is saved
 */
#define spin_lock_irqsave(lock, flags) do { } while (0)
