# AArch64 branch protection: the assembly built with -mbranch-protection=standard
# must mark each object BTI- and PAC-compatible (.note.gnu.property; one
# unmarked object unmarks the whole library at link time) and start every entry
# point that is reached through a pointer or a PLT slot with a `bti c` landing
# pad (with PROT_BTI pages, an indirect branch to anything else faults).  make
# test's own aarch64 build has no branch protection (Debian's crt objects carry
# no such note, so no library linked here could be marked), so this checks the
# objects of a second compile.
#   cmake -DOBJDUMP=... -DREADELF=... -DOBJS="a.o;b.o" -P check_bti.cmake
set(entries 0)
foreach(obj IN LISTS OBJS)
  execute_process(COMMAND ${READELF} -n ${obj} OUTPUT_VARIABLE notes RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT notes MATCHES "AArch64 feature: BTI, PAC")
    message(FATAL_ERROR "FAIL: ${obj}: no .note.gnu.property with BTI and PAC:\n${notes}")
  endif()
  execute_process(COMMAND ${OBJDUMP} -d ${obj} OUTPUT_VARIABLE asm RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${OBJDUMP} -d ${obj} failed")
  endif()
  string(REGEX MATCHALL "<fc_[a-z0-9]+_mem(cpy|move)>:\n[^\n]*\n" heads "${asm}")
  foreach(h IN LISTS heads)
    math(EXPR entries "${entries} + 1")
    if(NOT h MATCHES "\tbti[ \t]+c")
      message(FATAL_ERROR "FAIL: ${obj}: an entry point without a bti c landing pad:\n${h}")
    endif()
  endforeach()
endforeach()
if(entries LESS 4)
  message(FATAL_ERROR "FAIL: ${entries} entry points found (fc_neon_*, fc_sve_* expected)")
endif()
message(STATUS "bti: ${entries} entry points with bti c, every object marked BTI and PAC")
