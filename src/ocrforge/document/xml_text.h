// Escaping for the XML outputs (hOCR, ALTO).
#pragma once
#include <string>

namespace ocrforge {

// `s` with & < > " ' escaped, and characters XML 1.0 forbids (C0 controls
// other than tab, newline, carriage return; invalid UTF-8 bytes) replaced by
// U+FFFD, so that any recognised text makes a well-formed document.
std::string xml_escape(const std::string& s);

}  // namespace ocrforge
