/* SPDX-License-Identifier: made up */
#ifndef DEMO_H
#define DEMO_H

#define DEMO_LEVEL	3
#define DEMO_IOC_GET	_IOR('d', 1, struct demo_state)

enum demo_mode {
	DEMO_MODE_OFF,
	DEMO_MODE_ON,
};

struct demo_state {
	enum demo_mode	mode;
	int		level;	/* at most DEMO_LEVEL */
};

#endif
