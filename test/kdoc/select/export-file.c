// SPDX-License-Identifier: MIT
/*
 * Declarations exported in another file, named with --export-file, as a
 * header's functions are exported by their .c file.
 */

/**
 * from_elsewhere() - exported in export-file.inc
 * @x: a value
 */
void from_elsewhere(int x);

/**
 * not_exported() - exported nowhere
 */
void not_exported(void);
