// Names and bytes from outside (file names, label text, config values) on
// their way to a terminal or into a line-based file. A newline in a file
// name would split a line of system_results.txt in two; an escape sequence
// in a config value would recolour, clear or retitle the user's terminal.
// Text for people is escaped (printable); a field of a line format that is
// read back (an image path in a label file) is refused instead, since an
// escaped path would name another file (require_line_safe).
#pragma once
#include <string>

namespace ocrforge {

// True for C0 controls (0x00-0x1F), DEL (0x7F) and the UTF-8 encoded C1
// controls (U+0080-U+009F, e.g. U+009B, a one-character CSI).
bool has_control_char(const std::string& s);

// `s` with every control character written as an escape: \n \r \t, else
// \xHH (C0, DEL) or \u00HH (C1). With keep_newlines, '\n' stays (a message
// of several lines). Everything else, UTF-8 included, is kept as it is.
std::string printable(const std::string& s, bool keep_newlines = false);

// Throws Error when `field` holds a control character:
// "<what> 'a\nb.jpg' holds a control character (\n), which <format> cannot
// hold (its lines and fields would split); rename it".
void require_line_safe(const std::string& field, const std::string& what, const std::string& format);

}  // namespace ocrforge
