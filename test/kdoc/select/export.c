// SPDX-License-Identifier: MIT
/* --export keeps exported items only; DOC: blocks never. */

/**
 * DOC: Overview
 *
 * Not output with --export.
 */

/**
 * exported_one() - exported with EXPORT_SYMBOL
 */
void exported_one(void)
{
}
EXPORT_SYMBOL(exported_one);

/**
 * exported_gpl() - exported with EXPORT_SYMBOL_GPL
 */
void exported_gpl(void)
{
}
EXPORT_SYMBOL_GPL(exported_gpl);

/**
 * exported_ns() - exported into a namespace
 */
void exported_ns(void)
{
}
/*
 * scripts/kernel-doc 6.1 does not see the _NS variants; quire does, on
 * purpose (docs/parity.md).
 */
EXPORT_SYMBOL_NS_GPL(exported_ns, MY_NS);

/**
 * internal_one() - not exported
 */
static void internal_one(void)
{
}

/**
 * struct not_a_function - never exported
 * @a: a member
 */
struct not_a_function {
	int a;
};
