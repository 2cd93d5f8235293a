// SPDX-License-Identifier: MIT
/**
 * enum widget_flags - what a widget may be
 * @WIDGET_BUSY: in use; see frob_widget()
 * @WIDGET_DEAD: gone
 * @WIDGET_MASK: all of the above
 *
 * Flags combine with "|".
 */
enum widget_flags {
	WIDGET_BUSY = 1 << 0,
	WIDGET_DEAD = 1 << 1,
	WIDGET_MASK = WIDGET_BUSY | WIDGET_DEAD,
};
