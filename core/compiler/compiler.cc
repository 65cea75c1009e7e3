#include "core/compiler/compiler.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "core/compiler/buffer_assignment.h"
#include "core/compiler/hlo_pass.h"
#include "core/compiler/partitioner.h"
#include "sdk/kir/facts.h"
#include "sdk/kir/printer.h"

namespace phal {
namespace {

Status DumpKernels(Program& program, const std::string& directory) {
  int number = 0;
  for (const std::unique_ptr<KirKernel>& kernel : program.kernels) {
    char prefix[32];
    std::snprintf(prefix, sizeof(prefix), "kernel-%02d-", number++);
    const std::string path = directory + "/" + prefix + kernel->name() + ".kir";
    std::ofstream file(path);
    file << KernelToText(kernel->Desc());
    if (!file) return Unavailable("cannot write " + path);
  }
  return OkStatus();
}

// Each part offered to the plugin whole, as "part-<name>.hlo".
Status DumpParts(const std::vector<OffloadedPart>& parts,
                 const std::string& directory) {
  for (const OffloadedPart& part : parts) {
    const std::string path = directory + "/part-" + part.name + ".hlo";
    std::ofstream file(path);
    file << part.hlo_text;
    if (!file) return Unavailable("cannot write " + path);
  }
  return OkStatus();
}

void NoteBodyTypesAndOps(const KirBody& body, std::set<ElementType>* types,
                         std::set<phal_kir_op_t>* ops) {
  for (const phal_kir_node_t& node : body.nodes()) {
    types->insert(node.type);
    ops->insert(node.op);
  }
}

std::string VersionText(uint32_t version) {
  return std::to_string(PHAL_VERSION_MAJOR(version)) + "." +
         std::to_string(PHAL_VERSION_MINOR(version));
}

// " <what> [erf] need ABI 1.2 and the plugin negotiated ABI 1.1" for the
// values of `values` newer than `abi_version`, or empty. `version` and
// `name` read a value's ABI version and spelling.
template <typename T, typename Version, typename Name>
std::string TooNew(const char* what, const std::set<T>& values,
                   uint32_t abi_version, Version version, Name name) {
  std::string names;
  uint32_t needed = abi_version;
  for (T value : values) {
    const uint32_t added = version(value);
    if (added <= abi_version) continue;
    names += std::string(names.empty() ? "" : ", ") + name(value);
    needed = std::max(needed, added);
  }
  if (names.empty()) return names;
  return " " + std::string(what) + " [" + names + "] need ABI " +
         VersionText(needed) + " and the plugin negotiated ABI " +
         VersionText(abi_version);
}

// The kernel kinds and node ops of a program that the plugin's ABI
// version lacks: "KIR ops [erf] need ABI 1.2 and the plugin negotiated ABI
// 1.1", the same for "kernel kinds", or empty.
std::string TooNewForAbi(const std::set<phal_kernel_kind_t>& kinds,
                         const std::set<phal_kir_op_t>& ops,
                         uint32_t abi_version) {
  const std::string newer_kinds = TooNew(
      "kernel kinds", kinds, abi_version,
      [](phal_kernel_kind_t kind) { return KernelKindAbiVersion(kind); },
      [](phal_kernel_kind_t kind) { return KernelKindName(kind); });
  const std::string newer_ops = TooNew(
      "KIR ops", ops, abi_version,
      [](phal_kir_op_t op) { return KirOpAbiVersion(op); },
      [](phal_kir_op_t op) { return KirOpName(op); });
  if (newer_kinds.empty() || newer_ops.empty()) return newer_kinds + newer_ops;
  return newer_kinds + ";" + newer_ops;
}

}  // namespace

CompilerOptions CompilerOptionsFromEnvironment() {
  CompilerOptions options;
  if (const char* dump = std::getenv("PHAL_DUMP")) {
    options.dump_directory = dump;
  }
  return options;
}

bool RunsFftKernels(const phal_device_properties_t& properties,
                    uint32_t abi_version) {
  return abi_version >= KernelKindAbiVersion(PHAL_KERNEL_KIND_FFT) &&
         (properties.kernel_kinds &
          PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_FFT)) != 0;
}

bool RunsLinalgKernels(const phal_device_properties_t& properties,
                       uint32_t abi_version) {
  return abi_version >= KernelKindAbiVersion(PHAL_KERNEL_KIND_LINALG) &&
         (properties.kernel_kinds &
          PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_LINALG)) != 0;
}

CompilerOptions CompilerOptionsForDevice(
    const phal_device_properties_t& properties, uint32_t abi_version) {
  CompilerOptions options = CompilerOptionsFromEnvironment();
  options.fft_kernels = RunsFftKernels(properties, abi_version);
  options.linalg_kernels = RunsLinalgKernels(properties, abi_version);
  return options;
}

StatusOr<std::unique_ptr<Program>> CompileModule(
    std::unique_ptr<HloModule> module, const CompilerOptions& options) {
  if (!options.dump_directory.empty()) {
    std::error_code error;
    std::filesystem::create_directories(options.dump_directory, error);
    if (error) {
      return Unavailable("PHAL_DUMP: cannot create " + options.dump_directory +
                         ": " + error.message());
    }
  }
  PHAL_ASSIGN_OR_RETURN(
      module,
      RunPasses(std::move(module),
                DefaultPipeline(options.max_folded_elements,
                                options.fft_kernels, options.linalg_kernels),
                options.dump_directory));
  PHAL_ASSIGN_OR_RETURN(
      OffloadedModule offloaded,
      OffloadAcceptedParts(std::move(module), options.offload));
  module = std::move(offloaded.module);
  if (!options.dump_directory.empty()) {
    PHAL_RETURN_IF_ERROR(DumpParts(offloaded.parts, options.dump_directory));
  }
  PHAL_ASSIGN_OR_RETURN(Program partitioned,
                        Partition(*module, offloaded.trip_counts));
  auto program = std::make_unique<Program>(std::move(partitioned));
  PHAL_RETURN_IF_ERROR(
      AttachOffloads(std::move(offloaded.parts), program.get()));
  AssignBuffers(program.get());
  for (const std::unique_ptr<KirKernel>& kernel : program->kernels) {
    kernel->Desc();
  }
  if (!options.dump_directory.empty()) {
    PHAL_RETURN_IF_ERROR(DumpKernels(*program, options.dump_directory));
  }
  return program;
}

Status CheckDeviceCapabilities(const Program& program,
                               const phal_device_properties_t& properties,
                               uint32_t abi_version,
                               const std::string& device_name) {
  std::set<phal_kernel_kind_t> kinds;
  std::set<ElementType> types;
  std::set<phal_kir_op_t> ops;
  for (const std::unique_ptr<KirKernel>& kernel : program.kernels) {
    kinds.insert(kernel->kind());
    for (const KirBuffer& buffer : kernel->buffers()) {
      types.insert(buffer.element_type);
    }
    for (const KirBody* body :
         {&kernel->body, &kernel->init, &kernel->reducer, &kernel->epilogue}) {
      NoteBodyTypesAndOps(*body, &types, &ops);
    }
  }
  std::string missing_kinds;
  for (phal_kernel_kind_t kind : kinds) {
    if ((properties.kernel_kinds & PHAL_KERNEL_KIND_BIT(kind)) == 0) {
      missing_kinds +=
          std::string(missing_kinds.empty() ? "" : ", ") + KernelKindName(kind);
    }
  }
  std::string missing_types;
  for (ElementType type : types) {
    if ((properties.element_types & PHAL_ELEMENT_TYPE_BIT(type)) == 0) {
      missing_types += std::string(missing_types.empty() ? "" : ", ") +
                       ElementTypeName(type);
    }
  }
  const std::string missing_ops = TooNewForAbi(kinds, ops, abi_version);
  if (missing_kinds.empty() && missing_types.empty() && missing_ops.empty()) {
    return OkStatus();
  }
  std::string message = "device '" + device_name + "' cannot run this program:";
  if (!missing_kinds.empty()) {
    message += " kernel kinds [" + missing_kinds + "]";
  }
  if (!missing_types.empty()) {
    message += std::string(missing_kinds.empty() ? "" : ";") +
               " element types [" + missing_types + "]";
  }
  if (!missing_kinds.empty() || !missing_types.empty()) {
    message += " are not supported";
  }
  if (!missing_ops.empty()) {
    message += std::string(message.back() == ':' ? "" : ";") + missing_ops;
  }
  return Unimplemented(message);
}

}  // namespace phal
