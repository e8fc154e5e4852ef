// Where an installed ocrforge keeps its data (<prefix>/share/ocrforge:
// models/, int8_calibration/), found by the library itself, so that any
// program linking it finds them wherever that program lives (docs/api.md).
#pragma once
#include <string>
#include <vector>

namespace ocrforge {

// <libdir>/../share/ocrforge (the configured datadir relative to the
// configured libdir) beside the libraries this process loaded from an
// install: the shared libocrforge_infer (a shared build), then the ONNX
// Runtime library an ocrforge install ships in its libdir (a build with the
// bundled runtime). These follow `cmake --install --prefix` to any prefix.
// Empty for a static ocrforge with a system ONNX Runtime.
std::vector<std::string> located_data_dirs();

// <CMAKE_INSTALL_PREFIX>/<datadir>/ocrforge as configured when the library
// was built: right when it was installed to the configured prefix.
std::string configured_data_dir();

}  // namespace ocrforge
