// SPDX-License-Identifier: MIT
/*
 * With -v, a function returning a value without a Return section warns;
 * void functions and macros do not.
 */

/**
 * get_count() - read the count
 * @c: the counter
 */
int get_count(const struct counter *c)
{
	return 0;
}

/**
 * reset_count() - zero the count
 * @c: the counter
 */
void reset_count(struct counter *c)
{
}

/**
 * get_ptr() - returns "void *", which is a value
 * @c: the counter
 */
void *get_ptr(struct counter *c)
{
	return c;
}
