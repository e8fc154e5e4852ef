// The command table (apps/ocrforge/command_table.cpp) is the one list of
// commands: every command `ocrforge --help` lists is dispatched by the
// binary that runs it (its own --help answers, exit 0), and a name not in
// the table is refused with the list.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

using namespace ocrforge;

namespace {

// The command names of `ocrforge --help`: the first word of each line under "commands:".
std::vector<std::string> listed_commands(const std::string& help) {
  std::vector<std::string> names;
  std::stringstream ss(help);
  bool in_list = false;
  for (std::string line; std::getline(ss, line);) {
    if (line == "commands:") {
      in_list = true;
      continue;
    }
    if (!in_list || line.rfind("  ", 0) != 0) {
      if (in_list && line.empty()) break;
      continue;
    }
    std::stringstream words(line);
    std::string name;
    words >> name;
    names.push_back(name);
  }
  return names;
}

}  // namespace

TEST(CommandTable, EveryListedCommandAnswersItsHelp) {
  const std::string dir = test::fresh_dir("command_table");
  const auto help = test::run_command(test::binary() + " --help", dir);
  ASSERT_EQ(help.exit_code, 0) << help.err;
  const auto names = listed_commands(help.out);
  ASSERT_GE(names.size(), 8u) << help.out;  // ocr, infer, synth, eval-det, data, tipc, ..., version
  // Subcommands are listed with their verbs (`data crop|split|cls|select`).
  EXPECT_NE(help.out.find("select"), std::string::npos) << help.out;
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const auto r = test::run_command(test::binary() + " " + name + " --help", dir);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_FALSE(r.out.empty() && r.err.empty());
    EXPECT_EQ(r.err.find("unknown command"), std::string::npos) << r.err;
  }
}

TEST(CommandTable, AnUnknownCommandIsRefusedWithTheList) {
  const std::string dir = test::fresh_dir("command_table_unknown");
  const auto r = test::run_command(test::binary() + " trian -c x.yml", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown command 'trian'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("  ocr "), std::string::npos) << r.err;
}
