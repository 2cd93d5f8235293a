// SPDX-License-Identifier: MIT
/* Every section kind the reference knows, in their different spellings. */

/**
 * mutex_lock_interruptible() - acquire the mutex, interruptible by signals
 * @lock: the mutex to be acquired
 *
 * Description: lock the mutex like mutex_lock(). If a signal is delivered
 * while the process is sleeping, this function will return without
 * acquiring the mutex.
 *
 * Context: process context.
 *
 * Note: the lock must not be held already.
 *
 * Notes: several notes use the plural.
 *
 * Example:
 *
 *	if (mutex_lock_interruptible(&m))
 *		return -EINTR;
 *
 * Examples: the plural again.
 *
 * Returns: 0 if the lock was acquired, -EINTR if a signal arrived.
 */
int mutex_lock_interruptible(struct mutex *lock)
{
	return 0;
}

/**
 * lowercase_sections() - sections are matched without regard to case
 * @x: a value
 *
 * context: any context.
 * return: @x.
 */
int lowercase_sections(int x)
{
	return x;
}

/**
 * at_return() - "@return:" is the Return section, not a parameter
 * @x: a value
 *
 * @return: @x doubled.
 */
int at_return(int x)
{
	return 2 * x;
}
