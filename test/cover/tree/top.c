// SPDX-License-Identifier: MIT
/**
 * top_level - a variable at the top of the tree
 */
int top_level;
EXPORT_SYMBOL(top_level);
