// SPDX-License-Identifier: MIT
/* A typedef of a plain type. */

/**
 * typedef sector_t - a sector number
 *
 * Sectors are 512 bytes whatever the device's block size.
 */
typedef u64 sector_t;
