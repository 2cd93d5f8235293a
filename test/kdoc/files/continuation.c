// SPDX-License-Identifier: MIT
/* Backslash continuations, strings and comments inside declarations. */

/**
 * DEFINE_THING() - a macro continued over lines
 * @name: the name
 * @val: the value
 */
#define DEFINE_THING(name, val)					\
	static const int name = (val);				\
	/* a comment inside */					\
	static const char name##_str[] = "}{;/**"

/**
 * after_strings() - a function after tricky strings
 * @s: a string
 *
 * Return: a char.
 */
char after_strings(const char *s /* inline comment, with ) */);
