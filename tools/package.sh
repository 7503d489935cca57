#!/usr/bin/env bash
# package.sh - the packages an admin installs, pinned to their Slurm.
#
#     tools/package.sh deb [--no-check] [--dist-tarball FILE]
#     tools/package.sh rpm --slurm-tarball FILE [--dist-tarball FILE]
#
#   deb   a .deb built with debhelper (debian/) against the installed
#         Debian Slurm: the configured slurm-wlm source of the installed
#         slurmctld (tools/get-slurm-source.sh, run here; root the first
#         time).  The package depends on that exact slurmctld version.
#         With it, ostrich-tools (the simulator, the workload generator
#         and ostrich-whatif: no Slurm dependency, for login nodes).
#         lintian runs on both: any error or warning fails.
#   rpm   an .rpm (and its ostrich-tools subpackage, as the .deb's)
#         built with rpmbuild (packaging/ostrich-slurm.spec) for the
#         Slurm release of FILE (slurm-X.Y.Z.tar.gz or .tar.bz2): the spec
#         configures that tarball as Slurm's own slurm.spec does, for the
#         plugins' headers, and requires exactly that Slurm version.  On
#         Debian there is no slurm-devel RPM: scampaign links the libslurm
#         of tools/build-slurm.sh's build of the same tarball (cached in
#         $OST_SLURM_PREFIX_ROOT or /opt/ostrich-slurm; about half an hour
#         the first time), and rpmbuild runs with --nodeps (the build
#         dependencies are Debian packages here: tools/install-deps.sh).
#
#   --no-check          skip the Check tests inside the .deb build
#                       (DEB_BUILD_OPTIONS=nocheck; tools/test-all.sh runs
#                       them anyway)
#   --dist-tarball FILE build from this `make dist` tarball (default: a
#                       fresh `make dist` in _build/pkg/dist)
#
# Both build from the `make dist` tarball, unpacked in _build/pkg/, so a
# packaging file missing from the tarball fails here.  The version is
# configure.ac's (AC_INIT); the release names the Slurm:
#   ostrich-slurm_VERSION-1+slurmDEBVER_ARCH.deb   (DEBVER: slurmctld's
#                                                   Debian version, - and :
#                                                   written as +)
#   ostrich-tools_VERSION-1+slurmDEBVER_ARCH.deb
#   ostrich-slurm-VERSION-1.slurmX.Y.Z.ARCH.rpm
#   ostrich-tools-VERSION-1.slurmX.Y.Z.ARCH.rpm
# The packages are written to dist/; the logs stay in _build/pkg/.
# SPDX-License-Identifier: GPL-2.0-or-later
set -euo pipefail

say() { echo "package: $*"; }
die() { echo "package: error: $*" >&2; exit 1; }
usage() { sed -n '3,4p' "$0" | sed 's/^# *//' >&2; exit 2; }

top=$(cd "$(dirname "$0")/.." && pwd)
PATH=$PATH:/usr/sbin:/sbin
[ $# -ge 1 ] || usage
kind=$1
shift
check=1 slurm_tarball= dist_tarball=
while [ $# -gt 0 ]; do
	case $1 in
	--no-check) check=0 ;;
	--slurm-tarball) [ $# -ge 2 ] || usage; slurm_tarball=$(realpath "$2"); shift ;;
	--dist-tarball) [ $# -ge 2 ] || usage; dist_tarball=$(realpath "$2"); shift ;;
	*) usage ;;
	esac
	shift
done
case $kind in
deb) [ -z "$slurm_tarball" ] || die "--slurm-tarball is for rpm" ;;
rpm) [ -n "$slurm_tarball" ] || die "rpm needs --slurm-tarball FILE" ;;
*) usage ;;
esac

version=$(sed -n 's/^AC_INIT(\[ostrich\], *\[\([^]]*\)\].*/\1/p' "$top/configure.ac")
[ -n "$version" ] || die "no version in configure.ac's AC_INIT"
work=$top/_build/pkg
mkdir -p "$work" "$top/dist"
JOBS=${JOBS:-2}

# The `make dist` tarball of this tree (configured once in _build/pkg/dist,
# without the plugins: dist needs no Slurm).
dist() {
	if [ -n "$dist_tarball" ]; then
		[ "$(basename "$dist_tarball")" = "ostrich-$version.tar.gz" ] ||
			die "$dist_tarball is not ostrich-$version.tar.gz"
		TARBALL=$dist_tarball
		return
	fi
	[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi) > "$work/autoreconf.log" 2>&1 ||
		{ tail -20 "$work/autoreconf.log" >&2; die "autoreconf failed"; }
	mkdir -p "$work/dist"
	say "make dist (log: $work/dist/dist.log)"
	(cd "$work/dist" &&
		{ [ -f Makefile ] || "$top/configure" --without-slurm-source --without-scampaign; } &&
		rm -f "ostrich-$version.tar.gz" && make dist) > "$work/dist/dist.log" 2>&1 ||
		{ tail -20 "$work/dist/dist.log" >&2; die "make dist failed"; }
	TARBALL=$work/dist/ostrich-$version.tar.gz
}

# unpack DIR: the tarball's tree in DIR/ostrich-VERSION (printed).
unpack() {
	rm -rf "$1"
	mkdir -p "$1"
	tar -xzf "$TARBALL" -C "$1"
	[ -d "$1/ostrich-$version" ] || die "$TARBALL holds no ostrich-$version/"
}

# ---- deb -------------------------------------------------------------------
build_deb() {
	local debver pkgver arch src deb opts t0
	t0=$(date +%s)
	command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null &&
		command -v lintian >/dev/null ||
		die "dpkg-dev, debhelper and lintian are needed (tools/install-deps.sh)"
	"$top/tools/get-slurm-source.sh" ||
		die "the source of the installed slurm-wlm is not ready"
	debver=$(dpkg-query -W -f='${Version}' slurmctld)
	# a Debian revision has no - or : of its own (and lintian wants at
	# most two dots in it)
	pkgver=$version-1+slurm$(printf '%s' "$debver" | tr ':-' '++')
	arch=$(dpkg-architecture -qDEB_HOST_ARCH)
	dist
	unpack "$work/deb"
	src=$work/deb/ostrich-$version
	[ -x "$src/debian/rules" ] || die "$TARBALL lacks debian/ (Makefile.am's EXTRA_DIST)"
	# the one entry: this build, for this slurmctld
	cat > "$src/debian/changelog" <<-EOF
	ostrich-slurm ($pkgver) bookworm; urgency=medium

	  * ostrich $version built by tools/package.sh for slurmctld $debver.

	 -- $(sed -n 's/^Maintainer: //p' "$src/debian/control")  $(date -R)
	EOF
	opts=("parallel=$JOBS")
	[ $check = 1 ] || opts+=(nocheck)
	say "dpkg-buildpackage ostrich-slurm $pkgver (log: $work/deb/build.log)"
	(cd "$src" && DEB_BUILD_OPTIONS="${opts[*]}" nice dpkg-buildpackage -b -us -uc \
		$([ $check = 1 ] || echo -Pnocheck)) > "$work/deb/build.log" 2>&1 ||
		{ tail -40 "$work/deb/build.log" >&2; die "dpkg-buildpackage failed"; }
	deb=ostrich-slurm_${pkgver}_$arch.deb
	tools=ostrich-tools_${pkgver}_$arch.deb
	[ -f "$work/deb/$deb" ] || die "no $deb was built"
	[ -f "$work/deb/$tools" ] || die "no $tools was built"
	rm -f "$top"/dist/ostrich-slurm_*.deb "$top"/dist/ostrich-tools_*.deb
	cp "$work/deb/$deb" "$work/deb/$tools" "$top/dist/"
	for d in "$deb" "$tools"; do
		say "lintian $d"
		# the overrides ship inside the package; --fail-on: errors and
		# warnings
		lintian --fail-on error,warning --display-info "$top/dist/$d" ||
			die "lintian found errors or warnings in $d (doc/admin-guide.md, \"Packaging notes\")"
		dpkg-deb -f "$top/dist/$d" Package Version Depends
	done
	say "dist/$deb, dist/$tools ($(( $(date +%s) - t0 )) s)"
}

# ---- rpm -------------------------------------------------------------------
# The options of a spec's first %configure command, one a line, sorted.
configure_opts() {
	sed -n '/^%configure/,/[^\\]$/p' | sed 's/^[[:space:]]*//; s/[[:space:]]*\\$//' |
		grep -v -e '^%configure$' -e '^>' | LC_ALL=C sort -u
}

build_rpm() {
	local sv specver prefix topdir rpm arch missing t0
	t0=$(date +%s)
	command -v rpmbuild >/dev/null || die "rpmbuild is needed (Debian's rpm package)"
	[ -f "$slurm_tarball" ] || die "no $slurm_tarball"
	sv=$(basename "$slurm_tarball" |
		sed -n 's/^slurm-\([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\)\.tar\.\(gz\|bz2\)$/\1/p')
	[ -n "$sv" ] || die "$slurm_tarball is not a slurm-X.Y.Z.tar.gz or .tar.bz2"
	# the release is what the tarball's own slurm.spec builds
	specver=$(tar -xaOf "$slurm_tarball" "slurm-$sv/slurm.spec" 2>/dev/null |
		sed -n 's/^Version:[[:space:]]*//p' | head -1)
	[ "$specver" = "$sv" ] || die "slurm-$sv/slurm.spec in $slurm_tarball says Version ${specver:-none}"
	"$top/tools/build-slurm.sh" "$slurm_tarball" ||
		die "tools/build-slurm.sh $slurm_tarball failed"
	prefix=${OST_SLURM_PREFIX_ROOT:-/opt/ostrich-slurm}/$sv/prefix
	dist
	topdir=$work/rpm-$sv
	rm -rf "$topdir"
	mkdir -p "$topdir"/{SOURCES,SPECS,BUILD,RPMS,SRPMS}
	cp "$TARBALL" "$slurm_tarball" "$topdir/SOURCES/"
	# the spec of the tarball, not of the working tree
	tar -xzOf "$TARBALL" "ostrich-$version/packaging/ostrich-slurm.spec" \
		> "$topdir/SPECS/ostrich-slurm.spec" ||
		die "$TARBALL lacks packaging/ostrich-slurm.spec (Makefile.am's EXTRA_DIST)"
	# the spec configures Slurm with slurm.spec's %configure line: the
	# release's own line must have no option the spec's lacks
	missing=$(comm -23 \
		<(tar -xOf "$slurm_tarball" "slurm-$sv/slurm.spec" | configure_opts) \
		<(sed -n '/^# BEGIN slurm.spec configure/,/^# END/p' \
			"$topdir/SPECS/ostrich-slurm.spec" | configure_opts))
	[ -z "$missing" ] || die "slurm-$sv/slurm.spec configures with options" \
		"packaging/ostrich-slurm.spec lacks: $(echo $missing)"
	say "rpmbuild for Slurm $sv (log: $topdir/build.log)"
	nice rpmbuild -bb --nodeps \
		--define "_topdir $topdir" \
		--define "_smp_mflags -j$JOBS" \
		--define "ostrich_version $version" \
		--define "slurm_version $sv" \
		--define "slurm_tarball $(basename "$slurm_tarball")" \
		--define "slurm_prefix $prefix" \
		"$topdir/SPECS/ostrich-slurm.spec" > "$topdir/build.log" 2>&1 ||
		{ tail -40 "$topdir/build.log" >&2; die "rpmbuild failed"; }
	arch=$(rpm --eval '%{_arch}')
	rpm=ostrich-slurm-$version-1.slurm$sv.$arch.rpm
	tools=ostrich-tools-$version-1.slurm$sv.$arch.rpm
	[ -f "$topdir/RPMS/$arch/$rpm" ] || die "no $rpm was built"
	[ -f "$topdir/RPMS/$arch/$tools" ] || die "no $tools was built"
	rm -f "$top"/dist/ostrich-slurm-*.slurm"$sv".*.rpm \
		"$top"/dist/ostrich-tools-*.slurm"$sv".*.rpm
	cp "$topdir/RPMS/$arch/$rpm" "$topdir/RPMS/$arch/$tools" "$top/dist/"
	for r in "$rpm" "$tools"; do
		rpm -qip "$top/dist/$r" 2>/dev/null | sed -n 's/^\(Name\|Version\|Release\) *: /  \1: /p'
	done
	say "dist/$rpm, dist/$tools ($(( $(date +%s) - t0 )) s)"
}

case $kind in
deb) build_deb ;;
rpm) build_rpm ;;
esac
