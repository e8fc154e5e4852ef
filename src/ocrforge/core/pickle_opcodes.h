// Python pickle's opcode names, for the safe unpickler's messages: an error
// says "refused at byte 12 (INST)" rather than a byte value.
#pragma once
#include <cstdint>

namespace ocrforge {

// The name of pickle opcode `op` (protocols 0-5), nullptr for a byte that is
// no opcode.
const char* opcode_name(uint8_t op);

}  // namespace ocrforge
