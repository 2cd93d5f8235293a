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
 * demo_add() - count one more (see demo_free())
 * @ctx: the context
 *
 * Return: the new count, %DEMO_MAX at most; @ctx grows. A ``literal`` and
 * **strong** reST text.
 */
int demo_add(struct demo_ctx *ctx)
{
	return ++ctx->count;
}
EXPORT_SYMBOL(demo_add);

/**
 * demo_reset() - start again, as @demo_add() never does
 * @ctx: the context
 */
static void demo_reset(struct demo_ctx *ctx)
{
	ctx->count = 0;
}

/**
 * demo_free() - free a context
 * @demo_ctx: the context, named like its type
 */
void demo_free(struct demo_ctx *demo_ctx)
{
}
EXPORT_SYMBOL(demo_free);
