#include "plugins/cpu/cpu_kernel_blob.h"

#include "plugins/cpu/cpu_build_identity.h"

#include <cstring>
#include <optional>

namespace phal::cpu {
namespace {

constexpr std::string_view kMagic = "PHALCPUK";
constexpr uint32_t kFormat = 2;

class Writer {
 public:
  template <typename T>
  void Add(const T& value) {
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof(T));
  }
  void AddRaw(std::string_view text) { bytes_.append(text); }
  void AddString(std::string_view text) {
    Add(static_cast<uint64_t>(text.size()));
    AddRaw(text);
  }
  std::string Take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  template <typename T>
  bool Read(T* value) {
    if (bytes_.size() < sizeof(T)) return false;
    std::memcpy(value, bytes_.data(), sizeof(T));
    bytes_.remove_prefix(sizeof(T));
    return true;
  }
  bool ReadString(std::string* text) {
    uint64_t size = 0;
    if (!Read(&size) || bytes_.size() < size) return false;
    text->assign(bytes_.substr(0, size));
    bytes_.remove_prefix(size);
    return true;
  }
  bool ReadMagic() {
    if (bytes_.substr(0, kMagic.size()) != kMagic) return false;
    bytes_.remove_prefix(kMagic.size());
    return true;
  }
  bool at_end() const { return bytes_.empty(); }

 private:
  std::string_view bytes_;
};

// The plan member by member: its padding bytes are indeterminate, and the
// bytes of equal kernels must be equal.
template <typename Visitor>
bool VisitPlan(llvm_emitter::LaunchPlan& plan, Visitor&& visit) {
  llvm_emitter::GemmShape& gemm = plan.gemm;
  llvm_emitter::ConvGemmShape& conv = plan.conv_gemm;
  return visit(plan.kind) && visit(plan.buffer_count) &&
         visit(plan.split_extent) && visit(plan.work_per_split) &&
         visit(plan.dot_sums_bytes) && visit(gemm.type) && visit(gemm.lhs) &&
         visit(gemm.rhs) && visit(gemm.lhs_transposed) &&
         visit(gemm.rhs_transposed) && visit(gemm.batch) && visit(gemm.m) &&
         visit(gemm.n) && visit(gemm.k) && visit(gemm.lhs_leading) &&
         visit(gemm.rhs_leading) && visit(gemm.lhs_batch_stride) &&
         visit(gemm.rhs_batch_stride) && visit(conv.type) &&
         visit(conv.input) && visit(conv.kernel) && visit(conv.batch) &&
         visit(conv.height) && visit(conv.width) && visit(conv.channels) &&
         visit(conv.kernel_height) && visit(conv.kernel_width) &&
         visit(conv.features) && visit(conv.out_height) &&
         visit(conv.out_width) && visit(conv.stride_h) &&
         visit(conv.stride_w) && visit(conv.pad_h) && visit(conv.pad_w) &&
         visit(conv.dilation_h) && visit(conv.dilation_w);
}

}  // namespace

std::string EncodeKernelBlob(const KernelBlob& blob) {
  Writer out;
  out.AddRaw(kMagic);
  out.Add(kFormat);
  out.Add(blob.fingerprint);
  out.AddString(blob.target.triple);
  out.AddString(blob.target.features);
  out.AddString(blob.plugin_version);
  out.AddString(blob.name);
  llvm_emitter::LaunchPlan plan = blob.plan;
  VisitPlan(plan, [&](const auto& member) {
    out.Add(member);
    return true;
  });
  out.AddString(blob.object);
  return out.Take();
}

StatusOr<KernelBlob> DecodeKernelBlob(std::string_view bytes,
                                      const JitTarget& target) {
  Reader in(bytes);
  KernelBlob blob;
  uint32_t format = 0;
  if (!in.ReadMagic() || !in.Read(&format)) {
    return InvalidArgument("cpu plugin: the bytes are not a serialized kernel");
  }
  if (format != kFormat) {
    return FailedPrecondition("cpu plugin: serialized kernel has format " +
                              std::to_string(format) + ", this plugin reads " +
                              std::to_string(kFormat));
  }
  if (!in.Read(&blob.fingerprint) || !in.ReadString(&blob.target.triple) ||
      !in.ReadString(&blob.target.features) ||
      !in.ReadString(&blob.plugin_version) || !in.ReadString(&blob.name) ||
      !VisitPlan(blob.plan, [&](auto& member) { return in.Read(&member); }) ||
      !in.ReadString(&blob.object) || !in.at_end()) {
    return InvalidArgument("cpu plugin: the serialized kernel is truncated");
  }
  if (blob.plugin_version != PluginBuildIdentity()) {
    return FailedPrecondition("cpu plugin: kernel was serialized by plugin " +
                              blob.plugin_version + "; this is " +
                              PluginBuildIdentity());
  }
  if (blob.target.triple != target.triple ||
      blob.target.features != target.features) {
    return FailedPrecondition("cpu plugin: kernel was compiled for " +
                              blob.target.triple + " (" + blob.target.features +
                              "), this machine is " + target.triple + " (" +
                              target.features + ")");
  }
  return blob;
}

}  // namespace phal::cpu
