#!/usr/bin/env bash
# test-all.sh - the project's test command: install what is needed, build,
# and run every test suite (unit, plugin adapter, simulator, live Slurm
# cluster, docs, sanitizers, valgrind, fuzz smoke runs, distcheck).  Run as
# root on Debian bookworm from the source tree:
#
#     sudo tools/test-all.sh [--under-load] [--all-versions]
#
#   --under-load   keep one core busy with a CPU hog for the whole run (the
#                  hog is stopped by PID at exit): every verdict must be the
#                  same on a loaded machine.
#   --all-versions run the whole live suite on every tarball Slurm release,
#                  not only every scenario but s9 on the newest (the fault
#                  scenario s9 runs on the packaged release by default).
#
# Slurm releases: the packaged one (Debian's 22.05) always.  When
# ../shared/slurm-src/SHA256SUMS exists next to the repository (or
# $OST_SLURM_TARBALLS/SHA256SUMS, as for tools/build-slurm.sh), every
# tarball it lists is built once into /opt/ostrich-slurm
# (tools/build-slurm.sh, cached), and for each the tree is built against it
# (_build/sX.Y.Z, --with-slurm-prefix) and its plugin adapter tests and
# scampaign linked against its libslurm; the live suite runs on the newest
# release (all of them with --all-versions), side by side with the packaged
# release's, on ports of its own.  Otherwise those rows say they were not
# run and why.
#
# Packages (tools/package.sh): the .deb for the installed Slurm is built
# (lintian clean), installed with apt-get, runs a live scenario from
# Slurm's plugin directory alone, and is purged, leaving none of its files
# (tests/package/deb.sh; it is purged at exit whatever failed), and so is
# ostrich-tools, whose installed ostrich-whatif replays a fixture; the .rpm
# is built for the newest tarball release, and `rpm -qlp` and `rpm -qp
# --requires` checked for both packages (tests/package/rpm.sh).  Each of
# these is one test.
#
# The demo (tools/demo.sh) runs from a clone of the committed HEAD in a
# private directory, as a newcomer would (tests/live/demo-private.sh).
#
# Builds in _build/ (out of tree).  Every suite runs even when an earlier
# one failed (each suite is its own make -k invocation).  The end is a
# per-suite table (tests passed, failed, skipped, wall time; suites that did
# not run say why), the 5 slowest stages, then one line that counts tests,
# not steps:
#
#     N passed, N failed
#
# Counting: a Check program counts its checks ("Checks: N, Failures: F,
# Errors: E"); a shell test that prints "ok N ..." / "not ok ..." / "FAIL ..."
# lines (golden cases) counts those lines; any other test counts as one by
# its automake result.  A step that is not an automake suite (valgrind,
# distcheck) counts as one test.  Exit status 0 iff nothing failed.
# SPDX-License-Identifier: GPL-2.0-or-later
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -gt 2 ] 2>/dev/null || jobs=2
under_load=0
all_versions=0
tarballs=${OST_SLURM_TARBALLS:-$top/../shared/slurm-src}	# (as tools/build-slurm.sh)
for a in "$@"; do
	case $a in
	--under-load) under_load=1 ;;
	--all-versions) all_versions=1 ;;
	-h|--help) sed -n '2,/^# SPDX/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "test-all: unknown option $a (see --help)" >&2; exit 2 ;;
	esac
done

log() { printf '\n=== [%s] %s\n' "$(date +%T)" "$*"; }

# ---- the CPU hog of --under-load, stopped by PID -------------------------
hog_pid=
stop_hog() {
	[ -n "$hog_pid" ] || return 0
	kill "$hog_pid" 2>/dev/null
	wait "$hog_pid" 2>/dev/null
	hog_pid=
}
# The .deb installed by tests/package/deb.sh never stays installed.
pkg_cleanup() {
	[ -e "${OST_PKG_MARK:-/run/ostrich-pkg-test.installed}" ] ||
		[ -e "${OST_PKG_MARK:-/run/ostrich-pkg-test.installed}.tools" ] || return 0
	tests/package/deb.sh cleanup
}
trap 'stop_hog; pkg_cleanup' EXIT
if [ $under_load = 1 ]; then
	( exec nice -n 0 sh -c 'while :; do :; done' ) &
	hog_pid=$!
	log "under load: CPU hog running as PID $hog_pid (one core busy)"
fi

# ---- the per-suite table ---------------------------------------------------
# One row per suite: NAME|STATUS|PASSED|FAILED|SKIPPED|SECONDS|NOTE
rows=()
total_pass=0 total_fail=0 total_skip=0

# count_logs DIR...: sum the tests of every automake test log under DIRs
# (not in distcheck's copy), printing "PASSED FAILED SKIPPED".
count_logs() {
	local d trs log res p=0 f=0 s=0 line
	for d in "$@"; do
		[ -d "$d" ] || continue
		while IFS= read -r trs; do
			log=${trs%.trs}.log
			res=$(sed -n 's/^:test-result: //p' "$trs" | head -1)
			line=$(grep -Eo 'Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+' \
				"$log" 2>/dev/null | tail -1)
			if [ -n "$line" ]; then
				local n fl er
				read -r _ n _ fl _ er <<<"${line//,/}"
				p=$((p + n - fl - er)); f=$((f + fl + er))
				# a Check program that died after its report
				if [ "$res" != PASS ] && [ $((fl + er)) -eq 0 ]; then
					f=$((f + 1))
				fi
				continue
			fi
			local ok bad
			ok=$(grep -Ec '^ok [0-9]' "$log" 2>/dev/null)
			bad=$(grep -Ec '^(not ok|FAIL )' "$log" 2>/dev/null)
			if [ "$res" = SKIP ]; then
				s=$((s + 1))
			elif [ $((ok + bad)) -gt 0 ]; then
				p=$((p + ok)); f=$((f + bad))
				[ "$res" = PASS ] || [ "$bad" -gt 0 ] || f=$((f + 1))
			elif [ "$res" = PASS ] || [ "$res" = XFAIL ]; then
				p=$((p + 1))
			else
				f=$((f + 1))
			fi
		done < <(find "$d" -name '*.trs' -not -path '*/ostrich-*/_build/*' | sort)
	done
	echo "$p $f $s"
}

add_row() {	# add_row NAME STATUS PASSED FAILED SKIPPED SECONDS NOTE
	rows+=("$1|$2|$3|$4|$5|$6|$7")
	total_pass=$((total_pass + $3)); total_fail=$((total_fail + $4))
	total_skip=$((total_skip + $5))
}

not_run() {	# not_run NAME WHY
	log "$1: not run ($2)"
	add_row "$1" "not run" 0 0 0 0 "$2"
}

# note_failures NAME DIR: print the last lines of each failed test's log
# at once, right under make's error (a CI excerpt that starts at the first
# error shows why), and keep them to repeat above the summary table (the
# end of a long run's output is what a reader sees first).
failure_tails=
note_failures() {
	local trs res tail_
	while IFS= read -r trs; do
		res=$(sed -n 's/^:test-result: //p' "$trs" | head -1)
		case $res in FAIL|ERROR|XPASS) ;; *) continue ;; esac
		# the reason first (a live test's "FAIL: why", a Check test's
		# ":F:"/":E:" lines): the daemon log a live test prints after
		# it can push it out of the tail
		tail_=$(printf -- '--- %s: %s (%s), why:\n%s\n--- its last lines:\n%s\n' \
			"$1" "$(basename "${trs%.trs}")" "$res" \
			"$(grep -m 5 -E '^FAIL: |:[FE]:' "${trs%.trs}.log" 2>/dev/null)" \
			"$(tail -40 "${trs%.trs}.log" 2>/dev/null)")
		printf '%s\n' "$tail_"
		failure_tails+=$'\n'"$tail_"
	done < <(find "$2" -maxdepth 1 -name '*.trs' | sort)
}

# suite_run BUILDDIR SUBDIR [MAKE ARGS...]: make -k check in one directory
# (its old test logs removed first); its start, end and exit status go to
# BUILDDIR/SUBDIR/.suite-{t0,t1,rc} for suite_row.  It may run in the
# background (the live suites, side by side).
suite_run() {
	local bdir=$1 sub=$2 rc
	shift 2
	find "$bdir/$sub" -maxdepth 1 \( -name '*.trs' -o -name '*.log' \) \
		-not -name 'config.log' -delete 2>/dev/null
	rm -f "$bdir/$sub"/.suite-{t0,t1,rc}
	date +%s > "$bdir/$sub/.suite-t0"
	make -k -C "$bdir/$sub" -j"$jobs" check "$@"
	rc=$?
	echo $rc > "$bdir/$sub/.suite-rc"
	date +%s > "$bdir/$sub/.suite-t1"
	return $rc
}

# suite_row NAME BUILDDIR SUBDIR: the table's row of a suite_run, counted
# from its test logs; the failed tests' tails printed.
suite_row() {
	local name=$1 bdir=$2 sub=$3 rc t0 t1 p f s
	rc=$(cat "$bdir/$sub/.suite-rc" 2>/dev/null || echo 1)
	t0=$(cat "$bdir/$sub/.suite-t0" 2>/dev/null || date +%s)
	t1=$(cat "$bdir/$sub/.suite-t1" 2>/dev/null || date +%s)
	read -r p f s < <(count_logs "$bdir/$sub")
	note_failures "$name" "$bdir/$sub"
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1	# make failed before any test could (a build error)
	fi
	add_row "$name" "$([ "$f" -eq 0 ] && echo ok || echo FAILED)" \
		"$p" "$f" "$s" $((t1 - t0)) \
		"$([ "$rc" -ne 0 ] && [ "$p$s" = 00 ] && echo 'build or make error')"
}

# suite NAME BUILDDIR SUBDIR [MAKE ARGS...]: suite_run, then its row.
suite() {
	local name=$1 bdir=$2 sub=$3
	shift 3
	log "$name ($bdir/$sub)"
	suite_run "$bdir" "$sub" "$@"
	suite_row "$name" "$bdir" "$sub"
}

# step NAME CMD...: one non-automake check, counted as one test.
step() {
	local name=$1 t0 rc
	shift
	log "$name"
	t0=$(date +%s)
	"$@"
	rc=$?
	if [ $rc -eq 0 ]; then
		add_row "$name" ok 1 0 0 $(( $(date +%s) - t0 )) ""
	else
		add_row "$name" FAILED 0 1 0 $(( $(date +%s) - t0 )) "exit status $rc"
	fi
	return $rc
}

summary() {
	stop_hog
	if [ -n "$failure_tails" ]; then
		log "failed tests"
		printf '%s\n' "$failure_tails"
	fi
	log "summary$([ $under_load = 1 ] && echo ' (under load: one core busy)')"
	printf '%-34s %-8s %7s %7s %7s %6s  %s\n' suite status passed failed \
		skipped secs note
	local r
	for r in "${rows[@]}"; do
		IFS='|' read -r n st p f s t note <<<"$r"
		printf '%-34s %-8s %7s %7s %7s %6s  %s\n' "$n" "$st" "$p" "$f" \
			"$s" "$t" "$note"
	done
	printf '%-34s %-8s %7s %7s %7s %6s\n' total "" "$total_pass" \
		"$total_fail" "$total_skip" $(( $(date +%s) - T0 ))
	# the slowest stages first: where a faster run would come from (the
	# live suites run side by side: their times overlap)
	echo
	echo "slowest stages:"
	for r in "${rows[@]}"; do
		IFS='|' read -r n st p f s t note <<<"$r"
		printf '%6s s  %s\n' "$t" "$n"
	done | sort -rn | head -5
	echo "$total_pass passed, $total_fail failed"
	[ "$total_fail" -eq 0 ]
	exit
}
T0=$(date +%s)

# ---- 1. dependencies and the Slurm source ---------------------------------
if ! step "install dependencies" tools/install-deps.sh; then
	for n in build unit simulator scampaign plugin live docs sanitizers \
		 valgrind fuzz distcheck packages; do
		not_run "$n" "dependencies could not be installed"
	done
	summary
fi
slurm_opt=(--without-slurm-source)
plugins_why="no slurmctld installed"	# (said by the live tests too)
if [ -x tools/get-slurm-source.sh ] && PATH=$PATH:/usr/sbin command -v slurmctld >/dev/null; then
	if step "Slurm source matching the installed slurmctld" \
		tools/get-slurm-source.sh; then
		slurm_opt=()
		plugins_why=
	else
		plugins_why="the Slurm source could not be fetched"
	fi
fi
[ -z "$plugins_why" ] || not_run "Slurm plugins" "$plugins_why"
step "autoreconf" autoreconf -fi || summary

# ---- 2. the main build: -Werror, plugins when the Slurm source is there ---
# build_tree DIR CONFIGURE-ARGS...: configure and make in _build/DIR, output
# in DIR/build.out (its tail shown on failure).
build_tree() {
	local dir=$1
	shift
	mkdir -p "_build/$dir"
	( cd "_build/$dir" && "$top/configure" "$@" && make -j"$jobs" ) \
		> "_build/$dir/build.out" 2>&1 ||
		{ tail -40 "_build/$dir/build.out"; return 1; }
}
main_suites=(unit "tests/unit" simulator "tests/sim" scampaign "tests/scampaign"
	     "plugin adapter" "tests/plugin" docs "tests/docs")
# The live suites (2c) run side by side once every tree is built: the
# packaged Slurm's in slot A, the tarball releases' in slot B.
live_a=0	# 1: _build/main/tests/live runs in slot A
live_b_names=() live_b_dirs=() live_b_tests=()	# slot B, one after the other
if step "build (-Wall -Wextra -Werror)" build_tree main --enable-werror \
	"${slurm_opt[@]}"; then
	for ((i = 0; i < ${#main_suites[@]}; i += 2)); do
		n=${main_suites[i]} d=${main_suites[i + 1]}
		if [ ! -f "_build/main/$d/Makefile" ]; then
			not_run "$n" "no $d in this tree"
		else
			suite "$n" _build/main "$d"
		fi
	done
	step "valgrind (core unit tests)" \
		make -C _build/main/tests/unit check-valgrind
	if grep -q '^fuzz-smoke:' _build/main/Makefile 2>/dev/null; then
		step "fuzz smoke runs" make -C _build/main fuzz-smoke
	else
		not_run "fuzz smoke runs" "no fuzz-smoke target in this tree"
	fi
	step "make distcheck" make -C _build/main distcheck
	if [ -f _build/main/tests/live/Makefile ]; then
		live_a=1	# without plugins its scenarios SKIP and say why
	else
		not_run live "no tests/live in this tree"
	fi
else
	for ((i = 0; i < ${#main_suites[@]}; i += 2)); do
		not_run "${main_suites[i]}" "the main build failed"
	done
	not_run "valgrind (core unit tests)" "the main build failed"
	not_run "make distcheck" "the main build failed"
	not_run live "the main build failed"
fi

# ---- 2b. the tarball Slurm releases ----------------------------------------
newest=		# the newest tarball release (its .rpm is built in 2c)
# Each tarball release: build the tree against its prefix, run the suites
# that build against it (plugin adapter; scampaign's own tests need no
# Slurm: the build links scampaign against its libslurm, and that is all),
# and the live suite on the newest (or all with --all-versions).
if [ ! -f "$tarballs/SHA256SUMS" ]; then
	not_run "Slurm tarball releases" "$tarballs absent (OST_SLURM_TARBALLS)"
elif ! step "build the tarball Slurm releases (cached)" \
	tools/build-slurm.sh all; then
	not_run "Slurm tarball releases" "tools/build-slurm.sh all failed"
else
	versions=($(awk '{ sub(/^\*/, "", $2); print $2 }' \
		"$tarballs/SHA256SUMS" |
		sed -n 's/^slurm-\([0-9.]*[0-9]\)\.tar\.gz$/\1/p' | sort -V))
	newest=
	[ ${#versions[@]} -eq 0 ] || newest=${versions[${#versions[@]} - 1]}
	pfx_root=${OST_SLURM_PREFIX_ROOT:-/opt/ostrich-slurm}
	live_matrix="s1-ostrich.sh s2-faircamp.sh s3-backfill.sh s4-restart.sh"
	live_matrix+=" s5-badconf.sh s6-special.sh s7-inspect.sh s8-resize.sh"
	live_matrix+=" s10-gap.sh s11-save-gap.sh s12-accounting.sh"
	live_matrix+=" s13-arrival.sh s14-billing.sh s15-charge-weights.sh"
	live_matrix+=" s16-usage.sh s17-accounts.sh s18-top.sh s19-private.sh"
	live_matrix+=" s20-site.sh s21-report.sh s22-migrate.sh s23-rules.sh"
	live_matrix+=" s24-nested-lead.sh"
	for v in "${versions[@]}"; do
		d=s$v
		if ! step "build against Slurm $v (-Werror)" build_tree "$d" \
			--enable-werror \
			--with-slurm-prefix="$pfx_root/$v/prefix"; then
			not_run "Slurm $v suites" "the build against Slurm $v failed"
			continue
		fi
		suite "plugin adapter (Slurm $v)" "_build/$d" tests/plugin
		if [ $all_versions = 1 ] || [ "$v" = "$newest" ]; then
			live_b_names+=("live (Slurm $v)") live_b_dirs+=("_build/$d")
			if [ $all_versions = 1 ]; then
				live_b_tests+=("")	# all of them
			else	# the fault scenario s9 (8 min) runs on 22.05 only
				live_b_tests+=("$live_matrix")
			fi
		else
			not_run "live (Slurm $v)" "only the newest by default: --all-versions"
		fi
	done
fi

# ---- 2c. the live suites, side by side -------------------------------------
# Slot A: the packaged Slurm's live suite (every scenario), on CTLD_PORT and
# NODE_PORT_BASE (tools/cluster.sh's defaults, 16817 and 17001, unless set).
# Slot B, at the same time: the tarball releases' live suites one after the
# other, 100 ports above (OST_LIVE_B_CTLD_PORT, OST_LIVE_B_NODE_PORT_BASE;
# slurmdbd and MariaDB follow CTLD_PORT), under their own lock.  Each
# cluster has its own scratch directory and munged.  Each suite's output
# goes to its directory's suite.out, printed once both slots ended; each
# row counts its suite's own logs and wall time (the two slots overlap).
live_b_ctld=${OST_LIVE_B_CTLD_PORT:-$(( ${CTLD_PORT:-16817} + 100 ))}
live_b_nodes=${OST_LIVE_B_NODE_PORT_BASE:-$(( ${NODE_PORT_BASE:-17001} + 100 ))}
live_slot_a() {
	trap - EXIT
	suite_run _build/main tests/live LIVE=1 > _build/main/tests/live/suite.out 2>&1
}
live_slot_b() {
	local i
	trap - EXIT
	unset DBD_PORT DB_PORT OST_LIVE_LOCK	# (they follow CTLD_PORT)
	export CTLD_PORT=$live_b_ctld NODE_PORT_BASE=$live_b_nodes
	for i in "${!live_b_names[@]}"; do
		if [ -n "${live_b_tests[i]}" ]; then
			suite_run "${live_b_dirs[i]}" tests/live LIVE=1 \
				TESTS="${live_b_tests[i]}"
		else
			suite_run "${live_b_dirs[i]}" tests/live LIVE=1
		fi > "${live_b_dirs[i]}/tests/live/suite.out" 2>&1
	done
}
live_pids=()
if [ $live_a = 1 ]; then
	log "live (_build/main/tests/live, ports ${CTLD_PORT:-16817}/${NODE_PORT_BASE:-17001}) in the background: output in _build/main/tests/live/suite.out"
	live_slot_a &
	live_pids+=($!)
fi
if [ ${#live_b_names[@]} -gt 0 ]; then
	log "${live_b_names[*]} (${live_b_dirs[*]}, ports $live_b_ctld/$live_b_nodes) in the background: output in each tests/live/suite.out"
	live_slot_b &
	live_pids+=($!)
fi
[ ${#live_pids[@]} -eq 0 ] || wait "${live_pids[@]}"
if [ $live_a = 1 ]; then
	log "live (_build/main/tests/live): its output"
	cat _build/main/tests/live/suite.out
	suite_row live _build/main tests/live
fi
for i in "${!live_b_names[@]}"; do
	log "${live_b_names[i]} (${live_b_dirs[i]}/tests/live): its output"
	cat "${live_b_dirs[i]}/tests/live/suite.out"
	suite_row "${live_b_names[i]}" "${live_b_dirs[i]}" tests/live
done

# The demo as a newcomer runs it: from a clone in a private directory.
if [ -n "$plugins_why" ]; then
	not_run "demo in a private clone" "$plugins_why"
else
	step "demo in a private clone" tests/live/demo-private.sh
fi

# ---- 2d. the packages ------------------------------------------------------
# The .deb: built from the main build's `make dist` tarball (distcheck made
# it in this run), installed, run live on Slurm's plugin directory alone
# (with the build tree's ost-replay, a test tool), purged.  The .rpm: for
# the newest tarball release.  About 5 minutes on 2 cores.
pkg_version=$(sed -n 's/^AC_INIT(\[ostrich\], *\[\([^]]*\)\].*/\1/p' configure.ac)
pkg_dist=()
dist_tgz=_build/main/ostrich-$pkg_version.tar.gz
if [ -f "$dist_tgz" ] && [ "$(stat -c %Y "$dist_tgz")" -ge "$T0" ]; then
	pkg_dist=(--dist-tarball "$dist_tgz")
fi
deb_rows=("package: apt-get install .deb" "package: live on installed plugins"
	  "package: purge leaves no file"
	  "package: ostrich-tools .deb: install, whatif, purge")
if [ -n "$plugins_why" ]; then
	not_run "package: .deb build + lintian" "$plugins_why"
	for n in "${deb_rows[@]}"; do not_run "$n" "$plugins_why"; done
elif ! step "package: .deb build + lintian" \
	tools/package.sh deb --no-check "${pkg_dist[@]}"; then
	for n in "${deb_rows[@]}"; do not_run "$n" "the .deb was not built"; done
else
	deb=$(ls dist/ostrich-slurm_"$pkg_version"-*.deb)
	# one installed copy per machine: another run of this command on the
	# same machine waits here until its package is purged
	exec 7>"${OST_PKG_LOCK:-/tmp/ostrich-package.lock}"
	flock -w 3600 7 || log "packages: another run holds the package lock"
	if step "${deb_rows[0]}" tests/package/deb.sh install "$deb"; then
		if make -C _build/main/tests/live ost-replay >/dev/null 2>&1; then
			step "${deb_rows[1]}" env \
				OST_REPLAY="$top/_build/main/tests/live/ost-replay" \
				tests/package/deb.sh live
		else
			not_run "${deb_rows[1]}" "tests/live/ost-replay did not build"
		fi
		step "${deb_rows[2]}" tests/package/deb.sh purge "$deb"
	else
		pkg_cleanup
		not_run "${deb_rows[1]}" "the .deb could not be installed"
		not_run "${deb_rows[2]}" "the .deb could not be installed"
	fi
	step "${deb_rows[3]}" tests/package/deb.sh tools \
		"$(ls dist/ostrich-tools_"$pkg_version"-*.deb)"
	exec 7>&-
fi
rpm_rows=("package: rpm -qlp file list" "package: rpm -qp --requires"
	  "package: ostrich-tools .rpm: files and requires")
if [ -z "$newest" ]; then
	for n in "package: .rpm" "${rpm_rows[@]}"; do
		not_run "$n" "no tarball Slurm release built"
	done
elif ! step "package: .rpm for Slurm $newest" tools/package.sh rpm \
	--slurm-tarball "$tarballs/slurm-$newest.tar.gz" "${pkg_dist[@]}"; then
	for n in "${rpm_rows[@]}"; do not_run "$n" "the .rpm was not built"; done
else
	rpm=dist/ostrich-slurm-$pkg_version-1.slurm$newest.$(rpm --eval '%{_arch}').rpm
	step "${rpm_rows[0]}" tests/package/rpm.sh files "$rpm"
	soname=$(readelf -d "$pfx_root/$newest/prefix/lib/libslurm.so" |
		sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
	step "${rpm_rows[1]}" tests/package/rpm.sh requires "$rpm" "$newest" "$soname"
	step "${rpm_rows[2]}" tests/package/rpm.sh tools \
		"dist/ostrich-tools-$pkg_version-1.slurm$newest.$(rpm --eval '%{_arch}').rpm"
fi

# ---- 3. ASan + UBSan build of every suite that needs no Slurm -------------
if step "build (ASan + UBSan)" build_tree asan --enable-werror \
	--enable-sanitizers --without-slurm-source; then
	for ((i = 0; i < ${#main_suites[@]}; i += 2)); do
		n=${main_suites[i]} d=${main_suites[i + 1]}
		# pure text, no program of ours: the same under ASan
		[ "$n" = docs ] && continue
		[ -f "_build/asan/$d/Makefile" ] || continue
		suite "$n (ASan + UBSan)" _build/asan "$d"
	done
else
	not_run "suites under ASan + UBSan" "the sanitizer build failed"
fi

summary
