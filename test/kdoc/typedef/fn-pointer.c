// SPDX-License-Identifier: MIT
/* Function-pointer typedefs have parameters like functions. */

/**
 * typedef irq_handler_t - an interrupt handler
 * @irq: the interrupt number
 * @dev_id: the cookie given to request_irq()
 *
 * Return: IRQ_HANDLED or IRQ_NONE.
 */
typedef irqreturn_t (*irq_handler_t)(int irq, void *dev_id);

/**
 * typedef work_func_t - a work function, undescribed parameter
 */
typedef void (*work_func_t)(struct work_struct *work);

/**
 * typedef plain_fn - a function typedef without a pointer
 * @x: a value
 *
 * Return: a value.
 */
typedef int plain_fn(int x);
