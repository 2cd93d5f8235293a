/**
 * DOC: Sorting
 *
 * Heap sort, as sort() and sort_r() do it.
 */

/**
 * sort() - sort an array
 * @base: the array
 * @num: how many elements
 *
 * Calls sort_r() with no payload.
 */
void sort(void *base, int num)
{
}
EXPORT_SYMBOL(sort);

/**
 * sort_r() - sort an array with a payload
 * @base: the array
 * @num: how many elements
 * @priv: passed to the comparison
 */
void sort_r(void *base, int num, void *priv)
{
}

static int undocumented(void)
{
	return 0;
}
