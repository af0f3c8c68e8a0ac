#include "sim/cpu/radix_sort.hpp"

#include <omp.h>

namespace crowd {

void RadixSorter::sort(std::span<const std::uint32_t> keys, int keyBits, std::vector<int>& order,
                       int threads) {
  const std::size_t n = keys.size();
  order.resize(n);
  scratch_.resize(n);
  keyScratch_.resize(n);
  sortedKeys_.resize(n);
  // The fewest passes of at most 11 bits; the digit width is split evenly between them.
  const int passes = keyBits <= 11 ? 1 : (keyBits <= 22 ? 2 : 3);
  const int digitBits = (keyBits + passes - 1) / passes;
  const std::size_t digits = std::size_t{1} << digitBits;
  counts_.assign(static_cast<std::size_t>(threads) * digits, 0);

  // Pass p reads (indices, keys) from one pair of buffers and writes the other; the first pass
  // reads the identity order and the caller's keys.
  const std::uint32_t* inKeys = keys.data();
  const int* inOrder = nullptr;
  std::uint32_t* outKeys = passes % 2 == 1 ? sortedKeys_.data() : keyScratch_.data();
  int* outOrder = passes % 2 == 1 ? order.data() : scratch_.data();
  for (int pass = 0; pass < passes; ++pass) {
    const int shift = pass * digitBits;
    const std::uint32_t mask = static_cast<std::uint32_t>(digits - 1);
#pragma omp parallel num_threads(threads)
    {
      // Each thread takes one contiguous share of the input, so that concatenating the
      // threads' outputs per digit keeps the input order: the sort stays stable.
      const int t = omp_get_thread_num();
      const int team = omp_get_num_threads();
      const std::size_t begin = n * static_cast<std::size_t>(t) / static_cast<std::size_t>(team);
      const std::size_t end = n * static_cast<std::size_t>(t + 1) / static_cast<std::size_t>(team);
      std::size_t* count = &counts_[static_cast<std::size_t>(t) * digits];
      for (std::size_t d = 0; d < digits; ++d) count[d] = 0;
      for (std::size_t i = begin; i < end; ++i) ++count[(inKeys[i] >> shift) & mask];
#pragma omp barrier
#pragma omp single
      {
        std::size_t offset = 0;
        for (std::size_t d = 0; d < digits; ++d) {
          for (int u = 0; u < team; ++u) {
            std::size_t& c = counts_[static_cast<std::size_t>(u) * digits + d];
            const std::size_t here = c;
            c = offset;
            offset += here;
          }
        }
      }
      for (std::size_t i = begin; i < end; ++i) {
        const std::size_t at = count[(inKeys[i] >> shift) & mask]++;
        outKeys[at] = inKeys[i];
        outOrder[at] = inOrder != nullptr ? inOrder[i] : static_cast<int>(i);
      }
    }
    inKeys = outKeys;
    inOrder = outOrder;
    outKeys = outKeys == sortedKeys_.data() ? keyScratch_.data() : sortedKeys_.data();
    outOrder = outOrder == order.data() ? scratch_.data() : order.data();
  }
}

}  // namespace crowd
