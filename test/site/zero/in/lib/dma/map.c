/**
 * dma_map() - map a buffer
 * @buf: the buffer
 */
void dma_map(void *buf);
