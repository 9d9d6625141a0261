#!/bin/sh
# kernel/test/run.sh - build and boot Linux 6.12 riscv64 stock and with
# kernel/riscv/series under qemu-system-riscv64, run the KUnit suites and
# the guest /init checks, and judge the result.
#
#   kernel/test/run.sh [--full] [--bench] [WORKDIR]   (default WORKDIR: build/kernel)
#
# Stock: Debian's linux-source-6.12 + patch 0001 of the series (the KUnit
# test alone) + the harness (kernel/test/harness.c).  Patched: the whole
# series.  Boots, each under a hard timeout (the three run side by side):
#   stock          - riscv_copy and /init only: the stock kernel's failures,
#                    printed as figures (its copy routines do not read the
#                    misaligned-access key, so one stock boot covers both)
#   patched-fast   - misaligned access as QEMU's probe finds it (fast)
#   patched-slow   - fast_unaligned_access_speed_key forced off after the
#                    probe (fastcopy_harness.misaligned=slow)
# On both patched boots the kernel's memcpy and usercopy suites, riscv_copy
# and the /init write(2) check must pass.  Then the patched memcpy.S runs in
# user space under qemu-riscv64 (kernel/test/umemcpy.c, uaudit.py).
# --full: riscv_copy's exhaustive sweep (copy_kunit.full=1: every fault
# position at every size up to 256 B; about 2.5x the time).
# --bench also boots both kernels under the instruction-count plugin
# (kernel/test/insn-count.c) and writes WORKDIR/bench/tables.md
# (kernel/test/tables.py).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bench=0 full=
while [ $# -gt 0 ]; do
	case $1 in
	--bench) bench=1; shift ;;
	--full) full=copy_kunit.full=1; shift ;;
	*) break ;;
	esac
done
W=${1:-$repo/build/kernel}
mkdir -p "$W"
W=$(cd "$W" && pwd)
tarball=/usr/src/linux-source-6.12.tar.xz
boot_timeout=${FC_KERNEL_BOOT_TIMEOUT:-600}
jobs=$(nproc 2>/dev/null || echo 2)
t0=$(date +%s)

say() { echo "kernel: $*"; }
die() { echo "kernel: FAIL: $*" >&2; exit 1; }
elapsed() { echo $(( $(date +%s) - t0 )); }

for tool in qemu-system-riscv64 qemu-riscv64 riscv64-linux-gnu-gcc gcc flex bison bc cpio; do
	command -v $tool >/dev/null 2>&1 ||
		die "$tool missing: run scripts/setup-deps.sh test (as root)"
done
[ -f $tarball ] || die "$tarball missing: run scripts/setup-deps.sh test (as root)"

export ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu-
src=$W/linux-6.12
obj=$W/obj

# ---- sources: a fresh tree every run ----------------------------------------
rm -rf "$src" "$obj" "$W/stock" "$W/patched" "$W/logs"
mkdir -p "$src" "$obj" "$W/stock" "$W/patched" "$W/logs"
say "unpacking $tarball"
tar xf $tarball -C "$src" --strip-components=1
series=$repo/kernel/riscv/series
apply() {
	(cd "$src" && patch -p1 -s --dry-run <"$repo/kernel/riscv/$1" >/dev/null &&
		patch -p1 -s <"$repo/kernel/riscv/$1") || die "$1 does not apply"
}
patches=$(grep -v '^#' "$series" | grep .)
# checkpatch --strict: no errors (Signed-off-by is the submitter's to add)
for p in $patches; do
	(cd "$src" && perl scripts/checkpatch.pl --strict --no-signoff --terse \
		"$repo/kernel/riscv/$p") >"$W/logs/checkpatch-$p.log" 2>&1 || true
	grep -q ': ERROR:' "$W/logs/checkpatch-$p.log" &&
		{ cat "$W/logs/checkpatch-$p.log"; die "checkpatch --strict: errors in $p"; }
done
say "checkpatch --strict: no errors ($(cat "$W"/logs/checkpatch-*.log | grep -c ': WARNING:') warnings, $(cat "$W"/logs/checkpatch-*.log | grep -c ': CHECK:') checks)"
first=$(echo "$patches" | head -n 1)
apply "$first"
cp "$here/harness.c" "$src/lib/fastcopy_harness.c"
echo 'obj-y += fastcopy_harness.o' >>"$src/lib/Makefile"

# ---- configuration ------------------------------------------------------------
make -s -C "$src" O="$obj" tinyconfig >/dev/null
frag=$W/fragment.config
{ cat "$here/qemu-virt.config"; echo CONFIG_RISCV_COPY_KUNIT_TEST=y; } >"$frag"
"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$frag" >/dev/null
make -s -C "$src" O="$obj" olddefconfig
for opt in $(grep -o '^CONFIG_[A-Z0-9_]*=y' "$frag"); do
	grep -qx "$opt" "$obj/.config" || die "$opt did not stick in .config"
done

build() {
	say "building $1 ($(elapsed) s)"
	make -s -C "$src" O="$obj" -j"$jobs" Image >"$W/logs/build-$1.log" 2>&1 ||
		{ tail -n 30 "$W/logs/build-$1.log"; die "$1 kernel build failed"; }
	cp "$obj/arch/riscv/boot/Image" "$obj/vmlinux" "$obj/System.map" "$W/$1/"
}

# /init and the initramfs (the tree's own gen_init_cpio: no root needed)
riscv64-linux-gnu-gcc -std=c11 -O2 -Wall -Wextra -Werror -static \
	-o "$W/init" "$here/init.c"
make_initramfs() {
	printf 'dir /dev 0755 0 0\nnod /dev/console 0600 0 0 c 5 1\ndir /tmp 01777 0 0\nfile /init %s 0755 0 0\n' \
		"$W/init" >"$W/initramfs.list"
	"$obj/usr/gen_init_cpio" "$W/initramfs.list" >"$W/initramfs.cpio"
}

# boot NAME KERNELDIR APPEND [QEMU-ARGS...]: background boot, log in logs/NAME.log
boot() {
	name=$1 kdir=$2 append=$3
	shift 3
	say "booting $name ($(elapsed) s)"
	( timeout -k 10 "$boot_timeout" qemu-system-riscv64 -M virt -m 512M \
		-nographic -bios default -no-reboot "$@" \
		-kernel "$kdir/Image" -initrd "$W/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 $append" \
		>"$W/logs/$name.log" 2>&1 </dev/null
	  echo $? >"$W/logs/$name.rc" ) &
}

build stock
make_initramfs
boot stock "$W/stock" "kunit.filter_glob=riscv_copy $full"
for p in $(echo "$patches" | tail -n +2); do apply "$p"; done
build patched
boot patched-fast "$W/patched" "$full"
boot patched-slow "$W/patched" "fastcopy_harness.misaligned=slow $full"
wait
say "boots done ($(elapsed) s)"

# ---- the patched memcpy.S in user space (fastcopy's checks) ---------------------
# Assembled from the patched tree with kernel/test/compat/ as both variants
# (key off / on), then fastcopy's grid with guard pages and scripts/rv-audit's
# plugin: the key-off variant must make no misaligned access.
say "user-space checks of the patched memcpy.S ($(elapsed) s)"
ufail=0
for v in slow fast; do
	def=
	[ $v = fast ] && def=-DKMEMCPY_FAST
	riscv64-linux-gnu-gcc -c -I"$here/compat" $def -D__memcpy=kmemcpy_$v \
		-o "$W/kmemcpy_$v.o" "$src/arch/riscv/lib/memcpy.S" || ufail=1
done
riscv64-linux-gnu-gcc -std=c11 -O2 -Wall -Wextra -Werror -static -I"$repo/scripts/rv-audit" -o "$W/umemcpy" \
	"$here/umemcpy.c" "$W/kmemcpy_slow.o" "$W/kmemcpy_fast.o" || ufail=1
gcc -O2 -shared -fPIC -Wall -Wextra -o "$W/rv-audit-plugin.so" "$repo/scripts/rv-audit/plugin.c" || ufail=1
{ [ $ufail -eq 0 ] && qemu-riscv64 "$W/umemcpy" grid &&
	python3 "$here/uaudit.py" "$W/umemcpy" "$W/rv-audit-plugin.so"; } >"$W/logs/umemcpy.log" 2>&1 || ufail=1

# ---- verdicts -----------------------------------------------------------------
fail=0
echo "== user space: the patched memcpy.S"
sed 's/^/   /' "$W/logs/umemcpy.log"
[ $ufail -eq 0 ] || { fail=1; echo "   ^ FAILED"; }
suite() { # suite LOG NAME -> ok | not ok | missing
	r=$(tr -d '\r' <"$1" | sed -n "s/^\[[ 0-9.]*\] \(not ok\|ok\) [0-9]* $2\$/\1/p" | tail -n 1)
	echo "${r:-missing}"
}
for b in stock patched-fast patched-slow; do
	log=$W/logs/$b.log
	echo "== $b (qemu exit $(cat "$W/logs/$b.rc"))"
	for s in memcpy usercopy riscv_copy; do
		r=$(suite "$log" $s)
		case "$b:$s:$r" in
		stock:riscv_copy:ok) echo "   $s: $r (the stock kernel passed: unexpected)" ;;
		stock:riscv_copy:*ok) echo "   $s: $r (expected on the stock kernel: figures below)" ;;
		stock:*:missing) ;;
		patched-*:*:ok) echo "   $s: $r" ;;
		*) fail=1; echo "   $s: $r (expected ok)" ;;
		esac
	done
	tr -d '\r' <"$log" | sed -n 's/^.*# [a-z_]*: \([a-z_]*: copies=.*\)$/   \1/p' 
	if [ "$b" = stock ]; then
		grep -o 'fastcopy-init: write-livelock n=.*' "$log" | tr -d '\r' |
			sed 's/^/   /; s/FAIL$/FAIL (expected on the stock kernel)/'
	else
		grep -o 'fastcopy-init: write-livelock n=.*' "$log" | tr -d '\r' | sed 's/^/   /'
	fi
	grep -o 'fastcopy-harness: misaligned=.*' "$log" | tr -d '\r' | sed 's/^/   /'
	if [ "$b" != stock ]; then
		grep -q 'fastcopy-init: test-summary pass=3 fail=0' "$log" ||
			{ fail=1; echo "   ^ /init checks did not all pass"; }
	fi
	grep -q 'fastcopy-init: done' "$log" || { fail=1; echo "   ^ /init did not finish"; }
done

# ---- instruction counts (--bench) ---------------------------------------------
if [ $bench -eq 1 ] && [ $fail -eq 0 ]; then
	inc=$W/qemu-plugin-include
	sh "$here/get-qemu-plugin-h.sh" "$inc" >"$W/logs/plugin-header.log" 2>&1 ||
		{ cat "$W/logs/plugin-header.log"; die "no qemu-plugin.h"; }
	gcc -shared -fPIC -O2 -Wall -Wextra -Werror $(pkg-config --cflags glib-2.0) \
		-I"$inc" -o "$W/libinsn.so" "$here/insn-count.c"
	mkdir -p "$W/bench"
	# range SYMBOL VMLINUX -> START:END (END exclusive, from the ELF size)
	range() {
		riscv64-linux-gnu-nm -S "$2" | python3 -c '
import sys
for l in sys.stdin:
    f = l.split()
    if len(f) == 4 and f[3] == sys.argv[1]:
        a, n = int(f[0], 16), int(f[1], 16)
        print("%x:%x" % (a, a + n)); break
else:
    sys.exit("no symbol " + sys.argv[1])' "$1"
	}
	mark() { riscv64-linux-gnu-nm "$2" | awk -v s="$1" '$3 == s { print $1; exit }'; }
	# stock; patched with the misaligned key off (the seeds' shifted copy)
	# and on (QEMU's probe: misaligned loads)
	for k in stock patched-slow patched-fast; do
		v=$W/${k%-*}/vmlinux
		plugin="$W/libinsn.so,range=memcpy:$(range __memcpy "$v"),range=uaccess:$(range __asm_copy_to_user "$v")"
		plugin="$plugin,mark=$(mark fastcopy_bench_mark "$v"),mark=$(mark __riscv_sys_getppid "$v")"
		opt=
		[ $k = patched-slow ] && opt=fastcopy_harness.misaligned=slow
		boot "bench-$k" "$W/${k%-*}" "$opt fastcopy_harness.bench=1 kunit.enable=0 -- bench" \
			-plugin "$plugin,out=$W/bench/$k.counts"
	done
	wait
	for k in stock patched-slow patched-fast; do
		grep -q 'fastcopy-init: done' "$W/logs/bench-$k.log" ||
			{ fail=1; echo "bench-$k did not finish: $W/logs/bench-$k.log"; }
		cp "$W/logs/bench-$k.log" "$W/bench/$k.log"
	done
	[ $fail -eq 0 ] && python3 "$here/tables.py" "$W/bench"
fi

say "total $(elapsed) s"
[ $fail -eq 0 ] || die "see $W/logs"
say "PASS"
