#include "ocrforge/infer/bounded_queue.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace ocrforge;

TEST(BoundedQueue, DeliversInOrderAndDrainsAfterClose) {
  BoundedQueue<int> q(2);
  std::thread producer([&] {
    for (int i = 0; i < 100; ++i) ASSERT_TRUE(q.push(i));
    q.close();
  });
  std::vector<int> got;
  while (auto v = q.pop()) got.push_back(*v);
  producer.join();
  ASSERT_EQ(got.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(got[static_cast<size_t>(i)], i);
}

TEST(BoundedQueue, CancelReleasesABlockedProducer) {
  BoundedQueue<int> q(1);
  ASSERT_TRUE(q.push(1));
  bool second = true;
  std::thread producer([&] { second = q.push(2); });  // blocks: the queue is full
  q.cancel();
  producer.join();
  EXPECT_FALSE(second);
  EXPECT_FALSE(q.pop().has_value());
}
