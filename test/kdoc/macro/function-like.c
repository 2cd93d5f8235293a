// SPDX-License-Identifier: MIT
/* Function-like macros, on one line and continued over several. */

/**
 * min() - the smaller of two values
 * @x: first value
 * @y: second value
 *
 * Return: @x or @y, whichever is smaller.
 */
#define min(x, y) ((x) < (y) ? (x) : (y))

/**
 * container_of - cast a member of a structure out to the containing structure
 * @ptr:	the pointer to the member.
 * @type:	the type of the container struct this is embedded in.
 * @member:	the name of the member within the struct.
 */
#define container_of(ptr, type, member) ({				\
	void *__mptr = (void *)(ptr);					\
	((type *)(__mptr - offsetof(type, member))); })

/**
 * undescribed_macro() - a macro whose argument the comment leaves out
 * @a: described
 */
#define undescribed_macro(a, b) ((a) + (b))
