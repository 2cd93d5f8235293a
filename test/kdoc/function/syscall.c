// SPDX-License-Identifier: MIT
/* SYSCALL_DEFINEn() is read as the function sys_NAME. */

/**
 * sys_getpid() - return the thread group id of the current process
 *
 * Return: the tgid.
 */
SYSCALL_DEFINE0(getpid)
{
	return 0;
}

/**
 * sys_kill() - send a signal to a process
 * @pid: the PID of the process
 * @sig: signal to be sent
 *
 * Return: 0 or an error.
 */
SYSCALL_DEFINE2(kill, pid_t, pid, int, sig)
{
	return 0;
}
