/**
 * ring_init() - set a ring up
 * @r: the ring
 * @size: how many slots, a power of two
 *
 * Return: 0, or -EINVAL when @size is not a power of two.
 */
int ring_init(struct ring *r, unsigned int size);
