#!/bin/sh
# SPDX-License-Identifier: MIT
# Build quire's own docs/ and check every page and internal link.
# usage: docs.sh QUIRE LINKCHECK SOURCE_ROOT
set -eu
quire=$1 linkcheck=$2 root=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
QUIRE_NO_PROGRESS=1 "$quire" build "$root/docs" -o "$tmp/site" --quiet -j 2 ||
	[ $? -eq 0 ]
"$linkcheck" "$tmp/site"
