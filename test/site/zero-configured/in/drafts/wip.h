/**
 * ring_draft() - left out with its folder
 */
void ring_draft(void);
