// SPDX-License-Identifier: MIT
/*
 * Variadic macros: "..." is documented as @..., a named variadic argument
 * by its bare name; written with its dots it warns under -v.
 */

/**
 * pr_info() - print an info message
 * @fmt: the format
 * @...: its arguments
 */
#define pr_info(fmt, ...) printk(KERN_INFO fmt, ##__VA_ARGS__)

/**
 * dbg() - print a debug message
 * @fmt: the format
 * @args: its arguments
 */
#define dbg(fmt, args...) printk(KERN_DEBUG fmt, ##args)

/**
 * dbg2() - print a debug message, arguments documented with dots
 * @fmt: the format
 * @args...: its arguments
 */
#define dbg2(fmt, args...) printk(KERN_DEBUG fmt, ##args)
