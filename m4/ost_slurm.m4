dnl ost_slurm.m4 - find the Slurm the plugins are for, and its source tree
dnl SPDX-License-Identifier: GPL-2.0-or-later
dnl
dnl OST_WITH_SLURM:
dnl   --with-slurm-prefix=DIR  the Slurm install the plugins are for (a
dnl       tarball build, e.g. tools/build-slurm.sh's PREFIX_ROOT/X.Y.Z/prefix):
dnl       its sbin/slurmctld is the one the source must match, make install
dnl       puts the plugins into DIR/lib/slurm, scampaign links DIR/lib's
dnl       libslurm and the live tests run DIR's daemons.  Default: the
dnl       slurmctld installed on the system (PATH, /usr/sbin).
dnl   --with-slurm-source=DIR  the Slurm source tree of that very version.
dnl       Default: with a prefix, PREFIX/../src (tools/build-slurm.sh's
dnl       layout); without, tools/get-slurm-source.sh's locations.
dnl   --with-slurm-build=DIR   where that source was configured (holds
dnl       config.h).  Default: the source itself, or a build/ or
dnl       slurm-build/ directory next to it.
dnl   --with-slurm-plugindir=DIR  overrides where make install puts the
dnl       plugins.
dnl The version is read from the build's config.h (and the source's META
dnl when it has one); only the releases in OST_SLURM_SUPPORTED are accepted,
dnl and it must equal `slurmctld -V` exactly, as Slurm's plugin loader
dnl demands.  Sets ost_have_slurm=yes|no and substitutes SLURM_SRC,
dnl SLURM_BLD, SLURM_PLUGIN_DIR, SLURM_PREFIX, SLURM_SBINDIR, SLURM_BINDIR,
dnl OST_SLURM_VERSION ("26.05.3") and OST_SLURM_VERSION_NUM (0x1a0503, as
dnl Slurm's SLURM_VERSION_NUMBER; also defined in config.h).
m4_define([OST_SLURM_SUPPORTED], [22.05 24.11 25.11 26.05])
AC_DEFUN([OST_WITH_SLURM], [
  AC_ARG_WITH([slurm-prefix],
    [AS_HELP_STRING([--with-slurm-prefix=DIR],
      [the Slurm install the plugins are for (default: the system's slurmctld)])],
    [], [with_slurm_prefix=no])
  AC_ARG_WITH([slurm-source],
    [AS_HELP_STRING([--with-slurm-source=DIR],
      [Slurm source tree matching that slurmctld (default: search)])],
    [], [with_slurm_source=check])
  AC_ARG_WITH([slurm-build],
    [AS_HELP_STRING([--with-slurm-build=DIR],
      [directory where that source was configured (default: search)])],
    [], [with_slurm_build=check])
  AC_ARG_WITH([slurm-plugindir],
    [AS_HELP_STRING([--with-slurm-plugindir=DIR],
      [where make install puts the plugins (default: that Slurm's PluginDir)])],
    [], [with_slurm_plugindir=check])
  ost_have_slurm=no
  ost_slurm_version=
  OST_SLURM_VERSION=
  OST_SLURM_VERSION_NUM=
  SLURM_SRC=
  SLURM_BLD=
  SLURM_PREFIX=
  SLURM_SBINDIR=
  SLURM_BINDIR=

  dnl ---- the Slurm install: a prefix, or the system's ----------------------
  AS_IF([test "x$with_slurm_prefix" = xyes],
    [AC_MSG_ERROR([--with-slurm-prefix needs a directory])])
  AS_IF([test "x$with_slurm_prefix" != xno], [
    AS_IF([test -x "$with_slurm_prefix/sbin/slurmctld"], [],
      [AC_MSG_ERROR([--with-slurm-prefix=$with_slurm_prefix: no sbin/slurmctld there (build one with tools/build-slurm.sh)])])
    SLURM_PREFIX=`cd "$with_slurm_prefix" && pwd`
    SLURM_SBINDIR=$SLURM_PREFIX/sbin
    SLURM_BINDIR=$SLURM_PREFIX/bin
    SLURMCTLD=$SLURM_SBINDIR/slurmctld])

  AS_IF([test "x$with_slurm_source" = xno], [],
    [AS_IF([test "x$with_slurm_source" = xcheck -o "x$with_slurm_source" = xyes],
       [AS_IF([test -n "$SLURM_PREFIX"],
          [ost_slurm_dirs="`dirname "$SLURM_PREFIX"`/src"],
          [ost_slurm_dirs="/usr/local/src/ostrich-slurm/slurm-src /var/cache/ostrich/slurm-src"])
        for d in $ost_slurm_dirs; do
          AS_IF([test -f "$d/src/slurmctld/slurmctld.h"], [SLURM_SRC=$d; break])
        done
        AS_IF([test -z "$SLURM_SRC" && test -n "$SLURM_PREFIX"],
          [AC_MSG_ERROR([no Slurm source for $SLURM_PREFIX in $ost_slurm_dirs: pass --with-slurm-source])])],
       [SLURM_SRC=$with_slurm_source])
     AS_IF([test -n "$SLURM_SRC"], [
       AS_IF([test -f "$SLURM_SRC/src/slurmctld/slurmctld.h"], [],
         [AC_MSG_ERROR([--with-slurm-source=$SLURM_SRC is not a Slurm source tree (no src/slurmctld/slurmctld.h)])])
       SLURM_SRC=`cd "$SLURM_SRC" && pwd`
       AS_IF([test "x$with_slurm_build" != xcheck], [SLURM_BLD=$with_slurm_build],
         [ost_slurm_parent=`dirname "$SLURM_SRC"`
          for d in "$SLURM_SRC" "$ost_slurm_parent/build" "$ost_slurm_parent/slurm-build"; do
            AS_IF([test -f "$d/config.h"], [SLURM_BLD=`cd "$d" && pwd`; break])
          done])
       AS_IF([test -n "$SLURM_BLD" && test -f "$SLURM_BLD/config.h"], [],
         [AC_MSG_ERROR([no configured Slurm build (config.h) for $SLURM_SRC: run tools/get-slurm-source.sh or tools/build-slurm.sh, or pass --with-slurm-build])])

       dnl ---- the version of the source ------------------------------------
       AC_MSG_CHECKING([the Slurm version of $SLURM_SRC])
       ost_src_ver=`sed -n 's/^#define SLURM_VERSION_STRING "\(.*\)"/\1/p' "$SLURM_BLD/config.h"`
       ost_src_num=`sed -n 's/^#define SLURM_VERSION_NUMBER //p' "$SLURM_BLD/config.h" | tr -d ' \t'`
       AC_MSG_RESULT([${ost_src_ver:-unknown} (${ost_src_num:-?})])
       AS_IF([test -z "$ost_src_ver" || test -z "$ost_src_num"],
         [AC_MSG_ERROR([$SLURM_BLD/config.h has no SLURM_VERSION_STRING/SLURM_VERSION_NUMBER: not a configured Slurm build])])
       AS_IF([test -f "$SLURM_SRC/META"],
         [ost_meta_ver=`sed -n 's/^ *Version:[[ 	]]*//p' "$SLURM_SRC/META" | head -1`
          AS_IF([test -n "$ost_meta_ver" && test "x$ost_meta_ver" != "x$ost_src_ver"],
            [AC_MSG_ERROR([$SLURM_SRC/META says Slurm $ost_meta_ver but $SLURM_BLD/config.h $ost_src_ver: that build is not of this source])])])
       ost_src_series=`echo "$ost_src_ver" | sed -n 's/^\([[0-9]]*\.[[0-9]]*\)\..*/\1/p'`
       ost_supported=no
       for v in OST_SLURM_SUPPORTED; do
         AS_IF([test "x$v" = "x$ost_src_series"], [ost_supported=yes])
       done
       AS_IF([test $ost_supported = yes], [],
         [AC_MSG_ERROR([Slurm $ost_src_ver (in $SLURM_SRC) is not supported by ostrich: the plugins build for the releases OST_SLURM_SUPPORTED only (any micro version of them)])])

       dnl ---- and the slurmctld it must match, exactly -----------------------
       AS_IF([test -z "$SLURM_PREFIX"],
         [AC_PATH_PROG([SLURMCTLD], [slurmctld], [], [$PATH:/usr/sbin:/sbin])])
       AS_IF([test -n "$SLURMCTLD"], [
         AC_MSG_CHECKING([the version of $SLURMCTLD])
         ost_inst_ver=`$SLURMCTLD -V 2>/dev/null | awk '{print $[]2}'`
         AC_MSG_RESULT([${ost_inst_ver:-unknown}])
         AS_IF([test "x$ost_inst_ver" != "x$ost_src_ver"],
           [AS_IF([test -n "$SLURM_PREFIX"],
              [AC_MSG_ERROR([Slurm version mismatch: the source in $SLURM_SRC is $ost_src_ver but $SLURMCTLD is ${ost_inst_ver:-unknown}; plugins must match slurmctld exactly (pass the source of that prefix)])],
              [AC_MSG_ERROR([Slurm version mismatch: the source in $SLURM_SRC is $ost_src_ver but the installed slurmctld ($SLURMCTLD) is ${ost_inst_ver:-unknown}; plugins must match exactly (run tools/get-slurm-source.sh, or pass --with-slurm-prefix=DIR for a Slurm built elsewhere)])])])])
       ost_slurm_version=$ost_src_ver
       OST_SLURM_VERSION=$ost_src_ver
       OST_SLURM_VERSION_NUM=$ost_src_num
       ost_have_slurm=yes])
     AS_IF([test "x$ost_have_slurm" = xno && test "x$with_slurm_source" != xcheck],
       [AC_MSG_ERROR([Slurm source not found])])])

  AS_IF([test "x$with_slurm_plugindir" != xcheck],
    [SLURM_PLUGIN_DIR=$with_slurm_plugindir],
    [test -n "$SLURM_PREFIX"],
    [SLURM_PLUGIN_DIR=$SLURM_PREFIX/lib/slurm],
    [ost_ma=`dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu`
     SLURM_PLUGIN_DIR="/usr/lib/$ost_ma/slurm-wlm"])
  AS_IF([test "x$ost_have_slurm" = xyes],
    [AC_DEFINE_UNQUOTED([OST_SLURM_VERSION_NUM], [$OST_SLURM_VERSION_NUM],
      [SLURM_VERSION_NUMBER of the Slurm the plugins are built for])])
  AC_SUBST([SLURM_SRC])
  AC_SUBST([SLURM_BLD])
  AC_SUBST([SLURM_PLUGIN_DIR])
  AC_SUBST([SLURM_PREFIX])
  AC_SUBST([SLURM_SBINDIR])
  AC_SUBST([SLURM_BINDIR])
  AC_SUBST([OST_SLURM_VERSION])
  AC_SUBST([OST_SLURM_VERSION_NUM])
])
