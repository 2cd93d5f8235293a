/**
 * struct sk_buff - a socket buffer
 * @len: its length
 * @dev: the device, see dev_get()
 */
struct sk_buff {
	int len;
	struct net_device *dev;
};
