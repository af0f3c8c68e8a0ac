#include <algorithm>
#include <bit>

#include <crowd/radix_heap.hpp>

namespace crowd::detail {

void RadixHeap::clear() {
  for (std::vector<OpenEntry>& bucket : buckets_) bucket.clear();
  nonEmpty_ = 0;
  last_ = 0;
  size_ = 0;
}

inline int RadixHeap::bucketOf(std::uint64_t key, std::uint64_t last) {
  return key == last ? 0 : 64 - std::countl_zero(key ^ last);
}

void RadixHeap::push(const OpenEntry& entry) {
  const int b = entry.key <= last_ ? 0 : bucketOf(entry.key, last_);
  buckets_[static_cast<std::size_t>(b)].push_back(entry);
  if (b > 0) nonEmpty_ |= std::uint64_t{1} << (b - 1);
  ++size_;
}

OpenEntry RadixHeap::pop() {
  std::vector<OpenEntry>& front = buckets_[0];
  if (front.empty()) {
    // The lowest non-empty bucket holds the smallest key; with it as the new last key, all of
    // the bucket's entries fall into lower buckets (they share all bits above its own).
    const int b = std::countr_zero(nonEmpty_) + 1;
    std::vector<OpenEntry>& source = buckets_[static_cast<std::size_t>(b)];
    std::uint64_t smallest = source.front().key;
    for (const OpenEntry& e : source) smallest = std::min(smallest, e.key);
    last_ = smallest;
    nonEmpty_ &= ~(std::uint64_t{1} << (b - 1));
    for (const OpenEntry& e : source) {
      const int to = bucketOf(e.key, last_);
      buckets_[static_cast<std::size_t>(to)].push_back(e);
      if (to > 0) nonEmpty_ |= std::uint64_t{1} << (to - 1);
    }
    source.clear();
  }
  const OpenEntry top = front.back();
  front.pop_back();
  --size_;
  return top;
}

}  // namespace crowd::detail
