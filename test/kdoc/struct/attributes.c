// SPDX-License-Identifier: MIT
/* Struct attributes and member macros the reference rewrites. */

/**
 * struct packed_hdr - a packed, aligned header
 * @magic: the magic number
 * @len: the length
 * @bits: a bitmap of 64 bits
 * @table: a hash table
 * @fifo: a fifo of ints
 * @data: an atomic pointer
 */
struct packed_hdr {
	__le32 magic;
	__le16 len;
	DECLARE_BITMAP(bits, 64);
	DECLARE_HASHTABLE(table, 4);
	DECLARE_KFIFO(fifo, int, 16);
	void __rcu *data;
} __packed __aligned(4);

/**
 * struct grouped - members grouped with struct_group()
 * @hdr: the header group
 * @a: first grouped member
 * @b: second grouped member
 * @tail: after the group
 */
struct grouped {
	struct_group(hdr,
		int a;
		int b;
	);
	int tail;
};

/**
 * struct with_private_attr - __cacheline_aligned members
 * @lock: the lock
 * @count: a count
 */
struct with_private_attr {
	spinlock_t lock ____cacheline_aligned;
	int count;
} __attribute__((aligned(64)));
