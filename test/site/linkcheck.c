// SPDX-License-Identifier: MIT
/*
 * linkcheck.c - check a built site: every page parses with libxml2's HTML
 * parser without error, and every internal link and anchor resolves
 *
 * usage: linkcheck SITE_DIR
 * Prints one line per problem and a summary; exits 1 when there is a
 * problem, 2 when the site cannot be read. HTML5 element names, which
 * libxml2 2.9 does not know, are not problems.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/HTMLparser.h>
#include <libxml/xmlerror.h>

#include "util/util.h"

struct page {
	char *path;
	struct page_link {
		char *href;
		int line;
	} * links;
	size_t nlinks;
};

struct check {
	struct page *pages;
	size_t npages;
	size_t alloc;
	struct qu_map ids;
	struct qu_map files;
	const char *cur;
	size_t errors;
	size_t broken;
	size_t nlinks;
};

static void on_error(void *payload, xmlErrorPtr e)
{
	struct check *c = payload;

	if (e->code == XML_HTML_UNKNOWN_TAG)
		return;
	if (e->level < XML_ERR_ERROR)
		return;
	printf("%s:%d: parse error: %s", c->cur, e->line,
	       e->message ? e->message : "?\n");
	c->errors++;
}

static void add_id(struct check *c, const char *page, const char *id)
{
	size_t n = strlen(page) + strlen(id) + 2;
	char *k = qu_xmalloc(n);

	snprintf(k, n, "%s#%s", page, id);
	if (qu_map_get(&c->ids, k, strlen(k)))
		free(k);
	else
		qu_map_put(&c->ids, k, (void *)1);
}

static void walk_nodes(struct check *c, struct page *p, xmlNodePtr n)
{
	static const char *const attrs[] = {"href", "src"};

	for (; n; n = n->next) {
		xmlChar *v;
		size_t k;

		if (n->type != XML_ELEMENT_NODE)
			continue;
		v = xmlGetProp(n, BAD_CAST "id");
		if (v) {
			add_id(c, p->path, (const char *)v);
			xmlFree(v);
		}
		for (k = 0; k < 2; k++) {
			v = xmlGetProp(n, BAD_CAST attrs[k]);
			if (!v)
				continue;
			p->links = qu_xrealloc(
				p->links, (p->nlinks + 1) * sizeof(*p->links));
			p->links[p->nlinks].href = qu_xstrdup((char *)v);
			p->links[p->nlinks].line = (int)xmlGetLineNo(n);
			p->nlinks++;
			xmlFree(v);
		}
		walk_nodes(c, p, n->children);
	}
}

static void walk_dir(struct check *c, const char *root, const char *rel)
{
	struct qu_buf path = QU_BUF_INIT, sub = QU_BUF_INIT;
	struct dirent *de;
	DIR *d;

	qu_buf_addf(&path, "%s%s%s", root, *rel ? "/" : "", rel);
	d = opendir(path.buf);
	if (!d) {
		fprintf(stderr, "linkcheck: cannot open %s\n", path.buf);
		exit(2);
	}
	while ((de = readdir(d))) {
		struct stat st;
		size_t l = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		qu_buf_reset(&sub);
		qu_buf_addf(&sub, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		qu_buf_reset(&path);
		qu_buf_addf(&path, "%s/%s", root, sub.buf);
		if (stat(path.buf, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			walk_dir(c, root, sub.buf);
			continue;
		}
		{
			char *k = qu_xstrdup(sub.buf);

			qu_map_put(&c->files, k, (void *)1);
		}
		if (l > 5 && !strcmp(de->d_name + l - 5, ".html")) {
			struct page *p;
			xmlDocPtr doc;

			QU_VEC_GROW(c->pages, c->npages, c->alloc);
			p = &c->pages[c->npages++];
			memset(p, 0, sizeof(*p));
			p->path = qu_xstrdup(sub.buf);
			c->cur = p->path;
			doc = htmlReadFile(path.buf, "UTF-8",
					   HTML_PARSE_NONET |
						   HTML_PARSE_NOERROR |
						   HTML_PARSE_NOWARNING);
			if (!doc) {
				printf("%s: cannot be parsed\n", p->path);
				c->errors++;
				continue;
			}
			walk_nodes(c, p, xmlDocGetRootElement(doc));
			xmlFreeDoc(doc);
		}
	}
	closedir(d);
	qu_buf_fini(&path);
	qu_buf_fini(&sub);
}

static bool external(const char *h)
{
	size_t i = 0;

	if (h[0] == '/' && h[1] == '/')
		return true;
	while (h[i] && ((h[i] | 32) >= 'a' && (h[i] | 32) <= 'z'))
		i++;
	return i && h[i] == ':';
}

static void check_link(struct check *c, const struct page *p,
		       const struct page_link *l)
{
	struct qu_buf t = QU_BUF_INIT, norm = QU_BUF_INIT;
	const char *h = l->href, *hash = strchr(h, '#'), *sl;
	size_t plen = hash ? (size_t)(hash - h) : strlen(h), i = 0;

	if (external(h))
		return;
	c->nlinks++;
	if (plen) {
		sl = strrchr(p->path, '/');
		if (sl)
			qu_buf_add(&t, p->path, (size_t)(sl - p->path) + 1);
		qu_buf_add(&t, h, plen);
		/* resolve "." and ".." */
		while (i < t.len) {
			size_t j = i;

			while (j < t.len && t.buf[j] != '/')
				j++;
			if (j - i == 2 && !strncmp(t.buf + i, "..", 2)) {
				char *s2;

				if (!norm.len) {
					printf("%s:%d: link above the site: "
					       "%s\n",
					       p->path, l->line, h);
					c->broken++;
					goto out;
				}
				norm.len--;
				s2 = memrchr(norm.buf, '/', norm.len);
				norm.len = s2 ? (size_t)(s2 - norm.buf) + 1 : 0;
				norm.buf[norm.len] = 0;
			} else if (!(j - i == 1 && t.buf[i] == '.') && j > i) {
				qu_buf_add(&norm, t.buf + i, j - i);
				if (j < t.len)
					qu_buf_addc(&norm, '/');
			}
			i = j + 1;
		}
		if (!norm.len || norm.buf[norm.len - 1] == '/')
			qu_buf_adds(&norm, "index.html");
	} else {
		qu_buf_adds(&norm, p->path);
	}
	if (!qu_map_get(&c->files, norm.buf, norm.len)) {
		printf("%s:%d: broken link: %s\n", p->path, l->line, h);
		c->broken++;
		goto out;
	}
	if (hash && hash[1]) {
		qu_buf_adds(&norm, hash);
		if (!qu_map_get(&c->ids, norm.buf, norm.len)) {
			printf("%s:%d: broken anchor: %s\n", p->path, l->line,
			       h);
			c->broken++;
		}
	}
out:
	qu_buf_fini(&t);
	qu_buf_fini(&norm);
}

static void free_keys(struct qu_map *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free((char *)m->slots[i].key);
	qu_map_fini(m);
}

int main(int argc, char **argv)
{
	struct check c;
	size_t i, k;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: linkcheck SITE_DIR\n");
		return 2;
	}
	memset(&c, 0, sizeof(c));
	qu_map_init(&c.ids);
	qu_map_init(&c.files);
	xmlInitParser();
	xmlSetStructuredErrorFunc(&c, on_error);
	walk_dir(&c, argv[1], "");
	for (i = 0; i < c.npages; i++)
		for (k = 0; k < c.pages[i].nlinks; k++)
			check_link(&c, &c.pages[i], &c.pages[i].links[k]);
	printf("linkcheck: %zu pages, %zu internal links, %zu broken, %zu "
	       "parse errors\n",
	       c.npages, c.nlinks, c.broken, c.errors);
	ret = c.npages && !c.broken && !c.errors ? 0 : 1;
	for (i = 0; i < c.npages; i++) {
		for (k = 0; k < c.pages[i].nlinks; k++)
			free(c.pages[i].links[k].href);
		free(c.pages[i].links);
		free(c.pages[i].path);
	}
	free(c.pages);
	free_keys(&c.ids);
	free_keys(&c.files);
	return ret;
}
