# ocrforge_add_test(<name> SOURCES a.cpp... LIBS lib... [LABELS l...])
# One GoogleTest executable per test file; every TEST becomes its own CTest
# test (gtest_discover_tests) so failures are named individually.
include(GoogleTest)
function(ocrforge_add_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} GTest::gtest GTest::gtest_main)
  target_compile_definitions(${name} PRIVATE
    OCRFORGE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    OCRFORGE_BINARY_DIR="${PROJECT_BINARY_DIR}")
  set(labels unit)
  if(T_LABELS)
    set(labels ${T_LABELS})
  endif()
  # gtest_discover_tests writes PROPERTIES into a generated script, where a
  # plain list would be split: "unit;train" became LABELS unit plus a bogus
  # property "train", so `ctest -L train` found nothing. Escaped, the list
  # reaches set_tests_properties whole.
  string(REPLACE ";" "\\;" labels_escaped "${labels}")
  gtest_discover_tests(${name} PROPERTIES LABELS "${labels_escaped}"
    WORKING_DIRECTORY ${PROJECT_BINARY_DIR} DISCOVERY_TIMEOUT 60)
endfunction()
