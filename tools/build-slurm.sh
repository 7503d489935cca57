#!/usr/bin/env bash
# build-slurm.sh - build a Slurm release tarball into a per-version prefix, for
# compiling and testing the plugins against a Slurm other than the packaged one.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: tools/build-slurm.sh TARBALL_OR_VERSION [PREFIX_ROOT]
#   TARBALL_OR_VERSION  a slurm-X.Y.Z.tar.gz, or X.Y.Z: the tarball of that name
#                       in $OST_SLURM_TARBALLS (default ../shared/slurm-src next
#                       to this repository), checked against its SHA256SUMS;
#                       or "all": every tarball that SHA256SUMS lists, one
#                       after the other
#   PREFIX_ROOT         default $OST_SLURM_PREFIX_ROOT or /opt/ostrich-slurm
#
# Layout (what configure's --with-slurm-prefix/--with-slurm-source expect):
#   PREFIX_ROOT/X.Y.Z/src/     the unpacked source (headers for the plugins)
#   PREFIX_ROOT/X.Y.Z/build/   the out-of-tree build: config.h, slurm_version.h
#   PREFIX_ROOT/X.Y.Z/prefix/  the install: sbin/slurmctld, sbin/slurmd,
#                              sbin/slurmstepd, bin/ clients, lib/libslurm.so,
#                              lib/slurm/ plugins, include/slurm/
#   PREFIX_ROOT/X.Y.Z/build.log  configure, make and install output + timings
# Cached: once PREFIX_ROOT/X.Y.Z/.built matches the tarball and this script's
# build recipe, a second run only checks it and exits.
#
# Only what a local cluster (tools/cluster.sh) needs is compiled: the daemons,
# the client commands, libslurm and the plugins but data_parser (JSON/YAML
# output and slurmrestd only).  Slurm's own configure finds munge etc.; the
# build dependencies are Debian packages (tools/install-deps.sh, or
# OST_APT=1 here installs the missing ones).
# Accounting (slurmdbd, sacctmgr, accounting_storage/mysql; the live
# scenario s12) is a stage of its own, stamped PREFIX_ROOT/X.Y.Z/.built-dbd:
# built when MariaDB's client library is installed (libmariadb-dev,
# mariadb_config), added to a build made without it (configure again, then
# only those three), skipped with a note otherwise.
# Environment: JOBS (make -j, default 2).
set -euo pipefail

say() { echo "build-slurm: $*"; }
die() { echo "build-slurm: error: $*" >&2; exit 1; }

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: $0 TARBALL_OR_VERSION [PREFIX_ROOT]"
HERE=$(cd "$(dirname "$0")" && pwd)
TARBALLS=${OST_SLURM_TARBALLS:-$HERE/../../shared/slurm-src}
JOBS=${JOBS:-2}

if [ "$1" = all ]; then
	[ -f "$TARBALLS/SHA256SUMS" ] || die "no $TARBALLS/SHA256SUMS"
	for t in $(awk '{ sub(/^\*/, "", $2); print $2 }' "$TARBALLS/SHA256SUMS"); do
		"$0" "$TARBALLS/$t" ${2:+"$2"} || exit 1
	done
	exit 0
fi

case $1 in
*.tar.gz | *.tgz | *.tar.bz2) TARBALL=$1 ;;
*) TARBALL=$TARBALLS/slurm-$1.tar.gz ;;
esac
[ -f "$TARBALL" ] || die "no tarball $TARBALL"
TARBALL=$(cd "$(dirname "$TARBALL")" && pwd)/$(basename "$TARBALL")
VERSION=$(basename "$TARBALL" | sed -n 's/^slurm-\([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\)\.t.*$/\1/p')
[ -n "$VERSION" ] || die "cannot read X.Y.Z from the name $(basename "$TARBALL")"

ROOT=${2:-${OST_SLURM_PREFIX_ROOT:-/opt/ostrich-slurm}}/$VERSION
SRC=$ROOT/src
BLD=$ROOT/build
PFX=$ROOT/prefix
STAMP=$ROOT/.built
LOG=$ROOT/build.log

# The tarball must be the one SHA256SUMS names, when there is such a list.
SUMS=$(dirname "$TARBALL")/SHA256SUMS
SHA=$(sha256sum "$TARBALL" | awk '{print $1}')
if [ -f "$SUMS" ]; then
	want=$(awk -v f="$(basename "$TARBALL")" '$2 == f || $2 == "*" f {print $1}' "$SUMS")
	[ -n "$want" ] || die "$(basename "$TARBALL") is not listed in $SUMS"
	[ "$want" = "$SHA" ] || die "sha256 of $TARBALL is $SHA, $SUMS says $want"
else
	say "warning: no $SUMS; building an unchecked tarball"
fi

# Everything that decides what gets built: a change here rebuilds.
CONF_OPTS=(--prefix="$PFX" --sysconfdir="$PFX/etc" --localstatedir="$ROOT/var"
	--enable-multiple-slurmd --with-munge --disable-static --disable-debug
	--disable-dependency-tracking --disable-maintainer-mode
	--disable-sview --disable-slurmrestd --disable-pam
	--without-hdf5 --without-pmix --without-ucx --without-nvml --without-rsmi
	--without-oneapi --without-jwt --without-freeipmi --without-rdkafka
	--without-s2n --without-bpf --without-hpe-slingshot --without-ofed
	--without-lua)
# as Debian builds its packages: -O2 (Slurm's default is -O1 -ggdb3)
CFLAGS_BUILD="-g -O2"
# src/ subdirectories, in order (the libraries first; missing ones skipped:
# the tree differs between releases).  The libraries in api, common,
# interfaces... are also pulled in by the programs' own dependency rules.
SUBDIRS=(api common conmgr curl interfaces stepmgr plugins
	slurmctld slurmd sbatch srun salloc scancel scontrol sinfo squeue sprio
	sdiag sacct)
# src/plugins/ subdirectories not built: data_parser (--json/--yaml and
# slurmrestd; the largest plugin sources).
SKIP_PLUGINS=" data_parser "
RECIPE=$(printf '%s\n' "$VERSION" "$SHA" "${CONF_OPTS[@]}" "$CFLAGS_BUILD" \
	"${SUBDIRS[@]}" "$SKIP_PLUGINS" | sha256sum | awk '{print $1}')

built_ok() {
	[ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$RECIPE" ] || return 1
	[ -f "$BLD/config.h" ] || return 1
	local f
	for f in sbin/slurmctld sbin/slurmd sbin/slurmstepd bin/sbatch bin/squeue \
		 bin/scontrol bin/scancel bin/sprio bin/sinfo; do
		[ -x "$PFX/$f" ] || return 1
	done
	[ -f "$PFX/lib/slurm/sched_backfill.so" ] &&
		[ -f "$PFX/include/slurm/slurm.h" ] || return 1
	[ "$("$PFX/sbin/slurmctld" -V 2>/dev/null | awk '{print $2}')" = "$VERSION" ]
}

run() { "$@" >> "$LOG" 2>&1 || { tail -30 "$LOG" >&2; die "failed: $* (see $LOG)"; }; }

# ---- accounting: slurmdbd, sacctmgr, accounting_storage/mysql -------------
DBD_STAMP=$ROOT/.built-dbd
DBD_RECIPE=$(printf '%s\n' "$RECIPE" database slurmdbd sacctmgr \
	plugins/accounting_storage/mysql | sha256sum | awk '{print $1}')
dbd_ok() {
	[ -f "$DBD_STAMP" ] && [ "$(cat "$DBD_STAMP")" = "$DBD_RECIPE" ] &&
		[ -x "$PFX/sbin/slurmdbd" ] && [ -x "$PFX/bin/sacctmgr" ] &&
		[ -f "$PFX/lib/slurm/accounting_storage_mysql.so" ]
}
# Slurm's configure looks for mysql_config or mariadb_config; a tree
# configured without either is configured again (HAVE_MYSQL only reaches
# the mysql plugin, and with --disable-dependency-tracking nothing built
# before is rebuilt).
build_dbd() {
	dbd_ok && { say "Slurm $VERSION accounting already built"; return 0; }
	if ! command -v mariadb_config > /dev/null && ! command -v mysql_config > /dev/null; then
		say "no mariadb_config (libmariadb-dev): no slurmdbd, sacctmgr nor accounting_storage/mysql"
		return 0
	fi
	local t0 d
	t0=$(date +%s)
	if ! grep -q '^#define HAVE_MYSQL 1' "$BLD/config.h"; then
		say "configuring again, with MariaDB's client library (log: $LOG)"
		(cd "$BLD" && run env CFLAGS="$CFLAGS_BUILD" "$SRC/configure" "${CONF_OPTS[@]}")
		grep -q '^#define HAVE_MYSQL 1' "$BLD/config.h" ||
			die "configure did not take MariaDB's client library (see $LOG)"
	fi
	say "building src/{database,slurmdbd,sacctmgr,plugins/accounting_storage/mysql}"
	for d in database slurmdbd sacctmgr plugins/accounting_storage/mysql; do
		run make -C "$BLD/src/$d" -j"$JOBS"
	done
	for d in slurmdbd sacctmgr plugins/accounting_storage/mysql; do
		run make -C "$BLD/src/$d" install
	done
	find "$PFX/lib" -name '*.la' -delete
	echo "$DBD_RECIPE" > "$DBD_STAMP"
	dbd_ok || die "the accounting install in $PFX is incomplete (see $LOG)"
	echo "== accounting built: $(( $(date +%s) - t0 )) s" >> "$LOG"
	say "Slurm $VERSION accounting built in $(( $(date +%s) - t0 )) s"
}

# the accounting stage failing costs s12 alone (it skips), not the release
dbd_stage() {
	( build_dbd ) || say "warning: no accounting for Slurm $VERSION (see $LOG): the live scenario s12 will skip"
}

mkdir -p "$ROOT"
exec 8>"$ROOT/.lock"
flock -w 3600 8 || die "another build of $VERSION holds $ROOT/.lock"

if built_ok; then
	say "Slurm $VERSION already built: $PFX"
	dbd_stage
	exit 0
fi

# ---- build dependencies ----------------------------------------------------
missing=()
for p in gcc make libmunge-dev munge; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	if [ "${OST_APT:-0}" = 1 ] && [ "$(id -u)" = 0 ]; then
		say "apt-get install ${missing[*]}"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
	else
		die "missing Debian packages: ${missing[*]} (apt-get install them, or OST_APT=1)"
	fi
fi

# ---- unpack, configure, build, install -------------------------------------
rm -rf "$SRC" "$BLD" "$PFX" "$STAMP" "$DBD_STAMP"
mkdir -p "$SRC" "$BLD"
: > "$LOG"
t0=$(date +%s)
stamp() { echo "== $1: $(( $(date +%s) - t0 )) s, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$LOG"; }

say "unpacking $TARBALL into $SRC"
tar -xzf "$TARBALL" -C "$SRC" --strip-components=1
stamp unpacked

say "configuring (log: $LOG)"
(cd "$BLD" && run env CFLAGS="$CFLAGS_BUILD" "$SRC/configure" "${CONF_OPTS[@]}")
ver=$(sed -n 's/^#define SLURM_VERSION_STRING "\(.*\)"/\1/p' "$BLD/config.h")
[ "$ver" = "$VERSION" ] || die "config.h says $ver, the tarball's name $VERSION"
grep -q '^#define MULTIPLE_SLURMD 1' "$BLD/config.h" || die "configure did not enable MULTIPLE_SLURMD"
stamp configured

plugin_dirs=()
for d in "$SRC"/src/plugins/*/; do
	d=$(basename "$d")
	case $SKIP_PLUGINS in *" $d "*) continue ;; esac
	[ -f "$BLD/src/plugins/$d/Makefile" ] && plugin_dirs+=("$d")
done
subdirs=()
for d in "${SUBDIRS[@]}"; do
	[ -f "$BLD/src/$d/Makefile" ] && subdirs+=("$d")
done
say "building src/{${subdirs[*]}} with make -j$JOBS"
for d in "${subdirs[@]}"; do
	if [ "$d" = plugins ]; then
		# one by one: SUBDIRS= on make's command line would reach the
		# sub-makes too
		for p in "${plugin_dirs[@]}"; do
			run make -C "$BLD/src/plugins/$p" -j"$JOBS"
		done
	else
		run make -C "$BLD/src/$d" -j"$JOBS"
	fi
	stamp "built src/$d"
done

say "installing into $PFX"
run make -C "$BLD" install-pkgincludeHEADERS
for d in "${subdirs[@]}"; do
	if [ "$d" = plugins ]; then
		for p in "${plugin_dirs[@]}"; do
			run make -C "$BLD/src/plugins/$p" install
		done
	else
		run make -C "$BLD/src/$d" install
	fi
done
# libtool archives are of no use to anyone here
find "$PFX/lib" -name '*.la' -delete
stamp installed

echo "$RECIPE" > "$STAMP"
built_ok || die "the install in $PFX is incomplete (see $LOG)"
say "Slurm $VERSION built in $(( $(date +%s) - t0 )) s: $PFX"
dbd_stage
