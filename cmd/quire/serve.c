// SPDX-License-Identifier: MIT
/*
 * serve.c - quire serve: a live preview of a docs tree
 *
 * Arguments and the exit code; lib/serve builds, serves, watches and
 * reloads.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "serve/serve.h"

static void usage(void)
{
	puts("usage: quire serve [DIR] [--port N] [--bind ADDR] [--open] "
	     "[--poll]\n"
	     "                   [-j N] [--quiet]\n"
	     "\n"
	     "Build the site of DIR (default: the current folder), serve it\n"
	     "over HTTP, and rebuild it whenever a page, a source it reads,\n"
	     "quire.yml or the theme changes; open tabs reload by themselves,\n"
	     "and show the errors of a failed build until it is fixed.\n"
	     "\n"
	     "  --port N     the TCP port (default 8000; 0: any free one)\n"
	     "  --bind ADDR  the address to listen on (default 127.0.0.1)\n"
	     "  --open       open the site in the desktop's browser\n"
	     "  --poll       watch by polling instead of inotify\n"
	     "  -j N         build threads (default: one per processor)\n"
	     "  --quiet      no line per rebuild");
}

int cmd_serve(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"port", required_argument, NULL, 'p'},
		{"bind", required_argument, NULL, 'b'},
		{"open", no_argument, NULL, 'O'},
		{"poll", no_argument, NULL, 'P'},
		{"jobs", required_argument, NULL, 'j'},
		{"quiet", no_argument, NULL, 'q'},
		{NULL, 0, NULL, 0},
	};
	struct qu_serve_opts o = {.dir = ".", .port = 8000};
	struct qu_buf err = QU_BUF_INIT;
	char *end;
	long port;
	int c, r;

	optind = 0;
	while ((c = getopt_long(argc, argv, "j:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			port = strtol(optarg, &end, 10);
			if (*end || end == optarg || port < 0 || port > 65535)
				return cmd_usage_error(
					"serve", "bad port '%s'", optarg);
			o.port = (unsigned)port;
			break;
		case 'b':
			o.bind = optarg;
			break;
		case 'O':
			o.open = true;
			break;
		case 'P':
			o.poll = true;
			break;
		case 'j':
			if (cmd_parse_jobs(&o.threads, optarg) < 0)
				return cmd_usage_error(
					"serve", "bad -j value '%s'", optarg);
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'h':
			usage();
			return QU_EXIT_OK;
		default:
			return cmd_usage_error("serve", "bad arguments");
		}
	}
	if ((c = cmd_folder_arg(&o.dir, "serve", argc, argv)))
		return c;
	cmd_init_libraries();
	r = qu_serve_run(&o, &err);
	if (r < 0)
		fprintf(stderr, "quire serve: %s\n", err.buf);
	qu_buf_fini(&err);
	return r < 0 ? QU_EXIT_USAGE : QU_EXIT_OK;
}
