// SPDX-License-Identifier: MIT
/**
 * helper() - a tool's function, exported by nobody
 * @x: undescribed below? no, described
 */
int helper(int x);
