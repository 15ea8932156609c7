// Memorised failed states of the exact interval searches (FailedSets): a flat open-addressing table of bounded memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pipesim::exact {

/// Failed states (set of used processors, position) of a search, each with a value kept at the maximum stored:
/// open addressing with linear probing in one flat array, so lookups are fast and clearing only bumps a generation
/// number. It grows up to `max_bytes` and is cleared when that is half full (a cache: forgetting only costs time).
template <class Set>
class FailedSets {
public:
  /// Memory of the table at most (one table per search).
  static constexpr std::size_t max_bytes = std::size_t{1} << 26;

  void clear()
  {
    ++generation_;
    size_ = 0;
  }
  /// The value stored for (used, position), or nullptr.
  const double* find(const Set& used, std::uint32_t position) const
  {
    if (slots_.empty()) return nullptr;
    const Slot& slot = slots_[slot_of(used, position)];
    return slot.generation == generation_ ? &slot.value : nullptr;
  }
  /// Stores max(value, the value stored for (used, position)).
  void raise(const Set& used, std::uint32_t position, double value)
  {
    if (2 * (size_ + 1) > slots_.size()) {
      if (2 * slots_.size() * sizeof(Slot) > max_bytes && not slots_.empty())
        clear();
      else
        grow();
    }
    Slot& slot = slots_[slot_of(used, position)];
    if (slot.generation != generation_) {
      slot = Slot{used, value, position, generation_};
      ++size_;
    } else if (value > slot.value) {
      slot.value = value;
    }
  }
  std::size_t size() const { return size_; }

private:
  struct Slot {
    Set used;
    double value;
    std::uint32_t position;
    std::uint32_t generation; // the slot is empty unless it equals generation_
  };
  std::size_t slot_of(const Set& used, std::uint32_t position) const
  {
    std::uint64_t h = (used.hash() ^ (position * 0x9e3779b97f4a7c15ULL)) * 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 31;
    std::size_t mask = slots_.size() - 1;
    for (auto at = static_cast<std::size_t>(h) & mask;; at = (at + 1) & mask) {
      const Slot& slot = slots_[at];
      if (slot.generation != generation_ || (slot.position == position && slot.used == used)) return at;
    }
  }
  void grow()
  {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 256 : 2 * old.size(), Slot{Set{}, 0, 0, 0});
    size_ = 0;
    for (const Slot& slot : old)
      if (slot.generation == generation_) raise(slot.used, slot.position, slot.value);
  }

  std::vector<Slot> slots_;
  std::size_t size_         = 0;
  std::uint32_t generation_ = 1;
};

} // namespace pipesim::exact
