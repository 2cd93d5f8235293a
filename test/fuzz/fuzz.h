/* SPDX-License-Identifier: MIT */
/*
 * fuzz.h - the libFuzzer entry point every harness defines; the
 * standalone driver (standalone.c) calls it for each corpus file when the
 * harness is built without libFuzzer.
 */
#ifndef QU_TEST_FUZZ_H
#define QU_TEST_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/**
 * LLVMFuzzerTestOneInput() - run one input through the harness
 * @data: the input
 * @size: its length
 *
 * Return: 0; a bug shows as a crash or a sanitizer report.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* QU_TEST_FUZZ_H */
