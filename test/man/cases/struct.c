// SPDX-License-Identifier: MIT
/**
 * struct widget - a thing to frobnicate
 * @flags: state bits, see &enum widget_flags
 * @name: the name, NUL-terminated
 * @u: a union of what the widget holds
 * @u.count: a counter
 * @u.ptr: or a pointer
 * @ops: the operations
 * @ops.frob: frobnicate, see frob_widget()
 *
 * Widgets live in a &struct widget_list.
 */
struct widget {
	unsigned long flags;
	char name[16];
	union {
		int count;
		void *ptr;
	} u;
#ifdef CONFIG_WIDGET_OPS
	struct {
		int (*frob)(struct widget *w, int n);
	} ops;
#endif
	int undocumented;
};

/**
 * struct widget_list - a list of widgets
 * @head: the first one
 */
struct widget_list {
	struct widget *head;
};
