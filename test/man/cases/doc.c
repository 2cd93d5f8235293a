// SPDX-License-Identifier: MIT
/**
 * DOC: Theory of operation
 *
 * A DOC: block gets no page of its own.
 */

/**
 * widget_free() - free a widget
 * @w: the widget, or NULL
 */
void widget_free(struct widget *w);

/**
 * widget_free() - the same name again: the first keeps the page
 * @w: the widget
 */
void widget_free(struct widget *w);
