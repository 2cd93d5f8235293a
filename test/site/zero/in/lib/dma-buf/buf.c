/**
 * dma_buf_get() - take a reference
 * @fd: the file descriptor
 */
void dma_buf_get(int fd);
