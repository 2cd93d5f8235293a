// SPDX-License-Identifier: MIT
#include <linux/widget.h>

struct widget *widget_get(struct widget *w)
{
	w->refs++;
	return w;
}
EXPORT_SYMBOL(widget_get);

void widget_put(struct widget *w, int why)
{
	w->refs--;
}
EXPORT_SYMBOL_GPL(widget_put);

/**
 * widget_count() - how many references
 * @w: the widget
 */
int widget_count(struct widget *w)
{
	return w->refs;
}
EXPORT_SYMBOL_GPL(widget_count);

int widget_secret(void)
{
	return 42;
}
EXPORT_SYMBOL(widget_secret);
