#!/usr/bin/env bash
# deb.sh - the .deb as an admin meets it, on this machine (root):
#
#   tests/package/deb.sh install DEB  its Depends pins the installed
#        slurmctld; a copy pinned to another slurmctld is refused by apt;
#        `apt-get install ./DEB` installs it and every file `dpkg -c DEB`
#        lists is on disk.  Refused when ostrich-slurm is installed
#        already: that one is not ours to replace.
#   tests/package/deb.sh live         tests/package/installed-live.sh on
#        the installed plugins (OST_REPLAY: the build tree's ost-replay)
#   tests/package/deb.sh purge DEB    `apt-get purge`: dpkg forgets it,
#        none of its files remains, and every directory it shipped that
#        is still there belongs to another package
#   tests/package/deb.sh tools DEB    ostrich-tools, whole: Depends names
#        no slurmctld; `apt-get install ./DEB` puts every file in place;
#        installed ostrich-whatif --help exits 0, and it replays the
#        tests/sim sacct fixture with the installed ostrich-sim (no source
#        tree on its paths, PATH without the build) into the goldens; the
#        man pages are found; `apt-get purge` leaves none of its files
#   tests/package/deb.sh cleanup      purge what `install` or `tools`
#        installed if it is still there (tools/test-all.sh's EXIT trap: the
#        packages never stay installed, whatever failed)
#
# Environment: CTLD_PORT, NODE_PORT_BASE, OST_LIVE_LOCK for the live
# scenario as for tests/live (defaults: the ports of the live tests).
# SPDX-License-Identifier: GPL-2.0-or-later
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
PKG=ostrich-slurm
MARK=${OST_PKG_MARK:-/run/ostrich-pkg-test.installed}
TOOLS=ostrich-tools
TOOLS_MARK=$MARK.tools
export DEBIAN_FRONTEND=noninteractive
PATH=$PATH:/usr/sbin:/sbin

fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok - $*"; }
[ "$(id -u)" = 0 ] || fail "run as root (apt-get install, live daemons)"

installed_version() {
	{ dpkg-query -W -f='${db:Status-Status} ${Version}' "$PKG" 2>/dev/null || true; } |
		sed -n 's/^installed //p'
}

# files DEB TYPE: the paths of DEB's entries of TYPE (- file, l link, d dir)
files() {
	dpkg-deb -c "$1" | awk -v t="$2" 'substr($1, 1, 1) == t {
		p = $6; sub(/^\./, "", p); sub(/\/$/, "", p); if (p != "") print p }'
}

do_install() {
	local deb want got f n=0 tmp
	deb=$(realpath "$1")
	[ -f "$deb" ] || fail "no $1"
	[ "$(dpkg-deb -f "$deb" Package)" = "$PKG" ] || fail "$deb is not $PKG"
	got=$(installed_version)
	[ -z "$got" ] || fail "$PKG $got is installed already (not by this test): purge it first"

	want=$(dpkg-query -W -f='${Version}' slurmctld)
	dpkg-deb -f "$deb" Depends | tr ',' '\n' | grep -qx " *slurmctld (= $want)" ||
		fail "Depends does not pin slurmctld (= $want): $(dpkg-deb -f "$deb" Depends)"
	ok "Depends: slurmctld (= $want), the installed one"

	# the same package built for another slurmctld: apt must refuse it
	tmp=$(mktemp -d)
	dpkg-deb -R "$deb" "$tmp/root"
	sed -i "s/slurmctld (= [^)]*)/slurmctld (= $want.0)/" "$tmp/root/DEBIAN/control"
	dpkg-deb -b -Zgzip "$tmp/root" "$tmp/other.deb" >/dev/null
	if apt-get install -s -q "$tmp/other.deb" > "$tmp/apt.out" 2>&1; then
		cat "$tmp/apt.out"
		rm -rf "$tmp"
		fail "apt accepts $PKG built for slurmctld $want.0 beside slurmctld $want"
	fi
	grep -q "Depends: slurmctld (= $want.0)" "$tmp/apt.out" ||
		{ cat "$tmp/apt.out"; rm -rf "$tmp"; fail "apt refused it for another reason"; }
	rm -rf "$tmp"
	ok "apt refuses $PKG built for another slurmctld ($want.0)"

	# the mark first: an interrupted install is still cleaned up
	dpkg-deb -f "$deb" Version > "$MARK"
	apt-get install -y -q --no-install-recommends "$deb" ||
		fail "apt-get install $deb failed"
	[ "$(installed_version)" = "$(cat "$MARK")" ] || fail "$PKG is not installed after apt-get install"
	while IFS= read -r f; do
		[ -f "$f" ] || fail "$f (in the package) is not installed"
		n=$((n + 1))
	done < <(files "$deb" -)
	ok "apt-get install ./$(basename "$deb"): $n files in place"
}

do_live() {
	[ -n "$(installed_version)" ] || fail "$PKG is not installed"
	[ -x "${OST_REPLAY:-}" ] || fail "OST_REPLAY (tests/live/ost-replay of a build) is not set"
	OST_SRCDIR=$top bash "$here/installed-live.sh"
}

do_purge() {
	local deb f d st left=0 n=0
	deb=$(realpath "$1")
	[ -n "$(installed_version)" ] || fail "$PKG is not installed"
	apt-get purge -y -q "$PKG" || fail "apt-get purge $PKG failed"
	rm -f "$MARK"
	st=$(dpkg-query -W -f='${db:Status-Status}' "$PKG" 2>/dev/null || true)
	[ -z "$st" ] || [ "$st" = not-installed ] || fail "dpkg still has $PKG: $st"
	while IFS= read -r f; do
		n=$((n + 1))
		if [ -e "$f" ] || [ -L "$f" ]; then echo "left behind: $f"; left=$((left + 1)); fi
	done < <(files "$deb" - ; files "$deb" l)
	while IFS= read -r d; do
		[ -d "$d" ] || continue
		dpkg -S "$d" >/dev/null 2>&1 ||
			{ echo "left behind: $d/ (no other package owns it)"; left=$((left + 1)); }
	done < <(files "$deb" d)
	[ $left = 0 ] || fail "$left paths of the package remain after the purge"
	ok "apt-get purge $PKG: none of its $n files remains"
}

# the ostrich-tools package: install, use, purge (one step)
do_tools() {
	local deb f n=0 left=0 tmp st
	deb=$(realpath "$1")
	[ "$(dpkg-deb -f "$deb" Package)" = "$TOOLS" ] || fail "$deb is not $TOOLS"
	st=$(dpkg-query -W -f='${db:Status-Status}' "$TOOLS" 2>/dev/null || true)
	[ -z "$st" ] || [ "$st" = not-installed ] ||
		fail "$TOOLS is installed already (not by this test): purge it first"
	! dpkg-deb -f "$deb" Depends | grep -q slurmctld ||
		fail "$TOOLS depends on slurmctld: $(dpkg-deb -f "$deb" Depends)"
	ok "Depends names no slurmctld: $(dpkg-deb -f "$deb" Depends)"
	dpkg-deb -f "$deb" Version > "$TOOLS_MARK"
	apt-get install -y -q --no-install-recommends "$deb" || fail "apt-get install $deb failed"
	while IFS= read -r f; do
		[ -f "$f" ] || fail "$f (in the package) is not installed"
		n=$((n + 1))
	done < <(files "$deb" -)
	ok "apt-get install ./$(basename "$deb"): $n files in place"
	for f in ostrich-sim ostrich-gen ostrich-whatif; do
		[ -x "/usr/bin/$f" ] || fail "no /usr/bin/$f"
		man -w "$f" >/dev/null 2>&1 || fail "man -w $f: no manual page"
	done
	/usr/bin/ostrich-whatif --help | grep -q -- '--days N' || fail "ostrich-whatif --help"
	ok "ostrich-sim, ostrich-gen, ostrich-whatif and their man pages; --help exits 0"
	# the installed tools alone: PATH without any build, run from /
	tmp=$(mktemp -d)
	(cd / && env -u OSTRICH_SIM PATH=/usr/bin:/bin TZ=UTC ostrich-whatif \
		--sacct-file "$top/tests/sim/data/cluster.sacct" --procs 16 \
		--half-life 3600 --out "$tmp/out" > "$tmp/stdout" 2> "$tmp/stderr") ||
		{ cat "$tmp/stderr"; rm -rf "$tmp"; fail "installed ostrich-whatif failed"; }
	for p in ostrich fairshare fcfs; do
		cmp -s "$tmp/out/account-$p.csv" "$top/tests/sim/data/cluster-$p-accounts.csv" ||
			{ rm -rf "$tmp"; fail "installed ostrich-whatif: account-$p.csv is not the golden"; }
	done
	[ -s "$tmp/out/account-actual.csv" ] || { rm -rf "$tmp"; fail "installed ostrich-whatif: no actual column"; }
	rm -rf "$tmp"
	ok "installed ostrich-whatif replays the fixture into the goldens, with its actual column"
	apt-get purge -y -q "$TOOLS" || fail "apt-get purge $TOOLS failed"
	rm -f "$TOOLS_MARK"
	while IFS= read -r f; do
		if [ -e "$f" ] || [ -L "$f" ]; then echo "left behind: $f"; left=$((left + 1)); fi
	done < <(files "$deb" - ; files "$deb" l)
	[ $left = 0 ] || fail "$left paths of $TOOLS remain after the purge"
	ok "apt-get purge $TOOLS: none of its $n files remains"
}

do_cleanup() {
	if [ -f "$TOOLS_MARK" ]; then
		echo "deb.sh: purging $TOOLS installed by the test"
		apt-get purge -y -q "$TOOLS" >/dev/null 2>&1 || dpkg --purge "$TOOLS" >/dev/null 2>&1 || true
		rm -f "$TOOLS_MARK"
	fi
	[ -f "$MARK" ] || return 0
	if [ "$(installed_version)" = "$(cat "$MARK")" ]; then
		echo "deb.sh: purging $PKG $(cat "$MARK") installed by the test"
		apt-get purge -y -q "$PKG" >/dev/null 2>&1 || dpkg --purge "$PKG" >/dev/null 2>&1 || true
	fi
	rm -f "$MARK"
}

case ${1:-} in
install) [ $# = 2 ] || fail "usage: $0 install DEB"; do_install "$2" ;;
live) do_live ;;
purge) [ $# = 2 ] || fail "usage: $0 purge DEB"; do_purge "$2" ;;
tools) [ $# = 2 ] || fail "usage: $0 tools DEB"; do_tools "$2" ;;
cleanup) do_cleanup ;;
*) fail "usage: $0 install DEB | live | purge DEB | tools DEB | cleanup" ;;
esac
