#include "ocrforge/core/flags.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

void FlagSet::add(const std::string& name, const std::string& default_value, const std::string& help,
                  Kind kind) {
  if (!flags_.count(name)) order_.push_back(name);
  flags_[name] = Flag{default_value, default_value, help, kind, false};
}

static bool looks_like_bool(const std::string& v) {
  const std::string l = to_lower(trim(v));
  return l == "true" || l == "false" || l == "1" || l == "0" || l == "yes" || l == "no" ||
         l == "on" || l == "off" || l == "t" || l == "f" || l == "y" || l == "n";
}

std::vector<std::string> FlagSet::parse(const std::vector<std::string>& args) {
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") { help_ = true; continue; }
    if (!starts_with(a, "-") || a == "-") { positional.push_back(a); continue; }
    std::string body = a.substr(starts_with(a, "--") ? 2 : 1);
    std::string value;
    bool has_value = false;
    auto eq = body.find('=');
    if (eq != std::string::npos) {
      value = body.substr(eq + 1);
      body = body.substr(0, eq);
      has_value = true;
    }
    auto it = flags_.find(body);
    if (it == flags_.end()) {
      std::string hint = closest_match(body, order_);
      throw UsageError("unknown flag '--" + body + "' for '" + command_ + "'" +
                       (hint.empty() ? "" : " (did you mean --" + hint + "?)") + "; see --help");
    }
    Flag& f = it->second;
    if (!has_value) {
      if (f.kind == Kind::Bool) {
        // "--use_angle_cls true" and a bare "--use_angle_cls" both work.
        if (i + 1 < args.size() && looks_like_bool(args[i + 1])) value = args[++i];
        else value = "True";
      } else {
        if (i + 1 >= args.size()) throw UsageError("flag '--" + body + "' needs a value");
        value = args[++i];
      }
    }
    if (f.kind == Kind::Bool) parse_bool(value, "--" + body);  // validate now, fail early
    f.value = value;
    f.set = true;
  }
  return positional;
}

const FlagSet::Flag& FlagSet::find(const std::string& name) const {
  auto it = flags_.find(name);
  if (it == flags_.end()) throw Error("internal: flag '--" + name + "' was never declared");
  return it->second;
}

bool FlagSet::was_set(const std::string& name) const { return find(name).set; }
const std::string& FlagSet::get(const std::string& name) const { return find(name).value; }
bool FlagSet::get_bool(const std::string& name) const { return parse_bool(get(name), "--" + name); }
int FlagSet::get_int(const std::string& name) const { return parse_int(get(name), "--" + name); }
double FlagSet::get_double(const std::string& name) const { return parse_double(get(name), "--" + name); }
std::vector<int> FlagSet::get_int_list(const std::string& name) const {
  return parse_int_list(get(name), "--" + name);
}

static std::string num(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

int FlagSet::get_int_at_least(const std::string& name, int min) const {
  const int v = get_int(name);
  if (v < min)
    throw UsageError("--" + name + "=" + get(name) + " is out of range: it must be >= " + std::to_string(min));
  return v;
}

long long FlagSet::get_int64_at_least(const std::string& name, long long min) const {
  const std::string t = trim(get(name));
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(t.c_str(), &end, 10);
  if (t.empty() || *end != '\0' || errno == ERANGE)
    throw UsageError("--" + name + ": expected a whole number, got '" + get(name) + "'");
  if (v < min)
    throw UsageError("--" + name + "=" + get(name) + " is out of range: it must be >= " + std::to_string(min));
  return v;
}

double FlagSet::get_double_in(const std::string& name, double lo, double hi) const {
  const double v = get_double(name);
  if (!(v >= lo && v <= hi))  // written so that NaN fails too
    throw UsageError("--" + name + "=" + get(name) + " is out of range: it must be between " + num(lo) + " and " +
                     num(hi));
  return v;
}

double FlagSet::get_double_above(const std::string& name, double lo) const {
  const double v = get_double(name);
  if (!(v > lo && v < HUGE_VAL))
    throw UsageError("--" + name + "=" + get(name) + " is out of range: it must be > " + num(lo));
  return v;
}

std::map<std::string, std::string> FlagSet::values() const {
  std::map<std::string, std::string> out;
  for (const auto& [k, f] : flags_) out[k] = f.value;
  return out;
}

std::string FlagSet::help_text() const {
  std::ostringstream os;
  os << "usage: ocrforge " << command_ << " [--flag=value ...]\n\nflags (default in brackets):\n";
  for (const auto& name : order_) {
    const Flag& f = flags_.at(name);
    os << "  --" << name << " [" << f.default_value << "]\n      " << f.help << "\n";
  }
  return os.str();
}

}  // namespace ocrforge
