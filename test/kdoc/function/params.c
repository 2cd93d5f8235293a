// SPDX-License-Identifier: MIT
/* Parameters of unusual shapes: void, arrays, function pointers, pointers. */

/**
 * no_args() - takes nothing
 *
 * Return: always 1.
 */
int no_args(void)
{
	return 1;
}

/**
 * set_mac() - set a hardware address
 * @dev: the device
 * @addr: the six bytes of the address
 */
void set_mac(struct net_device *dev, const u8 addr[6]);

/**
 * call_back() - call a function later
 * @fn: the function, called with @data
 * @data: its argument
 * @flags: how
 *
 * Return: 0 or an error.
 */
int call_back(void (*fn)(void *data), void *data, unsigned int flags);

/**
 * ptr_ret() - returns a pointer
 * @count: how many
 *
 * Return: a pointer to @count bytes.
 */
static void **ptr_ret(unsigned long long count)
{
	return NULL;
}
