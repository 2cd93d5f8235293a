// SPDX-License-Identifier: MIT
/*
 * http.c - the preview server's HTTP side, on libmicrohttpd
 *
 * Part of lib/serve. GET and HEAD of files below the served folder, and
 * nothing else: each request path is decoded once, checked component by
 * component, mapped below the folder and resolved with realpath(3), so
 * neither "..", encoded or not, nor a symlink leads out. Pages get the
 * live-reload script; /_quire/events is the Server-Sent Events stream
 * that tells each tab about every finished build.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <microhttpd.h>

#include "build/build.h"
#include "serve_int.h"

/*
 * quire does not link libmicrohttpd: serve_http_load() opens it when
 * quire serve starts. The functions microhttpd.def lists are called
 * through mhd_fns, typed from microhttpd.h's own declarations, under
 * their own names.
 */
static struct mhd_fns {
#define MHD_FN(fn) __typeof__(fn) *fn;
#include "microhttpd.def"
#undef MHD_FN
} mhd_fns;

static const struct qu_dl_sym mhd_syms[] = {
#define MHD_FN(fn) QU_DL_SYM(struct mhd_fns, fn),
#include "microhttpd.def"
#undef MHD_FN
};

/* the process's one libmicrohttpd, as the library itself is */
static struct qu_dl mhd_lib =
	QU_DL_INIT(QU_LIBMICROHTTPD_SONAME, mhd_syms, &mhd_fns);

#define MHD_add_response_header(...) \
	(mhd_fns.MHD_add_response_header)(__VA_ARGS__)
#define MHD_create_response_from_buffer(...) \
	(mhd_fns.MHD_create_response_from_buffer)(__VA_ARGS__)
#define MHD_create_response_from_callback(...) \
	(mhd_fns.MHD_create_response_from_callback)(__VA_ARGS__)
#define MHD_create_response_from_fd(...) \
	(mhd_fns.MHD_create_response_from_fd)(__VA_ARGS__)
#define MHD_destroy_response(...) (mhd_fns.MHD_destroy_response)(__VA_ARGS__)
#define MHD_get_daemon_info(...) (mhd_fns.MHD_get_daemon_info)(__VA_ARGS__)
#define MHD_queue_response(...) (mhd_fns.MHD_queue_response)(__VA_ARGS__)
#define MHD_start_daemon(...) (mhd_fns.MHD_start_daemon)(__VA_ARGS__)
#define MHD_stop_daemon(...) (mhd_fns.MHD_stop_daemon)(__VA_ARGS__)

#define EVENTS_PATH "/_quire/events"
#define SCRIPT_PATH "/_quire/reload.js"

struct serve_http {
	struct MHD_Daemon *d;
	struct serve_state *state;
	char *root;
};

/*
 * The script every served page gets (and no built page ever has): reload
 * a page once its rebuild is done, keeping the scroll position; show a
 * failed build's diagnostics over the page until a build succeeds.
 */
static const char reload_js[] =
	"(function () {\n"
	"  'use strict';\n"
	"  var page = decodeURIComponent(location.pathname).replace(/^\\//, '');\n"
	"  if (page === '' || page.slice(-1) === '/') page += 'index.html';\n"
	"  var key = 'quire-scroll:' + page, stale = false, shown = 0;\n"
	"  var y = sessionStorage.getItem(key);\n"
	"  if (y !== null) {\n"
	"    sessionStorage.removeItem(key);\n"
	"    addEventListener('load', function () { scrollTo(0, +y); });\n"
	"  }\n"
	"  function reload() {\n"
	"    sessionStorage.setItem(key, String(scrollY));\n"
	"    location.reload();\n"
	"  }\n"
	"  function overlay(text) {\n"
	"    var o = document.getElementById('quire-overlay');\n"
	"    if (!text) { if (o) o.remove(); return; }\n"
	"    if (!o) {\n"
	"      o = document.createElement('div');\n"
	"      o.id = 'quire-overlay';\n"
	"      o.setAttribute('role', 'alert');\n"
	"      o.style.cssText = 'position:fixed;inset:0;z-index:2147483647;"
	"overflow:auto;background:rgba(20,20,24,.94);color:#f4f4f4;"
	"font:14px/1.5 ui-monospace,monospace;padding:2em';\n"
	"      var h = document.createElement('p');\n"
	"      h.style.cssText = 'color:#ff8a80;font-weight:bold;margin:0 0 1em';\n"
	"      h.textContent = 'quire serve: the last build failed; this is "
	"the last good page.';\n"
	"      o.appendChild(h);\n"
	"      o.appendChild(document.createElement('pre'));\n"
	"      document.body.appendChild(o);\n"
	"    }\n"
	"    o.lastChild.textContent = text;\n"
	"  }\n"
	"  var es = new EventSource('/_quire/events');\n"
	"  es.addEventListener('build', function (e) {\n"
	"    var d = JSON.parse(e.data);\n"
	"    if (!d.ok) { overlay(d.error); shown = d.gen; return; }\n"
	"    var was = document.getElementById('quire-overlay');\n"
	"    overlay(null);\n"
	"    if (d.changed.indexOf(page) < 0 && !(was && shown)) return;\n"
	"    if (document.visibilityState === 'visible') reload();\n"
	"    else stale = true;\n"
	"  });\n"
	"  document.addEventListener('visibilitychange', function () {\n"
	"    if (stale && document.visibilityState === 'visible') reload();\n"
	"  });\n"
	"})();\n";

static const struct {
	const char *ext;
	const char *type;
} types[] = {
	{"html", "text/html; charset=utf-8"},
	{"css", "text/css; charset=utf-8"},
	{"js", "text/javascript; charset=utf-8"},
	{"json", "application/json"},
	{"svg", "image/svg+xml"},
	{"png", "image/png"},
	{"jpg", "image/jpeg"},
	{"jpeg", "image/jpeg"},
	{"gif", "image/gif"},
	{"webp", "image/webp"},
	{"ico", "image/vnd.microsoft.icon"},
	{"xml", "application/xml"},
	{"txt", "text/plain; charset=utf-8"},
	{"pdf", "application/pdf"},
	{"woff2", "font/woff2"},
	{"woff", "font/woff"},
	{"map", "application/json"},
};

static const char *type_of(const char *path)
{
	const char *dot = strrchr(path, '.'), *sl = strrchr(path, '/');
	size_t i;

	if (dot && (!sl || dot > sl))
		for (i = 0; i < QU_ARRAY_SIZE(types); i++)
			if (!strcasecmp(dot + 1, types[i].ext))
				return types[i].type;
	return "application/octet-stream";
}

bool serve_path_ok(const char *path)
{
	const char *p = path, *c;

	if (*p != '/')
		return false;
	for (c = p; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == '\\' || *c == 0x7f)
			return false;
	while (*p == '/') {
		const char *end;
		size_t n;

		p++;
		end = strchr(p, '/');
		n = end ? (size_t)(end - p) : strlen(p);
		/* "a//b" and a trailing "/" are fine; "." and ".." never */
		if ((n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += n;
	}
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Decode %XX once, in place. A malformed escape or an encoded NUL marks
 * the path as bad rather than cutting it short: "/x%00/../../etc" must
 * not become "/x".
 */
size_t serve_path_decode(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (*r == '%') {
			int hi = r[1] ? hexval(r[1]) : -1;
			int lo = hi >= 0 && r[2] ? hexval(r[2]) : -1;

			if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
				*w++ = BAD_ESCAPE;
				r++;
				continue;
			}
			*w++ = (char)(hi * 16 + lo);
			r += 3;
		} else {
			*w++ = *r++;
		}
	}
	*w = 0;
	return (size_t)(w - s);
}

static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
	(void)cls;
	(void)c;
	return serve_path_decode(s);
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status,
			     struct MHD_Response *resp, const char *type)
{
	enum MHD_Result r;

	if (type)
		MHD_add_response_header(resp, "Content-Type", type);
	MHD_add_response_header(resp, "Cache-Control", "no-cache");
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	r = MHD_queue_response(c, status, resp);
	MHD_destroy_response(resp);
	return r;
}

static enum MHD_Result text(struct MHD_Connection *c, unsigned status,
			    const char *msg)
{
	struct MHD_Response *resp = MHD_create_response_from_buffer(
		strlen(msg), (void *)msg, MHD_RESPMEM_PERSISTENT);

	return reply(c, status, resp, "text/plain; charset=utf-8");
}

/* A page with the reload script before its last </body>. */
static enum MHD_Result page(struct MHD_Connection *c, unsigned status,
			    const char *file)
{
	static const char tag[] = "<script src=\"" SCRIPT_PATH "\"></script>";
	struct qu_buf data = QU_BUF_INIT, err = QU_BUF_INIT, out = QU_BUF_INIT;
	struct MHD_Response *resp;
	const char *body = NULL, *p;
	size_t at;

	if (qu_file_read(&data, file, &err) < 0) {
		qu_buf_fini(&data);
		qu_buf_fini(&err);
		return text(c, 404, "not found\n");
	}
	for (p = data.buf; (p = memmem(p, data.len - (size_t)(p - data.buf),
				       "</body>", 7));
	     p += 7)
		body = p;
	at = body ? (size_t)(body - data.buf) : data.len;
	qu_buf_add(&out, data.buf, at);
	qu_buf_adds(&out, tag);
	qu_buf_add(&out, data.buf + at, data.len - at);
	resp = MHD_create_response_from_buffer(out.len, out.buf,
					       MHD_RESPMEM_MUST_FREE);
	out.buf = NULL;
	qu_buf_fini(&data);
	qu_buf_fini(&err);
	return reply(c, status, resp, "text/html; charset=utf-8");
}

/* One event stream: the builds it has not told its tab about yet. */
struct client {
	struct serve_http *h;
	uint64_t gen;
	struct qu_buf pending;
	size_t off;
	time_t last;
};

static ssize_t stream(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct client *cl = cls;
	struct serve_state *st = cl->h->state;
	size_t n;

	(void)pos;
	if (cl->off == cl->pending.len) {
		struct timespec until;

		qu_buf_reset(&cl->pending);
		cl->off = 0;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += SERVE_KEEPALIVE;
		pthread_mutex_lock(&st->lock);
		while (!st->stopping && st->gen == cl->gen &&
		       pthread_cond_timedwait(&st->cond, &st->lock, &until) !=
			       ETIMEDOUT)
			;
		if (st->stopping) {
			pthread_mutex_unlock(&st->lock);
			return MHD_CONTENT_READER_END_OF_STREAM;
		}
		if (st->gen != cl->gen) {
			cl->gen = st->gen;
			qu_buf_addf(&cl->pending, "event: build\ndata: %s\n\n",
				    st->event.buf);
		} else {
			qu_buf_adds(&cl->pending, ": keepalive\n\n");
		}
		pthread_mutex_unlock(&st->lock);
	}
	n = cl->pending.len - cl->off;
	if (n > max)
		n = max;
	memcpy(buf, cl->pending.buf + cl->off, n);
	cl->off += n;
	return (ssize_t)n;
}

static void stream_done(void *cls)
{
	struct client *cl = cls;
	struct serve_state *st = cl->h->state;

	pthread_mutex_lock(&st->lock);
	st->nclients--;
	pthread_mutex_unlock(&st->lock);
	qu_buf_fini(&cl->pending);
	free(cl);
}

static enum MHD_Result events(struct MHD_Connection *c, struct serve_http *h)
{
	struct serve_state *st = h->state;
	struct MHD_Response *resp;
	struct client *cl;

	pthread_mutex_lock(&st->lock);
	if (st->nclients >= SERVE_MAX_CLIENTS || st->stopping) {
		pthread_mutex_unlock(&st->lock);
		return text(c, 503, "too many event streams\n");
	}
	st->nclients++;
	pthread_mutex_unlock(&st->lock);
	cl = qu_xcalloc(1, sizeof(*cl));
	cl->h = h;
	/* a new tab hears of a failed build at once, of a good one later */
	pthread_mutex_lock(&st->lock);
	cl->gen = st->ok ? st->gen : 0;
	pthread_mutex_unlock(&st->lock);
	resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096,
						 stream, cl, stream_done);
	return reply(c, 200, resp, "text/event-stream");
}

static enum MHD_Result file(struct MHD_Connection *c, struct serve_http *h,
			    const char *url)
{
	struct qu_buf p = QU_BUF_INIT;
	char real[PATH_MAX];
	enum MHD_Result r;
	struct stat st;
	int fd;

	qu_buf_addf(&p, "%s%s", h->root, url);
	if (url[strlen(url) - 1] == '/')
		qu_buf_adds(&p, "index.html");
	if (!realpath(p.buf, real) || !qu_path_is_below(real, h->root)) {
		r = MHD_NO;
		goto missing;
	}
	fd = open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		goto missing;
	}
	if (S_ISDIR(st.st_mode)) {
		/* "/api" is the folder "/api/": say so, as web servers do */
		struct MHD_Response *resp = MHD_create_response_from_buffer(
			0, NULL, MHD_RESPMEM_PERSISTENT);

		close(fd);
		qu_buf_reset(&p);
		qu_buf_addf(&p, "%s/", url);
		MHD_add_response_header(resp, "Location", p.buf);
		r = reply(c, 301, resp, NULL);
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		goto missing;
	}
	if (!strcmp(type_of(real), "text/html; charset=utf-8")) {
		close(fd);
		r = page(c, 200, real);
		goto out;
	}
	r = reply(c, 200,
		  MHD_create_response_from_fd((uint64_t)st.st_size, fd),
		  type_of(real));
	goto out;
missing:
	qu_buf_reset(&p);
	qu_buf_addf(&p, "%s/404.html", h->root);
	if (!access(p.buf, R_OK))
		r = page(c, 404, p.buf);
	else
		r = text(c, 404, "not found\n");
out:
	qu_buf_fini(&p);
	return r;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c,
			      const char *url, const char *method,
			      const char *version, const char *upload,
			      size_t *upload_size, void **ctx)
{
	struct serve_http *h = cls;

	(void)version;
	(void)upload;
	if (!*ctx) {
		/* the headers only: wait for the (refused) body, if any */
		*ctx = (void *)1;
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0;
		return MHD_YES;
	}
	if (strcmp(method, "GET") && strcmp(method, "HEAD")) {
		struct MHD_Response *resp = MHD_create_response_from_buffer(
			0, NULL, MHD_RESPMEM_PERSISTENT);

		MHD_add_response_header(resp, "Allow", "GET, HEAD");
		return reply(c, 405, resp, NULL);
	}
	if (strlen(url) > SERVE_MAX_URL)
		return text(c, 414, "URL too long\n");
	if (strchr(url, BAD_ESCAPE) || !serve_path_ok(url))
		return text(c, 400, "bad path\n");
	if (!strcmp(url, EVENTS_PATH))
		return events(c, h);
	if (!strcmp(url, SCRIPT_PATH)) {
		struct MHD_Response *resp = MHD_create_response_from_buffer(
			sizeof(reload_js) - 1, (void *)reload_js,
			MHD_RESPMEM_PERSISTENT);

		return reply(c, 200, resp, "text/javascript; charset=utf-8");
	}
	return file(c, h, url);
}

/*
 * libmicrohttpd's errors, said as ours; a tab closed while its event
 * stream or a page was being sent is no error of the server's, whichever
 * of libmicrohttpd's wordings says so (it depends on the moment the
 * socket went: "closed by remote peer", "reset by peer", "Broken pipe",
 * "The socket is no longer available for sending", after "Failed to
 * send ...").
 */
static void log_error(void *cls, const char *fmt, va_list ap)
{
	char msg[512];

	(void)cls;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (strstr(msg, "closed by remote peer") ||
	    strstr(msg, "reset by peer") || strstr(msg, "Broken pipe") ||
	    strstr(msg, "no longer available") ||
	    !strncmp(msg, "Failed to send", 14) ||
	    !strncmp(msg, "Failed to receive", 17))
		return;
	fprintf(stderr, "quire serve: %s", msg);
	if (!*msg || msg[strlen(msg) - 1] != '\n')
		fputc('\n', stderr);
}

int serve_http_load(struct qu_buf *err)
{
	return qu_dl_load(&mhd_lib, "to serve the site", err);
}

int serve_http_start(struct serve_http **out, struct serve_state *state,
		     const char *root, const char *bind, unsigned port,
		     unsigned *port_out, struct qu_buf *err)
{
	struct serve_http *h = qu_xcalloc(1, sizeof(*h));
	struct sockaddr_storage ss;
	struct sockaddr_in *in4 = (void *)&ss;
	struct sockaddr_in6 *in6 = (void *)&ss;
	unsigned flags = MHD_USE_THREAD_PER_CONNECTION |
			 MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
	const union MHD_DaemonInfo *info;

	*out = NULL;
	if (serve_http_load(err) < 0) {
		free(h);
		return -1;
	}
	memset(&ss, 0, sizeof(ss));
	if (!bind)
		bind = "127.0.0.1";
	if (inet_pton(AF_INET, bind, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons((uint16_t)port);
	} else if (inet_pton(AF_INET6, bind, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		flags |= MHD_USE_IPv6;
	} else {
		qu_buf_addf(err, "'%s' is not an IPv4 or IPv6 address", bind);
		free(h);
		return -1;
	}
	h->state = state;
	h->root = qu_xstrdup(root);
	h->d = MHD_start_daemon(
		flags, (uint16_t)port, NULL, NULL, handle, h,
		MHD_OPTION_EXTERNAL_LOGGER, log_error, NULL,
		MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)SERVE_MAX_CONNECTIONS,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_IDLE_TIMEOUT,
		MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
		MHD_OPTION_END);
	if (!h->d) {
		qu_buf_addf(err, "cannot listen on %s port %u: %s", bind, port,
			    strerror(errno ? errno : EADDRINUSE));
		free(h->root);
		free(h);
		return -1;
	}
	info = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
	*port_out = info ? info->port : port;
	*out = h;
	return 0;
}

void serve_http_stop(struct serve_http *h)
{
	if (!h)
		return;
	pthread_mutex_lock(&h->state->lock);
	h->state->stopping = true;
	pthread_cond_broadcast(&h->state->cond);
	pthread_mutex_unlock(&h->state->lock);
	MHD_stop_daemon(h->d);
	free(h->root);
	free(h);
}
