#include "sdk/emitters/llvm/nvptx_target.h"

#include <mutex>

#include <llvm/IR/Constants.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include "sdk/emitters/llvm/device/device_library.h"
#include "sdk/emitters/llvm/machine_code.h"

namespace phal::llvm_emitter {
namespace {

constexpr const char* kTriple = "nvptx64-nvidia-cuda";
constexpr unsigned kSharedAddressSpace = 3;

void InitializeNvptxOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

// The oldest PTX ISA that has every instruction LLVM 16 emits for the
// compute capability: the oldest text that drivers load, so the oldest
// drivers for that architecture load it too.
const char* PtxVersionFor(unsigned compute_capability) {
  if (compute_capability >= 89) return "7.8";
  if (compute_capability >= 87) return "7.4";
  if (compute_capability >= 86) return "7.1";
  if (compute_capability >= 80) return "7.0";
  if (compute_capability >= 75) return "6.3";
  if (compute_capability >= 70) return "6.0";
  return "5.0";
}

std::string PtxFeature(const std::string& version) {
  std::string digits;
  for (char c : version) {
    if (c != '.') digits += c;
  }
  return "+ptx" + digits;
}

}  // namespace

StatusOr<std::unique_ptr<NvptxTarget>> NvptxTarget::Create(
    unsigned compute_capability) {
  if (compute_capability < 60 || compute_capability > 90) {
    return Unimplemented(
        "the NVPTX target compiles for sm_60 to sm_90, not "
        "sm_" +
        std::to_string(compute_capability));
  }
  InitializeNvptxOnce();
  std::string error;
  if (llvm::TargetRegistry::lookupTarget(kTriple, error) == nullptr) {
    return Unavailable("LLVM was built without the NVPTX backend: " + error);
  }
  return std::unique_ptr<NvptxTarget>(
      new NvptxTarget("sm_" + std::to_string(compute_capability),
                      PtxVersionFor(compute_capability)));
}

void NvptxTarget::ConfigureModule(llvm::Module& module) const {
  module.setTargetTriple(kTriple);
  // The data layout of nvptx64 with 64-bit generic pointers; the machine
  // sets the same one again before code generation.
  module.setDataLayout("e-i64:64-i128:128-v16:16-v32:32-n16:32:64");
}

SpmdKernelFunction NvptxTarget::CreateKernel(llvm::Module& module,
                                             const std::string& name,
                                             unsigned pointer_count,
                                             llvm::IRBuilder<>& builder) const {
  llvm::LLVMContext& context = module.getContext();
  std::vector<llvm::Type*> parameters(pointer_count, builder.getPtrTy());
  auto* type = llvm::FunctionType::get(builder.getVoidTy(), parameters, false);
  auto* function = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                          name, &module);
  function->setCallingConv(llvm::CallingConv::PTX_Kernel);
  // The annotation older NVPTX passes look for beside the calling
  // convention.
  llvm::Metadata* annotation[] = {
      llvm::ValueAsMetadata::get(function),
      llvm::MDString::get(context, "kernel"),
      llvm::ValueAsMetadata::get(builder.getInt32(1))};
  module.getOrInsertNamedMetadata("nvvm.annotations")
      ->addOperand(llvm::MDNode::get(context, annotation));
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", function));
  SpmdKernelFunction kernel;
  kernel.function = function;
  for (unsigned i = 0; i < pointer_count; ++i) {
    kernel.pointers.push_back(function->getArg(i));
  }
  return kernel;
}

llvm::Value* NvptxTarget::ThreadIndex(llvm::IRBuilder<>& builder,
                                      unsigned dimension) const {
  return ReadDimensionIntrinsic(builder,
                                {llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x,
                                 llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y,
                                 llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z},
                                dimension);
}

llvm::Value* NvptxTarget::BlockIndex(llvm::IRBuilder<>& builder,
                                     unsigned dimension) const {
  return ReadDimensionIntrinsic(builder,
                                {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                 llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                 llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z},
                                dimension);
}

llvm::Value* NvptxTarget::BlockSize(llvm::IRBuilder<>& builder,
                                    unsigned dimension) const {
  return ReadDimensionIntrinsic(builder,
                                {llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x,
                                 llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y,
                                 llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z},
                                dimension);
}

llvm::Value* NvptxTarget::GridSize(llvm::IRBuilder<>& builder,
                                   unsigned dimension) const {
  return ReadDimensionIntrinsic(builder,
                                {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                                 llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                                 llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z},
                                dimension);
}

void NvptxTarget::Barrier(llvm::IRBuilder<>& builder) const {
  // bar.sync 0: waits for the whole block and orders its memory accesses.
  builder.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
}

llvm::Value* NvptxTarget::SharedMemory(llvm::IRBuilder<>& builder,
                                       llvm::Module& module,
                                       uint64_t bytes) const {
  auto* type = llvm::ArrayType::get(builder.getInt8Ty(), bytes);
  auto* shared = new llvm::GlobalVariable(
      module, type, false, llvm::GlobalValue::InternalLinkage,
      llvm::UndefValue::get(type), "phal_shared", nullptr,
      llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
  shared->setAlignment(llvm::Align(16));
  return builder.CreateAddrSpaceCast(shared, builder.getPtrTy());
}

llvm::Value* NvptxTarget::ShuffleDown(llvm::IRBuilder<>& builder,
                                      llvm::Value* value,
                                      unsigned delta) const {
  llvm::Type* type = value->getType();
  llvm::Value* mask = builder.getInt32(0xFFFFFFFFu);
  // c = 31: lanes whose source lies past the warp's last lane keep their
  // own value.
  llvm::Value* clamp = builder.getInt32(31);
  auto shuffle32 = [&](llvm::Value* word) {
    return builder.CreateIntrinsic(
        llvm::Intrinsic::nvvm_shfl_sync_down_i32, {},
        {mask, word, builder.getInt32(delta), clamp});
  };
  if (type->isFloatTy()) {
    return builder.CreateBitCast(
        shuffle32(builder.CreateBitCast(value, builder.getInt32Ty())), type);
  }
  if (type->isIntegerTy(32)) return shuffle32(value);
  // 64-bit values move as two words.
  llvm::Value* bits = builder.CreateBitCast(value, builder.getInt64Ty());
  llvm::Value* low = shuffle32(builder.CreateTrunc(bits, builder.getInt32Ty()));
  llvm::Value* high = shuffle32(
      builder.CreateTrunc(builder.CreateLShr(bits, 32), builder.getInt32Ty()));
  llvm::Value* joined = builder.CreateOr(
      builder.CreateZExt(low, builder.getInt64Ty()),
      builder.CreateShl(builder.CreateZExt(high, builder.getInt64Ty()), 32));
  return builder.CreateBitCast(joined, type);
}

StatusOr<std::string> NvptxTarget::CompileToPtx(llvm::Module& module) const {
  PHAL_RETURN_IF_ERROR(LinkDeviceLibrary(module, DeviceTarget::kNvptx64));
  std::string error;
  const llvm::Target* target =
      llvm::TargetRegistry::lookupTarget(kTriple, error);
  if (target == nullptr) {
    return Unavailable("LLVM was built without the NVPTX backend: " + error);
  }
  // A TargetMachine is not safe to share between threads compiling at once,
  // so every compilation makes its own.
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      kTriple, arch_, PtxFeature(ptx_version_), llvm::TargetOptions(),
      std::nullopt, std::nullopt, CodeGenLevel(3)));
  if (machine == nullptr) {
    return Internal("LLVM could not make an NVPTX target machine for " + arch_);
  }
  return OptimizeAndEmit(*machine, module, 3, llvm::CGFT_AssemblyFile);
}

}  // namespace phal::llvm_emitter
