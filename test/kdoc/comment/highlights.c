// SPDX-License-Identifier: MIT
/* Highlight conventions are kept as written, for later stages. */

/**
 * highlight() - uses every highlight convention
 * @p: a pointer to &struct foo
 *
 * Calls other_func(), reads &struct foo->member and &foo.bar, tests
 * @p against %NULL and %-ENOMEM, reads $HOME, shows ``p->x`` literally
 * and links &union u, &enum e and &typedef t.
 *
 * A literal block, in reStructuredText habit::
 *
 *	if (p)
 *		return;
 *
 * Return: %0, or a negative errno.
 */
int highlight(struct foo *p);
