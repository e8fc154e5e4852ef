// Atomic whole-file writes: readers see the old file or the new one, never a
// half-written one, even if the process dies mid-write (configs, checkpoints).
#pragma once
#include <string>

namespace ocrforge {

// Writes `bytes` to `path` atomically: a temp file in the same folder (so the
// rename cannot cross file systems), fsync, rename over `path`, fsync of the
// folder. An existing file keeps its permission bits; a new one gets 0644.
// The folder must exist. Throws Error naming the path on failure, after
// removing the temp file; `path` is then untouched.
void write_file_atomic(const std::string& path, const std::string& bytes);

}  // namespace ocrforge
