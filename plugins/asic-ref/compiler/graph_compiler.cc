#include "compiler/graph_compiler.h"

#include <algorithm>
#include <set>
#include <utility>

#include "compiler/asic_compiler.h"
#include "sdk/kir/facts.h"

namespace phal::asic_ref {
namespace {

constexpr uint32_t kRegisterCount = 32;

bool IsBranch(Opcode op) {
  return op == Opcode::kBeq || op == Opcode::kBne || op == Opcode::kBlt ||
         op == Opcode::kBge || op == Opcode::kJmp;
}

Instruction Scalar(Opcode op, uint8_t rd, uint8_t ra, uint8_t rb, int64_t imm) {
  Instruction in;
  in.op = op;
  in.rd = rd;
  in.ra = ra;
  in.rb = rb;
  in.imm = imm;
  return in;
}

// The step range over which each value is bound: first and last step.
struct Lifetime {
  int64_t first = -1;
  int64_t last = -1;
};

// Places the on-chip values: first fit in [0, region) among values whose
// lifetimes overlap, in the order of their first use.
struct Placed {
  uint64_t begin;
  uint64_t end;
  Lifetime life;
};

int64_t FirstFit(const std::vector<Placed>& placed, uint64_t bytes,
                 uint64_t region, const Lifetime& life) {
  std::vector<std::pair<uint64_t, uint64_t>> busy;
  for (const Placed& other : placed) {
    if (other.life.last < life.first || life.last < other.life.first) continue;
    busy.emplace_back(other.begin, other.end);
  }
  std::sort(busy.begin(), busy.end());
  uint64_t at = 0;
  for (const auto& [begin, end] : busy) {
    if (at + bytes <= begin) break;
    at = std::max(at, end);
  }
  if (at + bytes > region) return -1;
  return static_cast<int64_t>(at);
}

uint64_t Align64(uint64_t bytes) { return (bytes + 63) / 64 * 64; }

}  // namespace

StatusOr<GraphProgram> CompileGraph(
    const ArchConfig& config, const phal_program_desc_t& desc,
    const std::function<StatusOr<Program>(const phal_kernel_desc_t&)>&
        compile_kernel) {
  if (desc.format != PHAL_PLUGIN_PROGRAM_KIR_GRAPH || desc.graph == nullptr) {
    return Unimplemented("asic-ref plugin: takes programs as KIR graphs only");
  }
  const phal_kir_graph_t& graph = *desc.graph;
  if (graph.step_count == 0) {
    // Values passed through (reshapes, parameters returned): the core
    // moves them without the chip.
    return Unimplemented(
        "asic-ref plugin: the part has no kernel; the core moves its values");
  }
  GraphProgram result;
  result.program.name =
      desc.name != nullptr && *desc.name != '\0' ? desc.name : "program";
  result.parameter_count = desc.parameter_count;
  for (uint32_t i = 0; i < desc.parameter_count + desc.result_count; ++i) {
    result.buffer_bytes.push_back(BufferByteSize(desc.buffers[i]));
  }
  for (uint32_t v = 0; v < graph.value_count; ++v) {
    const phal_program_value_t& source = graph.values[v];
    GraphValue value;
    value.kind = source.kind;
    value.parameter = source.parameter;
    value.byte_size = source.byte_size;
    if (source.kind == PHAL_PROGRAM_VALUE_PARAMETER &&
        source.parameter >= desc.parameter_count) {
      return InvalidArgument("asic-ref plugin: value " + std::to_string(v) +
                             " names a missing parameter");
    }
    if (source.kind == PHAL_PROGRAM_VALUE_CONSTANT && source.byte_size > 0) {
      const auto* bytes = static_cast<const uint8_t*>(source.data);
      value.constant.assign(bytes, bytes + source.byte_size);
    }
    result.values.push_back(std::move(value));
  }
  result.results.assign(graph.results, graph.results + desc.result_count);
  for (uint32_t r = 0; r < desc.result_count; ++r) {
    if (result.results[r] >= graph.value_count) {
      return InvalidArgument("asic-ref plugin: result " + std::to_string(r) +
                             " names a missing value");
    }
  }

  // Every kernel as kernel mode compiles it.
  std::vector<Program> kernels;
  std::vector<Lifetime> lives(graph.value_count);
  for (uint32_t k = 0; k < graph.step_count; ++k) {
    const phal_program_step_t& step = graph.steps[k];
    PHAL_ASSIGN_OR_RETURN(Program program,
                          compile_kernel ? compile_kernel(*step.kernel)
                                         : CompileKernel(config, *step.kernel));
    kernels.push_back(std::move(program));
    for (uint32_t b = 0; b < step.kernel->buffer_count; ++b) {
      const uint32_t v = step.values[b];
      if (v >= graph.value_count ||
          graph.values[v].byte_size < BufferByteSize(step.kernel->buffers[b])) {
        return InvalidArgument("asic-ref plugin: step " + std::to_string(k) +
                               " binds buffer " + std::to_string(b) +
                               " to a missing or small value");
      }
      Lifetime& life = lives[v];
      if (life.first < 0) life.first = k;
      life.last = k;
    }
  }

  // A temporary the part returns lives in its result buffer, when sizes
  // agree and no other result is it.
  std::set<uint32_t> result_values;
  for (uint32_t r = 0; r < desc.result_count; ++r) {
    const uint32_t v = result.results[r];
    GraphValue& value = result.values[v];
    if (value.kind == PHAL_PROGRAM_VALUE_TEMPORARY && value.result < 0 &&
        value.byte_size == result.buffer_bytes[desc.parameter_count + r]) {
      value.result = r;
    }
    result_values.insert(v);
  }

  // Values on chip: temporaries the part does not return, in the top of
  // SRAM, across kernels that compile the same without it. Of the regions
  // tried (a quarter, half and three quarters of SRAM), the one that keeps
  // the most DRAM traffic on chip (a value's bytes once per kernel binding
  // it) is taken.
  struct Placement {
    uint64_t limit = 0;
    uint64_t saved = 0;
    std::vector<std::pair<uint32_t, int64_t>> offsets;  // value, SRAM byte
  };
  std::vector<uint32_t> bindings(graph.value_count, 0);
  for (uint32_t k = 0; k < graph.step_count; ++k) {
    for (uint32_t b = 0; b < graph.steps[k].kernel->buffer_count; ++b) {
      ++bindings[graph.steps[k].values[b]];
    }
  }
  // Each kernel's encoding, made once for the comparisons below.
  std::vector<std::string> encoded(kernels.size());
  Placement best;
  for (uint64_t quarters = 1; quarters <= 3; ++quarters) {
    const uint64_t region = config.sram_bytes / 4 * quarters / 64 * 64;
    Placement placement;
    placement.limit = config.sram_bytes - region;
    std::vector<int> same_below(kernels.size(), -1);  // -1: unknown
    auto fits_below = [&](int64_t k) {
      int& known = same_below[static_cast<std::size_t>(k)];
      if (known < 0) {
        StatusOr<Program> reduced =
            CompileKernel(config, *graph.steps[k].kernel, placement.limit);
        std::string& full = encoded[static_cast<std::size_t>(k)];
        if (full.empty()) {
          full = EncodeProgram(kernels[static_cast<std::size_t>(k)]);
        }
        known = reduced.ok() && EncodeProgram(*reduced) == full;
      }
      return known == 1;
    };
    std::vector<Placed> placed;
    for (uint32_t v = 0; v < graph.value_count; ++v) {
      const GraphValue& value = result.values[v];
      const Lifetime& life = lives[v];
      if (value.kind != PHAL_PROGRAM_VALUE_TEMPORARY || life.first < 0 ||
          result_values.count(v) != 0 || value.byte_size == 0 ||
          Align64(value.byte_size) > region) {
        continue;
      }
      bool safe = true;
      for (int64_t k = life.first; k <= life.last && safe; ++k) {
        safe = fits_below(k);
      }
      if (!safe) continue;
      const uint64_t bytes = Align64(value.byte_size);
      const int64_t at = FirstFit(placed, bytes, region, life);
      if (at < 0) continue;
      placed.push_back(
          {static_cast<uint64_t>(at), static_cast<uint64_t>(at) + bytes, life});
      placement.offsets.emplace_back(
          v, static_cast<int64_t>(placement.limit) + at);
      placement.saved += value.byte_size * bindings[v];
    }
    if (placement.saved > best.saved) best = std::move(placement);
  }
  for (const auto& [v, offset] : best.offsets) {
    result.values[v].sram_offset = offset;
    ++result.on_chip_values;
  }

  // The program: the first kernel as kernel mode runs it (the launch
  // writes its argument area); before each later one, while the units
  // still drain the one before, the scalar core clears the registers and
  // writes its argument area, then waits at a fence where DRAM orders it
  // after earlier kernels. Every kernel but the last ends by falling
  // through to the next instead of halting.
  std::vector<Instruction>& out = result.program.instructions;
  std::set<uint32_t> read_since_fence;
  std::set<uint32_t> written_since_fence;
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    const phal_program_step_t& step = graph.steps[k];
    const Program& kernel = kernels[k];
    bool fence = false;
    for (uint32_t b = 0; b < step.kernel->buffer_count; ++b) {
      const uint32_t v = step.values[b];
      if (result.values[v].sram_offset >= 0) continue;
      const phal_kir_access_t access = step.kernel->buffers[b].access;
      const bool reads = access != PHAL_KIR_ACCESS_WRITE;
      const bool writes = access != PHAL_KIR_ACCESS_READ;
      fence |= (reads && written_since_fence.count(v) != 0) ||
               (writes && (read_since_fence.count(v) != 0 ||
                           written_since_fence.count(v) != 0));
    }
    if (fence) {
      read_since_fence.clear();
      written_since_fence.clear();
    }
    for (uint32_t b = 0; b < step.kernel->buffer_count; ++b) {
      const uint32_t v = step.values[b];
      if (result.values[v].sram_offset >= 0) continue;
      const phal_kir_access_t access = step.kernel->buffers[b].access;
      if (access != PHAL_KIR_ACCESS_WRITE) read_since_fence.insert(v);
      if (access != PHAL_KIR_ACCESS_READ) written_since_fence.insert(v);
    }
    if (k == 0) {
      result.first_arguments.assign(step.values,
                                    step.values + step.kernel->buffer_count);
    } else {
      result.program.comments.emplace_back(
          static_cast<uint32_t>(out.size()),
          "kernel " + kernel.name + ": registers, argument area");
      for (uint8_t r = 1; r < kRegisterCount; ++r) {
        out.push_back(Scalar(Opcode::kLi, r, 0, 0, 0));
      }
      for (uint32_t b = 0; b < step.kernel->buffer_count; ++b) {
        result.patches.push_back(
            {static_cast<uint32_t>(out.size()), step.values[b]});
        out.push_back(Scalar(Opcode::kLi, 1, 0, 0, 0));
        out.push_back(Scalar(Opcode::kSt, 0, 0, 1, int64_t{8} * b));
      }
      out.push_back(Scalar(Opcode::kLi, 1, 0, 0, 0));
      if (fence) {
        out.push_back(Scalar(Opcode::kFence, 0, 0, 0, 0));
        ++result.fences;
      }
    }
    const bool last_kernel = k + 1 == kernels.size();
    const std::size_t size = kernel.instructions.size();
    const bool drop_final_halt = !last_kernel && size > 0 &&
                                 kernel.instructions.back().op == Opcode::kHalt;
    const auto base = static_cast<int64_t>(out.size());
    const auto end =
        base + static_cast<int64_t>(size) - (drop_final_halt ? 1 : 0);
    const std::size_t descriptor_base = result.program.descriptors.size();
    if (descriptor_base + kernel.descriptors.size() > 0xFFFF) {
      return ResourceExhausted(
          "asic-ref plugin: the part's kernels need more than 65535 DMA "
          "descriptors");
    }
    for (const auto& [index, text] : kernel.comments) {
      result.program.comments.emplace_back(static_cast<uint32_t>(base) + index,
                                           text);
    }
    for (std::size_t i = 0; i < size; ++i) {
      Instruction in = kernel.instructions[i];
      if (drop_final_halt && i + 1 == size) break;
      if (in.op == Opcode::kHalt && !last_kernel) {
        // The kernel ends where the next one begins.
        in = Scalar(Opcode::kJmp, 0, 0, 0, end);
      } else if (IsBranch(in.op)) {
        in.imm += base;
      } else if (in.op == Opcode::kDmaLoad || in.op == Opcode::kDmaStore) {
        in.descriptor = static_cast<uint16_t>(in.descriptor + descriptor_base);
      }
      out.push_back(in);
    }
    result.program.descriptors.insert(result.program.descriptors.end(),
                                      kernel.descriptors.begin(),
                                      kernel.descriptors.end());
  }
  result.kernel_count = static_cast<uint32_t>(kernels.size());
  return result;
}

void EncodeGraphFields(const GraphProgram& graph, ByteWriter& out) {
  out.AddU32(graph.parameter_count);
  out.AddU64(graph.buffer_bytes.size());
  for (uint64_t bytes : graph.buffer_bytes) out.AddU64(bytes);
  out.AddU64(graph.values.size());
  for (const GraphValue& value : graph.values) {
    out.AddU32(value.kind);
    out.AddU32(value.parameter);
    out.AddU64(value.byte_size);
    out.AddI64(value.sram_offset);
    out.AddI64(value.result);
    out.AddString(
        std::string_view(reinterpret_cast<const char*>(value.constant.data()),
                         value.constant.size()));
  }
  out.AddU64(graph.patches.size());
  for (const GraphPatch& patch : graph.patches) {
    out.AddU32(patch.instruction);
    out.AddU32(patch.value);
  }
  out.AddU64(graph.results.size());
  for (uint32_t r : graph.results) out.AddU32(r);
  out.AddU64(graph.first_arguments.size());
  for (uint32_t v : graph.first_arguments) out.AddU32(v);
  out.AddU32(graph.kernel_count);
  out.AddU32(graph.on_chip_values);
  out.AddU32(graph.fences);
}

Status DecodeGraphFields(ByteReader& in, GraphProgram* graph) {
  const Status truncated = Status(
      PHAL_DATA_LOSS, "asic-ref plugin: serialized graph program is truncated");
  auto count = [&](uint64_t* n) {
    return in.ReadU64(n) && *n <= in.remaining();
  };
  uint64_t n = 0;
  if (!in.ReadU32(&graph->parameter_count) || !count(&n)) return truncated;
  graph->buffer_bytes.resize(n);
  for (uint64_t& bytes : graph->buffer_bytes) {
    if (!in.ReadU64(&bytes)) return truncated;
  }
  if (!count(&n)) return truncated;
  graph->values.resize(n);
  for (GraphValue& value : graph->values) {
    std::string_view constant;
    if (!in.ReadU32(&value.kind) || !in.ReadU32(&value.parameter) ||
        !in.ReadU64(&value.byte_size) || !in.ReadI64(&value.sram_offset) ||
        !in.ReadI64(&value.result) || !in.ReadString(&constant)) {
      return truncated;
    }
    value.constant.assign(constant.begin(), constant.end());
  }
  if (!count(&n)) return truncated;
  graph->patches.resize(n);
  for (GraphPatch& patch : graph->patches) {
    if (!in.ReadU32(&patch.instruction) || !in.ReadU32(&patch.value)) {
      return truncated;
    }
  }
  if (!count(&n)) return truncated;
  graph->results.resize(n);
  for (uint32_t& r : graph->results) {
    if (!in.ReadU32(&r)) return truncated;
  }
  if (!count(&n)) return truncated;
  graph->first_arguments.resize(n);
  for (uint32_t& v : graph->first_arguments) {
    if (!in.ReadU32(&v)) return truncated;
  }
  if (!in.ReadU32(&graph->kernel_count) ||
      !in.ReadU32(&graph->on_chip_values) || !in.ReadU32(&graph->fences)) {
    return truncated;
  }
  // Every index the launch follows.
  const Status corrupt = Status(
      PHAL_DATA_LOSS, "asic-ref plugin: serialized graph program is corrupt");
  const uint64_t values = graph->values.size();
  if (graph->parameter_count > graph->buffer_bytes.size() ||
      graph->results.size() + graph->parameter_count !=
          graph->buffer_bytes.size()) {
    return corrupt;
  }
  for (const GraphValue& value : graph->values) {
    if ((value.kind == PHAL_PROGRAM_VALUE_PARAMETER &&
         value.parameter >= graph->parameter_count) ||
        (value.kind == PHAL_PROGRAM_VALUE_CONSTANT &&
         value.constant.size() != value.byte_size) ||
        value.result >= static_cast<int64_t>(graph->results.size()) ||
        value.sram_offset >= static_cast<int64_t>(uint64_t{1} << 40)) {
      return corrupt;
    }
  }
  for (const GraphPatch& patch : graph->patches) {
    if (patch.value >= values ||
        patch.instruction >= graph->program.instructions.size() ||
        graph->program.instructions[patch.instruction].op != Opcode::kLi) {
      return corrupt;
    }
  }
  for (uint32_t r : graph->results) {
    if (r >= values) return corrupt;
  }
  for (uint32_t v : graph->first_arguments) {
    if (v >= values) return corrupt;
  }
  return OkStatus();
}

}  // namespace phal::asic_ref
