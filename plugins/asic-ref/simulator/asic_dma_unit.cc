// The DMA units: box and indirect (gather and scatter) transfers between
// DRAM and SRAM.
#include "simulator/asic_execution.h"

#include <cstring>
#include <limits>

namespace phal::asic_ref::simulation {
namespace {

// Copies `count` elements of kSize bytes between strided arrays.
template <size_t kSize>
void CopyStrided(uint8_t* dst, int64_t dst_stride, const uint8_t* src,
                 int64_t src_stride, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    std::memcpy(dst + i * dst_stride, src + i * src_stride, kSize);
  }
}

void CopyElements(size_t size, uint8_t* dst, int64_t dst_stride,
                  const uint8_t* src, int64_t src_stride, int64_t count) {
  switch (size) {
    case 1:
      return CopyStrided<1>(dst, dst_stride, src, src_stride, count);
    case 2:
      return CopyStrided<2>(dst, dst_stride, src, src_stride, count);
    case 4:
      return CopyStrided<4>(dst, dst_stride, src, src_stride, count);
    default:
      return CopyStrided<8>(dst, dst_stride, src, src_stride, count);
  }
}

}  // namespace

Status Execution::DmaBox(const Instruction& in) {
  const bool load = in.op == Opcode::kDmaLoad;
  const DmaDescriptor& desc = program_.descriptors[in.descriptor];
  const uint64_t size = SizeOf(in.type);
  std::array<uint64_t, 3> counts{};
  const uint8_t regs[3] = {in.r0, in.r1, in.r2};
  for (int i = 0; i < 3; ++i) {
    if (regs[i] == 0) {
      counts[i] = 1;
    } else {
      PHAL_RETURN_IF_ERROR(Count(regs[i], "box count", &counts[i]));
      if (counts[i] > (uint64_t{1} << 40)) {
        return OutOfRange("box count " + std::to_string(counts[i]) +
                          " is too large");
      }
    }
  }
  if (x_[in.rm] >= kScratchpadAperture) return DmaBoxOnChip(in, counts);
  const uint64_t sram_base = x_[in.rb] + in.offset[0];
  const uint64_t dram_base = x_[in.rm];
  using Wide = __int128;
  const Wide elements = Wide{counts[0]} * counts[1] * counts[2];
  // The box's extent in elements relative to its base, in DRAM and SRAM.
  Wide dram_low = 0, dram_high = 0, sram_low = 0, sram_high = 0;
  struct Dim {
    int64_t count;
    int64_t dram;  // strides in bytes
    int64_t sram;
  };
  Dim dims[3];
  int dim_count = 0;
  for (int i = 0; i < 3 && elements > 0; ++i) {
    const Wide last = Wide{counts[i]} - 1;
    const Wide dram_span = last * desc.dram_strides[i];
    const Wide sram_span = last * desc.sram_strides[i];
    dram_low += std::min<Wide>(0, dram_span);
    dram_high += std::max<Wide>(0, dram_span);
    sram_low += std::min<Wide>(0, sram_span);
    sram_high += std::max<Wide>(0, sram_span);
    if (counts[i] > 1) {
      dims[dim_count++] = {static_cast<int64_t>(counts[i]),
                           desc.dram_strides[i] * static_cast<int64_t>(size),
                           desc.sram_strides[i] * static_cast<int64_t>(size)};
    }
  }
  const Wide wide_size = size;
  const Wide sram_begin = Wide{sram_base} + sram_low * wide_size;
  const Wide sram_end = Wide{sram_base} + (sram_high + 1) * wide_size;
  const Wide dram_begin = Wide{dram_base} + dram_low * wide_size;
  const Wide dram_end = Wide{dram_base} + (dram_high + 1) * wide_size;
  Access access{0, 0, load};
  uint64_t dram_span[2] = {0, 0};  // the DRAM bytes the box spans
  uint64_t rows = 0;
  const uint64_t bytes = static_cast<uint64_t>(elements) * size;
  if (elements * wide_size > Wide{config_.dram_bytes}) {
    return OutOfRange("the box moves more bytes than DRAM holds (" +
                      std::to_string(config_.dram_bytes) + ")");
  }
  if (elements > 0) {
    if (sram_begin < 0 || sram_end > Wide{config_.sram_bytes}) {
      return OutOfRange("the box covers SRAM bytes outside [0, " +
                        std::to_string(config_.sram_bytes) + ")");
    }
    if (dram_begin < 0 ||
        dram_end > Wide{std::numeric_limits<uint64_t>::max()}) {
      return OutOfRange("the box's DRAM addresses wrap around");
    }
    access = {static_cast<uint64_t>(sram_begin),
              static_cast<uint64_t>(sram_end), load};
    // Merge the innermost dimensions that are contiguous on both sides.
    int64_t run = static_cast<int64_t>(size);
    while (dim_count > 0 && dims[dim_count - 1].dram == run &&
           dims[dim_count - 1].sram == run) {
      run *= dims[dim_count - 1].count;
      --dim_count;
    }
    rows = bytes / static_cast<uint64_t>(run);
    const auto dram_first = static_cast<uint64_t>(dram_begin);
    const uint64_t dram_bytes = static_cast<uint64_t>(dram_end - dram_begin);
    dram_span[0] = dram_first;
    dram_span[1] = dram_first + dram_bytes;
    uint8_t* mapped = dram_.Map(dram_first, dram_bytes);
    // The element loop runs along the innermost remaining dimension when
    // the box is not contiguous there.
    const bool strided_inner =
        run == static_cast<int64_t>(size) && dim_count > 0;
    const int outer = strided_inner ? dim_count - 1 : dim_count;
    int64_t index[3] = {0, 0, 0};
    for (;;) {
      int64_t dram_off = static_cast<int64_t>(dram_base - dram_first);
      int64_t sram_off = 0;
      for (int i = 0; i < outer; ++i) {
        dram_off += index[i] * dims[i].dram;
        sram_off += index[i] * dims[i].sram;
      }
      uint8_t* sram_at = sram_ + sram_base + sram_off;
      const int64_t inner_count = strided_inner ? dims[dim_count - 1].count : 1;
      const int64_t inner_dram = strided_inner ? dims[dim_count - 1].dram : 0;
      const int64_t inner_sram = strided_inner ? dims[dim_count - 1].sram : 0;
      if (mapped != nullptr) {
        uint8_t* dram_at = mapped + dram_off;
        if (strided_inner) {
          if (load) {
            CopyElements(size, sram_at, inner_sram, dram_at, inner_dram,
                         inner_count);
          } else {
            CopyElements(size, dram_at, inner_dram, sram_at, inner_sram,
                         inner_count);
          }
        } else if (load) {
          std::memcpy(sram_at, dram_at, static_cast<size_t>(run));
        } else {
          std::memcpy(dram_at, sram_at, static_cast<size_t>(run));
        }
      } else {
        for (int64_t e = 0; e < inner_count; ++e) {
          const uint64_t address = dram_first +
                                   static_cast<uint64_t>(dram_off) +
                                   static_cast<uint64_t>(e * inner_dram);
          const uint64_t length =
              strided_inner ? size : static_cast<uint64_t>(run);
          uint8_t* dram_at = dram_.Map(address, length);
          if (dram_at == nullptr) {
            return OutOfRange("DRAM [" + std::to_string(address) + ", +" +
                              std::to_string(length) +
                              ") is outside allocated memory");
          }
          uint8_t* s = sram_at + e * inner_sram;
          if (load) {
            std::memcpy(s, dram_at, length);
          } else {
            std::memcpy(dram_at, s, length);
          }
        }
      }
      int i = outer - 1;
      while (i >= 0 && ++index[i] == dims[i].count) {
        index[i] = 0;
        --i;
      }
      if (i < 0) break;
    }
    if (load) MarkWritten(access.end);
  }
  if (load) {
    counters_.dram_bytes_read += bytes;
  } else {
    counters_.dram_bytes_written += bytes;
  }
  const uint64_t cost =
      config_.dma_latency_cycles +
      std::max(CeilDiv(bytes, config_.dma_bytes_per_cycle), rows);
  const Interval when =
      Issue(load ? Unit::kDmaIn : Unit::kDmaOut, cost, &access, 1);
  return CheckDramOrder(dram_span[0], dram_span[1], !load, when);
}

Status Execution::DmaIndirect(const Instruction& in) {
  const bool gather = in.op == Opcode::kDmaGather;
  const uint64_t size = SizeOf(in.type);
  uint64_t count = 1;
  if (in.r0 != 0) PHAL_RETURN_IF_ERROR(Count(in.r0, "count", &count));
  if (count > config_.sram_bytes) {
    return OutOfRange("count " + std::to_string(count) + " exceeds SRAM");
  }
  const uint64_t data = x_[in.rb] + in.offset[0];
  const uint64_t list = x_[in.rb] + in.offset[1];
  PHAL_RETURN_IF_ERROR(CheckSram(data, count * size, "data"));
  PHAL_RETURN_IF_ERROR(CheckSram(list, count * 8, "offset list"));
  if (x_[in.rm] >= kScratchpadAperture) return DmaIndirectOnChip(in, count);
  const Access accesses[2] = {{data, data + count * size, gather},
                              {list, list + count * 8, false}};
  const uint64_t dram_base = x_[in.rm];
  const uint8_t* offsets = sram_ + list;
  // One mapping for the span of every addressed element, when it maps.
  int64_t lowest = std::numeric_limits<int64_t>::max(), highest = -1;
  for (uint64_t i = 0; i < count; ++i) {
    int64_t off;
    std::memcpy(&off, offsets + 8 * i, 8);
    if (off < 0) continue;
    lowest = std::min(lowest, off);
    highest = std::max(highest, off);
  }
  uint8_t* mapped = nullptr;
  uint64_t dram_span[2] = {0, 0};  // the DRAM bytes the elements span
  using Wide = __int128;
  if (highest >= 0) {
    const Wide begin = Wide{dram_base} + Wide{lowest} * size;
    const Wide end = Wide{dram_base} + (Wide{highest} + 1) * size;
    if (end <= Wide{std::numeric_limits<uint64_t>::max()}) {
      dram_span[0] = static_cast<uint64_t>(begin);
      dram_span[1] = static_cast<uint64_t>(end);
      mapped = dram_.Map(dram_span[0], dram_span[1] - dram_span[0]);
    }
  }
  uint64_t moved = 0;
  uint8_t* element = sram_ + data;
  for (uint64_t i = 0; i < count; ++i, element += size) {
    int64_t off;
    std::memcpy(&off, offsets + 8 * i, 8);
    if (off < 0) {
      if (gather) std::memset(element, 0, size);
      continue;
    }
    uint8_t* at;
    if (mapped != nullptr) {
      at = mapped + static_cast<uint64_t>(off - lowest) * size;
    } else {
      const Wide address = Wide{dram_base} + Wide{off} * size;
      at = address + size > Wide{std::numeric_limits<uint64_t>::max()}
               ? nullptr
               : dram_.Map(static_cast<uint64_t>(address), size);
      if (at == nullptr) {
        return OutOfRange("element " + std::to_string(i) + " (offset " +
                          std::to_string(off) +
                          ") addresses DRAM outside allocated memory");
      }
    }
    if (gather) {
      std::memcpy(element, at, size);
    } else {
      std::memcpy(at, element, size);
    }
    ++moved;
  }
  if (gather) {
    MarkWritten(data + count * size);
    counters_.dram_bytes_read += moved * size;
  } else {
    counters_.dram_bytes_written += moved * size;
  }
  const uint64_t cost =
      config_.dma_latency_cycles +
      std::max(CeilDiv(count * size, config_.dma_bytes_per_cycle), count);
  const Interval when =
      Issue(gather ? Unit::kDmaIn : Unit::kDmaOut, cost, accesses, 2);
  return CheckDramOrder(dram_span[0], dram_span[1], !gather, when);
}

// A box between two places of SRAM: the elements are read first (into
// scratch), then written, so overlapping ranges read the old bytes.
Status Execution::DmaBoxOnChip(const Instruction& in,
                               const std::array<uint64_t, 3>& counts) {
  const bool load = in.op == Opcode::kDmaLoad;
  const DmaDescriptor& desc = program_.descriptors[in.descriptor];
  const uint64_t size = SizeOf(in.type);
  const uint64_t sram_base = x_[in.rb] + in.offset[0];
  const uint64_t chip_base = x_[in.rm] - kScratchpadAperture;
  using Wide = __int128;
  const Wide elements = Wide{counts[0]} * counts[1] * counts[2];
  Wide low[2] = {0, 0}, high[2] = {0, 0};  // sram side, chip side
  for (int i = 0; i < 3 && elements > 0; ++i) {
    const Wide last = Wide{counts[i]} - 1;
    const Wide spans[2] = {last * desc.sram_strides[i],
                           last * desc.dram_strides[i]};
    for (int side = 0; side < 2; ++side) {
      low[side] += std::min<Wide>(0, spans[side]);
      high[side] += std::max<Wide>(0, spans[side]);
    }
  }
  Access accesses[2] = {{0, 0, load}, {0, 0, !load}};
  uint64_t rows = 0;
  const uint64_t bytes = static_cast<uint64_t>(elements) * size;
  if (elements > 0) {
    const uint64_t bases[2] = {sram_base, chip_base};
    for (int side = 0; side < 2; ++side) {
      const Wide begin = Wide{bases[side]} + low[side] * Wide{size};
      const Wide end = Wide{bases[side]} + (high[side] + 1) * Wide{size};
      if (begin < 0 || end > Wide{config_.sram_bytes}) {
        return OutOfRange(
            std::string(side == 0 ? "the box" : "the box's on-chip side") +
            " covers SRAM bytes outside [0, " +
            std::to_string(config_.sram_bytes) + ")");
      }
      accesses[side].begin = static_cast<uint64_t>(begin);
      accesses[side].end = static_cast<uint64_t>(end);
    }
    const uint64_t source = load ? chip_base : sram_base;
    const uint64_t target = load ? sram_base : chip_base;
    const std::array<int64_t, 3>& source_strides =
        load ? desc.dram_strides : desc.sram_strides;
    const std::array<int64_t, 3>& target_strides =
        load ? desc.sram_strides : desc.dram_strides;
    uint8_t* staged = s_.Scratch(0, bytes);
    uint64_t e = 0;
    for (int pass = 0; pass < 2; ++pass) {
      e = 0;
      for (uint64_t i0 = 0; i0 < counts[0]; ++i0) {
        for (uint64_t i1 = 0; i1 < counts[1]; ++i1) {
          for (uint64_t i2 = 0; i2 < counts[2]; ++i2, ++e) {
            const auto at = [&](uint64_t base,
                                const std::array<int64_t, 3>& strides) {
              return sram_ + base +
                     (static_cast<int64_t>(i0) * strides[0] +
                      static_cast<int64_t>(i1) * strides[1] +
                      static_cast<int64_t>(i2) * strides[2]) *
                         static_cast<int64_t>(size);
            };
            if (pass == 0) {
              std::memcpy(staged + e * size, at(source, source_strides), size);
            } else {
              std::memcpy(at(target, target_strides), staged + e * size, size);
            }
          }
        }
      }
    }
    // Contiguous runs, merged as the DRAM box's are.
    uint64_t run = size;
    for (int i = 2; i >= 0; --i) {
      if (counts[i] == 1) continue;
      if (desc.sram_strides[i] * static_cast<int64_t>(size) !=
              static_cast<int64_t>(run) ||
          desc.dram_strides[i] * static_cast<int64_t>(size) !=
              static_cast<int64_t>(run)) {
        break;
      }
      run *= counts[i];
    }
    rows = bytes / run;
    MarkWritten(accesses[load ? 0 : 1].end);
  }
  const uint64_t cost =
      kScratchpadDmaLatencyCycles +
      std::max(CeilDiv(bytes, config_.dma_bytes_per_cycle), rows);
  Issue(load ? Unit::kDmaIn : Unit::kDmaOut, cost, accesses, 2);
  return OkStatus();
}

// A gather or scatter whose elements are on chip.
Status Execution::DmaIndirectOnChip(const Instruction& in, uint64_t count) {
  const bool gather = in.op == Opcode::kDmaGather;
  const uint64_t size = SizeOf(in.type);
  const uint64_t data = x_[in.rb] + in.offset[0];
  const uint64_t list = x_[in.rb] + in.offset[1];
  const uint64_t chip_base = x_[in.rm] - kScratchpadAperture;
  const uint8_t* offsets = sram_ + list;
  int64_t lowest = std::numeric_limits<int64_t>::max(), highest = -1;
  for (uint64_t i = 0; i < count; ++i) {
    int64_t off;
    std::memcpy(&off, offsets + 8 * i, 8);
    if (off < 0) continue;
    lowest = std::min(lowest, off);
    highest = std::max(highest, off);
  }
  Access accesses[3] = {{data, data + count * size, gather},
                        {list, list + count * 8, false},
                        {0, 0, !gather}};
  if (highest >= 0) {
    using Wide = __int128;
    const Wide begin = Wide{chip_base} + Wide{lowest} * size;
    const Wide end = Wide{chip_base} + (Wide{highest} + 1) * size;
    if (end > Wide{config_.sram_bytes}) {
      return OutOfRange("an element's on-chip address is outside SRAM (" +
                        std::to_string(config_.sram_bytes) + " bytes)");
    }
    accesses[2].begin = static_cast<uint64_t>(begin);
    accesses[2].end = static_cast<uint64_t>(end);
  }
  // Read everything first, so that overlapping ranges read the old bytes.
  uint8_t* staged = s_.Scratch(0, count * size);
  for (uint64_t i = 0; i < count; ++i) {
    int64_t off;
    std::memcpy(&off, offsets + 8 * i, 8);
    uint8_t* element = staged + i * size;
    if (gather) {
      if (off < 0) {
        std::memset(element, 0, size);
      } else {
        std::memcpy(element,
                    sram_ + chip_base + static_cast<uint64_t>(off) * size,
                    size);
      }
    } else {
      std::memcpy(element, sram_ + data + i * size, size);
    }
  }
  for (uint64_t i = 0; i < count; ++i) {
    int64_t off;
    std::memcpy(&off, offsets + 8 * i, 8);
    if (gather) {
      std::memcpy(sram_ + data + i * size, staged + i * size, size);
    } else if (off >= 0) {
      std::memcpy(sram_ + chip_base + static_cast<uint64_t>(off) * size,
                  staged + i * size, size);
    }
  }
  MarkWritten(gather ? data + count * size : accesses[2].end);
  const uint64_t cost =
      kScratchpadDmaLatencyCycles +
      std::max(CeilDiv(count * size, config_.dma_bytes_per_cycle), count);
  Issue(gather ? Unit::kDmaIn : Unit::kDmaOut, cost, accesses, 3);
  return OkStatus();
}

}  // namespace phal::asic_ref::simulation
