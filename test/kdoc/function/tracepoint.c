// SPDX-License-Identifier: MIT
/* Tracepoints are documented as the function trace_NAME(). */

/**
 * sched_switch - called when a task switches
 * @preempt: whether it was a preemption
 * @prev: the task switched out
 * @next: the task switched in
 */
TRACE_EVENT(sched_switch,
	TP_PROTO(bool preempt, struct task_struct *prev,
		 struct task_struct *next),
	TP_ARGS(preempt, prev, next),
	TP_STRUCT__entry(__field(int, x)),
	TP_fast_assign(__entry->x = 1;),
	TP_printk("%d", __entry->x)
);

/**
 * bad_trace - a trace event without TP_PROTO
 */
TRACE_EVENT(bad_trace,
	TP_ARGS(),
	TP_printk("nothing")
);
