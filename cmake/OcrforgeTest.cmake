# ocrforge_add_test(<name> SOURCES a.cpp... LIBS lib... [LABELS l...])
# One GoogleTest executable per test file; every TEST becomes its own CTest
# test (gtest_discover_tests) so failures are named individually.
include(GoogleTest)
# The environment of every test (a CMake list of NAME=VALUE). OpenMP's
# passive wait: idle LibTorch workers sleep instead of spinning, which is
# what made tests side by side under `ctest -j2` several times slower.
set(OCRFORGE_TEST_ENV "OMP_WAIT_POLICY=PASSIVE")
function(ocrforge_add_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} GTest::gtest GTest::gtest_main)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)  # test_support.h, fixtures
  target_compile_definitions(${name} PRIVATE
    OCRFORGE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    OCRFORGE_BINARY_DIR="${PROJECT_BINARY_DIR}")
  set(labels unit)
  if(T_LABELS)
    set(labels ${T_LABELS})
  endif()
  # Labels are not passed through gtest_discover_tests(PROPERTIES LABELS ...):
  # its generated scripts re-split the list, so "unit;train" became LABELS
  # unit plus a stray argument "train" and `ctest -L train` found nothing.
  # Instead a file included by ctest after the discovered tests sets them on
  # the list the discovery defines (<name>_TESTS), where the list stays whole.
  # Slow tests train or spawn worker processes on all cores: they run alone.
  set(serial "")
  if("slow" IN_LIST labels)
    set(serial " RUN_SERIAL TRUE")
  endif()
  # Every test and the processes it starts (ocrforge train, launch workers)
  # get OCRFORGE_TEST_ENV: LibTorch's OpenMP workers then sleep between
  # parallel regions instead of spinning, so two test processes sharing the
  # cores (ctest -j) do not burn each other's time. It changes no thread
  # count and no result (docs/architecture.md, Tests).
  gtest_discover_tests(${name} WORKING_DIRECTORY ${PROJECT_BINARY_DIR} DISCOVERY_TIMEOUT 60)
  set(label_file "${CMAKE_CURRENT_BINARY_DIR}/${name}_labels.cmake")
  file(WRITE "${label_file}"
    "if(DEFINED ${name}_TESTS)\n"
    "  set_tests_properties(\${${name}_TESTS} PROPERTIES LABELS \"${labels}\"${serial}\n"
    "                       ENVIRONMENT \"${OCRFORGE_TEST_ENV}\")\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${label_file}")
endfunction()
