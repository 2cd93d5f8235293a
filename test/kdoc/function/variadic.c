// SPDX-License-Identifier: MIT
/* A variadic function documents its "..." as @... */

/**
 * dev_printk() - print a message about a device
 * @level: the log level
 * @dev: the device
 * @fmt: the format string
 * @...: the arguments of @fmt
 */
void dev_printk(const char *level, const struct device *dev,
		const char *fmt, ...);
