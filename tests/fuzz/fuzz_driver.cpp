// main() for a fuzz target built with gcc (no libFuzzer): every seed of the
// corpus folders, then --runs mutations of them drawn from --seed, so a run
// is the same on every machine. Mutations are libFuzzer's usual kinds (bit
// flips, special bytes, inserted / erased / copied ranges, splices of two
// seeds) plus numbers that probe limits ("99999999999", "1e400", "-1"),
// written into runs of digits. A finding (a crash, a hang past --timeout, an
// exception other than ocrforge::Error, std::bad_alloc under the --max_mb
// address-space cap) stops the run with exit 1, its input saved in
// --crash_dir to replay with `fuzz_<target> FILE`.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "fuzz_target.h"

namespace fs = std::filesystem;

namespace {

// The input being run, for the signal handler to save.
const std::string* g_input = nullptr;
char g_crash_path[4096] = {0};

void save_input_and_die(int sig) {
  // Only async-signal-safe calls here.
  const char* what = sig == SIGALRM ? "a hang (over --timeout)" : "a crash (signal)";
  const int fd = g_crash_path[0] ? ::open(g_crash_path, O_CREAT | O_WRONLY | O_TRUNC, 0644) : -1;
  if (fd >= 0 && g_input) {
    (void)!::write(fd, g_input->data(), g_input->size());
    ::close(fd);
  }
  const char head[] = "fuzz: FINDING: ";
  (void)!::write(2, head, sizeof(head) - 1);
  (void)!::write(2, what, std::strlen(what));
  const char mid[] = "; input saved to ";
  (void)!::write(2, mid, sizeof(mid) - 1);
  (void)!::write(2, g_crash_path, std::strlen(g_crash_path));
  (void)!::write(2, "\n", 1);
  ::_exit(sig == SIGALRM ? 3 : 2);
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

class Mutator {
 public:
  Mutator(uint64_t seed, size_t max_len) : rng_(seed), max_len_(max_len) {}

  std::string mutate(const std::vector<std::string>& seeds) {
    std::string s = seeds[pick(seeds.size())];
    const int steps = 1 + static_cast<int>(pick(4));
    for (int i = 0; i < steps; ++i) step(s, seeds);
    if (s.size() > max_len_) s.resize(max_len_);
    return s;
  }

 private:
  size_t pick(size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

  void step(std::string& s, const std::vector<std::string>& seeds) {
    static const char* const kNumbers[] = {"0", "-1", "1e400", "99999999999", "2147483647", "4294967296",
                                           "-2147483648", "65535", "65536", "1e9", "NaN", "0.0000001"};
    static const unsigned char kBytes[] = {0x00, 0xff, 0x7f, 0x80, 0x01, 0xfe};
    switch (pick(s.empty() ? 2 : 9)) {
      case 0: {  // insert random bytes
        const size_t at = pick(s.size() + 1), n = 1 + pick(8);
        std::string r;
        for (size_t i = 0; i < n; ++i) r.push_back(static_cast<char>(pick(256)));
        s.insert(at, r);
        break;
      }
      case 1: {  // splice: a range of another seed inserted
        const std::string& o = seeds[pick(seeds.size())];
        if (o.empty()) break;
        const size_t from = pick(o.size()), n = 1 + pick(std::min<size_t>(o.size() - from, 256));
        s.insert(pick(s.size() + 1), o.substr(from, n));
        break;
      }
      case 2: s[pick(s.size())] ^= static_cast<char>(1u << pick(8)); break;  // bit flip
      case 3: s[pick(s.size())] = static_cast<char>(kBytes[pick(sizeof(kBytes))]); break;
      case 4: {  // erase a range
        const size_t at = pick(s.size()), n = 1 + pick(std::min<size_t>(s.size() - at, 64));
        s.erase(at, n);
        break;
      }
      case 5: {  // copy a range elsewhere
        const size_t from = pick(s.size()), n = 1 + pick(std::min<size_t>(s.size() - from, 64));
        s.insert(pick(s.size() + 1), s.substr(from, n));
        break;
      }
      case 6: {  // a run of digits becomes a limit-probing number
        const size_t at = pick(s.size());
        const size_t d = s.find_first_of("0123456789", at);
        if (d == std::string::npos) break;
        size_t e = d;
        while (e < s.size() && (std::isdigit(static_cast<unsigned char>(s[e])) || s[e] == '.')) ++e;
        s.replace(d, e - d, kNumbers[pick(std::size(kNumbers))]);
        break;
      }
      case 7: {  // a little-endian 16/32-bit field set to a boundary value
        const size_t at = pick(s.size());
        const uint32_t v[] = {0, 0xffffffffu, 0x7fffffffu, 0xffffu, 0x10000u, 1};
        const uint32_t x = v[pick(std::size(v))];
        for (size_t k = 0; k < 4 && at + k < s.size(); ++k) s[at + k] = static_cast<char>((x >> (8 * k)) & 0xff);
        break;
      }
      default: {  // truncate
        s.resize(pick(s.size() + 1));
        break;
      }
    }
  }

  std::mt19937_64 rng_;
  size_t max_len_;
};

struct Options {
  long runs = 1000;
  uint64_t seed = 1;
  size_t max_len = 1 << 20;
  int timeout_s = 20;
  long max_mb = 4096;
  double seconds = 0;  // > 0: stop after this long (the long runs)
  std::string crash_dir = ".";
  std::vector<std::string> inputs;  // corpus folders or single files to replay
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "fuzz: " << a << " needs a value\n";
        std::exit(64);
      }
      return argv[++i];
    };
    if (a == "--runs") o.runs = std::stol(value());
    else if (a == "--seed") o.seed = std::stoull(value());
    else if (a == "--max_len") o.max_len = std::stoul(value());
    else if (a == "--timeout") o.timeout_s = std::stoi(value());
    else if (a == "--max_mb") o.max_mb = std::stol(value());
    else if (a == "--seconds") o.seconds = std::stod(value());
    else if (a == "--crash_dir") o.crash_dir = value();
    else if (!a.empty() && a[0] == '-') {
      std::cerr << "usage: " << argv[0]
                << " [--runs N] [--seconds S] [--seed N] [--max_len BYTES] [--timeout S] [--max_mb MB] "
                   "[--crash_dir DIR] CORPUS_DIR_OR_FILE...\n";
      std::exit(64);
    } else o.inputs.push_back(a);
  }
  return o;
}

// Runs one input; false (after saving it) on an escaping exception.
bool run_one(const std::string& input, const Options& o, const char* kind) {
  std::snprintf(g_crash_path, sizeof(g_crash_path), "%s/%s-%016llx", o.crash_dir.c_str(), kind,
                static_cast<unsigned long long>(fnv1a(input)));
  g_input = &input;
  ::alarm(static_cast<unsigned>(o.timeout_s));
  std::string finding;
  try {
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
  } catch (const std::bad_alloc&) {
    finding = "std::bad_alloc: an allocation the input controls (over the --max_mb cap)";
  } catch (const std::exception& e) {
    finding = std::string("an exception other than ocrforge::Error escaped: ") + e.what();
  } catch (...) {
    finding = "a non-standard exception escaped";
  }
  ::alarm(0);
  g_input = nullptr;
  if (finding.empty()) return true;
  std::ofstream(g_crash_path, std::ios::binary) << input;
  std::cerr << "fuzz: FINDING: " << finding << "; input saved to " << g_crash_path << "\n";
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  if (o.inputs.empty()) {
    std::cerr << "fuzz: name a corpus folder (or files to replay)\n";
    return 64;
  }
  // An address-space cap turns an input-controlled allocation into
  // std::bad_alloc (a finding) instead of the machine swapping.
  if (o.max_mb > 0) {
    const rlimit lim{static_cast<rlim_t>(o.max_mb) << 20, static_cast<rlim_t>(o.max_mb) << 20};
    ::setrlimit(RLIMIT_AS, &lim);
  }
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM}) ::signal(sig, save_input_and_die);
  fs::create_directories(o.crash_dir);

  std::vector<std::string> seeds;
  for (const std::string& in : o.inputs) {
    if (fs::is_directory(in)) {
      std::vector<fs::path> files;
      for (const auto& e : fs::directory_iterator(in))
        if (e.is_regular_file()) files.push_back(e.path());
      std::sort(files.begin(), files.end());  // the same order everywhere
      for (const auto& f : files) seeds.push_back(read_file(f));
    } else {
      seeds.push_back(read_file(in));
    }
  }
  if (seeds.empty()) {
    std::cerr << "fuzz: the corpus is empty\n";
    return 64;
  }
  const auto start = std::chrono::steady_clock::now();
  long runs = 0;
  for (const std::string& s : seeds) {
    if (!run_one(s, o, "seed")) return 1;
    ++runs;
  }
  Mutator m(o.seed, o.max_len);
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  for (long i = 0; o.seconds > 0 ? elapsed() < o.seconds : i < o.runs; ++i) {
    if (!run_one(m.mutate(seeds), o, "crash")) return 1;
    ++runs;
  }
  const double t = elapsed();
  std::printf("fuzz %s: %ld inputs (%zu seeds + %ld mutations, seed %llu) in %.1f s, %.0f per second; no finding\n",
              fs::path(argv[0]).filename().c_str(), runs, seeds.size(), runs - static_cast<long>(seeds.size()),
              static_cast<unsigned long long>(o.seed), t, t > 0 ? runs / t : 0.0);
  return 0;
}
