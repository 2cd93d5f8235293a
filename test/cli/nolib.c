// SPDX-License-Identifier: MIT
/*
 * nolib.c - a shared library with none of the symbols quire looks up:
 * libs.py puts it in the place of libgit2, libmicrohttpd and graphviz
 * to make each lookup fail.
 */
int qu_nolib;
