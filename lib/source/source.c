// SPDX-License-Identifier: MIT
/* source.c - placeholder until the tokenizer lands (source stage) */
#include "source/source.h"
