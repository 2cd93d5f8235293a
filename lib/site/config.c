// SPDX-License-Identifier: MIT
/*
 * config.c - quire.yml and front matter through libyaml (site stage)
 *
 * Both are a YAML mapping of scalars (and one sequence, exclude); the
 * loader reports what it does not know as -Wconfig with the line.
 */
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "site_int.h"

/*
 * Keys and values of the mappings are scalars; anything else reads as
 * absent and is reported by the caller.
 */
static const char *scalar(yaml_node_t *n)
{
	if (!n || n->type != YAML_SCALAR_NODE)
		return NULL;
	return (const char *)n->data.scalar.value;
}

/* YAML 1.1 booleans, as people write them in configuration files. */
static bool truthy(const char *v)
{
	return v && (!strcmp(v, "true") || !strcmp(v, "yes") ||
		     !strcmp(v, "on") || !strcmp(v, "True"));
}

static void set(char **field, const char *v)
{
	free(*field);
	*field = v ? qu_xstrdup(v) : NULL;
}

/*
 * Parse a YAML text into a document; a syntax error is a -Wconfig with
 * libyaml's line and message, and the text is then ignored as a whole.
 */
static int load(yaml_document_t *doc, struct qu_diags *diags, const char *path,
		const char *text, size_t len, uint32_t line0)
{
	yaml_parser_t p;
	int ok;

	if (!yaml_parser_initialize(&p))
		qu_die_oom();
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	ok = yaml_parser_load(&p, doc);
	if (!ok) {
		qu_diag(diags, QU_W_CONFIG, path,
			line0 + (uint32_t)p.problem_mark.line,
			(uint32_t)p.problem_mark.column + 1,
			"cannot parse YAML: %s, ignoring the file",
			p.problem ? p.problem : "unknown error");
	}
	yaml_parser_delete(&p);
	return ok ? 0 : -1;
}

int qu_site_config_parse(struct qu_config *out, struct qu_diags *diags,
			 const char *path, const char *text, size_t len)
{
	yaml_document_t doc;
	yaml_node_t *root;
	yaml_node_pair_t *pair;

	if (load(&doc, diags, path, text, len, 1) < 0)
		return -1;
	root = yaml_document_get_root_node(&doc);
	if (!root || root->type != YAML_MAPPING_NODE) {
		if (root && !(root->type == YAML_SCALAR_NODE &&
			      !root->data.scalar.length))
			qu_diag(diags, QU_W_CONFIG, path, 1, 1,
				"the configuration is not a mapping, ignoring "
				"it");
		goto out;
	}
	for (pair = root->data.mapping.pairs.start;
	     pair < root->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(&doc, pair->key);
		yaml_node_t *v = yaml_document_get_node(&doc, pair->value);
		const char *key = scalar(k);
		uint32_t line = k ? (uint32_t)k->start_mark.line + 1 : 0;

		if (!key)
			continue;
		if (!strcmp(key, "exclude")) {
			yaml_node_item_t *it;

			if (v && v->type == YAML_SCALAR_NODE) {
				out->exclude = qu_xrealloc(
					out->exclude,
					(out->nexclude + 1) * sizeof(char *));
				out->exclude[out->nexclude++] =
					qu_xstrdup(scalar(v));
				continue;
			}
			if (!v || v->type != YAML_SEQUENCE_NODE) {
				qu_diag(diags, QU_W_CONFIG, path, line, 1,
					"'exclude' is not a list, ignoring it");
				continue;
			}
			for (it = v->data.sequence.items.start;
			     it < v->data.sequence.items.top; it++) {
				const char *s = scalar(
					yaml_document_get_node(&doc, *it));

				if (!s)
					continue;
				out->exclude = qu_xrealloc(
					out->exclude,
					(out->nexclude + 1) * sizeof(char *));
				out->exclude[out->nexclude++] = qu_xstrdup(s);
			}
			continue;
		}
		if (!scalar(v)) {
			qu_diag(diags, QU_W_CONFIG, path, line, 1,
				"'%s' is not a single value, ignoring it", key);
			continue;
		}
		if (!strcmp(key, "title"))
			set(&out->title, scalar(v));
		else if (!strcmp(key, "srctree"))
			set(&out->srctree, scalar(v));
		else if (!strcmp(key, "theme"))
			set(&out->theme, scalar(v));
		else if (!strcmp(key, "base_url"))
			set(&out->base_url, scalar(v));
		else if (!strcmp(key, "source_url"))
			set(&out->source_url, scalar(v));
		else if (!strcmp(key, "version"))
			set(&out->version, scalar(v));
		else if (!strcmp(key, "allow_html"))
			out->allow_html = truthy(scalar(v));
		else if (!strcmp(key, "man"))
			out->man = truthy(scalar(v));
		else
			qu_diag(diags, QU_W_CONFIG, path, line, 1,
				"unknown key '%s', ignoring it", key);
	}
out:
	yaml_document_delete(&doc);
	return 0;
}

void qu_config_fini(struct qu_config *c)
{
	size_t i;

	free(c->title);
	free(c->srctree);
	free(c->theme);
	free(c->base_url);
	free(c->source_url);
	free(c->version);
	for (i = 0; i < c->nexclude; i++)
		free(c->exclude[i]);
	free(c->exclude);
	memset(c, 0, sizeof(*c));
}

/*
 * Front matter: a "---" first line, YAML, a "---" or "..." line. Only
 * title and order mean something; other keys are left to themes.
 */
int site_front_matter(struct qu_site *s, struct qu_page *pg, const char *text,
		      size_t len, size_t *body_off, uint32_t *body_line)
{
	yaml_document_t doc;
	yaml_node_t *root;
	yaml_node_pair_t *pair;
	size_t pos, yaml_end = 0, end = 0;
	uint32_t lines = 1;

	*body_off = 0;
	*body_line = 1;
	if (len < 4 || strncmp(text, "---", 3) ||
	    (text[3] != '\n' && text[3] != '\r'))
		return 0;
	pos = text[3] == '\r' ? 5 : 4;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t eol = nl ? (size_t)(nl - text) : len;
		size_t l = eol - pos;

		lines++;
		if (l && text[pos + l - 1] == '\r')
			l--;
		if ((l == 3 && (!strncmp(text + pos, "---", 3) ||
				!strncmp(text + pos, "...", 3)))) {
			yaml_end = pos;
			end = nl ? eol + 1 : eol;
			break;
		}
		pos = nl ? eol + 1 : len;
	}
	if (!end)
		return 0;
	*body_off = end;
	*body_line = lines + 1;
	{
		size_t start = text[3] == '\r' ? 5 : 4;

		if (load(&doc, &s->diags, pg->diag_path, text + start,
			 yaml_end - start, 2) < 0)
			return -1;
	}
	root = yaml_document_get_root_node(&doc);
	if (root && root->type == YAML_MAPPING_NODE) {
		for (pair = root->data.mapping.pairs.start;
		     pair < root->data.mapping.pairs.top; pair++) {
			const char *k =
				scalar(yaml_document_get_node(&doc, pair->key));
			const char *v = scalar(
				yaml_document_get_node(&doc, pair->value));

			if (!k || !v)
				continue;
			if (!strcmp(k, "title"))
				pg->title = site_strdup(s, v);
			else if (!strcmp(k, "order"))
				pg->order = atoi(v);
		}
	}
	yaml_document_delete(&doc);
	return 0;
}
