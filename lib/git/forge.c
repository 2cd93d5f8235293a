// SPDX-License-Identifier: MIT
/*
 * forge.c - "view source" and "edit" URLs from a remote's URL (git stage)
 *
 * The remote forms git accepts (https, git, ssh with or without a user
 * and port, scp-like `user@host:path`) are taken apart into a host and a
 * path; a known forge turns them into a template with `{path}` and
 * `{line}`. Only URL-safe bytes reach the template.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "git/git_int.h"

enum forge { NONE_FORGE, GITHUB, GITLAB, CGIT };

static bool safe(int c)
{
	return isalnum(c) || c == '.' || c == '_' || c == '~' || c == '-' ||
	       c == '/';
}

static bool host_is(const char *h, size_t len, const char *name)
{
	return strlen(name) == len && !strncasecmp(h, name, len);
}

static enum forge forge_of(const char *h, size_t len)
{
	if (host_is(h, len, "github.com") || host_is(h, len, "www.github.com"))
		return GITHUB;
	if (host_is(h, len, "gitlab.com") ||
	    (len > 7 && !strncasecmp(h, "gitlab.", 7)))
		return GITLAB;
	if (host_is(h, len, "git.kernel.org") ||
	    host_is(h, len, "gitolite.kernel.org"))
		return CGIT;
	return NONE_FORGE;
}

/* the path is a repository's: safe bytes, no empty, "." or ".." parts */
static bool path_ok(const char *p, size_t len, size_t *parts)
{
	size_t i, seg = 0;

	*parts = 0;
	if (len == 0)
		return false;
	for (i = 0; i <= len; i++) {
		if (i == len || p[i] == '/') {
			size_t n = i - seg;

			if (n == 0 || (n == 1 && p[seg] == '.') ||
			    (n == 2 && p[seg] == '.' && p[seg + 1] == '.'))
				return false;
			(*parts)++;
			seg = i + 1;
		} else if (!safe((unsigned char)p[i])) {
			return false;
		}
	}
	return true;
}

static void add_rev(struct qu_buf *out, const char *rev)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p;

	for (p = (const unsigned char *)rev; *p; p++) {
		if (safe(*p)) {
			qu_buf_addc(out, (char)*p);
		} else {
			qu_buf_addc(out, '%');
			qu_buf_addc(out, hex[*p >> 4]);
			qu_buf_addc(out, hex[*p & 15]);
		}
	}
}

static bool is_full_id(const char *rev)
{
	size_t i;

	for (i = 0; rev[i]; i++)
		if (!isxdigit((unsigned char)rev[i]))
			return false;
	return i == 40;
}

/* A view of the file at a revision, or its editor on a branch. */
static int forge_link(struct qu_buf *out, const char *remote, const char *rev,
		      bool edit)
{
	static const char *const schemes[] = {
		"https://", "http://", "git://", "ssh://", "git+ssh://",
		"ssh+git://",
	};
	const char *host = NULL, *path, *at, *end, *s;
	size_t hlen = 0, plen, parts, i;
	enum forge f;

	qu_buf_reset(out);
	if (!remote || !rev || !*rev)
		return 1;
	for (i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++) {
		size_t n = strlen(schemes[i]);

		if (!strncasecmp(remote, schemes[i], n)) {
			host = remote + n;
			break;
		}
	}
	if (host) {
		/* [user[:password]@]host[:port]/path */
		end = host + strcspn(host, "/?#");
		if (*end != '/')
			return 1;
		path = end + 1;
		at = memrchr(host, '@', (size_t)(end - host));
		if (at)
			host = at + 1;
		s = memchr(host, ':', (size_t)(end - host));
		hlen = (size_t)((s ? s : end) - host);
	} else {
		/* scp-like [user@]host:path, with no slash before the colon */
		s = strchr(remote, ':');
		if (!s || memchr(remote, '/', (size_t)(s - remote)))
			return 1;
		at = memrchr(remote, '@', (size_t)(s - remote));
		host = at ? at + 1 : remote;
		hlen = (size_t)(s - host);
		path = s + 1;
	}
	if (hlen == 0 || (f = forge_of(host, hlen)) == NONE_FORGE)
		return 1;
	/* a host name is letters, digits, dots and hyphens */
	for (i = 0; i < hlen; i++)
		if (!isalnum((unsigned char)host[i]) && host[i] != '.' &&
		    host[i] != '-')
			return 1;
	while (*path == '/')
		path++;
	plen = strcspn(path, "?#");
	while (plen && path[plen - 1] == '/')
		plen--;
	if (f != CGIT && plen > 4 && !strncmp(path + plen - 4, ".git", 4))
		plen -= 4;
	if (!path_ok(path, plen, &parts))
		return 1;
	switch (f) {
	case GITHUB:
		if (parts != 2)
			return 1;
		qu_buf_adds(out, "https://github.com/");
		qu_buf_add(out, path, plen);
		qu_buf_adds(out, edit ? "/edit/" : "/blob/");
		add_rev(out, rev);
		qu_buf_adds(out, edit ? "/{path}" : "/{path}#L{line}");
		break;
	case GITLAB:
		if (parts < 2)
			return 1;
		qu_buf_adds(out, "https://");
		for (i = 0; i < hlen; i++)
			qu_buf_addc(out, (char)tolower((unsigned char)host[i]));
		qu_buf_addc(out, '/');
		qu_buf_add(out, path, plen);
		qu_buf_adds(out, edit ? "/-/edit/" : "/-/blob/");
		add_rev(out, rev);
		qu_buf_adds(out, edit ? "/{path}" : "/{path}#L{line}");
		break;
	case CGIT:
		/* cgit shows files; it has no editor */
		if (edit || parts < 3 || strncmp(path, "pub/scm/", 8))
			return 1;
		qu_buf_adds(out, "https://git.kernel.org/");
		qu_buf_add(out, path, plen);
		qu_buf_adds(out, is_full_id(rev) ? "/tree/{path}?id=" :
						   "/tree/{path}?h=");
		add_rev(out, rev);
		qu_buf_adds(out, "#n{line}");
		break;
	default:
		return 1;
	}
	return 0;
}

int qu_git_forge_url(struct qu_buf *out, const char *remote, const char *rev)
{
	return forge_link(out, remote, rev, false);
}

int qu_git_forge_edit_url(struct qu_buf *out, const char *remote,
			  const char *branch)
{
	return forge_link(out, remote, branch, true);
}

/* The template of origin's forge, to view @rev or to edit on a branch. */
static int origin_link(struct qu_buf *out, struct qu_git_tree *t,
		       const char *rev, bool edit)
{
	git_config *cfg = NULL;
	git_buf url = {0};
	int ret = 1;

	/*
	 * The configuration value as it is: git_remote_lookup() would also
	 * apply url.*.insteadOf, through regular expressions whose matches
	 * libgit2 1.5 never frees.
	 */
	qu_buf_reset(out);
	if (!rev || git_repository_config_snapshot(&cfg, t->repo) < 0 ||
	    git_config_get_string_buf(&url, cfg, "remote.origin.url") < 0)
		goto out;
	ret = forge_link(out, url.ptr, rev, edit);
out:
	git_buf_dispose(&url);
	git_config_free(cfg);
	return ret;
}

int qu_git_source_url(struct qu_buf *out, struct qu_git_tree *t,
		      const char *rev)
{
	return origin_link(out, t, rev ? rev : t->hex, false);
}

int qu_git_edit_url(struct qu_buf *out, struct qu_git_tree *t)
{
	return origin_link(out, t, t->branch, true);
}
