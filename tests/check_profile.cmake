# Profiles (x86-64): selection order, a profile for another CPU, malformed
# files, FASTCOPY_TUNE and FASTCOPY_IMPL over a profile, secure execution.
# Each case runs a hooks build of fastcopy-info (FASTCOPY_TEST_SYSTEM_PROFILE
# stands in for the system path, FASTCOPY_TEST_AUXV for /proc/self/auxv) and
# checks what it reports.
#   cmake -DINFO=fastcopy-info-hooks -DAUXV=auxv_image -DWORK=dir -P check_profile.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/xdg/fastcopy ${WORK}/home/.config/fastcopy ${WORK}/sys ${WORK}/dir)
set(cases 0)

execute_process(COMMAND ${INFO} --signature OUTPUT_VARIABLE sig RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0 OR sig STREQUAL "")
  message(FATAL_ERROR "fastcopy-info --signature failed")
endif()

# run(NAME ENVS "A=1;B=2" MATCH re... [NOMATCH re...])
function(run name)
  cmake_parse_arguments(R "" "" "ENVS;MATCH;NOMATCH" ${ARGN})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=FASTCOPY_PROFILE --unset=FASTCOPY_TUNE
    --unset=FASTCOPY_IMPL --unset=XDG_CONFIG_HOME HOME=${WORK}/nohome FASTCOPY_TEST_SYSTEM_PROFILE=${WORK}/sys/none
    ${R_ENVS} ${INFO} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: fastcopy-info exited ${rc}\n${out}\n${err}")
  endif()
  foreach(re IN LISTS R_MATCH)
    if(NOT out MATCHES "${re}")
      message(FATAL_ERROR "${name}: output does not match '${re}':\n${out}${err}")
    endif()
  endforeach()
  foreach(re IN LISTS R_NOMATCH)
    if(out MATCHES "${re}")
      message(FATAL_ERROR "${name}: output matches '${re}':\n${out}")
    endif()
  endforeach()
  math(EXPR n "${cases} + 1")
  set(cases ${n} PARENT_SCOPE)
  message("ok: ${name}")
endfunction()

function(profile file body)
  file(WRITE ${file} "# test profile\nfastcopy-profile 2\ncpu ${sig}\n${body}end\n")
endfunction()

# the defaults, as fastcopy-info prints them with no profile
execute_process(COMMAND ${CMAKE_COMMAND} -E env FASTCOPY_PROFILE=off --unset=FASTCOPY_TUNE --unset=FASTCOPY_IMPL
  ${INFO} OUTPUT_VARIABLE out)
string(REGEX MATCH "entry: ([a-z0-9-]+)" _ "${out}")
set(def_entry ${CMAKE_MATCH_1})
string(REGEX MATCH "non-temporal stores [^\n]*\\(FASTCOPY_TUNE can override these\\)" def_line "${out}")
string(REPLACE " (FASTCOPY_TUNE can override these)" "" def_line "${def_line}") # the settings alone
string(REGEX REPLACE "([][().*+?^$|\\\\])" "\\\\\\1" def_re "${def_line}")
string(REPLACE ";" "." def_re "${def_re}") # a ; would split the argument lists below
if(NOT def_entry OR NOT def_line)
  message(FATAL_ERROR "could not read the defaults:\n${out}")
endif()

set(A ${WORK}/xdg/fastcopy/profile)
set(B ${WORK}/home/.config/fastcopy/profile)
set(C ${WORK}/sys/profile)
profile(${A} "impl sse2\nnt_threshold 128k\nmovsb_min 2k\nmovsb_max 512k\nmovsb_gap 64\nnt_pages 4\n")
profile(${B} "nt_threshold 256k\n")
profile(${C} "nt_threshold 512k\n")
set(ENV_ALL XDG_CONFIG_HOME=${WORK}/xdg HOME=${WORK}/home FASTCOPY_TEST_SYSTEM_PROFILE=${C})

run(profile-in-use ENVS FASTCOPY_PROFILE=${A}
  MATCH "entry: sse2  \\[profile\\]" "non-temporal stores from 128 KiB \\(4 pages interleaved\\); rep movsb window 2 KiB \\.\\. 128 KiB \\(not within 64 B"
        "sources: non-temporal threshold profile, NT streams profile, rep movsb window profile, its gap profile"
        "profile: ${A}\n")
# selection order: XDG_CONFIG_HOME, else HOME/.config, else the system profile
run(order-xdg-first ENVS ${ENV_ALL} MATCH "stores from 128 KiB" "profile: ${A}\n")
run(order-home ENVS HOME=${WORK}/home FASTCOPY_TEST_SYSTEM_PROFILE=${C} MATCH "stores from 256 KiB" "profile: ${B}\n")
run(order-xdg-relative-ignored ENVS XDG_CONFIG_HOME=xdg HOME=${WORK}/home MATCH "stores from 256 KiB")
run(order-system ENVS HOME=${WORK}/nohome FASTCOPY_TEST_SYSTEM_PROFILE=${C} MATCH "stores from 512 KiB" "profile: ${C}\n")
run(order-explicit-only ENVS ${ENV_ALL} FASTCOPY_PROFILE=${C} MATCH "stores from 512 KiB" NOMATCH "${A}")
run(order-off ENVS ${ENV_ALL} FASTCOPY_PROFILE=off MATCH "${def_re}" "profile: none in use" "FASTCOPY_PROFILE=off: no profile read")
run(order-none-found MATCH "${def_re}" "profile: none in use" "absent or unreadable")
# an XDG_CONFIG_HOME too long to read: the per-user profile skipped with a note, not HOME's taken instead
string(REPEAT "x" 600 longdir)
run(order-xdg-too-long ENVS XDG_CONFIG_HOME=/${longdir} HOME=${WORK}/home FASTCOPY_TEST_SYSTEM_PROFILE=${C}
  MATCH "stores from 512 KiB" "XDG_CONFIG_HOME: the per-user profile's path is longer than 511 bytes: skipped" NOMATCH "${B}")

# another CPU's profile: ignored, the next one in the order taken
file(WRITE ${WORK}/foreign "fastcopy-profile 2\ncpu x86-64 GenuineIntel family 0x6 model 0xcf stepping 2 features sse2\nnt_threshold 8k\nend\n")
run(foreign-explicit ENVS FASTCOPY_PROFILE=${WORK}/foreign MATCH "${def_re}" "ignored: written for another CPU \\(x86-64 GenuineIntel")
file(COPY_FILE ${WORK}/foreign ${WORK}/home/.config/fastcopy/profile)
run(foreign-home-then-system ENVS HOME=${WORK}/home FASTCOPY_TEST_SYSTEM_PROFILE=${C}
  MATCH "stores from 512 KiB" "${B}: ignored: written for another CPU")

# malformed profiles: ignored as a whole, with the reason; the defaults kept
set(bad_empty "")
set(bad_header "fastcopy-profile 3\ncpu ${sig}\nend\n")
set(bad_format1 "fastcopy-profile 1\ncpu ${sig}\nnt_threshold 64k\n")
set(bad_nocpu "fastcopy-profile 2\nnt_threshold 64k\nend\n")
set(bad_key "fastcopy-profile 2\ncpu ${sig}\nnt_threshold 64k\nturbo 1\nend\n")
set(bad_twice "fastcopy-profile 2\ncpu ${sig}\nnt_threshold 64k\nnt_threshold 128k\nend\n")
set(bad_number "fastcopy-profile 2\ncpu ${sig}\nnt_threshold 64q\nend\n")
set(bad_overflow "fastcopy-profile 2\ncpu ${sig}\nnt_threshold 99999999999999999999\nend\n")
set(bad_halfwindow "fastcopy-profile 2\ncpu ${sig}\nmovsb_min 4k\nend\n")
set(bad_window "fastcopy-profile 2\ncpu ${sig}\nmovsb_min 64k\nmovsb_max 4k\nend\n")
set(bad_gap "fastcopy-profile 2\ncpu ${sig}\nmovsb_gap 4096\nend\n")
set(bad_gap2048 "fastcopy-profile 2\ncpu ${sig}\nmovsb_gap 2048\nend\n")
set(bad_pages "fastcopy-profile 2\ncpu ${sig}\nnt_pages 2\nend\n")
set(bad_impl "fastcopy-profile 2\ncpu ${sig}\nimpl turbo\nend\n")
set(bad_partial "fastcopy-profile 2\ncpu ${sig}\nnt_threshold 64k\nnt_pages 4\nmovsb_gap x\nend\n")
set(bad_afterend "fastcopy-profile 2\ncpu ${sig}\nend\nnt_threshold 64k\nend\n")
string(REPEAT "x" 300 long)
set(bad_longline "fastcopy-profile 2\ncpu ${sig}\n# ${long}\nend\n")
profile(${WORK}/good "impl sse2\nnt_threshold 64k\nmovsb_min 2k\nmovsb_max 512k\nmovsb_gap 64\nnt_pages 4\n")
file(READ ${WORK}/good good)
string(FIND "${good}" "movsb_max" cut)
string(SUBSTRING "${good}" 0 ${cut} truncated)
set(bad_truncated "${truncated}movsb_ma")
# cut at a line boundary (every line whole: only the end line tells), and inside the cpu line
set(bad_cutline "${truncated}")
string(FIND "${good}" "cpu " cpucut)
math(EXPR cpucut "${cpucut} + 20")
string(SUBSTRING "${good}" 0 ${cpucut} cutcpu)
set(bad_cutcpu "${cutcpu}")
foreach(b empty header format1 nocpu key twice number overflow halfwindow window gap gap2048 pages impl partial afterend longline truncated cutline cutcpu)
  file(WRITE ${WORK}/bad_${b} "${bad_${b}}")
  run(malformed-${b} ENVS FASTCOPY_PROFILE=${WORK}/bad_${b} MATCH "${def_re}" "bad_${b}: ignored: " "entry: ${def_entry} ")
endforeach()
# the reasons for a cut file and a format 1 file (not "another CPU" for a cpu line cut short)
foreach(b truncated cutline cutcpu)
  run(reason-${b} ENVS FASTCOPY_PROFILE=${WORK}/bad_${b} MATCH "bad_${b}: ignored: cut short: its last line is not .end.")
endforeach()
run(reason-format1 ENVS FASTCOPY_PROFILE=${WORK}/bad_format1 MATCH "bad_format1: ignored: format 1 .* run fastcopy-tune again")
file(WRITE ${WORK}/bad_format1b "# old\n  fastcopy-profile 1\t\ncpu ${sig}\n")
run(reason-format1-blanks ENVS FASTCOPY_PROFILE=${WORK}/bad_format1b MATCH "bad_format1b: ignored: format 1 ")
# CRLF line ends, one line of exactly 255 bytes before its CR: taken
string(REPEAT "y" 253 c253)
file(WRITE ${WORK}/crlf "fastcopy-profile 2\r\ncpu ${sig}\r\n# ${c253}\r\nnt_threshold 96k\r\nend\r\n")
run(crlf-taken ENVS FASTCOPY_PROFILE=${WORK}/crlf MATCH "stores from 96 KiB" "crlf: in use")
run(reason-gap2048 ENVS FASTCOPY_PROFILE=${WORK}/bad_gap2048 MATCH "bad_gap2048: ignored: line 3: bad value for movsb_gap")
# bytes CMake cannot write: NUL, other control bytes
execute_process(COMMAND sh -c "printf 'fastcopy-profile 2\\ncpu %s\\nnt_threshold 64k\\000\\nend\\n' \"$1\" > \"$2\"" sh "${sig}" ${WORK}/bad_nul)
execute_process(COMMAND sh -c "head -c 3000 /dev/urandom > \"$1\"" sh ${WORK}/bad_binary)
execute_process(COMMAND sh -c "printf 'fastcopy-profile 2\\ncpu %s\\n\\033[31mnt_threshold 64k\\nend\\n' \"$1\" > \"$2\"" sh "${sig}" ${WORK}/bad_escape)
foreach(b nul binary escape)
  run(malformed-${b} ENVS FASTCOPY_PROFILE=${WORK}/bad_${b} MATCH "${def_re}" "bad_${b}: ignored: not a text file")
endforeach()
# too big, a directory, a FIFO (must not block)
file(READ ${WORK}/good good)
string(REPEAT "# padding padding padding padding padding padding padding padding\n" 70 pad)
file(WRITE ${WORK}/bad_big "${good}${pad}")
run(malformed-oversized ENVS FASTCOPY_PROFILE=${WORK}/bad_big MATCH "${def_re}" "ignored: larger than 4096 bytes")
run(malformed-directory ENVS FASTCOPY_PROFILE=${WORK}/dir MATCH "${def_re}" "dir: ignored: not a regular file")
execute_process(COMMAND mkfifo ${WORK}/fifo RESULT_VARIABLE rc)
if(rc EQUAL 0)
  run(malformed-fifo ENVS FASTCOPY_PROFILE=${WORK}/fifo MATCH "${def_re}" "fifo: ignored: not a regular file")
endif()
run(unreadable-path ENVS FASTCOPY_PROFILE=${WORK}/no/such/file MATCH "${def_re}" "file: absent or unreadable")

# inorder_min from a profile (0: never), and FASTCOPY_TUNE over it
profile(${WORK}/inorder "inorder_min 4k\n")
profile(${WORK}/inorder0 "inorder_min 0\n")
run(profile-inorder ENVS FASTCOPY_PROFILE=${WORK}/inorder MATCH "in-order forward path .* from 4 KiB \\(source: profile\\)")
run(profile-inorder-never ENVS FASTCOPY_PROFILE=${WORK}/inorder0 MATCH "in-order forward path .* never \\(source: profile\\)")
run(tune-inorder-over-profile ENVS FASTCOPY_PROFILE=${WORK}/inorder FASTCOPY_TUNE=inorder_min=8k
  MATCH "in-order forward path .* from 8 KiB \\(source: FASTCOPY_TUNE\\)")
# the environment over a profile: FASTCOPY_TUNE sets single settings, FASTCOPY_IMPL the entry
run(tune-over-profile ENVS FASTCOPY_PROFILE=${WORK}/good FASTCOPY_TUNE=nt_threshold=2m
  MATCH "non-temporal stores from 2 MiB \\(4 pages interleaved\\); rep movsb window 2 KiB \\.\\. 512 KiB"
        "sources: non-temporal threshold FASTCOPY_TUNE, NT streams profile, rep movsb window profile, its gap profile"
        "entry: sse2  \\[profile\\]")
run(impl-over-profile ENVS FASTCOPY_PROFILE=${WORK}/good FASTCOPY_IMPL=generic MATCH "entry: generic  \\[FASTCOPY_IMPL\\]")

# secure execution (AT_SECURE in the auxv image the hooks build reads): the
# environment and the per-user profile are ignored; the system profile only
# if root owns it and nobody else may write it
execute_process(COMMAND ${AUXV} ${WORK}/auxv-secure 1 RESULT_VARIABLE rc1)
execute_process(COMMAND ${AUXV} ${WORK}/auxv-plain 0 RESULT_VARIABLE rc2)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "auxv_image failed")
endif()
profile(${A} "impl sse2\nnt_threshold 128k\nmovsb_min 2k\nmovsb_max 512k\nmovsb_gap 64\nnt_pages 4\n")
set(SECURE_ENVS FASTCOPY_TEST_AUXV=${WORK}/auxv-secure FASTCOPY_PROFILE=${A} FASTCOPY_IMPL=generic
  FASTCOPY_TUNE=nt_threshold=2m XDG_CONFIG_HOME=${WORK}/xdg)
run(secure-ignores-environment ENVS ${SECURE_ENVS}
  MATCH "entry: ${def_entry}  .default. secure-execution process" "${def_re}" "profile: none in use"
  "FASTCOPY_TUNE is ignored in this secure-execution process")
run(not-secure-control ENVS FASTCOPY_TEST_AUXV=${WORK}/auxv-plain FASTCOPY_PROFILE=${A} FASTCOPY_IMPL=generic
  MATCH "entry: generic  \\[FASTCOPY_IMPL\\]" "stores from 128 KiB")
file(CHMOD ${C} FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
if(uid STREQUAL "0")
  run(secure-system-profile-root ENVS ${SECURE_ENVS} FASTCOPY_TEST_SYSTEM_PROFILE=${C} MATCH "stores from 512 KiB" "profile: ${C}\n")
  file(CHMOD ${C} FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ GROUP_WRITE WORLD_READ)
  run(secure-system-profile-group-writable ENVS ${SECURE_ENVS} FASTCOPY_TEST_SYSTEM_PROFILE=${C}
    MATCH "${def_re}" "ignored in this secure-execution process")
else()
  run(secure-system-profile-not-root ENVS ${SECURE_ENVS} FASTCOPY_TEST_SYSTEM_PROFILE=${C}
    MATCH "${def_re}" "ignored in this secure-execution process")
endif()
message("profiles: ${cases} cases passed")
