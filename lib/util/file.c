// SPDX-License-Identifier: MIT
/*
 * file.c - reading files whole and replacing them atomically (util stage)
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xxhash.h>

#include "util.h"

int qu_file_read(struct qu_buf *out, const char *path, struct qu_buf *err)
{
	struct stat st;
	int fd;

	qu_buf_reset(out);
	/*
	 * Only regular files: stat() first, so a FIFO (whose open() waits
	 * for a writer) or a device is never opened; then O_NONBLOCK and
	 * fstat() again, in case the path changed in between.
	 */
	if (stat(path, &st) < 0)
		goto fail;
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		goto fail_special;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		goto fail;
	if (fstat(fd, &st) < 0)
		goto fail_fd;
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		goto fail_special;
	}
	qu_buf_grow(out, st.st_size > 0 ? (size_t)st.st_size : 4096);
	for (;;) {
		if (out->alloc - out->len < 2)
			qu_buf_grow(out, out->alloc);
		ssize_t n = read(fd, out->buf + out->len,
				 out->alloc - out->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto fail_fd;
		}
		if (n == 0)
			break;
		out->len += (size_t)n;
	}
	out->buf[out->len] = '\0';
	close(fd);
	return 0;
fail_fd:
	{
		int e = errno;
		close(fd);
		errno = e;
	}
fail:
	qu_buf_addf(err, "%s: cannot read: %s", path, strerror(errno));
	return -1;
fail_special:
	if (errno == EISDIR)
		goto fail;
	qu_buf_addf(err, "%s: cannot read: not a regular file", path);
	return -1;
}

/* write all of @data to @fd; on failure errno says why */
static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* create @path with @flags (O_TRUNC or O_EXCL) and write @data to it */
static int write_to(const char *path, int flags, const void *data,
		    size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0644);

	if (fd < 0)
		return -1;
	if (write_all(fd, data, len) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

int qu_file_write(const char *path, const void *data, size_t len, bool excl,
		  struct qu_buf *err)
{
	if (write_to(path, excl ? O_EXCL : O_TRUNC, data, len) == 0)
		return 0;
	qu_buf_addf(err, "%s: cannot write: %s", path, strerror(errno));
	return -1;
}

/* the temporary file that will replace @path, beside it */
static void tmp_name(struct qu_buf *tmp, const char *path)
{
	qu_buf_addf(tmp, "%s.tmp.%ld", path, (long)getpid());
}

/*
 * Rename the written @tmp over @path, unless writing it failed with
 * errno @error; the temporary file is removed when either fails.
 */
static int put_in_place(const char *tmp, const char *path, int error,
			struct qu_buf *err)
{
	if (!error && rename(tmp, path) < 0)
		error = errno;
	if (!error)
		return 0;
	unlink(tmp);
	qu_buf_addf(err, "%s: cannot write: %s", path, strerror(error));
	return -1;
}

int qu_file_write_atomic(const char *path, const void *data, size_t len,
			 struct qu_buf *err)
{
	struct qu_buf tmp = QU_BUF_INIT;
	int r;

	tmp_name(&tmp, path);
	r = put_in_place(tmp.buf, path,
			 write_to(tmp.buf, O_TRUNC, data, len) < 0 ? errno : 0,
			 err);
	qu_buf_fini(&tmp);
	return r;
}

int qu_file_map(const char *path, const void **map, size_t *size)
{
	struct stat st;
	void *m = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*map = NULL;
	*size = 0;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int e = S_ISREG(st.st_mode) ? errno : EINVAL;

		close(fd);
		errno = e;
		return -1;
	}
	if (st.st_size > 0) {
		m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd,
			 0);
		if (m == MAP_FAILED) {
			int e = errno;

			close(fd);
			errno = e;
			return -1;
		}
	}
	close(fd);
	*map = m;
	*size = (size_t)st.st_size;
	return 0;
}

void qu_file_unmap(const void *map, size_t size)
{
	if (map)
		munmap((void *)map, size);
}

int qu_file_out_open(struct qu_file_out *f, const char *path,
		     struct qu_buf *err)
{
	struct qu_buf tmp = QU_BUF_INIT;

	memset(f, 0, sizeof(*f));
	qu_buf_init(&f->b);
	tmp_name(&tmp, path);
	f->fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (f->fd < 0) {
		qu_buf_addf(err, "%s: cannot write: %s", path,
			    strerror(errno));
		qu_buf_fini(&tmp);
		return -1;
	}
	f->tmp = qu_buf_detach(&tmp, NULL);
	f->path = qu_xstrdup(path);
	f->sum = XXH3_createState();
	if (!f->sum)
		qu_die_oom();
	XXH3_64bits_reset(f->sum);
	qu_buf_grow(&f->b, QU_FILE_OUT_CHUNK);
	return 0;
}

/* the sum takes the bytes of the buffer it has not had */
static void hash_pending(struct qu_file_out *f)
{
	XXH3_64bits_update(f->sum, f->b.buf + f->hashed, f->b.len - f->hashed);
	f->hashed = f->b.len;
}

/* write @n bytes at the file's end (the sum has them) */
static void out_write(struct qu_file_out *f, const void *p, size_t n)
{
	if (!f->error && write_all(f->fd, p, n) < 0)
		f->error = errno;
	f->off += n;
}

/* the buffer's whole chunks to the file; the rest stays */
static void out_chunks(struct qu_file_out *f)
{
	size_t n = f->b.len - f->b.len % QU_FILE_OUT_CHUNK;

	if (!n)
		return;
	hash_pending(f);
	out_write(f, f->b.buf, n);
	memmove(f->b.buf, f->b.buf + n, f->b.len - n);
	f->b.len -= n;
	f->hashed = f->b.len;
}

void qu_file_out_spill(struct qu_file_out *f)
{
	if (f->b.len >= QU_FILE_OUT_CHUNK)
		out_chunks(f);
}

void qu_file_out_add(struct qu_file_out *f, const void *p, size_t n)
{
	const char *q = p;
	size_t k;

	if (n < QU_FILE_OUT_CHUNK / 4) {
		qu_buf_add(&f->b, q, n);
		qu_file_out_spill(f);
		return;
	}
	/* the buffer's chunk made whole from @p, then @p's whole chunks */
	out_chunks(f);
	k = f->b.len ? QU_FILE_OUT_CHUNK - f->b.len : 0;
	if (k > n)
		k = n;
	qu_buf_add(&f->b, q, k);
	q += k;
	n -= k;
	out_chunks(f);
	if (!f->b.len) {
		k = n - n % QU_FILE_OUT_CHUNK;
		XXH3_64bits_update(f->sum, q, k);
		out_write(f, q, k);
		q += k;
		n -= k;
	}
	qu_buf_add(&f->b, q, n);
}

uint64_t qu_file_out_sum(struct qu_file_out *f)
{
	hash_pending(f);
	return XXH3_64bits_digest(f->sum);
}

void qu_file_out_sum_reset(struct qu_file_out *f)
{
	/* what the buffer holds so far is left out */
	f->hashed = f->b.len;
	XXH3_64bits_reset(f->sum);
}

void qu_file_out_put_at(struct qu_file_out *f, uint64_t off, const void *p,
			size_t n)
{
	const char *q = p;

	/* in the file: written over there */
	while (n && off < f->off && !f->error) {
		size_t m = f->off - off < n ? (size_t)(f->off - off) : n;
		ssize_t w = pwrite(f->fd, q, m, (off_t)off);

		if (w < 0) {
			if (errno != EINTR)
				f->error = errno;
			continue;
		}
		q += w;
		off += (uint64_t)w;
		n -= (size_t)w;
	}
	/* still in the buffer: written over in it */
	if (n && off >= f->off && off - f->off + n <= f->b.len)
		memcpy(f->b.buf + (off - f->off), q, n);
}

static void out_free(struct qu_file_out *f)
{
	if (f->fd >= 0)
		close(f->fd);
	qu_buf_fini(&f->b);
	XXH3_freeState(f->sum);
	free(f->tmp);
	free(f->path);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

int qu_file_out_commit(struct qu_file_out *f, struct qu_buf *err)
{
	int r;

	/* the last, partial chunk */
	out_write(f, f->b.buf, f->b.len);
	qu_buf_reset(&f->b);
	if (!f->error && close(f->fd) < 0)
		f->error = errno;
	f->fd = -1;
	r = put_in_place(f->tmp, f->path, f->error, err);
	out_free(f);
	return r;
}

void qu_file_out_abort(struct qu_file_out *f)
{
	if (f->tmp)
		unlink(f->tmp);
	out_free(f);
}

int qu_mkdir_p(const char *path, struct qu_buf *err)
{
	char *p = qu_xstrdup(path);
	size_t len = strlen(p);

	for (size_t i = 1; i <= len; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		char c = p[i];
		p[i] = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			qu_buf_addf(err, "%s: cannot create directory: %s", p,
				    strerror(errno));
			free(p);
			return -1;
		}
		p[i] = c;
	}
	free(p);
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

int qu_rm_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int qu_rm_tree_marked(const char *path, const char *marker)
{
	struct qu_buf p = QU_BUF_INIT;
	struct dirent *de;
	int r = 0;
	DIR *d = opendir(path);

	if (!d)
		return errno == ENOENT ? 0 : qu_rm_tree(path);
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, marker))
			continue;
		qu_buf_reset(&p);
		qu_buf_add_path(&p, path, de->d_name);
		if (qu_rm_tree(p.buf) < 0)
			r = -1;
	}
	closedir(d);
	qu_buf_fini(&p);
	/* the marker only once nothing else is left */
	return r < 0 ? -1 : qu_rm_tree(path);
}
