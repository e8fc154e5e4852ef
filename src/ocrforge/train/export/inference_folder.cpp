// Writing one inference folder (inference_folder.h).
#include "ocrforge/train/export/inference_folder.h"

#include <filesystem>
#include <functional>

#include "ocrforge/core/error.h"
#include "ocrforge/onnx/onnx_writer.h"
#include "ocrforge/train/export/inference_yml.h"

namespace fs = std::filesystem;

namespace ocrforge {

namespace {

InferenceFolder write_folder(const std::string& dir, const std::function<InferenceIo(const std::string&)>& write_onnx,
                             const Config& config, const Charset* charset) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw Error("Global.save_inference_dir: cannot create '" + dir + "': " + (ec ? ec.message() : "not a folder"));
  InferenceFolder f;
  f.onnx_path = (fs::path(dir) / "inference.onnx").string();
  const InferenceIo io = write_onnx(f.onnx_path);
  check_onnx_model(f.onnx_path);
  f.yml_path = (fs::path(dir) / "inference.yml").string();
  write_inference_yml(f.yml_path, config, io, charset);
  return f;
}

}  // namespace

InferenceFolder write_inference_folder(const std::string& dir, const OnnxGraph& graph, const Config& config,
                                       const Charset* charset) {
  return write_folder(
      dir,
      [&](const std::string& path) {
        write_onnx_graph(graph, path);
        return inference_io_of(graph);
      },
      config, charset);
}

InferenceFolder write_inference_folder(const std::string& dir, const OnnxGraphModuleImpl& onnx, const Config& config,
                                       const Charset* charset) {
  return write_folder(
      dir,
      [&](const std::string& path) {
        onnx.save_onnx(path);
        return inference_io_of(read_onnx_graph(path));
      },
      config, charset);
}

}  // namespace ocrforge
