#!/usr/bin/env bash
# get-slurm-source.sh - fetch the Debian source of the installed Slurm and
# configure it out of tree, so that the ostrich plugins can be compiled
# against the exact headers (and config.h) of the running slurmctld.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: tools/get-slurm-source.sh [CACHE_DIR]     (run as root the first time)
#
# Layout produced (what m4/ost_slurm.m4 searches by default):
#   CACHE_DIR/slurm-src    -> the unpacked, Debian-patched source (symlink)
#   CACHE_DIR/slurm-build/ -> out-of-tree configure: config.h, slurm/slurm_version.h
# CACHE_DIR defaults to $OST_SLURM_CACHE or /usr/local/src/ostrich-slurm.
# Nothing is compiled: Slurm's configure only generates the headers.
# Idempotent: every step is skipped when its result is already there.
# Then: ./configure --with-slurm-source=CACHE_DIR/slurm-src
set -euo pipefail

CACHE=${1:-${OST_SLURM_CACHE:-/usr/local/src/ostrich-slurm}}
say() { echo "get-slurm-source: $*"; }
die() { echo "get-slurm-source: error: $*" >&2; exit 1; }

command -v slurmctld >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
command -v slurmctld >/dev/null 2>&1 ||
	die "slurmctld is not installed (run tools/install-deps.sh)"
DEBVER=$(dpkg-query -W -f='${Version}' slurmctld 2>/dev/null) ||
	die "dpkg-query cannot tell the slurmctld package version"
BINVER=$(slurmctld -V | awk '{print $2}')
MULTIARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
say "installed slurmctld $BINVER (Debian package $DEBVER)"

mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
SRC_LINK=$CACHE/slurm-src
BLD=$CACHE/slurm-build
STAMP=$CACHE/.source-version

# ---- 1. the source package, exactly the installed version ----------------
have_source() {
	[ -L "$SRC_LINK" ] || [ -d "$SRC_LINK" ] || return 1
	[ -f "$SRC_LINK/src/slurmctld/slurmctld.h" ] || return 1
	[ "$(cat "$STAMP" 2>/dev/null)" = "$DEBVER" ]
}

# deb822 sources (bookworm): add a deb-src twin of every "Types: deb" stanza in
# a separate file, so the distribution's own file is left untouched.
enable_deb_src() {
	local f out=/etc/apt/sources.list.d/ostrich-deb-src.sources
	if [ -e "$out" ]; then apt-get update -q >/dev/null; return 0; fi
	[ "$(id -u)" -eq 0 ] || die "deb-src is not enabled and I am not root"
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'BEGIN { RS = ""; ORS = "\n\n" }
		     /(^|\n)Types:[^\n]*deb-src/ { next }
		     /(^|\n)Types:[ \t]*deb[ \t]*(\n|$)/ {
			sub(/Types:[ \t]*deb[ \t]*/, "Types: deb-src"); print }' "$f"
	done > "$out.tmp"
	if [ -f /etc/apt/sources.list ]; then
		sed -n 's/^deb[ \t]\+\(\[[^]]*\][ \t]\+\)\?\(.*\)$/deb-src \1\2/p' \
			/etc/apt/sources.list > "$CACHE/deb-src.list.tmp" || true
		if [ -s "$CACHE/deb-src.list.tmp" ]; then
			mv "$CACHE/deb-src.list.tmp" /etc/apt/sources.list.d/ostrich-deb-src.list
		fi
		rm -f "$CACHE/deb-src.list.tmp"
	fi
	if [ -s "$out.tmp" ]; then mv "$out.tmp" "$out"; else rm -f "$out.tmp"; fi
	say "enabled deb-src entries; running apt-get update"
	apt-get update -q >/dev/null
}

have_deb_src() {
	local v
	v=$(apt-cache showsrc slurm-wlm 2>/dev/null | sed -n 's/^Version: //p') || true
	printf '%s\n' "$v" | grep -qxF "$DEBVER"
}

if have_source; then
	say "source already present: $(readlink -f "$SRC_LINK")"
else
	command -v dpkg-source >/dev/null 2>&1 || die "dpkg-source missing (apt-get install dpkg-dev)"
	if ! have_deb_src; then
		enable_deb_src
		have_deb_src ||
			die "no source package slurm-wlm=$DEBVER in the apt sources (deb-src of the matching suite needed)"
	fi
	rm -rf "$CACHE/dl"
	mkdir -p "$CACHE/dl"
	say "apt-get source slurm-wlm=$DEBVER"
	(cd "$CACHE/dl" && apt-get source -q "slurm-wlm=$DEBVER" > "$CACHE/apt-source.log" 2>&1) ||
		{ tail -20 "$CACHE/apt-source.log" >&2; die "apt-get source failed"; }
	dir=$(find "$CACHE/dl" -mindepth 1 -maxdepth 1 -type d -name 'slurm-wlm-*' | head -1)
	[ -n "$dir" ] && [ -f "$dir/src/slurmctld/slurmctld.h" ] ||
		die "apt-get source produced no Slurm tree in $CACHE/dl"
	rm -rf "$SRC_LINK" "$BLD"
	ln -s "$dir" "$SRC_LINK"
	echo "$DEBVER" > "$STAMP"
fi

# ---- 2. configure out of tree, for config.h only -------------------------
src_ver() { sed -n 's/^#define SLURM_VERSION_STRING "\(.*\)"/\1/p' "$BLD/config.h" 2>/dev/null; }
if [ -f "$BLD/config.h" ] && [ -f "$BLD/slurm/slurm_version.h" ] && [ "$(src_ver)" = "$BINVER" ]; then
	say "already configured: $BLD/config.h"
else
	rm -rf "$BLD"
	mkdir -p "$BLD"
	# debian/rules' configure flags (Debian's slurm-wlm source package), minus what needs -dev
	# packages that do not matter for slurmctld plugin headers.
	opts=(--prefix=/usr --libdir=/usr/lib/$MULTIARCH --sysconfdir=/etc/slurm
	      --localstatedir=/var --runstatedir=/run --disable-maintainer-mode
	      --disable-dependency-tracking --with-munge --without-rpath
	      --disable-debug --enable-multiple-slurmd)
	if [ -e "/usr/lib/$MULTIARCH/pmix2/include/pmix.h" ]; then
		opts+=("--with-pmix=/usr/lib/$MULTIARCH/pmix2")
	fi
	if [ -e /usr/include/security/pam_appl.h ]; then
		opts+=(--enable-pam)
	fi
	say "configuring in $BLD (about 20 s)"
	(cd "$BLD" && CFLAGS="-g -O2" "$SRC_LINK/configure" "${opts[@]}" \
		SUCMD=/bin/su SLEEP_CMD=/bin/sleep > "$BLD/configure.out" 2>&1) ||
		{ tail -20 "$BLD/configure.out" >&2; die "Slurm configure failed (see $BLD/configure.out)"; }
fi

[ "$(src_ver)" = "$BINVER" ] ||
	die "version mismatch: source configures as $(src_ver), slurmctld is $BINVER"
say "ready: --with-slurm-source=$SRC_LINK (config.h in $BLD, Slurm $BINVER)"
