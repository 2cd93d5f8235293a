// SPDX-License-Identifier: MIT
/* The short description may run on over several lines. */

/**
 * wait_for_completion_timeout() - waits for completion of a task
 *	(w/timeout), the rest of the brief continues here
 *	and ends on this line
 * @x: holds the state of this particular completion
 * @timeout: timeout value in jiffies
 *
 * This waits for either a completion of a specific task to be signaled or
 * for a specified timeout to expire.
 *
 * Return: 0 if timed out, and positive (at least 1, or number of jiffies
 * left till timeout) if completed.
 */
unsigned long wait_for_completion_timeout(struct completion *x,
					  unsigned long timeout)
{
	return 0;
}
