// SPDX-License-Identifier: MIT
/* A plain struct and its members. */

/**
 * struct list_head - a doubly linked list
 * @next: the next entry
 * @prev: the previous entry
 *
 * The head of a list is an ordinary entry.
 */
struct list_head {
	struct list_head *next, *prev;
};

/**
 * struct point - a point on a plane
 * @x: abscissa
 * @y: ordinate
 * @name: a label, up to 15 bytes
 * @cb: a function pointer member
 * @flags: bits, a bit field
 */
struct point {
	int x;
	int y;
	char name[16];
	int (*cb)(struct point *p, int arg);
	unsigned int flags : 4;
};
