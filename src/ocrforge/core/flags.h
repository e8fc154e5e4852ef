// Command-line flags written the way PaddleOCR users write them:
//   --use_gpu=False   --rec_image_shape="3, 48, 320"   --use_angle_cls true
//   --use_angle_cls   (a bare boolean flag means true)
// Unknown flags fail with the closest known name. Values are kept as text and
// converted by the typed getters, which name the flag in their errors.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace ocrforge {

class FlagSet {
 public:
  enum class Kind { Text, Bool };

  explicit FlagSet(std::string command) : command_(std::move(command)) {}

  void add(const std::string& name, const std::string& default_value, const std::string& help,
           Kind kind = Kind::Text);
  void add_bool(const std::string& name, bool default_value, const std::string& help) {
    add(name, default_value ? "True" : "False", help, Kind::Bool);
  }

  // Parses args (without the program and subcommand names). Returns the
  // positional arguments. Throws UsageError on unknown flags or missing values.
  // "-h" / "--help" set help_requested().
  std::vector<std::string> parse(const std::vector<std::string>& args);

  bool help_requested() const { return help_; }
  bool was_set(const std::string& name) const;
  const std::string& get(const std::string& name) const;
  bool get_bool(const std::string& name) const;
  int get_int(const std::string& name) const;
  double get_double(const std::string& name) const;
  std::vector<int> get_int_list(const std::string& name) const;
  // Range-checked getters: a value outside the range (or NaN) is a
  // UsageError naming the flag, its value and the range.
  int get_int_at_least(const std::string& name, int min) const;
  long long get_int64_at_least(const std::string& name, long long min) const;
  // lo <= v <= hi
  double get_double_in(const std::string& name, double lo, double hi) const;
  // v > lo (an open bound: "must be > 0")
  double get_double_above(const std::string& name, double lo) const;
  // Every flag with its current value (for reports and JSON output).
  std::map<std::string, std::string> values() const;

  std::string help_text() const;

 private:
  struct Flag {
    std::string value;
    std::string default_value;
    std::string help;
    Kind kind;
    bool set = false;
  };
  const Flag& find(const std::string& name) const;

  std::string command_;
  std::map<std::string, Flag> flags_;
  std::vector<std::string> order_;
  bool help_ = false;
};

}  // namespace ocrforge
