// SPDX-License-Identifier: MIT
/*
 * Comments above variables: scripts/kernel-doc cannot parse them as
 * functions and warns; quire keeps the warning and also makes var items.
 */

/**
 * force_power_off - set to power off instead of rebooting
 */
unsigned int force_power_off;

/**
 * thermal_points - the trip points, in millidegrees
 */
static const unsigned long thermal_points[] = {
	75000, 80000,
};

/**
 * default_ops - the operations used when none are given
 */
const struct file_operations default_ops = {
	.owner = NULL,
};
