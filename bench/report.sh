#!/bin/sh
# report.sh - assemble bench/results.md from the parts of `make bench`
# SPDX-License-Identifier: GPL-2.0-or-later
#
# usage: report.sh ENGINE.md SIM.md > results.md
#        report.sh --splice-plugin RESULTS.md PLUGIN.md > results.md
# Prints a header (date, machine, compiler, commit), the two parts, part 3
# and history.md.  Part 3 (the plugins in a real slurmctld) is one section
# per file bench/results-plugin*.md present: results-plugin.md (`make
# bench-plugin`), results-plugin-scale.md (`make bench-plugin-scale`), and
# results-plugin-X.Y.md, results-plugin-scale-X.Y.md (the same targets in a
# tree configured --with-slurm-prefix, for Slurm X.Y), in that order by
# release.  Each section follows its marker line
#   <!-- part 3: results-plugin-scale.md -->
# --splice-plugin replaces PLUGIN.md's section of an existing results.md (or
# adds it) and keeps the other sections; an unmarked part 3 (results.md
# written before the markers) is taken as results-plugin.md's.

set -e
srcdir=$(dirname "$0")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ost-report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/parts"

# part_order NAME...: the names in report order: by Slurm series (none
# first), then bench-plugin before bench-plugin-scale.
part_order() {
	for n in "$@"; do
		v=${n%.md}
		v=${v#results-plugin}
		k=0
		case $v in -scale*) k=1 v=${v#-scale} ;; esac
		v=${v#-}
		echo "${v:-0} $k $n"
	done | sort -k1,1V -k2,2n | awk '{ print $3 }'
}
# trim: drop the leading and trailing blank lines of stdin.
trim() {
	sed '/./,$!d' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}
# print_parts: every section of $tmp/parts, each after its marker.
print_parts() {
	for n in $(part_order $(ls "$tmp/parts")); do
		echo
		echo "<!-- part 3: $n -->"
		trim < "$tmp/parts/$n"
	done
}
print_history() {
	if [ -f "$srcdir/history.md" ]; then
		echo
		cat "$srcdir/history.md"
	fi
}

if [ "${1:-}" = --splice-plugin ]; then
	# split RESULTS.md: the head (to $tmp/head), the part 3 sections (to
	# $tmp/parts/NAME); history.md's copy and what follows is dropped
	hist1=$(head -n 1 "$srcdir/history.md" 2>/dev/null || true)
	awk -v dir="$tmp" -v hist1="$hist1" '
		BEGIN { st = "head"; out = dir "/head"; printf "" > out }
		st != "tail" && hist1 != "" && $0 == hist1 { st = "tail" }
		st == "part" && /^## / { st = "tail" }
		st == "tail" { next }
		/^<!-- part 3: [^ ]+ -->$/ {
			n = $0; sub(/^<!-- part 3: /, "", n); sub(/ -->$/, "", n)
			st = "part"; out = dir "/parts/" n; printf "" > out; next
		}
		st == "head" && /^### Plugin overhead/ {
			st = "part"; out = dir "/parts/results-plugin.md"; printf "" > out
		}
		{ print > out }
	' "$2"
	cp "$3" "$tmp/parts/$(basename "$3")"
	trim < "$tmp/head"
	print_parts
	print_history
	exit 0
fi
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')
cc=$(${CC:-cc} --version 2>/dev/null | head -n 1)
commit=$(git -C "$srcdir" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$srcdir/.." status --porcelain -- src sim 2>/dev/null | wc -l)

cat <<HEAD
# ostrich benchmarks (\`make bench\`)

Generated $(date -u '+%Y-%m-%d %H:%M UTC') on ${cpu:-unknown CPU}
(${ncpu} CPUs), ${cc:-unknown compiler}, -O2, source commit ${commit}
(${dirty} files of src/ and sim/ differed from it).

Absolute times depend on the machine; compare the ratios, which are
measured against a baseline in the same run. Reproduce with
\`make bench\` (optionally \`TRACES=DIR\`) from a configured build tree.

HEAD
if [ -d "$srcdir/patches" ]; then
	cat <<'NOTE'
Proposed core changes for the engine targets still missed are in
bench/patches/ (not applied; see "Before/after" at the end).

NOTE
fi
cat "$1"
echo
cat "$2"
cat <<'TAIL'

![Replay time against jobs and queue length](sim-scaling.png)
TAIL
for f in "$srcdir"/results-plugin*.md; do
	if [ -f "$f" ]; then cp "$f" "$tmp/parts/"; fi
done
[ -f "$tmp/parts/results-plugin.md" ] ||
	printf '### Plugin overhead in a real slurmctld (part 3)\n\nNot measured yet: `make -C bench bench-plugin` as root.\n' > "$tmp/parts/results-plugin.md"
print_parts
# hand-written: before/after of core changes, profiles, proposals (kept
# across runs; its numbers are dated there)
print_history
