# OCRFORGE_TSAN=ON builds everything with ThreadSanitizer, for a separate
# build folder that runs the server and pipeline tests:
#   cmake -S . -B build-tsan -DOCRFORGE_TSAN=ON -DOCRFORGE_WITH_TRAIN=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo
#   cmake --build build-tsan --target ocrforge test_serve_ocr_server test_serve_work_pool test_serve_metrics \
#     test_serve_metrics_endpoint test_serve_guarded_server test_infer_ocr_pipeline
#   (cd build-tsan && ctest -L tsan)
# ONNX Runtime, OpenCV and cpp-httplib come prebuilt (not instrumented):
# TSan sees their threads and pthread locks, not their other accesses;
# cmake/tsan.supp holds the one report that is theirs (docs/serve.md).
option(OCRFORGE_TSAN "Build with ThreadSanitizer (server and pipeline thread-safety tests)" OFF)
if(OCRFORGE_TSAN)
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=thread)
  set(OCRFORGE_TSAN_OPTIONS "suppressions=${CMAKE_CURRENT_LIST_DIR}/tsan.supp halt_on_error=1 second_deadlock_stack=1")
endif()
