/**
 * api_open() - open the thing
 * @flags: how
 */
int api_open(int flags);

/**
 * api_close() - close the thing; internal
 * @fd: which
 */
void api_close(int fd);
