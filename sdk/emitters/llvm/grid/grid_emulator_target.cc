#include "sdk/emitters/llvm/grid/grid_emulator_target.h"

#include <initializer_list>

#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/ModRef.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "sdk/emitters/llvm/grid/grid_instrumentation.h"

namespace phal::llvm_emitter::grid {
namespace {

llvm::Function* Declare(llvm::Module& module, const char* name,
                        llvm::FunctionType* type) {
  llvm::Function* function = module.getFunction(name);
  if (function != nullptr) return function;
  return llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, name,
                                module);
}

llvm::Module& ModuleOf(llvm::IRBuilder<>& builder) {
  return *builder.GetInsertBlock()->getModule();
}

// An index or size: constant for the life of an emulated thread, so the
// optimiser may treat it as a pure function and hoist or merge calls.
llvm::Value* CallIndex(llvm::IRBuilder<>& builder, const char* name,
                       unsigned dimension) {
  llvm::Type* i32 = builder.getInt32Ty();
  llvm::Function* function = Declare(
      ModuleOf(builder), name, llvm::FunctionType::get(i32, {i32}, false));
  function->setDoesNotThrow();
  function->setWillReturn();
  function->setDoesNotAccessMemory();
  function->addFnAttr(llvm::Attribute::Speculatable);
  return builder.CreateCall(function, {builder.getInt32(dimension)});
}

// Barriers and shuffles pass the number of calls the module already has to
// the same kind of function: each place in the kernel gets its own number,
// and copies the optimiser makes of one place keep it, so the emulator can
// tell threads that wait at different places apart.
int32_t NextPlace(llvm::Module& module,
                  std::initializer_list<const char*> names) {
  unsigned uses = 0;
  for (const char* name : names) {
    if (const llvm::Function* function = module.getFunction(name)) {
      uses += function->getNumUses();
    }
  }
  return static_cast<int32_t>(uses);
}

constexpr const char* kShuffleI32 = "phal_grid_shuffle_down_i32";
constexpr const char* kShuffleI64 = "phal_grid_shuffle_down_i64";
constexpr const char* kShuffleF32 = "phal_grid_shuffle_down_f32";
constexpr const char* kShuffleF64 = "phal_grid_shuffle_down_f64";

llvm::Value* CallShuffle(llvm::IRBuilder<>& builder, const char* name,
                         llvm::Value* value, unsigned delta) {
  llvm::Module& module = ModuleOf(builder);
  llvm::Type* i32 = builder.getInt32Ty();
  llvm::Type* type = value->getType();
  llvm::Function* function = Declare(
      module, name, llvm::FunctionType::get(type, {type, i32, i32}, false));
  function->setDoesNotThrow();
  function->setConvergent();
  function->setMemoryEffects(llvm::MemoryEffects::inaccessibleMemOnly());
  const int32_t place =
      NextPlace(module, {kShuffleI32, kShuffleI64, kShuffleF32, kShuffleF64});
  return builder.CreateCall(
      function, {value, builder.getInt32(delta), builder.getInt32(place)});
}

}  // namespace

StatusOr<std::unique_ptr<GridEmulatorTarget>> GridEmulatorTarget::Create(
    const GridLimits& limits) {
  if (limits.warp_size > 64 ||
      (limits.warp_size & (limits.warp_size - 1)) != 0) {
    return InvalidArgument("grid emulator: warps of " +
                           std::to_string(limits.warp_size) +
                           " lanes; 0 or a power of two up to 64");
  }
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<HostCpuTarget> host,
                        HostCpuTarget::Create(/*has_gemm=*/false));
  // The data layout is known before emission, so that the checking
  // instrumentation sizes accesses as the host's code generator will.
  std::string error;
  const llvm::Target* target =
      llvm::TargetRegistry::lookupTarget(host->triple(), error);
  if (target == nullptr) {
    return Unavailable("LLVM has no target for " + host->triple() + ": " +
                       error);
  }
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      host->triple(), host->cpu_name(), host->features(), llvm::TargetOptions(),
      llvm::Reloc::PIC_));
  if (machine == nullptr) {
    return Internal("LLVM could not make a target machine for " +
                    host->triple());
  }
  std::string layout = machine->createDataLayout().getStringRepresentation();
  return std::unique_ptr<GridEmulatorTarget>(
      new GridEmulatorTarget(std::move(host), limits, std::move(layout)));
}

void GridEmulatorTarget::ConfigureModule(llvm::Module& module) const {
  host_->ConfigureModule(module);
  module.setDataLayout(data_layout_);
}

SpmdKernelFunction GridEmulatorTarget::CreateKernel(
    llvm::Module& module, const std::string& name, unsigned pointer_count,
    llvm::IRBuilder<>& builder) const {
  llvm::PointerType* pointer = builder.getPtrTy();
  llvm::Function* function = llvm::Function::Create(
      llvm::FunctionType::get(builder.getVoidTy(), {pointer}, false),
      llvm::GlobalValue::ExternalLinkage, name, module);
  function->addFnAttr(kGridKernelAttribute);
  function->setDoesNotThrow();
  // The argument array is the emulator's: the kernel only reads it.
  llvm::Argument* args = function->getArg(0);
  args->setName("args");
  args->addAttr(llvm::Attribute::NoAlias);
  args->addAttr(llvm::Attribute::NoCapture);
  args->addAttr(llvm::Attribute::ReadOnly);
  builder.SetInsertPoint(
      llvm::BasicBlock::Create(module.getContext(), "entry", function));
  SpmdKernelFunction kernel{function, {}};
  for (unsigned i = 0; i < pointer_count; ++i) {
    llvm::LoadInst* load = builder.CreateLoad(
        pointer, builder.CreateConstInBoundsGEP1_64(pointer, args, i),
        "buffer" + std::to_string(i));
    load->setMetadata(llvm::LLVMContext::MD_invariant_load,
                      llvm::MDNode::get(module.getContext(), {}));
    kernel.pointers.push_back(load);
  }
  return kernel;
}

llvm::Value* GridEmulatorTarget::ThreadIndex(llvm::IRBuilder<>& builder,
                                             unsigned dimension) const {
  return CallIndex(builder, "phal_grid_thread_index", dimension);
}

llvm::Value* GridEmulatorTarget::BlockIndex(llvm::IRBuilder<>& builder,
                                            unsigned dimension) const {
  return CallIndex(builder, "phal_grid_block_index", dimension);
}

llvm::Value* GridEmulatorTarget::BlockSize(llvm::IRBuilder<>& builder,
                                           unsigned dimension) const {
  return CallIndex(builder, "phal_grid_block_size", dimension);
}

llvm::Value* GridEmulatorTarget::GridSize(llvm::IRBuilder<>& builder,
                                          unsigned dimension) const {
  return CallIndex(builder, "phal_grid_grid_size", dimension);
}

void GridEmulatorTarget::Barrier(llvm::IRBuilder<>& builder) const {
  constexpr const char* kName = "phal_grid_barrier";
  llvm::Module& module = ModuleOf(builder);
  llvm::Function* function =
      Declare(module, kName,
              llvm::FunctionType::get(builder.getVoidTy(),
                                      {builder.getInt32Ty()}, false));
  // Convergent: the optimiser must not make the barrier depend on more
  // conditions than the kernel wrote. Its memory effects are unknown, so no
  // access moves across it.
  function->setDoesNotThrow();
  function->setConvergent();
  builder.CreateCall(function, {builder.getInt32(NextPlace(module, {kName}))});
}

llvm::Value* GridEmulatorTarget::SharedMemory(llvm::IRBuilder<>& builder,
                                              llvm::Module& module,
                                              uint64_t bytes) const {
  llvm::Function* function =
      Declare(module, "phal_grid_shared_memory",
              llvm::FunctionType::get(builder.getPtrTy(),
                                      {builder.getInt64Ty()}, false));
  function->setDoesNotThrow();
  function->setWillReturn();
  function->setMemoryEffects(llvm::MemoryEffects::inaccessibleMemOnly());
  llvm::CallInst* call =
      builder.CreateCall(function, {builder.getInt64(bytes)}, "shared");
  call->addRetAttr(
      llvm::Attribute::getWithAlignment(module.getContext(), llvm::Align(16)));
  return call;
}

llvm::Value* GridEmulatorTarget::ShuffleDown(llvm::IRBuilder<>& builder,
                                             llvm::Value* value,
                                             unsigned delta) const {
  llvm::Type* type = value->getType();
  if (type->isFloatTy()) return CallShuffle(builder, kShuffleF32, value, delta);
  if (type->isDoubleTy()) {
    return CallShuffle(builder, kShuffleF64, value, delta);
  }
  if (type->isIntegerTy()) {
    // Narrower integers travel widened, as on hardware whose shuffles move
    // whole 32-bit registers.
    const bool wide = type->getIntegerBitWidth() > 32;
    llvm::Type* carrier = wide ? builder.getInt64Ty() : builder.getInt32Ty();
    llvm::Value* shuffled =
        CallShuffle(builder, wide ? kShuffleI64 : kShuffleI32,
                    builder.CreateZExt(value, carrier), delta);
    return builder.CreateTrunc(shuffled, type);
  }
  // Half and bfloat values move as their bits.
  llvm::Type* bits = builder.getIntNTy(type->getPrimitiveSizeInBits());
  return builder.CreateBitCast(
      ShuffleDown(builder, builder.CreateBitCast(value, bits), delta), type);
}

StatusOr<std::string> GridEmulatorTarget::Compile(llvm::Module& module,
                                                  unsigned optimization_level,
                                                  bool check) const {
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(module, &stream)) {
    return Internal("grid emulator: the kernel's IR is malformed: " +
                    stream.str());
  }
  if (check) InstrumentGridAccesses(module);
  return host_->Compile(module, optimization_level);
}

}  // namespace phal::llvm_emitter::grid
