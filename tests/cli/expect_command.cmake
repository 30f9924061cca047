# Runs EDDY with the '|'-separated ARGS and checks its exit status (EXPECT_STATUS), that its output matches
# EXPECT_REGEX, and, when FORBIDDEN_PATH is set, that the run did not create that path.
#   cmake -DEDDY=... -DARGS="check|deck.yaml" -DEXPECT_STATUS=2 -DEXPECT_REGEX=... [-DFORBIDDEN_PATH=...] -P this
string(REPLACE "|" ";" _args "${ARGS}")
if(FORBIDDEN_PATH)
  file(REMOVE_RECURSE "${FORBIDDEN_PATH}")
endif()
execute_process(COMMAND "${EDDY}" ${_args} RESULT_VARIABLE _status OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
set(_all "${_out}${_err}")
if(NOT "${_status}" STREQUAL "${EXPECT_STATUS}")
  message(FATAL_ERROR "eddy ${ARGS}: exit status ${_status}, expected ${EXPECT_STATUS}; output:\n${_all}")
endif()
if(NOT _all MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "eddy ${ARGS}: output does not match '${EXPECT_REGEX}':\n${_all}")
endif()
if(FORBIDDEN_PATH AND EXISTS "${FORBIDDEN_PATH}")
  message(FATAL_ERROR "eddy ${ARGS}: created ${FORBIDDEN_PATH} although the input was rejected")
endif()
