// SPDX-License-Identifier: MIT
/**
 * first() - a function
 */
static inline int first(int (*cb)(int a, int b), char c);

 /** indented: not a block */
/**
 * struct s - a struct
 */
struct s { int a; };

/**
 * define M - a macro
 */
#define M(x) \
	((x) + 1)
EXPORT_SYMBOL(first);
	EXPORT_SYMBOL_NS_GPL(second, NS);
EXPORT_SYMBOLS_ALL(not_a_row);
/**
