/**
 * union widget_val - a value of a widget
 * @i: as an integer
 * @p: as a pointer
 */
union widget_val {
	int i;
	void *p;
};

/**
 * typedef widget_fn - called on every widget
 * @w: the widget
 *
 * Return: 0 to go on.
 */
typedef int (*widget_fn)(struct widget *w);

/**
 * enum widget_state - where a widget is
 * @WIDGET_IDLE: doing nothing
 * @WIDGET_BUSY: see &enum widget_state and %WIDGET_IDLE
 */
enum widget_state {
	WIDGET_IDLE,
	WIDGET_BUSY,
};

/**
 * struct widget - a thing with a state
 * @state: its &enum widget_state; see .val too
 * @val: its &union widget_val
 * @cb: a &typedef widget_fn, called by widget_run()
 *
 * A widget starts in %WIDGET_IDLE. Use &struct widget.state or
 * &widget->val, never ``widget->private``.
 *
 * An example::
 *
 *	struct widget w = { .state = WIDGET_IDLE };
 *	widget_run(&w);
 *
 * Then a table:
 *
 * | state | meaning |
 * |-------|---------|
 * | idle  | nothing |
 *
 * > [!TIP]
 * > Keep widgets small.
 *
 * # A heading in a comment
 *
 * - a list
 * - with `code`
 */
struct widget {
	enum widget_state state;
	union widget_val val;
	widget_fn cb;
};

/**
 * widget_run() - run a widget
 * @w: the widget; its @w.state becomes %WIDGET_BUSY
 * @...: more arguments
 *
 * Runs @w with $WIDGET_DEBUG set, unless WIDGET_MAX() says no.
 *
 * Context: process context; takes the &struct widget lock.
 */
void widget_run(struct widget *w, ...);

/**
 * WIDGET_MAX() - the most widgets
 * @n: a hint
 */
#define WIDGET_MAX(n) ((n) * 2)
