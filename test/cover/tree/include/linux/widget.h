/* SPDX-License-Identifier: MIT */
/**
 * widget_get() - take a reference
 * @w: the widget
 *
 * Documented in the header, defined and exported in lib/widget.c.
 */
struct widget *widget_get(struct widget *w);

/**
 * widget_put() - drop a reference
 * @w: the widget
 */
void widget_put(struct widget *w, int why);

/**
 * struct widget - the widget
 * @refs: the count
 */
struct widget {
	int refs;
	int flags;
};
