#include "asic_ref_dram.h"

#include <iterator>
#include <new>
#include <string>

namespace phal::asic_ref {

StatusOr<uint64_t> Dram::Allocate(uint64_t byte_size) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (byte_size > capacity_bytes_ - allocated_bytes_) {
    return ResourceExhausted(
        "asic-ref plugin: allocating " + std::to_string(byte_size) +
        " bytes of device DRAM exceeds its " + std::to_string(capacity_bytes_) +
        " bytes (" + std::to_string(allocated_bytes_) + " in use)");
  }
  const uint64_t pages = byte_size / kDramPageBytes + 1;
  if (pages > (UINT64_MAX - next_address_) / kDramPageBytes) {
    return ResourceExhausted(
        "asic-ref plugin: the device address space is used up");
  }
  Block block;
  block.size = byte_size;
  if (byte_size > 0) {
    block.bytes.reset(new (std::nothrow) uint8_t[byte_size]);
    if (block.bytes == nullptr) {
      return ResourceExhausted("asic-ref plugin: no host memory to back " +
                               std::to_string(byte_size) +
                               " bytes of device DRAM");
    }
  }
  const uint64_t address = next_address_;
  next_address_ += pages * kDramPageBytes;
  allocated_bytes_ += byte_size;
  blocks_.emplace(address, std::move(block));
  return address;
}

void Dram::Free(uint64_t address) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = blocks_.find(address);
  if (found == blocks_.end()) return;
  allocated_bytes_ -= found->second.size;
  blocks_.erase(found);
}

uint8_t* Dram::Map(uint64_t address, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto after = blocks_.upper_bound(address);
  if (after == blocks_.begin()) return nullptr;
  const auto& [start, block] = *std::prev(after);
  const uint64_t offset = address - start;
  if (offset > block.size || bytes > block.size - offset) return nullptr;
  // An empty range inside (or at the end of) an allocation maps, even of a
  // zero-byte allocation, which has no backing block.
  static uint8_t empty_range;
  if (block.bytes == nullptr) return &empty_range;
  return block.bytes.get() + offset;
}

uint64_t Dram::allocated_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return allocated_bytes_;
}

}  // namespace phal::asic_ref
