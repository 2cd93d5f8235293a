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

/**
 * map_clear: - clear a mapping
 * @m: the mapping
 */
void map_clear(struct map *m);

/**
 * map_move - move a mapping
 * @m: the mapping
 *
 *	Indented, this is a block quote in reST, where map_rd() is a link.
 *
 * ``map_free()`` is a literal, and so is this::
 *
 *	map_free(m);
 *
 * .. map_free() in a comment is not shown at all.
 */
void map_move(struct map *m);

/**
 * map_free - free a mapping
 * @m: the mapping
 */
void map_free(struct map *m);
