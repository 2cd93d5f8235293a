// SPDX-License-Identifier: MIT
/*
 * config.c - quire.yml and front matter through libyaml (site stage)
 *
 * Both are a YAML mapping of scalars (and one sequence, exclude). A text
 * that is not YAML, or a known key with a value of the wrong type, is a
 * -Wbad-config error: the caller builds nothing. An unknown key of
 * quire.yml is a -Wconfig warning that names the nearest known key.
 */
#include <ctype.h>
#include <limits.h>
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

/* What a node is, for "must be a string, not a list". */
static const char *node_kind(const yaml_node_t *n)
{
	if (!n)
		return "nothing";
	if (n->type == YAML_SEQUENCE_NODE)
		return "a list";
	if (n->type == YAML_MAPPING_NODE)
		return "a mapping";
	return "a string";
}

/*
 * YAML 1.1 booleans, as people write them in configuration files: 1 true,
 * 0 false, -1 not a boolean.
 */
static int boolean(const char *v)
{
	static const char *const yes[] = {"true", "True", "TRUE", "yes",
					  "Yes",  "YES",  "on",	  "On"};
	static const char *const no[] = {"false", "False", "FALSE", "no",
					 "No",	  "NO",	   "off",   "Off"};
	size_t i;

	for (i = 0; i < QU_ARRAY_SIZE(yes); i++)
		if (!strcmp(v, yes[i]))
			return 1;
	for (i = 0; i < QU_ARRAY_SIZE(no); i++)
		if (!strcmp(v, no[i]))
			return 0;
	return -1;
}

static void set(char **field, const char *v)
{
	free(*field);
	*field = v ? qu_xstrdup(v) : NULL;
}

/* The edit distance of two short keys, capped at 9 (longer never helps). */
static unsigned distance(const char *a, const char *b)
{
	unsigned row[33], i, j;
	size_t la = strlen(a), lb = strlen(b);

	if (la > 32 || lb > 32)
		return 9;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		unsigned diag = row[0], best;

		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned c = diag + (a[i - 1] != b[j - 1]);

			if (row[j - 1] + 1 < c)
				c = row[j - 1] + 1;
			if (up + 1 < c)
				c = up + 1;
			row[j] = c;
			diag = up;
			if (c < best)
				best = c;
		}
		if (best >= 9)
			return 9;
	}
	return row[lb] < 9 ? row[lb] : 9;
}

/*
 * The known key nearest @key: at most two edits, and fewer than half the
 * key's letters (so "ab" does not suggest "title"); NULL when none is.
 */
static const char *nearest(const char *key, const char *const *known, size_t n)
{
	const char *best = NULL;
	unsigned bd = 3, d;
	size_t i;

	for (i = 0; i < n; i++) {
		d = distance(key, known[i]);
		if (d < bd && 2 * d < strlen(key)) {
			bd = d;
			best = known[i];
		}
	}
	return best;
}

/*
 * Parse a YAML text into a document; a syntax error is a -Wbad-config
 * error with libyaml's line, column and message.
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
		const yaml_mark_t *m =
			p.problem ? &p.problem_mark : &p.context_mark;

		qu_diag(diags, QU_W_BAD_CONFIG, path, line0 + (uint32_t)m->line,
			(uint32_t)m->column + 1, "cannot parse YAML: %s%s%s",
			p.problem ? p.problem : "unknown error",
			p.context ? " " : "", p.context ? p.context : "");
	}
	yaml_parser_delete(&p);
	return ok ? 0 : -1;
}

static const char *const config_keys[] = {
	"title",	  "srctree",	 "theme",      "base_url",
	"source_url",	  "edit_url",	 "version",    "allow_html",
	"man",		  "exclude",	 "intersphinx", "versions",
	"last_changed",	  "comment_markup", "mode",
};

bool qu_site_label_is_ok(const char *l)
{
	size_t i;

	if (!*l || *l == '.' || strlen(l) > 64 || !strcmp(l, "latest"))
		return false;
	for (i = 0; l[i]; i++)
		if (!((l[i] >= 'a' && l[i] <= 'z') ||
		      (l[i] >= 'A' && l[i] <= 'Z') ||
		      (l[i] >= '0' && l[i] <= '9') || l[i] == '.' ||
		      l[i] == '-' || l[i] == '_'))
			return false;
	return true;
}

/* A mapping pair's key and value as scalars (NULL where they are not). */
static void pair_scalars(yaml_document_t *doc, const yaml_node_pair_t *q,
			 const char **key, const char **value)
{
	*key = scalar(yaml_document_get_node(doc, q->key));
	*value = scalar(yaml_document_get_node(doc, q->value));
}

/* versions: a list of {rev, label, latest, prerelease}. */
static int parse_versions(struct qu_config *out, struct qu_diags *diags,
			  const char *path, yaml_document_t *doc,
			  yaml_node_t *v)
{
	yaml_node_item_t *it;
	size_t nlatest = 0;
	int ret = 0;

	if (!v || v->type != YAML_SEQUENCE_NODE) {
		qu_diag(diags, QU_W_BAD_CONFIG, path,
			v ? (uint32_t)v->start_mark.line + 1 : 1,
			v ? (uint32_t)v->start_mark.column + 1 : 1,
			"'versions' must list {rev, label}, not %s",
			node_kind(v));
		return -1;
	}
	for (it = v->data.sequence.items.start;
	     it < v->data.sequence.items.top; it++) {
		yaml_node_t *m = yaml_document_get_node(doc, *it);
		uint32_t line = (uint32_t)m->start_mark.line + 1;
		uint32_t col = (uint32_t)m->start_mark.column + 1;
		struct qu_version e = {0};
		yaml_node_pair_t *q;
		bool bad = false;
		size_t k;

		if (m->type != YAML_MAPPING_NODE) {
			qu_diag(diags, QU_W_BAD_CONFIG, path, line, col,
				"a version must be {rev, label}, not %s",
				node_kind(m));
			ret = -1;
			continue;
		}
		for (q = m->data.mapping.pairs.start;
		     q < m->data.mapping.pairs.top; q++) {
			const char *qk, *qv;

			pair_scalars(doc, q, &qk, &qv);
			if (!qk || !qv)
				bad = true;
			else if (!strcmp(qk, "rev"))
				set(&e.rev, qv);
			else if (!strcmp(qk, "label"))
				set(&e.label, qv);
			else if (!strcmp(qk, "latest") && boolean(qv) >= 0)
				e.latest = boolean(qv);
			else if (!strcmp(qk, "prerelease") && boolean(qv) >= 0)
				e.prerelease = boolean(qv);
			else
				bad = true;
		}
		if (e.rev && !e.label)
			e.label = qu_xstrdup(e.rev);
		for (k = 0; e.label && k < out->nversions; k++)
			bad |= !strcmp(out->versions[k].label, e.label);
		if (bad || !e.rev || !qu_site_label_is_ok(e.label) ||
		    (e.latest && e.prerelease)) {
			qu_diag(diags, QU_W_BAD_CONFIG, path, line, col,
				"a version needs a rev and a label of letters, "
				"digits, '.', '-' and '_' (unique, not "
				"starting with '.', not 'latest'), and a "
				"pre-release is never the latest");
			free(e.rev);
			free(e.label);
			ret = -1;
			continue;
		}
		nlatest += e.latest;
		out->versions = qu_xrealloc(out->versions,
					    (out->nversions + 1) *
						    sizeof(*out->versions));
		out->versions[out->nversions++] = e;
	}
	if (nlatest > 1) {
		qu_diag(diags, QU_W_BAD_CONFIG, path,
			(uint32_t)v->start_mark.line + 1,
			(uint32_t)v->start_mark.column + 1,
			"more than one version is marked latest");
		ret = -1;
	}
	return ret;
}

/*
 * intersphinx: a mapping of names to {url, inventory}. Return: 0, or -1
 * (reported) when it is not that shape.
 */
static int parse_intersphinx(struct qu_config *out, struct qu_diags *diags,
			     const char *path, yaml_document_t *doc,
			     yaml_node_t *v)
{
	yaml_node_pair_t *pair, *q;
	int ret = 0;

	if (!v || v->type != YAML_MAPPING_NODE) {
		qu_diag(diags, QU_W_BAD_CONFIG, path,
			v ? (uint32_t)v->start_mark.line + 1 : 1,
			v ? (uint32_t)v->start_mark.column + 1 : 1,
			"'intersphinx' must map names to {url, inventory}, "
			"not %s",
			node_kind(v));
		return -1;
	}
	for (pair = v->data.mapping.pairs.start;
	     pair < v->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(doc, pair->key);
		yaml_node_t *m = yaml_document_get_node(doc, pair->value);
		struct qu_intersphinx e = {0};

		e.line = k ? (uint32_t)k->start_mark.line + 1 : 1;
		if (!scalar(k) || !m || m->type != YAML_MAPPING_NODE) {
			qu_diag(diags, QU_W_BAD_CONFIG, path, e.line,
				k ? (uint32_t)k->start_mark.column + 1 : 1,
				"an 'intersphinx' entry must be a name mapped "
				"to url and inventory");
			ret = -1;
			continue;
		}
		for (q = m->data.mapping.pairs.start;
		     q < m->data.mapping.pairs.top; q++) {
			const char *qk, *qv;

			pair_scalars(doc, q, &qk, &qv);
			if (qk && qv && !strcmp(qk, "url"))
				set(&e.url, qv);
			else if (qk && qv && !strcmp(qk, "inventory"))
				set(&e.inventory, qv);
		}
		if (!e.url || !e.inventory) {
			qu_diag(diags, QU_W_BAD_CONFIG, path, e.line,
				(uint32_t)k->start_mark.column + 1,
				"'intersphinx' entry '%s' needs a url and an "
				"inventory (a local objects.inv)",
				scalar(k));
			free(e.url);
			free(e.inventory);
			ret = -1;
			continue;
		}
		e.name = qu_xstrdup(scalar(k));
		out->intersphinx = qu_xrealloc(
			out->intersphinx,
			(out->nintersphinx + 1) * sizeof(*out->intersphinx));
		out->intersphinx[out->nintersphinx++] = e;
	}
	return ret;
}

/* Add one exclude pattern. */
static void add_exclude(struct qu_config *out, const char *s)
{
	out->exclude =
		qu_xrealloc(out->exclude, (out->nexclude + 1) * sizeof(char *));
	out->exclude[out->nexclude++] = qu_xstrdup(s);
}

int qu_site_config_parse(struct qu_config *out, struct qu_diags *diags,
			 const char *path, const char *text, size_t len)
{
	yaml_document_t doc;
	yaml_node_t *root;
	yaml_node_pair_t *pair;
	int ret = 0;

	if (load(&doc, diags, path, text, len, 1) < 0)
		return -1;
	root = yaml_document_get_root_node(&doc);
	if (!root || root->type != YAML_MAPPING_NODE) {
		if (root && !(root->type == YAML_SCALAR_NODE &&
			      !root->data.scalar.length)) {
			qu_diag(diags, QU_W_BAD_CONFIG, path,
				(uint32_t)root->start_mark.line + 1,
				(uint32_t)root->start_mark.column + 1,
				"the configuration is %s, not a mapping of "
				"keys",
				node_kind(root));
			ret = -1;
		}
		goto out;
	}
	for (pair = root->data.mapping.pairs.start;
	     pair < root->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(&doc, pair->key);
		yaml_node_t *v = yaml_document_get_node(&doc, pair->value);
		const char *key = scalar(k), *val = scalar(v);
		uint32_t line = k ? (uint32_t)k->start_mark.line + 1 : 1;
		uint32_t col = k ? (uint32_t)k->start_mark.column + 1 : 1;
		uint32_t vline = v ? (uint32_t)v->start_mark.line + 1 : line;
		uint32_t vcol = v ? (uint32_t)v->start_mark.column + 1 : col;
		const char *near;

		if (!key) {
			qu_diag(diags, QU_W_BAD_CONFIG, path, line, col,
				"a key is %s, not a name", node_kind(k));
			ret = -1;
			continue;
		}
		if (!strcmp(key, "versions")) {
			if (parse_versions(out, diags, path, &doc, v) < 0)
				ret = -1;
			continue;
		}
		if (!strcmp(key, "intersphinx")) {
			if (parse_intersphinx(out, diags, path, &doc, v) < 0)
				ret = -1;
			continue;
		}
		if (!strcmp(key, "exclude")) {
			yaml_node_item_t *it;

			if (val) {
				add_exclude(out, val);
				continue;
			}
			if (!v || v->type != YAML_SEQUENCE_NODE) {
				qu_diag(diags, QU_W_BAD_CONFIG, path, vline,
					vcol,
					"'exclude' must be a pattern or a list "
					"of patterns, not %s",
					node_kind(v));
				ret = -1;
				continue;
			}
			for (it = v->data.sequence.items.start;
			     it < v->data.sequence.items.top; it++) {
				yaml_node_t *e =
					yaml_document_get_node(&doc, *it);

				if (!scalar(e)) {
					qu_diag(diags, QU_W_BAD_CONFIG, path,
						(uint32_t)e->start_mark.line +
							1,
						(uint32_t)e->start_mark.column +
							1,
						"'exclude' must list patterns, "
						"not %s",
						node_kind(e));
					ret = -1;
					continue;
				}
				add_exclude(out, scalar(e));
			}
			continue;
		}
		near = NULL;
		for (size_t i = 0; i < QU_ARRAY_SIZE(config_keys); i++)
			if (!strcmp(key, config_keys[i]))
				near = config_keys[i];
		if (!near) {
			near = nearest(key, config_keys,
				       QU_ARRAY_SIZE(config_keys));
			if (near)
				qu_diag(diags, QU_W_CONFIG, path, line, col,
					"unknown key '%s', did you mean "
					"'%s'?",
					key, near);
			else
				qu_diag(diags, QU_W_CONFIG, path, line, col,
					"unknown key '%s', ignoring it", key);
			continue;
		}
		if (!val) {
			qu_diag(diags, QU_W_BAD_CONFIG, path, vline, vcol,
				"'%s' must be %s, not %s", key,
				!strcmp(key, "allow_html") ||
						!strcmp(key, "man") ||
						!strcmp(key, "last_changed")
					? "true or false"
					: "a string",
				node_kind(v));
			ret = -1;
			continue;
		}
		if (!strcmp(key, "title"))
			set(&out->title, val);
		else if (!strcmp(key, "srctree")) {
			set(&out->srctree, val);
			out->srctree_line = vline;
		} else if (!strcmp(key, "theme")) {
			set(&out->theme, val);
			out->theme_line = vline;
		} else if (!strcmp(key, "base_url"))
			set(&out->base_url, val);
		else if (!strcmp(key, "source_url"))
			set(&out->source_url, val);
		else if (!strcmp(key, "edit_url"))
			set(&out->edit_url, val);
		else if (!strcmp(key, "version"))
			set(&out->version, val);
		else if (!strcmp(key, "mode")) {
			out->mode_line = vline;
			if (!strcmp(val, "api") || !strcmp(val, "pages")) {
				out->api = !strcmp(val, "api");
			} else {
				qu_diag(diags, QU_W_BAD_CONFIG, path, vline,
					vcol,
					"'mode' must be pages or api, not '%s'",
					val);
				ret = -1;
			}
		} else if (!strcmp(key, "comment_markup")) {
			if (!strcmp(val, "rst"))
				out->comment_markup = QU_MARKUP_RST;
			else if (!strcmp(val, "markdown"))
				out->comment_markup = QU_MARKUP_MARKDOWN;
			else {
				qu_diag(diags, QU_W_BAD_CONFIG, path, vline,
					vcol,
					"'comment_markup' must be rst or "
					"markdown, not '%s'",
					val);
				ret = -1;
			}
		} else if (boolean(val) >= 0 && !strcmp(key, "man"))
			out->man = boolean(val);
		else if (boolean(val) >= 0 && !strcmp(key, "last_changed"))
			out->no_last_changed = !boolean(val);
		else if (boolean(val) >= 0)
			out->allow_html = boolean(val);
		else {
			qu_diag(diags, QU_W_BAD_CONFIG, path, vline, vcol,
				"'%s' must be true or false, not '%s'", key,
				val);
			ret = -1;
		}
	}
out:
	yaml_document_delete(&doc);
	return ret;
}

void qu_config_fini(struct qu_config *c)
{
	size_t i;

	free(c->conf_py);
	free(c->title);
	free(c->srctree);
	free(c->theme);
	free(c->base_url);
	free(c->source_url);
	free(c->edit_url);
	free(c->version);
	for (i = 0; i < c->nexclude; i++)
		free(c->exclude[i]);
	free(c->exclude);
	for (i = 0; i < c->nintersphinx; i++) {
		free(c->intersphinx[i].name);
		free(c->intersphinx[i].url);
		free(c->intersphinx[i].inventory);
		free(c->intersphinx[i].data);
	}
	free(c->intersphinx);
	for (i = 0; i < c->nversions; i++) {
		free(c->versions[i].rev);
		free(c->versions[i].label);
	}
	free(c->versions);
	memset(c, 0, sizeof(*c));
}

/* An integer of front matter's order: digits with an optional sign. */
static bool integer(const char *v, int *out)
{
	char *end;
	long n;

	if (!*v)
		return false;
	n = strtol(v, &end, 10);
	if (*end || n < INT_MIN || n > INT_MAX)
		return false;
	*out = (int)n;
	return true;
}

static const char *const front_keys[] = {"title", "order"};

/*
 * Front matter: a "---" first line, YAML, a "---" or "..." line. Only
 * title and order mean something to quire: a wrong type for either is an
 * error. Other keys are left to themes and other tools (description,
 * tags, ...), so only a near miss of title or order is warned.
 */
int site_front_matter(struct qu_site *s, struct qu_page *pg, const char *text,
		      size_t len, size_t *body_off, uint32_t *body_line)
{
	yaml_document_t doc;
	yaml_node_t *root;
	yaml_node_pair_t *pair;
	size_t pos, yaml_end = 0, end = 0, start;
	uint32_t lines = 1;
	int ret = 0;

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
	start = text[3] == '\r' ? 5 : 4;
	if (load(&doc, &s->diags, pg->diag_path, text + start, yaml_end - start,
		 2) < 0)
		return -1;
	root = yaml_document_get_root_node(&doc);
	if (root && root->type != YAML_MAPPING_NODE &&
	    !(root->type == YAML_SCALAR_NODE && !root->data.scalar.length)) {
		qu_diag(&s->diags, QU_W_BAD_CONFIG, pg->diag_path,
			(uint32_t)root->start_mark.line + 2,
			(uint32_t)root->start_mark.column + 1,
			"the front matter is %s, not a mapping of keys",
			node_kind(root));
		ret = -1;
	}
	if (root && root->type == YAML_MAPPING_NODE) {
		for (pair = root->data.mapping.pairs.start;
		     pair < root->data.mapping.pairs.top; pair++) {
			yaml_node_t *kn =
				yaml_document_get_node(&doc, pair->key);
			yaml_node_t *vn =
				yaml_document_get_node(&doc, pair->value);
			const char *k = scalar(kn), *v = scalar(vn);
			uint32_t vline = (uint32_t)vn->start_mark.line + 2;
			uint32_t vcol = (uint32_t)vn->start_mark.column + 1;
			const char *near;

			if (!k)
				continue;
			if (!strcmp(k, "title")) {
				if (v) {
					pg->title = site_strdup(s, v);
					continue;
				}
				qu_diag(&s->diags, QU_W_BAD_CONFIG,
					pg->diag_path, vline, vcol,
					"'title' must be a string, not %s",
					node_kind(vn));
				ret = -1;
			} else if (!strcmp(k, "order")) {
				if (v && integer(v, &pg->order))
					continue;
				if (v)
					qu_diag(&s->diags, QU_W_BAD_CONFIG,
						pg->diag_path, vline, vcol,
						"'order' must be an integer, "
						"not '%s'",
						v);
				else
					qu_diag(&s->diags, QU_W_BAD_CONFIG,
						pg->diag_path, vline, vcol,
						"'order' must be an integer, "
						"not %s",
						node_kind(vn));
				ret = -1;
			} else if ((near = nearest(
					    k, front_keys,
					    QU_ARRAY_SIZE(front_keys)))) {
				qu_diag(&s->diags, QU_W_CONFIG, pg->diag_path,
					(uint32_t)kn->start_mark.line + 2,
					(uint32_t)kn->start_mark.column + 1,
					"unknown key '%s', did you mean "
					"'%s'?",
					k, near);
			}
		}
	}
	yaml_document_delete(&doc);
	return ret;
}

/*
 * Sphinx's autosectionlabel, from conf.py: on when the extension's name
 * is a string on a line that is not a comment (the extensions list),
 * with autosectionlabel_prefix_document = True and
 * autosectionlabel_maxdepth = N read as plain assignments.
 */
/* The value of "KEY = value" on line @l (@ll bytes), or NULL. */
static const char *assigned(const char *l, size_t ll, const char *key)
{
	size_t kl = strlen(key), k;
	const char *eq;

	if (ll <= kl || strncmp(l, key, kl) ||
	    isalnum((unsigned char)l[kl]) || l[kl] == '_' ||
	    !(eq = memchr(l, '=', ll)))
		return NULL;
	for (k = (size_t)(eq - l) + 1; k < ll && l[k] == ' '; k++)
		;
	return l + k;
}

static void conf_autosection(struct qu_site *s, const char *text, size_t len)
{
	static const char ext[] = "sphinx.ext.autosectionlabel";
	static const char pre[] = "autosectionlabel_prefix_document";
	static const char dep[] = "autosectionlabel_maxdepth";
	size_t pos = 0;

	while (pos < len) {
		const char *l = text + pos, *nl = memchr(l, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - l) : len - pos, i = 0;
		const char *hit, *v;

		pos += ll + 1;
		while (i < ll && (l[i] == ' ' || l[i] == '\t'))
			i++;
		if (i < ll && l[i] == '#')
			continue;
		hit = memmem(l, ll, ext, sizeof(ext) - 1);
		if (hit && hit > l && (hit[-1] == '\'' || hit[-1] == '"') &&
		    (size_t)(hit - l) + sizeof(ext) - 1 < ll &&
		    hit[sizeof(ext) - 1] == hit[-1])
			s->cfg.autosection = true;
		if (i)
			continue;
		if ((v = assigned(l, ll, pre)))
			s->cfg.autosection_prefix =
				(size_t)(l + ll - v) >= 4 && !strncmp(v, "True", 4);
		if ((v = assigned(l, ll, dep))) {
			unsigned n = 0;

			while (v < l + ll && isdigit((unsigned char)*v) &&
			       n < 1000)
				n = n * 10 + (unsigned)(*v++ - '0');
			s->cfg.autosection_depth = n;
		}
	}
}

/*
 * A Sphinx project's conf.py is Python: quire never runs it, it only
 * takes the settings it needs from top-level assignments of plain string
 * literals ("project = 'The Linux Kernel'"); anything computed is left
 * to the defaults, and a quire.yml key set already wins.
 */
void site_conf_py(struct qu_site *s, const char *path, const char *text,
		  size_t len)
{
	static const char *const keys[] = {"project", "version", "release"};
	char *vals[QU_ARRAY_SIZE(keys)] = {NULL};
	size_t pos = 0, k;

	(void)path;
	while (pos < len) {
		const char *l = text + pos, *nl = memchr(l, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - l) : len - pos, i = 0, j;
		char q;

		pos += ll + 1;
		while (i < ll && (isalnum((unsigned char)l[i]) || l[i] == '_'))
			i++;
		for (k = 0; k < QU_ARRAY_SIZE(keys); k++)
			if (i == strlen(keys[k]) && !strncmp(l, keys[k], i))
				break;
		if (k == QU_ARRAY_SIZE(keys))
			continue;
		while (i < ll && l[i] == ' ')
			i++;
		if (i >= ll || l[i++] != '=')
			continue;
		while (i < ll && l[i] == ' ')
			i++;
		if (i >= ll || (l[i] != '\'' && l[i] != '"'))
			continue;
		q = l[i++];
		for (j = i; j < ll && l[j] != q && l[j] != '\\'; j++)
			;
		if (j >= ll || l[j] != q)
			continue;
		/* only the literal and an optional comment after it */
		{
			size_t e = j + 1;

			while (e < ll && (l[e] == ' ' || l[e] == '\r'))
				e++;
			if (e < ll && l[e] != '#')
				continue;
		}
		free(vals[k]);
		vals[k] = qu_xstrndup(l + i, j - i);
	}
	conf_autosection(s, text, len);
	if (!s->cfg.title && vals[0]) {
		s->cfg.title = vals[0];
		vals[0] = NULL;
	}
	if (!s->cfg.version && (vals[2] || vals[1])) {
		s->cfg.version = vals[2] ? vals[2] : vals[1];
		if (vals[2])
			vals[2] = NULL;
		else
			vals[1] = NULL;
	}
	for (k = 0; k < QU_ARRAY_SIZE(keys); k++)
		free(vals[k]);
}
