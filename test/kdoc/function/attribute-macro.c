// SPDX-License-Identifier: MIT
/*
 * A project's own attribute macro before the return type: unlike
 * __printf(), the reference does not know it and takes it for the
 * function's name, so the attribute belongs after the prototype.
 */

/**
 * log_printf() - print to a log
 * @log: the log
 * @fmt: the format
 * @...: its arguments
 */
MY_PRINTF(2, 3) void log_printf(struct log *log, const char *fmt, ...);
