/* SPDX-License-Identifier: MIT */
/**
 * bar_thing() - the thing everything points at
 * @x: a number
 */
int bar_thing(int x);

/**
 * quiet_user() - names bar_thing only where no link is drawn
 * @x: a number, as ``bar_thing()`` takes it
 *
 * An example, as a literal block::
 *
 *   bar_thing(1);
 *
 * and ``bar_thing(2)`` in a double-backtick span, `bar_thing(3)` in a
 * single one, and a link [bar_thing() elsewhere](https://example.org/)
 * whose text names it.
 *
 * # bar_thing() in a heading
 */
int quiet_user(int x);

/**
 * loud_user() - calls bar_thing()
 * @x: passed to bar_thing()
 */
int loud_user(int x);
