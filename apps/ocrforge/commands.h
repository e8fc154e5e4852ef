// Subcommands of the ocrforge binary: each takes its arguments (after the
// subcommand name) and returns the process exit code. Errors are thrown as
// ocrforge::Error / UsageError and mapped to exit codes in main().
#pragma once
#include <string>
#include <vector>

namespace ocrforge {

using Args = std::vector<std::string>;

int cmd_ocr(const Args& args);    // cmd_ocr.cpp: det -> cls -> rec on images
int cmd_infer(const Args& args);  // cmd_infer.cpp: one model: det | cls | rec
int cmd_synth(const Args& args);  // cmd_synth.cpp: synthetic labelled data: rec | det
int cmd_train(const Args& args);  // cmd_train.cpp: recognition training (LibTorch builds only)
int cmd_eval(const Args& args);   // cmd_train.cpp: evaluation of a checkpoint
int cmd_export(const Args& args); // cmd_export.cpp: trained model -> inference folder (ONNX)
int cmd_launch(const Args& args); // cmd_launch.cpp: one `train` worker per device (distributed)
int cmd_check(const Args& args);  // cmd_check.cpp: installation check (LibTorch builds only)
// cmd_check_config.cpp: `check -c CONFIG`: a training config validated and built, not trained
bool is_config_check(const Args& args);
int cmd_check_config(const Args& args);
int cmd_tipc(const Args& args);      // cmd_tipc.cpp: PaddleOCR TIPC configs: the commands they compose
int cmd_eval_det(const Args& args);  // cmd_eval_det.cpp: precision / recall / hmean of detections vs labels
int cmd_data(const Args& args);      // cmd_data.cpp: label-file tools: crop (det labels -> rec crops) | split
int cmd_serve(const Args& args);     // cmd_serve.cpp: OCR over HTTP (PaddleX / PaddleHub APIs, web page)

}  // namespace ocrforge
