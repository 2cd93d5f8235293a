// SPDX-License-Identifier: MIT
/* A struct the reference cannot parse: no body follows the name. */

/**
 * struct broken - never defined here
 * @a: a member
 */
struct broken;
