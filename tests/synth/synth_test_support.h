// Shared helpers for the synth tests: font paths of the Debian packages the
// bootstrap installs, and small parameter sets that run fast.
#pragma once
#include <filesystem>
#include <string>

#include "ocrforge/synth/params.h"
#include "test_support.h"

namespace ocrforge::test {

inline std::string dejavu_sans() { return "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"; }
inline std::string noto_cjk() { return "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"; }
inline std::string ppocr_dict() { return model_root() + "/ppocr_keys_v1.txt"; }
inline bool have_file(const std::string& p) { return std::filesystem::exists(p); }

inline SynthRecParams small_rec(const std::string& out, long num) {
  SynthRecParams p;
  p.common.out_dir = out;
  p.common.num = num;
  p.common.seed = 42;
  return p;
}

inline SynthDetParams small_det(const std::string& out, long num) {
  SynthDetParams p;
  p.common.out_dir = out;
  p.common.num = num;
  p.common.seed = 42;
  p.width = {320, 480};  // small pictures keep the tests fast
  p.height = {240, 400};
  p.font_px = {14, 36};
  return p;
}

}  // namespace ocrforge::test
