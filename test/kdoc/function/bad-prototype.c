// SPDX-License-Identifier: MIT
/* A declaration that is no function prototype. */

/**
 * weird() - nothing the reference can read follows
 * @x: a value
 */
weird = 3 + (4;
