// Which keys of a config were read, and which were not.
//
// A config key is known because some reader reads it, not because a table
// says so: while a ConfigReadScope is active on a thread, every typed read of
// the config layer (Config::get / require / has, read_key, config_detail::convert,
// and the train layer's helpers built on them) records the full key path it
// looked at, present or not. After the reading pass, unknown_keys() walks
// the YAML tree and names every key that no reader looked at, with the
// closest key that was looked at in the same map as a suggestion:
//
//   ConfigReads reads;
//   {
//     ConfigReadScope scope(reads);
//     TrainerSpec spec = trainer_spec_from_config(config);   // ... every reader
//   }
//   reads.throw_if_unknown(config.root(), config.origin());
//
// Paths are dotted ("Optimizer.lr.warmup_epoch"); list items may be written
// with their index ("Train.dataset.transforms[0].DecodeImage.img_mode") or
// without it ("Train.dataset.transforms.DecodeImage.img_mode"): indices are
// ignored when matching, so a key read in one item of a list is known in
// every item of that list.
//
// A map is known key by key: a section whose keys nobody read has every key
// unknown. A value a reader takes whole (a structured value it checks
// itself, or one ocrforge copies without reading) is marked with
// note_config_whole() and is known with everything below it.
#pragma once
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace ocrforge {

class ConfigReads {
 public:
  // Records a key looked up (present or not). `path` may carry "[i]" indices.
  void note(const std::string& path);
  // Records a key whose value is known with everything below it.
  void note_whole(const std::string& path);
  // Keys accepted although no reader reads them (PaddleOCR keys ocrforge
  // deliberately ignores). Paths without indices.
  void accept_ignored(const std::vector<std::string>& paths);
  // Sections or keys this run does not read at all (evaluation does not read
  // Train): everything below them is taken as known.
  void excuse(const std::string& path);

  // One message per key of `root` that nothing read, in document order:
  //   unknown config key 'Optimizer.lr.warmup_epochs' (did you mean 'Optimizer.lr.warmup_epoch'?)
  //   unknown config key 'Global.zzz' (known: use_gpu, use_xpu, ...)
  // `path` names where `root` sits in the config ("" for a whole config).
  std::vector<std::string> unknown_keys(const YAML::Node& root, const std::string& path = "") const;
  // UsageError "<origin>: <message>" for one unknown key, or
  // "<origin>: N config problems:\n  - ..." for several; nothing when none.
  // An empty origin leaves the "<origin>: " out.
  void throw_if_unknown(const YAML::Node& root, const std::string& origin, const std::string& path = "") const;

  // The accepted-and-ignored keys `root` holds (full paths, document order),
  // for a start-up line telling the user they have no effect.
  std::vector<std::string> ignored_keys_present(const YAML::Node& root) const;

 private:
  // canonical path -> read; canonical parent -> its read children in first-read order
  std::unordered_set<std::string> read_;
  std::unordered_set<std::string> whole_;
  std::unordered_map<std::string, std::vector<std::string>> children_;
  std::unordered_set<std::string> ignored_;
  std::vector<std::string> excused_;

  void walk(const YAML::Node& n, const std::string& shown, const std::string& canon,
            std::vector<std::string>* problems, std::vector<std::string>* ignored_found) const;
  bool excused(const std::string& canon) const;
};

// Makes `reads` a recorder of this thread's config reads until destroyed.
// Scopes nest, and a read is recorded in every active one: a check around a
// whole command sees the reads of a reader that checks its own part.
class ConfigReadScope {
 public:
  explicit ConfigReadScope(ConfigReads& reads);
  ~ConfigReadScope();
  ConfigReadScope(const ConfigReadScope&) = delete;
  ConfigReadScope& operator=(const ConfigReadScope&) = delete;

 private:
  friend void note_config_read(const std::string& path);
  friend void note_config_whole(const std::string& path);
  ConfigReads* reads_;
  const ConfigReadScope* outer_;
};

// While alive, reads recorded under `from` are recorded under `to` instead:
// a distillation member's network is read by the same reader as a whole
// Architecture section ("Architecture.Backbone.scale" is really
// "Architecture.Models.Student.Backbone.scale").
class ConfigReadRebase {
 public:
  ConfigReadRebase(std::string from, std::string to);
  ~ConfigReadRebase();
  ConfigReadRebase(const ConfigReadRebase&) = delete;
  ConfigReadRebase& operator=(const ConfigReadRebase&) = delete;
};

// Records `path` in the active ConfigReads of this thread, if any.
void note_config_read(const std::string& path);
// Records `path` as taken whole (see ConfigReads::note_whole), if recording.
void note_config_whole(const std::string& path);

// "Optimizer.lr" + "name" -> "Optimizer.lr.name" ("" + "Global" -> "Global").
std::string config_path(const std::string& parent, const std::string& key);

}  // namespace ocrforge
