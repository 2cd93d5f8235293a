/**
 * helper() - a static helper in b/
 * @z: a value
 */
static int helper(int z)
{
	return z;
}
