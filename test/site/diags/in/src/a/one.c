/**
 * helper() - a static helper in a/
 * @x: a value
 */
static int helper(int x)
{
	return x;
}

/**
 * exported_fn() - an exported function
 * @y: a value; see helper()
 */
int exported_fn(int y)
{
	return helper(y);
}
EXPORT_SYMBOL(exported_fn);
