// The device's DRAM: a simulated address space of 64-bit device addresses,
// each allocation backed by a block of host memory. Buffers hold a device
// address; copies from and to the host reach the backing block directly (a
// real chip's driver would DMA over PCIe there), and the simulator's DMA
// engine reaches it through Map, which refuses any range that is not inside
// one live allocation.
#ifndef POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_DRAM_H_
#define POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_DRAM_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include "sdk/base/status.h"
#include "simulator/asic_simulator.h"

namespace phal::asic_ref {

// Where the first allocation starts, and the granule every allocation's
// address is aligned to: address 0 and its neighbourhood are never valid,
// so a kernel reading an uninitialised address faults.
inline constexpr uint64_t kDramBaseAddress = 0x1000'0000;
inline constexpr uint64_t kDramPageBytes = 4096;

// Thread-safe.
class Dram final : public DramView {
 public:
  // A DRAM of `capacity_bytes`: allocations fail once they would hold more.
  explicit Dram(uint64_t capacity_bytes) : capacity_bytes_(capacity_bytes) {}

  // A fresh allocation of `byte_size` bytes (uninitialised): its device
  // address, page-aligned and never handed out before, so a zero-byte
  // allocation is distinct too. RESOURCE_EXHAUSTED naming the sizes when
  // the DRAM would hold more than its capacity.
  StatusOr<uint64_t> Allocate(uint64_t byte_size);
  // Releases the allocation at `address`; its addresses stay unused.
  void Free(uint64_t address);

  // The host bytes behind [address, address + bytes), or nullptr when any
  // of them lies outside the one allocation that holds `address`.
  uint8_t* Map(uint64_t address, uint64_t bytes) override;

  uint64_t capacity_bytes() const { return capacity_bytes_; }
  uint64_t allocated_bytes() const;

 private:
  struct Block {
    std::unique_ptr<uint8_t[]> bytes;
    uint64_t size = 0;
  };

  const uint64_t capacity_bytes_;
  mutable std::mutex mutex_;
  std::map<uint64_t, Block> blocks_;  // by device address
  uint64_t next_address_ = kDramBaseAddress;
  uint64_t allocated_bytes_ = 0;
};

}  // namespace phal::asic_ref

#endif  // POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_DRAM_H_
