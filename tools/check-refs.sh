#!/bin/bash
# check-refs.sh - the tree's references stay true.  Fails (exit 1), naming
# file and line, when
#   (a) a section sign followed by a number (N or N.M, or a range N-M) in
#       src/ plugins/ sim/ scampaign/ tests/ tools/ bench/ etc/ doc/ or
#       README.md has no heading with that number in doc/semantics.md;
#   (b) anything in the tree names the old out-of-tree contract, the
#       semantics notes or updates pages merged into doc/semantics.md, or a path
#       outside the repository (the sibling shared directory), except the default trace
#       directory of the trace-replay tests and benchmarks;
#   (c) code, tests or tools cite an issue number or a work session
#       ("issue" or "session" and a number) instead of saying what they check.
# Pure text: never skips.  Usage: check-refs.sh [TOP_SRCDIR]
# SPDX-License-Identifier: GPL-2.0-or-later

set -u
export LC_ALL=C
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
spec=$top/doc/semantics.md
fail=0

bad() {	# FILE:LINE[:TEXT] REASON
	printf 'check-refs: %s: %s\n' "${1#"$top"/}" "$2" >&2
	fail=1
}

# Text files of the tree under the given paths (which may be absent in a
# partial tree), without build products.
files() {
	local p have=()
	for p in "$@"; do [ -e "$top/$p" ] && have+=("$top/$p"); done
	[ ${#have[@]} -gt 0 ] || return 0
	find "${have[@]}" \( -name .git -o -name '_build*' -o -name .deps \
		-o -name .libs -o -name autom4te.cache \) -prune -o -type f \
		! -name Makefile ! -name Makefile.in ! -name '*.o' \
		! -name '*.lo' ! -name '*.la' ! -name '*.a' ! -name '*.so' \
		! -name '*.log' ! -name '*.trs' ! -name '*.png' ! -name '*.gz' \
		! -name .dirstamp -print
}

if [ ! -r "$spec" ]; then
	echo "check-refs: $spec missing" >&2
	exit 1
fi

# --- (a) every section number cited is a heading of doc/semantics.md ---
# Headings look like "## §3 The virtual schedule" or "### §3.1 Virtual time".
sect='§'
num='[0-9]+(\.[0-9]+)*'
heads=$(grep -oE "^#+ $sect$num( |\$)" "$spec" | sed "s/^#* $sect//; s/ \$//")
known() { grep -qxF "$1" <<<"$heads"; }

mapfile -t refs < <(files src plugins sim scampaign tests tools bench etc \
	doc README.md | tr '\n' '\0' | xargs -0 -r grep -IHnoE \
	"$sect$num((-|–)($sect)?$num)?")
n=0
for r in "${refs[@]}"; do
	loc=${r%:*} cite=${r##*:}
	cite=${cite//$sect/}
	cite=${cite//–/-}
	first=${cite%%-*} last=
	[ "$first" = "$cite" ] || last=${cite#*-}
	n=$((n + 1))
	known "$first" || bad "$loc" "no heading §$first in doc/semantics.md"
	[ -z "$last" ] || known "$last" ||
		bad "$loc" "no heading §$last in doc/semantics.md"
done

# --- (b) nothing points outside the repository --------------------------
# The trace-replay tests and benchmarks default to the shared trace
# directory next to the checkout, and the Slurm release builds to the
# shared tarball directory; all skip when it is absent.  Those lines (and
# only in those files) may name it.
trace_ok() {	# FILE LINE-TEXT
	case ${1#"$top"/} in
	tests/sim/*|bench/Makefile.am|bench/*.sh|bench/*.c|doc/Makefile.am)
		grep -q 'shared/traces' <<<"$2" ;;
	tools/build-slurm.sh|tools/test-all.sh|tools/demo.sh)
		grep -q 'shared/slurm-src' <<<"$2" ;;
	*) return 1 ;;
	esac
}
while IFS= read -r hit; do
	f=${hit%%:*} rest=${hit#*:}
	text=${rest#*:}
	trace_ok "$f" "$text" && continue
	bad "${hit%"$text"}$text" "points outside the repository"
done < <(files src plugins sim scampaign tests tools bench etc doc m4/ost_slurm.m4 \
	.ci README.md configure.ac Makefile.am | tr '\n' '\0' |
	xargs -0 -r grep -IHnE '\bSEMANTIC[S]\b|semantics[-](notes|updates)|\.\./shared|/work/share[d]')

# --- (c) no issue numbers or work sessions in code, tests and tools ----
mapfile -t code < <(files src plugins sim scampaign tests tools
	for f in "$top"/bench/*.c "$top"/bench/*.h "$top"/bench/*.sh \
		"$top"/bench/Makefile.am; do
		[ -e "$f" ] && echo "$f"
	done)
while IFS= read -r hit; do
	bad "$hit" "cites an issue or a work session: say what it checks"
done < <(printf '%s\0' "${code[@]}" | xargs -0 -r grep -IHniE \
	'\b(issue|session)s?[ _-]?#?[0-9]+')

if [ "$fail" = 0 ]; then
	echo "check-refs: $n section references resolve; no outside paths; no issue or session citations"
fi
exit $fail
