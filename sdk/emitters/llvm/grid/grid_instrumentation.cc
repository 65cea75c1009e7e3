#include "sdk/emitters/llvm/grid/grid_instrumentation.h"

#include <vector>

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/ModRef.h>

#include "sdk/emitters/llvm/grid/grid_runtime.h"

namespace phal::llvm_emitter::grid {
namespace {

// The checks only look at addresses: they touch no memory the kernel can
// see, so the optimiser keeps the kernel's own accesses free to move
// around them, and the check's result feeds the access it guards.
llvm::FunctionCallee DeclareCheck(llvm::Module& module, const char* name,
                                  llvm::Type* result,
                                  llvm::ArrayRef<llvm::Type*> parameters) {
  llvm::FunctionCallee callee = module.getOrInsertFunction(
      name, llvm::FunctionType::get(result, parameters, false));
  auto* function = llvm::cast<llvm::Function>(callee.getCallee());
  function->setDoesNotThrow();
  function->setWillReturn();
  function->setMemoryEffects(llvm::MemoryEffects::inaccessibleMemOnly());
  return callee;
}

// Accesses the checks need not see: the thread's own stack, the module's
// constants and the argument array the emulator itself fills.
bool IsUnchecked(const llvm::Value* address) {
  const llvm::Value* object = llvm::getUnderlyingObject(address, 0);
  if (llvm::isa<llvm::AllocaInst>(object) ||
      llvm::isa<llvm::GlobalVariable>(object)) {
    return true;
  }
  const auto* argument = llvm::dyn_cast<llvm::Argument>(object);
  return argument != nullptr &&
         argument->getParent()->hasFnAttribute(kGridKernelAttribute);
}

class Instrumenter {
 public:
  explicit Instrumenter(llvm::Module& module)
      : layout_(module.getDataLayout()),
        context_(module.getContext()),
        pointer_(llvm::PointerType::get(context_, 0)),
        i64_(llvm::Type::getInt64Ty(context_)),
        i32_(llvm::Type::getInt32Ty(context_)),
        checked_address_(DeclareCheck(module, "phal_grid_checked_address",
                                      pointer_, {pointer_, i64_, i32_})),
        checked_range_(DeclareCheck(module, "phal_grid_checked_range", i64_,
                                    {pointer_, pointer_, i64_})) {}

  void Instrument(llvm::Instruction& instruction) {
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
      Guard(*load, load->getPointerOperandIndex(), load->getType(),
            load->isAtomic() ? kGridAtomic : kGridRead);
    } else if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
      Guard(*store, store->getPointerOperandIndex(),
            store->getValueOperand()->getType(),
            store->isAtomic() ? kGridAtomic : kGridWrite);
    } else if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction)) {
      Guard(*rmw, rmw->getPointerOperandIndex(), rmw->getType(), kGridAtomic);
    } else if (auto* exchange =
                   llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&instruction)) {
      Guard(*exchange, exchange->getPointerOperandIndex(),
            exchange->getNewValOperand()->getType(), kGridAtomic);
    } else if (auto* memory =
                   llvm::dyn_cast<llvm::MemIntrinsic>(&instruction)) {
      GuardRange(*memory);
    }
  }

 private:
  // Replaces the address operand `index` of `instruction` by the checked
  // one.
  void Guard(llvm::Instruction& instruction, unsigned index, llvm::Type* type,
             GridAccess access) {
    llvm::Value* address = instruction.getOperand(index);
    if (IsUnchecked(address)) return;
    llvm::IRBuilder<> builder(&instruction);
    const uint64_t bytes = layout_.getTypeStoreSize(type).getFixedValue();
    instruction.setOperand(index,
                           CheckedAddress(builder, address, bytes, access));
  }

  llvm::Value* CheckedAddress(llvm::IRBuilder<>& builder, llvm::Value* address,
                              uint64_t bytes, GridAccess access) {
    return builder.CreateCall(
        checked_address_,
        {address, builder.getInt64(bytes), builder.getInt32(access)});
  }

  // memset, memcpy and memmove. A constant length (always so for the
  // .inline forms, whose length must stay a constant) checks each address
  // as one access of that size; otherwise the length becomes 0 when the
  // range is out of bounds.
  void GuardRange(llvm::MemIntrinsic& memory) {
    auto* transfer = llvm::dyn_cast<llvm::MemTransferInst>(&memory);
    llvm::Value* source = transfer != nullptr ? transfer->getSource() : nullptr;
    const bool check_destination = !IsUnchecked(memory.getDest());
    const bool check_source = source != nullptr && !IsUnchecked(source);
    if (!check_destination && !check_source) return;
    llvm::IRBuilder<> builder(&memory);
    if (auto* length = llvm::dyn_cast<llvm::ConstantInt>(memory.getLength())) {
      const uint64_t bytes = length->getZExtValue();
      if (check_destination) {
        memory.setDest(
            CheckedAddress(builder, memory.getDest(), bytes, kGridWrite));
      }
      if (check_source) {
        transfer->setSource(CheckedAddress(builder, source, bytes, kGridRead));
      }
      return;
    }
    llvm::Value* length = memory.getLength();
    llvm::Value* checked = builder.CreateCall(
        checked_range_,
        {memory.getDest(),
         check_source ? source : llvm::ConstantPointerNull::get(pointer_),
         builder.CreateZExtOrTrunc(length, i64_)});
    memory.setLength(builder.CreateZExtOrTrunc(checked, length->getType()));
  }

  const llvm::DataLayout& layout_;
  llvm::LLVMContext& context_;
  llvm::PointerType* pointer_;
  llvm::Type* i64_;
  llvm::Type* i32_;
  llvm::FunctionCallee checked_address_;
  llvm::FunctionCallee checked_range_;
};

}  // namespace

void InstrumentGridAccesses(llvm::Module& module) {
  Instrumenter instrumenter(module);
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    // Collected first: instrumenting inserts calls into the blocks walked.
    std::vector<llvm::Instruction*> accesses;
    for (llvm::BasicBlock& block : function) {
      for (llvm::Instruction& instruction : block) {
        if (llvm::isa<llvm::LoadInst, llvm::StoreInst, llvm::AtomicRMWInst,
                      llvm::AtomicCmpXchgInst, llvm::MemIntrinsic>(
                instruction)) {
          accesses.push_back(&instruction);
        }
      }
    }
    for (llvm::Instruction* access : accesses) instrumenter.Instrument(*access);
  }
}

}  // namespace phal::llvm_emitter::grid
