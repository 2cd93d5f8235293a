// SPDX-License-Identifier: MIT
/**
 * union widget_id - the two ways to name a widget
 * @num: by number
 * @name: by name
 */
union widget_id {
	u32 num;
	const char *name;
};
