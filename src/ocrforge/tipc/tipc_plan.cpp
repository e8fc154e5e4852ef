#include "ocrforge/tipc/tipc_plan.h"

#include <map>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

namespace {

// PaddleOCR's func_set_params: "key=value", or nothing for a null key or value.
std::vector<std::string> param(const std::string& key, const std::string& value) {
  if (tipc_null(key) || tipc_null(value)) return {};
  return {key + "=" + value};
}

void append(std::vector<std::string>& to, const std::vector<std::string>& more) {
  to.insert(to.end(), more.begin(), more.end());
}

// `--flag="3,48,320"` -> `--flag=3,48,320` (the shell would drop the quotes).
std::string unquote(std::string t) {
  for (const char q : {'"', '\''}) {
    const size_t eq = t.find('=');
    const size_t a = eq == std::string::npos ? 0 : eq + 1;
    if (t.size() >= a + 2 && t[a] == q && t.back() == q) t = t.substr(0, a) + t.substr(a + 1, t.size() - a - 2);
  }
  return t;
}

// The value of `key` in `s`; Error naming the file, section and key when absent.
const TipcEntry& need(const TipcConfig& c, const TipcSection& s, const std::string& key) {
  if (const TipcEntry* e = s.find(key)) return *e;
  throw Error(c.source() + ": [" + s.name + "] has no '" + key + ":' line (PaddleOCR's TIPC files always do)");
}

// The entry `offset` places after `anchor` (free-form slots such as the
// `null:null` placeholders), or an empty entry.
TipcEntry after(const TipcSection& s, const std::string& anchor, int offset) {
  const int i = s.index_of(anchor);
  if (i < 0 || i + offset >= static_cast<int>(s.entries.size())) return {};
  return s.entries[static_cast<size_t>(i + offset)];
}

// whole_infer's model slot: the line after `inference_dir:`, which PaddleOCR's files call
// infer_model or train_model; where that slot is a bare `##` line, the first entry of that name.
TipcEntry model_slot_of(const TipcConfig& c, const TipcSection& infer) {
  if (infer.find("inference_dir")) {
    const TipcEntry slot = after(infer, "inference_dir", 1);
    if (slot.key == "infer_model" || slot.key == "train_model") return slot;
    throw Error(c.source() + ": [infer_params] the line after 'inference_dir:' must be infer_model: or train_model:, got '" +
                slot.key + "'");
  }
  for (const char* key : {"infer_model", "train_model"})
    if (const TipcEntry* e = infer.find(key)) return *e;
  throw Error(c.source() + ": [infer_params] has neither an 'inference_dir:' line nor an infer_model: / train_model: line "
              "(the model whole_infer reads)");
}

// The inference flag block: the entries after `inference:` in order.
struct InferKeys {
  TipcEntry use_gpu, mkldnn, threads, batch, trt, precision, model_dir, image_dir, save_log, benchmark, extra;
};

InferKeys infer_keys(const TipcConfig& c, const TipcSection& s) {
  InferKeys k;
  TipcEntry* slots[] = {&k.use_gpu, &k.mkldnn,    &k.threads,  &k.batch,     &k.trt,  &k.precision,
                        &k.model_dir, &k.image_dir, &k.save_log, &k.benchmark, &k.extra};
  for (int i = 0; i < 11; ++i) *slots[i] = after(s, "inference", i + 1);
  if (k.use_gpu.key.rfind("--", 0) != 0)
    throw Error(c.source() + ": [infer_params] the line after 'inference:' must be the --use_gpu switch, got '" +
                k.use_gpu.key + "'");
  return k;
}

const std::map<std::string, std::vector<std::string>>& tools() {
  static const std::map<std::string, std::vector<std::string>> t = {
      {"tools/train.py", {"train"}},
      {"tools/eval.py", {"eval"}},
      {"tools/export_model.py", {"export"}},
      {"tools/infer/predict_det.py", {"infer", "det"}},
      {"tools/infer/predict_rec.py", {"infer", "rec"}},
      {"tools/infer/predict_cls.py", {"infer", "cls"}},
      {"tools/infer/predict_system.py", {"ocr"}}};
  return t;
}

// The stage's arguments, or "skipped: not supported: ..." for a tool with no ocrforge counterpart.
void translate_into(TipcStage& stage, const std::string& tool, const std::vector<std::string>& extra) {
  try {
    stage.argv = tipc_translate(tool, extra);
    // A TIPC chain is rerun into the same folders, as PaddleOCR's scripts are.
    if (stage.kind == "export") stage.argv.push_back("--overwrite");
  } catch (const UsageError& e) {
    stage.skip_reason = std::string("not supported: ") + e.what();
  }
}

// benchmark_train (PaddleOCR's benchmark_train.sh): training only, once per
// batch size x precision x device count, each run's log read for its JSON line.
TipcPlan plan_benchmark(const TipcConfig& c, const TipcPlanParams& o) {
  const TipcSection& train = c.require("train_params");
  const TipcSection& bench = c.require("train_benchmark_params");
  TipcPlan p;
  p.model_name = need(c, train, "model_name").value;
  p.mode = o.mode;
  p.log_dir = o.output_root + "/" + p.model_name + "/" + o.mode;
  std::vector<std::string> batches = tipc_list(need(c, bench, "batch_size").value);
  std::vector<std::string> precisions = tipc_list(need(c, bench, "fp_items").value);
  const int epoch = parse_int(need(c, bench, "epoch").value, c.source() + ": train_benchmark_params epoch");
  // A GPU config benchmarks on GPUs; a CPU one ("-1", "IP1,IP2;-1") on CPU processes.
  const std::vector<std::string> gpu_specs = tipc_list(need(c, train, "gpu_list").value);
  const std::string first_spec = gpu_specs.empty() ? "-1" : gpu_specs[0];
  const bool cpu = first_spec.substr(first_spec.find(';') == std::string::npos ? 0 : first_spec.find(';') + 1) == "-1";
  std::vector<std::string> devices = {cpu ? "N1C1" : "N1C4"};
  std::string run_mode = "DP";
  int run_epoch = epoch;
  if (!o.benchmark_params.empty()) {
    // modeltype_bs<N>_<fp>_<run_mode>_<device>, e.g. dynamic_bs8_fp32_DP_N1C1.
    const std::vector<std::string> parts = split(o.benchmark_params, '_');
    if (parts.size() != 5 || parts[1].rfind("bs", 0) != 0)
      throw UsageError("benchmark_train PARAMS '" + o.benchmark_params +
                       "': expected <modeltype>_bs<N>_<fp32|fp16>_<run_mode>_N<nodes>C<cards>, e.g. dynamic_bs8_fp32_DP_N1C1");
    batches = {std::to_string(parse_int(parts[1].substr(2), "benchmark_train PARAMS batch size"))};
    precisions = {parts[2]};
    run_mode = parts[3];
    devices = {parts[4]};
    const DeviceNum d = parse_device_num(parts[4]);
    run_epoch = epoch * d.nodes * d.cards;  // PaddleOCR's set_dynamic_epoch
  }
  const TipcEntry& use_gpu = need(c, train, "Global.use_gpu");
  const std::vector<std::string> use_gpu_values = tipc_list(use_gpu.value);
  const std::string train_use_gpu = use_gpu_values.empty() ? "" : use_gpu_values[0];
  const TipcEntry profiler = after(bench, "epoch", 1);
  const TipcEntry flags = bench.find("flags") ? *bench.find("flags") : TipcEntry{};
  const std::string run_train = need(c, train, "norm_train").value;
  for (const std::string& bs : batches)
    for (const std::string& fp : precisions)
      for (const std::string& device : devices) {
        const DeviceNum d = parse_device_num(device);
        if (d.nodes != 1)
          throw UsageError("benchmark_train device '" + device +
                           "': one machine only (as PaddleOCR's benchmark_train.sh); several machines: tipc run with an "
                           "IP gpu_list");
        const std::string precision = fp == "amp" || fp == "fp16" ? "fp16" : "fp32";
        const std::string autocast = precision == "fp16" ? "amp" : "fp32";
        std::string gpu = "-1";
        if (!cpu) {
          gpu = "0";
          for (int i = 1; i < d.cards; ++i) gpu += "," + std::to_string(i);
        }
        const std::string name = p.model_name + "_bs" + bs + "_" + precision + "_" + run_mode;
        const std::string file = o.repo_name + "_" + name + "_" + device;
        TipcStage t;
        t.kind = "train";
        t.log_path = o.benchmark_root + "/train_log/" + file + "_log";
        t.benchmark.model_name = name;
        t.benchmark.batch_size = parse_int(bs, c.source() + ": train_benchmark_params batch_size");
        t.benchmark.fp_item = precision;
        t.benchmark.run_mode = run_mode;
        t.benchmark.device_num = device;
        t.benchmark.speed_file = o.benchmark_root + "/index/" + file + "_speed";
        std::vector<std::string> extra = param(use_gpu.key, train_use_gpu);
        append(extra, param(need(c, train, "Global.save_model_dir").key,
                            p.log_dir + "/norm_train_gpus_" + gpu + "_autocast_" + autocast));
        append(extra, param(need(c, train, "Global.epoch_num").key, std::to_string(run_epoch)));
        append(extra, param(need(c, train, "Global.pretrained_model").key, need(c, train, "Global.pretrained_model").value));
        append(extra, param(need(c, train, "Global.auto_cast").key, autocast));
        append(extra, param(need(c, train, "Train.loader.batch_size_per_card").key, bs));
        if (autocast == "amp") append(extra, {"Global.use_amp=True", "Global.scale_loss=1024.0", "Global.use_dynamic_loss_scaling=True"});
        translate_into(t, run_train, extra);
        if (!t.argv.empty() && d.cards > 1) {
          std::vector<std::string> launch = {"launch", cpu ? "--nproc_per_node=" + std::to_string(d.cards) : "--gpus=" + gpu};
          t.argv.insert(t.argv.begin(), launch.begin(), launch.end());
        }
        // Global.use_amp is bf16 autocast on CPUs with bf16 instructions; fp16 mixed precision is not
        // built: say so instead of a failed run.
        if (precision == "fp16")
          t.skip_reason = "not supported: fp16 training (Global.use_amp runs bf16 autocast on CPUs with bf16 "
                          "instructions only)";
        if (!tipc_null(profiler.value)) t.not_applied.push_back(profiler.key + " (Paddle's profiler run is not made)");
        for (const std::string& f : split(flags.value, ';'))
          if (!tipc_null(trim(f))) t.not_applied.push_back(trim(f) + " (a Paddle flag)");
        p.stages.push_back(t);
      }
  return p;
}

}  // namespace

std::string TipcStage::command() const {
  std::string s = "ocrforge";
  for (const auto& a : argv) s += " " + a;
  return s;
}

std::vector<std::string> tipc_translate(const std::string& paddle_command, const std::vector<std::string>& extra) {
  std::vector<std::string> tokens = split_whitespace(paddle_command);
  if (tokens.empty()) throw UsageError("TIPC: an empty tool command");
  const auto it = tools().find(tokens[0]);
  if (it == tools().end())
    throw UsageError("TIPC: '" + tokens[0] + "' has no ocrforge counterpart (known: tools/train.py, tools/eval.py, "
                     "tools/export_model.py, tools/infer/predict_det|rec|cls|system.py)");
  std::vector<std::string> argv = it->second;
  for (size_t i = 1; i < tokens.size(); ++i) argv.push_back(unquote(tokens[i]));
  append(argv, extra);
  return argv;
}

void require_tipc_mode(const std::string& mode) {
  static const char* modes[] = {"lite_train_lite_infer", "lite_train_whole_infer", "whole_infer",
                                "whole_train_whole_infer", "benchmark_train"};
  for (const char* m : modes)
    if (mode == m) return;
  throw UsageError("TIPC mode '" + mode +
                   "' is not one of lite_train_lite_infer, lite_train_whole_infer, whole_infer, "
                   "whole_train_whole_infer, benchmark_train");
}

TipcPlan plan_tipc(const TipcConfig& c, const TipcPlanParams& o) {
  require_tipc_mode(o.mode);
  if (o.mode == "benchmark_train") return plan_benchmark(c, o);
  const TipcSection& train = c.require("train_params");
  const TipcSection& infer = c.require("infer_params");
  const TipcSection* eval = c.section("eval_params");
  TipcPlan p;
  p.model_name = need(c, train, "model_name").value;
  p.mode = o.mode;
  p.log_dir = o.output_root + "/" + p.model_name + "/" + o.mode;

  const InferKeys ik = infer_keys(c, infer);
  const std::string inference_py = need(c, infer, "inference").value;
  // func_inference: every CPU / GPU combination, with PaddleOCR's skip rules.
  const auto add_inference = [&](const std::string& model_dir, const std::string& img_dir, bool quant) {
    for (const std::string& use_gpu : tipc_list(ik.use_gpu.value)) {
      const bool gpu = use_gpu == "True" || use_gpu == "gpu";
      if (!gpu && use_gpu != "False" && use_gpu != "cpu") continue;  // PaddleOCR: "hardware other than CPU and GPU"
      for (const std::string& mkldnn : gpu ? std::vector<std::string>{""} : tipc_list(ik.mkldnn.value))
        for (const std::string& threads : gpu ? std::vector<std::string>{""} : tipc_list(ik.threads.value))
          for (const std::string& trt : gpu ? tipc_list(ik.trt.value) : std::vector<std::string>{""})
            for (const std::string& precision : tipc_list(ik.precision.value))
              for (const std::string& batch : tipc_list(ik.batch.value)) {
                if (!gpu && mkldnn == "False" && precision == "fp16") continue;
                if (!gpu && quant && precision != "int8") continue;
                if (gpu && !quant && precision.find("int8") != std::string::npos) continue;
                if (gpu && trt == "False" && (precision == "fp16" || precision == "int8")) continue;
                TipcStage s;
                s.kind = "infer";
                s.log_path = p.log_dir + "/python_infer_" +
                             (gpu ? "gpu_usetrt_" + trt : "cpu_usemkldnn_" + mkldnn + "_threads_" + threads) +
                             "_precision_" + precision + "_batchsize_" + batch + ".log";
                if (!o.is_trainer0) {
                  s.skip_reason = "the model is saved on trainer 0 only";
                  p.stages.push_back(s);
                  continue;
                }
                std::vector<std::string> extra = {ik.use_gpu.key + "=" + use_gpu};
                if (!gpu) {
                  append(extra, param(ik.threads.key, threads));
                  if (mkldnn == "True") s.not_applied.push_back(ik.mkldnn.key + "=True (no MKL-DNN: ONNX Runtime's CPU kernels)");
                } else if (trt == "True") {
                  s.not_applied.push_back(ik.trt.key + "=True (no TensorRT: ONNX Runtime CPU/CUDA only)");
                }
                append(extra, param(ik.model_dir.key, model_dir));
                append(extra, param(ik.batch.key, batch));
                append(extra, param(ik.image_dir.key, img_dir));
                append(extra, param(ik.benchmark.key, ik.benchmark.value));
                append(extra, param(ik.precision.key, precision));
                append(extra, param(ik.extra.key, ik.extra.value));
                translate_into(s, inference_py, extra);
                p.stages.push_back(s);
              }
    }
  };

  const TipcEntry& save_infer = need(c, infer, "Global.save_inference_dir");
  // The weights key of export: the line after Global.save_inference_dir, which PaddleOCR's
  // script reads by position: Global.checkpoints in most files, Global.pretrained_model in some
  // (e.g. ch_ppocr_mobile_v2_0_det's mac CPU file).
  const TipcEntry export_weight = infer.find("Global.checkpoints") ? *infer.find("Global.checkpoints")
                                                                    : after(infer, "Global.save_inference_dir", 1);
  if (tipc_null(export_weight.key))
    throw Error(c.source() + ": [infer_params] has no 'Global.checkpoints:' line after Global.save_inference_dir "
                "(PaddleOCR's TIPC files always do)");
  if (o.mode == "whole_infer") {
    // Export (where infer_export names a command) and infer each listed model.
    // The model slot follows inference_dir; PaddleOCR's files call it infer_model or train_model.
    const TipcEntry model_slot = model_slot_of(c, infer);
    const std::vector<std::string> models = tipc_list(model_slot.value);
    const std::vector<std::string> exports = tipc_list(need(c, infer, "infer_export").value);
    const std::vector<std::string> quant = tipc_list(need(c, infer, "infer_quant").value);
    for (size_t i = 0; i < models.size(); ++i) {
      const std::string run_export = i < exports.size() ? exports[i] : "null";
      if (!tipc_null(run_export)) {
        TipcStage s;
        s.kind = "export";
        s.log_path = p.log_dir + "/_export_" + std::to_string(i) + ".log";
        std::vector<std::string> extra = param(export_weight.key, models[i]);
        append(extra, param(save_infer.key, models[i]));
        translate_into(s, run_export, extra);
        p.stages.push_back(s);
      }
      add_inference(models[i], need(c, infer, ik.image_dir.key).value, i < quant.size() && quant[i] == "True");
    }
    return p;
  }

  const TipcEntry& use_gpu = need(c, train, "Global.use_gpu");
  const TipcEntry& autocast = need(c, train, "Global.auto_cast");
  const TipcEntry& epoch = need(c, train, "Global.epoch_num");
  const TipcEntry& save_model = need(c, train, "Global.save_model_dir");
  const TipcEntry& batch = need(c, train, "Train.loader.batch_size_per_card");
  const TipcEntry& pretrained = need(c, train, "Global.pretrained_model");
  const std::string model_name = need(c, train, "train_model_name").value;
  const std::string img_dir = need(c, train, "train_infer_img_dir").value;
  const TipcEntry train_extra = after(train, "train_infer_img_dir", 1);
  const TipcEntry trainer1 = after(train, "distill_train", 1), trainer2 = after(train, "distill_train", 2);
  const TipcEntry export1 = after(infer, "distill_export", 1), export2 = after(infer, "distill_export", 2);
  // Some of PaddleOCR's files leave the inference_dir slot as a bare `##` line:
  // their script then reads an empty value and infers from the save folder itself.
  const std::string inference_dir = infer.find("inference_dir") ? infer.find("inference_dir")->value : "";
  const TipcEntry eval_py = eval ? after(*eval, "eval", 0) : TipcEntry{};
  const TipcEntry eval_extra = eval ? after(*eval, "eval", 1) : TipcEntry{};

  const std::vector<std::string> gpu_specs = tipc_list(need(c, train, "gpu_list").value);
  const std::vector<std::string> use_gpu_values = tipc_list(use_gpu.value);
  for (size_t g = 0; g < gpu_specs.size(); ++g) {
    std::string gpu = gpu_specs[g];
    std::string ips;
    if (const size_t semi = gpu.find(';'); semi != std::string::npos) {
      ips = gpu.substr(0, semi);
      gpu = gpu.substr(semi + 1);
    }
    const size_t nodes = ips.empty() ? 1 : split(ips, ',').size();
    const std::string train_use_gpu = g < use_gpu_values.size() ? use_gpu_values[g] : "";
    for (const std::string& ac : tipc_list(autocast.value)) {
      for (const std::string& trainer : tipc_list(need(c, train, "trainer").value)) {
        std::string run_train, run_export;
        bool quant = false;
        if (trainer == "pact_train") {
          run_train = need(c, train, "pact_train").value;
          run_export = need(c, infer, "quant_export").value;
          quant = true;
        } else if (trainer == "fpgm_train") {
          run_train = need(c, train, "fpgm_train").value;
          run_export = need(c, infer, "fpgm_export").value;
        } else if (trainer == "distill_train") {
          run_train = need(c, train, "distill_train").value;
          run_export = need(c, infer, "distill_export").value;
        } else if (!tipc_null(trainer1.key) && trainer == trainer1.key) {
          run_train = trainer1.value;
          run_export = export1.value;
        } else if (!tipc_null(trainer2.key) && trainer == trainer2.key) {
          run_train = trainer2.value;
          run_export = export2.value;
        } else {
          run_train = need(c, train, "norm_train").value;
          run_export = need(c, infer, "norm_export").value;
        }
        if (tipc_null(run_train)) continue;
        const std::string tag = trainer + "_gpus_" + gpu + "_autocast_" + ac;
        const std::string save_log = p.log_dir + "/" + tag + (nodes > 1 ? "_nodes_" + std::to_string(nodes) : "");
        const std::string stage_log = p.log_dir + "/" + tag + "_nodes_" + std::to_string(nodes);

        TipcStage t;
        t.kind = "train";
        t.log_path = stage_log + "_train.log";  // PaddleOCR prints training to the terminal; kept here
        std::vector<std::string> extra = param(use_gpu.key, train_use_gpu);
        append(extra, param(save_model.key, save_log));
        append(extra, param(epoch.key, tipc_for_mode(epoch.value, o.mode)));
        append(extra, param(pretrained.key, pretrained.value));
        append(extra, param(autocast.key, ac));
        append(extra, param(batch.key, tipc_for_mode(batch.value, o.mode)));
        append(extra, param(train_extra.key, train_extra.value));
        if (ac == "amp") append(extra, {"Global.use_amp=True", "Global.scale_loss=1024.0", "Global.use_dynamic_loss_scaling=True"});
        if (trainer != "norm_train") {
          t.skip_reason = "not supported: trainer '" + trainer + "' (ocrforge trains norm_train only)";
        } else {
          translate_into(t, run_train, extra);
        }
        if (!t.argv.empty() && (nodes > 1 || gpu.find(',') != std::string::npos)) {
          // Several workers: PaddleOCR's paddle.distributed.launch -> ocrforge launch.
          std::vector<std::string> launch = {"launch"};
          if (nodes > 1) launch.push_back("--ips=" + ips);
          if (gpu == "-1") launch.push_back("--nproc_per_node=1");
          else launch.push_back("--gpus=" + gpu);
          if (nodes > 1 && !o.node_ip.empty()) launch.push_back("--node_ip=" + o.node_ip);
          t.argv.insert(t.argv.begin(), launch.begin(), launch.end());
        }
        p.stages.push_back(t);
        const bool trained = t.skip_reason.empty();
        const std::string latest = save_log + "/" + model_name;

        // A stage that needs the trained model: skipped when training was, or on other nodes.
        const auto post_training = [&](const char* kind, const std::string& log, const std::string& tool,
                                       const std::vector<std::string>& extra) {
          TipcStage st;
          st.kind = kind;
          st.log_path = log;
          if (!trained) st.skip_reason = "its training was skipped";
          else if (!o.is_trainer0) st.skip_reason = "the model is saved on trainer 0 only";
          else translate_into(st, tool, extra);
          p.stages.push_back(st);
        };
        if (!tipc_null(eval_py.value)) {
          std::vector<std::string> ex = param(pretrained.key, latest);
          append(ex, param(use_gpu.key, train_use_gpu));
          append(ex, param(eval_extra.key, eval_extra.value));
          post_training("eval", stage_log + "_eval.log", eval_py.value, ex);
        }
        if (tipc_null(run_export)) continue;
        std::vector<std::string> ex = param(export_weight.key, latest);
        append(ex, param(save_infer.key, save_log));
        post_training("export", stage_log + "_export.log", run_export, ex);
        const std::string model_dir =
            tipc_null(inference_dir) || inference_dir == "##" ? save_log : save_log + "/" + inference_dir;
        if (trained) add_inference(model_dir, img_dir, quant);
      }
    }
  }
  return p;
}

}  // namespace ocrforge
