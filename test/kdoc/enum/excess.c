// SPDX-License-Identifier: MIT
/* A described value the enum does not have. */

/**
 * enum state - states
 * @S_ON: on
 * @S_OFF: off
 * @S_GONE: removed long ago
 */
enum state {
	S_ON,
	S_OFF,
};
