/*
 * A parameter with a type and no name: named by its type ("int"), as
 * scripts/kernel-doc names it, and reported as undescribed.
 */

/**
 * set_mode() - set the mode
 * @dev: the device
 *
 * The second parameter is unused and has no name.
 */
void set_mode(struct device *dev, int);
