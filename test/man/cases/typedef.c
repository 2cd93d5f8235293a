// SPDX-License-Identifier: MIT
/**
 * typedef widget_t - a widget by another name
 */
typedef struct widget widget_t;

/**
 * typedef widget_cb - called for each widget
 * @w: the widget
 * @payload: the caller's context
 *
 * Return: 0 to go on, else stop.
 */
typedef int (*widget_cb)(struct widget *w, void *payload);

/**
 * typedef widget_pair - two widgets
 * @a: the first
 * @b: the second
 */
typedef struct {
	struct widget *a;
	struct widget *b;
} widget_pair;
