/* SPDX-License-Identifier: MIT */
/**
 * kmalloc - allocate kernel memory
 * @size: how many bytes of memory are required
 * @flags: the type of memory to allocate, GFP_KERNEL most often
 *
 * Return: a pointer to the memory, or NULL.
 */
void *kmalloc(size_t size, gfp_t flags);

/**
 * kmalloc_array - allocate memory for an array
 * @n: number of elements
 * @size: element size
 * @flags: the type of memory to allocate
 */
void *kmalloc_array(size_t n, size_t size, gfp_t flags);

/**
 * kfree - free memory that kmalloc() allocated
 * @objp: the pointer kmalloc() returned
 */
void kfree(const void *objp);

/**
 * enum gfp_zone - where memory comes from
 * @ZONE_DMA: for devices that need low memory
 * @ZONE_NORMAL: everything else
 */
enum gfp_zone {
	ZONE_DMA,
	ZONE_NORMAL,
};
