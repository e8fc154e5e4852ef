#include "ocrforge/document/alto.h"

#include <cstdio>

#include "ocrforge/document/xml_text.h"
#include "ocrforge/version.h"

namespace ocrforge {

namespace {

std::string position(const PixelBox& b) {
  return "HPOS=\"" + std::to_string(b.x0) + "\" VPOS=\"" + std::to_string(b.y0) + "\" WIDTH=\"" +
         std::to_string(b.width()) + "\" HEIGHT=\"" + std::to_string(b.height()) + "\"";
}

std::string wc(float conf) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%.2f", conf / 100.f);
  return buf;
}

}  // namespace

std::string alto_begin(const std::string& source_file, AltoVersion version) {
  const std::string ns = version == AltoVersion::v3 ? "http://www.loc.gov/standards/alto/ns-v3#"
                                                    : "http://www.loc.gov/standards/alto/ns-v4#";
  const std::string xsd = version == AltoVersion::v3 ? "http://www.loc.gov/alto/v3/alto-3-0.xsd"
                                                     : "http://www.loc.gov/alto/v4/alto-4-4.xsd";
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<alto xmlns=\"" + ns + "\" "
         "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
         "xsi:schemaLocation=\"" + ns + " " + xsd + "\">\n"
         "  <Description>\n"
         "    <MeasurementUnit>pixel</MeasurementUnit>\n"
         "    <sourceImageInformation>\n"
         "      <fileName>" +
         xml_escape(source_file) +
         "</fileName>\n"
         "    </sourceImageInformation>\n"
         "    <OCRProcessing ID=\"OCR_0\">\n"
         "      <ocrProcessingStep>\n"
         "        <processingSoftware>\n"
         "          <softwareName>ocrforge</softwareName>\n"
         "          <softwareVersion>" OCRFORGE_VERSION "</softwareVersion>\n"
         "        </processingSoftware>\n"
         "      </ocrProcessingStep>\n"
         "    </OCRProcessing>\n"
         "  </Description>\n"
         "  <Layout>\n";
}

std::string alto_page(const DocPage& page, int number, AltoVersion version) {
  const std::string p = std::to_string(version == AltoVersion::v3 ? number - 1 : number);
  const PixelBox whole{0, 0, page.info.size.width, page.info.size.height};
  std::string s = "    <Page ID=\"page_" + p + "\" PHYSICAL_IMG_NR=\"" + p + "\" WIDTH=\"" +
                  std::to_string(whole.width()) + "\" HEIGHT=\"" + std::to_string(whole.height()) + "\">\n" +
                  "      <PrintSpace " + position(whole) + ">\n";
  int b = 0, par = 0, ln = 0, wd = 0;
  for (const auto& block : page.blocks) {
    s += "        <ComposedBlock ID=\"cblock_" + p + "_" + std::to_string(++b) + "\" " + position(block.box) + ">\n";
    for (const auto& para : block.paragraphs) {
      s += "          <TextBlock ID=\"block_" + p + "_" + std::to_string(++par) + "\" " + position(para.box) + ">\n";
      for (const auto& line : para.lines) {
        s += "            <TextLine ID=\"line_" + p + "_" + std::to_string(++ln) + "\" " + position(line.box) + ">\n";
        for (size_t i = 0; i < line.words.size(); ++i) {
          const DocWord& w = line.words[i];
          s += "              <String ID=\"string_" + p + "_" + std::to_string(++wd) + "\" " + position(w.box) +
               " WC=\"" + wc(w.conf) + "\" CONTENT=\"" + xml_escape(w.text) + "\"/>\n";
          if (i + 1 < line.words.size()) {
            const PixelBox& next = line.words[i + 1].box;
            const int gap = std::max(0, next.x0 - w.box.x1);
            s += "              <SP WIDTH=\"" + std::to_string(gap) + "\" HPOS=\"" + std::to_string(w.box.x1) +
                 "\" VPOS=\"" + std::to_string(w.box.y0) + "\"/>\n";
          }
        }
        s += "            </TextLine>\n";
      }
      s += "          </TextBlock>\n";
    }
    s += "        </ComposedBlock>\n";
  }
  s += "      </PrintSpace>\n    </Page>\n";
  return s;
}

std::string alto_end() { return "  </Layout>\n</alto>\n"; }

}  // namespace ocrforge
