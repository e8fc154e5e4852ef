// Config-schema rows (core/config_schema.h) for the detection components
// that det_arch_from_yaml() and db_loss_from_yaml() read, kept next to that
// reader so the two cannot drift (tests/train/models/det_config_schema_test
// checks every row against the reader).
//
// To wire them in, append each list to the matching component of the schema
// (Architecture.Backbone / Neck / Head, Loss). Note: the recognition schema
// has a "MobileNetV3" backbone row too (rec keys small_stride, large_stride);
// the component needs one row per name, so merge the two rows' keys there.
#pragma once
#include <vector>

#include "ocrforge/core/config_schema.h"

namespace ocrforge {

std::vector<schema::Variant> det_backbone_variants();  // MobileNetV3 (det keys), ResNet_vd
std::vector<schema::Variant> det_neck_variants();      // DBFPN, RSEFPN
std::vector<schema::Variant> det_head_variants();      // DBHead
std::vector<schema::Variant> det_loss_variants();      // DBLoss

}  // namespace ocrforge
