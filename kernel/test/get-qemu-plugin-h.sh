#!/bin/sh
# get-qemu-plugin-h.sh DIR
#
# Put the qemu-plugin.h that matches the installed Debian qemu into DIR
# (Debian ships no qemu-plugin.h). It downloads the Debian source package of
# the installed qemu version with a private apt configuration (deb-src made
# from this system's Debian entries; /etc/apt and the system lists are left
# alone) and extracts only include/qemu/qemu-plugin.h from it.
#
# Idempotent: if DIR/qemu-plugin.h already came from the same version, it
# does nothing. Needs apt-get, tar and xz, and network access to the Debian
# mirror(s) named in /etc/apt/sources.list{,.d}. Must run as root (apt).
#
# Environment: QEMU_SRC_VERSION overrides the version looked up with
# dpkg-query; KEEP_WORK=1 keeps the temporary work directory.
set -eu

die() { echo "get-qemu-plugin-h: error: $*" >&2; exit 1; }
say() { echo "get-qemu-plugin-h: $*" >&2; }

[ $# -eq 1 ] || die "usage: $0 DEST_DIR"
DEST=$1

# Source version of the installed qemu (binNMU suffix dropped by source:Version).
VER=${QEMU_SRC_VERSION:-}
if [ -z "$VER" ]; then
    for p in qemu-system-misc qemu-system-common qemu-user qemu-user-static; do
        VER=$(dpkg-query -W -f='${db:Status-Status} ${source:Version}' "$p" 2>/dev/null |
              sed -n 's/^installed //p') || true
        [ -n "$VER" ] && break
    done
fi
[ -n "$VER" ] || die "no installed Debian qemu package found (qemu-system-misc/qemu-user); set QEMU_SRC_VERSION"

STAMP="$DEST/.qemu-plugin-h.version"
if [ -f "$DEST/qemu-plugin.h" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$VER" ]; then
    say "$DEST/qemu-plugin.h already present for qemu $VER"
    exit 0
fi

for t in apt-get tar xz; do
    command -v "$t" >/dev/null 2>&1 || die "'$t' not found (apt-get install $t)"
done
[ "$(id -u)" -eq 0 ] || die "must run as root (uses apt-get with a private state dir)"

WORK=$(mktemp -d /tmp/qemu-plugin-h.XXXXXX)
cleanup() { [ "${KEEP_WORK:-0}" = 1 ] || rm -rf "$WORK"; }
trap cleanup EXIT INT TERM
mkdir -p "$WORK/lists/partial" "$WORK/cache/archives/partial" "$WORK/parts" "$WORK/src"

# deb-src entries derived from this system's Debian "deb" entries (both
# one-line and deb822 formats); only stanzas whose URIs mention debian.
SL="$WORK/sources.list"
: > "$SL"
if [ -f /etc/apt/sources.list ]; then
    sed -n 's/^[[:space:]]*deb[[:space:]]\+\(.*debian.*\)$/deb-src \1/p' /etc/apt/sources.list >> "$SL"
fi
for f in /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    sed -n 's/^[[:space:]]*deb[[:space:]]\+\(.*debian.*\)$/deb-src \1/p' "$f" >> "$SL"
done
for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v out="$WORK/parts/$(basename "$f")" '
        function flush() { if (st != "" && deb && uri ~ /debian/) print st "\n" >> out; st=""; deb=0; uri="" }
        /^[[:space:]]*$/ { flush(); next }
        /^#/ { next }
        /^Types:/ { if ($0 ~ /[[:space:]]deb([[:space:]]|$)/) deb=1; st = st "Types: deb-src\n"; next }
        /^URIs:/ { uri=$0 }
        /^Enabled:[[:space:]]*no/ { deb=0 }
        { st = st $0 "\n" }
        END { flush() }' "$f"
done
if [ ! -s "$SL" ] && [ -z "$(ls "$WORK/parts")" ]; then
    CODENAME=$( (. /etc/os-release && echo "${VERSION_CODENAME:-}") )
    [ -n "$CODENAME" ] || die "no Debian apt sources found and no VERSION_CODENAME in /etc/os-release"
    say "no Debian entries in /etc/apt; using deb.debian.org for $CODENAME"
    cat > "$SL" <<EOF
deb-src http://deb.debian.org/debian $CODENAME main
deb-src http://deb.debian.org/debian $CODENAME-updates main
deb-src http://deb.debian.org/debian-security $CODENAME-security main
EOF
fi

APTOPTS="-o Dir::Etc::SourceList=$SL -o Dir::Etc::SourceParts=$WORK/parts \
 -o Dir::State::Lists=$WORK/lists -o Dir::Cache=$WORK/cache \
 -o APT::Sandbox::User=root -o Debug::NoLocking=1"
APT="apt-get -q $APTOPTS"
APTCACHE="apt-cache $APTOPTS"

say "updating private deb-src index in $WORK"
$APT update >"$WORK/update.log" 2>&1 || { cat "$WORK/update.log" >&2; die "apt-get update (deb-src) failed"; }

cd "$WORK/src"
say "downloading source package qemu=$VER"
if ! $APT source --download-only "qemu=$VER" >"$WORK/source.log" 2>&1; then
    cat "$WORK/source.log" >&2
    # Fall back to another source version of the same upstream release
    # (e.g. the mirror already carries a newer stable update): the plugin
    # API header does not change within an upstream release.
    UP=$(echo "$VER" | sed 's/^[0-9]*://; s/[+~-].*//')
    ALT=""
    for v in $($APTCACHE showsrc qemu 2>/dev/null | sed -n 's/^Version: //p'); do
        case "$(echo "$v" | sed 's/^[0-9]*://')" in
            "$UP"[+~-]*) if [ -z "$ALT" ] || dpkg --compare-versions "$v" gt "$ALT"; then ALT=$v; fi ;;
        esac
    done
    [ -n "$ALT" ] || die "source qemu=$VER (or any qemu $UP) not found on the Debian mirror; try QEMU_SRC_VERSION"
    say "WARNING: qemu $VER not on the mirror; using source $ALT (same upstream $UP)"
    $APT source --download-only "qemu=$ALT" >"$WORK/source.log" 2>&1 ||
        { cat "$WORK/source.log" >&2; die "apt-get source qemu=$ALT failed"; }
fi

ORIG=$(ls qemu_*.orig.tar.* 2>/dev/null | head -n1)
[ -n "$ORIG" ] || die "no qemu orig tarball downloaded"
tar -xf "$ORIG" --wildcards --no-anchored 'include/qemu/qemu-plugin.h' ||
    die "include/qemu/qemu-plugin.h not found in $ORIG"
HDR=$(find . -path '*/include/qemu/qemu-plugin.h' | head -n1)
[ -n "$HDR" ] || die "include/qemu/qemu-plugin.h not found in $ORIG"

# Debian patches touching the header would have to be applied; none do in
# bookworm's 7.2, but check rather than assume.
DEBTAR=$(ls qemu_*.debian.tar.* 2>/dev/null | head -n1)
if [ -n "$DEBTAR" ]; then
    mkdir deb && tar -xf "$DEBTAR" -C deb
    if grep -rlq 'qemu/qemu-plugin\.h' deb/debian/patches 2>/dev/null; then
        say "WARNING: a Debian patch touches qemu-plugin.h:"
        grep -rl 'qemu/qemu-plugin\.h' deb/debian/patches >&2
    fi
fi

mkdir -p "$DEST"
cp "$HDR" "$DEST/qemu-plugin.h.tmp" && mv "$DEST/qemu-plugin.h.tmp" "$DEST/qemu-plugin.h"
echo "$VER" > "$STAMP"
APIV=$(sed -n 's/^#define QEMU_PLUGIN_VERSION[[:space:]]*\([0-9]*\).*/\1/p' "$DEST/qemu-plugin.h")
say "installed $DEST/qemu-plugin.h (qemu $VER, QEMU_PLUGIN_VERSION ${APIV:-?})"
