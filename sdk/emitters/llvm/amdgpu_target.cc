#include "sdk/emitters/llvm/amdgpu_target.h"

#include <algorithm>
#include <iterator>
#include <mutex>
#include <optional>
#include <vector>

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicsAMDGPU.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FileUtilities.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "sdk/emitters/llvm/device/device_library.h"
#include "sdk/emitters/llvm/machine_code.h"

namespace phal::llvm_emitter {
namespace {

constexpr const char* kTriple = "amdgcn-amd-amdhsa";
constexpr unsigned kGlobalAddressSpace = 1;
constexpr unsigned kLocalAddressSpace = 3;  // LDS
constexpr unsigned kPrivateAddressSpace = 5;

// hsa_kernel_dispatch_packet_t: workgroup_size_{x,y,z} are u16 from byte 4,
// grid_size_{x,y,z} u32 from byte 12, the grid counted in work-items.
constexpr unsigned kWorkgroupSizeOffset = 4;
constexpr unsigned kGridSizeOffset = 12;

struct Architecture {
  const char* name;
  unsigned wave_size;
};

// GCN and CDNA (gfx9) run 64-lane waves only; RDNA (gfx10, gfx11) runs both
// and HIP compiles for wave32 there, so a runtime's warpSize says 32.
constexpr Architecture kArchitectures[] = {
    {"gfx908", 64},  {"gfx90a", 64},  {"gfx940", 64},
    {"gfx1030", 32}, {"gfx1100", 32},
};

void InitializeAmdgpuOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
  });
}

// LLVM 16 takes the code-object version from this process-wide option only
// (the "amdgpu_code_object_version" module flag arrived in LLVM 17). It is
// set once, before any compilation, to the version LLVM 16 defaults to, so
// other users of the shared LLVM in the process see no change.
Status SetCodeObjectVersionOnce() {
  static const Status status = [] {
    llvm::StringMap<llvm::cl::Option*>& options =
        llvm::cl::getRegisteredOptions();
    auto found = options.find("amdhsa-code-object-version");
    if (found == options.end()) {
      return Internal(
          "LLVM has no amdhsa-code-object-version option to choose the "
          "code-object version with");
    }
    const std::string version =
        std::to_string(AmdgpuTarget::kCodeObjectVersion);
    if (found->second->addOccurrence(0, found->first(), version)) {
      return Internal("LLVM refused code-object version " + version);
    }
    return OkStatus();
  }();
  return status;
}

std::string WaveFeature(unsigned wave_size) {
  return wave_size == 64 ? "+wavefrontsize64" : "+wavefrontsize32";
}

StatusOr<std::unique_ptr<llvm::TargetMachine>> MakeMachine(
    const std::string& arch, unsigned wave_size) {
  std::string error;
  const llvm::Target* target =
      llvm::TargetRegistry::lookupTarget(kTriple, error);
  if (target == nullptr) {
    return Unavailable("LLVM was built without the AMDGPU backend: " + error);
  }
  // A TargetMachine is not safe to share between threads compiling at once,
  // so every compilation makes its own. No xnack or sramecc feature: the
  // code object then loads whichever way the device is configured.
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      kTriple, arch, WaveFeature(wave_size), llvm::TargetOptions(),
      std::nullopt, std::nullopt, CodeGenLevel(3)));
  if (machine == nullptr) {
    return Internal("LLVM could not make an AMDGPU target machine for " + arch);
  }
  return machine;
}

// `layout` with allocas in the generic address space: its "-A5" left out.
std::string WithGenericAllocas(const std::string& layout) {
  const std::string allocas = "-A" + std::to_string(kPrivateAddressSpace);
  std::string generic = layout;
  const size_t at = generic.find(allocas);
  if (at != std::string::npos) generic.erase(at, allocas.size());
  return generic;
}

// Allocas the emitter made in the generic address space move to private
// memory, where the AMDGPU code generator requires them, each cast back to
// a generic pointer for its users; the optimiser turns accesses through the
// casts into private ones.
void MoveAllocasToPrivateMemory(llvm::Module& module) {
  for (llvm::Function& function : module) {
    std::vector<llvm::AllocaInst*> generic;
    for (llvm::Instruction& instruction : llvm::instructions(function)) {
      auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction);
      if (alloca != nullptr && alloca->getAddressSpace() == 0) {
        generic.push_back(alloca);
      }
    }
    for (llvm::AllocaInst* alloca : generic) {
      auto* moved = new llvm::AllocaInst(
          alloca->getAllocatedType(), kPrivateAddressSpace,
          alloca->getArraySize(), alloca->getAlign(), "", alloca);
      moved->takeName(alloca);
      alloca->replaceAllUsesWith(
          new llvm::AddrSpaceCastInst(moved, alloca->getType(), "", alloca));
      alloca->eraseFromParent();
    }
  }
}

// A reader of a dispatch-packet field: the packet does not change while the
// kernel runs.
llvm::Value* LoadDispatchField(llvm::IRBuilder<>& builder, llvm::Type* type,
                               unsigned offset) {
  llvm::Value* packet =
      builder.CreateIntrinsic(llvm::Intrinsic::amdgcn_dispatch_ptr, {}, {});
  llvm::Value* field =
      builder.CreateConstInBoundsGEP1_32(builder.getInt8Ty(), packet, offset);
  llvm::LoadInst* load = builder.CreateAlignedLoad(
      type, field, llvm::Align(type->getPrimitiveSizeInBits() / 8));
  load->setMetadata(llvm::LLVMContext::MD_invariant_load,
                    llvm::MDNode::get(builder.getContext(), {}));
  return load;
}

// Runs `ld.lld -shared` on `object` (no shell), through files in the temporary
// directory that are removed whatever happens.
StatusOr<std::string> LinkCodeObject(const std::string& object) {
  const std::string linker = AmdgpuTarget::LinkerPath();
  if (linker.empty()) {
    return Unavailable(
        "no ld.lld was found when the SDK was configured (install lld-16): "
        "AMDGPU objects cannot be linked into code objects");
  }
  llvm::SmallString<128> input, output, messages;
  if (llvm::sys::fs::createTemporaryFile("phal_amdgpu", "o", input) ||
      llvm::sys::fs::createTemporaryFile("phal_amdgpu", "hsaco", output) ||
      llvm::sys::fs::createTemporaryFile("phal_amdgpu", "txt", messages)) {
    return Internal("cannot create temporary files to link a code object");
  }
  llvm::FileRemover remove_input(input), remove_output(output),
      remove_messages(messages);
  {
    std::error_code error;
    llvm::raw_fd_ostream stream(input, error);
    if (error) return Internal("cannot write " + input.str().str());
    stream << object;
    stream.close();
    if (stream.has_error()) {
      stream.clear_error();
      return Internal("cannot write " + input.str().str());
    }
  }
  // --no-undefined: a symbol nobody defines fails here, not when a runtime
  // loads the code object.
  const llvm::StringRef arguments[] = {linker, "-shared", "--no-undefined",
                                       input,  "-o",      output};
  const std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(messages),
      llvm::StringRef(messages)};
  std::string failure;
  const int exit_code = llvm::sys::ExecuteAndWait(
      linker, arguments, std::nullopt, redirects, 0, 0, &failure);
  if (exit_code != 0) {
    std::string said;
    if (auto text = llvm::MemoryBuffer::getFile(messages)) {
      said = (*text)->getBuffer().str();
    }
    return Internal(linker + " could not link the code object (exit " +
                    std::to_string(exit_code) + "): " + failure + said);
  }
  auto linked = llvm::MemoryBuffer::getFile(output);
  if (!linked) return Internal("cannot read the code object ld.lld wrote");
  return (*linked)->getBuffer().str();
}

}  // namespace

StatusOr<std::unique_ptr<AmdgpuTarget>> AmdgpuTarget::Create(
    const std::string& gfx_arch) {
  const Architecture* found = std::find_if(
      std::begin(kArchitectures), std::end(kArchitectures),
      [&](const Architecture& known) { return gfx_arch == known.name; });
  if (found == std::end(kArchitectures)) {
    return Unimplemented(
        "the AMDGPU target compiles for gfx908, gfx90a, gfx940, gfx1030 and "
        "gfx1100, not '" +
        gfx_arch + "'");
  }
  InitializeAmdgpuOnce();
  PHAL_RETURN_IF_ERROR(SetCodeObjectVersionOnce());
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<llvm::TargetMachine> machine,
                        MakeMachine(found->name, found->wave_size));
  const std::string layout =
      machine->createDataLayout().getStringRepresentation();
  return std::unique_ptr<AmdgpuTarget>(new AmdgpuTarget(
      found->name, found->wave_size, WithGenericAllocas(layout), layout));
}

const char* AmdgpuTarget::LinkerPath() { return PHAL_LD_LLD_PATH; }

void AmdgpuTarget::ConfigureModule(llvm::Module& module) const {
  module.setTargetTriple(kTriple);
  // The emitter's private slots (allocas) are generic pointers, as every
  // pointer it sees (spmd_target.h), so that it may pass them to the device
  // library's functions; Emit moves them to private memory.
  module.setDataLayout(emitter_layout_);
}

SpmdKernelFunction AmdgpuTarget::CreateKernel(
    llvm::Module& module, const std::string& name, unsigned pointer_count,
    llvm::IRBuilder<>& builder) const {
  llvm::LLVMContext& context = module.getContext();
  // Buffers arrive as global pointers, so the metadata calls them global
  // buffers and loads through them may use global (not flat) instructions.
  std::vector<llvm::Type*> parameters(pointer_count,
                                      builder.getPtrTy(kGlobalAddressSpace));
  auto* type = llvm::FunctionType::get(builder.getVoidTy(), parameters, false);
  auto* function = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                          name, &module);
  function->setCallingConv(llvm::CallingConv::AMDGPU_KERNEL);
  // Without it LLVM assumes at most 256 work-items per workgroup (and
  // allocates registers for that); the emitter launches up to 1024.
  function->addFnAttr("amdgpu-flat-work-group-size",
                      "1," + std::to_string(MaxBlockSize()));
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", function));
  SpmdKernelFunction kernel;
  kernel.function = function;
  for (unsigned i = 0; i < pointer_count; ++i) {
    kernel.pointers.push_back(
        builder.CreateAddrSpaceCast(function->getArg(i), builder.getPtrTy()));
  }
  return kernel;
}

llvm::Value* AmdgpuTarget::ThreadIndex(llvm::IRBuilder<>& builder,
                                       unsigned dimension) const {
  return ReadDimensionIntrinsic(builder,
                                {llvm::Intrinsic::amdgcn_workitem_id_x,
                                 llvm::Intrinsic::amdgcn_workitem_id_y,
                                 llvm::Intrinsic::amdgcn_workitem_id_z},
                                dimension);
}

llvm::Value* AmdgpuTarget::BlockIndex(llvm::IRBuilder<>& builder,
                                      unsigned dimension) const {
  return ReadDimensionIntrinsic(builder,
                                {llvm::Intrinsic::amdgcn_workgroup_id_x,
                                 llvm::Intrinsic::amdgcn_workgroup_id_y,
                                 llvm::Intrinsic::amdgcn_workgroup_id_z},
                                dimension);
}

llvm::Value* AmdgpuTarget::BlockSize(llvm::IRBuilder<>& builder,
                                     unsigned dimension) const {
  llvm::Value* size = LoadDispatchField(builder, builder.getInt16Ty(),
                                        kWorkgroupSizeOffset + 2 * dimension);
  return builder.CreateZExt(size, builder.getInt32Ty());
}

llvm::Value* AmdgpuTarget::GridSize(llvm::IRBuilder<>& builder,
                                    unsigned dimension) const {
  // HIP launches whole blocks, so the work-items divide exactly.
  llvm::Value* work_items = LoadDispatchField(builder, builder.getInt32Ty(),
                                              kGridSizeOffset + 4 * dimension);
  return builder.CreateUDiv(work_items, BlockSize(builder, dimension));
}

void AmdgpuTarget::Barrier(llvm::IRBuilder<>& builder) const {
  // s_barrier only waits; the workgroup-scope fences make the writes before
  // it (to LDS and to global memory) visible to the block after it.
  const llvm::SyncScope::ID workgroup =
      builder.getContext().getOrInsertSyncScopeID("workgroup");
  builder.CreateFence(llvm::AtomicOrdering::Release, workgroup);
  builder.CreateIntrinsic(llvm::Intrinsic::amdgcn_s_barrier, {}, {});
  builder.CreateFence(llvm::AtomicOrdering::Acquire, workgroup);
}

llvm::Value* AmdgpuTarget::SharedMemory(llvm::IRBuilder<>& builder,
                                        llvm::Module& module,
                                        uint64_t bytes) const {
  // LDS cannot be initialised; its size is the code object's
  // group_segment_fixed_size.
  auto* type = llvm::ArrayType::get(builder.getInt8Ty(), bytes);
  auto* shared = new llvm::GlobalVariable(
      module, type, false, llvm::GlobalValue::InternalLinkage,
      llvm::UndefValue::get(type), "phal_shared", nullptr,
      llvm::GlobalValue::NotThreadLocal, kLocalAddressSpace);
  shared->setAlignment(llvm::Align(16));
  return builder.CreateAddrSpaceCast(shared, builder.getPtrTy());
}

llvm::Value* AmdgpuTarget::ShuffleDown(llvm::IRBuilder<>& builder,
                                       llvm::Value* value,
                                       unsigned delta) const {
  // The lane within the wave: set bits of an all-ones mask below this lane,
  // the high half counted only where waves have 64 lanes.
  llvm::Value* all = builder.getInt32(0xFFFFFFFFu);
  llvm::Value* lane = builder.CreateIntrinsic(llvm::Intrinsic::amdgcn_mbcnt_lo,
                                              {}, {all, builder.getInt32(0)});
  if (wave_size_ == 64) {
    lane = builder.CreateIntrinsic(llvm::Intrinsic::amdgcn_mbcnt_hi, {},
                                   {all, lane});
  }
  // ds_bpermute wraps its source lane around the wave, so a lane whose
  // source lies past the end reads itself instead.
  llvm::Value* source = builder.CreateAdd(lane, builder.getInt32(delta));
  llvm::Value* inside =
      builder.CreateICmpULT(source, builder.getInt32(wave_size_));
  llvm::Value* address =
      builder.CreateShl(builder.CreateSelect(inside, source, lane), 2);
  auto permute32 = [&](llvm::Value* word) {
    return builder.CreateIntrinsic(llvm::Intrinsic::amdgcn_ds_bpermute, {},
                                   {address, word});
  };
  llvm::Type* type = value->getType();
  if (type->isFloatTy()) {
    return builder.CreateBitCast(
        permute32(builder.CreateBitCast(value, builder.getInt32Ty())), type);
  }
  if (type->isIntegerTy(32)) return permute32(value);
  // 64-bit values move as two words.
  llvm::Value* bits = builder.CreateBitCast(value, builder.getInt64Ty());
  llvm::Value* low = permute32(builder.CreateTrunc(bits, builder.getInt32Ty()));
  llvm::Value* high = permute32(
      builder.CreateTrunc(builder.CreateLShr(bits, 32), builder.getInt32Ty()));
  llvm::Value* joined = builder.CreateOr(
      builder.CreateZExt(low, builder.getInt64Ty()),
      builder.CreateShl(builder.CreateZExt(high, builder.getInt64Ty()), 32));
  return builder.CreateBitCast(joined, type);
}

StatusOr<std::string> AmdgpuTarget::Emit(
    const llvm::Module& module, llvm::CodeGenFileType file_type) const {
  std::unique_ptr<llvm::Module> copy = llvm::CloneModule(module);
  MoveAllocasToPrivateMemory(*copy);
  copy->setDataLayout(machine_layout_);
  PHAL_RETURN_IF_ERROR(LinkDeviceLibrary(*copy, DeviceTarget::kAmdgcn));
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<llvm::TargetMachine> machine,
                        MakeMachine(arch_, wave_size_));
  return OptimizeAndEmit(*machine, *copy, 3, file_type);
}

StatusOr<std::string> AmdgpuTarget::CompileToCodeObject(
    const llvm::Module& module) const {
  PHAL_ASSIGN_OR_RETURN(std::string object,
                        Emit(module, llvm::CGFT_ObjectFile));
  return LinkCodeObject(object);
}

StatusOr<std::string> AmdgpuTarget::CompileToAssembly(
    const llvm::Module& module) const {
  return Emit(module, llvm::CGFT_AssemblyFile);
}

}  // namespace phal::llvm_emitter
