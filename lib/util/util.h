/* SPDX-License-Identifier: MIT */
/*
 * util.h - shared plumbing for every stage of quire
 *
 * In: nothing of documentation. Out: memory helpers that never fail,
 * growable buffers, arenas, a diagnostic registry, file I/O with atomic
 * replacement, a line index, a thread pool and shared libraries opened
 * on first use. Every stage may include it.
 */
#ifndef QU_UTIL_UTIL_H
#define QU_UTIL_UTIL_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QU_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define QU_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define QU_NORETURN __attribute__((noreturn))
#define QU_NONNULL_RET __attribute__((returns_nonnull))
#define QU_NONNULL_ARGS __attribute__((nonnull))
#else
#define QU_PRINTF(f, a)
#define QU_NORETURN
#define QU_NONNULL_RET
#define QU_NONNULL_ARGS
#endif

/* Memory ---------------------------------------------------------------- */

/**
 * qu_die_oom() - report exhaustion of memory and exit
 *
 * Prints "quire: out of memory" on stderr and exits with status 2.
 * Context: any thread.
 */
QU_NORETURN void qu_die_oom(void);

/**
 * qu_xmalloc() - malloc() that never returns NULL
 * @size: bytes wanted; 0 is allowed and returns a unique pointer
 *
 * Return: the memory; the caller frees it with free().
 */
void *qu_xmalloc(size_t size) QU_NONNULL_RET;

/**
 * qu_xcalloc() - calloc() that never returns NULL
 * @n: number of elements
 * @size: size of one element
 *
 * Return: zeroed memory; the caller frees it with free().
 */
void *qu_xcalloc(size_t n, size_t size) QU_NONNULL_RET;

/**
 * qu_xrealloc() - realloc() that never returns NULL
 * @ptr: memory from the qu_x family, or NULL
 * @size: new size in bytes
 *
 * Return: the moved or grown memory.
 */
void *qu_xrealloc(void *ptr, size_t size) QU_NONNULL_RET;

/**
 * qu_xgrow() - room for one more element in an array of @n, without a
 *	count of what is allocated
 * @v: the array (memory from the qu_x family, or NULL)
 * @n: the elements in use
 * @size: the size of one
 *
 * The array doubles when @n is zero or a power of two, so a long array
 * costs a few copies, not one an element (realloc() under ASan always
 * copies).
 *
 * Return: the array, moved or not.
 */
void *qu_xgrow(void *v, size_t n, size_t size) QU_NONNULL_RET;

/**
 * qu_big_alloc() - a large block of zeroed memory, in huge pages where the
 *	system gives them
 * @size: bytes wanted
 *
 * For the few blocks of megabytes a build fills or probes all over (a
 * kernel tree's symbol table, the unit cache's rows): mapped apart and
 * aligned to 2 MB; once qu_mem_huge() was called, marked MADV_HUGEPAGE, so
 * that 2 MB take one page fault and one TLB entry instead of 512. Fresh
 * pages are zero: nothing is cleared. Below QU_BIG_MIN, where that saves
 * nothing, the heap's.
 *
 * Return: the memory; the caller frees it with qu_big_free(), never free().
 */
void *qu_big_alloc(size_t size);

/** qu_big_free() - free qu_big_alloc()'s @p of @size bytes (NULL is fine) */
void qu_big_free(void *p, size_t size);

/* Below this, qu_big_alloc() takes the heap's memory. */
#define QU_BIG_MIN (4u << 20)

/**
 * qu_mem_huge() - large memory in huge pages from now on
 *
 * A program starts in 4 KB pages and calls this once it knows its work is
 * large. 2 MB pages (where transparent huge pages are set to "madvise" or
 * "always") make a build that fills hundreds of megabytes faster: one
 * fault and one TLB entry for 512 pages. A small build they make slower
 * where its memory is fresh: a 2 MB page is cleared whole however little
 * of it is used, and under a hypervisor that took the guest's free memory
 * back (virtio-balloon's free page reporting, 2 s after it was freed) each
 * 4 KB of it first faults in the host: a 2 MB page cost 4 to 6 ms there,
 * where 4 KB pages that fill it cost about 1 ms (docs/commands/build.md,
 * "Measured").
 *
 * From the call, qu_big_alloc() marks its blocks, and the hook
 * qu_mem_on_huge() set runs, once (the program's allocator). Safe to call
 * more than once; never undone.
 */
void qu_mem_huge(void);

/**
 * qu_mem_on_huge() - what qu_mem_huge() does besides qu_big_alloc()'s
 * @fn: run once, on the thread that first calls qu_mem_huge()
 *
 * The quire command sets its allocator's large-page option here. Set
 * before any thread calls qu_mem_huge().
 */
void qu_mem_on_huge(void (*fn)(void));

/** qu_mem_is_huge() - whether qu_mem_huge() was called */
bool qu_mem_is_huge(void);

/**
 * qu_xstrdup() - strdup() that never returns NULL
 * @s: a NUL-terminated string
 *
 * Return: a copy the caller frees with free().
 */
char *qu_xstrdup(const char *s) QU_NONNULL_RET;

/**
 * qu_xstrndup() - copy at most @len bytes of @s and terminate the copy
 * @s: the bytes
 * @len: how many bytes to copy at most
 *
 * Return: a NUL-terminated copy the caller frees with free().
 */
char *qu_xstrndup(const char *s, size_t len) QU_NONNULL_RET;

/**
 * QU_VEC_GROW() - make room for one more element in a growable array
 * @v: the array pointer (an lvalue)
 * @n: the count of elements in use
 * @alloc: the count of elements allocated (an lvalue)
 *
 * Grows by doubling, so appending n elements costs O(n) in total.
 */
#define QU_VEC_GROW(v, n, alloc)                                           \
	do {                                                               \
		if ((n) >= (alloc)) {                                      \
			(alloc) = (alloc) ? (alloc) * 2 : 8;               \
			(v) = qu_xrealloc((v), (alloc) * sizeof(*(v)));    \
		}                                                          \
	} while (0)

/* Slices and buffers ---------------------------------------------------- */

/**
 * struct qu_slice - a non-owning view of bytes
 * @ptr: first byte; not NUL-terminated
 * @len: number of bytes
 */
struct qu_slice {
	const char *ptr;
	size_t len;
};

/**
 * struct qu_buf - an owning, growable, NUL-terminated byte buffer
 * @buf: the bytes; never NULL, always NUL-terminated at @len
 * @len: bytes in use, excluding the terminating NUL
 * @alloc: bytes allocated; 0 while @buf points at a shared empty string
 *
 * Initialise with QU_BUF_INIT or qu_buf_init(); qu_buf_detach() hands the
 * bytes to the caller and leaves the buffer empty and reusable.
 */
struct qu_buf {
	char *buf;
	size_t len;
	size_t alloc;
};

extern char qu_buf_empty[];
#define QU_BUF_INIT { qu_buf_empty, 0, 0 }

/*
 * The small buffer operations are inline: the renderer and the search
 * index call them hundreds of thousands of times a build.
 */

/**
 * qu_buf_init() - make @b an empty buffer
 * @b: the buffer
 */
static inline void qu_buf_init(struct qu_buf *b)
{
	b->buf = qu_buf_empty;
	b->len = 0;
	b->alloc = 0;
}

/**
 * qu_buf_fini() - free the bytes of @b and make it empty
 * @b: the buffer
 */
static inline void qu_buf_fini(struct qu_buf *b)
{
	if (b->alloc)
		free(b->buf);
	qu_buf_init(b);
}

/**
 * qu_buf_reset() - empty @b, keeping its memory for reuse
 * @b: the buffer
 */
static inline void qu_buf_reset(struct qu_buf *b)
{
	b->len = 0;
	if (b->alloc)
		b->buf[0] = '\0';
}

/**
 * qu_buf_grow() - make room for @extra more bytes
 * @b: the buffer
 * @extra: bytes wanted beyond @b->len
 */
void qu_buf_grow(struct qu_buf *b, size_t extra);

/**
 * qu_buf_add() - append bytes
 * @b: the buffer
 * @ptr: the bytes; may contain NUL
 * @len: how many
 *
 * Inline for the same reason as qu_buf_addc(): parsers append short
 * pieces, and the call to qu_buf_grow() cost more than most copies.
 */
static inline void qu_buf_add(struct qu_buf *b, const void *ptr, size_t len)
{
	if (!len)
		return;
	/* room for the bytes and the NUL; qu_buf_grow() checks overflow */
	if (len >= b->alloc - b->len)
		qu_buf_grow(b, len);
	memcpy(b->buf + b->len, ptr, len);
	b->len += len;
	b->buf[b->len] = '\0';
}

/**
 * qu_buf_adds() - append a NUL-terminated string
 * @b: the buffer
 * @s: the string
 */
static inline void qu_buf_adds(struct qu_buf *b, const char *s)
{
	qu_buf_add(b, s, strlen(s));
}

/**
 * qu_buf_addc() - append one byte
 * @b: the buffer
 * @c: the byte
 *
 * Inline, because parsers build strings a byte at a time: a call per byte
 * was a tenth of "quire check" over the kernel tree.
 */
static inline void qu_buf_addc(struct qu_buf *b, char c)
{
	/* room for the byte and the NUL: qu_buf_grow() only when there is not */
	if (b->len + 2 > b->alloc)
		qu_buf_grow(b, 1);
	b->buf[b->len++] = c;
	b->buf[b->len] = '\0';
}

/**
 * qu_buf_add_path() - append "@dir/@name"
 * @b: the buffer
 * @dir: a folder
 * @name: a name in it
 *
 * As qu_buf_addf(@b, "%s/%s", @dir, @name), without the formatting, for the
 * loops that join hundreds of thousands of paths.
 */
static inline void qu_buf_add_path(struct qu_buf *b, const char *dir,
				   const char *name)
{
	qu_buf_adds(b, dir);
	qu_buf_addc(b, '/');
	qu_buf_adds(b, name);
}

/**
 * qu_buf_addf() - append printf-formatted text
 * @b: the buffer
 * @fmt: the format
 * @...: its arguments
 */
void qu_buf_addf(struct qu_buf *b, const char *fmt, ...) QU_PRINTF(2, 3);

/**
 * qu_buf_vaddf() - append printf-formatted text from a va_list
 * @b: the buffer
 * @fmt: the format
 * @ap: its arguments
 */
void qu_buf_vaddf(struct qu_buf *b, const char *fmt, va_list ap);

/**
 * qu_buf_detach() - take the bytes of @b
 * @b: the buffer; left empty and reusable
 * @len_out: if not NULL, receives the length
 *
 * Return: a NUL-terminated string the caller frees with free().
 */
char *qu_buf_detach(struct qu_buf *b, size_t *len_out);

/**
 * qu_buf_add_utf8() - append @len bytes of @s, each invalid UTF-8 byte
 *	as U+FFFD
 * @b: the buffer
 * @s: the bytes
 * @len: how many
 */
void qu_buf_add_utf8(struct qu_buf *b, const char *s, size_t len);

/**
 * qu_buf_add_u64() - append a number in decimal, as "%" PRIu64 would
 * @b: the buffer
 * @v: the number
 *
 * For loops that write many numbers, without printf's parsing; inline,
 * so that a number costs no call when the buffer has room.
 */
static inline void qu_buf_add_u64(struct qu_buf *b, uint64_t v)
{
	char d[20];
	size_t n = sizeof(d);

	do
		d[--n] = (char)('0' + v % 10);
	while (v /= 10);
	qu_buf_add(b, d + n, sizeof(d) - n);
}

/**
 * qu_buf_add_json_str() - append @len bytes of @s as a quoted JSON string
 * @b: the buffer
 * @s: the bytes, UTF-8; invalid sequences become U+FFFD
 * @len: how many
 */
void qu_buf_add_json_str(struct qu_buf *b, const char *s, size_t len);

/* Arenas ---------------------------------------------------------------- */

/**
 * struct qu_arena - a bump allocator whose memory dies all at once
 * @chunks: the chunks, newest first (each begins with a link pointer)
 * @cur: next free byte in the newest chunk
 * @end: end of the newest chunk
 *
 * Built with -Darena_debug=true, every allocation is its own malloc() so
 * that ASan sees overflows and use after free. Not thread-safe: one arena
 * belongs to one unit, worked on by one thread at a time.
 */
struct qu_arena {
	void *chunks;
	char *cur;
	char *end;
};

/**
 * qu_arena_init() - make an empty arena
 * @a: the arena
 */
void qu_arena_init(struct qu_arena *a);

/**
 * qu_arena_fini() - free everything allocated from @a
 * @a: the arena; left empty and reusable
 */
void qu_arena_fini(struct qu_arena *a);

/* what every arena allocation is aligned to: any type's alignment */
#define QU_ARENA_ALIGN 16

/**
 * qu_arena_need() - the bytes an allocation of @size takes in an arena
 * @size: bytes asked of qu_arena_alloc()
 *
 * Return: @size rounded up to QU_ARENA_ALIGN; SIZE_MAX when that
 * overflows.
 */
static inline size_t qu_arena_need(size_t size)
{
	size_t need = (size + QU_ARENA_ALIGN - 1) &
		      ~(size_t)(QU_ARENA_ALIGN - 1);

	return need < size ? SIZE_MAX : need;
}

/**
 * qu_arena_alloc_chunk() - qu_arena_alloc() when the current chunk is full
 * @a: the arena
 * @size: bytes wanted
 *
 * Call qu_arena_alloc(); this is its part that takes a new chunk.
 * Return: as qu_arena_alloc().
 */
void *qu_arena_alloc_chunk(struct qu_arena *a, size_t size);

/**
 * qu_arena_alloc() - allocate @size bytes aligned for any type
 * @a: the arena
 * @size: bytes wanted
 *
 * Inline while the current chunk has room: the parsers allocate a
 * hundred thousand small pieces a build, and the call cost more than
 * the bump.
 * Return: uninitialised memory that lives until qu_arena_fini().
 */
static inline void *qu_arena_alloc(struct qu_arena *a, size_t size)
{
#ifndef QU_ARENA_DEBUG
	size_t need = qu_arena_need(size);

	/* SIZE_MAX (@size overflowed) never fits: the chunk's part reports */
	if (a->cur && need <= (size_t)(a->end - a->cur)) {
		void *p = a->cur;

		a->cur += need;
		return p;
	}
#endif
	return qu_arena_alloc_chunk(a, size);
}

/**
 * qu_arena_reserve() - give an empty arena one block of @size bytes
 * @a: the arena, with nothing allocated yet
 * @size: the sum of qu_arena_need() over the allocations to come
 *
 * For data whose size is known before it is made (a unit read back from
 * the cache): its allocations then take one block of their size, where
 * the first would otherwise take a 64 KB chunk and touch its pages. An
 * allocation past @size takes a chunk as usual. Does nothing when @a is
 * not empty or @size is 0.
 */
void qu_arena_reserve(struct qu_arena *a, size_t size);

/**
 * qu_arena_zalloc() - allocate @size zeroed bytes
 * @a: the arena
 * @size: bytes wanted
 *
 * Return: zeroed memory that lives until qu_arena_fini().
 */
void *qu_arena_zalloc(struct qu_arena *a, size_t size);

/**
 * qu_arena_strndup() - copy @len bytes into the arena and terminate them
 * @a: the arena
 * @s: the bytes
 * @len: how many
 *
 * Return: a NUL-terminated copy that lives until qu_arena_fini().
 */
char *qu_arena_strndup(struct qu_arena *a, const char *s, size_t len);

/**
 * qu_arena_strdup() - copy a NUL-terminated string into the arena
 * @a: the arena
 * @s: the string
 *
 * Return: the copy, living until qu_arena_fini().
 */
char *qu_arena_strdup(struct qu_arena *a, const char *s);

/**
 * qu_arena_memdup() - copy @len bytes into the arena
 * @a: the arena
 * @p: the bytes
 * @len: how many
 *
 * Return: the copy (not terminated), living until qu_arena_fini().
 */
void *qu_arena_memdup(struct qu_arena *a, const void *p, size_t len);

/* Diagnostics ----------------------------------------------------------- */

/**
 * enum qu_diag_level - how serious a diagnostic is
 * @QU_LEVEL_WARNING: bad input; work goes on; fatal under -Werror
 * @QU_LEVEL_ERROR: input that could not be used at all (an unreadable file)
 */
enum qu_diag_level {
	QU_LEVEL_WARNING,
	QU_LEVEL_ERROR,
};

/*
 * enum qu_diag_id - one enumerator per row of lib/util/diag.def, named
 * QU_W_<ID>, then QU_DIAG__COUNT. The rows are listed, with their -W
 * names, on the warnings page of the documentation.
 */
enum qu_diag_id {
#define QU_DIAG(id, name, level, doc) QU_W_##id,
#include "diag.def"
#undef QU_DIAG
	QU_DIAG__COUNT
};

/**
 * struct qu_diag_info - the registry's row of one diagnostic
 * @name: the stable -W name, without "-W"
 * @level: its default level
 * @doc: one sentence for the warnings page
 */
struct qu_diag_info {
	const char *name;
	enum qu_diag_level level;
	const char *doc;
};

/**
 * qu_diag_info() - look up a diagnostic's registry row
 * @id: the diagnostic
 *
 * Return: the row; static storage.
 */
const struct qu_diag_info *qu_diag_info(enum qu_diag_id id);

/**
 * qu_diag_find() - find a diagnostic by its -W name
 * @name: the name without "-W"
 *
 * Return: the id, or -1 when no row has that name.
 */
int qu_diag_find(const char *name);

/**
 * struct qu_diag - one recorded diagnostic
 * @path: the file, as the user named it; not owned
 * @line: 1-based line
 * @col: 1-based column
 * @id: the registry row
 * @msg: the text, owned by the list
 */
struct qu_diag {
	const char *path;
	uint32_t line;
	uint32_t col;
	enum qu_diag_id id;
	char *msg;
};

/**
 * struct qu_diags - a list of diagnostics, usually one per unit
 * @v: the diagnostics
 * @n: how many
 * @alloc: how many allocated
 */
struct qu_diags {
	struct qu_diag *v;
	size_t n;
	size_t alloc;
};

/**
 * qu_diags_init() - make an empty list
 * @d: the list
 */
void qu_diags_init(struct qu_diags *d);

/**
 * qu_diags_fini() - free a list and its messages
 * @d: the list
 */
void qu_diags_fini(struct qu_diags *d);

/**
 * qu_diag() - record a diagnostic
 * @d: the list
 * @id: the registry row
 * @path: the file; must outlive @d
 * @line: 1-based line (0 for the whole file)
 * @col: 1-based column (0 for none)
 * @fmt: the text, lower case, no final period
 * @...: its arguments
 *
 * Context: thread-safe for distinct @d.
 */
void qu_diag(struct qu_diags *d, enum qu_diag_id id, const char *path,
	     uint32_t line, uint32_t col, const char *fmt, ...)
	QU_PRINTF(6, 7);

/**
 * qu_diag_text() - record a diagnostic whose text is made already
 * @d: the list
 * @id: the registry row
 * @path: the file; must outlive @d
 * @line: 1-based line (0 for none)
 * @col: 1-based column (0 for none)
 * @msg: the text (copied): qu_diag(@d, ..., "%.*s", @len, @msg)
 * @len: its length
 *
 * For copying diagnostics from one list to another, tens of thousands
 * of them in a kernel tree's build, without formatting each again.
 * Context: thread-safe for distinct @d.
 */
void qu_diag_text(struct qu_diags *d, enum qu_diag_id id, const char *path,
		  uint32_t line, uint32_t col, const char *msg, size_t len);

/**
 * qu_diags_move() - append every diagnostic of @from to @to
 * @to: the destination
 * @from: the source; left empty
 */
void qu_diags_move(struct qu_diags *to, struct qu_diags *from);

/**
 * qu_diags_sort() - sort by path, line, column, name and text; merge repeats
 * @d: the list
 *
 * Identical diagnostics (same place, name and text) are kept once.
 */
void qu_diags_sort(struct qu_diags *d);

/**
 * qu_diag_cmp() - the order qu_diags_sort() puts diagnostics in
 * @a: one
 * @b: another
 *
 * Return: <0, 0 or >0; 0 for the same place, name and text.
 */
int qu_diag_cmp(const struct qu_diag *a, const struct qu_diag *b);

/**
 * qu_diags_count() - count a list's errors and warnings, by their level
 * @nerr: receives the number of errors
 * @nwarn: receives the number of warnings (errors under -Werror too)
 * @d: the list
 *
 * Every command counts with this, so their summaries and exit codes agree.
 */
void qu_diags_count(size_t *nerr, size_t *nwarn, const struct qu_diags *d);

/**
 * qu_diags_print() - print every diagnostic in compiler format
 * @d: the list
 * @f: where to ("path:line:col: warning: text [-Wname]")
 * @werror: print warnings as errors
 *
 * Return: the number printed.
 */
size_t qu_diags_print(const struct qu_diags *d, FILE *f, bool werror);

/**
 * struct qu_hash128 - a 128-bit content hash (XXH3-128)
 * @lo: the low 64 bits
 * @hi: the high 64 bits
 */
struct qu_hash128 {
	uint64_t lo;
	uint64_t hi;
};

/**
 * qu_hash128() - the XXH3-128 hash of bytes, the content key of caches
 * @p: the bytes
 * @len: how many
 *
 * Return: the hash; the same on every machine.
 */
struct qu_hash128 qu_hash128(const void *p, size_t len);

/**
 * qu_hash128_eq() - whether two hashes are equal
 * @a: one
 * @b: the other
 */
static inline bool qu_hash128_eq(struct qu_hash128 a, struct qu_hash128 b)
{
	return a.lo == b.lo && a.hi == b.hi;
}

/* Files ----------------------------------------------------------------- */

/**
 * qu_file_read() - read a whole regular file
 * @out: receives the bytes (NUL-terminated; the file may hold NULs)
 * @path: the file
 * @err: receives a one-line message on failure
 *
 * Anything but a regular file (a FIFO, a device, a socket, a folder) is
 * refused without being opened.
 *
 * Return: 0, or -1 if the file cannot be opened or read, or is not a
 * regular file.
 */
int qu_file_read(struct qu_buf *out, const char *path, struct qu_buf *err);

/**
 * qu_file_write() - write a file in place
 * @path: the file
 * @data: the bytes
 * @len: how many
 * @excl: true to refuse a file that exists (O_EXCL: nothing already there
 *	is ever overwritten, not even through a symbolic link); false to
 *	truncate one
 * @err: receives a one-line message on failure
 *
 * One write(2) for the whole (no stdio buffer between): for the many files
 * of a folder that is swapped in whole afterwards, where a reader never
 * sees a file half written.
 *
 * Return: 0, or -1 (message in @err).
 */
int qu_file_write(const char *path, const void *data, size_t len, bool excl,
		  struct qu_buf *err);

/**
 * qu_file_write_atomic() - replace a file with new contents atomically
 * @path: the file
 * @data: the bytes
 * @len: how many
 * @err: receives a one-line message on failure
 *
 * Writes a temporary file beside @path and renames it over @path, so a
 * reader sees the old file or the new one, never a mix.
 *
 * Return: 0, or -1 (message in @err; @path is unchanged).
 */
int qu_file_write_atomic(const char *path, const void *data, size_t len,
			 struct qu_buf *err);

/**
 * qu_file_map() - map a whole regular file, read-only
 * @path: the file
 * @map: receives the mapping (NULL for an empty file)
 * @size: receives its size
 *
 * For the cache's large files, read once and pointed into rather than
 * copied: the pages are the page cache's, faulted in a few at a time.
 *
 * Return: 0, or -1 with errno set (ENOENT when there is no such file).
 */
int qu_file_map(const char *path, const void **map, size_t *size);

/** qu_file_unmap() - undo qu_file_map() (a NULL @map is fine) */
void qu_file_unmap(const void *map, size_t size);

/**
 * struct qu_file_out - a file written in pieces and put in place at once
 * @b: bytes not yet written: append to it with qu_buf_add() and the like,
 *	then call qu_file_out_spill()
 * @path: the file it will replace (private, as the rest)
 * @tmp: the temporary file beside it
 * @fd: the temporary file, open
 * @error: errno of the first write that failed, or 0
 * @sum: XXH3's streaming state, for qu_file_out_sum()
 *
 * @off: the bytes written to @fd so far, a multiple of QU_FILE_OUT_CHUNK
 * @hashed: how many of @b's first bytes are in @sum already (or left out)
 *
 * What qu_file_write_atomic() does for bytes held
 * whole in memory, this does for a file made piece by piece: the pieces
 * go to a temporary file beside the path, in whole QU_FILE_OUT_CHUNKs at
 * offsets that are multiples of it (2 MB: the page cache then holds the
 * file in huge pages, which a later mmap(2) reads several times faster
 * than 4 KB ones on a machine where each missed page is dear), and
 * qu_file_out_commit() renames it over the path. A 20 MB cache file is
 * never held, nor its pages touched, in memory whole. An XXH3-64 of the
 * bytes is kept as they go, for the checksums the cache's files carry.
 */
struct qu_file_out {
	struct qu_buf b;
	char *path;
	char *tmp;
	int fd;
	int error;
	void *sum;
	uint64_t off;
	size_t hashed;
};

#define QU_FILE_OUT_CHUNK (2 * 1024 * 1024)

/**
 * qu_file_out_open() - start a file that will replace @path
 * @f: the writer
 * @path: the file
 * @err: receives a one-line message on failure
 *
 * Return: 0, or -1 (message in @err; nothing to commit or abort).
 */
int qu_file_out_open(struct qu_file_out *f, const char *path,
		     struct qu_buf *err);

/** qu_file_out_spill() - write @f->b out once it holds a chunk's worth */
void qu_file_out_spill(struct qu_file_out *f);

/**
 * qu_file_out_add() - append bytes; the whole chunks of a large piece are
 * written as they are, without a copy
 * @f: the writer
 * @p: the bytes
 * @n: how many
 */
void qu_file_out_add(struct qu_file_out *f, const void *p, size_t n);

/**
 * qu_file_out_sum() - XXH3-64 of every byte appended since
 * qu_file_out_open() or the last qu_file_out_sum_reset()
 * @f: the writer
 *
 * Return: the hash, as XXH3_64bits() of those bytes gives it.
 */
uint64_t qu_file_out_sum(struct qu_file_out *f);

/** qu_file_out_sum_reset() - start qu_file_out_sum() over from here */
void qu_file_out_sum_reset(struct qu_file_out *f);

/**
 * qu_file_out_put_at() - write over bytes already appended (a header
 * whose fields are known last); the sum does not change
 * @f: the writer
 * @off: where, from the file's start
 * @p: the bytes
 * @n: how many; @off + @n must not pass what was appended
 */
void qu_file_out_put_at(struct qu_file_out *f, uint64_t off, const void *p,
			size_t n);

/**
 * qu_file_out_commit() - put the file in place of the path, and free @f
 * @f: the writer
 * @err: receives a one-line message on failure
 *
 * Return: 0, or -1 (message in @err; the path is unchanged and the
 * temporary file removed).
 */
int qu_file_out_commit(struct qu_file_out *f, struct qu_buf *err);

/** qu_file_out_abort() - remove the temporary file and free @f */
void qu_file_out_abort(struct qu_file_out *f);

/**
 * qu_mkdir_p() - create a directory and its missing parents
 * @path: the directory
 * @err: receives a one-line message on failure
 *
 * Return: 0, or -1.
 */
int qu_mkdir_p(const char *path, struct qu_buf *err);

/**
 * qu_rm_tree() - remove a file or a folder and all it holds
 * @path: the path; symlinks are removed, never followed
 *
 * Only for folders quire made: the callers check ownership first.
 *
 * Return: 0, or -1 when something could not be removed.
 */
int qu_rm_tree(const char *path);

/**
 * qu_rm_tree_marked() - remove a folder quire marked, its marker last
 * @path: the folder
 * @marker: the name of the marker file in it
 *
 * As qu_rm_tree(), but the marker goes after everything else the folder
 * holds: a removal cut short (the process killed) leaves the folder
 * marked, so the next build knows it for quire's and removes the rest.
 *
 * Return: 0, or -1 when something could not be removed.
 */
int qu_rm_tree_marked(const char *path, const char *marker);

/* Where file bytes come from -------------------------------------------- */

/**
 * enum qu_fkind - what a path names, as stat(2) would say
 * @QU_FK_FILE: a regular file
 * @QU_FK_DIR: a folder
 * @QU_FK_LINK: a symbolic link (only when not following links)
 * @QU_FK_OTHER: a FIFO, a device, a socket: never to be opened
 * @QU_FK_UNKNOWN: only from a listing (qu_files_list()) that does not
 *	say: qu_files_stat() tells
 */
enum qu_fkind {
	QU_FK_FILE,
	QU_FK_DIR,
	QU_FK_LINK,
	QU_FK_OTHER,
	QU_FK_UNKNOWN,
};

/**
 * struct qu_fstat - what a build needs to know of a path without reading it
 * @kind: what it is
 * @size: its size in bytes
 * @mtime: its modification time, in nanoseconds
 * @ctime: its status change time, in nanoseconds
 * @ino: its inode number
 *
 * For a file of a git revision, @size, @ino and @mtime together are its
 * blob id's bits (the top bit of @size set, which no file on disk has)
 * and @ctime is 0: equal ids mean equal bytes, so a cache that compares
 * these four fields trusts a blob as it trusts an untouched file.
 */
struct qu_fstat {
	enum qu_fkind kind;
	uint64_t size;
	uint64_t mtime;
	uint64_t ctime;
	uint64_t ino;
};

/**
 * struct qu_files - where a build's input bytes come from
 * @read: read a whole regular file (as qu_file_read())
 * @stat: what a path is; @follow as stat(2), else as lstat(2); -1 with
 *	errno set when it is not there
 * @list: the names in a folder but "." and "..", sorted bytewise, in a
 *	new array of new strings the caller frees, and when @kinds is not
 *	NULL what each is as lstat(2) would say (a new array, which may
 *	hold QU_FK_UNKNOWN); -1 with errno set
 * @real: the path with links resolved, as realpath(3); -1 with errno set
 * @ctx: passed first to each
 *
 * The file system is the default (a NULL struct qu_files *, which every
 * qu_files_*() call accepts); lib/git gives one that reads a revision
 * straight from the object database (qu_git_fs_new()). Context: each
 * call must be thread-safe; the file system's are.
 */
struct qu_files {
	int (*read)(void *ctx, struct qu_buf *out, const char *path,
		    struct qu_buf *err);
	int (*stat)(void *ctx, struct qu_fstat *out, const char *path,
		    bool follow);
	int (*list)(void *ctx, char ***names, enum qu_fkind **kinds,
		    size_t *n, const char *dir);
	int (*real)(void *ctx, struct qu_buf *out, const char *path);
	void *ctx;
};

/**
 * qu_files_read() - read a whole regular file from @fs
 * @fs: where from; NULL for the file system
 * @out: receives the bytes
 * @path: the file
 * @err: receives a one-line message on failure
 *
 * Return: 0, or -1.
 */
int qu_files_read(const struct qu_files *fs, struct qu_buf *out,
		  const char *path, struct qu_buf *err);

/**
 * qu_files_stat() - what a path of @fs is
 * @fs: where; NULL for the file system
 * @out: receives what it is
 * @path: the path
 * @follow: follow a symbolic link (stat) or not (lstat)
 *
 * Return: 0, or -1 with errno set.
 */
int qu_files_stat(const struct qu_files *fs, struct qu_fstat *out,
		  const char *path, bool follow);

/**
 * qu_files_list() - the names in a folder of @fs, sorted
 * @fs: where; NULL for the file system
 * @names: receives the names (the caller frees each, and the array)
 * @kinds: NULL, or receives what each name is without following links
 *	(an array the caller frees), as far as the listing says: the file
 *	system's readdir() spares an lstat() of every entry where it gives
 *	the type, and says QU_FK_UNKNOWN where it does not
 * @n: receives how many
 * @dir: the folder
 *
 * Return: 0, or -1 with errno set.
 */
int qu_files_list(const struct qu_files *fs, char ***names,
		  enum qu_fkind **kinds, size_t *n, const char *dir);

/**
 * qu_files_real() - a path of @fs with its links resolved
 * @fs: where; NULL for the file system (realpath(3))
 * @out: receives the path (reset first)
 * @path: the path
 *
 * Return: 0, or -1 with errno set.
 */
int qu_files_real(const struct qu_files *fs, struct qu_buf *out,
		  const char *path);

/*
 * struct qu_files_memo: the file system, with the folder listings it gave
 * kept until cleared.
 *
 * For quire serve, whose watcher knows when no file was made, moved or
 * deleted since the last build: that build's walk of the tree is then
 * replayed from memory. Reading, stat and real paths go to the file
 * system as they are. Thread-safe.
 */
struct qu_files_memo;

/** qu_files_memo_new() - a memo with nothing kept */
struct qu_files_memo *qu_files_memo_new(void);

/**
 * qu_files_memo_files() - the memo as a struct qu_files
 * @m: the memo
 *
 * Return: what to read through, valid until qu_files_memo_free().
 */
const struct qu_files *qu_files_memo_files(struct qu_files_memo *m);

/**
 * qu_files_memo_put() - keep a listing of @dir as if it had been read
 * @m: the memo
 * @dir: the folder, as the walk names it
 * @names: its names, sorted as qu_files_list() sorts them (copied)
 * @kinds: what each is (copied)
 * @n: how many
 *
 * For quire build, whose stamp keeps the listings of the last walk: a
 * folder whose stat(2) data is as it was then lists as it did.
 */
void qu_files_memo_put(struct qu_files_memo *m, const char *dir,
		       const char *const *names, const enum qu_fkind *kinds,
		       size_t n);

/**
 * qu_files_memo_get() - the listing the memo keeps of @dir
 * @m: the memo
 * @dir: the folder
 * @names: receives its names (the memo's: valid until cleared or freed)
 * @kinds: receives what each is (likewise)
 * @n: receives how many
 *
 * Return: 0, or -1 when the memo has none.
 */
int qu_files_memo_get(struct qu_files_memo *m, const char *dir,
		      char *const **names, const enum qu_fkind **kinds,
		      size_t *n);

/** qu_files_memo_clear() - forget every listing: the next are read anew */
void qu_files_memo_clear(struct qu_files_memo *m);

/** qu_files_memo_free() - free @m (NULL is fine) */
void qu_files_memo_free(struct qu_files_memo *m);

/* Line index ------------------------------------------------------------ */

/**
 * struct qu_lines - the offsets at which each line of a text begins
 * @start: @start[i] is the offset of line i + 1
 * @n: the number of lines
 */
struct qu_lines {
	uint32_t *start;
	size_t n;
};

/**
 * qu_lines_init() - index the line starts of @len bytes at @text
 * @l: the index to fill
 * @text: the bytes
 * @len: how many (at most 4 GiB)
 *
 * A line ends at "\n"; a "\r" before it belongs to the line.
 */
void qu_lines_init(struct qu_lines *l, const char *text, size_t len);

/**
 * qu_lines_fini() - free an index
 * @l: the index
 */
void qu_lines_fini(struct qu_lines *l);

/**
 * qu_lines_find() - turn a byte offset into a 1-based line
 * @l: the index
 * @off: the offset
 *
 * Return: the line holding @off; the column is @off minus the line's start
 * plus one.
 */
uint32_t qu_lines_find(const struct qu_lines *l, size_t off);

/* Threads --------------------------------------------------------------- */

/**
 * struct qu_job - what one worker of the pool owns while it runs
 * @worker: index of the worker, from 0
 * @scratch: a buffer the task may use freely
 * @err: environment errors of the current task (one line each)
 */
struct qu_job {
	unsigned worker;
	struct qu_buf scratch;
	struct qu_buf err;
};

/**
 * typedef qu_task_fn - one task of a parallel loop
 * @job: the worker running it
 * @i: the task's index
 * @payload: the caller's context
 */
typedef void (*qu_task_fn)(struct qu_job *job, size_t i, void *payload);

/**
 * qu_pool_run() - run @fn for every index below @n on @threads workers
 * @threads: how many threads; 0 means the number of online processors
 * @n: how many tasks
 * @fn: the task
 * @payload: passed to every call
 *
 * Tasks are handed out in index order; each task must write its results
 * to a place of its own (slot @i), so the caller can merge them in order
 * and the output does not depend on @threads. Returns when all are done.
 */
void qu_pool_run(unsigned threads, size_t n, qu_task_fn fn, void *payload);

/**
 * struct qu_thread - a function run beside the caller (qu_thread_start())
 * @tid: its thread
 * @apart: it runs on @tid, not yet waited for
 */
struct qu_thread {
	pthread_t tid;
	bool apart;
};

/**
 * qu_thread_start() - run @fn(@arg) beside the caller
 * @t: the handle, for qu_thread_wait()
 * @apart: on a thread of its own; when false (a build of one job), or
 *	when no thread can be made, @fn runs at once on the caller's
 * @fn: the function
 * @arg: its argument
 *
 * Return: whether @fn runs apart (else it has returned).
 */
bool qu_thread_start(struct qu_thread *t, bool apart, void *(*fn)(void *),
		     void *arg);

/**
 * qu_thread_wait() - wait until qu_thread_start()'s function has returned
 * @t: the handle; a zeroed one, or one waited for, returns at once
 */
void qu_thread_wait(struct qu_thread *t);

/**
 * qu_ncpus() - the number of online processors
 *
 * Return: at least 1.
 */
unsigned qu_ncpus(void);

/* Libraries opened on first use ---------------------------------------- */

/**
 * DOC: Libraries opened on first use
 *
 * libgit2, libmicrohttpd and graphviz bring about 35 shared libraries
 * with them, and most runs use none of them. Linked, they would cost
 * every start of quire: `quire --version` takes 7.2 ms with them and
 * 2.8 ms without, a build of the kernel's core-api 641 M instructions
 * with them and 619 M without, most of the difference in the dynamic
 * loader's symbol lookups. The stages that use them (lib/git, lib/serve,
 * lib/render's graph.c) open them with dlopen() on first use instead,
 * by the SONAME meson found at configure time, and call them through a
 * table of pointers typed from the library's own header
 * (`__typeof__(git_repository_open) *`). A library stays open until
 * the process ends: graphviz's and libgit2's state outlives any one
 * caller, and a library closed under a thread still in it would crash.
 */

/**
 * struct qu_dl_sym - one symbol a library is opened for
 * @name: its name in the library
 * @off: where its address goes, as an offset in the caller's table
 */
struct qu_dl_sym {
	const char *name;
	size_t off;
};

/**
 * QU_DL_SYM() - the row of a symbol whose table member has its name
 * @type: the table, a struct type
 * @sym: the symbol and the member
 */
#define QU_DL_SYM(type, sym) {#sym, offsetof(type, sym)}

/**
 * struct qu_dl - a shared library opened on first use, and its table
 * @soname: the name dlopen() is given ("libgit2.so.1.5")
 * @syms: the symbols to look up
 * @nsyms: how many
 * @table: the caller's struct of pointers, filled by qu_dl_load()
 * @lock: qu_dl_load()'s own, as are the fields below
 * @state: 0 not tried yet, 1 open and @table filled, -1 failed
 * @why: after a failure, dlerror()'s words, kept for every later caller
 *
 * Define one per library, statically, with QU_DL_INIT().
 */
struct qu_dl {
	const char *soname;
	const struct qu_dl_sym *syms;
	size_t nsyms;
	void *table;
	pthread_mutex_t lock;
	int state;
	char *why;
};

/**
 * QU_DL_INIT() - the initialiser of a struct qu_dl
 * @soname: the library's SONAME
 * @syms: an array of struct qu_dl_sym
 * @table: the address of the table the rows of @syms point into
 */
#define QU_DL_INIT(soname, syms, table)                                   \
	{(soname), (syms), QU_ARRAY_SIZE(syms), (table),                  \
	 PTHREAD_MUTEX_INITIALIZER, 0, NULL}

/**
 * qu_dl_load() - open a library and fill its table, once
 * @dl: the library
 * @need: what it is needed for, for the message ("to draw graphs")
 * @err: receives the message on failure (appended): "cannot load SONAME
 *	(needed NEED): " and dlerror()'s words, such as "SONAME: cannot
 *	open shared object file: No such file or directory" or
 *	"PATH: undefined symbol: NAME"
 *
 * The first call opens the library (RTLD_NOW, so a symbol it lacks or
 * a library it needs fails here rather than at some later call) and
 * looks up every symbol; later calls only say how that went, and a
 * failed library is not tried again. Nothing is ever closed.
 * Context: thread-safe.
 * Return: 0 when every pointer of the table is set, -1 otherwise.
 */
int qu_dl_load(struct qu_dl *dl, const char *need, struct qu_buf *err);

/**
 * qu_dl_failed() - whether qu_dl_load() tried @dl and failed
 * @dl: the library
 *
 * Opens nothing: a caller that only wants to say why something was left
 * undone asks this first.
 * Context: thread-safe.
 * Return: true after a failed qu_dl_load().
 */
bool qu_dl_failed(struct qu_dl *dl);

/* Text ------------------------------------------------------------------ */

/**
 * qu_ascii8_printable() - whether eight bytes are all printable ASCII
 * @p: the bytes, at any alignment
 *
 * Scans that look at text byte by byte skip such words, as most text is
 * one (a carry out of 0xff only makes the answer false).
 * Return: true when none is below 0x20 or above 0x7e.
 */
static inline bool qu_ascii8_printable(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return !((w - 0x2020202020202020ull) & ~w & 0x8080808080808080ull) &&
	       !((w | (w + 0x0101010101010101ull)) & 0x8080808080808080ull);
}

/**
 * qu_utf8_valid() - whether @len bytes at @s are valid UTF-8
 * @s: the bytes
 * @len: how many
 * @bad_out: if not NULL and invalid, receives the offset of the first bad byte
 *
 * Return: true when valid.
 */
bool qu_utf8_valid(const char *s, size_t len, size_t *bad_out);

/**
 * qu_hash() - a 64-bit hash of bytes (XXH3-64)
 * @p: the bytes
 * @len: how many
 *
 * Return: the hash; stable across runs and machines.
 */
uint64_t qu_hash(const void *p, size_t len);

/* Hash maps ------------------------------------------------------------- */

/**
 * struct qu_map - a hash map from byte-string keys to pointers
 * @slots: open-addressed table; a NULL key marks an empty slot
 * @cap: number of slots, a power of two
 * @n: number of keys
 *
 * Keys are not copied: they must outlive the map (an arena's strings
 * usually do). Iteration order is the table's, never to reach output
 * unsorted. Not thread-safe for writers; concurrent qu_map_get() on a map
 * nobody writes is safe.
 */
struct qu_map {
	struct qu_map_slot {
		const char *key;
		size_t klen;
		uint64_t hash;
		void *value;
	} *slots;
	size_t cap;
	size_t n;
};

/**
 * qu_map_init() - make an empty map
 * @m: the map
 */
void qu_map_init(struct qu_map *m);

/**
 * qu_map_fini() - free the table (not the keys or values)
 * @m: the map
 */
void qu_map_fini(struct qu_map *m);

/**
 * qu_map_reset() - empty @m for reuse; a small table, or one at least a
 *	quarter full, is kept and cleared, a large sparse one freed
 * @m: the map
 */
void qu_map_reset(struct qu_map *m);

/**
 * qu_map_get() - look a key up
 * @m: the map
 * @key: the key's bytes
 * @klen: its length
 *
 * Return: the value, or NULL when the key is absent.
 */
void *qu_map_get(const struct qu_map *m, const char *key, size_t klen);

/**
 * qu_map_slot() - find or add a key and return its value's place
 * @m: the map
 * @key: the key's bytes; kept by the map
 * @klen: its length
 *
 * Return: the address of the value, NULL for a new key; valid until the
 * next insertion.
 */
void **qu_map_slot(struct qu_map *m, const char *key, size_t klen);

/**
 * qu_map_put() - set a key's value
 * @m: the map
 * @key: the key, NUL-terminated; kept by the map
 * @value: the value
 */
void qu_map_put(struct qu_map *m, const char *key, void *value);

/**
 * qu_map_intern() - find or add a key, copying an added key into @a
 * @m: the map
 * @key: the key, which need not outlive the call
 * @klen: its length
 * @a: where an added key's copy lives
 * @added: set to whether the key was added (its value is then NULL)
 *
 * One hash and one probe, where qu_map_get() then qu_map_slot() take two.
 *
 * Return: the key's slot (its key is the copy), valid until the next
 * key is added.
 */
struct qu_map_slot *qu_map_intern(struct qu_map *m, const char *key,
				  size_t klen, struct qu_arena *a, bool *added);

/**
 * qu_map_del() - remove a key
 * @m: the map
 * @key: the key's bytes
 * @klen: how many
 *
 * The table is not shrunk; the entries after the key's slot in its run
 * move back, so that every other key is still found.
 *
 * Return: the key's value, or NULL when @m does not have it.
 */
void *qu_map_del(struct qu_map *m, const char *key, size_t klen);

/**
 * qu_map_reserve() - make room for @n keys, so that adding them never
 *	grows the table
 * @m: the map
 * @n: how many keys it will hold
 */
void qu_map_reserve(struct qu_map *m, size_t n);

/**
 * qu_map_prefetch() - start loading the slot where @key would be
 * @m: the map
 * @key: the key's bytes
 * @klen: their length
 *
 * For a loop that adds to a table larger than the caches (a kernel
 * tree's 180,000 symbols take 16 MB): asked a few keys ahead, the slot is
 * in the cache when the key is added, not a miss in memory each time.
 * Changes nothing.
 */
void qu_map_prefetch(const struct qu_map *m, const char *key, size_t klen);

/* Progress ------------------------------------------------------------ */

/**
 * struct qu_progress - a "[done/total]" line on a terminal
 * @done: tasks finished, counted by every worker while the line is on
 * @total: tasks in all
 * @on: whether to print at all (stderr is a terminal and the run is long)
 * @last_ms: when the line was last drawn; touched by worker 0 only
 */
struct qu_progress {
	atomic_size_t done;
	size_t total;
	bool on;
	long long last_ms;
};

/**
 * qu_progress_init() - decide whether to show progress and start counting
 * @p: the progress
 * @total: the number of tasks
 * @quiet: never show it
 */
void qu_progress_init(struct qu_progress *p, size_t total, bool quiet);

/**
 * qu_progress_tick() - count one finished task, redraw now and then
 * @p: the progress
 * @job: the worker that finished it; only worker 0 draws
 */
void qu_progress_tick(struct qu_progress *p, const struct qu_job *job);

/**
 * qu_progress_done() - erase the progress line
 * @p: the progress
 */
void qu_progress_done(struct qu_progress *p);

#endif /* QU_UTIL_UTIL_H */
