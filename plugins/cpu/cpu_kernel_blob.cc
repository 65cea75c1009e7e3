#include "plugins/cpu/cpu_kernel_blob.h"

#include "plugins/cpu/cpu_build_identity.h"
#include "sdk/base/byte_codec.h"

namespace phal::cpu {
namespace {

constexpr std::string_view kMagic = "PHALCPUK";
constexpr uint32_t kFormat = 5;

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
         visit(gemm.rhs_batch_stride) && visit(gemm.lhs_type) &&
         visit(gemm.rhs_type) && visit(conv.type) && visit(conv.input) &&
         visit(conv.kernel) && visit(conv.batch) && visit(conv.height) &&
         visit(conv.width) && visit(conv.channels) &&
         visit(conv.kernel_height) && visit(conv.kernel_width) &&
         visit(conv.features) && visit(conv.out_height) &&
         visit(conv.out_width) && visit(conv.stride_h) &&
         visit(conv.stride_w) && visit(conv.pad_h) && visit(conv.pad_w) &&
         visit(conv.dilation_h) && visit(conv.dilation_w) &&
         visit(conv.input_type) && visit(conv.kernel_type);
}

template <typename Visitor>
bool VisitFft(FftShape& fft, Visitor&& visit) {
  return visit(fft.type) && visit(fft.real_type) && visit(fft.input) &&
         visit(fft.output) && visit(fft.rank) && visit(fft.lengths[0]) &&
         visit(fft.lengths[1]) && visit(fft.lengths[2]) && visit(fft.batch);
}

template <typename Visitor>
bool VisitLinalg(LinalgShape& linalg, Visitor&& visit) {
  return visit(linalg.op) && visit(linalg.flags) && visit(linalg.transpose_a) &&
         visit(linalg.type) && visit(linalg.operand_count) &&
         visit(linalg.operands[0]) && visit(linalg.operands[1]) &&
         visit(linalg.result_count) && visit(linalg.results[0]) &&
         visit(linalg.results[1]) && visit(linalg.results[2]) &&
         visit(linalg.batch) && visit(linalg.m) && visit(linalg.n) &&
         visit(linalg.k);
}

bool IsFft(const llvm_emitter::LaunchPlan& plan) {
  return static_cast<uint32_t>(plan.kind) == PHAL_KERNEL_KIND_FFT;
}

bool IsLinalg(const llvm_emitter::LaunchPlan& plan) {
  return static_cast<uint32_t>(plan.kind) == PHAL_KERNEL_KIND_LINALG;
}

}  // namespace

std::string EncodeKernelBlob(const KernelBlob& blob) {
  ByteWriter out;
  out.AddHeader(kMagic, kFormat);
  out.AddU64(blob.fingerprint);
  out.AddString(blob.target.triple);
  out.AddString(blob.target.features);
  out.AddString(blob.plugin_version);
  out.AddString(blob.name);
  llvm_emitter::LaunchPlan plan = blob.plan;
  VisitPlan(plan, [&](const auto& member) {
    out.AddInteger(member);
    return true;
  });
  if (IsFft(plan)) {
    FftShape fft = blob.fft;
    VisitFft(fft, [&](const auto& member) {
      out.AddInteger(member);
      return true;
    });
  }
  if (IsLinalg(plan)) {
    LinalgShape linalg = blob.linalg;
    VisitLinalg(linalg, [&](const auto& member) {
      out.AddInteger(member);
      return true;
    });
  }
  out.AddString(blob.object);
  return out.Take();
}

StatusOr<KernelBlob> DecodeKernelBlob(std::string_view bytes,
                                      const JitTarget& target) {
  ByteReader in(bytes);
  KernelBlob blob;
  uint32_t format = 0;
  if (!in.ReadHeader(kMagic, &format)) {
    return InvalidArgument("cpu plugin: the bytes are not a serialized kernel");
  }
  if (format != kFormat) {
    return FailedPrecondition("cpu plugin: serialized kernel has format " +
                              std::to_string(format) + ", this plugin reads " +
                              std::to_string(kFormat));
  }
  std::string_view triple, features, plugin_version, name, object;
  if (!in.ReadU64(&blob.fingerprint) || !in.ReadString(&triple) ||
      !in.ReadString(&features) || !in.ReadString(&plugin_version) ||
      !in.ReadString(&name) ||
      !VisitPlan(blob.plan,
                 [&](auto& member) { return in.ReadInteger(&member); }) ||
      (IsFft(blob.plan) &&
       !VisitFft(blob.fft,
                 [&](auto& member) { return in.ReadInteger(&member); })) ||
      (IsLinalg(blob.plan) &&
       !VisitLinalg(blob.linalg,
                    [&](auto& member) { return in.ReadInteger(&member); })) ||
      !in.ReadString(&object) || !in.at_end()) {
    return InvalidArgument("cpu plugin: the serialized kernel is truncated");
  }
  if (IsFft(blob.plan)) {
    PHAL_RETURN_IF_ERROR(CheckFftShape(blob.fft, blob.plan.buffer_count));
  }
  if (IsLinalg(blob.plan)) {
    PHAL_RETURN_IF_ERROR(CheckLinalgShape(blob.linalg, blob.plan.buffer_count));
  }
  blob.target.triple = triple;
  blob.target.features = features;
  blob.plugin_version = plugin_version;
  blob.name = name;
  blob.object = object;
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
