// Writes the LMDB data sets PaddleOCR's LMDBDataSet reads, for `tipc
// prepare` (the TIPC configs of the LMDB recognizers name folders such as
// ./train_data/data_lmdb_release/training/ that PaddleOCR's prepare.sh
// downloads). Training reads them with train/data/lmdb_env.h.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace ocrforge {

// Folder `dir` becomes one LMDB environment in the layout of PaddleOCR's
// data_lmdb_release: `num-samples` (decimal text), and for k = 1..n
// `image-%09d` (the bytes of samples[k-1].first, an image file) and
// `label-%09d` (samples[k-1].second). The environment is written in a
// sibling folder and renamed into place, so a prepare that is killed leaves
// no half environment that reads as present. Throws Error naming the folder
// or the image file on failure.
void write_rec_lmdb(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& samples);

}  // namespace ocrforge
