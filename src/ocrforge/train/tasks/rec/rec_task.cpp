#include "ocrforge/train/tasks/rec/rec_task.h"
#include "ocrforge/train/tasks/rec/rec_input_size.h"
#include "ocrforge/train/tasks/rec/rec_model_onnx.h"
#include "ocrforge/train/export/inference_folder.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/train/tasks/rec/rec_data_config.h"
#include "ocrforge/train/dist/distributed_sampler.h"
#include "ocrforge/train/tasks/rec/rec_evaluator.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/train/tasks/rec/ctc_loss.h"
#include "ocrforge/train/tasks/rec/nrtr_loss.h"
#include "ocrforge/train/tasks/rec/sar_loss.h"
#include "ocrforge/train/tasks/rec/onnx_rec_probe.h"
#include "ocrforge/vision/rec_metric.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/tasks/inference_file_weights.h"
#include "ocrforge/train/tasks/rec/rec_paddle_onnx.h"

namespace ocrforge {

RecTask::RecTask(const Config& config, const TrainerSpec& o, torch::Device device)
    : config_(config), device_(device) {
  // An empty dictionary path is PaddleOCR's fallback: 0-9a-z with every
  // label lower-cased first, and no space class (use_space_char does not apply).
  if (o.character_dict_path.empty()) {
    charset_ = Charset::builtin_lowercase();
    info_.push_back("Global.character_dict_path is empty: PaddleOCR's built-in dictionary (0-9a-z, 36 characters; "
                    "labels lower-cased, other characters dropped; use_space_char does not apply)");
  } else {
    charset_ = Charset::load(o.character_dict_path, o.use_space_char, "Global.character_dict_path");
  }
  max_text_length_ = o.max_text_length;
  seed_ = o.seed;
  ignore_space_ = o.ignore_space;
  const YAML::Node root = config.root();
  arch_text_ = YAML::Dump(root["Architecture"]);
  loss_ = rec_loss_from_yaml(root["Loss"]);
  if (is_onnx_architecture(root["Architecture"])) {
    load_onnx(root["Architecture"]);
  } else {
    arch_ = rec_arch_from_yaml(root["Architecture"], charset_.num_classes());
    check_fixed_input_size(arch_.backbone, root, "Architecture.Backbone");
    if (!loss_.nrtr) drop_nrtr_branch(arch_);  // nothing would train it (a CTC-only fine-tune)
    const std::string guide = drop_guide_without_branch(arch_, "Architecture");
    if (!guide.empty()) warnings_.push_back(guide);
    if (arch_.backbone.name == "PPLCNetV3" && weights_from_inference_file(o)) {
      arch_.backbone.rep_deploy = true;
      info_.push_back(inference_form_info("Architecture.Backbone PPLCNetV3", "a PaddleOCR inference.onnx"));
    }
    model_ = RecModel(arch_);
  }
  check_loss();
  to_device(device);
}

PretrainedReport RecTask::load_pretrained_weights(const std::string& path) {
  if (!is_inference_onnx_file(path)) return with_guide_warning(Task::load_pretrained_weights(path));
  if (!model_)
    throw pretrained_with_onnx_architecture(path);
  return with_guide_warning(report_loaded(*model_, load_rec_paddle_onnx(*model_, path)));
}

// use_guide: True leaves the backbone to the guidance branch. Starting that
// branch untrained under a trained backbone (an inference model has no
// guidance head) rewrites the backbone's features through a random decoder,
// and the CTC branch, which cannot correct them, stops reading.
PretrainedReport RecTask::with_guide_warning(PretrainedReport r) const {
  if (!arch_.neck.use_guide || (!arch_.nrtr && !arch_.sar)) return r;
  const std::string branch = arch_.nrtr ? "gtc_head." : "sar_head.";
  const bool untrained = std::any_of(r.missing.begin(), r.missing.end(),
                                     [&](const std::string& k) { return k.rfind(branch, 0) == 0; });
  const bool backbone = std::any_of(r.loaded.begin(), r.loaded.end(),
                                    [](const std::string& k) { return k.rfind("backbone.", 0) == 0; });
  if (untrained && backbone)
    r.warnings.push_back(
        std::string("pretrained: the backbone is trained but the ") + (arch_.nrtr ? "NRTR" : "SAR") +
        " branch starts untrained, and use_guide: True lets only that branch train the backbone: its random "
        "gradients erase what the CTC branch reads (a fine-tune of the shipped PP-OCRv4 recognizer this way falls to "
        "0 held-out accuracy, docs/training.md). Fine-tune the CTC branch alone (-o \"Loss.loss_config_list=[{CTCLoss: "
        "}]\"), or start from a checkpoint that holds the branch");
  return r;
}

void RecTask::check_loss() {
  if (onnx_) {
    if (loss_.name != "CTCLoss")
      throw UsageError("Loss.name: " + loss_.name + " needs a MultiHead with a SARHead or NRTRHead; an ONNX recognizer "
                       "trains with CTCLoss");
    return;
  }
  if (arch_.sar && loss_.name == "CTCLoss")
    throw UsageError("Loss.name: CTCLoss, but Architecture.Head is a MultiHead with a SARHead; train it with PaddleOCR's "
                     "MultiLoss: {name: MultiLoss, loss_config_list: [{CTCLoss: }, {SARLoss: }]}");
  if (loss_.nrtr && !arch_.nrtr)
    throw UsageError(loss_.nrtr_entry + ": Architecture.Head lists no NRTRHead for this loss");
  // MultiLoss listing CTCLoss alone over a MultiHead whose guidance head it
  // does not train (left out above, with a warning) is a CTC-only run, as in
  // PaddleOCR; over a plain CTC head it is a mistake.
  if (!arch_.sar && !arch_.nrtr && arch_.dropped_heads.empty() && loss_.name == "MultiLoss")
    throw UsageError("Loss.name: MultiLoss trains a MultiHead with a SARHead or NRTRHead (CTC + guidance branches); this "
                     "Architecture has a CTC head only: use {name: CTCLoss}");
  if (arch_.nrtr) {
    info_.push_back(nrtr_branch_info(model_, loss_.nrtr_smoothing, "Architecture"));
  } else if (arch_.sar) {
    if (loss_.sar) {
      sar_ignore_index_ = sar_ignore_index(*arch_.sar, loss_.sar_ignore_index, "Loss.loss_config_list.SARLoss");
      info_.push_back(sar_branch_info(model_, sar_ignore_index_, "Architecture"));
    } else {
      warnings_.push_back("Loss.loss_config_list: no SARLoss, so the SARHead of Architecture.Head gets no loss and "
                          "does not train");
    }
  } else {
    return;
  }
  if (!loss_.ctc)
    warnings_.push_back("Loss.loss_config_list: no CTCLoss, so the CTC branch (what evaluation, export and inference "
                        "read) does not train");
}

void RecTask::load_onnx(const YAML::Node& architecture) {
  OnnxTaskModel m = load_onnx_task_model(architecture, "a CTC recognizer (final Softmax)");
  onnx_ = m.graph;
  onnx_logits_ = m.logits;
  const OnnxArchSpec& spec = m.spec;
  // The dictionary must fit the model's classes (blank + characters [+ space]).
  check_dictionary_fits(charset_, probe_onnx_rec_classes(onnx_, onnx_logits_, spec.onnx_model), spec.onnx_model,
                        "Global.character_dict_path");
  info_.push_back(m.log_line);
}

torch::nn::Module& RecTask::model() {
  if (onnx_) return *onnx_;
  return *model_;
}

std::optional<float> RecTask::pinned_l2_decay(const std::string& name) const {
  return model_ ? model_->pinned_l2_decay(name) : std::nullopt;
}

torch::Tensor RecTask::logits(const torch::Tensor& images) {
  if (onnx_) return onnx_->forward(images.to(device_), onnx_logits_);
  return model_->forward(images.to(device_));
}

void RecTask::to_device(torch::Device device) {
  device_ = device;
  if (onnx_) {  // op-by-op ATen: the graph runs in the input's memory format (NCHW)
    onnx_->to(device);
    return;
  }
  model_->to(device);
  // NHWC on CPU (+28% training throughput measured in Python on the same
  // libtorch, docs/benchmarks.md). CUDA keeps NCHW: cuDNN's fp32 depthwise
  // kernels are not faster in NHWC and it is untested there.
  model_->set_channels_last(!device.is_cuda());
}

void RecTask::check_trainable() const {
  if (onnx_) return;
  // use_guide detaches the backbone from the CTC branch; without a SAR / NRTR
  // branch that trains (a left-out NRTR branch turned the guide off above)
  // the backbone would silently never learn.
  if (arch_.neck.use_guide && !arch_.sar && !arch_.nrtr)
    throw UsageError("Architecture Neck use_guide=True: with a CTC-only head the backbone would get no gradient "
                     "(PaddleOCR uses it only with the SAR / NRTR branch of MultiHead); set use_guide: False");
  if (arch_.neck.use_guide && arch_.sar && !loss_.sar)
    throw UsageError("Architecture Neck use_guide=True leaves the backbone to the SAR branch, but Loss lists no SARLoss; "
                     "add - SARLoss: to Loss.loss_config_list or set use_guide: False");
}

std::vector<std::string> RecTask::startup_warnings() const {
  std::vector<std::string> out;
  const std::string heads = dropped_heads_warning(arch_, "");
  if (!heads.empty()) out.push_back(heads);
  out.insert(out.end(), warnings_.begin(), warnings_.end());
  return out;
}

std::string dropped_heads_warning(const RecArchSpec& arch, const std::string& where) {
  std::string heads;
  for (const auto& h : arch.dropped_heads) heads += (heads.empty() ? "" : ", ") + h;
  if (heads.empty()) return "";
  return (where.empty() ? "" : where + " ") + "MultiHead: only the CTC branch is trained; left out (no loss of this run "
         "reads it): " + heads;
}

std::string drop_guide_without_branch(RecArchSpec& arch, const std::string& where) {
  if (arch.sar || arch.nrtr || arch.dropped_heads.empty() || !arch.neck.use_guide) return "";
  arch.neck.use_guide = false;
  return where + " use_guide: True trains the backbone through the " + arch.dropped_heads.front() +
         " branch, which is left out; the backbone trains through the CTC branch instead (as use_guide: False)";
}

int64_t sar_ignore_index(const SarHeadSpec& sar, const std::optional<long>& given, const std::string& path) {
  const int64_t padding = sar.out_channels - 1;
  if (given && *given != padding)
    throw UsageError(path + ".ignore_index: " + std::to_string(*given) + ", but the SAR labels pad with index " +
                     std::to_string(padding) + " (<PAD> = dictionary + 2), which must be ignored: the SARHead "
                     "predicts no <PAD> class. Leave the key out or set " + std::to_string(padding) +
                     " (PaddleOCR's default 92 is the <PAD> of a 90-character dictionary only)");
  return padding;
}

std::string sar_branch_info(const RecModel& model, int64_t ignore_index, const std::string& where) {
  const SarHeadSpec& s = model->sar_head()->spec();
  return where + " MultiHead: the SARHead (enc_dim " + std::to_string(s.enc_dim) + ", d_k " + std::to_string(s.d_k) +
         ", " + std::to_string(count_parameters(*model->sar_head())) +
         " parameters) trains beside the CTC branch on the backbone's features; evaluation, export and inference "
         "read the CTC branch alone. SARLoss ignores the <PAD> index " + std::to_string(ignore_index) +
         (ignore_index == 92 ? "" : " (PaddleOCR's default ignore_index 92 is the <PAD> of a 90-character dictionary)");
}

std::string nrtr_branch_info(const RecModel& model, bool smoothing, const std::string& where) {
  const NrtrHeadSpec& s = model->gtc_head()->spec();
  return where + " MultiHead: the NRTR branch (nrtr_dim " + std::to_string(s.nrtr_dim) + ", " +
         std::to_string(s.num_decoder_layers) + " decoder layers, " + std::to_string(model->guide_branch_parameters()) +
         " parameters) trains beside the CTC branch on the backbone's features with NRTRLoss (weight_2" +
         (smoothing ? ", label smoothing 0.1" : "") + "); evaluation, export and inference read the CTC branch alone";
}

std::unique_ptr<BatchLoader> RecTask::make_loader(const std::string& name, bool training, int rank, int world_size) {
  const std::string guide = !training ? "" : arch_.nrtr ? "label_gtc" : arch_.sar && loss_.sar ? "label_sar" : "";
  return make_rec_loader(config_, name, training, rank, world_size, charset_, max_text_length_, seed_, guide,
                         training ? &info_ : nullptr);
}

// The train loader of a multi-process run reads its rank's shard
// (distributed_sampler.h: equal steps on every rank); evaluation reads everything.
std::unique_ptr<BatchLoader> make_rec_loader(const Config& config, const std::string& name, bool training, int rank,
                                             int world_size, const Charset& charset, int max_text_length,
                                             uint64_t seed, const std::string& guide_label,
                                             std::vector<std::string>* notes) {
  const YAML::Node section = config.root()[name];
  if (!section || !section.IsMap()) throw UsageError("config section '" + name + "' is missing");
  RecDataSpec setup = rec_data_from_yaml(section, name, charset, max_text_length, seed, training);
  const bool multi = setup.dataset->transforms().multi_label_encode;
  const bool nrtr = setup.dataset->transforms().nrtr_labels;
  if (guide_label == "label_sar" && (!multi || nrtr))
    throw UsageError(name + ".dataset.transforms: the SAR branch of MultiHead trains on label_sar, which "
                     "MultiLabelEncode without gtc_encode makes; use - MultiLabelEncode: in place of " +
                     (multi ? "MultiLabelEncode with gtc_encode" : "- CTCLabelEncode:"));
  if (guide_label == "label_gtc" && (!multi || !nrtr))
    throw UsageError(name + ".dataset.transforms: the NRTR branch of MultiHead trains on label_gtc, which "
                     "MultiLabelEncode makes with gtc_encode: NRTRLabelEncode; use - MultiLabelEncode: {gtc_encode: "
                     "NRTRLabelEncode} in place of " + (multi ? "MultiLabelEncode without it" : "- CTCLabelEncode:"));
  if (notes && multi) {
    const std::string note = name + ".dataset.transforms MultiLabelEncode: a text of " +
                             std::to_string(max_text_length - 1) +
                             " or more characters (max_text_length - 1) is dropped and replaced, as PaddleOCR does: "
                             "its " + (nrtr ? "NRTR label (<s> + text + </s>)" : "SAR label (BOS + text + EOS)") +
                             " must fit in max_text_length " +
                             std::to_string(max_text_length) + "; the count is in the data line at the end";
    if (std::find(notes->begin(), notes->end(), note) == notes->end()) notes->push_back(note);
  }
  if (notes)
    for (const std::string& note : setup.notes)
      if (std::find(notes->begin(), notes->end(), note) == notes->end()) notes->push_back(note);
  if (!training) setup.loader.drop_last = false;  // evaluate every sample
  if (setup.sampler) {
    if (notes) {
      std::string sizes;
      for (const ScaleBatch& b : multi_scale_batches(*setup.sampler))
        sizes += (sizes.empty() ? "" : ", ") + std::to_string(b.height) + "x" + std::to_string(b.width) + " x " +
                 std::to_string(b.batch_size);
      const std::string note = name + ".sampler MultiScaleSampler: batches of " + sizes +
                               " (height x width x batch size" + (world_size > 1 ? " per process" : "") + "); " +
                               name + ".loader's batch_size_per_card, shuffle and drop_last are not used with it";
      if (std::find(notes->begin(), notes->end(), note) == notes->end()) notes->push_back(note);
    }
    // Evaluation reads everything on every rank, as with the other samplers.
    return std::make_unique<BatchLoader>(setup.dataset, setup.loader, seed,
                                         make_multi_scale_sampler(*setup.sampler, seed, training ? rank : 0,
                                                                  training ? world_size : 1));
  }
  return std::make_unique<BatchLoader>(
      setup.dataset, setup.loader, seed,
      task_sampler(training, setup.loader.shuffle, seed, rank, world_size, setup.loader.batch_size));
}

StepLoss RecTask::train_step(const Batch& batch) {
  StepLoss s;
  if (loss_.name != "MultiLoss") {
    s.output = logits(batch.at("image"));
    s.loss = ctc_loss(s.output, batch.at("label").to(device_), batch.at("length").to(device_), loss_.use_focal_loss);
    return s;
  }
  // PaddleOCR's MultiLoss: weight_1 x CTCLoss(ctc) + weight_2 x SARLoss(sar) or NRTRLoss(nrtr), each when listed.
  SarTargets targets;
  if (loss_.sar) targets = {batch.at("label_sar").to(device_), batch.at("valid_ratio").to(device_)};
  NrtrTargets nrtr;
  if (loss_.nrtr) nrtr = {batch.at("label_gtc").to(device_), batch.at("length").to(device_)};
  const RecForward f = model_->forward_all(batch.at("image").to(device_), loss_.sar ? &targets : nullptr,
                                           loss_.nrtr ? &nrtr : nullptr);
  s.output = f.logits;
  s.loss = torch::zeros({}, f.logits.options());
  if (loss_.ctc) {
    const auto ctc = ctc_loss(f.logits, batch.at("label").to(device_), batch.at("length").to(device_),
                              loss_.use_focal_loss) * loss_.weight_1;
    s.parts.emplace_back("CTCLoss", ctc.item<double>());
    s.loss = s.loss + ctc;
  }
  if (loss_.sar) {
    const auto sar = sar_loss(f.sar_logits, targets.label_sar, sar_ignore_index_) * loss_.weight_2;
    s.parts.emplace_back("SARLoss", sar.item<double>());
    s.loss = s.loss + sar;
  }
  if (loss_.nrtr) {
    const auto gtc = nrtr_loss(f.nrtr_logits, nrtr.label_gtc, nrtr.length, loss_.nrtr_smoothing) * loss_.weight_2;
    s.parts.emplace_back("NRTRLoss", gtc.item<double>());
    s.loss = s.loss + gtc;
  }
  return s;
}

MetricSums RecTask::train_metrics(const Batch& batch, const StepLoss& step) {
  RecMetric m(ignore_space_);
  const auto texts = decode_logits(step.output, charset_);
  for (size_t i = 0; i < texts.size(); ++i) m.add(texts[i], batch.texts[i]);
  const double n = static_cast<double>(m.count());
  return {{"acc", "norm_edit_dis"}, {m.acc() * n, m.norm_edit_dis() * n}, n};
}

EvalMetrics RecTask::evaluate(BatchLoader& loader, const std::function<void(size_t, size_t)>& progress) {
  model().eval();
  torch::NoGradGuard no_grad;
  Stopwatch sw;
  RecMetric metric(ignore_space_);
  loader.start_epoch(0);
  const size_t total = loader.batches_per_epoch();
  size_t done = 0;
  Batch batch;
  while (loader.next(&batch)) {
    const auto texts = decode_logit_texts(logits(batch.at("image")), charset_);
    for (size_t i = 0; i < texts.size(); ++i) {
      const bool correct = metric.add(texts[i].text, batch.texts[i]);
      if (sample_sink_) sample_sink_({batch.paths[i], batch.texts[i], texts[i].text, texts[i].score, correct});
    }
    if (progress) progress(++done, total);
  }
  model().train();
  EvalMetrics r;
  r.values = {{"acc", metric.acc()}, {"norm_edit_dis", metric.norm_edit_dis()}};
  r.samples = metric.count();
  r.seconds = sw.elapsed_ms() / 1000.0;
  return r;
}

std::string RecTask::own_weights() const {
  if (onnx_) return onnx_->path();
  throw UsageError(kNativeExportNeedsWeights);
}

void RecTask::export_inference(const Config& config, const std::string& out_dir, ExportReport& report) {
  const InferenceFolder f =
      onnx_ ? write_inference_folder(out_dir, *onnx_, config, &charset_)
            : write_inference_folder(out_dir, rec_model_to_onnx(*model_, rec_input_size(config.root()).first), config,
                                     &charset_);
  if (model_) {
    const std::string note = unexported_head_note(*model_, "Architecture ");
    if (!note.empty()) report.notes.push_back(note);
  }
  report.onnx_path = f.onnx_path;
  report.yml_path = f.yml_path;
  report.parameters = static_cast<long>(model().parameters().size());
}

Task::InferenceForward RecTask::inference_forward(const Config& config, const std::string&, const std::string&) {
  InferenceForward f;
  f.input_shape = {-1, 3, rec_input_size(config.root()).first, -1};
  if (model_) f.input_shape = rec_onnx_input_shape(*model_, f.input_shape[2]);  // SVTRNet: its one size
  f.output_shape = {-1, -1, charset_.num_classes()};
  if (onnx_)
    f.forward = [m = onnx_](const torch::Tensor& x) mutable { return m->forward(x); };
  else
    f.forward = [m = model_](const torch::Tensor& x) mutable { return m->predict(x); };  // softmax over classes
  return f;
}

bool rec_task_takes(const TaskKey& k) { return k.model_type == ModelType::Rec && !k.distillation; }

std::unique_ptr<Task> make_rec_task(const Config& config, const TrainerSpec& options, torch::Device device) {
  return std::make_unique<RecTask>(config, options, device);
}

}  // namespace ocrforge
