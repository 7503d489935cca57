#!/bin/sh
# names.sh - no two test files share a name: every file under tests/ that
# is a test program's source or a test script (check_*.c, *.sh) has a name
# of its own, so that a failing "check_x" says which suite failed.  Pure
# text: never skips.
# SPDX-License-Identifier: GPL-2.0-or-later

top=${srcdir:-.}/../..
dups=$(find "$top/tests" \( -name 'check_*.c' -o -name '*.sh' \) -type f |
	sed 's|.*/||' | sort | uniq -d)
[ -z "$dups" ] && { echo "names: every test file's name is its own"; exit 0; }
for d in $dups; do
	echo "FAIL: more than one tests/*/$d:"
	find "$top/tests" -name "$d" -type f | sed "s|^$top/|  |"
done
exit 1
