# The library must never call back into libc's copy routines: a compiler can
# emit memcpy/memmove/memset calls for loops or struct copies even when the
# source has none.  Checks the disassembly and the undefined symbols of the
# static and shared library.
#   cmake -DOBJDUMP=... -DNM=... -DLIBS="a;b" -P check_no_libc_calls.cmake
set(bad "memcpy|memmove|memset|bcopy|bzero|__memcpy_chk|__memmove_chk|__memset_chk|mempcpy")
set(total 0)
foreach(lib IN LISTS LIBS)
  execute_process(COMMAND ${OBJDUMP} -d ${lib} RESULT_VARIABLE rc OUTPUT_VARIABLE asm ERROR_VARIABLE e)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${OBJDUMP} -d ${lib} failed: ${e}")
  endif()
  string(REGEX MATCHALL "\n[^\n]*<(${bad})(@plt)?(\\+0x[0-9a-f]+)?>[^\n]*" hits "${asm}")
  execute_process(COMMAND ${NM} -u ${lib} OUTPUT_VARIABLE und)
  string(REGEX MATCHALL "[ \t]U (${bad})(@[^\n]*)?\n" uhits "${und}")
  string(REGEX MATCHALL "\n" insns "${asm}")
  list(LENGTH insns nlines)
  math(EXPR total "${total} + ${nlines}")
  if(hits OR uhits)
    message(FATAL_ERROR "${lib} references libc copy routines:\n${hits}\n${uhits}")
  endif()
  message("${lib}: ${nlines} disassembly lines, no call to (${bad})")
endforeach()
message("no-libc-calls: ${total} lines checked")
