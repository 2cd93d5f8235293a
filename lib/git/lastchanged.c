// SPDX-License-Identifier: MIT
/*
 * lastchanged.c - when each file last changed, in one walk (git stage)
 *
 * `git log -1 -- PATH` for every path at once. The commit graph below the
 * revision is loaded, then visited children first (Kahn's order). Each
 * commit holds the files still looking for their answer on its line of
 * history; a commit with one parent compares its tree with the parent's
 * (skipping folders with equal ids), answers the files that differ and
 * hands the rest on in O(1) (lists are concatenated and owners merged in
 * a union-find). A merge hands each file to the first parent it is the
 * same in (git's history simplification) and answers those it differs
 * from every parent in.
 */
#include <stdlib.h>
#include <string.h>

#include "git/git_int.h"

#define NONE UINT32_MAX

struct node {
	git_oid oid, tree;
	int64_t time;
	uint32_t first, np;	/* parents: walk.par[first .. first + np) */
	uint32_t left;		/* children not yet visited */
	uint32_t head, tail;	/* the files waiting here */
	uint32_t cnt;		/* how many of them are unanswered */
	uint32_t uf;		/* union-find: where they went */
	bool shallow;		/* its parents are cut off */
};

struct walk {
	git_repository *repo;
	git_odb *odb;
	enum qu_git_walk mode;
	struct node *n;
	size_t nn, ncap;
	uint32_t *par;
	size_t npar, parcap;
	struct qu_map ids;	/* oid bytes -> node index + 1 */
	struct qu_arena keys;
	/* per file */
	struct qu_map paths;	/* path -> file index + 1 */
	uint32_t *owner, *next, *stamp;
	bool *done;
	size_t left;		/* files unanswered */
	struct qu_git_change *out;
	uint32_t epoch;
	struct qu_buf pre;
	/* folder -> files below it still unanswered, + 1 (0: none asked) */
	struct qu_map folders;
	/* trees met lately: a parent's trees are its child's next */
	struct qu_map trees;
	struct qu_arena tkeys;
};

/* trees kept between commits; past this, all are let go */
#define TREE_CACHE 16384

static void trees_flush(struct walk *w)
{
	size_t i;

	for (i = 0; i < w->trees.cap; i++)
		if (w->trees.slots[i].key)
			git_tree_free(w->trees.slots[i].value);
	qu_map_fini(&w->trees);
	qu_map_init(&w->trees);
	qu_arena_fini(&w->tkeys);
	qu_arena_init(&w->tkeys);
}

/* a tree, owned by the cache until the next flush */
static int tree_get(git_tree **out, struct walk *w, const git_oid *id)
{
	void *v = qu_map_get(&w->trees, (const char *)id->id, GIT_OID_RAWSZ);
	int error;

	if (v) {
		*out = v;
		return 0;
	}
	if ((error = git_tree_lookup(out, w->repo, id)) < 0)
		return error;
	*qu_map_slot(&w->trees, qu_arena_memdup(&w->tkeys, id->id,
			GIT_OID_RAWSZ), GIT_OID_RAWSZ) = *out;
	return 0;
}

static uint32_t find(struct walk *w, uint32_t x)
{
	uint32_t r = x;

	while (w->n[r].uf != r)
		r = w->n[r].uf;
	while (w->n[x].uf != r) {
		uint32_t up = w->n[x].uf;

		w->n[x].uf = r;
		x = up;
	}
	return r;
}

static uint32_t node_of(struct walk *w, const git_oid *id, bool *fresh)
{
	void **slot = qu_map_slot(&w->ids,
		qu_arena_memdup(&w->keys, id->id, GIT_OID_RAWSZ), GIT_OID_RAWSZ);
	struct node *n;

	*fresh = !*slot;
	if (*slot)
		return (uint32_t)(uintptr_t)*slot - 1;
	if (w->nn == w->ncap) {
		w->ncap = w->ncap ? 2 * w->ncap : 1024;
		w->n = realloc(w->n, w->ncap * sizeof(*w->n));
		if (!w->n)
			abort();
	}
	n = &w->n[w->nn];
	memset(n, 0, sizeof(*n));
	git_oid_cpy(&n->oid, id);
	n->head = n->tail = NONE;
	n->uf = (uint32_t)w->nn;
	*slot = (void *)(uintptr_t)(w->nn + 1);
	return (uint32_t)w->nn++;
}

static void add_parent(struct walk *w, uint32_t p)
{
	if (w->npar == w->parcap) {
		w->parcap = w->parcap ? 2 * w->parcap : 1024;
		w->par = realloc(w->par, w->parcap * sizeof(*w->par));
		if (!w->par)
			abort();
	}
	w->par[w->npar++] = p;
}

/* Load every commit below @start, depth first, counting children. */
static int load(struct walk *w, const git_oid *start, struct qu_buf *err)
{
	uint32_t *stack = NULL;
	size_t sn = 0, scap = 0;
	git_commit *c = NULL;
	bool fresh;
	int error = 0;

	scap = 1024;
	stack = malloc(scap * sizeof(*stack));
	if (!stack)
		abort();
	stack[sn++] = node_of(w, start, &fresh);
	while (sn) {
		uint32_t i = stack[--sn], k, np;

		if ((error = git_commit_lookup(&c, w->repo, &w->n[i].oid)) < 0) {
			git_error_to(err, "cannot read commit", NULL);
			goto out;
		}
		git_oid_cpy(&w->n[i].tree, git_commit_tree_id(c));
		w->n[i].time = git_commit_time(c);
		np = git_commit_parentcount(c);
		if (w->mode == QU_GIT_WALK_FIRST_PARENT && np > 1)
			np = 1;
		/* a shallow clone's cut: the parents are not there */
		for (k = 0; k < np; k++)
			if (!git_odb_exists(w->odb,
					    git_commit_parent_id(c, k)))
				break;
		if (k < np) {
			w->n[i].shallow = true;
			np = 0;
		}
		w->n[i].first = (uint32_t)w->npar;
		w->n[i].np = np;
		for (k = 0; k < np; k++) {
			uint32_t p = node_of(w, git_commit_parent_id(c, k), &fresh);

			add_parent(w, p);
			w->n[p].left++;
			if (fresh) {
				if (sn == scap) {
					scap *= 2;
					stack = realloc(stack, scap * sizeof(*stack));
					if (!stack)
						abort();
				}
				stack[sn++] = p;
			}
		}
		git_commit_free(c);
		c = NULL;
	}
out:
	git_commit_free(c);
	free(stack);
	return error;
}

/* count @f in (or, @d < 0, out of) every folder above it */
static void folders_add(struct walk *w, const char *path, int d)
{
	const char *slash;

	for (slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
		size_t len = (size_t)(slash - path);
		/* the key is the file's own path: it outlives the map */
		void **slot = qu_map_slot(&w->folders, path, len);

		*slot = (void *)((uintptr_t)*slot + (uintptr_t)(intptr_t)d);
	}
}

/* whether a folder (w->pre, without its slash) has files unanswered */
static bool folder_wanted(struct walk *w)
{
	return (uintptr_t)qu_map_get(&w->folders, w->pre.buf,
				     w->pre.len - 1) != 0;
}

static void answer(struct walk *w, uint32_t f, const struct node *n)
{
	w->done[f] = true;
	w->left--;
	folders_add(w, w->out[f].path, -1);
	if (!n)
		return;
	w->out[f].time = n->time;
	git_oid_tostr(w->out[f].commit, sizeof(w->out[f].commit), &n->oid);
}

static void push(struct walk *w, uint32_t node, uint32_t f)
{
	struct node *n = &w->n[node];

	w->owner[f] = node;
	w->next[f] = NONE;
	if (n->tail == NONE)
		n->head = f;
	else
		w->next[n->tail] = f;
	n->tail = f;
	n->cnt++;
}

typedef void diff_fn(struct walk *w, uint32_t f, void *payload);

/*
 * Call @fn for every file of @a (at w->pre) whose entry differs from
 * @b's, or is absent there; @b may be NULL. Folders with equal ids are
 * skipped whole.
 */
static int diff(struct walk *w, const git_tree *a, const git_tree *b,
		diff_fn *fn, void *payload, struct qu_buf *err)
{
	size_t na = git_tree_entrycount(a), nb = b ? git_tree_entrycount(b) : 0;
	size_t i = 0, j = 0, plen = w->pre.len;
	int error = 0;

	for (; i < na; i++) {
		const git_tree_entry *ea = git_tree_entry_byindex(a, i), *eb = NULL;
		git_tree *sa = NULL, *sb = NULL;
		int cmp = 1;

		while (j < nb) {
			eb = git_tree_entry_byindex(b, j);
			cmp = git_tree_entry_cmp(ea, eb);
			if (cmp <= 0)
				break;
			j++;
		}
		if (cmp == 0 && git_tree_entry_filemode(ea) ==
				git_tree_entry_filemode(eb) &&
		    git_oid_equal(git_tree_entry_id(ea), git_tree_entry_id(eb)))
			continue;
		if (cmp != 0)
			eb = NULL;
		qu_buf_adds(&w->pre, git_tree_entry_name(ea));
		switch (git_tree_entry_type(ea)) {
		case GIT_OBJECT_TREE:
			qu_buf_addc(&w->pre, '/');
			/* nothing below is waiting: its trees need no reading */
			if (!folder_wanted(w))
				break;
			if ((error = tree_get(&sa, w, git_tree_entry_id(ea))) < 0 ||
			    (eb && git_tree_entry_type(eb) == GIT_OBJECT_TREE &&
			     (error = tree_get(&sb, w, git_tree_entry_id(eb))) < 0)) {
				git_error_to(err, "cannot read folder", w->pre.buf);
				goto next;
			}
			error = diff(w, sa, sb, fn, payload, err);
			break;
		case GIT_OBJECT_BLOB: {
			void *f = qu_map_get(&w->paths, w->pre.buf, w->pre.len);

			if (f)
				fn(w, (uint32_t)(uintptr_t)f - 1, payload);
			break;
		}
		default:
			break;	/* a submodule */
		}
next:
		w->pre.len = plen;
		w->pre.buf[plen] = '\0';
		if (error < 0)
			return error;
	}
	return 0;
}

static int diff_trees(struct walk *w, uint32_t a, uint32_t b, diff_fn *fn,
		      void *payload, struct qu_buf *err)
{
	git_tree *ta = NULL, *tb = NULL;
	int error;

	qu_buf_reset(&w->pre);
	if (w->trees.n > TREE_CACHE)
		trees_flush(w);
	if ((error = tree_get(&ta, w, &w->n[a].tree)) < 0 ||
	    (error = tree_get(&tb, w, &w->n[b].tree)) < 0)
		git_error_to(err, "cannot read a tree", NULL);
	else
		error = diff(w, ta, tb, fn, payload, err);
	return error;
}

/* one parent: a file that differs and waits here is answered */
static void changed(struct walk *w, uint32_t f, void *payload)
{
	uint32_t node = *(uint32_t *)payload;

	if (!w->done[f] && find(w, w->owner[f]) == node) {
		answer(w, f, &w->n[node]);
		w->n[node].cnt--;
	}
}

/* a merge: mark the files that differ from this parent */
static void mark(struct walk *w, uint32_t f, void *payload)
{
	w->stamp[f] = w->epoch;
}

/* the unanswered files waiting at @node, into @out (a scratch array) */
static size_t members(struct walk *w, uint32_t node, uint32_t *out)
{
	size_t n = 0;
	uint32_t f;

	for (f = w->n[node].head; f != NONE; f = w->next[f])
		if (!w->done[f])
			out[n++] = f;
	return n;
}

static int visit(struct walk *w, uint32_t i, uint32_t *tmp, int32_t *to,
		 struct qu_buf *err)
{
	struct node *n = &w->n[i];
	size_t m, k;
	int error;

	if (n->cnt == 0)
		return 0;
	if (n->np == 0) {
		/* a root answers for all; a shallow cut for none */
		m = members(w, i, tmp);
		for (k = 0; k < m; k++)
			answer(w, tmp[k], n->shallow ? NULL : n);
		n->cnt = 0;
		return 0;
	}
	if (n->np == 1) {
		struct node *p;

		if ((error = diff_trees(w, i, w->par[n->first], changed, &i,
					err)) < 0)
			return error;
		n = &w->n[i];
		if (n->cnt == 0)
			return 0;
		/* hand the rest on whole: concatenate, merge owners */
		p = &w->n[w->par[n->first]];
		if (p->tail == NONE)
			p->head = n->head;
		else
			w->next[p->tail] = n->head;
		p->tail = n->tail;
		p->cnt += n->cnt;
		n->uf = w->par[n->first];
		n->cnt = 0;
		return 0;
	}
	m = members(w, i, tmp);
	for (k = 0; k < m; k++)
		to[k] = -1;
	for (uint32_t q = 0; q < n->np; q++) {
		w->epoch++;
		if ((error = diff_trees(w, i, w->par[n->first + q], mark, NULL,
					err)) < 0)
			return error;
		n = &w->n[i];
		for (k = 0; k < m; k++)
			if (to[k] < 0 && w->stamp[tmp[k]] != w->epoch)
				to[k] = (int32_t)q;
	}
	for (k = 0; k < m; k++) {
		if (to[k] < 0)
			answer(w, tmp[k], n);
		else
			push(w, w->par[n->first + to[k]], tmp[k]);
		n = &w->n[i];
	}
	n->cnt = 0;
	return 0;
}

static int add_all(struct qu_git_change **v, size_t *n, struct qu_git_tree *t,
		   struct qu_buf *err)
{
	struct qu_git_file *files;
	size_t nf, i;
	int error;

	if ((error = git_tree_files(&files, &nf, t, NULL, false, err)) < 0)
		return error;
	*v = calloc(nf ? nf : 1, sizeof(**v));
	if (!*v)
		abort();
	for (i = 0; i < nf; i++) {
		(*v)[i].path = files[i].path;
		files[i].path = NULL;
	}
	*n = nf;
	qu_git_files_free(files, nf);
	return 0;
}

int qu_git_last_changed(struct qu_git_change **out, size_t *n_out,
			struct qu_git_tree *t, const char *const *paths,
			size_t n_paths, enum qu_git_walk walk,
			struct qu_buf *err)
{
	struct walk w = {.repo = t->repo, .mode = walk};
	uint32_t *queue = NULL, *tmp = NULL;
	int32_t *to = NULL;
	size_t qn = 0, i, n = 0;
	int error = 0;

	*out = NULL;
	*n_out = 0;
	qu_map_init(&w.ids);
	qu_map_init(&w.paths);
	qu_arena_init(&w.keys);
	qu_buf_init(&w.pre);
	qu_map_init(&w.trees);
	qu_arena_init(&w.tkeys);
	qu_map_init(&w.folders);
	if (paths) {
		w.out = calloc(n_paths ? n_paths : 1, sizeof(*w.out));
		if (!w.out)
			abort();
		for (i = 0; i < n_paths; i++)
			w.out[i].path = strdup(paths[i]);
		n = n_paths;
	} else if ((error = add_all(&w.out, &n, t, err)) < 0) {
		goto out;
	}
	w.owner = calloc(n + 1, sizeof(*w.owner));
	w.next = calloc(n + 1, sizeof(*w.next));
	w.stamp = calloc(n + 1, sizeof(*w.stamp));
	w.done = calloc(n + 1, sizeof(*w.done));
	tmp = calloc(n + 1, sizeof(*tmp));
	to = calloc(n + 1, sizeof(*to));
	if (!w.owner || !w.next || !w.stamp || !w.done || !tmp || !to)
		abort();
	if ((error = git_repository_odb(&w.odb, w.repo)) < 0) {
		git_error_to(err, "cannot open the object database", NULL);
		goto out;
	}
	if ((error = load(&w, &t->commit, err)) < 0)
		goto out;
	w.left = n;
	for (i = 0; i < n; i++) {
		git_tree_entry *e = NULL;
		void **slot;

		if (git_tree_entry_bypath(&e, t->tree, w.out[i].path) < 0 ||
		    git_tree_entry_type(e) != GIT_OBJECT_BLOB) {
			git_tree_entry_free(e);
			w.done[i] = true;	/* not a file of the revision */
			w.left--;
			continue;
		}
		git_tree_entry_free(e);
		slot = qu_map_slot(&w.paths, w.out[i].path,
				   strlen(w.out[i].path));
		if (*slot) {
			/* asked twice: answered once, copied below */
			w.owner[i] = (uint32_t)(uintptr_t)*slot - 1;
			w.done[i] = true;
			w.stamp[i] = UINT32_MAX;
			w.left--;
			continue;
		}
		*slot = (void *)(uintptr_t)(i + 1);
		folders_add(&w, w.out[i].path, 1);
		push(&w, 0, (uint32_t)i);
	}
	for (i = 0; i < n; i++)
		if (w.stamp[i] == UINT32_MAX)
			w.stamp[i] = 0, w.owner[i] |= 0x80000000u;
	queue = malloc((w.nn + 1) * sizeof(*queue));
	if (!queue)
		abort();
	queue[qn++] = 0;
	while (qn && w.left) {
		uint32_t c = queue[--qn], k;

		if ((error = visit(&w, c, tmp, to, err)) < 0)
			goto out;
		for (k = 0; k < w.n[c].np; k++) {
			uint32_t p = w.par[w.n[c].first + k];

			if (--w.n[p].left == 0)
				queue[qn++] = p;
		}
	}
	for (i = 0; i < n; i++)
		if (w.owner[i] & 0x80000000u) {
			struct qu_git_change *src = &w.out[w.owner[i] & 0x7fffffffu];

			w.out[i].time = src->time;
			memcpy(w.out[i].commit, src->commit, sizeof(src->commit));
		}
	*out = w.out;
	*n_out = n;
	w.out = NULL;
out:
	if (w.out)
		qu_git_changes_free(w.out, n);
	git_odb_free(w.odb);
	free(queue);
	free(tmp);
	free(to);
	free(w.owner);
	free(w.next);
	free(w.stamp);
	free(w.done);
	free(w.n);
	free(w.par);
	qu_map_fini(&w.ids);
	qu_map_fini(&w.paths);
	qu_arena_fini(&w.keys);
	qu_buf_fini(&w.pre);
	trees_flush(&w);
	qu_map_fini(&w.trees);
	qu_arena_fini(&w.tkeys);
	qu_map_fini(&w.folders);
	return error < 0 ? -1 : 0;
}

void qu_git_changes_free(struct qu_git_change *changes, size_t n)
{
	size_t i;

	for (i = 0; changes && i < n; i++)
		free(changes[i].path);
	free(changes);
}
