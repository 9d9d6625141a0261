#!/usr/bin/env bash
# Proves the test rig: applies deliberate one-byte / one-word bugs to a copy of
# the tree, one at a time, and requires the named suite to report FAIL.
# A mutation that no longer applies (the code moved) fails this script too,
# so the list cannot go stale silently.
#   scripts/prove-rig.sh WORKDIR [C_COMPILER]
#   scripts/prove-rig.sh WORKDIR --cross TOOLCHAIN_FILE ARCH EMULATOR [ARGS...]
# Cross (riscv64, aarch64, s390x, i686 under qemu-user): only the mutants of that
# architecture's own assembly; the portable ones are proven natively.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:?usage: prove-rig.sh WORKDIR [C_COMPILER] | WORKDIR --cross TOOLCHAIN ARCH EMULATOR...}
cc=${2:-cc}
arch=$(uname -m) emu=() cmake_args=(-DCMAKE_C_COMPILER="$cc")
if [ "$cc" = --cross ]; then
  cmake_args=(-DCMAKE_TOOLCHAIN_FILE="${3:?toolchain file}")
  arch=${4:?architecture}
  emu=("${@:5}")
fi
tree=$work/tree build=$work/build
rm -rf "$tree" && mkdir -p "$tree"
for f in "$root"/*; do # the whole source tree, without build outputs
  case ${f##*/} in build | bench-results) ;; *) cp -r "$f" "$tree/" ;; esac
done
cmake -S "$tree" -B "$build" -G Ninja "${cmake_args[@]}" >/dev/null || exit 1

# name | file | perl substitution (applied once, must change the file) | [NAME=value ...] test that must fail
mutants=()
[ ${#emu[@]} -eq 0 ] && mutants=(
  "over-write 1 byte past dst|src/portable/byte.c|s/fc_bytes_fwd\(dst, src, n\);/fc_bytes_fwd(dst, src, n + 1);/|test_grid small --impl byte"
  "over-write 1 byte before dst|src/portable/generic.c|s/    fc_align_dst_fwd\(&d, &s, &n\);/    d[-1] = s[0];\n    fc_align_dst_fwd(&d, &s, &n);/|test_grid small --impl generic"
  "over-read 1 byte past src|src/portable/byte.c|s/fc_bytes_fwd\(dst, src, n\);/fc_bytes_fwd(dst, src, n);\n    __asm__ volatile(\"\" : : \"r\"(((const volatile unsigned char *)src)[n]));/|test_grid small --impl byte"
  "over-read 1 word past src (shifted loop)|src/portable/generic.c|s/(        cur = nx;\n    \}\n)/\$1    __asm__ volatile(\"\" : : \"r\"(*(const volatile fc_word *)(sp + FC_WSIZE)));\n/|test_grid small --impl generic"
  "memmove always forward|src/portable/generic.c|s/        copy_bwd\(d, s, n\);/        copy_fwd(d, s, n);/|test_overlap --impl generic"
  "size-class boundary off by one|src/portable/generic.c|s/#define SMALL_MAX 16/#define SMALL_MAX 17/|test_grid small --impl generic"
  "wrong shift for one source offset|src/portable/generic.c|s/\(\(\(lo\) >> \(sh\)\)/(((lo) >> ((sh) == 24 ? (sh) + 8 : (sh)))/|test_grid small --impl generic"
  "one word of the 16-word block skipped|src/portable/word_coaligned.c|s/fc_block\(d, s, UNROLL\);/fc_block(d, s, UNROLL - 1);/|test_grid small --impl word-coaligned"
  "backward byte head one short|src/portable/generic.c|s/    fc_bytes_bwd\(de, se, n & FC_WMASK\);/    fc_bytes_bwd(de, se, (n & FC_WMASK) ? (n & FC_WMASK) - 1 : 0);/|test_overlap --impl generic"
  "wrong return value for n == 0|src/portable/generic.c|s/        copy_fwd\(d, s, n\);\n    return dst;/        copy_fwd(d, s, n);\n    return n ? dst : d + 1;/|test_grid small --impl generic"
  "small aligned path drops the 2-byte tail|src/portable/generic.c|s/        if \(k & 2\) fc_st16/        if (0) fc_st16/|test_random --impl generic --cases 200000 --seed 1"
  "inline: 1..3 bytes, middle byte from the wrong place|include/fastcopy/bits/headtail.h|s/fc_ht_d\[fc_ht_n >> 1\] = fc_ht_m;/fc_ht_d[fc_ht_n >> 1] = fc_ht_z;/|test_inline"
  "inline: head/tail blocks load the tail one byte early|include/fastcopy/bits/headtail.h|s/const unsigned char \*fc_ht_se = fc_ht_s \+ fc_ht_n - \(W\) \* \(K\);/const unsigned char *fc_ht_se = fc_ht_s + fc_ht_n - (W) * (K) - 1;/|test_inline"
  "inline: limit off by one (257 copied inline)|include/fastcopy/inline.h|s/if \(n > FC_INLINE_MAX\) return/if (n > FC_INLINE_MAX + 1) return/|test_inline"
  "preload: __memcpy_chk no longer checks the object size|src/preload/preload.c|s/    fc_shim_chk\(n, destlen\);\n    FC_NOTE\(4,/    FC_NOTE(4,/|LD_PRELOAD=@BUILD@/libfastcopy-preload.so test_preload chk"
  "preload: the copy before relocation one byte short|src/preload/preload.c|s/if \(!fc_shim_relocated\(\)\) return fc_generic_memmove\(dst, src, n\);\n    \/\*/if (!fc_shim_relocated()) return fc_generic_memmove(dst, src, n - (n > 0));\n    \/*/|LD_PRELOAD=@BUILD@/libfastcopy-preload.so test_ifunc_preload"
  "preload: memcpy ignores overlapping buffers|src/preload/preload.c|s/if \(__builtin_expect\(\(uintptr_t\)dst - \(uintptr_t\)src \+ n < 2 \* n, 0\)\)/if (0)/|FASTCOPY_IMPL=generic LD_PRELOAD=@BUILD@/libfastcopy-preload.so test_preload copies"
)
case $arch in # fc_copy_checked's copy on the emulated targets
  riscv64) mutants+=(
    "rv64 checked copy: count one too high|src/riscv/rv64_checked.S|s/        sub     a0, count, done\n/        sub     a0, count, done\n        addi    a0, a0, 1\n/|test_checked exact quick"
    "rv64 checked copy: shifted word merged with the wrong left shift|src/riscv/rv64_checked.S|s/        li      lshift, 64\n/        li      lshift, 56\n/|test_checked exact quick"
    "rv64 checked copy: word fault resumes one word late|src/riscv/rv64_checked.S|s/^\.Lfix_words:\n/.Lfix_words:\n        addi    done, done, 8\n/m|test_checked exact quick") ;;
  aarch64) mutants+=(
    "aarch64 checked copy: count one too high|src/aarch64/checked.S|s/        sub     x0, count, done\n/        sub     x0, count, done\n        add     x0, x0, #1\n/|test_checked exact quick"
    "aarch64 checked copy: last block ends one byte early|src/aarch64/checked.S|s/        sub     last, count, #32 /        sub     last, count, #33 /|test_checked exact quick"
    "aarch64 neon: 16..32 class stores its last 16 bytes one byte early|src/aarch64/neon.S|s/        sub     tailoff, count, #16 /        sub     tailoff, count, #17 /|test_grid small --offsets 8 --impl neon"
    "aarch64 neon: forward large copy stores its first 16 bytes one byte late|src/aarch64/neon.S|s/        str     I_q, \[dstin\]/        str     I_q, [dstin, #1]/|test_grid small --offsets 8 --impl neon"
    "aarch64 neon: backward loop steps src 16 bytes short|src/aarch64/neon.S|s/        ldp     A_q, B_q, \[src_blk, #-64\]!/        ldp     A_q, B_q, [src_blk, #-48]!/|test_overlap --impl neon"
    "aarch64 sve: up to 2 VL, the second vector's predicate empty|src/aarch64/sve.S|s/        whilelo B_p.b, vlen, count/        whilelo B_p.b, vlen, vlen/|test_grid small --offsets 8 --impl sve"
    "aarch64 sve: 4VL+1..8VL, the last vector stored from the wrong register|src/aarch64/sve.S|s/        str     H_z, \[dstend, #-1, mul vl\]/        str     G_z, [dstend, #-1, mul vl]/|test_grid small --offsets 8 --impl sve"
    "aarch64 sve: forward, the preloaded last vector stored from the wrong register|src/aarch64/sve.S|s/        str     P_z, \[dstend, #-1, mul vl\]/        str     O_z, [dstend, #-1, mul vl]/|test_grid small --offsets 8 --impl sve"
    "aarch64 sve: backward, a block's lowest vector stored from the wrong register|src/aarch64/sve.S|s/        str     A_z, \[dstend\]/        str     B_z, [dstend]/|test_overlap --impl sve") ;;
  s390x) mutants+=(
    "s390x checked copy: count one too high|src/s390x/checked.S|s/        sgr     %r2, done\n/        sgr     %r2, done\n        aghi    %r2, 1\n/|test_checked exact quick"
    "s390x checked copy: second move of a block stores one byte late|src/s390x/checked.S|s/        stg     %r0, 8\(done, dst\)/        stg     %r0, 9(done, dst)/|test_checked exact quick") ;;
  i686) mutants+=(
    "i386 checked copy: count one too high|src/i386/checked.S|s/        subl    done, %eax\n/        subl    done, %eax\n        incl    %eax\n/|test_checked exact quick"
    "i386 checked copy: third move of a block loads one byte late|src/i386/checked.S|s/        movl    8\(src, done\), %eax/        movl    9(src, done), %eax/|test_checked exact quick") ;;
esac
if [ "$arch" = x86_64 ] && [ ${#emu[@]} -eq 0 ]; then # the x86-64 routines (one template, both widths)
  mutants+=(
    "x86 backward loop tail one byte short|src/x86/vec_copy.h|s/    FC_LST\(n - FC_LW, t\);\n    return d;/    FC_LST(n - FC_LW - 1, t);\n    return d;/|test_overlap --impl avx2"
    "x86 8-vector block boundary off by one|src/x86/vec_copy.h|s/    if \(n <= 8 \* FC_W\) \{/    if (n <= 8 * FC_W + 1) {/|test_grid small --impl sse2"
    "x86 non-temporal loop skips its last block|src/x86/vec_copy.h|s/while \(\(size_t\)\(dend - dp\) >= 4 \* FC_LW\) \{\n        if \(FC_NT_PREFETCH\)/while ((size_t)(dend - dp) >= 8 * FC_LW) {\n        if (FC_NT_PREFETCH)/|FASTCOPY_TUNE=nt_threshold=1,nt_pages=1 test_grid large --impl avx2"
    "x86 non-temporal 4-page interleave drops one vector|src/x86/vec_copy.h|s/for \(size_t k = 0; k < 4; k\+\+\) FC_LSTREAM\(/for (size_t k = 0; k < 4; k++) if (p * 4 + k != 15) FC_LSTREAM(/|FASTCOPY_TUNE=nt_threshold=1,nt_pages=4 test_grid large --impl sse2"
    "x86 rep movsb window copies one byte short|src/x86/vec_copy.h|s/fc__rep_movsb\(d \+ head, s \+ head, n - head\);/fc__rep_movsb(d + head, s + head, n - head - 1);/|FASTCOPY_TUNE=movsb_min=1,movsb_max=1g test_grid small --impl avx2"
    "x86 page split: second half starts one byte late|src/x86/vec_copy.h|s/    fc_copy_le8w\(d \+ p, s \+ p, n - p\);/    fc_copy_le8w(d + p + 1, s + p + 1, n - p - 1);/|test_grid small --impl avx2"
    "x86 page-safe edges: backward head's aligned vectors stop one early|src/x86/vec_copy.h|s/for \(dp -= FC_LW; dp > d; dp -= FC_LW\)/for (dp -= FC_LW; dp > d + FC_LW; dp -= FC_LW)/|test_grid small --impl avx2"
    "x86 page-safe edges: backward tail above the boundary one byte short|src/x86/vec_copy.h|s/fc_copy_lt64\(dend - r, s \+ n - r, r\);/fc_copy_lt64(dend - r, s + n - r, r - 1);/|test_grid small --impl sse2"
    "x86 page-safe edges: forward tail above the boundary one byte short|src/x86/vec_copy.h|s/fc_copy_lt64\(dp, s \+ \(dp - d\), \(size_t\)\(dend - dp\)\);/fc_copy_lt64(dp, s + (dp - d), (size_t)(dend - dp) - 1);/|test_grid small --impl avx2"
    "x86 page-safe edges: loop head below the boundary one byte short|src/x86/vec_copy.h|s/fc_copy_lt64\(d, s, 4096 - \(\(uintptr_t\)d & 4095\)\);/fc_copy_lt64(d, s, 4095 - ((uintptr_t)d \& 4095));/|test_grid small --impl avx2"
    "x86 4..16 class: 8-byte moves taken at n = 7|src/x86/vec_copy.h|s/cmpq \\\$8, %\[n\]/cmpq \\\$7, %[n]/|test_grid small --impl sse2"
    "x86 4..16 class taken at n = 17|src/x86/vec_copy.h|s/    if \(n <= 16\) \{/    if (n <= 17) {/|test_grid small --impl sse2"
    "x86 17..63 class: middle moves too far apart|src/x86/vec_copy.h|s/a = \(m \* 11\) >> 5/a = (m * 3) >> 3/|test_grid small --impl sse2"
    "x86 memmove short overlapping moves: 8..15 B last move from one byte early|src/x86/vec_copy.h|s/            fc_move_8x2\(d, s, n\);/            fc_move_8x2(d, s, n), fc_move_8x2(d + n - 8, s + n - 9, 8);/|test_overlap --impl sse2"
    "x86 in-order forward (dst just behind src): last bytes one short|src/x86/vec_copy.h|s/fc_copy_lt64\(dp, sp, \(size_t\)\(dend - dp\)\);/fc_copy_lt64(dp, sp, (size_t)(dend - dp) - (dend - dp > 1));/|test_grid large --impl avx2"
    "x86 memmove page-safe backward tail: bytes above the boundary one short|src/x86/vec_copy.h|s/fc_copy_lt64\(dend - r, s \+ n - r, r\); \/\* the bytes above/fc_copy_lt64(dend - r, s + n - r, r - 1); \/* the bytes above/|test_overlap --impl avx2"
    "x86 memmove page-safe forward head: bytes below the boundary one short|src/x86/vec_copy.h|s/fc_copy_lt64\(d, s, p\); \/\* the bytes below/fc_copy_lt64(d, s, p - 1); \/* the bytes below/|test_overlap --impl sse2"
    "checked copy: count one too high|src/x86/checked.S|s/        sub     done, %rax\n        ret/        sub     done, %rax\n        inc     %rax\n        ret/|test_checked exact quick"
    "checked copy: the loop starts 64 bytes late|src/x86/checked.S|s/        cmp     fc__x86_tune\+FC_TUNE_SPECIAL_MIN\(%rip\), n\n/        add     \\\$64, done\n        cmp     fc__x86_tune+FC_TUNE_SPECIAL_MIN(%rip), n\n/|test_checked exact quick"
    "checked copy: rep movsb's fixup resumes one byte late|src/x86/checked.S|s/        sub     %rcx, done\n/        sub     %rcx, done\n        inc     done\n/|FASTCOPY_TUNE=movsb_min=0,movsb_max=1m,movsb_gap=0 test_checked exact quick"
    "checked copy: a fault outside it not passed on|src/checked/checked.c|s/        p->sa_sigaction\(sig, info, ucontext\);/        return;/|test_checked chain-siginfo"
    "checked copy: SIG_DFL not restored (the fault loops)|src/checked/checked.c|s/    sigaction\(sig, &dfl, NULL\);/    (void)dfl;/|test_checked die-dfl SEGV"
    "checked copy: a SA_RESETHAND handler called on every fault|src/checked/checked.c|s/int handler = fc_is_handler\(p\) && !spent;/int handler = fc_is_handler(p);/|test_checked resethand siginfo SEGV"
    "checked copy: the previous handler runs with its signal unblocked|src/checked/checked.c|s/if \(!\(p->sa_flags & SA_NODEFER\)\) \{/if (0) {/|test_checked refault"
    "checked copy: an interrupted installation keeps its own handler as the previous one|src/checked/checked.c|s/if \(!fc_is_ours\(&old\)\) fc__copy_bytes/fc__copy_bytes/|test_first_use checked-signal"
    "x86 avx2 asm 17..64 class: middle moves 8 bytes too far in|src/x86/avx2_ladder.S|s/and     \\\$16, mid_lo_d/and     \\\$24, mid_lo_d/|test_grid small --impl avx2"
    "x86 avx2 asm 4..16 class: 8-byte moves taken at n = 7|src/x86/avx2_ladder.S|s/        cmp     \\\$8, n\n        cmovae/        cmp     \\\$7, n\n        cmovae/|test_grid small --impl avx2"
    "x86 avx2 asm 129..256 class: last vector stored one byte late|src/x86/avx2_ladder.S|s/vmovdqu %ymm7, -32\(dst, n\)/vmovdqu %ymm7, -31(dst, n)/|test_grid small --impl avx2"
    "x86 avx2 asm memmove, overlapping 33..64: last 32 loaded one byte early|src/x86/avx2_ladder.S|s/(33..64: first and last 32 \*\/\n        vmovdqu )-32/\${1}-33/|test_overlap --impl avx2"
    "x86 4K-aliasing rule ignores overlap|src/x86/vec_copy.h|s/    if \(\(uintptr_t\)s - \(uintptr_t\)d < n\) \/\* src in/    if (0) \/* src in/|test_overlap --impl sse2"
  )
  if grep -qw avx512f /proc/cpuinfo; then # the W = 64 build (its 2-vector class is 64..128)
    mutants+=(
      "x86 avx512 64..128 class taken at n = 129|src/x86/vec_copy.h|s/if \(__builtin_expect\(n <= 2 \* FC_W, 1\)\)/if (__builtin_expect(n <= 2 * FC_W + 1, 1))/|test_grid small --impl avx512"
      "x86 avx512-ymmloop: loop loads one byte late from odd addresses|src/x86/avx512_ymmloop.c|s/#define FC_LLOADU\(p\) _mm256_loadu_si256\(p\)/#define FC_LLOADU(p) _mm256_loadu_si256((const __m256i *)((const char *)(p) + ((uintptr_t)(p) & 1)))/|test_grid small --impl avx512-ymmloop"
      "x86 avx512 64..128 class (zmm16-23 asm): last vector stored one byte late|src/x86/vec_copy.h|s/FC_HZ_STE\(\"17\", \"-64\"\)/FC_HZ_STE(\"17\", \"-63\")/|test_grid small --impl avx512"
      "x86 avx512 129..256 class (zmm16-23 asm): third vector loaded one byte late|src/x86/vec_copy.h|s/FC_HZ_LDE\(\"18\", \"-128\"\)/FC_HZ_LDE(\"18\", \"-127\")/|test_grid small --impl avx512"
      "x86 avx512-ymmloop 5W+1..6W: next-to-last vector stored one byte late|src/x86/vec_copy.h|s/FC_ST\(n - 2 \* FC_W, y\);\n        \}/FC_ST(n - 2 * FC_W + 1, y);\n        }/|test_grid small --impl avx512-ymmloop"
      "x86 avx512-ymmloop: 2-vector tail taken at n = 6W+1|src/x86/vec_copy.h|s/    if \(n <= 6 \* FC_W\) \{/    if (n <= 6 * FC_W + 1) {/|test_grid small --impl avx512-ymmloop"
    )
  else
    echo "prove-rig: no AVX-512 on this CPU: the 6 avx512 mutants are not run"
  fi
  if grep -qw avx512bw /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo; then # avx512-masked's own class
    mutants+=(
      "x86 avx512-masked: the mask one byte short|src/x86/vec_copy.h|s/_bzhi_u64\(~0ull, \(unsigned\)n\)/_bzhi_u64(~0ull, (unsigned)n - (n > 1))/|test_grid small --impl avx512-masked"
    )
  else
    echo "prove-rig: no AVX-512BW/BMI2 on this CPU: the avx512-masked mutant is not run"
  fi
fi

caught=0 missed=0 stale=0
for m in "${mutants[@]}"; do
  IFS='|' read -r name file subst testcmd <<<"$m"
  cp "$root/$file" "$tree/$file"
  perl -0pi -e "$subst" "$tree/$file"
  if cmp -s "$root/$file" "$tree/$file"; then
    echo "STALE   $name: the mutation no longer applies to $file"
    stale=$((stale + 1))
    continue
  fi
  set -- $testcmd
  envs=() # leading NAME=value words: environment for the test run
  while [ $# -gt 0 ] && [[ $1 == *=* ]]; do envs+=("${1//@BUILD@/$build}"); shift; done
  if ! cmake --build "$build" --target "$1" >"$work/build.log" 2>&1; then
    echo "STALE   $name: the mutant does not compile"; tail -n 5 "$work/build.log"
    stale=$((stale + 1))
  else
    bin=$build/tests/$1; shift
    out=$(timeout 300 env "${envs[@]}" "${emu[@]}" "$bin" "$@" 2>&1); rc=$?
    line=$(grep -m1 '^FAIL' <<<"$out")
    if [ $rc -ne 0 ] && [ -n "$line" ]; then
      echo "caught  $name -> ${bin##*/} $* : ${line:0:150}"
      caught=$((caught + 1))
    else
      echo "MISSED  $name: '${bin##*/} $*' passed (rc $rc)"
      missed=$((missed + 1))
    fi
  fi
  cp "$root/$file" "$tree/$file"
done
echo "prove-rig: ${#mutants[@]} mutants, $caught caught, $missed missed, $stale stale"
[ $missed -eq 0 ] && [ $stale -eq 0 ]
