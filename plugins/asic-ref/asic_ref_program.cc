#include "asic_ref_program.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "asic_ref_device.h"
#include "asic_ref_kernel.h"
#include "asic_ref_memory.h"
#include "asic_ref_plugin.h"
#include "isa/asic_assembler.h"
#include "sdk/plugin_support/compile_targets.h"
#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_support/plugin_slots.h"

namespace phal::asic_ref {

bool GraphMode() {
  const char* mode = std::getenv("PHAL_ASIC_REF_MODE");
  return mode == nullptr || std::string_view(mode) != "kernels";
}

namespace {

// DRAM the launch allocates (constants and temporaries kept off chip),
// freed when it ends.
class LaunchMemory {
 public:
  explicit LaunchMemory(Dram& dram) : dram_(dram) {}
  ~LaunchMemory() {
    for (uint64_t address : allocated_) dram_.Free(address);
  }
  LaunchMemory(const LaunchMemory&) = delete;
  LaunchMemory& operator=(const LaunchMemory&) = delete;

  StatusOr<uint64_t> Allocate(uint64_t bytes) {
    PHAL_ASSIGN_OR_RETURN(uint64_t address, dram_.Allocate(bytes));
    allocated_.push_back(address);
    return address;
  }

 private:
  Dram& dram_;
  std::vector<uint64_t> allocated_;
};

}  // namespace

Status LaunchGraph(Stream& stream, const phal_plugin_kernel& kernel,
                   phal_plugin_buffer_t* const* buffers,
                   uint32_t buffer_count) {
  const GraphProgram& graph = *kernel.graph;
  const std::string& name = kernel.program.name;
  Device& device = stream.device();
  for (uint32_t i = 0; i < buffer_count; ++i) {
    if (&buffers[i]->dram() != &device.dram()) {
      return InvalidArgument("asic-ref plugin: program " + name +
                             " launched with buffer " + std::to_string(i) +
                             " of another device");
    }
    PHAL_RETURN_IF_ERROR(buffers[i]->CheckRange(0, kernel.buffer_bytes[i]));
  }
  stream.Run([&]() -> Status {
    Dram& dram = device.dram();
    LaunchMemory memory(dram);
    // Where every value is: a launch buffer, on chip, or DRAM of its own.
    std::vector<uint64_t> address(graph.values.size(), 0);
    for (std::size_t v = 0; v < graph.values.size(); ++v) {
      const GraphValue& value = graph.values[v];
      if (value.kind == PHAL_PROGRAM_VALUE_PARAMETER) {
        address[v] = buffers[value.parameter]->address();
      } else if (value.sram_offset >= 0) {
        address[v] =
            kScratchpadAperture + static_cast<uint64_t>(value.sram_offset);
      } else if (value.result >= 0) {
        address[v] =
            buffers[graph.parameter_count + static_cast<uint64_t>(value.result)]
                ->address();
      } else {
        PHAL_ASSIGN_OR_RETURN(address[v], memory.Allocate(value.byte_size));
        if (!value.constant.empty()) {
          std::memcpy(dram.Map(address[v], value.byte_size),
                      value.constant.data(), value.constant.size());
        }
      }
    }
    Program program = kernel.program;
    for (const GraphPatch& patch : graph.patches) {
      program.instructions[patch.instruction].imm =
          static_cast<int64_t>(address[patch.value]);
    }
    std::vector<uint64_t> arguments;
    for (uint32_t v : graph.first_arguments) arguments.push_back(address[v]);
    PHAL_RETURN_IF_ERROR(device.Run(program, arguments));
    // Results not computed in place: copied into their buffers.
    for (std::size_t r = 0; r < graph.results.size(); ++r) {
      const uint32_t v = graph.results[r];
      if (graph.values[v].result == static_cast<int64_t>(r)) continue;
      const uint64_t bytes = kernel.buffer_bytes[graph.parameter_count + r];
      if (bytes == 0) continue;
      const uint64_t target = buffers[graph.parameter_count + r]->address();
      uint8_t* from = dram.Map(address[v], bytes);
      if (from == nullptr) {
        return Internal("asic-ref plugin: program " + name + ": result " +
                        std::to_string(r) + " is not in DRAM");
      }
      std::memmove(dram.Map(target, bytes), from, bytes);
    }
    return OkStatus();
  });
  return OkStatus();
}

phal_status_t* ProgramGetFormats(phal_plugin_device_t* /*device*/,
                                 uint32_t* out_formats) noexcept {
  *out_formats =
      GraphMode()
          ? PHAL_PLUGIN_PROGRAM_FORMAT_BIT(PHAL_PLUGIN_PROGRAM_KIR_GRAPH)
          : 0;
  return nullptr;
}

phal_status_t* ProgramAcceptsOp(phal_plugin_device_t* /*device*/,
                                const phal_program_op_t* /*op*/,
                                int* out_accepted) noexcept {
  *out_accepted = GraphMode() ? 1 : 0;
  return nullptr;
}

phal_status_t* ProgramCompile(phal_plugin_device_t* device,
                              const phal_program_desc_t* program,
                              const phal_kernel_options_t* options,
                              phal_plugin_kernel_t** out_kernel) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    if (program == nullptr) {
      return InvalidArgument("asic-ref plugin: program is NULL");
    }
    PHAL_ASSIGN_OR_RETURN(GraphProgram graph,
                          CompileGraph(device->config(), *program,
                                       [&](const phal_kernel_desc_t& kernel) {
                                         return CachedKernelProgram(*device,
                                                                    kernel);
                                       }));
    auto kernel = std::make_unique<phal_plugin_kernel>();
    kernel->program = std::move(graph.program);
    graph.program = Program();
    kernel->buffer_bytes = graph.buffer_bytes;
    kernel->config_text = device->config_text();
    kernel->graph = std::make_unique<GraphProgram>(std::move(graph));
    PHAL_RETURN_IF_ERROR(WriteKernelDump(KernelDumpDirectory(options),
                                         kernel->program.name, "s",
                                         Disassemble(kernel->program)));
    *out_kernel = kernel.release();
    return OkStatus();
  });
}

}  // namespace phal::asic_ref
