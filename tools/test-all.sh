#!/usr/bin/env bash
# test-all.sh - the project's test command: install what is needed, build,
# and run every test suite (unit, simulator, live Slurm cluster, sanitizers,
# valgrind, distcheck).  Run as root on Debian bookworm from the source tree:
#
#     sudo tools/test-all.sh
#
# Builds in _build/ (out of tree).  Exits non-zero if anything failed and
# ends with one line "N passed, N failed".
# SPDX-License-Identifier: GPL-2.0-or-later
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
jobs=$(nproc 2>/dev/null || echo 2)
failures=()
log() { printf '\n=== [%s] %s\n' "$(date +%T)" "$*"; }
step() {	# step NAME CMD...: run, remember failure, keep going
	local name=$1; shift
	log "$name"
	if ! "$@"; then
		echo "*** FAILED: $name" >&2
		failures+=("$name")
		return 1
	fi
}

step "install dependencies" tools/install-deps.sh || exit 1
slurm_opt=(--without-slurm-source)
if [ -x tools/get-slurm-source.sh ] && command -v slurmctld >/dev/null; then
	if step "Slurm source matching the installed slurmctld" \
		tools/get-slurm-source.sh; then
		slurm_opt=()
	fi
fi
step "autoreconf" autoreconf -fi || exit 1

# 1. The main build: -Werror, plugins when the Slurm source is there;
#    make check runs the unit, simulator and live suites.
mkdir -p _build/main
(cd _build/main && "$top/configure" --enable-werror "${slurm_opt[@]}") ||
	{ echo "configure failed" >&2; exit 1; }
step "build (-Wall -Wextra -Werror)" make -C _build/main -j"$jobs" || exit 1
step "make check" make -C _build/main -j"$jobs" check

# 2. ASan + UBSan build of the core and simulator tests.
mkdir -p _build/asan
(cd _build/asan && "$top/configure" --enable-werror --enable-sanitizers \
	--without-slurm-source >/dev/null) &&
	step "make check (ASan + UBSan)" \
		make -C _build/asan -j"$jobs" check ||
	failures+=("sanitizer build")

# 3. The core under valgrind (leaks and invalid accesses are errors).
step "valgrind (core unit tests)" make -C _build/main/tests/unit check-valgrind

# 4. The release tarball builds and passes its own checks.
step "make distcheck" make -C _build/main distcheck

# Summary over every automake test log.
pass=0; fail=0
while read -r p f; do
	pass=$((pass + p)); fail=$((fail + f))
done < <(find _build -name test-suite.log -not -path '*/ostrich-*/*' \
	-exec awk '/^# PASS:/{p=$3} /^# (FAIL|ERROR|XPASS):/{f+=$3}
		   END{print p+0, f+0}' {} \;)
log "summary"
if [ ${#failures[@]} -gt 0 ]; then
	printf 'failed step: %s\n' "${failures[@]}"
	fail=$((fail > 0 ? fail : ${#failures[@]}))
fi
echo "$pass passed, $fail failed"
[ ${#failures[@]} -eq 0 ] && [ "$fail" -eq 0 ]
