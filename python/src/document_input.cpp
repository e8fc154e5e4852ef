#include "document_input.h"

#include "input_errors.h"
#include "ocrforge/document/pdf_source.h"
#include "ocrforge/document/tiff_pages.h"

namespace ocrforge::python {

namespace {

bool bytes_look_like_pdf(std::string_view b) { return b.substr(0, 1024).find("%PDF-") != std::string_view::npos; }

bool bytes_look_like_tiff(std::string_view b) {
  if (b.size() < 4) return false;
  const auto* s = reinterpret_cast<const unsigned char*>(b.data());
  return (s[0] == 'I' && s[1] == 'I' && (s[2] == 42 || s[2] == 43) && s[3] == 0) ||
         (s[0] == 'M' && s[1] == 'M' && s[2] == 0 && (s[3] == 42 || s[3] == 43));
}

}  // namespace

Document::Document(Kind kind, std::string name, const DocumentReadParams& params)
    : kind_(kind), name_(std::move(name)), inputs_(std::make_unique<DocumentInputs>(params)) {}

std::shared_ptr<Document> Document::open_file(const std::string& path, const DocumentReadParams& params) {
  check_image_path(path);
  Kind kind;
  if (looks_like_pdf(path)) kind = Kind::pdf;
  else if (looks_like_tiff(path)) kind = Kind::tiff;
  else return nullptr;
  std::shared_ptr<Document> doc(new Document(kind, path, params));
  try {
    doc->items_ = doc->inputs_->expand_file(path);
  } catch (const Error& e) {
    // The path was checked above: what is left is about the content.
    throw BadInput(e.what());
  }
  return doc;
}

std::shared_ptr<Document> Document::open_bytes(std::string_view data, const std::string& name,
                                               const DocumentReadParams& params) {
  Kind kind;
  if (bytes_look_like_pdf(data)) kind = Kind::pdf;
  else if (bytes_look_like_tiff(data)) kind = Kind::tiff;
  else return nullptr;
  std::shared_ptr<Document> doc(new Document(kind, name, params));
  try {
    doc->items_ = doc->inputs_->expand_bytes(name, std::string(data));
  } catch (const Error& e) {
    throw BadInput(e.what());
  }
  return doc;
}

void Document::check_index(size_t i) const {
  if (i >= items_.size())
    throw BadInput("page " + std::to_string(i) + " of '" + name_ + "': it has " + std::to_string(items_.size()) +
                   " selected pages");
}

int Document::page_index(size_t i) const {
  check_index(i);
  return items_[i].page;
}

InputImage Document::decode(size_t i, const Preprocess& pre) {
  check_index(i);
  InputImage out;
  {
    std::lock_guard<std::mutex> lock(mu_);
    try {
      LoadedImage img = inputs_->decode(items_[i].key);
      out.bgr = img.bgr;
      out.scale = img.scale;
    } catch (const Error& e) {
      const std::string what = e.what();
      // Messages name the page ("'x.pdf' page 2: ..."); add it where the
      // decoder named only the file.
      throw BadInput(what.find("page") != std::string::npos ? what : items_[i].key + ": " + what);
    }
  }
  out.bgr = apply_preprocess(out.bgr, pre);
  return out;
}

}  // namespace ocrforge::python
