// SPDX-License-Identifier: MIT
/* The name on the first line may be written without "()". */

/**
 * kfree - free previously allocated memory
 * @objp: pointer returned by kmalloc.
 *
 * If @objp is NULL, no operation is performed.
 */
void kfree(const void *objp);
