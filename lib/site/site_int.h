/* SPDX-License-Identifier: MIT */
/*
 * site_int.h - shared between the files of lib/site only
 */
#ifndef QU_SITE_SITE_INT_H
#define QU_SITE_SITE_INT_H

#include "site/site.h"

/*
 * A growable list of pages under construction; copied into the arena
 * once the tree is known.
 */
struct site_vec {
	void *v;
	size_t n;
	size_t alloc;
};

char *site_strndup(struct qu_site *s, const char *p, size_t len);
char *site_strdup(struct qu_site *s, const char *p);
char *site_printf(struct qu_site *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

uint32_t site_add_page(struct qu_site *s, size_t *alloc);

int site_front_matter(struct qu_site *s, struct qu_page *pg, const char *text,
		      size_t len, size_t *body_off, uint32_t *body_line);
void site_split_parts(struct qu_site *s, struct qu_page *pg, const char *text,
		      size_t len, uint32_t line);
void site_rst_page(struct qu_site *s, struct qu_page *pg, const char *text,
		   size_t len);
void site_conf_py(struct qu_site *s, const char *path, const char *text,
		  size_t len);
void site_page_headings(struct qu_site *s, struct qu_page *pg);
/* @pg's headings moved from the heap into the site's arena */
void site_arena_headings(struct qu_site *s, struct qu_page *pg);
/* one more heading of @pg (its vector's capacity in *@alloc) */
void site_add_heading(struct qu_site *s, struct qu_page *pg, size_t *alloc,
		      unsigned level, const char *text, const char *id,
		      uint32_t line, bool hidden);
void site_link_pages(struct qu_site *s);
bool site_excluded(const struct qu_site *s, const char *rel);
void site_normalise(struct qu_buf *out, const char *dir, const char *rel,
		    size_t len);

/*
 * What site_check_read() found: the file may be read; it does not exist
 * (the caller reports that in its own words); or it was refused, and the
 * diagnostic is recorded.
 */
enum site_read {
	SITE_READ_OK,
	SITE_READ_MISSING,
	SITE_READ_REFUSED,
};

bool site_inside(const struct qu_site *s, const char *real);
void site_relative(struct qu_buf *out, const char *from, const char *to);
enum site_read site_check_real(struct qu_site *s, char *real,
			       const char *path, const char *shown,
			       const char *diag_path, uint32_t line,
			       uint32_t col, bool want_dir);
enum site_read site_check_read(struct qu_site *s, const char *path,
			       const char *shown, const char *diag_path,
			       uint32_t line, uint32_t col, bool want_dir);

/*
 * abi_link.c: get_abi.pl's s,$start$s$bondary,$1$xref$2,g on @b, the
 * symbol name @s read as the Perl pattern it is there; false (and @b as
 * it was) when Perl would refuse the pattern.
 */
bool site_abi_link(struct qu_buf *b, const char *s, const char *xref);

#endif /* QU_SITE_SITE_INT_H */
