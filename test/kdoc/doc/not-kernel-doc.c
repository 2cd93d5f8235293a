// SPDX-License-Identifier: MIT
/* A comment that opens with slash-star-star but names nothing. */

/**
 * This is just a long comment that happens to start like kernel doc
 */
int not_documented(void);

/**
 * real() - a real kernel-doc comment after it
 */
void real(void);
