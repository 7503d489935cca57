dnl ost_slurm.m4 - find a configured Slurm source tree for the plugins
dnl SPDX-License-Identifier: GPL-2.0-or-later
dnl
dnl OST_WITH_SLURM: --with-slurm-source=DIR names the Slurm source tree
dnl matching the installed slurmctld; --with-slurm-build=DIR the directory
dnl where that source was configured (holds config.h; default DIR itself, or
dnl slurm-build next to DIR as tools/get-slurm-source.sh lays it out, DIR
dnl being a symlink there).  Without the
dnl option, tools/get-slurm-source.sh's default location is tried.  Sets
dnl ost_have_slurm=yes|no, SLURM_SRC, SLURM_BLD, SLURM_PLUGIN_DIR.
AC_DEFUN([OST_WITH_SLURM], [
  AC_ARG_WITH([slurm-source],
    [AS_HELP_STRING([--with-slurm-source=DIR],
      [Slurm source tree matching the installed slurmctld (default: search)])],
    [], [with_slurm_source=check])
  AC_ARG_WITH([slurm-build],
    [AS_HELP_STRING([--with-slurm-build=DIR],
      [directory where that source was configured (default: search)])],
    [], [with_slurm_build=check])
  AC_ARG_WITH([slurm-plugindir],
    [AS_HELP_STRING([--with-slurm-plugindir=DIR],
      [where make install puts the plugins (default: slurmctld's PluginDir)])],
    [], [with_slurm_plugindir=check])
  ost_have_slurm=no
  ost_slurm_version=
  SLURM_SRC=
  SLURM_BLD=
  AS_IF([test "x$with_slurm_source" = xno], [],
    [AS_IF([test "x$with_slurm_source" = xcheck -o "x$with_slurm_source" = xyes],
       [for d in /usr/local/src/ostrich-slurm/slurm-src /var/cache/ostrich/slurm-src; do
          AS_IF([test -f "$d/src/slurmctld/slurmctld.h"], [SLURM_SRC=$d; break])
        done],
       [SLURM_SRC=$with_slurm_source])
     AS_IF([test -n "$SLURM_SRC"], [
       AS_IF([test -f "$SLURM_SRC/src/slurmctld/slurmctld.h"], [],
         [AC_MSG_ERROR([--with-slurm-source=$SLURM_SRC is not a Slurm source tree (no src/slurmctld/slurmctld.h)])])
       SLURM_SRC=`cd "$SLURM_SRC" && pwd`
       AS_IF([test "x$with_slurm_build" != xcheck], [SLURM_BLD=$with_slurm_build],
         [ost_slurm_parent=`dirname "$SLURM_SRC"`
          for d in "$SLURM_SRC" "$ost_slurm_parent/slurm-build"; do
            AS_IF([test -f "$d/config.h"], [SLURM_BLD=`cd "$d" && pwd`; break])
          done])
       AS_IF([test -n "$SLURM_BLD" && test -f "$SLURM_BLD/config.h"], [],
         [AC_MSG_ERROR([no configured Slurm build (config.h) for $SLURM_SRC: run tools/get-slurm-source.sh or pass --with-slurm-build])])
       ost_src_ver=`sed -n 's/^#define SLURM_VERSION_STRING "\(.*\)"/\1/p' "$SLURM_BLD/config.h"`
       AC_PATH_PROG([SLURMCTLD], [slurmctld], [], [$PATH:/usr/sbin:/sbin])
       AS_IF([test -n "$SLURMCTLD"], [
         ost_inst_ver=`$SLURMCTLD -V 2>/dev/null | awk '{print $[]2}'`
         AS_IF([test "x$ost_inst_ver" != "x$ost_src_ver"],
           [AC_MSG_ERROR([Slurm version mismatch: the source in $SLURM_SRC is $ost_src_ver but the installed slurmctld is $ost_inst_ver; plugins must match exactly (run tools/get-slurm-source.sh)])])])
       ost_slurm_version=$ost_src_ver
       ost_have_slurm=yes])
     AS_IF([test "x$ost_have_slurm" = xno && test "x$with_slurm_source" != xcheck],
       [AC_MSG_ERROR([Slurm source not found])])])
  AS_IF([test "x$with_slurm_plugindir" = xcheck],
    [ost_ma=`dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu`
     SLURM_PLUGIN_DIR="/usr/lib/$ost_ma/slurm-wlm"],
    [SLURM_PLUGIN_DIR=$with_slurm_plugindir])
  AC_SUBST([SLURM_SRC])
  AC_SUBST([SLURM_BLD])
  AC_SUBST([SLURM_PLUGIN_DIR])
])
