# OCRFORGE_TSAN=ON builds everything with ThreadSanitizer, for a separate
# build folder that runs the server and pipeline tests:
#   cmake -S . -B build-tsan -DOCRFORGE_TSAN=ON -DOCRFORGE_WITH_TRAIN=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo
#   cmake --build build-tsan --target test_serve_ocr_server ... ; ctest -L tsan
# ONNX Runtime, OpenCV and cpp-httplib come prebuilt (not instrumented):
# TSan sees their locks and threads through the pthread calls it
# intercepts, not their atomics; cmake/tsan.supp lists what that makes it
# report inside them (see docs/serve.md).
option(OCRFORGE_TSAN "Build with ThreadSanitizer (server and pipeline thread-safety tests)" OFF)
if(OCRFORGE_TSAN)
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=thread)
  set(OCRFORGE_TSAN_OPTIONS "suppressions=${CMAKE_CURRENT_LIST_DIR}/tsan.supp halt_on_error=1 second_deadlock_stack=1")
endif()
