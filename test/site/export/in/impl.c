/**
 * DOC: Design
 *
 * One open, one close.
 */

int api_open(int flags)
{
	return helper(flags);
}
EXPORT_SYMBOL_GPL(api_open);

/**
 * helper() - left out by name
 * @x: a value
 */
static int helper(int x)
{
	return x;
}

/**
 * other() - kept
 */
void other(void)
{
}
