// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: Overview
 *
 * The demo driver counts.
 */

/**
 * struct demo_ctx - the driver's context
 * @count: how many
 */
struct demo_ctx {
	int count;
};

/**
 * demo_add() - count one more
 * @ctx: the context
 *
 * Return: the new count.
 */
int demo_add(struct demo_ctx *ctx)
{
	return ++ctx->count;
}
EXPORT_SYMBOL(demo_add);

/**
 * demo_reset() - start again
 * @ctx: the context
 */
static void demo_reset(struct demo_ctx *ctx)
{
	ctx->count = 0;
}
