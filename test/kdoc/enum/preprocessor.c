// SPDX-License-Identifier: MIT
/*
 * An enum whose values come from an X-macro table: preprocessor lines in
 * the body are not values, as the reference reads them.
 */

/**
 * enum diag_id - one row of a table
 * @DIAG__COUNT: the number of rows
 */
enum diag_id {
#define ROW(id, name) DIAG_##id,
#include "rows.def"
#undef ROW
	DIAG__COUNT
};
