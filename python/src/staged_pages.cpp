// Staged pages of a split PDF: the binary format (staged_pages.h).
#include "staged_pages.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>

#include "ocrforge/core/error.h"

namespace ocrforge::python {

namespace {

const char kStageMagic[] = "OCRFORGE-STAGED-1\n";

class StageWriter {
 public:
  explicit StageWriter(std::string& out) : out_(out) {}
  template <class T>
  void pod(T v) {
    out_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void str(const std::string& s) {
    pod<uint32_t>(static_cast<uint32_t>(s.size()));
    out_ += s;
  }
  void quad(const Quad& q) {
    for (const auto& p : q) {
      pod(p.x);
      pod(p.y);
    }
  }

 private:
  std::string& out_;
};

class StageReader {
 public:
  StageReader(const std::string& in, const std::string& path) : in_(in), path_(path) {}
  template <class T>
  T pod() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, in_.data() + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  std::string str() {
    const auto n = pod<uint32_t>();
    need(n);
    std::string s = in_.substr(at_, n);
    at_ += n;
    return s;
  }
  Quad quad() {
    Quad q;
    for (auto& p : q) {
      p.x = pod<float>();
      p.y = pod<float>();
    }
    return q;
  }
  bool done() const { return at_ == in_.size(); }
  void skip(size_t n) {
    need(n);
    at_ += n;
  }

 private:
  void need(size_t n) const {
    if (at_ + n > in_.size()) throw Error("staged pages '" + path_ + "' are cut short; rerun the batch");
  }
  const std::string& in_;
  std::string path_;
  size_t at_ = 0;
};

}  // namespace

std::string staged_header() { return kStageMagic; }

void stage_page(std::string& out, const InputItem& it, const PageInfo& info, const OcrResult& r) {
  StageWriter w(out);
  w.pod<int32_t>(it.page);
  w.pod<uint8_t>(it.kind == InputItem::Kind::pdf_page);
  w.str(info.image_name);
  w.pod<double>(info.dpi_x);
  w.pod<double>(info.dpi_y);
  w.pod<int32_t>(r.image_size.width);
  w.pod<int32_t>(r.image_size.height);
  w.pod<uint32_t>(static_cast<uint32_t>(r.lines.size()));
  for (const OcrLine& l : r.lines) {
    w.quad(l.box);
    w.str(l.text);
    w.pod<float>(l.score);
    w.pod<uint32_t>(static_cast<uint32_t>(l.words.size()));
    for (const OcrWord& word : l.words) {
      w.str(word.text);
      w.quad(word.box);
      w.pod<float>(word.score);
    }
  }
}

namespace {

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read staged pages '" + path + "'; rerun the batch");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

std::vector<StagedPage> read_staged_pages(const std::string& path, const std::string& file) {
  const std::string bytes = read_whole(path);
  const size_t magic = sizeof(kStageMagic) - 1;
  if (bytes.compare(0, magic, kStageMagic) != 0) throw Error("'" + path + "' holds no staged pages; rerun the batch");
  StageReader rd(bytes, path);
  rd.skip(magic);
  std::vector<StagedPage> out;
  while (!rd.done()) {
    StagedPage p;
    p.item.file = file;
    p.item.single = false;
    p.item.page = rd.pod<int32_t>();
    p.item.kind = rd.pod<uint8_t>() ? InputItem::Kind::pdf_page : InputItem::Kind::tiff_page;
    p.info.image_name = rd.str();
    p.info.index = p.item.page;
    p.info.dpi_x = rd.pod<double>();
    p.info.dpi_y = rd.pod<double>();
    p.result.image_size.width = rd.pod<int32_t>();
    p.result.image_size.height = rd.pod<int32_t>();
    p.info.size = p.result.image_size;
    p.result.lines.resize(rd.pod<uint32_t>());
    for (OcrLine& l : p.result.lines) {
      l.box = rd.quad();
      l.text = rd.str();
      l.score = rd.pod<float>();
      l.words.resize(rd.pod<uint32_t>());
      for (OcrWord& w : l.words) {
        w.text = rd.str();
        w.box = rd.quad();
        w.score = rd.pod<float>();
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace ocrforge::python
