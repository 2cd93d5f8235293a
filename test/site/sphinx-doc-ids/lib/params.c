/**
 * DOC: abmlevel (uint)
 *
 * Adaptive backlight level.
 */

/**
 * DOC: 2nd Param_Name (int)
 *
 * Leading digits leave the id, as docutils' make_id() drops them.
 */
