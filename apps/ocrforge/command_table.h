// The list of ocrforge's commands, in one place: name, usage line, and which
// part of the build holds it, and the function that runs it. `ocrforge --help`, the dispatch of both
// binaries (ocrforge and ocrforge-train) and the "not in this build"
// messages all read this table.
#pragma once
#include <string>
#include <vector>

#include "commands.h"

namespace ocrforge {

enum class CommandPart {
  Reading,  // in ocrforge, no LibTorch
  Serve,    // in ocrforge when built with the HTTP layer (OCRFORGE_WITH_SERVE)
  Launch,   // in ocrforge when built with the train layer (it launches ocrforge-train)
  Torch,    // in ocrforge-train (OCRFORGE_WITH_TRAIN); ocrforge execs it
};

struct Command {
  const char* name;
  const char* args;     // what follows the name in `ocrforge --help` ("" for none)
  const char* summary;  // what it does, one line
  CommandPart part;
  // What runs it in this binary (command_table.cpp is compiled into each
  // with its own defines); nullptr when this binary does not: ocrforge then
  // execs ocrforge-train for a Torch command.
  int (*run)(const Args&);
};

const std::vector<Command>& command_table();

// `ocrforge --help`: the commands this build has.
std::string usage_text();

// The command called `name`; nullptr for none.
const Command* find_command(const std::string& name);

// Whether this build has the part (compile-time options of the build).
bool build_has(CommandPart part);

}  // namespace ocrforge
