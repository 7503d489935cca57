#!/usr/bin/env bash
# rpm.sh - what the .rpm of tools/package.sh rpm holds and requires:
#
#   tests/package/rpm.sh files RPM     `rpm -qlp`: the three plugins and their engine in
#        %{_libdir}/slurm, scampaign, its and ostrich.conf's manual pages,
#        the docs with the example ostrich.conf, the licence, and nothing
#        else (build-id links aside); the plugins find their engine by
#        RUNPATH $ORIGIN and no search path or string of a program names
#        the build machine's Slurm prefix (/opt/ostrich-slurm)
#   tests/package/rpm.sh requires RPM X.Y.Z [LIBSLURM]   `rpm -qp
#        --requires`: exactly Slurm X.Y.Z (slurm and slurm-slurmctld),
#        LIBSLURM's soname (e.g. libslurm.so.42, default: any libslurm),
#        the C library and what the package provides itself; nothing else
#   tests/package/rpm.sh tools RPM    the ostrich-tools subpackage: exactly
#        ostrich-sim, ostrich-gen, ostrich-whatif, their manual pages and
#        the licence; it requires no Slurm (the tools run on a login node)
# SPDX-License-Identifier: GPL-2.0-or-later
set -euo pipefail

fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok - $*"; }
command -v rpm >/dev/null || fail "rpm is not installed"

do_files() {
	local rpm=$1 libdir mandir list want got extra tmp f
	libdir=$(rpm --eval '%{_libdir}')
	mandir=$(rpm --eval '%{_mandir}')
	list=$(rpm -qlp "$rpm") || fail "rpm -qlp $rpm failed"
	printf '%s\n' "$list" | sed 's/^/#   /'
	# one line per expected path, as a regular expression
	want=$(cat <<-EOF
	/usr/bin/scampaign
	$libdir/slurm/libostrich_slurm\.so
	$libdir/slurm/priority_ostrich\.so
	$libdir/slurm/sched_ostrich\.so
	$libdir/slurm/site_factor_ostrich\.so
	$mandir/man1/scampaign\.1(\.gz|\.bz2|\.xz|\.zst)?
	$mandir/man5/ostrich\.conf\.5(\.gz|\.bz2|\.xz|\.zst)?
	/usr/share/doc/ostrich-slurm[^/]*
	/usr/share/doc/ostrich-slurm[^/]*/README\.md
	/usr/share/doc/ostrich-slurm[^/]*/admin-guide\.md
	/usr/share/doc/ostrich-slurm[^/]*/user-guide\.md
	/usr/share/doc/ostrich-slurm[^/]*/ostrich\.conf\.example
	/usr/share/doc/ostrich-slurm[^/]*/slurm\.conf\.example
	/usr/share/doc/ostrich-slurm[^/]*/ostrich-metrics\.service
	/usr/share/doc/ostrich-slurm[^/]*/ostrich-metrics\.timer
	/usr/share/doc/ostrich-slurm[^/]*/grafana-ostrich\.json
	/usr/share/licenses/ostrich-slurm[^/]*
	/usr/share/licenses/ostrich-slurm[^/]*/COPYING
	EOF
	)
	while IFS= read -r f; do
		[ "$(grep -Ecx "$f" <<<"$list")" = 1 ] || fail "rpm -qlp: no single path matches $f"
	done <<<"$want"
	extra=$(grep -v '^/usr/lib/\.build-id\(/\|$\)' <<<"$list" |
		grep -Evx -f <(printf '%s\n' "$want") || true)
	[ -z "$extra" ] || fail "rpm -qlp: unexpected paths: $(tr '\n' ' ' <<<"$extra")"
	ok "rpm -qlp: the $(grep -c . <<<"$want") expected paths, nothing else"

	# the payload's ELF files
	tmp=$(mktemp -d)
	rpm2archive - < "$rpm" | tar -xzf - -C "$tmp"
	for f in priority_ostrich.so sched_ostrich.so site_factor_ostrich.so; do
		got=$(readelf -d "$tmp$libdir/slurm/$f" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
		[ "$got" = '$ORIGIN' ] || { rm -rf "$tmp"; fail "$f: RUNPATH '$got', not \$ORIGIN"; }
	done
	# (the debug information, kept as slurm.spec keeps it, may name it)
	got=$(for f in "$tmp/usr/bin/scampaign" "$tmp$libdir"/slurm/*.so; do
		{ readelf -d "$f"; readelf -p .rodata -p .dynstr "$f"; } 2>/dev/null |
			grep /opt/ostrich-slurm >/dev/null && echo "${f#"$tmp"}" || true
	done)
	rm -rf "$tmp"
	[ -z "$got" ] || fail "names the build machine's Slurm prefix: $(tr '\n' ' ' <<<"$got")"
	ok "plugins' RUNPATH \$ORIGIN; no search path or string names /opt/ostrich-slurm"
}

do_requires() {
	local rpm=$1 v=$2 lib=${3:-} req prov bad r
	req=$(rpm -qp --requires "$rpm") || fail "rpm -qp --requires $rpm failed"
	printf '%s\n' "$req" | sed 's/^/#   /'
	prov=$(rpm -qp --provides "$rpm")
	for r in "slurm = $v" "slurm-slurmctld = $v"; do
		grep -qx "$r" <<<"$req" || fail "no requirement $r"
	done
	if [ -n "$lib" ]; then
		grep -qx "$lib()(64bit)" <<<"$req" || fail "no requirement on $lib (scampaign's libslurm)"
	fi
	bad=$(while IFS= read -r r; do
		case $r in
		"slurm = $v" | "slurm-slurmctld = $v") continue ;;
		rpmlib\(*\)*\ \<=\ * | rtld\(GNU_HASH\)) continue ;;
		libc.so.6* | libm.so.6*) continue ;;
		libslurm.so.[0-9]*"()(64bit)")
			[ -z "$lib" ] || [ "$r" = "$lib()(64bit)" ] || echo "$r"
			continue ;;
		esac
		grep -qxF "$r" <<<"$prov" || echo "$r"
	done <<<"$req")
	[ -z "$bad" ] || fail "unexpected requirements: $(tr '\n' ';' <<<"$bad")"
	ok "rpm -qp --requires: slurm = $v, slurm-slurmctld = $v, ${lib:-libslurm}, libc; nothing else"
}

do_tools() {
	local rpm=$1 mandir list want extra req f
	mandir=$(rpm --eval '%{_mandir}')
	list=$(rpm -qlp "$rpm") || fail "rpm -qlp $rpm failed"
	printf '%s\n' "$list" | sed 's/^/#   /'
	want=$(cat <<-EOF
	/usr/bin/ostrich-sim
	/usr/bin/ostrich-gen
	/usr/bin/ostrich-whatif
	$mandir/man1/ostrich-sim\.1(\.gz|\.bz2|\.xz|\.zst)?
	$mandir/man1/ostrich-gen\.1(\.gz|\.bz2|\.xz|\.zst)?
	$mandir/man1/ostrich-whatif\.1(\.gz|\.bz2|\.xz|\.zst)?
	/usr/share/licenses/ostrich-tools[^/]*
	/usr/share/licenses/ostrich-tools[^/]*/COPYING
	EOF
	)
	while IFS= read -r f; do
		[ "$(grep -Ecx "$f" <<<"$list")" = 1 ] || fail "rpm -qlp: no single path matches $f"
	done <<<"$want"
	extra=$(grep -v '^/usr/lib/\.build-id\(/\|$\)' <<<"$list" |
		grep -Evx -f <(printf '%s\n' "$want") || true)
	[ -z "$extra" ] || fail "rpm -qlp: unexpected paths: $(tr '\n' ' ' <<<"$extra")"
	ok "ostrich-tools rpm -qlp: the $(grep -c . <<<"$want") expected paths, nothing else"
	req=$(rpm -qp --requires "$rpm") || fail "rpm -qp --requires $rpm failed"
	printf '%s\n' "$req" | sed 's/^/#   /'
	! grep -q '^slurm\|libslurm' <<<"$req" || fail "ostrich-tools requires Slurm: $(grep slurm <<<"$req")"
	ok "ostrich-tools requires no Slurm"
}

case ${1:-} in
tools) [ $# = 2 ] || fail "usage: $0 tools RPM"; do_tools "$2" ;;
files) [ $# = 2 ] || fail "usage: $0 files RPM"; do_files "$2" ;;
requires) [ $# -ge 3 ] && [ $# -le 4 ] || fail "usage: $0 requires RPM X.Y.Z [LIBSLURM]"
	do_requires "$2" "$3" "${4:-}" ;;
*) fail "usage: $0 files RPM | requires RPM X.Y.Z [LIBSLURM] | tools RPM" ;;
esac
