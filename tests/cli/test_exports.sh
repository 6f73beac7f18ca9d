#!/bin/sh
# test_exports.sh LIBCTRITON.so: the shared library exports the public API only
# (ct_* and tl_* names: include/ctriton/export.h), and its SONAME carries the
# major version.  It fails on any other defined dynamic symbol.
set -u
LIB=$1
syms=$(nm -D --defined-only "$LIB" | awk '{print $NF}') || { echo "nm failed on $LIB"; exit 1; }
n=$(printf '%s\n' "$syms" | grep -c .)
bad=$(printf '%s\n' "$syms" | grep -v -e '^ct_' -e '^tl_')
if [ -n "$bad" ]; then
    echo "$LIB exports names outside the public API:"
    printf '%s\n' "$bad" | sed 's/^/  /'
    exit 1
fi
if [ "$n" -lt 100 ]; then
    echo "$LIB exports only $n symbols: is the public API hidden too?"
    exit 1
fi
soname=$(readelf -d "$LIB" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
case "$soname" in
libctriton.so.[0-9]*) ;;
*) echo "SONAME of $LIB is '$soname', not libctriton.so.MAJOR"; exit 1 ;;
esac
echo "$LIB: $n symbols, all ct_/tl_; SONAME $soname"
