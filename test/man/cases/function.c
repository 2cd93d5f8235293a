// SPDX-License-Identifier: MIT
#include <linux/export.h>

/**
 * frob_widget() - frobnicate a &struct widget, read-only
 * @w: the widget; see @w->flags and %WIDGET_BUSY
 * @count: how many times (-1 for ever)
 * @...: more arguments, as printf() takes them
 *
 * Calls widget_lock() first, then works on `w->state` and ``raw``.
 * This is **bold**, *emphasis* and _also_; but foo_bar_baz and a*b*c
 * stay as they are. A path C:\dir\file, $HOME and 50% too.
 * .leading dot and
 * 'leading quote lines are escaped.
 * Non-ASCII: café, “quotes”, and a very long line that goes on and on well past eighty bytes.
 *
 * - first item
 * - second item, which
 *   continues here
 *
 * 1. ordered
 * 2. list
 *
 * An example::
 *
 *	frob_widget(w, 2);
 *	.not_a_request = 1;
 *
 * ```c
 * if (x->y--)
 *	return '\n';
 * ```
 *
 * Context: any context; takes &widget_lock.
 * Return: 0, or -%EINVAL when @w is %NULL.
 */
int frob_widget(struct widget *w, int count, ...)
{
	return 0;
}
EXPORT_SYMBOL_GPL(frob_widget);

/**
 * widget_lock - lock a widget with a name that makes the prototype long
 * @w: the widget
 * @subclass: the lockdep subclass
 * @flags: GFP flags for the allocation that may happen on the way
 */
void widget_lock(struct widget *w, unsigned int subclass, unsigned long flags);

/**
 * widget_noargs - no arguments, no description
 */
void widget_noargs(void);
