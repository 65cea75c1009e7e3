#include "core/compiler/compiler.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/compiler/buffer_assignment.h"
#include "core/compiler/hlo_pass.h"
#include "core/compiler/kir_printer.h"
#include "core/compiler/partitioner.h"

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

void NoteBodyTypes(const KirBody& body, std::set<ElementType>* types) {
  for (const phal_kir_node_t& node : body.nodes()) types->insert(node.type);
}

}  // namespace

CompilerOptions CompilerOptionsFromEnvironment() {
  CompilerOptions options;
  if (const char* dump = std::getenv("PHAL_DUMP")) {
    options.dump_directory = dump;
  }
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
  PHAL_ASSIGN_OR_RETURN(module, RunPasses(std::move(module), DefaultPipeline(),
                                          options.dump_directory));
  PHAL_ASSIGN_OR_RETURN(Program partitioned, Partition(*module));
  auto program = std::make_unique<Program>(std::move(partitioned));
  AssignBuffers(program.get());
  if (!options.dump_directory.empty()) {
    PHAL_RETURN_IF_ERROR(DumpKernels(*program, options.dump_directory));
  }
  return program;
}

Status CheckDeviceCapabilities(const Program& program,
                               const phal_device_properties_t& properties,
                               const std::string& device_name) {
  std::set<phal_kernel_kind_t> kinds;
  std::set<ElementType> types;
  for (const std::unique_ptr<KirKernel>& kernel : program.kernels) {
    kinds.insert(kernel->kind());
    for (const KirBuffer& buffer : kernel->buffers()) {
      types.insert(buffer.element_type);
    }
    for (const KirBody* body :
         {&kernel->body, &kernel->init, &kernel->reducer, &kernel->epilogue}) {
      NoteBodyTypes(*body, &types);
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
  if (missing_kinds.empty() && missing_types.empty()) return OkStatus();
  std::string message = "device '" + device_name + "' cannot run this program:";
  if (!missing_kinds.empty())
    message += " kernel kinds [" + missing_kinds + "]";
  if (!missing_types.empty()) {
    message += std::string(missing_kinds.empty() ? "" : ";") +
               " element types [" + missing_types + "]";
  }
  return Unimplemented(message + " are not supported");
}

}  // namespace phal
