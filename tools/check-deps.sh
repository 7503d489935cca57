#!/bin/bash
# check-deps.sh - no new circle of calls between the C files of a part of
# the tree.  Within each of src/, sim/, scampaign/ and plugins/ (lib/ and
# slurm/ together), file A depends on file B when A's object calls a
# function that B's object defines: nm's undefined symbols (U) of A matched
# against the global functions (T) of B.  What is checked is therefore the
# compiled code of this build: calls the preprocessor removed (an #if of
# another Slurm release) are not seen, a static or inline function of a
# header is no edge, and neither is a variable.  A circle (A calls B ...
# calls A) is printed as one path through every file of the tangle (a
# strongly connected component of the graph).
#
# Known circles are listed in tools/deps-allow.txt, one a line:
#     PART: FILE FILE ...
# A circle whose files are all in one such line is printed as a warning
# (its files may still be untangled further); any other circle fails.  An
# allowed line that no longer matches any circle is reported, to be
# removed.
#
# The objects are read from BUILDDIR (a configured and built tree; the
# objects of a program and of a test compiled from the same source count
# as that source).  An object older than its source is stale (a target no
# longer built) and ignored.  A part with no object is not checked and
# said so; with none at all the script exits 77 (skip).
#
# Usage: check-deps.sh BUILDDIR [TOP_SRCDIR]
# SPDX-License-Identifier: GPL-2.0-or-later

set -u
export LC_ALL=C
bld=${1:?usage: check-deps.sh BUILDDIR [TOP_SRCDIR]}
top=${2:-$(cd "$(dirname "$0")/.." && pwd)}
allow=$top/tools/deps-allow.txt
parts="src sim scampaign plugins"

if ! command -v nm >/dev/null; then
	echo "check-deps: nm (binutils) missing: skipped"
	exit 77
fi
[ -r "$allow" ] || { echo "check-deps: $allow missing" >&2; exit 1; }

fail=0 checked=0
for part in $parts; do
	# "FILE TYPE SYMBOL" for every global symbol of every fresh object
	syms=$(
		[ -d "$bld/$part" ] || exit 0
		find "$bld/$part" \( -name '*.o' -o -name '*.obj' \) | sort |
		while IFS= read -r o; do
			rel=${o#"$bld"/}
			dir=${rel%/*}
			dir=${dir%/.libs}
			base=${o##*/}
			base=${base%.*}
			base=${base##*-}	# automake's per-target prefix
			src=$dir/$base.c
			[ -f "$top/$src" ] || continue
			[ "$o" -nt "$top/$src" ] || [ ! "$top/$src" -nt "$o" ] ||
				continue
			nm -P "$o" 2>/dev/null |
				awk -v f="$src" '$2 ~ /^[TU]$/ { print f, $2, $1 }'
		done
	)
	if [ -z "$syms" ]; then
		echo "check-deps: $part/: no objects in $bld/$part (not built): not checked"
		continue
	fi
	checked=$((checked + 1))
	out=$(awk -v part="$part" -v allowfile="$allow" '
	$2 == "T" { def[$3] = def[$3] ? def[$3] " " $1 : $1; files[$1] = 1; next }
	$2 == "U" { use[$1, $3] = 1; files[$1] = 1 }
	END {
		# edges: A -> B when A uses a function that B (not A) defines
		for (k in use) {
			split(k, p, SUBSEP)
			if (!(p[2] in def)) continue
			nd = split(def[p[2]], ds, " ")
			for (i = 1; i <= nd; i++)
				if (ds[i] != p[1] && !((p[1], ds[i]) in edge)) {
					edge[p[1], ds[i]] = p[2]
					succ[p[1]] = succ[p[1]] " " ds[i]
				}
		}
		n = 0
		for (f in files) name[++n] = f
		# sort the files, for stable output
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && name[j - 1] > name[j]; j--) {
				t = name[j]; name[j] = name[j - 1]; name[j - 1] = t
			}
		# reach[a, b]: b reachable from a (breadth-first from each)
		for (i = 1; i <= n; i++) {
			a = name[i]; delete seen; head = 1; tail = 0
			q[++tail] = a
			while (head <= tail) {
				x = q[head++]
				m = split(succ[x], ss, " ")
				for (j = 1; j <= m; j++)
					if (!(ss[j] in seen)) {
						seen[ss[j]] = 1; reach[a, ss[j]] = 1
						q[++tail] = ss[j]
					}
			}
		}
		# the allow list of this part: set id -> " f1 f2 ... "
		na = 0
		while ((getline line < allowfile) > 0) {
			sub(/#.*/, "", line)
			if (line !~ /^[ \t]*[^ \t:]+:/) continue
			pp = line; sub(/:.*/, "", pp); gsub(/[ \t]/, "", pp)
			if (pp != part) continue
			rest = line; sub(/^[^:]*:/, "", rest)
			na++; aset[na] = " " rest " "; gsub(/[ \t]+/, " ", aset[na])
			aline[na] = line; aused[na] = 0
		}
		bad = 0
		for (i = 1; i <= n; i++) {
			a = name[i]
			if (a in done || !((a, a) in reach)) continue
			# the component of a: files reachable both ways
			members = ""; cnt = 0
			for (j = 1; j <= n; j++) {
				b = name[j]
				if (b == a || ((a, b) in reach && (b, a) in reach)) {
					done[b] = 1; inscc[b] = a
					members = members " " b; cnt++
				}
			}
			# one closed walk through every member: shortest paths
			# inside the component from each member to the next
			path = a; cur = a
			for (j = 2; j <= cnt + 1; j++) {
				split(substr(members, 2), mm, " ")
				tgt = (j <= cnt) ? mm[j] : a
				if (j <= cnt && index(path " ", " " tgt " ") && tgt != a) continue
				if (tgt == cur) continue
				# BFS cur -> tgt within the component
				delete prev; delete seen; head = 1; tail = 0
				q[++tail] = cur; seen[cur] = 1
				while (head <= tail) {
					x = q[head++]
					if (x == tgt) break
					m = split(succ[x], ss, " ")
					for (k = 1; k <= m; k++)
						if (inscc[ss[k]] == a && !(ss[k] in seen)) {
							seen[ss[k]] = 1; prev[ss[k]] = x
							q[++tail] = ss[k]
						}
				}
				seg = ""; x = tgt
				while (x != cur) {
					seg = " -> " x " (" edge[prev[x], x] ")" seg
					x = prev[x]
				}
				path = path seg; cur = tgt
			}
			# known iff every member is in one allowed line
			known = 0
			for (k = 1; k <= na && !known; k++) {
				ok = 1; split(substr(members, 2), mm, " ")
				for (j = 1; j <= cnt; j++) {
					f = mm[j]; sub(/^.*\//, "", f)
					if (!index(aset[k], " " f " ") && !index(aset[k], " " mm[j] " ")) { ok = 0; break }
				}
				if (ok) { known = k; aused[k] = 1 }
			}
			if (known) {
				printf "warning: %s/: known circle of %d files (tools/deps-allow.txt):\n  %s\n", part, cnt, path
			} else {
				printf "FAIL: %s/: new circle of %d files (A -> B (f): A calls f, defined in B):\n  %s\n", part, cnt, path
				bad = 1
			}
		}
		for (k = 1; k <= na; k++)
			if (!aused[k])
				printf "warning: %s/: no circle left for tools/deps-allow.txt line \"%s\": remove it\n", part, aline[k]
		nf = 0; ne = 0
		for (f in files) nf++
		for (e in edge) ne++
		printf "check-deps: %s/: %d files, %d calls between files\n", part, nf, ne
		exit bad
	}' <<<"$syms")
	rc=$?
	printf '%s\n' "$out"
	[ $rc -eq 0 ] || fail=1
done
if [ $checked -eq 0 ]; then
	echo "check-deps: nothing built in $bld: skipped"
	exit 77
fi
exit $fail
