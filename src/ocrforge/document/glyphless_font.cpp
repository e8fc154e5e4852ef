#include "ocrforge/document/glyphless_font.h"

#include <cstdint>
#include <map>

namespace ocrforge {

namespace {

struct Bytes {
  std::string s;
  void u16(uint32_t v) {
    s += static_cast<char>((v >> 8) & 0xFF);
    s += static_cast<char>(v & 0xFF);
  }
  void u32(uint32_t v) {
    u16(v >> 16);
    u16(v & 0xFFFF);
  }
  void zeros(size_t n) { s.append(n, '\0'); }
};

uint32_t checksum(const std::string& data) {
  uint32_t sum = 0;
  for (size_t i = 0; i < data.size(); i += 4) {
    uint32_t word = 0;
    for (size_t k = 0; k < 4; ++k)
      word = (word << 8) | (i + k < data.size() ? static_cast<unsigned char>(data[i + k]) : 0u);
    sum += word;
  }
  return sum;
}

}  // namespace

std::string glyphless_truetype() {
  constexpr int kGlyphs = 2;  // .notdef and the blank glyph every character maps to
  std::map<std::string, std::string> tables;  // sorted by tag, as the directory must be

  Bytes head;
  head.u32(0x00010000);  // version
  head.u32(0x00010000);  // fontRevision
  head.u32(0);           // checkSumAdjustment, set below
  head.u32(0x5F0F3CF5);  // magicNumber
  head.u16(0x000B);      // flags: baseline at y=0, lsb at x=0, integer scaling
  head.u16(1000);        // unitsPerEm
  head.zeros(16);        // created, modified
  head.u16(0);           // xMin
  head.u16(0);           // yMin
  head.u16(kGlyphlessAdvance);  // xMax
  head.u16(1000);        // yMax
  head.u16(0);           // macStyle
  head.u16(3);           // lowestRecPPEM
  head.u16(2);           // fontDirectionHint
  head.u16(0);           // indexToLocFormat: short offsets
  head.u16(0);           // glyphDataFormat
  tables["head"] = head.s;

  Bytes hhea;
  hhea.u32(0x00010000);
  hhea.u16(1000);  // ascender
  hhea.u16(0);     // descender
  hhea.u16(0);     // lineGap
  hhea.u16(kGlyphlessAdvance);  // advanceWidthMax
  hhea.u16(0);     // minLeftSideBearing
  hhea.u16(0);     // minRightSideBearing
  hhea.u16(0);     // xMaxExtent
  hhea.u16(1);     // caretSlopeRise
  hhea.u16(0);     // caretSlopeRun
  hhea.u16(0);     // caretOffset
  hhea.zeros(8);   // reserved
  hhea.u16(0);     // metricDataFormat
  hhea.u16(kGlyphs);  // numberOfHMetrics
  tables["hhea"] = hhea.s;

  Bytes maxp;
  maxp.u32(0x00010000);
  maxp.u16(kGlyphs);
  maxp.zeros(8);  // maxPoints, maxContours, maxCompositePoints, maxCompositeContours
  maxp.u16(2);    // maxZones
  maxp.zeros(16);  // maxTwilightPoints .. maxComponentDepth
  tables["maxp"] = maxp.s;

  Bytes hmtx;
  for (int g = 0; g < kGlyphs; ++g) {
    hmtx.u16(kGlyphlessAdvance);
    hmtx.u16(0);
  }
  tables["hmtx"] = hmtx.s;

  Bytes loca;  // every glyph empty: all offsets 0
  for (int g = 0; g <= kGlyphs; ++g) loca.u16(0);
  tables["loca"] = loca.s;
  tables["glyf"] = std::string();

  Bytes post;
  post.u32(0x00030000);  // version 3: no glyph names
  post.u32(0);           // italicAngle
  post.u16(static_cast<uint16_t>(-100));  // underlinePosition
  post.u16(50);          // underlineThickness
  post.u32(1);           // isFixedPitch
  post.zeros(16);        // memory hints
  tables["post"] = post.s;

  const uint16_t n = static_cast<uint16_t>(tables.size());
  uint16_t pow2 = 1, log2 = 0;
  while (pow2 * 2 <= n) {
    pow2 *= 2;
    ++log2;
  }
  Bytes font;
  font.u32(0x00010000);
  font.u16(n);
  font.u16(pow2 * 16u);  // searchRange
  font.u16(log2);        // entrySelector
  font.u16(n * 16u - pow2 * 16u);  // rangeShift
  uint32_t offset = 12 + 16u * n;
  std::string body;
  size_t head_at = 0;
  for (const auto& [tag, data] : tables) {
    font.s += tag;
    font.u32(checksum(data));
    font.u32(offset);
    font.u32(static_cast<uint32_t>(data.size()));
    if (tag == "head") head_at = offset;
    std::string padded = data;
    padded.append((4 - data.size() % 4) % 4, '\0');
    body += padded;
    offset += static_cast<uint32_t>(padded.size());
  }
  std::string out = font.s + body;
  // checkSumAdjustment makes the whole file sum to 0xB1B0AFBA.
  const uint32_t adjust = 0xB1B0AFBAu - checksum(out);
  for (int k = 0; k < 4; ++k) out[head_at + 8 + k] = static_cast<char>((adjust >> (24 - 8 * k)) & 0xFF);
  return out;
}

}  // namespace ocrforge
