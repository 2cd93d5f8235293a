// SPDX-License-Identifier: MIT
/* Typedefs of structs, unions and enums, anonymous and tagged. */

/**
 * typedef atomic_t - an atomic counter
 * @counter: the value
 */
typedef struct {
	int counter;
} atomic_t;

/**
 * struct kref_s - a tagged struct behind a typedef
 * @refcount: the count
 */
typedef struct kref_s {
	int refcount;
} kref_t;

/**
 * union either - a union typedef
 * @i: as int
 * @f: as float
 */
typedef union {
	int i;
	float f;
} either;

/**
 * enum level - an enum typedef
 * @LOW: low
 * @HIGH: high
 */
typedef enum {
	LOW,
	HIGH,
} level;
