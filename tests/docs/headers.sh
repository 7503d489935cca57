#!/bin/sh
# headers.sh - the adapter's headers keep its two halves apart, and the C
# files stay small.  Pure text (no build needed): never skips.
#
#  A. plugins/lib/ is Slurm-free:
#     A1. every function a plugins/lib/*.h declares is defined in a
#         plugins/lib/*.c or a src/*.c, never only in plugins/slurm/;
#     A2. no plugins/lib/ file includes a plugins/slurm/ header or any of
#         Slurm's ("slurm/...", "src/...": our own headers are included
#         by bare name);
#     A3. (the other half) every function a plugins/slurm/*.h declares is
#         defined in plugins/ or src/: the plugins link with undefined
#         symbols allowed, so a misspelt definition would only show when
#         slurmctld first calls it.
#  B. the plugin wrappers (slurm/priority_ostrich.c, sched_ostrich.c,
#     site_factor_ostrich.c) include only what they call: every header of
#     ours they include, directly or through another of ours, declares at
#     least one identifier the wrapper uses.
#  C. every C file of src/, plugins/, sim/ and scampaign/ has at most 500
#     lines.
#
# Method (grep and awk on the text, comments removed):
#  - what a header declares: the names of #define, of typedefs (} NAME;,
#    typedef ... NAME;, (*NAME)), of enum constants (a line that is only
#    UPPER_CASE[ = x],), and of functions (the word before "(" on a line
#    that starts with extern or static inline, or a line that starts with
#    NAME( after a return type on the line above);
#  - a definition of function f: a line that starts (column 0) with a
#    return type and f(, or with f(, whose statement then ends with "{"
#    rather than ";"; or a line that starts with MACRO(f, (a macro that
#    defines functions, as osl_usnap.c's ADDER);
#  - a use: the identifier as a whole word anywhere in the wrapper's code.
# A violation prints FAIL and the script exits 1.
# SPDX-License-Identifier: GPL-2.0-or-later

export LC_ALL=C
top=${srcdir:-.}/../..
lib=$top/plugins/lib slurm=$top/plugins/slurm src=$top/src
fail=0
bad() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT

# The code of a C file: comments removed, string and character literals
# emptied (so that neither hides nor fakes a name).
code() {
	awk '
	{
		out = ""; s = $0
		while (s != "") {
			if (incom) {
				i = index(s, "*/")
				if (!i) { s = ""; break }
				s = substr(s, i + 2); incom = 0; continue
			}
			i = index(s, "/*"); j = index(s, "\""); k = index(s, "\047")
			if (k && (!j || k < j)) j = k
			if (i && (!j || i < j)) {
				out = out substr(s, 1, i - 1) " "
				s = substr(s, i + 2); incom = 1; continue
			}
			if (!j) { out = out s; break }
			q = substr(s, j, 1)
			out = out substr(s, 1, j - 1) q q
			s = substr(s, j + 1)
			while (s != "") {
				c = substr(s, 1, 1)
				if (c == "\\") { s = substr(s, 3); continue }
				s = substr(s, 2)
				if (c == q) break
			}
		}
		print out
	}' "$1"
}

# The identifiers a header declares, one a line.
declared() {
	code "$1" | awk '
	/^[ \t]*#[ \t]*ifndef/ { guard = $2; next }
	/^[ \t]*#[ \t]*define/ {
		sub(/^[ \t]*#[ \t]*define[ \t]+/, ""); sub(/[^A-Za-z0-9_].*/, "")
		if ($0 != guard) print; next
	}
	/\(\*[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\)/ && /typedef/ {
		s = $0; sub(/^[^(]*\(\*[ \t]*/, "", s); sub(/[^A-Za-z0-9_].*/, "", s)
		print s; next
	}
	/^}[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*;/ {
		s = $0; sub(/^}[ \t]*/, "", s); sub(/[^A-Za-z0-9_].*/, "", s)
		print s; next
	}
	/^typedef[^{(]*;/ {
		s = $0; sub(/[ \t]*;.*/, "", s); sub(/.*[^A-Za-z0-9_]/, "", s)
		print s; next
	}
	/^[ \t]+[A-Z][A-Z0-9_]*[ \t]*(=[^,]*)?,?[ \t]*$/ {
		s = $0; sub(/^[ \t]+/, "", s); sub(/[^A-Z0-9_].*/, "", s)
		print s; next
	}
	/^enum/ || /^[ \t]*OSL_[A-Z0-9_]+ *=.*,.*OSL_/ {
		s = $0; gsub(/[^A-Z0-9_]+/, " ", s); n = split(s, w, " ")
		for (k = 1; k <= n; k++) if (w[k] ~ /^O[SL][LT]_/) print w[k]
	}
	/^(extern|static[ \t]+inline)[^;{]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/ {
		s = $0; sub(/[ \t]*\(.*/, "", s); sub(/.*[^A-Za-z0-9_]/, "", s)
		print s; next
	}
	/^[A-Za-z_][A-Za-z0-9_]*\(/ && prev ~ /^static[ \t]+inline/ {
		s = $0; sub(/\(.*/, "", s); print s
	}
	{ prev = $0 }' | sort -u
}

# The functions a header declares (prototypes only).
prototypes() {
	code "$1" | awk '
	/^extern[^;{=]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/ {
		s = $0; sub(/[ \t]*\(.*/, "", s); sub(/.*[^A-Za-z0-9_]/, "", s)
		print s
	}' | sort -u
}

# Is function $1 defined in one of the files $2...?
defined_in() {
	f=$1; shift
	for c in "$@"; do
		[ -r "$c" ] || continue
		code "$c" | awk -v f="$f" '
		BEGIN { pat = "(^|[^A-Za-z0-9_])" f "[ \t]*\\("
			mac = "^[A-Z][A-Z0-9_]*\\([ \t]*" f "[ \t]*," }
		$0 ~ mac { found = 1; exit }
		!on && /^[A-Za-z_]/ && $0 ~ pat && !/^#/ { on = 1 }
		on {
			if ($0 ~ /;[ \t]*$/) { on = 0; next }
			if ($0 ~ /\{[ \t]*$/ || $0 ~ /^\{/) { found = 1; exit }
		}
		END { exit !found }' && return 0
	done
	return 1
}

# --- A1: lib/ declares only what lib/ or the core defines.
for h in "$lib"/*.h; do
	for f in $(prototypes "$h"); do
		defined_in "$f" "$lib"/*.c "$src"/*.c && continue
		where=
		for c in "$slurm"/*.c; do
			defined_in "$f" "$c" && where=" (defined in plugins/slurm/${c##*/})"
		done
		bad "plugins/lib/${h##*/} declares $f, defined in no plugins/lib or src file$where"
	done
done

# --- A3: and what slurm/'s headers declare is defined somewhere of ours
# (the plugins link with undefined symbols allowed, for slurmctld's: a
# misspelt definition would only fail when slurmctld first calls it).
for h in "$slurm"/*.h; do
	for f in $(prototypes "$h"); do
		defined_in "$f" "$slurm"/*.c "$lib"/*.c "$src"/*.c ||
			bad "plugins/slurm/${h##*/} declares $f, defined nowhere in plugins/ or src/"
	done
done

# --- A2: lib/ includes nothing of Slurm's or of plugins/slurm/.
for f in "$lib"/*.c "$lib"/*.h; do
	sed -n 's/^[ \t]*#[ \t]*include[ \t]*\([<"][^>"]*\)[>"].*/\1/p' "$f" |
	while read -r inc; do
		name=${inc#?}
		case $inc in
		'<'slurm/*) echo "plugins/lib/${f##*/} includes Slurm's <$name>" ;;
		'<'*) ;;
		*/*) echo "plugins/lib/${f##*/} includes Slurm's \"$name\"" ;;
		*)	if [ -e "$slurm/$name" ]; then
				echo "plugins/lib/${f##*/} includes plugins/slurm/$name"
			elif [ ! -e "$lib/$name" ] && [ ! -e "$src/$name" ] &&
			     [ "$name" != config.h ]; then
				echo "plugins/lib/${f##*/} includes \"$name\", not ours"
			fi ;;
		esac
	done
done > "$tmp"
while read -r line; do bad "$line"; done < "$tmp"

# --- B: the wrappers include only what they call.
# Our headers included by file $1, and by those, transitively.
ours() {
	todo=$1 seen=
	while [ -n "$todo" ]; do
		set -- $todo; cur=$1; shift; todo=$*
		for inc in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"/]*\)".*/\1/p' "$cur"); do
			for d in "$lib" "$slurm" "$src"; do
				[ -e "$d/$inc" ] || continue
				case " $seen " in *" $inc "*) ;; *)
					seen="$seen $inc"; todo="$todo $d/$inc" ;;
				esac
				break
			done
		done
	done
	echo $seen
}
for w in priority_ostrich.c sched_ostrich.c site_factor_ostrich.c; do
	wc=$(code "$slurm/$w")
	for inc in $(ours "$slurm/$w"); do
		for d in "$lib" "$slurm" "$src"; do
			[ -e "$d/$inc" ] && { h=$d/$inc; break; }
		done
		used=
		for id in $(declared "$h"); do
			if printf '%s\n' "$wc" | grep -qw -- "$id"; then
				used=$id; break
			fi
		done
		[ -n "$used" ] ||
			bad "plugins/slurm/$w sees $inc (included directly or by another of ours) but uses nothing it declares"
	done
done

# --- C: C files of at most 500 lines.
for d in src plugins sim scampaign; do
	find "$top/$d" -name '*.c' -type f
done | while read -r c; do
	n=$(wc -l < "$c")
	[ "$n" -le 500 ] || echo "${c#$top/} has $n lines (at most 500)"
done > "$tmp"
while read -r line; do bad "$line"; done < "$tmp"

[ $fail = 0 ] && echo "headers: lib/ declares and includes nothing of Slurm's, the wrappers include only what they call, every C file <= 500 lines"
exit $fail
