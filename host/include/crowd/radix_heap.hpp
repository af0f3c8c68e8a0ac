// The open list of the grid searches (A* and the goal fields' Dijkstra).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace crowd::detail {

/// An open-list entry, 16 bytes. Entries made stale by a shorter path stay queued and are
/// dropped when they surface (lazy deletion): cheaper than a decrease-key's position index.
struct OpenEntry {
  std::uint64_t key;  // Smallest first: f in fixed point for A*, the distance's bits for Dijkstra.
  std::uint32_t cell;
  std::uint16_t x;
  std::uint16_t y;
};

/// A monotone priority queue (a radix heap, Ahuja, Mehlhorn, Orlin and Tarjan 1990): keys are
/// never pushed below the last key popped, which A* (see AstarWorkspace) and Dijkstra both
/// honour; a key that is anyway is queued as if equal to it. Bucket b > 0 holds keys whose
/// highest bit differing from the last popped key is bit b - 1; a pop empties the lowest such
/// bucket into lower ones, so pushes cost O(1) and an entry moves at most 64 times (a few, when
/// keys are close together as they are here). Equal keys come out last in, first out. The
/// buckets keep their memory between searches.
class RadixHeap {
 public:
  bool empty() const { return size_ == 0; }
  void clear();
  void push(const OpenEntry& entry);
  OpenEntry pop();

 private:
  static int bucketOf(std::uint64_t key, std::uint64_t last);

  std::array<std::vector<OpenEntry>, 65> buckets_;
  std::uint64_t nonEmpty_ = 0;  // Bit b - 1 set when bucket b > 0 holds entries.
  std::uint64_t last_ = 0;
  std::size_t size_ = 0;
};

}  // namespace crowd::detail
