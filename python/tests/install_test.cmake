# `cmake --install` of the Python component into a scratch prefix, then `import pipesim` from there (ctest
# python.install). Arguments: BUILD_DIR, PYTHON, INSTALL_DIR (PIPESIM_PYTHON_INSTALL_DIR, relative to the prefix).
set(prefix ${BUILD_DIR}/python/install-test)
file(REMOVE_RECURSE ${prefix})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --component python
                RESULT_VARIABLE result OUTPUT_QUIET)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${result}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${prefix}/${INSTALL_DIR} PYTHONDONTWRITEBYTECODE=1
                        ${PYTHON} -c "import pipesim; print(pipesim.__file__); print(len(pipesim.mappers()))"
                WORKING_DIRECTORY ${prefix} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "import pipesim from the installed package failed:\n${out}${err}")
endif()
if(NOT out MATCHES "^${prefix}/${INSTALL_DIR}/pipesim/__init__.py\n[1-9][0-9]*\n$")
  message(FATAL_ERROR "pipesim came from elsewhere or lists no mapper:\n${out}")
endif()
message(STATUS "installed and imported: ${out}")
