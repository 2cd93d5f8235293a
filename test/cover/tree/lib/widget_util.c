// SPDX-License-Identifier: MIT
/**
 * widget_reset() - start again
 * @w: the widget
 * @flags: how
 */
void widget_reset(struct widget *w, unsigned flags)
{
}
EXPORT_SYMBOL_NS_GPL(widget_reset, WIDGET);
