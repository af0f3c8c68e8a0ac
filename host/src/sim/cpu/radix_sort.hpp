// A stable least-significant-digit radix sort of indices by 32-bit keys, on all cores. Two
// passes of up to 11-bit digits cover the agent grid's bucket numbers (up to 2^22 buckets):
// each pass reads the keys in order and writes to 2^11 places at once, which the caches
// handle far better than a counting sort's random increments over a table of millions.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace crowd {

class RadixSorter {
 public:
  /// Fills `order` with 0..keys.size()-1 sorted by keys[i] (< 2^keyBits), ties in index order.
  void sort(std::span<const std::uint32_t> keys, int keyBits, std::vector<int>& order, int threads);
  /// The keys in sorted order, as the last sort left them.
  std::span<const std::uint32_t> sortedKeys() const { return sortedKeys_; }
  /// Bytes of working memory held between sorts.
  std::size_t bytes() const {
    return scratch_.capacity() * sizeof(int) +
           (keyScratch_.capacity() + sortedKeys_.capacity()) * sizeof(std::uint32_t) +
           counts_.capacity() * sizeof(std::size_t);
  }

 private:
  std::vector<int> scratch_;
  std::vector<std::uint32_t> keyScratch_;
  std::vector<std::uint32_t> sortedKeys_;
  std::vector<std::size_t> counts_;  // Per thread and digit.
};

}  // namespace crowd
