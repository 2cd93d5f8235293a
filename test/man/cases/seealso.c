// SPDX-License-Identifier: MIT
/* SEE ALSO is bounded: the hub names 20 functions, the page lists 16. */
/**
 * ref_hub() - calls everything
 *
 * Calls ref_19(), ref_18(), ref_17(), ref_16(), ref_15(), ref_14(), ref_13(), ref_12(), ref_11(), ref_10(), ref_09(), ref_08(), ref_07(), ref_06(), ref_05(), ref_04(), ref_03(), ref_02(), ref_01(), ref_00(),
 * and itself, ref_hub(), and an unknown_function().
 */
void ref_hub(void);

/**
 * ref_00() - one of many
 */
void ref_00(void);

/**
 * ref_01() - one of many
 */
void ref_01(void);

/**
 * ref_02() - one of many
 */
void ref_02(void);

/**
 * ref_03() - one of many
 */
void ref_03(void);

/**
 * ref_04() - one of many
 */
void ref_04(void);

/**
 * ref_05() - one of many
 */
void ref_05(void);

/**
 * ref_06() - one of many
 */
void ref_06(void);

/**
 * ref_07() - one of many
 */
void ref_07(void);

/**
 * ref_08() - one of many
 */
void ref_08(void);

/**
 * ref_09() - one of many
 */
void ref_09(void);

/**
 * ref_10() - one of many
 */
void ref_10(void);

/**
 * ref_11() - one of many
 */
void ref_11(void);

/**
 * ref_12() - one of many
 */
void ref_12(void);

/**
 * ref_13() - one of many
 */
void ref_13(void);

/**
 * ref_14() - one of many
 */
void ref_14(void);

/**
 * ref_15() - one of many
 */
void ref_15(void);

/**
 * ref_16() - one of many
 */
void ref_16(void);

/**
 * ref_17() - one of many
 */
void ref_17(void);

/**
 * ref_18() - one of many
 */
void ref_18(void);

/**
 * ref_19() - one of many
 */
void ref_19(void);
