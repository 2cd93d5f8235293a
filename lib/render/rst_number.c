// SPDX-License-Identifier: MIT
/*
 * rst_number.c - the section numbers of :numbered: toctrees (render stage)
 *
 * qu_render_init() calls render_rst_numbers() once; rst.c and
 * rst_directive.c read the numbers with rw_secnum() while they walk.
 */
#include <stdlib.h>
#include <string.h>

#include "walk_int.h"

/*
 * The number a :numbered: toctree gives heading @id of @page, or NULL.
 * Headings are found by id: sections the site did not see (in an
 * included file, in an "only" for another builder) have none.
 */
const char *rw_secnum(const struct qu_render *r, uint32_t page,
			  const char *id)
{
	const struct qu_page *pg = &r->site->pages[page];
	size_t k;

	if (!r->secnums || !r->secnums[page] || !id)
		return NULL;
	for (k = 0; k < pg->nheadings; k++)
		if (!strcmp(pg->headings[k].id, id))
			return r->secnums[page][k];
	return NULL;
}


/*
 * Section numbers of :numbered: toctrees, as Sphinx's
 * assign_section_numbers() gives them: from each numbered toctree, the
 * pages it lists get the next numbers at its level, their sections the
 * levels below, and the toctrees inside a section go on at the level of
 * that section's subsections. A page is numbered once (the first toctree
 * wins). MAX_SECNUM_LEVELS bounds the stack (the kernel nests 5 deep).
 */
#define MAX_SECNUM_LEVELS 32

struct secnum {
	struct qu_render *r;
	uint32_t stack[MAX_SECNUM_LEVELS];
	unsigned n;
	bool *assigned;
};

static void sn_list(struct secnum *sn, uint32_t page, size_t from, size_t to,
		    unsigned level, int depth);

static void sn_toctree(struct secnum *sn, const struct qu_part *part, int depth)
{
	size_t e;

	if (depth <= 0)
		return;
	for (e = 0; e < part->npages; e++) {
		uint32_t p = part->pages[e];

		if (sn->assigned[p])
			continue;
		sn->assigned[p] = true;
		sn_list(sn, p, 0, sn->r->site->pages[p].nheadings, 1, depth);
	}
}

/* The line a heading or part starts on, to put toctrees among sections. */
static uint32_t part_line(const struct qu_part *p)
{
	return p->line;
}

/*
 * The entries of headings [@from, @to) of @page at @level: each heading
 * of that level, and the toctrees directly in the enclosing section (or
 * the page, at level 1) in page order.
 */
static void sn_list(struct secnum *sn, uint32_t page, size_t from, size_t to,
		    unsigned level, int depth)
{
	const struct qu_page *pg = &sn->r->site->pages[page];
	uint32_t lo = from ? pg->headings[from - 1].line : 0;
	uint32_t hi = to < pg->nheadings ? pg->headings[to].line : UINT32_MAX;
	size_t h = from, k;
	bool first = true;

	for (;;) {
		/*
		 * The next heading of this level; before the first one, the
		 * toctrees directly in the enclosing section (after it, a
		 * toctree is inside one of this level's sections).
		 */
		size_t next = h;
		uint32_t until;

		while (next < to && pg->headings[next].level != level)
			next++;
		until = next < to ? pg->headings[next].line : hi;
		for (k = 0; first && k < pg->nparts; k++) {
			const struct qu_part *p = &pg->parts[k];
			uint32_t l = part_line(p);
			size_t in;

			if (p->kind != QU_PART_TOCTREE || l <= lo || l >= until)
				continue;
			/* directly here: no deeper heading between */
			for (in = from; in < next; in++)
				if (pg->headings[in].line < l &&
				    pg->headings[in].level >= level)
					break;
			if (in < next)
				continue;
			sn_toctree(sn, p, depth);
		}
		first = false;
		if (next >= to)
			return;
		sn->stack[sn->n - 1]++;
		if (depth > 0) {
			struct qu_buf b = QU_BUF_INIT;
			unsigned i;

			for (i = 0; i < sn->n; i++)
				qu_buf_addf(&b, i ? ".%u" : "%u", sn->stack[i]);
			if (!sn->r->secnums[page])
				sn->r->secnums[page] = qu_xcalloc(
					pg->nheadings + 1, sizeof(char *));
			free(sn->r->secnums[page][next]);
			sn->r->secnums[page][next] = qu_buf_detach(&b, NULL);
		}
		/* the section's own entries, one level down */
		{
			size_t end = next + 1;

			while (end < to && pg->headings[end].level > level)
				end++;
			if (sn->n < MAX_SECNUM_LEVELS) {
				sn->stack[sn->n++] = 0;
				sn_list(sn, page, next + 1, end, level + 1,
					depth - 1);
				sn->n--;
			}
			h = end;
		}
	}
}

void render_rst_numbers(struct qu_render *r)
{
	const struct qu_site *s = r->site;
	struct secnum sn;
	size_t p, k;
	bool any = false;

	for (p = 0; p < s->npages && !any; p++)
		for (k = 0; k < s->pages[p].nparts; k++)
			any |= s->pages[p].parts[k].kind == QU_PART_TOCTREE &&
			       s->pages[p].parts[k].numbered;
	if (!any)
		return;
	memset(&sn, 0, sizeof(sn));
	sn.r = r;
	sn.assigned = qu_xcalloc(s->npages + 1, sizeof(bool));
	r->secnums = qu_xcalloc(s->npages + 1, sizeof(char **));
	for (p = 0; p < s->npages; p++)
		for (k = 0; k < s->pages[p].nparts; k++) {
			const struct qu_part *part = &s->pages[p].parts[k];

			if (part->kind != QU_PART_TOCTREE || !part->numbered)
				continue;
			/* every numbered toctree counts from 1 */
			sn.assigned[p] = true;
			sn.n = 1;
			sn.stack[0] = 0;
			sn_toctree(&sn, part, (int)part->numbered);
		}
	free(sn.assigned);
}
