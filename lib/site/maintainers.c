// SPDX-License-Identifier: MIT
/*
 * maintainers.c - the kernel's MAINTAINERS file as reST (site stage)
 *
 * The kernel's `maintainers-include` directive (its Sphinx extension
 * Documentation/sphinx/maintainers_include.py) turns the tree's
 * MAINTAINERS file into reST and reads that in place of the directive:
 * a label "maintainers", the text before the descriptions as it is, the
 * descriptions as a line block, and each subsystem as a section titled
 * by its name with one field a kind of entry ("Mail:", "Status:", ...,
 * the names the descriptions give the letters). This is the same
 * conversion, line for line, so the page, its sections and their ids are
 * Sphinx's.
 */
#include <stdlib.h>
#include <string.h>

#include "site_int.h"

/* What Python's str.isspace() says of an ASCII byte. */
static bool space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/*
 * The extension's link of "Documentation/PATH.rst" as a :doc: link. As
 * its re.sub() does, every match becomes the first match's link; a
 * match runs to the last ".rst" of a run without blanks, '?' or '*'.
 */
static bool doc_match(const char *s, size_t len, size_t from, size_t *at,
		      size_t *end)
{
	static const char pre[] = "Documentation/";
	const size_t pl = sizeof(pre) - 1;

	for (size_t i = from; i + pl <= len; i++) {
		size_t j, last = 0;

		if (memcmp(s + i, pre, pl))
			continue;
		for (j = i + pl; j < len && !space(s[j]) && s[j] != '?' &&
				 s[j] != '*';
		     j++)
			if (j + 4 <= len && !memcmp(s + j, ".rst", 4))
				last = j + 4;
		/* ".rst" itself holds no blank: it ends inside the run */
		if (last) {
			*at = i;
			*end = last;
			return true;
		}
	}
	return false;
}

static void linkify(struct qu_buf *line)
{
	struct qu_buf out = QU_BUF_INIT, rep = QU_BUF_INIT;
	size_t at, end, pos = 0;

	if (!doc_match(line->buf, line->len, 0, &at, &end))
		return;
	/* group 2: the path between "Documentation/" and ".rst" */
	qu_buf_addf(&rep, ":doc:`%.*s <../%.*s>`", (int)(end - at - 18),
		    line->buf + at + 14, (int)(end - at - 18),
		    line->buf + at + 14);
	while (doc_match(line->buf, line->len, pos, &at, &end)) {
		qu_buf_add(&out, line->buf + pos, at - pos);
		qu_buf_add(&out, rep.buf, rep.len);
		pos = end;
	}
	qu_buf_add(&out, line->buf + pos, line->len - pos);
	qu_buf_reset(line);
	qu_buf_add(line, out.buf, out.len);
	qu_buf_fini(&out);
	qu_buf_fini(&rep);
}

/* Code points of UTF-8 bytes, as Python's len() counts a str. */
static size_t points(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

static bool starts(const char *s, size_t len, const char *p)
{
	size_t pl = strlen(p);

	return len >= pl && !memcmp(s, p, pl);
}

void qu_site_maintainers_rst(struct qu_buf *out, const char *text, size_t len)
{
	/* the names of the field letters, from the descriptions */
	char *fields[128] = {NULL};
	struct qu_buf line = QU_BUF_INIT, content = QU_BUF_INIT;
	struct qu_buf prev = QU_BUF_INIT;
	bool descriptions = false, maintainers = false, subsystems = false;
	bool had_prev = false;
	char letter = 0, field_prev = 0;
	size_t pos = 0, i;

	qu_buf_adds(out, ".. _maintainers:\n");
	while (pos < len) {
		const char *l = text + pos, *nl = memchr(l, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - l) : len - pos;
		bool emit = false;

		pos += ll + (nl != NULL);
		if (descriptions && starts(l, ll, "Maintainers")) {
			descriptions = false;
			qu_buf_addc(out, '\n');
		}
		if (maintainers && !subsystems && ll &&
		    ((*l >= 'A' && *l <= 'Z') || (*l >= '0' && *l <= '9')))
			subsystems = true;
		while (ll && space(l[ll - 1]))
			ll--;
		qu_buf_reset(&line);
		qu_buf_add(&line, l, ll);
		linkify(&line);
		if (descriptions) {
			const char *s = line.buf, *star, *close;

			qu_buf_adds(out, "\n| ");
			for (i = 0; i < line.len; i++) {
				if (s[i] == '\\')
					qu_buf_addc(out, '\\');
				qu_buf_addc(out, s[i]);
			}
			/* "R: Designated *reviewer*: ..." names a letter */
			for (i = 1; i + 3 < line.len + 1 && i + 2 < line.len;
			     i++)
				if (space(s[i - 1]) && !space(s[i]) &&
				    s[i + 1] == ':' && space(s[i + 2])) {
					letter = s[i];
					break;
				}
			/* "*name*": the first '*' followed by a name, then '*' */
			for (star = s; letter > 0 && !fields[(int)letter] &&
				       (star = memchr(star, '*',
						      line.len -
							      (size_t)(star - s)));
			     star++) {
				close = memchr(star + 1, '*',
					       line.len - (size_t)(star + 1 - s));
				if (!close)
					break;
				if (close > star + 1)
					fields[(int)letter] = qu_xstrndup(
						star + 1,
						(size_t)(close - star - 1));
			}
		} else if (subsystems) {
			const char *s = line.buf;

			/* blank lines: the subsystems make their own */
			if (!line.len)
				continue;
			if (line.len < 2 || s[1] != ':') {
				size_t start;
				bool blank = false;

				/* a subsystem: its name, underlined */
				qu_buf_add(out, "\n", 1);
				qu_buf_add(out, content.buf, content.len);
				qu_buf_reset(&content);
				qu_buf_adds(out, "\n\n");
				start = out->len;
				for (i = 0; i < line.len; i++) {
					if (space(s[i])) {
						if (!blank)
							qu_buf_addc(out, ' ');
						blank = true;
					} else {
						qu_buf_addc(out, s[i]);
						blank = false;
					}
				}
				i = points(out->buf + start, out->len - start);
				qu_buf_addc(out, '\n');
				while (i--)
					qu_buf_addc(out, '~');
				field_prev = 0;
			} else {
				char field = s[0];
				const char *d = s + 2, *de = s + line.len;
				bool code;

				while (d < de && space(*d))
					d++;
				code = strchr("FNXK", field) &&
				       !memmem(d, (size_t)(de - d), ":doc:", 5);
				if (field == field_prev && strchr("MRL", field))
					qu_buf_addc(&content, ',');
				if (field != field_prev) {
					qu_buf_add(out, "\n", 1);
					qu_buf_add(out, content.buf, content.len);
					qu_buf_add(out, "\n", 1);
					qu_buf_reset(&content);
					if (field > 0 && fields[(int)field])
						qu_buf_addf(&content, ":%s:",
							    fields[(int)field]);
					else
						qu_buf_addf(&content, ":%c:",
							    field);
				}
				qu_buf_addf(&content, "\n\t%s%.*s%s",
					    code ? "``" : "", (int)(de - d), d,
					    code ? "``" : "");
				field_prev = field;
			}
		} else {
			emit = true;
		}
		if (emit) {
			qu_buf_addc(out, '\n');
			qu_buf_add(out, line.buf, line.len);
		}
		if (starts(line.buf, line.len, "----------") && had_prev) {
			if (starts(prev.buf, prev.len, "Descriptions"))
				descriptions = true;
			if (starts(prev.buf, prev.len, "Maintainers"))
				maintainers = true;
		}
		qu_buf_reset(&prev);
		qu_buf_add(&prev, line.buf, line.len);
		had_prev = true;
	}
	if (content.len) {
		qu_buf_addc(out, '\n');
		qu_buf_add(out, content.buf, content.len);
	}
	qu_buf_addc(out, '\n');
	for (i = 0; i < QU_ARRAY_SIZE(fields); i++)
		free(fields[i]);
	qu_buf_fini(&line);
	qu_buf_fini(&content);
	qu_buf_fini(&prev);
}
