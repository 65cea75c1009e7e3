#include "template_program.h"

#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>

#include "sdk/base/byte_codec.h"
#include "sdk/base/element_types.h"
#include "sdk/plugin_support/plugin_host.h"
#include "template_device.h"
#include "template_kernel.h"
#include "template_plugin.h"

namespace phal::template_plugin {
namespace {

constexpr std::string_view kMagic = "PHTMPROG";
constexpr uint32_t kFormatVersion = 1;

// PHAL_TEMPLATE_MODE=program: the whole-program slots answer.
bool ProgramMode() {
  const char* mode = std::getenv("PHAL_TEMPLATE_MODE");
  return mode != nullptr && std::string_view(mode) == "program";
}

// PHAL_TEMPLATE_DECLINE: the opcodes the template refuses.
std::set<std::string> DeclinedOpcodes() {
  std::set<std::string> declined;
  const char* list = std::getenv("PHAL_TEMPLATE_DECLINE");
  std::stringstream in(list != nullptr ? list : "");
  std::string opcode;
  while (std::getline(in, opcode, ',')) {
    if (!opcode.empty()) declined.insert(opcode);
  }
  return declined;
}

uint64_t BufferBytes(const phal_kir_buffer_t& buffer) {
  uint64_t count = 1;
  for (uint32_t d = 0; d < buffer.rank; ++d) {
    count *= static_cast<uint64_t>(buffer.dims[d]);
  }
  return count * ElementTypeByteSize(buffer.element_type);
}

}  // namespace

StatusOr<std::unique_ptr<Program>> Program::Create(
    const phal_program_desc_t& desc) {
  if (desc.format != PHAL_PLUGIN_PROGRAM_KIR_GRAPH || desc.graph == nullptr) {
    return Unimplemented("template plugin: takes programs as KIR graphs only");
  }
  auto program = std::make_unique<Program>();
  program->name_ = desc.name != nullptr ? desc.name : "";
  program->parameter_count_ = desc.parameter_count;
  for (uint32_t i = 0; i < desc.parameter_count + desc.result_count; ++i) {
    program->buffer_bytes_.push_back(BufferBytes(desc.buffers[i]));
  }
  const phal_kir_graph_t& graph = *desc.graph;
  for (uint32_t i = 0; i < graph.value_count; ++i) {
    const phal_program_value_t& source = graph.values[i];
    Value value;
    value.kind = source.kind;
    value.parameter = source.parameter;
    value.byte_size = source.byte_size;
    if (source.kind == PHAL_PROGRAM_VALUE_CONSTANT && source.byte_size > 0) {
      const auto* bytes = static_cast<const uint8_t*>(source.data);
      value.constant.assign(bytes, bytes + source.byte_size);
    }
    program->values_.push_back(std::move(value));
  }
  for (uint32_t i = 0; i < graph.step_count; ++i) {
    const phal_program_step_t& step = graph.steps[i];
    PHAL_ASSIGN_OR_RETURN(kir_interpreter::Kernel kernel,
                          kir_interpreter::Kernel::Create(*step.kernel));
    program->bindings_.emplace_back(step.values,
                                    step.values + step.kernel->buffer_count);
    program->kernels_.push_back(std::move(kernel));
  }
  program->results_.assign(graph.results, graph.results + desc.result_count);
  PHAL_RETURN_IF_ERROR(program->Check());
  return program;
}

// Every index in range and every binding as large as its kernel's buffer.
Status Program::Check() const {
  const auto values = static_cast<uint32_t>(values_.size());
  if (results_.size() + parameter_count_ != buffer_bytes_.size()) {
    return InvalidArgument("template plugin: program " + name_ +
                           " has a result count unlike its buffers'");
  }
  for (const Value& value : values_) {
    const bool parameter = value.kind == PHAL_PROGRAM_VALUE_PARAMETER;
    if ((parameter && (value.parameter >= parameter_count_ ||
                       buffer_bytes_[value.parameter] < value.byte_size)) ||
        (value.kind == PHAL_PROGRAM_VALUE_CONSTANT &&
         value.constant.size() != value.byte_size) ||
        value.kind < PHAL_PROGRAM_VALUE_PARAMETER ||
        value.kind > PHAL_PROGRAM_VALUE_TEMPORARY) {
      return InvalidArgument("template plugin: program " + name_ +
                             " has a malformed value");
    }
  }
  for (std::size_t k = 0; k < kernels_.size(); ++k) {
    for (std::size_t b = 0; b < bindings_[k].size(); ++b) {
      const uint32_t v = bindings_[k][b];
      if (v >= values || values_[v].byte_size < kernels_[k].BufferByteSize(
                                                    static_cast<uint32_t>(b))) {
        return InvalidArgument("template plugin: program " + name_ +
                               " binds kernel " + kernels_[k].name() +
                               " to a missing or small value");
      }
    }
  }
  for (std::size_t r = 0; r < results_.size(); ++r) {
    if (results_[r] >= values ||
        values_[results_[r]].byte_size != buffer_bytes_[parameter_count_ + r]) {
      return InvalidArgument("template plugin: program " + name_ +
                             " has a result of the wrong size");
    }
  }
  return OkStatus();
}

Status Program::Run(std::span<uint8_t* const> buffers) const {
  // Temporaries for this run; constants and parameters where they are.
  std::vector<std::vector<uint8_t>> temporaries(values_.size());
  std::vector<uint8_t*> address(values_.size(), nullptr);
  for (std::size_t v = 0; v < values_.size(); ++v) {
    const Value& value = values_[v];
    if (value.kind == PHAL_PROGRAM_VALUE_PARAMETER) {
      address[v] = buffers[value.parameter];
    } else if (value.kind == PHAL_PROGRAM_VALUE_CONSTANT) {
      address[v] = const_cast<uint8_t*>(value.constant.data());
    } else {
      temporaries[v].resize(value.byte_size);
      address[v] = temporaries[v].data();
    }
  }
  std::vector<uint8_t*> bound;
  for (std::size_t k = 0; k < kernels_.size(); ++k) {
    bound.clear();
    for (uint32_t v : bindings_[k]) bound.push_back(address[v]);
    PHAL_RETURN_IF_ERROR(kernels_[k].Run(bound));
  }
  for (std::size_t r = 0; r < results_.size(); ++r) {
    const uint64_t bytes = buffer_bytes_[parameter_count_ + r];
    if (bytes > 0) {
      std::memmove(buffers[parameter_count_ + r], address[results_[r]], bytes);
    }
  }
  return OkStatus();
}

bool Program::IsProgram(std::string_view bytes) {
  return bytes.substr(0, kMagic.size()) == kMagic;
}

std::string Program::Serialize() const {
  ByteWriter out;
  out.AddHeader(kMagic, kFormatVersion);
  out.AddString(name_);
  out.AddU32(parameter_count_);
  out.AddU64(buffer_bytes_.size());
  for (uint64_t bytes : buffer_bytes_) out.AddU64(bytes);
  out.AddU64(values_.size());
  for (const Value& value : values_) {
    out.AddU32(value.kind);
    out.AddU32(value.parameter);
    out.AddU64(value.byte_size);
    out.AddString(
        std::string_view(reinterpret_cast<const char*>(value.constant.data()),
                         value.constant.size()));
  }
  out.AddU64(kernels_.size());
  for (std::size_t k = 0; k < kernels_.size(); ++k) {
    out.AddString(kernels_[k].Serialize());
    out.AddU64(bindings_[k].size());
    for (uint32_t v : bindings_[k]) out.AddU32(v);
  }
  out.AddU64(results_.size());
  for (uint32_t r : results_) out.AddU32(r);
  return out.Take();
}

StatusOr<std::unique_ptr<Program>> Program::Deserialize(
    std::string_view bytes) {
  ByteReader in(bytes);
  uint32_t version = 0;
  if (!in.ReadHeader(kMagic, &version) || version != kFormatVersion) {
    return InvalidArgument("template plugin: not a program of format " +
                           std::to_string(kFormatVersion));
  }
  auto program = std::make_unique<Program>();
  const Status truncated = Status(
      PHAL_DATA_LOSS, "template plugin: the serialized program is truncated");
  // A count no larger than the bytes left, each element one byte or more.
  auto count = [&](uint64_t* out) {
    return in.ReadU64(out) && *out <= in.remaining();
  };
  std::string_view name;
  uint64_t n = 0;
  if (!in.ReadString(&name) || !in.ReadU32(&program->parameter_count_) ||
      !count(&n)) {
    return truncated;
  }
  program->name_ = std::string(name);
  program->buffer_bytes_.resize(n);
  for (uint64_t& size : program->buffer_bytes_) {
    if (!in.ReadU64(&size)) return truncated;
  }
  if (!count(&n)) return truncated;
  program->values_.resize(n);
  for (Value& value : program->values_) {
    std::string_view constant;
    if (!in.ReadU32(&value.kind) || !in.ReadU32(&value.parameter) ||
        !in.ReadU64(&value.byte_size) || !in.ReadString(&constant)) {
      return truncated;
    }
    value.constant.assign(constant.begin(), constant.end());
  }
  if (!count(&n)) return truncated;
  for (uint64_t k = 0; k < n; ++k) {
    std::string_view encoded;
    uint64_t bindings = 0;
    if (!in.ReadString(&encoded) || !count(&bindings)) return truncated;
    PHAL_ASSIGN_OR_RETURN(kir_interpreter::Kernel kernel,
                          kir_interpreter::Kernel::Deserialize(encoded));
    std::vector<uint32_t>& bound = program->bindings_.emplace_back(bindings);
    for (uint32_t& v : bound) {
      if (!in.ReadU32(&v)) return truncated;
    }
    if (bound.size() != kernel.desc().buffer_count) {
      return InvalidArgument(
          "template plugin: a serialized kernel's bindings "
          "do not match its buffers");
    }
    program->kernels_.push_back(std::move(kernel));
  }
  if (!count(&n)) return truncated;
  program->results_.resize(n);
  for (uint32_t& r : program->results_) {
    if (!in.ReadU32(&r)) return truncated;
  }
  if (in.remaining() != 0) return truncated;
  PHAL_RETURN_IF_ERROR(program->Check());
  return program;
}

// ---- slots -----------------------------------------------------------------

phal_status_t* ProgramGetFormats(phal_plugin_device_t* /*device*/,
                                 uint32_t* out_formats) noexcept {
  *out_formats =
      ProgramMode()
          ? PHAL_PLUGIN_PROGRAM_FORMAT_BIT(PHAL_PLUGIN_PROGRAM_KIR_GRAPH)
          : 0;
  return nullptr;
}

phal_status_t* ProgramAcceptsOp(phal_plugin_device_t* /*device*/,
                                const phal_program_op_t* op,
                                int* out_accepted) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    *out_accepted =
        ProgramMode() && DeclinedOpcodes().count(op->opcode) == 0 ? 1 : 0;
    return OkStatus();
  });
}

phal_status_t* ProgramCompile(phal_plugin_device_t* /*device*/,
                              const phal_program_desc_t* program,
                              const phal_kernel_options_t* /*options*/,
                              phal_plugin_kernel_t** out_kernel) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    if (program == nullptr) {
      return InvalidArgument("template plugin: program is NULL");
    }
    PHAL_ASSIGN_OR_RETURN(std::unique_ptr<Program> compiled,
                          Program::Create(*program));
    *out_kernel = new phal_plugin_kernel(std::move(compiled));
    return OkStatus();
  });
}

}  // namespace phal::template_plugin
