#!/bin/sh
# exports.sh - the installed shared libostrich exports the API of ostrich.h
# and nothing else: every name it defines for the dynamic linker (but the
# toolchain's own, which start with '_') is declared OST_EXTERN in
# ostrich.h, and every OST_EXTERN declaration is exported.  The
# convenience library the tree links keeps every name (src/Makefile.am).
# SPDX-License-Identifier: GPL-2.0-or-later

: "${OST_LIB:=../../src/.libs/libostrich.so}"
: "${OST_HEADER:=../../../src/ostrich.h}"
if [ -z "$OST_VISIBILITY_CFLAGS" ]; then
	echo "SKIP: the compiler has no -fvisibility=hidden (configure)"
	exit 77
fi
if [ ! -f "$OST_LIB" ]; then
	echo "SKIP: no shared $OST_LIB (configured --disable-shared?)"
	exit 77
fi
if ! command -v nm >/dev/null 2>&1; then
	echo "SKIP: nm (binutils) not found"
	exit 77
fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

nm -D --defined-only "$OST_LIB" >"$tmp/nm" || exit 99
awk 'NF == 3 && $3 !~ /^_/ { print $3 }' "$tmp/nm" | sort -u >"$tmp/exported"
sed -n 's/^OST_EXTERN .*[ *]\(ost_[a-z0-9_]*\)(.*/\1/p' "$OST_HEADER" |
	sort -u >"$tmp/declared"
[ -s "$tmp/declared" ] || { echo "FAIL: no OST_EXTERN in $OST_HEADER"; exit 1; }
rc=0
extra=$(comm -23 "$tmp/exported" "$tmp/declared")
if [ -n "$extra" ]; then
	echo "FAIL: exported by $OST_LIB but not declared OST_EXTERN in ostrich.h:"
	echo "$extra" | sed 's/^/  /'
	rc=1
fi
missing=$(comm -13 "$tmp/exported" "$tmp/declared")
if [ -n "$missing" ]; then
	echo "FAIL: declared OST_EXTERN in ostrich.h but not exported:"
	echo "$missing" | sed 's/^/  /'
	rc=1
fi
[ $rc -eq 0 ] && echo "ok exports: $(wc -l <"$tmp/declared") names, all of ostrich.h"
exit $rc
