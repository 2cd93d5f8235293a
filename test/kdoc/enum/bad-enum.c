// SPDX-License-Identifier: MIT
/* An enum the reference cannot parse: no body follows the name. */

/**
 * enum nobody - only declared
 * @X: a value
 */
enum nobody;
