// SPDX-License-Identifier: MIT
/* kdoc.c - placeholder until the grammar lands (kdoc stage) */
#include "kdoc/kdoc.h"
