/**
 * struct map - a mapping of memory
 * @vaddr: where it is
 * @is_iomem: whether it is I/O memory
 *
 * A :c:type:`struct map <map>` is set up with map_set(), see
 * :c:func:`map_set`, and read with :c:func:`map_rd()`; :ref:`labels`
 * and :c:type:`no_such_type` stay text.
 *
 * .. code-block:: c
 *	:linenos:
 *
 *	struct map m;
 *
 *	map_set(&m, addr);
 *
 * .. note::
 *
 *    Only one mapping at a time. An example::
 *
 *	map_set(&m, NULL);
 *
 * .. warning:: Never on the stack.
 *
 * Text after the warning.
 */
struct map {
	void *vaddr;
	bool is_iomem;
};

/**
 * map_set - set a mapping
 * @m: the mapping, a :c:type:`map`
 * @addr: the address
 */
void map_set(struct map *m, void *addr);

/**
 * map_rd - read a mapping
 * @m: the mapping
 *
 * Return: the address.
 */
void *map_rd(struct map *m);
