#!/bin/sh
# results-template.sh - `make results` (sim/run-experiments.sh) rebuilds
# doc/results.md from sim/results-template.md and fresh tables, so every
# fixed part of the template must be in the checked-in results.md, line
# for line: the head (down to "generated below"), the text before the
# GPU table, the text after it, and the discussion.  A section written
# into results.md alone would be lost at the next regeneration.  Pure
# text: never skips.
# SPDX-License-Identifier: GPL-2.0-or-later

top=${srcdir:-.}/../..
tpl=$top/sim/results-template.md res=$top/doc/results.md
fail=0
for m in "<!-- generated below -->" "<!-- gpu head -->" "<!-- gpu table -->" \
	"<!-- gpu end -->" "<!-- discussion -->"; do
	[ "$(grep -cxF -- "$m" "$tpl")" = 1 ] ||
		{ echo "FAIL: $tpl: marker \"$m\" is not there once"; fail=1; }
done
[ "$fail" = 0 ] || exit 1

# Each chunk, blank lines at its ends dropped, must be a run of
# consecutive lines of results.md.
awk -v res="$res" '
function check(name,   i, j, k, a, b, ok) {
	a = 1; while (a <= nc && c[a] == "") a++
	b = nc; while (b >= a && c[b] == "") b--
	if (a > b) { nc = 0; return }
	for (i = 1; i + (b - a) <= nr; i++) {
		ok = 1
		for (j = a; j <= b; j++)
			if (r[i + j - a] != c[j]) { ok = 0; break }
		if (ok) { nc = 0; return }
	}
	# where it differs: from the first line equal to its first
	for (i = 1; i <= nr && r[i] != c[a]; i++) ;
	k = a
	if (i <= nr) while (k <= b && r[i + k - a] == c[k]) k++
	printf "FAIL: the %s of sim/results-template.md is not in doc/results.md (line %d of the chunk: %s)\n",
		name, k - a + 1, c[k]
	bad = 1; nc = 0
}
BEGIN { while ((getline l <res) > 0) r[++nr] = l }
$0 == "<!-- generated below -->" { check("head"); part = "skip"; next }
$0 == "<!-- gpu head -->" { part = "gpu-head"; next }
$0 == "<!-- gpu table -->" { check("text before the GPU table"); part = "gpu-text"; next }
$0 == "<!-- gpu end -->" { check("text after the GPU table"); part = "skip"; next }
$0 == "<!-- discussion -->" { part = "discussion"; next }
part != "skip" { c[++nc] = $0 }
END { check("discussion"); exit bad }' "$tpl" || fail=1

[ "$fail" = 0 ] && echo "results-template: every fixed part of the template is in doc/results.md"
exit "$fail"
