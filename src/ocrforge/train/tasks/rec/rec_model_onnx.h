// The recognition networks the trainer builds (rec_model.h: every backbone
// of rec_backbone_names(), MultiHead's use_pool, SequenceEncoder reshape /
// fc / rnn / svtr neck, CTC head) as an ONNX graph: one emitter per module type,
// reading the module's weights in eval form (batch norm folded into the
// convolutions, dropout and drop-path gone). Initializer names are the
// module names (`backbone.conv1._conv.weight`, holding the folded weight).
#pragma once
#include <string>

#include "ocrforge/onnx/onnx_graph.h"
#include "ocrforge/train/export/onnx_emitter.h"
#include "ocrforge/train/tasks/rec/rec_model.h"

namespace ocrforge {

// Input "x": rec_onnx_input_shape (N and W dynamic, SVTRNet's W fixed); output
// "softmax": N x T x classes, the probabilities PaddleOCR's inference model
// gives. Error naming the module for anything the exporter does not know.
OnnxGraph rec_model_to_onnx(const RecModelImpl& model, int64_t height);

// The graph's input: N x in_channels x `height` x W with N and W dynamic;
// SVTRNet's is its img_size, static (UsageError when `height` differs).
std::vector<int64_t> rec_onnx_input_shape(const RecModelImpl& model, int64_t height);

// The backbone's nodes on input `x` (initializers under "backbone."), up to
// the map the neck (or MultiHead's use_pool) reads; the direction
// classifier shares it. Error naming `name` (its Architecture.Backbone.name)
// for a backbone the exporter does not know.
std::string rec_backbone_to_onnx(OnnxEmitter& e, const std::string& x, const RecBackboneImpl& backbone,
                                 const std::string& name);

// What the export leaves out of `model`, for the command's output: a
// MultiHead's SARHead trains only (the inference graph is the CTC branch, as
// PaddleOCR's); "" when nothing. `where` prefixes the line ("Architecture ").
std::string unexported_head_note(const RecModelImpl& model, const std::string& where);

}  // namespace ocrforge
