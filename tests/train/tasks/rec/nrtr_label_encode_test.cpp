// NRTRLabelEncode's layout: <s> (2), the characters at CTC index + 3, </s>
// (3), padding 0; texts of max_text_length - 1 characters or more rejected.
#include "ocrforge/train/tasks/rec/nrtr_label_encode.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"

namespace ocrforge {
namespace {

TEST(NrtrLabelEncode, StartTextEndPadding) {
  // CTC indices 1..10 for a 10-character dictionary.
  EXPECT_EQ(nrtr_label_from_ctc({1, 10, 5}, 10, 7), (std::vector<int64_t>{2, 4, 13, 8, 3, 0, 0}));
  EXPECT_EQ(nrtr_label_from_ctc({}, 10, 3), (std::vector<int64_t>{2, 3, 0}));
}

TEST(NrtrLabelEncode, RejectsTextsWithoutRoomForStartAndEnd) {
  EXPECT_EQ(nrtr_label_from_ctc({1, 2, 3, 4, 5}, 10, 7).size(), 7u);
  EXPECT_TRUE(nrtr_label_from_ctc({1, 2, 3, 4, 5, 6}, 10, 7).empty());  // PaddleOCR: len >= max_text_length - 1
  EXPECT_THROW(nrtr_label_from_ctc({0}, 10, 7), Error);                // the CTC blank is no character
  EXPECT_THROW(nrtr_label_from_ctc({11}, 10, 7), Error);
}

}  // namespace
}  // namespace ocrforge
