#include "ocrforge/infer/install_dirs.h"

#include <dlfcn.h>

#include <algorithm>
#include <filesystem>

#include "ocrforge/core/process_info.h"

#ifdef OCRFORGE_BUNDLED_ORT
#include <onnxruntime_c_api.h>
#endif

// Both set by src/ocrforge/infer/CMakeLists.txt for this file only.
#if !defined(OCRFORGE_INSTALL_DATADIR) || !defined(OCRFORGE_LIBDIR_TO_DATADIR)
#error "OCRFORGE_INSTALL_DATADIR and OCRFORGE_LIBDIR_TO_DATADIR must be defined"
#endif

namespace fs = std::filesystem;

namespace ocrforge {

namespace {

// An object of this library: dladdr names the file that holds it (the
// shared library, or the executable when the library was linked statically).
const char anchor = 0;

// The file holding `addr`, symlinks resolved; empty if unknown.
fs::path object_file(const void* addr) {
  Dl_info info{};
  if (dladdr(addr, &info) == 0 || !info.dli_fname || !*info.dli_fname) return {};
  std::error_code ec;
  fs::path p = fs::canonical(info.dli_fname, ec);
  return ec ? fs::path() : p;
}

}  // namespace

std::vector<std::string> located_data_dirs() {
  // Data addresses, not functions: a function's address in a non-PIE
  // executable may be its PLT stub there.
  std::vector<fs::path> libs = {object_file(&anchor)};
#ifdef OCRFORGE_BUNDLED_ORT
  libs.push_back(object_file(OrtGetApiBase()));  // OrtApiBase is a static of libonnxruntime
#endif
  std::error_code ec;
  const std::string exe_str = executable_path();
  const fs::path exe = exe_str.empty() ? fs::path() : fs::canonical(exe_str, ec);
  std::vector<std::string> dirs;
  for (const fs::path& lib : libs) {
    if (lib.empty() || lib == exe) continue;  // the executable's folders are searched on their own
    const std::string d = (lib.parent_path() / OCRFORGE_LIBDIR_TO_DATADIR / "ocrforge").lexically_normal().string();
    if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
  }
  return dirs;
}

std::string configured_data_dir() { return OCRFORGE_INSTALL_DATADIR; }

}  // namespace ocrforge
