// SPDX-License-Identifier: MIT
/* Attributes and storage classes the reference strips from prototypes. */

/**
 * setup_arch() - architecture setup
 * @cmdline_p: the command line
 */
void __init setup_arch(char **cmdline_p)
{
}

/**
 * must_check_fn() - a function whose result must be used
 * @p: a pointer
 *
 * Return: a value.
 */
static inline __must_check int must_check_fn(void *p)
{
	return 0;
}

/**
 * my_printf() - formatted printing
 * @fmt: format
 * @...: arguments
 *
 * Return: the number of bytes printed.
 */
__printf(1, 2) int my_printf(const char *fmt, ...);

/**
 * sys_call() - an asmlinkage function
 * @nr: the number
 *
 * Return: a value.
 */
asmlinkage long sys_call(int nr);

/**
 * always() - an always-inline helper
 * @a: first
 * @b: second
 *
 * Return: @a plus @b.
 */
static __always_inline int always(int a, int b)
{
	return a + b;
}

/**
 * weak_hook() - a weak, noinline hook
 * @arg: the argument
 */
void __weak noinline weak_hook(unsigned long arg)
{
}

/**
 * user_copy() - copy from user space
 * @to: the kernel buffer
 * @from: the user buffer
 * @n: how many bytes
 *
 * Return: the number of bytes not copied.
 */
unsigned long user_copy(void *to, const void __user *from, unsigned long n);
