cmake_policy(SET CMP0057 NEW) # IN_LIST
# Runs a test program with an environment and checks what it prints on stderr.
#   cmake -DCMD="prog;args" -DENVS="A=1;B=2" -DSTDERR_LINES=N [-DSTDERR_REGEX=re] [-DSTDOUT_REGEX=re]
#         [-DSTDERR_PRINTABLE=1] -P run_expect.cmake
# Exit status must be 0; stderr must have exactly STDERR_LINES lines (a list:
# one of those counts) and, when it has any, match STDERR_REGEX when given.
# Used for FASTCOPY_IMPL, whose warning is printed at load time, before main
# can capture anything.
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ENVS} ${CMD}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit status ${rc}\nstderr:\n${err}")
endif()
string(REGEX MATCHALL "\n" nl "${err}")
list(LENGTH nl lines)
if(NOT lines IN_LIST STDERR_LINES)
  message(FATAL_ERROR "expected ${STDERR_LINES} stderr line(s), got ${lines}:\n${err}")
endif()
if(DEFINED STDERR_REGEX AND lines GREATER 0 AND NOT err MATCHES "${STDERR_REGEX}")
  message(FATAL_ERROR "stderr does not match '${STDERR_REGEX}':\n${err}")
endif()
if(STDERR_PRINTABLE AND err MATCHES "[^ -~\n]")
  message(FATAL_ERROR "stderr holds bytes that are not printable ASCII:\n${err}")
endif()
if(DEFINED STDOUT_REGEX AND NOT out MATCHES "${STDOUT_REGEX}")
  message(FATAL_ERROR "stdout does not match '${STDOUT_REGEX}'")
endif()
message("stderr as expected (${lines} line(s)): ${err}")
